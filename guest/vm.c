// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm.c - build a test VM: guest RAM holding a copy of this executable's
 * image at its own addresses, identity-mapped 4-level paging, GDT, IDT for
 * all vectors, one TSS and one GS block per vCPU, and vCPUs in 64-bit mode.
 * Guest RAM and each vCPU's kvm_run are mapped at a fresh random host
 * address per VM (vm_map_fresh).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "guest/guest.h"	/* guest_idt_stubs */
#include "guest/vm.h"

/* Linker-provided bounds of the loaded (non-PIE) image. */
extern const char __executable_start[], _end[];
/* Guest symbols (guest/entry.S). */
extern const char guest_start[];

#define PTE_P	(1ULL << 0)
#define PTE_W	(1ULL << 1)
#define PTE_PS	(1ULL << 7)
#define SZ_2M	0x200000ULL
#define SZ_1G	0x40000000ULL

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

/*
 * The image is copied word by word outside the sanitizers' view: under ASan
 * the host's globals carry poisoned redzones that an instrumented memcpy
 * would report, although the guest needs the bytes exactly as they are.
 */
__attribute__((no_sanitize_address, noinline))
static void image_copy(uint8_t *dst, const char *src, size_t len)
{
	volatile uint64_t *d = (volatile uint64_t *)dst;
	const volatile uint64_t *s = (const volatile uint64_t *)src;

	for (size_t i = 0; i < len / 8; i++)
		d[i] = s[i];
}

void *vm_gva(struct vm *vm, uint64_t gva, uint64_t len)
{
	if (gva >= vm->mem_size || len > vm->mem_size - gva)
		return NULL;
	return vm->mem + gva;
}

static uint64_t *mem64(struct vm *vm, uint64_t gpa)
{
	return (uint64_t *)(vm->mem + gpa);
}

static void build_page_tables(struct vm *vm)
{
	uint64_t *pml4 = mem64(vm, GUEST_PML4), *pdpt = mem64(vm, GUEST_PDPT);

	pml4[0] = GUEST_PDPT | PTE_P | PTE_W;
	for (int i = 0; i < 4; i++) {
		uint64_t *pd = mem64(vm, GUEST_PD + i * GUEST_PAGE_SIZE);

		pdpt[i] = (GUEST_PD + i * GUEST_PAGE_SIZE) | PTE_P | PTE_W;
		for (int j = 0; j < 512; j++)
			pd[j] = ((uint64_t)i * SZ_1G + (uint64_t)j * SZ_2M) | PTE_P | PTE_W | PTE_PS;
	}
	/* First 4 MiB in 4 KiB pages; page 0 stays unmapped. */
	mem64(vm, GUEST_PD)[0] = GUEST_PT_LOW | PTE_P | PTE_W;
	mem64(vm, GUEST_PD)[1] = GUEST_PT_POOL | PTE_P | PTE_W;
	for (int j = 1; j < 1024; j++)
		mem64(vm, GUEST_PT_LOW)[j] = ((uint64_t)j * GUEST_PAGE_SIZE) | PTE_P | PTE_W;
}

uint64_t *vm_pte(struct vm *vm, uint64_t gva)
{
	if (gva >= GUEST_POOL_END)
		return NULL;
	return &mem64(vm, GUEST_PT_LOW)[gva / GUEST_PAGE_SIZE];
}

uint64_t vm_alloc_page(struct vm *vm)
{
	uint64_t p = vm->pool_next;

	if (p >= GUEST_POOL_END)
		return 0;
	vm->pool_next += GUEST_PAGE_SIZE;
	memset(vm->mem + p, 0, GUEST_PAGE_SIZE);
	return p;
}

static void gdt_set_tss(uint64_t *gdt, int i, uint64_t base, uint32_t limit)
{
	uint64_t lo = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		      (0xbULL << 40) /* busy 64-bit TSS */ | (1ULL << 47) |
		      ((uint64_t)(limit >> 16) << 48) | (((base >> 24) & 0xff) << 56);

	gdt[GDT_TSS(i) / 8] = lo;
	gdt[GDT_TSS(i) / 8 + 1] = base >> 32;
}

static void build_descriptor_tables(struct vm *vm, int nr_vcpus)
{
	uint64_t *gdt = mem64(vm, GUEST_GDT), *idt = mem64(vm, GUEST_IDT);

	gdt[0] = 0;
	gdt[GDT_CODE64 / 8] = 0x00af9b000000ffffULL;
	gdt[GDT_DATA / 8] = 0x00cf93000000ffffULL;
	for (int i = 0; i < nr_vcpus; i++) {
		uint64_t tss = GUEST_TSS + i * GUEST_TSS_SIZE;
		uint64_t ist1 = GUEST_IST_STACKS + (i + 1) * GUEST_IST_SIZE;

		/* TSS64: rsp0 at 4, ist1 at 36, iomap base at 102. */
		memcpy(vm->mem + tss + 4, &ist1, 8);
		memcpy(vm->mem + tss + 36, &ist1, 8);
		*(uint16_t *)(vm->mem + tss + 102) = 0x68;
		gdt_set_tss(gdt, i, tss, 0x67);
	}
	for (int v = 0; v < 256; v++) {
		uint64_t h = guest_idt_stubs[v];
		/* NMI, #DF and #MC run on IST1 so a broken stack is still reported. */
		uint64_t ist = (v == NMI_VECTOR || v == DF_VECTOR || v == MC_VECTOR) ? 1 : 0;

		idt[2 * v] = (h & 0xffff) | ((uint64_t)GDT_CODE64 << 16) | (ist << 32) |
			     (0x8eULL << 40) | (((h >> 16) & 0xffff) << 48);
		idt[2 * v + 1] = h >> 32;
	}
}

static void seg(struct kvm_segment *s, uint16_t sel, uint8_t type, bool code)
{
	memset(s, 0, sizeof(*s));
	s->selector = sel;
	s->limit = 0xffffffff;
	s->type = type;
	s->present = 1;
	s->s = 1;
	s->g = 1;
	s->l = code;
	s->db = !code;
}

static int vcpu_setup_sregs(struct vcpu *v)
{
	struct kvm_sregs sr;
	int r = kvm_get_sregs(v->fd, &sr);

	if (r)
		return r;
	seg(&sr.cs, GDT_CODE64, 0xb, true);
	seg(&sr.ds, GDT_DATA, 0x3, false);
	sr.es = sr.fs = sr.gs = sr.ss = sr.ds;
	sr.gs.base = GUEST_PERCPU + v->id * GUEST_PERCPU_SIZE;
	memset(&sr.tr, 0, sizeof(sr.tr));
	sr.tr.base = GUEST_TSS + v->id * GUEST_TSS_SIZE;
	sr.tr.limit = 0x67;
	sr.tr.selector = GDT_TSS(v->id);
	sr.tr.type = 0xb;
	sr.tr.present = 1;
	memset(&sr.ldt, 0, sizeof(sr.ldt));
	sr.ldt.type = 2;
	sr.ldt.unusable = 1;
	sr.gdt.base = GUEST_GDT;
	sr.gdt.limit = GDT_TSS(GUEST_MAX_VCPUS) - 1;
	sr.idt.base = GUEST_IDT;
	sr.idt.limit = 256 * 16 - 1;
	sr.cr0 = GUEST_CR0;
	sr.cr3 = GUEST_PML4;
	sr.cr4 = GUEST_CR4;
	sr.efer = GUEST_EFER;
	return kvm_set_sregs(v->fd, &sr);
}

/* Give each vCPU its own APIC id in CPUID leaves 1 and 0xb. */
static int vcpu_set_cpuid(struct vcpu *v, const struct kvm_cpuid2 *base)
{
	struct kvm_cpuid2 *c = cpuid_dup(base);
	struct kvm_cpuid_entry2 *e;
	int r;

	if (!c)
		return -ENOMEM;
	e = cpuid_find(c, 1, 0);
	if (e)
		e->ebx = (e->ebx & 0x00ffffff) | ((uint32_t)v->id << 24);
	for (uint32_t i = 0; i < c->nent; i++)
		if (c->entries[i].function == 0xb || c->entries[i].function == 0x1f)
			c->entries[i].edx = v->id;
	r = kvm_set_cpuid(v->fd, c);
	free(c);
	return r;
}

/*
 * Where the host side of a VM's memory goes: a random address in
 * [VM_MAP_LO, VM_MAP_LO + VM_MAP_SPAN), far from the image, the heap, the
 * libraries and the stack (and from ASan's shadow and allocator), aligned
 * as asked.
 */
#define VM_MAP_LO	0x200000000000ULL	/* 32 TiB: above ASan's shadow */
#define VM_MAP_SPAN	0x200000000000ULL	/* 32 TiB: below the sanitizers' allocators */

static uint64_t map_random(void)
{
	struct timespec ts;
	uint64_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)ts.tv_sec ^ (uint64_t)getpid() << 32;
}

/*
 * mmap at a fresh random host address (align: a power of two), so that
 * every VM, and with a VM per round every round, draws its own host
 * placement of guest memory and kvm_run. Without a hint, an munmap'd region
 * of the same size comes straight back at the same address, so all VMs of
 * one process share the placement ASLR drew for it: a constant per run
 * that rounds cannot sample (docs/noise.md). The address is only a hint:
 * where it is taken the kernel's own choice stands. The guest does not see
 * it (guest physical addresses are offsets into the mapping).
 */
static void *vm_map_fresh(size_t len, uint64_t align, int prot, int flags, int fd)
{
	uint64_t slots = VM_MAP_SPAN / align;
	void *hint = (void *)(uintptr_t)(VM_MAP_LO + map_random() % slots * align);

	return mmap(hint, len, prot, flags, fd, 0);
}

static int vcpu_init(struct vm *vm, struct vcpu *v, int id, int mmap_size)
{
	int r, sfd;

	v->vm = vm;
	v->id = id;
	v->fd = -1;
	v->stats.fd = -1;
	v->stack_top = GUEST_STACKS + (id + 1) * GUEST_STACK_SIZE;
	r = kvm_create_vcpu(vm->fd, id);
	if (r < 0)
		return r;
	v->fd = r;
	v->run_size = mmap_size;
	v->run = vm_map_fresh(mmap_size, GUEST_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd);
	if (v->run == MAP_FAILED) {
		v->run = NULL;
		return -errno;
	}
	r = vcpu_set_cpuid(v, vm->cpuid);
	if (r)
		return r;
	r = vcpu_setup_sregs(v);
	if (r)
		return r;
	/*
	 * With an in-kernel LAPIC, application processors start in
	 * wait-for-SIPI; test vCPUs all start at their own entry point.
	 */
	if (vm->irqchip && id > 0) {
		struct kvm_mp_state mp = { .mp_state = KVM_MP_STATE_RUNNABLE };

		r = kvm_set_mp_state(v->fd, &mp);
		if (r)
			return r;
	}
	sfd = kvm_get_stats_fd(v->fd);
	if (sfd >= 0 && stats_open(&v->stats, sfd) == 0)
		v->has_stats = true;
	/* The GS block: self pointer and id. */
	{
		uint64_t p = GUEST_PERCPU + id * GUEST_PERCPU_SIZE;
		uint64_t *pc = mem64(vm, p);

		pc[0] = p;
		pc[1] = id;
	}
	return 0;
}

static int fail(struct err *err, int r, const char *what)
{
	return err_set(err, r, "%s: %s", what, strerror(-r));
}

int vm_create(struct vm **out, const struct vm_opts *o, struct err *err)
{
	static const struct vm_opts defaults;
	uint64_t img_start = (uint64_t)(uintptr_t)__executable_start;
	uint64_t img_end = (uint64_t)(uintptr_t)_end;
	struct vm *vm;
	int r, mmap_size, nr;

	if (!o)
		o = &defaults;
	nr = o->nr_vcpus ? o->nr_vcpus : 1;
	if (nr < 1 || nr > GUEST_MAX_VCPUS)
		return fail(err, -EINVAL, "vm_create: bad vCPU count");
	if (img_start < GUEST_IMAGE_MIN || img_end >= GUEST_MMIO_BASE)
		return fail(err, -ENOEXEC, "vm_create: executable not linked non-PIE at 0x400000");
	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return fail(err, -ENOMEM, "vm_create");
	vm->fd = -1;
	vm->stats.fd = -1;
	vm->stop = o->stop;
	vm->quiet = o->quiet;
	vm->irqchip = o->irqchip;
	vm->pool_next = GUEST_POOL_BASE;
	vm->kvm_fd = kvm_open(o->kvm_path);
	if (vm->kvm_fd < 0) {
		r = vm->kvm_fd;
		free(vm);
		return fail(err, r, o->kvm_path ? o->kvm_path : KVM_DEFAULT_DEV);
	}
	r = kvm_api_version(vm->kvm_fd);
	if (r != KVM_API_VERSION) {
		vm_destroy(vm);
		return fail(err, r < 0 ? r : -EPROTO, "KVM_GET_API_VERSION");
	}
	r = kvm_create_vm(vm->kvm_fd);
	if (r < 0)
		goto out_fail_create;
	vm->fd = r;
	if (o->irqchip) {
		r = kvm_create_irqchip(vm->fd);
		if (r) {
			vm_destroy(vm);
			return fail(err, r, "KVM_CREATE_IRQCHIP");
		}
	}
	vm->mem_size = round_up(img_end, SZ_2M) + (o->mem_extra ? round_up(o->mem_extra, SZ_2M) : 8 * SZ_2M);
	/* 2 MiB-aligned, as the kernel aligns large anonymous mappings itself. */
	vm->mem = vm_map_fresh(vm->mem_size, SZ_2M, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1);
	if (vm->mem == MAP_FAILED) {
		r = -errno;
		vm->mem = NULL;
		vm_destroy(vm);
		return fail(err, r, "mmap guest memory");
	}
	r = kvm_set_user_memory(vm->fd, 0, 0, vm->mem_size, vm->mem, 0);
	if (r) {
		vm_destroy(vm);
		return fail(err, r, "KVM_SET_USER_MEMORY_REGION");
	}
	image_copy(vm->mem + img_start, __executable_start, round_up(img_end - img_start, 8));
	build_page_tables(vm);
	build_descriptor_tables(vm, nr);
	if (o->cpuid)
		vm->cpuid = cpuid_dup(o->cpuid);
	else if (kvm_get_supported_cpuid(vm->kvm_fd, &vm->cpuid))
		vm->cpuid = NULL;
	if (!vm->cpuid) {
		vm_destroy(vm);
		return fail(err, -ENOMEM, "KVM_GET_SUPPORTED_CPUID");
	}
	r = kvm_get_stats_fd(vm->fd);
	if (r >= 0 && stats_open(&vm->stats, r) == 0)
		vm->has_stats = true;
	mmap_size = kvm_vcpu_mmap_size(vm->kvm_fd);
	if (mmap_size < 0) {
		r = mmap_size;
		vm_destroy(vm);
		return fail(err, r, "KVM_GET_VCPU_MMAP_SIZE");
	}
	for (int i = 0; i < nr; i++) {
		r = vcpu_init(vm, &vm->vcpus[i], i, mmap_size);
		vm->nr_vcpus = i + 1;
		if (r) {
			char what[64];

			snprintf(what, sizeof(what), "creating vCPU %d", i);
			vm_destroy(vm);
			return fail(err, r, what);
		}
	}
	*out = vm;
	return 0;

out_fail_create:
	vm_destroy(vm);
	return fail(err, r, "KVM_CREATE_VM");
}

void vm_destroy(struct vm *vm)
{
	if (!vm)
		return;
	for (int i = 0; i < vm->nr_vcpus; i++) {
		struct vcpu *v = &vm->vcpus[i];

		if (v->timer_armed_ok) {
			timer_delete(v->timer);
			timer_delete(v->cpu_timer);
		}
		if (v->has_stats)
			stats_close(&v->stats);
		if (v->run)
			munmap(v->run, v->run_size);
		if (v->fd >= 0)
			close(v->fd);
	}
	if (vm->has_stats)
		stats_close(&vm->stats);
	if (vm->fd >= 0)
		close(vm->fd);
	if (vm->mem)
		munmap(vm->mem, vm->mem_size);
	if (vm->kvm_fd >= 0)
		close(vm->kvm_fd);
	free(vm->cpuid);
	free(vm);
}

int vcpu_call(struct vcpu *v, guest_fn_t fn, uint64_t arg)
{
	struct kvm_regs regs = {
		.rip = (uint64_t)(uintptr_t)guest_start,
		.rsp = v->stack_top,
		.rdi = (uint64_t)(uintptr_t)fn,
		.rsi = arg,
		.rflags = 0x2,
	};

	return kvm_set_regs(v->fd, &regs);
}
