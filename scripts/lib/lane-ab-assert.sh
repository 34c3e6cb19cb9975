# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-ab-assert.sh - sourced by scripts/lane-ab: ab_assert, which checks an
# A/B expectations file (syntax: lanes/ab/example.expect) on the comparisons
# of an output directory and prints one line per expectation with the
# measured figures: verdicts, exits and counters per op, map and check
# changes, exit-path functions (path), the census of costly instructions
# (census) and sums of figures (about).

# --- expectations ---------------------------------------------------------------
# ab_assert EXPECT OUT PAIR... - check EXPECT (syntax: lanes/ab/example.expect)
# on the comparisons in OUT; print one line per expectation, the measured
# figures on every one; 0 when all hold and at least one was checked.
ab_assert() {
	local expect=$1 dir=$2 line optional kind base new cj blk what
	shift 2
	local pairs=("$@") pass=0 failn=0 skipn=0
	base=${pairs[0]%%:*} new=${pairs[0]#*:}
	ok() { pass=$((pass + 1)); echo "  ok    $base->$new: $*"; }
	bad() { failn=$((failn + 1)); echo "  FAIL  $base->$new: $*"; }
	skip() { skipn=$((skipn + 1)); echo "  skip  $base->$new: $*"; }
	# numcmp VALUE SPEC: SPEC is N (|x-N| <= tol), >=N, <=N, >N or <N.
	numcmp() {
		awk -v x="$1" -v s="$2" -v t="$tol" 'BEGIN {
			if (x == "" || x == "null") exit 1
			op = "="; if (match(s, /^(>=|<=|>|<)/)) { op = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1) }
			if (s !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) exit 1
			x += 0; n = s + 0
			if (op == "=") r = (x - n <= t && n - x <= t)
			else if (op == ">=") r = (x >= n - t)
			else if (op == "<=") r = (x <= n + t)
			else if (op == ">") r = (x > n)
			else r = (x < n)
			exit !r }'
	}
	oneof() { [[ "|$2|" == *"|$1|"* ]]; }
	# need BLOCK: the comparison file of BLOCK for the current pair, or a
	# skip/fail line (returns 1) saying why there is none.
	need() {
		local why
		cj=$dir/compare-$base-$new-$1.json
		[ -s "$cj" ] && return 0
		why=$(absent_reason "$base" "$1")
		[ -n "$why" ] || why=$(absent_reason "$new" "$1")
		if [ -n "$why" ]; then skip "$line (block '$1' not run: $why)"
		elif [ $optional = 1 ]; then skip "$line (no comparison of block '$1')"
		else bad "$line: no comparison of block '$1' (missing results: $dir/$base/results/$1.json or $dir/$new/results/$1.json)"; fi
		return 1
	}
	# split_probe PROBE[@BLOCK] DEFAULT -> sets probe, blk
	split_probe() { probe=${1%@*}; blk=$2; [[ "$1" == *@* ]] && blk=${1##*@}; }
	# r2 X: a number rounded to two decimals, written without trailing
	# zeros (12.30 -> 12.3, 5.00 -> 5); anything else as it is.
	r2() {
		awk -v x="$1" 'BEGIN {
			if (x !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) { print x; exit }
			v = x * 100; v = v < 0 ? -int(-v + 0.5) : int(v + 0.5); s = sprintf("%.2f", v / 100)
			sub(/0+$/, "", s); sub(/\.$/, "", s); print s }'
	}
	# probe_row: the compare entry of $probe in $cj, \x1f-separated (verdict,
	# medians, diff, diff%, its interval, the sides' statuses; "-" for a
	# field it lacks), empty when absent.
	probe_row() {
		local f row
		[ -n "$(q "$cj" "probes[$probe].name" 2>/dev/null)" ] || return 0
		row=$(qv "$cj" "probes[$probe].verdict")
		for f in base_median new_median diff_cycles diff_pct ci95_pct_lo ci95_pct_hi; do
			row+=$'\x1f'$(r2 "$(qv "$cj" "probes[$probe].$f")")
		done
		row+=$'\x1f'$(qv "$cj" "probes[$probe].base_status")$'\x1f'$(qv "$cj" "probes[$probe].new_status")
		echo "$row"
	}
	figures() {	# from the fields read by probe_row
		if [ "$v" = "not compared" ]; then echo "not compared: base status $bst, new status $nst"
		else echo "base $bm, new $nm cycles/op, diff $dc ($dp% [$plo%, $phi%]), verdict $v"; fi
	}
	no_probe() {
		local where
		if q "$cj" 'only_in_base[*]' 2>/dev/null | grep -Fxq -- "$probe"; then where="only in base"
		elif q "$cj" 'only_in_new[*]' 2>/dev/null | grep -Fxq -- "$probe"; then where="only in new"
		else where="on neither side"; fi
		if [ $optional = 1 ]; then skip "$line (probe $probe@$blk $where)"
		else bad "$line: probe $probe@$blk: $where"; fi
	}
	# side_map SIDE REG NAME OP -> "status<TAB>exits<TAB>cycles" of the entry
	# in the side's map (its host profile, else its first one)
	side_map() {
		local f=$dir/$1/results/map.json prof e st
		prof=host
		[ "$(qn "$f" 'map.profiles[host]')" = 0 ] && prof=$(q "$f" 'map.profiles[*].name' 2>/dev/null | head -n 1)
		[ -n "$prof" ] || return 0
		e="map.profiles[$prof].entries[$2/$3/$4]"
		st=$(q "$f" "$e.status" 2>/dev/null | head -n 1)
		[ -n "$st" ] || return 0
		printf '%s\t%s\t%s\n' "$st" "$(qv "$f" "$e.exits_per_op")" "$(qv "$f" "$e.cycles_per_op")"
	}
	# term VALUE-NAME -> number, or empty with why set
	term() {
		local t=$1 side f
		case $t in
		-?[0-9]* | [0-9]* | .[0-9]*) echo "$t"; return ;;
		base:map:* | new:map:*)
			side=$base; [ "${t%%:*}" = new ] && side=$new
			f=${t#*:map:}
			IFS=. read -r r n o <<< "$f"
			side_map "$side" "$r" "$n" "$o" | cut -f3 | grep -v '^-$' ;;
		base:* | new:* | diff:*)
			split_probe "${t#*:}" run
			[ -s "$dir/compare-$base-$new-$blk.json" ] || return
			f=base_median; [ "${t%%:*}" = new ] && f=new_median; [ "${t%%:*}" = diff ] && f=diff_cycles
			qv "$dir/compare-$base-$new-$blk.json" "probes[$probe].$f" | grep -v '^-$' ;;
		esac
	}
	# sum TERM [+|- TERM]... -> "value<TAB>shown" or nothing when a term has no value
	sum() {
		local total=0 sign=1 shown= v w
		for w in "$@"; do
			case $w in
			+) sign=1; shown="$shown +" ;;
			-) sign=-1; shown="$shown -" ;;
			*)
				v=$(term "$w")
				[ -n "$v" ] || { echo "missing $w"; return 1; }
				total=$(awk -v a="$total" -v s=$sign -v b="$v" 'BEGIN { printf "%.6f", a + s * b }')
				shown="$shown $w=$(awk -v b="$v" 'BEGIN { printf "%.2f", b }')"
				sign=1 ;;
			esac
		done
		printf '%s\t%s\n' "$total" "${shown# }"
	}

	# path_row FUNCTION calls|insn -> "A B insnA insnB names state", \x1f-separated,
	# for $probe in $blk (split_probe) of the current pair: FUNCTION's
	# calls or instructions per op on BASE and on NEW, with its GCC clones
	# (FUNCTION.part.N, .constprop.N, .isra.N, .cold) counted with it, from
	# compare's exit_paths; a function compare does not list did not change
	# and is read from the sides' own exit paths (absent there: 0). FUNCTION
	# "kernel" is the L1 kernel's instructions per op. Or "no exit path ..."
	# when a side was not profiled.
	path_row() {
		local fn=$1 unit=$2 ra=$dir/$base/results/$blk.json rb=$dir/$new/results/$blk.json
		local ep=probes[$probe].exit_path cp=exit_paths.probes[probe=$probe] why= s side f
		is_result "$ra" && is_result "$rb" || return 0
		for side in a b; do
			f=$ra; [ $side = b ] && f=$rb
			[ "$(qn "$f" "$ep")" = 0 ] || continue
			s=$(qv "$f" "probes[$probe].status"); [ "$s" = - ] && s=null
			if [ "$s" = ok ]; then s="not profiled: LANE_PROFILE=1"; else s="probe status $s"; fi
			[ $side = a ] && why="$base ($s)" || why="${why:+$why and }$new ($s)"
		done
		[ -z "$why" ] || { echo "no exit path on $why"; return 0; }
		[ "$(qn "$cj" exit_paths)" != 0 ] ||
			{ echo "no exit path in compare's output (exitscope compare without exit_paths)"; return 0; }
		# One awk program over tab-separated rows: K (the two kernel
		# figures), C (a function compare lists as changed: name, calls and
		# insn per op on both sides), A and B (a side's function: name,
		# calls, insn per op).
		{
			if [ "$fn" != kernel ]; then :
			elif [ "$(qn "$cj" "$cp.kernel_insn_per_op")" != 0 ]; then
				q "$cj" "$cp.kernel_insn_per_op[*]" | paste -s - | sed 's/^/K\t/'
			else
				printf 'K\t%s\t%s\n' "$(qv "$ra" "$ep.kernel_insn_per_op")" "$(qv "$rb" "$ep.kernel_insn_per_op")"
			fi
			[ "$fn" = kernel ] || paste <(q "$cj" "$cp.functions[*].name" 2>/dev/null) <(q "$cj" "$cp.functions[*].calls_per_op" 2>/dev/null) \
				<(q "$cj" "$cp.functions[*].insn_per_op" 2>/dev/null) | sed 's/^/C\t/'
			[ "$fn" = kernel ] || for side in A B; do
				f=$ra; [ $side = B ] && f=$rb
				paste <(q "$f" "$ep.functions[*].name" 2>/dev/null) <(q "$f" "$ep.functions[*].calls_per_op" 2>/dev/null) \
					<(q "$f" "$ep.functions[*].insn_per_op" 2>/dev/null) | sed "s/^/$side\t/"
			done
		} | LC_ALL=C awk -F'\t' -v f="$fn" -v u="$unit" '
			# FUNCTION or one of its GCC clones (FUNCTION.suffix)
			function m(n) { return n == f || substr(n, 1, length(f) + 1) == f "." }
			# x rounded to two decimals, half away from zero
			function rd(x,  v, i) { v = x * 100; i = int(v); if (v - i >= 0.5) i++; else if (i - v >= 0.5) i--; return (i == 0 && v < 0) ? "-0" : i / 100 }
			# written without trailing zeros (12.30 -> 12.3, 5.00 -> 5, and -0 as -0)
			function pr(x,  s) { if (x == "-0") return x; s = sprintf("%.2f", x); sub(/0+$/, "", s); sub(/\.$/, "", s); return s }
			function pair(s, k) { gsub(/[][]/, "", s); split(s, k, ",") }
			$1 == "K" { ka = $2; kb = $3; next }
			$1 == "C" && m($2) { nc++; cn[$2] = 1; pair($3, c); pair($4, n); ca += c[1]; cb += c[2]; ia += n[1]; ib += n[2]; next }
			($1 == "A" || $1 == "B") && m($2) {
				if (!($2 in seen)) { seen[$2] = 1; all[++na] = $2 }
				if ($1 == "A") { sca[++nsa] = $2; svca[nsa] = $3; svia[nsa] = $4 }
				else { scb[++nsb] = $2; svcb[nsb] = $3; svib[nsb] = $4 }
			}
			END {
				if (f == "kernel") {
					a = rd(ka); b = rd(kb)
					printf "%s\037%s\037%s\037%s\037kernel\037%s\n", pr(a), pr(b), pr(a), pr(b), (a + 0 != b + 0) ? "changed" : "unchanged"
					exit
				}
				# a function compare does not list did not change: its figures from the sides
				for (j = 1; j <= nsa; j++) if (!(sca[j] in cn)) { sa += svca[j]; ja += svia[j] }
				for (j = 1; j <= nsb; j++) if (!(scb[j] in cn)) { sb += svcb[j]; jb += svib[j] }
				v0 = rd(ca + sa); v1 = rd(cb + sb); v2 = rd(ia + ja); v3 = rd(ib + jb)
				for (j = 2; j <= na; j++) for (k = j; k > 1 && all[k] < all[k - 1]; k--) { t = all[k]; all[k] = all[k - 1]; all[k - 1] = t }
				names = ""; for (j = 1; j <= na; j++) names = names (j > 1 ? "," : "") all[j]
				if (na == 0) st = "on neither side"
				else if (nc == 0) st = "unchanged"
				else if (v0 + 0 == 0 && v2 + 0 == 0) st = "new"
				else if (v1 + 0 == 0 && v3 + 0 == 0) st = "gone"
				else st = "changed"
				if (u == "calls") { x0 = v0; x1 = v1 } else { x0 = v2; x1 = v3 }
				printf "%s\037%s\037%s\037%s\037%s\037%s\n", pr(x0), pr(x1), pr(v2), pr(v3), names, st
			}'
	}

	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		[ -n "$line" ] || continue
		optional=0
		case $line in *'?') optional=1; line=${line%\?}; line=${line% } ;; esac
		read -r -a w <<< "$line"
		kind=${w[0]}
		case $kind in
		pair)
			if [ ${#w[@]} -ne 3 ]; then bad "bad line in $expect: $line (want: pair BASE NEW)"; continue; fi
			base=${w[1]} new=${w[2]}
			oneof "$base:$new" "$(IFS='|'; echo "${pairs[*]}")" ||
				bad "pair $base $new is not one of the compared pairs (${pairs[*]})"
			continue ;;
		verdict)
			[ ${#w[@]} -eq 3 ] || { bad "bad line in $expect: $line (want: verdict PROBE[@BLOCK] VERDICT[|..])"; continue; }
			split_probe "${w[1]}" run
			need "$blk" || continue
			row=$(probe_row)
			[ -n "$row" ] || { no_probe; continue; }
			IFS=$'\x1f' read -r v bm nm dc dp plo phi bst nst <<< "$row"
			case $v in "no significant change") short=unchanged ;; "not compared") short=not-compared ;; "too noisy") short=too-noisy ;; "not judged") short=unjudged ;; *) short=$v ;; esac
			if oneof "$short" "${w[2]}"; then ok "$probe@$blk $short: $(figures)"
			else bad "$probe@$blk: expected ${w[2]}, measured $short: $(figures)"; fi ;;
		exits | perop)
			if [ $kind = exits ]; then cnt=exits; set -- "${w[@]:2}"; else cnt=${w[2]:-}; set -- "${w[@]:3}"; fi
			[ $# -eq 3 ] && [ "$2" = "->" ] && [ -n "$cnt" ] ||
				{ bad "bad line in $expect: $line (want: exits PROBE[@BLOCK] A -> B, perop PROBE[@BLOCK] COUNTER A -> B)"; continue; }
			split_probe "${w[1]}" run
			need "$blk" || continue
			row=$(probe_row)
			[ -n "$row" ] || { no_probe; continue; }
			IFS=$'\x1f' read -r v bm nm dc dp plo phi bst nst <<< "$row"
			if [ "$v" = "not compared" ]; then bad "$probe@$blk $cnt/op: $(figures)"; continue; fi
			va=$(qv "$cj" "probes[$probe].base_per_op.$cnt") vb=$(qv "$cj" "probes[$probe].new_per_op.$cnt")
			fa=$(awk -v x="$va" 'BEGIN { if (x == "-") print "-"; else printf "%.2f", x }')
			fb=$(awk -v x="$vb" 'BEGIN { if (x == "-") print "-"; else printf "%.2f", x }')
			if numcmp "$va" "$1" && numcmp "$vb" "$3"; then ok "$probe@$blk: $fa -> $fb $cnt/op"
			else bad "$probe@$blk: expected $1 -> $3 $cnt/op, measured $fa -> $fb ($(figures))"; fi ;;
		within | pct)
			[ ${#w[@]} -eq 3 ] || { bad "bad line in $expect: $line (want: $kind PROBE[@BLOCK] ${kind/within/PCT}${kind/pct/ SPEC})"; continue; }
			split_probe "${w[1]}" run
			need "$blk" || continue
			row=$(probe_row)
			[ -n "$row" ] || { no_probe; continue; }
			IFS=$'\x1f' read -r v bm nm dc dp plo phi bst nst <<< "$row"
			spec=${w[2]%\%}
			if [ $kind = within ]; then
				good=$(awk -v x="$dp" -v m="$spec" 'BEGIN { print (x != "-" && x <= m + 0 && -x <= m + 0) ? 1 : 0 }')
				what="|diff| <= $spec%"
			else
				good=0; numcmp "$dp" "$spec" && good=1
				what="diff% $spec"
			fi
			if [ "$good" = 1 ]; then ok "$probe@$blk $what: $(figures)"
			else bad "$probe@$blk: expected $what, measured $(figures)"; fi ;;
		map)
			# map REG NAME OP A -> B [EA -> EB]
			[ ${#w[@]} -eq 7 -o ${#w[@]} -eq 10 ] && [ "${w[5]}" = "->" ] && { [ ${#w[@]} -eq 7 ] || [ "${w[8]}" = "->" ]; } ||
				{ bad "bad line in $expect: $line (want: map REG NAME OP A -> B [EXITS_A -> EXITS_B])"; continue; }
			need map || continue
			# The change of that entry in compare's map_changes, its host
			# profile's first, else the first of any profile.
			mc="map_changes[reg=${w[1]}][name=${w[2]}][op=${w[3]}]"
			[ "$(qn "$cj" "${mc}[profile=host]")" = 0 ] || mc="${mc}[profile=host]"
			row=
			if [ "$(qn "$cj" "$mc")" != 0 ]; then
				row=$(qa "$cj" "$mc.base")$'\t'$(qa "$cj" "$mc.new")
				for f in base_exits_per_op new_exits_per_op base_cycles_per_op new_cycles_per_op; do
					row+=$'\t'$(qv "$cj" "$mc.$f")
				done
			fi
			if [ -z "$row" ]; then	# unchanged: both sides' map files say what it is
				ra=$(side_map "$base" "${w[1]}" "${w[2]}" "${w[3]}")
				rb=$(side_map "$new" "${w[1]}" "${w[2]}" "${w[3]}")
				if [ -z "$ra" ] || [ -z "$rb" ]; then
					if [ $optional = 1 ]; then skip "$line (no map entry ${w[1]}.${w[2]} ${w[3]})"
					else bad "$line: no map entry ${w[1]}.${w[2]} ${w[3]} in $base or $new"; fi
					continue
				fi
				IFS=$'\t' read -r sa ea ca <<< "$ra"
				IFS=$'\t' read -r sb eb cb <<< "$rb"
			else
				IFS=$'\t' read -r sa sb ea eb ca cb <<< "$row"
			fi
			what="map ${w[1]}.${w[2]} ${w[3]}: $sa -> $sb, exits/op $ea -> $eb, cycles/op $ca -> $cb"
			if ! oneof "$sa" "${w[4]}" || ! oneof "$sb" "${w[6]}"; then
				bad "map ${w[1]}.${w[2]} ${w[3]}: expected ${w[4]} -> ${w[6]}, measured $sa -> $sb (exits/op $ea -> $eb, cycles/op $ca -> $cb)"
			elif [ ${#w[@]} -eq 10 ] && ! { numcmp "$ea" "${w[7]}" && numcmp "$eb" "${w[9]}"; }; then
				bad "map ${w[1]}.${w[2]} ${w[3]}: expected exits/op ${w[7]} -> ${w[9]}, measured $ea -> $eb ($sa -> $sb, cycles/op $ca -> $cb)"
			else ok "$what"; fi ;;
		mapchanges)
			[ ${#w[@]} -eq 2 ] || { bad "bad line in $expect: $line (want: mapchanges SPEC)"; continue; }
			need map || continue
			n=$(qn "$cj" 'map_changes[profile=host]')
			list=$(paste -d'\t' <(q "$cj" 'map_changes[profile=host].reg') <(q "$cj" 'map_changes[profile=host].name') \
				<(q "$cj" 'map_changes[profile=host].op') <(q "$cj" 'map_changes[profile=host].base') \
				<(q "$cj" 'map_changes[profile=host].new') 2>/dev/null |
				awk -F'\t' '$1 != "" { s = s (n++ ? ", " : "") $1 "." $2 " " $3 " " ($4 == "null" ? "(absent)" : $4) " -> " ($5 == "null" ? "(absent)" : $5) }
					END { printf "%s", s }')
			if numcmp "$n" "${w[1]}"; then ok "$n map changes${list:+: $list}"
			else bad "expected ${w[1]} map changes, measured $n${list:+: $list}"; fi ;;
		check)
			[ ${#w[@]} -eq 6 ] && [ "${w[4]}" = "->" ] || { bad "bad line in $expect: $line (want: check SUITE NAME A -> B)"; continue; }
			need check || continue
			cc="check_changes[suite=${w[1]}][name=${w[2]}]"
			row=
			if [ "$(qn "$cj" "$cc")" != 0 ]; then
				row=$(qa "$cj" "$cc.base")$'\t'$(qa "$cj" "$cc.new")
			fi
			if [ -z "$row" ]; then
				sa=$(q "$dir/$base/results/check.json" "checks[${w[1]}/${w[2]}].status" 2>/dev/null | head -n 1)
				sb=$(q "$dir/$new/results/check.json" "checks[${w[1]}/${w[2]}].status" 2>/dev/null | head -n 1)
				if [ -z "$sa" ] || [ -z "$sb" ]; then
					if [ $optional = 1 ]; then skip "$line (no check ${w[1]}/${w[2]})"
					else bad "$line: no check ${w[1]}/${w[2]} in $base or $new"; fi
					continue
				fi
			else
				IFS=$'\t' read -r sa sb <<< "$row"
			fi
			if oneof "$sa" "${w[3]}" && oneof "$sb" "${w[5]}"; then ok "check ${w[1]}/${w[2]}: $sa -> $sb"
			else bad "check ${w[1]}/${w[2]}: expected ${w[3]} -> ${w[5]}, measured $sa -> $sb"; fi ;;
		path)
			# path PROBE[@BLOCK] FUNCTION calls|insn A -> B
			[ ${#w[@]} -eq 7 ] && [ "${w[5]}" = "->" ] && oneof "${w[3]}" "calls|insn" ||
				{ bad "bad line in $expect: $line (want: path PROBE[@BLOCK] FUNCTION calls|insn A -> B)"; continue; }
			[ "${w[2]}:${w[3]}" != kernel:calls ] ||
				{ bad "bad line in $expect: $line (kernel has instructions, not calls: path PROBE kernel insn A -> B)"; continue; }
			split_probe "${w[1]}" run
			need "$blk" || continue
			[ -n "$(probe_row)" ] || { no_probe; continue; }
			fn=${w[2]} unit=${w[3]}
			row=$(path_row "$fn" "$unit")
			case $row in
			"no exit path"*)
				if [ $optional = 1 ]; then skip "$line ($probe@$blk: $row)"
				else bad "$line: $probe@$blk: $row"; fi
				continue ;;
			esac
			IFS=$'\x1f' read -r va vb ia ib names state <<< "$row"
			extra=$state
			[ $unit = calls ] && extra="insn/op $ia -> $ib, $state"
			[ -z "$names" ] || [ "$names" = "$fn" ] || extra="$extra; counted: $names"
			if numcmp "$va" "${w[4]}" && numcmp "$vb" "${w[6]}"; then ok "$probe@$blk $fn: $va -> $vb $unit/op ($extra)"
			else bad "$probe@$blk $fn: expected $unit/op ${w[4]} -> ${w[6]}, measured $va -> $vb ($extra)"; fi ;;
		census)
			# census PROBE[@BLOCK] INSN OPERAND|- A -> B: the L1 kernel's
			# executions per op of INSN with OPERAND (- for none) in the
			# probe's exit-path census on BASE and on NEW (a row a side's
			# census lacks is 0 there), read from the sides' own results
			split_probe "${w[1]}" run
			[ ${#w[@]} -eq 7 ] && [ "${w[5]}" = "->" ] ||
				{ bad "bad line in $expect: $line (want: census PROBE[@BLOCK] INSN OPERAND|- A -> B)"; continue; }
			need "$blk" || continue
			[ -n "$(probe_row)" ] || { no_probe; continue; }
			id=${w[2]}
			[ "${w[3]}" = - ] || id="$id/${w[3]}"
			vals=() why=
			for side in "$base" "$new"; do
				f=$dir/$side/results/$blk.json
				if ! q "$f" "probes[$probe].exit_path.census" > /dev/null 2>&1; then
					why="${why:+$why and }$side"
					continue
				fi
				v=$(qv "$f" "probes[$probe].exit_path.census[$id].per_op")
				[ "$v" = - ] && v=0
				vals+=("$(r2 "$v")")
			done
			if [ -n "$why" ]; then
				if [ $optional = 1 ]; then skip "$line ($probe@$blk: no census on $why)"
				else bad "$line: $probe@$blk: no census on $why (LANE_PROFILE=1 with a census-counting Bochs)"; fi
				continue
			fi
			if numcmp "${vals[0]}" "${w[4]}" && numcmp "${vals[1]}" "${w[6]}"; then ok "$probe@$blk census $id: ${vals[0]} -> ${vals[1]} per op"
			else bad "$probe@$blk census $id: expected ${w[4]} -> ${w[6]} per op, measured ${vals[0]} -> ${vals[1]}"; fi ;;
		about)
			# about TERMS = TERMS within PCT%
			eq=-1 wi=-1
			for i in "${!w[@]}"; do
				[ "${w[$i]}" = "=" ] && eq=$i
				[ "${w[$i]}" = within ] && wi=$i
			done
			if [ $eq -lt 2 ] || [ $wi -ne $((${#w[@]} - 2)) ] || [ $wi -le $((eq + 1)) ]; then
				bad "bad line in $expect: $line (want: about TERM [+|- TERM].. = TERM [+|- TERM].. within PCT%)"; continue
			fi
			# A term about a block without comparison: skipped or failed as that block.
			nob=
			for t in "${w[@]:1:$((wi - 1))}"; do
				case $t in base:map:* | new:map:*) b2=map ;; base:* | new:* | diff:*) split_probe "${t#*:}" run; b2=$blk ;; *) continue ;; esac
				[ -s "$dir/compare-$base-$new-$b2.json" ] || { nob=$b2; break; }
			done
			if [ -n "$nob" ]; then need "$nob"; continue; fi
			lhs=$(sum "${w[@]:1:$((eq - 1))}") || { if [ $optional = 1 ]; then skip "$line ($lhs)"; else bad "$line: no value for ${lhs#missing }"; fi; continue; }
			rhs=$(sum "${w[@]:$((eq + 1)):$((wi - eq - 1))}") || { if [ $optional = 1 ]; then skip "$line ($rhs)"; else bad "$line: no value for ${rhs#missing }"; fi; continue; }
			lv=${lhs%%$'\t'*} rv=${rhs%%$'\t'*} pc=${w[$((wi + 1))]%\%}
			good=$(awk -v l="$lv" -v r="$rv" -v p="$pc" 'BEGIN { d = l - r; if (d < 0) d = -d; a = r < 0 ? -r : r; print (d <= p / 100 * a) ? 1 : 0 }')
			what=$(awk -v l="$lv" -v r="$rv" 'BEGIN { printf "%.2f vs %.2f", l, r }')
			if [ "$good" = 1 ]; then ok "about: $what within $pc% (${lhs#*$'\t'} = ${rhs#*$'\t'})"
			else bad "expected ${lhs#*$'\t'} to be within $pc% of ${rhs#*$'\t'}, measured $what"; fi ;;
		*) bad "unknown expectation kind '$kind' in $expect: $line" ;;
		esac
	done < "$expect"
	echo "lane-ab: expectations: $pass passed, $failn failed, $skipn skipped"
	[ $failn -eq 0 ] && [ $pass -gt 0 ]
}
