// SPDX-License-Identifier: GPL-2.0-only
/*
 * path.c - exit-path changes between the sides of a comparison
 * (compare/path.h). An exit path's counts are exact, so one run a side
 * already says what changed; with several runs a side, a figure has changed
 * only when the two sides' ranges do not overlap. The same rule judges the
 * census rows (executions per op of a costly instruction with its operand).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "compare/compare.h"
#include "compare/path.h"

#define PATH_PRINT_TOP	8
#define CENSUS_PRINT_TOP	12	/* census rows in the text */
#define CENSUS_INSN_MAX		16	/* characters of a mnemonic in the text, then "..." */
#define CENSUS_OPERAND_MAX	40	/* characters of an operand in the text, then "..." */

static const struct exit_path *probe_path(const struct result_file *rf, const char *name)
{
	const struct run_probe *p = result_find_probe(rf, name);

	return p && p->exit_path.present ? &p->exit_path : NULL;
}

static void fig_add(struct path_fig *f, double v)
{
	if (!f->n || v < f->lo)
		f->lo = v;
	if (!f->n || v > f->hi)
		f->hi = v;
	f->mean = (f->mean * (double)f->n + v) / (double)(f->n + 1);
	f->n++;
}

static int figs_changed(const struct path_fig *f)
{
	return f[0].hi < f[1].lo || f[1].hi < f[0].lo;
}

/* A function's figures on one side: from every run, 0 where a run does not list it. */
static void side_fn(const struct result_file *const *rf, size_t n, const char *probe, const char *fn,
		    struct path_fig *insn, struct path_fig *calls)
{
	for (size_t i = 0; i < n; i++) {
		const struct exit_path *e = probe_path(rf[i], probe);
		const struct exit_path_fn *f;

		if (!e)
			continue;
		f = exit_path_find(e, fn);
		fig_add(insn, f ? exit_path_per_op(e, f->insn) : 0);
		fig_add(calls, f ? exit_path_per_op(e, f->calls) : 0);
	}
}

static int fn_cmp(const void *pa, const void *pb)
{
	const struct path_fn_change *a = pa, *b = pb;
	double da = fabs(a->insn[1].mean - a->insn[0].mean), db = fabs(b->insn[1].mean - b->insn[0].mean);

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int fn_known(const struct path_probe_change *pc, const char *name)
{
	for (size_t i = 0; i < pc->n_fns; i++)
		if (!strcmp(pc->fns[i].name, name))
			return 1;
	return 0;
}

/* Every function either side's runs list, once, if it changed. */
static int probe_fns(const struct result_file *const *s[2], const size_t ns[2], struct path_probe_change *pc,
		     size_t cap)
{
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < ns[side]; i++) {
			const struct exit_path *e = probe_path(s[side][i], pc->probe);

			for (size_t j = 0; e && j < e->n_fns; j++) {
				struct path_fn_change c = { .name = e->fns[j].name };

				if (fn_known(pc, c.name))
					continue;
				side_fn(s[0], ns[0], pc->probe, c.name, &c.insn[0], &c.calls[0]);
				side_fn(s[1], ns[1], pc->probe, c.name, &c.insn[1], &c.calls[1]);
				if (!figs_changed(c.insn) && !figs_changed(c.calls))
					continue;
				if (pc->n_fns == cap)
					return -ENOMEM;	/* cap is every function listed: cannot happen */
				pc->fns[pc->n_fns++] = c;
			}
		}
	if (pc->n_fns)
		qsort(pc->fns, pc->n_fns, sizeof(*pc->fns), fn_cmp);
	return 0;
}

static int name_eq(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

int path_census_same(const char *insn_a, const char *operand_a, const char *insn_b, const char *operand_b)
{
	return name_eq(insn_a, insn_b) && name_eq(operand_a, operand_b);
}

static const struct exit_path_census *census_find(const struct exit_path *e, const char *insn,
						  const char *operand)
{
	for (size_t i = 0; i < e->n_census; i++)
		if (path_census_same(e->census[i].insn, e->census[i].operand, insn, operand))
			return &e->census[i];
	return NULL;
}

/* A census row's executions per op on one side: from every run, 0 where a run does not list it. */
static void side_census(const struct result_file *const *rf, size_t n, const char *probe,
			const struct path_census_change *c, struct path_fig *f)
{
	for (size_t i = 0; i < n; i++) {
		const struct exit_path *e = probe_path(rf[i], probe);
		const struct exit_path_census *r;

		if (!e)
			continue;
		r = census_find(e, c->insn, c->operand);
		fig_add(f, r ? exit_path_per_op(e, r->count) : 0);
	}
}

static int census_cmp(const void *pa, const void *pb)
{
	const struct path_census_change *a = pa, *b = pb;
	double da = fabs(a->per_op[1].mean - a->per_op[0].mean);
	double db = fabs(b->per_op[1].mean - b->per_op[0].mean);
	int r;

	if (da != db)
		return da > db ? -1 : 1;
	r = strcmp(a->insn, b->insn);
	if (r || name_eq(a->operand, b->operand))
		return r;
	if (!a->operand || !b->operand)
		return a->operand ? 1 : -1;
	return strcmp(a->operand, b->operand);
}

static int census_known(const struct path_probe_change *pc, const char *insn, const char *operand)
{
	for (size_t i = 0; i < pc->n_census; i++)
		if (path_census_same(pc->census[i].insn, pc->census[i].operand, insn, operand))
			return 1;
	return 0;
}

/*
 * The changed census rows of a probe every run of both sides profiled,
 * when every one of those profiles has a census (else has_census stays 0).
 * 0 or -ENOMEM.
 */
static int probe_census(const struct result_file *const *s[2], const size_t ns[2],
			struct path_probe_change *pc)
{
	size_t cap = 0;

	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < ns[side]; i++) {
			const struct exit_path *e = probe_path(s[side][i], pc->probe);

			if (!e || !e->has_census)
				return 0;
			cap += e->n_census;
		}
	pc->has_census = 1;
	if (!cap)
		return 0;
	pc->census = calloc(cap, sizeof(*pc->census));
	if (!pc->census)
		return -ENOMEM;
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < ns[side]; i++) {
			const struct exit_path *e = probe_path(s[side][i], pc->probe);

			for (size_t j = 0; j < e->n_census; j++) {
				struct path_census_change c = {
					.insn = e->census[j].insn, .operand = e->census[j].operand,
				};

				if (!c.insn || census_known(pc, c.insn, c.operand))
					continue;
				side_census(s[0], ns[0], pc->probe, &c, &c.per_op[0]);
				side_census(s[1], ns[1], pc->probe, &c, &c.per_op[1]);
				if (figs_changed(c.per_op))
					pc->census[pc->n_census++] = c;	/* at most cap rows */
			}
		}
	if (pc->n_census)
		qsort(pc->census, pc->n_census, sizeof(*pc->census), census_cmp);
	return 0;
}

static void probe_change_free(struct path_probe_change *pc)
{
	free(pc->fns);
	free(pc->census);
}

int path_changes_build(const struct result_file *const *a, size_t na,
		       const struct result_file *const *b, size_t nb, struct path_changes *out)
{
	const struct result_file *const *s[2] = { a, b };
	const size_t ns[2] = { na, nb };

	memset(out, 0, sizeof(*out));
	if (!na || !nb)
		return 0;
	out->probes = calloc(a[0]->n_probes ? a[0]->n_probes : 1, sizeof(*out->probes));
	if (!out->probes)
		return -ENOMEM;
	for (size_t i = 0; i < a[0]->n_probes; i++) {
		const char *name = a[0]->probes[i].name;
		struct path_probe_change pc = { .probe = name };
		size_t cap = 0;
		bool both = true;

		for (int side = 0; side < 2; side++)
			for (size_t j = 0; j < ns[side]; j++) {
				const struct exit_path *e = probe_path(s[side][j], name);

				if (!e) {
					both = false;
					continue;
				}
				fig_add(&pc.kernel[side], exit_path_per_op(e, e->kernel_insn));
				cap += e->n_fns;
			}
		if (!both)
			continue;
		out->compared++;
		pc.fns = calloc(cap ? cap : 1, sizeof(*pc.fns));
		if (!pc.fns || probe_fns(s, ns, &pc, cap) || probe_census(s, ns, &pc)) {
			probe_change_free(&pc);
			path_changes_free(out);
			return -ENOMEM;
		}
		if (!pc.n_fns && !pc.n_census && !figs_changed(pc.kernel)) {
			probe_change_free(&pc);
			continue;
		}
		out->probes[out->n++] = pc;
	}
	return 0;
}

void path_changes_free(struct path_changes *c)
{
	for (size_t i = 0; i < c->n; i++)
		probe_change_free(&c->probes[i]);
	free(c->probes);
	memset(c, 0, sizeof(*c));
}

static const char *fn_state(const struct path_fn_change *f)
{
	if (f->calls[0].hi == 0 && f->insn[0].hi == 0 && f->insn[0].lo == 0)
		return " (new)";
	if (f->calls[1].hi == 0 && f->insn[1].hi == 0 && f->insn[1].lo == 0)
		return " (gone)";
	return "";
}

void path_per_op_str(char *buf, size_t n, double v, int sign)
{
	size_t len;

	if (v != 0 && fabs(v) < 0.005) {
		snprintf(buf, n, sign ? "%+.2g" : "%.2g", v);
		return;
	}
	snprintf(buf, n, sign ? "%+.2f" : "%.2f", v);
	len = strlen(buf);
	while (len && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len && buf[len - 1] == '.')
		buf[--len] = '\0';
	if (!strcmp(buf, "-0") || !strcmp(buf, "+0"))
		snprintf(buf, n, "%s0", sign ? "+" : "");
}

/* "-2 xsetbv XCR0": the names cut (with "...") to keep the line within the columns. */
static void census_item(char *buf, size_t n, const struct path_census_change *c)
{
	char d[32];
	int li = (int)strlen(c->insn), lo = c->operand ? (int)strlen(c->operand) : 0;

	path_per_op_str(d, sizeof(d), c->per_op[1].mean - c->per_op[0].mean, 1);
	snprintf(buf, n, "%s %.*s%s%s%.*s%s", d, CENSUS_INSN_MAX, c->insn,
		 li > CENSUS_INSN_MAX ? "..." : "", c->operand ? " " : "", CENSUS_OPERAND_MAX,
		 c->operand ? c->operand : "", lo > CENSUS_OPERAND_MAX ? "..." : "");
}

void path_census_print(FILE *f, const struct path_probe_change *p, int indent)
{
	static const char tail[] = " per op";
	size_t shown = p->n_census < CENSUS_PRINT_TOP ? p->n_census : CENSUS_PRINT_TOP;
	int lead = indent + (int)strlen("census: "), col;

	if (!p->n_census)
		return;
	col = fprintf(f, "%*scensus:", indent, "");
	for (size_t i = 0; i < shown; i++) {
		char raw[128], item[512];
		int len, need;

		census_item(raw, sizeof(raw), &p->census[i]);
		text_esc(item, sizeof(item), raw);
		len = (int)strlen(item);
		/* " item" and what follows it on the line: its comma, or the tail */
		need = 1 + len + (i + 1 == shown ? (int)strlen(tail) : 1);
		if (i && col + 1 + need > COMPARE_COLUMNS) {
			fputs(",\n", f);
			col = fprintf(f, "%*s%s", lead, "", item);
		} else {
			col += fprintf(f, "%s %s", i ? "," : "", item);
		}
	}
	fprintf(f, "%s\n", tail);
	if (p->n_census > shown)
		fprintf(f, "%*s... %zu more census rows changed (--json has them all)\n", indent,
			"", p->n_census - shown);
}

void path_changes_print(FILE *f, const struct path_changes *c)
{
	if (!c->compared)
		return;
	if (!c->n) {
		fprintf(f, "exit paths: %zu probes profiled on both sides, none changed\n",
			c->compared);
		return;
	}
	fprintf(f, "exit paths: %zu of %zu profiled probes changed (per op, new - base):\n", c->n,
		c->compared);
	for (size_t i = 0; i < c->n; i++) {
		const struct path_probe_change *p = &c->probes[i];
		char name[1024];

		fprintf(f, "  %s: kernel %.1f -> %.1f insn/op (%+.1f)\n",
			text_esc(name, sizeof(name), p->probe), p->kernel[0].mean,
			p->kernel[1].mean, p->kernel[1].mean - p->kernel[0].mean);
		for (size_t j = 0; j < p->n_fns && j < PATH_PRINT_TOP; j++) {
			const struct path_fn_change *fn = &p->fns[j];

			fprintf(f, "    %-32s %+8.1f insn/op %+6.2f calls/op%s\n",
				text_esc(name, sizeof(name), fn->name),
				fn->insn[1].mean - fn->insn[0].mean, fn->calls[1].mean - fn->calls[0].mean,
				fn_state(fn));
		}
		if (p->n_fns > PATH_PRINT_TOP)
			fprintf(f, "    ... %zu more functions changed (--json has them all)\n",
				p->n_fns - PATH_PRINT_TOP);
		path_census_print(f, p, 4);
	}
}
