// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_schedule.c - method v2's schedule (method/schedule.c) driven without
 * the CLI and without KVM: a fake round appends a synthetic round median
 * (or fails, hangs, or sets the stop flag as Ctrl-C would), a fake clock
 * advances by a set step per round, and the tests assert the visiting
 * order, when and why each probe stops, what a Ctrl-C keeps, and the
 * progress units.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/array_size.h"
#include "method/schedule.h"
#include "probes/probe_out.h"
#include "tests/tap.h"

#define NP	3
#define MAXLOG	128

/* A medians series that never reaches any precision: its spread is about its mean. */
static const double noisy[] = { 100, 300, 50, 400, 20, 350, 80, 500, 10, 250, 150, 450 };
static const double steady[] = { 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200 };

struct fake {
	struct probe probes[NP];
	struct probe_outcome out[NP];
	size_t n;
	const double *series[NP];	/* each probe's round medians */
	double round_s;			/* seconds each round counts against the budget */
	double clock, tick;		/* the run limit's clock, + tick per round */
	/* At probe at_probe's round at_round: end it with status (PROBE_OK: no), set the stop flag. */
	int at_probe, at_round;
	enum probe_status at_status;
	bool at_stop;
	volatile sig_atomic_t stop;
	struct { size_t i; unsigned round; } log[MAXLOG];
	size_t nlog;
	struct { unsigned done, total; bool label; } prog[MAXLOG];
	size_t nprog;
	struct method_hooks hooks;
	struct schedule s;
};

static double fake_round(void *ctx, struct probe_outcome *o, unsigned int round)
{
	struct fake *f = ctx;
	size_t i = (size_t)(o - f->out);
	struct latency_result *res = &o->res;
	struct latency_round *rd = &res->rounds[res->n_rounds];
	double m = f->series[i][round];

	if (f->nlog < MAXLOG) {
		f->log[f->nlog].i = i;
		f->log[f->nlog++].round = round;
	}
	f->clock += f->tick;
	if ((int)i == f->at_probe && (int)round == f->at_round) {
		if (f->at_stop)
			f->stop = SIGINT;
		if (f->at_status != PROBE_OK) {
			res->status = f->at_status;
			snprintf(res->reason, sizeof(res->reason), "fake: %s", probe_status_name(f->at_status));
			return f->round_s;
		}
	}
	rd->batch = 1;
	rd->n = 3;
	for (size_t k = 0; k < 3; k++) {
		rd->net[k] = m + (double)k - 1;
		rd->base[k] = 1000;
		rd->raw[k] = 1000 + rd->net[k];
	}
	rd->median = m;
	rd->baseline_median = 1000;
	rd->raw_median = 1000 + m;
	res->n_rounds++;
	return f->round_s;
}

static double fake_now(void *ctx)
{
	return ((struct fake *)ctx)->clock;
}

static void fake_progress(void *ctx, unsigned done, unsigned total, const char *label)
{
	struct fake *f = ctx;

	if (f->nprog < MAXLOG) {
		f->prog[f->nprog].done = done;
		f->prog[f->nprog].total = total;
		f->prog[f->nprog++].label = label != NULL;
	}
}

/* n probes with these series, rounds passes, no budget or run limit to speak of. */
static void fake_init(struct fake *f, size_t n, unsigned rounds, const double *const *series)
{
	static const char *const names[NP] = { "p0", "p1", "p2" };

	memset(f, 0, sizeof(*f));
	f->n = n;
	for (size_t i = 0; i < n; i++) {
		f->probes[i].name = names[i];
		f->out[i].probe = &f->probes[i];
		f->series[i] = series[i];
	}
	f->at_probe = -1;
	f->round_s = 0.01;
	f->hooks = (struct method_hooks){ .progress = fake_progress, .ctx = f };
	f->s = (struct schedule){
		.rounds = rounds, .precision_pct = 1, .floor_cycles = 1, .budget_s = 100,
		.tsc_khz = 1000000, .stop = &f->stop, .round = fake_round, .now = fake_now, .ctx = f,
		.hooks = &f->hooks,
	};
}

/* fake_init, then the event at probe's round (status PROBE_OK: none; stop: the flag set), then the run. */
static void fake_run_event(struct fake *f, size_t n, unsigned rounds, const double *const *series,
			   int probe, int round, enum probe_status status, bool stop)
{
	fake_init(f, n, rounds, series);
	f->at_probe = probe;
	f->at_round = round;
	f->at_status = status;
	f->at_stop = stop;
	schedule_run(&f->s, f->out, f->n);
}

/* How many rounds of probe i were run. */
static size_t visits(const struct fake *f, size_t i)
{
	size_t v = 0;

	for (size_t k = 0; k < f->nlog; k++)
		v += f->log[k].i == i;
	return v;
}

static const struct latency_result *res_of(const struct fake *f, size_t i)
{
	return &f->out[i].res;
}

/* Is the probe ok with n rounds and this stop, its figures settled (3 pairs a round)? */
static bool ended(const struct fake *f, size_t i, size_t n, enum probe_stop stop)
{
	const struct latency_result *r = res_of(f, i);

	if (r->status == PROBE_OK && r->n_rounds == n && r->stop == stop && r->n == 3 * n)
		return true;
	diag("p%zu: status %s, %zu rounds, stop %s, %zu samples (want ok, %zu, %s, %zu)", i,
	     probe_status_name(r->status), r->n_rounds, probe_stop_name(r->stop), r->n, n,
	     probe_stop_name(stop), 3 * n);
	return false;
}

static void test_order(void)
{
	const double *series[NP] = { noisy, noisy, noisy };
	struct fake f;
	bool order = true;

	fake_init(&f, 3, 3, series);
	is_int(schedule_run(&f.s, f.out, f.n), 0, "schedule: runs");
	for (size_t k = 0; k < f.nlog; k++)
		order = order && f.log[k].i == k % 3 && f.log[k].round == k / 3;
	ok(f.nlog == 9 && order, "round-robin: every probe's round 1 in the order given, then round 2, ... (%zu visits)",
	   f.nlog);
	ok(ended(&f, 0, 3, PROBE_STOP_BUDGET) && ended(&f, 1, 3, PROBE_STOP_BUDGET) &&
	   ended(&f, 2, 3, PROBE_STOP_BUDGET), "no precision reached: each probe ends with its 3 rounds, stop budget");
	ok(res_of(&f, 0)->n == 9 && res_of(&f, 0)->cycles.median > 0,
	   "a settled probe has its flat samples (3 rounds x 3 pairs) and their summary");
}

static void test_precision(void)
{
	const double *series[NP] = { steady, noisy };
	struct fake f;

	fake_init(&f, 2, 8, series);
	schedule_run(&f.s, f.out, f.n);
	ok(ended(&f, 0, LATENCY_MIN_ROUNDS, PROBE_STOP_PRECISION),
	   "steady medians: the probe stops on precision after LATENCY_MIN_ROUNDS (%d) rounds, not at 2",
	   LATENCY_MIN_ROUNDS);
	is_num(res_of(&f, 0)->ci_rel_pct, 0, 1e-12, "... with its CI recorded (0% for equal medians)");
	ok(ended(&f, 1, 8, PROBE_STOP_BUDGET), "the noisy one goes on to --rounds 8 (stop budget)");

	fake_init(&f, 1, 2, series);
	schedule_run(&f.s, f.out, f.n);
	ok(ended(&f, 0, 2, PROBE_STOP_PRECISION),
	   "--rounds 2 (< LATENCY_MIN_ROUNDS): precision may stop it at its 2nd, last round");
}

static void test_budget(void)
{
	const double *series[NP] = { noisy, noisy };
	struct fake f;

	fake_init(&f, 2, 8, series);
	f.s.budget_s = 1.0;
	f.round_s = 0.4;
	schedule_run(&f.s, f.out, f.n);
	ok(ended(&f, 0, 3, PROBE_STOP_BUDGET) && ended(&f, 1, 3, PROBE_STOP_BUDGET),
	   "--time-budget 1 at 0.4 s a round: 3 rounds (1.2 s spent), stop budget");
}

/*
 * The budget counts what the rounds return (v2: CPU seconds), never the
 * wall clock: rounds of 1 s on the clock but 0.01 s of budget each run
 * all 8 under a 0.1 s budget, as on a host where the vCPU thread waits
 * for a CPU most of the time.
 */
static void test_budget_not_wall(void)
{
	const double *series[NP] = { noisy };
	struct fake f;

	fake_init(&f, 1, 8, series);
	f.s.budget_s = 0.1;
	f.round_s = 0.01;
	f.tick = 1.0;
	schedule_run(&f.s, f.out, f.n);
	ok(ended(&f, 0, 8, PROBE_STOP_BUDGET), "--time-budget 0.1 at 0.01 s of budget and 1 s of wall "
	   "time a round: all 8 rounds (0.08 s spent), stop budget");
}

/* Seconds on CLOCK_MONOTONIC. */
static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * v2's budget clock is the thread's CPU time: it does not count a thread
 * that waits (0.2 s asleep add under 0.1 s, a bound no load can break:
 * a sleeping thread runs nothing), and it counts one that computes.
 */
static void test_budget_clock(void)
{
	struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	double t0 = method_budget_clock(), w0 = wall_now(), t1;
	volatile unsigned long spin = 0;

	while (wall_now() - w0 < 0.2)
		nanosleep(&nap, NULL);
	t1 = method_budget_clock();
	ok(t1 - t0 < 0.1, "the budget clock: 0.2 s asleep count %.3f s", t1 - t0);
	t0 = method_budget_clock();
	while (method_budget_clock() - t0 < 0.005 && spin < 100000000)
		spin++;
	ok(method_budget_clock() - t0 >= 0.005, "the budget clock: computing counts (%lu turns)",
	   (unsigned long)spin);
}

static void test_run_limit(void)
{
	const double *series[NP] = { noisy, noisy, noisy };
	struct fake f;

	fake_init(&f, 3, 4, series);
	f.s.run_limit_s = 1.5;
	f.tick = 1.0;
	schedule_run(&f.s, f.out, f.n);
	is_int((long long)f.nlog, 2, "--run-limit 1.5 at 1 s a round: two rounds run (at 0 s and 1 s)");
	ok(ended(&f, 0, 1, PROBE_STOP_RUN_LIMIT) && ended(&f, 1, 1, PROBE_STOP_RUN_LIMIT),
	   "the probes measured keep their round, stop run_limit");
	ok(res_of(&f, 2)->status == PROBE_SKIPPED && res_of(&f, 2)->n_rounds == 0 &&
	   strstr(res_of(&f, 2)->reason, "run limit"), "the one never measured is skipped, saying the run limit");
}

static void test_stopped(void)
{
	const double *series[NP] = { noisy, noisy, noisy };
	struct fake f;

	/* The stop flag set while p1's 2nd round runs, the round itself measured. */
	fake_run_event(&f, 3, 4, series, 1, 1, PROBE_OK, true);
	is_int((long long)f.nlog, 5, "Ctrl-C in p1's round 2: no round starts after it");
	ok(ended(&f, 0, 2, PROBE_STOP_STOPPED) && ended(&f, 1, 2, PROBE_STOP_STOPPED) &&
	   ended(&f, 2, 1, PROBE_STOP_STOPPED), "every probe keeps the rounds it has (2, 2, 1), status ok, stop stopped");

	/* Ctrl-C ends p1's 2nd round itself (its guest run or VM setup): the round before stands. */
	fake_run_event(&f, 3, 4, series, 1, 1, PROBE_STOPPED, true);
	ok(ended(&f, 1, 1, PROBE_STOP_STOPPED) && !res_of(&f, 1)->reason[0],
	   "a round ended by Ctrl-C: the probe is ok with its 1 earlier round, stop stopped, no reason");
	ok(ended(&f, 2, 1, PROBE_STOP_STOPPED), "the probe after it keeps its round too");

	/* Ctrl-C in the very first round: nothing measured anywhere. */
	fake_run_event(&f, 3, 4, series, 0, 0, PROBE_STOPPED, true);
	ok(f.nlog == 1 && res_of(&f, 0)->status == PROBE_STOPPED && res_of(&f, 1)->status == PROBE_STOPPED &&
	   res_of(&f, 2)->status == PROBE_STOPPED && !res_of(&f, 2)->n_rounds,
	   "Ctrl-C in the first round: it and the probes never measured are stopped");
}

static void test_failed(void)
{
	const double *series[NP] = { noisy, noisy, noisy };
	struct fake f;

	fake_run_event(&f, 3, 4, series, 0, 1, PROBE_FAILED, false);
	ok(visits(&f, 0) == 2 && res_of(&f, 0)->status == PROBE_FAILED && !strcmp(res_of(&f, 0)->reason, "fake: failed"),
	   "a probe that fails in round 2 leaves the rotation (2 visits), its failure kept");
	ok(ended(&f, 1, 4, PROBE_STOP_BUDGET) && ended(&f, 2, 4, PROBE_STOP_BUDGET), "the others run all 4 rounds");

	fake_run_event(&f, 3, 4, series, 1, 0, PROBE_HANG, false);
	ok(visits(&f, 1) == 1 && res_of(&f, 1)->status == PROBE_HANG && f.nlog == 9,
	   "a probe that hangs in its first round is not visited again (9 visits in all)");
}

static void test_one_round(void)
{
	const double *series[NP] = { steady, noisy };
	struct fake f;

	fake_init(&f, 2, 1, series);
	schedule_run(&f.s, f.out, f.n);
	ok(f.nlog == 2 && ended(&f, 0, 1, PROBE_STOP_BUDGET) && ended(&f, 1, 1, PROBE_STOP_BUDGET),
	   "--rounds 1: each probe once, stop budget (one round has no CI)");
	ok(res_of(&f, 0)->ci_rel_pct == -1, "--rounds 1: the CI is unknown (-1)");
}

static void test_progress(void)
{
	const double *series[NP] = { steady, noisy };
	static const unsigned want[] = { 0, 1, 2, 3, 4, 6, 7 };
	struct fake f;
	bool same, totals = true;

	/*
	 * p0 stops on precision after round 3 of 4, so from p1's 3rd visit on p0
	 * counts 4 units: p0 r1 0, p1 r1 1, p0 r2 2, p1 r2 3, p0 r3 4, p1 r3 4 + 2, p1 r4 4 + 3.
	 */
	fake_init(&f, 2, 4, series);
	schedule_run(&f.s, f.out, f.n);
	same = f.nprog == 1 + ARRAY_SIZE(want) && !f.prog[0].label && f.prog[0].done == 0;
	for (size_t k = 1; same && k < f.nprog; k++)
		same = f.prog[k].label && f.prog[k].done == want[k - 1];
	for (size_t k = 0; k < f.nprog; k++)
		totals = totals && f.prog[k].total == 8;
	if (!same)
		for (size_t k = 0; k < f.nprog; k++)
			diag("progress %zu: %u/%u%s", k, f.prog[k].done, f.prog[k].total, f.prog[k].label ? " (label)" : "");
	ok(same, "progress: the total first, then units done 0 1 2 3 4 6 7 (p0 stops after its 3rd round: its 4th counts as done)");
	ok(totals && f.nprog > 1 && f.prog[f.nprog - 1].done + 1 == f.prog[f.nprog - 1].total,
	   "progress: total 8 (2 probes x 4 rounds), the last visit is its last unit");
}

int main(void)
{
	test_order();
	test_precision();
	test_budget();
	test_budget_not_wall();
	test_budget_clock();
	test_run_limit();
	test_stopped();
	test_failed();
	test_one_round();
	test_progress();
	return done_testing();
}
