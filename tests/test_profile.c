/*
 * test_profile.c - the exit-path profile on synthetic emulator counts and
 * symbol tables: System.map loading and lookup, the counts file's reader
 * (complete and cut-off dumps, bad lines), the attribution (op minus
 * baseline per function, calls, exits by KVM's names, inlined code billed
 * to its function), the symbol table's check against the VM entries the
 * emulator saw (matching, mismatching, missing), the "exit_path" JSON round
 * trip and its reader's checks, and `exitscope profile` on a recorded lane
 * run: the profile lands in the file, a wrong or missing table gives one
 * line, exit 1 and an untouched file; counts or a table that is no regular
 * file (a FIFO, a device, a directory) is refused at once, exit 2.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/attribute.h"
#include "profile/counts.h"
#include "profile/symtab.h"
#include <jansson.h>

#include "results/exit_path.h"
#include "results/result_read.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

/* A tiny System.map: two names at one address (the global one wins), data, _etext. */
static const char map_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81001000 t vmx_handle_exit\n"
	"ffffffff81001000 T vmx_handle_exit_alias\n"
	"ffffffff81002000 T kvm_emulate_cpuid\n"
	"ffffffff81002400 T __vmx_vcpu_run\n"
	"ffffffff81002500 T vmx_vmexit\n"
	"ffffffff81003000 W kvm_skip_emulated_instruction\n"
	"ffffffff81004000 T _etext\n"
	"ffffffff82000000 D some_data\n";

/* Two dumps (the second cut off by the end of the file). */
static const char counts_text[] =
	"exitscope-bochs-profile 1\n"
	"dump /tmp/run.json\n"
	"probe cpuid\n"
	"side op ops 100 batches 2 guest 900 kernel 5300 user 40\n"
	"exit 10 100\n"
	"exit 1 3\n"
	"insn ffffffff81001010 1000\n"
	"insn ffffffff81002010 4000\n"
	"insn ffffffff81002410 200\n"
	"insn ffffffff81003004 100\n"
	"call ffffffff81002000 100\n"
	"call ffffffff81003000 100\n"
	"entry ffffffff81002450 103\n"
	"side base ops 100 batches 2 guest 500 kernel 100 user 40\n"
	"exit 1 1\n"
	"insn ffffffff81001010 60\n"
	"insn ffffffff85000000 40\n"
	"entry ffffffff81002450 1\n"
	"side op_irq ops 50 batches 1 guest 450 kernel 9000 user 20\n"
	"insn ffffffff81002010 2000\n"
	"entry ffffffff81002450 50\n"
	"side base_irq ops 50 batches 1 guest 250 kernel 50 user 20\n"
	"probe tscdeadline\n"
	"side op ops 0 batches 0 guest 0 kernel 0 user 0\n"
	"side base ops 0 batches 0 guest 0 kernel 0 user 0\n"
	"side op_irq ops 8 batches 2 guest 80 kernel 800 user 0\n"
	"insn ffffffff81002010 800\n"
	"side base_irq ops 8 batches 2 guest 16 kernel 0 user 0\n"
	"probe hlt\n"
	"side op ops 10 batches 2 guest 20 kernel 0 user 0\n"
	"side base ops 12 batches 2 guest 20 kernel 0 user 0\n"
	"end\n"
	"exitscope-bochs-profile 1\n"
	"dump /tmp/other.json\n"
	"probe cpuid\n";

static const char *tmpdir;

static const char *write_tmp(const char *name, const char *text)
{
	static char paths[8][512];
	static int next;
	char *p = paths[next++ % 8];
	FILE *f;

	snprintf(p, sizeof(paths[0]), "%s/%s", tmpdir, name);
	f = fopen(p, "w");
	if (!f || fputs(text, f) == EOF || fclose(f))
		tap_diag("cannot write %s", p);
	return p;
}

static void test_symtab(void)
{
	struct symtab st;
	struct err err;
	const struct sym *s;

	tap_ok(symtab_load(&st, write_tmp("System.map", map_text), &err) == 0,
	       "System.map loads (%s)", err.msg);
	tap_is_u64(st.n, 7, "seven text addresses, _etext among them (one name each; data skipped)");
	s = symtab_find(&st, 0xffffffff81001abcULL);
	tap_is_str(s ? s->name : NULL, "vmx_handle_exit_alias", "an address in a function: the global name of its address");
	s = symtab_find(&st, 0xffffffff81002400ULL);
	tap_is_str(s ? s->name : NULL, "__vmx_vcpu_run", "a function's first byte is its own");
	s = symtab_find(&st, 0xffffffff81003fffULL);
	tap_is_str(s ? s->name : NULL, "kvm_skip_emulated_instruction", "the last byte before _etext");
	tap_ok(!symtab_find(&st, 0xffffffff81004000ULL), "_etext and beyond: no function");
	tap_ok(!symtab_find(&st, 0xffffffff80ffffffULL), "below the first symbol: no function");
	tap_ok(symtab_lookup(&st, "kvm_emulate_cpuid") != NULL, "lookup by name");
	symtab_free(&st);

	tap_ok(symtab_load(&st, write_tmp("bad.map", "hello world\n"), &err) == -EINVAL &&
	       strstr(err.msg, "not a System.map"), "a file that is no System.map: %s", err.msg);
	tap_ok(symtab_load(&st, write_tmp("nodata.map", "ffffffff81000000 T _text\n"), &err) == -EINVAL &&
	       strstr(err.msg, "no _etext"), "no _etext: %s", err.msg);
	tap_ok(symtab_load(&st, "/nonexistent/System.map", &err) == -ENOENT &&
	       strstr(err.msg, "No such file"), "a missing file: %s", err.msg);
	tap_ok(symtab_load(&st, tmpdir, &err) == -EIO && strstr(err.msg, "is a directory"),
	       "a directory: -EIO, not a file to read: %s", err.msg);
	tap_ok(symtab_load(&st, "/dev/null", &err) == -EIO &&
	       strstr(err.msg, "is a character device, not a regular file"), "a device: -EIO: %s", err.msg);
}

static void test_counts(void)
{
	struct prof_file pf;
	const struct prof_dump *d;
	struct err err;

	tap_ok(prof_file_read(&pf, write_tmp("counts.txt", counts_text), &err) == 0,
	       "the counts file reads (%s)", err.msg);
	tap_is_u64(pf.n, 1, "one complete dump; the one cut off by the end of the file is dropped");
	d = prof_file_dump(&pf, "/tmp/run.json");
	tap_ok(d && d->n == 3 && !strcmp(d->probes[0].name, "cpuid"), "the dump by its label, three probes");
	tap_ok(d && d->probes[0].op.ops == 100 && d->probes[0].op.kernel == 5300 &&
	       d->probes[0].op.insn.n == 4 && d->probes[0].base.insn.n == 2 &&
	       d->probes[0].op.exits.n == 2 && d->probes[0].op.exits.v[0].key == 10,
	       "sides, addresses and exit reasons (decimal) as written");
	tap_ok(!prof_file_dump(&pf, "/tmp/other.json"), "no dump for the cut-off label");
	prof_file_free(&pf);

	tap_ok(prof_file_read(&pf, write_tmp("c2.txt", "exitscope-bochs-profile 3\n"), &err) == -EINVAL &&
	       strstr(err.msg, "profile format 3"), "another format version: %s", err.msg);
	tap_ok(prof_file_read(&pf, write_tmp("c3.txt", "exitscope-bochs-profile 1\ndump x\nprobe p\nside op ops 1 batches 1 guest 0 kernel 0 user 0\nwhat 1 2\nend\n"), &err) == -EINVAL && strstr(err.msg, "line 5: unknown line"),
	       "an unknown line: %s", err.msg);
	tap_ok(prof_file_read(&pf, write_tmp("c4.txt", "insn 1 2\n"), &err) == -EINVAL &&
	       strstr(err.msg, "not an exitscope Bochs profile"), "not a profile: %s", err.msg);
	tap_ok(prof_file_read(&pf, write_tmp("c5.txt", ""), &err) == -EINVAL &&
	       strstr(err.msg, "wrote no profile"), "an empty file: %s", err.msg);
	tap_ok(prof_file_read(&pf, tmpdir, &err) == -EISDIR && strstr(err.msg, "is a directory"),
	       "a directory is refused: %s", err.msg);
	tap_ok(prof_file_read(&pf, "/dev/null", &err) == -EINVAL &&
	       strstr(err.msg, "is a character device, not a regular file"), "a device is refused: %s", err.msg);
	{
		static const char nul[] = "exitscope-bochs-profile 1\ndump x\0\n";
		const char *p = write_tmp("c6.txt", "");
		FILE *f = fopen(p, "w");

		if (!f || fwrite(nul, 1, sizeof(nul) - 1, f) != sizeof(nul) - 1 || fclose(f))
			tap_diag("cannot write %s", p);
		tap_ok(prof_file_read(&pf, p, &err) == -EINVAL &&
		       strstr(err.msg, "a NUL byte at offset 32"), "a NUL byte is named with its offset: %s", err.msg);
	}
	/* Numbers as the emulator writes them, whole: no sign, no 0x, nothing after them. */
	{
		static const char *const bad[] = {
			"insn -5 3", "insn 0xffff 3", "exit 10 100 junk", "call ffff +3", "entry ffff 3x",
			"side op ops 1 batches 1 guest 0 kernel 0 user 0 more", "side op ops -1 batches 1 guest 0 kernel 0 user 0",
		};
		int taken = 0;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char text[512];

			snprintf(text, sizeof(text), "exitscope-bochs-profile 1\ndump x\nprobe p\n"
				 "side op ops 1 batches 1 guest 0 kernel 0 user 0\n%s\nend\n", bad[i]);
			if (prof_file_read(&pf, write_tmp("c8.txt", text), &err) != -EINVAL ||
			    !strstr(err.msg, "line 5: not")) {
				tap_diag("  taken: '%s' (%s)", bad[i], err.msg);
				taken++;
				prof_file_free(&pf);
			}
		}
		tap_ok(!taken, "a count with a sign, 0x or anything after it is refused (%d of 7 taken)", taken);
	}
	/* Cut off in the middle of a line: the complete dump stays, the cut one goes. */
	{
		char cut[sizeof(counts_text) + 64];

		snprintf(cut, sizeof(cut), "%sside op ops 1 batc", counts_text);
		tap_ok(prof_file_read(&pf, write_tmp("c7.txt", cut), &err) == 0 && pf.n == 1 &&
		       prof_file_dump(&pf, "/tmp/run.json"), "a file cut in the middle of a line keeps its complete dump (%s)",
		       err.msg);
		prof_file_free(&pf);
	}
}

static void test_attribute(void)
{
	struct symtab st;
	struct prof_file pf;
	const struct prof_dump *d;
	const struct exit_path_fn *f;
	struct exit_path e;
	char buf[24];
	struct err err;

	symtab_load(&st, write_tmp("System.map", map_text), &err);
	prof_file_read(&pf, write_tmp("counts.txt", counts_text), &err);
	d = prof_file_dump(&pf, "/tmp/run.json");
	if (!d) {
		tap_skip(16, "the counts file did not read");
		return;
	}
	tap_ok(profile_check_symbols(d, &st, PROFILE_VMX, &err) == 0,
	       "the VM entries lie in __vmx_vcpu_run: the table matches (%s)", err.msg);
	tap_ok(profile_check_symbols(d, &st, PROFILE_SVM, &err) == -EINVAL &&
	       strstr(err.msg, "has no __svm_vcpu_run"), "an SVM lane with a VMX kernel's table: %s", err.msg);
	tap_ok(profile_exit_path(&d->probes[0], &st, PROFILE_VMX, &e, &err) == 0,
	       "cpuid's exit path (%s)", err.msg);
	tap_ok(e.ops == 100 && e.kernel_insn == 5200 && e.guest_insn == 400 && e.user_insn == 0,
	       "kernel, guest and user instructions: op minus baseline (5200, 400, 0)");
	tap_ok(e.interrupted_pairs == 1 && !e.interrupts_included,
	       "the pair with an interrupt is left out, and counted as left out");
	tap_ok(e.n_fns == 5 && !strcmp(e.fns[0].name, "kvm_emulate_cpuid") && e.fns[0].insn == 4000 &&
	       e.fns[e.n_fns - 1].insn == -40 && !strcmp(e.fns[e.n_fns - 1].name, EXIT_PATH_UNKNOWN),
	       "functions by instructions, largest first; an address outside the text is [unknown] (-40)");
	f = exit_path_find(&e, "vmx_handle_exit_alias");
	tap_ok(f && f->insn == 940 && f->calls == 0, "the baseline's instructions in a function are subtracted (1000 - 60)");
	f = exit_path_find(&e, "kvm_skip_emulated_instruction");
	tap_ok(f && f->insn == 100 && f->calls == 100, "calls count by their target's function");
	tap_ok(exit_path_per_op(&e, e.fns[0].insn) == 40.0, "per op: 4000 / 100 = 40");
	tap_ok(e.n_exits == 2 && !strcmp(e.exits[0].reason, "CPUID") && e.exits[0].exits == 100 &&
	       !strcmp(e.exits[1].reason, "EXTERNAL_INTERRUPT") && e.exits[1].exits == 2,
	       "exits by KVM's names, op minus baseline (CPUID 100, EXTERNAL_INTERRUPT 3 - 1)");
	{
		json_t *j = exit_path_json(&e), *doc = json_object();
		struct err jerr;
		struct jcheck c = { .name = "mem", .err = &jerr };
		struct exit_path back;

		json_object_set_new(doc, "exit_path", j);
		err_init(&jerr);
		tap_ok(exit_path_read(&c, doc, &back) == 0 && back.present && back.ops == 100 &&
		       back.n_fns == e.n_fns && back.fns[0].insn == 4000 && back.n_exits == 2 &&
		       !strcmp(back.exits[0].reason, "CPUID"), "the JSON reads back as written (%s)", jerr.msg);
		exit_path_free(&back);
		json_object_set_new(json_array_get(json_object_get(j, "functions"), 0), "insn_per_op", json_real(41));
		tap_ok(exit_path_read(&c, doc, &back) == -EINVAL && strstr(c.err->msg, "is not insn / ops"),
		       "a per-op figure that is not count / ops is refused: %s", jerr.msg);
		c = (struct jcheck){ .name = "mem", .err = &jerr };
		json_object_set_new(j, "ops", json_integer(0));
		tap_ok(exit_path_read(&c, doc, &back) == -EINVAL && strstr(jerr.msg, "exit_path.ops"),
		       "ops 0 is refused: %s", jerr.msg);
		json_decref(doc);
	}
	exit_path_free(&e);
	tap_ok(profile_exit_path(&d->probes[1], &st, PROFILE_VMX, &e, &err) == 0 &&
	       e.interrupts_included && e.interrupted_pairs == 0 && e.ops == 8 && e.kernel_insn == 800 &&
	       e.guest_insn == 64, "every pair interrupted: their counts, with interrupts included (%s)", err.msg);
	exit_path_free(&e);
	tap_ok(profile_exit_path(&d->probes[2], &st, PROFILE_VMX, &e, &err) == -EINVAL &&
	       strstr(err.msg, "differ"), "op and baseline over different operations: %s", err.msg);
	tap_is_str(profile_exit_name(PROFILE_VMX, 30, buf, sizeof(buf)), "IO_INSTRUCTION", "VMX 30");
	tap_is_str(profile_exit_name(PROFILE_SVM, 0x7b, buf, sizeof(buf)), "io", "SVM 0x7b");
	tap_is_str(profile_exit_name(PROFILE_SVM, 0x9999, buf, sizeof(buf)), "SVM_0x9999", "an SVM code without a name");
	prof_file_free(&pf);

	/* The same counts against a table whose __vmx_vcpu_run moved: a mismatch. */
	{
		static const char moved[] =
			"ffffffff81000000 T _text\n"
			"ffffffff81002000 T kvm_emulate_cpuid\n"
			"ffffffff81003000 T __vmx_vcpu_run\n"
			"ffffffff81004000 T _etext\n";
		struct symtab st2;

		symtab_load(&st2, write_tmp("moved.map", moved), &err);
		prof_file_read(&pf, write_tmp("counts.txt", counts_text), &err);
		d = prof_file_dump(&pf, "/tmp/run.json");
		tap_ok(d && profile_check_symbols(d, &st2, PROFILE_VMX, &err) == -EINVAL &&
		       strstr(err.msg, "does not match the running kernel") && strstr(err.msg, "kvm_emulate_cpuid"),
		       "a table that puts the VM entry elsewhere: %s", err.msg);
		symtab_free(&st2);
		prof_file_free(&pf);
	}
	symtab_free(&st);
}

static void test_cli(void)
{
	const char *exe = getenv("EXITSCOPE");
	char run[512], out[512], *before, *after;
	struct result_file *rf;
	struct run_result r;
	struct err err;
	size_t n1, n2;

	if (!exe) {
		tap_skip(12, "EXITSCOPE is not set (make check sets it)");
		return;
	}
	snprintf(run, sizeof(run), "%s/run.json", tmpdir);
	snprintf(out, sizeof(out), "%s/profiled.json", tmpdir);
	before = run_read_file("lanes/samples/vmx/run.json", &n1);
	if (!before) {
		tap_skip(12, "lanes/samples/vmx/run.json is not readable from here");
		return;
	}
	write_tmp("run.json", before);
	write_tmp("System.map", map_text);
	write_tmp("counts.txt", counts_text);
	{
		char map[512], counts[512];
		const char *argv[] = { exe, "profile", "--counts", counts, "--symbols", map, "-o", out, run, NULL };

		snprintf(map, sizeof(map), "%s/System.map", tmpdir);
		snprintf(counts, sizeof(counts), "%s/counts.txt", tmpdir);
		run_cmd(&r, argv);
		tap_ok(r.status == 0 && strstr(r.out, "exit paths of 1 of 20 probes"),
		       "profile attaches cpuid's exit path (status %d: %.*s%.*s)", r.status,
		       (int)strcspn(r.out, "\n"), r.out, (int)strcspn(r.err, "\n"), r.err);
		run_free(&r);
		rf = result_read_file(out, &err);
		tap_ok(rf != NULL, "the profiled run reads back (%s)", rf ? "ok" : err.msg);
		if (rf) {
			const struct run_probe *p = result_find_probe(rf, "cpuid");
			const struct run_probe *q = result_find_probe(rf, "pio_to_user");

			tap_ok(p && p->exit_path.present && p->exit_path.kernel_insn == 5200 &&
			       !strcmp(p->exit_path.fns[0].name, "kvm_emulate_cpuid"),
			       "cpuid has its exit path, kvm_emulate_cpuid first");
			tap_ok(q && !q->exit_path.present, "a probe the dump does not have gets none");
			tap_ok(json_integer_value(json_object_get(rf->doc, "schema_version")) == RESULT_SCHEMA_VERSION,
			       "the profiled file is written as schema version %d", RESULT_SCHEMA_VERSION);
			result_free(rf);
		} else {
			tap_skip(3, "no file");
		}

		/* The report shows it. */
		{
			char html[512];
			const char *rargv[] = { exe, "report", "-o", html, out, NULL };
			char *text;

			snprintf(html, sizeof(html), "%s/report.html", tmpdir);
			run_cmd(&r, rargv);
			text = run_read_file(html, NULL);
			tap_ok(r.status == 0 && text && strstr(text, "<section id=\"exit-path\">") &&
			       strstr(text, "<td>kvm_emulate_cpuid</td><td>40.0</td><td>1.0</td>") &&
			       strstr(text, "CPUID 1.0"),
			       "the report has the exit-path section: kvm_emulate_cpuid 40 insn/op, 1 call/op; CPUID 1 exit/op");
			run_free(&r);
			free(text);
		}

		/* compare: the same run profiled with other counts (cpuid's kvm_emulate_cpuid 10 insn/op more, a new function). */
		{
			char *c2 = strdup(counts_text), out2[512], *at;
			const char *cargv[] = { exe, "compare", out, out2, NULL };
			char out3[512];
			const char *sargv[] = { exe, "compare", out, out3, NULL };

			snprintf(out2, sizeof(out2), "%s/profiled2.json", tmpdir);
			snprintf(out3, sizeof(out3), "%s/profiled3.json", tmpdir);
			at = c2 ? strstr(c2, "insn ffffffff81002010 4000") : NULL;
			if (at)
				memcpy(at, "insn ffffffff81002010 5000", 26);
			at = c2 ? strstr(c2, "insn ffffffff81003004 100") : NULL;
			if (at)
				memcpy(at, "insn ffffffff81002404 100", 25);	/* kvm_skip_... -> __vmx_vcpu_run */
			at = c2 ? strstr(c2, "guest 900 kernel 5300") : NULL;
			if (at)
				memcpy(at, "guest 900 kernel 6300", 21);
			write_tmp("counts2.txt", c2 ? c2 : "");
			snprintf(counts, sizeof(counts), "%s/counts2.txt", tmpdir);
			argv[7] = out2;
			run_cmd(&r, argv);
			run_free(&r);
			run_cmd(&r, cargv);
			tap_ok(strstr(r.out, "exit paths: 1 of 1 profiled probes changed") &&
			       strstr(r.out, "cpuid: kernel 52.0 -> 62.0 insn/op (+10.0)") &&
			       strstr(r.out, "kvm_emulate_cpuid                   +10.0 insn/op  +0.00 calls/op\n") &&
			       strstr(r.out, "kvm_skip_emulated_instruction        -1.0 insn/op  +0.00 calls/op\n"),
			       "compare names the functions that changed, per op");
			run_free(&r);
			/* The same profile under another run's identity (compare refuses one run twice). */
			{
				json_t *doc = json_load_file(out, 0, NULL);

				json_object_set_new(doc, "started", json_string("2026-01-01T00:00:00Z"));
				json_object_set_new(doc, "pid", json_integer(2));
				if (!doc || json_dump_file(doc, out3, JSON_INDENT(1)))
					tap_diag("cannot write %s", out3);
				json_decref(doc);
			}
			run_cmd(&r, sargv);
			tap_like(r.out, "exit paths: 1 probes profiled on both sides, none changed",
				 "a run against itself: no exit-path change");
			run_free(&r);
			free(c2);
			snprintf(counts, sizeof(counts), "%s/counts.txt", tmpdir);
		}

		/* A table that does not match: one line, exit 1, the file untouched. */
		write_tmp("moved.map", "ffffffff81000000 T _text\nffffffff81003000 T __vmx_vcpu_run\nffffffff81004000 T _etext\n");
		snprintf(map, sizeof(map), "%s/moved.map", tmpdir);
		argv[7] = run;
		run_cmd(&r, argv);
		after = run_read_file(run, &n2);
		tap_ok(r.status == 1 && strstr(r.err, "no profile") && strstr(r.err, "does not match the running kernel") &&
		       !strchr(strchr(r.err, '\n') + 1, '\n'),
		       "a mismatching table: exit 1, one line (%.*s)", (int)strcspn(r.err, "\n"), r.err);
		tap_ok(after && n1 == n2 && !memcmp(before, after, n1), "and the run file is untouched");
		run_free(&r);
		free(after);

		snprintf(map, sizeof(map), "%s/missing.map", tmpdir);
		run_cmd(&r, argv);
		tap_ok(r.status == 1 && strstr(r.err, "no profile") && strstr(r.err, "missing.map: cannot open: No such file"),
		       "a missing table: exit 1, says so (%.*s)", (int)strcspn(r.err, "\n"), r.err);
		run_free(&r);

		argv[3] = "/nonexistent/counts";
		run_cmd(&r, argv);
		tap_ok(r.status == 2 && strstr(r.err, "/nonexistent/counts"), "a missing counts file: exit 2 (%.*s)", (int)strcspn(r.err, "\n"), r.err);
		run_free(&r);
	}
	free(before);
}

/* One line saying why ("exitscope profile: ..."), a usage error's "Try ..." hint aside. */
static bool one_line(const char *err)
{
	const char *nl = strchr(err, '\n');

	if (strncmp(err, "exitscope profile: ", 19) || !nl)
		return false;
	return !nl[1] || (!strncmp(nl + 1, "Try 'exitscope ", 15) && !strchr(nl + 1, '\n')[1]);
}

/* profile with these counts, symbols and output: exit want, one line holding needle. */
static void cli_refused(const char *counts, const char *symbols, const char *out, int want,
			const char *needle, const char *what)
{
	const char *exe = getenv("EXITSCOPE");
	char run[512];
	struct run_result r;

	snprintf(run, sizeof(run), "%s/run.json", tmpdir);
	run_cmd(&r, (const char *const[]){ "timeout", "120", exe, "profile", "--counts", counts,
					   "--symbols", symbols, "-o", out, run, NULL });
	if (!tap_ok(r.status == want && one_line(r.err) && strstr(r.err, needle), "%s: exit %d, one line", what, want))
		tap_diag("  exit %d, stderr: %s", r.status, r.err);
	run_free(&r);
}

/* Inputs that are no regular files: refused at once (exit 2), never waited on or read forever. */
static void test_cli_inputs(void)
{
	char fifo[512], counts[512], map[512], out[512], *before;

	if (!getenv("EXITSCOPE") || !(before = run_read_file("lanes/samples/vmx/run.json", NULL))) {
		tap_skip(10, "EXITSCOPE is not set or lanes/samples/vmx/run.json is not readable from here");
		return;
	}
	write_tmp("run.json", before);
	free(before);
	snprintf(counts, sizeof(counts), "%s", write_tmp("counts.txt", counts_text));
	snprintf(map, sizeof(map), "%s", write_tmp("System.map", map_text));
	snprintf(out, sizeof(out), "%s/out.json", tmpdir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	if (mkfifo(fifo, 0600)) {
		tap_skip(10, "cannot make a FIFO");
		return;
	}
	cli_refused(fifo, map, out, 2, "is a FIFO, not a regular file", "profile --counts FIFO");
	cli_refused(counts, fifo, out, 2, "is a FIFO, not a regular file", "profile --symbols FIFO");
	cli_refused("/dev/zero", map, out, 2, "is a character device, not a regular file", "profile --counts /dev/zero");
	cli_refused(counts, "/dev/zero", out, 2, "is a character device, not a regular file",
		    "profile --symbols /dev/zero");
	cli_refused(counts, tmpdir, out, 2, "is a directory", "profile --symbols DIRECTORY");

	/* -o -: stdout carries the profiled run alone. */
	{
		char run[512];
		struct run_result r;
		json_t *doc;

		snprintf(run, sizeof(run), "%s/run.json", tmpdir);
		run_cmd(&r, (const char *const[]){ getenv("EXITSCOPE"), "profile", "--counts", counts,
						   "--symbols", map, "-o", "-", run, NULL });
		doc = json_loads(r.out, 0, NULL);
		if (!tap_ok(r.status == 0 && doc && json_object_get(doc, "probes"),
			    "profile -o -: stdout is the run's JSON, nothing else"))
			tap_diag("  exit %d, stdout: %.80s, stderr: %s", r.status, r.out, r.err);
		json_decref(doc);
		run_free(&r);
	}

	/* An output that is an input: refused before anything is read, the input untouched. */
	{
		char hard[512], *text;

		snprintf(hard, sizeof(hard), "%s/map-link", tmpdir);
		if (link(map, hard) && errno != EEXIST) {
			tap_skip(2, "cannot make a hard link");
			return;
		}
		cli_refused(counts, map, counts, 2, "is the same file as --counts", "profile -o COUNTS");
		text = run_read_file(counts, NULL);
		tap_ok(text && !strcmp(text, counts_text), "and the counts file is untouched");
		free(text);
		cli_refused(counts, map, hard, 2, "is the same file as --symbols", "profile -o HARD-LINK-TO-SYMBOLS");
		text = run_read_file(map, NULL);
		tap_ok(text && !strcmp(text, map_text), "and the System.map is untouched");
		free(text);
	}
}

int main(void)
{
	char dir[] = "/tmp/exitscope-test-profile.XXXXXX";

	tap_plan(68);
	tmpdir = mkdtemp(dir);
	if (!tmpdir) {
		perror("mkdtemp");
		return 1;
	}
	test_symtab();
	test_counts();
	test_attribute();
	test_cli();
	test_cli_inputs();
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			tap_diag("cannot remove %s", tmpdir);
	}
	return tap_done();
}
