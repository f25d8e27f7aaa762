#!/bin/sh
# kinds.sh - files that are not models: LoRA adapters, control vectors,
# importance matrices and projectors (tests/tools/gen_kinds), each told
# apart, named by info and validate, spared the model's warnings and
# checked by its own rules, alone and with --base.
. "$TESTS_SRCDIR/lib.sh"

d=$scratch/k
mkdir "$d"
"$TESTS_BUILDDIR/tools/gen_kinds" files "$d" ||
    { echo "Bail out! gen_kinds failed"; exit 1; }
out=$scratch/out
jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"

# run ARGS...: validate, output in $out, exit status in $rc.
run() { "$GGUFED" validate "$@" >"$out" 2>&1; rc=$?; }
# has TEXT: $out holds the line fragment TEXT.
has() { grep -qF -- "$1" "$out"; }
# findings: $out's error and warning lines.
findings() { grep -E ': (error|warning): ' "$out"; }

# ---------------------------------------------------------- recognition
"$GGUFED" info "$d/lora.gguf" >"$out" 2>&1
has "kind         LoRA adapter for llama, rank 4, alpha 8, 3 pairs"
ok $? "info: a LoRA adapter, its architecture, rank, alpha and pairs"
"$GGUFED" info "$d/alora.gguf" >"$out" 2>&1
has "kind         aLoRA adapter for llama, rank 4, alpha 8, 3 pairs, 3 invocation tokens"
ok $? "info: an aLoRA adapter and its invocation tokens"
"$GGUFED" info "$d/cvec.gguf" >"$out" 2>&1
has "kind         control vector for llama, 2 directions, width 8"
ok $? "info: a control vector, its model, directions and width"
"$GGUFED" info "$d/imatrix.gguf" >"$out" 2>&1
has "kind         importance matrix of 2 tensors, 10 chunks of 512 tokens, datasets wiki.train.raw"
ok $? "info: an imatrix, its chunks and datasets"
"$GGUFED" info "$d/mmproj.gguf" >"$out" 2>&1
has "kind         vision projector (gemma3)"
ok $? "info: a vision projector and its type"
"$GGUFED" info "$d/mmproj-audio.gguf" >"$out" 2>&1
has "kind         audio projector (ultravox)"
ok $? "info: an audio projector"
"$GGUFED" info "$d/lora-type.gguf" >"$out" 2>&1
has 'kind         adapter (adapter.type "prefix") for llama, rank 4, alpha 16, 1 pair'
ok $? "info: an adapter of another type says which"
"$GGUFED" info "$d/base.gguf" >"$out" 2>&1
! grep -q "^kind" "$out"
ok $? "info: a model has no kind line"
"$GGUFED" info --json "$d/lora.gguf" >"$out" 2>&1 && "$jsoncheck" <"$out" &&
    has '"kind": "lora"' && has '"kind_text": "LoRA adapter for llama'
ok $? "info --json: kind and kind_text"
"$GGUFED" info --json "$d/base.gguf" >"$out" 2>&1 && has '"kind": "model"' &&
    ! has kind_text
ok $? "info --json: a model's kind"

# The browser's Summary names the kind too (script mode: keys, then a dump).
printf 'size 120x40\nkeys 1\ndump %s\n' "$scratch/screen" >"$scratch/script"
(unset NO_COLOR; GGUFED_SCRIPT=$scratch/script "$GGUFED" "$d/cvec.gguf") \
    >/dev/null 2>&1 &&
    grep -q "Kind.*control vector for llama, 2 directions, width 8" \
    "$scratch/screen" && grep -q "Checks  none" "$scratch/screen" &&
    ! grep -q "KV cache" "$scratch/screen"
ok $? "the Summary: the kind, no finding, no memory of a model"

# --------------------------------------- no model warnings on the others
for f in lora alora cvec imatrix mmproj mmproj-audio; do
	run "$d/$f.gguf"
	[ $rc -eq 0 ] && [ -z "$(findings)" ]
	ok $? "$f: no error and no warning"
done
run "$d/cvec.gguf"
head -1 "$out" | grep -qF "$d/cvec.gguf: control vector for llama"
ok $? "validate names the kind first"
! has "context_length" && ! has "general.architecture"
ok $? "a control vector: no model key wanted"
run "$d/imatrix.gguf"
! has "general.architecture"
ok $? "an imatrix: no architecture wanted"
run --json "$d/lora.gguf"
"$jsoncheck" <"$out" && has '"kind": "lora"'
ok $? "validate --json: the kind"

# ----------------------------------------------------- an adapter alone
run "$d/lora-nob.gguf"
[ $rc -eq 1 ] && has "error: tensor blk.0.attn_q.weight.lora_a has no blk.0.attn_q.weight.lora_b beside it"
ok $? "a lora_a without its lora_b: an error naming it"
run "$d/lora-rank.gguf"
[ $rc -eq 1 ] && has "error: LoRA pair blk.0.attn_q.weight: lora_a is 8 x 4 and lora_b 5 x 8"
ok $? "a pair of two ranks: an error naming it"
run "$d/lora-type.gguf"
[ $rc -eq 1 ] && has 'error: adapter.type is "prefix"' &&
    has "error: adapter.lora.alpha is u32, not f32"
ok $? "adapter.type not lora, alpha not f32: errors"
run "$d/lora-notype.gguf"
[ $rc -eq 1 ] && has "LoRA adapter for llama" &&
    has "error: no general.type key" && ! has "tokenizer"
ok $? "lora tensors without general.type: an adapter, and an error"
run "$d/lora-suffix.gguf"
[ $rc -eq 1 ] && has "error: tensor blk.0.attn_q.weight.lora_c is neither" &&
    ! has "attn_norm"
ok $? "a tensor of no known suffix: an error; a norm: none"
run "$d/lora-absent.gguf"
ok $rc "a pair the base may lack: no error without --base"

# --------------------------------------------------- an adapter on a base
run --base "$d/base.gguf" "$d/lora.gguf" "$d/alora.gguf"
[ $rc -eq 0 ] && [ -z "$(findings)" ]
ok $? "--base: adapters that fit (token_embd's pair flipped)"
run --base "$d/base.gguf" "$d/lora-absent.gguf"
[ $rc -eq 1 ] && has "error: LoRA pair blk.7.attn_q.weight: the base model has no tensor blk.7.attn_q.weight"
ok $? "--base: a pair for a tensor the base lacks"
run --base "$d/base.gguf" "$d/lora-wide.gguf"
[ $rc -eq 1 ] && has "which do not fit the base model's 8 x 8"
ok $? "--base: a pair of another width"
run --base "$d/base.gguf" "$d/lora-gpt2.gguf"
[ $rc -eq 1 ] && has "error: general.architecture is \"gpt2\" but the base model's is \"llama\""
ok $? "--base: another architecture"
run --base "$d/nothere.gguf" "$d/lora.gguf"
[ $rc -eq 1 ] && grep -q "^ggufed: .*nothere.gguf" "$out"
ok $? "--base that does not open: one line, exit 1"
run --base "$d/base.gguf" "$d/base.gguf"
has "note: --base is for an adapter"
ok $? "--base on a model: a note"

# --------------------------------------------------------------- imatrix
run "$d/imatrix-alone.gguf"
[ $rc -eq 1 ] && has "error: tensor blk.0.ffn_up_exps.weight.in_sum2 has no blk.0.ffn_up_exps.weight.counts beside it"
ok $? "sums without counts: an error naming them"
run "$d/imatrix-counts.gguf"
[ $rc -eq 1 ] && has "error: tensor blk.0.ffn_up_exps.weight.counts holds 2 counts but blk.0.ffn_up_exps.weight.in_sum2 is 8 x 4, of 4 rows"
ok $? "fewer counts than rows: an error"
"$GGUFED" rm "$d/imatrix.gguf" imatrix.chunk_size -o "$d/imatrix-nosize.gguf" \
    -q --force >/dev/null 2>&1
run "$d/imatrix-nosize.gguf"
[ $rc -eq 1 ] && has "error: no imatrix.chunk_size key: llama-quantize refuses an imatrix without it" &&
    has "importance matrix of 2 tensors, 10 chunks, datasets"
ok $? "no chunk size: an error"
"$GGUFED" set "$d/imatrix.gguf" imatrix.chunk_count:i32 10 \
    -o "$d/imatrix-i32.gguf" -q --force >/dev/null 2>&1
run "$d/imatrix-i32.gguf"
[ $rc -eq 1 ] && has "error: imatrix.chunk_count is i32, not u32"
ok $? "a chunk count of another type: an error"

# ---------------------------------------------------------- control vectors
run "$d/cvec-width.gguf"
[ $rc -eq 1 ] && has "error: tensor direction.2 is 9 wide but direction.1 is 8"
ok $? "a control vector of two widths: an error naming the tensor"
run "$d/cvec-zero.gguf"
[ $rc -eq 1 ] && has "error: tensor direction.0 is for layer 0"
ok $? "a direction for layer 0: an error"
run "$d/cvec-name.gguf"
[ $rc -eq 1 ] && has "error: tensor direction.x is not a direction.N"
ok $? "a tensor of no layer: an error"
run "$d/cvec-f16.gguf"
[ $rc -eq 1 ] && has "error: tensor direction.2 is not F32"
ok $? "an F16 direction: an error"
run "$d/cvec-wide.gguf"
ok $rc "a control vector of width 16: no error alone"
run --base "$d/base.gguf" "$d/cvec.gguf"
[ $rc -eq 0 ] && [ -z "$(findings)" ]
ok $? "--base: a control vector that fits"
run --base "$d/base.gguf" "$d/cvec-wide.gguf"
[ $rc -eq 1 ] && has "error: the control vector is 16 wide but the base model's llama.embedding_length is 8"
ok $? "--base: a control vector of another width"
run --base "$d/base.gguf" "$d/cvec-deep.gguf"
[ $rc -eq 0 ] && has "warning: tensor direction.5 is for layer 5 but the base model's llama.block_count is 3: llama.cpp never applies it"
ok $? "--base: a direction past the model's blocks: a warning"

# ------------------------------------------------------------- projectors
"$GGUFED" set "$d/mmproj.gguf" clip.projector_type gemma9 \
    -o "$d/mmproj-type.gguf" -q --force >/dev/null 2>&1
run "$d/mmproj-type.gguf"
[ $rc -eq 1 ] && has 'error: clip.projector_type is "gemma9", a projector type'
ok $? "a projector type llama.cpp does not know: an error"
"$GGUFED" rm "$d/mmproj.gguf" clip.projector_type \
    -o "$d/mmproj-none.gguf" -q --force >/dev/null 2>&1
run "$d/mmproj-none.gguf"
[ $rc -eq 1 ] && has "error: no clip.projector_type key"
ok $? "no projector type: an error"
run --base "$d/base.gguf" "$d/mmproj.gguf" "$d/mmproj-audio.gguf"
[ $rc -eq 0 ] && [ -z "$(findings)" ]
ok $? "--base: projectors of the model's width"
run --base "$d/base.gguf" "$d/mmproj-wide.gguf"
[ $rc -eq 1 ] && has "error: clip.vision.projection_dim is 16 but the base model's llama.embedding_length is 8"
ok $? "--base: a projector of another width"
"$GGUFED" rm "$d/mmproj.gguf" clip.vision.projection_dim \
    -o "$d/mmproj-nodim.gguf" -q --force >/dev/null 2>&1
run --base "$d/base.gguf" "$d/mmproj-nodim.gguf"
[ $rc -eq 1 ] &&
    has "error: clip.vision.projection_dim is missing" &&
    ! has "width is not checked"
ok $? "--base: no projection_dim is the rules' one error, not a note too" ||
    sed 's/^/# /' "$out"

done_testing
