# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2154 # commands, out, host_exe, repo, top: set by the script that sources this
# lane-walk-commit.sh - sourced by scripts/lane-walk and scripts/lane-bisect:
# one commit of a kernel repository measured in one or two lanes, into the
# walk's layout (docs/walk.md):
#   OUT/<lane>/<rev>/          scripts/lane-run's output directory (its
#                              LANE_OUT: results/run.json, logs, ...)
#   OUT/<lane>/<rev>/status    "ok", or "skip<TAB>reason", written last and
#                              atomically: what a later walk or bisect reuses
#   OUT/build/<rev>.log        scripts/lane-build-kernel's output
# The caller sets top, out, repo, commands (OUT/commands.list) and may set
# LANE_EXPECT; lane-run gets the caller's other LANE_* variables as they are.

# walk_run_block: the first block of the command list that runs `run`.
walk_run_block() {
	awk '!/^[ \t]*(#|$)/ && $2 == "run" { print $1; exit }' "$commands"
}

# walk_status_write DIR LINE: DIR/status, atomically.
walk_status_write() {
	mkdir -p "$1" && printf '%s\n' "$2" > "$1/status.tmp" && mv -f "$1/status.tmp" "$1/status"
}

# walk_reason_of LOG: lane-run's one-line failure as a walk reason
# ("build: ...", "boot: ...", "run: ..."), empty when it has none.
walk_reason_of() {
	local line step msg
	line=$(grep -m1 -E "^lane (vmx|svm): step '[a-z]+' failed: " "$1") || return 0
	step=$(printf '%s' "$line" | sed -E "s/^lane [a-z]+: step '([a-z]+)' failed: .*/\\1/")
	msg=${line#*failed: }
	case $step in
	kernel) msg=${msg#scripts/lane-build-kernel: }
		echo "build: ${msg:0:300}" ;;
	run | extract | kvm | profile) echo "run: step '$step' failed: ${msg:0:300}" ;;
	*) echo "boot: step '$step' failed: ${msg:0:300}" ;;
	esac
}

# walk_lane_cmd LANE REV DIR: lane-run's command line for one commit of the
# repository, in the array lane_cmd.
walk_lane_cmd() {
	local lane=$1 rev=$2 dir=$3
	lane_cmd=(env LANE_KERNEL=tiny LANE_SOURCE="$repo" LANE_REV="$rev" LANE_OUT="$dir"
		LANE_COMMANDS="$commands" LANE_EXPECT="${LANE_EXPECT:-$top/lanes/expect-walk.txt}")
	# svm: the Bochs SVM lane (the walk's lanes are the Bochs ones).
	[ "$lane" = svm ] && lane_cmd+=(LANE_EMULATOR=bochs)
	lane_cmd+=("$top/scripts/lane-run" "$lane")
}

# walk_children: the sessions of what walk_measure runs (setsid), so that
# SIGINT/SIGTERM take Bochs and make with them: the whole session, since
# lane-run's `timeout` puts the emulator in a process group of its own.
walk_children=()
walk_kill_children() {
	local p
	for p in "${walk_children[@]}"; do pkill -TERM -s "$p" 2>/dev/null; done
	walk_children=()
}

# walk_measure REV LANE...: build REV once, then boot every LANE whose
# status is missing (two at once: both CPUs), and write their status.
# Returns non-zero only for a setup failure of the walk itself.
walk_measure() {
	local rev=$1; shift
	local lanes=() lane dir pids=() p blk reason i
	for lane in "$@"; do [ -e "$out/$lane/$rev/status" ] || lanes+=("$lane"); done
	[ ${#lanes[@]} -gt 0 ] || return 0
	mkdir -p "$out/build"
	setsid env LANE_SOURCE="$repo" LANE_REV="$rev" nice "$top/scripts/lane-build-kernel" \
		> "$out/build/$rev.out" 2> "$out/build/$rev.log" &
	walk_children=($!)
	wait $!
	local brc=$?
	walk_children=()
	if [ $brc -ne 0 ] || ! [ -s "$(tail -n 1 "$out/build/$rev.out")" ]; then
		reason=$(grep -m1 "^lane-build-kernel: step" "$out/build/$rev.log" | sed 's/^lane-build-kernel: //')
		[ -n "$reason" ] || reason="scripts/lane-build-kernel exited $brc: $(tail -n 1 "$out/build/$rev.log")"
		for lane in "${lanes[@]}"; do
			rm -rf "${out:?}/$lane/$rev"
			mkdir -p "$out/$lane/$rev"
			cp "$out/build/$rev.log" "$out/$lane/$rev/kernel-build.log"
			walk_status_write "$out/$lane/$rev" "skip	build: ${reason:0:300}"
		done
		return 0
	fi
	blk=$(walk_run_block)
	for lane in "${lanes[@]}"; do
		dir=$out/$lane/$rev
		mkdir -p "$out/$lane"
		walk_lane_cmd "$lane" "$rev" "$dir"
		setsid "${lane_cmd[@]}" > "$out/$lane/$rev.log" 2>&1 &
		pids+=($!)
		walk_children+=($!)
	done
	for i in "${!lanes[@]}"; do
		wait "${pids[$i]}"
	done
	walk_children=()
	for lane in "${lanes[@]}"; do
		dir=$out/$lane/$rev
		mkdir -p "$dir"
		mv -f "$out/$lane/$rev.log" "$dir/lane-run.log"
		reason=$(walk_reason_of "$dir/lane-run.log")
		if [ -z "$reason" ] && [ -z "$blk" ]; then
			reason="run: the command list has no run block"
		elif [ -z "$reason" ] && [ "$("$host_exe" query "$dir/results/$blk.json" kind 2>/dev/null)" != run ]; then
			reason="run: no valid results/$blk.json ($(tail -n 1 "$dir/lane-run.log" | cut -c1-200))"
		fi
		if [ -n "$reason" ]; then
			walk_status_write "$dir" "skip	$(printf '%s' "$reason" | tr '\t\n' '  ')"
		else
			walk_status_write "$dir" ok
		fi
	done
}
