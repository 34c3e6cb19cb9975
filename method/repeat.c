// SPDX-License-Identifier: GPL-2.0-only
/* repeat.c - N independent runs of this program, one result file each (method/repeat.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "method/repeat.h"

int repeat_path(char *buf, size_t len, const char *pattern, unsigned int i)
{
	const char *base = strrchr(pattern, '/'), *dot;
	int w;

	base = base ? base + 1 : pattern;
	dot = strrchr(base, '.');
	if (dot && dot > base)
		w = snprintf(buf, len, "%.*s-%u%s", (int)(dot - pattern), pattern, i, dot);
	else
		w = snprintf(buf, len, "%s-%u", pattern, i);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/* What is at path now, to tell afterwards whether a run replaced it. */
struct repeat_stamp {
	bool there;
	struct stat st;
};

int repeat_position(unsigned int *i, unsigned int *n)
{
	const char *pos = getenv(REPEAT_ENV);
	char tail;

	if (!pos || sscanf(pos, "%u/%u%c", i, n, &tail) != 2 || *i < 1 || *i > *n)
		return -EINVAL;
	return 0;
}

static void repeat_stamp(const char *path, struct repeat_stamp *s)
{
	s->there = !stat(path, &s->st);
}

static bool repeat_replaced(const struct repeat_stamp *before, const struct repeat_stamp *after)
{
	return after->there &&
	       (!before->there || before->st.st_dev != after->st.st_dev ||
		before->st.st_ino != after->st.st_ino ||
		before->st.st_mtim.tv_sec != after->st.st_mtim.tv_sec ||
		before->st.st_mtim.tv_nsec != after->st.st_mtim.tv_nsec);
}

/* The child: the signal mask it had, its place in the series, and the program. */
static void repeat_exec(const struct repeat_opts *o, char *const *argv, const sigset_t *mask,
			const struct repeat_run *r)
{
	char pos[32];

	sigprocmask(SIG_SETMASK, mask, NULL);
	if (o->quiet) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(127);
		if (fd != STDOUT_FILENO)
			close(fd);
	}
	snprintf(pos, sizeof(pos), "%u/%u", r->i, r->n);
	setenv(REPEAT_ENV, pos, 1);
	execv(o->exe ? o->exe : "/proc/self/exe", argv);
	_exit(127);
}

/*
 * Wait for r's process, SIGINT and SIGTERM blocked except while waiting
 * (mask: the mask to wait with), so that a stop between the check and the
 * wait cannot be missed; forward the stop once.
 */
static int repeat_wait(const struct repeat_opts *o, struct repeat_run *r, const sigset_t *mask)
{
	int pidfd = pidfd_open(r->pid, 0), st = 0;
	bool forwarded = false;
	pid_t w;

	for (;;) {
		if (*o->stop && !forwarded) {
			kill(r->pid, *o->stop == SIGTERM || *o->stop == SIGHUP ? *o->stop : SIGINT);
			forwarded = true;
		}
		w = waitpid(r->pid, &st, WNOHANG);
		if (w == r->pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (pidfd >= 0) {
			struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

			ppoll(&pfd, 1, NULL, mask);	/* returns on its exit or on a signal */
		} else {
			/* No pidfd (kernel < 5.3): wait with the signals open; one may come just before. */
			sigset_t old;

			sigprocmask(SIG_SETMASK, mask, &old);
			w = waitpid(r->pid, &st, 0);
			sigprocmask(SIG_SETMASK, &old, NULL);
			if (w == r->pid)
				break;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	/*
	 * A Ctrl-C to the process group may have ended the child before it
	 * could handle it, and reaped it at the WNOHANG before this process
	 * ever waited with the signals open: take the stop that is pending
	 * now, so the caller sees it and not a run "ended by signal 2".
	 */
	{
		sigset_t old;

		sigprocmask(SIG_SETMASK, mask, &old);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (WIFSIGNALED(st)) {
		r->signal = WTERMSIG(st);
		r->status = 128 + r->signal;
	} else {
		r->status = WEXITSTATUS(st);
	}
	return 0;
}

/* Run i of the series; its end as enum repeat_end. */
static int repeat_one(const struct repeat_opts *o, char **argv, char *slot, size_t slot_len,
		      struct repeat_run *r, const sigset_t *mask)
{
	struct repeat_stamp before, after;
	int end;

	r->pid = -1;
	r->status = -1;
	if (repeat_path(r->path, sizeof(r->path), o->path, r->i) ||
	    snprintf(slot, slot_len, "%s%s", o->path_prefix, r->path) >= (int)slot_len)
		return REPEAT_FAILED;
	repeat_stamp(r->path, &before);
	if (o->started)
		o->started(o->ctx, r);
	fflush(NULL);	/* nothing buffered here is written twice by the child */
	r->pid = fork();
	if (r->pid == 0)
		repeat_exec(o, argv, mask, r);
	if (r->pid > 0 && repeat_wait(o, r, mask))
		r->pid = -1;	/* lost (reaped elsewhere): as if it never ran */
	repeat_stamp(r->path, &after);
	r->written = r->pid > 0 && repeat_replaced(&before, &after);
	/*
	 * A run that SIGINT ended was stopped by Ctrl-C too: a terminal sends
	 * it to the whole group, and the run may die of it before its handler
	 * is installed while ours is still on its way.
	 */
	if (*o->stop || (r->pid > 0 && r->signal == SIGINT))
		end = REPEAT_STOPPED;
	else
		end = r->pid > 0 && !r->status ? REPEAT_DONE : REPEAT_FAILED;
	if (o->ended)
		o->ended(o->ctx, r);
	return end;
}

/* Let a SIGINT or SIGTERM that came while they were blocked set the stop flag now. */
static void repeat_take_signals(const sigset_t *mask, const sigset_t *block)
{
	sigprocmask(SIG_SETMASK, mask, NULL);
	sigprocmask(SIG_BLOCK, block, NULL);
}

int repeat_series(const struct repeat_opts *o, struct repeat_run *runs, unsigned int *started)
{
	size_t argc = 0, slot_len;
	char **argv, *slot;
	sigset_t block, mask;
	int end = REPEAT_DONE;

	*started = 0;
	while (o->argv[argc])
		argc++;
	if (!o->n || o->n > REPEAT_MAX || o->path_arg >= argc || !o->path || !o->path_prefix)
		return -EINVAL;
	slot_len = strlen(o->path_prefix) + PATH_MAX;
	argv = calloc(argc + 1, sizeof(*argv));
	slot = malloc(slot_len);
	if (!argv || !slot) {
		free(argv);
		free(slot);
		return REPEAT_FAILED;
	}
	memcpy(argv, o->argv, argc * sizeof(*argv));
	argv[o->path_arg] = slot;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &mask);
	for (unsigned int i = 1; i <= o->n && end == REPEAT_DONE; i++) {
		struct repeat_run *r = &runs[i - 1];

		repeat_take_signals(&mask, &block);
		if (*o->stop) {
			end = REPEAT_STOPPED;
			break;
		}
		memset(r, 0, sizeof(*r));
		r->i = i;
		r->n = o->n;
		(*started)++;
		end = repeat_one(o, argv, slot, slot_len, r, &mask);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	free(argv);
	free(slot);
	return end;
}
