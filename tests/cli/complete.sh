#!/bin/sh
# complete.sh - shell completion: `ggufed __complete WORD...` (commands,
# options, the keys and tensors of the file on the line, file names where
# a file goes), the bash script driven as bash drives it, the zsh script
# parsed by zsh, and `make install` / `make uninstall` into a temporary
# root: the program, the man page, the key table and both scripts.
. "$TESTS_SRCDIR/lib.sh"

m="$scratch/m.gguf"
cp_w "$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf" "$m" ||
    { echo "Bail out! no demo model"; exit 1; }
comp="$TESTS_SRCDIR/../assets/completions"

c() {	# c WORD...: the candidates, sorted, on one line
	"$GGUFED" __complete "$@" | sort | tr '\n' ' ' | sed 's/ $//'
}

[ "$(c in)" = ":files info" ]; ok $? "a command from its first letters (or a file)"
c "" | grep -q ':files'; ok $? "the first word may be a file to browse"
[ "$(c "" | wc -w)" -ge 20 ]; ok $? "every command is offered"
[ "$(c --v)" = "--version" ]; ok $? "a program option"
[ "$(c validate --str)" = "--strict" ]; ok $? "a command's option"
c set "$m" general.name x --ou | grep -qx -- '--output'
ok $? "an option after the positional arguments"
[ "$(c get "$m" general.na)" = "general.name" ]; ok $? "a key of the file"
[ "$(c rm "$m" tokenizer.ggml.eos)" = "tokenizer.ggml.eos_token_id" ]
ok $? "rm completes keys"
[ "$(c cat "$m" blk.1.attn_q)" = "blk.1.attn_q.weight" ]
ok $? "a tensor of the file"
[ "$(c stats "$m" output_norm.weight blk.0.ffn_d)" = "blk.0.ffn_down.weight" ]
ok $? "stats completes every further tensor"
[ "$(c rename --verbose "$m" output_no)" = "output_norm.weight" ]
ok $? "options before the file are skipped"
[ -z "$(c set "$m" general.name "")" ]; ok $? "no candidates for a value"
[ "$(c edit "$m" -o "")" = ":files" ]; ok $? "-o takes a file name"
[ -z "$(c mem "$m" --ctx "")" ]; ok $? "--ctx takes a number, not a file"
[ "$(c info "")" = ":files" ]; ok $? "info takes a file"
[ "$(c new qwen3m)" = "qwen3moe" ]; ok $? "new completes an architecture"
[ "$(c new qwen3moe -o "")" = ":files" ]; ok $? "new -o takes a file name"
[ "$(c sync "$m" --from "")" = ":dirs" ]; ok $? "--from takes a folder"
c set "$m" llama.rope.scaling.t | grep -qx llama.rope.scaling.type
ok $? "set: a well-known key the file lacks, {arch} spelled out"
c set "$m" general.na | grep -qx general.name
ok $? "set: a key of the file still"
! c set "$m" "" | grep -q '{'
ok $? "set: no pattern ({id}, {name}) as a key"
! c get "$m" llama.rope.scaling.t | grep -q .
ok $? "get: only the keys the file has"
[ "$(c set "$m" general.name:ar | wc -w)" -eq 12 ] &&
    c set "$m" general.name:ar | tr " " "\n" | grep -qx 'general.name:arr\[str\]'
ok $? "set KEY:TYPE: the types after the colon"
[ "$(c set "$m" x.y:u)" = "x.y:u16 x.y:u32 x.y:u64 x.y:u8" ]
ok $? "... also for a key the file does not have yet"
[ "$(c mem "$m" --cache-type-k q8)" = "q8_0" ] &&
    [ "$(c mem "$m" --cache-type-v "" | wc -w)" -eq 9 ]
ok $? "--cache-type-k/-v: the cache types"
[ "$(c mem "$m" --gpu-layers "")" = "0 all max" ] &&
    [ "$(c mem "$m" -ngl a)" = "all" ]
ok $? "--gpu-layers, -ngl: all, max"
[ "$(c mem "$m" --flash-attn "")" = "auto off on" ] &&
    [ "$(c mem "$m" -fa o)" = "off on" ]
ok $? "--flash-attn, -fa: on, off, auto"
[ "$(c mem "$m" --n-cpu-moe m)" = "max" ] && [ "$(c mem "$m" -ncmoe "")" = "max" ]
ok $? "--n-cpu-moe, -ncmoe: max"
[ -z "$(c get "$scratch/none.gguf" gen)" ]
ok $? "an unreadable file gives no names"
"$GGUFED" __complete get "$scratch/none.gguf" gen 2>"$scratch/err" >/dev/null
ok $? "... and exit 0"
[ ! -s "$scratch/err" ]; ok $? "... and no message"
(cd "$scratch" && HOME="$scratch" "$GGUFED" __complete get '~/m.gguf' \
    general.arch) | grep -qx general.architecture
ok $? "~/ in the file name is the home folder"

# bash, as bash calls the completion function.
if command -v bash >/dev/null 2>&1; then
	out=$(bash -c '
		. "$1"
		COMP_WORDS=("$2" get "$3" "general.ty")
		COMP_CWORD=3
		_ggufed
		printf "%s\n" "${COMPREPLY[@]}"
		COMP_WORDS=("$2" info "$4/m.g")
		COMP_CWORD=2
		_ggufed
		printf "%s\n" "${COMPREPLY[@]}"
		echo --
		COMP_WORDS=("$2" set "$3" general.name : arr)
		COMP_CWORD=5
		_ggufed
		printf "%s\n" "${COMPREPLY[@]}"
		echo --
		mkdir -p "$4/updir" && : >"$4/upfile"
		COMP_WORDS=("$2" sync "$3" --from "$4/up")
		COMP_CWORD=4
		_ggufed
		printf "%s\n" "${COMPREPLY[@]}"
	' bash "$comp/ggufed" "$GGUFED" "$m" "$scratch")
	echo "$out" | grep -qx general.type; ok $? "bash: a key"
	echo "$out" | grep -qx "$scratch/m.gguf"; ok $? "bash: a file name"
	# Names that are shell syntax: each candidate is one quoted word,
	# and reading it back runs nothing.
	h="$scratch/hostile.gguf"
	esc=$(printf '\033[31mz\rq')
	"$GGUFED" set "$m" 'general.name$(touch pwned):str' v -q -o "$h.1" 2>/dev/null &&
	"$GGUFED" set "$h.1" 'general.a b:str' v -q -o "$h.2" 2>/dev/null &&
	"$GGUFED" set "$h.2" "general.e$esc:str" v -q -o "$h" 2>/dev/null
	ok $? "a file with keys that are shell syntax"
	"$GGUFED" __complete get "$h" general. >"$scratch/raw"
	! LC_ALL=C grep -q "$(printf '[\033\r]')" "$scratch/raw"
	ok $? "__complete escapes ESC and CR"
	mkdir "$scratch/cwd"
	(cd "$scratch/cwd" && bash -c '
		. "$1"
		for w in general. "general.n" "\"general.a" "general.a\\ " \
		    "\$'"'"'general.e\\E"; do
			COMP_WORDS=("$2" get "$3" "$w")
			COMP_CWORD=3
			_ggufed
			for c in "${COMPREPLY[@]}"; do
				eval "set -- $c"
				[ $# -eq 1 ] || echo "split: $c"
				printf "%s\n" "$1" | od -An -c | tr -d " \n"
				echo
			done
		done
	' bash "$comp/ggufed" "$GGUFED" "$h") >"$scratch/bash.out" 2>&1
	[ ! -e "$scratch/cwd/pwned" ]; ok $? "bash: a candidate runs nothing"
	! grep -q split "$scratch/bash.out"; ok $? "bash: a name with a blank is one word"
	for k in 'general.name$(touch pwned)' 'general.a b' "general.e$esc"; do
		printf "%s\n" "$k" | od -An -c | tr -d ' \n' >"$scratch/want"
		echo >>"$scratch/want"
		grep -qxF -f "$scratch/want" "$scratch/bash.out"
		ok $? "bash: $(printf %s "$k" | tr -d '\033\r') completes to itself"
	done
	echo "$out" | sed -n '/^--$/,/^--$/p' | grep -qxF 'arr\[str\]' &&
	    ! echo "$out" | grep -q '^general.name:'
	ok $? "bash: KEY:TYPE, broken at the colon as bash does, gives the types after it"
	echo "$out" | sed '1,/^--$/d' | sed '1,/^--$/d' >"$scratch/dirs"
	grep -qx "$scratch/updir" "$scratch/dirs" &&
	    ! grep -q upfile "$scratch/dirs"
	ok $? "bash: --from offers folders, not files"
	bash -c '. "$1"; complete -p ggufed' bash "$comp/ggufed" |
	    grep -q -- '-F _ggufed ggufed'
	ok $? "bash: the function is registered for ggufed"
else
	for i in 1 2 3 4 5 6 7 8; do skip "no bash"; done
fi
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$comp/_ggufed"; ok $? "zsh: the script parses"
else
	skip "no zsh"
fi

# make install and make uninstall into a temporary root.
top="$TESTS_BUILDDIR/.."
root="$scratch/root"
if [ -f "$top/Makefile" ]; then
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" install \
	    DESTDIR="$root" prefix=/usr >"$scratch/install.out" 2>&1
	ok $? "make install DESTDIR=... prefix=/usr"
	for f in bin/ggufed share/man/man1/ggufed.1 share/ggufed/keys.tsv \
	    share/bash-completion/completions/ggufed \
	    share/zsh/site-functions/_ggufed; do
		[ -f "$root/usr/$f" ]; ok $? "installs usr/$f"
	done
	"$root/usr/bin/ggufed" __complete inf | grep -qx info
	ok $? "the installed program completes"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" uninstall \
	    DESTDIR="$root" prefix=/usr >"$scratch/uninstall.out" 2>&1
	ok $? "make uninstall"
	[ -z "$(find "$root" -type f)" ]; ok $? "uninstall leaves no file"
else
	skip "no Makefile in the build tree"
fi

done_testing
