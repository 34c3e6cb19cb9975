/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.h - minimal TAP producer for the C test programs (kselftest style):
 * plan, ok/is/like with diagnostics, skip with a reason, and exit status.
 */
#ifndef EXITSCOPE_TESTS_TAP_H
#define EXITSCOPE_TESTS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tap {
	int planned, run, failed;
};

static struct tap tap_state;	/* test programs only */

static inline void tap_plan(int n)
{
	tap_state.planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static inline bool tap_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tap_state.run++;
	if (!cond)
		tap_state.failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_state.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#define tap_is_u64(got, want, ...) ({						\
	uint64_t __g = (uint64_t)(got), __w = (uint64_t)(want);			\
	bool __r = tap_ok(__g == __w, __VA_ARGS__);				\
	if (!__r)								\
		tap_diag("  got %" PRIu64 " (%#" PRIx64 "), want %" PRIu64 " (%#" PRIx64 ")", __g, __g, __w, __w); \
	__r; })

#define tap_is_str(got, want, ...) ({						\
	const char *__g = (got), *__w = (want);					\
	bool __r = tap_ok(__g && __w && !strcmp(__g, __w), __VA_ARGS__);	\
	if (!__r)								\
		tap_diag("  got '%s', want '%s'", __g ? __g : "(null)", __w ? __w : "(null)"); \
	__r; })

#define tap_like(got, needle, ...) ({						\
	const char *__g = (got), *__n = (needle);				\
	bool __r = tap_ok(__g && strstr(__g, __n), __VA_ARGS__);		\
	if (!__r)								\
		tap_diag("  '%s' does not contain '%s'", __g ? __g : "(null)", __n); \
	__r; })

static inline void tap_skip(int n, const char *why)
{
	for (int i = 0; i < n; i++) {
		tap_state.run++;
		printf("ok %d # SKIP %s\n", tap_state.run, why);
	}
	fflush(stdout);
}

/* Whole program skipped: plan 0 with a reason. */
static inline int tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	return 0;
}

static inline int tap_done(void)
{
	if (tap_state.planned && tap_state.run != tap_state.planned)
		tap_diag("planned %d tests but ran %d", tap_state.planned, tap_state.run);
	return tap_state.failed || (tap_state.planned && tap_state.run != tap_state.planned);
}

/* Short names (Test::More style); a plan may also come at the end. */
#define ok(cond, ...)	tap_ok((cond), __VA_ARGS__)
#define diag(...)	tap_diag(__VA_ARGS__)

static inline bool is_int(long long got, long long want, const char *name)
{
	bool r = tap_ok(got == want, "%s", name);

	if (!r)
		tap_diag("  got %lld, want %lld", got, want);
	return r;
}

static inline bool is_num(double got, double want, double eps, const char *name)
{
	double d = got - want;
	bool r = tap_ok(d <= eps && d >= -eps, "%s", name);

	if (!r)
		tap_diag("  got %.12g, want %.12g (+/- %g)", got, want, eps);
	return r;
}

static inline void skip(const char *why)
{
	tap_skip(1, why);
}

/* No plan given up front: print it now; exit status for main(). */
static inline int done_testing(void)
{
	if (!tap_state.planned) {
		printf("1..%d\n", tap_state.run);
		fflush(stdout);
	}
	return tap_done();
}

#endif
