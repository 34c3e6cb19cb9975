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

	JCHECK_TRY(jcheck_int(c, o, key, JCHECK_REQUIRED, -(1LL << 62), 1LL << 62, n));
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

int exit_path_read(struct jcheck *c, json_t *obj, struct exit_path *e)
{
	static const char *const irq_names[] = { "excluded", "included" };
	json_t *o, *fns, *exits;
	size_t mark, i;
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
	json_array_foreach(fns, i, obj) {
		struct exit_path_fn *f = &e->fns[i];
		size_t m = jcheck_push_index(c, i);

		if (!json_is_object(obj)) {
			jcheck_fail(c, "not an object");
			goto fail;
		}
		if (jcheck_string(c, obj, "name", JCHECK_REQUIRED, 0, &f->name) < 0 ||
		    read_count(c, obj, "insn", "insn_per_op", e, &f->insn) < 0 ||
		    read_count(c, obj, "calls", "calls_per_op", e, &f->calls) < 0)
			goto fail;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(e->fns[j].name, f->name)) {
				jcheck_fail(c, "function \"%s\" listed twice", f->name);
				goto fail;
			}
		jcheck_pop(c, m);
		e->n_fns++;
	}
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
	jcheck_pop(c, mark);
	e->present = 1;
	return 0;
fail:	/* every way here has filled c's message */
	exit_path_free(e);
	return -EINVAL;
}

void exit_path_free(struct exit_path *e)
{
	free(e->fns);
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
