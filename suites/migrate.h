/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * migrate.h - `exitscope check migrate`: a running guest saved and restored
 * into a new VM (guest/vcpu_state.h) checks that it sees what it left.
 */
#ifndef EXITSCOPE_SUITES_MIGRATE_H
#define EXITSCOPE_SUITES_MIGRATE_H

#include "results/check_model.h"
#include "harness/suite_env.h"

void migrate_checks(const struct suite_env *env, struct check_report *rep);

#endif
