/*
 * test_latency.c - the latency harness API (harness/latency.h) on real
 * /dev/kvm: exact userspace exits per op, batch and sample bookkeeping,
 * setup/teardown, the nop overhead, and skip/fail/hang outcomes.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "guest/guest.h"
#include "guest/vm.h"
#include "harness/latency.h"
#include "tests/tap.h"

uint64_t lat_outs(uint64_t a);
uint64_t lat_count_setup(uint64_t a);
uint64_t lat_count_teardown(uint64_t a);
uint64_t lat_setup_gp(uint64_t a);
uint64_t lat_spin(uint64_t a);
uint64_t lat_ud(uint64_t a);
extern uint64_t lat_setup_calls, lat_teardown_calls;

int main(void)
{
	struct latency_result *res = calloc(1, sizeof(*res));
	struct latency_env env = { .samples = 4, .budget_ms = 60, .tsc_khz = 2000000 };
	struct latency_op op = { .name = "outs3", .op = lat_outs, .arg = 3,
				 .setup = lat_count_setup, .teardown = lat_count_teardown };
	double ovh = -1;
	struct vm *vm;
	char err[256];
	bool finite = true;

	if (access("/dev/kvm", R_OK | W_OK))
		return tap_skip_all("/dev/kvm is not usable");
	if (vm_create(&vm, NULL, err, sizeof(err))) {
		tap_plan(1);
		tap_ok(0, "vm_create: %s", err);
		return tap_done();
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

	vm_destroy(vm);
	free(res);
	return done_testing();
}
