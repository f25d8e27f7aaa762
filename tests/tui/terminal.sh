#!/bin/sh
# terminal.sh - the browser and its terminal: without one (standard input
# or output redirected) `ggufed FILE` refuses at once, with status 2 and
# no byte on the output; and when its terminal goes away (the pseudo-
# terminal closed under it, with SIGHUP ignored as under nohup or not)
# or it is terminated, it ends at once instead of spinning, and keeps
# its unsaved edits as a script that `ggufed edit -f` applies; the next
# browser on the file says so.
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
tmux_env
tmux_server terminal \
    'for p in $(cat "$scratch"/*.pid 2>/dev/null); do kill -9 "$p" 2>/dev/null; done'
RESCUE=$scratch/state/ggufed/rescue

# One side a terminal (a tmux pane), the other redirected.
tm new-session -d -s in -x 80 -y 24 "cd '$scratch' && timeout 30 \
    '$GGUFED' m.gguf </dev/null 2>stdin-null.err; echo \$? >stdin-null.rc"
refuses stdin-null
tm new-session -d -s out -x 80 -y 24 "cd '$scratch' && timeout 30 \
    '$GGUFED' m.gguf >out2 2>stdout-file.err; echo \$? >stdout-file.rc"
refuses stdout-file
[ ! -s "$scratch/out2" ]
ok $? "stdout-file: no byte (no escape sequence) reaches the file"

# running PID: the process exists and has not ended. One that ended but
# is not yet reaped by its parent (tmux, busy on a loaded machine) is a
# zombie: it has ended.
running() {
	case $(ps -o stat= -p "$1" 2>/dev/null) in
	'' | Z*) return 1 ;;
	esac
	return 0
}

# cutoff HOW NAME KEYS...: ggufed in a pane, KEYS sent, then cut off:
# HOW is nohup (SIGHUP ignored, the pane killed: the pseudo-terminal's
# master closed), hup (the same with SIGHUP as it comes) or term
# (SIGTERM). The program must be gone within ten seconds.
cutoff() {
	how=$1 name=$2
	shift 2
	cp_w "$DEMO" "$scratch/m.gguf"
	rm -rf "$RESCUE"
	trap=
	[ "$how" = nohup ] && trap="trap '' HUP &&"
	tm new-session -d -s t -x 80 -y 24 "cd '$scratch' && $trap
	    echo \$\$ >'$scratch/$name.pid' && exec env LANG=C.UTF-8 \
	    LC_ALL=C.UTF-8 '$GGUFED' m.gguf 2>'$scratch/$name.err'"
	settle "$scratch/$name.screen" "Sections"
	[ $# -gt 0 ] && tm send-keys -t t "$@"
	sleep 1
	pid=$(cat "$scratch/$name.pid")
	if [ "$how" = term ]; then
		kill -TERM "$pid"
	else
		tm kill-session -t t
	fi
	i=0
	while running "$pid" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! running "$pid"
	ok $? "$name: the browser ends when cut off ($how)"
	if running "$pid"; then
		ps -o pid,pcpu,stat,args -p "$pid" | sed 's/^/# /'
		kill -9 "$pid"
	fi
	tm kill-session -t t 2>/dev/null
}

# kept NAME WHY: the edit was kept as a script, standard error said where
# and how to apply it, the model is untouched, and the script applied
# makes the edit.
kept() {
	script=$(ls "$RESCUE"/m.gguf-*.ged 2>/dev/null | head -1)
	grep -qxF "ggufed: $2: 1 unsaved change kept in $script" \
	    "$scratch/$1.err" &&
	    grep -qxF "ggufed: to apply them: ggufed edit '$scratch/m.gguf' -i -f '$script'" \
	    "$scratch/$1.err"
	ok $? "$1: it says the edit was kept, where, and how to apply it" ||
	    sed 's/^/# /' "$scratch/$1.err"
	cmp -s "$DEMO" "$scratch/m.gguf"
	ok $? "$1: the model itself is untouched"
	"$GGUFED" edit "$scratch/m.gguf" -i -f "$script" >/dev/null \
	    2>"$scratch/$1.apply" &&
	    [ "$("$GGUFED" get "$scratch/m.gguf" general.name)" = Kept ]
	ok $? "$1: ggufed edit -f applies the kept edit"
	[ ! -e "$script" ] && grep -qF "removed $script: the unsaved edits" \
	    "$scratch/$1.apply"
	ok $? "$1: and, saved, forgets the script" ||
	    sed 's/^/# /' "$scratch/$1.apply"
}

cutoff nohup hangup-idle
[ ! -s "$scratch/hangup-idle.err" ] && [ ! -d "$RESCUE" ]
ok $? "hangup-idle: nothing to say or keep without edits" ||
    sed 's/^/# /' "$scratch/hangup-idle.err"
cutoff nohup hangup-prompt :
cutoff nohup hangup-edited : 'set general.name Kept' Enter
kept hangup-edited "the terminal went away"
cutoff hup sighup-edited : 'set general.name Kept' Enter
kept sighup-edited "the terminal went away"
cutoff term sigterm-edited : 'set general.name Kept' Enter
kept sigterm-edited "terminated"

# The next browser on the file says that edits were kept.
cutoff nohup notice-edited : 'set general.name Kept' Enter
cp_w "$DEMO" "$scratch/m.gguf"
tm new-session -d -s t -x 200 -y 24 "cd '$scratch' && exec env \
    LANG=C.UTF-8 LC_ALL=C.UTF-8 '$GGUFED' m.gguf"
settle "$scratch/notice.screen" "unsaved edits kept: :rescue applies them ($RESCUE/m.gguf-"
ok $? "the next browser on the file says edits were kept, and how to apply them"
tm send-keys -t t :
tm send-keys -t t -l rescue
tm send-keys -t t Enter
settle "$scratch/rescued.screen" "applied 1 kept edit (the script is removed"
ok $? ":rescue applies the kept edit as a pending one"
[ -z "$(ls "$RESCUE"/m.gguf-*.ged 2>/dev/null)" ]
ok $? ":rescue forgets the script"
tm send-keys -t t w
settle "$scratch/rescued-saved.screen" "saved m.gguf"
[ "$("$GGUFED" get "$scratch/m.gguf" general.name)" = Kept ]
ok $? "w saves the rescued edit"
tm kill-session -t t 2>/dev/null
cp_w "$DEMO" "$scratch/m.gguf"
tm new-session -d -s t -x 200 -y 24 "cd '$scratch' && exec env \
    LANG=C.UTF-8 LC_ALL=C.UTF-8 '$GGUFED' m.gguf"
settle "$scratch/again.screen" "Sections"
! grep -q "unsaved edits kept" "$scratch/again.screen"
ok $? "the browser after that says nothing of kept edits"
tm kill-session -t t 2>/dev/null
cp_w "$DEMO" "$scratch/other.gguf"
tm new-session -d -s t -x 200 -y 24 "cd '$scratch' && exec env \
    LANG=C.UTF-8 LC_ALL=C.UTF-8 '$GGUFED' other.gguf"
settle "$scratch/other.screen" "Sections"
! grep -q "unsaved edits kept" "$scratch/other.screen"
ok $? "a browser on another file does not"
tm kill-session -t t 2>/dev/null

# ------------------------------------------------ a frame is one write
# ncurses writes out what it has at every move of the cursor until its
# screen has once been left and come back to; the browser does that at
# start, so a frame reaches the terminal in one write(2) (one packet over
# ssh), not one a line. The count is the process's own (/proc/PID/io).
tm new-session -d -s t -x 120 -y 40 "cd '$scratch' && exec env \
    LANG=C.UTF-8 LC_ALL=C.UTF-8 '$GGUFED' m.gguf"
settle "$scratch/w0.screen" "Sections"
pid=$(tm list-panes -t t -F '#{pane_pid}')
if [ -r "/proc/$pid/io" ]; then
	w0=$(sed -n 's/^syscw: //p' "/proc/$pid/io")
	tm send-keys -t t 2
	settle "$scratch/w1.screen" "general.architecture"
	tm send-keys -t t 4
	settle "$scratch/w2.screen" "token_embd.weight"
	tm send-keys -t t 1
	settle "$scratch/w3.screen" "Sections"
	w1=$(sed -n 's/^syscw: //p' "/proc/$pid/io")
	[ $((w1 - w0)) -le 6 ]
	ok $? "three whole frames take at most 6 writes (took $((w1 - w0)))"
else
	ok 0 "frames in one write # SKIP no /proc/PID/io"
fi
tm kill-session -t t 2>/dev/null

done_testing
