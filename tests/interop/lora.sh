#!/bin/sh
# lora.sh - `ggufed validate --base` on LoRA adapters against llama.cpp's
# own adapter loader. For tiny models of several architectures
# (tests/tools/gen_memmodels --check), tests/tools/gen_kinds draws
# adapters from their tensors with a seeded random generator: a few
# pairs of a random rank, F32 or F16, alpha or not, aLoRA tokens or not,
# and at random one breakage (a lora_b or lora_a missing, a wrong rank, a
# transposed pair, a pair for a tensor the model lacks or of another
# shape, another architecture, general.type or adapter.type wrong, alpha
# not f32, a tensor of no known suffix, invocation tokens of the wrong
# type, a norm tensor) or none. tests/interop/llama_lora loads each onto
# its model with llama_adapter_lora_init (the npm package's prebuilt
# library, on the CPU), and for every adapter:
#   - validate --base reports an error exactly when llama.cpp refuses it;
#   - when it does, an error names the tensor or key the breakage touched.
# Each adapter's file is named SEED-K.gguf: a failure names the seed
# (gen_kinds adapters ARCH SEED ... writes it again). LORA_SEED sets the
# first seed (default 1).
. "$TESTS_SRCDIR/lib.sh"
. "$TESTS_SRCDIR/interop/verdict.lib"

llama_libdir
probe="$TESTS_BUILDDIR/interop/llama_lora"
gen="$TESTS_BUILDDIR/tools/gen_kinds"
m=$scratch/models
mkdir "$m"
"$TESTS_BUILDDIR/tools/gen_memmodels" --check "$m" >"$scratch/manifest" ||
    { echo "Bail out! gen_memmodels failed"; exit 1; }

seed=${LORA_SEED:-1}
per=16
agree=0 disagree=0
for name in llama-gqa qwen2 qwen3 gemma2 gemma3 phi3 gpt2 falcon \
    starcoder2 bert mamba deepseek2 qwen3moe t5 rwkv6 lfm2; do
	f=$m/$name.gguf
	arch=$(awk -v n="$name" '$1 == n { print $2 }' "$scratch/manifest")
	[ -f "$f" ] && [ -n "$arch" ] || { ok 1 "$name: gen_memmodels wrote it"; continue; }
	d=$scratch/$name
	mkdir "$d"
	"$GGUFED" dump "$f" | "$gen" adapters "$arch" "$seed" $per "$d" \
	    >"$d/cases" || { ok 1 "$name: gen_kinds writes adapters (seed $seed)"; continue; }
	cut -f1 "$d/cases" | verdicts "$d/verdicts" "$probe" "$libdir" "$f"
	rc=$?
	if [ $rc -eq 3 ]; then
		ok 1 "$name: llama.cpp loads the base model"
		continue
	elif [ $rc -ne 0 ]; then
		echo "Bail out! llama_lora failed ($rc)"
		sed 's/^/# /' "$d/verdicts.err"
		exit 1
	fi
	# validate's verdicts, one process for the model's adapters.
	cut -f1 "$d/cases" | validations "$d" --base "$f"
	while IFS='	' read -r file what touched; do
		case=$(basename "$file" .gguf)
		judge "$file" "$d/verdicts" "$d"
		echo "# $name $case ($what): llama.cpp ${verdict:-?}; validate ${errors:-?} errors"
		if [ "$refused" -eq "$ours" ]; then
			agree=$((agree + 1))
			ok 0 "$name $case ($what): validate agrees with llama.cpp"
		else
			disagree=$((disagree + 1))
			ok 1 "$name $case ($what): validate agrees with llama.cpp (seed ${case%-*}: gen_kinds adapters $arch ${case%-*} $per DIR)" ||
			    sed 's/^/#   /' "$d/$case.gguf.err" 2>/dev/null
		fi
		[ "$refused" -eq 1 ] && [ "$ours" -eq 1 ] &&
		    [ "$touched" != - ] || continue
		grep -qF -- "$touched" "$d/$case.gguf.err"
		ok $? "$name $case ($what): an error names $touched (seed ${case%-*})" ||
		    sed 's/^/#   /' "$d/$case.gguf.err"
	done <"$d/cases"
	seed=$((seed + 1))
done
echo "# $agree adapters agree with llama.cpp, $disagree disagree"
done_testing
