/* json_load.c - read a JSON document from a file or memory under the readers' limits, with one-line errors. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/json_load.h"
#include "results/schema.h"

static int is_blank(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r')
			return 0;
	return 1;
}

json_t *json_load_checked_buffer(struct jcheck *c, const void *buf, size_t len)
{
	json_error_t jerr;
	json_t *root;

	if (c->err && c->errlen)
		c->err[0] = '\0';
	if (len == 0 || is_blank(buf, len)) {
		jcheck_fail(c, "empty file");
		return NULL;
	}
	if (len > RESULT_MAX_FILE_BYTES) {
		jcheck_fail(c, "file too large (%zu bytes, limit %u)", len, RESULT_MAX_FILE_BYTES);
		return NULL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (json_error_code(&jerr) == json_error_premature_end_of_input)
			jcheck_fail(c, "truncated JSON at line %d, column %d: %s",
				    jerr.line, jerr.column, jerr.text);
		else
			jcheck_fail(c, "invalid JSON at line %d, column %d: %s",
				    jerr.line, jerr.column, jerr.text);
	}
	return root;
}

/* Read all of fd (at most the size limit + 1 byte, so too-large input is seen). */
static char *read_fd(int fd, size_t *len, int *errnum)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	while (buf) {
		if (n == cap) {
			if (cap > RESULT_MAX_FILE_BYTES)
				break;
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*errnum = errno;
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!buf)
		*errnum = ENOMEM;
	*len = n;
	return buf;
}

json_t *json_load_checked_file(struct jcheck *c, const char *path)
{
	struct stat st;
	size_t len = 0;
	json_t *root;
	char *buf;
	int fd, errnum = 0;

	if (c->err && c->errlen)
		c->err[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		jcheck_fail(c, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			jcheck_fail(c, "is a directory, not a result file");
			return NULL;
		}
		if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > RESULT_MAX_FILE_BYTES) {
			close(fd);
			jcheck_fail(c, "file too large (%lld bytes, limit %u)",
				    (long long)st.st_size, RESULT_MAX_FILE_BYTES);
			return NULL;
		}
	}
	buf = read_fd(fd, &len, &errnum);
	close(fd);
	if (!buf) {
		jcheck_fail(c, "cannot read: %s", strerror(errnum));
		return NULL;
	}
	if (len > RESULT_MAX_FILE_BYTES) {
		free(buf);
		jcheck_fail(c, "file too large (more than %u bytes)", RESULT_MAX_FILE_BYTES);
		return NULL;
	}
	root = json_load_checked_buffer(c, buf, len);
	free(buf);
	return root;
}
