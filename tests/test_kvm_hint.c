// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kvm_hint.c - what exitscope tells a user whose KVM device will not
 * open (cli/kvm_hint.c), for each case a newcomer meets, on made-up facts:
 * a wrong --kvm-dev, the kvm module not loaded (VMX, SVM, neither: a cloud
 * VM without nested virtualization), no node in a container, a node no
 * driver serves, no backend that registered the device, a file that is no device, root refused by a container, a
 * user outside the node's group, a node only its owner may open. Then the
 * facts this host gives for a missing path and for the default device.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/kvm_hint.c"	/* the unit under test, linked in directly */
#include "tests/tap.h"

static void hint_is(int r, const struct cli_kvm_facts *f, const char *want, const char *name)
{
	char buf[400];
	const char *h = cli_kvm_hint(r, f, buf, sizeof(buf));

	ok(h && strstr(h, want) && !strchr(h, '\n') && strlen(h) < sizeof(buf) - 1, "%s: '%s'", name, h ? h : "(none)");
	if (!h || !strstr(h, want))
		diag("  want it to contain '%s'", want);
}

int main(void)
{
	struct cli_kvm_facts f = { .path = "/dev/kvm" }, g;
	char buf[400];

	f = (struct cli_kvm_facts){ .path = "/tmp/kvm", .other_path = true, .kvm_loaded = true };
	hint_is(-ENOENT, &f, "--kvm-dev or EXITSCOPE_KVM_DEV names no such file: give KVM's device node, usually /dev/kvm",
		"a --kvm-dev that names nothing");
	f = (struct cli_kvm_facts){ .path = "/dev/kvm", .vendor_module = "kvm_intel" };
	hint_is(-ENOENT, &f, "the kvm module is not loaded: as root, modprobe kvm_intel", "no kvm module, VMX");
	f.vendor_module = "kvm_amd";
	hint_is(-ENOENT, &f, "modprobe kvm_amd", "no kvm module, SVM");
	f.vendor_module = NULL;
	hint_is(-ENOENT, &f, "the CPU shows no VMX or SVM (/proc/cpuinfo): on a cloud VM choose an instance type "
		"with nested virtualization", "no kvm module, no VMX or SVM (a cloud VM without nesting)");
	f = (struct cli_kvm_facts){ .path = "/dev/kvm", .kvm_loaded = true };
	hint_is(-ENOENT, &f, "in a container pass it in (docker run --device /dev/kvm), else as root: "
		"mknod /dev/kvm c 10 232", "kvm loaded, no node (a container)");
	f.no_backend = true;
	hint_is(-ENOENT, &f, "the kvm module is loaded but no backend registered the device",
		"kvm loaded, no device registered (/sys/class/misc has no kvm)");
	f.no_backend = false;
	f.exists = f.chardev = true;
	hint_is(-ENXIO, &f, "no driver serves this node: give KVM's (character device 10,232, usually /dev/kvm)",
		"a node no driver serves");

	f = (struct cli_kvm_facts){ .path = "/tmp/f", .other_path = true, .exists = true };
	hint_is(-EACCES, &f, "/tmp/f is not a device node: --kvm-dev wants KVM's, usually /dev/kvm",
		"permission denied on a plain file");
	f = (struct cli_kvm_facts){ .path = "/dev/kvm", .exists = true, .chardev = true, .root = true,
				    .group_rw = true, .group = "kvm" };
	hint_is(-EPERM, &f, "root is refused: a container's device list must allow it (docker run --device /dev/kvm)",
		"root refused (a container's device cgroup)");
	f = (struct cli_kvm_facts){ .path = "/dev/kvm", .exists = true, .chardev = true, .group_rw = true,
				    .group = "kvm", .owner = "root", .user = "alice" };
	hint_is(-EACCES, &f, "user 'alice' is not in its group 'kvm': as root, usermod -aG kvm alice, then log in "
		"again; or run as root", "not root, not in group kvm");
	f.group_rw = false;
	hint_is(-EACCES, &f, "only its owner 'root' may open it: run as root", "a node only its owner may open");
	f = (struct cli_kvm_facts){ .path = "/x/kvm", .other_path = true };
	hint_is(-EACCES, &f, "a directory on the way to it is closed to this user: run as root",
		"a closed directory on the way");
	tap_is_str(cli_kvm_hint(-EBUSY, &f, buf, sizeof(buf)), "", "any other errno: no hint (the caller says more)");

	cli_kvm_facts("/nonexistent/kvm", &g);
	ok(!strcmp(g.path, "/nonexistent/kvm") && g.other_path && !g.exists && !g.chardev,
	   "facts: a missing --kvm-dev path is another path, not there");
	cli_kvm_facts(NULL, &g);
	ok(!strcmp(g.path, "/dev/kvm") && !g.other_path, "facts: no path is the default /dev/kvm");
	if (g.exists)
		ok(g.chardev && g.kvm_loaded, "facts: this host's /dev/kvm is a device node and the kvm module is loaded");
	else if (!access("/sys/class/misc", F_OK) && access("/sys/class/misc/kvm", F_OK) && g.kvm_loaded)
		ok(g.no_backend, "facts: kvm loaded, /sys/class/misc has no kvm: no backend");
	else
		skip("no /dev/kvm here");
	return done_testing();
}
