// SPDX-License-Identifier: GPL-2.0-only
/* noise.c - the noise floor model: what "the same host" is for it, its JSON writer and its reader, side by side. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/json_load.h"
#include "results/noise.h"
#include "results/outfile.h"
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

/* ---- writer ---- */

/* One estimate's members into o (the names of the file's probe entries). */
static void est_json(json_t *o, const struct noise_est *e)
{
	json_object_set_new(o, "mean_cycles", json_real(e->mean_cycles));
	json_object_set_new(o, "run_sd_cycles", json_real(e->run_sd_cycles));
	json_object_set_new(o, "within_se_cycles", json_real(e->within_se_cycles));
	json_object_set_new(o, "between_sd_cycles", json_real(e->between_sd_cycles));
	if (e->between_sd_rel >= 0)
		json_object_set_new(o, "between_sd_rel", json_real(e->between_sd_rel));
	json_object_set_new(o, "df", json_real(e->df));
}

static json_t *probe_json(const struct noise_probe *p)
{
	json_t *o = json_pack("{s:s, s:I, s:I}", "name", p->name, "runs", (json_int_t)p->runs,
			      "rounds", (json_int_t)p->rounds), *s;

	if (!o)
		return NULL;
	est_json(o, &p->cycles);
	if (p->has_at_speed) {
		s = json_object();
		if (s)
			est_json(s, &p->at_speed);
		json_object_set_new(o, "at_guest_speed", s);
	}
	return o;
}

json_t *noise_json(const struct noise_floor *nf)
{
	json_t *doc, *probes = json_array(), *omitted = json_array(), *a;
	char now[32];

	if (!nf->created)
		result_timestamp(now, sizeof(now));
	doc = json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:I}", "schema", NOISE_SCHEMA,
			"schema_version", NOISE_SCHEMA_VERSION, "tool", "name", "exitscope",
			"version", nf->tool_version ? nf->tool_version : EXITSCOPE_VERSION,
			"created", nf->created ? nf->created : now, "runs", (json_int_t)nf->runs);
	if (!doc || !probes || !omitted) {
		json_decref(doc);
		json_decref(probes);
		json_decref(omitted);
		return NULL;
	}
	if (nf->first_started)
		json_object_set_new(doc, "first_started", json_string(nf->first_started));
	if (nf->last_finished)
		json_object_set_new(doc, "last_finished", json_string(nf->last_finished));
	if (nf->sources) {
		a = json_array();
		for (size_t i = 0; a && i < nf->n_sources; i++)
			json_array_append_new(a, json_string(nf->sources[i]));
		json_object_set_new(doc, "sources", a);
	}
	json_object_set_new(doc, "host", host_record_json(&nf->host));
	json_object_set_new(doc, "settings", run_settings_json(&nf->settings));
	for (size_t i = 0; i < nf->n_probes; i++)
		json_array_append_new(probes, probe_json(&nf->probes[i]));
	json_object_set_new(doc, "probes", probes);
	for (size_t i = 0; i < nf->n_omitted; i++)
		json_array_append_new(omitted, json_pack("{s:s, s:I}", "name", nf->omitted[i].name,
							 "runs", (json_int_t)nf->omitted[i].runs));
	json_object_set_new(doc, "omitted", omitted);
	return doc;
}

int noise_write(const struct noise_floor *nf, const char *path, struct err *err)
{
	json_t *doc = noise_json(nf);
	struct outfile o;
	int r;

	if (!doc)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	r = outfile_open(&o, path, err);
	if (!r) {
		if (json_dumpf(doc, o.f, RESULT_DUMP_FLAGS) || fputc('\n', o.f) == EOF) {
			int e = o.err ? o.err : ENOMEM;

			outfile_abort(&o);
			r = err_set(err, -e, "%s: %s", path, strerror(e));
		} else {
			r = outfile_commit(&o, err);
		}
	}
	json_decref(doc);
	return r;
}

/* ---- reader ---- */

static int read_header(struct jcheck *c, json_t *root, struct noise_floor *nf)
{
	json_t *schema = json_object_get(root, "schema"), *version, *tool;
	char q[80];

	if (!schema)
		return jcheck_fail(c, "missing required field \"schema\" (not an exitscope noise floor?)");
	jcheck_push_key(c, "schema");
	if (!json_is_string(schema))
		return jcheck_fail(c, "not a string (found %s)", jcheck_type_name(schema));
	if (strcmp(json_string_value(schema), RESULT_SCHEMA) == 0)
		return jcheck_fail(c, "\"" RESULT_SCHEMA "\": a result file, not a noise floor "
				   "(\"" NOISE_SCHEMA "\")");
	if (strcmp(json_string_value(schema), NOISE_SCHEMA) != 0)
		return jcheck_fail(c, "\"%s\" is not \"" NOISE_SCHEMA "\" (not an exitscope noise floor?)",
				   jcheck_quote(json_string_value(schema), q, sizeof(q)));
	jcheck_pop(c, 0);
	version = json_object_get(root, "schema_version");
	if (!version)
		return jcheck_fail(c, "missing required field \"schema_version\"");
	jcheck_push_key(c, "schema_version");
	if (!json_is_integer(version))
		return jcheck_fail(c, "not an integer (found %s)", jcheck_type_name(version));
	if (json_integer_value(version) < NOISE_SCHEMA_VERSION_MIN ||
	    json_integer_value(version) > NOISE_SCHEMA_VERSION)
		return jcheck_fail(c, "unsupported version %lld (this exitscope reads %d to %d)",
				   (long long)json_integer_value(version), NOISE_SCHEMA_VERSION_MIN,
				   NOISE_SCHEMA_VERSION);
	jcheck_pop(c, 0);
	TRY(jcheck_object(c, root, "tool", JCHECK_REQUIRED, &tool));
	jcheck_push_key(c, "tool");
	TRY(jcheck_string(c, tool, "version", JCHECK_REQUIRED, 0, &nf->tool_version));
	jcheck_pop(c, 0);
	TRY(jcheck_string(c, root, "created", JCHECK_REQUIRED, 0, &nf->created));
	TRY(jcheck_int(c, root, "runs", JCHECK_REQUIRED, NOISE_MIN_RUNS, RESULT_MAX_ITEMS, &nf->runs));
	TRY(jcheck_string(c, root, "first_started", JCHECK_OPTIONAL, 0, &nf->first_started));
	TRY(jcheck_string(c, root, "last_finished", JCHECK_OPTIONAL, 0, &nf->last_finished));
	TRY(jcheck_strings(c, root, "sources", JCHECK_OPTIONAL, RESULT_MAX_ITEMS, &nf->sources,
			   &nf->n_sources));
	return 0;
}

/* One estimate from o (a probe entry, or its "at_guest_speed"). */
static int read_est(struct jcheck *c, json_t *o, struct noise_est *e)
{
	TRY(jcheck_real(c, o, "mean_cycles", JCHECK_REQUIRED, &e->mean_cycles));
	TRY(jcheck_num(c, o, "run_sd_cycles", JCHECK_REQUIRED, &e->run_sd_cycles));
	TRY(jcheck_num(c, o, "within_se_cycles", JCHECK_REQUIRED, &e->within_se_cycles));
	TRY(jcheck_num(c, o, "between_sd_cycles", JCHECK_REQUIRED, &e->between_sd_cycles));
	e->between_sd_rel = -1;
	TRY(jcheck_num(c, o, "between_sd_rel", JCHECK_OPTIONAL, &e->between_sd_rel));
	TRY(jcheck_num(c, o, "df", JCHECK_REQUIRED, &e->df));
	/* between^2 = run_sd^2 - within^2 (10 significant digits in the file). */
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

static int read_probe(struct jcheck *c, json_t *o, long long runs, struct noise_probe *p)
{
	json_t *s;
	int rc;

	if (!json_is_object(o))
		return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(o));
	TRY(jcheck_string(c, o, "name", JCHECK_REQUIRED, 0, &p->name));
	TRY(jcheck_int(c, o, "runs", JCHECK_REQUIRED, NOISE_MIN_RUNS, runs, &p->runs));
	TRY(jcheck_int(c, o, "rounds", JCHECK_REQUIRED, 2 * p->runs, LLONG_MAX, &p->rounds));
	TRY(read_est(c, o, &p->cycles));
	rc = jcheck_object(c, o, "at_guest_speed", JCHECK_OPTIONAL, &s);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		size_t mark = jcheck_push_key(c, "at_guest_speed");

		TRY(read_est(c, s, &p->at_speed));
		p->has_at_speed = 1;
		jcheck_pop(c, mark);
	}
	return 0;
}

static int read_probes(struct jcheck *c, json_t *root, struct noise_floor *nf)
{
	json_t *arr, *v;
	size_t i, j, mark;
	char q[80];

	TRY(jcheck_array(c, root, "probes", JCHECK_REQUIRED, RESULT_MAX_ITEMS, &arr));
	nf->probes = jcheck_calloc(json_array_size(arr), sizeof(*nf->probes));
	if (!nf->probes)
		return jcheck_fail(c, "out of memory");
	json_array_foreach(arr, i, v) {
		mark = jcheck_push_key(c, "probes");
		jcheck_push_index(c, i);
		nf->n_probes = i + 1;
		TRY(read_probe(c, v, nf->runs, &nf->probes[i]));
		for (j = 0; j < i; j++) {
			if (strcmp(nf->probes[j].name, nf->probes[i].name) == 0) {
				jcheck_push_key(c, "name");
				return jcheck_fail(c, "duplicate probe \"%s\" (also probes[%zu])",
						   jcheck_quote(nf->probes[i].name, q, sizeof(q)), j);
			}
		}
		jcheck_pop(c, mark);
	}
	return 0;
}

static int read_omitted(struct jcheck *c, json_t *root, struct noise_floor *nf)
{
	json_t *arr, *v;
	size_t i, mark;
	int rc = jcheck_array(c, root, "omitted", JCHECK_OPTIONAL, RESULT_MAX_ITEMS, &arr);

	if (rc)
		return rc < 0 ? rc : 0;
	nf->omitted = jcheck_calloc(json_array_size(arr), sizeof(*nf->omitted));
	if (!nf->omitted)
		return jcheck_fail(c, "out of memory");
	json_array_foreach(arr, i, v) {
		mark = jcheck_push_key(c, "omitted");
		jcheck_push_index(c, i);
		nf->n_omitted = i + 1;
		if (!json_is_object(v))
			return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(v));
		TRY(jcheck_string(c, v, "name", JCHECK_REQUIRED, 0, &nf->omitted[i].name));
		TRY(jcheck_int(c, v, "runs", JCHECK_REQUIRED, 0, NOISE_MIN_RUNS - 1,
			       &nf->omitted[i].runs));
		jcheck_pop(c, mark);
	}
	return 0;
}

static int read_document(struct jcheck *c, json_t *root, void *p)
{
	struct noise_floor *nf = p;
	int rc;

	TRY(read_header(c, root, nf));
	TRY(host_record_read(c, root, &nf->host));
	rc = run_settings_read(c, root, &nf->settings);
	if (rc < 0)
		return rc;
	if (rc > 0)
		return jcheck_fail(c, "missing required field \"settings\" (how the runs measured)");
	TRY(read_probes(c, root, nf));
	return read_omitted(c, root, nf);
}

static void doc_init(void *p)
{
	struct noise_floor *nf = p;

	host_record_init(&nf->host);
	run_settings_init(&nf->settings);
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
	host_record_release(&nf->host);
	free(nf->probes);
	free(nf->omitted);
	free(nf->sources);
	json_decref(nf->doc);
	free((char *)nf->name);
	free(nf);
}
