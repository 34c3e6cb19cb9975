/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exit_path.h - a probe's exit-path profile, the "exit_path" member of a run
 * probe (docs/results-schema.md): what the lanes' instrumented emulator
 * counted between the marks of the probe's op batches minus its baseline
 * batches, over the same number of operations. Every count is an exact
 * integer over ops operations; a per-op figure is that integer / ops.
 */
#ifndef EXITSCOPE_RESULTS_EXIT_PATH_H
#define EXITSCOPE_RESULTS_EXIT_PATH_H

#include <stdbool.h>
#include <jansson.h>
#include <stddef.h>

#include "results/field.h"
#include "results/jcheck.h"

#define EXIT_PATH_MAX_FUNCTIONS	4096
#define EXIT_PATH_MAX_EXITS	256
#define EXIT_PATH_MAX_CENSUS	1024	/* rows of one census (a path's or a function's) */
/* The largest count a file holds, either sign: sums beyond it are refused, never wrapped. */
#define EXIT_PATH_COUNT_MAX	(1LL << 62)
#define EXIT_PATH_NAME_MAX	48	/* a builder's insn or operand name, NUL included */
/* Inlined code and addresses outside every symbol are billed to these. */
#define EXIT_PATH_UNKNOWN	"[unknown]"

/*
 * One row of a census: the L1 kernel's executions of one costly instruction
 * kind with one operand (an MSR, a VMCS field, an XCR, a CR or DR), op
 * minus baseline: "xsetbv" "XCR0" 512 over 256 ops is 2 per op. A census
 * holds one row per (insn, operand), none with count 0, sorted by insn then
 * operand (byte order; no operand first): exit_path_census_sort.
 */
struct exit_path_census {
	const char *insn;		/* lower-case mnemonic: "wrmsr", "vmread", "xsetbv", ... */
	/* a name ("IA32_XSS"), the raw index ("0x4b564d02"), or NULL */
	const char *operand;
	long long count;		/* op minus baseline */
};

struct exit_path_fn {
	const char *name;		/* a text symbol of the lane kernel */
	long long insn;			/* L1 kernel instructions in it, op minus baseline */
	long long calls;		/* near calls to it, op minus baseline */
	struct exit_path_census *census;	/* the costly instructions in it, or NULL */
	size_t n_census;
};

struct exit_path_exit {
	const char *reason;		/* KVM's name of the exit reason */
	long long exits;		/* op minus baseline */
};

struct exit_path {
	bool present;
	long long ops;			/* operations of the op batches (= the baseline's) */
	/*
	 * Pairs of batches left out because the L1 kernel took an interrupt
	 * during them (a timer tick), so that the rest repeat exactly; when
	 * every pair had one, interrupts_included: the counts are theirs.
	 */
	long long interrupted_pairs;
	int interrupts_included;
	long long kernel_insn;		/* L1 kernel (host mode, CPL 0) */
	long long guest_insn;		/* the L2 guest */
	long long user_insn;		/* L1 user space: exitscope's own run loop */
	struct exit_path_fn *fns;	/* by insn, largest first */
	size_t n_fns;
	struct exit_path_exit *exits;	/* as the emulator saw them, by reason */
	size_t n_exits;
	/*
	 * The census of the whole path (every row of the functions' censuses
	 * summed), by insn then operand; has_census is 0 for a profile made
	 * without one (an older instrumentation module), where it is absent.
	 */
	bool has_census;
	struct exit_path_census *census;
	size_t n_census;
	const char *symbols;		/* optional: what the names were resolved with */
	char (*reason_buf)[24];		/* builder-owned storage of reason names, or NULL */
	char (*name_buf)[EXIT_PATH_NAME_MAX];	/* builder-owned census names, or NULL */
};

/* An integer count per op. */
static inline double exit_path_per_op(const struct exit_path *e, long long n)
{
	return e->ops > 0 ? (double)n / (double)e->ops : 0;
}

/* The "exit_path" object (NULL when out of memory). */
json_t *exit_path_json(const struct exit_path *e);
/*
 * The optional "exit_path" member of obj into e (arrays allocated, strings
 * borrowed from the document): 0, or -EINVAL with the jcheck error set. Its
 * census is optional (has_census 0 without); with one, each function's
 * census is optional, and the path's must be the sum of the functions'.
 */
int exit_path_read(struct jcheck *c, json_t *obj, struct exit_path *e);
/* Free what exit_path_read (or a builder) allocated; e is absent after. */
void exit_path_free(struct exit_path *e);
/* Sort e's functions by insn, largest first, then by name. */
void exit_path_sort(struct exit_path *e);
/* Sort a census by insn, then operand (strcmp order; no operand first). */
void exit_path_census_sort(struct exit_path_census *c, size_t n);
/* The order exit_path_census_sort sorts by (0: the same insn and operand). */
int exit_path_census_cmp(const struct exit_path_census *a, const struct exit_path_census *b);
/* The function called name, or NULL. */
const struct exit_path_fn *exit_path_find(const struct exit_path *e, const char *name);

/* The field tables behind the writer and reader (EXIT_PATH, its functions, exits, CENSUS rows). */
extern const struct field_desc exit_path_fields, exit_path_fn_fields, exit_path_exit_fields,
	exit_path_census_fields;

#endif
