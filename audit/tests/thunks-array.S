/* SPDX-License-Identifier: GPL-2.0 */
/* Stub thunks laid out as in x86 6.1: __x86_indirect_thunk_array, 32 bytes
 * per register in encoding order.  run.sh strips the per-register names so
 * that only the array symbol is left. */
	.text
	.balign 32
	.globl __x86_indirect_thunk_array
	.type __x86_indirect_thunk_array, @function
__x86_indirect_thunk_array:
	.irp reg, rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8, r9, r10, r11, r12, r13, r14, r15
	.balign 32
	.globl __x86_indirect_thunk_\reg
__x86_indirect_thunk_\reg:
	jmp *%\reg
	.endr
	.balign 32
	.size __x86_indirect_thunk_array, . - __x86_indirect_thunk_array
	.section .note.GNU-stack,"",@progbits
