/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe_out.h - probe results as notes and as the result model's probe
 * (results/run_model.h), which gives the JSON probe objects
 * (docs/results-schema.md, PROBE); the table is probes/probe_table.h.
 */
#ifndef EXITSCOPE_PROBES_PROBE_OUT_H
#define EXITSCOPE_PROBES_PROBE_OUT_H

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

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

/* The PROBE object of o (probe_outcome_record + run_probe_json); NULL when out of memory. */
json_t *probe_outcome_json(const struct probe_outcome *o);


/* --list: every probe with its group and requirement. */
void probe_list_print(FILE *f);

#endif
