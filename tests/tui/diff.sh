#!/bin/sh
# diff.sh - the browser's Diff view (:diff OTHER) on a real terminal,
# driven through a private tmux server: it shows the lines `ggufed diff`
# prints, Enter on a key goes to that key in the Metadata view and on a
# tensor to that tensor in the Tensors view, 1 comes back to the Diff
# view, an edit marks it out of date, and a file that cannot be read is
# one message.
. "$TESTS_SRCDIR/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"

. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_server diff
tmux_env

cp_w "$demo" "$scratch/a.gguf" || { echo "Bail out! no demo model"; exit 1; }
"$GGUFED" edit "$scratch/a.gguf" -o "$scratch/b.gguf" -q \
    -e 'set general.name "Other"' -e 'set general.url:str u' \
    -e 'rename output.weight lm_head.weight' -e 'rm-tensor blk.3.ffn_up.weight' || { echo "Bail out! no pair"; exit 1; }
"$GGUFED" diff "$scratch/a.gguf" "$scratch/b.gguf" >"$scratch/cli"

tm new-session -d -s t -x 100 -y 24 "cd '$scratch' && read go &&
    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
    '$GGUFED' a.gguf; echo \$? >'$scratch/status'" ||
    { echo "Bail out! tmux"; exit 1; }
tm set-option -t t remain-on-exit on >/dev/null
tm send-keys -t t Enter
settle "$scratch/s0" "Sections"
ok $? "tmux: the browser starts"

tm send-keys -t t : d i f f Space b . g g u f Enter
settle "$scratch/s1" "Diff with b.gguf"
ok $? "tmux: :diff b.gguf opens the Diff view"
# It says "comparing..." until its first idle moment, then the lines.
settle "$scratch/s1" "keys: 1 added, 1 changed"
ok $? "tmux: the comparison comes"
# The view's rows are the command's lines, each after one blank column.
sed -n '2,8p' "$scratch/s1" | sed 's/^ //; s/ *$//' >"$scratch/rows"
sed -n '1,7p' "$scratch/cli" | sed 's/^--- .*/--- a.gguf/; s/^+++ .*/+++ b.gguf/' \
    >"$scratch/want"
cmp -s "$scratch/rows" "$scratch/want"
ok $? "tmux: the rows are ggufed diff's lines" ||
    diff "$scratch/want" "$scratch/rows" | sed 's/^/# /'

# Enter on "~ key general.name": the Metadata view, general.name selected
# (row 4: the group general., then architecture, type, name).
tm send-keys -t t j j Enter
settle "$scratch/s2" "[Metadata]"
ok $? "tmux: Enter on a key shows the Metadata view"
grep -q '\[Metadata\].* 4/' "$scratch/s2"
ok $? "tmux: with the key's row selected" || sed 's/^/# /' "$scratch/s2"

# 1: back to the Diff view, where it was.
tm send-keys -t t 1
settle "$scratch/s3" "Diff with b.gguf"
ok $? "tmux: 1 comes back to the Diff view"

# Enter on "- tensor blk.3.ffn_up.weight": the Tensors view, the tensor
# selected (its group unfolded).
tm send-keys -t t j j j Enter
settle "$scratch/s4" "[Tensors]"
ok $? "tmux: Enter on a tensor shows the Tensors view"
grep -q '\[Tensors\].* 40/' "$scratch/s4"
ok $? "tmux: with the tensor's row selected" || sed 's/^/# /' "$scratch/s4"

# Enter on "+ key general.url", only in b: a message, nothing moves.
tm send-keys -t t 1 g j j j Enter
settle "$scratch/s6" "only in the other model"
ok $? "tmux: a tensor only in the other model says so"

# An edit: the view keeps its lines, marked out of date.
tm send-keys -t t : s e t Space g e n e r a l . n a m e Space x Enter
settle "$scratch/s7" "out of date"
ok $? "tmux: after an edit the Diff view says it is out of date"

# A file that cannot be read: one message, no view.
tm send-keys -t t : d i f f Space n o p e . g g u f Enter
settle "$scratch/s8" "nope.gguf: "
ok $? "tmux: :diff of a missing file says why"

tm send-keys -t t : q ! Enter
i=0
while [ ! -s "$scratch/status" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat "$scratch/status" 2>/dev/null)" = 0 ]
ok $? "tmux: :q! quits with status 0"

# :diff with a shard compares with its whole set, as `ggufed diff` does:
# a model and its split copy are equal (script mode).
mkdir "$scratch/set"
"$GGUFED" split -q --max-tensors 15 "$scratch/a.gguf" "$scratch/set/m" ||
    { echo "Bail out! split"; exit 1; }
"$GGUFED" diff "$scratch/a.gguf" "$scratch/set/m-00001-of-00003.gguf" \
    >"$scratch/cli"
cli_rc=$?
printf 'size 100x24\ntype :diff set/m-00001-of-00003.gguf\nkeys <Enter>\nwait\ndump %s\nkeys q\n' \
    "$scratch/set.txt" >"$scratch/set.script"
(cd "$scratch" && GGUFED_SCRIPT=$scratch/set.script "$GGUFED" a.gguf) \
    2>"$scratch/err"
[ $? -eq 0 ] && [ $cli_rc -eq 0 ] && [ ! -s "$scratch/cli" ] &&
    sed -n 2p "$scratch/set.txt" | grep -q '^ no differences *$'
ok $? ":diff SHARD: the set, equal to the model as ggufed diff says" ||
    sed 's/^/# /' "$scratch/set.txt" | head -6

done_testing
