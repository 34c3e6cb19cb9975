# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-method-spread.sh - sourced by scripts/bench-method inside its
# summary: what the verdicts see per probe (within-run, between-run and
# floor SDs, the host's speed shift; rounds.tsv), the same at equal guest
# speed, and with --relabel the known-difference table.

	echo "what the verdicts see, per probe (over all runs of the variant; in % of the probe's mean):"
	echo "within: SD of a run's round medians (pooled); se(run): within / sqrt(rounds), the part of a run"
	echo "mean's spread its rounds explain; between: SD of the run means; floor: the SD left beyond se(run);"
	echo "shift: SD over runs of the median over probes of a run mean / its probe mean - 1 (the host's speed):"
	tail -n +2 "$from/runs.tsv" | while IFS=$'\t' read -r v k side i f _; do
		jq -r --arg v "$v" --arg r "$k$side$i" '.probes[] | select(.status == "ok" and (.rounds | length) >= 2)
			| "\($v)\t\($r)\t\(.name)\t\([.rounds[].median] | map(tostring) | join(","))\t\([.rounds[].baseline_median] | map(tostring) | join(","))"' "$from/$f"
	done > "$from/rounds.tsv"
	awk -F'\t' '
	'"$bench_awk_med"'
	{ R = split($4, x, ","); m = 0; for (j = 1; j <= R; j++) m += x[j]; m /= R; q = 0
	  for (j = 1; j <= R; j++) q += (x[j] - m) ^ 2
	  key = $1 SUBSEP $3; if (!(key in n)) { if (!($1 in nv)) vl[++nvl] = $1; nv[$1]++; pl[$1, nv[$1]] = $3 }
	  n[key]++; sm[key] += m; smm[key] += m * m; sq[key] += q; df[key] += R - 1; sr[key] += R
	  rm[$1, $2, $3] = m; if (!(($1, $2) in seenr)) { seenr[$1, $2] = 1; nr[$1]++; rl[$1, nr[$1]] = $2 } }
	END {
		for (a = 1; a <= nvl; a++) { v = vl[a]
			printf "  %s:\n    %-20s %5s %6s %10s %8s %8s %8s %8s\n", v, "probe", "runs", "rounds", "mean", "within",
			       "se(run)", "between", "floor"
			for (b = 1; b <= nv[v]; b++) { p = pl[v, b]; key = v SUBSEP p; K = n[key]; G = sm[key] / K
				if (K < 2 || df[key] < 1 || G == 0) continue
				w = sqrt(sq[key] / df[key]); R = sr[key] / K; se = w / sqrt(R)
				bv = (smm[key] - K * G * G) / (K - 1); if (bv < 0) bv = 0; fl = bv - se * se; if (fl < 0) fl = 0
				printf "    %-20s %5d %6.1f %10.0f %7.2f%% %7.2f%% %7.2f%% %7.2f%%\n", p, K, R, G, 100 * w / G,
				       100 * se / G, 100 * sqrt(bv) / G, 100 * sqrt(fl) / G
				mean[v, p] = G }
			c = 0
			for (r = 1; r <= nr[v]; r++) { run = rl[v, r]; k = 0
				for (b = 1; b <= nv[v]; b++) { p = pl[v, b]; if ((v, run, p) in rm && mean[v, p] > 0) d[++k] = rm[v, run, p] / mean[v, p] - 1 }
				if (k) sh[++c] = med(d, k) }
			ms = 0; for (r = 1; r <= c; r++) ms += sh[r]; ms /= (c ? c : 1); q = 0
			for (r = 1; r <= c; r++) q += (sh[r] - ms) ^ 2
			if (c > 1) printf "    shift: SD %.2f%% over %d runs\n", 100 * sqrt(q / (c - 1)), c
		}
	}' "$from/rounds.tsv"
	echo
	echo "the same at equal guest speed, as compare --normalize speed puts rounds (each round median less"
	echo "beta x its loop's distance from the mean of the run means of the loop; beta: the probe's slope on"
	echo "its loop within runs, pooled over the variant's runs; share: beta over mean / mean loop, 1 when"
	echo "the whole op follows the loop, 0 when none of it does; loop: SD of the runs' mean loops):"
	awk -F'\t' '
	{ R = split($4, y, ","); split($5, x, ","); key = $1 SUBSEP $3
	  if (!(key in n)) { if (!($1 in nv)) vl[++nvl] = $1; nv[$1]++; pl[$1, nv[$1]] = $3 }
	  j = ++n[key]; nr[key, j] = R; my = 0; mx = 0
	  for (r = 1; r <= R; r++) { Y[key, j, r] = y[r]; X[key, j, r] = x[r]; my += y[r]; mx += x[r] }
	  my /= R; mx /= R; MY[key, j] = my; MX[key, j] = mx
	  for (r = 1; r <= R; r++) { sxx[key] += (x[r] - mx) ^ 2; sxy[key] += (x[r] - mx) * (y[r] - my) } }
	END {
		for (a = 1; a <= nvl; a++) { v = vl[a]
			printf "  %s:\n    %-20s %5s %8s %7s %8s %8s %8s %8s %8s\n", v, "probe", "runs", "share", "loop",
			       "within", "se(run)", "between", "floor", "ratio"
			for (b = 1; b <= nv[v]; b++) { p = pl[v, b]; key = v SUBSEP p; K = n[key]
				if (K < 2 || !(sxx[key] > 0)) continue
				beta = sxy[key] / sxx[key]; gx = 0; gy = 0
				for (j = 1; j <= K; j++) { gx += MX[key, j]; gy += MY[key, j] }
				gx /= K; gy /= K; if (gy == 0) continue
				sq = 0; df = 0; sr = 0; sm = 0; smm = 0; lx = 0
				for (j = 1; j <= K; j++) { R = nr[key, j]; m = 0
					for (r = 1; r <= R; r++) { z[r] = Y[key, j, r] - beta * (X[key, j, r] - gx); m += z[r] }
					m /= R; for (r = 1; r <= R; r++) sq += (z[r] - m) ^ 2
					df += R - 1; sr += R; sm += m; smm += m * m; lx += (MX[key, j] - gx) ^ 2 }
				G = sm / K; w = sqrt(sq / df); se = w / sqrt(sr / K)
				bv = (smm - K * G * G) / (K - 1); if (bv < 0) bv = 0; fl = bv - se * se; if (fl < 0) fl = 0
				printf "    %-20s %5d %8.2f %6.2f%% %7.2f%% %7.2f%% %7.2f%% %7.2f%% %8.2f\n", p, K, beta * gx / gy,
				       100 * sqrt(lx / (K - 1)) / gx, 100 * w / G, 100 * se / G, 100 * sqrt(bv) / G,
				       100 * sqrt(fl) / G, (se > 0 ? sqrt(bv) / se : 0) }
		}
	}' "$from/rounds.tsv"

	if [ -n "$relabel" ]; then
		echo
		echo "known difference: side B's $rx relabelled as $ry (found: called in the direction of the"
		echo "difference; true: the mean over all runs of the variant of $rx / $ry - 1, from the mean of"
		echo "each run's round medians):"
		for v in $variant_list; do
			tail -n +2 "$from/runs.tsv" | awk -F'\t' -v v="$v" '$1 == v { print $5 }' |
			while read -r f; do
				jq -r --arg x "$rx" --arg y "$ry" '[.probes[] | select(.status == "ok" and (.name == $x or .name == $y))
					| {(.name): ([.rounds[].median] | add / length)}] | add // {}
					| select(.[$x] and .[$y]) | "\(.[$x]) \(.[$y])"' "$from/$f"
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
