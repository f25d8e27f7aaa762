#!/bin/sh
# model_check.sh - the model check of `ggufed validate` against llama.cpp
# itself. Tiny models of many architectures (tests/tools/gen_memmodels
# --check, which also writes each with a tensor added and with one
# reshaped) are edited by hand as a user would, with ggufed's own edit
# commands: a tensor removed or renamed, block_count up and down, a
# hyper-parameter that shapes tensors, the embedding length, a required
# key removed, a key of the wrong type, a token added to the vocabulary, a
# per-block array of the wrong length, no vocabulary (tokenizer none),
# and a harmless edit (the name);
# and the real models of the shared folder, unedited.
# Each file is loaded by llama.cpp's own library (tests/interop/
# llama_load, the npm package the ggml oracle uses, on the CPU) and
# checked by `ggufed validate --json`. For every case:
#   - validate reports an error exactly when llama.cpp refuses the file;
#   - when it does, an error names the tensor or key the edit touched.
# The verdicts are printed as TAP comments, one line a case.
. "$TESTS_SRCDIR/lib.sh"
. "$TESTS_SRCDIR/interop/verdict.lib"

llama_libdir
probe="$TESTS_BUILDDIR/interop/llama_load"
m=$scratch/models
e=$scratch/edits
mkdir "$m" "$e"
"$TESTS_BUILDDIR/tools/gen_memmodels" --check "$m" >"$scratch/manifest" ||
    { echo "Bail out! gen_memmodels failed"; exit 1; }

# What each case touched: "FILE WORDS...", any of the words is a name an
# error must hold.
: >"$scratch/cases"

# edit NAME KIND TOUCHED ARGS...: the model NAME edited by ggufed ARGS
# (an edit command line: set, rm, rename, rm-tensor, edit), written to
# $e/NAME.KIND.gguf.
edit() {
	name=$1 kind=$2 touched=$3
	shift 3
	out="$e/$name.$kind.gguf"
	if ! "$GGUFED" "$@" -o "$out" -q --force >"$scratch/edit.err" 2>&1; then
		ok 1 "$name $kind: ggufed makes the edit ($*)"
		sed 's/^/# /' "$scratch/edit.err"
		return
	fi
	echo "$out $touched" >>"$scratch/cases"
}

# key FILE KEY: the value of a key, empty if absent or not a number.
key() {
	"$GGUFED" get "$1" "$2" 2>/dev/null
}

# tensors FILE: the names of its tensors, one a line.
tensors() {
	"$GGUFED" dump "$1" | awk '$1 == "tensor" { print $3 }'
}

while read -r name arch reshaped; do
	f=$m/$name.gguf
	a=$arch
	cp "$m/$name-extra.gguf" "$e/$name.extra.gguf"
	echo "$e/$name.extra.gguf extra.weight" >>"$scratch/cases"
	cp "$m/$name-reshape.gguf" "$e/$name.reshape.gguf"
	echo "$e/$name.reshape.gguf $reshaped" >>"$scratch/cases"
	edit "$name" rm-tensor "$reshaped" rm-tensor "$f" "$reshaped"
	edit "$name" rename "$reshaped ${reshaped%.weight}_x.weight" \
	    rename "$f" "$reshaped" "${reshaped%.weight}_x.weight"
	n=$(key "$f" "$a.block_count")
	# One block more moves the NextN layers (a model with them keeps
	# its nextn tensors where they are no longer loaded).
	edit "$name" blocks-up "block_count blk.$n. .nextn." \
	    set "$f" "$a.block_count" $((n + 1))
	edit "$name" blocks-down "block_count blk.$((n - 1))." \
	    set "$f" "$a.block_count" $((n - 1))
	# A hyper-parameter that shapes tensors: the KV heads, else the
	# feed-forward length, else the SSM state; and the embedding length.
	for k in attention.head_count_kv feed_forward_length ssm.state_size; do
		v=$(key "$f" "$a.$k")
		case $v in
		''|0|*[!0-9]*) continue ;;
		esac
		edit "$name" shape "$k" set "$f" "$a.$k" $((v + 1))
		break
	done
	v=$(key "$f" "$a.embedding_length")
	edit "$name" embd "embedding_length" \
	    set "$f" "$a.embedding_length" $((v + 16))
	# A required key removed: the norm's epsilon where the model has one
	# (each architecture asks for its own), else the context length.
	k=context_length
	for c in attention.layer_norm_rms_epsilon \
	    attention.layer_norm_epsilon; do
		[ -n "$(key "$f" "$a.$c")" ] && { k=$c; break; }
	done
	edit "$name" rm-key "$k" rm "$f" "$a.$k"
	edit "$name" key-type "context_length" \
	    set "$f" "$a.context_length:str" 4096
	# (codeshell has no token_embd: its output matrix is both)
	edit "$name" token "token_embd.weight output.weight tokenizer.ggml.tokens" \
	    edit "$f" -e 'append tokenizer.ggml.tokens "zz"' \
	    -e 'append tokenizer.ggml.scores -300.0' \
	    -e 'append tokenizer.ggml.token_type 1'
	# A per-block array one element short: the model's own, or the
	# feed-forward length made one.
	arr=
	for k in attention.head_count feed_forward_length; do
		[ "$(key "$f" "$a.$k" | wc -l)" -gt 1 ] && { arr=$k; break; }
	done
	if [ -n "$arr" ]; then
		edit "$name" array "$arr" edit "$f" -e "del $a.$arr[-1]"
	elif v=$(key "$f" "$a.feed_forward_length") && [ -n "$v" ]; then
		arr=$(awk -v n=$((n - 1)) -v v="$v" 'BEGIN {
			s = "["
			for (i = 0; i < n; i++)
				s = s (i ? ", " : "") v
			print s "]"
		}')
		edit "$name" array "feed_forward_length" \
		    set "$f" "$a.feed_forward_length:arr[u32]" "$arr"
	fi
	edit "$name" name "general.name" set "$f" general.name "edited model"
	# The last block made a NextN (multi-token prediction) layer: most
	# architectures then neither load it nor let its tensors stay, and
	# load the file once they are gone; glm4, exaone4 and deepseek2 load
	# it, and want its nextn.* tensors.
	if [ -z "$(key "$f" "$a.nextn_predict_layers")" ]; then
		l=$((n - 1))
		edit "$name" nextn-on "blk.$l. nextn_predict_layers" \
		    set "$f" "$a.nextn_predict_layers:u32" 1
		set -- -e "set $a.nextn_predict_layers:u32 1"
		for t in $(tensors "$f" | grep "^blk\.$l\."); do
			set -- "$@" -e "rm-tensor $t"
		done
		edit "$name" nextn-bare "blk.$l. nextn_predict_layers" \
		    edit "$f" "$@"
	fi
done <"$scratch/manifest"

# The NextN layers of glm4, exaone4, glm4moe and qwen35 (the last block),
# and the second block of each (glm4moe's first expert block, a delta-net
# block of qwen35), each of their tensors removed in turn: which ones
# llama.cpp requires there.
for name in glm4-nextn exaone4-nextn glm4moe qwen35-nextn; do
	f=$m/$name.gguf
	n=$(key "$f" "${name%-nextn}.block_count")
	for t in $(tensors "$f" | grep "^blk\.$((n - 1))\.\|^blk\.1\."); do
		edit "$name" "rm-$t" "$t" rm-tensor "$f" "$t"
	done
done

# The NextN (multi-token prediction) layer of deepseek2-nextn, block 2 of
# 3: its tensors as written (loaded), a norm llama.cpp requires there and
# an optional tensor removed, one of the wrong shape, one moved to an
# ordinary block, a tensor of its ordinary block removed with the
# projection there (required) and without it (then all optional), the
# key off its type and past block_count, and the same file with more
# NextN layers: the first without its projection (all then optional),
# with it alone, or whole while the last has none (every NextN layer then
# needs its projection and norms).
f=$m/deepseek2-nextn.gguf
a=deepseek2
nx=blk.2.nextn
cp "$f" "$e/nextn.gguf"
echo "$e/nextn.gguf -" >>"$scratch/cases"
edit nextn rm-enorm "$nx.enorm.weight" rm-tensor "$f" "$nx.enorm.weight"
edit nextn rm-eh_proj "$nx.eh_proj.weight" \
    rm-tensor "$f" "$nx.eh_proj.weight"
edit nextn shape "$nx.shared_head_norm.weight" edit "$f" \
    -e "rm-tensor $nx.shared_head_norm.weight" \
    -e "rename $nx.embed_tokens.weight $nx.shared_head_norm.weight"
edit nextn layer "blk.1.nextn.embed_tokens.weight" \
    rename "$f" "$nx.embed_tokens.weight" blk.1.nextn.embed_tokens.weight
edit nextn key-type "nextn_predict_layers" \
    set "$f" "$a.nextn_predict_layers:i32" 1
edit nextn key-big "nextn_predict_layers" \
    set "$f" "$a.nextn_predict_layers" 4
# Every architecture reads the key so.
edit llama-gqa nextn-type "nextn_predict_layers" \
    set "$m/llama-gqa.gguf" "llama.nextn_predict_layers:str" 1
edit llama-gqa nextn-big "nextn_predict_layers" \
    set "$m/llama-gqa.gguf" "llama.nextn_predict_layers:u32" 9
edit nextn first-bare "blk.0.nextn" edit "$f" \
    -e "set $a.nextn_predict_layers 3" \
    -e "rename $nx.enorm.weight blk.0.nextn.enorm.weight"
edit nextn first-proj "blk.0.nextn.enorm.weight" edit "$f" \
    -e "set $a.nextn_predict_layers 3" \
    -e "rename $nx.eh_proj.weight blk.0.nextn.eh_proj.weight"
edit nextn rm-block "blk.2.attn_norm.weight" \
    rm-tensor "$f" blk.2.attn_norm.weight
edit nextn headless "blk.2.attn_norm.weight" edit "$f" \
    -e "rm-tensor $nx.eh_proj.weight" -e "rm-tensor blk.2.attn_norm.weight"
edit nextn later-bare "$nx.eh_proj.weight $nx.enorm.weight" edit "$f" \
    -e "set $a.nextn_predict_layers 2" \
    -e "rename $nx.eh_proj.weight blk.1.nextn.eh_proj.weight" \
    -e "rename $nx.enorm.weight blk.1.nextn.enorm.weight" \
    -e "rename $nx.hnorm.weight blk.1.nextn.hnorm.weight"

# qwen3next's alternatives, each present or not: its delta-net input as
# one matrix (ssm_in) or two (attn_qkv, attn_gate), the experts' gate and
# up matrices apart or as one, the attention's q, k and v apart or as one.
f=$m/qwen3next.gguf
edit qwen3next no-ssm_in "blk.0.ssm_in.weight" \
    rm-tensor "$f" blk.0.ssm_in.weight
edit qwen3next attn_gate "blk.0.attn_gate.weight" \
    rename "$f" blk.0.ssm_in.weight blk.0.attn_gate.weight
edit qwen3next gate_up "blk.0.ffn_gate_up_exps.weight" \
    rename "$f" blk.0.ffn_gate_exps.weight blk.0.ffn_gate_up_exps.weight
edit qwen3next qkv "blk.3.attn_qkv.weight" \
    rename "$f" blk.3.attn_q.weight blk.3.attn_qkv.weight

# dots1's k and v, sized by head_count, not head_count_kv (which it may
# change freely), its expert bias and expert_weights_scale, both optional.
f=$m/dots1.gguf
edit dots1 kv-heads "attention.head_count_kv" \
    set "$f" dots1.attention.head_count_kv 2
edit dots1 qkv "blk.0.attn_qkv.weight" \
    rename "$f" blk.0.attn_q.weight blk.0.attn_qkv.weight
edit dots1 no-bias "blk.1.exp_probs_b.bias" \
    rm-tensor "$f" blk.1.exp_probs_b.bias
edit dots1 no-scale "expert_weights_scale" rm "$f" dots1.expert_weights_scale
edit dots1 no-shared "expert_shared_count" rm "$f" dots1.expert_shared_count

# qwen35's alternatives: its recurrent blocks flagged by the file (as
# they are without the flags, the first made an attention block, one
# flag short), or every other block by full_attention_interval; its
# delta-net qkv and gate, each optional; the attention's q, k and v as
# one; a file of its NextN layer alone (every other block then
# optional), and that layer without one of its own norms; qwen35moe's
# experts' gate and up matrices as one.
f=$m/qwen35.gguf
k=qwen35.attention.recurrent_layers:arr[bool]
edit qwen35 recurrent "attention.recurrent_layers" \
    set "$f" "$k" "[true, true, true, false]"
edit qwen35 recurrent-0 "blk.0." set "$f" "$k" "[false, true, true, false]"
edit qwen35 recurrent-short "attention.recurrent_layers" \
    set "$f" "$k" "[true, true, true]"
edit qwen35 interval "blk.1. blk.3." \
    set "$f" qwen35.full_attention_interval:u32 2
edit qwen35 no-qkv "blk.0.attn_qkv.weight" rm-tensor "$f" blk.0.attn_qkv.weight
edit qwen35 no-gate "blk.0.attn_gate.weight" \
    rm-tensor "$f" blk.0.attn_gate.weight
edit qwen35 qkv "blk.3.attn_qkv.weight" \
    rename "$f" blk.3.attn_q.weight blk.3.attn_qkv.weight
f=$m/qwen35-nextn.gguf
set --
for t in $(tensors "$f" | grep '^blk\.[0-3]\.'); do
	set -- "$@" -e "rm-tensor $t"
done
edit qwen35-nextn alone "blk.4." edit "$f" "$@"
edit qwen35-nextn alone-enorm "blk.4.nextn.enorm.weight" edit "$f" "$@" \
    -e "rm-tensor blk.4.nextn.enorm.weight"
edit qwen35moe gate_up "blk.0.ffn_gate_up_exps.weight" \
    rename "$m/qwen35moe.gguf" blk.0.ffn_gate_exps.weight \
    blk.0.ffn_gate_up_exps.weight

# minimax-m2: its q, k and v as one, its gating function optional, its
# expert feed-forward length required.
f=$m/minimax-m2.gguf
edit minimax-m2 qkv "blk.0.attn_qkv.weight" \
    rename "$f" blk.0.attn_q.weight blk.0.attn_qkv.weight
edit minimax-m2 no-gating "expert_gating_func" \
    rm "$f" minimax-m2.expert_gating_func
edit minimax-m2 no-ff-exp "expert_feed_forward_length" \
    rm "$f" minimax-m2.expert_feed_forward_length

# apertus: its xIELU parameters one a block, one short, or of the wrong
# type.
f=$m/apertus.gguf
edit apertus xielu-arr "xielu.beta" set "$f" "xielu.beta:arr[f32]" "[0.5, 0.5]"
edit apertus xielu-short "xielu.beta" set "$f" "xielu.beta:arr[f32]" "[0.5]"
edit apertus xielu-type "xielu.eps" set "$f" "xielu.eps:u32" 1

# gemma-embedding: without its dense projections, and with one of a
# length llama.cpp refuses.
f=$m/gemma-embedding.gguf
edit gemma-embedding no-dense "dense_2.weight" edit "$f" \
    -e "rm-tensor dense_2.weight" -e "rm-tensor dense_3.weight"
edit gemma-embedding dense-in "dense_2_feat_in" \
    set "$f" gemma-embedding.dense_2_feat_in 128

# lfm2moe: without leading dense blocks (block 0 then wants experts).
edit lfm2moe no-dense "leading_dense_block_count blk.0." \
    rm "$m/lfm2moe.gguf" lfm2moe.leading_dense_block_count

# smallthinker: its q, k and v as one, and its experts of no length.
f=$m/smallthinker.gguf
edit smallthinker qkv "blk.0.attn_qkv.weight" \
    rename "$f" blk.0.attn_q.weight blk.0.attn_qkv.weight
edit smallthinker no-ff-exp "expert_feed_forward_length" \
    rm "$f" smallthinker.expert_feed_forward_length

# afmoe: its q, k and v as one, without its shared expert (a key it
# requires), without leading dense blocks (block 0 then wants experts).
f=$m/afmoe.gguf
edit afmoe qkv "blk.0.attn_qkv.weight" \
    rename "$f" blk.0.attn_q.weight blk.0.attn_qkv.weight
edit afmoe no-shared "expert_shared_count" rm "$f" afmoe.expert_shared_count
edit afmoe shared-0 "blk.1.ffn_gate_shexp.weight" \
    set "$f" afmoe.expert_shared_count 0
edit afmoe no-dense "leading_dense_block_count blk.0." \
    rm "$f" afmoe.leading_dense_block_count

# granite_swa: its sliding layers flagged by a shorter array, or not at
# all (a key it requires), without its logit scale (required), with
# experts.
f=$m/granite_swa.gguf
k=granite_swa.attention.sliding_window_pattern
edit granite_swa swa-short "attention.sliding_window_pattern" \
    set "$f" "$k:arr[bool]" "[true]"
edit granite_swa no-swa "attention.sliding_window_pattern" rm "$f" "$k"
edit granite_swa no-logit "logit_scale" rm "$f" granite_swa.logit_scale
edit granite_swa experts "blk.0.ffn_gate_inp.weight" edit "$f" \
    -e "set granite_swa.expert_count:u32 4" \
    -e "set granite_swa.expert_used_count:u32 2"

# cohere2moe: without its norm epsilon, or with the other one; its
# sliding layers flagged one a block, or of an element type it refuses,
# or not at all (it then takes three of four); without its shared
# experts' count (their tensors then unused).
f=$m/cohere2moe.gguf
k=cohere2moe.attention.sliding_window_pattern
edit cohere2moe no-eps "layer_norm_epsilon" \
    rm "$f" cohere2moe.attention.layer_norm_epsilon
edit cohere2moe rms-eps "layer_norm_epsilon" edit "$f" \
    -e "rm cohere2moe.attention.layer_norm_epsilon" \
    -e "set cohere2moe.attention.layer_norm_rms_epsilon:f32 1e-5"
edit cohere2moe swa-flags "$k" set "$f" "$k:arr[bool]" "[true, false]"
edit cohere2moe swa-f32 "$k" set "$f" "$k:arr[f32]" "[1.0, 0.0]"
edit cohere2moe no-swa "$k" rm "$f" "$k"
edit cohere2moe no-shared "expert_shared_count blk.1.ffn_gate_shexp.weight" \
    rm "$f" cohere2moe.expert_shared_count

# jina-bert-v3: without its token type count (a key it requires).
edit jina-bert-v3 no-types "token_type_count" \
    rm "$m/jina-bert-v3.gguf" tokenizer.ggml.token_type_count

# modern-bert: a later block without its attention norm (only the
# first may lack it), its activation's name of the wrong type, a
# sliding window (its pattern then defaults).
f=$m/modern-bert.gguf
edit modern-bert no-norm "blk.1.attn_norm.weight" \
    rm-tensor "$f" blk.1.attn_norm.weight
edit modern-bert act-type "hidden_activation" \
    set "$f" modern-bert.hidden_activation:u32 1
edit modern-bert swa "sliding_window" \
    set "$f" modern-bert.attention.sliding_window:u32 64

# neo-bert: without its output norm; eurobert: without a gate.
edit neo-bert no-norm "enc.output_norm.weight" \
    rm-tensor "$m/neo-bert.gguf" enc.output_norm.weight
edit eurobert no-gate "blk.0.ffn_gate.weight" \
    rm-tensor "$m/eurobert.gguf" blk.0.ffn_gate.weight

# exaone-moe: without leading dense blocks (block 0 then wants experts),
# without its selection bias (optional), with a shared expert's length
# of its own, without its sliding window (required) or with a pattern of
# an element type it refuses, its q, k and v as one.
f=$m/exaone-moe.gguf
edit exaone-moe no-dense "leading_dense_block_count blk.0." \
    rm "$f" exaone-moe.leading_dense_block_count
edit exaone-moe no-bias "blk.1.exp_probs_b.bias" \
    rm-tensor "$f" blk.1.exp_probs_b.bias
edit exaone-moe ff-shexp "expert_shared_feed_forward_length blk.1.ffn_gate_shexp.weight" \
    set "$f" exaone-moe.expert_shared_feed_forward_length:u32 64
edit exaone-moe no-swa "sliding_window" \
    rm "$f" exaone-moe.attention.sliding_window
edit exaone-moe swa-f32 "sliding_window_pattern" \
    set "$f" "exaone-moe.attention.sliding_window_pattern:arr[f32]" "[1.0, 0.0]"
edit exaone-moe qkv "blk.0.attn_qkv.weight" \
    rename "$f" blk.0.attn_q.weight blk.0.attn_qkv.weight

# bailingmoe2: without leading dense blocks (block 0 then wants
# experts), without its shared experts' count (a key it requires) or with
# two (their matrices then twice as long), without its selection bias
# (optional), its q, k and v apart (it wants them as one).
f=$m/bailingmoe2.gguf
edit bailingmoe2 no-dense "leading_dense_block_count blk.0." \
    rm "$f" bailingmoe2.leading_dense_block_count
edit bailingmoe2 no-shared "expert_shared_count" \
    rm "$f" bailingmoe2.expert_shared_count
edit bailingmoe2 shared-2 "expert_shared_count blk.1.ffn_gate_shexp.weight" \
    set "$f" bailingmoe2.expert_shared_count 2
edit bailingmoe2 no-bias "blk.1.exp_probs_b.bias" \
    rm-tensor "$f" blk.1.exp_probs_b.bias
edit bailingmoe2 q "blk.1.attn_qkv.weight" \
    rename "$f" blk.1.attn_qkv.weight blk.1.attn_q.weight

# grovemoe: its adjugate experts of the head length (no chunk length
# given) or grouped by four (one then), without experts_per_group (a key
# it requires).
f=$m/grovemoe.gguf
edit grovemoe no-chunk "expert_chunk_feed_forward_length blk.0.ffn_gate_chexps.weight" \
    rm "$f" grovemoe.expert_chunk_feed_forward_length
edit grovemoe group-4 "experts_per_group blk.0.ffn_gate_chexps.weight" \
    set "$f" grovemoe.experts_per_group 4
edit grovemoe no-group "experts_per_group" rm "$f" grovemoe.experts_per_group

# A model without a vocabulary (tokenizer.ggml.model none or no_vocab):
# llama.cpp reads none of the vocabulary's arrays (a short scores array
# harms nothing) and counts llama.vocab_size tokens, none without it.
f=$m/llama-gqa.gguf
nt=$("$GGUFED" dump "$f" | awk '$1 == "kv" && $3 == "tokenizer.ggml.tokens" {
    sub(/^n=/, "", $5); print $5 }')
edit llama-gqa tok-none "token_embd.weight" \
    set "$f" tokenizer.ggml.model none
edit llama-gqa tok-no-vocab-size "-" edit "$f" \
    -e "set tokenizer.ggml.model no_vocab" -e "set llama.vocab_size:u32 $nt" \
    -e "set tokenizer.ggml.scores:arr[f32] [1.0]"
edit llama-gqa tok-none-size-less "token_embd.weight vocab_size" edit "$f" \
    -e "set tokenizer.ggml.model none" \
    -e "set llama.vocab_size:u32 $((nt - 1))"

# The real models of the shared folder, as they are: every file ggufed
# opens that holds tensors (a vocabulary alone is no model, and files it
# cannot read are the format's business, not the model check's).
if [ -d "$SHARED_DIR/fixtures/real" ]; then
	for f in "$SHARED_DIR"/fixtures/real/*.gguf; do
		n=$("$GGUFED" info --json "$f" 2>/dev/null |
		    sed -n 's/^  "tensor_count": \([0-9]*\),$/\1/p')
		[ "${n:-0}" -gt 0 ] || continue
		cp "$f" "$e/real-$(basename "$f")"
		echo "$e/real-$(basename "$f") -" >>"$scratch/cases"
	done
else
	skip "$(shared_missing fixtures/real)"
fi

# llama.cpp's verdicts, all in one process.
cut -d' ' -f1 "$scratch/cases" |
    verdicts_or_bail "$scratch/verdicts" "$probe" "$libdir"

# validate's, all in one process too: for each file, its error count
# and its errors' messages.
mkdir "$scratch/v"
cut -d' ' -f1 "$scratch/cases" | validations "$scratch/v"

agree=0 disagree=0
while read -r file touched; do
	case=$(basename "$file" .gguf)
	judge "$file" "$scratch/verdicts" "$scratch/v"
	echo "# $case: llama.cpp $verdict; validate ${errors:-?} errors"
	if [ "$refused" -eq "$ours" ]; then
		agree=$((agree + 1))
		ok 0 "$case: validate agrees with llama.cpp"
	else
		disagree=$((disagree + 1))
		ok 1 "$case: validate agrees with llama.cpp" ||
		    sed 's/^/#   /' "$scratch/v/errors"
	fi
	[ "$refused" -eq 1 ] && [ "$ours" -eq 1 ] && [ "$touched" != - ] ||
	    continue
	named=1
	for w in $touched; do
		grep -qF -- "$w" "$scratch/v/errors" && { named=0; break; }
	done
	ok $named "$case: an error names what the edit touched ($touched)" ||
	    sed 's/^/#   /' "$scratch/v/errors"
done <"$scratch/cases"
echo "# $agree cases agree with llama.cpp, $disagree disagree"
done_testing
