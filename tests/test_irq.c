/*
 * test_irq.c - `exitscope check irq`: the handler's notes count a delivery
 * into code running with IF=0 apart from the trial's; its three checks are
 * there, each one
 * passes with all 16 trials at the boundary, fails with counts that say
 * where the others went (and what that means for `exitscope run`), or
 * skips with what to do; a stop flag set before it runs stops them all;
 * and the command's exit status follows its checks.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest/guest.h"
#include "host/hostinfo.h"
#include "suites/irq.h"
#include "suites/irq_guest.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *const names[] = { "sti_shadow", "self_ipi_if1", "tscdeadline_expired" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* One result: pass with 16 at the boundary, fail with fewer and the cause, or skip saying what to do. */
static bool result_sound(const struct check_result *c)
{
	char want[16];

	snprintf(want, sizeof(want), "%d", IRQ_TRIALS);
	switch (c->status) {
	case CHECK_PASS:
		return !strcmp(c->expected, want) && !strcmp(c->observed, want);
	case CHECK_FAIL:
		if (strstr(c->detail, "delivered again into code running with IF=0"))
			return !strcmp(c->expected, want) && atoi(c->observed) <= IRQ_TRIALS;
		return !strcmp(c->expected, want) && atoi(c->observed) < IRQ_TRIALS &&
		       (strstr(c->detail, "delivers them late") || strstr(c->detail, "another instruction") ||
			strstr(c->detail, "did not deliver") || strstr(c->detail, "did not finish"));
	case CHECK_SKIP:
		return strstr(c->detail, "needs ") && strstr(c->detail, "; it runs on");
	default:
		return false;
	}
}

static void test_suite(const struct hostinfo *hi)
{
	volatile sig_atomic_t stop = 0;
	struct suite_env env = { .hi = hi, .stop = &stop };
	struct check_report rep = { 0 };
	size_t found = 0, sound = 0, failed = 0;

	irq_checks(&env, &rep);
	for (size_t i = 0; i < NNAMES; i++) {
		const struct check_result *c = check_find(&rep, "irq", names[i]);

		if (!c)
			continue;
		found++;
		sound += result_sound(c);
		failed += c->status == CHECK_FAIL;
		diag("irq.%s: %s: %s", names[i], check_status_name(c->status), c->detail);
	}
	is_int((long long)rep.n, NNAMES, "check irq: three results");
	is_int((long long)found, NNAMES, "... named sti_shadow, self_ipi_if1, tscdeadline_expired");
	is_int((long long)sound, NNAMES, "each passes with 16 of 16 at the boundary, fails with fewer and "
	       "where the rest went, or skips with what to do");
	check_report_free(&rep);
	rep = (struct check_report){ 0 };

	stop = 1;
	irq_checks(&env, &rep);
	is_int((long long)check_count(&rep, CHECK_STOPPED), NNAMES, "stop flag set: every irq check is stopped");
	check_report_free(&rep);

	{
		const char *exe = getenv("EXITSCOPE");
		struct run_result r;

		if (!exe) {
			tap_skip(1, "EXITSCOPE is not set (run through make check)");
			return;
		}
		run_cmd(&r, (const char *const[]){ exe, "check", "irq", NULL });
		ok(r.status == (failed ? 1 : 0) && strstr(r.out, "irq.sti_shadow"),
		   "exitscope check irq: exit %d with %zu failed, the table names the checks", r.status, failed);
		run_free(&r);
	}
}

/*
 * The notes the verdicts come from (irq_note, called as the guest's handler
 * calls it, on frames built here): a delivery into code running with IF=0
 * is counted apart, with its RIP, trial and whether it was inside the
 * interrupt entry, and leaves the trial's own delivery to the next one.
 */
static void test_note(void)
{
	struct ex_regs f = { .rflags = 0x2, .rip = guest_idt_stubs[IRQ_VECTOR] + 4 };

	ok(guest_rip_in_isr_entry(guest_idt_stubs[IRQ_VECTOR]) &&
	   !guest_rip_in_isr_entry((uint64_t)irq_guest_case),
	   "the vector's IDT stub is in the interrupt entry, the guest's C code is not");
	irq_if0 = irq_taken = irq_rip = 0;
	irq_trial_no = 3;
	irq_note(&f);
	f.rip = (uint64_t)irq_guest_case;
	irq_note(&f);
	ok(irq_if0 == 2 && irq_if0_rip == guest_idt_stubs[IRQ_VECTOR] + 4 && irq_if0_trial == 3 &&
	   irq_if0_in_entry == 1 && irq_taken == 0,
	   "two deliveries with IF=0: both counted apart, the first's RIP (in the entry) and trial kept, "
	   "none is the trial's");
	f.rflags = 0x202;
	f.rip = 0x1234;
	irq_note(&f);
	f.rip = 0x5678;
	irq_note(&f);
	ok(irq_taken == 2 && irq_rip == 0x1234 && irq_if0 == 2,
	   "then two with IF=1: the trial's, with the first one's RIP");
	irq_if0 = 0;
	f.rflags = 0x2;
	irq_note(&f);
	ok(irq_if0 == 1 && irq_if0_rip == 0x5678 && !irq_if0_in_entry, "IF=0 outside the entry: said so");
}

int main(void)
{
	struct hostinfo hi;
	char err[256];

	test_note();
	if (access("/dev/kvm", R_OK | W_OK))
		skip("/dev/kvm is not accessible: the checks are not run");
	else if (hostinfo_collect(&hi, NULL, err, sizeof(err)))
		skip("KVM cannot be queried: the checks are not run");
	else
		test_suite(&hi);
	return done_testing();
}
