/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile_mark.h - the marks an exit-path profile is cut by: how exitscope,
 * running in a lane's L1 Linux, tells the lanes' instrumented Bochs
 * (lanes/bochs-instrument/) which probe is measured and where each of its
 * batches begins and ends. The one definition of the protocol: the Bochs
 * module is built with a copy of this header.
 *
 * Two channels:
 *  - L1 user space (exitscope's own process, after ioperm) writes 32-bit
 *    words to PROFILE_PORT: PROFILE_CMD(cmd, arg). A string is sent as
 *    STR_CLEAR, one STR_CHAR per byte, then the command that uses it:
 *    PROBE selects the probe whose batches follow, DUMP appends every
 *    probe's counts to the module's output file under that label (the run's
 *    JSON path) and clears them.
 *  - The L2 guest, between two batches, executes a marker: the multi-byte
 *    NOP `nopl PROFILE_MARK_MAGIC(%rax)` (0f 1f 80 + disp32) with the mark's
 *    kind in RAX and, for a BEGIN, the batch's operations in RDX. A NOP
 *    never exits, so the marks cost the guest one instruction each and KVM
 *    nothing; the guest executes them only in a profiled run.
 * Between a BEGIN and its END the module counts every instruction (L2
 * guest, L1 kernel by address, L1 user space) and every VM exit by reason
 * for the selected probe's op or baseline side.
 */
#ifndef EXITSCOPE_HARNESS_PROFILE_MARK_H
#define EXITSCOPE_HARNESS_PROFILE_MARK_H

#define PROFILE_PORT		0x8a40
#define PROFILE_CMD(cmd, arg)	(0xe5000000u | ((unsigned)(cmd) << 16) | ((unsigned)(arg) & 0xffffu))
#define PROFILE_CMD_OF(v)	(((v) >> 16) & 0xffu)
#define PROFILE_ARG_OF(v)	((v) & 0xffffu)
#define PROFILE_IS_CMD(v)	(((v) & 0xff000000u) == 0xe5000000u)

#define PROFILE_CMD_STR_CLEAR	1
#define PROFILE_CMD_STR_CHAR	2
#define PROFILE_CMD_PROBE	3
#define PROFILE_CMD_DUMP	4

#define PROFILE_MARK_MAGIC	0x45585350	/* "PSXE": the marker NOP's displacement */
#define PROFILE_MARK_OP_BEGIN	1		/* RDX: operations in the batch */
#define PROFILE_MARK_BASE_BEGIN	2		/* RDX: operations in the batch */
#define PROFILE_MARK_END	3

/* The text format of the module's output file (profile/counts.c reads it; 2 adds the census lines). */
#define PROFILE_FILE_MAGIC	"exitscope-bochs-profile"
#define PROFILE_FILE_VERSION	2

#endif
