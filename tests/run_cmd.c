// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_cmd.c - run a program from a test and capture its exit status, stdout
 * and stderr; start it and watch it while it runs (Ctrl-C tests).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/run_cmd.h"

/* An unnamed temporary file for a capture, or -1. */
static int capture_fd(void)
{
	FILE *f = tmpfile();
	int fd;

	if (!f)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	return fd;
}

static char *slurp_fd(int fd)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	while (buf && fd >= 0 && (r = pread(fd, buf + n, cap - n - 1, (off_t)n)) > 0) {
		n += (size_t)r;
		if (cap - n - 1 == 0) {
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	if (!buf)
		return strdup("");
	buf[n] = '\0';
	return buf;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void child(const char *const argv[], const struct run_opts *o, int out_fd, int err_fd,
		  const char *pty_name)
{
	int fd = open("/dev/null", O_RDONLY);

	if (fd >= 0)
		dup2(fd, 0);
	if (o && o->stdout_path) {
		fd = open(o->stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 1);
	} else if (out_fd >= 0) {
		dup2(out_fd, 1);
	}
	if (pty_name) {
		fd = open(pty_name, O_RDWR | O_NOCTTY);
		if (fd >= 0)
			dup2(fd, 2);
	} else if (err_fd >= 0) {
		dup2(err_fd, 2);
	}
	if (o && o->fsize_limit > 0) {
		struct rlimit rl = { .rlim_cur = (rlim_t)o->fsize_limit, .rlim_max = (rlim_t)o->fsize_limit };

		signal(SIGXFSZ, SIG_IGN);	/* survives exec: a too-big write fails EFBIG */
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	execvp(argv[0], (char *const *)argv);
	fprintf(stderr, "exec %s failed\n", argv[0]);
	_exit(127);
}

int run_start(struct run_proc *p, const char *const argv[], const struct run_opts *o)
{
	char *pty_name = NULL;

	memset(p, 0, sizeof(*p));
	p->pid = -1;
	for (size_t i = 0, n = 0; argv[i] && n < sizeof(p->what) - 1; i++)
		n += (size_t)snprintf(p->what + n, sizeof(p->what) - n, "%s%s", i ? " " : "", argv[i]);
	p->out_fd = capture_fd();
	p->err_fd = -1;
	p->pty_fd = -1;
	if (o && o->stderr_tty) {
		p->pty_fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (p->pty_fd < 0 || grantpt(p->pty_fd) || unlockpt(p->pty_fd) ||
		    !(pty_name = ptsname(p->pty_fd)))
			return -1;
		pty_name = strdup(pty_name);
	} else {
		p->err_fd = capture_fd();
	}
	fflush(stdout);
	fflush(stderr);
	p->pid = fork();
	if (p->pid == 0)
		child(argv, o, p->out_fd, p->err_fd, pty_name);
	free(pty_name);
	return p->pid > 0 ? 0 : -1;
}

/* Read what the pty has now, waiting up to ms for something. */
static void pty_pump(struct run_proc *p, int ms)
{
	struct pollfd pfd = { .fd = p->pty_fd, .events = POLLIN };
	char buf[4096];
	ssize_t n;
	char *nb;

	if (p->pty_fd < 0 || poll(&pfd, 1, ms) <= 0 || !(pfd.revents & POLLIN))
		return;
	n = read(p->pty_fd, buf, sizeof(buf));
	if (n <= 0)
		return;
	nb = realloc(p->pty_buf, p->pty_len + (size_t)n + 1);
	if (!nb)
		return;
	p->pty_buf = nb;
	memcpy(p->pty_buf + p->pty_len, buf, (size_t)n);
	p->pty_len += (size_t)n;
	p->pty_buf[p->pty_len] = '\0';
}

/* Still running (not yet exited; nothing reaped)? */
static bool run_alive(struct run_proc *p)
{
	siginfo_t si = { 0 };

	return waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == 0;
}

/* Does s hold needle after the first mark (mark NULL: anywhere)? */
static bool holds_after(const char *s, const char *mark, const char *needle)
{
	const char *from = s && mark ? strstr(s, mark) : s;

	return from && strstr(from + (mark ? strlen(mark) : 0), needle);
}

bool run_wait_stderr_after(struct run_proc *p, const char *mark, const char *needle, int timeout_ms)
{
	long end = now_ms() + timeout_ms;

	do {
		bool found;

		if (p->pty_fd >= 0) {
			pty_pump(p, 20);
			found = holds_after(p->pty_buf, mark, needle);
		} else {
			char *s = slurp_fd(p->err_fd);

			found = holds_after(s, mark, needle);
			free(s);
			if (!found)
				usleep(20000);
		}
		if (found)
			return true;
	} while (now_ms() < end && run_alive(p));
	return false;
}

bool run_wait_stderr(struct run_proc *p, const char *needle, int timeout_ms)
{
	return run_wait_stderr_after(p, NULL, needle, timeout_ms);
}

bool run_wait_caught(struct run_proc *p, int sig, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	char path[64], line[256];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)p->pid);
	do {
		FILE *f = fopen(path, "r");
		unsigned long long mask = 0;

		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "SigCgt: %llx", &mask) == 1)
				break;
		if (f)
			fclose(f);
		if (mask & (1ULL << (sig - 1)))
			return true;
		pty_pump(p, 0);
		usleep(5000);
	} while (now_ms() < end && run_alive(p));
	return false;
}

bool run_wait_wchan(struct run_proc *p, const char *needle, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	char path[64], line[128];

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)p->pid);
	do {
		FILE *f = fopen(path, "r");
		bool hit = f && fgets(line, sizeof(line), f) && strstr(line, needle);

		if (f)
			fclose(f);
		if (hit)
			return true;
		pty_pump(p, 0);
		usleep(5000);
	} while (now_ms() < end && run_alive(p));
	return false;
}

/*
 * Read n bytes from the non-blocking fd that p writes: true, or false at
 * its end, when p ended, or after RUN_WAIT_MS.
 */
static bool read_first(struct run_proc *p, int fd, size_t n)
{
	long end = now_ms() + RUN_WAIT_MS;
	char buf[4096];

	while (n) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t k;

		if (now_ms() >= end || !run_alive(p))
			return false;
		/* A slice at a time: a child that ends without opening the FIFO ends the wait too. */
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		k = read(fd, buf, n < sizeof(buf) ? n : sizeof(buf));
		if (k == 0)
			return false;	/* the writer closed it: it ended */
		if (k > 0)
			n -= (size_t)k;
		else if (errno != EAGAIN && errno != EINTR)
			return false;
	}
	return true;
}

int run_stop_on_fifo_after(struct run_result *r, const char *const argv[], const char *fifo, int sig,
			   size_t first)
{
	struct run_proc p;
	int rfd = mkfifo(fifo, 0600) ? -1 : open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	bool blocked;

	if (rfd < 0 || run_start(&p, argv, NULL)) {
		if (rfd >= 0)
			close(rfd);
		return -1;
	}
	blocked = read_first(&p, rfd, first) && run_wait_wchan(&p, "pipe_write", RUN_WAIT_MS);
	if (blocked)
		kill(p.pid, sig);
	else if (run_alive(&p))	/* wchan names nothing here: end it all the same */
		kill(p.pid, SIGKILL);
	run_finish(&p, r);
	close(rfd);
	return blocked;
}

int run_stop_on_fifo(struct run_result *r, const char *const argv[], const char *fifo, int sig)
{
	return run_stop_on_fifo_after(r, argv, fifo, sig, 0);
}

/* Block until the child ends or ms pass (on its pidfd; without one, 20 ms). */
static void wait_end(pid_t pid, long ms)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (fd < 0) {
		usleep(20000);
		return;
	}
	while (poll(&pfd, 1, (int)(ms > 0 ? ms : 0)) < 0 && errno == EINTR)
		;
	close(fd);
}

/* The child's end (waitpid's result), killing it when it outlives RUN_LIMIT_MS. */
static pid_t reap(struct run_proc *p, int *st)
{
	long end = now_ms() + RUN_LIMIT_MS;
	pid_t w;

	while ((w = waitpid(p->pid, st, WNOHANG)) == 0 && now_ms() < end) {
		if (p->pty_fd >= 0)
			pty_pump(p, 20);	/* keep draining, or a chatty child blocks on it */
		else
			wait_end(p->pid, end - now_ms());
	}
	if (w)
		return w;
	printf("# %s: still running after %ld s, killed (the tests' safety net, RUN_LIMIT_MS)\n",
	       p->what, RUN_LIMIT_MS / 1000L);
	fflush(stdout);
	kill(p->pid, SIGKILL);
	return waitpid(p->pid, st, 0);
}

int run_finish(struct run_proc *p, struct run_result *r)
{
	pid_t w;
	int st = 0;

	r->status = -1;
	r->signal = 0;
	if (p->pid > 0) {
		w = reap(p, &st);
		if (w == p->pid && WIFEXITED(st)) {
			r->status = WEXITSTATUS(st);
		} else if (w == p->pid && WIFSIGNALED(st)) {
			r->signal = WTERMSIG(st);
			r->status = 128 + r->signal;
		}
	}
	r->out = slurp_fd(p->out_fd);
	if (p->pty_fd >= 0) {
		pty_pump(p, 0);
		r->err = p->pty_buf ? p->pty_buf : strdup("");
		p->pty_buf = NULL;
		close(p->pty_fd);
	} else {
		r->err = slurp_fd(p->err_fd);
	}
	if (p->out_fd >= 0)
		close(p->out_fd);
	if (p->err_fd >= 0)
		close(p->err_fd);
	p->pid = -1;
	p->out_fd = p->err_fd = p->pty_fd = -1;
	return r->status;
}

int run_cmd_opts(struct run_result *r, const char *const argv[], const struct run_opts *o)
{
	struct run_proc p;

	if (run_start(&p, argv, o)) {
		p.pid = -1;	/* nothing started: collect empty captures */
		return run_finish(&p, r);
	}
	return run_finish(&p, r);
}

int run_cmd(struct run_result *r, const char *const argv[])
{
	return run_cmd_opts(r, argv, NULL);
}

int run_cmd_trim(struct run_result *r, const char *const argv[])
{
	size_t n;

	run_cmd(r, argv);
	n = strlen(r->err);
	if (n && r->err[n - 1] == '\n')
		r->err[n - 1] = '\0';
	return r->status;
}

bool run_works(const char *const argv[])
{
	struct run_result r;
	int st = run_cmd(&r, argv);

	run_free(&r);
	return st == 0;
}

void run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

char *run_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = '\0';
		if (len)
			*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

size_t run_help_commands(const char *help, char names[][32], size_t max)
{
	const char *p = strstr(help, "\ncommands:\n");
	size_t n = 0;

	if (!p)
		return 0;
	for (p += strlen("\ncommands:\n"); *p == ' ' && n < max; p = strchr(p, '\n') + 1) {
		int len = 0;

		while (*p == ' ')
			p++;
		while (p[len] && !isspace((unsigned char)p[len]))
			len++;
		snprintf(names[n++], 32, "%.*s", len, p);
		if (!strchr(p, '\n'))
			break;
	}
	return n;
}
