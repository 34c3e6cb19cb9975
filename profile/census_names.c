// SPDX-License-Identifier: GPL-2.0-only
/*
 * census_names.c - a census's operand names (profile/census_names.h). The
 * VMCS field encodings and their names are KVM's (arch/x86/include/asm/
 * vmx.h, enum vmcs_field), for the fields its VMX exit and entry paths read
 * and write; MSR names are kvm/msr.def's, the tree's one table of them.
 */
#include <stdio.h>
#include <string.h>

#include "base/array_size.h"
#include "kvm/msr.h"
#include "profile/census_names.h"

static const struct {
	uint32_t enc;
	const char *name;
} vmcs_fields[] = {
	{ 0x0000, "VIRTUAL_PROCESSOR_ID" },
	{ 0x0002, "POSTED_INTR_NV" },
	{ 0x0800, "GUEST_ES_SELECTOR" },
	{ 0x0802, "GUEST_CS_SELECTOR" },
	{ 0x0804, "GUEST_SS_SELECTOR" },
	{ 0x0806, "GUEST_DS_SELECTOR" },
	{ 0x0808, "GUEST_FS_SELECTOR" },
	{ 0x080a, "GUEST_GS_SELECTOR" },
	{ 0x080c, "GUEST_LDTR_SELECTOR" },
	{ 0x080e, "GUEST_TR_SELECTOR" },
	{ 0x0810, "GUEST_INTR_STATUS" },
	{ 0x0812, "GUEST_PML_INDEX" },
	{ 0x0c02, "HOST_CS_SELECTOR" },
	{ 0x0c08, "HOST_FS_SELECTOR" },
	{ 0x0c0a, "HOST_GS_SELECTOR" },
	{ 0x2000, "IO_BITMAP_A" },
	{ 0x2002, "IO_BITMAP_B" },
	{ 0x2004, "MSR_BITMAP" },
	{ 0x2006, "VM_EXIT_MSR_STORE_ADDR" },
	{ 0x2008, "VM_EXIT_MSR_LOAD_ADDR" },
	{ 0x200a, "VM_ENTRY_MSR_LOAD_ADDR" },
	{ 0x200e, "PML_ADDRESS" },
	{ 0x2010, "TSC_OFFSET" },
	{ 0x2012, "VIRTUAL_APIC_PAGE_ADDR" },
	{ 0x2014, "APIC_ACCESS_ADDR" },
	{ 0x2016, "POSTED_INTR_DESC_ADDR" },
	{ 0x201a, "EPT_POINTER" },
	{ 0x201c, "EOI_EXIT_BITMAP0" },
	{ 0x201e, "EOI_EXIT_BITMAP1" },
	{ 0x2020, "EOI_EXIT_BITMAP2" },
	{ 0x2022, "EOI_EXIT_BITMAP3" },
	{ 0x202c, "XSS_EXIT_BITMAP" },
	{ 0x2032, "TSC_MULTIPLIER" },
	{ 0x2400, "GUEST_PHYSICAL_ADDRESS" },
	{ 0x2800, "VMCS_LINK_POINTER" },
	{ 0x2802, "GUEST_IA32_DEBUGCTL" },
	{ 0x2804, "GUEST_IA32_PAT" },
	{ 0x2806, "GUEST_IA32_EFER" },
	{ 0x2808, "GUEST_IA32_PERF_GLOBAL_CTRL" },
	{ 0x280a, "GUEST_PDPTR0" },
	{ 0x280c, "GUEST_PDPTR1" },
	{ 0x280e, "GUEST_PDPTR2" },
	{ 0x2810, "GUEST_PDPTR3" },
	{ 0x2812, "GUEST_BNDCFGS" },
	{ 0x2814, "GUEST_IA32_RTIT_CTL" },
	{ 0x2c00, "HOST_IA32_PAT" },
	{ 0x2c02, "HOST_IA32_EFER" },
	{ 0x2c04, "HOST_IA32_PERF_GLOBAL_CTRL" },
	{ 0x4000, "PIN_BASED_VM_EXEC_CONTROL" },
	{ 0x4002, "CPU_BASED_VM_EXEC_CONTROL" },
	{ 0x4004, "EXCEPTION_BITMAP" },
	{ 0x4006, "PAGE_FAULT_ERROR_CODE_MASK" },
	{ 0x4008, "PAGE_FAULT_ERROR_CODE_MATCH" },
	{ 0x400a, "CR3_TARGET_COUNT" },
	{ 0x400c, "VM_EXIT_CONTROLS" },
	{ 0x400e, "VM_EXIT_MSR_STORE_COUNT" },
	{ 0x4010, "VM_EXIT_MSR_LOAD_COUNT" },
	{ 0x4012, "VM_ENTRY_CONTROLS" },
	{ 0x4014, "VM_ENTRY_MSR_LOAD_COUNT" },
	{ 0x4016, "VM_ENTRY_INTR_INFO_FIELD" },
	{ 0x4018, "VM_ENTRY_EXCEPTION_ERROR_CODE" },
	{ 0x401a, "VM_ENTRY_INSTRUCTION_LEN" },
	{ 0x401c, "TPR_THRESHOLD" },
	{ 0x401e, "SECONDARY_VM_EXEC_CONTROL" },
	{ 0x4020, "PLE_GAP" },
	{ 0x4022, "PLE_WINDOW" },
	{ 0x4400, "VM_INSTRUCTION_ERROR" },
	{ 0x4402, "VM_EXIT_REASON" },
	{ 0x4404, "VM_EXIT_INTR_INFO" },
	{ 0x4406, "VM_EXIT_INTR_ERROR_CODE" },
	{ 0x4408, "IDT_VECTORING_INFO_FIELD" },
	{ 0x440a, "IDT_VECTORING_ERROR_CODE" },
	{ 0x440c, "VM_EXIT_INSTRUCTION_LEN" },
	{ 0x440e, "VMX_INSTRUCTION_INFO" },
	{ 0x4800, "GUEST_ES_LIMIT" },
	{ 0x4802, "GUEST_CS_LIMIT" },
	{ 0x4804, "GUEST_SS_LIMIT" },
	{ 0x4806, "GUEST_DS_LIMIT" },
	{ 0x4808, "GUEST_FS_LIMIT" },
	{ 0x480a, "GUEST_GS_LIMIT" },
	{ 0x480c, "GUEST_LDTR_LIMIT" },
	{ 0x480e, "GUEST_TR_LIMIT" },
	{ 0x4810, "GUEST_GDTR_LIMIT" },
	{ 0x4812, "GUEST_IDTR_LIMIT" },
	{ 0x4814, "GUEST_ES_AR_BYTES" },
	{ 0x4816, "GUEST_CS_AR_BYTES" },
	{ 0x4818, "GUEST_SS_AR_BYTES" },
	{ 0x481a, "GUEST_DS_AR_BYTES" },
	{ 0x481c, "GUEST_FS_AR_BYTES" },
	{ 0x481e, "GUEST_GS_AR_BYTES" },
	{ 0x4820, "GUEST_LDTR_AR_BYTES" },
	{ 0x4822, "GUEST_TR_AR_BYTES" },
	{ 0x4824, "GUEST_INTERRUPTIBILITY_INFO" },
	{ 0x4826, "GUEST_ACTIVITY_STATE" },
	{ 0x482a, "GUEST_SYSENTER_CS" },
	{ 0x482e, "VMX_PREEMPTION_TIMER_VALUE" },
	{ 0x4c00, "HOST_IA32_SYSENTER_CS" },
	{ 0x6000, "CR0_GUEST_HOST_MASK" },
	{ 0x6002, "CR4_GUEST_HOST_MASK" },
	{ 0x6004, "CR0_READ_SHADOW" },
	{ 0x6006, "CR4_READ_SHADOW" },
	{ 0x6400, "EXIT_QUALIFICATION" },
	{ 0x640a, "GUEST_LINEAR_ADDRESS" },
	{ 0x6800, "GUEST_CR0" },
	{ 0x6802, "GUEST_CR3" },
	{ 0x6804, "GUEST_CR4" },
	{ 0x6806, "GUEST_ES_BASE" },
	{ 0x6808, "GUEST_CS_BASE" },
	{ 0x680a, "GUEST_SS_BASE" },
	{ 0x680c, "GUEST_DS_BASE" },
	{ 0x680e, "GUEST_FS_BASE" },
	{ 0x6810, "GUEST_GS_BASE" },
	{ 0x6812, "GUEST_LDTR_BASE" },
	{ 0x6814, "GUEST_TR_BASE" },
	{ 0x6816, "GUEST_GDTR_BASE" },
	{ 0x6818, "GUEST_IDTR_BASE" },
	{ 0x681a, "GUEST_DR7" },
	{ 0x681c, "GUEST_RSP" },
	{ 0x681e, "GUEST_RIP" },
	{ 0x6820, "GUEST_RFLAGS" },
	{ 0x6822, "GUEST_PENDING_DBG_EXCEPTIONS" },
	{ 0x6824, "GUEST_SYSENTER_ESP" },
	{ 0x6826, "GUEST_SYSENTER_EIP" },
	{ 0x6828, "GUEST_S_CET" },
	{ 0x682a, "GUEST_SSP" },
	{ 0x682c, "GUEST_INTR_SSP_TABLE" },
	{ 0x6c00, "HOST_CR0" },
	{ 0x6c02, "HOST_CR3" },
	{ 0x6c04, "HOST_CR4" },
	{ 0x6c06, "HOST_FS_BASE" },
	{ 0x6c08, "HOST_GS_BASE" },
	{ 0x6c0a, "HOST_TR_BASE" },
	{ 0x6c0c, "HOST_GDTR_BASE" },
	{ 0x6c0e, "HOST_IDTR_BASE" },
	{ 0x6c10, "HOST_IA32_SYSENTER_ESP" },
	{ 0x6c12, "HOST_IA32_SYSENTER_EIP" },
	{ 0x6c14, "HOST_RSP" },
	{ 0x6c16, "HOST_RIP" },
	{ 0x6c18, "HOST_S_CET" },
	{ 0x6c1a, "HOST_SSP" },
	{ 0x6c1c, "HOST_INTR_SSP_TABLE" },
};

const char *census_vmcs_field_name(uint64_t encoding)
{
	for (size_t i = 0; i < ARRAY_SIZE(vmcs_fields); i++)
		if (vmcs_fields[i].enc == encoding)
			return vmcs_fields[i].name;
	return NULL;
}

/* insn is one of the NULL-terminated names. */
static int insn_in(const char *insn, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(insn, *names))
			return 1;
	return 0;
}

const char *census_operand_name(const char *insn, bool has_operand, uint64_t operand,
				char *buf, size_t len)
{
	static const char *const msr[] = { "wrmsr", "rdmsr", NULL };
	static const char *const vmcs[] = { "vmread", "vmwrite", NULL };
	static const char *const xcr[] = { "xsetbv", "xgetbv", NULL };
	static const char *const cr[] = { "mov_to_cr", "mov_from_cr", NULL };
	static const char *const dr[] = { "mov_to_dr", "mov_from_dr", NULL };
	const char *name;

	if (!has_operand)
		return NULL;
	if (insn_in(insn, msr) && operand <= UINT32_MAX)
		return msr_name((uint32_t)operand, buf, len);
	if (insn_in(insn, vmcs) && (name = census_vmcs_field_name(operand)))
		return name;
	if (insn_in(insn, xcr) && operand <= UINT32_MAX)
		snprintf(buf, len, "XCR%u", (unsigned int)operand);
	else if (insn_in(insn, cr) && operand < 16)
		snprintf(buf, len, "CR%u", (unsigned int)operand);
	else if (insn_in(insn, dr) && operand < 16)
		snprintf(buf, len, "DR%u", (unsigned int)operand);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)operand);
	return buf;
}
