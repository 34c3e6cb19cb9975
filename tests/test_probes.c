// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_probes.c - the probes that share a name with kvm-unit-tests
 * x86/vmexit.c time what vmexit.c times: the catalogue has every vmexit.c
 * case it can run, each new or changed probe yields figures (or a skip or
 * check failure with its reason), inl_from_pmtimer is exactly one userspace
 * I/O exit per op, the xAPIC self IPIs never leave the kernel,
 * tscdeadline_immed does not wait when its interrupts come in window, every
 * interrupt probe counts where each op's interrupt was taken (in window,
 * late, never), a self IPI that is never taken (the
 * EXITSCOPE_TEST_MASK_SELF_IPI test hook) fails with "never" counts, one
 * taken only after its window ("late") is measured with "late" counts in
 * the JSON and the table, a late phase's wait (a hold the test knows) is
 * left out of the cost and counted in the wait, and a second vCPU that never gets ready (the
 * EXITSCOPE_TEST_NO_PEER hook) fails the two-vCPU probes with what to do.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "base/array_size.h"
#include "probes/probes.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;

/* The probes this suite runs: new or changed for vmexit.c semantics. */
static const char *const run_names[] = {
	"hlt", "self_ipi", "self_ipi_sti_nop", "self_ipi_sti_hlt", "self_ipi_tpr",
	"self_ipi_tpr_sti_nop", "self_ipi_tpr_sti_hlt", "x2apic_self_ipi_sti_nop",
	"x2apic_self_ipi_sti_hlt", "x2apic_self_ipi_tpr", "x2apic_self_ipi_tpr_sti_nop",
	"x2apic_self_ipi_tpr_sti_hlt", "ipi_halt", "tscdeadline", "tscdeadline_immed",
	"inl_from_pmtimer", "ple_round_robin",
};

/* vmexit.c's cases that exitscope has under the same name. */
static const char *const vmexit_names[] = {
	"cpuid", "vmcall", "mov_from_cr8", "mov_to_cr8", "inl_from_pmtimer", "inl_from_kernel",
	"outl_to_kernel", "mov_dr", "tscdeadline_immed", "tscdeadline", "self_ipi_sti_nop",
	"self_ipi_sti_hlt", "self_ipi_tpr", "self_ipi_tpr_sti_nop", "self_ipi_tpr_sti_hlt",
	"x2apic_self_ipi_sti_nop", "x2apic_self_ipi_sti_hlt", "x2apic_self_ipi_tpr",
	"x2apic_self_ipi_tpr_sti_nop", "x2apic_self_ipi_tpr_sti_hlt", "ipi", "ipi_halt",
	"ple_round_robin", "wr_kernel_gs_base", "wr_tsx_ctrl_msr", "wr_ibrs_msr", "wr_ibpb_msr",
	"wr_tsc_adjust_msr", "rd_tsc_adjust_msr", "toggle_cr0_wp", "toggle_cr4_pge",
};

#define NEVER_CAME	"never arrived: none of"
#define BUDGET_S	"0.05"
#define PEER_BOUND_MS	550.0	/* half the watchdog of --time-budget 0.05: (2 x 0.05 + 1) s / 2 */

static bool is_ok(json_t *p)
{
	return p && !strcmp(fixture_str(p, "status"), "ok");
}

/*
 * Run the named probes (env: VAR=VALUE settings separated by spaces, or
 * NULL); their table into *table when given (free it).
 */
static json_t *run_json_table(const char *path, const char *env, size_t n, const char *const *names,
			      char **table)
{
	const char *argv[64];
	char envs[256], *sp = NULL;
	struct run_result r;
	json_error_t je;
	size_t a = 0;
	json_t *root;

	if (env) {
		snprintf(envs, sizeof(envs), "%s", env);
		argv[a++] = "env";
		for (char *e = strtok_r(envs, " ", &sp); e && a < 8; e = strtok_r(NULL, " ", &sp))
			argv[a++] = e;
	}
	argv[a++] = exe;
	argv[a++] = "run";
	for (size_t i = 0; i < n && a < 50; i++)
		argv[a++] = names[i];
	for (const char *const *o = (const char *const[]){ "--samples", "3", "--time-budget", BUDGET_S,
							    "--quiet", "--json", path, NULL }; *o; o++)
		argv[a++] = *o;
	argv[a] = NULL;
	unlink(path);
	run_cmd(&r, argv);
	if (r.status)
		diag("exitscope run: exit %d: %s", r.status, r.err);
	ok(r.status == 0, "%s: exit 0", env ? env : "run of the vmexit.c probes");
	if (table)
		*table = strdup(r.out ? r.out : "");
	run_free(&r);
	root = json_load_file(path, 0, &je);
	ok(root != NULL, "the JSON result was written");
	return root;
}

static json_t *run_json(const char *path, const char *env, size_t n, const char *const *names)
{
	return run_json_table(path, env, n, names, NULL);
}

static bool irq_probe(const char *name)
{
	return probe_find(name) && probe_find(name)->teardown == probe_irq_check;
}

/* The delivery counts of p: 0 when they are there and add up (in_window + late + never == ops > 0). */
static int delivery_of(json_t *p, long long *ops, long long *in_window, long long *late, long long *never)
{
	json_t *d = json_object_get(p, "delivery");

	if (!json_is_object(d))
		return -1;
	if (json_object_get(d, "late_in_cost") != json_false())
		return -1;	/* exitscope leaves the late phase out of the cost, and says so */
	*ops = json_integer_value(json_object_get(d, "ops"));
	*in_window = json_integer_value(json_object_get(d, "in_window"));
	*late = json_integer_value(json_object_get(d, "late"));
	*never = json_integer_value(json_object_get(d, "never"));
	return *ops > 0 && *in_window + *late + *never == *ops ? 0 : -1;
}

static void test_catalogue(void)
{
	size_t missing = 0;

	for (size_t i = 0; i < ARRAY_SIZE(vmexit_names); i++)
		if (!probe_find(vmexit_names[i])) {
			diag("vmexit.c's %s is not in the catalogue", vmexit_names[i]);
			missing++;
		}
	ok(!missing, "every vmexit.c case exitscope can run is in the catalogue under its name");
	ok(probe_find("self_ipi_tpr") && strstr(probe_find("self_ipi_tpr")->description, "vmexit.c"),
	   "a description says how the probe differs from vmexit.c");
	ok(probe_find("tscdeadline_immed") && probe_find("tscdeadline_immed")->op !=
	   probe_find("tscdeadline")->op, "tscdeadline_immed has an op of its own (it does not wait)");
}

/* Every probe run: figures, a skip with a reason, or its interrupt check's failure. */
static void check_every_probe(json_t *root)
{
	size_t bad = 0, nok = 0;

	for (size_t i = 0; i < ARRAY_SIZE(run_names); i++) {
		json_t *p = fixture_probe_json(root, run_names[i]);
		const char *st = p ? fixture_str(p, "status") : "absent", *why = p ? fixture_str(p, "reason") : "";
		bool checked = irq_probe(run_names[i]);

		if (is_ok(p)) {
			json_t *c = json_object_get(p, "cycles");

			nok++;
			if (!(fixture_num(p, "raw_median_cycles") > 0) || !(fixture_num(c, "median") >= 0) ||
			    !isfinite(fixture_num(c, "median")) || !(fixture_num(p, "batch") >= 1)) {
				diag("%s: figures not positive/finite", run_names[i]);
				bad++;
			}
		} else if (!strcmp(st, "skipped") && *why) {
			diag("%s skipped: %s", run_names[i], why);
		} else if (!strcmp(st, "failed") && checked && strstr(why, NEVER_CAME)) {
			/* The host never delivered the interrupt at all. */
			diag("%s failed its check: %s", run_names[i], why);
		} else {
			diag("%s: status %s, reason '%s'", run_names[i], st, why);
			bad++;
		}
	}
	ok(!bad, "every probe: positive figures, or a skip or an interrupt check failure with its reason");
	diag("%zu of %zu measured here", nok, ARRAY_SIZE(run_names));
}

/*
 * Every interrupt probe that ran has its delivery counts, and they add up;
 * a measured one took some interrupt, a failed one none. The two-vCPU
 * probes say how long vCPU 1 took, within the bound.
 */
static void check_delivery(json_t *root)
{
	size_t bad = 0, n = 0, np = 0, badp = 0;
	long long ops, in_window, late, never;

	for (size_t i = 0; i < ARRAY_SIZE(run_names); i++) {
		json_t *p = fixture_probe_json(root, run_names[i]);
		const char *st = p ? fixture_str(p, "status") : "absent";
		bool two = probe_find(run_names[i]) && (probe_find(run_names[i])->needs & PROBE_NEED_2VCPUS);

		if (two && is_ok(p)) {
			double w = fixture_num(p, "peer_wait_ms");

			np++;
			if (!(w >= 0 && w <= PEER_BOUND_MS)) {
				diag("%s: peer_wait_ms %g", run_names[i], w);
				badp++;
			}
			diag("%s: vCPU 1 ready after %.3g ms", run_names[i], w);
		}
		if (!irq_probe(run_names[i]) || (strcmp(st, "ok") && strcmp(st, "failed")))
			continue;
		n++;
		if (delivery_of(p, &ops, &in_window, &late, &never)) {
			diag("%s: no delivery counts, or they do not add up", run_names[i]);
			bad++;
			continue;
		}
		diag("%s: %lld ops: %lld in window, %lld late, %lld never", run_names[i], ops, in_window,
		     late, never);
		if (is_ok(p) ? !(in_window + late) : in_window + late)
			bad++;
	}
	if (n)
		ok(!bad, "%zu interrupt probes: delivery counts that add up to ops; ok ones took some, "
		   "failed ones none", n);
	else
		tap_skip(1, "no interrupt probe ran here");
	if (np)
		ok(!badp, "%zu two-vCPU probes measured: peer_wait_ms within the bound (%.0f ms)", np,
		   PEER_BOUND_MS);
	else
		tap_skip(1, "no two-vCPU probe measured here");
}

static void check_per_op(json_t *root)
{
	json_t *pm = fixture_probe_json(root, "inl_from_pmtimer"), *t = fixture_probe_json(root, "tscdeadline");
	json_t *ti = fixture_probe_json(root, "tscdeadline_immed");
	static const char *const xapic[] = { "self_ipi_sti_nop", "self_ipi_sti_hlt", "self_ipi_tpr",
					     "self_ipi_tpr_sti_nop", "self_ipi_tpr_sti_hlt" };
	size_t n = 0, user = 0;

	if (is_ok(pm)) {
		json_t *po = json_object_get(pm, "per_op");

		is_num(fixture_num(po, "user_io"), 1, 0.01, "inl_from_pmtimer: one userspace I/O exit per op");
		is_num(fixture_num(po, "user_mmio") + fixture_num(po, "user_msr"), 0, 0,
		       "inl_from_pmtimer: no other userspace exit");
	} else {
		tap_skip(2, "inl_from_pmtimer not measured here");
	}
	/* The xAPIC page is the in-kernel LAPIC's: no MMIO exit reaches exitscope. */
	for (size_t i = 0; i < ARRAY_SIZE(xapic); i++) {
		json_t *p = fixture_probe_json(root, xapic[i]);

		if (is_ok(p)) {
			n++;
			user += fixture_num(json_object_get(p, "per_op"), "user_mmio") != 0;
		}
	}
	if (n)
		ok(!user, "xAPIC self IPIs: user_mmio is 0 in all %zu measured (in-kernel LAPIC)", n);
	else
		tap_skip(1, "no xAPIC self IPI measured here");
	/*
	 * tscdeadline_immed with every interrupt in its window does not wait;
	 * with late ones its op waited for them (the late phase), which can
	 * cost more than tscdeadline's own wait.
	 */
	if (is_ok(ti) && is_ok(t) && fixture_num(json_object_get(t, "per_op"), "insn_emulation") > 0 &&
	    fixture_num(json_object_get(ti, "delivery"), "in_window") == fixture_num(json_object_get(ti, "delivery"), "ops"))
		ok(fixture_num(json_object_get(ti, "per_op"), "insn_emulation") <
		   fixture_num(json_object_get(t, "per_op"), "insn_emulation"),
		   "tscdeadline_immed emulates fewer instructions per op than tscdeadline (no wait loop)");
	else if (ti && !is_ok(ti))
		tap_like(fixture_str(ti, "reason"), NEVER_CAME,
			 "tscdeadline_immed not measured: its interrupt check says why");
	else if (is_ok(ti))
		tap_skip(1, "tscdeadline_immed's interrupts came after their window here (the hold test "
			 "checks its cost leaves the wait out)");
	else
		tap_skip(1, "no instruction-emulation counts to compare the two timer probes");
	if (is_ok(fixture_probe_json(root, "ple_round_robin")))
		is_num(fixture_num(json_object_get(fixture_probe_json(root, "ple_round_robin"), "per_op"), "user_io"), 0, 0,
		       "ple_round_robin: no userspace exit");
	else
		tap_skip(1, "ple_round_robin not measured here");
}

static const char *const hooked[] = { "self_ipi_tpr", "x2apic_self_ipi_sti_nop" };
#define NHOOKED ARRAY_SIZE(hooked)

/* The hook keeps TPR at 15: the IPI is never taken, the probe fails with "never" counts. */
static void test_mask_hook(const char *path)
{
	json_t *root = run_json(path, PROBE_MASK_SELF_IPI_ENV "=1", NHOOKED, hooked);
	long long ops, in_window, late, never;

	for (size_t i = 0; root && i < NHOOKED; i++) {
		json_t *p = fixture_probe_json(root, hooked[i]);
		char what[128];

		if (p && !strcmp(fixture_str(p, "status"), "skipped")) {
			tap_skip(3, "probe skipped on this host");
			continue;
		}
		snprintf(what, sizeof(what), "masked %s: status failed", hooked[i]);
		tap_is_str(p ? fixture_str(p, "status") : NULL, "failed", "%s", what);
		snprintf(what, sizeof(what), "masked %s: the reason says no interrupt arrived, and why", hooked[i]);
		tap_like(p ? fixture_str(p, "reason") : NULL, NEVER_CAME, "%s", what);
		ok(p && !delivery_of(p, &ops, &in_window, &late, &never) && never == ops && !in_window && !late,
		   "masked %s: every op 'never' in the JSON's delivery", hooked[i]);
	}
	json_decref(root);
}

/* TPR 15 in the window only: each interrupt is taken late, the probe is measured. */
static void test_late_hook(const char *path)
{
	char *table = NULL;
	json_t *root = run_json_table(path, PROBE_MASK_SELF_IPI_ENV "=late", NHOOKED, hooked, &table);
	long long ops, in_window, late, never;
	size_t measured = 0;

	for (size_t i = 0; root && i < NHOOKED; i++) {
		json_t *p = fixture_probe_json(root, hooked[i]);

		if (p && !strcmp(fixture_str(p, "status"), "skipped")) {
			tap_skip(1, "probe skipped on this host");
			continue;
		}
		measured += is_ok(p);
		if (!ok(is_ok(p) && !delivery_of(p, &ops, &in_window, &late, &never) && !in_window &&
			late >= 1 && late + never == ops,
			"late %s: ok, none in window, late ones counted", hooked[i]))
			diag("status %s, reason '%s'", p ? fixture_str(p, "status") : "absent",
			     p ? fixture_str(p, "reason") : "");
	}
	if (measured)
		tap_like(table, "irq: 0 in window, ", "the table notes the delivery counts, none in window");
	else
		tap_skip(1, "no hooked probe measured here");
	free(table);
	json_decref(root);
}

/*
 * A wait the test knows (EXITSCOPE_TEST_LATE_HOLD: every late phase spends W
 * cycles with IF=0 first) is in the reported wait and not in the cost. The
 * self IPI is late on every host (TPR 15 in its window), tscdeadline_immed
 * where the host delivers after the window. W is ten times the largest cost
 * measured without the hold: billed, it would add W to the cost; the test
 * asserts less than half of it was added.
 */
static void test_late_hold(const char *path)
{
	static const char *const names[] = { "tscdeadline_immed", "x2apic_self_ipi_sti_nop" };
	json_t *root = run_json(path, PROBE_MASK_SELF_IPI_ENV "=late", 2, names), *held;
	long long ops, in_window, late, never;
	double cost[2] = { -1, -1 }, w = 1000;
	char env[160];

	for (size_t i = 0; root && i < 2; i++) {
		json_t *p = fixture_probe_json(root, names[i]);

		if (is_ok(p) && !delivery_of(p, &ops, &in_window, &late, &never) && !in_window && late) {
			cost[i] = fixture_num(json_object_get(p, "cycles"), "median");
			w = fmax(w, 10 * cost[i]);
		}
	}
	json_decref(root);
	snprintf(env, sizeof(env), PROBE_MASK_SELF_IPI_ENV "=late " PROBE_LATE_HOLD_ENV "=%.0f", w);
	held = run_json(path, env, 2, names);
	for (size_t i = 0; held && i < 2; i++) {
		json_t *p = fixture_probe_json(held, names[i]);
		double c, wait;

		if (cost[i] < 0 || !is_ok(p) || delivery_of(p, &ops, &in_window, &late, &never) ||
		    in_window || !late) {
			tap_skip(2, "no late interrupts to hold here");
			diag("%s: %s", names[i], cost[i] < 0 ? "its interrupts came in its window (or it was "
			     "not measured) without the hold" : "not measured late with the hold");
			continue;
		}
		c = fixture_num(json_object_get(p, "cycles"), "median");
		wait = fixture_num(json_object_get(p, "delivery"), "late_wait_cycles");
		diag("%s: cost %.4g cycles, %.4g with a hold of %.4g (mean wait %.4g)", names[i], cost[i], c,
		     w, wait);
		ok(wait >= w, "held %s: the mean late wait includes the hold", names[i]);
		ok(c < cost[i] + w / 2, "held %s: the cost leaves the hold out", names[i]);
	}
	json_decref(held);
}

/* vCPU 1 never gets ready: the two-vCPU probes fail at half the watchdog and say what to do. */
static void test_no_peer_hook(const char *path)
{
	static const char *const names[] = { "ipi_halt", "ple_round_robin" };
	json_t *root = run_json(path, PROBE_NO_PEER_ENV "=1", 2, names);

	for (size_t i = 0; root && i < 2; i++) {
		json_t *p = fixture_probe_json(root, names[i]);
		const char *why = p ? fixture_str(p, "reason") : NULL;

		if (p && !strcmp(fixture_str(p, "status"), "skipped")) {
			tap_skip(2, "probe skipped on this host");
			continue;
		}
		ok(p && !strcmp(fixture_str(p, "status"), "failed") && why && strstr(why, "did not get ready") &&
		   strstr(why, "--cpu A,B"), "no peer: %s failed, the reason says what to do", names[i]);
		if (!ok(p && fixture_num(p, "peer_wait_ms") >= PEER_BOUND_MS,
			"no peer: %s waited its bound (peer_wait_ms >= %.0f)", names[i], PEER_BOUND_MS))
			diag("status %s, peer_wait_ms %g, reason '%s'", p ? fixture_str(p, "status") : "absent",
			     p ? fixture_num(p, "peer_wait_ms") : -1, why ? why : "");
	}
	json_decref(root);
}

int main(void)
{
	char *dir, path[512];
	json_t *root;

	exe = getenv("EXITSCOPE");
	if (!exe || access(exe, X_OK))
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	test_catalogue();
	if (access("/dev/kvm", R_OK | W_OK)) {
		skip("/dev/kvm is not usable: no measurements");
		return done_testing();
	}
	dir = fixture_tmpdir();
	snprintf(path, sizeof(path), "%s/probes.json", dir);
	root = run_json(path, NULL, ARRAY_SIZE(run_names), run_names);
	if (root) {
		check_every_probe(root);
		check_delivery(root);
		check_per_op(root);
		json_decref(root);
	}
	snprintf(path, sizeof(path), "%s/masked.json", dir);
	test_mask_hook(path);
	snprintf(path, sizeof(path), "%s/late.json", dir);
	test_late_hook(path);
	snprintf(path, sizeof(path), "%s/hold.json", dir);
	test_late_hold(path);
	snprintf(path, sizeof(path), "%s/nopeer.json", dir);
	test_no_peer_hook(path);
	fixture_rmdir(dir);
	return done_testing();
}
