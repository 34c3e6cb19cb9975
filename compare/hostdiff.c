// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostdiff.c - what differs between the hosts and settings of the two
 * sides of a comparison (compare/compare_int.h): each field that differs,
 * and a warning where the difference may be in the figures (CPU,
 * execution mode, method, guest XCR0).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"

static int add_host(struct compare_result *cr, const char *field, const char *a, const char *b)
{
	struct compare_host_diff *d;

	if (strcmp(a, b) == 0)
		return 0;
	d = findings_push(&cr->host, &cr->n_host, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->field = strdup(field);
	d->a = strdup(a);
	d->b = strdup(b);
	return d->field && d->a && d->b ? 0 : -ENOMEM;
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
	return findings_printf("%s (%s family %lld model %lld stepping %lld)", h->cpu_name,
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
			return -ENOMEM;
	}
	for (i = 0; i < b->n_backend_params; i++) {
		if (param_value(a, b->backend_params[i].key))
			continue;
		snprintf(field, sizeof(field), "backend.params.%s", b->backend_params[i].key);
		if (add_host(cr, field, "(unset)", b->backend_params[i].value))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Were run f's vCPU CPUs asked for? 1: its command line has --cpu (or a
 * prefix getopt takes for it), 0: a command line without it (exitscope
 * picked them), -1: no command line recorded.
 */
static int cpus_asked(const struct result_file *f)
{
	if (!f->command || !f->n_command)
		return -1;
	for (size_t i = 1; i < f->n_command; i++) {
		const char *s = f->command[i];
		size_t n;

		if (!strcmp(s, "--"))
			break;
		if (strncmp(s, "--c", 3))
			continue;
		n = strcspn(s + 2, "=");
		if (n <= 3 && !strncmp(s + 2, "cpu", n))
			return 1;
	}
	return 0;
}

/*
 * The pinned CPUs differ: a difference the user made when either side asked
 * for them (each value says which: "2 (--cpu)", "0 (picked)"); when
 * exitscope picked both, a note, since a pick is no difference of the hosts.
 */
static int compare_cpus(struct compare_result *cr, const struct result_file *fa,
			const struct result_file *fb, const char *va, const char *vb)
{
	static const char *const how[] = { "", " (picked)", " (--cpu)" };
	int qa = cpus_asked(fa), qb = cpus_asked(fb);
	char ta[80], tb[80];

	if (!qa && !qb)
		return findings_warnf(cr, "note: exitscope picked the vCPU thread's CPU on "
					  "both sides (%s, %s; no --cpu): not a host "
					  "difference", va, vb);
	snprintf(ta, sizeof(ta), "%s%s", va, how[qa + 1]);
	snprintf(tb, sizeof(tb), "%s%s", vb, how[qb + 1]);
	return add_host(cr, "settings.cpus", ta, tb);
}

/*
 * How the two runs measured: every setting that differs is listed; a
 * different method or guest XCR0 is a warning (the figures themselves may
 * differ by it: v1 subtracts one nop baseline per run, v2 a paired baseline
 * per batch; exits that switch XCR0 cost differently). Rounds, budget and
 * precision change how precisely a side is known, which the interval
 * accounts for, not what is measured.
 */
int hostdiff_settings(struct compare_result *cr, const struct result_file *fa,
		      const struct result_file *fb)
{
	const struct run_settings *a = &fa->settings, *b = &fb->settings;
	char va[64], vb[64], field[64];

	for (int i = 0; i < RUN_SETTING_N; i++) {
		run_setting_text(a, i, va, sizeof(va));
		run_setting_text(b, i, vb, sizeof(vb));
		if (!strcmp(va, vb))
			continue;
		if (i == RUN_SETTING_CPUS) {
			if (compare_cpus(cr, fa, fb, va, vb))
				return -ENOMEM;
			continue;
		}
		snprintf(field, sizeof(field), "settings.%s", run_setting_names[i]);
		if (add_host(cr, field, va, vb))
			return -ENOMEM;
		if (i == RUN_SETTING_GUEST_XCR0 &&
		    findings_warnf(cr, "WARNING: the runs set different guest XCR0 (--guest-xcr0: "
				       "%s: %s, %s: %s): exits that switch XCR0 cost differently",
				       cr->name_a, va, cr->name_b, vb))
			return -ENOMEM;
		if (i == RUN_SETTING_METHOD &&
		    findings_warnf(cr, "WARNING: the runs were measured by different methods "
				       "(%s: %s, %s: %s): v1 subtracts one nop baseline per run, "
				       "v2 a paired baseline per batch, so the figures may differ "
				       "by the method", cr->name_a, va, cr->name_b, vb))
			return -ENOMEM;
	}
	return 0;
}

/* A lane's patch list as one line ("(none)"); malloc'd, NULL when out of memory. */
static char *lane_patches(const char *const *p, size_t n)
{
	size_t len = 1;
	char *s;

	if (!n)
		return strdup("(none)");
	for (size_t i = 0; i < n; i++)
		len += strlen(p[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, p[i]);
	}
	return s;
}

/* The lane kernel's source as one line: package, version, tarball sha256 (16 digits). */
static char *lane_source(const struct host_lane *l)
{
	if (!l->kernel_source)
		return strdup("(unknown)");
	return findings_printf("%s%s%.16s", l->kernel_source,
			       l->kernel_source_sha256 ? " sha256 " : "",
			       l->kernel_source_sha256 ? l->kernel_source_sha256 : "");
}

/* Two lane runs: the kernels may differ by source, config and patches, the emulators by
 * version, CPU model and patches. */
static int compare_lanes(struct compare_result *cr, const struct host_lane *a,
			 const struct host_lane *b)
{
	char *pa = lane_patches(a->kernel_patches, a->n_kernel_patches);
	char *pb = lane_patches(b->kernel_patches, b->n_kernel_patches);
	char *ea = lane_patches(a->emulator_patches, a->n_emulator_patches);
	char *eb = lane_patches(b->emulator_patches, b->n_emulator_patches);
	char *sa = lane_source(a), *sb = lane_source(b);
	int rc = -ENOMEM;

	if (pa && pb && ea && eb && sa && sb &&
	    !add_host(cr, "lane.name", host_lane_names[a->name], host_lane_names[b->name]) &&
	    !add_host(cr, "lane.emulator", a->emulator ? a->emulator : "(unknown)",
		      b->emulator ? b->emulator : "(unknown)") &&
	    !add_host(cr, "lane.emulator_patches", ea, eb) &&
	    !add_host(cr, "lane.kernel.source", sa, sb) &&
	    !add_host(cr, "lane.kernel.config_sha256",
		      a->kernel_config_sha256 ? a->kernel_config_sha256 : "(unknown)",
		      b->kernel_config_sha256 ? b->kernel_config_sha256 : "(unknown)") &&
	    !add_host(cr, "lane.kernel.patches", pa, pb))
		rc = 0;
	free(pa);
	free(pb);
	free(ea);
	free(eb);
	free(sa);
	free(sb);
	return rc;
}

int hostdiff_host(struct compare_result *cr, const struct host_record *a,
		  const struct host_record *b)
{
	char *ca = cpu_desc(a), *cb = cpu_desc(b), ta[32], tb[32];
	const char *ma = exec_mode_names[a->exec_mode], *mb = exec_mode_names[b->exec_mode];
	int rc = -ENOMEM;

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
	    findings_warnf(cr, "WARNING: execution modes differ (%s: %s, %s: %s): "
			       "cycle counts of an emulated run are not comparable "
			       "with a native one", cr->name_a, ma, cr->name_b, mb))
		goto out;
	if (a->exec_mode == EXEC_EMULATED && b->exec_mode == EXEC_EMULATED &&
	    findings_warnf(cr, "note: both runs were emulated: cycles measure the "
			       "emulator, not the hardware"))
		goto out;
	if (strcmp(ca, cb) != 0 &&
	    findings_warnf(cr, "WARNING: CPUs differ (%s: %s, %s: %s): differences "
			       "may come from the hardware, not the change under test",
			       cr->name_a, ca, cr->name_b, cb))
		goto out;
	rc = 0;
out:
	free(ca);
	free(cb);
	return rc;
}
