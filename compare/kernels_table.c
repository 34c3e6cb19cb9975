// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernels_table.c - docs/kernels.md's tables from lane results
 * (kernels_table.h). Numbers are written with the fewest decimals that
 * give the value back, after rounding to the column's precision.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare/kernels_table.h"
#include "compare/lane_spread.h"

#define NUM_LEN 40

/* Exits/op that differ by more than this are a change. */
#define KT_EXITS_CHANGE	0.1

/* d with the fewest decimals that read back as d. */
static const char *num(char *buf, double d)
{
	int k;

	for (k = 0; k < 17; k++) {
		snprintf(buf, NUM_LEN, "%.*f", k, d);
		if (strtod(buf, NULL) == d)
			return buf;
	}
	snprintf(buf, NUM_LEN, "%.17g", d);
	return buf;
}

/* A probe's figure in the model's sense: present (ok) or not. */
struct fig {
	bool ok;
	double v;
};

static const struct kernels_run *at(const struct kernels_table *t, size_t dir, size_t lane,
				    size_t src)
{
	return &t->runs[(dir * t->n_lanes + lane) * t->n_sources + src];
}

static const struct run_probe *probe_of(const struct kernels_run *r, const char *name)
{
	return r->run ? result_find_probe(r->run, name) : NULL;
}

static struct fig med(const struct run_probe *p)
{
	if (!p || p->status != PROBE_OK)
		return (struct fig){ false, 0 };
	return (struct fig){ true, p->cycles.median };
}

static struct fig exits(const struct run_probe *p)
{
	if (!p || p->status != PROBE_OK || p->per_op[RESULT_OP_EXITS] < 0)
		return (struct fig){ false, 0 };
	return (struct fig){ true, p->per_op[RESULT_OP_EXITS] };
}

static const char *status_of(const struct run_probe *p)
{
	return p ? probe_status_names[p->status] : "-";
}

/* Lane cycles: to the cycle from 100 on, else to 0.1. */
static const char *cyc(char *buf, double v)
{
	return num(buf, v >= 100 ? round(v) : round(v * 10) / 10);
}

/* Exits/op (or any figure) to 0.01, "-" when absent. */
static const char *ex(char *buf, struct fig f)
{
	return f.ok ? num(buf, round(f.v * 100) / 100) : "-";
}

static const char *cell(char *buf, const struct run_probe *p)
{
	if (!p)
		return "-";
	if (p->status != PROBE_OK)
		return probe_status_names[p->status];
	return cyc(buf, p->cycles.median);
}

/* A percentage to 0.01: "0.16%". */
static const char *pcts(char *buf, double x)
{
	num(buf, round(x * 100) / 100);
	strcat(buf, "%");
	return buf;
}

/* A change in %, signed: to 0.01 below 1 %, else to 0.1. */
static const char *pctstr(char *buf, double x)
{
	double r = fabs(x) < 1 ? round(x * 100) / 100 : round(x * 10) / 10;

	if (r == 0)
		return strcpy(buf, "0%");
	buf[0] = r > 0 ? '+' : '\0';
	buf[1] = '\0';
	num(buf + strlen(buf), r);
	strcat(buf, "%");
	return buf;
}

/* Largest |repeat / first - 1| in % of the probe on any kernel of the lane (0 without repeats). */
static double spread(const struct kernels_table *t, size_t lane, const char *name)
{
	double m = 0;
	size_t d, s;

	for (d = 1; d < t->n_dirs; d++)
		for (s = 0; s < t->n_sources; s++) {
			struct fig b = med(probe_of(at(t, d, lane, s), name));
			struct fig a = med(probe_of(at(t, 0, lane, s), name));

			if (a.ok && b.ok && a.v != 0)
				m = fmax(m, fabs((b.v / a.v - 1) * 100));
		}
	return m;
}

static bool two_vcpus(const struct kernels_table *t, size_t lane, const char *name)
{
	const struct run_probe *p;
	size_t i, d, s;

	for (i = 0; i < t->n_two_vcpus; i++)
		if (!strcmp(t->two_vcpus[i], name))
			return true;
	for (d = 0; d < t->n_dirs; d++)
		for (s = 0; s < t->n_sources; s++) {
			p = probe_of(at(t, d, lane, s), name);
			if (p && lane_two_vcpus(p))
				return true;
		}
	return false;
}

/* The probe's threshold in %: its spread, or twice its spread over the repeats. */
static double thr(const struct kernels_table *t, size_t lane, const char *name)
{
	double sp = two_vcpus(t, lane, name) ? LANE_SPREAD_2VCPU_PCT : LANE_SPREAD_1VCPU_PCT;

	return fmax(sp, 2 * spread(t, lane, name));
}

static bool big(struct fig a, struct fig b, double t)
{
	return a.ok && b.ok && a.v != 0 && fabs((b.v / a.v - 1) * 100) > t &&
	       fabs(b.v - a.v) > LANE_CHANGE_FLOOR_CYCLES;
}

static void change_print(FILE *f, struct fig a, struct fig b, double t)
{
	char buf[NUM_LEN];

	if (!a.ok || !b.ok || a.v == 0) {
		fputs("-", f);
		return;
	}
	pctstr(buf, (b.v / a.v - 1) * 100);
	fprintf(f, big(a, b, t) ? "**%s**" : "%s", buf);
}

static const char *lane_title(const char *lane)
{
	if (!strcmp(lane, "vmx"))
		return "VMX (kvm_intel, Bochs)";
	if (!strcmp(lane, "svm"))
		return "SVM (kvm_amd, Bochs ryzen)";
	return "SVM (kvm_amd, QEMU TCG)";
}

/* The first run file of the lane (lane < n_lanes) or of any lane, in directory order. */
static const struct result_file *first_file(const struct kernels_table *t, size_t lane, bool map)
{
	size_t d, l, s;

	for (d = 0; d < t->n_dirs; d++)
		for (l = 0; l < t->n_lanes; l++)
			for (s = 0; s < t->n_sources; s++) {
				const struct kernels_run *r = at(t, d, l, s);
				const struct result_file *rf = map ? r->map : r->run;

				if ((lane >= t->n_lanes || l == lane) && rf)
					return rf;
			}
	return NULL;
}

static const struct result_map_cpuid_profile *cpuid_profile0(const struct result_file *rf)
{
	return rf && rf->map && rf->map->n_profiles ? &rf->map->profiles[0] : NULL;
}

static const struct result_map_entry *entry_of(const struct kernels_run *r,
					       const struct result_map_entry *key)
{
	const struct result_map_cpuid_profile *p = cpuid_profile0(r->map);
	size_t i;

	for (i = 0; p && i < p->n_entries; i++)
		if (!strcmp(p->entries[i].reg, key->reg) && !strcmp(p->entries[i].name, key->name) &&
		    !strcmp(p->entries[i].op, key->op))
			return &p->entries[i];
	return NULL;
}

/* "owned", "exit N" or the status; "-" without the entry. */
static const char *own(char *buf, const struct result_map_entry *e)
{
	char n[NUM_LEN];

	if (!e)
		return "-";
	if (e->status == MAP_OWNED)
		return "owned";
	if (e->status != MAP_INTERCEPTED)
		return map_status_names[e->status];
	snprintf(buf, NUM_LEN + 8, "exit %s",
		 ex(n, (struct fig){ e->exits_per_op >= 0, e->exits_per_op }));
	return buf;
}

static void runs_print(FILE *f, const struct kernels_table *t)
{
	size_t l, s;

	fputs("Runs (each result's host record):\n\n"
	      "| lane | kernel | source | emulator | started |\n|---|---|---|---|---|\n", f);
	for (l = 0; l < t->n_lanes; l++)
		for (s = 0; s < t->n_sources; s++) {
			const struct kernels_run *r = at(t, 0, l, s);
			const struct host_lane *hl = r->info ? &r->info->host.lane : NULL;
			bool lane = hl && hl->present;

			fprintf(f, "| %s | %s | %s | %s | %s%s |\n", t->lanes[l], t->sources[s],
				lane && hl->kernel_source ? hl->kernel_source : "-",
				lane && hl->emulator ? hl->emulator : "-",
				r->run && r->run->started ? r->run->started : "-",
				r->reused && r->reused[0] ? " (check-lanes run)" : "");
		}
	fputs("\n", f);
}

static void lane_print(FILE *f, const struct kernels_table *t, size_t l)
{
	const struct result_file *first = first_file(t, l, false);
	size_t nrep = t->n_dirs - 1, n = t->n_sources, i, s, k;
	char a[NUM_LEN], b[NUM_LEN];
	const char *sep = "";

	fprintf(f, "### %s: lane cycles and exits/op\n\nMedian lane cycles per op (",
		lane_title(t->lanes[l]));
	for (s = 0; s < n; s++)
		fprintf(f, "%s%s", s ? ", " : "", t->sources[s]);
	fprintf(f, "), the change from the kernel before (bold: larger than the probe's spread "
		   "and %s cycles), exits/op (vCPU stats), spread: how far the probe's median "
		   "moved between boots of one kernel (%s with one vCPU, ",
		num(a, LANE_CHANGE_FLOOR_CYCLES), pcts(b, LANE_SPREAD_1VCPU_PCT));
	fprintf(f, "%s with two: ", pcts(a, LANE_SPREAD_2VCPU_PCT));
	for (i = 0; first && i < first->n_probes; i++)
		if (two_vcpus(t, l, first->probes[i].name)) {
			fprintf(f, "%s`%s`", sep, first->probes[i].name);
			sep = ", ";
		}
	fputs("; docs/kernels.md, Spread)", f);
	if (nrep)
		fprintf(f, ", or twice the largest difference of %zu more run%s of the six from "
			   "these medians (repeat) where that is larger", nrep,
			   nrep > 1 ? "s" : "");
	fputs(".\n\n| probe | ", f);
	for (s = 0; s < n; s++)
		fprintf(f, "%s%s", s ? " | " : "", t->sources[s]);
	fputs(" | ", f);
	for (s = 1; s < n; s++)
		fprintf(f, "%s%s vs %s", s > 1 ? " | " : "", t->sources[s], t->sources[s - 1]);
	fputs(" | ", f);
	for (s = 0; s < n; s++)
		fprintf(f, "%sexits %s", s ? " | " : "", t->sources[s]);
	fprintf(f, " | spread%s |\n|---|", nrep ? " | repeat" : "");
	for (k = 0; k < n * 3 + (nrep ? 1 : 0); k++)
		fprintf(f, "%s---:", k ? "|" : "");
	fputs("|\n", f);
	for (i = 0; first && i < first->n_probes; i++) {
		const char *name = first->probes[i].name;
		double th = thr(t, l, name);

		fprintf(f, "| `%s` | ", name);
		for (s = 0; s < n; s++)
			fprintf(f, "%s%s", s ? " | " : "", cell(a, probe_of(at(t, 0, l, s), name)));
		fputs(" | ", f);
		for (s = 1; s < n; s++) {
			fputs(s > 1 ? " | " : "", f);
			change_print(f, med(probe_of(at(t, 0, l, s - 1), name)),
				     med(probe_of(at(t, 0, l, s), name)), th);
		}
		fputs(" | ", f);
		for (s = 0; s < n; s++)
			fprintf(f, "%s%s", s ? " | " : "",
				ex(a, exits(probe_of(at(t, 0, l, s), name))));
		fprintf(f, " | %s", pcts(a, th));
		if (nrep)
			fprintf(f, " | %s", pcts(b, spread(t, l, name)));
		fputs(" |\n", f);
	}
	fputs("\n", f);
}

static void map_print(FILE *f, const struct kernels_table *t)
{
	const struct result_map_cpuid_profile *p = cpuid_profile0(first_file(t, t->n_lanes, true));
	char buf[NUM_LEN + 8];
	size_t i, l, s;

	fputs("### CR0/CR4 ownership per bit (map, CPUID profile host)\n\n"
	      "owned: the write (or read) never exits; exit N: N exits per op; rejected: the bit "
	      "cannot be set here.\n\n| bit | op | ", f);
	for (l = 0; l < t->n_lanes; l++)
		for (s = 0; s < t->n_sources; s++)
			fprintf(f, "%s%s %s", l || s ? " | " : "", t->lanes[l], t->sources[s]);
	fputs(" |\n|---|---|", f);
	for (l = 0; l < t->n_lanes; l++)
		for (s = 0; s < t->n_sources; s++)
			fputs(l || s ? "|---" : "---", f);
	fputs("|\n", f);
	for (i = 0; p && i < p->n_entries; i++) {
		const struct result_map_entry *e = &p->entries[i];

		fprintf(f, "| %s.%s | %s | ", e->reg, e->name, e->op);
		for (l = 0; l < t->n_lanes; l++)
			for (s = 0; s < t->n_sources; s++)
				fprintf(f, "%s%s", l || s ? " | " : "",
					own(buf, entry_of(at(t, 0, l, s), e)));
		fputs(" |\n", f);
	}
	fputs("\n", f);
}

/* Does step s-1 -> s of the probe's row change: cycles beyond th, exits/op or status? */
static bool step_changed(const struct run_probe *pa, const struct run_probe *pb, double th)
{
	struct fig xa = exits(pa), xb = exits(pb);

	return big(med(pa), med(pb), th) || (xa.ok && xb.ok && fabs(xb.v - xa.v) > KT_EXITS_CHANGE) ||
	       strcmp(status_of(pa), status_of(pb));
}

static void probe_changes_print(FILE *f, const struct kernels_table *t, size_t l, const char *name)
{
	double th = thr(t, l, name);
	char a[NUM_LEN], b[NUM_LEN];
	const char *sep = "";
	size_t s, n = t->n_sources;
	bool any = false;

	for (s = 1; s < n && !any; s++)
		any = step_changed(probe_of(at(t, 0, l, s - 1), name), probe_of(at(t, 0, l, s), name), th);
	if (!any)
		return;
	fprintf(f, "- %s `%s`: ", t->lanes[l], name);
	for (s = 0; s < n; s++)
		fprintf(f, "%s%s %s", s ? ", " : "", t->sources[s],
			cell(a, probe_of(at(t, 0, l, s), name)));
	fputs(" (", f);
	for (s = 1; s < n; s++) {
		const struct run_probe *pa = probe_of(at(t, 0, l, s - 1), name);
		const struct run_probe *pb = probe_of(at(t, 0, l, s), name);
		struct fig xa = exits(pa), xb = exits(pb);

		if (!step_changed(pa, pb, th))
			continue;
		fprintf(f, "%s%s → %s ", sep, t->sources[s - 1], t->sources[s]);
		sep = "; ";
		change_print(f, med(pa), med(pb), th);
		if (xa.ok && xb.ok && fabs(xb.v - xa.v) > KT_EXITS_CHANGE)
			fprintf(f, ", exits/op %s → %s", ex(a, xa), ex(b, xb));
		if (strcmp(status_of(pa), status_of(pb)))
			fprintf(f, ", %s → %s", status_of(pa), status_of(pb));
	}
	fputs(")\n", f);
}

/* Statuses of an entry across the lane's kernels: more than one kind ("exit N" one kind)? */
static void map_changes_print(FILE *f, const struct kernels_table *t, size_t l,
			      const struct result_map_entry *e)
{
	const char *kind = NULL, *k;
	char buf[NUM_LEN + 8];
	size_t s;
	bool differ = false;

	for (s = 0; s < t->n_sources; s++) {
		k = own(buf, entry_of(at(t, 0, l, s), e));
		if (!strcmp(k, "-"))
			continue;
		if (!strncmp(k, "exit", 4))
			k = "exit";
		if (kind && strcmp(kind, k))
			differ = true;
		kind = k;
	}
	if (!differ)
		return;
	fprintf(f, "- %s map %s.%s %s: ", t->lanes[l], e->reg, e->name, e->op);
	for (s = 0; s < t->n_sources; s++)
		fprintf(f, "%s%s %s", s ? ", " : "", t->sources[s],
			own(buf, entry_of(at(t, 0, l, s), e)));
	fputs("\n", f);
}

static void changes_print(FILE *f, const struct kernels_table *t)
{
	const struct result_file *first;
	const struct result_map_cpuid_profile *p;
	char a[NUM_LEN], b[NUM_LEN];
	size_t l, i;

	fprintf(f, "### Changes larger than the probes' spread\n\n"
		   "Cycles by more than the probe's spread (the tables' column: %s with one vCPU, ",
		pcts(a, LANE_SPREAD_1VCPU_PCT));
	fprintf(f, "%s with two%s) and %s cycles, exits/op by more than 0.1, or a probe's status, "
		   "from one kernel to the next, and every change of a map status. A change of "
		   "cycles within the spread is listed unbolded when its exits/op or status "
		   "changed.\n\n",
		pcts(a, LANE_SPREAD_2VCPU_PCT), t->n_dirs > 1 ? ", or twice the repeat" : "",
		num(b, LANE_CHANGE_FLOOR_CYCLES));
	for (l = 0; l < t->n_lanes; l++) {
		first = first_file(t, l, false);
		for (i = 0; first && i < first->n_probes; i++)
			probe_changes_print(f, t, l, first->probes[i].name);
	}
	for (l = 0; l < t->n_lanes; l++) {
		p = cpuid_profile0(first_file(t, l, true));
		for (i = 0; p && i < p->n_entries; i++)
			map_changes_print(f, t, l, &p->entries[i]);
	}
}

int kernels_table_print(FILE *f, const struct kernels_table *t)
{
	size_t l;

	runs_print(f, t);
	for (l = 0; l < t->n_lanes; l++)
		lane_print(f, t, l);
	map_print(f, t);
	changes_print(f, t);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
