// SPDX-License-Identifier: GPL-2.0-only
/* cpuid.c - lookups and edits of struct kvm_cpuid2 tables, typed feature bits, CR4 bit gates. */
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "kvm/cpuid.h"

static const struct x86_feature x86_features[X86_NR_FEATS] = {
#define X86_FEAT_ROW(id, nm, f, i, r, b) [X86_FEAT_##id] = { .name = nm, .fn = f, .idx = i, .reg = r, .bit = b },
	X86_FEATURES(X86_FEAT_ROW)
#undef X86_FEAT_ROW
};

const struct x86_feature *x86_feature(enum x86_feat f)
{
	return f > X86_FEAT_NONE && f < X86_NR_FEATS ? &x86_features[f] : NULL;
}

const char *x86_feature_name(enum x86_feat f)
{
	const struct x86_feature *x = x86_feature(f);

	return x ? x->name : "none";
}

enum x86_feat x86_feature_by_name(const char *name)
{
	for (int f = X86_FEAT_NONE + 1; f < X86_NR_FEATS; f++)
		if (!strcmp(x86_features[f].name, name))
			return f;
	return X86_FEAT_NONE;
}

/*
 * CR4 bits and what CPUID must say before a guest may set them (the checks
 * of KVM's kvm_is_valid_cr4/__cr4_reserved_bits). Bits absent here are
 * reserved on x86-64 (5 PAE and 12 LA57 are listed but never toggled).
 */
const struct cr4_bit cr4_bits[] = {
	{ 0, "VME", .feat = X86_FEAT_VME },
	{ 1, "PVI", .feat = X86_FEAT_VME },
	{ 2, "TSD", .feat = X86_FEAT_TSC },
	{ 3, "DE", .feat = X86_FEAT_DE },
	{ 4, "PSE", .feat = X86_FEAT_PSE },
	{ 5, "PAE", .feat = X86_FEAT_NONE },
	{ 6, "MCE", .feat = X86_FEAT_MCE },
	{ 7, "PGE", .feat = X86_FEAT_PGE },
	{ 8, "PCE", .feat = X86_FEAT_NONE },
	{ 9, "OSFXSR", .feat = X86_FEAT_FXSR },
	{ 10, "OSXMMEXCPT", .feat = X86_FEAT_NONE },
	{ 11, "UMIP", .feat = X86_FEAT_UMIP },
	{ 12, "LA57", .feat = X86_FEAT_LA57 },
	{ 13, "VMXE", .feat = X86_FEAT_VMX },
	{ 16, "FSGSBASE", .feat = X86_FEAT_FSGSBASE },
	{ 17, "PCIDE", .feat = X86_FEAT_PCID },
	{ 18, "OSXSAVE", .feat = X86_FEAT_XSAVE },
	{ 20, "SMEP", .feat = X86_FEAT_SMEP },
	{ 21, "SMAP", .feat = X86_FEAT_SMAP },
	{ 22, "PKE", .feat = X86_FEAT_PKU },
	{ 23, "CET", .feat = X86_FEAT_SHSTK, .alt = X86_FEAT_IBT },
	{ 24, "PKS", .feat = X86_FEAT_PKS },
	{ 28, "LAM_SUP", .feat = X86_FEAT_LAM },
};
const size_t nr_cr4_bits = ARRAY_SIZE(cr4_bits);

const struct cr4_bit *cr4_bit_of(unsigned int n)
{
	for (size_t i = 0; i < nr_cr4_bits; i++)
		if (cr4_bits[i].bit == n)
			return &cr4_bits[i];
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

bool cpuid_has(const struct kvm_cpuid2 *c, enum x86_feat feat)
{
	const struct x86_feature *f = x86_feature(feat);
	struct kvm_cpuid_entry2 *e;

	if (!f)
		return true;
	e = cpuid_find((struct kvm_cpuid2 *)c, f->fn, f->idx);
	return e && (*entry_reg(e, f->reg) >> f->bit) & 1;
}

bool cpuid_has_any(const struct kvm_cpuid2 *c, enum x86_feat f, enum x86_feat alt)
{
	return cpuid_has(c, f) || (alt != X86_FEAT_NONE && cpuid_has(c, alt));
}

void cpuid_set(struct kvm_cpuid2 *c, enum x86_feat feat, bool on)
{
	const struct x86_feature *f = x86_feature(feat);
	struct kvm_cpuid_entry2 *e;
	uint32_t *r;

	if (!f || !(e = cpuid_find(c, f->fn, f->idx)))
		return;
	r = entry_reg(e, f->reg);
	if (on)
		*r |= 1u << f->bit;
	else
		*r &= ~(1u << f->bit);
}
