// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats_fd.c - the binary stats reader on a synthetic buffer (header,
 * id, descriptors incl. a histogram, data) held in a memfd, on corrupt
 * buffers, and on a real vCPU stats fd.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guest/vm.h"
#include "kvm/stats_fd.h"
#include "tests/tap.h"

#define NAME_SIZE 48

/* A descriptor as KVM lays it out: struct kvm_stats_desc, then the name. */
struct desc {
	uint32_t flags;
	int16_t exponent;
	uint16_t size;
	uint32_t offset;
	uint32_t bucket_size;
	char name[NAME_SIZE];
};
_Static_assert(offsetof(struct desc, name) == sizeof(struct kvm_stats_desc),
	       "struct desc must match struct kvm_stats_desc");

/* header | id | 3 descriptors | data: exits(1), hist(4 buckets), blocking(1) */
static int synthetic_fd(uint32_t num_desc_override)
{
	struct kvm_stats_header h = {
		.name_size = NAME_SIZE, .num_desc = 3,
		.id_offset = sizeof(h), .desc_offset = sizeof(h) + NAME_SIZE,
		.data_offset = sizeof(h) + NAME_SIZE + 3 * sizeof(struct desc),
	};
	struct desc d[3] = {
		{ .flags = KVM_STATS_TYPE_CUMULATIVE, .size = 1, .offset = 0, .name = "exits" },
		{ .flags = KVM_STATS_TYPE_LOG_HIST | KVM_STATS_UNIT_SECONDS, .exponent = -9,
		  .size = 4, .offset = 8, .name = "halt_wait_hist" },
		{ .flags = KVM_STATS_TYPE_INSTANT, .size = 1, .offset = 40, .name = "blocking" },
	};
	char id[NAME_SIZE] = "kvm-1234/vcpu-0";
	uint64_t data[6] = { 1000, 1, 2, 3, 4, 1 };
	int fd = memfd_create("stats", 0);

	if (num_desc_override)
		h.num_desc = num_desc_override;
	if (fd < 0)
		return -1;
	if (write(fd, &h, sizeof(h)) != sizeof(h) || write(fd, id, sizeof(id)) != sizeof(id) ||
	    write(fd, d, sizeof(d)) != sizeof(d) || write(fd, data, sizeof(data)) != sizeof(data))
		return -1;
	return fd;
}

static void set_value(int fd, size_t index, uint64_t v)
{
	off_t off = sizeof(struct kvm_stats_header) + NAME_SIZE + 3 * sizeof(struct desc) + index * 8;

	if (pwrite(fd, &v, 8, off) != 8)
		tap_diag("pwrite failed");
}

int main(void)
{
	struct kvm_stats st;
	struct stats_snapshot a, b, d;
	const struct stats_item *it;
	uint64_t v = 0;
	int fd;

	tap_plan(20);
	fd = synthetic_fd(0);
	tap_is_u64(stats_open(&st, fd), 0, "synthetic buffer parses");
	tap_is_str(st.id, "kvm-1234/vcpu-0", "id string read");
	tap_is_u64(st.nr_items, 3, "three descriptors");
	tap_is_u64(st.nr_values, 6, "six values (1 + 4 histogram buckets + 1)");
	it = stats_find(&st, "halt_wait_hist");
	tap_ok(it && it->size == 4 && it->exponent == -9 &&
	       (it->flags & KVM_STATS_TYPE_MASK) == KVM_STATS_TYPE_LOG_HIST,
	       "histogram descriptor: 4 buckets, log, exponent -9");
	tap_is_str(stats_type_name(it ? it->flags : 0), "log-hist", "type name");
	tap_ok(stats_read(&st, "exits", &v) == 0 && v == 1000, "read one counter by name");
	tap_is_u64(stats_read(&st, "nope", &v), (uint64_t)-ENOENT, "unknown name: -ENOENT");

	stats_snapshot_init(&st, &a);
	stats_snapshot_init(&st, &b);
	stats_snapshot_init(&st, &d);
	stats_snapshot_take(&st, &a);
	set_value(fd, 0, 1042);		/* exits += 42 */
	set_value(fd, 3, 10);		/* bucket 2: 3 -> 10 */
	set_value(fd, 5, 0);		/* blocking: instant 1 -> 0 */
	stats_snapshot_take(&st, &b);
	stats_delta(&st, &a, &b, &d);
	tap_is_u64(stats_value(&st, &d, "exits"), 42, "cumulative delta");
	tap_is_u64(d.v[it->first + 2], 7, "histogram bucket delta");
	tap_is_u64(d.v[it->first + 0], 0, "unchanged bucket delta 0");
	tap_is_u64(stats_value(&st, &d, "blocking"), 0, "instant value is the new value, not a delta");
	stats_snapshot_free(&a);
	stats_snapshot_free(&b);
	stats_snapshot_free(&d);
	stats_close(&st);

	/* Corrupt headers are refused, not trusted. */
	fd = synthetic_fd(100000);
	tap_is_u64(stats_open(&st, fd), (uint64_t)-EINVAL, "absurd descriptor count refused");
	fd = memfd_create("short", 0);
	tap_ok(write(fd, "abc", 3) == 3, "short buffer written");
	tap_is_u64(stats_open(&st, fd), (uint64_t)-EIO, "truncated header refused");

	/* The real vCPU stats fd. */
	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(5, "/dev/kvm is absent or not accessible");
		return tap_done();
	}
	{
		struct vm *vm;
		struct err err;

		if (vm_create(&vm, NULL, &err)) {
			tap_ok(0, "vm_create: %s", err.msg);
			tap_skip(4, "no VM");
			return tap_done();
		}
		tap_ok(vm->vcpus[0].has_stats, "vCPU stats fd opened and parsed");
		tap_like(vm->vcpus[0].stats.id, "vcpu-0", "id names the vCPU (%s)", vm->vcpus[0].stats.id);
		tap_ok(stats_find(&vm->vcpus[0].stats, "exits") != NULL, "has the 'exits' counter");
		tap_ok(stats_find(&vm->vcpus[0].stats, "halt_wait_hist") != NULL, "has a histogram");
		tap_ok(vm->has_stats && vm->stats.nr_items > 0, "VM stats fd parsed too");
		vm_destroy(vm);
	}
	return tap_done();
}
