/* SPDX-License-Identifier: GPL-2.0 */
/* Stub retpoline thunks, named as in the kernel (not real retpolines). */
	.text
	.irp reg, rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15
	.globl __x86_indirect_thunk_\reg
	.type __x86_indirect_thunk_\reg, @function
__x86_indirect_thunk_\reg:
	jmp *%\reg
	.size __x86_indirect_thunk_\reg, . - __x86_indirect_thunk_\reg
	.endr
	.globl __x86_return_thunk
	.type __x86_return_thunk, @function
__x86_return_thunk:
	ret
	.size __x86_return_thunk, . - __x86_return_thunk
	.section .note.GNU-stack,"",@progbits
