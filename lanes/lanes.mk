# SPDX-License-Identifier: GPL-2.0-only
# lanes.mk - real-KVM lanes (included by the top-level Makefile).
#
#   make check-vmx     Bochs (corei7_skylake_x: VMX+EPT) -> real kvm_intel; Bochs
#                      3.0 from scripts/lane-build-bochs, APICv off
#                      (LANE_BOCHS=system: Debian 12's 2.7; scripts/lane-run)
#   make check-svm     the SVM lane: Bochs (ryzen: SVM+NPT+NRIP save) -> real
#                      kvm_amd with nrips=1 (= make check-svm-bochs)
#   make check-svm-bochs  that lane (lanes/expect-svm-bochs.txt)
#   make check-svm-qemu   the SVM lane in QEMU TCG (-cpu EPYC,+pku: no NRIP
#                      save, kvm_amd nrips=0; lanes/expect-svm.txt): the facts
#                      that do not depend on NRIPS, and PKU, which ryzen lacks
#   make check-lanes   all three, one after the other
#   make check-lane-assert   host-only self-test of the assertion script on
#                      recorded lane results (a wrong expectation must fail)
#   make lane-kernel   build (or reuse) the tiny kernel (LANE_SOURCE, LANE_PATCHES)
#   make check-lane-cet  the CET lane (docs/cet-lane.md): VMX in Bochs 3.0
#                      built from Debian's source with lanes/bochs-patches
#                      (scripts/lane-build-bochs), model tigerlake, APICv on,
#                      the tiny Linux 7.2 kernel (LANE_SOURCE=7.2: its config
#                      has X86_KERNEL_IBT and X86_USER_SHADOW_STACK; or
#                      LANE_CET_KERNEL=/path/to/bzImage), lanes/commands-cet.list
#                      against lanes/expect-cet.txt
#   make lane-bochs    build (or reuse) that Bochs
#   make check-kernels exit costs across kernels (docs/kernels.md): map and
#                      the whole catalogue in both lanes on 6.1, 6.12 and 7.2
#                      (scripts/lane-kernels; a check-lanes 6.1 run that ran
#                      the same is reused), asserted per kernel
#                      (lanes/kernels/), one report per lane and the table
#                      in build-lanes/kernels/
#   make kernels-table write that table into docs/kernels.md
#   make check-walk    scripts/lane-walk and scripts/lane-bisect on a small
#                      6.1 history made from linux-source-6.1 (a comment, a
#                      doc line, seed004-a's two patches, a broken build and
#                      its fix, seed004-b) in the VMX lane: skips, steps,
#                      git bisect run, resume after kill -9 (docs/walk.md)
#   make check-matrix  the settings matrix in its small form: the VMX lane
#                      on 7.2 with the CPU mitigations built in against the
#                      default kernel (scripts/lane-matrix, one profiled
#                      boot each), asserted in census terms
#                      (lanes/matrix/ci-vmx.expect); `scripts/lane-matrix`
#                      alone runs every row (docs/exit-paths.md)
#
# LANE_KERNEL=tiny (default: scripts/lane-build-kernel, KVM built in,
# cached under /var/cache/exitscope-lanes), LANE_KERNEL=stock (Debian's
# /boot/vmlinuz-6.1.*-amd64 with KVM as modules) or LANE_KERNEL=/path/to/bzImage;
# LANE_SOURCE=6.1|6.12|7.2 picks the tiny kernel's source (lanes/kernel-sources;
# default 6.1, the installed linux-source-6.1; 6.12 and 7.2 are pinned Debian
# packages fetched once by scripts/lane-fetch-source), LANE_SOURCE=PATH
# [LANE_REV=REV] a kernel tree of yours (docs/walk.md);
# LANE_PATCHES=dir[:dir...] builds the tiny kernel with those patch series. Each lane builds a static
# exitscope in build-lanes/static/, packs it with busybox into an
# initramfs, boots, runs exitscope inside (lanes/commands.list), brings the
# JSON back over the debug port 0xE9 and asserts on it
# (lanes/expect-{vmx,svm}.txt; see scripts/lane-run). Results land in
# build-lanes/<lane>-<kernel>/results.

LANE_PATCHES ?=
LANE_SOURCE ?=
LANE_REV ?=
# CI (make check-lanes from .ci/run) uses the tiny kernel: one ~150-400 s
# build per fresh machine (cached afterwards), then Bochs ~35 s and QEMU
# ~13 s per lane, against ~130 s and ~20 s with the stock kernel; the A/B
# variants are tiny kernels too, so the baseline is the same build. The
# Bochs 3.0 build is one more per fresh machine (about 4-12 min on 2 shared
# cores, cached afterwards); the VMX lane then takes 35 s against 59 s
# under Debian's 2.7 (2026-12-01, load 2).
LANE_KERNEL ?= tiny
LANE_ENV = LANE_KERNEL=$(LANE_KERNEL) LANE_PATCHES=$(LANE_PATCHES) LANE_SOURCE=$(LANE_SOURCE) LANE_REV=$(LANE_REV) \
	LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC)
LANE_STATIC_DIR := build-lanes/static
LANE_EXE_STATIC := $(LANE_STATIC_DIR)/exitscope

# The CET lane's kernel and Bochs (LANE_CET_BOCHS=system shows the one-line
# failure of an emulator without CET).
LANE_CET_KERNEL ?=
LANE_CET_BOCHS ?= built
LANE_CET_ENV = $(if $(LANE_CET_KERNEL),LANE_KERNEL=$(LANE_CET_KERNEL),LANE_KERNEL=tiny LANE_SOURCE=7.2 LANE_PATCHES=) LANE_BOCHS=$(LANE_CET_BOCHS) LANE_BOCHS_CPU=tigerlake \
	LANE_APICV=on LANE_NEED_CET=1 LANE_EXPECT=$(CURDIR)/lanes/expect-cet.txt \
	LANE_COMMANDS=$(CURDIR)/lanes/commands-cet.list LANE_OUT=$(CURDIR)/build-lanes/cet \
	LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC)


.PHONY: check-lane-profile
.PHONY: lane-exitscope lane-kernel lane-bochs check-vmx check-svm check-svm-bochs check-svm-qemu \
	check-lanes check-lane-assert \
	check-lane-cet check-kernels kernels-table check-walk check-matrix

# A static, non-PIE exitscope from the same sources (separate object dir so
# the normal build is untouched).
lane-exitscope:
	$(Q)$(MAKE) --no-print-directory SANITIZE= BUILD=$(LANE_STATIC_DIR) \
		EXE=$(LANE_EXE_STATIC) LDFLAGS="$(LDFLAGS) -static" $(LANE_EXE_STATIC)

lane-kernel:
	$(Q)LANE_PATCHES=$(LANE_PATCHES) LANE_SOURCE=$(LANE_SOURCE) LANE_REV=$(LANE_REV) scripts/lane-build-kernel

lane-bochs:
	$(Q)scripts/lane-build-bochs

check-lane-cet: lane-exitscope
	$(LANE_CET_ENV) scripts/lane-run vmx

check-vmx: lane-exitscope
	$(LANE_ENV) scripts/lane-run vmx

check-svm check-svm-bochs: lane-exitscope
	$(LANE_ENV) LANE_EMULATOR=bochs scripts/lane-run svm

check-svm-qemu: lane-exitscope
	$(LANE_ENV) LANE_EMULATOR=qemu scripts/lane-run svm

# The profiling lane (docs/exit-paths.md): the VMX lane with LANE_PROFILE=1
# on the 6.1 tiny kernel, two boots and an unprofiled one, and one profiled
# Bochs SVM boot each on 6.12 and 7.2 (the AMD fastpaths by function;
# scripts/lane-profile);
# builds the instrumented Bochs once (its own cache entry and tree).
check-lane-profile: lane-exitscope
	$(Q)LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) scripts/lane-profile

# All three lanes even when one fails; fail if any did.
check-lanes: lane-exitscope check-lane-assert
	@rc=0; \
	$(LANE_ENV) scripts/lane-run vmx || rc=1; \
	$(LANE_ENV) LANE_EMULATOR=bochs scripts/lane-run svm || rc=1; \
	$(LANE_ENV) LANE_EMULATOR=qemu scripts/lane-run svm || rc=1; \
	exit $$rc

# Five lane runs when check-lanes' Bochs SVM 6.1 run is reused (same
# commands, as in check-all; its VMX 6.1 run is not, since check-kernels
# profiles the VMX lane and check-lanes does not), six otherwise. Before
# the VMX lane was profiled, with both 6.1 runs reused: With everything cached (2026-12-02, 2
# shared cores): four runs 241 s at load 3-5; six 526 s at load 5-7, 1036 s
# at load 8-9. Cold, it also fetches linux-source-6.12 and builds its tiny
# kernel (1144 s wall, 616 s CPU at load 7-8), and builds the 7.2 one that
# check-lane-cet then reuses.
check-kernels: lane-exitscope $(EXE)
	$(Q)EXITSCOPE=$(CURDIR)/$(EXE) LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) scripts/lane-kernels

# The generated part of docs/kernels.md, from the last check-kernels (and
# KERNELS_REPEAT: more runs of the six, LANE_KERNELS_OUT=DIR, for the spread).
KERNELS_REPEAT ?=
kernels-table: $(EXE)
	$(Q)EXITSCOPE=$(CURDIR)/$(EXE) scripts/lane-kernels-table --doc docs/kernels.md build-lanes/kernels $(KERNELS_REPEAT)

# The walk's test (tests/lanes/lane-walk-selftest): the test repository is made
# once under the lane cache (100 s); its kernels are cached too. Cold: one
# full 6.1 build (771 s at load 6-11 on 2 shared cores, 2026-12-04), then
# about a minute per commit; warm (a re-run boots only): 98-151 s.
check-walk: lane-exitscope $(EXE)
	$(Q)EXITSCOPE=$(CURDIR)/$(EXE) LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) tests/lanes/lane-walk-selftest

check-matrix: lane-exitscope $(EXE)
	$(Q)EXITSCOPE=$(CURDIR)/$(EXE) LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) \
		LANE_MATRIX_OUT=$(CURDIR)/build-lanes/matrix-ci scripts/lane-matrix vmx lanes/matrix/settings.txt mitigations
	$(Q)LANE_AB_EXITSCOPE=$(CURDIR)/$(EXE) scripts/lane-ab --results build-lanes/matrix-ci/vmx-default/results \
		build-lanes/matrix-ci/vmx-mitigations/results --expect lanes/matrix/ci-vmx.expect \
		--out build-lanes/matrix-ci/ab-vmx --threshold 0.5

check-lane-assert:
	$(Q)tests/lanes/lane-selftest
	$(Q)EXITSCOPE=$(CURDIR)/$(EXE) tests/lanes/lane-kernels-selftest

-include lanes/ab.mk
