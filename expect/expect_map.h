/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * expect_map.h - the map lines of an expectations file (man
 * exitscope-expect), judged once: which entries a line names, and whether
 * an entry's status and exits/op meet it. The lane judge (expect_judge.c)
 * and `exitscope map --tap --expect FILE` both call these.
 *
 * For the map command a file is read against the entries and profiles the
 * map will have (expect_map_read: an unknown entry, status or profile is
 * an error naming FILE:LINE, a file with no map line too), the measured map
 * is judged line by line (expect_map_judge), each test handed to a sink
 * as its description and evidence; lines of the language's other kinds are
 * kept as skipped, with the reason.
 */
#ifndef EXITSCOPE_EXPECT_EXPECT_MAP_H
#define EXITSCOPE_EXPECT_EXPECT_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "results/map_model.h"

#define EXPECT_MAP_TOL	0.1	/* NUM "N" holds within it (lane-assert's LANE_TOL) */

/* STATUS[|STATUS...] as a mask of 1 << enum map_status; -EINVAL: an unknown one ("stopped" too). */
int expect_map_statuses(const char *s, unsigned *mask);

/* Whether a line's NAME (the name in any case, a toggle's bit number, "*") names the entry. */
bool expect_map_names(const char *name, const char *entry_name, long long bit, const char *op);

/* How an entry meets a map line. */
enum expect_map_verdict {
	EXPECT_MAP_MET,
	EXPECT_MAP_BAD_STATUS,		/* not one of the statuses */
	EXPECT_MAP_BAD_NUM,		/* the status, not the exits/op */
	/* on the measuring host (here): */
	EXPECT_MAP_STOPPED,		/* not measured (Ctrl-C): not met */
	EXPECT_MAP_HOST_SKIPPED,	/* the host skipped it, unexpected: not judged */
	EXPECT_MAP_HOST_EMULATES,	/* owned/intercepted expected, emulated: not judged */
};

/*
 * An entry of status st (-1: unknown) with exits exits/op (< 0: not
 * measured) against the statuses want and NUM num ("" none; "N" holds
 * within tol; not checked for a rejected or skipped entry). here: judged where it was measured
 * (map --tap): stopped, an unexpected skip or emulation are said as such;
 * else (a lane's recorded map) they are a status not met.
 */
enum expect_map_verdict expect_map_verdict(unsigned want, const char *num, double tol, int st,
					   double exits, bool here);

struct expect_map_line {
	char file[256];			/* the file it stands in (an include's) */
	unsigned lineno;
	char profile[MAP_CPUID_PROFILE_LEN];	/* "*": every profile */
	char reg[MAP_KEY_LEN], name[MAP_KEY_LEN], op[MAP_KEY_LEN];	/* name "*": all */
	unsigned statuses;		/* 1 << enum map_status */
	char num[32];			/* NUM as written, "" none */
	char text[160];			/* the line as written (for messages) */
};

struct expect_map {
	char path[256];
	struct expect_map_line *l;
	size_t n;
	char **skipped;			/* other kinds' lines: "skip FILE:LINE: TEXT (why)" */
	size_t nskipped;
};

/* What the map will have: its entries (reg, name, op, bit) and its profiles' names. */
struct expect_map_known {
	const struct result_map_entry *e;
	size_t n;
	const char *const *profiles;
	size_t np;
};

/*
 * Read path for a map that will have k. 0, or -EINVAL (a bad line, an
 * entry, status or profile it will not have, no map line) / -errno (the
 * file cannot be read) with a one-line message in err; nothing to free then.
 */
int expect_map_read(const char *path, const struct expect_map_known *k, struct expect_map *x,
		    struct err *err);
void expect_map_free(struct expect_map *x);

/* One test of a map: a line about an entry of a profile. */
struct expect_map_test {
	bool pass;
	const char *skip;		/* NULL, or why it is not judged */
	const char *desc;		/* "PROFILE REG.NAME: STATUS[|..] [NUM exits/op]" */
	/* the evidence ("" when absent) */
	const char *expected, *status, *exits, *detail, *where;
};

/* Where the tests go: the plan (their count) first, then each test, then the comments. */
struct expect_map_sink {
	void (*plan)(void *ctx, unsigned n);
	void (*test)(void *ctx, const struct expect_map_test *t);
	void (*comment)(void *ctx, const char *text);
};

/*
 * Judge map against x: the plan, a comment when the host emulates guest
 * code, one test per line, profile and entry it names, then comments:
 * per profile the entries no line names, the lines skipped, the count.
 * Returns the number of tests not met.
 */
unsigned expect_map_judge(const struct expect_map *x, const struct result_map *map,
			  const struct expect_map_sink *s, void *ctx);

#endif
