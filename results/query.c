// SPDX-License-Identifier: GPL-2.0-only
/*
 * query.c - load one of exitscope's JSON files through its reader and walk
 * query paths over the parsed document (results/query.h).
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "results/jcheck.h"
#include "results/json_load.h"
#include "results/query.h"
#include "results/schema.h"

#define QUERY_ECHO_MAX	100	/* bytes of a path quoted in an error */

enum sel_kind { SEL_ALL, SEL_ID, SEL_EQ, SEL_NE, SEL_RE };

struct query_sel {
	enum sel_kind kind;
	char *field;		/* SEL_EQ/NE/RE: a dotted key path */
	char *value;		/* SEL_ID: the identity; SEL_EQ/NE: the value; SEL_RE: the regex */
	regex_t re;
	bool has_re;
};

struct query_step {
	char *key;
	struct query_sel sels[QUERY_MAX_SELS];
	size_t n_sels;
};

struct query_path {
	struct query_step steps[QUERY_MAX_STEPS];
	size_t n_steps;		/* 0: the path "." (the document itself) */
	bool count;
};

/* Loading */

void query_file_free(struct query_file *qf)
{
	if (!qf)
		return;
	result_free(qf->rf);
	if (qf->nf)
		noise_free(qf->nf);
	walk_free(qf->wf);
	json_decref(qf->own);
	free(qf);
}

struct query_file *query_load_buffer(const char *name, const void *buf, size_t len,
				     const struct query_envelope *env, size_t n, int flags,
				     struct err *err)
{
	struct jcheck c = { .name = name, .err = err };
	struct query_file *qf = calloc(1, sizeof(*qf));
	const char *schema;
	json_t *root, *ver;
	size_t i;

	if (!qf) {
		err_set(err, -ENOMEM, "%s: out of memory", name);
		return NULL;
	}
	root = json_load_checked_buffer(&c, buf, len);
	if (!root)
		goto fail;
	if (flags & QUERY_LOAD_PLAIN) {
		qf->type = QUERY_PLAIN;
		qf->root = qf->own = root;
		return qf;
	}
	schema = json_string_value(json_object_get(root, "schema"));
	if (!schema) {
		err_set(err, -EINVAL, "%s: no \"schema\" string: not an exitscope file", name);
		json_decref(root);
		goto fail;
	}
	if (!strcmp(schema, RESULT_SCHEMA)) {
		json_decref(root);
		qf->rf = result_read_buffer(name, buf, len, err);
		if (!qf->rf)
			goto fail;
		qf->type = QUERY_RESULT;
		qf->schema = RESULT_SCHEMA;
		qf->root = qf->rf->doc;
		return qf;
	}
	if (!strcmp(schema, NOISE_SCHEMA)) {
		json_decref(root);
		qf->nf = noise_read_buffer(name, buf, len, err);
		if (!qf->nf)
			goto fail;
		qf->type = QUERY_NOISE;
		qf->schema = NOISE_SCHEMA;
		qf->root = qf->nf->doc;
		return qf;
	}
	if (!strcmp(schema, WALK_SCHEMA)) {
		json_decref(root);
		qf->wf = walk_read_buffer(name, buf, len, err);
		if (!qf->wf)
			goto fail;
		qf->type = QUERY_WALK;
		qf->schema = WALK_SCHEMA;
		qf->root = qf->wf->doc;
		return qf;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(schema, env[i].schema))
			continue;
		ver = json_object_get(root, "schema_version");
		if (!json_is_integer(ver) || json_integer_value(ver) < env[i].version_min ||
		    json_integer_value(ver) > env[i].version_max) {
			err_set(err, -EINVAL, "%s: schema_version: not an integer %lld..%lld", name,
				 env[i].version_min, env[i].version_max);
			json_decref(root);
			goto fail;
		}
		qf->type = QUERY_ENVELOPE;
		qf->schema = env[i].schema;
		qf->root = qf->own = root;
		return qf;
	}
	err_set(err, -EINVAL, "%s: schema \"%.64s\" is not a file exitscope query reads", name,
		schema);
	json_decref(root);
fail:
	free(qf);
	return NULL;
}

/* Parsing */

void query_path_free(struct query_path *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_steps; i++) {
		free(p->steps[i].key);
		for (size_t j = 0; j < p->steps[i].n_sels; j++) {
			struct query_sel *s = &p->steps[i].sels[j];

			free(s->field);
			free(s->value);
			if (s->has_re)
				regfree(&s->re);
		}
	}
	free(p);
}

int query_path_counts(const struct query_path *p)
{
	return p->count;
}

static bool is_key_char(char c)
{
	return c && c != '.' && c != '[' && c != ']' && c != '#';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_field(const char *s, size_t n)
{
	if (!n || s[0] == '.' || s[n - 1] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || s[i] == '.' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') || is_digit(s[i])) ||
		    (s[i] == '.' && s[i + 1] == '.'))
			return false;
	return true;
}

/*
 * Fail with why, then the path: whole, or its first QUERY_ECHO_MAX bytes
 * and its length, so that the reason comes first and the line stays short
 * whatever the path ("more than 32 steps ... in 'a.a.a...' (path cut: 5000 bytes)").
 */
static int path_fail(struct err *err, int code, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int path_fail(struct err *err, int code, const char *text, const char *fmt, ...)
{
	size_t n = strlen(text);
	char why[512], cut[64] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (n > QUERY_ECHO_MAX)
		snprintf(cut, sizeof(cut), "...' (path cut: %zu bytes)", n);
	return err_set(err, code, "%s in '%.*s%s", why,
		       (int)(n > QUERY_ECHO_MAX ? QUERY_ECHO_MAX : n), text, *cut ? cut : "'");
}

/* The index of the ']' that ends the bracket expression opening at re[i] (n when none). */
static size_t bracket_end(const char *re, size_t n, size_t i)
{
	i++;
	if (i < n && re[i] == '^')
		i++;
	if (i < n && re[i] == ']')
		i++;
	for (; i < n; i++) {
		if (re[i] == '[' && i + 1 < n && (re[i + 1] == ':' || re[i + 1] == '.' || re[i + 1] == '=')) {
			char kind = re[i + 1];

			for (i += 2; i + 1 < n && !(re[i] == kind && re[i + 1] == ']'); i++)
				;
			i++;
		} else if (re[i] == ']') {
			return i;
		}
	}
	return n;
}

/*
 * The bounds of a regex: at most QUERY_RE_MAX bytes, no back-reference (a
 * '\' and a digit: glibc's extension, whose matching backtracks without
 * bound), counted repeats {n}, {n,}, {,m}, {n,m} with n and m at most
 * QUERY_RE_DUP_MAX, and none applying to what already holds one: a group
 * with a counted repeat inside, or a counted repeat ("(a{9}){9}", "a{9}{9}"),
 * which regcomp would expand into the product of the counts. 0, or -EINVAL
 * with the reason (the caller adds where).
 */
static int re_check(const char *re, size_t n, char *why, size_t size)
{
	bool counted[QUERY_RE_MAX + 1];	/* a counted repeat inside the open group, by depth */
	bool last = false;		/* the atom before, with its repeats, holds a counted repeat */
	size_t depth = 0, i;

	if (n > QUERY_RE_MAX) {
		snprintf(why, size, "a regex longer than %d bytes", QUERY_RE_MAX);
		return -EINVAL;
	}
	counted[0] = false;
	for (i = 0; i < n; i++) {
		char c = re[i];

		if (c == '\\') {
			if (i + 1 < n && is_digit(re[i + 1])) {
				snprintf(why, size, "a back-reference \\%c in a regex (not "
						    "supported)", re[i + 1]);
				return -EINVAL;
			}
			i++;
			last = false;
		} else if (c == '[') {
			i = bracket_end(re, n, i);
			last = false;
		} else if (c == '(') {
			counted[++depth] = false;
			last = false;
		} else if (c == ')' && depth) {
			last = counted[depth--];
			counted[depth] |= last;
		} else if (c == '{' && i + 1 < n && (is_digit(re[i + 1]) || re[i + 1] == ',')) {
			unsigned long lo = 0, hi = 0;
			size_t j = i + 1;

			for (; j < n && is_digit(re[j]); j++)
				lo = lo > QUERY_RE_DUP_MAX ? lo : lo * 10 + (unsigned long)(re[j] - '0');
			if (j < n && re[j] == ',')
				for (j++; j < n && is_digit(re[j]); j++)
					hi = hi > QUERY_RE_DUP_MAX ? hi : hi * 10 + (unsigned long)(re[j] - '0');
			if (lo > QUERY_RE_DUP_MAX || hi > QUERY_RE_DUP_MAX) {
				snprintf(why, size, "a counted repeat {%.*s} above %d in a regex",
					 (int)(j - i - 1), re + i + 1, QUERY_RE_DUP_MAX);
				return -EINVAL;
			}
			if (last) {
				snprintf(why, size, "nested counted repeats ({%.*s} on a counted "
					 "repeat) in a regex", (int)(j - i - 1), re + i + 1);
				return -EINVAL;
			}
			counted[depth] = true;
			last = true;
			i = j < n && re[j] == '}' ? j : i;
		} else if (c != '*' && c != '+' && c != '?') {
			last = false;
		}
	}
	return 0;
}

int query_regex_check(const char *re, char *why, size_t size)
{
	return re_check(re, strlen(re), why, size);
}

/*
 * A selector's VALUE or ID as it is meant: "\[", "\]" and "\\" are '[', ']'
 * and '\' (a regex takes its text as written, where they mean the same).
 */
static char *unescape(const char *t, size_t n)
{
	char *v = malloc(n + 1), *o = v;

	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '\\' && i + 1 < n && (t[i + 1] == '[' || t[i + 1] == ']' || t[i + 1] == '\\'))
			i++;
		*o++ = t[i];
	}
	*o = 0;
	return v;
}

/* The selector at text[at], n bytes between the brackets, into s. */
static int parse_sel(struct query_sel *s, const char *text, size_t at, size_t n, struct err *err)
{
	const char *t = text + at + 1;
	size_t i;

	if (n == 1 && t[0] == '*') {
		s->kind = SEL_ALL;
		return 0;
	}
	for (i = 0; i < n && t[i] != '=' && t[i] != '~' && t[i] != '!'; i++)
		;
	/*
	 * Spaces are refused where they would be taken as part of a FIELD, a
	 * VALUE or an ID: [batch = 7] is no selector, [batch=7] is. A REGEX
	 * is matched as written, so its spaces are its own, at either end
	 * too ([source~^linux-source-6\.1 ] tells 6.1 from 6.12).
	 */
	int re = i < n && t[i] == '~';

	if (is_space(t[0]) || (!re && is_space(t[n - 1])) || (i < n && i > 0 && is_space(t[i - 1])) ||
	    (!re && i + 1 < n && is_space(t[i + 1 + (t[i] == '!' && t[i + 1] == '=')])))
		return path_fail(err, -EINVAL, text,
				 "a space around FIELD or VALUE (none allowed), selector at "
				 "offset %zu", at);
	/* No FIELD (i == 0): the element itself, as in an array of strings. */
	if (i < n && (i == 0 || is_field(t, i)) && (t[i] != '!' || (i + 1 < n && t[i + 1] == '='))) {
		size_t vo = i + (t[i] == '!' ? 2 : 1);

		s->kind = t[i] == '=' ? SEL_EQ : t[i] == '~' ? SEL_RE : SEL_NE;
		s->field = strndup(t, i);
		s->value = s->kind == SEL_RE ? strndup(t + vo, n - vo) : unescape(t + vo, n - vo);
		if (!s->field || !s->value) {
			return err_set(err, -ENOMEM, "out of memory");
		}
		if (s->kind == SEL_RE) {
			char why[160];
			int rc = re_check(s->value, n - vo, why, sizeof(why));

			if (rc)
				return path_fail(err, rc, text, "%s, selector at offset %zu", why,
						 at);
			rc = regcomp(&s->re, s->value, REG_EXTENDED | REG_NOSUB);
			if (rc) {
				regerror(rc, &s->re, why, sizeof(why));
				return path_fail(err, -EINVAL, text,
						 "not a regular expression (%s), selector at "
						 "offset %zu", why, at);
			}
			s->has_re = true;
		}
		return 0;
	}
	s->kind = SEL_ID;
	s->value = unescape(t, n);
	if (!s->value) {
		return err_set(err, -ENOMEM, "out of memory");
	}
	return 0;
}

struct query_path *query_path_parse(const char *text, struct err *err)
{
	struct query_path *p = calloc(1, sizeof(*p));
	const char *s = text, *end;
	size_t n = strlen(text);

	if (!p) {
		err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	if (n && text[n - 1] == '#') {
		p->count = true;
		n--;
	}
	end = text + n;
	if (n == 1 && text[0] == '.')
		return p;
	if (!n) {
		path_fail(err, -EINVAL, text, "an empty path (\".\" is the whole document)");
		goto fail;
	}
	for (;;) {
		struct query_step *st;
		const char *k = s;

		if (p->n_steps == QUERY_MAX_STEPS) {
			path_fail(err, -EINVAL, text, "more than %d steps (a path's limit)",
				  QUERY_MAX_STEPS);
			goto fail;
		}
		st = &p->steps[p->n_steps++];
		while (s < end && is_key_char(*s))
			s++;
		if (s == k) {
			path_fail(err, -EINVAL, text, "a key expected at offset %zu",
				  (size_t)(k - text));
			goto fail;
		}
		st->key = strndup(k, s - k);
		if (!st->key) {
			err_set(err, -ENOMEM, "out of memory");
			goto fail;
		}
		while (s < end && *s == '[') {
			const char *close = s + 1;
			int depth = 1;

			/*
			 * Brackets nest: a regex's [xy] stays inside its selector;
			 * "\[" and "\]" (and "\\") are escaped, neither opening nor closing.
			 */
			for (; close < end; close++)
				if (*close == '\\' && close + 1 < end)
					close++;
				else if (*close == '[')
					depth++;
				else if (*close == ']' && !--depth)
					break;
			if (close == end) {
				path_fail(err, -EINVAL, text,
					  "'[' at offset %zu has no closing ']'",
					  (size_t)(s - text));
				goto fail;
			}
			if (close == s + 1) {
				path_fail(err, -EINVAL, text, "an empty selector [] at offset %zu",
					  (size_t)(s - text));
				goto fail;
			}
			if (st->n_sels == QUERY_MAX_SELS) {
				path_fail(err, -EINVAL, text,
					  "more than %d selectors in a step (a path's limit)",
					  QUERY_MAX_SELS);
				goto fail;
			}
			if (parse_sel(&st->sels[st->n_sels++], text, s - text, close - s - 1, err))
				goto fail;
			s = close + 1;
		}
		if (s == end)
			return p;
		if (*s != '.') {
			path_fail(err, -EINVAL, text, "unexpected '%c' at offset %zu", *s,
				  (size_t)(s - text));
			goto fail;
		}
		s++;
	}
fail:
	query_path_free(p);
	return NULL;
}

/* Selecting */

static const struct {
	const char *key, *fields;
} identities[] = {
	{ "exits", "reason" },
	{ "census", "insn/operand?" },
	{ "checks", "suite/name" },
	{ "check_changes", "suite/name" },
	{ "entries", "reg/name/op" },
	{ "map_changes", "reg/name/op" },
	{ "host_differences", "field" },
	{ "counter_changes", "probe/counter" },
	{ "counters_not_judged", "probe/counter" },
	/* Walks and their steps: a commit by its full rev, a steps document's lane by name. */
	{ "commits", "rev" },
	{ "figures", "rev" },
	{ "steps", "rev" },
	{ "skipped", "rev" },
	{ "lanes", "lane" },
};

const char *query_identity(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(identities); i++)
		if (!strcmp(key, identities[i].key))
			return identities[i].fields;
	return "name";
}

/* A real as the shortest text that reads back to it (a whole number as an integer); buf of 32 bytes. */
static void real_text(double d, char *buf, size_t size)
{
	/* A whole number as one (700.0 is "700", not %g's "7e+02"). */
	if (d == trunc(d) && fabs(d) < 1e17) {
		snprintf(buf, size, "%.0f", d);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
}

/* A string as JSON writes it, quoted and escaped, to f: 0, -ENOMEM or -EIO. */
static int put_json_string(FILE *f, const char *s, size_t len)
{
	json_t *j = json_stringn_nocheck(s, len);
	char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	int rc = !t ? -ENOMEM : fputs(t, f) >= 0 ? 0 : -EIO;

	free(t);
	json_decref(j);
	return rc;
}

/*
 * v as compact JSON to f, its numbers written as query_value_text writes a
 * number alone (jansson's own writer gives reals 17 digits: 0.1 would be
 * 0.10000000000000001). 0, or a negative errno (-EIO: f refused a write).
 */
static int put_json(FILE *f, const json_t *v)
{
	const char *k;
	char buf[64];
	json_t *m;
	size_t i;
	bool first = true;
	int rc;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		fputc('{', f);
		json_object_foreach((json_t *)v, k, m) {
			if (!first)
				fputc(',', f);
			first = false;
			rc = put_json_string(f, k, strlen(k));
			if (!rc && fputc(':', f) == EOF)
				rc = -EIO;
			if (rc || (rc = put_json(f, m)))
				return rc;
		}
		return fputc('}', f) == EOF ? -EIO : 0;
	case JSON_ARRAY:
		fputc('[', f);
		json_array_foreach(v, i, m) {
			if (i)
				fputc(',', f);
			rc = put_json(f, m);
			if (rc)
				return rc;
		}
		return fputc(']', f) == EOF ? -EIO : 0;
	case JSON_STRING:
		return put_json_string(f, json_string_value(v), json_string_length(v));
	case JSON_REAL:
		real_text(json_real_value(v), buf, sizeof(buf));
		return fputs(buf, f) < 0 ? -EIO : 0;
	case JSON_INTEGER:
		return fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v)) < 0 ? -EIO : 0;
	case JSON_TRUE:
		return fputs("true", f) < 0 ? -EIO : 0;
	case JSON_FALSE:
		return fputs("false", f) < 0 ? -EIO : 0;
	case JSON_NULL:
		return fputs("null", f) < 0 ? -EIO : 0;
	}
	return -EIO;
}

char *query_value_text(const json_t *v)
{
	char buf[64], *t = NULL;
	size_t len;
	FILE *f;

	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_real(v)) {
		real_text(json_real_value(v), buf, sizeof(buf));
		return strdup(buf);
	}
	f = open_memstream(&t, &len);
	if (!f)
		return NULL;
	if (put_json(f, v) || ferror(f)) {
		fclose(f);
		free(t);
		return NULL;
	}
	if (fclose(f)) {
		free(t);
		return NULL;
	}
	return t;
}

/* The value at a dotted key path below obj, or NULL. */
static json_t *get_dotted(json_t *obj, const char *path)
{
	char key[256];

	while (obj && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof(key) || !json_is_object(obj))
			return NULL;
		memcpy(key, path, n);
		key[n] = 0;
		obj = json_object_get(obj, key);
		path += n + (dot ? 1 : 0);
	}
	return obj;
}

/* v equals the text as written: a string as it is, a number by value, true/false/null. */
static bool value_equals(const json_t *v, const char *text)
{
	char *end, *t;
	bool eq;

	if (!v || json_is_null(v))
		return !strcmp(text, "null");
	if (json_is_string(v))
		return !strcmp(json_string_value(v), text);
	if (json_is_number(v)) {
		double d = strtod(text, &end);

		return *text && !*end && end != text && d == json_number_value(v);
	}
	t = query_value_text(v);
	eq = t && !strcmp(t, text);
	free(t);
	return eq;
}

/*
 * el's identity (the fields of ident joined by '/') is id. A last field
 * marked '?' is optional: an element whose value there is null (or absent)
 * has the identity of the fields before it ("xsetbv/XCR0", "cpuid").
 */
static bool identity_is(json_t *el, const char *ident, const char *id)
{
	const char *f = ident;

	if (!json_is_object(el))
		return value_equals(el, id);
	for (;;) {
		const char *slash = strchr(f, '/');
		size_t fn = slash ? (size_t)(slash - f) : strlen(f);
		bool optional = fn && f[fn - 1] == '?';
		char key[64], *t;
		json_t *v;
		size_t tn;

		snprintf(key, sizeof(key), "%.*s", (int)(fn - optional), f);
		v = json_object_get(el, key);
		if (optional && (!v || json_is_null(v)))
			return *id == 0;
		if (f != ident && *id++ != '/')
			return false;
		if (!v || json_is_null(v) || json_is_object(v) || json_is_array(v))
			return false;
		t = query_value_text(v);
		if (!t)
			return false;
		tn = strlen(t);
		if (strncmp(id, t, tn)) {
			free(t);
			return false;
		}
		free(t);
		id += tn;
		if (!slash)
			return *id == 0;
		f = slash + 1;
	}
}

static bool sel_keeps(const struct query_sel *s, json_t *el, const char *ident)
{
	json_t *v;

	switch (s->kind) {
	case SEL_ALL:
		return true;
	case SEL_ID:
		return identity_is(el, ident, s->value);
	case SEL_EQ:
		return value_equals(get_dotted(el, s->field), s->value);
	case SEL_NE:
		return !value_equals(get_dotted(el, s->field), s->value);
	case SEL_RE:
		v = get_dotted(el, s->field);
		return json_is_string(v) && !regexec(&s->re, json_string_value(v), 0, NULL, 0);
	}
	return false;
}

/* Apply steps[i..] to v, appending what they select to out: 0, or -ENOMEM. */
static int walk(json_t *v, const struct query_step *steps, size_t n, json_t *out)
{
	const struct query_step *st = steps;
	const char *ident;
	json_t *el, *m;
	size_t i;

	if (!n)
		return json_array_append(out, v) ? -ENOMEM : 0;
	if (!json_is_object(v))
		return 0;
	v = json_object_get(v, st->key);
	if (!v)
		return 0;
	if (!st->n_sels)
		return walk(v, steps + 1, n - 1, out);
	ident = query_identity(st->key);
	if (json_is_array(v)) {
		json_array_foreach(v, i, el) {
			size_t j;

			for (j = 0; j < st->n_sels && sel_keeps(&st->sels[j], el, ident); j++)
				;
			if (j == st->n_sels && walk(el, steps + 1, n - 1, out))
				return -ENOMEM;
		}
		return 0;
	}
	if (json_is_object(v) && st->sels[0].kind == SEL_ALL) {
		const char *k;

		json_object_foreach(v, k, m) {
			size_t j;

			for (j = 1; j < st->n_sels && sel_keeps(&st->sels[j], m, ident); j++)
				;
			if (j == st->n_sels && walk(m, steps + 1, n - 1, out))
				return -ENOMEM;
		}
		return 0;
	}
	if (!json_is_object(v))
		return 0;
	for (i = 0; i < st->n_sels; i++)
		if (!sel_keeps(&st->sels[i], v, ident))
			return 0;
	return walk(v, steps + 1, n - 1, out);
}

long query_select(json_t *root, const struct query_path *p, json_t *out)
{
	size_t before = json_array_size(out);
	int rc = walk(root, p->steps, p->n_steps, out);

	if (rc)
		return rc;
	return (long)(json_array_size(out) - before);
}
