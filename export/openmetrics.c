// SPDX-License-Identifier: GPL-2.0-only
/*
 * openmetrics.c - the OpenMetrics text of result files (see openmetrics.h):
 * the label escaping, the families with their units, "# EOF", and the
 * checks that the text holds each series once.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/array_size.h"
#include "base/text.h"
#include "export/openmetrics.h"

#define LABELS_MAX	16

struct label {
	const char *name, *value;
};

/* The labels of one series, built up per sample. */
struct series {
	struct label l[LABELS_MAX];
	size_t n;
	char num[LABELS_MAX][24];	/* storage of integer label values */
};

static void lab(struct series *s, const char *name, const char *value)
{
	if (s->n < LABELS_MAX && value)
		s->l[s->n++] = (struct label){ name, value };
}

static void lab_int(struct series *s, const char *name, long long v)
{
	if (s->n >= LABELS_MAX)
		return;
	snprintf(s->num[s->n], sizeof(s->num[s->n]), "%lld", v);
	lab(s, name, s->num[s->n]);
}

/*
 * A label value: backslash, double quote and line feed escaped, as the
 * text format has them. On a terminal the value first goes through the
 * escaping of strings for a terminal (base/text.h), so an escape sequence
 * in a file shows as \x1b (written \\x1b: the text stays valid) and is
 * not obeyed.
 */
static void put_label_value(FILE *f, const char *v)
{
	char *shown = NULL;

	if (isatty(fileno(f))) {
		size_t len = strlen(v) * 4 + 1;

		shown = malloc(len);
		if (shown)
			v = text_esc(shown, len, v);
		else
			v = "";		/* out of memory: nothing rather than raw bytes */
	}
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '"')
			fputs("\\\"", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	free(shown);
}

/* The unit a family's name ends in (OpenMetrics: the name's last part), or NULL. */
static const char *family_unit(const char *name)
{
	static const char *const units[] = { "cycles", "seconds", "hertz", "ratio" };
	size_t len = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t u = strlen(units[i]);

		if (len > u + 1 && name[len - u - 1] == '_' && !strcmp(name + len - u, units[i]))
			return units[i];
	}
	return NULL;
}

static void family(FILE *f, const char *name, const char *help)
{
	const char *unit = family_unit(name);

	/* HELP text escapes backslash, double quote and line feed; ours has none. */
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	if (unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
}

static void sample(FILE *f, const char *name, const struct series *s, double v)
{
	fputs(name, f);
	for (size_t i = 0; i < s->n; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "{", s->l[i].name);
		put_label_value(f, s->l[i].value);
		fputc('"', f);
	}
	fputs(s->n ? "} " : " ", f);
	if (isnan(v))
		fputs("NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf\n" : "-Inf\n", f);
	else
		fprintf(f, "%.15g\n", v);
}

/* A state set: one series per name (label key), value 1 for the current state. */
static void states(FILE *f, const char *name, struct series *s, const char *key,
		   const char *const *names, size_t n, size_t cur)
{
	for (size_t i = 0; i < n; i++) {
		lab(s, key, names[i]);
		sample(f, name, s, i == cur);
		s->n--;
	}
}

void export_run_label(const char *path, char *buf, size_t len)
{
	const char *base = path ? strrchr(path, '/') : NULL;
	size_t n;

	base = base ? base + 1 : path;
	if (!base || !strcmp(base, "-"))
		base = "";
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	if (!n) {
		base = "run";
		n = 3;
	}
	snprintf(buf, len, "%.*s", (int)n, base);
}

/* ---- the families, one function each, over all runs ---- */

static void fam_info(FILE *f, const struct export_run *r, size_t n)
{
	family(f, "exitscope_info", "The host record of the run as labels; value 1.");
	for (size_t i = 0; i < n; i++) {
		const struct host_record *h = &r[i].rf->host;
		struct series s = { .n = 0 };

		lab(&s, "run", r[i].run);
		lab(&s, "version", r[i].rf->tool_version);
		lab(&s, "kernel", h->kernel);
		lab(&s, "backend", h->backend_module);
		lab(&s, "cpu_vendor", h->cpu_vendor);
		lab(&s, "cpu_model_name", h->cpu_name);
		lab_int(&s, "cpu_family", h->cpu_family);
		lab_int(&s, "cpu_model", h->cpu_model);
		lab_int(&s, "cpu_stepping", h->cpu_stepping);
		lab(&s, "execution_mode", exec_mode_name(h->exec_mode));
		if (h->lane.present) {
			lab(&s, "lane", host_lane_names[h->lane.name]);
			lab(&s, "lane_kernel", host_lane_kernel_names[h->lane.kernel_kind]);
		}
		sample(f, "exitscope_info", &s, 1);
	}
}

/* "2026-11-30T01:39:02Z" as seconds since the epoch, or -1. */
static double utc_seconds(const char *iso)
{
	struct tm tm = { 0 };
	const char *end;

	if (!iso)
		return -1;
	end = strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return -1;
	return (double)timegm(&tm);
}

static void fam_run(FILE *f, const struct export_run *r, size_t n)
{
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= utc_seconds(r[i].rf->finished) >= 0;
	if (any) {
		family(f, "exitscope_run_finished_timestamp_seconds",
		       "When the run finished, seconds since the Unix epoch.");
		for (size_t i = 0; i < n; i++) {
			struct series s = { .n = 0 };
			double t = utc_seconds(r[i].rf->finished);

			lab(&s, "run", r[i].run);
			if (t >= 0)
				sample(f, "exitscope_run_finished_timestamp_seconds", &s, t);
		}
	}
	any = false;
	for (size_t i = 0; i < n; i++)
		any |= r[i].rf->host.tsc_khz > 0;
	if (!any)
		return;
	family(f, "exitscope_host_tsc_hertz", "TSC frequency of the host: cycles per second.");
	for (size_t i = 0; i < n; i++) {
		struct series s = { .n = 0 };

		lab(&s, "run", r[i].run);
		if (r[i].rf->host.tsc_khz > 0)
			sample(f, "exitscope_host_tsc_hertz", &s,
			       (double)r[i].rf->host.tsc_khz * 1000);
	}
}

static void probe_labels(struct series *s, const char *run, const struct run_probe *p)
{
	s->n = 0;
	lab(s, "run", run);
	lab(s, "probe", p->name);
	lab(s, "group", p->group);
}

enum probe_value {
	PV_MEDIAN, PV_CI_LO, PV_CI_HI, PV_SECONDS, PV_EXITS, PV_CI_REL, PV_ROUNDS,
	PV_ROUND_MEAN, PV_ROUND_LO, PV_ROUND_HI, PV_N
};

static const struct {
	const char *name, *help;
} probe_values[PV_N] = {
	[PV_MEDIAN] = { "exitscope_probe_median_cycles",
			"Median cost of one operation over all batches of the probe, TSC cycles, "
			"net of the paired baseline (the same loop without the operation)." },
	[PV_CI_LO] = { "exitscope_probe_ci95_lower_cycles",
		       "Lower bound of the 95% CI of the median over all batches, TSC cycles (too "
		       "narrow for a comparison: see exitscope_probe_round_ci95_lower_cycles)." },
	[PV_CI_HI] = { "exitscope_probe_ci95_upper_cycles",
		       "Upper bound of the 95% CI of the median over all batches, TSC cycles (too "
		       "narrow for a comparison: see exitscope_probe_round_ci95_upper_cycles)." },
	[PV_SECONDS] = { "exitscope_probe_median_seconds",
			 "Median cost of one operation of the probe, seconds (TSC frequency "
			 "known)." },
	[PV_EXITS] = { "exitscope_probe_exits_per_op",
		       "VM exits per operation from the vCPU stats fd (not maintained by every "
		       "backend)." },
	[PV_CI_REL] = { "exitscope_probe_ci95_relative_ratio",
			"Half-width of the 95% CI of the round medians over their mean (run "
			"--method v2)." },
	[PV_ROUNDS] = { "exitscope_probe_rounds",
			"Rounds the probe was measured in, each in a fresh VM (run --method v2)." },
	[PV_ROUND_MEAN] = { "exitscope_probe_round_mean_cycles",
			    "Mean of the round medians (each net of its paired baseline), TSC "
			    "cycles (run --method v2, 2 rounds or more)." },
	[PV_ROUND_LO] = { "exitscope_probe_round_ci95_lower_cycles",
			  "Lower bound of the 95% CI of the mean of the round medians, TSC "
			  "cycles: the interval the stop rule and compare use (run --method v2, 2 "
			  "rounds or more)." },
	[PV_ROUND_HI] = { "exitscope_probe_round_ci95_upper_cycles",
			  "Upper bound of the 95% CI of the mean of the round medians, TSC "
			  "cycles: the interval the stop rule and compare use (run --method v2, 2 "
			  "rounds or more)." },
};

/* The mean of the probe's round medians: false without 2 rounds and their CI. */
static bool round_mean(const struct run_probe *p, double *mean)
{
	double sum = 0;

	if (!p->rounds || p->n_rounds < 2 || p->ci_rel_pct < 0)
		return false;
	for (size_t i = 0; i < p->n_rounds; i++)
		sum += p->rounds[i].median;
	*mean = sum / (double)p->n_rounds;
	return true;
}

/*
 * The value of a measured probe into *out; false when it has none. The
 * round CI is the run's own (its ci_rel_pct, the half-width over the mean
 * of the round medians) around that mean.
 */
static bool probe_value(const struct run_probe *p, enum probe_value v, double *out)
{
	double mean = 0, half;
	bool rounds = round_mean(p, &mean);

	half = rounds ? p->ci_rel_pct / 100 * fabs(mean) : 0;
	switch (v) {
	case PV_MEDIAN: *out = p->cycles.median; return *out >= 0;
	case PV_CI_LO: *out = p->cycles.ci95_lo; return *out >= 0;
	case PV_CI_HI: *out = p->cycles.ci95_hi; return *out >= 0;
	case PV_SECONDS: *out = p->ns_median * 1e-9; return p->ns_median > 0;
	case PV_EXITS: *out = p->per_op[RESULT_OP_EXITS]; return *out >= 0;
	case PV_CI_REL: *out = p->ci_rel_pct / 100; return p->ci_rel_pct >= 0;
	case PV_ROUNDS: *out = (double)p->n_rounds; return p->n_rounds > 0;
	case PV_ROUND_MEAN: *out = mean; return rounds;
	case PV_ROUND_LO: *out = mean - half; return rounds;
	case PV_ROUND_HI: *out = mean + half; return rounds;
	default: return false;
	}
}

/* Why each measured probe stopped (v2 and v1 files that say so): a state set like the status. */
static void fam_probe_stops(FILE *f, const struct export_run *r, size_t n)
{
	struct series s;
	bool head = false;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].rf->n_probes; k++) {
			const struct run_probe *p = &r[i].rf->probes[k];

			if (p->status != PROBE_OK || p->stop == PROBE_STOP_NONE)
				continue;
			if (!head)
				family(f, "exitscope_probe_stop",
				       "Why the probe's measurement ended: 1 for its reason, 0 for "
				       "the others.");
			head = true;
			probe_labels(&s, r[i].run, p);
			/* Every stop reason but "none" (never a measured probe's). */
			states(f, "exitscope_probe_stop", &s, "stop",
			       probe_stop_names + PROBE_STOP_NONE + 1,
			       PROBE_STOP_N - PROBE_STOP_NONE - 1, p->stop - PROBE_STOP_NONE - 1);
		}
}

/*
 * Whatever the status (a probe whose interrupts never came failed): the
 * interrupt probes' delivery counts and mean late wait, the two-vCPU
 * probes' wait for vCPU 1.
 */
static void fam_probe_delivery(FILE *f, const struct export_run *r, size_t n)
{
	static const char *const where[] = { "in_window", "late", "never" };
	bool head[3] = { false, false, false };
	struct series s;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].rf->n_probes; k++) {
			const struct run_probe *p = &r[i].rf->probes[k];
			const struct run_delivery *d = &p->delivery;
			long long cnt[] = { d->in_window, d->late, d->never };

			if (!d->present)
				continue;
			if (!head[0])
				family(f, "exitscope_probe_interrupt_ops",
				       "Operations of an interrupt probe by where their interrupt "
				       "was taken: in its window, late (in the wait after it) or "
				       "never; any status.");
			head[0] = true;
			for (size_t w = 0; w < 3; w++) {
				probe_labels(&s, r[i].run, p);
				lab(&s, "delivery", where[w]);
				sample(f, "exitscope_probe_interrupt_ops", &s, (double)cnt[w]);
			}
		}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].rf->n_probes; k++) {
			const struct run_probe *p = &r[i].rf->probes[k];

			if (!p->delivery.present || p->delivery.late_wait_cycles < 0)
				continue;
			if (!head[1])
				family(f, "exitscope_probe_interrupt_late_wait_cycles",
				       "Mean TSC cycles from an op's window to its late interrupt "
				       "(included in the cost).");
			head[1] = true;
			probe_labels(&s, r[i].run, p);
			sample(f, "exitscope_probe_interrupt_late_wait_cycles", &s,
			       p->delivery.late_wait_cycles);
		}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].rf->n_probes; k++) {
			const struct run_probe *p = &r[i].rf->probes[k];

			if (p->peer_wait_ms < 0)
				continue;
			if (!head[2])
				family(f, "exitscope_probe_peer_wait_seconds",
				       "Two-vCPU probes: the longest wait of vCPU 0 for vCPU 1 to "
				       "be ready; any status.");
			head[2] = true;
			probe_labels(&s, r[i].run, p);
			sample(f, "exitscope_probe_peer_wait_seconds", &s, p->peer_wait_ms / 1000);
		}
}

static void fam_probes(FILE *f, const struct export_run *r, size_t n)
{
	static const char *const user_reasons[] = { "io", "mmio", "msr", "intr" };
	struct series s;
	bool any = false, user = false;

	for (size_t i = 0; i < n; i++)
		any |= r[i].rf->n_probes > 0;
	if (!any)
		return;
	family(f, "exitscope_probe_status",
	       "Outcome of the probe: 1 for its status, 0 for the others.");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].rf->n_probes; k++) {
			probe_labels(&s, r[i].run, &r[i].rf->probes[k]);
			states(f, "exitscope_probe_status", &s, "status", probe_status_names,
			       PROBE_STATUS_N, r[i].rf->probes[k].status);
		}
	for (int v = 0; v < PV_N; v++) {
		bool head = false;

		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < r[i].rf->n_probes; k++) {
				const struct run_probe *p = &r[i].rf->probes[k];
				double val;

				if (p->status != PROBE_OK || !probe_value(p, v, &val))
					continue;
				if (!head)
					family(f, probe_values[v].name, probe_values[v].help);
				head = true;
				probe_labels(&s, r[i].run, p);
				sample(f, probe_values[v].name, &s, val);
			}
	}
	fam_probe_stops(f, r, n);
	fam_probe_delivery(f, r, n);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].rf->n_probes; k++)
			user |= r[i].rf->probes[k].status == PROBE_OK &&
				r[i].rf->probes[k].per_op[RESULT_OP_FIRST_USER] >= 0;
	if (!user)
		return;
	family(f, "exitscope_probe_userspace_exits_per_op",
	       "KVM_RUN returns to userspace per operation by reason, counted by exitscope's run "
	       "loop: exact on every backend.");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].rf->n_probes; k++) {
			const struct run_probe *p = &r[i].rf->probes[k];

			if (p->status != PROBE_OK)
				continue;
			for (int u = 0; u < RESULT_PER_OP_N - RESULT_OP_FIRST_USER; u++) {
				double d = p->per_op[RESULT_OP_FIRST_USER + u];

				if (d < 0)
					continue;
				probe_labels(&s, r[i].run, p);
				lab(&s, "reason", user_reasons[u]);
				sample(f, "exitscope_probe_userspace_exits_per_op", &s, d);
			}
		}
}

static void entry_labels(struct series *s, const char *run,
			 const struct result_map_cpuid_profile *p, const struct result_map_entry *e)
{
	s->n = 0;
	lab(s, "run", run);
	lab(s, "profile", p->name);
	lab(s, "reg", e->reg);
	lab_int(s, "bit", e->bit);
	lab(s, "bit_name", e->name);
	lab(s, "op", e->op);
}

static void fam_map(FILE *f, const struct export_run *r, size_t n)
{
	struct series s;
	bool any = false, exits = false;

	for (size_t i = 0; i < n; i++)
		any |= r[i].rf->map != NULL;
	if (!any)
		return;
	family(f, "exitscope_map_emulated",
	       "1 when the host emulates guest code, so CR bit ownership is not meaningful.");
	for (size_t i = 0; i < n; i++) {
		if (!r[i].rf->map)
			continue;
		s.n = 0;
		lab(&s, "run", r[i].run);
		sample(f, "exitscope_map_emulated", &s, r[i].rf->map->emulated ? 1 : 0);
	}
	family(f, "exitscope_map_bit_status",
	       "Ownership of a CR bit under a CPUID profile: 1 for its status, 0 for the others.");
	for (size_t i = 0; i < n; i++) {
		const struct result_map *m = r[i].rf->map;

		for (size_t p = 0; m && p < m->n_profiles; p++)
			for (size_t e = 0; e < m->profiles[p].n_entries; e++) {
				const struct result_map_entry *en = &m->profiles[p].entries[e];

				entry_labels(&s, r[i].run, &m->profiles[p], en);
				states(f, "exitscope_map_bit_status", &s, "status",
				       map_status_names, MAP_STATUS_N, en->status);
				exits |= en->exits_per_op >= 0;
			}
	}
	if (!exits)
		return;
	family(f, "exitscope_map_bit_exits_per_op",
	       "VM exits per operation on the CR bit under the CPUID profile.");
	for (size_t i = 0; i < n; i++) {
		const struct result_map *m = r[i].rf->map;

		for (size_t p = 0; m && p < m->n_profiles; p++)
			for (size_t e = 0; e < m->profiles[p].n_entries; e++) {
				const struct result_map_entry *en = &m->profiles[p].entries[e];

				if (en->exits_per_op < 0)
					continue;
				entry_labels(&s, r[i].run, &m->profiles[p], en);
				sample(f, "exitscope_map_bit_exits_per_op", &s, en->exits_per_op);
			}
	}
}

static void fam_checks(FILE *f, const struct export_run *r, size_t n)
{
	struct series s;
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= r[i].rf->checks.n > 0;
	if (!any)
		return;
	family(f, "exitscope_check_status",
	       "Outcome of the check: 1 for its status, 0 for the others.");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].rf->checks.n; k++) {
			const struct check_result *c = &r[i].rf->checks.r[k];

			s.n = 0;
			lab(&s, "run", r[i].run);
			lab(&s, "suite", c->suite);
			lab(&s, "check", c->name);
			states(f, "exitscope_check_status", &s, "status", check_status_names,
			       CHECK_STATUS_N, c->status);
		}
}

/* ---- each series once ---- */

struct key {
	char *s;		/* what must be unique */
	char *msg;		/* the message when it is not */
};

static int key_cmp(const void *a, const void *b)
{
	return strcmp(((const struct key *)a)->s, ((const struct key *)b)->s);
}

struct keys {
	struct key *k;
	size_t n, cap;
};

/* Add key s (taken over) with message msg (taken over); -ENOMEM frees both. */
static int key_add(struct keys *ks, char *s, char *msg)
{
	if (ks->n == ks->cap) {
		size_t nc = ks->cap ? ks->cap * 2 : 64;
		struct key *nk = s && msg ? realloc(ks->k, nc * sizeof(*nk)) : NULL;

		if (!nk) {
			free(s);
			free(msg);
			return -ENOMEM;
		}
		ks->k = nk;
		ks->cap = nc;
	}
	if (!s || !msg) {
		free(s);
		free(msg);
		return -ENOMEM;
	}
	ks->k[ks->n++] = (struct key){ s, msg };
	return 0;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, f);
	r = vasprintf(&s, f, ap);
	va_end(ap);
	return r < 0 ? NULL : s;
}

/*
 * What must be unique: the run labels, and within a run the map entries
 * (profile, reg, bit, op) and the checks (suite, name); probe names are
 * unique already (the reader refuses duplicates). A unit separator keeps
 * the parts of a key apart.
 */
static int unique_check(const struct export_run *r, size_t n, struct err *err)
{
	struct keys ks = { 0 };
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const struct result_map *m = r[i].rf->map;
		const char *name = r[i].rf->name;

		for (size_t j = 0; j < i && !rc; j++)
			if (!strcmp(r[i].run, r[j].run)) {
				rc = err_set(err, -EINVAL,
					 "%s and %s would both be run=\"%s\" (the label is "
					 "the file name without .json): rename one", r[j].rf->name,
					 name, r[i].run);
			}
		for (size_t p = 0; m && p < m->n_profiles && !rc; p++)
			for (size_t e = 0; e < m->profiles[p].n_entries && !rc; e++) {
				const struct result_map_entry *en = &m->profiles[p].entries[e];

				rc = key_add(&ks, fmt("%s\x1fm\x1f%s\x1f%s\x1f%lld\x1f%s", r[i].run,
						      m->profiles[p].name, en->reg, en->bit, en->op),
					     fmt("%s: map profile \"%s\" has %s bit %lld "
						 "(%s) twice", name, m->profiles[p].name, en->reg,
						 en->bit, en->op));
			}
		for (size_t c = 0; c < r[i].rf->checks.n && !rc; c++) {
			const struct check_result *ch = &r[i].rf->checks.r[c];

			rc = key_add(&ks,
				     fmt("%s\x1f" "c\x1f%s\x1f%s", r[i].run, ch->suite, ch->name),
				     fmt("%s: check %s.%s appears twice", name, ch->suite,
					 ch->name));
		}
	}
	if (rc == -ENOMEM)
		err_set(err, -ENOMEM, "out of memory");
	if (!rc && ks.n)
		qsort(ks.k, ks.n, sizeof(*ks.k), key_cmp);
	for (size_t i = 1; !rc && i < ks.n; i++) {
		if (strcmp(ks.k[i - 1].s, ks.k[i].s))
			continue;
		rc = err_set(err, -EINVAL, "%s (a series must appear once)", ks.k[i].msg);
	}
	for (size_t i = 0; i < ks.n; i++) {
		free(ks.k[i].s);
		free(ks.k[i].msg);
	}
	free(ks.k);
	return rc;
}

int export_openmetrics(FILE *f, const struct export_run *runs, size_t n, struct err *err)
{
	int rc = unique_check(runs, n, err);

	if (rc)
		return rc;
	fam_info(f, runs, n);
	fam_run(f, runs, n);
	fam_probes(f, runs, n);
	fam_map(f, runs, n);
	fam_checks(f, runs, n);
	fputs("# EOF\n", f);
	return 0;
}
