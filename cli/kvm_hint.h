/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kvm_hint.h - what to do when the KVM device cannot be opened: the facts
 * that decide it (the node, its group, the kvm module, the CPU's VMX/SVM
 * flag) and the one clause cli_kvm_error puts after the errno.
 */
#ifndef EXITSCOPE_CLI_KVM_HINT_H
#define EXITSCOPE_CLI_KVM_HINT_H

#include <stdbool.h>
#include <stddef.h>

struct cli_kvm_facts {
	const char *path;	/* the device tried */
	bool other_path;	/* not the default /dev/kvm: --kvm-dev or $EXITSCOPE_KVM_DEV named it */
	bool exists, chardev;	/* what stat() says of it */
	bool group_rw;		/* its group may read and write it */
	char group[32];		/* its group's name, "" if unknown */
	char owner[32];		/* its owner's name, "" if unknown */
	char user[32];		/* who we are */
	bool root;		/* uid 0 */
	bool kvm_loaded;	/* /sys/module/kvm */
	bool no_backend;	/* /sys/class/misc lists no kvm: no vendor module registered the device */
	const char *vendor_module;	/* kvm_intel (CPU has VMX), kvm_amd (SVM), NULL: neither */
};

/* The facts about path (NULL: the default device) on this host. */
void cli_kvm_facts(const char *path, struct cli_kvm_facts *f);
/* What to do about open()'s -errno r given f, into buf (one clause, no newline); buf. */
const char *cli_kvm_hint(int r, const struct cli_kvm_facts *f, char *buf, size_t len);

#endif
