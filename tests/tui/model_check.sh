#!/bin/sh
# model_check.sh - the browser after edits that break the model for
# llama.cpp (model.h): the status line says so and why, D shows which
# edit did it, a save asks first, the regex rename preview marks the names
# llama.cpp will not find; a harmless edit says nothing and saves as ever.
# Driven by scripts (GGUFED_SCRIPT), as edit.sh, and once in a real
# terminal through tmux.
. "$TESTS_SRCDIR/lib.sh"

DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
browser_env

# run NAME LINE...: a fresh copy of the demo model as $scratch/m.gguf,
# the script lines on it at 120x30, the screen dumped to NAME.txt at the
# end (and wherever a line says "dump NAME2").
run() {
	name=$1
	shift
	cp_w "$DEMO" "$scratch/m.gguf"
	{
		echo "size 120x30"
		for l in "$@"; do
			case $l in
			dump\ *) echo "dump $scratch/${l#dump }.txt" ;;
			*) echo "$l" ;;
			esac
		done
		echo "dump $scratch/$name.txt"
	} >"$scratch/$name.script"
	(cd "$scratch" && GGUFED_SCRIPT=$scratch/$name.script "$GGUFED" \
	    m.gguf) 2>"$scratch/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$scratch/err" ]; then
		sed 's/^/# /' "$scratch/err"
		ok 1 "$name runs cleanly (exit $rc)"
		return 1
	fi
	return 0
}

# shows NAME TEXT DESCRIPTION: the screen NAME holds TEXT.
shows() {
	if grep -qF -- "$2" "$scratch/$1.txt"; then
		ok 0 "$3"
	else
		sed 's/^/# /' "$scratch/$1.txt"
		ok 1 "$3"
	fi
}

# lacks NAME TEXT DESCRIPTION: the screen NAME does not hold TEXT.
lacks() {
	if grep -qF -- "$2" "$scratch/$1.txt"; then
		sed 's/^/# /' "$scratch/$1.txt"
		ok 1 "$3"
	else
		ok 0 "$3"
	fi
}

# A renamed tensor: said at once, D ties the problem to the rename, and
# the save asks; n keeps the file, y saves it.
run rename "keys :" "type rename blk.0.attn_k.weight blk.0.attn_kk.weight" \
    "keys <Enter>" "dump rename-msg" "keys j" "dump rename-status" \
    "keys D" "dump rename-changes" "keys qw" "dump rename-ask" \
    "keys n" "dump rename-no"
shows rename-msg 'llama.cpp would refuse the result: blk.0.attn_k.weight is missing' \
    "a rename llama.cpp will not load: the status line says so at once"
shows rename-status 'llama.cpp would refuse the result: blk.0.attn_k.weight is missing' \
    "and goes on saying so after the next key"
shows rename-changes 'llama.cpp would refuse the result: 2 problems' \
    "D: the changes view says llama.cpp would refuse the result"
shows rename-changes '> tensor blk.0.attn_k.weight -> blk.0.attn_kk.weight' \
    "D: the rename is listed"
shows rename-changes '! tensor blk.0.attn_kk.weight is not used by llama' \
    "D: under it, what it broke"
shows rename-ask 'Save anyway? [y]es, [n]o' "w asks before saving what llama.cpp would refuse"
shows rename-ask 'llama.cpp would refuse the result: blk.0.attn_k.weight is missing' \
    "the question says why"
shows rename-no 'not saved' "n: not saved"
cmp -s "$DEMO" "$scratch/m.gguf"
ok $? "n: nothing was written"

run rename-yes "keys :" "type rename blk.0.attn_k.weight blk.0.attn_kk.weight" \
    "keys <Enter>wy"
shows rename-yes 'saved m.gguf' "y: saved anyway"
"$GGUFED" validate "$scratch/m.gguf" | grep -q 'error: blk.0.attn_k.weight is missing'
ok $? "the saved file is the one asked for"

# Undone, the model loads again: the status line is the hints.
run undo "keys :" "type rename blk.0.attn_k.weight blk.0.attn_kk.weight" \
    "keys <Enter>u" "keys j"
lacks undo 'llama.cpp would refuse' "undone: the status line no longer says so"

# The block count and a hyper-parameter that shapes tensors.
run blocks "keys :" "type set llama.block_count 5" "keys <Enter>" "keys j"
shows blocks 'llama.cpp would refuse the result: blk.4.attn_norm.weight is missing' \
    "block_count raised: the first missing tensor"
run kv "keys :" "type set llama.attention.head_count_kv 2" "keys <Enter>D"
shows kv '~ llama.attention.head_count_kv: 4 -> 2' "D lists the edit"
shows kv '! blk.0.attn_k.weight: shape [256, 128], llama.cpp expects [256, 64]' \
    "and, under it, the shapes it breaks"

# A harmless edit: nothing said, and w saves without asking.
run harmless "keys :" "type set general.name Renamed" "keys <Enter>" \
    "keys j" "dump harmless-status" "keys w"
lacks harmless-status 'llama.cpp would refuse' "a harmless edit: nothing to say"
shows harmless 'saved m.gguf in place' "and w saves at once"

# The regex rename preview marks the names llama.cpp will not find.
run regex "keys 4R" "keys <C-u>" 'type s/^blk\.(\d+)\.attn_k\./blk.$1.attn_kk./' \
    "keys <Enter>" "dump regex-map" "keys qq"
shows regex-map 'llama.cpp will find none of the new names' "R: the preview says so"
shows regex-map '? blk.0.attn_k.weight -> blk.0.attn_kk.weight: llama.cpp will not find it' \
    "R: every such name is marked"
# Every block renamed: D counts every problem and marks every rename
# (no cap on the findings), to the last one.
run regex-all "size 120x160" "keys 4R" "keys <C-u>" \
    'type s/^blk\.(\d+)\./layers.$1./' "keys <Enter>" "keys <Enter>" "keys D"
shows regex-all 'llama.cpp would refuse the result: 72 problems' \
    "every block renamed: D counts each of the 72 problems"
n=$(grep -c '! tensor layers\.[0-9]*\..* is not used by llama' \
    "$scratch/regex-all.txt")
[ "$n" -eq 36 ]
ok $? "D marks each of the 36 renames with what it broke ($n)"
shows regex-all '! blk.3.ffn_up.weight is missing' \
    "the last rename too: its old name is missing"

# The Summary's verdict is on its first screen, even at 80x24.
run verdict "size 80x24" "keys 4R" "keys <C-u>" \
    'type s/^blk\.(\d+)\./layers.$1./' "keys <Enter>" "keys <Enter>" \
    "keys 1g"
shows verdict 'Checks        72 errors (listed at the end: G)' \
    "the Summary's first 80x24 screen gives the checks' verdict"

run regex-ok "keys 4R" "keys <C-u>" 'type s/^(output)\.weight$/$1.weight/' \
    "keys <Enter>" "dump regex-ok-map" "keys qq"
lacks regex-ok-map 'llama.cpp will not find' "R: a name llama.cpp looks for is not marked"

# The same in a real terminal (tmux): the status line, the question.
if command -v tmux >/dev/null 2>&1; then
	. "$TESTS_SRCDIR/tui/tmux.lib"
	tmux_env
	tmux_server model
	cp_w "$DEMO" "$scratch/m.gguf"
	rm -f "$scratch/status"
	tm new-session -d -s t -x 100 -y 24 "cd '$scratch' &&
	    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
	    '$GGUFED' m.gguf; echo \$? >'$scratch/status'"
	settle "$scratch/t-start" "Sections"
	tm send-keys -t t : 'rename blk.0.attn_k.weight blk.0.attn_kk.weight' \
	    Enter
	settle "$scratch/t-edit" "llama.cpp would refuse the result"
	ok $? "tmux: after the edit, the status line says llama.cpp would refuse it"
	tm send-keys -t t w
	settle "$scratch/t-ask" "Save anyway?"
	ok $? "tmux: w asks before saving it"
	tm send-keys -t t n
	settle "$scratch/t-no" "not saved"
	ok $? "tmux: n, not saved"
	tm send-keys -t t u
	settle "$scratch/t-undo" "undone"
	! grep -q "llama.cpp would refuse" "$scratch/t-undo"
	ok $? "tmux: undone, the status line no longer says so"
	tm send-keys -t t q
	i=0
	while [ ! -s "$scratch/status" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(cat "$scratch/status")" = 0 ] && cmp -s "$DEMO" "$scratch/m.gguf"
	ok $? "tmux: q quits (exit 0), the file untouched"
else
	skip "tmux is not installed"
fi

done_testing
