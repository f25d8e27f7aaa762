#!/bin/sh
# run.sh - runs each fuzz target for FUZZ_SECONDS (default 60) and fails on
# any finding. Needs a build configured with --enable-fuzzing; `make fuzz`
# runs it with the test environment.
#
# Seeds: the kept corpus and crash inputs of each target (tests/fuzz/
# corpus/TARGET, tests/fuzz/crashes/TARGET), the shared fixtures, the
# hostile-file corpus of gen_hostile and the demo model (wrapped in the
# target's input format where it has one). The working corpus grows in
# FUZZ_WORK (default: tests/fuzz/work in the build tree) and is kept from
# run to run. A crash input lands in FUZZ_WORK as TARGET-crash-*: copy it
# into tests/fuzz/crashes/TARGET/ once the bug is fixed, and `make check`
# replays it from then on.
#
#	FUZZ_SECONDS=3600 FUZZ_TARGETS="open" make fuzz	# an hour of one target
set -u

: "${FUZZ_SECONDS:=60}"
: "${FUZZ_TARGETS:=open edit dequant template http hcache model}"
: "${FUZZ_WORK:=$TESTS_BUILDDIR/fuzz/work}"
src="$TESTS_SRCDIR/fuzz"
fixtures="$SHARED_DIR/fixtures/ggml"
status=0

mkdir -p "$FUZZ_WORK" || exit 1
FUZZ_WORK=$(cd "$FUZZ_WORK" && pwd) || exit 1
seeds="$FUZZ_WORK/seeds"
rm -rf "$seeds"
mkdir -p "$seeds/files" "$seeds/open" "$seeds/edit" "$seeds/dequant" \
    "$seeds/template" "$seeds/http" "$seeds/hcache" "$seeds/model"

# Small GGUF files: fixtures under 64 KiB, the hostile corpus.
for f in "$fixtures"/*.gguf; do
	[ -f "$f" ] && [ "$(wc -c <"$f")" -le 65536 ] && cp "$f" "$seeds/files/"
done
"$TESTS_BUILDDIR/hostile/gen_hostile" "$seeds/files" >/dev/null 2>&1 ||
    echo "run.sh: gen_hostile failed; going on without its files" >&2
rm -f "$seeds/files/expect.tsv"
cp "$seeds/files"/* "$seeds/open/" 2>/dev/null
# The edit target takes a program-length byte first: 0 (save only), and a
# few fixed programs (set, rename, undo, save in place).
for f in "$seeds/files"/*.gguf; do
	b=$(basename "$f")
	{ printf '\000'; cat "$f"; } >"$seeds/edit/$b"
	{ printf '\010\000\000\000\013\005\000\000\003'; cat "$f"; } \
	    >"$seeds/edit/p-$b"
done
# The dequantizer: 2 KiB of each fixture's tensor bytes for every type id.
i=0
for f in "$seeds/files"/types.gguf "$seeds/files"/align64.gguf; do
	[ -f "$f" ] || continue
	for t in 0 1 2 3 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 \
	    24 25 26 27 28 29 30 34 35 39 40 41 42; do
		i=$((i + 1))
		{ printf "\\$(printf %03o "$t")\\000\\000\\000\\000\\001\\000"
		  tail -c 2048 "$f"; } >"$seeds/dequant/$i"
	done
done
# The model target: every architecture of the table (byte 0), unedited
# with the commands at the end, and with block_count set to 3 (step 0,
# key 0, edge 3, type u32).
i=0
while [ $i -lt 256 ]; do
	o=$(printf %03o $i)
	printf "\\$o\\000\\001" >"$seeds/model/a$i"
	printf "\\$o\\001\\000\\000\\000\\003\\000" >"$seeds/model/b$i"
	i=$((i + 1))
done

for t in $FUZZ_TARGETS; do
	bin="$TESTS_BUILDDIR/fuzz/fuzz_$t"
	if [ ! -x "$bin" ]; then
		echo "run.sh: $bin missing: configure with --enable-fuzzing" >&2
		exit 77
	fi
	corpus="$FUZZ_WORK/$t"
	mkdir -p "$corpus"
	dict=
	[ -f "$src/$t.dict" ] && dict="-dict=$src/$t.dict"
	# A template may be 1 MiB: its inputs may reach past that (a line
	# of many tags, a source the renderer refuses), the others' 64 KiB.
	maxlen=65536
	[ "$t" = template ] && maxlen=1048640
	echo "== fuzz_$t: $FUZZ_SECONDS s"
	# libFuzzer writes its job log (fuzz-0.log) to the current directory:
	# run in the work directory, so runs with their own FUZZ_WORK can go
	# side by side.
	(cd "$FUZZ_WORK" &&
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" \
	"$bin" -max_total_time="$FUZZ_SECONDS" -timeout=20 -rss_limit_mb=2560 \
	    -max_len=$maxlen -print_final_stats=1 -jobs=1 -workers=1 \
	    -artifact_prefix="$FUZZ_WORK/$t-" $dict \
	    "$corpus" "$seeds/$t" "$src/corpus/$t" "$src/crashes/$t" \
	    >"$FUZZ_WORK/$t.log" 2>&1)
	rc=$?
	grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|cov: .* ft:' \
	    "$FUZZ_WORK/$t.log" | tail -3
	if [ $rc -ne 0 ] || ls "$FUZZ_WORK/$t-"* >/dev/null 2>&1; then
		echo "fuzz_$t: FINDING (exit $rc); log: $FUZZ_WORK/$t.log"
		grep -E -A30 'ERROR|invariant broken|runtime error' \
		    "$FUZZ_WORK/$t.log" | head -60
		status=1
	fi
done
exit $status
