// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_irq.c - `exitscope check irq`: the handler's notes count a delivery
 * into code running with IF=0 apart from the trial's; the verdicts from
 * counts (and the detail the SVM lane accepts); its three checks are
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

#include "base/array_size.h"
#include "guest/guest.h"
#include "host/hostinfo.h"
#include "suites/irq.h"
#include "suites/irq_guest.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *const names[] = { "sti_shadow", "self_ipi_if1", "tscdeadline_expired" };
#define NNAMES ARRAY_SIZE(names)

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

/* The detail the SVM lane accepts a tscdeadline_expired failure with (lanes/expect-svm.txt). */
static bool lane_text(char *buf, size_t len)
{
	const char *key = "check irq tscdeadline_expired pass|fail \"";
	FILE *f = fopen("lanes/expect-svm.txt", "r");
	char line[512], *q;
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && (q = strrchr(line, '"')) > line + strlen(key)) {
			*q = 0;
			snprintf(buf, len, "%s", line + strlen(key));
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

/* One verdict from counts: its status and detail. */
static const struct check_result *verdict(struct check_report *rep, const struct irq_counts *n)
{
	check_report_free(rep);
	*rep = (struct check_report){ 0 };
	irq_verdict(rep, IRQ_CASE_TSC_DEADLINE, n);
	diag("%s: %s", rep->n ? check_status_name(rep->r[0].status) : "-", rep->n ? rep->r[0].detail : "");
	return rep->n == 1 ? &rep->r[0] : NULL;
}

/* The verdicts: which counts pass, which fail, and what the failure says. */
static void test_verdict(void)
{
	struct check_report rep = { 0 };
	const struct check_result *c;
	char text[256];
	bool lane = lane_text(text, sizeof(text));

	c = verdict(&rep, &(struct irq_counts){ .at = IRQ_TRIALS });
	ok(c && c->status == CHECK_PASS && strstr(c->detail, "16 of 16 expired TSC deadlines"),
	   "16 of 16 at the boundary, none with IF=0: pass");
	c = verdict(&rep, &(struct irq_counts){ .at = IRQ_TRIALS, .if0 = 1, .if0_rip = 0x44265b, .if0_trial = 6,
						.if0_in_entry = 1 });
	ok(c && c->status == CHECK_FAIL && !strcmp(c->observed, "16") &&
	   strstr(c->detail, "1 delivered again into code running with IF=0 (the first in trial 7, at RIP "
			     "0x44265b, inside the guest's interrupt entry)"),
	   "16 of 16 at the boundary and one more with IF=0: fail, saying where and in which trial");
	ok(lane && c && strstr(c->detail, text) &&
	   strstr(verdict(&rep, &(struct irq_counts){ .at = IRQ_TRIALS })->detail, text),
	   "... the SVM lane's accepted detail is in that failure and in the pass");
	c = verdict(&rep, &(struct irq_counts){ .at = 14, .late = 2, .if0 = 1, .if0_rip = 0x4000 });
	ok(c && c->status == CHECK_FAIL && strstr(c->detail, "14 of 16 expired TSC deadlines taken") &&
	   strstr(c->detail, "(0 elsewhere, 2 after the window, 0 never)") &&
	   strstr(c->detail, "in the interrupt's handler") && (!lane || !strstr(c->detail, text)),
	   "14 at the boundary, 2 late and one with IF=0: fail with all of it, not the lane's accepted detail");
	c = verdict(&rep, &(struct irq_counts){ .at = 15, .elsewhere = 1, .first_rip = 0x10, .want_rip = 0x20 });
	ok(c && c->status == CHECK_FAIL && strstr(c->detail, "1 elsewhere (the first at RIP 0x10, want 0x20)"),
	   "one taken at another boundary: fail, with its RIP and the one wanted");
	check_report_free(&rep);
}

int main(void)
{
	struct hostinfo hi;
	struct err err;

	test_note();
	test_verdict();
	if (access("/dev/kvm", R_OK | W_OK))
		skip("/dev/kvm is not accessible: the checks are not run");
	else if (hostinfo_collect(&hi, NULL, &err))
		skip("KVM cannot be queried: the checks are not run");
	else
		test_suite(&hi);
	return done_testing();
}
