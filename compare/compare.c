/* compare.c - A/B comparison of two result files: host differences, per-probe verdicts, exits/op, map and check changes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

const char *const compare_verdict_names[COMPARE_VERDICT_N] = {
	"faster", "slower", "no significant change", "not compared",
};

void compare_opts_init(struct compare_opts *o)
{
	o->threshold_pct = COMPARE_THRESHOLD_PCT;
	o->seed = COMPARE_SEED;
	o->iters = 0;
}

/*
 * Append a zeroed element to the growing array whose pointer is at arrp
 * (any element type: the pointer is moved with memcpy, so no aliasing
 * games); NULL when out of memory.
 */
static void *push(void *arrp, size_t *n, size_t size)
{
	char *arr, *na;

	memcpy(&arr, arrp, sizeof(arr));
	if ((*n & (*n - 1)) == 0) {	/* grow at powers of two */
		na = realloc(arr, (*n ? *n * 2 : 1) * size);
		if (!na)
			return NULL;
		arr = na;
		memcpy(arrp, &arr, sizeof(arr));
	}
	na = arr + *n * size;
	memset(na, 0, size);
	(*n)++;
	return na;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	return rc < 0 ? NULL : s;
}

static int add_host(struct compare_result *cr, const char *field, const char *a, const char *b)
{
	struct compare_host_diff *d;

	if (strcmp(a, b) == 0)
		return 0;
	d = push(&cr->host, &cr->n_host, sizeof(*d));
	if (!d)
		return -1;
	d->field = strdup(field);
	d->a = strdup(a);
	d->b = strdup(b);
	return d->field && d->a && d->b ? 0 : -1;
}

static int add_warning(struct compare_result *cr, char *msg)
{
	char **w;

	if (!msg)
		return -1;
	w = push(&cr->warnings, &cr->n_warnings, sizeof(*w));
	if (!w) {
		free(msg);
		return -1;
	}
	*w = msg;
	return 0;
}

static const char *param_value(const struct host_record *h, const char *key)
{
	size_t i;

	for (i = 0; i < h->n_backend_params; i++)
		if (strcmp(h->backend_params[i].key, key) == 0)
			return h->backend_params[i].value;
	return NULL;
}

static char *cpu_desc(const struct host_record *h)
{
	return xasprintf("%s (%s family %lld model %lld stepping %lld)", h->cpu_name,
			 h->cpu_vendor, h->cpu_family, h->cpu_model, h->cpu_stepping);
}

static int compare_params(struct compare_result *cr, const struct host_record *a,
			  const struct host_record *b)
{
	char field[128];
	const char *v;
	size_t i;

	for (i = 0; i < a->n_backend_params; i++) {
		v = param_value(b, a->backend_params[i].key);
		snprintf(field, sizeof(field), "backend.params.%s", a->backend_params[i].key);
		if (add_host(cr, field, a->backend_params[i].value, v ? v : "(unset)"))
			return -1;
	}
	for (i = 0; i < b->n_backend_params; i++) {
		if (param_value(a, b->backend_params[i].key))
			continue;
		snprintf(field, sizeof(field), "backend.params.%s", b->backend_params[i].key);
		if (add_host(cr, field, "(unset)", b->backend_params[i].value))
			return -1;
	}
	return 0;
}

/* A setting as text ("(unset)" when absent), for the host-difference lines. */
static void setting_text(char *buf, size_t len, long long v, bool hex)
{
	if (v < 0)
		snprintf(buf, len, "(unset)");
	else
		snprintf(buf, len, hex ? "%#llx" : "%lld", v);
}

/*
 * How the two runs measured: a different sample count or budget changes
 * the CI, a different guest XCR0 changes what an exit costs.
 */
static int compare_settings(struct compare_result *cr, const struct run_settings *a,
			    const struct run_settings *b)
{
	char va[32], vb[32];

	setting_text(va, sizeof(va), a->samples, false);
	setting_text(vb, sizeof(vb), b->samples, false);
	if (add_host(cr, "settings.samples", va, vb))
		return -1;
	setting_text(va, sizeof(va), a->guest_xcr0, true);
	setting_text(vb, sizeof(vb), b->guest_xcr0, true);
	if (add_host(cr, "settings.guest_xcr0", va, vb))
		return -1;
	if (strcmp(va, vb) &&
	    add_warning(cr, xasprintf("WARNING: the runs set different guest XCR0 (--guest-xcr0: "
				      "%s: %s, %s: %s): exits that switch XCR0 cost differently",
				      cr->name_a, va, cr->name_b, vb)))
		return -1;
	return 0;
}

/* The lane kernel's patches as one line ("(none)"); malloc'd, NULL when out of memory. */
static char *lane_patches(const struct host_lane *l)
{
	size_t len = 1;
	char *s;

	if (!l->n_kernel_patches)
		return strdup("(none)");
	for (size_t i = 0; i < l->n_kernel_patches; i++)
		len += strlen(l->kernel_patches[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (size_t i = 0; i < l->n_kernel_patches; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, l->kernel_patches[i]);
	}
	return s;
}

/* Two lane runs: the kernels may differ by config and patches under one release. */
static int compare_lanes(struct compare_result *cr, const struct host_lane *a,
			 const struct host_lane *b)
{
	char *pa = lane_patches(a), *pb = lane_patches(b);
	int rc = -1;

	if (pa && pb &&
	    !add_host(cr, "lane.name", host_lane_names[a->name], host_lane_names[b->name]) &&
	    !add_host(cr, "lane.kernel.config_sha256",
		      a->kernel_config_sha256 ? a->kernel_config_sha256 : "(unknown)",
		      b->kernel_config_sha256 ? b->kernel_config_sha256 : "(unknown)") &&
	    !add_host(cr, "lane.kernel.patches", pa, pb))
		rc = 0;
	free(pa);
	free(pb);
	return rc;
}

static int compare_host(struct compare_result *cr, const struct host_record *a,
			const struct host_record *b)
{
	char *ca = cpu_desc(a), *cb = cpu_desc(b), ta[32], tb[32];
	const char *ma = exec_mode_names[a->exec_mode], *mb = exec_mode_names[b->exec_mode];
	int rc = -1;

	if (!ca || !cb)
		goto out;
	snprintf(ta, sizeof(ta), "%lld", a->tsc_khz);
	snprintf(tb, sizeof(tb), "%lld", b->tsc_khz);
	if (add_host(cr, "kernel", a->kernel, b->kernel) ||
	    add_host(cr, "backend.module", a->backend_module, b->backend_module) ||
	    compare_params(cr, a, b) ||
	    add_host(cr, "cpu", ca, cb) ||
	    add_host(cr, "tsc_khz", ta, tb) ||
	    add_host(cr, "execution.mode", ma, mb) ||
	    (a->lane.present && b->lane.present && compare_lanes(cr, &a->lane, &b->lane)))
		goto out;
	if (a->exec_mode != b->exec_mode &&
	    add_warning(cr, xasprintf("WARNING: execution modes differ (%s: %s, %s: %s): "
				      "cycle counts of an emulated run are not comparable "
				      "with a native one", cr->name_a, ma, cr->name_b, mb)))
		goto out;
	if (a->exec_mode == EXEC_EMULATED && b->exec_mode == EXEC_EMULATED &&
	    add_warning(cr, xasprintf("note: both runs were emulated: cycles measure the "
				      "emulator, not the hardware")))
		goto out;
	if (strcmp(ca, cb) != 0 &&
	    add_warning(cr, xasprintf("WARNING: CPUs differ (%s: %s, %s: %s): differences "
				      "may come from the hardware, not the change under test",
				      cr->name_a, ca, cr->name_b, cb)))
		goto out;
	rc = 0;
out:
	free(ca);
	free(cb);
	return rc;
}

/* Sorted index of strings, for matching by name without quadratic scans. */
struct key_ref {
	const char *key;
	size_t idx;
};

static int cmp_key_ref(const void *pa, const void *pb)
{
	const struct key_ref *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

static const struct key_ref *find_key(const struct key_ref *refs, size_t n, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(refs[mid].key, key);

		if (c == 0) {
			while (mid > 0 && strcmp(refs[mid - 1].key, key) == 0)
				mid--;
			return &refs[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct key_ref *probe_index(const struct result_file *rf)
{
	struct key_ref *refs = malloc((rf->n_probes ? rf->n_probes : 1) * sizeof(*refs));
	size_t i;

	if (!refs)
		return NULL;
	for (i = 0; i < rf->n_probes; i++) {
		refs[i].key = rf->probes[i].name;
		refs[i].idx = i;
	}
	qsort(refs, rf->n_probes, sizeof(*refs), cmp_key_ref);
	return refs;
}

/* Per-probe seed: independent of probe order, so adding a probe changes no other CI. */
static uint64_t probe_seed(uint64_t seed, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*name)
		h = (h ^ (unsigned char)*name++) * 0x100000001b3ULL;
	seed += h;
	return stats_splitmix64(&seed);
}

static int compare_probe(struct compare_result *cr, struct compare_probe *p)
{
	const struct run_probe *a = p->a, *b = p->b;
	int significant;

	if (a->status != PROBE_OK || b->status != PROBE_OK) {
		p->verdict = COMPARE_NOT_RUN;
		cr->n_not_run++;
		return 0;
	}
	if (stats_bootstrap_median_diff(a->samples, a->n_samples, b->samples, b->n_samples,
					cr->opts.iters, probe_seed(cr->opts.seed, p->name), &p->d))
		return -1;
	p->has_pct = p->d.median_a > 0;
	if (p->has_pct) {
		p->pct = 100 * p->d.diff / p->d.median_a;
		p->pct_lo = 100 * p->d.lo / p->d.median_a;
		p->pct_hi = 100 * p->d.hi / p->d.median_a;
	}
	/* Significant: the CI excludes 0 and the change reaches the threshold. */
	significant = (p->d.lo > 0 || p->d.hi < 0) &&
		      (!p->has_pct || fabs(p->pct) >= cr->opts.threshold_pct);
	if (!significant) {
		p->verdict = COMPARE_SAME;
		cr->n_same++;
	} else if (p->d.diff < 0) {
		p->verdict = COMPARE_FASTER;
		cr->n_faster++;
	} else {
		p->verdict = COMPARE_SLOWER;
		cr->n_slower++;
	}
	return 0;
}

static int compare_counters(struct compare_result *cr, const struct compare_probe *p)
{
	struct compare_counter *c;
	int i;

	if (p->a->status != PROBE_OK || p->b->status != PROBE_OK)
		return 0;
	for (i = 0; i < RESULT_PER_OP_N; i++) {
		double va = p->a->per_op[i], vb = p->b->per_op[i];

		/* The run-loop counters are optional: compared when both files have them. */
		if (va < 0 || vb < 0)
			continue;
		/* Whole-number steps are facts; drift of a few percent is noise. */
		if (fabs(va - vb) < COMPARE_COUNTER_EPS ||
		    fabs(va - vb) < COMPARE_COUNTER_REL * fmax(va, vb))
			continue;
		c = push(&cr->counters, &cr->n_counters, sizeof(*c));
		if (!c)
			return -1;
		c->probe = p->name;
		c->counter = result_per_op_names[i];
		c->a = va;
		c->b = vb;
		if (i == RESULT_OP_EXITS && vb < COMPARE_COUNTER_ZERO)
			c->note = "now guest-owned";
		else if (i == RESULT_OP_EXITS && va < COMPARE_COUNTER_ZERO)
			c->note = "now intercepted";
	}
	return 0;
}

static int compare_probes(struct compare_result *cr, const struct result_file *a,
			  const struct result_file *b)
{
	struct key_ref *ia = probe_index(a), *ib = probe_index(b);
	const struct key_ref *r;
	struct compare_probe *p;
	size_t i;
	int rc = -1;

	if (!ia || !ib)
		goto out;
	cr->probes = calloc(a->n_probes ? a->n_probes : 1, sizeof(*cr->probes));
	cr->only_a = calloc(a->n_probes ? a->n_probes : 1, sizeof(*cr->only_a));
	cr->only_b = calloc(b->n_probes ? b->n_probes : 1, sizeof(*cr->only_b));
	if (!cr->probes || !cr->only_a || !cr->only_b)
		goto out;
	for (i = 0; i < a->n_probes; i++) {
		r = find_key(ib, b->n_probes, a->probes[i].name);
		if (!r) {
			cr->only_a[cr->n_only_a++] = a->probes[i].name;
			continue;
		}
		p = &cr->probes[cr->n_probes++];
		p->name = a->probes[i].name;
		p->group = a->probes[i].group;
		p->a = &a->probes[i];
		p->b = &b->probes[r->idx];
		if (compare_probe(cr, p) || compare_counters(cr, p))
			goto out;
	}
	for (i = 0; i < b->n_probes; i++)
		if (!find_key(ia, a->n_probes, b->probes[i].name))
			cr->only_b[cr->n_only_b++] = b->probes[i].name;
	rc = 0;
out:
	free(ia);
	free(ib);
	return rc;
}

/* Map entries are matched on (reg, bit, op). */
static int cmp_entry(const void *pa, const void *pb)
{
	const struct result_map_entry *a = *(const struct result_map_entry *const *)pa;
	const struct result_map_entry *b = *(const struct result_map_entry *const *)pb;
	int c = strcmp(a->reg, b->reg);

	if (c)
		return c;
	if (a->bit != b->bit)
		return a->bit < b->bit ? -1 : 1;
	return strcmp(a->op, b->op);
}

static const struct result_map_entry **sorted_entries(const struct result_map_profile *p)
{
	const struct result_map_entry **v = malloc((p->n_entries ? p->n_entries : 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < p->n_entries; i++)
		v[i] = &p->entries[i];
	qsort(v, p->n_entries, sizeof(*v), cmp_entry);
	return v;
}

static int add_map_change(struct compare_result *cr, const char *profile,
			  const struct result_map_entry *ea, const struct result_map_entry *eb)
{
	const struct result_map_entry *e = ea ? ea : eb;
	struct compare_map_change *m = push(&cr->map, &cr->n_map, sizeof(*m));

	if (!m)
		return -1;
	m->profile = profile;
	if (!e)
		return 0;
	m->reg = e->reg;
	m->name = e->name;
	m->op = e->op;
	m->bit = e->bit;
	m->a = ea ? map_status_names[ea->status] : NULL;
	m->b = eb ? map_status_names[eb->status] : NULL;
	m->a_exits = ea ? ea->exits_per_op : -1;
	m->b_exits = eb ? eb->exits_per_op : -1;
	m->a_cycles = ea ? ea->cycles_per_op : -1;
	m->b_cycles = eb ? eb->cycles_per_op : -1;
	return 0;
}

static int compare_profile(struct compare_result *cr, const struct result_map_profile *pa,
			   const struct result_map_profile *pb)
{
	const struct result_map_entry **va = sorted_entries(pa), **vb = sorted_entries(pb);
	size_t i = 0, j = 0;
	int c, rc = -1;

	if (!va || !vb)
		goto out;
	while (i < pa->n_entries || j < pb->n_entries) {
		if (i == pa->n_entries)
			c = 1;
		else if (j == pb->n_entries)
			c = -1;
		else
			c = cmp_entry(&va[i], &vb[j]);
		if (c < 0) {
			if (add_map_change(cr, pa->name, va[i++], NULL))
				goto out;
		} else if (c > 0) {
			if (add_map_change(cr, pa->name, NULL, vb[j++]))
				goto out;
		} else {
			if (va[i]->status != vb[j]->status &&
			    add_map_change(cr, pa->name, va[i], vb[j]))
				goto out;
			i++;
			j++;
		}
	}
	rc = 0;
out:
	free(va);
	free(vb);
	return rc;
}

static const struct result_map_profile *find_profile(const struct result_map *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->n_profiles; i++)
		if (strcmp(m->profiles[i].name, name) == 0)
			return &m->profiles[i];
	return NULL;
}

static int compare_maps(struct compare_result *cr, const struct result_map *a,
			const struct result_map *b)
{
	const struct result_map_profile *pb;
	struct compare_map_change *m;
	size_t i;

	cr->map_compared = 1;
	if (a->emulated && add_warning(cr, xasprintf("note: %s's ownership map was taken under "
						     "emulation: ownership is not meaningful", cr->name_a)))
		return -1;
	if (b->emulated && add_warning(cr, xasprintf("note: %s's ownership map was taken under "
						     "emulation: ownership is not meaningful", cr->name_b)))
		return -1;
	/* Profiles are few (CPUID variants): a linear lookup is fine. */
	for (i = 0; i < a->n_profiles && i < 1000; i++) {
		pb = find_profile(b, a->profiles[i].name);
		if (!pb) {
			m = push(&cr->map, &cr->n_map, sizeof(*m));
			if (!m)
				return -1;
			m->profile = a->profiles[i].name;
			m->a = "present";
			m->a_exits = m->b_exits = m->a_cycles = m->b_cycles = -1;
			continue;
		}
		if (compare_profile(cr, &a->profiles[i], pb))
			return -1;
	}
	for (i = 0; i < b->n_profiles && i < 1000; i++) {
		if (find_profile(a, b->profiles[i].name))
			continue;
		m = push(&cr->map, &cr->n_map, sizeof(*m));
		if (!m)
			return -1;
		m->profile = b->profiles[i].name;
		m->b = "present";
		m->a_exits = m->b_exits = m->a_cycles = m->b_cycles = -1;
	}
	return 0;
}

/* Checks are matched on (suite, name); a repeated key pairs up in file order. */
static int cmp_check(const void *pa, const void *pb)
{
	const struct check_result *a = *(const struct check_result *const *)pa;
	const struct check_result *b = *(const struct check_result *const *)pb;
	int c = strcmp(a->suite, b->suite);

	if (c)
		return c;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return (a > b) - (a < b);
}

static int cmp_check_key(const struct check_result *a, const struct check_result *b)
{
	int c = strcmp(a->suite, b->suite);

	return c ? c : strcmp(a->name, b->name);
}

static const struct check_result **sorted_checks(const struct check_report *rep)
{
	const struct check_result **v = malloc((rep->n ? rep->n : 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < rep->n; i++)
		v[i] = &rep->r[i];
	qsort(v, rep->n, sizeof(*v), cmp_check);
	return v;
}

static int add_check_change(struct compare_result *cr, const struct check_result *ca,
			    const struct check_result *cb)
{
	const struct check_result *c = ca ? ca : cb;
	struct compare_check_change *m = push(&cr->checks, &cr->n_checks, sizeof(*m));

	if (!m)
		return -1;
	m->suite = c->suite;
	m->name = c->name;
	m->a = ca ? check_status_names[ca->status] : NULL;
	m->b = cb ? check_status_names[cb->status] : NULL;
	return 0;
}

static int compare_checks(struct compare_result *cr, const struct check_report *a,
			  const struct check_report *b)
{
	const struct check_result **va = sorted_checks(a), **vb = sorted_checks(b);
	size_t i = 0, j = 0;
	int c, rc = -1;

	cr->checks_compared = 1;
	if (!va || !vb)
		goto out;
	while (i < a->n || j < b->n) {
		if (i == a->n)
			c = 1;
		else if (j == b->n)
			c = -1;
		else
			c = cmp_check_key(va[i], vb[j]);
		if (c < 0) {
			if (add_check_change(cr, va[i++], NULL))
				goto out;
		} else if (c > 0) {
			if (add_check_change(cr, NULL, vb[j++]))
				goto out;
		} else {
			if (va[i]->status != vb[j]->status && add_check_change(cr, va[i], vb[j]))
				goto out;
			i++;
			j++;
		}
	}
	rc = 0;
out:
	free(va);
	free(vb);
	return rc;
}

struct compare_result *compare_results(const struct result_file *a, const struct result_file *b,
				       const struct compare_opts *opts, char *err, size_t errlen)
{
	struct compare_result *cr = calloc(1, sizeof(*cr));

	if (!cr)
		goto oom;
	if (opts)
		cr->opts = *opts;
	else
		compare_opts_init(&cr->opts);
	cr->name_a = strdup(a->name);
	cr->name_b = strdup(b->name);
	if (!cr->name_a || !cr->name_b ||
	    compare_host(cr, &a->host, &b->host) ||
	    (a->settings.present && b->settings.present &&
	     compare_settings(cr, &a->settings, &b->settings)) ||
	    compare_probes(cr, a, b) ||
	    (a->map && b->map && compare_maps(cr, a->map, b->map)) ||
	    (a->checks.n && b->checks.n && compare_checks(cr, &a->checks, &b->checks)))
		goto oom;
	return cr;
oom:
	compare_free(cr);
	if (err && errlen)
		snprintf(err, errlen, "%s vs %s: out of memory", a->name, b->name);
	return NULL;
}

int compare_regressed(const struct compare_result *cr)
{
	return cr->n_slower > 0;
}

void compare_free(struct compare_result *cr)
{
	size_t i;

	if (!cr)
		return;
	for (i = 0; i < cr->n_host; i++) {
		free(cr->host[i].field);
		free(cr->host[i].a);
		free(cr->host[i].b);
	}
	free(cr->host);
	for (i = 0; i < cr->n_warnings; i++)
		free(cr->warnings[i]);
	free(cr->warnings);
	free(cr->probes);
	free(cr->counters);
	free(cr->map);
	free(cr->checks);
	free(cr->only_a);
	free(cr->only_b);
	free(cr->name_a);
	free(cr->name_b);
	free(cr);
}
