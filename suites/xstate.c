// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate.c - the xstate check suite as a table: each check with the
 * results it records, run in order on one VM (suites/suite_run.h: Ctrl-C
 * stops it cleanly). The checks are in xstate_xcr0.c and xstate_regs.c.
 */
#include <stdio.h>

#include "base/array_size.h"
#include "suites/suite_run.h"
#include "suites/xstate.h"
#include "suites/xstate_int.h"

static const struct suite_check xs_checks[] = {
	{ { "xcr0_subset_guest" }, .run = xs_check_subset_guest },
	{ { "xcr0_subset_host" }, .run = xs_check_subset_host },
	{ { "xcr0_after_pio_user", "xcr0_after_pio_kernel", "xcr0_after_mmio", "xcr0_after_cpuid",
	    "xcr0_after_hlt", "xcr0_after_signal" }, .run = xs_check_exits },
	{ { "host_vector_state" }, .run = xs_check_host_vec },
	{ { "guest_vector_state" }, .run = xs_check_guest_vec },
	{ { "set_xsave_guest_view" }, .run = xs_check_set_xsave },
	{ { "set_xcrs_guest_view" }, .run = xs_check_set_xcrs },
	{ { "xss" }, .run = xs_check_xss },
	{ { "pkru" }, .run = xs_check_pkru },
};

void xstate_checks(const struct suite_env *env, struct check_report *rep)
{
	struct xs_ctx x = { .env = env, .rep = rep };
	struct err err;

	if (xs_ctx_init(&x, &err)) {
		check_add(rep, XS_SUITE, "vm", CHECK_FAIL, "cannot build a VM: %s", err.msg);
		return;
	}
	suite_run(env, rep, XS_SUITE, xs_checks, ARRAY_SIZE(xs_checks), &x);
	xs_ctx_free(&x);
}
