#!/bin/sh
# bigfile.sh - a model larger than 4 GiB, with a tensor above 2^32.
#
# gen_sparse writes a 4 GiB + 600 byte file whose big tensor is a hole
# (it costs a few KiB of disk). Every offset and size must go through
# 64-bit arithmetic: open it, list and browse it, print the tensor that
# lies past 4 GiB, edit it in place, rewrite it, re-lay it out, and check
# each time that the far tensor is intact and that the result is still
# sparse (the rewrite skips holes: SEEK_DATA/SEEK_HOLE).
. "$TESTS_SRCDIR/lib.sh"

m="$scratch/big.gguf"
"$TESTS_BUILDDIR/tools/gen_sparse" "$m" || { ok 1 "gen_sparse"; done_testing; exit 1; }
size=$(stat -c %s "$m")
# Where files are not sparse, this would write 4 GiB: give up.
[ "$(du -k "$m" | cut -f1)" -lt 65536 ] || skip_all "no sparse files here"
[ "$size" -gt 4294967296 ]
ok $? "a sparse file of $size bytes"

far='100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115'

# far_ok FILE: the far tensor reads back as 100 .. 115.
far_ok() {
	[ "$("$GGUFED" cat "$1" far 2>"$scratch/err" | tr -s ' \n' '  ' |
	    sed 's/ *$//')" = "$far" ]
}

# sparse FILE: takes less than 64 MiB of disk.
sparse() {
	[ "$(du -k "$1" | cut -f1)" -lt 65536 ]
}

"$GGUFED" info "$m" >"$scratch/out" 2>"$scratch/err" && [ ! -s "$scratch/err" ]
ok $? "info opens it without a warning"
"$GGUFED" dump --json "$m" >"$scratch/out" &&
    "$TESTS_BUILDDIR/tools/jsoncheck" <"$scratch/out" &&
    grep -q '"name": "far".*"offset": 4294967584,' "$scratch/out" &&
    grep -q '"name": "hole".*"bytes": 4294967552,' "$scratch/out"
ok $? "dump --json: the offset above 2^32 and the 4 GiB size exact"
far_ok "$m"
ok $? "cat of the tensor past 4 GiB"
"$GGUFED" cat "$m" hole --cols 1073741880:1073741888 >"$scratch/out" &&
    [ "$(tr -s ' \n' '  ' <"$scratch/out" | sed 's/ *$//')" = "0 0 0 0 0 0 0 0" ]
ok $? "cat of the last elements of the 4 GiB tensor"
"$GGUFED" stats "$m" far >"$scratch/out" && grep -q 115 "$scratch/out"
ok $? "stats of the far tensor"

# The browser, in script mode: the tensor list, and a preview of "far".
HOME=$scratch TERM=xterm-256color
export HOME TERM
printf 'size 100x30\nkeys 4/\ntype far\nkeys <Enter><Enter>\nwait\ndump %s\nkeys q\ndump %s\n' \
    "$scratch/preview.txt" "$scratch/list.txt" >"$scratch/script"
GGUFED_SCRIPT=$scratch/script "$GGUFED" "$m" 2>"$scratch/err" &&
    grep -q "^ far  F32  16" "$scratch/preview.txt" &&
    grep -q " 108 .* 115$" "$scratch/preview.txt" &&
    grep -q "hole .* 1,073,741,888 *4.0 GiB" "$scratch/list.txt"
rc=$?
ok $rc "the browser lists the 4 GiB tensor and previews the one past it"
[ $rc -eq 0 ] || sed 's/^/# /' "$scratch/preview.txt" "$scratch/list.txt" \
    "$scratch/err"

"$GGUFED" set "$m" general.name SPARSE -i >"$scratch/out" &&
    grep -q "in place" "$scratch/out" && far_ok "$m" && sparse "$m" &&
    [ "$(stat -c %s "$m")" = "$size" ]
ok $? "an in-place edit"
"$GGUFED" set "$m" general.name "a much longer name that moves the data" -i \
    >"$scratch/out" && grep -q "new file" "$scratch/out" && far_ok "$m" &&
    [ "$("$GGUFED" get "$m" general.name)" = "a much longer name that moves the data" ]
ok $? "a full rewrite"
sparse "$m"
ok $? "the rewrite kept the hole ($(du -k "$m" | cut -f1) KiB on disk)"
"$GGUFED" rm-tensor "$m" head -o "$scratch/relaid.gguf" >"$scratch/out" 2>&1 &&
    far_ok "$scratch/relaid.gguf" && sparse "$scratch/relaid.gguf" &&
    "$GGUFED" dump --json "$scratch/relaid.gguf" |
    grep -q '"name": "far".*"offset": 4294967552,'
ok $? "a re-laid-out copy: far moved down by 32 bytes, holes kept"
[ "$(stat -c %s "$scratch/relaid.gguf")" = $((size - 32)) ]
ok $? "its size is 32 bytes less"

done_testing
