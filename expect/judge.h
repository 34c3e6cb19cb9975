/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * judge.h - inside expect/: the state of a judge and the helpers the lane
 * judge (expect_judge.c), the A/B judge (expect_ab.c) and the judge
 * between kernels (expect_across.c) share: strings
 * that live for one line, the ok/FAIL/skip lines, numbers as awk reads
 * them, and figures read through the query engine.
 */
#ifndef EXITSCOPE_EXPECT_JUDGE_H
#define EXITSCOPE_EXPECT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "expect/expect.h"
#include "results/query_text.h"

struct block {
	char *name;		/* a lane block's name; in an A/B, the file's path */
	struct query_file *qf;	/* NULL: not valid */
};

struct judge {
	const struct expect_opts *o;
	const char *dir;
	struct block *blocks;	/* an A/B: every file read so far, loaded on first use */
	size_t nblocks, capblocks;
	char *absent;		/* dir/absent, "" when there is none */
	unsigned pass, fail, skip;
	bool oom;
	char **tmp;		/* strings made for the line being judged */
	size_t ntmp, captmp;
	const struct expect_line *l;
	const char *profile;	/* a profile line's NAME or "*"; NULL: host, else the first */
	bool ab;		/* an A/B: the lines start with "BASE->NEW: " */
	const char *base, *new;	/* the pair an A/B line is about */
	bool files;		/* across kernels: blocks are files by path, as in an A/B */
};

/* s kept until the line is judged (NULL: out of memory, "" returned). */
char *ej_keep(struct judge *j, char *s);
__attribute__((format(printf, 2, 3)))
char *ej_fmt(struct judge *j, const char *f, ...);
void ej_tmp_free(struct judge *j);
char *ej_chomp(char *s);
char *ej_first_line(struct judge *j, const char *s);
char **ej_lines_of(struct judge *j, char *s, size_t *n);

__attribute__((format(printf, 2, 3)))
void ej_ok(struct judge *j, const char *f, ...);
__attribute__((format(printf, 2, 3)))
void ej_bad(struct judge *j, const char *f, ...);
__attribute__((format(printf, 2, 3)))
void ej_skip(struct judge *j, const char *f, ...);

double ej_awk_num(const char *s);
bool ej_num_holds(const struct judge *j, const char *x, const char *spec);
bool ej_is_number(const char *s);
bool ej_one_of(struct judge *j, const char *st, const char *alts);

struct block *ej_block_find(const struct judge *j, const char *name);
/* A block (in an A/B, a file by path), loaded when an A/B first reads it; NULL: no memory. */
struct block *ej_block(struct judge *j, const char *name);
char *ej_q(struct judge *j, const char *block, const char *path, int *rc, const char **qerr);
char *ej_qs(struct judge *j, const char *block, const char *path);
char *ej_qv(struct judge *j, const char *block, const char *path);

/* Free what the judge holds: its line's strings, its blocks, absent. */
void ej_release(struct judge *j);
/*
 * Judge ef's lines in order, each by line(ctx, l) (a required one that
 * fails ends it), then print "WHO: [WHAT: ]N passed, N failed, N skipped".
 * 0 when nothing failed and something passed, 1 when not, -ENOMEM.
 */
int ej_run(struct judge *j, const struct expect_file *ef, const char *who, const char *what,
	   void (*line)(void *ctx, const struct expect_line *l), void *ctx);

/* The compare and walk steps documents: their envelope is what is checked, as query does. */
extern const struct query_envelope ej_envelopes[];
extern const size_t ej_nenvelopes;

#endif
