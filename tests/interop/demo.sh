#!/bin/sh
# demo.sh - the bundled demo model is what its generator writes, ggufed
# opens it without a warning, and ggml loads it whole, writes it back to
# the same bytes, and reads plausible numbers from every tensor.
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
[ -f "$demo" ] || skip_all "no demo model"

"$TESTS_BUILDDIR/tools/mkdemo" "$scratch/demo.gguf" >"$scratch/mkdemo.out"
ok $? "the generator runs"
cmp -s "$demo" "$scratch/demo.gguf"
ok $? "the committed demo model is what the generator writes"

"$GGUFED" info "$demo" >"$scratch/info.txt" 2>&1
ok $? "ggufed info opens it"
! grep -q '^warnings' "$scratch/info.txt"
ok $? "without warnings"

if ! "$ORACLE" version >/dev/null 2>&1; then
	echo "# ggml oracle unavailable: ggml checks skipped"
	done_testing
	exit
fi

"$ORACLE" dump "$demo" >"$scratch/oracle.txt" 2>"$scratch/oracle.err"
ok $? "ggml reads it"
grep -q '^layout.full_load ok$' "$scratch/oracle.txt"
ok $? "ggml loads it whole"
"$TESTS_BUILDDIR/interop/ggml_view" "$demo" >"$scratch/ours.txt" 2>&1
diff "$scratch/oracle.txt" "$scratch/ours.txt" >/dev/null 2>&1
ok $? "ggufed's reader agrees with ggml"
"$ORACLE" rewrite "$demo" "$scratch/rewritten.gguf" >/dev/null 2>&1 &&
    cmp -s "$demo" "$scratch/rewritten.gguf"
ok $? "ggml writes it back to the same bytes"

# Weights: mean near 0, deviation between 0.01 and 0.2. Norms: mean
# between 0.5 and 2.
sed -n 's/^tensor [0-9]* "\([^"]*\)" \([a-z0-9_A-Z]*\) .*/\1 \2/p' \
    "$scratch/oracle.txt" >"$scratch/tensors"
while read -r name type; do
	"$ORACLE" dequant "$demo" "$name" 2>/dev/null | awk -v n="$name" '
	    { s += $1; q += $1 * $1; c++ }
	    END {
		if (c == 0) exit 1
		m = s / c; sd = sqrt(q / c - m * m)
		printf "# %s: n=%d mean=%.5f std=%.5f\n", n, c, m, sd
		if (n ~ /norm/) exit !(m > 0.5 && m < 2)
		exit !(m > -0.005 && m < 0.005 && sd > 0.01 && sd < 0.2)
	    }'
	ok $? "$name ($type): plausible values"
done <"$scratch/tensors"
done_testing
