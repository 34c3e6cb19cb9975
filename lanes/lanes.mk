# lanes.mk - real-KVM lanes (included by the top-level Makefile).
#
#   make check-vmx     Bochs (corei7_skylake_x: VMX+EPT) -> real kvm_intel
#   make check-svm     QEMU TCG (-cpu EPYC: SVM+NPT)     -> real kvm_amd
#   make check-lanes   both, one after the other
#   make check-lane-assert   host-only self-test of the assertion script on
#                      recorded lane results (a wrong expectation must fail)
#   make lane-kernel   build (or reuse) the tiny 6.1 kernel
#
# LANE_KERNEL=stock (default: Debian's /boot/vmlinuz-6.1.*-amd64 with KVM as
# modules) or LANE_KERNEL=tiny (scripts/lane-build-kernel, KVM built in,
# cached under /var/cache/exitscope-lanes). Each lane builds a static
# exitscope in build-lanes/static/, packs it with busybox into an
# initramfs, boots, runs exitscope inside (lanes/commands.list), brings the
# JSON back over the debug port 0xE9 and asserts on it
# (lanes/expect-{vmx,svm}.txt; see scripts/lane-run). Results land in
# build-lanes/<lane>-<kernel>/results.

LANE_KERNEL ?= stock
LANE_STATIC_DIR := build-lanes/static
LANE_EXE_STATIC := $(LANE_STATIC_DIR)/exitscope

.PHONY: lane-exitscope lane-kernel check-vmx check-svm check-lanes check-lane-assert

# A static, non-PIE exitscope from the same sources (separate object dir so
# the normal build is untouched).
lane-exitscope:
	$(Q)$(MAKE) --no-print-directory SANITIZE= BUILD=$(LANE_STATIC_DIR) \
		EXE=$(LANE_EXE_STATIC) LDFLAGS="$(LDFLAGS) -static" $(LANE_EXE_STATIC)

lane-kernel:
	$(Q)scripts/lane-build-kernel

check-vmx: lane-exitscope
	LANE_KERNEL=$(LANE_KERNEL) LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) scripts/lane-run vmx

check-svm: lane-exitscope
	LANE_KERNEL=$(LANE_KERNEL) LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) scripts/lane-run svm

# Both lanes even when the first fails; fail if either did.
check-lanes: lane-exitscope check-lane-assert
	@rc=0; \
	LANE_KERNEL=$(LANE_KERNEL) LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) scripts/lane-run vmx || rc=1; \
	LANE_KERNEL=$(LANE_KERNEL) LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) scripts/lane-run svm || rc=1; \
	exit $$rc

check-lane-assert:
	$(Q)scripts/lane-selftest

-include lanes/ab.mk
