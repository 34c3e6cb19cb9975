/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe_out.h - probe results as notes and as the result model's probe
 * (results/run_model.h: the JSON probe objects of docs/results-schema.md,
 * PROBE, are results/'s to write); the table is probes/probe_table.h.
 */
#ifndef EXITSCOPE_PROBES_PROBE_OUT_H
#define EXITSCOPE_PROBES_PROBE_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "probes/probes.h"
#include "harness/latency.h"
#include "results/run_model.h"

#define PROBE_CV_WARN		0.10	/* coefficient of variation called "high" */
#define PROBE_MAX_NOTES		6
#define PROBE_NOTE_LEN		160

/* A measured (or not) probe as the run command keeps it. */
struct probe_outcome {
	const struct probe *probe;
	struct latency_result res;
};

/* Noise and provenance notes of one outcome (as the JSON has them); returns how many. */
size_t probe_notes(const struct probe_outcome *o, char notes[][PROBE_NOTE_LEN], size_t max);
/* ... table: as the run table prints them (its columns give the CI and rounds, the notes not). */
size_t probe_notes_as(const struct probe_outcome *o, char notes[][PROBE_NOTE_LEN], size_t max, bool table);

/* An outcome as the result model, with the storage of its arrays. */
struct probe_record {
	struct run_probe rec;
	char notes[PROBE_MAX_NOTES][PROBE_NOTE_LEN];
	const char *note_ptrs[PROBE_MAX_NOTES];
	struct run_round rounds[LATENCY_MAX_ROUNDS];	/* samples point into the outcome */
};

/*
 * Fill out->rec from o; its strings and samples point into o (and out), its
 * trace is allocated: probe_record_release() when done.
 */
void probe_outcome_record(const struct probe_outcome *o, struct probe_record *out);
void probe_record_release(struct probe_record *r);

/* Outcomes as the array of probes a result document takes (results/result_doc.h). */
struct probe_records {
	struct run_probe *probes;	/* n, each a copy of store[i].rec */
	struct probe_record *store;	/* their arrays and trace */
	size_t n;
};
/* Fill out from o[0..n-1]: 0, or -ENOMEM (out empty). probe_records_free() when done. */
int probe_outcome_records(const struct probe_outcome *o, size_t n, struct probe_records *out);
void probe_records_free(struct probe_records *r);

/* --list: every probe with its group and requirement. */
void probe_list_print(FILE *f);

#endif
