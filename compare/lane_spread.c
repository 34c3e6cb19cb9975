// SPDX-License-Identifier: GPL-2.0-only
/* lane_spread.c - which lane runs and probes repeat to the lanes' spread (lane_spread.h). */
#include <string.h>

#include "compare/lane_spread.h"

int lane_two_vcpus(const struct run_probe *p)
{
	return (p->cpus[0] >= 0 && p->cpus[1] >= 0) || p->peer_wait_ms >= 0;
}

int lane_deterministic(const struct host_record *h)
{
	return h->lane.present && h->lane.emulator && !strncmp(h->lane.emulator, "bochs", 5);
}
