// SPDX-License-Identifier: GPL-2.0-only
/*
 * query_text.c - a path answered as the text `exitscope query` prints
 * (results/query_text.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/file_read.h"
#include "results/query_text.h"
#include "results/schema.h"

struct query_file *query_load_path(const char *path, const struct query_envelope *env, size_t n,
				   int flags, struct err *err)
{
	struct query_file *qf;
	char *buf;
	size_t len;

	if (file_read_all(path, RESULT_MAX_FILE_BYTES, &buf, &len, err)) {
		err_prefix(err, "%s", path);
		return NULL;
	}
	qf = query_load_buffer(path, buf, len, env, n, flags, err);
	free(buf);
	return qf;
}

int query_text_path(struct query_file *qf, const struct query_path *p, char **out,
		    struct err *err)
{
	json_t *vals = json_array();
	size_t i, len = 0;
	FILE *m;
	long n;
	int rc = -ENOMEM;

	*out = NULL;
	m = open_memstream(out, &len);
	if (!vals || !m)
		goto out;
	n = query_select(qf->root, p, vals);
	if (n < 0)
		goto out;
	if (query_path_counts(p)) {
		fprintf(m, "%ld\n", n);
	} else {
		for (i = 0; i < (size_t)n; i++) {
			char *t = query_value_text(json_array_get(vals, i));

			if (!t)
				goto out;
			fprintf(m, "%s\n", t);
			free(t);
		}
	}
	rc = n == 0 && !query_path_counts(p);
out:
	if (m && fclose(m) && rc >= 0)
		rc = -ENOMEM;
	if (!m)
		*out = NULL;
	if (rc < 0) {
		free(*out);
		*out = NULL;
		err_set(err, rc, "out of memory");
	}
	json_decref(vals);
	return rc;
}

int query_text(struct query_file *qf, const char *text, char **out, struct err *err)
{
	struct query_path *p = query_path_parse(text, err);
	int rc;

	*out = NULL;
	if (!p)
		return -EINVAL;
	rc = query_text_path(qf, p, out, err);
	query_path_free(p);
	return rc;
}
