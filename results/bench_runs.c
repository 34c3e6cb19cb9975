// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_runs.c - a bench-method directory's runs table
 * (results/bench_runs.h): runs.tsv and stops.tsv split into lines and
 * tab-separated fields, medians with stats_median.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/bench_runs.h"
#include "results/file_read.h"
#include "stats/stats.h"

#define BENCH_MAX_FILE_BYTES	(16u << 20)
#define BENCH_RUN_FIGURES	7	/* wall, cpu, load, busy, nice, idle, steal */
#define BENCH_MAX_FIELDS	16

/* One run of runs.tsv or probe-run of stops.tsv. */
struct bench_line {
	size_t row;			/* index into rows; (size_t)-1: a variant runs.tsv lacks */
	size_t stop;			/* stops.tsv: index into stop_names */
	double x[BENCH_RUN_FIGURES];	/* runs.tsv: its figures; stops.tsv: x[0] rounds */
};

/* Split line (changed in place) at tabs into f[], at most max; the count. */
static size_t bench_split(char *line, char **f, size_t max)
{
	size_t n = 0;

	for (char *s = line; n < max; s++) {
		f[n++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s = '\0';
	}
	return n;
}

static int bench_number(const char *s, double *x)
{
	char *end;

	if (!*s)
		return -EINVAL;
	*x = strtod(s, &end);
	return *end ? -EINVAL : 0;
}

/* The index of name in names[0..*n-1], added at the end when missing; (size_t)-1 out of memory. */
static size_t bench_intern(char ***names, size_t *n, const char *name)
{
	char **grown, *copy;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return i;
	grown = realloc(*names, (*n + 1) * sizeof(*grown));
	if (!grown)
		return (size_t)-1;
	*names = grown;
	copy = strdup(name);
	if (!copy)
		return (size_t)-1;
	grown[*n] = copy;
	return (*n)++;
}

/* The lines of dir/name (skip of them first) into *lines; 0 or -errno with err set. */
static int bench_lines(const char *dir, const char *name, size_t skip, struct bench_runs *b,
		       char ***variants, size_t *nv, struct bench_line **lines, size_t *nl,
		       struct err *err)
{
	static const int cols[BENCH_RUN_FIGURES] = { 8, 9, 10, 11, 12, 13, 14 };
	bool runs = !strcmp(name, "runs.tsv");
	char path[4096], *buf, *line, *next, *f[BENCH_MAX_FIELDS];
	size_t len, at = 0;
	int rc;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return err_set(err, -ENAMETOOLONG, "%s/%s: path too long", dir, name);
	rc = file_read_all(path, BENCH_MAX_FILE_BYTES, &buf, &len, err);
	if (rc)
		return err_prefix(err, "%s", path);
	for (line = buf; line && *line; line = next) {
		struct bench_line *l, *grown;
		size_t n, v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (++at <= skip)
			continue;
		n = bench_split(line, f, BENCH_MAX_FIELDS);
		if (n < (runs ? 14u : 3u)) {
			rc = err_set(err, -EINVAL, "%s:%zu: %zu columns, want %d", path, at, n,
				     runs ? 14 : 3);
			break;
		}
		grown = realloc(*lines, (*nl + 1) * sizeof(*grown));
		if (!grown) {
			rc = err_set(err, -ENOMEM, "out of memory");
			break;
		}
		*lines = grown;
		l = &grown[*nl];
		memset(l, 0, sizeof(*l));
		l->row = (size_t)-1;
		for (v = 0; v < *nv; v++)
			if (!strcmp((*variants)[v], f[0]))
				l->row = v;
		if (runs && l->row == (size_t)-1 &&
		    (l->row = bench_intern(variants, nv, f[0])) == (size_t)-1) {
			rc = err_set(err, -ENOMEM, "out of memory");
			break;
		}
		for (int c = 0; c < (runs ? BENCH_RUN_FIGURES : 1); c++) {
			int col = runs ? cols[c] : 2;

			if (bench_number(f[col - 1], &l->x[c])) {
				rc = err_set(err, -EINVAL,
					     "%s:%zu: column %d is not a number: '%s'", path, at,
					     col, f[col - 1]);
				goto out;
			}
		}
		if (!runs && (l->stop = bench_intern(&b->stop_names, &b->n_stops, f[2])) ==
			     (size_t)-1) {
			rc = err_set(err, -ENOMEM, "out of memory");
			break;
		}
		(*nl)++;
	}
out:
	free(buf);
	return rc;
}

/* Fill row i from the runs and probe-runs; x: scratch of nr + ns values. */
static void bench_row(struct bench_runs_row *r, size_t i, const struct bench_line *runs, size_t nr,
		      const struct bench_line *stops, size_t ns, double *x)
{
	double med[BENCH_RUN_FIGURES];

	for (int c = 0; c < BENCH_RUN_FIGURES; c++) {
		size_t k = 0;

		for (size_t j = 0; j < nr; j++)
			if (runs[j].row == i)
				x[k++] = runs[j].x[c];
		med[c] = stats_median(x, k);
		if (c == 0 || c == 2) {
			double lo = x[0], hi = x[0];

			for (size_t j = 1; j < k; j++) {
				lo = x[j] < lo ? x[j] : lo;
				hi = x[j] > hi ? x[j] : hi;
			}
			if (c == 0) {
				r->wall_max = hi;
			} else {
				r->load_lo = lo;
				r->load_hi = hi;
			}
		}
		r->runs = k;
	}
	r->wall = med[0];
	r->cpu = med[1];
	r->busy = med[3];
	r->nice = med[4];
	r->idle = med[5];
	r->steal = med[6];
	for (size_t j = 0; j < ns; j++)
		if (stops[j].row == i) {
			x[r->probe_runs++] = stops[j].x[0];
			r->stops[stops[j].stop]++;
			if (stops[j].x[0] > r->rounds_max)
				r->rounds_max = stops[j].x[0];
		}
	for (size_t j = 0; j < r->probe_runs; j++)
		r->full += x[j] == r->rounds_max;
	r->rounds = r->probe_runs ? stats_median(x, r->probe_runs) : 0;
}

int bench_runs_read(const char *dir, struct bench_runs *b, struct err *err)
{
	struct bench_line *runs = NULL, *stops = NULL;
	size_t nr = 0, ns = 0, nv = 0;
	char **variants = NULL;
	double *x = NULL;
	int rc;

	memset(b, 0, sizeof(*b));
	rc = bench_lines(dir, "runs.tsv", 1, b, &variants, &nv, &runs, &nr, err);
	if (!rc && !nr)
		rc = err_set(err, -EINVAL, "%s/runs.tsv: no runs", dir);
	if (!rc)
		rc = bench_lines(dir, "stops.tsv", 0, b, &variants, &nv, &stops, &ns, err);
	if (!rc) {
		b->rows = calloc(nv, sizeof(*b->rows));
		x = calloc(nr + ns, sizeof(*x));
		if (!b->rows || !x)
			rc = err_set(err, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; !rc && i < nv; i++) {
		b->rows[i].variant = variants[i];
		variants[i] = NULL;
		b->n = i + 1;
		b->rows[i].stops = calloc(b->n_stops + 1, sizeof(size_t));
		if (!b->rows[i].stops)
			rc = err_set(err, -ENOMEM, "out of memory");
		else
			bench_row(&b->rows[i], i, runs, nr, stops, ns, x);
	}
	for (size_t i = 0; i < nv; i++)
		free(variants[i]);
	free(variants);
	free(runs);
	free(stops);
	free(x);
	if (rc)
		bench_runs_release(b);
	return rc;
}

void bench_runs_release(struct bench_runs *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->rows[i].variant);
		free(b->rows[i].stops);
	}
	free(b->rows);
	for (size_t i = 0; i < b->n_stops; i++)
		free(b->stop_names[i]);
	free(b->stop_names);
	memset(b, 0, sizeof(*b));
}
