// SPDX-License-Identifier: GPL-2.0-only
/* hostinfo.c - collect, print and serialize the host record (`exitscope info`). */
#include <cpuid.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/array_size.h"
#include "guest/vm.h"
#include "host/hostinfo.h"
#include "host/text_wrap.h"
#include "kvm/msr.h"

uint64_t hostinfo_exec_loop(uint64_t arg);

#define EXEC_LOOP_ITERS	20000ULL
#define EXEC_BUDGET_MS	20000

static const struct { const char *name; long cap; } caps_of_interest[] = {
	{ "KVM_CAP_IRQCHIP", KVM_CAP_IRQCHIP },
	{ "KVM_CAP_SPLIT_IRQCHIP", KVM_CAP_SPLIT_IRQCHIP },
	{ "KVM_CAP_NR_VCPUS", KVM_CAP_NR_VCPUS },
	{ "KVM_CAP_MAX_VCPUS", KVM_CAP_MAX_VCPUS },
	{ "KVM_CAP_IMMEDIATE_EXIT", KVM_CAP_IMMEDIATE_EXIT },
	{ "KVM_CAP_BINARY_STATS_FD", KVM_CAP_BINARY_STATS_FD },
	{ "KVM_CAP_XSAVE", KVM_CAP_XSAVE },
	{ "KVM_CAP_XSAVE2", KVM_CAP_XSAVE2 },
	{ "KVM_CAP_XCRS", KVM_CAP_XCRS },
	{ "KVM_CAP_ONE_REG", KVM_CAP_ONE_REG },
	{ "KVM_CAP_GET_TSC_KHZ", KVM_CAP_GET_TSC_KHZ },
	{ "KVM_CAP_TSC_DEADLINE_TIMER", KVM_CAP_TSC_DEADLINE_TIMER },
	{ "KVM_CAP_X2APIC_API", KVM_CAP_X2APIC_API },
	{ "KVM_CAP_IOEVENTFD", KVM_CAP_IOEVENTFD },
	{ "KVM_CAP_IOEVENTFD_ANY_LENGTH", KVM_CAP_IOEVENTFD_ANY_LENGTH },
	{ "KVM_CAP_X86_USER_SPACE_MSR", KVM_CAP_X86_USER_SPACE_MSR },
	{ "KVM_CAP_X86_MSR_FILTER", KVM_CAP_X86_MSR_FILTER },
	{ "KVM_CAP_GET_MSR_FEATURES", KVM_CAP_GET_MSR_FEATURES },
	{ "KVM_CAP_VCPU_EVENTS", KVM_CAP_VCPU_EVENTS },
	{ "KVM_CAP_DEBUGREGS", KVM_CAP_DEBUGREGS },
	{ "KVM_CAP_SYNC_REGS", KVM_CAP_SYNC_REGS },
	{ "KVM_CAP_X86_NOTIFY_VMEXIT", KVM_CAP_X86_NOTIFY_VMEXIT },
	{ "KVM_CAP_X86_GUEST_MODE", KVM_CAP_X86_GUEST_MODE },
	{ "KVM_CAP_X86_APIC_BUS_CYCLES_NS", KVM_CAP_X86_APIC_BUS_CYCLES_NS },
	{ "KVM_CAP_PRE_FAULT_MEMORY", KVM_CAP_PRE_FAULT_MEMORY },
};

/* Parameters printed in the text report (JSON carries all of them). */
static const char *const notable_params[] = {
	"ept", "npt", "vpid", "unrestricted_guest", "enable_apicv", "avic",
	"nested", "pml", "enable_shadow_vmcs", "flexpriority", "vnmi",
	"pvm_native", "force", "enable_pmu", "tdp_mmu",
};

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static int param_cmp(const void *a, const void *b)
{
	return strcmp(((const struct hostinfo_param *)a)->name,
		      ((const struct hostinfo_param *)b)->name);
}

/*
 * Which module backs /dev/kvm. kvm_intel and kvm_amd may both be present
 * (built into one kernel): the CPU's VMX or SVM flag decides. kvm_pvm
 * serves CPUs (or VMs) without either.
 */
static void collect_backend(struct hostinfo *hi)
{
	unsigned int a, b, c, d;
	bool vmx, svm, intel, amd, pvm;
	char dir[128];
	DIR *dd;
	struct dirent *de;

	__cpuid(1, a, b, c, d);
	vmx = c & (1u << 5);
	__cpuid(0x80000000, a, b, c, d);
	svm = false;
	if (a >= 0x80000001) {
		__cpuid(0x80000001, a, b, c, d);
		svm = c & (1u << 2);
	}
	intel = !access("/sys/module/kvm_intel", F_OK);
	amd = !access("/sys/module/kvm_amd", F_OK);
	pvm = !access("/sys/module/kvm_pvm", F_OK);
	if (intel && vmx)
		strcpy(hi->backend, "kvm_intel");
	else if (amd && svm)
		strcpy(hi->backend, "kvm_amd");
	else if (pvm)
		strcpy(hi->backend, "kvm_pvm");
	else if (intel != amd)
		strcpy(hi->backend, intel ? "kvm_intel" : "kvm_amd");
	else
		strcpy(hi->backend, access("/sys/module/kvm", F_OK) ? "none" : "other");
	if (!strcmp(hi->backend, "none") || !strcmp(hi->backend, "other"))
		return;
	snprintf(dir, sizeof(dir), "/sys/module/%s/parameters", hi->backend);
	dd = opendir(dir);
	while (dd && (de = readdir(dd)) && hi->nr_params < HOSTINFO_MAX_PARAMS) {
		struct hostinfo_param *p = &hi->params[hi->nr_params];
		char path[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		read_line(path, p->value, sizeof(p->value));
		snprintf(p->name, sizeof(p->name), "%s", de->d_name);
		hi->nr_params++;
	}
	if (dd)
		closedir(dd);
	qsort(hi->params, hi->nr_params, sizeof(hi->params[0]), param_cmp);
}

static void collect_cpu(struct hostinfo *hi)
{
	unsigned int a, b, c, d, fam, model;
	uint32_t brand[12];

	__cpuid(0, a, b, c, d);
	memcpy(hi->vendor, &b, 4);
	memcpy(hi->vendor + 4, &d, 4);
	memcpy(hi->vendor + 8, &c, 4);
	hi->vendor[12] = 0;
	__cpuid(1, a, b, c, d);
	fam = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	hi->family = fam;
	hi->model = model;
	hi->stepping = a & 0xf;
	__cpuid(0x80000000, a, b, c, d);
	if (a >= 0x80000004) {
		for (unsigned int i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, brand[4 * i], brand[4 * i + 1],
				brand[4 * i + 2], brand[4 * i + 3]);
		memcpy(hi->cpu_name, brand, 48);
		hi->cpu_name[48] = 0;
		/* trim */
		char *s = hi->cpu_name;

		while (*s == ' ')
			s++;
		memmove(hi->cpu_name, s, strlen(s) + 1);
		for (size_t n = strlen(hi->cpu_name); n && hi->cpu_name[n - 1] == ' '; n--)
			hi->cpu_name[n - 1] = 0;
	}
}

static void collect_kvm(struct hostinfo *hi, int kvm_fd)
{
	struct kvm_cpuid2 *cpuid = NULL;
	struct kvm_msr_list *msrs;

	hi->api_version = kvm_api_version(kvm_fd);
	for (size_t i = 0; i < ARRAY_SIZE(caps_of_interest) &&
			   hi->nr_caps < HOSTINFO_MAX_CAPS; i++) {
		hi->caps[hi->nr_caps].name = caps_of_interest[i].name;
		hi->caps[hi->nr_caps].value = kvm_check_cap(kvm_fd, caps_of_interest[i].cap);
		hi->nr_caps++;
	}
	if (!kvm_get_supported_cpuid(kvm_fd, &cpuid) && cpuid->nent <= HOSTINFO_MAX_CPUID) {
		const struct kvm_cpuid_entry2 *e;

		hi->cpuid_ok = true;
		/*
		 * KVM emulates the TSC-deadline timer in its LAPIC but never lists
		 * it in KVM_GET_SUPPORTED_CPUID (its bit is "reserved" in
		 * kvm_set_cpu_caps); it says so with KVM_CAP_TSC_DEADLINE_TIMER,
		 * and a VMM (QEMU) sets CPUID.1:ECX.TSC_DEADLINE from that.
		 */
		if (kvm_check_cap(kvm_fd, KVM_CAP_TSC_DEADLINE_TIMER) > 0)
			cpuid_set(cpuid, X86_FEAT_TSC_DEADLINE, true);
		hi->supported_cpuid.head.nent = cpuid->nent;
		memcpy(hi->supported_cpuid.entries, cpuid->entries, cpuid->nent * sizeof(cpuid->entries[0]));
		hi->feat_xsave = cpuid_has(cpuid, X86_FEAT_XSAVE);
		hi->feat_xsavec = cpuid_has(cpuid, X86_FEAT_XSAVEC);
		hi->feat_xsaves = cpuid_has(cpuid, X86_FEAT_XSAVES);
		hi->feat_osxsave = cpuid_has(cpuid, X86_FEAT_OSXSAVE);
		hi->feat_pku = cpuid_has(cpuid, X86_FEAT_PKU);
		hi->feat_shstk = cpuid_has(cpuid, X86_FEAT_SHSTK);
		hi->feat_ibt = cpuid_has(cpuid, X86_FEAT_IBT);
		hi->feat_x2apic = cpuid_has(cpuid, X86_FEAT_X2APIC);
		hi->feat_tsc_deadline = cpuid_has(cpuid, X86_FEAT_TSC_DEADLINE);
		hi->feat_hypervisor = cpuid_has(cpuid, X86_FEAT_HYPERVISOR);
		e = cpuid_find_const(cpuid, 0xd, 0);
		if (e)
			hi->xcr0_supported = e->eax | (uint64_t)e->edx << 32;
		e = cpuid_find_const(cpuid, 0xd, 1);
		if (e)
			hi->xss_supported = e->ecx | (uint64_t)e->edx << 32;
	}
	free(cpuid);
	if (!kvm_get_msr_index_list(kvm_fd, &msrs)) {
		hi->msr_list_ok = true;
		hi->msr_xss = kvm_msr_list_has(msrs, MSR_IA32_XSS);
		for (size_t i = 0; i < CET_NR_MSRS; i++)
			hi->msr_cet |= kvm_msr_list_has(msrs, cet_msrs[i].index);
		free(msrs);
	}
}

int hostinfo_exec_mode(struct hostinfo *hi, const char *kvm_path, struct err *err)
{
	struct vm_opts opts = { .kvm_path = kvm_path, .quiet = true };
	struct guest_result res;
	struct vm *vm;
	struct vcpu *v;
	uint64_t e0 = 0, e1 = 0, x0 = 0, x1 = 0;
	int r;

	hi->exec_mode = EXEC_UNKNOWN;
	hi->exec_loop_insns = 2 * EXEC_LOOP_ITERS + 1;
	r = vm_create(&vm, &opts, err);
	if (r) {
		snprintf(hi->exec_detail, sizeof(hi->exec_detail), "no test VM: %s",
			 err ? err->msg : strerror(-r));
		return r;
	}
	v = &vm->vcpus[0];
	hi->tsc_khz = kvm_get_tsc_khz(v->fd);
	if (hi->tsc_khz < 0)
		hi->tsc_khz = 0;
	if (!v->has_stats || !stats_find(&v->stats, "insn_emulation")) {
		snprintf(hi->exec_detail, sizeof(hi->exec_detail),
			 "the vCPU stats have no insn_emulation counter");
		goto out;
	}
	if (vcpu_call_run(v, hostinfo_exec_loop, EXEC_LOOP_ITERS, EXEC_BUDGET_MS, &res) != GUEST_SYNC)
		goto guest_failed;
	stats_read(&v->stats, "insn_emulation", &e0);
	stats_read(&v->stats, "exits", &x0);
	if (vcpu_run(v, EXEC_BUDGET_MS, &res) != GUEST_SYNC)
		goto guest_failed;
	stats_read(&v->stats, "insn_emulation", &e1);
	stats_read(&v->stats, "exits", &x1);
	hi->exec_insn_emulation = e1 - e0;
	hi->exec_exits = x1 - x0;
	/* Emulated: (nearly) every one of the loop's instructions was emulated. */
	if (hi->exec_insn_emulation >= hi->exec_loop_insns / 2) {
		hi->exec_mode = EXEC_EMULATED;
		snprintf(hi->exec_detail, sizeof(hi->exec_detail),
			 "a %llu-instruction guest loop caused %llu instruction emulations",
			 (unsigned long long)hi->exec_loop_insns,
			 (unsigned long long)hi->exec_insn_emulation);
	} else {
		hi->exec_mode = EXEC_NATIVE;
		snprintf(hi->exec_detail, sizeof(hi->exec_detail),
			 "a %llu-instruction guest loop caused %llu instruction emulations and "
			 "%llu exits", (unsigned long long)hi->exec_loop_insns,
			 (unsigned long long)hi->exec_insn_emulation,
			 (unsigned long long)hi->exec_exits);
	}
	goto out;
guest_failed:
	snprintf(hi->exec_detail, sizeof(hi->exec_detail), "probe guest failed: %s", res.msg);
out:
	vm_destroy(vm);
	return 0;
}

/* name's value copied into buf: 0, 1 when unset or empty, -EINVAL when too long. */
static int lane_var(const char *name, char *buf, size_t len, struct err *err)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return 1;
	if (strlen(v) >= len)
		return err_set(err, -EINVAL, "%s: value longer than %zu characters", name, len - 1);
	snprintf(buf, len, "%s", v);
	return 0;
}

static int lane_enum(const char *name, const char *const *names, int n, int *out,
		     struct err *err)
{
	const char *v = getenv(name);

	for (int i = 0; v && i < n; i++) {
		if (!strcmp(v, names[i])) {
			*out = i;
			return 0;
		}
	}
	return err_set(err, -EINVAL, "%s: '%.40s' is not one of %s%s%s%s%s", name, v ? v : "",
		 names[0], n > 1 ? ", " : "", n > 1 ? names[1] : "", n > 2 ? ", " : "",
		 n > 2 ? names[2] : "");
}

/*
 * name's ':'-separated names into names[max][128], their count in *n: 0
 * (also when unset or empty), -EINVAL when too many or one is too long.
 */
static int lane_list(const char *name, char (*names)[128], int max, int *n,
		     struct err *err)
{
	char list[HOSTINFO_LANE_PATCHES * 128], *p, *save = NULL;
	int r = lane_var(name, list, sizeof(list), err);

	*n = 0;
	if (r)
		return r < 0 ? r : 0;
	for (p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		if (*n == max || strlen(p) >= sizeof(names[0]))
			return err_set(err, -EINVAL,
				 "%s: more than %d names or a name longer than %zu characters",
				 name, max, sizeof(names[0]) - 1);
		snprintf(names[(*n)++], sizeof(names[0]), "%s", p);
	}
	return 0;
}

int hostinfo_lane_env(struct hostinfo_lane *l, struct err *err)
{
	char buf[8];
	int idx, r;

	memset(l, 0, sizeof(*l));
	if (!getenv("EXITSCOPE_LANE"))
		return 0;
	r = lane_enum("EXITSCOPE_LANE", host_lane_names, HOST_LANE_N, &idx, err);
	if (r)
		return r;
	l->name = idx;
	r = lane_enum("EXITSCOPE_LANE_KERNEL", host_lane_kernel_names, HOST_LANE_KERNEL_N, &idx,
		      err);
	if (r)
		return r;
	l->kernel_kind = idx;
	r = lane_var("EXITSCOPE_LANE_EMULATOR", l->emulator, sizeof(l->emulator), err);
	if (r > 0)
		return err_set(err, -EINVAL,
			       "EXITSCOPE_LANE_EMULATOR: not set (EXITSCOPE_LANE is)");
	if (r < 0)
		return r;
	r = lane_var("EXITSCOPE_LANE_KERNEL_CONFIG_SHA256", l->config_sha256,
		     sizeof(l->config_sha256), err);
	if (r < 0)
		return r;
	r = lane_var("EXITSCOPE_LANE_KERNEL_SOURCE", l->source, sizeof(l->source), err);
	if (r < 0)
		return r;
	r = lane_var("EXITSCOPE_LANE_KERNEL_SOURCE_SHA256", l->source_sha256,
		     sizeof(l->source_sha256), err);
	if (r < 0)
		return r;
	r = lane_var("EXITSCOPE_LANE_CYCLES", l->cycles, sizeof(l->cycles), err);
	if (r < 0)
		return r;
	r = lane_list("EXITSCOPE_LANE_KERNEL_PATCHES", l->patches, HOSTINFO_LANE_PATCHES,
		      &l->nr_patches, err);
	if (r < 0)
		return r;
	r = lane_list("EXITSCOPE_LANE_EMULATOR_PATCHES", l->emulator_patches,
		      HOSTINFO_LANE_EMULATOR_PATCHES, &l->nr_emulator_patches, err);
	if (r < 0)
		return r;
	r = lane_var("EXITSCOPE_LANE_PROFILE", buf, sizeof(buf), err);
	if (r < 0)
		return r;
	if (!r && strcmp(buf, "1") && strcmp(buf, "0"))
		return err_set(err, -EINVAL, "EXITSCOPE_LANE_PROFILE '%s': 1 or 0", buf);
	l->profile = !r && !strcmp(buf, "1");
	l->present = true;
	return 0;
}

int hostinfo_collect(struct hostinfo *hi, const char *kvm_path, struct err *err)
{
	struct utsname u;
	int kvm_fd;

	memset(hi, 0, sizeof(*hi));
	if (!uname(&u))
		snprintf(hi->kernel, sizeof(hi->kernel), "%s", u.release);
	collect_backend(hi);
	collect_cpu(hi);
	kvm_fd = kvm_open(kvm_path);
	if (kvm_fd < 0)
		return err_set(err, kvm_fd, "%s: %s", kvm_path ? kvm_path : KVM_DEFAULT_DEV,
			 strerror(-kvm_fd));
	collect_kvm(hi, kvm_fd);
	close(kvm_fd);
	return hostinfo_exec_mode(hi, kvm_path, err);
}

const struct kvm_cpuid2 *hostinfo_cpuid(const struct hostinfo *hi)
{
	return hi && hi->cpuid_ok ? &hi->supported_cpuid.head : NULL;
}

bool hostinfo_vendor_amd(const struct hostinfo *hi)
{
	return hi && (!strcmp(hi->vendor, "AuthenticAMD") || !strcmp(hi->vendor, "HygonGenuine"));
}

const char *hostinfo_param(const struct hostinfo *hi, const char *name)
{
	for (int i = 0; i < hi->nr_params; i++)
		if (!strcmp(hi->params[i].name, name))
			return hi->params[i].value;
	return NULL;
}

int hostinfo_cap(const struct hostinfo *hi, const char *name)
{
	for (int i = 0; i < hi->nr_caps; i++)
		if (!strcmp(hi->caps[i].name, name))
			return hi->caps[i].value;
	return -ENOENT;
}

const char *hostinfo_emulation_warning(const struct hostinfo *hi)
{
	if (hi->exec_mode != EXEC_EMULATED)
		return NULL;
	return "guest code is emulated by the host KVM (every guest instruction is emulated): "
	       "figures are emulation costs, not hardware VM-exit costs; for those, run where KVM "
	       "is kvm_intel or kvm_amd (bare metal, or a VM with nested virtualization)";
}

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

/* The lane lines of hostinfo_print, each wrapped under its label. */
static void lane_print(FILE *f, const struct hostinfo *hi)
{
	char buf[4096];
	size_t n;

	n = (size_t)snprintf(buf, sizeof(buf), "%s in %s", host_lane_names[hi->lane.name],
			     hi->lane.emulator);
	if (hi->lane.nr_emulator_patches && n < sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - n, " patches");
	for (int i = 0; i < hi->lane.nr_emulator_patches && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %s", hi->lane.emulator_patches[i]);
	text_wrap_print(f, "lane            ", 16, buf);
	n = (size_t)snprintf(buf, sizeof(buf), "%s config sha256 %s patches",
			     host_lane_kernel_names[hi->lane.kernel_kind],
			     hi->lane.config_sha256[0] ? hi->lane.config_sha256 : "unknown");
	for (int i = 0; i < hi->lane.nr_patches && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, " %s", hi->lane.patches[i]);
	if (!hi->lane.nr_patches && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, " none");
	text_wrap_print(f, "lane kernel     ", 16, buf);
	if (hi->lane.source[0]) {
		snprintf(buf, sizeof(buf), "%s sha256 %s", hi->lane.source,
			 hi->lane.source_sha256[0] ? hi->lane.source_sha256 : "unknown");
		text_wrap_print(f, "lane source     ", 16, buf);
	}
	if (hi->lane.cycles[0])
		text_wrap_print(f, "lane cycles     ", 16, hi->lane.cycles);
}

void hostinfo_print(FILE *f, const struct hostinfo *hi)
{
	const char *w = hostinfo_emulation_warning(hi);
	char caps[4096] = "";
	size_t n = 0;

	fprintf(f, "kernel          %s\n", hi->kernel);
	fprintf(f, "kvm backend     %s", hi->backend);
	for (size_t i = 0; i < ARRAY_SIZE(notable_params); i++) {
		const char *v = hostinfo_param(hi, notable_params[i]);

		if (v)
			fprintf(f, " %s=%s", notable_params[i], v);
	}
	fprintf(f, "\n");
	/* Decimal, as /proc/cpuinfo, report and compare give them. */
	fprintf(f, "cpu             %s family %u model %u stepping %u (%s)\n",
		hi->vendor, hi->family, hi->model, hi->stepping, hi->cpu_name);
	fprintf(f, "kvm api         %d\n", hi->api_version);
	for (int i = 0; i < hi->nr_caps && n < sizeof(caps); i++)
		n += snprintf(caps + n, sizeof(caps) - n, "%s%s=%d", i ? " " : "",
			      hi->caps[i].name + strlen("KVM_CAP_"), hi->caps[i].value);
	text_wrap_print(f, "capabilities    ", 16, caps);
	snprintf(caps, sizeof(caps),
		 "xsave=%s xsavec=%s xsaves=%s osxsave=%s pku=%s shstk=%s ibt=%s x2apic=%s "
		 "tsc_deadline=%s hypervisor=%s",
		yesno(hi->feat_xsave), yesno(hi->feat_xsavec), yesno(hi->feat_xsaves), yesno(hi->feat_osxsave),
		yesno(hi->feat_pku), yesno(hi->feat_shstk), yesno(hi->feat_ibt), yesno(hi->feat_x2apic),
		yesno(hi->feat_tsc_deadline), yesno(hi->feat_hypervisor));
	text_wrap_print(f, "guest cpuid     ", 16, caps);
	fprintf(f, "supported xcr0  %#llx\n", (unsigned long long)hi->xcr0_supported);
	fprintf(f, "supported xss   %#llx\n", (unsigned long long)hi->xss_supported);
	fprintf(f, "msr save list   IA32_XSS=%s CET=%s\n", yesno(hi->msr_xss), yesno(hi->msr_cet));
	fprintf(f, "tsc             %d kHz\n", hi->tsc_khz);
	snprintf(caps, sizeof(caps), "%s (%s)", exec_mode_name(hi->exec_mode), hi->exec_detail);
	text_wrap_print(f, "guest execution ", 16, caps);
	if (hi->lane.present)
		lane_print(f, hi);
	if (w)
		text_wrap_print(f, "warning: ", 9, w);
}
