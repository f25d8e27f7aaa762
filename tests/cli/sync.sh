#!/bin/sh
# sync.sh - `ggufed sync FILE --from DIR`: a model's metadata against its
# upstream repository's files, as llama.cpp's converter maps them.
#
# Folders of upstream files for three families, written here from what
# the real repositories hold (Llama-3.1-8B-Instruct: the eos list and the
# template in chat_template.jinja; Qwen2.5-7B-Instruct with the YaRN block
# its model card gives; gemma-3-1b-it with a Gemma template), against
# models of those architectures as an older conversion left them
# (tools/gen_sync): the report names every difference and nothing else
# (exit 1, 0 once applied); -o and -i write exactly the converter's keys
# and types; templates as a list and additional_chat_templates give the
# named keys; llama3 scaling without its tensor is reported only; --only
# applies a subset; a folder of another shape or
# architecture is reported and refused; an unknown model_type compares
# only the tokenizer and template keys. Malformed JSON, a missing file or
# folder, a token text the vocabulary lacks, a bad --only: one line, exit
# 2, nothing written.
. "$TESTS_SRCDIR/lib.sh"

T="$TESTS_SRCDIR/template"
"$TESTS_BUILDDIR/tools/gen_sync" "$scratch" ||
    { echo "Bail out! gen_sync failed"; exit 1; }

# jstr FILE: the file's text as a JSON string (a final newline dropped).
jstr() {
	printf '"'
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/	/\\t/g' "$1" |
	    awk 'BEGIN { ORS = "" } { if (NR > 1) printf "\\n"; printf "%s", $0 }'
	printf '"'
}

# has TEXT DESCRIPTION: the output holds the line TEXT (fixed string).
has() {
	grep -qxF -- "$1" "$scratch/out"
	ok $? "$2" || sed 's/^/# got  /' "$scratch/out"
}

# get FILE KEY: the value as `ggufed get --json` gives it.
get() {
	"$GGUFED" get --json "$1" "$2" 2>&1
}

# oneline DESCRIPTION: exit 2, one line on stderr, nothing on stdout.
oneline() {
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
	    [ ! -s "$scratch/out" ]
	ok $? "$1: exit 2, one line" ||
	    { echo "# rc=$rc"; sed 's/^/# /' "$scratch/err" "$scratch/out"; }
}

# ------------------------------------------------------------ Llama-3.1
L="$scratch/Llama-3.1-8B-Instruct"
mkdir "$L"
cat >"$L/config.json" <<'EOF'
{
  "architectures": ["LlamaForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 128000,
  "eos_token_id": [128001, 128008, 128009],
  "hidden_act": "silu",
  "hidden_size": 4096,
  "initializer_range": 0.02,
  "intermediate_size": 14336,
  "max_position_embeddings": 131072,
  "mlp_bias": false,
  "model_type": "llama",
  "num_attention_heads": 32,
  "num_hidden_layers": 32,
  "num_key_value_heads": 8,
  "pretraining_tp": 1,
  "rms_norm_eps": 1e-05,
  "rope_scaling": {
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
    "rope_type": "llama3"
  },
  "rope_theta": 500000.0,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.43.0.dev0",
  "use_cache": true,
  "vocab_size": 128256
}
EOF
cat >"$L/generation_config.json" <<'EOF'
{
  "bos_token_id": 128000,
  "do_sample": true,
  "eos_token_id": [128001, 128008, 128009],
  "temperature": 0.6,
  "top_p": 0.9,
  "transformers_version": "4.42.3"
}
EOF
cat >"$L/tokenizer_config.json" <<'EOF'
{
  "bos_token": "<|begin_of_text|>",
  "clean_up_tokenization_spaces": true,
  "eos_token": "<|eot_id|>",
  "model_input_names": ["input_ids", "attention_mask"],
  "model_max_length": 131072,
  "tokenizer_class": "PreTrainedTokenizerFast"
}
EOF
cp "$T/llama-3.1.jinja" "$L/chat_template.jinja"
cp_w "$scratch/llama31.gguf" "$scratch/l.gguf"

"$GGUFED" sync "$scratch/l.gguf" --from "$L" >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ]; ok $? "llama: something differs: exit 1"
[ ! -s "$scratch/err" ]; ok $? "llama: nothing on standard error"
has "$scratch/l.gguf: 3 differences with $L (llama)" \
    "llama: three differences, the architecture named"
has '~ llama.context_length: 8192, upstream 131072 (config.json max_position_embeddings): the context is capped below the length upstream supports' \
    "llama: the context length, from max_position_embeddings"
has '~ tokenizer.ggml.eos_token_id: 128001 `<|end_of_text|>`, upstream 128009 `<|eot_id|>` (tokenizer_config.json eos_token): generation does not stop at the end of a turn' \
    "llama: eos, by id and text, and what it does"
grep -q '^~ tokenizer.chat_template: [0-9]* bytes, upstream [0-9]* bytes (chat_template.jinja): ' "$scratch/out"
ok $? "llama: the template, from chat_template.jinja"
grep -q '^    + Cutting Knowledge Date: December 2023$' "$scratch/out"
ok $? "llama: the template's difference rendered for one conversation"
grep -q '^note: generation_config.json eos_token_id: upstream also stops generating at 128008 `<|eom_id|>`' "$scratch/out"
ok $? "llama: generation_config's extra end of generation is reported"
grep -q 'stops generating at 128009' "$scratch/out"; [ $? -ne 0 ]
ok $? "llama: not upstream's own eos"
grep -q 'rope_freqs\|rope.scaling' "$scratch/out"; [ $? -ne 0 ]
ok $? "llama: llama3 scaling is the tensor the file has: no difference"

"$GGUFED" sync "$scratch/l.gguf" --from "$L" --json >"$scratch/out"
"$TESTS_BUILDDIR/tools/jsoncheck" <"$scratch/out" &&
    grep -q '"key": "tokenizer.ggml.eos_token_id", "kind": "token", "file": "128001 `<|end_of_text|>`", "upstream": "128009 `<|eot_id|>`"' "$scratch/out"
ok $? "llama: --json is valid JSON with each difference"

"$GGUFED" sync "$scratch/l.gguf" --from "$L" -o "$scratch/l2.gguf" \
    >"$scratch/out" 2>"$scratch/err"
ok $? "llama: -o applies" || sed 's/^/# /' "$scratch/err"
grep -q "^$scratch/l2.gguf: written as a new file" "$scratch/out"
ok $? "llama: -o saves through the edit path, saying how"
[ "$(get "$scratch/l2.gguf" llama.context_length)" = '{"type": "u32", "value": 131072}' ]
ok $? "llama: context_length u32 131072"
[ "$(get "$scratch/l2.gguf" tokenizer.ggml.eos_token_id)" = '{"type": "u32", "value": 128009}' ]
ok $? "llama: eos_token_id u32 128009"
"$GGUFED" get --raw "$scratch/l2.gguf" tokenizer.chat_template >"$scratch/t"
cmp -s "$scratch/t" "$L/chat_template.jinja"
ok $? "llama: the template is chat_template.jinja byte for byte"
[ "$(get "$scratch/l2.gguf" tokenizer.ggml.bos_token_id)" = '{"type": "u32", "value": 128000}' ]
ok $? "llama: what did not differ is as it was"
"$GGUFED" sync "$scratch/l2.gguf" --from "$L" >"$scratch/out"
ok $? "llama: the applied file no longer differs (exit 0)"
cmp -s "$scratch/llama31.gguf" "$scratch/l.gguf"
ok $? "llama: -o left the source as it was"

# llama3 scaling is a tensor: a file without it is told, not written.
"$GGUFED" rm-tensor "$scratch/l.gguf" rope_freqs.weight \
    -o "$scratch/nofreqs.gguf" -q 2>/dev/null
"$GGUFED" sync "$scratch/nofreqs.gguf" --from "$L" >"$scratch/out"
grep -q '^! rope_freqs.weight: (no tensor), upstream a tensor of frequency factors (config.json rope_scaling): .*convert the model again) \[report only\]$' "$scratch/out"
ok $? "llama: llama3 scaling without rope_freqs.weight is reported only"

# Templates as a list: the default one and a named one, with their names.
N="$scratch/named"
cp -r "$L" "$N"
rm "$N/chat_template.jinja"
printf '{"eos_token": "<|eot_id|>", "chat_template": [{"name": "default", "template": "{{ bos_token }}A"}, {"name": "tool use!", "template": "{{ bos_token }}B"}]}\n' \
    >"$N/tokenizer_config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$N" -o "$scratch/n.gguf" \
    >"$scratch/out" 2>"$scratch/err"
ok $? "named: applies" || sed 's/^/# /' "$scratch/err"
[ "$("$GGUFED" get "$scratch/n.gguf" tokenizer.chat_template)" = '{{ bos_token }}A' ] &&
    [ "$("$GGUFED" get "$scratch/n.gguf" tokenizer.chat_template.tool_use_)" = '{{ bos_token }}B' ] &&
    [ "$(get "$scratch/n.gguf" tokenizer.chat_templates)" = '{"type": "arr[str]", "value": ["tool_use_"]}' ]
ok $? "named: default, tokenizer.chat_template.NAME (sanitised) and the names"
"$GGUFED" sync "$scratch/n.gguf" --from "$N" >"$scratch/out"
ok $? "named: nothing differs once applied" || sed 's/^/# /' "$scratch/out"

# chat_template.jinja with additional_chat_templates: named ones too.
A="$scratch/additional"
cp -r "$L" "$A"
mkdir "$A/additional_chat_templates"
printf '{{ bos_token }}R' >"$A/additional_chat_templates/rag.jinja"
"$GGUFED" sync "$scratch/l.gguf" --from "$A" >"$scratch/out"
grep -q '^~ tokenizer.chat_template.rag: (none), upstream 16 bytes (additional_chat_templates/rag.jinja): programs that ask for this named template' "$scratch/out" &&
    grep -q '^~ tokenizer.chat_templates: (none), upstream rag ' "$scratch/out"
ok $? "additional_chat_templates/NAME.jinja: a named template" ||
    sed 's/^/# /' "$scratch/out"

# Without tokenizer_config.json (or with an empty one) the converter
# reads no template: chat_template.jinja alone is not compared.
E="$scratch/empty-tokcfg"
cp -r "$L" "$E"
printf '{}\n' >"$E/tokenizer_config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$E" >"$scratch/out"
grep -q 'chat_template' "$scratch/out"; [ $? -ne 0 ]
ok $? "empty tokenizer_config.json: no template compared"
has 'note: no tokenizer_config.json (or an empty one): the converter reads no chat template and no special token text without it' \
    "empty tokenizer_config.json: says so"
# A chat_template of null is none: chat_template.jinja is not read.
printf '{"chat_template": null}\n' >"$E/tokenizer_config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$E" >"$scratch/out"
grep -q 'chat_template' "$scratch/out"; [ $? -ne 0 ]
ok $? "chat_template null: no template compared"

# A folder of another shape: reported, and nothing written.
S="$scratch/other-shape"
cp -r "$L" "$S"
sed 's/"hidden_size": 4096/"hidden_size": 2048/' "$L/config.json" >"$S/config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$S" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "shape: reported, exit 1"
has '! llama.embedding_length: 4096, upstream 2048 (config.json hidden_size): the folder is not this model'"'"'s: its shape differs [shape: never written]' \
    "shape: the shape key named, never written"
"$GGUFED" sync "$scratch/l.gguf" --from "$S" -o "$scratch/s.gguf" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && [ ! -e "$scratch/s.gguf" ]
ok $? "shape: -o refuses, exit 2, nothing written"
grep -q "not written: the folder is not this model's" "$scratch/err"
ok $? "shape: says why"

# -------------------------------------------------------------- Qwen2.5
Q="$scratch/Qwen2.5-7B-Instruct"
mkdir "$Q"
cat >"$Q/config.json" <<'EOF'
{
  "architectures": ["Qwen2ForCausalLM"],
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "eos_token_id": 151645,
  "hidden_act": "silu",
  "hidden_size": 3584,
  "initializer_range": 0.02,
  "intermediate_size": 18944,
  "max_position_embeddings": 32768,
  "max_window_layers": 28,
  "model_type": "qwen2",
  "num_attention_heads": 28,
  "num_hidden_layers": 28,
  "num_key_value_heads": 4,
  "rms_norm_eps": 1e-06,
  "rope_theta": 1000000.0,
  "sliding_window": 131072,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.43.1",
  "use_cache": true,
  "use_sliding_window": false,
  "vocab_size": 152064,
  "rope_scaling": {
    "factor": 4.0,
    "original_max_position_embeddings": 32768,
    "type": "yarn"
  }
}
EOF
cat >"$Q/generation_config.json" <<'EOF'
{
  "bos_token_id": 151643,
  "pad_token_id": 151643,
  "do_sample": true,
  "eos_token_id": [151645, 151643],
  "repetition_penalty": 1.05,
  "temperature": 0.7,
  "top_p": 0.8,
  "top_k": 20,
  "transformers_version": "4.37.0"
}
EOF
{
	printf '{\n  "add_prefix_space": false,\n  "bos_token": null,\n'
	printf '  "chat_template": '
	jstr "$T/qwen2.5.jinja"
	printf ',\n  "clean_up_tokenization_spaces": false,\n'
	printf '  "eos_token": "<|im_end|>",\n  "errors": "replace",\n'
	printf '  "model_max_length": 131072,\n  "pad_token": "<|endoftext|>",\n'
	printf '  "split_special_tokens": false,\n'
	printf '  "tokenizer_class": "Qwen2Tokenizer",\n  "unk_token": null\n}\n'
} >"$Q/tokenizer_config.json"
cp_w "$scratch/qwen25.gguf" "$scratch/q.gguf"

"$GGUFED" sync "$scratch/q.gguf" --from "$Q" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "qwen: exit 1"
has "$scratch/q.gguf: 4 differences with $Q (qwen2)" "qwen: four differences"
has '~ qwen2.rope.scaling.type: (none), upstream yarn (config.json rope_scaling): contexts past the original length degrade: YaRN is off' \
    "qwen: YaRN's type"
has "~ qwen2.rope.scaling.factor: (none), upstream 4 (config.json rope_scaling): RoPE is scaled by another factor than upstream's" \
    "qwen: YaRN's factor"
has "~ qwen2.rope.scaling.original_context_length: (none), upstream 32768 (config.json rope_scaling): YaRN scales from another original context length than upstream's" \
    "qwen: YaRN's original context length"
grep -q '^~ tokenizer.chat_template: [0-9]* bytes, upstream [0-9]* bytes (tokenizer_config.json chat_template): ' "$scratch/out"
ok $? "qwen: the template, from tokenizer_config.json"
grep -q '^    + <|im_start|>system$' "$scratch/out" ||
    grep -q 'alike' "$scratch/out"
ok $? "qwen: the template's rendering compared"
grep -q 'sliding_window' "$scratch/out"; [ $? -ne 0 ]
ok $? "qwen: sliding_window is not a key the converter writes for qwen2"

"$GGUFED" sync "$scratch/q.gguf" --from "$Q" -o "$scratch/q2.gguf" \
    --only qwen2.rope.scaling.type,qwen2.rope.scaling.factor,qwen2.rope.scaling.original_context_length \
    >"$scratch/out" 2>"$scratch/err"
ok $? "qwen: --only applies a subset" || sed 's/^/# /' "$scratch/err"
[ "$(get "$scratch/q2.gguf" qwen2.rope.scaling.type)" = '{"type": "str", "value": "yarn"}' ] &&
[ "$(get "$scratch/q2.gguf" qwen2.rope.scaling.factor)" = '{"type": "f32", "value": 4}' ] &&
[ "$(get "$scratch/q2.gguf" qwen2.rope.scaling.original_context_length)" = '{"type": "u32", "value": 32768}' ]
ok $? "qwen: YaRN's keys with the converter's types"
"$GGUFED" get --raw "$scratch/q2.gguf" tokenizer.chat_template >"$scratch/t"
grep -q 'You are Qwen' "$scratch/t"; [ $? -ne 0 ]
ok $? "qwen: --only left the template out"
"$GGUFED" sync "$scratch/q2.gguf" --from "$Q" >"$scratch/out"
[ $? -eq 1 ]; ok $? "qwen: still something differs"
has "$scratch/q2.gguf: 1 difference with $Q (qwen2)" \
    "qwen: the template is the one difference left"

"$GGUFED" sync "$scratch/q2.gguf" --from "$Q" -i >"$scratch/out" 2>"$scratch/err"
ok $? "qwen: -i applies in place" || sed 's/^/# /' "$scratch/err"
"$GGUFED" get --raw "$scratch/q2.gguf" tokenizer.chat_template >"$scratch/t"
printf '%s' "$(cat "$T/qwen2.5.jinja")" | cmp -s - "$scratch/t"
ok $? "qwen: the template is tokenizer_config.json's"
"$GGUFED" sync "$scratch/q2.gguf" --from "$Q" >/dev/null
ok $? "qwen: nothing differs any more"

# --------------------------------------------------------------- Gemma 3
G="$scratch/gemma-3-1b-it"
mkdir "$G"
cat >"$G/config.json" <<'EOF'
{
  "architectures": ["Gemma3ForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "attn_logit_softcapping": null,
  "bos_token_id": 2,
  "cache_implementation": "hybrid",
  "eos_token_id": [1, 106],
  "final_logit_softcapping": null,
  "head_dim": 256,
  "hidden_activation": "gelu_pytorch_tanh",
  "hidden_size": 1152,
  "initializer_range": 0.02,
  "intermediate_size": 6912,
  "max_position_embeddings": 32768,
  "model_type": "gemma3_text",
  "num_attention_heads": 4,
  "num_hidden_layers": 26,
  "num_key_value_heads": 1,
  "pad_token_id": 0,
  "query_pre_attn_scalar": 256,
  "rms_norm_eps": 1e-06,
  "rope_local_base_freq": 10000,
  "rope_scaling": null,
  "rope_theta": 1000000,
  "sliding_window": 512,
  "sliding_window_pattern": 6,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.50.0.dev0",
  "use_cache": true,
  "vocab_size": 262144
}
EOF
printf '{"cache_implementation": "hybrid", "do_sample": true, "eos_token_id": [1, 106], "pad_token_id": 0, "top_k": 64, "top_p": 0.95}\n' \
    >"$G/generation_config.json"
{
	printf '{\n  "add_bos_token": true,\n  "add_eos_token": false,\n'
	printf '  "bos_token": "<bos>",\n  "chat_template": '
	jstr "$T/gemma-2.jinja"
	printf ',\n  "eos_token": "<eos>",\n  "pad_token": "<pad>",\n'
	printf '  "unk_token": "<unk>",\n  "tokenizer_class": "GemmaTokenizer"\n}\n'
} >"$G/tokenizer_config.json"
cp_w "$scratch/gemma3.gguf" "$scratch/g.gguf"

"$GGUFED" sync "$scratch/g.gguf" --from "$G" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "gemma: exit 1"
has "$scratch/g.gguf: 2 differences with $G (gemma3)" "gemma: two differences"
has '~ gemma3.attention.sliding_window: 4096, upstream 512 (config.json sliding_window): sliding-window layers attend over another span than trained' \
    "gemma: the sliding window"
grep -q '^~ tokenizer.chat_template: (none), upstream [0-9]* bytes (tokenizer_config.json chat_template): the model has no chat template' "$scratch/out"
ok $? "gemma: the missing template"
grep -q '^note: generation_config.json eos_token_id: upstream also stops generating at 106 `<end_of_turn>`' "$scratch/out"
ok $? "gemma: <end_of_turn> from generation_config.json noted"
"$GGUFED" sync "$scratch/g.gguf" --from "$G" -i >"$scratch/out" 2>"$scratch/err"
ok $? "gemma: -i" || sed 's/^/# /' "$scratch/err"
[ "$(get "$scratch/g.gguf" gemma3.attention.sliding_window)" = '{"type": "u32", "value": 512}' ]
ok $? "gemma: sliding_window u32 512"
"$GGUFED" template "$scratch/g.gguf" --add-generation-prompt \
    --messages '[{"role": "user", "content": "Hi"}]' >"$scratch/t"
printf '<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n' |
    cmp -s - "$scratch/t"
ok $? "gemma: the applied template renders as Gemma's"

# A multimodal layout: text_config's values win over the top level's;
# gemma3 maps linear scaling.
V="$scratch/gemma-3-vision"
mkdir "$V"
cp "$G/tokenizer_config.json" "$V/"
cat >"$V/config.json" <<'EOF'
{
  "architectures": ["Gemma3ForConditionalGeneration"],
  "model_type": "gemma3",
  "hidden_size": 9999,
  "text_config": {
    "hidden_size": 1152, "intermediate_size": 6912,
    "num_attention_heads": 4, "num_hidden_layers": 26,
    "num_key_value_heads": 1, "max_position_embeddings": 32768,
    "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
    "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
    "sliding_window": 512, "vocab_size": 262144
  }
}
EOF
"$GGUFED" sync "$scratch/g.gguf" --from "$V" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "text_config: exit 1"
has "$scratch/g.gguf: 2 differences with $V (gemma3)" \
    "text_config: only the scaling differs (its hidden_size wins)"
has '~ gemma3.rope.scaling.type: (none), upstream linear (config.json rope_scaling): contexts past the original length degrade: linear scaling is off' \
    "text_config: linear scaling for gemma3"

# Another architecture: reported as such, the rest not compared.
"$GGUFED" sync "$scratch/q.gguf" --from "$G" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "architecture: exit 1"
has '! general.architecture: qwen2, upstream gemma3 (config.json architectures): the folder is not this model'"'"'s: another architecture [shape: never written]' \
    "architecture: named, never written"
grep -q '^~ qwen2\.\|^~ gemma3\.' "$scratch/out"; [ $? -ne 0 ]
ok $? "architecture: no hyper-parameter compared under another architecture"

# An unknown family: the tokenizer and template keys only.
U="$scratch/unknown"
mkdir "$U"
printf '{"architectures": ["FooForCausalLM"], "model_type": "foo", "hidden_size": 1, "max_position_embeddings": 7}\n' >"$U/config.json"
printf '{"eos_token": "<|endoftext|>"}\n' >"$U/tokenizer_config.json"
"$GGUFED" sync "$scratch/q.gguf" --from "$U" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "unknown: exit 1"
has "$scratch/q.gguf: 1 difference with $U" "unknown: only the token differs"
has 'note: model_type foo, FooForCausalLM: not a family sync maps: only the tokenizer and template keys are compared' \
    "unknown: says so"

# ---------------------------------------------------------------- trouble
B="$scratch/bad"
mkdir "$B"
printf '{"architectures": ["LlamaForCausalLM"],\n  "hidden_size": 4096,,\n}\n' \
    >"$B/config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$B" -o "$scratch/x.gguf" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "malformed JSON"
grep -q "^ggufed: $B/config.json: not JSON: line 2, column 23: " "$scratch/err"
ok $? "malformed JSON: the file, line and column" || sed 's/^/# /' "$scratch/err"
[ ! -e "$scratch/x.gguf" ]; ok $? "malformed JSON: nothing written"

cp "$L/config.json" "$B/config.json"
printf '{"eos_token": "<|im_end|>",}' >"$B/tokenizer_config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$B" >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "malformed tokenizer_config.json"
grep -q "$B/tokenizer_config.json: not JSON: line 1, column" "$scratch/err"
ok $? "malformed tokenizer_config.json: named"

printf '{"eos_token": "<|nope|>"}' >"$B/tokenizer_config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$B" -i >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "a token not in the vocabulary"
grep -qF "$B/tokenizer_config.json: eos_token \"<|nope|>\" is not in the model's vocabulary" "$scratch/err"
ok $? "a token not in the vocabulary: named" || sed 's/^/# /' "$scratch/err"
cmp -s "$scratch/llama31.gguf" "$scratch/l.gguf"
ok $? "a token not in the vocabulary: the file is untouched"

printf '[1, 2]' >"$B/tokenizer_config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$B" >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "not an object"
grep -q "tokenizer_config.json: not a JSON object" "$scratch/err"
ok $? "not an object: says so"

rm "$B/config.json" "$B/tokenizer_config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$B" -o "$scratch/x.gguf" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "no config.json"
grep -q "$B/config.json: no such file" "$scratch/err"
ok $? "no config.json: says so"
[ ! -e "$scratch/x.gguf" ]; ok $? "no config.json: nothing written"

"$GGUFED" sync "$scratch/l.gguf" --from "$scratch/nowhere" >"$scratch/out" \
    2>"$scratch/err"
rc=$?
oneline "no folder"
grep -q "$scratch/nowhere: No such file or directory" "$scratch/err"
ok $? "no folder: says so"

"$GGUFED" sync "$scratch/l.gguf" --from "$L" --only llama.nothing \
    -o "$scratch/x.gguf" >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "--only an unknown key"
grep -q "llama.nothing: not a key the folder gives a value for" "$scratch/err"
ok $? "--only an unknown key: named"

"$GGUFED" sync "$scratch/l.gguf" >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q "missing --from DIR" "$scratch/err"
ok $? "no --from: a usage error"
"$GGUFED" sync "$scratch/l.gguf" --from "$L" -i -o "$scratch/x.gguf" \
    >"$scratch/out" 2>"$scratch/err"
[ $? -eq 2 ]; ok $? "-i and -o: a usage error"
"$GGUFED" sync "$scratch/l.gguf" --from hf://meta-llama/Llama-3.1-8B-Instruct \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "an hf:// source"

# ------------------------------------------------------- links out of it
# A file of the folder that leads out of it is not read: a
# chat_template.jinja linked to a token file would put the token in the
# report and in the model.
K="$scratch/linked"
cp -r "$L" "$K"
printf 'hf_secret_token_8d1e\n' >"$scratch/token"
rm "$K/chat_template.jinja"
ln -s "$scratch/token" "$K/chat_template.jinja"
"$GGUFED" sync "$scratch/l.gguf" --from "$K" -o "$scratch/x.gguf" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "a link out of the folder"
grep -qF "$K/chat_template.jinja: a link to $scratch/token, outside the folder: not read" \
    "$scratch/err" && ! grep -q hf_secret "$scratch/err" &&
    [ ! -e "$scratch/x.gguf" ]
ok $? "a link out of the folder: named with where it leads, nothing read nor written" ||
    sed 's/^/# /' "$scratch/err"
mkdir "$K/sub"
cp "$L/chat_template.jinja" "$K/sub/t.jinja"
rm "$K/chat_template.jinja"
ln -s sub/t.jinja "$K/chat_template.jinja"
"$GGUFED" sync "$scratch/l.gguf" --from "$K" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q '^~ tokenizer.chat_template: ' "$scratch/out"
ok $? "a link within the folder is read" || sed 's/^/# /' "$scratch/err"
# A Hugging Face cache: snapshots/REV/NAME links to ../../blobs/HASH.
H="$scratch/hub/models--meta-llama--Llama-3.1-8B-Instruct"
mkdir -p "$H/blobs" "$H/snapshots/0e9e39f"
i=0
for f in config.json tokenizer_config.json generation_config.json \
    chat_template.jinja; do
	i=$((i + 1))
	cp "$L/$f" "$H/blobs/b10b$i"
	ln -s "../../blobs/b10b$i" "$H/snapshots/0e9e39f/$f"
done
"$GGUFED" sync "$scratch/l.gguf" --from "$H/snapshots/0e9e39f" \
    >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q '^~ tokenizer.chat_template: ' "$scratch/out" &&
    [ ! -s "$scratch/err" ]
ok $? "a snapshot of a Hugging Face cache: its links into blobs/ are read" ||
    sed 's/^/# /' "$scratch/err"
ln -sf "$scratch/token" "$H/snapshots/0e9e39f/chat_template.jinja"
"$GGUFED" sync "$scratch/l.gguf" --from "$H/snapshots/0e9e39f" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "a snapshot's link out of the cache"

# ---------------------------------------- what the converter would refuse
V="$scratch/values"
# refuse NAME FILE FIELD-TEXT: sync -o from $V is refused (exit 2, one
# line naming the file and the field), nothing written.
refuse() {
	rm -f "$scratch/x.gguf"
	"$GGUFED" sync "$scratch/l.gguf" --from "$V" -o "$scratch/x.gguf" \
	    >"$scratch/out" 2>"$scratch/err"
	rc=$?
	oneline "$1"
	grep -qF "$V/$2: $3" "$scratch/err" && [ ! -e "$scratch/x.gguf" ]
	ok $? "$1: the file and the field named, nothing written" ||
	    sed 's/^/# /' "$scratch/err"
}
cp -r "$L" "$V"
sed 's/"rope_theta": 500000.0/"rope_theta": 1e39/' "$L/config.json" \
    >"$V/config.json"
refuse "rope_theta 1e39" config.json "rope_theta: 1e+39 is out of range for f32"
sed 's/"rope_theta": 500000.0/"rope_theta": NaN/' "$L/config.json" \
    >"$V/config.json"
refuse "rope_theta NaN" config.json "rope_theta: NaN is not a number"
sed 's/"rms_norm_eps": 1e-05/"rms_norm_eps": -0.0/' "$L/config.json" \
    >"$V/config.json"
refuse "rms_norm_eps -0.0" config.json "rms_norm_eps: -0 (a negative zero)"
cp "$L/config.json" "$V/config.json"
printf '{"eos_token": "<|eot_id|>", "chat_template": "{{ bos_token }}A\\u0000B"}\n' \
    >"$V/tokenizer_config.json"
refuse "a template with \\u0000" tokenizer_config.json \
    "chat_template: a NUL character (\\u0000) at byte 16"
printf '{"eos_token": "<|eot_id|>\\u0000x"}\n' >"$V/tokenizer_config.json"
refuse "an eos_token with \\u0000" tokenizer_config.json \
    "eos_token: a NUL character"
cp "$L/tokenizer_config.json" "$V/tokenizer_config.json"
printf '{{ bos_token }}\377\n' >"$V/chat_template.jinja"
refuse "a template not UTF-8" chat_template.jinja "not UTF-8 (byte 15 is 0xff)"
printf '{"eos_token": "<|eot_id|>", "chat_template": "A\377"}\n' \
    >"$V/tokenizer_config.json"
refuse "a template string not UTF-8" tokenizer_config.json \
    "chat_template: not UTF-8"

# ------------------------------------------------ template names
D="$scratch/dupes"
cp -r "$L" "$D"
mkdir "$D/additional_chat_templates"
printf 'A' >"$D/additional_chat_templates/a b.jinja"
printf 'B' >"$D/additional_chat_templates/a_b.jinja"
"$GGUFED" sync "$scratch/l.gguf" --from "$D" -o "$scratch/x.gguf" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "two templates named alike once sanitised"
grep -qF "$D/additional_chat_templates/a b.jinja and additional_chat_templates/a_b.jinja: both are the template a_b (tokenizer.chat_template.a_b): the converter fails on it (duplicated key name)" \
    "$scratch/err" && [ ! -e "$scratch/x.gguf" ]
ok $? "... both files named, nothing written" || sed 's/^/# /' "$scratch/err"
rm "$D/additional_chat_templates/a b.jinja"
printf 'D' >"$D/additional_chat_templates/default.jinja"
"$GGUFED" sync "$scratch/l.gguf" --from "$D" >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "additional_chat_templates/default.jinja"
grep -qF "$D/chat_template.jinja and additional_chat_templates/default.jinja: both are the default template (tokenizer.chat_template)" \
    "$scratch/err"
ok $? "... both files named" || sed 's/^/# /' "$scratch/err"
printf '{"eos_token": "<|eot_id|>", "chat_template": [{"name": "x y", "template": "A"}, {"name": "x-y", "template": "B"}]}\n' \
    >"$D/tokenizer_config.json"
"$GGUFED" sync "$scratch/l.gguf" --from "$D" >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "a list with two names alike once sanitised"

# A template that cannot be read: one line, exit 2, nothing lost to the
# sanitizers (a leak there made the exit status 1).
rm "$D/additional_chat_templates/default.jinja"
cp "$L/tokenizer_config.json" "$D/tokenizer_config.json"
mkdir "$D/additional_chat_templates/dir.jinja"
"$GGUFED" sync "$scratch/l.gguf" --from "$D" >"$scratch/out" 2>"$scratch/err"
rc=$?
oneline "a template that is not a regular file"
grep -qF "$D/additional_chat_templates/dir.jinja: not a regular file" \
    "$scratch/err"
ok $? "... named"

"$GGUFED" sync "$scratch/l.gguf" --from "$L" --only '' -o "$scratch/x.gguf" \
    >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q "^ggufed: --only: no key given: it takes the GGUF keys of the report" \
    "$scratch/err" && [ ! -e "$scratch/x.gguf" ]
ok $? "--only '': a usage error saying what it takes" ||
    sed 's/^/# /' "$scratch/err"

# ------------------------------------------------ warnings of the result
# A template that writes the BOS token while the file's add_bos_token is
# true, the same sync setting it to false: no warning (it would be about
# a state the sync does not leave), and no -e the user never gave.
W="$scratch/bos"
cp -r "$L" "$W"
printf '{"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>", "add_bos_token": false}\n' \
    >"$W/tokenizer_config.json"
"$GGUFED" set "$scratch/l.gguf" tokenizer.ggml.add_bos_token:bool true \
    -o "$scratch/bos.gguf" >/dev/null 2>&1
"$GGUFED" sync "$scratch/bos.gguf" --from "$W" -o "$scratch/x.gguf" \
    >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && [ ! -s "$scratch/err" ] &&
    [ "$(get "$scratch/x.gguf" tokenizer.ggml.add_bos_token)" = '{"type": "bool", "value": false}' ]
ok $? "sync -o: no warning of a state the sync does not leave" ||
    sed 's/^/# /' "$scratch/err"
rm -f "$scratch/x.gguf"
"$GGUFED" sync "$scratch/bos.gguf" --from "$W" --only tokenizer.chat_template \
    -o "$scratch/x.gguf" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q '^ggufed: warning: tokenizer.chat_template: starts with bos_token .* while tokenizer.ggml.add_bos_token is true' \
    "$scratch/err"
ok $? "sync -o: the warning of the result, in the user's words (no -e step)" ||
    sed 's/^/# /' "$scratch/err"

done_testing
