#!/bin/sh
# set_save.sh - editing a split model opened as a set and saving it over
# its shards: each edit lands in the shard it belongs to (metadata in the
# first, a tensor's edit in the shard that holds it), split.tensors.count
# follows on every shard, unchanged shards are not rewritten, and the save
# is one transaction: a crash or an I/O error at every step of a 3-shard
# save leaves every shard old or every shard new once `recover` has run
# on any one of them.
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
have_oracle=0
[ -n "${ORACLE:-}" ] && "$ORACLE" version >/dev/null 2>&1 && have_oracle=1

S1=m-00001-of-00003.gguf
S2=m-00002-of-00003.gguf
S3=m-00003-of-00003.gguf

# mkset DIR: the demo model split in three (15, 15 and 9 tensors).
mkset() {
	mkdir -p "$1" && "$GGUFED" split -q --max-tensors 15 "$demo" "$1/m"
}

# same_set A B: the three shards of A and B are byte for byte equal.
same_set() {
	for s in $S1 $S2 $S3; do
		cmp -s "$1/$s" "$2/$s" || return 1
	done
}

# key_tail FILE: the last three keys of a shard alone.
key_tail() {
	"$GGUFED" dump --shard --json "$1" | tr ',' '\n' |
	    sed -n 's/.*"key": *"\([^"]*\)".*/\1/p' | tail -n 3 | tr '\n' ' '
}

# tensors_of DIR: every tensor of the set as ggml reads it (name, type,
# shape, data hash), sorted: the oracle's dump of each shard.
tensors_of() {
	for s in $S1 $S2 $S3; do
		"$ORACLE" dump "$1/$s" || return 1
	done | awk '$1 == "tensor" { $2 = ""; print }' | sort
}

# left DIR: the files in DIR, lock files aside (a lock file nobody holds
# is taken over by the next save).
left() {
	ls -A "$1" | grep -vc '\.ggufed-lock$'
}

ino() {
	stat -c %i "$1"
}

mkset "$scratch/orig" || { echo "Bail out! split failed"; exit 1; }
# The first tensor of shard 2, and one of shard 3.
t2=$("$GGUFED" dump --shard "$scratch/orig/$S2" | awk '$1 == "tensor" {
    print $3; exit }')
t3=$("$GGUFED" dump --shard "$scratch/orig/$S3" | awk '$1 == "tensor" {
    print $3; exit }')
[ -n "$t2" ] && [ -n "$t3" ]
ok $? "tensors of shards 2 and 3 found ($t2, $t3)"

# ------------------------------------------------------------- routing

w=$scratch/route
mkset "$w"
i2=$(ino "$w/$S2")
i3=$(ino "$w/$S3")
"$GGUFED" set -i -q "$w/$S3" general.name '"routed"' 2>"$scratch/err"
ok $? "a metadata edit given shard 3 saves the set"
[ "$("$GGUFED" get --shard "$w/$S1" general.name)" = routed ]
ok $? "it lands in shard 1"
! cmp -s "$w/$S1" "$scratch/orig/$S1" && cmp -s "$w/$S2" \
    "$scratch/orig/$S2" && cmp -s "$w/$S3" "$scratch/orig/$S3"
ok $? "shards 2 and 3 keep their bytes"
[ "$(ino "$w/$S2")" = "$i2" ] && [ "$(ino "$w/$S3")" = "$i3" ]
ok $? "unchanged shards are not rewritten (same inodes)"
[ "$(ls -A "$w" | wc -l)" -eq 3 ]
ok $? "nothing is left beside the shards"

# A value of the same size: shard 1's header keeps its length, so it is
# saved in place (same inode, a few bytes written); the others untouched.
i1=$(ino "$w/$S1")
"$GGUFED" set -i "$w/$S3" llama.context_length 4096 >"$scratch/out" \
    2>&1 &&
    grep -q "wrote 1 of the set's 3 shards (1 in place, 1 byte of header)" \
    "$scratch/out" && [ "$("$GGUFED" get --shard "$w/$S1" \
    llama.context_length)" = 4096 ] && [ "$(ino "$w/$S1")" = "$i1" ] &&
    [ "$(ino "$w/$S2")" = "$i2" ] && [ "$(ino "$w/$S3")" = "$i3" ] &&
    [ "$(ls -A "$w" | grep -vc '\.ggufed-lock$')" -eq 3 ]
ok $? "a same-size edit saves shard 1 in place (same inode, 1 byte)" ||
    sed 's/^/# /' "$scratch/out"
ln "$w/$S1" "$scratch/link.gguf"
"$GGUFED" set -i "$w/$S3" llama.context_length 8192 >/dev/null \
    2>"$scratch/err" &&
    grep -q "note: shard 1 of 3 has 2 names (hard links): saving it in place changes them all" \
    "$scratch/err" && [ "$("$GGUFED" get --shard "$scratch/link.gguf" \
    llama.context_length)" = 8192 ]
ok $? "a shard with two names saved in place: a note says both change" ||
    sed 's/^/# /' "$scratch/err"
rm -f "$scratch/link.gguf"
"$GGUFED" set -i --rewrite -q "$w/$S3" llama.context_length 2048 &&
    [ "$(ino "$w/$S1")" != "$i1" ] && [ "$("$GGUFED" get --shard \
    "$w/$S1" llama.context_length)" = 2048 ]
ok $? "--rewrite writes it as a new file instead"

"$GGUFED" edit -i -q "$w/$S2" -e 'set my.added:str "x"' 2>"$scratch/err"
ok $? "a key added to the set"
[ "$(key_tail "$w/$S1")" = "split.no split.tensors.count split.count " ]
ok $? "shard 1 still ends with split.no, split.tensors.count, split.count"
"$GGUFED" get --shard "$w/$S1" my.added >/dev/null
ok $? "the added key is in shard 1"

i1=$(ino "$w/$S1")
"$GGUFED" rm-tensor -i -q "$w/$S1" "$t2" 2>"$scratch/err"
ok $? "removing a tensor of shard 2 given shard 1"
! "$GGUFED" get --shard "$w/$S2" "$t2" >/dev/null 2>&1 &&
    "$GGUFED" dump --shard "$w/$S2" | grep -c '^tensor ' | grep -qx 14
ok $? "the tensor left shard 2"
n=0
for s in $S1 $S2 $S3; do
	[ "$("$GGUFED" get --shard "$w/$s" split.tensors.count)" = 38 ] &&
	    n=$((n + 1))
	[ "$(key_tail "$w/$s")" = \
	    "split.no split.tensors.count split.count " ] || n=100
done
[ "$n" -eq 3 ]
ok $? "split.tensors.count is 38 on every shard, the split keys last"
# (The set is sound; the model lacks the tensor, which llama.cpp requires:
# that, if anything, is the one error.)
"$GGUFED" validate "$w/$S1" >"$scratch/out" 2>&1 ||
    { [ "$(grep -c ': error: ' "$scratch/out")" -eq 1 ] &&
    grep -q ": error: $t2 is missing: llama.cpp requires it" "$scratch/out"; }
ok $? "the edited set validates (but for the tensor llama.cpp misses)" ||
    sed 's/^/# /' "$scratch/out"

"$GGUFED" convert -i -q "$w/$S2" "$t3" f32 2>"$scratch/err" &&
    [ "$("$GGUFED" dump --shard "$w/$S3" | awk -v t="$t3" '$3 == t {
    print $4 }')" = F32 ]
ok $? "a conversion goes to the shard holding the tensor (3)"
"$GGUFED" edit -i -q "$w/$S2" -e "rename $t3 renamed.weight" \
    2>"$scratch/err" && "$GGUFED" dump --shard "$w/$S3" |
    grep -q '^tensor [0-9]* renamed\.weight ' 
ok $? "a tensor rename goes to shard 3"

cp -p "$w/$S1" "$scratch/before"
# Refused as the edit is made (exit 2, as other refused edits), so the
# browser never holds an edit its save would refuse.
"$GGUFED" rm -i "$w/$S2" split.count 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'split keys of a set are kept' "$scratch/err" &&
    cmp -s "$w/$S1" "$scratch/before"
ok $? "an edit of a split key of the set is refused, nothing written"
# --verify over the set: the tensors of every shard, source against
# result; a converted one is named as rewritten, not as damage.
rm -rf "$scratch/v1"
mkset "$scratch/v1"
"$GGUFED" set -i --verify "$scratch/v1/$S2" general.name '"v"' \
    >"$scratch/out" 2>&1 &&
    grep -q "tensor data unchanged (39 tensors, not rewritten)" "$scratch/out"
ok $? "--verify over a set saved in place: every tensor where it lay" ||
    sed 's/^/# /' "$scratch/out"
# Shard 1 rewritten: its 15 tensors are hashed in the source and the
# result; the other shards' lie in files the save did not touch, and are
# not read at all.
"$GGUFED" set -i --rewrite --verify "$scratch/v1/$S2" general.name '"w"' \
    >"$scratch/out" 2>&1 &&
    grep -q "tensor data unchanged (39 tensors: 15 by xxh64, 24 not rewritten)" \
    "$scratch/out"
ok $? "--verify of a set with shard 1 rewritten: its tensors hashed, no other shard's" ||
    sed 's/^/# /' "$scratch/out"
tq=$("$GGUFED" dump --shard "$scratch/v1/$S2" | awk '$1 == "tensor" &&
    $4 != "F32" { print $3; exit }')
"$GGUFED" convert -i --verify "$scratch/v1/$S1" "$tq" f32 \
    >"$scratch/out" 2>&1 &&
    grep -q "rewritten by the edit: $tq (F32)" "$scratch/out"
ok $? "--verify of a conversion in shard 2: named as rewritten" ||
    sed 's/^/# /' "$scratch/out"

# A byte of shard 1's new file changed while the save is held before its
# first fsync: --verify names the tensor and exits 1 (--rewrite: the
# shard is written anew, not in place).
v=$scratch/verify
rm -rf "$v" "$v.ref"
mkset "$v" && mkset "$v.ref" &&
    "$GGUFED" set -i -q "$v.ref/$S2" general.name '"verified"'
tv=$("$GGUFED" dump --shard "$v.ref/$S1" | awk '$1 == "tensor" {
    print $3; exit }')
off=$(( $("$GGUFED" dump --shard --json "$v.ref/$S1" |
    grep "{\"name\": \"$tv\"," |
    sed 's/.*"abs_offset": \([0-9]*\).*/\1/') + 3 ))
: >"$scratch/stall"
GGUFED_STALL="$scratch/stall" GGUFED_FAULT=fsync:1:stall \
    "$GGUFED" set -i --rewrite --verify "$v/$S2" general.name \
    '"verified"' >"$scratch/vout" 2>&1 &
vpid=$!
i=0
until tmp=$(ls -A "$v" | grep "^\.$S1\.ggufed-" | head -n 1) &&
    [ -n "$tmp" ] && cmp -s "$v/$tmp" "$v.ref/$S1"; do
	i=$((i + 1)); [ $i -lt 600 ] || break
	sleep 0.1
done
b=$(dd if="$v/$tmp" bs=1 skip=$off count=1 2>/dev/null | od -An -tu1 |
    tr -d ' ')
printf "\\$(printf '%03o' $(( (b + 1) % 256 )))" |
    dd of="$v/$tmp" bs=1 seek=$off conv=notrunc 2>/dev/null
rm -f "$scratch/stall"
wait $vpid
[ $? -eq 1 ] && grep -q "tensor data CHANGED: $tv" "$scratch/vout"
ok $? "--verify over a set: a byte changed in a new shard names its tensor" ||
    sed 's/^/# /' "$scratch/vout"

# The set saved as one file (-o) is a merge: split.count 0, as merge.
"$GGUFED" set -o "$scratch/one.gguf" -q "$w/$S2" general.name '"one"' &&
    [ "$("$GGUFED" get "$scratch/one.gguf" split.count)" = 0 ] &&
    [ "$("$GGUFED" get --shard "$w/$S1" general.name)" = routed ]
ok $? "-o still writes the set as one file, the set untouched"

# ------------------------------------------------------- the transaction

# The edit of the fault runs: every shard changes (a tensor of shard 2
# goes, split.tensors.count with it).
edit_set() {	# edit_set DIR SHARD
	"$GGUFED" rm-tensor -i -q "$1/$2" "$t2"
}
new=$scratch/new
mkset "$new"
edit_set "$new" $S3 2>"$scratch/err"
ok $? "the 3-shard edit saves without faults"
n=0
for s in $S1 $S2 $S3; do
	cmp -s "$new/$s" "$scratch/orig/$s" || n=$((n + 1))
done
[ "$n" -eq 3 ]
ok $? "it changes all three shards"
# Shards 1 and 3 only see split.tensors.count change: in place. Shard 2
# loses a tensor: rewritten.
mixed=$scratch/mixed
mkset "$mixed"
m1=$(ino "$mixed/$S1"); m2=$(ino "$mixed/$S2"); m3=$(ino "$mixed/$S3")
"$GGUFED" rm-tensor -i "$mixed/$S3" "$t2" >"$scratch/out" 2>&1 &&
    grep -q "wrote 3 of the set's 3 shards (2 in place, 2 bytes of header; 1 as new file, " \
    "$scratch/out" && [ "$(ino "$mixed/$S1")" = "$m1" ] &&
    [ "$(ino "$mixed/$S3")" = "$m3" ] && [ "$(ino "$mixed/$S2")" != "$m2" ] &&
    same_set "$mixed" "$new"
ok $? "shards 1 and 3 in place, shard 2 rewritten: the same bytes as a rewrite" ||
    sed 's/^/# /' "$scratch/out"
if [ "$have_oracle" = 1 ]; then
	tensors_of "$scratch/orig" | grep -v " \"$t2\" " >"$scratch/o.want"
	tensors_of "$new" >"$scratch/o.got"
	cmp -s "$scratch/o.want" "$scratch/o.got" &&
	    [ "$(wc -l <"$scratch/o.got")" -eq 38 ]
	ok $? "ggml reads every new shard: the 38 other tensors, same data"
else
	skip "ggml oracle unavailable"
fi

# fresh DIR: DIR holds a copy of the original set, and nothing else.
fresh() {
	rm -rf "$1"
	mkdir "$1"
	cp "$scratch/orig/"* "$1/"
}

# state DIR: "old", "new", or "mixed" (a shard of neither, or of both);
# new is the set $newref.
newref=$new
state() {
	if same_set "$1" "$scratch/orig"; then
		echo old
	elif same_set "$1" "$newref"; then
		echo new
	else
		echo mixed
	fi
}

# run_faults KIND: for each operation, the 1st, 2nd, ... call of it
# faulted (KIND crash: the process ends there; otherwise the errno), until
# a save no longer reaches that call. After each: a state that is old or
# new, or a journal; then recover on one shard (in turn), and the set
# must be old or new, with nothing left beside it.
bad=0
runs=0
run_faults() {
	for op in write fsync rename link unlink open close fallocate; do
		n=1
		clean=0
		while [ "$n" -lt 300 ] && [ "$clean" -lt 2 ]; do
			f=$scratch/f
			fresh "$f"
			GGUFED_FAULT="$op:$n:$1" $edit "$f" $S2 \
			    >/dev/null 2>"$scratch/ferr"
			st=$?
			runs=$((runs + 1))
			n=$((n + 1))
			if [ "$st" -eq 0 ]; then
				# The fault did not stop the save: it is new.
				[ "$(state "$f")" = new ] || {
				    echo "# $op:$((n - 1)):$1: exit 0, not new"
				    bad=$((bad + 1)); }
				# A crash that never came: the op is done.
				[ "$1" = crash ] && break
				clean=$((clean + 1))
				continue
			fi
			clean=0
			s=$(state "$f")
			if [ "$s" != old ] && [ "$s" != new ] &&
			    [ ! -e "$f/$S1.ggufed-journal" ]; then
				echo "# $op:$((n - 1)):$1: exit $st, $s, no journal"
				bad=$((bad + 1))
			fi
			k=$(( (n % 3) + 1 ))
			"$GGUFED" recover "$f/m-0000$k-of-00003.gguf" \
			    >/dev/null 2>"$scratch/rerr" || {
				echo "# $op:$((n - 1)):$1: recover: $(cat \
				    "$scratch/rerr")"
				bad=$((bad + 1)); }
			s=$(state "$f")
			case $s in
			old|new) ;;
			*)	echo "# $op:$((n - 1)):$1: $s after recover"
				bad=$((bad + 1)) ;;
			esac
			if [ "$(left "$f")" -ne 3 ]; then
				echo "# $op:$((n - 1)):$1: left $(ls -A "$f" |
				    tr '\n' ' ')"
				bad=$((bad + 1))
			fi
		done
	done
}
edit=edit_set
run_faults crash
ok $bad "a crash before each write, fsync, rename, link, unlink, open, close, fallocate ($runs runs): old or new after recover"
crash_runs=$runs
bad=0
runs=0
run_faults EIO
ok $bad "EIO at each of those calls ($runs runs): old or new, after recover"
[ "$crash_runs" -gt 30 ]
ok $? "the crash runs reached every step ($crash_runs runs)"

# The named steps, and recover given each shard in turn.
for step in set-journal-written set-shard-renamed set-shard-written \
    set-torn; do
	for k in 1 2 3; do
		f=$scratch/f
		fresh "$f"
		GGUFED_FAULT=$step edit_set "$f" $S1 2>/dev/null
		st=$?
		"$GGUFED" info "$f/m-0000$k-of-00003.gguf" >/dev/null \
		    2>"$scratch/ierr"
		grep -q "interrupted save left a journal" "$scratch/ierr"
		ok $? "$step (exit $st): info on shard $k says a journal is left"
		"$GGUFED" set -i -q "$f/m-0000$k-of-00003.gguf" general.name \
		    '"no"' 2>"$scratch/eerr"
		[ $? -eq 1 ] && grep -q "recover" "$scratch/eerr"
		ok $? "$step: an edit given shard $k is refused until recovered"
		"$GGUFED" recover "$f/m-0000$k-of-00003.gguf" >"$scratch/rout" \
		    2>&1 && grep -q "rolled back" "$scratch/rout" &&
		    [ "$(state "$f")" = old ] &&
		    [ "$(left "$f")" -eq 3 ]
		ok $? "$step: recover given shard $k rolls the whole set back"
	done
done
if [ "$have_oracle" = 1 ]; then
	tensors_of "$f" >"$scratch/o.rec" &&
	    tensors_of "$scratch/orig" >"$scratch/o.orig" &&
	    cmp -s "$scratch/o.rec" "$scratch/o.orig"
	ok $? "ggml reads the rolled back set as the original"
else
	skip "ggml oracle unavailable"
fi

# A save of two shards, both in place: a tensor renamed in shard 3 (to
# a name of the same length) and shard 1's name (10 bytes, all new: a
# torn write leaves half of them). The same faults, crash and EIO, at
# every call.
tr3=$(printf '%s' "$t3" | sed 's/^./x/')
edit_inplace() {	# edit_inplace DIR SHARD
	"$GGUFED" edit -i -q "$1/$2" -e 'set general.name "Omed Amall"' \
	    -e "rename $t3 $tr3"
}
ip=$scratch/ip
mkset "$ip"
i1=$(ino "$ip/$S1"); i3=$(ino "$ip/$S3")
edit_inplace "$ip" $S2 && "$GGUFED" dump --shard "$ip/$S3" |
    grep -q "^tensor [0-9]* $tr3 " && [ "$(ino "$ip/$S1")" = "$i1" ] &&
    [ "$(ino "$ip/$S3")" = "$i3" ] && cmp -s "$ip/$S2" "$scratch/orig/$S2"
[ "$("$GGUFED" get --shard "$ip/$S1" general.name)" = "Omed Amall" ]
ok $? "a save of shards 1 and 3, both in place"
newref=$ip
edit=edit_inplace
bad=0
runs=0
run_faults crash
ok $bad "both in place: a crash at each call ($runs runs): old or new after recover"
bad=0
runs=0
run_faults EIO
ok $bad "both in place: EIO at each call ($runs runs): old or new after recover"
for step in set-shard-written set-torn; do
	f=$scratch/f
	fresh "$f"
	GGUFED_FAULT=$step edit_inplace "$f" $S3 2>/dev/null
	st=$?
	s=$(state "$f")
	"$GGUFED" recover "$f/$S3" >"$scratch/rout" 2>&1 &&
	    grep -q "rolled back" "$scratch/rout" &&
	    [ "$(state "$f")" = old ] && [ "$(left "$f")" -eq 3 ]
	ok $? "both in place, $step (exit $st, $s): recover rolls both back" ||
	    sed 's/^/# /' "$scratch/rout"
done
# A shard saved in place, then changed by someone else before the
# recovery: not the file the journal saved, so nothing is rolled back.
f=$scratch/f
fresh "$f"
GGUFED_FAULT=set-torn edit_inplace "$f" $S3 2>/dev/null
printf x >>"$f/$S1"
cp "$f/$S1" "$scratch/s1.changed"
"$GGUFED" recover "$f/$S2" >"$scratch/rout" 2>&1
[ $? -ne 0 ] &&
    grep -q "$S1: it is not the file the journal saved (its size differs)" \
    "$scratch/rout" && [ -e "$f/$S1.ggufed-journal" ] &&
    cmp -s "$f/$S1" "$scratch/s1.changed"
ok $? "a shard changed after the crash: recover refuses, the journal stays" ||
    sed 's/^/# /' "$scratch/rout"
# The reboot after a crash may give the filesystem another device number:
# a set journal whose every entry names another device, the shards' inodes,
# sizes, times and headers being theirs, still rolls the set back.
f=$scratch/f
fresh "$f"
GGUFED_FAULT=set-torn edit_inplace "$f" $S3 2>/dev/null
if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 is not installed (to renumber the journal's devices)"
else
	# GGUFEDS2: magic, count, entries (kind, dev, ino, size, mtime x2,
	# then in place: off, len, region, two hashes, a path's length, the
	# path, old and new bytes; a rewrite: three lengths, three paths),
	# then the FNV-1a of all before it
	python3 - "$f/$S1.ggufed-journal" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
u = lambda at: struct.unpack_from('<Q', b, at)[0]
assert b[:8] == b'GGUFEDS2'
at = 16
for _ in range(u(8)):
    kind = u(at)
    struct.pack_into('<Q', b, at + 8, u(at + 8) ^ 0x5a5a)
    at += 48
    if kind == 1:
        at += 48 + u(at + 40) + 2 * u(at + 8)
    else:
        at += 24 + u(at) + u(at + 8) + u(at + 16)
h = 0xcbf29ce484222325
for c in b[:at]:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
struct.pack_into('<Q', b, at, h)
open(sys.argv[1], 'wb').write(b)
PY
	"$GGUFED" recover "$f/$S2" >"$scratch/rout" 2>&1 &&
	    grep -q "rolled back" "$scratch/rout" &&
	    [ "$(state "$f")" = old ] && [ "$(left "$f")" -eq 3 ]
	ok $? "a set journal of another device number (a reboot): rolled back" ||
	    sed 's/^/# /' "$scratch/rout"
fi
newref=$new
edit=edit_set

# Temporaries of killed rewrites beside shards 2 and 3 (their process is
# gone): info given shard 1 counts both, recover given shard 3 removes
# them, the set untouched.
f=$scratch/f
fresh "$f"
printf 'x' >"$f/.$S2.ggufed-2147483000-0-1"
printf 'yy' >"$f/.$S3.ggufed-2147483000-0-2"
"$GGUFED" info "$f/$S1" >/dev/null 2>"$scratch/err"
grep -q "left temporary files (3 B) beside the file" "$scratch/err"
ok $? "info on shard 1 reports the temporaries beside shards 2 and 3" ||
    sed 's/^/# /' "$scratch/err"
"$GGUFED" recover "$f/$S3" >/dev/null 2>&1 && [ "$(left "$f")" -eq 3 ] &&
    [ "$(state "$f")" = old ]
ok $? "recover given shard 3 removes both, the set as it was"

# The same set seen through links in another folder (a download cache's
# snapshot of blobs): the temporaries are found beside the shards the
# links lead to, whether the link named is shard 1's or shard 3's, and a
# shard that is a plain file among links is looked for in its own folder.
printf 'x' >"$f/.$S2.ggufed-2147483000-0-1"
printf 'yy' >"$f/.$S3.ggufed-2147483000-0-2"
mkdir -p "$scratch/snap"
rm -f "$scratch/snap/"*
for s in $S1 $S2 $S3; do ln -s "$f/$s" "$scratch/snap/$s"; done
"$GGUFED" info "$scratch/snap/$S1" >/dev/null 2>"$scratch/err"
grep -q "left temporary files (3 B) beside the file" "$scratch/err"
ok $? "through links: info on shard 1 reports the temporaries beside the shards" ||
    sed 's/^/# /' "$scratch/err"
rm "$scratch/snap/$S2"
cp "$f/$S2" "$scratch/snap/$S2"
"$GGUFED" info "$scratch/snap/$S3" >/dev/null 2>"$scratch/err"
grep -q "left a temporary file (2 B) beside the file" "$scratch/err"
ok $? "through links and a copy: only shard 3's temporary is its own" ||
    sed 's/^/# /' "$scratch/err"
rm -rf "$scratch/snap"
rm -f "$f/.$S2.ggufed-2147483000-0-1" "$f/.$S3.ggufed-2147483000-0-2"

# A save that committed and died before removing its backups: they go
# with the next recover; the set is the new one.
f=$scratch/f
fresh "$f"
n_unlink=$(GGUFED_FAULT=unlink:1:crash edit_set "$f" $S1 2>/dev/null; echo $?)
fresh "$f"
# The commit is the first unlink of the save (the journal); the second
# removes a backup (shard 2's: shards 1 and 3 are saved in place).
GGUFED_FAULT=unlink:2:crash edit_set "$f" $S1 2>/dev/null
[ $? -eq 75 ] && [ "$(state "$f")" = new ] &&
    [ ! -e "$f/$S1.ggufed-journal" ] && [ -e "$f/$S2.ggufed-old" ]
ok $? "a crash after the commit: the set is new, backups left ($n_unlink)"
"$GGUFED" info "$f/$S3" >/dev/null 2>"$scratch/err"
grep -q "a save of the set that completed left an old shard (.ggufed-old, [0-9.]* [KM]iB) beside the file: 'ggufed recover' removes it" \
    "$scratch/err"
ok $? "info on another shard says what the save left beside the set" ||
    sed 's/^/# /' "$scratch/err"
"$GGUFED" recover "$f/$S3" >"$scratch/rout" 2>&1 &&
    [ "$(state "$f")" = new ] && [ "$(left "$f")" -eq 3 ]
ok $? "recover removes them and keeps the new set"
[ "$(wc -l <"$scratch/rout")" -eq 1 ] && grep -q "$S3: removed 1 old shard (.ggufed-old, [0-9.]* [KM]iB) that a save of the set left after it completed (the set is the one saved)" \
    "$scratch/rout" && ! grep -q "temporary" "$scratch/rout"
ok $? "recover says they were the old shards of a completed save" ||
    sed 's/^/# /' "$scratch/rout"

# split and merge of a set whose save was interrupted name the set, not
# their output, and say to recover it.
f=$scratch/f
fresh "$f"
GGUFED_FAULT=set-journal-written edit_set "$f" $S1 2>/dev/null
"$GGUFED" merge "$f/$S2" "$scratch/merged.gguf" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -e "$scratch/merged.gguf" ] &&
    [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q "^ggufed: $f/$S2: the set has an interrupted save (its journal is still there): run 'ggufed recover' on it first" \
    "$scratch/err"
ok $? "merge of a set with a journal: names the set and says to recover" ||
    sed 's/^/# /' "$scratch/err"
mkdir -p "$scratch/resplit"
"$GGUFED" split -q "$f/$S3" "$scratch/resplit/x" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ -z "$(ls -A "$scratch/resplit")" ] &&
    grep -q "^ggufed: $f/$S3: the set has an interrupted save" "$scratch/err"
ok $? "split of it: the same" || sed 's/^/# /' "$scratch/err"

done_testing
