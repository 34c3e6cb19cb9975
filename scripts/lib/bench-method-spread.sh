# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-method-spread.sh - sourced by scripts/bench-method inside its
# summary: what the verdicts see per probe (within-run, between-run and
# floor SDs, the host's speed shift), the same at equal guest speed (both
# from `exitscope calibrate --from --spread`, spread-V.txt), and with
# --relabel the known-difference table.

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
		echo "difference; true: the mean over all runs of the variant of $rx / $ry - 1, from the mean of"
		echo "each run's round medians):"
		for v in $variant_list; do
			tail -n +2 "$from/runs.tsv" | awk -F'\t' -v v="$v" '$1 == v { print $5 }' |
			while read -r f; do
				# Both probes' round counts, then their round medians.
				q "$from/$f" "probes[$rx][status=ok].rounds[*]#" "probes[$ry][status=ok].rounds[*]#" \
					"probes[$rx][status=ok].rounds[*].median" "probes[$ry][status=ok].rounds[*].median" |
				awk 'NR == 1 { nx = $1 } NR == 2 { ny = $1 } NR > 2 && NR <= 2 + nx { sx += $1 }
					NR > 2 + nx { sy += $1 }
					END { if (nx && ny) printf "%.17g %.17g\n", sx / nx, sy / ny }'
			done | awk -v v="$v" '{ sx += $1; sy += $2; n++ } END { if (n) printf "%s\t%.2f\n", v, 100 * (sx / sy - 1) }'
		done > "$from/relabel-true.tsv"
		awk -F'\t' -v truef="$from/relabel-true.tsv" -v y="$ry" '
		BEGIN { while ((getline l < truef) > 0) { split(l, a, "\t"); tr[a[1]] = a[2] } }
		NR > 1 && $4 == "relabel" && $5 == y {
			key = $1 SUBSEP $3; if (!(key in n)) kl[++nk] = key; n[key]++
			dir = tr[$1] >= 0 ? "slower" : "faster"
			if ($6 == dir) fd[key]++; else if ($6 == "faster" || $6 == "slower") wr[key]++
			else if ($6 == "too noisy") t[key]++; else if ($6 == "not judged") u[key]++; else s[key]++
			d[key, n[key]] = $7; h[key, n[key]] = ($9 - $8) / 2 }
		'"$bench_awk_med"'
		END {
			printf "  %-10s %-6s %7s %11s %13s %11s %11s %11s %11s %9s %11s\n", "variant", "model", "true",
			       "comparisons", "found", "other way", "no change", "too noisy", "not judged", "median d",
			       "half width"
			for (i = 1; i <= nk; i++) { key = kl[i]; split(key, a, SUBSEP)
				for (j = 1; j <= n[key]; j++) { dd[j] = d[key, j]; hh[j] = h[key, j] }
				printf "  %-10s %-6s %+6.2f%% %11d %5d %5.1f%% %11d %11d %11d %11d %+8.2f%% %10.2f%%\n", a[1], a[2],
				       tr[a[1]], n[key], fd[key], 100 * fd[key] / n[key], wr[key], s[key], t[key], u[key],
				       med(dd, n[key]), med(hh, n[key]) }
		}' "$from/verdicts.tsv"
	fi
