/* tap.h - header-only TAP producer for the test programs (run by prove). */
#ifndef EXITSCOPE_TESTS_TAP_H
#define EXITSCOPE_TESTS_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int run, failed, planned;
} tap_state __attribute__((unused));

static inline void tap_vline(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* "1..n"; call once before the first test, or let done_testing() print it. */
static inline void plan(int n)
{
	tap_state.planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

/* Skip the whole program: "1..0 # SKIP reason", exit 0. */
static inline __attribute__((noreturn, format(printf, 1, 2)))
void skip_all(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline("1..0 # SKIP ", fmt, ap);
	va_end(ap);
	exit(0);
}

/* Diagnostic line ("# ..."): shown by prove -v, ignored for the verdict. */
static inline __attribute__((format(printf, 1, 2)))
void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline("# ", fmt, ap);
	va_end(ap);
}

static inline __attribute__((format(printf, 2, 3)))
int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_state.run++;
	if (!cond)
		tap_state.failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_state.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	return cond;
}

/* n tests skipped for reason. */
static inline void skip(int n, const char *reason)
{
	while (n-- > 0) {
		tap_state.run++;
		printf("ok %d # SKIP %s\n", tap_state.run, reason);
	}
	fflush(stdout);
}

static inline int is_int(long long got, long long want, const char *name)
{
	if (!ok(got == want, "%s", name))
		diag("  got %lld, want %lld", got, want);
	return got == want;
}

static inline int is_str(const char *got, const char *want, const char *name)
{
	int same = got && want ? strcmp(got, want) == 0 : got == want;

	if (!ok(same, "%s", name))
		diag("  got \"%s\", want \"%s\"", got ? got : "(null)", want ? want : "(null)");
	return same;
}

/* got contains the substring want. */
static inline int like_str(const char *got, const char *want, const char *name)
{
	int has = got && want && strstr(got, want);

	if (!ok(has, "%s", name))
		diag("  \"%s\" does not contain \"%s\"", got ? got : "(null)", want ? want : "(null)");
	return has;
}

/* |got - want| <= tol */
static inline int is_num(double got, double want, double tol, const char *name)
{
	int close = fabs(got - want) <= tol;

	if (!ok(close, "%s", name))
		diag("  got %.9g, want %.9g (tolerance %g)", got, want, tol);
	return close;
}

/* Exit status for main(): prints the plan if none was given. */
static inline int done_testing(void)
{
	if (!tap_state.planned)
		printf("1..%d\n", tap_state.run);
	else if (tap_state.planned != tap_state.run)
		diag("planned %d tests but ran %d", tap_state.planned, tap_state.run);
	fflush(stdout);
	return tap_state.failed || (tap_state.planned && tap_state.planned != tap_state.run);
}

#endif
