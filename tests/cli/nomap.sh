#!/bin/sh
# nomap.sh - a file the system will not map (no address space left, a
# file system without mmap) is read instead, as a server's file is: every
# command answers exactly as it does when the file maps.
#
# GGUFED_FAULT=mmap:1+:ENOMEM (src/base/io.c) makes every mapping of a
# whole file fail. The demo model (a header read whole), a 150k-token
# vocabulary (a header of 4 MB, walked where it is mapped otherwise) and a
# split set, through the read-only commands, the browser's preview (whose
# data would be mapped at its first need) and a save in place.
. "$TESTS_SRCDIR/lib.sh"

src="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
[ -f "$src" ] || skip_all "no demo model"
m="$scratch/m.gguf"
cp_w "$src" "$m"
"$GGUFED" split -q --max-tensors 12 "$m" "$scratch/set"
ok $? "the demo model split into a set"
set1="$scratch/set-00001-of-00004.gguf"

# same NAME COMMAND...: the command's output and status with every mapping
# refused are those without the fault.
same() {
	_n=$1
	shift
	"$GGUFED" "$@" >"$scratch/want" 2>&1
	_w=$?
	GGUFED_FAULT=mmap:1+:ENOMEM "$GGUFED" "$@" >"$scratch/got" 2>&1
	_g=$?
	[ "$_g" = "$_w" ] && cmp -s "$scratch/want" "$scratch/got"
	ok $? "$_n: as when it maps (status $_g, $_w mapped)" ||
	    diff "$scratch/want" "$scratch/got" | head -5 | sed 's/^/# /'
}

same "info" info "$m"
same "dump" dump "$m"
same "validate --data" validate --data "$m"
same "stats" stats "$m" output.weight
same "stats --all" stats --all "$m"
same "cat" cat "$m" output.weight --rows 0:2
same "hash" hash "$m"
same "diff --data" diff --data "$m" "$src"
same "mem" mem "$m"
same "a set: info" info "$set1"
same "a set: validate --data" validate --data "$set1"
same "a set: hash" hash "$set1"
same "a set: stats" stats "$set1" blk.1.attn_q.weight
big="${SHARED_DIR:-}/fixtures/ggml/big-vocab.gguf"
if [ -f "$big" ]; then
	same "a 4 MB header: info" info "$big"
	same "a 4 MB header: validate --data" validate --data "$big"
else
	skip "$(shared_missing big-vocab.gguf)"
	skip "$(shared_missing big-vocab.gguf)"
fi

# The browser's preview of a tensor (its numbers and statistics) is the
# same screen: the file's data, mapped at its first need otherwise, is
# read by range once the system refuses.
for fault in "" mmap:1+:ENOMEM; do
	printf '%s\n' "size 100x30" "keys 4/attn_output<Enter><Enter>" \
	    "wait" "dump $scratch/screen$fault" "keys qq" >"$scratch/keys"
	GGUFED_SCRIPT="$scratch/keys" GGUFED_FAULT=$fault TERM=xterm-256color \
	    LANG=C.UTF-8 LC_ALL=C.UTF-8 "$GGUFED" "$m" >"$scratch/out" 2>&1 ||
	    sed 's/^/# /' "$scratch/out"
done
grep -q 'p50' "$scratch/screen" &&
    cmp -s "$scratch/screen" "$scratch/screenmmap:1+:ENOMEM"
ok $? "the browser's preview and statistics: the same screen" ||
    diff "$scratch/screen" "$scratch/screenmmap:1+:ENOMEM" | head -8 |
    sed 's/^/# /'
GGUFED_FAULT=mmap:1+:ENOMEM "$GGUFED" edit -q "$m" -i \
    -e 'set general.name "Read"' 2>"$scratch/err"
ok $? "a save in place" || sed 's/^/# /' "$scratch/err"
[ "$("$GGUFED" get "$m" general.name)" = "Read" ] &&
    "$GGUFED" validate -q --data "$m"
ok $? "the saved file holds the edit and its data"

done_testing
