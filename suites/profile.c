/*
 * profile.c - guest CPUID profiles: parse "base,+name,-name" specs and build
 * the CPUID table they describe from KVM's supported one.
 *
 * "minimal" keeps what a 64-bit guest of this runtime needs and nothing
 * else in the feature leaves: leaf 1 EDX fpu tsc msr pae cx8 apic sep cmov
 * pat clflush fxsr sse sse2, leaf 1 ECX sse3 cx16 x2apic hypervisor, leaf
 * 0x80000001 syscall nx lm lahf; leaf 7 (every subleaf) and the XSAVE
 * sub-features of leaf 0xd.1 are cleared; other leaves are as on the host.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/profile.h"

#define BIT(n)	(1u << (n))
#define MIN_1_EDX	(BIT(0) | BIT(4) | BIT(5) | BIT(6) | BIT(8) | BIT(9) | BIT(11) | \
			 BIT(15) | BIT(16) | BIT(19) | BIT(24) | BIT(25) | BIT(26))
#define MIN_1_ECX	(BIT(0) | BIT(13) | BIT(21) | BIT(31))
#define MIN_X1_EDX	(BIT(11) | BIT(20) | BIT(29))
#define MIN_X1_ECX	(BIT(0))

const char *profile_minimal_doc(void)
{
	return "minimal = fpu tsc msr pae cx8 apic sep cmov pat clflush fxsr sse sse2 sse3 "
	       "cx16 x2apic hypervisor syscall nx lm lahf; leaf 7 and XSAVE sub-features cleared";
}

void profile_known_names(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int f = X86_FEAT_NONE + 1; f < X86_NR_FEATS && o < len; f++)
		o += snprintf(buf + o, len - o, "%s%s", o ? ", " : "", x86_feature_name(f));
}

static int parse_fail(char *err, size_t errlen, const char *fmt, const char *tok,
		      const char *spec)
{
	snprintf(err, errlen, fmt, tok, spec);
	return -EINVAL;
}

int profile_parse(const char *spec, struct cpuid_profile *p, char *err, size_t errlen)
{
	char buf[sizeof(p->spec)], *save = NULL, *tok;
	bool first = true;

	memset(p, 0, sizeof(*p));
	if (!spec || !*spec || strlen(spec) >= sizeof(p->spec))
		return parse_fail(err, errlen, "empty or too long CPUID profile '%s'%s",
				  spec ? spec : "", "");
	snprintf(p->spec, sizeof(p->spec), "%s", spec);
	snprintf(p->name, sizeof(p->name), "%s", spec);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), first = false) {
		enum x86_feat f;

		if (!strcmp(tok, "host") || !strcmp(tok, "minimal")) {
			if (!first)
				return parse_fail(err, errlen,
						  "base profile '%s' must come first in '%s'", tok, spec);
			p->base = tok[0] == 'h' ? PROFILE_HOST : PROFILE_MINIMAL;
			continue;
		}
		if (tok[0] != '+' && tok[0] != '-')
			return parse_fail(err, errlen,
					  "expected host, minimal, +FEATURE or -FEATURE, got '%s' in '%s'",
					  tok, spec);
		f = x86_feature_by_name(tok + 1);
		if (f == X86_FEAT_NONE) {
			char known[1024];

			profile_known_names(known, sizeof(known));
			snprintf(err, errlen, "unknown CPUID feature '%s' in profile '%s' (known: %s)",
				 tok + 1, spec, known);
			return -EINVAL;
		}
		if (p->n == PROFILE_MAX_EDITS)
			return parse_fail(err, errlen, "too many edits ('%s') in '%s'", tok, spec);
		p->edits[p->n].f = f;
		p->edits[p->n].on = tok[0] == '+';
		p->n++;
	}
	if (first)
		return parse_fail(err, errlen, "empty CPUID profile '%s'%s", spec, "");
	return 0;
}

static void minimal_apply(struct kvm_cpuid2 *c)
{
	for (uint32_t i = 0; i < c->nent; i++) {
		struct kvm_cpuid_entry2 *e = &c->entries[i];

		switch (e->function) {
		case 0x1:
			e->edx &= MIN_1_EDX;
			e->ecx &= MIN_1_ECX;
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
		case 0x80000001:
			e->edx &= MIN_X1_EDX;
			e->ecx &= MIN_X1_ECX;
			break;
		}
	}
}

int profile_build(const struct cpuid_profile *p, const struct kvm_cpuid2 *supported,
		  struct kvm_cpuid2 **out)
{
	struct kvm_cpuid2 *c = cpuid_dup(supported);

	if (!c)
		return -ENOMEM;
	if (p->base == PROFILE_MINIMAL)
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
