// SPDX-License-Identifier: GPL-2.0-only
/* fixture.c - build synthetic result files (schema v1) and temp dirs for the tests. */
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/stats.h"
#include "tests/fixture.h"

json_t *fixture_host(const char *kernel, const char *cpu_name, const char *mode)
{
	return json_pack("{s:s, s:{s:s, s:{s:s, s:s}}, s:{s:s, s:i, s:i, s:i, s:s},"
			 " s:{s:i, s:{s:i}}, s:{s:b, s:b}, s:i, s:i, s:{s:b, s:b}, s:i,"
			 " s:{s:s, s:i, s:i, s:i, s:s}}",
			 "kernel", kernel,
			 "backend", "module", "kvm_intel", "params", "ept", "Y", "enable_apicv", "Y",
			 "cpu", "vendor", "GenuineIntel", "family", 6, "model", 143, "stepping", 8,
			 "name", cpu_name,
			 "kvm", "api_version", 12, "caps", "KVM_CAP_XSAVE2", 4096,
			 "cpuid", "xsave", 1, "shstk", 0,
			 "xcr0_supported", 7, "xss_supported", 0,
			 "msr_save_list", "ia32_xss", 0, "cet", 0,
			 "tsc_khz", 2445000,
			 "execution", "mode", mode, "loop_insns", 30000, "exits", 12,
			 "insn_emulation", 0, "detail", "synthetic");
}

void fixture_samples(double *out, size_t n, double center, double spread, uint64_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double u = (double)(stats_splitmix64(&seed) >> 11) / 9007199254740992.0;

		out[i] = center + spread * (2 * u - 1);
	}
}

json_t *fixture_probe(const char *name, const char *group, const double *samples, size_t n,
		      double exits)
{
	struct stats_summary s;
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_real(samples[i]));
	stats_summarize(samples, n, &s);
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:o,"
			 " s:{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f},"
			 " s:f, s:f, s:{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}}",
			 "name", name, "group", group, "description", "synthetic probe",
			 "status", "ok", "batch", 1000, "samples", arr,
			 "cycles", "min", s.min, "median", s.median, "p90", s.p90, "p99", s.p99,
			 "mean", s.mean, "stddev", s.stddev, "cv", s.cv, "ci95_lo", s.ci95_lo,
			 "ci95_hi", s.ci95_hi,
			 "ns_median", s.median / 2.445, "overhead_cycles", 12.0,
			 "per_op", "exits", exits, "io_exits", 0.0, "mmio_exits", 0.0,
			 "halt_exits", 0.0, "hypercalls", 0.0, "insn_emulation", 0.0,
			 "signal_exits", 0.0, "irq_exits", 0.0);
}

json_t *fixture_probe_status(const char *name, const char *group, const char *status,
			     const char *reason)
{
	return json_pack("{s:s, s:s, s:s, s:s}", "name", name, "group", group,
			 "status", status, "reason", reason);
}

json_t *fixture_map_entry(const char *reg, int bit, const char *name, const char *op,
			  const char *status, double exits)
{
	return json_pack("{s:s, s:i, s:s, s:s, s:s, s:f, s:f, s:s}", "reg", reg, "bit", bit,
			 "name", name, "op", op, "status", status, "exits_per_op", exits,
			 "cycles_per_op", exits * 1000 + 20, "detail", "synthetic");
}

json_t *fixture_map(int emulated, const char *profile, json_t *entries)
{
	return json_pack("{s:b, s:[{s:s, s:s, s:o}]}", "emulated", emulated,
			 "profiles", "name", profile, "spec", profile, "entries", entries);
}

json_t *fixture_check(const char *suite, const char *name, const char *status, const char *detail)
{
	return json_pack("{s:s, s:s, s:s, s:s}", "suite", suite, "name", name,
			 "status", status, "detail", detail);
}

json_t *fixture_settings(const char *method, long long rounds)
{
	return json_pack("{s:f, s:i, s:s, s:I, s:f}", "time_budget_s", 0.2, "cpu", -1,
			 "method", method, "rounds", (json_int_t)rounds, "precision_pct", 0.5);
}

json_t *fixture_result(json_t *host, json_t *probes)
{
	return json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:[s, s], s:s, s:s, s:o, s:o, s:[]}",
			 "schema", "exitscope-result", "schema_version", 1,
			 "tool", "name", "exitscope", "version", "0.1.0",
			 "kind", "run", "command", "exitscope", "run",
			 "started", "2026-11-30T01:38:25Z", "finished", "2026-11-30T01:39:02Z",
			 "host", host, "probes", probes, "warnings");
}

json_t *fixture_result_large(size_t n)
{
	json_t *probes = json_array();
	double s[5] = { 100, 101, 102, 103, 104 };

	for (size_t i = 0; probes && i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "probe_%03zu", i);
		json_array_append_new(probes, fixture_probe(name, "many", s, 5, 1.0));
	}
	return fixture_result(fixture_host("6.1.0", "Xeon", "native"), probes);
}

static char path_buf[PATH_MAX];

const char *fixture_write(const char *dir, const char *name, json_t *doc)
{
	snprintf(path_buf, sizeof(path_buf), "%s/%s", dir, name);
	if (json_dump_file(doc, path_buf, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) < 0)
		return NULL;
	return path_buf;
}

const char *fixture_write_raw(const char *dir, const char *name, const void *buf, size_t len)
{
	FILE *f;

	snprintf(path_buf, sizeof(path_buf), "%s/%s", dir, name);
	f = fopen(path_buf, "wb");
	if (!f)
		return NULL;
	if (len && fwrite(buf, 1, len, f) != len) {
		fclose(f);
		return NULL;
	}
	if (fclose(f))
		return NULL;
	return path_buf;
}

char *fixture_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir;

	if (!base || !*base)
		base = "/tmp";
	if (asprintf(&dir, "%s/exitscope-test.XXXXXX", base) < 0)
		return NULL;
	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void fixture_rmdir(char *dir)
{
	if (!dir)
		return;
	if (!getenv("KEEP_TMP"))
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

json_t *fixture_probe_json(json_t *root, const char *name)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(root, "probes"), i, p)
		if (!strcmp(json_string_value(json_object_get(p, "name")), name))
			return p;
	return NULL;
}

double fixture_num(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *fixture_str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

int fixture_count_prefixed(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}
