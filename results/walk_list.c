// SPDX-License-Identifier: GPL-2.0-only
/* walk_list.c - a walk list's lines into a walk file, checked by the walk file's reader (walk_list.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/num.h"
#include "results/file_read.h"
#include "results/result_write.h"
#include "results/schema.h"
#include "results/walk_list.h"

/* The header lines, each at most once. */
enum walk_key { K_REPOSITORY, K_RANGE, K_FIRST_PARENT, K_EVERY, K_LANES, K_PROFILE, K_TOOL,
		K_COMMANDS, K_SUBJECT, K_COMMIT, K_N };
static const char *const key_names[K_N] = {
	"repository", "range", "first_parent", "every", "lanes", "profile", "tool", "commands",
	"subject", "commit",
};
/* Fields after the key: at least, and whether the last takes the rest of the line. */
static const unsigned char key_fields[K_N] = { 1, 1, 1, 1, 1, 1, 2, 1, 2, 4 };
static const unsigned char key_rest[K_N] = { 1, 1, 0, 0, 0, 0, 0, 1, 1, 1 };

struct subject {
	const char *rev, *text;
};

struct list {
	const char *path;
	struct walk_file w;
	struct subject *subjects;
	size_t n_subjects;
	unsigned int seen;			/* bit per header key */
};

/* Split line at tabs into f[] (at most max; the last keeps the rest of the line). Their count. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *tab = n == max - 1 ? NULL : strchr(line, '\t');

		f[n++] = line;
		if (!tab)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

static int parse_bool(const char *s, int *out)
{
	if (!strcmp(s, "true"))
		*out = 1;
	else if (!strcmp(s, "false"))
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

static int parse_lanes(struct list *l, char *s, struct err *err, size_t ln)
{
	char *save = NULL;

	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int idx = schema_enum_find(host_lane_names, HOST_LANE_N, t);

		if (idx < 0)
			return err_set(err, -EINVAL, "%s:%zu: lane \"%.40s\" is not vmx or svm",
				       l->path, ln, t);
		if (l->w.n_lanes == HOST_LANE_N)
			return err_set(err, -EINVAL, "%s:%zu: more lanes than vmx, svm", l->path,
				       ln);
		l->w.lanes[l->w.n_lanes++] = idx;
	}
	return 0;
}

static int parse_commit(struct list *l, char **f, struct err *err, size_t ln)
{
	struct walk_commit *c = &l->w.commits[l->w.n_commits];
	int lane = schema_enum_find(host_lane_names, HOST_LANE_N, f[1]);
	int st = schema_enum_find(walk_status_names, WALK_STATUS_N, f[2]);

	if (lane < 0)
		return err_set(err, -EINVAL, "%s:%zu: lane \"%.40s\" is not vmx or svm", l->path,
			       ln, f[1]);
	if (st < 0)
		return err_set(err, -EINVAL, "%s:%zu: status \"%.40s\" is not ok or skip", l->path,
			       ln, f[2]);
	*c = (struct walk_commit){ .rev = f[0], .subject = "", .lane = lane, .status = st };
	/* ok: its run (no reason); skip: its reason (no run), as the reader keeps them. */
	if (st == WALK_OK)
		c->run = f[3];
	else if (f[4])
		c->reason = f[4];
	l->w.n_commits++;
	return 0;
}

static int parse_line(struct list *l, char *line, struct err *err, size_t ln)
{
	char *f[6] = { 0 };
	char *key = line, *tab = strchr(line, '\t');
	size_t n;
	int k;
	uint64_t every;

	if (tab)
		*tab = '\0';
	k = schema_enum_find(key_names, K_N, key);
	if (k < 0)
		return err_set(err, -EINVAL, "%s:%zu: \"%.40s\" is no walk list line (%s, ...)",
			       l->path, ln, key, key_names[0]);
	n = tab ? split(tab + 1, f, key_fields[k] + (k == K_COMMIT)) : 0;
	if (n < key_fields[k])
		return err_set(err, -EINVAL, "%s:%zu: %s wants %u field%s after it, got %zu",
			       l->path, ln, key, key_fields[k], key_fields[k] > 1 ? "s" : "", n);
	if (!key_rest[k] && strchr(f[n - 1], '\t'))
		return err_set(err, -EINVAL, "%s:%zu: %s wants %u field%s after it, got more",
			       l->path, ln, key, key_fields[k], key_fields[k] > 1 ? "s" : "");
	if (k < K_SUBJECT) {
		if (l->seen & (1u << k))
			return err_set(err, -EINVAL, "%s:%zu: a second %s line", l->path, ln, key);
		l->seen |= 1u << k;
	}
	switch (k) {
	case K_REPOSITORY:
		l->w.repository = f[0];
		return 0;
	case K_RANGE:
		l->w.range = f[0];
		return 0;
	case K_FIRST_PARENT:
	case K_PROFILE:
		if (parse_bool(f[0], k == K_PROFILE ? &l->w.profile : &l->w.first_parent))
			return err_set(err, -EINVAL, "%s:%zu: %s \"%.40s\" is not true or false",
				       l->path, ln, key, f[0]);
		return 0;
	case K_EVERY:
		if (num_parse_digits(f[0], 10, INT64_MAX, &every) || !every)
			return err_set(err, -EINVAL,
				       "%s:%zu: every \"%.40s\" is not a positive number", l->path,
				       ln, f[0]);
		l->w.every = (long long)every;
		return 0;
	case K_LANES:
		return parse_lanes(l, f[0], err, ln);
	case K_TOOL:
		l->w.tool_name = f[0];
		l->w.tool_version = f[1];
		return 0;
	case K_COMMANDS:
		l->w.commands = f[0];
		return 0;
	case K_SUBJECT:
		for (size_t i = 0; i < l->n_subjects; i++)
			if (!strcasecmp(l->subjects[i].rev, f[0]))
				return err_set(err, -EINVAL, "%s:%zu: a second subject of %.40s",
					       l->path, ln, f[0]);
		l->subjects[l->n_subjects++] = (struct subject){ f[0], f[1] };
		return 0;
	default:
		return parse_commit(l, f, err, ln);
	}
}

/* Every line of buf (NUL-terminated, modified in place). */
static int parse_lines(struct list *l, char *buf, struct err *err)
{
	size_t ln = 0;
	int rc;

	for (char *line = buf, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		ln++;
		if (!*line || *line == '#')
			continue;
		rc = parse_line(l, line, err, ln);
		if (rc)
			return rc;
	}
	if (!l->w.n_lanes)
		return err_set(err, -EINVAL, "%s: no lanes line (lanes<TAB>vmx, svm or vmx,svm)",
			       l->path);
	for (size_t i = 0; i < l->w.n_commits; i++)
		for (size_t j = 0; j < l->n_subjects; j++)
			if (!strcasecmp(l->w.commits[i].rev, l->subjects[j].rev))
				l->w.commits[i].subject = l->subjects[j].text;
	return 0;
}

/* The walk file of l, through its writer and back through its reader. */
static struct walk_file *list_walk(struct list *l, struct err *err)
{
	json_t *doc = walk_json(&l->w);
	char *text = doc ? json_dumps(doc, RESULT_DUMP_FLAGS) : NULL;
	struct walk_file *w = NULL;

	if (!text)
		err_set(err, -ENOMEM, "%s: out of memory", l->path);
	else
		w = walk_read_buffer(l->path, text, strlen(text), err);
	free(text);
	json_decref(doc);
	return w;
}

struct walk_file *walk_list_read(const char *path, struct err *err)
{
	struct list l = { .path = path };
	struct walk_file *w = NULL;
	size_t len, lines = 1;
	char *buf;

	l.w.first_parent = l.w.profile = -1;
	l.w.every = -1;
	if (file_read_all(path, RESULT_MAX_FILE_BYTES, &buf, &len, err)) {
		err_prefix(err, "%s", path);
		return NULL;
	}
	if (strlen(buf) != len) {
		err_set(err, -EINVAL, "%s: contains a NUL byte at offset %zu (not a walk list)",
			path, strlen(buf));
		goto out;
	}
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	if (lines > RESULT_MAX_ITEMS) {
		err_set(err, -EINVAL, "%s: more than %d lines", path, RESULT_MAX_ITEMS);
		goto out;
	}
	l.w.commits = calloc(lines, sizeof(*l.w.commits));
	l.subjects = calloc(lines, sizeof(*l.subjects));
	if (!l.w.commits || !l.subjects)
		err_set(err, -ENOMEM, "%s: out of memory", path);
	else if (!parse_lines(&l, buf, err))
		w = list_walk(&l, err);
out:
	free(l.w.commits);
	free(l.subjects);
	free(buf);
	return w;
}
