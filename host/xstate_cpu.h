/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xstate_cpu.h - the exitscope process's own extended state, read and set
 * with host-side instructions: XCR0 (xgetbv), PKRU (rdpkru), and a KVM_RUN
 * issued from inline asm with the vector registers holding a pattern, so
 * nothing in the process can touch them between the load and the check.
 */
#ifndef EXITSCOPE_HOST_XSTATE_CPU_H
#define EXITSCOPE_HOST_XSTATE_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum xs_vec_kind { XS_VEC_XMM, XS_VEC_YMM, XS_VEC_ZMM };

struct xs_host_cpu {
	bool osxsave;		/* xgetbv usable */
	bool ospke;		/* rdpkru usable */
	uint64_t xcr0;
	enum xs_vec_kind vec;	/* widest vector registers the process may use */
};

#define XS_VEC_MAX_BYTES	(32 * 64)	/* zmm0-31 */

void xs_host_cpu(struct xs_host_cpu *c);
uint32_t xs_host_rdpkru(void);		/* only when ospke */
size_t xs_vec_bytes(enum xs_vec_kind k);
const char *xs_vec_name(enum xs_vec_kind k);	/* "xmm0-15", "ymm0-15", "zmm0-31" */
/*
 * Load in[] into the vector registers, KVM_RUN on vcpu_fd, store the
 * registers to out[] right after the syscall returns. Returns what the
 * ioctl returned (0 or -errno).
 */
long xs_kvm_run_vec(enum xs_vec_kind k, int vcpu_fd, const uint8_t *in, uint8_t *out);
/* Overwrite the vector registers with a byte value (the process's own). */
void xs_host_clobber_vec(enum xs_vec_kind k, uint8_t byte);

#endif
