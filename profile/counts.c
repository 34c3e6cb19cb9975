// SPDX-License-Identifier: GPL-2.0-only
/*
 * counts.c - read the instrumented Bochs' profile file (profile/counts.h).
 * The format, line by line (lanes/bochs-instrument/instrument.cc writes it):
 *   exitscope-bochs-profile VERSION
 *   dump LABEL
 *   probe NAME
 *   side op|base|op_irq|base_irq ops N batches N guest N kernel N user N
 *   exit REASON N | insn HEXADDR N | call HEXADDR N | entry HEXADDR N
 *   census HEXADDR MNEMONIC HEXOPERAND|- N       (version 2 only)
 *   end
 * VERSION is 1 (no census lines) or 2; one file has one version. A census
 * line's MNEMONIC is 1 to 15 of [a-z0-9_] (the module's table may grow: any
 * such name is taken), "-" for a kind without an operand. Every count N
 * (a side's figures too) is decimal and at most PROF_COUNT_MAX, 2^53, and
 * so is the sum of a side's counts of one tag (census lines: all of them):
 * the attribution adds and subtracts them as signed numbers and prints
 * them as doubles, both exact below it. Beyond, "count out of range". A
 * probe has each side at most once.
 * A file cut short (the emulator stopped in the middle of a dump or of a
 * line) keeps its complete dumps; any other deviation is an error. The file
 * is read whole through results/file_read.h, so a FIFO, a device or a
 * directory given as the counts is refused at once.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "base/num.h"
#include "harness/profile_mark.h"
#include "profile/counts.h"
#include "results/file_read.h"

/*
 * The array v (n elements used, *cap allocated, each size bytes) with room
 * for one more: the capacity doubles, so n appends cost O(n) in all, never
 * a copy of the whole array per line. NULL when out of memory (v stays).
 */
static void *grow(void *v, size_t n, size_t *cap, size_t size, size_t first)
{
	size_t c = *cap ? 2 * *cap : first;

	if (n < *cap)
		return v;
	if (c > SIZE_MAX / size)
		return NULL;
	v = realloc(v, c * size);
	if (v)
		*cap = c;
	return v;
}

static int list_add(struct prof_list *l, uint64_t key, uint64_t n)
{
	struct prof_count *v = grow(l->v, l->n, &l->cap, sizeof(*v), 64);

	if (!v)
		return -ENOMEM;
	l->v = v;
	l->v[l->n].key = key;
	l->v[l->n++].n = n;
	return 0;
}

static void side_free(struct prof_side *s)
{
	free(s->insn.v);
	free(s->calls.v);
	free(s->entries.v);
	free(s->exits.v);
	free(s->census.v);
}

static void dump_free(struct prof_dump *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->probes[i].name);
		side_free(&d->probes[i].op);
		side_free(&d->probes[i].base);
		side_free(&d->probes[i].op_irq);
		side_free(&d->probes[i].base_irq);
	}
	free(d->probes);
	free(d->by_name);
	free(d->label);
}

void prof_file_free(struct prof_file *f)
{
	for (size_t i = 0; i < f->n; i++)
		dump_free(&f->dumps[i]);
	free(f->dumps);
	memset(f, 0, sizeof(*f));
}

/* A probe's name and place, sorted to make a dump's index. */
struct name_at {
	const char *name;
	size_t i;
};

static int name_at_cmp(const void *a, const void *b)
{
	const struct name_at *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	return d ? d : x->i < y->i ? -1 : x->i > y->i;
}

/* d->by_name: d's probes by name, then by place (O(n log n)). 0, or -ENOMEM. */
static int dump_index(struct prof_dump *d)
{
	struct name_at *v = calloc(d->n ? d->n : 1, sizeof(*v));

	d->by_name = calloc(d->n ? d->n : 1, sizeof(*d->by_name));
	if (!v || !d->by_name) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->n; i++)
		v[i] = (struct name_at){ d->probes[i].name, i };
	if (d->n)
		qsort(v, d->n, sizeof(*v), name_at_cmp);
	for (size_t i = 0; i < d->n; i++)
		d->by_name[i] = v[i].i;
	free(v);
	return 0;
}

static char *rest_of(const char *line, const char *tag)
{
	size_t n = strlen(tag);

	if (strncmp(line, tag, n) || line[n] != ' ' || !line[n + 1])
		return NULL;
	return strdup(line + n + 1);
}

static int census_add(struct prof_census_list *l, const struct prof_census *c)
{
	struct prof_census *v = grow(l->v, l->n, &l->cap, sizeof(*v), 16);

	if (!v)
		return -ENOMEM;
	l->v = v;
	l->v[l->n++] = *c;
	return 0;
}

/* A key as the emulator writes it: digits only (hexadecimal in base 16), whole. 0, or -EINVAL. */
static int key_num(const char *t, int base, uint64_t *v)
{
	return num_parse_digits(t, base, UINT64_MAX, v) ? -EINVAL : 0;
}

/* A count: decimal digits, whole, at most PROF_COUNT_MAX. 0, -EINVAL or -ERANGE. */
static int count_num(const char *t, uint64_t *v)
{
	return num_parse_digits(t, 10, PROF_COUNT_MAX, v);
}

/*
 * "side WHICH ops N batches N guest N kernel N user N", nothing else; line
 * is cut into words. 0, -EINVAL, or -ERANGE for a count above PROF_COUNT_MAX.
 */
static int side_line(char *line, char **which, uint64_t v[5])
{
	static const char *const keys[] = { "ops", "batches", "guest", "kernel", "user" };
	char *save = NULL, *w = strtok_r(line, " ", &save);
	int r;

	if (!w || strcmp(w, "side"))
		return -EINVAL;
	*which = strtok_r(NULL, " ", &save);
	if (!*which)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		w = strtok_r(NULL, " ", &save);
		if (!w || strcmp(w, keys[i]))
			return -EINVAL;
		r = count_num(strtok_r(NULL, " ", &save), &v[i]);
		if (r)
			return r;
	}
	return strtok_r(NULL, " ", &save) ? -EINVAL : 0;
}

/*
 * "TAG KEY COUNT", nothing else: KEY an address in hexadecimal (an exit
 * reason in decimal), COUNT decimal. line is cut into words; *tag is the
 * first. 0, -EINVAL, or -ERANGE for a count above PROF_COUNT_MAX.
 */
static int count_line(char *line, char **tag, uint64_t *key, uint64_t *n)
{
	char *save = NULL;
	int r;

	*tag = strtok_r(line, " ", &save);
	if (!*tag)
		return -EINVAL;
	if (key_num(strtok_r(NULL, " ", &save), strcmp(*tag, "exit") ? 16 : 10, key))
		return -EINVAL;
	r = count_num(strtok_r(NULL, " ", &save), n);
	if (r)
		return r;
	return strtok_r(NULL, " ", &save) ? -EINVAL : 0;
}

/* A census kind's name: 1 to 15 of [a-z0-9_]. */
static int census_name_ok(const char *t)
{
	size_t n = t ? strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789_") : 0;

	return n >= 1 && n < sizeof(((struct prof_census *)0)->insn) && !t[n];
}

/*
 * "census HEXADDR MNEMONIC HEXOPERAND|- COUNT", nothing else; line is cut
 * into words. 0, -EINVAL, or -ERANGE for a count above PROF_COUNT_MAX.
 */
static int census_line(char *line, struct prof_census *c)
{
	char *save = NULL, *w = strtok_r(line, " ", &save);
	int r;

	memset(c, 0, sizeof(*c));
	if (!w || strcmp(w, "census") || key_num(strtok_r(NULL, " ", &save), 16, &c->rip))
		return -EINVAL;
	w = strtok_r(NULL, " ", &save);
	if (!census_name_ok(w))
		return -EINVAL;
	strcpy(c->insn, w);
	w = strtok_r(NULL, " ", &save);
	if (!w)
		return -EINVAL;
	if (strcmp(w, "-")) {
		if (key_num(w, 16, &c->operand))
			return -EINVAL;
		c->has_operand = true;
	}
	r = count_num(strtok_r(NULL, " ", &save), &c->n);
	if (r)
		return r;
	return strtok_r(NULL, " ", &save) ? -EINVAL : 0;
}

int prof_file_read(struct prof_file *f, const char *path, struct err *err)
{
	struct prof_dump cur = { 0 };
	struct prof_side *side = NULL;
	char *tag, *buf, *line, *next, *eol, *nul;
	struct err why;
	struct prof_list *list;
	uint64_t a, b, *total;
	/* The current side's totals of insn, call, entry, exit, census counts. */
	uint64_t totals[5] = { 0 };
	size_t lineno = 0, len, dumps_cap = 0, probes_cap = 0;	/* f->dumps', cur.probes' */
	int version, r = 0;
	bool in_dump = false;
	unsigned sides_seen = 0;	/* of the current probe, by side_names' index */

	memset(f, 0, sizeof(*f));
	r = file_read_all(path, PROF_FILE_MAX_BYTES, &buf, &len, &why);
	if (r)
		return err_set(err, r, "%s: %s", path, why.msg);
#define BAD(...) do { r = err_set(err, -EINVAL, __VA_ARGS__); goto out; } while (0)
#define BAD_COUNT() \
	BAD("%s: line %zu: count out of range (above 2^53, PROF_COUNT_MAX)", path, lineno)
#define BAD_SUM(tag) \
	BAD("%s: line %zu: count out of range (the side's %s counts add up above 2^53)", \
	    path, lineno, tag)
	nul = memchr(buf, '\0', len);
	if (nul)
		BAD("%s: contains a NUL byte at offset %zu (not a text file)", path,
		    (size_t)(nul - buf));
	/* Line by line; a last line without its newline is where the emulator was cut off. */
	for (next = buf; (eol = strchr(next, '\n')); next = eol + 1) {
		line = next;
		*eol = '\0';
		lineno++;
		if (lineno == 1 || !strncmp(line, PROFILE_FILE_MAGIC " ",
					    strlen(PROFILE_FILE_MAGIC) + 1)) {
			/* The module writes its header whenever the emulator starts. */
			if (sscanf(line, PROFILE_FILE_MAGIC " %d", &version) != 1)
				BAD("%s: line %zu: not an exitscope Bochs profile", path, lineno);
			if (version < 1 || version > PROFILE_FILE_VERSION)
				BAD("%s: line %zu: profile format %d (this exitscope reads 1 "
				    "to %d)", path, lineno, version, PROFILE_FILE_VERSION);
			if (f->version && version != f->version)
				BAD("%s: line %zu: profile format %d after format %d (one file, "
				    "one format)", path, lineno, version, f->version);
			f->version = version;
			if (in_dump)
				BAD("%s: line %zu: a dump without its end", path, lineno);
			continue;
		}
		if (!strncmp(line, "dump ", 5)) {
			if (in_dump)
				BAD("%s: line %zu: a dump inside a dump", path, lineno);
			cur.label = rest_of(line, "dump");
			if (!cur.label)
				BAD("%s: line %zu: a dump without a label", path, lineno);
			in_dump = true;
			side = NULL;
			continue;
		}
		if (!in_dump)
			BAD("%s: line %zu: outside a dump", path, lineno);
		if (!strcmp(line, "end")) {
			struct prof_dump *d = grow(f->dumps, f->n, &dumps_cap, sizeof(*d), 4);

			if (!d)
				BAD("%s: out of memory", path);
			f->dumps = d;
			if (dump_index(&cur))
				BAD("%s: out of memory", path);
			f->dumps[f->n++] = cur;
			memset(&cur, 0, sizeof(cur));
			probes_cap = 0;
			in_dump = false;
			continue;
		}
		if (!strncmp(line, "probe ", 6)) {
			struct prof_probe *p = grow(cur.probes, cur.n, &probes_cap, sizeof(*p), 16);

			if (!p)
				BAD("%s: out of memory", path);
			cur.probes = p;
			p = &cur.probes[cur.n];
			memset(p, 0, sizeof(*p));
			p->name = rest_of(line, "probe");
			if (!p->name)
				BAD("%s: line %zu: a probe without a name", path, lineno);
			cur.n++;
			side = NULL;
			sides_seen = 0;
			continue;
		}
		if (!cur.n)
			BAD("%s: line %zu: counts before any probe", path, lineno);
		if (!strncmp(line, "side ", 5)) {
			static const char *const side_names[] = { "op", "base", "op_irq",
								 "base_irq" };
			struct prof_probe *p = &cur.probes[cur.n - 1];
			struct prof_side *sides[] = { &p->op, &p->base, &p->op_irq, &p->base_irq };
			uint64_t v[5];
			char *which;
			size_t i;

			r = side_line(line, &which, v);
			if (r == -ERANGE)
				BAD_COUNT();
			if (r)
				BAD("%s: line %zu: not a side line", path, lineno);
			for (i = 0; i < ARRAY_SIZE(side_names) && strcmp(which, side_names[i]); i++)
				;
			if (i == ARRAY_SIZE(side_names))
				BAD("%s: line %zu: no side \"%s\"", path, lineno, which);
			if (sides_seen & (1u << i))
				BAD("%s: line %zu: a second side %s in probe %s", path, lineno,
				    which, p->name);
			sides_seen |= 1u << i;
			side = sides[i];
			memset(totals, 0, sizeof(totals));
			side->ops = v[0];
			side->batches = v[1];
			side->guest = v[2];
			side->kernel = v[3];
			side->user = v[4];
			continue;
		}
		if (!side)
			BAD("%s: line %zu: counts before a side line", path, lineno);
		if (!strncmp(line, "census", 6) && (line[6] == ' ' || !line[6])) {
			struct prof_census c;

			if (f->version < 2)
				BAD("%s: line %zu: a census line in a format %d profile", path,
				    lineno, f->version);
			r = census_line(line, &c);
			if (r == -ERANGE)
				BAD_COUNT();
			if (r)
				BAD("%s: line %zu: not \"census HEXADDR MNEMONIC HEXOPERAND|- "
				    "COUNT\"", path, lineno);
			if (c.n > PROF_COUNT_MAX - totals[4])
				BAD_SUM("census");
			totals[4] += c.n;
			if (census_add(&side->census, &c))
				BAD("%s: out of memory", path);
			continue;
		}
		r = count_line(line, &tag, &a, &b);
		if (r == -ERANGE)
			BAD_COUNT();
		if (r)
			BAD("%s: line %zu: not \"TAG KEY COUNT\"", path, lineno);
		if (!strcmp(tag, "insn"))
			list = &side->insn, total = &totals[0];
		else if (!strcmp(tag, "call"))
			list = &side->calls, total = &totals[1];
		else if (!strcmp(tag, "entry"))
			list = &side->entries, total = &totals[2];
		else if (!strcmp(tag, "exit"))
			list = &side->exits, total = &totals[3];
		else
			BAD("%s: line %zu: unknown line \"%s\"", path, lineno, tag);
		if (b > PROF_COUNT_MAX - *total)
			BAD_SUM(tag);
		*total += b;
		if (list_add(list, a, b))
			BAD("%s: out of memory", path);
	}
	if (!lineno && *next)
		BAD("%s: line 1: not an exitscope Bochs profile (not one complete line)", path);
	if (!lineno)
		BAD("%s: empty: the emulator wrote no profile", path);
#undef BAD_SUM
#undef BAD_COUNT
#undef BAD
out:
	/* A dump cut off by the end of the file is dropped. */
	dump_free(&cur);
	free(buf);
	if (r)
		prof_file_free(f);
	return r;
}

const struct prof_dump *prof_file_dump(const struct prof_file *f, const char *label)
{
	for (size_t i = f->n; i-- > 0;)
		if (!strcmp(f->dumps[i].label, label))
			return &f->dumps[i];
	return NULL;
}

const struct prof_probe *prof_dump_probe(const struct prof_dump *d, const char *name)
{
	size_t lo = 0, hi = d->n;

	/* The first index whose name is not below name. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(d->probes[d->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->n && !strcmp(d->probes[d->by_name[lo]].name, name))
		return &d->probes[d->by_name[lo]];
	return NULL;
}
