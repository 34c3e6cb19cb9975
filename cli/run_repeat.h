/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_repeat.h - `exitscope run --repeat N` at the edge: the options it
 * needs checked, the series of runs started (method/repeat.h), each run's
 * table headed on stdout, and the files written listed at the end.
 */
#ifndef EXITSCOPE_CLI_RUN_REPEAT_H
#define EXITSCOPE_CLI_RUN_REPEAT_H

#include <stdbool.h>

/* What cmd_run's parser found of --repeat and --json. */
struct run_repeat {
	unsigned int n;			/* --repeat N; 0: not given */
	bool *drop;			/* argc entries: argv[k] belongs to a --repeat option */
	int json_arg;			/* argv index of the last --json's FILE (json_inline: of the option), -1 */
	bool json_inline;		/* that option was --json=FILE */
};

/*
 * Run the command argv[0..argc-1] ("run" ...) rep->n times, each a process
 * of its own without --repeat and with --json FILE-I.json (json_path: the
 * command's --json FILE, openmetrics: its --openmetrics; NULL: not given).
 * The exit status: 0, 2 (usage: no --json FILE, --json -, --openmetrics, an
 * unwritable FILE-I.json), 128 + the signal after a stop (Ctrl-C 130,
 * SIGTERM 143, SIGHUP 129), or the first failed run's.
 */
int run_repeat(const struct run_repeat *rep, const char *json_path, const char *openmetrics,
	       int argc, char **argv);

#endif
