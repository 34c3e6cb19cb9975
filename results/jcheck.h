/* SPDX-License-Identifier: GPL-2.0-only */
/* jcheck.h - typed JSON field getters that report problems by file and JSON path. */
#ifndef EXITSCOPE_RESULTS_JCHECK_H
#define EXITSCOPE_RESULTS_JCHECK_H

#include <errno.h>
#include <jansson.h>
#include <stddef.h>

#include "base/err.h"

#define JCHECK_PATH_MAX 192

/*
 * A validation in progress: the file name, where the message goes, and the
 * JSON path of the value being looked at ("probes[3].samples[2]").
 */
struct jcheck {
	const char *name;
	struct err *err;	/* may be NULL: only the return value is wanted */
	char path[JCHECK_PATH_MAX];
	size_t len;
};

enum { JCHECK_OPTIONAL = 0, JCHECK_REQUIRED = 1 };

/*
 * Run a getter (or any step returning a negative errno); on error leave the
 * calling function with the callee's code (-EINVAL for a bad document,
 * -ENOMEM stays -ENOMEM). Absent optionals (1) fall through.
 */
#define JCHECK_TRY(expr) do { int jcheck_rc_ = (expr); if (jcheck_rc_ < 0) return jcheck_rc_; } while (0)

/* calloc of n (at least 1) elements, so an empty array still gets a pointer. */
void *jcheck_calloc(size_t n, size_t size);

/*
 * Getters return 0 with *out set, 1 when an optional key is absent (*out
 * untouched), or -EINVAL after writing "<file>: <path>.<key>: <problem>" to err.
 */
int jcheck_object(struct jcheck *c, json_t *obj, const char *key, int req, json_t **out);
int jcheck_array(struct jcheck *c, json_t *obj, const char *key, int req, size_t max, json_t **out);
/* A string; non-empty unless allow_empty. */
int jcheck_string(struct jcheck *c, json_t *obj, const char *key, int req, int allow_empty,
		  const char **out);
int jcheck_int(struct jcheck *c, json_t *obj, const char *key, int req,
	       long long min, long long max, long long *out);
/* A finite number of any sign (an integer is fine too). */
int jcheck_real(struct jcheck *c, json_t *obj, const char *key, int req, double *out);
/* A finite number >= 0 (an integer is fine too). */
int jcheck_num(struct jcheck *c, json_t *obj, const char *key, int req, double *out);
int jcheck_bool(struct jcheck *c, json_t *obj, const char *key, int req, int *out);
/* A string that must be one of names[0..n-1]; *out is its index. */
int jcheck_enum(struct jcheck *c, json_t *obj, const char *key, int req,
		const char *const *names, int n, int *out);
/*
 * An array of at most max strings; *out (when out is not NULL) gets a
 * jcheck_calloc'd array of pointers into the document, *n its length.
 */
int jcheck_strings(struct jcheck *c, json_t *obj, const char *key, int req, size_t max,
		   const char ***out, size_t *n);

/* Path bookkeeping: push returns a mark that pop restores. */
size_t jcheck_push_key(struct jcheck *c, const char *key);
size_t jcheck_push_index(struct jcheck *c, size_t i);
void jcheck_pop(struct jcheck *c, size_t mark);

/* "<file>: <path>: <message>" (or "<file>: <message>" at the top) into c->err; returns -EINVAL. */
int jcheck_fail(struct jcheck *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s made safe to quote in a message: printable ASCII, at most ~60 chars. */
const char *jcheck_quote(const char *s, char *buf, size_t len);

/* "not a string", "not an integer", ...: what a JSON value is not, for messages. */
const char *jcheck_type_name(json_t *v);

#endif
