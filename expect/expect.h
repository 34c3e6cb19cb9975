/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * expect.h - the expectation language of the lanes (man exitscope-expect):
 * an expectations file parsed into lines, and judged against a lane's
 * results directory, every figure read through the query engine
 * (results/query_text.h). One parser and one judge: `exitscope expect`
 * and scripts/lane-assert use it. An A/B file (expect --ab) holds the A/B
 * kinds, judged on the comparisons of an A/B output directory; a file of
 * facts between kernels (expect --across) the across kinds, judged on the
 * lanes' runs of each kernel.
 */
#ifndef EXITSCOPE_EXPECT_EXPECT_H
#define EXITSCOPE_EXPECT_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

enum expect_kind {
	EXPECT_RC, EXPECT_VALUE, EXPECT_COUNT, EXPECT_SUM, EXPECT_FIELD, EXPECT_MODE,
	EXPECT_MAP, EXPECT_MAPTRACE, EXPECT_PROBE, EXPECT_TRACE, EXPECT_CHECK, EXPECT_SOMEOF,
	EXPECT_PROFILE,
	/* the A/B kinds (struct expect_opts's ab) */
	EXPECT_PAIR, EXPECT_VERDICT, EXPECT_EXITS, EXPECT_PEROP, EXPECT_WITHIN, EXPECT_PCT,
	EXPECT_AB_MAP, EXPECT_MAPCHANGES, EXPECT_AB_CHECK, EXPECT_PATH, EXPECT_CENSUS,
	EXPECT_ABOUT,
	/* the kinds between kernels (struct expect_opts's across) */
	EXPECT_FASTER, EXPECT_NEAR, EXPECT_BELOW, EXPECT_SAME_OWNERSHIP,
};

#define EXPECT_INCLUDE_DEPTH	8		/* includes nested at most this deep */
#define EXPECT_FILE_MAX		(1u << 20)	/* bytes of one expectations file */

/* One expectation: a line of a file, with the includes expanded. */
struct expect_line {
	enum expect_kind kind;
	const char *file;	/* the file it stands in (owned by the expect_file) */
	unsigned lineno;
	char *text;		/* as written, without comment, "require " and "?" */
	bool require;		/* when it fails, the rest is not checked */
	bool optional;		/* skipped, not failed, when what it is about is missing */
	char **w;		/* the words after the kind */
	size_t nw;
};

struct expect_file {
	char *path;		/* as given */
	struct expect_line *lines;
	size_t n;
	char **files;		/* every file read (the top one and its includes) */
	size_t nfiles;
};

/* Where the judge writes and how it compares. */
struct expect_opts {
	double tol;		/* NUM "N" holds for |x-N| <= tol */
	FILE *out;		/* the ok / FAIL / skip lines and the summary */
	FILE *errs;		/* parse errors: "WHO: FILE:LINE: why", one line each;
				 * NULL: the first one in err instead, "FILE:LINE: why" */
	const char *who;	/* the name in front of a parse error */
	bool ab;		/* an A/B file: the A/B kinds, map and check as A -> B */
	bool across;		/* a file of facts between kernels: the across kinds */
};

/* x meets the NUM spec: "N" within tol, >=N, <=N (with tol), >N, <N. */
bool expect_num_holds(const char *spec, double x, double tol);

/* The name of a kind ("value"). */
const char *expect_kind_name(enum expect_kind k);

/*
 * Read path (and what it includes) into ef. 0; or a negative errno with
 * why in err: the file cannot be read (or holds a NUL byte), or some lines
 * do not parse (each printed to o->errs first, "WHO: FILE:LINE: why", and
 * err says how many; without o->errs err is the first of them).
 * expect_file_free() it either way.
 */
int expect_parse(const char *path, struct expect_file *ef, const struct expect_opts *o,
		 struct err *err);
void expect_file_free(struct expect_file *ef);

/*
 * Judge ef against the results in dir (NAME.json and NAME.rc for each
 * block, "absent": the blocks whose command the binary lacked), printing
 * "  ok    ...", "  FAIL  ...", "  skip  ..." lines and the summary
 * "lane-assert: N passed, M failed, K skipped" to o->out. Returns 0 when
 * nothing failed and something passed, 1 otherwise, or -ENOMEM.
 */
int expect_judge(const struct expect_file *ef, const char *dir, const struct expect_opts *o);

/*
 * Judge an A/B file ef (parsed with o->ab) on the A/B output directory
 * dir (compare-BASE-NEW-BLOCK.json, each side's SIDE/results/, dropped):
 * the pairs compared, "BASE:NEW" each, the first the default. Prints
 * "  ok    BASE->NEW: ..." (FAIL, skip) lines and the summary
 * "lane-ab: expectations: N passed, M failed, K skipped" to o->out.
 * Returns 0 when nothing failed and something passed, 1 otherwise, or
 * -ENOMEM.
 */
int expect_judge_ab(const struct expect_file *ef, const char *dir, char *const *pairs,
		    size_t npairs, const struct expect_opts *o);

/*
 * Judge a file of facts between kernels ef (parsed with o->across) on
 * dir, the output of scripts/lane-kernels: LANE-SOURCE/results/run.json
 * and map.json for each lane and kernel source run. lanes and sources:
 * the lanes and sources run, blank-separated; NULL: those of dir's
 * LANE-SOURCE directories. A line about a lane or source not run is
 * skipped. Prints "  ok    ..." (FAIL, skip) lines and the summary
 * "lane-kernels: across: N passed, M failed, K skipped" to o->out.
 * Returns 0 when nothing failed and something passed, 1 otherwise, or
 * -ENOMEM.
 */
int expect_judge_across(const struct expect_file *ef, const char *dir, const char *lanes,
			const char *sources, const struct expect_opts *o);

#endif
