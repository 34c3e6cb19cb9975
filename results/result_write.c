/* result_write.c - build the result envelope and write result files atomically. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results/result_write.h"

void result_timestamp(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_t *result_new(const char *kind, int argc, char **argv)
{
	json_t *cmd = json_array();
	char ts[32];

	/* Commands get argv from their own name on; record the whole line. */
	json_array_append_new(cmd, json_string("exitscope"));
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	result_timestamp(ts, sizeof(ts));
	return json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:o, s:s}",
			 "schema", RESULT_SCHEMA, "schema_version", RESULT_SCHEMA_VERSION,
			 "tool", "name", "exitscope", "version", EXITSCOPE_VERSION,
			 "kind", kind, "command", cmd, "started", ts);
}

int result_write(json_t *root, const char *path, char *err, size_t errlen)
{
	const size_t flags = JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10);
	char ts[32], tmp[4096];
	FILE *f;

	result_timestamp(ts, sizeof(ts));
	json_object_set_new(root, "finished", json_string(ts));
	if (!strcmp(path, "-")) {
		if (json_dumpf(root, stdout, flags) || fputc('\n', stdout) == EOF || fflush(stdout)) {
			snprintf(err, errlen, "writing results to stdout: %s", strerror(errno));
			return -EIO;
		}
		return 0;
	}
	/* Write beside the target and rename, so a reader never sees half a file. */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	f = fopen(tmp, "w");
	if (!f) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (json_dumpf(root, f, flags) || fputc('\n', f) == EOF || fflush(f) || fsync(fileno(f))) {
		int e = errno ? errno : EIO;

		fclose(f);
		unlink(tmp);
		snprintf(err, errlen, "%s: write failed: %s", path, strerror(e));
		return -e;
	}
	if (fclose(f) || rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}
