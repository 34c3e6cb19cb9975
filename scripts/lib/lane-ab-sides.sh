# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-ab-sides.sh - sourced by scripts/lane-ab: each side's results, either
# by running scripts/lane-run on its kernel (lane mode: the command list cut
# to the options this exitscope has, one lane directory per side) or by
# copying the results directories given (results mode); and the blocks the
# A/B compares.

# --- step: commands (lane mode) -------------------------------------------
# Drop lines whose options the lane's exitscope lacks; the rest goes to
# every side unchanged.
blocks=()
if [ $mode = lane ]; then
	exe=${LANE_EXITSCOPE:-$top/build-lanes/static/exitscope}
	[ -x "$exe" ] || die exitscope "static exitscope '$exe' missing (make lane-exitscope)"
	: > "$out/commands.list"
	declare -A help=()
	while read -r blk cmd rest; do
		case $blk in '' | \#*) continue ;; esac
		# An unknown command (--help fails) is left to lane-run, which drops it.
		if [ -z "${help[$cmd]+x}" ]; then help[$cmd]=$("$exe" "$cmd" --help 2>&1) || help[$cmd]=; fi
		miss=
		if [ -n "${help[$cmd]}" ]; then
			for w in $rest; do
				case $w in --*) w=${w%%=*}; grep -q -- "$w\b" <<< "${help[$cmd]}" || miss=${miss:-$w} ;; esac
			done
		fi
		if [ -n "$miss" ]; then
			note "exitscope $cmd has no $miss: block '$blk' not run"
			echo "$blk $cmd $miss" >> "$out/dropped"
			continue
		fi
		echo "$blk $cmd $rest" >> "$out/commands.list"
		blocks+=("$blk")
	done < "$commands"
	[ ${#blocks[@]} -gt 0 ] || die commands "no commands left in $commands"
	# What each side's own lane-assert checks: every block gave a result.
	for blk in "${blocks[@]}"; do
		echo "value $blk kind ~ '^(info|map|run|check)\$' 'block $blk is an exitscope result'"
	done > "$out/side.expect"
fi

# --- step: lanes / results --------------------------------------------------
for s in "${sides[@]}"; do
	if [ $mode = results ]; then
		mkdir -p "$out/$s/results" && cp -r "${side_dir[$s]}"/. "$out/$s/results/" ||
			die "results $s" "cannot copy ${side_dir[$s]} to $out/$s/results"
		continue
	fi
	desc="kernel ${side_kernel[$s]}${side_source[$s]:+ (source ${side_source[$s]}${side_rev[$s]:+ at ${side_rev[$s]}})}${side_patches[$s]:+, patches ${side_patches[$s]//$top\//}}${lane_env[*]:+, ${lane_env[*]}}"
	note "side $s: $desc: lane $lane (log $out/$s.log)"
	env_args=(LANE_KERNEL="${side_kernel[$s]}" LANE_OUT="$out/$s" LANE_COMMANDS="$out/commands.list"
		LANE_EXPECT="$out/side.expect" LANE_EXITSCOPE="$exe")
	if [ -n "${side_patches[$s]}" ]; then env_args+=(LANE_PATCHES="${side_patches[$s]}"); fi
	if [ -n "${side_source[$s]}" ]; then env_args+=(LANE_SOURCE="${side_source[$s]}"); fi
	if [ -n "${side_rev[$s]}" ]; then env_args+=(LANE_REV="${side_rev[$s]}"); fi
	# The caller's LANE_PROFILE was read above: lane-run gets the A/B's.
	env_args+=(LANE_PROFILE="$profile" "${lane_env[@]}")
	# svm is lane-run's SVM lane on Bochs, svm-qemu the same on QEMU TCG.
	case $lane in svm-qemu) env_args+=(LANE_EMULATOR=qemu) ;; *) env_args+=(LANE_EMULATOR=bochs) ;; esac
	env -u LANE_PATCHES -u LANE_SOURCE -u LANE_REV "${env_args[@]}" "${LANE_AB_LANE_RUN:-$top/scripts/lane-run}" "${lane%%-*}" > "$out/$s.log" 2>&1
	lrc=$?
	if [ $lrc -ne 0 ]; then
		why=$(grep -m1 "step '.*' failed" "$out/$s.log")
		[ -n "$why" ] || why=$(grep -m1 'FAIL' "$out/$s.log")
		die "lane $s" "${why:-scripts/lane-run $lane exited $lrc} ($desc; log $out/$s.log, partial results in $out/$s)"
	fi
	note "side $s: $(grep -m1 'PASS' "$out/$s.log" | sed 's/^lane [a-z]*: //')"
	# A profile that could not be had is one line in the side's log: say it here.
	[ "$profile" = 0 ] || grep 'no exit-path profile' "$out/$s.log" | sed "s/^lane [a-z]*: /lane-ab: side $s: /"
done
if [ $mode = results ]; then
	# The blocks: every exitscope result of the first side.
	for f in "$out/${sides[0]}"/results/*.json; do
		[ -e "$f" ] || continue
		is_result "$f" && blocks+=("$(basename "$f" .json)")
	done
	[ ${#blocks[@]} -gt 0 ] || die "results ${sides[0]}" "no exitscope result in ${side_dir[${sides[0]}]}"
fi
