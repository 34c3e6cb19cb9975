/* xstate_int.h - state shared by the files of the xstate check suite. */
#ifndef EXITSCOPE_SUITES_XSTATE_INT_H
#define EXITSCOPE_SUITES_XSTATE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "guest/vm.h"
#include "results/check.h"
#include "suites/suite_env.h"
#include "host/xstate_cpu.h"

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
};

bool xs_stopped(const struct xs_ctx *x);
int xs_get_xcr0(struct xs_ctx *x, uint64_t *val);
int xs_set_xcr0(struct xs_ctx *x, uint64_t val);
void xs_fill(uint8_t *p, size_t n, uint8_t seed);

void xs_check_host_vec(struct xs_ctx *x);
void xs_check_guest_vec(struct xs_ctx *x);
void xs_check_set_xsave(struct xs_ctx *x);
void xs_check_xss(struct xs_ctx *x);
void xs_check_pkru(struct xs_ctx *x);

#endif
