#!/bin/sh
# hostile.sh - the browser over files made to hurt it (gen_hostile_ui):
# a 1 MiB one-line string, a 10^6-element array, 10^6 tokens, 10^4
# tensors with 63-byte names, 10^5 groups of tensors, 500 findings, and
# keys, values, tokens and a tensor name full of terminal escapes (CSI,
# OSC 0, OSC 52, OSC 8, DCS), C0 and C1 controls, a right-to-left
# override and invalid UTF-8.
#
# In script mode (a virtual screen): every view, the pager on the long
# line (wrapped, to its end), the ends of the big array and of the token
# list, a token filter, the tensor list sorted, two edits among 10^5
# folded groups; each session must end cleanly within a time limit, on a
# 1 MiB stack (no recursion on file data), with a screen that holds only
# printable UTF-8.
#
# On a real pseudo-terminal (tmux, every byte written logged with
# pipe-pane): the same views, then the log must hold no OSC or DCS
# introducer, no planted CSI, no C1 control, no bidirectional override,
# no C0 control but those curses itself uses, and be valid UTF-8.
. "$TESTS_SRCDIR/lib.sh"

gen="$TESTS_BUILDDIR/tools/gen_hostile_ui"
"$gen" "$scratch" || { ok 1 "gen_hostile_ui"; done_testing; exit 1; }
E=$(printf '\033')
TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC
HOME=$scratch/home XDG_STATE_HOME=$scratch/state
mkdir -p "$HOME"
export TERM LANG LC_ALL TZ HOME XDG_STATE_HOME
unset NO_COLOR GGUFED_SCRIPT EDITRC TMUX
limit=${HOSTILE_UI_SECONDS:-120}

# printable FILE: valid UTF-8, and no control character but newline.
printable() {
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 &&
	    ! LC_ALL=C tr -d '\n' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]' &&
	    ! grep -q "$(printf '\302[\200-\237]')" "$1"
}

# session NAME FILE WANT LINE...: a script-mode session on FILE; the last
# screen is dumped to $scratch/NAME.txt and must contain WANT.
session() {
	name=$1 file=$2 want=$3
	shift 3
	{
		echo "size 120x40"
		for l in "$@"; do
			echo "$l"
		done
		echo "dump $scratch/$name.txt"
	} >"$scratch/$name.script"
	t0=$(date +%s)
	(
		ulimit -s 1024
		GGUFED_SCRIPT=$scratch/$name.script exec timeout "$limit" \
		    "$GGUFED" "$scratch/$file"
	) 2>"$scratch/err"
	rc=$?
	t=$(($(date +%s) - t0))
	[ $rc -eq 0 ] && [ ! -s "$scratch/err" ] &&
	    grep -qF -- "$want" "$scratch/$name.txt" &&
	    printable "$scratch/$name.txt"
	r=$?
	ok $r "$name: clean exit, screen printable, shows '$want' (${t}s)"
	if [ $r -ne 0 ]; then
		echo "# exit $rc"
		sed 's/^/# /' "$scratch/err" | head -10
		[ -f "$scratch/$name.txt" ] &&
		    head -12 "$scratch/$name.txt" | od -c | head -20 | sed 's/^/# /'
	fi
}

session summary strings.gguf "Sections" "keys 1"
session metadata strings.gguf "hostile.value" "keys 2" "keys G" "keys gj"
session hostile-keys strings.gguf "x1b]52;c;SGVsbG8=" "keys 2/" "type osc52" \
    "keys <Enter>"
session long-line strings.gguf "END." "keys 2/" "type hostile.line" \
    "keys <Enter><Enter>" "keys w" "keys G"
session long-line-nowrap strings.gguf "hostile.line" "keys 2/" \
    "type hostile.line" "keys <Enter><Enter>" "keys G"
session big-array strings.gguf "6999993" "keys 2/" "type hostile.array" \
    "keys <Enter><Enter>" "keys G"
session tokens-end strings.gguf "999999" "keys 3G"
session tokens-start strings.gguf "PWNED" "keys 3"
session tokens-filter strings.gguf "PWNED" "keys 3f" "type PWNED" "keys <Enter>"
session tensors tensors.gguf "_bytes_long_" "keys 4G" "keys s" "keys G"
session tensor-evil tensors.gguf "evil" "keys 4/" "type evil" "keys <Enter>"
# 10^5 groups of one tensor, all folded: two edits refresh the tree, and
# the folds stay, in time that grows with the groups, not with groups
# times nodes (that took minutes).
saved_limit=$limit
limit=${HOSTILE_UI_EDIT_SECONDS:-30}
session groups-edit groups.gguf "1/100000" "keys 4-" "keys :" \
    "type rm-tensor blk.7.w" "keys <Enter>:" "type rm-tensor blk.8.w" \
    "keys <Enter>"
limit=$saved_limit
grep -q "in 100,000 groups, 2 changes" "$scratch/groups-edit.txt"
ok $? "groups-edit: both edits are made"
# 500 findings: the summary's list of lines grows under its Checks heading.
session findings findings.gguf "Checks  250 errors, 250 warnings" "keys 1"
session findings-end findings.gguf "x.flags249" "keys 1G"

# ------------------------------------------------------- a real terminal
command -v tmux >/dev/null 2>&1 || { done_testing; exit $?; }
. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_server hostile

# run FILE KEYS...: FILE in a 100x30 session; each argument is sent as
# keys and waited for (KEYS=TEXT waits for TEXT); the program then quits.
run() {
	f=$1
	shift
	tm kill-session -t t 2>/dev/null
	tm new-session -d -s t -x 100 -y 30 "read go && exec env \
	    TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '$GGUFED' \
	    '$scratch/$f'" || return 1
	tm set-option -t t remain-on-exit on >/dev/null
	tm pipe-pane -t t -o "cat >>'$scratch/raw'"
	tm send-keys -t t Enter
	settle "$scratch/pane" "Sections" || echo "# $f: no summary"
	for k in "$@"; do
		keys=${k%%=*}
		tm send-keys -t t -l "$keys"
		settle "$scratch/pane" "${k#*=}" || echo "# $f: '$k' not seen"
	done
	tm send-keys -t t q q q
	i=0
	while [ "$(tm display-message -p -t t '#{pane_dead}')" != 1 ] &&
	    [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

: >"$scratch/raw"
run strings.gguf "2=key-value pairs" "G=hostile.array" "3=1,000,000 tokens" \
    "G=tok999999" "2=key-value pairs"
run tensors.gguf "4=Elements" "G=blk.09999" "/evil
=evil"
sleep 0.5
[ -s "$scratch/raw" ]
ok $? "tmux: $(wc -c <"$scratch/raw") bytes written to the terminal, logged"
for seq in "${E}]" "${E}P" "${E}[31mRED" "${E}[10;10H moved"; do
	! grep -qF -- "$seq" "$scratch/raw"
	ok $? "tmux: no $(printf '%s' "$seq" | od -An -c | tr -s ' ' | head -1) in the output"
done
# nochar NAME BYTES: the encoded character never reaches the terminal.
nochar() {
	! grep -qF -- "$2" "$scratch/raw"
	ok $? "tmux: no $1 in the output"
}
nochar "U+009B (C1 CSI)" "$(printf '\302\233')"
nochar "U+009D (C1 OSC)" "$(printf '\302\235')"
nochar "U+0090 (C1 DCS)" "$(printf '\302\220')"
nochar "U+202E (right-to-left override)" "$(printf '\342\200\256')"
nochar "U+202C (pop directional formatting)" "$(printf '\342\200\254')"
iconv -f UTF-8 -t UTF-8 "$scratch/raw" >/dev/null 2>&1
ok $? "tmux: the output is valid UTF-8 (no raw byte of the file)"
! LC_ALL=C tr -d '\033\r\n\b\t\007\016\017' <"$scratch/raw" |
    LC_ALL=C grep -q '[[:cntrl:]]'
ok $? "tmux: no C0 control in the output but ESC CR LF BS TAB BEL SO SI"
done_testing
