// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_table.c - the run table (probes/probe_table.h). By default a row
 * has the probe's figures and the marks of its notes; each distinct note
 * (a skip reason too) is printed once below, with its mark, wrapped at
 * TEXT_WIDTH; notes that differ in a few words only are one, with each
 * probe's words. Wide: the CI range of all batches and the notes on the row.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/text_wrap.h"
#include "probes/probe_table.h"

#define NAME_MIN	5		/* "probe" */
#define NAME_WIDE	25

/*
 * The notes of a table: distinct texts, in order of first use, each with
 * the probes it is about. Notes that differ in a few words only (the CPUID
 * feature a skip needs, figures) form a group, one mark: its leader (first
 * note) holds the template, the words that vary replaced by "<...>" (one
 * span) or "<1>", "<2>"... (single words), and each note its variant.
 */
struct table_notes {
	char **text, **probes;		/* probes: "a, b" */
	char **tmpl, **mids;		/* a leader's template, a note's varying words (NULL: none) */
	size_t *leader;			/* index of the group's first note */
	size_t *mark;			/* a leader's mark, from 1 */
	size_t n, max;
};

static int grow_ptrs(char ***a, size_t max)
{
	char **p = realloc(*a, max * sizeof(*p));

	if (!p)
		return -ENOMEM;
	*a = p;
	return 0;
}

static int grow_sizes(size_t **a, size_t max)
{
	size_t *p = realloc(*a, max * sizeof(*p));

	if (!p)
		return -ENOMEM;
	*a = p;
	return 0;
}

static int notes_grow(struct table_notes *t)
{
	size_t max = t->max ? 2 * t->max : 32;

	if (grow_ptrs(&t->text, max) || grow_ptrs(&t->probes, max) || grow_ptrs(&t->tmpl, max) ||
	    grow_ptrs(&t->mids, max) || grow_sizes(&t->leader, max) || grow_sizes(&t->mark, max))
		return -ENOMEM;
	t->max = max;
	return 0;
}

/* The index of text (added when new), with probe among its probes; -1 when out of memory. */
static long notes_add(struct table_notes *t, const char *text, const char *probe)
{
	size_t i;
	char *p;

	for (i = 0; i < t->n && strcmp(t->text[i], text); i++)
		;
	if (i == t->n) {
		if (t->n == t->max && notes_grow(t))
			return -1;
		t->text[i] = strdup(text);
		t->probes[i] = strdup(probe);
		t->tmpl[i] = t->mids[i] = NULL;
		t->leader[i] = i;
		t->mark[i] = 0;
		t->n++;
		return t->text[i] && t->probes[i] ? (long)i : -1;
	}
	if (asprintf(&p, "%s, %s", t->probes[i], probe) < 0)
		return -1;
	free(t->probes[i]);
	t->probes[i] = p;
	return (long)i;
}

static void notes_free(struct table_notes *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->text[i]);
		free(t->probes[i]);
		free(t->tmpl[i]);
		free(t->mids[i]);
	}
	free(t->text);
	free(t->probes);
	free(t->tmpl);
	free(t->mids);
	free(t->leader);
	free(t->mark);
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '.' || c == '+' || c == '-';
}

#define GROUP_MID_MAX	32	/* one varying span: at most this long */
#define GROUP_SAME_MIN	12	/* and the rest at least this long, and at least half of each note */
#define GROUP_WORDS_MAX	3	/* or at most this many single words vary, the others (half at least) alike */

/*
 * Whether a and b differ in one span of words only, within the note (a
 * common prefix up to a word's start and a common suffix from a word's
 * end, neither empty): the template and the two spans, allocated.
 */
static bool notes_span(const char *a, const char *b, char **tmpl, char **ma, char **mb)
{
	size_t la = strlen(a), lb = strlen(b), p = 0, q = 0;

	while (p < la && p < lb && a[p] == b[p])
		p++;
	while (p > 0 && word_char(a[p - 1]))
		p--;
	while (q < la - p && q < lb - p && a[la - 1 - q] == b[lb - 1 - q])
		q++;
	while (q > 0 && word_char(a[la - q]))
		q--;
	if (!p || !q || p + q < GROUP_SAME_MIN || 2 * (p + q) < la || 2 * (p + q) < lb ||
	    la - p - q > GROUP_MID_MAX || lb - p - q > GROUP_MID_MAX || la == p + q || lb == p + q)
		return false;
	if (asprintf(tmpl, "%.*s<...>%s", (int)p, a, a + la - q) < 0)
		return false;
	*ma = strndup(a + p, la - p - q);
	*mb = strndup(b + p, lb - p - q);
	return true;
}

/* Whether a and b have the same words but a few (GROUP_WORDS_MAX): the template and their words. */
static bool notes_words(const char *a, const char *b, char **tmpl, char **ma, char **mb)
{
	char t[1024] = "", wa[256] = "", wb[256] = "";
	size_t to = 0, ao = 0, bo = 0, words = 0, differ = 0;

	for (;;) {
		size_t na = strcspn(a, " "), nb = strcspn(b, " ");

		if (!na && !nb)
			break;
		words++;
		if (na != nb || strncmp(a, b, na)) {
			if (++differ > GROUP_WORDS_MAX || !na || !nb)
				return false;
			to += (size_t)snprintf(t + to, sizeof(t) - to, "<%zu>", differ);
			ao += (size_t)snprintf(wa + ao, sizeof(wa) - ao, "%s%.*s", ao ? ", " : "",
					       (int)na, a);
			bo += (size_t)snprintf(wb + bo, sizeof(wb) - bo, "%s%.*s", bo ? ", " : "",
					       (int)nb, b);
		} else {
			to += (size_t)snprintf(t + to, sizeof(t) - to, "%.*s", (int)na, a);
		}
		a += na;
		b += nb;
		if ((*a == ' ') != (*b == ' '))
			return false;
		if (*a == ' ') {
			a++;
			b++;
			to += (size_t)snprintf(t + to, sizeof(t) - to, " ");
		}
		if (to >= sizeof(t) || ao >= sizeof(wa) || bo >= sizeof(wb))
			return false;
	}
	if (!differ || 2 * (words - differ) < words || words - differ < 3)
		return false;
	*tmpl = strdup(t);
	*ma = strdup(wa);
	*mb = strdup(wb);
	return true;
}

/* Whether text fits template tmpl (of notes_span or notes_words): its varying words, allocated. */
static char *tmpl_fit(const char *tmpl, const char *text)
{
	const char *ph = strstr(tmpl, "<...>");
	char mids[256] = "";
	size_t o = 0;

	if (ph) {
		size_t lp = (size_t)(ph - tmpl), ls = strlen(ph + 5), lt = strlen(text);

		if (lt <= lp + ls || lt - lp - ls > GROUP_MID_MAX || strncmp(text, tmpl, lp) ||
		    strcmp(text + lt - ls, ph + 5))
			return NULL;
		return strndup(text + lp, lt - lp - ls);
	}
	for (;;) {
		size_t nt = strcspn(tmpl, " "), nx = strcspn(text, " ");

		if (!nt && !nx)
			return strdup(mids);
		if (!nt || !nx)
			return NULL;
		if (nt == 3 && tmpl[0] == '<' && tmpl[2] == '>')
			o += (size_t)snprintf(mids + o, sizeof(mids) - o, "%s%.*s", o ? ", " : "",
					      (int)nx, text);
		else if (nt != nx || strncmp(tmpl, text, nt))
			return NULL;
		tmpl += nt;
		text += nx;
		if ((*tmpl == ' ') != (*text == ' ') || o >= sizeof(mids))
			return NULL;
		tmpl += *tmpl == ' ';
		text += *text == ' ';
	}
}

/* Group the notes (each with the first leader whose template it fits) and number the groups. */
static void notes_group(struct table_notes *t)
{
	size_t marks = 0;

	for (size_t k = 0; k < t->n; k++) {
		for (size_t j = 0; j < k && t->leader[k] == k; j++) {
			char *tmpl = NULL, *mj = NULL, *mk = NULL;

			if (t->leader[j] != j)
				continue;
			if (t->tmpl[j]) {	/* the group has its template: k must fit it */
				t->mids[k] = tmpl_fit(t->tmpl[j], t->text[k]);
				if (t->mids[k])
					t->leader[k] = j;
				continue;
			}
			if (!notes_span(t->text[j], t->text[k], &tmpl, &mj, &mk) &&
			    !notes_words(t->text[j], t->text[k], &tmpl, &mj, &mk))
				continue;
			if (tmpl && mj && mk) {
				t->tmpl[j] = tmpl;
				t->mids[j] = mj;
				t->mids[k] = mk;
				t->leader[k] = j;
			} else {
				free(tmpl);
				free(mj);
				free(mk);
			}
		}
		if (t->leader[k] == k)
			t->mark[k] = ++marks;
	}
}

/* Group g (a leader): its note, or the template and each variant with its probes. */
static void notes_print_group(FILE *f, const struct table_notes *t, size_t g)
{
	char lead[16], *text, *p;
	size_t words = 0;

	snprintf(lead, sizeof(lead), "%3zu  ", t->mark[g]);
	if (!t->tmpl[g]) {
		text_wrap_print(f, lead, 5, t->text[g]);
		return;
	}
	while (words < GROUP_WORDS_MAX &&
	       strstr(t->tmpl[g], (const char *[]){ "<1>", "<2>", "<3>" }[words]))
		words++;
	p = strdup(!words ? "<...>" : words == 1 ? "<1>" : words == 2 ? "<1>, <2>"
		   : "<1>, <2>, <3>");
	if (!p || asprintf(&text, "%s -- %s:", t->tmpl[g], p) < 0) {
		free(p);
		return;
	}
	free(p);
	for (size_t k = g; k < t->n; k++) {
		if (t->leader[k] != g)
			continue;
		if (asprintf(&p, "%s%s %s = %s", text, k == g ? "" : ";", t->probes[k],
			t->mids[k]) < 0)
			break;
		free(text);
		text = p;
	}
	text_wrap_print(f, lead, 5, text);
	free(text);
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (v >= 100000)
		snprintf(buf, len, "%.3g", v);
	else if (v >= 100)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f", v);
}

static void fmt_per_op(char *buf, size_t len, double v)
{
	if (v == 0)
		snprintf(buf, len, "0");
	else if (v == floor(v) && v < 1e6)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

/* The nop row's own note: what its figure is. */
static const char *nop_note(bool paired)
{
	return paired ? "the baseline loop itself: net ~0"
		      : "harness overhead, subtracted from the others";
}

/* The CI half-width in % of the median: the rounds' (v2), else the samples'. */
static void fmt_ci(char *buf, size_t len, const struct latency_result *r)
{
	double pct = -1;

	if (r->n_rounds)
		pct = r->ci_rel_pct;
	else if (r->cycles.median > 0)
		pct = 50 * (r->cycles.ci95_hi - r->cycles.ci95_lo) / r->cycles.median;
	if (pct < 0 || !isfinite(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, pct < 100 ? "%.1f%%" : "%.0f%%", pct);
}

/* The notes of a row that measured, into notes: how many. */
static size_t row_notes(const struct probe_outcome *o, bool paired, char notes[][PROBE_NOTE_LEN])
{
	size_t nn = 0;

	if (!strcmp(o->probe->name, "nop"))
		snprintf(notes[nn++], PROBE_NOTE_LEN, "%s", nop_note(paired));
	return nn + probe_notes_as(o, notes + nn, PROBE_MAX_NOTES, true);
}

static void row_print(FILE *f, int w, const struct probe_outcome *o, const char *marks)
{
	const struct latency_result *r = &o->res;
	char med[24], ci[24], rounds[16], ns[24], ex[24], us[24];

	if (r->status != PROBE_OK) {
		fprintf(f, "%-*s %9s %7s %6s %9s %8s %7s  %s\n", w, o->probe->name, "-", "-", "-",
			"-", "-", "-", marks);
		return;
	}
	fmt_num(med, sizeof(med), r->cycles.median);
	fmt_ci(ci, sizeof(ci), r);
	if (r->n_rounds)
		snprintf(rounds, sizeof(rounds), "%zu", r->n_rounds);
	else
		snprintf(rounds, sizeof(rounds), "-");
	fmt_num(ns, sizeof(ns), r->ns_median);
	fmt_per_op(ex, sizeof(ex), r->per_op.exits);
	fmt_per_op(us, sizeof(us), r->per_op.user_io + r->per_op.user_mmio + r->per_op.user_msr);
	fprintf(f, "%-*s %9s %7s %6s %9s %8s %7s  %s\n", w, o->probe->name, med, ci, rounds, ns, ex,
		us, marks);
}

/* The default table: rows in TEXT_WIDTH columns, then each note (or group of near-identical ones) once. */
static void table_print(FILE *f, const struct probe_outcome *o, size_t n, bool paired)
{
	struct table_notes tn = { 0 };
	char notes[PROBE_MAX_NOTES + 1][PROBE_NOTE_LEN], marks[96], why[LATENCY_REASON_LEN + 32];
	long (*idx)[PROBE_MAX_NOTES + 1] = calloc(n ? n : 1, sizeof(*idx));
	size_t *nn = calloc(n ? n : 1, sizeof(*nn));
	int w = NAME_MIN;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(o[i].probe->name) > w)
			w = (int)strlen(o[i].probe->name);
	for (size_t i = 0; idx && nn && i < n; i++) {
		const struct latency_result *r = &o[i].res;

		if (r->status != PROBE_OK) {	/* its reason is its note */
			snprintf(why, sizeof(why), "%s: %s", probe_status_name(r->status),
				 r->status == PROBE_STOPPED ? "stopped by Ctrl-C" : r->reason);
			idx[i][0] = notes_add(&tn, why, o[i].probe->name);
			nn[i] = 1;
			continue;
		}
		nn[i] = row_notes(&o[i], paired, notes);
		for (size_t k = 0; k < nn[i]; k++)
			idx[i][k] = notes_add(&tn, notes[k], o[i].probe->name);
	}
	notes_group(&tn);
	fprintf(f, "%-*s %9s %7s %6s %9s %8s %7s  %s\n", w, "probe", "cycles", "+-CI", "rounds",
		"ns", "exits/op", "user/op", "notes");
	for (size_t i = 0; i < n; i++) {
		size_t m = 0, seen[PROBE_MAX_NOTES + 1], ns = 0;

		marks[0] = 0;
		for (size_t k = 0; idx && nn && k < nn[i] && m < sizeof(marks); k++) {
			size_t mk = idx[i][k] < 0 ? 0 : tn.mark[tn.leader[idx[i][k]]], d = 0;

			while (d < ns && seen[d] != mk)
				d++;
			if (!mk || d < ns)
				continue;
			seen[ns++] = mk;
			m += (size_t)snprintf(marks + m, sizeof(marks) - m, "%s%zu", m ? "," : "",
					      mk);
		}
		row_print(f, w, &o[i], marks);
	}
	if (tn.n)
		fprintf(f, "\nnotes:\n");
	for (size_t g = 0; g < tn.n; g++)
		if (tn.leader[g] == g)
			notes_print_group(f, &tn, g);
	notes_free(&tn);
	free(idx);
	free(nn);
}

/* Wide: the CI range of all batches, every note on its probe's row. */
static void wide_print(FILE *f, const struct probe_outcome *o, size_t n, bool paired)
{
	fprintf(f, "%-*s %10s %21s %6s %10s %9s %9s  %s\n", NAME_WIDE, "probe", "cycles",
		"95% CI of median", "rounds", "ns", "exits/op", "user/op", "note");
	for (size_t i = 0; i < n; i++) {
		const struct latency_result *r = &o[i].res;
		char med[24], lo[24], hi[24], ci[48], rounds[16], ns[24], ex[24], us[24];
		char notes[PROBE_MAX_NOTES][PROBE_NOTE_LEN];
		size_t nn;

		if (r->status != PROBE_OK) {
			fprintf(f, "%-*s %10s %21s %6s %10s %9s %9s  %s: %s\n", NAME_WIDE,
				o[i].probe->name, "-", "-", "-", "-", "-", "-",
				probe_status_name(r->status),
				r->status == PROBE_STOPPED ? "stopped by Ctrl-C" : r->reason);
			continue;
		}
		fmt_num(med, sizeof(med), r->cycles.median);
		fmt_num(lo, sizeof(lo), r->cycles.ci95_lo);
		fmt_num(hi, sizeof(hi), r->cycles.ci95_hi);
		snprintf(ci, sizeof(ci), "%s - %s", lo, hi);
		if (r->n_rounds)
			snprintf(rounds, sizeof(rounds), "%zu", r->n_rounds);
		else
			snprintf(rounds, sizeof(rounds), "-");
		fmt_num(ns, sizeof(ns), r->ns_median);
		fmt_per_op(ex, sizeof(ex), r->per_op.exits);
		fmt_per_op(us, sizeof(us), r->per_op.user_io + r->per_op.user_mmio + r->per_op.user_msr);
		nn = probe_notes(&o[i], notes, PROBE_MAX_NOTES);
		fprintf(f, "%-*s %10s %21s %6s %10s %9s %9s  %s%s%s\n", NAME_WIDE, o[i].probe->name,
			med, ci, rounds, ns, ex, us,
			strcmp(o[i].probe->name, "nop") ? "" : nop_note(paired),
			strcmp(o[i].probe->name, "nop") || !nn ? "" : "; ", nn ? notes[0] : "");
		for (size_t k = 1; k < nn; k++)
			fprintf(f, "%-*s %10s %21s %6s %10s %9s %9s  %s\n", NAME_WIDE, "", "", "",
				"", "", "", "", notes[k]);
	}
}

static void legend_print(FILE *f, bool paired, bool wide, bool emulated)
{
	fprintf(f, "\n");
	if (paired)
		text_wrap_print(f, "cycles: ", 8,
				"median net TSC cycles per op: each probe batch minus the "
				"paired baseline batch (the same loop calling an empty function), "
				"over rounds; ns from the TSC.");
	else
		text_wrap_print(f, "cycles: ", 8,
				"median TSC cycles per op, nop baseline subtracted; ns from the "
				"TSC frequency.");
	if (wide)
		text_wrap_print(f, "95% CI of median: ", 18,
				"over all batches; the CI in a note is the rounds' (the one the "
				"stop rule and compare use).");
	else if (paired)
		text_wrap_print(f, "+-CI: ", 6,
				"half-width of the 95% CI of the round medians, in % of the "
				"median (what --precision judges); rounds: rounds measured; --wide "
				"also shows the CI of all batches, and each probe's notes on "
				"its row.");
	else
		text_wrap_print(f, "+-CI: ", 6,
				"half-width of the 95% CI of the median of the samples, in % "
				"of it; --wide shows the CI's range, and each probe's notes on "
				"its row.");
	text_wrap_print(f, "exits/op: ", 10, emulated
			? "'exits' of the vCPU binary stats fd over the measured region (kvm_pvm "
			  "keeps its own notion of exits there: not hardware VM exits)."
			: "'exits' of the vCPU binary stats fd over the measured region.");
	text_wrap_print(f, "user/op: ", 9,
			"KVM_RUN returns to exitscope (I/O, MMIO, MSR), counted by its run loop.");
}

void probe_table_print(FILE *f, const struct probe_outcome *o, size_t n, const struct probe_table_opts *t)
{
	bool paired = false;

	for (size_t i = 0; i < n; i++)
		paired = paired || o[i].res.n_rounds;
	if (t->wide)
		wide_print(f, o, n, paired);
	else
		table_print(f, o, n, paired);
	if (t->legend)
		legend_print(f, paired, t->wide, t->emulated);
}
