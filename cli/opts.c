// SPDX-License-Identifier: GPL-2.0-only
/* opts.c - a command's option rows made into getopt_long's tables, its parsing, --help and option listing. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"

/* The letter behind a key: the short option itself, or the one under CLI_LONG. */
static int key_char(int key)
{
	return key & 0xff;
}

static bool key_short(int key)
{
	return key > 0 && key < 0x100;
}

static bool arg_optional(const char *arg)
{
	return arg && arg[0] == '[';
}

/* A row's own rules: a variable type's argument, bounds, names, callback. */
static int row_check(const struct cli_row *r, struct err *err)
{
	bool takes = r->type >= CLI_T_STR;

	if (!r->key != (r->type == CLI_T_NONE))
		return err_set(err, -EINVAL, "--%s: help-only rows, and only they, have no key",
			       r->name);
	if (takes != (r->arg != NULL))
		return err_set(err, -EINVAL, "--%s: %s", r->name, takes ? "needs an argument form" :
				 "takes no argument");
	if ((r->type == CLI_T_UINT || r->type == CLI_T_DBL) && (!r->what || r->min > r->max))
		return err_set(err, -EINVAL, "--%s: no bounds or no noun for them", r->name);
	if (!r->no_default && ((r->type == CLI_T_UINT && (r->def.u < r->min || r->def.u > r->max)) ||
			       (r->type == CLI_T_DBL && (r->def.d < r->min || r->def.d > r->max))))
		return err_set(err, -EINVAL, "--%s: its default is out of its bounds", r->name);
	if (r->type == CLI_T_ENUM && (!r->names || !r->nnames || r->def.e < 0 || (size_t)r->def.e >= r->nnames))
		return err_set(err, -EINVAL, "--%s: no names, or a default not among them",
			       r->name);
	if (r->type == CLI_T_CALL && !r->fn)
		return err_set(err, -EINVAL, "--%s: no callback", r->name);
	return 0;
}

int cli_spec_check(const struct cli_cmd_spec *s, struct err *err)
{
	const struct cli_row *o = s->rows;
	bool help = false;
	size_t n;

	if (!o)
		return err_set(err, -EINVAL, "no option rows");
	if (s->order == '-' && !s->operand)
		return err_set(err, -EINVAL, "operands among the options with no operand callback");
	for (n = 0; o[n].name; n++) {
		const struct cli_row *r = &o[n];
		size_t al = r->arg ? strlen(r->arg) : 0;

		if (n == CLI_OPTS_MAX)
			return err_set(err, -EINVAL, "more than %d rows", CLI_OPTS_MAX);
		if (row_check(r, err))
			return err->code;
		if (!r->name[0] || !r->help || !r->help[0])
			return err_set(err, -EINVAL, "row %zu ('%s') has no name or no help", n,
				       r->name);
		if (r->key && ((r->key & ~0x1ff) || !isalnum(key_char(r->key))))
			return err_set(err, -EINVAL,
				       "--%s: key %#x is no letter or digit, nor CLI_LONG of one",
				       r->name, (unsigned)r->key);
		if (r->arg && (!al || (arg_optional(r->arg) && (al < 3 || r->arg[al - 1] != ']'))))
			return err_set(err, -EINVAL, "--%s: argument '%s' is neither X nor [X]",
				       r->name, r->arg);
		for (size_t k = 0; k < n; k++) {
			if (!strcmp(o[k].name, r->name) || (r->key && o[k].key == r->key))
				return err_set(err, -EINVAL, "rows %zu and %zu have the same %s", k,
					       n, strcmp(o[k].name, r->name) ? "key" : "name");
		}
		help |= r->key == 'h' && !strcmp(r->name, "help");
		if ((r->type == CLI_T_HELP) != (r->key == 'h'))
			return err_set(err, -EINVAL, "--%s: -h is the help row's, and it is -h",
				       r->name);
	}
	if (!help)
		return err_set(err, -EINVAL, "no -h, --help row");
	return 0;
}

void cli_opts_build(const struct cli_cmd_spec *s, struct option *longopts, char *shortopts)
{
	size_t n = 0;
	char *sp = shortopts;

	if (s->order)
		*sp++ = s->order;
	for (const struct cli_row *o = s->rows; o->name; o++) {
		int has = !o->arg ? no_argument : arg_optional(o->arg) ? optional_argument : required_argument;

		if (!o->key)
			continue;
		longopts[n++] = (struct option){ o->name, has, NULL, o->key };
		if (!key_short(o->key))
			continue;
		*sp++ = (char)o->key;
		if (has != no_argument)
			*sp++ = ':';
		if (has == optional_argument)
			*sp++ = ':';
	}
	longopts[n] = (struct option){ 0 };
	*sp = 0;
}

/* Start parsing argv (getopt fully reinitialised, its messages off). */
static void opts_init(struct cli_parser *p, const struct cli_cmd_spec *s, int argc, char **argv)
{
	p->spec = s;
	p->argc = argc;
	p->argv = argv;
	p->at = 1;
	p->given = 0;
	err_init(&p->err);
	if (cli_spec_check(s, &p->err) == 0)
		cli_opts_build(s, p->longopts, p->shortopts);
	optind = 0;	/* a full reinit: glibc reads the order character again */
	opterr = 0;
}

/* The next option's key (optarg: its argument), 1 for an operand in '-' order, -1 at the end, '?' when bad. */
static int opts_next(struct cli_parser *p)
{
	if (p->err.code)
		return '?';
	return getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
}

/*
 * The '?' just returned: "unknown or incomplete option 'ARG'" with the hint
 * to --help (cli_usage_error), EXIT_USAGE; EXIT_FAIL when the table is not
 * well formed.
 */
static int opts_bad(const struct cli_parser *p)
{
	const struct cli_cmd_spec *s = p->spec;

	if (p->err.code)
		return cli_error(s->name, EXIT_FAIL, "option table: %s", p->err.msg);
	return cli_usage_error(s->name, "unknown or incomplete option '%s'%s",
			       optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "",
			       s->bad_hint ? s->bad_hint : "");
}

/* "  -o, --output FILE", "  --json [FILE]", or a help-only row's text; its length. */
static size_t label(char *buf, size_t len, const struct cli_row *o)
{
	char sh[8] = "";
	int n;

	if (!o->key) {
		n = snprintf(buf, len, "  %s", o->name);
	} else {
		if (key_short(o->key))
			snprintf(sh, sizeof(sh), "-%c, ", o->key);
		n = snprintf(buf, len, "  %s--%s%s%s", sh, o->name, o->arg ? " " : "",
			     o->arg ? o->arg : "");
	}
	return n < 0 ? 0 : strlen(buf);
}

/* A row's default as --help gives it, " (1-1000, default 5)" (no_default: " (1-1000)"), or "". */
static void row_default_text(char *buf, size_t len, const struct cli_row *r)
{
	buf[0] = 0;
	if (r->type == CLI_T_UINT)
		snprintf(buf, len, r->no_default ? " (%.15g-%.15g)" : " (%.15g-%.15g, default %u)",
			 r->min, r->max, r->def.u);
	if (r->no_default)
		return;
	switch (r->type) {
	case CLI_T_DBL:
		snprintf(buf, len, " (default %g)", r->def.d);
		break;
	case CLI_T_ENUM:
		snprintf(buf, len, " (default %s)", r->names[r->def.e]);
		break;
	case CLI_T_STR:
		if (r->def.s)
			snprintf(buf, len, " (default %s)", r->def.s);
		break;
	default:
		break;
	}
}

/* One option's lines: the label, its help at col (below it when the label is as wide), its default. */
static void help_row(FILE *f, const struct cli_row *o, int col)
{
	char lab[128], dflt[96];
	size_t w = label(lab, sizeof(lab), o);

	fputs(lab, f);
	if (w < (size_t)col)
		fprintf(f, "%*s", col - (int)w, "");
	else
		fprintf(f, "\n%*s", col, "");
	for (const char *h = o->help; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "%*s", col, "");
	}
	row_default_text(dflt, sizeof(dflt), o);
	fputs(dflt, f);
	fputc('\n', f);
}

/* The usage line(s): "usage: exitscope NAME USAGE", each '\n' another synopsis. */
static void help_usage(FILE *f, const struct cli_cmd_spec *s)
{
	fprintf(f, "usage: exitscope %s ", s->name);
	for (const char *u = s->usage; *u; u++) {
		fputc(*u, f);
		if (*u == '\n')
			fprintf(f, "       exitscope %s ", s->name);
	}
	fputs("\n\n", f);
}

void cli_help(FILE *f, const struct cli_cmd_spec *s)
{
	help_usage(f, s);
	if (s->about_print)
		s->about_print(f);
	else if (s->about)
		fputs(s->about, f);
	if (s->about_print || s->about)
		fputc('\n', f);
	for (const struct cli_row *o = s->rows; o->name; o++)
		help_row(f, o, s->col);
	if (s->tail_print)
		s->tail_print(f);
	if (s->tail)
		fprintf(f, "\n%s", s->tail);
}

void cli_opts_list(FILE *f, const struct cli_cmd_spec *s)
{
	for (const struct cli_row *o = s->rows; o->name; o++) {
		if (!o->key)
			continue;
		fprintf(f, "--%s%s%s\n", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if (key_short(o->key))
			fprintf(f, "-%c%s%s\n", o->key, o->arg ? " " : "", o->arg ? o->arg : "");
	}
}

const char *cli_opt_name(const struct cli_cmd_spec *s, int key)
{
	for (const struct cli_row *o = s->rows; o->name; o++)
		if (o->key && o->key == key)
			return o->name;
	return NULL;
}

/* The row of key (opts_next's answer), or NULL. */
static const struct cli_row *row_of(const struct cli_cmd_spec *s, int key, size_t *i)
{
	for (*i = 0; s->rows[*i].name; (*i)++)
		if (s->rows[*i].key && s->rows[*i].key == key)
			return &s->rows[*i];
	return NULL;
}

static void row_default(const struct cli_row *r, char *v)
{
	switch (r->type) {
	case CLI_T_FLAG: *(bool *)v = false; break;
	case CLI_T_COUNT: *(unsigned int *)v = 0; break;
	case CLI_T_STR: *(const char **)v = r->def.s; break;
	case CLI_T_UINT: *(unsigned int *)v = r->def.u; break;
	case CLI_T_DBL: *(double *)v = r->def.d; break;
	case CLI_T_ENUM: *(int *)v = r->def.e; break;
	default: break;
	}
}

/* The enum's spellings "a, b or c" for its error line. */
static void enum_names(char *buf, size_t len, const struct cli_row *r)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < r->nnames && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i == 0 ? "" : i + 1 < r->nnames ? ", " :
					" or ", r->names[i]);
}

/* One option's argument into its variable: 0, or the exit status of its printed error. */
static int row_set(const struct cli_parser *p, const struct cli_row *r, char *v, const char *arg)
{
	const char *cmd = p->spec->name;
	char names[128];
	uint64_t u;
	double d;

	switch (r->type) {
	case CLI_T_FLAG: *(bool *)v = true; return 0;
	case CLI_T_COUNT: (*(unsigned int *)v)++; return 0;
	case CLI_T_STR: *(const char **)v = arg; return 0;
	case CLI_T_UINT:
		if (cli_parse_u64(arg, false, (uint64_t)r->max, &u) || u < (uint64_t)r->min)
			return cli_usage_error(cmd, "--%s wants %s %.15g-%.15g, not '%s'", r->name,
					       r->what, r->min, r->max, arg);
		*(unsigned int *)v = (unsigned int)u;
		return 0;
	case CLI_T_DBL:
		if (cli_parse_num(arg, r->min, r->max, &d))
			return cli_usage_error(cmd, "--%s wants %s %.15g-%.15g, not '%s'", r->name,
					       r->what, r->min, r->max, arg);
		*(double *)v = d;
		return 0;
	case CLI_T_ENUM:
		for (size_t i = 0; i < r->nnames; i++) {
			if (!strcmp(arg, r->names[i])) {
				*(int *)v = (int)i;
				return 0;
			}
		}
		enum_names(names, sizeof(names), r);
		return cli_usage_error(cmd, "--%s wants %s, not '%s'", r->name, names, arg);
	default:
		return cli_error(cmd, EXIT_FAIL, "option table: --%s binds nothing", r->name);
	}
}

int cli_parse(struct cli_parser *p, const struct cli_cmd_spec *s, void *args, int argc, char **argv)
{
	const struct cli_row *r;
	size_t i;
	int c, rc;

	opts_init(p, s, argc, argv);
	if (p->err.code)
		return opts_bad(p);
	for (r = s->rows; r->name; r++)
		row_default(r, (char *)args + r->off);
	for (p->at = 1; (c = opts_next(p)) != -1; p->at = optind) {
		if (c == 1) {
			rc = s->operand(args, optarg, p);
			if (rc)
				return rc;
			continue;
		}
		r = c == '?' ? NULL : row_of(s, c, &i);
		if (!r)
			return opts_bad(p);
		if (i < sizeof(p->given) * 8)
			p->given |= 1UL << i;
		if (r->type == CLI_T_HELP) {
			cli_help(stdout, s);
			return CLI_PARSE_HELP;
		}
		rc = r->type == CLI_T_CALL ? r->fn(args, optarg, p) : row_set(p, r, (char *)args + r->off, optarg);
		if (!rc && s->seen)
			rc = s->seen(args, c, p);
		if (rc)
			return rc;
	}
	return 0;
}

bool cli_given(const struct cli_parser *p, int key)
{
	size_t i;

	return row_of(p->spec, key, &i) && i < sizeof(p->given) * 8 && (p->given >> i & 1);
}

int cli_scan(const struct cli_cmd_spec *s, int argc, char **argv, cli_scan_fn *fn, void *ctx)
{
	struct cli_parser p;
	size_t i;
	int c, at, rc = 0;

	opts_init(&p, s, argc, argv);
	if (p.err.code)
		return p.err.code;
	for (at = 1; !rc && (c = opts_next(&p)) != -1; at = optind)
		if (c != 1)
			rc = fn(ctx, c == '?' ? NULL : row_of(s, c, &i), c == '?' ? NULL : optarg, at);
	return rc;
}
