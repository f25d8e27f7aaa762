#!/bin/sh
# filechange.sh - the browser's file changes or shrinks on disk while it
# is open.
#
# On a real terminal (a private tmux server, as in tmux.sh): the file is
# cut short under the tensor preview; the browser notices on its next idle
# wake and says "FILE changed on disk", keys that read tensor data, the
# statistics and the tokens answer with that message instead of a crash,
# and :e opens the file again. Then the header is rewritten behind the
# browser's back with the size and the modification time kept: the check
# of the header bytes sees it, :e is refused while an edit is pending, :w
# is refused and :w! saves; after another model is written over the file
# (grown in place) :w! is refused too; :e! drops the edit. A file cut to nothing
# under the tokens: the header still reads from the browser's copy.
. "$TESTS_SRCDIR/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
m=$scratch/m.gguf
cut=73696	# the end of the demo model's header region

. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_env
tmux_server filechange

# start: ggufed on a fresh copy of the demo model, 80x24; its exit status
# goes to $scratch/status.
start() {
	tm kill-session -t t 2>/dev/null
	rm -f "$scratch/status"
	cp_w "$DEMO" "$m"
	tm new-session -d -s t -x 80 -y 24 "cd '$scratch' && read go &&
	    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
	    '$GGUFED' m.gguf; echo \$? >'$scratch/status'" || return 1
	tm set-option -t t remain-on-exit on >/dev/null
	tm send-keys -t t Enter
	settle "$scratch/start" "Sections"
}

wait_dead() {
	i=0
	while [ ! -s "$scratch/status" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cat "$scratch/status" 2>/dev/null
}

child_of() {	# child_of PID: a process whose parent is PID (from /proc)
	for _s in /proc/[0-9]*/stat; do
		# pid (comm) state ppid ...: comm is ggufed or sh, no blanks
		read -r _p _c _st _pp _rest <"$_s" 2>/dev/null || continue
		[ "$_pp" = "$1" ] && { echo "$_p"; return 0; }
	done
	return 1
}

cmd() {	# cmd TEXT: types TEXT on the : line
	tm send-keys -t t :
	tm send-keys -t t -l "$1"
	tm send-keys -t t Enter
}

# ------------------------------------------------- cut short under the preview
start
tm send-keys -t t 4 / t o k e n _ e m b d Enter Enter
settle "$scratch/preview" "token_embd.weight  Q4_K"
ok $? "the preview of token_embd.weight is open"
truncate -s $cut "$m"
settle "$scratch/banner" "m.gguf changed on disk: cut to 73,696 bytes"
ok $? "the next idle wake shows 'm.gguf changed on disk'"
tm send-keys -t t J
settle "$scratch/page" "cannot decode: changed on disk"
ok $? "a page of values read after the cut: the message, no crash"
tm send-keys -t t s
settle "$scratch/stats" "Statistics"
grep -A1 "Statistics" "$scratch/stats" | grep -q "changed on disk"
ok $? "the statistics after the cut: the message"
tm send-keys -t t 3
settle "$scratch/tokens" "3,072 tokens"
ok $? "the tokens still show (the header region is held in memory)"
cmd e
settle "$scratch/reloaded" "opened m.gguf again"
ok $? ":e opens the file again"
! grep -q "changed on disk" "$scratch/reloaded"
ok $? "the banner is gone after :e"
tm send-keys -t t 1
settle "$scratch/summary" "tensor data"
grep "tensor data" "$scratch/summary" | grep -q " 0  0 B"
ok $? "the summary is of the file as it is now (no tensor data)"
tm send-keys -t t q
st=$(wait_dead)
[ "$st" = 0 ]
ok $? "q quits with status 0 (status '$st')"

# ------------------------------------------ cut to nothing under the tokens
# The header region too is gone from the file: what the browser shows of
# it is its own copy, so the tokens, the keys and the tensor names still
# read (a private file mapping would lose it and die of SIGBUS).
start
tm send-keys -t t 3
settle "$scratch/tok0" "3,072 tokens"
ok $? "the tokens are open"
: >"$m"
settle "$scratch/banner0" "m.gguf changed on disk: cut to 0 bytes"
ok $? "cut to nothing: the banner says so"
tm send-keys -t t G
settle "$scratch/tokG" "3071"
ok $? "the last token still reads after the cut"
tm send-keys -t t 2
settle "$scratch/meta0" "general.architecture"
ok $? "the metadata still reads"
tm send-keys -t t 4
settle "$scratch/tens0" "blk.0.attn_k.weight"
ok $? "the tensor names still read"
tm send-keys -t t q
st=$(wait_dead)
[ "$st" = 0 ]
ok $? "q quits with status 0 (status '$st')"

# ------------------------------------ the header rewritten, size and time kept
start
cmd 'set general.name "Edited"'
settle "$scratch/edited" "general.name"
off=$(grep -abo "Demo Llama" "$m" | head -1 | cut -d: -f1)
touch -r "$m" "$scratch/ref"
# The browser is stopped while the byte is written and the time put back:
# a check of the disk between the two would see the time changed, and
# that is the message it would keep.
pane=$(tm list-panes -t t -F '#{pane_pid}')
pid=$(child_of "$pane")
[ -n "$pid" ] && kill -STOP "$pid"
printf 'X' | dd of="$m" bs=1 seek="$off" conv=notrunc 2>/dev/null
touch -r "$scratch/ref" "$m"
[ -n "$pid" ] && kill -CONT "$pid"
cp "$m" "$scratch/theirs.gguf"
settle "$scratch/banner2" "m.gguf changed on disk: its header was rewritten"
ok $? "a rewrite that keeps size and time is seen (header bytes)"
cmd e
settle "$scratch/e_refused" "1 unsaved change: :e! drops it"
ok $? ":e is refused while an edit is pending"
cmd w
settle "$scratch/w_refused" "not overwriting it"
ok $? ":w on the changed file is refused"
grep -q ':w! forces it' "$scratch/w_refused"
ok $? "... and the refusal says how to force it (:w!)" ||
    sed 's/^/# /' "$scratch/w_refused"
cmp -s "$m" "$scratch/theirs.gguf"
ok $? "the refused :w left the file as the other writer made it"
tm send-keys -t t Escape
cmd 'w!'
settle "$scratch/w_forced" "saved m.gguf"
ok $? ":w! saves over the changed file"
grep -q "saved m.gguf by a rewrite, forced: the file had changed on disk" \
    "$scratch/w_forced"
ok $? "... and says its data is copied as the file is now, not as opened" ||
    sed 's/^/# /' "$scratch/w_forced"
name=$("$GGUFED" get "$m" general.name 2>&1)
[ "$name" = "Edited" ]
ok $? "the forced save holds the edit (general.name '$name')"
! grep -q "m.gguf changed on disk" "$scratch/w_forced"
ok $? "after the save the file is the browser's again: no banner"
# nor after the next key and a check of the disk (the browser checks
# every second while idle)
tm send-keys -t t j
sleep 2.5
tm send-keys -t t k
settle "$scratch/w_later" "Summary"
! grep -q "m.gguf changed on disk" "$scratch/w_later"
ok $? "nor after a key and the disk checked again" ||
    sed 's/^/# /' "$scratch/w_later"
tm send-keys -t t q
st=$(wait_dead)
[ "$st" = 0 ]
ok $? "q after the save quits at once with status 0 (status '$st')"

# ------------------------------- another model written over it: no :w! either
# (the opened model's header over the bytes now on disk would be garbage)
start
cmd 'set general.name "Lost"'
settle "$scratch/edited3" "general.name"
cat "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" \
    "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" >"$m"
cp "$m" "$scratch/over.gguf"
cmd 'w!'
settle "$scratch/w_over" "no longer be the model"
ok $? ":w! over a file grown in place is refused: its data is not the model's"
cmp -s "$m" "$scratch/over.gguf"
ok $? "the refused :w! left the file as the other writer made it"
tm send-keys -t t Escape
tm send-keys -t t M
settle "$scratch/w_over_log" "Messages"
grep -q "error: cannot save m.gguf: the file changed size" "$scratch/w_over_log"
ok $? "M lists the save's error after its dialog is gone" ||
    sed 's/^/# /' "$scratch/w_over_log"
tm send-keys -t t q
cmd 'q!'
st=$(wait_dead)
[ "$st" = 0 ]
ok $? "q! then quits (status '$st')"

# ------------------------------------------------------ :e! drops the edits
start
cmd 'set general.name "Dropped"'
settle "$scratch/edited2" "general.name"
cmd 'e!'
settle "$scratch/dropped" "opened m.gguf again"
ok $? ":e! opens the file again, dropping the edit"
tm send-keys -t t q
st=$(wait_dead)
[ "$st" = 0 ]
ok $? "q then quits without asking: nothing is pending (status '$st')"
name=$("$GGUFED" get "$m" general.name 2>&1)
[ "$name" = "Demo Llama" ]
ok $? "the file is untouched (general.name '$name')"

# ----------------------------------------- a shard of an open set is cut
tm kill-session -t t 2>/dev/null
rm -f "$scratch/status"
mkdir -p "$scratch/set"
"$GGUFED" split -q --max-tensors 12 "$DEMO" "$scratch/set/demo" ||
    echo "Bail out! cannot split the demo model"
tm new-session -d -s t -x 120 -y 24 "cd '$scratch/set' && read go &&
    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
    '$GGUFED' demo-00001-of-00004.gguf; echo \$? >'$scratch/status'"
tm set-option -t t remain-on-exit on >/dev/null
tm send-keys -t t Enter
settle "$scratch/set-start" "Sections"
truncate -s 1000 "$scratch/set/demo-00003-of-00004.gguf"
settle "$scratch/set-banner" "demo-00003-of-00004.gguf: changed on disk"
ok $? "a shard cut under the set: its name, then what changed"
! grep -q 'gguf demo-0000' "$scratch/set-banner"
ok $? "... and not two file names run together" ||
    sed 's/^/# /' "$scratch/set-banner"
tm send-keys -t t Q
wait_dead >/dev/null

done_testing
