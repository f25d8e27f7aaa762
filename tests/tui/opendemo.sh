#!/bin/sh
# opendemo.sh - the README's first command ends in build-aux/opendemo: the
# browser opens a copy of the demo model made in the build folder and says
# so on its first screen; a save in the browser writes the copy, never the
# tracked demo; a copy edited before is kept, not copied over; and the
# browser's --message is checked for its usage errors.
. "$TESTS_SRCDIR/lib.sh"

top=$TESTS_SRCDIR/..
DEMO=$top/assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC
HOME=$scratch/home XDG_STATE_HOME=$scratch/state
mkdir -p "$HOME"
export TERM LANG LC_ALL TZ HOME XDG_STATE_HOME
unset NO_COLOR EDITRC VISUAL EDITOR
before=$(cksum <"$DEMO")
copy=$scratch/demo/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf

# run NAME: build-aux/opendemo into $scratch/demo, the first screen dumped,
# a name set and saved with :w, the screen dumped again.
run() {
	printf '%s\n' "size 80x24" "dump $scratch/$1-first.txt" "keys :" \
	    "type set general.name $1" "keys <Enter>" "keys :" "type w" \
	    "keys <Enter>" "dump $scratch/$1-saved.txt" "keys :" "type q" \
	    "keys <Enter>" >"$scratch/$1.script"
	GGUFED_SCRIPT=$scratch/$1.script "$top/build-aux/opendemo" \
	    "$GGUFED" "$scratch/demo" 2>"$scratch/err"
}

run first
ok $? "opendemo opens the browser and quits with status 0"
grep -q "a copy of the demo model: saves go to it in $scratch/demo" \
    "$scratch/first-first.txt"
ok $? "the first screen says that the file is a copy of the demo"
[ "$(cksum <"$DEMO")" = "$before" ]
ok $? "a save in the browser leaves the tracked demo as it was"
[ "$("$GGUFED" get "$copy" general.name)" = first ]
ok $? "... and goes to the copy"
run second
[ "$("$GGUFED" get "$copy" general.name)" = second ] &&
    grep -q "your edited copy of the demo model, in $scratch/demo" \
    "$scratch/second-first.txt"
ok $? "a second run opens the copy edited before (kept, not copied over) and says so"
printf '%s\n' "size 120x24" "keys :" "type messages" "keys <Enter>" \
    "dump $scratch/log.txt" "keys q" "keys :" "type q" "keys <Enter>" \
    >"$scratch/log.script"
GGUFED_SCRIPT=$scratch/log.script "$top/build-aux/opendemo" "$GGUFED" \
    "$scratch/demo" 2>"$scratch/err"
grep -q "remove it for a fresh one" "$scratch/log.txt"
ok $? "... and how to start afresh (the whole message, in :messages)"
rm "$copy"
run third
grep -q "a copy of the demo model: saves go to it" "$scratch/third-first.txt" &&
    ! grep -q "edited copy" "$scratch/third-first.txt"
ok $? "removed, a fresh copy: not called edited"

# The browser's own arguments.
"$GGUFED" --message 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "^ggufed: --message needs a text" "$scratch/err"
ok $? "--message without a text: a usage error"
"$GGUFED" --message hello 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "^ggufed: no file to browse" "$scratch/err"
ok $? "--message without a file: a usage error"
"$GGUFED" --message hello "$copy" extra 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "unknown command" "$scratch/err"
ok $? "two files: not a browser's arguments"
printf '%s\n' "size 80x24" "dump $scratch/order.txt" "keys :" "type q" \
    "keys <Enter>" >"$scratch/order.script"
GGUFED_SCRIPT=$scratch/order.script "$GGUFED" --message=hi --shard "$copy" \
    2>"$scratch/err" && grep -q "hi" "$scratch/order.txt"
ok $? "--message=TEXT and --shard in any order before the file"

done_testing
