// SPDX-License-Identifier: GPL-2.0-only
/* hostinfo_guest.c - the known instruction loop used to tell native from emulated guests. */
#include "guest/guest.h"

/* Runs exactly 2 * arg + 1 instructions between the two syncs. */
uint64_t hostinfo_exec_loop(uint64_t arg);
uint64_t hostinfo_exec_loop(uint64_t arg)
{
	GUEST_SYNC(0);
	asm volatile("mov %0, %%rcx\n\t"
		     "1: dec %%rcx\n\t"
		     "jnz 1b" :: "r"(arg) : "rcx", "cc");
	GUEST_SYNC(1);
	return 0;
}
