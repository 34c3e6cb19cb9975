/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuload.h - how busy the host's CPUs are: the idle share of each CPU over
 * a short window, from /proc/stat. run uses it to warn when the CPU a second
 * vCPU is pinned to is busy with something else.
 */
#ifndef EXITSCOPE_HARNESS_CPULOAD_H
#define EXITSCOPE_HARNESS_CPULOAD_H

#include <stddef.h>

#define CPULOAD_BUSY_IDLE	0.5	/* below this idle share a CPU is called busy */
#define CPULOAD_WINDOW_MS	50

/*
 * Idle share (idle + iowait over all time, 0..1) of CPUs 0..max-1 over
 * window_ms; idle[i] is -1 for a CPU /proc/stat does not list. Returns how
 * many CPUs were listed, or -errno.
 */
int cpuload_idle(unsigned int window_ms, double *idle, size_t max);

/* Parse one /proc/stat text into per-CPU busy and total ticks. Returns CPUs seen (max index + 1). */
int cpuload_parse(const char *text, unsigned long long *busy, unsigned long long *total, size_t max);

#endif
