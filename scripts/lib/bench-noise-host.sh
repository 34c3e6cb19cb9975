# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-noise-host.sh - sourced by scripts/bench-noise inside its summary:
# the host's speed inside a run (per round, from the baselines: the spread
# tables' round speed line, bench-noise-spread.sh) and, with two
# variants, the matched runs' differences against what the within-run SDs
# predict.

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
		awk -F'\t' -v va="$va" -v vb="$vb" '
		{ key = $1 SUBSEP $3 SUBSEP $2; n[key]++; s[key] += $5; ss[key] += $5 * $5
		  if (!($3 in seenp)) { seenp[$3] = 1; pl[++np] = $3 }; ks[$2] = 1 }
		END {
			printf "  %-16s %5s %9s %9s %6s %7s\n", "probe", "pairs", "diff SD", "expected", "ratio", "floor"
			for (i = 1; i <= np; i++) { p = pl[i]; c = 0; sd = 0; sdd = 0; e2 = 0; G = 0
				for (k in ks) { ka = va SUBSEP p SUBSEP k; kb = vb SUBSEP p SUBSEP k
					if (!(ka in n) || !(kb in n) || n[ka] < 2 || n[kb] < 2) continue
					ma = s[ka] / n[ka]; mb = s[kb] / n[kb]; c++; G += (ma + mb) / 2
					d = ma - mb; sd += d; sdd += d * d
					e2 += (ss[ka] - n[ka] * ma * ma) / (n[ka] - 1) / n[ka] + (ss[kb] - n[kb] * mb * mb) / (n[kb] - 1) / n[kb] }
				if (c < 2) continue
				G /= c; vd = (sdd - sd * sd / c) / (c - 1); e2 /= c; fl = (vd - e2) / 2; if (fl < 0) fl = 0
				printf "  %-16s %5d %8.2f%% %8.2f%% %6.2f %6.2f%%\n", p, c, 100 * sqrt(vd) / G, 100 * sqrt(e2) / G,
				       (e2 > 0 ? sqrt(vd / e2) : 0), 100 * sqrt(fl) / G }
			print "  (floor: the SD of a per-run component the within-run SDs do not explain, per run)"
			# the common shift (median over probes of the run mean / the probe mean - 1) of each side
			for (i = 1; i <= np; i++) { p = pl[i]; ga[p] = 0; gb[p] = 0; ca = 0; cb = 0
				for (k in ks) { ka = va SUBSEP p SUBSEP k; kb = vb SUBSEP p SUBSEP k
					if (ka in n) { ga[p] += s[ka] / n[ka]; ca++ }; if (kb in n) { gb[p] += s[kb] / n[kb]; cb++ } }
				if (ca) ga[p] /= ca; if (cb) gb[p] /= cb }
			m = 0
			for (k in ks) { c = 0
				for (i = 1; i <= np; i++) { p = pl[i]; ka = va SUBSEP p SUBSEP k; kb = vb SUBSEP p SUBSEP k
					if (!(ka in n) || !(kb in n) || ga[p] <= 0 || gb[p] <= 0) continue
					c++; xa[c] = s[ka] / n[ka] / ga[p] - 1; xb[c] = s[kb] / n[kb] / gb[p] - 1 }
				if (!c) continue
				m++; ya[m] = med(xa, c); yb[m] = med(xb, c) }
			if (m >= 3) { mx = 0; my = 0; for (i = 1; i <= m; i++) { mx += ya[i]; my += yb[i] }; mx /= m; my /= m
				sxy = 0; sxx = 0; syy = 0; sdd = 0
				for (i = 1; i <= m; i++) { sxy += (ya[i] - mx) * (yb[i] - my); sxx += (ya[i] - mx) ^ 2; syy += (yb[i] - my) ^ 2
					sdd += (ya[i] - yb[i] - mx + my) ^ 2 }
				printf "  common shift: SD %.2f%% (%s), %.2f%% (%s), of their difference %.2f%%; correlation %s\n",
				       100 * sqrt(sxx / (m - 1)), va, 100 * sqrt(syy / (m - 1)), vb, 100 * sqrt(sdd / (m - 1)),
				       (sxx > 0 && syy > 0) ? sprintf("%.2f", sxy / sqrt(sxx * syy)) : "-" }
		}
		'"$bench_awk_med" "$from/rounds.tsv"
	fi
