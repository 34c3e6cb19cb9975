# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-method-compare.sh - sourced by scripts/bench-method: every
# comparison of the runs in $from, per variant, comparison k, model (plain,
# with the noise floor; per --normalize mode) and tag (A/A, relabelled), with
# `exitscope compare` into cmp/; one line per probe comparison into
# verdicts.tsv.

# --- analyse -------------------------------------------------------------------
[ -f "$from/runs.tsv" ] || die "no $from/runs.tsv"
[ -z "$relabel" ] && relabel=$(awk -F'\t' '$1 == "relabel" { print $2 }' "$from/setup.tsv" 2>/dev/null)
[ -z "$noise" ] && noise=$(awk -F'\t' '$1 == "noise" { print $2 }' "$from/setup.tsv" 2>/dev/null)
rx=${relabel%%=*} ry=${relabel#*=}
mkdir -p "$from/cmp"
variant_list=$(tail -n +2 "$from/runs.tsv" | cut -f1 | awk '!seen[$0]++')
floor_of() { if [ -n "$noise" ]; then echo "$noise"; elif [ -f "$from/noise-$1.json" ]; then echo "$from/noise-$1.json"; fi; }

# compare_one V K MODEL TAG FILES...: compare A -- B into cmp/V-K-MODEL[-TAG].json, one TSV line per probe
verdicts() {
	local w fields=(name verdict diff_pct ci95_pct_lo ci95_pct_hi min_detectable_pct method run_to_run df)
	local paths=("${fields[@]/#/probes[verdict!=not compared].}")
	w=$(q "$5" 'warnings[~^WARNING: the harness baseline]#')
	# One value per line, field after field: put each probe's fields on its line.
	q "$5" "${paths[@]}" | awk -v n="$(q "$5" 'probes[verdict!=not compared]#')" -v nf=${#fields[@]} \
		-v pre="$1\t$2\t$3\t$4" -v w=$((w > 0)) '
		{ v[NR] = ($0 == "null" ? "-" : $0) }
		END { for (i = 1; i <= n; i++) { l = pre
			for (f = 0; f < nf; f++) { x = v[f * n + i]; if (f == 7) l = l "/" x; else l = l "\t" x }
			print l "\t" w } }'
}
printf 'variant\tk\tmodel\ttag\tprobe\tverdict\tdiff_pct\tlo_pct\thi_pct\tmdc_pct\tmethod\tdf\twarning\n' > "$from/verdicts.tsv"
for v in $variant_list; do
	floor=$(floor_of "$v")
	for k in $(tail -n +2 "$from/runs.tsv" | awk -F'\t' -v v="$v" '$1 == v { print $2 }' | sort -un); do
		mapfile -t fa < <(awk -F'\t' -v v="$v" -v k="$k" '$1 == v && $2 == k && $3 == "a" { print $5 }' "$from/runs.tsv")
		mapfile -t fb < <(awk -F'\t' -v v="$v" -v k="$k" '$1 == v && $2 == k && $3 == "b" { print $5 }' "$from/runs.tsv")
		[ ${#fa[@]} -gt 0 ] && [ ${#fa[@]} = ${#fb[@]} ] || continue
		pa=("${fa[@]/#/$from/}") pb=("${fb[@]/#/$from/}")
		if [ -n "$relabel" ]; then
			rb=()
			for f in "${pb[@]}"; do
				r=$from/cmp/relabel-$(basename "$f")
				"$exe" merge --rename "$rx=$ry" -o "$r" "$f" 2> "$r.err" ||
					die "cannot relabel $f: $(head -n 1 "$r.err")"
				rm -f "$r.err"
				rb+=("$r")
			done
		fi
		models=(plain)
		[ -n "$floor" ] && models+=(floor)
		for mb in "${models[@]}"; do
		for nm in ${normalize//,/ }; do
			m=$mb
			[ "$nm" = auto ] || m=$mb-$nm
			nargs=(--normalize "$nm")
			[ $mb = floor ] && nargs+=(--noise "$floor")
			for tag in aa ${relabel:+relabel}; do
				side_b=("${pb[@]}")
				[ $tag = relabel ] && side_b=("${rb[@]}")
				cj=$from/cmp/$v-$k-$m-$tag.json
				if [ ${#pa[@]} = 1 ]; then
					"$exe" compare "${pa[0]}" "${side_b[0]}" "${thr_args[@]}" "${nargs[@]}" --json "$cj" > "${cj%.json}.txt" 2>&1
				else
					"$exe" compare "${pa[@]}" -- "${side_b[@]}" "${thr_args[@]}" "${nargs[@]}" --json "$cj" > "${cj%.json}.txt" 2>&1
				fi || die "compare $v $k ($m, $tag) failed: $(head -n 1 "${cj%.json}.txt")"
				verdicts "$v" "$k" "$m" "$tag" "$cj" >> "$from/verdicts.tsv"
			done
		done
		done
	done
done

