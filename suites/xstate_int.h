/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xstate_int.h - state shared by the files of the xstate check suite:
 * xstate.c (the table of checks) uses xstate_xcr0.c and xstate_regs.c
 * (the checks), which use xstate_ctx.c (the VM, hook and helpers).
 */
#ifndef EXITSCOPE_SUITES_XSTATE_INT_H
#define EXITSCOPE_SUITES_XSTATE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "guest/vm.h"
#include "host/hostinfo.h"
#include "host/cpu.h"
#include "host/xstate_cpu.h"
#include "results/check_model.h"
#include "harness/suite_env.h"
#include "suites/xstate_decide.h"

#define XS_SUITE	"xstate"
#define XS_BUDGET_MS	10000

/* What the exit hook sees on each claimed exit, right after KVM_RUN returned. */
struct xs_hook {
	struct xs_host_cpu cpu;		/* the process's own XCR0 / PKRU at start */
	uint32_t pkru0;
	uint64_t hits;
	uint64_t xcr0_bad, xcr0_last;	/* host XCR0 differed from cpu.xcr0 */
	uint64_t pkru_bad, pkru_last;
};

struct xs_ctx {
	const struct suite_env *env;
	struct check_report *rep;
	struct vm *vm;
	struct vcpu *v;
	struct xs_hook hook;
	bool irqchip;
	bool guest_xsave;		/* guest CPUID has XSAVE */
	bool guest_xgetbv;		/* the guest can run xgetbv */
	char no_xgetbv[200];		/* why not */
	uint64_t subset;		/* guest XCR0 established, 0: none */
	char subset_how[64];
	bool subset_by_guest;		/* the guest's own XSETBV set it (KVM saw it) */
};

/* xstate_ctx.c */
/* Host CPU state, the VM (with an in-kernel irqchip if possible) and the XCR0 subset. */
int xs_ctx_init(struct xs_ctx *x, struct err *err);
void xs_ctx_free(struct xs_ctx *x);
int xs_get_xcr0(struct xs_ctx *x, uint64_t *val);
int xs_set_xcr0(struct xs_ctx *x, uint64_t val);
void xs_fill(uint8_t *p, size_t n, uint8_t seed);
/* "0x..." into buf (XS_EV_LEN): a register value as structured evidence. */
void xs_hex(char *buf, uint64_t v);
/* "xcr0=0x... via=<evidence>" into buf (XS_EV_LEN): an XCR0 value and where it was read. */
void xs_ev_xcr0(char *buf, uint64_t v, const char *via);
/* "guest <exit>: <message>" of a run that did not end as the check wanted. */
const char *xs_outcome(const struct guest_result *res, char *buf, size_t len);
/* Such a run's status: skip when the host could not emulate the guest, else fail. */
enum check_status xs_outcome_status(const struct guest_result *res);

/* The checks, each given the struct xs_ctx (suite_run's ctx); run in this order. */
void xs_check_subset_guest(void *x);	/* xstate_xcr0.c */
void xs_check_subset_host(void *x);
void xs_check_exits(void *x);
void xs_check_host_vec(void *x);	/* xstate_regs.c */
void xs_check_guest_vec(void *x);
void xs_check_set_xsave(void *x);
void xs_check_set_xcrs(void *x);	/* xstate_xcr0.c */
void xs_check_xss(void *x);		/* xstate_regs.c */
void xs_check_pkru(void *x);

#endif
