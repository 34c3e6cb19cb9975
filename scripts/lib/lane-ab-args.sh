# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-ab-args.sh - sourced by scripts/lane-ab: its arguments, the .ab file
# (keys checked, sides with their kernels, sources and patches, the lanes it
# is for, lane settings, LANE_PROFILE), the pairs, and the output directory,
# made afresh.

# --- arguments --------------------------------------------------------------
mode=lane lane= abfile= expect= out= threshold= pairs= profile=0
sides=() lane_env=()
# The keys of an .ab file (besides NAME_KERNEL, NAME_SOURCE, NAME_REV, NAME_PATCHES)
# and the lane settings it may carry.
ab_keys="DESCRIPTION SIDES PAIRS COMMANDS EXPECT_VMX EXPECT_SVM EXPECT_SVM_QEMU THRESHOLD LANES LANES_WHY"
lane_keys="LANE_BOCHS LANE_BOCHS_CPU LANE_APICV LANE_NEED_CET LANE_PROFILE"
declare -A side_dir=() side_kernel=() side_patches=() side_source=() side_rev=()
if [ "${1:-}" = --results ]; then
	mode=results
	[ $# -ge 3 ] || usage
	sides=(a b)
	side_dir[a]=$2
	side_dir[b]=$3
	shift 3
	while [ $# -gt 0 ]; do
		case $1 in
		--side)
			[ $# -ge 2 ] && [[ "$2" == ?*=?* ]] || usage
			n=${2%%=*}
			[[ "$n" =~ ^[a-z][a-z0-9]*$ ]] || die arguments "side name '$n' (want lower-case letters and digits)"
			[ -z "${side_dir[$n]:-}" ] || die arguments "side '$n' given twice"
			sides+=("$n")
			side_dir[$n]=${2#*=}
			shift 2 ;;
		--pairs) [ $# -ge 2 ] || usage; pairs=$2; shift 2 ;;
		--expect) [ $# -ge 2 ] || usage; expect=$2; shift 2 ;;
		--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
		--threshold) [ $# -ge 2 ] || usage; threshold=$2; shift 2 ;;
		*) usage ;;
		esac
	done
	out=${out:-$top/build-lanes/ab-results}
	for s in "${sides[@]}"; do
		[ -d "${side_dir[$s]}" ] || die "results $s" "${side_dir[$s]}: no such directory"
	done
else
	[ $# -eq 2 ] || usage
	lane=$1
	abfile=$2
	case $lane in vmx | svm | svm-qemu) ;; *) usage ;; esac
	[ -r "$abfile" ] || die "ab file" "$abfile: cannot read"
	declare -A ab=() ab_line=()
	lineno=0
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		line=$(printf '%s' "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		case $line in '' | \#*) continue ;; esac
		[[ "$line" =~ ^([A-Z][A-Z0-9_]*)=(.*)$ ]] ||
			die "ab file" "$abfile:$lineno: not KEY=VALUE: $line"
		k=${BASH_REMATCH[1]}
		v=${BASH_REMATCH[2]}
		v=$(printf '%s' "$v" | sed 's/[[:space:]][[:space:]]*#.*$//')	# a trailing comment
		[[ "$v" =~ ^\"(.*)\"$ ]] && v=${BASH_REMATCH[1]}
		ab[$k]=$v
		ab_line[$k]=$lineno
	done < "$abfile"
	read -r -a sides <<< "${ab[SIDES]:-a b}"
	[ ${#sides[@]} -ge 2 ] || die "ab file" "$abfile: SIDES needs two or more names"
	for s in "${sides[@]}"; do
		[[ "$s" =~ ^[a-z][a-z0-9]*$ ]] || die "ab file" "$abfile: side name '$s' (want lower-case letters and digits)"
		S=${s^^}
		side_kernel[$s]=${ab[${S}_KERNEL]:-tiny}
		case ${side_kernel[$s]} in stock | tiny) ;; *) side_kernel[$s]=$(abspath "${side_kernel[$s]}") ;; esac
		p=
		IFS=: read -r -a plist <<< "${ab[${S}_PATCHES]:-}"
		for x in "${plist[@]}"; do
			[ -n "$x" ] || continue
			x=$(abspath "$x")
			[ -e "$x" ] || die "ab file" "$abfile: ${S}_PATCHES: $x does not exist"
			p=${p:+$p:}$x
		done
		side_patches[$s]=$p
		# NAME_SOURCE: a name of lanes/kernel-sources, or a kernel tree of
		# yours (a path: any value with a '/'), with NAME_REV a revision of
		# it when it is a git repository (lane-run's LANE_SOURCE, LANE_REV).
		side_source[$s]=${ab[${S}_SOURCE]:-}
		side_rev[$s]=${ab[${S}_REV]:-}
		case ${side_source[$s]} in
		*/*)
			side_source[$s]=$(abspath "${side_source[$s]}")
			[ -d "${side_source[$s]}" ] || die "ab file" "$abfile: ${S}_SOURCE: ${side_source[$s]} is no directory" ;;
		*)
			[[ "${side_source[$s]}" =~ ^[A-Za-z0-9._-]*$ ]] ||
				die "ab file" "$abfile: ${S}_SOURCE: '${side_source[$s]}' is not a source name (lanes/kernel-sources) or a path"
			[ -z "${side_rev[$s]}" ] ||
				die "ab file" "$abfile: ${S}_REV needs ${S}_SOURCE=PATH (a git repository), not '${side_source[$s]:-6.1}'" ;;
		esac
		[[ "${side_rev[$s]}" =~ ^[A-Za-z0-9._/~^@{}-]*$ ]] ||
			die "ab file" "$abfile: ${S}_REV: '${side_rev[$s]}' is not a git revision"
	done
	# Every key must be one of the file's keys: a typo is not a default.
	for k in "${!ab[@]}"; do
		case " $ab_keys $lane_keys " in *" $k "*) continue ;; esac
		if [[ "$k" =~ ^([A-Z][A-Z0-9]*)_(KERNEL|SOURCE|REV|PATCHES)$ ]] &&
			[[ " ${sides[*]} " == *" ${BASH_REMATCH[1],,} "* ]]; then continue; fi
		die "ab file" "$abfile:${ab_line[$k]}: unknown key $k (keys: $ab_keys $lane_keys, and NAME_KERNEL, NAME_SOURCE, NAME_REV, NAME_PATCHES of the SIDES ${sides[*]})"
	done
	lane_env=()
	for k in $lane_keys; do
		[ -n "${ab[$k]+x}" ] && [ $k != LANE_PROFILE ] || continue
		[[ "${ab[$k]}" =~ ^[A-Za-z0-9_./-]+$ ]] ||
			die "ab file" "$abfile:${ab_line[$k]}: $k: '${ab[$k]}' is not a lane setting value (letters, digits, _ . / -)"
		lane_env+=("$k=${ab[$k]}")
	done
	# The profile: the file's LANE_PROFILE, else the caller's: 0, 1 or the
	# lanes to profile in.
	profile=${ab[LANE_PROFILE]-${LANE_PROFILE:-0}}
	case $profile in
	0 | 1) ;;
	*)
		for l in $profile; do
			case $l in vmx | svm) ;; *) die "ab file" "$abfile${ab_line[LANE_PROFILE]:+:${ab_line[LANE_PROFILE]}}: LANE_PROFILE: '$profile' (1, 0 or Bochs lanes: vmx, svm)" ;; esac
		done
		[[ " $profile " == *" $lane "* ]] && profile=1 || profile=0 ;;
	esac
	read -r -a ab_lanes <<< "${ab[LANES]-vmx svm svm-qemu}"
	for l in "${ab_lanes[@]}"; do
		case $l in vmx | svm | svm-qemu) ;; *) die "ab file" "$abfile:${ab_line[LANES]}: LANES: '$l' is not a lane (vmx, svm, svm-qemu)" ;; esac
	done
	[ ${#ab_lanes[@]} -gt 0 ] || die "ab file" "$abfile:${ab_line[LANES]}: LANES is empty (vmx, svm, svm-qemu)"
	if [[ " ${ab_lanes[*]} " != *" $lane "* ]]; then
		note "$(basename "$abfile" .ab): skipped in lane $lane: LANES=${ab_lanes[*]}${ab[LANES_WHY]:+ (${ab[LANES_WHY]})}"
		exit 0
	fi
	[ -n "${ab[COMMANDS]:-}" ] || die "ab file" "$abfile: no COMMANDS="
	commands=$(abspath "${ab[COMMANDS]}")
	[ -r "$commands" ] || die "ab file" "$abfile: COMMANDS: $commands: cannot read"
	L=${lane^^}
	L=${L//-/_}
	[ "$lane" = svm-qemu ] && [ -z "${ab[EXPECT_SVM_QEMU]:-}" ] && L=SVM
	[ -n "${ab[EXPECT_$L]:-}" ] && expect=$(abspath "${ab[EXPECT_$L]}")
	pairs=${ab[PAIRS]:-}
	threshold=${ab[THRESHOLD]:-}
	name=$(basename "$abfile" .ab)
	out=${LANE_AB_OUT:-$top/build-lanes/ab-$name-$lane}
	[ -n "${ab[DESCRIPTION]:-}" ] && note "$name: ${ab[DESCRIPTION]}"
	if [ "$profile" = 1 ] && [ "$lane" = svm-qemu ]; then
		note "no exit-path profile in lane svm-qemu: QEMU has no instrumentation (LANE_PROFILE=1 profiles the Bochs lanes)"
		profile=0
	fi
	[ "$profile" = 0 ] || lane_env+=(LANE_PROFILE=1)
fi
if [ -z "$pairs" ]; then
	for s in "${sides[@]:1}"; do pairs="$pairs ${sides[0]}:$s"; done
fi
read -r -a pair_list <<< "$pairs"
for p in "${pair_list[@]}"; do
	b=${p%%:*} n=${p#*:}
	[[ "$p" == *:* ]] && [ -n "${side_dir[$b]:-}${side_kernel[$b]:-}" ] && [ -n "${side_dir[$n]:-}${side_kernel[$n]:-}" ] ||
		die arguments "pair '$p': want BASE:NEW of the sides ${sides[*]}"
done
[ -z "$expect" ] || [ -r "$expect" ] || die expectations "$expect: cannot read"
[ -x "$host_exe" ] || die exitscope "host exitscope '$host_exe' missing (make)"
thr_args=()
[ -n "$threshold" ] && thr_args=(--threshold "$threshold")

# The output directory is made afresh: never one that holds the inputs.
rout=$(realpath -m "$out")
case $rout in / | "$top" | "$(realpath -m "${HOME:-/}")") die setup "refusing to use $out as the output directory" ;; esac
for s in "${sides[@]}"; do
	[ -n "${side_dir[$s]:-}" ] || continue
	case $(realpath -m "${side_dir[$s]}")/ in "$rout"/*)
		die setup "results of side $s (${side_dir[$s]}) are inside the output directory $out (--out elsewhere)" ;;
	esac
done
rm -rf "$out"
mkdir -p "$out" || die setup "cannot create $out"
: > "$out/dropped"
