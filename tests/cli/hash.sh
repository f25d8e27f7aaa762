#!/bin/sh
# hash.sh - `ggufed hash`: tensor data hashes, manifests, --check, --file.
#
# The hashes are held to values computed without ggufed: each tensor's
# bytes cut out with dd at the offset and size `ggufed dump --json`
# reports, hashed by xxhsum (-H64, -H3), sha1sum and sha256sum; the
# whole-model lines to the same tools over the tensors' bytes in file
# order, the uuid to sha1sum over llama.cpp's namespace and those bytes;
# and (with the oracle) every tensor's sha256 to what ggml's own reader
# gives. Then manifests: one written by hand in llama-gguf-hash's format
# under another path, --check catching one flipped byte and naming the
# tensor, a tensor missing on either side, a --no-layer manifest, the
# strongest kind picked, and the errors (exit 2, one line each).
. "$TESTS_SRCDIR/lib.sh"

jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
m="$scratch/model.gguf"
cp_w "$demo" "$m"

# tensor_field NAME FIELD: a number of tensor NAME from dump --json.
"$GGUFED" dump --json "$m" >"$scratch/dump.json"
tensor_field() {
	grep "{\"name\": \"$1\"," "$scratch/dump.json" |
	    sed "s/.*\"$2\": \([0-9]*\).*/\1/"
}
# tensor_bytes NAME: the tensor's data, exactly, on stdout.
tensor_bytes() {
	dd if="$m" bs=1 skip="$(tensor_field "$1" abs_offset)" \
	    count="$(tensor_field "$1" bytes)" 2>/dev/null
}
# Faster for big tensors: in blocks of 64 bytes (offsets are aligned).
tensor_bytes_fast() {
	off=$(tensor_field "$1" abs_offset)
	n=$(tensor_field "$1" bytes)
	dd if="$m" iflag=skip_bytes,count_bytes skip="$off" count="$n" \
	    bs=65536 2>/dev/null
}
names=$(grep -o '{"name": "[^"]*"' "$scratch/dump.json" | sed 's/.*: "//; s/"$//')
ntensors=$(printf '%s\n' "$names" | wc -l)

# ------------------------------------------------------------- the format
"$GGUFED" hash "$m" >"$scratch/out"
ok $? "hash exits 0"
[ "$(wc -l <"$scratch/out")" -eq $((ntensors + 1)) ]
ok $? "one line per tensor ($ntensors) and one for the model"
printf '%s\n' "$names" | sed "s|^|$m:|" >"$scratch/want"
head -n "$ntensors" "$scratch/out" | sed 's/^xxh64     [0-9a-f]\{16\}  //' |
    cmp -s - "$scratch/want"
ok $? "tensor lines are 'xxh64     HEX  FILE:TENSOR' in file order"
tail -n 1 "$scratch/out" | grep -qx "xxh64     [0-9a-f]\{16\}  $m"
ok $? "the last line is the model's, 'xxh64     HEX  FILE'"

# ------------------------------------------------- known vectors, per tensor
if command -v xxhsum >/dev/null 2>&1; then have_xxhsum=1; else have_xxhsum=0; fi
"$GGUFED" hash --all --uuid "$m" >"$scratch/all"
ok $? "hash --all --uuid exits 0"
[ "$(wc -l <"$scratch/all")" -eq $((4 * ntensors + 5)) ]
ok $? "--all: four lines per tensor, five for the model (uuid last)"
for t in blk.0.attn_q.weight blk.1.attn_norm.weight output.weight; do
	tensor_bytes "$t" >"$scratch/t.bin"
	[ "$(wc -c <"$scratch/t.bin")" -eq "$(tensor_field "$t" bytes)" ] ||
	    ok 1 "$t: dd cut its bytes"
	want=$(sha256sum <"$scratch/t.bin" | cut -d' ' -f1)
	grep -qx "sha256    $want  $m:$t" "$scratch/all"
	ok $? "$t: sha256 is sha256sum's of its bytes"
	want=$(sha1sum <"$scratch/t.bin" | cut -d' ' -f1)
	grep -qx "sha1      $want  $m:$t" "$scratch/all"
	ok $? "$t: sha1 is sha1sum's of its bytes"
	if [ $have_xxhsum = 1 ]; then
		want=$(xxhsum -H64 <"$scratch/t.bin" | cut -d' ' -f1)
		grep -qx "xxh64     $want  $m:$t" "$scratch/all"
		ok $? "$t: xxh64 is xxhsum -H64's of its bytes"
		want=$(xxhsum -H3 <"$scratch/t.bin" | sed 's/.*= //')
		grep -qx "xxh3      $want  $m:$t" "$scratch/all"
		ok $? "$t: xxh3 is xxhsum -H3's of its bytes"
	else
		skip "xxhsum is not installed (Debian package xxhash)"
		skip "xxhsum is not installed (Debian package xxhash)"
	fi
done

# ------------------------------ a tensor past the windows a mapping is read in
# blk.0.big is 10 MiB: its bytes are mapped in 4 MiB at a time.
pm="$scratch/Pieces-1K-v1.0-F16.gguf"
"$TESTS_BUILDDIR/tools/gen_validate" --pieces "$pm"
"$GGUFED" dump --json "$pm" >"$scratch/pdump.json"
"$GGUFED" hash --sha256 "$pm" >"$scratch/pout" 2>&1
rc=$?
"$GGUFED" hash --sha256 --no-layer "$pm" >"$scratch/pmodel" 2>&1
rc2=$?
: >"$scratch/pcat.bin"
for t in blk.0.big blk.0.next; do
	f=$(grep "{\"name\": \"$t\"," "$scratch/pdump.json")
	off=$(printf '%s\n' "$f" | sed 's/.*"abs_offset": \([0-9]*\).*/\1/')
	n=$(printf '%s\n' "$f" | sed 's/.*"bytes": \([0-9]*\).*/\1/')
	dd if="$pm" iflag=skip_bytes,count_bytes skip="$off" count="$n" \
	    bs=65536 2>/dev/null >"$scratch/pt.bin"
	cat "$scratch/pt.bin" >>"$scratch/pcat.bin"
	want=$(sha256sum <"$scratch/pt.bin" | cut -d' ' -f1)
	[ $rc -eq 0 ] && grep -qx "sha256    $want  $pm:$t" "$scratch/pout"
	ok $? "$t ($n bytes): sha256 is sha256sum's of its bytes"
done
want=$(sha256sum <"$scratch/pcat.bin" | cut -d' ' -f1)
[ $rc -eq 0 ] && grep -qx "sha256    $want  $pm" "$scratch/pout" &&
    [ $rc2 -eq 0 ] && grep -qx "sha256    $want  $pm" "$scratch/pmodel"
ok $? "the model's sha256, with and without --no-layer: sha256sum of its tensors' bytes"

# ------------------------------------------------ known vectors, the model
: >"$scratch/cat.bin"
for t in $names; do
	tensor_bytes_fast "$t" >>"$scratch/cat.bin"
done
want=$(sha256sum <"$scratch/cat.bin" | cut -d' ' -f1)
grep -qx "sha256    $want  $m" "$scratch/all"
ok $? "model sha256: sha256sum of every tensor's bytes in file order"
want=$(sha1sum <"$scratch/cat.bin" | cut -d' ' -f1)
grep -qx "sha1      $want  $m" "$scratch/all"
ok $? "model sha1: the same with sha1sum"
if [ $have_xxhsum = 1 ]; then
	want=$(xxhsum -H64 <"$scratch/cat.bin" | cut -d' ' -f1)
	grep -qx "xxh64     $want  $m" "$scratch/all"
	ok $? "model xxh64: the same with xxhsum -H64"
else
	skip "xxhsum is not installed (Debian package xxhash)"
fi
# UUIDv5: sha1 of llama.cpp's namespace and the data, version 5, variant 10.
s=$( { printf '\357\000\022\006\332\334\137\155\241\137\063\131\345\167\324\345'
    cat "$scratch/cat.bin"; } | sha1sum | cut -c1-32)
v=$(printf '%x' $(( (0x$(echo "$s" | cut -c17) & 3) | 8 )))
want=$(echo "$s" | cut -c1-8)-$(echo "$s" | cut -c9-12)-5$(echo "$s" |
    cut -c14-16)-$v$(echo "$s" | cut -c18-20)-$(echo "$s" | cut -c21-32)
grep -qx "uuid      $want  $m" "$scratch/all"
ok $? "uuid: UUIDv5 of the namespace ef001206-... and the data ($want)"

# ------------------------------------------------------------ ggml's view
if [ -x "$ORACLE" ] && "$ORACLE" dump "$m" >"$scratch/oracle" 2>/dev/null; then
	sed -n 's/^tensor [0-9]* "\([^"]*\)" .* sha256=\([0-9a-f]*\)$/sha256    \2  X:\1/p' \
	    "$scratch/oracle" >"$scratch/want"
	"$GGUFED" hash --sha256 "$m" | sed "s|  $m|  X|" | head -n -1 >"$scratch/got"
	cmp -s "$scratch/got" "$scratch/want"
	ok $? "every tensor's sha256 is that of the bytes ggml reads (oracle)"
	q8="$SHARED_DIR/fixtures/real/TinyStories-656K-Q8_0.gguf"
	if [ -f "$q8" ]; then
		"$ORACLE" dump "$q8" | sed -n \
		    's/^tensor [0-9]* "\([^"]*\)" .* sha256=\([0-9a-f]*\)$/sha256    \2  X:\1/p' \
		    >"$scratch/want"
		"$GGUFED" hash --sha256 "$q8" | sed "s|  $q8|  X|" |
		    head -n -1 >"$scratch/got"
		cmp -s "$scratch/got" "$scratch/want"
		ok $? "the same for a real model (TinyStories Q8_0)"
	else
		skip "$(shared_missing fixtures/real/TinyStories-656K-Q8_0.gguf)"
	fi
else
	skip "the ggml oracle does not run here"
	skip "the ggml oracle does not run here"
fi

# ------------------------------------------------------------------ --file
"$GGUFED" hash --file "$m" "$demo" >"$scratch/out"
ok $? "--file exits 0"
sha256sum "$m" "$demo" | cmp -s - "$scratch/out"
ok $? "--file prints what sha256sum prints"

# -------------------------------------------- a manifest written by hand
# llama-gguf-hash's format, made here from the tools' hashes, naming the
# model by another path; one entry per tensor for xxh64 and sha256.
mf="$scratch/hand.manifest"
: >"$mf"
for t in $names; do
	tensor_bytes_fast "$t" >"$scratch/t.bin"
	printf '%-8s  %s  %s\n' sha256 \
	    "$(sha256sum <"$scratch/t.bin" | cut -d' ' -f1)" \
	    "models/original/Demo.gguf:$t" >>"$mf"
done
printf '%-8s  %s  %s\n' sha256 \
    "$(sha256sum <"$scratch/cat.bin" | cut -d' ' -f1)" \
    models/original/Demo.gguf >>"$mf"
"$GGUFED" hash --check "$mf" "$m" >"$scratch/out"
ok $? "--check of a hand-written manifest naming another path: exit 0"
head -n 1 "$scratch/out" | grep -qx "manifest  $mf  sha256"
ok $? "the first line names the manifest and its kinds"
[ "$(grep -c '  -  Ok$' "$scratch/out")" -eq $((ntensors + 1)) ]
ok $? "every tensor and the model: '  -  Ok'"
tail -n 1 "$scratch/out" | grep -qx "Verification results for $mf - Success"
ok $? "the last line says Success"
grep -q '^sha256 ' "$scratch/out" && ! grep -q '^xxh64 ' "$scratch/out"
ok $? "with no kind asked for, the manifest's strongest (sha256) is checked"

# ------------------------------------------------------ one flipped byte
"$GGUFED" hash --all "$m" >"$scratch/made.manifest"
ok $? "a manifest made by ggufed"
cp_w "$m" "$scratch/flipped.gguf"
off=$(( $(tensor_field blk.1.ffn_up.weight abs_offset) + 100 ))
b=$(dd if="$m" bs=1 skip=$off count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(( (b + 1) % 256 )))" |
    dd of="$scratch/flipped.gguf" bs=1 seek=$off conv=notrunc 2>/dev/null
"$GGUFED" hash --check "$scratch/made.manifest" "$scratch/flipped.gguf" \
    >"$scratch/out"
[ $? -eq 1 ]; ok $? "--check: one flipped byte fails, exit 1"
grep -qx "sha256    [0-9a-f]*  $scratch/flipped.gguf:blk.1.ffn_up.weight  -  Mismatch" \
    "$scratch/out"
ok $? "the tensor's line says Mismatch (sha256, the manifest's strongest)"
[ "$(grep -c '  -  Mismatch$' "$scratch/out")" -eq 2 ]
ok $? "only that tensor and the model mismatch"
tail -n 1 "$scratch/out" |
    grep -qx "mismatch: $scratch/flipped.gguf:blk.1.ffn_up.weight, $scratch/flipped.gguf"
ok $? "the last line names the tensor (and the model)"
"$GGUFED" hash --check "$scratch/made.manifest" "$scratch/flipped.gguf" \
    --xxh3 >"$scratch/out"
[ $? -eq 1 ] && grep -q "^xxh3 .*blk.1.ffn_up.weight  -  Mismatch" \
    "$scratch/out" && ! grep -q "^sha256 " "$scratch/out"
ok $? "--check --xxh3 checks the kind asked for"

# -------------------------------------- another name, missing tensors
cp_w "$m" "$scratch/renamed-copy.gguf"
"$GGUFED" hash -c "$scratch/made.manifest" "$scratch/renamed-copy.gguf" \
    >"$scratch/out"
ok $? "-c: the same model under another name matches"
grep -q "renamed-copy.gguf:output.weight  -  Ok" "$scratch/out"
ok $? "lines carry the name given on the command line"
"$GGUFED" rm-tensor "$m" blk.1.ffn_up.weight -q -o "$scratch/less.gguf"
"$GGUFED" hash -c "$scratch/made.manifest" "$scratch/less.gguf" \
    >"$scratch/out"
[ $? -eq 1 ] &&
    tail -n 1 "$scratch/out" | grep -q "not in the file: $scratch/less.gguf:blk.1.ffn_up.weight"
ok $? "a tensor the file lacks: exit 1, named in the last line"
"$GGUFED" hash "$scratch/less.gguf" >"$scratch/less.manifest"
"$GGUFED" hash -c "$scratch/less.manifest" "$m" >"$scratch/out"
[ $? -eq 1 ] &&
    grep -q "blk.1.ffn_up.weight  -  Not Found" "$scratch/out" &&
    tail -n 1 "$scratch/out" | grep -q "not in the manifest: $m:blk.1.ffn_up.weight"
ok $? "a tensor the manifest lacks: Not Found, exit 1, named"
# A manifest whose tensor lines name none of the file's tensors is no
# --no-layer manifest: its tensors are not in the file, the file's not in
# it (with the model's line right, or without one).
whole=$("$GGUFED" hash --no-layer "$m" | awk '{ print $2 }')
printf 'xxh64     %s  %s:t1\nxxh64     %s  %s\n' "$whole" "$m" "$whole" "$m" \
    >"$scratch/foreign.manifest"
"$GGUFED" hash -c "$scratch/foreign.manifest" "$m" >"$scratch/out"
[ $? -eq 1 ] && tail -n 1 "$scratch/out" | grep -q "not in the file: $m:t1" &&
    tail -n 1 "$scratch/out" | grep -q "not in the manifest: $m:token_embd.weight"
ok $? "tensor lines of tensors the file lacks, its model line right: exit 1, both named" ||
    sed 's/^/# /' "$scratch/out"
printf 'xxh64     %s  %s:t1\nxxh64     %s  %s:t2\n' "$whole" "$m" "$whole" "$m" \
    >"$scratch/foreign.manifest"
"$GGUFED" hash -c "$scratch/foreign.manifest" "$m" >"$scratch/out"
[ $? -eq 1 ] && tail -n 1 "$scratch/out" | grep -q "not in the file: $m:t1, $m:t2"
ok $? "tensor lines alone, of tensors the file lacks: exit 1, named" ||
    sed 's/^/# /' "$scratch/out"

# --no-layer manifests check by the model line alone.
"$GGUFED" hash --no-layer --sha1 "$m" >"$scratch/nolayer.manifest"
[ "$(wc -l <"$scratch/nolayer.manifest")" -eq 1 ]
ok $? "--no-layer: the model line alone"
"$GGUFED" hash -c "$scratch/nolayer.manifest" "$scratch/renamed-copy.gguf" \
    >"$scratch/out"
ok $? "a --no-layer manifest checks the model line (another name)"
"$GGUFED" hash -c "$scratch/nolayer.manifest" "$scratch/flipped.gguf" \
    >/dev/null
[ $? -eq 1 ]; ok $? "... and fails on the flipped byte"

# A --check report reads as a manifest too (its "  -  Ok" cut off).
"$GGUFED" hash -c "$mf" "$m" >"$scratch/report"
"$GGUFED" hash -c "$scratch/report" "$scratch/renamed-copy.gguf" >/dev/null
ok $? "a --check report is a manifest"

# A tensor may be named like a result ("x  -  Ok"): a manifest's names
# are cut only in a report, where every line ends in a result.
cp_w "$m" "$scratch/ok.gguf"
"$GGUFED" rename -i -q "$scratch/ok.gguf" output.weight "x  -  Ok"
"$GGUFED" hash "$scratch/ok.gguf" >"$scratch/ok.manifest"
"$GGUFED" hash -c "$scratch/ok.manifest" "$scratch/ok.gguf" \
    >"$scratch/ok.report"
[ $? -eq 0 ] && grep -q ':x  -  Ok  -  Ok$' "$scratch/ok.report"
ok $? "a tensor named 'x  -  Ok': --check of its own manifest is Ok" ||
    sed 's/^/# /' "$scratch/ok.report" | tail -3
"$GGUFED" hash -c "$scratch/ok.report" "$scratch/ok.gguf" >/dev/null
ok $? "... and of that check's report"
# A line given twice (two manifests concatenated) is matched twice.
cat "$mf" "$mf" >"$scratch/twice.manifest"
"$GGUFED" hash -c "$scratch/twice.manifest" "$m" >"$scratch/out"
[ $? -eq 0 ] && ! grep -q 'not in the file' "$scratch/out"
ok $? "every line given twice: all Ok, none 'not in the file'" ||
    tail -2 "$scratch/out" | sed 's/^/# /'
{ cat "$mf"; sed -n 's/^\(sha256 *\)[0-9a-f]*\(  .*:output.weight\)$/\100\2/p' "$mf"; } \
    >"$scratch/twice.manifest"
"$GGUFED" hash -c "$scratch/twice.manifest" "$m" >"$scratch/out"
[ $? -eq 1 ] && grep -q "^mismatch: $m:output.weight\$" "$scratch/out" &&
    ! grep -q 'not in the file' "$scratch/out"
ok $? "a line given twice with two hashes: a mismatch" ||
    tail -2 "$scratch/out" | sed 's/^/# /'

# Blanks in names: a file name with a space, a tensor name with a space
# and a tab (printed escaped), one that starts with a space. The name is
# the rest of the line after "HASH  ", not the next word.
sp="$scratch/my model.gguf"
cp "$m" "$sp" &&
    "$GGUFED" rename -i -q "$sp" blk.0.attn_q.weight "$(printf 'attn q\tx')" &&
    "$GGUFED" rename -i -q "$sp" blk.0.attn_k.weight " lead"
"$GGUFED" hash "$sp" >"$scratch/sp.manifest"
grep -qF "  $sp:attn q\\tx" "$scratch/sp.manifest" &&
    grep -q "  $sp: lead\$" "$scratch/sp.manifest" &&
    "$GGUFED" hash -c "$scratch/sp.manifest" "$sp" >"$scratch/sp.report" &&
    grep -q "  $sp: lead  -  Ok\$" "$scratch/sp.report" &&
    "$GGUFED" hash -c "$scratch/sp.report" "$sp" >/dev/null
ok $? "--check of names with blanks (and of its own report): every line Ok" ||
    sed 's/^/# /' "$scratch/sp.manifest" | head -5
sed 's/^\(xxh64 *\)[0-9a-f]*\(  .*: lead\)$/\10000000000000000\2/' \
    "$scratch/sp.manifest" >"$scratch/sp.bad"
"$GGUFED" hash -c "$scratch/sp.bad" "$sp" >"$scratch/out"
[ $? -eq 1 ] && grep -q "^mismatch: $sp: lead\$" "$scratch/out"
ok $? "... and a wrong hash of ' lead' is a mismatch of that name" ||
    tail -3 "$scratch/out" | sed 's/^/# /'

# Several files, one manifest holding both.
"$GGUFED" hash "$m" "$scratch/less.gguf" >"$scratch/two.manifest"
"$GGUFED" hash -c "$scratch/two.manifest" "$m" "$scratch/less.gguf" >/dev/null
ok $? "several files against one manifest of both"

# ------------------------------------------------------------------ JSON
"$GGUFED" hash --json --all --uuid "$m" "$scratch/less.gguf" >"$scratch/out"
ok $? "--json exits 0"
"$jsoncheck" <"$scratch/out"; ok $? "--json is one valid document"
"$GGUFED" hash --json -c "$scratch/made.manifest" "$scratch/flipped.gguf" \
    >"$scratch/out"
[ $? -eq 1 ] && "$jsoncheck" <"$scratch/out" &&
    grep -q '"result": "Mismatch"' "$scratch/out" &&
    grep -q '"name": "blk.1.ffn_up.weight", "sha256": "[0-9a-f]*", "sha256_check": "Mismatch"' "$scratch/out"
ok $? "--json --check: valid, each tensor's result, the verdict"
"$GGUFED" hash --json -c "$scratch/made.manifest" "$scratch/less.gguf" \
    "$scratch/flipped.gguf" >"$scratch/out"
[ $? -eq 1 ] && "$jsoncheck" <"$scratch/out" &&
    grep -qF "  \"not_in_file\": [\"$scratch/less.gguf:blk.1.ffn_up.weight\"]" \
    "$scratch/out" &&
    grep -qF "  \"mismatch\": [\"$scratch/less.gguf\", \"$scratch/flipped.gguf:blk.1.ffn_up.weight\", \"$scratch/flipped.gguf\"]" \
    "$scratch/out" &&
    grep -qF '  "not_in_manifest": []' "$scratch/out"
ok $? "--json --check: the lists of the text's last line (not in the file, mismatch)" ||
    tail -n 4 "$scratch/out" | sed 's/^/# /'
"$GGUFED" hash --xxh64 "$m" | grep -v ':output.weight$' >"$scratch/short.manifest"
"$GGUFED" hash --json -c "$scratch/short.manifest" "$m" >"$scratch/out"
[ $? -eq 1 ] && grep -qF "  \"not_in_manifest\": [\"$m:output.weight\"]" \
    "$scratch/out"
ok $? "--json --check: a tensor the manifest lacks is listed" ||
    tail -n 4 "$scratch/out" | sed 's/^/# /'
"$GGUFED" hash --json --file "$m" | "$jsoncheck"
ok $? "--json --file is valid"

# ------------------------------------------------- proof after a save
# edit/set --verify: the data of each tensor the save copied, source
# against result (xxh64); in place, nothing was rewritten.
long="a name long enough that the header grows and the file is rewritten"
"$GGUFED" set "$m" general.name "$long" -o "$scratch/v1.gguf" --verify \
    >"$scratch/out"
ok $? "set -o --verify: exit 0"
grep -qx "$scratch/v1.gguf: tensor data unchanged ($ntensors tensors, xxh64)" \
    "$scratch/out"
ok $? "set -o --verify: 'tensor data unchanged ($ntensors tensors, xxh64)'"
cp_w "$m" "$scratch/v2.gguf"
"$GGUFED" set "$scratch/v2.gguf" llama.block_count 2 -i --verify >"$scratch/out"
[ $? -eq 0 ] && grep -qx "$scratch/v2.gguf: tensor data unchanged ($ntensors tensors, not rewritten)" \
    "$scratch/out"
ok $? "in place --verify: unchanged, not rewritten"
cp_w "$m" "$scratch/v3.gguf"
"$GGUFED" edit "$scratch/v3.gguf" -i --verify -e "set general.name \"$long\"" \
    -e 'rename output.weight lm_head.weight' -e 'rm-tensor blk.1.ffn_up.weight' \
    >"$scratch/out"
[ $? -eq 0 ] && grep -qx "$scratch/v3.gguf: tensor data unchanged ($((ntensors - 1)) tensors, xxh64)" \
    "$scratch/out"
ok $? "edit -i --verify over itself, a renamed and a removed tensor: unchanged"
"$GGUFED" convert "$m" output.weight f32 -o "$scratch/v4.gguf" --verify \
    >"$scratch/out" 2>/dev/null
[ $? -eq 0 ] && grep -qx "$scratch/v4.gguf: tensor data unchanged ($((ntensors - 1)) tensors, xxh64); rewritten by the edit: output.weight (F32)" \
    "$scratch/out"
ok $? "convert --verify: the converted tensor is named as rewritten by the edit, not as damage"
# Damage between the write and the rename: the save holds before its
# fsync (GGUFED_FAULT stall), a byte of a tensor is flipped in the new
# file, then the save goes on; --verify must name that tensor.
"$GGUFED" set "$m" general.name "$long" -o "$scratch/ref.gguf" -q
flag="$scratch/stall"
: >"$flag"
mkdir "$scratch/out.d"
GGUFED_STALL="$flag" GGUFED_FAULT=fsync:1:stall "$GGUFED" set "$m" \
    general.name "$long" -o "$scratch/out.d/v5.gguf" --verify \
    >"$scratch/out" 2>"$scratch/err" &
pid=$!
written() {
	t=$(ls -A "$scratch/out.d" | grep '^\.v5\.gguf\.ggufed-' | head -n 1)
	[ -n "$t" ] && cmp -s "$scratch/out.d/$t" "$scratch/ref.gguf" &&
	    echo "$scratch/out.d/$t"
}
i=0
until tmp=$(written); do
	i=$((i + 1)); [ $i -lt 300 ] || break
	sleep 0.1
done
off=$(( $("$GGUFED" dump --json "$scratch/ref.gguf" |
    grep '{"name": "blk.0.ffn_down.weight",' |
    sed 's/.*"abs_offset": \([0-9]*\).*/\1/') + 7 ))
b=$(dd if="$tmp" bs=1 skip=$off count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(( (b + 1) % 256 )))" |
    dd of="$tmp" bs=1 seek=$off conv=notrunc 2>/dev/null
rm -f "$flag"
wait $pid
rc=$?
[ $rc -eq 1 ] &&
    grep -qx "$scratch/out.d/v5.gguf: tensor data CHANGED: blk.0.ffn_down.weight ($ntensors compared, xxh64)" \
    "$scratch/out"
ok $? "a byte changed in the new file: --verify names the tensor, exit $rc" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"
"$GGUFED" set "$m" general.name x -n --verify >"$scratch/out"
[ $? -eq 0 ] && ! grep -q "tensor data" "$scratch/out"
ok $? "--verify with --dry-run: nothing saved, nothing to prove"

# ------------------------------------------------------------ split sets
# A set made by `ggufed split` (15 tensors a shard: 3 shards) hashes as
# one model: its tensor lines are those of each shard hashed alone
# (--shard), in set order, each naming its shard; its hashes are the
# merged file's; the model line is over every tensor, named as given.
sd="$scratch/set"
mkdir -p "$sd"
"$GGUFED" split --max-tensors 15 "$m" "$sd/s" >/dev/null &&
    "$GGUFED" merge "$sd/s-00001-of-00003.gguf" "$sd/merged.gguf" >/dev/null
ok $? "a set of 3 shards and its merge"
"$GGUFED" hash --all "$sd/s-00002-of-00003.gguf" >"$scratch/set.out"
ok $? "hash of a shard of a set exits 0"
: >"$scratch/shards.out"
for k in 1 2 3; do
	"$GGUFED" hash --all --shard "$sd/s-0000$k-of-00003.gguf" |
	    grep ':' >>"$scratch/shards.out"
done
grep ':' "$scratch/set.out" | cmp -s - "$scratch/shards.out"
ok $? "the set's tensor lines: each shard's (--shard), in set order, naming the shard"
[ "$(grep -c ':' "$scratch/set.out")" -eq $((4 * ntensors)) ]
ok $? "every tensor of the set, four kinds each"
"$GGUFED" hash --all "$sd/merged.gguf" >"$scratch/merged.out"
sed 's/  [^ ]*$//' "$scratch/set.out" >"$scratch/set.hex"
sed 's/  [^ ]*$//' "$scratch/merged.out" | cmp -s - "$scratch/set.hex"
ok $? "every hash of the set, tensors and model, is the merged file's"
tail -n 4 "$scratch/set.out" | sed 's/.*  //' | sort -u |
    grep -qx "$sd/s-00002-of-00003.gguf"
ok $? "the model lines name the shard given"
"$GGUFED" hash --shard "$sd/s-00002-of-00003.gguf" >"$scratch/one.out"
[ "$(grep -c ':' "$scratch/one.out")" -eq 15 ] &&
    ! tail -n 1 "$scratch/one.out" | cmp -s - "$scratch/set.out"
ok $? "--shard: the file alone, 15 tensors and its own model line"
"$GGUFED" hash --no-set "$sd/s-00003-of-00003.gguf" | grep -c ':' |
    grep -qx "$(( ntensors - 30 ))"
ok $? "--no-set is --shard"
"$GGUFED" hash -c "$scratch/made.manifest" "$sd/s-00001-of-00003.gguf" \
    >"$scratch/out"
[ $? -eq 0 ] && tail -n 1 "$scratch/out" | grep -q ' - Success$'
ok $? "a set checks against the manifest of the model it was split from"
# ... and the other way: the merged model against the set's manifest
# (its tensors named under each shard there)
"$GGUFED" hash --sha256 "$sd/s-00002-of-00003.gguf" >"$scratch/set2.manifest"
"$GGUFED" hash -c "$scratch/set2.manifest" "$sd/merged.gguf" >"$scratch/out"
[ $? -eq 0 ] && tail -n 1 "$scratch/out" | grep -q ' - Success$'
ok $? "the merged model checks against its set's manifest" ||
    tail -n 3 "$scratch/out" | sed 's/^/# /'
"$GGUFED" edit "$sd/merged.gguf" -o "$scratch/no-output.gguf" -q \
    -e 'rm-tensor output.weight' >/dev/null 2>&1
"$GGUFED" hash -c "$scratch/set2.manifest" "$scratch/no-output.gguf" >"$scratch/out"
[ $? -eq 1 ] && tail -n 1 "$scratch/out" | grep -q \
    "not in the file: $scratch/no-output.gguf:output.weight$"
ok $? "... and a model lacking one of the set's tensors is told it lacks it" ||
    tail -n 3 "$scratch/out" | sed 's/^/# /'
"$GGUFED" hash --sha256 "$sd/s-00001-of-00003.gguf" >"$scratch/set.manifest"
cp_w "$sd/s-00003-of-00003.gguf" "$scratch/s3.keep"
"$GGUFED" dump --json --shard "$sd/s-00003-of-00003.gguf" >"$scratch/s3.json"
off=$(grep '{"name": "output.weight",' "$scratch/s3.json" |
    sed 's/.*"abs_offset": \([0-9]*\).*/\1/')
off=$((off + 7))
b=$(dd if="$sd/s-00003-of-00003.gguf" bs=1 skip=$off count=1 2>/dev/null |
    od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(( (b + 1) % 256 )))" |
    dd of="$sd/s-00003-of-00003.gguf" bs=1 seek=$off conv=notrunc 2>/dev/null
"$GGUFED" hash -c "$scratch/set.manifest" "$sd/s-00001-of-00003.gguf" \
    >"$scratch/out"
[ $? -eq 1 ] && tail -n 1 "$scratch/out" | grep -qx \
    "mismatch: $sd/s-00003-of-00003.gguf:output.weight, $sd/s-00001-of-00003.gguf"
ok $? "a byte changed in the last shard: --check names the tensor in its shard"
cp_w "$scratch/s3.keep" "$sd/s-00003-of-00003.gguf"

# --------------------------------------------------------- big manifests
# Work linear (n log n) in the manifest's lines: 300,000 lines naming a
# tensor of the file under as many prefixes, as many under one prefix,
# as many naming tensors the file does not have, each take a second or
# two; the quadratic search for the prefix, and the list of names not in
# the file grown one at a time, took many minutes. The timeout only stops
# a run that went wrong.
big() {	# big DESCRIPTION AWK-PROGRAM
	awk "BEGIN { $2 }" >"$scratch/big.manifest"
	timeout -s KILL 60 "$GGUFED" hash -c "$scratch/big.manifest" "$m" \
	    >"$scratch/out" 2>"$scratch/err"
	st=$?
	[ $st -eq 1 ] && grep -q '^xxh64  *[0-9a-f]*  .*:token_embd.weight  -  ' "$scratch/out"
	ok $? "$1 (exit $st)"
}
big "300,000 lines under 300,000 prefixes: done at once" \
    'for (i = 0; i < 300000; i++) printf "xxh64     %016x  p%d:token_embd.weight\n", i, i'
big "300,000 lines of a tensor under one prefix: done at once" \
    'for (i = 0; i < 300000; i++) printf "xxh64     %016x  p:token_embd.weight\n", i'
big "300,000 lines not in the file: done at once" \
    'for (i = 0; i < 300000; i++) printf "xxh64     %016x  p:t%d\n", i, i;
     print "xxh64     0000000000000000  p:token_embd.weight"'

# ---------------------------------------------------------------- errors
one_line() {	# one_line DESCRIPTION WANT-STATUS CMD...: one stderr line
	d=$1; want=$2; shift 2		# (a usage error adds the usage)
	"$@" >/dev/null 2>"$scratch/err"
	st=$?
	[ $st -eq "$want" ] && grep -v '^usage: ggufed hash ' "$scratch/err" |
	    grep -c . | grep -qx 1 && head -n 1 "$scratch/err" | grep -q '^ggufed: '
	ok $? "$d (exit $st: $(head -c 160 "$scratch/err"))"
}
one_line "a missing manifest" 2 "$GGUFED" hash -c "$scratch/nope" "$m"
printf 'hello world\nmd5 1234 x\n' >"$scratch/junk"
one_line "a manifest with no known kind" 2 "$GGUFED" hash -c "$scratch/junk" "$m"
one_line "a missing model" 2 "$GGUFED" hash "$scratch/nope.gguf"
one_line "a file that is not GGUF" 2 "$GGUFED" hash "$scratch/junk"
one_line "--file of a missing file" 2 "$GGUFED" hash --file "$scratch/nope"
one_line "an unknown option" 2 "$GGUFED" hash --md5 "$m"
one_line "--file with a kind" 2 "$GGUFED" hash --file --xxh64 "$m"
"$GGUFED" hash "$m" "$scratch/nope.gguf" >"$scratch/out" 2>/dev/null
[ $? -eq 2 ] && [ "$(wc -l <"$scratch/out")" -eq $((ntensors + 1)) ]
ok $? "an unreadable file among others: the others hashed, exit 2"
# A tensor whose data lies past the end of the file.
head -c "$(( $(tensor_field output.weight abs_offset) + 10 ))" "$m" \
    >"$scratch/cut.gguf"
one_line "a model cut short" 2 "$GGUFED" hash "$scratch/cut.gguf"

# A tensor of shard 3 missing from the set is named with its own shard, as
# the manifest names it, not with the first shard's.
mkdir -p "$scratch/shardname"
"$GGUFED" split -q --max-tensors 12 "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" \
    "$scratch/shardname/demo" &&
    "$GGUFED" hash "$scratch/shardname/demo-00001-of-00004.gguf" \
    >"$scratch/shardname.manifest" &&
    "$GGUFED" rm-tensor "$scratch/shardname/demo-00001-of-00004.gguf" \
    blk.3.ffn_up.weight -i >/dev/null 2>&1
"$GGUFED" hash --check "$scratch/shardname.manifest" \
    "$scratch/shardname/demo-00001-of-00004.gguf" >"$scratch/out" 2>&1
[ $? -eq 1 ] &&
    grep -q 'not in the file: [^ ]*demo-00003-of-00004.gguf:blk.3.ffn_up.weight' \
    "$scratch/out" &&
    ! grep -q 'demo-00001-of-00004.gguf:blk.3.ffn_up' "$scratch/out"
ok $? "a set's missing tensor is named with its own shard" ||
    sed 's/^/# /' "$scratch/out"

done_testing
