/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * layout.h - guest-physical (== guest-virtual) memory layout shared by the
 * host side that builds the VM and the guest code that runs in it.
 *
 * 0x00000000 - 0x00000fff  not present (NULL dereferences fault)
 * 0x00001000 - 0x0000ffff  page tables, GDT, IDT, TSSs, per-vCPU blocks
 * 0x00100000 - 0x001fffff  per-vCPU stacks and IST stacks
 * 0x00200000 - 0x003fffff  pages handed out by vm_alloc_page() (4 KiB PTEs)
 * 0x00400000 - _end        the exitscope image itself, at its own addresses
 * _end       - mem_size    free RAM
 * GUEST_MMIO_BASE          unbacked: every access is an MMIO exit
 */
#ifndef EXITSCOPE_GUEST_LAYOUT_H
#define EXITSCOPE_GUEST_LAYOUT_H

#define GUEST_PAGE_SIZE		0x1000ULL
#define GUEST_MAX_VCPUS		4

#define GUEST_PML4		0x1000ULL
#define GUEST_PDPT		0x2000ULL
#define GUEST_PD		0x3000ULL	/* 4 pages: 0 - 4 GiB in 2 MiB pages */
#define GUEST_PT_LOW		0x7000ULL	/* 0 - 2 MiB in 4 KiB pages */
#define GUEST_PT_POOL		0x8000ULL	/* 2 - 4 MiB in 4 KiB pages */
#define GUEST_GDT		0x9000ULL
#define GUEST_IDT		0xa000ULL
#define GUEST_TSS		0xb000ULL	/* 0x80 bytes per vCPU */
#define GUEST_TSS_SIZE		0x80ULL
#define GUEST_PERCPU		0xc000ULL	/* 0x100 bytes per vCPU, GS base */
#define GUEST_PERCPU_SIZE	0x100ULL

#define GUEST_STACKS		0x100000ULL
#define GUEST_STACK_SIZE	0x10000ULL
#define GUEST_IST_STACKS	0x180000ULL
#define GUEST_IST_SIZE		0x4000ULL

#define GUEST_POOL_BASE		0x200000ULL
#define GUEST_POOL_END		0x400000ULL
#define GUEST_IMAGE_MIN		0x400000ULL

#define GUEST_MMIO_BASE		0xc0000000ULL

#define GDT_CODE64		0x08
#define GDT_DATA		0x10
#define GDT_TSS(i)		(0x18 + 16 * (i))

/* I/O port of the guest->host call channel (struct ucall, see ucall.h). */
#define UCALL_PORT		0xe7e4

#endif
