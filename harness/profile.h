/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile.h - exitscope's side of an exit-path profile in a lane
 * (harness/profile_mark.h has the protocol): L1 user space tells the
 * instrumented emulator which probe's batches follow and when to write its
 * counts out. Only a run whose lane asks for a profile calls these; the
 * guest's batch marks are switched on per round (latency_env.profile).
 */
#ifndef EXITSCOPE_HARNESS_PROFILE_H
#define EXITSCOPE_HARNESS_PROFILE_H

/* Whether the marks' I/O port can be had (ioperm), released again: 0 or -errno. */
int profile_marks_open(void);
/* The probe whose batches the next marks delimit. */
void profile_marks_probe(const char *name);
/* Every probe's counts to the emulator's profile file under label, then cleared. */
void profile_marks_dump(const char *label);

#endif
