#!/bin/sh
# model_diff.sh - the model check of `ggufed validate` against llama.cpp,
# on random models: seeded, so that a run can be replayed.
#
# Each case is an architecture of `ggufed new --list` (in turn, then at
# random), a model `ggufed new` makes of it with random hyper-parameters
# (-e: block_count, and one that shapes tensors: heads, KV heads, the
# feed-forward or embedding length, experts where the architecture may
# have none; each within a small range, not always within llama.cpp's
# limits) and a random --variant
# (which optional tensors), then a random hand edit of the file with
# `ggufed edit`: a tensor removed, renamed, renamed over another (one of
# another shape in its place), or moved to a block past the last;
# block_count up or down; a hyper-parameter that shapes tensors changed;
# a key removed or made another type; a token added; another tokenizer
# (tokenizer.ggml.model), or none and a vocab_size; or a harmless edit.
# llama.cpp's own library (tests/interop/llama_load) says whether it
# loads the file; validate must give an error exactly when it refuses,
# and then an error must name the tensor or key the edit touched (or the
# one llama.cpp names).
#
# Environment: MODEL_DIFF_SEED (default 1), MODEL_DIFF_COUNT (cases;
# by default every architecture once, then 40 more). A disagreement prints its seed, case and the two commands
# that make its file again. Before the seeded cases, the ones long runs
# found (the found list below), whatever the seed.
. "$TESTS_SRCDIR/lib.sh"
. "$TESTS_SRCDIR/interop/verdict.lib"

llama_libdir
probe="$TESTS_BUILDDIR/interop/llama_load"
seed=${MODEL_DIFF_SEED:-1}
m=$scratch/m
mkdir "$m"

"$GGUFED" new --list >"$scratch/archs" ||
    { echo "Bail out! ggufed new --list failed"; exit 1; }
narchs=$(wc -l <"$scratch/archs")
count=${MODEL_DIFF_COUNT:-$((narchs + 40))}
echo "# seed $seed, $count cases"

# rnd N: r = a number in 0 .. N-1 from the seeded sequence.
st=$seed
rnd() {
	st=$(( (st * 1103515245 + 12345) % 2147483648 ))
	r=$(( st / 65536 % $1 ))
}

# pick FILE: line = a random line of FILE (empty if none).
pick() {
	n=$(wc -l <"$1")
	line=
	[ "$n" -gt 0 ] || return 0
	rnd "$n"
	line=$(sed -n "$((r + 1))p" "$1")
}

# key FILE KEY: its value, empty if absent or no number.
key() {
	"$GGUFED" get "$1" "$2" 2>/dev/null
}

# q WORD...: the words quoted for a shell, for the replay lines.
q() {
	for w in "$@"; do
		printf " '%s'" "$(printf '%s' "$w" | sed "s/'/'\\\\''/g")"
	done
}

# make_model ARGS...: case $i's model, $m/$i.gguf (f), made by ggufed
# ARGS (made: the command that makes it again); false when there is none.
make_model() {
	f=$m/$i.gguf
	"$GGUFED" "$@" -o "$f" -q >"$scratch/new.err" 2>&1
	rc=$?
	# An edit that does not fit the model (a per-block array set as
	# one number), or keys no tensor can be shaped by: nothing to load.
	if [ $rc -eq 2 ] || { [ $rc -eq 1 ] &&
	    grep -q "no tensors" "$scratch/new.err"; }; then
		echo "# case $i: no model:$(q "$@"): $(head -1 "$scratch/new.err")"
		return 1
	fi
	if [ $rc -ne 0 ]; then
		ok 1 "case $i: ggufed new makes it:$(q "$@")"
		sed 's/^/# /' "$scratch/new.err"
		return 1
	fi
	made="ggufed$(q "$@") -o $i.gguf"
}

# make_edit ARGS...: the model and its edit by ggufed edit ARGS (one
# that touched $touched), $m/$i-edit.gguf, made cases.
make_edit() {
	g=$m/$i-edit.gguf
	if ! "$GGUFED" edit "$f" "$@" -o "$g" --force -q \
	    >"$scratch/edit.err" 2>&1; then
		ok 1 "case $i: ggufed edit makes the edit:$(q "$@")"
		sed 's/^/# /' "$scratch/edit.err"
		return
	fi
	printf '%s\t%s\t%s\t%s\n' "$f" - "$made" "" >>"$scratch/cases"
	printf '%s\t%s\t%s\t%s\n' "$g" "${touched:--}" "$made" \
	    "ggufed edit $i.gguf$(q "$@") -o $i-edit.gguf --force" \
	    >>"$scratch/cases"
}

: >"$scratch/cases"

# Cases long runs found, made every time (before the seeded ones, which
# they leave as they were): found NAME TOUCHED NEW EDIT, NEW the
# arguments of ggufed new and EDIT those of the edit, each as shell
# words; the seed and case that found it in a comment above.
found() {
	i=$1 touched=$2 edit=$4
	eval "set -- new $3"
	make_model "$@" || return
	eval "set -- $edit"
	make_edit "$@"
}
# (seed 8, cases 120 and 267: rwkv6qwen2's k and v of head_count_kv
# heads of wkv.head_size; then its time_mix_first optional)
found rwkv6qwen2-embd blk.0.time_mix_first.weight "rwkv6qwen2 --seed 120 \
    --variant 270 -e 'set rwkv6qwen2.block_count 2' \
    -e 'set rwkv6qwen2.embedding_length 64'" \
    "-e 'rm-tensor blk.0.time_mix_first.weight'"
# (seed 8, case 545: no heads, no key_length)
found t5encoder-heads attention.head_count "t5encoder --seed 545 \
    --variant 157 -e 'set t5encoder.block_count 1' \
    -e 'set t5encoder.embedding_length 64'" \
    "-e 'rm t5encoder.attention.head_count'"
# (seed 9, case 129: laguna's output matrix optional)
found laguna-output output.weight "laguna --seed 129 --variant 883 \
    -e 'set laguna.block_count 1' -e 'set laguna.embedding_length 96'" \
    "-e 'rm-tensor output.weight'"
# (seed 9, case 989: hy_v3's feed-forward tensors optional whatever
# leading_dense_block_count says)
found hy_v3-lead leading_dense_block_count "hy_v3 --seed 989 \
    --variant 57 -e 'set hy_v3.block_count 1' \
    -e 'set hy_v3.attention.head_count 8'" \
    "-e 'rm hy_v3.leading_dense_block_count'"
# (seed 10, case 383: minicpm takes experts when expert_count is set)
found minicpm-experts - "minicpm --seed 383 --variant 321 \
    -e 'set minicpm.block_count 1' -e 'set minicpm.expert_count:u32 3' \
    -e 'set minicpm.expert_used_count:u32 1'" \
    "-e 'set general.name edited'"
# (seed 12, case 635: arwkv7's group norm optional)
found arwkv7-ln blk.1.time_mix_ln.bias "arwkv7 --seed 635 --variant 734 \
    -e 'set arwkv7.block_count 2' -e 'set arwkv7.attention.head_count 8'" \
    "-e 'rm-tensor blk.1.time_mix_ln.bias'"
# (seed 12, case 688: cogvlm's q, k and v of head_count heads of
# key_length, none without head_count)
found cogvlm-heads attention.head_count "cogvlm --seed 688 --variant 236 \
    -e 'set cogvlm.block_count 1' \
    -e 'set cogvlm.attention.head_count_kv 4'" \
    "-e 'rm cogvlm.attention.head_count'"
found cogvlm-key_length - "cogvlm --seed 1 \
    -e 'set cogvlm.attention.key_length:u32 8'" \
    "-e 'set general.name edited'"
# (graniteswitch's substitute token ids index the vocabulary: one past
# it, and one past it that a later adapter of the same activating token
# replaces)
found graniteswitch-sub adapters.token_ids_substitute "graniteswitch \
    --seed 1" "-e 'set graniteswitch.adapters.token_ids_substitute:arr[i32] \
    [3, 100000]'"
found graniteswitch-sub2 - "graniteswitch --seed 1" \
    "-e 'set graniteswitch.adapters.token_ids_activate:arr[i32] [1, 1]' \
    -e 'set graniteswitch.adapters.token_ids_substitute:arr[i32] \
    [100000, 3]'"

# (granitehybrid's experts are of feed_forward_length, whatever
# expert_feed_forward_length says: changed, the experts stay loadable;
# feed_forward_length changed, they are not)
found granitehybrid-exps - "granitehybrid --seed 1 \
    -e 'set granitehybrid.expert_count:u32 2' \
    -e 'set granitehybrid.expert_used_count:u32 1' \
    -e 'set granitehybrid.expert_feed_forward_length:u32 64'" \
    "-e 'set granitehybrid.expert_feed_forward_length:u32 200'"
found granitehybrid-ff feed_forward_length "granitehybrid --seed 1 \
    -e 'set granitehybrid.expert_count:u32 2' \
    -e 'set granitehybrid.expert_used_count:u32 1'" \
    "-e 'set granitehybrid.feed_forward_length:u32 96'"
# (rwkv7's block 0 has its unused v1 and v2 of the iclr rank, the other
# blocks of the value residual's)
found rwkv7-v1 attention.iclr_lora_rank "rwkv7 --seed 1 \
    -e 'set rwkv7.attention.value_residual_mix_lora_rank:u32 4'" \
    "-e 'set rwkv7.attention.iclr_lora_rank:u32 6'"
# (gemma3n's per-layer inputs are 256 wide, whatever
# embedding_length_per_layer_input says: llama.cpp reads no such key for
# it)
found gemma3n-pl - "gemma3n --seed 1 \
    -e 'set gemma3n.embedding_length_per_layer_input:u32 128'" \
    "-e 'set gemma3n.embedding_length_per_layer_input:u32 64'"
i=0
while [ "$i" -lt "$count" ]; do
	i=$((i + 1))
	if [ "$i" -le "$narchs" ]; then
		a=$(sed -n "${i}p" "$scratch/archs")
	else
		pick "$scratch/archs"
		a=$line
	fi
	rnd 1000
	variant=$r
	rnd 3
	blocks=$((r + 1))
	set -- new "$a" --seed "$i" --variant "$variant" \
	    -e "set $a.block_count $blocks"
	# A hyper-parameter that shapes tensors, now and then.
	rnd 8
	case $r in
	0) rnd 4; set -- "$@" -e "set $a.attention.head_count_kv $((r + 1))" ;;
	1) rnd 4; set -- "$@" -e "set $a.feed_forward_length $((32 * (r + 1)))" ;;
	2) rnd 3; set -- "$@" -e "set $a.embedding_length $((32 * (r + 2)))" ;;
	# experts, where the architecture has none too
	3) rnd 3; set -- "$@" -e "set $a.expert_count:u32 $((r + 2))" \
	       -e "set $a.expert_used_count:u32 1" ;;
	4) rnd 2; set -- "$@" -e "set $a.attention.head_count $((4 * (r + 1)))" ;;
	esac
	make_model "$@" || continue
	"$GGUFED" dump "$f" | awk '$1 == "tensor" { print $3 }' \
	    >"$scratch/tensors"
	"$GGUFED" dump "$f" | awk '$1 == "kv" { print $3 }' |
	    grep "^$a\." >"$scratch/keys"
	pick "$scratch/tensors"
	t=$line
	pick "$scratch/tensors"
	t2=$line
	n=$(key "$f" "$a.block_count")
	rnd 12
	touched=
	case $r in
	0) set -- -e "rm-tensor $t"; touched=$t ;;
	1) u=${t%.*}_x.${t##*.}
	   set -- -e "rename $t $u"; touched="$t $u" ;;
	2) if [ "$t" = "$t2" ]; then
		set -- -e "set general.name edited"
	   else
		set -- -e "rm-tensor $t2" -e "rename $t $t2"
		touched="$t $t2"
	   fi ;;
	3) u=$(printf '%s' "$t" | sed 's/^blk\.[0-9]*\./blk.'"$((n + 1))"'./')
	   set -- -e "rename $t $u"; touched="$t $u" ;;
	4) set -- -e "set $a.block_count $((n + 1))"
	   touched="block_count blk.$n." ;;
	5) set -- -e "set $a.block_count $((n - 1))"
	   touched="block_count blk.$((n - 1))." ;;
	6) for k in attention.head_count_kv feed_forward_length \
	       attention.head_count embedding_length ssm.state_size; do
		v=$(key "$f" "$a.$k")
		case $v in
		''|*[!0-9]*) continue ;;
		esac
		# (not a per-block array, even of one element)
		"$GGUFED" dump "$f" |
		    awk -v k="$a.$k" '$1 == "kv" && $3 == k { print $4 }' |
		    grep -q '^arr' && continue
		break
	   done
	   rnd 2
	   set -- -e "set $a.$k $((v + 1 + r * 15))"; touched=$k ;;
	7) pick "$scratch/keys"
	   set -- -e "rm $line"; touched=${line#"$a".} ;;
	8) pick "$scratch/keys"
	   rnd 3
	   case $r in
	   0) ty=str ;;
	   1) ty=i32 ;;
	   *) ty=f32 ;;
	   esac
	   v=$(key "$f" "$line" | head -1)
	   case $ty:$v in
	   *:|*:*[!0-9.e+-]*|i32:*[!0-9-]*) v=1 ;;
	   esac
	   set -- -e "set $line:$ty $v"; touched=${line#"$a".} ;;
	9) set -- -e 'append tokenizer.ggml.tokens "zz"' \
	       -e 'append tokenizer.ggml.scores -300.0' \
	       -e 'append tokenizer.ggml.token_type 1'
	   touched="token_embd.weight output.weight tokenizer.ggml.tokens" ;;
	# another tokenizer: one llama.cpp does not know (the names of
	# other projects, another case), or BPE's, which needs merges, or
	# none at all, whose model has {arch}.vocab_size tokens (as many as
	# the vocabulary, one fewer, or 0 without the key)
	10) rnd 9
	   set -- foo LLAMA Gpt2 plamo3 spm bpe gpt2 none no_vocab
	   shift "$r"
	   tk=$1
	   set -- -e "set tokenizer.ggml.model $tk"
	   touched=tokenizer.ggml.model
	   case $tk in
	   none|no_vocab)
		nt=$("$GGUFED" dump "$f" | awk '$1 == "kv" &&
		    $3 == "tokenizer.ggml.tokens" { sub(/^n=/, "", $5); print $5 }')
		rnd 3
		case $r in
		0) set -- "$@" -e "set $a.vocab_size:u32 $nt" ;;
		1) set -- "$@" -e "set $a.vocab_size:u32 $((nt - 1))" ;;
		esac
		touched="$touched token_embd.weight output.weight" ;;
	   esac ;;
	*) set -- -e "set general.name edited" ;;
	esac
	make_edit "$@"
done

# llama.cpp's verdicts, all in one process; validate's too.
cut -f1 "$scratch/cases" |
    verdicts_or_bail "$scratch/verdicts" "$probe" "$libdir"
mkdir "$scratch/v"
cut -f1 "$scratch/cases" | validations "$scratch/v"

agree=0 disagree=0
while IFS='	' read -r file touched made edited; do
	case=$(basename "$file" .gguf)
	judge "$file" "$scratch/verdicts" "$scratch/v"
	replay="# replay (seed $seed, case $case): $made${edited:+; $edited}"
	if [ "$refused" -eq "$ours" ]; then
		agree=$((agree + 1))
		ok 0 "$case: validate agrees with llama.cpp"
	else
		disagree=$((disagree + 1))
		ok 1 "$case: validate agrees with llama.cpp"
		echo "$replay"
		echo "#   llama.cpp: $verdict"
		sed 's/^/#   validate: /' "$scratch/v/errors"
	fi
	[ "$refused" -eq 1 ] && [ "$ours" -eq 1 ] && [ "$touched" != - ] ||
	    continue
	# An edit of a model llama.cpp already refused is refused for what
	# the model had before: the error need not name the edit.
	case $case in
	*-edit)
		base=$(grep -F "${file%-edit.gguf}.gguf	" "$scratch/verdicts" |
		    cut -f2-)
		[ "$base" = ok ] || continue ;;
	esac
	# (or the one llama.cpp's own message names: a fused q, k and v
	# removed is its separate q missing)
	# (or a tensor beside a weight the edit touched: the scale of a
	# weight removed is what llama.cpp then finds it does not load)
	named=1
	for w in $touched $(for w in $touched; do
	    case $w in *.weight) printf '%s. ' "${w%.weight}" ;; esac; done) \
	    $(printf '%s' "$verdict" |
	    sed -n "s/^[^']*'\([^']*\)'.*/\1/p"); do
		grep -qF -- "$w" "$scratch/v/errors" && { named=0; break; }
	done
	ok $named "$case: an error names what the edit touched ($touched)" || {
		echo "$replay"
		echo "#   llama.cpp: $verdict"
		sed 's/^/#   validate: /' "$scratch/v/errors"
	}
done <"$scratch/cases"
echo "# $agree cases agree with llama.cpp, $disagree disagree"
done_testing
