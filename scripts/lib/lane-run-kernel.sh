# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-run-kernel.sh - sourced by scripts/lane-run: the kernel to boot
# (stock, the cached tiny kernel from scripts/lane-build-kernel, or a given
# bzImage) checked for KVM, its modules, config, System.map for the profile,
# and the source package a cached tiny kernel was built from.

# --- step: kernel ---------------------------------------------------------
modules=()
kconfig=
patch_names=
for v in LANE_PATCHES LANE_SOURCE LANE_REV; do
	if [ -n "${!v:-}" ] && [ "$kernel_kind" != tiny ]; then
		fail kernel "$v needs LANE_KERNEL=tiny (or unset), not '$kernel_arg'"
	fi
done
case $kernel_kind in
stock)
	vmlinuz=$(ls /boot/vmlinuz-6.1.*-amd64 2>/dev/null | sort -V | tail -n 1)
	[ -n "$vmlinuz" ] && [ -r "$vmlinuz" ] ||
		fail kernel "no readable /boot/vmlinuz-6.1.*-amd64 (apt-get install linux-image-amd64)"
	kver=${vmlinuz#/boot/vmlinuz-}
	moddir=/lib/modules/$kver
	[ -r "$moddir/modules.dep" ] || fail kernel "$moddir/modules.dep missing"
	if [ "$lane" = vmx ]; then modules=(irqbypass kvm kvm-intel); else modules=(irqbypass ccp kvm kvm-amd); fi
	kconfig=/boot/config-$kver
	;;
tiny)
	vmlinuz=$(LANE_PATCHES=${LANE_PATCHES:-} LANE_SOURCE=${LANE_SOURCE:-} LANE_REV=${LANE_REV:-} \
		nice "$top/scripts/lane-build-kernel" 2> "$out/kernel-build.log" | tail -n 1)
	if [ -z "$vmlinuz" ] || [ ! -r "$vmlinuz" ]; then
		why=$(grep -m1 "^lane-build-kernel: step" "$out/kernel-build.log" | sed 's/^lane-build-kernel: //')
		fail kernel "scripts/lane-build-kernel: ${why:-$(tail -n 1 "$out/kernel-build.log")} (log: $out/kernel-build.log)"
	fi
	kconfig=$(dirname "$vmlinuz")/config
	[ -r "$(dirname "$vmlinuz")/patches.list" ] &&
		patch_names=$(grep -v '^$' "$(dirname "$vmlinuz")/patches.list" | paste -sd:)
	;;
path)
	vmlinuz=$kernel_arg
	[ -f "$vmlinuz" ] && [ -r "$vmlinuz" ] || fail kernel "$vmlinuz: no such readable file"
	# A bzImage carries "HdrS" at offset 0x202 (the x86 boot protocol).
	[ "$(dd if="$vmlinuz" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] ||
		fail kernel "$vmlinuz: not an x86 bzImage (no HdrS boot header)"
	# Its .config, when it sits next to it (cache layout or a build tree).
	for c in "$(dirname "$vmlinuz")/config" "$(dirname "$vmlinuz")/.config" \
		"$(dirname "$vmlinuz")/../../../.config"; do
		[ -r "$c" ] && { kconfig=$c; break; }
	done
	if [ -n "$kconfig" ]; then
		[ "$lane" = vmx ] && want=CONFIG_KVM_INTEL || want=CONFIG_KVM_AMD
		for o in CONFIG_KVM $want; do
			grep -qx "$o=y" "$kconfig" ||
				fail kernel "$vmlinuz: its config $kconfig has no $o=y (the lane needs KVM built in)"
		done
	fi
	;;
esac
# The kernel's symbol table, for the profile.
system_map=
if [ -n "$profile" ]; then
	case $kernel_kind in
	stock) system_map=/boot/System.map-$kver ;;
	*) system_map=$(dirname "$vmlinuz")/System.map ;;
	esac
	system_map=${LANE_SYSTEM_MAP:-$system_map}
	[ -r "$system_map" ] || { note "no exit-path profile: no symbol table $system_map (LANE_SYSTEM_MAP names one)"; system_map=; }
fi
config_sha=
[ -n "$kconfig" ] && [ -r "$kconfig" ] && config_sha=$(sha256sum < "$kconfig" | cut -d' ' -f1)
# The source a cached tiny kernel was built from: "PACKAGE VERSION SHA256".
source_pkg= source_ver= source_sha=
if [ "$kernel_kind" != stock ] && [ -r "$(dirname "$vmlinuz")/source" ]; then
	read -r source_pkg source_ver source_sha _ < "$(dirname "$vmlinuz")/source" || :
fi
kernel_source=${source_pkg:+$source_pkg $source_ver}
# A kernel built from a tree of yours (LANE_SOURCE=PATH): its source-tree
# line is "git REPO HASH [+diff SHA256]" or "dir PATH listing FP"
# (scripts/lane-build-kernel). The record's source is at most 127
# characters (exitscope's host record): "git REPO HASH" with "+diff" and the
# diff's sha256 cut to 16 digits (all 64 in the source's sha256), REPO cut
# from the left ("...") when it is too long.
if [ "$kernel_kind" != stock ] && [ -r "$(dirname "$vmlinuz")/source-tree" ]; then
	t=$(head -n 1 "$(dirname "$vmlinuz")/source-tree")
	t_path="" t_tail="" source_sha=""
	if [[ $t =~ ^git\ (.*)\ ([0-9a-f]{40})(\ \+diff\ ([0-9a-f]{64}))?$ ]]; then
		t_kind=git t_path=${BASH_REMATCH[1]} t_tail=${BASH_REMATCH[2]}
		source_sha=${BASH_REMATCH[4]}
		[ -n "$source_sha" ] && t_tail="$t_tail +diff ${source_sha:0:16}"
	elif [[ $t =~ ^dir\ (.*)\ (listing\ [0-9a-f]+)$ ]]; then
		t_kind=dir t_path=${BASH_REMATCH[1]} t_tail=${BASH_REMATCH[2]}
	fi
	if [ -n "$t_path" ]; then
		room=$((127 - ${#t_kind} - ${#t_tail} - 2))
		[ ${#t_path} -le $room ] || t_path="...${t_path: -$((room - 3))}"
		kernel_source="$t_kind $t_path $t_tail"
	else
		kernel_source=${t:0:127}
	fi
fi
note "kernel $vmlinuz (${kernel_kind}${kernel_source:+, $kernel_source}${patch_names:+, patches $patch_names}${config_sha:+, config sha256 ${config_sha:0:16}})"
