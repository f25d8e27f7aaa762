#!/bin/sh
# saves.sh - a save neither clobbers nor leaks.
#
# Not over another file, a read-only file or into a read-only directory
# unless forced (the mode bits decide, so this holds for the superuser
# too), and a forced save keeps the mode. The rewrite's temporary file is
# private while it is written. One save or recovery of a file at a time:
# another one is refused, naming the process, and a lock left by a dead
# process is taken over. The journal of an in-place save names its file:
# recovery writes into no other. Links are followed once, for the journal
# as for the file. A header torn by a crash shows the recover hint with
# the parse error; a killed rewrite's temporary file is reported with its
# size; a file with several hard links is told what a save does to them.
#
# A save is held half-way with GGUFED_FAULT=OP:N:stall (src/base/io.c):
# the Nth call of OP waits while the file $GGUFED_STALL exists.
. "$TESTS_SRCDIR/lib.sh"

src="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
[ -f "$src" ] || skip_all "no demo model"
dir="$scratch/d"
mkdir "$dir"
m="$dir/m.gguf"
old="$scratch/old.gguf"
cp_w "$src" "$old"
chmod 644 "$old"
umask 022

rw_edit='general.name "A name long enough to make the header grow"'
ip_edit='llama.context_length 4096'
"$GGUFED" edit "$old" -o "$scratch/new-rw.gguf" -e "set $rw_edit" >/dev/null &&
    "$GGUFED" edit "$old" -o "$scratch/new-ip.gguf" -e "set $ip_edit" \
    >/dev/null &&
    "$GGUFED" edit "$old" -o "$scratch/other.gguf" \
    -e 'set llama.context_length 8192' >/dev/null
ok $? "reference saves"
[ "$(stat -c %s "$scratch/other.gguf")" = "$(stat -c %s "$old")" ]
ok $? "the other file has the model's size"

sane() {
	! grep -q -E 'Sanitizer|runtime error' "$scratch/err"
}

# leftovers: what is in the directory besides the model.
leftovers() {
	ls -A "$dir" | grep -v '^m\.gguf$'
}

# edit ARGS...: an edit of the model; sets rc, output in out and err.
edit() {
	"$GGUFED" edit "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
}

# wait_for COMMAND...: until it succeeds, at most 20 s.
wait_for() {
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
		sleep 0.1
	done
}

# --- not over another file, nor a read-only one, unless forced

cp "$old" "$m"
cp "$scratch/other.gguf" "$scratch/out.gguf"
edit "$m" -o "$scratch/out.gguf" -e "set $rw_edit"
[ $rc -eq 1 ] && sane && cmp -s "$scratch/out.gguf" "$scratch/other.gguf" &&
    grep -q "exists: not overwriting it unless forced (--force)" "$scratch/err"
ok $? "-o onto an existing file: refused, the file untouched"
sed 's/^/# /' "$scratch/err"
edit "$m" -o "$scratch/out.gguf" -n -e "set $rw_edit"
[ $rc -eq 1 ] && grep -q "exists" "$scratch/err"
ok $? "--dry-run says so too"
edit "$m" -o "$scratch/out.gguf" --force -e "set $rw_edit"
[ $rc -eq 0 ] && cmp -s "$scratch/out.gguf" "$scratch/new-rw.gguf"
ok $? "-o --force onto an existing file: written"

chmod 444 "$m"
edit "$m" -i -e "set $ip_edit"
[ $rc -eq 1 ] && cmp -s "$m" "$old" &&
    grep -q "read-only (mode 0444).*unless forced (--force)" "$scratch/err"
ok $? "-i on a file of mode 0444: refused (even for the superuser)"
edit "$m" -i --force -e "set $ip_edit"
[ $rc -eq 0 ] && cmp -s "$m" "$scratch/new-ip.gguf" &&
    [ "$(stat -c %a "$m")" = 444 ] && [ -z "$(leftovers)" ]
ok $? "-i --force on it: saved, still mode 0444"
chmod 644 "$m"

chmod 444 "$scratch/out.gguf"
edit "$m" -o "$scratch/out.gguf" --force -e "set $rw_edit"
[ $rc -eq 0 ] && [ "$(stat -c %a "$scratch/out.gguf")" = 444 ]
ok $? "-o --force onto a read-only file keeps its mode"

cp "$old" "$m"
chmod 555 "$dir"
edit "$m" -i -e "set $ip_edit"
[ $rc -eq 1 ] && cmp -s "$m" "$old" &&
    grep -q "directory .* is read-only (mode 0555)" "$scratch/err"
ok $? "-i in a read-only directory: refused"
if [ "$(id -u)" = 0 ]; then
	edit "$m" -i --force -e "set $rw_edit"
	[ $rc -eq 0 ] && cmp -s "$m" "$scratch/new-rw.gguf"
	ok $? "-i --force there: saved (the superuser may)"
fi
chmod 755 "$dir"

# --- the temporary file is private while it is written

cp "$old" "$m"
chmod 640 "$m"
flag="$scratch/stall"
: >"$flag"
GGUFED_STALL="$flag" GGUFED_FAULT=write:1:stall "$GGUFED" edit "$m" -i \
    -e "set $rw_edit" >"$scratch/out1" 2>"$scratch/err1" &
pid=$!
temp_name() {
	ls -A "$dir" | grep '^\.m\.gguf\.ggufed-'
}
wait_for temp_name >/dev/null
tmp=$(temp_name)
mode=$(stat -c %a "$dir/$tmp" 2>/dev/null)
[ "$mode" = 600 ]
ok $? "the temporary file of a rewrite is 0600 while it is written (is $mode)"
rm -f "$flag"
wait $pid
rc=$?
[ $rc -eq 0 ] && cmp -s "$m" "$scratch/new-rw.gguf" &&
    [ "$(stat -c %a "$m")" = 640 ] && [ -z "$(leftovers)" ]
ok $? "then the file has its mode, 0640 (exit $rc)"
chmod 644 "$m"

# --- one save at a time

# A save held after its journal is written, before the header is: the
# journal's three writes, then the model's.
cp "$old" "$m"
: >"$flag"
GGUFED_STALL="$flag" GGUFED_FAULT=write:4:stall "$GGUFED" edit "$m" -i \
    -e "set $ip_edit" >"$scratch/out1" 2>"$scratch/err1" &
pid=$!
wait_for test -e "$m.ggufed-journal"
edit "$m" -i -e 'set llama.block_count 9'
[ $rc -eq 1 ] && grep -q "being saved by process $pid" "$scratch/err"
ok $? "a second save during an in-place save: refused, naming process $pid"
sed 's/^/# /' "$scratch/err"
"$GGUFED" recover "$m" >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && grep -q "being saved by process $pid" "$scratch/err" &&
    [ -e "$m.ggufed-journal" ]
ok $? "recover during it: refused, the journal of the live save kept"
sed 's/^/# /' "$scratch/err"
"$GGUFED" info "$m" >/dev/null 2>"$scratch/err"
grep -q "being saved by process $pid" "$scratch/err"
ok $? "info says the file is being saved"
rm -f "$flag"
wait $pid
rc=$?
[ $rc -eq 0 ] && cmp -s "$m" "$scratch/new-ip.gguf" && [ -z "$(leftovers)" ]
ok $? "the held save then completes (exit $rc), nothing left beside"

cp "$old" "$m"
: >"$flag"
GGUFED_STALL="$flag" GGUFED_FAULT=write:1:stall "$GGUFED" edit "$m" -i \
    -e "set $rw_edit" >"$scratch/out1" 2>"$scratch/err1" &
pid=$!
wait_for test -e "$m.ggufed-lock"
edit "$m" -i --force -e "set $ip_edit"
[ $rc -eq 1 ] && grep -q "being saved by process $pid" "$scratch/err"
ok $? "a second save during a rewrite: refused, even forced"
"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "being saved by process $pid" "$scratch/err"
ok $? "recover during a rewrite: refused"
rm -f "$flag"
wait $pid
rc=$?
[ $rc -eq 0 ] && cmp -s "$m" "$scratch/new-rw.gguf" && [ -z "$(leftovers)" ]
ok $? "the rewrite then completes (exit $rc)"

# A dead process's lock: taken over.
cp "$old" "$m"
sh -c 'echo $$' >"$m.ggufed-lock"
dead=$(cat "$m.ggufed-lock")
edit "$m" -i -e "set $ip_edit"
[ $rc -eq 0 ] && grep -q "took over the lock that process $dead left" \
    "$scratch/err" && cmp -s "$m" "$scratch/new-ip.gguf" &&
    [ -z "$(leftovers)" ]
ok $? "a lock left by a dead process: taken over and cleared"
cp "$old" "$m"
GGUFED_FAULT=journal-written "$GGUFED" edit "$m" -i -e "set $ip_edit" \
    >/dev/null 2>&1
"$GGUFED" recover "$m" >"$scratch/out" 2>"$scratch/err" &&
    cmp -s "$m" "$old" && [ -z "$(leftovers)" ]
ok $? "recover after a crash: the crashed save's lock goes too"

# --- the journal names its file

# crash: an in-place save that stops dead once its journal is written.
crash() {
	cp "$old" "$m"
	GGUFED_FAULT=journal-written "$GGUFED" edit "$m" -i -e "set $ip_edit" \
	    >/dev/null 2>&1
	[ -e "$m.ggufed-journal" ]
}

crash && cp "$scratch/other.gguf" "$m"
"$GGUFED" recover "$m" >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && sane && cmp -s "$m" "$scratch/other.gguf" &&
    [ -e "$m.ggufed-journal" ] && grep -q "not the file the journal" \
    "$scratch/err"
ok $? "another file of the same size copied over it: recover refuses, touches nothing"
sed 's/^/# /' "$scratch/err"
rm -f "$m.ggufed-journal"
crash && cp "$scratch/other.gguf" "$dir/x" && mv "$dir/x" "$m"
"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && cmp -s "$m" "$scratch/other.gguf" &&
    grep -q "another file" "$scratch/err"
ok $? "another file renamed over it: recover refuses"
rm -f "$m.ggufed-journal"
crash && head -c "$(stat -c %s "$old")" /dev/zero >"$m"
"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ -z "$(tr -d '\0' <"$m" | head -c 1)" ]
ok $? "zeros of the same size written into it: recover refuses"
rm -f "$m.ggufed-journal"
cp "$old" "$m"
GGUFED_FAULT=torn "$GGUFED" edit "$m" -i -e "set $ip_edit" >/dev/null 2>&1
"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err" && cmp -s "$m" "$old" &&
    [ -z "$(leftovers)" ]
ok $? "the torn file itself: recovered to the old bytes"
# The reboot after a crash may give the filesystem another device number
# (btrfs subvolumes, LVM, removable disks): a journal whose device differs,
# while the inode, size, time and header are the file's, still rolls back.
cp "$old" "$m"
GGUFED_FAULT=torn "$GGUFED" edit "$m" -i -e "set $ip_edit" >/dev/null 2>&1
if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 is not installed (to renumber the journal's device)"
	rm -f "$m.ggufed-journal"
else
	# the device field (bytes 32-39), then the head's FNV-1a (104-111)
	python3 - "$m.ggufed-journal" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<Q', b, 32, struct.unpack_from('<Q', b, 32)[0] ^ 0x5a5a)
h = 0xcbf29ce484222325
for c in b[:104]:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
struct.pack_into('<Q', b, 104, h)
open(sys.argv[1], 'wb').write(b)
PY
	"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err" &&
	    cmp -s "$m" "$old" && [ -z "$(leftovers)" ]
	ok $? "a journal of another device number (a reboot): recovered" ||
	    sed 's/^/# /' "$scratch/err"
fi

# --- links are followed once

cp "$old" "$m"
ln -s m.gguf "$dir/link.gguf"
GGUFED_FAULT=torn "$GGUFED" edit "$dir/link.gguf" -i -e "set $ip_edit" \
    >/dev/null 2>&1
[ -e "$m.ggufed-journal" ] && [ ! -e "$dir/link.gguf.ggufed-journal" ]
ok $? "through a symlink, the journal goes beside the real file"
"$GGUFED" info "$dir/link.gguf" >/dev/null 2>"$scratch/err"
grep -q recover "$scratch/err"
ok $? "info LINK finds it"
"$GGUFED" recover "$dir/link.gguf" >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 0 ] && grep -q "rolled back" "$scratch/out" && cmp -s "$m" "$old" &&
    [ ! -e "$m.ggufed-journal" ]
ok $? "recover LINK rolls it back"
sed 's/^/# /' "$scratch/out" "$scratch/err"
rm -f "$dir/link.gguf"

# --- a torn header: the hint with the parse error

"$GGUFED" edit "$old" -o "$scratch/res.gguf" --reserve 4096 \
    -e 'set general.name "x"' >/dev/null
cp "$scratch/res.gguf" "$m"
GGUFED_FAULT=torn "$GGUFED" edit "$m" -i \
    -e 'set general.name "a much longer name than before, held by the reserve"' \
    >/dev/null 2>&1
"$GGUFED" info "$m" >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && grep -q "offset 0x" "$scratch/err" &&
    grep -q "journal: run 'ggufed recover'" "$scratch/err"
ok $? "info on a torn header: the parse error and the recover hint"
sed 's/^/# /' "$scratch/err"
"$GGUFED" validate "$m" >"$scratch/out" 2>&1
[ $? -eq 1 ] && grep -q ": error: " "$scratch/out" &&
    grep -q "recover" "$scratch/out"
ok $? "validate on it: the error and the hint"
"$GGUFED" recover "$m" >/dev/null 2>&1 && cmp -s "$m" "$scratch/res.gguf"
ok $? "recover repairs it"

# --- recover of a file that is not there

"$GGUFED" recover "$dir/missing.gguf" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -s "$scratch/out" ] &&
    [ "$(cat "$scratch/err")" = "ggufed: $dir/missing.gguf: No such file or directory" ]
ok $? "recover of a file that does not exist: one line, exit 1" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"

# --- a killed rewrite's temporary file, with its size

cp "$old" "$m"
GGUFED_FAULT=kill:2000000 "$GGUFED" edit "$m" -i -e "set $rw_edit" \
    >/dev/null 2>&1
"$GGUFED" info "$m" >/dev/null 2>"$scratch/err"
grep -q "temporary file ([0-9.]* [KM]iB)" "$scratch/err"
ok $? "info gives the size of a killed rewrite's temporary file"
sed 's/^/# /' "$scratch/err"
"$GGUFED" validate "$m" >"$scratch/out" 2>&1
grep -q "warning: .*temporary file ([0-9.]* [KM]iB)" "$scratch/out"
ok $? "validate too"
"$GGUFED" recover "$m" >"$scratch/out" 2>&1 &&
    [ "$(wc -l <"$scratch/out")" -eq 1 ] &&
    grep -q "m.gguf: removed 1 temporary file ([0-9.]* [KM]iB): the new file of a save that was cut off before it replaced anything (the file itself was not modified)" \
    "$scratch/out" &&
    [ -z "$(leftovers)" ]
ok $? "recover removes it and says how much, and what it was"

# --- hard links

cp "$old" "$m"
ln "$m" "$dir/other-name.gguf"
edit "$m" -i -n -e "set $ip_edit"
[ $rc -eq 0 ] && grep -q "2 names (hard links): saving in place changes them all" \
    "$scratch/err"
ok $? "in place, hard links: every name changes, and it says so"
edit "$m" -i -n -e "set $rw_edit"
[ $rc -eq 0 ] && grep -q "2 names (hard links): a rewrite changes this one only" \
    "$scratch/err"
ok $? "a rewrite: only this name, and it says so"
rm -f "$dir/other-name.gguf"

done_testing
