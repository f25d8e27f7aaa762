#!/bin/sh
# hostile.sh - ggufed against the hostile-file corpus.
#
# gen_hostile writes the corpus and expect.tsv (name, outcome, offset,
# substring). open_one checks the format core against it in process; then
# every file goes through `ggufed info`, `dump` and `dump --json`:
#
#   error  exit 1, stderr exactly "ggufed: FILE: offset 0xN: ..." with the
#          expected offset and substring
#   warn   exit 0, the warning listed by info at its offset
#   ok     exit 0, no warnings
#
# and never a crash, a sanitizer report or a timeout. Then every proper
# prefix of two small valid files (refused cleanly, unless the prefix holds
# all the tensor infos and opens with its data missing) and every byte of
# one of them set to 0x00, 0xff, 0x80 and itself + 1 (exit 0 or 1, nothing
# else). Each command runs under `timeout 10` and, where the build allows
# it (not under AddressSanitizer, which reserves terabytes of address
# space), under a 4 GB `ulimit -v`.
. "$TESTS_SRCDIR/lib.sh"

gen="$TESTS_BUILDDIR/hostile/gen_hostile"
open_one="$TESTS_BUILDDIR/hostile/open_one"
jsoncheck="$TESTS_BUILDDIR/tools/jsoncheck"
corpus="$scratch/corpus"

# Sanitizer findings get exit codes of their own, never 0 or 1.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:exitcode=87"
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}exitcode=88"
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS

command -v timeout >/dev/null 2>&1 || skip_all "no timeout(1)"

vlimit=4194304		# KiB
sh -c 'ulimit -v "$1" && "$0" --version; exit $?' "$GGUFED" $vlimit \
    >/dev/null 2>&1 || vlimit=

# run ARGS...: ggufed ARGS with the limits; rc, $scratch/out, $scratch/err.
run() {
	(
		[ -n "$vlimit" ] && ulimit -v $vlimit
		# Not exec'd: this shell reports a death by signal into err.
		timeout 10 "$GGUFED" "$@"
		exit $?
	) </dev/null >"$scratch/out" 2>"$scratch/err"
	rc=$?
}

# True if the last run ended by itself, with 0 or 1, and no report.
sane() {
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || return 1
	! grep -q -E 'Sanitizer|runtime error|AddressSanitizer' "$scratch/err"
}

# True if stderr is exactly one error line about file $1, at offset $2
# (any offset if empty), containing $3 (if not empty).
one_error() {
	[ "$(wc -l <"$scratch/err")" -eq 1 ] || return 1
	line=$(cat "$scratch/err")
	case $line in
	"ggufed: $1: offset ${2:-0x}"*": "*) ;;
	*) return 1 ;;
	esac
	if [ -n "$2" ]; then
		case $line in
		"ggufed: $1: offset $2: "*) ;;
		*) return 1 ;;
		esac
	fi
	[ -z "$3" ] || printf '%s\n' "$line" | grep -q -F -e "$3"
}

# check STATUS DESCRIPTION: a test point; a failure shows what the run saw.
check() {
	ok "$1" "$2"
	[ "$1" -eq 0 ] || show "$3"
}

# Shows what the last run saw, as TAP diagnostics.
show() {
	echo "#   exit $rc"
	sed -e 's/^/#   stderr: /' "$scratch/err" | head -n 5
	sed -e 's/^/#   stdout: /' "$scratch/out" | tail -n "${1:-5}"
}

mkdir "$corpus" || exit 1
"$gen" "$corpus" >/dev/null; ok $? "gen_hostile writes the corpus"
n=$(grep -c -v '^#' "$corpus/expect.tsv")
[ "$n" -ge 45 ]; ok $? "the corpus has $n files"

# ------------------------------------------------------------ the core alone
"$open_one" --check "$corpus" >"$scratch/check" 2>&1
ok $? "the reader agrees with expect.tsv (in process)"
grep -v '^ok' "$scratch/check" | grep -v '^1\.\.' | sed -e 's/^/# /'

# --------------------------------------------------------- ggufed, per file
tab=$(printf '\t')
while IFS="$tab" read -r name outcome off msg; do
	case $name in '#'*|'') continue ;; esac
	f="$corpus/$name"

	run info "$f"
	case $outcome in
	error)
		sane && [ "$rc" -eq 1 ] && [ ! -s "$scratch/out" ] &&
		    one_error "$f" "$off" "$msg"
		;;
	warn)
		sane && [ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] &&
		    grep -F "offset $off: " "$scratch/out" |
		    grep -q -F -e "$msg"
		;;
	*)
		sane && [ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] &&
		    ! grep -q '^warnings' "$scratch/out"
		;;
	esac
	st=$?
	desc="info $name: $outcome"
	[ "$outcome" = ok ] || desc="$desc at $off: $msg"
	check $st "$desc" 10

	for json in "" --json; do
		run dump $json "$f"
		if [ "$outcome" = error ]; then
			sane && [ "$rc" -eq 1 ] && one_error "$f" "$off" ""
		else
			sane && [ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] &&
			    { [ -z "$json" ] || [ ! -x "$jsoncheck" ] ||
			    "$jsoncheck" <"$scratch/out" >/dev/null 2>&1; }
		fi
		check $? "dump${json:+ $json} $name"
	done
done <"$corpus/expect.tsv"

# A tensor of no element whose offset lies past the end: every command
# that reads tensor data refuses it, as it refuses one with elements
# (stats once said count=0 and exit 0 where hash refused it).
f="$corpus/offset-past-eof-empty.gguf"
for c in "stats|$f w|1" "stats|--all $f|1" "cat|$f w|1" "hash|$f|2"; do
	cmd=${c%%|*}; rest=${c#*|}; args=${rest%|*}; want=${rest##*|}
	# shellcheck disable=SC2086
	run $cmd $args
	[ "$rc" -eq "$want" ] && ! grep -q -E 'Sanitizer|runtime error' \
	    "$scratch/err" && grep -q 'lies \(beyond\|past\) the end' \
	    "$scratch/err" "$scratch/out"
	check $? "$cmd ${args##*/}: a tensor of no element past the end refused (exit $want)"
done

# ------------------------------------------------------- every proper prefix
for base in valid-tiny valid-tiny-v1; do
	f="$corpus/$base.gguf"
	"$open_one" --prefixes "$f" >"$scratch/check" 2>&1
	st=$?
	ok $st "$base: every prefix, in process"
	[ "$st" -eq 0 ] || tail -n 20 "$scratch/check" | sed -e 's/^/#   /'

	ti_end=$("$open_one" --layout "$f" | sed -n 's/^ti_end //p')
	size=$(wc -c <"$f")
	bad=0
	i=0
	while [ "$i" -lt "$size" ]; do
		head -c "$i" "$f" >"$scratch/cut.gguf"
		run info "$scratch/cut.gguf"
		if ! sane || { [ "$rc" -eq 1 ] &&
		    ! one_error "$scratch/cut.gguf" "" ""; } ||
		    { [ "$i" -lt "$ti_end" ] && [ "$rc" -ne 1 ]; }; then
			echo "# prefix of $i bytes:"
			show
			bad=$((bad + 1))
		fi
		i=$((i + 1))
	done
	[ "$bad" -eq 0 ]; ok $? "$base: every prefix of $size bytes, ggufed info"
done

# ------------------------------------------------------------------ mutations
for base in valid-tiny valid-tiny-v1 valid-base valid-base-be; do
	"$open_one" --mutate "$corpus/$base.gguf" >"$scratch/check" 2>&1
	st=$?
	ok $st "$base: every byte mutated four ways, in process"
	[ "$st" -eq 0 ] || tail -n 20 "$scratch/check" | sed -e 's/^/#   /'
done

# Through ggufed: info on each mutant, and dump --json on those that open.
mkdir "$scratch/mutants" || exit 1
"$gen" --mutants "$corpus/valid-tiny.gguf" "$scratch/mutants"
ok $? "gen_hostile writes the mutants of valid-tiny"
bad=0
for m in "$scratch/mutants"/*.gguf; do
	run info "$m"
	if sane && [ "$rc" -eq 0 ]; then
		run dump --json "$m"
	fi
	if ! sane; then
		echo "# ${m##*/}:"
		show
		bad=$((bad + 1))
	fi
done
[ "$bad" -eq 0 ]; ok $? "valid-tiny: every byte mutated four ways, ggufed info and dump --json"

done_testing
