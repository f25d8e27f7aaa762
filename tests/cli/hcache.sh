#!/bin/sh
# hcache.sh - the header cache ($XDG_CACHE_HOME/ggufed/headers) is
# believed only when its directories and its file are the user's own, not
# links, that neither group nor others can write, the file a regular one:
# anything else is ignored (and never written through) with one warning,
# and the header is read from the server as if there were no cache. In a
# cache folder shared with another user, a header planted there would
# otherwise be believed, the server's 304 confirming the identity it
# names. What another user plants is written as the user nobody (the
# tests run as root; those are skipped otherwise).
. "$TESTS_SRCDIR/lib.sh"

"$GGUFED" info http://127.0.0.1:1/x.gguf 2>"$scratch/nocurl.err"
grep -q "no URL support" "$scratch/nocurl.err" &&
    skip_all "a build without URL support"
. "$TESTS_SRCDIR/cli/remote.lib"
remote_start
umask 022

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
cp_w "$demo" "$www/files/m.gguf"
U=$ORIGIN/files/m.gguf

# cache DIR: the file the cache keeps the header of $U in, under DIR
cache_file() {
	ls "$1"/ggufed/headers/*.gguf-header 2>/dev/null | head -1
}

# An honest cache first: the header kept, then the file the name is in.
XDG_CACHE_HOME=$scratch/own
export XDG_CACHE_HOME
"$GGUFED" get "$U" general.name >"$scratch/out" 2>"$scratch/err" &&
    [ "$(cat "$scratch/out")" = "Demo Llama" ] && [ ! -s "$scratch/err" ]
ok $? "a header read over the network, kept in the cache"
honest=$(cache_file "$scratch/own")
[ -n "$honest" ] && [ "$(stat -c %a "$honest")" = 600 ]
ok $? "the cache file is the user's own, mode 0600"
# The forgery: the same file with another name in its header (the same
# length), the identity still the server's, so that its 304 confirms it.
LC_ALL=C sed 's/Demo Llama/Evil Llama/' "$honest" >"$scratch/forged"
! cmp -s "$honest" "$scratch/forged"
ok $? "a forged header of the same length, another name in it"
base=$(basename "$honest")

# get_name WHAT: get general.name reads the server's name, one warning
# that names the cache and says why; the server was asked for the header.
get_name() {
	log_mark
	timeout 20 "$GGUFED" get "$U" general.name >"$scratch/out" \
	    2>"$scratch/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(cat "$scratch/out")" = "Demo Llama" ] &&
	    [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
	    grep -q "^ggufed: warning: header cache .*: $1.*: not used" \
	    "$scratch/err" && [ "$(log_bytes origin)" -gt 0 ]
	ok $? "$2" || sed 's/^/# /' "$scratch/out" "$scratch/err"
}

# Ours, but writable by the group: not believed.
cp "$scratch/forged" "$honest"
chmod 660 "$honest"
get_name "is writable by its group" "a cache file its group can write: ignored"
# A FIFO where the file would be: never waited on.
rm -f "$honest"
mkfifo "$honest"
get_name "is not a regular file" "a FIFO in the cache: ignored, not waited on"
rm -f "$honest"
# A link to the forgery: not followed.
cp "$scratch/forged" "$scratch/forged.kept"
chmod 600 "$scratch/forged.kept"
ln -s "$scratch/forged.kept" "$honest"
get_name "is a symbolic link" "a link in the cache: not followed"
rm -f "$honest"

# headers/ a link: never written through.
mkdir "$scratch/elsewhere"
rm -rf "$scratch/own/ggufed/headers"
ln -s "$scratch/elsewhere" "$scratch/own/ggufed/headers"
get_name "is a symbolic link" "headers/ a link: the header read anew"
[ -z "$(ls -A "$scratch/elsewhere")" ]
ok $? "nothing is written where headers/ leads" ||
    ls -lA "$scratch/elsewhere" | sed 's/^/# /'
rm -f "$scratch/own/ggufed/headers"

# --no-cache: no warning, nothing read nor written.
"$GGUFED" --no-cache get "$U" general.name >/dev/null 2>"$scratch/err" &&
    [ ! -s "$scratch/err" ]
ok $? "--no-cache: no word about the cache"

# ------------------------------------------------ another user's files
if [ "$(id -u)" -ne 0 ]; then
	for i in 1 2 3; do
		skip "not root: no file of another user can be made"
	done
elif ! command -v runuser >/dev/null 2>&1; then
	for i in 1 2 3; do
		skip "runuser is not installed (to write as the user nobody)"
	done
else
	chmod 755 "$scratch"
	shared=$scratch/shared
	mkdir "$shared" && chmod 1777 "$shared"
	cp "$scratch/forged" "$scratch/forged.pub"
	chmod 644 "$scratch/forged.pub"
	runuser -u nobody -- sh -c 'umask 022; mkdir -p "$1/ggufed/headers" &&
	    cp "$2" "$1/ggufed/headers/$3"' sh "$shared" \
	    "$scratch/forged.pub" "$base"
	XDG_CACHE_HOME=$shared
	get_name "belongs to nobody" \
	    "a shared cache folder: the header planted by another user is not believed"
	[ "$(stat -c %U "$shared/ggufed/headers/$base")" = nobody ] &&
	    cmp -s "$scratch/forged" "$shared/ggufed/headers/$base"
	ok $? "nor is it written over"
	# Our own directories, the file in them another user's.
	XDG_CACHE_HOME=$scratch/own
	mkdir -m 700 "$scratch/own/ggufed/headers"
	cp "$scratch/forged" "$honest"
	chown nobody "$honest"
	chmod 644 "$honest"
	get_name "is owned by nobody" "a cache file of another user: ignored"
fi
done_testing
