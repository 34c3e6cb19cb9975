// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_profile_scale.c - the exit-path profile on generated inputs at their
 * limits: a counts file of 200 000 exit lines (exits summed by the name KVM
 * gives their reason, VMX flags above the basic reason folded in, in the
 * order the emulator first listed them, through `exitscope profile` too);
 * a dump of 20 000 probes looked up by name; a path with as many exit
 * reasons, functions and census rows as a result file holds (it reads
 * back) and with one more (refused in one line, never written); counts at
 * 2^53 either way read back from the profiled run; System.map names that
 * are no UTF-8 (refused in one line), very long or UTF-8 (kept whole); and
 * a stop signal while profile is blocked writing to a FIFO its reader
 * stopped reading partway: one line, 128 + the signal, the run file as it
 * was, no temporary left. Counts are asserted, never times.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "profile/attribute.h"
#include "profile/counts.h"
#include "profile/symtab.h"
#include "results/exit_path.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define BOUND	UINT64_C(9007199254740992)	/* PROF_COUNT_MAX, 2^53 */

static char *tmpdir;
static const char *exe;

/* dir/name, in one of 32 static buffers (a few calls' worth). */
static const char *tmp_path(const char *name)
{
	static char paths[32][512];
	static int next;
	char *p = paths[next++ % 32];

	snprintf(p, sizeof(paths[0]), "%s/%s", tmpdir, name);
	return p;
}

/* A System.map of n functions fn_0000.. 16 bytes apart from 0xffffffff81000000, and the entry function. */
static const char *write_map(const char *name, size_t n)
{
	const char *path = tmp_path(name);
	FILE *f = fopen(path, "w");

	if (!f)
		return path;
	fprintf(f, "ffffffff80ff0000 T __vmx_vcpu_run\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%016" PRIx64 " t fn_%05zu\n", UINT64_C(0xffffffff81000000) + 16 * i, i);
	fprintf(f, "%016" PRIx64 " T _etext\n", UINT64_C(0xffffffff81000000) + 16 * n);
	if (fclose(f))
		tap_diag("cannot write %s", path);
	return path;
}

/* The head of a one-probe dump labelled /tmp/run.json (run.json's file name). */
static void dump_head(FILE *f, int version, const char *probe)
{
	fprintf(f, "exitscope-bochs-profile %d\ndump /tmp/run.json\nprobe %s\n", version, probe);
}

static void side(FILE *f, const char *which, uint64_t kernel)
{
	fprintf(f, "side %s ops 100 batches 2 guest 900 kernel %" PRIu64 " user 40\n"
		   "entry ffffffff80ff0010 100\n", which, kernel);
}

/* The profile of probe name in the counts file path, read through the library. */
static int path_of(const char *counts, const char *map, enum profile_vendor v, struct exit_path *e,
		   struct err *err)
{
	struct prof_file pf;
	struct symtab st;
	const struct prof_dump *d;
	int r;

	memset(e, 0, sizeof(*e));
	err_init(err);
	r = prof_file_read(&pf, counts, err);
	if (r)
		return r;
	r = symtab_load(&st, map, err);
	if (r) {
		prof_file_free(&pf);
		return r;
	}
	d = prof_file_dump(&pf, "/tmp/run.json");
	r = d && d->n ? profile_exit_path(&d->probes[0], &st, v, pf.version, e, err)
		      : err_set(err, -EINVAL, "no dump");
	/* The names are the symbol table's: keep them as strings the test owns. */
	for (size_t i = 0; !r && i < e->n_fns; i++)
		e->fns[i].name = strdup(e->fns[i].name);
	symtab_free(&st);
	prof_file_free(&pf);
	return r;
}

static void path_free(struct exit_path *e)
{
	for (size_t i = 0; i < e->n_fns; i++)
		free((char *)e->fns[i].name);
	exit_path_free(e);
}

/* e written as JSON reads back with the result reader's checks: 0, or -EINVAL with err. */
static int reads_back(const struct exit_path *e, struct err *err)
{
	json_t *doc = json_object(), *j = exit_path_json(e);
	struct jcheck c = { .name = "mem", .err = err };
	struct exit_path back;
	int r;

	err_init(err);
	if (!j || json_object_set_new(doc, "exit_path", j)) {
		json_decref(doc);
		return err_set(err, -ENOMEM, "no JSON");
	}
	r = exit_path_read(&c, doc, &back);
	if (!r)
		exit_path_free(&back);
	json_decref(doc);
	return r;
}

/*
 * The exit reasons of the generated file: VMX basic reasons, some written
 * with a flag above the basic reason (bit 31, a failed VM entry; bit 27),
 * which KVM names as the basic one.
 */
static const uint64_t vmx_keys[] = { 10, 1, 30, 0x8000000aULL, 48, 0x0800001eULL, 12 };
#define N_KEYS	ARRAY_SIZE(vmx_keys)
#define EXIT_LINES	100000		/* a side */

static void test_many_exit_lines(void)
{
	const char *counts = tmp_path("many-exits.txt"), *map = write_map("small.map", 16);
	/* Per basic reason: op lines count 3, baseline lines count 1, plus what follows. */
	long long want[64] = { 0 };
	struct exit_path e;
	struct err err;
	FILE *f = fopen(counts, "w");
	bool all = true;

	if (!f) {
		tap_skip(6, "cannot write the counts file");
		return;
	}
	dump_head(f, 1, "cpuid");
	side(f, "op", 1000);
	for (size_t i = 0; i < EXIT_LINES; i++) {
		fprintf(f, "exit %" PRIu64 " 3\n", vmx_keys[i % N_KEYS]);
		want[vmx_keys[i % N_KEYS] & 0xffff] += 3;
	}
	fprintf(f, "exit 55 7\n");	/* XSETBV: op only */
	side(f, "base", 100);
	for (size_t i = 0; i < EXIT_LINES; i++) {
		fprintf(f, "exit %" PRIu64 " 1\n", vmx_keys[(i + 3) % N_KEYS]);
		want[vmx_keys[(i + 3) % N_KEYS] & 0xffff] -= 1;
	}
	fprintf(f, "exit 55 7\n");	/* ... and the same in the baseline: 0, dropped */
	fprintf(f, "exit 40 5\n");	/* PAUSE_INSTRUCTION: baseline only, -5 */
	want[40] -= 5;
	fprintf(f, "end\n");
	if (fclose(f)) {
		tap_skip(6, "cannot write the counts file");
		return;
	}
	if (!tap_ok(path_of(counts, map, PROFILE_VMX, &e, &err) == 0, "200 000 exit lines: the path is made (%s)",
		    err.msg)) {
		tap_skip(5, "no exit path");
		return;
	}
	/* The first listing order: CPUID (10), EXTERNAL_INTERRUPT (1), IO (30), EPT (48), HLT (12), PAUSE (40). */
	{
		static const char *const order[] = { "CPUID", "EXTERNAL_INTERRUPT", "IO_INSTRUCTION",
						     "EPT_VIOLATION", "HLT", "PAUSE_INSTRUCTION" };
		static const unsigned basic[] = { 10, 1, 30, 48, 12, 40 };
		bool in_order = e.n_exits == 6;

		for (size_t i = 0; in_order && i < 6; i++) {
			in_order = !strcmp(e.exits[i].reason, order[i]);
			if (in_order && e.exits[i].exits != want[basic[i]]) {
				tap_diag("  %s: %lld, not %lld", order[i], e.exits[i].exits, want[basic[i]]);
				all = false;
			}
		}
		tap_ok(in_order, "six reasons by KVM's names, in the order first listed (%zu reasons, first %s)",
		       e.n_exits, e.n_exits ? e.exits[0].reason : "none");
		tap_ok(in_order && all, "each is op minus baseline over all its lines, the flagged ones folded in "
		       "(CPUID %lld, IO_INSTRUCTION %lld, PAUSE_INSTRUCTION %lld)", want[10], want[30], want[40]);
	}
	tap_ok(!exit_path_find(&e, "fn_00000") && e.kernel_insn == 900,
	       "the rest as before: kernel 1000 - 100 = 900");
	tap_ok(reads_back(&e, &err) == 0, "and it reads back (%s)", err.msg);
	path_free(&e);

	/* The same through the command: the profiled run has them. */
	if (!exe) {
		tap_skip(1, "EXITSCOPE is not set (make check sets it)");
		return;
	}
	{
		char *run = run_read_file("lanes/samples/vmx/run.json", NULL);
		const char *runp = tmp_path("run.json"), *out = tmp_path("many-exits.json");
		struct run_result r;
		struct result_file *rf;
		const struct run_probe *p;

		if (!run || !fixture_write_raw(tmpdir, "run.json", run, strlen(run))) {
			tap_skip(1, "lanes/samples/vmx/run.json is not readable from here");
			free(run);
			return;
		}
		free(run);
		run_cmd(&r, (const char *const[]){ exe, "profile", "--counts", counts, "--symbols", map,
						   "-o", out, runp, NULL });
		rf = r.status ? NULL : result_read_file(out, &err);
		p = rf ? result_find_probe(rf, "cpuid") : NULL;
		tap_ok(p && p->exit_path.present && p->exit_path.n_exits == 6 &&
		       !strcmp(p->exit_path.exits[0].reason, "CPUID") && p->exit_path.exits[0].exits == want[10],
		       "exitscope profile: the run reads back with CPUID %lld (exit %d%s%s)", want[10], r.status,
		       r.status ? ": " : "", r.status ? r.err : "");
		result_free(rf);
		run_free(&r);
	}
}

static void test_many_probes(void)
{
	const char *counts = tmp_path("many-probes.txt");
	FILE *f = fopen(counts, "w");
	struct prof_file pf;
	struct err err;
	const struct prof_dump *d;
	size_t found = 0;
	char name[32];

	if (!f) {
		tap_skip(3, "cannot write the counts file");
		return;
	}
	fprintf(f, "exitscope-bochs-profile 1\n");
	for (int k = 0; k < 3; k++) {	/* three dumps; the last of one label counts */
		fprintf(f, "dump /tmp/run.json\n");
		for (int i = 0; i < 20000; i++)
			fprintf(f, "probe p%05d\nside op ops %d batches 1 guest 0 kernel 0 user 0\n", 19999 - i, k);
		fprintf(f, "probe p00007\nside op ops 99 batches 1 guest 0 kernel 0 user 0\nend\n");
	}
	if (fclose(f) || prof_file_read(&pf, counts, &err)) {
		tap_skip(3, "cannot write or read the counts file");
		return;
	}
	d = prof_file_dump(&pf, "/tmp/run.json");
	tap_ok(pf.n == 3 && d == &pf.dumps[2] && d->n == 20001, "three dumps of 20 001 probes; the last one's");
	for (int i = 0; d && i < 20000; i++) {
		const struct prof_probe *p;

		snprintf(name, sizeof(name), "p%05d", i);
		p = prof_dump_probe(d, name);
		found += p && !strcmp(p->name, name) && p->op.ops == 2;
	}
	tap_is_u64(found, 20000, "each probe found by its name");
	tap_ok(d && prof_dump_probe(d, "p00007") == &d->probes[19992] && !prof_dump_probe(d, "p20000") &&
	       !prof_dump_probe(d, "") && !prof_dump_probe(d, "p0000"),
	       "a name listed twice: its first probe; names not listed: none");
	prof_file_free(&pf);
}

/* A counts file of one probe: op lines of each kind n distinct keys wide. */
static const char *limit_counts(const char *name, size_t fns, size_t svm_exits, size_t census_rows)
{
	const char *path = tmp_path(name);
	FILE *f = fopen(path, "w");

	if (!f)
		return path;
	dump_head(f, census_rows ? 2 : 1, "limits");
	side(f, "op", 100);
	for (size_t i = 0; i < fns; i++)
		fprintf(f, "insn %016" PRIx64 " 2\n", UINT64_C(0xffffffff81000000) + 16 * i);
	for (size_t i = 0; i < svm_exits; i++)
		fprintf(f, "exit %zu 1\n", 0x1000 + i);	/* SVM codes without a name: SVM_0x1000... */
	for (size_t i = 0; i < census_rows; i++)
		fprintf(f, "census ffffffff81000004 wrmsr %zx 1\n", 0x7f000000 + i);
	side(f, "base", 100);
	fprintf(f, "end\n");
	if (fclose(f))
		tap_diag("cannot write %s", path);
	return path;
}

static void test_limits(void)
{
	const char *map = write_map("big.map", EXIT_PATH_MAX_FUNCTIONS + 1);
	static const struct {
		const char *what;
		size_t fns, exits, census;
		const char *refused;
	} cases[] = {
		{ "as many functions as a result holds", EXIT_PATH_MAX_FUNCTIONS, 0, 0, NULL },
		{ "one function more", EXIT_PATH_MAX_FUNCTIONS + 1, 0, 0, "4097 functions, more than a result file holds (4096)" },
		{ "as many exit reasons as a result holds", 1, EXIT_PATH_MAX_EXITS, 0, NULL },
		{ "one exit reason more", 1, EXIT_PATH_MAX_EXITS + 1, 0, "257 exit reasons, more than a result file holds (256)" },
		{ "as many census rows as a result holds", 1, 0, EXIT_PATH_MAX_CENSUS, NULL },
		{ "one census row more", 1, 0, EXIT_PATH_MAX_CENSUS + 1,
		  "1025 census rows in fn_00000, more than a result file holds (1024)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *counts = limit_counts("limits.txt", cases[i].fns, cases[i].exits, cases[i].census);
		struct exit_path e;
		struct err err;
		int r = path_of(counts, map, PROFILE_SVM, &e, &err);

		if (!cases[i].refused) {
			size_t n = cases[i].census ? e.n_census : cases[i].exits ? e.n_exits : e.n_fns;
			size_t want = cases[i].census ? cases[i].census : cases[i].exits ? cases[i].exits : cases[i].fns;

			tap_ok(r == 0 && n == want && reads_back(&e, &err) == 0, "%s (%zu): made, and it reads back (%s)",
			       cases[i].what, want, r ? err.msg : err.code ? err.msg : "ok");
			if (!r)
				path_free(&e);
		} else {
			tap_ok(r == -E2BIG && !e.present && strstr(err.msg, cases[i].refused) &&
			       !strncmp(err.msg, "limits: ", 8), "%s: refused (%s)", cases[i].what, err.msg);
		}
	}
	/* Through the command: one line, exit 1, nothing written. */
	if (!exe) {
		tap_skip(1, "EXITSCOPE is not set (make check sets it)");
		return;
	}
	{
		static const char want[] = "exitscope profile: no profile: cpuid: 257 exit reasons";
		const char *counts = limit_counts("limits.txt", 1, EXIT_PATH_MAX_EXITS + 1, 0);
		const char *out = tmp_path("limits.json");
		char *run = run_read_file("lanes/samples/svm/run.json", NULL);
		struct run_result r;

		if (!run || !fixture_write_raw(tmpdir, "run.json", run, strlen(run))) {
			tap_skip(1, "lanes/samples/svm/run.json is not readable from here");
			free(run);
			return;
		}
		free(run);
		/* The probe of the dump is the run's first. */
		{
			char *text = run_read_file(counts, NULL), *at = text ? strstr(text, "probe limits") : NULL;

			if (at) {
				memcpy(at, "probe cpuid\n", 12);
				memmove(at + 12, at + 13, strlen(at + 13) + 1);
				fixture_write_raw(tmpdir, "limits.txt", text, strlen(text));
			}
			free(text);
		}
		/* An SVM run: its entries in __svm_vcpu_run. */
		{
			char *m = run_read_file(map, NULL), *at = m ? strstr(m, "__vmx_vcpu_run") : NULL;

			if (at)
				memcpy(at, "__svm", 5);
			if (m)
				fixture_write_raw(tmpdir, "big-svm.map", m, strlen(m));
			free(m);
		}
		run_cmd(&r, (const char *const[]){ exe, "profile", "--counts", counts, "--symbols",
						   tmp_path("big-svm.map"), "-o", out, tmp_path("run.json"), NULL });
		tap_ok(r.status == 1 && !strncmp(r.err, want, strlen(want)) &&
		       strchr(r.err, '\n') == r.err + strlen(r.err) - 1 && access(out, F_OK),
		       "exitscope profile: exit 1, one line, nothing written (exit %d: %s)", r.status, r.err);
		run_free(&r);
	}
}

/* The profiled run's cpuid exit path, read back by the result reader (NULL: none; *st its exit status). */
static struct result_file *profile_run(const char *counts, const char *map, struct run_result *r)
{
	const char *out = tmp_path("bound.json");
	struct err err;

	unlink(out);
	run_cmd(r, (const char *const[]){ exe, "profile", "--counts", counts, "--symbols", map, "-o", out,
					  tmp_path("run.json"), NULL });
	return r->status ? NULL : result_read_file(out, &err);
}

/* Counts at 2^53, the largest the file takes, either way: the profiled run reads back with them. */
static void test_bound(void)
{
	const char *map = write_map("small.map", 16);
	char *run = exe ? run_read_file("lanes/samples/vmx/run.json", NULL) : NULL;

	if (!run || !fixture_write_raw(tmpdir, "run.json", run, strlen(run))) {
		tap_skip(3, "EXITSCOPE is not set or lanes/samples/vmx/run.json is not readable from here");
		free(run);
		return;
	}
	free(run);
	for (int sign = 1; sign >= -1; sign -= 2) {
		const char *counts = tmp_path("bound.txt");
		FILE *f = fopen(counts, "w");
		struct run_result r;
		struct result_file *rf;
		const struct run_probe *p;
		long long b = (long long)BOUND * sign;

		if (!f) {
			tap_ok(0, "cannot write %s", counts);
			continue;
		}
		dump_head(f, 1, "cpuid");
		side(f, sign > 0 ? "op" : "base", BOUND);
		fprintf(f, "exit 10 %" PRIu64 "\ninsn ffffffff81000004 %" PRIu64 "\ncall ffffffff81000010 %" PRIu64 "\n",
			BOUND, BOUND, BOUND);
		side(f, sign > 0 ? "base" : "op", 0);
		fprintf(f, "end\n");
		fclose(f);
		rf = profile_run(counts, map, &r);
		p = rf ? result_find_probe(rf, "cpuid") : NULL;
		tap_ok(p && p->exit_path.kernel_insn == b && p->exit_path.n_exits == 1 &&
		       p->exit_path.exits[0].exits == b && p->exit_path.n_fns == 2 &&
		       exit_path_find(&p->exit_path, "fn_00000")->insn == b &&
		       exit_path_find(&p->exit_path, "fn_00001")->calls == b,
		       "counts of %s2^53 (kernel, an exit, insn, calls) read back from the profiled run (exit %d%s%s)",
		       sign > 0 ? "" : "-", r.status, r.status ? ": " : "", r.err);
		result_free(rf);
		run_free(&r);
	}
	{
		const char *counts = tmp_path("bound.txt");
		FILE *f = fopen(counts, "w");
		struct run_result r;

		if (f) {
			dump_head(f, 1, "cpuid");
			side(f, "op", 0);
			fprintf(f, "exit 10 %" PRIu64 "\n", BOUND + 1);
			fclose(f);
		}
		run_cmd(&r, (const char *const[]){ exe, "profile", "--counts", counts, "--symbols", map, "-o",
						   tmp_path("bound.json"), tmp_path("run.json"), NULL });
		tap_ok(r.status == 2 && strstr(r.err, "line 6: count out of range") &&
		       strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
		       "2^53 + 1: exit 2, one line (%s)", r.err);
		run_free(&r);
	}
}

static void test_names(void)
{
	static const struct {
		const char *s;
		bool ok;
	} utf8[] = {
		{ "vmx_handle_exit", true }, { "caf\xc3\xa9", true }, { "\xf0\x9f\x98\x80", true },
		{ "a\xffz", false }, { "\xc0\xaf", false }, { "\xed\xa0\x80", false }, { "\xf4\x90\x80\x80", false },
		{ "\xe2\x82", false }, { "\xe0\x80\xaf", false },
	};
	size_t wrong = 0;
	char map[8192], longname[601];
	struct symtab st;
	struct err err;

	err_init(&err);
	for (size_t i = 0; i < ARRAY_SIZE(utf8); i++)
		if (symtab_utf8(utf8[i].s, strlen(utf8[i].s)) != utf8[i].ok) {
			tap_diag("  symtab_utf8 wrong on case %zu", i);
			wrong++;
		}
	tap_ok(!wrong, "UTF-8 as JSON takes it: no stray byte, overlong form, surrogate or code past U+10FFFF");

	memset(longname, 'x', 600);
	longname[600] = '\0';
	snprintf(map, sizeof(map), "ffffffff80ff0000 T __vmx_vcpu_run\nffffffff81000000 T %s\n"
		 "ffffffff81000010 T caf\xc3\xa9\nffffffff81000020 T _etext\n", longname);
	fixture_write_raw(tmpdir, "names.map", map, strlen(map));
	tap_ok(symtab_load(&st, tmp_path("names.map"), &err) == 0 &&
	       st.n == 4 && !strcmp(symtab_find(&st, 0xffffffff81000004ULL)->name, longname) &&
	       !strcmp(symtab_find(&st, 0xffffffff81000010ULL)->name, "caf\xc3\xa9"),
	       "a name of 600 characters and a UTF-8 one are kept whole (%s)", err.code ? err.msg : "ok");
	if (!err.code)
		symtab_free(&st);
	err_init(&err);
	snprintf(map, sizeof(map), "ffffffff80ff0000 T __vmx_vcpu_run\nffffffff81000000 T ok\n"
		 "ffffffff81000010 t caf\xe9\nffffffff81000020 T _etext\n");
	fixture_write_raw(tmpdir, "latin1.map", map, strlen(map));
	tap_ok(symtab_load(&st, tmp_path("latin1.map"), &err) == -EINVAL &&
	       strstr(err.msg, "latin1.map: line 3: a symbol name that is not UTF-8"), "a Latin-1 name: refused (%s)",
	       err.msg);
	if (!exe || access(tmp_path("run.json"), R_OK)) {
		tap_skip(2, "EXITSCOPE is not set or there is no run");
		return;
	}
	{
		const char *counts = tmp_path("names.txt");
		FILE *f = fopen(counts, "w");
		struct run_result r;
		struct result_file *rf;

		if (f) {
			dump_head(f, 1, "cpuid");
			side(f, "op", 10);
			fprintf(f, "insn ffffffff81000014 5\n");
			side(f, "base", 0);
			fprintf(f, "end\n");
			fclose(f);
		}
		run_cmd(&r, (const char *const[]){ exe, "profile", "--counts", counts, "--symbols",
						   tmp_path("latin1.map"), "-o", tmp_path("names.json"),
						   tmp_path("run.json"), NULL });
		tap_ok(r.status == 1 && strstr(r.err, "no profile: ") && strstr(r.err, "not UTF-8") &&
		       strchr(r.err, '\n') == r.err + strlen(r.err) - 1 && access(tmp_path("names.json"), F_OK),
		       "exitscope profile with it: exit 1, one line, nothing written (%s)", r.err);
		run_free(&r);
		/* A System.map whose own file name is no UTF-8: recorded escaped, the run reads back. */
		if (link(tmp_path("names.map"), tmp_path("Syst\xe9m.map")) && errno != EEXIST)
			tap_diag("cannot link %s", tmp_path("Syst\xe9m.map"));
		rf = profile_run(counts, tmp_path("Syst\xe9m.map"), &r);
		{
			const struct run_probe *p = rf ? result_find_probe(rf, "cpuid") : NULL;

			tap_ok(p && p->exit_path.symbols && !strncmp(p->exit_path.symbols, "Syst\\xe9m.map (", 15) &&
			       p->exit_path.n_fns == 1 && !strcmp(p->exit_path.fns[0].name, "caf\xc3\xa9"),
			       "a System.map named in Latin-1: the name recorded escaped (%s), the run reads back",
			       p && p->exit_path.symbols ? p->exit_path.symbols : r.err);
		}
		result_free(rf);
		run_free(&r);
	}
}

/*
 * The profiled run far beyond a pipe's 64 KiB (3000 functions), written to
 * a FIFO whose reader took its first 5000 bytes and then stopped: the
 * write that blocks has written part of its bytes. A stop ends it.
 */
static void test_fifo_stop(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	const char *map = write_map("fifo.map", 3000), *counts = tmp_path("fifo.txt");
	char *before, *after;
	size_t n1, n2;
	FILE *f;

	before = exe ? run_read_file("lanes/samples/vmx/run.json", &n1) : NULL;
	if (!before || !fixture_write_raw(tmpdir, "run.json", before, n1)) {
		tap_skip(4 * 3, "EXITSCOPE is not set or lanes/samples/vmx/run.json is not readable from here");
		free(before);
		return;
	}
	f = fopen(counts, "w");
	if (f) {
		dump_head(f, 1, "cpuid");
		side(f, "op", 100000);
		for (size_t i = 0; i < 3000; i++)
			fprintf(f, "insn %016" PRIx64 " %zu\n", UINT64_C(0xffffffff81000000) + 16 * i, i + 1);
		side(f, "base", 0);
		fprintf(f, "end\n");
		fclose(f);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		char fifo[64], want[96];
		const char *sig = sigs[i] == SIGINT ? "Ctrl-C" : sigs[i] == SIGTERM ? "SIGTERM" : "SIGHUP";
		struct run_result r;
		int blocked;

		snprintf(fifo, sizeof(fifo), "out%zu.fifo", i);
		snprintf(want, sizeof(want), "exitscope profile: stopped by %s: the output cut short", sig);
		blocked = run_stop_on_fifo_after(&r, (const char *const[]){ exe, "profile", "--counts", counts,
					"--symbols", map, "-o", tmp_path(fifo), tmp_path("run.json"), NULL },
					tmp_path(fifo), sigs[i], 5000);
		if (blocked < 0 || (!blocked && r.signal == SIGKILL)) {
			tap_skip(4, blocked < 0 ? "cannot make a FIFO or start profile" :
				 "profile never showed in pipe_write (/proc/PID/wchan names no function here)");
			if (!blocked)
				run_free(&r);
			continue;
		}
		if (!tap_ok(blocked, "%s: profile blocked on the FIFO its reader stopped reading (exit %d: %s)",
			    sig, r.status, r.err)) {
			tap_skip(3, "it never blocked");
			run_free(&r);
			continue;
		}
		tap_ok(r.status == 128 + sigs[i] && !r.signal, "ended with exit %d, not killed (%d, signal %d)",
		       128 + sigs[i], r.status, r.signal);
		tap_ok(!strncmp(r.err, want, strlen(want)) && strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
		       "one line: %s", r.err);
		after = run_read_file(tmp_path("run.json"), &n2);
		tap_ok(after && n1 == n2 && !memcmp(before, after, n1) && !fixture_count_prefixed(tmpdir, "run.json.tmp"),
		       "the run file as it was, no temporary beside it");
		free(after);
		run_free(&r);
	}
	free(before);
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	tmpdir = fixture_tmpdir();
	if (!tmpdir)
		return tap_skip_all("cannot make a temp dir");
	tap_plan(6 + 3 + 7 + 3 + 5 + 12);
	test_many_exit_lines();
	test_many_probes();
	test_limits();
	test_bound();
	test_names();
	test_fifo_stop();
	fixture_rmdir(tmpdir);
	return tap_done();
}
