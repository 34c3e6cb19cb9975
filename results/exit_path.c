// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit_path.c - a probe's exit-path profile (results/exit_path.h): its JSON
 * writer and reader side by side. The counts are written as exact integers
 * with their per-op figures beside them; the reader takes the integers and
 * checks the per-op figures against them, so the two cannot disagree.
 */
#include <stdlib.h>
#include <string.h>

#include "results/exit_path.h"
#include "results/field.h"

/* Census rows (at key of c's path): count never 0, each (insn, operand) once. */
static int census_rows_check(struct jcheck *c, const char *key, const struct exit_path_census *x,
			     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t mark = jcheck_push_key(c, key);

		jcheck_push_index(c, i);
		if (!x[i].count) {
			jcheck_push_key(c, "count");
			return jcheck_fail(c, "0: a census lists no row of count 0");
		}
		for (size_t j = 0; j < i; j++)
			if (!exit_path_census_cmp(&x[j], &x[i]))
				return jcheck_fail(c, "%s %s listed twice", x[i].insn,
						   x[i].operand ? x[i].operand : "(no operand)");
		jcheck_pop(c, mark);
	}
	return 0;
}

static int fn_check(struct jcheck *c, const void *p)
{
	const struct exit_path_fn *f = p;

	return census_rows_check(c, "census", f->census, f->n_census);
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
				return jcheck_fail(c, "census: the functions' %s %s "
						   "sum beyond %lld", x->insn, op,
						   EXIT_PATH_COUNT_MAX);
			if (sum != (p ? p->count : 0))
				return jcheck_fail(c, "census: %s %s is %lld on the path, "
						   "but the functions' rows sum to %lld",
						   x->insn, op, p ? p->count : 0, sum);
		}
	}
	return 0;
}

/*
 * Function names unique; the path's census rows as a function's; a
 * function's census only with the path's, which is their sum.
 */
static int path_check(struct jcheck *c, const void *p)
{
	const struct exit_path *e = p;

	for (size_t i = 0; i < e->n_fns; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(e->fns[j].name, e->fns[i].name)) {
				jcheck_push_key(c, "functions");
				jcheck_push_index(c, i);
				return jcheck_fail(c, "function \"%s\" listed twice",
						   e->fns[i].name);
			}
	JCHECK_TRY(census_rows_check(c, "census", e->census, e->n_census));
	for (size_t i = 0; !e->has_census && i < e->n_fns; i++)
		if (e->fns[i].census) {
			jcheck_push_key(c, "functions");
			jcheck_push_index(c, i);
			return jcheck_fail(c, "a census, but the exit path has none");
		}
	return e->has_census ? check_census_sum(c, e) : 0;
}

#define EP struct exit_path
#define COUNT(st, m, k, k2)									\
	FIELD_PER_OP(st, m, k, k2, -EXIT_PATH_COUNT_MAX, EXIT_PATH_COUNT_MAX, EP, ops)
#define C struct exit_path_census
static const struct field census_field[] = {
	FIELD_CSTR(C, insn, "insn", FIELD_REQUIRED | FIELD_OMIT_NULL),
	FIELD_CSTR(C, operand, "operand", FIELD_REQUIRED | FIELD_NULL),
	COUNT(C, count, "count", "per_op"),
};
#undef C
const struct field_desc exit_path_census_fields = FIELD_DESC("exit_path_census_row", census_field);

#define F struct exit_path_fn
static const struct field fn_field[] = {
	FIELD_CSTR(F, name, "name", FIELD_REQUIRED | FIELD_OMIT_NULL),
	COUNT(F, insn, "insn", "insn_per_op"),
	COUNT(F, calls, "calls", "calls_per_op"),
	FIELD_ARRAY(F, census, n_census, "census", FIELD_OMIT_ZERO | FIELD_BARE,
		    &exit_path_census_fields, struct exit_path_census, EXIT_PATH_MAX_CENSUS, NULL),
};
#undef F
const struct field_desc exit_path_fn_fields = FIELD_DESC_CHECK("exit_path_fn", fn_field, fn_check);

#define X struct exit_path_exit
static const struct field exit_field[] = {
	FIELD_CSTR(X, reason, "reason", FIELD_REQUIRED | FIELD_OMIT_NULL),
	COUNT(X, exits, "exits", "exits_per_op"),
};
#undef X
const struct field_desc exit_path_exit_fields = FIELD_DESC("exit_path_exit", exit_field);

static const char *const irq_names[] = { "excluded", "included" };
static const struct field exit_path_field[] = {
	FIELD_INT(EP, ops, "ops", FIELD_REQUIRED, 1, EXIT_PATH_COUNT_MAX),
	FIELD_INT(EP, interrupted_pairs, "interrupted_pairs", FIELD_REQUIRED, 0,
		  EXIT_PATH_COUNT_MAX),
	FIELD_ENUM(EP, interrupts_included, "interrupts", FIELD_REQUIRED, irq_names, 2),
	COUNT(EP, kernel_insn, "kernel_insn", "kernel_insn_per_op"),
	COUNT(EP, guest_insn, "guest_insn", "guest_insn_per_op"),
	COUNT(EP, user_insn, "user_insn", "user_insn_per_op"),
	FIELD_ARRAY(EP, fns, n_fns, "functions", FIELD_REQUIRED | FIELD_BARE, &exit_path_fn_fields,
		    struct exit_path_fn, EXIT_PATH_MAX_FUNCTIONS, NULL),
	FIELD_ARRAY(EP, exits, n_exits, "exits", FIELD_REQUIRED | FIELD_BARE,
		    &exit_path_exit_fields, struct exit_path_exit, EXIT_PATH_MAX_EXITS, NULL),
	FIELD_ARRAY_P(EP, census, n_census, has_census, "census", FIELD_BARE,
		      &exit_path_census_fields, struct exit_path_census, EXIT_PATH_MAX_CENSUS),
	FIELD_CSTR(EP, symbols, "symbols", FIELD_OMIT_NULL),
};
#undef COUNT
#undef EP
const struct field_desc exit_path_fields = FIELD_DESC_CHECK("exit_path", exit_path_field,
							    path_check);

json_t *exit_path_json(const struct exit_path *e)
{
	return fields_write(&exit_path_fields, e);
}

int exit_path_read(struct jcheck *c, json_t *obj, struct exit_path *e)
{
	static const struct field top[] = {
		{ "exit_path", FIELD_T_OBJECT, 0, FIELD_PRESENT,
		  .off_present = offsetof(struct exit_path, present), .sub = &exit_path_fields },
	};
	static const struct field_desc top_desc = FIELD_DESC("root", top);

	memset(e, 0, sizeof(*e));
	if (fields_read(c, obj, &top_desc, e) >= 0)
		return 0;
	exit_path_free(e);	/* c has the message */
	return -EINVAL;
}

void exit_path_free(struct exit_path *e)
{
	fields_free(&exit_path_fields, e);
	free(e->name_buf);
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
