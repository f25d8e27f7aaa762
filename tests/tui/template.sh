#!/bin/sh
# template.sh - chat templates in the browser, on a real terminal (a
# private tmux server): the template pager draws the Jinja syntax in
# colours of its own; r renders the template with a sample conversation,
# after what the lint finds; a toggles the generation prompt and s goes
# through the samples (with a system prompt, plain chat, with tool calls);
# a failing template shows its error, one nested too deeply too; r in
# another pager says it renders templates only; a template edited in
# $VISUAL is rendered and checked before Enter sets it.
. "$TESTS_SRCDIR/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"

. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_server template
tmux_env

# start FILE [ENV...]: ggufed FILE in a fresh 100x30 session.
start() {
	f=$1
	shift
	tm kill-session -t t 2>/dev/null
	tm new-session -d -s t -x 100 -y 30 "cd '$scratch' && env \
	    TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC $* \
	    '$GGUFED' '$f'; sleep 86400" || return 1
}

# has FILE TEXT DESCRIPTION / hasnt ...: the capture holds TEXT (or not).
has() {
	grep -qF -- "$2" "$1"
	ok $? "$3" || sed 's/^/# /' "$1"
}
hasnt() {
	! grep -qF -- "$2" "$1"
	ok $? "$3" || sed 's/^/# /' "$1"
}

cp_w "$demo" "$scratch/m.gguf"

# ------------------------------------------------------ the template pager
start m.gguf
settle "$scratch/summary" "Sections" || true
tm send-keys -t t 2 / c h a t _ t e m p l a t e Enter
settle "$scratch/meta" "tokenizer.chat_template" || true
tm send-keys -t t Enter
settle "$scratch/pager" "for message in messages"
ok $? "Enter on the chat template opens its pager"
has "$scratch/pager" "r render" "the pager's hints name r"
SETTLE_FLAGS=-e settle "$scratch/pager.e" "for message in messages" || true
# The line "{%- for message in messages %}": delimiters, keyword and code
# in different colours; a comment line and a literal in others again.
# (The line is found in the plain capture: escapes split its words.)
k=$(grep -nF 'for message in messages' "$scratch/pager" | cut -d: -f1)
line=$(sed -n "${k}p" "$scratch/pager.e")
n=$(printf '%s' "$line" | grep -o "$(printf '\033')\[[0-9;]*m" | sort -u | wc -l)
[ "$n" -ge 3 ]
ok $? "the Jinja syntax is in colours: $n different ones on a {% for %} line"
c1=$(grep -F 'ChatML-style' "$scratch/pager.e" | grep -o "$(printf '\033')\[[0-9;]*m" | sort -u | tr -d '\n')
c2=$(grep -F 'You are a small demo model' "$scratch/pager.e" | grep -o "$(printf '\033')\[[0-9;]*m" | sort -u | tr -d '\n')
[ -n "$c1" ] && [ "$c1" != "$c2" ]
ok $? "a comment is drawn unlike a line with a string literal"

# ---------------------------------------------------------- the rendering
tm send-keys -t t r
settle "$scratch/r1" "sample conversation"
ok $? "r renders the template"
has "$scratch/r1" "sample conversation: with a system prompt; generation prompt on" \
    "the first sample has a system prompt; the generation prompt is on"
has "$scratch/r1" "You are a helpful assistant.<|im_end|>" \
    "the sample's system message is rendered"
[ "$(grep -c '<|im_start|>assistant$' "$scratch/r1")" -eq 2 ]
ok $? "the assistant's turn and the generation prompt are rendered" ||
    sed 's/^/# /' "$scratch/r1"
has "$scratch/r1" "s sample" "the rendering's hints name s"
hasnt "$scratch/r1" "warning:" "the demo's template: the lint finds nothing"

tm send-keys -t t a
settle "$scratch/r2" "generation prompt off"
ok $? "a turns the generation prompt off"
[ "$(grep -c '<|im_start|>assistant$' "$scratch/r2")" -eq 1 ]
ok $? "... and the rendering loses it" || sed 's/^/# /' "$scratch/r2"

tm send-keys -t t s
settle "$scratch/r3" "plain chat"
ok $? "s: the next sample, a plain chat"
has "$scratch/r3" "You are a small demo model with random weights." \
    "the template adds its own system turn to a plain chat"
tm send-keys -t t s
settle "$scratch/r4" "with tool calls"
ok $? "s: the next sample has tool calls"
has "$scratch/r4" '{"temperature": 22, "condition": "sunny"}<|im_end|>' \
    "the tool's result is rendered"
tm send-keys -t t s
settle "$scratch/r5" "with a system prompt"
ok $? "s: back to the first sample"
tm send-keys -t t q
settle "$scratch/back" "for message in messages"
ok $? "q goes back to the template"

# r where the string is not a template.
tm send-keys -t t q
settle "$scratch/meta2" "key-value pairs" || true
tm send-keys -t t g / g e n e r a l . n a m e Enter Enter
settle "$scratch/name" "Demo Llama" || true
tm send-keys -t t r
settle "$scratch/notmpl" "renders chat templates"
ok $? "r in another string's pager says it renders chat templates only"
tm kill-session -t t

# ------------------------------------------------------ a failing template
"$GGUFED" set "$demo" tokenizer.chat_template \
    "{{ bos_token }}{% if messages | length > 1 %}{{ raise_exception('one message only') }}{% endif %}" \
    -o "$scratch/bad.gguf" -q 2>/dev/null
start bad.gguf
settle "$scratch/s2" "Sections" || true
tm send-keys -t t 2 / c h a t _ t e m p l a t e Enter Enter
settle "$scratch/p2" "one message only" || true
tm send-keys -t t r
settle "$scratch/bad" "sample conversation"
has "$scratch/bad" "error: 1:" "a template that raises: its error, with its place"
has "$scratch/bad" "raise_exception: one message only" "... and its message"
has "$scratch/bad" "error: fails on a plain chat" "the lint's error comes first"
tm kill-session -t t

# ---------------------------------------------- a template nested too deeply
# "{{ 1+1+...+1 }}" with 50000 terms: r shows the error and the browser
# lives on (before, the parser's recursion overflowed the stack).
awk 'BEGIN { printf "{{ 1"; for (i = 1; i < 50000; i++) printf "+1";
    printf " }}" }' >"$scratch/deep.jinja"
"$GGUFED" set "$demo" tokenizer.chat_template "@$scratch/deep.jinja" \
    -o "$scratch/deep.gguf" -q 2>/dev/null
start deep.gguf
settle "$scratch/s5" "Sections" || true
tm send-keys -t t 2 / c h a t _ t e m p l a t e Enter Enter
settle "$scratch/p5" "1+1+1" || true
tm send-keys -t t r
settle "$scratch/deep" "template nested too deeply"
ok $? "r on a template nested too deeply: its error" ||
    sed 's/^/# /' "$scratch/deep"
tm send-keys -t t q
settle "$scratch/deep2" "tokenizer.chat_template (100,005 bytes)"
ok $? "... and q goes back to the template's pager" ||
    sed 's/^/# /' "$scratch/deep2"
tm kill-session -t t

# ------------------------------------------------ a template from $VISUAL
cat >"$scratch/editor.sh" <<'EOF'
#!/bin/sh
printf '{%% for m in messages %%}<|user|>{{ m.content }}<|im_end|>\n{%% endfor %%}{%% if add_generation_prompt %%}<|im_start|>assistant\n{%% endif %%}' >"$1"
EOF
chmod +x "$scratch/editor.sh"
cp_w "$demo" "$scratch/e.gguf"
start e.gguf "VISUAL='$scratch/editor.sh'"
settle "$scratch/s3" "Sections" || true
tm send-keys -t t 2 / c h a t _ t e m p l a t e Enter E
settle "$scratch/pending" "not set yet"
ok $? "E: the edited template is rendered before it is set"
has "$scratch/pending" "Enter sets it, q drops it" "... saying how to set or drop it"
has "$scratch/pending" 'warning: emits "<|user|>", a token not in the vocabulary' \
    "... with what the lint finds"
has "$scratch/pending" "<|user|>What is 2+2?<|im_end|>" "... and its rendering"
tm send-keys -t t Enter
settle "$scratch/set" "set from the editor"
ok $? "Enter sets it"
tm send-keys -t t w
settle "$scratch/saved" "saved" || true
"$GGUFED" get --raw "$scratch/e.gguf" tokenizer.chat_template >"$scratch/got"
printf '{%% for m in messages %%}<|user|>{{ m.content }}<|im_end|>\n{%% endfor %%}{%% if add_generation_prompt %%}<|im_start|>assistant\n{%% endif %%}' >"$scratch/want"
cmp -s "$scratch/got" "$scratch/want"
ok $? "the saved file holds the template as edited"
tm kill-session -t t

# ------------------------------------------- a template set on the : line
# The lint's findings are warnings in the status line; the edit is made.
cp_w "$demo" "$scratch/c.gguf"
start c.gguf
settle "$scratch/s4" "Sections" || true
tm send-keys -t t :
tm send-keys -t t -l 'set tokenizer.chat_template "{% for m in messages %}<|user|>{{ m.content }}<|im_end|>{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant{% endif %}"'
tm send-keys -t t Enter
settle "$scratch/colon" "not in the vocabulary"
ok $? ":set of a chat template: the status line says what the lint finds"
has "$scratch/colon" 'tokenizer.chat_template: emits "<|user|>"' \
    "... naming the key and the token"
tm send-keys -t t w
settle "$scratch/saved2" "saved" || true
"$GGUFED" get --raw "$scratch/c.gguf" tokenizer.chat_template >"$scratch/got2"
printf '%s' '{% for m in messages %}<|user|>{{ m.content }}<|im_end|>{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant{% endif %}' >"$scratch/want2"
cmp -s "$scratch/got2" "$scratch/want2"
ok $? "... and the template is set all the same"
tm kill-session -t t

done_testing
