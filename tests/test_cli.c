// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli.c - the exitscope command line contract of the core: usage errors
 * exit 2, an unusable KVM (a missing path, a file that is not KVM, a file
 * or node this user may not open) gives one line saying what to do and exit
 * 3, `info --json` is a valid result file naming the backend and the guest
 * execution mode; an option row's bounds or names error is one line in the
 * common wording, and --help prints each row's default.
 */
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/array_size.h"
#include "harness/rounds.h"
#include "map/map.h"
#include "method/method.h"
#include "results/schema.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * --kvm-dev at what this user may not open: a plain file (mode 000), and
 * copies of the KVM node closed to all but the owner (0600) or open to its
 * group (0660). Each says why and what to do, in one line. As root the
 * test runs exitscope without the capabilities that pass file modes
 * (setpriv), or as nobody for the nodes.
 */
static void test_unreadable(const char *exe)
{
	static const struct { const char *name; int mode; bool node; const char *want; } cases[] = {
		{ "plain", 0, false, "is not a device node: --kvm-dev wants KVM's, usually /dev/kvm" },
		{ "node600", 0600, true, "only its owner 'root' may open it: run as root" },
		{ "node660", 0660, true, "user 'nobody' is not in its group '" },
	};
	char dir[] = "/tmp/exitscope-cli-dev-XXXXXX", path[256], want[400];
	struct stat st;
	struct run_result r;

	if (!mkdtemp(dir) || chmod(dir, 0755)) {
		tap_skip(3, "no temp dir");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bool root = getuid() == 0, made;

		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].name);
		if (cases[i].node)
			made = root && !stat("/dev/kvm", &st) && !mknod(path, S_IFCHR | 0600, st.st_rdev) &&
			       !chown(path, 0, st.st_gid) && !chmod(path, (mode_t)cases[i].mode);
		else
			made = (close(open(path, O_CREAT | O_WRONLY, 0600)), !chmod(path, 0));
		if (!made || (root && access("/usr/bin/setpriv", X_OK))) {
			tap_skip(1, cases[i].node ? "needs root, setpriv and /dev/kvm to copy the node"
						  : "cannot make the file, or root without setpriv");
			unlink(path);
			continue;
		}
		if (!root)
			run_cmd(&r, (const char *const[]){ exe, "info", "--kvm-dev", path, NULL });
		else if (cases[i].node)
			run_cmd(&r, (const char *const[]){ "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
							   exe, "info", "--kvm-dev", path, NULL });
		else
			run_cmd(&r, (const char *const[]){ "setpriv", "--bounding-set=-dac_override,-dac_read_search",
							   exe, "info", "--kvm-dev", path, NULL });
		snprintf(want, sizeof(want), "exitscope info: cannot open %s: Permission denied; ", path);
		if (!tap_ok(r.status == 3 && count_lines(r.err) == 1 && !strncmp(r.err, want, strlen(want)) &&
			    strstr(r.err, cases[i].want), "--kvm-dev at a %s closed to us (%s): exit 3, one line, what to do",
			    cases[i].node ? "copy of the KVM node" : "plain file", cases[i].name))
			tap_diag("  exit %d: %s", r.status, r.err);
		run_free(&r);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * The bound option rows through the binary: a bounded or enum option's
 * error is one line in the common wording, and --help gives each default
 * from its row (the figures from the headers that define them).
 */
static void test_bound_rows(const char *exe)
{
	static const struct { const char *args[5], *line; } bad[] = {
		{ { "run", "--rounds", "0" }, "exitscope run: --rounds wants an integer 1-%d, not '0'\n" },
		{ { "run", "--method", "v3" }, "exitscope run: --method wants v1 or v2, not 'v3'\n" },
		{ { "run", "--precision-floor", "x" },
		  "exitscope run: --precision-floor wants cycles 0-1000000000, not 'x'\n" },
		{ { "map", "--ops", "0" }, "exitscope map: --ops wants a count 1-1000000, not '0'\n" },
		{ { "export", "--format", "json", "x.json" },
		  "exitscope export: --format wants openmetrics or prometheus, not 'json'\n" },
		{ { "report", "--normalize", "q", "a.json" },
		  "exitscope report: --normalize wants auto, none or speed, not 'q'\n" },
	};
	char want[256];
	struct run_result r;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *const *a = bad[i].args;
		const char *nl;

		snprintf(want, sizeof(want), bad[i].line, LATENCY_MAX_ROUNDS);
		run_cmd(&r, (const char *const[]){ exe, a[0], a[1], a[2], a[3], a[4], NULL });
		nl = strchr(r.err, '\n');
		tap_ok(r.status == 2 && nl && !strncmp(r.err, want, (size_t)(nl - r.err) + 1) &&
		       strstr(nl, "Try 'exitscope "),
		       "%s %s %s: exit 2 (%d), the line '%.*s', then the hint to --help", a[0], a[1], a[2],
		       r.status, (int)strlen(want) - 1, want);
		run_free(&r);
	}
	run_cmd(&r, (const char *const[]){ exe, "run", "--help", NULL });
	snprintf(want, sizeof(want), "  --rounds N        v2: round-robin passes at most (1-%d, default %d)\n",
		 LATENCY_MAX_ROUNDS, METHOD_DEFAULT_ROUNDS);
	tap_ok(r.status == 0 && strstr(r.out, want) &&
	       strstr(r.out, "  --method v1|v2    measurement method (default v2)\n") &&
	       strstr(r.out, "its median (default 1)\n"),
	       "run --help: an unsigned row's bounds and default, an enum's and a double's default");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "map", "--help", NULL });
	snprintf(want, sizeof(want), "rounds per entry (1-100, default %d)\n", MAP_DEFAULT_ROUNDS);
	tap_ok(r.status == 0 && strstr(r.out, want), "map --help: --rounds' default from map.h");
	run_free(&r);
}

int main(void)
{
	const char *exe = getenv("EXITSCOPE");
	struct run_result r;
	char tmpl[] = "/tmp/exitscope-cli-XXXXXX", path[256];

	if (!exe)
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	tap_plan(51);

	run_cmd(&r, (const char *const[]){ exe, NULL });
	tap_is_u64(r.status, 2, "no command: exit 2");
	tap_like(r.err, "usage: exitscope <command>", "no command: usage on stderr");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "frobnicate", NULL });
	tap_is_u64(r.status, 2, "unknown command: exit 2");
	tap_like(r.err, "unknown command 'frobnicate'", "unknown command named");
	run_free(&r);

	/* An error line shows a control byte as \xNN and keeps valid UTF-8 (é) as it is. */
	run_cmd(&r, (const char *const[]){ exe, "r\033[31mun\xc3\xa9", NULL });
	tap_is_u64(r.status, 2, "unknown command with ESC and UTF-8: exit 2");
	tap_like(r.err, "exitscope: unknown command 'r\\x1b[31mun\xc3\xa9'\n",
		 "unknown command: ESC as \\x1b, UTF-8 kept, no raw ESC");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "run", "--x\033\xc3\xa9", NULL });
	tap_is_u64(r.status, 2, "unknown option with ESC and UTF-8: exit 2");
	tap_ok(strstr(r.err, "option '--x\\x1b\xc3\xa9'") && !strchr(r.err, '\033'),
	       "unknown option: ESC as \\x1b, UTF-8 kept, no raw ESC");
	run_free(&r);

	/* help's own usage, and --options without a command. */
	run_cmd(&r, (const char *const[]){ exe, "help", "--help", NULL });
	tap_ok(r.status == 0 && strstr(r.out, "usage: exitscope help [COMMAND]") && !*r.err,
	       "help --help: help's usage, exit 0 (%d)", r.status);
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "help", "--options", NULL });
	tap_ok(r.status == 2 && strstr(r.err, "exitscope help: --options needs a command") &&
	       !strstr(r.err, "unknown command") && !*r.out,
	       "help --options without a command: usage error that says so (%d)", r.status);
	run_free(&r);
	if (access("/dev/full", W_OK)) {
		tap_skip(1, "no /dev/full");
	} else {
		const struct run_opts full = { .stdout_path = "/dev/full" };

		run_cmd_opts(&r, (const char *const[]){ exe, "help", "run", NULL }, &full);
		tap_ok(r.status == 1 && !strcmp(r.err, "exitscope run: cannot write to stdout: "
						  "No space left on device\n"),
		       "help run > /dev/full: exit 1 (%d), one line with the errno: %s", r.status, r.err);
		run_free(&r);
	}

	run_cmd(&r, (const char *const[]){ exe, "info", "--bogus", NULL });
	tap_is_u64(r.status, 2, "bad option: exit 2");
	tap_like(r.err, "unknown or incomplete option '--bogus'", "bad option named");
	tap_like(r.err, "exitscope info --help", "bad option: points to --help");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "info", "surplus", NULL });
	tap_is_u64(r.status, 2, "surplus argument: exit 2");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "--help", NULL });
	tap_ok(r.status == 0 && strstr(r.out, "info"), "--help lists commands, exit 0");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "info", "--help", NULL });
	tap_ok(r.status == 0 && strstr(r.out, "usage: exitscope info"), "info --help, exit 0");
	run_free(&r);

	/* A missing KVM device, through the environment and through the option. */
	run_cmd(&r, (const char *const[]){ "env", "EXITSCOPE_KVM_DEV=/nonexistent/kvm", exe, "info", NULL });
	tap_is_u64(r.status, 3, "missing KVM device: exit 3");
	tap_like(r.err, "cannot open /nonexistent/kvm: No such file or directory", "says which device and why");
	tap_like(r.err, "; --kvm-dev or EXITSCOPE_KVM_DEV names no such file: give KVM's device node, usually /dev/kvm",
		 "and what to do: the path given is wrong");
	tap_is_u64(count_lines(r.err), 1, "in exactly one line");
	tap_is_str(r.out, "", "and prints nothing on stdout");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "run", "cpuid", "--kvm-dev", "/nonexistent/kvm", NULL });
	tap_ok(r.status == 3 && count_lines(r.err) == 1 && strstr(r.err, "exitscope run: cannot open /nonexistent/kvm: "
	       "No such file or directory; --kvm-dev or EXITSCOPE_KVM_DEV names no such file"),
	       "run --kvm-dev MISSING: exit 3, the same one line");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "info", "--kvm-dev", "/dev/null", NULL });
	tap_is_u64(r.status, 3, "a device that is not KVM: exit 3");
	tap_like(r.err, "/dev/null is not a KVM device (KVM_GET_API_VERSION: Inappropriate ioctl for device); "
		 "--kvm-dev wants KVM's device node, usually /dev/kvm", "says it is not KVM, and which to give");
	run_free(&r);
	test_unreadable(exe);
	test_bound_rows(exe);

	/* A lane record that lanes/init got wrong is a usage error, not "KVM unusable". */
	if (access("/dev/kvm", R_OK | W_OK) == 0) {
		run_cmd(&r, (const char *const[]){ "env", "EXITSCOPE_LANE=bogus", exe, "info", NULL });
		tap_is_u64(r.status, 2, "bad EXITSCOPE_LANE: exit 2");
		tap_is_str(r.err, "exitscope info: EXITSCOPE_LANE: 'bogus' is not one of vmx, svm\n",
			   "one line naming the variable and the values it takes");
		run_free(&r);
		run_cmd(&r, (const char *const[]){ "env", "EXITSCOPE_LANE=vmx", "EXITSCOPE_LANE_KERNEL=tiny",
			exe, "run", "cpuid", NULL });
		tap_is_u64(r.status, 2, "EXITSCOPE_LANE without its emulator: run exits 2");
		tap_like(r.err, "EXITSCOPE_LANE_EMULATOR: not set (EXITSCOPE_LANE is)", "and says which is missing");
		run_free(&r);
	} else {
		tap_skip(4, "no usable /dev/kvm: the lane record is read after the host's");
	}

	/* Permission denied: as an unprivileged user where we can become one. */
	if (getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0 && access("/dev/kvm", F_OK) == 0) {
		run_cmd(&r, (const char *const[]){ "setpriv", "--reuid=65534", "--regid=65534",
						   "--clear-groups", exe, "info", NULL });
		if (r.status == 3 && strstr(r.err, "Permission denied")) {
			tap_ok(1, "unprivileged user: exit 3 with Permission denied");
			tap_like(r.err, "; user 'nobody' is not in its group", "and what to do: join the group, or be root");
		} else if (r.status == 126 || r.status == 127 || strstr(r.err, "setpriv")) {
			tap_skip(2, "cannot run the binary as an unprivileged user here");
		} else {
			tap_ok(0, "unprivileged user: exit 3 with Permission denied (got %d: %s)", r.status, r.err);
			tap_skip(1, "previous test failed");
		}
		run_free(&r);
	} else {
		tap_skip(2, "needs root, setpriv and /dev/kvm to simulate EACCES");
	}

	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(9, "/dev/kvm is absent or not accessible");
		return tap_done();
	}
	/* info --json to stdout: a result file with a host record. */
	run_cmd(&r, (const char *const[]){ exe, "info", "--json", NULL });
	tap_is_u64(r.status, 0, "info --json: exit 0");
	{
		json_error_t je;
		json_t *root = json_loads(r.out, 0, &je);
		const char *module = NULL, *mode = NULL, *schema = NULL;
		int version = 0;

		tap_ok(root != NULL, "info --json output parses (%s)", root ? "ok" : je.text);
		json_unpack(root, "{s:s, s:i, s:{s:{s:s}, s:{s:s}}}", "schema", &schema,
			    "schema_version", &version, "host", "backend", "module", &module,
			    "execution", "mode", &mode);
		tap_ok(schema && !strcmp(schema, "exitscope-result") && version == RESULT_SCHEMA_VERSION,
		       "schema exitscope-result, the version this exitscope writes");
		tap_ok(module && (!strcmp(module, "kvm_intel") || !strcmp(module, "kvm_amd") ||
				  !strcmp(module, "kvm_pvm") || !strcmp(module, "other")),
		       "names the backend module (%s)", module ? module : "none");
		tap_ok(mode && (!strcmp(mode, "native") || !strcmp(mode, "emulated")),
		       "names an execution mode (%s)", mode ? mode : "none");
		if (module && !strcmp(module, "kvm_pvm"))
			tap_is_str(mode, "emulated", "kvm_pvm: guest execution is emulated");
		else
			tap_skip(1, "not a kvm_pvm host");
		json_decref(root);
	}
	run_free(&r);

	/*
	 * An emulating host: the warning says what the figures are, and where
	 * to get hardware ones (wrapped at 100 columns: joined again here).
	 */
	run_cmd(&r, (const char *const[]){ exe, "info", NULL });
	if (strstr(r.out, "\nguest execution emulated")) {
		char *o = r.out, *w = r.out;

		for (; *o; o++) {
			if (!strncmp(o, "\n         ", 10) && o[10] != ' ') {
				*w++ = ' ';
				o += 9;
			} else {
				*w++ = *o;
			}
		}
		*w = 0;
		tap_like(r.out, "\nwarning: guest code is emulated by the host KVM (every guest instruction is "
			 "emulated): figures are emulation costs, not hardware VM-exit costs; for those, run where "
			 "KVM is kvm_intel or kvm_amd (bare metal, or a VM with nested virtualization)\n",
			 "emulated guest execution: one warning, with where to measure hardware costs");
	} else
		tap_skip(1, "guest execution is native here: no emulation warning");
	run_free(&r);

	/* info --json FILE writes the file and still prints the text report. */
	if (!mkdtemp(tmpl)) {
		tap_skip(2, "no temp dir");
		return tap_done();
	}
	snprintf(path, sizeof(path), "%s/info.json", tmpl);
	run_cmd(&r, (const char *const[]){ exe, "info", "--json", path, NULL });
	tap_ok(r.status == 0 && strstr(r.out, "guest execution"), "info --json FILE prints the text report");
	{
		json_error_t je;
		json_t *root = json_load_file(path, 0, &je);

		tap_ok(root && json_object_get(root, "host"), "and writes a JSON file with the host record");
		json_decref(root);
	}
	run_free(&r);
	unlink(path);
	rmdir(tmpl);
	return tap_done();
}
