# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-run-initramfs.sh - sourced by scripts/lane-run: the guest's initramfs
# (busybox, lanes/init, the static exitscope, lanes/lane-helper), the lane
# record exitscope writes into each result's host record, the command list
# cut to the subcommands and options this exitscope has, and the modules of
# a stock kernel.

# --- step: initramfs ------------------------------------------------------
root=$out/initramfs
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,lane/modules} || fail initramfs "mkdir"
cp "$(command -v busybox)" "$root/bin/busybox" || fail initramfs "copy busybox"
ln -s busybox "$root/bin/sh"
cp "$top/lanes/init" "$root/init" && chmod +x "$root/init" || fail initramfs "copy init"
if [ "$exe" != none ]; then
	cp "$exe" "$root/bin/exitscope" || fail initramfs "copy exitscope"
fi
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -o "$root/bin/lane-helper" \
	"$top/lanes/lane-helper.c" || fail initramfs "build lanes/lane-helper.c"
echo "$lane" > "$root/lane/name"
# What exitscope records in each result's host record ("lane"; lanes/init
# exports these, host/hostinfo.h reads them).
for v in "$emulator" "$cycles" "$patch_names" "$kernel_source" "$source_sha" "$emulator_patches"; do
	case $v in *"'"*) fail initramfs "a lane setting contains a quote: $v" ;; esac
done
cat > "$root/lane/env" <<-ENV
export EXITSCOPE_LANE='$lane'
export EXITSCOPE_LANE_EMULATOR='$emulator'
export EXITSCOPE_LANE_EMULATOR_PATCHES='$emulator_patches'
export EXITSCOPE_LANE_KERNEL='$kernel_kind'
export EXITSCOPE_LANE_KERNEL_CONFIG_SHA256='$config_sha'
export EXITSCOPE_LANE_KERNEL_PATCHES='$patch_names'
export EXITSCOPE_LANE_KERNEL_SOURCE='$kernel_source'
export EXITSCOPE_LANE_KERNEL_SOURCE_SHA256='$source_sha'
export EXITSCOPE_LANE_CYCLES='$cycles'
export EXITSCOPE_LANE_PROFILE='${profile:-0}'
ENV
: > "$out/absent"
: > "$root/lane/commands.list"
if [ "$exe" != none ]; then
	# The subcommands this exitscope has, from the "commands:" part of --help.
	have_cmds=" $("$exe" --help 2>&1 | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ && seen { exit } on && /^  [a-z]/ { seen = 1 }' | tr '\n' ' ') "
	note "exitscope commands:$have_cmds"
	while read -r blk cmd rest; do
		case $blk in '' | \#*) continue ;; esac
		if [[ "$have_cmds" == *" $cmd "* ]]; then
			if [[ "$rest" == *@TRACE@* ]]; then
				# (grep reads the whole text: under pipefail, grep -q leaving
				# early can kill the writer with SIGPIPE and fail the test)
				if grep -q -- '--trace' <<< "$("$exe" "$cmd" --help 2>&1)"; then
					rest=${rest//@TRACE@/--trace}
				else
					rest=${rest//@TRACE@/}
					note "exitscope $cmd has no --trace: no exit attribution in block '$blk'"
					echo "$blk.trace $cmd --trace" >> "$out/absent"
				fi
			fi
			echo "$blk $cmd $rest" >> "$root/lane/commands.list"
		else
			note "exitscope has no '$cmd' command: block '$blk' not run"
			echo "$blk $cmd" >> "$out/absent"
		fi
	done < "$commands"
fi
[ "$exe" = none ] || [ -s "$root/lane/commands.list" ] || fail initramfs "no commands in $commands"
: > "$root/lane/modules.list"
for m in "${modules[@]}"; do
	# modules.dep names the file; module names use '-' or '_' freely.
	rel=$(grep -E "(^|/)${m//-/[-_]}\.ko(\.xz|\.zst|\.gz)?:" "$moddir/modules.dep" | head -n 1 | cut -d: -f1)
	[ -n "$rel" ] || fail initramfs "module $m not in $moddir/modules.dep"
	case $rel in
	*.ko) cp "$moddir/$rel" "$root/lane/modules/$m.ko" ;;
	*.ko.xz) xz -dc "$moddir/$rel" > "$root/lane/modules/$m.ko" ;;
	*.ko.zst) zstd -dcq "$moddir/$rel" > "$root/lane/modules/$m.ko" ;;
	*.ko.gz) gzip -dc "$moddir/$rel" > "$root/lane/modules/$m.ko" ;;
	esac || fail initramfs "cannot unpack $moddir/$rel"
	echo "$m" >> "$root/lane/modules.list"
done
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.gz" ||
	fail initramfs "cpio"
note "initramfs $(du -k "$out/initramfs.gz" | cut -f1) KiB"
