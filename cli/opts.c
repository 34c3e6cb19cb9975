// SPDX-License-Identifier: GPL-2.0-only
/* opts.c - a command's option table made into getopt_long's tables, its --help and its option listing. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
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

int cli_spec_check(const struct cli_cmd_spec *s, struct err *err)
{
	const struct cli_opt *o = s->opts;
	bool help = false;
	size_t n;

	for (n = 0; o[n].name; n++) {
		const struct cli_opt *r = &o[n];
		size_t al = r->arg ? strlen(r->arg) : 0;

		if (n == CLI_OPTS_MAX)
			return err_set(err, -EINVAL, "more than %d rows", CLI_OPTS_MAX);
		if (!r->name[0] || !r->help || !r->help[0])
			return err_set(err, -EINVAL, "row %zu ('%s') has no name or no help", n, r->name);
		if (r->key && ((r->key & ~0x1ff) || !isalnum(key_char(r->key))))
			return err_set(err, -EINVAL, "--%s: key %#x is no letter or digit, nor CLI_LONG of one",
				 r->name, (unsigned)r->key);
		if (r->arg && (!al || (arg_optional(r->arg) && (al < 3 || r->arg[al - 1] != ']'))))
			return err_set(err, -EINVAL, "--%s: argument '%s' is neither X nor [X]", r->name, r->arg);
		for (size_t k = 0; k < n; k++) {
			if (!strcmp(o[k].name, r->name) || (r->key && o[k].key == r->key))
				return err_set(err, -EINVAL, "rows %zu and %zu have the same %s", k, n,
					 strcmp(o[k].name, r->name) ? "key" : "name");
		}
		help |= r->key == 'h' && !strcmp(r->name, "help");
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
	for (const struct cli_opt *o = s->opts; o->name; o++) {
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

void cli_opts_init(struct cli_parser *p, const struct cli_cmd_spec *s, int argc, char **argv)
{
	p->spec = s;
	p->argc = argc;
	p->argv = argv;
	err_init(&p->err);
	if (cli_spec_check(s, &p->err) == 0)
		cli_opts_build(s, p->longopts, p->shortopts);
	optind = 0;	/* a full reinit: glibc reads the order character again */
	opterr = 0;
}

int cli_opts_next(struct cli_parser *p)
{
	if (p->err.code)
		return '?';
	return getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
}

int cli_opts_bad(const struct cli_parser *p)
{
	const struct cli_cmd_spec *s = p->spec;

	if (p->err.code)
		return cli_error(s->name, EXIT_FAIL, "option table: %s", p->err.msg);
	return cli_usage_error(s->name, "unknown or incomplete option '%s'%s",
			       optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "",
			       s->bad_hint ? s->bad_hint : "");
}

/* Text that goes into the format as it is: each '%' doubled. */
static void put_literal(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '%')
			fputc('%', f);
		fputc(*s, f);
	}
}

/* "  -o, --output FILE", "  --json [FILE]", or a help-only row's text; its length. */
static size_t label(char *buf, size_t len, const struct cli_opt *o)
{
	char sh[8] = "";
	int n;

	if (!o->key) {
		n = snprintf(buf, len, "  %s", o->name);
	} else {
		if (key_short(o->key))
			snprintf(sh, sizeof(sh), "-%c, ", o->key);
		n = snprintf(buf, len, "  %s--%s%s%s", sh, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	}
	return n < 0 ? 0 : strlen(buf);
}

/* One option's lines: the label, its help at col (below it when the label is as wide). */
static void help_row(FILE *f, const struct cli_opt *o, int col)
{
	char lab[128];
	size_t w = label(lab, sizeof(lab), o);

	put_literal(f, lab);
	if (w < (size_t)col)
		fprintf(f, "%*s", col - (int)w, "");
	else
		fprintf(f, "\n%*s", col, "");
	for (const char *h = o->help; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "%*s", col, "");
	}
	fputc('\n', f);
}

void cli_help(FILE *f, const struct cli_cmd_spec *s, ...)
{
	char *fmt = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&fmt, &len);
	const char *u = s->usage;
	va_list ap;

	if (!m)
		return;
	fprintf(m, "usage: exitscope %s ", s->name);
	for (; *u; u++) {
		if (*u == '%')
			fputc('%', m);
		fputc(*u, m);
		if (*u == '\n')
			fprintf(m, "       exitscope %s ", s->name);
	}
	fputs("\n\n", m);
	if (s->about)
		fprintf(m, "%s\n", s->about);
	for (const struct cli_opt *o = s->opts; o->name; o++)
		help_row(m, o, s->col);
	if (s->tail)
		fprintf(m, "\n%s", s->tail);
	if (fclose(m)) {
		free(fmt);
		return;
	}
	va_start(ap, s);
	vfprintf(f, fmt, ap);
	va_end(ap);
	free(fmt);
}

void cli_opts_list(FILE *f, const struct cli_cmd_spec *s)
{
	for (const struct cli_opt *o = s->opts; o->name; o++) {
		if (!o->key)
			continue;
		fprintf(f, "--%s%s%s\n", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if (key_short(o->key))
			fprintf(f, "-%c%s%s\n", o->key, o->arg ? " " : "", o->arg ? o->arg : "");
	}
}
