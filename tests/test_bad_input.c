// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bad_input.c - bad input never costs a file, never hangs, never
 * crashes and always says why in one line: an output that is the same
 * file as an input or as another output is refused (exit 2) with the file
 * untouched; a report whose write fails (through a symlink, beside a name
 * of 245 characters, in a directory it cannot write) leaves the old file
 * as it was and no temporary; FIFOs, directories and devices as input
 * files are refused at once; numbers are read whole and decimal, signs,
 * spaces and hexadecimal refused; a run stopped before it measured anything keeps the old file,
 * a SIGTERM is named (exit 143), two Ctrl-C never leave a temporary or end
 * the run silently; test hooks are recorded in the result; a check suite
 * named twice runs once.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array_size.h"
#include "probes/probes.h"
#include "export/openmetrics.h"
#include "report/report.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define TIMEOUT	"120"	/* a safety net for a program that would hang: it fails, never hangs the suite */

static const char *exe;
static char *dir;
static char tmpdir_env[600];
static char a_json[700], b_json[700];

/* The message is one line ("exitscope CMD: ..."), a usage error's "Try ..." hint aside. */
static bool one_line(const char *err)
{
	const char *nl = strchr(err, '\n');

	if (strncmp(err, "exitscope ", 10) || !nl)
		return false;
	return !nl[1] || (!strncmp(nl + 1, "Try 'exitscope ", 15) && strchr(nl + 1, '\n') &&
			  !strchr(nl + 1, '\n')[1]);
}

static char *path_in(const char *name)
{
	static char buf[16][1024];
	static int k;

	k = (k + 1) % 16;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static bool has_content(const char *path, const char *want)
{
	size_t len = 0;
	char *got = run_read_file(path, &len);
	bool same = got && len == strlen(want) && !memcmp(got, want, len);

	free(got);
	return same;
}

static bool put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	return f && fputs(text, f) >= 0 && !fclose(f);
}

/* Names in d holding ".tmp.": temporaries left behind. */
static int tmp_left(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	while (dp && (e = readdir(dp)))
		n += strstr(e->d_name, ".tmp.") != NULL;
	if (dp)
		closedir(dp);
	return n;
}

static void write_inputs(void)
{
	double s[20];
	json_t *doc;
	const char *p;

	for (int k = 0; k < 2; k++) {
		fixture_samples(s, 20, k ? 1100 : 1000, 20, 7 + k);
		doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"),
				     json_pack("[o]", fixture_probe("cpuid", "insn", s, 20, 1.0)));
		p = fixture_write(dir, k ? "b.json" : "a.json", doc);
		json_decref(doc);
		snprintf(k ? b_json : a_json, sizeof(a_json), "%s", p ? p : "");
	}
}

/* argv runs; exit status want, one line containing needle, file path still holds old. */
static void refused(const char *const argv[], int want, const char *needle, const char *path,
		    const char *old, const char *what)
{
	struct run_result r;

	run_cmd(&r, argv);
	if (!ok(r.status == want && one_line(r.err) && strstr(r.err, needle) && (!path || (old && has_content(path, old))),
		"%s: exit %d, one line saying so%s", what, want, path ? ", the file untouched" : ""))
		diag("  exit %d, stderr: %s", r.status, r.err);
	run_free(&r);
}

/* report and export: no result file, or more than they take. */
static void test_operands(void)
{
	static const struct { const char *cmd; int max; } c[] = {
		{ "export", EXPORT_MAX_FILES }, { "report", REPORT_MAX_FILES },
	};
	const char *argv[EXPORT_MAX_FILES + REPORT_MAX_FILES + 8];
	char want[64];

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		int n = 0;

		argv[n++] = exe;
		argv[n++] = c[i].cmd;
		argv[n] = NULL;
		refused(argv, 2, "need at least one result file", NULL, NULL, c[i].cmd);
		argv[n++] = "-o";
		argv[n++] = "/dev/null";
		for (int k = 0; k <= c[i].max; k++)
			argv[n++] = a_json;
		argv[n] = NULL;
		snprintf(want, sizeof(want), "too many files (at most %d)", c[i].max);
		refused(argv, 2, want, NULL, NULL, c[i].cmd);
	}
}

/* An output that is an input, or another output: refused before anything runs. */
static void test_same_file(void)
{
	char *b = path_in("b-copy.json"), *x = path_in("x.json"), *l = path_in("link.json"),
	     *h = path_in("hard.json"), *e = path_in("expect.txt"), *bt, *at;
	size_t len = 0;

	bt = run_read_file(b_json, &len);
	at = run_read_file(a_json, NULL);
	if (!bt || !at || !put(b, bt) || !put(x, "old x\n") || symlink(b, l) || link(b, h) ||
	    !put(e, "map cr4 SMEP toggle owned\n")) {
		free(bt);
		free(at);
		tap_skip(9, "cannot make the files");
		return;
	}
	refused((const char *const[]){ exe, "report", "-o", b, a_json, b, NULL }, 2,
		"-o ", b, bt, "report -o B A B");
	refused((const char *const[]){ exe, "report", "-o", l, a_json, b, NULL }, 2,
		"is the same file as input", b, bt, "report -o LINK-TO-B A B");
	refused((const char *const[]){ exe, "export", "-o", b, b, NULL }, 2,
		"is the same file as input", b, bt, "export -o B B");
	refused((const char *const[]){ exe, "export", "-o", h, b, NULL }, 2,
		"is the same file as input", b, bt, "export -o HARD-LINK-TO-B B");
	refused((const char *const[]){ exe, "compare", "--json", b, a_json, b, NULL }, 2,
		"is the same file as input", b, bt, "compare --json B A B");
	refused((const char *const[]){ exe, "compare", "--noise", a_json, "--json", a_json, b_json, b, NULL }, 2,
		"is the same file as --noise", a_json, at, "compare --noise A --json A B B2");
	refused((const char *const[]){ exe, "run", "nop", "--json", x, "--openmetrics", x, "--kvm-dev",
		"/nonexistent/kvm", NULL }, 2, "--openmetrics", x, "old x\n", "run --json X --openmetrics X");
	refused((const char *const[]){ exe, "run", "nop", "--json", path_in("new.json"), "--openmetrics",
		path_in("./new.json"), "--kvm-dev", "/nonexistent/kvm", NULL }, 2, "--openmetrics", NULL, NULL,
		"run --json NEW --openmetrics ./NEW (a file not there yet)");
	refused((const char *const[]){ exe, "map", "--tap", "--expect", e, "--json", e, "--kvm-dev",
		"/nonexistent/kvm", NULL }, 2, "--expect", e, "map cr4 SMEP toggle owned\n",
		"map --expect E --json E");
	/* The floor as one of the runs' files --keep keeps: a run would write it, the floor replace it. */
	{
		char *k = path_in("keep-out"), floor[1100];

		snprintf(floor, sizeof(floor), "%s/run-2.json", k);
		if (mkdir(k, 0755))
			skip("cannot make the --keep directory");
		else
			refused((const char *const[]){ exe, "calibrate", "--runs", "3", "--keep", k, "-o", floor,
				"--", "nop", "--kvm-dev", "/nonexistent/kvm", NULL }, 2,
				"is the same file as the kept run", NULL, NULL, "calibrate --keep DIR -o DIR/run-2.json");
	}
	free(bt);
	free(at);
}

/*
 * A report that cannot be written whole: a file size limit cuts it. The
 * old file stays as it was, behind a symlink and beside a long name too,
 * and no temporary is left.
 */
static void test_report_cut(void)
{
	const struct run_opts lim = { .fsize_limit = 3000 };
	char name[300], *target = path_in("target.html"), *lnk = path_in("via-link.html"), *lng;
	struct run_result r;
	struct stat st;

	memset(name, 'n', 240);
	snprintf(name + 240, sizeof(name) - 240, ".html");	/* 245 characters */
	lng = path_in(name);
	if (!put(target, "old report\n") || symlink(target, lnk) || !put(lng, "old long\n")) {
		tap_skip(5, "cannot make the files");
		return;
	}
	run_cmd_opts(&r, (const char *const[]){ exe, "report", "-o", lnk, a_json, b_json, NULL }, &lim);
	if (!ok(r.status == 1 && one_line(r.err) && has_content(target, "old report\n") && tmp_left(dir) == 0,
		"report -o SYMLINK, the write cut: exit 1, one line, the old file behind the link intact, no temporary"))
		diag("  exit %d: %s", r.status, r.err);
	run_free(&r);
	run_cmd_opts(&r, (const char *const[]){ exe, "report", "-o", lng, a_json, b_json, NULL }, &lim);
	if (!ok(r.status == 1 && one_line(r.err) && has_content(lng, "old long\n") && tmp_left(dir) == 0,
		"report -o NAME-OF-245-CHARACTERS, the write cut: exit 1, one line, the old file intact, no temporary"))
		diag("  exit %d: %s", r.status, r.err);
	run_free(&r);
	/* Written whole: through the link (it stays one), and beside the long name. */
	run_cmd(&r, (const char *const[]){ exe, "report", "-o", lnk, a_json, NULL });
	{
		char *html = run_read_file(target, NULL);

		ok(r.status == 0 && !lstat(lnk, &st) && S_ISLNK(st.st_mode) && html && strstr(html, "</html>"),
		   "report -o SYMLINK: writes the file the link names, whole; the link stays a link");
		free(html);
	}
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "report", "-o", lng, a_json, NULL });
	{
		char *html = run_read_file(lng, NULL);

		ok(r.status == 0 && html && strstr(html, "</html>") && tmp_left(dir) == 0,
		   "report -o NAME-OF-245-CHARACTERS: written whole (its temporary's name is short enough)");
		if (r.status)
			diag("  exit %d: %s", r.status, r.err);
		free(html);
	}
	run_free(&r);
	ok(tmp_left(dir) == 0, "no temporary left in the directory");
}

/* A directory this user cannot write: the report is refused before any input is read, the file intact. */
static void test_report_unwritable(void)
{
	char *sub = path_in("ro"), file[1100];
	struct run_result r;
	bool root = getuid() == 0;

	snprintf(file, sizeof(file), "%s/old.html", sub);
	if (mkdir(sub, 0755) || !put(file, "old report\n") || chmod(file, 0666) || chmod(sub, 0555) ||
	    (root && access("/usr/bin/setpriv", X_OK))) {
		tap_skip(1, "cannot make the directory, or root without setpriv");
		return;
	}
	if (root)	/* root passes file modes: run without the capabilities that do */
		run_cmd(&r, (const char *const[]){ "setpriv", "--bounding-set=-dac_override,-dac_read_search",
						   exe, "report", "-o", file, a_json, NULL });
	else
		run_cmd(&r, (const char *const[]){ exe, "report", "-o", file, a_json, NULL });
	if (!ok(r.status == 2 && one_line(r.err) && strstr(r.err, "cannot create a file in its directory") &&
		has_content(file, "old report\n") && tmp_left(sub) == 0,
		"report -o FILE in a directory we cannot write: exit 2, one line, the old file intact"))
		diag("  exit %d: %s", r.status, r.err);
	run_free(&r);
	chmod(sub, 0755);
}

/* Files no reader may wait on or read forever, and bytes no reader takes for text. */
static void test_input_files(void)
{
	char *fifo = path_in("fifo"), *empty = path_in("empty.txt"), *nul = path_in("nul.json"),
	     *bin = path_in("binary.txt"), *d = path_in("adir"), *hex = path_in("hex.txt");
	static const char nul_doc[] = "{\"a\":\0}";
	struct run_result r;
	int fd;

	if (mkfifo(fifo, 0600) || !put(empty, "# nothing here\n\n") || mkdir(d, 0755) ||
	    (fd = open(nul, O_WRONLY | O_CREAT, 0600)) < 0) {
		tap_skip(13, "cannot make the files");
		return;
	}
	if (write(fd, nul_doc, sizeof(nul_doc) - 1) < 0)
		diag("write: %m");
	close(fd);
	put(bin, "map cr4 \x01\x02\xff\x1b[31m toggle owned\n");
	refused((const char *const[]){ "timeout", TIMEOUT, exe, "report", "-o", path_in("r.html"), fifo, NULL },
		2, "is a FIFO, not a regular file", NULL, NULL, "report FIFO");
	refused((const char *const[]){ "timeout", TIMEOUT, exe, "compare", "--noise", fifo, a_json, b_json, NULL },
		2, "is a FIFO, not a regular file", NULL, NULL, "compare --noise FIFO");
	refused((const char *const[]){ "timeout", TIMEOUT, exe, "export", "/dev/zero", NULL },
		2, "is a character device, not a regular file", NULL, NULL, "export /dev/zero");
	refused((const char *const[]){ "timeout", TIMEOUT, exe, "map", "--tap", "--expect", fifo, "--kvm-dev",
		"/nonexistent/kvm", NULL }, 2, "is a FIFO, not a regular file", NULL, NULL, "map --expect FIFO");
	refused((const char *const[]){ "timeout", TIMEOUT, exe, "map", "--tap", "--expect", "/dev/zero", "--kvm-dev",
		"/nonexistent/kvm", NULL }, 2, "is a character device, not a regular file", NULL, NULL,
		"map --expect /dev/zero");
	refused((const char *const[]){ exe, "map", "--tap", "--expect", d, "--kvm-dev", "/nonexistent/kvm", NULL },
		2, "is a directory", NULL, NULL, "map --expect DIR");
	refused((const char *const[]){ exe, "map", "--tap", "--expect", empty, "--kvm-dev", "/nonexistent/kvm", NULL },
		2, "has no 'map' line", NULL, NULL, "map --expect FILE-WITHOUT-EXPECTATIONS");
	/* An expected number is decimal, as scripts/lane-assert reads it (awk takes 0x1 for 0). */
	put(hex, "map cr4 SMEP toggle owned 0x1\n");
	refused((const char *const[]){ exe, "map", "--tap", "--expect", hex, "--kvm-dev", "/nonexistent/kvm", NULL },
		2, "'0x1' is not N", NULL, NULL, "map --expect FILE with exits/op 0x1");
	put(hex, "map cr4 SMEP toggle owned >=-1\n");
	refused((const char *const[]){ exe, "map", "--tap", "--expect", hex, "--kvm-dev", "/nonexistent/kvm", NULL },
		2, "'>=-1' is not N", NULL, NULL, "map --expect FILE with exits/op >=-1");
	refused((const char *const[]){ exe, "report", "-o", path_in("r.html"), nul, NULL },
		2, "contains a NUL byte at offset 5", NULL, NULL, "report FILE-WITH-A-NUL");
	refused((const char *const[]){ exe, "map", "--tap", "--expect", nul, "--kvm-dev", "/nonexistent/kvm", NULL },
		2, "contains a NUL byte at offset 5", NULL, NULL, "map --expect FILE-WITH-A-NUL");
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", bin, "--kvm-dev", "/nonexistent/kvm", NULL });
	{
		bool raw = false;

		for (const unsigned char *c = (const unsigned char *)r.err; *c; c++)
			raw |= (*c < 0x20 && *c != '\n') || *c == 0x7f || *c >= 0x80;
		if (!ok(r.status == 2 && one_line(r.err) && !raw && strstr(r.err, "\\x01\\x02\\xff\\x1b[31m"),
			"map --expect BINARY: exit 2, its bytes echoed escaped (\\xNN), never raw"))
			diag("  exit %d: %s", r.status, r.err);
	}
	run_free(&r);
	ok(tmp_left(dir) == 0, "nothing left behind");
}

/* Numbers read whole, without sign or space; settings that say nothing refused. */
static void test_values(void)
{
	char zeros[100], out[1100], *keep = path_in("keep"), run1[1200];
	struct run_result r;
	json_t *doc;

	memset(zeros, '0', 70);
	snprintf(zeros + 70, sizeof(zeros) - 70, "x");
	refused((const char *const[]){ exe, "run", "--list", "--cpu", zeros, NULL }, 2, "--cpu", NULL, NULL,
		"run --cpu 000...0x (70 zeros): the whole value is read, 'x' refused");
	memset(zeros, '0', 70);
	snprintf(zeros + 70, sizeof(zeros) - 70, "1");
	run_cmd(&r, (const char *const[]){ exe, "run", "--list", "--cpu", zeros, NULL });
	ok(r.status == 0, "run --cpu 000...01 (70 zeros): a CPU number");
	run_free(&r);
	refused((const char *const[]){ exe, "report", "-o", path_in("seed.html"), "--seed", " -1", a_json, NULL }, 2, "--seed", NULL, NULL,
		"report --seed ' -1'");
	refused((const char *const[]){ exe, "report", "-o", path_in("seed.html"), "--seed", "9223372036854775808",
		a_json, NULL }, 2,
		"--seed", NULL, NULL, "report --seed 2^63 (not what JSON writes as an integer)");
	refused((const char *const[]){ exe, "compare", "--seed", "9223372036854775808", a_json, b_json, NULL }, 2,
		"--seed", NULL, NULL, "compare --seed 2^63");
	refused((const char *const[]){ exe, "run", "--list", "--rounds", " 5", NULL }, 2, "--rounds", NULL, NULL,
		"run --rounds ' 5'");
	/* kernels' word lists split as expect's do (base/words.h): blanks only is empty, 17 too many. */
	refused((const char *const[]){ exe, "kernels", "--lanes", " \t\n", dir, NULL }, 2,
		"--lanes: empty", NULL, NULL, "kernels --lanes of blanks only");
	refused((const char *const[]){ exe, "kernels", "--sources", "a b c d e f g h i j k l m n o p q",
		dir, NULL }, 2, "--sources: at most 16", NULL, NULL, "kernels --sources of 17 words");
	run_cmd(&r, (const char *const[]){ exe, "kernels", "--lanes", "vmx\tvmx\nvmx", "--sources", "6.1",
		dir, NULL });
	ok(r.status == 0 && strstr(r.out, "| vmx | 6.1 |") &&
	   !strstr(strstr(r.out, "| vmx | 6.1 |") + 1, "| vmx | 6.1 |"),
	   "kernels --lanes 'vmx vmx vmx': one lane, listed once (exit %d)", r.status);
	run_free(&r);
	/* Decimal numbers only: strtod alone would take a space, a sign or hexadecimal. */
	refused((const char *const[]){ exe, "compare", "--threshold", " 5", a_json, b_json, NULL }, 2,
		"--threshold", NULL, NULL, "compare --threshold ' 5'");
	refused((const char *const[]){ exe, "compare", "--threshold", "0x5", a_json, b_json, NULL }, 2,
		"--threshold", NULL, NULL, "compare --threshold 0x5");
	refused((const char *const[]){ exe, "compare", "--threshold", "+5%", a_json, b_json, NULL }, 2,
		"--threshold", NULL, NULL, "compare --threshold +5%");
	refused((const char *const[]){ exe, "report", "-o", path_in("t.html"), "--threshold", " 5", a_json, NULL }, 2,
		"--threshold", NULL, NULL, "report --threshold ' 5'");
	refused((const char *const[]){ exe, "report", "-o", path_in("t.html"), "--threshold", "0x5%", a_json, NULL }, 2,
		"--threshold", NULL, NULL, "report --threshold 0x5%");
	refused((const char *const[]){ exe, "run", "--list", "--time-budget", "0x1p1", NULL }, 2, "--time-budget",
		NULL, NULL, "run --time-budget 0x1p1");
	run_cmd(&r, (const char *const[]){ exe, "compare", "--threshold", "5%", a_json, b_json, NULL });
	if (!ok(r.status == 0, "compare --threshold 5%%: a percentage"))
		diag("  exit %d: %s", r.status, r.err);
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "run", "--list", "--precision", ".5", "--precision-floor", "1e3", NULL });
	if (!ok(r.status == 0, "run --precision .5 --precision-floor 1e3: decimal numbers"))
		diag("  exit %d: %s", r.status, r.err);
	run_free(&r);
	snprintf(out, sizeof(out), "%s/cmp.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "compare", "--seed", "9223372036854775807", "--json", out,
					   a_json, b_json, NULL });
	doc = json_load_file(out, 0, NULL);
	ok(r.status == 0 && doc && json_integer_value(json_object_get(doc, "seed")) == 9223372036854775807LL, "compare --seed 2^63-1: the JSON says that seed");
	if (r.status || !doc)
		diag("  exit %d: %s", r.status, r.err);
	json_decref(doc);
	run_free(&r);
	/* A seed is decimal (010 is ten, not octal eight; no 0x); an XCR0 mask may be 0x hexadecimal. */
	run_cmd(&r, (const char *const[]){ exe, "compare", "--seed", "010", "--json", out, a_json, b_json, NULL });
	doc = json_load_file(out, 0, NULL);
	if (!ok(r.status == 0 && doc && json_integer_value(json_object_get(doc, "seed")) == 10,
		"compare --seed 010: seed 10 in the JSON (decimal, not octal)"))
		diag("  exit %d, seed %lld: %s", r.status, (long long)json_integer_value(json_object_get(doc, "seed")),
		     r.err);
	json_decref(doc);
	run_free(&r);
	refused((const char *const[]){ exe, "report", "-o", path_in("seed.html"), "--seed", "0x10", a_json, NULL }, 2,
		"--seed", NULL, NULL, "report --seed 0x10");
	refused((const char *const[]){ exe, "compare", "--seed", "0x10", a_json, b_json, NULL }, 2,
		"--seed", NULL, NULL, "compare --seed 0x10");
	run_cmd(&r, (const char *const[]){ exe, "run", "--list", "--guest-xcr0", "09", NULL });
	if (!ok(r.status == 0, "run --guest-xcr0 09: decimal nine (no octal)"))
		diag("  exit %d: %s", r.status, r.err);
	run_free(&r);
	refused((const char *const[]){ exe, "run", "--list", "--guest-xcr0", "0x0x3", NULL }, 2, "--guest-xcr0",
		NULL, NULL, "run --guest-xcr0 0x0x3");
	refused((const char *const[]){ exe, "run", "--list", "--guest-xcr0", "0x", NULL }, 2, "--guest-xcr0",
		NULL, NULL, "run --guest-xcr0 0x");
	refused((const char *const[]){ exe, "info", "--kvm-dev", "", NULL }, 2, "--kvm-dev", NULL, NULL,
		"info --kvm-dev ''");
	refused((const char *const[]){ exe, "run", "nop", "--kvm-dev", "", NULL }, 2, "--kvm-dev", NULL, NULL,
		"run --kvm-dev ''");
	/* An empty variable names no device, as the empty option: never /dev/kvm in silence. */
	refused((const char *const[]){ "env", "EXITSCOPE_KVM_DEV=", exe, "info", NULL }, 2,
		"EXITSCOPE_KVM_DEV wants the path of KVM's device node", NULL, NULL, "EXITSCOPE_KVM_DEV= info");
	refused((const char *const[]){ "env", "EXITSCOPE_KVM_DEV=", exe, "run", "nop", NULL }, 2,
		"EXITSCOPE_KVM_DEV wants the path of KVM's device node", NULL, NULL, "EXITSCOPE_KVM_DEV= run");
	refused((const char *const[]){ "env", "EXITSCOPE_TEST_HANG=cpuid@10x", exe, "run", "nop", "--kvm-dev",
		"/nonexistent/kvm", NULL }, 2, "EXITSCOPE_TEST_HANG wants PROBE[@MS]", NULL, NULL,
		"EXITSCOPE_TEST_HANG=cpuid@10x run: the hook's milliseconds read whole");
	run_cmd(&r, (const char *const[]){ "env", "EXITSCOPE_KVM_DEV=", exe, "info", "--kvm-dev", "/nonexistent/kvm",
					   NULL });
	if (!ok(r.status == 3 && strstr(r.err, "/nonexistent/kvm"), "EXITSCOPE_KVM_DEV= info --kvm-dev PATH: the option wins"))
		diag("  exit %d: %s", r.status, r.err);
	run_free(&r);
	snprintf(run1, sizeof(run1), "%s/run-1.json", keep);
	if (mkdir(keep, 0755) || !put(run1, "an earlier run\n")) {
		skip("cannot make the --keep directory");
	} else {
		refused((const char *const[]){ exe, "calibrate", "--runs", "3", "--keep", keep, "--", "nop",
			"--kvm-dev", "/nonexistent/kvm", NULL }, 2, "run-1.json exists", run1, "an earlier run\n",
			"calibrate --keep DIR with DIR/run-1.json");
	}
}

/* `exitscope help [CMD]` is --help; anything after CMD is a usage error. */
static void test_help(void)
{
	struct run_result h, r;

	run_cmd(&h, (const char *const[]){ exe, "--help", NULL });
	run_cmd(&r, (const char *const[]){ exe, "help", NULL });
	ok(r.status == 0 && h.status == 0 && !strcmp(r.out, h.out), "exitscope help: as exitscope --help, exit 0");
	run_free(&h);
	run_free(&r);
	run_cmd(&h, (const char *const[]){ exe, "export", "--help", NULL });
	run_cmd(&r, (const char *const[]){ exe, "help", "export", NULL });
	ok(r.status == 0 && !strcmp(r.out, h.out), "exitscope help export: as exitscope export --help");
	run_free(&h);
	run_free(&r);
	refused((const char *const[]){ exe, "help", "compare", "extra", NULL }, 2, "unexpected argument 'extra'",
		NULL, NULL, "exitscope help compare extra");
}

/*
 * Every test hook the sources read (an "EXITSCOPE_TEST_..." name outside
 * tests/) is one a run says is set: a result made with it shows it.
 */
static void test_hooks_listed(void)
{
	char name[128], missing[512] = "";
	size_t found = 0;
	FILE *p = popen("grep -rhoE '\"EXITSCOPE_TEST_[A-Z0-9_]+\"' --include='*.c' --include='*.h' "
			"cli probes harness method suites host guest kvm results 2>/dev/null", "r");

	while (p && fscanf(p, " \"%127[A-Z0-9_]\"", name) == 1) {
		bool listed = false;

		found++;
		for (size_t i = 0; i < nr_probe_test_hooks; i++)
			listed |= !strcmp(probe_test_hooks[i], name);
		if (!listed)
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), " %s", name);
	}
	if (p)
		pclose(p);
	if (!found) {
		skip("the sources are not here to read");
		return;
	}
	if (!ok(!missing[0], "each of the %zu test hooks the sources read is one a run records", found))
		diag("  not in probe_test_hooks:%s", missing);
}

/* A run with EXITSCOPE_TEST_LATE_HOLD set records that hook. */
static void test_late_hold_recorded(void)
{
	char *json = path_in("late-hold.json");
	struct err err;
	struct result_file *rf;
	struct run_result r;
	bool hook = false;

	run_cmd(&r, (const char *const[]){ "env", "EXITSCOPE_TEST_LATE_HOLD=1000", exe, "run", "nop", "--method",
					   "v1", "--samples", "3", "--quiet", "--json", json, NULL });
	rf = result_read_file(json, &err);
	for (size_t i = 0; rf && i < rf->n_warnings; i++)
		hook |= strstr(rf->warnings[i], "test hook EXITSCOPE_TEST_LATE_HOLD=1000") != NULL;
	if (!ok(r.status == 0 && hook, "a run with EXITSCOPE_TEST_LATE_HOLD set: the result says so"))
		diag("  exit %d: %s", r.status, rf ? "" : err.msg);
	result_free(rf);
	run_free(&r);
}

/* A result file that is good, to be kept or replaced. */
static bool good_file(const char *path, char **text)
{
	*text = run_read_file(a_json, NULL);
	return *text && put(path, *text);
}

/*
 * A run whose only probe hangs (the test hook), stopped by sig (twice when
 * twice): returns the result, and path's content stays old unless replaced.
 */
static void stop_hung_run(const char *path, int sig, bool twice, struct run_result *r)
{
	const struct run_opts tty = { .stderr_tty = true };
	struct run_proc pr;

	if (run_start(&pr, (const char *const[]){ "env", tmpdir_env, "EXITSCOPE_TEST_HANG=cpuid@600000", exe,
		      "run", "cpuid", "--method", "v1", "--samples", "3", "--json", path, NULL }, &tty)) {
		r->status = -1;
		r->out = r->err = NULL;
		return;
	}
	if (!run_wait_stderr(&pr, "cpuid", RUN_WAIT_MS))
		diag("no progress line for cpuid");
	kill(pr.pid, sig);
	if (twice)
		kill(pr.pid, sig);
	run_finish(&pr, r);
}

static void test_stops(void)
{
	char *keep = path_in("kept.json"), *fresh = path_in("fresh.json"), *old = NULL;
	struct run_result r;
	struct result_file *rf;
	struct err err;
	int silent = 0, lost = 0, left = 0;
	bool hook;

	if (!good_file(keep, &old)) {
		tap_skip(6, "cannot make the result file");
		return;
	}
	stop_hung_run(keep, SIGINT, false, &r);
	if (!ok(r.status == 130 && r.err && strstr(r.err, "before anything was measured") && has_content(keep, old),
		"run stopped by Ctrl-C before a probe measured anything: exit 130, says so, the old file kept"))
		diag("  exit %d: %s", r.status, r.err ? r.err : "");
	run_free(&r);
	stop_hung_run(fresh, SIGTERM, false, &r);
	rf = result_read_file(fresh, &err);
	if (!ok(r.status == 143 && r.err && strstr(r.err, "stopped by SIGTERM: what was measured is in ") && rf,
		"run stopped by SIGTERM: exit 143, the line names SIGTERM, the result written"))
		diag("  exit %d: %s", r.status, r.err ? r.err : "");
	hook = false;
	for (size_t i = 0; rf && i < rf->n_warnings; i++)
		hook |= strstr(rf->warnings[i], "test hook EXITSCOPE_TEST_HANG=cpuid@600000") != NULL;
	ok(hook && strstr(r.err, "warning: test hook EXITSCOPE_TEST_HANG"),
	   "the test hook that made the probe hang: a warning, recorded in the result");
	for (size_t i = 0; rf && i < rf->n_warnings; i++)
		if (strstr(rf->warnings[i], "stopped by"))
			ok(strstr(rf->warnings[i], "stopped by SIGTERM") != NULL, "its warning says SIGTERM too");
	result_free(rf);
	run_free(&r);
	/* Two Ctrl-C at once, six times: never silent, never a temporary, the old file always kept. */
	for (int i = 0; i < 6; i++) {
		stop_hung_run(keep, SIGINT, true, &r);
		silent += !r.err || !strstr(r.err, "exitscope");
		lost += !has_content(keep, old);
		left += tmp_left(dir) > 0;
		if (r.status != 130)
			diag("  try %d: exit %d", i, r.status);
		run_free(&r);
	}
	ok(!silent && !lost && !left, "two Ctrl-C at once, 6 tries: a line each time (%d silent), the old "
	   "file kept (%d lost), no temporary (%d left)", silent, lost, left);
	free(old);
}

/* A suite named twice runs once: no check twice in the result, which export then takes. */
static void test_suite_twice(void)
{
	char *json = path_in("irq-twice.json");
	struct result_file *rf;
	struct run_result r, x;
	struct err err;
	int dups = 0;

	run_cmd(&r, (const char *const[]){ exe, "check", "irq", "irq", "--json", json, NULL });
	rf = result_read_file(json, &err);
	for (size_t i = 0; rf && i < rf->checks.n; i++)
		for (size_t k = i + 1; k < rf->checks.n; k++)
			dups += !strcmp(rf->checks.r[i].suite, rf->checks.r[k].suite) &&
				!strcmp(rf->checks.r[i].name, rf->checks.r[k].name);
	ok(rf && rf->checks.n && !dups, "check irq irq: each check once in the result (%d twice)", dups);
	run_cmd(&x, (const char *const[]){ exe, "export", "-o", path_in("irq.prom"), json, NULL });
	if (!ok(x.status == 0, "... and export takes that result"))
		diag("  exit %d: %s", x.status, x.err);
	result_free(rf);
	run_free(&r);
	run_free(&x);
}

/*
 * A repeatable option's value given twice is refused before anything is
 * measured (map would measure the profile twice into a file export refuses):
 * the same spelling, or the same profile spelled otherwise.
 */
static void test_profile_twice(void)
{
	static const char *const twice[][2] = {
		{ "host", "host" },
		{ "-shstk", "host,-shstk" },
		{ "minimal,+x2apic", "minimal,-x2apic,+x2apic" },
	};
	struct run_result r;

	for (size_t i = 0; i < ARRAY_SIZE(twice); i++) {
		char want[200];

		run_cmd(&r, (const char *const[]){ exe, "map", "--cpuid-profile", twice[i][0], "--cpuid-profile",
			twice[i][1], "--kvm-dev", "/nonexistent", NULL });
		snprintf(want, sizeof(want), "exitscope map: --cpuid-profile %s: the same profile as "
			 "--cpuid-profile %s: each is measured once\n", twice[i][1], twice[i][0]);
		ok(r.status == 2 && !strncmp(r.err, want, strlen(want)) && !*r.out,
		   "map --cpuid-profile %s --cpuid-profile %s: exit 2 (%d) before KVM, one line saying so",
		   twice[i][0], twice[i][1], r.status);
		if (r.status != 2)
			diag("stderr: %s", r.err);
		run_free(&r);
	}
	run_cmd(&r, (const char *const[]){ exe, "map", "--cpuid-profile", "host", "--cpuid-profile", "host,-shstk",
		"--kvm-dev", "/nonexistent", NULL });
	ok(r.status == 3, "two different profiles pass the check (exit 3 without KVM: %d)", r.status);
	run_free(&r);
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	if (!exe || access(exe, X_OK))
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	dir = fixture_tmpdir();
	if (!dir)
		return tap_skip_all("no temp dir");
	snprintf(tmpdir_env, sizeof(tmpdir_env), "TMPDIR=%s", dir);
	write_inputs();
	if (!a_json[0] || !b_json[0]) {
		fixture_rmdir(dir);
		return tap_skip_all("cannot write the input files");
	}
	test_same_file();
	test_operands();
	test_report_cut();
	test_report_unwritable();
	test_input_files();
	test_values();
	test_help();
	test_hooks_listed();
	test_profile_twice();
	if (access("/dev/kvm", R_OK | W_OK))
		skip("/dev/kvm is not usable: no runs to stop");
	else {
		test_suite_twice();
		test_late_hold_recorded();
		test_stops();
	}
	fixture_rmdir(dir);
	return done_testing();
}
