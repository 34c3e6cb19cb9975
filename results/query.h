/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * query.h - single figures out of exitscope's JSON files, for scripts
 * (`exitscope query`): a file is read and validated by the reader exitscope
 * has for its schema, then paths such as "probes[invd].cycles.median" or
 * "checks[status=fail]#" select values from the parsed document. Scripts
 * ask for figures this way instead of re-parsing the files with a second,
 * unchecked reader.
 *
 * Path grammar (docs in man/exitscope-query.1.scd):
 *   PATH     := "." | STEP ("." STEP)* ["#"]
 *   STEP     := KEY SEL*
 *   KEY      := one or more characters other than . [ ] #
 *   SEL      := "[*]" | "[" ID "]" | "[" FIELD OP VALUE "]"
 *   OP       := "=" | "!=" | "~" (POSIX extended regex on a string)
 *   FIELD    := KEY ("." KEY)*  of letters, digits and _
 * Inside a selector "\[", "\]" and "\\" are '[', ']' and '\'; no space
 * around FIELD or VALUE. A regex has no back-reference and bounded counted
 * repeats (QUERY_RE_*).
 * A selector on an array picks elements: [*] all of them, [ID] those whose
 * identity (query_identity) is ID, [FIELD OP VALUE] those whose FIELD
 * compares so; further selectors filter the elements picked. On an object
 * [*] picks its members' values and a filter keeps or drops the object.
 */
#ifndef EXITSCOPE_RESULTS_QUERY_H
#define EXITSCOPE_RESULTS_QUERY_H

#include <stddef.h>
#include <jansson.h>

#include "base/err.h"

#include "results/noise.h"
#include "results/result_read.h"
#include "results/walk_model.h"

/* A schema whose files only get their envelope checked (no reader of its own here). */
struct query_envelope {
	const char *schema;
	long long version_min, version_max;
};

enum query_type {
	QUERY_RESULT,		/* exitscope-result: result_read_buffer() validated it */
	QUERY_NOISE,		/* exitscope-noise: noise_read_buffer() validated it */
	QUERY_WALK,		/* exitscope-walk: walk_read_buffer() validated it (not its runs) */
	QUERY_ENVELOPE,		/* one of the envelopes given: schema and version checked */
	QUERY_PLAIN,		/* any JSON (QUERY_LOAD_PLAIN): syntax and limits only */
};

struct query_file {
	enum query_type type;
	const char *schema;		/* NULL for QUERY_PLAIN */
	json_t *root;			/* the document (owned by rf, nf or this) */
	struct result_file *rf;
	struct noise_floor *nf;
	struct walk_file *wf;
	json_t *own;
};

#define QUERY_LOAD_PLAIN	1	/* flags: take any JSON document, no schema */

/*
 * Read the document in buf (len bytes) named name in messages: by its
 * "schema" an exitscope result file, a noise floor, a walk, or one of the n
 * envelopes env[] (a compare document: schema string, integer
 * schema_version in the range). NULL with one line in err (the reader's
 * message, naming the file) when it is none of those or is invalid.
 */
struct query_file *query_load_buffer(const char *name, const void *buf, size_t len,
				     const struct query_envelope *env, size_t n, int flags,
				     struct err *err);
void query_file_free(struct query_file *qf);

struct query_path;

/* The limits of a path (man exitscope-query, LIMITS). */
#define QUERY_MAX_STEPS		32	/* keys in a path */
#define QUERY_MAX_SELS		8	/* selectors after one key */
#define QUERY_RE_MAX		256	/* bytes of a [~REGEX] */
#define QUERY_RE_DUP_MAX	255	/* n and m of a counted repeat {n,m}, as POSIX's RE_DUP_MAX */

/*
 * Is re within the bounds every regex of exitscope keeps (a path's [~REGEX],
 * an expectation's ~): at most QUERY_RE_MAX bytes, no back-reference, no
 * counted repeat above QUERY_RE_DUP_MAX or on another? 0, or -EINVAL with
 * the reason in why.
 */
int query_regex_check(const char *re, char *why, size_t size);

/* Parse text; NULL with why in err ("probes[: no closing ]"). query_path_free() it. */
struct query_path *query_path_parse(const char *text, struct err *err);
void query_path_free(struct query_path *p);

/* The path ends in "#": print how many values it selects, not the values. */
int query_path_counts(const struct query_path *p);

/*
 * The values path selects in root, appended (borrowed references) to out,
 * a JSON array; in document order. Returns how many were appended, or
 * -ENOMEM.
 */
long query_select(json_t *root, const struct query_path *p, json_t *out);

/*
 * A value as one line for scripts (no newline; malloc'd, NULL when out of
 * memory): a string as it is, a number as the shortest text that reads
 * back to it, true/false/null, an object or array as compact JSON whose
 * numbers are written the same way.
 */
char *query_value_text(const json_t *v);

/*
 * The identity [ID] matches in the elements of the array called key
 * ("probes": "name"; "exits": "reason"; "checks": "suite/name"; "entries":
 * "reg/name/op"; "census": "insn/operand?"; ...): the fields whose values,
 * joined by '/', make ID; a last field marked '?' is left out where null.
 */
const char *query_identity(const char *key);

#endif
