# lanes.mk - real-KVM lanes (included by the top-level Makefile).
#
#   make check-vmx     Bochs (corei7_skylake_x: VMX+EPT) -> real kvm_intel
#   make check-svm     QEMU TCG (-cpu EPYC: SVM+NPT)     -> real kvm_amd
#   make check-lanes   both, one after the other
#   make check-lane-assert   host-only self-test of the assertion script on
#                      recorded lane results (a wrong expectation must fail)
#   make lane-kernel   build (or reuse) the tiny kernel (LANE_SOURCE, LANE_PATCHES)
#
# LANE_KERNEL=tiny (default: scripts/lane-build-kernel, KVM built in,
# cached under /var/cache/exitscope-lanes), LANE_KERNEL=stock (Debian's
# /boot/vmlinuz-6.1.*-amd64 with KVM as modules) or LANE_KERNEL=/path/to/bzImage;
# LANE_SOURCE=6.1|6.12|7.2 picks the tiny kernel's source (lanes/kernel-sources;
# default 6.1, the installed linux-source-6.1; 6.12 and 7.2 are pinned Debian
# packages fetched once by scripts/lane-fetch-source);
# LANE_PATCHES=dir[:dir...] builds the tiny kernel with those patch series. Each lane builds a static
# exitscope in build-lanes/static/, packs it with busybox into an
# initramfs, boots, runs exitscope inside (lanes/commands.list), brings the
# JSON back over the debug port 0xE9 and asserts on it
# (lanes/expect-{vmx,svm}.txt; see scripts/lane-run). Results land in
# build-lanes/<lane>-<kernel>/results.

LANE_PATCHES ?=
LANE_SOURCE ?=
# CI (make check-lanes from .ci/run) uses the tiny kernel: one ~150-400 s
# build per fresh machine (cached afterwards), then Bochs ~35 s and QEMU
# ~13 s per lane, against ~130 s and ~20 s with the stock kernel; the A/B
# variants are tiny kernels too, so the baseline is the same build.
LANE_KERNEL ?= tiny
LANE_ENV = LANE_KERNEL=$(LANE_KERNEL) LANE_PATCHES=$(LANE_PATCHES) LANE_SOURCE=$(LANE_SOURCE) \
	LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC)
LANE_STATIC_DIR := build-lanes/static
LANE_EXE_STATIC := $(LANE_STATIC_DIR)/exitscope

.PHONY: lane-exitscope lane-kernel check-vmx check-svm check-lanes check-lane-assert

# A static, non-PIE exitscope from the same sources (separate object dir so
# the normal build is untouched).
lane-exitscope:
	$(Q)$(MAKE) --no-print-directory SANITIZE= BUILD=$(LANE_STATIC_DIR) \
		EXE=$(LANE_EXE_STATIC) LDFLAGS="$(LDFLAGS) -static" $(LANE_EXE_STATIC)

lane-kernel:
	$(Q)LANE_PATCHES=$(LANE_PATCHES) LANE_SOURCE=$(LANE_SOURCE) scripts/lane-build-kernel

check-vmx: lane-exitscope
	$(LANE_ENV) scripts/lane-run vmx

check-svm: lane-exitscope
	$(LANE_ENV) scripts/lane-run svm

# Both lanes even when the first fails; fail if either did.
check-lanes: lane-exitscope check-lane-assert
	@rc=0; \
	$(LANE_ENV) scripts/lane-run vmx || rc=1; \
	$(LANE_ENV) scripts/lane-run svm || rc=1; \
	exit $$rc

check-lane-assert:
	$(Q)scripts/lane-selftest

-include lanes/ab.mk
