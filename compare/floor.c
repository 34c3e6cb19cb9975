// SPDX-License-Identifier: GPL-2.0-only
/*
 * floor.c - does a noise floor fit the runs it is applied to
 * (docs/compare-report.md, "Bad input"): another host, another exitscope
 * or another method make it unusable; other settings are warnings.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare/floor.h"

/* The floor's exitscope against the one that measured f (this one's when f does not say). */
static const char *file_version(const struct result_file *f)
{
	return f->tool_version ? f->tool_version : EXITSCOPE_VERSION;
}

static int check_file(const struct noise_floor *nf, const struct result_file *f, struct err *err)
{
	char what[512], va[64], vb[64];

	if (noise_host_mismatch(&nf->host, &f->host, what, sizeof(what)))
		return err_set(err, -EINVAL,
			 "%s: a floor of another host than %s (%s): measure this host's floor",
			 nf->name ? nf->name : "noise floor", f->name, what);
	if (strcmp(nf->tool_version, file_version(f))) {
		return err_set(err, -EINVAL,
			 "%s: measured by exitscope %s, %s by %s: measure the floor with the "
			 "exitscope of the runs", nf->name ? nf->name : "noise floor",
			 nf->tool_version, f->name, file_version(f));
	}
	run_setting_text(&nf->settings, RUN_SETTING_METHOD, va, sizeof(va));
	run_setting_text(&f->settings, RUN_SETTING_METHOD, vb, sizeof(vb));
	if (strcmp(va, vb))
		return err_set(err, -EINVAL,
			 "%s: a floor of method %s runs, %s is of method %s: it does not apply",
			 nf->name ? nf->name : "noise floor", va, f->name, vb);
	return 0;
}

int compare_noise_check(const struct noise_floor *nf, const struct result_file *const *a, size_t na,
			const struct result_file *const *b, size_t nb, struct err *err)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < na + nb; i++)
		rc = check_file(nf, i < na ? a[i] : b[i - na], err);
	if (rc)
		return rc;
	return 0;
}

const char *floor_setting_diff(const struct noise_floor *nf, const struct result_file *f,
			       int from, int *which, char *va, char *vb, size_t len)
{
	for (int i = from; i < RUN_SETTING_N; i++) {
		if (i == RUN_SETTING_METHOD)
			continue;
		run_setting_text(&nf->settings, i, va, len);
		run_setting_text(&f->settings, i, vb, len);
		if (strcmp(va, vb)) {
			*which = i;
			return run_setting_names[i];
		}
	}
	return NULL;
}
