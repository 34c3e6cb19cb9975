/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lane_spread.h - (inside compare/) what a lane's runs repeat to: in a
 * Bochs lane a one-vCPU probe's cycles are emulated instructions, the same
 * from one boot to the next but for the spread below; compare widens such
 * a probe's interval by it (docs/method.md, "Lane runs"), walk takes a
 * step beyond it as the commit's.
 */
#ifndef EXITSCOPE_COMPARE_LANE_SPREAD_H
#define EXITSCOPE_COMPARE_LANE_SPREAD_H

#include "results/host_record_model.h"
#include "results/run_model.h"

/*
 * How far a one-vCPU probe's median lane cycles move between boots of one
 * kernel, in %: the largest difference measured in any lane (VMX self_ipi
 * against a third run; the check-kernels runs of 2026-12-03 and 2026-12-04
 * agree to 0.11% at most, most probes to the cycle): docs/kernels.md,
 * "Spread". The kernels table (compare/kernels_table.h) uses it too.
 */
#define LANE_SPREAD_1VCPU_PCT	0.16

/*
 * The same for a probe with two vCPUs (lane_two_vcpus, or PROBE_NEED_2VCPUS
 * in the catalogue: ipi, ipi_halt, ple_round_robin), in %: ten boots of one
 * 6.1 kernel in the VMX lane gave ipi_halt 19675-23334 lane cycles, 18.6%
 * (2026-12-03). Which of a few per-round values its median lands on
 * depends on where the second vCPU's thread meets the lane kernel's timer
 * ticks; runs that agree closer are too few to bound it. docs/kernels.md,
 * "Spread".
 */
#define LANE_SPREAD_2VCPU_PCT	18.6

/*
 * The kernels table's change floor: a change of a probe's median lane
 * cycles counts only when also larger than this many cycles (the near-zero
 * costs of guest-owned operations move by a cycle or two; run's
 * --precision-floor is 1).
 */
#define LANE_CHANGE_FLOOR_CYCLES	2.0

/* Does the probe's record name a second vCPU (its "cpus" pair, or "peer_wait_ms")? */
int lane_two_vcpus(const struct run_probe *p);

/*
 * Was h measured in a lane whose one-vCPU probes repeat to
 * LANE_SPREAD_1VCPU_PCT: a lane record whose emulator is Bochs ("bochs
 * ...")? QEMU's TCG lanes are not deterministic.
 */
int lane_deterministic(const struct host_record *h);

#endif
