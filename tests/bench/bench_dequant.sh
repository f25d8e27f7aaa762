#!/bin/sh
# bench_dequant.sh - dequantization throughput against ggml (its base
# library and its CPU backend), per type; statistics per type against
# ggml's conversion of the same data, on 1 and 2 threads; and the speed-up
# of threaded statistics on a tensor of more than 1 GB.
#
# ggml's libraries are the ones the oracle uses: $GGML_LIB_DIR if set,
# otherwise the directory the oracle's fetch script reports (it downloads
# the library on first use). Without it, only ggufed's figures print.
# BENCH_STATS_MB sets the size of the statistics tensor (default 1024);
# the file is written to $TMPDIR and removed afterwards.
# Under `make bench`, the statistics' figures go to the summary: per core
# against ggml (target 0.5, for every type ggml converts: F16, BF16, Q8_0,
# Q4_0, Q4_K, Q5_K, Q6_K), the speed-up on 2 threads (target 1.8), on a
# machine of two CPUs the most those two give (the 1 thread's time over
# each CPU's alone, added; no target), and the per core ratio the
# sketch's counting alone allows (no target).
set -eu

builddir=${TESTS_BUILDDIR:-tests}
shared=${SHARED_DIR:-}
if [ -z "${GGML_LIB_DIR:-}" ] && [ -n "$shared" ] &&
    [ -x "$shared/tools/ggml-oracle/fetch-ggml.sh" ]; then
	GGML_LIB_DIR=$("$shared/tools/ggml-oracle/fetch-ggml.sh" 2>/dev/null) ||
	    GGML_LIB_DIR=""
	export GGML_LIB_DIR
fi
if [ -z "$shared" ] || [ ! -d "$shared/fixtures/ggml" ]; then
	echo "bench_dequant: SHARED_DIR does not hold fixtures/ggml" >&2
	exit 1
fi
. "$(dirname "$0")/bench.lib"
out=$(mktemp "${TMPDIR:-/tmp}/bench_dequant.XXXXXX")
trap 'rm -f "$out" "$out.rc"' EXIT
trap 'exit 130' HUP INT TERM
{
	rc=0
	"$builddir/bench/bench_dequant" --stats-mb "${BENCH_STATS_MB:-1024}" \
	    "$shared/fixtures/ggml" || rc=$?
	echo "$rc" >"$out.rc"
} | tee "$out"

# The statistics' figures for the summary: per core and on 2 threads
# (first table of part 3), and the bound the sketch's counting sets on
# per core (second table).
cmd="bench_dequant part 3: gguf_stats_data on 1 thread / ggml to_float"
awk '/^type +1 thread +2 threads/ { t = 1; next }
    /^type +ggml +sketch +bound/ { t = 2; next }
    /^$/ { t = 0 }
    t == 1 && $9 ~ /x$/ { sub(/x$/, "", $4); sub(/x$/, "", $9);
	print "c", $1, $9, $4 }
    t == 1 && $10 ~ /x$/ { sub(/x$/, "", $10); print "u", $1, $10 }
    t == 2 && $4 ~ /x$/ { sub(/x$/, "", $4); print "b", $1, $4 }' "$out" |
while read -r kind type v x2; do
	if [ "$kind" = u ]; then
		bench_result "stats on 2 threads: $type, the most its two CPUs give" \
		    "$v" "-" - "bench_dequant part 3: gguf_stats_data, 1 thread / each CPU's alone, added ($type)"
	elif [ "$kind" = c ]; then
		bench_result "stats per core: $type against ggml's conversion" \
		    "$v" ">=" 0.5 "$cmd ($type, 2^25 elements in memory)"
		bench_result "stats on 2 threads: $type speed-up" "$x2" ">=" 1.8 \
		    "bench_dequant part 3: gguf_stats_data, 1 thread / 2 threads ($type)"
	else
		bench_result "stats per core: $type, best the sketch's counting allows" \
		    "$v" "-" - "bench_dequant part 3: ggml to_float / gguf_stats_sketch_only, one chunk in cache ($type)"
	fi
done
exit "$(cat "$out.rc")"
