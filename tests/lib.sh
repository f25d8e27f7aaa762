# lib.sh - shared helpers for the shell tests (TAP output).
# Sourced by each test; the harness exports GGUFED, SHARED_DIR, ORACLE,
# TESTS_SRCDIR and TESTS_BUILDDIR.

tap_n=0
tap_failed=0

ok() {	# ok CONDITION-EXIT-STATUS DESCRIPTION (returns 1 on failure)
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
		return 1
	fi
}

skip() {	# skip REASON: one test point, skipped
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# shared_missing REL: the reason to skip what needs $SHARED_DIR/REL (the
# fixtures and the ggml oracle live outside the source tree; a plain
# clone has none).
shared_missing() {
	echo "no $1 in the shared folder (configure --with-shared=DIR)"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# cp_w SRC DST: a copy the test may write and save over. cp keeps the
# source's mode, and in a distcheck the source tree is read-only (a save
# refuses a read-only file unless forced).
cp_w() {
	cp "$1" "$2" && chmod u+w "$2"
}

# A fresh scratch directory, removed on exit.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ggufed-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# llama_libdir: sets libdir to the directory of llama.cpp's prebuilt
# library (the npm package the ggml oracle fetches), or skips the whole
# test saying why it cannot be had.
llama_libdir() {
	case "$(uname -sm)" in
	"Linux x86_64") ;;
	*) skip_all "llama.cpp's prebuilt library is for Linux x86-64" ;;
	esac
	fetch="$SHARED_DIR/tools/ggml-oracle/fetch-ggml.sh"
	[ -x "$fetch" ] ||
	    skip_all "$(shared_missing tools/ggml-oracle/fetch-ggml.sh)"
	libdir=$("$fetch" 2>"$scratch/fetch.err") ||
	    skip_all "llama.cpp's npm package could not be fetched (npm unreachable?): $(tail -1 "$scratch/fetch.err")"
	[ -f "$libdir/libllama.v0.5.0.so" ] ||
	    skip_all "no libllama.v0.5.0.so in $libdir"
}

# browser_env [LOCALE]: the environment of a browser a test runs: a fixed
# terminal type, the locale (C.UTF-8 unless given), UTC, a home and a
# state folder of the test's own, and nothing of the caller's that would
# change what it shows (colours off, a script, an editor).
browser_env() {
	TERM=xterm-256color LANG=${1:-C.UTF-8} LC_ALL=${1:-C.UTF-8} TZ=UTC
	HOME=$scratch/home XDG_STATE_HOME=$scratch/state
	mkdir -p "$HOME"
	export TERM LANG LC_ALL TZ HOME XDG_STATE_HOME
	unset NO_COLOR GGUFED_SCRIPT EDITRC VISUAL EDITOR
}
