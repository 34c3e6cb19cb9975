// SPDX-License-Identifier: GPL-2.0-only
/*
 * symtab.c - a System.map's text symbols (profile/symtab.h). Lines are
 * "ADDRESS TYPE NAME"; text symbols are types t, T, w and W. Where several
 * names share an address the first global one is kept (else the first), as
 * a backtrace would name it. A text symbol's name must be UTF-8 (it goes
 * into a JSON result file), of any length. The file is read whole through
 * results/file_read.h, so a FIFO, a device or a directory is refused at once.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/symtab.h"
#include "results/file_read.h"

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)
		return x->global ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

bool symtab_utf8(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		unsigned char c = *p;
		/* The second byte's range (RFC 3629): no overlong form, no surrogate, nothing past U+10FFFF. */
		unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
		unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
		size_t len = c < 0x80 ? 1 : c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;

		if (!len || (size_t)(end - p) < len)
			return false;
		for (size_t i = 1; i < len; i++)
			if (p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xbf))
				return false;
		p += len;
	}
	return true;
}

int symtab_load(struct symtab *st, const char *path, struct err *err)
{
	char type, *buf, *line, *next, *eol, *nul, *name;
	struct err why;
	unsigned long long addr;
	size_t cap = 0, lines = 0, w, len, name_len;
	int r = 0, at;

	memset(st, 0, sizeof(*st));
	r = file_read_all(path, SYMTAB_MAX_BYTES, &buf, &len, &why);
	if (r)
		return err_set(err, r == -ENOENT || r == -ENOMEM ? r : -EIO, "%s: %s", path,
			       why.msg);
	nul = memchr(buf, '\0', len);
	if (nul) {
		r = err_set(err, -EINVAL, "%s: contains a NUL byte at offset %zu: not a System.map",
			 path, (size_t)(nul - buf));
		goto out;
	}
	for (next = buf; *next; next = eol ? eol + 1 : next + strlen(next)) {
		line = next;
		eol = strchr(next, '\n');
		if (eol)
			*eol = '\0';
		lines++;
		at = 0;
		name = NULL;
		if (sscanf(line, "%llx %c %n", &addr, &type, &at) == 2 && at > 0)
			name = line + at;
		name_len = name ? strcspn(name, " \t\r") : 0;
		if (!name_len) {
			r = err_set(err, -EINVAL,
				 "%s: line %zu: not \"ADDRESS TYPE NAME\": not a System.map", path,
				 lines);
			goto out;
		}
		name[name_len] = '\0';	/* the name whole, however long; what follows it is ignored */
		if (!strcmp(name, "_etext"))
			st->text_end = addr;
		if (!is_text(type))
			continue;
		/* Names go into the result file as JSON strings: one that is no UTF-8 could not be read back. */
		if (!symtab_utf8(name, name_len)) {
			r = err_set(err, -EINVAL,
				 "%s: line %zu: a symbol name that is not UTF-8: not a System.map",
				 path, lines);
			goto out;
		}
		if (st->n == cap) {
			size_t ncap = cap ? 2 * cap : 4096;
			struct sym *s = realloc(st->syms, ncap * sizeof(*s));

			if (!s) {
				r = err_set(err, -ENOMEM, "%s: out of memory", path);
				goto out;
			}
			st->syms = s;
			cap = ncap;
		}
		st->syms[st->n].addr = addr;
		st->syms[st->n].name = strndup(name, name_len);
		st->syms[st->n].global = type == 'T' || type == 'W';
		st->syms[st->n].order = st->n;
		if (!st->syms[st->n].name) {
			r = err_set(err, -ENOMEM, "%s: out of memory", path);
			goto out;
		}
		st->n++;
	}
	if (!st->n || !st->text_end) {
		r = err_set(err, -EINVAL, "%s: %s: not a kernel's System.map", path,
			 st->n ? "no _etext" : "no text symbols");
		goto out;
	}
	qsort(st->syms, st->n, sizeof(*st->syms), sym_cmp);
	w = 0;
	for (size_t i = 0; i < st->n; i++) {
		if (w && st->syms[w - 1].addr == st->syms[i].addr) {
			free(st->syms[i].name);
			continue;
		}
		st->syms[w++] = st->syms[i];
	}
	st->n = w;
out:
	free(buf);
	if (r)
		symtab_free(st);
	return r;
}

void symtab_free(struct symtab *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->syms[i].name);
	free(st->syms);
	memset(st, 0, sizeof(*st));
}

const struct sym *symtab_find(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->n;

	if (!st->n || addr < st->syms[0].addr || addr >= st->text_end)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &st->syms[lo];
}

const struct sym *symtab_lookup(const struct symtab *st, const char *name)
{
	for (size_t i = 0; i < st->n; i++)
		if (!strcmp(st->syms[i].name, name))
			return &st->syms[i];
	return NULL;
}
