#!/bin/sh
# filechange.sh - the file changes or shrinks while a command reads it.
#
# `cat` reads tensor data through a mapping of the file; `stats`,
# `validate --data`, `hash` and `diff --data` through its descriptor. The
# rule map:N:stop of GGUFED_FAULT (src/base/io.c) stops the process
# before its Nth read of that data (a guarded read of the mapping, or a
# read into a buffer); the test then cuts the file short (or rewrites
# it), lets the process go on and checks that it ends with exit status 1
# and one message saying the file changed on disk, instead of dying of
# SIGBUS. No timing is involved: the test waits until the process is seen
# stopped (at most 20 seconds, then it fails).
. "$TESTS_SRCDIR/lib.sh"

src="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
[ -f "$src" ] || skip_all "no demo model"
m="$scratch/m.gguf"
# the header region of the demo model ends at 73,696: cut there, every
# tensor's data is gone and the metadata is intact
cut=73696

# stopped PID: 0 once the process is stopped, 1 if it ends or 20 s pass.
stopped() {
	i=0
	while [ $i -lt 400 ]; do
		st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
		case $st in
		T*) return 0 ;;
		esac
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# stopped_do RULE ACTION CMD...: CMD under RULE, ACTION done while it is
# stopped; its exit status in $rc, its output in $scratch/out and err.
stopped_do() {
	rule=$1
	action=$2
	shift 2
	GGUFED_FAULT=$rule "$@" >"$scratch/out" 2>"$scratch/err" &
	pid=$!
	if stopped $pid; then
		$action
		kill -CONT $pid
	else
		echo "# the process did not stop at $rule"
		kill -KILL $pid 2>/dev/null
	fi
	wait $pid
	rc=$?
}

# changed RULE ACTION CMD...: stopped_do on a fresh copy of the model.
changed() {
	cp_w "$src" "$m"
	stopped_do "$@"
}

shrink() {
	truncate -s $cut "$m"
}

# rewrite the first tensor's first block in place and give the file an
# old modification time: the same size, other bytes
rewrite() {
	printf 'XXXXXXXX' | dd of="$m" bs=1 seek=$((cut + 16)) conv=notrunc \
	    2>/dev/null
	touch -d '2001-01-01 00:00:00' "$m"
}

# verdict DESC [STATUS]: exit 1 (hash: 2, a file it cannot read), one line on
# stderr naming the file and the change.
verdict() {
	n=$(wc -l <"$scratch/err")
	[ "$rc" -eq "${2:-1}" ] && [ "$n" -eq 1 ] &&
	    grep -q "^ggufed: .*m\.gguf: .*changed on disk" "$scratch/err" &&
	    ! grep -q -E 'Sanitizer|runtime error' "$scratch/err"
	ok $? "$1" || { echo "# rc=$rc"; sed 's/^/# /' "$scratch/err"; }
}

# stats: the 3rd of the 12 chunks of token_embd.weight, 2 threads
changed map:3:stop shrink "$GGUFED" stats --threads 2 "$m" token_embd.weight
verdict "stats: the file cut short half-way through a tensor"
grep -q "cut to 73,696 bytes (2,842,080 when opened)" "$scratch/err"
ok $? "stats: the message says how the file changed"

# stats --all stops at the first tensor that meets the change
changed map:5:stop shrink "$GGUFED" stats --all --threads 2 "$m"
verdict "stats --all: stops at the change, one message"
[ "$(wc -l <"$scratch/out")" -lt 3 ]
ok $? "stats --all: no line for the tensors after the change"

changed map:2:stop rewrite "$GGUFED" stats --threads 1 "$m" token_embd.weight
verdict "stats: the file rewritten in place (same size) half-way"
grep -q "written to since it was opened" "$scratch/err"
ok $? "stats: the message says the file was written to"

# cat: one guarded read per row; the 100th row meets the hole
changed map:100:stop shrink "$GGUFED" cat "$m" token_embd.weight
verdict "cat: the file cut short half-way through a tensor"
[ "$(wc -l <"$scratch/out")" -eq 99 ]
ok $? "cat: the rows read before the change are printed"

changed map:1:stop shrink "$GGUFED" cat --raw "$m" blk.0.attn_norm.weight
verdict "cat --raw (plain type): the file cut short"

changed map:10:stop shrink "$GGUFED" cat --raw "$m" token_embd.weight
verdict "cat --raw (block view): the file cut short"

changed map:2:stop rewrite "$GGUFED" cat "$m" blk.0.attn_q.weight
verdict "cat: the file rewritten in place half-way"

# validate --data: one finding, then no more tensors
changed map:4:stop shrink "$GGUFED" validate --data --threads 2 "$m"
[ "$rc" -eq 1 ] && [ "$(grep -c 'changed on disk' "$scratch/out" \
    "$scratch/err" | awk -F: '{ s += $2 } END { print s }')" -eq 1 ] &&
    ! grep -q -E 'Sanitizer|runtime error' "$scratch/err"
ok $? "validate --data: the change is one error, the run stops" ||
    { echo "# rc=$rc"; sed 's/^/# /' "$scratch/out" "$scratch/err"; }

# ... and of a split set whose third shard is cut: one error, naming that
# shard (not the tensor read when the change was seen, nor shard 1)
mkdir -p "$scratch/set"
"$GGUFED" split -q --max-tensors 10 "$src" "$scratch/set/s"
cutshard() {
	truncate -s 1000 "$scratch/set/s-00003-of-00004.gguf"
}
stopped_do map:3:stop cutshard "$GGUFED" validate --data --threads 1 \
    "$scratch/set/s-00001-of-00004.gguf"
[ "$rc" -eq 1 ] && [ "$(grep -c 'changed on disk' "$scratch/out")" -eq 1 ] &&
    grep -q ': error: s-00003-of-00004.gguf: changed on disk: cut to 1,000 bytes (.*); the data check stopped there$' \
    "$scratch/out"
ok $? "validate --data of a set: a shard cut is one error naming that shard" ||
    { echo "# rc=$rc"; sed 's/^/# /' "$scratch/out" "$scratch/err" | head; }
# diff --data: the tensor named is one of that shard, and the shard is
"$GGUFED" split -q --force --max-tensors 10 "$src" "$scratch/set/s"
stopped_do map:3:stop cutshard "$GGUFED" diff --data --threads 1 "$src" \
    "$scratch/set/s-00001-of-00004.gguf"
t=$(sed -n 's/.*: tensor "\([^"]*\)": s-00003-of-00004.gguf: changed on disk: cut to 1,000 bytes .*/\1/p' "$scratch/err")
"$GGUFED" split -q --force --max-tensors 10 "$src" "$scratch/set/s"
[ "$rc" -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] && [ -n "$t" ] &&
    "$GGUFED" dump "$scratch/set/s-00001-of-00004.gguf" |
    grep -q "^tensor [0-9]* $t .* shard=3\$"
ok $? "diff --data with a set's shard cut: one error, naming the shard and a tensor of it ($t)" ||
    { echo "# rc=$rc"; sed 's/^/# /' "$scratch/err" | head; }

# hash: the tensors are read through the descriptor, on two threads
changed map:3:stop shrink "$GGUFED" hash "$m"
verdict "hash: the file cut short half-way through the tensors" 2
grep -q "cut to 73,696 bytes (2,842,080 when opened)" "$scratch/err"
ok $? "hash: the message says how the file changed"

changed map:2:stop rewrite "$GGUFED" hash --no-layer "$m"
verdict "hash --no-layer: the file rewritten in place half-way" 2
grep -q "written to since it was opened" "$scratch/err"
ok $? "hash: the message says the file was written to"

# A command that only reads leaves a large header (1.5 MB: 100,000 tokens)
# where the file is mapped, not copied: seen while it is stopped, its
# mapping of the file starts at offset 0 (a copy would be mapped over the
# header's pages). Cut to nothing under it, its reads of the header find
# zeros where they would have faulted, and it ends with the message of
# the change, not SIGBUS.
big="$scratch/big.gguf"
if "$TESTS_BUILDDIR/tools/gen_sparse" "$big" 1 100000 >/dev/null; then
	GGUFED_FAULT=map:1:stop "$GGUFED" validate --data --threads 1 "$big" \
	    >"$scratch/out" 2>"$scratch/err" &
	pid=$!
	if stopped $pid; then
		awk -v f="$big" '$6 == f && $3 == "00000000" { n++ }
		    END { exit n == 0 }' /proc/$pid/maps
		ok $? "validate --data: a large file's header is read where the file is mapped, not copied"
		truncate -s 0 "$big"
		kill -CONT $pid
	else
		ok 1 "validate --data: the process did not stop"
		kill -KILL $pid 2>/dev/null
	fi
	wait $pid
	rc=$?
	[ "$rc" -eq 1 ] && grep -q "changed on disk" "$scratch/out" \
	    "$scratch/err" && ! grep -q -E 'Sanitizer|runtime error' \
	    "$scratch/err"
	ok $? "validate --data: the file cut to nothing under a header read where it is mapped: the change is told, no fault" ||
	    { echo "# rc=$rc"; sed 's/^/# /' "$scratch/out" "$scratch/err"; }
	rm -f "$big"
else
	ok 1 "gen_sparse"
fi

# a file cut short before the command opens it is a file with missing
# data, not a changed one: nothing to do with this test, but the commands
# must still not crash on the metadata the index keeps
cp_w "$src" "$m"
shrink
"$GGUFED" stats "$m" token_embd.weight >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "beyond the end of the file" "$scratch/err"
ok $? "a file short from the start: the tensor's data is missing"

done_testing
