/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu.h - what the exitscope process reads from the host CPU itself
 * (CPUID, XCR0, /proc/cpuinfo), as opposed to what KVM says it supports
 * (the host record, host/hostinfo.h). Every such read outside host/
 * goes through here.
 */
#ifndef EXITSCOPE_HOST_CPU_H
#define EXITSCOPE_HOST_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "kvm/cpuid.h"

/* CPUID leaf/subleaf on the host CPU; false (regs zeroed) beyond its max leaf. */
bool host_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);
/* A typed feature bit (kvm/cpuid.h) in the host CPU's own CPUID. */
bool host_cpu_has(enum x86_feat f);
/* XGETBV(0) as is: only where OSXSAVE is set (else #UD). */
uint64_t host_cpu_xgetbv(void);
/* The process's XCR0, 0 when the host has no OSXSAVE (xgetbv not usable). */
uint64_t host_cpu_xcr0(void);
/* A whole-word flag in the first "flags" line of /proc/cpuinfo. */
bool host_cpuinfo_flag(const char *flag);

#endif
