#!/bin/sh
# tmux.sh - the real program on a real pseudo-terminal, driven through a
# private tmux server (send-keys, capture-pane), as tmux's own regress
# tests do.
#
# What only a terminal can show: the screen tmux sees equals the one the
# script mode dumps (same golden files), resizing redraws, q restores the
# terminal and exits 0, and no byte of a hostile key or value reaches the
# terminal raw: every byte ggufed writes is logged with pipe-pane and
# searched for the escape sequences planted in the file.
. "$TESTS_SRCDIR/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
FIX=$SHARED_DIR/fixtures/ggml
[ -d "$FIX" ] || skip_all "$(shared_missing fixtures/ggml)"
GOLD=$TESTS_SRCDIR/tui/golden

. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_env
tmux_server test

same() {	# same NAME GOLDEN: the capture matches a golden screen
	# A loaded machine may still be drawing: capture again for a while
	# before calling it a mismatch.
	i=0
	while ! cmp -s "$GOLD/$2.txt" "$scratch/$1" && [ $i -lt 100 ]; do
		sleep 0.1
		tm capture-pane -p -t t >"$scratch/$1" 2>/dev/null
		i=$((i + 1))
	done
	if cmp -s "$GOLD/$2.txt" "$scratch/$1"; then
		ok 0 "tmux: $1 equals golden $2"
	else
		diff -u "$GOLD/$2.txt" "$scratch/$1" | head -30 | sed 's/^/# /'
		ok 1 "tmux: $1 equals golden $2"
	fi
}

# start DIR FILE: ggufed FILE in a fresh 80x24 session, every byte logged.
# The program's exit status is written to $scratch/status by the shell
# that runs it (tmux may be slow to reap a pane's process: the status it
# reports is not relied on). wait_dead waits for it, status prints it.
wait_dead() {
	i=0
	while [ ! -s "$scratch/status" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

status() {
	cat "$scratch/status" 2>/dev/null
}

start() {
	tm kill-session -t t 2>/dev/null
	rm -f "$scratch/raw" "$scratch/status"
	tm new-session -d -s t -x 80 -y 24 "cd '$1' && read go &&
	    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
	    $3 '$GGUFED' '$2'; echo \$? >'$scratch/status'" || return 1
	tm set-option -t t remain-on-exit on >/dev/null
	tm pipe-pane -t t -o "cat >>'$scratch/raw'"
	tm send-keys -t t Enter
}

# ---------------------------------------------------------- the screens
start "$FIX" big-vocab.gguf
settle "$scratch/summary" "Sections"
same summary summary.80x24
tm send-keys -t t 2
settle "$scratch/metadata" "key-value pairs"
same metadata metadata.80x24
tm send-keys -t t 3
settle "$scratch/tokenizer" "150,000 tokens"
same tokenizer tokenizer.80x24
tm send-keys -t t 2
tm resize-window -t t -x 120 -y 40
settle "$scratch/resize" "tokenizer.chat_template"
same resize resize.80x24
tm resize-window -t t -x 30 -y 8
settle "$scratch/small" "terminal too small"
ok $? "tmux: a 30x8 terminal shows 'terminal too small'"
# Keys pressed meanwhile act on nothing shown: dropped (3 would open the
# tokenizer, F1 the help, : the command line; the screen back is the one
# left).
tm send-keys -t t 3 F1 : w Enter
sleep 0.5
tm resize-window -t t -x 80 -y 24
settle "$scratch/back" "key-value pairs"
same back metadata.80x24
tm resize-window -t t -x 40 -y 12
settle "$scratch/narrow" "Metadata"
same narrow narrow-bv-metadata.40x12
tm resize-window -t t -x 80 -y 24
settle "$scratch/back2" "key-value pairs"
same back2 metadata.80x24
tm send-keys -t t F1
settle "$scratch/help" "Everywhere"
ok $? "tmux: F1 opens the help"
tm send-keys -t t q
settle "$scratch/afterhelp" "key-value pairs"
same afterhelp metadata.80x24
tm send-keys -t t / t o k e n _ i d Enter
settle "$scratch/search" "bos_token_id"
same search search.80x24

# A split model opened from shard 2: its Summary and Tensors are those of
# the script mode's golden screens.
mkdir -p "$scratch/set"
"$GGUFED" split -q --max-tensors 10 \
    "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" "$scratch/set/m"
start "$scratch/set" m-00002-of-00004.gguf
settle "$scratch/set-summary" "Shards"
same set-summary set-summary.80x24
tm send-keys -t t 4
settle "$scratch/set-tensors" "Shard"
same set-tensors set-tensors.80x24
tm send-keys -t t q
wait_dead
start "$FIX" big-vocab.gguf
settle "$scratch/summary2" "Sections"

# q at a top view: the program ends with status 0 and leaves the
# alternate screen.
tm send-keys -t t q
wait_dead
st=$(status)
[ "$st" = 0 ]
ok $? "tmux: q quits with status 0 (status '$st')"
i=0
while ! tail -c 200 "$scratch/raw" | grep -q "$(printf '\033\\[?1049l')" &&
    [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
tail -c 200 "$scratch/raw" | grep -q "$(printf '\033\\[?1049l')"
ok $? "tmux: the terminal is restored (alternate screen left)"

# ---------------------------------------------------- hostile metadata
# A file whose keys and values carry terminal escapes: a title change
# (OSC 0), a clipboard write (OSC 52), a hyperlink (OSC 8), a colour.
le() {	# le BYTES VALUE: VALUE little-endian in BYTES bytes
	n=$2
	k=0
	while [ $k -lt "$1" ]; do
		printf "\\$(printf %03o $((n & 255)))"
		n=$((n >> 8))
		k=$((k + 1))
	done
}
kvstr() {	# kvstr KEY VALUE
	le 8 "$(printf '%s' "$1" | wc -c)"
	printf '%s' "$1"
	le 4 8
	le 8 "$(printf '%s' "$2" | wc -c)"
	printf '%s' "$2"
}
E=$(printf '\033')
B=$(printf '\007')
{
	printf 'GGUF'
	le 4 3
	le 8 0
	le 8 3
	kvstr "general.architecture" "llama"
	kvstr "evil.${E}]0;PWNED${B}key" "clip ${E}]52;c;SGVsbG8=${B} red ${E}[31mRED${E}[0m"
	kvstr "general.name" "${E}]8;;http://example.invalid/${E}\\link${E}]8;;${E}\\"
} >"$scratch/hostile.gguf"

start "$scratch" hostile.gguf
settle "$scratch/h1" "Sections"
tm send-keys -t t 2
settle "$scratch/h2" "evil"
grep -qF 'evil.\x1b]0;PWNED\x07key' "$scratch/h2"
ok $? "tmux: the hostile key is shown escaped"
grep -qF '"clip \x1b]52;c;SGVsbG8=\x07 red' "$scratch/h2"
ok $? "tmux: the hostile value is shown escaped"
tm send-keys -t t q
wait_dead
sleep 0.5
for seq in "${E}]0;PWNED" "${E}]52;" "${E}]8;;" "${E}[31mRED"; do
	! grep -qF -- "$seq" "$scratch/raw"
	ok $? "tmux: no raw $(printf '%s' "$seq" | od -An -c | tr -s ' ' | head -1) reached the terminal"
done

# ------------------------------------------------ libedit on a terminal
# The command line edits with libedit's keys (C-a: start of line), keeps
# a history (Up), and the screen is curses' again afterwards.
DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
if [ -f "$DEMO" ]; then
	cp_w "$DEMO" "$scratch/m.gguf"
	start "$scratch" m.gguf
	settle "$scratch/e1" "Sections"
	tm send-keys -t t : 'general.name Edited' C-a 'set ' Enter
	settle "$scratch/e2" "Edited"
	grep -q '^ Name  *Edited$' "$scratch/e2"
	ok $? "tmux: C-a in libedit, then Enter, edits the value" ||
	    sed 's/^/# /' "$scratch/e2"
	grep -q 'Sections' "$scratch/e2" && grep -q '^ ggufed ' "$scratch/e2"
	ok $? "tmux: the screen is intact after the prompt"
	tm send-keys -t t : Up
	settle "$scratch/e3" ":set general.name Edited"
	ok $? "tmux: Up recalls the last command"
	tm send-keys -t t C-u 'q!' Enter
	wait_dead
	st=$(status)
	[ "$st" = 0 ] && cmp -s "$DEMO" "$scratch/m.gguf"
	ok $? "tmux: :q! quits and leaves the file as it was (status '$st')"
fi

# ------------------------------------------------------------- NO_COLOR
# Without colour the bars are drawn in reverse video, and no colour is
# ever set.
start "$FIX" big-vocab.gguf NO_COLOR=1
settle "$scratch/nc" "Sections"
rev="$(printf '\033')\\[[0-9;]*7[0-9;]*m"
i=0
while tm capture-pane -p -e -t t >"$scratch/nc.esc" &&
    ! head -n 1 "$scratch/nc.esc" | grep -q "$rev" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
head -n 1 "$scratch/nc.esc" | grep -q "$rev"
ok $? "NO_COLOR: the title bar is in reverse video" ||
    head -n 2 "$scratch/nc.esc" | od -c | head -8 | sed 's/^/# /'
! grep -q "$(printf '\033')\\[[0-9;]*\\(3[0-7]\\|4[0-7]\\|38;\\|48;\\)" "$scratch/nc.esc"
ok $? "NO_COLOR: no colour is set anywhere"

done_testing
