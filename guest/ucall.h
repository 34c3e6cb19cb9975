/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ucall.h - the guest->host call channel. The guest fills a struct ucall on
 * its stack and writes its (32-bit) address to UCALL_PORT with `outl`; the
 * host decodes it on the resulting KVM_EXIT_IO. Shared by guest and host.
 */
#ifndef EXITSCOPE_GUEST_UCALL_H
#define EXITSCOPE_GUEST_UCALL_H

#include <stdint.h>

#define UCALL_MAX_ARGS	6

enum ucall_cmd {
	UCALL_NONE,
	UCALL_SYNC,		/* args: values for the host; guest continues when re-run */
	UCALL_PRINT,		/* str: format (integer conversions only), args */
	UCALL_ASSERT,		/* file, line, str: expression, args: values */
	UCALL_DONE,		/* args[0]: the guest function's return value */
	UCALL_UNHANDLED,	/* args: vector, error code, rip, cr2 */
};

struct ucall {
	uint64_t cmd;
	uint64_t nargs;
	uint64_t args[UCALL_MAX_ARGS];
	uint64_t file;		/* guest addresses of NUL-terminated strings */
	uint64_t line;
	uint64_t str;
};

#endif
