#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests for audit: build tiny fixtures, audit them, check findings and exit
# codes; then the bad-input cases.  Prints ok / not ok lines; exits non-zero
# on any failure.  Run from anywhere: audit/tests/run.sh (or make -C audit check).
set -u
T=$(cd "$(dirname "$0")" && pwd)
A=$T/../audit
O=$T/out
CC=${CC:-gcc}
pass=0 fail=0 n=0

[ -x "$A" ] || { echo "not ok 0 - $A not built (make -C audit)"; exit 1; }
rm -rf "$O" && mkdir -p "$O" || exit 1

ok()  { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; sed 's/^/#   /' "$O/last.out" "$O/last.err" | head -40; }

# run NAME WANT_RC LIST BINARY [ARGS...]: run audit, keep stdout/stderr
run() {
	local name=$1 want=$2 list=$3; shift 3
	"$A" -l "$list" "$@" >"$O/last.out" 2>"$O/last.err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "# $name: exit $rc, want $want" >>"$O/last.err"; return 1
	fi
	return 0
}
# has PATTERN: the last stdout matches (extended regexp)
has()  { grep -Eq -- "$1" "$O/last.out" || { echo "# stdout lacks /$1/" >>"$O/last.err"; return 1; }; }
hasnt() { ! grep -Eq -- "$1" "$O/last.out" || { echo "# stdout has /$1/" >>"$O/last.err"; return 1; }; }
# count PATTERN N
count() { local c; c=$(grep -Ec -- "$1" "$O/last.out"); [ "$c" -eq "$2" ] || { echo "# /$1/: $c lines, want $2" >>"$O/last.err"; return 1; }; }
# one_error PATTERN: exactly one stderr line, "audit: error: ...PATTERN..."
one_error() {
	[ "$(wc -l <"$O/last.err")" -eq 1 ] && grep -Eq -- "^audit: error: .*$1" "$O/last.err" ||
		{ echo "# stderr is not one 'audit: error: ...$1...' line" >>"$O/last.err"; return 1; }
}
list() { printf '%s\n' "$@" >"$O/$LN.list"; echo "$O/$LN.list"; }

# --- fixtures -------------------------------------------------------------
B="-O2 -fno-pic -no-pie -nostdlib -static -fno-stack-protector -Wl,-e,_start -Wl,--build-id=none"
R="-mindirect-branch=thunk-extern -mindirect-branch-register -mfunction-return=thunk-extern"
build() {
	if "$CC" "$@" >"$O/cc.log" 2>&1; then :; else
		echo "not ok - cannot build fixture: $CC $*"; cat "$O/cc.log"; exit 1
	fi
}
build $B $R -fcf-protection=none -fno-jump-tables -o "$O/retp" "$T/fixture.c" "$T/thunks.S"
build $B $R -fcf-protection=none -fjump-tables -o "$O/retp-jt" "$T/fixture.c" "$T/thunks.S"
build $B -fcf-protection=none -fjump-tables -o "$O/plain-jt" "$T/fixture.c"
build $B -fcf-protection=branch -fjump-tables -o "$O/cet-jt" "$T/fixture.c"
build $B -fcf-protection=none -fno-jump-tables -o "$O/plain" "$T/fixture.c"
build -nostdlib -static -no-pie -Wl,-e,f_asm -Wl,--build-id=none -o "$O/asm" "$T/asm.S" "$T/thunks.S"
build -nostdlib -static -no-pie -Wl,-e,f_asm -Wl,--build-id=none -o "$O/asm-array" "$T/asm.S" "$T/thunks-array.S"
# shellcheck disable=SC2046 # one --strip-symbol argument per word
objcopy $(for r in rax rcx rdx rbx rsp rbp rsi rdi r8 r9 r10 r11 r12 r13 r14 r15; do
	echo --strip-symbol=__x86_indirect_thunk_$r; done) "$O/asm-array" || exit 1
strip -o "$O/stripped" "$O/retp"
: >"$O/last.out"; : >"$O/last.err"

# --- findings -------------------------------------------------------------
LN=clean; L=$(list \
	'# the fixture with its expected findings whitelisted' \
	'func f_indirect_call' \
	'allow f_indirect_call thunk 1 "ops->fn is a fallback"' \
	'func f_tail' \
	'allow f_tail thunk "tail call, any number"' \
	'func f_switch' \
	'func f_fptable' \
	'allow f_fptable thunk 1 "table of function pointers"' \
	'func f_calls_inline' \
	'inline f_calls_inline helper_inline' \
	'func f_direct' \
	'require f_direct call target "the direct call"' \
	'func f_clone' \
	'allow f_clone thunk 1 "the .isra clone"' \
	'func f_gone optional "only in some configs"')
if run clean 0 "$L" "$O/retp" && has '^f_indirect_call +thunk 1, indirect 0, jumptable 0, rethunk 1' &&
	has '^ +allowed +thunk +f_indirect_call\+0x[0-9a-f]+: call +[0-9a-f]+ <__x86_indirect_thunk_r..>' &&
	has '^ +allowed +thunk +f_tail\+0x[0-9a-f]+: jmp +[0-9a-f]+ <__x86_indirect_thunk_' &&
	has '^f_switch +thunk 0, indirect 0, jumptable 0' &&
	has '^f_fptable +thunk 1, indirect 0, jumptable 0' &&
	has '^ +required +call +target: 1 direct call' &&
	has '^f_clone +thunk 1, .*\[f_clone, f_clone\.isra\.0\]' && hasnt 'f_clone2' &&
	has '^f_gone +absent \(optional: only in some configs\)' &&
	has '^audit: ok: 8 functions, 7 audited, 1 absent'; then
	ok "retpoline fixture, whitelisted: exit 0, thunk call/jmp, clones, require, optional"
else nok "retpoline fixture, whitelisted"; fi

LN=strict; L=$(list 'func f_indirect_call' 'func f_tail' 'func f_switch' 'func f_clone' 'func f_calls_noinline')
if run strict 1 "$L" "$O/retp" && count '^ +UNEXPECTED +thunk ' 3 &&
	has 'UNEXPECTED +thunk +f_clone\.isra\.0\+0x' && has '^audit: FAIL: 3 unexpected findings in 3 functions'; then
	ok "retpoline fixture, no whitelist: 3 unexpected thunks, exit 1"
else nok "retpoline fixture, no whitelist"; fi

LN=count; L=$(list 'func f_clone' 'allow f_clone thunk 0 "none allowed"')
if run count 1 "$L" "$O/retp" && has 'UNEXPECTED +thunk +f_clone\.isra\.0' && has '1 found, at most 0 allowed'; then
	ok "allowed count exceeded: exit 1"
else nok "allowed count exceeded"; fi

LN=asm; L=$(list 'func f_asm')
if run asm 1 "$L" "$O/asm" && has '^f_asm +thunk 3, indirect 1, jumptable 0' &&
	has 'UNEXPECTED +thunk +f_asm\+0x0: cs call +[0-9a-f]+ <__x86_indirect_thunk_r11>' &&
	has 'UNEXPECTED +thunk +f_asm\+0x[0-9a-f]+: jne +[0-9a-f]+ <__x86_indirect_thunk_rax>' &&
	has 'UNEXPECTED +thunk +f_asm\+0x[0-9a-f]+: cs jmp +[0-9a-f]+ <__x86_indirect_thunk_rcx>' &&
	has 'UNEXPECTED +indirect +f_asm\+0x[0-9a-f]+: call +\*0x10\(%r15\)'; then
	ok "asm forms: cs call/jmp to a thunk, jcc to a thunk, call *0x10(%r15)"
else nok "asm forms"; fi
if run asm-array 1 "$L" "$O/asm-array" && has '^f_asm +thunk 3, indirect 1, jumptable 0' &&
	has 'f_asm\+0x0: cs call +[0-9a-f]+ <__x86_indirect_thunk_r11>' &&
	has 'f_asm\+0x[0-9a-f]+: jne +[0-9a-f]+ <__x86_indirect_thunk_rax>' &&
	has 'f_asm\+0x[0-9a-f]+: cs jmp +[0-9a-f]+ <__x86_indirect_thunk_rcx>'; then
	ok "thunks known only as __x86_indirect_thunk_array+N*32 (x86 6.1 layout)"
else nok "__x86_indirect_thunk_array layout"; fi

LN=jt; L=$(list 'func f_switch' 'func f_fptable' 'allow f_fptable thunk "fn table"')
if run retp-jt 1 "$L" "$O/retp-jt" && has '^f_switch +thunk 0, indirect 0, jumptable 1' &&
	has 'UNEXPECTED +jumptable +f_switch\+0x[0-9a-f]+: jmp +[0-9a-f]+ <__x86_indirect_thunk_r..> .*table' &&
	has '^f_fptable +thunk 1, indirect 0, jumptable 0'; then
	ok "-fjump-tables with retpolines: jump table through a thunk found, fn-pointer table is not one"
else nok "-fjump-tables with retpolines"; fi

LN=plain; L=$(list 'func f_indirect_call' 'func f_tail' 'func f_switch' 'func f_fptable')
if run plain-jt 1 "$L" "$O/plain-jt" && has '^f_indirect_call +thunk 0, indirect 1, jumptable 0, rethunk 0' &&
	has 'UNEXPECTED +indirect +f_indirect_call\+0x[0-9a-f]+: call +\*' &&
	has 'UNEXPECTED +indirect +f_tail\+0x[0-9a-f]+: jmp +\*' &&
	has 'UNEXPECTED +jumptable +f_switch\+0x[0-9a-f]+: jmp +\*0x[0-9a-f]+\(,%r..,8\)' &&
	has '^f_fptable +thunk 0, indirect 1, jumptable 0'; then
	ok "no retpolines, -fjump-tables: call */jmp * and jmp *table(,%reg,8)"
else nok "no retpolines, -fjump-tables"; fi

if run cet-jt 1 "$L" "$O/cet-jt" && has 'UNEXPECTED +jumptable +f_switch\+0x[0-9a-f]+: notrack jmp'; then
	ok "-fcf-protection=branch: notrack jmp is a jump table"
else nok "-fcf-protection=branch notrack jmp"; fi

LN=nojt; L=$(list 'func f_switch')
if run plain 0 "$L" "$O/plain" && has '^f_switch +thunk 0, indirect 0, jumptable 0'; then
	ok "-fno-jump-tables: no jump table"
else nok "-fno-jump-tables"; fi

LN=inl; L=$(list 'func f_calls_noinline' 'inline f_calls_noinline helper_noinline "hot"' 'func f_calls_inline' 'inline f_calls_inline helper_inline')
if run inline 1 "$L" "$O/retp" && count 'UNEXPECTED' 1 &&
	has 'UNEXPECTED +call +f_calls_noinline\+0x[0-9a-f]+: (call|jmp) +[0-9a-f]+ <helper_noinline>.*must be inlined'; then
	ok "noinline callee is reported, always_inline callee is not"
else nok "inline check"; fi

LN=req; L=$(list 'func f_direct' 'require f_direct helper_noinline' 'require f_direct no_such_fn')
if run require 1 "$L" "$O/retp" && has 'MISSING +call +helper_noinline: no direct call \(' &&
	has 'MISSING +call +no_such_fn: no direct call, no such symbol'; then
	ok "require: missing direct calls reported"
else nok "require"; fi

LN=reqb; L=$(list 'func f_direct' 'require f_direct call no_such_fn if-built-in "a module"' 'require f_direct helper_noinline if-built-in')
if run require-if-built-in 1 "$L" "$O/retp" && has 'skipped +call +no_such_fn: not in this binary' &&
	has 'MISSING +call +helper_noinline: no direct call \(' && count 'MISSING' 1; then
	ok "require if-built-in: an absent callee is skipped, a present one is still required"
else nok "require if-built-in"; fi

LN=sect; L=$(list '[all]' 'func f_indirect_call' '[base]' 'allow f_indirect_call thunk 1 "base: not converted yet"' \
	'[patched]' 'func f_direct' 'require f_direct target')
if run sect-base 1 "$L" "$O/plain" -k base && has 'UNEXPECTED +indirect +f_indirect_call' && hasnt f_direct &&
	run sect-patched 1 "$L" "$O/retp" -k patched && has 'UNEXPECTED +thunk +f_indirect_call' && has 'required +call +target' &&
	run sect-base2 0 "$L" "$O/retp" --kernel base && has 'allowed +thunk'; then
	ok "list sections: --kernel base / patched"
else nok "list sections"; fi

if run rethunk 0 "$O/nojt.list" "$O/retp" && has 'rethunk [1-9]' && run rethunk2 0 "$O/nojt.list" "$O/plain" && has 'rethunk 0'; then
	ok "__x86_return_thunk jmps counted separately, not as indirect"
else nok "rethunk"; fi

LN='cmp'; L=$(list '[base]' 'func f_indirect_call' 'allow f_indirect_call thunk "x"' 'func f_switch' \
	'func f_calls_noinline' 'inline f_calls_noinline helper_noinline' \
	'[patched]' 'func f_indirect_call' 'allow f_indirect_call thunk 1 "y"' 'func f_direct' 'func f_gone optional' \
	'require f_direct target' 'func f_calls_noinline' 'inline f_calls_noinline helper_noinline')
if run compare 0 "$L" --compare "$O/retp-jt" "$O/plain-jt" &&
	has '^f_indirect_call +1 +0 +0 +1 +0 +0 +0 +0 +0 +0$' && has '^f_switch +0 +0 +0 +0 +1 +1 +0 +0 +0 +0$' &&
	has '^f_direct +0 +0 +0 +0 +0 +0 +1 +1 +0 +0$' && has '^f_calls_noinline +0 +0 +0 +0 +0 +0 +0 +0 +1 +1$' &&
	has '^f_gone +- +- ' && has '^total +1 +0 +0 +1 +1 +1 +1 +1 +1 +1$' &&
	run compare-md 0 "$L" --compare "$O/retp" "$O/plain" --markdown &&
	has '^\| f_indirect_call \| 1 \| 0 \| 0 \| 1 \| 0 \| 0 \| 0 \| 0 \| 0 \| 0 \|$'; then
	ok "--compare: per-function before/after table (thunks, indirect, jump tables, direct and must-inline calls)"
else nok "--compare"; fi

# --- bad input: one 'audit: error:' line, exit 2 --------------------------
LN=one; L=$(list 'func f_direct')
if run missing 2 "$L" "$O/nonexistent" && one_error 'nonexistent: No such file'; then ok "missing vmlinux"; else nok "missing vmlinux"; fi
if run stripped 2 "$L" "$O/stripped" && one_error 'no symbol table \(stripped\?\)'; then ok "stripped binary"; else nok "stripped binary"; fi
if run notelf 2 "$L" "$T/fixture.c" && one_error 'not an ELF file'; then ok "not an ELF file"; else nok "not an ELF file"; fi
if run nolist 2 "$O/nonexistent.list" "$O/retp" && one_error 'cannot open list file'; then ok "missing list file"; else nok "missing list file"; fi
LN=unk; L=$(list 'func f_direct' 'func no_such_function')
if run unknown 2 "$L" "$O/retp" && one_error 'function no_such_function \(.*:2\) not found' && [ ! -s "$O/last.out" ]; then
	ok "function not in the binary (not optional)"; else nok "function not in the binary"; fi
if OBJDUMP=/nonexistent/objdump run noobjdump 2 "$O/one.list" "$O/retp" && one_error 'cannot run /nonexistent/objdump' &&
	OBJDUMP=false run badobjdump 2 "$O/one.list" "$O/retp" && one_error 'objdump failed on .*f_direct'; then
	ok "objdump missing or failing"; else nok "objdump missing or failing"; fi
LN=unsect; L=$(list '[base]' 'func f_direct')
if run nokernel 2 "$L" "$O/retp" && one_error 'choose one with --kernel' &&
	run badkernel 2 "$L" "$O/retp" -k nope && one_error 'no section \[nope\]'; then
	ok "sectioned list needs a valid --kernel"; else nok "sectioned list needs --kernel"; fi
LN=empty; L=$(list '# nothing')
if run empty 2 "$L" "$O/retp" && one_error 'no functions to audit'; then ok "empty list"; else nok "empty list"; fi

i=0
while IFS='|' read -r want line; do
	i=$((i + 1)); LN=bad$i
	L=$(list 'func f_direct' '' "$line")
	if run "bad$i" 2 "$L" "$O/retp" && one_error ":3: .*$want"; then ok "malformed line: $line"
	else nok "malformed line: $line"; fi
done <<'BAD'
unknown directive|frobnicate f_direct
usage: allow|allow f_direct thunk
unknown kind|allow f_direct thunks "x"
bad count|allow f_direct thunk 1x "x"
unterminated|allow f_direct thunk "x
usage: func|func
duplicate func f_direct|func f_direct
no 'func f_other'|allow f_other thunk "x"
usage: inline|inline f_direct
usage: require|require f_direct call
quoted reason must be the last|allow f_direct "x" thunk
malformed section|[base
invalid word|func f(x)
BAD

# --- obj-sites.sh: slots and direct calls in an unlinked object -----------
S=$T/../obj-sites.sh
mkdir -p "$O/objs/net" "$O/objs-base/net"
cat >"$O/objs/net/t.c" <<'C'
extern int __SCT__pt_0(int), __SCT__pt_1(int), __SCT__pt_3(int), callee(int);
static int helper(int x) { return x * 3; }
int disp(int x) { return __SCT__pt_0(x) + __SCT__pt_1(x + 1) + __SCT__pt_3(x + 2); }
int named(int x) { return callee(x) + helper(x); }
C
cp "$O/objs/net/t.c" "$O/objs-base/net/t.c"
sed -i 's/__SCT__pt_1(x + 1)/__SCT__pt_1(x + 1) + __SCT__pt_2(x)/; s/__SCT__pt_3(int)/__SCT__pt_3(int), __SCT__pt_2(int)/' "$O/objs/net/t.c"
sed -i 's/return callee(x) + helper(x)/return helper(x)/' "$O/objs-base/net/t.c"
if "$CC" -O2 -fno-inline -c -o "$O/objs/net/t.o" "$O/objs/net/t.c" &&
	"$CC" -O2 -fno-inline -c -o "$O/objs-base/net/t.o" "$O/objs-base/net/t.c"; then
	# objs: disp calls slots 0..3 of pt, named calls callee; objs-base:
	# disp calls 0, 1 and 3 (2 missing), named calls no callee
	osl() { "$S" slots "$@" >"$O/last.out" 2>"$O/last.err"; }
	l=$(LN=os1 list 'net/t.o disp pt 4' 'net/t.o named call callee')
	if osl "$l" "$O/objs" && count '^ok - ' 2; then ok "obj-sites: four slots and a direct call"
	else nok "obj-sites: four slots and a direct call"; fi
	if ! osl "$l" "$O/objs-base" && has 'not ok - net/t.o disp: .* 0 1 3 \(wanted 0 1 2 3\)' &&
		has 'not ok - net/t.o named: no direct call to callee'; then
		ok "obj-sites: a missing slot and a missing direct call fail, by name"
	else nok "obj-sites: a missing slot and a missing direct call fail, by name"; fi
	l=$(LN=os2 list 'net/t.o disp pt 3')
	if ! osl "$l" "$O/objs" && has 'not ok - .*0 1 2 3 \(wanted 0 1 2\)'; then
		ok "obj-sites: a slot beyond the list's count fails"
	else nok "obj-sites: a slot beyond the list's count fails"; fi
	l=$(LN=os3 list 'net/t.o nosuch pt 1' 'net/u.o disp pt 1')
	if ! osl "$l" "$O/objs" && has 'not ok - net/t.o: no function nosuch' && has 'not ok - net/u.o: not built'; then
		ok "obj-sites: a missing function or object fails"
	else nok "obj-sites: a missing function or object fails"; fi
	"$S" compare "$O/objs-base" "$O/objs" net/t.o:disp net/t.o:named >"$O/last.out" 2>"$O/last.err"
	if has '^net/t.o disp 0 0 3 4$' && has '^net/t.o named 0 0 0 0$'; then ok "obj-sites: compare counts the static-call sites"
	else nok "obj-sites: compare counts the static-call sites"; fi
	for bad in "slots|$(LN=os4 list 'net/t.o disp pt x')|$O/objs|expected 'OBJ FUNC POINT N'" \
		"slots|$O/none.list|$O/objs|cannot read" "slots|$(LN=os5 list 'net/t.o disp pt 1')|$O/nodir|no directory" \
		"frob|x|y|unknown command 'frob'" "compare|$O/objs|$O/objs|'x' is not OBJ:FUNC"; do
		IFS='|' read -r c a1 a2 want <<<"$bad"
		if [ "$c" = compare ]; then "$S" "$c" "$a1" "$a2" x >"$O/last.out" 2>"$O/last.err"; else "$S" "$c" "$a1" "$a2" >"$O/last.out" 2>"$O/last.err"; fi
		rc=$?
		if [ $rc -eq 2 ] && [ "$(wc -l <"$O/last.err")" -eq 1 ] && grep -q "^obj-sites: error: .*$want" "$O/last.err"; then
			ok "obj-sites: bad input ($want): one line, exit 2"
		else nok "obj-sites: bad input ($want): exit $rc"; fi
	done
else
	nok "obj-sites: cannot compile the fixture"
fi

# --- the real kernel, when it has been built -----------------------------
V=$T/../../build/out/x86_64-off/vmlinux
if [ -f "$V" ]; then
	if run real-base 0 "$T/../fastpath.list" "$V" -k base && has '^audit: ok: '; then
		ok "fastpath.list [base] on build/out/x86_64-off/vmlinux"
	else nok "fastpath.list [base] on build/out/x86_64-off/vmlinux"; fi
else
	n=$((n + 1)); echo "ok $n - # skip fastpath.list [base]: no build/out/x86_64-off/vmlinux"
fi

echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
