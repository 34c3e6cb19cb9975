// SPDX-License-Identifier: GPL-2.0-only
/* test_result_read.c - the result reader accepts valid files and names every problem of broken ones. */
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array_size.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static char *tmp;
static const char *exitscope;
static char valid_path[4096];

/* A valid run: two probes, a map and checks. */
static json_t *valid_doc(void)
{
	double s1[9] = { 100, 101, 99, 100, 102, 98, 100, 100, 101 };
	double s2[4] = { 50, 51, 52, 50 };
	json_t *probes = json_pack("[o, o, o]",
				   fixture_probe("cpuid", "insn", s1, 9, 1.0),
				   fixture_probe("pio_out", "io", s2, 4, 1.0),
				   fixture_probe_status("toggle_cr4_cet", "cr", "skipped", "no CET"));
	json_t *doc = fixture_result(fixture_host("6.18.44", "Xeon", "native"), probes);

	json_object_set_new(doc, "map", fixture_map(0, "host",
		json_pack("[o, o]", fixture_map_entry("cr4", 23, "CET", "toggle", "intercepted", 2),
			  fixture_map_entry("cr4", 7, "PGE", "toggle", "owned", 0))));
	json_object_set_new(doc, "checks", json_pack("[o, o]",
		fixture_check("xstate", "xcr0_after_pio", "pass", "xcr0 7 == 7"),
		fixture_check("cet", "ssp_survives", "skip", "no shstk")));
	return doc;
}

static json_t *probe(json_t *doc, size_t i)
{
	return json_array_get(json_object_get(doc, "probes"), i);
}

/* Run the CLI on a broken file: exit 2, one line on stderr with the message. */
static void check_cli(const char *path, const char *msg, const char *what)
{
	const char *argv[] = { exitscope, "compare", path, valid_path, NULL };
	struct run_result r;
	char *nl;

	if (!exitscope) {
		tap_skip(2, "EXITSCOPE not set (run through make check)");
		return;
	}
	run_cmd(&r, argv);
	is_int(r.status, 2, "CLI compare exits 2 on the broken file");
	nl = strchr(r.err, '\n');
	if (!ok(strstr(r.err, msg) && nl && nl[1] == '\0',
		"CLI prints the message as one line on stderr (%s)", what))
		diag("  stderr: %.300s", r.err);
	run_free(&r);
}

/* Read path; expect failure with exactly "<path>: <want>" (or a prefix of it when prefix). */
static void expect_err(const char *path, const char *want, int prefix, const char *what)
{
	char full[ERR_MSG_MAX + 4200];
	struct err err;
	struct result_file *rf = result_read_file(path, &err);

	snprintf(full, sizeof(full), "%s: %s", path, want);
	ok(!rf, "%s: rejected", what);
	result_free(rf);
	if (prefix) {
		if (!ok(strncmp(err.msg, full, strlen(full)) == 0, "%s: message starts \"%s\"", what, want))
			diag("  got \"%s\"", err.msg);
	} else
		tap_is_str(err.msg, full, "%s", what);
	check_cli(path, full, what);
}

static void expect_doc_err(const char *name, json_t *doc, const char *want)
{
	const char *p = fixture_write(tmp, name, doc);
	char path[4096];

	snprintf(path, sizeof(path), "%s", p ? p : "?");
	json_decref(doc);
	expect_err(path, want, 0, name);
}

static void expect_raw_err(const char *name, const char *text, const char *want, int prefix)
{
	const char *p = fixture_write_raw(tmp, name, text, strlen(text));
	char path[4096];

	snprintf(path, sizeof(path), "%s", p ? p : "?");
	expect_err(path, want, prefix, name);
}

static void test_valid(void)
{
	struct err err;
	struct result_file *rf;
	const struct run_probe *p;

	json_t *doc = valid_doc();
	snprintf(valid_path, sizeof(valid_path), "%s", fixture_write(tmp, "valid.json", doc));
	json_decref(doc);
	rf = result_read_file(valid_path, &err);
	if (!ok(rf != NULL, "valid file loads"))
		diag("  %s", err.msg);
	if (!rf) {
		tap_skip(14, "valid file did not load");
		return;
	}
	is_int(rf->kind, RESULT_KIND_RUN, "kind run");
	tap_is_str(rf->host.kernel, "6.18.44", "host.kernel");
	tap_is_str(rf->host.backend_module, "kvm_intel", "host.backend.module");
	is_int((long long)rf->host.n_backend_params, 2, "two backend params");
	is_int(rf->host.tsc_khz, 2445000, "host.tsc_khz");
	is_int(rf->host.exec_mode, EXEC_NATIVE, "execution mode native");
	is_int((long long)rf->n_probes, 3, "three probes");
	p = result_find_probe(rf, "cpuid");
	ok(p && p->n_samples == 9 && p->samples[2] == 99 && p->batch == 1000,
	   "cpuid: samples and batch");
	ok(p && p->cycles.median == 100 && p->per_op[RESULT_OP_EXITS] == 1.0,
	   "cpuid: median and exits/op");
	p = result_find_probe(rf, "toggle_cr4_cet");
	ok(p && p->status == PROBE_SKIPPED && strcmp(p->reason, "no CET") == 0,
	   "skipped probe with its reason");
	ok(rf->map && rf->map->n_profiles == 1 && rf->map->profiles[0].n_entries == 2,
	   "map: one profile, two entries");
	ok(rf->map && rf->map->profiles[0].entries[0].status == MAP_INTERCEPTED &&
	   rf->map->profiles[0].entries[0].bit == 23, "map entry status and bit");
	ok(rf->checks.n == 2 && rf->checks.r[1].status == CHECK_SKIP, "checks");
	ok(result_find_probe(rf, "nope") == NULL, "unknown probe not found");
	result_free(rf);
}

static void test_io_errors(void)
{
	char path[4096], *big;
	int fd;

	snprintf(path, sizeof(path), "%s/missing.json", tmp);
	expect_err(path, "cannot open: No such file or directory", 0, "missing file");
	expect_err(tmp, "is a directory", 0, "directory");
	expect_raw_err("empty.json", "", "empty file", 0);
	expect_raw_err("blank.json", " \n\t\n", "empty file", 0);

	/* A sparse file just over the limit. */
	snprintf(path, sizeof(path), "%s/huge.json", tmp);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ok(fd >= 0 && ftruncate(fd, (off_t)RESULT_MAX_FILE_BYTES + 1) == 0, "made a 64 MiB + 1 file");
	if (fd >= 0)
		close(fd);
	if (asprintf(&big, "file too large (%u bytes, limit %u)", RESULT_MAX_FILE_BYTES + 1,
		     RESULT_MAX_FILE_BYTES) > 0) {
		expect_err(path, big, 0, "file over 64 MiB");
		free(big);
	}
	unlink(path);
}

static void test_json_errors(void)
{
	char *text, *cut;
	json_t *doc = valid_doc();
	size_t len;

	text = json_dumps(doc, JSON_INDENT(1));
	json_decref(doc);
	len = strlen(text);
	cut = strndup(text, len / 2);
	expect_raw_err("truncated.json", cut, "truncated JSON at line ", 1);
	free(cut);
	free(text);

	expect_raw_err("invalid.json", "{\"schema\": \"exitscope-result\",}",
		       "invalid JSON at line 1, column 31: ", 1);
	expect_raw_err("nan.json", "{\"schema\": \"exitscope-result\", \"x\": NaN}",
		       "invalid JSON at line 1, column 39: invalid token near 'NaN'", 1);
	expect_raw_err("dupkey.json", "{\"schema\": \"a\", \"schema\": \"b\"}",
		       "invalid JSON at line 1, column 24: duplicate object key", 1);
	expect_raw_err("overflow.json", "{\"schema\": 1e999}",
		       "invalid JSON at line 1, column 16: real number overflow", 1);
	/* jansson quotes the input near an error: a newline there must not split the message. */
	expect_raw_err("newline.json", "{\"schema\": \"a\\\n\"}",
		       "invalid JSON at line 2, column 0: invalid escape near '\"a\\?'", 0);
	expect_raw_err("utf8.json", "{\"schema\": \"\xff\"}", "invalid JSON at line 1, column ", 1);
	expect_raw_err("array.json", "[1, 2]", "top level is an array, not an object", 0);
	expect_raw_err("noschema.json", "{\"hello\": 1}",
		       "missing required field \"schema\" (not an exitscope result file?)", 0);
	expect_raw_err("otherschema.json", "{\"schema\": \"geojson\"}",
		       "schema: \"geojson\" is not \"exitscope-result\" (not an exitscope result file?)", 0);
}

static void test_schema_errors(void)
{
	json_t *d;

	d = valid_doc();
	json_object_set_new(d, "schema_version", json_integer(4));
	expect_doc_err("version4.json", d, "schema_version: unsupported version 4 (this exitscope reads 1 to 3)");

	d = valid_doc();
	json_object_set_new(d, "schema_version", json_integer(0));
	expect_doc_err("version0.json", d, "schema_version: unsupported version 0 (this exitscope reads 1 to 3)");

	d = valid_doc();
	json_object_set_new(d, "schema_version", json_string("1"));
	expect_doc_err("versionstr.json", d, "schema_version: not an integer (found a string)");

	d = valid_doc();
	json_object_del(d, "host");
	expect_doc_err("nohost.json", d, "missing required field \"host\"");

	d = valid_doc();
	json_object_del(json_object_get(d, "host"), "kernel");
	expect_doc_err("nokernel.json", d, "host: missing required field \"kernel\"");

	d = valid_doc();
	json_object_set_new(json_object_get(d, "host"), "tsc_khz", json_string("fast"));
	expect_doc_err("tscstr.json", d, "host.tsc_khz: not an integer (found a string)");

	d = valid_doc();
	json_object_set_new(json_object_get(d, "host"), "tsc_khz", json_integer(-1));
	expect_doc_err("tscneg.json", d, "host.tsc_khz: must be >= 0 (got -1)");

	d = valid_doc();
	json_object_set_new(json_object_get(json_object_get(d, "host"), "execution"), "mode",
			    json_string("fast"));
	expect_doc_err("mode.json", d,
		       "host.execution.mode: \"fast\" is not one of unknown, native, emulated");

	d = valid_doc();
	json_object_set_new(json_object_get(json_object_get(d, "host"), "backend"), "params",
			    json_pack("{s:i}", "ept", 1));
	expect_doc_err("param.json", d, "host.backend.params.ept: not a string (found an integer)");

	d = valid_doc();
	json_object_del(d, "probes");
	expect_doc_err("noprobes.json", d, "missing required field \"probes\"");

	d = valid_doc();
	json_object_set_new(d, "probes", json_object());
	expect_doc_err("probesobj.json", d, "probes: not an array (found an object)");

	d = valid_doc();
	json_array_set_new(json_object_get(d, "probes"), 0, json_integer(3));
	expect_doc_err("probeint.json", d, "probes[0]: not an object (found an integer)");
}

static void test_probe_errors(void)
{
	json_t *d, *arr;
	size_t i;

	d = valid_doc();
	json_array_set_new(json_object_get(probe(d, 1), "samples"), 2, json_real(-5));
	expect_doc_err("negsample.json", d, "probes[1].samples[2]: not a finite non-negative number");

	d = valid_doc();
	json_array_set_new(json_object_get(probe(d, 0), "samples"), 0, json_string("x"));
	expect_doc_err("strsample.json", d, "probes[0].samples[0]: not a finite non-negative number");

	d = valid_doc();
	json_object_set_new(json_object_get(probe(d, 0), "per_op"), "exits", json_real(-1));
	expect_doc_err("negexits.json", d, "probes[0].per_op.exits: not a finite non-negative number");

	d = valid_doc();
	json_object_del(json_object_get(probe(d, 0), "per_op"), "irq_exits");
	expect_doc_err("noirq.json", d, "probes[0].per_op: missing required field \"irq_exits\"");

	d = valid_doc();
	json_object_set_new(json_object_get(probe(d, 0), "cycles"), "median", json_string("100"));
	expect_doc_err("medianstr.json", d,
		       "probes[0].cycles.median: not a finite non-negative number (found a string)");

	d = valid_doc();
	json_object_set_new(probe(d, 0), "batch", json_integer(0));
	expect_doc_err("batch0.json", d, "probes[0].batch: must be >= 1 (got 0)");

	d = valid_doc();
	json_object_set_new(probe(d, 0), "batch", json_integer(-1000));
	expect_doc_err("batchneg.json", d, "probes[0].batch: must be >= 1 (got -1000)");

	d = valid_doc();
	json_object_set_new(probe(d, 0), "batch", json_real(1.5));
	expect_doc_err("batchreal.json", d, "probes[0].batch: not an integer (found a real number)");

	d = valid_doc();
	json_object_set_new(probe(d, 0), "samples", json_array());
	expect_doc_err("nosamples.json", d, "probes[0].samples: no samples (status is \"ok\")");

	d = valid_doc();
	arr = json_array();
	for (i = 0; i <= RESULT_MAX_ITEMS; i++)
		json_array_append_new(arr, json_integer(1));
	json_object_set_new(probe(d, 0), "samples", arr);
	expect_doc_err("manysamples.json", d, "probes[0].samples: too many entries (100001, limit 100000)");

	d = valid_doc();
	arr = json_array();
	for (i = 0; i <= RESULT_MAX_ITEMS; i++)
		json_array_append_new(arr, json_integer(0));
	json_object_set_new(d, "probes", arr);
	expect_doc_err("manyprobes.json", d, "probes: too many entries (100001, limit 100000)");

	d = valid_doc();
	json_object_set_new(probe(d, 1), "name", json_string("cpuid"));
	expect_doc_err("dupname.json", d, "probes[1].name: duplicate probe \"cpuid\" (also probes[0])");

	d = valid_doc();
	json_object_del(probe(d, 2), "reason");
	expect_doc_err("noreason.json", d,
		       "probes[2]: missing required field \"reason\" (status is \"skipped\")");

	d = valid_doc();
	json_object_set_new(probe(d, 0), "status", json_string("great\x01"));
	expect_doc_err("status.json", d,
		       "probes[0].status: \"great?\" is not one of ok, skipped, failed, hang, stopped");

	d = valid_doc();
	json_object_set_new(probe(d, 0), "name", json_string(""));
	expect_doc_err("emptyname.json", d, "probes[0].name: empty string");

	/* The run loop's counters are optional, but checked when present. */
	d = valid_doc();
	json_object_set_new(json_object_get(probe(d, 1), "per_op"), "user_io", json_real(-1));
	expect_doc_err("neguserio.json", d, "probes[1].per_op.user_io: not a finite non-negative number");

	d = valid_doc();
	json_object_set_new(json_object_get(probe(d, 0), "per_op"), "user_intr", json_string("0"));
	expect_doc_err("struserintr.json", d,
		       "probes[0].per_op.user_intr: not a finite non-negative number (found a string)");

	d = valid_doc();
	json_object_set_new(probe(d, 0), "ops", json_real(3.5));
	expect_doc_err("opsreal.json", d, "probes[0].ops: not an integer (found a real number)");
}

static void test_map_check_errors(void)
{
	json_t *d, *e;

	d = valid_doc();
	e = json_array_get(json_object_get(json_array_get(json_object_get(
		json_object_get(d, "map"), "profiles"), 0), "entries"), 0);
	json_object_set_new(e, "bit", json_integer(64));
	expect_doc_err("bit64.json", d, "map.profiles[0].entries[0].bit: must be in 0..63 (got 64)");

	d = valid_doc();
	json_object_del(json_object_get(d, "map"), "emulated");
	expect_doc_err("noemulated.json", d, "map: missing required field \"emulated\"");

	d = valid_doc();
	json_object_set_new(json_array_get(json_object_get(d, "checks"), 0), "status",
			    json_string("maybe"));
	expect_doc_err("checkstatus.json", d, "checks[0].status: \"maybe\" is not one of pass, fail, skip, stopped");

	d = valid_doc();
	json_object_set_new(json_array_get(json_object_get(d, "checks"), 1), "expected",
			    json_integer(7));
	expect_doc_err("checkexpected.json", d, "checks[1].expected: not a string (found an integer)");

	d = valid_doc();
	json_object_set_new(json_array_get(json_object_get(d, "checks"), 0), "observed", json_null());
	expect_doc_err("checkobserved.json", d, "checks[0].observed: not a string (found null)");

	d = valid_doc();
	json_object_set_new(json_object_get(json_object_get(d, "host"), "execution"), "loop_insns",
			    json_integer(-3));
	expect_doc_err("loopinsns.json", d, "host.execution.loop_insns: must be >= 0 (got -3)");

	d = valid_doc();
	json_object_set_new(d, "warnings", json_pack("[s, i]", "fine", 3));
	expect_doc_err("warning.json", d, "warnings[1]: not a string (found an integer)");
}

/*
 * Recorded results (the lanes' samples, the fuzz seeds) stay valid: the
 * schema only grows. Paths are relative to the tree, where make check runs.
 */
static void test_recorded(void)
{
	static const char *const patterns[] = {
		"lanes/samples/*/info.json", "lanes/samples/*/run.json",
		"lanes/samples/*/map.json", "lanes/samples/*/check.json",
		"fuzz/corpus/valid-*.json", "fuzz/corpus/broken-*.json",
	};
	struct err err;
	struct result_file *rf;
	glob_t g;
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(patterns); k++) {
		int broken = strstr(patterns[k], "broken-") != NULL;

		if (glob(patterns[k], 0, NULL, &g) || g.gl_pathc == 0) {
			skip("no recorded files here (not run from the tree)");
			continue;
		}
		for (i = 0; i < g.gl_pathc; i++) {
			rf = result_read_file(g.gl_pathv[i], &err);
			if (!ok(broken ? !rf : rf != NULL, "%s: %s", g.gl_pathv[i],
				broken ? "rejected" : "still valid"))
				diag("  %s", rf ? "accepted" : err.msg);
			result_free(rf);
		}
		globfree(&g);
	}
}

static void test_buffer(void)
{
	char *deep;
	struct err err;
	struct result_file *rf;
	size_t i, n = 100000;

	rf = result_read_buffer("mem", "{", 1, &err);
	if (!ok(!rf && strncmp(err.msg, "mem: truncated JSON at line 1", 29) == 0, "buffer: truncated"))
		diag("  got \"%s\"", err.msg);
	/* Deep nesting must not blow the stack. */
	deep = malloc(n + 1);
	for (i = 0; i < n; i++)
		deep[i] = '[';
	deep[n] = '\0';
	rf = result_read_buffer("deep", deep, n, &err);
	if (!ok(!rf && strncmp(err.msg, "deep: invalid JSON", 18) == 0, "buffer: 100000-deep nesting rejected"))
		diag("  got \"%s\"", err.msg);
	free(deep);
	/* The message comes with the negative errno that was returned. */
	rf = result_read_buffer("small", "", 0, &err);
	if (!ok(!rf && err.code == -EINVAL && strcmp(err.msg, "small: empty file") == 0,
		"buffer: -EINVAL with the message"))
		diag("  got %d \"%s\"", err.code, err.msg);
	ok(!result_read_buffer("null", "x", 1, NULL), "buffer: NULL error buffer is fine");
}

int main(void)
{
	exitscope = getenv("EXITSCOPE");
	if (exitscope && access(exitscope, X_OK) != 0)
		exitscope = NULL;
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temp dir");
	test_valid();
	test_io_errors();
	test_json_errors();
	test_schema_errors();
	test_probe_errors();
	test_map_check_errors();
	test_recorded();
	test_buffer();
	fixture_rmdir(tmp);
	return done_testing();
}
