/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guest.h - the API for code that runs inside the test VM (*_guest.c).
 *
 * Guest code is plain freestanding C: no libc, general registers only. It
 * talks to the host through ucalls (GUEST_SYNC, GUEST_PRINTF, GUEST_ASSERT*,
 * return from the guest function = done) and uses the *_safe helpers to run
 * instructions that may fault: they return 0, or GUEST_FAULT | vector.
 */
#ifndef EXITSCOPE_GUEST_GUEST_H
#define EXITSCOPE_GUEST_GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/array_size.h"
#include "guest/ex_regs.h"	/* struct ex_regs: saved state of an exception (guest/entry.S) */
#include "guest/layout.h"
#include "guest/status.h"	/* guest_fn_t, GUEST_FAULT and the other status codes */
#include "guest/ucall.h"
#include "kvm/abi.h"

typedef void (*guest_handler_t)(struct ex_regs *regs);

/* Per-vCPU block at GS base. */
struct guest_percpu {
	struct guest_percpu *self;
	uint64_t id;
	uint64_t irq_count;	/* interrupts seen by guest_irq_count_handler */
	uint64_t last_vector;
	uint64_t scratch[8];
};

/*
 * ucalls. Arguments are collected into a u64 array, so every value is
 * converted to uint64_t (pointers need a cast).
 */
void guest_ucall(uint64_t cmd, const char *file, uint64_t line, const char *str,
		 uint64_t nargs, const uint64_t *args);
#define __GUEST_UCALL(cmd, str, ...) do {					\
	const uint64_t __ua[] = { 0, ##__VA_ARGS__ };				\
	guest_ucall(cmd, __FILE__, __LINE__, str,				\
		    ARRAY_SIZE(__ua) - 1, __ua + 1);		\
} while (0)
#define GUEST_SYNC(...)		__GUEST_UCALL(UCALL_SYNC, "", ##__VA_ARGS__)
/* fmt: integer conversions only (%d %u %x %lx %llu ... %%), checked by the host. */
#define GUEST_PRINTF(fmt, ...)	__GUEST_UCALL(UCALL_PRINT, fmt, ##__VA_ARGS__)
#define __GUEST_ASSERT(cond, str, ...) do {					\
	if (!(cond)) {								\
		__GUEST_UCALL(UCALL_ASSERT, str, ##__VA_ARGS__);		\
		__builtin_unreachable();					\
	}									\
} while (0)
#define GUEST_ASSERT(cond)	__GUEST_ASSERT(cond, #cond)
#define GUEST_ASSERT_1(cond, v)	__GUEST_ASSERT(cond, #cond, (uint64_t)(v))
#define GUEST_ASSERT_EQ(a, b) do {						\
	uint64_t __a = (uint64_t)(a), __b = (uint64_t)(b);			\
	__GUEST_ASSERT(__a == __b, #a " == " #b, __a, __b);			\
} while (0)
#define GUEST_FAIL(str, ...)	__GUEST_ASSERT(0, str, ##__VA_ARGS__)

struct guest_percpu *guest_this_cpu(void);
static inline uint64_t guest_vcpu_id(void) { return guest_this_cpu()->id; }
void guest_install_handler(int vector, guest_handler_t fn);
/* Counts interrupts in guest_this_cpu()->irq_count and EOIs the x2APIC. */
void guest_irq_count_handler(struct ex_regs *regs);

#define X86_RFLAGS_IF	(1ULL << 9)
/* Each vector's IDT stub; the stubs and their common path: delivery to the C handler. */
extern const uint64_t guest_idt_stubs[256];
extern const char guest_isr_begin[], guest_isr_end[];
static inline bool guest_rip_in_isr_entry(uint64_t rip)
{
	return rip >= (uint64_t)guest_isr_begin && rip < (uint64_t)guest_isr_end;
}

/*
 * "Safe" instruction execution: exception table entries (struct
 * guest_ex_entry, guest/ex_regs.h); on a fault below vector 32 the handler
 * resumes at the fixup with GUEST_FAULT | vector in GUEST_SAFE_FIELD.
 */
#define __GUEST_STR(x)		#x
#define GUEST_STR(x)		__GUEST_STR(x)
#define GUEST_EX_ENTRY(insn, fixup)					\
	".pushsection guest_ex_table, \"a\"\n\t"			\
	".balign 8\n\t"							\
	".quad " insn ", " fixup "\n\t.popsection\n\t"
/* Generic form: asm(GUEST_ASM_SAFE("insn") : GUEST_ASM_SAFE_OUT(r) ...). */
#define GUEST_ASM_SAFE(insn)						\
	"xor %%" GUEST_STR(GUEST_SAFE_FIELD) ", %%" GUEST_STR(GUEST_SAFE_FIELD) "\n\t"	\
	"1: " insn "\n\t2:\n\t" GUEST_EX_ENTRY("1b", "2b")
#define GUEST_ASM_SAFE_OUT(v)	"=&r"(v)
#define GUEST_SAFE_REG		register uint64_t __safe_fault asm(GUEST_STR(GUEST_SAFE_FIELD))

static inline int guest_rdmsr_safe(uint32_t msr, uint64_t *val)
{
	GUEST_SAFE_REG;
	uint32_t lo = 0, hi = 0;

	asm volatile(GUEST_ASM_SAFE("rdmsr")
		     : GUEST_ASM_SAFE_OUT(__safe_fault), "+a"(lo), "+d"(hi)
		     : "c"(msr) : "memory");
	*val = lo | (uint64_t)hi << 32;
	return (int)__safe_fault;
}

static inline int guest_wrmsr_safe(uint32_t msr, uint64_t val)
{
	GUEST_SAFE_REG;

	asm volatile(GUEST_ASM_SAFE("wrmsr")
		     : GUEST_ASM_SAFE_OUT(__safe_fault)
		     : "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
		     : "memory");
	return (int)__safe_fault;
}

static inline int guest_xsetbv_safe(uint32_t idx, uint64_t val)
{
	GUEST_SAFE_REG;

	asm volatile(GUEST_ASM_SAFE("xsetbv")
		     : GUEST_ASM_SAFE_OUT(__safe_fault)
		     : "c"(idx), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
		     : "memory");
	return (int)__safe_fault;
}

static inline int guest_xgetbv_safe(uint32_t idx, uint64_t *val)
{
	GUEST_SAFE_REG;
	uint32_t lo = 0, hi = 0;

	asm volatile(GUEST_ASM_SAFE("xgetbv")
		     : GUEST_ASM_SAFE_OUT(__safe_fault), "+a"(lo), "+d"(hi)
		     : "c"(idx) : "memory");
	*val = lo | (uint64_t)hi << 32;
	return (int)__safe_fault;
}

static inline int guest_write_cr0_safe(uint64_t val)
{
	GUEST_SAFE_REG;

	asm volatile(GUEST_ASM_SAFE("mov %[v], %%cr0")
		     : GUEST_ASM_SAFE_OUT(__safe_fault) : [v] "r"(val) : "memory");
	return (int)__safe_fault;
}

static inline int guest_write_cr4_safe(uint64_t val)
{
	GUEST_SAFE_REG;

	asm volatile(GUEST_ASM_SAFE("mov %[v], %%cr4")
		     : GUEST_ASM_SAFE_OUT(__safe_fault) : [v] "r"(val) : "memory");
	return (int)__safe_fault;
}

/*
 * CET-safe exception handling. With supervisor shadow stacks on (CR4.CET and
 * S_CET.SH_STK_EN), delivering an exception at CPL0 also pushes the old CS,
 * LIP (= RIP, CS base 0) and SSP onto the shadow stack, and IRET #CPs unless
 * the frame's RIP and CS still match those: a handler that resumes elsewhere
 * (safe-helper fixup, installed handler) must rewrite the shadow-stack LIP
 * too. While guest code has armed the runtime for shadow stacks
 * (guest_shstk_begin), guest/entry.S hands the handler the SSP at delivery
 * (RDSSP: 0 while shadow stacks are off); guest_shstk_plan() decides, from
 * given values:
 */
enum guest_shstk_plan {
	GUEST_SHSTK_NONE,	/* no shadow stack, or RIP unchanged: plain IRET */
	GUEST_SHSTK_REWRITE,	/* WRSS the new RIP over the frame's LIP, then IRET */
	GUEST_SHSTK_REPORT,	/* the frame is not the one delivered for old_rip: report */
};
static inline enum guest_shstk_plan guest_shstk_plan(uint64_t ssp, uint64_t frame_lip,
						      uint64_t old_rip, uint64_t new_rip)
{
	if (!ssp || new_rip == old_rip)
		return GUEST_SHSTK_NONE;
	return frame_lip == old_rip ? GUEST_SHSTK_REWRITE : GUEST_SHSTK_REPORT;
}
/* Where the LIP of the shadow-stack frame at ssp lies (SSP, LIP, CS upwards). */
#define GUEST_SHSTK_FRAME_LIP	8

/*
 * Call guest_shstk_begin() before setting CR4.CET with S_CET.SH_STK_EN and
 * guest_shstk_end() after clearing them (no nesting). Begin arms the SSP
 * read in guest/entry.S (RDSSP is not executed otherwise: an emulating host
 * may not know it) and clears the IST index of every IDT gate: with
 * supervisor shadow stacks an IST gate switches SSP to INT_SSP_TAB[ist] and
 * demands a supervisor token there, which the runtime does not provide
 * (NMI, #DF and #MC use IST1 otherwise). End restores both.
 */
void guest_shstk_begin(void);
void guest_shstk_end(void);

/* Plain instructions. */
static inline uint64_t read_cr0(void)
{
	uint64_t v;

	asm volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}
static inline uint64_t read_cr2(void)
{
	uint64_t v;

	asm volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}
static inline uint64_t read_cr3(void)
{
	uint64_t v;

	asm volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}
static inline uint64_t read_cr4(void)
{
	uint64_t v;

	asm volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}
static inline uint64_t read_cr8(void)
{
	uint64_t v;

	asm volatile("mov %%cr8, %0" : "=r"(v));
	return v;
}
static inline void write_cr0(uint64_t v) { asm volatile("mov %0, %%cr0" :: "r"(v) : "memory"); }
static inline void write_cr3(uint64_t v) { asm volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline void write_cr4(uint64_t v) { asm volatile("mov %0, %%cr4" :: "r"(v) : "memory"); }
static inline void write_cr8(uint64_t v) { asm volatile("mov %0, %%cr8" :: "r"(v) : "memory"); }

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr) : "memory");
	return lo | (uint64_t)hi << 32;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	asm volatile("wrmsr" :: "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline void guest_cpuid(uint32_t fn, uint32_t idx, uint32_t *a, uint32_t *b,
			       uint32_t *c, uint32_t *d)
{
	asm volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
		     : "a"(fn), "c"(idx) : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return lo | (uint64_t)hi << 32;
}

/* TSC read that does not pass earlier or later instructions. */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	asm volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) :: "memory");
	return lo | (uint64_t)hi << 32;
}

static inline void outb(uint16_t port, uint8_t v)
{
	asm volatile("outb %0, %1" :: "a"(v), "Nd"(port) : "memory");
}

static inline void outl(uint16_t port, uint32_t v)
{
	asm volatile("outl %0, %1" :: "a"(v), "Nd"(port) : "memory");
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

static inline void cli(void) { asm volatile("cli" ::: "memory"); }
static inline void sti(void) { asm volatile("sti" ::: "memory"); }
static inline void safe_halt(void) { asm volatile("sti; hlt" ::: "memory"); }
static inline void cpu_relax(void) { asm volatile("pause" ::: "memory"); }
static inline void mmio_write32(uint64_t addr, uint32_t v) { *(volatile uint32_t *)addr = v; }
static inline uint32_t mmio_read32(uint64_t addr) { return *(volatile uint32_t *)addr; }

#endif
