#!/bin/sh
# noop.sh - a key that does nothing says why, on the message line: the
# preview's [ ] { } at the first or last slice or in a tensor with one,
# a key of another view, a key of no view, Enter where nothing opens.
# The pager's hint line names the keys that work there, and Space pages
# down. Driven by scripts (GGUFED_SCRIPT), as screens.sh.
. "$TESTS_SRCDIR/lib.sh"

DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
SHAPES=$SHARED_DIR/fixtures/ggml/shapes.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
browser_env

# run FILE LINE...: the script lines at 80x24 on FILE; "dump NAME" dumps
# the screen to NAME.txt.
run() {
	f=$1
	shift
	{
		echo "size 80x24"
		for l in "$@"; do
			case $l in
			"dump "*) echo "dump $scratch/${l#dump }.txt" ;;
			*) printf '%s\n' "$l" ;;
			esac
		done
		echo "keys <Esc><Esc>Q"
	} >"$scratch/script"
	GGUFED_SCRIPT=$scratch/script "$GGUFED" "$f" >/dev/null 2>"$scratch/err"
}

# msg NAME TEXT: the message line (the last) of screen NAME holds TEXT.
msg() {
	tail -n 1 "$scratch/$1.txt" | grep -qF -- "$2" && return 0
	sed 's/^/# /' "$scratch/$1.txt"
	return 1
}

# --- keys of no view, keys of another view

run "$DEMO" "keys 2" "keys [" "dump meta-bracket" "keys z" "dump meta-z" \
    "keys <Enter>" "dump meta-open"
msg meta-bracket "[ is prev-slice in Tensor preview; not a key of this view"
ok $? "[ in the Metadata: where it works, and that it does not here"
msg meta-z "z does nothing in ggufed (F1 lists the keys)"
ok $? "z: a key of no view says so"
run "$DEMO" "keys 1<Space>" "dump sum-space" "keys h" "dump sum-h"
msg sum-space "Space is page-down in Pager (long strings), toggle in Trees"
ok $? "Space in the Summary: every place it works"
msg sum-h "h: nothing here to fold or to scroll sideways"
ok $? "h in the Summary: nothing to fold or scroll"

# --- group rows: the editing keys work on one key or tensor

run "$DEMO" "keys 2g" "keys e" "dump meta-group-e" "keys 4g" "keys d" \
    "dump tensors-group-d"
msg meta-group-e "this row is a group of keys: e E t d m i work on one key"
ok $? "e on a group of keys says what it works on"
msg tensors-group-d "this row is a group: d works on one tensor"
ok $? "d on a group of tensors says what it works on"

# --- the preview of a 2-D tensor: one slice of dimensions 2 and 3

run "$DEMO" "keys 4/token_embd<Enter><Enter>" "dump prev" "keys ]" \
    "dump prev-next" "keys {" "dump prev-prev3" "keys <Enter>" \
    "dump prev-open"
grep -q 'token_embd.weight' "$scratch/prev.txt"
ok $? "the preview of token_embd.weight is open" ||
    sed 's/^/# /' "$scratch/prev.txt"
msg prev-next "]: this tensor has one slice of dimension 2: nothing to step"
ok $? "] in a 2-D tensor: it has one slice of dimension 2"
msg prev-prev3 "{: this tensor has one slice of dimension 3"
ok $? "{ in a 2-D tensor: it has one slice of dimension 3"
msg prev-open "Enter opens nothing in the preview"
ok $? "Enter in the preview says what there is instead"
msg prev "F1 help  f format  c heat  b blocks  s stats  q back"
ok $? "the preview's hint line names its keys"
run "$DEMO" "keys 4/token_embd<Enter><Enter>b" "keys f" "dump blocks-f" \
    "keys ]" "dump blocks-next"
msg blocks-f "the block view shows what the blocks store: b goes back"
ok $? "f in the block view: it shows stored values, b goes back"
msg blocks-next "the block view shows what the blocks store"
ok $? "] in the block view: the same"

# --- a 4-D tensor: the first and the last slice

if [ -f "$SHAPES" ]; then
	run "$SHAPES" "keys 4/4d_2x3<Enter><Enter>" "keys [" "dump s-first" \
	    "keys ]" "dump s-2" "keys ]]]" "dump s-last" "keys }}}}}" \
	    "dump s3-last" "keys {" "dump s3-prev"
	msg s-first "already at the first slice of dimension 2 (1 of 4)"
	ok $? "[ at the first slice says so"
	msg s-2 "slice 2 of 4 of dimension 2"
	ok $? "] goes to the next slice and says which"
	msg s-last "already at the last slice of dimension 2 (4 of 4)"
	ok $? "] at the last slice says so"
	msg s3-last "already at the last slice of dimension 3 (5 of 5)"
	ok $? "} at the last slice of dimension 3 says so"
	msg s3-prev "slice 4 of 5 of dimension 3"
	ok $? "{ goes back one"
else
	skip "$(shared_missing fixtures/ggml/shapes.gguf)"
fi

# --- the pager: its hint line, Space, Enter

lines=$(seq 1 80 | tr '\n' ' ' | sed 's/ $//; s/ /\\n/g')
run "$DEMO" "keys 2:" "type set general.description \"$lines\"" \
    "keys <Enter>/description<Enter><Enter>" "dump pager" \
    "keys <Space>" "dump pager-space" "keys <Enter>" "dump pager-open"
grep -q '^ *1 │ 1$' "$scratch/pager.txt"
ok $? "the pager shows the string from its first line" ||
    sed 's/^/# /' "$scratch/pager.txt"
msg pager "F1 help  Space page  / search  w wrap  q back"
ok $? "the pager's hint line names its keys: Space, /, w, q"
! grep -q '^ *1 │ 1$' "$scratch/pager-space.txt" &&
    grep -q '^ *30 │ 30$' "$scratch/pager-space.txt"
ok $? "Space pages down in the pager" ||
    sed 's/^/# /' "$scratch/pager-space.txt"
msg pager-open "Enter opens nothing in the pager: Space pages down"
ok $? "Enter in the pager says what there is instead"

done_testing
