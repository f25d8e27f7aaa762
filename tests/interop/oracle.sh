#!/bin/sh
# oracle.sh - ggufed's reader and ggml agree on every fixture ggml accepts:
# every key, type and value (arrays by hash), every tensor's name, type,
# shape, size, data hash and offset, and the layout. Files ggml refuses
# must still open in ggufed (with warnings) or fail with a clean error.
. "$TESTS_SRCDIR/lib.sh"

[ -d "$SHARED_DIR/fixtures" ] || skip_all "no shared fixtures"
"$ORACLE" version >/dev/null 2>&1 || skip_all "ggml oracle unavailable"
view="$TESTS_BUILDDIR/interop/ggml_view"

for f in "$SHARED_DIR"/fixtures/ggml/*.gguf "$SHARED_DIR"/fixtures/real/*.gguf; do
	name=$(basename "$f")
	"$ORACLE" dump "$f" >"$scratch/oracle.txt" 2>"$scratch/oracle.err"
	orc=$?
	"$view" "$f" >"$scratch/ours.txt" 2>"$scratch/ours.err"
	vrc=$?
	case $orc in
	0|3)
		# ggml reads it: the two views must be identical.
		diff "$scratch/oracle.txt" "$scratch/ours.txt" >"$scratch/diff" 2>&1
		rc=$?
		ok $rc "$name: reader agrees with ggml"
		[ $rc -eq 0 ] || sed 's/^/# /' "$scratch/diff" | head -20
		# ... and no finding of the reader says ggml refuses it
		# (a well-known key of the wrong type is an error for
		# llama.cpp, which checks types; ggml does not).
		"$GGUFED" info "$f" >"$scratch/info.txt" 2>&1
		! grep '^  error ' "$scratch/info.txt" |
		    grep -v 'llama.cpp refuses another type$' >"$scratch/errs"
		ok $? "$name: no finding at the error level but llama.cpp's key types"
		sed 's/^/# /' "$scratch/errs"
		;;
	*)
		# ggml refuses it: ggufed opens it with warnings or fails cleanly.
		"$GGUFED" info "$f" >"$scratch/info.txt" 2>"$scratch/info.err"
		irc=$?
		if [ $irc -eq 0 ]; then
			# An error-level finding: the level means "ggml
			# refuses it", and validate fails.
			grep -q '^  error  *offset 0x' "$scratch/info.txt" &&
			    ! "$GGUFED" validate -q "$f" >/dev/null 2>&1
			ok $? "$name: ggml refuses it, ggufed opens it and says why at the error level"
		else
			[ $irc -eq 1 ] && [ "$(wc -l <"$scratch/info.err")" -eq 1 ] &&
			    grep -q '^ggufed: .*: offset 0x[0-9a-f]*: ' "$scratch/info.err"
			ok $? "$name: ggml refuses it, ggufed gives one error line with an offset"
		fi
		;;
	esac
done
done_testing
