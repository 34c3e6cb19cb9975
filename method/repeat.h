/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * repeat.h - N independent runs of one command (run --repeat N; calibrate
 * later): each run is a fresh process of this program (fork, then exec of
 * /proc/self/exe), because what differs from one run to the next (memory
 * placement, CPU placement, the host's speed) is drawn once per process,
 * and one process measuring N times would sample it once. Each run writes
 * its own result file, FILE.json giving FILE-1.json ... FILE-N.json.
 *
 * The runs go one after the other; the first that does not succeed ends
 * the series (a failure, such as no KVM, an unwritable directory, would
 * fail again in every run). Ctrl-C (the stop flag) ends it too: no run is
 * started after it, and the run under way is passed the signal (SIGINT,
 * or SIGTERM or SIGHUP when that is what stopped us), once, so that it stops and
 * writes what it measured; a Ctrl-C on a terminal reaches that run
 * directly as well, and REPEAT_ENV lets it tell the forwarded copy from a
 * second Ctrl-C (cli/signals.c). Nothing is printed here: the callbacks
 * report each run's start and end.
 */
#ifndef EXITSCOPE_METHOD_REPEAT_H
#define EXITSCOPE_METHOD_REPEAT_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define REPEAT_MAX	1000
/* In each run's environment: "I/N", this is run I of N (progress says so; see above). */
#define REPEAT_ENV	"EXITSCOPE_REPEAT"

struct repeat_run {
	unsigned int i, n;		/* run i of n, from 1 */
	char path[PATH_MAX];		/* its result file */
	pid_t pid;			/* its process, -1 when it could not be started */
	int status;			/* its exit status; 128 + signal when a signal ended it */
	int signal;			/* that signal, else 0 */
	bool written;			/* path was written by this run (it is there and new) */
};

enum repeat_end {
	REPEAT_DONE,			/* every run exited 0 */
	REPEAT_STOPPED,			/* the stop flag, or a run ended by SIGINT, ended the series */
	REPEAT_FAILED,			/* a run did not exit 0, or could not be started */
};

struct repeat_opts {
	const char *exe;		/* the program; NULL: /proc/self/exe (this one) */
	char *const *argv;		/* its argv, NULL-terminated (argv[0] its name) */
	size_t path_arg;		/* argv[path_arg] becomes path_prefix + run i's path */
	const char *path_prefix;	/* "--json=", or "" when the path is its own argument */
	const char *path;		/* FILE: run i writes repeat_path(FILE, i) */
	unsigned int n;			/* runs, 1..REPEAT_MAX */
	volatile sig_atomic_t *stop;	/* set by SIGINT/SIGTERM/SIGHUP (its value: that signal) */
	bool quiet;			/* each run's standard output goes to /dev/null (its stderr stays) */
	void (*started)(void *ctx, const struct repeat_run *r);	/* may be NULL */
	void (*ended)(void *ctx, const struct repeat_run *r);		/* may be NULL */
	void *ctx;
};

/*
 * The result file of run i (from 1) of pattern into buf: a '.' in the last
 * path component (not its first character) gets "-I" before the last one
 * (runs/A.json: runs/A-2.json), else "-I" is appended (A: A-2). 0, or
 * -ENAMETOOLONG.
 */
int repeat_path(char *buf, size_t len, const char *pattern, unsigned int i);

/* In a run of a series: 0 with *i, *n from REPEAT_ENV (1 <= i <= n); else -1. */
int repeat_position(unsigned int *i, unsigned int *n);

/*
 * Run the series: runs[0..n-1] receive each run started (*started their
 * count). Returns how it ended (enum repeat_end), or -EINVAL for bad
 * options (nothing run).
 */
int repeat_series(const struct repeat_opts *o, struct repeat_run *runs, unsigned int *started);

#endif
