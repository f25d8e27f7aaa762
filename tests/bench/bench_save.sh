#!/bin/sh
# bench_save.sh - how fast ggufed saves a large model, and in how much
# memory.
#
# Generates (in the build tree, removed when done) a dense 2.1 GB model with a
# 150,000-token vocabulary. Prints, from one run:
#   - the median wall time of a full-rewrite save (`ggufed edit -o`, a
#     KV edit that changes the header's size, so the data is copied) and
#     of `cp` of the same file, and their ratio (target <= 1.1); the save
#     fsyncs its output, cp does not, so `cp` followed by an fsync of the
#     copy (`sync FILE`) is shown as well;
#   - the median wall time of an in-place save (`ggufed set -i` of a u32),
#     and of a string edit made in place thanks to --reserve (target
#     < 50 ms);
#   - the peak RSS of the full-rewrite save (target < 64 MB).
set -eu

builddir=${TESTS_BUILDDIR:-tests}
. "$(dirname "$0")/bench.lib"
gguf=${GGUFED:-./ggufed}
dir="$builddir/bench/data"
mkdir -p "$dir"
big="$dir/dense-2g.gguf"
work="$dir/save-work.gguf"
out="$dir/save-out.gguf"
runs=${BENCH_RUNS:-7}
# What it makes in the build tree it removes when done, failed or stopped,
# so a full `make bench` holds one script's files at a time.
trap 'rm -f "$big" "$out" "$work" "$dir"/t.save "$dir"/t.cp "$dir"/t.cpsync "$dir"/t.in "$dir"/t.res' EXIT
trap 'exit 130' HUP INT TERM
bench_big "$big"

# time_us CMD...: wall time of one run, in microseconds
time_us() { t0=$(now_us); "$@" >/dev/null; t1=$(now_us); echo $((t1 - t0)); }

size=$(stat -c %s "$big")
echo "file               $(basename "$big") ($size bytes, dense)"
cat "$big" >/dev/null			# the source in the page cache

i=0; : >"$dir/t.save"; : >"$dir/t.cp"; : >"$dir/t.cpsync"
while [ $i -lt $runs ]; do
	rm -f "$out"; sync
	time_us "$gguf" edit "$big" -o "$out" -q -e "set general.name \"Bench run $i of a save\"" >>"$dir/t.save"
	rm -f "$out"; sync
	time_us cp "$big" "$out" >>"$dir/t.cp"
	rm -f "$out"; sync
	time_us sh -c 'cp "$1" "$2" && sync "$2"' sh "$big" "$out" >>"$dir/t.cpsync"
	i=$((i + 1))
done
save=$(median <"$dir/t.save")
cp_=$(median <"$dir/t.cp")
cps=$(median <"$dir/t.cpsync")
echo "rewrite save       median ${save} us (fsynced)"
echo "cp                 median ${cp_} us"
echo "cp + fsync         median ${cps} us"
r=$(awk -v a="$save" -v b="$cp_" 'BEGIN { printf "%.3f", a / b }')
echo "ratio save/cp      $r (target <= 1.1)"
awk -v a="$save" -v c="$cps" 'BEGIN {
    printf "ratio save/cp+sync %.3f\n", a / c }'
bench_result "save: full rewrite against cp (2.1 GB)" "$r" "<=" 1.1 \
    "ggufed edit BIG -o OUT -e 'set general.name ...' / cp BIG OUT"

# In place: a fixed-size edit, then a string edit over a reserve. The copy
# is flushed first, or the first fsync would pay for writing 2 GB.
cp "$big" "$work"
sync "$work"
i=0; : >"$dir/t.in"
while [ $i -lt $runs ]; do
	time_us "$gguf" set "$work" llama.block_count $((100 + i)) -i >>"$dir/t.in"
	i=$((i + 1))
done
m=$(median <"$dir/t.in")
echo "in-place save      median $m us (u32 edit; target < 50000)"
bench_result "save: in place, us" "$m" "<" 50000 \
    "ggufed set BIG llama.block_count N -i"
"$gguf" edit "$work" -i -q --reserve 65536
sync "$work"
i=0; : >"$dir/t.res"
while [ $i -lt $runs ]; do
	time_us "$gguf" set "$work" tokenizer.chat_template "{{ messages }} variant $i$(printf '%*s' $((i * 40)) '')" -i >>"$dir/t.res"
	i=$((i + 1))
done
"$gguf" set "$work" general.name "x" -i | grep -q "in place" ||
    echo "WARNING: the reserve did not keep the save in place"
m=$(median <"$dir/t.res")
echo "reserve + string   median $m us (string edit in place)"
bench_result "save: string in place over a reserve, us" "$m" "<" 50000 \
    "ggufed set BIG tokenizer.chat_template STRING -i"

# Peak RSS of a full rewrite.
if [ -x /usr/bin/time ]; then
	rm -f "$out"
	rss=$( { /usr/bin/time -f '%M' "$gguf" edit "$big" -o "$out" -q \
	    -e 'set general.name "rss run"' >/dev/null; } 2>&1 | tail -1)
	echo "peak RSS (rewrite) ${rss} KB (target < 65536)"
	bench_result "save: peak RSS of a rewrite, KB" "$rss" "<" 65536 \
	    "ggufed edit BIG -o OUT -e 'set general.name ...'"
fi
