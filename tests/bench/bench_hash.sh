#!/bin/sh
# bench_hash.sh - how fast `ggufed hash` is against the tools that hash
# a file on their own, on the same multi-GB file, warm cache.
#
# Uses the 2.1 GB dense model of bench_save.sh (made in the build tree,
# removed when done). Each pair is run in turn BENCH_RUNS times (default 5), ours then
# theirs, so both see the same machine; printed: both command lines, the
# median wall and CPU (user + system) time of each, and the speed ratio,
# their wall time over ours (1.0 is as fast, more is faster; target
# >= 1.0 against xxhsum, >= 0.9 against sha256sum):
#   - `ggufed hash FILE` (xxh64 of every tensor and of all of them: two
#     hashes of the data, fed from one pass where a thread makes both,
#     read and hashed on two threads) against `xxhsum -H64 FILE`;
#   - `ggufed hash --no-layer FILE` (xxh64 over all tensors once, read on
#     one thread and hashed on the other) against `xxhsum -H64 FILE`;
#   - `ggufed hash --sha256 FILE` against `sha256sum FILE`;
#   - `ggufed hash --file FILE` (the whole file's sha256) against
#     `sha256sum FILE`.
# The CPU ratio (theirs over ours) says what the wall ratio needs: per
# tensor, ggufed makes two hashes of the bytes (each tensor, and the whole
# model, which cannot be made from the tensors' hashes), so it needs a
# second core to keep up. When other work holds the cores, the wall ratio falls
# toward the CPU ratio; the line says how much CPU each run got.
set -eu

builddir=${TESTS_BUILDDIR:-tests}
. "$(dirname "$0")/bench.lib"
gguf=${GGUFED:-./ggufed}
runcmd="$builddir/bench/runcmd"
dir="$builddir/bench/data"
mkdir -p "$dir"
big="$dir/dense-2g.gguf"
runs=${BENCH_RUNS:-5}
# What it makes in the build tree it removes when done, failed or stopped,
# so a full `make bench` holds one script's files at a time.
trap 'rm -f "$big" "$dir/t.ours" "$dir/t.theirs"' EXIT
trap 'exit 130' HUP INT TERM
bench_big "$big"

# one CMD...: "WALL_US CPU_US" of one run (output, and stderr, dropped)
one() {
	"$runcmd" 1 "$@" 2>/dev/null |
	    sed 's/.*median_us=\([0-9]*\).*cpu_us=\([0-9]*\).*/\1 \2/'
}

echo "file     $big ($(stat -c %s "$big") bytes), warm cache"
echo "cores    $(nproc); load average $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$big" >/dev/null			# in the page cache

# pair NAME OURS THEIRS TARGET: medians of both, run in turn, and the
# ratios.
# OURS and THEIRS are command lines of words without blanks in them.
pair() {
	name=$1; ours=$2; theirs=$3; target=$4
	: >"$dir/t.ours"; : >"$dir/t.theirs"
	i=0
	while [ $i -lt "$runs" ]; do
		# shellcheck disable=SC2086
		one $ours >>"$dir/t.ours"
		# shellcheck disable=SC2086
		one $theirs >>"$dir/t.theirs"
		i=$((i + 1))
	done
	aw=$(cut -d' ' -f1 "$dir/t.ours" | median)
	ac=$(cut -d' ' -f2 "$dir/t.ours" | median)
	bw=$(cut -d' ' -f1 "$dir/t.theirs" | median)
	bc=$(cut -d' ' -f2 "$dir/t.theirs" | median)
	awk -v n="$name" -v o="$ours" -v t="$theirs" -v aw="$aw" -v ac="$ac" \
	    -v bw="$bw" -v bc="$bc" -v r="$runs" -v g="$target" 'BEGIN {
		printf "%s (medians of %d runs)\n", n, r
		printf "  %-56s %7.3f s wall %7.3f s cpu\n", o, aw / 1e6, ac / 1e6
		printf "  %-56s %7.3f s wall %7.3f s cpu\n", t, bw / 1e6, bc / 1e6
		printf "  speed ratio %.2f (target >= %s); cpu ratio %.2f\n",
		    bw / aw, g, bc / ac
	}'
	bench_result "hash: $name against ${theirs%% *}" \
	    "$(awk -v a="$aw" -v b="$bw" 'BEGIN { printf "%.2f", b / a }')" \
	    ">=" "$target" "$(echo "$ours" | sed "s|^[^ ]*/||; s|$big|BIG|") / ${theirs%% *} BIG"
}

if command -v xxhsum >/dev/null 2>&1; then
	pair "xxh64 per tensor" "$gguf hash $big" "xxhsum -H64 $big" 1.0
	pair "xxh64 --no-layer" "$gguf hash --no-layer $big" "xxhsum -H64 $big" 1.0
else
	echo "xxh64: skipped, no xxhsum (Debian package xxhash)"
fi
pair "sha256 per tensor" "$gguf hash --sha256 $big" "sha256sum $big" 0.9
pair "sha256 --file" "$gguf hash --file $big" "sha256sum $big" 0.9
