#!/bin/sh
# edit.sh - ggufed edit and its shorthands: refusals, dry runs, the save
# paths, crash recovery and failures that must leave the model intact.
. "$TESTS_SRCDIR/lib.sh"

F="$SHARED_DIR/fixtures/ggml"
[ -r "$F/big-vocab.gguf" ] || skip_all "no shared fixtures"

m="$scratch/m.gguf"
fresh() { cp "$F/${1:-big-vocab.gguf}" "$m" && chmod 644 "$m"; }
sum() { cksum < "$1"; }
leftovers() { ls -A "$scratch" | grep -c -e '\.ggufed-' ; }

# --------------------------------------------------------------- refusals
fresh
"$GGUFED" set "$m" general.name x >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q -- "-i edits the file in place" "$scratch/err"
ok $? "a modifying command without -i or -o refuses and says why"
"$GGUFED" edit "$m" -i -o "$scratch/o.gguf" -e 'rm general.name' 2>/dev/null
ok $([ $? -eq 2 ]; echo $?) "-i with -o is a usage error"
"$GGUFED" edit "$m" -o "$m" -e 'rm general.name' 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "file being edited" "$scratch/err" &&
    cmp -s "$m" "$F/big-vocab.gguf"
ok $? "-o naming the input is refused"
"$GGUFED" edit "$m" -i -e 'set nosuch.key 1' 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "give its type" "$scratch/err" &&
    cmp -s "$m" "$F/big-vocab.gguf"
ok $? "a refused command saves nothing"
"$GGUFED" edit "$m" -i -e 'set general.file_type 4294967296' 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "out of range for u32" "$scratch/err"
ok $? "out-of-range value: clear message"
# A number the type cannot hold says why: not an integer's, past the
# largest, or so small it would be saved as 0.
for c in "general.file_type 1.5|1.5: u32 takes an integer" \
    "general.file_type 1e3|1e3: u32 takes an integer" \
    "general.file_type abc|not a number" \
    "gpt2.attention.layer_norm_epsilon:f32 1e400|1e400 is out of range for f32" \
    "gpt2.attention.layer_norm_epsilon:f32 1e-50|1e-50 is too small for f32: it would be 0" \
    "gpt2.attention.layer_norm_epsilon:f64 1e-400|1e-400 is too small for f64: it would be 0"; do
	"$GGUFED" edit "$m" -i -e "set ${c%%|*}" 2>"$scratch/err"
	[ $? -eq 2 ] && grep -qF "${c#*|}" "$scratch/err" &&
	    cmp -s "$m" "$F/big-vocab.gguf"
	ok $? "set ${c%%|*}: \"${c#*|}\", nothing saved" ||
	    sed 's/^/# /' "$scratch/err"
done

# What llama.cpp refuses is refused here too, as in the browser; --force
# sets it anyway. A special token id outside the vocabulary is not refused:
# llama.cpp loads the model, ignores the id and keeps its default, and so
# the edit is made with a warning that says so, as validate says.
fresh
"$GGUFED" set "$m" tokenizer.ggml.eos_token_id 150000 -i 2>"$scratch/err"
[ $? -eq 0 ] && grep -q "warning: tokenizer.ggml.eos_token_id: llama.cpp ignores token 150000, outside the vocabulary (150,000 tokens, 0 to 149,999), and keeps its default" \
    "$scratch/err" && ! grep -q -- "--force" "$scratch/err" &&
    [ "$("$GGUFED" get "$m" tokenizer.ggml.eos_token_id)" = 150000 ]
ok $? "set: an eos id outside the vocabulary is set, with a warning (no --force)"
"$GGUFED" validate "$m" >"$scratch/val" 2>&1
grep -q "warning: tokenizer.ggml.eos_token_id is 150000, not a token.*llama.cpp ignores it" \
    "$scratch/val" && ! grep -q "error.*eos_token_id" "$scratch/val"
ok $? "validate says the same: a warning, llama.cpp ignores it"
fresh
"$GGUFED" edit "$m" -i -e 'set tokenizer.ggml.padding_token_id 999999' \
    2>"$scratch/err"
[ $? -eq 0 ] && grep -q "warning: .*llama.cpp ignores token 999999, outside the vocabulary" "$scratch/err"
ok $? "edit -e: a pad id outside the vocabulary, the same warning"
fresh
"$GGUFED" set "$m" llama.block_count:u64 2 -i 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "llama.block_count should be u32, not u64: llama.cpp refuses another type" \
    "$scratch/err" && cmp -s "$m" "$F/big-vocab.gguf"
ok $? "set: a well-known key of a type llama.cpp refuses is refused"
"$GGUFED" set "$m" tokenizer.ggml.eos_token_id 149999 -i >/dev/null 2>&1 &&
    [ "$("$GGUFED" get "$m" tokenizer.ggml.eos_token_id)" = 149999 ]
ok $? "set: the last token of the vocabulary is an id"
"$GGUFED" set "$m" tokenizer.ggml.eos_token_id 4294967295 -i >/dev/null 2>&1
ok $? "set: 4294967295 (-1 as u32, no token) is allowed"
fresh
"$GGUFED" set "$m" tokenizer.ggml.eos_token_id 150000 -i --force \
    >/dev/null 2>&1 &&
    [ "$("$GGUFED" get "$m" tokenizer.ggml.eos_token_id)" = 150000 ]
ok $? "set --force: an id outside the vocabulary is set"
"$GGUFED" edit "$m" -i --force -e 'set llama.block_count:u64 2' \
    >/dev/null 2>&1 && "$GGUFED" dump "$m" |
    grep -q '^kv 8 llama.block_count u64 2$'
ok $? "edit --force: a type llama.cpp refuses is set"
fresh
"$GGUFED" edit "$m" -i -e 'rm llama.context_length' \
    -e 'mv general.name llama.context_length' 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "llama.context_length should be u32, not str: llama.cpp refuses another type" \
    "$scratch/err" && cmp -s "$m" "$F/big-vocab.gguf"
ok $? "mv: a value moved into a well-known key of another type is refused"
"$GGUFED" edit "$m" -i -e 'set my.id:u32 150000' \
    -e 'rm tokenizer.ggml.eos_token_id' \
    -e 'mv my.id tokenizer.ggml.eos_token_id' 2>"$scratch/err"
[ $? -eq 0 ] && grep -q "warning: tokenizer.ggml.eos_token_id: llama.cpp ignores token 150000, outside the vocabulary" \
    "$scratch/err"
ok $? "mv: an id moved into a token id key is held against the vocabulary"
fresh
"$GGUFED" edit "$m" -i --force -e 'rm llama.context_length' \
    -e 'mv general.name llama.context_length' >/dev/null 2>&1 &&
    "$GGUFED" dump "$m" | grep -q ' llama.context_length str '
ok $? "mv --force: moved anyway"
fresh
"$GGUFED" edit "$m" -i -e 'set "general.name\0x":str y' 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'a key cannot hold a NUL byte.*read as "general.name"' \
    "$scratch/err" && cmp -s "$m" "$F/big-vocab.gguf"
ok $? "a key with a NUL byte is refused"
"$GGUFED" edit "$m" -i --force -e 'set "a\0b":u8 1' 2>/dev/null
[ $? -eq 2 ] && cmp -s "$m" "$F/big-vocab.gguf"
ok $? "even with --force"

# ---------------------------------------------------------------- dry run
"$GGUFED" edit "$m" --dry-run -e 'set general.name "N"' \
    -e 'rm tokenizer.chat_template' -e 'set my.key:u8 5' \
    -e 'mv general.type general.kind' -e 'set tokenizer.ggml.tokens[3] X' \
    -e 'rename s/^blk\.(\d+)\./layers.$1./' >"$scratch/out" 2>/dev/null
ok $? "dry run"
grep -q '^~ general.name: str "Big Vocab Fixture" -> str "N"$' "$scratch/out" &&
    grep -q '^- tokenizer.chat_template: str' "$scratch/out" &&
    grep -q '^+ my.key: u8 5$' "$scratch/out" &&
    grep -q '^> general.type -> general.kind$' "$scratch/out" &&
    grep -q '^~ tokenizer.ggml.tokens: arr\[str\] n=150000: \[3\] .* -> "X"$' "$scratch/out" &&
    grep -q '^> tensor "blk.0.attn_q.weight" -> "layers.0.attn_q.weight"  (llama.cpp will not find it)$' "$scratch/out"
ok $? "the diff shows every change, old -> new"
cmp -s "$m" "$F/big-vocab.gguf"
ok $? "dry run writes nothing"

# ------------------------------------------------------ shorthands, paths
fresh
"$GGUFED" set "$m" general.name "Big Vocab FIXTURE" -i >"$scratch/out" 2>&1 &&
    grep -q "saved in place" "$scratch/out" &&
    [ "$("$GGUFED" get "$m" general.name)" = "Big Vocab FIXTURE" ]
ok $? "set -i, same length: saved in place"
"$GGUFED" set "$m" llama.block_count 3 -i >"$scratch/out" &&
    grep -q "saved in place (1 byte of" "$scratch/out"
ok $? "fixed-size edit: in place, only the changed bytes written"
"$GGUFED" set "$m" general.name "A name long enough to move the data" -i \
    >"$scratch/out" && grep -q "written as a new file" "$scratch/out"
ok $? "header grows: atomic rewrite"
"$GGUFED" rm "$m" general.type -o "$scratch/o.gguf" >/dev/null &&
    ! "$GGUFED" get "$scratch/o.gguf" general.type >/dev/null 2>&1 &&
    "$GGUFED" get "$m" general.type >/dev/null
ok $? "rm -o writes a copy, the input unchanged"
"$GGUFED" mv "$m" general.type general.kind -i >/dev/null &&
    "$GGUFED" get "$m" general.kind >/dev/null
ok $? "mv shorthand"
"$GGUFED" rename "$m" 's/^(blk)\.0\./$1.9./' -i >/dev/null 2>&1 &&
    "$GGUFED" dump "$m" | grep -q 'blk.9.attn_q.weight'
ok $? "rename shorthand with a regex"
"$GGUFED" rename "$m" 's/^(blk)\.9\.attn_q/\1.8.attn_q/' -i >/dev/null 2>&1 &&
    "$GGUFED" dump "$m" | grep -q ' blk.8.attn_q.weight '
ok $? "rename: a sed-style backslash-digit is the group, as a dollar-digit"
"$GGUFED" rename "$m" 's/^blk\.8\.attn_q/\\x/' -n >"$scratch/out" 2>&1
grep -q 'blk.8.attn_q.weight' "$scratch/out" && grep -Fq -e '-> "\\x.weight"' "$scratch/out"
ok $? "rename: two backslashes are one"
"$GGUFED" rename "$m" token_embd.weight tok.w -i >/dev/null &&
    "$GGUFED" dump "$m" | grep -q ' tok.w '
ok $? "rename shorthand, plain"
printf '{{ bos }}\n{%% for m in messages %%}{{ m }}{%% endfor %%}\n' >"$scratch/t.jinja"
"$GGUFED" set "$m" tokenizer.chat_template @"$scratch/t.jinja" -i >/dev/null &&
    "$GGUFED" get --raw "$m" tokenizer.chat_template >"$scratch/t2" &&
    cmp -s "$scratch/t.jinja" "$scratch/t2"
ok $? "a chat template from @FILE, verbatim"
printf 'set general.name "from script"\n# a comment\n\nset llama.block_count 2\n' \
    >"$scratch/s.txt"
"$GGUFED" edit "$m" -i -f "$scratch/s.txt" >/dev/null &&
    [ "$("$GGUFED" get "$m" llama.block_count)" = 2 ]
ok $? "edit -f SCRIPT"
"$GGUFED" set "$m" llama.rope.freq_base -1.5 -i >/dev/null &&
    [ "$("$GGUFED" get "$m" llama.rope.freq_base)" = "-1.5" ] &&
    "$GGUFED" set -i "$m" llama.rope.freq_base -- -2.5 >/dev/null &&
    [ "$("$GGUFED" get "$m" llama.rope.freq_base)" = "-2.5" ]
ok $? "negative values (bare, and after --)"
[ "$(stat -c %a "$m")" = 644 ]
ok $? "permissions kept across rewrites"

# symlink: the target is replaced, the link stays
fresh
ln -s m.gguf "$scratch/link.gguf"
"$GGUFED" set "$scratch/link.gguf" general.name "Through a much longer link name" -i >/dev/null &&
    [ -L "$scratch/link.gguf" ] &&
    [ "$("$GGUFED" get "$m" general.name)" = "Through a much longer link name" ]
ok $? "a symlink is followed and kept"
rm -f "$scratch/link.gguf"

# ------------------------------------------------------------- --reserve
fresh
"$GGUFED" edit "$m" -i --reserve 8192 >"$scratch/out" &&
    grep -q "header reserve" "$scratch/out" &&
    "$GGUFED" get "$m" ggufed.reserved >/dev/null
ok $? "--reserve adds the padding entry"
# dump shows the reserve as what it is, one line, not its bytes.
"$GGUFED" dump "$m" >"$scratch/out"
line=$(grep '^kv [0-9]* ggufed.reserved ' "$scratch/out")
n=$(printf '%s\n' "$line" | sed -n 's/.* arr\[u8\] n=\([0-9,]*\) .*/\1/p' | tr -d ,)
[ "${n:-0}" -ge 8192 ] && [ ${#line} -lt 120 ] &&
    printf '%s\n' "$line" | grep -q '(the header reserve: padding, not shown)$'
ok $? "dump: the reserve is one line, its size and what it is"
"$GGUFED" dump --json "$m" | python3 -c '
import json, sys
kv = [k for k in json.load(sys.stdin)["kv"] if k["key"] == "ggufed.reserved"][0]["value"]
sys.exit(not (kv["reserve"] and kv["truncated"] and kv["values"] == [] and kv["count"] >= 8192))'
ok $? "dump --json: the reserve without its values, marked"
[ "$("$GGUFED" dump --max-array 3 "$m" | grep -c '^kv [0-9]* ggufed.reserved .*\[0, 0, 0, \.\.\.')" -eq 1 ]
ok $? "dump --max-array shows the reserve's bytes as asked"
"$GGUFED" set "$m" tokenizer.chat_template "a new, much longer template: {{ messages }} and more text to grow it" -i \
    >"$scratch/out" && grep -q "saved in place" "$scratch/out"
ok $? "a string edit after --reserve is in place"
"$GGUFED" rm "$m" tokenizer.chat_template -i >"$scratch/out" &&
    grep -q "saved in place" "$scratch/out"
ok $? "shrinking the header: in place too"
"$GGUFED" edit "$m" -i --reserve 0 >/dev/null &&
    ! "$GGUFED" get "$m" ggufed.reserved >/dev/null 2>&1
ok $? "--reserve 0 removes it"
"$GGUFED" edit "$m" -n --reserve -1 2>"$scratch/err"
[ $? -eq 2 ] && grep -q -- "--reserve: '-1' is not a size" "$scratch/err"
ok $? "--reserve -1: not a size, says so" || sed 's/^/# /' "$scratch/err"
"$GGUFED" edit "$m" -n --reserve 2G 2>"$scratch/err"
[ $? -eq 2 ] && grep -q -- "--reserve: 2G is more than it takes (at most 1 GiB)" \
    "$scratch/err"
ok $? "--reserve 2G: too much, says the most" || sed 's/^/# /' "$scratch/err"

# ------------------------------------------------- crash between the steps
for step in journal-written torn header-written; do
	fresh
	before=$(sum "$m")
	GGUFED_FAULT=$step "$GGUFED" set "$m" llama.block_count 7 -i \
	    >/dev/null 2>&1
	rc=$?
	[ $rc -eq 75 ] && [ -e "$m.ggufed-journal" ]
	ok $? "crash at $step: the journal is left"
	"$GGUFED" info "$m" 2>&1 >/dev/null | grep -q "recover"
	ok $? "crash at $step: opening the model reports the journal"
	"$GGUFED" set "$m" general.name x -i >/dev/null 2>&1
	ok $([ $? -eq 1 ]; echo $?) "crash at $step: edits refused until recovered"
	"$GGUFED" recover "$m" >"$scratch/out" &&
	    grep -q "rolled back" "$scratch/out" &&
	    [ "$(sum "$m")" = "$before" ] && [ ! -e "$m.ggufed-journal" ]
	ok $? "crash at $step: recover restores the original bytes"
done
fresh
before=$(sum "$m")
GGUFED_FAULT=tmp-written "$GGUFED" set "$m" general.name "long enough to force a rewrite" -i \
    >/dev/null 2>&1
[ $? -eq 75 ] && [ "$(sum "$m")" = "$before" ]
ok $? "crash before the rename: original intact"
rm -f "$scratch"/.m.gguf.ggufed-*
"$GGUFED" recover "$m" | grep -q "nothing to recover"
ok $? "recover without a journal"
# an incomplete journal: the model was never touched
printf 'GGUFEDJ1xx' >"$m.ggufed-journal"
"$GGUFED" recover "$m" | grep -q "incomplete journal" &&
    [ ! -e "$m.ggufed-journal" ] && [ "$(sum "$m")" = "$before" ]
ok $? "an incomplete journal is removed, the model untouched"

# ------------------------------------------ failures leave the model intact
fresh
before=$(sum "$m")
( ulimit -f 2048; "$GGUFED" set "$m" general.name "long enough to force a full rewrite" -i ) \
    >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && [ "$(sum "$m")" = "$before" ] && [ "$(leftovers)" = 0 ] &&
    [ "$(wc -l < "$scratch/err")" -eq 1 ]
ok $? "file size limit (disk full): one-line error, original intact, no temp file"
grep -q -i "file too large\|no room" "$scratch/err"
ok $? "the error says what failed"

if [ "$(id -u)" != 0 ]; then
	mkdir "$scratch/ro" && cp "$F/big-vocab.gguf" "$scratch/ro/m.gguf" &&
	    chmod 555 "$scratch/ro"
	"$GGUFED" set "$scratch/ro/m.gguf" general.name "long enough to force a full rewrite" -i \
	    >/dev/null 2>"$scratch/err"
	[ $? -eq 1 ] && cmp -s "$scratch/ro/m.gguf" "$F/big-vocab.gguf" &&
	    [ "$(ls -A "$scratch/ro" | wc -l)" -eq 1 ]
	ok $? "read-only directory: error, original intact"
	chmod 755 "$scratch/ro"
else
	ok 0 "# SKIP read-only directory (running as root)"
fi

# changed on disk between open and save: a slow script gives the window
fresh
mkfifo "$scratch/fifo"
( "$GGUFED" edit "$m" -i -f "$scratch/fifo" >/dev/null 2>"$scratch/err"; echo $? >"$scratch/rc" ) &
exec 3>"$scratch/fifo"
echo 'set general.name "changed underneath"' >&3
sleep 0.3
touch -d '2001-01-01' "$m"
before=$(sum "$m")
exec 3>&-
wait
[ "$(cat "$scratch/rc")" = 1 ] && grep -q "changed\|modified" "$scratch/err" &&
    grep -q "(reopen it) unless forced (--force)" "$scratch/err" &&
    [ "$(sum "$m")" = "$before" ]
ok $? "source modified since it was opened: refused, and how to force it said" ||
    sed 's/^/# /' "$scratch/err"
fresh
( "$GGUFED" edit "$m" -i --force -f "$scratch/fifo" >/dev/null 2>&1; echo $? >"$scratch/rc" ) &
exec 3>"$scratch/fifo"
echo 'set general.name "forced"' >&3
sleep 0.3
touch -d '2001-01-01' "$m"
exec 3>&-
wait
[ "$(cat "$scratch/rc")" = 0 ] && [ "$("$GGUFED" get "$m" general.name)" = forced ]
ok $? "--force writes anyway"
[ "$(leftovers)" = 0 ]
ok $? "no temporary files left anywhere"

# A dry run says what it would do; every undone step is named.
cp_w "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" \
    "$scratch/words.gguf"
"$GGUFED" rename "$scratch/words.gguf" 's/^blk\./layer./' -n \
    >/dev/null 2>"$scratch/err"
grep -qx 'ggufed: would rename 36 tensors' "$scratch/err"
ok $? "rename -n: would rename, not renamed"
"$GGUFED" rename "$scratch/words.gguf" 's/^nothing//' -n \
    >/dev/null 2>"$scratch/err"
grep -q 'nothing would be renamed' "$scratch/err"
ok $? "rename -n with no match: nothing would be renamed"
"$GGUFED" edit "$scratch/words.gguf" -n -e 'set general.name a' \
    -e 'set general.author b' -e 'set general.license c' -e undo \
    -e 'undo 2' >/dev/null 2>"$scratch/err"
grep -qx 'ggufed: -e #4: undone: set general.license' "$scratch/err"
ok $? "undo names the step it undid"
grep -qx 'ggufed: -e #5: undone 2: set general.author; set general.name' \
    "$scratch/err"
ok $? "undo 2 names both steps, latest first"

# A dry run with nothing to do says so, and no save it would make.
"$GGUFED" edit "$scratch/words.gguf" -i -n -e 'set general.name a' \
    -e undo >"$scratch/out" 2>/dev/null
[ $? -eq 0 ] && [ "$(cat "$scratch/out")" = "no changes" ]
ok $? "edit -i -n with nothing to do: only 'no changes'"
"$GGUFED" rename "$scratch/words.gguf" 's/^nothing//' -i -n \
    >"$scratch/out" 2>/dev/null
[ "$(cat "$scratch/out")" = "no changes" ]
ok $? "rename -i -n with no match: only 'no changes'"

# An empty output name is a usage error that says so, not a failed
# rename of "".
"$GGUFED" set "$m" general.name x -o "" 2>"$scratch/err"
[ $? -eq 2 ] && grep -q -- "-o: the output file name is empty" "$scratch/err"
ok $? "-o '': exit 2, the name is empty" || sed 's/^/# /' "$scratch/err"

done_testing
