# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-method-verdicts.sh - sourced by scripts/bench-method inside its
# summary: the runs table (wall and CPU time, rounds, stop reasons, the
# host's CPU time beside: `exitscope calibrate --bench` of runs.tsv and
# stops.tsv), each noise floor's spread (`exitscope calibrate
# --show`, floor-V.txt), and the A/A verdict
# tables (per variant and model, per comparison k, per probe: `exitscope
# calibrate --verdicts` of the comparisons, cmp/tally-V-M-aa.txt).

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
	# The table's medians, shares and counts: `exitscope calibrate --bench`.
	"$exe" calibrate --bench "$from" || :	# exitscope said why

	# Each floor's figures' ranges over its probes: `exitscope calibrate --show`.
	for v in $variant_list; do
		floor=$(floor_of "$v")
		[ -n "$floor" ] || continue
		echo
		echo "noise floor of $v ($floor): $(qv "$floor" runs) runs, $(qv "$floor" first_started) to $(qv "$floor" last_finished), $(qn "$floor" 'probes[*]') probes"
		"$exe" calibrate --show "$floor" > "$from/floor-$v.txt" 2>&1 ||
			echo "bench-method: no ranges of $floor: $(head -n 1 "$from/floor-$v.txt")" >&2
		sed -n 's/^range of between %: /  between-run SD per probe: /p; s/^range of df: /  its df per probe: /p
			s/^range of at speed %: /  at guest speed: /p; s/^range of at speed df: /  its df at guest speed: /p' \
			"$from/floor-$v.txt"
		[ -f "$from/calibrate.tsv" ] && awk -F'\t' -v v="$v" '$1 == v { printf "  calibrate ran at %s for %s s, load %s to %s\n", $3, $4, $5, $6 }' "$from/calibrate.tsv"
	done

	echo
	echo "A/A (nothing changed: every faster/slower is false). model: plain = compare A.. -- B..,"
	echo "floor = the same with --noise; -none, -speed: with that --normalize (auto otherwise);"
	echo "comparisons: probe comparisons (of K); any false: comparisons of the K with at least one"
	echo "false verdict; not judged: compare's verdict where the interval lacks the run-to-run"
	echo "variation; mdc: the median smallest detectable change; warning: comparisons where"
	echo "compare warned the baseline moved:"
	# Per variant and model (in verdicts.tsv's order) the tally of its K A/A comparisons:
	# `exitscope calibrate --verdicts`, cmp/tally-V-M-aa.txt.
	tally_of() {	# V M: the tally into cmp/tally-V-M-aa.txt; 1 (said why) without one
		local t=$from/cmp/tally-$1-$2-aa.txt ks=() files=() k
		mapfile -t ks < <(awk -F'\t' -v v="$1" -v m="$2" 'NR > 1 && $4 == "aa" && $1 == v && $3 == m &&
			!seen[$2]++ { print $2 }' "$from/verdicts.tsv")
		for k in "${ks[@]}"; do files+=("$from/cmp/$1-$k-$2-aa.json"); done
		"$exe" calibrate --verdicts "${files[@]}" > "$t" 2> "$t.err" || {
			echo "bench-method: no tally of $1 $2: $(head -n 1 "$t.err")" >&2; rm -f "$t" "$t.err"; return 1; }
		rm -f "$t.err"
	}
	awk -F'\t' 'NR > 1 && $4 == "aa" && !seen[$1 "\t" $3]++ { print $1 "\t" $3 }' "$from/verdicts.tsv" \
		> "$from/cmp/aa-models.tsv"
	printf '  %-10s %-6s %-13s %11s %16s %9s %16s %16s %16s %8s %8s\n' variant model interval \
	       comparisons false "any false" "too noisy" "no change" "not judged" mdc warning
	while IFS=$'\t' read -r v m; do
		tally_of "$v" "$m" || continue
		t=$from/cmp/tally-$v-$m-aa.txt
		meth=$(awk -F'\t' -v v="$v" -v m="$m" '$4 == "aa" && $1 == v && $3 == m { x = $11 } END { print x }' \
			"$from/verdicts.tsv")
		read -r _ n _ _ _ _ tn tp sn sp un up mdc _ < <(grep '^all ' "$t")
		read -r fn fp moved files warned < <(sed -n 's/^faster or slower: \([0-9]*\) (\([^)]*\)) in \([0-9]*\) of \([0-9]*\) files; baseline warning in \([0-9]*\) .*/\1 \2 \3 \4 \5/p' "$t")
		printf '  %-10s %-6s %-13s %11s %6s %8s %4s/%-4s %6s %8s %6s %8s %6s %8s %8s %4s/%s\n' "$v" "$m" "$meth" \
		       "$n" "$fn" "$fp" "$moved" "$files" "$tn" "$tp" "$sn" "$sp" "$un" "$up" "$mdc" "$warned" "$files"
	done < "$from/cmp/aa-models.tsv"
	echo
	echo "  per comparison k (in time order): the median over probes of its difference, a * per false verdict:"
	while IFS=$'\t' read -r v m; do
		t=$from/cmp/tally-$v-$m-aa.txt
		[ -f "$t" ] || continue
		# the tally's file rows: k, n, then count and share per verdict (faster, slower first), mdc, diff, half
		sed -n '/^file /,/^$/{/^file /d; /^$/d; p}' "$t" |
		while read -r _ _ f _ s _ _ _ _ _ _ _ _ d _; do
			printf ' %s%s%s' "${d%\%}" "$(printf '%*s' "$f" '' | tr ' ' '*')" "$(printf '%*s' "$s" '' | tr ' ' '*')"
		done | fold -s -w 80 | sed "1s/^/  $(printf '%-10s %-6s' "$v" "$m")/; 2,\$s/^/                   /"
		echo
	done < "$from/cmp/aa-models.tsv"
	echo
	echo "  per probe (faster, slower and too noisy verdicts of the comparisons; the median smallest"
	echo "  detectable change):"
	while IFS=$'\t' read -r v m; do
		t=$from/cmp/tally-$v-$m-aa.txt
		[ -f "$t" ] || continue
		echo "  $v $m:"
		sed -n '/^probe /,/^$/{/^probe /d; /^$/d; p}' "$t" |
		while read -r p n f _ s _ tn _ _ _ _ _ mdc _; do
			printf '    %-20s faster %3s slower %3s too noisy %3s of %-3s mdc %7s\n' "$p" "$f" "$s" "$tn" "$n" "$mdc"
		done
	done < "$from/cmp/aa-models.tsv"

	echo
