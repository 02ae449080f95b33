#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/static-call-sites.py, which static-calls-uml runs on the census
# kernel: on a small linked x86-64 image with one trampoline and two sites
# it agrees with objdump and with a console that counts two; it fails on a
# console that counts otherwise, on bytes that call the trampoline only
# when read from the middle of an instruction, and on bad input.
. "$(dirname "$0")/lib.sh"
P=$TOP/tests/static-call-sites.py

# image NAME [EXTRA]: link $TMP/NAME from a text with two sites, and EXTRA
image() {
	cat >"$TMP/$1.S" <<ASM
	.text
	.globl _stext, _etext, arch_static_call_transform, __SCT__foo
_stext:
	call __SCT__foo
	nop
	.byte 0xe9	/* jmp __SCT__foo, rel32 as the compiler's */
	.long .Ltramp - (. + 4)
${2:-}
	.balign 8
__SCT__foo:
.Ltramp:
	.byte 0xe9
	.long target - (. + 4)
	.byte 0x0f, 0xb9, 0xcc
	.type __SCT__foo, @function
	.size __SCT__foo, . - __SCT__foo
target:
arch_static_call_transform:
	ret
_etext:
	.data
	.globl um_static_call_inline_on
um_static_call_inline_on:
	.byte 1
ASM
	gcc -c -o "$TMP/$1.o" "$TMP/$1.S" && ld -o "$TMP/$1" -e _stext "$TMP/$1.o"
}
image good || { echo "not ok - cannot build the test image"; exit 1; }
echo "[    0.090000] static calls: 2 call sites in the kernel's text made direct (2 to a function now)" >"$TMP/two.log"
echo "[    0.090000] static calls: 3 call sites in the kernel's text made direct (3 to a function now)" >"$TMP/three.log"
echo "[    0.090000] Linux version 6.12.117" >"$TMP/none.log"

expect_ok "two sites, objdump agrees" "$P" "$TMP/good"
expect_ok "two sites, and the console counts two" "$P" "$TMP/good" "$TMP/two.log"
# expect_mismatch NAME TEXT ARG...: the script exits 1 and prints TEXT
expect_mismatch() {
	local name=$1 text=$2 rc
	shift 2
	"$P" "$@" >"$TMP/o" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -qF "$text" "$TMP/o"; then
		echo "ok - $name: '$text', exit 1"
	else
		echo "not ok - $name: exit $rc, $(tail -n1 "$TMP/o")"
		fails=$((fails + 1))
	fi
}
expect_mismatch "a console that counts three" 'made 3 sites direct: MISMATCH' "$TMP/good" "$TMP/three.log"
# movabs \$imm64, %rax whose immediate reads "call .Ltramp" from its third byte
image stray '	.byte 0x48, 0xb8, 0xe8
	.long .Ltramp - (. + 4)
	.byte 0, 0, 0' || { echo "not ok - cannot build the stray image"; exit 1; }
expect_mismatch "a call read from inside an instruction" 'which objdump does not list' "$TMP/stray"

expect_fail "no arguments" '^static-call-sites.py: usage' "$P"
expect_fail "three arguments" '^static-call-sites.py: usage' "$P" a b c
expect_fail "no such kernel" 'no such kernel' "$P" "$TMP/nope"
expect_fail "not an ELF file" 'nm failed' "$P" "$TMP/two.log"
printf '\t.text\n\t.globl _stext, _etext\n_stext:\n\tret\n_etext:\n' >"$TMP/other.S"
if ! gcc -c -o "$TMP/other.o" "$TMP/other.S" || ! ld -o "$TMP/other" -e _stext "$TMP/other.o"; then
	echo "not ok - cannot build the other image"
	exit 1
fi
expect_fail "an ELF file that is not such a kernel" 'has no symbol arch_static_call_transform' "$P" "$TMP/other"
expect_fail "a console without the line" "no 'static calls:' line" "$P" "$TMP/good" "$TMP/none.log"
expect_fail "an unreadable console" 'cannot read' "$P" "$TMP/good" "$TMP/nope.log"
done_testing
