/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * entry.S - guest entry point and the IDT stubs for all 256 vectors.
 *
 * Every stub pushes a zero error code where the CPU does not push one, then
 * the vector, and jumps to a common path that saves the general registers as
 * struct ex_regs at the offsets of guest/ex_regs.h (asserted against the C
 * struct there) and calls guest_handle_exception(regs, ssp) with the SSP
 * right after delivery: 0 unless guest_shstk_begin() armed the RDSSP (a NOP
 * while shadow stacks are off at CPL0; left out otherwise, since an
 * emulating host may not decode it, and no CR4 read, which may exit on SVM).
 * Vectors with a CPU error code: 8, 10-14, 17, 21 (#CP), 29, 30.
 */
#include "guest/ex_regs.h"

	.text
	.code64

/* rdi = function, rsi = argument, rsp = stack top (set by the host). */
	.globl guest_start
guest_start:
	endbr64
	xor %ebp, %ebp
	call guest_main
1:	hlt
	jmp 1b

	.macro ISR vec
	.balign 16
isr\vec:
	endbr64
	.if (\vec == 8) || (\vec >= 10 && \vec <= 14) || (\vec == 17) || (\vec == 21) || (\vec == 29) || (\vec == 30)
	.else
	pushq $0
	.endif
	pushq $\vec
	jmp isr_common
	.endm

/*
 * guest_isr_begin..guest_isr_end: the code between an event's delivery and
 * the C handler (the stubs and isr_common), for handlers that ask whether
 * they interrupted another delivery (suites/irq_guest.c).
 */
	.globl guest_isr_begin, guest_isr_end
	.balign 16
guest_isr_begin:
	.altmacro
	.set i, 0
	.rept 256
	ISR %i
	.set i, i + 1
	.endr

isr_common:
	sub $EX_REGS_VECTOR, %rsp
	mov %rax, EX_REGS_RAX(%rsp)
	mov %rbx, EX_REGS_RBX(%rsp)
	mov %rcx, EX_REGS_RCX(%rsp)
	mov %rdx, EX_REGS_RDX(%rsp)
	mov %rsi, EX_REGS_RSI(%rsp)
	mov %rdi, EX_REGS_RDI(%rsp)
	mov %rbp, EX_REGS_RBP(%rsp)
	mov %r8, EX_REGS_R8(%rsp)
	mov %r9, EX_REGS_R9(%rsp)
	mov %r10, EX_REGS_R10(%rsp)
	mov %r11, EX_REGS_R11(%rsp)
	mov %r12, EX_REGS_R12(%rsp)
	mov %r13, EX_REGS_R13(%rsp)
	mov %r14, EX_REGS_R14(%rsp)
	mov %r15, EX_REGS_R15(%rsp)
	xor %esi, %esi
	cmpb $0, guest_shstk_armed(%rip)
	je 1f
	rdsspq %rsi
1:	mov %rsp, %rdi
	cld
	call guest_handle_exception
	mov EX_REGS_RAX(%rsp), %rax
	mov EX_REGS_RBX(%rsp), %rbx
	mov EX_REGS_RCX(%rsp), %rcx
	mov EX_REGS_RDX(%rsp), %rdx
	mov EX_REGS_RSI(%rsp), %rsi
	mov EX_REGS_RDI(%rsp), %rdi
	mov EX_REGS_RBP(%rsp), %rbp
	mov EX_REGS_R8(%rsp), %r8
	mov EX_REGS_R9(%rsp), %r9
	mov EX_REGS_R10(%rsp), %r10
	mov EX_REGS_R11(%rsp), %r11
	mov EX_REGS_R12(%rsp), %r12
	mov EX_REGS_R13(%rsp), %r13
	mov EX_REGS_R14(%rsp), %r14
	mov EX_REGS_R15(%rsp), %r15
	add $EX_REGS_RIP, %rsp		/* drop the saved registers, vector and error code */
	iretq
guest_isr_end:

	.macro ISR_ADDR vec
	.quad isr\vec
	.endm

	.section .rodata
	.balign 8
	.globl guest_idt_stubs
guest_idt_stubs:
	.set i, 0
	.rept 256
	ISR_ADDR %i
	.set i, i + 1
	.endr

	.section .note.GNU-stack, "", @progbits
