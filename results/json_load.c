// SPDX-License-Identifier: GPL-2.0-only
/* json_load.c - read a JSON document from a file or memory under the readers' limits, with one-line errors. */
#include <stdlib.h>
#include <string.h>

#include "results/file_read.h"
#include "results/json_load.h"
#include "results/schema.h"

static int is_blank(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r')
			return 0;
	return 1;
}

json_t *json_load_checked_buffer(struct jcheck *c, const void *buf, size_t len)
{
	json_error_t jerr;
	const char *nul;
	json_t *root;

	if (c->err)
		err_init(c->err);
	if (len == 0 || is_blank(buf, len)) {
		jcheck_fail(c, "empty file");
		return NULL;
	}
	if (len > RESULT_MAX_FILE_BYTES) {
		jcheck_fail(c, "file too large (%zu bytes, limit %u)", len, RESULT_MAX_FILE_BYTES);
		return NULL;
	}
	nul = memchr(buf, '\0', len);
	if (nul) {
		jcheck_fail(c, "contains a NUL byte at offset %zu (not a JSON text)",
			    (size_t)(nul - (const char *)buf));
		return NULL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (json_error_code(&jerr) == json_error_premature_end_of_input)
			jcheck_fail(c, "truncated JSON at line %d, column %d: %s",
				    jerr.line, jerr.column, jerr.text);
		else
			jcheck_fail(c, "invalid JSON at line %d, column %d: %s",
				    jerr.line, jerr.column, jerr.text);
	}
	return root;
}

json_t *json_load_checked_file(struct jcheck *c, const char *path)
{
	struct err why;
	char *buf;
	size_t len;
	json_t *root;

	if (c->err)
		err_init(c->err);
	if (file_read_all(path, RESULT_MAX_FILE_BYTES, &buf, &len, &why)) {
		jcheck_fail(c, "%s", why.msg);
		return NULL;
	}
	root = json_load_checked_buffer(c, buf, len);
	free(buf);
	return root;
}

/* A parsed document into a new struct of kind k (which takes root's reference); NULL with c's error. */
static void *doc_read(const struct json_doc_kind *k, struct jcheck *c, const char *name, json_t *root)
{
	char *p = calloc(1, k->size), *dup = strdup(name);

	if (!p || !dup) {
		free(p);
		free(dup);
		json_decref(root);
		jcheck_fail(c, "out of memory");
		return NULL;
	}
	*(const char **)(p + k->name_off) = dup;
	*(void **)(p + k->doc_off) = root;
	if (k->init)
		k->init(p);
	if (!json_is_object(root)) {
		jcheck_fail(c, "top level is %s, not an object", jcheck_type_name(root));
		k->free(p);
		return NULL;
	}
	if (k->read(c, root, p) < 0) {
		k->free(p);
		return NULL;
	}
	return p;
}

void *json_doc_read_buffer(const struct json_doc_kind *k, const char *name, const void *buf,
			   size_t len, struct err *err)
{
	struct jcheck c = { .name = name, .err = err };
	json_t *root = json_load_checked_buffer(&c, buf, len);

	return root ? doc_read(k, &c, name, root) : NULL;
}

void *json_doc_read_file(const struct json_doc_kind *k, const char *path, struct err *err)
{
	struct jcheck c = { .name = path, .err = err };
	json_t *root = json_load_checked_file(&c, path);

	return root ? doc_read(k, &c, path, root) : NULL;
}
