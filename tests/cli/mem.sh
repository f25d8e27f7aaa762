#!/bin/sh
# mem.sh - `ggufed mem`: options, exit codes, errors, JSON, and figures.
# The expected bytes are those llama.cpp's own library allocated for the
# same generated models (tests/interop/mem.sh proves them against it where
# the library can be fetched; here they hold without it).
. "$TESTS_SRCDIR/lib.sh"
. "$TESTS_SRCDIR/cli/mem.lib"

mem "$m/llama-gqa.gguf"
[ $rc -eq 0 ]; ok $? "llama: exit 0"
grep -q '^architecture  llama$' "$scratch/out" &&
    grep -q '^layers        3$' "$scratch/out" &&
    grep -q '^training ctx  4,096$' "$scratch/out"
ok $? "llama: architecture, layers and training context"
grep -q '^weights       2,043,392 (1.9 MiB) in 30 tensors$' "$scratch/out" &&
    grep -q '^  in layers   1,772,544 (1.7 MiB) (blk.N, offloadable): 3 layers of 590,848 bytes$' "$scratch/out" &&
    grep -q '^  kept        270,848 (264.5 KiB) in 3 tensors outside' "$scratch/out"
ok $? "llama: weights in total, in the layers and kept"
# The default table: 4k, 8k, 16k, 32k, 128k (the training context is 4k).
[ "$(awk '/^context /{on=1;next} on && NF {print $1}' "$scratch/out" | tr '\n' ' ')" = \
    "4,096 8,192 16,384 32,768 131,072 " ]
ok $? "llama: the default contexts, the training one once"
grep -q '^4,096  *4,096  *3,145,728 (3.0 MiB)  *6,567,936 (6.3 MiB)  *11,758,112 (11.2 MiB)$' "$scratch/out"
ok $? "llama: KV cache at 4k: 3 layers x 2 x 4,096 cells x 64 x 2 bytes; compute (llama.cpp's); with the weights and the output"
grep -q '^compute       llama (CPU): the graphs llama.cpp reserves, flash attention on (auto), micro-batch 512 of a batch of 2,048$' "$scratch/out"
ok $? "llama: the compute buffer's settings, llama.cpp's defaults"
grep -q '^output        1,056 (1.0 KiB): logits of 264 tokens, 1 sequence, F32 (beside the cache)$' "$scratch/out"
ok $? "llama: the output buffer, 264 tokens x 4 bytes"

mem "$m/llama-gqa.gguf" --ctx 1000,1k,0
grep -q '^1,000  *1,024  *786,432 ' "$scratch/out" &&
    grep -q '^1,024  *1,024  *786,432 ' "$scratch/out" &&
    grep -q '^4,096  *4,096  *3,145,728 ' "$scratch/out"
ok $? "--ctx: a list; 1000 is 1,024 cells, 1k is 1,024, 0 the training context"
# Option numbers are decimal, as llama.cpp reads them.
mem "$m/llama-gqa.gguf" --ctx 01000 --parallel 03 -ngl 010
grep -q '^1,000  *1,536  *1,179,648 ' "$scratch/out" &&
    grep -q -- '-ngl 10: ' "$scratch/out"
ok $? "a leading zero is decimal: --ctx 01000 is 1,000, -ngl 010 is 10"
for o in "--ctx 0x3" "-ngl 0x3" "--parallel 0x3" "--fit 0x3"; do
	mem "$m/llama-gqa.gguf" $o
	[ $rc -eq 2 ] && [ "$(grep -c "'0x3'" "$scratch/err")" -eq 1 ]
	ok $? "$o: not a number (exit 2, the value named)"
done
# Per-layer arrays as llama.cpp reads them: i32 or u32 only, copied bit
# for bit into its uint32_t (-1 is 4294967295).
demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
"$GGUFED" set "$demo" 'llama.attention.head_count_kv:arr[u64]' '[4, 4, 4, 4]' \
    --force -q -o "$scratch/kv64.gguf" 2>/dev/null
mem "$scratch/kv64.gguf" --ctx 1k
"$GGUFED" validate "$scratch/kv64.gguf" >"$scratch/val" 2>&1
grep -q 'head_count_kv.*arr\[u64\].*llama.cpp refuses' "$scratch/val" &&
    grep -q '^cache  *not modelled: llama.attention.head_count_kv is an array of u64: llama.cpp refuses it' "$scratch/out" &&
    ! grep -q '^1,024 ' "$scratch/out"
ok $? "a per-layer array of u64: refused by validate, no figure from mem"
"$GGUFED" set "$demo" 'llama.attention.head_count_kv:arr[i32]' '[-1, 4, 4, 4]' \
    -q -o "$scratch/kvneg.gguf" 2>/dev/null
mem "$scratch/kvneg.gguf" --ctx 1k
grep -q '^cache  *not modelled: llama.attention.head_count_kv element 0 is -1, which llama.cpp reads as 4294967295$' "$scratch/out"
ok $? "an i32 -1 in a per-layer array is 4294967295 heads, as llama.cpp reads it"
"$GGUFED" validate "$scratch/kvneg.gguf" >"$scratch/val" 2>&1
grep -q 'head_count_kv = 4294967295' "$scratch/val" && ! grep -q -- '-1\b' "$scratch/val"
ok $? "validate reasons with 4294967295 too"
mem "$m/llama-gqa.gguf" --ctx 1000 --parallel 3
grep -q '^1,000  *1,536  *1,179,648 ' "$scratch/out"
ok $? "--parallel 3: three streams of 512 cells (1,024 / 3 rounded up to 256)"
mem "$m/llama-gqa.gguf" --ctx 5000 --parallel 3 --cache-type-k q8_0 --cache-type-v q8_0
grep -q '^5,000  *5,376  *2,193,408 ' "$scratch/out" &&
    grep -q '^cache         K q8_0, V q8_0, 3 sequences$' "$scratch/out"
ok $? "q8_0 cache: 34 bytes a block of 32"
mem "$m/llama-gqa.gguf" --ctx 300 --cache-type-k bf16 --cache-type-v q4_0
grep -q '^300  *512  *251,904 ' "$scratch/out" &&
    grep -q '^note          a quantized V cache needs flash attention' "$scratch/out"
ok $? "bf16 K, q4_0 V; a note that a quantized V needs flash attention"

# Head size from key_length (48), not embedding / heads (32).
mem "$m/qwen3.gguf" --ctx 4096
grep -q '^4,096  *4,096  *4,718,592 ' "$scratch/out"
ok $? "qwen3: head size from attention.key_length"
# Hybrid.
mem "$m/granitehybrid.gguf" --ctx 1000 --parallel 2
grep -q '^1,000  *1,024  *381,184 ' "$scratch/out" &&
    grep -q 'and recurrent state (F32)$' "$scratch/out"
ok $? "granitehybrid: one attention layer's KV cache and three Mamba-2 states"

# Per-layer head counts.
mem "$m/openelm.gguf" --ctx 2048
grep -q '^2,048  *2,048  *1,835,008 ' "$scratch/out" &&
    grep -q 'blk.N, offloadable): 4 layers, 296,192 to 787,712 bytes each$' "$scratch/out"
ok $? "openelm: a KV row per layer; layers of different sizes"

# Sliding window.
mem "$m/gemma3.gguf" --ctx 5000
grep -q '^5,000  *5,120  *1,280  *3,276,800 ' "$scratch/out" &&
    grep -q '^window        600 tokens$' "$scratch/out" &&
    grep -q 'SWA cache of the window$' "$scratch/out"
ok $? "gemma3: 1 full layer of 5,120 cells, 6 of 600 + 512 rounded to 1,280"
mem "$m/gemma3.gguf" --ctx 5000 --swa-full
grep -q '^5,000  *5,120  *5,120  *9,175,040 ' "$scratch/out" &&
    grep -q 'full-size SWA cache$' "$scratch/out"
ok $? "--swa-full: every layer holds the context"
mem "$m/gemma3.gguf" --ctx 1000
grep -q '^1,000  *1,024  *1,024  ' "$scratch/out"
ok $? "gemma3: the window is capped at the full size"
mem "$m/gemma3-pattern.gguf" --ctx 5000
grep -q '^5,000  *5,120  *1,280  *5,242,880 ' "$scratch/out"
ok $? "gemma3: the file's sliding_window_pattern decides the layers"
mem "$m/gemma2.gguf" --ctx 9000
grep -q '^9,000  *9,216  *1,024  *5,242,880 ' "$scratch/out"
ok $? "gemma2: every other layer slides (window 300)"

mem "$m/cohere2.gguf" --ctx 3000 --parallel 2
grep -q '^3,000  *3,072  *2,560  *1,703,936 ' "$scratch/out"
ok $? "cohere2: three layers of four slide (window 700)"

mem "$m/gpt-oss.gguf" --ctx 3000 --parallel 2
grep -q '^3,000  *3,072  *1,536  *2,359,296 ' "$scratch/out"
ok $? "gpt-oss: every other layer slides (window 128)"

# Latent attention: K only.
mem "$m/deepseek2.gguf" --ctx 1000
grep -q '^1,000  *1,024  *393,216 ' "$scratch/out"
ok $? "deepseek2: K rows of kv_lora_rank + rope dims, no V cache"
mem "$m/deepseek2.gguf" --ctx 1000 --cache-type-k q8_0
[ $rc -eq 1 ] && [ "$(cat "$scratch/err")" = "ggufed: $m/deepseek2.gguf: llama.cpp refuses different K and V cache types for latent attention (V is read out of the K cache)" ]
ok $? "deepseek2: different K and V types refused, as llama.cpp does"

# Recurrent state.
mem "$m/mamba.gguf" --ctx 100 --parallel 3
grep -q '^100  *58,368 ' "$scratch/out" &&
    grep -q '^cache         recurrent state (F32), 3 sequences$' "$scratch/out"
ok $? "mamba: a conv and an SSM state per sequence"

mem "$m/mamba2.gguf" --ctx 3000 --parallel 2
grep -q '^3,000  *41,984 ' "$scratch/out"
ok $? "mamba2: the conv state counts the groups' B and C"

# A quantized cache whose block does not divide the head size.
# (value_length too: without it, llama.cpp's V head is embedding / heads)
"$GGUFED" edit "$m/llama-gqa.gguf" -e 'set llama.attention.key_length:u32 40' \
    -e 'set llama.attention.value_length:u32 40' -o "$scratch/k40.gguf" -q
mem "$scratch/k40.gguf" --cache-type-v q4_0
[ $rc -eq 1 ] && [ ! -s "$scratch/out" ] &&
    [ "$(cat "$scratch/err")" = "ggufed: $scratch/k40.gguf: llama.cpp refuses a V cache of type Q4_0 here: its block of 32 does not divide the head size 40" ]
ok $? "q4_0 V cache on heads of 40: refused, one line, exit 1"
mem "$scratch/k40.gguf" --ctx 1000
grep -q '^1,000  *1,024  *983,040 ' "$scratch/out"
ok $? "an edited key_length is the one computed with"

# A shard of a split model: its own weights, said so.
"$GGUFED" edit "$m/llama-gqa.gguf" -o "$scratch/shard.gguf" -q \
    -e 'set split.count:u16 3' -e 'set split.no:u16 1' \
    -e 'set split.tensors.count:i32 30'
mem "$scratch/shard.gguf"
grep -q '^  note        this file is shard 2 of 3: the weights are its own only$' "$scratch/out"
ok $? "a shard: the weights are said to be its own only"

# An architecture not modelled: weights only, said so.
"$GGUFED" set "$m/llama-gqa.gguf" general.architecture gpt2 \
    -o "$scratch/as-gpt2.gguf" -q
mem "$scratch/as-gpt2.gguf"
[ $rc -eq 0 ] && grep -q '^weights       2,043,392 ' "$scratch/out" &&
    grep -q '^cache         not modelled: the cache of architecture "gpt2" is not modelled (ggufed(1), mem, lists those that are)$' "$scratch/out" &&
    ! grep -q '^context' "$scratch/out"
ok $? "gpt2: weights, and the cache not modelled, no figure"
mem "$scratch/as-gpt2.gguf" --fit 1G
[ $rc -eq 1 ] && grep -q 'not modelled' "$scratch/err"
ok $? "--fit on an architecture not modelled: exit 1, said why"

# --fit
mem "$m/gemma3.gguf" --fit 10MiB
[ $rc -eq 0 ] &&
    grep -q '^fit           10,485,760 (10.0 MiB): context 768, cache 1,376,256 (1.3 MiB), compute 3,954,688 (3.8 MiB), with weights 9,612,576 (9.2 MiB)$' "$scratch/out"
ok $? "--fit 10MiB: the largest context that fits, its compute buffer counted"
grep -qx 'flags         -c 768 -ngl 0' "$scratch/out"
ok $? "--fit on the CPU: the llama.cpp flags of what fits" ||
    sed 's/^/# /' "$scratch/out"
mem "$m/gemma3.gguf" --fit 10MiB -ctk q8_0 -ctv q8_0 -np 2 -ub 256
cp "$scratch/out" "$scratch/short"
mem "$m/gemma3.gguf" --fit 10MiB --cache-type-k q8_0 --cache-type-v q8_0 \
    --parallel 2 --ubatch-size 256
[ $rc -eq 0 ] && cmp -s "$scratch/out" "$scratch/short" &&
    grep -q '^flags         -c [0-9]* -ngl 0 -ctk q8_0 -ctv q8_0 -fa on -ub 256 -np 2$' "$scratch/out"
ok $? "llama.cpp's -ctk, -ctv, -np are mem's options too; the flags give them back" ||
    sed 's/^/# /' "$scratch/out"
f=$(sed -n 's/^flags         //p' "$scratch/out")
# shellcheck disable=SC2086
mem "$m/gemma3.gguf" $f
[ $rc -eq 0 ] && grep -q '^context  ' "$scratch/out"
ok $? "... and the flags --fit prints are taken back by mem"
# Sizes by one rule (gguf-split's): M is 10^6, MiB 2^20.
mem "$m/gemma3.gguf" --fit 10M
grep -q '^fit           10,000,000 (9.5 MiB): ' "$scratch/out"
ok $? "--fit 10M: 10,000,000 bytes"
mem "$m/gemma3.gguf" --fit 10000KB
grep -q '^fit           10,000,000 ' "$scratch/out"
ok $? "--fit 10000KB: 10,000,000 bytes"
mem "$m/gemma3.gguf" --fit 10240KiB
grep -q '^fit           10,485,760 ' "$scratch/out"
ok $? "--fit 10240KiB: 10,485,760 bytes"
for bad in 10m 10MIB 10Mi0 1.5G; do
	mem "$m/gemma3.gguf" --fit "$bad"
	[ $rc -eq 2 ] && grep -q "not a size.*KiB, MiB, GiB, TiB" "$scratch/err" || break
done
ok $? "--fit 10m, 10MIB, 10Mi0, 1.5G: not sizes, the rule said"
mem "$m/gemma3.gguf" --fit 10MiB --parallel 2
grep -q '^fit  .*: context 1,024,' "$scratch/out"
ok $? "--fit with 2 sequences: two streams of 512 cells"
mem "$m/gemma3.gguf" --fit 1K
[ $rc -eq 1 ] && grep -q 'nothing fits' "$scratch/out"
ok $? "--fit 1K: nothing fits, exit 1"
mem "$m/mamba.gguf" --fit 1G
[ $rc -eq 0 ] && grep -q "context 4,294,967,040 (llama.cpp's largest)" "$scratch/out"
ok $? "--fit on a recurrent model: every context fits"

# JSON
mem "$m/gemma3.gguf" --ctx 5000 --fit 10MiB --json
[ $rc -eq 0 ] && "$jsoncheck" <"$scratch/out"
ok $? "--json is valid JSON"
grep -q '"k_layers": \[163840, 163840, 163840, 163840, 163840, 655360, 163840\]' "$scratch/out" &&
    grep -q '"modelled": true' "$scratch/out" &&
    grep -q '"fit": {"budget": 10485760, "context": 768,.*"compute": 3954688, "total": 9612576, "flags": "-c 768 -ngl 0"}' "$scratch/out"
ok $? "--json: per-layer bytes, modelled, fit"
mem "$scratch/as-gpt2.gguf" --json
[ $rc -eq 0 ] && "$jsoncheck" <"$scratch/out" &&
    grep -q '"modelled": false' "$scratch/out" &&
    grep -q '"contexts": \[\]' "$scratch/out"
ok $? "--json, not modelled: no contexts"

# Per-layer keys that are not one whole number >= 0 a layer: not modelled,
# said why, no figure, and --json does not crash on it.
for e in 'del openelm.attention.head_count[0]' \
    'del openelm.attention.head_count[0:4]' \
    'set openelm.attention.head_count:arr[i32] [2,-4,4,6]' \
    'del openelm.attention.head_count_kv[3]' \
    'del granitehybrid.attention.head_count_kv[0]'; do
	f=${e#* }; f=${f%%.*}
	key=${e#* }; key=${key%%[[:]*}
	"$GGUFED" edit "$m/$f.gguf" -o "$scratch/bad.gguf" -q --force -e "$e"
	mem "$scratch/bad.gguf"
	[ $rc -eq 0 ] &&
	    grep -q "^cache         not modelled: $key " "$scratch/out" &&
	    ! grep -q '^modelled' "$scratch/out" &&
	    ! grep -q '^context' "$scratch/out"
	ok $? "$e: not modelled, said why"
	mem "$scratch/bad.gguf" --json
	[ $rc -eq 0 ] && "$jsoncheck" <"$scratch/out" &&
	    grep -q '"modelled": false' "$scratch/out" &&
	    grep -q "\"why\": \"$key " "$scratch/out" &&
	    grep -q '"contexts": \[\]' "$scratch/out" &&
	    ! grep -q '"k_row": [1-9]' "$scratch/out"
	ok $? "$e: --json says not modelled"
	mem "$scratch/bad.gguf" --fit 1G
	[ $rc -eq 1 ] && [ ! -s "$scratch/out" ] &&
	    grep -q "^ggufed: $scratch/bad.gguf: --fit: $key " "$scratch/err"
	ok $? "$e: --fit fails, said why"
done

# The browser's Summary says the same (script mode).
"$GGUFED" edit "$m/openelm.gguf" -o "$scratch/bad.gguf" -q --force \
    -e 'del openelm.attention.head_count[0]'
printf 'size 120x40\ndump %s\nkeys q\n' "$scratch/mem.txt" >"$scratch/mem.script"
GGUFED_SCRIPT=$scratch/mem.script HOME=$scratch XDG_STATE_HOME=$scratch/state \
    "$GGUFED" "$scratch/bad.gguf" 2>/dev/null
grep -q 'KV cache  *not modelled: openelm.attention.head_count has 3 elements' "$scratch/mem.txt" &&
    ! grep -q '0 B' "$scratch/mem.txt"
ok $? "the browser's Memory: not modelled, said why, no 0 B" ||
    grep -A4 Memory "$scratch/mem.txt" | sed 's/^/# /'

# Sizes past 64 bits are too large, never wrapped.
"$GGUFED" set "$m/mamba.gguf" mamba.ssm.inner_size:u64 4611686018427387904 \
    -o "$scratch/big1.gguf" -q --force
mem "$scratch/big1.gguf"
[ $rc -eq 0 ] && grep -q '^cache         not modelled: mamba: the recurrent state is too large ' "$scratch/out" &&
    ! grep -q '0 (0 B)' "$scratch/out"
ok $? "mamba, ssm.inner_size 2^62: too large, not 0 B"
"$GGUFED" edit "$m/mamba.gguf" -o "$scratch/big2.gguf" -q \
    -e 'set mamba.ssm.inner_size 4294967295' \
    -e 'set mamba.ssm.state_size 4294967295'
mem "$scratch/big2.gguf"
[ $rc -eq 1 ] && [ ! -s "$scratch/out" ] &&
    [ "$(cat "$scratch/err")" = "ggufed: $scratch/big2.gguf: the cache is too large: over 2^64 bytes" ]
ok $? "mamba, inner and state 2^32-1: too large, not 64 GiB"
mem "$scratch/big2.gguf" --fit 1T --json
[ $rc -eq 1 ] && [ ! -s "$scratch/out" ] && grep -q 'too large' "$scratch/err"
ok $? "mamba, inner and state 2^32-1: --fit does not say everything fits"
"$GGUFED" set "$m/llama-gqa.gguf" llama.attention.key_length:u64 \
    9223372036854775808 -o "$scratch/big3.gguf" -q --force
mem "$scratch/big3.gguf"
[ $rc -eq 0 ] && grep -q "^cache         not modelled: llama: layer 0's K or V row is too large " "$scratch/out"
ok $? "key_length 2^63: a K row too large"
"$GGUFED" edit "$m/llama-gqa.gguf" \
    -e 'set llama.attention.key_length:u64 281474976710656' \
    -e 'set llama.attention.value_length:u64 281474976710656' \
    -o "$scratch/big4.gguf" -q --force
mem "$scratch/big4.gguf" --ctx 5000,100
[ $rc -eq 0 ] &&
    grep -q '^5,000        refused: the cache is too large: over 2^64 bytes$' "$scratch/out" &&
    grep -q '^100  *256  *1,729,382,256,910,270,464 ' "$scratch/out"
ok $? "key_length 2^48: too large at 5,000, 2^60 + 2^59 bytes at 256 cells"
mem "$scratch/big4.gguf" --ctx 5000 --fit 1T
[ $rc -eq 1 ] && grep -q 'too large' "$scratch/err"
ok $? "key_length 2^48: one context, too large: exit 1"
"$GGUFED" set "$m/gemma3.gguf" gemma3.attention.sliding_window:u64 \
    18446744073709551615 -o "$scratch/big5.gguf" -q --force
mem "$scratch/big5.gguf" --ctx 5000
grep -q '^5,000  *5,120  *5,120  *9,175,040 ' "$scratch/out"
ok $? "a window of 2^64-1: every cell, not a wrapped 512"

# Usage and file errors.
for a in "--ctx x" "--ctx 1,,2" "--ctx 4294967296" "--cache-type-k q4_k" \
    "--parallel 0" "--parallel 257" "--fit 12X" "--fit" "--bogus"; do
	# shellcheck disable=SC2086
	mem "$m/llama-gqa.gguf" $a
	[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 2 ] &&
	    grep -q '^usage: ggufed mem ' "$scratch/err"
	ok $? "mem $a: usage error, exit 2"
done
mem "$m/llama-gqa.gguf" --cache-type-k q4_k
grep -q "'q4_k' is not a cache type llama.cpp takes (f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1)" "$scratch/err"
ok $? "an unknown cache type lists the ones llama.cpp takes"
# A split model: any shard weighs the whole set; --shard the file alone.
DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
mkdir "$scratch/set"
"$GGUFED" split --max-tensors 10 "$DEMO" "$scratch/set/demo" 2>/dev/null
mem "$DEMO" --ctx 4096 --json
sed 's|"file": "[^"]*"|"file": F|' "$scratch/out" >"$scratch/whole"
mem "$scratch/set/demo-00002-of-00004.gguf" --ctx 4096 --json
sed 's|"file": "[^"]*"|"file": F|' "$scratch/out" >"$scratch/viaset"
[ $rc -eq 0 ] && [ -s "$scratch/whole" ] && cmp -s "$scratch/whole" "$scratch/viaset"
ok $? "a shard of a split model: the whole set is weighed, as the one file"
mem --shard "$scratch/set/demo-00002-of-00004.gguf"
[ $rc -eq 0 ] && grep -q '^weights  *377,088 ' "$scratch/out"
ok $? "--shard: that shard's weights alone"
mem
[ $rc -eq 2 ]; ok $? "mem without FILE: exit 2"
mem "$scratch/missing.gguf"
[ $rc -eq 1 ] && [ "$(cat "$scratch/err")" = "ggufed: $scratch/missing.gguf: No such file or directory" ]
ok $? "a missing file: one line, exit 1"

# --mmproj FILE: the projector's weights (here llama-gqa's tensors,
# 2,043,392 bytes in 30, as architecture clip) with the weights, on the GPU
# unless --no-mmproj-offload; its compute buffer not modelled, said.
"$GGUFED" set "$m/llama-gqa.gguf" general.architecture clip -q \
    -o "$scratch/mmproj.gguf" 2>/dev/null
mem "$m/gpt-oss.gguf" --ctx 4096 --json
t=$(sed -n 's/.*"context": 4096, .*"total": \([0-9]*\)}.*/\1/p' "$scratch/out")
mem "$m/gpt-oss.gguf" --ctx 4096 --mmproj "$scratch/mmproj.gguf" --json
[ $rc -eq 0 ] && "$jsoncheck" <"$scratch/out" && [ -n "$t" ] &&
    grep -q "\"total\": $((t + 2043392))}" "$scratch/out" &&
    grep -q '"projector": {"file": ".*mmproj.gguf", "bytes": 2043392, "tensors": 30, "device": "gpu", "proven": false, "compute": null, "compute_why": "not modelled"}' "$scratch/out"
ok $? "--mmproj: the projector's weights in the total, its compute buffer null" ||
    sed 's/^/# /' "$scratch/out"
mem "$m/gpt-oss.gguf" --ctx 4096 -mm "$scratch/mmproj.gguf"
[ $rc -eq 0 ] && grep -q '^projector     2,043,392 (1.9 MiB) (--mmproj), on the GPU; its compute buffer is not modelled$' "$scratch/out"
ok $? "-mm: the projector's line says where, and what is not modelled"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 0 --json
g=$(sed -n 's/.*"gpu": {"weights": \([0-9]*\),.*/\1/p' "$scratch/out" | head -1)
c=$(sed -n 's/.*"cpu": {"weights": \([0-9]*\),.*/\1/p' "$scratch/out" | head -1)
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 0 --mmproj "$scratch/mmproj.gguf" --json
[ "$(sed -n 's/.*"gpu": {"weights": \([0-9]*\),.*/\1/p' "$scratch/out" | head -1)" -eq $((g + 2043392)) ] &&
    [ "$(sed -n 's/.*"cpu": {"weights": \([0-9]*\),.*/\1/p' "$scratch/out" | head -1)" -eq "$c" ]
ok $? "--mmproj -ngl 0: the projector on the GPU all the same"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 0 --mmproj "$scratch/mmproj.gguf" --no-mmproj-offload --json
[ "$(sed -n 's/.*"gpu": {"weights": \([0-9]*\),.*/\1/p' "$scratch/out" | head -1)" -eq "$g" ] &&
    [ "$(sed -n 's/.*"cpu": {"weights": \([0-9]*\),.*/\1/p' "$scratch/out" | head -1)" -eq $((c + 2043392)) ] &&
    grep -q '"device": "cpu"' "$scratch/out"
ok $? "--no-mmproj-offload: the projector on the CPU"
mem "$m/gpt-oss.gguf" --ctx 4096 --mmproj "$m/llama-gqa.gguf"
[ $rc -eq 1 ] && [ ! -s "$scratch/out" ] &&
    grep -q '^ggufed: .*llama-gqa.gguf: --mmproj: not a projector (general.architecture is "llama", not "clip")$' "$scratch/err"
ok $? "--mmproj of a model that is not a projector: exit 1, said"
mem "$m/gpt-oss.gguf" --mmproj "$scratch/none.gguf"
[ $rc -eq 1 ] && grep -q 'none.gguf' "$scratch/err"
ok $? "--mmproj of no file: exit 1"
mem "$m/gpt-oss.gguf" --ctx 4096 --no-mmproj-offload
[ $rc -eq 0 ] && ! grep -q projector "$scratch/out"
ok $? "--no-mmproj-offload without --mmproj: nothing to place, as llama.cpp"
mem "$m/gpt-oss.gguf" --mmproj
[ $rc -eq 2 ]
ok $? "--mmproj without FILE: usage error"

# The compute buffer: llama.cpp's bytes where modelled (tests/interop/mem.sh
# proves them), else null with the reason, never an estimate.
mem "$m/llama-gqa.gguf" --ctx 4096,8192 --json
grep -q '"context": 4096, .*"compute": 6567936, "total": 11758112}' "$scratch/out" &&
    grep -q '"context": 8192, .*"compute": 10762240, "total": 19098144}' "$scratch/out" &&
    grep -q '"flash_attn": "auto",$' "$scratch/out" &&
    grep -q '"batch": 2048,$' "$scratch/out" &&
    grep -q '"ubatch": 512,$' "$scratch/out" &&
    "$jsoncheck" <"$scratch/out"
ok $? "--json: each context's compute buffer, in the total"
mem "$m/llama-gqa.gguf" --ctx 5000 -fa off -b 300 -ub 77 --json
grep -q '"compute": 8122944,' "$scratch/out" &&
    grep -q '"flash_attn": "off",$' "$scratch/out"
ok $? "-fa off -b 300 -ub 77: the compute buffer of that graph"
mem "$m/llama-gqa.gguf" --ctx 200 --flash-attn on --batch-size 2048 --ubatch-size 512 --json
grep -q '"compute": 1029600,' "$scratch/out"
ok $? "a context under the micro-batch caps it (llama.cpp's long option names)"
mem "$m/llama-gqa.gguf" --ctx 1000 --parallel 2 -fa off --json
grep -q '"compute": 6825984,' "$scratch/out"
ok $? "--parallel 2: a stream each, the graph of both"
mem "$m/deepseek2-nextn.gguf" --ctx 4096,8192 --json
[ "$(grep -c '"compute": null, "compute_why": "compute: not modelled for deepseek2 blocks with blk.2.nextn.eh_proj.weight", "total": [0-9]*}' "$scratch/out")" -eq 2 ] &&
    "$jsoncheck" <"$scratch/out"
ok $? "--json: a graph not modelled: null, said why"
mem "$m/deepseek2-nextn.gguf" --ctx 4096
grep -q '^compute       not modelled for deepseek2 blocks with blk.2.nextn.eh_proj.weight$' "$scratch/out" &&
    grep -q '^4,096  *4,096  *[0-9,]* ([0-9.]* [KM]iB)  *-  ' "$scratch/out"
ok $? "text: not modelled, said why; - in its column"
mem "$m/gemma3n-shared.gguf" --ctx 1000 -fa off --json
grep -q '"compute": 50937856,' "$scratch/out"
ok $? "gemma3n: altup, laurel, per-layer inputs, blocks sharing a cache"
mem "$m/gemma4.gguf" --ctx 1000 -fa off --json
grep -q '"compute": 12664832,' "$scratch/out"
ok $? "gemma4: head sizes of the sliding blocks, V padded without flash attention"
mem "$m/llama-gqa.gguf" --ctx 4096 -fa off --cache-type-v q8_0 --json
[ $rc -eq 1 ] && [ "$(cat "$scratch/err")" = "ggufed: $m/llama-gqa.gguf: llama.cpp refuses a quantized V cache without flash attention (--flash-attn on or auto)" ] &&
    ! grep -q '"total"' "$scratch/out"
ok $? "-fa off with a quantized V cache: llama.cpp refuses the context, exit 1, no totals"
mem "$m/llama-gqa.gguf" --ctx 4096 -ngl 1 --json
grep -q '"compute": null, "compute_why": "compute: not modelled with a GPU' "$scratch/out"
ok $? "--gpu-layers: the GPU's compute buffers are not modelled"
for bad in "-fa yes" "--flash-attn" "-b 0" "-ub x" "--batch-size 4294967296"; do
	# shellcheck disable=SC2086
	mem "$m/llama-gqa.gguf" $bad
	[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 2 ] &&
	    grep -q "^ggufed: ${bad%% *}[: ]" "$scratch/err" &&
	    grep -q '^usage: ggufed mem ' "$scratch/err"
	ok $? "$bad: usage error, the option named"
done
done_testing
