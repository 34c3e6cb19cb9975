/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * census_names.h - the names an exit path's census gives the operands of
 * the costly instructions it counts: MSRs by kvm/msr.def ("IA32_XSS"), VMCS
 * fields by KVM's names for their encodings ("VM_EXIT_REASON"), "XCR0",
 * "CR4", "DR7"; an index no table names as its raw hex ("0x4826").
 */
#ifndef EXITSCOPE_PROFILE_CENSUS_NAMES_H
#define EXITSCOPE_PROFILE_CENSUS_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for any name census_operand_name writes into its buffer. */
#define CENSUS_NAME_MAX	40

/*
 * The name of insn's operand (insn as the instrumentation module names it:
 * "wrmsr", "vmread", "xsetbv", "mov_to_cr", ...): NULL when it has none
 * (!has_operand), else a constant string or buf (len bytes) holding it.
 * An operand of a kind without a table (a kind added to the module later)
 * is its raw hex too.
 */
const char *census_operand_name(const char *insn, bool has_operand, uint64_t operand,
				char *buf, size_t len);

/* KVM's name of a VMCS field encoding, or NULL. */
const char *census_vmcs_field_name(uint64_t encoding);

#endif
