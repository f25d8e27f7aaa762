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
exec "$builddir/bench/bench_dequant" --stats-mb "${BENCH_STATS_MB:-1024}" \
    "$shared/fixtures/ggml"
