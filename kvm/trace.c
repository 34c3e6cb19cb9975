// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - count KVM exits by reason through tracefs kvm:kvm_exit events.
 *
 * See trace.h for the API. The kvm_exit line format parsed here is the
 * TP_printk of TRACE_EVENT_KVM_EXIT in arch/x86/kvm/trace.h:
 *
 *   "vcpu %u reason %s%s%s rip 0x%lx info1 0x%016llx info2 ..."
 *
 * (6.1; later kernels append fields after info2, older ones lack "vcpu"),
 * preceded by the usual "comm-pid [cpu] flags timestamp: kvm_exit: " head.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/array_size.h"
#include "kvm/trace.h"

#define TRACE_DEFAULT_BUFFER_KB	8192
#define TRACE_CHUNK		(64 * 1024)
#define TRACE_MAX_LINE		4096

static const char *const trace_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

/* ---- parser ------------------------------------------------------------ */

void trace_counts_init(struct trace_counts *c)
{
	memset(c, 0, sizeof(*c));
}

static void add_reason(struct trace_counts *c, const char *name, size_t len)
{
	unsigned int i;

	if (len >= TRACE_NAME_LEN)
		len = TRACE_NAME_LEN - 1;
	for (i = 0; i < c->nr; i++) {
		if (!strncmp(c->reason[i].name, name, len) &&
		    c->reason[i].name[len] == '\0') {
			c->reason[i].count++;
			return;
		}
	}
	if (c->nr == TRACE_MAX_REASONS) {
		c->other++;
		return;
	}
	memcpy(c->reason[c->nr].name, name, len);
	c->reason[c->nr].name[len] = '\0';
	c->reason[c->nr].count = 1;
	c->nr++;
}

/* One line without its newline; returns 1 when it was a kvm_exit event. */
static int parse_line(const char *l, size_t n, struct trace_counts *c)
{
	static const char ev[] = " kvm_exit: ";
	static const char rs[] = " reason ";
	static const char lost[] = "[LOST ";
	const char *p, *name, *end, *stop = l + n;

	if (n == 0 || l[0] == '#')
		return 0;
	p = memmem(l, n, lost, sizeof(lost) - 1);
	if (p) {
		unsigned long long v = 0;

		for (p += sizeof(lost) - 1; p < stop && *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (unsigned long long)(*p - '0');
		c->lost += v;
		return 0;
	}
	p = memmem(l, n, ev, sizeof(ev) - 1);
	if (!p)
		return 0;
	c->total++;
	/* The space before "reason" is the one that ends "kvm_exit:". */
	p += sizeof(ev) - 2;
	p = memmem(p, stop - p, rs, sizeof(rs) - 1);
	if (!p) {
		c->unparsed++;
		return 1;
	}
	name = p + sizeof(rs) - 1;
	end = memmem(name, stop - name, " rip ", 5);
	if (!end)
		end = stop;
	while (end > name && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	if (end == name) {
		c->unparsed++;
		return 1;
	}
	add_reason(c, name, end - name);
	return 1;
}

long trace_parse(const char *buf, size_t len, struct trace_counts *c)
{
	const char *p = buf, *stop = buf + len;
	long added = 0;

	while (p < stop) {
		const char *nl = memchr(p, '\n', stop - p);
		const char *e = nl ? nl : stop;

		added += parse_line(p, e - p, c);
		p = nl ? nl + 1 : stop;
	}
	return added;
}

uint64_t trace_count(const struct trace_counts *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->reason[i].name, name))
			return c->reason[i].count;
	return 0;
}

int trace_drop_ucall(struct trace_counts *c)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++) {
		if ((strcmp(c->reason[i].name, "IO_INSTRUCTION") &&
		     strcmp(c->reason[i].name, "io")) || !c->reason[i].count)
			continue;
		c->reason[i].count--;
		c->total--;
		return 0;
	}
	return -ENOENT;
}

/* ---- tracefs files ----------------------------------------------------- */

static int path_of(char *out, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(out, len, "%s/%s", dir, rel);

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

static int write_str(const char *dir, const char *rel, const char *s)
{
	char path[TRACE_PATH_LEN + 64];
	size_t len = strlen(s);
	ssize_t w;
	int fd, r;

	r = path_of(path, sizeof(path), dir, rel);
	if (r)
		return r;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = 0;
	if (len) {
		w = write(fd, s, len);
		if (w < 0)
			r = -errno;
		else if ((size_t)w != len)
			r = -EIO;
	}
	if (close(fd) && !r)
		r = -errno;
	return r;
}

static long read_long(const char *dir, const char *rel)
{
	char path[TRACE_PATH_LEN + 64], buf[32];
	ssize_t n;
	int fd, r;

	r = path_of(path, sizeof(path), dir, rel);
	if (r)
		return r;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	r = n < 0 ? -errno : 0;
	close(fd);
	if (r)
		return r;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static int is_dir(const char *dir, const char *rel)
{
	char path[TRACE_PATH_LEN + 64];
	struct stat st;

	if (path_of(path, sizeof(path), dir, rel))
		return 0;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * Find a mounted tracefs (one with an events/ directory), mounting tracefs
 * on /sys/kernel/tracing (or debugfs, which brings tracing along) when
 * none is and we may. 0 and the root in *root, or -errno.
 */
static int find_root(char *root, size_t len, char *why, size_t wlen)
{
	unsigned int i;
	int tries, err = -ENOENT;

	for (tries = 0; tries < 2; tries++) {
		for (i = 0; i < ARRAY_SIZE(trace_roots); i++) {
			if (is_dir(trace_roots[i], "events")) {
				if (strlen(trace_roots[i]) >= len)
					return -ENAMETOOLONG;
				strcpy(root, trace_roots[i]);
				return 0;
			}
		}
		if (tries)
			break;
		if (mount("tracefs", trace_roots[0], "tracefs", 0, NULL) == 0)
			continue;
		err = -errno;
		if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) == 0)
			continue;
	}
	if (why)
		snprintf(why, wlen, "tracefs not mounted at %s and mounting it failed: %s",
			 trace_roots[0], strerror(-err));
	return err;
}

int trace_available(char *why, size_t len)
{
	char root[TRACE_PATH_LEN];
	char path[TRACE_PATH_LEN + 64];
	int r;

	if (why && len)
		why[0] = '\0';
	r = find_root(root, sizeof(root), why, len);
	if (r)
		return 0;
	if (!is_dir(root, "events/kvm/kvm_exit")) {
		if (why)
			snprintf(why, len, "%s has no events/kvm/kvm_exit (no KVM tracepoints: is "
				 "a KVM module loaded?)", root);
		return 0;
	}
	r = path_of(path, sizeof(path), root, "events/kvm/kvm_exit/enable");
	if (r || access(path, W_OK)) {
		if (why)
			snprintf(why, len, "cannot write %s: %s", path,
				 strerror(r ? -r : errno));
		return 0;
	}
	return 1;
}

/* Write the ids of all threads of this process (or one task) to set_event_pid. */
static int set_pids(struct trace_session *s)
{
	char buf[4096];
	size_t used = 0;
	struct dirent *de;
	DIR *d;
	int r;

	if (s->pid < 0)
		return 0;
	if (s->pid > 0) {
		snprintf(buf, sizeof(buf), "%d", (int)s->pid);
	} else {
		d = opendir("/proc/self/task");
		if (!d)
			return -errno;
		buf[0] = '\0';
		while ((de = readdir(d))) {
			int n;

			if (de->d_name[0] < '0' || de->d_name[0] > '9')
				continue;
			n = snprintf(buf + used, sizeof(buf) - used, "%s%s",
				     used ? " " : "", de->d_name);
			if (n < 0 || (size_t)n >= sizeof(buf) - used) {
				closedir(d);
				return -E2BIG;
			}
			used += n;
		}
		closedir(d);
	}
	r = write_str(s->dir, "set_event_pid", buf);
	if (r)
		return r;
	/* Follow threads created later (vCPU threads). Older kernels lack it. */
	write_str(s->dir, "options/event-fork", "1");
	return 0;
}

static void release(struct trace_session *s)
{
	char buf[32];

	if (!s->active)
		return;
	write_str(s->dir, "events/kvm/kvm_exit/enable", "0");
	if (s->instance) {
		rmdir(s->dir);
	} else {
		write_str(s->dir, "set_event_pid", "");
		write_str(s->dir, "trace", "");
		if (s->saved_buffer_kb > 0) {
			snprintf(buf, sizeof(buf), "%ld", s->saved_buffer_kb);
			write_str(s->dir, "buffer_size_kb", buf);
		}
	}
	s->active = false;
}

void trace_abort(struct trace_session *s)
{
	release(s);
}

int trace_begin(struct trace_session *s)
{
	char root[TRACE_PATH_LEN], buf[32];
	struct timespec ts;
	int r, n;

	if (s->active)
		return -EBUSY;
	r = find_root(root, sizeof(root), NULL, 0);
	if (r)
		return r;
	if (!is_dir(root, "events/kvm/kvm_exit"))
		return -ENOENT;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	n = snprintf(s->dir, sizeof(s->dir), "%s/instances/exitscope-%d-%lx",
		     root, (int)getpid(),
		     (unsigned long)ts.tv_nsec ^ (unsigned long)(uintptr_t)s);
	if (n < 0 || (size_t)n >= sizeof(s->dir))
		return -ENAMETOOLONG;
	s->saved_buffer_kb = 0;
	if (mkdir(s->dir, 0700) == 0) {
		s->instance = true;
	} else {
		/* No instances: use (and afterwards tidy) the top-level buffer. */
		s->instance = false;
		strcpy(s->dir, root);
		s->saved_buffer_kb = read_long(s->dir, "buffer_size_kb");
	}
	s->active = true;

	snprintf(buf, sizeof(buf), "%u",
		 s->buffer_kb ? s->buffer_kb : TRACE_DEFAULT_BUFFER_KB);
	r = write_str(s->dir, "buffer_size_kb", buf);
	if (r)
		goto fail;
	r = set_pids(s);
	if (r)
		goto fail;
	r = write_str(s->dir, "trace", "");
	if (r)
		goto fail;
	r = write_str(s->dir, "tracing_on", "1");
	if (r)
		goto fail;
	r = write_str(s->dir, "events/kvm/kvm_exit/enable", "1");
	if (r)
		goto fail;
	return 0;
fail:
	release(s);
	return r;
}

/* Stream the trace file through the parser, line by line. */
static int read_trace(const char *dir, struct trace_counts *out)
{
	char path[TRACE_PATH_LEN + 64];
	size_t have = 0;
	char *buf;
	int fd, r;

	r = path_of(path, sizeof(path), dir, "trace");
	if (r)
		return r;
	buf = malloc(TRACE_CHUNK + TRACE_MAX_LINE);
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	for (;;) {
		ssize_t n = read(fd, buf + have, TRACE_CHUNK + TRACE_MAX_LINE - have);
		char *last;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (n == 0) {
			trace_parse(buf, have, out);
			break;
		}
		have += n;
		last = memrchr(buf, '\n', have);
		if (!last) {
			if (have < TRACE_CHUNK + TRACE_MAX_LINE)
				continue;
			/* An absurdly long line: parse what we have. */
			trace_parse(buf, have, out);
			have = 0;
			continue;
		}
		trace_parse(buf, last + 1 - buf, out);
		have -= last + 1 - buf;
		memmove(buf, last + 1, have);
	}
	close(fd);
out:
	free(buf);
	return r;
}

int trace_end(struct trace_session *s, struct trace_counts *out)
{
	int r;

	trace_counts_init(out);
	if (!s->active)
		return -EINVAL;
	r = write_str(s->dir, "events/kvm/kvm_exit/enable", "0");
	if (!r)
		r = read_trace(s->dir, out);
	release(s);
	return r;
}

int trace_run(struct trace_session *s, int (*fn)(void *), void *arg,
	      struct trace_counts *out)
{
	int r, ret;

	trace_counts_init(out);
	r = trace_begin(s);
	if (r)
		return r;
	ret = fn(arg);
	r = trace_end(s, out);
	return r ? r : ret;
}
