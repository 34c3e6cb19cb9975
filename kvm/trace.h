/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h - count KVM exits by exit reason through tracefs kvm events.
 *
 * On a host whose KVM is kvm_intel or kvm_amd (and in the lanes, see
 * lanes/), the kvm:kvm_exit tracepoint records every VM exit with its
 * reason: VMX names such as CR_ACCESS, CPUID, IO_INSTRUCTION,
 * EPT_VIOLATION, EXTERNAL_INTERRUPT; SVM names such as read_cr4, write_cr4,
 * cpuid, io, npf, intr (arch/x86/include/uapi/asm/{vmx,svm}.h,
 * VMX_EXIT_REASONS / SVM_EXIT_REASONS). A reason the kernel has no name for
 * is printed (and counted) as its hex code; VMX exit-reason flags follow
 * the name after a space ("0x21 FAILED_VMENTRY") and are kept in the key.
 *
 * Use:
 *
 *	char why[256];
 *	struct trace_session s = { 0 };	// pid 0: this process's threads
 *	struct trace_counts c;
 *
 *	if (!trace_available(why, sizeof(why)))
 *		... no attribution: report why ...
 *	if (trace_begin(&s) == 0) {
 *		... run the measured region (KVM_RUN in any thread) ...
 *		if (trace_end(&s, &c) == 0)
 *			n = trace_count(&c, "CR_ACCESS");
 *	}
 *
 * or trace_run(&s, fn, arg, &c), which does the same around fn(arg).
 *
 * trace_begin() creates a private tracefs instance (instances/exitscope-*)
 * with its own ring buffer, so concurrent users (another exitscope, a
 * perf/trace-cmd session) neither see nor disturb each other; only when the
 * kernel has no instances does it fall back to the top-level buffer, which
 * it clears and restores the filters of at trace_end(). Events are filtered
 * to the threads of this process (set_event_pid, with event-fork so that
 * threads created later are followed) unless pid says otherwise.
 *
 * Needs root (or write access to tracefs) and a kernel with
 * CONFIG_EVENT_TRACING whose KVM has the kvm_exit event. trace_available()
 * mounts tracefs on /sys/kernel/tracing when it is not mounted yet and it
 * may (root); that is its only side effect.
 *
 * All functions return 0 (or a count) on success and a negative errno on
 * failure; none prints, exits or keeps global state. A session must be
 * ended by trace_end() (or trace_abort()) once begun. trace_parse() is the
 * pure text parser used by trace_end(), exposed for tests.
 */
#ifndef EXITSCOPE_KVM_TRACE_H
#define EXITSCOPE_KVM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TRACE_MAX_REASONS	64
#define TRACE_NAME_LEN		48
#define TRACE_PATH_LEN		256

struct trace_reason {
	char name[TRACE_NAME_LEN];	/* as printed by the kernel */
	uint64_t count;
};

struct trace_counts {
	unsigned int nr;		/* used entries of reason[] */
	struct trace_reason reason[TRACE_MAX_REASONS];
	uint64_t total;			/* kvm_exit events seen */
	uint64_t other;			/* of total: reasons that did not fit */
	uint64_t unparsed;		/* kvm_exit lines without "reason X" */
	uint64_t lost;			/* events the ring buffer dropped */
};

struct trace_session {
	/* Set by the caller before trace_begin(); zero means the default. */
	pid_t pid;			/* 0: all threads of this process;
					 * > 0: that task; < 0: no filter */
	unsigned int buffer_kb;		/* per-CPU ring buffer; 0: 8192 */

	/* Private to trace.c. */
	char dir[TRACE_PATH_LEN];	/* instance (or tracefs root) */
	bool instance;			/* dir is our own instance */
	bool active;
	long saved_buffer_kb;		/* top-level fallback only */
};

/*
 * 1 when kvm_exit events can be traced here, 0 when not; why (if non-NULL)
 * then says why, e.g. "tracefs not mounted and mount failed: Operation
 * not permitted" or "no kvm_exit event (is a KVM module loaded?)".
 */
int trace_available(char *why, size_t len);

/* Start counting kvm_exit events into a fresh buffer. */
int trace_begin(struct trace_session *s);

/*
 * Stop, read and parse the events recorded since trace_begin() into *out
 * (reset first) and release the session. The session is released even
 * when reading fails.
 */
int trace_end(struct trace_session *s, struct trace_counts *out);

/* Release a begun session without reading it. */
void trace_abort(struct trace_session *s);

/*
 * trace_begin(), fn(arg), trace_end(). Returns fn's result when tracing
 * worked (fn's result may be negative), or the tracing error; *out is
 * valid only when the function returned fn's result and fn ran.
 */
int trace_run(struct trace_session *s, int (*fn)(void *), void *arg,
	      struct trace_counts *out);

/* Empty counts. */
void trace_counts_init(struct trace_counts *c);

/*
 * Parse the text of a tracefs "trace" file (len bytes, need not be NUL
 * terminated) and add its kvm_exit events to *c. Other events and comment
 * lines are ignored; "[LOST n EVENTS]" adds n to c->lost. Returns the
 * number of kvm_exit events added.
 */
long trace_parse(const char *buf, size_t len, struct trace_counts *c);

/* Count of one reason (exact name), 0 when absent. */
uint64_t trace_count(const struct trace_counts *c, const char *name);
/*
 * Drop one port-I/O exit (VMX IO_INSTRUCTION, SVM io): the ucall that
 * closes a traced region is the harness's, not the measured operation's.
 * Returns 0, or -ENOENT when there was none to drop.
 */
int trace_drop_ucall(struct trace_counts *c);

#endif /* EXITSCOPE_KVM_TRACE_H */
