/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * err.h - how the library reports an error: the one convention, written here.
 *
 * A function that can fail returns int: 0 on success, a negative errno on
 * failure (-EINVAL for bad input, -ENOMEM, the errno of a failed system
 * call, ...). A function that returns an object returns a pointer, NULL on
 * failure. Callers test "r < 0" (or "r != 0", or "!p"), never one value.
 *
 * kvm/ returns the bare -errno and says nothing: its callers know what they
 * asked for (which ioctl, which vCPU) and say it themselves.
 *
 * Every function above kvm/ that can say why it failed takes
 * "struct err *err" as its last parameter. On failure it fills it once, with
 * one line (no newline) that names the object - a file, a probe, a JSON path,
 * an environment variable - and the problem: "runs/a.json: probes[3].name:
 * not a string". err may be NULL (the caller only wants the code); a
 * caller reads it only after a failure. A caller that adds context to a
 * callee's message uses err_prefix.
 *
 * The message is turned into output at the edge: the cli prints
 * "exitscope CMD: <msg>" (cli_error, which escapes unprintable bytes) and
 * picks the exit status; the library never prints an error itself.
 *
 * Outcomes that are not failures are results, not errors, and do not use
 * struct err: a probe that skips (PROBE_SKIPPED) or a guest status
 * (guest/status.h) is a value the caller records, and the reason for it
 * goes with that value (the probe's reason, written into the result file),
 * not into struct err. A probe's positive return (probes/probes.h) is such
 * an outcome; its negative return is an error under this convention.
 * Likewise a question whose "no" is an answer and not a failure - is tracefs
 * usable (trace_available), may this probe run here (probe_unmet), did KVM
 * keep the guest's XCR0 (guest_xcr0_apply) - writes its reason into a char
 * buffer of the caller's, which records it as a skip or prints it as a note.
 */
#ifndef EXITSCOPE_BASE_ERR_H
#define EXITSCOPE_BASE_ERR_H

#include <stdarg.h>

/*
 * A path (PATH_MAX, 4096) and a few hundred characters about it; longer
 * messages are cut. A number, not PATH_MAX: guest code sees this header
 * through guest/vm.h and is built freestanding, without <limits.h>'s.
 */
#define ERR_MSG_MAX (4096 + 512)

struct err {
	int code;		/* the negative errno returned with the message; 0: none */
	char msg[ERR_MSG_MAX];	/* one line, NUL-terminated; "" until something failed */
};

/* No error yet: code 0, empty message. */
void err_init(struct err *e);

/*
 * Fill e (when not NULL) with code and the formatted message, cut to fit.
 * Returns code, so "return err_set(err, -EINVAL, "...")" reports and fails
 * in one statement. Bytes quoted from input are kept as they are: the edge
 * escapes what is not printable (cli_error prints \xNN).
 */
int err_set(struct err *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int err_vset(struct err *e, int code, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

/*
 * Put "<formatted>: " in front of the message already in e (when not NULL),
 * cutting the end if the whole does not fit. Returns e's code (0 for NULL).
 */
int err_prefix(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
