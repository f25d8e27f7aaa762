#!/bin/sh
# everykey.sh - no key is ever swallowed for good: for every view, in
# every state a view can be in (a normal row, a removed row, an added
# row, an empty list, a filtered list, an open dialog, an open prompt),
# every key of the key table (src/tui/keys.c, read here, so a new key is
# tested the day it is bound) is pressed, and then Q must still answer:
# the program ends, after the quit guard's question if edits are pending.
#
# A view whose handler takes keys it does not handle (returns "redraw"
# instead of "pass") leaves the user with no undo, no save and no quit.
#
# The real program runs on a pseudo-terminal in a private tmux server.
# One program per state: each key is sent after the state's `pre` keys
# (to open the dialog or prompt again) and followed by C-g C-g, which
# closes a prompt or a dialog and is bound to nothing in a view. Keys
# that leave the view (tabs, open, back, help, save, undo) come last, so
# the others are all pressed in the state itself.
. "$TESTS_SRCDIR/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
EMPTY=$SHARED_DIR/fixtures/ggml/empty.gguf
[ -f "$EMPTY" ] || skip_all "no fixtures in $SHARED_DIR"
KEYS_C=$TESTS_SRCDIR/../src/tui/keys.c

. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_env
tmux_server everykey

# ----------------------------------------------------- the key table
# tmux's name for a key of keys.c; empty for the mouse (not a key).
tmux_key() {
	case $1 in
	"'\\n'") echo C-j ;;
	"'\\r'") echo C-m ;;
	"'\\t'") echo Tab ;;
	SPACE) echo Space ;;
	0x1b) echo Escape ;;
	TK_MOUSE) echo "" ;;
	"CTRL('"?"')") echo "C-$(printf '%s' "$1" | cut -c7)" ;;
	"'"?"'") printf '%s\n' "$1" | cut -c2 ;;
	"FN(KEY_UP)") echo Up ;;
	"FN(KEY_DOWN)") echo Down ;;
	"FN(KEY_LEFT)") echo Left ;;
	"FN(KEY_RIGHT)") echo Right ;;
	"FN(KEY_PPAGE)") echo PPage ;;
	"FN(KEY_NPAGE)") echo NPage ;;
	"FN(KEY_HOME)") echo Home ;;
	"FN(KEY_END)") echo End ;;
	"FN(KEY_ENTER)") echo KPEnter ;;
	"FN(KEY_BTAB)") echo BTab ;;
	"FN(KEY_F("*"))") echo "F$(printf '%s' "$1" | tr -cd 0-9)" ;;
	*) return 1 ;;
	esac
}

# Bindings as "KEY ACTION", one a line.
S='[[:space:]]*'
sed -n "s/^$S{${S}SC_[A-Z]*,$S\(.*[^[:space:]]\)$S,${S}ACT_\([A-Z0-9_]*\)$S},.*/\1 \2/p" \
    "$KEYS_C" | sed "s/^' ' /SPACE /" >"$scratch/bindings"
[ "$(wc -l <"$scratch/bindings")" -gt 50 ]
ok $? "the key table is read from keys.c ($(wc -l <"$scratch/bindings") bindings)"

# Actions that leave the state (another view, another document): last.
late="OPEN BACK CANCEL QUIT HELP NEXT_VIEW PREV_VIEW VIEW1 VIEW2 VIEW3 VIEW4
CHANGES SAVE UNDO REDO"
: >"$scratch/early"
: >"$scratch/late"
bad=
while read -r expr act; do
	if ! name=$(tmux_key "$expr"); then
		bad="$bad $expr"
		continue
	fi
	[ -n "$name" ] || continue
	case " $(echo $late) " in
	*" $act "*) echo "$name" >>"$scratch/late" ;;
	*) echo "$name" >>"$scratch/early" ;;
	esac
	case $act in
	QUIT|BACK) echo "$name" >>"$scratch/ends" ;;
	esac
done <"$scratch/bindings"
[ -z "$bad" ]
ok $? "every key of the table has a tmux name${bad:+ (not:$bad)}"
# A key is late if any of its bindings is; the keys that can end the
# program (quit, back) are the check itself, not part of the batch.
sort -u "$scratch/late" >"$scratch/late.u"
sort -u "$scratch/ends" >"$scratch/ends.u"
KEYLIST=$(sort -u "$scratch/early" | grep -vxF -f "$scratch/late.u";
    grep -vxF -f "$scratch/ends.u" "$scratch/late.u")
nkeys=$(echo "$KEYLIST" | wc -l)

# ------------------------------------------------------------ driving
start() {	# start FILE: ggufed on a fresh copy of FILE, 80x24
	tm kill-session -t t 2>/dev/null
	rm -f "$scratch/status"
	cp_w "$1" "$scratch/m.gguf"
	tm new-session -d -s t -x 80 -y 24 "cd '$scratch' && read go &&
	    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
	    VISUAL=true EDITOR=true '$GGUFED' m.gguf;
	    echo \$? >'$scratch/status'" || return 1
	tm set-option -t t remain-on-exit on >/dev/null
	tm send-keys -t t Enter
}

# quits NAME: Q (and d at the quit guard) end the program with status 0.
quits() {
	i=0
	while [ ! -s "$scratch/status" ] && [ $i -lt 60 ]; do
		tm capture-pane -p -t t >"$scratch/$1.end" 2>/dev/null
		if grep -q 'unsaved change' "$scratch/$1.end"; then
			tm send-keys -t t d
		else
			tm send-keys -t t C-g C-g Q
		fi
		j=0
		while [ ! -s "$scratch/status" ] && [ $j -lt 10 ]; do
			sleep 0.1
			j=$((j + 1))
		done
		i=$((i + 1))
	done
	st=$(cat "$scratch/status" 2>/dev/null)
	[ "$st" = 0 ] && return 0
	sed 's/^/# /' "$scratch/$1.end"
	return 1
}

# state NAME FILE MARK PRE SETUP...: the program on FILE, SETUP keys
# sent, the screen shows MARK; then every key, each after PRE, each
# followed by C-g C-g; then Q must answer.
state() {
	name=$1 file=$2 mark=$3 pre=$4
	shift 4
	start "$file"
	if ! settle "$scratch/$name.0" "Sections"; then
		ok 1 "$name: the program starts"
		return
	fi
	for k in "$@"; do
		case $k in
		=*) tm send-keys -t t -l "${k#=}" ;;
		*) tm send-keys -t t "$k" ;;
		esac
	done
	if ! settle "$scratch/$name.1" "$mark"; then
		ok 1 "$name: the state is reached (the screen shows '$mark')"
		return
	fi
	set --
	for k in $KEYLIST; do
		# shellcheck disable=SC2086
		set -- "$@" $pre "$k" C-g C-g
	done
	tm send-keys -t t "$@"
	quits "$name"
	ok $? "$name: after each of the $nkeys keys, Q still answers"
}

# ------------------------------------------------------------- states
# NAME FILE MARK PRE SETUP: SETUP is tmux key names, and =TEXT for
# TEXT typed as is. The one-row filters put the cursor on the row of the
# state for every key, moving keys included.
state summary "$DEMO" "Sections" ""
state summary-prompt "$DEMO" "Sections" ":"
state meta "$DEMO" "general.name" "" 2 f '=^general\.name ' Enter G
state meta-list "$DEMO" "key-value pairs" "" 2
state meta-removed "$DEMO" "(removed)" "" 2 f '=^general\.license ' Enter G d y
state meta-removed-list "$DEMO" "(removed)" "" 2 / '=^general\.license ' Enter d y
state meta-added "$DEMO" "zz.added" "" 2 a C-u =zz.added Enter Enter C-u =one Enter f '=zz' Enter G
state meta-filter-empty "$DEMO" "0 rows" "" 2 f '=no such key' Enter G
state meta-empty "$EMPTY" "0 rows" "" 2
state meta-dialog "$DEMO" "general.name" "d" 2 f '=^general\.name ' Enter G
state meta-prompt "$DEMO" "general.name" "e" 2 f '=^general\.name ' Enter G
state tokens "$DEMO" "tokens" "" 3
state tokens-filtered "$DEMO" "filter" "" 3 f '=the' Enter G
state tensors "$DEMO" "token_embd" "" 4 f '=token_embd' Enter G
state tensors-removed "$DEMO" "-Q4_K" "" 4 f '=token_embd' Enter G d y
state tensors-dialog "$DEMO" "token_embd.weight" "d" 4 f '=token_embd' Enter G
state tensors-empty "$EMPTY" "0 rows" "" 4
state pager "$DEMO" "line 1/1" "" 2 f '=^general\.description' Enter G Enter
state array "$DEMO" "demo" "" 2 f '=^general\.tags' Enter G Enter
state array-added "$DEMO" "newtag" "" 2 f '=^general\.tags' Enter G Enter a =newtag Enter
state array-empty "$DEMO" "0 elements" "" 2 f '=^general\.languages' Enter G Enter d y
state array-dialog "$DEMO" "demo" "d" 2 f '=^general\.tags' Enter G Enter
state preview "$DEMO" "token_embd" "" 4 f '=token_embd' Enter G Enter
state blocks "$DEMO" "block" "" 4 f '=blk\.0\.attn_q' Enter G Enter b
state help "$DEMO" "Everywhere" "" F1
state changes "$DEMO" "Pending changes: 1" "" 2 f '=^general\.license ' Enter G d y D
state changes-empty "$DEMO" "no pending changes" "" D
state rename "$DEMO" "tensors renamed" "" 4 R C-u =s/blk/B/ Enter

done_testing
