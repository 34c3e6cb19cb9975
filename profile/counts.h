/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counts.h - what the lanes' instrumented Bochs wrote (its profile file,
 * harness/profile_mark.h): one dump per profiled run, labelled with the
 * run's JSON path, holding each probe's op and baseline sides.
 */
#ifndef EXITSCOPE_PROFILE_COUNTS_H
#define EXITSCOPE_PROFILE_COUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct prof_count {
	uint64_t key, n;	/* an address (or an exit reason) and its count */
};

struct prof_list {
	struct prof_count *v;
	size_t n, cap;
};

/*
 * A census count: an L1 kernel instruction of a costly kind (the module's
 * table, lanes/bochs-instrument/instrument.cc) at rip with its operand
 * (an MSR or XCR index, a VMCS field encoding, a CR or DR number; none
 * for kinds whose cost does not depend on one) executed n times.
 */
struct prof_census {
	uint64_t rip;
	char insn[16];			/* lower-case mnemonic as the module names it */
	uint64_t operand;
	bool has_operand;
	uint64_t n;
};

struct prof_census_list {
	struct prof_census *v;
	size_t n, cap;
};

struct prof_side {
	uint64_t ops, batches, guest, kernel, user;
	struct prof_list insn, calls, entries, exits;
	struct prof_census_list census;	/* empty in a version-1 file */
};

struct prof_probe {
	char *name;
	struct prof_side op, base;		/* pairs without an L1 interrupt */
	struct prof_side op_irq, base_irq;	/* pairs with one */
};

struct prof_dump {
	char *label;
	struct prof_probe *probes;	/* as the file lists them */
	size_t n;
	size_t *by_name;		/* probes' indexes by name, then place: prof_dump_probe */
};

struct prof_file {
	struct prof_dump *dumps;
	size_t n;
	int version;			/* PROFILE_FILE_VERSION of the file: 1 has no census */
};

/* Larger counts files are refused (one is a few MB per profiled run). */
#define PROF_FILE_MAX_BYTES	(1024u << 20)
/*
 * A larger count in the file is refused: every count up to it is exact as
 * a double too, and differences of two stay far from int64_t's limits.
 */
#define PROF_COUNT_MAX		(UINT64_C(1) << 53)

/*
 * Read path, a regular file of at most PROF_FILE_MAX_BYTES
 * (results/file_read.h: a FIFO, a device or a directory is refused). 0, or
 * -errno with err naming the file (and the line).
 */
int prof_file_read(struct prof_file *f, const char *path, struct err *err);
void prof_file_free(struct prof_file *f);
/* The last dump labelled label, or NULL. */
const struct prof_dump *prof_file_dump(const struct prof_file *f, const char *label);
/* The first probe called name in d, or NULL: a binary search of d->by_name. */
const struct prof_probe *prof_dump_probe(const struct prof_dump *d, const char *name);

#endif
