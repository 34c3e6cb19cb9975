// SPDX-License-Identifier: GPL-2.0-only
/*
 * outfile.c - checked, atomic output files (see outfile.h): a temporary in
 * the target's directory (a symlink's: its target's) renamed into place for
 * new and regular files, in-place writes for devices, FIFOs and stdout, and
 * the errno of the call that failed in every error.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results/outfile.h"

static int fail(struct err *err, const char *path, int e)
{
	return err_set(err, -e, "%s: %s", path, strerror(e));
}

static unsigned int rand32(void)
{
	struct timespec ts;
	unsigned int v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned int)ts.tv_nsec ^ (unsigned int)ts.tv_sec * 2654435761u ^ (unsigned int)getpid();
}

/* A new file named PREFIX<random>SUFFIX: its fd with the name in buf, or -errno. */
static int create_unique(char *buf, size_t len, const char *prefix, const char *suffix, mode_t mode)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";

	for (int i = 0; i < 32; i++) {
		unsigned int v = rand32();
		char rnd[7];
		int fd, n;

		for (int k = 0; k < 6; k++, v /= sizeof(abc) - 1)
			rnd[k] = abc[v % (sizeof(abc) - 1)];
		rnd[6] = '\0';
		n = snprintf(buf, len, "%s%s%s", prefix, rnd, suffix);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/*
 * The temporary beside path: DIR/NAME.tmp.<pid>.<random>, NAME cut to
 * OUTFILE_TMP_NAME bytes (at a UTF-8 character's start) so that the
 * temporary's name fits NAME_MAX whenever the target's does.
 */
static int create_tmp(const char *path, mode_t mode, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t blen = strlen(base);
	char prefix[PATH_MAX];

	if (blen > OUTFILE_TMP_NAME) {
		blen = OUTFILE_TMP_NAME;
		while (blen && ((unsigned char)base[blen] & 0xc0) == 0x80)
			blen--;
	}
	if (snprintf(prefix, sizeof(prefix), "%.*s%.*s.tmp.%d.", (int)(base - path), path,
		     (int)blen, base, (int)getpid()) >= (int)sizeof(prefix))
		return -ENAMETOOLONG;
	return create_unique(buf, len, prefix, "", mode);
}

/*
 * The file path names once its symlinks are followed (a path whose last
 * component is no symlink: it may not exist): 0, or -errno (ELOOP,
 * ENAMETOOLONG, or lstat's).
 */
static int resolve_links(const char *path, char *buf, size_t len)
{
	char link[PATH_MAX], next[PATH_MAX];
	struct stat st;

	if (snprintf(buf, len, "%s", path) >= (int)len)
		return -ENAMETOOLONG;
	for (int hops = 0; hops < 40; hops++) {
		const char *slash;
		ssize_t n;

		if (lstat(buf, &st))
			return errno == ENOENT ? 0 : -errno;
		if (!S_ISLNK(st.st_mode))
			return 0;
		n = readlink(buf, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		slash = strrchr(buf, '/');
		if (link[0] == '/' || !slash)
			n = snprintf(next, sizeof(next), "%s", link);
		else
			n = snprintf(next, sizeof(next), "%.*s%s", (int)(slash + 1 - buf), buf,
				     link);
		if (n >= (ssize_t)sizeof(next) || snprintf(buf, len, "%s", next) >= (int)len)
			return -ENAMETOOLONG;
	}
	return -ELOOP;
}

/*
 * What writing path replaces: target is path, or for a symlink to a
 * regular file that file (realpath: /proc's fd links too), or for a
 * dangling one the missing file it names. *st and 0 when it exists, 1 when
 * it does not, or -errno.
 */
static int outfile_target(const char *path, char *target, size_t len, struct stat *st)
{
	struct stat lst;
	char real[PATH_MAX];
	int r;

	if (!stat(path, st)) {
		if (S_ISREG(st->st_mode) && !lstat(path, &lst) && S_ISLNK(lst.st_mode)) {
			if (!realpath(path, real))
				return -errno;
			path = real;
		}
		return snprintf(target, len, "%s", path) >= (int)len ? -ENAMETOOLONG : 0;
	}
	if (errno != ENOENT)
		return -errno;
	r = resolve_links(path, target, len);
	return r ? r : 1;
}

/* The signals that end a process: held while a temporary exists, so none leaves one behind. */
static void hold_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void release_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Can path's directory take the temporary that replaces path? 0, or -errno. */
static int try_tmp(const char *path)
{
	char tmp[PATH_MAX];
	sigset_t old;
	int fd;

	hold_signals(&old);
	fd = create_tmp(path, 0600, tmp, sizeof(tmp));
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	release_signals(&old);
	return fd < 0 ? fd : 0;
}

/* "PATH: reason" for a temporary that cannot be made beside an existing target. */
static int fail_tmp(struct err *err, const char *path, int e)
{
	return err_set(err, -e, "%s: cannot create a file in its directory: %s",
			 path, strerror(e));
}

int outfile_check(const char *path, struct err *err)
{
	char target[PATH_MAX];
	struct stat st;
	int fd, r;

	if (!strcmp(path, "-"))
		return fcntl(STDOUT_FILENO, F_GETFL) < 0 ? fail(err, "stdout", errno) : 0;
	if (!*path)
		return fail(err, "''", ENOENT);
	r = outfile_target(path, target, sizeof(target), &st);
	if (r < 0)
		return fail(err, path, -r);
	if (r) {
		/* A new file: can its directory take one? */
		r = try_tmp(target);
		return r ? fail(err, path, -r) : 0;
	}
	if (S_ISDIR(st.st_mode))
		return fail(err, path, EISDIR);
	if (S_ISFIFO(st.st_mode))
		return 0;	/* opening it would wait for a reader */
	/* An existing file or device: may we open it for writing (no O_TRUNC)? */
	fd = open(target, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fail(err, path, errno);
	close(fd);
	/* A regular file is replaced: its directory must take the temporary. */
	r = S_ISREG(st.st_mode) ? try_tmp(target) : 0;
	return r ? fail_tmp(err, path, -r) : 0;
}

/* A target (last component no symlink) with its directory made canonical, for comparing names. */
static void canonical_name(const char *target, char *buf, size_t len)
{
	const char *slash = strrchr(target, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - target) : 1, slash ? target : ".");
	if (slash == target)
		snprintf(dir, sizeof(dir), "/");
	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	snprintf(buf, len, "%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : target);
}

int outfile_same(const char *out, const char *other)
{
	char t1[PATH_MAX], t2[PATH_MAX], c1[PATH_MAX], c2[PATH_MAX];
	struct stat s1, s2;
	int r1, r2;

	if (!strcmp(out, "-") || !strcmp(other, "-"))
		return !strcmp(out, other);
	r1 = outfile_target(out, t1, sizeof(t1), &s1);
	r2 = outfile_target(other, t2, sizeof(t2), &s2);
	if (r1 < 0 || r2 < 0)
		return 0;	/* the write or the read fails on its own, with its own line */
	if (!r1 && !r2)
		return S_ISREG(s1.st_mode) && s1.st_dev == s2.st_dev && s1.st_ino == s2.st_ino;
	if (r1 != r2)
		return 0;	/* one exists, the other does not */
	canonical_name(t1, c1, sizeof(c1));
	canonical_name(t2, c2, sizeof(c2));
	return !strcmp(c1, c2);
}

/*
 * The stream's write: record the first error's errno. EINTR is one: it
 * comes only when a handler installed without SA_RESTART ran (the cli's
 * stop), and a write blocked on a FIFO nobody reads must end with it.
 */
static ssize_t outfile_cookie_write(void *cookie, const char *buf, size_t n)
{
	struct outfile *o = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(o->fd, buf + done, n - done);

		if (w <= 0) {
			if (!o->err)
				o->err = w < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

static int outfile_cookie_close(void *cookie)
{
	struct outfile *o = cookie;

	if (o->own_fd && close(o->fd) && !o->err)
		o->err = errno;
	o->own_fd = false;
	return o->err ? -1 : 0;
}

static int outfile_stream(struct outfile *o, int fd, bool own, struct err *err)
{
	static const cookie_io_functions_t io = {
		.write = outfile_cookie_write,
		.close = outfile_cookie_close,
	};
	struct stat st;

	o->fd = fd;
	o->own_fd = own;
	o->sync = !fstat(fd, &st) && S_ISREG(st.st_mode);
	o->f = fopencookie(o, "w", io);
	if (!o->f) {
		int e = errno ? errno : ENOMEM;

		if (own)
			close(fd);
		if (o->tmp[0])
			unlink(o->tmp);
		o->tmp[0] = '\0';
		if (o->held)
			release_signals(&o->oldmask);
		o->held = false;
		return fail(err, o->path, e);
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, struct err *err)
{
	struct stat st;
	int fd, r;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!strcmp(path, "-")) {
		/* What the command printed before must come first. */
		if (fflush(stdout))
			return fail(err, "stdout", errno);
		return outfile_stream(o, STDOUT_FILENO, false, err);
	}
	if (!*path)
		return fail(err, "''", ENOENT);
	/* Through a symlink: its target is replaced, the link stays. */
	r = outfile_target(path, o->target, sizeof(o->target), &st);
	if (r < 0)
		return fail(err, path, -r);
	if (!r && S_ISDIR(st.st_mode))
		return fail(err, path, EISDIR);
	if (!r && !S_ISREG(st.st_mode)) {
		/* A device or FIFO (/dev/null, /dev/stdout's terminal): written in place. */
		fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return fail(err, path, errno);
		return outfile_stream(o, fd, true, err);
	}
	/* A new or regular file: never in place; without a temporary, nothing is touched. */
	hold_signals(&o->oldmask);
	o->held = true;
	fd = create_tmp(o->target, r ? 0666 : (st.st_mode & 07777), o->tmp, sizeof(o->tmp));
	if (fd < 0) {
		o->tmp[0] = '\0';
		release_signals(&o->oldmask);
		o->held = false;
		return r ? fail(err, path, -fd) : fail_tmp(err, path, -fd);
	}
	if (!r)
		(void)fchmod(fd, st.st_mode & 07777);	/* as the file it replaces, not umask */
	return outfile_stream(o, fd, true, err);
}

int outfile_open_unique(struct outfile *o, const char *prefix, const char *suffix,
			struct err *err)
{
	const char *dir = getenv("TMPDIR");
	char pfx[PATH_MAX];
	int fd;

	memset(o, 0, sizeof(*o));
	if (!dir || !*dir)
		dir = "/tmp";
	o->path = o->name;
	if (snprintf(pfx, sizeof(pfx), "%s/%s", dir, prefix) >= (int)sizeof(pfx))
		return fail(err, dir, ENAMETOOLONG);
	fd = create_unique(o->name, sizeof(o->name), pfx, suffix, 0600);
	if (fd < 0)
		return fail(err, dir, -fd);
	return outfile_stream(o, fd, true, err);
}

/* Make the rename durable; best effort (the data itself is already synced). */
static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int outfile_commit(struct outfile *o, struct err *err)
{
	int e;

	if (fflush(o->f) && !o->err)
		o->err = EIO;
	if (ferror(o->f) && !o->err)
		o->err = EIO;
	/* EINVAL: this file cannot be synced (e.g. in /proc); nothing to wait for. */
	if (!o->err && o->sync && fsync(o->fd) && errno != EINVAL)
		o->err = errno;
	fclose(o->f);		/* closes the fd; its error lands in o->err */
	o->f = NULL;
	e = o->err;
	if (!e && o->tmp[0] && rename(o->tmp, o->target))
		e = errno;
	if (e && o->tmp[0])
		unlink(o->tmp);
	if (!e && o->tmp[0])
		sync_dir(o->target);
	o->tmp[0] = '\0';
	if (o->held)
		release_signals(&o->oldmask);
	o->held = false;
	return e ? fail(err, o->path, e) : 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
	if (o->held)
		release_signals(&o->oldmask);
	o->held = false;
}
