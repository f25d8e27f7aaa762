#!/bin/sh
# mem.sh - `ggufed mem` against llama.cpp itself: tiny models of each
# architecture ggufed models (written by tests/tools/gen_memmodels) and
# the real llama fixtures are loaded by llama.cpp's own library (the
# prebuilt one of the npm package the ggml oracle uses, on the CPU) at
# several contexts, cache types, parallel sequences and SWA settings.
# For every case:
#   - each layer's K (or R) and V (or S) bytes: ggufed's figure must equal
#     ggml_nbytes of the cache tensor llama.cpp allocates for that layer
#     (tests/interop/llama_mem reads them as llama.cpp allocates them);
#   - llama.cpp's own log line of each cache ("size = X MiB (N cells"):
#     its cell count and its MiB, to the two decimals it prints, must be
#     ggufed's;
#   - the output buffer llama.cpp allocates beside the cache (the buffer
#     allocation llama_mem sees just before llama.cpp logs its size);
#   - where llama.cpp refuses the context (a quantized cache whose block
#     does not divide the head size), ggufed must refuse it too.
# Then the compute buffer llama.cpp's scheduler allocates for its graphs
# (llama_mem's "compute" records), at several contexts, -fa on, off and
# auto, -b and -ub, in fixed and seeded random models of each architecture
# whose graph ggufed models; and what it does not model is null, said why.
# Then the walk: every key ggufed reads, removed and changed, in a model
# of every architecture it models (see below).
. "$TESTS_SRCDIR/lib.sh"

llama_libdir
probe="$TESTS_BUILDDIR/interop/llama_mem"
"$TESTS_BUILDDIR/tools/gen_memmodels" "$scratch" ||
    { echo "Bail out! gen_memmodels failed"; exit 1; }

# Every one of these models llama.cpp loads (the cases below load each):
# the model check finds no error in any (gemma4's optional output scales
# once were "not used by gemma4").
for f in "$scratch"/*.gguf; do
	"$GGUFED" validate "$f" >"$scratch/validate.out" 2>&1
	! grep -q ': error: ' "$scratch/validate.out"
	ok $? "$(basename "$f"): no error in a model llama.cpp loads" ||
	    grep ': error: ' "$scratch/validate.out" | head -3 | sed 's/^/# /'
done

# The per-layer bytes ggufed computes for the first context of a --json
# output: "layer N k BYTES v BYTES" lines.
ours_layers() {
	sed -n 's/.*"k_layers": \[\([^]]*\)\], "v_layers": \[\([^]]*\)\].*/\1;\2/p' "$1" |
	    head -1 | awk -F';' '{
		n = split($1, k, ", "); split($2, v, ", ")
		for (i = 1; i <= n; i++)
			printf "layer %d k %s v %s\n", i - 1, k[i], v[i]
	}'
}

# The same from the tensors llama.cpp allocated.
theirs_layers() {	# theirs_layers PROBE_OUTPUT N_LAYER
	awk -v nl="$2" '$1 == "tensor" {
		il = $2; sub(/.*_l/, "", il)
		kind = substr($2, 7, 1)
		if (kind == "k" || kind == "r") k[il] += $NF
		else v[il] += $NF
	} END {
		for (i = 0; i < nl; i++)
			printf "layer %d k %d v %d\n", i, k[i], v[i]
	}' "$1"
}

# Each cache's (cells, MiB) as llama.cpp logs it, and as ggufed's bytes
# give it, in llama.cpp's format.
theirs_sizes() {
	sed -n 's/^log llama_\(kv_cache\|memory_recurrent\): size = *\([0-9.]*\) MiB ( *\([0-9]*\) cells.*/\3 \2/p' "$1" |
	    sort
}
ours_sizes() {	# ours_sizes JSON N_SEQ
	sed -n '/"context": /{p;q;}' "$1" | awk -v seq="$2" '
	function num(key,   s) {
		s = $0
		if (!match(s, "\"" key "\": [0-9]+"))
			return 0
		s = substr(s, RSTART, RLENGTH)
		sub(/.*: /, "", s)
		return s + 0
	}
	{
		mib = 1024 * 1024
		if (num("k") + num("v") > 0)
			printf "%d %.2f\n", num("cells"), (num("k") + num("v")) / mib
		if (num("cells_swa") > 0)
			printf "%d %.2f\n", num("cells_swa"), (num("k_swa") + num("v_swa")) / mib
		if (num("r") + num("s") > 0)
			printf "%d %.2f\n", seq, (num("r") + num("s")) / mib
	}' | sort
}

# check MODEL CTX PARALLEL TYPE_K TYPE_V [swa-full]
check() {
	model=$1 ctx=$2 par=$3 tk=$4 tv=$5 full=${6:-}
	name="$(basename "$model") ctx $ctx x$par K $tk V $tv${full:+ swa-full}"
	set -- --ctx "$ctx" --parallel "$par"
	GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$model" "$@" --type-k "$tk" \
	    --type-v "$tv" ${full:+--swa-full} >"$scratch/probe.txt" \
	    2>"$scratch/probe.err"
	prc=$?
	"$GGUFED" mem "$model" "$@" --cache-type-k "$tk" --cache-type-v "$tv" \
	    ${full:+--swa-full} --json >"$scratch/mem.json" 2>"$scratch/mem.err"
	mrc=$?
	if [ $prc -eq 3 ] && grep -q '^context failed' "$scratch/probe.txt"; then
		# llama.cpp refused the context: so must ggufed, saying why.
		[ $mrc -eq 1 ] && grep -q 'llama.cpp refuses' "$scratch/mem.err"
		ok $? "$name: llama.cpp refuses, and so does ggufed" ||
		    sed 's/^/# /' "$scratch/probe.txt" "$scratch/mem.err" | grep -v tensor
		return
	fi
	# (rwkv6's tiny model: llama.cpp gives up on its graph, an assertion,
	# after allocating its cache, which is still compared.)
	if { [ $prc -ne 0 ] && ! grep -q '^tensor cache_' "$scratch/probe.txt"; } ||
	    [ $mrc -ne 0 ]; then
		ok 1 "$name: llama.cpp ($prc) and ggufed ($mrc) both compute it"
		sed 's/^/# /' "$scratch/probe.txt" "$scratch/probe.err" \
		    "$scratch/mem.err" | tail -8
		return
	fi
	nl=$(sed -n 's/^  "layers": \([0-9]*\),$/\1/p' "$scratch/mem.json")
	ours_layers "$scratch/mem.json" >"$scratch/ours.txt"
	theirs_layers "$scratch/probe.txt" "$nl" >"$scratch/theirs.txt"
	# A layer llama.cpp allocates nothing for is one ggufed counts 0 for;
	# at least one layer must hold something, or nothing was compared.
	grep -q 'k [1-9]' "$scratch/theirs.txt" &&
	    diff "$scratch/theirs.txt" "$scratch/ours.txt" >"$scratch/diff"
	ok $? "$name: every layer's cache bytes are llama.cpp's" ||
	    sed 's/^/# /' "$scratch/diff"
	theirs_sizes "$scratch/probe.txt" >"$scratch/ts.txt"
	ours_sizes "$scratch/mem.json" "$par" >"$scratch/os.txt"
	[ -s "$scratch/ts.txt" ] && diff "$scratch/ts.txt" "$scratch/os.txt" >"$scratch/diff"
	ok $? "$name: cells and MiB of each cache are those llama.cpp logs" ||
	    sed 's/^/# /' "$scratch/diff"
	# The output buffer: the allocation llama_mem sees just before
	# llama.cpp logs its size.
	theirs=$(awk '$1 == "buffer" { b = $2 }
	    /output buffer size/ { print b; exit }' "$scratch/probe.txt")
	ours=$(sed -n 's/.*"output": \([0-9]*\),.*/\1/p' "$scratch/mem.json" |
	    head -1)
	[ -n "$theirs" ] && [ "$theirs" = "$ours" ]
	ok $? "$name: the output buffer is llama.cpp's ($theirs bytes)" ||
	    echo "# ggufed: $ours"
}

m=$scratch
# llama, grouped-query attention (4 heads, 2 KV heads of 32)
check "$m/llama-gqa.gguf" 1000 1 f16 f16
check "$m/llama-gqa.gguf" 4096 1 f16 f16
check "$m/llama-gqa.gguf" 513 2 f16 f16
check "$m/llama-gqa.gguf" 5000 3 q8_0 q8_0
check "$m/llama-gqa.gguf" 300 1 bf16 q4_0
check "$m/llama-gqa.gguf" 2000 4 q4_1 iq4_nl
check "$m/llama-gqa.gguf" 700 1 q5_0 q5_1
check "$m/llama-gqa.gguf" 256 1 f32 f32
# qwen2 (biases), qwen3 (head size 48, not embedding / heads)
check "$m/qwen2.gguf" 1000 2 f16 f16
check "$m/qwen2.gguf" 33000 1 q8_0 q8_0
check "$m/qwen3.gguf" 1000 2 f16 f16
check "$m/qwen3.gguf" 4096 1 q4_0 f16
check "$m/qwen3.gguf" 4096 1 f16 q5_1
# minimax-m2 and apertus (one KV head of 24)
check "$m/minimax-m2.gguf" 1000 2 f16 f16
check "$m/minimax-m2.gguf" 5000 1 q8_0 q8_0
check "$m/apertus.gguf" 3000 3 f16 bf16
# bailingmoe2 and grovemoe (one KV head of 24, experts)
check "$m/bailingmoe2.gguf" 1000 2 f16 f16
check "$m/bailingmoe2.gguf" 5000 1 q8_0 q8_0
check "$m/grovemoe.gguf" 3000 3 f16 bf16
# per-layer head counts
check "$m/openelm.gguf" 2048 1 f16 f16
check "$m/openelm.gguf" 777 2 q5_0 q8_0
# sliding window: gemma2 (every other layer, window 300)
check "$m/gemma2.gguf" 1000 1 f16 f16
check "$m/gemma2.gguf" 9000 1 f16 f16
check "$m/gemma2.gguf" 9000 1 f16 f16 swa-full
check "$m/gemma2.gguf" 3000 4 q8_0 f16
# gemma3 (5 of 6 layers, window 600)
check "$m/gemma3.gguf" 1000 1 f16 f16
check "$m/gemma3.gguf" 5000 1 f16 f16
check "$m/gemma3.gguf" 40000 2 f16 f16
check "$m/gemma3.gguf" 5000 1 q8_0 q4_0 swa-full
check "$m/gemma3-pattern.gguf" 5000 1 f16 f16
# cohere2 (3 of 4 layers, window 700, one KV head)
check "$m/cohere2.gguf" 3000 2 f16 f16
check "$m/cohere2.gguf" 8192 1 q8_0 q8_0
check "$m/cohere2.gguf" 8192 1 f16 f16 swa-full
# gpt-oss (mixture of experts; every other layer, window 128)
check "$m/gpt-oss.gguf" 3000 2 f16 f16
check "$m/gpt-oss.gguf" 131072 1 q8_0 q8_0
# llama4: chunked attention (chunks of 8192) on 3 layers of 4
check "$m/llama4-chunked.gguf" 1000 1 f16 f16
check "$m/llama4-chunked.gguf" 20000 1 f16 f16
check "$m/llama4-chunked.gguf" 20000 2 q8_0 f16
check "$m/llama4-chunked.gguf" 9000 1 f16 f16 swa-full
# gemma3n: 4 sliding layers of 5; from the 20th, no cache of their own
check "$m/gemma3n-shared.gguf" 1000 1 f16 f16
check "$m/gemma3n-shared.gguf" 20000 2 f16 f16
check "$m/gemma3n-shared.gguf" 5000 1 q8_0 f16 swa-full
# gemma4: sliding layers flagged by the file, with a head size of their
# own (20, the other layers 32); one layer reusing another's cache
check "$m/gemma4.gguf" 1000 1 f16 f16
check "$m/gemma4.gguf" 9000 3 f16 f16
check "$m/gemma4-shared.gguf" 5000 1 f16 f16
check "$m/gemma4-shared.gguf" 5000 2 q8_0 q8_0
# without flash attention (V transposed) every V row is the widest
# layer's: gemma4's sliding layers, openelm's layers of fewer KV heads
for f in gemma4 gemma4-shared openelm; do
	GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$m/$f.gguf" --ctx 3000 \
	    --flash-attn 0 >"$scratch/probe.txt" 2>/dev/null
	"$GGUFED" mem "$m/$f.gguf" --ctx 3000 -fa off --json >"$scratch/mem.json"
	nl=$(sed -n 's/^  "layers": \([0-9]*\),$/\1/p' "$scratch/mem.json")
	ours_layers "$scratch/mem.json" >"$scratch/ours.txt"
	theirs_layers "$scratch/probe.txt" "$nl" >"$scratch/theirs.txt"
	grep -q 'k [1-9]' "$scratch/theirs.txt" &&
	    diff "$scratch/theirs.txt" "$scratch/ours.txt" >"$scratch/diff"
	ok $? "$f.gguf ctx 3000 -fa off: every layer's cache bytes are llama.cpp's" ||
	    sed 's/^/# /' "$scratch/diff"
done
# gemma4 of one block: llama.cpp wants two with a cache of their own
"$GGUFED" new gemma4 -o "$scratch/g4.gguf" --force -q \
    -e "set gemma4.block_count 1" \
    -e "set gemma4.attention.sliding_window_pattern:arr[bool] [true]"
GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$scratch/g4.gguf" --ctx 1000 \
    >"$scratch/probe.txt" 2>/dev/null
! grep -q '^tensor cache_' "$scratch/probe.txt" &&
    "$GGUFED" mem "$scratch/g4.gguf" --ctx 1000 2>&1 |
    grep -q '^cache  *not modelled: gemma4.attention.shared_kv_layers (0) leaves fewer than 2 layers'
ok $? "gemma4 of one block: llama.cpp gives up, ggufed says not modelled"
# latent attention
check "$m/deepseek2.gguf" 1000 1 f16 f16
check "$m/deepseek2.gguf" 20000 2 q8_0 q8_0
check "$m/deepseek2.gguf" 3000 1 q8_0 f16
# a NextN (multi-token prediction) layer: no cache
check "$m/deepseek2-nextn.gguf" 256 1 f16 f16
check "$m/deepseek2-nextn.gguf" 5000 2 q8_0 q8_0
# recurrent
check "$m/mamba.gguf" 100 1 f16 f16
check "$m/mamba.gguf" 8192 3 f16 f16
check "$m/mamba2.gguf" 3000 2 f16 f16
# hybrid: Mamba-2 layers (head_count_kv 0) and attention
check "$m/granitehybrid.gguf" 1000 2 f16 f16
check "$m/granitehybrid.gguf" 20000 1 q8_0 bf16
# jamba: Mamba (1) state where head_count_kv is 0, attention on block 2
check "$m/jamba.gguf" 1000 1 f16 f16
check "$m/jamba.gguf" 5000 2 q8_0 q8_0
check "$m/jamba.gguf" 20000 3 f16 f32
# nemotron-h: Mamba-2 on blocks 0 and 3, attention on 1, feed-forward
# only (no cache) on 2
check "$m/nemotron_h.gguf" 1000 1 f16 f16
check "$m/nemotron_h.gguf" 5000 2 f16 f16
check "$m/nemotron_h.gguf" 20000 4 q8_0 f16
# qwen3next: gated delta-net state on blocks 0-2, attention on block 3
check "$m/qwen3next.gguf" 1000 1 f16 f16
check "$m/qwen3next.gguf" 5000 2 f16 f16
check "$m/qwen3next.gguf" 20000 3 q8_0 q8_0
# qwen35 (dense) and qwen35moe: the same layout
check "$m/qwen35.gguf" 1000 1 f16 f16
check "$m/qwen35.gguf" 5000 2 q8_0 f16
check "$m/qwen35moe.gguf" 1000 2 f16 f16
check "$m/qwen35moe.gguf" 20000 3 q8_0 q8_0
# lfm2: short-conv state (2 x embedding) where head_count_kv is 0,
# attention on block 2
check "$m/lfm2.gguf" 1000 1 f16 f16
check "$m/lfm2.gguf" 5000 2 f16 f16
check "$m/lfm2.gguf" 20000 3 q8_0 bf16
# lfm2moe: the same layout, with experts
check "$m/lfm2moe.gguf" 1000 1 f16 f16
check "$m/lfm2moe.gguf" 5000 2 q8_0 q8_0
# RWKV state: token shift (2 x embedding) and WKV (embedding x head size)
check "$m/rwkv6.gguf" 1000 1 f16 f16
check "$m/rwkv6.gguf" 8192 3 f16 f16
check "$m/rwkv7.gguf" 1000 2 f16 f16
check "$m/rwkv7.gguf" 100 5 f16 f16
# falcon-h1: attention and a Mamba-2 state on every layer
check "$m/falcon-h1.gguf" 1000 2 f16 f16
check "$m/falcon-h1.gguf" 20000 1 q8_0 f16
check "$m/falcon-h1.gguf" 3000 3 f32 bf16
# a quantized V cache without flash attention: llama.cpp refuses the
# context whatever the model holds (attention, recurrent state, latent
# attention with K and V of one type)
for f in llama-gqa mamba rwkv6 deepseek2; do
	GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$m/$f.gguf" --ctx 1000 \
	    --flash-attn 0 --type-k q8_0 --type-v q8_0 >"$scratch/probe.txt" \
	    2>/dev/null
	prc=$?
	"$GGUFED" mem "$m/$f.gguf" --ctx 1000 -fa off -ctk q8_0 -ctv q8_0 \
	    >/dev/null 2>"$scratch/mem.err"
	mrc=$?
	[ $prc -eq 3 ] && grep -q '^context failed' "$scratch/probe.txt" &&
	    [ $mrc -eq 1 ] && grep -q 'llama.cpp refuses a quantized V cache' \
	    "$scratch/mem.err"
	ok $? "$f.gguf -fa off, K and V q8_0: llama.cpp refuses the context, and so does ggufed" ||
	    echo "# llama.cpp $prc, ggufed $mrc: $(cat "$scratch/mem.err")"
done
# real models (head size 8: llama.cpp refuses block-quantized caches)
for f in stories260K.gguf TinyStories-656K.f16.gguf TinyStories-656K-Q8_0.gguf \
    ollama-llama-2-tiny-random.gguf; do
	if [ ! -f "$SHARED_DIR/fixtures/real/$f" ]; then
		skip "$(shared_missing "fixtures/real/$f")"
		continue
	fi
	check "$SHARED_DIR/fixtures/real/$f" 0 1 f16 f16
	check "$SHARED_DIR/fixtures/real/$f" 1000 3 bf16 f32
	check "$SHARED_DIR/fixtures/real/$f" 512 1 q8_0 f16
done

# The compute buffer: what llama.cpp's scheduler allocates while it
# reserves its graphs at context creation (llama_mem's "compute" records;
# the buffer only grows, so the last is its size), against ggufed's
# "compute" of the same context, -fa on, off or auto, -b, -ub,
# --parallel and --swa-full.
compute() {	# compute MODEL CTX FA B UB PARALLEL [swa-full] [REPLAY]
	case $3 in on) pfa=1 ;; off) pfa=0 ;; *) pfa=-1 ;; esac
	full=${7:-}
	[ "$full" = swa-full ] || full=
	name="$(basename "$1") ctx $2 -fa $3 -b $4 -ub $5 x$6${full:+ swa-full}"
	GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$1" --ctx "$2" \
	    --flash-attn $pfa --batch "$4" --ubatch "$5" --parallel "$6" \
	    ${full:+--swa-full} >"$scratch/probe.txt" 2>"$scratch/probe.err"
	theirs=$(awk '$1 == "compute" { b = $2 } END { print b }' \
	    "$scratch/probe.txt")
	"$GGUFED" mem "$1" --ctx "$2" -fa "$3" -b "$4" -ub "$5" \
	    --parallel "$6" ${full:+--swa-full} --json >"$scratch/mem.json" \
	    2>"$scratch/mem.err"
	ours=$(sed -n 's/.*"compute": \([0-9]*\).*/\1/p' \
	    "$scratch/mem.json" | head -1)
	[ -n "$theirs" ] && [ "$theirs" = "$ours" ]
	ok $? "$name: the compute buffer is llama.cpp's ($theirs bytes)" || {
		echo "# ggufed: $ours $(sed -n 's/.*"compute_why": //p' \
		    "$scratch/mem.json" | head -1)"
		[ -z "${8:-}" ] || echo "# made by: $8"
	}
}
compute "$m/llama-gqa.gguf" 1000 off 2048 512 1
compute "$m/llama-gqa.gguf" 1000 on 2048 512 1
compute "$m/llama-gqa.gguf" 1000 auto 2048 512 1
compute "$m/llama-gqa.gguf" 3000 on 2048 100 1
compute "$m/llama-gqa.gguf" 5000 off 300 77 1
compute "$m/llama-gqa.gguf" 256 off 64 512 1
compute "$m/llama-gqa.gguf" 200 auto 2048 512 1
# streams: a micro-batch rounded up to a whole number of tokens each
compute "$m/llama-gqa.gguf" 1000 off 2048 512 2
compute "$m/llama-gqa.gguf" 3000 auto 2048 100 3
compute "$m/llama-gqa.gguf" 700 off 2048 33 4
compute "$m/llama-gqa.gguf" 300 off 2048 512 7
# ggufed new's model of each architecture mem models: llama.cpp makes a
# context of it (it once crashed on rwkv6's, falcon-h1's and the gated
# delta-net hybrids'), and where ggufed gives a compute buffer, it is
# llama.cpp's.
for a in $("$GGUFED" mem --keys | awk '$1 == "arch" { print $2 }'); do
	if ! "$GGUFED" new "$a" -o "$scratch/$a.new.gguf" --force -q; then
		ok 1 "ggufed new $a makes its model"
		continue
	fi
	GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$scratch/$a.new.gguf" \
	    --ctx 1000 >"$scratch/probe.txt" 2>"$scratch/probe.err"
	ok $? "ggufed new $a: llama.cpp makes a context of it" ||
	    tail -3 "$scratch/probe.err" | sed 's/^/# /'
	"$GGUFED" mem "$scratch/$a.new.gguf" --ctx 1000 --json \
	    >"$scratch/mem.json"
	! grep -q '"compute": [0-9]' "$scratch/mem.json" ||
	    compute "$scratch/$a.new.gguf" 1000 auto 2048 512 1
done
# the browser's demo model (llama, Q4_K and Q6_K weights)
"$TESTS_BUILDDIR/tools/mkdemo" "$scratch/demo.gguf" >/dev/null ||
    { echo "Bail out! mkdemo failed"; exit 1; }
compute "$scratch/demo.gguf" 0 auto 2048 512 1
compute "$scratch/demo.gguf" 4096 off 2048 512 1
compute "$scratch/demo.gguf" 32768 on 2048 512 1
compute "$scratch/demo.gguf" 2048 on 2048 512 2
# qwen2 (biases of Q, K and V), qwen3 (norms of Q's and K's heads, heads
# of 48 where the embedding is 128)
compute "$m/qwen2.gguf" 1000 off 2048 512 1
compute "$m/qwen2.gguf" 3000 auto 2048 100 3
compute "$m/qwen3.gguf" 1000 off 2048 512 1
compute "$m/qwen3.gguf" 1000 on 2048 512 2
compute "$m/qwen3.gguf" 5000 off 300 77 1
# gemma3: sliding-window layers (a cache of their own) and full ones
compute "$m/gemma3.gguf" 5000 off 2048 512 1
compute "$m/gemma3.gguf" 5000 on 2048 512 1
compute "$m/gemma3.gguf" 1000 auto 2048 100 2
compute "$m/gemma3.gguf" 40000 off 300 77 1
compute "$m/gemma3.gguf" 5000 off 2048 512 1 swa-full
compute "$m/gemma3.gguf" 3000 on 2048 256 3 swa-full
compute "$m/gemma3-pattern.gguf" 5000 off 2048 512 1
# gemma2: every other layer slides; the attention's logits and the
# output soft-capped
compute "$m/gemma2.gguf" 1000 off 2048 512 1
compute "$m/gemma2.gguf" 9000 on 2048 512 1
compute "$m/gemma2.gguf" 9000 off 2048 512 1
compute "$m/gemma2.gguf" 1000 auto 2048 100 2
compute "$m/gemma2.gguf" 3000 off 300 77 4 swa-full
# cohere2: 3 sliding layers of 4 (RoPE on them only), attention and
# feed-forward side by side
compute "$m/cohere2.gguf" 3000 off 2048 512 1
compute "$m/cohere2.gguf" 8192 on 2048 512 1
compute "$m/cohere2.gguf" 3000 auto 2048 100 2
compute "$m/cohere2.gguf" 8192 off 300 77 1 swa-full
# apertus: qwen3's attention, an xIELU feed-forward (one KV head of 24)
compute "$m/apertus.gguf" 1000 off 2048 512 1
compute "$m/apertus.gguf" 3000 on 2048 512 3
compute "$m/apertus.gguf" 9000 off 300 77 1
# minimax-m2: norms of the whole Q and K, experts routed by sigmoid (2 of
# 4 used)
compute "$m/minimax-m2.gguf" 1000 off 2048 512 1
compute "$m/minimax-m2.gguf" 3000 on 2048 512 3
compute "$m/minimax-m2.gguf" 9000 off 300 77 1
# gpt-oss: every other layer slides; biases, sinks, experts (1 of 2 used)
compute "$m/gpt-oss.gguf" 3000 off 2048 512 1
compute "$m/gpt-oss.gguf" 3000 on 2048 512 1
compute "$m/gpt-oss.gguf" 1000 auto 2048 100 2
compute "$m/gpt-oss.gguf" 9000 off 300 77 1 swa-full
for f in stories260K.gguf TinyStories-656K.f16.gguf TinyStories-656K-Q8_0.gguf \
    ollama-llama-2-tiny-random.gguf; do
	if [ ! -f "$SHARED_DIR/fixtures/real/$f" ]; then
		skip "$(shared_missing "fixtures/real/$f")"
		continue
	fi
	compute "$SHARED_DIR/fixtures/real/$f" 0 auto 2048 512 1
	compute "$SHARED_DIR/fixtures/real/$f" 1000 off 2048 512 1
	compute "$SHARED_DIR/fixtures/real/$f" 4096 on 1024 256 1
	compute "$SHARED_DIR/fixtures/real/$f" 2000 on 2048 512 3
done

# Random models of each architecture whose graph is modelled (ggufed
# new, seeded: MEM_SEED, default 1; the failing case prints how to make
# its model again): blocks, heads, KV heads, head size (qwen3: one of its
# own, key_length; gemma2, gemma3, cohere2 and gpt-oss: their sliding
# window, gemma3 up to 7 blocks to have full ones; gpt-oss and
# minimax-m2: their experts,
# and how many a token uses) and feed-forward length at random, at a
# random context, flash attention, batch, micro-batch, parallel sequences
# and --swa-full.
st=${MEM_SEED:-1}
echo "# compute: seed $st"
rnd() {
	st=$(( (st * 1103515245 + 12345) % 2147483648 ))
	r=$(( st / 65536 % $1 ))
}
i=0
while [ $i -lt 72 ]; do
	i=$((i + 1))
	a=$(echo "llama qwen2 qwen3 gemma3 gemma2 cohere2 gpt-oss apertus" \
	    "minimax-m2" | cut -d' ' -f$((i % 9 + 1)))
	rnd 4; blocks=$((r + 1))
	[ $a = gemma3 ] && { rnd 7; blocks=$((r + 1)); }
	rnd 4; heads=$((1 << r))
	rnd $((r + 1)); kv=$((heads >> r))
	rnd 4; hd=$((8 << r))
	rnd 4; ff=$((32 * (r + 1)))
	rnd 9000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 1 1 2 3 5" | cut -d' ' -f$((r + 1)))
	rnd 3; full=$(echo "- - swa-full" | cut -d' ' -f$((r + 1)))
	set -- new "$a" --seed "$i" -o "$scratch/$a.rand.gguf" --force -q \
	    -e "set $a.block_count $blocks" \
	    -e "set $a.attention.head_count $heads" \
	    -e "set $a.attention.head_count_kv $kv" \
	    -e "set $a.embedding_length $((heads * hd))" \
	    -e "set $a.feed_forward_length $ff"
	rnd 4
	[ $a = qwen3 ] && set -- "$@" \
	    -e "set $a.attention.key_length:u32 $((16 * (r + 1)))" \
	    -e "set $a.attention.value_length:u32 $((16 * (r + 1)))"
	rnd 700
	case $a in gemma*|cohere2|gpt-oss) set -- "$@" \
	    -e "set $a.attention.sliding_window:u32 $((r + 16))" ;; esac
	rnd 7; ne=$((r + 2))
	rnd $ne; nu=$((r + 1))
	case $a in gpt-oss|minimax-m2) set -- "$@" -e "set $a.expert_count $ne" \
	    -e "set $a.expert_used_count $nu" \
	    -e "set $a.expert_feed_forward_length $ff" ;; esac
	if ! "$GGUFED" "$@" 2>"$scratch/new.err"; then
		ok 1 "compute: case $i: ggufed new makes its model"
		sed 's/^/# /' "$scratch/new.err"
		continue
	fi
	compute "$scratch/$a.rand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" "$full" \
	    "MEM_SEED=${MEM_SEED:-1}, case $i: ggufed$(printf " '%s'" "$@")"
done

# grovemoe: qwen3's attention; experts (2 of 4), then chunk experts (2,
# one a group of 2) over their output, both ranked by the sigmoid of
# one router's logits
compute "$m/grovemoe.gguf" 1000 off 2048 512 1
compute "$m/grovemoe.gguf" 1000 on 2048 512 1
compute "$m/grovemoe.gguf" 3000 auto 2048 100 3
compute "$m/grovemoe.gguf" 5000 off 300 77 1
compute "$m/grovemoe.gguf" 700 on 2048 33 4
compute "$m/grovemoe.gguf" 2000 off 2048 512 2
# one expert a token (its sum a view, copied where first read); as many
# chunk experts as experts (their ranks taken as they are)
for v in "1 2" "2 1"; do
	set -- $v
	"$GGUFED" new grovemoe -o "$scratch/grove.gguf" --force -q \
	    -e "set grovemoe.expert_used_count $1" \
	    -e "set grovemoe.experts_per_group $2" ||
	    { echo "Bail out! ggufed new grovemoe failed"; exit 1; }
	compute "$scratch/grove.gguf" 300 off 2048 512 1
	compute "$scratch/grove.gguf" 3000 on 2048 100 3
done
# More experts used a token than chunk experts: llama.cpp gives up (a
# view beyond the chunk experts' output), and it is not modelled.
"$GGUFED" set "$m/grovemoe.gguf" grovemoe.expert_used_count 3 \
    -o "$scratch/grove.gguf" --force >/dev/null 2>&1
"$GGUFED" mem "$scratch/grove.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for grovemoe with more experts used a token (3) than chunk experts (2)"' \
    "$scratch/mem.json"
ok $? "grovemoe with 3 experts used of 2 chunk experts: not modelled, and says so"
# And random models of it, seeded apart from the loops above: blocks,
# heads, KV heads, head size, experts per group, chunk experts (the
# experts: their product), those used a token (up to the chunk
# experts), the experts' and chunk experts' lengths.
gst=$(( (${MEM_SEED:-1} * 16807 + 3) % 2147483648 ))
echo "# compute, grovemoe: seed $gst"
st=$gst
i=0
while [ $i -lt 24 ]; do
	i=$((i + 1))
	a=grovemoe
	rnd 4; blocks=$((r + 1))
	rnd 4; heads=$((1 << r))
	rnd $((r + 1)); kv=$((heads >> r))
	rnd 4; hd=$((8 << r))
	rnd 3; grp=$((1 << r))
	rnd 4; nch=$((r + 1))
	rnd $nch; nu=$((r + 1))
	rnd 4; fe=$((32 << r))
	rnd 4; fc=$((16 << r))
	rnd 4000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 1 1 2 3 5" | cut -d' ' -f$((r + 1)))
	set -- new "$a" --seed "$i" -o "$scratch/$a.grand.gguf" --force -q \
	    -e "set $a.block_count $blocks" \
	    -e "set $a.attention.head_count $heads" \
	    -e "set $a.attention.head_count_kv $kv" \
	    -e "set $a.embedding_length $((heads * hd))" \
	    -e "set $a.expert_count $((grp * nch))" \
	    -e "set $a.expert_used_count $nu" \
	    -e "set $a.experts_per_group $grp" \
	    -e "set $a.expert_feed_forward_length $fe" \
	    -e "set $a.expert_chunk_feed_forward_length $fc"
	if ! "$GGUFED" "$@" 2>"$scratch/new.err"; then
		ok 1 "compute: grovemoe, case $i: ggufed new makes its model"
		sed 's/^/# /' "$scratch/new.err"
		continue
	fi
	compute "$scratch/$a.grand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" - \
	    "MEM_SEED=${MEM_SEED:-1}, grovemoe case $i: ggufed$(printf " '%s'" "$@")"
done

# The transformers of their own graph: openelm (heads, KV heads and
# feed-forward length of each block its own: 2, 4, 4, 6 heads of 32).
compute "$m/openelm.gguf" 1000 off 2048 512 1
compute "$m/openelm.gguf" 1000 on 2048 512 1
compute "$m/openelm.gguf" 2048 auto 2048 100 2
compute "$m/openelm.gguf" 777 off 300 77 3
compute "$m/openelm.gguf" 2000 on 512 33 4
compute "$m/openelm.gguf" 5000 off 2048 256 1
# llama4: chunked blocks (3 of 4) with RoPE, the others without and their
# queries scaled; experts (1 of 4 used) weighted before their
# feed-forward, and a shared expert
compute "$m/llama4-chunked.gguf" 1000 off 2048 512 1
compute "$m/llama4-chunked.gguf" 1000 on 2048 512 1
compute "$m/llama4-chunked.gguf" 20000 auto 2048 100 2
compute "$m/llama4-chunked.gguf" 9000 off 300 77 1
compute "$m/llama4-chunked.gguf" 9000 off 2048 512 1 swa-full
compute "$m/llama4-chunked.gguf" 3000 on 2048 256 3 swa-full
compute "$m/llama4.gguf" 1000 off 2048 512 1
# bailingmoe2: one projection of Q, K and V, norms of Q's and K's heads;
# a leading dense block, then experts (2 of 4, routed by sigmoid, a
# selection bias) and a shared one
compute "$m/bailingmoe2.gguf" 1000 off 2048 512 1
compute "$m/bailingmoe2.gguf" 1000 on 2048 512 1
compute "$m/bailingmoe2.gguf" 5000 auto 2048 100 2
compute "$m/bailingmoe2.gguf" 9000 off 300 77 1
compute "$m/bailingmoe2.gguf" 3000 on 2048 33 3

# And random models of them, seeded apart from the loop above (derived
# from MEM_SEED): openelm's blocks each with heads, KV heads and
# feed-forward length at random, a head size and embedding of the
# model's; llama4's blocks, heads, KV heads, head size, feed-forward
# lengths, experts, those used and the step of the blocks with experts
# (the others dense), with --swa-full or not; bailingmoe2's blocks,
# heads, KV heads, head size, lengths, experts, those used, shared ones,
# leading dense blocks, gating by soft-max or sigmoid, weights
# normalized and scaled or not.
st=$(( (${MEM_SEED:-1} * 48271 + 11) % 2147483648 ))
echo "# compute, transformers: seed $st"
i=0
while [ $i -lt 72 ]; do
	i=$((i + 1))
	a=$(echo "openelm llama4 bailingmoe2" | cut -d' ' -f$((i % 3 + 1)))
	rnd 4; blocks=$((r + 1))
	hs= kvs= ffs=
	j=0
	while [ $j -lt $blocks ]; do
		j=$((j + 1))
		rnd 4; h=$((1 << r))
		rnd $((r + 1)); k=$((h >> r))
		rnd 6; f=$((32 * (r + 1)))
		hs=$hs${hs:+, }$h kvs=$kvs${kvs:+, }$k ffs=$ffs${ffs:+, }$f
	done
	rnd 4; hd=$((8 << r))
	rnd 4; embd=$((32 * (r + 1)))
	rnd 9000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 1 1 2 3 5" | cut -d' ' -f$((r + 1)))
	rnd 3; full=$(echo "- - swa-full" | cut -d' ' -f$((r + 1)))
	if [ $a = llama4 ]; then
		rnd 8; blocks=$((r + 1))
		rnd 4; heads=$((1 << r))
		rnd $((r + 1)); kv=$((heads >> r))
		rnd 6; ne=$((r + 2))
		rnd $ne; nu=$((r + 1))
		rnd 3; step=$((r + 1))
		rnd 4; fe=$((16 * (r + 1)))
		rnd 4; ff=$((32 * (r + 1)))
		set -- new "$a" --seed "$i" -o "$scratch/$a.rand.gguf" --force \
		    -q -e "set $a.block_count $blocks" \
		    -e "set $a.attention.head_count $heads" \
		    -e "set $a.attention.head_count_kv $kv" \
		    -e "set $a.embedding_length $((heads * hd))" \
		    -e "set $a.feed_forward_length $ff" \
		    -e "set $a.expert_count $ne" \
		    -e "set $a.expert_used_count $nu" \
		    -e "set $a.expert_feed_forward_length $fe" \
		    -e "set $a.interleave_moe_layer_step $step"
	elif [ $a = bailingmoe2 ]; then
		full=-
		rnd 4; heads=$((1 << r))
		rnd $((r + 1)); kv=$((heads >> r))
		rnd 6; ne=$((r + 2))
		rnd $ne; nu=$((r + 1))
		rnd 2; nsh=$((r + 1))
		rnd $((blocks + 1)); lead=$r
		rnd 2; gf=$((r + 1))
		rnd 2; nw=$(echo "false true" | cut -d' ' -f$((r + 1)))
		rnd 3; ws=$(echo "0 1 2.5" | cut -d' ' -f$((r + 1)))
		rnd 4; fe=$((16 * (r + 1)))
		rnd 4; ff=$((32 * (r + 1)))
		set -- new "$a" --seed "$i" -o "$scratch/$a.rand.gguf" --force \
		    -q -e "set $a.block_count $blocks" \
		    -e "set $a.attention.head_count $heads" \
		    -e "set $a.attention.head_count_kv $kv" \
		    -e "set $a.embedding_length $((heads * hd))" \
		    -e "set $a.feed_forward_length $ff" \
		    -e "set $a.expert_count $ne" \
		    -e "set $a.expert_used_count $nu" \
		    -e "set $a.expert_feed_forward_length $fe" \
		    -e "set $a.expert_shared_count $nsh" \
		    -e "set $a.leading_dense_block_count $lead" \
		    -e "set $a.expert_gating_func $gf" \
		    -e "set $a.expert_weights_norm:bool $nw" \
		    -e "set $a.expert_weights_scale:f32 $ws"
		# half of those with an even number of experts (four or
		# more) in groups of two
		[ $((i % 4)) -lt 2 ] && [ $((ne % 2)) = 0 ] && [ $ne -ge 4 ] &&
		    set -- "$@" \
		    -e "set $a.expert_group_count:u32 $((ne / 2))" \
		    -e "set $a.expert_group_used_count:u32 $((i % (ne / 2 - 1) + 1))"
	else
		full=-
		set -- new "$a" --seed "$i" -o "$scratch/$a.rand.gguf" --force \
		    -q -e "set $a.block_count $blocks" \
		    -e "set $a.embedding_length $embd" \
		    -e "set $a.attention.head_count:arr[u32] [$hs]" \
		    -e "set $a.attention.head_count_kv:arr[u32] [$kvs]" \
		    -e "set $a.feed_forward_length:arr[u32] [$ffs]" \
		    -e "set $a.attention.key_length:u32 $hd" \
		    -e "set $a.attention.value_length:u32 $hd" \
		    -e "set $a.rope.dimension_count:u32 $hd"
	fi
	if ! "$GGUFED" "$@" 2>"$scratch/new.err"; then
		ok 1 "compute: transformers, case $i: ggufed new makes its model"
		sed 's/^/# /' "$scratch/new.err"
		continue
	fi
	compute "$scratch/$a.rand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" "$full" \
	    "MEM_SEED=${MEM_SEED:-1}, transformers, case $i: ggufed$(printf " '%s'" "$@")"
done

# The recurrent architectures' compute buffers: the state's rows of the
# micro-batch's sequences (--parallel), the rest copied over.
# mamba: Mamba (1) layers (a short convolution, the selective scan)
compute "$m/mamba.gguf" 1000 auto 2048 512 1
compute "$m/mamba.gguf" 100 off 2048 512 1
compute "$m/mamba.gguf" 8192 on 300 77 1
compute "$m/mamba.gguf" 5000 auto 2048 100 2
compute "$m/mamba.gguf" 700 off 2048 33 4
compute "$m/mamba.gguf" 3000 on 2048 256 5
# mamba with ssm.dt_b_c_rms: RMS norms of dt, B and C without weights
"$GGUFED" set "$m/mamba.gguf" mamba.ssm.dt_b_c_rms:bool true \
    -o "$scratch/mamba-rms.gguf" --force >/dev/null ||
    { echo "Bail out! ggufed set failed"; exit 1; }
compute "$scratch/mamba-rms.gguf" 1000 off 2048 512 1
compute "$scratch/mamba-rms.gguf" 3000 on 2048 100 3
# mamba2: Mamba-2 layers (heads, groups, a grouped RMS norm)
compute "$m/mamba2.gguf" 1000 auto 2048 512 1
compute "$m/mamba2.gguf" 100 off 2048 512 1
compute "$m/mamba2.gguf" 8192 on 300 77 1
compute "$m/mamba2.gguf" 5000 auto 2048 100 2
compute "$m/mamba2.gguf" 700 off 2048 33 4
compute "$m/mamba2.gguf" 3000 on 2048 256 5
# rwkv6: time mix (the lerps fused, the WKV state, a group norm) and
# channel mix, the token shift's state; every third block rescaled
"$GGUFED" new rwkv6 --variant 1 -o "$scratch/rwkv6-fused.gguf" --force -q \
    -e "set rwkv6.attention.head_count_kv 4" ||
    { echo "Bail out! ggufed new rwkv6 failed"; exit 1; }
"$GGUFED" new rwkv6 --variant 1 -o "$scratch/rwkv6-rescaled.gguf" --force \
    -q -e "set rwkv6.attention.head_count_kv 0" \
    -e "set rwkv6.block_count 7" -e "set rwkv6.rescale_every_n_layers 3" ||
    { echo "Bail out! ggufed new rwkv6 failed"; exit 1; }
compute "$scratch/rwkv6-fused.gguf" 1000 auto 2048 512 1
compute "$scratch/rwkv6-fused.gguf" 100 off 2048 512 1
compute "$scratch/rwkv6-fused.gguf" 8192 on 300 77 1
compute "$scratch/rwkv6-fused.gguf" 5000 auto 2048 100 2
compute "$scratch/rwkv6-fused.gguf" 700 off 2048 33 4
compute "$scratch/rwkv6-rescaled.gguf" 1000 auto 2048 512 2
compute "$scratch/rwkv6-rescaled.gguf" 3000 on 2048 256 5
# rwkv7: time mix (low-rank decay, in-context learning rate, the first
# block's value as a residual, the gate; the WKV-7 state) and channel mix
compute "$m/rwkv7.gguf" 1000 auto 2048 512 1
compute "$m/rwkv7.gguf" 100 off 2048 512 1
compute "$m/rwkv7.gguf" 8192 on 300 77 1
compute "$m/rwkv7.gguf" 5000 auto 2048 100 2
compute "$m/rwkv7.gguf" 700 off 2048 33 4
compute "$m/rwkv7.gguf" 3000 on 2048 256 5
# lfm2: short convolutions (their state) where head_count_kv is 0,
# attention (norms of Q's and K's heads) over the cache on block 2
compute "$m/lfm2.gguf" 1000 off 2048 512 1
compute "$m/lfm2.gguf" 1000 on 2048 512 2
compute "$m/lfm2.gguf" 1000 auto 2048 512 1
compute "$m/lfm2.gguf" 5000 off 300 77 1
compute "$m/lfm2.gguf" 3000 on 2048 100 3
compute "$m/lfm2.gguf" 700 off 2048 33 4
# lfm2moe: lfm2's layout, a dense feed-forward on block 0, experts on the
# others (sigmoid routed, a selection bias, the weights normalized); and
# soft-max routed, one expert a token (the sum made contiguous), or eight
# of them, no dense block
compute "$m/lfm2moe.gguf" 1000 off 2048 512 1
compute "$m/lfm2moe.gguf" 1000 on 2048 512 2
compute "$m/lfm2moe.gguf" 1000 auto 2048 512 1
compute "$m/lfm2moe.gguf" 5000 off 300 77 1
compute "$m/lfm2moe.gguf" 3000 on 2048 100 3
compute "$m/lfm2moe.gguf" 700 off 2048 33 4
for nu in 1 8; do
	"$GGUFED" new lfm2moe -o "$scratch/lfm2moe-$nu.gguf" --force -q \
	    -e "set lfm2moe.block_count 3" -e "set lfm2moe.expert_count 8" \
	    -e "set lfm2moe.expert_used_count $nu" \
	    -e "set lfm2moe.expert_feed_forward_length 512" \
	    -e "set lfm2moe.expert_gating_func 1" \
	    -e "set lfm2moe.leading_dense_block_count 0" \
	    -e "set lfm2moe.attention.head_count_kv [0,1,0]" ||
	    { echo "Bail out! ggufed new lfm2moe failed"; exit 1; }
	compute "$scratch/lfm2moe-$nu.gguf" 300 off 2048 512 1
	compute "$scratch/lfm2moe-$nu.gguf" 300 on 2048 512 2
	compute "$scratch/lfm2moe-$nu.gguf" 5000 auto 300 77 1
done
# nemotron_h: Mamba-2 on blocks 0 and 3, attention (no RoPE) on 1, a
# squared-ReLU feed-forward on 2; the outputs' rows after the final norm
compute "$m/nemotron_h.gguf" 1000 off 2048 512 1
compute "$m/nemotron_h.gguf" 1000 on 2048 512 2
compute "$m/nemotron_h.gguf" 1000 auto 2048 512 1
compute "$m/nemotron_h.gguf" 5000 off 300 77 1
compute "$m/nemotron_h.gguf" 3000 on 2048 100 3
compute "$m/nemotron_h.gguf" 700 off 2048 33 4
# jamba: Mamba layers (RMS norms of dt, B and C) where head_count_kv is 0,
# attention (no RoPE) on block 2, a SwiGLU feed-forward on each
compute "$m/jamba.gguf" 1000 off 2048 512 1
compute "$m/jamba.gguf" 1000 on 2048 512 2
compute "$m/jamba.gguf" 1000 auto 2048 512 1
compute "$m/jamba.gguf" 5000 off 300 77 1
compute "$m/jamba.gguf" 3000 on 2048 100 3
compute "$m/jamba.gguf" 700 off 2048 33 4
# granitehybrid: Mamba-2 where head_count_kv is 0, attention (RoPE) on
# block 1; the embeddings, each residual branch and the logits scaled
compute "$m/granitehybrid.gguf" 1000 off 2048 512 1
compute "$m/granitehybrid.gguf" 1000 on 2048 512 2
compute "$m/granitehybrid.gguf" 1000 auto 2048 512 1
compute "$m/granitehybrid.gguf" 5000 off 300 77 1
compute "$m/granitehybrid.gguf" 3000 on 2048 100 3
compute "$m/granitehybrid.gguf" 700 off 2048 33 4
# granitehybrid with experts on every block (soft-max routed, the
# weights normalized): 2 of 4, all 4 (each expert's sum expanded as it is
# made, before the next block reads its state), and 2 with a shared
# expert beside them
for v in "2 0" "4 0" "2 64"; do
	set -- $v
	"$GGUFED" new granitehybrid -o "$scratch/gh-moe.gguf" --force -q \
	    -e "set granitehybrid.expert_count:u32 4" \
	    -e "set granitehybrid.expert_used_count:u32 $1" \
	    -e "set granitehybrid.expert_shared_feed_forward_length:u32 $2" ||
	    { echo "Bail out! ggufed new granitehybrid failed"; exit 1; }
	compute "$scratch/gh-moe.gguf" 1000 off 2048 512 1
	compute "$scratch/gh-moe.gguf" 1000 on 2048 512 2
	compute "$scratch/gh-moe.gguf" 3000 auto 2048 100 3
	compute "$scratch/gh-moe.gguf" 2778 on 64 100 4
	compute "$scratch/gh-moe.gguf" 700 off 300 33 5
done
# And random models of it, seeded apart from the loops above: blocks,
# which attend, heads, KV heads, head size, the state's sizes, experts,
# those used (a third of the models all of them), the feed-forward and
# shared expert's lengths (0: none).
hst=$(( (${MEM_SEED:-1} * 40503 + 5) % 2147483648 ))
echo "# compute, granitehybrid with experts: seed $hst"
st=$hst
i=0
while [ $i -lt 24 ]; do
	i=$((i + 1))
	a=granitehybrid
	rnd 4; blocks=$((r + 1))
	rnd 3; lh=$((1 << r))
	rnd 3; lhd=$((8 << r))
	rnd $((r + 1)); lkv=$((lh >> r))
	rnd 4; conv=$((r + 2))
	rnd 4; state=$((4 << r))
	rnd 3; group=$((1 << r))
	rnd 3; sheads=$((1 << r))
	pat= j=0
	while [ $j -lt $blocks ]; do
		rnd 2; [ $r = 0 ] && pat="$pat,$lkv" || pat="$pat,0"
		j=$((j + 1))
	done
	rnd 7; ne=$((r + 2))
	rnd 3; [ $r = 0 ] && nu=$ne || { rnd $ne; nu=$((r + 1)); }
	rnd 4; ff=$((32 * (r + 1)))
	rnd 3; sh=$((32 * r))
	rnd 4000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 2 3 4 5 3" | cut -d' ' -f$((r + 1)))
	set -- new "$a" --seed "$i" -o "$scratch/$a.hrand.gguf" --force -q \
	    -e "set $a.block_count $blocks" \
	    -e "set $a.embedding_length $((lh * lhd))" \
	    -e "set $a.ssm.conv_kernel $conv" \
	    -e "set $a.ssm.inner_size $((2 * lh * lhd))" \
	    -e "set $a.ssm.state_size $state" \
	    -e "set $a.ssm.time_step_rank $sheads" \
	    -e "set $a.ssm.group_count $group" \
	    -e "set $a.attention.head_count $lh" \
	    -e "set $a.attention.head_count_kv [${pat#,}]" \
	    -e "set $a.feed_forward_length $ff" \
	    -e "set $a.rope.dimension_count $lhd" \
	    -e "set $a.expert_count:u32 $ne" \
	    -e "set $a.expert_used_count:u32 $nu" \
	    -e "set $a.expert_shared_feed_forward_length:u32 $sh"
	if ! "$GGUFED" "$@" 2>"$scratch/new.err"; then
		ok 1 "compute: granitehybrid with experts, case $i: ggufed new makes its model"
		sed 's/^/# /' "$scratch/new.err"
		continue
	fi
	compute "$scratch/$a.hrand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" - \
	    "MEM_SEED=${MEM_SEED:-1}, granitehybrid case $i: ggufed$(printf " '%s'" "$@")"
done
# falcon-h1: attention (RoPE) and Mamba-2 side by side on every block (a
# variant of `ggufed new` whose scale tensors and biases are taken out)
strip_scales() {	# strip_scales MODEL: its *scale tensors and biases out
	set -- "$1"
	for t in $("$GGUFED" dump "$1" | awk '$1 == "tensor" { print $3 }' |
	    grep -E 'scale$|[.]bias$' | grep -Ev 'ssm_conv1d[.]bias$|ssm_dt[.]bias$'); do
		set -- "$@" -e "rm-tensor $t"
	done
	m1=$1
	shift
	[ $# -eq 0 ] || "$GGUFED" edit "$m1" -i --force -q "$@"
}
"$GGUFED" new falcon-h1 --variant 12 -o "$scratch/falcon-h1-plain.gguf" --force -q &&
    strip_scales "$scratch/falcon-h1-plain.gguf" ||
    { echo "Bail out! ggufed new falcon-h1 failed"; exit 1; }
compute "$scratch/falcon-h1-plain.gguf" 1000 off 2048 512 1
compute "$scratch/falcon-h1-plain.gguf" 1000 on 2048 512 2
compute "$scratch/falcon-h1-plain.gguf" 1000 auto 2048 512 1
compute "$scratch/falcon-h1-plain.gguf" 5000 off 300 77 1
compute "$scratch/falcon-h1-plain.gguf" 3000 on 2048 100 3
compute "$scratch/falcon-h1-plain.gguf" 700 off 2048 33 4
# falcon-h1's variants (ggufed new's): a scale after a projection (Q, K,
# V, the attention's output, the Mamba-2 layer's input and output), a
# bias after one (Q, K, V, the feed-forward's), Q, K and V in one
# projection (its scale and bias), and the tensors its graph does not
# read (input scales, the feed-forward's scales, the attention output's
# bias)
for v in 9 12 49 51 6 31 57; do
	"$GGUFED" new falcon-h1 --variant $v -o "$scratch/falcon-h1-v.gguf" \
	    --force -q ||
	    { echo "Bail out! ggufed new falcon-h1 failed"; exit 1; }
	compute "$scratch/falcon-h1-v.gguf" 1000 off 2048 512 1
	compute "$scratch/falcon-h1-v.gguf" 1000 on 2048 512 2
	compute "$scratch/falcon-h1-v.gguf" 3000 auto 2048 100 3
	compute "$scratch/falcon-h1-v.gguf" 700 off 300 33 4
done
# Q, K and V in one projection on some blocks only: not modelled
"$GGUFED" new falcon-h1 --variant 557 -o "$scratch/falcon-h1-v.gguf" --force \
    -q -e "set falcon-h1.block_count 3" 2>/dev/null
"$GGUFED" mem "$scratch/falcon-h1-v.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for falcon-h1 with Q, K and V in one projection on some blocks only"' \
    "$scratch/mem.json"
ok $? "falcon-h1 with Q, K and V in one projection on some blocks only: not modelled, and says so"
# And random models of them, seeded apart from the loops above: blocks,
# heads, KV heads, head size, the state's sizes, the feed-forward length,
# and the first of ggufed new's variants (drawn at random) whose blocks
# all have the convolution's bias and the Mamba-2 norm (llama.cpp gives
# up without the first) and Q, K and V alike.
fst=$(( (${MEM_SEED:-1} * 22695477 + 9) % 2147483648 ))
echo "# compute, falcon-h1 variants: seed $fst"
st=$fst
i=0
while [ $i -lt 24 ]; do
	i=$((i + 1))
	a=falcon-h1
	rnd 4; blocks=$((r + 1))
	rnd 3; lh=$((1 << r))
	rnd 3; lhd=$((8 << r))
	rnd $((r + 1)); lkv=$((lh >> r)); [ $lkv -gt 0 ] || lkv=1
	rnd 4; conv=$((r + 2))
	rnd 4; state=$((4 << r))
	rnd 3; group=$((1 << r))
	rnd 3; sheads=$((1 << r))
	rnd 4; ff=$((32 * (r + 1)))
	rnd 4000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 2 3 4 5 3" | cut -d' ' -f$((r + 1)))
	n=0 v= nf=
	while [ $n -lt 40 ]; do
		n=$((n + 1))
		rnd 1000; v=$((r + 1))
		set -- new "$a" --variant $v --seed "$i" \
		    -o "$scratch/$a.frand.gguf" --force -q \
		    -e "set $a.block_count $blocks" \
		    -e "set $a.embedding_length $((lh * lhd))" \
		    -e "set $a.ssm.conv_kernel $conv" \
		    -e "set $a.ssm.inner_size $((2 * lh * lhd))" \
		    -e "set $a.ssm.state_size $state" \
		    -e "set $a.ssm.time_step_rank $sheads" \
		    -e "set $a.ssm.group_count $group" \
		    -e "set $a.attention.head_count $lh" \
		    -e "set $a.attention.head_count_kv $lkv" \
		    -e "set $a.feed_forward_length $ff"
		if ! "$GGUFED" "$@" 2>"$scratch/new.err"; then
			sed 's/^/# /' "$scratch/new.err"
			v= nf=1
			break
		fi
		t=$("$GGUFED" dump "$scratch/$a.frand.gguf" |
		    awk '$1 == "tensor" { print $3 }')
		q=$(echo "$t" | grep -c 'attn_qkv[.]weight$')
		[ $(echo "$t" | grep -c 'ssm_conv1d[.]bias$') = $blocks ] &&
		    [ $(echo "$t" | grep -c 'ssm_norm[.]weight$') = $blocks ] &&
		    { [ $q = 0 ] || [ $q = $blocks ]; } && break
		v=
	done
	if [ -n "$nf" ]; then
		ok 1 "compute: falcon-h1 variants, case $i: ggufed new makes its model"
		continue
	elif [ -z "$v" ]; then
		skip "compute: falcon-h1 variants, case $i: none of 40 variants drawn whose graph llama.cpp builds"
		continue
	fi
	compute "$scratch/$a.frand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" - \
	    "MEM_SEED=${MEM_SEED:-1}, falcon-h1 case $i: ggufed$(printf " '%s'" "$@")"
done
# jamba with experts where a block has a router (its variant 32: blocks 1
# to 3; soft-max routed, the weights as they are), one or four a token
for nu in 1 4; do
	"$GGUFED" new jamba --variant 32 -o "$scratch/jamba-moe.gguf" --force \
	    -q -e "set jamba.block_count 4" \
	    -e "set jamba.attention.head_count_kv [0,1,0,1]" \
	    -e "set jamba.expert_count 8" -e "set jamba.expert_used_count $nu" \
	    -e "set jamba.feed_forward_length 1024" 2>/dev/null &&
	    strip_scales "$scratch/jamba-moe.gguf" 2>/dev/null ||
	    { echo "Bail out! ggufed new jamba failed"; exit 1; }
	compute "$scratch/jamba-moe.gguf" 300 off 2048 512 1
	compute "$scratch/jamba-moe.gguf" 300 on 2048 512 2
	compute "$scratch/jamba-moe.gguf" 3000 auto 300 77 3
done

# Random models of each recurrent architecture whose graph is modelled
# (ggufed new, seeded from MEM_SEED apart from the loop above): blocks,
# embedding, the state's sizes (conv kernel, inner size, state size,
# time-step rank; Mamba-2: heads and groups; RWKV: head size, the
# low-rank sizes, the channel mix's length, the rescaling; lfm2: which
# blocks attend, heads, KV heads, head size, the convolution's length;
# lfm2moe: the same, the experts (how many, used a token, their length,
# routing), the leading dense blocks;
# nemotron_h, jamba and granitehybrid: which blocks are Mamba, attention
# or feed-forward; jamba's experts on the blocks its variants 32 and 35
# give them; falcon-h1: heads and KV heads beside Mamba-2), at a
# random context, flash attention, batch, micro-batch and parallel
# sequences.
rst=$(( ${MEM_SEED:-1} * 7919 + 17 ))
echo "# compute, recurrent: seed ${MEM_SEED:-1}"
rrnd() {
	rst=$(( (rst * 1103515245 + 12345) % 2147483648 ))
	r=$(( rst / 65536 % $1 ))
}
archs="mamba mamba2 rwkv6 rwkv7 lfm2 lfm2moe nemotron_h jamba granitehybrid
    falcon-h1"
na=$(echo $archs | wc -w)
i=0
while [ $i -lt 70 ]; do
	i=$((i + 1))
	a=$(echo $archs | cut -d' ' -f$((i % na + 1)))
	rrnd 4; blocks=$((r + 1))
	rrnd 4; embd=$((16 * (r + 1)))
	inner=$((2 * embd))	# mamba: an expansion factor of 2
	rrnd 3; [ $a = mamba ] || inner=$((embd * (r + 1)))
	rrnd 4; conv=$((r + 2))
	rrnd 4; state=$((4 << r))
	rrnd 8; rank=$((r + 1))
	rrnd 4; [ $a = mamba ] || rank=$((1 << r))
	rrnd 3; group=$((1 << r))
	rrnd 9000; ctx=$((r + 1))
	rrnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rrnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rrnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rrnd 6; np=$(echo "1 1 1 2 3 5" | cut -d' ' -f$((r + 1)))
	set -- new "$a" --seed "$i" -o "$scratch/$a.rrand.gguf" --force -q \
	    -e "set $a.block_count $blocks" \
	    -e "set $a.embedding_length $embd"
	case $a in mamba*|nemotron_h|jamba|granitehybrid|falcon-h1) set -- "$@" \
	    -e "set $a.ssm.conv_kernel $conv" \
	    -e "set $a.ssm.inner_size $inner" \
	    -e "set $a.ssm.state_size $state" \
	    -e "set $a.ssm.time_step_rank $rank" ;; esac
	case $a in mamba2|nemotron_h|granitehybrid|falcon-h1) set -- "$@" \
	    -e "set $a.ssm.group_count $group" ;; esac
	rrnd 4; hs=$((8 << r))
	rrnd 4; heads=$((r + 1))
	rrnd 4; tmx=$((4 * (r + 1)))
	rrnd 4; tdx=$((8 * (r + 1)))
	rrnd 4; ff=$((32 * (r + 1)))
	rrnd 4; resc=$r
	case $a in rwkv*) set -- "$@" --variant 1 \
	    -e "set $a.embedding_length $((heads * hs))" \
	    -e "set $a.wkv.head_size $hs" \
	    -e "set $a.attention.head_count_kv $heads" \
	    -e "set $a.feed_forward_length $ff" ;; esac
	rrnd 4; gl=$((4 * (r + 1)))
	vl=$tmx	# llama.cpp's value residual's rank: the iclr's
	[ $a = rwkv7 ] && set -- "$@" \
	    -e "set $a.attention.decay_lora_rank $tdx" \
	    -e "set $a.attention.iclr_lora_rank $tmx" \
	    -e "set $a.attention.value_residual_mix_lora_rank $vl" \
	    -e "set $a.attention.gate_lora_rank $gl"
	rrnd 3; lh=$((1 << r))
	rrnd 3; lhd=$((8 << r))
	rrnd $((r + 1)); lkv=$((lh >> r))
	rrnd 4; lc=$((r + 2))
	pat= j=0
	while [ $j -lt $blocks ]; do
		rrnd 3; [ $r = 0 ] && pat="$pat,$lkv" || pat="$pat,0"
		j=$((j + 1))
	done
	case $a in lfm2*) set -- "$@" \
	    -e "set $a.embedding_length $((lh * lhd))" \
	    -e "set $a.attention.head_count $lh" \
	    -e "set $a.attention.head_count_kv [${pat#,}]" \
	    -e "set $a.feed_forward_length $ff" \
	    -e "set $a.shortconv.l_cache $lc" ;; esac
	rrnd 7; nexp=$((r + 2))
	rrnd $nexp; nused=$((r + 1))
	rrnd 4; fexp=$((16 * (r + 1)))
	rrnd $((blocks + 1)); lead=$r
	rrnd 2; gate=$((r + 1))
	[ $a = lfm2moe ] && set -- "$@" \
	    -e "set $a.expert_count $nexp" \
	    -e "set $a.expert_used_count $nused" \
	    -e "set $a.expert_feed_forward_length $fexp" \
	    -e "set $a.leading_dense_block_count $lead" \
	    -e "set $a.expert_gating_func $gate"
	rrnd 3; jv=$(echo "0 32 35" | cut -d' ' -f$((r + 1)))
	[ $a = jamba ] && [ $jv != 0 ] && set -- "$@" --variant $jv \
	    -e "set $a.expert_count $nexp" \
	    -e "set $a.expert_used_count $nused"
	kvs= ffs= j=0
	while [ $j -lt $blocks ]; do
		rrnd 3
		case $r in
		0) kvs="$kvs,0" ffs="$ffs,0" ;;
		1) kvs="$kvs,$lkv" ffs="$ffs,0" ;;
		*) kvs="$kvs,0" ffs="$ffs,$ff" ;;
		esac
		j=$((j + 1))
	done
	[ $a = nemotron_h ] && set -- "$@" \
	    -e "set $a.embedding_length $((lh * lhd))" \
	    -e "set $a.attention.head_count $lh" \
	    -e "set $a.attention.head_count_kv [${kvs#,}]" \
	    -e "set $a.feed_forward_length [${ffs#,}]" \
	    -e "set $a.ssm.inner_size $((lh * lhd * 2))"
	[ $a = granitehybrid ] && set -- "$@" \
	    -e "set $a.embedding_length $((lh * lhd))" \
	    -e "set $a.attention.head_count $lh" \
	    -e "set $a.attention.head_count_kv [${pat#,}]" \
	    -e "set $a.feed_forward_length $ff" \
	    -e "set $a.rope.dimension_count $lhd" \
	    -e "set $a.ssm.inner_size $((lh * lhd * 2))"
	[ $a = falcon-h1 ] && set -- "$@" --variant 12 \
	    -e "set $a.embedding_length $((lh * lhd))" \
	    -e "set $a.attention.head_count $lh" \
	    -e "set $a.attention.head_count_kv $((lkv > 0 ? lkv : 1))" \
	    -e "set $a.feed_forward_length $ff" \
	    -e "set $a.ssm.inner_size $((lh * lhd * 2))"
	[ $a = jamba ] && set -- "$@" \
	    -e "set $a.embedding_length $((lh * lhd))" \
	    -e "set $a.attention.head_count $lh" \
	    -e "set $a.attention.head_count_kv [${pat#,}]" \
	    -e "set $a.feed_forward_length $ff" \
	    -e "set $a.ssm.inner_size $((lh * lhd * 2))"
	[ $a = rwkv6 ] && set -- "$@" -e "set $a.time_mix_extra_dim $tmx" \
	    -e "set $a.time_decay_extra_dim $tdx" \
	    -e "set $a.rescale_every_n_layers $resc"
	if ! "$GGUFED" "$@" 2>"$scratch/new.err" || { { [ $a = falcon-h1 ] ||
	    [ $a = jamba ]; } && ! strip_scales "$scratch/$a.rrand.gguf" 2>"$scratch/new.err"; }; then
		ok 1 "compute, recurrent: case $i: ggufed new makes its model"
		sed 's/^/# /' "$scratch/new.err"
		continue
	fi
	compute "$scratch/$a.rrand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" - \
	    "MEM_SEED=${MEM_SEED:-1}, recurrent case $i: ggufed$(printf " '%s'" "$@")"
done

# deepseek2: latent attention (a K cache only, V read out of it, the
# heads' values through attn_v_b), leading dense blocks, then experts and
# shared ones
compute "$m/deepseek2.gguf" 1000 off 2048 512 1
compute "$m/deepseek2.gguf" 1000 on 2048 512 1
compute "$m/deepseek2.gguf" 20000 auto 2048 512 2
compute "$m/deepseek2.gguf" 3000 off 300 77 1
compute "$m/deepseek2.gguf" 5000 on 2048 100 3
compute "$m/deepseek2.gguf" 700 off 2048 33 4
compute "$m/deepseek2-moe.gguf" 1000 off 2048 512 1
compute "$m/deepseek2-moe.gguf" 1000 on 2048 512 1
compute "$m/deepseek2-moe.gguf" 5000 auto 2048 100 3
compute "$m/deepseek2-moe.gguf" 3000 off 300 77 2
compute "$m/deepseek2-moe.gguf" 700 on 2048 33 4
compute "$m/deepseek2-moe.gguf" 9000 off 64 512 1
# with a temperature scale: Q scaled by an input of the tokens' scales
"$GGUFED" new deepseek2 -o "$scratch/deepseek2-temp.gguf" --force -q \
    -e "set deepseek2.attention.temperature_scale:f32 0.1" ||
    { echo "Bail out! ggufed new deepseek2 failed"; exit 1; }
compute "$scratch/deepseek2-temp.gguf" 1000 off 2048 512 1
compute "$scratch/deepseek2-temp.gguf" 1000 on 2048 512 1
compute "$scratch/deepseek2-temp.gguf" 5000 on 2048 100 3
compute "$scratch/deepseek2-temp.gguf" 700 off 2048 33 4
# with groups of experts: the best groups' experts ranked, the others'
# set aside (4 groups of 2, 2 used; 4 groups of 4, 3 used, sigmoid gated)
"$GGUFED" new deepseek2 -o "$scratch/deepseek2-groups.gguf" --force -q \
    -e "set deepseek2.expert_count 8" -e "set deepseek2.expert_used_count 2" \
    -e "set deepseek2.expert_group_count:u32 4" \
    -e "set deepseek2.expert_group_used_count:u32 2" \
    -e "set deepseek2.leading_dense_block_count 1" ||
    { echo "Bail out! ggufed new deepseek2 failed"; exit 1; }
compute "$scratch/deepseek2-groups.gguf" 256 off 8 8 1
compute "$scratch/deepseek2-groups.gguf" 1000 on 2048 512 1
compute "$scratch/deepseek2-groups.gguf" 700 off 2048 33 4
"$GGUFED" new deepseek2 -o "$scratch/deepseek2-groups.gguf" --force -q \
    -e "set deepseek2.expert_count 16" -e "set deepseek2.expert_used_count 3" \
    -e "set deepseek2.expert_group_count:u32 4" \
    -e "set deepseek2.expert_group_used_count:u32 3" \
    -e "set deepseek2.leading_dense_block_count 1" \
    -e "set deepseek2.expert_feed_forward_length 512" \
    -e "set deepseek2.expert_gating_func:u32 2" ||
    { echo "Bail out! ggufed new deepseek2 failed"; exit 1; }
compute "$scratch/deepseek2-groups.gguf" 256 off 2048 512 1
compute "$scratch/deepseek2-groups.gguf" 300 on 2048 512 2
compute "$scratch/deepseek2-groups.gguf" 256 auto 300 77 3
# groups that do not divide the experts in twos or more: not modelled
"$GGUFED" set "$scratch/deepseek2-groups.gguf" \
    deepseek2.expert_group_count:u32 5 -o "$scratch/w.gguf" --force \
    >/dev/null 2>&1
"$GGUFED" mem "$scratch/w.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for deepseek2 with an expert_group_count not dividing its experts in groups of two or more"' \
    "$scratch/mem.json"
ok $? "deepseek2 with 5 groups of 16 experts: not modelled, and says so"
# without flash attention V is copied out of the K cache in its type
for t in f32 bf16; do
	theirs=$(GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$m/deepseek2-moe.gguf" \
	    --ctx 60000 --flash-attn 0 --batch 2048 --ubatch 8 --parallel 1 \
	    --type-k $t --type-v $t 2>/dev/null |
	    awk '$1 == "compute" { b = $2 } END { print b }')
	ours=$("$GGUFED" mem "$m/deepseek2-moe.gguf" --ctx 60000 -fa off -ub 8 \
	    -ctk $t -ctv $t --json | sed -n 's/.*"compute": \([0-9]*\).*/\1/p' |
	    head -1)
	[ -n "$theirs" ] && [ "$theirs" = "$ours" ]
	ok $? "deepseek2-moe.gguf ctx 60000 -fa off -ub 8, $t cache: the compute buffer is llama.cpp's ($theirs bytes)" ||
	    echo "# ggufed: $ours"
done
# And random models of it, seeded apart from the loops above: blocks,
# heads, kv_lora_rank, RoPE dimensions, the heads' size without RoPE,
# q_lora_rank (0: one Q projection), leading dense blocks, experts, those
# used, shared ones, gating by soft-max or sigmoid, weights normalized
# and scaled or not; every third with a temperature scale, half of
# those with an even number of experts (four or more) in groups of two.
dst=$(( (${MEM_SEED:-1} * 69621 + 7) % 2147483648 ))
echo "# compute, deepseek2: seed $dst"
st=$dst
i=0
while [ $i -lt 24 ]; do
	i=$((i + 1))
	a=deepseek2
	rnd 4; blocks=$((r + 1))
	rnd 5; heads=$((1 << r))
	rnd 4; rank=$((16 << r))
	rnd 3; rope=$((8 << r))
	rnd 3; nope=$((8 << r))
	rnd 3; qr=$(echo "0 16 48" | cut -d' ' -f$((r + 1)))
	rnd $((blocks + 1)); lead=$r
	rnd 6; ne=$((r + 2))
	rnd $ne; nu=$((r + 1))
	rnd 2; nsh=$((r + 1))
	rnd 2; gf=$((r + 1))
	rnd 2; nw=$(echo "false true" | cut -d' ' -f$((r + 1)))
	rnd 3; ws=$(echo "0 1 2.5" | cut -d' ' -f$((r + 1)))
	rnd 9000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 1 1 2 3 5" | cut -d' ' -f$((r + 1)))
	set -- new "$a" --seed "$i" -o "$scratch/$a.drand.gguf" --force -q \
	    -e "set $a.block_count $blocks" \
	    -e "set $a.attention.head_count $heads" \
	    -e "set $a.attention.kv_lora_rank $rank" \
	    -e "set $a.attention.key_length $((rank + rope))" \
	    -e "set $a.attention.value_length $rank" \
	    -e "set $a.rope.dimension_count $rope" \
	    -e "set $a.attention.key_length_mla $((nope + rope))" \
	    -e "set $a.attention.q_lora_rank $qr" \
	    -e "set $a.leading_dense_block_count $lead" \
	    -e "set $a.expert_count $ne" \
	    -e "set $a.expert_used_count $nu" \
	    -e "set $a.expert_shared_count $nsh" \
	    -e "set $a.expert_gating_func:u32 $gf" \
	    -e "set $a.expert_weights_norm:bool $nw" \
	    -e "set $a.expert_weights_scale:f32 $ws"
	[ $((i % 3)) = 0 ] &&
	    set -- "$@" -e "set $a.attention.temperature_scale:f32 0.1"
	[ $((i % 4)) -lt 2 ] && [ $((ne % 2)) = 0 ] && [ $ne -ge 4 ] &&
	    set -- "$@" -e "set $a.expert_group_count:u32 $((ne / 2))" \
	    -e "set $a.expert_group_used_count:u32 $((i % (ne / 2 - 1) + 1))"
	if ! "$GGUFED" "$@" 2>"$scratch/new.err"; then
		ok 1 "compute: deepseek2, case $i: ggufed new makes its model"
		sed 's/^/# /' "$scratch/new.err"
		continue
	fi
	compute "$scratch/$a.drand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" - \
	    "MEM_SEED=${MEM_SEED:-1}, deepseek2 case $i: ggufed$(printf " '%s'" "$@")"
done

# gemma3n: altup (a stack of 4), laurel, per-layer inputs, a sparse gate
# on the first 10 blocks; 4 sliding blocks of 5; from the 20th, Q alone
# over an earlier block's cache (gemma3n-shared.gguf: 22 blocks)
compute "$m/gemma3n.gguf" 1000 off 2048 512 1
compute "$m/gemma3n.gguf" 1000 on 2048 512 1
compute "$m/gemma3n.gguf" 5000 auto 2048 100 2
compute "$m/gemma3n.gguf" 3000 off 300 77 3
compute "$m/gemma3n.gguf" 5000 off 2048 512 1 swa-full
compute "$m/gemma3n-shared.gguf" 1000 off 2048 512 1
compute "$m/gemma3n-shared.gguf" 20000 on 2048 512 2
compute "$m/gemma3n-shared.gguf" 5000 off 2048 100 1 swa-full
compute "$m/gemma3n-shared.gguf" 3000 auto 300 77 3
compute "$m/gemma3n-shared.gguf" 700 off 2048 33 4
compute "$m/gemma3n-shared.gguf" 2000 on 64 512 1 swa-full
# gemma4: sliding blocks flagged by the file, with a head size of their
# own; the last shared_kv_layers reading an earlier block's cache; V
# its own projection or K's (without flash attention padded to the
# widest V row); per-layer inputs; outputs scaled, logits not soft-capped
compute "$m/gemma4.gguf" 1000 off 2048 512 1
compute "$m/gemma4.gguf" 1000 on 2048 512 1
compute "$m/gemma4.gguf" 5000 auto 2048 100 2
compute "$m/gemma4.gguf" 3000 off 300 77 3
compute "$m/gemma4.gguf" 9000 off 2048 512 1 swa-full
compute "$m/gemma4-shared.gguf" 1000 off 2048 512 1
compute "$m/gemma4-shared.gguf" 5000 on 2048 512 2
compute "$m/gemma4-shared.gguf" 700 off 2048 33 4
compute "$m/gemma4-shared.gguf" 3000 auto 64 512 1 swa-full
compute "$m/gemma4-scaled.gguf" 1000 off 2048 512 1
compute "$m/gemma4-scaled.gguf" 3000 on 300 77 3
compute "$m/gemma4-scaled.gguf" 9000 off 2048 100 2 swa-full
# gemma4's experts (2 of 4 used) beside the feed-forward
compute "$m/gemma4-moe.gguf" 1000 off 2048 512 1
compute "$m/gemma4-moe.gguf" 5000 on 2048 256 2
compute "$m/gemma4-moe.gguf" 3000 auto 300 77 3
compute "$m/gemma4-moe.gguf" 9000 off 2048 100 1 swa-full
# And random models of them, seeded apart from the loops above: gemma3n's
# blocks (up to 23: some sharing a cache, some without the sparse gate),
# heads, KV heads, head size, feed-forward length, window and its period;
# gemma4's blocks, which slide, how many share a cache (where llama.cpp
# can), heads, KV heads, both head sizes, per-layer inputs, V projections
# or not, the logits soft-capped or not; the experts gemma4 uses a token.
gst=$(( (${MEM_SEED:-1} * 16807 + 3) % 2147483648 ))
echo "# compute, gemma: seed $gst"
st=$gst
i=0
while [ $i -lt 32 ]; do
	i=$((i + 1))
	a=gemma3n
	[ $((i % 2)) = 0 ] && a=gemma4
	rnd 8; blocks=$(echo "1 2 3 6 11 12 21 23" | cut -d' ' -f$((r + 1)))
	rnd 3; heads=$((1 << r))
	rnd $((r + 1)); kv=$((heads >> r))
	rnd 3; hd=$((8 << r))
	rnd 4; ff=$((32 * (r + 1)))
	rnd 700; win=$((r + 16))
	rnd 3; per=$(echo "2 4 5" | cut -d' ' -f$((r + 1)))
	rnd 9000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 1 1 2 3 5" | cut -d' ' -f$((r + 1)))
	rnd 3; full=$(echo "- - swa-full" | cut -d' ' -f$((r + 1)))
	set -- new "$a" --seed "$i" -o "$scratch/$a.grand.gguf" --force -q \
	    -e "set $a.block_count $blocks" \
	    -e "set $a.attention.head_count $heads" \
	    -e "set $a.attention.head_count_kv $kv" \
	    -e "set $a.embedding_length $((heads * hd))" \
	    -e "set $a.attention.key_length:u32 $hd" \
	    -e "set $a.attention.value_length:u32 $hd" \
	    -e "set $a.feed_forward_length $ff" \
	    -e "set $a.attention.sliding_window:u32 $win"
	if [ $a = gemma3n ]; then
		set -- "$@" -e "set $a.attention.sliding_window_pattern:u32 $per"
	else
		# which blocks slide; the shared ones (0 where llama.cpp
		# would give up)
		blocks=$((blocks % 5 + 2))
		flags= j=0
		while [ $j -lt $blocks ]; do
			rnd 4; flags="$flags $([ $r -lt 3 ] && echo 1 || echo 0)"
			j=$((j + 1))
		done
		rnd $((blocks > 2 ? blocks - 1 : 1)); sh=$r
		from=$((blocks - sh)) j=$from
		while [ $j -lt $blocks ]; do
			f=$(echo $flags | cut -d' ' -f$((j + 1)))
			[ $f = 1 ] && [ "$(echo $flags | cut -d' ' -f$((from - 1)))" != 1 ] && sh=0
			[ $f = 0 ] && [ "$(echo $flags | cut -d' ' -f$from)" != 0 ] && sh=0
			j=$((j + 1))
		done
		rnd 3; hs=$((8 << r))
		rnd 3; pl=$(echo "0 8 16" | cut -d' ' -f$((r + 1)))
		rnd 3; cap=$(echo "- 0 30" | cut -d' ' -f$((r + 1)))
		rnd 2; var=$((r * 4))
		set -- "$@" -e "set $a.block_count $blocks" \
		    -e "set $a.attention.sliding_window_pattern:arr[bool] [$(echo $flags |
			sed 's/1/true/g; s/0/false/g; s/ /, /g')]" \
		    -e "set $a.attention.shared_kv_layers:u32 $sh" \
		    -e "set $a.attention.key_length_swa:u32 $hs" \
		    -e "set $a.attention.value_length_swa:u32 $hs" \
		    -e "set $a.embedding_length_per_layer_input:u32 $pl" \
		    --variant $var
		[ $cap = - ] ||
		    set -- "$@" -e "set $a.final_logit_softcapping:f32 $cap"
		# variant 4: a V projection (its scales taken out)
		if [ $var = 4 ] && "$GGUFED" "$@" 2>/dev/null; then
			for t in $("$GGUFED" dump "$scratch/$a.grand.gguf" |
			    awk '$1 == "tensor" && $3 ~ /scale$/ { print $3 }'); do
				set -- "$@" -e "rm-tensor $t"
			done
		fi
	fi
	if ! "$GGUFED" "$@" 2>"$scratch/new.err"; then
		ok 1 "compute: gemma, case $i: ggufed new makes its model"
		sed 's/^/# /' "$scratch/new.err"
		continue
	fi
	compute "$scratch/$a.grand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" "$full" \
	    "MEM_SEED=${MEM_SEED:-1}, gemma case $i: ggufed$(printf " '%s'" "$@")"
done
# and gemma4's experts, 1 to 4 of them used a token
i=0
while [ $i -lt 8 ]; do
	i=$((i + 1))
	rnd 4; nu=$((r + 1))
	rnd 9000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 1 1 2 3 5" | cut -d' ' -f$((r + 1)))
	rnd 3; full=$(echo "- - swa-full" | cut -d' ' -f$((r + 1)))
	"$GGUFED" set "$m/gemma4-moe.gguf" gemma4.expert_used_count "$nu" \
	    -o "$scratch/gemma4-moe.gguf" --force >/dev/null 2>&1
	compute "$scratch/gemma4-moe.gguf" "$ctx" "$fa" "$b" "$ub" "$np" \
	    "$full" "MEM_SEED=${MEM_SEED:-1}, gemma4 experts case $i: \
expert_used_count $nu"
done

# The gated delta-net hybrids: qwen3next (ssm_in split by K head, Q and
# K repeated to the V heads; experts and a shared one), qwen35 (attn_qkv
# and attn_gate, four positions a token; a SwiGLU feed-forward) and
# qwen35moe (qwen35's layers, qwen3next's experts), attention on every
# fourth block; and models of gen_memmodels --deltanet: K heads as many
# as V heads and one expert a token, attention on every third block; V
# heads four a K head and all the experts a token, attention on every
# block.
dnet=$TESTS_BUILDDIR/tools/gen_memmodels
dn_archs="qwen3next qwen35 qwen35moe"
# ggufed new's models of them run (their delta-net input is made, which
# llama.cpp's loader does not require and its graph reads)
for a in $dn_archs; do
	"$GGUFED" new $a -o "$scratch/$a.new.gguf" --force -q ||
	    { echo "Bail out! ggufed new $a failed"; exit 1; }
	compute "$scratch/$a.new.gguf" 1000 auto 2048 512 1
	compute "$scratch/$a.new.gguf" 3000 off 512 100 2
done
for a in $dn_archs; do
	compute "$m/$a.gguf" 1000 off 2048 512 1
	compute "$m/$a.gguf" 1000 on 2048 512 2
	compute "$m/$a.gguf" 1000 auto 2048 512 1
	compute "$m/$a.gguf" 5000 off 300 77 1
	compute "$m/$a.gguf" 3000 on 2048 100 3
	compute "$m/$a.gguf" 700 off 2048 33 4
	"$dnet" --deltanet $a "$scratch/$a-dn.gguf" 3 64 2 2 32 3 3 32 2 2 \
	    96 4 1 48 32 || { echo "Bail out! gen_memmodels failed"; exit 1; }
	compute "$scratch/$a-dn.gguf" 2000 auto 2048 512 1
	compute "$scratch/$a-dn.gguf" 2000 off 512 100 2
	"$dnet" --deltanet $a "$scratch/$a-dn.gguf" 3 32 4 1 16 1 4 8 1 4 \
	    64 8 8 16 16 || { echo "Bail out! gen_memmodels failed"; exit 1; }
	compute "$scratch/$a-dn.gguf" 300 on 2048 512 1
	compute "$scratch/$a-dn.gguf" 9000 off 64 33 3
done
# qwen3next with attn_qkv and attn_gate in place of ssm_in
"$dnet" --deltanet qwen3next-qkv "$scratch/q3n-qkv.gguf" 4 96 4 1 32 4 4 16 \
    2 4 160 4 2 32 32 || { echo "Bail out! gen_memmodels failed"; exit 1; }
compute "$scratch/q3n-qkv.gguf" 1000 auto 2048 512 1
compute "$scratch/q3n-qkv.gguf" 1000 off 2048 512 2
compute "$scratch/q3n-qkv.gguf" 5000 off 300 77 1
compute "$scratch/q3n-qkv.gguf" 700 on 2048 33 4
# qwen35's and qwen35moe's attention with Q, K and V in one attn_qkv
for a in qwen35 qwen35moe; do
	"$dnet" --deltanet $a-qkv "$scratch/$a-qkv.gguf" 4 96 4 1 32 2 4 16 2 \
	    4 160 4 2 32 32 ||
	    { echo "Bail out! gen_memmodels failed"; exit 1; }
	compute "$scratch/$a-qkv.gguf" 1000 auto 2048 512 1
	compute "$scratch/$a-qkv.gguf" 1000 off 2048 512 2
	compute "$scratch/$a-qkv.gguf" 700 on 2048 33 4
done
# the cache's types (the attention reads the cache as it is)
for a in $dn_archs; do
	for t in "q8_0 q8_0 1" "q8_0 f16 0" "f32 f32 0" "bf16 bf16 1"; do
		set -- $t
		theirs=$(GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$m/$a.gguf" \
		    --ctx 3000 --flash-attn $3 --parallel 2 --type-k $1 \
		    --type-v $2 2>/dev/null |
		    awk '$1 == "compute" { b = $2 } END { print b }')
		ours=$("$GGUFED" mem "$m/$a.gguf" --ctx 3000 \
		    -fa $(echo "off on" | cut -d' ' -f$(($3 + 1))) \
		    --parallel 2 -ctk $1 -ctv $2 --json |
		    sed -n 's/.*"compute": \([0-9]*\).*/\1/p' | head -1)
		[ -n "$theirs" ] && [ "$theirs" = "$ours" ]
		ok $? "$a.gguf ctx 3000 x2 -fa $3, K $1 V $2: the compute buffer is llama.cpp's ($theirs bytes)" ||
		    echo "# ggufed: $ours"
	done
done
# expert_weights_scale, which llama.cpp does not read for them
for a in qwen3next qwen35moe; do
	"$GGUFED" set "$m/$a.gguf" $a.expert_weights_scale:f32 2.5 \
	    -o "$scratch/$a-ws.gguf" --force -q ||
	    { echo "Bail out! ggufed set failed"; exit 1; }
	compute "$scratch/$a-ws.gguf" 1000 auto 2048 512 1
done

# And random models of them, seeded apart from the loops above (derived
# from MEM_SEED): blocks, embedding, heads, KV heads, head size, the
# attention's interval, the conv kernel, the delta net's K heads, V heads
# and their size, the feed-forward length, experts, those used, their
# length and the shared one's, qwen3next's projection (ssm_in, or
# attn_qkv and attn_gate), the others' attention (Q, K and V apart or in
# one), at a random context, flash attention,
# batch, micro-batch and parallel sequences. gen_memmodels writes them:
# `ggufed new` leaves out what llama.cpp's loader takes as optional but
# its graph reads (qwen3next's ssm_in, qwen35's attn_qkv and attn_gate).
qst=$(( (${MEM_SEED:-1} * 16807 + 29) % 2147483648 ))
echo "# compute, delta net: seed $qst"
st=$qst
na=$(echo $dn_archs | wc -w)
i=0
while [ $i -lt 24 ]; do
	i=$((i + 1))
	a=$(echo $dn_archs | cut -d' ' -f$((i % na + 1)))
	rnd 6; blocks=$((r + 1))
	rnd 4; embd=$((16 * (r + 1)))
	rnd 3; heads=$((1 << r))
	rnd $((r + 1)); kv=$((heads >> r))
	rnd 3; hd=$((16 << r))
	rnd $blocks; iv=$((r + 1))
	rnd 4; conv=$((r + 2))
	rnd 3; sk=$((8 << r))
	rnd 3; nk=$((1 << r))
	rnd 3; nv=$((nk << r))
	rnd 4; ff=$((32 * (r + 1)))
	rnd 7; nexp=$((r + 2))
	rnd $nexp; nused=$((r + 1))
	rnd 4; fexp=$((16 * (r + 1)))
	rnd 4; fsh=$((16 * (r + 1)))
	rnd 9000; ctx=$((r + 1))
	rnd 3; fa=$(echo "on off auto" | cut -d' ' -f$((r + 1)))
	rnd 4; b=$(echo "2048 512 300 64" | cut -d' ' -f$((r + 1)))
	rnd 4; ub=$(echo "512 256 100 33" | cut -d' ' -f$((r + 1)))
	rnd 6; np=$(echo "1 1 1 2 3 5" | cut -d' ' -f$((r + 1)))
	rnd 2; [ $r = 1 ] && a=$a-qkv
	set -- --deltanet $a "$scratch/$a.qrand.gguf" $blocks $embd $heads $kv \
	    $hd $iv $conv $sk $nk $nv $ff $nexp $nused $fexp $fsh
	if ! "$dnet" "$@" 2>"$scratch/new.err"; then
		ok 1 "compute, delta net: case $i: gen_memmodels makes its model"
		sed 's/^/# /' "$scratch/new.err"
		continue
	fi
	compute "$scratch/$a.qrand.gguf" "$ctx" "$fa" "$b" "$ub" "$np" - \
	    "MEM_SEED=${MEM_SEED:-1}, delta net case $i: gen_memmodels$(printf " %s" "$@")"
done

# What is not modelled is null, with the reason, never a guess.
# gemma4 with Q, K and V in one projection (its scales taken out)
"$GGUFED" new gemma4 --variant 1 -o "$scratch/g4.gguf" --force -q
set --
for t in $("$GGUFED" dump "$scratch/g4.gguf" |
    awk '$1 == "tensor" && $3 ~ /scale$/ { print $3 }'); do
	set -- "$@" -e "rm-tensor $t"
done
"$GGUFED" new gemma4 --variant 1 -o "$scratch/g4.gguf" --force -q "$@"
"$GGUFED" mem "$scratch/g4.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for gemma4 blocks with blk.0.attn_qkv.weight"' \
    "$scratch/mem.json"
ok $? "gemma4 with a fused QKV: the compute buffer is not modelled, and says so"
# deepseek2 with a NextN layer: its tensors are not in the graph modelled
"$GGUFED" mem "$m/deepseek2-nextn.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for deepseek2 blocks with blk.2.nextn.eh_proj.weight"' \
    "$scratch/mem.json"
ok $? "deepseek2 with a NextN layer: the compute buffer is not modelled, and says so"
"$GGUFED" new rwkv6 --variant 5 -o "$scratch/w.gguf" --force -q \
    -e "set rwkv6.attention.head_count_kv 4" \
    -e 'rm-tensor blk.0.time_mix_lerp_fused.weight'
"$GGUFED" mem "$scratch/w.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for rwkv6 without blk.0.time_mix_lerp_fused.weight"' \
    "$scratch/mem.json"
ok $? "rwkv6 with its lerps apart: not modelled, and says so"
"$GGUFED" mem "$m/llama-gqa.gguf" --ctx 1000 -fa on --cache-type-k f32 \
    --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for an F32 cache with flash attention"' \
    "$scratch/mem.json"
ok $? "llama, F32 cache with flash attention: not modelled, and says so"
"$GGUFED" new llama --variant 5 -o "$scratch/v5.gguf" --force -q
"$GGUFED" mem "$scratch/v5.gguf" --ctx 1000 >"$scratch/out.txt"
grep -q '^compute  *not modelled for llama blocks with blk\.0\.' \
    "$scratch/out.txt"
ok $? "llama with a fused QKV: not modelled, and says so"
"$GGUFED" new qwen3next -o "$scratch/q3n.gguf" --force -q \
    -e 'rm-tensor blk.0.ssm_in.weight'
"$GGUFED" mem "$scratch/q3n.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for qwen3next without blk.0.ssm_in.weight"' \
    "$scratch/mem.json"
ok $? "qwen3next without ssm_in (llama.cpp's graph reads it): not modelled, and says so"
"$GGUFED" new qwen3next --variant 2 -o "$scratch/q3n.gguf" --force -q
"$GGUFED" mem "$scratch/q3n.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for qwen3next blocks with blk.0.attn_qkv.scale"' \
    "$scratch/mem.json"
ok $? "qwen3next with scales: not modelled, and says so"
"$GGUFED" new qwen35 -o "$scratch/q35.gguf" --force -q \
    -e 'rm-tensor blk.0.attn_qkv.weight'
"$GGUFED" mem "$scratch/q35.gguf" --ctx 1000 --json >"$scratch/mem.json"
grep -q '"compute": null, "compute_why": "compute: not modelled for qwen35 without blk.0.attn_qkv.weight"' \
    "$scratch/mem.json"
ok $? "qwen35 without attn_qkv (llama.cpp's graph reads it): not modelled, and says so"

# The walk: each architecture `ggufed mem --keys` lists, in its model
# here (llama4's and gemma3n's with the blocks that show their layouts), with each key the computation reads removed, and set to the value
# the list gives (nextn_predict_layers also with one block more, the
# NextN layer's tensors being optional outside deepseek2). Where
# llama.cpp loads the model, ggufed must give every layer llama.cpp's
# bytes or say "not modelled": no key it ignores may change the answer.
walk() {	# walk MODEL WHAT
	GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$1" --ctx 1000 --parallel 2 \
	    >"$scratch/probe.txt" 2>"$scratch/probe.err"
	prc=$?
	"$GGUFED" mem "$1" --ctx 1000 --parallel 2 --json \
	    >"$scratch/mem.json" 2>"$scratch/mem.err"
	mrc=$?
	if grep -q '"modelled": false' "$scratch/mem.json"; then
		ok 0 "walk: $2: not modelled, says ggufed ($(sed -n \
		    's/.*"why": "\(.*\)",$/\1/p' "$scratch/mem.json"))"
		return
	fi
	# The cache llama.cpp allocated, even if it gives up afterwards.
	if ! grep -q '^tensor cache_' "$scratch/probe.txt"; then
		# Refused (or given up on, an assertion) before a context.
		if grep -q '^model failed' "$scratch/probe.txt" ||
		    ! grep -q '^log llama_context' "$scratch/probe.txt"; then
			ok 0 "walk: $2: llama.cpp refuses the model"
		else
			[ $prc -ne 0 ] && [ $mrc -eq 1 ]
			ok $? "walk: $2: llama.cpp allocates no cache, and" \
			    "ggufed refuses it too" ||
			    sed 's/^/# /' "$scratch/probe.err" | tail -3
		fi
		return
	fi
	nl=$(sed -n 's/^  "layers": \([0-9]*\),$/\1/p' "$scratch/mem.json")
	ours_layers "$scratch/mem.json" >"$scratch/ours.txt"
	theirs_layers "$scratch/probe.txt" "$nl" >"$scratch/theirs.txt"
	[ $mrc -eq 0 ] && diff "$scratch/theirs.txt" "$scratch/ours.txt" \
	    >"$scratch/diff"
	ok $? "walk: $2: every layer's cache bytes are llama.cpp's" ||
	    sed 's/^/# /' "$scratch/diff" "$scratch/mem.err"
}
"$GGUFED" mem --keys >"$scratch/keys.txt"
grep -q '^arch ' "$scratch/keys.txt" && grep -q '^key ' "$scratch/keys.txt"
ok $? "mem --keys lists architectures and keys"
for a in $(sed -n 's/^arch //p' "$scratch/keys.txt"); do
	case $a in
	llama)	f=$m/llama-gqa.gguf ;;
	llama4)	f=$m/llama4-chunked.gguf ;;
	gemma3n) f=$m/gemma3n-shared.gguf ;;
	*)	f=$m/$a.gguf ;;
	esac
	GGML_NO_BACKTRACE=1 "$probe" "$libdir" "$f" --ctx 1000 \
	    >"$scratch/probe.txt" 2>&1
	grep -q '^tensor cache_' "$scratch/probe.txt"
	ok $? "walk: $a: a model whose cache llama.cpp allocates" || continue
	walk "$f" "$a as written"
	sed -n 's/^key //p' "$scratch/keys.txt" >"$scratch/keylist"
	while read -r key val; do
		w=$scratch/walk.gguf
		if "$GGUFED" get "$f" "$a.$key" >/dev/null 2>&1; then
			"$GGUFED" rm "$f" "$a.$key" -o "$w" --force \
			    >/dev/null 2>&1
			walk "$w" "$a without $key"
		fi
		"$GGUFED" set "$f" "$a.$key:u32" "$val" -o "$w" --force \
		    >/dev/null 2>&1
		walk "$w" "$a with $key $val"
		[ "$key" = nextn_predict_layers ] || continue
		n=$("$GGUFED" get "$f" "$a.block_count")
		"$GGUFED" edit "$f" -o "$w" --force \
		    -e "set $a.$key:u32 $val" \
		    -e "set $a.block_count $((n + 1))" >/dev/null 2>&1
		walk "$w" "$a with $key $val and $((n + 1)) blocks"
	done <"$scratch/keylist"
done

# An architecture ggufed does not model is said to be so, never guessed.
"$GGUFED" mem "$SHARED_DIR/fixtures/real/bitnet-rs-gpt2-50k-tokens-as-string.gguf" \
    >"$scratch/out.txt" 2>&1
if [ -f "$SHARED_DIR/fixtures/real/bitnet-rs-gpt2-50k-tokens-as-string.gguf" ]; then
	grep -q '^cache  *not modelled: the cache of architecture "gpt2" is not modelled' \
	    "$scratch/out.txt"
	ok $? "gpt2: weights only, the cache reported as not modelled"
fi
done_testing
