#!/bin/sh
# terminal.sh - the browser and its terminal: without one (standard input
# or output redirected) `ggufed FILE` refuses at once, with status 2 and
# no byte on the output; and when its terminal goes away (the pseudo-
# terminal closed under it, with SIGHUP ignored as under nohup), it ends
# at once instead of spinning, saying what edits were lost.
. "$TESTS_SRCDIR/lib.sh"

DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
cp_w "$DEMO" "$scratch/m.gguf"
unset GGUFED_SCRIPT TMUX NO_COLOR EDITRC
TERM=xterm-256color
export TERM

# ----------------------------------------------------- not a terminal
# refuses NAME: status 2 in $scratch/NAME.rc, the one-line hint in
# NAME.err, within seconds (it used to spin at 100% CPU).
refuses() {
	i=0
	while [ ! -s "$scratch/$1.rc" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	rc=$(cat "$scratch/$1.rc" 2>/dev/null)
	[ "$rc" = 2 ]
	ok $? "$1: ggufed FILE exits 2 (got '$rc')"
	grep -qxF "ggufed: not a terminal: try 'ggufed info m.gguf'" \
	    "$scratch/$1.err"
	ok $? "$1: it says to try ggufed info" || sed 's/^/# /' "$scratch/$1.err"
}
(cd "$scratch" && timeout 30 "$GGUFED" m.gguf </dev/null \
    >"$scratch/out" 2>"$scratch/both-redirected.err"
    echo $? >"$scratch/both-redirected.rc")
refuses both-redirected
[ ! -s "$scratch/out" ]
ok $? "both-redirected: no byte (no escape sequence) reaches the output"

# Script mode needs no terminal and stays.
printf 'keys 2\ndump %s/s.txt\n' "$scratch" >"$scratch/s.script"
(cd "$scratch" && GGUFED_SCRIPT=$scratch/s.script timeout 30 "$GGUFED" \
    m.gguf </dev/null >"$scratch/s.out" 2>&1)
ok $? "script mode runs without a terminal"
grep -q 'key-value pairs' "$scratch/s.txt" 2>/dev/null
ok $? "script mode draws its virtual screen"

# ------------------------------------------------ the terminal goes away
if ! command -v tmux >/dev/null 2>&1; then
	ok 0 "hang-up # SKIP tmux is not installed"
	done_testing
	exit
fi
. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_server terminal \
    'for p in $(cat "$scratch"/*.pid 2>/dev/null); do kill -9 "$p" 2>/dev/null; done'

# One side a terminal (a tmux pane), the other redirected.
tm new-session -d -s in -x 80 -y 24 "cd '$scratch' && timeout 30 \
    '$GGUFED' m.gguf </dev/null 2>stdin-null.err; echo \$? >stdin-null.rc"
refuses stdin-null
tm new-session -d -s out -x 80 -y 24 "cd '$scratch' && timeout 30 \
    '$GGUFED' m.gguf >out2 2>stdout-file.err; echo \$? >stdout-file.rc"
refuses stdout-file
[ ! -s "$scratch/out2" ]
ok $? "stdout-file: no byte (no escape sequence) reaches the file"

# hangup NAME KEYS...: ggufed in a pane with SIGHUP ignored, KEYS sent,
# then the pane killed (the pseudo-terminal's master closed). The program
# must be gone within ten seconds.
hangup() {
	name=$1
	shift
	cp_w "$DEMO" "$scratch/m.gguf"
	tm new-session -d -s t -x 80 -y 24 "cd '$scratch' && trap '' HUP &&
	    echo \$\$ >'$scratch/$name.pid' && exec env LANG=C.UTF-8 \
	    LC_ALL=C.UTF-8 '$GGUFED' m.gguf 2>'$scratch/$name.err'"
	settle "$scratch/$name.screen" "Sections"
	[ $# -gt 0 ] && tm send-keys -t t "$@"
	sleep 1
	pid=$(cat "$scratch/$name.pid")
	tm kill-session -t t
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! kill -0 "$pid" 2>/dev/null
	ok $? "$name: the browser ends when its terminal goes away"
	if kill -0 "$pid" 2>/dev/null; then
		ps -o pid,pcpu,stat,args -p "$pid" | sed 's/^/# /'
		kill -9 "$pid"
	fi
}
hangup hangup-idle
[ ! -s "$scratch/hangup-idle.err" ]
ok $? "hangup-idle: nothing to say without edits" ||
    sed 's/^/# /' "$scratch/hangup-idle.err"
hangup hangup-prompt :
hangup hangup-edited : 'set general.name Lost' Enter
grep -qxF "ggufed: the terminal went away: 1 unsaved change lost" \
    "$scratch/hangup-edited.err"
ok $? "hangup-edited: it says the edit was lost" ||
    sed 's/^/# /' "$scratch/hangup-edited.err"

done_testing
