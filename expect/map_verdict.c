// SPDX-License-Identifier: GPL-2.0-only
/*
 * map_verdict.c - one map entry against one map line (expect_map.h): the
 * statuses a line allows, the entries its NAME names, and the verdict.
 * The parser, the lane judge and the map's judge all call these.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "expect/expect.h"
#include "expect/expect_map.h"

int expect_map_statuses(const char *s, unsigned *mask)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	*mask = 0;
	for (char *w = strtok_r(buf, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		int st = schema_enum_find(map_status_names, MAP_STATUS_N, w);

		if (st < 0 || st == MAP_STOPPED)
			return -EINVAL;
		*mask |= 1u << st;
	}
	return *mask ? 0 : -EINVAL;
}

bool expect_map_names(const char *name, const char *entry_name, long long bit, const char *op)
{
	if (!strcmp(name, "*"))
		return true;
	if (*name && !name[strspn(name, "0123456789")])
		return !strcmp(op, "toggle") && bit == atoll(name);
	return !strcasecmp(name, entry_name);
}

enum expect_map_verdict expect_map_verdict(unsigned want, const char *num, double tol, int st,
					   double exits, bool here)
{
	const unsigned own = 1u << MAP_OWNED | 1u << MAP_INTERCEPTED;
	bool in = st >= 0 && st < MAP_STATUS_N && (want & (1u << st));

	if (here && st == MAP_STOPPED)
		return EXPECT_MAP_STOPPED;
	if (here && !in && st == MAP_SKIPPED)
		return EXPECT_MAP_HOST_SKIPPED;
	if (here && !in && st == MAP_EMULATED && (want & own))
		return EXPECT_MAP_HOST_EMULATES;
	if (!in)
		return EXPECT_MAP_BAD_STATUS;
	if (*num && st != MAP_REJECTED && st != MAP_SKIPPED &&
	    (exits < 0 || !expect_num_holds(num, exits, tol)))
		return EXPECT_MAP_BAD_NUM;
	return EXPECT_MAP_MET;
}
