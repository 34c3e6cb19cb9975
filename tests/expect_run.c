// SPDX-License-Identifier: GPL-2.0-only
/* expect_run.c - `exitscope expect` on a file written for a test (expect_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/expect_run.h"
#include "tests/fixture.h"
#include "tests/tap.h"

#define EXPECT_RUN_ARGS	16

void expect_run(struct run_result *r, const char *dir, const char *text, const char *const argv[])
{
	const char *args[EXPECT_RUN_ARGS + 1] = { 0 };
	char file[4096];

	snprintf(file, sizeof(file), "%s/%s", dir, EXPECT_RUN_FILE);
	for (size_t i = 0; argv[i] && i < EXPECT_RUN_ARGS; i++)
		args[i] = strcmp(argv[i], EXPECT_RUN_FILE) ? argv[i] : file;
	if (!fixture_write_raw(dir, EXPECT_RUN_FILE, text, strlen(text))) {
		r->status = -1;
		r->signal = 0;
		r->out = strdup("");
		r->err = strdup("cannot write " EXPECT_RUN_FILE);
		return;
	}
	run_cmd(r, args);
}

bool expect_run_shows(const struct run_result *r, int status, const char *want, const char *sum)
{
	const char *line = strstr(r->out, want);

	if (r->status == status && line && (line == r->out || line[-1] == '\n') &&
	    (!sum || strstr(r->out, sum)))
		return true;
	diag("exit %d, want '%s', out '%s', err '%s'", r->status, want, r->out, r->err);
	return false;
}

bool expect_run_refused(const struct run_result *r, const char *dir, const char *where,
			const char *why)
{
	const char *nl = strchr(r->err, '\n'), *count = strstr(r->err, "does not parse");
	const char *nl2 = nl ? strchr(nl + 1, '\n') : NULL;
	char want[4096];

	snprintf(want, sizeof(want), "exitscope expect: %s/%s:%s: ", dir, EXPECT_RUN_FILE, where);
	if (r->status == 2 && !*r->out && !strncmp(r->err, want, strlen(want)) &&
	    strstr(r->err, why) && count && nl < count && nl2 && !nl2[1])
		return true;
	diag("exit %d, want '%s' ... '%s', out '%s', err '%s'", r->status, want, why, r->out,
	     r->err);
	return false;
}
