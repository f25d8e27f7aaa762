#!/bin/sh
# bench_tui.sh - keypress to screen update in the browser.
#
# ggufed runs in script mode (GGUFED_SCRIPT): curses draws a virtual
# screen whose terminal output goes to /dev/null, so each timing covers
# the whole path of a key: the action, the view's drawing of every
# visible row into curses, and curses computing and writing the update.
# `bench N KEYS` presses KEYS N times and prints, per key, the mean,
# median, 99th percentile and maximum. Target: well under 16 ms.
#
# On fixtures/ggml/big-vocab.gguf (150,000 tokens, 150,000 merges) at
# 80x24 and 200x60; on the tensor list of a model with 2,000 tensors when
# the bench data generator is built.
#
# The first screen: the whole process of the browser opened on
# big-vocab.gguf, its first screen drawn, then quit (the script "keys
# q"), against `ggufed info` of the same file; interleaved rounds, the
# ratio of the fastest medians (target: <= 1, as fast as info); and, no
# target, the same on TinyStories-656K-Q8_0.gguf, where the file costs
# next to nothing: what the browser itself adds to info; and, no target,
# the floor under that: a bare ncursesw program (screen_floor) that
# starts curses as the browser does, draws 24 lines and ends, against
# one that prints them, in the same rounds: what curses alone adds to a
# program, before any of the browser's own work.
set -eu

gguf=${GGUFED:-./ggufed}
fix=${SHARED_DIR:-../shared}/fixtures/ggml
builddir=${TESTS_BUILDDIR:-tests}
. "$(dirname "$0")/bench.lib"
script=$(mktemp "${TMPDIR:-/tmp}/ggufed-bench.XXXXXX")
# the browser's histories go to a folder of its own, not the user's
XDG_STATE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/ggufed-bench-state.XXXXXX")
export XDG_STATE_HOME
big=$builddir/bench/data/big-sparse.gguf
made=""		# the model it generated, removed on the way out
trap 'rm -rf "$script" "$script.out" "$XDG_STATE_HOME" ${made:+"$made"}' EXIT
trap 'exit 130' HUP INT TERM
TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8
export TERM LANG LC_ALL
unset NO_COLOR

run() {	# run FILE SCRIPT-LINES...
	f=$1
	shift
	printf '%s\n' "$@" >"$script"
	GGUFED_SCRIPT=$script "$gguf" "$f" 2>&1 | sed 's/^bench /  /' |
	    tee "$script.out"
}

# worst WHAT: records the worst 99th percentile of the keys of the last run
worst() {
	bench_result "browser: worst p99 of a key, $1, ms" \
	    "$(sed -n 's/.* p99 \([0-9.]*\) ms.*/\1/p' "$script.out" |
	    sort -n | tail -1)" "<" 16 "GGUFED_SCRIPT=KEYS ggufed $1"
}

# ------------------------------------------------------ the first screen
# first_screen FILE: the fastest medians of the browser's first screen of
# FILE and of `ggufed info FILE`, in interleaved rounds, into tui_us and
# info_us, their ratio into r.
first_screen() {
	printf 'keys q\n' >"$script"
	tui_us=""
	info_us=""
	for round in 1 2 3 4 5; do
		x=$(GGUFED_SCRIPT=$script "$builddir/bench/runcmd" 20 "$gguf" \
		    "$1" | sed -n 's/.*median_us=\([0-9]*\).*/\1/p')
		y=$("$builddir/bench/runcmd" 20 "$gguf" info "$1" |
		    sed -n 's/.*median_us=\([0-9]*\).*/\1/p')
		{ [ -z "$tui_us" ] || [ "$x" -lt "$tui_us" ]; } && tui_us=$x
		{ [ -z "$info_us" ] || [ "$y" -lt "$info_us" ]; } && info_us=$y
	done
	r=$(awk -v a="$tui_us" -v b="$info_us" 'BEGIN { printf "%.2f", a / b }')
}
first_screen "$fix/big-vocab.gguf"
echo "first screen of big-vocab.gguf  ${tui_us} us, ggufed info ${info_us} us, ratio $r (target <= 1)"
bench_result "browser: first screen of big-vocab.gguf against info" "$r" \
    "<=" 1 "GGUFED_SCRIPT='keys q' ggufed big-vocab.gguf / ggufed info big-vocab.gguf"
# No target: the same on a file too small for its reading to matter, so
# what the browser adds to info whatever the file (curses and its
# terminfo, three copies of the screen, the locale, the first frame).
tiny=$fix/../real/TinyStories-656K-Q8_0.gguf
if [ -f "$tiny" ]; then
	first_screen "$tiny"
	echo "first screen of TinyStories     ${tui_us} us, ggufed info ${info_us} us, ratio $r: the browser adds $((tui_us - info_us)) us"
	bench_result "browser: first screen of TinyStories-656K-Q8_0.gguf against info" \
	    "$r" "-" "" "the same, on a file too small to matter: what the browser adds to info"
fi
if [ -x "$builddir/bench/screen_floor" ]; then
	scr_us=""
	prt_us=""
	for round in 1 2 3 4 5; do
		x=$("$builddir/bench/runcmd" 20 "$builddir/bench/screen_floor" \
		    screen | sed -n 's/.*median_us=\([0-9]*\).*/\1/p')
		y=$("$builddir/bench/runcmd" 20 "$builddir/bench/screen_floor" \
		    print | sed -n 's/.*median_us=\([0-9]*\).*/\1/p')
		{ [ -z "$scr_us" ] || [ "$x" -lt "$scr_us" ]; } && scr_us=$x
		{ [ -z "$prt_us" ] || [ "$y" -lt "$prt_us" ]; } && prt_us=$y
	done
	echo "a bare curses screen            ${scr_us} us, printing it ${prt_us} us: curses alone adds $((scr_us - prt_us)) us"
	bench_result "browser: what curses alone adds to a program, us" \
	    "$((scr_us - prt_us))" "-" "" \
	    "screen_floor screen / screen_floor print (setlocale, newterm, one screen, endwin)"
fi

for size in 80x24 200x60; do
	echo "big-vocab.gguf at $size"
	run "$fix/big-vocab.gguf" "size $size" \
	    "keys 3" "bench 300 j" "bench 100 <PgDn>" "bench 20 Gg" \
	    "keys :75000<Enter>" "bench 100 k" \
	    "keys 2" "bench 100 j" "bench 50 <Space>" \
	    "keys 2/" "type ggml.tokens" "keys <Enter><Enter>" \
	    "bench 100 <PgDn>" "bench 20 Gg" \
	    "keys q/" "type chat_template" "keys <Enter><Enter>" \
	    "bench 100 j" "bench 10 w" \
	    "keys q4j<Enter>" "wait" "bench 100 l" "bench 20 f" \
	    "keys q1" "bench 50 <Tab>"
	worst "big-vocab.gguf at $size"
	echo "  (search, which reads up to every row, is not a keypress:)"
	run "$fix/big-vocab.gguf" "size $size" "keys 3/" "type zzzz" \
	    "keys <Enter>" "bench 5 n" 
done
if [ ! -f "$big" ] && [ -x "$builddir/bench/gen_bench" ]; then
	mkdir -p "$builddir/bench/data"
	made=$big
	"$builddir/bench/gen_bench" "$big"
fi
if [ -f "$big" ]; then
	echo "big-sparse.gguf (2,000 tensors) at 200x60"
	run "$big" "size 200x60" "keys 4" "bench 200 j" "bench 50 <PgDn>" \
	    "bench 20 s" "bench 20 -+"
	worst "big-sparse.gguf (2,000 tensors) at 200x60"
fi
