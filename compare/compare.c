// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - the entry points of an A/B comparison of result files (one
 * or several runs per side; compare/compare.h): the options, the result
 * set up and filled by its parts in turn (hostdiff.c, notes.c,
 * probediff.c, changes.c, path.c), freeing it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "compare/lane_spread.h"

int compare_normalize_parse(const char *s, enum compare_normalize *out)
{
	for (int i = 0; i < COMPARE_NORMALIZE_N; i++)
		if (!strcmp(s, compare_normalize_names[i])) {
			*out = (enum compare_normalize)i;
			return 0;
		}
	return -EINVAL;
}

void compare_opts_init(struct compare_opts *o)
{
	o->threshold_pct = COMPARE_THRESHOLD_PCT;
	o->seed = COMPARE_SEED;
	o->iters = 0;
	o->noise = NULL;
	o->normalize = COMPARE_NORMALIZE_AUTO;
}

/* "a.json + b.json" (malloc'd). */
static char *join_names(const struct result_file *const *f, size_t n)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(f[i]->name) + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (i = 0; i < n; i++) {
		if (i)
			strcat(s, " + ");
		strcat(s, f[i]->name);
	}
	return s;
}

static const char **file_names(const struct result_file *const *f, size_t n)
{
	const char **v = malloc(n * sizeof(*v));

	for (size_t i = 0; v && i < n; i++)
		v[i] = f[i]->name;
	return v;
}

/*
 * Whether the figures are put at equal guest speed (docs/method.md): as
 * asked, or with auto where every file of both sides ran its guest code
 * emulated, the host's speed then moving an op's cost and its paired loop's
 * alike.
 */
static void resolve_normalize(struct compare_result *cr, const struct result_file *const *a,
			      size_t na, const struct result_file *const *b, size_t nb)
{
	size_t emulated = 0, i;

	for (i = 0; i < na; i++)
		emulated += a[i]->host.exec_mode == EXEC_EMULATED;
	for (i = 0; i < nb; i++)
		emulated += b[i]->host.exec_mode == EXEC_EMULATED;
	switch (cr->opts.normalize) {
	case COMPARE_NORMALIZE_NONE:
		cr->normalized = 0;
		cr->normalize_why = "--normalize none";
		break;
	case COMPARE_NORMALIZE_SPEED:
		cr->normalized = 1;
		cr->normalize_why = "--normalize speed";
		break;
	default:
		cr->normalized = emulated == na + nb;
		cr->normalize_why = cr->normalized ?
			"--normalize auto: every run's guest code was emulated" :
			"--normalize auto: guest code ran natively in a run";
		break;
	}
}

/*
 * What the host says of how a probe's runs repeat (docs/method.md): every
 * file a Bochs lane run (one-vCPU probes repeat to the lanes' spread), and
 * whether any file ran its guest code emulated (a floor from another window
 * does not hold one run a side there).
 */
static void resolve_hosts(struct compare_result *cr, const struct result_file *const *a,
			  size_t na, const struct result_file *const *b, size_t nb)
{
	size_t i;

	cr->lanes_deterministic = 1;
	for (i = 0; i < na + nb; i++) {
		const struct host_record *h = i < na ? &a[i]->host : &b[i - na]->host;

		cr->lanes_deterministic &= lane_deterministic(h);
		cr->emulated |= h->exec_mode == EXEC_EMULATED;
	}
}

struct compare_result *compare_results_multi(const struct result_file *const *a, size_t na,
					     const struct result_file *const *b, size_t nb,
					     const struct compare_opts *opts, struct err *err)
{
	struct compare_result *cr = NULL;
	int rc = -ENOMEM;

	if (!na || !nb) {
		err_set(err, -EINVAL, "no %s files", na ? "new" : "base");
		return NULL;
	}
	cr = calloc(1, sizeof(*cr));
	if (!cr)
		goto oom;
	if (opts)
		cr->opts = *opts;
	else
		compare_opts_init(&cr->opts);
	cr->name_a = join_names(a, na);
	cr->name_b = join_names(b, nb);
	cr->files_a = file_names(a, na);
	cr->files_b = file_names(b, nb);
	cr->n_files_a = na;
	cr->n_files_b = nb;
	cr->noise = cr->opts.noise;
	resolve_normalize(cr, a, na, b, nb);
	resolve_hosts(cr, a, na, b, nb);
	if (!cr->name_a || !cr->name_b || !cr->files_a || !cr->files_b)
		goto oom;
	/* Each part in turn, the first failure's code kept. */
	rc = hostdiff_host(cr, &a[0]->host, &b[0]->host);
	if (!rc)
		rc = notes_side(cr, "base", a, na);
	if (!rc)
		rc = notes_side(cr, "new", b, nb);
	if (!rc && a[0]->settings.present && b[0]->settings.present)
		rc = hostdiff_settings(cr, a[0], b[0]);
	if (!rc && cr->noise)
		rc = notes_floor(cr, a, na, b, nb);
	if (!rc)
		rc = probediff_probes(cr, a, na, b, nb);
	if (!rc)
		rc = notes_speed(cr, a, na, b, nb);
	if (!rc)
		rc = notes_r2r(cr);
	if (!rc && a[0]->map && b[0]->map)
		rc = changes_maps(cr, a[0]->map, b[0]->map);
	if (!rc && a[0]->checks.n && b[0]->checks.n)
		rc = changes_checks(cr, &a[0]->checks, &b[0]->checks);
	if (!rc)
		rc = path_changes_build(a, na, b, nb, &cr->paths);
	cr->has_paths = cr->paths.compared > 0;
	cr->regression = cr->n_slower > 0;
	if (!rc)
		return cr;
oom:
	compare_free(cr);
	if (rc == -ENOMEM)
		err_set(err, rc, "%s vs %s: out of memory", a[0]->name, b[0]->name);
	else
		err_set(err, rc, "%s vs %s: %s", a[0]->name, b[0]->name, strerror(-rc));
	return NULL;
}

struct compare_result *compare_results(const struct result_file *a, const struct result_file *b,
				       const struct compare_opts *opts, struct err *err)
{
	return compare_results_multi(&a, 1, &b, 1, opts, err);
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
	free(cr->unjudged);
	free(cr->map);
	free(cr->checks);
	free(cr->only_a);
	free(cr->only_b);
	free(cr->name_a);
	free(cr->name_b);
	free(cr->files_a);
	free(cr->files_b);
	free(cr->r2r_note);
	path_changes_free(&cr->paths);
	free(cr);
}
