/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map.h - the CR0/CR4 ownership map: for every CR0/CR4 bit a 64-bit guest
 * may toggle (and for reads of CR0/CR3/CR4/CR8), the guest performs the
 * operation K times between two syncs and the host counts the exits of
 * that region as the latency harness does (harness/region.h: vCPU stats-fd
 * "exits" delta minus the closing sync's own exit); cycles per op come
 * from the guest's TSC. Status per entry: "owned" (0 exits/op),
 * "intercepted" (>= 1), "rejected" (the toggle faults, vector recorded),
 * "emulated" (the host emulates all guest code: ownership is not
 * meaningful, no bit is ever called owned), "skipped" (with the reason),
 * "stopped" (Ctrl-C came while it was measured or before). Runs once per
 * CPUID profile (map/cpuid_profile.h) into the model of results/map_model.h,
 * whose writer gives the "map" object of docs/results-schema.md, plus
 * "changes": entries whose status differs between CPUID profiles.
 */
#ifndef EXITSCOPE_MAP_MAP_H
#define EXITSCOPE_MAP_MAP_H

#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"
#include "results/map_model.h"
#include "harness/suite_env.h"

#define MAP_DEFAULT_OPS		200	/* CR writes (or reads) per round */
#define MAP_DEFAULT_ROUNDS	3	/* the round with the fewest exits counts */

struct map_opts {
	unsigned int ops;		/* 0: MAP_DEFAULT_OPS (rounded up to even) */
	unsigned int rounds;		/* 0: MAP_DEFAULT_ROUNDS */
	bool trace;			/* attribute the first round's exits by reason */
	/*
	 * Called (may be NULL) as each entry starts to be measured, with its
	 * key (reg, name, op, bit, feature) filled in; a Ctrl-C that comes
	 * now stops that entry.
	 */
	void (*progress)(void *ctx, const char *cpuid_profile, const struct result_map_entry *e);
	void *progress_ctx;
};

/*
 * Build the map under each CPUID profile spec (NULL or n == 0: "host" and
 * "minimal"). env->hi must be filled (hostinfo_collect). Returns 0 with
 * *map_out set (result_map_free() it); -EINTR with *map_out set too when
 * env->stop ended it early: the entry being measured and all after it are
 * "stopped" and the map is incomplete; -EINVAL for a bad CPUID profile; or
 * -errno when no VM could be built (*map_out NULL). err says why.
 */
int map_collect(const struct suite_env *env, const char *const *cpuid_profiles, size_t n,
		struct result_map **map_out, struct err *err);
int map_collect_opts(const struct suite_env *env, const char *const *cpuid_profiles, size_t n,
		     const struct map_opts *opts, struct result_map **map_out,
		     struct err *err);
/*
 * The entries every CPUID profile has, in order: how many, and the key (reg,
 * name, op, bit; no feature) of entry i < map_nr_entries() into e (any
 * memory, overwritten: all else absent; it owns nothing afterwards).
 */
size_t map_nr_entries(void);
void map_entry_key_at(size_t i, struct result_map_entry *e);
/* The grid (one table per CPUID profile) and the changes between them. */
void map_print(FILE *f, const struct result_map *map);

#endif
