#!/bin/sh
# split.sh - split models: `split` writes the shards gguf-split writes,
# `merge` joins them back, and every reading command given any shard
# reads the whole set.
#
# What gguf-split writes is derived here from its source, independently
# of ggufed: a tensor starts a new shard by count when its index i > 0
# and i % N == 0, by size when the shard's data (each tensor rounded up
# to 32 bytes) would exceed N; every key goes to the first shard, and
# every shard ends with split.no (u16), split.tensors.count (i32, the
# tensors of the set) and split.count (u16), in that order; the bytes are
# those of ggml's writer, so ggml's rewrite of each shard (the oracle's
# `rewrite`) must give the same bytes back. merge(split(x)) has x's
# tensors, data hashes equal, and ends with split.count 0 as gguf-split's
# merge does. Shards of two sets are not merged.
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
FIX=$SHARED_DIR/fixtures
have_oracle=0
[ -d "$FIX/ggml" ] && "$ORACLE" version >/dev/null 2>&1 && have_oracle=1

# model DUMP MODE MAX NOFIRST: "SHARD NAME" for each tensor of an oracle
# dump, as gguf-split's split_strategy assigns them (shards from 0).
model() {
	awk -v mode="$2" -v max="$3" -v nofirst="$4" '
	/^tensor / {
		nb = 0
		for (f = 1; f <= NF; f++)
			if ($f ~ /^nbytes=/)
				nb = substr($f, 8) + 0
		pad = int((nb + 31) / 32) * 32
		if (mode == "size") {
			nxt = cur + pad
			if (nxt > max && in_cur > 0) {
				k++; in_cur = 0; cur = pad
			} else
				cur = nxt
		} else if (i > 0 && i % max == 0) {
			k++; in_cur = 0
		}
		print k, $3
		in_cur++; i++
	}
	BEGIN { k = nofirst ? 1 : 0 }' "$1"
}

# run_split NAME FILE MODE MAX NOFIRST: splits FILE and checks the shards.
run_split() {
	name=$1 f=$2 mode=$3 max=$4 nofirst=$5
	d="$scratch/$name"
	mkdir -p "$d"
	opt="--max-tensors $max"
	[ "$mode" = size ] && opt="--max-size $max"
	[ "$nofirst" = 1 ] && opt="$opt --no-tensor-first-split"
	# shellcheck disable=SC2086
	"$GGUFED" split $opt "$f" "$d/m" >"$d/out" 2>"$d/err"
	ok $? "$name: split $opt exits 0" || { cat "$d/err"; return 1; }
	n=$(ls "$d" | grep -c '^m-[0-9]*-of-[0-9]*\.gguf$')
	[ "$(wc -l <"$d/out")" -eq "$n" ]
	ok $? "$name: one line for each of the $n shards written"
	[ "$have_oracle" = 1 ] || return 0

	"$ORACLE" dump "$f" >"$d/orig.dump" 2>/dev/null
	model "$d/orig.dump" "$mode" "$max" "$nofirst" >"$d/expect"
	want=$(($(tail -1 "$d/expect" | cut -d' ' -f1) + 1))
	[ "$nofirst" = 1 ] && [ ! -s "$d/expect" ] && want=2
	[ ! -s "$d/expect" ] && [ "$nofirst" != 1 ] && want=1
	[ "$n" -eq "$want" ]
	ok $? "$name: $n shards, as gguf-split makes ($want)"
	total=$(grep -c '^tensor ' "$d/orig.dump")
	: >"$d/got"
	k=0
	good=0 same=0
	while [ $k -lt "$n" ]; do
		s=$(printf '%s/m-%05d-of-%05d.gguf' "$d" $((k + 1)) "$n")
		"$ORACLE" dump "$s" >"$d/s.dump" 2>"$d/s.err" || good=1
		grep '^tensor ' "$d/s.dump" | awk -v k=$k '{ print k, $3 }' \
		    >>"$d/got"
		# The keys: all of the model's in the first, then the split keys.
		{
			[ $k -eq 0 ] && grep '^kv ' "$d/orig.dump" |
			    sed 's/^kv [0-9]* //'
			echo "\"split.no\" u16 $k"
			echo "\"split.tensors.count\" i32 $total"
			echo "\"split.count\" u16 $n"
		} >"$d/kv.want"
		grep '^kv ' "$d/s.dump" | sed 's/^kv [0-9]* //' >"$d/kv.got"
		cmp -s "$d/kv.want" "$d/kv.got" || {
			diff "$d/kv.want" "$d/kv.got" | head -5 | sed 's/^/# /'
			good=1
		}
		# The bytes: what ggml's own writer makes of the same content.
		"$ORACLE" rewrite "$s" "$d/s.ggml" >/dev/null 2>&1 &&
		    cmp -s "$s" "$d/s.ggml" || same=1
		k=$((k + 1))
	done
	ok $good "$name: ggml reads every shard; keys and split keys as gguf-split writes them"
	cmp -s "$d/expect" "$d/got"
	ok $? "$name: every tensor in the shard gguf-split puts it in" ||
	    diff "$d/expect" "$d/got" | head -5 | sed 's/^/# /'
	ok $same "$name: every shard is byte for byte ggml's writing of it"

	# merge(split(x)): x's tensors and data; gguf-split's closing keys.
	first=$(printf '%s/m-%05d-of-%05d.gguf' "$d" 1 "$n")
	"$GGUFED" merge "$first" "$d/merged.gguf" >/dev/null 2>"$d/err"
	ok $? "$name: merge exits 0" || cat "$d/err"
	"$ORACLE" dump "$d/merged.gguf" >"$d/merged.dump" 2>/dev/null
	ok $? "$name: ggml reads the merged file"
	grep '^tensor ' "$d/orig.dump" >"$d/t.want"
	grep '^tensor ' "$d/merged.dump" >"$d/t.got"
	cmp -s "$d/t.want" "$d/t.got"
	ok $? "$name: merge(split(x)) has x's tensors, shapes and data hashes"
	{
		grep '^kv ' "$d/orig.dump" | sed 's/^kv [0-9]* //'
		echo "\"split.no\" u16 0"
		echo "\"split.tensors.count\" i32 $total"
		echo "\"split.count\" u16 0"
	} >"$d/kv.want"
	grep '^kv ' "$d/merged.dump" | sed 's/^kv [0-9]* //' >"$d/kv.got"
	cmp -s "$d/kv.want" "$d/kv.got"
	ok $? "$name: merged keys are the first shard's, split.count 0 last"
	"$ORACLE" rewrite "$d/merged.gguf" "$d/merged.ggml" >/dev/null 2>&1 &&
	    cmp -s "$d/merged.gguf" "$d/merged.ggml"
	ok $? "$name: the merged file is byte for byte ggml's writing of it"
}

run_split demo-t10 "$demo" count 10 0
run_split demo-t20-nofirst "$demo" count 20 1
run_split demo-s1M "$demo" size 1000000 0
run_split demo-s600K-nofirst "$demo" size 600000 1
if [ -d "$FIX/ggml" ]; then
	run_split shapes-t4 "$FIX/ggml/shapes.gguf" count 4 0
	run_split types-s6000 "$FIX/ggml/types.gguf" size 6000 0
	run_split align64-t2 "$FIX/ggml/align64.gguf" count 2 0
	run_split zero-elem-t1 "$FIX/ggml/zero-elem.gguf" count 1 0
	run_split bigvocab-t3 "$FIX/ggml/big-vocab.gguf" count 3 0
else
	skip "$(shared_missing fixtures/ggml)"
fi
[ "$have_oracle" = 1 ] || skip "ggml oracle unavailable: shards not read by ggml"

# ---------------------------------------------------- reading across shards
d=$scratch/demo-t10
s1=$d/m-00001-of-00004.gguf s2=$d/m-00002-of-00004.gguf
s3=$d/m-00003-of-00004.gguf s4=$d/m-00004-of-00004.gguf
"$GGUFED" info "$s3" >"$scratch/info" 2>&1
ok $? "info on shard 3 exits 0"
grep -q '^tensors      39$' "$scratch/info"
ok $? "info on shard 3: the set's 39 tensors"
grep -q '^size .* in 4 shards$' "$scratch/info" &&
    grep -q "^  2    .*m-00002-of-00004.gguf  377,792 bytes (368.9 KiB), 10 tensors$" \
    "$scratch/info"
ok $? "info lists the shards, their sizes and tensors"
"$GGUFED" info "$demo" | grep '^parameters' >"$scratch/p.want"
grep '^parameters' "$scratch/info" >"$scratch/p.got"
cmp -s "$scratch/p.want" "$scratch/p.got"
ok $? "info: the parameter count of the whole model"
"$GGUFED" info --shard "$s3" | grep -q '^tensors      10$'
ok $? "info --shard: the shard alone"
"$GGUFED" info --no-set "$s2" | grep -q '^tensors      10$'
ok $? "info --no-set: the shard alone"

"$GGUFED" dump --json "$s2" >"$scratch/dump.json"
ok $? "dump --json on a shard exits 0"
"$TESTS_BUILDDIR/tools/jsoncheck" <"$scratch/dump.json"
ok $? "dump --json of a set is valid JSON"
[ "$(grep -c '"shard": [1-4]}\?,\? *' "$scratch/dump.json")" -ge 39 ] &&
    grep -q '"name": "output.weight".*"shard": 4' "$scratch/dump.json" &&
    grep -q '"name": "token_embd.weight".*"shard": 1' "$scratch/dump.json"
ok $? "dump --json gives each tensor its shard"
"$GGUFED" dump "$s1" | grep -q '^tensor 38 output.weight .* shard=4$'
ok $? "dump gives each tensor its shard"

for t in output.weight blk.2.ffn_down.weight token_embd.weight; do
	"$GGUFED" cat "$demo" "$t" --rows 0:3 >"$scratch/c.want"
	"$GGUFED" cat "$s2" "$t" --rows 0:3 >"$scratch/c.got"
	cmp -s "$scratch/c.want" "$scratch/c.got"
	ok $? "cat $t through shard 2 equals the unsplit model's"
done
"$GGUFED" stats "$demo" --all >"$scratch/st.want"
"$GGUFED" stats "$s4" --all >"$scratch/st.got"
cmp -s "$scratch/st.want" "$scratch/st.got"
ok $? "stats --all of the set equals the unsplit model's"
[ "$("$GGUFED" get "$s4" general.name)" = "$("$GGUFED" get "$demo" general.name)" ]
ok $? "get reads the metadata of shard 1 through shard 4"
"$GGUFED" get --shard "$s4" general.name >/dev/null 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "get --shard: shard 4 alone has no general.name"
"$GGUFED" validate "$s3" >"$scratch/v" 2>&1
ok $? "validate of a good set exits 0" || cat "$scratch/v"
! grep -q 'error\|warning' "$scratch/v"
ok $? "a good set has no error and no warning"

# ----------------------------------------------------------- split options
"$GGUFED" split --max-tensors 10 "$demo" "$d/m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'm-00001-of-00004.gguf: .*--force' "$scratch/err"
ok $? "split refuses to write over a shard, naming it (--force)"
"$GGUFED" split -q --force --max-tensors 10 "$demo" "$d/m" >"$scratch/out"
[ $? -eq 0 ] && [ ! -s "$scratch/out" ]
ok $? "split --force -q writes over, silently"

# All or nothing: shard 2's name taken, or the disk full at shard 2, and
# no new shard is left; the older file is as it was.
a="$scratch/aon"
mkdir -p "$a"
echo older >"$a/m-00002-of-00003.gguf"
"$GGUFED" split -q --max-tensors 15 "$demo" "$a/m" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(ls -A "$a")" = m-00002-of-00003.gguf ] &&
    [ "$(cat "$a/m-00002-of-00003.gguf")" = older ] &&
    [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q 'm-00002-of-00003.gguf: the file exists: .*--force.*no shard was written' \
    "$scratch/err"
ok $? "split with shard 2's name taken: nothing written, the older file kept" ||
    { sed 's/^/# /' "$scratch/err"; ls -A "$a" | sed 's/^/# /'; }
rm -f "$a"/* "$a"/.??*
for fault in fallocate:2:ENOSPC write:40+:ENOSPC; do
	GGUFED_FAULT=$fault "$GGUFED" split -q --max-tensors 15 "$demo" \
	    "$a/m" >/dev/null 2>"$scratch/err"
	[ $? -eq 1 ] && [ -z "$(ls -A "$a")" ] &&
	    [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
	    grep -q 'No space left on device; no shard was written' \
	    "$scratch/err"
	ok $? "split with the disk full ($fault): no shard, no temporary file left" ||
	    { sed 's/^/# /' "$scratch/err"; ls -A "$a" | sed 's/^/# /'; }
	rm -f "$a"/* "$a"/.??*
done
mkdir -p "$scratch/e"
"$GGUFED" split -q --max-tensors 20 -e 'set general.name Renamed' \
    -e 'rm-tensor output.weight' "$demo" "$scratch/e/m"
ok $? "split -e applies edits first"
[ "$("$GGUFED" get "$scratch/e/m-00002-of-00002.gguf" general.name)" = Renamed ] &&
    [ "$("$GGUFED" get "$scratch/e/m-00001-of-00002.gguf" split.tensors.count)" = 38 ] &&
    "$GGUFED" validate -q "$scratch/e/m-00001-of-00002.gguf" >/dev/null
ok $? "split -e: the edit is in shard 1, the removed tensor not counted"
mkdir -p "$scratch/big"
"$GGUFED" split -q --max-size 1K "$demo" "$scratch/big/m"
ok $? "split --max-size below a tensor's size exits 0"
[ -f "$scratch/big/m-00039-of-00039.gguf" ]
ok $? "a tensor larger than --max-size is alone in its shard"
"$GGUFED" split --max-size 1X "$demo" "$scratch/x" 2>/dev/null
[ $? -eq 2 ]; ok $? "--max-size 1X is a usage error"
# Sizes by one rule, as mem --fit: M is 10^6 (gguf-split's), MiB 2^20.
mkdir -p "$scratch/u1" "$scratch/u2" "$scratch/u3" "$scratch/u4"
"$GGUFED" split -q --max-size 1MiB "$demo" "$scratch/u1/m" &&
    "$GGUFED" split -q --max-size 1048576 "$demo" "$scratch/u2/m" &&
    "$GGUFED" split -q --max-size 1M "$demo" "$scratch/u3/m" &&
    "$GGUFED" split -q --max-size 1000000B "$demo" "$scratch/u4/m" &&
    [ "$(cd "$scratch/u1" && cksum m-*)" = "$(cd "$scratch/u2" && cksum m-*)" ] &&
    [ "$(cd "$scratch/u3" && cksum m-*)" = "$(cd "$scratch/u4" && cksum m-*)" ] &&
    [ "$(cd "$scratch/u1" && cksum m-*)" != "$(cd "$scratch/u3" && cksum m-*)" ]
ok $? "--max-size 1MiB is 1,048,576 bytes, 1M and 1000000B 1,000,000"
"$GGUFED" split --max-size 1M --max-tensors 2 "$demo" "$scratch/x" 2>/dev/null
[ $? -eq 2 ]; ok $? "--max-size and --max-tensors together are a usage error"
"$GGUFED" split --max-tensors 0 "$demo" "$scratch/x" 2>/dev/null
[ $? -eq 2 ]; ok $? "--max-tensors 0 is a usage error"
mkdir -p "$scratch/def"
"$GGUFED" split -q "$demo" "$scratch/def/m" &&
    [ -f "$scratch/def/m-00001-of-00001.gguf" ] &&
    [ "$("$GGUFED" get "$scratch/def/m-00001-of-00001.gguf" split.count)" = 1 ]
ok $? "split without a limit: 128 tensors a shard, as gguf-split"
# A set split again: its shards are read, a new set written.
mkdir -p "$scratch/re"
"$GGUFED" split -q --max-tensors 13 "$s2" "$scratch/re/m" &&
    "$GGUFED" merge -q "$scratch/re/m-00001-of-00003.gguf" "$scratch/re.gguf" &&
    "$GGUFED" merge -q "$s1" "$scratch/re2.gguf" && cmp -s "$scratch/re.gguf" "$scratch/re2.gguf"
ok $? "a split set split again merges to the same file"

"$GGUFED" merge "$demo" "$scratch/x.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'not a shard of a split model' "$scratch/err"
ok $? "merge of a plain model says it is not a shard"
"$GGUFED" merge -q "$s1" "$scratch/m1.gguf" &&
    "$GGUFED" merge "$s1" "$scratch/m1.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q -- '--force' "$scratch/err"
ok $? "merge refuses to write over a file (--force)"
"$GGUFED" merge -q -e 'set general.name Merged' "$s3" "$scratch/m2.gguf" &&
    [ "$("$GGUFED" get "$scratch/m2.gguf" general.name)" = Merged ]
ok $? "merge from shard 3 with -e"
ls -A "$scratch" "$d" | grep -q '\.ggufed-'
[ $? -ne 0 ]; ok $? "no temporary file is left beside the outputs"

# Into a folder that does not exist: one line naming the folder, nothing
# written.
"$GGUFED" split -q --max-tensors 20 "$demo" "$scratch/nodir/m" \
    2>"$scratch/err"
[ $? -eq 1 ] && grep -q "the folder $scratch/nodir does not exist" \
    "$scratch/err" && [ ! -e "$scratch/nodir" ]
ok $? "split into a missing folder names the folder" ||
    sed 's/^/# /' "$scratch/err"
(cd "$scratch" && "$GGUFED" set "$demo" general.name '"x"' \
    -o nodir2/x.gguf) 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "the folder nodir2 does not exist" "$scratch/err"
ok $? "set -o into a missing relative folder names it" ||
    sed 's/^/# /' "$scratch/err"

# info on a later shard: the sections shown are the first shard's, and it
# says so.
mkdir -p "$scratch/whose"
"$GGUFED" split -q --max-tensors 12 "$demo" "$scratch/whose/demo" &&
    "$GGUFED" info "$scratch/whose/demo-00003-of-00004.gguf" >"$scratch/info"
grep -qx 'sections     of shard 1, demo-00001-of-00004.gguf' "$scratch/info"
ok $? "info on shard 3 says whose sections it shows" ||
    sed 's/^/# /' "$scratch/info"

# A prefix that is a folder ("DIR/"): the shards are named after the
# input in it, not "DIR/-00001-of-....gguf".
mkdir "$scratch/into"
cp "$demo" "$scratch/demo.gguf"
"$GGUFED" split -q --max-tensors 20 "$scratch/demo.gguf" "$scratch/into/" &&
    [ -f "$scratch/into/demo-00001-of-00002.gguf" ] &&
    [ -f "$scratch/into/demo-00002-of-00002.gguf" ] &&
    [ "$(ls "$scratch/into" | wc -l)" -eq 2 ]
ok $? "split into DIR/: DIR/demo-00001-of-00002.gguf ..." ||
    ls "$scratch/into" | sed 's/^/# /'

# merge of shards of two sets (a shard of another split of the same
# model under this set's name): refused, nothing written, where it wrote
# a model with a tensor twice and others missing.
mkdir "$scratch/mix"
"$GGUFED" split -q --max-tensors 12 "$demo" "$scratch/mix/a" &&
    "$GGUFED" split -q --max-tensors 4 "$demo" "$scratch/mix/b" &&
    cp "$scratch/mix/b-00003-of-00010.gguf" "$scratch/mix/a-00003-of-00004.gguf"
"$GGUFED" merge "$scratch/mix/a-00001-of-00004.gguf" "$scratch/mix/m.gguf" \
    2>"$scratch/err"
[ $? -eq 1 ] && [ ! -e "$scratch/mix/m.gguf" ] &&
    grep -q "the shards are not one whole set: a-00003-of-00004.gguf: " \
    "$scratch/err"
ok $? "merge of shards of two sets: refused, names the shard, writes nothing" ||
    sed 's/^/# /' "$scratch/err"

done_testing
