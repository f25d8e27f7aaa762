#!/bin/sh
# schema_set.sh - edits that know the well-known keys: set takes the type
# of a missing well-known key from keys.tsv; @FILE, @- and @@ values for
# every type; "did you mean" for keys, tensors, commands and types; a
# mistyped :TYPE is an error; rm of a missing key exits 1, --if-exists.
. "$TESTS_SRCDIR/lib.sh"

F="$SHARED_DIR/fixtures/ggml"
[ -r "$F/big-vocab.gguf" ] || skip_all "no shared fixtures"

m="$scratch/m.gguf"
fresh() { cp "$F/${1:-big-vocab.gguf}" "$m" && chmod 644 "$m"; }
# The model without a chat template (the fixture has one).
bare() {
	fresh && "$GGUFED" rm "$m" tokenizer.chat_template -i >/dev/null 2>&1
}
type_of() { "$GGUFED" get --json "$m" "$1" | sed 's/^{"type": "\([^"]*\)".*/\1/'; }

# ------------------------------------------------- types from the schema
bare
printf '{{ bos_token }}{%% for m in messages %%}{{ m.content }}{%% endfor %%}\n' \
    >"$scratch/t.jinja"
"$GGUFED" set "$m" tokenizer.chat_template @"$scratch/t.jinja" -i \
    >/dev/null 2>"$scratch/err"
rc=$?
"$GGUFED" get --raw "$m" tokenizer.chat_template >"$scratch/back" 2>/dev/null
[ $rc -eq 0 ] && cmp -s "$scratch/t.jinja" "$scratch/back" &&
    [ "$(type_of tokenizer.chat_template)" = str ]
ok $? "set of a missing chat template: its type from the schema, the file's bytes exactly"
grep -q "added tokenizer.chat_template as str, the type of the well-known key" \
    "$scratch/err"
ok $? "set says which type it took"

fresh
"$GGUFED" set "$m" llama.expert_count 8 -i >/dev/null 2>&1 &&
    [ "$(type_of llama.expert_count)" = u32 ] &&
    [ "$("$GGUFED" get "$m" llama.expert_count)" = 8 ]
ok $? "an {arch} key of the file's architecture is well-known (u32)"
"$GGUFED" set "$m" qwen2.expert_count 8 -i >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "give its type" "$scratch/err"
ok $? "an {arch} key of another architecture still needs its type"
"$GGUFED" set "$m" nosuch.key 1 -i >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'no key "nosuch.key": to add it, give its type' \
    "$scratch/err"
ok $? "an unknown key still needs KEY:TYPE"

fresh
"$GGUFED" edit "$m" -i -e 'set general.tags ["chat", "tiny"]' \
    -e 'set general.base_model.0.name Llama' >/dev/null 2>&1 &&
    [ "$(type_of general.tags)" = "arr[str]" ] &&
    [ "$("$GGUFED" get "$m" general.tags | tr '\n' ,)" = "chat,tiny," ] &&
    [ "$(type_of general.base_model.0.name)" = str ]
ok $? "arrays take the JSON syntax; {id} keys are well-known"
printf 'en\nfr\n' >"$scratch/langs"
"$GGUFED" set "$m" general.languages @"$scratch/langs" -i >/dev/null 2>&1 &&
    [ "$(type_of general.languages)" = "arr[str]" ] &&
    [ "$("$GGUFED" get "$m" general.languages | tr '\n' ,)" = "en,fr," ]
ok $? "an array from @FILE: one element per line"
"$GGUFED" rm "$m" llama.feed_forward_length -i >/dev/null 2>&1 &&
    "$GGUFED" set "$m" llama.feed_forward_length 2048 -i >/dev/null \
    2>"$scratch/err" && [ "$(type_of llama.feed_forward_length)" = u32 ] &&
    grep -q "as u32" "$scratch/err"
ok $? "several types in the schema (u32|arr[i32]|arr[u32]): the first"
"$GGUFED" rm "$m" llama.attention.head_count -i >/dev/null 2>&1 &&
    "$GGUFED" set "$m" 'llama.attention.head_count:arr[i32]' '[4, 4]' -i \
    >/dev/null 2>&1 &&
    [ "$(type_of llama.attention.head_count)" = "arr[i32]" ]
ok $? "KEY:TYPE still chooses another of them"

# ------------------------------------------------------- @FILE, @-, @@
fresh
printf ' 12\n' >"$scratch/n"
"$GGUFED" set "$m" llama.block_count @"$scratch/n" -i >/dev/null 2>&1 &&
    [ "$("$GGUFED" get "$m" llama.block_count)" = 12 ]
ok $? "a number from @FILE: the blanks around it dropped"
printf '0.5' >"$scratch/f"
"$GGUFED" edit "$m" -i -e "set llama.rope.freq_base @$scratch/f" \
    -e "set tokenizer.ggml.add_bos_token @$scratch/bool" >/dev/null \
    2>"$scratch/err"
[ $? -eq 2 ] && grep -q "cannot read $scratch/bool: No such file" \
    "$scratch/err" && [ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "a missing @FILE: one line naming it"
printf 'false\n' >"$scratch/bool"
"$GGUFED" edit "$m" -i -e "set llama.rope.freq_base @$scratch/f" \
    -e "set tokenizer.ggml.add_bos_token @$scratch/bool" >/dev/null 2>&1 &&
    [ "$("$GGUFED" get "$m" llama.rope.freq_base)" = 0.5 ] &&
    [ "$("$GGUFED" get "$m" tokenizer.ggml.add_bos_token)" = false ]
ok $? "edit -e: floats and bools from @FILE"
printf 'Piped Name\n' | "$GGUFED" set "$m" general.name @- -i >/dev/null 2>&1 &&
    "$GGUFED" get --raw "$m" general.name >"$scratch/back" &&
    printf 'Piped Name\n' | cmp -s - "$scratch/back"
ok $? "@- reads standard input, bytes exactly"
echo 77 | "$GGUFED" edit "$m" -i -e 'set llama.block_count @-' \
    -e 'set llama.context_length @-' >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "standard input was read to its end" "$scratch/err"
ok $? "a second @- is refused, not read as empty"
echo 'set general.name @-' | "$GGUFED" edit "$m" -i -f - >/dev/null \
    2>"$scratch/err"
[ $? -eq 2 ] && grep -q "@- cannot read standard input: the script is read from it" \
    "$scratch/err"
ok $? "@- in a script read from standard input is refused"
printf '%s\n' "set general.url @$scratch/n" "append general.tags @$scratch/n" \
    'set general.tags[0] @@x' >"$scratch/script"
"$GGUFED" edit "$m" -i -e 'set general.tags ["a"]' -f "$scratch/script" \
    >/dev/null 2>&1 && [ "$("$GGUFED" get --raw "$m" general.url)" = " 12" ] && [ "$("$GGUFED" get "$m" general.tags | tr '\n' ,)" = "@x, 12\n," ]
ok $? "scripts: @FILE in set, append (one element) and set KEY[I]; @@ is a literal @"
"$GGUFED" set "$m" general.name @@home -i >/dev/null 2>&1 &&
    [ "$("$GGUFED" get "$m" general.name)" = "@home" ]
ok $? "@@ starts a literal @"

# ------------------------------------------------------- did you mean
fresh
"$GGUFED" get "$m" general.nmae >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'no key "general.nmae" (did you mean "general.name"?)' \
    "$scratch/err"
ok $? "get: did you mean, for a key"
"$GGUFED" get "$m" zzz.qqq >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'no key "zzz.qqq"$' "$scratch/err"
ok $? "get: no suggestion when nothing is near"
"$GGUFED" rm "$m" general.nmae -i >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'no key "general.nmae" (did you mean "general.name"?)' \
    "$scratch/err" && cmp -s "$m" "$F/big-vocab.gguf"
ok $? "rm of a missing key: exit 1, did you mean, nothing written"
touch -d '2001-01-01 00:00:00' "$m"
"$GGUFED" rm --if-exists "$m" general.nmae -i >"$scratch/out" 2>"$scratch/err" &&
    [ ! -s "$scratch/err" ] && cmp -s "$m" "$F/big-vocab.gguf" &&
    [ -z "$(find "$m" -newermt '2001-01-02')" ]
ok $? "rm --if-exists of a missing key: a quiet no-op, the file not even touched"
grep -qx "$m: nothing changed, not written" "$scratch/out"
ok $? "and it says so (not \"0 bytes rewritten\")"
"$GGUFED" rm --if-exists "$m" general.name -i >/dev/null 2>&1 &&
    ! "$GGUFED" get "$m" general.name >/dev/null 2>&1
ok $? "rm --if-exists of a key that is there removes it"
fresh
"$GGUFED" edit "$m" -i -e 'rm --if-exists no.such' -e 'rm general.type' \
    >/dev/null 2>&1 && ! "$GGUFED" get "$m" general.type >/dev/null 2>&1
ok $? "edit -e 'rm --if-exists': a missing key goes on to the next command"
fresh
"$GGUFED" mv "$m" general.nmae general.title -i >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q '(did you mean "general.name"?)' "$scratch/err"
ok $? "mv: did you mean"
"$GGUFED" set "$m" general.nmae x -i >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'no key "general.nmae" (did you mean "general.name"?): to add it, give its type' \
    "$scratch/err"
ok $? "set of an unknown key that looks like one: did you mean"
"$GGUFED" set "$m" general.licence MIT -n >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q '(did you mean "general.license"?)' "$scratch/err"
ok $? "set: the well-known keys are suggested too"
"$GGUFED" edit "$m" -i -e 'append tokenizer.ggml.tokns ["x"]' >/dev/null \
    2>"$scratch/err"
[ $? -eq 1 ] && grep -q '(did you mean "tokenizer.ggml.tokens"?)' "$scratch/err"
ok $? "array commands: did you mean, exit 1"
"$GGUFED" rm-tensor "$m" blk.0.attn_q.wieght -i >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'no tensor "blk.0.attn_q.wieght" (did you mean "blk.0.attn_q.weight"?)' \
    "$scratch/err"
ok $? "rm-tensor: did you mean, for a tensor"
"$GGUFED" rename "$m" token_embd.weihgt x.weight -i >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q '(did you mean "token_embd.weight"?)' "$scratch/err"
ok $? "rename: did you mean, for a tensor"
"$GGUFED" stat "$m" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "unknown command 'stat' (did you mean 'stats'?)" \
    "$scratch/err"
ok $? "an unknown command: did you mean"
"$GGUFED" edit "$m" -i -e 'sett general.name x' >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'unknown command "sett" (did you mean "set"?)' \
    "$scratch/err"
ok $? "edit -e: an unknown command, did you mean"

# ------------------------------------------------------- KEY:TYPE
"$GGUFED" set "$m" general.title:strr x -i >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'unknown type "strr" (did you mean "str"?)' \
    "$scratch/err" && cmp -s "$m" "$F/big-vocab.gguf"
ok $? "a mistyped type is an error, not part of the key"
"$GGUFED" set "$m" general.title:float x -i >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'unknown type "float" (the types: u8 ' "$scratch/err"
ok $? "a type with nothing near: the types are listed"
"$GGUFED" set "$m" '"a:b":u8' 7 -i >/dev/null 2>&1 &&
    [ "$("$GGUFED" get "$m" a:b)" = 7 ]
ok $? "a key holding a colon is quoted"
"$GGUFED" edit "$m" -n -e 'set tokenizer.ggml.tokens[1:3] x' >/dev/null \
    2>"$scratch/err"
[ $? -eq 2 ] && grep -q "set takes one index, not a range" "$scratch/err"
ok $? "the colon of a range is no type"

done_testing
