/*
 * irq.h - `exitscope check irq`: interrupts taken at the instruction
 * boundary the architecture (or KVM) names: a self IPI pending at STI after
 * the one instruction of its shadow, one sent with IF=1 right after the
 * WRMSR, an expired TSC deadline by the NOP after its WRMSR; the
 * conformance fact behind the delivery counts of `exitscope run`.
 */
#ifndef EXITSCOPE_SUITES_IRQ_H
#define EXITSCOPE_SUITES_IRQ_H

#include "results/check.h"
#include "suites/suite_env.h"

void irq_checks(const struct suite_env *env, struct check_report *rep);

#endif
