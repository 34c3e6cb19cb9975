// SPDX-License-Identifier: GPL-2.0-only
/*
 * result_read.c - load an exitscope result file and validate it into C
 * structs: the file-level envelope (schema, version, kind, tool, command,
 * timestamps, warnings) and the dispatch to the readers of the host record
 * (results/host_record_model.c), the probes (results/run_model.c), the ownership map
 * and the checks (results/check_model.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/jcheck.h"
#include "results/json_load.h"
#include "results/result_read.h"

#define TRY JCHECK_TRY

#define alloc_array jcheck_calloc

/* The "map" object, read by the ownership-map model's table (results/map_model.c). */
static const struct field map_row[] = {
	FIELD_OBJ_OWN(struct result_file, map, "map", 0, &result_map_fields),
};
static const struct field_desc map_desc = FIELD_DESC("root", map_row);

int result_schema_read(struct jcheck *c, json_t *root, const char *schema, const char *what,
		       int vmin, int vmax)
{
	json_t *v = json_object_get(root, "schema");
	char q[80];

	if (!v)
		return jcheck_fail(c, "missing required field \"schema\" (not an exitscope %s?)",
				   what);
	jcheck_push_key(c, "schema");
	if (!json_is_string(v))
		return jcheck_fail(c, "not a string (found %s)", jcheck_type_name(v));
	if (strcmp(json_string_value(v), schema) != 0)
		return jcheck_fail(c, "\"%s\" is not \"%s\" (not an exitscope %s?)",
				   jcheck_quote(json_string_value(v), q, sizeof(q)), schema, what);
	jcheck_pop(c, 0);
	v = json_object_get(root, "schema_version");
	if (!v)
		return jcheck_fail(c, "missing required field \"schema_version\"");
	jcheck_push_key(c, "schema_version");
	if (!json_is_integer(v))
		return jcheck_fail(c, "not an integer (found %s)", jcheck_type_name(v));
	if (json_integer_value(v) < vmin || json_integer_value(v) > vmax)
		return jcheck_fail(c, "unsupported version %lld (this exitscope reads %d to %d)",
				   (long long)json_integer_value(v), vmin, vmax);
	jcheck_pop(c, 0);
	return 0;
}

static int read_header(struct jcheck *c, json_t *root, struct result_file *rf)
{
	json_t *tool;
	const char *s;
	int idx, rc;

	TRY(result_schema_read(c, root, RESULT_SCHEMA, "result file", RESULT_SCHEMA_VERSION_MIN,
			       RESULT_SCHEMA_VERSION));
	TRY(jcheck_enum(c, root, "kind", JCHECK_REQUIRED, result_kind_names, RESULT_KIND_N, &idx));
	rf->kind = idx;
	rc = jcheck_object(c, root, "tool", JCHECK_OPTIONAL, &tool);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		jcheck_push_key(c, "tool");
		TRY(jcheck_string(c, tool, "name", JCHECK_OPTIONAL, 1, &s));
		TRY(jcheck_string(c, tool, "version", JCHECK_OPTIONAL, 1, &rf->tool_version));
		jcheck_pop(c, 0);
	}
	TRY(jcheck_strings(c, root, "command", JCHECK_OPTIONAL, RESULT_MAX_ITEMS,
			   &rf->command, &rf->n_command));
	TRY(jcheck_string(c, root, "started", JCHECK_OPTIONAL, 1, &rf->started));
	TRY(jcheck_string(c, root, "finished", JCHECK_OPTIONAL, 1, &rf->finished));
	rf->pid = -1;
	TRY(jcheck_int(c, root, "pid", JCHECK_OPTIONAL, 1, INT_MAX, &rf->pid));
	return 0;
}

static int read_document(struct jcheck *c, json_t *root, void *p)
{
	struct result_file *rf = p;

	TRY(read_header(c, root, rf));
	TRY(host_record_read(c, root, &rf->host));
	TRY(run_probes_read(c, root, rf->kind == RESULT_KIND_RUN, &rf->probes, &rf->n_probes));
	TRY(run_settings_read(c, root, &rf->settings));
	TRY(fields_read(c, root, &map_desc, rf));
	TRY(check_report_read(c, root, &rf->checks));
	TRY(jcheck_strings(c, root, "warnings", JCHECK_OPTIONAL, RESULT_MAX_ITEMS,
			   &rf->warnings, &rf->n_warnings));
	return 0;
}

static void doc_free(void *p)
{
	result_free(p);
}

static const struct json_doc_kind doc_kind = {
	.size = sizeof(struct result_file), .name_off = offsetof(struct result_file, name),
	.doc_off = offsetof(struct result_file, doc), .read = read_document, .free = doc_free,
};

struct result_file *result_read_buffer(const char *name, const void *buf, size_t len,
				       struct err *err)
{
	return json_doc_read_buffer(&doc_kind, name, buf, len, err);
}

struct result_file *result_read_file(const char *path, struct err *err)
{
	return json_doc_read_file(&doc_kind, path, err);
}

const struct run_probe *result_find_probe(const struct result_file *rf, const char *name)
{
	size_t i;

	for (i = 0; i < rf->n_probes; i++)
		if (strcmp(rf->probes[i].name, name) == 0)
			return &rf->probes[i];
	return NULL;
}

void result_free(struct result_file *rf)
{
	if (!rf)
		return;
	host_record_release(&rf->host);
	run_probes_free(rf->probes, rf->n_probes);
	result_map_free(rf->map);
	check_report_free(&rf->checks);
	free(rf->warnings);
	free(rf->command);
	json_decref(rf->doc);
	free((char *)rf->name);
	free(rf);
}

bool result_same_run(const struct result_file *x, const struct result_file *y)
{
	if (x->started && y->started && x->finished && y->finished && x->pid > 0 && y->pid > 0)
		return !strcmp(x->started, y->started) && !strcmp(x->finished, y->finished) &&
		       x->pid == y->pid;
	return x->doc && y->doc && json_equal(x->doc, y->doc);
}
