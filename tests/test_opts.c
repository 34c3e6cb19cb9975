// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_opts.c - the option rows (cli/opts.c): a made-up table gives the
 * getopt short string, long options, parse, scan and --help expected of it; an
 * unknown option and a missing argument give the one-line usage error; a
 * table that is not well formed is refused; and every command of
 * `exitscope --help` lists its options, each in its --help, with the same
 * one-line error for an unknown option and for one without its argument.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "base/num.h"
#include "cli/opts.c"	/* the unit under test, linked in directly */
#include "tests/run_cmd.h"
#include "tests/tap.h"

/* The usage errors cli/cli.c would print, kept to be looked at. */
static char last_err[512];

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	int n = snprintf(last_err, sizeof(last_err), "%s: ", cmd);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err + n, sizeof(last_err) - (size_t)n, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cli_error(const char *cmd, int code, const char *fmt, ...)
{
	int n = snprintf(last_err, sizeof(last_err), "%s: ", cmd);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err + n, sizeof(last_err) - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}

/* The number parsers of cli/cli.c, as it reads them: decimal digits; a decimal number in [min, max]. */
int cli_parse_u64(const char *s, bool hex, uint64_t max, uint64_t *out)
{
	return num_parse_u64(s, hex, max, out);
}

int cli_parse_num(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!*s || s[strspn(s, "0123456789.")])
		return -EINVAL;
	v = strtod(s, &end);
	if (*end || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

struct demo_args {
	const char *out, *json, *floor;
	bool verbose;
};

/* The operands: taken, nothing kept. */
static int demo_operand(void *args, const char *arg, const struct cli_parser *p)
{
	return 0;
}

static const struct cli_row demo_rows[] = {
	CLI_ROW_STR("output", 'o', "FILE", struct demo_args, out, NULL, "where to write\nand a second line"),
	CLI_ROW_STR("json", CLI_LONG('j'), "[FILE]", struct demo_args, json, "7.json", "JSON too"),
	CLI_ROW_FLAG("verbose", 'v', struct demo_args, verbose, "say more"),
	CLI_ROW_STR("precision-floor", CLI_LONG('f'), "CYCLES", struct demo_args, floor, NULL,
		    "a label wider than the column"),
	{ .name = "-- ARG ...", .help = "passed on as they are" },
	CLI_ROW_HELP,
	{ 0 },
};

static const struct cli_cmd_spec demo = {
	.name = "demo",
	.usage = "[options] FILE\n[options] -- ARG ...",
	.about = "About this, 100%.\n",
	.rows = demo_rows,
	.operand = demo_operand,
	.col = 20,
	.order = '-',
	.tail = "Exit status: 0 ok.\n",
	.bad_hint = " (a hint)",
};

static const char demo_help[] =
	"usage: exitscope demo [options] FILE\n"
	"       exitscope demo [options] -- ARG ...\n"
	"\n"
	"About this, 100%.\n"
	"\n"
	"  -o, --output FILE where to write\n"
	"                    and a second line\n"
	"  --json [FILE]     JSON too (default 7.json)\n"
	"  -v, --verbose     say more\n"
	"  --precision-floor CYCLES\n"
	"                    a label wider than the column\n"
	"  -- ARG ...        passed on as they are\n"
	"  -h, --help        this text\n"
	"\n"
	"Exit status: 0 ok.\n";

static const char demo_list[] =
	"--output FILE\n-o FILE\n--json [FILE]\n--verbose\n-v\n--precision-floor CYCLES\n--help\n-h\n";

/* What a FILE * function wrote, as a string (free it). */
static char *captured(void (*fn)(FILE *f, const struct cli_cmd_spec *s), const struct cli_cmd_spec *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f, s);
	fclose(f);
	return buf;
}

static void test_tables(void)
{
	static const struct { const char *name; int has, key; } want[] = {
		{ "output", required_argument, 'o' },
		{ "json", optional_argument, CLI_LONG('j') },
		{ "verbose", no_argument, 'v' },
		{ "precision-floor", required_argument, CLI_LONG('f') },
		{ "help", no_argument, 'h' },
	};
	struct option lo[CLI_OPTS_MAX + 1];
	char so[2 + 3 * CLI_OPTS_MAX];
	struct err err;
	size_t n, good = 0;
	char *s;

	ok(cli_spec_check(&demo, &err) == 0, "the made-up table is well formed");
	cli_opts_build(&demo, lo, so);
	tap_is_str(so, "-o:vh", "short string: the order, then each short letter with ':' for its argument");
	for (n = 0; lo[n].name; n++)
		good += n < 5 && !strcmp(lo[n].name, want[n].name) && lo[n].has_arg == want[n].has &&
			!lo[n].flag && lo[n].val == want[n].key;
	ok(n == 5 && good == 5, "long options: every row with a key, its argument kind and key, none for "
	   "the help-only row (%zu of %zu right)", good, n);

	s = captured(cli_help, &demo);
	if (!tap_is_str(s, demo_help, "--help: synopses, about, two columns at col, a wide label on its own line"))
		diag("got:\n%s", s ? s : "(null)");
	free(s);
	s = captured(cli_opts_list, &demo);
	tap_is_str(s, demo_list, "the listing: one spelling a line with its argument, no help-only row");
	free(s);
}

/* Parse argv with the demo table: the keys and their arguments as "k=arg ..." */
static void parse(char *out, size_t len, int argc, char **argv)
{
	struct cli_parser p;
	int c;

	*out = 0;
	opts_init(&p, &demo, argc, argv);
	while ((c = opts_next(&p)) != -1) {
		size_t l = strlen(out);

		if (c == '?') {
			snprintf(out + l, len - l, "? [%d %s] ", opts_bad(&p), last_err);
			continue;
		}
		snprintf(out + l, len - l, "%s%c=%s ", c & 0x100 ? "L" : "", c == 1 ? '1' : c & 0xff,
			 optarg ? optarg : "-");
	}
}

static void test_parse(void)
{
	char *ok_argv[] = { "demo", "in1", "-o", "out", "--json", "--verbose", "in2", "--json=j", "-vh",
			    "--precision-floor", "3", NULL };
	char *bad_argv[] = { "demo", "--bogus", NULL };
	char *miss_long[] = { "demo", "x", "--output", NULL };
	char *miss_short[] = { "demo", "-o", NULL };
	char got[512];

	parse(got, sizeof(got), 11, ok_argv);
	tap_is_str(got, "1=in1 o=out Lj=- v=- 1=in2 Lj=j v=- h=- Lf=3 ",
		   "operands in order, short and long options, an optional argument with and without it");
	parse(got, sizeof(got), 2, bad_argv);
	tap_is_str(got, "? [2 demo: unknown or incomplete option '--bogus' (a hint)] ",
		   "an unknown option: one usage error naming it, with the spec's hint");
	parse(got, sizeof(got), 3, miss_long);
	tap_is_str(got, "1=x ? [2 demo: unknown or incomplete option '--output' (a hint)] ",
		   "a long option without its argument: the same error");
	parse(got, sizeof(got), 2, miss_short);
	tap_is_str(got, "? [2 demo: unknown or incomplete option '-o' (a hint)] ",
		   "a short option without its argument: the same error");
}

/* A copy of the demo spec with row i replaced: the checker must refuse it. */
static void refused(size_t i, struct cli_row row, const char *why)
{
	struct cli_row t[ARRAY_SIZE(demo_rows)];
	struct cli_cmd_spec s = demo;
	char *argv[] = { "demo", "-v", NULL };
	struct demo_args a;
	struct cli_parser p;
	struct err err;
	int rc;

	memcpy(t, demo_rows, sizeof(t));
	t[i] = row;
	s.rows = t;
	ok(cli_spec_check(&s, &err) == -EINVAL, "refused: %s (%s)", why, err.msg);
	if (i == 0) {	/* and parsing by it is an internal failure, not a usage error */
		last_err[0] = 0;
		rc = cli_parse(&p, &s, &a, 2, argv);
		ok(rc == EXIT_FAIL && strstr(last_err, "option table"),
		   "a command with such a table fails (exit 1), saying so: %s", last_err);
	}
}

/* A string row of demo_args.out spelt as given. */
#define DEMO_STR(n, k, a, h) CLI_ROW_STR(n, k, a, struct demo_args, out, NULL, h)

static void test_check(void)
{
	refused(0, (struct cli_row)DEMO_STR("json", 'o', "FILE", "x"), "two rows of one name");
	refused(0, (struct cli_row)DEMO_STR("out", 'v', "FILE", "x"), "two rows of one key");
	refused(0, (struct cli_row)DEMO_STR("out", 'o', "FILE", ""), "a row without help");
	refused(0, (struct cli_row)DEMO_STR("out", 'o', "[FILE", "x"), "an optional argument without its ']'");
	refused(0, (struct cli_row)DEMO_STR("out", '?', "FILE", "x"), "a key that is no letter");
	refused(5, (struct cli_row){ .name = "hilfe", .key = 'H', .help = "x", .type = CLI_T_FLAG },
		"no -h, --help row");
}

/* What cli_scan saw: "name=arg@at " per option, "?@at " for a bad one. */
static int scan_note(void *ctx, const struct cli_row *r, const char *arg, int at)
{
	char *out = ctx;
	size_t l = strlen(out);

	snprintf(out + l, 256 - l, "%s=%s@%d ", r ? r->name : "?", arg ? arg : "-", at);
	return r && r->key == 'h';
}

/* cli_scan: every option in turn by its row (abbreviations too), nothing set, stopped by the callback. */
static void test_scan(void)
{
	char *argv[] = { "demo", "in", "--verb", "--out", "f", "-vo", "g", "--pre=3", "--bogus", "x",
			 "-h", "--json", NULL };
	char got[256] = "";
	int rc = cli_scan(&demo, 12, argv, scan_note, got);

	ok(rc == 1, "cli_scan: the callback's nonzero stops it and is returned (%d)", rc);
	tap_is_str(got, "verbose=-@2 output=f@3 verbose=-@5 output=g@5 precision-floor=3@7 ?=-@8 help=-@10 ",
		   "cli_scan: each option's row, argument and index; abbreviations; a bad one as NULL");
}

/* The commands, through the binary: their tables are well formed and agree with --help and the error. */
static void test_commands(const char *exe)
{
	char cmds[32][32], line[128], want[256];
	struct run_result r, h;
	size_t ncmds;

	run_cmd(&r, (const char *const[]){ exe, "--help", NULL });
	ncmds = run_help_commands(r.out, cmds, 32);
	run_free(&r);
	ok(ncmds >= 9, "exitscope --help lists the commands (%zu)", ncmds);
	for (size_t i = 0; i < ncmds; i++) {
		const char *c = cmds[i], *s, *e;
		size_t nopt = 0, in_help = 0;
		char last_req[64] = "";

		run_cmd(&r, (const char *const[]){ exe, "help", "--options", c, NULL });
		run_cmd(&h, (const char *const[]){ exe, c, "--help", NULL });
		for (s = r.out; *s; s = *e ? e + 1 : e) {
			const char *sp;

			e = strchr(s, '\n');
			if (!e)
				e = s + strlen(s);
			snprintf(line, sizeof(line), "%.*s", (int)(e - s), s);
			sp = strchr(line, ' ');
			nopt++;
			/* Long options as --help writes them: "--name ARG" (a short one is "-x, --name ARG"). */
			if (line[1] == '-')
				in_help += strstr(h.out, line) != NULL;
			else
				in_help += strstr(h.out, (snprintf(want, sizeof(want), "  %.2s, --", line), want)) != NULL;
			if (line[1] == '-' && sp && sp[1] != '[')
				snprintf(last_req, sizeof(last_req), "%.*s", (int)(sp - line), line);
		}
		ok(r.status == 0 && nopt >= 2 && strstr(r.out, "--help\n-h\n") && in_help == nopt,
		   "%s: help --options lists %zu spellings (its table is well formed), each in its --help (%zu)",
		   c, nopt, in_help);
		run_free(&r);
		run_free(&h);

		run_cmd(&r, (const char *const[]){ exe, c, "--no-such-option", NULL });
		snprintf(want, sizeof(want), "exitscope %s: unknown or incomplete option '--no-such-option'", c);
		ok(r.status == 2 && !strncmp(r.err, want, strlen(want)) && strchr(r.err, '\n') &&
		   !strcmp(strchr(r.err, '\n'), (snprintf(line, sizeof(line), "\nTry 'exitscope %s --help'.\n", c), line)),
		   "%s --no-such-option: exit 2, one line naming it and the hint to --help", c);
		run_free(&r);
		if (!last_req[0]) {
			skip("no option with a required argument");
			continue;
		}
		run_cmd(&r, (const char *const[]){ exe, c, last_req, NULL });
		snprintf(want, sizeof(want), "exitscope %s: unknown or incomplete option '%s'", c, last_req);
		ok(r.status == 2 && !strncmp(r.err, want, strlen(want)) && strstr(r.err, "--help'.\n"),
		   "%s %s without its argument: exit 2, the same line", c, last_req);
		run_free(&r);
	}
}

/* Bound rows: a made-up command with one row of each type. */
enum bound_mode { MODE_FAST, MODE_SLOW, MODE_EXACT };
static const char *const bound_modes[] = { "fast", "slow", "exact" };

struct bound_args {
	bool quiet;
	unsigned int verbose, rounds;
	const char *out;
	double budget;
	enum bound_mode mode;
	int a, b;		/* --pair A,B */
	const char *ops[4];
	size_t nops;
	unsigned int runs;	/* --runs: 0 when not given */
	unsigned int seen;	/* options the seen hook saw */
};

static int bound_pair(void *args, const char *arg, const struct cli_parser *p)
{
	struct bound_args *a = args;

	if (sscanf(arg, "%d,%d", &a->a, &a->b) != 2)
		return cli_usage_error(p->spec->name, "--pair wants A,B, not '%s'", arg);
	return 0;
}

static int bound_operand(void *args, const char *arg, const struct cli_parser *p)
{
	struct bound_args *a = args;

	if (a->nops == ARRAY_SIZE(a->ops))
		return cli_usage_error(p->spec->name, "too many operands");
	a->ops[a->nops++] = arg;
	return 0;
}

static int bound_seen(void *args, int key, const struct cli_parser *p)
{
	struct bound_args *a = args;

	a->seen++;
	return 0;
}

/* A paragraph made at run time, after the options. */
static void bound_tail(FILE *f)
{
	fprintf(f, "\nmade: %d\n", 42);
}

static const struct cli_row bound_rows[] = {
	CLI_ROW_FLAG("quiet", 'q', struct bound_args, quiet, "say less"),
	CLI_ROW_COUNT("verbose", 'v', struct bound_args, verbose, "say more; again: more still"),
	CLI_ROW_STR("output", 'o', "FILE", struct bound_args, out, "-", "where to write"),
	CLI_ROW_UINT("rounds", CLI_LONG('r'), "N", struct bound_args, rounds, 1, 50, 5, "an integer",
		     "rounds at most"),
	CLI_ROW_DBL("time-budget", CLI_LONG('t'), "S", struct bound_args, budget, 0.01, 600, 2.5, "seconds",
		    "seconds per probe,\nan upper bound"),
	CLI_ROW_ENUM("mode", CLI_LONG('m'), "MODE", struct bound_args, mode, bound_modes, MODE_SLOW,
		     "how to go"),
	CLI_ROW_CALL("pair", CLI_LONG('p'), "A,B", bound_pair, "two numbers"),
	{ .name = "runs", .key = CLI_LONG('R'), .arg = "N", .type = CLI_T_UINT,
	  .off = CLI_FIELD(struct bound_args, runs, unsigned int), .min = 1, .max = 9, .what = "a number of runs",
	  .no_default = true, .help = "a series" },
	{ .name = "-- ARG ...", .help = "passed on as they are" },
	CLI_ROW_HELP,
	{ 0 },
};

static const struct cli_cmd_spec bound = {
	.name = "bound",
	.usage = "[options] OP ...",
	.about = "About 100%.\n",
	.rows = bound_rows,
	.operand = bound_operand,
	.seen = bound_seen,
	.tail_print = bound_tail,
	.col = 20,
	.order = '-',
	.tail = "Exit status: 0 ok.\n",
};

static const char bound_help[] =
	"usage: exitscope bound [options] OP ...\n"
	"\n"
	"About 100%.\n"
	"\n"
	"  -q, --quiet       say less\n"
	"  -v, --verbose     say more; again: more still\n"
	"  -o, --output FILE where to write (default -)\n"
	"  --rounds N        rounds at most (1-50, default 5)\n"
	"  --time-budget S   seconds per probe,\n"
	"                    an upper bound (default 2.5)\n"
	"  --mode MODE       how to go (default slow)\n"
	"  --pair A,B        two numbers\n"
	"  --runs N          a series (1-9)\n"
	"  -- ARG ...        passed on as they are\n"
	"  -h, --help        this text\n"
	"\n"
	"made: 42\n"
	"\n"
	"Exit status: 0 ok.\n";

/* cli_parse of argv (NULL-terminated) by the bound rows into *a: its return, last_err cleared first. */
static int bound_parse(struct bound_args *a, struct cli_parser *p, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(a, 0x5a, sizeof(*a));	/* every default must come from the rows */
	a->nops = 0;
	a->seen = 0;
	last_err[0] = 0;
	return cli_parse(p, &bound, a, argc, argv);
}

static void test_bound(void)
{
	char *none[] = { "bound", NULL };
	char *all[] = { "bound", "x", "-qvv", "--rounds", "50", "--time-budget=0.5", "--mode", "exact",
			"--pair", "3,4", "-o", "f", "y", NULL };
	static const struct { const char *opt, *arg, *err; } bad[] = {
		{ "--rounds", "0", "bound: --rounds wants an integer 1-50, not '0'" },
		{ "--rounds", "51", "bound: --rounds wants an integer 1-50, not '51'" },
		{ "--rounds", "x", "bound: --rounds wants an integer 1-50, not 'x'" },
		{ "--time-budget", "601", "bound: --time-budget wants seconds 0.01-600, not '601'" },
		{ "--mode", "quick", "bound: --mode wants fast, slow or exact, not 'quick'" },
		{ "--pair", "3", "bound: --pair wants A,B, not '3'" },
		{ "--runs", "10", "bound: --runs wants a number of runs 1-9, not '10'" },
	};
	struct bound_args a;
	struct cli_parser p;
	struct err err;
	char *s;
	int rc;

	ok(cli_spec_check(&bound, &err) == 0, "the bound rows are well formed");
	rc = bound_parse(&a, &p, none);
	ok(rc == 0 && !a.quiet && a.verbose == 0 && !strcmp(a.out, "-") && a.rounds == 5 && a.budget == 2.5 &&
	   a.mode == MODE_SLOW && a.nops == 0 && a.runs == 0 && !cli_given(&p, CLI_LONG('r')),
	   "no options: every variable holds its row's default, none given");
	rc = bound_parse(&a, &p, all);
	ok(rc == 0 && a.quiet && a.verbose == 2 && !strcmp(a.out, "f") && a.rounds == 50 && a.budget == 0.5 &&
	   a.mode == MODE_EXACT && a.a == 3 && a.b == 4 && a.nops == 2 && !strcmp(a.ops[0], "x") &&
	   !strcmp(a.ops[1], "y"), "each type fills its variable; operands in order through the callback");
	ok(a.seen == 8, "the seen hook: once per option, none for an operand (%u)", a.seen);
	ok(cli_given(&p, CLI_LONG('r')) && cli_given(&p, 'q') && !cli_given(&p, 'h'),
	   "cli_given: the options on the command line, and only they");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *argv[] = { "bound", (char *)bad[i].opt, (char *)bad[i].arg, NULL };

		rc = bound_parse(&a, &p, argv);
		tap_is_str(last_err, bad[i].err, "%s %s: exit 2 (%d), one line", bad[i].opt, bad[i].arg, rc);
	}
	ok(!strcmp(cli_opt_name(&bound, CLI_LONG('t')), "time-budget") && !cli_opt_name(&bound, 'z'),
	   "cli_opt_name: a key's long name, NULL for none");

	s = captured(cli_help, &bound);
	if (!tap_is_str(s, bound_help, "--help from the rows: plain text, each default from its typed row"))
		diag("got:\n%s", s ? s : "(null)");
	free(s);
}

/* A copy of the bound rows with row i replaced: the checker must refuse it. */
static void bound_refused(size_t i, struct cli_row row, const char *why)
{
	struct cli_row t[ARRAY_SIZE(bound_rows)];
	struct cli_cmd_spec s = bound;
	struct err err;

	memcpy(t, bound_rows, sizeof(t));
	t[i] = row;
	s.rows = t;
	ok(cli_spec_check(&s, &err) == -EINVAL, "refused: %s (%s)", why, err.msg);
}

static void test_bound_check(void)
{
	struct cli_cmd_spec s = bound;
	struct cli_row r = bound_rows[5];
	struct err err;

	bound_refused(0, (struct cli_row){ .name = "quiet", .key = 'q', .arg = "X", .help = "x",
					   .type = CLI_T_FLAG }, "a flag with an argument");
	bound_refused(2, (struct cli_row){ .name = "output", .key = 'o', .help = "x", .type = CLI_T_STR },
		      "a string without one");
	bound_refused(3, (struct cli_row){ .name = "rounds", .key = 'r', .arg = "N", .help = "x",
					   .type = CLI_T_UINT, .min = 1, .max = 5 }, "bounds with no noun");
	bound_refused(3, (struct cli_row){ .name = "rounds", .key = 'r', .arg = "N", .help = "x",
					   .type = CLI_T_UINT, .min = 1, .max = 5, .def.u = 6, .what = "an integer" },
		      "a default out of its bounds");
	r.def.e = 3;
	bound_refused(5, r, "an enum's default past its names");
	bound_refused(6, (struct cli_row){ .name = "pair", .key = 'p', .arg = "A,B", .help = "x",
					   .type = CLI_T_CALL }, "a callback row without its callback");
	bound_refused(9, (struct cli_row){ .name = "help", .key = 'h', .help = "x", .type = CLI_T_FLAG },
		      "-h that is not the help row");
	s.operand = NULL;
	ok(cli_spec_check(&s, &err) == -EINVAL, "refused: operands among the options, no callback (%s)",
	   err.msg);
	s = bound;
	s.rows = NULL;
	ok(cli_spec_check(&s, &err) == -EINVAL, "refused: no rows at all (%s)", err.msg);
}

int main(void)
{
	const char *exe = getenv("EXITSCOPE");

	test_tables();
	test_parse();
	test_check();
	test_scan();
	test_bound();
	test_bound_check();
	if (exe)
		test_commands(exe);
	else
		skip("EXITSCOPE is not set: the commands' tables are checked through make check");
	return done_testing();
}
