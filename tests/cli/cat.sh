#!/bin/sh
# cat.sh - `ggufed cat` and `ggufed stats`.
#
# Every tensor of every fixture file with expected values prints, through
# `ggufed cat`, numbers that read back to ggml's float32 values bit for bit
# (NaN as NaN), one row per line. Random row/column windows print exactly
# the same text as the same slice of the whole tensor. On the real model
# files, F16, Q8_0 and F32 tensors print the same text as ggml's own
# conversion (`oracle dequant`). Then --slice, --raw, the error messages
# (closest names, valid ranges) and the statistics command.
. "$TESTS_SRCDIR/lib.sh"

fx="$SHARED_DIR/fixtures/ggml"
real="$SHARED_DIR/fixtures/real"
f32cmp="$TESTS_BUILDDIR/cli/f32cmp"
jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
[ -f "$fx/expected.tsv" ] || skip_all "no fixtures in SHARED_DIR"
tab=$(printf '\t')

# ----------------------------------------------------------- every tensor
tail -n +2 "$fx/expected.tsv" >"$scratch/tsv"
while IFS="$tab" read -r file tensor type tid ne0 ne1 ne2 ne3 nbytes sha f32 src; do
	[ "$f32" = "-" ] && continue
	nelem=$((ne0 * ne1 * ne2 * ne3))
	nrows=$((ne1 * ne2 * ne3))
	[ "$ne0" -eq 0 ] && nrows=0
	"$GGUFED" cat "$fx/$file" "$tensor" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	n=$("$f32cmp" "$fx/$f32" <"$scratch/out" 2>"$scratch/cmperr")
	good=$?
	lines=$(wc -l <"$scratch/out")
	width=$(awk 'NF != w { print NF; exit }' w="$ne0" "$scratch/out")
	[ "$rc" -eq 0 ] && [ "$good" -eq 0 ] && [ "$n" = "$nelem" ] &&
	    [ "$lines" -eq "$nrows" ] && [ -z "$width" ]
	ok $? "cat $file $tensor ($type): $nelem values bit for bit, $nrows rows"
	[ "$good" -eq 0 ] || sed 's/^/# /' "$scratch/cmperr" "$scratch/err"
done <"$scratch/tsv"

# ---------------------------------------------------------- random windows
# Three windows per tensor of types.gguf, drawn by awk with a fixed seed.
awk -F"$tab" '$1 == "types.gguf" || $1 == "internal-types.gguf" {
	srand(7 + NR)
	rows = $6 * $7 * $8
	for (k = 0; k < 3; k++) {
		a = int(rand() * rows); b = a + 1 + int(rand() * (rows - a))
		c = int(rand() * $5); d = c + 1 + int(rand() * ($5 - c))
		print $1 "\t" $2 "\t" a "\t" b "\t" c "\t" d
	}
}' "$scratch/tsv" >"$scratch/windows"
full=""
while IFS="$tab" read -r file tensor a b c d; do
	if [ "$full" != "$file/$tensor" ]; then
		"$GGUFED" cat "$fx/$file" "$tensor" >"$scratch/full"
		full="$file/$tensor"
	fi
	awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" 'NR > a && NR <= b {
		for (i = c + 1; i <= d; i++)
			printf "%s%s", $i, (i < d ? " " : "\n")
	}' "$scratch/full" >"$scratch/want"
	"$GGUFED" cat "$fx/$file" "$tensor" --rows "$a:$b" --cols "$c:$d" \
	    >"$scratch/got"
	cmp -s "$scratch/got" "$scratch/want"
	ok $? "cat $tensor --rows $a:$b --cols $c:$d is that slice of the whole"
done <"$scratch/windows"

# ------------------------------------------------------- against ggml itself
if [ -n "${ORACLE:-}" ] && "$ORACLE" version >/dev/null 2>&1; then
	for f in TinyStories-656K-Q8_0.gguf TinyStories-656K.f16.gguf \
	    ollama-llama-2-tiny-random.gguf stories260K.gguf; do
		[ -f "$real/$f" ] || continue
		"$ORACLE" dump "$real/$f" | awk '$1 == "tensor" &&
		    ($4 == "f16" || $4 == "f32" || $4 == "q8_0") {
			n = $3; gsub(/"/, "", n); print n "\t" $4 }' \
		    >"$scratch/names"
		while IFS="$tab" read -r t type; do
			"$ORACLE" dequant "$real/$f" "$t" >"$scratch/ggml"
			"$GGUFED" cat "$real/$f" "$t" | tr ' ' '\n' \
			    >"$scratch/ours"
			[ -s "$scratch/ggml" ] && cmp -s "$scratch/ggml" "$scratch/ours"
			ok $? "$f $t ($type): same text as oracle dequant"
		done <"$scratch/names"
	done
else
	echo "# oracle not available: comparisons with ggml skipped"
fi

# ------------------------------------------------------------------ slices
"$GGUFED" cat "$fx/shapes.gguf" shape.4d_2x3x4x5 >"$scratch/full"
"$GGUFED" cat "$fx/shapes.gguf" shape.4d_2x3x4x5 --slice 1,2 >"$scratch/got"
sed -n '28,30p' "$scratch/full" | cmp -s - "$scratch/got"
ok $? "--slice 1,2 is the matrix at dims 2 and 3 = 1, 2 (rows 27:30)"
"$GGUFED" cat "$fx/shapes.gguf" shape.4d_2x3x4x5 --slice 1,2 --rows 1: \
    >"$scratch/got"
sed -n '29,30p' "$scratch/full" | cmp -s - "$scratch/got"
ok $? "--rows count within the slice"
"$GGUFED" cat "$fx/shapes.gguf" shape.4d_2x3x4x5 --slice 3 --rows 0 \
    >"$scratch/got"
sed -n '10p' "$scratch/full" | cmp -s - "$scratch/got"
ok $? "--slice I alone means J = 0; --rows N is one row"
"$GGUFED" cat "$fx/shapes.gguf" shape.4d_2x3x4x5 --slice 4,0 \
    >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'valid 0:4, 0:5' "$scratch/err"
ok $? "slice out of range: exit 2, the valid range named"

# --------------------------------------------------------------- raw view
"$GGUFED" cat "$fx/kv.gguf" kv.q8_0 --raw --rows 1 --cols 40:41 \
    >"$scratch/raw"
ok $? "--raw on Q8_0 exits 0"
[ "$(grep -c '^# row 1, block 1: columns 32:64' "$scratch/raw")" -eq 1 ] &&
    [ "$(cut -f1 "$scratch/raw" | awk '$1 == "q" { print NF - 1 }')" = 32 ] &&
    grep -q "^d [0-9.e-]*$tab# block scale" "$scratch/raw"
ok $? "--raw shows the one block holding the window: d and 32 quants"
"$GGUFED" cat "$fx/kv.gguf" kv.q8_0 --rows 1 --cols 32:64 >"$scratch/vals"
awk 'NR == FNR && $1 == "d" { d = $2 }
    NR == FNR && $1 == "q" { for (i = 2; i <= 33; i++) q[i - 1] = $i }
    NR != FNR { for (i = 1; i <= 32; i++) {
	e = q[i] * d - $i; if (e < 0) e = -e
	if (e > 1e-6 * (d < 0 ? -d : d) * 128) bad = 1 }
	n = NF }
    END { exit bad || n != 32 }' "$scratch/raw" "$scratch/vals"
ok $? "--raw: q * d gives the printed values of the block"
"$GGUFED" cat "$fx/shapes.gguf" shape.3d_mid_one_4x1x3 --raw --rows 0 \
    >"$scratch/raw"
grep -Eq '^0x[0-9a-f]{4} 0x[0-9a-f]{4} 0x[0-9a-f]{4} 0x[0-9a-f]{4}$' \
    "$scratch/raw"
ok $? "--raw on F16: the stored halves in hex"

# ------------------------------------------------------------------ errors
"$GGUFED" cat "$fx/types.gguf" t.Q4_k >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'no tensor "t.Q4_k"; closest: "t.Q4_K"' "$scratch/err"
ok $? "unknown tensor: exit 1, the closest names suggested"
[ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "unknown tensor: one line"
"$GGUFED" cat "$fx/types.gguf" t.Q4_K --rows 3:9 >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'rows 3:9 out of range: the tensor has 4 rows (valid 0:4)$' "$scratch/err"
ok $? "rows out of range: exit 2, the tensor's rows and the valid range named"
"$GGUFED" cat "$fx/types.gguf" t.Q4_K --rows 9: >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'rows 9: out of range: the tensor has 4 rows (valid 0:4)$' "$scratch/err"
ok $? "rows 9: (no end): the range as given, not 9:4" || sed 's/^/# /' "$scratch/err"
"$GGUFED" cat "$fx/types.gguf" t.Q4_K --cols 0:513 >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'columns 0:513 out of range: the tensor has 512 columns (valid 0:512)$' "$scratch/err"
ok $? "columns out of range: exit 2, the tensor's columns and the valid range named"
"$GGUFED" cat "$fx/types.gguf" t.Q4_K --rows x >/dev/null 2>&1
[ $? -eq 2 ]; ok $? "a bad range: exit 2"
"$GGUFED" cat "$fx/types.gguf" >/dev/null 2>&1
[ $? -eq 2 ]; ok $? "cat without TENSOR: exit 2"
"$GGUFED" cat "$fx/zero-elem.gguf" zero.ne_0x4 >"$scratch/out"
[ $? -eq 0 ] && [ ! -s "$scratch/out" ]
ok $? "a tensor without elements prints nothing"

# ------------------------------------------------------------------- stats
"$GGUFED" stats "$fx/types.gguf" --all >"$scratch/all"
[ $? -eq 0 ] && [ "$(wc -l <"$scratch/all")" -eq 33 ] &&
    [ "$(grep -c 'count=2,048 ' "$scratch/all")" -eq 33 ]
ok $? "stats --all: one line per tensor"
"$GGUFED" stats "$fx/types.gguf" --all --json >"$scratch/json"
"$jsoncheck" <"$scratch/json" &&
    [ "$(grep -c '^    {"tensor": ' "$scratch/json")" -eq 33 ]
ok $? "stats --all --json: one JSON document, an object per tensor"
"$GGUFED" stats "$fx/types.gguf" --all --threads 1 >"$scratch/t1"
"$GGUFED" stats "$fx/types.gguf" --all --threads 2 >"$scratch/t2"
cmp -s "$scratch/t1" "$scratch/t2" && cmp -s "$scratch/t1" "$scratch/all"
ok $? "--threads 1 and 2 print the same"
# Q8_0, Q4_0 and Q4_K are read from their codes: what decoding them prints,
# but the last digits of the standard deviation (rounded fewer times).
for t in t.Q8_0 t.Q4_0 t.Q4_K; do
	"$GGUFED" stats "$fx/types.gguf" $t >"$scratch/codes"
	GGUFED_STATS=decode "$GGUFED" stats "$fx/types.gguf" $t >"$scratch/dec"
	cmp -s "$scratch/codes" "$scratch/dec"
	ok $? "stats $t: the report of the decoded values, byte for byte"
	"$GGUFED" stats "$fx/types.gguf" $t --json >"$scratch/codes"
	GGUFED_STATS=decode "$GGUFED" stats "$fx/types.gguf" $t --json \
	    >"$scratch/dec"
	a=$(grep -o '"std": [^,}]*' "$scratch/codes" | sed 's/.*: //')
	b=$(grep -o '"std": [^,}]*' "$scratch/dec" | sed 's/.*: //')
	sed 's/"std": [^,}]*//' "$scratch/codes" >"$scratch/codes.rest"
	sed 's/"std": [^,}]*//' "$scratch/dec" >"$scratch/dec.rest"
	cmp -s "$scratch/codes.rest" "$scratch/dec.rest" && [ -n "$a" ] &&
	    awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d
		exit !(d <= 1e-12 * b) }'
	ok $? "stats $t --json: the bytes of the decoded values', the std \
($a, decoded $b) within 1e-12"
done
"$GGUFED" stats "$fx/shapes.gguf" special.f32 --json >"$scratch/json"
grep -q '"count": 16, "finite": 11, "zeros": 2, "nan": 3, "pinf": 1, "ninf": 1' \
    "$scratch/json"
ok $? "special.f32: NaN, infinities and zeros counted"
"$GGUFED" cat "$fx/types.gguf" t.Q6_K >"$scratch/vals"
want=$(awk '{ for (i = 1; i <= NF; i++) { s += $i; n++ } }
    END { printf "%.6e", s / n }' "$scratch/vals")
got=$("$GGUFED" stats "$fx/types.gguf" t.Q6_K --json | grep '"mean": ' |
    sed 's/.*"mean": \([^,]*\),.*/\1/' | awk '{ printf "%.6e", $1 }')
[ "$got" = "$want" ]
ok $? "stats mean of t.Q6_K ($got) is the mean of the printed values ($want)"
"$GGUFED" stats "$fx/types.gguf" t.F32 t.Q8_0 >"$scratch/rep"
[ $? -eq 0 ] && [ "$(grep -c '^histogram' "$scratch/rep")" -eq 2 ] &&
    [ "$(grep -c '^  ' "$scratch/rep")" -eq 128 ]
ok $? "named tensors: a report each, with a 64-bin histogram"
"$GGUFED" stats "$fx/types.gguf" t.F32 --rows 2:3 --json >"$scratch/json"
grep -q '"count": 512, "finite": 512, "zeros": 64,' "$scratch/json"
ok $? "--rows 2:3: row 2 alone (64 exact zeros)"
# Percentiles: within one fine bin, (max - min) / 4096, of the exact
# nearest-rank percentiles of the values cat prints.
for t in t.Q6_K t.Q4_K t.F16; do
	"$GGUFED" cat "$fx/types.gguf" $t | tr -s ' \t' '\n\n' |
	    grep -v '^$' | sort -g >"$scratch/sorted"
	"$GGUFED" stats "$fx/types.gguf" $t --json >"$scratch/json"
	bad=$(for p in 1 5 50 95 99; do
		v=$(grep -o "\"p$p\": [^,]*" "$scratch/json" | sed 's/.*: //')
		echo "$p $v"
	done | awk -v f="$scratch/sorted" '
	BEGIN { while ((getline x <f) > 0) v[++n] = x; lo = v[1]; hi = v[n]
		bound = (hi - lo) / 4096 * 1.000001 }
	{ k = $1 / 100 * n; k = (k == int(k)) ? k : int(k) + 1
	  if (k < 1) k = 1
	  d = $2 - v[k]; if (d < 0) d = -d
	  if ($2 == "" || d > bound)
		printf "p%s %s, exact %s, bound %g; ", $1, $2, v[k], bound }')
	[ -z "$bad" ]
	ok $? "stats $t --json: p1 p5 p50 p95 p99 within (max - min) / 4096 \
of the exact ones $bad"
done
"$GGUFED" stats "$fx/types.gguf" t.Q6_K >"$scratch/rep"
"$GGUFED" stats "$fx/types.gguf" t.Q6_K --json >"$scratch/json"
[ "$(grep -c '^p[0-9]* *-*[0-9]' "$scratch/rep")" -eq 5 ] &&
    grep -q "^p50 *$(grep -o '"p50": [^,]*' "$scratch/json" |
    sed 's/.*: //' | awk '{ printf "%.6g", $1 }')\$" "$scratch/rep"
ok $? "the report shows the five percentiles, as --json has them"
"$GGUFED" stats "$fx/types.gguf" --all | grep -c ' p1=.* p5=.* p50=.* p95=.* p99=.* zeros=' |
    grep -qx 33
ok $? "stats --all: the percentiles on every line"
"$GGUFED" stats "$fx/shapes.gguf" special.f32 --json | grep -q '"p50": '
ok $? "special.f32 (NaN, infinities): percentiles of the finite values"
"$GGUFED" stats "$fx/types.gguf" t.f32 >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'closest: "t.F32"' "$scratch/err"
ok $? "stats of an unknown tensor: exit 1, closest names"
"$GGUFED" stats "$fx/types.gguf" >/dev/null 2>&1
[ $? -eq 2 ]; ok $? "stats without tensors or --all: exit 2"
"$GGUFED" stats "$fx/types.gguf" t.F32 --rows 9:10 >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'valid 0:4' "$scratch/err"
ok $? "stats rows out of range: exit 1, valid range named"

# A percentile that falls on the zeros is 0 exactly: the demo's q, k and v
# weights of block 0 have their median on a zero.
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
for t in blk.0.attn_q.weight blk.0.attn_k.weight blk.0.attn_v.weight; do
	"$GGUFED" cat "$demo" $t | tr -s ' \t' '\n\n' | grep -v '^$' |
	    sort -g >"$scratch/sorted"
	n=$(wc -l <"$scratch/sorted")
	want=$(sed -n "$(( (n + 1) / 2 ))p" "$scratch/sorted")
	got=$("$GGUFED" stats "$demo" $t --json |
	    grep -o '"p50": [^,]*' | sed 's/.*: //')
	[ "$want" = 0 ] && [ "$got" = 0 ]
	ok $? "stats $t: the median is 0 exactly, as sorting says (got $got)"
done

# On several threads, --all runs the small tensors side by side, a thread
# each: the same lines, in the same order, as on one thread. The bundled
# model has tensors of every size; rows 1:300 fail those with fewer rows.
for j in "" --json; do
	"$GGUFED" stats "$demo" --all $j --threads 1 >"$scratch/t1"
	"$GGUFED" stats "$demo" --all $j --threads 3 >"$scratch/t3"
	[ "$(grep -c 'count' "$scratch/t1")" -eq 39 ] &&
	    cmp -s "$scratch/t1" "$scratch/t3"
	ok $? "stats --all $j: 3 threads print what 1 does, tensor for tensor"
done
"$GGUFED" stats "$demo" --all --rows 1:300 --threads 1 >"$scratch/t1"
r1=$?
"$GGUFED" stats "$demo" --all --rows 1:300 --threads 3 >"$scratch/t3"
r3=$?
[ $r1 -eq 1 ] && [ $r3 -eq 1 ] && cmp -s "$scratch/t1" "$scratch/t3" &&
    [ "$(grep -c 'error: rows 1:300 out of range' "$scratch/t3")" -eq 29 ] &&
    [ "$(grep -c 'count=76,544 ' "$scratch/t3")" -eq 10 ]
ok $? "stats --all --rows 1:300: the tensors with fewer rows fail in their \
place, the others report, on 3 threads as on 1"
# One tensor of several chunks (65,536 values each) is cut among the
# threads, both passes, the exact percentiles' too: the same bytes on 1,
# 2, 3 and 4 threads. token_embd.weight is Q4_K, output.weight Q6_K (12
# chunks each), and output.weight as F32 too.
"$GGUFED" convert "$demo" output.weight f32 -o "$scratch/f32.gguf" \
    >/dev/null 2>&1
for tt in "Q4_K $demo token_embd.weight" "Q6_K $demo output.weight" \
    "F32 $scratch/f32.gguf output.weight"; do
	# shellcheck disable=SC2086
	set -- $tt
	"$GGUFED" stats --threads 1 "$2" "$3" >"$scratch/t1" 2>&1
	r=$?
	for n in 2 3 4; do
		"$GGUFED" stats --threads $n "$2" "$3" >"$scratch/tn" 2>&1 &&
		    cmp -s "$scratch/t1" "$scratch/tn" || r=1
	done
	[ $r -eq 0 ] && grep -q "^type     $1\$" "$scratch/t1" &&
	    grep -q '^count    786,432$' "$scratch/t1"
	ok $? "stats $3 ($1, 12 chunks): 1, 2, 3 and 4 threads print the \
same bytes"
done
"$GGUFED" stats "$demo" blk.0.attn_norm.weight token_embd.weight \
    --rows 1:3 >"$scratch/rep" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'out of range' "$scratch/err" &&
    [ "$(head -c 7 "$scratch/rep")" = "tensor " ]
ok $? "stats: the first tensor failing, the next report has no blank \
line before it"
"$GGUFED" stats "$demo" token_embd.weight --rows 5:5 --json >"$scratch/json"
[ "$(grep -o '"edges": \[[^]]*\]' "$scratch/json" | grep -o '"nan"' |
    wc -l)" -eq 65 ]
ok $? "stats of no rows: every histogram edge NaN, as of no finite value"

# f32file FILE V...: a GGUF of one F32 tensor "t" holding the values V,
# each given as the four bytes of its bits, least significant first, in
# octal (1.0 is "000 000 200 077").
f32file() {
	out=$1
	shift
	n=$(($# / 4))
	{
		printf 'GGUF\003\000\000\000\001\000\000\000\000\000\000\000'
		printf '\000\000\000\000\000\000\000\000'
		printf '\001\000\000\000\000\000\000\000t\001\000\000\000'
		printf "\\$(printf %03o "$n")"'\000\000\000\000\000\000\000'
		printf '\000\000\000\000\000\000\000\000\000\000\000\000'
		printf '\000\000\000\000\000\000\000'
		for b in "$@"; do printf "\\$b"; done
	} >"$out"
}
f32file "$scratch/one234.gguf" 000 000 200 077 000 000 000 100 \
    000 000 100 100 000 000 200 100
"$GGUFED" stats "$scratch/one234.gguf" t --json >"$scratch/json"
grep -q '"p1": 1,' "$scratch/json" && grep -q '"p50": 2,' "$scratch/json" &&
    grep -q '"p99": 4,' "$scratch/json"
ok $? "stats of 1, 2, 3, 4: p1 1, p50 2, p99 4 exactly"
f32file "$scratch/half.gguf" 000 000 000 077 000 000 000 077 \
    000 000 000 077 000 000 000 077
"$GGUFED" stats "$scratch/half.gguf" t >"$scratch/rep"
grep -q '^histogram (one value)' "$scratch/rep" &&
    [ "$(grep -c '^  ' "$scratch/rep")" -eq 1 ] &&
    grep -Eq '^ +0\.5 +4 #+$' "$scratch/rep"
ok $? "stats of four values 0.5: one histogram line, 0.5 and its count"
"$GGUFED" stats "$demo" blk.0.attn_norm.weight --json >"$scratch/json"
"$GGUFED" cat "$demo" blk.0.attn_norm.weight 2>/dev/null |
    tr -s ' \t' '\n\n' | grep -v '^$' | sort -g >"$scratch/sorted" || true
n=$(wc -l <"$scratch/sorted")
want=$(sed -n "$(( (99 * n + 99) / 100 ))p" "$scratch/sorted")
got=$(grep -o '"p99": [^,]*' "$scratch/json" | cut -d' ' -f2)
[ "$n" -gt 0 ] && [ "$(printf %.9g "$got")" = "$want" ]
ok $? "stats of the demo's blk.0.attn_norm.weight: p99 is the value of its rank ($got, $want)"

# A reversed range is a usage error that says so, in cat and stats alike
# (cat called it out of range, stats printed the statistics of no value).
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
for c in "cat|--rows 5:2|the end comes before the start" \
    "cat|--cols 9:3|the end comes before the start" \
    "stats|--rows 10:3|the end comes before the start"; do
	cmd=${c%%|*}; rest=${c#*|}; opt=${rest%%|*}; want=${rest#*|}
	# shellcheck disable=SC2086
	"$GGUFED" "$cmd" "$demo" output.weight $opt >/dev/null 2>"$scratch/err"
	[ $? -eq 2 ] && grep -qF -- "$opt" "$scratch/err" &&
	    grep -qF -- "$want" "$scratch/err"
	ok $? "$cmd $opt: exit 2, \"$want\"" || sed 's/^/# /' "$scratch/err"
done

# A tensor whose data lies past the end of a cut file: cat names the
# offset validate names (its data offset's field), not another.
head -c 100000 "$demo" >"$scratch/cut.gguf"
"$GGUFED" cat "$scratch/cut.gguf" output.weight --rows 0:1 >/dev/null \
    2>"$scratch/err"
rc=$?
at=$("$GGUFED" validate "$scratch/cut.gguf" 2>&1 |
    sed -n 's/.*:\(0x[0-9a-f]*\): error: tensor "output.weight": data.*/\1/p')
[ $rc -eq 1 ] && [ -n "$at" ] &&
    grep -q "offset $at: tensor \"output.weight\": data lies beyond the end" \
    "$scratch/err"
ok $? "cat of a tensor past the end: the offset validate gives ($at)" ||
    sed 's/^/# /' "$scratch/err"

done_testing
