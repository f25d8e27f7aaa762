#!/bin/sh
# bench_stats.sh - `ggufed stats` from the command line on models of
# BENCH_STATS_MIB mebibytes (default 1024), type by type (BENCH_STATS_TYPES,
# default F16 Q8_0 Q4_K), warm cache, medians of BENCH_RUNS runs (default
# 5), the commands of a figure run in turn:
#   - `stats --all` on 2 threads against 1 (tensors of 16 MiB, gen_scan):
#     the speed-up, target >= 1.8;
#   - `stats --all` on every core against `validate --data` on every core,
#     the same file: its time over ours, target >= 0.5;
#   - one tensor of the whole size (gen_scan --one) on 1, 2, ... threads
#     up to the number of cores (BENCH_STATS_THREADS, at most): the
#     speed-up over 1 thread at each count, target >= 1.8 on 2 threads
#     (both passes, the exact percentiles' included); on a machine of
#     two cores, each core also runs the 1-thread command alone
#     (taskset), in the same rounds: the cores of a virtual machine need
#     not be equally fast (one measured at 0.63 of the other's speed for
#     minutes), and the most 2 threads can give over the 1-thread time
#     is that time over each core's, added (no target); and the two
#     1-thread commands run at once, one on each core: what each core
#     does while the other is busy too (a virtual machine's cores can
#     share what the host gives them), so the most 2 threads can give
#     is twice the 1-thread time over that pair's (no target);
#   - that tensor's statistics on every core, the call the browser's
#     preview makes (gguf_stats_tensor over every row, every core; the
#     preview adds a progress callback): the time in seconds, target < 0.5
#     on 2 cores;
#   - the same call on a tensor of model-like values (gen_scan --model,
#     the types it has them for): random bytes spread a tensor's values
#     over some forty octaves, many of them subnormal, where a model's lie
#     within a few; no target, to read beside the one above.
# Each model is made in the build tree and removed before the next one.
# The machine's load average is printed with the figures: other work on
# the cores lowers every speed-up.
set -eu

builddir=${TESTS_BUILDDIR:-tests}
. "$(dirname "$0")/bench.lib"
gguf=${GGUFED:-./ggufed}
dir="$builddir/bench/data"
mkdir -p "$dir"
mib=${BENCH_STATS_MIB:-1024}
runs=${BENCH_RUNS:-5}
types=${BENCH_STATS_TYPES:-"F32 F16 BF16 Q8_0 Q4_0 Q4_K Q6_K"}
cores=$(nproc)
maxth=${BENCH_STATS_THREADS:-$cores}
[ "$maxth" -le "$cores" ] || maxth=$cores
f=""
trap 'rm -f "$f" "$dir/t.a" "$dir/t.b" "$dir/t.both" "$dir"/t.[0-9]*' EXIT
trap 'exit 130' HUP INT TERM

# pair "A" "B": the medians $a and $b of the two command lines (words
# without blanks), run in turn.
pair() {
	: >"$dir/t.a"; : >"$dir/t.b"
	i=0
	while [ $i -lt "$runs" ]; do
		# shellcheck disable=SC2086
		bench_us $1 >>"$dir/t.a"
		# shellcheck disable=SC2086
		bench_us $2 >>"$dir/t.b"
		i=$((i + 1))
	done
	a=$(median <"$dir/t.a")
	b=$(median <"$dir/t.b")
}

# ratio NAME TARGET WHAT: prints and records $b / $a (B's time over A's)
ratio() {
	awk -v n="$1" -v a="$a" -v b="$b" -v t="$2" 'BEGIN {
	    printf "  %-50s %7.3f s %7.3f s  ratio %.2f (target >= %s)\n",
		n, a / 1e6, b / 1e6, b / a, t }'
	bench_result "stats: $1" \
	    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')" \
	    ">=" "$2" "$3"
}

# The two CPUs this runs on, "A B", when it runs on exactly two and can
# pin a command to one (taskset); else empty.
two_cpus=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//' | awk -F, '{
	n = 0
	for (i = 1; i <= NF; i++) {
		if (split($i, r, "-") == 2)
			for (c = r[1]; c <= r[2]; c++) cpu[n++] = c
		else
			cpu[n++] = $i
	}
	if (n == 2)
		print cpu[0], cpu[1]
}')
[ "$maxth" -ge 2 ] || two_cpus=""

# sweep TYPE: the statistics of the tensor of $f on 1 .. $maxth threads,
# the counts run in turn, and each count's speed-up over 1 thread (the
# target, 1.8, on 2 threads only); on two CPUs, each alone on 1 thread
# in the same rounds, and what the two could give together.
sweep() {
	n=1
	while [ $n -le "$maxth" ]; do
		: >"$dir/t.$n"
		n=$((n + 1))
	done
	: >"$dir/t.a"; : >"$dir/t.b"; : >"$dir/t.both"
	i=0
	while [ $i -lt "$runs" ]; do
		n=1
		while [ $n -le "$maxth" ]; do
			bench_us "$gguf" stats --threads $n "$f" \
			    blk.0.ffn_up.weight >>"$dir/t.$n"
			n=$((n + 1))
		done
		if [ -n "$two_cpus" ]; then
			bench_us taskset -c "${two_cpus% *}" "$gguf" stats \
			    --threads 1 "$f" blk.0.ffn_up.weight >>"$dir/t.a"
			bench_us taskset -c "${two_cpus#* }" "$gguf" stats \
			    --threads 1 "$f" blk.0.ffn_up.weight >>"$dir/t.b"
			both_us "$f" >>"$dir/t.both"
		fi
		i=$((i + 1))
	done
	one=$(median <"$dir/t.1")
	n=2
	while [ $n -le "$maxth" ]; do
		tn=$(median <"$dir/t.$n")
		up=$(awk -v a="$one" -v b="$tn" 'BEGIN { printf "%.2f", a / b }')
		if [ $n -eq 2 ]; then
			awk -v n="$1 one tensor, $n threads over 1" -v a="$one" \
			    -v b="$tn" -v u="$up" 'BEGIN {
			    printf "  %-50s %7.3f s %7.3f s  speed-up %s " \
				"(target >= 1.8): %s\n", n, a / 1e6, b / 1e6, u,
				(u + 0 >= 1.8) ? "MET" : "NOT MET" }'
			bench_result "stats: $1 one tensor, speed-up on 2 threads" \
			    "$up" ">=" 1.8 \
			    "stats --threads 1 FILE T / --threads 2 ($1, one of $mib MiB)"
			if [ -n "$two_cpus" ]; then
				cores_ceiling "$1"
			fi
		else
			awk -v n="$1 one tensor, $n threads over 1" -v a="$one" \
			    -v b="$tn" -v u="$up" 'BEGIN {
			    printf "  %-50s %7.3f s %7.3f s  speed-up %s\n", n,
				a / 1e6, b / 1e6, u }'
			bench_result "stats: $1 one tensor, speed-up on $n threads" \
			    "$up" "-" - \
			    "stats --threads 1 FILE T / --threads $n ($1, one of $mib MiB)"
		fi
		n=$((n + 1))
	done
	n=1
	while [ $n -le "$maxth" ]; do
		rm -f "$dir/t.$n"
		n=$((n + 1))
	done
	rm -f "$dir/t.both"
}

# both_us FILE: the wall time, in microseconds, of the 1-thread statistics
# of FILE's tensor run twice at once, one on each of the two CPUs, until
# both are done.
both_us() {
	_t0=$(now_us)
	taskset -c "${two_cpus% *}" "$gguf" stats --threads 1 "$1" \
	    blk.0.ffn_up.weight >/dev/null &
	_pid=$!
	taskset -c "${two_cpus#* }" "$gguf" stats --threads 1 "$1" \
	    blk.0.ffn_up.weight >/dev/null ||
	    { echo "bench_stats: failed: stats --threads 1 $1" >&2; exit 1; }
	wait "$_pid" ||
	    { echo "bench_stats: failed: stats --threads 1 $1" >&2; exit 1; }
	echo $(($(now_us) - _t0))
}

# cores_ceiling TYPE: each of the two CPUs' 1-thread time (the medians of
# t.a and t.b) and the most two threads could give over $one, the
# 1-thread time the speed-up is of: one / a + one / b; then the two at
# once (the median of t.both): 2 * one / both.
cores_ceiling() {
	ca=$(median <"$dir/t.a")
	cb=$(median <"$dir/t.b")
	cl=$(awk -v o="$one" -v a="$ca" -v b="$cb" \
	    'BEGIN { printf "%.2f", o / a + o / b }')
	awk -v n="$1 one tensor, each CPU alone (${two_cpus% *}, ${two_cpus#* })" \
	    -v a="$ca" -v b="$cb" -v c="$cl" 'BEGIN {
	    printf "  %-50s %7.3f s %7.3f s  the most 2 threads " \
		"give: %s\n", n, a / 1e6, b / 1e6, c }'
	bench_result "stats: $1 one tensor, the most its two CPUs give" "$cl" \
	    "-" - "stats --threads 1 FILE T / each CPU's own (taskset -c), added"
	cboth=$(median <"$dir/t.both")
	cl=$(awk -v o="$one" -v b="$cboth" 'BEGIN { printf "%.2f", 2 * o / b }')
	awk -v n="$1 one tensor, one on each CPU at once" -v b="$cboth" \
	    -v c="$cl" 'BEGIN {
	    printf "  %-50s %7.3f s %9s  the most 2 threads give: %s\n",
		n, b / 1e6, "", c }'
	bench_result "stats: $1 one tensor, the most its two CPUs give at once" \
	    "$cl" "-" - \
	    "2 x stats --threads 1 FILE T / the same twice at once, one on each CPU"
}

# preview NAME [TARGET]: prints and sets $a, the median time of the
# preview's call on the tensor of $f.
preview() {
	: >"$dir/t.a"
	i=0
	while [ $i -lt "$runs" ]; do
		bench_us "$gguf" stats "$f" blk.0.ffn_up.weight >>"$dir/t.a"
		i=$((i + 1))
	done
	a=$(median <"$dir/t.a")
	awk -v n="$1" -v a="$a" -v t="${2:-}" 'BEGIN {
	    printf "  %-50s %7.3f s %s\n", n, a / 1e6, t }'
}

echo "cores    $(nproc); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "warm cache, medians of $runs runs in turn; each line: the time of"
echo "the first command, of the second, and the second's over the first's"
for t in $types; do
	f="$dir/stats-$t.gguf"
	"$builddir/bench/gen_scan" "$f" "$t" "$mib" >/dev/null
	cat "$f" >/dev/null
	echo "$t: $mib MiB in tensors of 16 MiB"
	pair "$gguf stats --all --threads 2 $f" \
	    "$gguf stats --all --threads 1 $f"
	ratio "$t --all, 2 threads over 1" 1.8 \
	    "stats --all --threads 1 FILE / --threads 2 ($t, $mib MiB)"
	pair "$gguf stats --all $f" "$gguf validate --data $f"
	ratio "$t --all, every core, against validate --data" 0.5 \
	    "validate --data FILE / stats --all FILE ($t, $mib MiB, every core)"
	rm -f "$f"

	"$builddir/bench/gen_scan" --one "$f" "$t" "$mib" >/dev/null
	cat "$f" >/dev/null
	echo "$t: one tensor of $mib MiB, on 1 to $maxth threads"
	sweep "$t"
	preview "$t one tensor, every core (the preview's call)" \
	    "(target < 0.5)"
	bench_result "stats: $t preview's statistics of one tensor, s" \
	    "$(awk -v a="$a" 'BEGIN { printf "%.3f", a / 1e6 }')" "<" 0.5 \
	    "stats FILE T: the preview's gguf_stats_tensor ($t, $mib MiB)"
	rm -f "$f"

	"$builddir/bench/gen_scan" --one --model "$f" "$t" "$mib" \
	    >/dev/null 2>&1 || { rm -f "$f"; continue; }	# none of this type
	cat "$f" >/dev/null
	preview "$t one tensor of model-like values, every core"
	bench_result "stats: $t preview's statistics, model-like values, s" \
	    "$(awk -v a="$a" 'BEGIN { printf "%.3f", a / 1e6 }')" "-" - \
	    "stats FILE T: as above, gen_scan --model ($t, $mib MiB)"
	rm -f "$f"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
