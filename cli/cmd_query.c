// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_query.c - `exitscope query [--plain] FILE PATH...`: the figures scripts
 * need from a result file, a compare document or a noise floor, read
 * through exitscope's own reader of that file (results/query.h) rather than
 * a second parser in the script; one line per value selected.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "compare/compare.h"
#include "results/file_read.h"
#include "results/query_text.h"
#include "results/schema.h"
#include "results/walk_model.h"

#define QUERY_FILE_ECHO_MAX	200	/* bytes of FILE's name quoted in an error */

struct query_args {
	bool plain;
};

static const struct cli_row query_rows[] = {
	CLI_ROW_FLAG("plain", CLI_LONG('p'), struct query_args, plain,
		     "FILE is any JSON document: check its syntax only (a lane's\n"
		     "helper output, not an exitscope file)"),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec query_spec = {
	.name = "query",
	.usage = "[options] FILE PATH [PATH ...]",
	.about = "Print the values PATH selects in FILE, one line each: what a script needs\n"
		 "from a result file (run, map, check, info), a compare --json document, a\n"
		 "noise floor (calibrate), a walk or its steps (walk --json), read and\n"
		 "validated as exitscope reads it. FILE '-' is stdin. PATH is keys separated\n"
		 "by '.', each key optionally followed by selectors of an array's elements:\n"
		 "[ID] by identity (probes, functions, profiles: name; exits: reason; checks:\n"
		 "SUITE/NAME; map entries: REG/NAME/OP; a walk's commits: the full REV), [*]\n"
		 "all, [FIELD=VALUE], [FIELD!=VALUE], [FIELD~REGEX] (no spaces around FIELD\n"
		 "or VALUE; \\[ and \\] for brackets). A final '#' prints how many values PATH\n"
		 "selects; '.' is the whole document. A PATH has at most 32 steps; a REGEX\n"
		 "has no back-reference and bounded repeats (man exitscope-query, LIMITS).\n"
		 "Strings print as they are, numbers in their shortest form (also inside\n"
		 "objects and arrays, which print as one line of JSON).\n",
	.rows = query_rows,
	.col = 15,
	.order = '+',	/* options end at FILE: a PATH is never taken for an option */
	.tail = "  exitscope query run.json 'probes[cpuid].cycles.median'\n"
		"  exitscope query check.json 'checks[status=fail]#'\n"
		"\n"
		"Exit status: 0 every PATH selected a value (or counted), 1 some PATH\n"
		"selected nothing (nothing is printed for it), 2 usage error, a PATH that\n"
		"does not parse, an unreadable or invalid FILE, or a failure (out of\n"
		"memory, stdout not written): never 1, which is an answer.\n",
};

/* All of stdin, under the readers' size limit. 0, or -errno with why in err. */
static int read_stdin(char **buf, size_t *len, struct err *err)
{
	size_t cap = 1 << 16, n = 0, got;
	char *b = malloc(cap + 1), *nb;

	while (b && (got = fread(b + n, 1, cap - n, stdin)) > 0) {
		n += got;
		if (n > RESULT_MAX_FILE_BYTES) {
			free(b);
			return err_set(err, -EFBIG, "-: file too large (limit %u bytes)",
				       RESULT_MAX_FILE_BYTES);
		}
		if (n == cap) {
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb)
				free(b);
			b = nb;
		}
	}
	if (!b)
		return err_set(err, -ENOMEM, "-: out of memory");
	if (ferror(stdin)) {
		free(b);
		return err_set(err, -EIO, "-: cannot read stdin");
	}
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}

/*
 * FILE as named in messages: whole, or its first bytes and its length, so
 * that a name of 4 KB or more does not push the reason out of the line.
 */
static const char *file_shown(const char *file, char *buf, size_t size)
{
	size_t n = strlen(file);

	if (n <= QUERY_FILE_ECHO_MAX)
		return file;
	snprintf(buf, size, "%.*s... (path cut: %zu bytes)", QUERY_FILE_ECHO_MAX, file, n);
	return buf;
}

/*
 * Print what one path selects; 0 when it selected something (or counted), 1
 * when not, -ENOMEM with err set.
 */
static int query_print(struct query_file *qf, struct query_path *p, struct err *err)
{
	char *out;
	int r = query_text_path(qf, p, &out, err);

	if (r < 0)
		return r;
	fputs(out, stdout);
	free(out);
	return r;
}

int cmd_query(int argc, char **argv)
{
	/* The compare and walk steps documents have no reader: their envelope is what is checked. */
	static const struct query_envelope env[] = {
		{ COMPARE_SCHEMA, 1, COMPARE_SCHEMA_VERSION },
		{ WALK_STEPS_SCHEMA, 1, WALK_STEPS_SCHEMA_VERSION },
	};
	struct query_path **paths;
	struct query_file *qf;
	struct cli_parser cp;
	const char *file, *shown;
	char cut[QUERY_FILE_ECHO_MAX + 64];
	struct err err;
	char *buf = NULL;
	struct query_args a;
	int rc = EXIT_OK, npaths, i, r;
	size_t len;

	r = cli_parse(&cp, &query_spec, &a, argc, argv);
	if (r == CLI_PARSE_HELP)
		return cli_stdout_check_code("query", EXIT_OK, EXIT_USAGE);
	if (r)
		return r;
	if (argc - optind < 2)
		return cli_usage_error("query", argc == optind ? "need a FILE and a PATH" :
							      "need at least one PATH");
	file = argv[optind++];
	shown = file_shown(file, cut, sizeof(cut));
	npaths = argc - optind;
	paths = calloc(npaths, sizeof(*paths));
	if (!paths)
		return cli_error("query", EXIT_USAGE, "out of memory");
	for (i = 0; i < npaths; i++) {
		paths[i] = query_path_parse(argv[optind + i], &err);
		if (!paths[i]) {
			rc = cli_usage_error("query", "%s", err.msg);
			goto out;
		}
	}
	if (!strcmp(file, "-")) {
		if (read_stdin(&buf, &len, &err)) {
			rc = cli_error("query", EXIT_USAGE, "%s", err.msg);
			goto out;
		}
	} else if (file_read_all(file, RESULT_MAX_FILE_BYTES, &buf, &len, &err)) {
		rc = cli_error("query", EXIT_USAGE, "%s: %s", shown, err.msg);
		goto out;
	}
	qf = query_load_buffer(shown, buf, len, env, ARRAY_SIZE(env),
			       a.plain ? QUERY_LOAD_PLAIN : 0, &err);
	if (!qf) {
		rc = cli_error("query", EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	for (i = 0; i < npaths; i++) {
		r = query_print(qf, paths[i], &err);
		if (r < 0) {
			rc = cli_error("query", EXIT_USAGE, "%s", err.msg);
			break;
		}
		if (r)
			rc = EXIT_FAIL;
	}
	query_file_free(qf);
	rc = cli_stdout_check_code("query", rc, EXIT_USAGE);
out:
	for (i = 0; i < npaths; i++)
		query_path_free(paths[i]);
	free(paths);
	free(buf);
	return rc;
}
