/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * attribute.h - an exit-path profile from the emulator's counts: the L1
 * kernel's instructions and calls by function (the lane kernel's
 * System.map), op batches minus baseline batches over the same operations;
 * and the check that the symbol table is the running kernel's.
 */
#ifndef EXITSCOPE_PROFILE_ATTRIBUTE_H
#define EXITSCOPE_PROFILE_ATTRIBUTE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "profile/counts.h"
#include "profile/symtab.h"
#include "results/exit_path.h"

enum profile_vendor { PROFILE_VMX, PROFILE_SVM };

/*
 * Every VM entry the dump saw was made from the function that enters the
 * guest (__vmx_vcpu_run, __svm_vcpu_run) by st: 0, or -EINVAL with err
 * saying what does not match (or that no entry was seen to check against).
 */
int profile_check_symbols(const struct prof_dump *d, const struct symtab *st,
			  enum profile_vendor v, struct err *err);

/*
 * p's exit path into e (function names borrowed from st, which must outlive
 * e; exit_path_free frees the rest), with a census (has_census) when
 * file_version, the counts file's (prof_file.version), is 2 or later: 0, or
 * -EINVAL (op and baseline sides not alike) / -ERANGE (a count beyond
 * EXIT_PATH_COUNT_MAX) / -E2BIG (more functions, exit reasons or census
 * rows than a result file holds: EXIT_PATH_MAX_*) / -ENOMEM with err set.
 * Exits are summed by the name KVM gives their reason (profile_exit_reason).
 */
int profile_exit_path(const struct prof_probe *p, const struct symtab *st, enum profile_vendor v,
		      int file_version, struct exit_path *e, struct err *err);

/*
 * The exit reason KVM names: VMX's basic exit reason (its low 16 bits; the
 * flags above them are no other reason), SVM's exit code as it is. Two
 * reasons have one name exactly when this gives them one number.
 */
uint64_t profile_exit_reason(enum profile_vendor v, uint64_t reason);
/* KVM's name of an exit reason (buf holds a made-up one). */
const char *profile_exit_name(enum profile_vendor v, uint64_t reason, char *buf, size_t len);

#endif
