// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_text.c - an A/B comparison as text for a terminal: at most
 * COMPARE_COLUMNS columns by default (the notes wrapped, the table's
 * essentials), or wide (the full table, every note on one line). Every
 * line that can hold a string of the input files goes out through
 * put_text or a table's name cell, which escape it (base/text.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "compare/compare.h"

#define NAMES_MAX	6	/* probes named in a line; more are counted */

/*
 * text after lead, escaped (base/text.h), in lines of at most
 * COMPARE_COLUMNS columns broken at spaces, the later ones indented by
 * indent (a word longer than a line stands alone); wide: on one line.
 */
static void put_text(FILE *f, bool wide, const char *lead, size_t indent, const char *text)
{
	size_t col = strlen(lead), n, len = strlen(text) * 4 + 1;
	char *esc = malloc(len);
	bool first = true;

	fputs(lead, f);
	if (!esc) {	/* out of memory: the text still escaped, on one line */
		text_put(f, text, strlen(text));
		fputc('\n', f);
		return;
	}
	text_esc(esc, len, text);
	if (wide) {
		fprintf(f, "%s\n", esc);
		free(esc);
		return;
	}
	for (const char *p = esc; *p; p += n) {
		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (!n)
			break;
		if (!first && col + 1 + text_cols(p, n) > COMPARE_COLUMNS) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			first = true;
		}
		if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, n, f);
		col += text_cols(p, n);
		first = false;
	}
	fputc('\n', f);
	free(esc);
}

/*
 * A percentage in at most width characters: "%+.<dec>f%" while it fits,
 * else rounded to a whole number with a k, M, G, T, P or E (10^3 .. 10^18)
 * suffix: +123950.00% is "+124k%". sign: with a sign.
 */
static const char *pct_str(char *buf, size_t len, double v, int dec, size_t width, int sign)
{
	static const char suffix[] = "kMGTPE";
	double a = v;

	snprintf(buf, len, sign ? "%+.*f%%" : "%.*f%%", dec, v);
	if (strlen(buf) <= width || !isfinite(v))
		return buf;
	snprintf(buf, len, sign ? "%+.0f%%" : "%.0f%%", v);
	for (size_t i = 0; strlen(buf) > width && i < sizeof(suffix) - 1; i++) {
		a /= 1000;
		snprintf(buf, len, sign ? "%+.0f%c%%" : "%.0f%c%%", a, suffix[i]);
	}
	return buf;
}

/* A figure of cycles/op in at most width characters: %.1f, else %.3g (1.24e+07); sign: with one. */
static const char *num_str(char *buf, size_t len, double v, size_t width, int sign)
{
	snprintf(buf, len, sign ? "%+.1f" : "%.1f", v);
	if (strlen(buf) > width)
		snprintf(buf, len, sign ? "%+.3g" : "%.3g", v);
	return buf;
}

/*
 * A probe's name escaped and padded to w columns (left-aligned) into buf;
 * cut: a longer one is cut to w columns, its last a "~".
 */
static const char *name_cell(const char *name, int w, int cut, char *buf, size_t len)
{
	size_t n, c;

	text_esc(buf, len, name);
	n = strlen(buf);
	c = text_cols(buf, n);
	if (cut && w > 0 && c > (size_t)w) {
		for (n = 0, c = 0; c + 1 < (size_t)w; c++)
			for (n++; ((unsigned char)buf[n] & 0xc0) == 0x80; n++)
				;
		buf[n++] = '~';
		c++;
	}
	for (; c < (size_t)w && n + 1 < len; c++)
		buf[n++] = ' ';
	buf[n] = 0;
	return buf;
}

/* A warning or note of the comparison: "!!! WARNING: ..." or "note: ...". */
static void put_warning(FILE *f, bool wide, const char *w)
{
	bool loud = !strncmp(w, "WARNING", 7);

	put_text(f, wide, loud ? "!!! " : "", loud ? 4 : 2, w);
}

static const char *status_text(const struct run_probe *p, char *buf, size_t len)
{
	if (p->status == PROBE_OK)
		snprintf(buf, len, "ok");
	else
		snprintf(buf, len, "%s (%s)", probe_status_names[p->status], p->reason);
	return buf;
}

static void print_host(FILE *f, const struct compare_result *cr, bool wide)
{
	char line[1024];
	size_t i;

	if (cr->n_host == 0) {
		fprintf(f, "host: same kernel, backend, CPU, TSC frequency and execution mode\n");
	} else {
		fprintf(f, "host differences (base -> new):\n");
		for (i = 0; i < cr->n_host; i++) {
			snprintf(line, sizeof(line), "%s: %s -> %s", cr->host[i].field,
				 cr->host[i].a, cr->host[i].b);
			put_text(f, wide, "  ", 4, line);
		}
	}
	for (i = 0; i < cr->n_warnings; i++)
		put_warning(f, wide, cr->warnings[i]);
}

/* What base and new are, and how the intervals were drawn. */
static const char *method_text(const struct compare_result *cr, char *buf, size_t len)
{
	unsigned iters = stats_bootstrap_iters(0, 0, cr->opts.iters);
	unsigned long long seed = (unsigned long long)cr->opts.seed;

	if (!cr->n_by_batches)
		return "Welch t, by each probe's model; base, new: the mean of the run means (a "
		       "run's: the mean of its round medians)";
	if (!cr->n_by_rounds)
		snprintf(buf, len,
			 "bootstrap over the samples, %u resamples, seed %llu; base, new: the "
			 "median of the samples", iters, seed);
	else
		snprintf(buf, len, "Welch t, by each probe's model (base, new: the mean of the run "
			 "means), or for model batches the bootstrap over the samples (base, new: "
			 "their medians), %u resamples, seed %llu", iters, seed);
	return buf;
}

/*
 * The estimator of a probe's sides, as the model column names it: "runs",
 * "rounds", "rounds+floor", "runs/rounds" (base/new), "batches".
 */
static const char *model_text(const struct compare_probe *p, char *buf, size_t len)
{
	const char *a = compare_method_names[p->method_a], *b = compare_method_names[p->method_b];
	const char *fl = p->floor ? "+floor" : "";

	if (p->method_a == p->method_b)
		snprintf(buf, len, "%s%s", a, fl);
	else
		snprintf(buf, len, "%s/%s%s", a, b, fl);
	return buf;
}

static int compared(const struct compare_probe *p)
{
	return p->verdict != COMPARE_NOT_RUN;
}

/*
 * Wide: one line saying what the estimator words of the model column mean.
 * Default (no model column): each estimator with how many probes have it,
 * the probes named but for the most common one's, then the words.
 */
static void print_models(FILE *f, const struct compare_result *cr, bool wide)
{
	bool used[COMPARE_METHOD_N] = { false }, floor = false, mixed = false;
	char line[2048], seen[8][24], m[24], top[24] = "";
	size_t n_seen = 0, cnt[8] = { 0 }, best = 0, i, k, len = 0;
	const char *sep = "";

	for (i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (!compared(p))
			continue;
		used[p->method_a] = used[p->method_b] = true;
		floor |= p->floor != NULL;
		mixed |= p->method_a != p->method_b;
		model_text(p, m, sizeof(m));
		for (k = 0; k < n_seen && strcmp(seen[k], m); k++)
			;
		if (k == n_seen && n_seen < 8)
			snprintf(seen[n_seen++], sizeof(seen[0]), "%s", m);
		if (k < n_seen && ++cnt[k] > best) {
			best = cnt[k];
			snprintf(top, sizeof(top), "%s", m);
		}
	}
	line[0] = 0;
#define ADD(...) (len += (size_t)snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0, \
					  __VA_ARGS__), len = len < sizeof(line) ? len : sizeof(line) - 1)
	ADD("model:");
	for (k = 0; !wide && k < n_seen; k++) {
		size_t named = 0;

		ADD("%s %s (%zu probe%s", k ? ";" : "", seen[k], cnt[k], cnt[k] == 1 ? "" : "s");
		for (i = 0; strcmp(seen[k], top) && i < cr->n_probes; i++) {
			if (!compared(&cr->probes[i]) ||
			    strcmp(model_text(&cr->probes[i], m, sizeof(m)), seen[k]))
				continue;
			if (named++ < NAMES_MAX)
				ADD("%s%.40s", named == 1 ? ": " : ", ", cr->probes[i].name);
		}
		if (named > NAMES_MAX)
			ADD(" and %zu more", named - NAMES_MAX);
		ADD(")");
	}
	if (!wide)
		ADD(" -");
	if (used[COMPARE_METHOD_RUNS]) {
		ADD(" runs = a side's variance from the spread of its run means");
		sep = ";";
	}
	if (used[COMPARE_METHOD_ROUNDS]) {
		ADD("%s rounds = from the rounds within each run", sep);
		sep = ";";
	}
	if (floor) {
		ADD("%s +floor = and the noise floor's between-run variance", sep);
		sep = ";";
	}
	if (mixed) {
		ADD("%s a/b = base's/new's", sep);
		sep = ";";
	}
	if (used[COMPARE_METHOD_BATCHES])
		ADD("%s batches = no rounds: bootstrap over the samples", sep);
	if (wide)
		ADD("; runs: base/new");
#undef ADD
	put_text(f, wide, "", 2, line);
}

/* Default: the probes that did not run in every file of a side, with their runs. */
static void print_runs(FILE *f, const struct compare_result *cr)
{
	char line[1024] = "runs (base/new) of the probes not measured in every run:";
	size_t k = 0;

	for (size_t i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (!compared(p) || (p->runs_a == cr->n_files_a && p->runs_b == cr->n_files_b))
			continue;
		if (k++ < NAMES_MAX)
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 "%s %.40s %zu/%zu", k > 1 ? "," : "", p->name, p->runs_a,
				 p->runs_b);
	}
	if (k > NAMES_MAX)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " and %zu more",
			 k - NAMES_MAX);
	if (k)
		put_text(f, false, "", 2, line);
}

/* The verdict column; (b): compared by batches in a table of probes by rounds. */
static const char *verdict_text(const struct compare_result *cr, const struct compare_probe *p,
				bool wide, char *buf, size_t len)
{
	const char *b = p->method == COMPARE_METHOD_BATCHES && cr->n_by_rounds ? " (b)" : "";

	char mde[32];

	if (p->verdict == COMPARE_TOO_NOISY)
		snprintf(buf, len,
			 wide ? "too noisy (could detect >= %s)%s" : "too noisy (>= %s)%s",
			 pct_str(mde, sizeof(mde), p->mde_pct, 1, wide ? 30 : 6, 0), b);
	else
		snprintf(buf, len, "%s%s", compare_verdict_names[p->verdict], b);
	return buf;
}

/* The name column's width: the longest name, at most max. */
static int name_width(const struct compare_result *cr, size_t max)
{
	char buf[256];
	size_t w = 5;

	for (size_t i = 0; i < cr->n_probes; i++) {
		size_t c;

		if (!compared(&cr->probes[i]))
			continue;
		text_esc(buf, sizeof(buf), cr->probes[i].name);
		c = text_cols(buf, strlen(buf));
		w = c > w ? c : w;
	}
	return (int)(w > max ? max : w);
}

/* The full table: cycles and percent, the interval in cycles, model, runs. */
static void print_table_wide(FILE *f, const struct compare_result *cr)
{
	char ci[64], pct[32], v[64], model[40], runs[32], name[256];
	int w = name_width(cr, 40);

	fprintf(f, "  %-*s %12s %12s %11s %9s  %-25s %-12s %-5s %s\n", w, "probe", "base", "new",
		"diff", "diff%", "95% CI of diff", "model", "runs", "verdict");
	for (size_t i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (!compared(p))
			continue;
		snprintf(ci, sizeof(ci), "[%+.1f, %+.1f]", p->d.lo, p->d.hi);
		if (p->has_pct)
			snprintf(pct, sizeof(pct), "%+.2f%%", p->pct);
		else
			snprintf(pct, sizeof(pct), "n/a");
		snprintf(runs, sizeof(runs), "%zu/%zu", p->runs_a, p->runs_b);
		fprintf(f, "  %s %12.1f %12.1f %+11.1f %9s  %-25s %-12s %-5s %s\n",
			name_cell(p->name, w, 0, name, sizeof(name)),
			p->d.median_a, p->d.median_b, p->d.diff, pct, ci,
			model_text(p, model, sizeof(model)), runs, verdict_text(cr, p, 1, v, sizeof(v)));
	}
}

/*
 * A row of the table but its name: base, new, the change and its interval
 * in % of base (in cycles where base has no percentage), each within its
 * column (pct_str, num_str), and the verdict. Its length.
 */
static size_t row_tail(const struct compare_result *cr, const struct compare_probe *p, char *buf,
		       size_t len)
{
	char a[32], b[32], pct[32], lo[32], hi[32], ci[80], v[80];

	if (p->has_pct) {
		pct_str(pct, sizeof(pct), p->pct, 2, 8, 1);
		snprintf(ci, sizeof(ci), "[%s, %s]", pct_str(lo, sizeof(lo), p->pct_lo, 1, 6, 1),
			 pct_str(hi, sizeof(hi), p->pct_hi, 1, 6, 1));
	} else {
		snprintf(pct, sizeof(pct), "n/a");
		snprintf(ci, sizeof(ci), "[%s, %s]", num_str(lo, sizeof(lo), p->d.lo, 6, 1),
			 num_str(hi, sizeof(hi), p->d.hi, 6, 1));
	}
	snprintf(buf, len, " %9s %9s %8s  %-16s %s", num_str(a, sizeof(a), p->d.median_a, 9, 0),
		 num_str(b, sizeof(b), p->d.median_b, 9, 0), pct, ci, verdict_text(cr, p, 0, v, sizeof(v)));
	return strlen(buf);
}

/*
 * The table in COMPARE_COLUMNS: names up to 27 columns, fewer (cut, "~")
 * where the widest row's other cells leave less.
 */
static void print_table(FILE *f, const struct compare_result *cr)
{
	char tail[256], name[256];
	size_t rest = 0;
	int w = name_width(cr, 27);

	for (size_t i = 0; i < cr->n_probes; i++)
		if (compared(&cr->probes[i]) && row_tail(cr, &cr->probes[i], tail, sizeof(tail)) > rest)
			rest = strlen(tail);
	if (2 + (size_t)w + rest > COMPARE_COLUMNS)
		w = rest + 2 + 5 < COMPARE_COLUMNS ? (int)(COMPARE_COLUMNS - 2 - rest) : 5;
	fprintf(f, "  %-*s %9s %9s %8s  %-16s %s\n", w, "probe", "base", "new", "diff%", "95% CI",
		"verdict");
	for (size_t i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (!compared(p))
			continue;
		row_tail(cr, p, tail, sizeof(tail));
		fprintf(f, "  %s%s\n", name_cell(p->name, w, 1, name, sizeof(name)), tail);
	}
}

/* Default: what the figures are, without how they were put at speed (wide and docs say). */
static const char *figures_text(const struct compare_result *cr, char *buf, size_t len)
{
	if (cr->normalized && cr->n_normalized)
		snprintf(buf, len, "figures: net cycles/op at the base side's guest speed (%s; "
			 "--wide says how)", cr->normalize_why);
	else
		return compare_normalize_line(cr, buf, len);
	return buf;
}

static void print_probes(FILE *f, const struct compare_result *cr, bool wide)
{
	char how[512], line[1024];

	if (cr->n_probes == cr->n_not_run) {
		fprintf(f, "\nprobes: none compared\n");
		return;
	}
	snprintf(line, sizeof(line), "(cycles/op%s; 95%% CI of the difference%s by %s; "
		 "threshold %.1f%%):", cr->normalized ? " at the base side's guest speed" : "",
		 wide ? "" : " (diff% and CI in % of base)", method_text(cr, how, sizeof(how)),
		 cr->opts.threshold_pct);
	fputc('\n', f);
	put_text(f, wide, "probes ", 2, line);
	if (cr->n_files_a > 1 || cr->n_files_b > 1)
		fprintf(f, "  (%zu base run%s, %zu new run%s)\n", cr->n_files_a,
			cr->n_files_a == 1 ? "" : "s", cr->n_files_b,
			cr->n_files_b == 1 ? "" : "s");
	if (wide)
		print_table_wide(f, cr);
	else
		print_table(f, cr);
	print_models(f, cr, wide);
	if (!wide)
		print_runs(f, cr);
	put_text(f, wide, "", 2, wide ? compare_normalize_line(cr, line, sizeof(line)) :
				      figures_text(cr, line, sizeof(line)));
	if (compare_speed_line(cr, line, sizeof(line)))
		put_text(f, wide, "", 2, line);
	if (cr->method_note)
		put_text(f, wide, "", 2, cr->method_note);
	if (cr->r2r_note)
		put_text(f, wide, "", 2, cr->r2r_note);
	if (cr->n_too_noisy) {
		snprintf(line, sizeof(line), "note: 'too noisy': the interval is wider than the "
			 "threshold, so a change of %.1f%% could not have been told from noise; "
			 "not a regression (add runs per side or rounds per run)%s",
			 cr->opts.threshold_pct,
			 wide ? "" : "; '>= X%': the smallest change it could have detected");
		put_text(f, wide, "", 2, line);
	}
}

/* Which floor went into the intervals: file, host, exitscope, when, K runs. */
static void print_floor(FILE *f, const struct compare_result *cr, bool wide)
{
	const struct noise_floor *nf = cr->noise;
	char line[2048], *e;

	if (!nf)
		return;
	snprintf(line, sizeof(line),
		 "noise floor: %s: %lld runs by exitscope %s on %s (%s, %s%s%s), kernel %s, ",
		 nf->name ? nf->name : "(estimated)", nf->runs,
		 nf->tool_version ? nf->tool_version : EXITSCOPE_VERSION, nf->host.cpu_name,
		 nf->host.backend_module, exec_mode_name(nf->host.exec_mode),
		 nf->host.lane.present ? ", lane " : "",
		 nf->host.lane.present ? host_lane_names[nf->host.lane.name] : "", nf->host.kernel);
	e = line + strlen(line);
	if (nf->first_started && nf->last_finished)
		snprintf(e, sizeof(line) - (size_t)(e - line), "measured %s to %s",
			 nf->first_started, nf->last_finished);
	else
		snprintf(e, sizeof(line) - (size_t)(e - line), "created %s",
			 nf->created ? nf->created : "now");
	e = line + strlen(line);
	snprintf(e, sizeof(line) - (size_t)(e - line), "; in the interval of %zu of %zu probes "
		 "compared by rounds", cr->n_floor, cr->n_by_rounds);
	put_text(f, wide, "", 2, line);
}

/* A list of lines under a heading ("  " each, wrapped with 4). */
static void print_counters(FILE *f, const struct compare_counter *c, size_t n, bool wide)
{
	char line[512];

	for (size_t i = 0; i < n; i++)
		put_text(f, wide, "  ", 4, compare_counter_line(&c[i], line, sizeof(line)));
}

/* A probe that was not compared: why, said once when both sides say the same. */
static void print_not_run(FILE *f, const struct compare_probe *p, bool wide)
{
	char sa[512], sb[512], line[1400];

	if (p->why)
		snprintf(line, sizeof(line), "%s: %s", p->name, p->why);
	else if (p->a->status == p->b->status && p->a->status != PROBE_OK &&
		 !strcmp(p->a->reason, p->b->reason))
		snprintf(line, sizeof(line), "%s: %s on both sides (%s)", p->name,
			 probe_status_names[p->a->status], p->a->reason);
	else if (status_text(p->a, sa, sizeof(sa)) && status_text(p->b, sb, sizeof(sb)))
		snprintf(line, sizeof(line), "%s: base %s, new %s", p->name, sa, sb);
	put_text(f, wide, "  ", 4, line);
}

static void print_only(FILE *f, const char *side, const char *const *names, size_t n, bool wide)
{
	char line[4096];
	size_t len;

	if (!n)
		return;
	len = (size_t)snprintf(line, sizeof(line), "only in %s:", side);
	for (size_t i = 0; i < n && len < sizeof(line); i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, " %s", names[i]);
	put_text(f, wide, "", 2, line);
}

void compare_print(FILE *f, const struct compare_result *cr, bool wide)
{
	char line[1024];
	size_t i;

	snprintf(line, sizeof(line), "%s (base) -> %s (new)", cr->name_a, cr->name_b);
	put_text(f, wide, "exitscope compare: ", 2, line);
	print_host(f, cr, wide);
	print_floor(f, cr, wide);
	print_probes(f, cr, wide);
	if (cr->n_counters) {
		fprintf(f, "\nper-op counter changes:\n");
		print_counters(f, cr->counters, cr->n_counters, wide);
	}
	if (cr->n_unjudged) {
		fputc('\n', f);
		put_text(f, wide, "", 2, "per-op counter differences not judged (one run on a "
			 "side, not a whole number per op, and the counts do not exclude chance "
			 "or the step is no larger than the host's own exits per op: how a run's "
			 "counters vary from run to run is unknown; 2 runs or more a side judge "
			 "them):");
		print_counters(f, cr->unjudged, cr->n_unjudged, wide);
	}
	if (cr->map_compared) {
		fputs(cr->n_map ? "\nownership map changes:\n" : "\nownership map: no changes\n",
		      f);
		for (i = 0; i < cr->n_map; i++)
			put_text(f, wide, "  ", 4,
				 compare_map_line(cr, &cr->map[i], line, sizeof(line)));
	}
	if (cr->checks_compared) {
		fputs(cr->n_checks ? "\ncheck status changes:\n" : "\nchecks: no status changes\n",
		      f);
		for (i = 0; i < cr->n_checks; i++)
			put_text(f, wide, "  ", 4,
				 compare_check_line(&cr->checks[i], line, sizeof(line)));
	}
	if (cr->n_not_run) {
		fprintf(f, "\nnot compared:\n");
		for (i = 0; i < cr->n_probes; i++)
			if (!compared(&cr->probes[i]))
				print_not_run(f, &cr->probes[i], wide);
	}
	if (cr->n_only_a || cr->n_only_b)
		fputc('\n', f);
	print_only(f, "base", cr->only_a, cr->n_only_a, wide);
	print_only(f, "new", cr->only_b, cr->n_only_b, wide);
	snprintf(line, sizeof(line), "%zu faster, %zu slower, %zu no significant change, %zu too "
		 "noisy, %zu not judged, %zu not compared, %zu only in base, %zu only in new",
		 cr->n_faster, cr->n_slower, cr->n_same, cr->n_too_noisy, cr->n_not_judged,
		 cr->n_not_run, cr->n_only_a, cr->n_only_b);
	fputc('\n', f);
	put_text(f, wide, "summary: ", 2, line);
	path_changes_print(f, &cr->paths);
}
