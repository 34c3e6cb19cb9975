// SPDX-License-Identifier: GPL-2.0-only
/*
 * single_pass.c - method v1, as before rounds: the nop baseline once, its median
 * every other probe's overhead, then each probe in one pass of --samples
 * batches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method/method.h"
#include "probes/probe_out.h"
#include "probes/runner.h"

void method_v1(const struct method_opts *o, struct probe_runner *pr, struct probe_outcome *out,
	       size_t n, const struct method_hooks *h, double *overhead)
{
	struct latency_result *base = calloc(1, sizeof(*base));
	int r;

	*overhead = 0;
	if (!base) {
		method_warn(h, "out of memory: nop baseline not measured");
	} else {
		/* The nop baseline first: its median is every other probe's overhead. */
		method_progress(h, 0, (unsigned)n + 1, NULL);
		method_progress(h, 0, (unsigned)n + 1, "nop baseline");
		r = probe_run(pr, probe_find("nop"), base);
		if (!r && base->status == PROBE_OK)
			*overhead = base->raw_median;
		else if (!*pr->stop)
			method_warn(h, "nop baseline not measured (%s): nothing subtracted",
				    r ? strerror(-r) : base->reason);
	}
	pr->env.overhead_cycles = *overhead;
	for (size_t i = 0; i < n; i++) {
		struct probe_outcome *p = &out[i];

		if (*pr->stop) {
			p->res.status = PROBE_STOPPED;
			continue;
		}
		method_progress(h, (unsigned)i + 1, (unsigned)n + 1, p->probe->name);
		if (!strcmp(p->probe->name, "nop") && base && base->status == PROBE_OK) {
			p->res = *base;		/* the baseline itself, nothing subtracted */
			continue;
		}
		r = probe_run(pr, p->probe, &p->res);
		if (r) {
			p->res.status = PROBE_FAILED;
			snprintf(p->res.reason, sizeof(p->res.reason), "runner: %s", strerror(-r));
		}
	}
	free(base);
}
