// SPDX-License-Identifier: GPL-2.0-only
/* result_doc.c - a command's result document as its JSON file (results/result_doc.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "results/result_doc.h"
#include "results/result_write.h"

enum doc_member { DOC_HOST, DOC_SETTINGS, DOC_PROBES, DOC_WARNINGS, DOC_MAP, DOC_CHECKS };

/* The members of a file, in its order: a run's --all map and checks come before its own. */
static const enum doc_member run_order[] = {
	DOC_MAP, DOC_CHECKS, DOC_HOST, DOC_SETTINGS, DOC_PROBES, DOC_WARNINGS,
};
static const enum doc_member other_order[] = { DOC_HOST, DOC_MAP, DOC_CHECKS };

void result_doc_init(struct result_doc *d, const char *kind, int argc, char **argv)
{
	*d = (struct result_doc){ .kind = kind, .argc = argc, .argv = argv, .pid = getpid() };
	result_timestamp(d->started, sizeof(d->started));
	run_settings_init(&d->settings);
}

void result_doc_release(struct result_doc *d)
{
	for (size_t i = 0; i < d->n_warnings; i++)
		free(d->warnings[i]);
	free(d->warnings);
	d->warnings = NULL;
	d->n_warnings = 0;
}

int result_doc_warn(struct result_doc *d, const char *msg)
{
	char **w = realloc(d->warnings, (d->n_warnings + 1) * sizeof(*w));
	char *s;

	if (!w)
		return -ENOMEM;
	d->warnings = w;
	s = strdup(msg);
	if (!s)
		return -ENOMEM;
	w[d->n_warnings++] = s;
	return 0;
}

static json_t *warnings_json(const struct result_doc *d)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < d->n_warnings; i++)
		if (json_array_append_new(a, json_string(d->warnings[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* Member m of d into root: 0, 1 when d has none, -ENOMEM. */
static int member_add(json_t *root, const struct result_doc *d, enum doc_member m)
{
	const char *key;
	json_t *v;

	switch (m) {
	case DOC_HOST:
		if (!d->host)
			return 1;
		key = "host";
		v = host_record_json(d->host);
		break;
	case DOC_SETTINGS:
		key = "settings";
		v = run_settings_json(&d->settings);
		break;
	case DOC_PROBES:
		key = "probes";
		v = run_probes_json(d->probes, d->n_probes);
		break;
	case DOC_WARNINGS:
		key = "warnings";
		v = warnings_json(d);
		break;
	case DOC_MAP:
		if (!d->map)
			return 1;
		key = "map";
		v = result_map_json(d->map);
		break;
	case DOC_CHECKS:
		if (!d->checks)
			return 1;
		key = "checks";
		v = check_report_json(d->checks);
		break;
	default:
		return 1;
	}
	return json_object_set_new(root, key, v) ? -ENOMEM : 0;
}

/* The file's JSON: the envelope, the kind's members, "finished" once set. NULL: out of memory. */
static json_t *result_doc_json(const struct result_doc *d)
{
	bool run = !strcmp(d->kind, "run");
	const enum doc_member *order = run ? run_order : other_order;
	size_t n = run ? ARRAY_SIZE(run_order) : ARRAY_SIZE(other_order);
	json_t *root = result_envelope(d->kind, d->argc, d->argv, d->started, d->pid);

	for (size_t i = 0; root && i < n; i++)
		if (member_add(root, d, order[i]) < 0) {
			json_decref(root);
			return NULL;
		}
	if (root && d->finished[0] &&
	    json_object_set_new(root, "finished", json_string(d->finished))) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int result_doc_write(struct result_doc *d, const char *path,
		     void (*opened)(const struct outfile *o), struct err *err)
{
	json_t *root;
	int r;

	if (!d->finished[0])
		result_timestamp(d->finished, sizeof(d->finished));
	root = result_doc_json(d);
	if (!root)
		return err_set(err, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
	r = result_write_hooked(root, path, opened, err);
	json_decref(root);
	return r;
}

int result_doc_write_unique(const struct result_doc *d, char *kept, size_t keptlen,
			    struct err *err)
{
	json_t *root = result_doc_json(d);
	int r;

	if (!root)
		return err_set(err, -ENOMEM, "%s", strerror(ENOMEM));
	r = result_write_unique(root, d->kind, kept, keptlen, err);
	json_decref(root);
	return r;
}

char *result_doc_text(const struct result_doc *d)
{
	json_t *root = result_doc_json(d);
	char *text;

	if (!root)
		return NULL;
	text = json_dumps(root, RESULT_DUMP_FLAGS);
	json_decref(root);
	return text;
}
