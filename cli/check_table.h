/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check_table.h - the check results as a table: status, SUITE.NAME, the
 * detail wrapped within TEXT_WIDTH; a tail shared by several checks
 * (check_shared_tail) is "see note N" there and printed once below; then
 * the counts.
 */
#ifndef EXITSCOPE_CLI_CHECK_TABLE_H
#define EXITSCOPE_CLI_CHECK_TABLE_H

#include <stdio.h>

#include "results/check_model.h"

void check_table_print(FILE *f, const struct check_report *rep);

#endif
