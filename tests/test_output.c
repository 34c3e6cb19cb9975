// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_output.c - nothing measured is ever lost and every stop says so:
 * an output path that cannot be written is refused before anything is
 * measured (exit 2, one line); a write that fails at the end (/dev/full,
 * a file size limit, a target that cannot be replaced, stdout) says so in
 * one line naming the file and the errno, keeps the result in a file named
 * on that line, leaves an existing target untouched and exits 1; Ctrl-C
 * during run, check and map exits 130 with what was measured written.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <jansson.h>

#include "base/array_size.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/fifo_stop.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;
static char *dir;		/* the children's $TMPDIR too: kept files land here */
static char tmpdir_env[600];
static char full[600];		/* a full device: our own node, else /dev/full */

/*
 * Lines of s that start with "exitscope ": the command's own messages. On a
 * pty, a line is what is left after its last carriage return (progress
 * lines are redrawn in place, "\r\033[K...") and ends "\r\n".
 */
static int own_lines(const char *s)
{
	int n = 0;

	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);

		if (e > l && e[-1] == '\r')
			e--;
		for (const char *c = l; c < e; c++)
			if (*c == '\r')
				l = c + 1;
		if (!strncmp(l, "\033[K", 3))
			l += 3;
		n += !strncmp(l, "exitscope ", 10);
	}
	return n;
}

/* The file named after "the result is kept in " on stderr (static), or NULL. */
static const char *kept_path(const char *err)
{
	static char path[600];
	const char *p = strstr(err, "the result is kept in ");
	size_t n;

	if (!p)
		return NULL;
	p += strlen("the result is kept in ");
	n = strcspn(p, "\r\n");	/* a pty ends lines with \r\n */
	if (n >= sizeof(path))
		return NULL;
	memcpy(path, p, n);
	path[n] = '\0';
	return path;
}

static struct result_file *read_result(const char *path)
{
	struct err err;
	struct result_file *rf = path ? result_read_file(path, &err) : NULL;

	if (path && !rf)
		diag("%s", err.msg);
	return rf;
}

/* Is path's content exactly want? */
static bool same_content(const char *path, const char *want, size_t wlen)
{
	size_t len = 0;
	char *got = run_read_file(path, &len);
	bool same = got && len == wlen && !memcmp(got, want, len);

	free(got);
	return same;
}

static bool is_chardev(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISCHR(st.st_mode);
}

/* A result file for compare and report, no KVM needed. */
static const char *input_file(const char *name, double center)
{
	static char paths[2][600];
	static int which;
	double s[20];
	json_t *doc;
	const char *p;

	fixture_samples(s, 20, center, center / 50, 7);
	doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"),
			     json_pack("[o]", fixture_probe("cpuid", "insn", s, 20, 1.0)));
	p = fixture_write(dir, name, doc);
	json_decref(doc);
	if (!p)
		return NULL;
	which ^= 1;
	snprintf(paths[which], sizeof(paths[which]), "%s", p);
	return paths[which];
}

/* A path that cannot be written is refused before any work: exit 2, one line, nothing else. */
static void test_preflight(const char *a, const char *b)
{
	static const char bad[] = "/nonexistent/dir/x.json";
	const char *const cases[][9] = {
		{ exe, "run", "cpuid", "--samples", "2", "--json", bad, NULL },
		{ exe, "map", "--json", bad, NULL },
		{ exe, "check", "--json", bad, NULL },
		{ exe, "info", "--json", bad, NULL },
		{ exe, "compare", a, b, "--json", bad, NULL },
		{ exe, "report", a, "-o", bad, NULL },
	};
	struct run_result r;
	char want[256];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *cmd = cases[i][1];

		run_cmd(&r, (const char *const[]){ "env", tmpdir_env, cases[i][0], cases[i][1],
			cases[i][2], cases[i][3], cases[i][4], cases[i][5], cases[i][6], cases[i][7], NULL });
		snprintf(want, sizeof(want), "exitscope %s: cannot write %s: No such file or directory\n",
			 cmd, bad);
		is_int(r.status, 2, cmd);
		tap_is_str(r.err, want, "%s: one line naming the file and the errno, before measuring", cmd);
		tap_is_str(r.out, "", "%s: nothing measured or printed", cmd);
		run_free(&r);
	}
	/* A directory, and the reason says so. */
	run_cmd(&r, (const char *const[]){ exe, "run", "cpuid", "--json", dir, NULL });
	snprintf(want, sizeof(want), "exitscope run: cannot write %s: Is a directory\n", dir);
	is_int(r.status, 2, "run --json DIR: exit 2");
	tap_is_str(r.err, want, "run --json DIR: Is a directory");
	run_free(&r);
	is_int(fixture_count_prefixed(dir, "exitscope-"), 0, "no result was kept for a refused command");
}

/* compare and report onto a full device, and onto a regular file with a size limit. */
static void test_derived(const char *a, const char *b)
{
	const struct run_opts lim = { .fsize_limit = 512 };
	struct run_result r;
	char target[700], want[800];
	const char old[] = "old contents that must survive\n";
	int fd;

	run_cmd(&r, (const char *const[]){ exe, "compare", a, b, "--json", full, NULL });
	snprintf(want, sizeof(want), "exitscope compare: cannot write %s: No space left on device\n", full);
	is_int(r.status, 1, "compare --json FULL: exit 1");
	tap_is_str(r.err, want, "compare --json FULL: one line, file and errno");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "report", a, b, "-o", full, NULL });
	snprintf(want, sizeof(want), "exitscope report: cannot write %s: No space left on device\n", full);
	is_int(r.status, 1, "report -o FULL: exit 1");
	tap_is_str(r.err, want, "report -o FULL: one line, file and errno");
	run_free(&r);
	ok(is_chardev(full), "the device was written in place, not replaced by a file");

	/* A write that fails half-way leaves the old file as it was and no temporary. */
	snprintf(target, sizeof(target), "%s/old.html", dir);
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0 || write(fd, old, sizeof(old) - 1) != (ssize_t)(sizeof(old) - 1) || close(fd)) {
		tap_skip(6, "cannot create the old target");
		return;
	}
	run_cmd_opts(&r, (const char *const[]){ exe, "report", a, "-o", target, NULL }, &lim);
	snprintf(want, sizeof(want), "exitscope report: cannot write %s: File too large\n", target);
	is_int(r.status, 1, "report over the file size limit: exit 1");
	tap_is_str(r.err, want, "report: one line naming EFBIG");
	ok(same_content(target, old, sizeof(old) - 1), "report: the old file is untouched");
	is_int(fixture_count_prefixed(dir, "old.html.tmp"), 0, "report: no temporary left behind");
	run_free(&r);
	snprintf(target, sizeof(target), "%s/old.json", dir);
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0 || write(fd, old, sizeof(old) - 1) != (ssize_t)(sizeof(old) - 1) || close(fd)) {
		tap_skip(4, "cannot create the old target");
		return;
	}
	run_cmd_opts(&r, (const char *const[]){ exe, "compare", a, b, "--json", target, NULL }, &lim);
	is_int(r.status, 1, "compare over the file size limit: exit 1");
	ok(same_content(target, old, sizeof(old) - 1), "compare: the old file is untouched");
	run_free(&r);
	/* And a write that succeeds replaces it, keeping its permissions. */
	run_cmd(&r, (const char *const[]){ exe, "compare", a, b, "--json", target, NULL });
	{
		struct stat st;
		json_error_t je;
		json_t *doc = json_load_file(target, 0, &je);

		ok(r.status == 0 && doc && json_object_get(doc, "probes"),
		   "compare --json over an old file: exit 0, the comparison replaced it");
		ok(!stat(target, &st) && (st.st_mode & 07777) == 0640 && fixture_count_prefixed(dir, "old.json.tmp") == 0,
		   "with the old file's mode 0640 and no temporary left");
		json_decref(doc);
	}
	run_free(&r);
}

/* The target fails at the end: one line, the result kept in $TMPDIR, exit 1. */
static void check_kept(const struct run_result *r, const char *cmd, const char *file,
		       const char *errtext, enum result_kind kind, struct result_file **out)
{
	char want[800];
	const char *k = kept_path(r->err);
	struct result_file *rf;

	snprintf(want, sizeof(want), "exitscope %s: cannot write %s: %s; the result is kept in ",
		 cmd, file, errtext);
	is_int(r->status, 1, cmd);
	tap_like(r->err, want, "%s: says which file, why, and where the result went", cmd);
	is_int(own_lines(r->err), 1, "in one line");
	ok(k && !strncmp(k, dir, strlen(dir)), "%s: kept in $TMPDIR (%s)", cmd, k ? k : "none");
	rf = read_result(k);
	ok(rf && rf->kind == kind, "%s: the kept file is a valid %s result", cmd, result_kind_names[kind]);
	if (out)
		*out = rf;
	else
		result_free(rf);
	if (k)
		unlink(k);
}

static void test_full_kvm(void)
{
	const struct run_opts to_full = { .stdout_path = full };
	struct result_file *rf = NULL;
	const struct run_probe *p;
	struct run_result r;

	run_cmd(&r, (const char *const[]){ "env", tmpdir_env, exe, "run", "cpuid", "--method", "v1", "--samples", "2",
		"--time-budget", "0.05", "--quiet", "--json", full, NULL });
	check_kept(&r, "run", full, "No space left on device", RESULT_KIND_RUN, &rf);
	p = rf ? result_find_probe(rf, "cpuid") : NULL;
	ok(p && p->status == PROBE_OK && p->n_samples == 2, "run: the measured cpuid is in it");
	result_free(rf);
	run_free(&r);

	run_cmd(&r, (const char *const[]){ "env", tmpdir_env, exe, "info", "--json", full, NULL });
	check_kept(&r, "info", full, "No space left on device", RESULT_KIND_INFO, &rf);
	ok(rf && rf->host.kernel && rf->host.exec_mode != EXEC_UNKNOWN, "info: with the host record");
	result_free(rf);
	run_free(&r);

	run_cmd(&r, (const char *const[]){ "env", tmpdir_env, exe, "map", "--cpuid-profile", "host",
		"--ops", "2", "--rounds", "1", "--json", full, NULL });
	check_kept(&r, "map", full, "No space left on device", RESULT_KIND_MAP, &rf);
	ok(rf && rf->map && rf->map->n_profiles == 1 && rf->map->profiles[0].n_entries > 0,
	   "map: with the measured entries");
	result_free(rf);
	run_free(&r);

	run_cmd(&r, (const char *const[]){ "env", tmpdir_env, exe, "check", "cet", "--json", full, NULL });
	check_kept(&r, "check", full, "No space left on device", RESULT_KIND_CHECK, &rf);
	ok(rf && rf->checks.n > 0, "check: with the checks that ran");
	result_free(rf);
	run_free(&r);

	/* No --json: stdout was the only output, and it is full. */
	run_cmd_opts(&r, (const char *const[]){ "env", tmpdir_env, exe, "run", "cpuid", "--samples", "2",
		"--time-budget", "0.05", "--quiet", NULL }, &to_full);
	is_int(r.status, 1, "run > FULL: exit 1");
	tap_like(r.err, "exitscope run: cannot write to stdout: No space left on device; the result is kept in ",
		 "run > FULL: says stdout failed and where the result went");
	rf = read_result(kept_path(r.err));
	p = rf ? result_find_probe(rf, "cpuid") : NULL;
	ok(p && p->status == PROBE_OK, "run > FULL: the kept file has the measured cpuid");
	result_free(rf);
	if (kept_path(r.err))
		unlink(kept_path(r.err));
	run_free(&r);
	ok(is_chardev(full), "the device was written in place, not replaced by a file");
}

/* With --json - stdout is the JSON alone: a script reads it as it is. */
static void test_json_stdout(void)
{
	static const char *const cmds[][9] = {
		{ "run", "-q", "--json", "-", "cpuid", "--time-budget", "0.05", NULL },
		{ "map", "--cpuid-profile", "host", "--ops", "2", "--rounds", "1", "--json", "-" },
		{ "check", "cet", "--json", "-", NULL },
		{ "info", "--json", "-", NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		const char *argv[12] = { exe };
		struct run_result r;
		json_t *doc;
		const char *kind;

		for (size_t k = 0; k < 9 && cmds[i][k]; k++)
			argv[k + 1] = cmds[i][k];
		run_cmd(&r, argv);
		doc = json_loads(r.out, 0, NULL);
		kind = json_string_value(json_object_get(doc, "kind"));
		ok((r.status == 0 || (r.status == 1 && i == 2)) && kind && !strcmp(kind, cmds[i][0]),
		   "%s --json -: stdout is the JSON alone, kind %s (exit %d)", cmds[i][0],
		   kind ? kind : "none", r.status);
		if (!kind)
			diag("stdout begins: %.80s", r.out);
		json_decref(doc);
		run_free(&r);
	}
}

/*
 * argv with stdout a pipe nobody reads (its read end closed before the
 * start) and SIGPIPE at its default: stderr into *err; the exit status.
 */
static int run_closed_pipe(const char *const argv[], char **err)
{
	char errpath[700];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t def;
	int p[2], st = -1;
	pid_t pid;

	*err = NULL;
	snprintf(errpath, sizeof(errpath), "%s/closed-pipe.err", dir);
	if (pipe(p))
		return -1;
	close(p[0]);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv, NULL) && waitpid(pid, &st, 0) == pid)
		st = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	else
		st = -1;
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(p[1]);
	*err = run_read_file(errpath, NULL);
	unlink(errpath);
	return st;
}

/* --json - into a pipe that is closed: one line, the result kept, exit 1 (not 141, nothing kept). */
static void test_json_closed_pipe(void)
{
	struct result_file *rf;
	char *err;
	int st;

	st = run_closed_pipe((const char *const[]){ "env", tmpdir_env, exe, "run", "-q", "--json", "-", "cpuid",
			     "--time-budget", "0.05", NULL }, &err);
	is_int(st, 1, "run --json - | (closed): exit 1, not killed by SIGPIPE");
	tap_like(err, "exitscope run: cannot write to stdout: Broken pipe; the result is kept in ",
		 "run --json - | (closed): says stdout failed and where the result went");
	is_int(err ? own_lines(err) : 0, 1, "in one line");
	rf = err ? read_result(kept_path(err)) : NULL;
	ok(rf && rf->kind == RESULT_KIND_RUN && result_find_probe(rf, "cpuid"),
	   "run --json - | (closed): the kept file holds the measured run");
	result_free(rf);
	if (err && kept_path(err))
		unlink(kept_path(err));
	free(err);
}

/* /proc/version: the reason is the real one, never "No such file or directory". */
static void test_proc_version(void)
{
	int fd = open("/proc/version", O_WRONLY);
	int e = errno;
	struct run_result r;
	char want[300];

	run_cmd(&r, (const char *const[]){ "env", tmpdir_env, exe, "info", "--json", "/proc/version", NULL });
	ok(!strstr(r.err, "No such file") || strstr(r.err, "cannot create a file in its directory: "),
	   "info --json /proc/version: no made-up ENOENT (creating a file in /proc says ENOENT itself)");
	if (fd < 0) {
		snprintf(want, sizeof(want), "exitscope info: cannot write /proc/version: %s\n", strerror(e));
		is_int(r.status, 2, "refused before measuring: exit 2");
		tap_is_str(r.err, want, "with the errno of open()");
	} else {
		/* It opens, but is never written in place: its directory cannot take the temporary. */
		close(fd);
		is_int(r.status, 2, "opens, but /proc takes no file to replace it: refused before measuring, exit 2");
		tap_like(r.err, "exitscope info: cannot write /proc/version: cannot create a file in its directory: ",
			 "names the file and why");
	}
	run_free(&r);
}

/* FS_IMMUTABLE_FL on or off; 0 or -errno. */
static int set_immutable(const char *path, bool on)
{
	int fd = open(path, O_RDONLY), flags = 0, r = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
		r = -errno;
	flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
	if (!r && ioctl(fd, FS_IOC_SETFLAGS, &flags))
		r = -errno;
	close(fd);
	return r;
}

/*
 * The target becomes impossible to replace while the run measures: locked
 * once the run is in cpuid, which hangs until Ctrl-C (a test hook), so the
 * end of the run cannot come before the lock, however slow the host.
 */
static void test_rename_fails(void)
{
	const struct run_opts tty = { .stderr_tty = true };
	const char old[] = "{\"old\": true}\n";
	struct result_file *rf = NULL;
	struct run_proc pr;
	struct run_result r;
	char target[700];
	int fd, im;

	snprintf(target, sizeof(target), "%s/locked.json", dir);
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, old, sizeof(old) - 1) != (ssize_t)(sizeof(old) - 1) || close(fd) ||
	    (im = set_immutable(target, true)) < 0 || set_immutable(target, false) < 0) {
		tap_skip(8, "cannot make a file immutable here (needs root and ext4-like chattr +i)");
		return;
	}
	if (run_start(&pr, (const char *const[]){ "env", tmpdir_env, "EXITSCOPE_TEST_HANG=cpuid@600000", exe,
		      "run", "nop", "cpuid", "--method", "v1", "--samples", "3", "--time-budget", "0.05",
		      "--json", target, NULL }, &tty)) {
		tap_skip(8, "cannot start exitscope");
		return;
	}
	/* The progress line: nop is measured, cpuid hangs; the target was accepted long before. */
	ok(run_wait_stderr(&pr, "run 3/3 cpuid", RUN_WAIT_MS), "run: measuring cpuid (progress on the tty)");
	im = set_immutable(target, true);
	kill(pr.pid, SIGINT);
	run_finish(&pr, &r);
	set_immutable(target, false);
	if (im) {
		tap_skip(7, "could not lock the target");
		run_free(&r);
		return;
	}
	check_kept(&r, "run", target, "Operation not permitted (stopped by Ctrl-C)", RESULT_KIND_RUN, &rf);
	ok(rf && result_find_probe(rf, "nop") && result_find_probe(rf, "nop")->status == PROBE_OK,
	   "the measured nop is in the kept file");
	ok(same_content(target, old, sizeof(old) - 1) && fixture_count_prefixed(dir, "locked.json.tmp") == 0,
	   "the old target is untouched, no temporary left");
	result_free(rf);
	run_free(&r);
}

/* Ctrl-C while cpuid hangs (after nop was measured): exit 130, nop kept, the rest stopped. */
static void test_sigint_run(const char *json, const char *errtext, int sig)
{
	const struct run_opts tty = { .stderr_tty = true };
	struct result_file *rf = NULL;
	const struct run_probe *n, *c, *t;
	struct run_proc pr;
	struct run_result r;
	char want[800];
	bool started;

	if (run_start(&pr, (const char *const[]){ "env", tmpdir_env, "EXITSCOPE_TEST_HANG=cpuid@600000", exe,
		      "run", "nop", "cpuid", "rdtsc", "--method", "v1", "--samples", "3", "--time-budget", "0.05",
		      "--json", json, NULL }, &tty)) {
		tap_skip(7, "cannot start exitscope");
		return;
	}
	/* The progress line on the terminal: nop is done, cpuid hangs (its watchdog: 10 min). */
	started = run_wait_stderr(&pr, "run 3/4 cpuid", RUN_WAIT_MS);
	ok(started, "run: measuring cpuid (progress on the tty)");
	kill(pr.pid, sig);	/* also when it never got there: it must not wait for the watchdog */
	run_finish(&pr, &r);
	if (!errtext) {
		snprintf(want, sizeof(want), "exitscope run: stopped by %s: what was measured is in %s",
			 sig == SIGINT ? "Ctrl-C" : sig == SIGHUP ? "SIGHUP" : "SIGTERM",
			 json);
		ok(r.signal == 0 && r.status == 128 + sig, "run: %s exits %d (status %d, signal %d)",
		   strsignal(sig), 128 + sig, r.status, r.signal);
		tap_like(r.err, want, "run: says it stopped and where the result is");
		rf = read_result(json);
		ok(rf != NULL, "run: the result file was written and is valid");
	} else {
		snprintf(want, sizeof(want), "exitscope run: cannot write %s: %s (stopped by Ctrl-C); "
			 "the result is kept in ", json, errtext);
		ok(r.signal == 0 && r.status == 1, "run: Ctrl-C, then a failed write: exit 1 (status %d)",
		   r.status);
		tap_like(r.err, want, "run: says the write failed, that it was stopped, and where the result is");
		rf = read_result(kept_path(r.err));
		ok(rf != NULL, "run: the kept file is valid");
		if (kept_path(r.err))
			unlink(kept_path(r.err));
	}
	n = rf ? result_find_probe(rf, "nop") : NULL;
	c = rf ? result_find_probe(rf, "cpuid") : NULL;
	t = rf ? result_find_probe(rf, "rdtsc") : NULL;
	ok(n && n->status == PROBE_OK && n->n_samples == 3, "run: the measured nop is kept");
	ok(c && c->status == PROBE_STOPPED, "run: cpuid, interrupted, is 'stopped'");
	if (c && c->status != PROBE_STOPPED)
		diag("cpuid: %s: %s", probe_status_name(c->status), c->reason ? c->reason : "");
	ok(t && t->status == PROBE_STOPPED, "run: rdtsc, never started, is 'stopped'");
	result_free(rf);
	run_free(&r);
}

/* The start of /proc/PID/NAME into buf (a /proc file has no size: read, not stat); "" if unreadable. */
static void proc_read(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

/* Whether process pid waits in open() for a FIFO's reader (its kernel wait, or its syscall: openat). */
static bool blocked_in_open(pid_t pid)
{
	char wchan[128], sys[128];

	proc_read(pid, "wchan", wchan, sizeof(wchan));
	proc_read(pid, "syscall", sys, sizeof(sys));
	return strstr(wchan, "wait_for_partner") || !strncmp(sys, "257 ", 4);
}

/*
 * A run whose --json is a FIFO nobody opens waits in open() for a reader.
 * A stop signal then ends it as a stop: 128 + the signal, one line saying
 * so, the result kept in $TMPDIR (not exit 1 "Interrupted system call").
 * The signal is sent once the process is seen waiting there.
 */
static void test_fifo_stop(int sig)
{
	const char *name = sig == SIGINT ? "Ctrl-C" : "SIGTERM";
	char fifo[700], want[900];
	struct result_file *rf;
	struct run_proc pr;
	struct run_result r;
	bool blocked = false;

	snprintf(fifo, sizeof(fifo), "%s/out.fifo", dir);
	unlink(fifo);
	if (mkfifo(fifo, 0600) || run_start(&pr, (const char *const[]){ "env", tmpdir_env, exe, "run", "cpuid",
					    "-q", "--time-budget", "0.05", "--json", fifo, NULL }, NULL)) {
		tap_skip(3, "cannot make the FIFO or start exitscope");
		return;
	}
	/* Its state, polled: the wait for the reader is what the test waits for. */
	for (int ms = 0; ms < RUN_WAIT_MS && !(blocked = blocked_in_open(pr.pid)); ms += 10)
		usleep(10000);
	ok(blocked, "%s: run waits in open() for the FIFO's reader", name);
	kill(pr.pid, sig);
	run_finish(&pr, &r);
	snprintf(want, sizeof(want), "exitscope run: stopped by %s while writing %s: the result is kept in ",
		 name, fifo);
	ok(r.signal == 0 && r.status == 128 + sig && strstr(r.err, want) && own_lines(r.err) == 1,
	   "%s while blocked on the FIFO: exit %d (%d), one line saying so and where the result is", name,
	   128 + sig, r.status);
	if (r.status != 128 + sig)
		diag("stderr: %s", r.err);
	rf = read_result(kept_path(r.err));
	ok(rf && result_find_probe(rf, "cpuid"), "%s: the kept file holds the measured cpuid", name);
	result_free(rf);
	if (kept_path(r.err))
		unlink(kept_path(r.err));
	run_free(&r);
	unlink(fifo);
}

/*
 * The same when the reader stops partway: a run of 14 probes (a result of
 * about 100 KiB, beyond a pipe's 64 KiB), its first 5000 bytes read,
 * so the write that blocks has written part of its bytes. SIGTERM then
 * ends it with 143 and one line, the result kept whole in $TMPDIR.
 */
static void test_fifo_stop_partway(void)
{
	char fifo[700], want[900];
	struct result_file *rf;
	struct run_result r;
	int blocked;

	snprintf(fifo, sizeof(fifo), "%s/partway.fifo", dir);
	unlink(fifo);
	blocked = run_stop_on_fifo_after(&r, (const char *const[]){ "env", tmpdir_env, exe, "run", "-q",
					 "cpuid", "rdtsc", "rdpmc", "mov_from_cr0", "mov_from_cr3",
					 "mov_dr", "toggle_cr0_ts", "toggle_cr4_pge", "invd", "wbinvd",
					 "pio_to_user", "mmio_to_user", "wr_tsc_adjust_msr",
					 "inl_from_kernel", "--json", fifo, NULL }, fifo, SIGTERM, 5000);
	if (!fifo_stop_blocked(blocked, &r, "run", 2))
		return;
	snprintf(want, sizeof(want), "exitscope run: stopped by SIGTERM while writing %s: the result is "
		 "kept in ", fifo);
	ok(r.signal == 0 && r.status == 128 + SIGTERM && strstr(r.err, want) && own_lines(r.err) == 1,
	   "SIGTERM with the FIFO read partway: exit 143 (%d), one line saying where the result is",
	   r.status);
	if (r.status != 128 + SIGTERM)
		diag("stderr: %s", r.err);
	rf = read_result(kept_path(r.err));
	ok(rf && result_find_probe(rf, "inl_from_kernel"), "the kept file holds the whole run");
	result_free(rf);
	if (kept_path(r.err))
		unlink(kept_path(r.err));
	run_free(&r);
	unlink(fifo);
}

/*
 * Ctrl-C in the middle of a v2 run (while cpuid measures its 2nd round,
 * each in a VM of its own; rdtsc has had its 1st): 130, and every probe
 * keeps the rounds it had, status ok with stop "stopped", not "stopped
 * before it was measured". The 2nd round, not a later one: a round's
 * batches are sized to 1/32 of --time-budget, but its guest run is not
 * exactly that share, so the budget (the rounds' CPU time) may end a
 * probe after fewer rounds.
 */
static void test_sigint_rounds(const char *json)
{
	const struct run_opts tty = { .stderr_tty = true };
	struct result_file *rf = NULL;
	const struct run_probe *c, *t;
	struct run_proc pr;
	struct run_result r;

	if (run_start(&pr, (const char *const[]){ "env", tmpdir_env, exe, "run", "cpuid", "rdtsc",
		      "--rounds", "32", "--precision", "0.001", "--precision-floor", "0", "--time-budget", "3",
		      "--json", json, NULL }, &tty)) {
		tap_skip(4, "cannot start exitscope");
		return;
	}
	ok(run_wait_stderr(&pr, "cpuid, round 2/32", RUN_WAIT_MS),
	   "run: cpuid in its 2nd round (progress on the tty)");
	kill(pr.pid, SIGINT);
	run_finish(&pr, &r);
	ok(r.signal == 0 && r.status == 130, "run v2: Ctrl-C exits 130 (status %d, signal %d)", r.status, r.signal);
	rf = read_result(json);
	c = rf ? result_find_probe(rf, "cpuid") : NULL;
	t = rf ? result_find_probe(rf, "rdtsc") : NULL;
	ok(c && c->status == PROBE_OK && c->stop == PROBE_STOP_STOPPED && c->n_rounds >= 1,
	   "run v2: cpuid keeps its %zu measured rounds, stop 'stopped'", c ? c->n_rounds : 0);
	if (c && c->status != PROBE_OK)
		diag("cpuid: %s: %s", probe_status_name(c->status), c->reason ? c->reason : "");
	ok(t && t->status == PROBE_OK && t->stop == PROBE_STOP_STOPPED && t->n_rounds >= 1,
	   "run v2: rdtsc keeps its %zu measured rounds, stop 'stopped'", t ? t->n_rounds : 0);
	result_free(rf);
	run_free(&r);
}

/* Ctrl-C after two suites finished (--verbose says so): 130, their checks kept. */
static void test_sigint_check(void)
{
	struct result_file *rf = NULL;
	struct run_proc pr;
	struct run_result r;
	char json[700], want[800];
	size_t nx = 0, nc = 0, nm = 0, nfail = 0, nstop = 0;
	bool seen;

	snprintf(json, sizeof(json), "%s/check.json", dir);
	if (run_start(&pr, (const char *const[]){ "env", tmpdir_env, exe, "check", "xstate", "cet",
		      "migrate", "--verbose", "--json", json, NULL }, NULL)) {
		tap_skip(6, "cannot start exitscope");
		return;
	}
	seen = run_wait_stderr(&pr, "  cet.", RUN_WAIT_MS);
	ok(seen, "check --verbose: prints each check as its suite finishes");
	if (seen)
		kill(pr.pid, SIGINT);
	run_finish(&pr, &r);
	ok(r.signal == 0 && r.status == 130, "check: Ctrl-C exits 130 (status %d, signal %d)",
	   r.status, r.signal);
	snprintf(want, sizeof(want), "exitscope check: stopped by Ctrl-C: what was measured is in %s", json);
	tap_like(r.err, want, "check: says it stopped and where the result is");
	rf = read_result(json);
	for (size_t i = 0; rf && i < rf->checks.n; i++) {
		nx += !strcmp(rf->checks.r[i].suite, "xstate");
		nc += !strcmp(rf->checks.r[i].suite, "cet");
		nm += !strcmp(rf->checks.r[i].suite, "migrate");
		nfail += rf->checks.r[i].status == CHECK_FAIL;
		nstop += rf->checks.r[i].status == CHECK_STOPPED;
	}
	ok(rf != NULL, "check: the result file was written and is valid");
	ok(nx > 0 && nc > 0, "check: the checks that ran are kept (xstate %zu, cet %zu)", nx, nc);
	ok(nm > 0 && nstop > 0 && nfail == 0,
	   "check: the suite cut short is recorded, as 'stopped', never as a failure "
	   "(migrate %zu, stopped %zu, failed %zu)", nm, nstop, nfail);
	result_free(rf);
	run_free(&r);
}

/*
 * Ctrl-C during the map, once its progress line says the third of its
 * entries (of 66) is being measured, the first two done: 130, the entries
 * measured so far kept, the map marked incomplete.
 */
static void test_sigint_map(void)
{
	const struct run_opts tty = { .stderr_tty = true };
	struct result_file *rf = NULL;
	struct run_proc pr;
	struct run_result r;
	char json[700], want[800];
	size_t measured = 0;

	snprintf(json, sizeof(json), "%s/map.json", dir);
	if (run_start(&pr, (const char *const[]){ "env", tmpdir_env, exe, "map", "--cpuid-profile", "host",
		      "--cpuid-profile", "minimal", "--ops", "100000", "--rounds", "3", "--json", json,
		      NULL }, &tty)) {
		tap_skip(5, "cannot start exitscope");
		return;
	}
	ok(run_wait_stderr(&pr, "map 3/", RUN_WAIT_MS), "map: measuring its 3rd entry (progress on the tty)");
	kill(pr.pid, SIGINT);
	run_finish(&pr, &r);
	ok(r.signal == 0 && r.status == 130, "map: Ctrl-C exits 130 (status %d, signal %d)",
	   r.status, r.signal);
	snprintf(want, sizeof(want), "exitscope map: stopped by Ctrl-C: what was measured is in %s", json);
	tap_like(r.err, want, "map: says it stopped and where the result is");
	rf = read_result(json);
	ok(rf && rf->map && rf->map->incomplete == 1, "map: the result file was written, valid, marked incomplete");
	for (size_t i = 0; rf && rf->map && i < rf->map->n_profiles; i++)
		for (size_t k = 0; k < rf->map->profiles[i].n_entries; k++) {
			enum map_status s = rf->map->profiles[i].entries[k].status;

			measured += s != MAP_STOPPED && s != MAP_SKIPPED;
		}
	ok(measured >= 2, "map: the entries measured before Ctrl-C are kept (%zu, at least the 2 before it)",
	   measured);
	result_free(rf);
	run_free(&r);
}

int main(void)
{
	const char *a, *b;
	char json[700];

	exe = getenv("EXITSCOPE");
	if (!exe || access(exe, X_OK))
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	dir = fixture_tmpdir();
	if (!dir)
		return tap_skip_all("no temp dir");
	snprintf(tmpdir_env, sizeof(tmpdir_env), "TMPDIR=%s", dir);
	/* Our own full device: no broken build can replace the system's /dev/full. */
	snprintf(full, sizeof(full), "%s/full", dir);
	if (mknod(full, S_IFCHR | 0666, makedev(1, 7)) || !is_chardev(full))
		snprintf(full, sizeof(full), "/dev/full");
	if (!is_chardev(full)) {
		fixture_rmdir(dir);
		return tap_skip_all("no full device (mknod failed, /dev/full is not a device)");
	}
	a = input_file("a.json", 1000);
	b = input_file("b.json", 1100);
	if (!a || !b) {
		fixture_rmdir(dir);
		return tap_skip_all("cannot write the input files");
	}
	test_preflight(a, b);
	test_derived(a, b);
	if (access("/dev/kvm", R_OK | W_OK)) {
		skip("/dev/kvm is not usable: no measurements");
		fixture_rmdir(dir);
		return done_testing();
	}
	test_full_kvm();
	test_json_stdout();
	test_json_closed_pipe();
	test_proc_version();
	test_rename_fails();
	snprintf(json, sizeof(json), "%s/sigint.json", dir);
	test_sigint_run(json, NULL, SIGINT);
	test_sigint_run(full, "No space left on device", SIGINT);
	/* SIGHUP (a closed terminal) stops as Ctrl-C does: one line, what was measured kept, 129. */
	snprintf(json, sizeof(json), "%s/sighup.json", dir);
	test_sigint_run(json, NULL, SIGHUP);
	test_fifo_stop(SIGTERM);
	test_fifo_stop(SIGINT);
	test_fifo_stop_partway();
	snprintf(json, sizeof(json), "%s/sigint-rounds.json", dir);
	test_sigint_rounds(json);
	test_sigint_check();
	test_sigint_map();
	is_int(fixture_count_prefixed(dir, "exitscope-"), 0, "every kept file was accounted for");
	fixture_rmdir(dir);
	return done_testing();
}
