/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result_doc.h - a result file before it is JSON: what a measuring command
 * (run, check, map, info) fills with the models it already has, and the
 * one place that turns them into the file (docs/results-schema.md): the
 * envelope of result_write.h, then the kind's members in the kind's order.
 *
 * The models are borrowed: the command keeps them alive until its last
 * write (or text); the warnings are the document's own.
 */
#ifndef EXITSCOPE_RESULTS_RESULT_DOC_H
#define EXITSCOPE_RESULTS_RESULT_DOC_H

#include <stddef.h>

#include "base/err.h"
#include "results/check_model.h"
#include "results/host_record_model.h"
#include "results/map_model.h"
#include "results/run_model.h"

#define RESULT_DOC_TIME_LEN	32

struct result_doc {
	const char *kind;			/* "run", "check", "map", "info" */
	int argc;
	char **argv;				/* the command's, from its name on */
	char started[RESULT_DOC_TIME_LEN];	/* result_doc_init's time */
	long long pid;
	char finished[RESULT_DOC_TIME_LEN];	/* the first result_doc_write's time; "" before */
	/* The members; each absent when NULL (a run's settings, probes and warnings never are). */
	const struct host_record *host;		/* "host" */
	struct run_settings settings;		/* run: "settings" */
	const struct run_probe *probes;		/* run: "probes", n_probes of them */
	size_t n_probes;
	char **warnings;			/* run: "warnings" (result_doc_warn) */
	size_t n_warnings;
	const struct result_map *map;		/* "map" (run: --all) */
	const struct check_report *checks;	/* "checks" (run: --all) */
};

/*
 * A document of kind with no member yet, started now by this process.
 * argv: the command's from its name on (the file's "command" adds "exitscope").
 */
void result_doc_init(struct result_doc *d, const char *kind, int argc, char **argv);
/* Free what the document owns (its warnings); a zeroed document is fine too. */
void result_doc_release(struct result_doc *d);
/* Append a copy of msg to the warnings: 0 or -ENOMEM (nothing added). */
int result_doc_warn(struct result_doc *d, const char *msg);

struct outfile;
/*
 * Set "finished" (once: a later write keeps it) and write d to path ("-":
 * stdout) through results/outfile.h: atomically for a regular file, every
 * error checked. opened(o) once path is open, before anything is written,
 * and opened(NULL) once it is closed (a command makes the write stoppable
 * there: a stop ends a write blocked on a FIFO with -EINTR or -EAGAIN).
 * opened may be NULL. 0, or -errno with "PATH: reason" in err; a failed
 * write leaves an existing regular file untouched.
 */
int result_doc_write(struct result_doc *d, const char *path,
		     void (*opened)(const struct outfile *o), struct err *err);
/*
 * Write d as it is (no "finished" set) to a new file
 * $TMPDIR/exitscope-KIND-XXXXXX.json (TMPDIR unset: /tmp), its name in kept:
 * where a result goes when its target failed. 0 or -errno with err set.
 */
int result_doc_write_unique(const struct result_doc *d, char *kept, size_t keptlen,
			    struct err *err);
/* d as the file has it (without the final newline), malloc'ed; NULL when out of memory. */
char *result_doc_text(const struct result_doc *d);

#endif
