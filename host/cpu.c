// SPDX-License-Identifier: GPL-2.0-only
/* cpu.c - host CPU reads: CPUID, XCR0, /proc/cpuinfo flags (host/cpu.h). */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cpu.h"

bool host_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	unsigned int a = 0, b = 0, c = 0, d = 0;
	bool ok = __get_cpuid_count(leaf, subleaf, &a, &b, &c, &d);

	regs[CPUID_EAX] = a;
	regs[CPUID_EBX] = b;
	regs[CPUID_ECX] = c;
	regs[CPUID_EDX] = d;
	return ok;
}

bool host_cpu_has(enum x86_feat f)
{
	const struct x86_feature *x = x86_feature(f);
	uint32_t regs[4];

	return x && host_cpuid(x->fn, x->idx, regs) && ((regs[x->reg] >> x->bit) & 1);
}

uint64_t host_cpu_xgetbv(void)
{
	uint32_t lo, hi;

	asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return lo | (uint64_t)hi << 32;
}

uint64_t host_cpu_xcr0(void)
{
	return host_cpu_has(X86_FEAT_OSXSAVE) ? host_cpu_xgetbv() : 0;
}

bool host_cpuinfo_flag(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		char *tok, *save = NULL;

		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \t\n",
				    &save);
		     tok; tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, flag))
				found = true;
		break;
	}
	free(line);
	fclose(f);
	return found;
}
