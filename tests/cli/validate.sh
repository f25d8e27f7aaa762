#!/bin/sh
# validate.sh - ggufed validate: what it finds, at which level, where, and
# its exit status. Defects are made in copies of the demo model with
# ggufed's own edits, so each case changes one thing of a valid model.
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
m="$scratch/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"	# a conventional name
out="$scratch/out"

# v EDIT...: the demo with these edit commands applied, in $m (forced:
# the defects validate finds are ones an edit refuses to make).
v() {
	cp "$demo" "$m" && chmod 644 "$m" || return 1
	for e in "$@"; do
		set -- "$@" -e "$e"
		shift
	done
	[ $# -eq 0 ] || "$GGUFED" edit "$m" -i -q --force "$@" >/dev/null
}
# run ARGS...: validate, output in $out, exit status in $rc.
run() { "$GGUFED" validate "$@" >"$out" 2>&1; rc=$?; }

# -------------------------------------------------------------- a good file
v
run "$m"
[ $rc -eq 0 ] && [ "$(cat "$out")" = "$m: no problems found" ]
ok $? "the demo model: no problems found, exit 0"
run --strict "$m"
ok $rc "--strict: still 0"

# ------------------------------------------------------------ the tokenizer
v 'set tokenizer.ggml.eos_token_id 999999'
run "$m"
[ $rc -eq 0 ] && grep -q "^$m:0x[0-9a-f]*: warning: tokenizer.ggml.eos_token_id is 999999, not a token: the vocabulary has .* (llama.cpp ignores it and keeps its default)$" "$out" &&
    tail -1 "$out" | grep -q ": 1 warning$"
ok $? "special token id past the vocabulary: a warning with the key's offset, exit 0"
run --strict "$m"
ok $([ $rc -eq 1 ]; echo $?) "--strict: a warning fails"
v 'set tokenizer.ggml.eos_token_id 4294967295'
run "$m"
[ $rc -eq 0 ] && grep -q "note: tokenizer.ggml.eos_token_id is 4294967295" "$out"
ok $? "special token id -1 as u32 (none): a note"

v 'del tokenizer.ggml.scores[0]'
run "$m"
[ $rc -eq 1 ] && grep -q "error: tokenizer.ggml.scores has [0-9,]* elements but tokenizer.ggml.tokens has " "$out"
ok $? "scores shorter than tokens: an error, exit 1"
v 'del tokenizer.ggml.tokens[3071]' 'del tokenizer.ggml.scores[3071]'
run "$m"
grep -q "warning: tokenizer.ggml.token_type has 3,072 elements but tokenizer.ggml.tokens has 3,071" "$out"
ok $? "token types longer than tokens: a warning (the rest is never read)"
[ $rc -eq 1 ] && grep -q "error: token_embd.weight: shape \[256, 3072\], llama.cpp expects \[256, 3071\] from embedding_length = 256 and 3071 tokens$" "$out"
ok $? "a token fewer: the token embeddings no longer match the vocabulary"
v 'set tokenizer.ggml.token_type[5] 9' 'set tokenizer.ggml.token_type[7] -2'
run "$m"
grep -q "warning: tokenizer.ggml.token_type: 2 tokens of no known type (0 to 6), the first id 5$" "$out"
ok $? "token types out of range: counted, first id named"
# A float hyper-parameter that makes sense only positive: a warning with
# its value (llama.cpp loads it and computes garbage), not an error.
for fe in "llama.rope.freq_base nan|llama.rope.freq_base is nan" \
    "llama.rope.freq_base 0|llama.rope.freq_base is 0" \
    "llama.rope.freq_base -5|llama.rope.freq_base is -5" \
    "llama.attention.layer_norm_rms_epsilon -1e-5|llama.attention.layer_norm_rms_epsilon is -1e-05"; do
	v "set ${fe%%|*}"
	run "$m"
	[ $rc -eq 0 ] && grep -q "warning: ${fe#*|}: llama.cpp loads it" "$out"
	ok $? "set ${fe%%|*}: a warning naming the value" ||
	    sed 's/^/# /' "$out"
done
v 'set llama.rope.freq_base 500000'
run "$m"
! grep -q "freq_base" "$out"
ok $? "a positive RoPE base: nothing said"
v 'set tokenizer.ggml.model gpt2'
run "$m"
[ $rc -eq 1 ] && grep -q "error: llama.cpp refuses the model: tokenizer.ggml.model is a BPE tokenizer (gpt2, gemma4) but there is no tokenizer.ggml.merges array (bpe_merges)" "$out"
ok $? "a BPE vocabulary without merges: an error"
v 'rm tokenizer.ggml.model'
run "$m"
[ $rc -eq 1 ] && grep -q "error: tokenizer.ggml.tokens without tokenizer.ggml.model" "$out"
ok $? "tokens without a tokenizer model: an error (llama.cpp refuses it)"
v 'set tokenizer.ggml.model none' 'rm tokenizer.ggml.tokens' \
    'rm tokenizer.ggml.scores' 'rm tokenizer.ggml.token_type'
run "$m"
! grep -q "tokenizer" "$out"
ok $? "tokenizer model none without tokens: nothing to say"
v 'set tokenizer.ggml.model llama' 'rm tokenizer.ggml.tokens'
run "$m"
[ $rc -eq 1 ] && grep -q "error: tokenizer.ggml.model is set but there is no tokenizer.ggml.tokens array" "$out"
ok $? "a tokenizer model without tokens: an error"
v 'set llama.vocab_size:u32 7'
run "$m"
grep -q "warning: llama.vocab_size is 7 but tokenizer.ggml.tokens has " "$out"
ok $? "{arch}.vocab_size disagreeing with the tokens: a warning"

# ------------------------------------------------------- hyper-parameters
v 'rm llama.context_length'
run "$m"
[ $rc -eq 1 ] && grep -q "^$m: error: key llama.context_length not found: llama.cpp requires it for llama$" "$out"
ok $? "a missing hyper-parameter: an error without an offset"
v 'set llama.block_count 1'
run "$m"
[ $rc -eq 1 ] && grep -q ':0x[0-9a-f]*: error: tensor blk.1.attn_norm.weight is not used by llama: llama.cpp refuses files with tensors it does not load$' "$out" &&
    grep -q 'error: 19 more tensors llama.cpp does not load: it refuses such files (--json lists each)$' "$out"
ok $? "blocks beyond the block count: tensors llama.cpp does not load"
# Every block renamed: 36 tensors missing and 36 not loaded, each one a
# problem: the count says 72, the text shows a few of each kind and a
# line for the rest, --json lists every one.
cp "$demo" "$m" && chmod 644 "$m" &&
    "$GGUFED" rename "$m" 's/^blk\.(\d+)\./layers.$1./' -i >/dev/null 2>&1
run "$m"
[ $rc -eq 1 ] && tail -1 "$out" | grep -q ": 72 errors$" &&
    grep -q "^$m: error: 28 more tensors llama.cpp requires are missing (--json lists each)$" "$out" &&
    [ "$(grep -c ' is missing: llama.cpp requires it' "$out")" -eq 8 ]
ok $? "every block renamed: 72 errors counted, the text groups the rest of a kind"
run --json "$m"
[ $rc -eq 1 ] && "$jsoncheck" <"$out" &&
    [ "$(grep -c '"level": "error"' "$out")" -eq 72 ] &&
    grep -q '"errors": 72,' "$out" &&
    grep -q '"message": "blk.3.ffn_up.weight is missing: ' "$out" &&
    grep -q '"message": "tensor layers.3.ffn_up.weight is not used by llama: ' "$out" &&
    ! grep -q 'more tensors' "$out"
ok $? "--json: every one of the 72 findings, none grouped"
run -q "$m"
[ $rc -eq 1 ] && [ "$(cat "$out")" = "$m: 72 errors" ]
ok $? "-q: only the count, 72"
v 'set general.type adapter' 'rm llama.context_length'
run "$m"
! grep -q "context_length" "$out"
ok $? "not a model (general.type): no hyper-parameter checks"

# ----------------------------------------------------------- tensor shapes
v 'set llama.embedding_length 100'
run "$m"
[ $rc -eq 1 ] &&
    grep -q 'error: token_embd.weight: shape \[256, 3072\], llama.cpp expects \[100, 3072\] from embedding_length = 100 and 3072 tokens$' "$out" &&
    grep -q 'error: output_norm.weight: shape \[256\], llama.cpp expects \[100\] from embedding_length = 100$' "$out" &&
    grep -q 'error: 31 more tensors have a shape llama.cpp refuses (--json lists each)$' "$out"
ok $? "embedding_length edited away from the weights: their shapes disagree"
v 'set llama.attention.head_count_kv 1'
run "$m"
grep -q 'error: blk.0.attn_k.weight: shape \[256, 128\], llama.cpp expects \[256, 32\] from .*attention.head_count_kv = 1' "$out" &&
    [ "$(grep -c 'llama.cpp expects' "$out")" -eq 8 ] &&
    [ "$(grep -c 'attn_[kv].weight: shape' "$out")" -eq 8 ]
ok $? "head_count_kv: the key and value projections, and only they"
v 'set llama.feed_forward_length:arr[i32] [512, 512, 7, 512]'
run "$m"
[ "$(cat "$out")" = "$m: no problems found" ]
ok $? "a per-block feed_forward_length array: llama sizes every block by the first"
v 'set llama.feed_forward_length:arr[i32] [512, 512, 512, 512]'
run "$m"
[ "$(cat "$out")" = "$m: no problems found" ]
ok $? "a per-block array that agrees: nothing to say"
v 'set llama.feed_forward_length 256'
run "$m"
grep -q 'error: blk.0.ffn_up.weight: shape \[256, 512\], llama.cpp expects \[256, 256\]' "$out" &&
    grep -q 'error: blk.0.ffn_gate.weight: shape \[256, 512\]' "$out"
ok $? "ffn_up of twice feed_forward_length: llama fuses no gate and up, an error"
v 'set llama.attention.head_count:arr[i32] [8, 4, 8, 8]'
run "$m"
[ "$(cat "$out")" = "$m: no problems found" ]
ok $? "per-block head counts: llama sizes every block by the first's heads"

# ------------------------------------------------- key types (the schema)
v 'set general.file_type:str Q4_K_M'
run "$m"
[ $rc -eq 1 ] && grep -q "^$m:0x[0-9a-f]*: error: general.file_type should be u32, not str: llama.cpp refuses another type$" "$out"
ok $? "a key llama.cpp reads, of another type: an error"
v 'set general.sampling.top_k:u32 40'
run "$m"
[ $rc -eq 0 ] && grep -q "^$m:0x[0-9a-f]*: warning: general.sampling.top_k should be i32, not u32$" "$out"
ok $? "a well-known key llama.cpp does not read, of another type: a warning"
v 'set llama.block_count:u64 4'
run "$m"
[ $rc -eq 1 ] && grep -q "error: llama.block_count should be u32, not u64: llama.cpp refuses another type" "$out"
ok $? "{arch}.block_count as u64 (as the spec's text has it): an error"
v 'set llama.rope.freq_base:f64 10000'
run "$m"
grep -q "error: llama.rope.freq_base should be f32, not f64" "$out"
ok $? "{arch} keys are checked with the file's architecture"
v 'set tokenizer.chat_template.tool_use:u32 1'
run "$m"
grep -q "warning: tokenizer.chat_template.tool_use should be str, not u32" "$out"
ok $? "{name} keys are checked"
v 'set general.base_model.count:u32 1' 'set general.base_model.0.name:i8 1'
run "$m"
grep -q "warning: general.base_model.0.name should be str, not i8" "$out"
ok $? "{id} keys are checked"
v 'set llama.feed_forward_length:arr[u32] [512, 512, 512, 512]'
run "$m"
! grep -q "feed_forward_length should be" "$out"
ok $? "a key with alternative types: each is accepted"
v 'set llama.attention.head_count:arr[i32] [8, 8]'
run "$m"
[ $rc -eq 1 ] && grep -q "^$m:0x[0-9a-f]*: error: key llama.attention.head_count has 2 elements, llama.cpp wants 4 from block_count = 4$" "$out"
ok $? "a per-block array of the wrong length: an error (llama.cpp refuses it)"
v 'set other.arch.key:u64 1'
run "$m"
[ "$(cat "$out")" = "$m: no problems found" ]
ok $? "keys outside the schema are not judged"

# ----------------------------------------------------------- general.*, split
v 'rm general.quantization_version'
run "$m"
grep -q 'warning: tensor "[a-z0-9_.]*" is quantized but there is no general.quantization_version key' "$out"
ok $? "quantized tensors without general.quantization_version"
v 'set split.no:u16 3' 'set split.count:u16 2'
run "$m"
[ $rc -eq 1 ] && grep -q "error: split.no is 3 but split.count is 2" "$out"
ok $? "split.no past split.count: an error"
v 'set split.no:u16 0'
run "$m"
grep -q "warning: split.no without split.count" "$out"
ok $? "half a split description: a warning"

# ------------------------------------------------------------- file names
cp_w "$demo" "$scratch/my model.gguf"
run "$scratch/my model.gguf"
[ $rc -eq 0 ] && grep -q "note: the file name is off the naming convention <BaseName>" "$out"
ok $? "a file name off the convention: a note, exit 0"

# ------------------------------------------------------ the reader's findings
F="$SHARED_DIR/fixtures/real"
if [ -r "$F/zackshen-test-le-v3-twin-of-be.gguf" ]; then
	run "$F/zackshen-test-le-v3-twin-of-be.gguf"
	[ $rc -eq 1 ] && grep -q ':0x45: error: duplicate key "general.architecture" (first at offset 0x18)$' "$out"
	ok $? "duplicate keys (ggml refuses them): an error at the key's offset"
	run "$F/threatflux-test_model-zero-offsets.gguf"
	[ $rc -eq 1 ] && grep -q 'error: tensor "output_norm.weight" overlaps tensor "token_embd.weight"' "$out" &&
	    grep -q 'note: 512512 bytes after the end of the last tensor' "$out"
	ok $? "overlapping tensors: an error; trailing bytes: a note"
	run "$F/tinyllamas-stories-260k-f32.v1.gguf"
	[ $rc -eq 1 ] && grep -q ':0x4: error: GGUF v1 file' "$out"
	ok $? "a v1 file: an error (ggml no longer reads v1)"
else
	ok 0 "# SKIP no shared fixtures"
fi
head -c 6 "$demo" >"$scratch/cut.gguf"
run "$scratch/cut.gguf"
[ $rc -eq 1 ] && grep -q "^$scratch/cut.gguf:0x4: error: file ends inside the version field" "$out" &&
    tail -1 "$out" | grep -q ": 1 error$"
ok $? "an unreadable file: one error with the offset, exit 1"
run "$scratch/nonexistent.gguf"
[ $rc -eq 1 ] && grep -q "error: .*No such file or directory" "$out"
ok $? "a missing file: an error, exit 1"

# ------------------------------------------------------------------ --data
"$TESTS_BUILDDIR/tools/gen_validate" "$scratch/Data-Test-1K-v1.0-F32.gguf"
run "$scratch/Data-Test-1K-v1.0-F32.gguf"
[ $rc -eq 0 ] && [ "$(cat "$out")" = "$scratch/Data-Test-1K-v1.0-F32.gguf: note: tensors not checked: architecture datatest is not in the table
$scratch/Data-Test-1K-v1.0-F32.gguf: 1 note" ]
ok $? "without --data, tensor values are not looked at"
run --data --threads 2 "$scratch/Data-Test-1K-v1.0-F32.gguf"
[ $rc -eq 0 ] &&
    grep -q ':0x[0-9a-f]*: warning: tensor "blk.0.bad" has 1 NaN, 1 +Inf and 1 -Inf values, the first at element 1 (row 0, column 1)$' "$out" &&
    grep -q 'warning: tensor "blk.0.zero": all 8 values are zero$' "$out" &&
    ! grep -q "blk.0.good" "$out"
ok $? "--data: NaN, Inf and all-zero tensors"
run --data "$m"
ok $rc "--data over the demo model's quantized tensors: nothing to say"
"$TESTS_BUILDDIR/tools/gen_validate" --scales "$scratch/Scales-1K-v1.0-Q8_0.gguf"
run --data --threads 2 "$scratch/Scales-1K-v1.0-Q8_0.gguf"
[ $rc -eq 0 ] &&
    grep -q ':0x[0-9a-f]*: warning: tensor "blk.0.q8" has 1 NaN, 15 +Inf and 16 -Inf values, the first at element 64 (row 1, column 0)$' "$out" &&
    grep -q ':0x[0-9a-f]*: warning: tensor "blk.0.q8": 1 Q8_0 block has a NaN or infinite scale (d), the first block 2 (elements 64 to 95)$' "$out" &&
    grep -q ':0x[0-9a-f]*: warning: tensor "blk.0.mx": 1 MXFP4 block has the scale byte 0xff (NaN in the MX format, 2^127 to ggml), the first block 1 (elements 32 to 63)$' "$out" &&
    [ "$(grep -c 'blk.0.mx' "$out")" -eq 1 ]
ok $? "--data: an infinite block scale, its values counted as ggml decodes them; an MXFP4 scale byte 0xff" ||
    sed 's/^/# /' "$out"
run --data --threads 1 "$scratch/Scales-1K-v1.0-Q8_0.gguf"
cp "$out" "$scratch/one-thread"
run --data --threads 2 "$scratch/Scales-1K-v1.0-Q8_0.gguf"
cmp -s "$out" "$scratch/one-thread"
ok $? "--data: the same findings on 1 and 2 threads"
"$GGUFED" split --max-tensors 1 "$scratch/Scales-1K-v1.0-Q8_0.gguf" \
    "$scratch/Scales-1K-v1.0-Q8_0" >/dev/null 2>&1
run --data "$scratch/Scales-1K-v1.0-Q8_0-00001-of-00002.gguf"
grep -q 'warning: tensor "blk.0.q8": 1 Q8_0 block has a NaN' "$out" &&
    grep -q 'warning: tensor "blk.0.mx": 1 MXFP4 block has the scale byte 0xff' "$out"
ok $? "--data on a split model: the tensors of every shard are scanned"

# Non-finite values on both sides of the boundaries of the pieces the
# mapping is scanned (and mapped in) by: every one is found, on 1 and 2
# threads, with the same first element.
"$TESTS_BUILDDIR/tools/gen_validate" --pieces "$scratch/Pieces-1K-v1.0-F16.gguf"
for th in 1 2; do
	run --data --threads $th "$scratch/Pieces-1K-v1.0-F16.gguf"
	grep -q 'warning: tensor "blk.0.big" has 2 NaN, 1 +Inf and 2 -Inf values, the first at element 524287 (row 127, column 4095)$' "$out" &&
	    grep -q 'warning: tensor "blk.0.next" has 0 NaN, 1 +Inf and 0 -Inf values, the first at element 0 ' "$out"
	ok $? "--data --threads $th: NaN and Inf at the first and last elements of 1 MiB pieces"
done

# ------------------------------------------------------------ bool arrays
"$TESTS_BUILDDIR/tools/gen_validate" --bool "$scratch/Bools-1K-v1.0.gguf"
run "$scratch/Bools-1K-v1.0.gguf"
[ $rc -eq 0 ] && grep -q ':0x[0-9a-f]*: warning: x.flags: 2 bool elements are neither 0 nor 1 (element 2 is 2)$' "$out"
ok $? "bools in an array that are neither 0 nor 1: counted, the first named"

# ------------------------------------------------------ more than the cap
"$TESTS_BUILDDIR/tools/gen_validate" --many "$scratch/Many-1K-v1.0.gguf"
run "$scratch/Many-1K-v1.0.gguf"
[ $rc -eq 1 ] && grep -q 'error: duplicate key "general.name"' "$out" &&
    grep -q 'note: (45 more findings not shown: 0 errors, 0 warnings, 45 notes)$' "$out"
ok $? "an error past the 256 findings kept takes a note's place: said, fails the file"

# ----------------------------------------- more blocks than llama.cpp loads
# block_count 4294967295 and 20,000 tensors, one a block: llama.cpp refuses
# more than 512 blocks (LLAMA_MAX_LAYERS). Said once; no block is walked.
big="$scratch/Blocks-1K-v1.0-F32.gguf"
"$TESTS_BUILDDIR/tools/gen_validate" --blocks 20000 "$big"
run "$big"
[ $rc -eq 1 ] && [ "$(grep -c '512 blocks.*block_count = 4294967295' "$out")" -eq 1 ]
ok $? "block_count past 512: one error naming block_count and the limit"
! grep -q 'blk\.\|blocks [0-9]* to' "$out"
ok $? "... and no block is checked one by one"
[ "$(grep -c ': error: ' "$out")" -le 6 ]
ok $? "... the findings are bounded ($(grep -c ': error: ' "$out") errors)"

# -------------------------------------------------------- several, -q, json
v
run -q "$m" "$scratch/cut.gguf" "$scratch/my model.gguf"
[ $rc -eq 1 ] && [ "$(wc -l <"$out")" -eq 3 ] &&
    sed -n 1p "$out" | grep -q "no problems found$" &&
    sed -n 2p "$out" | grep -q ": 1 error$" && sed -n 3p "$out" | grep -q ": 1 note$"
ok $? "several files, -q: one summary each, exit 1 when any has an error"
run --json "$m" "$scratch/cut.gguf" "$scratch/Data-Test-1K-v1.0-F32.gguf"
[ $rc -eq 1 ] && "$jsoncheck" <"$out" &&
    grep -q '"level": "error", "offset": 4, "message": "file ends inside the version field' "$out" &&
    tr -d ' \n' <"$out" | grep -q '"errors":1,"warnings":0,"notes":0,"opened":false' &&
    tr -d ' \n' <"$out" | grep -q '"errors":0,"warnings":0,"notes":0,"opened":true'
ok $? "--json: valid JSON, one object per file, offsets as numbers"

# ------------------------------------------------------------------- usage
"$GGUFED" validate >/dev/null 2>&1
ok $([ $? -eq 2 ]; echo $?) "no file: usage error"
"$GGUFED" validate --bogus "$m" >/dev/null 2>&1
ok $([ $? -eq 2 ]; echo $?) "an unknown option: usage error"
"$GGUFED" validate --data --threads 0 "$m" >/dev/null 2>&1
ok $? "--threads 0: every CPU, as for stats"
"$GGUFED" validate --threads 1025 "$m" >/dev/null 2>&1
ok $([ $? -eq 2 ]; echo $?) "--threads 1025: usage error"

done_testing
