#!/bin/sh
# saves.sh - the browser's saves neither clobber nor die, driven by
# scripts (GGUFED_SCRIPT, as in edit.sh): `:w OTHER` does not overwrite
# an existing OTHER unless `:w! OTHER`, `:w` does not write a read-only
# file unless `:w!` (which keeps its mode), a save past `ulimit -f` is an
# error and not a SIGXFSZ death, a file with several hard links is told
# what the save does to them, and a header torn by a crash gets the
# recover hint with its parse error.
. "$TESTS_SRCDIR/lib.sh"

DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
browser_env
mkdir -p "$scratch/d"
d=$scratch/d
m=$d/m.gguf

# A fixed-size edit (in place) and one that grows the header (a rewrite).
"$GGUFED" edit "$DEMO" -o "$scratch/new-ip.gguf" \
    -e 'set llama.context_length 4096' >/dev/null &&
    "$GGUFED" edit "$DEMO" -o "$scratch/new-rw.gguf" \
    -e 'set general.name "A name long enough to make the header grow"' \
    >/dev/null
ok $? "reference saves"
IP='type set llama.context_length 4096'
RW='type set general.name "A name long enough to make the header grow"'

# script NAME LINE...: the lines at 100x30 on m.gguf, the screen dumped
# to NAME.txt at the end; rc is the browser's exit status.
script() {
	name=$1
	shift
	{
		echo "size 100x30"
		for l in "$@"; do
			echo "$l"
		done
		echo "dump $scratch/$name.txt"
		echo "keys <Esc>:q!<Enter>"
	} >"$scratch/$name.script"
	(cd "$d" && GGUFED_SCRIPT=$scratch/$name.script exec "$GGUFED" \
	    m.gguf) 2>"$scratch/err"
	rc=$?
}

# shows NAME TEXT: the screen NAME holds TEXT (else it is shown).
shows() {
	grep -qF -- "$2" "$scratch/$1.txt" && return 0
	sed 's/^/# /' "$scratch/$1.txt"
	return 1
}

# leftovers: what is in the directory besides the model.
leftovers() {
	ls -A "$d" | grep -v '^m\.gguf$' | grep -v '^other\.gguf$'
}

# --- :w OTHER onto an existing file

cp_w "$DEMO" "$m"
cp_w "$DEMO" "$d/other.gguf"
script w-other "keys :" "$IP" "keys <Enter>" "keys :" "type w other.gguf" \
    "keys <Enter>"
[ $rc -eq 0 ] && shows w-other "exists: not overwriting it" &&
    shows w-other ":w! other.gguf forces it" &&
    cmp -s "$d/other.gguf" "$DEMO" && cmp -s "$m" "$DEMO"
ok $? ":w OTHER onto an existing file: refused, says :w! OTHER, nothing written"
# Keys typed on while the refusal shows (":w copy.gguf", the user's next
# try) do not run as the view's keys, its w a save in place: the box
# waits for Enter or Esc, and the Enter that ends them closes it.
script w-typeahead "keys :" "$IP" "keys <Enter>" "keys :" \
    "type w other.gguf" "keys <Enter>" "keys :" "type w copy.gguf" \
    "keys <Enter>"
[ $rc -eq 0 ] && ! shows w-typeahead "exists: not overwriting it" \
    >/dev/null && cmp -s "$m" "$DEMO" && cmp -s "$d/other.gguf" "$DEMO" &&
    [ ! -e "$d/copy.gguf" ]
ok $? "keys typed after a refused :w close its box on Enter only: nothing saved"
script w-quoted "keys :" "$IP" "keys <Enter>" "keys :" \
    'type w "spaced name.gguf"' "keys <Enter>"
[ $rc -eq 0 ] && cmp -s "$d/spaced name.gguf" "$scratch/new-ip.gguf" &&
    cmp -s "$m" "$DEMO"
ok $? ':w "NAME": the quotes are the language'"'"'s, not the name'"'"'s'
rm -f "$d/spaced name.gguf"
script w-other-forced "keys :" "$IP" "keys <Enter>" "keys :" \
    "type w! other.gguf" "keys <Enter>"
[ $rc -eq 0 ] && shows w-other-forced "saved other.gguf" &&
    cmp -s "$d/other.gguf" "$scratch/new-ip.gguf" && cmp -s "$m" "$DEMO"
ok $? ":w! OTHER: written"
rm -f "$d/other.gguf"

# --- a read-only file

cp_w "$DEMO" "$m"
chmod 444 "$m"
script w-ro "keys :" "$IP" "keys <Enter>" "keys :" "type w" "keys <Enter>"
[ $rc -eq 0 ] && shows w-ro "read-only (mode 0444)" && shows w-ro ":w! forces it" &&
    cmp -s "$m" "$DEMO"
ok $? ":w on a file of mode 0444: refused (even for the superuser)"
script w-ro-forced "keys :" "$IP" "keys <Enter>" "keys :" "type w!" \
    "keys <Enter>"
[ $rc -eq 0 ] && shows w-ro-forced "saved m.gguf" &&
    cmp -s "$m" "$scratch/new-ip.gguf" && [ "$(stat -c %a "$m")" = 444 ] &&
    [ -z "$(leftovers)" ]
ok $? ":w! on it: saved, still mode 0444"
chmod 644 "$m"

# --- past the file size limit: an error, not SIGXFSZ

cp_w "$DEMO" "$m"
( ulimit -f 1000; script w-fsize "keys :" "$RW" "keys <Enter>" "keys :" \
    "type w" "keys <Enter>"; exit $rc )
rc=$?
[ $rc -eq 0 ] && shows w-fsize "file too large for this process's limit" &&
    cmp -s "$m" "$DEMO" && [ -z "$(leftovers)" ]
ok $? "a save past ulimit -f: the browser says so and lives (exit $rc), nothing left"
sed 's/^/# /' "$scratch/err"

# --- hard links

cp_w "$DEMO" "$m"
ln "$m" "$d/link2.gguf"
script w-links "keys :" "$IP" "keys <Enter>" "keys :" "type w" "keys <Enter>"
[ $rc -eq 0 ] && shows w-links "in place (2 names, hard links: all of them change)" &&
    cmp -s "$d/link2.gguf" "$scratch/new-ip.gguf"
ok $? "in place, with a hard link: both names change, and it says so"
cp_w "$DEMO" "$m"
script w-links-rw "keys :" "$RW" "keys <Enter>" "keys :" "type w" \
    "keys <Enter>"
[ $rc -eq 0 ] && shows w-links-rw "by a rewrite (2 names, hard links: only this one changes)" &&
    cmp -s "$m" "$scratch/new-rw.gguf" && cmp -s "$d/link2.gguf" "$DEMO"
ok $? "a rewrite, with a hard link: only this name changes, and it says so"
rm -f "$d/link2.gguf"

# --- an error longer than its box: wrapped at spaces, nothing cut

w="alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima"
w="$w mike november oscar papa quebec romeo sierra tango uniform victor"
w="$w whiskey xray yankee zulu"
cp_w "$DEMO" "$m"
script w-long "keys :" "$IP" "keys <Enter>" "keys :" \
    "type w $w $w END.gguf" "keys <Enter>"
[ $rc -eq 0 ] && shows w-long "File name too long" && shows w-long "END.gguf:" &&
    [ "$(grep -o 'alpha\|zulu' "$scratch/w-long.txt" | wc -l)" -eq 4 ] &&
    ! grep -q "…" "$scratch/w-long.txt"
ok $? "a save's error with a long name: the box shows it all, wrapped at spaces"
grep -q "cannot save alpha bravo .* hotel india$" "$scratch/w-long.txt" &&
    grep -q "^ *[a-zA-Z ]*  *juliett kilo lima .* tango$" "$scratch/w-long.txt"
ok $? "its rows break at spaces, as long as the box is wide" ||
    sed 's/^/# /' "$scratch/w-long.txt"
script w-long-small "size 40x12" "keys :" "$IP" "keys <Enter>" "keys :" \
    "type w $w $w END.gguf" "keys <Enter>"
[ $rc -eq 0 ] && shows w-long-small "cannot save alpha bravo"
ok $? "the same error at 40x12: what fits of it"

# --- a header torn by a crash: the hint with the parse error

"$GGUFED" edit "$DEMO" -o "$scratch/res.gguf" --reserve 4096 \
    -e 'set general.name "x"' >/dev/null
cp "$scratch/res.gguf" "$m"
GGUFED_FAULT=torn "$GGUFED" edit "$m" -i \
    -e 'set general.name "a much longer name than before, held by the reserve"' \
    >/dev/null 2>&1
script torn "keys q"
[ $rc -eq 1 ] && grep -q "offset 0x" "$scratch/err" &&
    grep -q "journal: run 'ggufed recover'" "$scratch/err"
ok $? "opening a torn header: the parse error and the recover hint (exit $rc)"
sed 's/^/# /' "$scratch/err"
rm -f "$m.ggufed-journal"

# --- a split set: :w writes the shards that change, as one save

mkdir -p "$scratch/set" "$scratch/setref"
"$GGUFED" split -q --max-tensors 15 "$DEMO" "$scratch/set/m" &&
    "$GGUFED" split -q --max-tensors 15 "$DEMO" "$scratch/setref/m" &&
    "$GGUFED" set -i -q "$scratch/setref/m-00002-of-00003.gguf" \
    general.name '"A name long enough to make the header grow"'
ok $? "a set and the same set edited by the command line"
{
	echo "size 200x30"
	echo "keys :"
	echo "$RW"
	echo "keys <Enter>"
	echo "keys :"
	echo "type w"
	echo "keys <Enter>"
	echo "dump $scratch/w-set.txt"
	echo "keys <Esc>:q!<Enter>"
} >"$scratch/w-set.script"
(cd "$scratch/set" && GGUFED_SCRIPT=$scratch/w-set.script exec "$GGUFED" \
    m-00003-of-00003.gguf) 2>"$scratch/err"
rc=$?
n=0
for k in 1 2 3; do
	cmp -s "$scratch/set/m-0000$k-of-00003.gguf" \
	    "$scratch/setref/m-0000$k-of-00003.gguf" && n=$((n + 1))
done
[ $rc -eq 0 ] && shows w-set "1 of the set's 3 shards written (0 in place, 1 rewritten" &&
    [ "$n" -eq 3 ] &&
    [ "$(ls -A "$scratch/set" | grep -vc '\.ggufed-lock$')" -eq 3 ]
ok $? ":w on a set opened from shard 3: the metadata goes to shard 1, as the command line puts it"
shows w-set "tensor data unchanged (39 tensors: 15 by xxh64, 24 not rewritten)"
ok $? "... and the save of the set is proved: shard 1's tensors hashed, the others where they lay"

# A value of the same size: shard 1 is saved in place, the same inode.
i1=$(stat -c %i "$scratch/set/m-00001-of-00003.gguf")
{
	echo "size 200x30"
	echo "keys :"
	echo "type set llama.context_length 4096"
	echo "keys <Enter>"
	echo "keys :"
	echo "type w"
	echo "keys <Enter>"
	echo "dump $scratch/w-set2.txt"
	echo "keys <Esc>:q!<Enter>"
} >"$scratch/w-set2.script"
(cd "$scratch/set" && GGUFED_SCRIPT=$scratch/w-set2.script exec "$GGUFED" \
    m-00002-of-00003.gguf) 2>"$scratch/err"
rc=$?
[ $rc -eq 0 ] &&
    shows w-set2 "1 of the set's 3 shards written (1 in place, 0 rewritten" &&
    [ "$(stat -c %i "$scratch/set/m-00001-of-00003.gguf")" = "$i1" ] &&
    [ "$("$GGUFED" get --shard "$scratch/set/m-00001-of-00003.gguf" \
    llama.context_length)" = 4096 ]
ok $? ":w of a same-size edit on a set: shard 1 saved in place"

# A split key of the set is refused as it is edited, not at :w.
{
	echo "size 100x30"
	echo "keys :"
	echo "type rm split.count"
	echo "keys <Enter>"
	echo "dump $scratch/rm-split.txt"
	echo "keys :q<Enter>"
} >"$scratch/rm-split.script"
(cd "$scratch/set" && GGUFED_SCRIPT=$scratch/rm-split.script exec \
    "$GGUFED" m-00002-of-00003.gguf) 2>"$scratch/err"
rc=$?
[ $rc -eq 0 ] && shows rm-split "the split keys of a set are kept"
ok $? ":rm split.count on a set: refused as typed, :q then quits (no edit held)"

done_testing
