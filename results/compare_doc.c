// SPDX-License-Identifier: GPL-2.0-only
/* compare_doc.c - the fields of a compare --json document that report re-reads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results/compare_doc.h"
#include "results/jcheck.h"
#include "results/json_load.h"

#define COMPARE_DOC_MAX_FILES	4096
#define COMPARE_DOC_MAX_PROBES	100000

int compare_doc_schema(const char *path, char *buf, size_t len)
{
	struct jcheck c = { .name = path };
	json_t *root = json_load_checked_file(&c, path);
	const char *s = json_string_value(json_object_get(root, "schema"));
	int rc = -1;

	if (s && len) {
		snprintf(buf, len, "%s", s);
		rc = 0;
	}
	json_decref(root);
	return rc;
}

static int read_probe(struct jcheck *c, json_t *o, struct compare_doc_probe *p)
{
	int a, b;

	JCHECK_TRY(jcheck_string(c, o, "name", JCHECK_REQUIRED, 0, &p->name));
	JCHECK_TRY(jcheck_string(c, o, "verdict", JCHECK_REQUIRED, 0, &p->verdict));
	a = jcheck_real(c, o, "base_median", JCHECK_OPTIONAL, &p->base_median);
	b = jcheck_real(c, o, "new_median", JCHECK_OPTIONAL, &p->new_median);
	if (a < 0 || b < 0)
		return -1;
	p->has_figures = a == 0 && b == 0;
	return 0;
}

static int read_fields(struct jcheck *c, json_t *root, struct compare_doc *d)
{
	json_t *probes, *norm = NULL, *noise;
	size_t i, mark;

	JCHECK_TRY(jcheck_string(c, root, "schema", JCHECK_REQUIRED, 0, &d->schema));
	JCHECK_TRY(jcheck_int(c, root, "schema_version", JCHECK_REQUIRED, 1, 1000000, &d->version));
	if (d->version < 2)
		return jcheck_fail(c, "schema_version %lld names no files (base_files came with "
				   "version 2)", d->version);
	JCHECK_TRY(jcheck_strings(c, root, "base_files", JCHECK_REQUIRED, COMPARE_DOC_MAX_FILES,
				  &d->base_files, &d->n_base));
	JCHECK_TRY(jcheck_strings(c, root, "new_files", JCHECK_REQUIRED, COMPARE_DOC_MAX_FILES,
				  &d->new_files, &d->n_new));
	if (!d->n_base || !d->n_new)
		return jcheck_fail(c, "%s: empty", d->n_base ? "new_files" : "base_files");
	JCHECK_TRY(jcheck_num(c, root, "threshold_pct", JCHECK_REQUIRED, &d->threshold_pct));
	JCHECK_TRY(jcheck_int(c, root, "seed", JCHECK_REQUIRED, 0, INT64_MAX, &d->seed));
	if (jcheck_object(c, root, "normalize", JCHECK_OPTIONAL, &norm) < 0)
		return -1;
	if (norm) {
		mark = jcheck_push_key(c, "normalize");
		if (jcheck_string(c, norm, "asked", JCHECK_REQUIRED, 0, &d->normalize) < 0)
			return -1;
		jcheck_pop(c, mark);
	}
	noise = json_object_get(root, "noise");
	if (noise && !json_is_null(noise)) {
		d->noise_used = 1;
		mark = jcheck_push_key(c, "noise");
		if (!json_is_object(noise) ||
		    jcheck_string(c, noise, "file", JCHECK_OPTIONAL, 0, &d->noise_file) < 0)
			return jcheck_fail(c, "not an object with a file");
		jcheck_pop(c, mark);
	}
	JCHECK_TRY(jcheck_array(c, root, "probes", JCHECK_REQUIRED, COMPARE_DOC_MAX_PROBES,
				&probes));
	d->n_probes = json_array_size(probes);
	d->probes = jcheck_calloc(d->n_probes, sizeof(*d->probes));
	if (!d->probes)
		return jcheck_fail(c, "out of memory");
	mark = jcheck_push_key(c, "probes");
	for (i = 0; i < d->n_probes; i++) {
		json_t *o = json_array_get(probes, i);
		size_t m = jcheck_push_index(c, i);

		if (!json_is_object(o))
			return jcheck_fail(c, "not an object");
		if (read_probe(c, o, &d->probes[i]) < 0)
			return -1;
		jcheck_pop(c, m);
	}
	jcheck_pop(c, mark);
	return 0;
}

struct compare_doc *compare_doc_read(const char *path, struct err *err)
{
	struct jcheck c = { .name = path, .err = err };
	struct compare_doc *d = calloc(1, sizeof(*d));
	json_t *root;

	if (!d) {
		err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	d->name = path;
	root = json_load_checked_file(&c, path);
	if (!root) {
		free(d);
		return NULL;
	}
	d->doc = root;
	if (!json_is_object(root)) {
		err_set(err, -EINVAL, "%s: not a JSON object", path);
		compare_doc_free(d);
		return NULL;
	}
	if (read_fields(&c, root, d) < 0) {
		compare_doc_free(d);
		return NULL;
	}
	return d;
}

void compare_doc_free(struct compare_doc *d)
{
	if (!d)
		return;
	free(d->base_files);
	free(d->new_files);
	free(d->probes);
	json_decref(d->doc);
	free(d);
}
