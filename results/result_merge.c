// SPDX-License-Identifier: GPL-2.0-only
/* result_merge.c - result files made into one, a probe renamed, rounds cut (result_merge.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "results/file_read.h"
#include "results/outfile.h"
#include "results/result_merge.h"
#include "results/result_read.h"
#include "results/schema.h"

/* Every number as read: 17 significant digits give back the same double. */
#define MERGE_DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

struct result_merged {
	json_t *doc;
};

struct input {
	const char *path;
	const char *block;		/* into path: its base name */
	size_t block_len;		/* without ".json" */
	json_t *doc;
};

/* The file at path, checked as a result file, as a JSON tree; NULL with err. */
static json_t *input_load(const char *path, struct err *err)
{
	struct result_file *rf;
	json_t *doc = NULL;
	size_t len;
	char *buf;

	if (file_read_all(path, RESULT_MAX_FILE_BYTES, &buf, &len, err)) {
		err_prefix(err, "%s", path);
		return NULL;
	}
	rf = result_read_buffer(path, buf, len, err);
	if (rf) {
		doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, NULL);
		if (!doc)
			err_set(err, -ENOMEM, "%s: out of memory", path);
	}
	result_free(rf);
	free(buf);
	return doc;
}

static void input_block(struct input *in)
{
	const char *slash = strrchr(in->path, '/');
	size_t n;

	in->block = slash ? slash + 1 : in->path;
	n = strlen(in->block);
	if (n > 5 && !strcmp(in->block + n - 5, ".json"))
		n -= 5;
	in->block_len = n;
}

/* The first input whose member key is present and not null, or -1. */
static long first_with(const struct input *in, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_object_get(in[i].doc, key);

		if (v && !json_is_null(v))
			return (long)i;
	}
	return -1;
}

/* The base: the first run file, else the first with probes, else the first. */
static size_t base_of(const struct input *in, size_t n)
{
	long p;

	for (size_t i = 0; i < n; i++) {
		const char *kind = json_string_value(json_object_get(in[i].doc, "kind"));

		if (kind && !strcmp(kind, result_kind_names[RESULT_KIND_RUN]))
			return i;
	}
	p = first_with(in, n, "probes");
	return p < 0 ? 0 : (size_t)p;
}

/* Every input's probes in order, those of the inputs other than base as NAME@BLOCK. */
static json_t *merged_probes(const struct input *in, size_t n, size_t base)
{
	json_t *all = json_array(), *p, *copy;
	size_t i, j;
	char *name;

	for (i = 0; all && i < n; i++) {
		json_array_foreach(json_object_get(in[i].doc, "probes"), j, p) {
			const char *s = json_string_value(json_object_get(p, "name"));

			copy = json_deep_copy(p);
			if (copy && i != base && s) {
				int r = asprintf(&name, "%s%c%.*s", s, MERGE_BLOCK_SEP,
						 (int)in[i].block_len, in[i].block);

				if (r < 0 || json_object_set_new(copy, "name", json_string(name))) {
					json_decref(copy);
					copy = NULL;
				}
				if (r >= 0)
					free(name);
			}
			if (!copy || json_array_append_new(all, copy)) {
				json_decref(all);
				return NULL;
			}
		}
	}
	return all;
}

static int merge_inputs(struct input *in, size_t n, json_t **out, struct err *err)
{
	size_t base = base_of(in, n);
	json_t *doc = json_deep_copy(in[base].doc), *probes;
	long map = first_with(in, n, "map"), checks = first_with(in, n, "checks");

	if (!doc)
		return err_set(err, -ENOMEM, "out of memory");
	if (first_with(in, n, "probes") >= 0) {
		probes = merged_probes(in, n, base);
		if (!probes || json_object_set_new(doc, "probes", probes))
			goto nomem;
	}
	if (map >= 0 &&
	    json_object_set_new(doc, "map", json_deep_copy(json_object_get(in[map].doc, "map"))))
		goto nomem;
	if (checks >= 0 &&
	    json_object_set_new(doc, "checks",
				json_deep_copy(json_object_get(in[checks].doc, "checks"))))
		goto nomem;
	*out = doc;
	return 0;
nomem:
	json_decref(doc);
	return err_set(err, -ENOMEM, "out of memory");
}

/* --rename FROM=TO: FROM becomes TO, the probe TO was dropped. */
static int merge_rename(json_t *doc, const struct result_merge *m, const char *what, struct err *err)
{
	json_t *probes = json_object_get(doc, "probes"), *p;
	size_t i, found = 0;

	for (i = json_array_size(probes); i-- > 0;) {
		const char *s =
			json_string_value(json_object_get(json_array_get(probes, i), "name"));

		if (s && !strcmp(s, m->rename_to))
			json_array_remove(probes, i);
	}
	json_array_foreach(probes, i, p) {
		const char *s = json_string_value(json_object_get(p, "name"));

		if (s && !strcmp(s, m->rename_from)) {
			json_object_set_new(p, "name", json_string(m->rename_to));
			found++;
		}
	}
	if (!found)
		return err_set(err, -EINVAL, "--rename: no probe \"%.64s\" in %s", m->rename_from,
			       what);
	return 0;
}

/* --rounds N: every probe's first N rounds. */
static void merge_rounds(json_t *doc, unsigned int keep)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "probes"), i, p) {
		json_t *rounds = json_object_get(p, "rounds");

		while (json_is_array(rounds) && json_array_size(rounds) > keep)
			json_array_remove(rounds, json_array_size(rounds) - 1);
	}
}

/* The merged document read back as a result file, so nothing unreadable is written. */
static int merge_check(json_t *doc, const char *what, struct err *err)
{
	char *text = json_dumps(doc, MERGE_DUMP_FLAGS);
	struct result_file *rf;

	if (!text)
		return err_set(err, -ENOMEM, "out of memory");
	rf = result_read_buffer(what, text, strlen(text), err);
	free(text);
	if (!rf)
		return err->code ? err->code : -EINVAL;
	result_free(rf);
	return 0;
}

static int merge_blocks_distinct(const struct input *in, size_t n, struct err *err)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (in[i].block_len == in[j].block_len &&
			    !memcmp(in[i].block, in[j].block, in[i].block_len))
				return err_set(err, -EINVAL, "%s and %s: two blocks named %.*s",
					       in[j].path, in[i].path, (int)in[i].block_len,
					       in[i].block);
	return 0;
}

struct result_merged *result_merge_read(const char *const *paths, size_t n, const struct result_merge *m,
					struct err *err)
{
	struct input *in = calloc(n ? n : 1, sizeof(*in));
	struct result_merged *r = NULL;
	const char *what = n == 1 ? paths[0] : "the merged files";
	json_t *doc = NULL;
	int rc = 0;
	size_t i;

	if (!in) {
		err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	if (!n)
		rc = err_set(err, -EINVAL, "no result file to merge");
	if (!rc && m->rename_from && !strcmp(m->rename_from, m->rename_to))
		rc = err_set(err, -EINVAL, "--rename: \"%.64s\" into itself", m->rename_from);
	for (i = 0; !rc && i < n; i++) {
		in[i].path = paths[i];
		input_block(&in[i]);
		in[i].doc = input_load(paths[i], err);
		if (!in[i].doc)
			rc = err->code ? err->code : -EINVAL;
	}
	if (!rc)
		rc = merge_blocks_distinct(in, n, err);
	if (!rc)
		rc = merge_inputs(in, n, &doc, err);
	if (!rc && m->rename_from)
		rc = merge_rename(doc, m, what, err);
	if (!rc && m->rounds)
		merge_rounds(doc, m->rounds);
	if (!rc)
		rc = merge_check(doc, what, err);
	if (!rc) {
		r = malloc(sizeof(*r));
		if (r) {
			r->doc = doc;
			doc = NULL;
		} else {
			err_set(err, -ENOMEM, "out of memory");
		}
	}
	json_decref(doc);
	for (i = 0; i < n; i++)
		json_decref(in[i].doc);
	free(in);
	return r;
}

int result_merged_write(const struct result_merged *r, const char *path, struct err *err)
{
	struct outfile o;
	int rc = outfile_open(&o, path, err);

	if (rc)
		return rc;
	if (json_dumpf(r->doc, o.f, MERGE_DUMP_FLAGS) || fputc('\n', o.f) == EOF) {
		int e = o.err ? o.err : EIO;

		outfile_abort(&o);
		return err_set(err, -e, "%s: %s", path, strerror(e));
	}
	return outfile_commit(&o, err);
}

size_t result_merged_probes(const struct result_merged *r)
{
	return json_array_size(json_object_get(r->doc, "probes"));
}

void result_merged_free(struct result_merged *r)
{
	if (!r)
		return;
	json_decref(r->doc);
	free(r);
}
