// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_progress.c - the progress line of map and check (cli/progress.c).
 * Pure parts first: the estimate, its wording and the composed line (cut
 * to the terminal's width). Then the drawing on a pseudo-terminal and its
 * silence on a pipe, suite_run's progress hook, and the real thing: in a
 * tmux session of its own (tmux -L, own socket) `exitscope map` shows
 * "map N/33 host ... ~Ns left" while it runs and leaves no trace of it at
 * the end; the byte stream of `check` on a pty shows the line and ends it
 * erased; with stderr in a file neither writes a progress byte.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.c"	/* the unit under test, linked in directly */
#include "suites/suite_run.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static void test_pure(void)
{
	char buf[PROGRESS_LINE_MAX];

	is_num(progress_eta(10, 0.5), 10, 1e-9, "eta: half done in 10 s, 10 s left");
	is_num(progress_eta(3, 0.25), 9, 1e-9, "eta: a quarter in 3 s, 9 s left");
	is_num(progress_eta(5, 0), -1, 0, "eta: nothing done, no estimate");
	is_num(progress_eta(5, 1), 0, 0, "eta: all done, 0 left");
	progress_eta_format(buf, sizeof(buf), 2.2);
	tap_is_str(buf, "~3s left", "format: seconds rounded up");
	progress_eta_format(buf, sizeof(buf), 0.4);
	tap_is_str(buf, "<1s left", "format: under a second");
	progress_eta_format(buf, sizeof(buf), 125);
	tap_is_str(buf, "~2m05s left", "format: minutes and seconds");
	progress_eta_format(buf, sizeof(buf), 4210);
	tap_is_str(buf, "~1h10m left", "format: hours and minutes");
	progress_eta_format(buf, sizeof(buf), -1);
	tap_is_str(buf, "", "format: no estimate, no text");
	progress_compose(buf, sizeof(buf), "run", 4, 20, "cpuid", 3, 0);
	tap_is_str(buf, "run 5/20 cpuid ~3s left", "line: 4 done, the 5th under way");
	progress_compose(buf, sizeof(buf), "map", 0, 66, "host cr0.MP", -1, 80);
	tap_is_str(buf, "map 1/66 host cr0.MP", "line: no estimate before the first item is done");
	progress_compose(buf, sizeof(buf), "map", 66, 66, NULL, 0, 0);
	tap_is_str(buf, "map 66/66 <1s left", "line: the count never passes the total");
	progress_compose(buf, sizeof(buf), "check", 1, 3, "cet 5/17 msr_roundtrip", 75, 20);
	tap_is_str(buf, "check 2/3 cet 5/17 ", "line: cut to width - 1 columns, so it never wraps");
}

/* A pty pair: master (read end) and slave (what progress draws on), width cols. */
static int pty_open(int *slave, unsigned short cols)
{
	struct winsize ws = { .ws_row = 24, .ws_col = cols };
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	char *name;

	if (m < 0 || grantpt(m) || unlockpt(m) || !(name = ptsname(m)))
		return -1;
	*slave = open(name, O_RDWR | O_NOCTTY);
	if (*slave < 0)
		return -1;
	ioctl(*slave, TIOCSWINSZ, &ws);
	return m;
}

/* All the pty has for us (a read may return only part of it). */
static void pty_read(int m, char *buf, size_t len)
{
	struct pollfd pfd = { .fd = m, .events = POLLIN };
	size_t n = 0;
	ssize_t r;

	while (n + 1 < len && poll(&pfd, 1, 200) > 0 && (r = read(m, buf + n, len - n - 1)) > 0)
		n += (size_t)r;
	buf[n] = 0;
}

static void test_draw(void)
{
	struct progress p;
	char buf[1024];
	int s, m = pty_open(&s, 30), fds[2];
	ssize_t n;

	if (m < 0) {
		tap_skip(3, "no pseudo-terminal");
	} else {
		progress_init_fd(&p, s, "map", 10);
		progress_step(&p, 0, "host cr0.MP");
		progress_step(&p, 5, "a very long label that does not fit the width");
		progress_done(&p);
		progress_step(&p, 6, "after the end");
		pty_read(m, buf, sizeof(buf));
		ok(p.on == false && p.drawn == false, "on a terminal: on until done, nothing drawn after");
		tap_is_str(buf, "\r\033[Kmap 1/10 host cr0.MP"
			   "\r\033[Kmap 6/10 a very long label th"
			   "\r\033[K", "drawn in place, cut to 29 of 30 columns, erased by done");
		progress_init_fd(&p, s, "check", 0);
		ok(p.on && p.total == 0, "a total of 0 is allowed (no count shown)");
		close(s);
		close(m);
	}
	if (pipe(fds)) {
		tap_skip(1, "no pipe");
		return;
	}
	progress_init_fd(&p, fds[1], "map", 10);
	progress_step(&p, 3, "host cr4.PGE");
	progress_clear(&p);
	progress_done(&p);
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf));
	ok(n == 0 && !p.on, "not a terminal: not one byte written (%zd)", n);
	close(fds[0]);
}

/* suite_run's hook: called as each check that runs starts, with its index. */
struct hook_log {
	char seen[256];
	size_t n;
};

static void hook(void *ctx, const char *suite, size_t i, size_t n, const char *name)
{
	struct hook_log *h = ctx;

	h->n += (size_t)snprintf(h->seen + h->n, sizeof(h->seen) - h->n, "%s %zu/%zu %s;", suite, i, n, name);
}

static void noop(void *ctx)
{
}

static bool never(const void *ctx)
{
	return false;
}

static void test_hook(void)
{
	static const struct suite_check table[] = {
		{ { "one" }, .run = noop },
		{ { "hidden" }, .run = noop, .applies = never },
		{ { "two_a", "two_b" }, .run = noop },
	};
	volatile sig_atomic_t stop = 0;
	struct hook_log h = { 0 };
	struct suite_env env = { .stop = &stop, .progress = hook, .progress_ctx = &h };
	struct check_report rep = { 0 };

	suite_run(&env, &rep, "fake", table, 3, NULL);
	tap_is_str(h.seen, "fake 0/3 one;fake 2/3 two_a;",
		   "suite_run's progress hook: each check that runs, index of the table's size");
	check_report_free(&rep);
}

/* scripts/lane-progress, the line lane-run draws, on a made-up console log. */
static void test_lane(void)
{
	char dirp[] = "/tmp/exitscope-test-lanep-XXXXXX", serial[96], list[96];
	struct run_result r;
	FILE *f;

	if (access("scripts/lane-progress", X_OK) || !mkdtemp(dirp)) {
		tap_skip(4, "scripts/lane-progress not found from here (run from the top of the tree)");
		return;
	}
	snprintf(serial, sizeof(serial), "%s/serial.log", dirp);
	snprintf(list, sizeof(list), "%s/commands.list", dirp);
	f = fopen(list, "w");
	if (f) {
		fputs("# comment\ninfo info --json @JSON@\nmap map --json @JSON@\n", f);
		fclose(f);
	}
	f = fopen(serial, "w");
	if (f) {
		fputs("[    0.000000] Linux version 6.1\r\n", f);
		fclose(f);
	}
	run_cmd(&r, (const char *const[]){ "scripts/lane-progress", "vmx", serial, list, "5", "300", NULL });
	tap_is_str(r.out, "lane vmx: 5s booting, at most 4m55s left (timeout) | [    0.000000] Linux version 6.1",
		   "lane: booting, the timeout as the bound, the console's last line");
	run_free(&r);
	f = fopen(serial, "a");
	if (f) {
		fputs("@@LANE START vmx\r\n@@LANE RESULT kvm rc=0 bytes=9\r\n@@LANE RESULT tsc rc=0\r\n", f);
		fclose(f);
	}
	run_cmd(&r, (const char *const[]){ "scripts/lane-progress", "vmx", serial, list, "65", "300", "100", NULL });
	tap_is_str(r.out, "lane vmx: 1m05s block 3/4 info, ~35s left | @@LANE RESULT tsc rc=0",
		   "lane: two blocks done, the third (info) under way, the last run's time as estimate");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ "scripts/lane-progress", "vmx", serial, list, "120", "300", "100", NULL });
	tap_like(r.out, "longer than the last run (1m40s)", "lane: past the estimate, it says so");
	ok(!strchr(r.out, '\r') && !strchr(r.out, '\n'), "lane: one line, no control characters");
	run_free(&r);
	unlink(serial);
	unlink(list);
	rmdir(dirp);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* One tmux server of our own: its socket name, and commands on it. */
static char tmux_sock[64];

static char *tmux_capture(bool history)
{
	char cmd[256];
	struct run_result r;
	char *out;

	snprintf(cmd, sizeof(cmd), "tmux -L %s capture-pane -p -J%s -t exs", tmux_sock,
		 history ? " -S -" : "");
	run_cmd(&r, (const char *const[]){ "sh", "-c", cmd, NULL });
	out = r.out;
	r.out = NULL;
	run_free(&r);
	return out;
}

/* A line of the pane that is a map progress line with an estimate: "map N/33 host ... left". */
static bool progress_line_in(const char *pane, char *line, size_t len)
{
	for (const char *s = pane; *s;) {
		size_t n = strcspn(s, "\n");
		unsigned a, b;

		snprintf(line, len, "%.*s", (int)n, s);
		if (sscanf(line, "map %u/%u host ", &a, &b) == 2 && strstr(line, " left") && b == 33)
			return true;
		s += n + (s[n] == '\n');
	}
	line[0] = 0;
	return false;
}

static void test_tmux(const char *exe)
{
	char cmd[1024], line[256] = "";
	struct run_result r;
	bool seen = false, ended = false;
	char *pane = NULL;

	if (!run_works((const char *const[]){ "tmux", "-V", NULL })) {
		tap_skip(4, "tmux is not installed (Debian tmux: scripts/install-deps --test)");
		return;
	}
	snprintf(tmux_sock, sizeof(tmux_sock), "exitscope-test-progress-%d", (int)getpid());
	/* 120 columns, so the line is not cut; the shell stays to be captured. */
	snprintf(cmd, sizeof(cmd), "tmux -L %s -f /dev/null new-session -d -s exs -x 120 -y 40 "
		 "\"'%s' map --cpuid-profile host --ops 10000 --rounds 3; echo EXITED:\\$?; sleep 120\"",
		 tmux_sock, exe);
	run_cmd(&r, (const char *const[]){ "sh", "-c", cmd, NULL });
	if (r.status) {
		tap_skip(4, "tmux could not start a session");
		run_free(&r);
		return;
	}
	run_free(&r);
	/*
	 * While it runs: poll the pane until the map's shell says it ended. The
	 * line is on the pane all the time the map runs, so any capture then
	 * shows it; the deadline is only a safety net (it takes seconds).
	 */
	for (long end = now_ms() + RUN_WAIT_MS; !ended && now_ms() < end;) {
		free(pane);
		pane = tmux_capture(false);
		if (!seen)
			seen = progress_line_in(pane, line, sizeof(line));
		ended = strstr(pane, "EXITED:") != NULL;
		usleep(20000);
	}
	if (!ended)
		diag("the map in tmux did not end within %d s (RUN_WAIT_MS)", RUN_WAIT_MS / 1000);
	ok(seen, "on a terminal (tmux pane), map shows its progress with the time left: '%s'", line);
	free(pane);
	pane = tmux_capture(true);
	ok(ended && strstr(pane, "EXITED:0"), "map ended (exit 0)");
	ok(!progress_line_in(pane, line, sizeof(line)) && !strstr(pane, " left"),
	   "at the end the progress line is erased: no 'left' anywhere in the pane or its history");
	ok(strstr(pane, "\nprofile host\n") && strstr(pane, "cr4.PGE"),
	   "the table is shown where the line was");
	free(pane);
	snprintf(cmd, sizeof(cmd), "tmux -L %s kill-server", tmux_sock);
	if (system(cmd))
		diag("tmux kill-server on %s failed", tmux_sock);
}

/* check on a pty (the byte stream), then check and map with stderr in a file. */
static void test_streams(const char *exe)
{
	const struct run_opts tty = { .stderr_tty = true };
	struct run_result r;
	const char *last, *end;

	run_cmd_opts(&r, (const char *const[]){ exe, "check", "--tap", NULL }, &tty);
	if (r.status == 3) {
		run_free(&r);
		tap_skip(6, "KVM is not available here");
		return;
	}
	last = strstr(r.err, " left") ? r.err : NULL;
	for (const char *s = last; s && (s = strstr(s + 1, " left"));)
		last = s;
	end = last ? strstr(last, "\r\033[K") : NULL;
	ok(strstr(r.err, "\r\033[Kcheck 1/4 xstate 1/") && last,
	   "check on a pty: 'check 1/4 xstate 1/N ...' and an estimate are drawn");
	ok(end && !strpbrk(end + 4, "~<") && !strstr(end, "check "),
	   "the last line drawn is erased and nothing is drawn after it");
	ok(!strchr(r.out, '\r') && !strstr(r.out, " left") && !strncmp(r.out, "TAP version 13\n", 15),
	   "stdout (TAP) holds no progress bytes");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "check", NULL });
	/* Exit 1 is a check that failed on this host (e.g. irq under kvm_pvm), not a stream error. */
	ok((r.status == 0 || r.status == 1) && !strchr(r.err, '\r') && !strchr(r.err, '\033') && !strstr(r.err, " left") &&
	   !strstr(r.err, "check 1/"), "check, stderr in a file: no progress bytes (no \\r, ESC or text)");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "map", "--ops", "20", "--rounds", "1", NULL });
	ok(r.status == 0 && !strchr(r.err, '\r') && !strchr(r.err, '\033') && !strstr(r.err, " left") &&
	   !strstr(r.err, "map 1/"), "map, stderr in a file: no progress bytes");
	tap_like(r.out, "profile minimal", "(and the map ran)");
	run_free(&r);
}

int main(void)
{
	const char *exe = getenv("EXITSCOPE");

	test_pure();
	test_draw();
	test_hook();
	test_lane();
	if (!exe) {
		tap_skip(10, "EXITSCOPE is not set (run through make check)");
		return done_testing();
	}
	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(10, "/dev/kvm is not usable here");
		return done_testing();
	}
	test_streams(exe);
	test_tmux(exe);
	return done_testing();
}
