// SPDX-License-Identifier: GPL-2.0-only
/* walk_model.c - the walk file's reader and writer, and the steps document's writer (walk_model.h). */
#include <errno.h>
#include <limits.h>
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
	FIELD_CSTR(struct walk_commit, reason, "reason", FIELD_NULL | FIELD_EMPTY_OK),
	FIELD_CSTR(struct walk_commit, run, "run", FIELD_NULL | FIELD_EMPTY_OK),
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
	/* "" too: a walk list's empty commands line */
	FIELD_CSTR(struct walk_file, commands, "commands",
		   FIELD_NULL | FIELD_EMPTY_OK | FIELD_OMIT_NULL),
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

/*
 * The steps document's tables (written only). A step, a figure and a
 * skipped commit reach their commit through a pointer: its fields go into
 * their object (FIELD_DEREF | FIELD_INLINE); a figure's, the rev alone.
 */
#define WC struct walk_commit
static const struct field rev_subject_table[] = {
	FIELD_CSTR(WC, rev, "rev", 0),
	FIELD_CSTR(WC, subject, "subject", 0),
};
static const struct field_desc rev_subject_fields = FIELD_DESC("walk_rev", rev_subject_table);
static const struct field_desc rev_fields = { .name = "walk_rev", .f = rev_subject_table, .n = 1 };
static const struct field from_table[] = { FIELD_CSTR(WC, rev, "from_rev", 0) };
static const struct field_desc from_fields = FIELD_DESC("walk_from", from_table);
static const struct field skip_table[] = {
	FIELD_CSTR(WC, rev, "rev", 0),
	FIELD_CSTR(WC, reason, "reason", 0),
};
static const struct field_desc skip_fields = FIELD_DESC("walk_skip", skip_table);
/* An element of skipped is the pointer to the commit itself. */
static const struct field skipped_table[] = {
	{ "", FIELD_T_OBJECT, 0, FIELD_DEREF | FIELD_INLINE, .sub = &skip_fields },
};
static const struct field_desc skipped_fields = FIELD_DESC("walk_skipped", skipped_table);
#undef WC

/* [before, after] pairs: two doubles of an array, one after the other. */
#define PAIR(st, m, key) FIELD_NUMS_FIXED(st, m[0], key, 0, 2, sizeof(double))
static const struct field fn_table[] = {
	FIELD_CSTR(struct walk_fn_change, name, "name", 0),
	PAIR(struct walk_fn_change, insn, "insn_per_op"),
	PAIR(struct walk_fn_change, calls, "calls_per_op"),
};
static const struct field_desc fn_fields = FIELD_DESC("walk_fn_change", fn_table);
static const struct field census_table[] = {
	FIELD_CSTR(struct walk_census_change, insn, "insn", 0),
	FIELD_CSTR(struct walk_census_change, operand, "operand", FIELD_NULL),
	PAIR(struct walk_census_change, per_op, "per_op"),
};
static const struct field_desc census_fields = FIELD_DESC("walk_census_change", census_table);

#define WS struct walk_step
static const struct field step_table[] = {
	FIELD_OBJ_PTR(WS, c, "", FIELD_INLINE, &rev_subject_fields),
	FIELD_OBJ_PTR(WS, from, "", FIELD_INLINE, &from_fields),
	FIELD_NUM(WS, before, "before", 0),
	FIELD_NUM(WS, after, "after", 0),
	FIELD_NUM(WS, change_pct, "change_pct", FIELD_SIGNED | FIELD_NULL),	/* null from 0 */
	/* When both runs have the probe's exit path; the census when both have one. */
	{ "kernel_insn_per_op", FIELD_T_NUMS, FIELD_OFF(WS, kernel_insn[0], double),
	  FIELD_FIXED | FIELD_PRESENT, .max = 2, .elem = sizeof(double),
	  .off_present = FIELD_OFF(WS, has_path, bool) },
	FIELD_ARRAY_P(WS, fns, n_fns, has_path, "functions", 0, &fn_fields, struct walk_fn_change,
		      RESULT_MAX_ITEMS),
	FIELD_ARRAY_P(WS, census, n_census, has_census, "census", 0, &census_fields,
		      struct walk_census_change, RESULT_MAX_ITEMS),
};
#undef WS
#undef PAIR
static const struct field_desc step_fields = FIELD_DESC("walk_step", step_table);

static const struct field fig_table[] = {
	FIELD_OBJ_PTR(struct walk_fig, c, "", FIELD_INLINE, &rev_fields),
	FIELD_NUM(struct walk_fig, cycles, "cycles", 0),
};
static const struct field_desc fig_fields = FIELD_DESC("walk_fig", fig_table);

/* A probe's gaps: their commits' revs. */
static json_t *gaps_write(const void *p, bool *omit)
{
	const struct walk_probe *wp = p;
	json_t *a = json_array();

	for (size_t i = 0; a && i < wp->n_gaps; i++)
		if (json_array_append_new(a, json_string(wp->gaps[i]->rev))) {
			json_decref(a);
			return NULL;
		}
	return a;
}
static const struct field_custom gaps_custom = { gaps_write, NULL, NULL };

static const struct field probe_table[] = {
	FIELD_CSTR(struct walk_probe, name, "name", 0),
	FIELD_ARRAY(struct walk_probe, figs, n_figs, "figures", 0, &fig_fields, struct walk_fig,
		    RESULT_MAX_ITEMS, NULL),
	FIELD_CUSTOM("not_measured", 0, &gaps_custom),
	FIELD_ARRAY(struct walk_probe, steps, n_steps, "steps", 0, &step_fields, struct walk_step,
		    RESULT_MAX_ITEMS, NULL),
};
static const struct field_desc probe_fields = FIELD_DESC("walk_probe", probe_table);

static const struct field lane_table[] = {
	FIELD_ENUM(struct walk_lane, lane, "lane", 0, host_lane_names, HOST_LANE_N),
	FIELD_SIZE(struct walk_lane, n_ok, "ok_commits", 0, RESULT_MAX_ITEMS),
	FIELD_ARRAY(struct walk_lane, probes, n_probes, "probes", 0, &probe_fields,
		    struct walk_probe, RESULT_MAX_ITEMS, NULL),
	FIELD_STRINGS(struct walk_lane, two_vcpu, n_two_vcpu, "not_judged_two_vcpus", 0,
		      RESULT_MAX_ITEMS),
	FIELD_ARRAY(struct walk_lane, skipped, n_skipped, "skipped", 0, &skipped_fields,
		    const struct walk_commit *, RESULT_MAX_ITEMS, NULL),
};
static const struct field_desc lane_fields = FIELD_DESC("walk_lane", lane_table);

static const struct field walk_name_table[] = { FIELD_CSTR(struct walk_file, name, "walk", 0) };
static const struct field_desc walk_name_fields = FIELD_DESC("walk_name", walk_name_table);
static const struct field steps_table[] = {
	FIELD_CONST_STR("schema", WALK_STEPS_SCHEMA),
	FIELD_CONST_INT("schema_version", WALK_STEPS_SCHEMA_VERSION),
	FIELD_OBJ_PTR(struct walk_steps, w, "", FIELD_INLINE, &walk_name_fields),
	FIELD_NUM(struct walk_steps, spread_pct, "spread_pct", 0),
	FIELD_NUM(struct walk_steps, floor_cycles, "floor_cycles", 0),
	FIELD_ARRAY(struct walk_steps, lanes, n_lanes, "lanes", 0, &lane_fields, struct walk_lane,
		    HOST_LANE_N, NULL),
};
static const struct field_desc steps_fields = FIELD_DESC("walk_steps", steps_table);

json_t *walk_steps_json(const struct walk_steps *s)
{
	return fields_write(&steps_fields, s);
}

/* doc (its reference taken) to path ("-": stdout) atomically. */
static int doc_write(json_t *doc, const char *path, struct err *err)
{
	int r = doc ? result_write_as_is(doc, path, err) :
		      err_set(err, -ENOMEM, "%s: out of memory", path);

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
