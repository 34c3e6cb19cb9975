/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap_out.h - TAP version 13 on stdout for `check --tap` and `map --tap`:
 * the plan, one "ok N - name" / "not ok N - name" line per test, skips as
 * "ok N - name # SKIP reason", YAML diagnostics blocks ("  ---" .. "  ...")
 * with the evidence, and "# " comments. What prove (TAP::Harness) reads.
 * Lines fit TEXT_WIDTH: a test line too long is cut at a word (" ...") and
 * its full text follows as "# " lines (after its YAML block); comments are
 * wrapped over several "# " lines; a long YAML value is a folded scalar.
 */
#ifndef EXITSCOPE_CLI_TAP_OUT_H
#define EXITSCOPE_CLI_TAP_OUT_H

#include <stdbool.h>
#include <stdio.h>

struct tap_out {
	FILE *f;
	unsigned n;		/* tests written */
	bool yaml;		/* a YAML block is open */
	char pending[2048];	/* a cut test line's full text, for a "# " diagnostic after it */
};

/* "TAP version 13" and the plan "1..plan". */
void tap_out_begin(struct tap_out *t, FILE *f, unsigned plan);
/* "1..0 # SKIP why": nothing could be tested. */
void tap_out_skip_all(FILE *f, const char *why);
/* One test: ok or not, its description ('#' escaped as TAP wants). */
void tap_out_test(struct tap_out *t, bool ok, const char *desc);
/* A skipped test: "ok N - desc # SKIP why" (an empty why says "no reason given"). */
void tap_out_skip(struct tap_out *t, const char *desc, const char *why);
/*
 * "  key: value" in the YAML block of the last test (opened on first use); empty
 * values are left out.
 */
void tap_out_yaml(struct tap_out *t, const char *key, const char *value);
/*
 * Close the YAML block, if one is open, and print a cut line's full text
 * (tap_out_test/skip/comment do it too; call it after the last test).
 */
void tap_out_yaml_end(struct tap_out *t);
void tap_out_comment(struct tap_out *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s as a YAML double-quoted scalar into buf ("\"...\"", \\ \" and control characters escaped). */
void tap_yaml_quote(char *buf, size_t len, const char *s);

#endif
