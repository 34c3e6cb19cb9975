// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_calibrate.c - `exitscope calibrate` end to end: its usage errors
 * (before anything runs), --from's floor and --spread table of run files
 * written here (hand arithmetic), a failing run ending it with the run's status,
 * K runs as K processes giving a noise file that reads back with their
 * settings and probes and that `compare --noise` uses, the temporary runs
 * removed without --keep, and Ctrl-C during run 2 (the trigger: calibrate's
 * own progress line on a terminal): exit 130, no floor, run 1 kept.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array_size.h"
#include "results/noise.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;

/*
 * A series that fails before any run wrote its file: the line says no file
 * was written (never "kept in" an empty directory), and the temporary
 * directory is gone.
 */
static void test_no_kvm(const char *dir)
{
	char env[600];
	struct run_result r;

	snprintf(env, sizeof(env), "TMPDIR=%s", dir);
	run_cmd(&r, (const char *const[]){ "env", env, "EXITSCOPE_KVM_DEV=/nonexistent", exe, "calibrate",
		"--runs", "3", "-o", "/dev/null", "--", "cpuid", NULL });
	ok(r.status == 3 && strstr(r.err, "exitscope calibrate: run 1/3 failed (exit status 3, its message "
				       "above): no floor written; no result file was written\n") &&
	   !strstr(r.err, "kept in"),
	   "no KVM: run 1/3 failed, exit 3 (%d), and no 'kept in' an empty directory", r.status);
	if (r.status != 3 || strstr(r.err, "kept in"))
		diag("stderr: %s", r.err);
	is_int(fixture_count_prefixed(dir, "exitscope-calibrate-"), 0, "no temporary directory left behind");
	run_free(&r);
}

static void test_usage(const char *dir)
{
	static const struct { const char *args[5], *msg; } bad[] = {
		{ { "--runs", "2" }, "--runs wants a number of runs 3-1000, not '2'" },
		{ { "--runs", "x" }, "--runs wants a number of runs 3-1000, not 'x'" },
		{ { "nop" }, "'nop': probes and run options go after '--'" },
		{ { "--", "nop", "--json", "x.json" }, "run argument '--json': calibrate writes the runs' result files" },
		{ { "--", "--json=x.json" }, "run argument '--json=x.json'" },
		{ { "--", "--repeat", "3" }, "run argument '--repeat': calibrate makes the runs itself" },
		{ { "--", "--method", "v1" }, "run argument '--method': a floor needs rounds (method v2)" },
		{ { "--", "--all" }, "run argument '--all'" },
		/* Abbreviations are the options they abbreviate, as run reads them. */
		{ { "--", "--al" }, "run argument '--al' (--all): the map and the checks have no floor" },
		{ { "--", "--open", "o.prom" }, "run argument '--open' (--openmetrics): a floor is not a run" },
		{ { "--", "--li" }, "run argument '--li' (--list): nothing would be measured" },
		{ { "--", "--me", "v1" }, "run argument '--me' (--method): a floor needs rounds" },
		{ { "--", "--rep=3" }, "run argument '--rep=3' (--repeat): calibrate makes the runs itself" },
		{ { "--", "-qh" }, "run argument '-qh' (--help)" },
		{ { "--", "--bogus" }, "run argument '--bogus': no option of 'exitscope run'" },
		{ { "-o", "/nonexistent/dir/noise.json" }, "/nonexistent/dir/noise.json" },
		{ { "--bogus" }, "unknown or incomplete option '--bogus'" },
		{ { "--spread" }, "--spread reads run files: give --from FILE ..." },
		{ { "--from", "--keep", "d", "a.json" }, "--from reads run files made before: no --keep" },
		{ { "--from", "--runs", "3", "a.json" }, "--from reads run files made before: no --runs" },
		{ { "--from", "a.json", "b.json" }, "--from wants at least 3 run files, got 2" },
		{ { "--from", "--spread", "a.json" }, "--from --spread wants at least 2 run files, got 1" },
		{ { "--from", "--spread", "-o", "x", "a.json" }, "--spread prints a table and writes no floor: no -o" },
		{ { "--from", "a.json", "b.json", "c.json", "-o" }, "options go before the run files: '-o'" },
	};
	struct run_result r;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *const *a = bad[i].args;

		run_cmd(&r, (const char *const[]){ exe, "calibrate", a[0], a[1], a[2], a[3], a[4], NULL });
		ok(r.status == 2 && strstr(r.err, bad[i].msg) && strstr(r.err, bad[i].msg) < strchr(r.err, '\n'),
		   "calibrate %s %s %s: exit 2, its first line saying '%s'", a[0], a[1] ? a[1] : "", a[2] ? a[2] : "",
		   bad[i].msg);
		if (r.status != 2 || !strstr(r.err, bad[i].msg))
			diag("status %d: %s", r.status, r.err);
		run_free(&r);
	}
	test_no_kvm(dir);
}

/* A method-v2 run file of probe p with round medians med[0..n-1] (loops 1000), written as dir/name. */
static const char *from_run(const char *dir, const char *name, const double *med, size_t n)
{
	double flat[8];	/* the flat samples are >= 0; a round's median is a net cost, of either sign */
	json_t *rounds = json_array(), *probe, *doc;

	for (size_t i = 0; i < n && i < ARRAY_SIZE(flat); i++)
		flat[i] = fabs(med[i]);
	probe = fixture_probe("p", "insn", flat, n < ARRAY_SIZE(flat) ? n : ARRAY_SIZE(flat), 1);

	for (size_t i = 0; i < n; i++)
		json_array_append_new(rounds, json_pack("{s:i, s:[f], s:f, s:f, s:f}", "batch", 64, "samples",
			med[i], "median", med[i], "baseline_median", 1000.0, "raw_median", 1000.0 + med[i]));
	json_object_set_new(probe, "rounds", rounds);
	doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"), json_pack("[o]", probe));
	json_object_set_new(doc, "settings", fixture_settings("v2", 8));
	name = fixture_write(dir, name, doc);
	json_decref(doc);
	return name;
}

/*
 * --from: the floor and the spread of run files made before (test_noise's
 * hand arithmetic: round medians {10, 12}, {14, 16}, {17, 19, 21}), no KVM
 * needed.
 */
static void test_from(const char *dir)
{
	static const double r[3][3] = { { 10, 12 }, { 14, 16 }, { 17, 19, 21 } };
	static const size_t nr[3] = { 2, 2, 3 };
	char path[3][600], noise[600], want[400];
	struct noise_floor *nf;
	struct run_result res;
	struct err err;

	for (size_t i = 0; i < 3; i++) {
		char name[32];
		const char *p;

		snprintf(name, sizeof(name), "from-%zu.json", i + 1);
		p = from_run(dir, name, r[i], nr[i]);
		snprintf(path[i], sizeof(path[i]), "%s", p ? p : "?");
	}
	/* mean 15, within sqrt(3), se sqrt(9/7), between 4, floor sqrt(16 - 9/7), in % of 15. */
	snprintf(want, sizeof(want), "%-20s %5d %6.1f %10.0f %7.2f%% %7.2f%% %7.2f%% %7.2f%%\n", "p", 3, 7.0 / 3, 15.0,
		 100 * sqrt(3) / 15, 100 * sqrt(9.0 / 7) / 15, 100 * 4.0 / 15, 100 * sqrt(16 - 9.0 / 7) / 15);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "--spread", path[0], path[1], path[2],
			NULL });
	ok(res.status == 0 && strstr(res.out, want) && strstr(res.out, "shift: SD 26.67% over 3 runs\n"),
	   "--from --spread: p's row and the shift, exit 0 (%d)", res.status);
	if (res.status || !strstr(res.out, want))
		diag("want %sgot: %s%s", want, res.out, res.err);
	/* Run means 11, 15, 19 over 15, less 1; the loops all 1000; left 0 with one probe. */
	ok(strstr(res.out, "\n  run    shift     loop\n    1  -26.67%   +0.00%\n    2   +0.00%   +0.00%\n"
			   "    3  +26.67%   +0.00%\nloop shift: SD 0.00%; left per probe: median SD 0.00%\n"),
	   "--from --spread: each run's shift and loop shift in the order given, the loops flat");
	run_free(&res);

	snprintf(noise, sizeof(noise), "%s/from-noise.json", dir);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "-o", noise, path[0], path[1], path[2],
			NULL });
	nf = res.status == 0 ? noise_read_file(noise, &err) : NULL;
	ok(nf && nf->runs == 3 && nf->n_probes == 1 && nf->probes[0].runs == 3 && nf->probes[0].rounds == 7 &&
	   fabs(nf->probes[0].cycles.between_sd_cycles - sqrt(134.0 / 9)) < 1e-9 && nf->n_sources == 3 &&
	   !strcmp(nf->sources[2], path[2]),
	   "--from -o FILE: the floor of the 3 files (between sd sqrt(134/9)), naming them as sources");
	if (!nf)
		diag("status %d: %s", res.status, res.err);
	noise_free(nf);
	run_free(&res);

	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "-o", path[0], path[0], path[1], path[2],
			NULL });
	ok(res.status == 2 && strstr(res.err, "a run file"), "--from -o one of the run files: refused, exit 2 (%d)",
	   res.status);
	run_free(&res);

	/*
	 * A mean near 0 against a large spread (run means 500, -500 and 0: a
	 * mean of 0.00005, a relative SD of 1e9%): every cell keeps its width, in
	 * exponent form, so no row passes 100 columns.
	 */
	{
		static const double z[3][2] = { { 500, 500 }, { -500 + 0.0003, -500 }, { 0, 0 } };
		char zp[3][600], zn[600];
		size_t wide = 0;

		for (size_t i = 0; i < 3; i++) {
			char name[32];
			const char *q;

			snprintf(name, sizeof(name), "zero-%zu.json", i + 1);
			q = from_run(dir, name, z[i], 2);
			snprintf(zp[i], sizeof(zp[i]), "%s", q ? q : "?");
		}
		snprintf(zn, sizeof(zn), "%s/zero-noise.json", dir);
		for (int spread = 0; spread < 2; spread++) {
			wide = 0;
			run_cmd(&res, spread ? (const char *const[]){ exe, "calibrate", "--from", "--spread", zp[0],
								      zp[1], zp[2], NULL } :
				(const char *const[]){ exe, "calibrate", "--from", "-o", zn, zp[0], zp[1], zp[2],
						       NULL });
			for (const char *l = res.out; l && *l; ) {
				size_t n = strcspn(l, "\n");

				wide += n > 100;
				l += n + (l[n] == '\n');
			}
			ok(res.status == 0 && !wide, "--from%s on a mean near 0: exit 0, no row over 100 "
			   "columns (%d, %zu wide)", spread ? " --spread" : "", res.status, wide);
			if (wide || res.status)
				diag("%s%s", res.out, res.err);
			run_free(&res);
		}
	}

	/* One run three times would be three runs that agree to the cycle: a floor of nothing. */
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "-o", noise, path[0], path[1], path[0],
			NULL });
	ok(res.status == 2 && strstr(res.err, "are the same run: a run counts once") &&
	   strchr(res.err, '\n') == res.err + strlen(res.err) - 1,
	   "--from with a run given twice: refused in one line, exit 2 (%d: %s)", res.status, res.err);
	run_free(&res);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "--spread", path[1], path[1], NULL });
	ok(res.status == 2 && strstr(res.err, "are the same run"),
	   "--from --spread with a run given twice: refused, exit 2 (%d)", res.status);
	run_free(&res);
}

static void test_runs(const char *dir)
{
	char keep[512], noise[512], run1[600], run2[600], run3[600], want[1400];
	struct err err;
	struct noise_floor *nf;
	struct run_result r;
	bool nop = false, cpuid = false;
	size_t floored;

	/* A run that fails (no KVM at that path) ends it with its status: nothing written. */
	snprintf(noise, sizeof(noise), "%s/fail-noise.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "calibrate", "--runs", "3", "-o", noise, "--", "nop", "--kvm-dev",
			"/nonexistent/kvm", NULL });
	is_int(r.status, 3, "run 1 fails with exit status 3: calibrate exits 3");
	tap_like(r.err, "exitscope calibrate: run 1/3 failed (exit status 3, its message above): no floor written",
		 "one line names the run and says no floor was written");
	ok(access(noise, F_OK) != 0, "... and there is no noise file");
	run_free(&r);
	/* A run's own usage error is calibrate's. */
	run_cmd(&r, (const char *const[]){ exe, "calibrate", "--runs", "3", "-o", noise, "--", "--rounds", "0", NULL });
	ok(r.status == 2 && strstr(r.err, "--rounds wants an integer"), "a run's usage error: exit 2 with its message");
	run_free(&r);

	snprintf(keep, sizeof(keep), "%s/kept", dir);
	snprintf(noise, sizeof(noise), "%s/noise.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "calibrate", "--runs", "3", "--keep", keep, "-o", noise, "--", "nop",
			"cpuid", "--rounds", "3", "--time-budget", "0.1", NULL });
	is_int(r.status, 0, "calibrate --runs 3 --keep DIR -- nop cpuid --rounds 3: exit 0");
	if (r.status)
		diag("%s", r.err);
	snprintf(run1, sizeof(run1), "%s/run-1.json", keep);
	snprintf(run2, sizeof(run2), "%s/run-2.json", keep);
	snprintf(run3, sizeof(run3), "%s/run-3.json", keep);
	ok(!access(run1, R_OK) && !access(run2, R_OK) && !access(run3, R_OK) && fixture_count_prefixed(keep, "run-") == 3,
	   "--keep: exactly run-1.json ... run-3.json in DIR");
	snprintf(want, sizeof(want), "wrote %s (3 runs)\n", noise);
	tap_like(r.out, want, "stdout ends with the file written and its runs");
	ok(!strstr(r.out, "probe                         cycles"), "the runs' own tables are not printed");
	run_free(&r);
	/*
	 * Which probes get a floor depends on how many rounds each run's budget
	 * allowed (a floor needs 2 or more in 3 runs), which the host's load
	 * decides: every probe is accounted for, in the floor or omitted.
	 */
	nf = noise_read_file(noise, &err);
	ok(nf != NULL, "the noise file reads back (%s)", nf ? "ok" : err.msg);
	for (size_t i = 0; nf && i < nf->n_probes; i++) {
		nop = nop || (!strcmp(nf->probes[i].name, "nop") && nf->probes[i].runs == 3);
		cpuid = cpuid || (!strcmp(nf->probes[i].name, "cpuid") && nf->probes[i].runs == 3);
	}
	for (size_t i = 0; nf && i < nf->n_omitted; i++) {
		nop = nop || (!strcmp(nf->omitted[i].name, "nop") && nf->omitted[i].runs < 3);
		cpuid = cpuid || (!strcmp(nf->omitted[i].name, "cpuid") && nf->omitted[i].runs < 3);
	}
	ok(nf && nf->runs == 3 && nf->settings.rounds == 3 && nf->n_sources == 3 &&
	   nf->n_probes + nf->n_omitted == 2 && nop && cpuid,
	   "it holds 3 runs of --rounds 3, its 3 sources, nop and cpuid (each in the floor from 3 runs, or omitted)");
	floored = nf ? nf->n_probes : 0;
	noise_free(nf);
	run_cmd(&r, (const char *const[]){ exe, "compare", "--noise", noise, run1, run2, NULL });
	snprintf(want, sizeof(want), "noise floor: %s: 3 runs", noise);
	ok(r.status == 0 && strstr(r.out, want) && !strstr(r.out, "rounds+floor") == !floored,
	   "compare --noise FILE of two of the runs names the floor ('%s'), and uses it for the %zu probes it has",
	   want, floored);
	if (r.status || !strstr(r.out, want))
		diag("status %d: %s%s", r.status, r.out, r.err);
	run_free(&r);

	/* Without --keep: the runs go to a temporary directory under $TMPDIR, removed at the end. */
	snprintf(noise, sizeof(noise), "%s/noise2.json", dir);
	setenv("TMPDIR", dir, 1);
	run_cmd(&r, (const char *const[]){ exe, "calibrate", "--runs", "3", "-o", noise, "--", "nop", "--rounds", "2",
			"--time-budget", "0.05", NULL });
	unsetenv("TMPDIR");
	ok(r.status == 0 && !access(noise, R_OK) && fixture_count_prefixed(dir, "exitscope-calibrate-") == 0,
	   "without --keep: the floor is written and the temporary runs are gone");
	run_free(&r);
}

/* Ctrl-C (to the process group, as a terminal sends it) once calibrate starts run 2 of 3. */
static void test_sigint(const char *dir)
{
	const struct run_opts tty = { .stderr_tty = true };
	char keep[512], noise[512], run1[600], run3[600], want[1200];
	struct run_proc pr;
	struct run_result r;
	bool seen;

	snprintf(keep, sizeof(keep), "%s/sigint", dir);
	snprintf(noise, sizeof(noise), "%s/sigint-noise.json", dir);
	if (run_start(&pr, (const char *const[]){ "setsid", exe, "calibrate", "--runs", "3", "--keep", keep, "-o",
		      noise, "--", "cpuid", "rdtsc", "--rounds", "4", "--precision", "0.001", "--precision-floor",
		      "0", "--time-budget", "0.4", NULL }, &tty)) {
		tap_skip(4, "cannot start exitscope");
		return;
	}
	seen = run_wait_stderr(&pr, "calibrate 2/3 run", RUN_WAIT_MS);
	ok(seen, "calibrate's progress line says run 2/3 is under way");
	kill(-pr.pid, SIGINT);
	run_finish(&pr, &r);
	ok(r.signal == 0 && r.status == 130, "Ctrl-C in run 2: exit 130 (status %d, signal %d)", r.status, r.signal);
	snprintf(want, sizeof(want), "exitscope calibrate: stopped by Ctrl-C in run 2/3: no floor written; the ");
	tap_like(r.err, want, "one line says where it stopped and that no floor was written");
	if (r.status != 130)
		diag("stderr: %s", r.err);
	snprintf(run1, sizeof(run1), "%s/run-1.json", keep);
	snprintf(run3, sizeof(run3), "%s/run-3.json", keep);
	ok(access(noise, F_OK) != 0 && !access(run1, R_OK) && access(run3, F_OK) != 0,
	   "no noise file; run 1's file is kept; no run 3");
	run_free(&r);
}

/*
 * SIGTERM as soon as calibrate handles it: before run 1 or in it, the line
 * counts the runs right ("run 1/3", never "1/0") and names SIGTERM; 143.
 */
static void test_sigterm_early(const char *dir)
{
	char keep[512], noise[512];
	struct run_proc pr;
	struct run_result r;
	const char *at;

	snprintf(keep, sizeof(keep), "%s/sigterm", dir);
	snprintf(noise, sizeof(noise), "%s/sigterm-noise.json", dir);
	if (run_start(&pr, (const char *const[]){ exe, "calibrate", "--runs", "3", "--keep", keep, "-o", noise,
		      "--", "cpuid", "--time-budget", "0.4", NULL }, NULL)) {
		tap_skip(2, "cannot start exitscope");
		return;
	}
	ok(run_wait_caught(&pr, SIGTERM, RUN_WAIT_MS), "calibrate handles SIGTERM");
	kill(pr.pid, SIGTERM);
	run_finish(&pr, &r);
	at = strstr(r.err, "exitscope calibrate: stopped by SIGTERM ");
	at = at ? at + strlen("exitscope calibrate: stopped by SIGTERM ") : NULL;
	ok(r.status == 143 && at && (!strncmp(at, "in run 1/3: ", 12) || !strncmp(at, "before run 1/3: ", 16)) &&
	   !strstr(r.err, "/0"), "SIGTERM at the start: exit 143 (%d), 'run 1/3' counted right", r.status);
	if (r.status != 143 || !at)
		diag("stderr: %s", r.err);
	run_free(&r);
}

int main(void)
{
	char *dir;

	exe = getenv("EXITSCOPE");
	if (!exe || access(exe, X_OK))
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	dir = fixture_tmpdir();
	test_usage(dir);
	test_from(dir);
	if (access("/dev/kvm", R_OK | W_OK)) {
		skip("/dev/kvm is not usable: no runs to calibrate from");
		fixture_rmdir(dir);
		return done_testing();
	}
	test_runs(dir);
	test_sigint(dir);
	test_sigterm_early(dir);
	fixture_rmdir(dir);
	return done_testing();
}
