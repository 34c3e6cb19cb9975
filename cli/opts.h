/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opts.h - one option table per command: it drives the command line's
 * parsing (getopt_long), its --help, the listing completion reads
 * (`exitscope help --options CMD`) and the man-page check.
 */
#ifndef EXITSCOPE_CLI_OPTS_H
#define EXITSCOPE_CLI_OPTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

/* The key of a long-only option: past every short letter, so getopt never returns it for one. */
#define CLI_LONG(c)	(0x100 | (c))
/* Rows a table may have (the help-only rows count too). */
#define CLI_OPTS_MAX	32

/*
 * One row: an option, or (key 0) a line of the option list that is no
 * option, such as calibrate's "-- RUN-ARGUMENT ...". A table ends with a
 * row whose name is NULL.
 */
struct cli_opt {
	const char *name;	/* the long name without "--"; key 0: the text shown as it is */
	int key;		/* what getopt returns: a short letter (-x), CLI_LONG(c), or 0 */
	const char *arg;	/* NULL: takes none; "FILE": a required one; "[FILE]": an optional one */
	const char *help;	/* --help's text: a printf format (see cli_help); '\n' starts a line */
};

/* Every command's -h, --help. */
#define CLI_OPT_HELP	{ "help", 'h', NULL, "this text" }
/* The KVM device of the commands that open one (the path: cli_kvm_path). */
#define CLI_OPT_KVM_DEV	{ "kvm-dev", CLI_LONG('k'), "PATH", "KVM device (default /dev/kvm, or $EXITSCOPE_KVM_DEV)" }
/* compare's and report's threshold (its default, COMPARE_THRESHOLD_PCT, is cli_help's argument). */
#define CLI_OPT_THRESHOLD	{ "threshold", CLI_LONG('t'), "PCT", "smallest relative change that counts (default %.0f%%)" }

/* A command: its --help around the option table, and how getopt reads it. */
struct cli_cmd_spec {
	const char *name;	/* the command: "run" */
	const char *usage;	/* after "usage: exitscope NAME "; '\n' starts another synopsis */
	const char *about;	/* the paragraphs before the options, '\n'-terminated */
	const struct cli_opt *opts;
	int col;		/* column of the option help; a longer label gets a line of its own */
	char order;		/* 0: options and operands mixed (getopt permutes), '+': options end at the
				   first operand, '-': operands in order among the options, as key 1 */
	const char *tail;	/* after the options: "Exit status: ...", '\n'-terminated */
	const char *bad_hint;	/* added to the unknown-option error: " (run options go after '--')" */
};

/*
 * The table is well formed: rows at most CLI_OPTS_MAX, names and keys
 * unique, every row with help text, keys a letter or digit or CLI_LONG of
 * one, an argument "X" or "[X]", and a -h, --help row. 0, or -EINVAL with
 * err saying what is wrong.
 */
int cli_spec_check(const struct cli_cmd_spec *s, struct err *err);

/* Parsing one command line by its table. */
struct cli_parser {
	const struct cli_cmd_spec *spec;
	int argc;
	char **argv;
	struct option longopts[CLI_OPTS_MAX + 1];
	char shortopts[2 + 3 * CLI_OPTS_MAX];
	struct err err;		/* the table is not well formed: cli_opts_next gives '?' */
};

/* getopt_long's tables from the spec: the long options (0-terminated) and the short string. */
void cli_opts_build(const struct cli_cmd_spec *s, struct option *longopts, char *shortopts);
/* Start parsing argv (getopt fully reinitialised, its messages off). */
void cli_opts_init(struct cli_parser *p, const struct cli_cmd_spec *s, int argc, char **argv);
/* The next option's key (optarg: its argument), 1 for an operand in '-' order, -1 at the end, '?' when bad. */
int cli_opts_next(struct cli_parser *p);
/*
 * The '?' just returned: "unknown or incomplete option 'ARG'" with the hint
 * to --help (cli_usage_error), EXIT_USAGE; EXIT_FAIL when the table is not
 * well formed.
 */
int cli_opts_bad(const struct cli_parser *p);

/*
 * The command's --help: usage line(s), about, the option table in two
 * columns, tail. The texts together are one printf format, filled from
 * the arguments in the order they are printed (about's first, then the
 * options' in table order, then tail's); a literal '%' is "%%".
 */
void cli_help(FILE *f, const struct cli_cmd_spec *s, ...);
/*
 * The options one spelling a line, for completion and the man check:
 * "--name", "--name ARG" (ARG as in the table, "[FILE]" when optional),
 * then "-x ..." the same for a short letter.
 */
void cli_opts_list(FILE *f, const struct cli_cmd_spec *s);

#endif
