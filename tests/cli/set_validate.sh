#!/bin/sh
# set_validate.sh - broken split models, made by hand from a good one:
# every defect is found, and every message names the file it is about.
#
# validate and the browser report a set's defects among its findings;
# the other reading commands refuse a set with a shard missing or
# unreadable, naming it.
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
good=$scratch/good
mkdir -p "$good"
"$GGUFED" split -q --max-tensors 15 "$demo" "$good/m" ||
    { echo "Bail out! cannot split the demo model"; exit 1; }
s1=m-00001-of-00003.gguf s2=m-00002-of-00003.gguf s3=m-00003-of-00003.gguf

# fresh NAME: a copy of the good set in $scratch/NAME; cd there.
fresh() {
	rm -rf "${scratch:?}/$1"
	cp -r "$good" "$scratch/$1"
	for f in "$scratch/$1"/*; do chmod u+w "$f"; done
	cd "$scratch/$1" || exit 1
}

# at FILE OFF NAME: the tensor info at OFF in FILE is NAME's (a u64
# length, then the name), so a finding at OFF points at the right file.
at() {
	[ "$(dd if="$1" bs=1 skip=$(($2 + 8)) count=${#3} 2>/dev/null)" = "$3" ]
}

# expect LEVEL TEXT WHAT: validate of shard 1 fails (error) or warns
# (warning) with a finding holding TEXT, "FILE: what": either a finding
# of no offset whose text names the file, or one at an offset of FILE
# ("FILE:0xOFF: LEVEL: what"), which names it once.
expect() {
	"$GGUFED" validate "$s1" >"$scratch/v" 2>&1
	rc=$?
	sed -E 's/^([^:]*):0x[0-9a-f]+: (error|warning|note): /\2: \1: /' \
	    "$scratch/v" >"$scratch/v.flat"
	if [ "$1" = error ]; then
		[ $rc -eq 1 ]
	else
		[ $rc -eq 0 ] && "$GGUFED" validate --strict "$s1" >/dev/null 2>&1
		[ $? -eq 1 ]
	fi && grep -q -F -- "$1: $2" "$scratch/v.flat"
	ok $? "$3" || sed 's/^/# /' "$scratch/v"
}

fresh ok
"$GGUFED" validate --strict "$s2" >"$scratch/v" 2>&1
ok $? "the good set passes validate --strict" || sed 's/^/# /' "$scratch/v"

fresh missing
rm "$s2"
expect error "$s2: missing: shard 2 of 3 of the set (no such file)" \
    "a missing shard: an error naming the file expected"
grep -q -x -F "$s1: error: $s2: missing: shard 2 of 3 of the set (no such file)" \
    "$scratch/v" && ! grep -q ':0x0: ' "$scratch/v"
ok $? "a finding about no byte of a file gives no offset (not 0x0)" ||
    sed 's/^/# /' "$scratch/v"
"$GGUFED" info "$s3" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q -F "$s3: shard 2 of 3, $s2: missing" "$scratch/err"
ok $? "info of a set with a missing shard fails, naming it"
"$GGUFED" cat "$s1" output.weight >/dev/null 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "cat of a set with a missing shard fails"
rm "$s1"
"$GGUFED" info "$s3" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q -F "the set's first shard $s1: No such file" "$scratch/err"
ok $? "a missing first shard: the error names it"
"$GGUFED" info --shard "$s3" >/dev/null
ok $? "--shard opens a shard whose set is incomplete"

fresh count
"$GGUFED" set -q --shard "$s2" split.count 4 -i
expect error "$s2: split.count is 4 but the set has 3 shards by its file names" \
    "split.count disagreeing with the files"

fresh repeat
"$GGUFED" set -q --shard "$s3" split.no 1 -i
expect error "$s3: split.no is 1 but the file is named as shard 3 of 3 (split.no 2)" \
    "a split.no that is not its file's"
grep -q -F "error: $s1: split.no 1 is in 2 shards of the set" "$scratch/v" &&
    grep -q -F "error: $s1: no shard of the set has split.no 2 (shard 3's, counted from 0)" "$scratch/v"
ok $? "a repeated split.no and the gap it leaves"

fresh tcount
"$GGUFED" set -q --shard "$s1" split.tensors.count 40 -i
expect error "$s1: split.tensors.count is 40 but the set holds 39 tensors" \
    "split.tensors.count not the tensors found"

fresh twice
"$GGUFED" rename -q --shard "$s3" output.weight token_embd.weight -i
expect error "$s3: tensor \"token_embd.weight\" is in $s1 too" \
    "a tensor name in two shards"

# A name twice in one shard: the shard's own finding, in its place among
# the shard's findings, as when the shard is read alone (the set indexes
# the names of its shards once, and finds this there).
fresh twice_in
off=$(grep -boa 'blk\.2\.attn_k\.weight' "$s2" | head -1 | cut -d: -f1)
printf 'blk.2.attn_q.weight' |
    dd of="$s2" bs=1 seek="$off" conv=notrunc 2>/dev/null
expect error "$s2: duplicate tensor name \"blk.2.attn_q.weight\"" \
    "a tensor name twice in one shard"
"$GGUFED" validate --shard "$s2" 2>&1 | sed -n 's/^[^ ]*\(0x[0-9a-f]*\): error: duplicate.*/\1/p' >"$scratch/alone"
sed -n "s/^$s2:\\(0x[0-9a-f]*\\): error: duplicate.*/\\1/p" "$scratch/v" >"$scratch/inset"
[ -s "$scratch/alone" ] && cmp -s "$scratch/alone" "$scratch/inset" &&
    at "$s2" "$(cat "$scratch/alone")" blk.2.attn_q.weight
ok $? "... at the offset of its second tensor info, as in the shard alone"
"$GGUFED" info "$s3" >"$scratch/info" 2>&1
[ $? -eq 0 ] && grep -q "duplicate tensor name" "$scratch/info"
ok $? "... and info of the set, given another shard, says so too"

fresh lfs
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:%064d\nsize 1234567\n' 0 >"$s3"
expect error "$s3: this is a Git LFS pointer, not the model: fetch it with git lfs pull" \
    "a shard that is a Git LFS pointer"
"$GGUFED" info "$s1" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q -F "$s3: this is a Git LFS pointer" "$scratch/err"
ok $? "info names the Git LFS pointer shard"

fresh cut
size=$(wc -c <"$s2")
head -c $((size - 4096)) "$s2" >"$s2.tmp" && mv "$s2.tmp" "$s2"
expect error "$s2: tensor \"" "a truncated shard: its tensors beyond the end"
grep -q -F "lies beyond the end of the file" "$scratch/v"
ok $? "the truncated shard's finding says the data lies beyond the end"
# (the finding names the shard once: where it is, not again in its text)
v=$(sed -n "s/^$s2:\(0x[0-9a-f]*\): error: tensor \"\([^\"]*\)\": data .* lies beyond.*/\1 \2/p" "$scratch/v" | head -n 1)
t=${v#* } voff=${v% *}
"$GGUFED" cat "$s1" "$t" >/dev/null 2>"$scratch/err"
[ $? -ne 0 ] && off=$(sed -n "s/^ggufed: $s1: $s2: offset \(0x[0-9a-f]*\): tensor \"$t\": data lies beyond.*/\1/p" "$scratch/err") &&
    [ -n "$off" ] && [ "$off" = "$voff" ]
ok $? "cat of a tensor beyond the end of shard 2: the error gives validate's offset in $s2 ($voff)" ||
    sed 's/^/# /' "$scratch/err"
# ... which is the field of the tensor's data offset, in its info
field=$(od -An -tx8 -j $((voff)) -N8 "$s2" | tr -d ' ')
want=$("$GGUFED" dump "$s1" | sed -n "s/^tensor [0-9]* $t .* offset=\(0x[0-9a-f]*\) .*/\1/p")
[ -n "$field" ] && [ -n "$want" ] && [ $((0x$field)) -eq $((want)) ]
ok $? "validate's finding: the data offset's field of $t's info in $s2" || sed 's/^/# /' "$scratch/v"
"$GGUFED" stats "$s1" "$t" >/dev/null 2>"$scratch/err"
[ $? -ne 0 ] && grep -q -F "$s2: offset $off: tensor \"$t\": data lies beyond" "$scratch/err"
ok $? "stats of it: the same" || sed 's/^/# /' "$scratch/err"

# A NaN planted in a tensor of shard 2: the data check's finding names
# shard 2 and the offset of the tensor's info in it, in text and JSON.
fresh nan
t=blk.1.ffn_norm.weight
abs=$("$GGUFED" dump "$s1" | sed -n "s/^tensor [0-9]* $t F32 .* abs=\(0x[0-9a-f]*\) shard=2\$/\1/p")
[ -n "$abs" ] && printf '\000\000\300\177' |
    dd of="$s2" bs=1 seek=$((abs + 20)) conv=notrunc 2>/dev/null
ok $? "a NaN planted in $t of shard 2 (at $abs + 20)"
"$GGUFED" validate --data "$s1" >"$scratch/v" 2>&1
off=$(sed -n "s/^$s2:\(0x[0-9a-f]*\): warning: tensor \"$t\" has 1 NaN, .* element 5 .*/\1/p" "$scratch/v")
[ -n "$off" ] && at "$s2" "$off" "$t"
ok $? "validate --data: the NaN's finding names $s2 and the tensor's offset in it" ||
    sed 's/^/# /' "$scratch/v"
"$GGUFED" validate --data --json "$s1" >"$scratch/v" 2>&1
grep -q -F "{\"file\": \"$s2\", \"level\": \"warning\", \"offset\": $((off)), \"message\": \"tensor \\\"$t\\\" has 1 NaN" "$scratch/v"
ok $? "validate --data --json: the finding's file is $s2" ||
    sed 's/^/# /' "$scratch/v"

# A model check about a tensor of shard 2 (its block beyond block_count).
fresh block
t=blk.2.attn_norm.weight
"$GGUFED" set -q "$s1" llama.block_count 2 -i
"$GGUFED" validate "$s1" >"$scratch/v" 2>&1
off=$(sed -n "s/^$s2:\(0x[0-9a-f]*\): error: tensor $t is not used by llama: .*/\1/p" "$scratch/v")
[ -n "$off" ] && at "$s2" "$off" "$t"
ok $? "validate: a finding about a tensor of $s2 names it and its offset" ||
    sed 's/^/# /' "$scratch/v"

fresh meta
"$GGUFED" set -q --shard "$s2" general.name:str Stray -i 2>"$scratch/err"
grep -q -F "$s2: warning: this is shard 2 of a split model: llama.cpp reads metadata from the first shard only" "$scratch/err"
ok $? "a metadata edit of shard 2 warns that llama.cpp will not read it"
expect warning "$s2: 1 metadata key besides split.* (\"general.name\"): llama.cpp reads metadata from the first shard only" \
    "metadata on shard 2: a warning"

fresh align
"$GGUFED" set -q --shard "$s3" general.alignment:u32 64 -i
expect warning "$s3: general.alignment is not the first shard's 32" \
    "a differing general.alignment: a warning"

fresh nosplit
"$GGUFED" rm -q --shard "$s2" split.no -i
expect error "$s2: no split.no key" "a shard without split.no"
"$GGUFED" dump --json "$s1" 2>/dev/null | grep -q -F \
    '"offset": null, "message": "m-00002-of-00003.gguf: no split.no key'
ok $? "dump --json gives a finding about no byte of a file a null offset"

fresh renamed
mv "$s1" first.gguf
"$GGUFED" validate first.gguf >"$scratch/v" 2>&1
[ $? -eq 1 ] && grep -q -F "split.count is 3 but the file name does not end in -NNNNN-of-00003.gguf" "$scratch/v"
ok $? "a first shard renamed: llama.cpp cannot find the others"

fresh plain
"$GGUFED" rm -q --shard "$s1" split.count -i
"$GGUFED" info "$s1" | grep -q '^tensors      15$'
ok $? "a file named like a shard without split.count is a file of its own"

# Every shard of a good set, each read with its set.
fresh all
"$GGUFED" validate -q m-0000*.gguf >"$scratch/v" 2>&1
ok $? "validate of every shard exits 0"

# summaries FILE: the summary lines of a text report.
summaries() {
	grep -c -E ': (no problems found|[0-9]+ (error|warning|note))' "$1"
}

# Several shards of one set given: the set is reported once, by the
# first of them given, which names the others.
"$GGUFED" validate m-0000*.gguf >"$scratch/v" 2>&1
[ $? -eq 0 ] && [ "$(summaries "$scratch/v")" -eq 1 ] &&
    grep -q -F "$s1: the whole set, for $s2 and $s3 too" "$scratch/v" &&
    [ "$(grep -c 'naming convention' "$scratch/v")" -eq 1 ]
ok $? "validate of every shard reports the set once, naming the shards folded" ||
    sed 's/^/# /' "$scratch/v"
"$GGUFED" validate "$s3" "./$s1" >"$scratch/v" 2>&1
[ "$(summaries "$scratch/v")" -eq 1 ] &&
    grep -q -F "$s3: the whole set, for ./$s1 too" "$scratch/v"
ok $? "two shards, the later one first and by another spelling: one report"
"$GGUFED" validate --json "$s2" "$s1" >"$scratch/j" 2>&1
[ "$(grep -c '"opened":' "$scratch/j")" -eq 1 ] &&
    grep -q -F "\"folded\": [\"$s1\"]" "$scratch/j"
ok $? "--json: one object for the set, its \"folded\" shards listed"
"$GGUFED" validate --shard m-0000*.gguf >"$scratch/v" 2>&1
[ "$(summaries "$scratch/v")" -eq 3 ]
ok $? "--shard: each shard reported alone"
fresh rep_missing
rm "$s2"
"$GGUFED" validate "$s1" "$s3" >"$scratch/v" 2>&1
[ $? -eq 1 ] && [ "$(summaries "$scratch/v")" -eq 1 ] &&
    [ "$(grep -c -F "$s2: missing" "$scratch/v")" -eq 1 ]
ok $? "a broken set given twice: its error reported once" ||
    sed 's/^/# /' "$scratch/v"
cd "$scratch" || exit 1
"$GGUFED" validate "$demo" "$demo" >"$scratch/v" 2>&1
[ "$(summaries "$scratch/v")" -eq 2 ]
ok $? "a plain file given twice is still reported twice"

# Past the 256 findings kept, errors come first: 300 notes in shard 1 do
# not hide shard 2's tensor named like one of shard 1's, and the number
# left out is said.
mkdir "$scratch/many"
cd "$scratch/many" || exit 1
i=0
while [ $i -lt 300 ]; do
	echo "set Bad.K$i:u8 1"
	i=$((i + 1))
done >keys.ged
"$GGUFED" edit "$demo" -o many.gguf -q --force -f keys.ged 2>/dev/null &&
    "$GGUFED" split -q --max-tensors 20 many.gguf m &&
    "$GGUFED" rename --shard -i -q m-00002-of-00002.gguf \
    blk.2.attn_q.weight token_embd.weight ||
    { echo "Bail out! cannot make the set"; exit 1; }
"$GGUFED" validate m-00001-of-00002.gguf >"$scratch/v" 2>&1
rc=$?
[ $rc -eq 1 ] &&
    grep -q '^m-00002-of-00002.gguf:0x[0-9a-f]*: error: tensor "token_embd.weight" is in m-00001-of-00002.gguf too' "$scratch/v" &&
    grep -q 'note: ([0-9]* more findings not shown: 0 errors, 0 warnings, [0-9]* notes)$' "$scratch/v"
ok $? "300 notes in shard 1: shard 2's error still said, exit 1, the rest counted" ||
    { echo "# exit $rc"; grep -v 'breaks the naming' "$scratch/v" | sed 's/^/# /'; }
"$GGUFED" validate many.gguf >"$scratch/v" 2>&1
[ "$(grep -c 'breaks the naming' "$scratch/v")" -eq 256 ] &&
    grep -q 'note: (44 more findings not shown: 0 errors, 0 warnings, 44 notes)$' "$scratch/v"
ok $? "300 notes in one file: 256 shown, 44 counted"
# A set named as 65,535 shards of which one is there: said once.
"$GGUFED" edit "$demo" -o m-00001-of-65535.gguf -q \
    -e 'set split.count:u16 65535' -e 'set split.no:u16 0' \
    -e 'set split.tensors.count:i32 39'
"$GGUFED" validate m-00001-of-65535.gguf >"$scratch/v" 2>&1
rc=$?
[ $rc -eq 1 ] && [ "$(grep -c 'missing' "$scratch/v")" -eq 1 ] &&
    grep -q 'missing: 65534 shards of 65535 of the set (no such file): 2 to 65535$' "$scratch/v" &&
    grep -q '^m-00001-of-65535.gguf: 1 error, ' "$scratch/v"
ok $? "65,534 shards missing: one error says so" ||
    { echo "# exit $rc"; head -5 "$scratch/v" | sed 's/^/# /'; }
cp m-00001-of-65535.gguf m-00007-of-65535.gguf
"$GGUFED" validate m-00001-of-65535.gguf >"$scratch/v" 2>&1
grep -q 'missing: 65533 shards of 65535 of the set (no such file): 2 to 6, 8 to 65535$' "$scratch/v"
ok $? "the missing shards as runs"
cd "$scratch" || exit 1

# The commands that read a broken set's data say first that it is not
# one set (validate refuses it), and then do their work.
fresh twice
s1=m-00001-of-00003.gguf
cp m-00002-of-00003.gguf m-00003-of-00003.gguf
for c in "stats --all" "hash" "cat|blk.0.attn_norm.weight" "diff|$demo"; do
	cmd=${c%%|*}
	arg=$(echo "$c" | sed -n 's/^[^|]*|//p')
	case $cmd in
	diff) "$GGUFED" diff "$arg" "$s1" >/dev/null 2>"$scratch/err" ;;
	# shellcheck disable=SC2086
	*) "$GGUFED" $cmd "$s1" $arg >/dev/null 2>"$scratch/err" ;;
	esac
	[ "$(grep -c 'warning: the shards are not one whole set: m-00003-of-00003.gguf: tensor ".*" is in m-00002-of-00003.gguf too' "$scratch/err")" -eq 1 ]
	ok $? "$cmd on a set with a shard twice: one warning that it is not one set" ||
	    sed 's/^/# /' "$scratch/err"
done
"$GGUFED" stats --all "$good/m-00001-of-00003.gguf" >/dev/null 2>"$scratch/err"
[ ! -s "$scratch/err" ]
ok $? "stats --all on the whole set: no warning"
cd "$scratch" || exit 1

done_testing
