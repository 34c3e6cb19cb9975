# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-method-spread.sh - sourced by scripts/bench-method inside its
# summary: what the verdicts see per probe (within-run, between-run and
# floor SDs, the host's speed shift), the same at equal guest speed (both
# from `exitscope calibrate --from --spread`, spread-V.txt), and with
# --relabel the known-difference table (`exitscope compare` of the pooled
# runs for the true difference, `exitscope calibrate --verdicts` for the rest).

	echo "what the verdicts see, per probe (over all runs of the variant; in % of the probe's mean):"
	echo "within: SD of a run's round medians (pooled); se(run): within / sqrt(rounds), the part of a run"
	echo "mean's spread its rounds explain; between: SD of the run means; floor: the SD left beyond se(run);"
	echo "shift: SD over runs of the median over probes of a run mean / its probe mean - 1 (the host's speed):"
	# The tables are `exitscope calibrate --from --spread`'s, over each variant's runs in time order.
	for v in $variant_list; do
		mapfile -t vf < <(tail -n +2 "$from/runs.tsv" | awk -F'\t' -v v="$v" '$1 == v { print $5 }')
		# A variant without a spread (too few runs, a file exitscope refuses) says why and has no rows.
		"$exe" calibrate --from --spread "${vf[@]/#/$from/}" > "$from/spread-$v.txt" 2> "$from/spread-$v.err" ||
			echo "bench-method: no spread table of $v: $(head -n 1 "$from/spread-$v.err")" >&2
		rm -f "$from/spread-$v.err"
	done
	for v in $variant_list; do
		echo "  $v:"
		awk -v RS= 'NR == 1' "$from/spread-$v.txt" | sed 's/^/    /'
	done
	echo
	echo "the same at equal guest speed, as compare --normalize speed puts rounds (each round median less"
	echo "beta x its loop's distance from the mean of the run means of the loop; beta: the probe's slope on"
	echo "its loop within runs, pooled over the variant's runs; share: beta over mean / mean loop, 1 when"
	echo "the whole op follows the loop, 0 when none of it does; loop: SD of the runs' mean loops):"
	for v in $variant_list; do
		echo "  $v:"
		awk -v RS= 'NR == 2' "$from/spread-$v.txt" | sed 's/^/    /'
	done

	if [ -n "$relabel" ]; then
		echo
		echo "known difference: side B's $rx relabelled as $ry (found: called in the direction of the"
		echo "difference; true: $rx over $ry - 1 of all the variant's runs, side B's $rx against side A's"
		echo "$ry, each the mean of the run means (a run's: the mean of its round medians), as"
		echo "exitscope compare --normalize none puts them; median d, half width: calibrate --verdicts):"
		printf '  %-10s %-6s %7s %11s %13s %11s %11s %11s %11s %9s %11s\n' variant model true comparisons \
		       found "other way" "no change" "too noisy" "not judged" "median d" "half width"
		for v in $variant_list; do
			# true: all side A runs against all relabelled side B runs, pooled (cmp/true-V.json)
			mapfile -t fa < <(awk -F'\t' -v v="$v" '$1 == v && $3 == "a" { print $5 }' "$from/runs.tsv")
			mapfile -t fb < <(awk -F'\t' -v v="$v" '$1 == v && $3 == "b" { print "cmp/relabel-" $5 }' "$from/runs.tsv")
			tj=$from/cmp/true-$v.json
			"$exe" compare "${fa[@]/#/$from/}" -- "${fb[@]/#/$from/}" --normalize none --json "$tj" \
				> "${tj%.json}.txt" 2>&1 || { echo "bench-method: no true difference of $v: $(head -n 1 "${tj%.json}.txt")" >&2; continue; }
			tr=$(q "$tj" "probes[$ry].diff_pct" 2>/dev/null)
			case $tr in -*) dir=faster ;; *) dir=slower ;; esac
			for m in $(awk -F'\t' -v v="$v" 'NR > 1 && $4 == "relabel" && $1 == v && !seen[$3]++ { print $3 }' \
					"$from/verdicts.tsv"); do
				mapfile -t ks < <(awk -F'\t' -v v="$v" -v m="$m" 'NR > 1 && $4 == "relabel" && $1 == v &&
					$3 == m && !seen[$2]++ { print $2 }' "$from/verdicts.tsv")
				files=()
				for k in "${ks[@]}"; do files+=("$from/cmp/$v-$k-$m-relabel.json"); done
				t=$from/cmp/tally-$v-$m-relabel.txt
				"$exe" calibrate --verdicts "${files[@]}" > "$t" 2> "$t.err" ||
					{ echo "bench-method: no tally of $v $m relabelled: $(head -n 1 "$t.err")" >&2; continue; }
				rm -f "$t.err"
				# $ry's row: n, count and share of faster, slower, too noisy, no change, not judged; medians
				read -r _ n f fp s sp tn _ sn _ un _ _ d h < <(sed -n '/^probe /,/^$/p' "$t" |
					awk -v y="$ry" '$1 == y')
				[ -n "${n:-}" ] || continue
				if [ $dir = faster ]; then fd=$f fdp=$fp wr=$s; else fd=$s fdp=$sp wr=$f; fi
				printf '  %-10s %-6s %7s %11s %5s %7s %11s %11s %11s %11s %9s %11s\n' "$v" "$m" \
				       "$([ -n "$tr" ] && printf '%+.2f%%' "$tr" || echo -)" "$n" "$fd" "$fdp" "$wr" "$sn" "$tn" "$un" "$d" "$h"
			done
		done
	fi
