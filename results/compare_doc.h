/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_doc.h - read back what `exitscope report` needs of a compare
 * --json document (docs/compare-report.md): the files of each side, the
 * options it was made with, and each probe's figures and verdict, so a
 * comparison made again from the same files can be checked against it.
 */
#ifndef EXITSCOPE_RESULTS_COMPARE_DOC_H
#define EXITSCOPE_RESULTS_COMPARE_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

struct compare_doc_probe {
	const char *name, *verdict;
	bool has_figures;		/* base_median, new_median present (a compared probe) */
	double base_median, new_median;
};

struct compare_doc {
	const char *name;		/* the file read */
	const char *schema;		/* its "schema" */
	long long version;		/* its "schema_version" */
	const char **base_files, **new_files;	/* as the document names them */
	size_t n_base, n_new;
	double threshold_pct;
	long long seed;
	const char *normalize;		/* normalize.asked; NULL: the document has none */
	const char *noise_file;		/* noise.file; NULL: no floor was used */
	int noise_used;			/* the document's noise is not null */
	struct compare_doc_probe *probes;
	size_t n_probes;
	void *doc;			/* the parsed document */
};

/* The "schema" string of the JSON document at path into buf (len bytes): 0, or -1 (none). */
int compare_doc_schema(const char *path, char *buf, size_t len);

/*
 * Read the document at path (a compare --json output of schema_version 2
 * or later: the first with base_files and new_files). NULL with one line
 * in err naming the file and the field when it does not parse or lacks
 * what report needs.
 */
struct compare_doc *compare_doc_read(const char *path, struct err *err);

void compare_doc_free(struct compare_doc *d);

#endif
