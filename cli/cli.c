// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - shared CLI helpers: error lines, exit codes, the KVM device path,
 * output checks before measuring and the checked end of every command.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/num.h"
#include "base/text.h"
#include "cli/cli.h"
#include "cli/kvm_hint.h"
#include "harness/suite_env.h"
#include "kvm/kvm.h"
#include "results/check_model.h"
#include "results/outfile.h"
#include "results/result_doc.h"
#include "results/result_read.h"
#include "host/hostinfo.h"

/*
 * "exitscope CMD: message" (cmd NULL: "exitscope: message") on stderr, as
 * one line whatever the message echoes: control characters and bytes that
 * are no UTF-8 (a binary input file's, a path's) are written as \xNN
 * (base/text.h).
 */
static void cli_vline(const char *cmd, const char *fmt, va_list ap)
{
	char buf[4096];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t left = n < 0 ? 0 : (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;

	if (cmd)
		fprintf(stderr, "exitscope %s: ", cmd);
	else
		fputs("exitscope: ", stderr);
	text_put(stderr, buf, left);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vline(cmd, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'exitscope %s --help'.\n", cmd);
	return EXIT_USAGE;
}

int cli_error(const char *cmd, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vline(cmd, fmt, ap);
	va_end(ap);
	return code;
}

int cli_parse_u64(const char *s, bool hex, uint64_t max, uint64_t *out)
{
	return num_parse_u64(s, hex, max, out);
}

int cli_parse_num(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	/* strtod also reads hexadecimal and hexadecimal exponents (0x5, 0x1p3): decimal only. */
	if (s[strspn(s, "0123456789.eE+-")])
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int cli_parse_pct(const char *s, double min, double max, double *out)
{
	size_t n = strlen(s);
	char *num;
	int r;

	if (!n || s[n - 1] != '%')
		return cli_parse_num(s, min, max, out);
	num = strndup(s, n - 1);
	if (!num)
		return -ENOMEM;
	r = cli_parse_num(num, min, max, out);
	free(num);
	return r;
}

int cli_kvm_path(const char *cmd, const char *opt, const char **path)
{
	const char *env = getenv("EXITSCOPE_KVM_DEV");

	*path = opt ? opt : env;
	/* Set but empty is a mistake (an unset variable in a script), never /dev/kvm. */
	if (*path && !**path)
		return cli_error(cmd, EXIT_USAGE,
				 "%s wants the path of KVM's device node (usually %s), not an "
				 "empty string", opt ? "--kvm-dev" : "EXITSCOPE_KVM_DEV",
				 KVM_DEFAULT_DEV);
	return EXIT_OK;
}

int cli_kvm_error(const char *cmd, const char *kvm_path, int r, const char *detail)
{
	struct cli_kvm_facts f;
	char hint[400];

	if (r == -ENOENT || r == -ENXIO || r == -ENODEV || r == -EACCES || r == -EPERM) {
		cli_kvm_facts(kvm_path, &f);
		return cli_error(cmd, EXIT_NOKVM, "cannot open %s: %s; %s", f.path, strerror(-r),
				 cli_kvm_hint(r, &f, hint, sizeof(hint)));
	}
	return cli_error(cmd, EXIT_NOKVM, "KVM unusable: %s",
			 detail && *detail ? detail : strerror(-r));
}

int cli_kvm_check(const char *cmd, const char *kvm_path)
{
	const char *path = kvm_path ? kvm_path : KVM_DEFAULT_DEV;
	int fd, r;

	fd = kvm_open(kvm_path);
	if (fd < 0)
		return cli_kvm_error(cmd, kvm_path, fd, NULL);
	r = kvm_api_version(fd);
	close(fd);
	if (r < 0)
		return cli_error(cmd, EXIT_NOKVM,
				 "%s is not a KVM device (KVM_GET_API_VERSION: %s); "
				 "--kvm-dev wants KVM's device node, usually %s", path,
				 strerror(-r), KVM_DEFAULT_DEV);
	if (r != KVM_API_VERSION)
		return cli_error(cmd, EXIT_NOKVM,
				 "%s is not a KVM device (KVM API version %d, want %d); --kvm-dev "
				 "wants KVM's device node, usually %s", path, r, KVM_API_VERSION,
				 KVM_DEFAULT_DEV);
	return EXIT_OK;
}

int cli_host_init(const char *cmd, const char *kvm_opt, struct hostinfo *hi,
		  struct suite_env *env)
{
	struct err err;
	int r;

	r = cli_kvm_path(cmd, kvm_opt, &env->kvm_path);
	if (!r)
		r = cli_kvm_check(cmd, env->kvm_path);
	if (r)
		return r;
	/* Armed before the first VM: from here on Ctrl-C stops, never kills. */
	cli_install_sigint();
	cli_ignore_sigpipe();
	env->stop = cli_stop_flag();
	r = hostinfo_collect(hi, env->kvm_path, &err);
	if (r)
		return cli_kvm_error(cmd, env->kvm_path, r, err.msg);
	r = cli_host_lane(cmd, hi);
	if (r)
		return r;
	env->hi = hi;
	return EXIT_OK;
}

int cli_host_lane(const char *cmd, struct hostinfo *hi)
{
	struct err err;

	if (hostinfo_lane_env(&hi->lane, &err))
		return cli_error(cmd, EXIT_USAGE, "%s", err.msg);
	return EXIT_OK;
}

int cli_output_check(const char *cmd, const char *path)
{
	struct err err;

	if (path && outfile_check(path, &err))
		return cli_error(cmd, EXIT_USAGE, "cannot write %s", err.msg);
	return EXIT_OK;
}

int cli_output_distinct(const char *cmd, const char *opt, const char *out,
			const char *const *paths, size_t n, const char *what)
{
	for (size_t i = 0; out && i < n; i++) {
		if (!paths[i] || !outfile_same(out, paths[i]))
			continue;
		if (!strcmp(out, "-"))
			return cli_error(cmd, EXIT_USAGE, "%s - and %s - both want stdout", opt,
					 what);
		return cli_error(cmd, EXIT_USAGE,
				 "%s %s is the same file as %s %s: refusing to overwrite it",
				 opt, out, what, paths[i]);
	}
	return EXIT_OK;
}

/*
 * stdout's state: 0, or the errno of its failure. stdio keeps only that a
 * write failed, and a long text (a --help) fails in the middle of the
 * printf, its errno long gone: ask the descriptor again. An empty write
 * fails as a full device does (ENOSPC); a pipe without a reader is one
 * that polls POLLERR (EPIPE). EIO only when nothing tells.
 */
static int stdout_error(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO, .events = POLLOUT };

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	if (errno)
		return errno;
	if (write(STDOUT_FILENO, "", 0) < 0)
		return errno;
	if (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR))
		return EPIPE;
	return EIO;
}

int cli_stdout_check_code(const char *cmd, int rc, int fail)
{
	int e = stdout_error();

	if (!e)
		return rc;
	return cli_error(cmd, fail, "cannot write to stdout: %s", strerror(e));
}

int cli_stdout_check(const char *cmd, int rc)
{
	return cli_stdout_check_code(cmd, rc, EXIT_FAIL);
}

void cli_stop_output(const struct outfile *o)
{
	/* Only a FIFO (or device) opened here: no other process shares its flags. */
	cli_stop_unblock(o && o->own_fd && !o->tmp[0] ? o->fd : -1);
}

int cli_stopped(const char *cmd, const char *what)
{
	int sig = *cli_stop_flag();

	if (!sig)
		return EXIT_OK;
	return cli_error(cmd, cli_stop_code(sig), "stopped by %s%s%s", cli_stop_name(sig),
			 what ? ": " : "", what ? what : "");
}

/* The result could not go where it should: keep it and say where, in one line. */
static int cli_keep(const char *cmd, const struct result_doc *doc, const char *why, int stop)
{
	char kept[PATH_MAX], sstop[64] = "";
	struct err err;

	if (stop)
		snprintf(sstop, sizeof(sstop), " (stopped by %s)", cli_stop_name(stop));
	if (!doc)
		return cli_error(cmd, EXIT_FAIL, "%s%s", why, sstop);
	if (result_doc_write_unique(doc, kept, sizeof(kept), &err))
		return cli_error(cmd, EXIT_FAIL, "%s%s; keeping the result failed too: %s", why,
				 sstop, err.msg);
	return cli_error(cmd, EXIT_FAIL, "%s%s; the result is kept in %s", why, sstop, kept);
}

/*
 * A stop signal came while the result was written to where (a FIFO without
 * a reader, a pipe that does not drain: the write returned EINTR): keep the
 * result and end as stopped.
 */
static int cli_keep_stopped(const char *cmd, const struct result_doc *doc, const char *where, int sig)
{
	char kept[PATH_MAX];
	struct err err;

	if (!doc || result_doc_write_unique(doc, kept, sizeof(kept), &err))
		return cli_error(cmd, EXIT_FAIL,
				 "stopped by %s while writing %s: the result is lost%s%s",
				 cli_stop_name(sig), where, doc ? ": " : "", doc ? err.msg : "");
	return cli_error(cmd, cli_stop_code(sig),
			 "stopped by %s while writing %s: the result is kept in %s",
			 cli_stop_name(sig), where, kept);
}

int cli_finish(const char *cmd, struct result_doc *doc, const char *json_path, int stop, int rc)
{
	char why[PATH_MAX + 192];
	struct err err;
	int e, late;

	cli_stop_finishing();
	e = stdout_error();
	late = *cli_stop_flag();
	if (e == EINTR && late) {
		/* The table was cut by the stop; the file still gets the result. */
		if (!json_path || !strcmp(json_path, "-") ||
		    result_doc_write(doc, json_path, cli_stop_output, &err))
			return cli_keep_stopped(cmd, doc,
						json_path && strcmp(json_path, "-") ? json_path :
						"stdout", late);
		return cli_error(cmd, cli_stop_code(late),
				 "stopped by %s while writing stdout: what was measured is in %s",
				 cli_stop_name(late), json_path);
	}
	if (e) {
		snprintf(why, sizeof(why), "cannot write to stdout: %s", strerror(e));
		/* The file still gets the result; keep it elsewhere only if it had none. */
		if (!json_path || !strcmp(json_path, "-"))
			return cli_keep(cmd, doc, why, stop);
		if (result_doc_write(doc, json_path, cli_stop_output, &err)) {
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "; cannot write %s",
				 err.msg);
			return cli_keep(cmd, doc, why, stop);
		}
		if (stop)
			return cli_error(cmd, EXIT_FAIL, "%s (stopped by %s) (the result is in %s)",
					 why, cli_stop_name(stop), json_path);
		return cli_error(cmd, EXIT_FAIL, "%s (the result is in %s)", why, json_path);
	}
	if (json_path && result_doc_write(doc, json_path, cli_stop_output, &err)) {
		late = *cli_stop_flag();
		/* A stop ends a blocked write: EINTR, or EAGAIN once cli_stop_output unblocked the FIFO. */
		if ((err.code == -EINTR || err.code == -EAGAIN) && late)
			return cli_keep_stopped(cmd, doc,
						strcmp(json_path, "-") ? json_path : "stdout",
						late);
		if (!strcmp(json_path, "-"))
			snprintf(why, sizeof(why), "cannot write to stdout: %s",
				 strerror(-err.code));
		else
			snprintf(why, sizeof(why), "cannot write %s", err.msg);
		return cli_keep(cmd, doc, why, stop);
	}
	if (stop) {
		if (json_path && strcmp(json_path, "-"))
			return cli_error(cmd, cli_stop_code(stop),
					 "stopped by %s: what was measured is in %s",
					 cli_stop_name(stop), json_path);
		return cli_error(cmd, cli_stop_code(stop),
				 "stopped by %s: what was measured is on stdout",
				 cli_stop_name(stop));
	}
	return rc;
}

int cli_finish_unmeasured(const char *cmd, const char *json_path, int stop)
{
	struct stat st;
	int e;

	if (!json_path || !strcmp(json_path, "-") || stat(json_path, &st) || !S_ISREG(st.st_mode))
		return -1;
	cli_stop_finishing();
	e = stdout_error();
	if (e)
		return cli_error(cmd, EXIT_FAIL,
				 "cannot write to stdout: %s (stopped by %s before anything "
				 "was measured; %s is left as it was)", strerror(e),
				 cli_stop_name(stop), json_path);
	return cli_error(cmd, cli_stop_code(stop),
			 "stopped by %s before anything was measured: %s is left as it was",
			 cli_stop_name(stop), json_path);
}

int cli_read_results(const char *cmd, const char *const *paths, size_t n, struct result_file **files)
{
	struct err err;

	for (size_t i = 0; i < n; i++) {
		files[i] = result_read_file(paths[i], &err);
		if (!files[i])
			return cli_error(cmd, EXIT_USAGE, "%s", err.msg);
	}
	return 0;
}

int cli_operand_add(const char *cmd, const char **paths, size_t *n, size_t max, const char *arg)
{
	if (*n == max)
		return cli_usage_error(cmd, "too many files (at most %zu)", max);
	paths[(*n)++] = arg;
	return EXIT_OK;
}

int cli_operands_end(const char *cmd, int argc, char **argv, const char **paths, size_t *n, size_t max)
{
	int rc;

	while (optind < argc) {
		rc = cli_operand_add(cmd, paths, n, max, argv[optind++]);
		if (rc)
			return rc;
	}
	if (*n == 0)
		return cli_usage_error(cmd, "need at least one result file");
	return EXIT_OK;
}
