// SPDX-License-Identifier: GPL-2.0-only
/* stats_fd.c - parse and read KVM's binary statistics (header, descriptors, data). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "kvm/stats_fd.h"

/* Bounds that no real KVM comes near; anything beyond is a corrupt buffer. */
#define STATS_MAX_DESC		4096
#define STATS_MAX_NAME		1024
#define STATS_MAX_VALUES	(1u << 20)

static int pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done, off + done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;	/* short buffer */
		done += r;
	}
	return 0;
}

int stats_open(struct kvm_stats *st, int fd)
{
	struct kvm_stats_header hdr;
	size_t desc_len;
	char *descs = NULL;
	int r;

	memset(st, 0, sizeof(*st));
	st->fd = fd;
	r = pread_full(fd, &hdr, sizeof(hdr), 0);
	if (r)
		goto fail;
	r = -EINVAL;
	if (hdr.num_desc == 0 || hdr.num_desc > STATS_MAX_DESC ||
	    hdr.name_size == 0 || hdr.name_size > STATS_MAX_NAME)
		goto fail;
	if (hdr.id_offset) {
		size_t n = hdr.name_size < sizeof(st->id) ? hdr.name_size : sizeof(st->id);

		r = pread_full(fd, st->id, n, hdr.id_offset);
		if (r)
			goto fail;
		st->id[sizeof(st->id) - 1] = 0;
	}
	desc_len = sizeof(struct kvm_stats_desc) + hdr.name_size;
	descs = malloc(desc_len * hdr.num_desc);
	st->items = calloc(hdr.num_desc, sizeof(*st->items));
	r = -ENOMEM;
	if (!descs || !st->items)
		goto fail;
	r = pread_full(fd, descs, desc_len * hdr.num_desc, hdr.desc_offset);
	if (r)
		goto fail;
	st->data_offset = hdr.data_offset;
	for (uint32_t i = 0; i < hdr.num_desc; i++) {
		struct kvm_stats_desc *d = (void *)(descs + i * desc_len);
		struct stats_item *it = &st->items[i];
		size_t end = (size_t)d->offset + (size_t)d->size * 8;

		r = -EINVAL;
		if (d->size == 0 || st->nr_values + d->size > STATS_MAX_VALUES ||
		    (d->flags & KVM_STATS_TYPE_MASK) > KVM_STATS_TYPE_MAX)
			goto fail;
		memcpy(it->name, d->name,
		       hdr.name_size < sizeof(it->name) ? hdr.name_size : sizeof(it->name));
		it->name[sizeof(it->name) - 1] = 0;
		it->flags = d->flags;
		it->exponent = d->exponent;
		it->size = d->size;
		it->offset = d->offset;
		it->bucket_size = d->bucket_size;
		it->first = st->nr_values;
		st->nr_values += d->size;
		if (end > st->data_size)
			st->data_size = end;
	}
	st->nr_items = hdr.num_desc;
	free(descs);
	return 0;
fail:
	free(descs);
	free(st->items);
	st->items = NULL;
	st->fd = -1;
	close(fd);
	return r;
}

void stats_close(struct kvm_stats *st)
{
	if (st->fd >= 0)
		close(st->fd);
	free(st->items);
	memset(st, 0, sizeof(*st));
	st->fd = -1;
}

const struct stats_item *stats_find(const struct kvm_stats *st, const char *name)
{
	for (size_t i = 0; i < st->nr_items; i++)
		if (!strcmp(st->items[i].name, name))
			return &st->items[i];
	return NULL;
}

int stats_read(const struct kvm_stats *st, const char *name, uint64_t *val)
{
	const struct stats_item *it = stats_find(st, name);

	if (!it)
		return -ENOENT;
	return pread_full(st->fd, val, sizeof(*val), st->data_offset + it->offset);
}

int stats_snapshot_init(const struct kvm_stats *st, struct stats_snapshot *s)
{
	s->nr_values = st->nr_values;
	s->v = calloc(st->nr_values ? st->nr_values : 1, sizeof(uint64_t));
	return s->v ? 0 : -ENOMEM;
}

/* One pread of the whole data block, then scatter into descriptor order. */
int stats_snapshot_take(const struct kvm_stats *st, struct stats_snapshot *s)
{
	uint64_t buf[1024], *data = buf;
	int r;

	if (s->nr_values != st->nr_values)
		return -EINVAL;
	if (st->data_size > sizeof(buf)) {
		data = malloc(st->data_size);
		if (!data)
			return -ENOMEM;
	}
	r = pread_full(st->fd, data, st->data_size, st->data_offset);
	if (!r) {
		for (size_t i = 0; i < st->nr_items; i++) {
			const struct stats_item *it = &st->items[i];

			memcpy(&s->v[it->first], (char *)data + it->offset, it->size * 8);
		}
	}
	if (data != buf)
		free(data);
	return r;
}

void stats_snapshot_free(struct stats_snapshot *s)
{
	free(s->v);
	s->v = NULL;
	s->nr_values = 0;
}

void stats_delta(const struct kvm_stats *st, const struct stats_snapshot *a,
		 const struct stats_snapshot *b, struct stats_snapshot *out)
{
	for (size_t i = 0; i < st->nr_items; i++) {
		const struct stats_item *it = &st->items[i];
		uint32_t type = it->flags & KVM_STATS_TYPE_MASK;

		for (size_t j = it->first; j < it->first + it->size; j++) {
			if (type == KVM_STATS_TYPE_INSTANT || type == KVM_STATS_TYPE_PEAK)
				out->v[j] = b->v[j];
			else
				out->v[j] = b->v[j] - a->v[j];
		}
	}
}

uint64_t stats_value(const struct kvm_stats *st, const struct stats_snapshot *s,
		     const char *name)
{
	const struct stats_item *it = stats_find(st, name);

	return it ? s->v[it->first] : 0;
}

const char *stats_type_name(uint32_t flags)
{
	switch (flags & KVM_STATS_TYPE_MASK) {
	case KVM_STATS_TYPE_CUMULATIVE:  return "cumulative";
	case KVM_STATS_TYPE_INSTANT:     return "instant";
	case KVM_STATS_TYPE_PEAK:        return "peak";
	case KVM_STATS_TYPE_LINEAR_HIST: return "linear-hist";
	case KVM_STATS_TYPE_LOG_HIST:    return "log-hist";
	default:                         return "unknown";
	}
}
