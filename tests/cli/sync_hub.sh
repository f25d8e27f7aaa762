#!/bin/sh
# sync_hub.sh - `ggufed sync FILE --from hf://OWNER/REPO[@REV]` reads the
# repository's additional_chat_templates/ as the converter reads the
# folder: the Hub's API lists it ({endpoint}/api/models/OWNER/REPO/tree/
# REV/additional_chat_templates), each NAME.jinja is then fetched as any
# file of the repository, and nothing of an hf:// source is ever looked
# for on the local disk (hf://me/repo is not the folder hf:/me/repo of
# the working directory). Against the nginx of remote.lib, which serves
# the API's answer as a file.
. "$TESTS_SRCDIR/lib.sh"

"$GGUFED" info http://127.0.0.1:1/x.gguf 2>"$scratch/nocurl.err"
grep -q "no URL support" "$scratch/nocurl.err" &&
    skip_all "a build without URL support"
. "$TESTS_SRCDIR/cli/remote.lib"
remote_start
XDG_CACHE_HOME=$scratch/cache
HF_ENDPOINT=$ORIGIN
export XDG_CACHE_HOME HF_ENDPOINT

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
cp_w "$demo" "$scratch/m.gguf"
M=$scratch/m.gguf

# The repository, as a folder and on the "Hub" (its files under /files/,
# where /me/repo/resolve/REV/F leads).
up=$scratch/upstream
mkdir -p "$up/additional_chat_templates"
cat >"$up/config.json" <<'EOF2'
{"architectures": ["LlamaForCausalLM"], "model_type": "llama",
 "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 8,
 "num_key_value_heads": 4, "intermediate_size": 512, "vocab_size": 3072,
 "max_position_embeddings": 4096, "rope_theta": 500000.0,
 "rms_norm_eps": 1e-05}
EOF2
printf '{"add_bos_token": false, "eos_token": "<|im_end|>"}\n' \
    >"$up/tokenizer_config.json"
printf '{%% for m in messages %%}{{ m.content }}{%% endfor %%}' \
    >"$up/chat_template.jinja"
printf '{%% for m in messages %%}[{{ m.role }}] {{ m.content }}{%% endfor %%}' \
    >"$up/additional_chat_templates/tool_use.jinja"
cp -r "$up/." "$www/files/"
for rev in main v2; do
	mkdir -p "$www/api/models/me/repo/tree/$rev"
	cat >"$www/api/models/me/repo/tree/$rev/additional_chat_templates" <<'EOF2'
[{"type": "file", "oid": "5d2c", "size": 52,
  "path": "additional_chat_templates/tool_use.jinja"},
 {"type": "file", "oid": "77a0", "size": 9,
  "path": "additional_chat_templates/README.md"},
 {"type": "directory", "oid": "0e1f", "size": 0,
  "path": "additional_chat_templates/old.jinja"}]
EOF2
done
# What the working directory holds at hf:/me/repo: never read, never
# asked for.
cwd=$scratch/cwd
mkdir -p "$cwd/hf:/me/repo/additional_chat_templates"
printf 'LOCAL' >"$cwd/hf:/me/repo/additional_chat_templates/local.jinja"

norm() {	# norm FILE: the source's name made one
	sed -e "s|hf://me/repo@v2|SRC|g" -e "s|hf://me/repo|SRC|g" \
	    -e "s|$up|SRC|g" "$1"
}

"$GGUFED" sync "$M" --from "$up" >"$scratch/dir.out" 2>&1
grep -q '^~ tokenizer.chat_template.tool_use: ' "$scratch/dir.out"
ok $? "from the folder: additional_chat_templates/tool_use.jinja compared" ||
    sed 's/^/# /' "$scratch/dir.out"

log_mark
(cd "$cwd" && "$GGUFED" sync "$M" --from hf://me/repo) >"$scratch/hf.out" \
    2>&1
norm "$scratch/dir.out" >"$scratch/dir.n"
norm "$scratch/hf.out" >"$scratch/hf.n"
cmp -s "$scratch/dir.n" "$scratch/hf.n"
ok $? "from hf://OWNER/REPO: the same report, the named template in it" ||
    diff "$scratch/dir.n" "$scratch/hf.n" | sed 's/^/# /'
sleep 0.2
grep -q '"GET /api/models/me/repo/tree/main/additional_chat_templates HTTP' \
    "$(log_file origin)" &&
    grep -q '"GET /me/repo/resolve/main/additional_chat_templates/tool_use.jinja HTTP' \
    "$(log_file origin)"
ok $? "the folder listed by the Hub's API, its template fetched" ||
    sed 's/^/# /' "$(log_file origin)"
! grep -q 'local.jinja\|README.md\|old.jinja' "$(log_file origin)" "$scratch/hf.out"
ok $? "nothing asked for but the listing's NAME.jinja files, nothing of the local disk"

log_mark
(cd "$cwd" && "$GGUFED" sync "$M" --from hf://me/repo@v2 \
    -o "$scratch/hf.gguf") >/dev/null 2>"$scratch/err"
ok $? "hf://OWNER/REPO@REV -o: applies" || sed 's/^/# /' "$scratch/err"
"$GGUFED" sync "$M" --from "$up" -o "$scratch/dir.gguf" >/dev/null 2>&1
cmp -s "$scratch/dir.gguf" "$scratch/hf.gguf" &&
    [ "$("$GGUFED" get "$scratch/hf.gguf" tokenizer.chat_templates)" = tool_use ]
ok $? "... and writes what the folder writes, the named template in it"
sleep 0.2
grep -q '"GET /api/models/me/repo/tree/v2/additional_chat_templates HTTP' \
    "$(log_file origin)"
ok $? "... the revision's listing asked for"

# No listing (a repository without the folder): no named template.
rm -r "$www/api"
"$GGUFED" sync "$M" --from hf://me/repo >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && ! grep -q 'tool_use' "$scratch/out" && [ ! -s "$scratch/err" ]
ok $? "a repository the API lists no such folder of: no named template" ||
    sed 's/^/# /' "$scratch/err"
# A listing that is not JSON: one line, exit 2.
mkdir -p "$www/api/models/me/repo/tree/main"
printf '<html>' >"$www/api/models/me/repo/tree/main/additional_chat_templates"
"$GGUFED" sync "$M" --from hf://me/repo >"$scratch/out" 2>"$scratch/err"
[ $? -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q "additional_chat_templates: the Hub's listing of additional_chat_templates/ is not a JSON list" \
    "$scratch/err"
ok $? "a listing that is not JSON: one line, exit 2" ||
    sed 's/^/# /' "$scratch/err"
done_testing
