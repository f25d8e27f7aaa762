#!/bin/sh
# preview_cat.sh - the values the tensor preview shows are the values
# `ggufed cat` prints.
#
# For every tensor of the type and shape fixtures, the preview is opened
# in script mode at 200x60 with full precision (f), the grid is read back
# from the screen dump and each cell is compared, as text, with the same
# element of `ggufed cat`. One-row tensors are wrapped on the screen: a
# row's label is then the index of its first element.
. "$TESTS_SRCDIR/lib.sh"

FIX=$SHARED_DIR/fixtures/ggml
TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8
export TERM LANG LC_ALL
unset NO_COLOR GGUFED_SCRIPT

[ -d "$FIX" ] || skip_all "$(shared_missing fixtures/ggml)"
"$GGUFED" cat "$FIX/types.gguf" t.F32 --rows 0 >/dev/null 2>&1 ||
    skip_all "ggufed cat is not available"

compare() {	# compare FILE TENSOR
	pat=$(printf '%s' "$2" | sed 's/[.]/\\./g')
	printf 'size 200x60\nkeys 4f\ntype ^%s$\nkeys <Enter><Enter>f\ndump %s\n' \
	    "$pat" "$scratch/screen" >"$scratch/script"
	(cd "$FIX" && GGUFED_SCRIPT=$scratch/script "$GGUFED" "$1") \
	    2>"$scratch/err" || return 1
	[ -s "$scratch/err" ] && return 1
	"$GGUFED" cat "$FIX/$1" "$2" >"$scratch/cat" || return 1
	# Grid lines: after the column header (line 4 of the screen) up to
	# the first line that does not start with a row label.
	awk -v rows="$(wc -l <"$scratch/cat")" '
		FNR == NR { for (i = 1; i <= NF; i++) v[NR - 1, i - 1] = $i
			    n[NR - 1] = NF; next }
		FNR < 4 { next }
		FNR == 3 { next }
		!/^ *[0-9]+ / { done = 1 }
		done { next }
		{
			r = $1
			for (j = 2; j <= NF; j++) {
				if (rows == 1) { row = 0; col = r + j - 2 }
				else { row = r; col = j - 2 }
				if (v[row, col] != $j) {
					printf "# [%d,%d] screen %s cat %s\n", \
					    col, row, $j, v[row, col]
					bad++
				}
				cells++
			}
		}
		END { if (cells == 0) { print "# no cells read"; exit 1 }
		      exit bad > 0 }
	' "$scratch/cat" "$scratch/screen"
}

for f in types.gguf shapes.gguf; do
	"$GGUFED" dump "$FIX/$f" | awk '$1 == "tensor" { print $3 }' |
	    grep -v '^"' >"$scratch/names"
	while read -r t; do
		compare "$f" "$t"
		ok $? "preview = cat: $f $t"
	done <"$scratch/names"
done

done_testing
