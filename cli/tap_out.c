// SPDX-License-Identifier: GPL-2.0-only
/* tap_out.c - TAP version 13 producer of the check and map commands (tap_out.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/tap_out.h"

void tap_out_begin(struct tap_out *t, FILE *f, unsigned plan)
{
	t->f = f;
	t->n = 0;
	t->yaml = false;
	fprintf(f, "TAP version 13\n1..%u\n", plan);
}

void tap_out_skip_all(FILE *f, const char *why)
{
	fprintf(f, "TAP version 13\n1..0 # SKIP %s\n", why && *why ? why : "no reason given");
}

void tap_out_yaml_end(struct tap_out *t)
{
	if (!t->yaml)
		return;
	fprintf(t->f, "  ...\n");
	t->yaml = false;
}

/* The text on one line: newlines become spaces; in a description '#' is escaped. */
static void tap_out_text(FILE *f, const char *s, bool desc)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else if (desc && (*s == '#' || *s == '\\'))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}

static void tap_out_line(struct tap_out *t, bool ok, const char *desc)
{
	tap_out_yaml_end(t);
	t->n++;
	fprintf(t->f, "%sok %u - ", ok ? "" : "not ", t->n);
	tap_out_text(t->f, desc, true);
}

void tap_out_test(struct tap_out *t, bool ok, const char *desc)
{
	tap_out_line(t, ok, desc);
	fputc('\n', t->f);
}

void tap_out_skip(struct tap_out *t, const char *desc, const char *why)
{
	tap_out_line(t, true, desc);
	fprintf(t->f, " # SKIP ");
	tap_out_text(t->f, why && *why ? why : "no reason given", false);
	fputc('\n', t->f);
}

void tap_yaml_quote(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	if (len < 3) {
		if (len)
			buf[0] = 0;
		return;
	}
	buf[n++] = '"';
	for (; *s && n + 6 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			buf[n++] = '\\';
			buf[n++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			n += (size_t)snprintf(buf + n, len - n, "\\x%02x", c);
		} else {
			buf[n++] = (char)c;
		}
	}
	buf[n++] = '"';
	buf[n] = 0;
}

void tap_out_yaml(struct tap_out *t, const char *key, const char *value)
{
	char q[2048];

	if (!value || !*value)
		return;
	if (!t->yaml) {
		fprintf(t->f, "  ---\n");
		t->yaml = true;
	}
	tap_yaml_quote(q, sizeof(q), value);
	fprintf(t->f, "  %s: %s\n", key, q);
}

void tap_out_comment(struct tap_out *t, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	tap_out_yaml_end(t);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(t->f, "# ");
	tap_out_text(t->f, buf, false);
	fputc('\n', t->f);
}
