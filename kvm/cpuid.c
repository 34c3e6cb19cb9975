/* cpuid.c - lookups and edits of struct kvm_cpuid2 tables, named feature bits. */
#include <stdlib.h>
#include <string.h>

#include "kvm/kvm.h"

const struct x86_feature x86_features[] = {
	{ "x2apic",       0x1, 0, CPUID_ECX, 21 },
	{ "tsc_deadline", 0x1, 0, CPUID_ECX, 24 },
	{ "xsave",        0x1, 0, CPUID_ECX, 26 },
	{ "osxsave",      0x1, 0, CPUID_ECX, 27 },
	{ "avx",          0x1, 0, CPUID_ECX, 28 },
	{ "hypervisor",   0x1, 0, CPUID_ECX, 31 },
	{ "vme",          0x1, 0, CPUID_EDX, 1 },
	{ "de",           0x1, 0, CPUID_EDX, 2 },
	{ "pse",          0x1, 0, CPUID_EDX, 3 },
	{ "tsc",          0x1, 0, CPUID_EDX, 4 },
	{ "mce",          0x1, 0, CPUID_EDX, 7 },
	{ "pge",          0x1, 0, CPUID_EDX, 13 },
	{ "fxsr",         0x1, 0, CPUID_EDX, 24 },
	{ "fsgsbase",     0x7, 0, CPUID_EBX, 0 },
	{ "tsc_adjust",   0x7, 0, CPUID_EBX, 1 },
	{ "smep",         0x7, 0, CPUID_EBX, 7 },
	{ "rtm",          0x7, 0, CPUID_EBX, 11 },
	{ "avx512f",      0x7, 0, CPUID_EBX, 16 },
	{ "smap",         0x7, 0, CPUID_EBX, 20 },
	{ "umip",         0x7, 0, CPUID_ECX, 2 },
	{ "pku",          0x7, 0, CPUID_ECX, 3 },
	{ "ospke",        0x7, 0, CPUID_ECX, 4 },
	{ "shstk",        0x7, 0, CPUID_ECX, 7 },
	{ "la57",         0x7, 0, CPUID_ECX, 16 },
	{ "ibt",          0x7, 0, CPUID_EDX, 20 },
	{ "spec_ctrl",    0x7, 0, CPUID_EDX, 26 },
	{ "arch_capabilities", 0x7, 0, CPUID_EDX, 29 },
	{ "xsaveopt",     0xd, 1, CPUID_EAX, 0 },
	{ "xsavec",       0xd, 1, CPUID_EAX, 1 },
	{ "xgetbv1",      0xd, 1, CPUID_EAX, 2 },
	{ "xsaves",       0xd, 1, CPUID_EAX, 3 },
	{ "rdtscp",       0x80000001, 0, CPUID_EDX, 27 },
	{ "svm",          0x80000001, 0, CPUID_ECX, 2 },
	{ "vmx",          0x1, 0, CPUID_ECX, 5 },
	{ "pcid",         0x1, 0, CPUID_ECX, 17 },
	{ "pdcm",         0x1, 0, CPUID_ECX, 15 },
	{ "amd_ibpb",     0x80000008, 0, CPUID_EBX, 12 },
	{ "amd_ibrs",     0x80000008, 0, CPUID_EBX, 14 },
	{ "pks",          0x7, 0, CPUID_ECX, 31 },
	{ "lam",          0x7, 1, CPUID_EAX, 26 },
};
const size_t x86_nr_features = sizeof(x86_features) / sizeof(x86_features[0]);

const struct x86_feature *x86_feature_find(const char *name)
{
	for (size_t i = 0; i < x86_nr_features; i++)
		if (!strcmp(x86_features[i].name, name))
			return &x86_features[i];
	return NULL;
}

/* Leaves whose subleaf (index) matters. */
static bool cpuid_leaf_indexed(uint32_t fn)
{
	return fn == 0x4 || fn == 0x7 || fn == 0xb || fn == 0xd || fn == 0xf ||
	       fn == 0x10 || fn == 0x12 || fn == 0x14 || fn == 0x17 || fn == 0x18 ||
	       fn == 0x1d || fn == 0x1e || fn == 0x1f || fn == 0x24 || fn == 0x8000001d;
}

struct kvm_cpuid_entry2 *cpuid_find(struct kvm_cpuid2 *c, uint32_t fn, uint32_t idx)
{
	for (uint32_t i = 0; c && i < c->nent; i++) {
		struct kvm_cpuid_entry2 *e = &c->entries[i];

		if (e->function != fn)
			continue;
		if (!cpuid_leaf_indexed(fn) || e->index == idx)
			return e;
	}
	return NULL;
}

const struct kvm_cpuid_entry2 *cpuid_find_const(const struct kvm_cpuid2 *c,
					       uint32_t fn, uint32_t idx)
{
	return cpuid_find((struct kvm_cpuid2 *)c, fn, idx);
}

struct kvm_cpuid2 *cpuid_dup(const struct kvm_cpuid2 *c)
{
	size_t sz = sizeof(*c) + c->nent * sizeof(c->entries[0]);
	struct kvm_cpuid2 *d = malloc(sz);

	if (d)
		memcpy(d, c, sz);
	return d;
}

static uint32_t *entry_reg(struct kvm_cpuid_entry2 *e, enum cpuid_reg reg)
{
	switch (reg) {
	case CPUID_EAX: return &e->eax;
	case CPUID_EBX: return &e->ebx;
	case CPUID_ECX: return &e->ecx;
	default:        return &e->edx;
	}
}

bool cpuid_has(const struct kvm_cpuid2 *c, const struct x86_feature *f)
{
	struct kvm_cpuid_entry2 *e = cpuid_find((struct kvm_cpuid2 *)c, f->fn, f->idx);

	return e && (*entry_reg(e, f->reg) >> f->bit) & 1;
}

bool cpuid_has_name(const struct kvm_cpuid2 *c, const char *name)
{
	const struct x86_feature *f = x86_feature_find(name);

	return f && cpuid_has(c, f);
}

void cpuid_set(struct kvm_cpuid2 *c, const struct x86_feature *f, bool on)
{
	struct kvm_cpuid_entry2 *e = cpuid_find(c, f->fn, f->idx);
	uint32_t *r;

	if (!e)
		return;
	r = entry_reg(e, f->reg);
	if (on)
		*r |= 1u << f->bit;
	else
		*r &= ~(1u << f->bit);
}
