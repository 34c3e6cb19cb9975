# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-run-results.sh - sourced by scripts/lane-run after the emulator has
# finished: the JSON results out of the debug-port log (scripts/lane-extract),
# a kernel without KVM said in one line, and each run block's exit-path
# profile (LANE_PROFILE) added by `exitscope profile`.

# --- step: extract --------------------------------------------------------
grep -q '@@LANE START' "$out/console.log" ||
	fail boot "no '@@LANE START' marker in the serial log (kernel or init did not come up; emulator status $emu_rc, see $out/emulator.log and $out/console.log)"
grep -q '^@@LANE START' "$debugcon" ||
	fail channel "no '@@LANE START' on the debug port 0xE9 although the console has it (see $debugcon)"
grep -a '^@@LANE \(KERNEL\|CLOCK\|MODULE\|PARAM\|CPUFLAGS\|SERIAL\|TIME\|START\)' "$debugcon" | sed "s/^/lane $lane: /"
grep -q '^@@LANE DONE' "$debugcon" ||
	fail run "no '@@LANE DONE' marker: init did not finish within ${timeout_s}s (emulator status $emu_rc); last console lines: $(tail -n 5 "$out/console.log")"
"$top/scripts/lane-extract" "$debugcon" "$out/results" || fail extract "see above"
cp "$out/absent" "$out/results/absent"
# A kernel without KVM boots fine and then has no /dev/kvm. The helper
# writes that as the one line {"error":"open /dev/kvm: MESSAGE"} (strerror's
# text: no quote or backslash to unescape), so sed reads it: no JSON tool
# for one field of the helper's own line.
if [ -s "$out/results/kvm.json" ] && grep -q '"error"' "$out/results/kvm.json"; then
	why=$(sed -n 's/^{"error":"\([^"]*\)".*/\1/p' "$out/results/kvm.json" | head -n 1)
	fail kvm "$vmlinuz: ${why:-$(head -c 200 "$out/results/kvm.json")} (the lane needs a kernel with KVM and kvm_intel/kvm_amd built in, or LANE_KERNEL=stock)"
fi

# --- step: profile --------------------------------------------------------
# Each run block's exit paths into its JSON (the dump's label is the path
# the run wrote inside the lane). One line and no profile when it cannot be
# had; the lane's expectations then say what is missing.
if [ -n "$profile" ] && [ -n "$system_map" ]; then
	while read -r blk cmd _; do
		[ "$cmd" = run ] && [ -s "$out/results/$blk.json" ] || continue
		if why=$("$exe" profile --counts "$out/profile.txt" --symbols "$system_map" \
			--label "/tmp/$blk.json" "$out/results/$blk.json" 2>&1); then
			note "profile: $why"
		else
			note "no exit-path profile for block $blk: ${why#exitscope profile: }"
		fi
	done < "$root/lane/commands.list"
fi
