#!/bin/sh
# legacy.sh - a v2 file as early converters wrote some (gen_legacy.c):
# Q8_0 tensors whose rows are not whole blocks, their blocks running on
# across the rows. Such tensors are sized as early ggml sized them (whole
# blocks over the element count), print the values the run of blocks
# holds, save with their bytes unchanged, and validate says that current
# ggml refuses them and what fixes it: `convert TENSOR f32`, which makes
# the data the float32 values shown (tests/interop/convert.sh has ggml
# read them).
. "$TESTS_SRCDIR/lib.sh"

gen="$TESTS_BUILDDIR/tools/gen_legacy"
m="$scratch/legacy.gguf"
out="$scratch/out.gguf"
"$gen" "$m" || { echo "Bail out! gen_legacy failed"; exit 1; }

# data FILE: the bytes of its data section (from the dump's first line).
data() {
	at=$("$GGUFED" dump "$1" | sed -n '1s/.*data at 0x\([0-9a-f]*\).*/\1/p')
	tail -c +$((0x$at + 1)) "$1"
}

# ------------------------------------------------------------------ sizes
"$GGUFED" dump "$m" >"$scratch/dump" 2>&1
ok $? "dump opens it"
grep -q '^tensor 0 cross Q8_0 \[33,3\] elements=99 bytes=136 ' "$scratch/dump"
ok $? "cross [33,3]: 99 elements in 4 blocks of 34 bytes (136)"
grep -q '^tensor 1 even Q8_0 \[48,2\] elements=96 bytes=102 ' "$scratch/dump"
ok $? "even [48,2]: 96 elements in 3 blocks (102)"

# ----------------------------------------------------------------- values
# Block b has the scale (b + 1) / 4 and the quants j - 16: element i of
# the run is (i / 32 + 1) / 4 * (i % 32 - 16), row r holding elements
# r * ne0 .. r * ne0 + ne0 - 1.
want() {	# want NE0 NROWS
	awk -v ne0="$1" -v nr="$2" 'BEGIN {
		for (r = 0; r < nr; r++)
			for (c = 0; c < ne0; c++) {
				i = r * ne0 + c
				v = (int(i / 32) + 1) / 4 * (i % 32 - 16)
				printf "%s%s", v, (c < ne0 - 1 ? " " : "\n")
			}
	}'
}
want 33 3 >"$scratch/want"
"$GGUFED" cat "$m" cross >"$scratch/got" 2>&1
cmp -s "$scratch/want" "$scratch/got"
ok $? "cat cross: element i is element i % 32 of block i / 32, across rows" ||
    diff "$scratch/want" "$scratch/got" | head -5 | sed 's/^/# /'
# By hand: row 0 ends with the first element of block 1 (0.5 * -16);
# row 1 starts with its second; row 2 ends inside the last block.
[ "$(awk '{ print $1, $NF }' "$scratch/got" | tr '\n' ' ')" = \
    "-4 -8 -7.5 -11.25 -10.5 -14 " ]
ok $? "cat cross: the rows start and end where the run of blocks says"
want 48 2 >"$scratch/want"
"$GGUFED" cat "$m" even >"$scratch/got" 2>&1
cmp -s "$scratch/want" "$scratch/got"
ok $? "cat even: the same over whole blocks that cross rows"
[ "$("$GGUFED" cat "$m" cross --rows 1 --cols 29:33)" = "7 7.5 -12 -11.25" ]
ok $? "cat a window across a block edge"
"$GGUFED" cat --raw "$m" cross --rows 1 >"$scratch/raw" 2>&1
grep -q '^# row 1, block 1 of the tensor: elements 32:64 (the row is 33:66), data offset 34$' \
    "$scratch/raw" && [ "$(grep -c '^# row' "$scratch/raw")" -eq 2 ]
ok $? "cat --raw: the blocks of row 1, numbered over the tensor"

# ------------------------------------------------------------------- save
rm -f "$out"
"$GGUFED" edit "$m" -o "$out" -q 2>"$scratch/err"
ok $? "saves (it could not: unknown type or shape)" || sed 's/^/# /' "$scratch/err"
data "$m" >"$scratch/a"
data "$out" >"$scratch/b"
cmp -s "$scratch/a" "$scratch/b" && [ "$(wc -c <"$scratch/b")" -eq 320 ]
ok $? "the saved data section is the source's, byte for byte"
"$GGUFED" dump "$out" | grep -q '^tensor 0 cross Q8_0 \[33,3\] elements=99 bytes=136 offset=0x0 '
ok $? "the saved file (v3) reads the tensor back the same way"
"$GGUFED" cat "$out" cross >"$scratch/got2"
"$GGUFED" cat "$m" cross | cmp -s - "$scratch/got2"
ok $? "and prints the same values"
cp_w "$m" "$scratch/inplace.gguf"
"$GGUFED" edit "$scratch/inplace.gguf" -i -q -e 'set general.name renamed' &&
    data "$scratch/inplace.gguf" | cmp -s - "$scratch/a"
ok $? "an edit saved over it keeps the data"

# --------------------------------------------------------------- validate
"$GGUFED" validate "$m" >"$scratch/v" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^[^ ]*:0x[0-9a-f]*: error: tensor "cross": row of 33 elements is not a whole number of Q8_0 blocks of 32: its blocks run on across rows, as early ggml wrote them; current ggml refuses such a tensor (convert cross f32 rewrites it losslessly as float32)$' "$scratch/v"
ok $? "validate: an error that says current ggml refuses it and how to fix it"

# ---------------------------------------------------------------- convert
rm -f "$out"
"$GGUFED" edit "$m" -o "$out" -q -e 'convert cross f32' 2>"$scratch/err"
ok $? "edit -e 'convert cross f32' saves" || sed 's/^/# /' "$scratch/err"
grep -q 'note: 1 tensor converted to F32 (data re-laid out)' "$scratch/err"
ok $? "and says what it did"
"$GGUFED" dump "$out" >"$scratch/dump2"
grep -q '^tensor 0 cross F32 \[33,3\] elements=99 bytes=396 offset=0x0 ' \
    "$scratch/dump2" &&
    grep -q '^tensor 1 even Q8_0 \[48,2\] elements=96 bytes=102 offset=0x1a0 ' \
    "$scratch/dump2" && ! grep -q 'cross.*blocks run on' "$scratch/dump2"
ok $? "cross is F32 (396 bytes), the rest moves up, and the error on it is gone"
"$GGUFED" cat "$out" cross >"$scratch/got2"
"$GGUFED" cat "$m" cross | cmp -s - "$scratch/got2"
ok $? "its values are the ones shown before, bit for bit (%.9g)"
"$GGUFED" cat "$out" even | cmp -s - "$scratch/got" &&
    "$GGUFED" cat "$out" plain >"$scratch/plain" && [ "$(cat "$scratch/plain")" = "1 2 3 4" ]
ok $? "the other tensors are unchanged"

rm -f "$out"
"$GGUFED" convert "$m" even f32 -o "$out" -q 2>/dev/null &&
    "$GGUFED" dump "$out" | grep -q '^tensor 1 even F32 \[48,2\] elements=96 bytes=384 '
ok $? "the convert command does the same"
"$GGUFED" edit "$m" -n -e 'convert cross f32' >"$scratch/dry" 2>&1
grep -q '^~ tensor "cross": Q8_0 -> F32$' "$scratch/dry"
ok $? "a dry run lists the conversion as a change"
rm -f "$out"
"$GGUFED" edit "$m" -o "$out" -q -e 'convert cross f32' -e undo 2>/dev/null &&
    data "$out" | cmp -s - "$scratch/a"
ok $? "undone, it changes nothing"

# refused: nothing to gain, or a loss
refused() {	# refused CMD MESSAGE
	rm -f "$out"
	"$GGUFED" edit "$m" -o "$out" -e "$1" >"$scratch/err" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ ! -e "$out" ] && grep -qF -- "$2" "$scratch/err"
	ok $? "'$1' is refused: $2" || sed 's/^/# /' "$scratch/err"
}
refused 'convert plain f32' 'tensor "plain" is F32 already'
refused 'convert cross q8_0' 'tensors convert to f32 only (not Q8_0)'
refused 'convert cross bf16x' 'unknown tensor type: convert TENSOR f32'
refused 'convert cross' 'the type is missing'
refused 'convert nope f32' 'no tensor "nope"'
[ $rc -eq 1 ]
ok $? "a tensor convert names that is not there: exit 1, as rm-tensor's (exit $rc)"

done_testing
