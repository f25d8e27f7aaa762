#!/bin/sh
# bench_scan.sh - `ggufed validate --data` (every value of every tensor
# checked for NaN, Inf and invalid block scales) against
# `cat FILE >/dev/null`, type by type.
#
# For each type, a dense model of BENCH_SCAN_MIB mebibytes (default 2048)
# is made in the build tree by gen_scan (random values, finite scales)
# and removed before the next type's, so the bench never holds more than
# one (also when it fails or is stopped). Warm: the file is read once into the page cache, then the two
# commands run in turn BENCH_RUNS times (default 5) and the medians are
# compared; the ratio is throughput, cat's time over ggufed's (1.0 is as
# fast, target >= 0.8). Cold (F16 and Q4_K only, and only where
# /proc/sys/vm/drop_caches can be written: it empties the page cache of
# the whole machine before each run): the same with the cache dropped
# before every run (target >= 0.91, within 10% of cat), right after
# the type's warm runs. BENCH_COLD=0 skips the cold runs.
set -eu

builddir=${TESTS_BUILDDIR:-tests}
. "$(dirname "$0")/bench.lib"
gguf=${GGUFED:-./ggufed}
dir="$builddir/bench/data"
mkdir -p "$dir"
mib=${BENCH_SCAN_MIB:-2048}
runs=${BENCH_RUNS:-5}
types=${BENCH_SCAN_TYPES:-"F32 F16 BF16 Q8_0 Q4_K Q6_K IQ4_XS IQ2_XXS"}
f=""
trap 'rm -f "$f" "$dir/t.cat" "$dir/t.ours"' EXIT
trap 'exit 130' HUP INT TERM

drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# pair FILE COLD: medians of cat and of validate --data, run in turn
pair() {
	: >"$dir/t.cat"; : >"$dir/t.ours"
	i=0
	while [ $i -lt "$runs" ]; do
		[ "$2" = 1 ] && drop
		bench_us cat "$1" >>"$dir/t.cat"
		[ "$2" = 1 ] && drop
		bench_us "$gguf" validate --data "$1" >>"$dir/t.ours"
		i=$((i + 1))
	done
	a=$(median <"$dir/t.cat")
	b=$(median <"$dir/t.ours")
}

row() {
	awk -v t="$1" -v s="$2" -v a="$3" -v b="$4" -v g="$5" 'BEGIN {
	    printf "%-8s %9.1f MiB  cat %6d ms  validate %6d ms  %6.0f MiB/s  ratio %.2f (target >= %s)\n",
		t, s / 1048576, a / 1000, b / 1000, s / 1048576 / (b / 1e6), a / b, g }'
	bench_result "validate --data: $1 against cat" \
	    "$(awk -v a="$3" -v b="$4" 'BEGIN { printf "%.2f", a / b }')" \
	    ">=" "$5" "ggufed validate --data FILE / cat FILE >/dev/null ($1, $(($2 >> 20)) MiB)"
}

cold=1
if [ "${BENCH_COLD:-1}" = 0 ]; then
	cold="skipped (BENCH_COLD=0)"
elif ! [ -w /proc/sys/vm/drop_caches ] || ! (drop) 2>/dev/null; then
	cold="skipped (cannot write /proc/sys/vm/drop_caches; root only)"
fi

echo "cores     $(nproc)"
echo "commands  cat FILE >/dev/null    $gguf validate --data FILE"
echo "warm cache, medians of $runs runs in turn"
if [ "$cold" = 1 ]; then
	echo "cold cache (page cache dropped before every run): F16 and Q4_K, rows \"cold\""
else
	echo "cold cache: $cold"
fi
for t in $types; do
	f="$dir/scan-$t-$mib.gguf"
	rm -f "$f"
	"$builddir/bench/gen_scan" "$f" "$t" "$mib"
	cat "$f" >/dev/null
	pair "$f" 0
	row "$t" "$(stat -L -c %s "$f")" "$a" "$b" 0.8
	if [ "$cold" = 1 ] && { [ "$t" = F16 ] || [ "$t" = Q4_K ]; }; then
		pair "$f" 1
		row "$t cold" "$(stat -L -c %s "$f")" "$a" "$b" 0.91
	fi
	rm -f "$f"
done
