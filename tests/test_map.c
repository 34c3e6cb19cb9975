/*
 * test_map.c - `exitscope map` and its library: CPUID profile parsing and
 * building, the map on real /dev/kvm (runs to completion, "emulated" and
 * never "owned" on an emulating host, CR4.PSE costs exactly one exit per
 * toggle and no toggle reaches userspace, CR4.CET rejected with #GP from
 * the guest and EINVAL from KVM_SET_SREGS without SHSTK/IBT), the result
 * file, and the CLI's usage errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/abi.h"
#include "results/result_read.h"
#include "host/hostinfo.h"
#include "suites/map.h"
#include "suites/profile.h"
#include "tests/fixture.h"
#include <jansson.h>

#include "tests/run_cmd.h"
#include "tests/tap.h"

static void test_profile_parse(void)
{
	struct cpuid_profile p;
	char err[2048];

	ok(!profile_parse("host,-shstk,-ibt", &p, err, sizeof(err)) && p.base == PROFILE_HOST &&
	   p.n == 2 && !p.edits[0].on && p.edits[0].f == X86_FEAT_SHSTK &&
	   p.edits[1].f == X86_FEAT_IBT, "host,-shstk,-ibt: host with two features cleared");
	ok(!profile_parse("minimal,+x2apic", &p, err, sizeof(err)) && p.base == PROFILE_MINIMAL &&
	   p.n == 1 && p.edits[0].on, "minimal,+x2apic: minimal with x2apic set");
	ok(!profile_parse("-shstk,-ibt", &p, err, sizeof(err)) && p.base == PROFILE_HOST && p.n == 2,
	   "edits alone are relative to host");
	tap_is_str(p.name, "-shstk,-ibt", "the profile is named by its spec");
	ok(profile_parse("host,-bogus", &p, err, sizeof(err)) == -EINVAL,
	   "unknown feature name: -EINVAL");
	tap_like(err, "unknown CPUID feature 'bogus'", "message names the unknown feature");
	tap_like(err, "known: x2apic, tsc_deadline", "message lists the known names");
	ok(profile_parse("minimal,host", &p, err, sizeof(err)) == -EINVAL, "base after an edit position: error");
	ok(profile_parse("host,shstk", &p, err, sizeof(err)) == -EINVAL, "edit without + or -: error");
	tap_like(err, "expected host, minimal, +FEATURE or -FEATURE, got 'shstk'", "and says what it expected");
	ok(profile_parse("", &p, err, sizeof(err)) == -EINVAL, "empty spec: error");
}

/* A synthetic supported table: leaf 1 with everything, leaf 7 with smep. */
static void test_profile_build(void)
{
	struct kvm_cpuid2 *sup = calloc(1, sizeof(*sup) + 3 * sizeof(sup->entries[0]));
	struct kvm_cpuid2 *c = NULL;
	struct cpuid_profile p;
	char err[256];

	sup->nent = 3;
	sup->entries[0] = (struct kvm_cpuid_entry2){ .function = 1, .ecx = ~0u, .edx = ~0u };
	sup->entries[1] = (struct kvm_cpuid_entry2){ .function = 7, .index = 0, .ebx = 1u << 7,
						     .ecx = 1u << 7, .edx = 1u << 20 };
	sup->entries[2] = (struct kvm_cpuid_entry2){ .function = 0x80000001, .edx = ~0u };
	profile_parse("minimal", &p, err, sizeof(err));
	ok(!profile_build(&p, sup, &c), "minimal builds");
	ok(c && !cpuid_has(c, X86_FEAT_SMEP) && !cpuid_has(c, X86_FEAT_SHSTK) && !cpuid_has(c, X86_FEAT_XSAVE) &&
	   !cpuid_has(c, X86_FEAT_PGE) && cpuid_has(c, X86_FEAT_X2APIC) && cpuid_has(c, X86_FEAT_FXSR),
	   "minimal: no smep, shstk, xsave, pge; keeps x2apic and fxsr");
	free(c);
	profile_parse("minimal,-x2apic,+smep", &p, err, sizeof(err));
	ok(!profile_build(&p, sup, &c) && !cpuid_has(c, X86_FEAT_X2APIC) && cpuid_has(c, X86_FEAT_SMEP),
	   "minimal,-x2apic,+smep: edits apply after the base");
	free(c);
	profile_parse("-shstk,-ibt", &p, err, sizeof(err));
	ok(!profile_build(&p, sup, &c) && !cpuid_has(c, X86_FEAT_SHSTK) && !cpuid_has(c, X86_FEAT_IBT) &&
	   cpuid_has(c, X86_FEAT_SMEP), "-shstk,-ibt: host minus shstk and ibt");
	free(c);
	profile_parse("+lam", &p, err, sizeof(err));
	ok(profile_build(&p, sup, &c) == -ENOENT, "setting a bit of a leaf KVM does not report: -ENOENT");
	free(sup);
}

static json_t *entry(json_t *map, size_t prof, const char *reg, int bit, const char *op)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(json_array_get(json_object_get(map, "profiles"), prof),
					   "entries"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "reg")), reg) &&
		    json_integer_value(json_object_get(e, "bit")) == bit &&
		    !strcmp(json_string_value(json_object_get(e, "op")), op))
			return e;
	return NULL;
}

static const char *str(json_t *e, const char *key)
{
	const char *s = json_string_value(json_object_get(e, key));

	return s ? s : "";
}

static void test_map_kvm(void)
{
	const char *profiles[] = { "host", "-shstk,-ibt" };
	struct map_opts mo = { .ops = 100, .rounds = 3 };
	struct suite_env env = { 0 };
	volatile sig_atomic_t stop = 0;
	struct hostinfo hi;
	json_t *map = NULL, *e;
	size_t owned = 0, emulated = 0, measured = 0, user = 0, i, j;
	char err[512];
	int r;

	r = hostinfo_collect(&hi, NULL, err, sizeof(err));
	if (r) {
		tap_skip(12, "hostinfo failed");
		return;
	}
	env.hi = &hi;
	env.stop = &stop;
	r = map_collect_opts(&env, profiles, 2, &mo, &map, err, sizeof(err));
	if (!ok(r == 0 && map, "map_collect runs (%s)", r ? err : "ok")) {
		tap_skip(11, "no map");
		return;
	}
	ok(json_array_size(json_object_get(map, "profiles")) == 2 && !json_object_get(map, "incomplete"),
	   "both profiles measured, map complete");
	ok(json_array_size(json_object_get(json_array_get(json_object_get(map, "profiles"), 0), "entries")) == 33,
	   "33 entries per profile (29 bits, 4 reads)");
	ok(json_is_true(json_object_get(map, "emulated")) == (hi.exec_mode == EXEC_EMULATED),
	   "map says emulated exactly when the host emulates guest code (%s)", exec_mode_name(hi.exec_mode));
	for (j = 0; j < 2; j++)
		json_array_foreach(json_object_get(json_array_get(json_object_get(map, "profiles"), j),
						   "entries"), i, e) {
			owned += !strcmp(str(e, "status"), "owned");
			emulated += !strcmp(str(e, "status"), "emulated");
			if (json_object_get(e, "exits_per_op")) {
				measured++;
				user += json_real_value(json_object_get(e, "user_exits_per_op")) != 0.0;
			}
		}
	if (hi.exec_mode == EXEC_EMULATED) {
		is_int(owned, 0, "emulating host: no entry is called owned");
		ok(emulated == measured && measured > 40, "emulating host: all %zu measured entries are 'emulated'",
		   measured);
	} else {
		is_int(emulated, 0, "native host: no entry is 'emulated'");
		ok(owned + emulated <= measured, "native host: statuses from counts");
	}
	is_int(user, 0, "no CR toggle or read ever exits to userspace (run loop counters)");
	/* PSE: VMX intercepts it, SVM intercepts every CR4 write, kvm_pvm counts one exit. */
	e = entry(map, 0, "cr4", 4, "toggle");
	ok(e && json_real_value(json_object_get(e, "exits_per_op")) == 1.0,
	   "CR4.PSE: exactly 1 exit per toggle (stats 'exits', fewest of 3 rounds of 100) (%s)",
	   e ? str(e, "detail") : "missing");
	ok(e && !strcmp(str(e, "status"), hi.exec_mode == EXEC_EMULATED ? "emulated" : "intercepted"),
	   "CR4.PSE status is %s", hi.exec_mode == EXEC_EMULATED ? "emulated" : "intercepted");
	/* CET without SHSTK/IBT in the guest CPUID: #GP in the guest, EINVAL from KVM_SET_SREGS. */
	e = entry(map, 1, "cr4", 23, "toggle");
	ok(e && !strcmp(str(e, "status"), "rejected") &&
	   json_integer_value(json_object_get(e, "vector")) == GP_VECTOR,
	   "-shstk,-ibt: CR4.CET rejected with #GP in the guest (%s)", e ? str(e, "detail") : "missing");
	ok(e && !strcmp(str(e, "sregs"), "rejected") &&
	   json_integer_value(json_object_get(e, "sregs_errno")) == EINVAL,
	   "-shstk,-ibt: KVM_SET_SREGS with CR4.CET fails with EINVAL");
	e = entry(map, 0, "cr4", 23, "toggle");
	if (!hi.feat_shstk && !hi.feat_ibt)
		ok(e && !strcmp(str(e, "status"), "rejected") && !strcmp(str(e, "sregs"), "rejected"),
		   "host profile without SHSTK/IBT support: CR4.CET rejected both ways too");
	else
		skip("KVM offers SHSTK or IBT: CR4.CET is legal under the host profile");
	json_decref(map);
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
		char err[RESULT_ERR_MAX];

		run_cmd(&rr, argv);
		is_int(rr.status, 0, "map with two profiles and --json: exit 0");
		tap_like(rr.out, "profile -shstk,-ibt", "stdout has a table per profile");
		tap_like(rr.out, "cr4.CET", "and the CET row");
		rf = result_read_file(path, err, sizeof(err));
		ok(rf && rf->kind == RESULT_KIND_MAP && rf->map && rf->map->n_profiles == 2 &&
		   rf->map->profiles[1].n_entries == 33, "the file is a valid kind 'map' result (%s)",
		   rf ? "ok" : err);
		ok(rf && rf->map && !strcmp(rf->map->profiles[1].spec, "-shstk,-ibt"),
		   "profiles carry their spec");
		ok(rf && rf->map && (rf->map->emulated ? strstr(rr.out, "EMULATES") != NULL : 1),
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
	test_profile_parse();
	test_profile_build();
	if (access("/dev/kvm", R_OK | W_OK))
		tap_skip(12, "/dev/kvm not usable");
	else
		test_map_kvm();
	test_cli();
	return done_testing();
}
