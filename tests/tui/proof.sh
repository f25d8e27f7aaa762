#!/bin/sh
# proof.sh - after every save the browser proves the tensor data: the
# real program in tmux saves a copy of the demo model and its status line
# says "tensor data unchanged (39 tensors, xxh64)" (a rewrite) or "(39
# tensors, not rewritten)" (in place); a tensor converted to float32 is
# named as rewritten by the edit, not as damage; and a byte of a tensor
# changed in the new file before it is renamed over the model (the save
# held before its fsync by GGUFED_FAULT) is a dialog naming the tensor.
. "$TESTS_SRCDIR/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"

. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_env
tmux_server proof

d=$scratch/d
mkdir -p "$d"
long='A name long enough to make the header grow and the file rewritten'

# start [ENV...]: the browser on d/m.gguf at 160x30, in session t.
start() {
	tm kill-session -t t 2>/dev/null
	rm -f "$scratch/status"
	tm new-session -d -s t -x 160 -y 30 "cd '$d' && read go &&
	    env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
	    $* '$GGUFED' m.gguf; echo \$? >'$scratch/status'" || return 1
	tm set-option -t t remain-on-exit on >/dev/null
	tm send-keys -t t Enter
	settle "$scratch/start" "Sections"
}
# command TEXT: a : line
command() {
	tm send-keys -t t :
	tm send-keys -t t -l "$1"
	tm send-keys -t t Enter
}
quit() {
	tm send-keys -t t Escape
	command 'q!'
	i=0
	while [ ! -s "$scratch/status" ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
}

# ------------------------------------------------------------ a rewrite
cp_w "$DEMO" "$d/m.gguf"
start
command "set general.name \"$long\""
command w
settle "$scratch/rw" ": tensor data unchanged"
grep -q "saved m.gguf by a rewrite: tensor data unchanged (39 tensors, xxh64); " \
    "$scratch/rw"
ok $? "a rewrite: the status line says the data of the 39 tensors is unchanged (xxh64)" ||
    sed 's/^/# /' "$scratch/rw"
quit
"$GGUFED" get "$d/m.gguf" general.name | grep -qF "$long"
ok $? "the save happened"

# ------------------------------------------------------------- in place
start
command 'set llama.block_count 4'
command 'set llama.context_length 4096'
command w
settle "$scratch/ip" ": tensor data unchanged"
grep -q "saved m.gguf in place: tensor data unchanged (39 tensors, not rewritten); " \
    "$scratch/ip"
ok $? "in place: unchanged, not rewritten" || sed 's/^/# /' "$scratch/ip"
quit

# ------------------------------------------- data the edit changes on purpose
start
command 'convert output.weight f32'
command w
settle "$scratch/cv" "rewritten by the edit"
grep -q "tensor data unchanged (38 tensors, xxh64); rewritten by the edit: output.weight (F32)" \
    "$scratch/cv"
ok $? "convert: the converted tensor is named as rewritten by the edit, not as damage" ||
    sed 's/^/# /' "$scratch/cv"
quit

# ------------------------------------------------- damage before the rename
cp_w "$DEMO" "$d/m.gguf"
"$GGUFED" set "$d/m.gguf" general.name "$long" -o "$scratch/ref.gguf" -q
flag=$scratch/stall
: >"$flag"
start "GGUFED_STALL='$flag' GGUFED_FAULT=fsync:1:stall"
command "set general.name \"$long\""
command w
written() {
	t=$(ls -A "$d" | grep '^\.m\.gguf\.ggufed-' | head -n 1)
	[ -n "$t" ] && cmp -s "$d/$t" "$scratch/ref.gguf" && echo "$d/$t"
}
i=0
until tmp=$(written); do
	i=$((i + 1)); [ $i -lt 600 ] || break
	sleep 0.1
done
[ -n "$tmp" ]; ok $? "the new file is written and the save held before its fsync"
off=$(( $("$GGUFED" dump --json "$scratch/ref.gguf" |
    grep '{"name": "blk.2.attn_v.weight",' |
    sed 's/.*"abs_offset": \([0-9]*\).*/\1/') + 3 ))
b=$(dd if="$tmp" bs=1 skip=$off count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(( (b + 1) % 256 )))" |
    dd of="$tmp" bs=1 seek=$off conv=notrunc 2>/dev/null
rm -f "$flag"
settle "$scratch/dmg" "did not keep"
grep -q "saved m.gguf, but the save did not keep the tensor" "$scratch/dmg" &&
    grep -q "tensor data CHANGED: blk.2.attn_v.weight" "$scratch/dmg"
ok $? "a byte changed in the new file: a dialog names the tensor" ||
    sed 's/^/# /' "$scratch/dmg"
quit
[ "$(cat "$scratch/status" 2>/dev/null)" = 0 ]
ok $? "the browser then quits normally"

done_testing
