/*
 * projectors.c - the rules of llama.cpp's projector loader, per projector
 * type (projectors.h).
 *
 * Read from clip.cpp's clip_model_loader (load_hparams, load_tensors)
 * and clip-impl.h's names, of the llama.cpp the project follows (that of
 * node-llama-cpp 3.22.1). A key is required where load_hparams reads it
 * with get_u32/get_f32/get_arr_int and no "false", or asserts it; a
 * tensor where load_tensors calls get_tensor(name) without "false".
 */
#include "config.h"

#include <string.h>

#include "projectors.h"

/* The tower's hyperparameters, read for every projector. */
#define KEYS_TOWER \
	"clip.{m}.embedding_length:u32 clip.{m}.attention.head_count:u32 " \
	"clip.{m}.feed_forward_length:u32 clip.{m}.block_count:u32 " \
	"clip.{m}.projection_dim:u32 " \
	"clip.{m}.attention.layer_norm_epsilon:f32 "

static const char	keys_vision[] = KEYS_TOWER
	"clip.vision.image_size:u32 clip.vision.patch_size:u32 "
	"clip.vision.image_mean:arr3 clip.vision.image_std:arr3";
static const char	keys_audio[] = KEYS_TOWER
	"clip.audio.num_mel_bins:u32";

/*
 * What the loader's common part loads when present: embeddings, norms
 * and each block's attention, norms and feed-forward besides the three
 * matrices every block needs (BLK).
 */
static const char	base_optional[] =
	"v.class_embd {p}.pre_ln.weight {p}.pre_ln.bias {p}.post_ln.weight "
	"{p}.post_ln.bias v.patch_embd.bias v.patch_embd.weight "
	"v.patch_embd.weight.1 v.norm_embd.weight v.norm_embd.bias "
	"{p}.position_embd.weight "
	"{p}.blk.{bid}.attn_k.weight {p}.blk.{bid}.attn_q.weight "
	"{p}.blk.{bid}.attn_v.weight {p}.blk.{bid}.attn_qkv.weight "
	"{p}.blk.{bid}.attn_k_norm.weight {p}.blk.{bid}.attn_q_norm.weight "
	"{p}.blk.{bid}.ln1.weight {p}.blk.{bid}.ln2.weight "
	"{p}.blk.{bid}.ls1.weight {p}.blk.{bid}.ls2.weight "
	"{p}.blk.{bid}.out_scale.weight {p}.blk.{bid}.attn_post_norm.weight "
	"{p}.blk.{bid}.ffn_post_norm.weight "
	"{p}.blk.{bid}.attn_k.bias {p}.blk.{bid}.attn_q.bias "
	"{p}.blk.{bid}.attn_v.bias {p}.blk.{bid}.attn_out.bias "
	"{p}.blk.{bid}.attn_qkv.bias {p}.blk.{bid}.ln1.bias "
	"{p}.blk.{bid}.ln2.bias {p}.blk.{bid}.ffn_up.bias "
	"{p}.blk.{bid}.ffn_gate.weight {p}.blk.{bid}.ffn_gate.bias "
	"{p}.blk.{bid}.ffn_down.bias "
	"v.deepstack.{bid}.norm.weight v.deepstack.{bid}.norm.bias "
	"v.deepstack.{bid}.fc1.weight v.deepstack.{bid}.fc1.bias "
	"v.deepstack.{bid}.fc2.weight v.deepstack.{bid}.fc2.bias";

/* Every block's attention output and feed-forward matrices. */
#define BLK \
	"{p}.blk.{bid}.attn_out.weight {p}.blk.{bid}.ffn_up.weight " \
	"{p}.blk.{bid}.ffn_down.weight "

#define WB(n)		n ".weight " n ".bias "
#define PIXELS \
	"clip.vision.image_min_pixels:u32 clip.vision.image_max_pixels:u32 "
#define STACK		"clip.audio.projector.stack_factor:u32 "
#define CONV1D		WB("a.conv1d.1") WB("a.conv1d.2")
#define CONV5 \
	WB("a.conv1d.0") WB("a.conv1d.2") WB("a.conv1d.3") \
	WB("a.conv1d.5") WB("a.conv1d.6") WB("a.pre_encode.out")
#define MB_BLOCK(b) \
	"mm.model.mb_block." b ".block.0.0.weight " \
	WB("mm.model.mb_block." b ".block.0.1") \
	WB("mm.model.mb_block." b ".block.1.fc1") \
	WB("mm.model.mb_block." b ".block.1.fc2") \
	"mm.model.mb_block." b ".block.2.0.weight " \
	WB("mm.model.mb_block." b ".block.2.1")
#define SAM_BLK(n)	WB("v.sam.blk.{sam}." n)
#define V		GGUF_PROJ_VISION
#define A		GGUF_PROJ_AUDIO

#define ROW(t, m, k, r, o)	{ t, m, k, r, o, NULL, NULL, NULL }

const struct gguf_projector	gguf_projectors[] = {
	ROW("mlp", V, "", BLK,
	    WB("mm.0") WB("mm.1") WB("mm.2") WB("mm.3") WB("mm.4")
	    "v.image_newline"),
	ROW("ldp", V, "", BLK WB("mm.model.mlp.1") WB("mm.model.mlp.3")
	    MB_BLOCK("1") MB_BLOCK("2"), ""),
	ROW("ldpv2", V, "", BLK WB("mm.model.mlp.0") WB("mm.model.mlp.2")
	    WB("mm.model.peg.0"), ""),
	ROW("resampler", V, "", BLK "resampler.pos_embed_k resampler.query "
	    "resampler.proj.weight resampler.kv.weight "
	    WB("resampler.attn.q") WB("resampler.attn.k")
	    WB("resampler.attn.v") WB("resampler.attn.out")
	    WB("resampler.ln_q") WB("resampler.ln_kv") WB("resampler.ln_post"),
	    ""),
	ROW("adapter", V, "", BLK WB("adapter.conv")
	    "adapter.linear.linear.weight " WB("adapter.linear.norm1")
	    "adapter.linear.dense_h_to_4h.weight adapter.linear.gate.weight "
	    "adapter.linear.dense_4h_to_h.weight adapter.boi adapter.eoi", ""),
	ROW("qwen2vl_merger", V, "", BLK WB("mm.0") WB("mm.2"), ""),
	ROW("qwen2.5vl_merger", V, "clip.vision.n_wa_pattern:u32",
	    BLK WB("mm.0") WB("mm.2"), ""),
	ROW("qwen3vl_merger", V, "", BLK WB("mm.0") WB("mm.2"), ""),
	ROW("step3vl", V, "", BLK "mm.0.weight mm.1.weight mm.model.fc.weight",
	    "mm.0.bias mm.1.bias"),
	ROW("gemma3", V, "", BLK "mm.input_projection.weight "
	    "mm.soft_emb_norm.weight", ""),
	/* MobileNetV5: no transformer blocks, its stages all optional. */
	ROW("gemma3nv", V, "", "mm.input_projection.weight "
	    "mm.soft_emb_norm.weight",
	    "v.conv_stem.conv.weight v.conv_stem.conv.bias "
	    "v.conv_stem.bn.weight v.msfa.ffn.pw_exp.conv.weight "
	    "v.msfa.ffn.pw_proj.conv.weight v.msfa.norm.weight "
	    "v.blk.0.0.conv_exp.weight v.blk.0.0.bn1.weight"),
	{ "gemma3na", A, "", "", "", "llama.cpp's projector loader knows "
	    "the name but loads no such projector", NULL, NULL },
	ROW("gemma4v", V, "", BLK "mm.input_projection.weight",
	    "v.std_bias v.std_scale"),
	ROW("gemma4a", A, "", BLK "a.conv1d.0.weight a.conv1d.1.weight "
	    "a.input_projection.weight {p}.blk.{bid}.ffn_norm.weight "
	    "{p}.blk.{bid}.conv_pw1.weight {p}.blk.{bid}.conv_dw.weight "
	    "{p}.blk.{bid}.conv_pw2.weight {p}.blk.{bid}.ffn_norm_1.weight "
	    "{p}.blk.{bid}.ffn_up_1.weight {p}.blk.{bid}.ffn_down_1.weight",
	    "a.conv1d.0.bias a.conv1d.1.bias a.conv1d.0.norm.weight "
	    "a.conv1d.1.norm.weight a.input_projection.bias "
	    WB("a.pre_encode.out") "mm.a.soft_emb_norm.weight "
	    "mm.a.input_projection.weight "
	    "{p}.blk.{bid}.attn_pre_norm.weight "
	    "{p}.blk.{bid}.per_dim_scale.weight "
	    "{p}.blk.{bid}.per_dim_k_scale.weight "
	    "{p}.blk.{bid}.attn_k_rel.weight " WB("{p}.blk.{bid}.conv_norm")
	    WB("{p}.blk.{bid}.norm_conv") "{p}.blk.{bid}.conv_pw1.bias "
	    "{p}.blk.{bid}.conv_dw.bias {p}.blk.{bid}.conv_pw2.bias "
	    "{p}.blk.{bid}.ffn_up_1.bias {p}.blk.{bid}.ffn_down_1.bias "
	    "{p}.blk.{bid}.ffn_post_norm_1.weight"),
	ROW("phi4", V, PIXELS, BLK WB("mm.0") WB("mm.2"), ""),
	ROW("idefics3", V, "", BLK "mm.model.fc.weight", ""),
	ROW("pixtral", V, "", BLK "mm.1.weight mm.2.weight "
	    "v.token_embd.img_break", "mm.1.bias mm.2.bias "
	    "mm.input_norm.weight mm.patch_merger.weight"),
	ROW("ultravox", A, STACK, BLK CONV1D "mm.a.mlp.1.weight "
	    "mm.a.mlp.2.weight mm.a.norm_pre.weight mm.a.norm_mid.weight", ""),
	ROW("internvl", V, "", BLK WB("mm.model.mlp.0") WB("mm.model.mlp.1")
	    WB("mm.model.mlp.3"), ""),
	ROW("llama4", V, "", BLK "mm.model.fc.weight mm.model.mlp.1.weight "
	    "mm.model.mlp.2.weight", ""),
	ROW("qwen2a", A, "", BLK CONV1D WB("mm.a.fc"), ""),
	ROW("qwen3a", A, "", BLK WB("a.conv2d.1") WB("a.conv2d.2")
	    WB("a.conv2d.3") "a.conv_out.weight " WB("mm.a.mlp.1")
	    WB("mm.a.mlp.2"), ""),
	ROW("glma", A, STACK, BLK CONV1D WB("mm.a.mlp.1") WB("mm.a.mlp.2")
	    WB("mm.a.norm_pre") "v.boi v.eoi", ""),
	/* Qwen2.5-Omni: loaded as qwen2.5vl_merger or qwen2a. */
	{ "qwen2.5o", V | A, "", "", "", NULL, "qwen2.5vl_merger", "qwen2a" },
	ROW("voxtral", A, STACK, BLK CONV1D "mm.a.mlp.1.weight "
	    "mm.a.mlp.2.weight", ""),
	ROW("meralion", A, STACK, BLK CONV1D WB("mm.a.mlp.0")
	    WB("mm.a.mlp.1") WB("mm.a.mlp.2") WB("mm.a.mlp.3")
	    WB("mm.a.norm_pre"), ""),
	ROW("musicflamingo", A, "", BLK CONV1D WB("mm.a.mlp.1")
	    WB("mm.a.mlp.2"), ""),
	ROW("lfm2", V, "", BLK WB("mm.1") WB("mm.2"), WB("mm.input_norm")),
	ROW("kimivl", V, "", BLK WB("mm.input_norm") WB("mm.1") WB("mm.2"),
	    ""),
	ROW("paddleocr", V, PIXELS, BLK WB("mm.input_norm") WB("mm.1")
	    WB("mm.2"), ""),
	ROW("lightonocr", V, "", BLK "mm.1.weight mm.2.weight", "mm.1.bias "
	    "mm.2.bias mm.input_norm.weight mm.patch_merger.weight"),
	ROW("cogvlm", V, "", BLK "mm.model.fc.weight " WB("mm.post_fc_norm")
	    "mm.up.weight mm.gate.weight mm.down.weight v.boi v.eoi", ""),
	ROW("janus_pro", V, "", BLK WB("mm.0") WB("mm.1"), ""),
	ROW("dots_ocr", V, "clip.vision.projector.scale_factor:u32 " PIXELS,
	    BLK WB("mm.0") WB("mm.2") WB("mm.input_norm")
	    "mm.post_norm.weight", ""),
	ROW("deepseekocr", V, "clip.vision.sam.block_count:u32 "
	    "clip.vision.sam.head_count:u32 "
	    "clip.vision.sam.embedding_length:u32 clip.vision.window_size:u32",
	    BLK "v.sam.pos_embd.weight " WB("v.sam.patch_embd")
	    SAM_BLK("attn.qkv") SAM_BLK("attn.out") SAM_BLK("pre_ln")
	    SAM_BLK("post_ln") "v.sam.blk.{sam}.attn.pos_h.weight "
	    "v.sam.blk.{sam}.attn.pos_w.weight " SAM_BLK("mlp.lin1")
	    SAM_BLK("mlp.lin2") "v.sam.neck.0.weight " WB("v.sam.neck.1")
	    "v.sam.neck.2.weight " WB("v.sam.neck.3") "v.sam.net_2.weight "
	    "v.sam.net_3.weight v.image_newline v.view_seperator "
	    WB("mm.model.fc"), ""),
	ROW("lfm2a", A, "", BLK CONV5 WB("mm.a.mlp.0") WB("mm.a.mlp.1")
	    WB("mm.a.mlp.3") WB("{p}.blk.{bid}.ffn_norm")
	    WB("{p}.blk.{bid}.ffn_norm_1") WB("{p}.blk.{bid}.ffn_up_1")
	    WB("{p}.blk.{bid}.ffn_down_1") "{p}.blk.{bid}.pos_bias_u "
	    "{p}.blk.{bid}.pos_bias_v " WB("{p}.blk.{bid}.norm_conv")
	    "{p}.blk.{bid}.linear_pos.weight " WB("{p}.blk.{bid}.conv_norm")
	    WB("{p}.blk.{bid}.conv_dw") WB("{p}.blk.{bid}.conv_pw1")
	    WB("{p}.blk.{bid}.conv_pw2"), ""),
	ROW("glm4v", V, "", BLK "mm.model.fc.weight mm.up.weight "
	    "mm.gate.weight mm.down.weight mm.post_norm.weight "
	    WB("mm.patch_merger"), "mm.up.bias mm.gate.bias mm.down.bias "
	    "mm.post_norm.bias"),
	ROW("youtuvl", V, "clip.vision.window_size:u32 "
	    "clip.vision.wa_layer_indexes:arr", BLK "mm.input_norm.weight "
	    WB("mm.0") WB("mm.2"), ""),
	ROW("yasa2", V, "", BLK "v.patch_embd.weight mm.0.weight mm.2.weight",
	    "mm.0.bias mm.2.bias v.patch_ln.weight v.patch_ln.bias "
	    "v.backbone_ln.weight v.backbone_ln.bias v.vision_pos_embed"),
	ROW("kimik25", V, "", BLK WB("mm.input_norm") WB("mm.1") WB("mm.2"),
	    ""),
	ROW("nemotron_v2_vl", V, "", BLK "mm.model.mlp.0.weight "
	    "mm.model.mlp.1.weight mm.model.mlp.3.weight", ""),
	ROW("hunyuanocr", V, PIXELS, BLK WB("mm.0") WB("mm.2")
	    WB("mm.model.fc") "mm.pre_norm.weight mm.post_norm.weight "
	    "mm.image_begin mm.image_end v.image_newline", "v.view_seperator"),
	ROW("hunyuanvl", V, "", BLK WB("mm.0") WB("mm.2") WB("mm.model.fc")
	    "mm.pre_norm.weight mm.post_norm.weight mm.image_begin "
	    "mm.image_end v.image_newline", "v.view_seperator"),
	ROW("parakeet", A, "", BLK "a.mel_filters a.window " CONV5
	    "{p}.blk.{bid}.linear_pos.weight {p}.blk.{bid}.pos_bias_u "
	    "{p}.blk.{bid}.pos_bias_v {p}.blk.{bid}.conv_pw1.weight "
	    "{p}.blk.{bid}.conv_dw.weight {p}.blk.{bid}.conv_norm.weight "
	    "{p}.blk.{bid}.conv_pw2.weight {p}.blk.{bid}.ffn_norm.weight "
	    "{p}.blk.{bid}.ffn_norm_1.weight {p}.blk.{bid}.ffn_up_1.weight "
	    "{p}.blk.{bid}.ffn_down_1.weight {p}.blk.{bid}.norm_conv.weight "
	    "mm.model.mlp.0.weight mm.model.mlp.1.weight "
	    "mm.model.mlp.3.weight", "mm.a.norm_pre.weight mm.a.mlp.1.weight "
	    "mm.a.mlp.2.weight {p}.blk.{bid}.conv_pw1.bias "
	    "{p}.blk.{bid}.conv_norm_mean {p}.blk.{bid}.conv_norm_var "
	    "{p}.blk.{bid}.ffn_norm.bias {p}.blk.{bid}.norm_conv.bias")
};

const size_t	gguf_projectors_n =
    sizeof gguf_projectors / sizeof gguf_projectors[0];

const char *
gguf_projector_base_keys(unsigned modality)
{
	return modality == GGUF_PROJ_AUDIO ? keys_audio : keys_vision;
}

const char *
gguf_projector_base_optional(void)
{
	return base_optional;
}

const struct gguf_projector *
gguf_projector_find(const char *type, size_t n)
{
	size_t	k;

	for (k = 0; k < gguf_projectors_n; k++)
		if (strlen(gguf_projectors[k].type) == n &&
		    memcmp(gguf_projectors[k].type, type, n) == 0)
			return &gguf_projectors[k];
	return NULL;
}
