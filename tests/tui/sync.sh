#!/bin/sh
# sync.sh - `:sync DIR` in the browser, in a real terminal (tmux): the
# differences between the demo model and a folder of upstream files are
# listed as `ggufed sync` reports them, each selected, a template's
# rendered difference under it; Enter leaves some
# out, Enter on the last row applies the rest as edits, and the list is
# compared again (those left out stay out); a note or a difference opens
# whole in the pager; w saves exactly those (ggufed get); u undoes each one,
# after which the browser quits without asking. A folder that cannot be
# read is one message, and no view.
. "$TESTS_SRCDIR/lib.sh"
. "$TESTS_SRCDIR/tui/tmux.lib"

command -v tmux >/dev/null 2>&1 || skip_all "no tmux"
DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
tmux_env
TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8
export TERM LANG LC_ALL
tmux_server sync

# The demo model's upstream, as a later release would have it: another
# context length, base frequency and eos, add_bos_token off, linear
# scaling, and a template that writes the system turn itself.
up=$scratch/upstream
mkdir "$up"
cat >"$up/config.json" <<'EOF'
{"architectures": ["LlamaForCausalLM"], "model_type": "llama",
 "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 8,
 "num_key_value_heads": 4, "intermediate_size": 512, "vocab_size": 3072,
 "max_position_embeddings": 4096, "rope_theta": 500000.0,
 "rms_norm_eps": 1e-05, "rope_scaling": {"type": "linear", "factor": 2.0}}
EOF
cat >"$up/tokenizer_config.json" <<'EOF'
{"bos_token": "<s>", "eos_token": {"content": "<|im_end|>"},
 "add_bos_token": false,
 "chat_template": "{% for m in messages %}<|{{ m.role }}|>\n{{ m.content }}<|end|>\n{% endfor %}{% if add_generation_prompt %}<|assistant|>\n{% endif %}"}
EOF
m=$scratch/m.gguf

# start: a fresh copy of the demo model in the browser, :sync opened.
start() {
	cp_w "$DEMO" "$m"
	tm kill-session -t t 2>/dev/null
	tm new-session -d -s t -x 160 -y 30 "cd '$scratch' && '$GGUFED' m.gguf"
	settle "$scratch/s0" "Sections" || return 1
	tm send-keys -t t ":"
	tm send-keys -t t -l "sync $up"
	tm send-keys -t t Enter
	settle "$scratch/s1" "Apply the 7 selected"
}

# pick TEXT: Enter on the row a search for TEXT finds.
pick() {
	tm send-keys -t t /
	tm send-keys -t t -l "$1"
	tm send-keys -t t Enter Enter
}

# shows FILE TEXT DESCRIPTION
shows() {
	grep -qF -- "$2" "$1"
	ok $? "$3" || sed 's/^/# /' "$1"
}

start
ok $? ":sync lists the differences, each selected"
shows "$scratch/s1" "[x] tokenizer.ggml.eos_token_id: 2 \`</s>\` -> 3066 \`<|im_end|>\`: generation does not stop at the end of a turn" \
    "a difference: key, the file's value, upstream's, the effect"
shows "$scratch/s1" "[x] llama.rope.scaling.type: (none) -> linear" \
    "the rope scaling keys are differences"
shows "$scratch/s1" "Sync with $up" "the view is titled with the folder"

shows "$scratch/s1" "+ <|user|>" \
    "the template's difference is rendered under it"

# Keep context_length and eos; leave the five others out.
for k in freq_base scaling.type scaling.factor 'chat_template:' add_bos; do
	pick "$k"
done
settle "$scratch/s2" "Apply the 2 selected"
ok $? "Enter leaves differences out: 2 selected"
shows "$scratch/s2" "[ ] llama.rope.freq_base" "a difference left out is unmarked"
shows "$scratch/s2" "[x] llama.context_length" "a difference kept stays marked"
pick "Apply the"
settle "$scratch/s3" "applied 2 differences"
ok $? "Enter on the last row applies the selected"
shows "$scratch/s3" "Apply the 0 selected" \
    "the list is compared again: the five left out remain, still left out"
shows "$scratch/s3" "[ ] llama.rope.freq_base" \
    "a difference left out is not selected again by the comparison"
[ "$(grep -c '\[ \] ' "$scratch/s3")" -eq 5 ]
ok $? "... nor is any of the five"
tm send-keys -t t w
settle "$scratch/s4" "tensor data unchanged"
ok $? "w saves as after any edit"
[ "$("$GGUFED" get "$m" llama.context_length)" = 4096 ] &&
    [ "$("$GGUFED" get "$m" tokenizer.ggml.eos_token_id)" = 3066 ]
ok $? "the saved file holds the two applied values"
[ "$("$GGUFED" get "$m" llama.rope.freq_base)" = 10000 ] &&
    [ "$("$GGUFED" get "$m" tokenizer.ggml.add_bos_token)" = true ] &&
    ! "$GGUFED" get "$m" llama.rope.scaling.type >/dev/null 2>&1
ok $? "and none of those left out"

# u undoes the applied edits, one each: then q quits without asking.
start
ok $? ":sync again on a fresh copy"
for k in freq_base scaling.type scaling.factor 'chat_template:' add_bos \
    "Apply the"; do
	pick "$k"
done
settle "$scratch/s5" "applied 2 differences"
ok $? "two applied"
tm send-keys -t t u u
settle "$scratch/s6" "Apply the 2 selected"
ok $? "u twice: the two applied are back, selected"
[ "$(grep -c '\[[x ]\] ' "$scratch/s6")" -eq 7 ]
ok $? "... beside the five left out: seven differences"
tm send-keys -t t q q
i=0
while tm has-session -t t 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
tm has-session -t t 2>/dev/null
[ $? -ne 0 ]; ok $? "nothing pending: q quits without asking"
cmp -s "$DEMO" "$m"; ok $? "the file is as it was"

# A note (what was not compared) is cut at the screen's width: Enter
# opens it whole; Right opens a difference whole. Enter is named Enter.
up2=$scratch/upstream2
mkdir "$up2"
cp "$up/config.json" "$up2/"
cp_w "$DEMO" "$m"
tm kill-session -t t 2>/dev/null
tm new-session -d -s t -x 80 -y 24 "cd '$scratch' && '$GGUFED' m.gguf"
settle "$scratch/n0" "Sections"
tm send-keys -t t Enter
settle "$scratch/n1" "nothing here to open"
shows "$scratch/n1" "Enter: nothing here to open" \
    "the Enter key is called Enter in a message"
tm send-keys -t t ":"
tm send-keys -t t -l "sync $up2"
tm send-keys -t t Enter
settle "$scratch/n2" "note: no tokenizer_config.json"
! grep -q "special token text without it" "$scratch/n2"
ok $? "a long note is cut at 80 columns"
tm send-keys -t t G Enter
settle "$scratch/n3" "sync: a note"
tr -d '\n' <"$scratch/n3" | tr -s ' │0-9' ' ' |
    grep -q "the converter reads no c *hat template and no special token text without it"
ok $? "Enter on the note opens it whole" || sed 's/^/# /' "$scratch/n3"
tm send-keys -t t q
settle "$scratch/n4" "Apply the 4 selected"
tm send-keys -t t g Right
settle "$scratch/n5" "sync: a difference"
shows "$scratch/n5" "effect:      the context is capped below" \
    "Right on a difference opens it whole, its effect"
shows "$scratch/n5" "written by: set llama.context_length" \
    "... and the edit that writes it"
tm kill-session -t t

# A folder that cannot be read: one message, no view.
cp_w "$DEMO" "$m"
tm new-session -d -s t -x 160 -y 30 "cd '$scratch' && '$GGUFED' m.gguf"
settle "$scratch/s7" "Sections"
tm send-keys -t t ":"
tm send-keys -t t -l "sync $scratch/nowhere"
tm send-keys -t t Enter
settle "$scratch/s8" "nowhere: No such file or directory"
ok $? "a missing folder is a message"
grep -q "Sync with" "$scratch/s8"; [ $? -ne 0 ]
ok $? "and no view opens"

done_testing
