/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h - one progress line on a terminal for the long commands (map,
 * check; run after integration): what is under way, how far, and an
 * estimate of the time left, redrawn in place ("\r" + erase line) on
 * stderr and erased at the end. Nothing at all is written when stderr is
 * not a terminal, so logs, pipes and CI see no progress bytes.
 *
 * The state is a caller-allocated struct (no globals); the terminal width
 * is asked for at each draw, so a resized window needs no signal handler.
 * The estimate is linear: time so far divided by the fraction done, times
 * the fraction left; there is none until the first item is done.
 */
#ifndef EXITSCOPE_CLI_PROGRESS_H
#define EXITSCOPE_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define PROGRESS_LINE_MAX	256

struct progress {
	const char *what;	/* the command: "map", "check" */
	unsigned total;		/* items */
	int fd;			/* where it draws (stderr) */
	bool on;		/* fd is a terminal */
	bool drawn;		/* a line is on the screen */
	struct timespec t0;	/* progress_init */
};

/* Start; draws only if isatty(2). */
void progress_init(struct progress *p, const char *what, unsigned total);
/* progress_init on another fd (tests: a pseudo-terminal or a pipe). */
void progress_init_fd(struct progress *p, int fd, const char *what, unsigned total);
/*
 * done items are finished; label (may be NULL) is the one under way, shown
 * as item done + 1 of total: progress_step(p, 4, "cpuid") on a "run" of
 * 20 draws "run 5/20 cpuid ~3s left".
 */
void progress_step(struct progress *p, unsigned done, const char *label);
/*
 * As progress_step, with the item under way part (0..1) through: the
 * estimate counts that part as done (check: a suite is an item, its
 * checks the parts).
 */
void progress_step_part(struct progress *p, unsigned done, double part, const char *label);
/* Erase the line (before other stderr output); the next step draws it again. */
void progress_clear(struct progress *p);
/* The end: erases the line. */
void progress_done(struct progress *p);

/*
 * Pure parts, for tests. The estimate of the seconds left after elapsed
 * seconds with fraction done (0..1), or -1 when there is none yet.
 */
double progress_eta(double elapsed, double fraction);
/* "~3s left", "~2m05s left", "~1h10m left", "<1s left"; "" when seconds < 0. */
void progress_eta_format(char *buf, size_t len, double seconds);
/*
 * The line itself: "WHAT N/TOTAL LABEL ETA" (N = done + 1, at most total;
 * empty parts left out), cut to width - 1 columns (width 0: no limit) so
 * it never wraps, since a wrapped line could not be erased.
 */
void progress_compose(char *buf, size_t len, const char *what, unsigned done, unsigned total,
		      const char *label, double eta_s, unsigned width);

#endif
