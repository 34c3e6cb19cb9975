/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_regs.h - the frame guest/entry.S builds for an exception or interrupt
 * (struct ex_regs): byte offsets for the assembly, the C struct, and the
 * asserts that tie the two together. Also the register the safe-instruction
 * helpers (guest/guest.h) and the exception handler (guest/rt_guest.c)
 * pass a fault code in, and the layout of an exception-table entry.
 * Included by entry.S: only #defines outside __ASSEMBLER__.
 */
#ifndef EXITSCOPE_GUEST_EX_REGS_H
#define EXITSCOPE_GUEST_EX_REGS_H

/* Saved by isr_common, lowest address first. */
#define EX_REGS_R15		0
#define EX_REGS_R14		8
#define EX_REGS_R13		16
#define EX_REGS_R12		24
#define EX_REGS_R11		32
#define EX_REGS_R10		40
#define EX_REGS_R9		48
#define EX_REGS_R8		56
#define EX_REGS_RBP		64
#define EX_REGS_RDI		72
#define EX_REGS_RSI		80
#define EX_REGS_RDX		88
#define EX_REGS_RCX		96
#define EX_REGS_RBX		104
#define EX_REGS_RAX		112
/* Pushed by each vector's stub (the CPU pushes the error code where it has one). */
#define EX_REGS_VECTOR		120
#define EX_REGS_ERROR_CODE	128
/* The CPU's interrupt frame. */
#define EX_REGS_RIP		136
#define EX_REGS_CS		144
#define EX_REGS_RFLAGS		152
#define EX_REGS_RSP		160
#define EX_REGS_SS		168
#define EX_REGS_SIZE		176

/*
 * The general register that carries a safe instruction's fault code: the
 * helper zeroes it before the instruction, the handler stores
 * GUEST_FAULT | vector into the same field of struct ex_regs.
 */
#define GUEST_SAFE_FIELD	r9

/* An exception-table entry: .quad insn, fixup (guest/guest.h GUEST_EX_ENTRY). */
#define GUEST_EX_ENTRY_INSN	0
#define GUEST_EX_ENTRY_FIXUP	8
#define GUEST_EX_ENTRY_SIZE	16

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

struct ex_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

struct guest_ex_entry {
	uint64_t insn, fixup;
};

#define EX_REGS_ASSERT(field, OFF) \
	_Static_assert(offsetof(struct ex_regs, field) == EX_REGS_##OFF, \
		       "ex_regs." #field " offset")
EX_REGS_ASSERT(r15, R15);
EX_REGS_ASSERT(r14, R14);
EX_REGS_ASSERT(r13, R13);
EX_REGS_ASSERT(r12, R12);
EX_REGS_ASSERT(r11, R11);
EX_REGS_ASSERT(r10, R10);
EX_REGS_ASSERT(r9, R9);
EX_REGS_ASSERT(r8, R8);
EX_REGS_ASSERT(rbp, RBP);
EX_REGS_ASSERT(rdi, RDI);
EX_REGS_ASSERT(rsi, RSI);
EX_REGS_ASSERT(rdx, RDX);
EX_REGS_ASSERT(rcx, RCX);
EX_REGS_ASSERT(rbx, RBX);
EX_REGS_ASSERT(rax, RAX);
EX_REGS_ASSERT(vector, VECTOR);
EX_REGS_ASSERT(error_code, ERROR_CODE);
EX_REGS_ASSERT(rip, RIP);
EX_REGS_ASSERT(cs, CS);
EX_REGS_ASSERT(rflags, RFLAGS);
EX_REGS_ASSERT(rsp, RSP);
EX_REGS_ASSERT(ss, SS);
#undef EX_REGS_ASSERT
_Static_assert(sizeof(struct ex_regs) == EX_REGS_SIZE, "ex_regs size");
/* The CPU pushes the error code right below its 5-word frame; the stub pushes the vector below that. */
_Static_assert(EX_REGS_ERROR_CODE == EX_REGS_VECTOR + 8 && EX_REGS_RIP == EX_REGS_ERROR_CODE + 8 &&
	       EX_REGS_SIZE == EX_REGS_RIP + 5 * 8, "stub and CPU frame are contiguous");
_Static_assert(offsetof(struct guest_ex_entry, insn) == GUEST_EX_ENTRY_INSN &&
	       offsetof(struct guest_ex_entry, fixup) == GUEST_EX_ENTRY_FIXUP &&
	       sizeof(struct guest_ex_entry) == GUEST_EX_ENTRY_SIZE,
	       "exception-table entry layout");
#endif

#endif
