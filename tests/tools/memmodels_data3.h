/*
 * memmodels_data3.h - the architectures gen_memmodels writes from data
 * (third part): the tables of qwen35 on, and dmodels3[], their list.
 * Included once, by gen_memmodels.c, after memmodels_data2.h. Sizes as
 * from rwkv6 on in memmodels_data.h, unless a table says otherwise.
 */

/*
 * Gated delta-net blocks (4 value heads of 16, 2 key heads) with their
 * qkv and gate matrices, attention on every 4th (block 3: heads of 32, q
 * doubled by its gate); a dense feed-forward on every block.
 */
static const uint32_t qwen35_sections[4] = { 8, 4, 4, 0 };
static const struct dkey qwen35_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 4, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.key_length", GG_U32, 32, NULL, 0 },
	{ "attention.value_length", GG_U32, 32, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "rope.dimension_count", GG_U32, 32, NULL, 0 },
	{ "rope.dimension_sections", GG_I32, 0, qwen35_sections, 4 },
	{ "ssm.conv_kernel", GG_U32, 4, NULL, 0 },
	{ "ssm.inner_size", GG_U32, 64, NULL, 0 },
	{ "ssm.state_size", GG_U32, 16, NULL, 0 },
	{ "ssm.time_step_rank", GG_U32, 4, NULL, 0 },
	{ "ssm.group_count", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
#define QWEN35_RECR(b) \
	{ "blk." #b ".attn_qkv.weight", 2, { 96, 128, 1, 1 } }, \
	{ "blk." #b ".attn_gate.weight", 2, { 96, 64, 1, 1 } }, \
	{ "blk." #b ".ssm_conv1d.weight", 2, { 4, 128, 1, 1 } }, \
	{ "blk." #b ".ssm_dt.bias", 1, { 4, 1, 1, 1 } }, \
	{ "blk." #b ".ssm_a", 1, { 4, 1, 1, 1 } }, \
	{ "blk." #b ".ssm_beta.weight", 2, { 96, 4, 1, 1 } }, \
	{ "blk." #b ".ssm_alpha.weight", 2, { 96, 4, 1, 1 } }, \
	{ "blk." #b ".ssm_norm.weight", 1, { 16, 1, 1, 1 } }, \
	{ "blk." #b ".ssm_out.weight", 2, { 64, 96, 1, 1 } }
#define QWEN35_ATTN(b) \
	{ "blk." #b ".attn_q.weight", 2, { 96, 256, 1, 1 } }, \
	{ "blk." #b ".attn_k.weight", 2, { 96, 32, 1, 1 } }, \
	{ "blk." #b ".attn_v.weight", 2, { 96, 32, 1, 1 } }, \
	{ "blk." #b ".attn_output.weight", 2, { 128, 96, 1, 1 } }, \
	{ "blk." #b ".attn_q_norm.weight", 1, { 32, 1, 1, 1 } }, \
	{ "blk." #b ".attn_k_norm.weight", 1, { 32, 1, 1, 1 } }
static const struct dten qwen35_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	QWEN35_RECR(0),
	QWEN35_RECR(1),
	QWEN35_RECR(2),
	QWEN35_ATTN(3),
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/*
 * qwen35's blocks with mixtures of 4 experts (feed-forward 32, 2 used)
 * and a shared expert (feed-forward 32) in place of the dense
 * feed-forward.
 */
static const struct dkey qwen35moe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 4, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.key_length", GG_U32, 32, NULL, 0 },
	{ "attention.value_length", GG_U32, 32, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "expert_shared_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "rope.dimension_count", GG_U32, 32, NULL, 0 },
	{ "rope.dimension_sections", GG_I32, 0, qwen35_sections, 4 },
	{ "ssm.conv_kernel", GG_U32, 4, NULL, 0 },
	{ "ssm.inner_size", GG_U32, 64, NULL, 0 },
	{ "ssm.state_size", GG_U32, 16, NULL, 0 },
	{ "ssm.time_step_rank", GG_U32, 4, NULL, 0 },
	{ "ssm.group_count", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten qwen35moe_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.ffn_gate_inp_shexp.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.%d.ffn_up_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.%d.ffn_down_shexp.weight", 2, { 32, 96, 1, 1 } },
	QWEN35_RECR(0),
	QWEN35_RECR(1),
	QWEN35_RECR(2),
	QWEN35_ATTN(3),
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* Experts of the feed-forward length (32), a selection bias; q/k norms
   over all heads. */
static const struct dkey minimax_m2_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_gating_func", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten minimax_m2_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.exp_probs_b.bias", 1, { 4, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* q/k norms; up and down matrices with the xIELU activation, its four
   parameters global keys. */
static const struct dkey apertus_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "=xielu.alpha_n", GG_F32, 0.8, NULL, 0 },
	{ "=xielu.alpha_p", GG_F32, 0.8, NULL, 0 },
	{ "=xielu.beta", GG_F32, 0.5, NULL, 0 },
	{ "=xielu.eps", GG_F32, -1e-06, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten apertus_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* gemma3's blocks without a cache (no causal attention); the dense
   projections after them (embedding 96 to 128 and back). */
static const struct dkey gemma_embedding_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "attention.sliding_window", GG_U32, 256, NULL, 0 },
	{ "dense_2_feat_in", GG_U32, 96, NULL, 0 },
	{ "dense_2_feat_out", GG_U32, 128, NULL, 0 },
	{ "dense_3_feat_in", GG_U32, 128, NULL, 0 },
	{ "dense_3_feat_out", GG_U32, 96, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gemma_embedding_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "dense_2.weight", 2, { 96, 128, 1, 1 } },
	{ "dense_3.weight", 2, { 128, 96, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.post_ffw_norm.weight", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* lfm2's layout (short-conv blocks where head_count_kv is 0, attention
   on block 2), a dense block 0, then experts with a selection bias. */
static const uint32_t lfm2moe_a0[] = { 0, 0, 1, 0 };
static const struct dkey lfm2moe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 4, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "leading_dense_block_count", GG_U32, 1, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_gating_func", GG_U32, 2, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 0, lfm2moe_a0, 4 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "shortconv.l_cache", GG_U32, 3, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
#define LFM2MOE_CONV(b) \
	{ "blk." #b ".shortconv.conv.weight", 2, { 3, 96, 1, 1 } }, \
	{ "blk." #b ".shortconv.in_proj.weight", 2, { 96, 288, 1, 1 } }, \
	{ "blk." #b ".shortconv.out_proj.weight", 2, { 96, 96, 1, 1 } }
#define LFM2MOE_EXPS(b) \
	{ "blk." #b ".ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } }, \
	{ "blk." #b ".ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } }, \
	{ "blk." #b ".ffn_down_exps.weight", 3, { 32, 96, 4, 1 } }, \
	{ "blk." #b ".ffn_up_exps.weight", 3, { 96, 32, 4, 1 } }, \
	{ "blk." #b ".exp_probs_b.bias", 1, { 4, 1, 1, 1 } }
static const struct dten lfm2moe_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "token_embd_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	LFM2MOE_CONV(0),
	LFM2MOE_CONV(1),
	LFM2MOE_EXPS(1),
	{ "blk.2.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.2.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.2.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.2.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.2.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.2.attn_output.weight", 2, { 96, 96, 1, 1 } },
	LFM2MOE_EXPS(2),
	LFM2MOE_CONV(3),
	LFM2MOE_EXPS(3),
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/*
 * qwen35 with a fifth block, a multi-token prediction block (as its
 * converter writes it: an attention block, its feed-forward, and the
 * nextn.* projection and norms), for gen_memmodels.c's cmodels.
 */
static const struct dkey qwen35_nextn_keys[] = {
	{ "block_count", GG_U32, 5, NULL, 0 },
	{ "nextn_predict_layers", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten qwen35_nextn_tensors[] = {
	QWEN35_ATTN(4),
	{ "blk.4.nextn.eh_proj.weight", 2, { 192, 96, 1, 1 } },
	{ "blk.4.nextn.enorm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.4.nextn.hnorm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.4.nextn.shared_head_norm.weight", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* Experts (feed-forward 32) on every block, no sliding window. */
static const struct dkey smallthinker_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten smallthinker_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* A dense block 0, then experts (feed-forward 32) with a selection bias
   and a shared expert; a gate on the attention's output. */
static const struct dkey afmoe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "leading_dense_block_count", GG_U32, 1, NULL, 0 },
	{ "expert_shared_count", GG_U32, 1, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten afmoe_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_gate.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.post_ffw_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.1.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.1.exp_probs_b.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.1.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.1.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_gate_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.1.ffn_down_shexp.weight", 2, { 32, 96, 1, 1 } },
	{ "blk.1.ffn_up_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* Attention sinks, the sliding layers flagged by the file (block 0 of
   2), a dense feed-forward. */
static const uint32_t granite_swa_a0[] = { 1, 0 };
static const struct dkey granite_swa_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "attention.sliding_window", GG_U32, 128, NULL, 0 },
	{ "attention.sliding_window_pattern", GG_BOOL, 0, granite_swa_a0, 2 },
	{ "logit_scale", GG_F32, 8.0, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten granite_swa_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_sinks.weight", 1, { 4, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* A dense block 0, then experts (feed-forward 32) and a shared one;
   three sliding blocks of four (the default period, given). */
static const struct dkey cohere2moe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "leading_dense_block_count", GG_U32, 1, NULL, 0 },
	{ "expert_shared_count", GG_U32, 1, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "attention.sliding_window", GG_U32, 128, NULL, 0 },
	{ "attention.sliding_window_pattern", GG_U32, 4, NULL, 0 },
	{ "logit_scale", GG_F32, 0.5, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten cohere2moe_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.1.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.1.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.1.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_gate_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.1.ffn_down_shexp.weight", 2, { 32, 96, 1, 1 } },
	{ "blk.1.ffn_up_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* bert's blocks, no position embeddings. */
static const struct dkey jina_bert_v3_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "=tokenizer.ggml.token_type_count", GG_U32, 1, NULL, 0 },
	{ "pooling_type", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten jina_bert_v3_tensors[] = {
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
	{ "blk.%d.layer_output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.layer_output_norm.bias", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* q, k and v as one; block 0 without its attention norm (as its
   converter writes it); the up matrix twice the feed-forward length. */
static const struct dkey modern_bert_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 4, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "pooling_type", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten modern_bert_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "token_embd_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 96, 288, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 320, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.1.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* q, k and v as one; the up matrix twice the feed-forward length. */
static const struct dkey neo_bert_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "pooling_type", GG_U32, 2, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten neo_bert_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "enc.output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 96, 144, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 320, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* llama's blocks. */
static const struct dkey eurobert_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "pooling_type", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten eurobert_tensors[] = {
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

/* q/k norms; a dense block, then two of experts (a selection bias and a
   shared expert); sliding window keys it requires. */
static const struct dkey exaone_moe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 3, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "attention.sliding_window", GG_U32, 128, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_shared_count", GG_U32, 1, NULL, 0 },
	{ "expert_gating_func", GG_U32, 2, NULL, 0 },
	{ "leading_dense_block_count", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten exaone_moe_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.1.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.1.exp_probs_b.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.1.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.1.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_gate_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.1.ffn_down_shexp.weight", 2, { 32, 96, 1, 1 } },
	{ "blk.1.ffn_up_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.2.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.2.exp_probs_b.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.2.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.2.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.2.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.2.ffn_gate_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.2.ffn_down_shexp.weight", 2, { 32, 96, 1, 1 } },
	{ "blk.2.ffn_up_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* q, k and v as one, q/k norms; a dense block, then two of experts (a
   selection bias and a shared expert). */
static const struct dkey bailingmoe2_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 3, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_shared_count", GG_U32, 1, NULL, 0 },
	{ "expert_gating_func", GG_U32, 2, NULL, 0 },
	{ "leading_dense_block_count", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten bailingmoe2_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 96, 144, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.1.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.1.exp_probs_b.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.1.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.1.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.1.ffn_gate_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.1.ffn_down_shexp.weight", 2, { 32, 96, 1, 1 } },
	{ "blk.1.ffn_up_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.2.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.2.exp_probs_b.bias", 1, { 4, 1, 1, 1 } },
	{ "blk.2.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.2.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.2.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.2.ffn_gate_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ "blk.2.ffn_down_shexp.weight", 2, { 32, 96, 1, 1 } },
	{ "blk.2.ffn_up_shexp.weight", 2, { 96, 32, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

/* q/k norms; experts on every block and two adjugate experts (one per
   two experts) of the chunk feed-forward length. */
static const struct dkey grovemoe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "expert_chunk_feed_forward_length", GG_U32, 16, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-06, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "experts_per_group", GG_U32, 2, NULL, 0 },
	{ "expert_group_scale", GG_F32, 0.05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten grovemoe_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 32, 96, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 96, 32, 4, 1 } },
	{ "blk.%d.ffn_gate_chexps.weight", 3, { 96, 16, 2, 1 } },
	{ "blk.%d.ffn_down_chexps.weight", 3, { 16, 96, 2, 1 } },
	{ "blk.%d.ffn_up_chexps.weight", 3, { 96, 16, 2, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dmodel dmodels3[] = {
	{ "qwen35", qwen35_keys, qwen35_tensors },
	{ "qwen35moe", qwen35moe_keys, qwen35moe_tensors },
	{ "minimax-m2", minimax_m2_keys, minimax_m2_tensors },
	{ "apertus", apertus_keys, apertus_tensors },
	{ "gemma-embedding", gemma_embedding_keys,
	    gemma_embedding_tensors },
	{ "lfm2moe", lfm2moe_keys, lfm2moe_tensors },
	{ "smallthinker", smallthinker_keys, smallthinker_tensors },
	{ "afmoe", afmoe_keys, afmoe_tensors },
	{ "granite_swa", granite_swa_keys, granite_swa_tensors },
	{ "cohere2moe", cohere2moe_keys, cohere2moe_tensors },
	{ "jina-bert-v3", jina_bert_v3_keys, jina_bert_v3_tensors },
	{ "modern-bert", modern_bert_keys, modern_bert_tensors },
	{ "neo-bert", neo_bert_keys, neo_bert_tensors },
	{ "eurobert", eurobert_keys, eurobert_tensors },
	{ "exaone-moe", exaone_moe_keys, exaone_moe_tensors },
	{ "bailingmoe2", bailingmoe2_keys, bailingmoe2_tensors },
	{ "grovemoe", grovemoe_keys, grovemoe_tensors },
	{ NULL, NULL, NULL }
};
