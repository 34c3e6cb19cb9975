# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-noise-host.sh - sourced by scripts/bench-noise inside its summary:
# the host's speed inside a run (per round, from the baselines: the spread
# tables' round speed line, bench-noise-spread.sh) and, with two
# variants, the matched runs' differences against what the within-run SDs
# predict (`exitscope calibrate --from --matched`, matched.txt).

	echo
	echo "the host's speed inside a run (per round: median over probes of the baseline / its run mean - 1;"
	echo "exitscope calibrate --from --spread, its round speed line):"
	for v in $variant_list; do
		printf '  %-10s %s\n' "$v" "$(sed -n 's/^round speed: //p' "$from/spread-$v.txt")"
	done

	if [ "$nvar" = 2 ]; then
		echo
		echo "matched runs, $va k vs $vb k (run k of each: at the same time with --paired, else one after the other;"
		echo "per probe: SD of the difference of run means, and what the within-run SDs predict):"
		# run k of each variant, for the k both have: exitscope calibrate --from --matched
		mapfile -t ks < <(tail -n +2 "$from/runs.tsv" | awk -F'\t' -v va="$va" -v vb="$vb" '
			$1 == va { a[$2] = $3 } $1 == vb { b[$2] = $3 }
			END { for (k in a) if (k in b) print k "\t" a[k] "\t" b[k] }' | sort -n)
		mfa=() mfb=()
		for l in "${ks[@]}"; do
			IFS=$'\t' read -r _ x y <<< "$l"
			mfa+=("$from/$x") mfb+=("$from/$y")
		done
		if "$exe" calibrate --from --matched "${mfa[@]}" "${mfb[@]}" > "$from/matched.txt" 2> "$from/matched.err"; then
			sed -n '1,/^$/{/^$/d; s/(first)/('"$va"')/; s/(second)/('"$vb"')/; s/^/  /; p}' "$from/matched.txt"
			echo "  (floor: the SD of a per-run component the within-run SDs do not explain, per run)"
		else
			echo "bench-noise: no matched table: $(head -n 1 "$from/matched.err")" >&2
		fi
		rm -f "$from/matched.err"
	fi
