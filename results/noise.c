// SPDX-License-Identifier: GPL-2.0-only
/*
 * noise.c - the noise floor model: what "the same host" is for it, its JSON
 * writer and its reader, side by side.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/field.h"
#include "results/json_load.h"
#include "results/noise.h"
#include "results/result_write.h"

#define TRY JCHECK_TRY

const char *noise_host_mismatch(const struct host_record *a, const struct host_record *b,
				char *buf, size_t len)
{
	if (strcmp(a->cpu_vendor, b->cpu_vendor) || strcmp(a->cpu_name, b->cpu_name) ||
	    a->cpu_family != b->cpu_family || a->cpu_model != b->cpu_model ||
	    a->cpu_stepping != b->cpu_stepping)
		snprintf(buf, len, "CPU %s (%s family %lld model %lld stepping %lld) vs "
			 "%s (%s family %lld model %lld stepping %lld)", a->cpu_name, a->cpu_vendor,
			 a->cpu_family, a->cpu_model, a->cpu_stepping, b->cpu_name, b->cpu_vendor,
			 b->cpu_family, b->cpu_model, b->cpu_stepping);
	else if (strcmp(a->backend_module, b->backend_module))
		snprintf(buf, len, "KVM backend %s vs %s", a->backend_module, b->backend_module);
	else if (a->exec_mode != b->exec_mode)
		snprintf(buf, len, "execution mode %s vs %s", exec_mode_name(a->exec_mode),
			 exec_mode_name(b->exec_mode));
	else if (a->lane.present != b->lane.present)
		snprintf(buf, len, "%s vs %s", a->lane.present ? "a lane run" : "not a lane run",
			 b->lane.present ? "a lane run" : "not a lane run");
	else if (a->lane.present && (a->lane.name != b->lane.name ||
				     strcmp(a->lane.emulator, b->lane.emulator)))
		snprintf(buf, len, "lane %s (%s) vs %s (%s)", host_lane_names[a->lane.name],
			 a->lane.emulator, host_lane_names[b->lane.name], b->lane.emulator);
	else
		return NULL;
	return buf;
}

const struct noise_est *noise_probe_est(const struct noise_probe *p, int at_speed)
{
	if (!at_speed)
		return &p->cycles;
	return p->has_at_speed ? &p->at_speed : NULL;
}

const struct noise_probe *noise_find_probe(const struct noise_floor *nf, const char *name)
{
	for (size_t i = 0; nf && i < nf->n_probes; i++)
		if (strcmp(nf->probes[i].name, name) == 0)
			return &nf->probes[i];
	return NULL;
}

/* ---- the JSON: NOISE in docs/results-schema.md ---- */

/* The envelope: "schema", "schema_version" and "tool", before the table's fields. */
static int header_read(struct jcheck *c, json_t *root, struct noise_floor *nf)
{
	json_t *schema = json_object_get(root, "schema"), *tool;

	if (json_is_string(schema) && !strcmp(json_string_value(schema), RESULT_SCHEMA)) {
		jcheck_push_key(c, "schema");
		return jcheck_fail(c, "\"" RESULT_SCHEMA "\": a result file, not a noise floor "
				   "(\"" NOISE_SCHEMA "\")");
	}
	TRY(result_schema_read(c, root, NOISE_SCHEMA, "noise floor", NOISE_SCHEMA_VERSION_MIN,
			       NOISE_SCHEMA_VERSION));
	TRY(jcheck_object(c, root, "tool", JCHECK_REQUIRED, &tool));
	jcheck_push_key(c, "tool");
	TRY(jcheck_string(c, tool, "version", JCHECK_REQUIRED, 0, &nf->tool_version));
	jcheck_pop(c, 0);
	return 0;
}

/* between^2 = run_sd^2 - within^2 (10 significant digits in the file). */
static int est_check(struct jcheck *c, const void *p)
{
	const struct noise_est *e = p;

	if (e->between_sd_cycles > e->run_sd_cycles * (1 + 1e-9)) {
		jcheck_push_key(c, "between_sd_cycles");
		return jcheck_fail(c, "larger than run_sd_cycles, of which it is a part");
	}
	if (e->between_sd_cycles > 0 && !(e->df > 0)) {
		jcheck_push_key(c, "df");
		return jcheck_fail(c, "0 while between_sd_cycles is not (no degrees of freedom)");
	}
	return 0;
}

/*
 * Each probe's runs at most the floor's, its rounds at least 2 a run, its
 * name not that of an earlier one.
 */
static int noise_check(struct jcheck *c, const void *p)
{
	const struct noise_floor *nf = p;

	for (size_t i = 0; i < nf->n_probes; i++) {
		const struct noise_probe *np = &nf->probes[i];
		size_t mark = jcheck_push_key(c, "probes");

		jcheck_push_index(c, i);
		if (np->runs > nf->runs) {
			jcheck_push_key(c, "runs");
			return jcheck_fail(c, "must be in %d..%lld (got %lld)", NOISE_MIN_RUNS,
					   nf->runs, np->runs);
		}
		if (np->rounds < 2 * np->runs) {
			jcheck_push_key(c, "rounds");
			return jcheck_fail(c, "must be >= %lld (got %lld)", 2 * np->runs,
					   np->rounds);
		}
		TRY(fields_unique(c, nf->probes, i, sizeof(*np), &noise_probe_fields.f[0], "probe",
				  "probes"));
		jcheck_pop(c, mark);
	}
	return 0;
}

static void probe_init(void *p)
{
	struct noise_probe *np = p;

	np->cycles.between_sd_rel = np->at_speed.between_sd_rel = -1;
}

static const struct field est_field[] = {
	FIELD_NUM(struct noise_est, mean_cycles, "mean_cycles", FIELD_REQUIRED | FIELD_SIGNED),
	FIELD_NUM(struct noise_est, run_sd_cycles, "run_sd_cycles", FIELD_REQUIRED),
	FIELD_NUM(struct noise_est, within_se_cycles, "within_se_cycles", FIELD_REQUIRED),
	FIELD_NUM(struct noise_est, between_sd_cycles, "between_sd_cycles", FIELD_REQUIRED),
	FIELD_NUM(struct noise_est, between_sd_rel, "between_sd_rel", FIELD_OMIT_NEG),
	FIELD_NUM(struct noise_est, df, "df", FIELD_REQUIRED),
};
const struct field_desc noise_est_fields = FIELD_DESC_CHECK("noise_est", est_field, est_check);

#define P struct noise_probe
static const struct field probe_field[] = {
	FIELD_CSTR(P, name, "name", FIELD_REQUIRED | FIELD_OMIT_NULL),
	FIELD_INT(P, runs, "runs", FIELD_REQUIRED, NOISE_MIN_RUNS, LLONG_MAX),
	FIELD_INT(P, rounds, "rounds", FIELD_REQUIRED, 2 * NOISE_MIN_RUNS, LLONG_MAX),
	FIELD_INLINE_OBJ(P, cycles, &noise_est_fields),
	FIELD_OBJ_P(P, at_speed, has_at_speed, "at_guest_speed", 0, &noise_est_fields),
};
#undef P
const struct field_desc noise_probe_fields =
	FIELD_DESC_INIT("noise_probe", probe_field, NULL, probe_init);

static const struct field omitted_field[] = {
	FIELD_CSTR(struct noise_omitted, name, "name", FIELD_REQUIRED | FIELD_OMIT_NULL),
	FIELD_INT(struct noise_omitted, runs, "runs", FIELD_REQUIRED, 0, NOISE_MIN_RUNS - 1),
};
const struct field_desc noise_omitted_fields = FIELD_DESC("noise_omitted", omitted_field);

#define N struct noise_floor
static const struct field noise_field[] = {
	FIELD_CSTR(N, created, "created", FIELD_REQUIRED | FIELD_OMIT_NULL),
	FIELD_INT(N, runs, "runs", FIELD_REQUIRED, NOISE_MIN_RUNS, RESULT_MAX_ITEMS),
	FIELD_CSTR(N, first_started, "first_started", FIELD_OMIT_NULL),
	FIELD_CSTR(N, last_finished, "last_finished", FIELD_OMIT_NULL),
	FIELD_STRINGS(N, sources, n_sources, "sources", FIELD_OMIT_NULL, RESULT_MAX_ITEMS),
	FIELD_OBJ(N, host, "host", FIELD_REQUIRED, &host_record_fields),
	{ "settings", FIELD_T_OBJECT, offsetof(N, settings), FIELD_REQUIRED,
	  .sub = &run_settings_fields, .hint = "(how the runs measured)" },
	FIELD_ARRAY(N, probes, n_probes, "probes", FIELD_REQUIRED, &noise_probe_fields,
		    struct noise_probe, RESULT_MAX_ITEMS, NULL),
	FIELD_ARRAY(N, omitted, n_omitted, "omitted", 0, &noise_omitted_fields,
		    struct noise_omitted, RESULT_MAX_ITEMS, NULL),
};
#undef N
const struct field_desc noise_fields = FIELD_DESC_CHECK("noise", noise_field, noise_check);

json_t *noise_json(const struct noise_floor *nf)
{
	struct noise_floor w = *nf;
	json_t *doc, *rest;
	char now[32];

	if (!w.created) {
		result_timestamp(now, sizeof(now));
		w.created = now;
	}
	doc = json_pack("{s:s, s:i, s:{s:s, s:s}}", "schema", NOISE_SCHEMA,
			"schema_version", NOISE_SCHEMA_VERSION, "tool", "name", "exitscope",
			"version", nf->tool_version ? nf->tool_version : EXITSCOPE_VERSION);
	rest = fields_write(&noise_fields, &w);
	if (!doc || !rest || json_object_update(doc, rest)) {
		json_decref(doc);
		doc = NULL;
	}
	json_decref(rest);
	return doc;
}

int noise_write(const struct noise_floor *nf, const char *path, struct err *err)
{
	json_t *doc = noise_json(nf);
	int r;

	if (!doc)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	r = result_write_as_is(doc, path, err);
	json_decref(doc);
	return r;
}

/* ---- reader ---- */

static int read_document(struct jcheck *c, json_t *root, void *p)
{
	TRY(header_read(c, root, p));
	return fields_read(c, root, &noise_fields, p);
}

static void doc_init(void *p)
{
	struct noise_floor *nf = p;

	host_record_init(&nf->host);
	run_settings_init(&nf->settings);
	nf->settings.present = 1;	/* required: the floor is refused without */
}

static void doc_free(void *p)
{
	noise_free(p);
}

static const struct json_doc_kind doc_kind = {
	.size = sizeof(struct noise_floor), .name_off = offsetof(struct noise_floor, name),
	.doc_off = offsetof(struct noise_floor, doc), .init = doc_init, .read = read_document,
	.free = doc_free,
};

struct noise_floor *noise_read_buffer(const char *name, const void *buf, size_t len,
				      struct err *err)
{
	return json_doc_read_buffer(&doc_kind, name, buf, len, err);
}

struct noise_floor *noise_read_file(const char *path, struct err *err)
{
	return json_doc_read_file(&doc_kind, path, err);
}

void noise_free(struct noise_floor *nf)
{
	if (!nf)
		return;
	fields_free(&noise_fields, nf);
	json_decref(nf->doc);
	free((char *)nf->name);
	free(nf);
}
