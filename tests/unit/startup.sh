#!/bin/sh
# startup.sh - what ggufed runs before main: no function resolved at load
# time (each IRELATIVE relocation runs its resolver inside the dynamic
# loader at every start) and not the compiler runtime's CPU probe
# (__cpu_indicator_init, a constructor of CPUID instructions, each a trap
# to the hypervisor on a virtual machine). The code with AVX2 versions
# asks the CPU at its first use (src/base/cpu.c).
. "$TESTS_SRCDIR/lib.sh"

command -v readelf >/dev/null 2>&1 || skip_all "no readelf"
n=$(readelf -rW "$GGUFED" | grep -c IRELATIVE)
[ "$n" -eq 0 ]
ok $? "no IRELATIVE relocation (found $n)"

if command -v nm >/dev/null 2>&1; then
	nm "$GGUFED" >"$scratch/syms" 2>&1
	! grep -q '__cpu_indicator_init' "$scratch/syms"
	ok $? "no __cpu_indicator_init"
else
	skip "no nm"
fi

done_testing
