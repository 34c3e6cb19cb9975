/*
 * entry.S - guest entry point and the IDT stubs for all 256 vectors.
 *
 * Every stub pushes a zero error code where the CPU does not push one, then
 * the vector, and jumps to a common path that saves the general registers as
 * struct ex_regs (guest/guest.h) and calls guest_handle_exception().
 * Vectors with a CPU error code: 8, 10-14, 17, 21 (#CP), 29, 30.
 */
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

	.altmacro
	.set i, 0
	.rept 256
	ISR %i
	.set i, i + 1
	.endr

isr_common:
	push %rax
	push %rbx
	push %rcx
	push %rdx
	push %rsi
	push %rdi
	push %rbp
	push %r8
	push %r9
	push %r10
	push %r11
	push %r12
	push %r13
	push %r14
	push %r15
	mov %rsp, %rdi
	cld
	call guest_handle_exception
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rbp
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rbx
	pop %rax
	add $16, %rsp
	iretq

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
