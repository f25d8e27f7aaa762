#!/bin/sh
# tokens.sh - `ggufed tokens`: the vocabulary with each token's text.
#
# Exact lines for known tokens of the demo model (SentencePiece) and of
# real byte-level BPE and SentencePiece vocabularies; --text, --grep and
# --id picking tokens; --encode turning text into ids; --json as one
# valid document; escaping (no raw control byte reaches the output, a
# text with a space at either end quoted so that it shows); a token that
# does not decode kept raw; and the errors, each one line.
. "$TESTS_SRCDIR/lib.sh"

jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
real="$SHARED_DIR/fixtures/real"
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"

# The expected output: lines given as arguments, fields separated by #.
expect() {
	for l in "$@"; do
		printf '%s\n' "$l"
	done | tr '#' '\t' >"$scratch/want"
}

# same DESCRIPTION: the output so far is the expected one.
same() {
	cmp -s "$scratch/out" "$scratch/want"
	ok $? "$1" || { diff "$scratch/want" "$scratch/out" | sed 's/^/# /'; }
}

raw_controls() {
	LC_ALL=C tr -cd '\000-\010\013-\037\177' <"$1" | wc -c
}

# ----------------------------------------------------------- the demo model
"$GGUFED" tokens "$demo" --id 1 --id 2 --id 0 --id 13 --id 277 --id 35 \
    --id 2974 >"$scratch/out"
ok $? "demo: tokens exits 0"
expect '1#control#0#<s>' '2#control#0#</s>' '0#unknown#0#<unk>' \
    '13#byte#0#\n' '277#normal#-18#" the"' '35#byte#0#" "' '2974#normal#-2715#" "'
same "demo: control tokens as they are, <0x0A> a newline, \"▁the\" \" the\", spaces at either end quoted"
"$GGUFED" tokens "$demo" >"$scratch/out"; ok $? "demo: the whole vocabulary"
[ "$(wc -l <"$scratch/out")" -eq 3072 ]; ok $? "demo: one line per token"
[ "$(raw_controls "$scratch/out")" -eq 0 ]
ok $? "demo: no raw control byte in the output"
sed -n '4p' "$scratch/out" >"$scratch/line"
[ "$(cat "$scratch/line")" = "$(printf '3\tbyte\t0\t\\x00')" ]
ok $? "demo: byte 0 is written \\x00"
"$GGUFED" tokens "$demo" --text ' the' >"$scratch/out"
expect '277#normal#-18#" the"'
same "demo: --text ' the' finds the token by its text"
"$GGUFED" tokens "$demo" --grep '^ the[a-z]' >"$scratch/out"
ok $? "demo: --grep exits 0"
grep -qv "$(printf '\t')\" the[a-z]" "$scratch/out"; [ $? -eq 1 ]
ok $? "demo: --grep keeps only matching texts"
"$GGUFED" tokens "$demo" --text ' the' --grep 'x' >/dev/null 2>&1
[ $? -eq 1 ]; ok $? "demo: --text and --grep must both hold"

"$GGUFED" tokens "$demo" --id 277 --id 13 --json >"$scratch/out"
ok $? "demo: --json exits 0"
"$jsoncheck" <"$scratch/out"; ok $? "demo: --json is valid JSON"
grep -qF '{"id": 277, "type": "normal", "score": -18, "text": " the", "raw": "▁the"}' \
    "$scratch/out"
ok $? "demo: --json gives id, type, score, text and raw"
grep -qF '{"id": 13, "type": "byte", "score": 0, "text": "\n", "raw": "<0x0A>"}' \
    "$scratch/out"
ok $? "demo: --json escapes the newline once"
grep -qF '"decoding": "SentencePiece"' "$scratch/out"
ok $? "demo: --json names the decoding"
[ "$(grep -c '"tokens": \[' "$scratch/out")" -eq 1 ]
ok $? "demo: --json is one document"

# A text with a space only at its end, and one that starts with a quote.
"$GGUFED" tokens "$demo" --grep '[^ ] $' >"$scratch/out"
[ -s "$scratch/out" ] && ! grep -v "$(printf '\t')\".* \"\$" "$scratch/out" >/dev/null
ok $? "demo: a trailing space is quoted, so it shows"
"$GGUFED" tokens "$demo" --grep '^"' >"$scratch/out"
expect '37#byte#0#"\""' '3036#normal#-2777#"\""'
same "demo: a text that starts with a quote is quoted, its quote escaped"

# --encode: the browser's text -> ids, the vocabulary's longest matches.
"$GGUFED" tokens "$demo" --encode ' the world' >"$scratch/out"
expect '277#normal#-18#" the"' '690#normal#-431#" world"'
same "demo: --encode ' the world' gives 277 and 690"
"$GGUFED" tokens "$demo" --encode ' the€' >"$scratch/out" 2>"$scratch/err"
rc=$?
expect '277#normal#-18#" the"' '229#byte#0#\xe2' '133#byte#0#\x82' '175#byte#0#\xac'
[ $rc -eq 0 ] && cmp -s "$scratch/out" "$scratch/want" && [ ! -s "$scratch/err" ]
ok $? "demo: --encode, bytes without a text token go to byte tokens"
"$GGUFED" tokens "$demo" --encode ' the world' --json >"$scratch/out"
"$jsoncheck" <"$scratch/out" &&
    grep -qF '{"id": 690, "type": "normal", "score": -431, "text": " world", "raw": "▁world"}' "$scratch/out"
ok $? "demo: --encode --json, one valid document of the tokens"
"$GGUFED" tokens "$demo" --encode x --id 3 >/dev/null 2>&1; [ $? -eq 2 ]
ok $? "--encode with --id: exit 2"

# ----------------------------------------------------------------- errors
"$GGUFED" tokens >/dev/null 2>&1; [ $? -eq 2 ]; ok $? "no FILE: exit 2"
"$GGUFED" tokens "$demo" --id x >/dev/null 2>&1; [ $? -eq 2 ]
ok $? "--id x: exit 2"
"$GGUFED" tokens "$demo" --id >/dev/null 2>&1; [ $? -eq 2 ]
ok $? "--id without a value: exit 2"
"$GGUFED" tokens "$demo" --grep '(' >/dev/null 2>"$scratch/err"; [ $? -eq 2 ]
ok $? "a bad --grep pattern: exit 2"
grep -q 'regex error at position 1' "$scratch/err"
ok $? "a bad pattern: the position is named"
"$GGUFED" tokens "$demo" --id 3072 >/dev/null 2>"$scratch/err"; [ $? -eq 1 ]
ok $? "an id past the vocabulary: exit 1"
[ "$(cat "$scratch/err")" = "ggufed: no token 3072: the vocabulary has 3,072 tokens" ]
ok $? "an id past the vocabulary: one line saying so"
"$GGUFED" tokens "$demo" --id 2 --id 99999 --id 277 >"$scratch/out" \
    2>"$scratch/err"
rc=$?
expect '2#control#0#</s>' '277#normal#-18#" the"'
[ $rc -eq 1 ] && cmp -s "$scratch/out" "$scratch/want" &&
    [ "$(cat "$scratch/err")" = "ggufed: no token 99999: the vocabulary has 3,072 tokens" ]
ok $? "good ids and one past the vocabulary: the good ones printed, then the error, exit 1"
"$GGUFED" tokens "$demo" --text 'no such token' >"$scratch/out" \
    2>"$scratch/err"; [ $? -eq 1 ]
ok $? "--text that no token has: exit 1"
[ "$(cat "$scratch/err")" = 'ggufed: no token decodes to "no such token"' ] &&
    [ ! -s "$scratch/out" ]
ok $? "--text that no token has: said on stderr, nothing on stdout"

# -------------------------------------------------------- real vocabularies
[ -d "$real" ] || { done_testing; exit $?; }

"$GGUFED" tokens "$real/ggml-vocab-gpt-2.gguf" --id 262 --id 198 \
    --id 50256 --id 0 >"$scratch/out"
expect '262#normal#-#" the"' '198#normal#-#\n' '50256#control#-#<|endoftext|>' \
    '0#normal#-#!'
same "gpt-2: \"Ġthe\" is \" the\", \"Ċ\" a newline, no scores"
"$GGUFED" tokens "$real/ggml-vocab-gpt-2.gguf" --text ' the' >"$scratch/out"
expect '262#normal#-#" the"'
same "gpt-2: --text ' the' is token 262 alone"
# A token of no-break spaces (U+00A0) alone is quoted, as " " is: it
# would not show otherwise.
nb=$(printf '\302\240')
"$GGUFED" tokens "$real/ggml-vocab-gpt-2.gguf" --id 1849 --id 4603 \
    >"$scratch/out"
expect "1849#normal#-#\"$nb\"" "4603#normal#-#\"$nb$nb\""
same "gpt-2: tokens of no-break spaces are quoted"
"$GGUFED" tokens "$real/ggml-vocab-deepseek-coder.gguf" --grep '^冯$' \
    >"$scratch/out"
expect '30138#normal#-#冯'
same "deepseek-coder: \"åĨ¯\" is \"冯\", found by --grep"
"$GGUFED" tokens "$real/ggml-vocab-llama-spm.gguf" --id 278 --id 13 \
    --id 29871 >"$scratch/out"
expect '278#normal#-19#" the"' '13#byte#0#\n' '29871#normal#-1e+09#" "'
same "llama-spm: \"▁the\", <0x0A> and \"▁\""
"$GGUFED" tokens "$real/ggml-vocab-llama-spm.gguf" >"$scratch/out"
[ "$(raw_controls "$scratch/out")" -eq 0 ] &&
    [ "$(wc -l <"$scratch/out")" -eq 32000 ]
ok $? "llama-spm: 32000 lines, no raw control byte"
"$GGUFED" tokens "$real/ggml-vocab-bert-bge.gguf" --id 1996 >"$scratch/out"
expect '1996#normal#-#" the"'
same "bert: \"▁the\" is \" the\""

# A SentencePiece vocabulary read as byte-level: nothing decodes, all kept.
cp_w "$real/ggml-vocab-llama-spm.gguf" "$scratch/spm.gguf"
"$GGUFED" set "$scratch/spm.gguf" tokenizer.ggml.model gpt2 -i >/dev/null
"$GGUFED" tokens "$scratch/spm.gguf" --id 278 --id 13 >"$scratch/out"
expect '278#normal#-19#▁the' '13#byte#0#<0x0A>'
same "tokens that do not decode are shown raw"

"$GGUFED" tokens "$real/tensorhawk-no-architecture.gguf" >/dev/null \
    2>"$scratch/err"; [ $? -eq 1 ]
ok $? "a file without a vocabulary: exit 1"
grep -q 'no vocabulary: there is no tokenizer.ggml.tokens key' \
    "$scratch/err"
ok $? "a file without a vocabulary: says so"
"$GGUFED" set "$real/tensorhawk-no-architecture.gguf" \
    tokenizer.ggml.tokens:u32 7 -o "$scratch/notarr.gguf" -q --force
"$GGUFED" tokens "$scratch/notarr.gguf" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'no vocabulary: tokenizer.ggml.tokens is not an array of strings' \
    "$scratch/err"
ok $? "tokens of another type: exit 1, says so" || sed 's/^/# /' "$scratch/err"

done_testing
