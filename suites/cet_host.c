// SPDX-License-Identifier: GPL-2.0-only
/*
 * cet_host.c - host-side CET checks: CPUID policy against the host CPU, the
 * XSS bits and the MSR save list; KVM_SET/GET_MSRS and ONE_REG of the CET
 * MSRs and GUEST_SSP (round trips, refused values, refusal without CET in
 * the guest CPUID); KVM_GET_REG_LIST; KVM_SET_SREGS with CR4.CET.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/cpu.h"
#include "host/hostinfo.h"
#include "suites/cet_int.h"

#define SUITE		CET_SUITE

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}


/* "U_CET,S_CET" into buf: the CET MSRs of mask (bit i: cet_msrs[i]), "none" without. */
static const char *cet_msr_list(uint32_t mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < CET_NR_MSRS && n < len; i++)
		if (mask & (1u << i))
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "", cet_msrs[i].name);
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

void cet_check_cpuid_policy(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	const struct cet_support *cs = &cc->cs;
	struct cet_host_cpu h = { .kvm_shstk = cs->shstk, .kvm_ibt = cs->ibt };
	char want[CET_EV_LEN], seen[CET_EV_LEN];
	bool fl_user_shstk, fl_ibt;

	/*
	 * What KVM offers, the host CPU must have: KVM derives SHSTK/IBT from
	 * the CPU's CPUID and its VMX/SVM capabilities, not from the host
	 * kernel's user shadow stacks, so /proc/cpuinfo ("user_shstk", "ibt";
	 * there is no "shstk" flag) is information only.
	 */
	h.cpu_shstk = host_cpu_has(X86_FEAT_SHSTK);
	h.cpu_ibt = host_cpu_has(X86_FEAT_IBT);
	fl_user_shstk = host_cpuinfo_flag("user_shstk");
	fl_ibt = host_cpuinfo_flag("ibt");
	snprintf(want, sizeof(want), "shstk=%d ibt=%d", cs->shstk, cs->ibt);
	snprintf(seen, sizeof(seen), "shstk=%d ibt=%d", cs->shstk && h.cpu_shstk,
		 cs->ibt && h.cpu_ibt);
	check_add_ev(rep, SUITE, "cpuid_host_cpu", cet_cpuid_host_status(&h), want, seen,
		  "KVM_GET_SUPPORTED_CPUID shstk=%s ibt=%s; host CPUID 7.0 shstk (ECX bit 7)=%s "
		  "ibt (EDX bit 20)=%s; /proc/cpuinfo (information only) user_shstk=%s ibt=%s",
		  yesno(cs->shstk), yesno(cs->ibt), yesno(h.cpu_shstk), yesno(h.cpu_ibt),
		  yesno(fl_user_shstk), yesno(fl_ibt));
	snprintf(want, sizeof(want), "0x%llx",
		 cs->shstk || cs->ibt ? (unsigned long long)XSS_CET : 0ULL);
	snprintf(seen, sizeof(seen), "0x%llx", (unsigned long long)(cs->xss & XSS_CET));
	check_add_ev(rep, SUITE, "cpuid_xss_bits",
		  (cs->shstk || cs->ibt) == ((cs->xss & XSS_CET) == XSS_CET) &&
		  ((cs->xss & XSS_CET) == 0 || (cs->xss & XSS_CET) == XSS_CET) ?
		  CHECK_PASS : CHECK_FAIL, want, seen,
		  "shstk=%s ibt=%s, supported XSS %#llx (CET_USER bit 11 %s, CET_KERNEL bit "
		  "12 %s): both bits expected iff SHSTK or IBT", yesno(cs->shstk), yesno(cs->ibt),
		  (unsigned long long)cs->xss, yesno(cs->xss & XFEATURE_CET_USER),
		  yesno(cs->xss & XFEATURE_CET_KERNEL));
}

void cet_check_msr_list(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	const struct cet_support *cs = &cc->cs;
	struct kvm_msr_list *l;
	char bad[256] = "", seen[256] = "", ev_want[CET_EV_LEN], ev_seen[CET_EV_LEN];
	uint32_t want_mask = 0, has_mask = 0;
	size_t nb = 0, ns = 0;
	int fd = kvm_open(cc->env->kvm_path), r;

	r = fd < 0 ? fd : kvm_get_msr_index_list(fd, &l);
	if (fd >= 0)
		close(fd);
	if (r) {
		check_add(rep, SUITE, "msr_index_list", CHECK_FAIL,
			  "KVM_GET_MSR_INDEX_LIST: %s", strerror(-r));
		return;
	}
	for (int i = 0; i < CET_NR_MSRS; i++) {
		uint32_t m = cet_msrs[i].index;
		bool want = cet_msr_exists(&cet_msrs[i], cs);
		bool has = kvm_msr_list_has(l, m);

		want_mask |= (uint32_t)want << i;
		has_mask |= (uint32_t)has << i;
		if (has)
			ns += snprintf(seen + ns, sizeof(seen) - ns, "%s%s", ns ? "," : "",
				       cet_msr_name(m));
		if (has != want)
			nb += snprintf(bad + nb, sizeof(bad) - nb, "%s%s %s", nb ? "; " : "",
				       cet_msr_name(m), has ? "listed without support" :
				       "missing although supported");
	}
	cet_msr_list(want_mask, ev_want, sizeof(ev_want));
	cet_msr_list(has_mask, ev_seen, sizeof(ev_seen));
	if (nb)
		check_add_ev(rep, SUITE, "msr_index_list", CHECK_FAIL, ev_want, ev_seen,
			  "shstk=%s ibt=%s: %s", yesno(cs->shstk), yesno(cs->ibt), bad);
	else
		check_add_ev(rep, SUITE, "msr_index_list", CHECK_PASS, ev_want, ev_seen,
			  "shstk=%s ibt=%s; CET MSRs in KVM_GET_MSR_INDEX_LIST: %s",
			  yesno(cs->shstk), yesno(cs->ibt), ns ? seen : "none");
	free(l);
}

/* A valid, non-zero value for a CET MSR: SHSTK/IBT enables or an aligned SSP. */
static uint64_t cet_valid_value(uint32_t m, const struct cet_support *cs, int variant)
{
	if (!cet_msr_of(m)->ssp)
		return variant ? (cs->ibt ? CET_ENDBR_EN | CET_NO_TRACK_EN : CET_SHSTK_EN | CET_WRSS_EN)
			       : (cs->shstk ? CET_SHSTK_EN : CET_ENDBR_EN);
	return (variant ? 0xffff888000002000ULL : 0x00007ffff0001000ULL) + 0x10 * (m - MSR_IA32_PL0_SSP);
}

/* Host KVM_SET_MSRS/GET_MSRS of each CET MSR; counts what was accepted. */
static void msr_access_refused(struct vcpu *v, const struct cet_support *cs, char *acc,
			       size_t len, size_t *n, bool zero_write_ok)
{
	for (int i = 0; i < CET_NR_MSRS; i++) {
		uint32_t m = cet_msrs[i].index;
		uint64_t val = 0;

		if (!kvm_set_msr(v->fd, m, cet_valid_value(m, cs, 0) | (cet_msrs[i].ssp ? 0 : CET_SHSTK_EN)))
			*n += snprintf(acc + *n, len - *n, "%sset %s", *n ? ", " : "",
				       cet_msr_name(m));
		if (!zero_write_ok && !kvm_set_msr(v->fd, m, 0))
			*n += snprintf(acc + *n, len - *n, "%sset %s=0", *n ? ", " : "",
				       cet_msr_name(m));
		if (!kvm_get_msr(v->fd, m, &val) && (!zero_write_ok || val))
			*n += snprintf(acc + *n, len - *n, "%sget %s=%#llx", *n ? ", " : "",
				       cet_msr_name(m), (unsigned long long)val);
		if (*n >= len)
			*n = len - 1;
	}
}

void cet_check_msrs_refused(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	const struct suite_env *env = cc->env;
	const struct cet_support *cs = &cc->cs;
	bool kvm_cet = cs->shstk || cs->ibt;
	const char *name = kvm_cet ? "msr_refused_cleared_cpuid" : "msr_refused_no_cet";
	const char *skip = cet_ignore_msrs_skip(cc->ignore_msrs);
	char acc[384] = "";
	struct err err;
	struct vm *vm;
	size_t n = 0;

	if (skip) {
		check_add_ev(rep, SUITE, name, CHECK_SKIP, "ignore_msrs=N", "ignore_msrs=Y", "%s",
			     skip);
		return;
	}
	if (cet_vm_create(env, CET_CPUID_CLEARED, false, &vm, &err)) {
		check_add(rep, SUITE, name, CHECK_FAIL, "vm_create: %s", err.msg);
		return;
	}
	/*
	 * Without CET in KVM every access must fail. With CET in KVM but not in
	 * the guest CPUID, KVM lets the host write 0 and read 0 (reset and
	 * migration of advertised MSRs); non-zero values must still be refused.
	 */
	/* FRED in KVM advertises PL0_SSP too, with the same host 0-write rule. */
	msr_access_refused(&vm->vcpus[0], cs, acc, sizeof(acc), &n, kvm_cet || cs->fred);
	if (n)
		check_add_ev(rep, SUITE, name, CHECK_FAIL, "accepted=none", "accepted=some",
			  "guest CPUID without SHSTK/IBT, yet KVM accepted: %s", acc);
	else
		check_add_ev(rep, SUITE, name, CHECK_PASS, "accepted=none", "accepted=none",
			  kvm_cet ? "guest CPUID without SHSTK/IBT: KVM_SET_MSRS of non-zero "
				    "values refused for all 7 CET MSRs, reads refused or 0" :
				    "KVM_SET_MSRS (0 and non-zero) and KVM_GET_MSRS refused for "
				    "all 7 CET MSRs (U_CET, S_CET, PL0-3_SSP, INT_SSP_TAB)");
	vm_destroy(vm);
}

/* KVM_GET_REG_LIST has GUEST_SSP? 1/0, or -errno when the ioctl fails. */
static int reg_list_has_ssp(struct vcpu *v, uint64_t *n)
{
	struct kvm_reg_list *l;
	int r = kvm_get_reg_list(v->fd, &l), has = 0;

	if (r)
		return r;
	*n = l->n;
	for (uint64_t i = 0; i < l->n; i++)
		has |= l->reg[i] == KVM_X86_REG_KVM(KVM_REG_GUEST_SSP);
	free(l);
	return has;
}

void cet_check_reg_list_absent(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	const struct suite_env *env = cc->env;
	bool one_reg_cap = hostinfo_cap(env->hi, "KVM_CAP_ONE_REG") > 0;
	char seen[CET_EV_LEN];
	uint64_t n = 0, ssp = 0x7ffff000, got = 0;
	char one[160];
	struct err err;
	enum check_status st;
	struct vm *vm;
	int r, s, g;

	if (cet_vm_create(env, CET_CPUID_CLEARED, false, &vm, &err)) {
		check_add(rep, SUITE, "reg_list_no_guest_ssp", CHECK_FAIL, "vm_create: %s",
			  err.msg);
		return;
	}
	r = reg_list_has_ssp(&vm->vcpus[0], &n);
	s = kvm_set_one_reg(vm->vcpus[0].fd, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), &ssp);
	g = kvm_get_one_reg(vm->vcpus[0].fd, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), &got);
	snprintf(one, sizeof(one), "KVM_SET_ONE_REG(GUEST_SSP=%#llx) %s, KVM_GET_ONE_REG %s",
		 (unsigned long long)ssp, s ? strerror(-s) : "accepted",
		 g ? strerror(-g) : "accepted");
	snprintf(seen, sizeof(seen), "listed=%d set_one_reg=%s", r == 1,
		 s ? "refused" : "accepted");
#define REG_LIST_WANT	"listed=0 set_one_reg=refused"
	st = cet_reg_list_absent_status(r, s, one_reg_cap);
	if (r == 1 || !s)
		check_add_ev(rep, SUITE, "reg_list_no_guest_ssp", st, REG_LIST_WANT, seen,
			  "guest CPUID without SHSTK: GUEST_SSP %s in KVM_GET_REG_LIST; %s",
			  r == 1 ? "listed" : "not listed", one);
	else if (r < 0)
		check_add_ev(rep, SUITE, "reg_list_no_guest_ssp", st, REG_LIST_WANT, seen,
			  st == CHECK_PASS ?
			  "KVM_GET_REG_LIST failed (%s) and KVM_CAP_ONE_REG is not advertised: "
			  "the x86 reg list predates Linux 6.18, so GUEST_SSP is not listed; %s" :
			  "KVM_GET_REG_LIST failed (%s) although KVM_CAP_ONE_REG is advertised; %s",
			  strerror(-r), one);
	else
		check_add_ev(rep, SUITE, "reg_list_no_guest_ssp", st, REG_LIST_WANT, seen,
			  "guest CPUID without SHSTK: KVM_GET_REG_LIST lists %llu registers, no "
			  "GUEST_SSP; %s", (unsigned long long)n, one);
	vm_destroy(vm);
}

void cet_check_sregs_cr4(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	const struct suite_env *env = cc->env;
	struct kvm_sregs sr, after;
	struct vm *vm;
	char want[CET_EV_LEN], seen[CET_EV_LEN];
	struct err err;
	int r, g;

	if (cet_vm_create(env, CET_CPUID_CLEARED, false, &vm, &err)) {
		check_add(rep, SUITE, "sregs_cr4_cet_refused", CHECK_FAIL, "vm_create: %s",
			  err.msg);
		return;
	}
	r = kvm_get_sregs(vm->vcpus[0].fd, &sr);
	if (r) {
		check_add(rep, SUITE, "sregs_cr4_cet_refused", CHECK_FAIL,
			  "KVM_GET_SREGS: %s", strerror(-r));
		vm_destroy(vm);
		return;
	}
	sr.cr4 |= X86_CR4_CET;		/* CR0.WP is set in the test VM */
	r = kvm_set_sregs(vm->vcpus[0].fd, &sr);
	g = kvm_get_sregs(vm->vcpus[0].fd, &after);
	snprintf(want, sizeof(want), "set=%d cr4_cet=0", -EINVAL);
	snprintf(seen, sizeof(seen), "set=%d cr4_cet=%d", r, g ? -1 : !!(after.cr4 & X86_CR4_CET));
	if (r == -EINVAL && !g && !(after.cr4 & X86_CR4_CET))
		check_add_ev(rep, SUITE, "sregs_cr4_cet_refused", CHECK_PASS, want, seen,
			  "guest CPUID without SHSTK/IBT: KVM_SET_SREGS with CR4 %#llx (CET, "
			  "CR0.WP set) refused with EINVAL; CR4 stays %#llx",
			  (unsigned long long)sr.cr4, (unsigned long long)after.cr4);
	else
		check_add_ev(rep, SUITE, "sregs_cr4_cet_refused", CHECK_FAIL, want, seen,
			  "guest CPUID without SHSTK/IBT: KVM_SET_SREGS with CR4 %#llx "
			  "returned %s; CR4 now %#llx", (unsigned long long)sr.cr4,
			  r ? strerror(-r) : "success", g ? 0ULL : (unsigned long long)after.cr4);
	vm_destroy(vm);
}

static const char *no_cet_reason(const struct cet_support *cs, bool need_shstk)
{
	if (!cs->shstk && !cs->ibt)
		return CET_NO_SUPPORT " (KVM_GET_SUPPORTED_CPUID has neither SHSTK nor IBT)";
	if (need_shstk && !cs->shstk)
		return CET_NO_SUPPORT " shadow stacks (SHSTK not in KVM_GET_SUPPORTED_CPUID)";
	return NULL;
}

/* Set via one interface, read back via both; appends failures to bad. */
static void roundtrip_one(struct vcpu *v, uint32_t m, uint64_t val, bool one_reg,
			  char *bad, size_t len, size_t *n)
{
	uint64_t a = ~0ULL, b = ~0ULL;
	int r = one_reg ? kvm_set_one_reg(v->fd, KVM_X86_REG_MSR(m), &val) : kvm_set_msr(v->fd, m, val);
	int ga = kvm_get_msr(v->fd, m, &a), gb = kvm_get_one_reg(v->fd, KVM_X86_REG_MSR(m), &b);

	if (r || ga || gb || a != val || b != val)
		*n += snprintf(bad + *n, len - *n,
			       "%s%s via %s %#llx: set %s, GET_MSRS %#llx, ONE_REG %#llx",
			       *n ? "; " : "", cet_msr_name(m), one_reg ? "ONE_REG" : "SET_MSRS",
			       (unsigned long long)val, r ? strerror(-r) : "ok",
			       ga ? 0ULL : (unsigned long long)a, gb ? 0ULL : (unsigned long long)b);
	if (*n >= len)
		*n = len - 1;
}

static void refused_one(struct vcpu *v, uint64_t id, uint32_t m, uint64_t val, const char *what,
			char *bad, size_t len, size_t *n)
{
	int r = id ? kvm_set_one_reg(v->fd, id, &val) : kvm_set_msr(v->fd, m, val);

	if (!r)
		*n += snprintf(bad + *n, len - *n, "%s%s %s %#llx accepted", *n ? "; " : "",
			       id == KVM_X86_REG_KVM(KVM_REG_GUEST_SSP) ? "GUEST_SSP"
			       : cet_msr_name(m), what,
			       (unsigned long long)val);
	if (*n >= len)
		*n = len - 1;
}

void cet_check_roundtrips(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	const struct suite_env *env = cc->env;
	const struct cet_support *cs = &cc->cs;
	const char *why = no_cet_reason(cs, false);
	char bad[448] = "";
	struct err err;
	struct vcpu *v;
	struct vm *vm;
	uint64_t ssp, got = 0, nregs = 0;
	size_t n = 0;
	int r;

	if (why) {
		check_add_ev(rep, SUITE, "msr_roundtrip", CHECK_SKIP, "shstk|ibt=1", "shstk|ibt=0",
			     "%s", why);
		check_add_ev(rep, SUITE, "msr_invalid_refused", CHECK_SKIP, "shstk|ibt=1",
			     "shstk|ibt=0", "%s", why);
		check_add_ev(rep, SUITE, "reg_list_guest_ssp", CHECK_SKIP, "shstk|ibt=1",
			     "shstk|ibt=0", "%s", no_cet_reason(cs, true));
		return;
	}
	if (cet_vm_create(env, CET_CPUID_SUPPORTED, false, &vm, &err)) {
		check_add(rep, SUITE, "msr_roundtrip", CHECK_FAIL, "vm_create: %s", err.msg);
		return;
	}
	v = &vm->vcpus[0];
	for (int i = 0; i < CET_NR_MSRS; i++) {
		uint32_t m = cet_msrs[i].index;

		if (!cet_msr_exists(&cet_msrs[i], cs))
			continue;
		roundtrip_one(v, m, cet_valid_value(m, cs, 0), false, bad, sizeof(bad), &n);
		roundtrip_one(v, m, cet_valid_value(m, cs, 1), true, bad, sizeof(bad), &n);
		roundtrip_one(v, m, 0, false, bad, sizeof(bad), &n);
	}
	if (cs->shstk) {
		ssp = 0x00007ffff0003ff8ULL;
		r = kvm_set_one_reg(v->fd, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), &ssp);
		if (r || kvm_get_one_reg(v->fd, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), &got) || got != ssp)
			n += snprintf(bad + n, sizeof(bad) - n,
				      "%sGUEST_SSP %#llx: set %s, read %#llx", n ? "; " : "",
				      (unsigned long long)ssp, r ? strerror(-r) : "ok",
				      (unsigned long long)got);
	}
	check_add_ev(rep, SUITE, "msr_roundtrip", n ? CHECK_FAIL : CHECK_PASS,
		  "mismatches=0", n ? "mismatches=some" : "mismatches=0", "%s",
		  n ? bad : cs->shstk ?
		  "U_CET, S_CET, PL0-3_SSP, INT_SSP_TAB round-trip through KVM_SET/GET_MSRS and "
		  "ONE_REG (values and 0), GUEST_SSP through ONE_REG" :
		  "U_CET, S_CET round-trip through KVM_SET/GET_MSRS and ONE_REG (IBT only)");

	n = 0;
	bad[0] = 0;
	refused_one(v, 0, MSR_IA32_U_CET, CET_ENDBR_EN | (1ULL << 6), "with reserved bit 6", bad,
		    sizeof(bad), &n);
	refused_one(v, 0, MSR_IA32_S_CET, 1ULL << 9, "with reserved bit 9", bad, sizeof(bad), &n);
	if (cs->shstk) {
		for (int i = 0; i < CET_NR_MSRS; i++) {
			if (!cet_msrs[i].ssp)
				continue;
			refused_one(v, 0, cet_msrs[i].index, CET_SSP_NONCANONICAL, "non-canonical",
				    bad, sizeof(bad), &n);
			if (cet_msrs[i].index != MSR_IA32_INT_SSP_TAB)
				refused_one(v, 0, cet_msrs[i].index, CET_SSP_MISALIGNED,
					    "misaligned", bad, sizeof(bad), &n);
		}
		refused_one(v, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), 0, CET_SSP_NONCANONICAL,
			    "non-canonical", bad, sizeof(bad), &n);
		refused_one(v, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), 0, CET_SSP_MISALIGNED,
			    "misaligned", bad, sizeof(bad), &n);
	}
	check_add_ev(rep, SUITE, "msr_invalid_refused", n ? CHECK_FAIL : CHECK_PASS,
		  "accepted=none", n ? "accepted=some" : "accepted=none", "%s",
		  n ? bad : cs->shstk ? "reserved *_CET bits, non-canonical SSPs and misaligned "
		  "PL0-3_SSP/GUEST_SSP all refused" : "reserved *_CET bits refused");

	if (!cs->shstk) {
		check_add_ev(rep, SUITE, "reg_list_guest_ssp", CHECK_SKIP, "shstk=1", "shstk=0",
			     "%s", no_cet_reason(cs, true));
	} else {
		r = reg_list_has_ssp(v, &nregs);
		check_add_ev(rep, SUITE, "reg_list_guest_ssp", r == 1 ? CHECK_PASS : CHECK_FAIL,
			  "listed=1", r == 1 ? "listed=1" : "listed=0",
			  r < 0 ? "guest CPUID with SHSTK: KVM_GET_REG_LIST failed: %s" :
			  r ? "guest CPUID with SHSTK: GUEST_SSP (%s) listed" :
			  "guest CPUID with SHSTK: GUEST_SSP missing from KVM_GET_REG_LIST (%s)",
			  r < 0 ? strerror(-r) : "0x2030000300000000");
	}
	vm_destroy(vm);
}
