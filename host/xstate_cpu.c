// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate_cpu.c - host-side instructions on the exitscope process's own
 * extended state (see xstate_cpu.h). The vector functions are generated
 * per register width; each runs under the target attribute it needs, and
 * is only called when CPUID and XCR0 say the registers are usable.
 */
#include <string.h>
#include <sys/syscall.h>
#include <linux/kvm.h>

#include "host/cpu.h"
#include "host/xstate_cpu.h"
#include "kvm/abi.h"

/* XCR0 bits the OS must enable before the process may use ymm / zmm registers. */
#define XS_YMM_XCR0	(XFEATURE_SSE | XFEATURE_YMM)
#define XS_ZMM_XCR0	(XS_YMM_XCR0 | XFEATURE_AVX512)

uint32_t xs_host_rdpkru(void)
{
	uint32_t a, d;

	asm volatile(".byte 0x0f, 0x01, 0xee" : "=a"(a), "=d"(d) : "c"(0));
	return a;
}

void xs_host_cpu(struct xs_host_cpu *c)
{
	memset(c, 0, sizeof(*c));
	c->vec = XS_VEC_XMM;
	c->osxsave = host_cpu_has(X86_FEAT_OSXSAVE);
	if (!c->osxsave)
		return;
	c->xcr0 = host_cpu_xgetbv();
	if (host_cpu_has(X86_FEAT_AVX) && (c->xcr0 & XS_YMM_XCR0) == XS_YMM_XCR0)
		c->vec = XS_VEC_YMM;
	c->ospke = host_cpu_has(X86_FEAT_OSPKE);
	if (host_cpu_has(X86_FEAT_AVX512F) && (c->xcr0 & XS_ZMM_XCR0) == XS_ZMM_XCR0)
		c->vec = XS_VEC_ZMM;
}

size_t xs_vec_bytes(enum xs_vec_kind k)
{
	return k == XS_VEC_ZMM ? 32 * 64 : k == XS_VEC_YMM ? 16 * 32 : 16 * 16;
}

const char *xs_vec_name(enum xs_vec_kind k)
{
	return k == XS_VEC_ZMM ? "zmm0-31" : k == XS_VEC_YMM ? "ymm0-15" : "xmm0-15";
}

/* Load all vector registers of one kind from in[] (16 or 32 registers). */
#define XMM_LOAD_ALL \
	"movdqu 0x0(%[in]), %%xmm0\n\t" \
	"movdqu 0x10(%[in]), %%xmm1\n\t" \
	"movdqu 0x20(%[in]), %%xmm2\n\t" \
	"movdqu 0x30(%[in]), %%xmm3\n\t" \
	"movdqu 0x40(%[in]), %%xmm4\n\t" \
	"movdqu 0x50(%[in]), %%xmm5\n\t" \
	"movdqu 0x60(%[in]), %%xmm6\n\t" \
	"movdqu 0x70(%[in]), %%xmm7\n\t" \
	"movdqu 0x80(%[in]), %%xmm8\n\t" \
	"movdqu 0x90(%[in]), %%xmm9\n\t" \
	"movdqu 0xa0(%[in]), %%xmm10\n\t" \
	"movdqu 0xb0(%[in]), %%xmm11\n\t" \
	"movdqu 0xc0(%[in]), %%xmm12\n\t" \
	"movdqu 0xd0(%[in]), %%xmm13\n\t" \
	"movdqu 0xe0(%[in]), %%xmm14\n\t" \
	"movdqu 0xf0(%[in]), %%xmm15\n\t"
#define YMM_LOAD_ALL \
	"vmovdqu 0x0(%[in]), %%ymm0\n\t" \
	"vmovdqu 0x20(%[in]), %%ymm1\n\t" \
	"vmovdqu 0x40(%[in]), %%ymm2\n\t" \
	"vmovdqu 0x60(%[in]), %%ymm3\n\t" \
	"vmovdqu 0x80(%[in]), %%ymm4\n\t" \
	"vmovdqu 0xa0(%[in]), %%ymm5\n\t" \
	"vmovdqu 0xc0(%[in]), %%ymm6\n\t" \
	"vmovdqu 0xe0(%[in]), %%ymm7\n\t" \
	"vmovdqu 0x100(%[in]), %%ymm8\n\t" \
	"vmovdqu 0x120(%[in]), %%ymm9\n\t" \
	"vmovdqu 0x140(%[in]), %%ymm10\n\t" \
	"vmovdqu 0x160(%[in]), %%ymm11\n\t" \
	"vmovdqu 0x180(%[in]), %%ymm12\n\t" \
	"vmovdqu 0x1a0(%[in]), %%ymm13\n\t" \
	"vmovdqu 0x1c0(%[in]), %%ymm14\n\t" \
	"vmovdqu 0x1e0(%[in]), %%ymm15\n\t"
#define ZMM_LOAD_ALL \
	"vmovdqu64 0x0(%[in]), %%zmm0\n\t" \
	"vmovdqu64 0x40(%[in]), %%zmm1\n\t" \
	"vmovdqu64 0x80(%[in]), %%zmm2\n\t" \
	"vmovdqu64 0xc0(%[in]), %%zmm3\n\t" \
	"vmovdqu64 0x100(%[in]), %%zmm4\n\t" \
	"vmovdqu64 0x140(%[in]), %%zmm5\n\t" \
	"vmovdqu64 0x180(%[in]), %%zmm6\n\t" \
	"vmovdqu64 0x1c0(%[in]), %%zmm7\n\t" \
	"vmovdqu64 0x200(%[in]), %%zmm8\n\t" \
	"vmovdqu64 0x240(%[in]), %%zmm9\n\t" \
	"vmovdqu64 0x280(%[in]), %%zmm10\n\t" \
	"vmovdqu64 0x2c0(%[in]), %%zmm11\n\t" \
	"vmovdqu64 0x300(%[in]), %%zmm12\n\t" \
	"vmovdqu64 0x340(%[in]), %%zmm13\n\t" \
	"vmovdqu64 0x380(%[in]), %%zmm14\n\t" \
	"vmovdqu64 0x3c0(%[in]), %%zmm15\n\t" \
	"vmovdqu64 0x400(%[in]), %%zmm16\n\t" \
	"vmovdqu64 0x440(%[in]), %%zmm17\n\t" \
	"vmovdqu64 0x480(%[in]), %%zmm18\n\t" \
	"vmovdqu64 0x4c0(%[in]), %%zmm19\n\t" \
	"vmovdqu64 0x500(%[in]), %%zmm20\n\t" \
	"vmovdqu64 0x540(%[in]), %%zmm21\n\t" \
	"vmovdqu64 0x580(%[in]), %%zmm22\n\t" \
	"vmovdqu64 0x5c0(%[in]), %%zmm23\n\t" \
	"vmovdqu64 0x600(%[in]), %%zmm24\n\t" \
	"vmovdqu64 0x640(%[in]), %%zmm25\n\t" \
	"vmovdqu64 0x680(%[in]), %%zmm26\n\t" \
	"vmovdqu64 0x6c0(%[in]), %%zmm27\n\t" \
	"vmovdqu64 0x700(%[in]), %%zmm28\n\t" \
	"vmovdqu64 0x740(%[in]), %%zmm29\n\t" \
	"vmovdqu64 0x780(%[in]), %%zmm30\n\t" \
	"vmovdqu64 0x7c0(%[in]), %%zmm31\n\t"

static long run_xmm(int fd, const uint8_t *in, uint8_t *out)
{
	long ret;

	asm volatile(XMM_LOAD_ALL
		"syscall\n\t"
		"movdqu %%xmm0, 0x0(%[out])\n\t"
		"movdqu %%xmm1, 0x10(%[out])\n\t"
		"movdqu %%xmm2, 0x20(%[out])\n\t"
		"movdqu %%xmm3, 0x30(%[out])\n\t"
		"movdqu %%xmm4, 0x40(%[out])\n\t"
		"movdqu %%xmm5, 0x50(%[out])\n\t"
		"movdqu %%xmm6, 0x60(%[out])\n\t"
		"movdqu %%xmm7, 0x70(%[out])\n\t"
		"movdqu %%xmm8, 0x80(%[out])\n\t"
		"movdqu %%xmm9, 0x90(%[out])\n\t"
		"movdqu %%xmm10, 0xa0(%[out])\n\t"
		"movdqu %%xmm11, 0xb0(%[out])\n\t"
		"movdqu %%xmm12, 0xc0(%[out])\n\t"
		"movdqu %%xmm13, 0xd0(%[out])\n\t"
		"movdqu %%xmm14, 0xe0(%[out])\n\t"
		"movdqu %%xmm15, 0xf0(%[out])\n\t"
		: "=a"(ret)
		: "a"((long)SYS_ioctl), "D"((long)fd), "S"((long)KVM_RUN), "d"(0L),
		  [in] "r"(in), [out] "r"(out)
		: "rcx", "r11", "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
	return ret;
}

__attribute__((target("avx")))
static long run_ymm(int fd, const uint8_t *in, uint8_t *out)
{
	long ret;

	asm volatile(YMM_LOAD_ALL
		"syscall\n\t"
		"vmovdqu %%ymm0, 0x0(%[out])\n\t"
		"vmovdqu %%ymm1, 0x20(%[out])\n\t"
		"vmovdqu %%ymm2, 0x40(%[out])\n\t"
		"vmovdqu %%ymm3, 0x60(%[out])\n\t"
		"vmovdqu %%ymm4, 0x80(%[out])\n\t"
		"vmovdqu %%ymm5, 0xa0(%[out])\n\t"
		"vmovdqu %%ymm6, 0xc0(%[out])\n\t"
		"vmovdqu %%ymm7, 0xe0(%[out])\n\t"
		"vmovdqu %%ymm8, 0x100(%[out])\n\t"
		"vmovdqu %%ymm9, 0x120(%[out])\n\t"
		"vmovdqu %%ymm10, 0x140(%[out])\n\t"
		"vmovdqu %%ymm11, 0x160(%[out])\n\t"
		"vmovdqu %%ymm12, 0x180(%[out])\n\t"
		"vmovdqu %%ymm13, 0x1a0(%[out])\n\t"
		"vmovdqu %%ymm14, 0x1c0(%[out])\n\t"
		"vmovdqu %%ymm15, 0x1e0(%[out])\n\t"
		: "=a"(ret)
		: "a"((long)SYS_ioctl), "D"((long)fd), "S"((long)KVM_RUN), "d"(0L),
		  [in] "r"(in), [out] "r"(out)
		: "rcx", "r11", "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
	return ret;
}

__attribute__((target("avx512f")))
static long run_zmm(int fd, const uint8_t *in, uint8_t *out)
{
	long ret;

	asm volatile(ZMM_LOAD_ALL
		"syscall\n\t"
		"vmovdqu64 %%zmm0, 0x0(%[out])\n\t"
		"vmovdqu64 %%zmm1, 0x40(%[out])\n\t"
		"vmovdqu64 %%zmm2, 0x80(%[out])\n\t"
		"vmovdqu64 %%zmm3, 0xc0(%[out])\n\t"
		"vmovdqu64 %%zmm4, 0x100(%[out])\n\t"
		"vmovdqu64 %%zmm5, 0x140(%[out])\n\t"
		"vmovdqu64 %%zmm6, 0x180(%[out])\n\t"
		"vmovdqu64 %%zmm7, 0x1c0(%[out])\n\t"
		"vmovdqu64 %%zmm8, 0x200(%[out])\n\t"
		"vmovdqu64 %%zmm9, 0x240(%[out])\n\t"
		"vmovdqu64 %%zmm10, 0x280(%[out])\n\t"
		"vmovdqu64 %%zmm11, 0x2c0(%[out])\n\t"
		"vmovdqu64 %%zmm12, 0x300(%[out])\n\t"
		"vmovdqu64 %%zmm13, 0x340(%[out])\n\t"
		"vmovdqu64 %%zmm14, 0x380(%[out])\n\t"
		"vmovdqu64 %%zmm15, 0x3c0(%[out])\n\t"
		"vmovdqu64 %%zmm16, 0x400(%[out])\n\t"
		"vmovdqu64 %%zmm17, 0x440(%[out])\n\t"
		"vmovdqu64 %%zmm18, 0x480(%[out])\n\t"
		"vmovdqu64 %%zmm19, 0x4c0(%[out])\n\t"
		"vmovdqu64 %%zmm20, 0x500(%[out])\n\t"
		"vmovdqu64 %%zmm21, 0x540(%[out])\n\t"
		"vmovdqu64 %%zmm22, 0x580(%[out])\n\t"
		"vmovdqu64 %%zmm23, 0x5c0(%[out])\n\t"
		"vmovdqu64 %%zmm24, 0x600(%[out])\n\t"
		"vmovdqu64 %%zmm25, 0x640(%[out])\n\t"
		"vmovdqu64 %%zmm26, 0x680(%[out])\n\t"
		"vmovdqu64 %%zmm27, 0x6c0(%[out])\n\t"
		"vmovdqu64 %%zmm28, 0x700(%[out])\n\t"
		"vmovdqu64 %%zmm29, 0x740(%[out])\n\t"
		"vmovdqu64 %%zmm30, 0x780(%[out])\n\t"
		"vmovdqu64 %%zmm31, 0x7c0(%[out])\n\t"
		: "=a"(ret)
		: "a"((long)SYS_ioctl), "D"((long)fd), "S"((long)KVM_RUN), "d"(0L),
		  [in] "r"(in), [out] "r"(out)
		: "rcx", "r11", "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
		  "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",
		  "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
	return ret;
}

static void clobber_xmm(const uint8_t *in)
{
	asm volatile(XMM_LOAD_ALL
		:: [in] "r"(in)
		: "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

__attribute__((target("avx")))
static void clobber_ymm(const uint8_t *in)
{
	asm volatile(YMM_LOAD_ALL
		:: [in] "r"(in)
		: "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

__attribute__((target("avx512f")))
static void clobber_zmm(const uint8_t *in)
{
	asm volatile(ZMM_LOAD_ALL
		:: [in] "r"(in)
		: "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
		  "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",
		  "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
}

long xs_kvm_run_vec(enum xs_vec_kind k, int vcpu_fd, const uint8_t *in, uint8_t *out)
{
	if (k == XS_VEC_ZMM)
		return run_zmm(vcpu_fd, in, out);
	if (k == XS_VEC_YMM)
		return run_ymm(vcpu_fd, in, out);
	return run_xmm(vcpu_fd, in, out);
}

void xs_host_clobber_vec(enum xs_vec_kind k, uint8_t byte)
{
	uint8_t buf[XS_VEC_MAX_BYTES];

	memset(buf, byte, sizeof(buf));
	if (k == XS_VEC_ZMM)
		clobber_zmm(buf);
	else if (k == XS_VEC_YMM)
		clobber_ymm(buf);
	else
		clobber_xmm(buf);
}
