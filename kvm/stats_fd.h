/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats_fd.h - reader for KVM's binary statistics fd (KVM_GET_STATS_FD).
 *
 * stats_open() parses the header and descriptors once (from any fd that
 * supports pread: the real stats fd, or a memfd holding a synthetic buffer
 * in tests); values are then read with one pread per snapshot.
 */
#ifndef EXITSCOPE_KVM_STATS_FD_H
#define EXITSCOPE_KVM_STATS_FD_H

#include <stddef.h>
#include <stdint.h>

struct stats_item {
	char name[64];
	uint32_t flags;		/* KVM_STATS_TYPE_* | UNIT | BASE */
	int16_t exponent;
	uint16_t size;		/* number of u64 values (buckets for histograms) */
	uint32_t offset;	/* byte offset of the values in the data block */
	uint32_t bucket_size;
	size_t first;		/* index of the first value in a snapshot */
};

struct kvm_stats {
	int fd;
	char id[64];
	uint32_t data_offset;
	size_t data_size;	/* bytes of the data block covered by items */
	size_t nr_items;
	struct stats_item *items;
	size_t nr_values;	/* sum of item sizes */
};

/* A copy of every value of every item, in descriptor order. */
struct stats_snapshot {
	size_t nr_values;
	uint64_t *v;
};

int stats_open(struct kvm_stats *st, int fd);	/* takes ownership of fd */
void stats_close(struct kvm_stats *st);
const struct stats_item *stats_find(const struct kvm_stats *st, const char *name);
int stats_read(const struct kvm_stats *st, const char *name, uint64_t *val);
int stats_snapshot_init(const struct kvm_stats *st, struct stats_snapshot *s);
int stats_snapshot_take(const struct kvm_stats *st, struct stats_snapshot *s);
void stats_snapshot_free(struct stats_snapshot *s);
/*
 * out = b - a for cumulative counters (and histogram buckets); for instant
 * and peak values out = b. All three must come from the same st.
 */
void stats_delta(const struct kvm_stats *st, const struct stats_snapshot *a,
		 const struct stats_snapshot *b, struct stats_snapshot *out);
/* Value of a scalar item in a snapshot (or delta); 0 if absent. */
uint64_t stats_value(const struct kvm_stats *st, const struct stats_snapshot *s,
		     const char *name);
const char *stats_type_name(uint32_t flags);

#endif
