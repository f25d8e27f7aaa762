#!/bin/sh
# gen.sh - a model ggufed splits, merges or edits is the same model to
# llama.cpp: loaded by llama.cpp's own library (the prebuilt one of the
# npm package the ggml oracle uses, on the CPU, one thread), it turns the
# same prompt into the same tokens and generates the same tokens greedily
# with the same logits, bit for bit, as the original (tests/interop/llama_gen
# prints the token ids and a hash of every logit of every step).
# For the demo model and the real llama fixtures:
#   - split by --max-tensors and by --max-size, each with and without
#     --no-tensor-first-split, loaded from the first shard;
#   - merged back from a split; split and merged with a metadata edit in
#     the same run (-e);
#   - a copy whose metadata was edited and saved, in place and rewritten
#     with a grown header;
#   - a split set edited in place through one of its shards: a metadata
#     edit, a changed RoPE base, a converted tensor (each generating what
#     the same edit of the single file does);
# and, so that a difference is seen when there is one: a weight converted
# to another type, a changed RoPE base, and a set whose shards 2..N come
# from the split of that converted copy must each give other logits.
. "$TESTS_SRCDIR/lib.sh"

llama_libdir
probe="$TESTS_BUILDDIR/interop/llama_gen"
ntok=24

# gen MODEL OUT: llama.cpp's prompt, tokens and logits hash for MODEL
# (the first shard of a set); the text line is for the reader only.
gen() {
	"$probe" "$libdir" "$1" --tokens $ntok >"$scratch/gen.out" \
	    2>"$scratch/gen.err"
	grc=$?
	grep -v '^text ' "$scratch/gen.out" >"$2"
	return $grc
}

# same NAME MODEL [WANT WHOSE]: MODEL generates what the original did
# (or what WANT holds, the output of WHOSE).
same() {
	if gen "$2" "$scratch/got.txt"; then
		diff "${3:-$scratch/want.txt}" "$scratch/got.txt" >"$scratch/diff"
		ok $? "$1: llama.cpp generates ${4:-the original}'s tokens and logits" ||
		    sed 's/^/# /' "$scratch/diff"
	else
		ok 1 "$1: llama.cpp loads it and generates ($grc)"
		sed 's/^/# /' "$scratch/gen.err" | tail -5
	fi
}

# differs NAME MODEL: MODEL, a different model, generates differently.
differs() {
	if gen "$2" "$scratch/got.txt"; then
		! cmp -s "$scratch/want.txt" "$scratch/got.txt"
		ok $? "$1: other logits than the original's, and the check sees it" ||
		    sed 's/^/# /' "$scratch/got.txt"
	else
		ok 1 "$1: llama.cpp loads it and generates ($grc)"
		sed 's/^/# /' "$scratch/gen.err" | tail -5
	fi
}

# split_case NAME PREFIX ARGS...: split the model with ARGS into more than
# one shard and generate from the first.
split_case() {
	what=$1 prefix=$2
	shift 2
	rm -f "$prefix"-*
	if "$GGUFED" split -q "$@" "$prefix" >"$scratch/split.err" 2>&1 &&
	    ls "$prefix"-00002-of-*.gguf >/dev/null 2>&1; then
		n=$(ls "$prefix"-*-of-*.gguf | wc -l)
		same "$what ($n shards)" "$(ls "$prefix"-00001-of-*.gguf)"
	else
		ok 1 "$what: split into several shards"
		sed 's/^/# /' "$scratch/split.err"
	fi
}

# model NAME FILE MAX_TENSORS MAX_SIZE CONVERT: every case on one model;
# CONVERT names a quantized tensor to convert to f32 (or is empty).
model() {
	name=$1 m=$2 maxt=$3 maxs=$4 conv=$5
	d="$scratch/$name"
	mkdir -p "$d"
	if ! gen "$m" "$scratch/want.txt"; then
		ok 1 "$name: llama.cpp loads the original and generates ($grc)"
		sed 's/^/# /' "$scratch/gen.err" | tail -5
		return
	fi
	grep -Eq "^tokens( [0-9]+){$ntok}\$" "$scratch/want.txt" &&
	    grep -Eq '^logits [0-9a-f]{16}$' "$scratch/want.txt"
	ok $? "$name: llama.cpp generates $ntok tokens from the original" ||
	    sed 's/^/# /' "$scratch/gen.out"
	sed 's/^/# /' "$scratch/gen.out"

	split_case "$name split --max-tensors $maxt" "$d/t" \
	    --max-tensors "$maxt" "$m"
	split_case "$name split --max-tensors $maxt --no-tensor-first-split" \
	    "$d/tn" --max-tensors "$maxt" --no-tensor-first-split "$m"
	split_case "$name split --max-size $maxs" "$d/s" --max-size "$maxs" "$m"
	split_case "$name split --max-size $maxs --no-tensor-first-split" \
	    "$d/sn" --max-size "$maxs" --no-tensor-first-split "$m"
	split_case "$name split -e (metadata edit in the same run)" "$d/e" \
	    --max-tensors "$maxt" -e 'set general.name "Split and renamed"' \
	    -e 'set general.description "a split copy"' "$m"

	"$GGUFED" merge -q "$d/sn-00001-of-"*.gguf "$d/merged.gguf" \
	    >"$scratch/merge.err" 2>&1
	ok $? "$name: merge of the --no-tensor-first-split set" ||
	    sed 's/^/# /' "$scratch/merge.err"
	same "$name merged" "$d/merged.gguf"
	"$GGUFED" merge -q "$d/t-00001-of-"*.gguf "$d/merged-e.gguf" \
	    -e 'set general.name "Merged and renamed"' >"$scratch/merge.err" 2>&1
	ok $? "$name: merge -e of the --max-tensors set" ||
	    sed 's/^/# /' "$scratch/merge.err"
	same "$name merged with a metadata edit" "$d/merged-e.gguf"

	# A name of the same length: the header keeps its size.
	cp_w "$m" "$d/inplace.gguf"
	newname=$("$GGUFED" get "$m" general.name | tr '[:alnum:]' X)
	"$GGUFED" edit -i "$d/inplace.gguf" -e "set general.name \"$newname\"" \
	    >"$scratch/edit.err" 2>&1 &&
	    grep -q 'saved in place' "$scratch/edit.err"
	ok $? "$name: a metadata edit saved in place" ||
	    sed 's/^/# /' "$scratch/edit.err"
	same "$name edited in place" "$d/inplace.gguf"
	"$GGUFED" edit -q "$m" -o "$d/edited.gguf" --reserve 4096 \
	    -e 'set general.name "Edited and saved"' \
	    -e 'set general.source.url "https://example.com/model"' \
	    >"$scratch/edit.err" 2>&1
	ok $? "$name: a metadata edit saved as a new file, header grown" ||
	    sed 's/^/# /' "$scratch/edit.err"
	same "$name edited and rewritten" "$d/edited.gguf"

	# The check can fail: other weights, another RoPE base.
	if [ -n "$conv" ]; then
		"$GGUFED" edit -q "$m" -o "$d/conv.gguf" \
		    -e "convert $conv f32" >"$scratch/edit.err" 2>&1
		ok $? "$name: $conv converted to f32" ||
		    sed 's/^/# /' "$scratch/edit.err"
		differs "$name with $conv in f32" "$d/conv.gguf"
		cp "$scratch/got.txt" "$d/conv.want"
		# The converted tensor is past the first shard: the first
		# shard of the original's split with the others of the
		# converted model's split is a set llama.cpp loads, whose
		# weights it must read from shards 2..N.
		"$GGUFED" split -q --max-tensors "$maxt" "$d/conv.gguf" \
		    "$d/c" >"$scratch/split.err" 2>&1 &&
		    cp "$d/t-00001-of-"*.gguf "$d/c-00001-of-"*.gguf
		ok $? "$name: split of the converted model" ||
		    sed 's/^/# /' "$scratch/split.err"
		differs "$name set with shards 2..N of other weights" \
		    "$(ls "$d/c-00001-of-"*.gguf)"
	fi
	"$GGUFED" edit -q "$m" -o "$d/rope.gguf" \
	    -e 'set llama.rope.freq_base 5000' >"$scratch/edit.err" 2>&1
	ok $? "$name: RoPE base set to 5000" ||
	    sed 's/^/# /' "$scratch/edit.err"
	differs "$name with another RoPE base" "$d/rope.gguf"
	cp "$scratch/got.txt" "$d/rope.want"

	# A set edited in place, given a shard: a metadata edit goes to
	# shard 1, where llama.cpp reads it; a conversion to the shard that
	# holds the tensor. Each must generate what the same edit of the
	# whole file does.
	set_edit "$name" 2 'set general.name "An edited set"' \
	    "$scratch/want.txt" "the original"
	set_edit "$name" 3 'set llama.rope.freq_base 5000' "$d/rope.want" \
	    "the single file"
	[ -z "$conv" ] ||
	    set_edit "$name" 1 "convert $conv f32" "$d/conv.want" \
		"the single file"
}

# set_edit NAME SHARD CMD WANT WHOSE: split the model, edit the set in
# place through its shard SHARD, and generate from it.
set_edit() {
	rm -f "$d"/p-*
	"$GGUFED" split -q --max-tensors "$maxt" "$m" "$d/p" \
	    >"$scratch/split.err" 2>&1 &&
	    "$GGUFED" edit -q -i "$(ls "$d/p-0000$2-of-"*.gguf)" -e "$3" \
	    >"$scratch/edit.err" 2>&1
	ok $? "$1: a set edited in place through shard $2: $3" ||
	    sed 's/^/# /' "$scratch/split.err" "$scratch/edit.err"
	same "$1 set edited through shard $2 ($3)" \
	    "$(ls "$d/p-00001-of-"*.gguf)" "$4" "$5"
}

"$TESTS_BUILDDIR/interop/llama_gen" "$libdir" /nonexistent.gguf \
    >/dev/null 2>"$scratch/err"
[ $? -eq 3 ] && grep -q 'cannot load the model' "$scratch/err"
ok $? "llama_gen binds the library and says when llama.cpp refuses a file" ||
    sed 's/^/# /' "$scratch/err"

model demo "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" \
    10 800K blk.1.attn_v.weight
real="$SHARED_DIR/fixtures/real"
if [ -f "$real/stories260K.gguf" ]; then
	model stories260K "$real/stories260K.gguf" 13 300K ""
else
	skip "$(shared_missing fixtures/real/stories260K.gguf)"
fi
if [ -f "$real/TinyStories-656K-Q8_0.gguf" ]; then
	model tinystories-q8 "$real/TinyStories-656K-Q8_0.gguf" 6 200K \
	    blk.1.attn_v.weight
else
	skip "$(shared_missing fixtures/real/TinyStories-656K-Q8_0.gguf)"
fi
done_testing
