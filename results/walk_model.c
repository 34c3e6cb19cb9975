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

/*
 * A member that is a string ("" too: a walk list's empty "commands") or null
 * (absent: NULL): its custom hooks. The writer writes NULL as null, or
 * leaves it out (omit_null). FIELD_CSTR with FIELD_NULL would refuse "".
 */
#define WALK_NULLABLE(name, st, m, omit_null)						\
static json_t *name##_write(const void *p, bool *omit)					\
{											\
	const char *s = ((const st *)p)->m;						\
											\
	*omit = !s && (omit_null);							\
	return s ? json_string(s) : *omit ? NULL : json_null();				\
}											\
static int name##_read(struct jcheck *c, json_t *obj, void *p)				\
{											\
	json_t *v = json_object_get(obj, #name);					\
											\
	((st *)p)->m = NULL;								\
	return !v || json_is_null(v) ? 0 :						\
	       jcheck_string(c, obj, #name, JCHECK_REQUIRED, 1, &((st *)p)->m);		\
}											\
static const struct field_custom name##_custom = { name##_write, name##_read, NULL }

static int is_rev(const char *s)
{
	return strlen(s) == WALK_REV_LEN && strspn(s, "0123456789abcdefABCDEF") == WALK_REV_LEN;
}

/* Before the table: a file that is no walk is told so, another version named. */
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

static int read_lanes(struct jcheck *c, json_t *root, void *p)
{
	struct walk_file *w = p;
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

/* A commit's rules across its fields: a full rev, and what its status needs. */
static int commit_check(struct jcheck *c, const void *p)
{
	const struct walk_commit *wc = p;
	char q[80];

	if (!is_rev(wc->rev)) {
		jcheck_push_key(c, "rev");
		return jcheck_fail(c, "\"%s\" is not %d hexadecimal digits",
				   jcheck_quote(wc->rev, q, sizeof(q)), WALK_REV_LEN);
	}
	if (wc->status == WALK_SKIP && (!wc->reason || !*wc->reason))
		return jcheck_fail(c, "status \"skip\" needs a \"reason\"");
	if (wc->status == WALK_OK && (!wc->run || !*wc->run))
		return jcheck_fail(c, "status \"ok\" needs a \"run\" (the commit's run.json)");
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

/* The walk's rules across its commits: each in one of its lanes, each (rev, lane) once. */
static int walk_check(struct jcheck *c, const void *p)
{
	const struct walk_file *w = p;

	for (size_t i = 0; i < w->n_commits; i++) {
		if (lane_listed(w, w->commits[i].lane))
			continue;
		jcheck_push_key(c, "commits");
		jcheck_push_index(c, i);
		jcheck_push_key(c, "lane");
		return jcheck_fail(c, "\"%s\" is not one of the walk's \"lanes\"",
				   host_lane_names[w->commits[i].lane]);
	}
	return check_unique(c, w);
}

WALK_NULLABLE(reason, struct walk_commit, reason, false);
WALK_NULLABLE(run, struct walk_commit, run, false);
WALK_NULLABLE(commands, struct walk_file, commands, true);

static json_t *lanes_write(const void *p, bool *omit)
{
	const struct walk_file *w = p;
	json_t *a = json_array();

	for (size_t i = 0; a && i < w->n_lanes; i++)
		if (json_array_append_new(a, json_string(host_lane_names[w->lanes[i]]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static const struct field_custom lanes_custom = { lanes_write, read_lanes, NULL };

static const struct field commit_table[] = {
	FIELD_CSTR(struct walk_commit, rev, "rev", FIELD_REQUIRED),
	FIELD_CSTR(struct walk_commit, subject, "subject", FIELD_REQUIRED | FIELD_EMPTY_OK),
	FIELD_ENUM(struct walk_commit, lane, "lane", FIELD_REQUIRED, host_lane_names, HOST_LANE_N),
	FIELD_ENUM(struct walk_commit, status, "status", FIELD_REQUIRED, walk_status_names,
		   WALK_STATUS_N),
	FIELD_CUSTOM("reason", 0, &reason_custom),
	FIELD_CUSTOM("run", 0, &run_custom),
};
const struct field_desc walk_commit_fields = FIELD_DESC_CHECK("walk_commit", commit_table,
							      commit_check);

static const struct field tool_table[] = {
	FIELD_CSTR(struct walk_file, tool_name, "name", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
	FIELD_CSTR(struct walk_file, tool_version, "version", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
};
const struct field_desc walk_tool_fields = FIELD_DESC("walk_tool", tool_table);

static const struct field walk_table[] = {
	FIELD_CONST_STR("schema", WALK_SCHEMA),		/* read_header before them */
	FIELD_CONST_INT("schema_version", WALK_SCHEMA_VERSION),
	FIELD_OBJ_FLAT("tool", FIELD_OMIT_ZERO, &walk_tool_fields),
	FIELD_CSTR(struct walk_file, repository, "repository", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
	FIELD_CSTR(struct walk_file, range, "range", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
	FIELD_FLAG(struct walk_file, first_parent, "first_parent", FIELD_OMIT_NEG),
	FIELD_INT(struct walk_file, every, "every", FIELD_OMIT_ZERO | FIELD_OMIT_NEG, 1, LLONG_MAX),
	FIELD_CUSTOM("lanes", FIELD_REQUIRED, &lanes_custom),
	FIELD_FLAG(struct walk_file, profile, "profile", FIELD_OMIT_NEG),
	FIELD_CUSTOM("commands", 0, &commands_custom),
	FIELD_ARRAY(struct walk_file, commits, n_commits, "commits", FIELD_REQUIRED,
		    &walk_commit_fields, struct walk_commit, RESULT_MAX_ITEMS, NULL),
};
const struct field_desc walk_fields = FIELD_DESC_CHECK("walk", walk_table, walk_check);

static int read_document(struct jcheck *c, json_t *root, void *p)
{
	struct walk_file *w = p;

	TRY(read_header(c, root));
	TRY(fields_read(c, root, &walk_fields, w));
	/* A commit has a run or a reason, never both. */
	for (size_t i = 0; i < w->n_commits; i++) {
		if (w->commits[i].status == WALK_OK)
			w->commits[i].reason = NULL;
		else
			w->commits[i].run = NULL;
	}
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

json_t *walk_json(const struct walk_file *w)
{
	return fields_write(&walk_fields, w);
}

static json_t *nullable(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *pair(const double v[2])
{
	return json_pack("[f, f]", v[0], v[1]);
}

static json_t *step_json(const struct walk_steps *s, const struct walk_step *st)
{
	const struct walk_commit *c = st->c, *from = st->from;
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
						      "rev", p->figs[i].c->rev,
						      "cycles", p->figs[i].cycles));
	for (size_t i = 0; gaps && i < p->n_gaps; i++)
		json_array_append_new(gaps, json_string(p->gaps[i]->rev));
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
		const struct walk_commit *c = l->skipped[i];

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
