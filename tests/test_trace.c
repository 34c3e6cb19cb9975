// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_trace.c - kvm/trace.c's tracefs text parser on synthetic "trace"
 * files in the 6.1 kvm_exit format (VMX and SVM names, flags, unknown
 * codes, lost events, other events), plus trace_available() answering
 * without crashing wherever the test runs.
 */
#include <errno.h>
#include <string.h>

#include "kvm/trace.h"
#include "tests/tap.h"

static const char vmx_text[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 6/6   #P:1\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n"
	"       exitscope-97      [000] d..1.    12.345678: kvm_exit: vcpu 0 reason CR_ACCESS rip 0x401000 info1 0x0000000000000004 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	"       exitscope-97      [000] d..1.    12.345680: kvm_cr: cr_write 4 = 0x370\n"
	"       exitscope-97      [000] d..1.    12.345690: kvm_exit: vcpu 0 reason CR_ACCESS rip 0x401008 info1 0x0000000000000004 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	"       exitscope-97      [000] d..1.    12.345700: kvm_exit: vcpu 0 reason CPUID rip 0x401010 info1 0x0000000000000000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	"       exitscope-97      [000] d..1.    12.345710: kvm_exit: vcpu 0 reason EPT_VIOLATION rip 0x402000 info1 0x0000000000000181 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	"CPU:0 [LOST 17 EVENTS]\n"
	"       exitscope-97      [000] d..1.    12.345720: kvm_exit: vcpu 0 reason 0x21 FAILED_VMENTRY rip 0x0 info1 0x0000000000000000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	/* A later kernel's extra fields and an older one's missing "vcpu". */
	"       exitscope-98      [001] d..1.    12.345730: kvm_exit: vcpu 1 reason IO_INSTRUCTION rip 0x401020 info1 0x0000000000e90000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000 requests 0x0000000000000000\n"
	"       exitscope-98      [001] d..1.    12.345740: kvm_exit: reason IO_INSTRUCTION rip 0x401020 info1 0x0 info2 0x0\n"
	"       exitscope-98      [001] d..1.    12.345750: kvm_exit: vcpu 1 garbled\n";

static const char svm_text[] =
	"   exitscope-7 [000] d..1.  1.000001: kvm_exit: vcpu 0 reason read_cr4 rip 0x401000 info1 0x0000000000000000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	"   exitscope-7 [000] d..1.  1.000002: kvm_exit: vcpu 0 reason write_cr4 rip 0x401003 info1 0x0000000000000000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	"   exitscope-7 [000] d..1.  1.000003: kvm_exit: vcpu 0 reason read_cr4 rip 0x401000 info1 0x0000000000000000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	"   exitscope-7 [000] d..1.  1.000004: kvm_exit: vcpu 0 reason npf rip 0x402000 info1 0x0000000000000006 info2 0x0000000000402000 intr_info 0x00000000 error_code 0x00000000\n"
	"   exitscope-7 [000] d..1.  1.000004: kvm_exit: vcpu 0 reason GP excp rip 0x402000 info1 0x0000000000000000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000\n"
	"   exitscope-7 [000] d..1.  1.000005: kvm_entry: vcpu 0, rip 0x402000\n"
	"   exitscope-7 [000] d..1.  1.000006: kvm_exit: vcpu 0 reason io rip 0x401030 info1 0x0000000000e90010 info2 0x0000000000401032 intr_info 0x00000000 error_code 0x00000000";
	/* (no final newline) */

static void test_vmx(void)
{
	struct trace_counts c;
	long n;

	trace_counts_init(&c);
	n = trace_parse(vmx_text, strlen(vmx_text), &c);
	is_int(n, 8, "vmx: 8 kvm_exit lines");
	is_int((long long)c.total, 8, "vmx: total 8");
	is_int((long long)trace_count(&c, "CR_ACCESS"), 2, "vmx: 2 CR_ACCESS");
	is_int((long long)trace_count(&c, "CPUID"), 1, "vmx: 1 CPUID");
	is_int((long long)trace_count(&c, "EPT_VIOLATION"), 1, "vmx: 1 EPT_VIOLATION");
	is_int((long long)trace_count(&c, "IO_INSTRUCTION"), 2,
	       "vmx: IO_INSTRUCTION with and without vcpu/extra fields");
	is_int((long long)trace_count(&c, "0x21 FAILED_VMENTRY"), 1,
	       "vmx: unknown code with flags kept whole");
	is_int((long long)c.unparsed, 1, "vmx: garbled line counted as unparsed");
	is_int((long long)c.lost, 17, "vmx: LOST 17 EVENTS");
	is_int((long long)trace_count(&c, "kvm_cr"), 0, "vmx: other events ignored");
	is_int(c.nr, 5, "vmx: 5 distinct reasons");

	/* The harness's closing ucall is one port-I/O exit to drop. */
	is_int(trace_drop_ucall(&c), 0, "vmx: drop the ucall's exit");
	is_int((long long)trace_count(&c, "IO_INSTRUCTION"), 1, "vmx: one IO_INSTRUCTION left");
	is_int((long long)c.total, 7, "vmx: total 7");
	is_int(trace_drop_ucall(&c), 0, "vmx: drop again");
	is_int(trace_drop_ucall(&c), -ENOENT, "vmx: nothing left to drop");
	is_int((long long)trace_count(&c, "CR_ACCESS"), 2, "vmx: other reasons untouched");
}

static void test_svm(void)
{
	struct trace_counts c;
	size_t len = strlen(svm_text), cut;

	trace_counts_init(&c);
	is_int(trace_parse(svm_text, len, &c), 6, "svm: 6 exits, last line unterminated");
	is_int((long long)trace_count(&c, "GP excp"), 1, "svm: a name with a space");
	is_int((long long)trace_count(&c, "read_cr4"), 2, "svm: 2 read_cr4");
	is_int((long long)trace_count(&c, "write_cr4"), 1, "svm: 1 write_cr4");
	is_int((long long)trace_count(&c, "npf"), 1, "svm: 1 npf");
	is_int((long long)trace_count(&c, "io"), 1, "svm: 1 io");
	is_int(trace_drop_ucall(&c), 0, "svm: the ucall's exit is 'io'");
	is_int((long long)trace_count(&c, "io"), 0, "svm: no io left");
	is_int((long long)c.total, 5, "svm: total 5");

	/* Counts add up over calls; a buffer need not be NUL terminated. */
	cut = strchr(svm_text, '\n') - svm_text + 1;
	is_int(trace_parse(svm_text, cut, &c), 1, "svm: first line again");
	is_int((long long)trace_count(&c, "read_cr4"), 3, "svm: counts accumulate");
	is_int((long long)c.total, 6, "svm: total accumulates");
}

static void test_overflow(void)
{
	static struct trace_counts c;
	char line[200];
	int i;

	trace_counts_init(&c);
	for (i = 0; i < TRACE_MAX_REASONS + 3; i++) {
		int n = snprintf(line, sizeof(line),
				 "x-1 [000] d..1. 1.0: kvm_exit: vcpu 0 reason 0x%x rip 0x0\n", i);

		trace_parse(line, n, &c);
	}
	is_int(c.nr, TRACE_MAX_REASONS, "overflow: table full");
	is_int((long long)c.other, 3, "overflow: the rest counted as other");
	is_int((long long)c.total, TRACE_MAX_REASONS + 3, "overflow: total counts all");

	trace_counts_init(&c);
	memset(line, 'A', sizeof(line));
	memcpy(line, "x: kvm_exit: vcpu 0 reason ", 27);
	trace_parse(line, sizeof(line), &c);
	is_int(c.nr, 1, "long name: one reason");
	is_int((long long)strlen(c.reason[0].name), TRACE_NAME_LEN - 1,
	       "long name: truncated to fit");
	is_int(trace_parse("", 0, &c), 0, "empty buffer");
}

static void test_available(void)
{
	char why[256];
	int r = trace_available(why, sizeof(why));

	ok(r == 0 || r == 1, "trace_available answers 0 or 1");
	diag("trace_available: %d%s%s", r, r ? "" : ": ", r ? "" : why);
	ok(r == 1 || why[0] != '\0', "a reason is given when not available");
	if (r != 1) {
		skip("kvm_exit tracing not available here");
		return;
	}
	{
		struct trace_session s = { 0 };
		struct trace_counts c;

		is_int(trace_begin(&s), 0, "trace_begin");
		is_int(trace_begin(&s), -EBUSY, "a begun session cannot begin again");
		is_int(trace_end(&s, &c), 0, "trace_end");
		is_int((long long)c.total, 0, "no KVM run in this process: no exits");
		is_int(trace_end(&s, &c), -EINVAL, "ended session cannot end again");
	}
}

int main(void)
{
	test_vmx();
	test_svm();
	test_overflow();
	test_available();
	return done_testing();
}
