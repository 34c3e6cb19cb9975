/* SPDX-License-Identifier: GPL-2.0-only */
/* fixture.h - build synthetic result files (schema v1) and temp dirs for the tests. */
#ifndef EXITSCOPE_TESTS_FIXTURE_H
#define EXITSCOPE_TESTS_FIXTURE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* A host record; mode is "native", "emulated" or "unknown". */
json_t *fixture_host(const char *kernel, const char *cpu_name, const char *mode);

/*
 * n deterministic samples spread uniformly in center +- spread (seeded
 * splitmix64), written to out.
 */
void fixture_samples(double *out, size_t n, double center, double spread, uint64_t seed);

/* An "ok" probe with those samples (cycles block computed from them) and exits/op. */
json_t *fixture_probe(const char *name, const char *group, const double *samples, size_t n,
		      double exits);

/* A probe that did not run: status "skipped", "failed" or "hang". */
json_t *fixture_probe_status(const char *name, const char *group, const char *status,
			     const char *reason);

/* A map entry / profile / map. fixture_map_profile steals entries. */
json_t *fixture_map_entry(const char *reg, int bit, const char *name, const char *op,
			  const char *status, double exits);
json_t *fixture_map(int emulated, const char *profile, json_t *entries);

/* A check result. */
json_t *fixture_check(const char *suite, const char *name, const char *status, const char *detail);

/* A run's "settings": a 0.2 s budget, any CPU, method, rounds, a 0.5 % precision. */
json_t *fixture_settings(const char *method, long long rounds);

/* A "run" result; steals host and probes (an array). */
json_t *fixture_result(json_t *host, json_t *probes);

/*
 * A "run" result of n "ok" probes probe_000.. (a native 6.1.0 host): at
 * n = 400 what a command writes from it is far beyond a pipe's 64 KiB, for
 * the tests that stop a command blocked writing to a FIFO.
 */
json_t *fixture_result_large(size_t n);

/* Write doc to dir/name (pretty-printed); returns the path (static buffer) or NULL. */
const char *fixture_write(const char *dir, const char *name, json_t *doc);

/* Write len bytes to dir/name; returns the path (static buffer) or NULL. */
const char *fixture_write_raw(const char *dir, const char *name, const void *buf, size_t len);

/* A fresh private temp dir (removed by fixture_rmdir); NULL on failure. */
char *fixture_tmpdir(void);
/* The probe object named name in a result document's "probes" (NULL if none). */
json_t *fixture_probe_json(json_t *root, const char *name);
/* obj's member key as a number (NAN unless it is one) or a string ("" unless it is one). */
double fixture_num(json_t *obj, const char *key);
const char *fixture_str(json_t *obj, const char *key);
void fixture_rmdir(char *dir);
/* The names in dir that start with prefix (e.g. temporaries left behind); 0 if dir cannot be read. */
int fixture_count_prefixed(const char *dir, const char *prefix);

#endif
