#!/bin/sh
# bench_open.sh - how fast ggufed opens a large model, against ggml.
#
# Generates (in the build tree, removed when done) a model-like file with a 150,000-token
# vocabulary, a 5 KB chat template and 2,000 tensor infos over a sparse
# data section of more than 8 GB, and a 20 MB file with real data. Prints,
# from one run:
#   - the median wall time of `ggufed info` on the big file (whole process),
#   - the median of ggml's own in-process metadata load of the same file
#     (`oracle open FILE 9`), and the ratio (target: <= 0.5),
#   - the peak RSS of `ggufed info` on both files (target: independent of
#     the size of the tensor data);
#   - with GGUF_TOOLS naming antirez's gguf-tools binary, `ggufed info`
#     against `gguf-tools show` (which checks almost nothing) on the files
#     of the published measurements: the TinyStories and DeepSeek vocab
#     fixtures, big-vocab, and the big file above; whole processes, in
#     interleaved rounds, the ratio of the fastest medians (target: <= 1);
#     and, no target, the floor under the smallest file's figure: `ggufed
#     --version` (the start-up alone) against `gguf-tools show` of it.
set -eu

builddir=${TESTS_BUILDDIR:-tests}
. "$(dirname "$0")/bench.lib"
gguf=${GGUFED:-./ggufed}
dir="$builddir/bench/data"
mkdir -p "$dir"
big="$dir/big-sparse.gguf"
small="$dir/small-dense.gguf"
# What it makes in the build tree it removes when done, failed or stopped,
# so a full `make bench` holds one script's files at a time.
trap 'rm -f "$big" "$small"' EXIT
trap 'exit 130' HUP INT TERM
"$builddir/bench/gen_bench" "$big"
"$builddir/bench/gen_bench" --small "$small"

runs=15
printf 'file                   %s (%s bytes on paper, %s KB on disk)\n' \
    "$(basename "$big")" "$(stat -c %s "$big")" "$(du -k "$big" | cut -f1)"
"$gguf" info "$big" >/dev/null		# warm the page cache
ours=$("$builddir/bench/runcmd" $runs "$gguf" info "$big")
echo "ggufed info (process)  $ours"
ggml_us=""
if [ -n "${ORACLE:-}" ] && "$ORACLE" version >/dev/null 2>&1; then
	ggml=$("$ORACLE" open "$big" 9)
	echo "ggml open (in-proc)    $ggml"
	ggml_us=$(echo "$ggml" | sed -n 's/.*median_us \([0-9]*\).*/\1/p')
fi
ours_us=$(echo "$ours" | sed -n 's/.*median_us=\([0-9]*\).*/\1/p')
if [ -n "$ggml_us" ]; then
	r=$(awk -v a="$ours_us" -v b="$ggml_us" 'BEGIN { printf "%.3f", a / b }')
	echo "ratio ggufed/ggml      $r (target <= 0.5)"
	bench_result "open: time against ggml's load" "$r" "<=" 0.5 \
	    "ggufed info BIG (8 GB sparse) / oracle open BIG"
fi
rss_big=$(echo "$ours" | sed -n 's/.*max_rss_kb=\([0-9]*\).*/\1/p')
small_run=$("$builddir/bench/runcmd" 5 "$gguf" info "$small")
rss_small=$(echo "$small_run" | sed -n 's/.*max_rss_kb=\([0-9]*\).*/\1/p')
bench_result "open: peak RSS, 8 GB file / 20 MB file" \
    "$(awk -v a="$rss_big" -v b="$rss_small" 'BEGIN { printf "%.2f", a / b }')" \
    "~" 1 "ggufed info BIG; ggufed info SMALL"
echo "peak RSS               ${rss_big} KB on the $(du -h --apparent-size "$big" | cut -f1) file, ${rss_small} KB on the $(du -h --apparent-size "$small" | cut -f1) file"

# ------------------------------------------------- against gguf-tools show
if [ -z "${GGUF_TOOLS:-}" ] || [ ! -x "$GGUF_TOOLS" ]; then
	echo "gguf-tools: skipped (set GGUF_TOOLS to antirez's gguf-tools binary)"
	exit 0
fi
# median_of COMMAND...: the median microseconds of 20 runs.
median_of() {
	"$builddir/bench/runcmd" 20 "$@" |
	    sed -n 's/.*median_us=\([0-9]*\).*/\1/p'
}
# The smallest file's line has a second, without a target, measured in
# the same rounds: ggufed's start-up alone (exec, relocation, the
# libraries' constructors; `--version` does nothing else) against
# gguf-tools' whole run: the floor under that file's figure. Where it is
# near 1, the file is too small for its reading to matter, and what is
# left to win is the start-up of the larger program.
tiny="${SHARED_DIR:-}/fixtures/real/TinyStories-656K-Q8_0.gguf"
for f in "$tiny" \
    "${SHARED_DIR:-}/fixtures/real/ggml-vocab-deepseek-llm.gguf" \
    "${SHARED_DIR:-}/fixtures/ggml/big-vocab.gguf" "$big"; do
	[ -f "$f" ] || continue
	"$gguf" info "$f" >/dev/null
	"$GGUF_TOOLS" show "$f" >/dev/null
	a=""
	b=""
	c=""
	for round in 1 2 3 4 5; do
		x=$(median_of "$gguf" info "$f")
		y=$(median_of "$GGUF_TOOLS" show "$f")
		{ [ -z "$a" ] || [ "$x" -lt "$a" ]; } && a=$x
		{ [ -z "$b" ] || [ "$y" -lt "$b" ]; } && b=$y
		[ "$f" = "$tiny" ] || continue
		z=$(median_of "$gguf" --version)
		{ [ -z "$c" ] || [ "$z" -lt "$c" ]; } && c=$z
	done
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
	printf '%-30s ggufed info %6d us, gguf-tools show %6d us, ratio %s\n' \
	    "$(basename "$f")" "$a" "$b" "$r"
	bench_result "open: against gguf-tools show, $(basename "$f")" "$r" \
	    "<=" 1 "ggufed info FILE / gguf-tools show FILE (whole processes)"
	[ -n "$c" ] || continue
	r=$(awk -v a="$c" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
	printf '%-30s ggufed --version %6d us (start-up alone), ratio %s\n' \
	    "" "$c" "$r"
	bench_result "open: ggufed's start-up alone against gguf-tools show, $(basename "$f")" \
	    "$r" "-" "" "ggufed --version / gguf-tools show FILE (whole processes; the floor of the line above)"
done
