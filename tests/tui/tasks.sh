#!/bin/sh
# tasks.sh - long scans in the browser run in the background: the real
# program in tmux, on a model whose 64 GiB tensor is a hole (gen_sparse:
# no disk, and seconds of work even at full speed). The statistics of the
# preview, its search for a value and the comparison of :diff show a
# progress line while the keys still work; Esc and Ctrl-C cancel them without leaving the browser, and
# the panel then says "cancelled" with no number; an edit cancels a
# comparison (which reads the document); a resize does not disturb a scan;
# and quitting while a scan runs ends cleanly (status 0, nothing on
# standard error, where the sanitizers would speak).
#
# Nothing here depends on time: every state is polled for with a timeout.
# The screens change while a scan runs (its progress moves), so they are
# waited for by their text, not by settling.
. "$TESTS_SRCDIR/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"

. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_env
tmux_server tasks

d=$scratch/d
mkdir -p "$d"
"$TESTS_BUILDDIR/tools/gen_sparse" "$d/a.gguf" 64 &&
    "$TESTS_BUILDDIR/tools/gen_sparse" "$d/b.gguf" 64 ||
    { echo "Bail out! gen_sparse"; exit 1; }
# Where files are not sparse, this would have written 128 GiB: give up.
[ "$(du -k "$d/a.gguf" | cut -f1)" -lt 65536 ] || skip_all "no sparse files here"

# shows FILE TEXT...: captures pane t into FILE until it shows every TEXT
# at once; after SETTLE_TRIES tenths of a second, prints the last capture
# as a comment and returns 1.
shows() {
	_f=$1
	shift
	_i=0
	while [ $_i -lt "${SETTLE_TRIES:-600}" ]; do
		tm capture-pane -p -t t >"$_f" 2>/dev/null
		_all=1
		for _t in "$@"; do
			grep -qF -- "$_t" "$_f" || { _all=0; break; }
		done
		[ $_all = 1 ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	sed 's/^/# /' "$_f"
	return 1
}

# start: the browser on d/a.gguf at 100x30 in session t, its standard
# error kept.
start() {
	tm kill-session -t t 2>/dev/null
	rm -f "$scratch/status"
	tm new-session -d -s t -x 100 -y 30 "cd '$d' && read go &&
	    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
	    '$GGUFED' a.gguf 2>'$scratch/err'; echo \$? >'$scratch/status'" ||
	    return 1
	tm set-option -t t remain-on-exit on >/dev/null
	tm send-keys -t t Enter
	settle "$scratch/start" "Sections"
}
# command TEXT: a : line
command() {
	tm send-keys -t t :
	tm send-keys -t t -l "$1"
	tm send-keys -t t Enter
}
# ended: the browser has exited (its status written), within the timeout.
ended() {
	_i=0
	while [ ! -s "$scratch/status" ] && [ $_i -lt "${SETTLE_TRIES:-600}" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -s "$scratch/status" ]
}
running() {
	[ ! -e "$scratch/status" ]
}

start
ok $? "the browser starts"

# ------------------------------------------------------------ statistics
# The third tensor, "hole": its preview starts the statistics.
tm send-keys -t t 4 j j Enter
shows "$scratch/p1" "hole  F32" "computing " "of 64.0 GiB  Esc to cancel"
ok $? "the preview's statistics show a progress line (one pass over 64 GiB)"
grep -Eq 'computing .* +[0-9]+%  [0-9.]+ [KMG]?i?B of 64.0 GiB  Esc to cancel' \
    "$scratch/p1"
ok $? "with a percentage and the bytes read" || sed 's/^/# /' "$scratch/p1"

# The cursor moves while the scan runs: three rows down is element 24.
tm send-keys -t t j j j
shows "$scratch/p2" "[24,0,0,0] = 0" "Esc to cancel"
ok $? "keys move the cursor while the statistics run"

# A resize while it runs: it goes on, drawn at the new size.
tm resize-window -t t -x 90 -y 28
shows "$scratch/p3" "of 64.0 GiB  Esc to cancel" "[24,0,0,0] = 0" "hole  F32"
ok $? "a resize while the statistics run"
# (the title line is ASCII, its file name at the right edge)
awk 'NR == 1 { exit !(length > 80 && length <= 90) }' "$scratch/p3" &&
    [ "$(wc -l <"$scratch/p3")" -eq 28 ]
ok $? "the screen is drawn at the new size" || sed 's/^/# /' "$scratch/p3"
tm resize-window -t t -x 100 -y 30

# Esc cancels: the panel says so and shows no number.
tm send-keys -t t Escape
shows "$scratch/p4" "cancelled (s computes again)" "statistics cancelled"
ok $? "Esc cancels the statistics"
# (Judged on a still screen: a capture taken while the terminal is being
# redrawn can hold the old progress line beside the new words.)
settle "$scratch/p4s" "cancelled (s computes again)" &&
    ! grep -Eq 'Esc to cancel|min .* max|values, .* finite|p50' "$scratch/p4s"
ok $? "no progress and no partial numbers after the cancel" ||
    sed 's/^/# /' "$scratch/p4s"
tm send-keys -t t g l
shows "$scratch/p5" "[1,0,0,0] = 0" "hole  F32"
ok $? "the preview stays and works after the cancel"

# s computes again; Ctrl-C cancels without quitting.
tm send-keys -t t s
shows "$scratch/p6" "computing " "Esc to cancel"
ok $? "s starts the statistics again"
tm send-keys -t t C-c
# The panel says so; the message line's word may already be gone on a
# loaded machine (a redraw between the key and the capture).
shows "$scratch/p7" "cancelled (s computes again)"
ok $? "Ctrl-C cancels the statistics"
tm send-keys -t t l
shows "$scratch/p8" "[2,0,0,0] = 0" "hole  F32" && running
ok $? "Ctrl-C does not quit; the browser still takes keys"

# q leaves the preview while it computes: back in the Tensors view.
tm send-keys -t t s
shows "$scratch/p9" "Esc to cancel"
tm send-keys -t t q
shows "$scratch/p10" "3 tensors" "64.0 GiB" &&
    settle "$scratch/p10s" "3 tensors" &&
    ! grep -q "Esc to cancel" "$scratch/p10s"
ok $? "q closes the preview while the statistics run" ||
    sed 's/^/# /' "$scratch/p10s"

# ------------------------------------------------------------ value search
# / on the small tensor "far" (100 .. 115): found at once, the cursor on
# it; n finds no other.
tm send-keys -t t g Enter
shows "$scratch/f1" "far  F32"
tm send-keys -t t /
tm send-keys -t t -l 107
tm send-keys -t t Enter
shows "$scratch/f2" "107 found at [7,0,0,0]" "[7,0,0,0] = 107"
ok $? "/ finds a value and puts the cursor on it"
tm send-keys -t t n
shows "$scratch/f3" "107: not found after the cursor"
ok $? "n looks again after the cursor: not found to the end"
tm send-keys -t t /
tm send-keys -t t C-u
tm send-keys -t t -l 'x1'
tm send-keys -t t Enter
shows "$scratch/f4" "x1: not a number"
ok $? "a value that is no number says so"
tm send-keys -t t q

# In the hole: 5 is nowhere, so the search runs over the 64 GiB, with its
# progress on the top line, while keys work; Esc and Ctrl-C cancel it.
tm send-keys -t t G Enter
shows "$scratch/f5" "hole  F32"
tm send-keys -t t Escape
shows "$scratch/f6" "statistics cancelled"
tm send-keys -t t /
tm send-keys -t t C-u
tm send-keys -t t -l 5
tm send-keys -t t Enter
shows "$scratch/f7" "looking for 5 " "of 64.0 GiB  Esc to cancel"
ok $? "a search in a large tensor shows its progress"
tm send-keys -t t l
shows "$scratch/f8" "[1,0,0,0] = 0" "looking for 5 "
ok $? "keys move the cursor while it searches"
tm send-keys -t t Escape
shows "$scratch/f9" "search for 5 cancelled" "hole  F32"
ok $? "Esc cancels the search, the preview stays"
tm send-keys -t t n
shows "$scratch/f10" "looking for 5 " "Esc to cancel"
tm send-keys -t t C-c
shows "$scratch/f11" "search for 5 cancelled" "hole  F32" && running
ok $? "Ctrl-C cancels the search without quitting"
tm send-keys -t t /
tm send-keys -t t C-u
tm send-keys -t t -l 0
tm send-keys -t t Enter
shows "$scratch/f12" "0 found at [2,0,0,0]" "[2,0,0,0] = 0"
ok $? "after a cancel, a search finds again"
tm send-keys -t t q

# ------------------------------------------------------------ :diff
command "diff b.gguf"
shows "$scratch/d1" "Diff with b.gguf" "comparing " "of 128.0 GiB  Esc to cancel"
ok $? ":diff shows a progress line while it hashes"
grep -Eq 'comparing .* +[0-9]+%  [0-9.]+ [KMG]?i?B of 128.0 GiB  Esc to cancel' \
    "$scratch/d1"
ok $? "with a percentage and the bytes hashed" || sed 's/^/# /' "$scratch/d1"
tm send-keys -t t Escape
shows "$scratch/d2" "comparison cancelled (:diff again compares)"
ok $? "Esc cancels the comparison, the view says so"
settle "$scratch/d2s" "comparison cancelled (:diff again compares)" &&
    ! grep -Eq 'Esc to cancel|no differences|tensors:' "$scratch/d2s"
ok $? "no result shown for a cancelled comparison" ||
    sed 's/^/# /' "$scratch/d2s"

command "diff b.gguf"
shows "$scratch/d3" "comparing " "Esc to cancel"
tm send-keys -t t C-c
shows "$scratch/d4" "comparison cancelled (:diff again compares)" &&
    running
ok $? "Ctrl-C cancels the comparison without quitting"

# The comparison reads the document: an edit cancels it first.
command "diff b.gguf"
shows "$scratch/d5" "comparing " "Esc to cancel"
tm send-keys -t t 2
shows "$scratch/d6" "[Metadata]"
command "set general.name x"
shows "$scratch/d7" "1 pending change"
tm send-keys -t t 1
shows "$scratch/d8" "comparison cancelled: the document was edited"
ok $? "an edit cancels a comparison, which says why"
tm send-keys -t t u
shows "$scratch/d9" "undone"

# Ctrl-C with nothing running says so and does not quit.
tm send-keys -t t C-c
shows "$scratch/d10" "none is running" && running
ok $? "Ctrl-C with nothing running says so, and does not quit"

# q at a top view quits while a comparison runs in another tab: cleanly.
command "diff b.gguf"
shows "$scratch/d11" "comparing " "Esc to cancel"
tm send-keys -t t 2
shows "$scratch/d12" "[Metadata]"
tm send-keys -t t q
ended && [ "$(cat "$scratch/status")" = 0 ] && [ ! -s "$scratch/err" ]
ok $? "q quits cleanly while a comparison runs" ||
    { cat "$scratch/status" "$scratch/err" 2>/dev/null | sed 's/^/# /'; }

# Q in the preview while its statistics run: cleanly too.
start
tm send-keys -t t 4 j j Enter
shows "$scratch/q1" "Esc to cancel"
tm send-keys -t t Q
ended && [ "$(cat "$scratch/status")" = 0 ] && [ ! -s "$scratch/err" ]
ok $? "Q quits cleanly while the statistics run" ||
    { cat "$scratch/status" "$scratch/err" 2>/dev/null | sed 's/^/# /'; }

done_testing
