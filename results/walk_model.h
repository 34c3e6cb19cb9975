/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * walk_model.h - the lanes on a kernel tree, commit by commit: the walk file
 * scripts/lane-walk writes (WALK_SCHEMA, docs/results-schema.md "Walk
 * files"), its reader and writer; and the steps document `exitscope walk
 * --json` writes (WALK_STEPS_SCHEMA), whose model compare/walk_steps.c
 * fills.
 */
#ifndef EXITSCOPE_RESULTS_WALK_MODEL_H
#define EXITSCOPE_RESULTS_WALK_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "base/err.h"
#include "results/field.h"
#include "results/host_record_model.h"
#include "results/result_read.h"

#define WALK_SCHEMA			"exitscope-walk"
#define WALK_SCHEMA_VERSION		1
#define WALK_STEPS_SCHEMA		"exitscope-walk-steps"
#define WALK_STEPS_SCHEMA_VERSION	1
#define WALK_REV_LEN			40	/* a commit's full hexadecimal name */
#define WALK_SHORT_REV			12	/* how output names a commit */

/* A commit's outcome in one lane ("commits[].status"). */
enum walk_status { WALK_OK, WALK_SKIP, WALK_STATUS_N };
extern const char *const walk_status_names[WALK_STATUS_N];	/* "ok", "skip" */

/*
 * One commit measured (or not) in one lane. Strings point into the parsed
 * document (or, written, are the caller's).
 */
struct walk_commit {
	const char *rev;			/* WALK_REV_LEN hexadecimal digits */
	const char *subject;			/* its first line; may be "" */
	enum host_lane_name lane;		/* one of the walk's lanes */
	enum walk_status status;
	const char *reason;			/* skip: one line ("build: ..."); ok: NULL */
	const char *run;			/* ok: its run.json, relative to the walk file's
						 * directory (or absolute); skip: NULL */
	struct result_file *rf;			/* walk_read_runs: the run read; NULL for skip */
};

struct walk_file {
	const char *name;			/* as given to the reader (copied); NULL written */
	const char *tool_name, *tool_version;	/* optional */
	const char *repository;			/* optional: the kernel tree */
	const char *range;			/* optional: as the user gave it */
	int first_parent;			/* optional: -1 absent, else 0/1 */
	long long every;			/* optional: every Nth commit; -1 absent */
	enum host_lane_name lanes[HOST_LANE_N];	/* in the file's order, each once */
	size_t n_lanes;				/* >= 1 */
	int profile;				/* optional: -1 absent, else 0/1 */
	const char *commands;			/* optional: the command list beside the file */
	struct walk_commit *commits;		/* oldest first, as given */
	size_t n_commits;
	void *doc;				/* read back: the parsed document */
};

/*
 * Read and validate a walk file (the document only: walk_read_runs reads
 * the runs). NULL with one line in err naming the file and the JSON path,
 * as result_read_file: "walk.json: commits[2].rev: \"abc\" is not 40
 * hexadecimal digits". walk_free() it.
 */
struct walk_file *walk_read_file(const char *path, struct err *err);
struct walk_file *walk_read_buffer(const char *name, const void *buf, size_t len,
				   struct err *err);

/*
 * Read every ok commit's run (a run result file) through result_read_file,
 * its path taken relative to the directory of the walk file's name. 0, or
 * -errno with one line naming the walk file, the commit and the run file:
 * "w/walk.json: commits[3] (0123456789ab vmx): w/vmx/0123.../run.json:
 * cannot open: No such file or directory".
 */
int walk_read_runs(struct walk_file *w, struct err *err);

/* The run path of commit c resolved against the walk file's directory into buf; buf. */
const char *walk_run_path(const struct walk_file *w, const struct walk_commit *c, char *buf, size_t len);

/* Free what the reader allocated, the runs too. */
void walk_free(struct walk_file *w);

/*
 * The walk file's fields (results/field.h), held against docs/walk-schema.json
 * by tests/test_walk_schema.c: the document, its "tool" and a commit.
 */
extern const struct field_desc walk_fields, walk_tool_fields, walk_commit_fields;

/* The document (WALK_SCHEMA) of w; NULL when out of memory. For tests and tools. */
json_t *walk_json(const struct walk_file *w);
/*
 * Write it to path ("-": stdout) atomically (results/outfile.h). 0, or -errno
 * with "PATH: reason".
 */
int walk_write(const struct walk_file *w, const char *path, struct err *err);

/*
 * Is the file at path a walk file by its "schema" (for commands that take
 * a walk file where they also take result files)? 1 or 0; a file that
 * cannot be read or parsed is 0 (its reader then says why).
 */
int walk_file_is_walk(const char *path);

/*
 * The steps document: per lane, per one-vCPU probe, its lane cycles at
 * every ok commit where it ran and the steps among them. Filled by
 * compare/walk_steps.c (commits and strings borrowed from the walk and its
 * runs), written by walk_model.c's field tables.
 */
struct walk_fig {
	const struct walk_commit *c;		/* the commit (one of the walk's) */
	double cycles;				/* the probe's cycles.median in that run */
};

struct walk_fn_change {
	const char *name;
	double insn[2], calls[2];		/* per op, [0] before, [1] after */
};

/* A census row (a costly instruction kind and operand) whose executions per op changed. */
struct walk_census_change {
	const char *insn, *operand;		/* operand may be NULL */
	double per_op[2];			/* [0] before, [1] after */
};

struct walk_step {
	const struct walk_commit *c, *from;	/* the commit, and the ok commit before it */
	double before, after, change_pct;	/* lane cycles, after vs before in % */
	bool has_path;				/* both runs have the probe's exit path */
	double kernel_insn[2];			/* L1 kernel instructions per op (has_path) */
	struct walk_fn_change *fns;		/* changed functions, largest first (has_path) */
	size_t n_fns;
	bool has_census;			/* both exit paths have a census */
	struct walk_census_change *census;	/* its changed rows (has_census) */
	size_t n_census;
};

struct walk_probe {
	const char *name;
	struct walk_fig *figs;			/* commits where it was ok, oldest first */
	size_t n_figs;
	struct walk_step *steps;
	size_t n_steps;
	const struct walk_commit **gaps;	/* ok commits where it did not run ok (or is absent) */
	size_t n_gaps;
};

struct walk_lane {
	enum host_lane_name lane;
	size_t n_ok;				/* ok commits of the lane */
	struct walk_probe *probes;		/* one-vCPU probes, first run's order */
	size_t n_probes;
	const char **two_vcpu;			/* probes not judged: they run two vCPUs */
	size_t n_two_vcpu;
	const struct walk_commit **skipped;	/* the lane's skip commits */
	size_t n_skipped;
};

struct walk_steps {
	const struct walk_file *w;
	double spread_pct, floor_cycles;	/* what a step is larger than */
	struct walk_lane *lanes;		/* in the walk's lane order */
	size_t n_lanes;
};

/* The steps document; NULL when out of memory. */
json_t *walk_steps_json(const struct walk_steps *s);
/*
 * Write it to path ("-": stdout) atomically (results/outfile.h). 0, or -errno
 * with "PATH: reason".
 */
int walk_steps_write(const struct walk_steps *s, const char *path, struct err *err);

#endif
