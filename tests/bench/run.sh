#!/bin/sh
# run.sh - `make bench`: every benchmark script in turn, then one table of
# every figure that has a target (the scripts record them with
# bench_result, see bench.lib): what was measured, the figure, the target,
# whether it is met, and the command lines that produced it.
#
# The 2.1 GB dense model that bench_save, bench_diff and bench_hash read is
# made once, here, and removed at the end (also on failure or a signal).
# Figures from a sanitized build mean little: the table says so.
#
# Usage: run.sh SCRIPT...   (with the test environment of Makefile.am)
set -eu

builddir=${TESTS_BUILDDIR:-tests}
srcdir=${TESTS_SRCDIR:-tests}
dir="$builddir/bench/data"
mkdir -p "$dir"
BENCH_SUMMARY="$dir/summary.tsv"
BENCH_BIG="$dir/shared-dense-2g.gguf"
export BENCH_SUMMARY BENCH_BIG
trap 'rm -f "$BENCH_BIG"' EXIT
trap 'exit 130' HUP INT TERM
: >"$BENCH_SUMMARY"

need_big=0
for s in "$@"; do
	grep -q '^bench_big ' "$s" && need_big=1
done
if [ "$need_big" = 1 ]; then
	echo "== the 2.1 GB dense model for the save, diff and hash benchmarks"
	"$builddir/bench/gen_big" "$BENCH_BIG" 2112
	# its 2.1 GB reach the disk now, not under the first timings
	sync
fi

started=$(date -u '+%Y-%m-%d %H:%M UTC')
for s in "$@"; do
	echo "== $s   (load average $(cut -d' ' -f1-3 /proc/loadavg))"
	${SHELL:-sh} "$s"
done

echo
echo "== summary: started $started, $(nproc) cores, load average now $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${BENCH_SANITIZED:-no}" = yes ]; then
	echo "WARNING: this build has sanitizers; configure without --enable-sanitizers for real figures"
fi
awk -F '\t' '
	{ n++; name[n] = $1; v[n] = $2; t[n] = $3; ok[n] = $4; cmd[n] = $5
	  if (length($1) > w) w = length($1)
	  if ($4 == "NOT MET") bad++ }
	END {
		printf "%-*s  %10s  %-10s  %-7s  %s\n", w, "measure", "figure",
		    "target", "", "command"
		for (i = 1; i <= n; i++)
			printf "%-*s  %10s  %-10s  %-7s  %s\n", w, name[i], v[i],
			    t[i], ok[i], cmd[i]
		printf "%d figures, %d with a target not met\n", n, bad
	}' "$BENCH_SUMMARY"
