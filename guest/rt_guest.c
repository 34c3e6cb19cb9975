// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt_guest.c - the guest side of the runtime: entry into the test function,
 * ucalls, and exception dispatch (safe-instruction fixups, installed
 * handlers, otherwise a report of the unhandled exception to the host),
 * kept CET-safe: a changed RIP is mirrored into the shadow-stack frame, and
 * IST can be suspended while supervisor shadow stacks are on (guest.h).
 *
 * Globals here live in the guest's copy of the image: one per VM.
 */
#include "guest/guest.h"

extern const struct guest_ex_entry __start_guest_ex_table[], __stop_guest_ex_table[];

/* Keep the section (and its __start/__stop symbols) even with no user. */
asm(".pushsection guest_ex_table, \"a\"\n\t.popsection");

static guest_handler_t guest_handlers[256];
/* IST index of each IDT gate, saved by guest_shstk_begin(). */
static uint8_t guest_saved_ist[256];
/* Read by guest/entry.S: non-zero while shadow stacks may be on. */
uint8_t guest_shstk_armed;

#define IDT_GATE_IST_SHIFT	32
#define IDT_GATE_IST_MASK	(7ULL << IDT_GATE_IST_SHIFT)

void guest_shstk_begin(void)
{
	volatile uint64_t *idt = (volatile uint64_t *)GUEST_IDT;

	for (int v = 0; v < 256; v++) {
		guest_saved_ist[v] = (uint8_t)((idt[2 * v] & IDT_GATE_IST_MASK) >> IDT_GATE_IST_SHIFT);
		idt[2 * v] &= ~IDT_GATE_IST_MASK;
	}
	*(volatile uint8_t *)&guest_shstk_armed = 1;
}

void guest_shstk_end(void)
{
	volatile uint64_t *idt = (volatile uint64_t *)GUEST_IDT;

	*(volatile uint8_t *)&guest_shstk_armed = 0;
	for (int v = 0; v < 256; v++)
		idt[2 * v] = (idt[2 * v] & ~IDT_GATE_IST_MASK) |
			     ((uint64_t)(guest_saved_ist[v] & 7) << IDT_GATE_IST_SHIFT);
}

struct guest_percpu *guest_this_cpu(void)
{
	struct guest_percpu *p;

	asm volatile("mov %%gs:0, %0" : "=r"(p));
	return p;
}

void guest_ucall(uint64_t cmd, const char *file, uint64_t line, const char *str,
		 uint64_t nargs, const uint64_t *args)
{
	struct ucall uc = {
		.cmd = cmd,
		.nargs = nargs > UCALL_MAX_ARGS ? UCALL_MAX_ARGS : nargs,
		.file = (uint64_t)file,
		.line = line,
		.str = (uint64_t)str,
	};

	for (uint64_t i = 0; i < uc.nargs; i++)
		uc.args[i] = args[i];
	/* The struct lives below 4 GiB (stack), so 32 bits carry its address. */
	asm volatile("outl %0, %1" :: "a"((uint32_t)(uint64_t)&uc),
		     "d"((uint16_t)UCALL_PORT) : "memory");
	if (cmd == UCALL_ASSERT || cmd == UCALL_UNHANDLED || cmd == UCALL_DONE) {
		/* The host never resumes these; if it does, stay put. */
		for (;;)
			asm volatile("cli; hlt");
	}
}

/* Called by guest_start with the function and argument from the host. */
void guest_main(guest_fn_t fn, uint64_t arg);
void guest_main(guest_fn_t fn, uint64_t arg)
{
	uint64_t ret = fn(arg);

	guest_ucall(UCALL_DONE, __FILE__, __LINE__, "", 1, &ret);
}

void guest_install_handler(int vector, guest_handler_t fn)
{
	guest_handlers[vector & 0xff] = fn;
}

void guest_irq_count_handler(struct ex_regs *regs)
{
	struct guest_percpu *p = guest_this_cpu();

	p->irq_count++;
	p->last_vector = regs->vector;
	wrmsr(MSR_X2APIC_EOI, 0);
}

/*
 * The handler resumes at regs->rip instead of old_rip: with a shadow stack
 * (ssp != 0) make the shadow-stack frame say so too, or IRET would #CP.
 * WRSS needs S_CET.WRSS_EN, set just for the write. False: the frame is
 * not the delivered one, the exception must be reported instead.
 */
static bool guest_shstk_follow(uint64_t ssp, uint64_t old_rip, uint64_t new_rip)
{
	uint64_t lip_at = ssp + GUEST_SHSTK_FRAME_LIP, s_cet;
	enum guest_shstk_plan plan;

	plan = guest_shstk_plan(ssp, ssp ? *(volatile uint64_t *)lip_at : 0, old_rip, new_rip);
	if (plan != GUEST_SHSTK_REWRITE)
		return plan == GUEST_SHSTK_NONE;
	s_cet = rdmsr(MSR_IA32_S_CET);
	if (!(s_cet & CET_WRSS_EN))
		wrmsr(MSR_IA32_S_CET, s_cet | CET_WRSS_EN);
	asm volatile("wrssq %0, (%1)" :: "r"(new_rip), "r"(lip_at) : "memory");
	if (!(s_cet & CET_WRSS_EN))
		wrmsr(MSR_IA32_S_CET, s_cet);
	return true;
}

/* ssp: the SSP right after delivery (guest/entry.S), 0 without shadow stacks. */
void guest_handle_exception(struct ex_regs *regs, uint64_t ssp);
void guest_handle_exception(struct ex_regs *regs, uint64_t ssp)
{
	uint64_t args[4], rip = regs->rip;

	if (regs->vector < 32) {
		for (const struct guest_ex_entry *e = __start_guest_ex_table;
		     e < __stop_guest_ex_table; e++) {
			if (e->insn == regs->rip) {
				regs->rip = e->fixup;
				regs->GUEST_SAFE_FIELD = GUEST_FAULT_CODE(regs->vector);
				if (guest_shstk_follow(ssp, rip, regs->rip))
					return;
				regs->rip = rip;
				goto report;
			}
		}
	}
	if (guest_handlers[regs->vector]) {
		guest_handlers[regs->vector](regs);
		if (guest_shstk_follow(ssp, rip, regs->rip))
			return;
		regs->rip = rip;
	}
report:
	args[0] = regs->vector;
	args[1] = regs->error_code;
	args[2] = regs->rip;
	args[3] = read_cr2();
	guest_ucall(UCALL_UNHANDLED, __FILE__, __LINE__, "", 4, args);
}
