# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-selftest-extract.sh - sourced by tests/lanes/lane-selftest:
# scripts/lane-extract reads back a well-formed console log and rejects a
# garbled block and a block cut off before its END marker.

# lane-extract on synthetic console logs.
json='{"a": [1, 2],
 "b": "x"}'
sum=$(printf '%s\n' "$json" | md5sum | cut -d' ' -f1)
printf 'boot noise\n@@LANE BEGIN x\n%s\n@@LANE END x rc=0 md5=%s\n@@LANE DONE\n' "$json" "$sum" > "$tmp/good.log"
if "$top/scripts/lane-extract" "$tmp/good.log" "$tmp/good" 2> "$tmp/err" &&
	[ "$(cat "$tmp/good/x.json")" = "$json" ] && [ "$(cat "$tmp/good/x.rc")" = 0 ]; then
	ok "lane-extract reads a block back byte for byte"
else
	bad "lane-extract on a good log: $(cat "$tmp/err")"
fi
sed 's/"x"}/"y"}/' "$tmp/good.log" > "$tmp/garbled.log"
if "$top/scripts/lane-extract" "$tmp/garbled.log" "$tmp/garbled" 2> "$tmp/err"; then
	bad "lane-extract accepted a garbled block"
else
	ok "lane-extract rejects a garbled block: $(head -n1 "$tmp/err")"
fi
head -n 3 "$tmp/good.log" > "$tmp/cut.log"
if "$top/scripts/lane-extract" "$tmp/cut.log" "$tmp/cut" 2> "$tmp/err"; then
	bad "lane-extract accepted a block without END"
else
	ok "lane-extract rejects a cut-off block: $(head -n1 "$tmp/err")"
fi
