#!/bin/sh
# screens.sh - the browser's screens, driven by scripts, against golden
# dumps.
#
# ggufed runs in script mode (GGUFED_SCRIPT, see src/tui/script.c): keys come
# from a file and curses draws into a virtual screen that `dump` writes
# out as text, the way tmux's capture-pane does. Every scenario runs at
# 80x24 and at 200x60 (those made with `narrow`: at 40x12, the smallest
# size the browser is made for) and is compared with
# tests/tui/golden/NAME.SIZE.txt; GENERATE=1 writes the golden files
# instead.
. "$TESTS_SRCDIR/lib.sh"

GOLD=$TESTS_SRCDIR/tui/golden
FIX=$SHARED_DIR/fixtures/ggml
TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC
# Histories and the editrc come from the scratch directory.
HOME=$scratch/home XDG_STATE_HOME=$scratch/state
mkdir -p "$HOME"
export TERM LANG LC_ALL TZ HOME XDG_STATE_HOME
unset NO_COLOR GGUFED_SCRIPT EDITRC

# check NAME: compares $scratch/NAME.txt with its golden file.
check() {
	if [ -n "$GENERATE" ]; then
		cp "$scratch/$1.txt" "$GOLD/$1.txt"
	fi
	if cmp -s "$GOLD/$1.txt" "$scratch/$1.txt"; then
		ok 0 "$1"
	else
		diff -u "$GOLD/$1.txt" "$scratch/$1.txt" 2>&1 | head -40 |
		    sed 's/^/# /'
		ok 1 "$1"
	fi
}

# screen NAME DIR FILE LINE...: runs the script lines on FILE (a name
# inside DIR, so no machine path is shown) at both sizes, then dumps.
# narrow NAME DIR FILE LINE...: the same at 40x12.
sizes="80x24 200x60"
narrow() {
	sizes=40x12
	screen "$@"
	sizes="80x24 200x60"
}
screen() {
	name=$1 dir=$2 file=$3
	shift 3
	for size in $sizes; do
		s=$scratch/$name.$size.script
		{
			echo "size $size"
			for l in "$@"; do
				echo "$l"
			done
			echo "dump $scratch/$name.$size.txt"
		} >"$s"
		(cd "$dir" && GGUFED_SCRIPT=$s "$GGUFED" "$file") \
		    2>"$scratch/err"
		rc=$?
		if [ $rc -ne 0 ] || [ -s "$scratch/err" ]; then
			sed 's/^/# /' "$scratch/err"
			ok 1 "$name.$size runs cleanly (exit $rc)"
			continue
		fi
		check "$name.$size"
	done
}

# The demo model: the naming convention, blocks, sorting in natural order.
if [ -f "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" ]; then
	A=$TESTS_SRCDIR/../assets
	D=Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
	screen demo-summary "$A" $D
	screen demo-memory "$A" $D "keys m"
	# `o`: llama.cpp's -ngl; the memory lines split between the GPU
	# and the CPU, in the Summary and in `m`'s table.
	screen demo-gpusplit "$A" $D "keys o" "type 5" "keys <Enter>/^ GPU split<Enter>"
	screen demo-gpusplit-table "$A" $D "keys o" "type 5" "keys <Enter>mG"
	screen demo-gpusplit-bad "$A" $D "keys o" "type -1" "keys <Enter>"
	# `p`: a multimodal projector (here the demo as architecture clip),
	# its weights in the Summary's memory lines and in `m`'s table; a
	# file that is not one is said.
	cp_w "$A/$D" "$scratch/$D" &&
	    "$GGUFED" set "$A/$D" general.architecture clip -q \
	    -o "$scratch/mmproj.gguf" 2>/dev/null
	ok $? "a projector for p"
	screen demo-mmproj "$scratch" $D "keys p" "type mmproj.gguf" \
	    "keys <Enter>/^ Projector<Enter>"
	screen demo-mmproj-table "$scratch" $D "keys p" "type mmproj.gguf" \
	    "keys <Enter>m"
	screen demo-mmproj-bad "$scratch" $D "keys p" "type $D" "keys <Enter>"
	screen demo-tensors "$A" $D "keys 4"
	screen demo-unfold "$A" $D "keys 4+"
	# A converted tensor: its row, its group's total and the sort by
	# size all count the type and size it is saved with.
	screen demo-converted "$A" $D "keys :" \
	    "type convert blk.0.attn_q.weight f32" "keys <Enter>4s"
	screen demo-tokenizer "$A" $D "keys 3"
	# Tokens: search the text column or the token column (^ and $ anchor
	# on either), plain text that is no regular expression, a filter on
	# the text, the text -> ids lookup, and the ids of an array of token
	# ids with their text (Summary and Metadata: demo-summary and
	# metadata-end).
	screen tok-search-text "$A" $D "keys 3/" "type ^ upon$" "keys <Enter>"
	screen tok-search-raw "$A" $D "keys 3/" "type ^▁upon$" "keys <Enter>"
	screen tok-search-plain "$A" $D "keys 3/" "type (" "keys <Enter>nn"
	screen tok-filter-text "$A" $D "keys 3f" "type ^ the" "keys <Enter>"
	screen tok-lookup "$A" $D "keys 3t" "type Once upon a time" \
	    "keys <Enter>"
	"$GGUFED" set "$A/$D" 'tokenizer.ggml.eog_token_ids:arr[u32]' \
	    '[2, 3066]' -o "$scratch/eog.gguf" >/dev/null
	screen tok-id-array "$scratch" eog.gguf "keys 2G/" \
	    "type eog_token_ids" "keys <Enter><Enter>"
	screen metadata-demo-end "$A" $D "keys 2G"
	# The text column: a space is a dim glyph (theme slot DIM is colour
	# pair 9: 'I'), the text after it a string (pair 14: 'N').
	printf 'size 80x24\nkeys 3/\ntype ^ the$\nkeys <Enter>k\ndump %s\ndumpattr %s\n' \
	    "$scratch/ws.txt" "$scratch/ws.attr" >"$scratch/ws.script"
	(cd "$A" && GGUFED_SCRIPT=$scratch/ws.script "$GGUFED" $D)
	y=$(grep -n '▁the  ' "$scratch/ws.txt" | head -1 | cut -d: -f1)
	x=$(sed -n "${y}p" "$scratch/ws.txt" | sed 's/·the .*//' | wc -m)
	[ -n "$y" ] && [ "$(sed -n "${y}p" "$scratch/ws.attr" |
	    cut -c"$x-$((x + 3))")" = INNN ]
	ok $? "the text column: the space before \"the\" is dim, \"the\" a string"

	# 40x12: every view draws, names are shortened in the middle.
	narrow narrow-summary "$A" $D
	narrow narrow-summary-end "$A" $D "keys G"
	narrow narrow-metadata "$A" $D "keys 2jj"
	narrow narrow-string "$A" $D "keys 2/" "type description" \
	    "keys <Enter><Enter>"
	narrow narrow-array "$A" $D "keys 2/" "type tokens" \
	    "keys <Enter><Enter>"
	narrow narrow-tokenizer "$A" $D "keys 3"
	narrow narrow-tensors "$A" $D "keys 4"
	narrow narrow-preview "$A" $D "keys 4j<Enter>" "wait"
	narrow narrow-blocks "$A" $D "keys 4j<Enter>" "wait" "keys b"
	narrow narrow-help "$A" $D "keys <F1>"
	# Help text is wrapped, under the keys at this width, never cut;
	# opened wide and narrowed, it is wrapped again as if opened narrow.
	narrow narrow-help-keys "$A" $D "keys <F1>G"
	narrow narrow-help-resized "$A" $D "size 120x30" "keys <F1>" \
	    "size 40x12"
	narrow narrow-changes "$A" $D "keys :" \
	    "type set general.name \"A rather long name for a narrow screen\"" \
	    "keys <Enter>D"
	narrow narrow-filter "$A" $D "keys 4f" "type ffn_(up|down)" "keys <Enter>"
	narrow narrow-too-small "$A" $D "size 39x12"

	# Long tensor names: the ends, which tell them apart, are kept.
	cp_w "$A/$D" "$scratch/m.gguf"
	"$GGUFED" edit "$scratch/m.gguf" -o "$scratch/moe.gguf" \
	    -e 'rename blk.0.ffn_down.weight blk.12.ffn_down_exps.weight' \
	    -e 'rename blk.0.ffn_gate.weight blk.12.ffn_gate_exps.weight' \
	    >/dev/null
	ok $? "a copy of the demo model with MoE tensor names"
	narrow narrow-moe "$scratch" moe.gguf "keys 4f" "type exps" \
	    "keys <Enter>"
	narrow narrow-moe-preview "$scratch" moe.gguf "keys 4f" "type exps" \
	    "keys <Enter>j<Enter>" "wait"
fi

# A file that cannot be opened: one line on stderr, exit 1, nothing on
# stdout (the terminal is never touched).
"$GGUFED" "$scratch/missing.gguf" >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && ! [ -s "$scratch/out" ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q 'missing.gguf' "$scratch/err"
ok $? "unreadable file: exit 1, one line on stderr, nothing on stdout"

# The rest is drawn over the ggml fixtures of the shared folder, which a
# plain clone does not have.
if [ ! -d "$FIX" ]; then
	skip "the screens of the ggml fixtures: $(shared_missing fixtures/ggml)"
	done_testing
	exit $?
fi

BV=big-vocab.gguf

# Views.
screen summary "$FIX" $BV
screen metadata "$FIX" $BV "keys 2"
screen metadata-folded "$FIX" $BV "keys 2-jj+j<Left>"
screen metadata-end "$FIX" $BV "keys 2G"
screen tokenizer "$FIX" $BV "keys 3"
screen tokenizer-jump "$FIX" $BV "keys 3:" "type 149744" "keys <Enter>"
screen tokenizer-filter "$FIX" $BV "keys 3f" "type ^Ġfiku.a" "keys <Enter>"
screen tensors "$FIX" $BV "keys 4"
screen tensors-size "$FIX" $BV "keys 4s"
screen tensors-reverse "$FIX" $BV "keys 4ssS"
screen help "$FIX" $BV "keys <F1>"
screen help-end "$FIX" $BV "keys HG"
screen tabs "$FIX" $BV "keys <Tab><Tab><Tab><Tab><S-Tab>"
narrow narrow-bv-metadata "$FIX" $BV "keys 2"

# The pager and the array list.
screen pager "$FIX" $BV "keys 2G<Enter>"
screen pager-wrap "$FIX" $BV "keys 2G<Enter>w"
screen pager-search "$FIX" $BV "keys 2G<Enter>/" "type ipython" "keys <Enter>n"
screen pager-filter "$FIX" $BV "keys 2G<Enter>f" "type set " "keys <Enter>"
screen pager-jump "$FIX" $BV "keys 2G<Enter>:40<Enter>"
screen array "$FIX" $BV "keys 2/" "type ggml.tokens" "keys <Enter><Enter>"
screen array-end "$FIX" $BV "keys 2/" "type ggml.tokens" "keys <Enter><Enter>G"
screen array-jump "$FIX" $BV "keys 2/" "type ggml.tokens" \
    "keys <Enter><Enter>:75000<Enter>"
screen array-scores "$FIX" $BV "keys 2/" "type scores" "keys <Enter><Enter><PgDn>"
screen array-string "$FIX" $BV "keys 2/" "type merges" "keys <Enter><Enter>jj<Enter>"

# Search and filter.
screen search "$FIX" $BV "keys 2/" "type token_id" "keys <Enter>"
screen search-next "$FIX" $BV "keys 2/" "type token_id" "keys <Enter>nn"
screen search-back "$FIX" $BV "keys 2?" "type rope" "keys <Enter>"
screen search-prev "$FIX" $BV "keys 2/" "type rope" "keys <Enter>N"
screen search-none "$FIX" $BV "keys 2/" "type nothing-like-this" "keys <Enter>"
screen search-bad "$FIX" $BV "keys 2/" "type a(b[" "keys <Enter>"
screen filter "$FIX" $BV "keys 2f" "type ^tokenizer" "keys <Enter>"
screen filter-clear "$FIX" $BV "keys 2f" "type ^tokenizer" "keys <Enter><Esc>"
screen filter-bad "$FIX" $BV "keys 4f" "type *x" "keys <Enter>"
screen tensors-filter "$FIX" $BV "keys 4f" "type weight$" "keys <Enter>"

# Matches are highlighted (theme slot MATCH is colour pair 8: 'H').
printf 'size 200x60\nkeys 2/\ntype token_id\nkeys <Enter>\ndumpattr %s\n' \
    "$scratch/attr.txt" >"$scratch/attr.script"
(cd "$FIX" && GGUFED_SCRIPT=$scratch/attr.script "$GGUFED" $BV)
[ "$(grep -c HHHHHHHH "$scratch/attr.txt")" -eq 3 ]
ok $? "the three matches of token_id are highlighted"

# Hostile and odd metadata: escapes, wide characters, invalid UTF-8.
screen kv-summary "$FIX" kv.gguf
screen kv "$FIX" kv.gguf "keys 2"
screen kv-strings "$FIX" kv.gguf "keys 2/" "type str" "keys <Enter>"
screen kv-arrays "$FIX" kv.gguf "keys 2G"
# i: what a well-known key means; a key of another type; an unknown key.
screen describe "$FIX" $BV "keys 2/" "type rope.freq_base" "keys <Enter>i"
screen describe-wrong-type "$FIX" kv.gguf "keys 2:" \
    "type set general.name:u32 5" "keys <Enter>y/" "type general.name" \
    "keys <Enter>i"
screen describe-unknown "$FIX" kv.gguf "keys 2/" "type test.key with" \
    "keys <Enter>i"

# The tensor preview (statistics waited for, so the screen is settled).
screen preview "$FIX" $BV "keys 4j<Enter>" "wait"
screen preview-full "$FIX" $BV "keys 4j<Enter>" "wait" "keys f"
screen preview-hex "$FIX" $BV "keys 4j<Enter>" "wait" "keys ff"
screen preview-move "$FIX" $BV "keys 4j<Enter>" "wait" "keys jjlllll"
screen preview-blocks "$FIX" $BV "keys 4j<Enter>" "wait" "keys b"
# Scrolled sideways: the quants past the screen's width come into view.
screen preview-blocks-scroll "$FIX" $BV "keys 4j<Enter>" "wait" "keys bllll"
screen preview-wrapped "$FIX" $BV "keys 4jj<Enter>" "wait"
screen preview-slice "$FIX" shapes.gguf "keys 4f" "type 4d_2x3x4x5" \
    "keys <Enter><Enter>" "wait" "keys ]]}"
screen preview-f64 "$FIX" shapes.gguf "keys 4f" "type special.f64" \
    "keys <Enter><Enter>" "wait" "keys f"
screen preview-i64 "$FIX" types.gguf "keys 4f" "type I64" \
    "keys <Enter><Enter>" "wait" "keys f"
# Esc cancels the statistics (or they were done first: a race by nature),
# s computes them again; the settled screen is the same either way.
# L: the histogram on a log scale (the tails show), and back.
screen preview-log "$FIX" $BV "keys 4j<Enter>" "wait" "keys L"
screen preview-log-off "$FIX" $BV "keys 4j<Enter>" "wait" "keys LL"
screen preview-cancel "$FIX" $BV "keys 4j<Enter><Esc>" "wait" "keys s" "wait"

# Mouse: a click selects, a double click opens, the wheel scrolls.
screen mouse-click "$FIX" $BV "keys 2" "click 5 10"
screen mouse-open "$FIX" $BV "keys 2" "dclick 23 10"
screen mouse-wheel "$FIX" $BV "keys 3" "wheel down 5 5" "wheel down 5 5"

# A split model (the demo model in 4 shards), opened from shard 2: the
# Summary lists the shards, Tensors has a Shard column, sorts by shard
# (s four times) and filters by it.
SET=$scratch/set
mkdir -p "$SET"
"$GGUFED" split -q --max-tensors 10 \
    "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" "$SET/m"
S2=m-00002-of-00004.gguf
screen set-summary "$SET" $S2
screen set-tensors "$SET" $S2 "keys 4"
screen set-tensors-by-shard "$SET" $S2 "keys 4ssss"
screen set-tensors-filter "$SET" $S2 "keys 4f" "type shard 3" "keys <Enter>"

# Resize, and a terminal too small to draw in.
screen resize "$FIX" $BV "keys 2" "size 120x40"
screen too-small "$FIX" $BV "size 30x8"
# (keys pressed while it is too small are dropped: 2 after it is back)
screen resize-back "$FIX" $BV "size 30x8" "size 100x30" "keys 2"

# Quitting: q at a top view ends the program with status 0.
printf 'keys 2q\nkeys <Enter>\n' >"$scratch/q.script"
(cd "$FIX" && GGUFED_SCRIPT=$scratch/q.script "$GGUFED" $BV) 2>"$scratch/err"
rc=$?
[ $rc -eq 0 ] && ! [ -s "$scratch/err" ]
ok $? "q quits with status 0"

# A truncated file: the same.
"$GGUFED" "$SHARED_DIR/fixtures/real/ollama-api-test-truncated.gguf" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && ! [ -s "$scratch/out" ] && [ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "truncated file: exit 1, one line on stderr, nothing on stdout"

done_testing
