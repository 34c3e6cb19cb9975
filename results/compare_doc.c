// SPDX-License-Identifier: GPL-2.0-only
/* compare_doc.c - the fields of a compare --json document that report re-reads. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results/compare_doc.h"
#include "results/field.h"
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

static const struct field probe_table[] = {
	FIELD_CSTR(struct compare_doc_probe, name, "name", FIELD_REQUIRED),
	FIELD_CSTR(struct compare_doc_probe, verdict, "verdict", FIELD_REQUIRED),
	FIELD_NUM(struct compare_doc_probe, base_median, "base_median", FIELD_SIGNED),
	FIELD_NUM(struct compare_doc_probe, new_median, "new_median", FIELD_SIGNED),
};
static const struct field_desc probe_fields = FIELD_DESC("compare_doc_probe", probe_table);

/* An older document has no files: said before what it lacks. */
static int version_read(struct jcheck *c, json_t *obj, void *p)
{
	struct compare_doc *d = p;

	JCHECK_TRY(jcheck_int(c, obj, "schema_version", JCHECK_REQUIRED, 1, 1000000, &d->version));
	if (d->version < 2)
		return jcheck_fail(c, "schema_version %lld names no files (base_files came with "
				   "version 2)", d->version);
	return 0;
}

/* null or absent: no floor was used; else an object, maybe with its file. */
static int noise_read(struct jcheck *c, json_t *obj, void *p)
{
	struct compare_doc *d = p;
	json_t *noise = json_object_get(obj, "noise");
	size_t mark;

	if (!noise || json_is_null(noise))
		return 0;
	d->noise_used = 1;
	mark = jcheck_push_key(c, "noise");
	if (!json_is_object(noise) ||
	    jcheck_string(c, noise, "file", JCHECK_OPTIONAL, 0, &d->noise_file) < 0)
		return jcheck_fail(c, "not an object with a file");
	jcheck_pop(c, mark);
	return 0;
}

/* Each probe by probe_fields; has_figures when both medians are there. */
static int probes_read(struct jcheck *c, json_t *obj, void *p)
{
	struct compare_doc *d = p;
	json_t *probes;
	size_t i, mark;

	JCHECK_TRY(jcheck_array(c, obj, "probes", JCHECK_REQUIRED, COMPARE_DOC_MAX_PROBES,
				&probes));
	d->n_probes = json_array_size(probes);
	d->probes = jcheck_calloc(d->n_probes, sizeof(*d->probes));
	if (!d->probes)
		return jcheck_fail(c, "out of memory");
	mark = jcheck_push_key(c, "probes");
	for (i = 0; i < d->n_probes; i++) {
		struct compare_doc_probe *cp = &d->probes[i];
		json_t *o = json_array_get(probes, i);
		size_t m = jcheck_push_index(c, i);

		if (!json_is_object(o))
			return jcheck_fail(c, "not an object");
		cp->base_median = cp->new_median = NAN;
		JCHECK_TRY(fields_read(c, o, &probe_fields, cp));
		cp->has_figures = !isnan(cp->base_median) && !isnan(cp->new_median);
		jcheck_pop(c, m);
	}
	jcheck_pop(c, mark);
	return 0;
}

static int files_check(struct jcheck *c, const void *p)
{
	const struct compare_doc *d = p;

	if (!d->n_base || !d->n_new)
		return jcheck_fail(c, "%s: empty", d->n_base ? "new_files" : "base_files");
	return 0;
}

/* The document is only read here (compare_model.c writes it): no writers. */
static const struct field_custom version_custom = { NULL, version_read, NULL };
static const struct field_custom noise_custom = { NULL, noise_read, NULL };
static const struct field_custom probes_custom = { NULL, probes_read, NULL };

static const struct field normalize_table[] = {
	FIELD_CSTR(struct compare_doc, normalize, "asked", FIELD_REQUIRED),
};
static const struct field_desc normalize_fields = FIELD_DESC("normalize", normalize_table);

static const struct field doc_table[] = {
	FIELD_CSTR(struct compare_doc, schema, "schema", FIELD_REQUIRED),
	FIELD_CUSTOM("schema_version", FIELD_REQUIRED, &version_custom),
	FIELD_STRINGS(struct compare_doc, base_files, n_base, "base_files", FIELD_REQUIRED,
		      COMPARE_DOC_MAX_FILES),
	FIELD_STRINGS(struct compare_doc, new_files, n_new, "new_files", FIELD_REQUIRED,
		      COMPARE_DOC_MAX_FILES),
	FIELD_NUM(struct compare_doc, threshold_pct, "threshold_pct", FIELD_REQUIRED),
	FIELD_INT(struct compare_doc, seed, "seed", FIELD_REQUIRED, 0, INT64_MAX),
	FIELD_CUSTOM("probes", FIELD_REQUIRED, &probes_custom),
	FIELD_OBJ_FLAT("normalize", 0, &normalize_fields),
	FIELD_CUSTOM("noise", 0, &noise_custom),
};
static const struct field_desc doc_fields = FIELD_DESC_CHECK("compare_doc", doc_table, files_check);

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
	if (fields_read(&c, root, &doc_fields, d) < 0) {
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
