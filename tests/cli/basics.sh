#!/bin/sh
# basics.sh - the read-only subcommands: info, dump, get. Exit codes, the
# one-line error format, escaping (no raw control bytes ever reach stdout),
# valid JSON, and values checked against known fixture contents.
. "$TESTS_SRCDIR/lib.sh"

jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
fx="$SHARED_DIR/fixtures"

# Count of bytes that must never be printed raw: C0 controls but \n, and DEL.
raw_controls() {
	LC_ALL=C tr -cd '\000-\011\013-\037\177' <"$1" | wc -c
}

"$GGUFED" --version >"$scratch/out"; ok $? "--version exits 0"
grep -q '^ggufed [0-9]' "$scratch/out"; ok $? "--version names the program"
# The second line names the llama.cpp release of models.tsv's rules, the
# one its header names.
rel=$(sed -n '/^#.*node-llama-cpp 3\.22\.1/,/^#$/p' \
    "$TESTS_SRCDIR/../assets/models.tsv" | tr '\n' ' ' |
    sed -n 's/.*llama\.cpp release \(v[0-9.]*\).*/\1/p')
[ -n "$rel" ] && [ "$(sed -n 2p "$scratch/out")" = "model check and mem follow llama.cpp $rel (commit 0ad4a86, as shipped in node-llama-cpp 3.22.1)" ]
ok $? "--version names the llama.cpp release of the model check and mem"
"$GGUFED" --help >"$scratch/out"; ok $? "--help exits 0"
grep -q 'info' "$scratch/out"; ok $? "--help lists the commands"
"$GGUFED" >/dev/null 2>&1; [ $? -eq 2 ]; ok $? "no arguments: exit 2"
"$GGUFED" frobnicate x >/dev/null 2>"$scratch/err"; [ $? -eq 2 ]; ok $? "unknown command: exit 2"
grep -q "unknown command 'frobnicate'" "$scratch/err"; ok $? "unknown command is named"
"$GGUFED" info >/dev/null 2>&1; [ $? -eq 2 ]; ok $? "info without FILE: exit 2"
"$GGUFED" dump --bogus x >/dev/null 2>&1; [ $? -eq 2 ]; ok $? "dump with an unknown option: exit 2"
"$GGUFED" get x >/dev/null 2>&1; [ $? -eq 2 ]; ok $? "get without KEY: exit 2"

"$GGUFED" info "$scratch/missing.gguf" >/dev/null 2>"$scratch/err"; [ $? -eq 1 ]
ok $? "missing file: exit 1"
[ "$(cat "$scratch/err")" = "ggufed: $scratch/missing.gguf: No such file or directory" ]
ok $? "missing file: one line naming the file and the problem"
# A message is written whole, in one write: commands running at once
# into one log (appended to) cannot mix their lines. Written a byte at a
# time, two 3 KB messages interleave.
c=$(printf '%0200d' 0)
long="/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/x"
: >"$scratch/log"
i=0
while [ $i -lt 8 ]; do
	"$GGUFED" info "$scratch/a$long.gguf" >/dev/null 2>>"$scratch/log" &
	"$GGUFED" info "$scratch/b$long.gguf" >/dev/null 2>>"$scratch/log" &
	i=$((i + 1))
done
wait
[ "$(grep -c "^ggufed: $scratch/a$long.gguf: No such file or directory\$" "$scratch/log")" -eq 8 ] &&
    [ "$(grep -c "^ggufed: $scratch/b$long.gguf: No such file or directory\$" "$scratch/log")" -eq 8 ] &&
    [ "$(wc -l <"$scratch/log")" -eq 16 ]
ok $? "messages of commands run at once into one log stay whole lines"

# "--" ends the options of every command: a file whose name starts with
# a dash is given after it.
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
if [ -f "$demo" ]; then
	cp "$demo" "$scratch/-m.gguf"
	for c in "info" "info --json" "dump" "get|general.name" \
	    "cat|output_norm.weight" "stats|output_norm.weight" \
	    "tokens --id 5" "mem" "template" "validate" "hash"; do
		# the words before "--" and after the file, split at |
		pre=${c%%|*}
		post=
		case $c in *"|"*) post=${c#*|} ;; esac
		# shellcheck disable=SC2086
		(cd "$scratch" && "$GGUFED" $pre -- -m.gguf $post \
		    >/dev/null 2>"$scratch/err")
		ok $? "$pre -- -m.gguf $post" || sed 's/^/# /' "$scratch/err"
	done
fi
"$GGUFED" info "$scratch" >/dev/null 2>"$scratch/err"; [ $? -eq 1 ]
ok $? "a directory: exit 1"
grep -q 'not a regular file' "$scratch/err"; ok $? "a directory is not a regular file"
: >"$scratch/empty.gguf"
"$GGUFED" info "$scratch/empty.gguf" >/dev/null 2>"$scratch/err"; [ $? -eq 1 ]
ok $? "empty file: exit 1"
grep -q 'offset 0x0: empty file' "$scratch/err"; ok $? "empty file says so"
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 7\n' >"$scratch/lfs.gguf"
"$GGUFED" info "$scratch/lfs.gguf" >/dev/null 2>"$scratch/err"; [ $? -eq 1 ]
ok $? "Git LFS pointer: exit 1"
grep -q 'Git LFS pointer' "$scratch/err"; ok $? "Git LFS pointer is recognised"
printf 'GGUF\003\000\000\000\033]52;c;aGk=\007' >"$scratch/esc.gguf"
"$GGUFED" info "$scratch/esc.gguf" >/dev/null 2>"$scratch/err"
[ "$(raw_controls "$scratch/err")" -eq 0 ]; ok $? "error text carries no raw control bytes"

# A name of 400,000 bytes: info shows its first 200 and its length, not
# the whole of it (a value can be gigabytes).
if [ -f "$demo" ]; then
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "ab" }' \
	    >"$scratch/long.txt"
	"$GGUFED" set "$demo" general.name @"$scratch/long.txt" \
	    -o "$scratch/long.gguf" -q
	"$GGUFED" info "$scratch/long.gguf" >"$scratch/info"
	line=$(grep '^name ' "$scratch/info")
	[ ${#line} -lt 260 ] && printf '%s\n' "$line" |
	    grep -q 'abab\.\.\. (400000 bytes)$'
	ok $? "info: a name of 400,000 bytes is cut, its length said"
fi

[ -d "$fx" ] || { done_testing; exit $?; }

for f in "$fx"/ggml/*.gguf "$fx"/real/*.gguf; do
	n=$(basename "$f")
	"$GGUFED" info "$f" >"$scratch/info" 2>"$scratch/err"
	rc=$?
	if [ $rc -eq 0 ]; then
		[ "$(raw_controls "$scratch/info")" -eq 0 ]
		ok $? "$n: info escapes everything"
		"$GGUFED" dump "$f" >"$scratch/dump" 2>"$scratch/err"
		ok $? "$n: dump exits 0"
		[ "$(raw_controls "$scratch/dump")" -eq 0 ]
		ok $? "$n: dump escapes everything"
		"$GGUFED" dump --json "$f" >"$scratch/json" 2>"$scratch/err" &&
		    "$jsoncheck" <"$scratch/json"
		ok $? "$n: dump --json is valid JSON"
	else
		[ $rc -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
		    grep -q "^ggufed: .*$n: offset 0x[0-9a-f]*: " "$scratch/err"
		ok $? "$n: refused with one error line and an offset"
		"$GGUFED" dump --json "$f" >/dev/null 2>&1; [ $? -eq 1 ]
		ok $? "$n: dump refuses it too"
	fi
done

tiny="$fx/real/TinyStories-656K-Q8_0.gguf"
"$GGUFED" info "$tiny" >"$scratch/info"
grep -q '^architecture llama$' "$scratch/info"; ok $? "info: architecture"
grep -q '^  Layers  *[0-9]' "$scratch/info" &&
    grep -q '^  Chat template  *\(yes\|no\)$' "$scratch/info"
ok $? "info: the model's hyper-parameters (layers, chat template)"
grep -q '^tensors      20$' "$scratch/info"; ok $? "info: tensor count"
grep -q '^kv pairs     34$' "$scratch/info"; ok $? "info: KV count"
grep -q '^format       GGUF v3, little-endian$' "$scratch/info"; ok $? "info: format"
grep -Eq '^Q8_0 +15 ' "$scratch/info"; ok $? "info: 15 Q8_0 tensors"
grep -Eq '^Q8_0 .* 8\.50$' "$scratch/info"; ok $? "info: Q8_0 is 8.5 bits per weight"
grep -q 'tensor data        0x000000c6a0 - 0x00000b70a0' "$scratch/info"; ok $? "info: data section"

"$GGUFED" info "$fx/real/threatflux-test_model-zero-offsets.gguf" >"$scratch/info"
grep -q 'overlaps tensor' "$scratch/info"; ok $? "info: overlapping tensors warned"
grep -q '512512 bytes after the end' "$scratch/info"; ok $? "info: trailing bytes warned"
"$GGUFED" info "$fx/real/weight-inspect-tiny-header-only.gguf" >"$scratch/info"
grep -q 'no tensor data is present' "$scratch/info"; ok $? "info: missing data warned"
"$GGUFED" dump "$fx/real/weight-inspect-tiny-header-only.gguf" | grep -q 'unreadable$'
ok $? "dump: tensor without data marked unreadable"

# dump's findings: the levels and words of info's, each finding once.
zo="$fx/real/threatflux-test_model-zero-offsets.gguf"
"$GGUFED" info "$zo" | sed -n 's/^  \(note\|warning\|error\)  *offset \(0x[0-9a-f]*\): /\1 offset=\2 /p' \
    >"$scratch/info-findings"
"$GGUFED" dump "$zo" | grep -E '^(note|warning|error) offset=' \
    >"$scratch/dump-findings"
[ -s "$scratch/info-findings" ] && grep -q '^error ' "$scratch/dump-findings" &&
    grep -q '^note ' "$scratch/dump-findings" &&
    cmp -s "$scratch/info-findings" "$scratch/dump-findings"
ok $? "dump: findings with info's levels and words"
"$GGUFED" dump --json "$zo" | grep -q '"level": "error", "offset": [0-9]*, "message": '
ok $? "dump --json: each finding has its level"

kv="$fx/ggml/kv.gguf"
"$GGUFED" dump "$kv" >"$scratch/dump"
grep -q '^kv 20 test.f32.inf f32 inf$' "$scratch/dump"; ok $? "dump: f32 inf"
grep -q '^kv 37 test.bool.true bool true$' "$scratch/dump"; ok $? "dump: bool"
grep -q '^kv 4 test.i8.min i8 -128$' "$scratch/dump"
ok $? "dump: i8"
grep -q '"test.key with spaces"' "$scratch/dump"; ok $? "dump: odd keys are quoted"
grep -q '^tensor 3 kv.q8_0 Q8_0 ' "$scratch/dump"; ok $? "dump: tensor line"
"$GGUFED" dump --max-array 2 "$fx/ggml/big-vocab.gguf" >"$scratch/dump"
grep -q '^kv [0-9]* tokenizer.ggml.tokens arr\[str\] n=150,000 \[.*, .*, \.\.\. (149,998 more)\]$' "$scratch/dump"
ok $? "dump --max-array cuts arrays and says how much is left"
"$GGUFED" dump --json --max-array 3 "$fx/ggml/big-vocab.gguf" | "$jsoncheck"
ok $? "dump --json --max-array is valid JSON"

"$GGUFED" get "$kv" test.u64.max >"$scratch/out"
[ "$(cat "$scratch/out")" = 18446744073709551615 ]; ok $? "get: u64 max"
"$GGUFED" get "$kv" test.f64.pi >"$scratch/out"
[ "$(cat "$scratch/out")" = 3.1415926535897931 ]; ok $? "get: f64 to 17 digits"
"$GGUFED" get "$fx/ggml/big-vocab.gguf" tokenizer.ggml.tokens >"$scratch/out"
[ "$(wc -l <"$scratch/out")" -eq 150000 ]; ok $? "get: array one element per line"
"$GGUFED" get "$fx/ggml/big-vocab.gguf" tokenizer.chat_template --raw >"$scratch/out" 2>/dev/null ||
    "$GGUFED" get --raw "$fx/ggml/big-vocab.gguf" tokenizer.chat_template >"$scratch/out"
[ "$(wc -c <"$scratch/out")" -eq 5161 ]; ok $? "get --raw: the template's exact bytes"
"$GGUFED" get "$fx/ggml/big-vocab.gguf" tokenizer.chat_template >"$scratch/out"
[ "$(wc -l <"$scratch/out")" -eq 1 ]; ok $? "get: a multi-line string is escaped to one line"
"$GGUFED" get --json "$kv" test.arr.f32 | "$jsoncheck"; ok $? "get --json: valid JSON"
"$GGUFED" get "$kv" no.such.key >/dev/null 2>"$scratch/err"; [ $? -eq 1 ]
ok $? "get: missing key exits 1"
grep -q 'no key "no.such.key"' "$scratch/err"; ok $? "get: missing key is named"

done_testing
