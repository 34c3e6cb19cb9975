// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit_path.c - a probe's exit-path profile (results/exit_path.h): its JSON
 * writer and reader side by side. The counts are written as exact integers
 * with their per-op figures beside them; the reader takes the integers and
 * checks the per-op figures against them, so the two cannot disagree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/exit_path.h"

static void set_count(json_t *o, const char *key, const char *key_per_op,
		      const struct exit_path *e, long long n)
{
	json_object_set_new(o, key, json_integer(n));
	json_object_set_new(o, key_per_op, json_real(exit_path_per_op(e, n)));
}

/* A census as an array of {"insn", "operand", "count", "per_op"} (NULL when out of memory). */
static json_t *census_json(const struct exit_path *e, const struct exit_path_census *c, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		json_t *r = json_object();

		if (!r || json_array_append_new(a, r)) {
			json_decref(a);
			return NULL;
		}
		json_object_set_new(r, "insn", json_string(c[i].insn));
		json_object_set_new(r, "operand", c[i].operand ? json_string(c[i].operand) : json_null());
		set_count(r, "count", "per_op", e, c[i].count);
	}
	return a;
}

json_t *exit_path_json(const struct exit_path *e)
{
	json_t *o = json_object(), *fns = json_array(), *exits = json_array();

	if (!o || !fns || !exits) {
		json_decref(o);
		json_decref(fns);
		json_decref(exits);
		return NULL;
	}
	json_object_set_new(o, "ops", json_integer(e->ops));
	json_object_set_new(o, "interrupted_pairs", json_integer(e->interrupted_pairs));
	json_object_set_new(o, "interrupts", json_string(e->interrupts_included ? "included" : "excluded"));
	set_count(o, "kernel_insn", "kernel_insn_per_op", e, e->kernel_insn);
	set_count(o, "guest_insn", "guest_insn_per_op", e, e->guest_insn);
	set_count(o, "user_insn", "user_insn_per_op", e, e->user_insn);
	for (size_t i = 0; i < e->n_fns; i++) {
		json_t *f = json_object();

		json_object_set_new(f, "name", json_string(e->fns[i].name));
		set_count(f, "insn", "insn_per_op", e, e->fns[i].insn);
		set_count(f, "calls", "calls_per_op", e, e->fns[i].calls);
		if (e->has_census && e->fns[i].n_census &&
		    json_object_set_new(f, "census", census_json(e, e->fns[i].census, e->fns[i].n_census))) {
			json_decref(f);
			json_decref(fns);
			json_decref(exits);
			json_decref(o);
			return NULL;
		}
		json_array_append_new(fns, f);
	}
	json_object_set_new(o, "functions", fns);
	for (size_t i = 0; i < e->n_exits; i++) {
		json_t *x = json_object();

		json_object_set_new(x, "reason", json_string(e->exits[i].reason));
		set_count(x, "exits", "exits_per_op", e, e->exits[i].exits);
		json_array_append_new(exits, x);
	}
	json_object_set_new(o, "exits", exits);
	if (e->has_census && json_object_set_new(o, "census", census_json(e, e->census, e->n_census))) {
		json_decref(o);
		return NULL;
	}
	if (e->symbols)
		json_object_set_new(o, "symbols", json_string(e->symbols));
	return o;
}

/* An integer count and its per-op figure, which must be count / ops. */
static int read_count(struct jcheck *c, json_t *o, const char *key, const char *key_per_op,
		      const struct exit_path *e, long long *n)
{
	double per_op, want;
	size_t mark;

	JCHECK_TRY(jcheck_int(c, o, key, JCHECK_REQUIRED, -EXIT_PATH_COUNT_MAX, EXIT_PATH_COUNT_MAX, n));
	JCHECK_TRY(jcheck_real(c, o, key_per_op, JCHECK_REQUIRED, &per_op));
	want = exit_path_per_op(e, *n);
	if (fabs(per_op - want) > 1e-9 * fmax(1, fabs(want))) {
		int rc;

		mark = jcheck_push_key(c, key_per_op);
		rc = jcheck_fail(c, "%g is not %s / ops (%g)", per_op, key, want);
		jcheck_pop(c, mark);
		return rc;
	}
	return 0;
}

/*
 * The optional "census" member of obj into *out (*n rows, allocated): 0, 1
 * when absent (*out NULL), or -EINVAL with the jcheck error set (nothing
 * left allocated). Rows are {"insn", "operand" (a name or null), "count",
 * "per_op"}, each (insn, operand) once.
 */
static int read_census(struct jcheck *c, json_t *obj, const struct exit_path *e,
		       struct exit_path_census **out, size_t *n)
{
	json_t *a, *row;
	size_t mark, i;
	int r;

	*out = NULL;
	*n = 0;
	r = jcheck_array(c, obj, "census", JCHECK_OPTIONAL, EXIT_PATH_MAX_CENSUS, &a);
	if (r)
		return r;
	*out = jcheck_calloc(json_array_size(a), sizeof(**out));
	if (!*out)
		return jcheck_fail(c, "out of memory");
	mark = jcheck_push_key(c, "census");
	json_array_foreach(a, i, row) {
		struct exit_path_census *x = &(*out)[i];
		json_t *op = json_is_object(row) ? json_object_get(row, "operand") : NULL;
		size_t m = jcheck_push_index(c, i);

		if (!json_is_object(row)) {
			jcheck_fail(c, "not an object");
			goto fail;
		}
		if (jcheck_string(c, row, "insn", JCHECK_REQUIRED, 0, &x->insn) < 0)
			goto fail;
		if (!op) {
			jcheck_fail(c, "no \"operand\" (a name, or null for none)");
			goto fail;
		}
		if (!json_is_null(op) && jcheck_string(c, row, "operand", JCHECK_REQUIRED, 0, &x->operand) < 0)
			goto fail;
		if (read_count(c, row, "count", "per_op", e, &x->count) < 0)
			goto fail;
		if (!x->count) {
			jcheck_push_key(c, "count");
			jcheck_fail(c, "0: a census lists no row of count 0");
			goto fail;
		}
		for (size_t j = 0; j < i; j++)
			if (!exit_path_census_cmp(&(*out)[j], x)) {
				jcheck_fail(c, "%s %s listed twice", x->insn, x->operand ? x->operand : "(no operand)");
				goto fail;
			}
		jcheck_pop(c, m);
		(*n)++;
	}
	jcheck_pop(c, mark);
	return 0;
fail:
	free(*out);
	*out = NULL;
	*n = 0;
	return -EINVAL;
}

/* The functions' rows for x's (insn, operand) summed into *sum: 0, or -ERANGE. */
static int fns_sum(const struct exit_path *e, const struct exit_path_census *x, long long *sum)
{
	*sum = 0;
	for (size_t f = 0; f < e->n_fns; f++)
		for (size_t k = 0; k < e->fns[f].n_census; k++)
			if (!exit_path_census_cmp(&e->fns[f].census[k], x) &&
			    (__builtin_add_overflow(*sum, e->fns[f].census[k].count, sum) ||
			     *sum > EXIT_PATH_COUNT_MAX || *sum < -EXIT_PATH_COUNT_MAX))
				return -ERANGE;
	return 0;
}

/* The path's row for x's (insn, operand), or NULL. */
static const struct exit_path_census *path_row(const struct exit_path *e, const struct exit_path_census *x)
{
	for (size_t i = 0; i < e->n_census; i++)
		if (!exit_path_census_cmp(&e->census[i], x))
			return &e->census[i];
	return NULL;
}

/*
 * The path's census is the functions' summed: each (insn, operand) of
 * either has on the path the sum of the functions' rows for it (absent
 * when that is 0); the sums are checked, never wrapped.
 */
static int check_census_sum(struct jcheck *c, const struct exit_path *e)
{
	for (size_t f = 0; f <= e->n_fns; f++) {
		const struct exit_path_census *rows = f < e->n_fns ? e->fns[f].census : e->census;
		size_t n = f < e->n_fns ? e->fns[f].n_census : e->n_census;

		for (size_t k = 0; k < n; k++) {
			const struct exit_path_census *x = &rows[k], *p = path_row(e, x);
			const char *op = x->operand ? x->operand : "(no operand)";
			long long sum;

			if (fns_sum(e, x, &sum))
				return jcheck_fail(c, "census: the functions' %s %s sum beyond %lld",
						   x->insn, op, EXIT_PATH_COUNT_MAX);
			if (sum != (p ? p->count : 0))
				return jcheck_fail(c, "census: %s %s is %lld on the path, but the functions' rows sum to %lld",
						   x->insn, op, p ? p->count : 0, sum);
		}
	}
	return 0;
}

int exit_path_read(struct jcheck *c, json_t *obj, struct exit_path *e)
{
	static const char *const irq_names[] = { "excluded", "included" };
	json_t *o, *fns, *exits;
	size_t mark, arr, i;
	int r;

	memset(e, 0, sizeof(*e));
	r = jcheck_object(c, obj, "exit_path", JCHECK_OPTIONAL, &o);
	if (r)
		return r < 0 ? -1 : 0;
	mark = jcheck_push_key(c, "exit_path");
	if (jcheck_int(c, o, "ops", JCHECK_REQUIRED, 1, 1LL << 62, &e->ops) < 0 ||
	    jcheck_int(c, o, "interrupted_pairs", JCHECK_REQUIRED, 0, 1LL << 62, &e->interrupted_pairs) < 0 ||
	    jcheck_enum(c, o, "interrupts", JCHECK_REQUIRED, irq_names, 2, &e->interrupts_included) < 0 ||
	    read_count(c, o, "kernel_insn", "kernel_insn_per_op", e, &e->kernel_insn) < 0 ||
	    read_count(c, o, "guest_insn", "guest_insn_per_op", e, &e->guest_insn) < 0 ||
	    read_count(c, o, "user_insn", "user_insn_per_op", e, &e->user_insn) < 0 ||
	    jcheck_string(c, o, "symbols", JCHECK_OPTIONAL, 0, &e->symbols) < 0 ||
	    jcheck_array(c, o, "functions", JCHECK_REQUIRED, EXIT_PATH_MAX_FUNCTIONS, &fns) < 0 ||
	    jcheck_array(c, o, "exits", JCHECK_REQUIRED, EXIT_PATH_MAX_EXITS, &exits) < 0)
		goto fail;
	e->fns = jcheck_calloc(json_array_size(fns), sizeof(*e->fns));
	e->exits = jcheck_calloc(json_array_size(exits), sizeof(*e->exits));
	if (!e->fns || !e->exits) {
		jcheck_fail(c, "out of memory");
		goto fail;
	}
	arr = jcheck_push_key(c, "functions");
	json_array_foreach(fns, i, obj) {
		struct exit_path_fn *f = &e->fns[i];
		size_t m = jcheck_push_index(c, i);

		if (!json_is_object(obj)) {
			jcheck_fail(c, "not an object");
			goto fail;
		}
		if (jcheck_string(c, obj, "name", JCHECK_REQUIRED, 0, &f->name) < 0 ||
		    read_count(c, obj, "insn", "insn_per_op", e, &f->insn) < 0 ||
		    read_count(c, obj, "calls", "calls_per_op", e, &f->calls) < 0 ||
		    read_census(c, obj, e, &f->census, &f->n_census) < 0)
			goto fail;
		e->n_fns++;	/* from here exit_path_free frees its census */
		for (size_t j = 0; j < i; j++)
			if (!strcmp(e->fns[j].name, f->name)) {
				jcheck_fail(c, "function \"%s\" listed twice", f->name);
				goto fail;
			}
		jcheck_pop(c, m);
	}
	jcheck_pop(c, arr);
	arr = jcheck_push_key(c, "exits");
	json_array_foreach(exits, i, obj) {
		struct exit_path_exit *x = &e->exits[i];
		size_t m = jcheck_push_index(c, i);

		if (!json_is_object(obj)) {
			jcheck_fail(c, "not an object");
			goto fail;
		}
		if (jcheck_string(c, obj, "reason", JCHECK_REQUIRED, 0, &x->reason) < 0 ||
		    read_count(c, obj, "exits", "exits_per_op", e, &x->exits) < 0)
			goto fail;
		jcheck_pop(c, m);
		e->n_exits++;
	}
	jcheck_pop(c, arr);
	r = read_census(c, o, e, &e->census, &e->n_census);
	if (r < 0)
		goto fail;
	e->has_census = r == 0;
	for (i = 0; !e->has_census && i < e->n_fns; i++)
		if (e->fns[i].census) {
			jcheck_push_key(c, "functions");
			jcheck_push_index(c, i);
			jcheck_fail(c, "a census, but the exit path has none");
			goto fail;
		}
	if (e->has_census && check_census_sum(c, e) < 0)
		goto fail;
	jcheck_pop(c, mark);
	e->present = 1;
	return 0;
fail:	/* every way here has filled c's message */
	exit_path_free(e);
	return -EINVAL;
}

void exit_path_free(struct exit_path *e)
{
	for (size_t i = 0; e->fns && i < e->n_fns; i++)
		free(e->fns[i].census);
	free(e->fns);
	free(e->census);
	free(e->name_buf);
	free(e->exits);
	free(e->reason_buf);
	memset(e, 0, sizeof(*e));
}

static int fn_cmp(const void *a, const void *b)
{
	const struct exit_path_fn *x = a, *y = b;

	if (x->insn != y->insn)
		return x->insn > y->insn ? -1 : 1;
	return strcmp(x->name, y->name);
}

void exit_path_sort(struct exit_path *e)
{
	if (e->n_fns)
		qsort(e->fns, e->n_fns, sizeof(*e->fns), fn_cmp);
}

const struct exit_path_fn *exit_path_find(const struct exit_path *e, const char *name)
{
	for (size_t i = 0; e && i < e->n_fns; i++)
		if (!strcmp(e->fns[i].name, name))
			return &e->fns[i];
	return NULL;
}

int exit_path_census_cmp(const struct exit_path_census *a, const struct exit_path_census *b)
{
	int d = strcmp(a->insn, b->insn);

	if (d || a->operand == b->operand)
		return d;
	if (!a->operand || !b->operand)
		return a->operand ? 1 : -1;
	return strcmp(a->operand, b->operand);
}

static int census_qcmp(const void *a, const void *b)
{
	return exit_path_census_cmp(a, b);
}

void exit_path_census_sort(struct exit_path_census *c, size_t n)
{
	if (n)
		qsort(c, n, sizeof(*c), census_qcmp);
}
