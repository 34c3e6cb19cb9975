/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suite_env.h - what every check suite and the ownership map get from the
 * command that runs them: the KVM device, the host record collected once,
 * and the stop flag of Ctrl-C.
 */
#ifndef EXITSCOPE_HARNESS_SUITE_ENV_H
#define EXITSCOPE_HARNESS_SUITE_ENV_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct hostinfo;

struct suite_env {
	const char *kvm_path;		/* NULL: /dev/kvm */
	const struct hostinfo *hi;	/* collected once by the command */
	volatile sig_atomic_t *stop;	/* Ctrl-C */
	bool verbose;
	/*
	 * Called (may be NULL) by suite_run as check i of a suite's n-entry
	 * table starts, with the first result name it records: the command's
	 * progress line. Layers point down: no cli type here.
	 */
	void (*progress)(void *ctx, const char *suite, size_t i, size_t n, const char *name);
	void *progress_ctx;
};

#endif
