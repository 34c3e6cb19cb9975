# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-method-verdicts.sh - sourced by scripts/bench-method inside its
# summary: the runs table (wall and CPU time, rounds, stop reasons, the
# host's CPU time beside), each noise floor's spread, and the A/A verdict
# tables (per variant and model, per comparison k, per probe).

	echo "bench-method: $(tail -n +2 "$from/runs.tsv" | wc -l) runs in $from," \
	     "$(date -d "@$(sed -n 2p "$from/runs.tsv" | cut -f6)" +%F) $(sed -n 2p "$from/runs.tsv" | cut -f7)" \
	     "to $(tail -n 1 "$from/runs.tsv" | cut -f7)"
	[ -f "$from/setup.tsv" ] && awk -F'\t' '$1 != "probes" && $2 != "" { print "  " $1 ": " $2 }' "$from/setup.tsv"
	echo
	echo "runs (wall and CPU s of one run; rounds: per probe and run, of the probes measured; beside:"
	echo "the host's CPU time over the runs, % of all CPUs: busy with anything, niced, idle, stolen):"
	# per probe-run: variant rounds stop
	tail -n +2 "$from/runs.tsv" | while IFS=$'\t' read -r v _ _ _ f _; do
		mapfile -t names < <(q "$from/$f" 'probes[status=ok].name' 2>/dev/null)
		[ ${#names[@]} -gt 0 ] || continue
		paths=()
		for p in "${names[@]}"; do paths+=("probes[$p].rounds[*]#" "probes[$p][stop!=null]#"); done
		mapfile -t counts < <(q "$from/$f" "${paths[@]}")
		mapfile -t stops < <(q "$from/$f" 'probes[status=ok][stop!=null].stop' 2>/dev/null)
		j=0
		for i in "${!names[@]}"; do
			stop=-
			[ "${counts[2 * i + 1]}" = 1 ] && { stop=${stops[j]}; j=$((j + 1)); }
			printf '%s\t%s\t%s\n' "$v" "${counts[2 * i]}" "$stop"
		done
	done > "$from/stops.tsv"
	awk -F'\t' -v stops="$from/stops.tsv" '
	'"$bench_awk_med"'
	BEGIN { while ((getline l < stops) > 0) { split(l, s, "\t"); np[s[1]]++; r[s[1], np[s[1]]] = s[2]; st[s[1], s[3]]++
		if (!(s[3] in seens)) { seens[s[3]] = 1; sl[++ns] = s[3] } } }
	NR > 1 { v = $1; if (!(v in n)) vl[++nv] = v; n[v]++; w[v, n[v]] = $8; c[v, n[v]] = $9; ld[v, n[v]] = $10
		bu[v, n[v]] = $11; ni[v, n[v]] = $12; id[v, n[v]] = $13; stl[v, n[v]] = $14 }
	END {
		printf "  %-10s %5s %7s %7s %7s %11s %7s %12s %6s %6s %6s %6s  %s\n", "variant", "runs", "wall s", "max s", "cpu s",
		       "load1", "rounds", "all rounds", "busy", "nice", "idle", "steal", "stops"
		for (i = 1; i <= nv; i++) { v = vl[i]; lo = 1e9; hi = -1; full = 0; mx = 0
			for (j = 1; j <= n[v]; j++) { a[j] = w[v, j]; if (w[v, j] > mx) mx = w[v, j]
				if (ld[v, j] < lo) lo = ld[v, j]; if (ld[v, j] > hi) hi = ld[v, j] }
			mw = med(a, n[v])
			for (j = 1; j <= n[v]; j++) a[j] = c[v, j]; mc = med(a, n[v])
			for (j = 1; j <= n[v]; j++) a[j] = bu[v, j]; mb = med(a, n[v])
			for (j = 1; j <= n[v]; j++) a[j] = ni[v, j]; mn = med(a, n[v])
			for (j = 1; j <= n[v]; j++) a[j] = id[v, j]; mi = med(a, n[v])
			for (j = 1; j <= n[v]; j++) a[j] = stl[v, j]; ms = med(a, n[v])
			mx_r = 0; for (j = 1; j <= np[v]; j++) { a[j] = r[v, j]; if (r[v, j] > mx_r) mx_r = r[v, j] }
			for (j = 1; j <= np[v]; j++) if (r[v, j] == mx_r) full++
			mr = np[v] ? med(a, np[v]) : 0; stops_s = ""
			for (j = 1; j <= ns; j++) if ((v, sl[j]) in st) stops_s = stops_s sprintf(" %s %d", sl[j], st[v, sl[j]])
			printf "  %-10s %5d %7.2f %7.2f %7.2f %5.2f-%-5.2f %7.1f %5.1f%% of %-2d %5.0f%% %5.0f%% %5.0f%% %5.1f%% %s\n", v, n[v],
			       mw, mx, mc, lo, hi, mr, np[v] ? 100 * full / np[v] : 0, mx_r, mb, mn, mi, ms, stops_s }
	}' "$from/runs.tsv"

	# spread_line LABEL UNIT PATH R: min, median (the upper one) and max of the
	# floor's values at PATH (x 100 for a %), each rounded to 1/R; nothing
	# when it has none.
	spread_line() {
		q "$floor" "$3" 2>/dev/null | sort -g | awk -v l="$1" -v u="$2" -v r="$4" '
		function rd(x) { if (u == "%") x *= 100; x *= r; return (x < 0 ? -int(-x + 0.5) : int(x + 0.5)) / r }
		{ x[NR] = $1 }
		END { if (NR) printf "%s min %s%s, median %s%s, max %s%s\n", l, rd(x[1]), u, rd(x[int(NR / 2) + 1]), u,
		      rd(x[NR]), u }'
	}
	for v in $variant_list; do
		floor=$(floor_of "$v")
		[ -n "$floor" ] || continue
		echo
		echo "noise floor of $v ($floor): $(qv "$floor" runs) runs, $(qv "$floor" first_started) to $(qv "$floor" last_finished), $(qn "$floor" 'probes[*]') probes"
		spread_line "  between-run SD per probe:" % 'probes[*].between_sd_rel' 100
		spread_line "  its df per probe:" "" 'probes[*].df' 10
		spread_line "  at guest speed:" % 'probes[*].at_guest_speed.between_sd_rel' 100
		spread_line "  its df at guest speed:" "" 'probes[*].at_guest_speed.df' 10
		[ -f "$from/calibrate.tsv" ] && awk -F'\t' -v v="$v" '$1 == v { printf "  calibrate ran at %s for %s s, load %s to %s\n", $3, $4, $5, $6 }' "$from/calibrate.tsv"
	done

	echo
	echo "A/A (nothing changed: every faster/slower is false). model: plain = compare A.. -- B..,"
	echo "floor = the same with --noise; -none, -speed: with that --normalize (auto otherwise);"
	echo "comparisons: probe comparisons (of K); any false: comparisons of the K with at least one"
	echo "false verdict; not judged: compare's verdict where the interval lacks the run-to-run"
	echo "variation; mdc: the median smallest detectable change; warning: comparisons where"
	echo "compare warned the baseline moved:"
	awk -F'\t' 'NR > 1 && $4 == "aa" {
		key = $1 SUBSEP $3; if (!(key in n)) kl[++nk] = key; n[key]++
		if ($6 == "faster" || $6 == "slower") { f[key]++; fk[key, $2] = 1 }
		if ($6 == "too noisy") t[key]++
		if ($6 == "no significant change") s[key]++
		if ($6 == "not judged") u[key]++
		ks[key, $2] = 1; if ($13 == 1) wk[key, $2] = 1; mdc[key, n[key]] = ($10 == "-" ? 1e9 : $10); meth[key] = $11 }
	'"$bench_awk_med"'
	END {
		printf "  %-10s %-6s %-13s %11s %16s %9s %16s %16s %16s %8s %8s\n", "variant", "model", "interval",
		       "comparisons", "false", "any false", "too noisy", "no change", "not judged", "mdc", "warning"
		for (i = 1; i <= nk; i++) { key = kl[i]; split(key, a, SUBSEP); K = 0; FK = 0; W = 0
			for (kk in ks) { split(kk, b, SUBSEP); if (b[1] SUBSEP b[2] != key) continue; K++
				if ((key, b[3]) in fk) FK++; if ((key, b[3]) in wk) W++ }
			for (j = 1; j <= n[key]; j++) m[j] = mdc[key, j]
			md = med(m, n[key])
			printf "  %-10s %-6s %-13s %11d %6d %7.1f%% %4d/%-4d %6d %7.1f%% %6d %7.1f%% %6d %7.1f%% %8s %4d/%d\n",
			       a[1], a[2], meth[key], n[key], f[key], 100 * f[key] / n[key], FK, K, t[key],
			       100 * t[key] / n[key], s[key], 100 * s[key] / n[key], u[key], 100 * u[key] / n[key],
			       (md >= 1000 ? ">1000%" : sprintf("%.1f%%", md)), W, K }
	}' "$from/verdicts.tsv"
	echo
	echo "  per comparison k (in time order): the median over probes of its difference, a * per false verdict:"
	awk -F'\t' 'NR > 1 && $4 == "aa" {
		key = $1 SUBSEP $3; if (!(key in seen)) { seen[key] = 1; kl[++nk] = key }
		if (!(($1, $3, $2) in n)) { nc[key]++; kk[key, nc[key]] = $2 }
		n[$1, $3, $2]++; d[$1, $3, $2, n[$1, $3, $2]] = $7; if ($6 == "faster" || $6 == "slower") f[$1, $3, $2]++ }
	'"$bench_awk_med"'
	END { for (i = 1; i <= nk; i++) { split(kl[i], a, SUBSEP); line = ""
		for (j = 1; j <= nc[kl[i]]; j++) { k = kk[kl[i], j]; m = n[a[1], a[2], k]
			for (x = 1; x <= m; x++) dd[x] = d[a[1], a[2], k, x]
			stars = ""; for (x = 0; x < f[a[1], a[2], k]; x++) stars = stars "*"
			if (j > 1 && (j - 1) % 10 == 0) line = line "\n                   "
			line = line sprintf(" %+.1f%s", med(dd, m), stars) }
		printf "  %-10s %-6s%s\n", a[1], a[2], line } }' "$from/verdicts.tsv"
	echo
	echo "  per probe (false / too noisy, of the comparisons; and the median smallest detectable change):"
	awk -F'\t' 'NR > 1 && $4 == "aa" {
		key = $1 SUBSEP $3; if (!(key in seen)) { seen[key] = 1; kl[++nk] = key }
		if (!(($1, $3, $5) in n)) { np[key]++; pl[key, np[key]] = $5 }
		n[$1, $3, $5]++; if ($6 == "faster" || $6 == "slower") f[$1, $3, $5]++; if ($6 == "too noisy") t[$1, $3, $5]++
		m[$1, $3, $5, n[$1, $3, $5]] = ($10 == "-" ? 1e9 : $10) }
	'"$bench_awk_med"'
	END { for (i = 1; i <= nk; i++) { split(kl[i], a, SUBSEP); line = ""
		for (j = 1; j <= np[kl[i]]; j++) { p = pl[kl[i], j]; for (x = 1; x <= n[a[1], a[2], p]; x++) mm[x] = m[a[1], a[2], p, x]
			md = med(mm, n[a[1], a[2], p])
			line = line sprintf("\n    %-20s %3d/%-3d %3d/%-3d mdc %7s", p, f[a[1], a[2], p], n[a[1], a[2], p],
				t[a[1], a[2], p], n[a[1], a[2], p], md >= 1000 ? ">1000%" : sprintf("%.1f%%", md)) }
		printf "  %s %s:%s\n", a[1], a[2], line } }' "$from/verdicts.tsv"

	echo
