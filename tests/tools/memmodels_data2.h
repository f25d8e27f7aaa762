/*
 * memmodels_data2.h - the architectures gen_memmodels writes from data
 * (second part): the tables of exaone4 on, and dmodels[], the list of
 * them all. Included once, by gen_memmodels.c, after memmodels_data.h.
 */

static const struct dkey exaone4_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten exaone4_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.post_ffw_norm.weight", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey olmoe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten olmoe_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 96, 160, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 160, 96, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 96, 160, 4, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey granitemoe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "logit_scale", GG_F32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten granitemoe_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 160, 96, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 96, 160, 4, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey minicpm_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten minicpm_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey mistral3_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten mistral3_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey nomic_bert_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "=tokenizer.ggml.token_type_count", GG_U32, 2, NULL, 0 },
	{ "pooling_type", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten nomic_bert_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "token_embd_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "token_embd_norm.bias", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_output_norm.bias", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.layer_output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.layer_output_norm.bias", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey baichuan_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten baichuan_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey qwen_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten qwen_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 96, 288, 1, 1 } },
	{ "blk.%d.attn_qkv.bias", 1, { 288, 1, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 80, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 80, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 80, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey smollm3_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten smollm3_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const uint32_t deci_a0[] = { 160, 144 };
static const uint32_t deci_a1[] = { 4, 4 };
static const uint32_t deci_a2[] = { 1, 0 };
static const struct dkey deci_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 0, deci_a0, 2 },
	{ "attention.head_count", GG_U32, 0, deci_a1, 2 },
	{ "attention.head_count_kv", GG_U32, 0, deci_a2, 2 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten deci_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.0.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.0.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.0.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.0.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.1.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.1.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.ffn_gate.weight", 2, { 96, 144, 1, 1 } },
	{ "blk.1.ffn_down.weight", 2, { 144, 96, 1, 1 } },
	{ "blk.1.ffn_up.weight", 2, { 96, 144, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const uint32_t gemma4_a0[] = { 1, 0 };
static const struct dkey gemma4_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "attention.sliding_window_pattern", GG_BOOL, 0, gemma4_a0, 2 },
	{ "attention.sliding_window", GG_U32, 64, NULL, 0 },
	{ "embedding_length_per_layer_input", GG_U32, 16, NULL, 0 },
	{ "attention.key_length", GG_U32, 32, NULL, 0 },
	{ "attention.value_length", GG_U32, 32, NULL, 0 },
	{ "attention.key_length_swa", GG_U32, 20, NULL, 0 },
	{ "attention.value_length_swa", GG_U32, 20, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gemma4_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "per_layer_token_embd.weight", 2, { 32, 264, 1, 1 } },
	{ "per_layer_model_proj.weight", 2, { 96, 32, 1, 1 } },
	{ "per_layer_proj_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "rope_freqs.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.0.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.attn_q.weight", 2, { 96, 80, 1, 1 } },
	{ "blk.0.attn_k.weight", 2, { 96, 20, 1, 1 } },
	{ "blk.0.attn_output.weight", 2, { 80, 96, 1, 1 } },
	{ "blk.0.attn_q_norm.weight", 1, { 20, 1, 1, 1 } },
	{ "blk.0.attn_k_norm.weight", 1, { 20, 1, 1, 1 } },
	{ "blk.0.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.0.post_ffw_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.inp_gate.weight", 2, { 96, 16, 1, 1 } },
	{ "blk.0.proj.weight", 2, { 16, 96, 1, 1 } },
	{ "blk.0.post_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.attn_q.weight", 2, { 96, 128, 1, 1 } },
	{ "blk.1.attn_k.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.1.attn_output.weight", 2, { 128, 96, 1, 1 } },
	{ "blk.1.attn_q_norm.weight", 1, { 32, 1, 1, 1 } },
	{ "blk.1.attn_k_norm.weight", 1, { 32, 1, 1, 1 } },
	{ "blk.1.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.1.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.1.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.1.post_ffw_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.1.inp_gate.weight", 2, { 96, 16, 1, 1 } },
	{ "blk.1.proj.weight", 2, { 16, 96, 1, 1 } },
	{ "blk.1.post_norm.weight", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey arcee_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten arcee_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey exaone_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten exaone_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey olmo_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten olmo_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey orion_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten orion_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey seed_oss_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten seed_oss_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey starcoder_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten starcoder_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "position_embd.weight", 2, { 64, 2048, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.attn_qkv.bias", 1, { 128, 1, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_output.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_down.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up.bias", 1, { 128, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey xverse_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten xverse_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey refact_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten refact_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey codeshell_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten codeshell_tensors[] = {
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_output.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_down.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up.bias", 1, { 128, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey nemotron_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten nemotron_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey ernie4_5_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten ernie4_5_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey bitnet_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten bitnet_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_sub_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_sub_norm.weight", 1, { 128, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey chatglm_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten chatglm_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 256, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey dbrx_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "attention.clamp_kqv", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten dbrx_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 64, 128, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 128, 64, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 64, 128, 4, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey grok_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten grok_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 128, 64, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 64, 128, 4, 1 } },
	{ "blk.%d.post_ffw_norm.weight", 1, { 64, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey hunyuan_moe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten hunyuan_moe_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 64, 128, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 128, 64, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 64, 128, 4, 1 } },
	{ "blk.%d.ffn_gate_shexp.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up_shexp.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down_shexp.weight", 2, { 128, 64, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey jais_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten jais_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.attn_qkv.bias", 1, { 128, 1, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_output.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_down.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_gate.bias", 1, { 128, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up.bias", 1, { 128, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey phimoe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten phimoe_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "output.bias", 1, { 264, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_output.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 64, 128, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 128, 64, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 64, 128, 4, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey plamo_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten plamo_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/*
 * Block 0 dense (leading_dense_block_count 1), block 1 experts; as many
 * KV heads as heads (llama.cpp sizes its k and v so).
 */
static const struct dkey dots1_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 4, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "leading_dense_block_count", GG_U32, 1, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "expert_shared_count", GG_U32, 1, NULL, 0 },
	{ "expert_weights_scale", GG_F32, 1.0, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten dots1_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.1.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.1.ffn_gate_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.1.ffn_down_exps.weight", 3, { 32, 64, 4, 1 } },
	{ "blk.1.ffn_up_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.1.exp_probs_b.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.1.ffn_gate_shexp.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.1.ffn_down_shexp.weight", 2, { 32, 64, 1, 1 } },
	{ "blk.1.ffn_up_shexp.weight", 2, { 64, 32, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/*
 * Block 0 dense (leading_dense_block_count 1), experts on every block
 * after it (interleave_moe_layer_step 1), and a shared expert.
 */
static const struct dkey ernie4_5_moe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "leading_dense_block_count", GG_U32, 1, NULL, 0 },
	{ "interleave_moe_layer_step", GG_U32, 1, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "expert_shared_feed_forward_length", GG_U32, 64, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten ernie4_5_moe_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.1.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.1.ffn_gate_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.1.ffn_down_exps.weight", 3, { 32, 64, 4, 1 } },
	{ "blk.1.ffn_up_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.1.ffn_gate_shexp.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.1.ffn_down_shexp.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.1.ffn_up_shexp.weight", 2, { 64, 64, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey hunyuan_dense_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten hunyuan_dense_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/*
 * Latent attention: q through rank 32, k and v through rank 16; rotary
 * part of a head 8 of its 16.
 */
static const struct dkey minicpm3_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 4, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "attention.q_lora_rank", GG_U32, 32, NULL, 0 },
	{ "attention.kv_lora_rank", GG_U32, 16, NULL, 0 },
	{ "rope.dimension_count", GG_U32, 8, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten minicpm3_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q_a_norm.weight", 1, { 32, 1, 1, 1 } },
	{ "blk.%d.attn_kv_a_norm.weight", 1, { 16, 1, 1, 1 } },
	{ "blk.%d.attn_q_a.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_q_b.weight", 2, { 32, 64, 1, 1 } },
	{ "blk.%d.attn_kv_a_mqa.weight", 2, { 64, 24, 1, 1 } },
	{ "blk.%d.attn_kv_b.weight", 2, { 16, 96, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey llada_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten llada_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dmodel dmodels[] = {
	{ "qwen2moe", qwen2moe_keys, qwen2moe_tensors },
	{ "qwen3moe", qwen3moe_keys, qwen3moe_tensors },
	{ "phi2", phi2_keys, phi2_tensors },
	{ "phi3", phi3_keys, phi3_tensors },
	{ "gemma", gemma_keys, gemma_tensors },
	{ "starcoder2", starcoder2_keys, starcoder2_tensors },
	{ "gpt2", gpt2_keys, gpt2_tensors },
	{ "falcon", falcon_keys, falcon_tensors },
	{ "stablelm", stablelm_keys, stablelm_tensors },
	{ "mpt", mpt_keys, mpt_tensors },
	{ "bloom", bloom_keys, bloom_tensors },
	{ "olmo2", olmo2_keys, olmo2_tensors },
	{ "granite", granite_keys, granite_tensors },
	{ "command-r", command_r_keys, command_r_tensors },
	{ "internlm2", internlm2_keys, internlm2_tensors },
	{ "glm4", glm4_keys, glm4_tensors },
	{ "bert", bert_keys, bert_tensors },
	{ "gptneox", gptneox_keys, gptneox_tensors },
	{ "deepseek", deepseek_keys, deepseek_tensors },
	{ "llama4", llama4_keys, llama4_tensors },
	{ "rwkv6", rwkv6_keys, rwkv6_tensors },
	{ "rwkv7", rwkv7_keys, rwkv7_tensors },
	{ "falcon-h1", falcon_h1_keys, falcon_h1_tensors },
	{ "t5", t5_keys, t5_tensors },
	{ "gemma3n", gemma3n_keys, gemma3n_tensors },
	{ "exaone4", exaone4_keys, exaone4_tensors },
	{ "olmoe", olmoe_keys, olmoe_tensors },
	{ "granitemoe", granitemoe_keys, granitemoe_tensors },
	{ "minicpm", minicpm_keys, minicpm_tensors },
	{ "mistral3", mistral3_keys, mistral3_tensors },
	{ "nomic-bert", nomic_bert_keys, nomic_bert_tensors },
	{ "baichuan", baichuan_keys, baichuan_tensors },
	{ "qwen", qwen_keys, qwen_tensors },
	{ "smollm3", smollm3_keys, smollm3_tensors },
	{ "deci", deci_keys, deci_tensors },
	{ "gemma4", gemma4_keys, gemma4_tensors },
	{ "arcee", arcee_keys, arcee_tensors },
	{ "exaone", exaone_keys, exaone_tensors },
	{ "olmo", olmo_keys, olmo_tensors },
	{ "orion", orion_keys, orion_tensors },
	{ "seed_oss", seed_oss_keys, seed_oss_tensors },
	{ "starcoder", starcoder_keys, starcoder_tensors },
	{ "xverse", xverse_keys, xverse_tensors },
	{ "refact", refact_keys, refact_tensors },
	{ "codeshell", codeshell_keys, codeshell_tensors },
	{ "nemotron", nemotron_keys, nemotron_tensors },
	{ "ernie4_5", ernie4_5_keys, ernie4_5_tensors },
	{ "bitnet", bitnet_keys, bitnet_tensors },
	{ "chatglm", chatglm_keys, chatglm_tensors },
	{ "dbrx", dbrx_keys, dbrx_tensors },
	{ "grok", grok_keys, grok_tensors },
	{ "hunyuan-moe", hunyuan_moe_keys, hunyuan_moe_tensors },
	{ "jais", jais_keys, jais_tensors },
	{ "phimoe", phimoe_keys, phimoe_tensors },
	{ "plamo", plamo_keys, plamo_tensors },
	{ "dots1", dots1_keys, dots1_tensors },
	{ "ernie4_5-moe", ernie4_5_moe_keys, ernie4_5_moe_tensors },
	{ "hunyuan-dense", hunyuan_dense_keys, hunyuan_dense_tensors },
	{ "minicpm3", minicpm3_keys, minicpm3_tensors },
	{ "llada", llada_keys, llada_tensors },
	{ NULL, NULL, NULL }
};
