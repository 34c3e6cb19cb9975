// SPDX-License-Identifier: GPL-2.0-only
/*
 * map.c - host side of the CR0/CR4 ownership map (see map.h): one VM per
 * CPUID profile, one guest call per entry, the exits of each round counted
 * by the harness's region helper (harness/region.h) as run counts them,
 * KVM_SET_SREGS cross-checks for CR4 bits, the model (results/map_model.h) filled
 * and printed as text.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "guest/vm.h"
#include "harness/region.h"
#include "host/hostinfo.h"
#include "host/text_wrap.h"
#include "kvm/trace.h"
#include "map/map.h"
#include "map/map_guest.h"
#include "map/cpuid_profile.h"

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
#define NR_MAP_ITEMS ARRAY_SIZE(map_items)


struct map_ctx {
	const struct suite_env *env;
	const struct map_opts *opts;	/* may be NULL */
	struct vm *vm;
	struct region rg;		/* counts one round of the vCPU of vm */
	struct kvm_sregs sregs0;	/* state every entry starts from */
	unsigned int ops, rounds;
	bool trace;
	bool emulated;
	bool stopped;
};

/* The fewest of each count over the rounds of one entry. */
struct map_counts {
	uint64_t exits, emul, user;
};

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

static bool map_stop_requested(const struct map_ctx *m)
{
	return m->env->stop && *m->env->stop;
}

/* What identifies e: reg, name, op, bit. */
static void map_item_key(struct result_map_entry *e, const struct map_item *it)
{
	snprintf(e->reg, sizeof(e->reg), "%s", map_reg_name(it->reg));
	snprintf(e->name, sizeof(e->name), "%s", map_item_name(it));
	snprintf(e->op, sizeof(e->op), "%s", it->op == MAP_READ ? "read" : "toggle");
	e->bit = it->bit;
}

/* What identifies e, and the CPUID feature it needs ("shstk/ibt") under cpuid. */
static void map_entry_key(struct result_map_entry *e, const struct map_item *it,
			  const struct kvm_cpuid2 *cpuid)
{
	const struct cr4_bit *b = map_item_cr4(it);

	map_item_key(e, it);
	if (!map_item_gated(it))
		return;
	snprintf(e->feature, sizeof(e->feature), "%s%s%s", x86_feature_name(b->feat),
		 b->alt ? "/" : "", b->alt ? x86_feature_name(b->alt) : "");
	e->cpuid = cpuid_has_any(cpuid, b->feat, b->alt);
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

static void map_stopped(struct result_map_entry *e, bool during)
{
	e->status = MAP_STOPPED;
	snprintf(e->detail, sizeof(e->detail), "stopped (Ctrl-C) %s",
		 during ? "while it was being measured" : "before it was measured");
}

static void map_rejected(struct result_map_entry *e, const struct map_item *it, uint64_t code)
{
	unsigned int vec = code & 0xff;	/* GUEST_FAULT | vector */
	bool has = e->cpuid > 0;

	e->status = MAP_REJECTED;
	e->vector = vec;
	snprintf(e->detail, sizeof(e->detail), "%s on the first %s write%s%s%s%s", vector_name(vec),
		 code & GUEST_FAULT_PREREQ ? "prerequisite" : map_reg_name(it->reg),
		 e->feature[0] ? "; guest CPUID " : "",
		 e->feature[0] ? (has ? "has " : "lacks ") : "",
		 e->feature, has && e->feature[0] ? " (rejected anyway)" : "");
}

static void map_measured(struct map_ctx *m, struct result_map_entry *e, const struct map_item *it,
			 const struct map_counts *best, uint64_t cycles, bool has_stats)
{
	double ops = m->ops, exits = best->exits / ops;
	const char *what = it->op == MAP_READ ? "read" : "write";
	char extra[96] = "";

	if (e->cpuid == 0)
		snprintf(extra, sizeof(extra), "; accepted although guest CPUID lacks %s",
			 e->feature);
	if (!has_stats)
		e->status = MAP_SKIPPED;
	else if (m->emulated)
		e->status = MAP_EMULATED;
	else
		e->status = exits >= 0.5 ? MAP_INTERCEPTED : MAP_OWNED;
	e->exits_per_op = exits;
	e->cycles_per_op = cycles / ops;
	e->user_exits_per_op = best->user / ops;
	e->insn_emulation_per_op = best->emul / ops;
	if (!has_stats)
		snprintf(e->detail, sizeof(e->detail),
			 "the vCPU has no binary stats fd: exits cannot be counted%s", extra);
	else if (m->emulated)
		snprintf(e->detail, sizeof(e->detail),
			 "host emulates guest code, ownership not meaningful: %llu exits (stats "
			 "'exits'), %llu to userspace (run loop), %llu instruction emulations in "
			 "%u %ss%s", (unsigned long long)best->exits,
			 (unsigned long long)best->user, (unsigned long long)best->emul, m->ops,
			 what, extra);
	else
		snprintf(e->detail, sizeof(e->detail),
			 "fewest of %u rounds: %llu exits (stats 'exits') in %u %ss, %llu to "
			 "userspace (run loop)%s", m->rounds, (unsigned long long)best->exits,
			 m->ops, what, (unsigned long long)best->user, extra);
}

/* The region's exits by reason, per op, into e. */
static void map_trace(struct map_ctx *m, struct result_map_entry *e, const struct trace_counts *tc)
{
	region_trace_per_op(tc, m->ops, &e->trace);
}

/* Measure one entry (its key already in e); Ctrl-C makes it "stopped". */
static void map_measure(struct map_ctx *m, const struct map_item *it, struct result_map_entry *e)
{
	struct vcpu *v = &m->vm->vcpus[0];
	struct map_counts best = { UINT64_MAX, UINT64_MAX, UINT64_MAX };
	uint64_t cycles = UINT64_MAX, user;
	struct region_counts rc;
	struct guest_result res;
	enum guest_exit k;
	bool traced = false;

	if (it->op == MAP_TOGGLE && it->reg == 4 && !(m->sregs0.cr4 & (1ULL << it->bit))) {
		int r = map_sregs_try(m, it);

		e->sregs = r ? MAP_SREGS_REJECTED : MAP_SREGS_ACCEPTED;
		e->sregs_errno = -r;
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
		/* Ctrl-C between two KVM_RUNs interrupts no guest: look at each sync. */
		if (map_stop_requested(m)) {
			k = GUEST_STOPPED;
			break;
		}
		if (res.args[0] == MAP_SYNC_BEGIN) {
			/* Attribute the first round's exits by reason. */
			region_begin(&m->rg, m->trace && !traced);
			continue;
		}
		region_end(&m->rg, &rc);
		if (rc.has_trace && !traced) {
			traced = true;
			map_trace(m, e, &rc.trace);
		}
		user = region_user_exits(&rc);
		if (rc.exits < best.exits)
			best.exits = rc.exits;
		if (user < best.user)
			best.user = user;
		if (rc.insn_emulation < best.emul)
			best.emul = rc.insn_emulation;
		if (res.nargs >= 3 && res.args[2] < cycles)
			cycles = res.args[2];
	}
	region_abort(&m->rg);
	if (k == GUEST_STOPPED) {
		m->stopped = true;
		map_stopped(e, true);
	} else if (k == GUEST_DONE && res.args[0]) {
		map_rejected(e, it, res.args[0]);
	} else if (k == GUEST_DONE && cycles != UINT64_MAX) {
		map_measured(m, e, it, &best, cycles, v->has_stats);
	} else {
		e->status = MAP_SKIPPED;
		snprintf(e->detail, sizeof(e->detail), "guest %s: %s", guest_exit_name(k), res.msg);
	}
}

static int map_vm(const struct suite_env *env, const struct kvm_cpuid2 *cpuid,
		  struct vm **vm, struct err *err)
{
	struct vm_opts o = { .kvm_path = env->kvm_path, .irqchip = true, .cpuid = cpuid,
			     .stop = env->stop, .quiet = true };
	int r = vm_create(vm, &o, err);

	if (r && r != -EINTR) {
		o.irqchip = false;
		r = vm_create(vm, &o, err);
	}
	return r;
}

static int map_vm_start(struct map_ctx *m, const struct kvm_cpuid2 *cpuid, struct err *err)
{
	int r = map_vm(m->env, cpuid, &m->vm, err);

	if (r)
		return r;
	r = kvm_get_sregs(m->vm->vcpus[0].fd, &m->sregs0);
	if (r) {
		err_set(err, r, "KVM_GET_SREGS: %s", strerror(-r));
		vm_destroy(m->vm);
		m->vm = NULL;
		return r;
	}
	/* No snapshots only means no stats-fd counts, as without a stats fd. */
	region_init(&m->rg, &m->vm->vcpus[0]);
	return 0;
}

static void map_vm_stop(struct map_ctx *m)
{
	if (!m->vm)
		return;
	region_free(&m->rg);
	vm_destroy(m->vm);
	m->vm = NULL;
}

/* One CPUID profile: every entry, measured or (after Ctrl-C) stopped. */
static int map_cpuid_profile(struct map_ctx *m, const struct cpuid_profile *p,
		       const struct kvm_cpuid2 *supported, struct result_map *map,
		       struct err *err)
{
	struct result_map_cpuid_profile *prof;
	struct kvm_cpuid2 *cpuid;
	int r;

	r = cpuid_profile_build(p, supported, &cpuid);
	if (r)
		return err_set(err, r == -ENOENT ? -EINVAL : r, "CPUID profile '%s': %s", p->spec,
			 r == -ENOENT ? "a feature to set lives in a CPUID leaf KVM does not report"
				      : strerror(-r));
	if (!m->stopped && !map_stop_requested(m)) {
		r = map_vm_start(m, cpuid, err);
		if (r) {
			free(cpuid);
			return r;
		}
	}
	prof = result_map_cpuid_profile_add(map, p->name, p->spec);
	if (!prof) {
		r = err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (p->base == CPUID_PROFILE_MINIMAL)
		snprintf(prof->note, sizeof(prof->note), "%s", cpuid_profile_minimal_doc());
	for (size_t i = 0; i < NR_MAP_ITEMS; i++) {
		struct result_map_entry *e = result_map_entry_add(prof);

		if (!e) {
			r = err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		map_entry_key(e, &map_items[i], cpuid);
		if (map_stop_requested(m))
			m->stopped = true;
		if (m->stopped || !m->vm) {
			map_stopped(e, false);
			continue;
		}
		if (m->opts && m->opts->progress)
			m->opts->progress(m->opts->progress_ctx, prof->name, e);
		map_measure(m, &map_items[i], e);
	}
out:
	map_vm_stop(m);
	free(cpuid);
	return r;
}

int map_collect_opts(const struct suite_env *env, const char *const *cpuid_profiles, size_t n,
		     const struct map_opts *opts, struct result_map **map_out,
		     struct err *err)
{
	static const char *const defaults[] = { "host", "minimal" };
	struct map_ctx m = { .env = env, .opts = opts };
	struct cpuid_profile *parsed;
	const struct kvm_cpuid2 *supported;
	struct result_map *map = NULL;
	int r = 0;

	*map_out = NULL;
	if (!cpuid_profiles || !n) {
		cpuid_profiles = defaults;
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
		r = cpuid_profile_parse(cpuid_profiles[i], &parsed[i], err);
		if (r)
			goto out;
	}
	supported = hostinfo_cpuid(env->hi);
	if (!supported) {
		r = err_set(err, -ENODEV, "the host record has no KVM_GET_SUPPORTED_CPUID table");
		goto out;
	}
	map = result_map_new();
	if (!map) {
		r = err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	map->emulated = m.emulated;
	map->ops = m.ops;
	map->rounds = m.rounds;
	for (size_t i = 0; i < n; i++) {
		r = map_cpuid_profile(&m, &parsed[i], supported, map, err);
		if (r) {
			result_map_free(map);
			goto out;
		}
	}
	map->incomplete = m.stopped;
	*map_out = map;
	if (m.stopped) {
		r = err_set(err, -EINTR, "stopped by Ctrl-C: the map is incomplete");
	}
out:
	free(parsed);
	return r;
}

int map_collect(const struct suite_env *env, const char *const *cpuid_profiles, size_t n,
		struct result_map **map_out, struct err *err)
{
	return map_collect_opts(env, cpuid_profiles, n, NULL, map_out, err);
}

size_t map_nr_entries(void)
{
	return NR_MAP_ITEMS;
}

void map_entry_key_at(size_t i, struct result_map_entry *e)
{
	memset(e, 0, sizeof(*e));	/* e holds nothing yet: reset frees nothing */
	result_map_entry_reset(e);
	if (i < NR_MAP_ITEMS)
		map_item_key(e, &map_items[i]);
}

static void map_print_entry(FILE *f, const struct result_map_entry *e)
{
	char name[80], st[48], ex[16] = "-", cy[16] = "-", sr[16] = "", row[160], tail[1024] = "";
	size_t t = 0;
	int n;

	snprintf(name, sizeof(name), "%s.%s", e->reg, strcmp(e->op, "read") ? e->name : "read");
	if (e->vector >= 0)
		snprintf(st, sizeof(st), "%s (%s)", map_status_name(e->status),
			 vector_name((unsigned int)e->vector));
	else
		snprintf(st, sizeof(st), "%s", map_status_name(e->status));
	if (e->exits_per_op >= 0)
		snprintf(ex, sizeof(ex), "%.2f", e->exits_per_op);
	if (e->cycles_per_op >= 0)
		snprintf(cy, sizeof(cy), "%.1f", e->cycles_per_op);
	if (e->sregs != MAP_SREGS_NONE)
		snprintf(sr, sizeof(sr), "%s",
			 e->sregs_errno ? strerrorname_np(e->sregs_errno) : "ok");
	n = snprintf(row, sizeof(row), "  %-15s %4lld  %-6s  %-16s %9s %10s  %s", name, e->bit,
		     e->op, st, ex, cy, sr);
	while (n > 0 && row[n - 1] == ' ')
		row[--n] = 0;
	if (e->status != MAP_EMULATED && e->status != MAP_OWNED && e->status != MAP_INTERCEPTED)
		t += snprintf(tail + t, sizeof(tail) - t, "%s", e->detail);
	else if (e->cpuid == 0)
		t += snprintf(tail + t, sizeof(tail) - t, "accepted although guest CPUID lacks %s",
			      e->feature);
	if (e->trace.present) {
		t += snprintf(tail + t, sizeof(tail) - t, "%s[", t ? " " : "");
		for (size_t i = 0; i < e->trace.n && t < sizeof(tail); i++)
			t += snprintf(tail + t, sizeof(tail) - t, " %s %.2f",
				      e->trace.reason[i].name, e->trace.reason[i].per_op);
		if (t < sizeof(tail))
			snprintf(tail + t, sizeof(tail) - t,
				 e->trace.n ? " ]" : " no kvm_exit events ]");
	}
	/* The detail on the row when it fits TEXT_WIDTH, else wrapped on lines of its own below. */
	if (!tail[0])
		fprintf(f, "%s\n", row);
	else if ((size_t)n + 2 + strlen(tail) <= TEXT_WIDTH)
		fprintf(f, "%-82s%s\n", row, tail);
	else {
		fprintf(f, "%s\n", row);
		text_wrap_print(f, "      ", 6, tail);
	}
}

void map_print(FILE *f, const struct result_map *map)
{
	fprintf(f, "CR0/CR4 ownership map: %lld writes (toggles) or reads per round, "
		"fewest exits of %lld rounds\n",
		map->ops, map->rounds);
	/* The emulation itself is the host's warning (stderr, the JSON): here what it means for the map. */
	if (map->emulated)
		text_wrap_print(f, "NOTE: ", 6,
				"status \"emulated\": ownership is not meaningful on this host "
				"and no bit is called owned; exits/op is the vCPU stats 'exits' "
				"delta (the backend's own exits, e.g. MMU reloads, not exits to "
				"userspace), cycles/op is emulation cost.");
	for (size_t i = 0; i < map->n_profiles; i++) {
		const struct result_map_cpuid_profile *p = &map->profiles[i];
		char lead[MAP_CPUID_PROFILE_LEN + 16];

		/* "profile NAME", as the --expect file names it */
		snprintf(lead, sizeof(lead), "\nprofile %s%s", p->name, p->note[0] ? ": " : "");
		text_wrap_print(f, lead, 2, p->note);
		fprintf(f, "  %-15s %4s  %-6s  %-16s %9s %10s  %-9s\n", "entry", "bit", "op",
			"status", "exits/op", "cycles/op", "SET_SREGS");
		for (size_t j = 0; j < p->n_entries; j++)
			map_print_entry(f, &p->entries[j]);
	}
	if (map->n_profiles > 1) {
		const struct result_map_cpuid_profile *p0 = &map->profiles[0];
		bool any = false;

		for (size_t i = 0; i < p0->n_entries && !any; i++)
			any = result_map_entry_changed(map, &p0->entries[i]);
		fprintf(f, "\n%s between profiles\n", any ? "status changes" : "no status changes");
		for (size_t i = 0; i < p0->n_entries; i++) {
			const struct result_map_entry *e = &p0->entries[i];

			if (!result_map_entry_changed(map, e))
				continue;
			fprintf(f, "  %s.%s %s:", e->reg, e->name, e->op);
			for (size_t j = 0; j < map->n_profiles; j++) {
				const struct result_map_entry *x =
					result_map_find_entry(&map->profiles[j], e);

				if (x)
					fprintf(f, "%s %s %s", j ? "," : "", map->profiles[j].name,
						map_status_name(x->status));
			}
			fprintf(f, "\n");
		}
	}
	if (map->incomplete)
		fprintf(f, "\n(stopped early: the map is incomplete)\n");
}
