/*
 * cet.c - host-side CET checks: CPUID policy against the host CPU, the XSS
 * bits and the MSR save list; KVM_SET/GET_MSRS and ONE_REG of the CET MSRs
 * and GUEST_SSP (round trips, refused values, refusal without CET in the
 * guest CPUID); KVM_GET_REG_LIST; KVM_SET_SREGS with CR4.CET.
 */
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites/cet.h"
#include "suites/cet_guest.h"

#define SUITE		"cet"
#define PTE_P		(1ULL << 0)
#define PTE_A		(1ULL << 5)
#define PTE_D		(1ULL << 6)
#define XSS_CET		(XFEATURE_CET_USER | XFEATURE_CET_KERNEL)
#define NONCANONICAL	0x0000800000000000ULL

const uint32_t cet_msrs[CET_NR_MSRS] = {
	MSR_IA32_U_CET, MSR_IA32_S_CET, MSR_IA32_PL0_SSP, MSR_IA32_PL1_SSP,
	MSR_IA32_PL2_SSP, MSR_IA32_PL3_SSP, MSR_IA32_INT_SSP_TAB,
};

const char *cet_msr_name(uint32_t index)
{
	switch (index) {
	case MSR_IA32_U_CET:		return "U_CET";
	case MSR_IA32_S_CET:		return "S_CET";
	case MSR_IA32_PL0_SSP:		return "PL0_SSP";
	case MSR_IA32_PL1_SSP:		return "PL1_SSP";
	case MSR_IA32_PL2_SSP:		return "PL2_SSP";
	case MSR_IA32_PL3_SSP:		return "PL3_SSP";
	case MSR_IA32_INT_SSP_TAB:	return "INT_SSP_TAB";
	}
	return "?";
}

static bool is_ssp_msr(uint32_t index)
{
	return index >= MSR_IA32_PL0_SSP && index <= MSR_IA32_INT_SSP_TAB;
}

int cet_support_get(const char *kvm_path, struct cet_support *cs)
{
	struct kvm_cpuid2 *c;
	const struct kvm_cpuid_entry2 *e;
	int fd = kvm_open(kvm_path), r;

	memset(cs, 0, sizeof(*cs));
	if (fd < 0)
		return fd;
	r = kvm_get_supported_cpuid(fd, &c);
	close(fd);
	if (r)
		return r;
	cs->shstk = cpuid_has(c, X86_FEAT_SHSTK);
	cs->ibt = cpuid_has(c, X86_FEAT_IBT);
	e = cpuid_find_const(c, 0xd, 1);
	if (e)
		cs->xss = e->ecx | (uint64_t)e->edx << 32;
	free(c);
	return 0;
}

int cet_vm_create(const struct suite_env *env, enum cet_cpuid mode, bool irqchip,
		  struct vm **out, char *err, size_t len)
{
	struct vm_opts o = { .kvm_path = env->kvm_path, .stop = env->stop, .quiet = true,
			     .irqchip = irqchip };
	struct kvm_cpuid2 *c;
	int fd = kvm_open(env->kvm_path), r;

	if (fd < 0) {
		snprintf(err, len, "opening KVM: %s", strerror(-fd));
		return fd;
	}
	r = kvm_get_supported_cpuid(fd, &c);
	close(fd);
	if (r) {
		snprintf(err, len, "KVM_GET_SUPPORTED_CPUID: %s", strerror(-r));
		return r;
	}
	if (mode == CET_CPUID_CLEARED) {
		struct kvm_cpuid_entry2 *e = cpuid_find(c, 0xd, 1);

		cpuid_set(c, X86_FEAT_SHSTK, false);
		cpuid_set(c, X86_FEAT_IBT, false);
		if (e)
			e->ecx &= ~(uint32_t)XSS_CET;
	}
	o.cpuid = c;
	r = vm_create(out, &o, err, len);
	free(c);
	return r;
}

uint64_t cet_vm_shadow_stack(struct vm *vm)
{
	uint64_t page = vm_alloc_page(vm), tok;
	uint64_t *pte, *slot;

	if (!page)
		return 0;
	pte = vm_pte(vm, page);
	tok = page + GUEST_PAGE_SIZE - 8;
	slot = vm_gva(vm, tok, 8);
	if (!pte || !slot)
		return 0;
	*pte = page | PTE_P | PTE_A | PTE_D;	/* read-only + dirty: shadow stack */
	*slot = tok;				/* supervisor token, not busy */
	vm_global_set(vm, cet_ss_token, tok);
	return tok;
}

/* Whole-word flag in the first "flags" line of /proc/cpuinfo. */
static bool cpuinfo_flag(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		char *tok, *save = NULL;

		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \t\n", &save);
		     tok; tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, flag))
				found = true;
		break;
	}
	free(line);
	fclose(f);
	return found;
}

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

static void check_cpuid_policy(struct check_report *rep, const struct cet_support *cs)
{
	unsigned int a = 0, b = 0, c = 0, d = 0;
	bool cpu_shstk, cpu_ibt, fl_shstk, fl_ibt;

	__cpuid_count(7, 0, a, b, c, d);
	cpu_shstk = (c >> 7) & 1;
	cpu_ibt = (d >> 20) & 1;
	fl_shstk = cpuinfo_flag("user_shstk") || cpuinfo_flag("shstk");
	fl_ibt = cpuinfo_flag("ibt");
	check_add(rep, SUITE, "cpuid_host_cpu",
		  (cs->shstk && !(cpu_shstk && fl_shstk)) || (cs->ibt && !(cpu_ibt && fl_ibt)) ?
		  CHECK_FAIL : CHECK_PASS,
		  "KVM_GET_SUPPORTED_CPUID shstk=%s ibt=%s; host CPUID shstk=%s ibt=%s; "
		  "/proc/cpuinfo user_shstk=%s ibt=%s",
		  yesno(cs->shstk), yesno(cs->ibt), yesno(cpu_shstk), yesno(cpu_ibt), yesno(fl_shstk), yesno(fl_ibt));
	check_add(rep, SUITE, "cpuid_xss_bits",
		  (cs->shstk || cs->ibt) == ((cs->xss & XSS_CET) == XSS_CET) &&
		  ((cs->xss & XSS_CET) == 0 || (cs->xss & XSS_CET) == XSS_CET) ?
		  CHECK_PASS : CHECK_FAIL,
		  "shstk=%s ibt=%s, supported XSS %#llx (CET_USER bit 11 %s, CET_KERNEL bit 12 %s): "
		  "both bits expected iff SHSTK or IBT",
		  yesno(cs->shstk), yesno(cs->ibt), (unsigned long long)cs->xss,
		  yesno(cs->xss & XFEATURE_CET_USER), yesno(cs->xss & XFEATURE_CET_KERNEL));
}

static void check_msr_list(struct check_report *rep, const char *kvm_path,
			   const struct cet_support *cs)
{
	struct kvm_msr_list *l;
	char bad[256] = "", seen[256] = "";
	size_t nb = 0, ns = 0;
	int fd = kvm_open(kvm_path), r;

	r = fd < 0 ? fd : kvm_get_msr_index_list(fd, &l);
	if (fd >= 0)
		close(fd);
	if (r) {
		check_add(rep, SUITE, "msr_index_list", CHECK_FAIL,
			  "KVM_GET_MSR_INDEX_LIST: %s", strerror(-r));
		return;
	}
	for (int i = 0; i < CET_NR_MSRS; i++) {
		uint32_t m = cet_msrs[i];
		bool want = is_ssp_msr(m) ? cs->shstk : (cs->shstk || cs->ibt);
		bool has = kvm_msr_list_has(l, m);

		if (has)
			ns += snprintf(seen + ns, sizeof(seen) - ns, "%s%s", ns ? "," : "",
				       cet_msr_name(m));
		if (has != want)
			nb += snprintf(bad + nb, sizeof(bad) - nb, "%s%s %s", nb ? "; " : "",
				       cet_msr_name(m), has ? "listed without support" :
				       "missing although supported");
	}
	if (nb)
		check_add(rep, SUITE, "msr_index_list", CHECK_FAIL,
			  "shstk=%s ibt=%s: %s", yesno(cs->shstk), yesno(cs->ibt), bad);
	else
		check_add(rep, SUITE, "msr_index_list", CHECK_PASS,
			  "shstk=%s ibt=%s; CET MSRs in KVM_GET_MSR_INDEX_LIST: %s",
			  yesno(cs->shstk), yesno(cs->ibt), ns ? seen : "none");
	free(l);
}

/* A valid, non-zero value for a CET MSR: SHSTK/IBT enables or an aligned SSP. */
static uint64_t cet_valid_value(uint32_t m, const struct cet_support *cs, int variant)
{
	if (!is_ssp_msr(m))
		return variant ? (cs->ibt ? CET_ENDBR_EN | CET_NO_TRACK_EN : CET_SHSTK_EN | CET_WRSS_EN)
			       : (cs->shstk ? CET_SHSTK_EN : CET_ENDBR_EN);
	return (variant ? 0xffff888000002000ULL : 0x00007ffff0001000ULL) + 0x10 * (m - MSR_IA32_PL0_SSP);
}

/* Host KVM_SET_MSRS/GET_MSRS of each CET MSR; counts what was accepted. */
static void msr_access_refused(struct vcpu *v, const struct cet_support *cs, char *acc,
			       size_t len, size_t *n, bool zero_write_ok)
{
	for (int i = 0; i < CET_NR_MSRS; i++) {
		uint32_t m = cet_msrs[i];
		uint64_t val = 0;

		if (!kvm_set_msr(v->fd, m, cet_valid_value(m, cs, 0) | (is_ssp_msr(m) ? 0 : CET_SHSTK_EN)))
			*n += snprintf(acc + *n, len - *n, "%sset %s", *n ? ", " : "", cet_msr_name(m));
		if (!zero_write_ok && !kvm_set_msr(v->fd, m, 0))
			*n += snprintf(acc + *n, len - *n, "%sset %s=0", *n ? ", " : "", cet_msr_name(m));
		if (!kvm_get_msr(v->fd, m, &val) && (!zero_write_ok || val))
			*n += snprintf(acc + *n, len - *n, "%sget %s=%#llx", *n ? ", " : "",
				       cet_msr_name(m), (unsigned long long)val);
		if (*n >= len)
			*n = len - 1;
	}
}

static void check_msrs_refused(struct check_report *rep, const struct suite_env *env,
			       const struct cet_support *cs)
{
	bool kvm_cet = cs->shstk || cs->ibt;
	const char *name = kvm_cet ? "msr_refused_cleared_cpuid" : "msr_refused_no_cet";
	char acc[384] = "", err[256];
	struct vm *vm;
	size_t n = 0;

	if (cet_vm_create(env, CET_CPUID_CLEARED, false, &vm, err, sizeof(err))) {
		check_add(rep, SUITE, name, CHECK_FAIL, "vm_create: %s", err);
		return;
	}
	/*
	 * Without CET in KVM every access must fail. With CET in KVM but not in
	 * the guest CPUID, KVM lets the host write 0 and read 0 (reset and
	 * migration of advertised MSRs); non-zero values must still be refused.
	 */
	msr_access_refused(&vm->vcpus[0], cs, acc, sizeof(acc), &n, kvm_cet);
	if (n)
		check_add(rep, SUITE, name, CHECK_FAIL,
			  "guest CPUID without SHSTK/IBT, yet KVM accepted: %s", acc);
	else
		check_add(rep, SUITE, name, CHECK_PASS,
			  kvm_cet ? "guest CPUID without SHSTK/IBT: KVM_SET_MSRS of non-zero values "
				    "refused for all 7 CET MSRs, reads refused or 0" :
				    "KVM_SET_MSRS (0 and non-zero) and KVM_GET_MSRS refused for all 7 "
				    "CET MSRs (U_CET, S_CET, PL0-3_SSP, INT_SSP_TAB)");
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
		has |= l->reg[i] == KVM_REG_GUEST_SSP;
	free(l);
	return has;
}

static void check_reg_list_absent(struct check_report *rep, const struct suite_env *env)
{
	uint64_t n = 0, ssp = 0x7ffff000, got = 0;
	char err[256], one[160];
	struct vm *vm;
	int r, s, g;

	if (cet_vm_create(env, CET_CPUID_CLEARED, false, &vm, err, sizeof(err))) {
		check_add(rep, SUITE, "reg_list_no_guest_ssp", CHECK_FAIL, "vm_create: %s", err);
		return;
	}
	r = reg_list_has_ssp(&vm->vcpus[0], &n);
	s = kvm_set_one_reg(vm->vcpus[0].fd, KVM_REG_GUEST_SSP, &ssp);
	g = kvm_get_one_reg(vm->vcpus[0].fd, KVM_REG_GUEST_SSP, &got);
	snprintf(one, sizeof(one), "KVM_SET_ONE_REG(GUEST_SSP=%#llx) %s, KVM_GET_ONE_REG %s",
		 (unsigned long long)ssp, s ? strerror(-s) : "accepted",
		 g ? strerror(-g) : "accepted");
	if (r == 1 || !s)
		check_add(rep, SUITE, "reg_list_no_guest_ssp", CHECK_FAIL,
			  "guest CPUID without SHSTK: GUEST_SSP %s in KVM_GET_REG_LIST; %s",
			  r == 1 ? "listed" : "not listed", one);
	else if (r < 0)
		check_add(rep, SUITE, "reg_list_no_guest_ssp", CHECK_PASS,
			  "KVM_GET_REG_LIST failed (%s: x86 reg list predates Linux 6.18), so GUEST_SSP "
			  "is not listed; %s", strerror(-r), one);
	else
		check_add(rep, SUITE, "reg_list_no_guest_ssp", CHECK_PASS,
			  "guest CPUID without SHSTK: KVM_GET_REG_LIST lists %llu registers, no "
			  "GUEST_SSP; %s", (unsigned long long)n, one);
	vm_destroy(vm);
}

static void check_sregs_cr4(struct check_report *rep, const struct suite_env *env)
{
	struct kvm_sregs sr, after;
	struct vm *vm;
	char err[256];
	int r, g;

	if (cet_vm_create(env, CET_CPUID_CLEARED, false, &vm, err, sizeof(err))) {
		check_add(rep, SUITE, "sregs_cr4_cet_refused", CHECK_FAIL, "vm_create: %s", err);
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
	if (r == -EINVAL && !g && !(after.cr4 & X86_CR4_CET))
		check_add(rep, SUITE, "sregs_cr4_cet_refused", CHECK_PASS,
			  "guest CPUID without SHSTK/IBT: KVM_SET_SREGS with CR4 %#llx (CET, CR0.WP "
			  "set) refused with EINVAL; CR4 stays %#llx",
			  (unsigned long long)sr.cr4, (unsigned long long)after.cr4);
	else
		check_add(rep, SUITE, "sregs_cr4_cet_refused", CHECK_FAIL,
			  "guest CPUID without SHSTK/IBT: KVM_SET_SREGS with CR4 %#llx returned %s; "
			  "CR4 now %#llx", (unsigned long long)sr.cr4,
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
		*n += snprintf(bad + *n, len - *n, "%s%s via %s %#llx: set %s, GET_MSRS %#llx, ONE_REG %#llx",
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
			       id == KVM_REG_GUEST_SSP ? "GUEST_SSP" : cet_msr_name(m), what,
			       (unsigned long long)val);
	if (*n >= len)
		*n = len - 1;
}

static void check_roundtrips(struct check_report *rep, const struct suite_env *env,
			     const struct cet_support *cs)
{
	const char *why = no_cet_reason(cs, false);
	char bad[448] = "", err[256];
	struct vcpu *v;
	struct vm *vm;
	uint64_t ssp, got = 0, nregs = 0;
	size_t n = 0;
	int r;

	if (why) {
		check_add(rep, SUITE, "msr_roundtrip", CHECK_SKIP, "%s", why);
		check_add(rep, SUITE, "msr_invalid_refused", CHECK_SKIP, "%s", why);
		check_add(rep, SUITE, "reg_list_guest_ssp", CHECK_SKIP, "%s",
			  no_cet_reason(cs, true));
		return;
	}
	if (cet_vm_create(env, CET_CPUID_SUPPORTED, false, &vm, err, sizeof(err))) {
		check_add(rep, SUITE, "msr_roundtrip", CHECK_FAIL, "vm_create: %s", err);
		return;
	}
	v = &vm->vcpus[0];
	for (int i = 0; i < CET_NR_MSRS; i++) {
		uint32_t m = cet_msrs[i];

		if (is_ssp_msr(m) && !cs->shstk)
			continue;
		roundtrip_one(v, m, cet_valid_value(m, cs, 0), false, bad, sizeof(bad), &n);
		roundtrip_one(v, m, cet_valid_value(m, cs, 1), true, bad, sizeof(bad), &n);
		roundtrip_one(v, m, 0, false, bad, sizeof(bad), &n);
	}
	if (cs->shstk) {
		ssp = 0x00007ffff0003ff8ULL;
		r = kvm_set_one_reg(v->fd, KVM_REG_GUEST_SSP, &ssp);
		if (r || kvm_get_one_reg(v->fd, KVM_REG_GUEST_SSP, &got) || got != ssp)
			n += snprintf(bad + n, sizeof(bad) - n, "%sGUEST_SSP %#llx: set %s, read %#llx",
				      n ? "; " : "", (unsigned long long)ssp,
				      r ? strerror(-r) : "ok", (unsigned long long)got);
	}
	check_add(rep, SUITE, "msr_roundtrip", n ? CHECK_FAIL : CHECK_PASS,
		  "%s", n ? bad : cs->shstk ?
		  "U_CET, S_CET, PL0-3_SSP, INT_SSP_TAB round-trip through KVM_SET/GET_MSRS and "
		  "ONE_REG (values and 0), GUEST_SSP through ONE_REG" :
		  "U_CET, S_CET round-trip through KVM_SET/GET_MSRS and ONE_REG (IBT only)");

	n = 0;
	bad[0] = 0;
	refused_one(v, 0, MSR_IA32_U_CET, CET_ENDBR_EN | (1ULL << 6), "with reserved bit 6", bad, sizeof(bad), &n);
	refused_one(v, 0, MSR_IA32_S_CET, 1ULL << 9, "with reserved bit 9", bad, sizeof(bad), &n);
	if (cs->shstk) {
		for (int i = 2; i < CET_NR_MSRS; i++) {
			refused_one(v, 0, cet_msrs[i], NONCANONICAL, "non-canonical", bad, sizeof(bad), &n);
			if (cet_msrs[i] != MSR_IA32_INT_SSP_TAB)
				refused_one(v, 0, cet_msrs[i], 0x7ffff0001001ULL, "misaligned", bad, sizeof(bad), &n);
		}
		refused_one(v, KVM_REG_GUEST_SSP, 0, NONCANONICAL, "non-canonical", bad, sizeof(bad), &n);
		refused_one(v, KVM_REG_GUEST_SSP, 0, 0x7ffff0001002ULL, "misaligned", bad, sizeof(bad), &n);
	}
	check_add(rep, SUITE, "msr_invalid_refused", n ? CHECK_FAIL : CHECK_PASS, "%s",
		  n ? bad : cs->shstk ? "reserved *_CET bits, non-canonical SSPs and misaligned "
		  "PL0-3_SSP/GUEST_SSP all refused" : "reserved *_CET bits refused");

	if (!cs->shstk) {
		check_add(rep, SUITE, "reg_list_guest_ssp", CHECK_SKIP, "%s", no_cet_reason(cs, true));
	} else {
		r = reg_list_has_ssp(v, &nregs);
		check_add(rep, SUITE, "reg_list_guest_ssp", r == 1 ? CHECK_PASS : CHECK_FAIL,
			  r < 0 ? "guest CPUID with SHSTK: KVM_GET_REG_LIST failed: %s" :
			  r ? "guest CPUID with SHSTK: GUEST_SSP (%s) listed" :
			  "guest CPUID with SHSTK: GUEST_SSP missing from KVM_GET_REG_LIST (%s)",
			  r < 0 ? strerror(-r) : "0x2030000300000000");
	}
	vm_destroy(vm);
}

void cet_checks(const struct suite_env *env, struct check_report *rep)
{
	struct cet_support cs;
	int r = cet_support_get(env->kvm_path, &cs);

	if (r) {
		check_add(rep, SUITE, "cpuid_host_cpu", CHECK_FAIL,
			  "KVM_GET_SUPPORTED_CPUID: %s", strerror(-r));
		return;
	}
	check_cpuid_policy(rep, &cs);
	check_msr_list(rep, env->kvm_path, &cs);
	check_msrs_refused(rep, env, &cs);
	check_reg_list_absent(rep, env);
	check_sregs_cr4(rep, env);
	check_roundtrips(rep, env, &cs);
	cet_guest_checks(env, &cs, rep);
}
