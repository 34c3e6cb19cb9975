// SPDX-License-Identifier: GPL-2.0-only
/*
 * walk_steps.c - the steps of a walk, commit by commit (compare/walk_steps.h):
 * lane cycles are deterministic for one-vCPU probes, so a change beyond the
 * boot-to-boot spread between two commits measured in a row is the later
 * commit's (or one skipped between them); its exit paths say where.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"
#include "compare/compare.h"
#include "compare/path.h"
#include "compare/walk_steps.h"

#define WALK_PRINT_FNS		6	/* functions printed per step (--json has them all) */
#define WALK_PRINT_CENSUS	4	/* census rows printed per step */

static const struct exit_path *probe_path(const struct result_file *rf, const char *name)
{
	const struct run_probe *p = result_find_probe(rf, name);

	return p && p->status == PROBE_OK && p->exit_path.present ? &p->exit_path : NULL;
}

static int name_in(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* Both runs' exit paths of the probe: the kernel's figure, the functions and census rows that changed. */
static int step_path(struct walk_step *st, const char *probe, const struct result_file *from,
		     const struct result_file *to)
{
	const struct exit_path *e[2] = { probe_path(from, probe), probe_path(to, probe) };
	struct path_changes pc;
	int rc;

	if (!e[0] || !e[1])
		return 0;
	st->has_path = 1;
	st->kernel_insn[0] = exit_path_per_op(e[0], e[0]->kernel_insn);
	st->kernel_insn[1] = exit_path_per_op(e[1], e[1]->kernel_insn);
	rc = path_changes_build(&from, 1, &to, 1, &pc);
	if (rc)
		return rc;
	/* Census rows are compared only where both sides have a census. */
	st->has_census = e[0]->has_census && e[1]->has_census;
	for (size_t i = 0; i < pc.n; i++) {
		const struct path_probe_change *p = &pc.probes[i];

		if (strcmp(p->probe, probe))
			continue;
		st->fns = calloc(p->n_fns ? p->n_fns : 1, sizeof(*st->fns));
		st->census = calloc(p->n_census ? p->n_census : 1, sizeof(*st->census));
		if (!st->fns || !st->census) {
			path_changes_free(&pc);
			return -ENOMEM;
		}
		for (size_t j = 0; j < p->n_fns; j++)
			st->fns[j] = (struct walk_fn_change){
				.name = p->fns[j].name,
				.insn = { p->fns[j].insn[0].mean, p->fns[j].insn[1].mean },
				.calls = { p->fns[j].calls[0].mean, p->fns[j].calls[1].mean },
			};
		st->n_fns = p->n_fns;
		/* compare's rows, as compare orders them (one run a side: exact counts) */
		for (size_t j = 0; p->has_census && j < p->n_census; j++)
			st->census[j] = (struct walk_census_change){
				.insn = p->census[j].insn,
				.operand = p->census[j].operand,
				.per_op = { p->census[j].per_op[0].mean, p->census[j].per_op[1].mean },
			};
		st->n_census = p->has_census ? p->n_census : 0;
	}
	path_changes_free(&pc);
	return 0;
}

static int is_step(double before, double after)
{
	double d = fabs(after - before);

	if (d <= LANE_CHANGE_FLOOR_CYCLES)
		return 0;
	return before <= 0 || d / before * 100 > LANE_SPREAD_1VCPU_PCT;
}

/* The probe's figures, gaps and steps over the lane's ok commits ok[0..n-1]. 0 or -ENOMEM. */
static int probe_build(const struct walk_commit *const *ok, size_t n, struct walk_probe *p)
{
	const struct walk_fig *prev = NULL;

	p->figs = calloc(n ? n : 1, sizeof(*p->figs));
	p->steps = calloc(n ? n : 1, sizeof(*p->steps));
	p->gaps = calloc(n ? n : 1, sizeof(*p->gaps));
	if (!p->figs || !p->steps || !p->gaps)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct result_file *rf = ok[i]->rf;
		const struct run_probe *rp = result_find_probe(rf, p->name);
		struct walk_fig *fig;

		if (!rp || rp->status != PROBE_OK) {
			p->gaps[p->n_gaps++] = ok[i];
			prev = NULL;	/* no step judged across a commit that did not measure it */
			continue;
		}
		fig = &p->figs[p->n_figs++];
		*fig = (struct walk_fig){ .c = ok[i], .cycles = rp->cycles.median };
		if (prev && is_step(prev->cycles, fig->cycles)) {
			struct walk_step *st = &p->steps[p->n_steps++];

			*st = (struct walk_step){
				.c = fig->c, .from = prev->c,
				.before = prev->cycles, .after = fig->cycles,
				.change_pct = prev->cycles > 0 ? (fig->cycles - prev->cycles) / prev->cycles * 100
							       : NAN,
			};
			if (step_path(st, p->name, prev->c->rf, rf))
				return -ENOMEM;
		}
		prev = fig;
	}
	return 0;
}

static int lane_build(const struct walk_file *w, struct walk_lane *l)
{
	const struct walk_commit **ok = calloc(w->n_commits ? w->n_commits : 1, sizeof(*ok));
	const char **names;
	size_t cap = 0, n = 0;
	int rc = 0;

	l->skipped = calloc(w->n_commits ? w->n_commits : 1, sizeof(*l->skipped));
	if (!ok || !l->skipped) {
		free(ok);
		return -ENOMEM;
	}
	for (size_t i = 0; i < w->n_commits; i++) {
		const struct walk_commit *c = &w->commits[i];

		if (c->lane != l->lane)
			continue;
		if (c->status == WALK_SKIP) {
			l->skipped[l->n_skipped++] = c;
		} else if (c->rf) {
			ok[l->n_ok++] = c;
			cap += c->rf->n_probes;
		}
	}
	/* Every probe of the lane's runs, once, in the order they first appear. */
	names = calloc(cap ? cap : 1, sizeof(*names));
	l->two_vcpu = calloc(cap ? cap : 1, sizeof(*l->two_vcpu));
	l->probes = calloc(cap ? cap : 1, sizeof(*l->probes));
	if (!names || !l->two_vcpu || !l->probes) {
		free(names);
		free(ok);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->n_ok; i++) {
		const struct result_file *rf = ok[i]->rf;

		for (size_t j = 0; j < rf->n_probes; j++)
			if (!name_in(names, n, rf->probes[j].name))
				names[n++] = rf->probes[j].name;
	}
	for (size_t k = 0; k < n; k++) {
		int two = 0;

		for (size_t i = 0; i < l->n_ok && !two; i++) {
			const struct run_probe *p = result_find_probe(ok[i]->rf, names[k]);

			two = p && lane_two_vcpus(p);
		}
		if (two) {
			l->two_vcpu[l->n_two_vcpu++] = names[k];
			continue;
		}
		l->probes[l->n_probes].name = names[k];
		rc = probe_build(ok, l->n_ok, &l->probes[l->n_probes++]);
		if (rc)
			break;
	}
	free(names);
	free(ok);
	return rc;
}

int walk_steps_build(const struct walk_file *w, struct walk_steps *out)
{
	memset(out, 0, sizeof(*out));
	out->w = w;
	out->spread_pct = LANE_SPREAD_1VCPU_PCT;
	out->floor_cycles = LANE_CHANGE_FLOOR_CYCLES;
	out->lanes = calloc(w->n_lanes ? w->n_lanes : 1, sizeof(*out->lanes));
	if (!out->lanes)
		return -ENOMEM;
	for (size_t i = 0; i < w->n_lanes; i++) {
		out->lanes[out->n_lanes].lane = w->lanes[i];
		if (lane_build(w, &out->lanes[out->n_lanes++])) {
			walk_steps_free(out);
			return -ENOMEM;
		}
	}
	return 0;
}

void walk_steps_free(struct walk_steps *s)
{
	for (size_t i = 0; i < s->n_lanes; i++) {
		struct walk_lane *l = &s->lanes[i];

		for (size_t j = 0; j < l->n_probes; j++) {
			struct walk_probe *p = &l->probes[j];

			for (size_t k = 0; k < p->n_steps; k++) {
				free(p->steps[k].fns);
				free(p->steps[k].census);
			}
			free(p->figs);
			free(p->steps);
			free(p->gaps);
		}
		free(l->probes);
		free(l->two_vcpu);
		free(l->skipped);
	}
	free(s->lanes);
	memset(s, 0, sizeof(*s));
}

/* ---- terminal text ---- */

/*
 * One unit of s (n bytes left) as base/text.h prints it: a character kept
 * as it is (its bytes, one column), or a byte escaped as \xNN (four
 * columns) into esc. Its bytes in s; *cols, *out (what to write), *out_len.
 */
static size_t subject_unit(const char *s, size_t n, char esc[5], size_t *cols, const char **out,
			   size_t *out_len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = *u >= 0x80 ? text_utf8_len(u, n) : (*u >= 0x20 && *u != 0x7f);

	if (k) {
		*cols = 1;
		*out = s;
		*out_len = k;
		return k;
	}
	snprintf(esc, 5, "\\x%02x", *u);
	*cols = 4;
	*out = esc;
	*out_len = 4;
	return 1;
}

const char *walk_subject_cut(const char *subject, size_t width, char *buf, size_t len)
{
	size_t n = strlen(subject), total = 0, cols = 0, o = 0, i, k, c, w;
	const char *out;
	char esc[5];

	if (!len)
		return "";
	for (i = 0; i < n; i += k)
		total += (k = subject_unit(subject + i, n - i, esc, &c, &out, &w), c);
	for (i = 0; i < n; i += k, cols += c, o += w) {
		k = subject_unit(subject + i, n - i, esc, &c, &out, &w);
		if (total > width ? cols + c + 3 > width : cols + c > width)
			break;
		if (o + w + 4 > len)
			break;
		memcpy(buf + o, out, w);
	}
	if (i < n && o + 4 <= len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

static const char *short_rev(const struct walk_commit *c, char *buf)
{
	snprintf(buf, WALK_SHORT_REV + 1, "%s", c->rev);
	return buf;
}

static void print_fns(FILE *f, const struct walk_step *st)
{
	char name[40];
	size_t col;

	fprintf(f, "      exit path: kernel %.1f -> %.1f insn/op (%+.1f)%s\n", st->kernel_insn[0],
		st->kernel_insn[1], st->kernel_insn[1] - st->kernel_insn[0],
		st->n_fns ? "" : ", no function changed");
	for (size_t i = 0; i < st->n_fns && i < WALK_PRINT_FNS; i++) {
		const struct walk_fn_change *fn = &st->fns[i];

		fprintf(f, "        %-36s %+9.1f insn/op %+7.2f calls/op\n",
			walk_subject_cut(fn->name, 36, name, sizeof(name)), fn->insn[1] - fn->insn[0],
			fn->calls[1] - fn->calls[0]);
	}
	if (st->n_fns > WALK_PRINT_FNS)
		fprintf(f, "        ... %zu more functions changed (--json has them all)\n",
			st->n_fns - WALK_PRINT_FNS);
	if (!st->has_census || !st->n_census)
		return;
	col = (size_t)fprintf(f, "      census per op:");
	for (size_t i = 0; i < st->n_census && i < WALK_PRINT_CENSUS; i++) {
		const struct walk_census_change *c = &st->census[i];
		char op[24], item[64];
		int n = snprintf(item, sizeof(item), " %+.2f %s%s%s%s", c->per_op[1] - c->per_op[0],
				 c->insn, c->operand ? " " : "",
				 c->operand ? walk_subject_cut(c->operand, 20, op, sizeof(op)) : "",
				 i + 1 < st->n_census ? "," : "");

		if (col + (size_t)n > COMPARE_COLUMNS - 12) {
			fputs("\n       ", f);
			col = 7;
		}
		fputs(item, f);
		col += (size_t)n;
	}
	if (st->n_census > WALK_PRINT_CENSUS)
		fprintf(f, " %zu more", st->n_census - WALK_PRINT_CENSUS);
	fputc('\n', f);
}

static void print_step(FILE *f, const struct walk_probe *p, const struct walk_step *st,
		       const struct walk_commit *prev)
{
	char name[32], from[WALK_SHORT_REV + 1], pct[24], fig[64];

	if (isfinite(st->change_pct))
		snprintf(pct, sizeof(pct), "%+.2f%%", st->change_pct);
	else
		snprintf(pct, sizeof(pct), "from 0");
	snprintf(fig, sizeof(fig), "%.0f -> %.0f", st->before, st->after);
	fprintf(f, "    %-27s %23s lane cycles %9s",
		walk_subject_cut(p->name, 27, name, sizeof(name)),
		fig, pct);
	/* The lane's commit before it is not the one compared with (a gap, a skip): say which. */
	if (st->from != prev)
		fprintf(f, "  (vs %s)", short_rev(st->from, from));
	fputc('\n', f);
	if (st->has_path)
		print_fns(f, st);
}

/* "  title name name ...", wrapped: the probes never measured (of probes), or the names given. */
static void print_names(FILE *f, const char *title, const struct walk_probe *probes, size_t np,
			const char *const *names, size_t nn)
{
	size_t col = 0, k;

	for (k = 0; k < np + nn; k++) {
		const char *name = k < np ? probes[k].name : names[k - np];

		if (k < np && probes[k].n_figs)
			continue;
		if (!col)
			col = (size_t)fprintf(f, "  %s", title);
		if (col + 1 + strlen(name) > COMPARE_COLUMNS) {
			fputs("\n   ", f);
			col = 3;
		}
		col += (size_t)fprintf(f, " %s", name);
	}
	if (col)
		fputc('\n', f);
}

/* The lane's commit before index i (of the whole walk), or NULL. */
static const struct walk_commit *lane_prev(const struct walk_file *w, enum host_lane_name lane,
					   size_t i)
{
	while (i-- > 0)
		if (w->commits[i].lane == lane)
			return &w->commits[i];
	return NULL;
}

static void print_lane(FILE *f, const struct walk_steps *s, const struct walk_lane *l)
{
	const struct walk_file *w = s->w;
	char rev[WALK_SHORT_REV + 1], subj[COMPARE_COLUMNS];
	size_t total = l->n_ok + l->n_skipped, steps = 0, i, j, k;

	for (j = 0; j < l->n_probes; j++)
		steps += l->probes[j].n_steps;
	fprintf(f, "%s: %zu commit%s, %zu measured, %zu skipped; "
		"%zu one-vCPU probe%s, %zu step%s\n",
		host_lane_names[l->lane], total, total == 1 ? "" : "s", l->n_ok, l->n_skipped,
		l->n_probes, l->n_probes == 1 ? "" : "s", steps, steps == 1 ? "" : "s");
	for (i = 0; i < w->n_commits; i++) {
		const struct walk_commit *c = &w->commits[i];
		int any = 0;

		if (c->lane != l->lane)
			continue;
		if (c->status == WALK_SKIP) {
			fprintf(f, "  skipped: %s %s\n", short_rev(c, rev),
				walk_subject_cut(c->reason, COMPARE_COLUMNS - 24, subj, sizeof(subj)));
			continue;
		}
		for (j = 0; j < l->n_probes; j++)
			for (k = 0; k < l->probes[j].n_steps; k++) {
				const struct walk_step *st = &l->probes[j].steps[k];

				if (st->c != c)
					continue;
				if (!any++)
					fprintf(f, "  %s %s\n", short_rev(c, rev),
						walk_subject_cut(c->subject, COMPARE_COLUMNS - 16, subj,
								 sizeof(subj)));
				print_step(f, &l->probes[j], st, lane_prev(w, l->lane, i));
			}
	}
	for (j = 0; j < l->n_probes; j++) {
		const struct walk_probe *p = &l->probes[j];
		size_t col;

		if (!p->n_gaps || !p->n_figs)
			continue;
		col = (size_t)fprintf(f, "  %s not measured at", p->name);
		for (k = 0; k < p->n_gaps; k++) {
			if (col + 1 + WALK_SHORT_REV > COMPARE_COLUMNS - 40) {
				fprintf(f, " and %zu more", p->n_gaps - k);
				break;
			}
			col += (size_t)fprintf(f, " %s", short_rev(p->gaps[k], rev));
		}
		fputs(": no step judged across\n", f);
	}
	print_names(f, "never measured (not ok in any run):", l->probes, l->n_probes, NULL, 0);
	print_names(f, "not judged (two vCPUs move more between boots):", NULL, 0, l->two_vcpu,
		    l->n_two_vcpu);
}

void walk_steps_print(FILE *f, const struct walk_steps *s)
{
	const struct walk_file *w = s->w;
	char range[64];
	size_t n = 0;

	/* A commit's entries for its lanes come one after the other. */
	for (size_t i = 0; i < w->n_commits; i++)
		n += !i || strcasecmp(w->commits[i].rev, w->commits[i - 1].rev);
	fprintf(f, "walk%s%s: %zu commit%s in %zu lane%s\n", w->range ? " " : "",
		w->range ? walk_subject_cut(w->range, 60, range, sizeof(range)) : "", n,
		n == 1 ? "" : "s", w->n_lanes, w->n_lanes == 1 ? "" : "s");
	fprintf(f, "a step: a one-vCPU probe's lane cycles moved by more than "
		"%.2f%% and %.0f cycles\n",
		s->spread_pct, s->floor_cycles);
	for (size_t i = 0; i < s->n_lanes; i++)
		print_lane(f, s, &s->lanes[i]);
}
