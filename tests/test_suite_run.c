// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_suite_run.c - suites/suite_run.c on made-up tables (no KVM): checks
 * run in order, "applies" hides a check, and Ctrl-C (the stop flag) turns
 * the interrupted check's failures and skips and every later check into
 * "stopped", never into a failure.
 */
#include <signal.h>
#include <string.h>

#include "base/array_size.h"
#include "results/check_model.h"
#include "suites/suite_run.h"
#include "tests/tap.h"

struct fake {
	struct check_report *rep;
	volatile sig_atomic_t *stop;
	int ran;
};

static void fake_pass(void *ctx)
{
	struct fake *f = ctx;

	f->ran++;
	check_add_ev(f->rep, "fake", "first", CHECK_PASS, "0x7", "0x7", "as wanted");
}

/* Fails, and Ctrl-C comes while it runs. */
static void fake_fail_stopped(void *ctx)
{
	struct fake *f = ctx;

	f->ran++;
	check_add(f->rep, "fake", "second_a", CHECK_FAIL, "lost %d bytes", 16);
	check_add(f->rep, "fake", "second_b", CHECK_PASS, "fine");
	*f->stop = 1;
}

static void fake_never(void *ctx)
{
	((struct fake *)ctx)->ran += 100;
}

static bool fake_no(const void *ctx)
{
	return false;
}

static const struct suite_check table[] = {
	{ { "first" }, .run = fake_pass },
	{ { "hidden" }, .run = fake_never, .applies = fake_no },
	{ { "second_a", "second_b", "second_c" }, .run = fake_fail_stopped },
	{ { "third" }, .run = fake_never },
};

static const struct check_result *find(const struct check_report *rep, const char *name)
{
	return check_find(rep, "fake", name);
}

int main(void)
{
	volatile sig_atomic_t stop = 0;
	struct check_report rep = { 0 };
	struct fake f = { .rep = &rep, .stop = &stop };
	struct suite_env env = { .stop = &stop };
	const struct check_result *c;

	tap_plan(10);
	suite_run(&env, &rep, "fake", table, ARRAY_SIZE(table), &f);
	is_int(f.ran, 2, "the two checks before the stop ran, the hidden and the later one did not");
	c = find(&rep, "first");
	ok(c && c->status == CHECK_PASS && !strcmp(c->observed, "0x7"), "first: pass with its evidence");
	ok(!find(&rep, "hidden"), "a check that does not apply records nothing");
	c = find(&rep, "second_a");
	ok(c && c->status == CHECK_STOPPED, "the interrupted check's failure is 'stopped'");
	tap_is_str(c ? c->detail : "", "stopped by request while it ran (fail: lost 16 bytes)",
		   "its detail keeps what it saw");
	c = find(&rep, "second_b");
	ok(c && c->status == CHECK_PASS, "a pass recorded before the stop stays a pass");
	c = find(&rep, "second_c");
	ok(c && c->status == CHECK_STOPPED, "a name the interrupted check did not reach is 'stopped'");
	c = find(&rep, "third");
	ok(c && c->status == CHECK_STOPPED && !strcmp(c->detail, SUITE_STOPPED_DETAIL),
	   "a later check is recorded as stopped without running");
	is_int(check_count(&rep, CHECK_FAIL), 0, "a stopped run never fails");
	is_int(rep.n, 5, "first, second_a/b/c, third");
	check_report_free(&rep);
	return tap_done();
}
