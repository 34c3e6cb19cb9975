# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2154 # from, exe, variant_list: set by scripts/bench-noise
# bench-noise-spread.sh - sourced by scripts/bench-noise inside its summary:
# the header, the per-probe SDs (within a run, between runs, se(run) and
# floor; as measured and at equal guest speed: `exitscope calibrate --from
# --spread`, with the host's speed per run), and each run with when and
# where it ran.

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
	echo "each run with when and where it ran (shift and loop: calibrate's per-run table, the median over"
	echo "probes of the run mean / the probe mean over runs - 1, of the rounds and of their loops):"
	for v in $variant_list; do
		# calibrate lists the runs in the order given: runs.tsv's order.
		mapfile -t rows < <(sed -n '/^  run    shift     loop$/,/^loop shift:/{/^  run /d; /^loop shift:/d; p}' \
			"$from/spread-$v.txt")
		i=0
		while IFS=$'\t' read -r vv k _ _ wall load cpu clock; do
			[ "$vv" = "$v" ] || continue
			read -r _ sh lp <<< "${rows[i]:-- - -}"
			printf '    %-10s run %3s  start %s  load %5s  cpu %s  wall %6s s  shift %7s  loop %7s\n' \
				"$v" "$k" "$clock" "$load" "$cpu" "$wall" "$sh" "$lp"
			i=$((i + 1))
		done < <(tail -n +2 "$from/runs.tsv")
	done
