# tidy.awk - finish scdoc's man(7) output so `mandoc -Tlint` has nothing to
# say about it:
#  - drop the paragraph macros scdoc 1.11 emits where there is no paragraph
#    to break (right after .TH/.SH/.SS, before .SH/.SS/.RE, doubled); a .P
#    that ended an indented block moves after its .RE, where it separates
#    the next item;
#  - '-' in text is the minus sign '\-' (options stay ASCII when copied),
#    but not inside an escape's quoted argument: scdoc's bullet is
#    \h'-04'\(bu\h'+03'\c, and \h'\-04' is no distance to groff;
#  - no hyphenation anywhere (.nh after .TH): a path or an option split
#    with a hyphen is wrong when copied;
#  - the indented blocks of EXAMPLES (scdoc's tab-indented lines) are
#    commands: never filled, so each stays one line as written (.nf after
#    the block's .RS, .fi before its .RE; .P keeps no-fill in groff and
#    mandoc alike);
#  - filled text lines longer than 80 bytes are broken at a space (never
#    before a word that would start a control line).
function is_head(l) { return l ~ /^\.(TH|SH|SS)( |$)/ }
# '-' as '\-' outside escapes with a quoted argument (\h'-04', \w'...').
function minus(l,    out, seg) {
	out = ""
	while (match(l, /\\[hvwoDlLNbxXZ]'[^']*'/)) {
		seg = substr(l, 1, RSTART - 1)
		gsub(/-/, "\\-", seg)
		out = out seg substr(l, RSTART, RLENGTH)
		l = substr(l, RSTART + RLENGTH)
	}
	gsub(/-/, "\\-", l)
	return out l
}
function wrap(l,    cut, i) {
	while (length(l) > 80) {
		cut = 0
		for (i = 80; i > 1; i--)
			if (substr(l, i, 1) == " " && substr(l, i + 1, 1) !~ /[.']/) {
				cut = i
				break
			}
		if (!cut)
			break
		print substr(l, 1, cut - 1)
		l = substr(l, cut + 1)
	}
	print l
}
{ line[n++] = $0 }
END {
	m = 0
	for (i = 0; i < n; i++) {
		if (line[i] == ".P" && i + 1 < n && line[i + 1] == ".RE") {
			out[m++] = ".RE"
			line[i + 1] = ".P"
			continue
		}
		out[m++] = line[i]
	}
	k = 0
	for (i = 0; i < m; i++) {
		if (out[i] == ".P") {
			prev = k ? keep[k - 1] : ""
			next_l = i + 1 < m ? out[i + 1] : ".SH"
			if (is_head(prev) || prev == ".P" || prev == ".RS 4" ||
			    is_head(next_l) || next_l == ".P" || next_l == ".RE")
				continue
		}
		keep[k++] = out[i]
	}
	# EXAMPLES: no-fill indented blocks (those not already literal).
	m = 0
	sec = ""
	lit = 0
	for (i = 0; i < k; i++) {
		l = keep[i]
		if (l ~ /^\.SH /)
			sec = l
		if (sec == ".SH EXAMPLES" && l == ".RS 4" && (i == 0 || keep[i - 1] !~ /^\.nf/)) {
			out[m++] = l
			out[m++] = ".nf"
			lit = 1
			continue
		}
		if (lit && l == ".RE") {
			out[m++] = ".fi"
			lit = 0
		}
		out[m++] = l
		if (l ~ /^\.TH /)
			out[m++] = ".nh"
	}
	fill = 1
	for (i = 0; i < m; i++) {
		l = out[i]
		if (l ~ /^\.nf/)
			fill = 0
		else if (l ~ /^\.fi/)
			fill = 1
		if (l ~ /^[.']/) {
			print l
			continue
		}
		l = minus(l)
		if (fill)
			wrap(l)
		else
			print l
	}
}
