#!/bin/sh
# json.sh - every --json output is exactly one JSON document that a real
# JSON parser reads (python3's json module, and the strict jsoncheck),
# over the demo model, every shared fixture and a file of hostile names;
# the fields the manual documents are there with their types; text that
# is not valid UTF-8 comes back byte for byte through the lone surrogates
# \udcHH (surrogateescape), as the manual says.
. "$TESTS_SRCDIR/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
fx="$SHARED_DIR/fixtures"
out="$scratch/out"

# one FILE: FILE holds exactly one JSON document (python3 refuses a second
# one as "Extra data") and jsoncheck agrees.
one() {
	python3 -c 'import json, sys; json.load(sys.stdin)' <"$1" 2>"$scratch/py" &&
	    "$jsoncheck" <"$1"
}

# py SCRIPT FILE ARGS...: runs the python SCRIPT over the document in FILE
# (as `doc`); the script fails with an assertion.
py() {
	s=$1 f=$2
	shift 2
	python3 -c "
import json, math, sys
doc = json.load(open(sys.argv[1], encoding='utf-8'))
def b(s):	# a JSON string back to the bytes it stands for
	return s.encode('utf-8', 'surrogateescape')
$s" "$f" "$@"
}

# ---------------------------------------------------- every command, one doc
files="$demo"
for d in "$fx/real" "$fx/ggml"; do
	[ -d "$d" ] && files="$files $(ls "$d"/*.gguf)"
done
# Every output is kept, then read by one python3 (it is slow to start).
n=0
: >"$scratch/list"
for f in $files; do
	for c in "info --json" "dump --json --max-array 2" \
	    "validate --json" "stats --json --all"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$GGUFED" $c "$f" >"$scratch/doc.$n" 2>/dev/null
		rc=$?
		# a file that does not open prints nothing but its error,
		# except validate, which reports it
		if [ -s "$scratch/doc.$n" ] || [ "${c#validate}" != "$c" ] ||
		    [ $rc -eq 0 ]; then
			"$jsoncheck" <"$scratch/doc.$n" 2>/dev/null ||
			    echo "jsoncheck: $c $f" >>"$scratch/bad"
			printf '%s\t%s %s\n' "$scratch/doc.$n" "$c" "$f" \
			    >>"$scratch/list"
		fi
	done
done
python3 -c '
import json, sys
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
	path, what = line.rstrip("\n").split("\t")
	try:
		json.load(open(path, encoding="utf-8"))
	except Exception as e:
		print("python3: %s: %s" % (what, e))
' "$scratch/list" >>"$scratch/bad"
# With the shared fixtures, well over a hundred documents; the demo alone
# gives its four.
want=4
[ -d "$fx/ggml" ] && want=121
[ ! -s "$scratch/bad" ] && [ "$(wc -l <"$scratch/list")" -ge $want ]
ok $? "info, dump, validate, stats --json: one document for each file$(
    [ -s "$scratch/bad" ] && printf '; not for:\n'; sed 's/^/# /' "$scratch/bad" 2>/dev/null)"

# several files and several tensors are still one document
"$GGUFED" validate --json $files >"$out" 2>/dev/null
one "$out" && py 'assert isinstance(doc, list) and len(doc) == int(sys.argv[2])' \
    "$out" "$(echo $files | wc -w)"
ok $? "validate --json with $(echo $files | wc -w) files: one array, an object per file"
"$GGUFED" stats --json "$demo" token_embd.weight output.weight \
    blk.0.attn_q.weight >"$out"
one "$out" && py '
assert doc["file"].endswith(".gguf")
assert [t["tensor"] for t in doc["tensors"]] == ["token_embd.weight",
    "output.weight", "blk.0.attn_q.weight"]' "$out"
ok $? "stats --json with three tensors: one document, the tensors in order"
"$GGUFED" stats --json --all "$demo" >"$out"
one "$out" && py 'assert len(doc["tensors"]) == 39' "$out"
ok $? "stats --json --all: one document with the 39 tensors"

# --------------------------------------------------- the documented fields
"$GGUFED" info --json "$demo" >"$out"
one "$out" && py '
S, N, L, D = str, int, list, dict
want = {"file": S, "file_size": N, "version": N, "byte_order": S,
    "alignment": N, "kv_count": N, "tensor_count": N, "architecture": S,
    "name": S, "file_type": D, "sections": L, "parameters": N,
    "tensor_bytes": N, "types": L, "findings": L, "model": D}
for k, t in want.items():
	assert isinstance(doc[k], t), k
assert doc["file_size"] == 2842080 and doc["version"] == 3
assert doc["byte_order"] == "little" and doc["alignment"] == 32
assert doc["kv_count"] == 36 and doc["tensor_count"] == 39
assert doc["architecture"] == "llama" and doc["name"] == "Demo Llama"
assert doc["file_type"] == {"id": 15, "name": "MOSTLY_Q4_K_M"}
assert [s["section"] for s in doc["sections"]] == ["header", "kv",
    "tensor_info", "padding", "data"]
assert all(s["bytes"] == s["to"] - s["from"] for s in doc["sections"])
assert doc["sections"][-1]["to"] == doc["file_size"]
assert doc["parameters"] == 3934464
assert sum(t["tensors"] for t in doc["types"]) == 39
assert sum(t["bytes"] for t in doc["types"]) == doc["tensor_bytes"]
q4 = [t for t in doc["types"] if t["type"] == "Q4_K"][0]
assert q4 == {"type": "Q4_K", "type_id": 12, "tensors": 17,
    "bytes": 1290240, "elements": 2293760, "bpw": 4.5}, q4
assert doc["findings"] == []
assert doc["model"] == {"context_length": "2048", "embedding_length": "256",
    "block_count": "4", "head_count": "8", "head_count_kv": "4",
    "rope_freq_base": "10000", "vocabulary": "3,072 tokens",
    "tokenizer": "llama", "chat_template": "yes"}, doc["model"]' "$out"
ok $? "info --json: every field of info, with its type and value"
"$GGUFED" info "$demo" >"$scratch/text"
grep -q "^parameters   3,934,464 (3.93 M)$" "$scratch/text" &&
    grep -q "^Q4_K  *17  *1,290,240 " "$scratch/text"
ok $? "info --json and info agree (parameters, a type's row)"
"$GGUFED" info --json "$scratch/none.gguf" >"$out" 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -s "$out" ] && grep -q "No such file" "$scratch/err"
ok $? "info --json of a missing file: the error on stderr, exit 1"
"$GGUFED" info --bogus "$demo" >/dev/null 2>&1
[ $? -eq 2 ]; ok $? "info --bogus: exit 2"

"$GGUFED" dump --json "$demo" >"$out"
one "$out" && py '
assert set(doc) == {"file", "version", "byte_order", "alignment",
    "file_size", "tensor_info_offset", "data_offset", "kv", "tensors",
    "warnings"}, set(doc)
assert len(doc["kv"]) == 36 and len(doc["tensors"]) == 39
kv = {e["key"]: e for e in doc["kv"]}
t = kv["tokenizer.ggml.tokens"]
assert t["type"] == "arr[str]" and t["value"]["count"] == 3072
assert len(t["value"]["values"]) == 3072
assert kv["general.name"]["value"] == "Demo Llama"
e = doc["tensors"][0]
assert set(e) == {"name", "type", "type_id", "shape", "elements", "bytes",
    "offset", "abs_offset", "readable"}
assert e["abs_offset"] == doc["data_offset"] + e["offset"]' "$out"
ok $? "dump --json: the header, every kv and tensor, their fields"

"$GGUFED" validate --json "$demo" "$scratch/none.gguf" >"$out" 2>&1
[ $? -eq 1 ] && one "$out" && py '
assert [d["opened"] for d in doc] == [True, False]
for d in doc:
	assert set(d) == {"file", "findings", "errors", "warnings", "notes",
	    "opened"} | ({"kind"} if d["opened"] else set())
assert doc[0]["kind"] == "model"
assert doc[1]["errors"] == 1 and doc[1]["findings"][0]["level"] == "error"
assert doc[1]["findings"][0]["offset"] is None' "$out"
ok $? "validate --json: a file that does not open is in the array too"

# ---------------------------------------------------------- hostile names
# A file whose keys, strings and tensor names hold quotes, backslashes
# (alone and in what reads like an escape), control characters, C1
# controls, a bidirectional override and invalid UTF-8; its file name
# too. Written by python, so the expected bytes are known exactly.
python3 - "$scratch" <<'EOF' || exit 1
import os, struct, sys
H = [b'q"uote', b'back\\slash', b'two\\\\back', b'esc \\x41 \\n \\u00e9',
    b'ctl \x01\x1b[31m\x7f', b'nl\n\ttab\r', b'bad \xff\xfe \xc0\xaf',
    b'surrogate \xed\xa0\x80', b'cut \xe2\x82', b'c1 \xc2\x9b',
    b'bidi \xe2\x80\xae', b'utf8 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82']
def s(x): return struct.pack('<Q', len(x)) + x
kv = [(b'general.architecture', 8, s(b'llama')),
    (b'general.name', 8, s(H[0] + H[1] + H[6])),
    (b'h.nan', 6, struct.pack('<f', float('nan'))),
    (b'h.inf', 12, struct.pack('<d', float('-inf'))),
    (b'h.arr', 9, struct.pack('<IQ', 8, len(H)) + b''.join(s(x) for x in H)),
    (b'h.nested', 9, struct.pack('<IQ', 9, 2) +
        struct.pack('<IQ', 4, 2) + struct.pack('<II', 1, 2) +
        struct.pack('<IQ', 4, 1) + struct.pack('<I', 3))]
kv += [(b'k.' + x, 8, s(x)) for x in H]
body = b''.join(s(k) + struct.pack('<I', t) + v for k, t, v in kv)
ti = b''
for i, x in enumerate(H):
	ti += s(b't.' + x) + struct.pack('<IQIQ', 1, 4, 0, 16 * i)
head = b'GGUF' + struct.pack('<IQQ', 3, len(H), len(kv))
data = head + body + ti
data += b'\0' * (-len(data) % 32)
for i in range(len(H)):
	data += struct.pack('<4f', float('nan'), float('inf'), -1.5, i)
name = os.path.join(sys.argv[1].encode(), b'host"ile\\ \xff.gguf')
open(name, 'wb').write(data)
open(os.path.join(sys.argv[1], 'h.py'), 'w').write('H = %r\n' % H)
EOF
h=$(ls "$scratch"/host*.gguf)
HP="import sys; sys.path.insert(0, '$scratch'); from h import H"

"$GGUFED" dump --json "$h" >"$out"
one "$out" && py "$HP"'
kv = {b(e["key"]): e for e in doc["kv"]}
for x in H:
	assert b(kv[b"k." + x]["value"]) == x, (x, kv[b"k." + x]["value"])
assert [b(v) for v in kv[b"h.arr"]["value"]["values"]] == H
assert kv[b"h.nan"]["value"] == "nan" and kv[b"h.inf"]["value"] == "-inf"
n = kv[b"h.nested"]["value"]
assert n["elem_type"] == "arr" and n["count"] == 2
assert [a["values"] for a in n["values"]] == [[1, 2], [3]]
assert [b(t["name"]) for t in doc["tensors"]] == [b"t." + x for x in H]
assert b(doc["file"]) == sys.argv[2].encode("utf-8", "surrogateescape")
' "$out" "$h"
ok $? "dump --json: hostile keys, strings, names and the file name round-trip"
grep -q '"k.bad \\udcff\\udcfe \\udcc0\\udcaf"' "$out" &&
    grep -q '"k.c1 \\u009b"' "$out" && grep -q '"k.bidi \\u202e"' "$out" &&
    grep -q '"k.ctl \\u0001\\u001b\[31m\\u007f"' "$out" &&
    grep -q '"k.back\\\\slash"' "$out" && grep -q '"k.two\\\\\\\\back"' "$out"
ok $? "dump --json: invalid bytes as \\udcHH, controls as \\u00XX, one \\\\ a backslash"
"$GGUFED" info --json "$h" >"$out"
one "$out" && py "$HP"'
assert b(doc["name"]) == H[0] + H[1] + H[6]' "$out"
ok $? "info --json: a hostile name round-trips"
"$GGUFED" get --json "$h" h.nested >"$out"
one "$out" && py '
assert doc == {"type": "arr[arr]", "value": [[1, 2], [3]]}, doc' "$out"
ok $? "get --json: a nested array is nested lists, not nulls"
"$GGUFED" stats --json --all "$h" >"$out"
one "$out" && py "$HP"'
assert [b(t["tensor"]) for t in doc["tensors"]] == [b"t." + x for x in H]
t = doc["tensors"][0]
assert t["nan"] == 1 and t["pinf"] == 1 and t["min"] == -1.5' "$out"
ok $? "stats --json: hostile tensor names round-trip"
"$GGUFED" validate --json "$h" >"$out"
one "$out" && py "$HP"'
assert b(doc[0]["file"]) == sys.argv[2].encode("utf-8", "surrogateescape")
assert doc[0]["notes"] >= 1' "$out" "$h"
ok $? "validate --json: a hostile file name round-trips"

# -------------------------------------------------- backslashes, once
# A key holding a backslash and a quote is written the same way, each
# escaped once, by get, dump, validate, an edit's error and the browser's
# Checks; a core message is never escaped again.
k='x.back\slash"q'
cp_w "$demo" "$scratch/bs.gguf"
"$GGUFED" set "$scratch/bs.gguf" "$k:str" 'C:\dir' -i -q 2>/dev/null
want='"x.back\\slash\"q"'
"$GGUFED" get "$scratch/bs.gguf" "$k" >"$out"
[ "$(cat "$out")" = 'C:\\dir' ]
ok $? "get: a backslash in a value is escaped once"
"$GGUFED" dump "$scratch/bs.gguf" >"$out"
grep -qF "kv 36 $want str \"C:\\\\dir\"" "$out"
ok $? "dump: the key and the value escaped once"
"$GGUFED" validate "$scratch/bs.gguf" >"$out"
grep -qF "note: key $want breaks the naming rules" "$out"
ok $? "validate: the key in a finding as dump writes it"
"$GGUFED" get "$scratch/bs.gguf" "${k}z" 2>"$out"
"$GGUFED" rm "$scratch/bs.gguf" "${k}z" -n 2>>"$out"
[ "$(grep -cF "no key ${want%\"}z\"" "$out")" -eq 2 ]
ok $? "get and rm of a missing key name it the same way"
printf 'size 160x40\nkeys G\ndump %s\n' "$scratch/screen" >"$scratch/script"
GGUFED_SCRIPT=$scratch/script "$GGUFED" "$scratch/bs.gguf" 2>/dev/null
grep -qF "key $want breaks the naming rules" "$scratch/screen"
ok $? "browser Checks: the finding's key escaped once, not twice"

# ------------------------------------------------- thousands separators
# Counts and sizes in human output are grouped the same way everywhere:
# info, dump, stats and the browser's Summary, Metadata and Tensors.
python3 - "$scratch/many.gguf" <<'EOF' || exit 1
import struct, sys
def s(x): return struct.pack('<Q', len(x)) + x
kv = b''.join(s(b'k.n%04d' % i) + struct.pack('<IB', 0, 1) for i in range(1200))
ti = b''.join(s(b't.%04d' % i) + struct.pack('<IQIQ', 1, 1, 0, 32 * i)
    for i in range(1001))
d = b'GGUF' + struct.pack('<IQQ', 3, 1001, 1200) + kv + ti
d += b'\0' * (-len(d) % 32) + b'\0' * 32 * 1001
open(sys.argv[1], 'wb').write(d)
EOF
"$GGUFED" info "$scratch/many.gguf" >"$out"
grep -q '^kv pairs     1,200$' "$out" && grep -q '^tensors      1,001$' "$out" &&
    grep -q '^F32           1,001 ' "$out"
ok $? "info: the key and tensor counts and a type's tensors grouped"
"$GGUFED" dump "$scratch/many.gguf" | head -1 >"$out"
grep -q ' 1,200 kv pairs, 1,001 tensors, ' "$out"
ok $? "dump: the header line's counts grouped"
"$GGUFED" stats "$demo" token_embd.weight >"$out"
grep -q '^count    786,432$' "$out" && grep -q '^finite   786,432$' "$out" &&
    grep -q ' 214,425 #' "$out"
ok $? "stats: counts and histogram bins grouped"
printf '%s\n' 'size 100x30' "dump $scratch/s1" 'keys <Tab>' "dump $scratch/s2" \
    'keys <Tab>' "dump $scratch/s3" >"$scratch/script"
GGUFED_SCRIPT=$scratch/script "$GGUFED" "$scratch/many.gguf" 2>/dev/null
grep -q 'KV pairs  *1,200' "$scratch/s1" && grep -q 'Tensors  *1,001' "$scratch/s1" &&
    grep -q 'F32  *1,001 tensors' "$scratch/s1" &&
    grep -q '1,200 key-value pairs' "$scratch/s2" &&
    grep -q '1,200 keys' "$scratch/s2" &&
    grep -q '1,001 tensors in ' "$scratch/s3"
ok $? "browser: Summary, Metadata and Tensors counts grouped"

done_testing
