#!/bin/sh
# bench_set.sh - how fast ggufed opens a split model, against one file.
#
# Generates (in the build tree, removed when done) a model-like file with a
# 150,000-token vocabulary and 10,001 tensor infos over a sparse data
# section, and splits it with ggufed into 20 shards (--max-tensors 501).
# Prints:
#   - the wall time of `ggufed info` on the one file and on the set
#     (given its third shard: every shard is opened), the fastest median
#     of 15 runs over 5 interleaved rounds, and their ratio (target:
#     <= 1.1, the set costing what its headers cost);
#   - ggml's own metadata load of the one file (`oracle open FILE 9`),
#     and the ratio of the set to it (target <= 0.5, as for one file);
#   - the peak RSS of both runs.
set -eu

builddir=${TESTS_BUILDDIR:-tests}
. "$(dirname "$0")/bench.lib"
gguf=${GGUFED:-./ggufed}
dir="$builddir/bench/data"
mkdir -p "$dir"
one="$dir/wide.gguf"
set="$dir/wide-set/wide"
# What it makes in the build tree it removes when done, failed or stopped,
# so a full `make bench` holds one script's files at a time.
trap 'rm -rf "$one" "$dir/wide-set"' EXIT
trap 'exit 130' HUP INT TERM
"$builddir/bench/gen_bench" --wide "$one"
mkdir -p "$dir/wide-set"
"$gguf" split -q --force --max-tensors 501 "$one" "$set"
third="$set-00003-of-00020.gguf"

runs=15
# The page cache holds each file as its writer left it, and a file the
# kernel keeps in large folios maps faster: the one file (written here in
# one pass) opened 30% faster than the same bytes copied. Both are put in
# the cache alike, as a model read from disk is: each file's pages
# dropped (dd's nocache, after a sync), then read back.
sync
for f in "$one" "$dir"/wide-set/*.gguf; do
	dd if="$f" iflag=nocache count=0 status=none
	cat "$f" >/dev/null
done
"$gguf" info "$one" >/dev/null		# warm the page cache
"$gguf" info "$third" >/dev/null
# In interleaved rounds, the fastest median of each: the machine's other
# work falls on both alike, and a round it disturbed does not count.
a_us=""
b_us=""
for round in 1 2 3 4 5; do
	a=$("$builddir/bench/runcmd" $runs "$gguf" info "$one")
	b=$("$builddir/bench/runcmd" $runs "$gguf" info "$third")
	x=$(echo "$a" | sed -n 's/.*median_us=\([0-9]*\).*/\1/p')
	y=$(echo "$b" | sed -n 's/.*median_us=\([0-9]*\).*/\1/p')
	{ [ -z "$a_us" ] || [ "$x" -lt "$a_us" ]; } && { a_us=$x; a_best=$a; }
	{ [ -z "$b_us" ] || [ "$y" -lt "$b_us" ]; } && { b_us=$y; b_best=$b; }
done
echo "ggufed info, one file  $a_best"
echo "ggufed info, 20 shards $b_best"
r=$(awk -v a="$a_us" -v b="$b_us" 'BEGIN { printf "%.3f", b / a }')
echo "ratio set/one file     $r (target <= 1.1)"
bench_result "open: 20-shard set against one file" "$r" "<=" 1.1 \
    "ggufed info SET-00003-of-00020.gguf / ggufed info ONE"
if [ -n "${ORACLE:-}" ] && "$ORACLE" version >/dev/null 2>&1; then
	ggml=$("$ORACLE" open "$one" 9)
	echo "ggml open, one file    $ggml"
	g_us=$(echo "$ggml" | sed -n 's/.*median_us \([0-9]*\).*/\1/p')
	r=$(awk -v a="$b_us" -v b="$g_us" 'BEGIN { printf "%.3f", a / b }')
	echo "ratio set/ggml         $r (target <= 0.5)"
	bench_result "open: 20-shard set against ggml's load" "$r" "<=" 0.5 \
	    "ggufed info SET-00003-of-00020.gguf / oracle open ONE"
fi
