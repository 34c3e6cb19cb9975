// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_schema.c - docs/results-schema.json against the real validator
 * (Debian python3-jsonschema, draft 2020-12) and against the C reader:
 * the schema is a valid 2020-12 schema; every result the binary writes
 * (info, run, run --all, map, check) and every recorded result
 * (lanes/samples, fuzz/corpus/valid-*) validates; one broken file per rule,
 * made here from a valid file by a python edit, is rejected, and the
 * binary's reader (`exitscope report`) rejects it too where it has the rule;
 * the fuzz corpus's broken files are rejected by both.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define PY		"/usr/bin/python3"	/* Debian's, with python3-jsonschema */
#define SCHEMA		"docs/results-schema.json"
#define MAX_FILES	128
#define PATHLEN		600

static const char *exe;
static char *dir;

/*
 * argv: SCHEMA FILE...; prints "SCHEMA OK" when the schema is a valid
 * draft 2020-12 schema, then per file "VALID FILE" or "INVALID FILE: why".
 * JSON itself as the C reader takes it: no NaN/Infinity, no duplicate keys.
 */
static const char validator[] =
	"import json, sys\n"
	"from jsonschema import Draft202012Validator as V\n"
	"def no_const(c): raise ValueError('not JSON: ' + c)\n"
	"def no_dup(pairs):\n"
	"    d = {}\n"
	"    for k, v in pairs:\n"
	"        if k in d: raise ValueError('duplicate key ' + k)\n"
	"        d[k] = v\n"
	"    return d\n"
	"schema = json.load(open(sys.argv[1]))\n"
	"V.check_schema(schema)\n"
	"print('SCHEMA OK')\n"
	"v = V(schema)\n"
	"for f in sys.argv[2:]:\n"
	"    try:\n"
	"        doc = json.loads(open(f, encoding='utf-8').read(), parse_constant=no_const,\n"
	"                         object_pairs_hook=no_dup)\n"
	"    except Exception as e:\n"
	"        print('INVALID %s: not JSON: %s' % (f, str(e)[:160])); continue\n"
	"    e = next(iter(sorted(v.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))), None)\n"
	"    if e is None: print('VALID ' + f)\n"
	"    else: print('INVALID %s: %s: %s' % (f, '/'.join(map(str, e.absolute_path)) or '(top)',\n"
	"                                        e.message[:160].replace('\\n', ' ')))\n";

/* Validate files[0..n-1] in one validator run; its stdout (free it), NULL if it did not run. */
static char *validate(const char *const *files, size_t n)
{
	const char *argv[MAX_FILES + 6] = { PY, "-c", validator, SCHEMA };
	struct run_result r;
	char *out;

	for (size_t i = 0; i < n && i < MAX_FILES; i++)
		argv[4 + i] = files[i];
	run_cmd(&r, argv);
	if (r.status != 0 || !strstr(r.out, "SCHEMA OK\n")) {
		diag("validator exit %d: %s", r.status, r.err);
		run_free(&r);
		return NULL;
	}
	out = strdup(r.out);
	run_free(&r);
	return out;
}

/* The validator's line about path: 1 valid, 0 invalid (why in *why, static), -1 no line. */
static int verdict(const char *out, const char *path, const char **why)
{
	static char line[400];
	char key[600];
	const char *p;

	*why = "";
	snprintf(key, sizeof(key), "VALID %s\n", path);
	for (p = out; p && (p = strstr(p, key)); p++)
		if (p == out || p[-1] == '\n')
			return 1;
	snprintf(key, sizeof(key), "INVALID %s: ", path);
	for (p = out; p && (p = strstr(p, key)); p++)
		if (p == out || p[-1] == '\n') {
			snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
			*why = line;
			return 0;
		}
	return -1;
}

/* The C reader on path: `exitscope report PATH -o /dev/null`; 0 read, 2 rejected (message in msg). */
static int c_reads(const char *path, char *msg, size_t len)
{
	const char *argv[] = { exe, "report", path, "-o", "/dev/null", NULL };
	struct run_result r;
	int st;

	run_cmd(&r, argv);
	st = r.status;
	snprintf(msg, len, "%.*s", (int)strcspn(r.err, "\n"), r.err);
	/* One line, naming the file. */
	if (st == 2 && (strchr(r.err, '\n') != r.err + strlen(r.err) - 1 || !strstr(r.err, path)))
		st = -1;
	run_free(&r);
	return st;
}

static size_t glob_add(const char *pattern, char **files, size_t n)
{
	glob_t g;

	if (glob(pattern, 0, NULL, &g))
		return n;
	for (size_t i = 0; i < g.gl_pathc && n < MAX_FILES; i++)
		files[n++] = strdup(g.gl_pathv[i]);
	globfree(&g);
	return n;
}

static void test_recorded(void)
{
	static const char *const patterns[] = {
		"lanes/samples/*/info.json", "lanes/samples/*/run.json",
		"lanes/samples/*/map.json", "lanes/samples/*/check.json",
		"fuzz/corpus/valid-*.json",
	};
	char *files[MAX_FILES];
	size_t n = 0, bad = 0;
	char *out;

	for (size_t i = 0; i < ARRAY_SIZE(patterns); i++)
		n = glob_add(patterns[i], files, n);
	ok(n >= 16, "recorded results found: %zu (lane samples and the fuzz corpus's valid files)", n);
	out = validate((const char *const *)files, n);
	ok(out != NULL, "the schema is a valid draft 2020-12 schema (check_schema)");
	for (size_t i = 0; out && i < n; i++) {
		const char *why;

		if (verdict(out, files[i], &why) != 1) {
			diag("%s", *why ? why : files[i]);
			bad++;
		}
	}
	ok(out && bad == 0, "every recorded result validates (%zu files, %zu rejected)", n, bad);
	free(out);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
}

/* What the binary writes, with small budgets. */
static void test_produced(void)
{
	static const struct {
		const char *name;
		const char *args[12];
		int ok_status2;		/* also accepted exit status (check: 1 = a check failed) */
	} cmds[] = {
		{ "info", { "info", "--json", NULL }, 0 },
		{ "run", { "run", "--samples", "3", "--time-budget", "0.05", "--quiet",
			   "nop", "cpuid", "toggle_cr4_*", "pio_to_user", "--json", NULL }, 0 },
		{ "run-all", { "run", "--all", "--samples", "3", "--time-budget", "0.05", "--quiet",
			       "cpuid", "--json", NULL }, 0 },
		{ "map", { "map", "--ops", "20", "--rounds", "1", "--cpuid-profile", "host",
			   "--cpuid-profile", "minimal", "--json", NULL }, 0 },
		{ "check", { "check", "--json", NULL }, 1 },
	};
	const char *files[8];
	char paths[8][600];
	size_t n = 0;
	char *out;

	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(6, "/dev/kvm is not usable: nothing to produce results with");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		const char *argv[16] = { exe };
		struct run_result r;
		size_t a = 1;

		snprintf(paths[n], sizeof(paths[n]), "%s/%s.json", dir, cmds[i].name);
		for (size_t k = 0; cmds[i].args[k]; k++)
			argv[a++] = cmds[i].args[k];
		argv[a++] = paths[n];
		run_cmd(&r, argv);
		if (!ok((r.status == 0 || r.status == cmds[i].ok_status2) && !access(paths[n], R_OK),
			"exitscope %s --json wrote its result (exit %d)", cmds[i].name, r.status))
			diag("%s", r.err);
		else
			files[n] = paths[n], n++;
		run_free(&r);
	}
	out = validate(files, n);
	{
		size_t bad = 0;

		for (size_t i = 0; out && i < n; i++) {
			const char *why;

			if (verdict(out, files[i], &why) != 1) {
				diag("%s", *why ? why : files[i]);
				bad++;
			}
		}
		ok(out && n == 5 && bad == 0, "every result the binary wrote validates (%zu files, %zu rejected)",
		   n, bad);
	}
	free(out);
}

/*
 * One broken file per rule, each an edit of base: the lane sample's run
 * with its map and checks (so every part is present). c: 1 the C reader has
 * the rule, 2 it is a method-v2 rule (the reader has it once it reads
 * rounds), 0 only the schema says it.
 */
static const struct rule {
	const char *name, *edit;
	int c;
} rules[] = {
	{ "wrong schema name", "d['schema'] = 'exitscope-results'", 1 },
	{ "schema_version too new", "d['schema_version'] = 4", 1 },
	{ "schema_version 0", "d['schema_version'] = 0", 1 },
	{ "schema_version wrong type", "d['schema_version'] = '1'", 1 },
	{ "kind missing", "del d['kind']", 1 },
	{ "kind not an enum value", "d['kind'] = 'bench'", 1 },
	{ "host missing", "del d['host']", 1 },
	{ "host.kernel empty", "d['host']['kernel'] = ''", 1 },
	{ "host.backend.module not an enum value", "d['host']['backend']['module'] = 'xen'", 1 },
	{ "backend param not a string", "d['host']['backend']['params']['ept'] = True", 1 },
	{ "host.cpu.family negative", "d['host']['cpu']['family'] = -1", 1 },
	{ "host.cpu.name missing", "del d['host']['cpu']['name']", 1 },
	{ "host.tsc_khz wrong type", "d['host']['tsc_khz'] = 'fast'", 1 },
	{ "host.execution.mode not an enum value", "d['host']['execution']['mode'] = 'fast'", 1 },
	{ "kvm cap not an integer", "d['host']['kvm']['caps']['KVM_CAP_XSAVE'] = 1.5", 1 },
	{ "cpuid flag not a boolean", "d['host']['cpuid']['xsave'] = 1", 1 },
	{ "lane emulator empty", "d['host']['lane']['emulator'] = ''", 1 },
	{ "lane kernel kind not an enum value", "d['host']['lane']['kernel']['kind'] = 'custom'", 1 },
	{ "65 lane patches", "d['host']['lane']['kernel']['patches'] = ['p'] * 65", 1 },
	{ "tool.name wrong type", "d['tool']['name'] = 1", 1 },
	{ "command element not a string", "d['command'].append(3)", 1 },
	{ "run without probes", "del d['probes']", 1 },
	{ "probe status not an enum value", "ok(d)['status'] = 'done'", 1 },
	{ "probe name empty", "ok(d)['name'] = ''", 1 },
	{ "not-ok probe without reason", "del notok(d)['reason']", 1 },
	{ "ok probe without samples", "del ok(d)['samples']", 1 },
	{ "samples empty", "ok(d)['samples'] = []", 1 },
	{ "negative sample", "ok(d)['samples'][0] = -3.0", 1 },
	{ "sample wrong type", "ok(d)['samples'][0] = '1'", 1 },
	{ "batch 0", "ok(d)['batch'] = 0", 1 },
	{ "batch not an integer", "ok(d)['batch'] = 1.5", 1 },
	{ "cycles without median", "del ok(d)['cycles']['median']", 1 },
	{ "negative ci95_hi", "ok(d)['cycles']['ci95_hi'] = -1", 1 },
	{ "per_op without exits", "del ok(d)['per_op']['exits']", 1 },
	{ "negative per_op.user_io", "ok(d)['per_op']['user_io'] = -1", 1 },
	{ "negative ns_median", "ok(d)['ns_median'] = -0.5", 1 },
	{ "ops not an integer", "ok(d)['ops'] = 1.5", 1 },
	{ "probe cpu wrong type", "ok(d)['cpu'] = '0'", 1 },
	{ "65 trace reasons", "ok(d)['trace'] = {'R%d' % i: 0.0 for i in range(65)}", 1 },
	{ "48-character trace reason", "ok(d)['trace'] = {'X' * 48: 1.0}", 1 },
	{ "note not a string", "ok(d)['notes'] = [1]", 1 },
	{ "settings.samples 0", "d['settings']['samples'] = 0", 1 },
	{ "settings.cpu -2", "d['settings']['cpu'] = -2", 1 },
	{ "settings.trace not a boolean", "d['settings']['trace'] = 'yes'", 1 },
	{ "settings.guest_xcr0 0", "d['settings']['guest_xcr0'] = 0", 1 },
	{ "map without emulated", "del d['map']['emulated']", 1 },
	{ "map without profiles", "del d['map']['profiles']", 1 },
	{ "profile name of 160 characters", "d['map']['profiles'][0]['name'] = 'p' * 160", 1 },
	{ "entry bit 64", "ent(d)['bit'] = 64", 1 },
	{ "entry status not an enum value", "ent(d)['status'] = 'owned?'", 1 },
	{ "entry reg of 32 characters", "ent(d)['reg'] = 'r' * 32", 1 },
	{ "entry vector 256", "ent(d)['vector'] = 256", 1 },
	{ "entry sregs not an enum value", "ent(d)['sregs'] = 'maybe'", 1 },
	{ "entry sregs_errno 0", "ent(d)['sregs_errno'] = 0", 1 },
	{ "negative entry exits_per_op", "ent(d)['exits_per_op'] = -1", 1 },
	{ "check status not an enum value", "d['checks'][0]['status'] = 'ok'", 1 },
	{ "check without suite", "del d['checks'][0]['suite']", 1 },
	{ "check expected wrong type", "d['checks'][0]['expected'] = 7", 1 },
	{ "warning not a string", "d['warnings'] = [1]", 1 },
	{ "census row without operand", "del cen(d)['census'][0]['operand']", 1 },
	{ "census operand a number", "cen(d)['census'][1]['operand'] = 0", 1 },
	{ "census count 0", "e = cen(d)['census'][0]; e['count'] = 0; e['per_op'] = 0.0", 1 },
	{ "function census insn empty", "cen(d)['functions'][0]['census'][0]['insn'] = ''", 1 },
	{ "census not an array", "cen(d)['census'] = {'xsetbv': 4}", 1 },
	/* PLAN section A: method v2 */
	{ "settings.method not an enum value", "v2(d); d['settings']['method'] = 'v3'", 2 },
	{ "settings.rounds 0", "v2(d); d['settings']['rounds'] = 0", 2 },
	{ "negative settings.precision_pct", "v2(d); d['settings']['precision_pct'] = -1", 2 },
	{ "negative settings.run_limit_s", "v2(d); d['settings']['run_limit_s'] = -1", 2 },
	{ "settings.cpus empty", "v2(d); d['settings']['cpus'] = []", 2 },
	{ "settings.cpus of three", "v2(d); d['settings']['cpus'] = [0, 1, 2]", 2 },
	{ "rounds empty", "v2(d); ok(d)['rounds'] = []", 2 },
	{ "round without raw_median", "v2(d); del ok(d)['rounds'][0]['raw_median']", 2 },
	{ "round batch 0", "v2(d); ok(d)['rounds'][0]['batch'] = 0", 2 },
	{ "round without samples", "v2(d); ok(d)['rounds'][0]['samples'] = []", 2 },
	{ "round sample wrong type", "v2(d); ok(d)['rounds'][0]['samples'][0] = 'x'", 2 },
	{ "negative round baseline_median", "v2(d); ok(d)['rounds'][0]['baseline_median'] = -1", 2 },
	{ "stop not an enum value", "v2(d); ok(d)['stop'] = 'done'", 2 },
	{ "negative ci_rel_pct", "v2(d); ok(d)['ci_rel_pct'] = -0.1", 2 },
	{ "probe cpus of one", "v2(d); ok(d)['cpus'] = [0]", 2 },
	{ "probe cpus negative", "v2(d); ok(d)['cpus'] = [0, -1]", 2 },
};

#define NR_RULES ARRAY_SIZE(rules)

/* The python that writes base.json, valid-v2.json and one file per rule into dir. */
static char *generator(void)
{
	static const char head[] =
		"import copy, json, sys\n"
		"out = sys.argv[1]\n"
		"def L(p): return json.load(open(p))\n"
		"base = L('lanes/samples/vmx/run.json')\n"
		"base['map'] = L('lanes/samples/vmx/map.json')['map']\n"
		"base['checks'] = L('lanes/samples/vmx/check.json')['checks']\n"
		"def dump(d, name): json.dump(d, open(out + '/' + name + '.json', 'w'), indent=1)\n"
		"def ok(d): return next(p for p in d['probes'] if p['status'] == 'ok')\n"
		"def notok(d): return next(p for p in d['probes'] if p['status'] != 'ok')\n"
		"def ent(d): return d['map']['profiles'][0]['entries'][0]\n"
		"def cen(d):\n"
		"    d['schema_version'] = 3\n"
		"    def row(i, o, n): return {'insn': i, 'operand': o, 'count': n, 'per_op': n / 4}\n"
		"    def fn(name, insn, calls, census):\n"
		"        return {'name': name, 'insn': insn, 'insn_per_op': insn / 4, 'calls': calls,\n"
		"                'calls_per_op': calls / 4, 'census': census}\n"
		"    e = {'ops': 4, 'interrupted_pairs': 0, 'interrupts': 'excluded',\n"
		"         'kernel_insn': 400, 'kernel_insn_per_op': 100.0, 'guest_insn': 8, 'guest_insn_per_op': 2.0,\n"
		"         'user_insn': 0, 'user_insn_per_op': 0.0,\n"
		"         'functions': [fn('kvm_load_xfeatures', 40, 4, [row('xsetbv', 'XCR0', 8)]),\n"
		"                       fn('vmx_vcpu_run', 360, 4, [row('cpuid', None, 4), row('xsetbv', 'XCR0', -4)])],\n"
		"         'exits': [{'reason': 'XSETBV', 'exits': 4, 'exits_per_op': 1.0}],\n"
		"         'census': [row('cpuid', None, 4), row('xsetbv', 'XCR0', 4)]}\n"
		"    ok(d)['exit_path'] = e\n"
		"    return e\n"
		"def v2(d):\n"
		"    p = ok(d)\n"
		"    p['rounds'] = [{'batch': 100, 'samples': [1.5, -0.25, 2.0], 'median': 1.5,\n"
		"                    'baseline_median': 40.0, 'raw_median': 41.5},\n"
		"                   {'batch': 120, 'samples': [-0.5], 'median': -0.5,\n"
		"                    'baseline_median': 40.5, 'raw_median': 40.0}]\n"
		"    p['stop'] = 'precision'; p['ci_rel_pct'] = 0.8; p['cpus'] = [0, 1]\n"
		"    d['settings'].update(method='v2', rounds=2, precision_pct=1.0,\n"
		"                         precision_floor_cycles=2.0, run_limit_s=60.0, cpus=[0, 1])\n"
		"    return d\n"
		"dump(base, 'base')\n"
		"dump(v2(copy.deepcopy(base)), 'valid-v2')\n"
		"d = copy.deepcopy(base)\n"
		"cen(d)\n"
		"dump(d, 'valid-census')\n"
		"d = copy.deepcopy(base)\n"
		"ok(d)['rounds'] = 'x'\n"
		"dump(d, 'v2-probe')\n";
	size_t cap = sizeof(head) + NR_RULES * 200, len;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	len = (size_t)snprintf(s, cap, "%s", head);
	for (size_t i = 0; i < NR_RULES && len < cap; i++)
		len += (size_t)snprintf(s + len, cap - len, "d = copy.deepcopy(base)\n%s\ndump(d, 'rule%02zu')\n",
					rules[i].edit, i);
	if (len >= cap) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * Does this build's reader read the method-v2 members? It refuses a probe
 * whose "rounds" is a string then; a reader without them ignores the member.
 */
static bool reader_has_v2(void)
{
	char path[PATHLEN], msg[PATHLEN];

	snprintf(path, sizeof(path), "%s/v2-probe.json", dir);
	return c_reads(path, msg, sizeof(msg)) == 2;
}

static void test_rules(void)
{
	char *gen = generator(), paths[NR_RULES + 3][600], msg[600];
	const char *files[NR_RULES + 3];
	const char *argv[] = { PY, "-c", gen, dir, NULL };
	struct run_result r;
	bool v2;
	char *out;

	run_cmd(&r, argv);
	if (!ok(gen && r.status == 0, "the broken files were generated (%zu rules)", NR_RULES)) {
		diag("%s", r.err);
		run_free(&r);
		free(gen);
		return;
	}
	run_free(&r);
	free(gen);
	v2 = reader_has_v2();
	snprintf(paths[0], sizeof(paths[0]), "%s/base.json", dir);
	snprintf(paths[1], sizeof(paths[1]), "%s/valid-v2.json", dir);
	snprintf(paths[2], sizeof(paths[2]), "%s/valid-census.json", dir);
	for (size_t i = 0; i < NR_RULES; i++)
		snprintf(paths[i + 3], sizeof(paths[i + 3]), "%s/rule%02zu.json", dir, i);
	for (size_t i = 0; i < NR_RULES + 3; i++)
		files[i] = paths[i];
	out = validate(files, NR_RULES + 3);
	if (!ok(out != NULL, "the validator ran on them")) {
		tap_skip(3 + (int)NR_RULES, "no validator output");
		return;
	}
	for (size_t i = 0; i < 3; i++) {
		static const char *const what[] = {
			"the base file", "base with every method-v2 member (negative round samples and medians included)",
			"base at schema version 3 with an exit path and its census (null operand, negative row)",
		};
		const char *why;
		int s = verdict(out, paths[i], &why), c = c_reads(paths[i], msg, sizeof(msg));

		if (!ok(s == 1 && c == 0, "%s is valid for the schema and the C reader", what[i]))
			diag("  schema: %s; C reader: exit %d %s", why, c, msg);
	}
	if (!v2)
		diag("this build's reader does not read the method-v2 members yet (it ignores \"rounds\": \"x\"): "
		     "their rules are checked against the schema alone");
	for (size_t i = 0; i < NR_RULES; i++) {
		const char *why;
		int s = verdict(out, paths[i + 3], &why), c = 0;
		bool want_c = rules[i].c == 1 || (rules[i].c == 2 && v2);

		if (want_c)
			c = c_reads(paths[i + 3], msg, sizeof(msg));
		if (!ok(s == 0 && (!want_c || c == 2), "%s: the schema rejects it%s", rules[i].name,
			want_c ? ", and so does the C reader (exit 2, one line)" : ""))
			diag("  schema: %s; C reader: exit %d %s", s == 1 ? "valid" : why, c, want_c ? msg : "");
		else
			diag("  %s | %s", why + strlen(paths[i + 3]) + 10, want_c ? msg : "(C: not checked)");
	}
	free(out);
}

/* The fuzz corpus's broken files: both reject each; uniqueness of names is the C reader's alone. */
static void test_corpus_broken(void)
{
	char *files[MAX_FILES], msg[600];
	size_t n = glob_add("fuzz/corpus/broken-*.json", files, 0), both = 0;
	char *out;

	out = validate((const char *const *)files, n);
	for (size_t i = 0; out && i < n; i++) {
		const char *why;
		int s = verdict(out, files[i], &why), c = c_reads(files[i], msg, sizeof(msg));

		if (strstr(files[i], "broken-duplicate-probe")) {
			ok(s == 1 && c == 2, "%s: duplicate probe names are the C reader's rule alone "
			   "(JSON Schema cannot say 'unique by name'): schema accepts, C rejects", files[i]);
			continue;
		}
		if (s == 0 && c == 2)
			both++;
		else
			diag("%s: schema %s, C reader exit %d: %s", files[i], s == 1 ? "accepts" : "rejects", c, msg);
	}
	ok(out && n >= 10 && both == n - 1, "every other broken file of the fuzz corpus is rejected by "
	   "both (%zu of %zu)", both, n);
	free(out);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	if (!exe)
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	if (!run_works((const char *const[]){ PY, "-c", "from jsonschema import Draft202012Validator", NULL }))
		return tap_skip_all(PY " has no jsonschema with draft 2020-12 (Debian python3-jsonschema; "
				    "scripts/install-deps --test)");
	dir = fixture_tmpdir();
	if (!dir)
		return tap_skip_all("no temp dir");
	test_recorded();
	test_produced();
	test_rules();
	test_corpus_broken();
	fixture_rmdir(dir);
	return done_testing();
}
