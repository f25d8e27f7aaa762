#!/bin/sh
# new.sh - `ggufed new`: the list of architectures, a model of one made
# from the table (validate finds it clean), -e edits of keys that shape
# its tensors and of tensors after, the seed and the variant, and the
# usage errors. (That llama.cpp loads what it makes, for every
# architecture, is tests/interop/model_new.sh.)
. "$TESTS_SRCDIR/lib.sh"

"$GGUFED" new --list >"$scratch/list"
ok $? "new --list"
grep -qx llama "$scratch/list" && grep -qx qwen3moe "$scratch/list" &&
    grep -qx gemma4 "$scratch/list"
ok $? "new --list names llama, qwen3moe and gemma4"
"$GGUFED" new >"$scratch/list2"
cmp -s "$scratch/list" "$scratch/list2"
ok $? "new alone lists them too"

f=$scratch/q.gguf
"$GGUFED" new qwen3 -o "$f" >"$scratch/out" 2>"$scratch/err"
ok $? "new qwen3 -o FILE"
grep -q "^$f: qwen3, [0-9]* tensors, seed 0, variant 0$" "$scratch/out"
ok $? "it says what it wrote"
[ ! -s "$scratch/err" ]; ok $? "and nothing on standard error"
"$GGUFED" validate -q "$f" >"$scratch/v" 2>&1
ok $? "validate finds no error in it"
[ "$("$GGUFED" get "$f" general.architecture)" = qwen3 ]
ok $? "its architecture"
[ "$("$GGUFED" get "$f" qwen3.block_count)" = 2 ]
ok $? "the table's block count"
"$GGUFED" get "$f" tokenizer.ggml.tokens | grep -qx '<0x41>'
ok $? "a vocabulary with the byte tokens"
"$GGUFED" dump "$f" | grep -q 'tensor.*blk\.1\.attn_q_norm\.weight'
ok $? "qwen3's q norm in block 1"

"$GGUFED" new qwen3 -o "$f" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "exists (--force writes over it)" "$scratch/err"
ok $? "an existing file is not replaced without --force"
"$GGUFED" new qwen3 -o "$f" --force -q >"$scratch/out"
ok $? "--force replaces it"
[ ! -s "$scratch/out" ]; ok $? "-q says nothing"
ls "$scratch" | grep -q '\.new-' && r=1 || r=0
ok $r "no temporary file left"

g=$scratch/q3.gguf
"$GGUFED" new qwen3 -o "$g" -q -e 'set qwen3.block_count 3' \
    -e 'set qwen3.attention.head_count_kv 1' 2>"$scratch/err"
ok $? "-e edits of keys"
[ ! -s "$scratch/err" ]; ok $? "shaping the tensors: no warning"
"$GGUFED" dump "$g" | grep -q 'tensor.*blk\.2\.attn_k\.weight F32 \[64,16\]'
ok $? "a third block, k for one KV head"
"$GGUFED" validate -q "$g" >/dev/null 2>&1
ok $? "validate finds no error in it"

h=$scratch/gh.gguf
"$GGUFED" new granitehybrid -o "$h" -q -e 'set granitehybrid.block_count 3'
[ "$("$GGUFED" get "$h" granitehybrid.attention.head_count_kv |
    tr '\n' ' ')" = "0 2 0 " ]
ok $? "a per-block array follows the block count -e sets"
"$GGUFED" validate -q "$h" >/dev/null 2>&1
ok $? "validate finds no error in it"
"$GGUFED" new granitehybrid -o "$h" --force -q \
    -e 'set granitehybrid.attention.head_count_kv [2, 2]'
[ "$("$GGUFED" get "$h" granitehybrid.attention.head_count_kv |
    tr '\n' ' ')" = "2 2 " ]
ok $? "one -e sets stays as set"

"$GGUFED" new qwen3 -o "$g" --force -q -e 'rm-tensor blk.0.attn_k.weight' \
    2>"$scratch/err"
ok $? "-e edits of tensors, after they are made"
grep -q "warning: $g: blk.0.attn_k.weight is missing" "$scratch/err"
ok $? "what llama.cpp would refuse is a warning"
"$GGUFED" validate -q "$g" >/dev/null 2>&1
[ $? -eq 1 ]; ok $? "written all the same, and validate says so"

"$GGUFED" new qwen3 -o "$scratch/a.gguf" --seed 7 -q &&
    "$GGUFED" new qwen3 -o "$scratch/b.gguf" --seed 7 -q &&
    cmp -s "$scratch/a.gguf" "$scratch/b.gguf"
ok $? "the same seed, the same file"
"$GGUFED" new qwen3 -o "$scratch/c.gguf" --seed 8 -q &&
    ! cmp -s "$scratch/a.gguf" "$scratch/c.gguf"
ok $? "another seed, other weights"

# Some variant of llama fuses q, k and v; none has both.
fused=0 both=0
for v in 1 2 3 4 5 6 7 8; do
	"$GGUFED" new llama -o "$scratch/l$v.gguf" --variant $v -q || both=1
	"$GGUFED" dump "$scratch/l$v.gguf" | awk '$1 == "tensor" { print $3 }' \
	    >"$scratch/t"
	grep -qx blk.0.attn_qkv.weight "$scratch/t" && fused=1 &&
	    grep -qx blk.0.attn_q.weight "$scratch/t" && both=1
	"$GGUFED" validate -q "$scratch/l$v.gguf" >/dev/null 2>&1 || both=1
done
[ $fused -eq 1 ] && [ $both -eq 0 ]
ok $? "variants: some fuse q, k and v, never beside them, all clean"

"$GGUFED" new nosuch -o "$scratch/n.gguf" 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "architecture nosuch is not in the table" \
    "$scratch/err" && [ ! -e "$scratch/n.gguf" ]
ok $? "an unknown architecture: exit 2, nothing written"
# Architectures the table says new makes no model of alone: a draft head,
# a projector, a name without a loader.
for a in eagle3 dflash gemma4-assistant clip gptj; do
	"$GGUFED" new "$a" -o "$scratch/n.gguf" 2>"$scratch/err"
	[ $? -eq 1 ] && [ ! -e "$scratch/n.gguf" ] &&
	    grep -q "^ggufed: new: $a: no model of its own: ..." "$scratch/err"
	ok $? "$a: exit 1, why, nothing written"
	! grep -qx -- "$a" "$scratch/list"
	ok $? "$a: not in new --list"
done
"$GGUFED" new eagle3 -o "$scratch/n.gguf" 2>&1 | grep -q "EAGLE-3 draft head"
ok $? "eagle3: the table's reason"
"$GGUFED" new llama -o "$scratch/g.gguf" -q &&
    "$GGUFED" set "$scratch/g.gguf" general.architecture gptj \
    -o "$scratch/gptj.gguf" -q 2>/dev/null
"$GGUFED" validate "$scratch/gptj.gguf" >"$scratch/v" 2>&1
[ $? -eq 1 ] && grep -q "error: .*llama.cpp has no loader for gptj" "$scratch/v"
ok $? "validate of a gptj file: llama.cpp has no loader for it"
"$GGUFED" new llama 2>"$scratch/err"
[ $? -eq 2 ] && grep -q -- "-o OUT" "$scratch/err"
ok $? "no -o: a usage error"
"$GGUFED" new llama -o "$scratch/n.gguf" --seed x 2>/dev/null
[ $? -eq 2 ]; ok $? "a seed that is no number"
"$GGUFED" new llama -o "$scratch/n.gguf" -e 'frob x' 2>"$scratch/err"
[ $? -eq 2 ] && [ ! -e "$scratch/n.gguf" ]
ok $? "a bad -e command: nothing written"
"$GGUFED" new llama -o "$scratch/n.gguf" -e 'set llama.block_count 0' \
    2>"$scratch/err"
[ $? -eq 0 ] && grep -q "warning: .*llama.cpp loads no model without blocks" \
    "$scratch/err"
ok $? "a block count llama.cpp refuses: written, with its warning"
# The model gets the mode a created file gets (0666 less the umask), as a
# save gives it, not the 0600 of its temporary file; --force over a file
# keeps that file's mode.
(umask 022 && "$GGUFED" new llama -o "$scratch/mode.gguf" -q)
[ "$(stat -c %a "$scratch/mode.gguf")" = 644 ]
ok $? "umask 022: the new model is 644 (got $(stat -c %a "$scratch/mode.gguf"))"
(umask 002 && "$GGUFED" new llama -o "$scratch/mode2.gguf" -q)
[ "$(stat -c %a "$scratch/mode2.gguf")" = 664 ]
ok $? "umask 002: 664 (got $(stat -c %a "$scratch/mode2.gguf"))"
chmod 640 "$scratch/mode.gguf"
"$GGUFED" new llama -o "$scratch/mode.gguf" -q --force
[ "$(stat -c %a "$scratch/mode.gguf")" = 640 ]
ok $? "--force over a file of 640 keeps 640 (got $(stat -c %a "$scratch/mode.gguf"))"

done_testing
