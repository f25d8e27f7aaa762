#!/bin/sh
. "$TESTS_SRCDIR/lib.sh"
"$GGUFED" --version >/dev/null; ok $? "--version"
done_testing
