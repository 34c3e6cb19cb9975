// SPDX-License-Identifier: GPL-2.0-only
/* result_edit.c - a read result file edited and written back (result_edit.h). */
#include <errno.h>
#include <string.h>

#include "results/result_edit.h"
#include "results/result_write.h"
#include "results/schema.h"

/* The object of probe name in the document, or NULL. */
static json_t *probe_object(struct result_file *rf, const char *name)
{
	json_t *o;
	size_t i;

	json_array_foreach(json_object_get(rf->doc, "probes"), i, o) {
		const char *n = json_string_value(json_object_get(o, "name"));

		if (n && !strcmp(n, name))
			return o;
	}
	return NULL;
}

int result_set_exit_path(struct result_file *rf, const char *name, const struct exit_path *e,
			 struct err *err)
{
	json_t *o = probe_object(rf, name), *j;

	if (!o)
		return err_set(err, -ENOENT, "%s: no probe %s", rf->name, name);
	json_object_del(o, "exit_path");
	if (!e)
		return 0;
	j = exit_path_json(e);
	if (!j || json_object_set_new(o, "exit_path", j))
		return err_set(err, -ENOMEM, "out of memory");
	return 0;
}

int result_file_write(struct result_file *rf, const char *path,
		      void (*opened)(const struct outfile *o), struct err *err)
{
	if (json_object_set_new(rf->doc, "schema_version", json_integer(RESULT_SCHEMA_VERSION)))
		return err_set(err, -ENOMEM, "out of memory");
	return result_write_hooked(rf->doc, path, opened, err);
}
