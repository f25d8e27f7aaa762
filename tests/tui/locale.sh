#!/bin/sh
# locale.sh - the browser takes the character set from the user's locale
# and nothing else: in a German locale its numbers are written and read
# as the command line's are (13.69, and a value 10000.5 is a number), and
# its screen is still UTF-8. The locale is compiled into the scratch
# directory (localedef), so the machine needs none installed.
. "$TESTS_SRCDIR/lib.sh"

BV=$SHARED_DIR/fixtures/ggml/big-vocab.gguf
[ -f "$BV" ] || skip_all "no big-vocab fixture"
command -v localedef >/dev/null 2>&1 || skip_all "no localedef"
LOCPATH=$scratch/locales
mkdir -p "$LOCPATH"
localedef -i de_DE -f UTF-8 "$LOCPATH/de_DE.UTF-8" >/dev/null 2>&1 ||
    skip_all "the de_DE locale cannot be compiled here"
export LOCPATH
browser_env de_DE.UTF-8

cp "$BV" "$scratch/m.gguf"
chmod u+w "$scratch/m.gguf"
{
	echo "size 100x40"
	echo "dump $scratch/summary"
	echo "keys :"
	echo "type set llama.rope.freq_base 10000.5"
	echo "keys <Enter>"
	echo "dump $scratch/set"
	echo "keys Q"
	echo "keys d"
} >"$scratch/script"
GGUFED_SCRIPT=$scratch/script "$GGUFED" "$scratch/m.gguf" >/dev/null \
    2>"$scratch/err"
ok $? "the browser runs in de_DE.UTF-8"

grep -qF '5.6 KiB in tensors, 13.69 bits per weight overall' \
    "$scratch/summary"
ok $? "numbers with a decimal point, as 'ggufed info' writes them"
"$GGUFED" info "$scratch/m.gguf" | grep -qF '5.6 KiB'
ok $? "(info writes 5.6 KiB)"
grep -q '██' "$scratch/summary"
ok $? "the screen is UTF-8 still (the type bar)"
! grep -q 'not a number' "$scratch/set"
ok $? ":set of a float to 10000.5: a number"
grep -qF ' RoPE base     10000.5' "$scratch/set"
ok $? "the value is set: the Summary shows it"
[ "$(grep -c . "$scratch/err")" = 0 ]
ok $? "nothing on stderr"

done_testing
