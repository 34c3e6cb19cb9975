// SPDX-License-Identifier: GPL-2.0-only
/*
 * attribute.c - turn a probe's counts into its exit path (profile/attribute.h).
 * Each side's instruction counts are summed per function (the symbol at or
 * below the address: code inlined into a function is that function's), and
 * the baseline side is subtracted from the op side: both ran the same
 * harness loop over the same operations, so what remains is the op's own.
 * Calls count by their target's function. Exits by the reason KVM names
 * likewise (VMX: the basic exit reason). The census (a version-2 counts
 * file's costly instructions) counts by function and (insn, operand) the
 * same way; the path's is the functions' summed.
 * Every list is sorted and merged, or looked up by binary search: n lines
 * cost O(n log n), none is matched against the others one by one.
 * Every sum is checked: a count beyond EXIT_PATH_COUNT_MAX is refused, and
 * so is a path larger than a result file holds (results/exit_path.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/attribute.h"
#include "profile/census_names.h"

static const char *entry_fn(enum profile_vendor v)
{
	return v == PROFILE_VMX ? "__vmx_vcpu_run" : "__svm_vcpu_run";
}

int profile_check_symbols(const struct prof_dump *d, const struct symtab *st,
			  enum profile_vendor v, struct err *err)
{
	const char *want = entry_fn(v);
	uint64_t seen = 0;

	if (!symtab_lookup(st, want))
		return err_set(err, -EINVAL, "the symbol table has no %s: not this lane's kernel",
			       want);
	for (size_t i = 0; i < d->n; i++) {
		const struct prof_side *sides[4] = { &d->probes[i].op, &d->probes[i].base,
						     &d->probes[i].op_irq, &d->probes[i].base_irq };

		for (int s = 0; s < 4; s++)
			for (size_t j = 0; j < sides[s]->entries.n; j++) {
				uint64_t a = sides[s]->entries.v[j].key;
				const struct sym *sym = symtab_find(st, a);

				if (!sym || strcmp(sym->name, want))
					return err_set(err, -EINVAL,
						 "the symbol table does not match the running "
						 "kernel: it entered the guest at %#llx, which the "
						 "table puts in %s, not %s", (unsigned long long)a,
						 sym ? sym->name : "no function", want);
				seen += sides[s]->entries.v[j].n;
			}
	}
	if (!seen)
		return err_set(err, -EINVAL, "no VM entry in the profile: the symbol table cannot "
					     "be checked against the running kernel");
	return 0;
}

struct fn_acc {
	const char *name;
	long long insn, calls;
	int census;		/* has census rows */
};

static int acc_cmp(const void *a, const void *b)
{
	const struct fn_acc *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Add sign x the list's counts, by function, to acc (n entries, room for cap). */
static int acc_add(struct fn_acc **acc, size_t *n, size_t *cap, const struct symtab *st,
		   const struct prof_list *l, int sign, int calls)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct sym *sym = symtab_find(st, l->v[i].key);

		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 256;
			struct fn_acc *a = realloc(*acc, c * sizeof(*a));

			if (!a)
				return -ENOMEM;
			*acc = a;
			*cap = c;
		}
		(*acc)[*n] = (struct fn_acc){ .name = sym ? sym->name : EXIT_PATH_UNKNOWN };
		if (calls)
			(*acc)[*n].calls = sign * (long long)l->v[i].n;
		else
			(*acc)[*n].insn = sign * (long long)l->v[i].n;
		(*n)++;
	}
	return 0;
}

/* One census line, by function: the side's count with its sign. */
struct cen_acc {
	const char *fn;
	const struct prof_census *c;	/* insn and operand: the line's */
	long long n;
	const char *insn, *operand;	/* the names, once merged */
};

static int cen_key_cmp(const struct cen_acc *x, const struct cen_acc *y)
{
	int d = strcmp(x->fn, y->fn);

	if (!d)
		d = strncmp(x->c->insn, y->c->insn, sizeof(x->c->insn));
	if (!d && x->c->has_operand != y->c->has_operand)
		d = x->c->has_operand ? 1 : -1;
	if (!d && x->c->has_operand && x->c->operand != y->c->operand)
		d = x->c->operand > y->c->operand ? 1 : -1;
	return d;
}

static int cen_qcmp(const void *a, const void *b)
{
	return cen_key_cmp(a, b);
}

/* a + b into *sum within +-EXIT_PATH_COUNT_MAX: 0, or -ERANGE. */
static int count_add(long long a, long long b, long long *sum)
{
	if (__builtin_add_overflow(a, b, sum) || *sum > EXIT_PATH_COUNT_MAX || *sum < -EXIT_PATH_COUNT_MAX)
		return -ERANGE;
	return 0;
}

/*
 * The census lines of p's op (+) and baseline (-) sides by function and
 * (insn, operand), merged, rows of 0 dropped, named (names in e->name_buf):
 * *out (*n rows, sorted by function), 0 or -ENOMEM / -ERANGE.
 */
static int census_by_fn(const struct prof_probe *p, const struct symtab *st, struct exit_path *e,
			struct cen_acc **out, size_t *n)
{
	const struct prof_side *sides[2] = { &p->op, &p->base };
	size_t total = p->op.census.n + p->base.census.n, k = 0, w = 0;
	struct cen_acc *acc = calloc(total ? total : 1, sizeof(*acc));

	*out = NULL;
	*n = 0;
	if (!acc)
		return -ENOMEM;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->census.n; i++) {
			const struct prof_census *c = &sides[s]->census.v[i];
			const struct sym *sym = symtab_find(st, c->rip);

			if (c->n > (uint64_t)EXIT_PATH_COUNT_MAX) {
				free(acc);
				return -ERANGE;
			}
			acc[k++] = (struct cen_acc){ .fn = sym ? sym->name : EXIT_PATH_UNKNOWN, .c = c,
						     .n = s ? -(long long)c->n : (long long)c->n };
		}
	if (k)
		qsort(acc, k, sizeof(*acc), cen_qcmp);
	for (size_t i = 0; i < k; i++) {
		if (w && !cen_key_cmp(&acc[w - 1], &acc[i])) {
			if (count_add(acc[w - 1].n, acc[i].n, &acc[w - 1].n)) {
				free(acc);
				return -ERANGE;
			}
		} else {
			acc[w++] = acc[i];
		}
	}
	k = w;
	w = 0;
	for (size_t i = 0; i < k; i++)
		if (acc[i].n)
			acc[w++] = acc[i];
	e->name_buf = calloc(2 * (w ? w : 1), sizeof(*e->name_buf));
	if (!e->name_buf) {
		free(acc);
		return -ENOMEM;
	}
	for (size_t i = 0; i < w; i++) {
		const struct prof_census *c = acc[i].c;
		char *ib = e->name_buf[2 * i], *ob = e->name_buf[2 * i + 1];

		snprintf(ib, EXIT_PATH_NAME_MAX, "%.*s", (int)strnlen(c->insn, sizeof(c->insn)),
			 c->insn);
		acc[i].insn = ib;
		acc[i].operand = census_operand_name(ib, c->has_operand, c->operand, ob, EXIT_PATH_NAME_MAX);
	}
	*out = acc;
	*n = w;
	return 0;
}

/* The first of cen's n rows (sorted by function) of function name, or n: a binary search. */
static size_t cen_first(const struct cen_acc *cen, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(cen[mid].fn, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Copy the census rows of function fn (cen sorted by function) into f, sorted. */
static int fn_census(const char *probe, struct exit_path_fn *f, const struct cen_acc *cen, size_t n,
		     struct err *err)
{
	size_t i = cen_first(cen, n, f->name), m = 0;

	while (i + m < n && !strcmp(cen[i + m].fn, f->name))
		m++;
	if (!m)
		return 0;
	if (m > EXIT_PATH_MAX_CENSUS)
		return err_set(err, -E2BIG,
			       "%s: %zu census rows in %s, more than a result file holds (%d)",
			       probe, m, f->name, EXIT_PATH_MAX_CENSUS);
	f->census = calloc(m, sizeof(*f->census));
	if (!f->census)
		return -ENOMEM;
	for (size_t j = 0; j < m; j++)
		f->census[j] = (struct exit_path_census){ cen[i + j].insn, cen[i + j].operand, cen[i + j].n };
	f->n_census = m;
	exit_path_census_sort(f->census, m);
	return 0;
}

/* The path's census: the functions' rows summed by (insn, operand), rows of 0 dropped. */
static int path_census(const char *probe, struct exit_path *e, struct err *err)
{
	size_t n = 0, w = 0;

	for (size_t i = 0; i < e->n_fns; i++)
		n += e->fns[i].n_census;
	e->census = calloc(n ? n : 1, sizeof(*e->census));
	if (!e->census)
		return -ENOMEM;
	for (size_t i = 0; i < e->n_fns; i++)
		for (size_t j = 0; j < e->fns[i].n_census; j++)
			e->census[w++] = e->fns[i].census[j];
	exit_path_census_sort(e->census, w);
	n = w;
	w = 0;
	for (size_t i = 0; i < n; i++) {
		if (w && !exit_path_census_cmp(&e->census[w - 1], &e->census[i])) {
			if (count_add(e->census[w - 1].count, e->census[i].count, &e->census[w - 1].count))
				return -ERANGE;
		} else {
			e->census[w++] = e->census[i];
		}
	}
	n = w;
	w = 0;
	for (size_t i = 0; i < n; i++)
		if (e->census[i].count)
			e->census[w++] = e->census[i];
	e->n_census = w;
	e->has_census = 1;
	if (w > EXIT_PATH_MAX_CENSUS)
		return err_set(err, -E2BIG,
			       "%s: %zu census rows, more than a result file holds (%d)", probe, w,
			       EXIT_PATH_MAX_CENSUS);
	return 0;
}

static int build_fns(const struct prof_probe *p, const struct symtab *st, struct exit_path *e,
		     const struct cen_acc *cen, size_t n_cen, struct err *err)
{
	struct fn_acc *acc = NULL;
	size_t n = 0, cap = 0, w = 0;
	int r;

	r = acc_add(&acc, &n, &cap, st, &p->op.insn, 1, 0);
	if (!r)
		r = acc_add(&acc, &n, &cap, st, &p->base.insn, -1, 0);
	if (!r)
		r = acc_add(&acc, &n, &cap, st, &p->op.calls, 1, 1);
	if (!r)
		r = acc_add(&acc, &n, &cap, st, &p->base.calls, -1, 1);
	/* A function with census rows is listed even if its insn and calls cancel. */
	for (size_t i = 0; !r && i < n_cen; i++) {
		if (n == cap) {
			size_t c = cap ? 2 * cap : 256;
			struct fn_acc *a = realloc(acc, c * sizeof(*a));

			if (!a) {
				r = -ENOMEM;
				break;
			}
			acc = a;
			cap = c;
		}
		acc[n++] = (struct fn_acc){ .name = cen[i].fn, .census = 1 };
	}
	if (r) {
		free(acc);
		return r;
	}
	if (n)
		qsort(acc, n, sizeof(*acc), acc_cmp);
	/* One entry per function: the names are the symbol table's (or one constant). */
	for (size_t i = 0; i < n; i++) {
		if (w && !strcmp(acc[w - 1].name, acc[i].name)) {
			acc[w - 1].insn += acc[i].insn;
			acc[w - 1].calls += acc[i].calls;
			acc[w - 1].census |= acc[i].census;
		} else {
			acc[w++] = acc[i];
		}
	}
	e->fns = calloc(w ? w : 1, sizeof(*e->fns));
	if (!e->fns) {
		free(acc);
		return -ENOMEM;
	}
	for (size_t i = 0; i < w; i++)
		if (acc[i].insn || acc[i].calls || acc[i].census)
			e->fns[e->n_fns++] = (struct exit_path_fn){ .name = acc[i].name, .insn = acc[i].insn, .calls = acc[i].calls };
	free(acc);
	if (e->n_fns > EXIT_PATH_MAX_FUNCTIONS)
		return err_set(err, -E2BIG, "%s: %zu functions, more than a result file holds (%d)",
			       p->name, e->n_fns, EXIT_PATH_MAX_FUNCTIONS);
	for (size_t i = 0; i < e->n_fns; i++) {
		r = fn_census(p->name, &e->fns[i], cen, n_cen, err);
		if (r)
			return r;
	}
	exit_path_sort(e);
	return 0;
}

/* One exit line with its sign (op +, baseline -), by the reason KVM names. */
struct exit_acc {
	uint64_t reason;	/* profile_exit_reason's */
	size_t first;		/* the line's place (op side first): the order the emulator saw them */
	long long n;
};

static int exit_reason_cmp(const void *a, const void *b)
{
	const struct exit_acc *x = a, *y = b;

	if (x->reason != y->reason)
		return x->reason < y->reason ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int exit_first_cmp(const void *a, const void *b)
{
	const struct exit_acc *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * The exits by KVM's names, op minus baseline: every exit line of both
 * sides sorted by reason and merged, so n lines cost O(n log n) (no
 * reason is searched for line by line); reasons that come to 0 dropped,
 * the rest in the order the emulator first listed them. 0, or -ENOMEM /
 * -ERANGE (a sum beyond EXIT_PATH_COUNT_MAX) / -E2BIG (more reasons than
 * a result file holds).
 */
static int build_exits(const struct prof_probe *p, enum profile_vendor v, struct exit_path *e,
		       struct err *err)
{
	const struct prof_side *sides[2] = { &p->op, &p->base };
	size_t n = p->op.exits.n + p->base.exits.n, k = 0, w = 0;
	struct exit_acc *acc = calloc(n ? n : 1, sizeof(*acc));
	int r = 0;

	if (!acc)
		return -ENOMEM;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->exits.n; i++, k++) {
			uint64_t c = sides[s]->exits.v[i].n;

			if (c > (uint64_t)EXIT_PATH_COUNT_MAX) {
				free(acc);
				return -ERANGE;
			}
			acc[k] = (struct exit_acc){ profile_exit_reason(v, sides[s]->exits.v[i].key), k,
						    s ? -(long long)c : (long long)c };
		}
	if (n)
		qsort(acc, n, sizeof(*acc), exit_reason_cmp);
	/* A reason's lines are side by side now, its first line first. */
	for (size_t i = 0; !r && i < n; i++) {
		if (w && acc[w - 1].reason == acc[i].reason)
			r = count_add(acc[w - 1].n, acc[i].n, &acc[w - 1].n);
		else
			acc[w++] = acc[i];
	}
	n = w;
	w = 0;
	for (size_t i = 0; !r && i < n; i++)
		if (acc[i].n)
			acc[w++] = acc[i];
	if (!r && w > EXIT_PATH_MAX_EXITS)
		r = err_set(err, -E2BIG, "%s: %zu exit reasons, more than a result file holds (%d)",
			    p->name, w, EXIT_PATH_MAX_EXITS);
	if (!r && w)
		qsort(acc, w, sizeof(*acc), exit_first_cmp);
	if (!r) {
		e->exits = calloc(w ? w : 1, sizeof(*e->exits));
		e->reason_buf = calloc(w ? w : 1, sizeof(*e->reason_buf));
		if (!e->exits || !e->reason_buf)
			r = -ENOMEM;
	}
	for (size_t i = 0; !r && i < w; i++)
		e->exits[e->n_exits++] = (struct exit_path_exit){
			profile_exit_name(v, acc[i].reason, e->reason_buf[i], sizeof(e->reason_buf[0])), acc[i].n };
	free(acc);
	return r;
}

int profile_exit_path(const struct prof_probe *probe, const struct symtab *st, enum profile_vendor v,
		      int file_version, struct exit_path *e, struct err *err)
{
	struct prof_probe pick = *probe;
	const struct prof_probe *p = &pick;
	struct cen_acc *cen = NULL;
	size_t n_cen = 0;
	int r = 0;

	memset(e, 0, sizeof(*e));
	/* The pairs without an interrupt; when there are none, the others, said so. */
	e->interrupted_pairs = (long long)probe->op_irq.batches;
	if (!probe->op.batches && probe->op_irq.batches) {
		pick.op = probe->op_irq;
		pick.base = probe->base_irq;
		e->interrupts_included = 1;
	}
	if (!p->op.ops || p->op.ops != p->base.ops || p->op.batches != p->base.batches)
		return err_set(err, -EINVAL,
			 "%s: the op batches (%llu, %llu operations) and the baseline batches "
			 "(%llu, %llu operations) differ", p->name,
			 (unsigned long long)p->op.batches, (unsigned long long)p->op.ops,
			 (unsigned long long)p->base.batches, (unsigned long long)p->base.ops);
	e->ops = (long long)p->op.ops;
	e->interrupted_pairs = e->interrupts_included ? 0 : e->interrupted_pairs;
	e->kernel_insn = (long long)p->op.kernel - (long long)p->base.kernel;
	e->guest_insn = (long long)p->op.guest - (long long)p->base.guest;
	e->user_insn = (long long)p->op.user - (long long)p->base.user;
	if (file_version >= 2)
		r = census_by_fn(p, st, e, &cen, &n_cen);
	if (!r)
		r = build_fns(p, st, e, cen, n_cen, err);
	free(cen);
	if (!r && file_version >= 2)
		r = path_census(p->name, e, err);
	if (!r)
		r = build_exits(p, v, e, err);
	if (r) {
		exit_path_free(e);
		/* -E2BIG said what a result file cannot hold: no profile rather than one readers refuse. */
		if (r == -E2BIG)
			return r;
		if (r == -ERANGE)
			return err_set(err, r, "%s: a count beyond %lld", p->name,
				       EXIT_PATH_COUNT_MAX);
		return err_set(err, r, "%s: out of memory", p->name);
	}
	e->present = 1;
	return 0;
}
