// SPDX-License-Identifier: GPL-2.0-only
/* suites.c - the table of check suites, in the order `exitscope check` runs them. */
#include "base/array_size.h"
#include "suites/suites.h"
#include "suites/cet.h"
#include "suites/irq.h"
#include "suites/migrate.h"
#include "suites/xstate.h"

const struct check_suite check_suites[] = {
	/* { "name", "summary", name_checks }, one row per suite */
	{ "xstate", "XCR0/XSS/PKRU and vector state isolation across exits", xstate_checks },
	{ "cet", "CET (shadow stacks, IBT): CPUID policy, MSRs, GUEST_SSP, CR4.CET, #CP in guests",
	  cet_checks },
	{ "migrate", "vCPU state save/restore: a running guest moved into a new VM checks itself",
	  migrate_checks },
	{ "irq", "interrupts taken at the instruction boundary the architecture or KVM names"
	  " (STI shadow, self IPI, TSC deadline)", irq_checks },
};
const size_t nr_check_suites = ARRAY_SIZE(check_suites);
