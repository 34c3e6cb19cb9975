// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuid_profile.c - guest CPUID profiles: parse "base,+name,-name" specs and build
 * the CPUID table they describe from KVM's supported one.
 *
 * "minimal" is defined once, below: the feature bits it keeps in leaves 1
 * and 0x80000001 (MINIMAL_KEEP, which also gives their names to
 * cpuid_profile_minimal_doc()) and the leaves it clears (minimal_apply, described
 * by MINIMAL_CLEARED); every other leaf is as KVM supports it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map/cpuid_profile.h"

/* What a 64-bit guest of this runtime needs: F(name, leaf, register, bit). */
#define MINIMAL_KEEP(F) \
	F("fpu", 0x1, CPUID_EDX, 0)   F("tsc", 0x1, CPUID_EDX, 4)	\
	F("msr", 0x1, CPUID_EDX, 5)   F("pae", 0x1, CPUID_EDX, 6)	\
	F("cx8", 0x1, CPUID_EDX, 8)   F("apic", 0x1, CPUID_EDX, 9)	\
	F("sep", 0x1, CPUID_EDX, 11)  F("cmov", 0x1, CPUID_EDX, 15)	\
	F("pat", 0x1, CPUID_EDX, 16)  F("clflush", 0x1, CPUID_EDX, 19)	\
	F("fxsr", 0x1, CPUID_EDX, 24) F("sse", 0x1, CPUID_EDX, 25)	\
	F("sse2", 0x1, CPUID_EDX, 26)					\
	F("sse3", 0x1, CPUID_ECX, 0)  F("cx16", 0x1, CPUID_ECX, 13)	\
	F("x2apic", 0x1, CPUID_ECX, 21) F("hypervisor", 0x1, CPUID_ECX, 31) \
	F("syscall", 0x80000001, CPUID_EDX, 11) F("nx", 0x80000001, CPUID_EDX, 20) \
	F("lm", 0x80000001, CPUID_EDX, 29) F("lahf", 0x80000001, CPUID_ECX, 0)
/* What minimal_apply clears besides the bits MINIMAL_KEEP does not keep. */
#define MINIMAL_CLEARED	"leaf 7 (every subleaf) and the XSAVE sub-features (leaf 0xd.1 EAX) cleared"

#define MINIMAL_NAME(name, fn, reg, bit)	" " name
#define MINIMAL_MASK_OF(name, fn, reg, bit)	| (fn == MASK_FN && reg == MASK_REG ? 1u << (bit) : 0)

const char *cpuid_profile_minimal_doc(void)
{
	return "minimal =" MINIMAL_KEEP(MINIMAL_NAME) "; " MINIMAL_CLEARED;
}

/* The bits of leaf fn's register reg that "minimal" keeps. */
static uint32_t minimal_mask(uint32_t fn, enum cpuid_reg reg)
{
#define MASK_FN		fn
#define MASK_REG	reg
	return 0 MINIMAL_KEEP(MINIMAL_MASK_OF);
#undef MASK_FN
#undef MASK_REG
}

void cpuid_profile_known_names(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int f = X86_FEAT_NONE + 1; f < X86_NR_FEATS && o < len; f++)
		o += snprintf(buf + o, len - o, "%s%s", o ? ", " : "", x86_feature_name(f));
}

static int parse_fail(struct err *err, const char *fmt, const char *tok,
		      const char *spec)
{
	return err_set(err, -EINVAL, fmt, tok, spec);
}

int cpuid_profile_parse(const char *spec, struct cpuid_profile *p, struct err *err)
{
	char buf[sizeof(p->spec)], *save = NULL, *tok;
	bool first = true;

	memset(p, 0, sizeof(*p));
	if (!spec || !*spec || strlen(spec) >= sizeof(p->spec))
		return parse_fail(err, "empty or too long CPUID profile '%s'%s",
				  spec ? spec : "", "");
	snprintf(p->spec, sizeof(p->spec), "%s", spec);
	snprintf(p->name, sizeof(p->name), "%s", spec);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save),
	     first = false) {
		enum x86_feat f;

		if (!strcmp(tok, "host") || !strcmp(tok, "minimal")) {
			if (!first)
				return parse_fail(err,
						  "base CPUID profile '%s' must come first in '%s'",
						  tok, spec);
			p->base = tok[0] == 'h' ? CPUID_PROFILE_HOST : CPUID_PROFILE_MINIMAL;
			continue;
		}
		if (tok[0] != '+' && tok[0] != '-')
			return parse_fail(err,
					  "expected host, minimal, +FEATURE or -FEATURE, got '%s' "
					  "in '%s'", tok, spec);
		f = x86_feature_by_name(tok + 1);
		if (f == X86_FEAT_NONE) {
			char known[1024];

			cpuid_profile_known_names(known, sizeof(known));
			return err_set(err, -EINVAL,
				       "unknown CPUID feature '%s' in CPUID profile '%s' "
				       "(known: %s)", tok + 1, spec, known);
		}
		if (p->n == CPUID_PROFILE_MAX_EDITS)
			return parse_fail(err, "too many edits ('%s') in '%s'", tok, spec);
		p->edits[p->n].f = f;
		p->edits[p->n].on = tok[0] == '+';
		p->n++;
	}
	if (first)
		return parse_fail(err, "empty CPUID profile '%s'%s", spec, "");
	return 0;
}

static void minimal_apply(struct kvm_cpuid2 *c)
{
	for (uint32_t i = 0; i < c->nent; i++) {
		struct kvm_cpuid_entry2 *e = &c->entries[i];

		switch (e->function) {
		case 0x1:
		case 0x80000001:
			e->edx &= minimal_mask(e->function, CPUID_EDX);
			e->ecx &= minimal_mask(e->function, CPUID_ECX);
			break;
		case 0x7:
			e->ebx = e->ecx = e->edx = 0;
			if (e->index)
				e->eax = 0;
			break;
		case 0xd:
			if (e->index == 1)
				e->eax = 0;
			break;
		}
	}
}

int cpuid_profile_build(const struct cpuid_profile *p, const struct kvm_cpuid2 *supported,
		  struct kvm_cpuid2 **out)
{
	struct kvm_cpuid2 *c = cpuid_dup(supported);

	if (!c)
		return -ENOMEM;
	if (p->base == CPUID_PROFILE_MINIMAL)
		minimal_apply(c);
	for (size_t i = 0; i < p->n; i++) {
		const struct x86_feature *f = x86_feature(p->edits[i].f);

		if (p->edits[i].on && !cpuid_find(c, f->fn, f->idx)) {
			free(c);
			return -ENOENT;	/* the leaf is absent: no bit to set */
		}
		cpuid_set(c, p->edits[i].f, p->edits[i].on);
	}
	*out = c;
	return 0;
}
