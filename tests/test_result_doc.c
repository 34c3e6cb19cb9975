// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_result_doc.c - a result document (results/result_doc.h) filled with
 * models as the commands fill it: the file it writes has each kind's
 * members in the kind's order, with the models' values, reads back as a
 * result file, and its text is the file's; "finished" is set once; and a
 * write that a stop cuts (a FIFO no one drains) fails with what was
 * measured still in the document, whole in the file it is kept in.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/outfile.h"
#include "results/result_doc.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/tap.h"

static char *tmp;

static double samples[] = { 100.5, 101.25, 99.75 };

/* A host record with the members the reader requires. */
static void host_fill(struct host_record *h)
{
	host_record_init(h);
	h->kernel = "6.18.44-doc";
	h->backend_module = "kvm_intel";
	h->cpu_vendor = "GenuineIntel";
	h->cpu_name = "Doc CPU";
	h->cpu_family = 6;
	h->cpu_model = 167;
	h->kvm_api_version = 12;
	h->tsc_khz = 2000000;
	h->exec_mode = EXEC_NATIVE;
}

/* Two probes: one measured, one skipped. */
static void probes_fill(struct run_probe p[2])
{
	run_probe_init(&p[0]);
	p[0].name = "cpuid";
	p[0].group = "insn";
	p[0].status = PROBE_OK;
	p[0].batch = 64;
	p[0].samples = samples;
	p[0].n_samples = 3;
	p[0].cycles = (struct result_cycles){ .min = 99.75, .median = 100.5, .p90 = 101.25,
		.p99 = 101.25, .mean = 100.5, .stddev = 0.75, .cv = 0.0075, .ci95_lo = 99.75,
		.ci95_hi = 101.25 };
	run_probe_init(&p[1]);
	p[1].name = "xsetbv";
	p[1].group = "xstate";
	p[1].status = PROBE_SKIPPED;
	p[1].reason = "no XSAVE in KVM's supported CPUID";
}

/* The top-level keys of the file at path, in its order, joined by ','. */
static void top_keys(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t o = 0;

	buf[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *end;

		if (strncmp(line, "  \"", 3) || !(end = strchr(line + 3, '"')))
			continue;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%.*s", o ? "," : "",
				      (int)(end - line - 3), line + 3);
		if (o >= len)
			break;
	}
	if (f)
		fclose(f);
}

/* The whole file at path, NUL-terminated (NULL: unreadable); free() it. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t n = 0;

	if (f) {
		s = calloc(1, 1 << 20);
		if (s)
			n = fread(s, 1, (1 << 20) - 1, f);
		fclose(f);
		if (s)
			s[n] = 0;
	}
	return s;
}

static void test_run(void)
{
	char *argv[] = { "run", "--all", "--json", "doc.json", NULL };
	struct host_record h;
	struct run_probe p[2];
	struct check_report checks = { 0 };
	struct result_map *map = result_map_new();
	struct result_map_cpuid_profile *prof =
		map ? result_map_cpuid_profile_add(map, "host", NULL) : NULL;
	struct result_map_entry *e = prof ? result_map_entry_add(prof) : NULL;
	struct result_doc d;
	struct result_file *rf;
	struct err err;
	char path[PATH_MAX], keys[512], finished[RESULT_DOC_TIME_LEN], *text, *file;

	if (e) {
		snprintf(e->reg, sizeof(e->reg), "cr4");
		snprintf(e->name, sizeof(e->name), "OSXSAVE");
		snprintf(e->op, sizeof(e->op), "toggle");
		e->bit = 18;
		snprintf(e->detail, sizeof(e->detail), "not measured here");
	}
	host_fill(&h);
	probes_fill(p);
	check_add(&checks, "xstate", "xcr0_roundtrip", CHECK_PASS, "XCR0 0x3 read back");
	result_doc_init(&d, "run", 4, argv);
	d.host = &h;
	d.settings.cpu = 2;
	d.settings.samples = 50;
	d.probes = p;
	d.n_probes = 2;
	d.map = map;
	d.checks = &checks;
	ok(!result_doc_warn(&d, "first warning") && !result_doc_warn(&d, "second \"warning\""),
	   "run: two warnings appended");
	snprintf(path, sizeof(path), "%s/run.json", tmp);
	if (!ok(!result_doc_write(&d, path, NULL, &err), "run: written")) {
		diag("%s", err.msg);
		tap_skip(8, "not written");
		goto out;
	}
	top_keys(path, keys, sizeof(keys));
	tap_is_str(keys, "schema,schema_version,tool,kind,command,started,pid,map,checks,host,settings,"
		   "probes,warnings,finished", "run: the members in the file's order (--all's first)");
	rf = result_read_file(path, &err);
	if (ok(rf && rf->kind == RESULT_KIND_RUN, "run: read back as kind run")) {
		ok(rf->n_command == 5 && !strcmp(rf->command[0], "exitscope") &&
		   !strcmp(rf->command[1], "run") && !strcmp(rf->command[4], "doc.json") &&
		   rf->pid == getpid() && !strcmp(rf->started, d.started) &&
		   !strcmp(rf->finished, d.finished),
		   "run: command (after \"exitscope\"), pid, started and finished as the document has them");
		ok(!strcmp(rf->host.kernel, "6.18.44-doc") && rf->settings.cpu == 2 &&
		   rf->settings.samples == 50 && rf->n_probes == 2 && !strcmp(rf->probes[0].name, "cpuid") &&
		   rf->probes[0].n_samples == 3 && rf->probes[0].samples[1] == 101.25 &&
		   rf->probes[1].status == PROBE_SKIPPED && rf->map && rf->map->n_profiles == 1 &&
		   rf->checks.n == 1 && !strcmp(rf->checks.r[0].name, "xcr0_roundtrip"),
		   "run: host, settings, probes, map and checks with the models' values");
		ok(rf->n_warnings == 2 && !strcmp(rf->warnings[0], "first warning") &&
		   !strcmp(rf->warnings[1], "second \"warning\""), "run: the warnings in order");
		result_free(rf);
	} else {
		diag("%s", rf ? "another kind" : err.msg);
		skip("not read");
		skip("not read");
		skip("not read");
	}
	/* A second write (the result kept elsewhere) keeps the first's "finished". */
	snprintf(finished, sizeof(finished), "%s", d.finished);
	snprintf(d.finished, sizeof(d.finished), "2001-02-03T04:05:06Z");
	ok(!result_doc_write(&d, path, NULL, &err) && (rf = result_read_file(path, &err)) &&
	   !strcmp(rf->finished, "2001-02-03T04:05:06Z"),
	   "run: a later write keeps the \"finished\" the document has");
	if (rf)
		result_free(rf);
	snprintf(d.finished, sizeof(d.finished), "%s", finished);
	ok(!result_doc_write(&d, path, NULL, &err), "run: written again");
	text = result_doc_text(&d);
	file = slurp(path);
	ok(text && file && strlen(file) == strlen(text) + 1 && !strncmp(file, text, strlen(text)) &&
	   file[strlen(text)] == '\n', "run: the text is the file's, but its final newline");
	free(text);
	free(file);
out:
	result_doc_release(&d);
	result_map_free(map);
	check_report_free(&checks);
}

/* The other kinds: the host first, their one member after it, nothing of a run's. */
static void test_kinds(void)
{
	char *argv[] = { "check", NULL };
	struct check_report checks = { 0 };
	struct result_map *map = result_map_new();
	struct host_record h;
	struct result_doc d;
	char path[PATH_MAX], keys[512];
	struct err err;

	host_fill(&h);
	check_add(&checks, "cet", "shstk_msrs", CHECK_SKIP, "no SHSTK");
	snprintf(path, sizeof(path), "%s/kinds.json", tmp);

	result_doc_init(&d, "check", 1, argv);
	d.host = &h;
	d.checks = &checks;
	ok(!result_doc_write(&d, path, NULL, &err), "check: written");
	top_keys(path, keys, sizeof(keys));
	tap_is_str(keys, "schema,schema_version,tool,kind,command,started,pid,host,checks,finished",
		   "check: host, then checks");
	result_doc_release(&d);

	argv[0] = "map";
	result_doc_init(&d, "map", 1, argv);
	d.host = &h;
	d.map = map;
	ok(map && !result_doc_write(&d, path, NULL, &err), "map: written");
	top_keys(path, keys, sizeof(keys));
	tap_is_str(keys, "schema,schema_version,tool,kind,command,started,pid,host,map,finished",
		   "map: host, then map");
	result_doc_release(&d);

	argv[0] = "info";
	result_doc_init(&d, "info", 1, argv);
	d.host = &h;
	ok(!result_doc_write(&d, path, NULL, &err), "info: written");
	top_keys(path, keys, sizeof(keys));
	tap_is_str(keys, "schema,schema_version,tool,kind,command,started,pid,host,finished",
		   "info: the host alone");
	result_doc_release(&d);
	result_map_free(map);
	check_report_free(&checks);
}

static int hook_opened, hook_closed;

/* What a stop does to a write blocked on a FIFO (cli_stop_output): the rest fails at once. */
static void stop_hook(const struct outfile *o)
{
	if (!o) {
		hook_closed++;
		return;
	}
	hook_opened++;
	fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) | O_NONBLOCK);
}

static void test_stop(void)
{
	char *argv[] = { "run", NULL };
	char fifo[PATH_MAX], kept[PATH_MAX], finished[RESULT_DOC_TIME_LEN], msg[128];
	struct host_record h;
	struct run_probe p[2];
	struct result_doc d;
	struct result_file *rf = NULL;
	struct err err;
	size_t n;
	int rfd, r, size;

	snprintf(fifo, sizeof(fifo), "%s/fifo", tmp);
	if (mkfifo(fifo, 0600) || (rfd = open(fifo, O_RDONLY | O_NONBLOCK)) < 0) {
		tap_skip(5, "cannot make a FIFO here");
		return;
	}
	/* Warnings enough to fill the FIFO twice over: the write cannot complete. */
	size = fcntl(rfd, F_GETPIPE_SZ);
	n = (size > 0 ? (size_t)size : 65536) / 40;
	host_fill(&h);
	probes_fill(p);
	result_doc_init(&d, "run", 1, argv);
	d.host = &h;
	d.probes = p;
	d.n_probes = 2;
	for (size_t i = 0; i < n; i++) {
		snprintf(msg, sizeof(msg), "warning %zu of what was measured", i);
		if (result_doc_warn(&d, msg))
			break;
	}
	r = result_doc_write(&d, fifo, stop_hook, &err);
	ok((r == -EAGAIN || r == -EINTR) && err.code == r,
	   "stopped: the write to the full FIFO fails with -EAGAIN (got %d: %s)", r, r ? err.msg : "");
	ok(hook_opened == 1 && hook_closed == 1, "stopped: the hook saw the FIFO opened, then closed");
	snprintf(finished, sizeof(finished), "%s", d.finished);
	r = result_doc_write_unique(&d, kept, sizeof(kept), &err);
	ok(!r && !strncmp(kept, tmp, strlen(tmp)) && strstr(kept, "/exitscope-run-"),
	   "stopped: the result kept in $TMPDIR/exitscope-run-*.json");
	if (!r)
		rf = result_read_file(kept, &err);
	ok(rf && rf->n_warnings == n && rf->n_probes == 2 && rf->probes[0].n_samples == 3 &&
	   !strcmp(rf->host.kernel, "6.18.44-doc"),
	   "stopped: the kept file has all that was measured (%zu warnings, the probes, the host)", n);
	ok(rf && rf->finished && !strcmp(rf->finished, finished),
	   "stopped: with the \"finished\" of the write the stop cut");
	if (rf)
		result_free(rf);
	result_doc_release(&d);
	close(rfd);
}

int main(void)
{
	tap_plan(21);
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temporary directory");
	setenv("TMPDIR", tmp, 1);
	test_run();
	test_kinds();
	test_stop();
	fixture_rmdir(tmp);
	return tap_done();
}
