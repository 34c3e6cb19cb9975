// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_out.c - the one-line descriptions of an A/B comparison shared by
 * the text and HTML output (the terminal text is compare_text.c, the JSON
 * document results/compare_model.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"

const char *compare_counter_line(const struct compare_counter *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %.2f -> %.2f %s/op%s%s%s", c->probe, c->a, c->b, c->counter,
		 c->note ? " (" : "", c->note ? c->note : "", c->note ? ")" : "");
	return buf;
}

const char *compare_map_line(const struct compare_result *cr, const struct compare_map_change *m,
			     char *buf, size_t len)
{
	if (!m->reg)
		snprintf(buf, len, "profile %s: only in %s", m->profile,
			 m->a ? cr->name_a : cr->name_b);
	else
		snprintf(buf, len, "%s: %s bit %lld (%s) %s: %s -> %s", m->profile, m->reg, m->bit,
			 m->name, m->op, m->a ? m->a : "(absent)", m->b ? m->b : "(absent)");
	return buf;
}

const char *compare_check_line(const struct compare_check_change *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s: %s -> %s", c->suite, c->name, c->a ? c->a : "(absent)",
		 c->b ? c->b : "(absent)");
	return buf;
}

const char *compare_normalize_line(const struct compare_result *cr, char *buf, size_t len)
{
	if (cr->normalized && !cr->n_normalized)
		snprintf(buf, len,
			 "figures: net cycles/op as measured: no probe had rounds with loops to "
			 "put at equal guest speed (%s)", cr->normalize_why);
	else if (cr->normalized)
		snprintf(buf, len,
			 "figures: net cycles/op at the base side's guest speed: each round's "
			 "net cost less the probe's slope on its harness loop (within runs, both "
			 "sides) x how far the loop timed beside it was from the base side's "
			 "mean (%s)", cr->normalize_why);
	else
		snprintf(buf, len, "figures: net cycles/op as measured (%s)", cr->normalize_why);
	return buf;
}

const char *compare_speed_line(const struct compare_result *cr, char *buf, size_t len)
{
	const struct compare_probe *s = &cr->speed;
	const char *v = s->verdict == COMPARE_FASTER ? "faster" :
			s->verdict == COMPARE_SLOWER ? "slower" :
			s->verdict == COMPARE_TOO_NOISY ? "too noisy to tell" :
			s->verdict == COMPARE_UNJUDGED ? "not judged" : "no significant change";

	if (!cr->has_speed || !s->has_pct)
		return NULL;
	snprintf(buf, len,
		 "guest speed (the harness loop beside %zu probe%s, cycles per op, new vs base): "
		 "%+.2f%% [%+.2f%%, %+.2f%%] by %s%s: %s%s", cr->speed_probes,
		 cr->speed_probes == 1 ? "" : "s", s->pct, s->pct_lo, s->pct_hi,
		 compare_method_names[s->method],
		 s->r2r == COMPARE_R2R_NONE || s->r2r == COMPARE_R2R_PARTIAL ?
		 " (one run on a side: from its rounds alone)" : "", v,
		 s->verdict == COMPARE_FASTER || s->verdict == COMPARE_SLOWER ?
		 (cr->normalized ? " (taken out of the probes' figures)" :
		  " (in the probes' figures)") : "");
	return buf;
}
