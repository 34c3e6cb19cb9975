/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map_expect.h - the expectations file of `exitscope map --tap --expect
 * FILE`: which ownership a CR bit should have, checked against the map as
 * TAP (one test per profile and entry an expectation names).
 *
 * The file is read by the expectation language's parser (expect/expect.h,
 * man exitscope-expect), so a lane's expectations file (lanes/expect-*.txt)
 * can be given as it is; its map and profile lines are tested here:
 *
 *   # comment (from '#' to the end of the line)
 *   map REG NAME|BIT|* OP STATUS[|STATUS...] [NUM]
 *       REG cr0, cr3, cr4 or cr8; NAME the bit's name (case-insensitive;
 *       "CR4" etc. for reads), its number, or * for every entry of REG
 *       with that OP; OP toggle or read; STATUS owned, intercepted,
 *       rejected, emulated or skipped; NUM about exits/op as in lane-assert:
 *       "N" (|x - N| <= 0.1), ">=N", "<=N" (0.1 tolerance), ">N", "<N",
 *       not checked for rejected or skipped entries
 *   profile NAME|*
 *       the map lines after it are about profile NAME (a --cpuid-profile
 *       SPEC as given, or host, minimal) or every profile (*); before any
 *       profile line: "host" when it is mapped, else the first profile
 *
 * A trailing "?" (optional) and "require " are accepted and ignored; lines
 * of the language's other kinds are not about ownership: each is listed
 * as skipped in a TAP comment, with the reason. A line that does not
 * parse, an unknown entry, status or profile is an error naming FILE:LINE;
 * so is a file with no map line (nothing to test), with a NUL byte, or
 * that is not a regular file (a directory, a FIFO, /dev/zero).
 */
#ifndef EXITSCOPE_CLI_MAP_EXPECT_H
#define EXITSCOPE_CLI_MAP_EXPECT_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "results/map_model.h"

#define MAP_EXPECT_TOL	0.1	/* lane-assert's default LANE_TOL */

struct map_expect_line {
	char file[256];			/* the file it stands in (an include's) */
	unsigned lineno;
	char profile[MAP_CPUID_PROFILE_LEN];	/* "" default, "*" every profile */
	char reg[MAP_KEY_LEN], name[MAP_KEY_LEN], op[MAP_KEY_LEN];	/* name "*": all */
	unsigned statuses;		/* 1 << enum map_status */
	char cmp[3];			/* "", "=", ">=", "<=", ">", "<" */
	double num;
	char numtext[32];		/* NUM as written */
	char text[160];			/* the line as written (for messages) */
};

struct map_expect {
	char path[256];
	struct map_expect_line *l;
	size_t n;
	size_t ignored;			/* lines of the language's other kinds */
	char **skipped;			/* each: "FILE:LINE: TEXT (why)" */
};

/*
 * Read path; profiles (np names) are those the map will have. 0, or
 * -EINVAL (a bad line, unknown entry, status or profile) / -errno (the
 * file cannot be read) with a one-line message in err.
 */
int map_expect_read(const char *path, const char *const *profiles, size_t np,
		    struct map_expect *x, struct err *err);
void map_expect_free(struct map_expect *x);
/* The tests on f (TAP 13, plan first). Returns the number of "not ok" tests. */
unsigned map_expect_tap(FILE *f, const struct map_expect *x, const struct result_map *map);

#endif
