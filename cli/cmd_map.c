// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_map.c - `exitscope map`: the CR0/CR4 ownership map under CPUID
 * profiles, as a table or as TAP against an expectations file (--tap
 * --expect), with a progress line on a terminal.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/map_expect.h"
#include "cli/opts.h"
#include "cli/progress.h"
#include "cli/tap_out.h"
#include "harness/suite_env.h"
#include "kvm/trace.h"
#include "cli/cmds.h"
#include "results/result_doc.h"
#include "host/hostinfo.h"
#include "host/host_record.h"
#include "host/text_wrap.h"
#include "map/map.h"
#include "map/cpuid_profile.h"

#define MAP_MAX_PROFILES 16

/* What map's command line gives. */
struct map_args {
	const char *json_path, *kvm_opt, *expect_path;
	bool tap;
	struct map_opts mo;				/* --ops, --rounds, --trace */
	const char *profiles[MAP_MAX_PROFILES];		/* --cpuid-profile SPEC, as given */
	struct cpuid_profile parsed[MAP_MAX_PROFILES];
	char names[MAP_MAX_PROFILES][MAP_CPUID_PROFILE_LEN];
	const char *name_ptrs[MAP_MAX_PROFILES];	/* names[] */
	size_t np;
};

static int map_profile_opt(void *args, const char *arg, const struct cli_parser *cp);
static void map_tail(FILE *f);

static const struct cli_row map_rows[] = {
	CLI_ROW_CALL("cpuid-profile", CLI_LONG('p'), "SPEC", map_profile_opt,
		     "guest CPUID to map under; repeatable, each CPUID\n"
		     "profile once (default: host and minimal). SPEC is host,\n"
		     "minimal, or either followed by ,+FEATURE / ,-FEATURE\n"
		     "edits; a SPEC of edits alone is relative to host,\n"
		     "e.g. -shstk,-ibt or minimal,+x2apic (the minimal\n"
		     "CPUID profile: after the options)"),
	CLI_ROW_STR("json", CLI_LONG('j'), "FILE", struct map_args, json_path, NULL,
		    "also write a \"kind\":\"map\" result file ('-': to stdout,\n"
		    "instead of the table)"),
	CLI_ROW_KVM_DEV(struct map_args, kvm_opt),
	CLI_ROW_UINT("ops", CLI_LONG('n'), "N", struct map_args, mo.ops, 1, 1000000,
		     MAP_DEFAULT_OPS, "a count", "CR writes or reads per round, made even"),
	CLI_ROW_UINT("rounds", CLI_LONG('r'), "N", struct map_args, mo.rounds, 1, 100,
		     MAP_DEFAULT_ROUNDS, "a count", "rounds per entry"),
	CLI_ROW_FLAG("tap", CLI_LONG('T'), struct map_args, tap,
		     "print TAP version 13 instead of the table: one test per\n"
		     "CPUID profile and entry that --expect FILE names (needs it)"),
	CLI_ROW_STR("expect", CLI_LONG('e'), "FILE", struct map_args, expect_path, NULL,
		    "expected ownership, lines 'map REG NAME|BIT|* OP\n"
		    "STATUS[|STATUS...] [NUM]' and 'profile NAME|*' for\n"
		    "the map lines after it (default: host, else the\n"
		    "first CPUID profile): man exitscope-expect (a lane's\n"
		    "lanes/expect-*.txt works as it is: its other lines\n"
		    "are listed as skipped, with the reason). An entry\n"
		    "of a host that emulates guest code is skipped when\n"
		    "owned/intercepted was expected; entries not named\n"
		    "are listed in a comment, not tested"),
	CLI_ROW_FLAG("trace", CLI_LONG('t'), struct map_args, mo.trace,
		     "attribute each entry's exits to exit reasons (tracefs\n"
		     "kvm_exit events; needs root and a kernel with them):\n"
		     "per-op counts of the first round, e.g. CR_ACCESS 1.00"),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec map_spec = {
	.name = "map",
	.usage = "[options]",
	.about = "Which CR0/CR4 bits may a guest flip without a VM exit? For every bit a 64-bit\n"
		 "guest may toggle, and for reads of CR0/CR3/CR4/CR8, the guest performs the\n"
		 "operation N times between two syncs; the vCPU stats-fd 'exits' delta gives\n"
		 "exits/op (the closing sync's own exit subtracted, fewest of the rounds) and\n"
		 "the guest TSC gives cycles/op. Status: owned (0 exits/op), intercepted (>= 1),\n"
		 "rejected (the toggle faults, e.g. #GP without the CPUID feature; CR4 bits\n"
		 "are also tried via KVM_SET_SREGS), emulated (the host emulates all guest\n"
		 "code: ownership is not meaningful, no bit is called owned), skipped (why).\n",
	.rows = map_rows,
	.col = 24,
	.order = '+',
	.tail_print = map_tail,
	.tail = "Bits whose status differs between CPUID profiles are listed at the end.\n"
		"Exit status: 0 ok, 1 failure (or the result could not be written; with\n"
		"--expect: an expectation not met), 2 usage error (also: an unreadable\n"
		"expectations file or one that is no regular file, with no map line, a bad\n"
		"line, an unknown entry, status or profile in it), 3 KVM not available\n"
		"(with --tap: the plan \"1..0 # SKIP\" and 4, kselftest's KSFT_SKIP),\n"
		"130 stopped by Ctrl-C, 143 by SIGTERM, 129 by SIGHUP (entries not measured\n"
		"are \"stopped\": \"not ok\" in TAP; the map is still printed and written;\n"
		"before any entry was measured, an existing FILE is left as it was).\n"
		"On a terminal, stderr shows a progress line with the time left.\n",
};

/* text's words into buf, lines of at most width columns, each after the first indented by indent. */
static void map_wrap(char *buf, size_t len, const char *text, size_t width, size_t indent)
{
	size_t o = 0, col = 0;

	buf[0] = 0;
	for (const char *p = text; *p && o + 2 < len;) {
		size_t n;

		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (!n)
			break;
		if (col && col + 1 + n > width && o + indent + 1 < len) {
			o += (size_t)snprintf(buf + o, len - o, "\n%*s", (int)indent, "");
			col = 0;
		} else if (col) {
			buf[o++] = ' ';
			col++;
		}
		if (o + n + 1 > len)
			break;
		memcpy(buf + o, p, n);
		o += n;
		col += n;
		p += n;
	}
	buf[o < len ? o : len - 1] = 0;
}

/* Before the exit status: the minimal profile, in lines of at most 78 columns. */
static void map_tail(FILE *f)
{
	char doc[1024];

	map_wrap(doc, sizeof(doc), cpuid_profile_minimal_doc(), 78, 0);
	fprintf(f, "\n%s\n", doc);
}

/* What an edit list leaves of feature f: 1 set, 0 cleared, -1 untouched (the last edit wins). */
static int profile_edit_of(const struct cpuid_profile *p, enum x86_feat f)
{
	int v = -1;

	for (size_t i = 0; i < p->n; i++)
		if (p->edits[i].f == f)
			v = p->edits[i].on;
	return v;
}

/*
 * Whether two profiles are the same guest CPUID: one base, the same edits' outcome
 * ("-shstk", "host,-shstk").
 */
static bool profile_same(const struct cpuid_profile *a, const struct cpuid_profile *b)
{
	if (a->base != b->base)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (profile_edit_of(a, a->edits[i].f) != profile_edit_of(b, a->edits[i].f))
			return false;
	for (size_t i = 0; i < b->n; i++)
		if (profile_edit_of(a, b->edits[i].f) != profile_edit_of(b, b->edits[i].f))
			return false;
	return true;
}

/* --cpuid-profile SPEC: each profile once, at most MAP_MAX_PROFILES. */
static int map_profile_opt(void *args, const char *arg, const struct cli_parser *cp)
{
	struct map_args *a = args;
	struct cpuid_profile p;
	struct err err;

	if (a->np == MAP_MAX_PROFILES)
		return cli_usage_error("map", "at most %d CPUID profiles", MAP_MAX_PROFILES);
	if (cpuid_profile_parse(arg, &p, &err))
		return cli_usage_error("map", "%s", err.msg);
	/* The same profile twice would be measured twice, into a file export refuses. */
	for (size_t k = 0; k < a->np; k++)
		if (!strcmp(a->names[k], p.name) || profile_same(&a->parsed[k], &p))
			return cli_usage_error("map", "--cpuid-profile %s: the same profile as "
					       "--cpuid-profile %s: each is measured once", arg,
					       a->profiles[k]);
	a->parsed[a->np] = p;
	snprintf(a->names[a->np], sizeof(a->names[a->np]), "%s", p.name);
	a->name_ptrs[a->np] = a->names[a->np];
	a->profiles[a->np++] = arg;
	return 0;
}

/* The progress line: one item per entry of every profile. */
struct map_progress {
	struct progress p;
	unsigned done;
	char label[MAP_CPUID_PROFILE_LEN + 2 * MAP_KEY_LEN + 8];
};

static void map_progress(void *ctx, const char *profile, const struct result_map_entry *e)
{
	struct map_progress *mp = ctx;

	snprintf(mp->label, sizeof(mp->label), "%s %s.%s", profile, e->reg,
		 strcmp(e->op, "read") ? e->name : "read");
	progress_step(&mp->p, mp->done++, mp->label);
}

/* Whether any entry of the map was measured (or skipped by the host's say), not only stopped. */
static bool map_measured(const struct result_map *map)
{
	for (size_t j = 0; j < map->n_profiles; j++)
		for (size_t k = 0; k < map->profiles[j].n_entries; k++)
			if (map->profiles[j].entries[k].status != MAP_STOPPED)
				return true;
	return false;
}

int cmd_map(int argc, char **argv)
{
	struct map_args a = { 0 };
	static const char *const default_names[] = { "host", "minimal" };
	struct expect_map x = { 0 };
	struct map_progress mp = { 0 };
	unsigned failed = 0;
	struct suite_env env = { 0 };
	struct hostinfo_record rec;
	struct result_doc doc;
	struct hostinfo hi;
	struct result_map *map = NULL;
	struct err err;
	char why[256];
	struct cli_parser cp;
	int r, stop;

	r = cli_parse(&cp, &map_spec, &a, argc, argv);
	if (r)
		return r == CLI_PARSE_HELP ? EXIT_OK : r;
	if (optind < argc)
		return cli_usage_error("map", "unexpected argument '%s'", argv[optind]);
	if (a.tap != !!a.expect_path)
		return cli_usage_error("map", "--tap and --expect FILE go together: the tests are "
					      "the expectations");
	if (a.tap && a.json_path && !strcmp(a.json_path, "-"))
		return cli_usage_error("map", "--tap and --json - both want stdout");
	r = cli_output_distinct("map", "--json", a.json_path, &a.expect_path, 1, "--expect");
	if (r)
		return r;
	/* The expectations are checked before anything is measured. */
	if (a.expect_path) {
		r = map_expect_read(a.expect_path, a.np ? a.name_ptrs : default_names, a.np ? a.np : 2,
				    &x, &err);
		if (r)
			return cli_usage_error("map", "%s", err.msg);
	}
	r = cli_output_check("map", a.json_path);
	if (r)
		goto out_expect;
	r = cli_host_init("map", a.kvm_opt, &hi, &env);
	if (r) {
		if (a.tap && r == EXIT_NOKVM) {
			tap_out_skip_all(stdout, "KVM is not available (the reason is on stderr)");
			r = cli_stdout_check("map", EXIT_SKIP);
		}
		goto out_expect;
	}
	if (hostinfo_emulation_warning(&hi))
		text_wrap_print(stderr, "warning: ", 9, hostinfo_emulation_warning(&hi));
	if (a.mo.trace && !trace_available(why, sizeof(why))) {
		fprintf(stderr, "note: no exit attribution (--trace): %s\n", why);
		a.mo.trace = false;
	}
	progress_init(&mp.p, "map", (unsigned)(map_nr_entries() * (a.np ? a.np : 2)));
	a.mo.progress = map_progress;
	a.mo.progress_ctx = &mp;
	r = map_collect_opts(&env, a.profiles, a.np, &a.mo, &map, &err);
	progress_done(&mp.p);
	if (r == -EINVAL) {
		r = cli_usage_error("map", "%s", err.msg);
		goto out_expect;
	}
	if (r && r != -EINTR) {
		r = cli_kvm_error("map", env.kvm_path, r, err.msg);
		goto out_expect;
	}
	/* Stopped by Ctrl-C: what was measured is still shown and written. */
	/* With --json - stdout carries the JSON alone: no table. */
	if (a.tap)
		failed = map_expect_tap(stdout, &x, map);
	else if (!a.json_path || strcmp(a.json_path, "-"))
		map_print(stdout, map);
	result_doc_init(&doc, "map", argc, argv);
	hostinfo_record(&hi, &rec);
	doc.host = &rec.rec;
	doc.map = map;
	stop = *env.stop ? *env.stop : map->incomplete ? SIGINT : 0;
	r = stop && !map_measured(map) ? cli_finish_unmeasured("map", a.json_path, stop) : -1;
	if (r < 0)
		r = cli_finish("map", &doc, a.json_path, stop, failed ? EXIT_FAIL : EXIT_OK);
	result_doc_release(&doc);
	result_map_free(map);
out_expect:
	expect_map_free(&x);
	return r;
}
