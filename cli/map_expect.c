// SPDX-License-Identifier: GPL-2.0-only
/* map_expect.c - the map's expectation tests written as TAP (map_expect.h). */
#include <errno.h>
#include <stdlib.h>

#include "cli/map_expect.h"
#include "cli/tap_out.h"
#include "map/map.h"

int map_expect_read(const char *path, const char *const *profiles, size_t np,
		    struct expect_map *x, struct err *err)
{
	struct expect_map_known k = { .n = map_nr_entries(), .profiles = profiles, .np = np };
	struct result_map_entry *e = calloc(k.n, sizeof(*e));
	int r;

	if (!e)
		return err_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < k.n; i++)
		map_entry_key_at(i, &e[i]);
	k.e = e;
	r = expect_map_read(path, &k, x, err);
	free(e);
	return r;
}

static void tap_plan(void *ctx, unsigned n)
{
	struct tap_out *t = ctx;

	tap_out_begin(t, t->f, n);
}

/* A skip has its reason, a test its evidence in a YAML block. */
static void tap_test(void *ctx, const struct expect_map_test *e)
{
	struct tap_out *t = ctx;

	if (e->skip) {
		tap_out_skip(t, e->desc, e->skip);
		return;
	}
	tap_out_test(t, e->pass, e->desc);
	tap_out_yaml(t, "expected", e->expected);
	tap_out_yaml(t, "observed_status", e->status);
	tap_out_yaml(t, "observed_exits_per_op", e->exits);
	tap_out_yaml(t, "detail", e->detail);
	tap_out_yaml(t, "line", e->where);
}

static void tap_comment(void *ctx, const char *text)
{
	tap_out_comment(ctx, "%s", text);
}

unsigned map_expect_tap(FILE *f, const struct expect_map *x, const struct result_map *map)
{
	static const struct expect_map_sink tap = { tap_plan, tap_test, tap_comment };
	struct tap_out t = { .f = f };

	return expect_map_judge(x, map, &tap, &t);
}
