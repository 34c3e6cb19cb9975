# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-method-measure.sh - sourced by scripts/bench-method unless --from: the
# runs. The default probe set, setup.tsv, an optional `exitscope calibrate`
# per variant (calibrate.tsv, noise-V.json), then the K comparisons' runs
# interleaved in time (V-K-S-I.json, runs.tsv) with what ran beside them
# (env.log); sets from to the output directory.

# --- measure -------------------------------------------------------------------
if [ -z "$from" ]; then
	if [ ${#probes[@]} -eq 0 ]; then
		read -r -a probes <<< "$issue_probes"
		while read -r name; do
			[ ${#probes[@]} -ge 20 ] && break
			case " ${probes[*]} nop " in *" $name "*) continue ;; esac
			probes+=("$name")
		# (run --list: a probe's line starts with its name; a "needs:" line
		# under it says what it needs; one without needs nothing)
		done < <("$exe" run --list 2>/dev/null | awk '
			NR > 1 && /^[^ ]/ { if (p != "" && !needs) print p; p = $1; needs = 0; next }
			/^ +needs:/ { needs = 1 }
			END { if (p != "" && !needs) print p }')
	fi
	[ ${#variants[@]} -eq 0 ] && variants=("default=$exe")
	for spec in "${variants[@]}"; do
		read -r -a w <<< "${spec#*=}"
		[ -x "${w[0]}" ] || die "variant ${spec%%=*}: no exitscope at ${w[0]}"
	done
	rm -rf "$out" && mkdir -p "$out/cmp" || die "cannot create $out"
	{
		echo "probes	${probes[*]}"
		echo "run_options	${run_opts[*]}"
		echo "pairs	$pairs"
		echo "runs_per_side	$per_side"
		for spec in "${variants[@]}"; do echo "variant	$spec"; done
		[ -n "$relabel" ] && echo "relabel	$relabel"
		[ -n "$noise" ] && echo "noise	$noise"
	} > "$out/setup.tsv"
	echo "bench-method: ${#probes[@]} probes (${probes[*]}), ${#variants[@]} variant(s), $pairs comparisons" \
	     "of $per_side run(s) a side, run options: ${run_opts[*]:-(none)}"
	snapshot() {
		{
			echo "=== $(date '+%F %T') $1"
			uptime
			top -b -n 2 -d 0.5 -w 256 2>/dev/null | awk '/^top -/ { it++ } it == 2 && /^ *PID/ { on = 1; next }
				on && n < 6 { n++; print $1, $9, $4, $12 }' |
			while read -r pid pcpu ni comm; do
				printf '  %6s %5s%% ni %3s cls %-4s %s\n' "$pid" "$pcpu" "$ni" \
					"$(ps -o cls= -p "$pid" 2>/dev/null | tr -d ' ')" "$comm"
			done
		} >> "$out/env.log"
	}
	# words[] of variant spec $1 for a run writing $2; vname, vopts[]
	command_of() {
		local w
		vname=${1%%=*}
		read -r -a w <<< "${1#*=}"
		vexe=${w[0]} vopts=("${w[@]:1}")
	}
	if [ -n "$calibrate" ]; then
		printf 'variant\tstart\tclock\twall_s\tload1_before\tload1_after\n' > "$out/calibrate.tsv"
		for spec in "${variants[@]}"; do
			command_of "$spec"
			snapshot "calibrate $vname"
			l0=$(cut -d' ' -f1 /proc/loadavg) t0=$(date +%s.%N)
			"$vexe" calibrate --runs "$calibrate" -o "$out/noise-$vname.json" --keep "$out/cal-$vname" \
				-- "${probes[@]}" "${run_opts[@]}" "${vopts[@]}" > "$out/calibrate-$vname.txt" 2>&1 ||
				die "calibrate $vname failed: $(tail -n 1 "$out/calibrate-$vname.txt") (in $out)"
			t1=$(date +%s.%N)
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$vname" "${t0%.*}" "$(date -d "@${t0%.*}" +%T)" \
				"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" "$l0" \
				"$(cut -d' ' -f1 /proc/loadavg)" >> "$out/calibrate.tsv"
			echo "  calibrate $vname: $calibrate runs, $(tail -n 1 "$out/calibrate.tsv" | cut -f4) s" >&2
		done
	fi
	printf 'variant\tk\tside\ti\tfile\tstart\tclock\twall_s\tcpu_s\tload1\tbusy_pct\tnice_pct\tidle_pct\tsteal_pct\n' \
		> "$out/runs.tsv"
	TIMEFORMAT='%R %U %S'
	for k in $(seq 1 "$pairs"); do
		[ "$k" -gt 1 ] && [ "$gap" != 0 ] && sleep "$gap"
		snapshot "comparison $k"
		for i in $(seq 1 "$per_side"); do
			for side in a b; do
				for spec in "${variants[@]}"; do
					command_of "$spec"
					f=$vname-$k-$side-$i
					load=$(cut -d' ' -f1 /proc/loadavg)
					read -r b0 n0 i0 s0 a0 <<< "$(cpu_ticks)"
					t0=$(date +%s)
					{ time "$vexe" run "${probes[@]}" --quiet --json "$out/$f.json" "${run_opts[@]}" "${vopts[@]}" \
						> "$out/$f.txt" 2> "$out/$f.err"; } 2> "$out/$f.time"
					rc=$?
					read -r b1 n1 i1 s1 a1 <<< "$(cpu_ticks)"
					# A run may skip probes (exit 0); anything else is no result.
					[ $rc -eq 0 ] && [ "$(qn "$out/$f.json" probes)" != 0 ] ||
						die "run $f exited $rc: $(head -n 1 "$out/$f.err") (in $out)"
					read -r wall us sy < "$out/$f.time"
					awk -v v="$vname" -v k="$k" -v s="$side" -v i="$i" -v f="$f.json" -v t="$t0" \
					    -v c="$(date -d "@$t0" +%T)" -v w="$wall" -v cpu="$(awk -v a="$us" -v b="$sy" 'BEGIN { print a + b }')" \
					    -v l="$load" -v db=$((b1 - b0)) -v dn=$((n1 - n0)) -v di=$((i1 - i0)) -v ds=$((s1 - s0)) \
					    -v da=$((a1 - a0)) 'BEGIN { if (da <= 0) da = 1
						printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%.2f\t%s\t%.0f\t%.0f\t%.0f\t%.1f\n", v, k, s, i, f, t, c,
						       w, cpu, l, 100 * db / da, 100 * dn / da, 100 * di / da, 100 * ds / da }' >> "$out/runs.tsv"
					printf '\r  comparison %d/%d, run %s %-10s load %s  ' "$k" "$pairs" "$side$i" "$vname" "$load" >&2
				done
			done
		done
	done
	echo >&2
	snapshot "end"
	from=$out
fi
