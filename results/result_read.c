// SPDX-License-Identifier: GPL-2.0-only
/*
 * result_read.c - load an exitscope result file and validate it into C
 * structs: the file-level envelope (schema, version, kind, tool, command,
 * timestamps), then one table of the models' tables: the host record
 * (results/host_record_model.c), the probes and settings (results/run_model.c),
 * the ownership map (results/map_model.c), the checks (results/check_model.c)
 * and the warnings.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/jcheck.h"
#include "results/json_load.h"
#include "results/result_read.h"

#define TRY JCHECK_TRY

/*
 * After the header, the tables' rows in the order they are read: the host,
 * the probes (required in a run file; names unique), the settings, the map,
 * the checks, the warnings.
 */
#define RF struct result_file
#define PROBES(fl)	FIELD_ARRAY(RF, probes, n_probes, "probes", (fl) | FIELD_UNIQUE,	\
				    &run_probe_entry_fields, struct run_probe, RESULT_MAX_ITEMS, NULL)
static const struct field run_probes_field[] = { PROBES(FIELD_REQUIRED) };
static const struct field other_probes_field[] = { PROBES(0) };
static const struct field_desc run_probes_desc = FIELD_DESC("probes", run_probes_field);
static const struct field_desc other_probes_desc = FIELD_DESC("probes", other_probes_field);

static const struct field_desc *probes_pick(const void *p)
{
	return ((const RF *)p)->kind == RESULT_KIND_RUN ? &run_probes_desc : &other_probes_desc;
}

static const struct field_desc probes_desc = { .name = "probes", .pick = probes_pick };
static const struct field body_field[] = {
	FIELD_OBJ(RF, host, "host", FIELD_REQUIRED, &host_record_fields),
	{ "", FIELD_T_OBJECT, 0, FIELD_INLINE, .sub = &probes_desc },
	FIELD_OBJ_P(RF, settings, settings.present, "settings", 0, &run_settings_fields),
	FIELD_OBJ_OWN(RF, map, "map", 0, &result_map_fields),
	FIELD_INLINE_OBJ(RF, checks, &check_report_fields),
	FIELD_STRINGS(RF, warnings, n_warnings, "warnings", 0, RESULT_MAX_ITEMS),
};
static const struct field_desc body_desc = FIELD_DESC("result", body_field);
#undef PROBES

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
	TRY(read_header(c, root, p));
	return fields_read(c, root, &body_desc, p);
}

static void doc_init(void *p)
{
	host_record_init(&((RF *)p)->host);
	run_settings_init(&((RF *)p)->settings);
}

static void doc_free(void *p)
{
	result_free(p);
}

static const struct json_doc_kind doc_kind = {
	.size = sizeof(struct result_file), .name_off = offsetof(struct result_file, name),
	.doc_off = offsetof(struct result_file, doc), .init = doc_init, .read = read_document,
	.free = doc_free,
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
