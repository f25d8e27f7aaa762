#!/bin/sh
# statedir.sh - the browser's state directory ($XDG_STATE_HOME/ggufed) is
# trusted only when it is the user's own and neither its group nor others
# can write it: otherwise no history is written there nor read from it,
# no rescue script there is offered, and the browser says so once. A
# history is written through a new file renamed over it: a link planted at
# its name is replaced, never followed. The directory of another user is
# made as the user nobody (the tests run as root; skipped otherwise).
. "$TESTS_SRCDIR/lib.sh"

DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
[ "$(id -u)" -eq 0 ] ||
    skip_all "not root: a directory of another user cannot be made"
command -v runuser >/dev/null 2>&1 ||
    skip_all "runuser is not installed (to act as the user nobody)"
browser_env
chmod 755 "$scratch"
st=$XDG_STATE_HOME/ggufed

# browse NAME: the browser on a copy of the demo, a command entered on its
# ':' line (so saved to the command history), the screen dumped at start.
browse() {
	cp_w "$DEMO" "$scratch/m.gguf"
	printf '%s\n' "size 200x30" "dump $scratch/$1.txt" "keys :" \
	    "type set general.name x" "keys <Enter>" "keys :" "type q!" \
	    "keys <Enter>" >"$scratch/$1.script"
	(cd "$scratch" && GGUFED_SCRIPT=$scratch/$1.script "$GGUFED" \
	    m.gguf) 2>"$scratch/err"
}

precious() {
	printf 'precious\n' >"$scratch/target"
}
untouched() {
	[ "$(cat "$scratch/target")" = precious ]
}

# A state directory of nobody's, writable by all, a link planted in it.
precious
mkdir -p "$st"
chown nobody "$st"
chmod 777 "$st"
runuser -u nobody -- ln -s "$scratch/target" "$st/commands"
browse unsafe
untouched
ok $? "a directory of nobody's: the link's target is not overwritten"
[ -L "$st/commands" ] && [ "$(ls -A "$st")" = commands ]
ok $? "nothing is written into it" || ls -lA "$st" | sed 's/^/# /'
grep -q "not keeping histories or unsaved edits in $st belongs to nobody" \
    "$scratch/unsafe.txt"
ok $? "the browser says once why it keeps nothing there" ||
    sed 's/^/# /' "$scratch/unsafe.txt"

# One of ours, writable by others.
chown root "$st"
chmod 757 "$st"
browse writable
untouched && [ -L "$st/commands" ] &&
    grep -q "$st can be written by others (mode 0757)" "$scratch/writable.txt"
ok $? "one of ours that others can write: not trusted either" ||
    sed 's/^/# /' "$scratch/writable.txt"

# Ours and private, with a link left at the history's name.
chmod 700 "$st"
browse safe
untouched && [ -f "$st/commands" ] && [ ! -L "$st/commands" ] &&
    grep -q 'general.name' "$st/commands"
ok $? "a link at the history's name is replaced, never followed" ||
    ls -lA "$st" | sed 's/^/# /'
[ "$(stat -c %a "$st/commands")" = 600 ] &&
    [ "$(ls -A "$st" | grep -c '^\.')" -eq 0 ]
ok $? "the history is private, no temporary file is left"
browse again
[ "$(grep -c 'general.name' "$st/commands")" -eq 2 ]
ok $? "the next browser reads it back and adds to it"

# A rescue script in a rescue/ of nobody's is not offered.
rm -rf "$st"
mkdir -p "$st/rescue"
chmod 700 "$st"
printf '# Unsaved changes\n# file: %s\nset general.name Evil\n' \
    "$scratch/m.gguf" \
    >"$st/rescue/m.gguf-20260101-000000-1.ged"
browse offered
grep -q "unsaved edits kept" "$scratch/offered.txt"
ok $? "a rescue script in a private directory is offered" ||
    sed 's/^/# /' "$scratch/offered.txt"
chown -R nobody "$st/rescue"
browse refused
! grep -q "unsaved edits kept" "$scratch/refused.txt" &&
    grep -q "not keeping histories or unsaved edits in $st/rescue belongs to nobody" \
    "$scratch/refused.txt"
ok $? "one in a rescue/ of nobody's is not offered, and the browser says why" ||
    sed 's/^/# /' "$scratch/refused.txt"

# Cut off with an unsaved edit, the browser writes no rescue script into
# a rescue/ of nobody's, and says why the edit is lost.
if ! command -v tmux >/dev/null 2>&1; then
	skip "tmux is not installed (to cut the browser off)"
	done_testing
	exit
fi
. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_env
tmux_server statedir \
    'kill -9 "$(cat "$scratch/t.pid" 2>/dev/null)" 2>/dev/null'
rm -rf "$st"
mkdir -p "$st/rescue"
chmod 700 "$st"
chown nobody "$st/rescue"
chmod 777 "$st/rescue"
cp_w "$DEMO" "$scratch/m.gguf"
tm new-session -d -s t -x 200 -y 24 "cd '$scratch' && \
    echo \$\$ >'$scratch/t.pid' && exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    '$GGUFED' m.gguf 2>'$scratch/t.err'"
settle "$scratch/t.screen" "Sections"
tm send-keys -t t : 'set general.name Kept' Enter
sleep 1
pid=$(cat "$scratch/t.pid")
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -z "$(ls -A "$st/rescue")" ] &&
    grep -q "terminated: 1 unsaved change lost: $st/rescue belongs to nobody" \
    "$scratch/t.err"
ok $? "cut off: no rescue script in a rescue/ of nobody's, and it says why" ||
    { sed 's/^/# /' "$scratch/t.err"; ls -lA "$st/rescue" | sed 's/^/# /'; }

done_testing
