// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_latency.c - the latency harness API (harness/latency.h) on real
 * /dev/kvm: exact userspace exits per op, batch and sample bookkeeping,
 * setup/teardown, the nop overhead, and skip/fail/hang outcomes; method v2:
 * the per-round arithmetic and the stop decision on hand-computed series
 * (no KVM needed), /proc/stat parsing, and a session kept across rounds.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "guest/guest.h"
#include "guest/vm.h"
#include "harness/cpuload.h"
#include "harness/latency.h"
#include "harness/rounds.h"
#include "tests/tap.h"

uint64_t lat_outs(uint64_t a);
uint64_t lat_count_setup(uint64_t a);
uint64_t lat_count_teardown(uint64_t a);
uint64_t lat_setup_gp(uint64_t a);
uint64_t lat_spin(uint64_t a);
uint64_t lat_ud(uint64_t a);
uint64_t lat_check_fail(uint64_t a);
extern uint64_t lat_setup_calls, lat_teardown_calls;

/*
 * Each guest run's watchdog where the guest is meant to finish: a safety net
 * far beyond the 60 ms of work (the default, 2 x budget + 1 s, could fire on
 * a heavily loaded host and turn a measurement into a "hang"). The endless op
 * sets its own, short one: that hang is what it checks.
 */
#define LAT_WATCHDOG_MS	60000

/* Net per pair and the round's medians, by hand. */
static void test_round_arith(void)
{
	static const uint64_t tb[] = { 100, 120, 110 }, t[] = { 300, 330, 290 };
	static const uint64_t tb2[] = { 100, 100, 100 }, t2[] = { 90, 300, 310 };
	struct latency_round r;
	struct latency_result *res = calloc(1, sizeof(*res));

	is_int(latency_round_from_tsc(&r, 10, tb, t, 3), 0, "round of 3 pairs, batch 10");
	ok(r.net[0] == 20 && r.net[1] == 21 && r.net[2] == 18, "net per pair: 20, 21, 18 cycles/op");
	ok(r.median == 20 && r.baseline_median == 11 && r.raw_median == 30,
	   "round medians: net 20, baseline 11, raw 30");
	is_int(latency_round_from_tsc(&r, 10, tb2, t2, 3), 0, "a round with a pair below its baseline");
	ok(r.net[0] == -1 && r.median == 20, "net -1 is kept (not clamped); median 20");
	is_int(latency_round_from_tsc(&r, 0, tb, t, 3), -EINVAL, "batch 0: -EINVAL");
	is_int(latency_round_from_tsc(&r, 10, tb, t, 0), -EINVAL, "no pairs: -EINVAL");
	if (!res) {
		tap_skip(3, "out of memory");
		return;
	}
	latency_result_clear(res);
	latency_round_from_tsc(&res->rounds[0], 10, tb, t, 3);
	latency_round_from_tsc(&res->rounds[1], 10, tb2, t2, 3);
	res->n_rounds = 2;
	res->ops = 60;
	is_int(latency_session_result(res, 2000000), 0, "the probe's figures from two rounds");
	ok(res->n == 6 && res->samples[3] == 0 && res->samples[0] == 20 && res->samples[5] == 21,
	   "flat samples: the 6 nets in order, -1 clamped to 0");
	ok(res->cycles.median == 20 && res->overhead_cycles == 10.5 && res->raw_median == 30,
	   "median 20, overhead = median of the baseline medians 10.5, raw 30 (%g %g %g)",
	   res->cycles.median, res->overhead_cycles, res->raw_median);
	free(res);
}

static enum probe_stop decide(const struct latency_stop_rule *rule, const double *s, size_t n,
			      double spent, double *rel)
{
	return latency_stop_decide(rule, s, n, spent, rel);
}

/* The stop decision on given series of round medians. */
static void test_stop(void)
{
	static const double steady[] = { 100, 100.2, 99.9, 100.1, 100 };
	static const double noisy[] = { 100, 130, 80, 120, 90 };
	static const double zero[] = { 0.25, -0.5, 0.25 };
	static const double ci3[] = { 1, 2, 3 };
	struct latency_stop_rule rule = { .precision_pct = 1, .floor_cycles = 1, .min_rounds = 3,
					  .max_rounds = 5, .budget_s = 1 };
	double c, h, rel;
	size_t n;

	is_int(latency_rounds_ci(ci3, 3, &c, &h), 0, "CI of 1, 2, 3");
	ok(c == 2 && fabs(h - 4.303 / sqrt(3)) < 1e-9, "mean 2, half-width t(2) x sd/sqrt(3) = %.5f", h);
	is_int(latency_rounds_ci(ci3, 1, &c, &h), -EINVAL, "one round: no CI");

	is_int(decide(&rule, steady, 1, 0, &rel), PROBE_STOP_NONE, "steady: 1 round, go on");
	ok(rel == -1, "steady: no CI after one round");
	is_int(decide(&rule, steady, 2, 0, &rel), PROBE_STOP_NONE, "steady: 2 rounds, below min_rounds");
	is_int(decide(&rule, steady, 3, 0, &rel), PROBE_STOP_PRECISION, "steady: stops on precision at 3");
	ok(rel > 0 && rel < 1, "steady: CI +-%.3f%% < 1%%", rel);

	for (n = 1; n < 5; n++)
		if (decide(&rule, noisy, n, 0, &rel) != PROBE_STOP_NONE)
			break;
	is_int((long long)n, 5, "noisy: goes on through 4 rounds");
	is_int(decide(&rule, noisy, 5, 0, &rel), PROBE_STOP_BUDGET, "noisy: runs to the budget (rounds)");
	ok(rel > 10, "noisy: CI +-%.1f%% far from 1%%", rel);
	is_int(decide(&rule, noisy, 3, 1.0, &rel), PROBE_STOP_BUDGET, "noisy: time budget spent at 3");
	is_int(decide(&rule, steady, 3, 5.0, &rel), PROBE_STOP_PRECISION,
	       "precision reached wins over a spent budget");

	is_int(decide(&rule, zero, 3, 0, &rel), PROBE_STOP_NONE,
	       "near zero: half-width 1.076 above a 1-cycle floor");
	ok(rel == -1, "near zero: a zero mean has no relative CI");
	rule.floor_cycles = 1.1;
	is_int(decide(&rule, zero, 3, 0, &rel), PROBE_STOP_PRECISION, "near zero: within a 1.1-cycle floor");
	rule.min_rounds = 2;
	rule.max_rounds = 2;
	is_int(decide(&rule, noisy, 2, 0, &rel), PROBE_STOP_BUDGET, "--rounds 2: noisy ends at 2");
}

static void test_cpuload(void)
{
	static const char text[] = "cpu  10 0 10 80 0 0 0 0 0 0\n"
				   "cpu0 5 0 5 40 0 0 0 0 0 0\n"
				   "cpu1 1 2 3 4 5 6 7 8 9 10\n"
				   "intr 12345\n";
	unsigned long long busy[4], total[4];

	is_int(cpuload_parse(text, busy, total, 4), 2, "/proc/stat: two CPUs");
	ok(busy[0] == 10 && total[0] == 50, "cpu0: 10 busy of 50 ticks");
	ok(busy[1] == 27 && total[1] == 36, "cpu1: idle and iowait out, guest time not twice (27 of 36)");
	ok(total[2] == 0 && total[3] == 0, "CPUs not listed: 0");
}

/* Method v2 on a real VM: one guest kept across three rounds. */
static void test_session(struct vm *vm)
{
	struct latency_result *res = calloc(1, sizeof(*res));
	struct latency_env env = { .vcpu = &vm->vcpus[0], .budget_ms = 60, .tsc_khz = 2000000,
				   .rounds = 3, .pairs = 5, .watchdog_ms = LAT_WATCHDOG_MS };
	struct latency_op op = { .name = "outs3", .op = lat_outs, .arg = 3,
				 .setup = lat_count_setup, .teardown = lat_count_teardown };
	struct latency_session s;
	size_t pos = 0;

	if (!res) {
		tap_skip(9, "out of memory");
		return;
	}
	vm_global_set(vm, lat_setup_calls, 0);
	vm_global_set(vm, lat_teardown_calls, 0);
	latency_result_clear(res);
	env.pairs = LATENCY_MAX_PAIRS + 1;
	is_int(latency_session_open(&s, &env, &op, res), -EINVAL, "too many pairs: -EINVAL");
	env.pairs = 5;
	is_int(latency_session_open(&s, &env, &op, res), 0, "session open");
	ok(s.open && res->status == PROBE_OK && res->batch >= 1, "calibrated, batch %llu",
	   (unsigned long long)res->batch);
	for (int i = 0; i < 3 && s.open; i++)
		latency_session_round(&s, res);
	is_int((long long)res->n_rounds, 3, "three rounds");
	latency_session_close(&s, res);
	is_int((long long)vm_global_get(vm, lat_setup_calls), 1, "one guest: setup ran once");
	is_int((long long)vm_global_get(vm, lat_teardown_calls), 1, "... and its teardown once");
	is_int(latency_session_result(res, env.tsc_khz), 0, "figures from the rounds");
	for (size_t r = 0; r < res->n_rounds; r++)
		pos += res->rounds[r].n;
	ok(res->n == 15 && pos == 15 && res->cycles.median > 0,
	   "15 pairs in all, median net %.0f > 0 (3 OUT exits cost more than nothing)",
	   res->cycles.median);
	is_num(res->per_op.user_io, 3, 0, "exactly 3 userspace I/O exits per op: baseline batches add none");

	/* reps: 3 OUTs per call counted as 3 operations, every figure per OUT. */
	latency_result_clear(res);
	op = (struct latency_op){ .name = "outs3x", .op = lat_outs, .arg = 3, .reps = 3 };
	latency_session_open(&s, &env, &op, res);
	for (int i = 0; i < 2 && s.open; i++)
		latency_session_round(&s, res);
	latency_session_close(&s, res);
	latency_session_result(res, env.tsc_khz);
	ok(res->status == PROBE_OK && res->n_rounds == 2 && res->batch % 3 == 0 &&
	   res->rounds[0].batch == res->batch && res->ops == 2 * 5 * res->batch,
	   "reps 3: ops per batch a multiple of 3 (%llu), ops = rounds x pairs x that",
	   (unsigned long long)res->batch);
	is_num(res->per_op.user_io, 1, 0, "reps 3 of 3 OUTs per call: exactly 1 userspace I/O exit per op");

	latency_result_clear(res);
	op = (struct latency_op){ .name = "check", .op = lat_outs, .arg = 1, .teardown = lat_check_fail };
	latency_session_open(&s, &env, &op, res);
	if (s.open)
		latency_session_round(&s, res);
	latency_session_close(&s, res);
	ok(res->status == PROBE_FAILED && res->check_code == GUEST_CHECK(2),
	   "a failed teardown check fails the probe (check_code %#llx)",
	   (unsigned long long)res->check_code);
	free(res);
}

int main(void)
{
	struct latency_result *res = calloc(1, sizeof(*res));
	struct latency_env env = { .samples = 4, .budget_ms = 60, .tsc_khz = 2000000,
				   .watchdog_ms = LAT_WATCHDOG_MS };
	struct latency_op op = { .name = "outs3", .op = lat_outs, .arg = 3,
				 .setup = lat_count_setup, .teardown = lat_count_teardown };
	double ovh = -1;
	struct vm *vm;
	struct err err;
	bool finite = true;

	test_round_arith();
	test_stop();
	test_cpuload();
	if (access("/dev/kvm", R_OK | W_OK)) {
		skip("/dev/kvm is not usable: no measurements");
		free(res);
		return done_testing();
	}
	if (vm_create(&vm, NULL, &err)) {
		ok(0, "vm_create: %s", err.msg);
		free(res);
		return done_testing();
	}
	env.vcpu = &vm->vcpus[0];

	is_int(latency_measure(&env, NULL, res), -EINVAL, "no op: -EINVAL");

	is_int(latency_measure(&env, &op, res), 0, "latency_measure of 3 OUTs per op");
	tap_is_str(probe_status_name(res->status), "ok", "status ok");
	is_int((long long)res->n, 4, "4 samples");
	ok(res->batch >= 1 && res->ops == res->batch * 4, "ops = batch x samples (batch %llu)",
	   (unsigned long long)res->batch);
	is_num(res->per_op.user_io, 3, 0, "exactly 3 userspace I/O exits per op (run loop)");
	is_num(res->per_op.user_mmio, 0, 0, "no MMIO exits");
	for (size_t i = 0; i < res->n; i++)
		finite &= isfinite(res->samples[i]) && res->samples[i] >= 0;
	ok(finite && res->raw_median > 0, "samples finite and >= 0, raw median %.0f > 0", res->raw_median);
	ok(res->cycles.min <= res->cycles.median && res->cycles.median <= res->cycles.p99,
	   "summary ordered (min <= median <= p99)");
	is_num(res->ns_median, res->cycles.median * 1e6 / 2000000, 1e-6, "ns from tsc_khz");
	is_int((long long)vm_global_get(vm, lat_setup_calls), 1, "setup ran once");
	is_int((long long)vm_global_get(vm, lat_teardown_calls), 1, "teardown ran once");
	if (res->has_stats)
		ok(res->per_op.exits >= 3, "stats exits/op >= 3 (%.3f), closing ucall subtracted",
		   res->per_op.exits);
	else
		skip("no stats fd");

	is_int(latency_overhead(&env, &ovh, NULL), 0, "nop overhead measured");
	ok(ovh > 0 && isfinite(ovh), "nop overhead %.1f cycles/op > 0", ovh);
	env.overhead_cycles = ovh;
	latency_measure(&env, &op, res);
	is_num(res->overhead_cycles, ovh, 0, "the overhead is recorded with the result");

	op = (struct latency_op){ .name = "outs3x", .op = lat_outs, .arg = 3, .reps = 3 };
	latency_measure(&env, &op, res);
	is_num(res->per_op.user_io, 1, 0, "v1, reps 3 of 3 OUTs per call: exactly 1 userspace I/O exit per op");
	ok(res->batch % 3 == 0 && res->ops == res->batch * 4, "v1, reps 3: ops per sample a multiple of 3 (%llu)",
	   (unsigned long long)res->batch);
	is_num(res->overhead_cycles, ovh / 3, 1e-9, "v1, reps 3: a third of the per-call overhead is subtracted per op");

	op = (struct latency_op){ .name = "gp", .setup = lat_setup_gp, .op = lat_outs };
	latency_measure(&env, &op, res);
	tap_is_str(probe_status_name(res->status), "skipped", "setup that faults: skipped");
	is_int((long long)res->setup_code, GUEST_FAULT | GP_VECTOR, "setup code is GUEST_FAULT|#GP");
	tap_like(res->reason, "#GP", "reason names #GP");

	op = (struct latency_op){ .name = "ud", .op = lat_ud };
	latency_measure(&env, &op, res);
	tap_is_str(probe_status_name(res->status), "failed", "op that raises #UD: failed");
	tap_like(res->reason, "#UD", "reason names #UD");

	op = (struct latency_op){ .name = "spin", .op = lat_spin };
	env.watchdog_ms = 300;
	latency_measure(&env, &op, res);
	tap_is_str(probe_status_name(res->status), "hang", "endless op: hang");
	tap_like(res->reason, "still running after 300 ms", "hang at the watchdog budget");

	test_session(vm);
	vm_destroy(vm);
	free(res);
	return done_testing();
}
