/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_record.h - the host record model (results/host_record_model.h) of what
 * hostinfo_collect() found: the "host" of every result document
 * (results/result_doc.h).
 */
#ifndef EXITSCOPE_HOST_HOST_RECORD_H
#define EXITSCOPE_HOST_HOST_RECORD_H

#include "host/hostinfo.h"
#include "results/host_record_model.h"

#define HOSTINFO_RECORD_CPUID	10	/* the CPUID features of the record */
#define HOSTINFO_RECORD_MSRS	2	/* the MSR save-list groups of the record */

/* A host record with the storage of its arrays. */
struct hostinfo_record {
	struct host_record rec;
	struct result_kv params[HOSTINFO_MAX_PARAMS];
	struct result_int caps[HOSTINFO_MAX_CAPS];
	struct result_flag cpuid[HOSTINFO_RECORD_CPUID];
	struct result_flag msrs[HOSTINFO_RECORD_MSRS];
	const char *lane_patches[HOSTINFO_LANE_PATCHES];
	const char *lane_emulator_patches[HOSTINFO_LANE_EMULATOR_PATCHES];
};

/* Fill out->rec from hi; its strings point into hi, valid while hi is. */
void hostinfo_record(const struct hostinfo *hi, struct hostinfo_record *out);

#endif
