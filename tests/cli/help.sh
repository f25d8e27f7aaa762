#!/bin/sh
# help.sh - `ggufed --help` and `ggufed COMMAND --help` against what the
# commands do: every command has a help on stdout (usage, options, an
# example) and exits 0; the example runs; every option the help lists is
# accepted, and every option of any other command is refused; every
# option a parser compares against is listed by some command's help.
. "$TESTS_SRCDIR/lib.sh"

demo="$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf"
m="$scratch/model.gguf"
cp_w "$demo" "$m" || { echo "Bail out! no demo model"; exit 1; }
cp_w "$demo" "$scratch/other.gguf"	# the other model of diff's example
# The upstream folder of sync (and its example): the demo model's own.
mkdir "$scratch/upstream"
printf '{"architectures": ["LlamaForCausalLM"], "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 4, "intermediate_size": 512, "vocab_size": 3072, "max_position_embeddings": 2048, "rope_theta": 10000.0, "rms_norm_eps": 1e-05}\n' \
    >"$scratch/upstream/config.json"
printf '{"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "add_bos_token": true, "add_eos_token": false}\n' \
    >"$scratch/upstream/tokenizer_config.json"
"$GGUFED" get --raw "$m" tokenizer.chat_template \
    >"$scratch/upstream/chat_template.jinja" ||
    { echo "Bail out! no chat template in the demo model"; exit 1; }
# A split model for merge (and its example).
"$GGUFED" split -q --max-tensors 16 "$m" "$scratch/model" ||
    { echo "Bail out! cannot split the demo model"; exit 1; }

"$GGUFED" --help >"$scratch/all" 2>"$scratch/err"; ok $? "--help exits 0"
[ ! -s "$scratch/err" ]; ok $? "--help writes to standard output only"
grep -q '^usage: ggufed \[OPTIONS\] FILE$' "$scratch/all"
ok $? "--help gives the browser's form"
grep -q '^       ggufed COMMAND --help$' "$scratch/all"
ok $? "--help says how to get a command's help"
"$GGUFED" -h >"$scratch/all2" 2>&1 && cmp -s "$scratch/all" "$scratch/all2"
ok $? "-h is --help"

# The commands --help lists: "  NAME      USAGE" under "commands:".
cmds=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
    on && /^  [a-z]/ { print $1 }' "$scratch/all")
[ "$(echo "$cmds" | wc -w)" -ge 13 ]; ok $? "--help lists the commands"

# The invocation of each command that options are added to; it must
# succeed alone. A new command needs one here.
base() {
	case $1 in
	info|dump|validate|recover|hash) set -- "$m" ;;
	get)		set -- "$m" general.name ;;
	cat)		set -- "$m" output_norm.weight ;;
	stats)		set -- "$m" --all --rows 0:1 ;;
	edit)		set -- "$m" -n -e 'set general.name x' ;;
	set)		set -- "$m" general.name x -n ;;
	rm)		set -- "$m" general.description -n ;;
	mv)		set -- "$m" general.author general.organization -n ;;
	# (a rename llama.cpp still loads, for --strict)
	rename)		set -- "$m" 's/^(output)\.weight$/$1.weight/' -n ;;
	rm-tensor)	set -- "$m" output.weight -n ;;
	convert)	set -- "$m" output.weight f32 -n ;;
	tokens)		set -- "$m" ;;	# --encode takes no --id
	mem)		set -- "$m" -ngl 1 ;;	# (-ot and the MoE options need it)
	diff)		set -- "$m" "$m" ;;
	split)		set -- "$m" sp --force ;;
	merge)		set -- model-00001-of-00003.gguf out.gguf ;;
	new)		set -- llama -o nw.gguf --force ;;
	template)	set -- "$m" ;;
	sync)		set -- "$m" --from upstream ;;
	*)		return 1 ;;
	esac
	for a in "$@"; do
		printf "'%s' " "$a"
	done
}

# A projector for mem --mmproj FILE.
"$GGUFED" set "$m" general.architecture clip -q -o "$scratch/mmproj.gguf" \
    2>/dev/null || { echo "Bail out! cannot make a projector"; exit 1; }

# A sample value for an option's argument, by the name --help gives it.
sample() {
	case $1 in
	N|BYTES)	echo 1 ;;
	A:B)		echo 0:1 ;;
	I,J)		echo 0 ;;
	OUT)		echo "$scratch/out.gguf" ;;
	CMD)		echo "set general.name y" ;;
	SCRIPT)		echo /dev/null ;;
	STRING)		echo '<s>' ;;		# the text of token 1 (tokens)
	TEXT)		echo the ;;		# split into tokens t, h, e (tokens)
	REGEX)		echo . ;;
	'N,...')	echo 1k,2048 ;;
	T)		echo q8_0 ;;
	SIZE)		echo 1G ;;
	MANIFEST)	"$GGUFED" hash "$m" >"$scratch/manifest" &&
			    echo "$scratch/manifest" ;;
	JSON)		echo '[]' ;;
	KEY=JSON)	echo 'x=1' ;;
	NAME)		echo tool_use ;;	# the named template set below
	PATH)		echo "$scratch/t.jinja" ;;
	FILE)		echo "$scratch/mmproj.gguf" ;;	# (mem --mmproj)
	DIR)		echo "$scratch/upstream" ;;
	KEY,...)	echo tokenizer.ggml.eos_token_id,llama.context_length ;;
	MODEL)		echo "$m" ;;
	REGEX=BUFTYPE,...) echo 'exps=CPU,x=CUDA0' ;;
	'on|off|auto')	echo auto ;;
	*)		return 1 ;;
	esac
}

# run CMD OPTION [ARG]: the command's base invocation with the option;
# its exit status.
run() {
	b=$(base "$1") || return 99
	c=$1
	shift
	rm -f "$scratch/out.gguf"
	(cd "$scratch" && eval "\"\$GGUFED\" $c $b \"\$@\"") \
	    >"$scratch/out" 2>"$scratch/err" </dev/null
}

# The options of a command's help: "  FLAGS  HELP", one spelling of a
# flag a line ("-o OUT").
spellings() {
	awk '/^options:/ { on = 1; next } on && /^$/ { exit }
	    on { sub(/^  /, ""); sub(/  .*/, ""); print }' "$1" |
	    sed 's/, /\n/g' | grep -v '^-h$\|^--help$'
}

: >"$scratch/universe"
for c in $cmds; do
	"$GGUFED" "$c" --help >"$scratch/h.$c" 2>"$scratch/err"
	ok $? "$c --help exits 0"
	[ ! -s "$scratch/err" ]; ok $? "$c --help writes to standard output only"
	head -1 "$scratch/h.$c" | grep -q "^usage: ggufed $c "
	ok $? "$c --help starts with its usage"
	grep -q '^  -h, --help  *this help$' "$scratch/h.$c"
	ok $? "$c --help lists its options"
	grep -q "^  ggufed $c " "$scratch/h.$c" &&
	    grep -q '^example:$' "$scratch/h.$c"
	ok $? "$c --help has an example"
	"$GGUFED" "$c" -h 2>&1 | cmp -s - "$scratch/h.$c"
	ok $? "$c -h is $c --help"
	spellings "$scratch/h.$c" >"$scratch/o.$c"
	cat "$scratch/o.$c" >>"$scratch/universe"

	# The example, on the demo model.
	ex=$(sed -n '/^example:$/{n;s/^  ggufed //;p;}' "$scratch/h.$c")
	cp_w "$demo" "$m"
	(cd "$scratch" && eval "\"\$GGUFED\" $ex") >"$scratch/out" 2>&1
	ok $? "$c: the example runs: ggufed $ex" || cat "$scratch/out"
done
echo "--bogus" >>"$scratch/universe"
sort -u "$scratch/universe" -o "$scratch/universe"

# Every option a command lists is accepted; every other one is refused.
cp_w "$demo" "$m"
# A named chat template for template --name, a template file for
# --template-file.
# (A template the lint finds nothing in, or validate --strict would fail.)
"$GGUFED" set "$m" tokenizer.chat_template.tool_use:str '{% for m in messages %}<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}' -i -q 2>"$scratch/err" && [ ! -s "$scratch/err" ] &&
    printf '{{ bos_token }}' >"$scratch/t.jinja"
ok $? "a named chat template is added for template --name" || cat "$scratch/err"
for c in $cmds; do
	base "$c" >/dev/null
	ok $? "$c has a base invocation in this test (base() above)" ||
	    continue
	run "$c"; ok $? "$c alone runs" || cat "$scratch/err"
	while read -r opt arg; do
		v=
		if [ -n "$arg" ]; then
			v=$(sample "$arg")
			ok $? "there is a sample value for $arg (sample() above)" ||
			    continue
		fi
		if grep -qx -- "$opt${arg:+ $arg}" "$scratch/o.$c"; then
			run "$c" "$opt" ${arg:+"$v"}
			ok $? "$c accepts $opt${arg:+ $v}" || cat "$scratch/err"
		else
			run "$c" "$opt" ${arg:+"$v"}
			[ $? -eq 2 ]; ok $? "$c refuses $opt${arg:+ $v}, not in its help"
		fi
	done <"$scratch/universe"
done

# Every option a parser knows is in some command's help, or the
# program's.
spellings "$scratch/all" | cat - "$scratch/universe" | cut -d' ' -f1 \
    >"$scratch/known"
grep -ho 'cmp([^,]*, *"-[-a-z0-9]*' "$TESTS_SRCDIR"/../src/cli/*.c |
    sed 's/.*"//' | grep -v '^-$\|^--$\|^-h$\|^--help$' |
    sort -u >"$scratch/parsed"
[ -s "$scratch/parsed" ]; ok $? "the parsers' options are found"
while read -r opt; do
	grep -qx -- "$opt" "$scratch/known"
	ok $? "$opt, which a parser compares against, is in some help"
done <"$scratch/parsed"

# The README's table of commands names every command --help lists.
readme="$TESTS_SRCDIR/../README.md"
missing=""
for c in $cmds; do
	grep -q "^| \`ggufed \([a-z|\\-]*|\)\?$c[ |\`\\]" "$readme" ||
	    missing="$missing $c"
done
[ -z "$missing" ]; ok $? "the README's command table lists every command${missing:+ (missing:$missing)}"

# edit --help lists the edit language's commands, every one of them (from
# the table the parser reads). new with a file name and no -o says -o.
"$GGUFED" edit --help >"$scratch/edit.help"
for c in set ins append del rm mv rename rm-tensor convert undo redo; do
	grep -q "^  $c " "$scratch/edit.help" || { echo "# no $c"; false; } ||
	    break
done
ok $? "edit --help lists every command of the edit language"
"$GGUFED" new llama "$scratch/n.gguf" 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "(-o $scratch/n.gguf writes the model there)" "$scratch/err"
ok $? "new ARCH FILE.gguf: usage error that says -o" || sed 's/^/# /' "$scratch/err"

done_testing
