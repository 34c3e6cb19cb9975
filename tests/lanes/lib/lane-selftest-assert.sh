# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-selftest-assert.sh - sourced by tests/lanes/lane-selftest:
# scripts/lane-assert on recorded lane results (lanes/samples/): each sample
# passes its expectations, each line of its wrong.txt fails with the measured
# figures, a failing "require" line stops the check, a CET run without CET
# and a Bochs SVM run without patch 0007 fail the lines they should.

for d in "$top"/lanes/samples/*/; do
	[ -d "$d" ] || continue
	lane=$(basename "$d")
	expect=$top/lanes/expect-$lane.txt
	if "$top/scripts/lane-assert" "$expect" "$d" > "$tmp/out" 2>&1; then
		ok "$lane sample passes $(basename "$expect")"
	else
		bad "$lane sample fails $(basename "$expect"):"
		grep FAIL "$tmp/out"
	fi
	[ -r "$d/wrong.txt" ] || continue
	while IFS= read -r line; do
		case $line in '' | \#*) continue ;; esac
		echo "$line" > "$tmp/wrong"
		if "$top/scripts/lane-assert" "$tmp/wrong" "$d" > "$tmp/out" 2>&1; then
			bad "$lane: wrong expectation '$line' passed"
		elif grep -q '^  FAIL' "$tmp/out"; then
			ok "$lane: wrong expectation '$line' fails:$(grep -m1 '^  FAIL' "$tmp/out" | sed 's/^  FAIL//')"
		else
			bad "$lane: wrong expectation '$line' failed without a FAIL line"
		fi
	done < "$d/wrong.txt"
done

# A failing "require" line stops the check with that one FAIL; a passing one
# does not (the vmx sample's module is kvm_intel).
printf '%s\n' 'require field info .host.backend.module kvm_amd' 'rc info 7' > "$tmp/req"
if "$top/scripts/lane-assert" "$tmp/req" "$top/lanes/samples/vmx" > "$tmp/out" 2>&1; then
	bad "a failing require line passed"
elif [ "$(grep -c '^  FAIL' "$tmp/out")" = 1 ] && grep -q 'kvm_amd' "$tmp/out" && grep -q 'not checked' "$tmp/out"; then
	ok "a failing require line stops the check with one FAIL: $(grep -m1 '^  FAIL' "$tmp/out" | sed 's/^  FAIL *//')"
else
	bad "a failing require line: $(tr '\n' '|' < "$tmp/out")"
fi
printf '%s\n' 'require field info .host.backend.module kvm_intel' 'rc info 7' > "$tmp/req"
if "$top/scripts/lane-assert" "$tmp/req" "$top/lanes/samples/vmx" > "$tmp/out" 2>&1; then
	bad "a wrong line after a passing require line passed"
elif grep -q '^  FAIL  info exited 0, expected 7' "$tmp/out" && ! grep -q 'not checked' "$tmp/out"; then
	ok "a passing require line lets the rest be checked"
else
	bad "a passing require line: $(tr '\n' '|' < "$tmp/out")"
fi

# A CET lane that lost CET (here: the recorded CET run with KVM's SHSTK,
# IBT and XSS taken out of its info block, as clearcpuid=519,596 gives)
# fails lanes/expect-cet.txt with exactly one FAIL line naming them.
if [ -r "$top/lanes/samples/cet/info.json" ]; then
	cp -r "$top/lanes/samples/cet" "$tmp/nocet"
	jq '.host.cpuid.shstk = false | .host.cpuid.ibt = false | .host.xss_supported = 0' \
		"$top/lanes/samples/cet/info.json" > "$tmp/nocet/info.json"
	if "$top/scripts/lane-assert" "$top/lanes/expect-cet.txt" "$tmp/nocet" > "$tmp/out" 2>&1; then
		bad "a CET lane without CET passed expect-cet.txt"
	elif [ "$(grep -c '^  FAIL' "$tmp/out")" = 1 ] && grep -q '^  FAIL.*measured shstk=false ibt=false xss=0' "$tmp/out"; then
		ok "a CET lane without CET fails with one line:$(grep -m1 '^  FAIL' "$tmp/out" | sed 's/^  FAIL//' | cut -c1-120)"
	else
		bad "a CET lane without CET: $(grep -c '^  FAIL' "$tmp/out") FAIL lines: $(grep -m2 '^  FAIL' "$tmp/out" | tr '\n' '|')"
	fi
fi

# Bochs patch 0007 (SVM: physical interrupts after VMRUN), on recorded
# data: a run in the Bochs SVM lane with the Bochs built without it (its
# run block: cpuid, ipi, ipi_halt, hlt; the ple_round_robin block after it
# never ended) fails the ipi and ipi_halt lines of lanes/expect-svm-bochs.txt with
# the probes' own reason.
w=$top/lanes/samples/svm-bochs/without-0007
if [ -r "$w/run.json" ]; then
	grep -E '^probe (ipi|ipi_halt) ' "$top/lanes/expect-svm-bochs.txt" > "$tmp/two"
	if "$top/scripts/lane-assert" "$tmp/two" "$w" > "$tmp/out" 2>&1; then
		bad "the two-vCPU expectation passed on the run without Bochs patch 0007"
	elif [ "$(grep -c '^  FAIL  probe ipi.*status failed (the second vCPU did not get ready' "$tmp/out")" = 2 ]; then
		ok "without Bochs patch 0007 the two-vCPU expectation fails: ipi, ipi_halt: the second vCPU did not get ready"
	else
		bad "without Bochs patch 0007: $(grep -m1 FAIL "$tmp/out" | cut -c1-200)"
	fi
fi
