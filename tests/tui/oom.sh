#!/bin/sh
# oom.sh - running out of memory: one line on stderr, status 1, and in
# the browser the terminal given back first (the alternate screen left).
# GGUFED_FAULT=alloc:N+:ENOMEM makes the Nth allocation that must not
# fail, and every later one, fail (see src/base/io.c, xmalloc.c).
. "$TESTS_SRCDIR/lib.sh"

DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
cp_w "$DEMO" "$scratch/m.gguf"
unset GGUFED_SCRIPT TMUX NO_COLOR EDITRC

oom_line() {	# oom_line FILE: FILE is the one out-of-memory line
	[ "$(wc -l <"$1")" -eq 1 ] &&
	    grep -qx 'ggufed: out of memory allocating [0-9]* bytes' "$1"
}

# ---------------------------------------------------------------- CLI
GGUFED_FAULT=alloc:1+:ENOMEM "$GGUFED" info "$scratch/m.gguf" \
    >"$scratch/info.out" 2>"$scratch/info.err"
rc=$?
[ $rc -eq 1 ]
ok $? "info: out of memory exits 1 (got $rc)"
oom_line "$scratch/info.err"
ok $? "info: one line says so" || sed 's/^/# /' "$scratch/info.err"
GGUFED_FAULT=alloc:1+:ENOMEM "$GGUFED" edit "$scratch/m.gguf" -i \
    -e 'set general.name x' >/dev/null 2>"$scratch/edit.err"
rc=$?
[ $rc -eq 1 ] && oom_line "$scratch/edit.err"
ok $? "edit: out of memory exits 1 with one line (got $rc)" ||
    sed 's/^/# /' "$scratch/edit.err"
cmp -s "$DEMO" "$scratch/m.gguf"
ok $? "edit: the file is untouched"

# ------------------------------------------------------------ browser
if ! command -v tmux >/dev/null 2>&1; then
	ok 0 "browser # SKIP tmux is not installed"
	done_testing
	exit
fi
. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_server oom

# run N: the browser with allocation N on failing; its status in
# $scratch/status, its stderr in $scratch/err, every byte it wrote to
# the terminal in $scratch/raw. Keys that make views (and so allocate)
# are pressed until it ends. 0 if the screen was drawn before the end.
run() {
	tm kill-session -t t 2>/dev/null
	rm -f "$scratch/status" "$scratch/raw" "$scratch/err"
	tm new-session -d -s t -x 80 -y 24 "cd '$scratch' && read go &&
	    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
	    GGUFED_FAULT=alloc:$1+:ENOMEM '$GGUFED' m.gguf 2>err;
	    echo \$? >status"
	tm set-option -t t remain-on-exit on >/dev/null
	tm pipe-pane -t t -o "cat >>'$scratch/raw'"
	tm send-keys -t t Enter
	drawn=1
	i=0
	while [ ! -s "$scratch/status" ] && [ $i -lt 300 ]; do
		if tm capture-pane -p -t t 2>/dev/null | grep -q 'Sections'; then
			drawn=0
			tm send-keys -t t 2 4 3 F1 q D q 1 2>/dev/null
		fi
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.3	# pipe-pane's last bytes
	return $drawn
}

# An N that lets the browser draw its screen, the first within a quarter
# (opening a model allocates more as the browser does more at start):
# the failure then comes while curses has the terminal.
n=5
while [ $n -le 20000 ]; do
	run $n && break
	n=$((n + n / 4 + 5))
done
[ $n -le 20000 ]
ok $? "the browser drew its screen before running out of memory (N=$n)"
st=$(cat "$scratch/status" 2>/dev/null)
[ "$st" = 1 ]
ok $? "browser: out of memory exits 1 (got '$st')"
oom_line "$scratch/err"
ok $? "browser: one line says so" || sed 's/^/# /' "$scratch/err"
# The last alternate-screen switch the program wrote leaves it.
E=$(printf '\033')
last=$(grep -ao "$E\[?1049[hl]" "$scratch/raw" | tail -1)
[ "$last" = "$E[?1049l" ]
ok $? "browser: the terminal is restored (alternate screen left)"

done_testing
