# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-selftest-bochs.sh - sourced by tests/lanes/lane-selftest: what lane-run
# refuses before booting (the CET lane on Bochs 2.7 or a kernel without IBT,
# a Bochs CPU model without the lane's extension, the VMX lane on QEMU), and
# scripts/lane-build-bochs on a damaged tarball and a patch that needs fuzz.

# The CET lane (LANE_NEED_CET=1) refuses, before booting, Debian's Bochs
# 2.7 (no XSS in its CPUID 0xd.1) and a kernel whose config lacks a CET
# option: one line each. The "kernel" is a file with the boot header only.
mkdir -p "$tmp/fakek"
{ head -c 514 /dev/zero; printf 'HdrS'; } > "$tmp/fakek/bzImage"
printf 'CONFIG_KVM=y\nCONFIG_KVM_INTEL=y\nCONFIG_X86_KERNEL_IBT=y\nCONFIG_X86_USER_SHADOW_STACK=y\n' > "$tmp/fakek/config"
bad_input "lane-run, CET lane on Bochs 2.7" emulator "cannot give KVM CET" \
	env LANE_KERNEL="$tmp/fakek/bzImage" LANE_BOCHS=system LANE_NEED_CET=1 LANE_EXITSCOPE=none \
	LANE_OUT="$tmp/lane" "$top/scripts/lane-run" vmx
sed -i '/X86_KERNEL_IBT/d' "$tmp/fakek/config"
bad_input "lane-run, CET lane with a kernel without IBT" kernel "no CONFIG_X86_KERNEL_IBT=y" \
	env LANE_KERNEL="$tmp/fakek/bzImage" LANE_BOCHS=system LANE_NEED_CET=1 LANE_EXITSCOPE=none \
	LANE_OUT="$tmp/lane" "$top/scripts/lane-run" vmx

# A Bochs CPU model without the lane's extension fails before booting, with
# one line naming the model and what it lacks: SVM for the SVM lane, VMX for
# the VMX lane (lane-run reads the model's cpudb source). Against a stand-in
# cpudb of two models, and against the real one of the built Bochs when the
# lane cache has its tree.
mkdir -p "$tmp/cpudb/cpu/cpudb/intel" "$tmp/cpudb/cpu/cpudb/amd" "$tmp/fakeb" "$tmp/fakek2"
printf 'corei7_skylake_x_t::corei7_skylake_x_t(BX_CPU_C *cpu): bx_cpuid_t(cpu)\n  enable_cpu_extension(BX_ISA_VMX);\n' > "$tmp/cpudb/cpu/cpudb/intel/corei7_skylake-x.cc"
printf 'ryzen_t::ryzen_t(BX_CPU_C *cpu): bx_cpuid_t(cpu)\n  enable_cpu_extension(BX_ISA_SVM);\n' > "$tmp/cpudb/cpu/cpudb/amd/ryzen.cc"
printf '#!/bin/sh\nexit 1\n' > "$tmp/fakeb/bochs" && chmod +x "$tmp/fakeb/bochs"
echo "bochs 3.0 (stand-in)" > "$tmp/fakeb/version"
{ head -c 514 /dev/zero; printf 'HdrS'; } > "$tmp/fakek2/bzImage"
printf 'CONFIG_KVM=y\nCONFIG_KVM_INTEL=y\nCONFIG_KVM_AMD=y\n' > "$tmp/fakek2/config"
model_env() { env LANE_KERNEL="$tmp/fakek2/bzImage" LANE_BOCHS="$tmp/fakeb/bochs" LANE_EXITSCOPE=none \
	LANE_OUT="$tmp/lane" LANE_EMULATOR=bochs "$@"; }
bad_input "lane-run svm, a Bochs model without SVM" emulator "Bochs CPU model 'corei7_skylake_x' has no SVM (it has VMX)" \
	model_env LANE_BOCHS_CPUDB="$tmp/cpudb/cpu/cpudb" LANE_BOCHS_CPU=corei7_skylake_x "$top/scripts/lane-run" svm
bad_input "lane-run vmx, a Bochs model without VMX" emulator "Bochs CPU model 'ryzen' has no VMX (it has SVM)" \
	model_env LANE_BOCHS_CPUDB="$tmp/cpudb/cpu/cpudb" LANE_BOCHS_CPU=ryzen "$top/scripts/lane-run" vmx
bad_input "lane-run svm, an unknown Bochs model" emulator "Bochs CPU model 'nosuchcpu': not a model of this Bochs" \
	model_env LANE_BOCHS_CPUDB="$tmp/cpudb/cpu/cpudb" LANE_BOCHS_CPU=nosuchcpu "$top/scripts/lane-run" svm
bad_input "lane-run vmx with LANE_EMULATOR=qemu" emulator "QEMU's TCG emulates no VMX" \
	model_env LANE_EMULATOR=qemu "$top/scripts/lane-run" vmx
real_cpudb=$(ls -d "${LANE_CACHE:-/var/cache/exitscope-lanes}"/bochs-tree/*/cpu/cpudb 2>/dev/null | head -n 1)
if [ -n "$real_cpudb" ]; then
	# Bochs 3.0's own models: tigerlake has VMX only, phenomx3_8650_toliman SVM only.
	bad_input "lane-run svm, Bochs' tigerlake (no SVM)" emulator "Bochs CPU model 'tigerlake' has no SVM" \
		model_env LANE_BOCHS_CPUDB="$real_cpudb" LANE_BOCHS_CPU=tigerlake "$top/scripts/lane-run" svm
	bad_input "lane-run vmx, Bochs' ryzen (no VMX)" emulator "Bochs CPU model 'ryzen' has no VMX" \
		model_env LANE_BOCHS_CPUDB="$real_cpudb" LANE_BOCHS_CPU=ryzen "$top/scripts/lane-run" vmx
	# ... and the lanes' own models pass the check (the stand-in Bochs then fails at --help, later).
	for lm in vmx:corei7_skylake_x vmx:tigerlake svm:ryzen; do
		model_env LANE_BOCHS_CPUDB="$real_cpudb" LANE_BOCHS_CPU=${lm#*:} "$top/scripts/lane-run" ${lm%%:*} > "$tmp/out" 2> "$tmp/err"
		if grep -q "Bochs CPU model" "$tmp/err"; then bad "lane $lm: the model check refused it: $(head -n 1 "$tmp/err")"
		else ok "lane ${lm%%:*}: Bochs' ${lm#*:} has the lane's extension"; fi
	done
else
	echo "skip the real Bochs cpudb models: no bochs-tree in the lane cache (scripts/lane-build-bochs builds it)"
fi

# lane-build-bochs: a damaged cached tarball, and a patch that needs fuzz
# (one context line changed) against the real source when the lane cache
# has it: each one line naming the file, nothing built.
cache=${LANE_CACHE:-/var/cache/exitscope-lanes}
mkdir -p "$tmp/bcache/bochs-src"
echo garbage > "$tmp/bcache/bochs-src/bochs_3.0+dfsg.orig.tar.xz"
bad_input "lane-build-bochs, damaged tarball" source "$tmp/bcache/bochs-src/bochs_3.0+dfsg.orig.tar.xz" \
	env LANE_CACHE="$tmp/bcache" LANE_BOCHS_PATCHES=none "$top/scripts/lane-build-bochs"
first=$(ls "$top"/lanes/bochs-patches/*.patch 2>/dev/null | head -n 1)
if [ -r "$cache/bochs-src/bochs_3.0+dfsg.orig.tar.xz" ] && [ -r "$cache/bochs-src/bochs_3.0+dfsg-1.debian.tar.xz" ] && [ -n "$first" ]; then
	rm -rf "$tmp/bcache" && mkdir -p "$tmp/bcache/bochs-src" "$tmp/fuzz"
	cp "$cache"/bochs-src/bochs_3.0+dfsg*.tar.xz "$tmp/bcache/bochs-src/"
	# The first context line of the first hunk, changed: applies only with fuzz.
	awk '!done && /^@@/ { hunk = 1; print; next } hunk && !done && /^ / { print " /* changed */" substr($0, 2); done = 1; next } { print }' \
		"$first" > "$tmp/fuzz/0001-fuzz.patch"
	bad_input "lane-build-bochs, a patch that needs fuzz" patch "$tmp/fuzz/0001-fuzz.patch" \
		env LANE_CACHE="$tmp/bcache" LANE_BOCHS_PATCHES="$tmp/fuzz" "$top/scripts/lane-build-bochs"
	ls -d "$tmp"/bcache/bochs-[0-9a-f]* > /dev/null 2>&1 && bad "lane-build-bochs left a cache entry after a failed patch"
else
	echo "skip lane-build-bochs, a patch that needs fuzz: no bochs 3.0 tarballs in $cache/bochs-src (scripts/lane-build-bochs fetches them)"
fi
