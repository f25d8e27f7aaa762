#!/bin/sh
# faults.sh - saves that fail or are killed half-way never lose the model.
#
# GGUFED_FAULT (see src/base/io.c) makes the Nth write, fsync, close,
# rename, unlink, open, fallocate or read of a save fail with ENOSPC, EIO,
# EDQUOT, EFBIG or EACCES, or kills the process with SIGKILL after N
# bytes. For each rule, N runs from 1 until the save gets through without
# meeting the fault, on both paths of a save: the full rewrite (a temp
# file renamed over the target) and the journaled in-place header
# rewrite. After each run the target must hold, byte for byte, either the
# old file or the new one (the new one made by a save without faults),
# never a mix; a failure must say so (exit 1, one message) and leave no
# temporary file; where a journal is left, the failure must say to run
# `ggufed recover`, which must then give back the old or the new file.
# EINTR and short writes must not be noticed at all. A kill leaves a
# temporary file that `ggufed info` reports and `ggufed recover` removes.
# Last, a real file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored) must fail
# a rewrite as cleanly as a full disk, and say it is the limit.
. "$TESTS_SRCDIR/lib.sh"

src="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
[ -f "$src" ] || skip_all "no demo model"
dir="$scratch/d"
mkdir "$dir"
m="$dir/m.gguf"
old="$scratch/old.gguf"
cp_w "$src" "$old"
chmod 644 "$old"

# The two edits and what they make, from saves without faults.
rw_edit='general.name "A name long enough to make the header grow"'
ip_edit='llama.context_length 4096'
"$GGUFED" edit "$old" -o "$scratch/new-rw.gguf" -e "set $rw_edit" >/dev/null &&
    "$GGUFED" edit "$old" -o "$scratch/new-ip.gguf" -e "set $ip_edit" \
    >/dev/null
ok $? "reference saves without faults"
cp "$old" "$m"
"$GGUFED" edit "$m" -i -e "set $ip_edit" >"$scratch/out" &&
    grep -q "in place" "$scratch/out" && cmp -s "$m" "$scratch/new-ip.gguf"
ok $? "the fixed-size edit saves in place, to the same bytes"

sane() {
	! grep -q -E 'Sanitizer|runtime error' "$scratch/err"
}

# outcome PATH: "old", "new" or "mix" for the target's bytes.
outcome() {
	if cmp -s "$m" "$old"; then
		echo old
	elif cmp -s "$m" "$1"; then
		echo new
	else
		echo mix
	fi
}

# leftovers: what is in the directory besides the model.
leftovers() {
	ls -A "$dir" | grep -v '^m\.gguf$'
}

# save PATH-KIND RULE: one save of the model under a fault rule; sets rc.
save() {
	cp "$old" "$m"
	if [ "$1" = rw ]; then
		GGUFED_FAULT=$2 "$GGUFED" edit "$m" -i -e "set $rw_edit" \
		    >"$scratch/out" 2>"$scratch/err"
	else
		GGUFED_FAULT=$2 "$GGUFED" edit "$m" -i -e "set $ip_edit" \
		    >"$scratch/out" 2>"$scratch/err"
	fi
	rc=$?
}

# try KIND OP ERR: N = 1, 2, ... until the save succeeds. One test point.
try() {
	kind=$1 op=$2 e=$3 n=1 bad= fails=0
	new="$scratch/new-$kind.gguf"
	while [ $n -le 60 ]; do
		save "$kind" "$op:$n:$e"
		sane || { bad="sanitizer report at N=$n"; break; }
		if [ $rc -eq 0 ]; then
			[ "$(outcome "$new")" = new ] ||
			    bad="N=$n: success but the file is $(outcome "$new")"
			[ -z "$(leftovers)" ] || bad="N=$n: success left $(leftovers)"
			break
		fi
		fails=$((fails + 1))
		if [ $rc -ne 1 ] || [ ! -s "$scratch/err" ]; then
			bad="N=$n: exit $rc"
			break
		fi
		if [ -e "$m.ggufed-journal" ]; then
			grep -q "recover" "$scratch/err" ||
			    { bad="N=$n: journal left, not reported"; break; }
			"$GGUFED" recover "$m" >/dev/null 2>&1 ||
			    { bad="N=$n: recover failed"; break; }
		else
			# No journal: nothing to recover, and a failure
			# that comes once the new file is in place says so.
			if grep -q "run 'ggufed recover'" "$scratch/err"; then
				bad="N=$n: says to run recover, no journal"
				break
			fi
			if [ "$(outcome "$new")" = new ] && ! grep -q -E \
			    "new file is in place|header was saved" \
			    "$scratch/err"; then
				bad="N=$n: failed, but the file is the new one: $(cat "$scratch/err")"
				break
			fi
		fi
		o=$(outcome "$new")
		[ "$o" != mix ] || { bad="N=$n: the file is a mix"; break; }
		[ -z "$(leftovers)" ] || { bad="N=$n: left $(leftovers)"; break; }
		n=$((n + 1))
	done
	[ $n -le 60 ] || bad="never got through"
	[ -z "$bad" ]
	ok $? "$kind, $op fails with $e: $fails failing points, old or new file each time"
	if [ -n "$bad" ]; then
		echo "# $bad"
		sed 's/^/# /' "$scratch/err" | head -5
	fi
}

for kind in rw ip; do
	for e in ENOSPC EIO EDQUOT; do
		try $kind write $e
	done
	try $kind write EFBIG
	try $kind fsync EIO
	try $kind fsync ENOSPC
	try $kind close EIO
	try $kind open EACCES
	try $kind read EIO
done
try ip unlink EIO
try rw rename EIO
try rw fallocate ENOSPC

# A fault that never goes away: the rollback of an in-place save fails
# too, so the journal stays and recover puts the old header back.
save ip "write:4+:EIO"
[ $rc -eq 1 ] && [ -e "$m.ggufed-journal" ] && grep -q recover "$scratch/err" &&
    "$GGUFED" recover "$m" >/dev/null && [ "$(outcome x)" = old ] &&
    [ -z "$(leftovers)" ]
ok $? "in place, every write after the journal fails: recover restores the old file"
save ip "fsync:2+:EIO"
[ $rc -eq 1 ] && { [ ! -e "$m.ggufed-journal" ] ||
    "$GGUFED" recover "$m" >/dev/null; } && [ "$(outcome x)" = old ] &&
    [ -z "$(leftovers)" ]
ok $? "in place, every fsync after the journal's fails: old file"

# EINTR and short writes are retried: the save succeeds, the file is new.
for kind in rw ip; do
	bad=
	for rule in write:1:EINTR write:2:EINTR write:1:short write:2:short \
	    write:3:short "write:1:short,write:2:EINTR,write:3:short" \
	    "write:1+:short"; do
		save $kind "$rule"
		[ $rc -eq 0 ] && [ "$(outcome "$scratch/new-$kind.gguf")" = new ] &&
		    [ -z "$(leftovers)" ] || bad="$bad $rule"
	done
	[ -z "$bad" ]
	ok $? "$kind: EINTR and short writes are retried (failed:${bad:- none})"
done

# SIGKILL at many points of each path.
size=$(stat -c %s "$old")
for kind in rw ip; do
	new="$scratch/new-$kind.gguf"
	bad= nold=0 nnew=0 nrec=0
	for at in 0 1 7 24 100 1000 4000 40000 73000 73700 100000 \
	    500000 1000000 2000000 $((size - 100)) $((size - 1)) $size \
	    $((size + 1000)); do
		save $kind "kill:$at"
		if [ $rc -ne 137 ] && [ $rc -ne 0 ]; then
			bad="$bad $at:exit$rc"
			continue
		fi
		if [ -e "$m.ggufed-journal" ] || [ -n "$(leftovers)" ]; then
			"$GGUFED" info "$m" 2>&1 >/dev/null | grep -q recover ||
			    bad="$bad $at:unreported"
			"$GGUFED" recover "$m" >/dev/null 2>&1 ||
			    bad="$bad $at:recover"
			nrec=$((nrec + 1))
		fi
		case $(outcome "$new") in
		old) nold=$((nold + 1)) ;;
		new) nnew=$((nnew + 1)) ;;
		*) bad="$bad $at:mix" ;;
		esac
		[ -z "$(leftovers)" ] || bad="$bad $at:leftovers"
	done
	[ -z "$bad" ]
	ok $? "$kind, killed at 18 points: $nold old, $nnew new, $nrec recovered${bad:+ (bad:$bad)}"
done

# A real limit on the file size: the kernel's EFBIG, not an injected one.
cp "$old" "$m"
(
	trap '' XFSZ
	ulimit -f 1000
	exec "$GGUFED" edit "$m" -i -e "set $rw_edit"
) >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && sane && [ "$(outcome x)" = old ] && [ -z "$(leftovers)" ] &&
    grep -q "file too large for this process's limit" "$scratch/err"
ok $? "RLIMIT_FSIZE: the rewrite fails (exit $rc) and says why, the old file stays, nothing left"
sed 's/^/# /' "$scratch/err"

# A full disk while the journal of an in-place save is written: the one
# line names the journal and says nothing was changed.
for f in write:1:ENOSPC fsync:1:EIO; do
	cp "$old" "$m"
	GGUFED_FAULT=$f "$GGUFED" edit "$m" -i -e "set $ip_edit" \
	    >/dev/null 2>"$scratch/err"
	rc=$?
	[ $rc -eq 1 ] && sane && [ "$(outcome x)" = old ] &&
	    [ -z "$(leftovers)" ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
	    grep -q "m.gguf: cannot write the journal m.gguf.ggufed-journal: .*; nothing was changed" \
	    "$scratch/err"
	ok $? "$f on the journal: it names the journal, nothing was changed" ||
	    sed 's/^/# /' "$scratch/err"
done
# The same for the journal of a set's save.
mkdir "$scratch/set"
"$GGUFED" split -q --max-tensors 15 "$old" "$scratch/set/m" &&
    cp "$scratch/set/m-00001-of-00003.gguf" "$scratch/s1.ref" &&
    GGUFED_FAULT=write:1:ENOSPC "$GGUFED" edit \
    "$scratch/set/m-00002-of-00003.gguf" -i -e "set $ip_edit" >/dev/null \
    2>"$scratch/err"
[ $? -eq 1 ] && cmp -s "$scratch/set/m-00001-of-00003.gguf" "$scratch/s1.ref" &&
    grep -q "cannot write the journal m-00001-of-00003.gguf.ggufed-journal: No space left on device; nothing was changed" \
    "$scratch/err"
ok $? "ENOSPC on a set's journal: named, nothing was changed" ||
    sed 's/^/# /' "$scratch/err"

done_testing
