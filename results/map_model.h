/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map_model.h - the CR0/CR4 ownership map as one C model: what `exitscope map`
 * (map/map.c) fills, what its JSON writer turns into the "map" object
 * of a result file (docs/results-schema.md) and what the reader fills
 * back from such a file for compare/ and report/.
 *
 * Strings are fixed arrays ("" when absent), so the producer can format
 * into them and the reader can copy into them; optional numbers are -1
 * when absent (present values are >= 0). The "changes" list of the JSON
 * (entries whose status differs between CPUID profiles) is not stored: it
 * is computed from the CPUID profiles (result_map_entry_changed).
 */
#ifndef EXITSCOPE_RESULTS_MAP_MODEL_H
#define EXITSCOPE_RESULTS_MAP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "results/field.h"
#include "results/jcheck.h"
#include "results/schema.h"
#include "results/trace_model.h"

#define MAP_KEY_LEN		32	/* reg, name, op, feature */
#define MAP_DETAIL_LEN		384	/* free text: longer text read from a file is cut */
#define MAP_CPUID_PROFILE_LEN	160	/* CPUID profile name and spec */
#define MAP_NOTE_LEN		256	/* free text: cut like detail */

/* Outcome of KVM_SET_SREGS with the entry's CR4 bit set ("sregs"). */
enum map_sregs { MAP_SREGS_NONE, MAP_SREGS_ACCEPTED, MAP_SREGS_REJECTED };

struct result_map_entry {
	char reg[MAP_KEY_LEN];			/* "cr0", "cr4"... */
	char name[MAP_KEY_LEN];			/* bit name, or "CR0" for reads */
	char op[MAP_KEY_LEN];			/* "toggle" or "read" */
	long long bit;				/* 0..63 */
	enum map_status status;
	long long vector;			/* -1, or the fault vector (rejected) */
	double exits_per_op, cycles_per_op;	/* -1 when not measured */
	double user_exits_per_op, insn_emulation_per_op;	/* -1 when not measured */
	char detail[MAP_DETAIL_LEN];		/* "" when absent */
	char feature[MAP_KEY_LEN];		/* CPUID feature the bit needs, "" if none */
	int cpuid;				/* the CPUID profile has it: 1/0; -1 without feature */
	enum map_sregs sregs;
	int sregs_errno;			/* > 0 when sregs is rejected, else 0 */
	struct result_trace trace;		/* exits/op by exit reason, when traced */
};

struct result_map_cpuid_profile {
	char name[MAP_CPUID_PROFILE_LEN];
	char spec[MAP_CPUID_PROFILE_LEN];	/* "" when absent */
	char note[MAP_NOTE_LEN];		/* "" when absent */
	struct result_map_entry *entries;
	size_t n_entries, cap_entries;
};

struct result_map {
	int emulated;				/* ownership not meaningful */
	long long ops, rounds;			/* per round, per entry; -1 when absent */
	int incomplete;				/* interrupted (Ctrl-C) */
	struct result_map_cpuid_profile *profiles;	/* CPUID profiles, as the JSON key */
	size_t n_profiles, cap_profiles;
};

/* A new empty map (ops, rounds absent), or NULL. */
struct result_map *result_map_new(void);
void result_map_free(struct result_map *m);

/*
 * Append a CPUID profile (name and spec copied; spec may be NULL) or an entry
 * (reset to all-absent, status skipped). NULL when out of memory or a
 * string does not fit. Appending moves earlier CPUID profiles/entries: do not
 * keep pointers to them across calls.
 */
struct result_map_cpuid_profile *result_map_cpuid_profile_add(struct result_map *m,
							      const char *name, const char *spec);
struct result_map_entry *result_map_entry_add(struct result_map_cpuid_profile *p);
void result_map_entry_reset(struct result_map_entry *e);

/* The entry of p with key's reg, bit and op, or NULL. */
const struct result_map_entry *result_map_find_entry(const struct result_map_cpuid_profile *p,
						     const struct result_map_entry *key);
/*
 * Whether the entry of CPUID profile 0 has another status in some other one
 * ("stopped" never counts).
 */
bool result_map_entry_changed(const struct result_map *m, const struct result_map_entry *e);
/* How many entries of all CPUID profiles have status st. */
size_t result_map_count(const struct result_map *m, enum map_status st);

/* The "map" object of a result file, "changes" included; NULL when out of memory. */
json_t *result_map_json(const struct result_map *m);

/* The field tables behind them (MAP, its profiles, their entries). */
extern const struct field_desc result_map_fields, result_map_profile_fields,
	result_map_entry_fields;

#endif
