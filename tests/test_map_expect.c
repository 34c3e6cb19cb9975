// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_map_expect.c - one judge of map lines (expect/expect_map.h): every
 * lane file (lanes/expect-*.txt) and every sample's wrong.txt is read for
 * a map, and judged on the recorded lane's map (lanes/samples/LANE/
 * map.json) as map --tap judges a measured one; the lane judge (exitscope
 * expect) judges the same lines on the same results to the same verdicts.
 * A file without a map line is refused, none for an unknown line kind.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "expect/expect.h"
#include "expect/expect_map.h"
#include "map/map.h"
#include "results/result_read.h"
#include "tests/tap.h"

/* What a judged map came to. */
struct tally {
	unsigned plan, tests, pass, fail, skip;
};

static void tally_plan(void *ctx, unsigned n)
{
	((struct tally *)ctx)->plan = n;
}

static void tally_test(void *ctx, const struct expect_map_test *t)
{
	struct tally *c = ctx;

	c->tests++;
	if (t->skip)
		c->skip++;
	else if (t->pass)
		c->pass++;
	else
		c->fail++;
}

static void tally_comment(void *ctx, const char *text)
{
}

static const struct expect_map_sink tally_sink = { tally_plan, tally_test, tally_comment };

/* Read path for a map of the profiles and the entries map/ measures, as map --expect does. */
static int read_for(const char *path, const char *const *profiles, size_t np, struct expect_map *x,
		    struct err *err)
{
	static struct result_map_entry e[128];
	struct expect_map_known k = { .e = e, .n = map_nr_entries(), .profiles = profiles,
				      .np = np };

	if (k.n > 128)
		return err_set(err, -E2BIG, "more than 128 map entries");
	for (size_t i = 0; i < k.n; i++)
		map_entry_key_at(i, &e[i]);
	return expect_map_read(path, &k, x, err);
}

/* The lane judge's map lines on dir: "ok"/"FAIL" lines about an entry's status. */
static bool lane_judge(const char *path, const char *dir, unsigned *ok_n, unsigned *fail_n)
{
	struct expect_opts o = { .tol = EXPECT_MAP_TOL, .who = "test" };
	struct expect_file ef;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	struct err err;
	bool good;

	*ok_n = *fail_n = 0;
	o.out = open_memstream(&buf, &len);
	if (!o.out)
		return false;
	good = !expect_parse(path, &ef, &o, &err) && expect_judge(&ef, dir, &o) >= 0;
	expect_file_free(&ef);
	fclose(o.out);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strstr(line, ": status "))
			continue;
		if (!strncmp(line, "  ok    map ", 12))
			(*ok_n)++;
		else if (!strncmp(line, "  FAIL  map ", 12))
			(*fail_n)++;
	}
	free(buf);
	return good;
}

/* path judged on the recorded map of dir, by both; wrong: the file must not be met. */
static void judge_on_sample(const char *path, const char *dir, bool wrong)
{
	char map_path[512], *names[16];
	struct expect_map x;
	struct tally c = { 0 };
	struct result_file *rf;
	unsigned lane_ok, lane_fail;
	struct err err;
	size_t np = 0;

	snprintf(map_path, sizeof(map_path), "%s/map.json", dir);
	rf = result_read_file(map_path, &err);
	if (!ok(rf && rf->map, "%s read", map_path)) {
		diag("%s", err.msg);
		result_free(rf);
		return;
	}
	for (size_t i = 0; i < rf->map->n_profiles && np < 16; i++)
		names[np++] = rf->map->profiles[i].name;
	if (!ok(!read_for(path, (const char *const *)names, np, &x, &err),
		"map --expect %s: read for the map of %s", path, dir)) {
		diag("%s", err.msg);
		result_free(rf);
		return;
	}
	expect_map_judge(&x, rf->map, &tally_sink, &c);
	ok(c.plan == c.tests && c.tests > 0, "%s: %u tests, as planned (%u)", path, c.tests,
	   c.plan);
	if (wrong)
		ok(c.fail > 0, "%s: wrong on %s (%u not met)", path, dir, c.fail);
	else
		ok(c.fail == 0, "%s: met on the recorded %s (%u not met)", path, dir, c.fail);
	if (ok(lane_judge(path, dir, &lane_ok, &lane_fail), "the lane judge takes %s", path))
		ok(lane_ok == c.pass && lane_fail == c.fail + c.skip,
		   "%s on %s: the same verdicts (map: %u met, %u not, %u skipped; "
		   "lane: %u ok, %u FAIL)",
		   path, dir, c.pass, c.fail, c.skip, lane_ok, lane_fail);
	expect_map_free(&x);
	result_free(rf);
}

/* A file with no sample: read for the default profiles, or refused for having no map line. */
static void read_alone(const char *path)
{
	static const char *const profiles[] = { "host", "minimal" };
	struct expect_map x;
	struct err err;
	int r = read_for(path, profiles, 2, &x, &err);

	if (!r) {
		ok(x.n > 0, "map --expect %s: %zu map lines", path, x.n);
		expect_map_free(&x);
		return;
	}
	ok(r == -EINVAL && strstr(err.msg, "has no 'map' line") && !strstr(err.msg, "unknown"),
	   "map --expect %s: every line parsed, no map line to test", path);
	diag("%s", err.msg);
}

static void test_lane_files(void)
{
	unsigned judged = 0;
	glob_t g;

	if (glob("lanes/expect-*.txt", 0, NULL, &g)) {
		skip("no lanes/expect-*.txt here (run from the tree)");
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *f = g.gl_pathv[i], *lane = f + strlen("lanes/expect-");
		char dir[512], wrong[600];
		struct stat st;

		snprintf(dir, sizeof(dir), "lanes/samples/%.*s", (int)(strlen(lane) - 4), lane);
		snprintf(wrong, sizeof(wrong), "%s/map.json", dir);
		if (stat(wrong, &st)) {
			read_alone(f);
			continue;
		}
		judge_on_sample(f, dir, false);
		snprintf(wrong, sizeof(wrong), "%s/wrong.txt", dir);
		if (!stat(wrong, &st))
			judge_on_sample(wrong, dir, true);
		judged++;
	}
	globfree(&g);
	ok(judged >= 4, "%u lanes' files judged on their recorded maps", judged);
}

/* The verdict on one entry: a lane's recorded map strictly, map --tap where it was measured. */
static void test_verdict(void)
{
	unsigned own, any;

	ok(!expect_map_statuses("owned", &own) && own == 1u << MAP_OWNED, "owned");
	ok(!expect_map_statuses("owned|intercepted|rejected|emulated|skipped", &any) && any == 31,
	   "all five statuses");
	ok(expect_map_statuses("stopped", &any) == -EINVAL, "stopped is no expectation");
	ok(expect_map_statuses("owned|bogus", &any) == -EINVAL, "an unknown status");
	ok(expect_map_verdict(own, "0", 0.1, MAP_OWNED, 0.05, false) == EXPECT_MAP_MET,
	   "owned 0: 0.05 exits/op is within 0.1");
	ok(expect_map_verdict(own, ">=1", 0.1, MAP_OWNED, 0.5, false) == EXPECT_MAP_BAD_NUM,
	   ">=1: 0.5 is not");
	ok(expect_map_verdict(own, "0", 0.1, MAP_OWNED, -1, false) == EXPECT_MAP_BAD_NUM,
	   "an exits/op not measured meets no NUM");
	ok(expect_map_verdict(1u << MAP_REJECTED, "0", 0.1, MAP_REJECTED, 5, false) ==
	   EXPECT_MAP_MET, "NUM is not checked for a rejected entry");
	ok(expect_map_verdict(own, "", 0.1, MAP_SKIPPED, -1, false) == EXPECT_MAP_BAD_STATUS &&
	   expect_map_verdict(own, "", 0.1, MAP_SKIPPED, -1, true) == EXPECT_MAP_HOST_SKIPPED,
	   "an unexpected skip: not met in a lane, not judged where measured");
	ok(expect_map_verdict(own, "", 0.1, MAP_EMULATED, 0, false) == EXPECT_MAP_BAD_STATUS &&
	   expect_map_verdict(own, "", 0.1, MAP_EMULATED, 0, true) == EXPECT_MAP_HOST_EMULATES,
	   "owned on an emulating host: not met in a lane, not judged where measured");
	ok(expect_map_verdict(own, "", 0.1, MAP_STOPPED, -1, false) == EXPECT_MAP_BAD_STATUS &&
	   expect_map_verdict(own, "", 0.1, MAP_STOPPED, -1, true) == EXPECT_MAP_STOPPED,
	   "a stopped entry is never met");
	ok(expect_map_names("pge", "PGE", 7, "toggle") &&
	   expect_map_names("7", "PGE", 7, "toggle") &&
	   !expect_map_names("7", "CR4", -1, "read") && expect_map_names("*", "CR4", -1, "read") &&
	   !expect_map_names("PG", "PGE", 7, "toggle"),
	   "NAME: the name in any case, a toggle's bit, or *");
}

int main(void)
{
	test_verdict();
	test_lane_files();
	return done_testing();
}
