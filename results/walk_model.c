// SPDX-License-Identifier: GPL-2.0-only
/* walk_model.c - the walk file's reader and writer, and the steps document's writer (walk_model.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "results/file_read.h"
#include "results/json_load.h"
#include "results/outfile.h"
#include "results/result_write.h"
#include "results/walk_model.h"

#define TRY JCHECK_TRY

const char *const walk_status_names[WALK_STATUS_N] = { "ok", "skip" };

/* ---- reader ---- */

/* A string or null (absent too): 0 with *out NULL for null or absent, -EINVAL otherwise. */
static int nullable_string(struct jcheck *c, json_t *obj, const char *key, const char **out)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	return jcheck_string(c, obj, key, JCHECK_REQUIRED, 1, out);
}

static int is_rev(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return i == WALK_REV_LEN;
}

static int read_header(struct jcheck *c, json_t *root)
{
	json_t *schema = json_object_get(root, "schema"), *version;
	char q[80];

	if (!schema)
		return jcheck_fail(c, "missing required field \"schema\" "
				      "(not an exitscope walk file?)");
	if (!json_is_string(schema) || strcmp(json_string_value(schema), WALK_SCHEMA)) {
		jcheck_push_key(c, "schema");
		if (!json_is_string(schema))
			return jcheck_fail(c, "not a string (found %s)", jcheck_type_name(schema));
		return jcheck_fail(c, "\"%s\" is not \"" WALK_SCHEMA "\" "
				   "(not an exitscope walk file?)",
				   jcheck_quote(json_string_value(schema), q, sizeof(q)));
	}
	version = json_object_get(root, "schema_version");
	if (!version)
		return jcheck_fail(c, "missing required field \"schema_version\"");
	jcheck_push_key(c, "schema_version");
	if (!json_is_integer(version))
		return jcheck_fail(c, "not an integer (found %s)", jcheck_type_name(version));
	if (json_integer_value(version) != WALK_SCHEMA_VERSION)
		return jcheck_fail(c, "unsupported version %lld (this exitscope reads %d)",
				   (long long)json_integer_value(version), WALK_SCHEMA_VERSION);
	jcheck_pop(c, 0);
	return 0;
}

static int read_lanes(struct jcheck *c, json_t *root, struct walk_file *w)
{
	char q[80];
	json_t *arr, *v;
	size_t i, j, mark;
	int idx;

	TRY(jcheck_array(c, root, "lanes", JCHECK_REQUIRED, RESULT_MAX_ITEMS, &arr));
	mark = jcheck_push_key(c, "lanes");
	if (!json_array_size(arr))
		return jcheck_fail(c, "empty: a walk measures in one or two lanes");
	json_array_foreach(arr, i, v) {
		size_t m = jcheck_push_index(c, i);

		if (!json_is_string(v))
			return jcheck_fail(c, "not a string (found %s)", jcheck_type_name(v));
		idx = schema_enum_find(host_lane_names, HOST_LANE_N, json_string_value(v));
		if (idx < 0)
			return jcheck_fail(c, "\"%s\" is not one of vmx, svm",
					   jcheck_quote(json_string_value(v), q, sizeof(q)));
		for (j = 0; j < w->n_lanes; j++)
			if (w->lanes[j] == (enum host_lane_name)idx)
				return jcheck_fail(c, "\"%s\" given twice", host_lane_names[idx]);
		w->lanes[w->n_lanes++] = idx;
		jcheck_pop(c, m);
	}
	jcheck_pop(c, mark);
	return 0;
}

static int lane_listed(const struct walk_file *w, enum host_lane_name l)
{
	for (size_t i = 0; i < w->n_lanes; i++)
		if (w->lanes[i] == l)
			return 1;
	return 0;
}

static int read_commit(struct jcheck *c, json_t *obj, struct walk_file *w, size_t i)
{
	struct walk_commit *wc = &w->commits[i];
	char q[80];
	int idx;

	if (!json_is_object(obj))
		return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(obj));
	TRY(jcheck_string(c, obj, "rev", JCHECK_REQUIRED, 0, &wc->rev));
	if (!is_rev(wc->rev)) {
		jcheck_push_key(c, "rev");
		return jcheck_fail(c, "\"%s\" is not %d hexadecimal digits",
				   jcheck_quote(wc->rev, q, sizeof(q)), WALK_REV_LEN);
	}
	TRY(jcheck_string(c, obj, "subject", JCHECK_REQUIRED, 1, &wc->subject));
	TRY(jcheck_enum(c, obj, "lane", JCHECK_REQUIRED, host_lane_names, HOST_LANE_N, &idx));
	wc->lane = idx;
	if (!lane_listed(w, wc->lane)) {
		jcheck_push_key(c, "lane");
		return jcheck_fail(c, "\"%s\" is not one of the walk's \"lanes\"",
				   host_lane_names[idx]);
	}
	TRY(jcheck_enum(c, obj, "status", JCHECK_REQUIRED, walk_status_names, WALK_STATUS_N, &idx));
	wc->status = idx;
	TRY(nullable_string(c, obj, "reason", &wc->reason));
	TRY(nullable_string(c, obj, "run", &wc->run));
	if (wc->status == WALK_SKIP && (!wc->reason || !*wc->reason))
		return jcheck_fail(c, "status \"skip\" needs a \"reason\"");
	if (wc->status == WALK_OK && (!wc->run || !*wc->run))
		return jcheck_fail(c, "status \"ok\" needs a \"run\" (the commit's run.json)");
	if (wc->status == WALK_OK)
		wc->reason = NULL;
	else
		wc->run = NULL;
	return 0;
}

static int commit_cmp(const void *pa, const void *pb)
{
	const struct walk_commit *a = *(const struct walk_commit *const *)pa;
	const struct walk_commit *b = *(const struct walk_commit *const *)pb;
	int c = (int)a->lane - (int)b->lane;

	if (!c)
		c = strcasecmp(a->rev, b->rev);
	return c ? c : (a > b) - (a < b);
}

/* A commit is measured once per lane: sorted by (lane, rev), a pair twice is side by side. */
static int check_unique(struct jcheck *c, const struct walk_file *w)
{
	const struct walk_commit **by = jcheck_calloc(w->n_commits, sizeof(*by));
	size_t i, first = 0, again = 0;

	if (!by)
		return jcheck_fail(c, "out of memory");
	for (i = 0; i < w->n_commits; i++)
		by[i] = &w->commits[i];
	qsort(by, w->n_commits, sizeof(*by), commit_cmp);
	for (i = 1; i < w->n_commits && !again; i++)
		if (by[i]->lane == by[i - 1]->lane && !strcasecmp(by[i]->rev, by[i - 1]->rev)) {
			first = (size_t)(by[i - 1] - w->commits);
			again = (size_t)(by[i] - w->commits);
		}
	free(by);
	if (!again)
		return 0;
	jcheck_push_key(c, "commits");
	jcheck_push_index(c, again);
	return jcheck_fail(c, "%.*s in lane %s is already commits[%zu]", WALK_SHORT_REV,
			   w->commits[again].rev, host_lane_names[w->commits[again].lane], first);
}

static int read_commits(struct jcheck *c, json_t *root, struct walk_file *w)
{
	json_t *arr, *v;
	size_t i, mark;

	TRY(jcheck_array(c, root, "commits", JCHECK_REQUIRED, RESULT_MAX_ITEMS, &arr));
	w->commits = jcheck_calloc(json_array_size(arr), sizeof(*w->commits));
	if (!w->commits)
		return jcheck_fail(c, "out of memory");
	json_array_foreach(arr, i, v) {
		mark = jcheck_push_key(c, "commits");
		jcheck_push_index(c, i);
		TRY(read_commit(c, v, w, i));
		w->n_commits++;
		jcheck_pop(c, mark);
	}
	return check_unique(c, w);
}

static int read_document(struct jcheck *c, json_t *root, void *p)
{
	struct walk_file *w = p;
	json_t *tool;
	int rc;

	TRY(read_header(c, root));
	rc = jcheck_object(c, root, "tool", JCHECK_OPTIONAL, &tool);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		jcheck_push_key(c, "tool");
		TRY(jcheck_string(c, tool, "name", JCHECK_OPTIONAL, 1, &w->tool_name));
		TRY(jcheck_string(c, tool, "version", JCHECK_OPTIONAL, 1, &w->tool_version));
		jcheck_pop(c, 0);
	}
	TRY(jcheck_string(c, root, "repository", JCHECK_OPTIONAL, 1, &w->repository));
	TRY(jcheck_string(c, root, "range", JCHECK_OPTIONAL, 1, &w->range));
	TRY(jcheck_bool(c, root, "first_parent", JCHECK_OPTIONAL, &w->first_parent));
	TRY(jcheck_int(c, root, "every", JCHECK_OPTIONAL, 1, LLONG_MAX, &w->every));
	TRY(jcheck_bool(c, root, "profile", JCHECK_OPTIONAL, &w->profile));
	TRY(nullable_string(c, root, "commands", &w->commands));
	TRY(read_lanes(c, root, w));
	TRY(read_commits(c, root, w));
	return 0;
}

static void doc_init(void *p)
{
	struct walk_file *w = p;

	w->first_parent = w->profile = -1;
	w->every = -1;
}

static void doc_free(void *p)
{
	walk_free(p);
}

static const struct json_doc_kind doc_kind = {
	.size = sizeof(struct walk_file), .name_off = offsetof(struct walk_file, name),
	.doc_off = offsetof(struct walk_file, doc), .init = doc_init, .read = read_document,
	.free = doc_free,
};

struct walk_file *walk_read_buffer(const char *name, const void *buf, size_t len, struct err *err)
{
	return json_doc_read_buffer(&doc_kind, name, buf, len, err);
}

struct walk_file *walk_read_file(const char *path, struct err *err)
{
	return json_doc_read_file(&doc_kind, path, err);
}

const char *walk_run_path(const struct walk_file *w, const struct walk_commit *c, char *buf, size_t len)
{
	const char *slash = w->name ? strrchr(w->name, '/') : NULL;

	if (!c->run)
		snprintf(buf, len, "%s", "");
	else if (c->run[0] == '/' || !slash)
		snprintf(buf, len, "%s", c->run);
	else
		snprintf(buf, len, "%.*s/%s", (int)(slash - w->name), w->name, c->run);
	return buf;
}

int walk_read_runs(struct walk_file *w, struct err *err)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < w->n_commits; i++) {
		struct walk_commit *c = &w->commits[i];
		int rc;

		if (c->status != WALK_OK || c->rf)
			continue;
		walk_run_path(w, c, path, sizeof(path));
		c->rf = result_read_file(path, err);
		if (!c->rf) {
			rc = err && err->code ? err->code : -EINVAL;
			err_prefix(err, "%s: commits[%zu] (%.*s %s)", w->name, i, WALK_SHORT_REV,
				   c->rev, host_lane_names[c->lane]);
			return rc;
		}
		if (c->rf->kind != RESULT_KIND_RUN)
			return err_set(err, -EINVAL,
				       "%s: commits[%zu] (%.*s %s): %s: a %s result, not a run",
				       w->name, i, WALK_SHORT_REV, c->rev, host_lane_names[c->lane],
				       path, result_kind_names[c->rf->kind]);
	}
	return 0;
}

void walk_free(struct walk_file *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n_commits; i++)
		result_free(w->commits[i].rf);
	free(w->commits);
	json_decref(w->doc);
	free((char *)w->name);
	free(w);
}

int walk_file_is_walk(const char *path)
{
	struct jcheck c = { .name = path };
	json_t *root = json_load_checked_file(&c, path);
	const char *s = json_string_value(json_object_get(root, "schema"));
	int is = s && !strcmp(s, WALK_SCHEMA);

	json_decref(root);
	return is;
}

/* ---- writers ---- */

static json_t *nullable(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *walk_json(const struct walk_file *w)
{
	json_t *o = json_object(), *lanes = json_array(), *commits = json_array();

	if (!o || !lanes || !commits) {
		json_decref(o);
		json_decref(lanes);
		json_decref(commits);
		return NULL;
	}
	json_object_set_new(o, "schema", json_string(WALK_SCHEMA));
	json_object_set_new(o, "schema_version", json_integer(WALK_SCHEMA_VERSION));
	if (w->tool_name || w->tool_version) {
		json_t *t = json_object();

		if (t && w->tool_name)
			json_object_set_new(t, "name", json_string(w->tool_name));
		if (t && w->tool_version)
			json_object_set_new(t, "version", json_string(w->tool_version));
		json_object_set_new(o, "tool", t);
	}
	if (w->repository)
		json_object_set_new(o, "repository", json_string(w->repository));
	if (w->range)
		json_object_set_new(o, "range", json_string(w->range));
	if (w->first_parent >= 0)
		json_object_set_new(o, "first_parent", json_boolean(w->first_parent));
	if (w->every >= 1)
		json_object_set_new(o, "every", json_integer((json_int_t)w->every));
	for (size_t i = 0; i < w->n_lanes; i++)
		json_array_append_new(lanes, json_string(host_lane_names[w->lanes[i]]));
	json_object_set_new(o, "lanes", lanes);
	if (w->profile >= 0)
		json_object_set_new(o, "profile", json_boolean(w->profile));
	if (w->commands)
		json_object_set_new(o, "commands", json_string(w->commands));
	for (size_t i = 0; i < w->n_commits; i++) {
		const struct walk_commit *c = &w->commits[i];

		json_array_append_new(commits, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}",
							 "rev", c->rev,
							 "subject", c->subject ? c->subject : "",
							 "lane", host_lane_names[c->lane],
							 "status", walk_status_names[c->status],
							 "reason", nullable(c->reason),
							 "run", nullable(c->run)));
	}
	json_object_set_new(o, "commits", commits);
	return o;
}

static json_t *pair(const double v[2])
{
	return json_pack("[f, f]", v[0], v[1]);
}

static json_t *step_json(const struct walk_steps *s, const struct walk_step *st)
{
	const struct walk_commit *c = &s->w->commits[st->commit], *from = &s->w->commits[st->from];
	json_t *o = json_pack("{s:s, s:s, s:s, s:f, s:f}", "rev", c->rev, "subject", c->subject,
			      "from_rev", from->rev, "before", st->before, "after", st->after);
	json_t *a;

	if (!o)
		return NULL;
	/* From 0 cycles there is no percentage: null. */
	json_object_set_new(o, "change_pct",
			    isfinite(st->change_pct) ? json_real(st->change_pct) : json_null());
	if (!st->has_path)
		return o;
	json_object_set_new(o, "kernel_insn_per_op", pair(st->kernel_insn));
	a = json_array();
	for (size_t i = 0; a && i < st->n_fns; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "name", st->fns[i].name,
						   "insn_per_op", pair(st->fns[i].insn),
						   "calls_per_op", pair(st->fns[i].calls)));
	json_object_set_new(o, "functions", a);
	if (!st->has_census)
		return o;
	a = json_array();
	for (size_t i = 0; a && i < st->n_census; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "insn", st->census[i].insn,
						   "operand", nullable(st->census[i].operand),
						   "per_op", pair(st->census[i].per_op)));
	json_object_set_new(o, "census", a);
	return o;
}

static json_t *probe_json(const struct walk_steps *s, const struct walk_probe *p)
{
	json_t *figs = json_array(), *steps = json_array(), *gaps = json_array();

	for (size_t i = 0; figs && i < p->n_figs; i++)
		json_array_append_new(figs, json_pack("{s:s, s:f}",
						      "rev", s->w->commits[p->figs[i].commit].rev,
						      "cycles", p->figs[i].cycles));
	for (size_t i = 0; gaps && i < p->n_gaps; i++)
		json_array_append_new(gaps, json_string(s->w->commits[p->gaps[i]].rev));
	for (size_t i = 0; steps && i < p->n_steps; i++)
		json_array_append_new(steps, step_json(s, &p->steps[i]));
	return json_pack("{s:s, s:o, s:o, s:o}", "name", p->name, "figures", figs,
			 "not_measured", gaps, "steps", steps);
}

static json_t *lane_json(const struct walk_steps *s, const struct walk_lane *l)
{
	json_t *probes = json_array(), *two = json_array(), *skipped = json_array();

	for (size_t i = 0; probes && i < l->n_probes; i++)
		json_array_append_new(probes, probe_json(s, &l->probes[i]));
	for (size_t i = 0; two && i < l->n_two_vcpu; i++)
		json_array_append_new(two, json_string(l->two_vcpu[i]));
	for (size_t i = 0; skipped && i < l->n_skipped; i++) {
		const struct walk_commit *c = &s->w->commits[l->skipped[i]];

		json_array_append_new(skipped,
				      json_pack("{s:s, s:s}", "rev", c->rev, "reason", c->reason));
	}
	return json_pack("{s:s, s:I, s:o, s:o, s:o}", "lane", host_lane_names[l->lane],
			 "ok_commits", (json_int_t)l->n_ok, "probes", probes,
			 "not_judged_two_vcpus", two, "skipped", skipped);
}

json_t *walk_steps_json(const struct walk_steps *s)
{
	json_t *lanes = json_array();

	for (size_t i = 0; lanes && i < s->n_lanes; i++)
		json_array_append_new(lanes, lane_json(s, &s->lanes[i]));
	return json_pack("{s:s, s:i, s:s, s:f, s:f, s:o}", "schema", WALK_STEPS_SCHEMA,
			 "schema_version", WALK_STEPS_SCHEMA_VERSION,
			 "walk", s->w->name ? s->w->name : "", "spread_pct", s->spread_pct,
			 "floor_cycles", s->floor_cycles, "lanes", lanes);
}

/* doc (its reference taken) to path ("-": stdout) atomically. */
static int doc_write(json_t *doc, const char *path, struct err *err)
{
	struct outfile o;
	int r;

	if (!doc)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	r = outfile_open(&o, path, err);
	if (!r && (json_dumpf(doc, o.f, RESULT_DUMP_FLAGS) || fputc('\n', o.f) == EOF)) {
		int e = o.err ? o.err : EIO;

		outfile_abort(&o);
		r = err_set(err, -e, "%s: %s", path, strerror(e));
	} else if (!r) {
		r = outfile_commit(&o, err);
	}
	json_decref(doc);
	return r;
}

int walk_write(const struct walk_file *w, const char *path, struct err *err)
{
	return doc_write(walk_json(w), path, err);
}

int walk_steps_write(const struct walk_steps *s, const char *path, struct err *err)
{
	return doc_write(walk_steps_json(s), path, err);
}
