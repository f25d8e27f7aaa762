#!/bin/sh
# template.sh - `ggufed template`: the model's chat template rendered.
#
# The demo model's ChatML template with the built-in sample conversation,
# byte for byte (jinja2 gave the same bytes) and with no newline added;
# --add-generation-prompt, --messages (inline, @FILE, @-), --tools, --var,
# --name, --template-file; the context transformers gives (tools and
# documents none, add_generation_prompt false, the special tokens as text
# from the vocabulary); strftime_now at SOURCE_DATE_EPOCH; template errors
# and raise_exception as FILE:LINE:COL: message with exit 1 and nothing on
# standard output; usage errors with exit 2. Templates made to hurt:
# nested too deeply, too large, lines of many tags, values that grow
# without end, each one error line and exit 1. The lint of templates, in
# validate and when one is set: each error and warning, and none for a
# sound template.
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
m="$scratch/model.gguf"
cp_w "$demo" "$m" || { echo "Bail out! no demo model"; exit 1; }

# want TEXT: the expected output, printf's escapes in TEXT (no newline added).
want() {
	printf "$1" >"$scratch/want"
}

# same DESCRIPTION: the output so far is the expected one, byte for byte.
same() {
	cmp -s "$scratch/out" "$scratch/want"
	ok $? "$1" || { od -c "$scratch/out" | head -20 | sed 's/^/# got  /'; }
}

# tf TEXT: a template file holding TEXT (printf's escapes).
tf() {
	printf "$1" >"$scratch/t.jinja"
}

sys='<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n'
conv="$sys"'<|im_start|>user\nHello! Who are you?<|im_end|>\n<|im_start|>assistant\nI am an assistant; ask me anything.<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n'

# ------------------------------------------------------------ the demo model
"$GGUFED" template "$m" >"$scratch/out" 2>"$scratch/err"
ok $? "template FILE exits 0"
want "$conv"
same "the sample conversation (system, user, assistant, user) as jinja2 renders it, no newline added"
[ ! -s "$scratch/err" ]; ok $? "nothing on standard error"

"$GGUFED" template "$m" --add-generation-prompt >"$scratch/out"
want "$conv"'<|im_start|>assistant\n'
same "--add-generation-prompt ends with the assistant's prompt"

"$GGUFED" template "$m" --add-generation-prompt \
    --messages '[{"role": "user", "content": "  Hi  "}]' >"$scratch/out"
want '<|im_start|>system\nYou are a small demo model with random weights.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n'
same "--messages: the template adds its system turn and trims the content"

printf '[{"role": "user", "content": "from a file"}]' >"$scratch/msgs.json"
"$GGUFED" template "$m" --messages "@$scratch/msgs.json" >"$scratch/out"
grep -q 'from a file' "$scratch/out"; ok $? "--messages @FILE"
printf '[{"role": "user", "content": "from stdin"}]' |
    "$GGUFED" template "$m" --messages @- >"$scratch/out"
grep -q 'from stdin' "$scratch/out"; ok $? "--messages @-"

# ------------------------------------------------------------ the context
tf '{{ tools is none }} {{ documents is none }} {{ add_generation_prompt }}'
"$GGUFED" template "$m" --template-file "$scratch/t.jinja" >"$scratch/out"
want 'True True False'
same "absent flags: tools and documents none, add_generation_prompt false"

tf '{%% for m in messages %%}{{ m.role }},{%% endfor %%}'
"$GGUFED" template "$m" --template-file "$scratch/t.jinja" >"$scratch/out"
want 'system,user,assistant,user,'
same "the built-in sample is system, user, assistant, user"

tf '{{ bos_token }}|{{ eos_token }}|{{ unk_token }}|{{ pad_token }}|{{ sep_token is defined }}'
"$GGUFED" template "$m" --template-file "$scratch/t.jinja" >"$scratch/out"
want '<s>|</s>|<unk>|<unk>|False'
same "special tokens as text from the vocabulary; one the model lacks is undefined"

tf '{{ tools | tojson }}'
"$GGUFED" template "$m" --template-file "$scratch/t.jinja" \
    --tools '[{"type": "function", "function": {"name": "f", "x": "é"}}]' \
    >"$scratch/out"
want '[{"type": "function", "function": {"name": "f", "x": "é"}}]'
same "--tools: the array as given, key order kept, no ASCII escapes"

tf '{{ x }} {{ y.a }} {{ bos_token }}'
"$GGUFED" template "$m" --template-file "$scratch/t.jinja" --var 'x=[1, 2.5]' \
    --var 'y={"a": true}' --var 'bos_token="<B>"' >"$scratch/out"
want '[1, 2.5] True <B>'
same "--var KEY=JSON adds values and replaces tokens"

tf '{{ strftime_now("%%Y-%%m-%%d %%H:%%M") }}'
SOURCE_DATE_EPOCH=86460 TZ=UTC "$GGUFED" template "$m" \
    --template-file "$scratch/t.jinja" >"$scratch/out"
want '1970-01-02 00:01'
same "strftime_now formats SOURCE_DATE_EPOCH"

printf '{{ bos_token }}from stdin' |
    "$GGUFED" template "$m" --template-file - >"$scratch/out"
want '<s>from stdin'
same "--template-file - reads standard input"

# --------------------------------------------------------- named templates
"$GGUFED" set "$m" tokenizer.chat_template.tool_use:str \
    '{{ "tools: " ~ (tools | length) }}' -i -q
ok $? "a named template added"
"$GGUFED" template "$m" --name tool_use --tools '[{}, {}]' >"$scratch/out"
want 'tools: 2'
same "--name NAME renders tokenizer.chat_template.NAME"
"$GGUFED" template "$m" --name rag >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "--name of a template the model lacks: exit 1"
grep -q '^ggufed: .*: no key "tokenizer.chat_template.rag"' "$scratch/err" &&
    [ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "... one line naming the key" || cat "$scratch/err"

"$GGUFED" rm "$m" tokenizer.chat_template -o "$scratch/none.gguf" -q
"$GGUFED" template "$scratch/none.gguf" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "a model without a chat template: exit 1"
grep -q 'no key "tokenizer.chat_template"' "$scratch/err"
ok $? "... saying so" || cat "$scratch/err"

# ----------------------------------------------------------- template errors
tf 'line one\n{{ messages[0].role }}\n  {%% if %%}'
"$GGUFED" template "$m" --template-file "$scratch/t.jinja" \
    >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "a template that does not parse: exit 1"
grep -q "^$scratch/t.jinja:3:[0-9]*: ." "$scratch/err" &&
    [ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "... FILE:LINE:COL: message, one line" || cat "$scratch/err"
[ ! -s "$scratch/out" ]; ok $? "... nothing on standard output"

tf '{%% if messages | length > 2 %%}\n{{ raise_exception("too many: " ~ messages | length) }}\n{%% endif %%}'
"$GGUFED" template "$m" --template-file "$scratch/t.jinja" \
    >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "raise_exception: exit 1"
grep -q "^$scratch/t.jinja:2:[0-9]*: .*too many: 4\$" "$scratch/err"
ok $? "... FILE:LINE:COL: with its message" || cat "$scratch/err"
[ ! -s "$scratch/out" ]; ok $? "... nothing on standard output"

"$GGUFED" set "$m" tokenizer.chat_template:str '{{ raise_exception("no") }}' \
    -o "$scratch/bad.gguf" -q --force 2>/dev/null
"$GGUFED" template "$scratch/bad.gguf" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "the model's own template raising: exit 1"
grep -q "^$scratch/bad.gguf:1:[0-9]*: .*no\$" "$scratch/err"
ok $? "... the model's file named" || cat "$scratch/err"

"$GGUFED" template "$m" --template-file "$scratch/nowhere.jinja" \
    >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "an unreadable template file: exit 1"
grep -q "^ggufed: .*nowhere.jinja" "$scratch/err"; ok $? "... named"

# -------------------------------------------------------- hostile templates
# chain FILE HEAD MID N TAIL: HEAD, MID N times, TAIL, on one line.
chain() {
	awk -v h="$2" -v m="$3" -v n="$4" -v t="$5" 'BEGIN {
		printf "%s", h
		for (i = 0; i < n; i++)
			printf "%s", m
		printf "%s", t
	}' >"$1"
}
# refused FILE TEXT DESCRIPTION: template exits 1 with one line,
# FILE:LINE:COL: TEXT (or FILE: TEXT), and nothing on standard output.
refused() {
	"$GGUFED" template "$m" --template-file "$1" >"$scratch/out" \
	    2>"$scratch/err"
	[ $? -eq 1 ] && [ ! -s "$scratch/out" ] &&
	    grep -q "^$1:\([0-9]*:[0-9]*:\)* $2\$" "$scratch/err" &&
	    [ "$(wc -l <"$scratch/err")" -eq 1 ]
	ok $? "$3" || head -c 300 "$scratch/err"
}
chain "$scratch/plus.jinja" '{{ 1' '+1' 50000 ' }}'
refused "$scratch/plus.jinja" 'template nested too deeply' \
    "{{ 1+1+...+1 }}, 50000 terms: nested too deeply, exit 1"
chain "$scratch/attr.jinja" '{{ x' '.a' 100000 ' }}'
refused "$scratch/attr.jinja" 'template nested too deeply' \
    "100000 attributes in a row: the same"
chain "$scratch/filt.jinja" '{{ 1' '|string' 100000 ' }}'
refused "$scratch/filt.jinja" 'template nested too deeply' \
    "100000 filters in a row: the same"
chain "$scratch/elif.jinja" '{% if a %}' '{% elif a %}' 80000 '{% endif %}'
refused "$scratch/elif.jinja" 'template nested too deeply' \
    "80000 elifs: the same"

"$GGUFED" set "$demo" tokenizer.chat_template "@$scratch/plus.jinja" \
    -o "$scratch/deep.gguf" -q 2>"$scratch/set.err"
[ $? -eq 0 ] && grep -q "^ggufed: warning: tokenizer.chat_template: does not parse: 1:[0-9]*: template nested too deeply\$" "$scratch/set.err"
ok $? "set @FILE of that template: set, with the lint's warning" ||
    head -c 300 "$scratch/set.err"
"$GGUFED" validate "$scratch/deep.gguf" >"$scratch/val" 2>&1
[ $? -eq 1 ] && grep -q "error: tokenizer.chat_template: does not parse: 1:[0-9]*: template nested too deeply\$" "$scratch/val"
ok $? "validate: an error, exit 1" || head -c 300 "$scratch/val"
"$GGUFED" template "$scratch/deep.gguf" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^$scratch/deep.gguf:1:[0-9]*: template nested too deeply\$" "$scratch/err"
ok $? "template of the model: exit 1, one line" || head -c 300 "$scratch/err"

# Columns are counted in one pass over a line: 149000 tags on one line
# (just under the size limit) take well under a second, where counting
# from the start of the line for each would take minutes.
chain "$scratch/long.jinja" '' '{{ 1 }}' 149000 ''
timeout 60 "$GGUFED" template "$m" --template-file "$scratch/long.jinja" \
    >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && [ "$(wc -c <"$scratch/out")" -eq 149000 ]
ok $? "149000 tags on one line render" || head -c 300 "$scratch/err"
chain "$scratch/big.jinja" '' '{{ 1 }}' 150000 ''
refused "$scratch/big.jinja" 'template too large (1050000 bytes, the limit is 1 MiB)' \
    "a template over 1 MiB: refused before it is read, exit 1"

printf '%s' '{% set ns = namespace(l=[1]) %}{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l | length }}' >"$scratch/list2.jinja"
refused "$scratch/list2.jinja" 'template values too large (the limit is 256 MiB)' \
    "a list doubled 40 times: stopped at the budget, exit 1"
printf '%s' '{% set ns = namespace(s="x") %}{% for i in range(30) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}' >"$scratch/str2.jinja"
refused "$scratch/str2.jinja" 'template values too large (the limit is 256 MiB)' \
    "a string doubled 30 times: the same"
printf '%s' '{% set ns = namespace(x=[]) %}{% for i in range(100000) %}{% set ns.x = [ns.x] %}{% endfor %}{{ 1 }}' >"$scratch/nest.jinja"
refused "$scratch/nest.jinja" 'value nested too deeply (the limit is 512 levels)' \
    "a list nested 100000 deep: stopped, exit 1"

# --------------------------------------------------------------------- lint
# lint NAME TEMPLATE: the demo model with TEMPLATE as its chat template,
# in $scratch/NAME.gguf; what setting it said, in $scratch/set.err.
lint() {
	rm -f "$scratch/$1.gguf"
	"$GGUFED" set "$demo" tokenizer.chat_template "$2" \
	    -o "$scratch/$1.gguf" -q 2>"$scratch/set.err"
	ok $? "lint: the template for '$1' is set (lint findings do not refuse it)"
	"$GGUFED" validate "$scratch/$1.gguf" >"$scratch/val" 2>&1
}
# finds LEVEL TEXT DESCRIPTION: validate reports it, and set warned of it.
finds() {
	grep -q ": $1: tokenizer.chat_template: .*$2" "$scratch/val" &&
	    grep -q "^ggufed: warning: tokenizer.chat_template: .*$2" \
	    "$scratch/set.err"
	ok $? "lint: $3" || cat "$scratch/val" "$scratch/set.err"
}
good='{% for m in messages %}<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}'

lint good "$good"
! grep -q 'chat_template' "$scratch/val" && [ ! -s "$scratch/set.err" ]
ok $? "lint: a sound template: nothing found, nothing said" ||
    cat "$scratch/val" "$scratch/set.err"
"$GGUFED" validate "$demo" | grep -q 'no problems found'
ok $? "lint: the demo model's own template is sound"

lint noparse '{% for m in messages %}{{ m.content }'
finds error 'does not parse: 1:[0-9]*: ' "a template that does not parse is an error"
"$GGUFED" validate "$scratch/noparse.gguf" >/dev/null
[ $? -eq 1 ]; ok $? "lint: ... and validate exits 1"

lint raises '{{ raise_exception("no chats here") }}'
finds error 'fails on a plain chat (user, assistant, user): 1:[0-9]*: .*no chats here' \
    "a template that raises for the sample chat is an error, with its message"

lint bos "{{ bos_token }}$good"
finds warning 'starts with bos_token "<s>" while tokenizer.ggml.add_bos_token is true: the prompt gets two BOS tokens' \
    "double BOS (add_bos_token is true)"
"$GGUFED" set "$scratch/bos.gguf" tokenizer.ggml.add_bos_token false -i -q
"$GGUFED" validate "$scratch/bos.gguf" | grep -q 'two BOS'
[ $? -eq 1 ]; ok $? "lint: ... not when add_bos_token is false"

lint novocab '{% for m in messages %}<|user|>{{ m.content }}<|im_end|><end_of_turn>{% endfor %}{% if add_generation_prompt %}<|im_start|>{% endif %}{{ "<think>" }}'
finds warning 'emits "<|user|>", "<end_of_turn>", tokens not in the vocabulary' \
    "special tokens that are not in the vocabulary, all in one finding"

# Tokens of 64 bytes or more are looked up too: one of them put in the
# vocabulary, another of the same length not.
long_in="<|$(printf 'x%.0s' $(seq 70))|>"
long_out="<|$(printf 'y%.0s' $(seq 70))|>"
"$GGUFED" set "$demo" "tokenizer.ggml.tokens[3]" "$long_in" \
    -o "$scratch/longtok.gguf" -q 2>/dev/null
ok $? "lint: a token of 74 bytes put in the vocabulary"
"$GGUFED" set "$scratch/longtok.gguf" tokenizer.chat_template \
    "{% for m in messages %}$long_in{{ m.content }}$long_out<|im_end|>{% endfor %}" \
    -i -q 2>"$scratch/set.err"
grep -q "emits \"$long_out\", a token not in the vocabulary" \
    "$scratch/set.err" && ! grep -q "$long_in" "$scratch/set.err"
ok $? "lint: long special tokens: the one in the vocabulary found, the other named" ||
    cat "$scratch/set.err"

lint noeog '{% for m in messages %}<|im_start|>{{ m.role }}
{{ m.content }}
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}'
finds warning 'no end-of-generation token after an assistant turn ("</s>", "<|im_end|>"' \
    "an assistant turn without eos nor end-of-turn token"

lint nogen '{% for m in messages %}<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endfor %}'
finds warning 'add_generation_prompt changes nothing' \
    "add_generation_prompt that changes nothing"
# Phi-3's template: every user turn ends with the assistant's header, so
# the model is prompted whatever add_generation_prompt says.
lint phi3 "{% for message in messages %}{% if message['role'] == 'system' %}{{'<|system|>' + '
' + message['content'] + '<|end|>' + '
'}}{% elif message['role'] == 'user' %}{{'<|user|>' + '
' + message['content'] + '<|end|>' + '
' + '<|assistant|>' + '
'}}{% elif message['role'] == 'assistant' %}{{message['content'] + '<|end|>' + '
'}}{% endif %}{% endfor %}"
! grep -q 'add_generation_prompt' "$scratch/val" "$scratch/set.err"
ok $? "lint: phi-3's template, prompted after every user turn: add_generation_prompt not said to change nothing" ||
    cat "$scratch/val" "$scratch/set.err"
lint always '{% for m in messages %}<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endfor %}<|im_start|>assistant
'
! grep -q 'add_generation_prompt' "$scratch/val" "$scratch/set.err"
ok $? "lint: a template that always ends on the assistant's header is prompted" ||
    cat "$scratch/val" "$scratch/set.err"

lint nosys '{% for m in messages if m.role != "system" %}<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}'
finds warning 'ignores the system message' "a system message ignored"

lint refuses "{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}$good"
finds warning 'refuses a system message: 1:[0-9]*: .*System role not supported' \
    "a system message refused (raise_exception), with its message"

"$GGUFED" set "$demo" tokenizer.chat_template.rag:str '{% if %}' \
    -o "$scratch/named.gguf" -q 2>"$scratch/set.err"
grep -q '^ggufed: warning: tokenizer.chat_template.rag: does not parse' \
    "$scratch/set.err"
ok $? "lint: a named template is linted when set" || cat "$scratch/set.err"
"$GGUFED" validate "$scratch/named.gguf" |
    grep -q 'error: tokenizer.chat_template.rag: does not parse'
ok $? "lint: ... and by validate"

# ------------------------------------------------------------- usage errors
usage() {	# usage DESCRIPTION ARGS...: exit 2 and a message
	d=$1
	shift
	"$GGUFED" template "$@" >"$scratch/out" 2>"$scratch/err"
	[ $? -eq 2 ] && grep -q '^ggufed: ' "$scratch/err" &&
	    grep -q '^usage: ggufed template ' "$scratch/err"
	ok $? "usage error: $d" || cat "$scratch/err"
}
usage "no FILE"
usage "--messages not JSON" "$m" --messages '[{"role": }]'
usage "--messages not an array" "$m" --messages '{"role": "user"}'
usage "--tools not an array" "$m" --tools '"f"'
usage "--var without =" "$m" --var x
usage "--var with an empty key" "$m" --var '=1'
usage "--var not JSON" "$m" --var 'x=abc'
usage "--name without a value" "$m" --name
usage "--name and --template-file together" "$m" --name a \
    --template-file "$scratch/t.jinja"
usage "an unknown option" "$m" --bogus
usage "two files" "$m" "$m"
"$GGUFED" template "$m" --messages '[1' 2>"$scratch/err" >/dev/null
grep -q 'line 1, column' "$scratch/err"
ok $? "a JSON error says where" || cat "$scratch/err"

# No chat template and no name asked for: the message says so.
"$GGUFED" rm "$m" tokenizer.chat_template -o "$scratch/notemplate.gguf" \
    2>/dev/null
"$GGUFED" template "$scratch/notemplate.gguf" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ]; ok $? "no chat template: exit 1"
grep -q ': the model has no chat template (--template-file PATH tries one)$' \
    "$scratch/err"
ok $? "no chat template: no word of a name that was not given"

done_testing
