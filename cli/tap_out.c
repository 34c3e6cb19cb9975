// SPDX-License-Identifier: GPL-2.0-only
/* tap_out.c - TAP version 13 producer of the check and map commands (tap_out.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/tap_out.h"
#include "host/text_wrap.h"

void tap_out_begin(struct tap_out *t, FILE *f, unsigned plan)
{
	t->f = f;
	t->n = 0;
	t->yaml = false;
	t->pending[0] = 0;
	fprintf(f, "TAP version 13\n1..%u\n", plan);
}

void tap_out_skip_all(FILE *f, const char *why)
{
	fprintf(f, "TAP version 13\n1..0 # SKIP %s\n", why && *why ? why : "no reason given");
}

void tap_out_yaml_end(struct tap_out *t)
{
	if (t->yaml)
		fprintf(t->f, "  ...\n");
	t->yaml = false;
	if (t->pending[0])
		text_wrap_print_cont(t->f, "# ", "#   ", t->pending);
	t->pending[0] = 0;
}

/* s on one line into buf: newlines become spaces; in a description '#' and '\\' are escaped. */
static void tap_out_text(char *buf, size_t len, const char *s, bool desc)
{
	size_t n = 0;

	for (; *s && n + 3 < len; s++) {
		if (*s == '\n' || *s == '\r') {
			buf[n++] = ' ';
		} else {
			if (desc && (*s == '#' || *s == '\\'))
				buf[n++] = '\\';
			buf[n++] = *s;
		}
	}
	buf[n] = 0;
}

/*
 * A test line: head ("ok 3 - desc # SKIP "), then text (escaped as desc
 * says); when the line would not fit TEXT_WIDTH, text is cut at a word
 * with " ..." and its whole is kept for a diagnostic after the test.
 */
static void tap_out_line(struct tap_out *t, const char *head, const char *text, bool desc)
{
	char buf[2048];
	size_t room = TEXT_WIDTH - strlen(head), n;

	tap_out_text(buf, sizeof(buf), text, desc);
	n = strlen(buf);
	if (n > room && room > 8) {
		size_t cut = room - 4;

		while (cut > 0 && buf[cut] != ' ')
			cut--;
		while (cut > 0 && buf[cut - 1] == ' ')
			cut--;
		if (!cut)
			cut = room - 4;
		if (cut > 0 && buf[cut - 1] == '\\')	/* not between an escape and its character */
			cut--;
		snprintf(t->pending, sizeof(t->pending), "%s", text);
		for (char *p = t->pending; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		fprintf(t->f, "%s%.*s ...\n", head, (int)cut, buf);
		return;
	}
	fprintf(t->f, "%s%s\n", head, buf);
}

void tap_out_test(struct tap_out *t, bool ok, const char *desc)
{
	char head[32];

	tap_out_yaml_end(t);
	snprintf(head, sizeof(head), "%sok %u - ", ok ? "" : "not ", ++t->n);
	tap_out_line(t, head, desc, true);
}

void tap_out_skip(struct tap_out *t, const char *desc, const char *why)
{
	char d[1024], head[1100];

	tap_out_yaml_end(t);
	tap_out_text(d, sizeof(d), desc, true);
	snprintf(head, sizeof(head), "ok %u - %s # SKIP ", ++t->n, d);
	tap_out_line(t, head, why && *why ? why : "no reason given", false);
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

/* Whether value may be a folded scalar as it is: printable, single spaces, no space at an end. */
static bool tap_yaml_foldable(const char *v)
{
	if (*v == ' ' || v[strlen(v) - 1] == ' ')
		return false;
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e || (p[0] == ' ' && p[1] == ' '))
			return false;
	return true;
}

void tap_out_yaml(struct tap_out *t, const char *key, const char *value)
{
	char q[2048], lead[64];

	if (!value || !*value)
		return;
	if (!t->yaml) {
		fprintf(t->f, "  ---\n");
		t->yaml = true;
	}
	tap_yaml_quote(q, sizeof(q), value);
	/* Too wide for one line: a folded scalar (its lines joined by spaces, and a final newline). */
	if (4 + strlen(key) + strlen(q) > TEXT_WIDTH && tap_yaml_foldable(value)) {
		fprintf(t->f, "  %s: >\n", key);
		text_wrap_print_cont(t->f, "    ", "    ", value);
		return;
	}
	snprintf(lead, sizeof(lead), "  %s: ", key);
	fprintf(t->f, "%s%s\n", lead, q);
}

void tap_out_comment(struct tap_out *t, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	tap_out_yaml_end(t);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	text_wrap_print_cont(t->f, "# ", "#   ", buf);
}
