/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * file_read.h - read a whole input file: a regular file of at most a
 * given size, so that no reader blocks on a FIFO, reads a device such as
 * /dev/zero forever or takes a directory for a file. Every exitscope input
 * (result files, noise floors, expectations files, a profile's counts and
 * System.map) comes through here.
 */
#ifndef EXITSCOPE_RESULTS_FILE_READ_H
#define EXITSCOPE_RESULTS_FILE_READ_H

#include <stddef.h>

#include "base/err.h"

/*
 * Read path into *buf (malloc'd, NUL-terminated; *len bytes without the
 * NUL). 0, or -errno with why in err, without the path: "cannot open:
 * REASON", "is a directory", "is a FIFO, not a regular file", "is a
 * character device, not a regular file", "file too large (N bytes, limit
 * MAX)", "cannot read: REASON".
 */
int file_read_all(const char *path, size_t max, char **buf, size_t *len, struct err *err);

#endif
