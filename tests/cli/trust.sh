#!/bin/sh
# trust.sh - recover obeys only journals and locks of its own.
#
# Beside a model in a folder anyone can write into (mode 1777), another
# user can leave a journal: everything recover checks (inode, size, time,
# the hashes of the header) can be computed by whoever can read the model.
# A journal (and a lock) is honoured only when it is a regular file of the
# user running ggufed that neither its group nor others can write, and a
# set's journal may name only the set's shards and their own temporary and
# backup names: anything else is refused, naming its owner, and nothing is
# touched. The forgeries are written as the user nobody (the tests run as
# root; skipped otherwise).
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
[ -f "$demo" ] || skip_all "no demo model"
[ "$(id -u)" -eq 0 ] ||
    skip_all "not root: a journal of another user cannot be made"
command -v runuser >/dev/null 2>&1 ||
    skip_all "runuser is not installed (to write as the user nobody)"
command -v python3 >/dev/null 2>&1 ||
    skip_all "python3 is not installed (to forge the journals)"
umask 022

# as_nobody FILE: stdin written to FILE by the user nobody.
as_nobody() {
	runuser -u nobody -- sh -c 'cat >"$1"' sh "$1"
}

# The shared folder, and a folder of the victim's beside it.
chmod 755 "$scratch"
shared="$scratch/shared"
victim="$scratch/victim"
mkdir "$shared" "$victim" && chmod 1777 "$shared"
printf 'config\n' >"$victim/config.txt"
printf 'secret\n' >"$victim/secret.txt"
cp -p "$victim/config.txt" "$scratch/config.ref"
cp -p "$victim/secret.txt" "$scratch/secret.ref"
echo "ok" | as_nobody "$shared/probe" && [ "$(stat -c %U "$shared/probe")" = \
    nobody ] || skip_all "the user nobody cannot write into a folder here"
rm -f "$shared/probe"

victim_intact() {
	cmp -s "$victim/config.txt" "$scratch/config.ref" &&
	    cmp -s "$victim/secret.txt" "$scratch/secret.ref"
}

cat >"$scratch/forge.py" <<'PY'
import os, struct, sys

def fnv(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h

def ident(path):
    st = os.stat(path)
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns // 10**9,
            st.st_mtime_ns % 10**9]

def q(*v):
    return b''.join(struct.pack('<Q', x) for x in v)

if sys.argv[1] == 'j2':
    # A journal whose "old" bytes rename the model "Evil Llama".
    model = sys.argv[2]
    m = open(model, 'rb').read()
    at = m.index(b'general.name') + len(b'general.name') + 4
    n = struct.unpack_from('<Q', m, at)[0]
    off = at + 8
    new = m[off:off + n]
    old = b'Evil Llama'.ljust(n)[:n]
    d = ident(model)
    head = b'GGUFEDJ2' + q(off, n, d[2], d[0], d[1], d[3], d[4], off + n,
                          fnv(m[:off]), fnv(b''), fnv(old), fnv(new))
    head += q(fnv(head))
    sys.stdout.buffer.write(head + old + new)
else:
    # A set journal: one rewritten entry, the backup's identity its own.
    target, tmp, bak = (p.encode() for p in sys.argv[2:5])
    d = ident(sys.argv[4])
    b = b'GGUFEDS2' + q(1) + q(0, *d) + q(len(target), len(tmp), len(bak))
    b += target + tmp + bak
    sys.stdout.buffer.write(b + q(fnv(b)))
PY

# --- the journal of one file

m="$shared/m.gguf"
cp_w "$demo" "$m"
cp "$m" "$scratch/m.ref"
python3 "$scratch/forge.py" j2 "$m" >"$scratch/j2" ||
    { echo "Bail out! the forger failed"; exit 1; }

# The forgery is sound: were the journal ours, recover would obey it.
cp "$demo" "$scratch/own.gguf"
python3 "$scratch/forge.py" j2 "$scratch/own.gguf" \
    >"$scratch/own.gguf.ggufed-journal"
"$GGUFED" recover "$scratch/own.gguf" >/dev/null 2>&1
[ "$("$GGUFED" get "$scratch/own.gguf" general.name)" = "Evil Llama" ]
ok $? "the forged journal, were it ours, names the model Evil Llama"

as_nobody "$m.ggufed-journal" <"$scratch/j2"
"$GGUFED" info "$m" >/dev/null 2>"$scratch/err"
! grep -q "run 'ggufed recover'" "$scratch/err" &&
    grep -q "a journal that is not ours is beside the file (owned by nobody, not by root): it is ignored" \
    "$scratch/err"
ok $? "info: a journal of nobody's gets no recover hint, it is ignored" ||
    sed 's/^/# /' "$scratch/err"
"$GGUFED" recover "$m" >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && cmp -s "$m" "$scratch/m.ref" && [ -e "$m.ggufed-journal" ] &&
    [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q "the journal beside the file is owned by nobody, not by root: not trusted, nothing was touched" \
    "$scratch/err"
ok $? "recover: a journal of nobody's is refused, the model untouched" ||
    sed 's/^/# /' "$scratch/err" "$scratch/out"
"$GGUFED" edit "$m" -i -e 'set llama.context_length 4096' >/dev/null \
    2>"$scratch/err"
[ $? -eq 1 ] && cmp -s "$m" "$scratch/m.ref" &&
    grep -q "not ours is beside the file (owned by nobody" "$scratch/err"
ok $? "edit -i refuses to save beside it, saying whose it is" ||
    sed 's/^/# /' "$scratch/err"
"$GGUFED" edit "$m" -o "$scratch/copy.gguf" -e 'set llama.context_length 4096' \
    >/dev/null 2>"$scratch/err" && cmp -s "$m" "$scratch/m.ref" &&
    [ "$("$GGUFED" get "$scratch/copy.gguf" llama.context_length)" = 4096 ]
ok $? "edit -o to another file: the journal is ignored" ||
    sed 's/^/# /' "$scratch/err"
printf '%s\n' "size 200x30" "dump $scratch/screen.txt" >"$scratch/script"
(cd "$scratch" && HOME=$scratch XDG_STATE_HOME=$scratch/state \
    GGUFED_SCRIPT=$scratch/script "$GGUFED" "$m") 2>"$scratch/err"
grep -q "a journal that is not ours is beside the file: it is ignored" \
    "$scratch/screen.txt" && ! grep -q "ggufed recover" "$scratch/screen.txt"
ok $? "the browser says it is ignored, and no recover hint" ||
    sed 's/^/# /' "$scratch/screen.txt" "$scratch/err"
rm -f "$m.ggufed-journal"

cp "$scratch/j2" "$m.ggufed-journal"
chmod 666 "$m.ggufed-journal"
"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && cmp -s "$m" "$scratch/m.ref" && [ -e "$m.ggufed-journal" ] &&
    grep -q "is writable by others (mode 0666, owner root): not trusted" \
    "$scratch/err"
ok $? "recover: root's journal of mode 0666 is refused, the model untouched" ||
    sed 's/^/# /' "$scratch/err"
chmod 620 "$m.ggufed-journal"
"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && cmp -s "$m" "$scratch/m.ref" &&
    grep -q "writable by its group" "$scratch/err"
ok $? "recover: one its group can write is refused too"
rm -f "$m.ggufed-journal"
cp "$scratch/j2" "$scratch/elsewhere"
chmod 600 "$scratch/elsewhere"
ln -s "$scratch/elsewhere" "$m.ggufed-journal"
"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && cmp -s "$m" "$scratch/m.ref" &&
    grep -q "symbolic link" "$scratch/err"
ok $? "recover: a journal that is a symbolic link is refused" ||
    sed 's/^/# /' "$scratch/err"
rm -f "$m.ggufed-journal"

# A real crash's journal, with a lock of nobody's beside it.
GGUFED_FAULT=journal-written "$GGUFED" edit "$m" -i \
    -e 'set llama.context_length 4096' >/dev/null 2>&1
rm -f "$m.ggufed-lock"
echo 1 | as_nobody "$m.ggufed-lock"
cp "$m" "$scratch/m.crashed"
"$GGUFED" recover "$m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ -e "$m.ggufed-journal" ] && cmp -s "$m" "$scratch/m.crashed" &&
    grep -q "the lock file beside the file is owned by nobody, not by root" \
    "$scratch/err"
ok $? "recover: a lock of nobody's is refused, naming its owner" ||
    sed 's/^/# /' "$scratch/err"
rm -f "$m.ggufed-lock"
"$GGUFED" recover "$m" >/dev/null 2>&1 && cmp -s "$m" "$scratch/m.ref"
ok $? "without it, the crash is recovered"

# --- the journal of a set

S1=m-00001-of-00003.gguf
"$GGUFED" split -q --max-tensors 15 "$demo" "$shared/m" ||
    { echo "Bail out! split failed"; exit 1; }
shards="$S1 m-00002-of-00003.gguf m-00003-of-00003.gguf"
for s in $shards; do
	cp "$shared/$s" "$scratch/$s.ref"
done
set_intact() {
	for s in $shards; do
		cmp -s "$shared/$s" "$scratch/$s.ref" || return 1
	done
}
j="$shared/$S1.ggufed-journal"

# nobody's: config.txt replaced by nobody's file, secret.txt removed.
echo "owned" | as_nobody "$shared/evil"
python3 "$scratch/forge.py" s2 "$victim/config.txt" "$victim/secret.txt" \
    "$shared/evil" | as_nobody "$j"
"$GGUFED" recover "$shared/$S1" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && victim_intact && set_intact && [ -e "$j" ] &&
    [ -e "$shared/evil" ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q "the set's journal is owned by nobody, not by root: not trusted, nothing was touched" \
    "$scratch/err"
ok $? "recover: a set journal of nobody's naming /victim is refused" ||
    sed 's/^/# /' "$scratch/err"
"$GGUFED" info "$shared/m-00002-of-00003.gguf" >/dev/null 2>"$scratch/err"
! grep -q "run 'ggufed recover'" "$scratch/err" &&
    grep -q "not ours" "$scratch/err"
ok $? "info on shard 2: no recover hint for it" || sed 's/^/# /' "$scratch/err"
rm -f "$j"

# root's own, 0600, naming paths that are not the set's.
forged() {	# forged TARGET TMP BAK: root's journal naming them
	python3 "$scratch/forge.py" s2 "$@" >"$j" && chmod 600 "$j"
}
cp "$shared/evil" "$scratch/evil"
forged "$victim/config.txt" "$victim/secret.txt" "$scratch/evil"
"$GGUFED" recover "$shared/$S1" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && victim_intact && set_intact && [ -e "$j" ] &&
    grep -q "names \"$victim/config.txt\", which is not a shard of the set" \
    "$scratch/err"
ok $? "recover: root's set journal naming /victim is refused" ||
    sed 's/^/# /' "$scratch/err"
forged "$shared/m-00002-of-00003.gguf" "$shared/../victim/secret.txt" \
    "$scratch/evil"
"$GGUFED" recover "$shared/$S1" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && victim_intact && set_intact &&
    grep -q "names \"$shared/../victim/secret.txt\"" "$scratch/err"
ok $? "recover: a shard's temporary name with .. in it is refused" ||
    sed 's/^/# /' "$scratch/err"
forged "$shared/m-00002-of-00003.gguf" \
    "$shared/.m-00002-of-00003.gguf.ggufed-1-0-1" "$victim/config.txt"
"$GGUFED" recover "$shared/$S1" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && victim_intact && set_intact &&
    grep -q "names \"$victim/config.txt\"" "$scratch/err"
ok $? "recover: a backup in another folder is refused" ||
    sed 's/^/# /' "$scratch/err"
chmod 666 "$j"
"$GGUFED" recover "$shared/$S1" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && set_intact && [ -e "$j" ] &&
    grep -q "the set's journal is writable by others (mode 0666, owner root)" \
    "$scratch/err"
ok $? "recover: root's set journal of mode 0666 is refused" ||
    sed 's/^/# /' "$scratch/err"
rm -f "$j"
# An incomplete one (shorter than a magic) of nobody's is not removed.
printf 'GGUF' | as_nobody "$j"
"$GGUFED" recover "$shared/$S1" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ -e "$j" ] && set_intact && grep -q "owned by nobody" \
    "$scratch/err"
ok $? "recover: an incomplete set journal of nobody's is left alone" ||
    sed 's/^/# /' "$scratch/err"
rm -f "$j"

# A set whose shards are links to files of other names (as in a model
# cache): its own journal names the files the links lead to, which are
# its shards, and it is rolled back through the set's names.
c="$scratch/cache"
mkdir "$c" "$c/blobs" "$c/snap"
for s in $shards; do
	cp "$scratch/$s.ref" "$c/blobs/h-$s"
	ln -s "../blobs/h-$s" "$c/snap/$s"
done
t2=$("$GGUFED" dump --shard "$c/snap/m-00002-of-00003.gguf" |
    awk '$1 == "tensor" { print $3; exit }')
GGUFED_FAULT=set-shard-renamed "$GGUFED" rm-tensor -i -q \
    "$c/snap/m-00002-of-00003.gguf" "$t2" 2>/dev/null
"$GGUFED" recover "$c/snap/m-00003-of-00003.gguf" >"$scratch/out" \
    2>"$scratch/err" && grep -q "rolled back" "$scratch/out" &&
    cmp -s "$c/blobs/h-m-00002-of-00003.gguf" \
    "$scratch/m-00002-of-00003.gguf.ref" &&
    [ ! -e "$c/blobs/h-$S1.ggufed-journal" ]
ok $? "a set of links (a model cache): its own journal is obeyed" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"

done_testing
