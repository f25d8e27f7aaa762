#!/bin/sh
# convert.sh - `convert TENSOR f32` as ggml reads its result.
#
# The legacy file of gen_legacy.c (v2, Q8_0 blocks that cross rows) is
# refused by ggml as it is; with its tensors converted, ggml loads the
# file whole and reads exactly the values `ggufed cat` showed before the
# conversion. The same holds for tensors of current types (Q4_K, Q6_K,
# Q8_0, F16) of the demo model, and the tensors not converted keep their
# bytes.
. "$TESTS_SRCDIR/lib.sh"

"$ORACLE" version >/dev/null 2>&1 || skip_all "the ggml oracle cannot run"
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
m="$scratch/legacy.gguf"
out="$scratch/out.gguf"
"$TESTS_BUILDDIR/tools/gen_legacy" "$m" ||
    { echo "Bail out! gen_legacy failed"; exit 1; }

# same SRC OUT TENSOR: ggml's float values of TENSOR in OUT are the ones
# ggufed printed for it in SRC, one per line, as text (%.9g both).
same() {
	"$GGUFED" cat "$1" "$3" | tr ' ' '\n' >"$scratch/want"
	"$ORACLE" dequant "$2" "$3" >"$scratch/got" 2>/dev/null &&
	    [ -s "$scratch/want" ] && cmp -s "$scratch/want" "$scratch/got"
}

# ------------------------------------------------------------ legacy file
"$ORACLE" dump "$m" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "ggml refuses the legacy file as it is"
rm -f "$out"
"$GGUFED" edit "$m" -o "$out" -q -e 'convert cross f32' \
    -e 'convert even f32' 2>/dev/null
ok $? "both its Q8_0 tensors converted"
"$ORACLE" dump "$out" >"$scratch/dump" 2>"$scratch/err"
ok $? "ggml reads the result" || sed 's/^/# /' "$scratch/err"
grep -q '^layout.full_load ok$' "$scratch/dump"
ok $? "and loads it whole"
grep -q '^tensor 0 "cross" f32 ne=\[33,3,1,1\] nbytes=396 ' "$scratch/dump" &&
    grep -q '^tensor 1 "even" f32 ne=\[48,2,1,1\] nbytes=384 ' "$scratch/dump"
ok $? "as f32 tensors of their shapes"
for t in cross even plain; do
	same "$m" "$out" $t
	ok $? "$t: ggml reads exactly the values ggufed showed before"
done

# ------------------------------------------------------ current types
d="$scratch/demo.gguf"
cp_w "$demo" "$d"
set -- blk.0.ffn_gate.weight blk.0.ffn_down.weight blk.0.attn_q.weight \
    blk.3.attn_k.weight \
    token_embd.weight
for t in "$@"; do
	printf 'convert %s f32\n' "$t"
done >"$scratch/script"
rm -f "$out"
"$GGUFED" edit "$d" -o "$out" -q -f "$scratch/script" 2>/dev/null
ok $? "Q4_K, Q6_K, Q8_0 and F16 tensors of the demo model converted"
"$ORACLE" dump "$out" >"$scratch/dump" 2>/dev/null &&
    grep -q '^layout.full_load ok$' "$scratch/dump"
ok $? "ggml loads the result whole"
for t in "$@"; do
	same "$d" "$out" "$t"
	ok $? "$t ($("$GGUFED" dump "$d" | awk -v t="$t" '$3 == t { print $4 }')): ggml reads exactly the values ggufed showed before"
done
# Every other tensor: the same bytes (the dump's sha256 of its data).
"$ORACLE" dump --no-layout "$d" | grep '^tensor ' |
    sed -E 's/^tensor [0-9]+ //' >"$scratch/a"
grep '^tensor ' "$scratch/dump" | sed -E 's/^tensor [0-9]+ //' >"$scratch/b"
for t in "$@"; do
	grep -v "^\"$t\" " "$scratch/a" >"$scratch/a2" && mv "$scratch/a2" "$scratch/a"
	grep -v "^\"$t\" " "$scratch/b" >"$scratch/b2" && mv "$scratch/b2" "$scratch/b"
done
[ -s "$scratch/a" ] && cmp -s "$scratch/a" "$scratch/b"
ok $? "every other tensor keeps its data, byte for byte"

done_testing
