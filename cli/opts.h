/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opts.h - one option table per command: it drives the command line's
 * parsing (getopt_long), its --help, the listing completion reads
 * (`exitscope help --options CMD`) and the man-page check.
 */
#ifndef EXITSCOPE_CLI_OPTS_H
#define EXITSCOPE_CLI_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/array_size.h"
#include "base/err.h"

/* The key of a long-only option: past every short letter, so getopt never returns it for one. */
#define CLI_LONG(c)	(0x100 | (c))
/* A macro's value as a string literal, for a default in a row's help: CLI_STR(COMPARE_SEED). */
#define CLI_STR(x)	CLI_STR_(x)
#define CLI_STR_(x)	#x
/* Rows a table may have (the help-only rows count too). */
#define CLI_OPTS_MAX	32

/*
 * A command's options are bound rows (struct cli_row, the CLI_ROW_*
 * macros below): each option names the variable it writes, as an offset
 * into the command's args struct (so the table stays a const at file
 * scope, as help and the man check read it without parsing), its type,
 * bounds and typed default.
 * cli_parse() fills the struct; cli_help() prints each default from its
 * row, with no format string. A command's code has no case per option,
 * only callbacks for the odd ones (--cpu A,B).
 */
enum cli_type {
	CLI_T_NONE,	/* a help-only row (key 0) */
	CLI_T_HELP,	/* -h, --help: print the help, cli_parse gives CLI_PARSE_HELP */
	CLI_T_FLAG,	/* bool = true */
	CLI_T_COUNT,	/* unsigned int += 1 */
	CLI_T_STR,	/* const char * = the argument */
	CLI_T_UINT,	/* unsigned int: decimal digits in [min, max] */
	CLI_T_DBL,	/* double in [min, max] (cli_parse_num) */
	CLI_T_ENUM,	/* int (or an enum): the argument's index in names */
	CLI_T_CALL,	/* fn(args, argument, parser) */
};

struct cli_parser;
/* A callback row's (or spec operand's) parser: 0, or an exit status with its one-line error printed. */
typedef int cli_opt_fn(void *args, const char *arg, const struct cli_parser *p);

/*
 * One row: an option, or (key 0) a line of the option list that is no
 * option, such as calibrate's "-- RUN-ARGUMENT ...". A table ends with a
 * row whose name is NULL.
 */
struct cli_row {
	const char *name;	/* the long name without "--"; key 0: the text shown as it is */
	int key;		/* what getopt returns: a short letter (-x), CLI_LONG(c), or 0 */
	const char *arg;	/* NULL: takes none; "FILE": a required one; "[FILE]": an
				   optional one */
	const char *help;	/* plain text ('\n' starts a line); the default is added after it */
	enum cli_type type;
	size_t off;		/* the variable: its offset in the args struct */
	const char *what;	/* UINT, DBL: the noun of the bounds error ("an integer") */
	double min, max;	/* UINT, DBL: the bounds */
	union {			/* the default, by type (FLAG, COUNT: zero) */
		unsigned int u;
		double d;
		const char *s;
		int e;
	} def;
	bool no_default;	/* --help prints no "default ..." (UINT: its bounds only) */
	const char *const *names;	/* ENUM: the spellings, names[i] sets i */
	size_t nnames;
	cli_opt_fn *fn;		/* CALL */
};

/* The field f of struct T, checked to be of type type (a compile error otherwise). */
#define CLI_FIELD(T, f, type) \
	(offsetof(T, f) + 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((T *)0)->f), type) ? 1 : -1]))
#define CLI_FIELD_INT(T, f) \
	(offsetof(T, f) + 0 * sizeof(char[sizeof(((T *)0)->f) == sizeof(int) ? 1 : -1]))

#define CLI_ROW_HELP \
	{ .name = "help", .key = 'h', .help = "this text", .type = CLI_T_HELP }
#define CLI_ROW_FLAG(n, k, T, f, h) \
	{ .name = n, .key = k, .help = h, .type = CLI_T_FLAG, .off = CLI_FIELD(T, f, bool) }
#define CLI_ROW_COUNT(n, k, T, f, h) \
	{ .name = n, .key = k, .help = h, .type = CLI_T_COUNT, .off = CLI_FIELD(T, f, unsigned int) }
/* def: NULL, or the default --help prints */
#define CLI_ROW_STR(n, k, a, T, f, dflt, h) \
	{ .name = n, .key = k, .arg = a, .help = h, .type = CLI_T_STR, .off = CLI_FIELD(T, f, const char *), \
	  .def.s = dflt }
#define CLI_ROW_UINT(n, k, a, T, f, lo, hi, dflt, noun, h) \
	{ .name = n, .key = k, .arg = a, .help = h, .type = CLI_T_UINT, \
	  .off = CLI_FIELD(T, f, unsigned int), .min = lo, .max = hi, .def.u = dflt, .what = noun }
#define CLI_ROW_DBL(n, k, a, T, f, lo, hi, dflt, noun, h) \
	{ .name = n, .key = k, .arg = a, .help = h, .type = CLI_T_DBL, \
	  .off = CLI_FIELD(T, f, double), .min = lo, .max = hi, .def.d = dflt, .what = noun }
#define CLI_ROW_ENUM(n, k, a, T, f, tab, dflt, h) \
	{ .name = n, .key = k, .arg = a, .help = h, .type = CLI_T_ENUM, .off = CLI_FIELD_INT(T, f), \
	  .names = tab, .nnames = ARRAY_SIZE(tab), .def.e = dflt }
#define CLI_ROW_CALL(n, k, a, func, h) \
	{ .name = n, .key = k, .arg = a, .help = h, .type = CLI_T_CALL, .fn = func }
#define CLI_ROW_KVM_DEV(T, f) \
	CLI_ROW_STR("kvm-dev", CLI_LONG('k'), "PATH", T, f, NULL, \
		    "KVM device (default /dev/kvm, or $EXITSCOPE_KVM_DEV)")

/* A command: its --help around the option table, and how getopt reads it. */
struct cli_cmd_spec {
	const char *name;	/* the command: "run" */
	const char *usage;	/* after "usage: exitscope NAME "; '\n' starts another synopsis */
	const char *about;	/* the paragraphs before the options, '\n'-terminated */
	const struct cli_row *rows;	/* the options (cli_parse) */
	cli_opt_fn *operand;	/* '-' order: each operand in turn (arg: the operand) */
	int (*seen)(void *args, int key, const struct cli_parser *p);	/* after each option is
				   set (p->at: where it began), 0 or an exit status */
	void (*about_print)(FILE *f);	/* about with figures in it, printed by the command */
	void (*tail_print)(FILE *f);	/* a paragraph made at run time, after the options */
	int col;		/* column of the option help; a longer label gets a line of its own */
	char order;		/* 0: options and operands mixed (getopt permutes), '+': options end at the
				   first operand, '-': operands in order among the options, as key 1 */
	const char *tail;	/* after the options: "Exit status: ...", '\n'-terminated */
	const char *bad_hint;	/* added to the unknown-option error, as " (run options go
				   after '--')" */
};

/*
 * The table is well formed: rows at most CLI_OPTS_MAX, names and keys
 * unique, every row with help text, keys a letter or digit or CLI_LONG of
 * one, an argument "X" or "[X]", a -h, --help row (CLI_ROW_HELP), an
 * argument exactly for the types that take one, bounds and their noun (and
 * the default within them, unless no_default), an enum's names with its
 * default among them, a callback's function, and an operand callback for
 * '-' order. 0, or -EINVAL with err saying what is wrong.
 */
int cli_spec_check(const struct cli_cmd_spec *s, struct err *err);

/* Parsing one command line by its table. */
struct cli_parser {
	const struct cli_cmd_spec *spec;
	int argc;
	char **argv;
	struct option longopts[CLI_OPTS_MAX + 1];
	char shortopts[2 + 3 * CLI_OPTS_MAX];
	struct err err;		/* the table is not well formed: nothing is parsed */
	int at;			/* cli_parse: argv index where the option being read began */
	unsigned long given;	/* cli_parse: bit i set when rows[i] was on the command line */
};

/* What cli_parse gives besides an exit status: --help was printed. */
#define CLI_PARSE_HELP	(-1)
/*
 * Parse argv by s->rows into args: first every row's default, then each
 * option in turn; a bad one prints one line (the --NAME wants WHAT MIN-MAX,
 * not 'X' of a bounded row) and gives its exit status. 0: parsed, optind
 * at the first operand; CLI_PARSE_HELP: --help printed to stdout.
 */
int cli_parse(struct cli_parser *p, const struct cli_cmd_spec *s, void *args, int argc, char **argv);
/* The option of key was on the command line (after cli_parse). */
bool cli_given(const struct cli_parser *p, int key);
/* The long name of key in s, or NULL. */
const char *cli_opt_name(const struct cli_cmd_spec *s, int key);

/* getopt_long's tables from the spec: the long options (0-terminated) and the short string. */
void cli_opts_build(const struct cli_cmd_spec *s, struct option *longopts, char *shortopts);
/*
 * Read argv by s's rows as cli_parse would, setting nothing: fn(ctx, row,
 * its argument or NULL, argv index where it began) for each option in
 * turn, row NULL for one that is unknown, an ambiguous abbreviation or
 * without its argument (operands are passed over). calibrate reads the
 * arguments it hands to run this way, by run's rows. Stops at fn's first
 * nonzero and returns it; 0 at the end; -EINVAL when the table is not well
 * formed (cli_spec_check).
 */
typedef int cli_scan_fn(void *ctx, const struct cli_row *r, const char *arg, int at);
int cli_scan(const struct cli_cmd_spec *s, int argc, char **argv, cli_scan_fn *fn, void *ctx);

/*
 * The command's --help: usage line(s), about, the rows in two columns
 * (plain text, each row's default after its help), tail.
 */
void cli_help(FILE *f, const struct cli_cmd_spec *s);
/*
 * The options one spelling a line, for completion and the man check:
 * "--name", "--name ARG" (ARG as in the table, "[FILE]" when optional),
 * then "-x ..." the same for a short letter.
 */
void cli_opts_list(FILE *f, const struct cli_cmd_spec *s);

#endif
