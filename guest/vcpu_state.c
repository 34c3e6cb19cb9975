// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate.c - save a vCPU's complete state, validate it against a target
 * vCPU, restore it without ever half-applying, and move a whole test VM
 * (memory, kvmclock, PIC/IOAPIC, every vCPU) into a freshly built VM.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "guest/vcpu_state.h"
#include "kvm/msr.h"

#define APIC_BASE_X2APIC	(1ULL << 10)
#define SZ_2M			0x200000ULL
#define MSR_IA32_TSC		0x10

extern const char _end[];

void vcpu_state_free(struct vcpu_state *s)
{
	if (!s)
		return;
	free(s->xsave);
	free(s->msrs);
	free(s);
}

bool vcpu_state_msr(const struct vcpu_state *s, uint32_t index, uint64_t *val)
{
	for (uint32_t i = 0; s->msrs && i < s->msrs->nmsrs; i++) {
		if (s->msrs->entries[i].index == index) {
			*val = s->msrs->entries[i].data;
			return true;
		}
	}
	return false;
}

/*
 * Every MSR of the save list that KVM lets the host read and write back
 * unchanged: one KVM refuses to take back (e.g. MSR_KVM_POLL_CONTROL without
 * an in-kernel LAPIC) would make a restore fail half-way. IA32_TSC is not
 * written back: it keeps counting, and it is always writable.
 */
static int save_msrs(struct vcpu *v, struct vcpu_state *s)
{
	struct kvm_msr_list *l;
	int r = kvm_get_msr_index_list(v->vm->kvm_fd, &l);

	if (r)
		return r;
	s->msrs = calloc(1, sizeof(*s->msrs) + (l->nmsrs + 1) * sizeof(s->msrs->entries[0]));
	if (!s->msrs) {
		free(l);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < l->nmsrs; i++) {
		uint64_t val;

		if (kvm_get_msr(v->fd, l->indices[i], &val))
			continue;
		if (l->indices[i] != MSR_IA32_TSC && kvm_set_msr(v->fd, l->indices[i], val))
			continue;
		s->msrs->entries[s->msrs->nmsrs].index = l->indices[i];
		s->msrs->entries[s->msrs->nmsrs].data = val;
		s->msrs->nmsrs++;
	}
	free(l);
	return 0;
}

static bool reg_list_has(struct vcpu *v, uint64_t id)
{
	struct kvm_reg_list *l;
	bool has = false;

	if (kvm_get_reg_list(v->fd, &l))
		return false;	/* before Linux 6.18 x86 has no register list */
	for (uint64_t i = 0; i < l->n; i++)
		has |= l->reg[i] == id;
	free(l);
	return has;
}

long vcpu_state_xsave_diff(const struct kvm_xsave *a, const struct kvm_xsave *b, size_t size)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;

	for (size_t i = 0; i < size; i++) {
		if (i >= XSAVE_XSTATE_BV_OFFSET && i < XSAVE_XSTATE_BV_OFFSET + sizeof(uint64_t))
			continue;
		if (x[i] != y[i])
			return (long)i;
	}
	return -1;
}

int vcpu_state_save(struct vcpu *v, struct vcpu_state **out, struct err *err)
{
	struct vcpu_state *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return err_set(err, -ENOMEM, "save: out of memory");
	/* An exit to userspace is complete only after the next KVM_RUN (api.rst). */
	if (v->run && (v->run->exit_reason == KVM_EXIT_IO || v->run->exit_reason == KVM_EXIT_MMIO)) {
		v->run->immediate_exit = 1;
		r = kvm_run(v->fd);
		v->run->immediate_exit = 0;
		if (r && r != -EINTR)
			goto fail_r_pending;
	}
	r = kvm_get_regs(v->fd, &s->regs);
	if (r)
		goto fail_r_regs;
	r = kvm_get_sregs(v->fd, &s->sregs);
	if (r)
		goto fail_r_sregs;
	s->xsave_size = kvm_xsave_size(v->vm->fd);
	s->xsave = calloc(1, s->xsave_size);
	if (!s->xsave) {
		vcpu_state_free(s);
		return err_set(err, -ENOMEM, "save: out of memory");
	}
	r = kvm_check_cap(v->vm->fd, KVM_CAP_XSAVE2) > 0 ? kvm_get_xsave2(v->fd, s->xsave) :
	    kvm_ioctl(v->fd, KVM_GET_XSAVE, s->xsave);
	if (r)
		goto fail_r_xsave;
	if (kvm_check_cap(v->vm->kvm_fd, KVM_CAP_XCRS) > 0) {
		r = kvm_get_xcrs(v->fd, &s->xcrs);
		if (r)
			goto fail_r_xcrs;
		s->has_xcrs = true;
	}
	r = save_msrs(v, s);
	if (r)
		goto fail_r_msrs;
	if (reg_list_has(v, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP))) {
		r = kvm_get_one_reg(v->fd, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), &s->ssp);
		if (r)
			goto fail_r_ssp;
		s->has_ssp = true;
	}
	if (v->vm->irqchip) {
		r = kvm_get_lapic(v->fd, &s->lapic);
		if (r)
			goto fail_r_lapic;
		s->has_lapic = true;
	}
	r = kvm_get_vcpu_events(v->fd, &s->events);
	if (r)
		goto fail_r_events;
	r = kvm_get_mp_state(v->fd, &s->mp);
	if (r)
		goto fail_r_mp;
	r = kvm_get_debugregs(v->fd, &s->dregs);
	if (r)
		goto fail_r_dregs;
	*out = s;
	return 0;

#define SAVE_FAIL(label, what)							\
label:										\
	vcpu_state_free(s);							\
	return err_set(err, r, "save vCPU %d: %s: %s", v->id, what, strerror(-r))
	SAVE_FAIL(fail_r_pending, "KVM_RUN completing the pending exit");
	SAVE_FAIL(fail_r_regs, "KVM_GET_REGS");
	SAVE_FAIL(fail_r_sregs, "KVM_GET_SREGS");
	SAVE_FAIL(fail_r_xsave, "KVM_GET_XSAVE2");
	SAVE_FAIL(fail_r_xcrs, "KVM_GET_XCRS");
	SAVE_FAIL(fail_r_msrs, "KVM_GET_MSR_INDEX_LIST");
	SAVE_FAIL(fail_r_ssp, "KVM_GET_ONE_REG(GUEST_SSP)");
	SAVE_FAIL(fail_r_lapic, "KVM_GET_LAPIC");
	SAVE_FAIL(fail_r_events, "KVM_GET_VCPU_EVENTS");
	SAVE_FAIL(fail_r_mp, "KVM_GET_MP_STATE");
	SAVE_FAIL(fail_r_dregs, "KVM_GET_DEBUGREGS");
#undef SAVE_FAIL
}

/* MSRs that only a CPU with one of these features has (the CET ones: kvm/msr.h). */
struct msr_gate {
	uint32_t index;
	enum x86_feat feat, alt;
};

static const struct msr_gate msr_gates[] = {
	{ MSR_IA32_TSC_ADJUST,	 .feat = X86_FEAT_TSC_ADJUST },
	{ MSR_IA32_TSC_DEADLINE,  .feat = X86_FEAT_TSC_DEADLINE },
	{ MSR_IA32_XSS,		 .feat = X86_FEAT_XSAVES },
};

static int missing(struct err *err, enum x86_feat feat, enum x86_feat alt, const char *what)
{
	return err_set(err, -EOPNOTSUPP,
		    "cannot restore: the saved state uses %s%s%s (%s) but the target vCPU's CPUID "
		    "lacks it; nothing was applied", x86_feature_name(feat), alt ? " or " : "",
		    alt ? x86_feature_name(alt) : "", what);
}

/* The gate of an MSR into *g; false for an MSR every CPU has. */
static bool msr_gate_of(uint32_t index, struct msr_gate *g)
{
	const struct cet_msr *c = cet_msr_of(index);

	for (size_t i = 0; i < ARRAY_SIZE(msr_gates); i++)
		if (msr_gates[i].index == index)
			return *g = msr_gates[i], true;
	if (c)
		*g = (struct msr_gate){ .index = c->index, .feat = c->feat, .alt = c->alt };
	return c != NULL;
}

static int state_check(struct vcpu *v, const struct kvm_cpuid2 *c, const struct vcpu_state *s,
		       struct err *err)
{
	const struct kvm_cpuid_entry2 *e;
	char what[96];
	int size;

	if (s->has_lapic && !v->vm->irqchip)
		return err_set(err, -EOPNOTSUPP, "cannot restore: the saved state has an in-kernel "
			    "LAPIC but the target VM has no in-kernel irqchip; nothing was "
			    "applied");
	size = kvm_xsave_size(v->vm->fd);
	if (s->xsave_size > size)
		return err_set(err, -EOPNOTSUPP,
			    "cannot restore: the saved XSAVE area is %d bytes, the target takes "
			    "%d; nothing was applied", s->xsave_size, size);
	if ((s->sregs.apic_base & APIC_BASE_X2APIC) && !cpuid_has(c, X86_FEAT_X2APIC)) {
		snprintf(what, sizeof(what), "IA32_APIC_BASE %#llx has x2APIC mode on",
			 (unsigned long long)s->sregs.apic_base);
		return missing(err, X86_FEAT_X2APIC, X86_FEAT_NONE, what);
	}
	for (size_t i = 0; i < nr_cr4_bits; i++) {
		const struct cr4_bit *g = &cr4_bits[i];

		if ((s->sregs.cr4 & (1ULL << g->bit)) && !cpuid_has_any(c, g->feat, g->alt)) {
			snprintf(what, sizeof(what), "CR4 %#llx has %s set",
				 (unsigned long long)s->sregs.cr4, g->name);
			return missing(err, g->feat, g->alt, what);
		}
	}
	if (s->has_xcrs) {
		for (uint32_t i = 0; i < s->xcrs.nr_xcrs; i++) {
			uint64_t x = s->xcrs.xcrs[i].value, sup;

			if (s->xcrs.xcrs[i].xcr != 0 || x == XFEATURE_X87)
				continue;
			if (!cpuid_has(c, X86_FEAT_XSAVE)) {
				snprintf(what, sizeof(what), "XCR0 %#llx", (unsigned long long)x);
				return missing(err, X86_FEAT_XSAVE, X86_FEAT_NONE, what);
			}
			e = cpuid_find_const(c, 0xd, 0);
			sup = e ? (e->eax | (uint64_t)e->edx << 32) : 0;
			if (x & ~sup)
				return err_set(err, -EOPNOTSUPP,
					    "cannot restore: saved XCR0 %#llx has components %#llx "
					    "that the target's CPUID leaf 0xd does not enumerate; "
					    "nothing was applied", (unsigned long long)x,
					    (unsigned long long)(x & ~sup));
		}
	}
	for (uint32_t i = 0; s->msrs && i < s->msrs->nmsrs; i++) {
		const struct kvm_msr_entry *m = &s->msrs->entries[i];
		struct msr_gate g;

		if (msr_gate_of(m->index, &g) && m->data && !cpuid_has_any(c, g.feat, g.alt)) {
			snprintf(what, sizeof(what), "MSR %#x = %#llx", m->index,
				 (unsigned long long)m->data);
			return missing(err, g.feat, g.alt, what);
		}
	}
	if (s->has_ssp && s->ssp && !cpuid_has(c, X86_FEAT_SHSTK)) {
		snprintf(what, sizeof(what), "GUEST_SSP %#llx", (unsigned long long)s->ssp);
		return missing(err, X86_FEAT_SHSTK, X86_FEAT_NONE, what);
	}
	return 0;
}

int vcpu_state_check(struct vcpu *v, const struct vcpu_state *s, struct err *err)
{
	struct kvm_cpuid2 *c;
	int r = kvm_get_cpuid(v->fd, &c);

	if (r)
		return err_set(err, r, "restore: KVM_GET_CPUID2 of the target: %s", strerror(-r));
	r = state_check(v, c, s, err);
	free(c);
	return r;
}

/*
 * The MSRs to write into v: zero values of MSRs whose feature the target
 * lacks are their reset state and left alone (KVM may refuse the write).
 */
static struct kvm_msrs *msrs_for(struct vcpu *v, const struct vcpu_state *s)
{
	struct kvm_cpuid2 *c;
	struct kvm_msrs *m;
	uint32_t n = s->msrs ? s->msrs->nmsrs : 0;

	m = calloc(1, sizeof(*m) + (n + 1) * sizeof(m->entries[0]));
	if (!m || kvm_get_cpuid(v->fd, &c)) {
		free(m);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct kvm_msr_entry *e = &s->msrs->entries[i];
		struct msr_gate g;

		if (msr_gate_of(e->index, &g) && !e->data && !cpuid_has_any(c, g.feat, g.alt))
			continue;
		m->entries[m->nmsrs].index = e->index;
		m->entries[m->nmsrs].data = e->data;
		m->nmsrs++;
	}
	free(c);
	return m;
}

/* Apply s to v; on failure err names the step. */
static int state_apply(struct vcpu *v, const struct vcpu_state *s, const struct kvm_msrs *m,
		       struct err *err)
{
	struct kvm_debugregs dr = s->dregs;
	int r;

	r = kvm_set_sregs(v->fd, &s->sregs);
	if (r)
		return err_set(err, r, "KVM_SET_SREGS: %s", strerror(-r));
	r = kvm_set_regs(v->fd, &s->regs);
	if (r)
		return err_set(err, r, "KVM_SET_REGS: %s", strerror(-r));
	r = kvm_set_xsave(v->fd, s->xsave);
	if (r)
		return err_set(err, r, "KVM_SET_XSAVE: %s", strerror(-r));
	if (s->has_xcrs) {
		r = kvm_set_xcrs(v->fd, &s->xcrs);
		if (r)
			return err_set(err, r, "KVM_SET_XCRS: %s", strerror(-r));
	}
	if (s->has_lapic) {
		r = kvm_set_lapic(v->fd, &s->lapic);
		if (r)
			return err_set(err, r, "KVM_SET_LAPIC: %s", strerror(-r));
	}
	r = __kvm_set_msrs(v->fd, m);
	if (r < 0)
		return err_set(err, r, "KVM_SET_MSRS: %s", strerror(-r));
	if ((uint32_t)r != m->nmsrs)
		return err_set(err, -EINVAL, "KVM_SET_MSRS: MSR %#x = %#llx refused (%d of %u set)",
			    m->entries[r].index, (unsigned long long)m->entries[r].data, r, m->nmsrs);
	if (s->has_ssp && (s->ssp || reg_list_has(v, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP)))) {
		r = kvm_set_one_reg(v->fd, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), &s->ssp);
		if (r)
			return err_set(err, r, "KVM_SET_ONE_REG(GUEST_SSP): %s", strerror(-r));
	}
	r = kvm_set_mp_state(v->fd, &s->mp);
	if (r)
		return err_set(err, r, "KVM_SET_MP_STATE: %s", strerror(-r));
	r = kvm_set_vcpu_events(v->fd, &s->events);
	if (r)
		return err_set(err, r, "KVM_SET_VCPU_EVENTS: %s", strerror(-r));
	dr.flags = 0;
	r = kvm_set_debugregs(v->fd, &dr);
	if (r)
		return err_set(err, r, "KVM_SET_DEBUGREGS: %s", strerror(-r));
	return 0;
}

int vcpu_state_restore(struct vcpu *v, const struct vcpu_state *s, struct err *err)
{
	struct kvm_msrs *m = NULL, *pm = NULL;
	struct vcpu_state *pre = NULL;
	struct err why, rb;
	int r;

	r = vcpu_state_check(v, s, err);
	if (r)
		return r;
	m = msrs_for(v, s);
	r = m ? vcpu_state_save(v, &pre, &rb) : -ENOMEM;
	pm = pre ? msrs_for(v, pre) : NULL;
	if (!m || r || !pm) {
		r = r ? r : -ENOMEM;
		err_set(err, r, "restore vCPU %d: preparing: %s", v->id,
		     r == -ENOMEM ? "out of memory" : rb.msg);
		goto out;
	}
	r = state_apply(v, s, m, &why);
	if (r) {
		/* KVM refused a step the checks did not foresee: put the target back. */
		int rr = state_apply(v, pre, pm, &rb);

		err_set(err, r, "restore vCPU %d: %s; %s%s", v->id, why.msg,
		     rr ? "rolling back failed too: " : "the target's previous state was put back",
		     rr ? rb.msg : "");
	}
out:
	free(m);
	free(pm);
	vcpu_state_free(pre);
	return r;
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

/* kvmclock and the in-kernel PIC/IOAPIC. */
struct vm_level {
	bool has_clock;
	struct kvm_clock_data clock;
	int nr_chips;
	struct kvm_irqchip chips[3];
};

static int vm_level_save(struct vm *vm, struct vm_level *l, struct err *err)
{
	int r;

	memset(l, 0, sizeof(*l));
	l->has_clock = kvm_ioctl(vm->fd, KVM_GET_CLOCK, &l->clock) == 0;
	if (!vm->irqchip)
		return 0;
	for (int i = 0; i < 3; i++) {
		l->chips[i].chip_id = i;	/* PIC master, PIC slave, IOAPIC */
		r = kvm_ioctl(vm->fd, KVM_GET_IRQCHIP, &l->chips[i]);
		if (r)
			return err_set(err, r, "save: KVM_GET_IRQCHIP %d: %s", i, strerror(-r));
	}
	l->nr_chips = 3;
	return 0;
}

static int vm_level_restore(struct vm *vm, const struct vm_level *l, struct err *err)
{
	struct kvm_clock_data clock;
	int r;

	for (int i = 0; i < l->nr_chips; i++) {
		r = kvm_ioctl(vm->fd, KVM_SET_IRQCHIP, (void *)&l->chips[i]);
		if (r)
			return err_set(err, r, "restore: KVM_SET_IRQCHIP %d: %s", i, strerror(-r));
	}
	if (l->has_clock) {
		memset(&clock, 0, sizeof(clock));
		clock.clock = l->clock.clock;
		r = kvm_ioctl(vm->fd, KVM_SET_CLOCK, &clock);
		if (r)
			return err_set(err, r, "restore: KVM_SET_CLOCK: %s", strerror(-r));
	}
	return 0;
}

int vm_migrate(struct vm *src, const struct vm_opts *opts, struct vm **dst,
	       struct err *err)
{
	struct vcpu_state *st[GUEST_MAX_VCPUS] = { 0 };
	struct vm_opts o;
	struct vm_level lvl;
	struct vm *d = NULL;
	char path[64];
	struct err why;
	int r = 0;

	*dst = NULL;
	for (int i = 0; i < src->nr_vcpus && !r; i++)
		r = vcpu_state_save(&src->vcpus[i], &st[i], err);
	if (!r)
		r = vm_level_save(src, &lvl, err);
	if (r)
		goto out;
	if (opts) {
		o = *opts;
	} else {
		uint64_t img = round_up((uint64_t)(uintptr_t)_end, SZ_2M);

		/* The same device as src, whatever path opened it. */
		snprintf(path, sizeof(path), "/proc/self/fd/%d", src->kvm_fd);
		memset(&o, 0, sizeof(o));
		o.kvm_path = path;
		o.nr_vcpus = src->nr_vcpus;
		o.irqchip = src->irqchip;
		o.cpuid = src->cpuid;
		o.mem_extra = src->mem_size > img ? src->mem_size - img : 0;
		o.stop = src->stop;
		o.quiet = src->quiet;
	}
	r = vm_create(&d, &o, &why);
	if (r) {
		err_set(err, r, "migrate: creating the target VM: %s", why.msg);
		goto out;
	}
	if (d->mem_size != src->mem_size || d->nr_vcpus != src->nr_vcpus) {
		r = err_set(err, -EINVAL, "migrate: target VM has %llu bytes and %d vCPUs, "
			 "source %llu and %d", (unsigned long long)d->mem_size, d->nr_vcpus,
			 (unsigned long long)src->mem_size, src->nr_vcpus);
		goto out;
	}
	memcpy(d->mem, src->mem, src->mem_size);
	d->pool_next = src->pool_next;
	r = vm_level_restore(d, &lvl, err);
	for (int i = 0; i < src->nr_vcpus && !r; i++) {
		r = vcpu_state_restore(&d->vcpus[i], st[i], err);
		d->vcpus[i].exit_hook = src->vcpus[i].exit_hook;
		d->vcpus[i].hook_ctx = src->vcpus[i].hook_ctx;
	}
out:
	for (int i = 0; i < GUEST_MAX_VCPUS; i++)
		vcpu_state_free(st[i]);
	if (r) {
		vm_destroy(d);
		return r;
	}
	*dst = d;
	return 0;
}

bool msr_counts_time(uint32_t index)
{
	return index == MSR_IA32_TSC || index == 0xe7 /* MPERF */ || index == 0xe8 /* APERF */ ||
	       index == 0x40000010 /* HV_X64_MSR_VP_RUNTIME */ ||
	       index == 0x40000020 /* HV_X64_MSR_TIME_REF_COUNT */;
}
