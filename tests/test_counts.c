// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_counts.c - the counts file's census (format 2) and its count bound:
 * census lines of a hand-made format-2 file land in their sides (an
 * operand or "-"), a format-1 file reads with no census, a census line in
 * a format-1 file, a format after another and malformed census lines are
 * refused with their line, and a count at PROF_COUNT_MAX (2^53) is taken
 * while one above it (in a census, insn or side line) is refused as out of
 * range, as is a side whose counts of one kind add up above it (a side
 * comes once per probe). The module's own output (tests/data/counts-census.txt, a real
 * profiled lane boot cut to a few probes) reads too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "profile/counts.h"
#include "tests/tap.h"

#define HEAD2	"exitscope-bochs-profile 2\ndump /tmp/run.json\nprobe cpuid\n" \
		"side op ops 10 batches 2 guest 90 kernel 530 user 4\n"

static const char v2_text[] =
	HEAD2
	"insn ffffffff81001010 100\n"
	"census ffffffff81002450 vmresume - 10\n"
	"census ffffffff81001020 vmread 4402 10\n"
	"census ffffffff81001020 vmread 440c 10\n"
	"census ffffffff81001030 wrmsr c0000103 3\n"
	"census ffffffff81001040 mov_to_cr 8 1\n"
	"side base ops 10 batches 2 guest 50 kernel 10 user 4\n"
	"census ffffffff81001030 wrmsr c0000103 2\n"
	"side op_irq ops 0 batches 0 guest 0 kernel 0 user 0\n"
	"side base_irq ops 0 batches 0 guest 0 kernel 0 user 0\n"
	"census ffffffff81003000 a_15_chars_name 0 1\n"
	"end\n";

static const char v1_text[] =
	"exitscope-bochs-profile 1\ndump /tmp/run.json\nprobe cpuid\n"
	"side op ops 10 batches 2 guest 90 kernel 530 user 4\n"
	"insn ffffffff81001010 100\n"
	"side base ops 10 batches 2 guest 50 kernel 10 user 4\n"
	"end\n";

static const char *tmpdir;

static const char *write_tmp(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f))
		tap_diag("cannot write %s", path);
	return path;
}

/* Read text as a counts file: its return, the error in err. */
static int read_text(struct prof_file *pf, const char *text, struct err *err)
{
	int r;

	memset(err, 0, sizeof(*err));
	r = prof_file_read(pf, write_tmp("counts.txt", text), err);
	if (!r)
		prof_file_free(pf);
	return r;
}

static const struct prof_census *census_at(const struct prof_side *s, size_t i)
{
	return i < s->census.n ? &s->census.v[i] : NULL;
}

static void test_v2(void)
{
	struct prof_file pf;
	const struct prof_dump *d;
	const struct prof_census *c;
	struct err err = { 0 };

	tap_ok(prof_file_read(&pf, write_tmp("v2.txt", v2_text), &err) == 0, "a format-2 file reads (%s)", err.msg);
	tap_is_u64(pf.version, 2, "its version is 2");
	d = prof_file_dump(&pf, "/tmp/run.json");
	tap_ok(d && d->n == 1, "one dump, one probe");
	if (!d || d->n != 1) {
		tap_skip(7, "no dump to look into");
		prof_file_free(&pf);
		return;
	}
	tap_is_u64(d->probes[0].op.census.n, 5, "five census lines on the op side");
	c = census_at(&d->probes[0].op, 0);
	tap_ok(c && c->rip == 0xffffffff81002450ULL && !strcmp(c->insn, "vmresume") && !c->has_operand &&
	       c->n == 10, "a kind without an operand ('-'): rip, mnemonic, no operand, count");
	c = census_at(&d->probes[0].op, 2);
	tap_ok(c && c->rip == 0xffffffff81001020ULL && !strcmp(c->insn, "vmread") && c->has_operand &&
	       c->operand == 0x440c && c->n == 10, "a VMCS field operand in hexadecimal");
	c = census_at(&d->probes[0].op, 4);
	tap_ok(c && !strcmp(c->insn, "mov_to_cr") && c->has_operand && c->operand == 8 && c->n == 1,
	       "mov_to_cr with its CR number");
	c = census_at(&d->probes[0].base, 0);
	tap_ok(d->probes[0].base.census.n == 1 && c && !strcmp(c->insn, "wrmsr") && c->operand == 0xc0000103 &&
	       c->n == 2, "the base side's census is its own");
	c = census_at(&d->probes[0].base_irq, 0);
	tap_ok(d->probes[0].op_irq.census.n == 0 && c && !strcmp(c->insn, "a_15_chars_name") && c->has_operand &&
	       c->operand == 0, "a 15-character name of [a-z0-9_] the reader does not know is taken; operand 0 is one");
	tap_ok(d->probes[0].op.insn.n == 1 && d->probes[0].op.kernel == 530,
	       "the other lines read as in format 1");
	prof_file_free(&pf);

	tap_ok(prof_file_read(&pf, write_tmp("v1.txt", v1_text), &err) == 0, "a format-1 file reads (%s)", err.msg);
	d = prof_file_dump(&pf, "/tmp/run.json");
	tap_ok(pf.version == 1 && d && d->n == 1 && d->probes[0].op.census.n == 0 &&
	       d->probes[0].base.census.n == 0 && d->probes[0].op.insn.n == 1,
	       "its version is 1 and no side has a census");
	prof_file_free(&pf);
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"census ffffffff81001020 vmread 4402",			/* no count */
		"census ffffffff81001020 vmread 4402 1 more",		/* something after it */
		"census ffffffff81001020 VMREAD 4402 1",		/* upper case */
		"census ffffffff81001020 a_16_chars_name_ - 1",		/* 16 characters */
		"census ffffffff81001020 mov-to-cr 0 1",		/* '-' in the name */
		"census ffffffff81001020 vmread 0x4402 1",		/* 0x */
		"census ffffffff81001020 vmread -4402 1",		/* a sign */
		"census ffffffff81001020 vmread -- 1",			/* not '-' */
		"census 0xffffffff81001020 vmread 4402 1",		/* 0x in the address */
		"census ffffffff81001020 vmread 4402 -1",		/* a signed count */
		"census ffffffff81001020 vmread 4402 1f",		/* a hexadecimal count */
		"census",						/* nothing */
	};
	char text[1024];
	struct prof_file pf;
	struct err err;
	int taken = 0;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(text, sizeof(text), HEAD2 "%s\nend\n", bad[i]);
		if (read_text(&pf, text, &err) != -EINVAL || !strstr(err.msg, "line 5: not \"census ")) {
			tap_diag("  taken: '%s' (%s)", bad[i], err.msg);
			taken++;
		}
	}
	tap_ok(!taken, "malformed census lines are refused with their line (%d of %zu taken)", taken,
	       ARRAY_SIZE(bad));

	snprintf(text, sizeof(text), "%s", v1_text);
	snprintf(strstr(text, "end\n"), sizeof(text) - (size_t)(strstr(text, "end\n") - text),
		 "census ffffffff81001020 vmread 4402 1\nend\n");
	tap_ok(read_text(&pf, text, &err) == -EINVAL && strstr(err.msg, "line 7: a census line in a format 1 profile"),
	       "a census line in a format-1 file: %s", err.msg);
	tap_ok(read_text(&pf, "exitscope-bochs-profile 2\ndump x\nprobe p\ncensus ffff cpuid - 1\nend\n", &err) ==
	       -EINVAL && strstr(err.msg, "line 4: counts before a side line"), "a census line before a side: %s",
	       err.msg);
	tap_ok(read_text(&pf, HEAD2 "side op ops 1 batches 1 guest 0 kernel 0 user 0\nend\n", &err) == -EINVAL &&
	       strstr(err.msg, "line 5: a second side op in probe cpuid"), "a side twice in a probe: %s", err.msg);
	tap_ok(read_text(&pf, "exitscope-bochs-profile 3\n", &err) == -EINVAL &&
	       strstr(err.msg, "line 1: profile format 3 (this exitscope reads 1 to 2)"), "format 3: %s", err.msg);
	tap_ok(read_text(&pf, "exitscope-bochs-profile 0\n", &err) == -EINVAL && strstr(err.msg, "profile format 0"),
	       "format 0: %s", err.msg);
	snprintf(text, sizeof(text), "%s%s", v1_text, v2_text);
	tap_ok(read_text(&pf, text, &err) == -EINVAL &&
	       strstr(err.msg, "line 8: profile format 2 after format 1"), "two formats in one file: %s", err.msg);
}

static void test_range(void)
{
	/* PROF_COUNT_MAX is 2^53 = 9007199254740992. */
	static const struct {
		const char *line;
		int line_no;	/* the line refused, 0: taken */
	} cases[] = {
		{ "census ffffffff81001020 vmread 4402 9007199254740992", 0 },
		{ "census ffffffff81001020 vmread 4402 9007199254740993", 5 },
		{ "census ffffffff81001020 cpuid - 18446744073709551615", 5 },
		{ "insn ffffffff81001020 9007199254740992", 0 },
		{ "insn ffffffff81001020 9007199254740993", 5 },
		{ "exit 10 18446744073709551615", 5 },
		{ "call ffffffff81001020 99999999999999999999999", 5 },
		{ "side base ops 9007199254740992 batches 1 guest 0 kernel 0 user 0", 0 },
		{ "side base ops 18446744073709551615 batches 1 guest 0 kernel 0 user 0", 5 },
		{ "side base ops 1 batches 1 guest 0 kernel 0 user 9007199254740993", 5 },
		/* A side's counts of one tag add up to at most 2^53 too. */
		{ "insn 1 9007199254740000\ninsn 2 992\ncall 3 9007199254740992", 0 },
		{ "insn 1 9007199254740000\ninsn 2 993", 6 },
		{ "census 1 cpuid - 9007199254740000\ncensus 2 rdmsr 10 993", 6 },
		{ "exit 1 9007199254740992\nside base ops 0 batches 0 guest 0 kernel 0 user 0\nexit 1 1", 0 },
	};
	char text[1024], want[64], shown[256], *nl;
	struct prof_file pf;
	struct err err;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int r;

		snprintf(text, sizeof(text), HEAD2 "%s\nend\n", cases[i].line);
		r = read_text(&pf, text, &err);
		snprintf(shown, sizeof(shown), "%s", cases[i].line);
		while ((nl = strchr(shown, '\n')))
			*nl = '|';	/* one TAP line */
		if (!cases[i].line_no) {
			tap_ok(r == 0, "counts up to 2^53 are taken: '%s' (%s)", shown, r ? err.msg : "read");
			continue;
		}
		snprintf(want, sizeof(want), "line %d: count out of range", cases[i].line_no);
		tap_ok(r == -EINVAL && strstr(err.msg, want), "above 2^53 is refused: '%s': %s", shown, err.msg);
	}
	/* The count at the bound is the count read, exactly. */
	snprintf(text, sizeof(text), HEAD2 "%s\nend\n", cases[0].line);
	if (prof_file_read(&pf, write_tmp("max.txt", text), &err) == 0) {
		tap_ok(pf.n == 1 && pf.dumps[0].probes[0].op.census.n == 1 &&
		       pf.dumps[0].probes[0].op.census.v[0].n == PROF_COUNT_MAX &&
		       PROF_COUNT_MAX == UINT64_C(9007199254740992), "the count at the bound is 2^53 as read");
		prof_file_free(&pf);
	} else {
		tap_ok(0, "the count at the bound is 2^53 as read (%s)", err.msg);
	}
}

/*
 * A real profiled lane boot's counts: the VMX lane (Bochs 3.0, 6.1 tiny
 * kernel) with LANE_PROFILE=1, cut to the cpuid probe and invd_xcr0_differs'
 * op and base sides. KVM enters the guest once per CPUID exit and reads the
 * exit reason (VMCS field 0x4402) on the way out.
 */
static void test_real(void)
{
	const char *path = "tests/data/counts-census.txt";	/* the tests run from the top of the tree */
	const struct prof_dump *d;
	const struct prof_side *op = NULL;
	struct prof_file pf;
	struct err err = { 0 };
	uint64_t vmresume = 0, reason = 0;

	tap_ok(prof_file_read(&pf, path, &err) == 0 && pf.version == 2, "%s, the module's own output, reads (%s)",
	       path, err.msg[0] ? err.msg : "format 2");
	d = pf.n == 1 ? &pf.dumps[0] : NULL;
	for (size_t p = 0; d && p < d->n; p++)
		if (!strcmp(d->probes[p].name, "cpuid"))
			op = &d->probes[p].op;
	for (size_t i = 0; op && i < op->census.n; i++) {
		const struct prof_census *c = &op->census.v[i];

		if (!strcmp(c->insn, "vmresume"))
			vmresume += c->n;
		if (!strcmp(c->insn, "vmread") && c->has_operand && c->operand == 0x4402)
			reason += c->n;
	}
	tap_ok(op && op->ops && vmresume == op->ops && reason >= op->ops,
	       "cpuid's op side: one VMRESUME per op, the exit reason read on each exit (%" PRIu64 ", %" PRIu64
	       " for %" PRIu64 " ops)", vmresume, reason, op ? op->ops : 0);
	prof_file_free(&pf);
}

int main(void)
{
	char dir[] = "/tmp/exitscope-test-counts.XXXXXX";
	char cmd[600];

	tap_plan(36);
	tmpdir = mkdtemp(dir);
	if (!tmpdir) {
		perror("mkdtemp");
		return 1;
	}
	test_v2();
	test_refused();
	test_range();
	test_real();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		tap_diag("cannot remove %s", tmpdir);
	return tap_done();
}
