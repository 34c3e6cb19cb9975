// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_runtime.c - the guest runtime on real /dev/kvm: C guest functions,
 * ucalls (return value, sync, assert with file:line), unhandled and "safe"
 * exceptions, the watchdog, and exact I/O exit counts from the stats fd;
 * the CET-safe fault path's decision (guest/guest.h guest_shstk_plan) on
 * the values a shadow-stack host would give, and IST suspended around it.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "guest/guest.h"
#include "guest/vm.h"
#include "tests/tap.h"

uint64_t tg_add(uint64_t arg);
uint64_t tg_sync_twice(uint64_t arg);
uint64_t tg_assert_fails(uint64_t arg);
uint64_t tg_bad_cr4(uint64_t arg);
uint64_t tg_bad_cr4_safe(uint64_t arg);
uint64_t tg_rdmsr_safe_bogus(uint64_t arg);
uint64_t tg_forever(uint64_t arg);
uint64_t tg_outs(uint64_t arg);
uint64_t tg_null_deref(uint64_t arg);
uint64_t tg_globals(uint64_t arg);
uint64_t tg_triple_fault(uint64_t arg);
uint64_t tg_xgetbv(uint64_t arg);
uint64_t tg_handler(uint64_t arg);
uint64_t tg_print(uint64_t arg);
uint64_t tg_count_sync(uint64_t arg);
uint64_t tg_shstk_ist(uint64_t arg);
extern uint64_t tg_global_counter;

#define BUDGET_MS 20000

int main(void)
{
	struct guest_result res;
	struct vm *vm;
	struct err err;
	int r;

	if (access("/dev/kvm", F_OK))
		return tap_skip_all("/dev/kvm is absent");
	r = vm_create(&vm, NULL, &err);
	if (r) {
		tap_plan(1);
		tap_ok(0, "vm_create: %s", err.msg);
		return tap_done();
	}
	tap_plan(44);

	/*
	 * Which exit path a fault under supervisor shadow stacks takes: ssp is
	 * the SSP after delivery (0: none), lip the frame's LIP there.
	 */
	tap_ok(guest_shstk_plan(0, 0, 0x401000, 0x401008) == GUEST_SHSTK_NONE,
	       "no shadow stack: a fixup just changes RIP and IRETs");
	tap_ok(guest_shstk_plan(0x2fe8, 0x401000, 0x401000, 0x401000) == GUEST_SHSTK_NONE,
	       "shadow stack, RIP unchanged (installed handler returning): plain IRET");
	tap_ok(guest_shstk_plan(0x2fe8, 0x401000, 0x401000, 0x401008) == GUEST_SHSTK_REWRITE,
	       "shadow stack, fixup moves RIP: the frame's LIP is rewritten first");
	tap_ok(guest_shstk_plan(0x2fe8, 0x402000, 0x401000, 0x401008) == GUEST_SHSTK_REPORT,
	       "shadow stack, frame LIP is not the faulting RIP: report, no IRET");

	/* A guest C function computes a value and returns it through the channel. */
	vcpu_call_run(&vm->vcpus[0], tg_add, 100, BUDGET_MS, &res);
	tap_is_str(guest_exit_name(res.kind), "done", "guest function returns (%s)", res.msg);
	tap_is_u64(res.args[0], 5050, "sum 1..100 computed in the guest");

	/* Sync with values, then continue. */
	vcpu_call_run(&vm->vcpus[0], tg_sync_twice, 7, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_SYNC && res.nargs == 2 && res.args[0] == 7 && res.args[1] == 0xabc,
	       "GUEST_SYNC delivers two values (%s)", res.msg);
	vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_SYNC && res.args[0] == 8, "second sync after resuming");
	vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_DONE && res.args[0] == 9, "done after the syncs");

	/* A failing guest assert reaches the host with file, line and values. */
	r = vcpu_call_run(&vm->vcpus[0], tg_assert_fails, 41, BUDGET_MS, &res);
	tap_is_str(guest_exit_name(res.kind), "assert", "failing assert is reported as such");
	tap_like(res.msg, "tests/tg_guest.c:", "assert names the file");
	tap_like(res.msg, "arg + 1 == 43", "assert names the expression");
	tap_like(res.msg, "0x2a, 0x2b", "assert carries both values");

	/* Unguarded #GP: reserved CR4 bit. */
	vcpu_call_run(&vm->vcpus[0], tg_bad_cr4, 0, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_EXCEPTION && res.vector == GP_VECTOR,
	       "reserved CR4 bit without a guard: #GP reported (%s)", res.msg);
	tap_ok(res.error_code == 0 && res.rip >= 0x400000, "with error code 0 and a RIP in the image");
	tap_like(res.msg, "#GP", "message names #GP");

	/* The safe helper returns the vector instead. */
	vcpu_call_run(&vm->vcpus[0], tg_bad_cr4_safe, 0, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_DONE && res.args[0] == (0x100 | GP_VECTOR),
	       "guest_write_cr4_safe returns GUEST_FAULT|#GP (%#llx, %s)",
	       (unsigned long long)res.args[0], res.msg);
	vcpu_call_run(&vm->vcpus[0], tg_rdmsr_safe_bogus, 0, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_DONE && res.args[0] == (0x100 | GP_VECTOR),
	       "guest_rdmsr_safe of a bogus MSR returns #GP (%#llx)", (unsigned long long)res.args[0]);

	/* #PF on NULL with CR2 reported. */
	vcpu_call_run(&vm->vcpus[0], tg_null_deref, 0, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_EXCEPTION && res.vector == PF_VECTOR && res.cr2 == 8,
	       "NULL dereference: #PF with CR2 (%s)", res.msg);

	/*
	 * Exactly K io_exits for K outs to an unclaimed port: counted by the
	 * run loop, by the stats fd's "exits", and by "io_exits" where the
	 * backend maintains it (kvm_pvm does not: it stays 0).
	 */
	if (vm->vcpus[0].has_stats) {
		struct kvm_stats *st = &vm->vcpus[0].stats;
		uint64_t io0 = 0, io1 = 0, ex0 = 0, ex1 = 0, user0;

		vcpu_call_run(&vm->vcpus[0], tg_outs, 0, BUDGET_MS, &res);
		tap_ok(res.kind == GUEST_SYNC, "outs guest syncs before its loop");
		stats_read(st, "io_exits", &io0);
		stats_read(st, "exits", &ex0);
		user0 = vm->vcpus[0].user_exits.io;
		vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
		stats_read(st, "io_exits", &io1);
		stats_read(st, "exits", &ex1);
		tap_ok(res.kind == GUEST_SYNC, "outs guest syncs after its loop");
		tap_is_u64(vm->vcpus[0].user_exits.io - user0, 37, "37 outs to port 0x80: 37 KVM_EXIT_IO to userspace");
		/* Every exit to userspace is an exit; the host may add its own (interrupts). */
		tap_ok(ex1 - ex0 >= 37 + 1, "stats 'exits' delta %llu >= 37 outs + the closing ucall",
		       (unsigned long long)(ex1 - ex0));
		if (io1 == io0 && access("/sys/module/kvm_pvm", F_OK) == 0)
			tap_skip(1, "kvm_pvm does not maintain the io_exits stat (delta 0)");
		else
			tap_is_u64(io1 - io0, 37 + 1, "stats 'io_exits' delta: 37 outs + the closing ucall");
		vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
	} else {
		tap_skip(5, "vCPU has no binary stats fd");
	}

	/* Guest globals are per VM, readable and writable from the host. */
	vm_global_set(vm, tg_global_counter, 40);
	vcpu_call_run(&vm->vcpus[0], tg_globals, 2, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_DONE && res.args[0] == 42, "guest sees the host-written global");
	tap_is_u64(vm_global_get(vm, tg_global_counter), 42, "host sees the guest-written global");
	tap_is_u64(tg_global_counter, 0, "the host's own copy is untouched");

	/* Triple fault: an empty IDT turns int3 into #GP, #DF, shutdown. */
	vcpu_call_run(&vm->vcpus[0], tg_triple_fault, 0, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_SHUTDOWN, "triple fault reported as shutdown (%s)", res.msg);
	tap_like(res.msg, "triple fault", "message says triple fault");
	vm_destroy(vm);
	r = vm_create(&vm, NULL, &err);
	if (r) {
		tap_ok(0, "vm_create after triple fault: %s", err.msg);
		return tap_done();
	}

	/* An emulation failure is decoded with RIP and instruction bytes. */
	vcpu_call_run(&vm->vcpus[0], tg_xgetbv, 0, BUDGET_MS, &res);
	if (res.kind == GUEST_EMULATION_FAILURE) {
		tap_like(res.msg, "emulation failure at RIP 0x", "emulation failure names the RIP (%s)", res.msg);
		tap_like(res.msg, "0f 01 d0", "and the xgetbv instruction bytes");
	} else {
		tap_skip(2, "xgetbv is not an emulation failure on this host");
	}
	vm_destroy(vm);
	vm_create(&vm, NULL, &err);

	/*
	 * The IDT stubs: vectors where the CPU pushes an error code (8, 10-14,
	 * 17, 21 #CP, 29, 30) must not push a dummy one. Decode each stub:
	 * endbr64, then either "push $vector" or "push $0; push $vector".
	 */
	{
		extern const uint64_t guest_idt_stubs[256];
		int bad = -1;

		for (int v = 0; v < 256 && bad < 0; v++) {
			const uint8_t *p = (const uint8_t *)guest_idt_stubs[v];
			bool has_err = v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 ||
				       v == 29 || v == 30;

			if (p[0] != 0xf3 || p[1] != 0x0f || p[2] != 0x1e || p[3] != 0xfa)
				bad = v;
			else if (has_err && !(p[4] == 0x6a && p[5] == v))
				bad = v;
			else if (!has_err && !(p[4] == 0x6a && p[5] == 0 &&
					       ((p[6] == 0x6a && p[7] == (uint8_t)v && v < 128) ||
						(p[6] == 0x68 && p[7] == (uint8_t)v && v >= 128))))
				bad = v;
		}
		tap_ok(bad < 0, "IDT stubs push a dummy error code exactly for vectors without one (first bad: %d)", bad);
	}

	/* Installed guest handlers run instead of the report. */
	vcpu_call_run(&vm->vcpus[0], tg_handler, 0, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_DONE && res.args[0] == 0x5a, "installed #UD handler ran (%s)", res.msg);

	/* guest_shstk_begin/end: IST off in every gate and the SSP read armed, then both back. */
	vcpu_call_run(&vm->vcpus[0], tg_shstk_ist, 0, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_DONE && (res.args[0] & 0xff) == 3 && ((res.args[0] >> 8) & 0xff) == 0 &&
	       ((res.args[0] >> 16) & 0xff) == 3, "guest_shstk_begin clears the IST of NMI, #DF, #MC; "
	       "guest_shstk_end restores them (%#llx, %s)", (unsigned long long)res.args[0], res.msg);
	tap_ok((res.args[0] >> 24 & 3) == 3, "the entry path's SSP read is armed in between only");

	/* GUEST_PRINTF formats integers only and continues. */
	vm->quiet = true;
	vcpu_call_run(&vm->vcpus[0], tg_print, 77, BUDGET_MS, &res);
	tap_ok(res.kind == GUEST_DONE && res.args[0] == 77, "guest printf does not stop the guest");

	/*
	 * A stray watchdog signal sent to the thread between runs (as a
	 * debugger or another engineer's test might) must not wedge later runs.
	 */
	{
		enum guest_exit k;

		pthread_kill(pthread_self(), SIGUSR1);
		k = vcpu_call_run(&vm->vcpus[0], tg_count_sync, 3000, BUDGET_MS, &res);
		while (k == GUEST_SYNC)
			k = vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
		tap_ok(k == GUEST_DONE && res.args[0] == 3000,
		       "a stray SIGUSR1 is consumed and the guest completes (%s)", res.msg);
	}

	/* A second vCPU with an in-kernel LAPIC runs from its own entry too. */
	{
		struct vm_opts o = { .nr_vcpus = 2, .irqchip = true };
		struct vm *vm2;

		if (vm_create(&vm2, &o, &err)) {
			tap_ok(0, "vm_create with irqchip and 2 vCPUs: %s", err.msg);
		} else {
			vcpu_call_run(&vm2->vcpus[1], tg_add, 10, BUDGET_MS, &res);
			tap_ok(res.kind == GUEST_DONE && res.args[0] == 55,
			       "vCPU 1 of an irqchip VM runs its function (%s)", res.msg);
			vm_destroy(vm2);
		}
	}

	/*
	 * Host placement is drawn per VM: each VM built after the previous one
	 * was torn down has its guest memory (2 MiB-aligned) and its kvm_run at
	 * another host address, and the guest still runs the image's code
	 * there. Before, an munmap'd region came back at the same address, so
	 * every VM of a process (every round of a run) had one placement.
	 */
	{
		uintptr_t mem[4] = { 0 }, run[4] = { 0 };
		int ran = 0, made = 0, mem_same = 0, run_same = 0, misaligned = 0;

		for (int i = 0; i < 4; i++) {
			struct vm *vp;

			if (vm_create(&vp, NULL, &err))
				break;
			made++;
			mem[i] = (uintptr_t)vp->mem;
			run[i] = (uintptr_t)vp->vcpus[0].run;
			misaligned += (mem[i] & (0x200000 - 1)) != 0;
			vcpu_call_run(&vp->vcpus[0], tg_add, 100, BUDGET_MS, &res);
			ran += res.kind == GUEST_DONE && res.args[0] == 5050;
			if (i > 0) {
				mem_same += mem[i] == mem[i - 1];
				run_same += run[i] == run[i - 1];
			}
			vm_destroy(vp);
		}
		tap_ok(made == 4 && ran == 4, "4 VMs one after another each run the guest function (%d built, %d ran)",
		       made, ran);
		tap_ok(made == 4 && mem_same == 0, "each VM's guest memory is at another host address than the "
		       "previous VM's (%#lx %#lx %#lx %#lx)", (unsigned long)mem[0], (unsigned long)mem[1],
		       (unsigned long)mem[2], (unsigned long)mem[3]);
		tap_ok(made == 4 && run_same == 0, "and so is its vCPU's kvm_run (%#lx %#lx %#lx %#lx)",
		       (unsigned long)run[0], (unsigned long)run[1], (unsigned long)run[2], (unsigned long)run[3]);
		tap_ok(made == 4 && misaligned == 0, "guest memory is 2 MiB-aligned on the host");
	}

	/* Watchdog: a guest that loops forever is stopped within its budget. */
	vcpu_call_run(&vm->vcpus[0], tg_forever, 0, 300, &res);
	tap_ok(res.kind == GUEST_HANG && res.rip >= 0x400000,
	       "endless guest loop reported as a hang with its RIP (%s)", res.msg);
	/* ... and by the CPU time it makes this thread spend, with a wall budget of 10 min. */
	vcpu_call(&vm->vcpus[0], tg_forever, 0);
	vcpu_run_cpu(&vm->vcpus[0], 600000, 100, &res);
	tap_ok(res.kind == GUEST_HANG && strstr(res.msg, "after 100 ms of its thread's CPU time"),
	       "with a CPU-time limit of 100 ms: a hang at that limit (%s)", res.msg);

	vm_destroy(vm);
	return tap_done();
}
