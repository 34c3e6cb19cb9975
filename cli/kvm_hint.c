// SPDX-License-Identifier: GPL-2.0-only
/* kvm_hint.c - what to do when the KVM device cannot be opened (kvm_hint.h). */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/kvm_hint.h"
#include "host/cpu.h"
#include "kvm/kvm.h"

void cli_kvm_facts(const char *path, struct cli_kvm_facts *f)
{
	struct passwd *pw;
	struct group *gr;
	struct stat st;

	memset(f, 0, sizeof(*f));
	f->path = path ? path : KVM_DEFAULT_DEV;
	f->other_path = strcmp(f->path, KVM_DEFAULT_DEV) != 0;
	if (!stat(f->path, &st)) {
		f->exists = true;
		f->chardev = S_ISCHR(st.st_mode);
		f->group_rw = (st.st_mode & (S_IRGRP | S_IWGRP)) == (S_IRGRP | S_IWGRP);
		if ((gr = getgrgid(st.st_gid)))
			snprintf(f->group, sizeof(f->group), "%s", gr->gr_name);
		if ((pw = getpwuid(st.st_uid)))
			snprintf(f->owner, sizeof(f->owner), "%s", pw->pw_name);
	}
	f->root = geteuid() == 0;
	if ((pw = getpwuid(geteuid())))
		snprintf(f->user, sizeof(f->user), "%s", pw->pw_name);
	f->kvm_loaded = !access("/sys/module/kvm", F_OK);
	f->no_backend = f->kvm_loaded && !access("/sys/class/misc", F_OK) &&
			access("/sys/class/misc/kvm", F_OK);
	f->vendor_module = host_cpuinfo_flag("vmx") ? "kvm_intel" :
			   host_cpuinfo_flag("svm") ? "kvm_amd" : NULL;
}

/* No node, or one no driver serves. */
static const char *hint_absent(const struct cli_kvm_facts *f, char *buf, size_t len)
{
	if (f->other_path && !f->exists)
		snprintf(buf, len, "--kvm-dev or EXITSCOPE_KVM_DEV names no such file: give KVM's "
			 "device node, usually %s", KVM_DEFAULT_DEV);
	else if (!f->kvm_loaded && f->vendor_module)
		snprintf(buf, len, "the kvm module is not loaded: as root, modprobe %s",
			 f->vendor_module);
	else if (!f->kvm_loaded)
		snprintf(buf, len,
			 "the CPU shows no VMX or SVM (/proc/cpuinfo): on a cloud VM choose an "
			 "instance type with nested virtualization, on bare metal enable it in the "
			 "firmware");
	else if (!f->exists && f->no_backend)
		snprintf(buf, len,
			 "the kvm module is loaded but no backend registered the device (the "
			 "kernel log says why: no VMX/SVM enabled, or a nested backend that does "
			 "not bind here): KVM cannot be used on this host");
	else if (!f->exists)
		snprintf(buf, len, "the kvm module is loaded but there is no device node: in a "
			 "container pass it in (docker run --device %s), else as root: mknod %s c "
			 "10 232", KVM_DEFAULT_DEV, f->path);
	else
		snprintf(buf, len, "no driver serves this node: give KVM's (character device "
			 "10,232, usually %s)", KVM_DEFAULT_DEV);
	return buf;
}

/* The node is there but closed to us. */
static const char *hint_denied(const struct cli_kvm_facts *f, char *buf, size_t len)
{
	if (f->exists && !f->chardev)
		snprintf(buf, len, "%s is not a device node: --kvm-dev wants KVM's, usually %s",
			 f->path, KVM_DEFAULT_DEV);
	else if (f->exists && f->root)
		snprintf(buf, len, "root is refused: a container's device list must allow it "
			 "(docker run --device %s)", f->path);
	else if (f->exists && f->group_rw && f->group[0])
		snprintf(buf, len,
			 "user '%s' is not in its group '%s': as root, usermod -aG %s %s, then log "
			 "in again; or run as root", f->user[0] ? f->user : "?", f->group, f->group,
			 f->user[0] ? f->user : "$USER");
	else if (f->exists)
		snprintf(buf, len, "only its owner%s%s%s may open it: run as %s",
			 f->owner[0] ? " '" : "", f->owner, f->owner[0] ? "'" : "",
			 f->owner[0] ? f->owner : "root");
	else
		snprintf(buf, len,
			 "a directory on the way to it is closed to this user: run as root");
	return buf;
}

const char *cli_kvm_hint(int r, const struct cli_kvm_facts *f, char *buf, size_t len)
{
	if (!len)
		return buf;
	buf[0] = 0;
	if (r == -ENOENT || r == -ENXIO || r == -ENODEV)
		return hint_absent(f, buf, len);
	if (r == -EACCES || r == -EPERM)
		return hint_denied(f, buf, len);
	return buf;
}
