// SPDX-License-Identifier: GPL-2.0-only
/* progress.c - the progress line of long commands on a terminal (progress.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/progress.h"

double progress_eta(double elapsed, double fraction)
{
	if (!(fraction > 0) || elapsed < 0)
		return -1;
	if (fraction >= 1)
		return 0;
	return elapsed * (1 - fraction) / fraction;
}

void progress_eta_format(char *buf, size_t len, double seconds)
{
	unsigned long s;

	if (!len)
		return;
	if (!(seconds >= 0)) {
		buf[0] = 0;
		return;
	}
	if (seconds < 1) {
		snprintf(buf, len, "<1s left");
		return;
	}
	s = seconds > 359999 ? 359999 : (unsigned long)ceil(seconds);
	if (s < 60)
		snprintf(buf, len, "~%lus left", s);
	else if (s < 3600)
		snprintf(buf, len, "~%lum%02lus left", s / 60, s % 60);
	else
		snprintf(buf, len, "~%luh%02lum left", s / 3600, s / 60 % 60);
}

void progress_compose(char *buf, size_t len, const char *what, unsigned done, unsigned total,
		      const char *label, double eta_s, unsigned width)
{
	char eta[32];
	size_t n = 0;
	int w;

	if (!len)
		return;
	buf[0] = 0;
	progress_eta_format(eta, sizeof(eta), eta_s);
	if (what && *what) {
		w = snprintf(buf, len, "%s", what);
		n = w < 0 ? 0 : (size_t)w;
	}
	if (total && n < len) {
		w = snprintf(buf + n, len - n, "%s%u/%u", n ? " " : "",
			     done < total ? done + 1 : total, total);
		n += w < 0 ? 0 : (size_t)w;
	}
	if (label && *label && n < len) {
		w = snprintf(buf + n, len - n, "%s%s", n ? " " : "", label);
		n += w < 0 ? 0 : (size_t)w;
	}
	if (eta[0] && n < len)
		snprintf(buf + n, len - n, "%s%s", n ? " " : "", eta);
	/* One column is kept free: a line filling the last one wraps on some terminals. */
	if (width > 1 && strlen(buf) > width - 1)
		buf[width - 1] = 0;
}

static double progress_elapsed(const struct progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - p->t0.tv_sec) + (now.tv_nsec - p->t0.tv_nsec) / 1e9;
}

/* The terminal's columns now (0: unknown). */
static unsigned progress_width(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) || !ws.ws_col)
		return 0;
	return ws.ws_col;
}

/* Write all of s; a failed write turns progress off (it is never worth an error). */
static void progress_write(struct progress *p, const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t w = write(p->fd, s, len);

		if (w <= 0) {
			p->on = false;
			return;
		}
		s += w;
		len -= (size_t)w;
	}
}

void progress_init_fd(struct progress *p, int fd, const char *what, unsigned total)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->total = total;
	p->fd = fd;
	p->on = isatty(fd) == 1;
	clock_gettime(CLOCK_MONOTONIC, &p->t0);
}

void progress_init(struct progress *p, const char *what, unsigned total)
{
	progress_init_fd(p, STDERR_FILENO, what, total);
	progress_step(p, 0, NULL);
}

void progress_step_part(struct progress *p, unsigned done, double part, const char *label)
{
	char line[PROGRESS_LINE_MAX + 8];
	double frac;

	if (!p->on)
		return;
	if (!(part >= 0))
		part = 0;
	if (part > 1)
		part = 1;
	frac = p->total ? (done + part) / p->total : 0;
	/* Written by stdio elsewhere: the line must not end up in the middle of it. */
	fflush(stderr);
	memcpy(line, "\r\033[K", 4);
	progress_compose(line + 4, sizeof(line) - 4, p->what, done, p->total, label,
			 progress_eta(progress_elapsed(p), frac), progress_width(p->fd));
	progress_write(p, line);
	p->drawn = true;
}

void progress_step(struct progress *p, unsigned done, const char *label)
{
	progress_step_part(p, done, 0, label);
}

void progress_clear(struct progress *p)
{
	if (!p->on || !p->drawn)
		return;
	progress_write(p, "\r\033[K");
	p->drawn = false;
}

void progress_done(struct progress *p)
{
	progress_clear(p);
	p->on = false;
}
