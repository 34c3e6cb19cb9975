/* cli.c - shared CLI helpers: error lines, exit codes, the KVM device path. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "suites/suite_env.h"
#include "kvm/kvm.h"
#include "results/check.h"
#include "host/hostinfo.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "exitscope %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'exitscope %s --help'.\n", cmd);
	return EXIT_USAGE;
}

int cli_error(const char *cmd, int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "exitscope %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return code;
}

const char *cli_kvm_path(const char *opt)
{
	const char *env = getenv("EXITSCOPE_KVM_DEV");

	if (opt && *opt)
		return opt;
	return env && *env ? env : NULL;
}

int cli_kvm_error(const char *cmd, const char *kvm_path, int r, const char *detail)
{
	const char *path = kvm_path ? kvm_path : KVM_DEFAULT_DEV;

	if (r == -ENOENT || r == -ENXIO || r == -ENODEV)
		return cli_error(cmd, EXIT_NOKVM,
				 "cannot open %s: %s (is KVM enabled and the kvm module loaded?)",
				 path, strerror(-r));
	if (r == -EACCES || r == -EPERM)
		return cli_error(cmd, EXIT_NOKVM,
				 "cannot open %s: %s (run as root or join the group that owns it, usually 'kvm')",
				 path, strerror(-r));
	return cli_error(cmd, EXIT_NOKVM, "KVM unusable: %s", detail && *detail ? detail : strerror(-r));
}

int cli_kvm_check(const char *cmd, const char *kvm_path)
{
	int fd = kvm_open(kvm_path);

	if (fd < 0)
		return cli_kvm_error(cmd, kvm_path, fd, NULL);
	if (kvm_api_version(fd) != KVM_API_VERSION) {
		close(fd);
		return cli_error(cmd, EXIT_NOKVM, "%s is not a KVM device (KVM_GET_API_VERSION failed)",
				 kvm_path ? kvm_path : KVM_DEFAULT_DEV);
	}
	close(fd);
	return EXIT_OK;
}

int cli_host_init(const char *cmd, const char *kvm_opt, struct hostinfo *hi,
		  struct suite_env *env)
{
	char err[512];
	int r;

	env->kvm_path = cli_kvm_path(kvm_opt);
	r = cli_kvm_check(cmd, env->kvm_path);
	if (r)
		return r;
	r = hostinfo_collect(hi, env->kvm_path, err, sizeof(err));
	if (r)
		return cli_kvm_error(cmd, env->kvm_path, r, err);
	env->hi = hi;
	cli_install_sigint();
	env->stop = cli_stop_flag();
	return EXIT_OK;
}
