#!/bin/sh
# remote.sh - models read over HTTP: every read-only command on a URL as
# on the local file, what opening costs (requests and bytes, from the
# server's log), hf:// names and the token, and every error a server can
# give, against an nginx of the test's own on the loopback.

. "$TESTS_SRCDIR/lib.sh"

"$GGUFED" info http://127.0.0.1:1/x.gguf 2>"$scratch/nocurl.err"
if grep -q "no URL support" "$scratch/nocurl.err"; then
	grep -q "install libcurl4-openssl-dev and rebuild" "$scratch/nocurl.err"
	ok $? "a build without libcurl says how to get URL support"
	done_testing
	exit
fi

. "$TESTS_SRCDIR/cli/remote.lib"
remote_start
# the header cache of the test's own
XDG_CACHE_HOME=$scratch/cache
export XDG_CACHE_HOME

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
cp_w "$demo" "$www/files/m.gguf"
L=$www/files/m.gguf
U=$ORIGIN/files/m.gguf

# data_off FILE: where the data section starts (every byte of the
# header), or the file's size when it has no tensor data
data_off() {
	d=$("$GGUFED" info "$1" | awk '/^  tensor data/ { print $3 }')
	[ -n "$d" ] && echo $((d)) || wc -c <"$1" | tr -d ' '
}

# same NAME ARGS...: the command on the URL prints what it prints on the
# local file (the URL in place of the path), with the same exit status.
same() {
	what=$1
	shift
	"$GGUFED" "$@" >"$scratch/local.out" 2>&1
	ls=$?
	args=""
	for a in "$@"; do
		[ "$a" = "$L" ] && a=$U
		args="$args '$a'"
	done
	eval "\"\$GGUFED\" $args" >"$scratch/url.out" 2>&1
	us=$?
	sed "s|$U|$L|g" "$scratch/url.out" | cmp -s - "$scratch/local.out" &&
	    [ $ls -eq $us ]
	ok $? "$what: the same on the URL as on the file"
}

# ------------------------------------------------ the same output
same "info" info "$L"
same "info --json" info --json "$L"
same "dump" dump "$L"
same "dump --json" dump --json "$L"
same "get" get "$L" general.name
same "get an array" get "$L" tokenizer.ggml.merges
same "tokens" tokens "$L"
same "tokens --id" tokens "$L" --id 5 --id 300
same "template" template "$L"
same "mem" mem "$L" --ctx 1024,4096
same "validate" validate "$L"
same "validate --data" validate --data "$L"
same "cat" cat "$L" blk.1.attn_q.weight --rows 0:4
same "cat --raw" cat "$L" output_norm.weight --raw
same "stats" stats "$L" blk.0.ffn_down.weight
same "stats --all" stats "$L" --all
same "hash" hash "$L"
same "hash --sha256" hash --sha256 "$L"
"$GGUFED" diff "$U" "$L" >"$scratch/diff.out" 2>&1
ok $? "diff: the model at the URL equals the file"
"$GGUFED" diff --data "$L" "$U" >/dev/null 2>&1
ok $? "diff --data: equal too"

# ------------------------------------------------ what opening costs
log_mark
"$GGUFED" --no-cache get "$U" general.name >/dev/null
[ "$(log_count origin)" -eq 1 ]
ok $? "opening a model with a small header: one request"
[ "$(log_bytes origin)" -eq 2097152 ]
ok $? "opening it: one range of 2 MiB ($(log_bytes origin) bytes)"
grep -q '"bytes=0-2097151"' "$(log_file origin)"
ok $? "the range asked for is bytes=0-2097151"

head -c 3000000 /dev/zero | tr '\0' a >"$scratch/blob"
"$GGUFED" set "$L" test.blob:str @"$scratch/blob" -o "$www/files/big.gguf" \
    2>/dev/null
hdr=$(data_off "$www/files/big.gguf")
log_mark
"$GGUFED" get --no-cache "$ORIGIN/files/big.gguf" general.name >"$scratch/out"
ok $? "a header over 2 MiB opens"
[ "$(log_count origin)" -eq 2 ]
ok $? "a header of $hdr bytes: two requests ($(log_count origin))"
[ "$(log_bytes origin)" -ge "$hdr" ] &&
    [ "$(log_bytes origin)" -le $((hdr + 2097152)) ]
ok $? "at most the header and 2 MiB ($(log_bytes origin) for $hdr)"
grep -q '"bytes=2097152-' "$(log_file origin)"
ok $? "the second range starts where the first ended"

# a real vocabulary (100,000 tokens and their merges) past the first range
voc=$SHARED_DIR/fixtures/real/ggml-vocab-deepseek-llm.gguf
if [ -f "$voc" ]; then
	cp_w "$voc" "$www/files/voc.gguf"
	hdr=$(data_off "$voc")
	log_mark
	"$GGUFED" --no-cache dump "$ORIGIN/files/voc.gguf" |
	    sed "s|$ORIGIN/files/voc.gguf|$voc|" >"$scratch/url.out"
	"$GGUFED" dump "$voc" >"$scratch/local.out"
	cmp -s "$scratch/url.out" "$scratch/local.out"
	ok $? "a vocabulary of 100,000 tokens over HTTP: dump as of the file"
	[ "$(log_count origin)" -eq 2 ] &&
	    [ "$(log_bytes origin)" -le $((hdr + 2097152)) ]
	ok $? "its header of $hdr bytes in two requests\
 ($(log_count origin), $(log_bytes origin) bytes)"
else
	skip "$(shared_missing fixtures/real/ggml-vocab-deepseek-llm.gguf)"
	skip "$(shared_missing fixtures/real/ggml-vocab-deepseek-llm.gguf)"
fi

log_mark
"$GGUFED" cat "$U" output_norm.weight >/dev/null
[ "$(log_count origin)" -eq 2 ]
ok $? "cat of one tensor: the header, then one range"

log_mark
"$GGUFED" --no-cache hash "$U" >/dev/null
[ "$(log_bytes origin)" -le "$(wc -c <"$L")" ] &&
    [ "$(log_count origin)" -le 2 ]
ok $? "hash: the open's range, then the data in one, no byte twice\
 ($(log_bytes origin) bytes in $(log_count origin) requests\
 for $(wc -c <"$L" | tr -d ' '))"

# ------------------------------------------------ the header cache
rm -rf "$scratch/cache"
cp_w "$L" "$www/files/c.gguf"
log_mark
"$GGUFED" info "$ORIGIN/files/c.gguf" >"$scratch/c1" 2>&1
ls "$scratch/cache/ggufed/headers/"*.gguf-header >/dev/null 2>&1
ok $? "a header read over the network is kept in \$XDG_CACHE_HOME/ggufed"
log_mark
"$GGUFED" info "$ORIGIN/files/c.gguf" >"$scratch/c2" 2>&1
cmp -s "$scratch/c1" "$scratch/c2"
ok $? "reopened from the cache: the same output"
[ "$(log_count origin)" -eq 1 ] && grep -q '" 304 ' "$(log_file origin)" &&
    [ "$(log_bytes origin)" -eq 0 ]
ok $? "with one conditional request and no byte of the file"
grep -q '" 304 ' "$(log_file origin)" && ! grep -q '" 206 ' "$(log_file origin)"
ok $? "(answered 304 Not Modified)"
sleep 1
cp_w "$www/files/big.gguf" "$www/files/c.gguf"
log_mark
"$GGUFED" get "$ORIGIN/files/c.gguf" test.blob >"$scratch/c3" 2>&1
[ "$(wc -c <"$scratch/c3")" -gt 3000000 ]
ok $? "a model changed on the server is read anew"
log_mark
"$GGUFED" info --no-cache "$ORIGIN/files/c.gguf" >/dev/null 2>&1
! grep -q '" 304 ' "$(log_file origin)" && grep -q '" 206 ' "$(log_file origin)"
ok $? "--no-cache: the header is read from the server"
log_mark
"$GGUFED" cat "$ORIGIN/files/c.gguf" output_norm.weight >/dev/null 2>&1
grep -q '" 304 ' "$(log_file origin)" && grep -q '" 206 ' "$(log_file origin)"
ok $? "tensor data is read from the server, never from the cache"

# ------------------------------------------------ hf:// and the token
log_mark
HF_ENDPOINT=$ORIGIN "$GGUFED" get hf://me/repo/m.gguf general.name \
    >"$scratch/out" 2>&1
grep -qx "Demo Llama" "$scratch/out"
ok $? "hf://OWNER/REPO/FILE opens through the endpoint's redirect"
grep -q '"GET /me/repo/resolve/main/m.gguf HTTP/1.1" 302' "$(log_file origin)"
ok $? "hf:// asks {endpoint}/OWNER/REPO/resolve/main/FILE"
grep -q '"GET /cdn/m.gguf?sig=1 HTTP/1.1" 206' "$(log_file cdn)"
ok $? "and reads the file where the redirect leads"
log_mark
HF_ENDPOINT=$ORIGIN/ "$GGUFED" get hf://me/repo/m.gguf@v1.0 general.name \
    >/dev/null 2>&1
grep -q '/me/repo/resolve/v1.0/m.gguf ' "$(log_file origin)"
ok $? "hf://...@REVISION asks for that revision"
"$GGUFED" get hf://me/m.gguf general.name 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "not a Hub file name: hf://OWNER/REPO/FILE" \
    "$scratch/err"
ok $? "hf:// without a repository: one line saying the form"

log_mark
env -u HF_TOKEN HF_HOME="$scratch/nohf" HF_ENDPOINT=$ORIGIN \
    "$GGUFED" get hf://me/private/m.gguf general.name 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "access denied (HTTP 401): .*set HF_TOKEN" \
    "$scratch/err"
ok $? "401 without a token: says to set HF_TOKEN"
[ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "in one line"
log_mark
HF_TOKEN=$TOKEN HF_ENDPOINT=$ORIGIN "$GGUFED" info hf://me/private/m.gguf \
    >"$scratch/out" 2>&1
ok $? "HF_TOKEN opens a model that needs it"
grep -q "\"Bearer $TOKEN\"" "$(log_file origin)"
ok $? "the endpoint got the token"
! grep -q "$TOKEN" "$(log_file cdn)" && [ "$(log_count cdn)" -ge 1 ]
ok $? "the CDN the endpoint redirects to never gets it"
mkdir -p "$scratch/hf"
printf '%s\n' "$TOKEN" >"$scratch/hf/token"
env -u HF_TOKEN HF_HOME="$scratch/hf" HF_ENDPOINT=$ORIGIN \
    "$GGUFED" get hf://me/private/m.gguf general.name >/dev/null 2>&1
ok $? "the token file under HF_HOME is used without HF_TOKEN"
HF_TOKEN=hf_wrong_secret_ab12 HF_ENDPOINT=$ORIGIN \
    "$GGUFED" get hf://me/private/m.gguf general.name 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "the token of HF_TOKEN is refused" "$scratch/err"
ok $? "a refused token: said so"
! grep -q "hf_wrong_secret_ab12" "$scratch/err"
ok $? "without the token in the message"
HF_TOKEN=$TOKEN HF_ENDPOINT=$ORIGIN "$GGUFED" get "$ORIGIN/private/m.gguf" \
    general.name >/dev/null 2>&1
ok $? "a plain URL of the endpoint's host gets the token too"
log_mark
HF_TOKEN=$TOKEN HF_ENDPOINT=$ORIGIN "$GGUFED" get "$CDN/cdn/m.gguf" \
    general.name >/dev/null 2>&1
! grep -q "$TOKEN" "$(log_file cdn)"
ok $? "a URL of another host never does"

# ------------------------------------------------ errors
"$GGUFED" info "$ORIGIN/files/none.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -qx "ggufed: $ORIGIN/files/none.gguf: not found on the \
server (HTTP 404)" "$scratch/err"
ok $? "404: exit 1, one line"
log_mark
"$GGUFED" info "$ORIGIN/fail/m.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "the server failed (HTTP 503), 4 times" \
    "$scratch/err"
ok $? "503: retried, then said"
[ "$(log_count origin)" -eq 4 ]
ok $? "four tries in all"
"$GGUFED" info "$ORIGIN/short.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q \
    "the server sent 4 bytes of the 2,097,152 asked for at offset 0" \
    "$scratch/err"
ok $? "a body shorter than asked: said"
"$GGUFED" get "$ORIGIN/moved/m.gguf" general.name >/dev/null 2>&1
ok $? "a redirect on the same server is followed"
printf '<html>a page, not a model</html>\n' >"$www/files/page.html"
"$GGUFED" info "$ORIGIN/files/page.html" 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q "offset 0x0: .*GGUF" "$scratch/err"
ok $? "a page that is not a model: the reader's one line\
 ($(cat "$scratch/err"))"
: >"$www/files/empty.gguf"
"$GGUFED" info "$ORIGIN/files/empty.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "empty file" "$scratch/err"
ok $? "an empty file on the server: said as for a local one"

# hostile servers: each a one-line error, never a wrong value
if command -v python3 >/dev/null 2>&1; then
	python3 "$TESTS_SRCDIR/tools/hostile_http.py" "$L" >"$scratch/hport" \
	    2>"$scratch/hlog" &
	hpid=$!
	n=0
	while [ ! -s "$scratch/hport" ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	H=http://127.0.0.1:$(cat "$scratch/hport")
	"$GGUFED" cat "$L" output_norm.weight >"$scratch/local.out" 2>&1
	"$GGUFED" --no-cache cat "$H/ok/m.gguf" output_norm.weight \
	    >"$scratch/url.out" 2>&1
	cmp -s "$scratch/local.out" "$scratch/url.out"
	ok $? "the test's own server, behaving: the tensor as of the file"
	# hostile WHAT PATH MESSAGE: cat on $H/PATH fails with that line
	hostile() {
		GGUFED_HTTP_TIMEOUT=5 "$GGUFED" --no-cache cat "$H/$2" \
		    output_norm.weight >/dev/null 2>"$scratch/err"
		st=$?
		[ $st -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
		    grep -qF "$3" "$scratch/err"
		ok $? "$1: one line ($(cat "$scratch/err"))"
	}
	hostile "a Content-Range not the range asked" offset/m.gguf \
	    "the server sent bytes 16 to 2,097,167, not those asked for \
(0 to 2,097,151)"
	hostile "a Content-Range ending short of the range asked" \
	    shortrange/m.gguf "the server sent bytes 0 to 99, not those \
asked for (0 to 2,097,151)"
	hostile "a body shorter than its Content-Length" cut/m.gguf \
	    "the connection to 127.0.0.1:"
	hostile "a body longer than its Content-Length" extra/m.gguf \
	    "sent an answer that is not HTTP"
	hostile "a redirect loop" loop/m.gguf "more than 10 redirects"
	hostile "a redirect to file://" file/m.gguf "redirected to a file: \
URL (refused: only http:// and https:// are followed)"
	hostile "a redirect to ftp://" ftp/m.gguf \
	    "redirected to a ftp: URL (refused"
	hostile "a redirect to gopher://" gopher/m.gguf \
	    "redirected to a gopher: URL (refused"
	hostile "a 302 without Location" noloc/m.gguf \
	    "redirected (HTTP 302) without a place to go"
	hostile "a 206 for a range past the end it gives" past/m.gguf \
	    "the server answered with Content-Range \"bytes \
0-2097151/1000\", not a range of the file"
	hostile "headers without end" bighead/m.gguf \
	    "the server's answer has more than 256 KiB of headers"
	hostile "gzip when identity was asked" gzip/m.gguf \
	    "the server sent the file encoded (Content-Encoding: gzip), \
not as it is"
	hostile "an ETag that changes between two requests" etag/m.gguf \
	    "changed on the server since it was opened (ETag differs)"
	"$GGUFED" --no-cache stats "$H/etag/m.gguf" --all >/dev/null \
	    2>"$scratch/err"
	[ $? -eq 1 ] && grep -q "changed on the server" "$scratch/err" &&
	    ! grep -q "changed on the server: changed on the server" \
	    "$scratch/err"
	ok $? "a change seen by stats: said once ($(head -1 "$scratch/err"))"
	"$GGUFED" --no-cache set "$H/etag/m.gguf" general.name x \
	    -o "$scratch/etag.gguf" 2>"$scratch/err"
	[ $? -eq 1 ] && grep -qF "$H/etag/m.gguf: changed on the server" \
	    "$scratch/err"
	ok $? "a change during a save to -o names the URL\
 ($(head -1 "$scratch/err"))"
	hostile "a 304 Not Modified to a request without a condition" \
	    notmod/m.gguf "answered 304 Not Modified to a request that was \
not conditional"
	hostile "a 206 whose Content-Range names no bytes" starzero/m.gguf \
	    "with Content-Range \"bytes */0\", which names no bytes"
	hostile "a header line of 10 MB" longline/m.gguf \
	    "sent a header line too long: longer than libcurl's limit of \
100 KiB"
	# a 206 running on past its range (and promising 100 GB): the
	# range is taken, the rest never read (timeout: a guard for a hang)
	timeout 120 "$GGUFED" --no-cache cat "$H/overrun/m.gguf" \
	    output_norm.weight >"$scratch/url.out" 2>"$scratch/err"
	[ $? -eq 0 ] && cmp -s "$scratch/local.out" "$scratch/url.out"
	ok $? "a 206 that runs past its range: the range, then no more read\
 ($(head -1 "$scratch/err"))"
	# 2 bytes a second: the deadline of a request is the time allowed a
	# server to answer and its bytes at the least rate
	GGUFED_HTTP_TIMEOUT=2 GGUFED_HTTP_MIN_RATE=1000000 timeout 120 \
	    "$GGUFED" --no-cache cat "$H/drip/m.gguf" output_norm.weight \
	    >/dev/null 2>"$scratch/err"
	[ $? -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
	    grep -q "is too slow: .* bytes of 2,097,152 in [0-9]* seconds, \
less than 1,000,000 bytes a second (GGUFED_HTTP_MIN_RATE)" "$scratch/err"
	ok $? "a server dripping 2 bytes a second: too slow, one line\
 ($(head -1 "$scratch/err"))"
	# the password of a URL is not in the command line of the process
	: >"$scratch/hlog"
	"$GGUFED" --no-cache info "http://alice:$PASSWORD@${H#http://}/drip/m.gguf" \
	    >/dev/null 2>&1 &
	pid=$!
	n=0
	while ! grep -q "^/drip/" "$scratch/hlog" && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	tr '\0' ' ' <"/proc/$pid/cmdline" >"$scratch/cmdline"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	grep -q "/drip/m.gguf" "$scratch/cmdline" &&
	    ! grep -q "$PASSWORD" "$scratch/cmdline"
	ok $? "a URL's password is wiped from the process's command line\
 ($(cat "$scratch/cmdline"))"
	kill "$hpid" 2>/dev/null
	wait "$hpid" 2>/dev/null
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22; do
		skip "python3 is not installed: no hostile server"
	done
fi

# a server that ignores Range
log_mark
"$GGUFED" info "$ORIGIN/norange/m.gguf" >"$scratch/url.out" 2>&1
ok $? "a server that ignores Range: a small header still opens"
"$GGUFED" info "$L" >"$scratch/local.out" 2>&1
sed "s|$ORIGIN/norange/m.gguf|$L|g" "$scratch/url.out" |
    cmp -s - "$scratch/local.out"
ok $? "and shows what the file shows"
grep -q '" 200 ' "$(log_file origin)"
ok $? "(the server answered 200, the whole file)"
"$GGUFED" stats "$L" --all >"$scratch/local.out" 2>&1
log_mark
"$GGUFED" --no-cache stats "$ORIGIN/norange/m.gguf" --all \
    >"$scratch/url.out" 2>&1
sed "s|$ORIGIN/norange/m.gguf|$L|g" "$scratch/url.out" |
    cmp -s - "$scratch/local.out"
ok $? "stats --all on such a server: the numbers of the file"
[ "$(log_count origin)" -le 2 ]
ok $? "its body read once, not once a tensor ($(log_count origin) requests\
 for 39 tensors)"
head -c 70000000 /dev/zero | tr '\0' a >"$scratch/blob"
"$GGUFED" set "$L" test.blob:str @"$scratch/blob" -o "$www/files/huge.gguf" \
    2>/dev/null
rm -f "$scratch/blob"
log_mark
"$GGUFED" info "$ORIGIN/norange/huge.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "the server does not support range requests" \
    "$scratch/err"
ok $? "a header past 64 MiB on such a server: refused, saying why"
hsize=$(wc -c <"$www/files/huge.gguf" | sed -e 's/ //g' \
    -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta')
grep -q "(it sends the whole file), and bytes .* of the file's $hsize run \
past the first 64 MiB, all that is read from such a server" "$scratch/err"
ok $? "naming the file's size and the cap ($(cat "$scratch/err"))"
sleep 0.5
[ "$(log_bytes origin)" -lt 40000000 ]
ok $? "without downloading the file ($(log_bytes origin) of 70 MB sent)"

# a header claiming more than the file can hold: refused at once
printf 'GGUF\003\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\020' \
    >"$www/files/claim.gguf"
truncate -s 1G "$www/files/claim.gguf"
"$GGUFED" info "$www/files/claim.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "KV count 1152921504606846976 cannot fit in the \
1073741800 bytes left of the file's 1073741824" "$scratch/err"
ok $? "a 1 GiB file claiming 2^60 KV pairs: one line ($(cat "$scratch/err"))"
log_mark
"$GGUFED" --no-cache info "$ORIGIN/files/claim.gguf" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "KV count 1152921504606846976 cannot fit in the \
1073741800 bytes left of the file's 1073741824" "$scratch/err"
ok $? "over HTTP: the same line"
[ "$(log_count origin)" -eq 1 ] && [ "$(log_bytes origin)" -le 2097152 ]
ok $? "after one range, not the file ($(log_count origin) requests,\
 $(log_bytes origin) bytes)"
rm -f "$www/files/claim.gguf"

# split sets: any shard's URL opens the set
"$GGUFED" split --max-tensors 15 "$L" "$www/files/s" >/dev/null 2>&1
"$GGUFED" info "$www/files/s-00002-of-00003.gguf" >"$scratch/local.out" 2>&1
"$GGUFED" info "$ORIGIN/files/s-00002-of-00003.gguf" >"$scratch/url.out" 2>&1
sed "s|$ORIGIN/files/|$www/files/|g" "$scratch/url.out" |
    cmp -s - "$scratch/local.out"
ok $? "a split set opens from the URL of its second shard"
"$GGUFED" cat "$ORIGIN/files/s-00001-of-00003.gguf" output.weight \
    --rows 0:2 >"$scratch/url.out" 2>&1
"$GGUFED" cat "$www/files/s-00001-of-00003.gguf" output.weight \
    --rows 0:2 >"$scratch/local.out" 2>&1
cmp -s "$scratch/url.out" "$scratch/local.out" && [ -s "$scratch/url.out" ]
ok $? "cat of a tensor of the last shard, from the first shard's URL"
"$GGUFED" hash "$ORIGIN/files/s-00001-of-00003.gguf" |
    sed "s|$ORIGIN/files/|$www/files/|g" >"$scratch/url.out"
"$GGUFED" hash "$www/files/s-00001-of-00003.gguf" >"$scratch/local.out"
cmp -s "$scratch/url.out" "$scratch/local.out"
ok $? "hash of a set over HTTP: the same"

# a shard the server does not have: missing, as for a local set
mkdir -p "$www/files/gone"
cp "$www/files/s-00001-of-00003.gguf" "$www/files/s-00003-of-00003.gguf" \
    "$www/files/gone/"
"$GGUFED" info "$ORIGIN/files/gone/s-00001-of-00003.gguf" 2>"$scratch/err" \
    >/dev/null
[ $? -eq 1 ] && grep -qx "ggufed: $ORIGIN/files/gone/s-00001-of-00003.gguf: \
shard 2 of 3, s-00002-of-00003.gguf: missing" "$scratch/err"
ok $? "a shard not on the server: missing, naming it ($(cat "$scratch/err"))"
"$GGUFED" validate "$ORIGIN/files/gone/s-00003-of-00003.gguf" \
    >"$scratch/out" 2>&1
grep -q "s-00002-of-00003.gguf: missing: shard 2 of 3 of the set \
(not on the server)" "$scratch/out" && ! grep -q "HTTP 404" "$scratch/out"
ok $? "validate of such a set: the missing shard, not the server's 404"

# a set on a server: its first shard's split.count is trusted, and it
# is given up at its first shard lost
cp "$www/files/s-00001-of-00003.gguf" "$www/files/t-00001-of-00020.gguf"
log_mark
"$GGUFED" validate "$ORIGIN/files/t-00001-of-00020.gguf" >"$scratch/out" 2>&1
grep -q "split.count of the set's first shard is 3 but the file is named \
as shard 1 of 20: the other shards are not looked for" "$scratch/out"
ok $? "a first shard named 1 of 20 saying 3: said, and believed"
[ "$(log_count origin)" -eq 1 ]
ok $? "no shard 2 to 20 asked for ($(log_count origin) requests)"
"$GGUFED" split --max-tensors 5 "$L" "$www/files/h" >/dev/null 2>&1
log_mark
"$GGUFED" validate "$ORIGIN/half/h-00001-of-00008.gguf" >"$scratch/out" 2>&1
grep -q "h-00002-of-00008.gguf: shard 2 of 8: the server failed (HTTP 503), \
4 times; shards 3 to 8 were not asked for" "$scratch/out"
ok $? "a set whose second shard fails: one finding, the others not asked"
[ "$(grep -c '" 503 ' "$(log_file origin)")" -eq 4 ]
ok $? "... four tries of shard 2, none of the others\
 ($(grep -c '" 503 ' "$(log_file origin)") answers 503)"

mkdir -p "$www/files/sub"
cp "$www/files/s-0000"* "$www/files/sub/"
HF_ENDPOINT=$ORIGIN "$GGUFED" info hf://me/repo/sub/s-00003-of-00003.gguf@v2 \
    >"$scratch/url.out" 2>&1
ok $? "a split set opens from hf://.../FOLDER/SHARD@REVISION"
grep -q "in 3 shards" "$scratch/url.out"
ok $? "as the whole set"
HF_ENDPOINT=$ORIGIN "$GGUFED" hash hf://me/repo/sub/s-00002-of-00003.gguf@v2 |
    sed -e "s|$ORIGIN/me/repo/resolve/v2/sub/|$www/files/|g" \
    -e "s|hf://me/repo/sub/\(.*\)@v2\$|$www/files/\1|" >"$scratch/url.out"
"$GGUFED" hash "$www/files/s-00002-of-00003.gguf" >"$scratch/local.out"
cmp -s "$scratch/url.out" "$scratch/local.out"
ok $? "and hashes as the local set does"

# ------------------------------------------------ user:password@
# The password of a URL is sent to its server, never printed: every
# line a command writes holds alice:***@ in its place.
B=$(echo "$ORIGIN" | sed "s|//|//alice:$PASSWORD@|")/basic
hidden=$(echo "$ORIGIN" | sed "s|//|//alice:***@|")/basic
nopw() {	# nopw FILE: the password is nowhere in it
	! grep -q "$PASSWORD" "$1"
}
"$GGUFED" info "$B/m.gguf" >"$scratch/pw.out" 2>&1
ok $? "a URL with user:password@ opens (HTTP basic authentication)"
nopw "$scratch/pw.out" && grep -qF "$hidden/m.gguf" "$scratch/pw.out"
ok $? "info prints it as user:***@, never the password"
"$GGUFED" info --json "$B/m.gguf" >"$scratch/pw.out" 2>&1
nopw "$scratch/pw.out" && grep -qF "\"$hidden/m.gguf\"" "$scratch/pw.out"
ok $? "and so does info --json"
! grep -rq "$PASSWORD" "$scratch/cache"
ok $? "the header cache does not keep it"
"$GGUFED" info "$B/none.gguf" 2>"$scratch/pw.out"
[ $? -eq 1 ] && nopw "$scratch/pw.out" &&
    grep -qxF "ggufed: $hidden/none.gguf: not found on the server \
(HTTP 404)" "$scratch/pw.out"
ok $? "404 on such a URL: the message hides the password"
bad=$(echo "$B" | sed "s|$PASSWORD|wrong-pw-0f3a|")
"$GGUFED" info "$bad/m.gguf" 2>"$scratch/pw.out"
[ $? -eq 1 ] && ! grep -q "wrong-pw-0f3a" "$scratch/pw.out" &&
    grep -q "the user name and password of the URL are refused" \
    "$scratch/pw.out"
ok $? "a refused password: said, without the password"
"$GGUFED" info "$B/s-00002-of-00003.gguf" >"$scratch/pw.out" 2>&1
[ $? -eq 0 ] && nopw "$scratch/pw.out" && grep -q "in 3 shards" \
    "$scratch/pw.out"
ok $? "a split set behind it: every shard gets the password"
nb=$(echo "$ORIGIN" | sed "s|//|//alice:$PASSWORD@|")/norange/huge.gguf
"$GGUFED" get "$nb" general.name 2>"$scratch/pw.out"
[ $? -eq 1 ] && nopw "$scratch/pw.out" &&
    grep -q "does not support range requests" "$scratch/pw.out"
ok $? "a refused range: the message hides the password"
cat >"$scratch/keys" <<EOF
size 100x30
wait
dump $scratch/pw.screen
keys Q
EOF
GGUFED_SCRIPT=$scratch/keys "$GGUFED" "$B/m.gguf" >/dev/null 2>&1
nopw "$scratch/pw.screen" && grep -qF "alice:***@" "$scratch/pw.screen"
ok $? "the browser's screen hides it too"
# a password with an @: the user info ends at the last @ before the host
B2=$(echo "$ORIGIN" | sed "s|//|//bob:$PASSWORD2@|")/basic
"$GGUFED" info "$B2/m.gguf" >"$scratch/pw.out" 2>&1
[ $? -eq 0 ] && ! grep -q "tail-e0b4" "$scratch/pw.out"
ok $? "a password holding an @ is sent whole, and never printed"
"$GGUFED" info "$B2/none.gguf" 2>"$scratch/pw.out"
[ $? -eq 1 ] && ! grep -q "tail-e0b4\|5d27" "$scratch/pw.out" &&
    grep -qF "bob:***@127.0.0.1" "$scratch/pw.out"
ok $? "nor any part of it in an error ($(cat "$scratch/pw.out"))"
# two URLs of one user and host: each its own password
cp_w "$L" "$www/files/c2.gguf"
log_mark
"$GGUFED" --no-cache diff "$B/m.gguf" \
    "$(echo "$B" | sed "s|$PASSWORD|other-pw-77|")/c2.gguf" >/dev/null 2>&1
a1=$(printf 'alice:%s' "$PASSWORD" | base64)
a2=$(printf 'alice:other-pw-77' | base64)
grep -q "GET /basic/m.gguf .*\"Basic $a1\"" "$(log_file origin)" &&
    grep -q "GET /basic/c2.gguf .*\"Basic $a2\"" "$(log_file origin)" &&
    ! grep -q "GET /basic/m.gguf .*\"Basic $a2\"" "$(log_file origin)"
ok $? "two URLs of one user and host with two passwords: each gets its own"

# ------------------------------------------------ saves
"$GGUFED" set "$U" general.name '"Fixed"' -o "$scratch/a.gguf" 2>/dev/null
ok $? "an edit of a URL saves to a local file"
"$GGUFED" set "$L" general.name '"Fixed"' -o "$scratch/b.gguf" 2>/dev/null
cmp -s "$scratch/a.gguf" "$scratch/b.gguf"
ok $? "byte for byte the save of the local copy"
"$GGUFED" rm-tensor "$U" blk.0.attn_k.weight -o "$scratch/c.gguf" 2>/dev/null &&
"$GGUFED" rm-tensor "$L" blk.0.attn_k.weight -o "$scratch/d.gguf" 2>/dev/null &&
    cmp -s "$scratch/c.gguf" "$scratch/d.gguf"
ok $? "a save that moves the tensor data: the same bytes too"
"$GGUFED" set "$U" general.name x -i 2>"$scratch/err"
[ $? -eq 2 ] &&
    grep -q "cannot edit a model read from a URL in place: write a local \
copy with -o OUT" "$scratch/err"
ok $? "-i on a URL: a usage error, saying to use -o"
"$GGUFED" hash --file "$U" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "hashes local files only, and $U is a URL" \
    "$scratch/err"
ok $? "hash --file of a URL: a usage error, saying why\
 ($(head -1 "$scratch/err"))"

"$GGUFED" edit "$U" -e 'set general.name "Fixed"' -o "$scratch/v.gguf" \
    --verify 2>"$scratch/err"
[ $? -ne 0 ] && grep -q "not proved: it would be downloaded a second time" \
    "$scratch/err"
ok $? "--verify of a save from a URL: refused, saying why"

# the browser, in script mode: the summary, a tensor's preview, :w FILE
cat >"$scratch/keys" <<EOF
size 100x30
wait
dump $scratch/s1
keys 4jjj<Enter>
wait
dump $scratch/s2
keys q:set general.name X<Enter>w
wait
dump $scratch/s3w
keys <Enter>:w $scratch/w.gguf<Enter>
wait
dump $scratch/s3
keys M
dump $scratch/s3m
keys Q
EOF
GGUFED_SCRIPT=$scratch/keys "$GGUFED" --no-cache "$U" >/dev/null 2>&1
ok $? "the browser opens a URL"
grep -q "File          $U" "$scratch/s1" && grep -q "Demo Llama" "$scratch/s1"
ok $? "its summary names the URL and the model"
grep -q "2.0 MiB fetched  1/" "$scratch/s1"
ok $? "the status line says what was fetched: the first 2 MiB"
cat >"$scratch/keys" <<EOF
size 100x30
wait
dump $scratch/s5
keys Q
EOF
"$GGUFED" info "$U" >/dev/null 2>&1
GGUFED_SCRIPT=$scratch/keys "$GGUFED" "$U" >/dev/null 2>&1
grep -q "header from the cache  1/" "$scratch/s5"
ok $? "a header from the cache: said so, not 0 B fetched"
grep -q "[0-9] MiB fetched  .0,0,0,0. = " "$scratch/s2"
ok $? "and so does the preview's"
grep -q "blk.0.attn_output.weight  Q8_0  256×256" "$scratch/s2" &&
    grep -q "0.03077" "$scratch/s2"
ok $? "a tensor's preview shows its values"
grep -q "saved in place: :w FILE writes a local" "$scratch/s3w" &&
    ! grep -q -- "-o FILE" "$scratch/s3w"
ok $? "w on a URL: the browser's way to save, not the command line's" ||
    sed 's/^/# /' "$scratch/s3w"
"$GGUFED" get "$scratch/w.gguf" general.name | grep -qx X
ok $? ":w FILE writes a local copy, with the edit"
grep -q "saved $scratch/w.gguf by a rewrite" "$scratch/s3"
ok $? "and says so"
sed -n 's/^ *[0-9]* *│ //p' "$scratch/s3m" | tr -d '\n' | grep -q "tensor data not verified (the tensor data of a model read from a URL is not proved: it would be downloaded a second time; .ggufed diff --data. of the two compares them)"
ok $? "with why its tensor data is not verified, and how to" || sed 's/^/# /' "$scratch/s3m"

# a preview fetches the rows it shows, not its tensor: "hole" is 1 GiB
"$TESTS_BUILDDIR/tools/gen_sparse" "$www/files/sparse.gguf" 1
cat >"$scratch/keys" <<EOF
size 100x30
wait
keys 4jj<Enter>
wait
dump $scratch/s4
keys Q
EOF
log_mark
GGUFED_SCRIPT=$scratch/keys "$GGUFED" --no-cache "$ORIGIN/files/sparse.gguf" \
    >/dev/null 2>&1
grep -q "hole  F32  268435520 " "$scratch/s4" &&
    grep -q "\[0,0,0,0\] = 0" "$scratch/s4"
ok $? "the preview of a 1 GiB tensor on a URL shows its values"
sleep 0.5
[ "$(log_bytes origin)" -lt 8388608 ]
ok $? "having fetched its rows, not 1 GiB ($(log_bytes origin) bytes)"

# ------------------------------------------------ sync from the Hub
# The repository's small files, read one by one as the Hub resolves them:
# the same report and the same applied file as from a local folder.
up=$scratch/upstream
mkdir -p "$up"
cat >"$up/config.json" <<'EOF'
{"architectures": ["LlamaForCausalLM"], "model_type": "llama",
 "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 8,
 "num_key_value_heads": 4, "intermediate_size": 512, "vocab_size": 3072,
 "max_position_embeddings": 4096, "rope_theta": 500000.0,
 "rms_norm_eps": 1e-05}
EOF
cat >"$up/tokenizer_config.json" <<'EOF'
{"add_bos_token": false, "eos_token": "<|im_end|>"}
EOF
cp "$up/config.json" "$up/tokenizer_config.json" "$www/files/"
norm() {	# norm FILE: the source's name made one
	sed -e "s|hf://me/repo@v2|SRC|g" -e "s|hf://me/repo|SRC|g" \
	    -e "s|$up|SRC|g" "$1"
}
log_mark
"$GGUFED" sync "$L" --from "$up" >"$scratch/sync-dir.out" 2>&1
ds=$?
HF_ENDPOINT=$ORIGIN "$GGUFED" sync "$L" --from hf://me/repo \
    >"$scratch/sync-hf.out" 2>&1
hs=$?
norm "$scratch/sync-dir.out" >"$scratch/sync-dir.n"
norm "$scratch/sync-hf.out" >"$scratch/sync-hf.n"
[ $ds -eq 1 ] && [ $hs -eq 1 ] &&
    cmp -s "$scratch/sync-dir.n" "$scratch/sync-hf.n" &&
    grep -q "tokenizer.ggml.eos_token_id" "$scratch/sync-hf.out"
ok $? "sync --from hf://OWNER/REPO reports what the same folder gives" ||
    diff "$scratch/sync-dir.n" "$scratch/sync-hf.n" | sed 's/^/# /'
grep -q "GET /me/repo/resolve/main/config.json" "$(log_file origin)" &&
    grep -q "GET /me/repo/resolve/main/generation_config.json" \
    "$(log_file origin)"
ok $? "... each file asked for at {endpoint}/OWNER/REPO/resolve/main/FILE, a missing one taken as absent"
"$GGUFED" sync "$L" --from "$up" -o "$scratch/sync-dir.gguf" >/dev/null 2>&1
HF_ENDPOINT=$ORIGIN "$GGUFED" sync "$L" --from hf://me/repo@v2 \
    -o "$scratch/sync-hf.gguf" >/dev/null 2>&1 &&
    cmp -s "$scratch/sync-dir.gguf" "$scratch/sync-hf.gguf" &&
    grep -q "GET /me/repo/resolve/v2/tokenizer_config.json" \
    "$(log_file origin)"
ok $? "sync -o from hf://OWNER/REPO@REV writes what the folder writes"
"$GGUFED" sync "$L" --from "$ORIGIN/files/nothing" 2>"$scratch/err" \
    >/dev/null
[ $? -eq 2 ] &&
    grep -q "$ORIGIN/files/nothing/config.json: no such file" "$scratch/err"
ok $? "a folder URL without config.json on the server: one line, exit 2" ||
    sed 's/^/# /' "$scratch/err"

# ------------------------------------------------ the file changes
cp_w "$www/files/big.gguf" "$www/files/slow.gguf"
"$GGUFED" info "$ORIGIN/slow/slow.gguf" >/dev/null 2>"$scratch/err" &
pid=$!
sleep 1
cp_w "$L" "$www/files/slow.gguf.new"
mv "$www/files/slow.gguf.new" "$www/files/slow.gguf"
wait $pid
st=$?
[ $st -eq 1 ] && grep -q "changed on the server" "$scratch/err"
ok $? "a file replaced between two requests: changed on the server"

# a stalled transfer, then a killed server
cp_w "$www/files/big.gguf" "$www/files/slow.gguf"
worker=$(ps -o pid= --ppid "$ngx_pid" | head -1 | tr -d ' ')
GGUFED_HTTP_TIMEOUT=2 "$GGUFED" info "$ORIGIN/slow/slow.gguf" >/dev/null \
    2>"$scratch/err" &
pid=$!
sleep 1
kill -STOP "$worker"
t0=$(date +%s)
wait $pid
st=$?
kill -CONT "$worker"
[ $st -eq 1 ] && grep -q "stopped sending: no data for 2 seconds" \
    "$scratch/err"
ok $? "a stalled transfer: an error after the timeout, not a hang"
[ $(($(date +%s) - t0)) -lt 15 ]
ok $? "in time"

# a server that never takes the connection (its backlog is full: the
# kernel drops the SYNs), and one that takes it and never answers
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(0)
port = s.getsockname()[1]
cs = []
for i in range(3):
	c = socket.socket()
	c.setblocking(False)
	c.connect_ex(("127.0.0.1", port))
	cs.append(c)
time.sleep(0.3)
m = socket.socket()
m.bind(("127.0.0.1", 0))
m.listen(8)
print(port, m.getsockname()[1], flush=True)
time.sleep(60)
' >"$scratch/ports" &
	pypid=$!
	n=0
	while [ ! -s "$scratch/ports" ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	read -r p1 p2 <"$scratch/ports"
	t0=$(date +%s)
	GGUFED_HTTP_TIMEOUT=2 "$GGUFED" info "http://127.0.0.1:$p1/m.gguf" \
	    2>"$scratch/err"
	st=$?
	[ $st -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
	    grep -q "cannot connect to 127.0.0.1:$p1: no answer in 2 seconds" \
	    "$scratch/err"
	ok $? "a connection never taken: the connect timeout's one line\
 ($(cat "$scratch/err"))"
	[ $(($(date +%s) - t0)) -lt 15 ]
	ok $? "in time, not a hang"
	GGUFED_HTTP_TIMEOUT=2 "$GGUFED" info "http://127.0.0.1:$p2/m.gguf" \
	    2>"$scratch/err"
	[ $? -eq 1 ] &&
	    grep -q "127.0.0.1:$p2 did not answer in 2 seconds" "$scratch/err"
	ok $? "a connection taken, no answer: the timeout's one line"
	kill "$pypid" 2>/dev/null
	wait "$pypid" 2>/dev/null
else
	skip "python3 is not installed: no listener that never answers"
	skip "python3 is not installed: no listener that never answers"
	skip "python3 is not installed: no listener that never answers"
fi

"$GGUFED" info "$ORIGIN/slow/slow.gguf" >/dev/null 2>"$scratch/err" &
pid=$!
sleep 1
t0=$(date +%s)
remote_stop
wait $pid
st=$?
[ $st -eq 1 ] && grep -q \
    "cannot connect to 127.0.0.1\|the connection to 127.0.0.1.* was cut" \
    "$scratch/err"
ok $? "a server killed mid-stream: an error ($(cat "$scratch/err"))"
[ $(($(date +%s) - t0)) -lt 15 ]
ok $? "not a hang"

done_testing
