# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-noise-measure.sh - sourced by scripts/bench-noise unless --from: the
# runs. K rounds of every variant interleaved in time (--paired: a slice of
# them at the same time), each run's file, start, wall time, load and CPU
# into runs.tsv; sets from to the output directory.

# --- measure -------------------------------------------------------------------
if [ -z "$from" ]; then
	[ ${#probes[@]} -eq 0 ] && read -r -a probes <<< "$default_probes"
	[ ${#variants[@]} -eq 0 ] && variants=("base=$exe")
	fixed=()
	[ $adaptive = 1 ] || fixed=(--rounds "$rounds" --precision 0.001 --precision-floor 0
		--time-budget "$(awk -v r="$rounds" -v s="$round_s" 'BEGIN { print r * s }')")
	rm -rf "$out" && mkdir -p "$out" || die "cannot create $out"
	echo "bench-noise: ${#probes[@]} probes (${probes[*]}), $runs runs x ${#variants[@]} variants," \
	     "run options: ${fixed[*]} ${run_opts[*]}"
	printf 'variant\tk\tfile\tstart\twall_s\tload1\tcpu\tclock\n' > "$out/runs.tsv"
	# start NAME K: the run's command line in words[], its file stem in f
	start() {
		local spec=$1 runargs cmd
		name=${spec%%=*} cmd=${spec#*=}
		f=$out/$name-$2
		runargs="run ${probes[*]} --quiet --json $f.json ${fixed[*]} ${run_opts[*]}"
		case $cmd in *'{}'*) ;; *) cmd="$cmd {}" ;; esac
		read -r -a words <<< "${cmd//\{\}/$runargs}"
	}
	# record NAME K RC T0 T1 LOAD
	record() {
		local f=$out/$1-$2 cpu
		[ "$3" -eq 0 ] || die "run $1 $2 exited $3: $(head -n 1 "$f.err") (in $out)"
		cpu=$(qv "$f.json" settings.cpu)
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$1-$2.json" "$4" \
			"$(awk -v a="$4" -v b="$5" 'BEGIN { printf "%.2f", b - a }')" "$6" "$cpu" \
			"$(date -d "@$4" +%T)" >> "$out/runs.tsv"
	}
	if [ -n "$slice" ] && [ ${#variants[@]} -ne 2 ]; then
		echo "bench-noise: --paired wants two variants (the same command twice for an A/A)" >&2
		usage
	fi
	for k in $(seq 1 "$runs"); do
		if [ -n "$slice" ]; then
			# Both runs at once, taking turns on the CPU in slices: the same host
			# history over the same seconds, so what still differs between them
			# belongs to the process.
			load=$(cut -d' ' -f1 /proc/loadavg)
			t0=$(date +%s.%N)
			start "${variants[0]}" "$k"; na=$name
			"${words[@]}" > "$f.txt" 2> "$f.err" & pa=$!
			kill -STOP $pa 2>/dev/null
			start "${variants[1]}" "$k"; nb=$name
			"${words[@]}" > "$f.txt" 2> "$f.err" & pb=$!
			kill -STOP $pb 2>/dev/null
			while kill -0 $pa 2>/dev/null || kill -0 $pb 2>/dev/null; do
				for p in $pa $pb; do
					kill -CONT "$p" 2>/dev/null || continue
					sleep "$slice"
					kill -STOP "$p" 2>/dev/null
				done
				# one has ended (a zombie until waited for): let the other finish alone
				if ! [ -d /proc/$pa ] || [ "$(awk '{ print $3 }' /proc/$pa/stat 2>/dev/null)" = Z ] ||
				   ! [ -d /proc/$pb ] || [ "$(awk '{ print $3 }' /proc/$pb/stat 2>/dev/null)" = Z ]; then
					kill -CONT $pa $pb 2>/dev/null
					break
				fi
			done
			wait $pa; ra=$?
			wait $pb; rb=$?
			t1=$(date +%s.%N)
			record "$na" "$k" $ra "$t0" "$t1" "$load"
			record "$nb" "$k" $rb "$t0" "$t1" "$load"
			printf '\r  pair %d/%d load %s' "$k" "$runs" "$load" >&2
			continue
		fi
		for spec in "${variants[@]}"; do
			start "$spec" "$k"
			load=$(cut -d' ' -f1 /proc/loadavg)
			t0=$(date +%s.%N)
			"${words[@]}" > "$f.txt" 2> "$f.err"
			rc=$?
			t1=$(date +%s.%N)
			record "$name" "$k" $rc "$t0" "$t1" "$load"
			printf '\r  run %d/%d %-12s load %s' "$k" "$runs" "$name" "$load" >&2
		done
	done
	echo >&2
	from=$out
fi
