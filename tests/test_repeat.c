// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_repeat.c - `exitscope run --repeat N` end to end: the usage errors,
 * the file names (FILE.json: FILE-1.json ...), N runs as N processes with
 * the same probes and their own pid, a run that fails ending the series,
 * and Ctrl-C during run 2 (sent to the parent alone, and to the whole
 * process group as a terminal sends it): run 1's file and run 2's partial
 * one kept, no run 3, exit 130. The trigger is the runs' own progress line.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include "base/array_size.h"
#include "method/repeat.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;

static void test_usage(const char *dir)
{
	static const struct { const char *args[4], *msg; } bad[] = {
		{ { "--repeat", "0", "--json", "r.json" }, "--repeat wants a number of runs 1-1000, not '0'" },
		{ { "--repeat", "x", "--json", "r.json" }, "--repeat wants a number of runs 1-1000, not 'x'" },
		{ { "--repeat", "1001", "--json", "r.json" }, "--repeat wants a number of runs 1-1000" },
		{ { "--repeat", "3", "nop" }, "--repeat writes a result file per run: it needs --json FILE" },
		{ { "--repeat", "3", "--json", "-" }, "--json - (standard output) cannot hold them" },
		{ { "--repeat", "2", "--json", "/nonexistent/dir/r.json" }, "/nonexistent/dir/r-1.json" },
	};
	struct run_result r;
	char path[512], prom[512];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *const *a = bad[i].args;

		run_cmd(&r, (const char *const[]){ exe, "run", a[0], a[1], a[2], a[3], NULL });
		ok(r.status == 2 && strstr(r.err, bad[i].msg), "run %s %s %s %s: exit 2 saying '%s'", a[0], a[1],
		   a[2] ? a[2] : "", a[3] ? a[3] : "", bad[i].msg);
		if (r.status != 2 || !strstr(r.err, bad[i].msg))
			diag("status %d: %s", r.status, r.err);
		run_free(&r);
	}
	snprintf(path, sizeof(path), "%s/om.json", dir);
	snprintf(prom, sizeof(prom), "%s/om.prom", dir);
	run_cmd(&r, (const char *const[]){ exe, "run", "--repeat", "2", "--json", path, "--openmetrics",
			prom, NULL });
	ok(r.status == 2 && strstr(r.err, "--openmetrics writes one run's textfile"),
	   "--repeat with --openmetrics: exit 2, export the files instead");
	run_free(&r);
	snprintf(path, sizeof(path), "%s/om-1.json", dir);
	ok(access(path, F_OK) && access(prom, F_OK), "... and nothing was written");

	/* A run that fails ends the series: no KVM at this path, so run 1 exits 3. */
	snprintf(path, sizeof(path), "%s/fail.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "run", "nop", "--kvm-dev", "/nonexistent/kvm", "--repeat", "3",
			"--json", path, NULL });
	is_int(r.status, 3, "run 1 of 3 fails with exit status 3: the series exits 3");
	tap_like(r.err, "exitscope run: run 1/3 failed (exit status 3), so no more runs: no result file was written",
		 "one line names the run, its exit status, and that nothing was written");
	ok(!strstr(r.out, "run 2/3"), "no run 2 was started");
	run_free(&r);
}

/* The names in dir, sorted, into one string ("a-1.json a-2.json "). */
static void list_dir(const char *dir, char *buf, size_t len)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s ", ents[i]->d_name);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

/* The probe names of a result, in order ("nop cpuid "). */
static void probe_names(const struct result_file *rf, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; rf && i < rf->n_probes && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s ", rf->probes[i].name);
}

/* Does the command recorded in file hold this argument, and not --repeat? */
static bool command_has(const char *file, const char *arg)
{
	json_t *root = json_load_file(file, 0, NULL), *a;
	bool has = false, repeat = false;
	size_t i;

	json_array_foreach(root ? json_object_get(root, "command") : NULL, i, a) {
		has = has || !strcmp(json_string_value(a), arg);
		repeat = repeat || !strncmp(json_string_value(a), "--repeat", 8);
	}
	json_decref(root);
	return has && !repeat;
}

static void test_three(const char *dir)
{
	char sub[512], path[600], want[4096], names[3][256], listing[512];
	struct result_file *rf[3];
	struct run_result r;
	bool valid = true, same = true, cmd = true;
	long long pid[3];

	snprintf(sub, sizeof(sub), "%s/three", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/a.json", sub);
	run_cmd(&r, (const char *const[]){ exe, "run", "nop", "cpuid", "--repeat", "3", "--rounds", "2",
			"--time-budget", "0.05", "--json", path, NULL });
	is_int(r.status, 0, "run nop cpuid --repeat 3 --json a.json: exit 0");
	if (r.status)
		diag("%s", r.err);
	list_dir(sub, listing, sizeof(listing));
	tap_is_str(listing, "a-1.json a-2.json a-3.json ", "exactly a-1.json, a-2.json, a-3.json are written");
	for (int i = 0; i < 3; i++) {
		char file[700], arg[720];

		snprintf(file, sizeof(file), "%s/a-%d.json", sub, i + 1);
		rf[i] = result_read_file(file, NULL);
		valid = valid && rf[i];
		pid[i] = rf[i] ? rf[i]->pid : -1;
		probe_names(rf[i], names[i], sizeof(names[i]));
		same = same && !strcmp(names[i], "nop cpuid ");
		snprintf(arg, sizeof(arg), "%s", file);
		cmd = cmd && command_has(file, arg);
		snprintf(want, sizeof(want), "wrote %s\n", file);
		if (!strstr(r.out, want)) {
			diag("stdout lacks '%s'", want);
			cmd = false;
		}
	}
	ok(valid, "the three files are valid result files");
	ok(same, "each has the same probes, in order (%s| %s| %s)", names[0], names[1], names[2]);
	ok(pid[0] > 0 && pid[1] > 0 && pid[2] > 0 && pid[0] != pid[1] && pid[1] != pid[2] && pid[0] != pid[2] &&
	   pid[0] != getpid(), "each was measured by a process of its own (pids %lld %lld %lld)",
	   pid[0], pid[1], pid[2]);
	ok(cmd, "each records its own --json FILE-I.json and no --repeat; stdout lists 'wrote FILE-I.json'");
	snprintf(want, sizeof(want), "\nrun 2/3: %s/a-2.json\n", sub);
	tap_like(r.out, want, "each run's table is headed with its number and file");
	ok(!strchr(r.err, '\r') && !strstr(r.err, "run 1/3"), "no progress off a terminal");
	for (int i = 0; i < 3; i++)
		result_free(rf[i]);
	run_free(&r);

	/* --json=FILE (one argument) and a name without an extension. */
	snprintf(path, sizeof(path), "--json=%s/b", sub);
	run_cmd(&r, (const char *const[]){ exe, "run", "nop", "--repeat=2", "--rounds", "1", "--time-budget", "0.05",
			"--quiet", path, NULL });
	list_dir(sub, listing, sizeof(listing));
	snprintf(path, sizeof(path), "%s/b-2", sub);
	snprintf(want, sizeof(want), "--json=%s", path);
	ok(r.status == 0 && strstr(listing, " b-1 b-2 ") && command_has(path, want),
	   "--repeat=2 --json=b: b-1 and b-2, run 2's command has --json=b-2 (%s)", listing);
	run_free(&r);
}

/*
 * Ctrl-C while run 2 of 3 measures rdtsc's first round (cpuid has had one):
 * to_group: the signal goes to the process group (as a terminal's Ctrl-C,
 * which the run under way gets as well as the parent); else to the parent
 * only, which passes it on.
 */
/*
 * A run that dies of SIGINT before it could handle it (a terminal's Ctrl-C
 * reaches the whole group; ours may come a moment later) ends the series
 * as stopped, not failed, though our stop flag is still clear: here the
 * run is a shell that sends SIGINT to itself alone.
 */
static void test_child_sigint(const char *dir)
{
	char path[512];
	char *argv[] = { "sh", "-c", "kill -INT $$", path, NULL };
	volatile sig_atomic_t stop = 0;
	struct repeat_opts o = { .exe = "/bin/sh", .argv = argv, .path_arg = 3, .path_prefix = "",
				 .path = path, .n = 3, .stop = &stop };
	struct repeat_run runs[3];
	unsigned int started = 0;
	int end;

	/*
	 * SIGINT's default action in the run: a shell started in the
	 * background of a script inherits it ignored, and cannot undo that.
	 */
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old;

	sigemptyset(&dfl.sa_mask);
	sigaction(SIGINT, &dfl, &old);
	snprintf(path, sizeof(path), "%s/child-sigint.json", dir);
	end = repeat_series(&o, runs, &started);
	sigaction(SIGINT, &old, NULL);
	ok(end == REPEAT_STOPPED && started == 1 && runs[0].signal == SIGINT && !stop,
	   "a run ended by SIGINT stops the series as Ctrl-C (end %d, %u started, signal %d)", end,
	   started, started ? runs[0].signal : -1);
}

static void test_sigint(const char *dir, bool to_group, int sig)
{
	const struct run_opts tty = { .stderr_tty = true };
	const char *name = sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : to_group ? "group" : "parent";
	const char *how = sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "Ctrl-C";
	char sub[512], path[600], f1[700], f2[700], f3[700], want[2200];
	struct result_file *r1, *r2;
	struct run_proc pr;
	struct run_result r;
	bool seen, whole = true, partial = false;

	snprintf(sub, sizeof(sub), "%s/sigint-%s", dir, name);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/s.json", sub);
	if (run_start(&pr, (const char *const[]){ "setsid", exe, "run", "cpuid", "rdtsc", "--repeat", "3",
		      "--rounds", "4", "--precision", "0.001", "--precision-floor", "0", "--time-budget", "0.4",
		      "--json", path, NULL }, &tty)) {
		tap_skip(7, "cannot start exitscope");
		return;
	}
	seen = run_wait_stderr_after(&pr, "run 2/3:", "rdtsc, round 1/4", RUN_WAIT_MS);
	ok(seen, "%s: run 2/3 measures rdtsc (its progress line on the tty)", name);
	kill(to_group ? -pr.pid : pr.pid, sig);
	run_finish(&pr, &r);
	ok(r.signal == 0 && r.status == 128 + sig, "%s: %s in run 2: exit %d (status %d, signal %d)", name,
	   how, 128 + sig, r.status, r.signal);
	snprintf(f1, sizeof(f1), "%s/s-1.json", sub);
	snprintf(f2, sizeof(f2), "%s/s-2.json", sub);
	snprintf(f3, sizeof(f3), "%s/s-3.json", sub);
	snprintf(want, sizeof(want), "exitscope run: stopped by %s in run 2/3: 2 result files were written, "
		 "%s to %s", how, f1, f2);
	tap_like(r.err, want, "the line says where it stopped and which files were written");
	r1 = result_read_file(f1, NULL);
	r2 = result_read_file(f2, NULL);
	for (size_t i = 0; r1 && i < r1->n_probes; i++)
		whole = whole && r1->probes[i].status == PROBE_OK && r1->probes[i].stop != PROBE_STOP_STOPPED;
	ok(r1 && r1->n_probes == 2 && whole, "%s: run 1's file is kept, complete", name);
	/* Stopped by Ctrl-C: with the rounds it had (ok, stop stopped), or in its first (stopped). */
	for (size_t i = 0; r2 && i < r2->n_probes; i++)
		partial = partial || r2->probes[i].status == PROBE_STOPPED ||
			  (r2->probes[i].status == PROBE_OK && r2->probes[i].stop == PROBE_STOP_STOPPED);
	ok(r2 && r1 && r2->n_probes == 2 && partial && r2->pid != r1->pid,
	   "%s: run 2's partial file is kept (a probe in it stopped by Ctrl-C)", name);
	for (size_t i = 0; r2 && !partial && i < r2->n_probes; i++)
		diag("run 2: %s: %s, stop %s, %zu rounds", r2->probes[i].name,
		     probe_status_name(r2->probes[i].status), probe_stop_name(r2->probes[i].stop),
		     r2->probes[i].n_rounds);
	ok(access(f3, F_OK) != 0, "%s: no run 3", name);
	snprintf(want, sizeof(want), "wrote %s\nwrote %s\n", f1, f2);
	tap_like(r.out, want, "stdout lists both files written");
	result_free(r1);
	result_free(r2);
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
	test_child_sigint(dir);
	if (access("/dev/kvm", R_OK | W_OK)) {
		skip("/dev/kvm is not usable: no runs to repeat");
		fixture_rmdir(dir);
		return done_testing();
	}
	test_three(dir);
	test_sigint(dir, false, SIGINT);
	test_sigint(dir, true, SIGINT);
	/* SIGTERM and SIGHUP to the series: named on its line, 128 + the signal, the files kept. */
	test_sigint(dir, false, SIGTERM);
	test_sigint(dir, false, SIGHUP);
	fixture_rmdir(dir);
	return done_testing();
}
