#!/bin/sh
# mem_split.sh - `ggufed mem --gpu-layers N` (-ngl N): which bytes
# llama.cpp puts on the GPU and which stay on the CPU, by its rule (the
# output layer first, then the repeating layers from the last; the input
# on the CPU; each layer's cache with its layer), the sums, the tied
# output, --fit on the GPU, and the errors. Not proven against llama.cpp:
# no GPU runs here; the figures are mem's own, split.
. "$TESTS_SRCDIR/lib.sh"
. "$TESTS_SRCDIR/cli/mem.lib"

# num KEY OBJECT: the number KEY of the JSON object OBJECT ("gpu", "cpu"
# or "" for the top) on the first split line of out.
num() {
	grep -m1 '"gpu_layers"' "$scratch/out" | sed "s/.*\"$2\": {\\([^}]*\\)}.*/\\1/" |
	    sed -n "s/.*\"$1\": \\([0-9]*\\).*/\\1/p"
}
top() {
	grep -m1 '"gpu_layers"' "$scratch/out" |
	    sed -n "s/.*\"$1\": \\([0-9a-z]*\\).*/\\1/p"
}

# llama-gqa: 3 layers of 590,848 bytes; token_embd 135,168; output and
# output_norm 135,680 (the output layer); KV 1,048,576 a layer at 4k.
mem "$m/llama-gqa.gguf" --ctx 4096 -ngl 0
[ $rc -eq 0 ] && grep -q '^split         -ngl 0: nothing on the GPU' "$scratch/out" &&
    grep -q '^4,096  *GPU 0 (0 B): weights 0 (0 B), cache 0 (0 B)$' "$scratch/out" &&
    grep -q '^  *CPU 5,190,176 (4.9 MiB): weights 2,043,392 (1.9 MiB), cache 3,145,728 (3.0 MiB), output 1,056 (1.0 KiB)$' "$scratch/out"
ok $? "-ngl 0: everything on the CPU" || sed 's/^/# /' "$scratch/out"
mem "$m/llama-gqa.gguf" --ctx 4096 -ngl 1
grep -q '^split         -ngl 1: the output layer alone on the GPU' "$scratch/out" &&
    grep -q '^4,096  *GPU 135,680 (132.5 KiB): weights 135,680 (132.5 KiB), cache 0 (0 B)$' "$scratch/out"
ok $? "-ngl 1: the output layer first, alone"
mem "$m/llama-gqa.gguf" --ctx 4096 --gpu-layers 3
grep -q '^split         -ngl 3: layers 1 to 2 and the output layer on the GPU' "$scratch/out" &&
    grep -q '^4,096  *GPU 3,414,528 (3.3 MiB): weights 1,317,376 (1.3 MiB), cache 2,097,152 (2.0 MiB)$' "$scratch/out" &&
    grep -q '^  *CPU 1,775,648 (1.7 MiB): weights 726,016 (709.0 KiB), cache 1,048,576 (1.0 MiB), output 1,056 ' "$scratch/out"
ok $? "-ngl n_layer: the output layer and the last n_layer - 1 layers, their caches with them"
mem "$m/llama-gqa.gguf" --ctx 4096 -ngl 4
grep -q '^split         -ngl 4: layers 0 to 2 and the output layer on the GPU' "$scratch/out" &&
    grep -q '^  *CPU 136,224 (133.0 KiB): weights 135,168 (132.0 KiB), cache 0 (0 B), output 1,056 ' "$scratch/out"
ok $? "-ngl n_layer + 1: every layer; token_embd and the output buffer stay on the CPU"
mem "$m/llama-gqa.gguf" --ctx 4096 -ngl 999
cp "$scratch/out" "$scratch/999"
mem "$m/llama-gqa.gguf" --ctx 4096 -ngl 4
sed 's/-ngl 999/-ngl 4/' "$scratch/999" | cmp -s - "$scratch/out"
ok $? "-ngl 999: the same as n_layer + 1"
mem "$m/llama-gqa.gguf" --ctx 4096 --gpu-layers all
sed 's/-ngl 999/-ngl 4/' "$scratch/999" | cmp -s - "$scratch/out"
ok $? "--gpu-layers all: every layer (-ngl n_layer + 1)"

# Without --gpu-layers nothing changes.
mem "$m/llama-gqa.gguf" --ctx 4096
! grep -q '^split\|GPU' "$scratch/out"
ok $? "no --gpu-layers: no split"

# The sums: GPU + CPU is the whole, to the byte (less the copies).
sums() {	# sums FILE N ARGS...: JSON sums hold at -ngl N
	sf=$1 sn=$2
	shift 2
	mem "$sf" -ngl "$sn" --json "$@"
	w=$(sed -n 's/^    "bytes": \([0-9]*\),$/\1/p' "$scratch/out" | head -1)
	c=$(sed -n 's/.*"cache": \([0-9]*\), "output".*"k_layers".*/\1/p' "$scratch/out" | head -1)
	t=$(sed -n 's/.*"total": \([0-9]*\)}$/\1/p' "$scratch/out" | head -1)
	cp=$(top copies)
	[ $rc -eq 0 ] && "$jsoncheck" <"$scratch/out" &&
	    [ -n "$w" ] && [ -n "$c" ] && [ -n "$t" ] &&
	    [ $(($(num weights gpu) + $(num weights cpu))) -eq $((w + cp)) ] &&
	    [ $(($(num cache gpu) + $(num cache cpu))) -eq "$c" ] &&
	    [ $(($(num total gpu) + $(num total cpu))) -eq $((t + cp)) ]
}
for f in llama-gqa gemma3 granitehybrid falcon-h1 mamba rwkv6 deepseek2 openelm; do
	fail=0
	for n in 0 1 2 3 4 5 6 7 8 999; do
		sums "$m/$f.gguf" $n --ctx 5000 --parallel 2 || { fail=1; break; }
	done
	[ $fail -eq 0 ]
	ok $? "$f: GPU + CPU = the total, weights and cache, at every -ngl" ||
	    echo "# at -ngl $n"
done

# A hybrid: each layer's state and KV cache follow its layer.
mem "$m/granitehybrid.gguf" --ctx 1000 --parallel 2 --json
k=$(sed -n 's/.*"k_layers": \[\([^]]*\)\].*/\1/p' "$scratch/out" | head -1)
v=$(sed -n 's/.*"v_layers": \[\([^]]*\)\].*/\1/p' "$scratch/out" | head -1)
last=$(echo "$k;$v" | awk -F';' '{ n = split($1, a, ", "); split($2, b, ", ")
	print a[n] + b[n], a[n - 1] + b[n - 1] }')
mem "$m/granitehybrid.gguf" --ctx 1000 --parallel 2 --json -ngl 3
[ "$(num cache gpu)" -eq $((${last% *} + ${last#* })) ] &&
    [ "$(top repeating_on_gpu)" = 2 ] && [ "$(top output_on_gpu)" = true ]
ok $? "granitehybrid -ngl 3: the last two layers' caches (state and KV) on the GPU"
grep -q '"proven": false' "$scratch/out"
ok $? "--json: the split says proven false"

# A tied output (no output.weight): token_embd copied to the output
# layer's device, in both sums.
"$GGUFED" edit "$m/llama-gqa.gguf" -o "$scratch/tied.gguf" -q \
    -e 'rm-tensor output.weight'
mem "$scratch/tied.gguf" --ctx 4096 -ngl 1 --json
# (the file weighs 1,908,224 bytes: 1,772,544 in the layers, token_embd
# 135,168, output_norm 512)
[ "$(num weights gpu)" -eq 135680 ] && [ "$(top copies)" -eq 135168 ] &&
    [ "$(num weights cpu)" -eq 1907712 ]
ok $? "tied output, -ngl 1: token_embd on the GPU as the output, and on the CPU as the input"
mem "$scratch/tied.gguf" --ctx 4096 -ngl 1
grep -q '^copies        135,168 (132.0 KiB) on both devices (token_embd.weight again as the output)$' "$scratch/out"
ok $? "tied output: the copy is said"
mem "$scratch/tied.gguf" --ctx 4096 -ngl 0 --json
[ "$(top copies)" -eq 0 ] && [ "$(num weights cpu)" -eq 1908224 ]
ok $? "tied output, -ngl 0: one copy, on the CPU"

# rope_freqs (here blk.0.attn_norm.weight renamed, 512 bytes) is loaded
# with every layer: a copy on each device that holds one.
"$GGUFED" rename "$m/llama-gqa.gguf" -o "$scratch/rope.gguf" -q --force \
    's/^blk\.0\.attn_norm\.weight$/rope_freqs.weight/' 2>/dev/null
mem "$scratch/rope.gguf" --ctx 4096 -ngl 2 --json
[ "$(top copies)" -eq 512 ] && [ "$(num weights gpu)" -eq 727040 ] &&
    [ "$(num weights cpu)" -eq 1316864 ]
ok $? "rope_freqs: on the GPU and on the CPU when both hold layers"
mem "$scratch/rope.gguf" --ctx 4096 -ngl 4 --json
[ "$(top copies)" -eq 0 ] && [ "$(num weights cpu)" -eq 135168 ]
ok $? "rope_freqs: on the GPU alone when it holds every layer"

# token_embd_norm goes with layer 0 (rwkv6: 2 layers, layer 0 of 393,216
# bytes, token_embd_norm's weight and bias 768).
mem "$m/rwkv6.gguf" -ngl 2 --json
g2=$(num weights gpu)
mem "$m/rwkv6.gguf" -ngl 3 --json
[ $(($(num weights gpu) - g2)) -eq $((393216 + 768)) ]
ok $? "rwkv6: token_embd_norm moves to the GPU with layer 0"

# A tensor of no known place: the split is not modelled, said why.
"$GGUFED" rename "$m/llama-gqa.gguf" -o "$scratch/foo.gguf" -q --force \
    's/^output_norm/foo/' 2>/dev/null
mem "$scratch/foo.gguf" -ngl 1
[ $rc -eq 1 ] && [ ! -s "$scratch/out" ] &&
    grep -q '^ggufed: .*foo.gguf: --gpu-layers: tensor foo.weight: the device llama.cpp loads it on is not known$' "$scratch/err"
ok $? "a tensor of no known place: exit 1, said which"

# --fit with --gpu-layers max: the most layers whose GPU part fits.
# At 4k: -ngl 2 needs 1,775,104 bytes, -ngl 3 3,414,528.
mem "$m/llama-gqa.gguf" --ctx 4096 --fit 1775104 --gpu-layers max
[ $rc -eq 0 ] && grep -q '^fit           1,775,104 (1.7 MiB) on the GPU at context 4,096: --gpu-layers 2 (layer 2 and the output layer on the GPU); GPU weights 726,528 (709.5 KiB), cache 1,048,576 (1.0 MiB)$' "$scratch/out"
ok $? "--gpu-layers max: 2 fit in exactly their bytes"
mem "$m/llama-gqa.gguf" --ctx 4096 --fit 3414527 --gpu-layers max
grep -q ': --gpu-layers 2 (' "$scratch/out"
ok $? "--gpu-layers max: one byte short of 3 layers gives 2"
mem "$m/llama-gqa.gguf" --ctx 4096 --fit 3414528 --gpu-layers max --json
[ $rc -eq 0 ] && "$jsoncheck" <"$scratch/out" &&
    grep -q '"fit": {"budget": 3414528, "on": "gpu", "proven": false, "context": 4096, "gpu_layers": 3,' "$scratch/out"
ok $? "--gpu-layers max --json: 3 fit"
mem "$m/llama-gqa.gguf" --ctx 4096 --fit 1T --gpu-layers max
grep -q ': --gpu-layers 4 (layers 0 to 2 and the output layer' "$scratch/out"
ok $? "--gpu-layers max: at most n_layer + 1"
mem "$m/llama-gqa.gguf" --ctx 4096 --fit 135679 --gpu-layers max
[ $rc -eq 1 ] && grep -q 'not one layer fits: -ngl 1 (the output layer alone on the GPU) needs 135,680 ' "$scratch/out"
ok $? "--gpu-layers max: not even the output layer fits, exit 1"

# --fit with -ngl N: the largest context whose GPU part fits.
mem "$m/llama-gqa.gguf" --fit 2MiB -ngl 2
[ $rc -eq 0 ] && grep -q '^fit           2,097,152 (2.0 MiB) on the GPU: context 5,120; GPU weights 726,528 (709.5 KiB), cache 1,310,720 (1.2 MiB)$' "$scratch/out"
ok $? "--fit 2MiB -ngl 2: the largest context whose GPU part fits"
mem "$m/llama-gqa.gguf" --fit 2037248 -ngl 2
grep -q 'context 5,120;' "$scratch/out"
ok $? "--fit -ngl 2: 5,120 fits in exactly its bytes"
mem "$m/llama-gqa.gguf" --fit 2037247 -ngl 2
grep -q 'context 4,864;' "$scratch/out"
ok $? "--fit -ngl 2: one byte less, 256 tokens less"
mem "$m/llama-gqa.gguf" --fit 1G -ngl 0
[ $rc -eq 0 ] && grep -q "context 4,294,967,040 (llama.cpp's largest)" "$scratch/out"
ok $? "--fit -ngl 0: the GPU holds nothing, every context fits"

# Errors: one line, and the usage.
for a in "-ngl -1" "-ngl x" "--gpu-layers 1.5" "-ngl" "--gpu-layers max" \
    "--gpu-layers max --fit 1G --ctx 1k,2k"; do
	# shellcheck disable=SC2086
	mem "$m/llama-gqa.gguf" $a
	[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 2 ] &&
	    grep -q '^usage: ggufed mem ' "$scratch/err"
	ok $? "mem $a: usage error, exit 2"
done
mem "$m/llama-gqa.gguf" -ngl -1
grep -q "^ggufed: --gpu-layers: '-1' is not a number of layers (0 or more, all, or max with --fit)$" "$scratch/err"
ok $? "-ngl -1: said why"
"$GGUFED" set "$m/llama-gqa.gguf" general.architecture gpt2 \
    -o "$scratch/as-gpt2.gguf" -q
mem "$scratch/as-gpt2.gguf" -ngl 2
[ $rc -eq 1 ] && [ ! -s "$scratch/out" ] &&
    grep -q '^ggufed: .*as-gpt2.gguf: --gpu-layers: the cache of architecture "gpt2" is not modelled' "$scratch/err"
ok $? "-ngl on an architecture not modelled: exit 1, said why"

# MoE expert placement: --cpu-moe, --n-cpu-moe N, -ot REGEX=BUFTYPE, as
# llama.cpp applies them with -ngl. gpt-oss: 4 layers of experts, each
# with ffn_{gate,up,down}_exps weights of 65,536 bytes and biases of 512,
# 512 and 1,024 (198,656 bytes a layer, 6 tensors); token_embd 135,168;
# 1,866,336 bytes in all.
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 999 --cpu-moe --json
[ $rc -eq 0 ] && "$jsoncheck" <"$scratch/out" &&
    [ "$(num weights cpu)" -eq $((135168 + 4 * 198656)) ] &&
    [ "$(num weights gpu)" -eq $((1866336 - 135168 - 4 * 198656)) ] &&
    grep -q '{"option": "--cpu-moe", "patterns": \["\\\\.ffn_(up|down|gate|gate_up)_(ch|)exps"\], "buffer_type": "CPU", "device": "cpu", "matched": 24, "tensors": 24, "bytes": 794624}' "$scratch/out"
ok $? "--cpu-moe -ngl 999: every expert tensor on the CPU, the rest on the GPU" ||
    sed 's/^/# /' "$scratch/out"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 999 --cpu-moe
grep -q '^override      --cpu-moe: 24 tensors, 794,624 (776.0 KiB), on the CPU$' "$scratch/out"
ok $? "--cpu-moe: what it placed is said"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 999 --n-cpu-moe 2 --json
[ $rc -eq 0 ] && [ "$(num weights cpu)" -eq $((135168 + 2 * 198656)) ] &&
    grep -q '"option": "--n-cpu-moe", "layers": 2, "patterns": \["blk\\\\.0\\\\.ffn_(up|down|gate|gate_up)_(ch|)exps", "blk\\\\.1\\\\.ffn_(up|down|gate|gate_up)_(ch|)exps"\], .*"tensors": 12, "bytes": 397312}' "$scratch/out"
ok $? "--n-cpu-moe 2: the experts of blocks 0 and 1 on the CPU, one rule a block" ||
    sed 's/^/# /' "$scratch/out"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 999 -ncmoe 99 --json
[ "$(num weights cpu)" -eq $((135168 + 4 * 198656)) ]
ok $? "--n-cpu-moe beyond the layers: every layer's experts"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 999 --n-cpu-moe 0
[ $rc -eq 0 ] && grep -q '^override      --n-cpu-moe 0: matches no tensor$' "$scratch/out"
ok $? "--n-cpu-moe 0: no rule, said"
# The cache stays with its layer: -ngl 999 puts it all on the GPU.
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 999 --json
c=$(num cache gpu)
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 999 --cpu-moe --json
[ "$(num cache gpu)" -eq "$c" ] && [ "$(num cache cpu)" -eq 0 ]
ok $? "--cpu-moe: the cache stays with the layers, on the GPU"
# A rule to a GPU holds with -ngl 0; the first rule to match wins.
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 0 -ot 'exps=CUDA0' --cpu-moe --json
[ $rc -eq 0 ] && [ "$(num weights gpu)" -eq $((4 * 198656)) ] &&
    [ "$(num cache gpu)" -eq 0 ]
ok $? "-ot exps=CUDA0 -ngl 0: the experts on the GPU, all else on the CPU"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 0 -ot 'exps=CUDA0' --cpu-moe
grep -q '^override      --cpu-moe: places no tensor (the 24 it matches are placed by an earlier rule)$' "$scratch/out"
ok $? "a rule after one that took its tensors places none, said"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 0 --cpu-moe -ot 'exps=CUDA0' --json
[ "$(num weights gpu)" -eq 0 ]
ok $? "--cpu-moe before -ot exps=CUDA0: --cpu-moe wins"
# Several pairs in one -ot, and several -ot.
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl 2 \
    -ot 'blk\.3\.ffn_up=CPU,^token_embd\.=Vulkan0' -ot 'nothing=CPU'
[ $rc -eq 0 ] &&
    grep -q "^override      -ot 'blk\\\\.3\\\\.ffn_up=CPU': 2 tensors, 66,048 (64.5 KiB), on the CPU$" "$scratch/out" &&
    grep -q "^override      -ot '^token_embd\\\\.=Vulkan0': 1 tensor, 135,168 (132.0 KiB), on the GPU$" "$scratch/out" &&
    grep -q "^override      -ot 'nothing=CPU': matches no tensor$" "$scratch/out" &&
    grep -q "^ggufed: .*gpt-oss.gguf: warning: -ot 'nothing=CPU' matches no tensor$" "$scratch/err"
ok $? "-ot A=B,C=D -ot E=F: each pair a rule; one that matches nothing is said" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"
mem "$m/llama-gqa.gguf" --ctx 4096 -ngl 4 --cpu-moe
[ $rc -eq 0 ] && grep -q '^override      --cpu-moe: matches no tensor$' "$scratch/out"
ok $? "--cpu-moe on a dense model: matches no tensor, said"
# The sums hold with the rules, at every -ngl.
for rules in "--cpu-moe" "--n-cpu-moe 3" "-ot exps=CUDA0" \
    "-ot blk\.[02]\.=CPU,output=CUDA1"; do
	fail=0
	for n in 0 1 2 3 4 5 999; do
		# shellcheck disable=SC2086
		sums "$m/gpt-oss.gguf" $n --ctx 5000 $rules || { fail=1; break; }
	done
	[ $fail -eq 0 ]
	ok $? "gpt-oss $rules: GPU + CPU = the total at every -ngl" ||
	    echo "# at -ngl $n"
done
# A tensor llama.cpp loads more than once: not modelled, said.
mem "$scratch/tied.gguf" --ctx 4096 -ngl 1 -ot 'token_embd=CPU'
[ $rc -eq 1 ] && [ ! -s "$scratch/out" ] &&
    grep -q "^ggufed: .*tied.gguf: --gpu-layers: tensor token_embd.weight, which llama.cpp loads more than once, is placed by 'token_embd': where its copies go is not modelled$" "$scratch/err"
ok $? "-ot on a tied token_embd: not modelled, exit 1"
mem "$scratch/rope.gguf" --ctx 4096 -ngl 1 -ot 'rope=CUDA0'
[ $rc -eq 1 ] && grep -q 'tensor rope_freqs.weight, which llama.cpp loads more than once' "$scratch/err"
ok $? "-ot on rope_freqs: not modelled, exit 1"
# --gpu-layers max with --cpu-moe: more layers fit.
mem "$m/gpt-oss.gguf" --ctx 4096 --fit 3MiB --gpu-layers max --json
a=$(sed -n 's/.*"fit": {.*"gpu_layers": \([0-9]*\),.*/\1/p' "$scratch/out")
mem "$m/gpt-oss.gguf" --ctx 4096 --fit 3MiB --gpu-layers max --cpu-moe --json
b=$(sed -n 's/.*"fit": {.*"gpu_layers": \([0-9]*\),.*/\1/p' "$scratch/out")
[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ]
ok $? "--gpu-layers max --cpu-moe: more layers fit than without ($a, $b)"
# Errors.
for a in "-ot x=GPU" "-ot x=cpu" "-ot x" "-ot (=CPU" "-ot" \
    "-ngl 1 --n-cpu-moe -1" "-ngl 1 --n-cpu-moe x" "-ngl 1 -ncmoe"; do
	# shellcheck disable=SC2086
	mem "$m/gpt-oss.gguf" -ngl 1 $a
	[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 2 ] &&
	    grep -q '^usage: ggufed mem ' "$scratch/err"
	ok $? "mem -ngl 1 $a: usage error, exit 2"
done
mem "$m/gpt-oss.gguf" -ngl 1 -ot 'x=GPU'
grep -q "^ggufed: -ot: 'GPU' is not a buffer type llama.cpp takes (CPU, or a GPU's: CUDA0, " "$scratch/err"
ok $? "-ot x=GPU: the buffer type is named"
mem "$m/gpt-oss.gguf" --cpu-moe
[ $rc -eq 2 ] && grep -q '^ggufed: --cpu-moe, --n-cpu-moe and -ot need --gpu-layers N (-ngl N)$' "$scratch/err"
ok $? "--cpu-moe without -ngl: usage error, said why"

# --fit with --n-cpu-moe max: the fewest layers' experts on the CPU with
# which the layers asked for fit, then (-ngl max) the most layers with
# every expert on the CPU. gpt-oss at 4k, -ngl all: 4,221,536 bytes on
# the GPU, 198,656 less for each layer whose experts stay on the CPU.
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl all --n-cpu-moe max --fit 4221536
[ $rc -eq 0 ] && grep -q '^fit           4,221,536 (4.0 MiB) on the GPU at context 4,096: --n-cpu-moe 0, --gpu-layers 5 (layers 0 to 3 and the output layer on the GPU); GPU weights 1,731,168 (1.7 MiB), cache 2,490,368 (2.4 MiB)$' "$scratch/out" &&
    grep -q '^flags         -c 4096 -ngl 5 --n-cpu-moe 0$' "$scratch/out" &&
    [ ! -s "$scratch/err" ]
ok $? "--n-cpu-moe max: none on the CPU when all fits in exactly its bytes" ||
    sed 's/^/# /' "$scratch/out" "$scratch/err"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl all --n-cpu-moe max --fit 4221535
grep -q ': --n-cpu-moe 1, --gpu-layers 5 (' "$scratch/out" &&
    grep -q '^flags         -c 4096 -ngl 5 --n-cpu-moe 1$' "$scratch/out"
ok $? "--n-cpu-moe max: one byte less, one layer's experts on the CPU"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl all --n-cpu-moe max --fit $((4221536 - 2 * 198656))
grep -q ': --n-cpu-moe 2, --gpu-layers 5 (' "$scratch/out"
ok $? "--n-cpu-moe max: two layers' experts in exactly their bytes"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl all --n-cpu-moe max --fit $((4221536 - 4 * 198656 - 1))
[ $rc -eq 1 ] && grep -q '^fit .*: nothing fits: -ngl 5 with every expert on the CPU needs 3,426,912 (3.3 MiB)$' "$scratch/out"
ok $? "--n-cpu-moe max -ngl all: nothing fits, exit 1"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl max --n-cpu-moe max --fit $((4221536 - 4 * 198656 - 1)) --json
[ $rc -eq 0 ] && "$jsoncheck" <"$scratch/out" &&
    grep -q '"fit": {"budget": 3426911, "on": "gpu", "proven": false, "context": 4096, "n_cpu_moe": 4, "gpu_layers": 4,.*"flags": "-c 4096 -ngl 4 --n-cpu-moe 4"}' "$scratch/out"
ok $? "--n-cpu-moe max -ngl max: every expert on the CPU, then the most layers" ||
    sed 's/^/# /' "$scratch/out"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl max --n-cpu-moe max --fit 100K
[ $rc -eq 1 ] && grep -q 'not one layer fits: -ngl 1 (the output layer alone on the GPU) with every expert on the CPU needs 135,680 ' "$scratch/out"
ok $? "--n-cpu-moe max -ngl max: not one layer fits, exit 1"
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl all --n-cpu-moe max --fit 4M --cache-type-v q8_0 --parallel 2 --json
grep -q '"flags": "-c 4096 -ngl 5 --n-cpu-moe [0-9]* -ctv q8_0 -fa on -np 2"' "$scratch/out"
ok $? "--fit flags: the cache type, flash attention for a quantized V, the sequences"
mem "$m/gpt-oss.gguf" -ngl all --n-cpu-moe max --fit 1G
grep -q '^fit .* at context 131,072: --n-cpu-moe 0' "$scratch/out"
ok $? "--n-cpu-moe max without --ctx: at the training context"
mem "$m/llama-gqa.gguf" --ctx 4096 --fit 1775104 --gpu-layers max
grep -q '^flags         -c 4096 -ngl 2$' "$scratch/out"
ok $? "--gpu-layers max: the flags found"
for a in "-ngl 1 --n-cpu-moe max" "-ngl 1 --n-cpu-moe max --fit 1G --ctx 1k,2k" \
    "-ngl 1 --n-cpu-moe max --n-cpu-moe max --fit 1G"; do
	# shellcheck disable=SC2086
	mem "$m/gpt-oss.gguf" $a
	[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 2 ]
	ok $? "mem $a: usage error, exit 2"
done
mem "$m/gpt-oss.gguf" --ctx 4096 -ngl max --fit 1G -ot "it's=CPU"
grep -q "^flags         -c 4096 -ngl 5 -ot 'it'\\\\''s=CPU'\$" "$scratch/out"
ok $? "--fit flags: an -ot pattern quoted for a shell" || sed 's/^/# /' "$scratch/out"
done_testing
