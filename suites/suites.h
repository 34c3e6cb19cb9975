/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suites.h - the check suites run by `exitscope check [SUITE...]`: each adds
 * its pass/fail/skip results to a check_report (results/check_model.h).
 */
#ifndef EXITSCOPE_SUITES_SUITES_H
#define EXITSCOPE_SUITES_SUITES_H

#include "results/check_model.h"
#include "harness/suite_env.h"

struct check_suite {
	const char *name;
	const char *summary;
	void (*run)(const struct suite_env *env, struct check_report *rep);
};

extern const struct check_suite check_suites[];
extern const size_t nr_check_suites;

#endif
