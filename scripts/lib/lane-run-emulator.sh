# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-run-emulator.sh - sourced by scripts/lane-run: the emulated PC's
# settings before anything boots: which Bochs (built, system or a path) and
# its CPU model checked against its cpudb sources, clearcpuid, APICv/AVIC,
# what the CET lane needs, or QEMU's CPU and -icount; and the lane record's
# emulator and cycles strings.

# --- the emulated PC ------------------------------------------------------
emulator_patches=
if [ "$emu_kind" = bochs ]; then
	# Bochs' TSC advances once per instruction (ips per virtual second).
	ips=20000000
	[ "$lane" = vmx ] && bochs_cpu=${LANE_BOCHS_CPU:-corei7_skylake_x} || bochs_cpu=${LANE_BOCHS_CPU:-ryzen}
	case $bochs_cpu in '' | *[!a-z0-9_]*) fail emulator "LANE_BOCHS_CPU '$bochs_cpu': not a Bochs CPU model name" ;; esac
	case $bochs_sel in
	system)
		bochs_bin=$(command -v bochs)
		bochs_ver=$(dpkg-query -W -f='${Version}' bochs 2>/dev/null || echo unknown)
		bochs_desc="bochs $bochs_ver"
		;;
	built)
		bochs_bin=$(LANE_BOCHS_INSTRUMENT=${profile:+$top/lanes/bochs-instrument} \
			nice "$top/scripts/lane-build-bochs" 2> "$out/bochs-build.log" | tail -n 1)
		if [ -z "$bochs_bin" ] || [ ! -x "$bochs_bin" ]; then
			why=$(grep -m1 "^lane-build-bochs: step" "$out/bochs-build.log" | sed 's/^lane-build-bochs: //')
			fail emulator "scripts/lane-build-bochs: ${why:-$(tail -n 1 "$out/bochs-build.log")} (log: $out/bochs-build.log)"
		fi
		;;
	*)
		bochs_bin=$LANE_BOCHS
		[ -f "$bochs_bin" ] && [ -x "$bochs_bin" ] || fail emulator "LANE_BOCHS $bochs_bin: no such executable (system, built or a path)"
		;;
	esac
	if [ -n "$profile" ] && ! grep -q instrumented "$(dirname "$bochs_bin")/version" 2>/dev/null; then
		fail emulator "LANE_PROFILE=1: $bochs_bin is not an instrumented Bochs (its version file does not say so; LANE_BOCHS=built builds one)"
	fi
	if [ "$bochs_sel" != system ]; then
		# The build cache's layout: version and patches.list beside the binary.
		d=$(dirname "$bochs_bin")
		bochs_ver=$(sed -n '1s/^bochs \([^ ]*\).*/\1/p' "$d/version" 2>/dev/null)
		bochs_desc=$(cat "$d/version" 2>/dev/null || echo "bochs unknown ($bochs_bin)")
		[ -r "$d/patches.list" ] && emulator_patches=$(grep -v '^$' "$d/patches.list" | paste -sd:)
		bochs_desc="$bochs_desc${emulator_patches:+ + $(echo "$emulator_patches" | tr ':' '\n' | wc -l) patches}"
	fi
	# The model must have the lane's extension: its cpudb source (the file
	# of cpu/cpudb/<vendor>/ in Bochs' tree that defines the constructor
	# <model>_t::<model>_t; corei7_skylake_x is corei7_skylake-x.cc) enables
	# it with enable_cpu_extension(BX_ISA_VMX) or (BX_ISA_SVM). A model
	# without it would boot a kernel that has no kvm_intel/kvm_amd: say so
	# before.
	cpudb=${LANE_BOCHS_CPUDB:-}
	if [ -z "$cpudb" ] && [ "$bochs_sel" != system ]; then
		cpudb=$(ls -d "${LANE_CACHE:-/var/cache/exitscope-lanes}"/bochs-tree/*/cpu/cpudb 2>/dev/null | head -n 1)
	fi
	if [ -n "$cpudb" ]; then
		[ -d "$cpudb" ] || fail emulator "LANE_BOCHS_CPUDB $cpudb: no such directory"
		isa=VMX other=SVM
		[ "$lane" = svm ] && isa=SVM other=VMX
		model_src=$(grep -l "^${bochs_cpu}_t::${bochs_cpu}_t(" "$cpudb"/*/*.cc 2>/dev/null | head -n 1)
		if [ -z "$model_src" ]; then
			fail emulator "Bochs CPU model '$bochs_cpu': not a model of this Bochs (no ${bochs_cpu}_t in $cpudb; models: $(grep -ho '^[a-z0-9_]*_t::[a-z0-9_]*_t(' "$cpudb"/*/*.cc 2>/dev/null | sed 's/_t::.*//' | sort -u | paste -sd' '))"
		fi
		if ! grep -q "enable_cpu_extension(BX_ISA_$isa)" "$model_src"; then
			has=
			grep -q "enable_cpu_extension(BX_ISA_$other)" "$model_src" && has=" (it has $other)"
			fail emulator "Bochs CPU model '$bochs_cpu' has no $isa$has: ${model_src#"${cpudb%/cpu/cpudb}/"} never enables BX_ISA_$isa; the $(echo "$lane" | tr a-z A-Z) lane needs a model with it, e.g. $([ "$lane" = svm ] && echo ryzen || echo corei7_skylake_x)"
		fi
	fi
	# Bochs before 3.0 reports the standard-format XSAVE size in CPUID
	# 0xd.1:EBX; Linux, seeing XSAVEC/XSAVES, expects the compacted one and
	# turns XSAVE off: clear those two features. 3.0 reports it right.
	clearcpuid=${LANE_CLEARCPUID:-}
	if [ -z "$clearcpuid" ]; then
		case $bochs_ver in [0-2].* | unknown | '') clearcpuid=321,323 ;; *) clearcpuid=none ;; esac
	fi
	# APICv (kvm_intel.enable_apicv, default off) or AVIC (kvm_amd.avic,
	# default KVM's own: ryzen has no AVIC).
	apicv=
	if [ "$lane" = vmx ]; then apicv_param=kvm_intel.enable_apicv apicv_def=off; else apicv_param=kvm_amd.avic apicv_def=kvm; fi
	case ${LANE_APICV:-$apicv_def} in
	kvm) ;;
	on) [ "$lane" = vmx ] && apicv=Y || apicv=1 ;;
	off) [ "$lane" = vmx ] && apicv=N || apicv=0 ;;
	*) fail emulator "LANE_APICV '$LANE_APICV': on, off or kvm" ;;
	esac
	# The debugger's -rc (a script that continues) only where it is built in.
	bochs_help=$("$bochs_bin" --help 2>&1)
	bochs_rc=0
	grep -q -- '-rc' <<< "$bochs_help" && bochs_rc=1
	# scripts/lane-build-bochs builds the nogui library in; Debian's package has none.
	bochs_nogui=0
	[ "$bochs_sel" != system ] && [ -r "$(dirname "$bochs_bin")/version" ] && bochs_nogui=1
	emulator="$bochs_desc $bochs_cpu ips=$ips, kernel clearcpuid=$clearcpuid${apicv:+, $apicv_param=$apicv}"
	if [ "${LANE_NEED_CET:-}" = 1 ]; then
		[ -n "$kconfig" ] || fail kernel "$vmlinuz: no config beside it, cannot tell whether it has the CET options"
		for o in CONFIG_X86_KERNEL_IBT CONFIG_X86_USER_SHADOW_STACK; do
			grep -qx "$o=y" "$kconfig" ||
				fail kernel "$vmlinuz: its config $kconfig has no $o=y: KVM would offer no CET"
		done
		# Bochs 2.7 tests BX_SUPPPORT_CET (sic) in CPUID leaf 0xd: no XSS, no CET for KVM.
		case $bochs_ver in [0-2].* | unknown | '')
			fail emulator "bochs ${bochs_ver:-unknown} ($bochs_bin) cannot give KVM CET (its CPUID 0xd.1 reports no XSS): the CET lane needs LANE_BOCHS=built (Bochs 3.0)" ;;
		esac
	fi
	cycles="Bochs TSC ticks, one per emulated instruction (ips=$ips per emulated second): a deterministic cost of the KVM exit path in emulated time, not hardware cycles"
else
	qemu_cpu=EPYC,+pku
	icount=${LANE_ICOUNT:-shift=4,sleep=off}
	qemu_ver=$(qemu-system-x86_64 --version | head -n 1 | sed 's/^QEMU emulator version //')
	emulator="qemu $qemu_ver tcg -cpu $qemu_cpu"
	if [ "$icount" = off ]; then
		cycles="QEMU TCG TSC ticks from the host clock (no -icount): a noisy cost of the KVM exit path in emulated time, not hardware cycles"
	else
		emulator="$emulator -icount $icount"
		cycles="QEMU -icount $icount TSC ticks, 1 per ns of virtual time and 2^shift ns per emulated instruction: a deterministic cost of the KVM exit path in emulated time, not hardware cycles"
	fi
fi
