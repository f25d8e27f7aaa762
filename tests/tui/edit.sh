#!/bin/sh
# edit.sh - editing in the browser, driven by scripts (GGUFED_SCRIPT, the
# harness of screens.sh): values of every kind, types, keys, array
# elements, tensor names, regex renames, undo and redo, the command line,
# $VISUAL, the quit guard and saving. After each save, ggml's own view of
# the result (oracle dump) differs from the original's in exactly the
# lines edited, and every tensor's data hash is unchanged.
. "$TESTS_SRCDIR/lib.sh"

DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
browser_env

have_oracle=0
if [ -x "$ORACLE" ] && "$ORACLE" dump --no-layout "$DEMO" \
    >"$scratch/orig.dump" 2>/dev/null; then
	have_oracle=1
fi

# run NAME LINE...: a fresh copy of the demo model as $scratch/m.gguf,
# the script lines on it at 100x30, the screen dumped to NAME.txt at the
# end (and wherever a line says "dump NAME2").
run() {
	name=$1
	shift
	cp_w "$DEMO" "$scratch/m.gguf"
	runon "$name" "$@"
}

runon() {
	name=$1
	shift
	{
		echo "size 100x30"
		for l in "$@"; do
			case $l in
			dump\ *) echo "dump $scratch/${l#dump }.txt" ;;
			*) printf '%s\n' "$l" ;;
			esac
		done
		echo "dump $scratch/$name.txt"
	} >"$scratch/$name.script"
	(cd "$scratch" && GGUFED_SCRIPT=$scratch/$name.script "$GGUFED" \
	    m.gguf) 2>"$scratch/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$scratch/err" ]; then
		sed 's/^/# /' "$scratch/err"
		ok 1 "$name runs cleanly (exit $rc)"
		return 1
	fi
	return 0
}

# shows NAME TEXT DESCRIPTION: the screen NAME holds TEXT.
shows() {
	if grep -qF -- "$2" "$scratch/$1.txt"; then
		ok 0 "$3"
	else
		sed 's/^/# /' "$scratch/$1.txt"
		ok 1 "$3"
	fi
}

# saved DESCRIPTION LINE...: ggml's view of m.gguf is the original's with
# exactly these lines different (as `diff` shows them, < old, > new).
saved() {
	desc=$1
	shift
	if [ $have_oracle -eq 0 ]; then
		ok 0 "$desc # SKIP no oracle"
		return
	fi
	"$ORACLE" dump --no-layout "$scratch/m.gguf" >"$scratch/new.dump" \
	    2>"$scratch/oracle.err" || sed 's/^/# oracle: /' "$scratch/oracle.err"
	diff "$scratch/orig.dump" "$scratch/new.dump" |
	    grep '^[<>]' | sort >"$scratch/diff.got"
	for l in "$@"; do
		printf '%s\n' "$l"
	done | sort >"$scratch/diff.want"
	if cmp -s "$scratch/diff.want" "$scratch/diff.got"; then
		ok 0 "$desc: oracle shows exactly the edit"
	else
		diff "$scratch/diff.want" "$scratch/diff.got" | sed 's/^/# /'
		ok 1 "$desc: oracle shows exactly the edit"
	fi
}

# go KEY: the metadata view, KEY selected.
go() {
	printf 'keys 2/\ntype ^%s \nkeys <Enter>' "$1"
}

# ------------------------------------------------------------- values
run string "keys 2/" "type ^general\\.name " "keys <Enter>e" "dump string-open" \
    "keys <C-u>" "type My model" "keys <Enter>" "dump string-edited" "keys w"
shows string-open 'general.name = Demo Llama' "e opens a prompt prefilled with the value"
shows string-edited '*str       "My model"' "the edited row is marked"
shows string 'saved m.gguf in place' "w saves, and says how"
saved "string" '< kv 2 "general.name" str len=10 "Demo Llama"' \
    '> kv 2 "general.name" str len=8 "My model"'

run int "keys 2/" "type ^llama\\.context_length " "keys <Enter>e<C-u>" \
    "type 4096" "keys <Enter>w"
saved "integer" '< kv 12 "llama.context_length" u32 2048' \
    '> kv 12 "llama.context_length" u32 4096'

run float "keys 2/" "type ^llama\\.rope\\.freq_base " "keys <Enter>e<C-u>" \
    "type 500000.5" "keys <Enter>w"
saved "float" '< kv 17 "llama.rope.freq_base" f32 10000 bits=0x461c4000' \
    '> kv 17 "llama.rope.freq_base" f32 500000.5 bits=0x48f42410'

run bool "keys 2/" "type add_eos_token" "keys <Enter><Enter><C-u>" \
    "type true" "keys <Enter>w"
saved "bool (Enter on a scalar edits it)" \
    '< kv 33 "tokenizer.ggml.add_eos_token" bool false' \
    '> kv 33 "tokenizer.ggml.add_eos_token" bool true'

# A refused value: the prompt stays open, with the reason.
run refused "keys 2/" "type ^llama\\.block_count " "keys <Enter>e<C-u>" \
    "type 4x" "keys <Enter>" "dump refused-open" "keys <C-u>" "type 300" \
    "keys <Enter>" "dump refused-again" "keys <Esc>q"
shows refused-open 'llama.block_count = 4x' "an invalid value leaves the prompt open with the text"
shows refused-open 'llama.block_count' "and the status line says why"
grep -q 'u32\|number\|integer\|invalid' "$scratch/refused-open.txt"
ok $? "the reason is shown"
cmp -s "$DEMO" "$scratch/m.gguf"
ok $? "nothing was written"

# Special tokens: the token an id names; an id outside the vocabulary is
# set with a warning (llama.cpp loads it, ignores it and keeps its
# default), as the command line and validate say: no "set it anyway?".
run token "keys 2/" "type eos_token_id" "keys <Enter>e<C-u>" "type 2" \
    "dump token-hint" "keys <C-u>" "type 99999" "dump token-outside" \
    "keys <Enter>" "dump token-warn" "keys w"
shows token-hint 'token 2 is "</s>"' "typing a token id shows its token"
shows token-outside 'token 99999 is outside the vocabulary (3072 tokens, 0 to 3071): llama.cpp ignores it' \
    "typing one outside the vocabulary says llama.cpp ignores it"
shows token-warn 'tokenizer.ggml.eos_token_id: llama.cpp ignores token 99999, outside the vocabulary' \
    "set: the status line warns, as set and validate do"
! grep -q 'anyway' "$scratch/token-warn.txt"
ok $? "no question: llama.cpp loads it"
saved "a token id outside the vocabulary" \
    '< kv 28 "tokenizer.ggml.eos_token_id" u32 2' \
    '> kv 28 "tokenizer.ggml.eos_token_id" u32 99999'
# A type llama.cpp refuses for a well-known key: asked the same way.
run retype-refused "keys 2/" "type ^llama\\.block_count " "keys <Enter>t<C-u>" \
    "type u64" "keys <Enter>" "dump retype-ask" "keys n<Esc>q"
shows retype-ask 'llama.block_count should be u32, not u64' "a type llama.cpp refuses is refused when changed in the browser"
# A refused token id: the status line says why, not the hint of what
# was typed, until the next key.
run tokneg "keys 2/" "type eos_token_id" "keys <Enter>e<C-u>" "type -1" \
    "keys <Enter>" "dump tokneg-refused" "keys <C-u>" "type 4294967296" \
    "keys <Enter>" "dump tokneg-big" "keys <Esc>q"
shows tokneg-refused 'cannot be negative' "a negative token id: the refusal's reason is shown"
shows tokneg-big 'out of range for u32' "a token id past u32: the refusal's reason is shown"
cmp -s "$DEMO" "$scratch/m.gguf"
ok $? "nothing was written"
# M calls it a warning: the edit was made (an error is a refusal).
run tokenlog "keys 2/" "type eos_token_id" "keys <Enter>e<C-u>" \
    "type 99999" "keys <Enter>" "size 200x30" "keys M" "dump tokenlog-log" \
    "keys q:" "type q!" "keys <Enter>"
grep -q '[0-9] warning: tokenizer.ggml.eos_token_id: llama.cpp ignores token 99999' \
    "$scratch/tokenlog-log.txt" && ! grep -q 'error: ' "$scratch/tokenlog-log.txt"
ok $? "M lists the accepted edit's warning as a warning, not an error" ||
    sed 's/^/# /' "$scratch/tokenlog-log.txt"

# A prefilled prompt: the first character typed replaces the prefill; a
# key that moves first keeps it.
run retype-over "keys 2/" "type ^llama\\.block_count " "keys <Enter>t" \
    "type u64" "keys <Enter>" "dump retype-over-ask" "keys n<Esc>q"
shows retype-over-ask 'llama.block_count should be u32, not u64' "typing over a prefilled type replaces it"
run value-over "keys 2/" "type ^general\\.name " "keys <Enter>e" \
    "type My model" "keys <Enter>w"
saved "typing over a prefilled value replaces it" \
    '< kv 2 "general.name" str len=10 "Demo Llama"' \
    '> kv 2 "general.name" str len=8 "My model"'
run value-end "keys 2/" "type ^general\\.name " "keys <Enter>e<End>" \
    "type  2" "keys <Enter>w"
saved "after a move, typing edits the prefill" \
    '< kv 2 "general.name" str len=10 "Demo Llama"' \
    '> kv 2 "general.name" str len=12 "Demo Llama 2"'

# An array element.
run elem "keys 2/" "type ^general\\.tags " "keys <Enter><Enter>je<C-u>" \
    "type made-up" "keys <Enter>" "dump elem-list" "keys qw"
shows elem-list '* "made-up"' "the edited element is marked in the array list"
saved "array element" \
    '< kv 9 "general.tags" arr[str] n=3 sha256=919d26f85c654e446c39b18b4dc4861247eaa1a94e1cae8a418f69e6e8098ef6 ["demo", "synthetic", "text-generation"]' \
    '> kv 9 "general.tags" arr[str] n=3 sha256=5edbc09e13a5a9bb537155e4f4aa337927971bd280346995ddd75e60facd24e6 ["demo", "made-up", "text-generation"]'

# a after the last element and after a middle one: the cursor goes to
# the element made (it stayed where it was); i keeps it on the new one.
run elem-add "keys 2/" "type ^general\\.tags " "keys <Enter><Enter>G" \
    "keys a" "type last" "keys <Enter>" "dump elem-add-last" "keys gg" \
    "keys a" "type second" "keys <Enter>" "dump elem-add-mid" "keys i" \
    "type before" "keys <Enter>" "dump elem-ins" "keys q:" "type q!" \
    "keys <Enter>"
shows elem-add-last '[3] 4/4' "a after the last element: on the new one"
shows elem-add-mid '[1] 2/5' "a after the first: on the new second"
shows elem-ins '[1] 2/6' "i: on the new one, where it was"

# An edited token is marked in the tokenizer table, and only that one.
run tokmark "keys :" "type set tokenizer.ggml.tokens[5] HELLO" "keys <Enter>3"
grep -q '^ *5 \* .*HELLO' "$scratch/tokmark.txt"
ok $? "the edited token is marked in the tokenizer table"
[ "$(grep -c '^ *[0-9][0-9]* \* ' "$scratch/tokmark.txt")" -eq 1 ]
ok $? "no other token is marked"

# A type change: lossless only (llama.cpp reads llama.block_count as u32
# only: each change is forced).
run retype "keys 2/" "type ^llama\\.block_count " "keys <Enter>t<C-u>" \
    "type i8" "keys <Enter>y" "keys t<C-u>" "type f32" "keys <Enter>y" \
    "dump retype-f32" "keys t<C-u>" "type str" "keys <Enter>y" "keys w" \
    "keys y"
saved "type change (u32 -> i8 -> f32 -> str)" \
    '< kv 11 "llama.block_count" u32 4' '> kv 11 "llama.block_count" str len=1 "4"'
run retype-lossy "keys 2/" "type ^llama\\.rope\\.freq_base " \
    "keys <Enter>e<C-u>" "type 1.5" "keys <Enter>t<C-u>" "type u32" \
    "keys <Enter>" "dump retype-lossy-open" "keys <Esc>q<Esc>"
shows retype-lossy-open 'not a whole number' "a lossy conversion is refused"

# Keys: add, rename, delete.
run addkey "keys 2/" "type ^general\\.name " "keys <Enter>a" "dump add-prompt" \
    "keys <End>" "type comment" "keys <Enter><C-u>" "type str" "keys <Enter>" \
    "type hello there" "keys <Enter>" "dump add-done" "keys w"
shows add-prompt 'new key: general.' "a starts the new key in the namespace"
saved "add a key" '< n_kv 36' '> n_kv 37' \
    '> kv 36 "general.comment" str len=11 "hello there"'

# A well-known key: Tab completes it from keys.tsv ({arch} being the
# file's architecture), the prompt says what it is, and the type question
# starts with its type.
run addknown "keys 2/" "type ^general\\.name " "keys <Enter>a<C-u>" \
    "type llama.expert_c" "keys <Tab>" "dump addknown-key" "keys <Enter>" \
    "dump addknown-type" "keys <Enter>" "type 8" "keys <Enter>" "keys w" \
    "keys y"
shows addknown-key 'new key: llama.expert_count' \
    "Tab completes a well-known key the file lacks"
shows addknown-key 'well-known key, u32: Number of experts' \
    "the prompt says what the key is"
shows addknown-type 'type of llama.expert_count: u32' \
    "the type question starts with the well-known key's type"
saved "add a well-known key with its type" '< n_kv 36' '> n_kv 37' \
    '> kv 36 "llama.expert_count" u32 8'
run addtypo "keys 2/" "type ^general\\.name " "keys <Enter>a<C-u>" \
    "type general.comment" "keys <Enter><C-u>" "type u23" "keys <Enter>" \
    "dump addtypo-ask" "keys <Esc>q<Esc>"
shows addtypo-ask 'unknown type "u23" (did you mean "u32"?)' \
    "a mistyped type: did you mean"

# The : line: a missing well-known key takes its type, a value comes from
# a file (@FILE), and what is mistyped gets a "did you mean".
printf '8\n' >"$scratch/n.txt"
run cmdknown "keys :" "type set llama.expert_count @n.txt" "keys <Enter>" \
    "dump cmdknown-set" "keys :" "type sett x" "keys <Enter>" \
    "dump cmdknown-sett" "keys :" "type rm general.nmae" "keys <Enter>" \
    "dump cmdknown-rm" "keys :" "type set general.name @-" "keys <Enter>" \
    "dump cmdknown-stdin" "keys :" "type set general.title:strr x" \
    "keys <Enter>" "dump cmdknown-type" "keys :" "type w" "keys <Enter>y" \
    "keys :" "type set llama.expert_" "keys <Tab>" "dump cmdknown-complete" \
    "keys <Esc>"
shows cmdknown-set 'added llama.expert_count as u32, the type of the well-known key' \
    ":set of a missing well-known key adds it with its type"
shows cmdknown-sett 'unknown command "sett" (did you mean "set"?)' \
    ":line: an unknown command, did you mean"
shows cmdknown-rm 'no key "general.nmae" (did you mean "general.name"?)' \
    ":rm of a missing key: did you mean"
shows cmdknown-stdin '@- cannot read standard input: the browser reads the keyboard from it' \
    "@- is refused in the browser, saying why"
shows cmdknown-type 'unknown type "strr" (did you mean "str"?)' \
    ":set KEY:TYPE with a mistyped type: an error"
shows cmdknown-complete 'llama.expert_count llama.expert_feed_forward_length' \
    ":set completes well-known keys too"
saved ":set KEY @FILE of a well-known key" '< n_kv 36' '> n_kv 37' \
    '> kv 36 "llama.expert_count" u32 8'

run mvkey "keys 2/" "type ^general\\.license " "keys <Enter>m<C-u>" \
    "type general.licence" "keys <Enter>w"
saved "rename a key" '< kv 8 "general.license" str len=3 "MIT"' \
    '> kv 8 "general.licence" str len=3 "MIT"'
# Renaming a value into a well-known key of another type: refused as a
# set would be, and the browser asks whether to force it.
run mvforce "keys 2/" "type ^general\\.license " "keys <Enter>m<C-u>" \
    "type llama.expert_count" "keys <Enter>" "dump mvforce-ask" "keys n" \
    "dump mvforce-no" "keys <Enter>" "keys y" "keys w" "keys y"
shows mvforce-ask 'llama.expert_count should be u32, not str' \
    "m into a well-known key of another type is refused, saying why"
shows mvforce-ask 'Set it anyway?' "and the browser asks whether to force it"
shows mvforce-no 'general.license to: llama.expert_count' \
    "no: back to the prompt, the text kept"
saved "a forced key rename" '< kv 8 "general.license" str len=3 "MIT"' \
    '> kv 8 "llama.expert_count" str len=3 "MIT"'

run rmkey "keys 2/" "type ^general\\.license " "keys <Enter>d" \
    "dump rm-ask" "keys y" "dump rm-marked" "keys w"
shows rm-ask 'Remove key general.license?' "d asks first"
shows rm-marked '(removed)' "a removed key stays, marked, until the save"
grep -q '"general.license"' "$scratch/new.dump" 2>/dev/null
[ $? -ne 0 ] || [ $have_oracle -eq 0 ]
ok $? "the removed key is gone from the saved file"

# Tensors: rename one, rename by regex.
run tname "keys 4/" "type token_embd" "keys <Enter>r" "dump tname-prompt" \
    "keys <C-u>" "type tok_embeddings.weight" "keys <Enter>" \
    "dump tname-marked" "keys w" "keys y"
shows tname-prompt 'rename token_embd.weight to: token_embd.weight' "r opens a prompt prefilled with the name"
shows tname-marked 'tok_embeddings.weight' "the new name shows"
saved "rename a tensor" \
    "$(grep '"token_embd.weight"' "$scratch/orig.dump" | sed 's/^/< /')" \
    "$(grep '"token_embd.weight"' "$scratch/orig.dump" |
    sed 's/^/> /; s/token_embd\.weight/tok_embeddings.weight/')"
run tname-preview "keys 4/" "type token_embd" "keys <Enter>r" "keys <C-u>" \
    "type tok_embeddings.weight" "keys <Enter>" "keys <Enter>"
head -2 "$scratch/tname-preview.txt" | grep -q '^ tok_embeddings\.weight  Q4_K' &&
    grep -q '^ \[Tensors\] tok_embeddings\.weight ' "$scratch/tname-preview.txt"
ok $? "the preview of a renamed tensor shows its new name, at the top and on the status line" ||
    sed 's/^/# /' "$scratch/tname-preview.txt"

run regex "keys 4R" "keys <C-u>" 'type s/^blk\.(\d+)\.ffn_(up|down)/layers.$1.mlp_$2/' \
    "keys <Enter>" "dump regex-map" "keys <Enter>" "dump regex-done" "keys w" \
    "keys y"
shows regex-map '8 tensors renamed, llama.cpp will find none of the new names (?): Enter applies' "R shows the mapping first"
shows regex-map 'blk.0.ffn_up.weight -> layers.0.mlp_up.weight' "old -> new, every one"
shows regex-done 'renamed 8 tensors' "Enter applies it"
grep '"blk\.[0-9]*\.ffn_\(up\|down\)' "$scratch/orig.dump" | sed 's/^/< /' \
    >"$scratch/want.old"
sed 's/^< /> /; s/"blk\.\([0-9]*\)\.ffn_\(up\|down\)/"layers.\1.mlp_\2/' \
    "$scratch/want.old" >"$scratch/want.new"
set --
while IFS= read -r l; do set -- "$@" "$l"; done <"$scratch/want.old"
while IFS= read -r l; do set -- "$@" "$l"; done <"$scratch/want.new"
saved "regex rename" "$@"

run regex-sed "keys 4R" "keys <C-u>" 'type s/^blk\.(\d+)\.ffn_gate/layers.\1.gate/' \
    "keys <Enter>" "dump regex-sed-map"
shows regex-sed-map 'blk.0.ffn_gate.weight -> layers.0.gate.weight' "R: a sed-style backslash-digit is the group, as a dollar-digit"
shows regex-sed-map 'rename s/^blk\.(\d+)\.ffn_gate/layers.\1.gate/' "R: the title shows the pattern as typed"

# Tensors: c converts one to float32 (Q4_K here); the changes view says
# so, and ggml reads back exactly the values the source decoded to.
run convert "keys 4/" "type token_embd" "keys <Enter>c" "dump convert-marked" \
    "keys D" "dump convert-changes" "keys qw"
shows convert-marked 'token_embd.weight: its data becomes float32 when saved (u undoes)' "c converts the tensor"
shows convert-marked '*F32' "the row is marked and shows its new type"
shows convert-changes '~ tensor token_embd.weight: Q4_K -> F32' "the changes view shows it"
if [ $have_oracle -eq 1 ]; then
	"$GGUFED" cat "$DEMO" token_embd.weight | tr ' ' '\n' >"$scratch/want.cvt"
	"$ORACLE" dequant "$scratch/m.gguf" token_embd.weight >"$scratch/want.got" \
	    2>/dev/null
	"$ORACLE" dump "$scratch/m.gguf" | grep -q '"token_embd.weight" f32 ' &&
	    cmp -s "$scratch/want.cvt" "$scratch/want.got"
	ok $? "saved: ggml loads it as f32 holding the values shown before"
else
	ok 0 "saved: ggml reads the values # SKIP no oracle"
fi
run convert-cmd "keys :" "type convert output_norm.weight f32" "keys <Enter>" \
    "dump convert-cmd"
shows convert-cmd 'tensor "output_norm.weight" is F32 already' ":convert refuses what needs no conversion"

run regex-bad "keys 4R" "keys <C-u>" 'type s/^blk\.\d+\.attn_[qk]/x/' \
    "keys <Enter>" "dump regex-bad-map" "keys <Enter>qq"
shows regex-bad-map 'refused: 8 of 8 new names cannot be used' "collisions are refused"
shows regex-bad-map '! blk.0.attn_q.weight -> "x.weight": the same name as another' "with every offending name listed"
run regex-long "keys 4R" "keys <C-u>" 'type s/^token/token_with_a_name_much_too_long_for_ggml_to_load_it_at_all_/' \
    "keys <Enter>" "dump regex-long-map" "keys qq"
shows regex-long-map 'longer than' "names over 63 bytes are refused"
cmp -s "$DEMO" "$scratch/m.gguf"
ok $? "a refused rename writes nothing"

# Undo and redo, any number of steps; the changes view.
run undo "keys 2/" "type ^general\\.name " "keys <Enter>e<C-u>" "type A" \
    "keys <Enter>e<C-u>" "type B" "keys <Enter>D" "dump undo-changes" \
    "keys quu" "dump undo-twice" "keys <C-r>" "dump undo-redo" "keys q<Esc>"
shows undo-changes '~ general.name: "Demo Llama" -> "B"' "D shows the pending change, old -> new"
shows undo-twice '"Demo Llama"' "u twice undoes both edits"
shows undo-redo '"A"' "C-r redoes one"

# The command line: the edit language, errors, help, completion.
run cmdline "keys :" 'type set general.name "From the line"' "keys <Enter>" \
    "dump cmd-set" "keys :" "type bogus x" "keys <Enter>" "dump cmd-bad" \
    "keys :" "type help mv" "keys <Enter>" "dump cmd-help" \
    "keys :" "type se" "keys <Tab>" "type general.na" "keys <Tab>" \
    "dump cmd-complete" "keys <Esc>:" "type q!" "keys <Enter>"
shows cmd-set 'Name          From the line' ":set changes the value"
shows cmd-bad 'bogus' "an unknown command is reported in the status line"
shows cmd-help 'mv KEY NEWKEY' ":help CMD shows its usage"
shows cmd-complete ':set general.name' "Tab completes command names and keys"
cmp -s "$DEMO" "$scratch/m.gguf"
ok $? ":q! leaves the file as it was"

# The quit guard.
run quit "keys 2/" "type ^general\\.name " "keys <Enter>e<C-u>" "type Q" \
    "keys <Enter>q" "dump quit-ask" "keys c" "dump quit-cancel" "keys qd"
shows quit-ask 'unsaved change' "q with pending edits asks"
shows quit-cancel '"Q"' "c cancels, the edit is still there"
cmp -s "$DEMO" "$scratch/m.gguf"
ok $? "d discards: the file is as it was"
run quit-two "keys :" "type set general.name \"A\"" "keys <Enter>:" \
    "type set llama.context_length 4096" "keys <Enter>q" "dump quit-two-ask" \
    "keys d"
shows quit-two-ask 'There are 2 unsaved changes.' "two pending edits: the dialog counts them"
run quit-shift "keys 2/" "type ^general\\.name " "keys <Enter>e<C-u>" "type Q" \
    "keys <Enter>qD" "dump quit-D" "keys <Esc>qS"
shows quit-D '~ general.name: "Demo Llama" -> "Q"' \
    "D in the quit dialog shows the pending change (it is not d)"
! cmp -s "$DEMO" "$scratch/m.gguf"
ok $? "S in the quit dialog saves"
saved "S there is s: the edit is saved" \
    '< kv 2 "general.name" str len=10 "Demo Llama"' \
    '> kv 2 "general.name" str len=1 "Q"'
run quit-save "keys 2/" "type ^general\\.name " "keys <Enter>e<C-u>" "type S" \
    "keys <Enter>qs"
saved "q then s saves" '< kv 2 "general.name" str len=10 "Demo Llama"' \
    '> kv 2 "general.name" str len=1 "S"'

# $VISUAL: a scripted editor. Long strings open in it with e.
cat >"$scratch/editor.sh" <<'EOF'
#!/bin/sh
sed 's/ChatML-style/ChatML style/' "$1" >"$1.new" && mv "$1.new" "$1"
EOF
cat >"$scratch/failing.sh" <<'EOF'
#!/bin/sh
echo junk >>"$1"
exit 3
EOF
chmod +x "$scratch/editor.sh" "$scratch/failing.sh"
VISUAL=$scratch/editor.sh
export VISUAL
run editor "keys 2/" "type chat_template" "keys <Enter>e" \
    "dump editor-preview" "keys <Enter>" "dump editor-done" "keys w"
shows editor-preview 'not set yet: Enter sets it, q drops it' \
    "a chat template from \$VISUAL is rendered before it is set"
shows editor-done 'set from the editor' "e on a long string runs \$VISUAL; Enter sets it"
if [ $have_oracle -eq 1 ]; then
	"$ORACLE" dump --no-layout "$scratch/m.gguf" >"$scratch/new.dump" \
	    2>/dev/null
	grep -q 'ChatML style' "$scratch/new.dump" &&
	    [ "$(diff "$scratch/orig.dump" "$scratch/new.dump" | grep -c '^[<>]')" -eq 2 ]
	ok $? "\$VISUAL's edit is saved, and only it"
fi
run editor-drop "keys 2/" "type chat_template" "keys <Enter>e" "keys q" \
    "dump editor-dropped" "keys Q"
shows editor-dropped 'dropped: no edit' "q drops the template from \$VISUAL"
grep -q 'key-value pairs, 1 change' "$scratch/editor-dropped.txt"
[ $? -eq 1 ]; ok $? "... and nothing changed"
VISUAL=$scratch/failing.sh
run editor-fail "keys 2/" "type chat_template" "keys <Enter>E"
shows editor-fail 'failed (status 3): no edit' "an editor exiting non-zero is no edit"
VISUAL=true
run editor-same "keys 2/" "type ^general\\.name " "keys <Enter>E"
shows editor-same 'unchanged: no edit' "a file left as it was is no edit"
unset VISUAL

# A cancelled save: Esc during a rewrite leaves the file byte-identical.
run cancel "keys :" "type set general.comment:str $(printf '%0300d' 0)" \
    "keys <Enter>" "keys w<Esc>" "dump cancel-msg" "keys :" "type q!" \
    "keys <Enter>"
shows cancel-msg 'save cancelled' "Esc cancels a rewrite"
cmp -s "$DEMO" "$scratch/m.gguf"
ok $? "the cancelled file is byte-identical"
ls "$scratch" | grep -v -e '\.txt$' -e '\.script$' -e '\.dump$' -e '\.sh$' \
    -e '^m\.gguf$' -e '^err$' -e '^home$' -e '^state$' -e '^want' \
    -e '^diff' -e '^left$' -e '^oracle\.err$' >"$scratch/left"
[ ! -s "$scratch/left" ] || sed 's/^/# left: /' "$scratch/left"
[ ! -s "$scratch/left" ]
ok $? "no temporary file is left"

# A save that is a rewrite, then the view goes on with the saved file.
run rewrite "keys :" "type set general.comment:str $(printf '%0300d' 0)" \
    "keys <Enter>w" "dump rewrite-msg" "keys 2G"
shows rewrite-msg 'by a rewrite' "the status line says a rewrite was done"
shows rewrite '37 key-value pairs' "the view goes on with the saved file"

# An error is a dialog; the edits stay pending.
run denied "keys :" "type set general.name x" "keys <Enter>:" \
    "type w /nonexistent/dir/out.gguf" "keys <Enter>" "dump denied-dlg" \
    "keys <Space>2" "dump denied-after" "keys :" "type q!" "keys <Enter>"
shows denied-dlg 'Error' "a failed save shows a dialog"
shows denied-after '1 change' "the edits are still pending after it"

# Histories are kept under XDG_STATE_HOME.
[ -s "$XDG_STATE_HOME/ggufed/commands" ]
ok $? "the command history is saved under \$XDG_STATE_HOME/ggufed"

# The message log: a message longer than the screen is whole in :messages
# (M), oldest first.
run messages "keys 2/" "type ^general\\.name " "keys <Enter>e" \
    "type Logged" "keys <Enter>" "keys :" "type nosuchcommand" "keys <Enter>" \
    "size 50x20" "keys w" "dump messages-line" "size 200x20" \
    "keys M" "dump messages-log" "keys q:" "type messages" "keys <Enter>" \
    "dump messages-cmd" "keys qq"
grep -q 'saved m.gguf' "$scratch/messages-line.txt" &&
    ! grep -q 'MiB in' "$scratch/messages-line.txt"
ok $? "at 50 columns the status line cuts the save's message"
shows messages-log 'tensor data unchanged' "M shows the message whole"
grep -q '[0-9][0-9]:[0-9][0-9]:[0-9][0-9] saved m.gguf in place: ' \
    "$scratch/messages-log.txt" && grep -q 'MiB in' "$scratch/messages-log.txt"
ok $? "... with its time, outcome first, to the end" ||
    sed 's/^/# /' "$scratch/messages-log.txt"
line_of() { grep -n "$1" "$scratch/messages-log.txt" | head -1 | cut -d: -f1; }
[ -n "$(line_of nosuchcommand)" ] && [ -n "$(line_of 'saved m.gguf')" ] &&
    [ "$(line_of nosuchcommand)" -lt "$(line_of 'saved m.gguf')" ]
ok $? "oldest first" || sed 's/^/# /' "$scratch/messages-log.txt"
shows messages-cmd 'tensor data unchanged' ":messages shows it too"

# The preview's value search takes a value as short as the grid shows it:
# 0.9287 is element 8 of blk.0.attn_norm.weight (0.928706884).
run findshort "keys 4/" "type blk.0.attn_norm" "keys <Enter><Enter>" "wait" \
    "keys /" "type 0.9287" "keys <Enter>" "wait" "dump findshort-found" \
    "keys qq"
shows findshort-found '0.9287 found at [8,0,0,0]' "a short value finds the element it is the short form of"
# 0.9 (one digit: within 0.05) first finds element 1, 0.869745433: the
# status line says so; a refused value leaves 0.9 to n, which finds
# element 2 (0.878846288).
run findround "keys 4/" "type blk.0.attn_norm" "keys <Enter><Enter>" "wait" \
    "keys /" "type 0.9" "keys <Enter>" "wait" "dump findround-found" \
    "keys /" "type abc" "keys <Enter>" "dump findround-refused" \
    "keys n" "wait" "dump findround-next" "keys qq"
shows findround-found '0.9 found at [1,0,0,0]: 0.869745433, which is 0.9 to the digits typed' "a value found by rounding: the status line names it and why"
shows findround-refused 'abc: not a number' "a value that is no number is refused"
shows findround-next '0.9 found at [2,0,0,0]' "n after a refused value looks for the last good one"

# A dialog at 80x24: the columns beside the box are blank on its rows (a
# cut row's ellipsis used to show in the last column).
run dialog80 "size 80x24" "keys 2/" "type ^general\\.name " "keys <Enter>e" \
    "type X" "keys <Enter>q" "dump dialog80-ask" "keys <Esc>:" "type q!" \
    "keys <Enter>"
grep -q '\[s\]ave and quit' "$scratch/dialog80-ask.txt" &&
    ! grep '\[s\]ave and quit' "$scratch/dialog80-ask.txt" | grep -q '…$'
ok $? "no ellipsis of the rows beneath beside the dialog" ||
    sed 's/^/# /' "$scratch/dialog80-ask.txt"

done_testing
