#!/bin/sh
# replay.sh - every kept fuzz corpus file and every crash input ever found,
# fed once to its target through the plain replay driver (no fuzzing
# engine needed), under the build's sanitizers. The open target also gets
# the hostile-file corpus and the shared fixtures.
. "$TESTS_SRCDIR/lib.sh"

src="$TESTS_SRCDIR/fuzz"
bin="$TESTS_BUILDDIR/fuzz"
mkdir -p "$scratch/hostile"
"$TESTS_BUILDDIR/hostile/gen_hostile" "$scratch/hostile" >/dev/null 2>&1
rm -f "$scratch/hostile/expect.tsv"
fixtures=
for f in "$SHARED_DIR"/fixtures/ggml/*.gguf; do
	[ -f "$f" ] && [ "$(wc -c <"$f")" -le 1048576 ] && fixtures="$fixtures $f"
done

# replay TARGET PATHS...: one test point per target.
replay() {
	t=$1
	shift
	"$bin/replay_$t" "$@" >"$scratch/$t.tap" 2>"$scratch/$t.err"
	rc=$?
	n=$(grep -c '^ok' "$scratch/$t.tap")
	ok $rc "replay_$t: $n inputs"
	if [ $rc -ne 0 ]; then
		tail -3 "$scratch/$t.tap" | sed 's/^/# /'
		head -40 "$scratch/$t.err" | sed 's/^/# /'
	fi
}

# shellcheck disable=SC2086
replay open "$src/corpus/open" "$src/crashes/open" "$scratch/hostile" \
    $fixtures
replay edit "$src/corpus/edit" "$src/crashes/edit"
replay dequant "$src/corpus/dequant" "$src/crashes/dequant"
replay template "$src/corpus/template" "$src/crashes/template"
replay http "$src/corpus/http" "$src/crashes/http"
replay hcache "$src/corpus/hcache" "$src/crashes/hcache"
replay model "$src/corpus/model" "$src/crashes/model"
done_testing
