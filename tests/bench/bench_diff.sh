#!/bin/sh
# bench_diff.sh - how fast `ggufed diff` is, warm cache.
#
# - Vocabulary: the shared fixture big-vocab.gguf (150,000 tokens and
#   merges, 7 MB) against a copy with one token changed: the median wall
#   time of the whole process over BENCH_RUNS runs (default 5), and of
#   `ggufed info` on the same file for scale (a diff opens two files and
#   compares four 150,000-element arrays).
# - Tensor data: the 2.1 GB dense model of bench_save.sh against a copy
#   with one tensor renamed: every tensor's data hashed in both files
#   (4.2 GB), against `xxhsum -H64` of both files, as speed (xxhsum's time
#   over ggufed's: 1.0 is as fast, more is faster).
set -eu

builddir=${TESTS_BUILDDIR:-tests}
. "$(dirname "$0")/bench.lib"
gguf=${GGUFED:-./ggufed}
dir="$builddir/bench/data"
mkdir -p "$dir"
runs=${BENCH_RUNS:-5}
other="$dir/big-vocab-tok.gguf"
dense="$dir/dense-2g.gguf"
copy="$dir/dense-2g-renamed.gguf"
# What it makes in the build tree it removes when done, failed or stopped,
# so a full `make bench` holds one script's files at a time.
trap 'rm -f "$other" "$dense" "$copy"' EXIT
trap 'exit 130' HUP INT TERM

# med_us CMD...: the median wall time of $runs runs, in microseconds
med_us() {
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(now_us)
		"$@" >/dev/null 2>&1 || [ $? -eq 1 ]
		t1=$(now_us)
		echo $((t1 - t0))
		i=$((i + 1))
	done | median
}

# ------------------------------------------------------------ vocabulary
bv="${SHARED_DIR:-}/fixtures/ggml/big-vocab.gguf"
if [ -f "$bv" ]; then
	rm -f "$other"
	"$gguf" set "$bv" 'tokenizer.ggml.tokens[149000]' zzz -o "$other" -q
	"$gguf" diff "$bv" "$other" | grep '^~ key' | sed 's/^/    /' || true
	d=$(med_us "$gguf" diff "$bv" "$other")
	i=$(med_us "$gguf" info "$bv")
	echo "vocabulary  diff $((d / 1000)) ms, info $((i / 1000)) ms (median of $runs)"
else
	echo "vocabulary  skipped: no fixtures/ggml/big-vocab.gguf in the shared folder"
fi

# ----------------------------------------------------------- tensor data
rm -f "$other"
bench_big "$dense"
rm -f "$copy"
t=$("$gguf" dump "$dense" | sed -n 's/^tensor 0 \([^ ]*\) .*/\1/p')
"$gguf" rename "$dense" "$t" renamed.weight -o "$copy" -q
cat "$dense" "$copy" >/dev/null		# in the page cache
"$gguf" diff -q "$dense" "$copy" | sed 's/^/    /' || true
ours=$(med_us "$gguf" diff "$dense" "$copy")
echo "tensor data diff   $((ours / 1000)) ms ($(stat -c %s "$dense") + $(stat -c %s "$copy") bytes)"
if command -v xxhsum >/dev/null 2>&1; then
	theirs=$(med_us xxhsum -H64 "$dense" "$copy")
	echo "xxhsum -H64 both   $((theirs / 1000)) ms"
	r=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", b / a }')
	echo "speed (xxhsum / diff)  $r"
	bench_result "diff: two 2.1 GB models against xxhsum of both" "$r" \
	    "-" "" "ggufed diff BIG COPY / xxhsum -H64 BIG COPY"
fi
