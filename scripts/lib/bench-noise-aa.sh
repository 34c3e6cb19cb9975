# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-noise-aa.sh - sourced by scripts/bench-noise inside its summary: A/A
# comparisons, one run a side, of the runs cut to their first r rounds
# (aa/), paired as --pairs says; per variant and r how many verdicts were
# false and how many too noisy (`exitscope calibrate --verdicts`, aa/tally-*).

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
		# the comparisons, then per label their tally: exitscope calibrate --verdicts
		while read -r label x y; do
			cj=$from/aa/c-r$r-$x-$y.json
			"$exe" compare "$from/aa/$x-r$r.json" "$from/aa/$y-r$r.json" --json "$cj" > /dev/null 2>&1 ||
				die "compare $x $y (r $r) failed"
			echo "$label $cj"
		done < "$from/aa/pairs.txt" > "$from/aa/cmp-r$r.txt"
		for label in $(cut -d' ' -f1 "$from/aa/cmp-r$r.txt" | awk '!seen[$0]++'); do
			mapfile -t cf < <(awk -v l="$label" '$1 == l { print $2 }' "$from/aa/cmp-r$r.txt")
			"$exe" calibrate --verdicts "${cf[@]}" > "$from/aa/tally-r$r-$label.txt" ||
				die "no tally of $label's comparisons (r $r)"
			# all: n, then count and share per verdict (too noisy: the 3rd); faster or slower: one line
			read -r _ n _ _ _ _ tn tp _ < <(grep '^all ' "$from/aa/tally-r$r-$label.txt")
			read -r fn fp < <(sed -n 's/^faster or slower: \([0-9]*\) (\([^)]*\)).*/\1 \2/p' \
				"$from/aa/tally-r$r-$label.txt")
			printf '  %-10s %6s %8s %10s %6s %10s %6s\n' "$label" "$r" "$n" "$fn" "$fp" "$tn" "$tp"
		done
	done | sort -s -k1,1
