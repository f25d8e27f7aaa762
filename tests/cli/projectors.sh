#!/bin/sh
# projectors.sh - validate holds a vision or audio projector to the rules
# of llama.cpp's projector loader for its projector type: the keys and
# tensors it requires (src/model/projectors.c, read from clip.cpp). For
# every type tools/gen_kinds writes a projector with every key and tensor
# the loader reads, one without a required key or tensor drawn at random,
# one without an optional tensor: the first and the last validate clean,
# the second gives one error, naming what was removed. A failure names
# the seed; PROJ_SEED picks another.
. "$TESTS_SRCDIR/lib.sh"

seed=${PROJ_SEED:-1}
d=$scratch/p
mkdir "$d"
"$TESTS_BUILDDIR/tools/gen_kinds" projectors "$seed" "$d" >"$scratch/list" ||
    { echo "Bail out! gen_kinds projectors failed"; exit 1; }
out=$scratch/out
tab=$(printf '\t')

# run ARGS...: validate, output in $out, exit status in $rc.
run() { "$GGUFED" validate "$@" >"$out" 2>&1; rc=$?; }
# has TEXT: $out holds the line fragment TEXT.
has() { grep -qF -- "$1" "$out"; }
# findings: $out's error and warning lines.
findings() { grep -E ': (error|warning): ' "$out"; }

# Every projector type llama.cpp loads (gemma3na it names but refuses;
# qwen2.5o for each modality).
n=$(grep -c "${tab}ok$tab" "$scratch/list")
[ "$n" -eq 44 ]
ok $? "a well-formed projector of each of the 44 types (seed $seed)" ||
    echo "# $n"

while IFS="$tab" read -r f what touched; do
	b=${f##*/}
	run "$f"
	case $what in
	ok|opt)
		[ $rc -eq 0 ] && [ -z "$(findings)" ]
		ok $? "$b: clean${touched:+ without $touched} (seed $seed)" ||
		    sed 's/^/# /' "$out";;
	req)
		[ $rc -eq 1 ] && [ "$(findings | wc -l)" -eq 1 ] &&
		    has "error: $touched is missing: llama.cpp's projector loader requires it"
		ok $? "$b: $touched missing, named (seed $seed)" ||
		    sed 's/^/# /' "$out";;
	esac
done <"$scratch/list"

# ------------------------------------------------------------ the rest
g=$d/gemma3-ok.gguf
"$GGUFED" edit "$g" -o "$d/gap.gguf" -q --force \
    -e 'rm-tensor v.blk.1.ffn_up.weight' >/dev/null 2>&1
run "$d/gap.gguf"
[ $rc -eq 1 ] && has "error: v.blk.1.ffn_up.weight is missing: llama.cpp's projector loader requires it"
ok $? "a block's tensor removed with rm-tensor: named"
"$GGUFED" set "$g" clip.vision.block_count 5 -o "$d/deep.gguf" -q \
    --force >/dev/null 2>&1
run "$d/deep.gguf"
[ $rc -eq 1 ] && has "error: v.blk.2.attn_out.weight is missing, and so is its block's in 2 more blocks: llama.cpp's projector loader requires them" &&
    [ "$(findings | wc -l)" -eq 3 ]
ok $? "block_count past the blocks: one error a tensor, the first block named"
"$GGUFED" set "$g" clip.vision.block_count 4000000000 -o "$d/huge.gguf" \
    -q --force >/dev/null 2>&1
run "$d/huge.gguf"
[ $rc -eq 1 ] && has "error: v.blk.2.attn_out.weight is missing, and so is its block's in 3999999997 more blocks"
ok $? "a block_count of billions: the count said, without a walk over them"
"$GGUFED" set "$g" clip.vision.image_size:f32 224 -o "$d/type.gguf" -q \
    --force >/dev/null 2>&1
run "$d/type.gguf"
[ $rc -eq 1 ] && has "error: clip.vision.image_size is f32, not u32: llama.cpp's projector loader cannot read it"
ok $? "a required key of another type: an error"
"$GGUFED" set "$g" clip.vision.image_mean:arr[f32] '[0.5, 0.5]' \
    -o "$d/mean.gguf" -q --force >/dev/null 2>&1
run "$d/mean.gguf"
[ $rc -eq 1 ] && has "error: clip.vision.image_mean holds 2 elements, not 3: llama.cpp's projector loader reads past its end"
ok $? "an image mean of 2 channels: an error"
"$GGUFED" set "$g" clip.vision.image_std:arr[i32] '[1, 1, 1]' \
    -o "$d/std.gguf" -q --force >/dev/null 2>&1
run "$d/std.gguf"
[ $rc -eq 1 ] && has "error: clip.vision.image_std is arr[i32], not arr[f32]: llama.cpp's projector loader reads 3 floats from it"
ok $? "an image std of integers: an error"
"$GGUFED" set "$g" clip.vision.patch_size 0 -o "$d/patch.gguf" -q \
    --force >/dev/null 2>&1
run "$d/patch.gguf"
[ $rc -eq 1 ] && has "error: clip.vision.patch_size is 0: llama.cpp's projector loader refuses it (it must be from 1 to 2147483647)"
ok $? "a patch size of 0: an error"
"$GGUFED" set "$d/deepseekocr-ok.gguf" clip.vision.patch_size 0 \
    -o "$d/patch-ds.gguf" -q --force >/dev/null 2>&1
run "$d/patch-ds.gguf"
[ $rc -eq 0 ] && [ -z "$(findings)" ]
ok $? "deepseekocr: its patch size fixed by the loader, the key's 0 is no error"
"$GGUFED" set "$d/ultravox-ok.gguf" clip.audio.embedding_length 0 \
    -o "$d/embd.gguf" -q --force >/dev/null 2>&1
run "$d/embd.gguf"
[ $rc -eq 1 ] && has "error: clip.audio.embedding_length is 0: llama.cpp's projector loader refuses it"
ok $? "an audio tower of width 0: an error"
"$GGUFED" set "$d/phi4-ok.gguf" clip.vision.image_min_pixels 5000 \
    -o "$d/pixels.gguf" -q --force >/dev/null 2>&1
run "$d/pixels.gguf"
[ $rc -eq 1 ] && has "error: clip.vision.image_max_pixels (4096) is less than clip.vision.image_min_pixels (5000): llama.cpp's projector loader refuses it"
ok $? "phi4: image_max_pixels under image_min_pixels: an error"
"$GGUFED" set "$d/ultravox-ok.gguf" clip.projector_type gemma3na \
    -o "$d/gemma3na.gguf" -q --force >/dev/null 2>&1
run "$d/gemma3na.gguf"
[ $rc -eq 1 ] && has 'error: clip.projector_type is "gemma3na": llama.cpp'"'"'s projector loader knows the name but loads no such projector'
ok $? "gemma3na: a name the loader refuses"
run "$d/qwen2.5o-vision-ok.gguf"
[ $rc -eq 0 ] && "$GGUFED" rm "$d/qwen2.5o-vision-ok.gguf" \
    clip.vision.n_wa_pattern -o "$d/omni.gguf" -q --force >/dev/null 2>&1 &&
    run "$d/omni.gguf" && false ||
    { [ $rc -eq 1 ] && has "error: clip.vision.n_wa_pattern is missing"; }
ok $? "qwen2.5o's vision: held to qwen2.5vl_merger's rules"
"$GGUFED" edit "$d/mlp-ok.gguf" -o "$d/mlp.gguf" -q --force \
    -e 'rm-tensor mm.0.weight' -e 'rm-tensor mm.2.weight' >/dev/null 2>&1
run "$d/mlp.gguf"
[ $rc -eq 0 ] && [ -z "$(findings)" ]
ok $? "mlp: its mm tensors all optional, as the loader reads them"

done_testing
