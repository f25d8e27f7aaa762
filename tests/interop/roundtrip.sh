#!/bin/sh
# roundtrip.sh - what ggufed writes, as ggml reads it.
#
# Every fixture saved without edits is byte-identical to its source, or
# (v1, v2, non-canonical layouts) equivalent to it: the oracle's dump
# without layout lines is the same, or, where ggml refuses the source,
# ggufed's own dump is. Every kind of edit changes the oracle's dump by
# exactly that edit; tensor lines carry the sha256 of each tensor's data,
# so equal dumps also prove the data was not touched.
. "$TESTS_SRCDIR/lib.sh"

FX="$SHARED_DIR/fixtures"
[ -d "$FX/ggml" ] || skip_all "no shared fixtures"
"$ORACLE" version >/dev/null 2>&1 || skip_all "the ggml oracle cannot run"

# Each save removes out.gguf first: -o refuses to overwrite a file.
out="$scratch/out.gguf"
# A dump without indices and counts, so a removed line does not shift
# the others.
odump() { "$ORACLE" dump --no-layout "$1" 2>/dev/null |
    sed -E 's/^(kv|tensor) [0-9]+ /\1 /' | grep -v '^n_kv \|^n_tensors '; }
# ggufed's own view, without layout (offsets, warnings about them).
mydump() { "$GGUFED" dump "$1" | sed -E 's/^(kv|tensor) [0-9]+ /\1 /;
    s/ offset=0x[0-9a-f]+ abs=0x[0-9a-f]+$//' |
    grep -Ev '^#|^(note|warning|error) offset='; }

# --------------------------------------------------- saves without edits
for f in "$FX"/ggml/*.gguf "$FX"/real/*.gguf; do
	b=$(basename "$f")
	"$GGUFED" info "$f" >/dev/null 2>&1 || continue	# unreadable input
	rm -f "$out"
	if ! "$GGUFED" edit "$f" -o "$out" -q 2>"$scratch/notes"; then
		if grep -q "remove it to save" "$scratch/notes"; then
			ok 0 "$b: unsavable as is, and says why"
		else
			ok 1 "$b: save failed: $(cat "$scratch/notes")"
		fi
		continue
	fi
	if cmp -s "$f" "$out"; then
		ok 0 "$b: byte-identical"
		continue
	fi
	if "$ORACLE" dump "$f" >/dev/null 2>&1; then
		odump "$f" | grep -v '^version ' >"$scratch/a"
		odump "$out" | grep -v '^version ' >"$scratch/b"
		cmp -s "$scratch/a" "$scratch/b"
		ok $? "$b: not byte-identical ($(tr '\n' ' ' <"$scratch/notes")) but ggml reads the same"
	else
		mydump "$f" >"$scratch/a"
		mydump "$out" >"$scratch/b"
		cmp -s "$scratch/a" "$scratch/b" &&
		    "$ORACLE" dump "$out" | grep -q '^layout.full_load ok$'
		ok $? "$b: ggml refuses the source; ours reads the same and ggml loads the output ($(tr '\n' ' ' <"$scratch/notes"))"
	fi
	[ -s "$scratch/notes" ] || ok 1 "$b: changed without a notice"
done

# ------------------------------------------------------------ edit kinds
# expect SRC 'CMD' SED-SCRIPT DESCRIPTION: the oracle's dump of the output
# must be the source's dump passed through SED-SCRIPT ($force: edit's
# --force, for a value llama.cpp would refuse).
force=
expect() {
	rm -f "$out"
	"$GGUFED" edit "$1" -o "$out" -q $force -e "$2" 2>"$scratch/notes"
	rc=$?
	odump "$1" | sed -E "$3" >"$scratch/a"
	odump "$out" >"$scratch/b"
	[ $rc -eq 0 ] && cmp -s "$scratch/a" "$scratch/b" &&
	    "$ORACLE" dump "$out" | grep -q '^layout.full_load ok$'
	ok $? "$4"
	[ $rc -eq 0 ] && cmp -s "$scratch/a" "$scratch/b" || diff "$scratch/a" "$scratch/b" | head -5 | sed 's/^/# /'
}
V="$FX/ggml/big-vocab.gguf"
K="$FX/ggml/kv.gguf"
T="$FX/ggml/types.gguf"

expect "$V" 'set general.name "Renamed model"' \
    's/^kv "general.name" .*/kv "general.name" str len=13 "Renamed model"/' \
    "set a string"
expect "$V" 'set tokenizer.ggml.eos_token_id 7' \
    's/^kv "tokenizer.ggml.eos_token_id" .*/kv "tokenizer.ggml.eos_token_id" u32 7/' \
    "set a u32 keeping its type"
expect "$V" 'set llama.rope.freq_base 1e6' \
    's/^kv "llama.rope.freq_base" .*/kv "llama.rope.freq_base" f32 1000000 bits=0x49742400/' \
    "set an f32"
force=--force
expect "$V" 'set llama.block_count:u64 2' \
    's/^kv "llama.block_count" .*/kv "llama.block_count" u64 2/' \
    "change a type"
force=
expect "$V" 'set test.added:i16 -300' \
    '/^kv "tokenizer.chat_template"/a kv "test.added" i16 -300' \
    "add a key (appended)"
expect "$V" 'rm tokenizer.chat_template' \
    '/^kv "tokenizer.chat_template"/d' \
    "remove a key"
expect "$V" 'mv general.type general.kind' \
    's/^kv "general.type" /kv "general.kind" /' \
    "rename a key"
expect "$V" 'set tokenizer.ggml.add_bos_token false' \
    's/^kv "tokenizer.ggml.add_bos_token" bool true/kv "tokenizer.ggml.add_bos_token" bool false/' \
    "set a bool"
expect "$V" 'rename blk.0.attn_q.weight blk.0.attn_k.weight' \
    's/^tensor "blk.0.attn_q.weight" /tensor "blk.0.attn_k.weight" /' \
    "rename a tensor"
expect "$V" 'rename s/^(\w+)\.(\d+)\./layers.$2.$1./' \
    's/^tensor "blk.0.attn_q.weight" /tensor "layers.0.blk.attn_q.weight" /' \
    "rename tensors by regex with captures"
expect "$V" 'rename s/\./_/g' \
    's/^tensor "token_embd.weight" /tensor "token_embd_weight" /;
     s/^tensor "blk.0.attn_q.weight" /tensor "blk_0_attn_q_weight" /;
     s/^tensor "output_norm.weight" /tensor "output_norm_weight" /' \
    "regex rename, g flag"
expect "$V" 'rm-tensor blk.0.attn_q.weight' \
    '/^tensor "blk.0.attn_q.weight" /d' \
    "remove a tensor (data re-laid out)"
expect_arr() {
	rm -f "$out"
	"$GGUFED" edit "$1" -o "$out" -q -e "$2" 2>"$scratch/notes"
	rc=$?
	line=$(odump "$out" | grep "^kv \"$3\" " | sed -E 's/sha256=[0-9a-f]+ //')
	rest_a=$(odump "$1" | grep -v "^kv \"$3\" " | cksum)
	rest_b=$(odump "$out" | grep -v "^kv \"$3\" " | cksum)
	[ $rc -eq 0 ] && [ "$line" = "$4" ] && [ "$rest_a" = "$rest_b" ]
	ok $? "$5"
	[ "$line" = "$4" ] || echo "# got: $line"
}
expect_arr "$K" 'set test.arr.u8[2] 9' test.arr.u8 \
    'kv "test.arr.u8" arr[u8] n=8 [0, 1, 9, 128, 255, 8, 183, 172]' \
    "set an array element (only that array changes)"
expect_arr "$K" 'ins test.arr.u8[0] [7, 6]' test.arr.u8 \
    'kv "test.arr.u8" arr[u8] n=10 [7, 6, 0, 1, 127, 128, 255, 8, 183, 172]' \
    "insert array elements"
expect_arr "$K" 'del test.arr.u8[1:7]' test.arr.u8 \
    'kv "test.arr.u8" arr[u8] n=2 [0, 172]' \
    "delete a range of elements"
expect_arr "$K" 'set test.arr.u8 [1, 2]' test.arr.u8 \
    'kv "test.arr.u8" arr[u8] n=2 [1, 2]' \
    "replace a whole array"
expect_arr "$K" 'set test.arr.u8:arr[i32] [-1, 70000]' test.arr.u8 \
    'kv "test.arr.u8" arr[i32] n=2 [-1, 70000]' \
    "replace an array with another element type"

# 150,000-token vocabulary: one element changed, the rest untouched
rm -f "$out"
"$GGUFED" edit "$V" -o "$out" -q -e 'set tokenizer.ggml.tokens[149999] "<last>"' &&
    [ "$("$GGUFED" get "$out" tokenizer.ggml.tokens | sed -n '149999p')" = \
      "$("$GGUFED" get "$V" tokenizer.ggml.tokens | sed -n '149999p')" ] &&
    [ "$("$GGUFED" get "$out" tokenizer.ggml.tokens | sed -n '150000p')" = "<last>" ] &&
    [ "$(odump "$out" | grep -v tokenizer.ggml.tokens | cksum)" = \
      "$(odump "$V" | grep -v tokenizer.ggml.tokens | cksum)" ]
ok $? "edit the last of 150,000 tokens"

# -------------------------------------------------- alignment 32 -> 64 -> 32
"$GGUFED" edit "$T" -o "$scratch/a64.gguf" -q -e 'set general.alignment:u32 64' 2>/dev/null &&
    "$ORACLE" dump "$scratch/a64.gguf" >"$scratch/d64" &&
    grep -q '^alignment 64$' "$scratch/d64" &&
    grep -q '^layout.full_load ok$' "$scratch/d64" &&
    awk '/^layout.tensor/ { split($3, a, "="); if (a[2] % 64) bad = 1 }
        /^layout.data_offset/ { if ($2 % 64) bad = 1 }
        END { exit bad }' "$scratch/d64"
ok $? "alignment 32 -> 64: ggml loads it"
odump "$T" >"$scratch/a"
odump "$scratch/a64.gguf" | grep -v '^alignment \|"general.alignment"' >"$scratch/b"
grep -v '^alignment ' "$scratch/a" | cmp -s - "$scratch/b"
ok $? "alignment 64: same content, same tensor data"
"$GGUFED" edit "$scratch/a64.gguf" -o "$scratch/a32.gguf" -q -e 'rm general.alignment' 2>/dev/null &&
    cmp -s "$T" "$scratch/a32.gguf"
ok $? "alignment 64 -> 32: byte-identical to the original"
rm -f "$out"
"$GGUFED" edit "$FX/ggml/align64.gguf" -o "$out" -q -e 'set general.alignment 32' 2>/dev/null &&
    "$ORACLE" dump "$out" | grep -q '^layout.full_load ok$'
ok $? "alignment 64 -> 32 on a ggml file"

# -------------------------------------------------------------- versions
V1="$FX/real/tinyllamas-stories-260k-f32.v1.gguf"
if [ -r "$V1" ]; then
	rm -f "$out"
	"$GGUFED" edit "$V1" -o "$out" -q -e 'set general.name v3now' 2>/dev/null &&
	    "$ORACLE" dump "$out" >"$scratch/d" && grep -q '^version 3$' "$scratch/d" &&
	    grep -q '"general.name" str len=5 "v3now"' "$scratch/d" &&
	    [ "$(mydump "$V1" | grep -v general.name | cksum)" = \
	      "$(mydump "$out" | grep -v general.name | cksum)" ]
	ok $? "v1 -> v3 with an edit: ggml reads it, content the same"
fi
V2="$FX/real/ggml-vocab-falcon.v2-2023-10.gguf"
if [ -r "$V2" ]; then
	# v2 -> v3 for a little-endian file is only the version field
	rm -f "$out"
	"$GGUFED" edit "$V2" -o "$out" -q 2>/dev/null &&
	    [ "$(od -An -tu4 -j4 -N4 "$out" | tr -d ' ')" = 3 ] &&
	    [ "$(cmp -l "$V2" "$out" | wc -l)" = 1 ]
	ok $? "v2 -> v3: only the version field differs"
fi

# ------------------------------------- ggml's own rewrite agrees with ours
rm -f "$out"
"$GGUFED" edit "$V" -o "$out" -q -e 'set general.name "x"' -e 'rm-tensor output_norm.weight' 2>/dev/null &&
    "$ORACLE" rewrite "$out" "$scratch/ggml.gguf" >/dev/null 2>&1 &&
    cmp -s "$out" "$scratch/ggml.gguf"
ok $? "after edits and a removal, ggml's own writer reproduces our file byte for byte"

done_testing
