// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict_tally.c - the verdicts of a set of compare documents counted
 * (results/verdict_tally.h): read with compare_doc_read, the figures each
 * probe carries besides (diff_pct, its interval, min_detectable_pct) from
 * the same parsed document; medians with stats_median.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results/compare_doc.h"
#include "results/verdict_tally.h"
#include "stats/stats.h"

/* Values of one count's probes, for its medians. */
struct tally_values {
	double *mdc, *diff, *half;
	size_t n_mdc, n_diff, n_half;
};

/* A number field of o, NAN when absent or null. */
static double tally_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Probe o's verdict and figures added to c and v (v's arrays hold one more value each). */
static void tally_add(struct verdict_count *c, struct tally_values *v, const char *verdict, json_t *o)
{
	double mdc = tally_num(o, "min_detectable_pct"), diff = tally_num(o, "diff_pct");
	double lo = tally_num(o, "ci95_pct_lo"), hi = tally_num(o, "ci95_pct_hi");

	c->n++;
	if (!strcmp(verdict, "faster"))
		c->faster++;
	else if (!strcmp(verdict, "slower"))
		c->slower++;
	else if (!strcmp(verdict, "too noisy"))
		c->noisy++;
	else if (!strcmp(verdict, "no significant change"))
		c->same++;
	else
		c->unjudged++;
	v->mdc[v->n_mdc++] = isfinite(mdc) ? mdc : VERDICT_TALLY_NO_MDC;
	if (isfinite(diff))
		v->diff[v->n_diff++] = diff;
	if (isfinite(lo) && isfinite(hi))
		v->half[v->n_half++] = (hi - lo) / 2;
}

static double tally_median(const double *x, size_t n)
{
	return n ? stats_median(x, n) : NAN;
}

static void tally_medians(struct verdict_count *c, const struct tally_values *v)
{
	c->mdc = tally_median(v->mdc, v->n_mdc);
	c->diff = tally_median(v->diff, v->n_diff);
	c->half = tally_median(v->half, v->n_half);
}

static int tally_values_alloc(struct tally_values *v, size_t n)
{
	v->mdc = calloc(n ? n : 1, sizeof(double));
	v->diff = calloc(n ? n : 1, sizeof(double));
	v->half = calloc(n ? n : 1, sizeof(double));
	v->n_mdc = v->n_diff = v->n_half = 0;
	return v->mdc && v->diff && v->half ? 0 : -ENOMEM;
}

static void tally_values_free(struct tally_values *v)
{
	free(v->mdc);
	free(v->diff);
	free(v->half);
}

/* Whether the document warned that the harness baseline moved. */
static int tally_warned(json_t *root)
{
	json_t *w = json_object_get(root, "warnings"), *s;
	size_t i;

	json_array_foreach(w, i, s)
		if (json_is_string(s) &&
		    !strncmp(json_string_value(s), "WARNING: the harness baseline", 29))
			return 1;
	return 0;
}

/* The probes of all documents, counted per probe name. */
static int tally_probes(struct compare_doc **d, size_t k, size_t total, struct verdict_tally *t)
{
	struct tally_values v = { 0 };
	int rc = -ENOMEM;

	t->probes = calloc(total ? total : 1, sizeof(*t->probes));
	if (!t->probes || tally_values_alloc(&v, k))
		goto out;
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < d[i]->n_probes; j++) {
			const char *name = d[i]->probes[j].name;
			size_t p = 0;

			if (!strcmp(d[i]->probes[j].verdict, "not compared"))
				continue;
			while (p < t->n_probes && strcmp(t->probes[p].name, name))
				p++;
			if (p < t->n_probes)
				continue;
			t->probes[p].name = strdup(name);
			if (!t->probes[p].name)
				goto out;
			t->n_probes++;
			v.n_mdc = v.n_diff = v.n_half = 0;
			for (size_t a = i; a < k; a++)
				for (size_t b = 0; b < d[a]->n_probes; b++) {
					const struct compare_doc_probe *q = &d[a]->probes[b];
					json_t *all = json_object_get(d[a]->doc, "probes");
					json_t *o = json_array_get(all, b);

					if (strcmp(q->name, name) ||
					    !strcmp(q->verdict, "not compared"))
						continue;
					tally_add(&t->probes[p].c, &v, q->verdict, o);
					break;	/* a probe once per document */
				}
			tally_medians(&t->probes[p].c, &v);
		}
	rc = 0;
out:
	tally_values_free(&v);
	return rc;
}

int verdict_tally(const char *const *paths, size_t k, struct verdict_tally *t, struct err *err)
{
	struct compare_doc **d = calloc(k ? k : 1, sizeof(*d));
	struct tally_values all = { 0 }, one = { 0 };
	size_t total = 0;
	int rc = -ENOMEM;

	memset(t, 0, sizeof(*t));
	t->files = calloc(k ? k : 1, sizeof(*t->files));
	if (!d || !t->files)
		goto out;
	for (size_t i = 0; i < k; i++) {
		d[i] = compare_doc_read(paths[i], err);
		if (!d[i]) {
			rc = -1;
			goto done;
		}
		total += d[i]->n_probes;
	}
	if (tally_values_alloc(&all, total))
		goto out;
	t->n_files = k;
	for (size_t i = 0; i < k; i++) {
		struct verdict_tally_file *f = &t->files[i];
		json_t *probes = json_object_get(d[i]->doc, "probes");

		tally_values_free(&one);
		if (tally_values_alloc(&one, d[i]->n_probes))
			goto out;
		for (size_t j = 0; j < d[i]->n_probes; j++) {
			const struct compare_doc_probe *q = &d[i]->probes[j];

			if (!strcmp(q->verdict, "not compared"))
				continue;
			tally_add(&t->all, &all, q->verdict, json_array_get(probes, j));
			tally_add(&f->c, &one, q->verdict, json_array_get(probes, j));
		}
		tally_medians(&f->c, &one);
		f->warned = tally_warned(d[i]->doc);
		t->moved += f->c.faster + f->c.slower > 0;
		t->warned += f->warned;
	}
	tally_medians(&t->all, &all);
	rc = tally_probes(d, k, total, t);
out:
	if (rc == -ENOMEM)
		err_set(err, -ENOMEM, "out of memory");
done:
	tally_values_free(&all);
	tally_values_free(&one);
	for (size_t i = 0; d && i < k; i++)
		compare_doc_free(d[i]);
	free(d);
	if (rc)
		verdict_tally_release(t);
	return rc ? -1 : 0;
}

void verdict_tally_release(struct verdict_tally *t)
{
	for (size_t i = 0; i < t->n_probes; i++)
		free(t->probes[i].name);
	free(t->probes);
	free(t->files);
	t->probes = NULL;
	t->files = NULL;
	t->n_probes = t->n_files = 0;
}
