// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_run.c - `exitscope run` end to end: --help, --list (every probe with
 * its requirement), usage errors, the whole catalogue once with small
 * samples (every probe ok with positive finite figures, or a reason), exact
 * userspace exits per op of pio_to_user/mmio_to_user/rd_user_msr, the JSON
 * against the schema and through the reader, and a probe forced to hang.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "base/array_size.h"
#include "probes/probes.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;

/* Whether a continuation line (leading spaces) after the line at row ends in needs ("needs: X\n"). */
static bool next_needs(const char *row, const char *needs)
{
	for (const char *l = strchr(row, '\n'); l && l[1] == ' '; l = strchr(l + 1, '\n')) {
		const char *end = strchr(l + 1, '\n');
		const char *at = strstr(l + 1, needs);

		if (at && end && at + strlen(needs) == end + 1)
			return true;
	}
	return false;
}

static void test_cli_basics(void)
{
	struct run_result r;
	char needs[256], line[512];
	int name_w = 5;	/* the name column: the longest name */
	bool all = true;

	run_cmd(&r, (const char *const[]){ exe, "run", "--help", NULL });
	is_int(r.status, 0, "run --help exits 0");
	tap_like(r.out, "usage: exitscope run", "run --help prints the usage");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "run", "--list", NULL });
	is_int(r.status, 0, "run --list exits 0");
	for (size_t i = 0; i < nr_probes; i++)
		if ((int)strlen(probes[i].name) > name_w)
			name_w = (int)strlen(probes[i].name);
	for (size_t i = 0; i < nr_probes; i++) {
		probe_needs_text(&probes[i], needs, sizeof(needs));
		const char *at;

		snprintf(line, sizeof(line), "\n%-*s %-9s ", name_w, probes[i].name, probes[i].group);
		at = strstr(r.out, line);
		snprintf(line, sizeof(line), "needs: %s\n", needs);
		/* Its needs below its description, before the next probe's line (none: no needs line). */
		if (!at || (strcmp(needs, "none") && !next_needs(at + 1, line))) {
			diag("--list lacks the line for %s (needs: %s)", probes[i].name, needs);
			all = false;
		}
	}
	ok(all && nr_probes >= 45, "--list prints all %zu probes with group and requirement", nr_probes);
	tap_like(r.out, "CPUID shstk or ibt", "--list names CPUID requirements");
	tap_like(r.out, "in-kernel irqchip, 2 vCPUs, x2APIC", "--list names irqchip/vCPU requirements");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "run", "no_such_probe", NULL });
	is_int(r.status, 2, "unknown probe name: exit 2");
	tap_like(r.err, "no probe matches 'no_such_probe'", "unknown probe: the message names it");
	tap_like(r.err, "exitscope run --help", "unknown probe: hint to --help");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "run", "cpuid", "zz*", NULL });
	is_int(r.status, 2, "a glob matching nothing: exit 2");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "run", "--samples", "0", NULL });
	is_int(r.status, 2, "--samples 0: exit 2");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "run", "--time-budget", "x", NULL });
	is_int(r.status, 2, "--time-budget x: exit 2");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "run", "--bogus", NULL });
	is_int(r.status, 2, "unknown option: exit 2");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "run", "--kvm-dev", "/nonexistent/kvm", "nop", NULL });
	is_int(r.status, 3, "missing KVM device: exit 3");
	run_free(&r);
}

/* Every probe: ok with positive finite figures, or not ok with a reason. */
static void check_every_probe(json_t *root)
{
	size_t i, nok = 0, bad = 0;
	/* The run's rounds at most (settings.rounds: the default here). */
	size_t max_rounds = (size_t)json_integer_value(json_object_get(json_object_get(root, "settings"), "rounds"));
	json_t *p;

	json_array_foreach(json_object_get(root, "probes"), i, p) {
		const char *name = fixture_str(p, "name"), *st = fixture_str(p, "status");

		if (i < nr_probes && strcmp(name, probes[i].name)) {
			diag("probe %zu is %s, want %s (catalogue order)", i, name, probes[i].name);
			bad++;
		}
		if (!strcmp(st, "ok")) {
			json_t *c = json_object_get(p, "cycles"), *s = json_object_get(p, "samples"), *v;
			json_t *rounds = json_object_get(p, "rounds"), *rd;
			double raw = fixture_num(p, "raw_median_cycles");
			size_t k, pairs = 0;

			nok++;
			/* Method v2: the flat samples are every round's pairs. */
			json_array_foreach(rounds, k, rd) {
				pairs += json_array_size(json_object_get(rd, "samples"));
				if (!(fixture_num(rd, "batch") >= 1) || !(fixture_num(rd, "raw_median") > 0))
					bad++;
			}
			if (!json_array_size(rounds) || json_array_size(rounds) > max_rounds ||
			    (strcmp(fixture_str(p, "stop"), "precision") && strcmp(fixture_str(p, "stop"), "budget"))) {
				diag("%s: %zu rounds, stop '%s'", name, json_array_size(rounds), fixture_str(p, "stop"));
				bad++;
			}
			if (!(raw > 0 && isfinite(raw)) || !(fixture_num(p, "batch") >= 1) ||
			    json_array_size(s) != pairs || !pairs || !isfinite(fixture_num(c, "median")) ||
			    !(fixture_num(c, "median") >= 0) || !(fixture_num(p, "ns_median") >= 0) ||
			    !(fixture_num(p, "overhead_cycles") >= 0)) {
				diag("%s: figures not positive/finite (raw %g, batch %g, %zu samples)",
				     name, raw, fixture_num(p, "batch"), json_array_size(s));
				bad++;
			}
			json_array_foreach(s, k, v)
				if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
				    json_number_value(v) < 0)
					bad++;
		} else if (!*fixture_str(p, "reason")) {
			diag("%s: status %s without a reason", name, st);
			bad++;
		} else if (strcmp(st, "skipped") && strcmp(st, "failed") && strcmp(st, "hang")) {
			diag("%s: status '%s'", name, st);
			bad++;
		}
	}
	is_int((long long)json_array_size(json_object_get(root, "probes")), (long long)nr_probes,
	       "the whole catalogue is in the result");
	ok(!bad && max_rounds >= 1, "every probe: positive finite figures in 1-%zu rounds (settings.rounds) "
	   "with a stop, or skipped/failed/hang with a reason", max_rounds);
	ok(fixture_probe_json(root, "nop") && !strcmp(fixture_str(fixture_probe_json(root, "nop"), "status"), "ok"),
	   "the nop baseline was measured");
	diag("%zu of %zu probes measured on this host", nok, nr_probes);
}

/* Userspace round trips are exactly one exit of their kind per op. */
static void check_exact_exits(json_t *root)
{
	static const struct { const char *probe, *key; double want; } exact[] = {
		{ "pio_to_user", "user_io", 1 }, { "pio_to_user", "user_mmio", 0 },
		{ "mmio_to_user", "user_mmio", 1 }, { "mmio_to_user", "user_io", 0 },
		{ "rd_user_msr", "user_msr", 1 },
		{ "ioeventfd_pio_wildcard", "user_io", 0 }, { "ioeventfd_pio_datamatch", "user_io", 0 },
		{ "ioeventfd_mmio_wildcard", "user_mmio", 0 }, { "ioeventfd_mmio_datamatch", "user_mmio", 0 },
		{ "inl_from_kernel", "user_io", 0 }, { "outl_to_kernel", "user_io", 0 },
		{ "cpuid", "user_io", 0 },
	};
	char name[128];

	for (size_t i = 0; i < ARRAY_SIZE(exact); i++) {
		json_t *p = fixture_probe_json(root, exact[i].probe);

		if (!p || strcmp(fixture_str(p, "status"), "ok")) {
			tap_skip(1, "probe not measured here");
			continue;
		}
		snprintf(name, sizeof(name), "%s: per_op.%s is exactly %.0f", exact[i].probe,
			 exact[i].key, exact[i].want);
		is_num(fixture_num(json_object_get(p, "per_op"), exact[i].key), exact[i].want, 0, name);
	}
	/* The stats fd's io_exits/mmio_exits, where the backend keeps them. */
	for (int m = 0; m < 2; m++) {
		json_t *p = fixture_probe_json(root, m ? "mmio_to_user" : "pio_to_user");
		json_t *po = p ? json_object_get(p, "per_op") : NULL;
		const char *key = m ? "mmio_exits" : "io_exits";

		if (!po || fixture_num(po, key) == 0)
			tap_skip(1, "the backend does not maintain this stat (kvm_pvm keeps it at 0)");
		else
			is_num(fixture_num(po, key), 1, 0, m ? "mmio_to_user: stats mmio_exits/op is exactly 1"
						     : "pio_to_user: stats io_exits/op is exactly 1");
	}
}

/* Schema, required fields, and the reader agreeing with the raw JSON. */
static void check_json(const char *path, json_t *root)
{
	struct result_file *rf;
	struct err err;
	size_t agree = 0;

	tap_is_str(fixture_str(root, "schema"), "exitscope-result", "schema name");
	is_int(json_integer_value(json_object_get(root, "schema_version")), RESULT_SCHEMA_VERSION,
	       "the schema version this exitscope writes");
	tap_is_str(fixture_str(root, "kind"), "run", "kind run");
	ok(json_is_object(json_object_get(json_object_get(root, "host"), "execution")),
	   "the full host record (with execution mode) is included");
	ok(json_is_array(json_object_get(root, "command")) && *fixture_str(root, "started") &&
	   *fixture_str(root, "finished"), "command line and timestamps");
	rf = result_read_file(path, &err);
	if (!ok(rf != NULL, "the result file validates with the reader")) {
		diag("%s", err.msg);
		tap_skip(2, "no reader result");
		return;
	}
	is_int((long long)rf->n_probes, (long long)json_array_size(json_object_get(root, "probes")),
	       "reader sees every probe");
	for (size_t i = 0; i < rf->n_probes; i++) {
		const struct run_probe *p = &rf->probes[i];
		json_t *j = fixture_probe_json(root, p->name);

		if (!j || strcmp(probe_status_names[p->status], fixture_str(j, "status")))
			continue;
		if (p->status != PROBE_OK) {
			agree += p->reason && !strcmp(p->reason, fixture_str(j, "reason"));
			continue;
		}
		agree += p->n_samples == json_array_size(json_object_get(j, "samples")) &&
			 p->cycles.median == fixture_num(json_object_get(j, "cycles"), "median") &&
			 p->per_op[RESULT_OP_EXITS] == fixture_num(json_object_get(j, "per_op"), "exits") &&
			 p->batch == (long long)fixture_num(j, "batch");
	}
	is_int((long long)agree, (long long)rf->n_probes,
	       "reader values round-trip (status, reason, samples, median, exits, batch)");
	result_free(rf);
}

/*
 * Ctrl-C: SIGINT while the catalogue runs ends it with 130, and the JSON
 * still holds what was measured, the rest as skipped "stopped by Ctrl-C".
 * It is sent once the progress line shows cpuid's first round: nop's is done.
 */
static void test_sigint(const char *path)
{
	const struct run_opts tty = { .stderr_tty = true };
	struct result_file *rf;
	struct err err;
	size_t nstopped = 0, nok = 0;
	struct run_proc pr;
	struct run_result r;

	if (run_start(&pr, (const char *const[]){ exe, "run", "--samples", "3", "--time-budget", "0.4",
		      "--json", path, NULL }, &tty)) {
		tap_skip(4, "cannot start exitscope");
		return;
	}
	ok(run_wait_stderr(&pr, "cpuid, round 1/", RUN_WAIT_MS), "Ctrl-C: sent as cpuid's first round runs (progress)");
	kill(pr.pid, SIGINT);
	run_finish(&pr, &r);
	ok(r.signal == 0 && r.status == 130, "Ctrl-C: exit status 130 (status %d, signal %d)", r.status, r.signal);
	run_free(&r);
	rf = result_read_file(path, &err);
	if (!ok(rf != NULL, "Ctrl-C: the JSON was still written and validates")) {
		diag("%s", err.msg);
		tap_skip(1, "no result file");
		return;
	}
	for (size_t i = 0; i < rf->n_probes; i++) {
		nok += rf->probes[i].status == PROBE_OK;
		nstopped += rf->probes[i].reason && strstr(rf->probes[i].reason, "Ctrl-C");
	}
	ok(nok >= 1 && nstopped >= 1 && rf->n_probes == nr_probes &&
	   result_find_probe(rf, "nop") && result_find_probe(rf, "nop")->status == PROBE_OK,
	   "Ctrl-C: measured probes kept (%zu, nop among them), the rest marked stopped (%zu)", nok, nstopped);
	result_free(rf);
}

static json_t *run_json(const char *path, struct run_result *r, const char *const *argv)
{
	json_error_t je;

	run_cmd(r, argv);
	return json_load_file(path, 0, &je);
}

/*
 * A probe forced to hang (cpuid) is stopped at its watchdog, which the
 * reason names (want); the probe after it is still measured.
 */
static void test_hang(const char *path, const char *method, const char *want, const char *what)
{
	struct run_result r;
	json_t *root;

	root = run_json(path, &r, (const char *const[]){ "env", "EXITSCOPE_TEST_HANG=cpuid", exe, "run",
			"cpuid", "rdtsc", "--method", method, "--samples", "3", "--rounds", "2",
			"--time-budget", "0.1", "--json", path, NULL });
	ok(r.status == 0, "%s, forced hang: the run still completes (exit %d)", method, r.status);
	tap_like(r.out, want, "%s: the table reports the hang at its watchdog", method);
	run_free(&r);
	if (root) {
		json_t *c = fixture_probe_json(root, "cpuid"), *t = fixture_probe_json(root, "rdtsc");

		tap_is_str(c ? fixture_str(c, "status") : NULL, "hang", "%s: cpuid: status hang", method);
		tap_like(c ? fixture_str(c, "reason") : NULL, want, "%s", what);
		tap_is_str(t ? fixture_str(t, "status") : NULL, "ok", "%s: rdtsc after the hang: measured", method);
		json_decref(root);
	} else {
		tap_skip(3, "no JSON from the hang run");
	}
}

/* Probes run in command-line order; --cpu A,B is in the settings and on the two-vCPU probe. */
static void test_order_cpus(const char *dir)
{
	const char *names[] = { "ipi", "rdtsc", "cpuid", "nop" };	/* reverse catalogue order */
	char path[512];
	struct run_result r;
	json_t *root, *ps, *set, *p;
	bool two = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	size_t i, inorder = 0;

	snprintf(path, sizeof(path), "%s/order.json", dir);
	root = run_json(path, &r, (const char *const[]){ exe, "run", "ipi", "rdtsc", "cpuid", "nop",
			"--rounds", "2", "--time-budget", "0.05", "--cpu", two ? "0,1" : "0", "--quiet",
			"--json", path, NULL });
	is_int(r.status, 0, "ipi rdtsc cpuid nop --cpu 0,1 --rounds 2: exit 0");
	run_free(&r);
	if (!root) {
		tap_skip(7, "no JSON");
		return;
	}
	ps = json_object_get(root, "probes");
	json_array_foreach(ps, i, p)
		if (i < 4 && !strcmp(fixture_str(p, "name"), names[i]))
			inorder++;
	ok(json_array_size(ps) == 4 && inorder == 4, "the probes are in command-line order (%s, %s, ...)",
	   fixture_str(json_array_get(ps, 0), "name"), fixture_str(json_array_get(ps, 1), "name"));
	set = json_object_get(root, "settings");
	tap_is_str(fixture_str(set, "method"), "v2", "settings.method v2 (the default)");
	is_int(json_integer_value(json_object_get(set, "rounds")), 2, "settings.rounds 2");
	ok(json_array_size(json_object_get(set, "cpus")) == (two ? 2 : 1) &&
	   json_integer_value(json_array_get(json_object_get(set, "cpus"), 0)) == 0 &&
	   (!two || json_integer_value(json_array_get(json_object_get(set, "cpus"), 1)) == 1),
	   "settings.cpus as --cpu asked");
	p = json_array_get(ps, 1);
	ok(!strcmp(fixture_str(p, "status"), "ok") && json_array_size(json_object_get(p, "rounds")) >= 1 &&
	   json_array_size(json_object_get(p, "rounds")) <= 2, "rdtsc: one or two rounds");
	ok(!json_object_get(p, "cpus"), "rdtsc (one vCPU): no cpus");
	p = json_array_get(ps, 0);
	if (!two || strcmp(fixture_str(p, "status"), "ok")) {
		tap_skip(1, two ? "ipi not measured here" : "one CPU");
	} else {
		json_t *c = json_object_get(p, "cpus");

		ok(json_array_size(c) == 2 && json_integer_value(json_array_get(c, 0)) == 0 &&
		   json_integer_value(json_array_get(c, 1)) == 1, "ipi: cpus [0, 1] as pinned");
	}
	json_decref(root);
}

/*
 * KVM_CREATE_VM ioctls of `exitscope run cpuid --rounds N --time-budget S`,
 * or -1; *ran: the rounds its result says cpuid ran. The budget (the
 * rounds' CPU time; a round's guest run is not exactly the share its
 * batches were sized for) can end them before N: the count, not N, is
 * what the VMs must follow.
 */
static long vms_created(const char *dir, const char *rounds, const char *budget, size_t *ran)
{
	char trace[512], json[512], *t, *at;
	struct run_result r;
	json_error_t je;
	json_t *root;
	long n = 0;

	*ran = 0;
	snprintf(trace, sizeof(trace), "%s/strace-%s.txt", dir, rounds);
	snprintf(json, sizeof(json), "%s/vms-%s.json", dir, rounds);
	/* LeakSanitizer cannot run under ptrace: a sanitized build checks leaks elsewhere. */
	run_cmd(&r, (const char *const[]){ "env", "ASAN_OPTIONS=detect_leaks=0", "strace", "-f", "-qq",
			"-e", "trace=ioctl", "-o", trace, exe, "run", "cpuid", "--rounds", rounds, "--precision", "0.001",
			"--precision-floor", "0", "--time-budget", budget, "--quiet", "--json", json, NULL });
	if (r.status) {
		diag("strace exitscope run: status %d: %s", r.status, r.err);
		run_free(&r);
		return -1;
	}
	run_free(&r);
	root = json_load_file(json, 0, &je);
	*ran = json_array_size(json_object_get(fixture_probe_json(root, "cpuid"), "rounds"));
	if (!*ran)
		diag("--rounds %s: cpuid %s: %s", rounds, fixture_str(fixture_probe_json(root, "cpuid"), "status"),
		     fixture_str(fixture_probe_json(root, "cpuid"), "reason"));
	json_decref(root);
	t = run_read_file(trace, NULL);
	if (!t)
		return -1;
	for (at = t; (at = strstr(at, "KVM_CREATE_VM")); at++)
		n++;
	free(t);
	return n;
}

/*
 * Method v2 measures each round of a probe in a VM of its own: a run of 32
 * rounds creates as many more VMs than a run of 1 as it ran more rounds.
 * The budgets keep each guest run short beside its watchdog (2 x budget +
 * 1 s), and 32 rounds leave more than one even when the host runs them
 * twenty times slower than the budget's calibration.
 */
static void test_vm_per_round(const char *dir)
{
	size_t r1, r32;
	long one, many;

	if (!run_works((const char *const[]){ "strace", "-V", NULL })) {
		tap_skip(1, "strace is not installed (scripts/install-deps --test installs it)");
		return;
	}
	one = vms_created(dir, "1", "0.05", &r1);
	many = vms_created(dir, "32", "0.2", &r32);
	ok(one > 0 && r1 == 1 && r32 > 1 && many - one == (long)(r32 - r1),
	   "each round in a VM of its own: %ld KVM_CREATE_VM for %zu round, %ld for %zu", one, r1, many, r32);
}

/* --method v1: today's shape: fixed --samples, one nop baseline, no rounds. */
static void test_v1(const char *dir)
{
	char path[512];
	struct run_result r;
	json_t *root, *set, *p;
	size_t i, old = 0;

	snprintf(path, sizeof(path), "%s/v1.json", dir);
	root = run_json(path, &r, (const char *const[]){ exe, "run", "cpuid", "nop", "--method", "v1",
			"--samples", "3", "--time-budget", "0.05", "--quiet", "--json", path, NULL });
	is_int(r.status, 0, "--method v1: exit 0");
	run_free(&r);
	if (!root) {
		tap_skip(4, "no JSON");
		return;
	}
	set = json_object_get(root, "settings");
	ok(!strcmp(fixture_str(set, "method"), "v1") && json_integer_value(json_object_get(set, "samples")) == 3 &&
	   json_object_get(set, "overhead_cycles") && !json_object_get(set, "rounds") &&
	   !json_object_get(set, "precision_pct"),
	   "v1 settings: method v1, samples 3, overhead_cycles, no rounds or precision");
	json_array_foreach(json_object_get(root, "probes"), i, p)
		if (!strcmp(fixture_str(p, "status"), "ok") && json_array_size(json_object_get(p, "samples")) == 3 &&
		    !json_object_get(p, "rounds") && !json_object_get(p, "ci_rel_pct") &&
		    !strcmp(fixture_str(p, "stop"), "samples"))
			old++;
	is_int((long long)old, 2, "v1 probes: 3 samples each, no rounds, stop 'samples'");
	tap_is_str(fixture_str(json_array_get(json_object_get(root, "probes"), 0), "name"), "cpuid",
		   "v1 also runs in command-line order");
	tap_is_str(fixture_str(json_array_get(json_object_get(root, "probes"), 1), "name"), "nop",
		 "v1: nop second, as named");
	json_decref(root);
}

/*
 * --run-limit: the probes it cut off say so, the measured ones stopped at
 * it. 15 probes whose first rounds take at least 1/32 of a 1 s budget each
 * (their batches are sized to it: 0.47 s in all, on any host) against a
 * 0.2 s limit: some are cut, and the first probe's first round starts well
 * inside it even on a loaded host. 32 rounds, so the budget (CPU time,
 * at most the wall time) never ends a first round before the limit does.
 */
static void test_run_limit(const char *dir)
{
	char path[512];
	struct run_result r;
	json_t *root, *p;
	size_t i, cut = 0, bad = 0;

	snprintf(path, sizeof(path), "%s/limit.json", dir);
	root = run_json(path, &r, (const char *const[]){ exe, "run", "nop", "cpuid", "rdtsc", "toggle_*",
			"mov_from_cr0", "mov_from_cr3", "mov_to_cr3", "mov_from_cr8", "mov_to_cr8",
			"--run-limit", "0.2", "--rounds", "32", "--time-budget", "1", "--quiet", "--json", path, NULL });
	is_int(r.status, 0, "--run-limit 0.2: exit 0");
	run_free(&r);
	json_array_foreach(root ? json_object_get(root, "probes") : NULL, i, p) {
		if (!strcmp(fixture_str(p, "status"), "ok"))
			bad += strcmp(fixture_str(p, "stop"), "run_limit") && strcmp(fixture_str(p, "stop"), "precision");
		else if (strstr(fixture_str(p, "reason"), "run limit"))
			cut++;
	}
	ok(root && cut > 0 && !bad, "probes the run limit cut off are skipped saying so (%zu), the "
	   "measured ones stopped at it", cut);
	p = root ? json_array_get(json_object_get(root, "probes"), 0) : NULL;
	if (!tap_is_str(p ? fixture_str(p, "stop") : NULL, "run_limit",
			"the first probe had its first round, then the limit stopped it"))
		diag("  %s: %s, %zu rounds: %s", fixture_str(p, "name"), fixture_str(p, "status"),
		     json_array_size(json_object_get(p, "rounds")), fixture_str(p, "reason"));
	json_decref(root);
}

int main(void)
{
	struct run_result r;
	char *dir, path[512], hpath[512];
	json_t *root;

	exe = getenv("EXITSCOPE");
	if (!exe || access(exe, X_OK))
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	test_cli_basics();
	if (access("/dev/kvm", R_OK | W_OK)) {
		skip("/dev/kvm is not usable: no measurements");
		return done_testing();
	}
	dir = fixture_tmpdir();
	snprintf(path, sizeof(path), "%s/run.json", dir);
	snprintf(hpath, sizeof(hpath), "%s/hang.json", dir);

	root = run_json(path, &r, (const char *const[]){ exe, "run",
			"--time-budget", "0.05", "--quiet", "--json", path, NULL });
	is_int(r.status, 0, "whole catalogue: exit 0");
	if (r.status)
		diag("stderr: %s", r.err);
	tap_like(r.out, "pio_to_user", "the table lists the probes");
	run_free(&r);
	if (ok(root != NULL, "the JSON file was written")) {
		check_every_probe(root);
		check_exact_exits(root);
		check_json(path, root);
		json_decref(root);
	}

	test_order_cpus(dir);
	test_vm_per_round(dir);
	test_v1(dir);
	test_run_limit(dir);

	test_hang(hpath, "v1", "still running after 1200 ms",
		  "v1: the wall-clock watchdog, 2 x 0.1 s + 1 s");
	test_hang(hpath, "v2", "still running after 100 ms of its thread's CPU time",
		  "v2: the CPU time calibrating it took (0.1 s), not the 1.2 s wall-clock watchdog");
	/* --all: the map and the checks ride along in the same result file. */
	snprintf(path, sizeof(path), "%s/all.json", dir);
	root = run_json(path, &r, (const char *const[]){ exe, "run", "nop", "--all", "--samples", "2",
			"--time-budget", "0.05", "--quiet", "--json", path, NULL });
	is_int(r.status, 0, "run nop --all: exit 0");
	run_free(&r);
	{
		struct result_file *rf = result_read_file(path, NULL);

		ok(rf && rf->map && rf->checks.n > 0 && rf->n_probes == 1,
		   "--all: one probe, the map and the checks, and the reader accepts it");
		result_free(rf);
	}
	json_decref(root);

	snprintf(path, sizeof(path), "%s/sigint.json", dir);
	test_sigint(path);
	fixture_rmdir(dir);
	return done_testing();
}
