// SPDX-License-Identifier: GPL-2.0-only
/* cpuload.c - per-CPU idle share over a short window from /proc/stat (harness/cpuload.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/cpuload.h"

int cpuload_parse(const char *text, unsigned long long *busy, unsigned long long *total, size_t max)
{
	const char *l = text;
	int seen = 0;

	for (size_t i = 0; i < max; i++)
		busy[i] = total[i] = 0;
	while (l && *l) {
		unsigned long long v[10] = { 0 }, sum = 0;
		unsigned int cpu;
		int n;

		if (sscanf(l, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu%n", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9],
			   &n) >= 5 &&
		    cpu < max) {
			/* user nice system idle iowait irq softirq steal guest guest_nice:
			 * guest time is already in user, so only the first eight count. */
			for (int k = 0; k < 8; k++)
				sum += v[k];
			total[cpu] = sum;
			busy[cpu] = sum - v[3] - v[4];
			if ((int)cpu + 1 > seen)
				seen = (int)cpu + 1;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return seen;
}

static int read_stat(char *buf, size_t len)
{
	FILE *f = fopen("/proc/stat", "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return 0;
}

int cpuload_idle(unsigned int window_ms, double *idle, size_t max)
{
	struct timespec ts = { .tv_sec = window_ms / 1000, .tv_nsec = (window_ms % 1000) * 1000000L };
	unsigned long long *b0 = calloc(4 * (max ? max : 1), sizeof(*b0));
	unsigned long long *t0 = b0 + max, *b1 = t0 + max, *t1 = b1 + max;
	char *buf = malloc(1 << 16);
	int n0, n1, r = 0;

	if (!b0 || !buf) {
		r = -ENOMEM;
		goto out;
	}
	r = read_stat(buf, 1 << 16);
	if (r)
		goto out;
	n0 = cpuload_parse(buf, b0, t0, max);
	nanosleep(&ts, NULL);
	r = read_stat(buf, 1 << 16);
	if (r)
		goto out;
	n1 = cpuload_parse(buf, b1, t1, max);
	for (size_t i = 0; i < max; i++) {
		unsigned long long dt = t1[i] - t0[i];

		idle[i] = (int)i < n0 && (int)i < n1 && t1[i] >= t0[i] && t1[i] ?
			  (dt ? 1.0 - (double)(b1[i] - b0[i]) / (double)dt : 1.0) : -1;
	}
	r = n1 < n0 ? n1 : n0;
out:
	free(b0);
	free(buf);
	return r;
}
