/*
 * memmodels_data.h - the architectures gen_memmodels writes from data
 * (first part): the types of the tables and the tables of qwen2moe to
 * gemma3n. Included once, by gen_memmodels.c.
 */

/*
 * More architectures, as data: their keys ("{arch}." is put before a name
 * unless it starts with '='; an array has one element a block), then
 * their tensors, where a name starting "blk.%d." stands for one tensor a
 * block. Sizes: 2 blocks; embedding 64, feed-forward 128, 4 heads of 16
 * sharing 2 KV heads, and for mixtures of experts 4 experts (feed-forward
 * 32) of which 1 or 2 are used; or, from rwkv6 on, embedding 96,
 * feed-forward 160, 4 heads of 24 sharing one KV head (deci and gemma4:
 * per-block sizes of their own). The tensors are those llama.cpp
 * requires of each with these sizes.
 */
struct dkey {
	const char	*name;
	int		 type;		/* of the value, or of the elements */
	double		 v;
	const uint32_t	*a;		/* an array's elements, or NULL */
	size_t		 an;
};

struct dten {
	const char	*name;
	uint32_t	 dims;
	uint64_t	 ne[4];
};

struct dmodel {
	const char		*arch;
	const struct dkey	*keys;
	const struct dten	*tensors;
};

static const struct dkey qwen2moe_keys[] = {
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
static const struct dten qwen2moe_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 64, 64, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 64, 64, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 64, 64, 4, 1 } },
	{ "blk.%d.ffn_gate_inp_shexp.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_shexp.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down_shexp.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up_shexp.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey qwen3moe_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten qwen3moe_tensors[] = {
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
	{ "blk.%d.ffn_gate_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 32, 64, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 64, 32, 4, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey phi2_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten phi2_tensors[] = {
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
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_down.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up.bias", 1, { 128, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey phi3_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten phi3_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 256, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey gemma_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gemma_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey starcoder2_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten starcoder2_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
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
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_up.bias", 1, { 128, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey gpt2_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gpt2_tensors[] = {
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

static const struct dkey falcon_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten falcon_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey stablelm_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten stablelm_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey mpt_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten mpt_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_qkv.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey bloom_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten bloom_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "token_embd_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "token_embd_norm.bias", 1, { 64, 1, 1, 1 } },
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

static const struct dkey olmo2_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten olmo2_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "output.weight", 2, { 64, 264, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 32, 1, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.post_ffw_norm.weight", 1, { 64, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey granite_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "logit_scale", GG_F32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten granite_tensors[] = {
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

static const struct dkey command_r_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten command_r_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
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

static const struct dkey internlm2_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten internlm2_tensors[] = {
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

static const struct dkey glm4_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten glm4_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 256, 1, 1 } },
	{ "blk.%d.post_ffw_norm.weight", 1, { 64, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey bert_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "=tokenizer.ggml.token_type_count", GG_U32, 2, NULL, 0 },
	{ "pooling_type", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten bert_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "position_embd.weight", 2, { 64, 2048, 1, 1 } },
	{ "token_embd_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "token_embd_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.%d.layer_output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.layer_output_norm.bias", 1, { 64, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey gptneox_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "use_parallel_residual", GG_BOOL, 1, NULL, 0 },
	{ "rope.dimension_count", GG_U32, 16, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gptneox_tensors[] = {
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
	{ "blk.%d.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.%d.ffn_up.bias", 1, { 128, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey deepseek_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 2, NULL, 0 },
	{ "leading_dense_block_count", GG_U32, 1, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "expert_shared_count", GG_U32, 1, NULL, 0 },
	{ "expert_weights_scale", GG_F32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten deepseek_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.0.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.0.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.0.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.0.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.0.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.0.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.0.ffn_gate.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.0.ffn_down.weight", 2, { 128, 64, 1, 1 } },
	{ "blk.0.ffn_up.weight", 2, { 64, 128, 1, 1 } },
	{ "blk.1.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.1.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.1.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.1.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.1.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.1.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.1.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.1.ffn_gate_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.1.ffn_down_exps.weight", 3, { 32, 64, 4, 1 } },
	{ "blk.1.ffn_up_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.1.ffn_gate_shexp.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.1.ffn_down_shexp.weight", 2, { 32, 64, 1, 1 } },
	{ "blk.1.ffn_up_shexp.weight", 2, { 64, 32, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey llama4_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 64, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 128, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 2, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "expert_count", GG_U32, 4, NULL, 0 },
	{ "expert_used_count", GG_U32, 1, NULL, 0 },
	{ "expert_feed_forward_length", GG_U32, 32, NULL, 0 },
	{ "interleave_moe_layer_step", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten llama4_tensors[] = {
	{ "token_embd.weight", 2, { 64, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 64, 64, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 64, 1, 1, 1 } },
	{ "blk.%d.ffn_gate_inp.weight", 2, { 64, 4, 1, 1 } },
	{ "blk.%d.ffn_gate_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.%d.ffn_down_exps.weight", 3, { 32, 64, 4, 1 } },
	{ "blk.%d.ffn_up_exps.weight", 3, { 64, 32, 4, 1 } },
	{ "blk.%d.ffn_gate_shexp.weight", 2, { 64, 32, 1, 1 } },
	{ "blk.%d.ffn_down_shexp.weight", 2, { 32, 64, 1, 1 } },
	{ "blk.%d.ffn_up_shexp.weight", 2, { 64, 32, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey rwkv6_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "wkv.head_size", GG_U32, 24, NULL, 0 },
	{ "time_mix_extra_dim", GG_U32, 8, NULL, 0 },
	{ "time_decay_extra_dim", GG_U32, 16, NULL, 0 },
	{ "rescale_every_n_layers", GG_U32, 6, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten rwkv6_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "token_embd_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "token_embd_norm.bias", 1, { 96, 1, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.time_mix_lerp_fused.weight", 4, { 96, 1, 1, 5 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm_2.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm_2.bias", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_w1.weight", 2, { 96, 40, 1, 1 } },
	{ "blk.%d.time_mix_w2.weight", 3, { 8, 96, 5, 1 } },
	{ "blk.%d.time_mix_lerp_x.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_first.weight", 2, { 24, 4, 1, 1 } },
	{ "blk.%d.time_mix_decay.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_decay_w1.weight", 2, { 96, 16, 1, 1 } },
	{ "blk.%d.time_mix_decay_w2.weight", 2, { 16, 96, 1, 1 } },
	{ "blk.%d.time_mix_key.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.time_mix_value.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.time_mix_receptance.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.time_mix_gate.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.time_mix_ln.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_ln.bias", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.channel_mix_lerp_k.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.channel_mix_lerp_r.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.channel_mix_key.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.channel_mix_value.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.channel_mix_receptance.weight", 2, { 96, 96, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey rwkv7_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "wkv.head_size", GG_U32, 24, NULL, 0 },
	{ "attention.decay_lora_rank", GG_U32, 8, NULL, 0 },
	{ "attention.iclr_lora_rank", GG_U32, 8, NULL, 0 },
	{ "attention.value_residual_mix_lora_rank", GG_U32, 8, NULL, 0 },
	{ "attention.gate_lora_rank", GG_U32, 8, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten rwkv7_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "token_embd_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "token_embd_norm.bias", 1, { 96, 1, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "output_norm.bias", 1, { 96, 1, 1, 1 } },
	{ "output.weight", 2, { 96, 264, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.bias", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm_2.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm_2.bias", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_w0.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_w1.weight", 2, { 96, 8, 1, 1 } },
	{ "blk.%d.time_mix_w2.weight", 2, { 8, 96, 1, 1 } },
	{ "blk.%d.time_mix_a0.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_a1.weight", 2, { 96, 8, 1, 1 } },
	{ "blk.%d.time_mix_a2.weight", 2, { 8, 96, 1, 1 } },
	{ "blk.%d.time_mix_v0.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_v1.weight", 2, { 96, 8, 1, 1 } },
	{ "blk.%d.time_mix_v2.weight", 2, { 8, 96, 1, 1 } },
	{ "blk.%d.time_mix_g1.weight", 2, { 96, 8, 1, 1 } },
	{ "blk.%d.time_mix_g2.weight", 2, { 8, 96, 1, 1 } },
	{ "blk.%d.time_mix_lerp_fused.weight", 4, { 96, 1, 1, 6 } },
	{ "blk.%d.time_mix_k_k.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_k_a.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_r_k.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_key.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.time_mix_value.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.time_mix_receptance.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.time_mix_ln.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_ln.bias", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.time_mix_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.channel_mix_lerp_k.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.channel_mix_key.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.channel_mix_value.weight", 2, { 160, 96, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey falcon_h1_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "ssm.conv_kernel", GG_U32, 4, NULL, 0 },
	{ "ssm.inner_size", GG_U32, 192, NULL, 0 },
	{ "ssm.state_size", GG_U32, 16, NULL, 0 },
	{ "ssm.time_step_rank", GG_U32, 6, NULL, 0 },
	{ "ssm.group_count", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten falcon_h1_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ssm_in.weight", 2, { 96, 422, 1, 1 } },
	{ "blk.%d.ssm_conv1d.weight", 2, { 4, 224, 1, 1 } },
	{ "blk.%d.ssm_dt.bias", 1, { 6, 1, 1, 1 } },
	{ "blk.%d.ssm_a", 2, { 1, 6, 1, 1 } },
	{ "blk.%d.ssm_d", 2, { 1, 6, 1, 1 } },
	{ "blk.%d.ssm_out.weight", 2, { 192, 96, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_norm", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey t5_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "attention.relative_buckets_count", GG_U32, 32, NULL, 0 },
	{ "attention.key_length", GG_U32, 24, NULL, 0 },
	{ "attention.value_length", GG_U32, 24, NULL, 0 },
	{ "decoder_start_token_id", GG_U32, 0, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten t5_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "enc.output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "dec.output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "enc.blk.0.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "enc.blk.0.attn_q.weight", 2, { 96, 24, 1, 1 } },
	{ "enc.blk.0.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "enc.blk.0.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "enc.blk.0.attn_o.weight", 2, { 24, 96, 1, 1 } },
	{ "enc.blk.0.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "enc.blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "enc.blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "enc.blk.1.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "enc.blk.1.attn_q.weight", 2, { 96, 24, 1, 1 } },
	{ "enc.blk.1.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "enc.blk.1.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "enc.blk.1.attn_o.weight", 2, { 24, 96, 1, 1 } },
	{ "enc.blk.1.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "enc.blk.1.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "enc.blk.1.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "dec.blk.0.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "dec.blk.0.attn_q.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.0.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.0.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.0.attn_o.weight", 2, { 24, 96, 1, 1 } },
	{ "dec.blk.0.cross_attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "dec.blk.0.cross_attn_q.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.0.cross_attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.0.cross_attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.0.cross_attn_o.weight", 2, { 24, 96, 1, 1 } },
	{ "dec.blk.0.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "dec.blk.0.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "dec.blk.0.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "dec.blk.1.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "dec.blk.1.attn_q.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.1.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.1.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.1.attn_o.weight", 2, { 24, 96, 1, 1 } },
	{ "dec.blk.1.cross_attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "dec.blk.1.cross_attn_q.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.1.cross_attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.1.cross_attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "dec.blk.1.cross_attn_o.weight", 2, { 24, 96, 1, 1 } },
	{ "dec.blk.1.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "dec.blk.1.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "dec.blk.1.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};

static const struct dkey gemma3n_keys[] = {
	{ "context_length", GG_U32, 2048, NULL, 0 },
	{ "embedding_length", GG_U32, 96, NULL, 0 },
	{ "block_count", GG_U32, 2, NULL, 0 },
	{ "feed_forward_length", GG_U32, 160, NULL, 0 },
	{ "attention.head_count", GG_U32, 4, NULL, 0 },
	{ "attention.head_count_kv", GG_U32, 1, NULL, 0 },
	{ "attention.layer_norm_rms_epsilon", GG_F32, 1e-05, NULL, 0 },
	{ "attention.sliding_window", GG_U32, 1, NULL, 0 },
	{ NULL, 0, 0, NULL, 0 }
};
static const struct dten gemma3n_tensors[] = {
	{ "token_embd.weight", 2, { 96, 264, 1, 1 } },
	{ "altup_proj.weight", 3, { 96, 96, 3, 1 } },
	{ "altup_unembd_proj.weight", 3, { 96, 96, 3, 1 } },
	{ "per_layer_token_embd.weight", 2, { 512, 264, 1, 1 } },
	{ "per_layer_model_proj.weight", 2, { 96, 512, 1, 1 } },
	{ "per_layer_proj_norm.weight", 1, { 256, 1, 1, 1 } },
	{ "output_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.attn_q.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_k.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_v.weight", 2, { 96, 24, 1, 1 } },
	{ "blk.%d.attn_output.weight", 2, { 96, 96, 1, 1 } },
	{ "blk.%d.attn_q_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.attn_k_norm.weight", 1, { 24, 1, 1, 1 } },
	{ "blk.%d.post_attention_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.ffn_gate.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_up.weight", 2, { 96, 160, 1, 1 } },
	{ "blk.%d.ffn_down.weight", 2, { 160, 96, 1, 1 } },
	{ "blk.%d.post_ffw_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.inp_gate.weight", 2, { 96, 256, 1, 1 } },
	{ "blk.%d.proj.weight", 2, { 256, 96, 1, 1 } },
	{ "blk.%d.post_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.altup_correct_coef.weight", 2, { 4, 4, 1, 1 } },
	{ "blk.%d.altup_correct_scale.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.altup_predict_coef.weight", 2, { 4, 16, 1, 1 } },
	{ "blk.%d.altup_router.weight", 2, { 96, 4, 1, 1 } },
	{ "blk.%d.altup_router_norm.weight", 1, { 96, 1, 1, 1 } },
	{ "blk.%d.laurel_l.weight", 2, { 96, 64, 1, 1 } },
	{ "blk.%d.laurel_r.weight", 2, { 64, 96, 1, 1 } },
	{ "blk.%d.laurel_post_norm.weight", 1, { 96, 1, 1, 1 } },
	{ NULL, 0, { 0, 0, 0, 0 } }
};
