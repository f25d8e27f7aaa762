#!/bin/sh
# diff.sh - `ggufed diff A B` on pairs made by ggufed's own edits, one
# kind of change each: the exact line each change gives, the exit status
# (0 equal, 1 different, 2 trouble), the string diff against diff -u, the
# data hash against xxhsum, --data against values computed with awk from
# `ggufed cat`, --json as one valid document, -q and --threads.
. "$TESTS_SRCDIR/lib.sh"

jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
fx="$SHARED_DIR/fixtures"
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
a="$scratch/a.gguf"
b="$scratch/b.gguf"
cp_w "$demo" "$a" || { echo "Bail out! no demo model"; exit 1; }

# mk EDIT...: b is a with the edit commands applied (forced: some values
# are ones llama.cpp would refuse).
mk() {
	args=
	rm -f "$b"
	for e in "$@"; do
		args="$args -e '$e'"
	done
	eval "\"\$GGUFED\" edit \"\$a\" -o \"\$b\" -q --force $args" \
	    2>"$scratch/err"
}

# run ARGS...: diff with its output in $scratch/out and status in $rc.
run() {
	"$GGUFED" diff "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
}

# has LINE DESCRIPTION: the output holds that exact line.
has() {
	grep -qxF -- "$1" "$scratch/out"
	ok $? "$2" || { sed 's/^/# /' "$scratch/out" | head -20; }
}

# --------------------------------------------------------------- equal
run "$a" "$a"
[ $rc -eq 0 ] && [ ! -s "$scratch/out" ] && [ ! -s "$scratch/err" ]
ok $? "a file against itself: exit 0, nothing printed"
cp_w "$a" "$scratch/copy.gguf"
run "$a" "$scratch/copy.gguf"; [ $rc -eq 0 ]; ok $? "against a copy: exit 0"
mk 'set general.name "Demo Llama"'
run "$a" "$b"; [ $rc -eq 0 ]; ok $? "a save that changed nothing: exit 0"

# ------------------------------------------------------------- metadata
mk 'set general.name "Other name"'
run "$a" "$b"; [ $rc -eq 1 ]; ok $? "a key set: exit 1"
has '~ key general.name: "Demo Llama" -> "Other name"' "a key set: old -> new"
has "--- $a" "the first line names A"
has "+++ $b" "the second names B"
has 'keys: 1 changed' "the last line counts"
[ "$(wc -l <"$scratch/out")" -eq 4 ]; ok $? "and nothing else is said"

mk 'set llama.context_length:u64 4096'
run "$a" "$b"
has '~ key llama.context_length: u32 2048 -> u64 4096 (type changed)' \
    "a type change shows both types"
mk 'set general.name:u32 7'
run "$a" "$b"
has '~ key general.name: str "Demo Llama" -> u32 7 (type changed)' \
    "a string become a number"

mk 'rm general.author'
run "$a" "$b"
has '- key general.author: str "ggufed"' "a key removed"
has 'keys: 1 removed' "counted as removed"

mk 'set general.url:str https://example.com/x'
run "$a" "$b"
has '+ key general.url: str "https://example.com/x"' "a key added"

mk 'mv general.author general.organization'
run "$a" "$b"
has '- key general.author: str "ggufed"' "a key renamed: the old one removed"
has '+ key general.organization: str "ggufed"' "and the new one added"

mk 'set general.tags[1] "real"'
run "$a" "$b"
has '~ key general.tags: 1 of 3 elements differ' "an element of a small array"
has '    [1] "synthetic" -> "real"' "the element, old -> new"

old=$("$GGUFED" get "$a" tokenizer.ggml.tokens | sed -n 3001p)
mk 'set tokenizer.ggml.tokens[3000] "zzz"'
run "$a" "$b"
has '~ key tokenizer.ggml.tokens: 1 of 3,072 elements differ' \
    "one element of the vocabulary: 1 of 3,072"
has "    [3000] \"$old\" -> \"zzz\"" "the element, with its index"

mk 'set tokenizer.ggml.scores[5] 1.5' 'set tokenizer.ggml.scores[3071] -2'
run "$a" "$b"
has '~ key tokenizer.ggml.scores: 2 of 3,072 elements differ' \
    "two numbers of an f32 array"
has '    [5] 0 -> 1.5' "the first"
has '    [3071] 0 -> -2' "the last"

mk 'append tokenizer.ggml.tokens "new1"'
run "$a" "$b"
has '~ key tokenizer.ggml.tokens: 3,072 -> 3,073 elements, 1 added' \
    "an element appended"
has '    +[3072] "new1"' "the element added, with its index in B"
old=$("$GGUFED" get "$a" tokenizer.ggml.tokens | sed -n 1001p)
mk 'del tokenizer.ggml.tokens[1000]'
run "$a" "$b"
has '~ key tokenizer.ggml.tokens: 3,072 -> 3,071 elements, 1 removed' \
    "an element deleted in the middle: the rest is not counted as changed"
has "    -[1000] \"$old\"" "the element removed, with its index in A"

# Eleven changes: ten are listed, the rest counted.
mk 'set tokenizer.ggml.scores[0] 1' 'set tokenizer.ggml.scores[1] 1' \
    'set tokenizer.ggml.scores[2] 1' 'set tokenizer.ggml.scores[3] 1' \
    'set tokenizer.ggml.scores[4] 1' 'set tokenizer.ggml.scores[5] 1' \
    'set tokenizer.ggml.scores[6] 1' 'set tokenizer.ggml.scores[7] 1' \
    'set tokenizer.ggml.scores[8] 1' 'set tokenizer.ggml.scores[9] 1' \
    'set tokenizer.ggml.scores[10] 1'
run "$a" "$b"
has '~ key tokenizer.ggml.scores: 11 of 3,072 elements differ' "eleven elements"
has '    ... 1 more' "ten are listed, the eleventh counted"

# The chat template: a unified diff of its lines, hunks as diff -u makes them.
"$GGUFED" get --raw "$a" tokenizer.chat_template >"$scratch/t0"
sed -e '2s/$/ (edited)/' -e '$a\
{#- an added last line -#}' "$scratch/t0" >"$scratch/t1"
rm -f "$b"
"$GGUFED" set "$a" tokenizer.chat_template @"$scratch/t1" -o "$b" -q
run "$a" "$b"; [ $rc -eq 1 ]; ok $? "the chat template changed: exit 1"
has '~ key tokenizer.chat_template: 1 line removed, 2 added' \
    "the template: lines removed and added counted"
diff -u "$scratch/t0" "$scratch/t1" | sed -n '3,$p' >"$scratch/unified"
sed -n 's/^    //p' "$scratch/out" >"$scratch/ours"
cmp -s "$scratch/unified" "$scratch/ours"
ok $? "the template's hunks are diff -u's, line for line" ||
    diff "$scratch/unified" "$scratch/ours" | sed 's/^/# /'
run --json "$a" "$b"
"$jsoncheck" <"$scratch/out"; ok $? "--json of a template change is valid JSON"
grep -q '"+{#- an added last line -#}"' "$scratch/out"
ok $? "--json gives the diff's lines"

# ---------------------------------------------------------------- tensors
mk 'rename output.weight lm_head.weight'
run "$a" "$b"
has '> tensor output.weight -> lm_head.weight (same data, type and shape)' \
    "a tensor renamed is found by its data"
has 'tensors: 1 renamed' "counted as renamed"

mk 'rm-tensor blk.3.ffn_up.weight'
run "$a" "$b"
has '- tensor blk.3.ffn_up.weight: Q4_K [256,512]' "a tensor removed"
run "$b" "$a"
has '+ tensor blk.3.ffn_up.weight: Q4_K [256,512]' "the other way: added"

mk 'convert blk.0.attn_q.weight f32'
run "$a" "$b"
has '~ tensor blk.0.attn_q.weight: type Q8_0 -> F32' "a tensor converted"
run --data "$a" "$b"
has '    values: max |a-b| 0, rmse 0, relative rmse 0, cosine 1 (0 of 65,536 elements differ)' \
    "--data: a conversion to f32 keeps every value"

# Two tensors of one type and shape swapping names: same names, other data.
mk 'rename blk.0.ffn_gate.weight tmp' \
    'rename blk.0.ffn_up.weight blk.0.ffn_gate.weight' \
    'rename tmp blk.0.ffn_up.weight'
run "$a" "$b"
grep -q '^~ tensor blk.0.ffn_gate.weight: data differs (xxh64 [0-9a-f]\{16\} -> [0-9a-f]\{16\})$' \
    "$scratch/out"
ok $? "names swapped: the data differs, by hash"
has 'tensors: 2 changed' "two tensors changed, none renamed"
if command -v xxhsum >/dev/null 2>&1; then
	# The hashes are xxh64 of the data bytes: the tensor's offset and
	# size from dump, the bytes cut out with dd, hashed by xxhsum.
	line=$("$GGUFED" dump "$a" | grep ' blk.0.ffn_gate.weight ')
	off=$(echo "$line" | sed 's/.* abs=0x\([0-9a-f]*\).*/\1/')
	len=$(echo "$line" | sed 's/.* bytes=\([0-9,]*\) .*/\1/' | tr -d ,)
	dd if="$a" of="$scratch/bytes" bs=1 skip=$((0x$off)) count="$len" \
	    2>/dev/null
	want=$(xxhsum -H64 "$scratch/bytes" | cut -d' ' -f1)
	got=$(sed -n 's/^~ tensor blk.0.ffn_gate.weight: data differs (xxh64 \([0-9a-f]*\) .*/\1/p' \
	    "$scratch/out")
	[ "$want" = "$got" ]
	ok $? "the hash is xxhsum -H64 of the tensor's bytes ($want)"
else
	skip "xxhsum is not installed"
fi
run --data "$a" "$b"
grep -q '^    values: max |a-b| [0-9.e-]*, rmse [0-9.e-]*, relative rmse [0-9.e-]*, cosine [0-9.e-]* (131,0[0-9][0-9] of 131,072 elements differ)$' \
    "$scratch/out"
ok $? "--data on other weights gives the numbers" ||
    sed 's/^/# /' "$scratch/out"
run --data --threads 1 "$a" "$b"
cp "$scratch/out" "$scratch/t1out"
run --data --threads 2 "$a" "$b"
cmp -s "$scratch/out" "$scratch/t1out"
ok $? "--data gives the same numbers on 1 and 2 threads"

# Header: the alignment.
mk 'set general.alignment:u32 64'
run "$a" "$b"
has '~ header alignment: 32 -> 64' "the header's alignment"
has '+ key general.alignment: u32 64' "and the key that sets it"

# Everything at once, as one JSON document.
mk 'set general.name "Other"' 'rm general.author' \
    'set general.url:str u' 'rename output.weight lm_head.weight' \
    'rm-tensor blk.3.ffn_up.weight' 'convert blk.0.attn_q.weight f32'
run --json --data "$a" "$b"; [ $rc -eq 1 ]; ok $? "--json: exit 1 when different"
"$jsoncheck" <"$scratch/out"; ok $? "--json is one valid document"
grep -q '"summary": {"header": 0, "keys_added": 1, "keys_removed": 1, "keys_changed": 1, "tensors_added": 0, "tensors_removed": 1, "tensors_renamed": 1, "tensors_changed": 1}' \
    "$scratch/out"
ok $? "--json: the counts"
grep -q '"values": {"count": 65536, "differ": 0, "nonfinite": 0, "max_abs": 0, "rmse": 0, "rel_rmse": 0, "cosine": 1}' \
    "$scratch/out"
ok $? "--json --data: the numbers of the converted tensor"
run -q "$a" "$b"
[ "$(cat "$scratch/out")" = "keys: 1 added, 1 removed, 1 changed; tensors: 1 removed, 1 renamed, 1 changed" ]
ok $? "-q: the counts only"
run --json "$a" "$a"
grep -q '"equal": true' "$scratch/out" && [ $rc -eq 0 ]
ok $? "--json of equal files: equal, exit 0"

# ------------------------------------------------------------ split sets
# Either side may be a split set (any shard names it): a set against its
# merge is equal, the split keys being how it is cut, not the model; a
# change in one shard shows as in any model; --shard compares the file.
sd="$scratch/set"
mkdir -p "$sd"
"$GGUFED" split --max-tensors 15 "$a" "$sd/s" >/dev/null &&
    "$GGUFED" merge "$sd/s-00001-of-00003.gguf" "$sd/merged.gguf" >/dev/null
ok $? "a set of 3 shards and its merge"
run "$sd/s-00002-of-00003.gguf" "$sd/merged.gguf"
[ $rc -eq 0 ] && [ ! -s "$scratch/out" ]
ok $? "a set against its merge: equal, exit 0, nothing printed" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"
run "$sd/merged.gguf" "$sd/s-00003-of-00003.gguf"
[ $rc -eq 0 ]; ok $? "a merge against its set (named by its last shard): exit 0"
run "$a" "$sd/s-00001-of-00003.gguf"
[ $rc -eq 0 ]; ok $? "the model split against the set: exit 0"
run --shard "$sd/s-00001-of-00003.gguf" "$sd/merged.gguf"
[ $rc -eq 1 ] && grep -q "tensors: 24 added" "$scratch/out"
ok $? "--shard: the first shard alone lacks the other shards' tensors" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"
"$GGUFED" dump --json --shard "$sd/s-00002-of-00003.gguf" >"$scratch/s2.json"
off=$(grep '{"name": "blk.1.ffn_up.weight",' "$scratch/s2.json" |
    sed 's/.*"abs_offset": \([0-9]*\).*/\1/')
off=$((off + 3))
v=$(dd if="$sd/s-00002-of-00003.gguf" bs=1 skip=$off count=1 2>/dev/null |
    od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(( (v + 1) % 256 )))" |
    dd of="$sd/s-00002-of-00003.gguf" bs=1 seek=$off conv=notrunc 2>/dev/null
run "$sd/merged.gguf" "$sd/s-00001-of-00003.gguf"
[ $rc -eq 1 ] && grep -q "blk.1.ffn_up.weight" "$scratch/out" &&
    grep -q "tensors: 1 changed" "$scratch/out" &&
    [ "$(grep -c 'tensor ' "$scratch/out")" -eq 1 ]
ok $? "a byte changed in the second shard: that tensor's data differs, nothing else" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"
"$GGUFED" set "$sd/s-00001-of-00003.gguf" general.name Other -i -q
run "$sd/s-00003-of-00003.gguf" "$sd/merged.gguf"
[ $rc -eq 1 ] && grep -q "key general.name" "$scratch/out"
ok $? "a key set in the first shard: the set's metadata differs" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"

# ---------------------------------------------------------------- trouble
run "$a" "$scratch/nope.gguf"; [ $rc -eq 2 ]; ok $? "a missing file: exit 2"
[ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q "^ggufed: $scratch/nope.gguf: " "$scratch/err"
ok $? "one line naming the file"
printf 'not a model' >"$scratch/junk.gguf"
run "$scratch/junk.gguf" "$a"; [ $rc -eq 2 ]; ok $? "not a GGUF file: exit 2"
run "$a"; [ $rc -eq 2 ]; ok $? "one file: usage error, exit 2"
run "$a" "$a" "$a"; [ $rc -eq 2 ]; ok $? "three files: exit 2"
run --bogus "$a" "$a"; [ $rc -eq 2 ]; ok $? "an unknown option: exit 2"
run --json -q "$a" "$a"; [ $rc -eq 2 ]; ok $? "--json with -q: exit 2"
# A file cut short: the data it no longer holds is not compared (and
# not said equal); what it holds is.
head -c 1000000 "$a" >"$scratch/cut.gguf"
run "$a" "$scratch/cut.gguf"
[ $rc -eq 2 ] && grep -q '^~ tensor .*: data not compared (past the end of file B)$' "$scratch/out" &&
    ! grep -q 'token_embd.weight' "$scratch/out" &&
    grep -q '^tensors: [0-9]* not compared$' "$scratch/out"
ok $? "a truncated file: its missing data not compared, counted so, exit 2 (trouble)" ||
    sed 's/^/# /' "$scratch/out"

# ------------------------------------------------- the fixtures, if there
bv="$fx/ggml/big-vocab.gguf"
if [ -f "$bv" ]; then
	cp_w "$bv" "$a"
	old=$("$GGUFED" get "$a" tokenizer.ggml.tokens | sed -n 149001p)
	mk 'set tokenizer.ggml.tokens[149000] "zzz"' \
	    'set tokenizer.ggml.tokens[7] "seven"' \
	    'set tokenizer.ggml.merges[0] "a b"'
	run "$a" "$b"
	has '~ key tokenizer.ggml.tokens: 2 of 150,000 elements differ' \
	    "big vocabulary: 2 of 150,000 tokens"
	has "    [149000] \"$old\" -> \"zzz\"" "big vocabulary: the token, by index"
	has '~ key tokenizer.ggml.merges: 1 of 150,000 elements differ' \
	    "big vocabulary: 1 of 150,000 merges"
else
	skip "$(shared_missing fixtures/ggml/big-vocab.gguf)"
fi

# Two quantizations of one model: --data against awk over `ggufed cat`.
q8="$fx/real/TinyStories-656K-Q8_0.gguf"
f16="$fx/real/TinyStories-656K.f16.gguf"
if [ -f "$q8" ] && [ -f "$f16" ]; then
	run --data "$q8" "$f16"
	has '~ tensor blk.0.attn_k.weight: type Q8_0 -> F16' \
	    "Q8_0 against F16: the type"
	t=blk.0.attn_k.weight
	"$GGUFED" cat "$q8" "$t" | tr '\t ' '\n\n' | grep -v '^$' \
	    >"$scratch/va"
	"$GGUFED" cat "$f16" "$t" | tr '\t ' '\n\n' | grep -v '^$' \
	    >"$scratch/vb"
	want=$(paste "$scratch/va" "$scratch/vb" | awk '
	    { d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d
	      s += ($1 - $2) ^ 2; aa += $1 * $1; bb += $2 * $2; ab += $1 * $2
	      n++; if ($1 != $2) k++ }
	    END { printf "max |a-b| %.6g, rmse %.6g, relative rmse %.6g, cosine %.6g (%d of %d", \
		m, sqrt(s / n), sqrt(s / aa), ab / sqrt(aa * bb), k, n }' |
	    sed 's/(\([0-9]\)\([0-9][0-9][0-9]\) of \([0-9]\)\([0-9][0-9][0-9]\)$/(\1,\2 of \3,\4/')
	got=$(grep -A1 "^~ tensor $t:" "$scratch/out" | sed -n 's/^    values: //p')
	case "$got" in
	"$want"*) ok 0 "Q8_0 against F16: the numbers awk computes ($want)" ;;
	*) ok 1 "Q8_0 against F16: the numbers awk computes"
	   echo "# want $want"; echo "# got  $got" ;;
	esac
else
	skip "$(shared_missing fixtures/real/TinyStories-656K-Q8_0.gguf)"
fi

# Names given twice (a file ggml refuses, but one to compare still): each
# occurrence pairs with the same occurrence on the other side.
hc=$scratch/hostile
mkdir "$hc"
"$TESTS_BUILDDIR/hostile/gen_hostile" "$hc" >/dev/null ||
    { echo "Bail out! gen_hostile"; exit 1; }
for f in key-duplicate tensor-duplicate; do
	"$GGUFED" diff "$hc/$f.gguf" "$hc/$f.gguf" >"$scratch/out" 2>&1
	[ $? -eq 0 ] && [ ! -s "$scratch/out" ]
	ok $? "$f against itself: equal" || sed 's/^/# /' "$scratch/out"
done
"$GGUFED" diff "$hc/tensor-duplicate.gguf" "$hc/valid-tiny.gguf" \
    >"$scratch/out" 2>&1
[ $? -eq 1 ] && grep -q '^~ tensor w: type F32 -> F16, shape \[8\] -> \[4\]$' "$scratch/out" &&
    grep -q '^- tensor w: F32 \[8\]$' "$scratch/out" &&
    grep -q 'tensors: 1 removed, 1 changed$' "$scratch/out"
ok $? "a tensor named twice against one: the second is removed" ||
    sed 's/^/# /' "$scratch/out"
"$GGUFED" diff "$hc/key-duplicate.gguf" "$hc/valid-tiny.gguf" \
    >"$scratch/out" 2>&1
# Only the lines of a key: the header names the files, whose temporary
# directory's name may hold "t.a".
[ "$(grep -c '^[-+~] key t\.a' "$scratch/out")" -eq 2 ] &&
    [ "$(grep -c '^- key t\.a: u32 ' "$scratch/out")" -eq 2 ]
ok $? "a key given twice against none: both removed" ||
    sed 's/^/# /' "$scratch/out"
# A tensor whose data lies past the end: the files are compared, that
# data is not (and so not said equal).
"$GGUFED" diff "$hc/offset-past-eof.gguf" "$hc/offset-past-eof.gguf" \
    >"$scratch/out" 2>"$scratch/err"
[ $? -eq 2 ] && [ ! -s "$scratch/err" ] &&
    grep -q '^~ tensor w: data not compared (past the end of both files)$' "$scratch/out" &&
    ! grep -q 'changed' "$scratch/out"
ok $? "a tensor past the end, against itself: diffed, its data not compared nor called changed, exit 2" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"
"$GGUFED" diff --json "$hc/offset-past-eof.gguf" \
    "$hc/offset-past-eof.gguf" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 2 ] && "$TESTS_BUILDDIR/tools/jsoncheck" <"$scratch/out" &&
    grep -q '"data_changed": null' "$scratch/out" &&
    grep -q '"equal": null' "$scratch/out"
ok $? "... in JSON, data_changed and equal are null (not known)"

done_testing
