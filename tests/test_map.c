// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_map.c - `exitscope map` and its library: CPUID profile parsing and
 * building, the map on real /dev/kvm (runs to completion, "emulated" and
 * never "owned" on an emulating host, CR4.PSE costs exactly one exit per
 * toggle and no toggle reaches userspace, CR4.CET rejected with #GP from
 * the guest and EINVAL from KVM_SET_SREGS without SHSTK/IBT), the model
 * written and read back, Ctrl-C making entries "stopped", the result file,
 * and the CLI's usage errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/abi.h"
#include "results/jcheck.h"
#include "results/map_model.h"
#include "results/result_read.h"
#include "results/result_doc.h"
#include "host/hostinfo.h"
#include "host/host_record.h"
#include "map/map.h"
#include "map/cpuid_profile.h"
#include "tests/fixture.h"
#include <jansson.h>

#include "tests/run_cmd.h"
#include "tests/tap.h"

static void test_profile_parse(void)
{
	struct cpuid_profile p;
	struct err err;

	ok(!cpuid_profile_parse("host,-shstk,-ibt", &p, &err) && p.base == CPUID_PROFILE_HOST &&
	   p.n == 2 && !p.edits[0].on && p.edits[0].f == X86_FEAT_SHSTK &&
	   p.edits[1].f == X86_FEAT_IBT, "host,-shstk,-ibt: host with two features cleared");
	ok(!cpuid_profile_parse("minimal,+x2apic", &p, &err) && p.base == CPUID_PROFILE_MINIMAL &&
	   p.n == 1 && p.edits[0].on, "minimal,+x2apic: minimal with x2apic set");
	ok(!cpuid_profile_parse("-shstk,-ibt", &p, &err) && p.base == CPUID_PROFILE_HOST && p.n == 2,
	   "edits alone are relative to host");
	tap_is_str(p.name, "-shstk,-ibt", "the profile is named by its spec");
	ok(cpuid_profile_parse("host,-bogus", &p, &err) == -EINVAL,
	   "unknown feature name: -EINVAL");
	tap_like(err.msg, "unknown CPUID feature 'bogus'", "message names the unknown feature");
	tap_like(err.msg, "known: x2apic, tsc_deadline", "message lists the known names");
	ok(cpuid_profile_parse("minimal,host", &p, &err) == -EINVAL, "base after an edit position: error");
	ok(cpuid_profile_parse("host,shstk", &p, &err) == -EINVAL, "edit without + or -: error");
	tap_like(err.msg, "expected host, minimal, +FEATURE or -FEATURE, got 'shstk'", "and says what it expected");
	ok(cpuid_profile_parse("", &p, &err) == -EINVAL, "empty spec: error");
}

/* A synthetic supported table: leaf 1 with everything, leaf 7 with smep. */
static void test_profile_build(void)
{
	struct kvm_cpuid2 *sup = calloc(1, sizeof(*sup) + 3 * sizeof(sup->entries[0]));
	struct kvm_cpuid2 *c = NULL;
	struct cpuid_profile p;
	struct err err;

	sup->nent = 3;
	sup->entries[0] = (struct kvm_cpuid_entry2){ .function = 1, .ecx = ~0u, .edx = ~0u };
	sup->entries[1] = (struct kvm_cpuid_entry2){ .function = 7, .index = 0, .ebx = 1u << 7,
						     .ecx = 1u << 7, .edx = 1u << 20 };
	sup->entries[2] = (struct kvm_cpuid_entry2){ .function = 0x80000001, .edx = ~0u };
	cpuid_profile_parse("minimal", &p, &err);
	ok(!cpuid_profile_build(&p, sup, &c), "minimal builds");
	ok(c && !cpuid_has(c, X86_FEAT_SMEP) && !cpuid_has(c, X86_FEAT_SHSTK) && !cpuid_has(c, X86_FEAT_XSAVE) &&
	   !cpuid_has(c, X86_FEAT_PGE) && cpuid_has(c, X86_FEAT_X2APIC) && cpuid_has(c, X86_FEAT_FXSR),
	   "minimal: no smep, shstk, xsave, pge; keeps x2apic and fxsr");
	free(c);
	cpuid_profile_parse("minimal,-x2apic,+smep", &p, &err);
	ok(!cpuid_profile_build(&p, sup, &c) && !cpuid_has(c, X86_FEAT_X2APIC) &&
	   cpuid_has(c, X86_FEAT_SMEP),
	   "minimal,-x2apic,+smep: edits apply after the base");
	free(c);
	cpuid_profile_parse("-shstk,-ibt", &p, &err);
	ok(!cpuid_profile_build(&p, sup, &c) && !cpuid_has(c, X86_FEAT_SHSTK) &&
	   !cpuid_has(c, X86_FEAT_IBT) && cpuid_has(c, X86_FEAT_SMEP), "-shstk,-ibt: host minus shstk and ibt");
	free(c);
	cpuid_profile_parse("+lam", &p, &err);
	ok(cpuid_profile_build(&p, sup, &c) == -ENOENT,
	   "setting a bit of a leaf KVM does not report: -ENOENT");
	free(sup);
}

static struct result_map_entry *model_entry(struct result_map_cpuid_profile *p, const char *reg,
					    int bit, const char *name, enum map_status st)
{
	struct result_map_entry *e = result_map_entry_add(p);

	snprintf(e->reg, sizeof(e->reg), "%s", reg);
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->op, sizeof(e->op), "toggle");
	e->bit = bit;
	e->status = st;
	return e;
}

/* The map of a result file: a row read into a map the reader allocates. */
struct holder {
	struct result_map *map;
};
static const struct field holder_field[] = {
	FIELD_OBJ_OWN(struct holder, map, "map", FIELD_REQUIRED, &result_map_fields),
};
static const struct field_desc holder_desc = FIELD_DESC("holder", holder_field);

/* Read obj as a "map" object: 0 with *out, or < 0 with err (*out NULL). */
static int model_read(json_t *obj, struct result_map **out, struct err *err)
{
	struct jcheck c = { .name = "t.json", .err = err };
	struct holder h = { NULL };
	json_t *doc = json_pack("{s:o}", "map", obj);
	int r = fields_read(&c, doc, &holder_desc, &h);

	if (r)
		fields_free(&holder_desc, &h);
	*out = h.map;
	json_decref(doc);
	return r;
}

/* The model without KVM: changes between profiles, the writer, the reader's limits. */
static void test_map_model(void)
{
	struct result_map *m = result_map_new(), *back = NULL;
	struct result_map_cpuid_profile *p;
	json_t *j, *ch, *e;
	char long_detail[600];
	struct err err;
	int r;

	p = result_map_cpuid_profile_add(m, "host", "host");
	model_entry(p, "cr4", 4, "PSE", MAP_INTERCEPTED);
	model_entry(p, "cr4", 7, "PGE", MAP_OWNED);
	model_entry(p, "cr4", 23, "CET", MAP_INTERCEPTED);
	p = result_map_cpuid_profile_add(m, "-shstk,-ibt", "-shstk,-ibt");
	model_entry(p, "cr4", 7, "PGE", MAP_OWNED);
	model_entry(p, "cr4", 23, "CET", MAP_REJECTED)->vector = GP_VECTOR;
	model_entry(p, "cr4", 4, "PSE", MAP_STOPPED);
	ok(!result_map_entry_changed(m, &m->profiles[0].entries[1]), "same status in both profiles: no change");
	ok(result_map_entry_changed(m, &m->profiles[0].entries[2]), "intercepted vs rejected: a change");
	ok(!result_map_entry_changed(m, &m->profiles[0].entries[0]), "a 'stopped' entry is no change");
	j = result_map_json(m);
	ch = json_object_get(j, "changes");
	e = json_array_get(ch, 0);
	ok(json_array_size(ch) == 1 && !strcmp(json_string_value(json_object_get(e, "name")), "CET") &&
	   !strcmp(json_string_value(json_object_get(json_object_get(e, "statuses"), "-shstk,-ibt")),
		   "rejected"),
	   "\"changes\" lists CET alone, with each profile's status");
	ok(!json_object_get(j, "ops") && !json_object_get(j, "incomplete") &&
	   !json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(j, "profiles"), 0),
							   "entries"), 0), "exits_per_op"),
	   "absent values are not written");
	m->incomplete = 1;
	json_decref(j);
	j = result_map_json(m);
	ok(json_is_true(json_object_get(j, "incomplete")), "an incomplete map says so");
	r = model_read(j, &back, &err);
	ok(!r && back->incomplete && back->n_profiles == 2 &&
	   back->profiles[1].entries[1].vector == GP_VECTOR &&
	   back->profiles[1].entries[2].status == MAP_STOPPED && back->ops == -1,
	   "the written model reads back (%s)", r ? err.msg : "ok");
	result_map_free(back);
	back = NULL;
	result_map_free(m);

	j = fixture_map(0, "host", json_pack("[o]", fixture_map_entry("cr4_with_a_far_too_long_register",
								     4, "PSE", "toggle", "owned", 0)));
	ok(model_read(j, &back, &err) < 0 && !back, "a 32-character reg is refused");
	tap_like(err.msg, "t.json: map.profiles[0].entries[0].reg: longer than 31 characters",
		 "and the message names the field and the limit");
	memset(long_detail, 'x', sizeof(long_detail) - 1);
	long_detail[sizeof(long_detail) - 1] = 0;
	e = fixture_map_entry("cr4", 4, "PSE", "toggle", "stopped", 0);
	json_object_set_new(e, "detail", json_string(long_detail));
	json_object_set_new(e, "sregs", json_string("accepted"));
	r = model_read(fixture_map(0, "host", json_pack("[o]", e)), &back, &err);
	ok(!r && strlen(back->profiles[0].entries[0].detail) == MAP_DETAIL_LEN - 1 &&
	   back->profiles[0].entries[0].status == MAP_STOPPED &&
	   back->profiles[0].entries[0].sregs == MAP_SREGS_ACCEPTED,
	   "a long detail is cut to %d bytes; 'stopped' and sregs are read (%s)", MAP_DETAIL_LEN - 1,
	   r ? err.msg : "ok");
	result_map_free(back);
	back = NULL;
	e = fixture_map_entry("cr4", 4, "PSE", "toggle", "owned", 0);
	json_object_set_new(e, "sregs", json_string("maybe"));
	ok(model_read(fixture_map(0, "host", json_pack("[o]", e)), &back, &err) < 0,
	   "an unknown sregs outcome is refused");
	tap_like(err.msg, "entries[0].sregs: \"maybe\" is not one of", "naming the field");
}

static const struct result_map_entry *entry(const struct result_map *map, size_t prof,
					    const char *reg, int bit, const char *op)
{
	struct result_map_entry key = { .bit = bit };

	if (prof >= map->n_profiles)
		return NULL;
	snprintf(key.reg, sizeof(key.reg), "%s", reg);
	snprintf(key.op, sizeof(key.op), "%s", op);
	return result_map_find_entry(&map->profiles[prof], &key);
}

/* Write map as a kind "map" result file and read it back (NULL: err says why). */
static struct result_file *map_roundtrip(const struct result_map *map, const struct hostinfo *hi,
					 struct err *err)
{
	char *argv[] = { "map", NULL };
	struct hostinfo_record rec;
	struct result_doc doc;
	char *dir = fixture_tmpdir(), path[512];
	struct result_file *rf = NULL;

	snprintf(path, sizeof(path), "%s/map.json", dir ? dir : "/nonexistent");
	result_doc_init(&doc, "map", 1, argv);
	hostinfo_record(hi, &rec);
	doc.host = &rec.rec;
	doc.map = map;
	if (!result_doc_write(&doc, path, NULL, err))
		rf = result_read_file(path, err);
	result_doc_release(&doc);
	if (dir)
		fixture_rmdir(dir);
	return rf;
}

/* Whether every entry of a and b agrees on what the file carries. */
static bool map_same(const struct result_map *a, const struct result_map *b, char *why, size_t len)
{
	if (a->n_profiles != b->n_profiles || a->emulated != b->emulated || a->ops != b->ops ||
	    a->rounds != b->rounds || a->incomplete != b->incomplete) {
		snprintf(why, len, "map header differs");
		return false;
	}
	for (size_t i = 0; i < a->n_profiles; i++) {
		const struct result_map_cpuid_profile *p = &a->profiles[i], *q = &b->profiles[i];

		if (strcmp(p->name, q->name) || strcmp(p->spec, q->spec) || strcmp(p->note, q->note) ||
		    p->n_entries != q->n_entries) {
			snprintf(why, len, "profile %zu differs", i);
			return false;
		}
		for (size_t j = 0; j < p->n_entries; j++) {
			const struct result_map_entry *x = &p->entries[j], *y = &q->entries[j];

			if (strcmp(x->reg, y->reg) || strcmp(x->name, y->name) || strcmp(x->op, y->op) ||
			    x->bit != y->bit || x->status != y->status || x->vector != y->vector ||
			    x->exits_per_op != y->exits_per_op || x->cycles_per_op != y->cycles_per_op ||
			    x->user_exits_per_op != y->user_exits_per_op ||
			    x->insn_emulation_per_op != y->insn_emulation_per_op ||
			    strcmp(x->detail, y->detail) || strcmp(x->feature, y->feature) ||
			    x->cpuid != y->cpuid || x->sregs != y->sregs ||
			    x->sregs_errno != y->sregs_errno || x->trace.present != y->trace.present ||
			    x->trace.n != y->trace.n) {
				snprintf(why, len, "profiles[%zu] entry %s.%s differs", i, x->reg, x->name);
				return false;
			}
		}
	}
	return true;
}

static void test_map_kvm(const struct hostinfo *hi)
{
	const char *profiles[] = { "host", "-shstk,-ibt" };
	struct map_opts mo = { .ops = 100, .rounds = 3 };
	struct suite_env env = { 0 };
	volatile sig_atomic_t stop = 0;
	struct result_map *map = NULL;
	const struct result_map_entry *e;
	struct result_file *rf;
	size_t measured = 0, user = 0, total = 0, sum = 0, consistent = 0, bad_rejected = 0;
	char why[128] = "same";
	struct err err;
	bool same;
	int r;

	env.hi = hi;
	env.stop = &stop;
	r = map_collect_opts(&env, profiles, 2, &mo, &map, &err);
	if (!ok(r == 0 && map, "map_collect runs (%s)", r ? err.msg : "ok")) {
		result_map_free(map);
		tap_skip(19, "no map");
		return;
	}
	ok(map->n_profiles == 2 && !map->incomplete, "both profiles measured, map complete");
	ok(map->profiles[0].n_entries == 33 && map->profiles[1].n_entries == 33,
	   "33 entries per profile (29 bits, 4 reads)");
	ok(map->emulated == (hi->exec_mode == EXEC_EMULATED),
	   "map says emulated exactly when the host emulates guest code (%s)", exec_mode_name(hi->exec_mode));
	for (size_t j = 0; j < map->n_profiles; j++)
		for (size_t i = 0; i < map->profiles[j].n_entries; i++) {
			e = &map->profiles[j].entries[i];
			total++;
			if (e->exits_per_op >= 0) {
				measured++;
				user += e->user_exits_per_op != 0.0;
				/* the status is what the counts say */
				consistent += hi->exec_mode == EXEC_EMULATED ? e->status == MAP_EMULATED :
					      e->status == (e->exits_per_op >= 0.5 ? MAP_INTERCEPTED : MAP_OWNED);
			}
			bad_rejected += e->status == MAP_REJECTED &&
					(e->vector < 0 || e->exits_per_op >= 0 || !e->detail[0]);
		}
	for (int st = 0; st < MAP_STATUS_N; st++)
		sum += result_map_count(map, st);
	is_int(sum, total, "each of the 66 entries has exactly one known status");
	is_int(result_map_count(map, MAP_STOPPED), 0, "no entry is 'stopped' when nothing stopped the map");
	is_int(consistent, measured, "every measured entry's status follows from its exits/op");
	is_int(bad_rejected, 0, "every 'rejected' entry has its vector and a detail, and no exit counts");
	if (hi->exec_mode == EXEC_EMULATED) {
		is_int(result_map_count(map, MAP_OWNED) + result_map_count(map, MAP_INTERCEPTED), 0,
		       "emulating host: no entry is called owned or intercepted");
		ok(result_map_count(map, MAP_EMULATED) == measured && measured > 40,
		   "emulating host: all %zu measured entries are 'emulated'", measured);
		is_int(result_map_count(map, MAP_EMULATED) + result_map_count(map, MAP_REJECTED), total,
		       "emulating host: every entry is either emulated or rejected (none skipped)");
	} else {
		is_int(result_map_count(map, MAP_EMULATED), 0, "native host: no entry is 'emulated'");
		ok(measured > 40, "native host: %zu entries measured", measured);
		skip("emulating-host fact");
	}
	is_int(user, 0, "no CR toggle or read ever exits to userspace (run loop counters)");
	/* PSE: VMX intercepts it, SVM intercepts every CR4 write, kvm_pvm counts one exit. */
	e = entry(map, 0, "cr4", 4, "toggle");
	ok(e && e->exits_per_op == 1.0,
	   "CR4.PSE: exactly 1 exit per toggle (stats 'exits', fewest of 3 rounds of 100) (%s)",
	   e ? e->detail : "missing");
	ok(e && e->status == (hi->exec_mode == EXEC_EMULATED ? MAP_EMULATED : MAP_INTERCEPTED),
	   "CR4.PSE status is %s", hi->exec_mode == EXEC_EMULATED ? "emulated" : "intercepted");
	/* kvm_pvm: its own exit (MMU reload) on a CR0.WP write, none on a CR4 read. */
	if (!strcmp(hi->backend, "kvm_pvm")) {
		e = entry(map, 0, "cr0", 16, "toggle");
		ok(e && e->exits_per_op == 1.0, "kvm_pvm: CR0.WP costs exactly 1 exit per toggle (%s)",
		   e ? e->detail : "missing");
		e = entry(map, 0, "cr4", 0, "read");
		ok(e && e->exits_per_op == 0.0, "kvm_pvm: a CR4 read never exits (%s)",
		   e ? e->detail : "missing");
	} else {
		tap_skip(2, "kvm_pvm facts");
	}
	/* CET without SHSTK/IBT in the guest CPUID: #GP in the guest, EINVAL from KVM_SET_SREGS. */
	e = entry(map, 1, "cr4", 23, "toggle");
	ok(e && e->status == MAP_REJECTED && e->vector == GP_VECTOR && e->cpuid == 0 &&
	   !strcmp(e->feature, "shstk/ibt"),
	   "-shstk,-ibt: CR4.CET rejected with #GP in the guest, CPUID lacks shstk/ibt (%s)",
	   e ? e->detail : "missing");
	ok(e && e->sregs == MAP_SREGS_REJECTED && e->sregs_errno == EINVAL,
	   "-shstk,-ibt: KVM_SET_SREGS with CR4.CET fails with EINVAL");
	e = entry(map, 0, "cr4", 23, "toggle");
	if (!hi->feat_shstk && !hi->feat_ibt)
		ok(e && e->status == MAP_REJECTED && e->sregs == MAP_SREGS_REJECTED,
		   "host profile without SHSTK/IBT support: CR4.CET rejected both ways too");
	else
		skip("KVM offers SHSTK or IBT: CR4.CET is legal under the host profile");
	rf = map_roundtrip(map, hi, &err);
	same = rf && rf->map && map_same(map, rf->map, why, sizeof(why));
	ok(same, "the written map reads back entry for entry (%s)", rf ? why : err.msg);
	result_free(rf);
	result_map_free(map);
}

/* Sets the stop flag as entry number stop_at starts: Ctrl-C while it is measured. */
struct stop_hook {
	volatile sig_atomic_t *stop;
	size_t calls, stop_at;
};

static void stop_progress(void *ctx, const char *profile, const struct result_map_entry *e)
{
	struct stop_hook *h = ctx;

	if (h->calls++ == h->stop_at)
		*h->stop = 1;
}

/* Entries of profile p from index i on: how many are stopped with a detail containing what. */
static size_t count_stopped(const struct result_map *m, size_t p, size_t from, const char *what)
{
	size_t n = 0;

	for (size_t i = from; p < m->n_profiles && i < m->profiles[p].n_entries; i++)
		n += m->profiles[p].entries[i].status == MAP_STOPPED &&
		     strstr(m->profiles[p].entries[i].detail, what) != NULL;
	return n;
}

static void test_map_stop(const struct hostinfo *hi)
{
	const char *profiles[] = { "host", "minimal" };
	volatile sig_atomic_t stop = 1;
	struct stop_hook h = { .stop = &stop, .stop_at = 3 };
	struct map_opts mo = { .ops = 20, .rounds = 2, .progress = stop_progress, .progress_ctx = &h };
	struct suite_env env = { .hi = hi, .stop = &stop };
	struct result_map *map = NULL;
	struct result_file *rf;
	size_t measured = 0;
	struct err err;
	int r;

	/* Ctrl-C before the map starts: nothing is measured, everything is listed. */
	r = map_collect_opts(&env, profiles, 2, &mo, &map, &err);
	is_int(r, -EINTR, "stop flag set from the start: map_collect says -EINTR");
	ok(map && map->incomplete && map->n_profiles == 2, "and still gives the map, marked incomplete");
	ok(map && count_stopped(map, 0, 0, "before it was measured") == 33 &&
	   count_stopped(map, 1, 0, "before it was measured") == 33,
	   "all 2 x 33 entries are 'stopped' before they were measured");
	is_int((long long)h.calls, 0, "no entry was started");
	result_map_free(map);
	map = NULL;

	/* Ctrl-C as the 4th entry (cr0.NE) starts. */
	stop = 0;
	r = map_collect_opts(&env, profiles, 2, &mo, &map, &err);
	ok(r == -EINTR, "stop flag set during the map: -EINTR (%s)", err.msg);
	if (!ok(map && map->incomplete && map->n_profiles == 2 && map->profiles[0].n_entries == 33 &&
		map->profiles[1].n_entries == 33, "the map is incomplete and lists every entry")) {
		result_map_free(map);
		tap_skip(6, "no map");
		return;
	}
	is_int((long long)h.calls, 4, "the 4th entry was the last one started");
	for (size_t i = 0; i < 3; i++)
		measured += map->profiles[0].entries[i].status != MAP_STOPPED &&
			    map->profiles[0].entries[i].cycles_per_op >= 0;
	is_int(measured, 3, "the 3 entries before it were measured");
	ok(!strcmp(map->profiles[0].entries[3].name, "NE") &&
	   count_stopped(map, 0, 3, "while it was being measured") == 1 &&
	   map->profiles[0].entries[3].status == MAP_STOPPED,
	   "cr0.NE, being measured, is 'stopped' (%s)", map->profiles[0].entries[3].detail);
	ok(count_stopped(map, 0, 4, "before it was measured") == 29 &&
	   count_stopped(map, 1, 0, "before it was measured") == 33,
	   "the 29 + 33 entries after it are 'stopped' before they were measured");
	rf = map_roundtrip(map, hi, &err);
	ok(rf && rf->map && rf->map->incomplete && rf->map->n_profiles == 2 &&
	   rf->map->profiles[0].entries[3].status == MAP_STOPPED &&
	   result_map_count(rf->map, MAP_STOPPED) == 1 + 29 + 33 &&
	   rf->map->profiles[0].entries[2].status == map->profiles[0].entries[2].status,
	   "the written file reads back incomplete, with the same 63 'stopped' entries (%s)",
	   rf ? "ok" : err.msg);
	ok(rf && rf->map && !strcmp(rf->map->profiles[0].entries[3].detail,
				    map->profiles[0].entries[3].detail),
	   "and the stopped entry's detail");
	result_free(rf);
	result_map_free(map);
}

static void test_cli(void)
{
	const char *exe = getenv("EXITSCOPE");
	struct run_result rr;
	char *dir, path[512];

	if (!exe || access(exe, X_OK)) {
		tap_skip(11, "EXITSCOPE not set (run through make check)");
		return;
	}
	{
		const char *argv[] = { exe, "map", "--help", NULL };

		run_cmd(&rr, argv);
		ok(rr.status == 0 && strstr(rr.out, "--cpuid-profile"), "map --help: exit 0, describes --cpuid-profile");
		run_free(&rr);
	}
	{
		const char *argv[] = { exe, "map", "--cpuid-profile", "host,-bogus", NULL };

		run_cmd(&rr, argv);
		is_int(rr.status, 2, "unknown feature name: usage error (exit 2)");
		tap_like(rr.err, "unknown CPUID feature 'bogus'", "names the unknown feature");
		tap_like(rr.err, "shstk, la57, ibt", "lists the known names");
		run_free(&rr);
	}
	{
		const char *argv[] = { exe, "map", "--ops", "zero", NULL };

		run_cmd(&rr, argv);
		is_int(rr.status, 2, "bad --ops: usage error");
		run_free(&rr);
	}
	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(6, "/dev/kvm not usable");
		return;
	}
	dir = fixture_tmpdir();
	snprintf(path, sizeof(path), "%s/map.json", dir);
	{
		const char *argv[] = { exe, "map", "--ops", "20", "--rounds", "1", "--cpuid-profile", "host",
				       "--cpuid-profile=-shstk,-ibt", "--json", path, NULL };
		struct result_file *rf;
		struct err err;

		run_cmd(&rr, argv);
		is_int(rr.status, 0, "map with two profiles and --json: exit 0");
		tap_like(rr.out, "profile -shstk,-ibt", "stdout has a table per profile");
		tap_like(rr.out, "cr4.CET", "and the CET row");
		rf = result_read_file(path, &err);
		ok(rf && rf->kind == RESULT_KIND_MAP && rf->map && rf->map->n_profiles == 2 &&
		   rf->map->profiles[1].n_entries == 33, "the file is a valid kind 'map' result (%s)",
		   rf ? "ok" : err.msg);
		ok(rf && rf->map && !strcmp(rf->map->profiles[1].spec, "-shstk,-ibt"),
		   "profiles carry their spec");
		ok(rf && rf->map && (rf->map->emulated ?
				     strstr(rr.out, "ownership is not meaningful on this host") != NULL : 1),
		   "an emulating host is called out on stdout");
		result_free(rf);
		run_free(&rr);
	}
	/* --trace: each measured entry carries a per-reason object (or a note why not). */
	{
		const char *argv[] = { exe, "map", "--ops", "10", "--rounds", "1", "--cpuid-profile",
				       "host", "--trace", "--json", path, NULL };
		json_t *root, *e0;

		run_cmd(&rr, argv);
		is_int(rr.status, 0, "map --trace: exit 0");
		root = json_load_file(path, 0, NULL);
		e0 = json_array_get(json_object_get(json_array_get(json_object_get(
			json_object_get(root, "map"), "profiles"), 0), "entries"), 0);
		ok(strstr(rr.err, "no exit attribution") ? json_object_get(e0, "trace") == NULL
							 : json_is_object(json_object_get(e0, "trace")),
		   "map --trace: entries have a trace object exactly when tracefs is usable");
		json_decref(root);
		run_free(&rr);
	}
	fixture_rmdir(dir);
}

int main(void)
{
	struct hostinfo hi;
	struct err err;

	test_profile_parse();
	test_profile_build();
	test_map_model();
	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(32, "/dev/kvm not usable");
	} else if (hostinfo_collect(&hi, NULL, &err)) {
		tap_skip(32, "hostinfo failed");
	} else {
		test_map_kvm(&hi);
		test_map_stop(&hi);
	}
	test_cli();
	return done_testing();
}
