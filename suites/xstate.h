/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xstate.h - `exitscope check xstate`: does the host keep guest and host
 * XSAVE-managed state apart across every kind of exit? XCR0 (a guest
 * subset vs the host's, after userspace PIO, in-kernel PIO, MMIO, CPUID,
 * HLT with wake-up and a signal), host and guest vector registers,
 * IA32_XSS, PKRU, and KVM_SET_XCRS / KVM_SET_XSAVE as the guest sees them.
 */
#ifndef EXITSCOPE_SUITES_XSTATE_H
#define EXITSCOPE_SUITES_XSTATE_H

#include "results/check_model.h"
#include "harness/suite_env.h"

void xstate_checks(const struct suite_env *env, struct check_report *rep);

#endif
