/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map_expect.h - `exitscope map --tap --expect FILE`: the file read and
 * the map judged by the expectation judge (expect/expect_map.h), for the
 * entries map/ measures, each test written as TAP (cli/tap_out.h).
 */
#ifndef EXITSCOPE_CLI_MAP_EXPECT_H
#define EXITSCOPE_CLI_MAP_EXPECT_H

#include <stdio.h>

#include "expect/expect_map.h"

/*
 * Read path for a map of the profiles (np names) and the entries map/
 * measures: expect_map_read().
 */
int map_expect_read(const char *path, const char *const *profiles, size_t np,
		    struct expect_map *x, struct err *err);
/* The tests on f (TAP 13, plan first). Returns the number of "not ok" tests. */
unsigned map_expect_tap(FILE *f, const struct expect_map *x, const struct result_map *map);

#endif
