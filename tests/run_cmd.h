/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_cmd.h - run a program from a test and capture its exit status, stdout
 * and stderr; or start it, watch its output and signals while it runs (for
 * Ctrl-C tests), then collect it.
 */
#ifndef EXITSCOPE_TESTS_RUN_CMD_H
#define EXITSCOPE_TESTS_RUN_CMD_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Safety nets, never triggers: a test waits for a child's own output or
 * signal handler (run_wait_*), and for its end (run_finish, run_cmd), at
 * most this long. Both are far beyond what any test's child takes on a
 * loaded host; when one expires the wait fails (run_wait_*: false) or the
 * child is killed with a TAP diagnostic line saying so (run_finish), so a
 * broken program fails its test instead of hanging `make check`.
 */
#define RUN_WAIT_MS	300000		/* for a progress line, a handler: 5 min */
#define RUN_LIMIT_MS	1800000		/* for a child to end: 30 min */

struct run_result {
	int status;	/* exit code; 128 + signal if killed; -1 if it could not run */
	int signal;	/* the signal that killed it, 0 if it exited */
	char *out;	/* captured stdout, NUL-terminated (never NULL after run_cmd) */
	char *err;	/* captured stderr */
};

struct run_opts {
	const char *stdout_path;	/* stdout to this file (opened for writing), not captured */
	bool stderr_tty;		/* stderr is a pseudo-terminal (progress output shows) */
	long fsize_limit;		/* > 0: RLIMIT_FSIZE in bytes, SIGXFSZ ignored (writes fail EFBIG) */
};

/* A started child. */
struct run_proc {
	pid_t pid;
	int out_fd, err_fd;		/* capture files, or -1 */
	int pty_fd;			/* stderr_tty: the pty master, or -1 */
	char *pty_buf;			/* what came through the pty so far */
	size_t pty_len;
	char what[64];			/* argv[0], for the safety net's message */
};

/* Run argv (argv[0] looked up in PATH), stdin from /dev/null; returns r->status. */
int run_cmd(struct run_result *r, const char *const argv[]);
/* run_cmd, then stderr's one final newline cut (a one-line error compares whole). */
int run_cmd_trim(struct run_result *r, const char *const argv[]);
/* run_cmd with options (o may be NULL). */
int run_cmd_opts(struct run_result *r, const char *const argv[], const struct run_opts *o);
void run_free(struct run_result *r);
/* Whether argv runs and exits 0 (output discarded): is a tool a test needs there? */
bool run_works(const char *const argv[]);
/* A whole file, NUL-terminated (malloc'd; NULL if unreadable); *len its size when len is set. */
char *run_read_file(const char *path, size_t *len);
/* The command names of `exitscope --help`'s "commands:" list into names[]; their count. */
size_t run_help_commands(const char *help, char names[][32], size_t max);

/* Start argv (as run_cmd_opts); 0, or -1 if it could not be started. */
int run_start(struct run_proc *p, const char *const argv[], const struct run_opts *o);
/*
 * Wait until the child's stderr contains needle; true if it did, false when
 * the child ended first or timeout_ms (a safety net: RUN_WAIT_MS) passed.
 */
bool run_wait_stderr(struct run_proc *p, const char *needle, int timeout_ms);
/* ... contains needle after the first mark (a later line of the same output). */
bool run_wait_stderr_after(struct run_proc *p, const char *mark, const char *needle, int timeout_ms);
/* Wait until the child catches signal sig (its handler is installed); false as above. */
bool run_wait_caught(struct run_proc *p, int sig, int timeout_ms);
/*
 * Wait until the child sleeps in the kernel function whose name contains
 * needle (/proc/PID/wchan: "pipe_write" for a write blocked on a full pipe
 * or FIFO); false as above, and where wchan names nothing (it reads "0").
 */
bool run_wait_wchan(struct run_proc *p, const char *needle, int timeout_ms);
/*
 * Make the FIFO fifo and open it for reading (never read), start argv (which
 * should write fifo), wait until it blocks writing it (run_wait_wchan
 * "pipe_write": the pipe is full), send it sig and fill r as run_cmd does.
 * 1; 0 when it never blocked there (it ended first, or wchan names nothing
 * and it is killed); -1 when the FIFO or the child could not be made.
 */
int run_stop_on_fifo(struct run_result *r, const char *const argv[], const char *fifo, int sig);
/*
 * The same, reading the first `first` bytes before it stops reading: the
 * pipe then fills up in the middle of a page, so the write that blocks has
 * written part of its bytes (stdio writes more than a page at once), and
 * a write loop that retries the rest would block again after the signal.
 */
int run_stop_on_fifo_after(struct run_result *r, const char *const argv[], const char *fifo, int sig,
			   size_t first);
/*
 * Wait for the child to end and fill r as run_cmd does; returns r->status.
 * A child still running after RUN_LIMIT_MS is killed (status 137) and a
 * "# ..." line says so.
 */
int run_finish(struct run_proc *p, struct run_result *r);

#endif
