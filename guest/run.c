// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - the vCPU run loop: KVM_RUN until the guest needs the host, with
 * every exit reason decoded, ucalls turned into results, and a watchdog.
 *
 * Watchdog: the thread running a vCPU keeps SIGUSR1 blocked except inside
 * KVM_RUN (KVM_SET_SIGNAL_MASK), and a per-vCPU POSIX timer sends SIGUSR1 to
 * that thread when the budget runs out. A signal that arrives before KVM_RUN
 * stays pending and makes KVM_RUN return -EINTR at once, so there is no race.
 * After the kick, one more KVM_RUN with immediate_exit set lets KVM finish
 * any pending I/O or emulation so the reported state (RIP) is consistent.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guest/vm.h"

#define WATCHDOG_SIGNAL	SIGUSR1

static void watchdog_signal_handler(int sig)
{
	(void)sig;	/* only here to make KVM_RUN return -EINTR */
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Bind the watchdog timer and KVM signal mask to the calling thread. */
static int watchdog_bind(struct vcpu *v)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	struct sigaction sa = { .sa_handler = watchdog_signal_handler };
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = WATCHDOG_SIGNAL };
	sigset_t block, inside;
	int r;

	if (v->timer_armed_ok && v->timer_tid == tid)
		return 0;
	sigemptyset(&sa.sa_mask);
	sigaction(WATCHDOG_SIGNAL, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, WATCHDOG_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	/* Inside KVM_RUN: the thread's mask minus the watchdog signal and SIGINT. */
	pthread_sigmask(SIG_BLOCK, NULL, &inside);
	sigdelset(&inside, WATCHDOG_SIGNAL);
	sigdelset(&inside, SIGINT);
	r = kvm_set_signal_mask(v->fd, &inside, 8);	/* kernel sigset: 8 bytes */
	if (r)
		return r;
	if (v->timer_armed_ok) {
		timer_delete(v->timer);
		timer_delete(v->cpu_timer);
	}
	v->timer_armed_ok = false;
	sev._sigev_un._tid = tid;
	if (timer_create(CLOCK_MONOTONIC, &sev, &v->timer))
		return -errno;
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &v->cpu_timer)) {
		r = -errno;
		timer_delete(v->timer);
		return r;
	}
	v->timer_armed_ok = true;
	v->timer_tid = tid;
	return 0;
}

static void timer_arm(timer_t t, uint64_t ms)
{
	struct itimerspec its = {
		.it_value = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 },
	};

	timer_settime(t, 0, &its, NULL);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Consume a pending watchdog signal. It is blocked outside KVM_RUN, so a
 * signal that made KVM_RUN return -EINTR is still pending afterwards and
 * would make every later KVM_RUN return -EINTR at once.
 */
static void watchdog_drain(void)
{
	struct timespec zero = { 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, WATCHDOG_SIGNAL);
	while (sigtimedwait(&set, NULL, &zero) > 0)
		;
}

static void watchdog_disarm(struct vcpu *v)
{
	struct itimerspec its = { 0 };

	timer_settime(v->timer, 0, &its, NULL);
	timer_settime(v->cpu_timer, 0, &its, NULL);
	watchdog_drain();
}

/* Let KVM complete in-flight I/O or emulation without entering the guest. */
static void vcpu_sync_state(struct vcpu *v)
{
	v->run->immediate_exit = 1;
	kvm_run(v->fd);
	v->run->immediate_exit = 0;
}

static uint64_t vcpu_rip(struct vcpu *v)
{
	struct kvm_regs regs;

	return kvm_get_regs(v->fd, &regs) ? 0 : regs.rip;
}

__attribute__((format(printf, 3, 4)))
static enum guest_exit result(struct guest_result *res, enum guest_exit kind,
			      const char *fmt, ...)
{
	va_list ap;

	res->kind = kind;
	va_start(ap, fmt);
	vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
	va_end(ap);
	return kind;
}

/* Copy a NUL-terminated guest string (bounded). */
static void guest_string(struct vm *vm, uint64_t gva, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++) {
		const char *c = vm_gva(vm, gva + i, 1);

		if (!c || !*c)
			break;
		buf[i] = *c;
	}
	buf[i] = 0;
}

/*
 * Format a guest printf with u64 arguments. Only integer conversions are
 * accepted (flags, width, l/ll/h/z; d i u x X o c) and %%: anything else is
 * printed literally, so a guest can never make the host dereference memory.
 */
static void guest_format(char *out, size_t len, const char *fmt,
			 const uint64_t *args, uint64_t nargs)
{
	size_t o = 0;
	uint64_t ai = 0;

	for (const char *p = fmt; *p && o + 1 < len; p++) {
		char spec[32];
		size_t s = 0;
		const char *q = p + 1;

		if (*p != '%') {
			out[o++] = *p;
			continue;
		}
		if (*q == '%') {
			out[o++] = '%';
			p = q;
			continue;
		}
		spec[s++] = '%';
		while (*q && strchr("-+ #0123456789", *q) && s < 16)
			spec[s++] = *q++;
		while (*q && strchr("lhz", *q))
			q++;
		if (!*q || !strchr("diuxXoc", *q) || ai >= nargs) {
			out[o++] = '%';
			continue;
		}
		spec[s++] = 'l';
		spec[s++] = 'l';
		spec[s++] = *q == 'i' ? 'd' : *q;
		spec[s] = 0;
		o += snprintf(out + o, len - o, spec, (unsigned long long)args[ai++]);
		if (o >= len)
			o = len - 1;
		p = q;
	}
	out[o] = 0;
}

static enum guest_exit handle_ucall(struct vcpu *v, struct guest_result *res, bool *cont)
{
	struct kvm_run *run = v->run;
	uint32_t addr = *(uint32_t *)((char *)run + run->io.data_offset);
	struct ucall *uc = vm_gva(v->vm, addr, sizeof(*uc));
	char file[128], str[256], text[512];

	*cont = false;
	if (!uc || run->io.size != 4 || run->io.direction != KVM_EXIT_IO_OUT)
		return result(res, GUEST_UNEXPECTED_EXIT,
			      "bad ucall (address %#x, size %u)", addr, run->io.size);
	res->nargs = uc->nargs > UCALL_MAX_ARGS ? UCALL_MAX_ARGS : uc->nargs;
	memcpy(res->args, uc->args, sizeof(res->args));
	switch (uc->cmd) {
	case UCALL_SYNC:
		return result(res, GUEST_SYNC, "guest sync");
	case UCALL_DONE:
		return result(res, GUEST_DONE, "guest done");
	case UCALL_PRINT:
		guest_string(v->vm, uc->str, str, sizeof(str));
		guest_format(text, sizeof(text), str, uc->args, res->nargs);
		if (!v->vm->quiet)
			fprintf(stderr, "guest[%d]: %s%s", v->id, text,
				text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
		*cont = true;
		return GUEST_SYNC;
	case UCALL_ASSERT: {
		int n;

		guest_string(v->vm, uc->file, file, sizeof(file));
		guest_string(v->vm, uc->str, str, sizeof(str));
		n = snprintf(text, sizeof(text), "guest assertion failed at %s:%lu: %s",
			     file, (unsigned long)uc->line, str);
		for (uint64_t i = 0; i < res->nargs && n > 0 && (size_t)n < sizeof(text); i++)
			n += snprintf(text + n, sizeof(text) - n, "%s%#llx",
				      i ? ", " : " (values: ", (unsigned long long)uc->args[i]);
		if (res->nargs && n > 0 && (size_t)n < sizeof(text))
			snprintf(text + n, sizeof(text) - n, ")");
		return result(res, GUEST_ASSERT_FAILED, "%s", text);
	}
	case UCALL_UNHANDLED:
		res->vector = uc->args[0];
		res->error_code = uc->args[1];
		res->rip = uc->args[2];
		res->cr2 = uc->args[3];
		return result(res, GUEST_EXCEPTION,
			      "unhandled guest exception %s (vector %llu), error code %#llx, at "
			      "RIP %#llx, CR2 %#llx", vector_name(res->vector),
			      (unsigned long long)res->vector, (unsigned long long)res->error_code,
			      (unsigned long long)res->rip, (unsigned long long)res->cr2);
	default:
		return result(res, GUEST_UNEXPECTED_EXIT, "unknown ucall %llu",
			      (unsigned long long)uc->cmd);
	}
}

/* Unclaimed port I/O and MMIO behave like an empty bus. */
static void default_io(struct kvm_run *run)
{
	if (run->exit_reason == KVM_EXIT_IO && run->io.direction == KVM_EXIT_IO_IN)
		memset((char *)run + run->io.data_offset, 0xff,
		       (size_t)run->io.size * run->io.count);
	if (run->exit_reason == KVM_EXIT_MMIO && !run->mmio.is_write)
		memset(run->mmio.data, 0xff, sizeof(run->mmio.data));
}

/* The name of a KVM_EXIT_INTERNAL_ERROR suberror. */
static const char *internal_suberror_name(uint32_t suberror)
{
	switch (suberror) {
	case KVM_INTERNAL_ERROR_SIMUL_EX:
		return "exception while delivering an exception";
	case KVM_INTERNAL_ERROR_DELIVERY_EV:
		return "event delivery failed";
	case KVM_INTERNAL_ERROR_UNEXPECTED_EXIT_REASON:
		return "unexpected exit reason";
	default:
		return "unknown";
	}
}

static enum guest_exit internal_error(struct vcpu *v, struct guest_result *res)
{
	struct kvm_run *run = v->run;
	char bytes[64] = "";

	res->rip = vcpu_rip(v);
	if (run->internal.suberror == KVM_INTERNAL_ERROR_EMULATION) {
		if (run->emulation_failure.ndata >= 3 &&
		    (run->emulation_failure.flags & KVM_INTERNAL_ERROR_EMULATION_FLAG_INSTRUCTION_BYTES)) {
			size_t n = 0;
			unsigned int len = run->emulation_failure.insn_size;

			if (len > 15)
				len = 15;
			for (unsigned int i = 0; i < len; i++)
				n += snprintf(bytes + n, sizeof(bytes) - n, "%s%02x", i ? " " : "",
					      run->emulation_failure.insn_bytes[i]);
		} else {
			/* Older kernels: read the bytes from guest memory (RIP == address). */
			const uint8_t *p = vm_gva(v->vm, res->rip, 15);
			size_t n = 0;

			for (int i = 0; p && i < 15; i++)
				n += snprintf(bytes + n, sizeof(bytes) - n, "%s%02x", i ? " " : "",
					      p[i]);
		}
		return result(res, GUEST_EMULATION_FAILURE,
			      "emulation failure at RIP %#llx, bytes %s",
			      (unsigned long long)res->rip, bytes[0] ? bytes : "unknown");
	}
	return result(res, GUEST_INTERNAL_ERROR,
		      "KVM internal error, suberror %u (%s), at RIP %#llx",
		      run->internal.suberror,
		      internal_suberror_name(run->internal.suberror), (unsigned long long)res->rip);
}

enum guest_exit vcpu_run(struct vcpu *v, uint64_t budget_ms, struct guest_result *res)
{
	return vcpu_run_cpu(v, budget_ms, 0, res);
}

enum guest_exit vcpu_run_cpu(struct vcpu *v, uint64_t budget_ms, uint64_t cpu_ms,
			     struct guest_result *res)
{
	struct kvm_run *run = v->run;
	uint64_t deadline, cpu_deadline = 0;
	enum guest_exit kind;
	bool cont, wall_out;
	int r;

	memset(res, 0, sizeof(*res));
	r = watchdog_bind(v);
	if (r) {
		res->err = r;
		return result(res, GUEST_ERROR, "watchdog setup: %s", strerror(-r));
	}
	deadline = now_ns() + budget_ms * 1000000ULL;
	timer_arm(v->timer, budget_ms ? budget_ms : 1);
	if (cpu_ms) {
		cpu_deadline = thread_cpu_ns() + cpu_ms * 1000000ULL;
		timer_arm(v->cpu_timer, cpu_ms);
	}
	for (;;) {
		/*
		 * A Ctrl-C that came while this thread was outside KVM_RUN has
		 * been handled already: only the flag tells, no signal would
		 * interrupt the next entry. (One landing between this check and
		 * the entry is seen at the guest's next exit or the watchdog.)
		 */
		if (vm_stop_requested(v->vm)) {
			vcpu_sync_state(v);
			res->rip = vcpu_rip(v);
			kind = result(res, GUEST_STOPPED, "stopped by request at RIP %#llx",
				      (unsigned long long)res->rip);
			break;
		}
		r = kvm_run(v->fd);
		if (r == -EINTR || (r == 0 && run->exit_reason == KVM_EXIT_INTR)) {
			v->user_exits.intr++;
			/* A Ctrl-C stops it at the top of the loop, even past the deadline. */
			wall_out = now_ns() >= deadline;
			if (!vm_stop_requested(v->vm) &&
			    (wall_out || (cpu_ms && thread_cpu_ns() >= cpu_deadline))) {
				vcpu_sync_state(v);
				res->rip = vcpu_rip(v);
				kind = result(res, GUEST_HANG,
					      "guest hang: still running after %llu ms%s, at "
					      "RIP %#llx",
					      (unsigned long long)(wall_out ? budget_ms : cpu_ms),
					      wall_out ? "" : " of its thread's CPU time",
					      (unsigned long long)res->rip);
				break;
			}
			/* Ctrl-C, or someone else's kick (e.g. a test): drop it and go on. */
			watchdog_drain();
			continue;
		}
		if (r < 0) {
			res->err = r;
			kind = result(res, GUEST_ERROR, "KVM_RUN: %s", strerror(-r));
			break;
		}
		res->exit_reason = run->exit_reason;
		switch (run->exit_reason) {
		case KVM_EXIT_IO:
			if (run->io.port == UCALL_PORT) {
				v->user_exits.ucall++;
				kind = handle_ucall(v, res, &cont);
				if (cont)
					continue;
				goto out;
			}
			/* fall through */
		case KVM_EXIT_MMIO:
		case KVM_EXIT_X86_RDMSR:
		case KVM_EXIT_X86_WRMSR:
			if (run->exit_reason == KVM_EXIT_IO)
				v->user_exits.io++;
			else if (run->exit_reason == KVM_EXIT_MMIO)
				v->user_exits.mmio++;
			else
				v->user_exits.msr++;
			if (v->exit_hook && v->exit_hook(v, run, v->hook_ctx))
				continue;
			if (run->exit_reason == KVM_EXIT_X86_RDMSR ||
			    run->exit_reason == KVM_EXIT_X86_WRMSR)
				run->msr.error = 1;
			else
				default_io(run);
			continue;
		case KVM_EXIT_HLT:
			res->rip = vcpu_rip(v);
			kind = result(res, GUEST_HALTED,
				      "guest halted at RIP %#llx with no in-kernel APIC to wake it",
				      (unsigned long long)res->rip);
			goto out;
		case KVM_EXIT_SHUTDOWN:
			res->rip = vcpu_rip(v);
			kind = result(res, GUEST_SHUTDOWN,
				      "guest triple fault (KVM_EXIT_SHUTDOWN), RIP %#llx",
				      (unsigned long long)res->rip);
			goto out;
		case KVM_EXIT_FAIL_ENTRY:
			kind = result(res, GUEST_FAIL_ENTRY,
				      "VM entry failed: hardware entry failure reason %#llx on "
				      "CPU %u",
				      (unsigned long long)run->fail_entry.hardware_entry_failure_reason,
				      run->fail_entry.cpu);
			goto out;
		case KVM_EXIT_INTERNAL_ERROR:
			kind = internal_error(v, res);
			goto out;
		default:
			v->user_exits.other++;
			res->rip = vcpu_rip(v);
			kind = result(res, GUEST_UNEXPECTED_EXIT,
				      "unexpected exit reason %u (%s) at RIP %#llx",
				      run->exit_reason, kvm_exit_reason_name(run->exit_reason),
				      (unsigned long long)res->rip);
			goto out;
		}
	}
out:
	watchdog_disarm(v);
	return kind;
}

enum guest_exit vcpu_call_run(struct vcpu *v, guest_fn_t fn, uint64_t arg,
			      uint64_t budget_ms, struct guest_result *res)
{
	int r = vcpu_call(v, fn, arg);

	if (r) {
		memset(res, 0, sizeof(*res));
		res->err = r;
		return result(res, GUEST_ERROR, "KVM_SET_REGS: %s", strerror(-r));
	}
	return vcpu_run(v, budget_ms, res);
}
