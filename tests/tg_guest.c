// SPDX-License-Identifier: GPL-2.0-only
/* tg_guest.c - guest functions used by tests/test_runtime.c. */
#include "guest/guest.h"

uint64_t tg_global_counter;

uint64_t tg_add(uint64_t arg);
uint64_t tg_add(uint64_t arg)
{
	uint64_t s = 0;

	for (uint64_t i = 1; i <= arg; i++)
		s += i;
	return s;
}

uint64_t tg_sync_twice(uint64_t arg);
uint64_t tg_sync_twice(uint64_t arg)
{
	GUEST_SYNC(arg, 0xabc);
	GUEST_SYNC(arg + 1);
	return arg + 2;
}

uint64_t tg_assert_fails(uint64_t arg);
uint64_t tg_assert_fails(uint64_t arg)
{
	GUEST_ASSERT_EQ(arg + 1, 43);
	return 0;
}

uint64_t tg_bad_cr4(uint64_t arg);
uint64_t tg_bad_cr4(uint64_t arg)
{
	write_cr4(read_cr4() | (1ULL << 15));	/* reserved */
	return 1;
}

uint64_t tg_bad_cr4_safe(uint64_t arg);
uint64_t tg_bad_cr4_safe(uint64_t arg)
{
	return guest_write_cr4_safe(read_cr4() | (1ULL << 15));
}

uint64_t tg_rdmsr_safe_bogus(uint64_t arg);
uint64_t tg_rdmsr_safe_bogus(uint64_t arg)
{
	uint64_t v;

	return guest_rdmsr_safe(0xdeadbeef, &v);
}

uint64_t tg_null_deref(uint64_t arg);
uint64_t tg_null_deref(uint64_t arg)
{
	return *(volatile uint64_t *)(arg + 8);
}

uint64_t tg_outs(uint64_t arg);
uint64_t tg_outs(uint64_t arg)
{
	GUEST_SYNC(0);
	for (int i = 0; i < 37; i++)
		outb(0x80, i);
	GUEST_SYNC(1);
	return 0;
}

uint64_t tg_globals(uint64_t arg);
uint64_t tg_globals(uint64_t arg)
{
	tg_global_counter += arg;
	return tg_global_counter;
}

uint64_t tg_forever(uint64_t arg);
uint64_t tg_forever(uint64_t arg)
{
	for (;;)
		asm volatile("" ::: "memory");
	return 0;
}

/* Load an empty IDT and fault: #GP -> #GP -> #DF -> triple fault. */
uint64_t tg_triple_fault(uint64_t arg);
uint64_t tg_triple_fault(uint64_t arg)
{
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) idtr = { 0, 0 };

	asm volatile("lidt %0" :: "m"(idtr) : "memory");
	write_cr4(read_cr4() | (1ULL << 15));	/* reserved: #GP with no IDT */
	return 1;
}

/* xgetbv: emulation failure where guest code is emulated without XSAVE. */
uint64_t tg_xgetbv(uint64_t arg);
uint64_t tg_xgetbv(uint64_t arg)
{
	uint64_t v = 0;

	guest_write_cr4_safe(read_cr4() | X86_CR4_OSXSAVE);
	return guest_xgetbv_safe(0, &v) ? 0xdead : v;
}

/* An installed handler sees the vector and can skip the instruction. */
static void tg_ud_handler(struct ex_regs *regs)
{
	regs->rip += 2;		/* ud2 */
	regs->rax = 0x5a;
}

uint64_t tg_handler(uint64_t arg);
uint64_t tg_handler(uint64_t arg)
{
	uint64_t rax = 0;

	guest_install_handler(UD_VECTOR, tg_ud_handler);
	asm volatile("ud2" : "+a"(rax));
	guest_install_handler(UD_VECTOR, 0);
	return rax;
}

/* Printf through the call channel, then a value. */
uint64_t tg_print(uint64_t arg);
uint64_t tg_print(uint64_t arg)
{
	GUEST_PRINTF("value %lu hex %#lx %s", arg, arg);
	return arg;
}

/* Counts to arg, syncing every 1000 iterations. */
uint64_t tg_count_sync(uint64_t arg);
uint64_t tg_count_sync(uint64_t arg)
{
	uint64_t i;

	for (i = 0; i < arg; i++)
		if (i % 1000 == 999)
			GUEST_SYNC(i);
	return i;
}

/*
 * guest_shstk_begin/end on the IDT: bits 0-7 the gates with a non-zero IST
 * before (count), 8-15 after begin, 16-23 after end; bit 24 armed in
 * between, bit 25 disarmed after. No shadow stack is enabled in between.
 */
extern uint8_t guest_shstk_armed;
static uint64_t tg_ist_gates(void)
{
	const volatile uint64_t *idt = (const volatile uint64_t *)GUEST_IDT;
	uint64_t n = 0;

	for (int v = 0; v < 256; v++)
		n += (idt[2 * v] >> 32 & 7) != 0;
	return n;
}

uint64_t tg_shstk_ist(uint64_t arg);
uint64_t tg_shstk_ist(uint64_t arg)
{
	uint64_t r = tg_ist_gates();

	guest_shstk_begin();
	r |= tg_ist_gates() << 8;
	r |= (uint64_t)(guest_shstk_armed != 0) << 24;
	guest_shstk_end();
	r |= tg_ist_gates() << 16;
	r |= (uint64_t)(guest_shstk_armed == 0) << 25;
	return r;
}
