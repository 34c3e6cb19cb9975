# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-noise-aa.sh - sourced by scripts/bench-noise inside its summary: A/A
# comparisons, one run a side, of the runs cut to their first r rounds
# (aa/), paired as --pairs says; per variant and r how many verdicts were
# false and how many too noisy.

	echo
	echo "A/A, one run per side (exitscope compare; each run cut to its first r rounds; pairs: $pairs):"
	printf '  %-10s %6s %6s %18s %18s\n' variant rounds compared "faster/slower" "too noisy"
	mkdir -p "$from/aa"
	maxr=$(cut -f4 "$from/rounds.tsv" | sort -n | tail -n 1)	# rounds - 1 of the longest: cuts below it

	# pair lists: "LABEL A-STEM B-STEM" per line
	pairlist() {
		local v karr i j
		if [ "$pairs" = matched ]; then
			[ "$nvar" = 2 ] || { echo "bench-noise: --pairs matched wants two variants" >&2; return; }
			tail -n +2 "$from/runs.tsv" | awk -F'\t' -v va="$va" -v vb="$vb" '$1 == va { a[$2] = 1 } $1 == vb { b[$2] = 1 }
				END { for (k in a) if (k in b) print va "~" vb, va "-" k, vb "-" k }' | sort -t- -k3n
			return
		fi
		for v in $variant_list; do
			mapfile -t karr < <(awk -F'\t' -v v="$v" '$1 == v { print $2 }' "$from/runs.tsv")
			for ((i = 0; i < ${#karr[@]}; i++)); do
				for ((j = i + 1; j < ${#karr[@]}; j++)); do
					[ $pairs = disjoint ] && { [ $((i % 2)) = 0 ] && [ $j = $((i + 1)) ] || continue; }
					echo "$v $v-${karr[i]} $v-${karr[j]}"
				done
			done
		done
	}
	pairlist > "$from/aa/pairs.txt"
	for r in 3 5 8 16 32 all; do
		[ "$r" = all ] || [ "$r" -le "$maxr" ] || continue
		tail -n +2 "$from/runs.tsv" | while IFS=$'\t' read -r _ _ f _; do
			"$exe" merge --rounds "${r/all/0}" -o "$from/aa/${f%.json}-r$r.json" "$from/$f" ||
				die "cannot cut $f"
		done
		while read -r label x y; do
			cj=$from/aa/c-r$r-$x-$y.json
			"$exe" compare "$from/aa/$x-r$r.json" "$from/aa/$y-r$r.json" --json "$cj" > /dev/null 2>&1 ||
				die "compare $x $y (r $r) failed"
			echo "$label $(qn "$cj" 'probes[verdict!=not compared]') $(qn "$cj" 'probes[verdict~^(faster|slower)$]')" \
				"$(qn "$cj" 'probes[verdict=too noisy]')"
		done < "$from/aa/pairs.txt" | awk -v r="$r" '{ if (!($1 in c)) o[++n] = $1; c[$1] += $2; f[$1] += $3; t[$1] += $4 }
			END { for (i = 1; i <= n; i++) { v = o[i]
				printf "  %-10s %6s %8d %10d %5.1f%% %10d %5.1f%%\n", v, r, c[v], f[v], c[v] ? 100 * f[v] / c[v] : 0,
				       t[v], c[v] ? 100 * t[v] / c[v] : 0 } }'
	done | sort -s -k1,1
