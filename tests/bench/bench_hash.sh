#!/bin/sh
# bench_hash.sh - how fast `ggufed hash` is against the tools that hash
# a file on their own, on the same multi-GB file, warm cache.
#
# Uses the 2.1 GB dense model of bench_save.sh (made once in the build
# tree). Prints the median wall time of each command over BENCH_RUNS runs
# (default 3), and each ratio as speed: the tool's time over ggufed's, so
# 1.0 is as fast and more is faster (target >= 0.9):
#   - `ggufed hash FILE` (xxh64 of every tensor and of all of them: the
#     data hashed twice, on two threads) against `xxhsum -H64 FILE`;
#   - `ggufed hash --no-layer FILE` (xxh64 over all tensors once) against
#     `xxhsum -H64 FILE`;
#   - `ggufed hash --sha256 FILE` against `sha256sum FILE`;
#   - `ggufed hash --file FILE` (the whole file's sha256) against
#     `sha256sum FILE`.
# On a machine whose cores are busy with other work the two-thread run
# cannot use its second core, and its ratio says so.
set -eu

builddir=${TESTS_BUILDDIR:-tests}
gguf=${GGUFED:-./ggufed}
dir="$builddir/bench/data"
mkdir -p "$dir"
big="$dir/dense-2g.gguf"
runs=${BENCH_RUNS:-3}
[ -f "$big" ] || "$builddir/bench/gen_big" "$big" 2112

now_us() { echo $(($(date +%s%N) / 1000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# time_us CMD...: wall time of one run, in microseconds
time_us() { t0=$(now_us); "$@" >/dev/null; t1=$(now_us); echo $((t1 - t0)); }

echo "file               $(basename "$big") ($(stat -c %s "$big") bytes)"
echo "cores              $(nproc)"
cat "$big" >/dev/null			# in the page cache

# pair NAME 'OURS' 'THEIRS': medians of both, run in turn, and the ratio
pair() {
	name=$1; ours=$2; theirs=$3
	: >"$dir/t.ours"; : >"$dir/t.theirs"
	i=0
	while [ $i -lt "$runs" ]; do
		eval "time_us $ours" >>"$dir/t.ours"
		eval "time_us $theirs" >>"$dir/t.theirs"
		i=$((i + 1))
	done
	a=$(median <"$dir/t.ours")
	b=$(median <"$dir/t.theirs")
	awk -v n="$name" -v a="$a" -v b="$b" -v t="$theirs" 'BEGIN {
	    split(t, w, " ")
	    printf "%-18s ggufed %d us, %s %d us: speed ratio %.2f (target >= 0.9)\n",
		n, a, w[1], b, b / a }'
}

if command -v xxhsum >/dev/null 2>&1; then
	pair "xxh64 per tensor" "\"\$gguf\" hash \"\$big\"" "xxhsum -H64 \"\$big\""
	pair "xxh64 --no-layer" "\"\$gguf\" hash --no-layer \"\$big\"" \
	    "xxhsum -H64 \"\$big\""
else
	echo "xxh64              skipped: no xxhsum (Debian package xxhash)"
fi
pair "sha256 per tensor" "\"\$gguf\" hash --sha256 \"\$big\"" \
    "sha256sum \"\$big\""
pair "sha256 --file" "\"\$gguf\" hash --file \"\$big\"" "sha256sum \"\$big\""
