#!/bin/sh
# fifo.sh - a FIFO (or a device) named like a model, a shard, a journal or
# a rescue script is refused at once, never waited on: every command and
# the browser say "not a regular file", exit 1. A FIFO given as a manifest,
# a script or a value (@FILE) is read when a process writes to it, and
# refused at once when none does. A device that never ends (/dev/zero),
# a file too large for a value and a stream of NUL bytes are refused at
# once, under a memory limit (where the build can run under one: the
# address sanitizer cannot) and a short timeout. Each command runs under a generous
# timeout, with SIGKILL (the browser does not end on SIGTERM while it
# waits): without the fix it waits forever in open().
. "$TESTS_SRCDIR/lib.sh"

command -v mkfifo >/dev/null 2>&1 || skip_all "no mkfifo"
command -v timeout >/dev/null 2>&1 || skip_all "no timeout"
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
cp_w "$demo" "$scratch/a.gguf" || { echo "Bail out! no demo model"; exit 1; }
mkfifo "$scratch/f.gguf" || { echo "Bail out! mkfifo"; exit 1; }
HOME=$scratch/home XDG_STATE_HOME=$scratch/state
export HOME XDG_STATE_HOME
mkdir -p "$HOME"

# run ARGS...: ggufed under a timeout; stdout in out, stderr in err.
run() {
	timeout -s KILL 60 "$GGUFED" "$@" >"$scratch/out" 2>"$scratch/err" </dev/null
	rc=$?
}

for c in info dump validate mem "stats --all" "get general.name" \
    "set general.name x -i" "hash" "hash --file" "tokens" "cat x" \
    "template"; do
	# shellcheck disable=SC2086
	set -- $c
	cmd=$1
	shift
	run "$cmd" "$scratch/f.gguf" "$@"
	[ $rc -ne 137 ] && [ $rc -ne 0 ] &&
	    cat "$scratch/out" "$scratch/err" |
	    grep -q "f.gguf: .*not a regular file"
	ok $? "$cmd on a FIFO: refused at once, said so" ||
	    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
done
run diff "$scratch/a.gguf" "$scratch/f.gguf"
[ $rc -ne 137 ] && [ $rc -ne 0 ] && grep -q "not a regular file" "$scratch/err"
ok $? "diff A FIFO: refused at once"
run diff "$scratch/f.gguf" "$scratch/a.gguf"
[ $rc -ne 137 ] && [ $rc -ne 0 ] && grep -q "not a regular file" "$scratch/err"
ok $? "diff FIFO A: refused at once"

# A set whose second shard is a FIFO; a FIFO as the first shard's journal.
mkdir "$scratch/set"
"$GGUFED" split --max-tensors 20 "$demo" "$scratch/set/m" >/dev/null 2>&1
n=$(ls "$scratch/set" | wc -l)
s2=$(ls "$scratch/set" | sed -n 2p)
rm "$scratch/set/$s2" && mkfifo "$scratch/set/$s2"
s1=$(ls "$scratch/set" | sed -n 1p)
run info "$scratch/set/$s1"
[ "$n" -ge 2 ] && [ $rc -ne 137 ] && [ $rc -ne 0 ] &&
    grep -q "not a regular file" "$scratch/err"
ok $? "a set with a FIFO for a shard: refused at once" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
run validate "$scratch/set/$s1"
[ $rc -ne 137 ] && [ $rc -ne 0 ] &&
    cat "$scratch/out" "$scratch/err" | grep -q "not a regular file"
ok $? "validate of that set: refused at once"
mkdir "$scratch/set2"
"$GGUFED" split --max-tensors 20 "$demo" "$scratch/set2/m" >/dev/null 2>&1
s1=$(ls "$scratch/set2" | sed -n 1p)
s2=$(ls "$scratch/set2" | sed -n 2p)
mkfifo "$scratch/set2/$s1.ggufed-journal"
run info "$scratch/set2/$s2"
[ $rc -ne 137 ]
ok $? "a FIFO as the set's journal: info does not wait on it" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
run recover "$scratch/set2/$s2"
[ $rc -ne 137 ]
ok $? "recover does not wait on it either" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
rm "$scratch/set2/$s1.ggufed-journal"
mkfifo "$scratch/a.gguf.ggufed-journal"
run recover "$scratch/a.gguf"
[ $rc -ne 137 ] && [ $rc -ne 0 ] && grep -q "not a regular file" "$scratch/err"
ok $? "a FIFO as a file's journal: recover refuses it at once" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
rm "$scratch/a.gguf.ggufed-journal"
mkfifo "$scratch/a.gguf.ggufed-lock"
run info "$scratch/a.gguf"
[ $rc -eq 0 ]
ok $? "a FIFO as a file's lock: info does not wait on it"
run recover "$scratch/a.gguf"
[ $rc -ne 137 ]
ok $? "a FIFO as a file's lock: recover does not wait on it"
rm -f "$scratch/a.gguf.ggufed-lock"

# Text the user names: a FIFO no process writes to is refused at once...
mkfifo "$scratch/t"
"$GGUFED" hash "$scratch/a.gguf" >"$scratch/manifest"
run hash --check "$scratch/t" "$scratch/a.gguf"
[ $rc -eq 2 ] && grep -q "cannot open the manifest: a FIFO no process writes to" "$scratch/err"
ok $? "hash --check FIFO with no writer: refused at once" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
run set "$scratch/a.gguf" general.name @"$scratch/t" -n
[ $rc -ne 137 ] && [ $rc -ne 0 ] && grep -q "a FIFO no process writes to" "$scratch/err"
ok $? "set KEY @FIFO with no writer: refused at once"
run edit "$scratch/a.gguf" -n -f "$scratch/t"
[ $rc -ne 137 ] && [ $rc -ne 0 ] && grep -q "a FIFO no process writes to" "$scratch/err"
ok $? "edit -f FIFO with no writer: refused at once"
# ...and one some process writes to is read, as are pipes.
(sleep 0; cat "$scratch/manifest") | timeout -s KILL 60 "$GGUFED" hash --check \
    /dev/stdin "$scratch/a.gguf" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && grep -q ' -  Ok$' "$scratch/out"
ok $? "hash --check of a pipe: read"
{ cat "$scratch/manifest" >"$scratch/t"; } &
writer=$!
timeout -s KILL 60 "$GGUFED" hash --check "$scratch/t" "$scratch/a.gguf" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
kill "$writer" 2>/dev/null	# still waiting for a reader, if refused
wait "$writer" 2>/dev/null
# The writer may open the FIFO after ggufed does (then it is refused at
# once, said so) or before (then it is read): never a wait.
{ [ $rc -eq 0 ] && grep -q ' -  Ok$' "$scratch/out"; } ||
    { [ $rc -eq 2 ] && grep -q "a FIFO no process writes to" "$scratch/err"; }
ok $? "hash --check of a FIFO with a writer: read, or refused, never waited on"
printf 'Named' | timeout -s KILL 60 "$GGUFED" set "$scratch/a.gguf" general.name \
    @/dev/stdin -o "$scratch/b.gguf" -q 2>"$scratch/err"
[ "$("$GGUFED" get "$scratch/b.gguf" general.name)" = "Named" ]
ok $? "set KEY @/dev/stdin from a pipe: read" || sed 's/^/# /' "$scratch/err"

# A device that never ends, a file too large, a stream of NUL bytes: each
# refused at once (a read to the end would fill the memory). Under a
# memory limit of 1 GiB where the build runs under one, and 10 seconds,
# so that a regression fails, not the machine.
if ( ulimit -v 1048576 && "$GGUFED" --version ) >/dev/null 2>&1; then
	limit() { ( ulimit -v 1048576; "$@" ); }
else
	limit() { "$@"; }
fi
if [ -c /dev/zero ]; then
	for c in "edit A -n -f /dev/zero" "hash --check /dev/zero A" \
	    "set A general.name @/dev/zero -n" \
	    "template A --template-file /dev/zero" \
	    "template A --messages @/dev/zero"; do
		# shellcheck disable=SC2086
		set -- $c
		cmd=$1
		shift
		for w; do
			shift
			[ "$w" = A ] && w=$scratch/a.gguf
			set -- "$@" "$w"
		done
		limit timeout -s KILL 10 "$GGUFED" "$cmd" "$@" >/dev/null \
		    2>"$scratch/err" </dev/null
		rc=$?
		[ $rc -ne 0 ] && [ $rc -ne 137 ] &&
		    grep -q "/dev/zero.*not a regular file, a pipe or a terminal" \
		    "$scratch/err"
		ok $? "$cmd $*: /dev/zero refused at once" ||
		    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
	done
else
	skip "no /dev/zero"
fi
truncate -s 3G "$scratch/big.bin" 2>/dev/null ||
    dd if=/dev/null of="$scratch/big.bin" bs=1 seek=3G 2>/dev/null
limit timeout -s KILL 10 "$GGUFED" set "$scratch/a.gguf" general.name \
    @"$scratch/big.bin" -n >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q "big.bin: too large (3.0 GiB; a value takes at most 256 MiB)" \
    "$scratch/err"
ok $? "a 3 GiB file as a value: refused by its size, unread" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
limit timeout -s KILL 10 "$GGUFED" template "$scratch/a.gguf" \
    --template-file "$scratch/big.bin" >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 137 ] && grep -q "too large" "$scratch/err"
ok $? "a 3 GiB template file: refused by its size, unread" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
rm -f "$scratch/big.bin"
head -c 3000000 /dev/zero | limit timeout -s KILL 10 "$GGUFED" edit \
    "$scratch/a.gguf" -n -f - >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q -- "-:1: a NUL byte in the line: not a script" \
    "$scratch/err"
ok $? "a script of NUL bytes from a pipe: refused at its first byte" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
printf 'xxh64 0123456789abcdef  a.gguf\0' >"$scratch/nul.txt"
limit timeout -s KILL 10 "$GGUFED" hash --check "$scratch/nul.txt" \
    "$scratch/a.gguf" >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q "nul.txt: line 1: a NUL byte: not a manifest" \
    "$scratch/err"
ok $? "a manifest with a NUL byte: refused, its line named" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }

# The browser: the model a FIFO, a rescue script a FIFO.
printf 'size 80x24\nkeys q\n' >"$scratch/s.script"
GGUFED_SCRIPT=$scratch/s.script timeout -s KILL 60 "$GGUFED" "$scratch/f.gguf" \
    >/dev/null 2>"$scratch/err" </dev/null
rc=$?
[ $rc -ne 137 ] && [ $rc -ne 0 ] && grep -q "not a regular file" "$scratch/err"
ok $? "the browser on a FIFO: refused at once" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
mkdir -p "$XDG_STATE_HOME/ggufed/rescue"
mkfifo "$XDG_STATE_HOME/ggufed/rescue/a.gguf-20990101-000000-1.ged"
printf 'size 80x24\ndump %s\nkeys q\n' "$scratch/screen" >"$scratch/s.script"
GGUFED_SCRIPT=$scratch/s.script timeout -s KILL 60 "$GGUFED" "$scratch/a.gguf" \
    >/dev/null 2>"$scratch/err" </dev/null
rc=$?
[ $rc -eq 0 ] && grep -q "Sections" "$scratch/screen"
ok $? "a FIFO among the rescue scripts: the browser starts" ||
    { echo "# exit $rc"; sed 's/^/# /' "$scratch/err"; }
done_testing
