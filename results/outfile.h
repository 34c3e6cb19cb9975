/*
 * outfile.h - write an output file so that every failure is reported with
 * the errno of the call that failed, and a failed write never leaves a
 * truncated file behind.
 *
 * A new file or an existing regular file is written to a temporary file in
 * the target's directory, flushed, fsynced and renamed into place (keeping
 * the old file's permissions); until the rename the old file is untouched.
 * Anything else - "-" (stdout), a device such as /dev/full, a FIFO, a
 * symlink such as /dev/stdout - is written in place, every error still
 * checked; so is a regular file whose directory cannot take a temporary.
 *
 * Usage: outfile_check() before doing the work (a bad path costs nothing),
 * outfile_open(), write to o.f, outfile_commit() (or outfile_abort()).
 */
#ifndef EXITSCOPE_RESULTS_OUTFILE_H
#define EXITSCOPE_RESULTS_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Filled by outfile_open*(); o->f refers to it: do not copy it while open. */
struct outfile {
	FILE *f;			/* write here between open and commit */
	const char *path;		/* the target ("-": stdout) */
	char tmp[PATH_MAX];		/* the temporary renamed onto path; "" in place */
	char name[PATH_MAX];		/* outfile_open_unique: the file's name */
	int fd;
	int err;			/* errno of the first failed write, 0 */
	bool own_fd;			/* close fd at the end (not stdout's) */
	bool sync;			/* a regular file: fsync before closing */
};

/*
 * Could path be written? Creates and modifies nothing (a probe temporary in
 * the directory is removed at once). 0, or -errno with "PATH: reason" in err.
 */
int outfile_check(const char *path, char *err, size_t errlen);
/* Start writing path. 0, or -errno with "PATH: reason" in err. */
int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen);
/*
 * Start writing a new file with a unique name in $TMPDIR (else /tmp):
 * PREFIX + six random characters + SUFFIX, mode 0600; o->name and o->path
 * hold its name.
 */
int outfile_open_unique(struct outfile *o, const char *prefix, const char *suffix,
			char *err, size_t errlen);
/*
 * Finish: flush, fsync a regular file, close, rename into place. On any
 * failure the temporary is removed (the target keeps its old contents) and
 * -errno is returned with "PATH: reason" in err.
 */
int outfile_commit(struct outfile *o, char *err, size_t errlen);
/* Give up: close and remove the temporary (in place: just close). */
void outfile_abort(struct outfile *o);

#endif
