// SPDX-License-Identifier: GPL-2.0-only
/*
 * map_guest.c - guest side of the CR0/CR4 ownership map: apply the
 * prerequisites, check that one toggle of the bit is accepted, then for
 * each round sync, do map_g_ops CR writes (alternately flipping and
 * restoring the bit) or CR reads between two TSC reads, and sync again with
 * the TSC delta. The host takes the stats-fd delta between the two syncs.
 */
#include "guest/guest.h"
#include "map/map_guest.h"

/* Parameters, set by the host before each call (per-VM guest globals). */
uint64_t map_g_reg;		/* 0, 3, 4 or 8 */
uint64_t map_g_mask;		/* bit to flip (toggle) or 0 (read) */
uint64_t map_g_ops;		/* writes or reads per round, even */
uint64_t map_g_rounds;
uint64_t map_g_pre_cr0;		/* CR0 bits to set first (e.g. WP before CR4.CET) */
uint64_t map_g_pre_cr4;

#define TOGGLE_LOOP(cr, v, a, pairs) do {					\
	for (uint64_t __i = 0; __i < (pairs); __i++) {			\
		asm volatile("mov %0, %%" cr :: "r"(a) : "memory");	\
		asm volatile("mov %0, %%" cr :: "r"(v) : "memory");	\
	}								\
} while (0)

#define READ_LOOP(cr, n) do {						\
	uint64_t __v;							\
	for (uint64_t __i = 0; __i < (n); __i++)			\
		asm volatile("mov %%" cr ", %0" : "=r"(__v) :: "memory"); \
} while (0)

static uint64_t map_do_round(uint64_t reg, uint64_t mask, uint64_t ops)
{
	uint64_t t0, t1, v;

	t0 = rdtsc_ordered();
	if (!mask) {
		switch (reg) {
		case 0: READ_LOOP("cr0", ops); break;
		case 3: READ_LOOP("cr3", ops); break;
		case 4: READ_LOOP("cr4", ops); break;
		default: READ_LOOP("cr8", ops); break;
		}
	} else if (reg == 0) {
		v = read_cr0();
		TOGGLE_LOOP("cr0", v, v ^ mask, ops / 2);
	} else {
		v = read_cr4();
		TOGGLE_LOOP("cr4", v, v ^ mask, ops / 2);
	}
	t1 = rdtsc_ordered();
	return t1 - t0;
}

static int map_write_cr(uint64_t reg, uint64_t v)
{
	return reg == 0 ? guest_write_cr0_safe(v) : guest_write_cr4_safe(v);
}

uint64_t map_guest_run(uint64_t arg)
{
	uint64_t cr0 = read_cr0(), cr4 = read_cr4();
	uint64_t reg = map_g_reg, mask = map_g_mask, v;
	int r;

	if (map_g_pre_cr0 && (cr0 | map_g_pre_cr0) != cr0) {
		r = guest_write_cr0_safe(cr0 | map_g_pre_cr0);
		if (r)
			return GUEST_FAULT_PREREQ | r;
	}
	if (map_g_pre_cr4 && (cr4 | map_g_pre_cr4) != cr4) {
		r = guest_write_cr4_safe(cr4 | map_g_pre_cr4);
		if (r) {
			write_cr0(cr0);
			return GUEST_FAULT_PREREQ | r;
		}
	}
	if (mask) {
		v = reg == 0 ? read_cr0() : read_cr4();
		r = map_write_cr(reg, v ^ mask);
		if (r) {
			write_cr4(cr4);
			write_cr0(cr0);
			return r;
		}
		map_write_cr(reg, v);
	}
	for (uint64_t i = 0; i < map_g_rounds; i++) {
		GUEST_SYNC(MAP_SYNC_BEGIN, i);
		GUEST_SYNC(MAP_SYNC_END, i, map_do_round(reg, mask, map_g_ops));
	}
	write_cr4(cr4);
	write_cr0(cr0);
	return 0;
}
