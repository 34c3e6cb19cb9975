# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-ab-compare.sh - sourced by scripts/lane-ab: `exitscope compare` of
# every pair block by block (a block left out on purpose is said, not
# failed), and `exitscope report` of all sides, each side's blocks merged
# into one result file first (`exitscope merge`).

# absent_reason SIDE BLOCK -> why the block has no result on purpose, or nothing
absent_reason() {
	local cmd
	cmd=$(awk -v b="$2" '$1 == b { print $2 " has no " ($3 == "" ? "such command" : $3) ; exit }' "$out/dropped" 2>/dev/null)
	[ -n "$cmd" ] && { echo "exitscope $cmd"; return; }
	cmd=$(awk -v b="$2" '$1 == b { print $2; exit }' "$out/$1/results/absent" 2>/dev/null)
	[ -n "$cmd" ] && echo "exitscope has no '$cmd' command"
}

# --- step: compare ------------------------------------------------------------
for p in "${pair_list[@]}"; do
	b=${p%%:*} n=${p#*:}
	for blk in "${blocks[@]}"; do
		why=$(absent_reason "$b" "$blk")
		[ -n "$why" ] || why=$(absent_reason "$n" "$blk")
		if [ -n "$why" ]; then note "compare $b->$n $blk: not compared ($why)"; continue; fi
		missing=
		for f in "$out/$b/results/$blk.json" "$out/$n/results/$blk.json"; do
			is_result "$f" || missing=${missing:-$f}
		done
		if [ -n "$missing" ]; then
			soft "compare $b->$n $blk" "$missing is missing or not an exitscope result"
			continue
		fi
		cj=$out/compare-$b-$n-$blk.json
		if ! "$host_exe" compare "$out/$b/results/$blk.json" "$out/$n/results/$blk.json" "${thr_args[@]}" \
			--json "$cj" > "${cj%.json}.txt" 2> "$out/compare.err"; then
			soft "compare $b->$n $blk" "$(head -n 1 "$out/compare.err") (${cj%.json}.txt)"
			continue
		fi
		note "compare $b->$n $blk: $(grep '^summary:' "${cj%.json}.txt" | sed 's/, [0-9]* only in .*//') -> ${cj#$out/}"
	done
done

# --- step: report -------------------------------------------------------------
# One result file per side: the first run block with every probe of the other
# run blocks as NAME@BLOCK, the first map and the first checks.
# `exitscope merge` makes it (man exitscope-merge).
report_files=()
for s in "${sides[@]}"; do
	files=()
	for blk in "${blocks[@]}"; do
		f=$out/$s/results/$blk.json
		is_result "$f" && files+=("$f")
	done
	if [ ${#files[@]} -eq 0 ]; then soft "report" "side $s has no results in $out/$s/results"; continue; fi
	if ! "$host_exe" merge -o "$out/$s.json" "${files[@]}" 2> "$out/merge.err"; then
		soft report "cannot merge the results of side $s into $out/$s.json: $(head -n 1 "$out/merge.err")"
		continue
	fi
	report_files+=("$s.json")
done
if [ ${#report_files[@]} -gt 0 ]; then
	if (cd "$out" && "$host_exe" report "${report_files[@]}" "${thr_args[@]}" -o report.html) 2> "$out/report.err"; then
		note "report: $out/report.html (${report_files[*]})"
	else
		soft report "$(head -n 1 "$out/report.err") ($out/report.html)"
	fi
	# The report compares every side against the first; a pair with another
	# base (seed004's a -> b) gets its own report-<base>-<new>.html.
	for p in "${pair_list[@]}"; do
		b=${p%%:*} n=${p#*:}
		[ "$b" != "${sides[0]}" ] && [ -s "$out/$b.json" ] && [ -s "$out/$n.json" ] || continue
		if (cd "$out" && "$host_exe" report "$b.json" "$n.json" "${thr_args[@]}" -o "report-$b-$n.html") 2> "$out/report.err"; then
			note "report: $out/report-$b-$n.html ($b -> $n)"
		else
			soft report "$(head -n 1 "$out/report.err") ($out/report-$b-$n.html)"
		fi
	done
fi
