/* suites.c - the table of check suites, in the order `exitscope check` runs them. */
#include "suites/suites.h"
#include "suites/cet.h"

const struct check_suite check_suites[] = {
	/* { "name", "summary", name_checks }, one line per suite */
	{ "cet", "CET (shadow stacks, IBT): CPUID policy, MSRs, GUEST_SSP, CR4.CET, #CP in guests", cet_checks },
};
const size_t nr_check_suites = sizeof(check_suites) / sizeof(check_suites[0]);
