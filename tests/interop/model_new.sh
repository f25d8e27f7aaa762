#!/bin/sh
# model_new.sh - `ggufed new` against llama.cpp itself: for every
# architecture `ggufed new --list` names, the model it makes with no
# optional tensor (variant 0) and with two choices of them (variants 1
# and 2: by row, and by row and block), each loaded by llama.cpp's own
# library (tests/interop/llama_load) and checked by `ggufed validate`:
# llama.cpp must load every one, and validate find no error in it. Then
# loader branches one model of each does not take: more variants of some
# (gemma3's fused q, k and v and their biases, llada's biases), and models
# made with -e (gemma4 without per-layer inputs, or with sliding-window
# layers only). Besides variants 0 to 2, one more of each architecture,
# drawn from a seeded sequence (MODEL_NEW_SEED, 1 unless given; a failure
# names it, and the variant and seed of its model).
. "$TESTS_SRCDIR/lib.sh"

llama_libdir
probe="$TESTS_BUILDDIR/interop/llama_load"
m=$scratch/models
mkdir "$m"

seed=${MODEL_NEW_SEED:-1}
st=$seed
# rnd N: r = a number in 0 .. N-1 from the seeded sequence.
rnd() {
	st=$(( (st * 1103515245 + 12345) % 2147483648 ))
	r=$(( st / 65536 % $1 ))
}

"$GGUFED" new --list >"$scratch/archs" ||
    { echo "Bail out! ggufed new --list failed"; exit 1; }
ok $([ -s "$scratch/archs" ]; echo $?) "new --list names architectures"

: >"$scratch/files"
while read -r a; do
	rnd 1000
	for v in 0 1 2 $((r + 3)); do
		case $v in
		[012]) f=$m/$a-v$v.gguf ;;
		*) f=$m/$a-random-v$v.gguf ;;
		esac
		if "$GGUFED" new "$a" -o "$f" --variant $v --seed $v -q \
		    2>"$scratch/new.err"; then
			echo "$f" >>"$scratch/files"
		else
			ok 1 "$a variant $v (MODEL_NEW_SEED=$seed): ggufed new makes it"
			sed 's/^/# /' "$scratch/new.err"
		fi
	done
done <"$scratch/archs"
echo "# seed $seed"

# extra NAME ARCH ARGS...: a model made with these arguments as well.
extra() {
	f=$m/$1.gguf
	shift
	if "$GGUFED" new "$@" -o "$f" -q 2>"$scratch/new.err"; then
		echo "$f" >>"$scratch/files"
	else
		ok 1 "$(basename "$f" .gguf): ggufed new makes it"
		sed 's/^/# /' "$scratch/new.err"
	fi
}
for v in 3 4 5 6 7 8 9 10; do
	extra gemma3-v$v gemma3 --variant $v
done
extra gemma4-no-per-layer gemma4 \
    -e 'set gemma4.embedding_length_per_layer_input 0'
# (every layer a sliding-window one: no rope_freqs)
extra gemma4-all-sliding gemma4 -e 'set gemma4.block_count 1'
for v in 3 4 5 6 7 8 9 10; do
	extra llada-v$v llada --variant $v
done
# some MODEL TENSOR: a variant of MODEL above has TENSOR (of any block:
# blk.N.), which llama.cpp then loads, as every model here.
some() {
	grep "/$1-v" "$scratch/files" | xargs -n1 "$GGUFED" dump |
	    sed 's/ blk\.[0-9]*\./ blk.N./' | grep -q " $2 "
	ok $? "some $1 has $2"
}
some gemma3 blk.N.attn_qkv.weight
some gemma3 blk.N.attn_q.bias
some llada blk.N.attn_output.bias
some llada blk.N.ffn_up.bias
some llada rope_freqs.weight

xargs "$probe" "$libdir" <"$scratch/files" >"$scratch/verdicts" \
    2>"$scratch/probe.err" ||
    {
	echo "Bail out! llama_load failed"
	sed 's/^/# /' "$scratch/probe.err"
	exit 1
    }

while read -r f; do
	case=$(basename "$f" .gguf)
	verdict=$(grep -F "$f	" "$scratch/verdicts" | cut -f2-)
	[ "$verdict" = ok ]
	ok $? "$case: llama.cpp loads it" ||
	    echo "#   $verdict (MODEL_NEW_SEED=$seed)"
	"$GGUFED" validate -q "$f" >"$scratch/v.out" 2>&1
	ok $? "$case: validate finds no error" ||
	    { echo "#   (MODEL_NEW_SEED=$seed)"; sed 's/^/#   /' "$scratch/v.out"; }
done <"$scratch/files"
done_testing
