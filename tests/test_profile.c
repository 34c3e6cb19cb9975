// SPDX-License-Identifier: GPL-2.0-only
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

#include "base/array_size.h"
#include "profile/attribute.h"
#include "kvm/msr.h"
#include "profile/census_names.h"
#include "profile/counts.h"
#include "profile/symtab.h"
#include <jansson.h>

#include "results/exit_path.h"
#include "results/result_read.h"
#include "results/schema.h"
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

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
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
	tap_ok(profile_exit_path(&d->probes[0], &st, PROFILE_VMX, pf.version, &e, &err) == 0,
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
	tap_ok(profile_exit_path(&d->probes[1], &st, PROFILE_VMX, pf.version, &e, &err) == 0 &&
	       e.interrupts_included && e.interrupted_pairs == 0 && e.ops == 8 && e.kernel_insn == 800 &&
	       e.guest_insn == 64, "every pair interrupted: their counts, with interrupts included (%s)", err.msg);
	exit_path_free(&e);
	tap_ok(profile_exit_path(&d->probes[2], &st, PROFILE_VMX, pf.version, &e, &err) == -EINVAL &&
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

/*
 * The census: a hand-made op/baseline pair (struct prof_probe in memory,
 * as the counts reader fills it) with costly instructions at known
 * addresses of map_text's functions and outside them.
 */
#define K(a)	(0xffffffff00000000ULL | (a))
static const struct prof_census cen_op[] = {
	{ K(0x81001010), "vmread", 0x4402, 1, 300 },	/* vmx_handle_exit_alias */
	{ K(0x81001020), "vmread", 0x4402, 1, 100 },	/* the same row at another address */
	{ K(0x81001030), "wrmsr", 0xda0, 1, 200 },	/* cancelled by the baseline: dropped */
	{ K(0x81002010), "xsetbv", 0, 1, 512 },		/* kvm_emulate_cpuid */
	{ K(0x81002020), "cpuid", 0, 0, 100 },
	{ K(0x81002030), "wrmsr", 0x1a2, 1, 7 },	/* an MSR without a name */
	{ K(0x81002040), "vmread", 0x4402, 1, 100 },
	{ K(0x81002410), "vmresume", 0, 0, 103 },	/* __vmx_vcpu_run */
	{ K(0x81002420), "mov_to_cr", 4, 1, 5 },
	{ K(0x81002510), "pause", 0, 0, 2 },		/* vmx_vmexit: no insn counts at all */
	{ K(0x85000000), "rdmsr", 0x48, 1, 10 },	/* outside the text */
};
static const struct prof_census cen_base[] = {
	{ K(0x81001010), "vmread", 0x4402, 1, 4 },
	{ K(0x81001030), "wrmsr", 0xda0, 1, 200 },
	{ K(0x81002410), "vmresume", 0, 0, 1 },
	{ K(0x85000000), "rdmsr", 0x48, 1, 12 },	/* more than the op side: -2 stays */
	{ K(0x81003004), "mov_from_dr", 7, 1, 3 },	/* kvm_skip_emulated_instruction: -3 */
};
static const struct prof_count cen_insn_op[] = {
	{ K(0x81000010), 50 }, { K(0x81001010), 1000 }, { K(0x81002010), 4000 }, { K(0x81002410), 200 },
	{ K(0x81003004), 100 },
};
static const struct prof_count cen_insn_base[] = {
	{ K(0x81001010), 60 }, { K(0x85000000), 40 },
};

static struct prof_probe census_probe(void)
{
	struct prof_probe p = { .name = "invd" };

	p.op = (struct prof_side){ .ops = 100, .batches = 2, .guest = 900, .kernel = 5300, .user = 40 };
	p.base = (struct prof_side){ .ops = 100, .batches = 2, .guest = 500, .kernel = 100, .user = 40 };
	p.op.insn = (struct prof_list){ (struct prof_count *)cen_insn_op, 5, 5 };
	p.base.insn = (struct prof_list){ (struct prof_count *)cen_insn_base, 2, 2 };
	p.op.census = (struct prof_census_list){ (struct prof_census *)cen_op, 11, 11 };
	p.base.census = (struct prof_census_list){ (struct prof_census *)cen_base, 5, 5 };
	return p;
}

/* The row (insn, operand) of a census as "insn operand count", or "" when absent. */
static const char *row_of(const struct exit_path_census *c, size_t n, const char *insn, const char *operand)
{
	static char buf[128];

	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].insn, insn) && (operand ? c[i].operand && !strcmp(c[i].operand, operand) : !c[i].operand)) {
			snprintf(buf, sizeof(buf), "%s %s %lld", insn, operand ? operand : "-", c[i].count);
			return buf;
		}
	return "";
}

/* Every census row as "insn operand count" joined by ", ", in order. */
static const char *census_text(const struct exit_path_census *c, size_t n)
{
	static char buf[1024];
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s %s %lld", i ? ", " : "", c[i].insn,
					c[i].operand ? c[i].operand : "-", c[i].count);
	return buf;
}

/* The path's census is its functions' summed, row by row, and nothing else. */
static bool census_is_sum(const struct exit_path *e)
{
	size_t seen = 0;

	for (size_t i = 0; i < e->n_census; i++) {
		long long sum = 0;

		for (size_t f = 0; f < e->n_fns; f++)
			for (size_t k = 0; k < e->fns[f].n_census; k++)
				if (!exit_path_census_cmp(&e->fns[f].census[k], &e->census[i]))
					sum += e->fns[f].census[k].count, seen++;
		if (sum != e->census[i].count)
			return false;
	}
	for (size_t f = 0; f < e->n_fns; f++)
		seen -= e->fns[f].n_census;	/* every function row was one of the path's */
	return seen == 0;
}

static void test_census_names(void)
{
	char buf[CENSUS_NAME_MAX];

	tap_is_str(census_operand_name("wrmsr", 1, 0xda0, buf, sizeof(buf)), "IA32_XSS", "wrmsr 0xda0 is IA32_XSS");
	tap_is_str(census_operand_name("rdmsr", 1, 0xc0000102, buf, sizeof(buf)), "KERNEL_GS_BASE",
		   "rdmsr 0xc0000102 is KERNEL_GS_BASE");
	tap_is_str(census_operand_name("wrmsr", 1, 0x830, buf, sizeof(buf)), "X2APIC_ICR", "x2APIC ICR");
	tap_is_str(census_operand_name("wrmsr", 1, 0x813, buf, sizeof(buf)), "X2APIC_ISR3", "a numbered range: ISR3");
	tap_is_str(census_operand_name("wrmsr", 1, 0x4b564d02, buf, sizeof(buf)), "KVM_ASYNC_PF_EN", "KVM's own MSR");
	tap_is_str(census_operand_name("wrmsr", 1, 0xc0010203, buf, sizeof(buf)), "F15H_PERF_CTR1",
		   "a range with a stride of 2 (AMD's PERF_CTL/CTR pairs)");
	tap_is_str(census_operand_name("wrmsr", 1, 0x1a2, buf, sizeof(buf)), "0x1a2", "an unnamed MSR is its hex");
	tap_is_str(census_operand_name("vmread", 1, 0x4402, buf, sizeof(buf)), "VM_EXIT_REASON", "vmread 0x4402");
	tap_is_str(census_operand_name("vmwrite", 1, 0x682a, buf, sizeof(buf)), "GUEST_SSP", "vmwrite 0x682a");
	tap_is_str(census_operand_name("vmwrite", 1, 0x4830, buf, sizeof(buf)), "0x4830", "an unnamed VMCS field is its hex");
	tap_is_str(census_operand_name("xsetbv", 1, 0, buf, sizeof(buf)), "XCR0", "xsetbv 0 is XCR0");
	tap_is_str(census_operand_name("xsetbv", 1, 1, buf, sizeof(buf)), "XCR1", "xsetbv 1 is XCR1");
	tap_is_str(census_operand_name("mov_to_cr", 1, 4, buf, sizeof(buf)), "CR4", "CR4");
	tap_is_str(census_operand_name("mov_from_dr", 1, 7, buf, sizeof(buf)), "DR7", "DR7");
	tap_ok(!census_operand_name("cpuid", 0, 0, buf, sizeof(buf)), "a kind without an operand: none");
	{
		char a[MSR_NAME_MAX];

		tap_ok(!strcmp(msr_name(MSR_IA32_U_CET, a, sizeof(a)), "IA32_U_CET") &&
		       !strcmp(cet_msr_name(MSR_IA32_U_CET), "U_CET"),
		       "one table: msr_name says IA32_U_CET, the CET suite's short name U_CET");
	}
}

static void test_census_attribute(void)
{
	struct prof_probe p = census_probe();
	struct symtab st;
	struct exit_path e, e1;
	const struct exit_path_fn *f;
	struct err err;

	symtab_load(&st, write_tmp("System.map", map_text), &err);
	err_init(&err);
	if (!tap_ok(profile_exit_path(&p, &st, PROFILE_VMX, 2, &e, &err) == 0 && e.has_census,
		    "a version-2 counts file: an exit path with a census (%s)", err.msg)) {
		tap_skip(14, "no exit path");
		symtab_free(&st);
		return;
	}
	f = exit_path_find(&e, "vmx_handle_exit_alias");
	tap_is_str(f ? census_text(f->census, f->n_census) : "", "vmread VM_EXIT_REASON 396",
		   "one function: two addresses of one (insn, operand) summed, op minus base (400 - 4); "
		   "wrmsr IA32_XSS 200 - 200 dropped");
	f = exit_path_find(&e, "kvm_emulate_cpuid");
	tap_is_str(f ? census_text(f->census, f->n_census) : "",
		   "cpuid - 100, vmread VM_EXIT_REASON 100, wrmsr 0x1a2 7, xsetbv XCR0 512",
		   "another function: by insn then operand; no operand is null; an unnamed MSR is its hex");
	f = exit_path_find(&e, EXIT_PATH_UNKNOWN);
	tap_is_str(f ? census_text(f->census, f->n_census) : "", "rdmsr IA32_SPEC_CTRL -2",
		   "outside the text: [unknown], and a negative count is kept (10 - 12)");
	f = exit_path_find(&e, "kvm_skip_emulated_instruction");
	tap_is_str(f ? census_text(f->census, f->n_census) : "", "mov_from_dr DR7 -3",
		   "a row of the baseline alone: its negative count");
	f = exit_path_find(&e, "vmx_vmexit");
	tap_ok(f && f->insn == 0 && f->calls == 0 && !strcmp(census_text(f->census, f->n_census), "pause - 2"),
	       "a function with census rows but no instructions counted is listed for them");
	f = exit_path_find(&e, "__vmx_vcpu_run");
	tap_is_str(f ? census_text(f->census, f->n_census) : "", "mov_to_cr CR4 5, vmresume - 102", "__vmx_vcpu_run");
	tap_is_str(census_text(e.census, e.n_census),
		   "cpuid - 100, mov_from_dr DR7 -3, mov_to_cr CR4 5, pause - 2, rdmsr IA32_SPEC_CTRL -2, "
		   "vmread VM_EXIT_REASON 496, vmresume - 102, wrmsr 0x1a2 7, xsetbv XCR0 512",
		   "the path's census: the functions' summed (vmread 396 + 100), sorted by insn then operand");
	tap_ok(census_is_sum(&e), "invariant: each path row is the sum of the functions' rows, and no function row is left out");
	tap_is_str(row_of(e.census, e.n_census, "wrmsr", "IA32_XSS"), "", "no row of count 0 on the path");
	tap_ok(e.kernel_insn == 5200 && exit_path_find(&e, "kvm_emulate_cpuid")->insn == 4000,
	       "the census leaves the instruction counts as they were");

	/* Version 1: no census member at all, and otherwise the same exit path. */
	if (profile_exit_path(&p, &st, PROFILE_VMX, 1, &e1, &err) == 0) {
		json_t *j2 = exit_path_json(&e), *j1 = exit_path_json(&e1), *fns;
		size_t i;
		json_t *fn;
		char *s1, *s2;

		s1 = json_dumps(j1, JSON_COMPACT);
		tap_ok(!e1.has_census && !e1.census && s1 && !strstr(s1, "census"),
		       "a version-1 counts file: no census, on the path or any function");
		free(s1);
		json_object_del(j2, "census");
		fns = json_object_get(j2, "functions");
		for (i = json_array_size(fns); i-- > 0;) {
			fn = json_array_get(fns, i);
			json_object_del(fn, "census");
			/* vmx_vmexit is listed for its census alone */
			if (!strcmp(json_string_value(json_object_get(fn, "name")), "vmx_vmexit"))
				json_array_remove(fns, i);
		}
		s1 = json_dumps(j1, JSON_COMPACT | JSON_SORT_KEYS);
		s2 = json_dumps(j2, JSON_COMPACT | JSON_SORT_KEYS);
		tap_ok(s1 && s2 && !strcmp(s1, s2), "and otherwise the JSON of version 2 without its census");
		free(s1);
		free(s2);
		json_decref(j1);
		json_decref(j2);
		exit_path_free(&e1);
	} else {
		tap_skip(2, "version 1 gave no exit path");
	}
	exit_path_free(&e);

	/* Sums are checked, never wrapped (UBSan watches `make check SANITIZE=1`). */
	{
		struct prof_census big[] = {
			{ K(0x81001010), "wrmsr", 0x48, 1, 1ULL << 62 },
			{ K(0x81002010), "wrmsr", 0x48, 1, 1ULL << 62 },
			{ K(0x81002020), "rdmsr", 0x48, 1, (1ULL << 62) + 1 },
		};
		struct prof_probe q = census_probe();

		q.base.census.n = 0;
		q.op.census = (struct prof_census_list){ big, 2, 2 };
		tap_ok(profile_exit_path(&q, &st, PROFILE_VMX, 2, &e, &err) == -ERANGE && strstr(err.msg, "beyond"),
		       "two functions' rows that sum beyond 2^62 on the path: refused (%s)", err.msg);
		q.op.census = (struct prof_census_list){ big + 2, 1, 1 };
		tap_ok(profile_exit_path(&q, &st, PROFILE_VMX, 2, &e, &err) == -ERANGE,
		       "one count beyond 2^62: refused (%s)", err.msg);
	}
	symtab_free(&st);
}

/* Edit the exit path's JSON, read it: the reader's verdict; 0 when it reads. */
static int census_read(json_t *doc, struct exit_path *back, struct err *err)
{
	struct jcheck c = { .name = "mem", .err = err };

	err_init(err);
	return exit_path_read(&c, doc, back);
}

static void test_census_json(void)
{
	struct prof_probe p = census_probe();
	struct symtab st;
	struct exit_path e, back;
	struct err err;
	json_t *doc, *j, *rows;
	const struct exit_path_fn *f;

	symtab_load(&st, write_tmp("System.map", map_text), &err);
	if (profile_exit_path(&p, &st, PROFILE_VMX, 2, &e, &err)) {
		tap_skip(15, "no exit path");
		symtab_free(&st);
		return;
	}
	j = exit_path_json(&e);
	doc = json_pack("{s:O}", "exit_path", j);
	rows = json_object_get(j, "census");
	{
		json_t *x = json_array_get(rows, 8), *c = json_array_get(rows, 0);
		char *s = json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));

		tap_is_str(s, "{\"insn\":\"xsetbv\",\"operand\":\"XCR0\",\"count\":512,\"per_op\":5.12}",
			   "a path census row: insn, operand, count, per_op (512 / 100 ops)");
		free(s);
		tap_ok(json_is_null(json_object_get(c, "operand")), "no operand is null (cpuid)");
	}
	tap_ok(census_read(doc, &back, &err) == 0 && back.has_census && back.n_census == e.n_census &&
	       !strcmp(census_text(back.census, back.n_census), census_text(e.census, e.n_census)),
	       "the census reads back as written (%s)", err.msg);
	f = exit_path_find(&back, "kvm_emulate_cpuid");
	tap_ok(f && !strcmp(census_text(f->census, f->n_census),
			    "cpuid - 100, vmread VM_EXIT_REASON 100, wrmsr 0x1a2 7, xsetbv XCR0 512"),
	       "and so do the functions' censuses");
	{
		json_t *fns = json_object_get(j, "functions"), *fn;
		size_t i, with = 0, without = 0;

		json_array_foreach(fns, i, fn) {
			if (json_integer_value(json_object_get(fn, "insn")) == 50)
				without += !json_object_get(fn, "census");
			else
				with += json_is_array(json_object_get(fn, "census"));
		}
		tap_ok(without == 1 && with == e.n_fns - 1 && back.n_fns == e.n_fns,
		       "a function without census rows (the 50 instructions at _text) has no census member; the others have one");
	}
	exit_path_free(&back);

	/* The reader's refusals, each on a fresh copy. */
	{
		static const struct {
			const char *what, *edit, *needle;
		} bad[] = {
			{ "a row listed twice", "dup", "listed twice" },
			{ "a per_op that is not count / ops", "per_op", "is not count / ops" },
			{ "an operand that is a number", "opnum", "operand: not a string" },
			{ "a row without operand", "opmissing", "no \"operand\"" },
			{ "a row of count 0", "zero", "a census lists no row of count 0" },
			{ "a path row that is not the functions' sum", "sum", "the functions' rows sum to" },
			{ "a function's census without the path's", "nopath", "a census, but the exit path has none" },
			{ "a census that is not an array", "notarray", "census: not an array" },
			{ "an empty insn", "noinsn", "insn" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			json_t *d = json_deep_copy(doc), *ep = json_object_get(d, "exit_path");
			json_t *r = json_object_get(ep, "census"), *r0 = json_array_get(r, 0);
			const char *ed = bad[i].edit;
			int rc;

			if (!strcmp(ed, "dup"))
				json_array_append_new(r, json_deep_copy(r0));
			else if (!strcmp(ed, "per_op"))
				json_object_set_new(r0, "per_op", json_real(9));
			else if (!strcmp(ed, "opnum"))
				json_object_set_new(r0, "operand", json_integer(3));
			else if (!strcmp(ed, "opmissing"))
				json_object_del(r0, "operand");
			else if (!strcmp(ed, "zero"))
				json_object_set_new(r0, "count", json_integer(0)), json_object_set_new(r0, "per_op", json_real(0));
			else if (!strcmp(ed, "sum"))
				json_object_set_new(r0, "count", json_integer(101)), json_object_set_new(r0, "per_op", json_real(1.01));
			else if (!strcmp(ed, "nopath"))
				json_object_del(ep, "census");
			else if (!strcmp(ed, "notarray"))
				json_object_set_new(ep, "census", json_string("x"));
			else if (!strcmp(ed, "noinsn"))
				json_object_set_new(r0, "insn", json_string(""));
			rc = census_read(d, &back, &err);
			if (!tap_ok(rc == -EINVAL && strstr(err.msg, bad[i].needle) && !back.present,
				    "refused: %s (%s)", bad[i].what, err.msg))
				exit_path_free(&back);
			json_decref(d);
		}
	}
	/* Absent: no census, the rest as before. */
	{
		json_t *d = json_deep_copy(doc), *fns = json_object_get(json_object_get(d, "exit_path"), "functions"), *fn;
		size_t i;

		json_object_del(json_object_get(d, "exit_path"), "census");
		json_array_foreach(fns, i, fn)
			json_object_del(fn, "census");
		tap_ok(census_read(d, &back, &err) == 0 && back.present && !back.has_census && !back.census &&
		       back.n_fns == e.n_fns, "an exit path without \"census\" reads, without one (%s)", err.msg);
		exit_path_free(&back);
		json_decref(d);
	}
	json_decref(doc);
	json_decref(j);
	exit_path_free(&e);
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
		tap_skip(13, "EXITSCOPE is not set (make check sets it)");
		return;
	}
	snprintf(run, sizeof(run), "%s/run.json", tmpdir);
	snprintf(out, sizeof(out), "%s/profiled.json", tmpdir);
	before = run_read_file("lanes/samples/vmx/run.json", &n1);
	if (!before) {
		tap_skip(13, "lanes/samples/vmx/run.json is not readable from here");
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
			{
				char *text = run_read_file(out, NULL);

				tap_ok(p && !p->exit_path.has_census && text && !strstr(text, "\"census\""),
				       "a version-1 counts file: no \"census\" anywhere in the profiled run");
				free(text);
			}
			tap_ok(json_integer_value(json_object_get(rf->doc, "schema_version")) == RESULT_SCHEMA_VERSION,
			       "the profiled file is written as schema version %d", RESULT_SCHEMA_VERSION);
			result_free(rf);
		} else {
			tap_skip(4, "no file");
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

	tap_plan(115);
	tmpdir = mkdtemp(dir);
	if (!tmpdir) {
		perror("mkdtemp");
		return 1;
	}
	test_symtab();
	test_counts();
	test_attribute();
	test_census_names();
	test_census_attribute();
	test_census_json();
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
