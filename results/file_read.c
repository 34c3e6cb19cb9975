// SPDX-License-Identifier: GPL-2.0-only
/* file_read.c - a whole regular input file under a size limit (file_read.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/file_read.h"

static int file_fail(struct err *err, int e, const char *fmt, const char *what)
{
	return err_set(err, -e, fmt, what);
}

/* What a file that is not a regular one is, for the message. */
static const char *file_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a file";
}

int file_read_all(const char *path, size_t max, char **buf, size_t *len, struct err *err)
{
	size_t n = 0, cap;
	struct stat st;
	char *b;
	int fd, e;

	*buf = NULL;
	*len = 0;
	/* O_NONBLOCK: a FIFO without a writer must not hold the open. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return file_fail(err, errno, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return file_fail(err, e, "cannot read: %s", strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return file_fail(err, EISDIR, "%s", "is a directory");
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return file_fail(err, EINVAL, "is %s, not a regular file", file_kind(st.st_mode));
	}
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		return err_set(err, -EFBIG, "file too large (%lld bytes, limit %zu)",
			       (long long)st.st_size, max);
	}
	/* The file may grow while read: at most max + 1 bytes, so growth past max is seen. */
	cap = (size_t)st.st_size + 1;
	b = malloc(cap + 1);
	while (b) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap > max)
				break;
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			free(b);
			close(fd);
			return file_fail(err, e, "cannot read: %s", strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!b)
		return file_fail(err, ENOMEM, "cannot read: %s", strerror(ENOMEM));
	if (n > max) {
		free(b);
		return err_set(err, -EFBIG, "file too large (more than %zu bytes)", max);
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}
