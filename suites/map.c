/*
 * map.c - host side of the CR0/CR4 ownership map (see map.h): one VM per
 * CPUID profile, one guest call per entry, stats-fd deltas between the
 * guest's syncs, KVM_SET_SREGS cross-checks for CR4 bits, JSON and text.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest/vm.h"
#include "host/hostinfo.h"
#include "kvm/trace.h"
#include "suites/map.h"
#include "suites/map_guest.h"
#include "suites/profile.h"

#define MAP_BUDGET_MS	30000

enum map_op { MAP_TOGGLE, MAP_READ };

struct map_item {
	int reg;		/* 0, 3, 4 or 8 */
	int bit;		/* toggle: the bit; read: 0 */
	const char *name;	/* CR4 bits: NULL, the name is cr4_bits[]' */
	enum map_op op;
	uint64_t pre_cr0;	/* CR0 bits the toggle needs set */
};

/* Every bit a 64-bit guest may legally flip; never PE, PG, PAE, LA57. */
static const struct map_item map_items[] = {
	{ 0, 1, "MP", MAP_TOGGLE, 0 },
	{ 0, 2, "EM", MAP_TOGGLE, 0 },
	{ 0, 3, "TS", MAP_TOGGLE, 0 },
	{ 0, 5, "NE", MAP_TOGGLE, 0 },
	{ 0, 16, "WP", MAP_TOGGLE, 0 },
	{ 0, 18, "AM", MAP_TOGGLE, 0 },
	{ 0, 29, "NW", MAP_TOGGLE, X86_CR0_CD },	/* NW needs CD */
	{ 0, 30, "CD", MAP_TOGGLE, 0 },
	{ 4, 0, NULL, MAP_TOGGLE, 0 },
	{ 4, 1, NULL, MAP_TOGGLE, 0 },
	{ 4, 2, NULL, MAP_TOGGLE, 0 },
	{ 4, 3, NULL, MAP_TOGGLE, 0 },
	{ 4, 4, NULL, MAP_TOGGLE, 0 },
	{ 4, 6, NULL, MAP_TOGGLE, 0 },
	{ 4, 7, NULL, MAP_TOGGLE, 0 },
	{ 4, 8, NULL, MAP_TOGGLE, 0 },
	{ 4, 9, NULL, MAP_TOGGLE, 0 },
	{ 4, 10, NULL, MAP_TOGGLE, 0 },
	{ 4, 11, NULL, MAP_TOGGLE, 0 },
	{ 4, 13, NULL, MAP_TOGGLE, 0 },
	{ 4, 16, NULL, MAP_TOGGLE, 0 },
	{ 4, 17, NULL, MAP_TOGGLE, 0 },
	{ 4, 18, NULL, MAP_TOGGLE, 0 },
	{ 4, 20, NULL, MAP_TOGGLE, 0 },
	{ 4, 21, NULL, MAP_TOGGLE, 0 },
	{ 4, 22, NULL, MAP_TOGGLE, 0 },
	{ 4, 23, NULL, MAP_TOGGLE, X86_CR0_WP },
	{ 4, 24, NULL, MAP_TOGGLE, 0 },
	{ 4, 28, NULL, MAP_TOGGLE, 0 },
	{ 0, 0, "CR0", MAP_READ, 0 },
	{ 3, 0, "CR3", MAP_READ, 0 },
	{ 4, 0, "CR4", MAP_READ, 0 },
	{ 8, 0, "CR8", MAP_READ, 0 },
};
#define NR_MAP_ITEMS (sizeof(map_items) / sizeof(map_items[0]))

struct map_ctx {
	const struct suite_env *env;
	struct vm *vm;
	struct kvm_sregs sregs0;	/* state every entry starts from */
	unsigned int ops, rounds;
	bool trace;
	bool emulated;
	bool stopped;
};

struct map_counts {
	uint64_t exits, emul, user;
};

static void map_counts_take(struct vcpu *v, struct map_counts *c)
{
	const struct vcpu_user_exits *u = &v->user_exits;

	c->exits = c->emul = 0;
	if (v->has_stats) {
		stats_read(&v->stats, "exits", &c->exits);
		stats_read(&v->stats, "insn_emulation", &c->emul);
	}
	c->user = u->io + u->mmio + u->msr + u->ucall + u->intr + u->other;
}

static const char *map_reg_name(int reg)
{
	return reg == 0 ? "cr0" : reg == 3 ? "cr3" : reg == 4 ? "cr4" : "cr8";
}

/* The CR4 bit's entry of cr4_bits[] (NULL for CR0 bits and reads). */
static const struct cr4_bit *map_item_cr4(const struct map_item *it)
{
	return it->reg == 4 && it->op == MAP_TOGGLE ? cr4_bit_of(it->bit) : NULL;
}

static const char *map_item_name(const struct map_item *it)
{
	const struct cr4_bit *b = map_item_cr4(it);

	return b ? b->name : it->name;
}

/* Whether the item needs a CPUID feature at all. */
static bool map_item_gated(const struct map_item *it)
{
	const struct cr4_bit *b = map_item_cr4(it);

	return b && b->feat != X86_FEAT_NONE;
}

/* "shstk/ibt" of the item, and whether the profile's CPUID has it. */
static bool map_item_feature(const struct map_item *it, const struct kvm_cpuid2 *c,
			     char *buf, size_t len)
{
	const struct cr4_bit *b = map_item_cr4(it);

	buf[0] = 0;
	if (!map_item_gated(it))
		return true;
	snprintf(buf, len, "%s%s%s", x86_feature_name(b->feat), b->alt ? "/" : "",
		 b->alt ? x86_feature_name(b->alt) : "");
	return cpuid_has_any(c, b->feat, b->alt);
}

/* KVM_SET_SREGS with the bit set from the host: accepted (0) or -errno. */
static int map_sregs_try(struct map_ctx *m, const struct map_item *it)
{
	struct vcpu *v = &m->vm->vcpus[0];
	struct kvm_sregs s = m->sregs0;
	int r;

	s.cr4 |= 1ULL << it->bit;
	s.cr0 |= it->pre_cr0;
	r = kvm_set_sregs(v->fd, &s);
	kvm_set_sregs(v->fd, &m->sregs0);
	return r;
}

static void map_rejected(json_t *e, const struct map_item *it, uint64_t code, bool has,
			 const char *feat)
{
	unsigned int vec = code & 0xff;	/* GUEST_FAULT | vector */

	json_object_set_new(e, "status", json_string("rejected"));
	json_object_set_new(e, "vector", json_integer(vec));
	json_object_set_new(e, "detail", json_sprintf(
		"%s on the first %s write%s%s%s%s", vector_name(vec),
		code & MAP_PREREQ_FAULT ? "prerequisite" : map_reg_name(it->reg),
		*feat ? "; guest CPUID " : "", *feat ? (has ? "has " : "lacks ") : "",
		feat, has && *feat ? " (rejected anyway)" : ""));
}

static void map_measured(struct map_ctx *m, json_t *e, const struct map_item *it,
			 const struct map_counts *best, uint64_t cycles, bool has,
			 const char *feat)
{
	struct vcpu *v = &m->vm->vcpus[0];
	double ops = m->ops, exits = best->exits / ops;
	const char *st;
	char extra[96] = "";

	if (*feat && !has)
		snprintf(extra, sizeof(extra), "; accepted although guest CPUID lacks %s", feat);
	if (!v->has_stats)
		st = "skipped";
	else if (m->emulated)
		st = "emulated";
	else
		st = exits >= 0.5 ? "intercepted" : "owned";
	json_object_set_new(e, "status", json_string(st));
	json_object_set_new(e, "exits_per_op", json_real(exits));
	json_object_set_new(e, "cycles_per_op", json_real(cycles / ops));
	json_object_set_new(e, "user_exits_per_op", json_real(best->user / ops));
	json_object_set_new(e, "insn_emulation_per_op", json_real(best->emul / ops));
	if (!v->has_stats)
		json_object_set_new(e, "detail", json_sprintf(
			"the vCPU has no binary stats fd: exits cannot be counted%s", extra));
	else if (m->emulated)
		json_object_set_new(e, "detail", json_sprintf(
			"host emulates guest code, ownership not meaningful: %llu exits (stats 'exits'), "
			"%llu to userspace (run loop), %llu instruction emulations in %u %ss%s",
			(unsigned long long)best->exits, (unsigned long long)best->user,
			(unsigned long long)best->emul, m->ops,
			it->op == MAP_READ ? "read" : "write", extra));
	else
		json_object_set_new(e, "detail", json_sprintf(
			"fewest of %u rounds: %llu exits (stats 'exits') in %u %ss, %llu to userspace (run loop)%s",
			m->rounds, (unsigned long long)best->exits, m->ops,
			it->op == MAP_READ ? "read" : "write", (unsigned long long)best->user, extra));
}

/* One entry; NULL when stopped by Ctrl-C before it finished. */
static json_t *map_measure(struct map_ctx *m, const struct map_item *it)
{
	struct vcpu *v = &m->vm->vcpus[0];
	struct map_counts c0 = { 0 }, c1, best = { UINT64_MAX, UINT64_MAX, UINT64_MAX };
	uint64_t cycles = UINT64_MAX;
	struct guest_result res;
	enum guest_exit k;
	char feat[32];
	bool has = map_item_feature(it, m->vm->cpuid, feat, sizeof(feat));
	struct trace_session ts = { 0 };
	struct trace_counts tc;
	bool tracing = false, traced = false;
	json_t *e;

	e = json_pack("{s:s, s:i, s:s, s:s}", "reg", map_reg_name(it->reg), "bit", it->bit,
		      "name", map_item_name(it), "op", it->op == MAP_READ ? "read" : "toggle");
	if (*feat) {
		json_object_set_new(e, "feature", json_string(feat));
		json_object_set_new(e, "cpuid", json_boolean(has));
	}
	if (it->op == MAP_TOGGLE && it->reg == 4 && !(m->sregs0.cr4 & (1ULL << it->bit))) {
		int r = map_sregs_try(m, it);

		json_object_set_new(e, "sregs", json_string(r ? "rejected" : "accepted"));
		if (r)
			json_object_set_new(e, "sregs_errno", json_integer(-r));
	}
	kvm_set_sregs(v->fd, &m->sregs0);
	vm_global_set(m->vm, map_g_reg, (uint64_t)it->reg);
	vm_global_set(m->vm, map_g_mask, it->op == MAP_TOGGLE ? 1ULL << it->bit : 0);
	vm_global_set(m->vm, map_g_ops, (uint64_t)m->ops);
	vm_global_set(m->vm, map_g_rounds, (uint64_t)m->rounds);
	vm_global_set(m->vm, map_g_pre_cr0, it->pre_cr0);
	vm_global_set(m->vm, map_g_pre_cr4, 0);
	for (k = vcpu_call_run(v, map_guest_run, 0, MAP_BUDGET_MS, &res); k == GUEST_SYNC;
	     k = vcpu_run(v, MAP_BUDGET_MS, &res)) {
		if (res.args[0] == MAP_SYNC_BEGIN) {
			/* Attribute the first round's exits by reason. */
			if (m->trace && !traced && !tracing)
				tracing = trace_begin(&ts) == 0;
			map_counts_take(v, &c0);
			continue;
		}
		map_counts_take(v, &c1);
		if (tracing) {
			tracing = false;
			traced = trace_end(&ts, &tc) == 0;
			if (traced)
				trace_drop_ucall(&tc);
		}
		/* the closing sync is one exit, to userspace */
		c1.exits -= c1.exits > c0.exits ? 1 : 0;
		c1.user -= c1.user > c0.user ? 1 : 0;
		if (c1.exits - c0.exits < best.exits)
			best.exits = c1.exits - c0.exits;
		if (c1.user - c0.user < best.user)
			best.user = c1.user - c0.user;
		if (c1.emul - c0.emul < best.emul)
			best.emul = c1.emul - c0.emul;
		if (res.nargs >= 3 && res.args[2] < cycles)
			cycles = res.args[2];
	}
	if (tracing)
		trace_abort(&ts);
	if (k == GUEST_STOPPED) {
		m->stopped = true;
		json_decref(e);
		return NULL;
	}
	if (traced) {
		json_t *t = json_object();

		for (unsigned int i = 0; i < tc.nr; i++)
			json_object_set_new(t, tc.reason[i].name,
					    json_real((double)tc.reason[i].count / m->ops));
		json_object_set_new(e, "trace", t);
	}
	if (k == GUEST_DONE && res.args[0])
		map_rejected(e, it, res.args[0], has, feat);
	else if (k == GUEST_DONE && cycles != UINT64_MAX)
		map_measured(m, e, it, &best, cycles, has, feat);
	else {
		json_object_set_new(e, "status", json_string("skipped"));
		json_object_set_new(e, "detail", json_sprintf("guest %s: %s",
					guest_exit_name(k), res.msg));
	}
	return e;
}

static int map_vm(const struct suite_env *env, const struct kvm_cpuid2 *cpuid,
		  struct vm **vm, char *err, size_t errlen)
{
	struct vm_opts o = { .kvm_path = env->kvm_path, .irqchip = true, .cpuid = cpuid,
			     .stop = env->stop, .quiet = true };
	int r = vm_create(vm, &o, err, errlen);

	if (r && r != -EINTR) {
		o.irqchip = false;
		r = vm_create(vm, &o, err, errlen);
	}
	return r;
}

static int map_profile(struct map_ctx *m, const struct cpuid_profile *p,
		       const struct kvm_cpuid2 *supported, json_t *profiles,
		       char *err, size_t errlen)
{
	struct kvm_cpuid2 *cpuid;
	json_t *prof, *entries;
	int r;

	r = profile_build(p, supported, &cpuid);
	if (r) {
		snprintf(err, errlen, "CPUID profile '%s': %s", p->spec,
			 r == -ENOENT ? "a feature to set lives in a CPUID leaf KVM does not report"
				      : strerror(-r));
		return r == -ENOENT ? -EINVAL : r;
	}
	r = map_vm(m->env, cpuid, &m->vm, err, errlen);
	free(cpuid);
	if (r)
		return r;
	r = kvm_get_sregs(m->vm->vcpus[0].fd, &m->sregs0);
	if (r) {
		snprintf(err, errlen, "KVM_GET_SREGS: %s", strerror(-r));
		vm_destroy(m->vm);
		return r;
	}
	entries = json_array();
	prof = json_pack("{s:s, s:s, s:o}", "name", p->name, "spec", p->spec, "entries", entries);
	if (p->base == PROFILE_MINIMAL)
		json_object_set_new(prof, "note", json_string(profile_minimal_doc()));
	json_array_append_new(profiles, prof);
	for (size_t i = 0; i < NR_MAP_ITEMS && !m->stopped; i++) {
		json_t *e;

		if (m->env->stop && *m->env->stop) {
			m->stopped = true;
			break;
		}
		e = map_measure(m, &map_items[i]);
		if (e)
			json_array_append_new(entries, e);
	}
	vm_destroy(m->vm);
	m->vm = NULL;
	return 0;
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static json_t *map_find_entry(const json_t *prof, const json_t *e)
{
	size_t i;
	json_t *x;

	json_array_foreach(json_object_get(prof, "entries"), i, x)
		if (!strcmp(jstr(x, "reg"), jstr(e, "reg")) && !strcmp(jstr(x, "op"), jstr(e, "op")) &&
		    json_integer_value(json_object_get(x, "bit")) ==
		    json_integer_value(json_object_get(e, "bit")))
			return x;
	return NULL;
}

/* Entries whose status differs between profiles (compared by reg, bit, op). */
static json_t *map_changes(const json_t *profiles)
{
	json_t *changes = json_array(), *first = json_array_get(profiles, 0), *e;
	size_t i;

	if (!first)
		return changes;
	json_array_foreach(json_object_get(first, "entries"), i, e) {
		json_t *st = json_object(), *p;
		bool differ = false;
		size_t j;

		json_array_foreach(profiles, j, p) {
			json_t *x = map_find_entry(p, e);

			if (!x)
				continue;
			json_object_set_new(st, jstr(p, "name"), json_string(jstr(x, "status")));
			differ |= strcmp(jstr(x, "status"), jstr(e, "status")) != 0;
		}
		if (!differ) {
			json_decref(st);
			continue;
		}
		json_array_append_new(changes, json_pack("{s:s, s:O, s:s, s:s, s:o}",
			"reg", jstr(e, "reg"), "bit", json_object_get(e, "bit"),
			"name", jstr(e, "name"), "op", jstr(e, "op"), "statuses", st));
	}
	return changes;
}

int map_collect_opts(const struct suite_env *env, const char *const *profiles, size_t n,
		     const struct map_opts *opts, json_t **map_out, char *err, size_t errlen)
{
	static const char *const defaults[] = { "host", "minimal" };
	struct map_ctx m = { .env = env };
	struct cpuid_profile *parsed;
	struct kvm_cpuid2 *supported = NULL;
	json_t *map, *profs;
	int kfd, r = 0;

	if (!profiles || !n) {
		profiles = defaults;
		n = 2;
	}
	m.ops = opts && opts->ops ? (opts->ops + 1) & ~1u : MAP_DEFAULT_OPS;
	m.rounds = opts && opts->rounds ? opts->rounds : MAP_DEFAULT_ROUNDS;
	m.trace = opts && opts->trace;
	m.emulated = env->hi && env->hi->exec_mode == EXEC_EMULATED;
	parsed = calloc(n, sizeof(*parsed));
	if (!parsed)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		r = profile_parse(profiles[i], &parsed[i], err, errlen);
		if (r)
			goto out;
	}
	kfd = kvm_open(env->kvm_path ? env->kvm_path : KVM_DEFAULT_DEV);
	if (kfd < 0) {
		r = kfd;
		snprintf(err, errlen, "cannot open %s: %s",
			 env->kvm_path ? env->kvm_path : KVM_DEFAULT_DEV, strerror(-r));
		goto out;
	}
	r = kvm_get_supported_cpuid(kfd, &supported);
	close(kfd);
	if (r) {
		snprintf(err, errlen, "KVM_GET_SUPPORTED_CPUID: %s", strerror(-r));
		goto out;
	}
	profs = json_array();
	map = json_pack("{s:b, s:i, s:i, s:o}", "emulated", m.emulated, "ops", m.ops,
			"rounds", m.rounds, "profiles", profs);
	for (size_t i = 0; i < n && !m.stopped; i++) {
		r = map_profile(&m, &parsed[i], supported, profs, err, errlen);
		if (r) {
			json_decref(map);
			goto out;
		}
	}
	json_object_set_new(map, "changes", map_changes(profs));
	if (m.stopped)
		json_object_set_new(map, "incomplete", json_true());
	*map_out = map;
out:
	free(supported);
	free(parsed);
	return r;
}

int map_collect(const struct suite_env *env, const char *const *profiles, size_t n,
		json_t **map_out, char *err, size_t errlen)
{
	return map_collect_opts(env, profiles, n, NULL, map_out, err, errlen);
}

static void map_status_text(const json_t *e, char *buf, size_t len)
{
	json_t *vec = json_object_get(e, "vector");

	if (vec)
		snprintf(buf, len, "%s (%s)", jstr(e, "status"),
			 vector_name((unsigned int)json_integer_value(vec)));
	else
		snprintf(buf, len, "%s", jstr(e, "status"));
}

static void map_print_entry(FILE *f, const json_t *e)
{
	char name[32], st[32], ex[16] = "-", cy[16] = "-", sr[16] = "";
	json_t *x;

	snprintf(name, sizeof(name), "%s.%s", jstr(e, "reg"),
		 strcmp(jstr(e, "op"), "read") ? jstr(e, "name") : "read");
	map_status_text(e, st, sizeof(st));
	if ((x = json_object_get(e, "exits_per_op")))
		snprintf(ex, sizeof(ex), "%.2f", json_number_value(x));
	if ((x = json_object_get(e, "cycles_per_op")))
		snprintf(cy, sizeof(cy), "%.1f", json_number_value(x));
	if (json_object_get(e, "sregs"))
		snprintf(sr, sizeof(sr), "%s", json_object_get(e, "sregs_errno") ?
			 strerrorname_np((int)json_integer_value(json_object_get(e, "sregs_errno")))
			 : "ok");
	fprintf(f, "  %-15s %4lld  %-6s  %-16s %9s %10s  %-9s",
		name, (long long)json_integer_value(json_object_get(e, "bit")), jstr(e, "op"),
		st, ex, cy, sr);
	if (strcmp(jstr(e, "status"), "emulated") && strcmp(jstr(e, "status"), "owned") &&
	    strcmp(jstr(e, "status"), "intercepted"))
		fprintf(f, "  %s", jstr(e, "detail"));
	else if (json_object_get(e, "cpuid") && !json_is_true(json_object_get(e, "cpuid")))
		fprintf(f, "  accepted although guest CPUID lacks %s", jstr(e, "feature"));
	if ((x = json_object_get(e, "trace"))) {
		const char *k;
		json_t *v;

		fprintf(f, "  [");
		json_object_foreach(x, k, v)
			fprintf(f, " %s %.2f", k, json_number_value(v));
		fprintf(f, json_object_size(x) ? " ]" : " no kvm_exit events ]");
	}
	fprintf(f, "\n");
}

void map_print(FILE *f, const json_t *map)
{
	json_t *p, *e, *c;
	size_t i, j;

	fprintf(f, "CR0/CR4 ownership map: %lld writes (toggles) or reads per round, fewest exits of %lld rounds\n",
		(long long)json_integer_value(json_object_get(map, "ops")),
		(long long)json_integer_value(json_object_get(map, "rounds")));
	if (json_is_true(json_object_get(map, "emulated")))
		fprintf(f, "NOTE: this host EMULATES guest code: ownership is not meaningful here and no bit\n"
			   "      is called owned; exits/op is the vCPU stats 'exits' delta (the backend's own\n"
			   "      exits, e.g. MMU reloads, not exits to userspace), cycles/op is emulation cost.\n");
	json_array_foreach(json_object_get(map, "profiles"), i, p) {
		fprintf(f, "\nprofile %s%s%s\n", jstr(p, "name"),
			json_object_get(p, "note") ? ": " : "", jstr(p, "note"));
		fprintf(f, "  %-15s %4s  %-6s  %-16s %9s %10s  %-9s\n", "entry", "bit", "op",
			"status", "exits/op", "cycles/op", "SET_SREGS");
		json_array_foreach(json_object_get(p, "entries"), j, e)
			map_print_entry(f, e);
	}
	if (json_array_size(json_object_get(map, "profiles")) > 1) {
		c = json_object_get(map, "changes");
		fprintf(f, "\n%s between profiles\n", json_array_size(c) ?
			"status changes" : "no status changes");
		json_array_foreach(c, i, e) {
			const char *k;
			json_t *v;
			bool first = true;

			fprintf(f, "  %s.%s %s:", jstr(e, "reg"), jstr(e, "name"), jstr(e, "op"));
			json_object_foreach(json_object_get(e, "statuses"), k, v) {
				fprintf(f, "%s %s %s", first ? "" : ",", k, json_string_value(v));
				first = false;
			}
			fprintf(f, "\n");
		}
	}
	if (json_is_true(json_object_get(map, "incomplete")))
		fprintf(f, "\n(stopped early: the map is incomplete)\n");
}
