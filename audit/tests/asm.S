/* SPDX-License-Identifier: GPL-2.0 */
/* Hand-written instruction forms for the audit tests (see run.sh). */
	.text
	.globl f_asm
	.type f_asm, @function
f_asm:
	.byte 0x2e			/* cs call: -mindirect-branch-cs-prefix */
	call __x86_indirect_thunk_r11
	test %eax, %eax
	jne __x86_indirect_thunk_rax	/* conditional tail call through a thunk */
	call *0x10(%r15)
	.byte 0x2e
	jmp __x86_indirect_thunk_rcx
	.size f_asm, . - f_asm
	.section .note.GNU-stack,"",@progbits
