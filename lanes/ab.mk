# SPDX-License-Identifier: GPL-2.0-only
# ab.mk - kernel A/B in the lanes (included by lanes/lanes.mk).
#
#   make ab-vmx AB=lanes/ab/<name>.ab   run the .ab file's command list on each
#   make ab-svm AB=lanes/ab/<name>.ab   of its kernels (A, B, ...) in that lane,
#                                       compare, report, assert (scripts/lane-ab);
#                                       svm: Bochs ryzen (NRIP save)
#   make ab-svm-qemu AB=...             the same in the QEMU TCG SVM lane
#   make check-lane-ab                  host-only self-test of scripts/lane-ab on
#                                       recorded results (part of check-lane-assert)
#   make check-ab                       the seed A/Bs and the A/A (AB_SEEDS) in the vmx and
#                                       svm lanes: what .ci/run runs (make check-all)
#
# Everything lands in build-lanes/ab-<name>-<lane>/: each side's results,
# compare-<base>-<new>-<block>.{json,txt}, report.html and assert.txt.

.PHONY: ab-vmx ab-svm ab-svm-qemu check-lane-ab check-ab

# The seeds' A/Bs: the 6.1 stand-ins, the A/A, and the seeds on Linux 7.2
# where they landed, reverted -> stock.
# Each .ab in the vmx and svm lanes; one with LANES=vmx says in svm that it
# is skipped (seed000-upstream-svm.ab is seed 000 on 7.2 in the svm lane).
# The three 7.2 seed A/Bs in the VMX lane run profiled (LANE_PROFILE in their
# .ab files: seed000-upstream, seed004-upstream-cet, seed004-upstream with
# LANE_PROFILE=vmx) and assert where the saving is with path lines; the 6.1
# stand-ins, the A/A and every SVM lane run unprofiled. Measured cost, with
# the instrumented Bochs already in the lane cache (make check-lane-profile
# builds it): seed004-upstream vmx took 87.0 s wall and 38.9 s CPU
# profiled, 83.1 s and 39.5 s unprofiled (one run each, back to back, load
# 6.5-7.4, 2026-12-04; docs/kernel-ab.md).
AB_SEEDS ?= lanes/ab/seed000.ab lanes/ab/seed004.ab lanes/ab/aa.ab \
	lanes/ab/seed000-upstream.ab lanes/ab/seed000-upstream-svm.ab lanes/ab/seed004-upstream.ab \
	lanes/ab/seed004-upstream-cet.ab

$(if $(filter ab-vmx ab-svm ab-svm-qemu,$(MAKECMDGOALS)),$(if $(AB),,$(error usage: make ab-vmx|ab-svm|ab-svm-qemu AB=lanes/ab/<name>.ab)))

ab-vmx ab-svm ab-svm-qemu: lane-exitscope $(EXE)
	LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) LANE_AB_EXITSCOPE=$(CURDIR)/$(EXE) \
		scripts/lane-ab $(@:ab-%=%) $(AB)

check-lane-ab: $(EXE)
	$(Q)LANE_AB_EXITSCOPE=$(CURDIR)/$(EXE) tests/lanes/lane-ab-selftest

check-lane-assert: check-lane-ab

# Every seed A/B in both lanes, even when one fails; fail if any did.
check-ab: lane-exitscope $(EXE)
	@rc=0; for ab in $(AB_SEEDS); do for lane in vmx svm; do \
		LANE_EXITSCOPE=$(CURDIR)/$(LANE_EXE_STATIC) LANE_AB_EXITSCOPE=$(CURDIR)/$(EXE) \
			scripts/lane-ab $$lane $$ab || rc=1; \
	done; done; exit $$rc
