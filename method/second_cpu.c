// SPDX-License-Identifier: GPL-2.0-only
/*
 * second_cpu.c - whether the CPU where a probe's second vCPU will run is busy
 * (method_cpu2_warning, method/method.h): decided here, from /proc/stat
 * over a short window (harness/cpuload.h); the CLI records and shows it.
 */
#include <sched.h>
#include <stdio.h>

#include "base/array_size.h"
#include "harness/cpuload.h"
#include "method/method.h"
#include "probes/probe_out.h"

bool method_cpu2_warning(const struct probe_outcome *out, size_t n, int cpu, int cpu2,
			 char *msg, size_t len)
{
	double idle[CPU_SETSIZE > 1024 ? 1024 : CPU_SETSIZE];
	double best = -1;
	bool any = false;
	int ncpu, best_cpu = -1;

	for (size_t i = 0; i < n; i++)
		any = any || (out[i].probe->needs & PROBE_NEED_2VCPUS);
	if (!any)
		return false;
	ncpu = cpuload_idle(CPULOAD_WINDOW_MS, idle, ARRAY_SIZE(idle));
	if (ncpu <= 0)
		return false;
	for (int c = 0; c < ncpu; c++) {
		if (cpu2 >= 0 ? c != cpu2 : c == cpu)
			continue;
		if (idle[c] > best) {
			best = idle[c];
			best_cpu = c;
		}
	}
	if (best_cpu < 0 && cpu2 < 0)
		snprintf(msg, len, "one CPU only: a second vCPU shares CPU %d with the first", cpu);
	else if (best_cpu < 0)
		snprintf(msg, len, "--cpu: CPU %d is not listed in /proc/stat", cpu2);
	else if (best < CPULOAD_BUSY_IDLE)
		snprintf(msg, len,
			 "CPU %d, where a second vCPU runs, is busy (%.0f%% idle over %d ms): "
			 "two-vCPU probes may be noisy", best_cpu, 100 * best, CPULOAD_WINDOW_MS);
	else
		return false;
	return true;
}
