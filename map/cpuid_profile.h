/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuid_profile.h - named guest CPUID profiles for `exitscope map`: "host" (all
 * that KVM supports), "minimal" (a documented small set, see cpuid_profile.c) and
 * edits of either by feature name: "host,-shstk,-ibt", "minimal,+x2apic",
 * or just "-shstk,-ibt" (relative to host). Feature names are those of
 * X86_FEATURES in kvm/cpuid.h.
 */
#ifndef EXITSCOPE_MAP_CPUID_PROFILE_H
#define EXITSCOPE_MAP_CPUID_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "kvm/kvm.h"

#define CPUID_PROFILE_MAX_EDITS	32

enum cpuid_profile_base { CPUID_PROFILE_HOST, CPUID_PROFILE_MINIMAL };

struct cpuid_profile_edit {
	enum x86_feat f;
	bool on;			/* +name sets the bit, -name clears it */
};

struct cpuid_profile {
	char spec[160];			/* as given */
	char name[160];			/* "host", "minimal" or the spec */
	enum cpuid_profile_base base;
	size_t n;
	struct cpuid_profile_edit edits[CPUID_PROFILE_MAX_EDITS];
};

/*
 * Parse spec (syntax and feature names only, no KVM needed). 0, or -EINVAL
 * with err saying why; an unknown name lists the known ones.
 */
int cpuid_profile_parse(const char *spec, struct cpuid_profile *p, struct err *err);
/* The guest CPUID of p built from KVM's supported table; malloc'd into *out. */
int cpuid_profile_build(const struct cpuid_profile *p, const struct kvm_cpuid2 *supported,
		  struct kvm_cpuid2 **out);
/* "x2apic, tsc_deadline, ..." into buf. */
void cpuid_profile_known_names(char *buf, size_t len);
/* One line describing what "minimal" keeps. */
const char *cpuid_profile_minimal_doc(void);

#endif
