// SPDX-License-Identifier: GPL-2.0-only
/* result_write.c - build the result envelope and write result files (checked, atomic). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results/outfile.h"
#include "results/result_write.h"

void result_timestamp(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_t *result_envelope(const char *kind, int argc, char **argv, const char *started,
			long long pid)
{
	json_t *cmd = json_array();

	/* Commands get argv from their own name on; record the whole line. */
	json_array_append_new(cmd, json_string("exitscope"));
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	return json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:o, s:s, s:I}",
			 "schema", RESULT_SCHEMA, "schema_version", RESULT_SCHEMA_VERSION,
			 "tool", "name", "exitscope", "version", EXITSCOPE_VERSION,
			 "kind", kind, "command", cmd, "started", started, "pid", (json_int_t)pid);
}

json_t *result_new(const char *kind, int argc, char **argv)
{
	char ts[32];

	result_timestamp(ts, sizeof(ts));
	return result_envelope(kind, argc, argv, ts, getpid());
}

/* Dump root into an open outfile and finish it. */
static int result_dump(json_t *root, struct outfile *o, struct err *err)
{
	if (json_dumpf(root, o->f, RESULT_DUMP_FLAGS) || fputc('\n', o->f) == EOF) {
		/* A failed write recorded its errno; else jansson itself failed. */
		int e = o->err ? o->err : ENOMEM;

		outfile_abort(o);
		return err_set(err, -e, "%s: %s", o->path, strerror(e));
	}
	return outfile_commit(o, err);
}

int result_write_as_is_hooked(json_t *root, const char *path,
			      void (*opened)(const struct outfile *o), struct err *err)
{
	struct outfile o;
	int r = outfile_open(&o, path, err);

	if (r)
		return r;
	if (opened)
		opened(&o);
	r = result_dump(root, &o, err);
	if (opened)
		opened(NULL);
	return r;
}

int result_write_hooked(json_t *root, const char *path, void (*opened)(const struct outfile *o),
			struct err *err)
{
	char ts[32];

	if (!json_object_get(root, "finished")) {
		result_timestamp(ts, sizeof(ts));
		json_object_set_new(root, "finished", json_string(ts));
	}
	return result_write_as_is_hooked(root, path, opened, err);
}

int result_write_as_is(json_t *root, const char *path, struct err *err)
{
	return result_write_as_is_hooked(root, path, NULL, err);
}

int result_write(json_t *root, const char *path, struct err *err)
{
	return result_write_hooked(root, path, NULL, err);
}

int result_write_unique(json_t *root, const char *kind, char *kept, size_t keptlen,
			struct err *err)
{
	struct outfile o;
	char prefix[64];
	int r;

	snprintf(prefix, sizeof(prefix), "exitscope-%s-", kind);
	r = outfile_open_unique(&o, prefix, ".json", err);
	if (r)
		return r;
	snprintf(kept, keptlen, "%s", o.name);
	return result_dump(root, &o, err);
}
