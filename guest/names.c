// SPDX-License-Identifier: GPL-2.0-only
/* names.c - printable names for guest outcomes, KVM exit reasons and vectors. */
#include "base/array_size.h"
#include "guest/vm.h"

const char *guest_exit_name(enum guest_exit e)
{
	static const char *const names[] = {
		[GUEST_SYNC] = "sync", [GUEST_DONE] = "done",
		[GUEST_ASSERT_FAILED] = "assert", [GUEST_EXCEPTION] = "exception",
		[GUEST_HANG] = "hang", [GUEST_SHUTDOWN] = "shutdown",
		[GUEST_HALTED] = "halted", [GUEST_EMULATION_FAILURE] = "emulation-failure",
		[GUEST_INTERNAL_ERROR] = "internal-error", [GUEST_FAIL_ENTRY] = "fail-entry",
		[GUEST_UNEXPECTED_EXIT] = "unexpected-exit", [GUEST_STOPPED] = "stopped",
		[GUEST_ERROR] = "error",
	};

	return (unsigned int)e < ARRAY_SIZE(names) && names[e] ? names[e] : "?";
}

const char *kvm_exit_reason_name(uint32_t reason)
{
	static const char *const names[] = {
		"UNKNOWN", "EXCEPTION", "IO", "HYPERCALL", "DEBUG", "HLT", "MMIO",
		"IRQ_WINDOW_OPEN", "SHUTDOWN", "FAIL_ENTRY", "INTR", "SET_TPR",
		"TPR_ACCESS", "S390_SIEIC", "S390_RESET", "DCR", "NMI", "INTERNAL_ERROR",
		"OSI", "PAPR_HCALL", "S390_UCONTROL", "WATCHDOG", "S390_TSCH", "EPR",
		"SYSTEM_EVENT", "S390_STSI", "IOAPIC_EOI", "HYPERV", "ARM_NISV",
		"X86_RDMSR", "X86_WRMSR", "DIRTY_RING_FULL", "AP_RESET_HOLD",
		"X86_BUS_LOCK", "XEN", "RISCV_SBI", "RISCV_CSR", "NOTIFY",
		"LOONGARCH_IOCSR", "MEMORY_FAULT", "TDX",
	};

	return reason < ARRAY_SIZE(names) ? names[reason] : "?";
}

const char *vector_name(unsigned int v)
{
	static const char *const names[32] = {
		"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#CSO",
		"#TS", "#NP", "#SS", "#GP", "#PF", "#15", "#MF", "#AC", "#MC", "#XM",
		"#VE", "#CP", "#22", "#23", "#24", "#25", "#26", "#27", "#HV", "#VC",
		"#SX", "#31",
	};

	return v < 32 ? names[v] : "interrupt";
}
