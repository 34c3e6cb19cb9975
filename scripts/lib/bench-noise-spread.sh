# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2154 # from, exe, variant_list: set by scripts/bench-noise
# bench-noise-spread.sh - sourced by scripts/bench-noise inside its summary:
# the header, the per-probe SDs (within a run, between runs, se(run) and
# floor; as measured and at equal guest speed: `exitscope calibrate --from
# --spread`), and the part common to all probes (the host's speed) per
# variant and per run.

	echo "bench-noise: $(( $(wc -l < "$from/runs.tsv") - 1 )) runs in $from," \
	     "$(head -n 2 "$from/runs.tsv" | tail -n 1 | cut -f4 | xargs -I{} date -d @{} '+%F %H:%M' 2>/dev/null)"
	echo
	echo "per probe, over all runs of the variant (exitscope calibrate --from --spread: as measured, then"
	echo "at the runs' mean guest speed, the host's speed divided out as compare --normalize speed does):"
	for v in $variant_list; do
		vf=()
		while IFS=$'\t' read -r vv _ f _; do
			[ "$vv" = "$v" ] && vf+=("$from/$f")
		done < <(tail -n +2 "$from/runs.tsv")
		# A variant without a spread (too few runs, a file exitscope refuses) says why and has no rows.
		"$exe" calibrate --from --spread "${vf[@]}" > "$from/spread-$v.txt" 2> "$from/spread-$v.err" ||
			echo "bench-noise: no spread table of $v: $(head -n 1 "$from/spread-$v.err")" >&2
		rm -f "$from/spread-$v.err"
		echo "  $v:"
		sed 's/^./    &/' "$from/spread-$v.txt"
	done

	echo
	echo "common to all probes (the host's speed) and what is left per probe, per variant:"
	awk -F'\t' -v runsfile="$from/runs.tsv" '
	'"$bench_awk_med"'
	function sd(arr, k,   i, m, q) { m = 0; for (i = 1; i <= k; i++) m += arr[i]; m /= k; q = 0
		for (i = 1; i <= k; i++) q += (arr[i] - m) ^ 2; return k > 1 ? sqrt(q / (k - 1)) : 0 }
	BEGIN { while ((getline line < runsfile) > 0) { split(line, f, "\t"); if (f[1] == "variant") continue
		cpu[f[1] SUBSEP f[2]] = f[7]; load[f[1] SUBSEP f[2]] = f[6]; t[f[1] SUBSEP f[2]] = f[8]; wall[f[1] SUBSEP f[2]] = f[5] } }
	{ key = $1 SUBSEP $3 SUBSEP $2; n[key]++; s[key] += $5; b[key] += $6
	  if (!($1 in seenv)) { seenv[$1] = 1; vorder[++nv] = $1 }
	  if (!(($1 SUBSEP $3) in seenp)) { seenp[$1 SUBSEP $3] = 1; np[$1]++; pname[$1, np[$1]] = $3 }
	  if (!(($1 SUBSEP $2) in seenk)) { seenk[$1 SUBSEP $2] = 1; nk[$1]++; kname[$1, nk[$1]] = $2 } }
	END {
		for (vi = 1; vi <= nv; vi++) {
			v = vorder[vi]
			# each probe mean over runs (net and baseline)
			for (pi = 1; pi <= np[v]; pi++) {
				p = pname[v, pi]; c = 0; G[p] = 0; B[p] = 0
				for (ki = 1; ki <= nk[v]; ki++) { key = v SUBSEP p SUBSEP kname[v, ki]; if (!(key in n)) continue
					G[p] += s[key] / n[key]; B[p] += b[key] / n[key]; c++ }
				G[p] /= c; B[p] /= c
			}
			for (ki = 1; ki <= nk[v]; ki++) {
				k = kname[v, ki]; c = 0; cb = 0
				for (pi = 1; pi <= np[v]; pi++) { p = pname[v, pi]; key = v SUBSEP p SUBSEP k; if (!(key in n)) continue
					dv[++c] = s[key] / n[key] / G[p] - 1; dvb[c] = b[key] / n[key] / B[p] - 1 }
				for (i = 1; i <= c; i++) tmp[i] = dv[i]; shift[ki] = med(tmp, c)
				for (i = 1; i <= c; i++) tmp[i] = dvb[i]; bshift[ki] = med(tmp, c)
				rows[v, ki] = sprintf("    %-10s run %3s  start %s  load %5s  cpu %s  wall %6s s  shift %+6.2f%%  baseline %+6.2f%%",
					v, k, t[v SUBSEP k], load[v SUBSEP k], cpu[v SUBSEP k], wall[v SUBSEP k],
					100 * shift[ki], 100 * bshift[ki])
				sc[cpu[v SUBSEP k]] += shift[ki]; nc[cpu[v SUBSEP k]]++
			}
			# what is left per probe after the common shift
			for (pi = 1; pi <= np[v]; pi++) {
				p = pname[v, pi]; c = 0
				for (ki = 1; ki <= nk[v]; ki++) { key = v SUBSEP p SUBSEP kname[v, ki]; if (!(key in n)) continue
					r[++c] = s[key] / n[key] / G[p] - 1 - shift[ki] }
				left[pi] = sd(r, c)
			}
			cs = sd(shift, nk[v]); bs = sd(bshift, nk[v])
			# correlation of the net shift with the baseline shift
			mx = 0; my = 0; for (i = 1; i <= nk[v]; i++) { mx += shift[i]; my += bshift[i] }; mx /= nk[v]; my /= nk[v]
			sxy = 0; sxx = 0; syy = 0
			for (i = 1; i <= nk[v]; i++) { sxy += (shift[i] - mx) * (bshift[i] - my); sxx += (shift[i] - mx) ^ 2; syy += (bshift[i] - my) ^ 2 }
			printf "  %-10s common shift SD %5.2f%%, baseline shift SD %5.2f%% (correlation %s), left per probe after the shift: median SD %5.2f%%\n",
			       v, 100 * cs, 100 * bs, (sxx > 0 && syy > 0) ? sprintf("%.2f", sxy / sqrt(sxx * syy)) : "-", 100 * med(left, np[v])
			line = "";
			for (c in nc) line = line sprintf("  cpu %s: %d runs, mean shift %+.2f%%", c, nc[c], 100 * sc[c] / nc[c])
			printf "  %-10s by CPU:%s\n", v, line
			delete sc; delete nc
		}
		print ""
		print "  each run (shift: median over probes of the run mean / the probe mean over runs - 1):"
		maxk = 0; for (vi = 1; vi <= nv; vi++) if (nk[vorder[vi]] > maxk) maxk = nk[vorder[vi]]
		for (ki = 1; ki <= maxk; ki++) for (vi = 1; vi <= nv; vi++) if ((vorder[vi], ki) in rows) print rows[vorder[vi], ki]
	}' "$from/rounds.tsv"
