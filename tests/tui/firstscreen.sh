#!/bin/sh
# firstscreen.sh - the browser's first screen computes only what it
# shows: the Summary's checks (what llama.cpp would say, the file name's
# convention) and its memory (llama.cpp's allocation at three contexts)
# are put off until it is drawn, and libedit is set up at the first
# prompt, not at start; a large header is left where the file is mapped
# until then, and copied. The script command `probe` says what is set up
# without doing anything; a dump shows the screen once the put-off work
# is done, as a user sees it a moment after the start, and `dumpnow` as
# it is drawn first.
. "$TESTS_SRCDIR/lib.sh"

BV=$SHARED_DIR/fixtures/ggml/big-vocab.gguf
[ -f "$BV" ] || skip_all "no big-vocab fixture"
browser_env

# run LINE...: the script lines at $size (80x24 unless set) on
# big-vocab.gguf; NAME in "dump NAME", "dumpnow NAME" and "probe NAME" is
# a file of the scratch directory.
size=80x24
run() {
	{
		echo "size $size"
		for l in "$@"; do
			case $l in
			"dump "*) echo "dump $scratch/${l#dump }" ;;
			"dumpnow "*) echo "dumpnow $scratch/${l#dumpnow }" ;;
			"probe "*) echo "probe $scratch/${l#probe }" ;;
			*) printf '%s\n' "$l" ;;
			esac
		done
	} >"$scratch/script"
	GGUFED_SCRIPT=$scratch/script "$GGUFED" "$BV" >/dev/null \
	    2>"$scratch/err"
}

# has FILE TEXT: FILE holds the line TEXT.
has() {
	grep -qxF -- "$2" "$scratch/$1" && return 0
	sed 's/^/# /' "$scratch/$1"
	return 1
}

# --- opened and quit at once: nothing but the first screen

run "probe start" "keys q"
ok $? "opened and quit with q: exit 0"
has start "put-off waiting"
ok $? "the first screen drawn: its checks are still put off"
has start "put-off-done 0"
ok $? "the first screen drawn: no check has run"
has start "line-editor not started"
ok $? "the first screen drawn: libedit is not set up"
has start "header-copy waiting"
ok $? "the first screen drawn: the large header is not copied yet"

run "probe start" "keys Q"
ok $? "opened and quit with Q: exit 0"

# --- a moment later: the screen says what it said before

run "dump first" "probe after"
grep -q '^ Checks        10 errors (listed at the end: G)$' "$scratch/first"
ok $? "dumped: the Summary's verdict is there"
! grep -q 'checking' "$scratch/first"
ok $? "dumped: nothing is still checking"
has after "put-off none"
ok $? "dumped: the put-off work is done"
has after "put-off-done 1"
ok $? "dumped: once"
has after "header-copy done"
ok $? "dumped: the header is the browser's own copy"

# --- at 200x60 the whole Summary shows: first what is put off, in its
# place a word that says so, then the same lines done

size=200x60
run "dumpnow now" "dump later" "probe after"
ok $? "200x60: dumped before and after the put-off work: exit 0"
grep -q '^ Checks        checking\.\.\.$' "$scratch/now" &&
    grep -q '^ Memory  computing\.\.\.$' "$scratch/now" &&
    grep -q '^ File name  checking\.\.\.$' "$scratch/now"
ok $? "drawn first: the checks, the memory and the file name wait" ||
    sed 's/^/# /' "$scratch/now"
! grep -q '^ Context [0-9,]* KV cache' "$scratch/now"
ok $? "drawn first: no memory figure is computed yet"
grep -q '^ Memory  as llama\.cpp allocates it' "$scratch/later" &&
    grep -q '^ Context 8,192 KV cache 4\.0 MiB, total 4\.6 MiB with the weights (as trained)$' \
    "$scratch/later"
ok $? "a moment later: the memory at the trained context" ||
    sed 's/^/# /' "$scratch/later"
! grep -q 'checking\.\.\.\|computing\.\.\.' "$scratch/later"
ok $? "a moment later: nothing waits"
has after "put-off-done 1"
ok $? "200x60: the put-off work ran once"
size=80x24

# --- a key is acted on with the checks done

run "keys G" "dump end" "probe after"
tail -n 3 "$scratch/end" | head -n 1 |
    grep -q 'error    blk\.0\.ffn_up\.weight is missing'
ok $? "G at once goes to the last finding of the checks"
has after "put-off-done 1"
ok $? "G: the checks ran once"
has after "line-editor not started"
ok $? "G: libedit is still not set up"

run "keys /" "keys <Esc>" "probe prompt"
has prompt "line-editor started"
ok $? "the first prompt sets libedit up"
run "keys 3:" "type 75000" "keys <Enter>" "dump jump"
grep -q '75000' "$scratch/jump"
ok $? "a prompt's line is read after that"

# --- in a real terminal, the checks show without a key

if command -v tmux >/dev/null 2>&1; then
	. "$TESTS_SRCDIR/tui/tmux.lib"
	tmux_env
	tmux_server firstscreen
	tm new-session -d -s t -x 80 -y 24 "env TERM=xterm-256color \
	    LANG=C.UTF-8 LC_ALL=C.UTF-8 '$GGUFED' '$BV'"
	settle "$scratch/t-start" "10 errors (listed at the end: G)"
	ok $? "tmux: the verdict shows without a key"
	tm send-keys -t t 3 :
	tm send-keys -t t -l 75000
	tm send-keys -t t Enter
	settle "$scratch/t-jump" "75000"
	ok $? "tmux: the first prompt works"
	tm send-keys -t t q
else
	skip "tmux is not installed"
fi

done_testing
