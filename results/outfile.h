/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outfile.h - write an output file so that every failure is reported with
 * the errno of the call that failed, and a failed write never leaves a
 * truncated file behind.
 *
 * A new file or an existing regular file is written to a temporary file in
 * the target's directory, flushed, fsynced and renamed into place (keeping
 * the old file's permissions); until the rename the old file is untouched.
 * When that directory cannot take the temporary (not writable, read-only,
 * full) the write fails: a regular file is never written in place. A
 * symlink is followed: the file it points to is replaced the same way, in
 * that file's directory, and the link stays a link (so a file kept behind
 * a link, e.g. a collector's, gets the new contents). Anything else - "-"
 * (stdout), a device such as /dev/full, a FIFO, /dev/stdout's terminal -
 * is written in place, every error still checked (EINTR too: a signal
 * whose handler does not restart the call ends a write blocked on a FIFO
 * with -EINTR, so the caller can stop). While a temporary
 * exists the signals that end a process (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * SIGPIPE) are held: one that comes meanwhile acts after the rename or the
 * removal, so none leaves a temporary behind.
 *
 * Usage: outfile_check() before doing the work (a bad path costs nothing),
 * outfile_open(), write to o.f, outfile_commit() (or outfile_abort()).
 */
#ifndef EXITSCOPE_RESULTS_OUTFILE_H
#define EXITSCOPE_RESULTS_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>

#include "base/err.h"

/* At most this much of the target's name goes into its temporary's name. */
#define OUTFILE_TMP_NAME	64

/* Filled by outfile_open*(); o->f refers to it: do not copy it while open. */
struct outfile {
	FILE *f;			/* write here between open and commit */
	const char *path;		/* the target ("-": stdout) */
	char tmp[PATH_MAX];		/* the temporary renamed onto path; "" in place */
	char name[PATH_MAX];		/* outfile_open_unique: the file's name */
	char target[PATH_MAX];		/* path with its symlinks followed: what tmp replaces */
	sigset_t oldmask;		/* the signal mask before held was set */
	bool held;			/* ending signals held until commit or abort */
	int fd;
	int err;			/* errno of the first failed write, 0 */
	bool own_fd;			/* close fd at the end (not stdout's) */
	bool sync;			/* a regular file: fsync before closing */
};

/*
 * Could path be written? Creates and modifies nothing (a probe temporary in
 * the directory is removed at once). 0, or -errno with "PATH: reason" in err.
 */
int outfile_check(const char *path, struct err *err);
/*
 * Would writing out replace or write into the file other names (symlinks
 * followed, hard links seen: same device and inode; two names of a file
 * that does not exist yet: same directory and name; "-" twice: stdout)?
 * 1 or 0. Devices and FIFOs are never "the same": nothing is replaced.
 */
int outfile_same(const char *out, const char *other);
/* Start writing path. 0, or -errno with "PATH: reason" in err. */
int outfile_open(struct outfile *o, const char *path, struct err *err);
/*
 * Start writing a new file with a unique name in $TMPDIR (else /tmp):
 * PREFIX + six random characters + SUFFIX, mode 0600; o->name and o->path
 * hold its name.
 */
int outfile_open_unique(struct outfile *o, const char *prefix, const char *suffix,
			struct err *err);
/*
 * Finish: flush, fsync a regular file, close, rename into place. On any
 * failure the temporary is removed (the target keeps its old contents) and
 * -errno is returned with "PATH: reason" in err.
 */
int outfile_commit(struct outfile *o, struct err *err);
/* Give up: close and remove the temporary (in place: just close). */
void outfile_abort(struct outfile *o);

#endif
