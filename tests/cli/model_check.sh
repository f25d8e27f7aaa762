#!/bin/sh
# model_check.sh - the model check on the command line: each kind of hand
# edit of the demo model (llama) that makes llama.cpp refuse it is an
# error of validate naming the tensor or key, in text and JSON; a save
# says so on standard error and goes on, --strict writes nothing; a
# harmless edit stays clean.
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
m="$scratch/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"	# a conventional name
out="$scratch/out"

# v EDIT...: the demo with these edit commands applied, in $m (forced:
# some are edits a save would otherwise refuse).
v() {
	cp_w "$demo" "$m" || return 1
	for e in "$@"; do
		set -- "$@" -e "$e"
		shift
	done
	"$GGUFED" edit "$m" -i -q --force "$@" >/dev/null 2>&1
}
# run ARGS...: validate, output in $out, exit status in $rc.
run() { "$GGUFED" validate "$@" >"$out" 2>&1; rc=$?; }
# fails DESCRIPTION PATTERN...: validate exits 1 and prints every pattern.
fails() {
	d=$1
	shift
	run "$m"
	r=$([ $rc -eq 1 ]; echo $?)
	for p in "$@"; do
		grep -q -- "$p" "$out" || r=1
	done
	ok $r "$d" || sed 's/^/# /' "$out"
}

v
run "$m"
[ $rc -eq 0 ] && [ "$(cat "$out")" = "$m: no problems found" ]
ok $? "the demo model is clean"

v 'rename blk.0.attn_k.weight blk.0.attn_kk.weight'
fails "a renamed tensor: missing, and one llama.cpp does not load" \
    "^$m: error: blk.0.attn_k.weight is missing: llama.cpp requires it for llama (block 0 of block_count = 4)$" \
    "^$m:0x[0-9a-f]*: error: tensor blk.0.attn_kk.weight is not used by llama: llama.cpp refuses files with tensors it does not load$"
v 'rm-tensor blk.1.ffn_up.weight'
fails "a removed tensor" \
    "error: blk.1.ffn_up.weight is missing: llama.cpp requires it for llama"
v 'rm-tensor output.weight'
run "$m"
[ $rc -eq 0 ] && ! grep -q "output.weight" "$out"
ok $? "output.weight removed: llama ties it to the token embeddings, clean"
v 'set llama.block_count 5'
fails "block_count raised: block 4's tensors are missing" \
    "error: blk.4.attn_norm.weight is missing: llama.cpp requires it for llama (block 4 of block_count = 5)$" \
    "error: 1 more tensor llama.cpp requires is missing (--json lists each)$"
v 'set llama.block_count 3'
fails "block_count lowered: block 3's tensors are not loaded" \
    "error: tensor blk.3.attn_norm.weight is not used by llama" \
    "error: 1 more tensor llama.cpp does not load: it refuses such files (--json lists each)$"
v 'set llama.block_count 4000000000'
fails "a huge block_count: refused, said once" \
    "error: llama.cpp refuses the model: llama.cpp loads at most 512 blocks"
! grep -q "blocks 40 to\|blk\." "$out"
ok $? "and its blocks are not checked one by one"
[ "$(wc -l <"$out")" -le 14 ]
ok $? "and a bounded report ($(wc -l <"$out") lines)"
v 'set llama.block_count 0'
fails "no blocks at all: refused" \
    "error: llama.cpp refuses the model: llama.cpp loads no model without blocks"
v 'set llama.expert_count:u32 1025' 'set llama.expert_used_count:u32 2'
fails "more experts than llama.cpp loads" \
    "error: llama.cpp refuses the model: llama.cpp loads at most 1024 experts"
v 'set llama.attention.head_count_kv 2'
fails "head_count_kv: the key and value projections" \
    "error: blk.0.attn_k.weight: shape \[256, 128\], llama.cpp expects \[256, 64\] from .*attention.head_count_kv = 2" \
    "error: blk.3.attn_v.weight: shape \[256, 128\], llama.cpp expects \[256, 64\]"
v 'set llama.embedding_length 128'
fails "embedding_length: every tensor of that width" \
    "error: token_embd.weight: shape \[256, 3072\], llama.cpp expects \[128, 3072\] from embedding_length = 128 and 3072 tokens$" \
    "error: [0-9]* more tensors have a shape llama.cpp refuses (--json lists each)$"
v 'rm llama.context_length'
fails "a required key removed" \
    "^$m: error: key llama.context_length not found: llama.cpp requires it for llama$"
v 'rm llama.attention.layer_norm_rms_epsilon'
fails "a key only llama requires, removed" \
    "error: key llama.attention.layer_norm_rms_epsilon not found: llama.cpp requires it for llama$"
v 'set llama.context_length:i32 2048'
fails "a key of the wrong type" \
    "error: llama.context_length should be u32, not i32: llama.cpp refuses another type"
[ "$(grep -c "context_length" "$out")" -eq 1 ]
ok $? "said once (the reader's finding, not the model check's too)"
v 'set llama.rope.dimension_count:str 32'
fails "an optional key of the wrong type is still read, and refused" \
    "error: llama.rope.dimension_count should be u32, not str"
v 'append tokenizer.ggml.tokens "zzz"' 'append tokenizer.ggml.scores 0' \
    'append tokenizer.ggml.token_type 1'
fails "a token added: the embeddings have a row fewer" \
    "error: token_embd.weight: shape \[256, 3072\], llama.cpp expects \[256, 3073\] from embedding_length = 256 and 3073 tokens$" \
    "error: output.weight: shape \[256, 3072\], llama.cpp expects \[256, 3073\]"
v 'set llama.expert_count:u32 8' 'set llama.expert_used_count:u32 2'
fails "experts declared: the expert tensors are required, the dense ones not loaded" \
    "error: blk.0.ffn_gate_inp.weight is missing" \
    "error: tensor blk.0.ffn_gate.weight is not used by llama"
v 'set general.architecture nosuch'
run "$m"
[ $rc -eq 0 ] && grep -q "^$m: note: tensors not checked: architecture nosuch is not in the table$" "$out"
ok $? "an architecture not in the table: a note, no guess"
v 'set general.name "Another name"'
run "$m"
[ $rc -eq 0 ] && [ "$(cat "$out")" = "$m: no problems found" ]
ok $? "a harmless edit (general.name) stays clean"

# JSON: the same findings, with the tensor info's offset.
v 'rename blk.0.attn_k.weight blk.0.attn_kk.weight'
"$GGUFED" validate --json "$m" >"$out"
"$jsoncheck" <"$out" &&
    grep -q '"level": "error", "offset": null, "message": "blk.0.attn_k.weight is missing: llama.cpp requires it for llama (block 0 of block_count = 4)"' "$out" &&
    grep -q '"level": "error", "offset": [0-9]*, "message": "tensor blk.0.attn_kk.weight is not used by llama' "$out" &&
    grep -q '"errors": 2' "$out"
ok $? "--json: the findings, the tensor's offset, the count" || sed 's/^/# /' "$out"

# Saves: a warning on standard error, the file written; --strict refuses.
cp_w "$demo" "$m"
"$GGUFED" rename "$m" blk.0.attn_k.weight blk.0.attn_kk.weight \
    -o "$scratch/o.gguf" >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 0 ] && [ -f "$scratch/o.gguf" ] &&
    grep -q "^ggufed: $scratch/o.gguf: warning: llama.cpp would refuse the result: blk.0.attn_k.weight is missing" "$scratch/err" &&
    grep -q "warning: llama.cpp would refuse the result: tensor blk.0.attn_kk.weight is not used by llama" "$scratch/err"
ok $? "a save llama.cpp would refuse: written, with a warning per problem" ||
    sed 's/^/# /' "$scratch/err"
rm -f "$scratch/o.gguf"
"$GGUFED" rename --strict "$m" blk.0.attn_k.weight blk.0.attn_kk.weight \
    -o "$scratch/o.gguf" >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$scratch/o.gguf" ] &&
    grep -q "error: llama.cpp would refuse the result: blk.0.attn_k.weight is missing" "$scratch/err" &&
    grep -q "not saved (--strict)" "$scratch/err"
ok $? "--strict: exit 1, nothing written" || sed 's/^/# /' "$scratch/err"
"$GGUFED" set --strict "$m" llama.block_count 5 -i 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && cmp -s "$m" "$demo"
ok $? "--strict in place: the file untouched"
"$GGUFED" set --strict "$m" general.name "Fine" -i -q 2>"$scratch/err"
[ $? -eq 0 ] && [ ! -s "$scratch/err" ] && ! cmp -s "$m" "$demo"
ok $? "--strict with a harmless edit: saved, nothing said"
for c in "rm --strict $m llama.context_length" \
    "mv --strict $m llama.context_length llama.ctx" \
    "rm-tensor --strict $m blk.0.ffn_up.weight" \
    "edit --strict $m -e 'set llama.embedding_length 128'"; do
	cp_w "$demo" "$m"
	eval "\"\$GGUFED\" $c -i" 2>/dev/null
	r=$?
	[ $r -eq 1 ] && cmp -s "$m" "$demo"
	ok $? "--strict refuses: $(echo "$c" | sed "s|$m|FILE|")"
done
# The tokenizer's checks of validate are a save's too: a scores array
# made shorter than the tokens, a tokenizer llama.cpp does not know, BPE
# without merges.
for e in 'del tokenizer.ggml.scores[0]|tokenizer.ggml.scores has 3,071 elements but tokenizer.ggml.tokens has 3,072' \
    'set tokenizer.ggml.model foo|names a tokenizer llama.cpp does not know' \
    'set tokenizer.ggml.model gpt2|no tokenizer.ggml.merges array'; do
	cp_w "$demo" "$m"
	"$GGUFED" edit --strict "$m" -i -e "${e%%|*}" 2>"$scratch/err"
	r=$?
	[ $r -eq 1 ] && cmp -s "$m" "$demo" &&
	    grep -q "error: llama.cpp would refuse the result: .*${e#*|}" \
	    "$scratch/err"
	ok $? "--strict refuses ${e%%|*}" || sed 's/^/# /' "$scratch/err"
done
# split and merge with -e: the same warnings, --strict writes no file.
cp_w "$demo" "$m"
mkdir "$scratch/sp"
"$GGUFED" split -q --max-tensors 20 -e 'rm-tensor blk.0.attn_k.weight' \
    "$m" "$scratch/sp/w" 2>"$scratch/err"
rc=$?
[ $rc -eq 0 ] && [ -n "$(ls "$scratch/sp" | grep '^w-00001-of-')" ] &&
    grep -q "^ggufed: $scratch/sp/w: warning: llama.cpp would refuse the result: blk.0.attn_k.weight is missing" "$scratch/err"
ok $? "split -e: written, with a warning per problem" ||
    sed 's/^/# /' "$scratch/err"
"$GGUFED" split -q --strict -e 'rm-tensor blk.0.attn_k.weight' "$m" \
    "$scratch/sp/s" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && [ -z "$(ls "$scratch/sp" | grep '^s')" ] &&
    grep -q "error: llama.cpp would refuse the result: blk.0.attn_k.weight is missing" "$scratch/err" &&
    grep -q "not saved (--strict)" "$scratch/err"
ok $? "split --strict: exit 1, no shard written" ||
    sed 's/^/# /' "$scratch/err"
"$GGUFED" split -q --strict -e 'set general.name "Fine"' "$m" \
    "$scratch/sp/f" 2>"$scratch/err"
[ $? -eq 0 ] && [ ! -s "$scratch/err" ] &&
    [ -f "$scratch/sp/f-00001-of-00001.gguf" ]
ok $? "split --strict with a harmless edit: written, nothing said"
"$GGUFED" split -q --max-tensors 20 "$m" "$scratch/sp/p"
p1=$(ls "$scratch"/sp/p-00001-of-*.gguf)
"$GGUFED" merge -q "$p1" "$scratch/sp/m.gguf" \
    -e 'set llama.block_count 5' 2>"$scratch/err"
rc=$?
[ $rc -eq 0 ] && [ -f "$scratch/sp/m.gguf" ] &&
    grep -q "^ggufed: $scratch/sp/m.gguf: warning: llama.cpp would refuse the result: .*blk.4" "$scratch/err"
ok $? "merge -e: written, with a warning per problem" ||
    sed 's/^/# /' "$scratch/err"
"$GGUFED" merge -q --strict "$p1" \
    "$scratch/sp/n.gguf" -e 'set llama.block_count 5' 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$scratch/sp/n.gguf" ] &&
    grep -q "not saved (--strict)" "$scratch/err"
ok $? "merge --strict: exit 1, nothing written" ||
    sed 's/^/# /' "$scratch/err"

# A file already refused: its edits are not blamed for it.
v 'rm llama.context_length'
"$GGUFED" set --strict "$m" general.name "Fine" -i -q 2>"$scratch/err"
[ $? -eq 0 ] && [ ! -s "$scratch/err" ]
ok $? "a problem the file had before the edit is not the edit's"

# The regex rename preview marks what llama.cpp will not find.
cp_w "$demo" "$m"
"$GGUFED" rename "$m" 's/^blk\.(\d+)\.attn_k\./blk.$1.attn_kk./' -n \
    >"$out" 2>/dev/null
grep -q '^> tensor "blk.0.attn_k.weight" -> "blk.0.attn_kk.weight"  (llama.cpp will not find it)$' "$out" &&
    [ "$(grep -c 'will not find it' "$out")" -eq 4 ]
ok $? "rename -n: every new name llama.cpp will not find is marked"
"$GGUFED" rename "$m" 's/^(output)\.weight$/$1.weight/' -n >"$out" 2>&1
! grep -q 'will not find' "$out"
ok $? "rename -n: nothing marked when llama.cpp finds the names"

# The table: a malformed row stops the build, naming its line.
m2c="$TESTS_SRCDIR/../build-aux/models2c"
t2c() {	# t2c ROWS...: models2c over an arch * line and ROWS
	{
		printf '# a table\narch\t*\t-\n'
		for r in "$@"; do printf '%s\n' "$r"; done
	} >"$scratch/t.tsv"
	sh "$m2c" "$scratch/t.tsv" >"$scratch/t.c" 2>"$scratch/t.err"
}
t2c "$(printf 'let\tn\t1')" "$(printf 'tensor\tx.weight\tn, 2\topt if n > 0; req')"
# Strings are offsets into one array ("*" "-" "n" "1" before), so the
# table holds no pointer for the loader to relocate.
[ $? -eq 0 ] && grep -q '{ GGUF_MR_TENSOR, 8, 17, 22, 4 }' "$scratch/t.c" &&
    sed -n '/^const char gguf_model_strs/,/;$/p' "$scratch/t.c" |
    tr -d '\t\n' | grep -q -F '"x.weight" "\0""n, 2" "\0""opt if n > 0; req" "\0"' &&
    ! grep -q 'NULL' "$scratch/t.c"
ok $? "models2c: rows become the C table, with their line numbers"
t2c "$(printf 'let\tn\t1')" "$(printf 'tensor\tx.weight')"
[ $? -ne 0 ] && grep -q "t.tsv:4: want 3 or 4 tab-separated fields, found 2" "$scratch/t.err"
ok $? "models2c: a row without its value stops the build at its line"
t2c "$(printf 'key\tk\tu33')"
[ $? -ne 0 ] && grep -q 't.tsv:3: unknown type "u33"' "$scratch/t.err"
ok $? "models2c: an unknown type stops the build"
t2c "$(printf 'tensor\tx\t1\treq when n')"
[ $? -ne 0 ] && grep -q "t.tsv:3: a clause is req, opt, run, none" "$scratch/t.err"
ok $? "models2c: a clause it does not know stops the build"
t2c "$(printf 'arch\tqwen2\tnosuch')"
[ $? -ne 0 ] && grep -q 't.tsv:3: base "nosuch" is not a section above' "$scratch/t.err"
ok $? "models2c: a base that is not a section stops the build"
t2c "$(printf 'frob\tx\t1')"
[ $? -ne 0 ] && grep -q 't.tsv:3: unknown kind "frob"' "$scratch/t.err"
ok $? "models2c: an unknown kind stops the build"
t2c "$(printf 'val\t{arch}.block_count\t2')" "$(printf 'val\t-\tneeds its target')"
[ $? -eq 0 ] && grep -q '{ GGUF_MR_VAL, 4, 23, GGUF_MR_NONE, 3 }' "$scratch/t.c"
ok $? "models2c: val rows, a key's or -, become the C table"
t2c "$(printf 'val\tk\t2\treq')"
[ $? -ne 0 ] && grep -q "t.tsv:3: a val row has no WHEN field" "$scratch/t.err"
ok $? "models2c: a val row with a WHEN stops the build"

done_testing
