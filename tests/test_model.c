// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_model.c - one C model per result kind: a host record (info), probes
 * (run) and checks (check) built in C with distinctive values are written
 * by the real writers to a file and read back by the real reader, field by
 * field; and the producers' conversions (struct hostinfo, struct
 * probe_outcome) land in the model as they should.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/host_record.h"
#include "harness/rounds.h"
#include "probes/probe_out.h"
#include "results/result_read.h"
#include "results/result_write.h"
#include "tests/fixture.h"
#include "tests/tap.h"

static char *tmp;

/* Values below are exact in binary and in the writer's 10 significant digits. */

static struct result_kv params[] = { { "ept", "Y" }, { "nested", "N" }, { "pml", "" } };
static struct result_int caps[] = { { "KVM_CAP_XSAVE2", 4096 }, { "KVM_CAP_X86_USER_SPACE_MSR", -22 } };
static struct result_flag cpuid[] = { { "xsave", 1 }, { "pku", 0 }, { "shstk", 1 } };
static struct result_flag msrs[] = { { "ia32_xss", 1 }, { "cet", 0 } };

static void host_fill(struct host_record *h)
{
	host_record_init(h);
	h->kernel = "6.18.44-model";
	h->backend_module = "kvm_pvm";
	h->backend_params = params;
	h->n_backend_params = 3;
	h->cpu_vendor = "AuthenticAMD";
	h->cpu_family = 25;
	h->cpu_model = 17;
	h->cpu_stepping = 2;
	h->cpu_name = "AMD EPYC 9654 96-Core Processor";
	h->kvm_api_version = 12;
	h->kvm_caps = caps;
	h->n_kvm_caps = 2;
	h->cpuid = cpuid;
	h->n_cpuid = 3;
	h->xcr0_supported = 0x2e7;
	h->xss_supported = 0x1800;
	h->msr_save_list = msrs;
	h->n_msr_save_list = 2;
	h->tsc_khz = 2445123;
	h->exec_mode = EXEC_EMULATED;
	h->exec_loop_insns = 40001;
	h->exec_exits = 7;
	h->exec_insn_emulation = 40013;
	h->exec_detail = "a 40001-instruction guest loop caused 40013 instruction emulations";
}

/* Every field of the host record got back as it was written. */
static void host_is(const struct host_record *g, const struct host_record *w, const char *what)
{
	size_t i;
	int same;

	tap_is_str(g->kernel, w->kernel, "%s: kernel", what);
	tap_is_str(g->backend_module, w->backend_module, "%s: backend.module", what);
	same = g->n_backend_params == w->n_backend_params;
	for (i = 0; same && i < w->n_backend_params; i++)
		same = !strcmp(g->backend_params[i].key, w->backend_params[i].key) &&
		       !strcmp(g->backend_params[i].value, w->backend_params[i].value);
	ok(same, "%s: backend.params in order, values as written (also \"\")", what);
	tap_is_str(g->cpu_vendor, w->cpu_vendor, "%s: cpu.vendor", what);
	tap_is_str(g->cpu_name, w->cpu_name, "%s: cpu.name", what);
	ok(g->cpu_family == w->cpu_family && g->cpu_model == w->cpu_model &&
	   g->cpu_stepping == w->cpu_stepping, "%s: cpu family, model, stepping", what);
	ok(g->kvm_api_version == w->kvm_api_version, "%s: kvm.api_version", what);
	same = g->n_kvm_caps == w->n_kvm_caps && !g->kvm_caps == !w->kvm_caps;
	for (i = 0; same && i < w->n_kvm_caps; i++)
		same = !strcmp(g->kvm_caps[i].key, w->kvm_caps[i].key) &&
		       g->kvm_caps[i].value == w->kvm_caps[i].value;
	ok(same, "%s: kvm.caps (negative values too)", what);
	same = g->n_cpuid == w->n_cpuid && !g->cpuid == !w->cpuid;
	for (i = 0; same && i < w->n_cpuid; i++)
		same = !strcmp(g->cpuid[i].key, w->cpuid[i].key) && g->cpuid[i].value == w->cpuid[i].value;
	ok(same, "%s: cpuid flags", what);
	ok(g->xcr0_supported == w->xcr0_supported && g->xss_supported == w->xss_supported,
	   "%s: xcr0_supported, xss_supported", what);
	same = g->n_msr_save_list == w->n_msr_save_list && !g->msr_save_list == !w->msr_save_list;
	for (i = 0; same && i < w->n_msr_save_list; i++)
		same = !strcmp(g->msr_save_list[i].key, w->msr_save_list[i].key) &&
		       g->msr_save_list[i].value == w->msr_save_list[i].value;
	ok(same, "%s: msr_save_list", what);
	ok(g->tsc_khz == w->tsc_khz, "%s: tsc_khz", what);
	ok(g->exec_mode == w->exec_mode, "%s: execution.mode", what);
	ok(g->exec_loop_insns == w->exec_loop_insns && g->exec_exits == w->exec_exits &&
	   g->exec_insn_emulation == w->exec_insn_emulation,
	   "%s: execution loop_insns, exits, insn_emulation", what);
	if (w->exec_detail)
		tap_is_str(g->exec_detail, w->exec_detail, "%s: execution.detail", what);
	else
		ok(!g->exec_detail, "%s: no execution.detail", what);
}

/* Write root (steals it) with the real file writer, read it back with the real reader. */
static struct result_file *round_trip(json_t *root, const char *name)
{
	char path[4200];
	struct err err;
	struct result_file *rf = NULL;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	if (!root || result_write(root, path, &err)) {
		diag("writing %s: %s", path, root ? err.msg : "no document");
	} else {
		rf = result_read_file(path, &err);
		if (!rf)
			diag("reading %s: %s", path, err.msg);
	}
	json_decref(root);
	return rf;
}

static json_t *envelope(const char *kind, const struct host_record *h)
{
	char *argv[] = { (char *)kind, (char *)"--json", (char *)"model.json", NULL };
	json_t *root = result_new(kind, 3, argv);

	json_object_set_new(root, "host", host_record_json(h));
	return root;
}

static void test_info(void)
{
	struct host_record h, bare;
	struct result_file *rf;

	host_fill(&h);
	rf = round_trip(envelope("info", &h), "info.json");
	if (!ok(rf && rf->kind == RESULT_KIND_INFO, "info: written and read back as kind info")) {
		tap_skip(16, "no file");
	} else {
		host_is(&rf->host, &h, "info");
		ok(rf->n_probes == 0 && !rf->map && rf->checks.n == 0, "info: no probes, map or checks");
	}
	result_free(rf);

	/* Only the required fields: the optional ones come back absent. */
	host_record_init(&bare);
	bare.kernel = "6.1.0";
	bare.backend_module = "none";
	bare.cpu_vendor = "";
	bare.cpu_name = "";
	bare.exec_mode = EXEC_UNKNOWN;
	rf = round_trip(envelope("info", &bare), "bare-info.json");
	if (!ok(rf != NULL, "bare info: written and read back")) {
		tap_skip(16, "no file");
	} else {
		host_is(&rf->host, &bare, "bare info");
		ok(!rf->host.backend_params && rf->host.kvm_api_version == -1 &&
		   rf->host.exec_loop_insns == -1, "bare info: absent stays absent (NULL, -1)");
	}
	result_free(rf);
}

static const double samples[] = { 101.25, 99.5, 100.0, 1.0e6 + 0.5 };
static struct result_trace_reason trace[] = { { "CPUID", 1.0 }, { "IO_INSTRUCTION", 0.25 } };
static const char *notes[] = { "high CV 0.12: noisy", "vCPU thread migrated from CPU 1 to 3" };

static const double r0_samples[] = { 12.5, -0.75, 13.25 };
static const double r1_samples[] = { 11.0 };
static const struct run_round rounds[] = {
	{ .batch = 1234, .samples = r0_samples, .n_samples = 3, .median = 12.5,
	  .baseline_median = 40.25, .raw_median = 52.75 },
	{ .batch = 617, .samples = r1_samples, .n_samples = 1, .median = -0.5,
	  .baseline_median = 0, .raw_median = 41.5 },
};

static void probe_fill(struct run_probe *p)
{
	run_probe_init(p);
	p->name = "pio_to_user";
	p->group = "io";
	p->description = "OUT to a port no one handles in the kernel";
	p->status = PROBE_OK;
	p->batch = 1234;
	p->samples = samples;
	p->n_samples = 4;
	p->cycles = (struct result_cycles){ .min = 99.5, .median = 100.625, .p90 = 700000.25,
		.p99 = 970000.125, .mean = 250075.1875, .stddev = 433000.5, .cv = 1.75,
		.ci95_lo = 99.5, .ci95_hi = 1.0e6 + 0.5 };
	p->ns_median = 41.125;
	p->overhead_cycles = 12.5;
	p->raw_median_cycles = 113.125;
	p->ops = 4936;
	for (int i = 0; i < RESULT_PER_OP_N; i++)
		p->per_op[i] = 0.125 * (i + 1);	/* all distinct, user_* included */
	p->per_op_source = "vcpu binary stats fd delta over the measured region";
	p->per_op_user_source = "exitscope run loop";
	p->trace = (struct result_trace){ .present = true, .n = 2, .reason = trace };
	p->cpu = 3;
	p->rounds = rounds;
	p->n_rounds = 2;
	p->stop = PROBE_STOP_BUDGET;
	p->ci_rel_pct = 0.875;
	p->cpus[0] = 3;
	p->cpus[1] = 0;
	p->notes = notes;
	p->n_notes = 2;
	p->peer_wait_ms = 12.625;
	p->delivery = (struct run_delivery){ .present = 1, .ops = 66, .in_window = 2, .late = 60,
					     .never = 4, .late_limit_ms = 50, .late_wait_cycles = 7.5e6 };
}

static bool delivery_same(const struct run_delivery *a, const struct run_delivery *b)
{
	return a->present == b->present && a->ops == b->ops && a->in_window == b->in_window &&
	       a->late == b->late && a->never == b->never && a->late_limit_ms == b->late_limit_ms &&
	       a->late_wait_cycles == b->late_wait_cycles && a->late_in_cost == b->late_in_cost;
}

static void probe_is(const struct run_probe *g, const struct run_probe *w)
{
	int same = g->n_samples == w->n_samples;

	tap_is_str(g->name, w->name, "run: name");
	tap_is_str(g->group, w->group, "run: group");
	tap_is_str(g->description, w->description, "run: description");
	is_int(g->status, w->status, "run: status");
	ok(!g->reason, "run: no reason for an ok probe");
	is_int(g->batch, w->batch, "run: batch");
	for (size_t i = 0; same && i < w->n_samples; i++)
		same = g->samples[i] == w->samples[i];
	ok(same, "run: samples, exactly");
	ok(!memcmp(&g->cycles, &w->cycles, sizeof(g->cycles)), "run: cycles summary, exactly");
	ok(g->ns_median == w->ns_median && g->overhead_cycles == w->overhead_cycles &&
	   g->raw_median_cycles == w->raw_median_cycles, "run: ns_median, overhead, raw median");
	is_int(g->ops, w->ops, "run: ops");
	for (int i = 0; i < RESULT_PER_OP_N; i++) {
		char name[64];

		snprintf(name, sizeof(name), "run: per_op.%s", result_per_op_names[i]);
		is_num(g->per_op[i], w->per_op[i], 0, name);
	}
	tap_is_str(g->per_op_source, w->per_op_source, "run: per_op.source");
	tap_is_str(g->per_op_user_source, w->per_op_user_source, "run: per_op.user_source");
	same = g->trace.present == w->trace.present && g->trace.n == w->trace.n;
	for (size_t i = 0; same && i < w->trace.n; i++)
		same = !strcmp(g->trace.reason[i].name, w->trace.reason[i].name) &&
		       g->trace.reason[i].per_op == w->trace.reason[i].per_op;
	ok(same, "run: trace, in order");
	is_int(g->cpu, w->cpu, "run: cpu");
	same = g->n_rounds == w->n_rounds;
	for (size_t i = 0; same && i < w->n_rounds; i++) {
		const struct run_round *a = &g->rounds[i], *b = &w->rounds[i];

		same = a->batch == b->batch && a->n_samples == b->n_samples && a->median == b->median &&
		       a->baseline_median == b->baseline_median && a->raw_median == b->raw_median;
		for (size_t j = 0; same && j < b->n_samples; j++)
			same = a->samples[j] == b->samples[j];
	}
	ok(same, "run: rounds (batch, unclamped samples, medians, negative too), exactly");
	ok(g->stop == w->stop, "run: stop %s", probe_stop_name(g->stop));
	is_num(g->ci_rel_pct, w->ci_rel_pct, 0, "run: ci_rel_pct");
	ok(g->cpus[0] == w->cpus[0] && g->cpus[1] == w->cpus[1], "run: cpus [%lld, %lld]",
	   g->cpus[0], g->cpus[1]);
	same = g->n_notes == w->n_notes;
	for (size_t i = 0; same && i < w->n_notes; i++)
		same = !strcmp(g->notes[i], w->notes[i]);
	ok(same, "run: notes");
	is_num(g->peer_wait_ms, w->peer_wait_ms, 0, "run: peer_wait_ms");
	ok(delivery_same(&g->delivery, &w->delivery),
	   "run: delivery (ops, in window, late, never, late limit, mean late wait), exactly");
}

static void test_run(void)
{
	struct run_probe p[4];
	struct host_record h;
	struct result_file *rf;
	json_t *root;

	host_fill(&h);
	probe_fill(&p[0]);
	/* Stopped by Ctrl-C: only the reason. */
	run_probe_init(&p[1]);
	p[1].name = "cpuid";
	p[1].group = "insn";
	p[1].status = PROBE_STOPPED;
	p[1].reason = "stopped by Ctrl-C before it was measured";
	/* A failed interrupt probe keeps its delivery counts. */
	run_probe_init(&p[3]);
	p[3].name = "self_ipi";
	p[3].group = "irq";
	p[3].status = PROBE_FAILED;
	p[3].reason = "the interrupt of self_ipi never arrived";
	p[3].delivery = (struct run_delivery){ .present = 1, .ops = 33, .never = 33, .late_limit_ms = 50,
					       .late_wait_cycles = -1 };
	/* Written before the run-loop counters were read: none of them. */
	probe_fill(&p[2]);
	p[2].name = "old_probe";
	for (int i = RESULT_OP_FIRST_USER; i < RESULT_PER_OP_N; i++)
		p[2].per_op[i] = -1;
	p[2].trace = (struct result_trace){ 0 };
	p[2].cpu = -1;
	p[2].rounds = NULL;
	p[2].n_rounds = 0;
	p[2].stop = PROBE_STOP_NONE;
	p[2].ci_rel_pct = -1;
	p[2].cpus[0] = p[2].cpus[1] = -1;
	p[2].peer_wait_ms = -1;
	p[2].delivery = (struct run_delivery){ .late_wait_cycles = -1 };
	root = envelope("run", &h);
	json_object_set_new(root, "probes", run_probes_json(p, 4));
	rf = round_trip(root, "run.json");
	if (!ok(rf && rf->kind == RESULT_KIND_RUN && rf->n_probes == 4, "run: four probes read back")) {
		tap_skip(50, "no file");
		result_free(rf);
		return;
	}
	host_is(&rf->host, &h, "run host");
	probe_is(&rf->probes[0], &p[0]);
	ok(rf->probes[1].status == PROBE_STOPPED && !strcmp(rf->probes[1].reason, p[1].reason) &&
	   rf->probes[1].n_samples == 0, "run: status stopped with its reason");
	ok(rf->probes[2].per_op[RESULT_OP_USER_IO] == -1 && rf->probes[2].per_op[RESULT_OP_USER_INTR] == -1 &&
	   rf->probes[2].per_op[RESULT_OP_IRQ_EXITS] == p[2].per_op[RESULT_OP_IRQ_EXITS],
	   "run: absent user_* come back absent (-1), stats counters as written");
	ok(!rf->probes[2].trace.present && rf->probes[2].cpu == -1, "run: absent trace and cpu stay absent");
	ok(!rf->probes[2].rounds && rf->probes[2].n_rounds == 0 && rf->probes[2].stop == PROBE_STOP_NONE &&
	   rf->probes[2].ci_rel_pct == -1 && rf->probes[2].cpus[0] == -1 && rf->probes[2].cpus[1] == -1,
	   "run: a v1 probe: no rounds, stop, ci_rel_pct or cpus");
	ok(!rf->probes[2].delivery.present && rf->probes[2].peer_wait_ms == -1,
	   "run: absent delivery and peer_wait_ms stay absent");
	ok(rf->probes[3].status == PROBE_FAILED && delivery_same(&rf->probes[3].delivery, &p[3].delivery),
	   "run: a failed probe's delivery (all never) comes back");
	result_free(rf);
}

/* Write one probe, spoil one member with edit(), expect the reader to refuse, naming where. */
static void reject_one(const char *what, void (*edit)(json_t *probe), const char *where)
{
	struct host_record h;
	struct run_probe p;
	struct result_file *rf;
	char path[4200];
	struct err err;
	json_t *root, *arr;

	host_fill(&h);
	probe_fill(&p);
	root = envelope("run", &h);
	arr = run_probes_json(&p, 1);
	edit(json_array_get(arr, 0));
	json_object_set_new(root, "probes", arr);
	snprintf(path, sizeof(path), "%s/bad-%s.json", tmp, where);
	if (result_write(root, path, &err)) {
		diag("cannot write %s: %s", path, err.msg);
		tap_skip(2, "cannot write the file");
	} else {
		rf = result_read_file(path, &err);
		ok(!rf, "reader rejects %s", what);
		tap_like(err.msg, where, "the message names %s (%s)", where, err.msg);
		result_free(rf);
	}
	json_decref(root);
}

static void bad_stop(json_t *o)
{
	json_object_set_new(o, "stop", json_string("tired"));
}

static void empty_stop(json_t *o)
{
	json_object_set_new(o, "stop", json_string(""));
}

static void zero_batch(json_t *o)
{
	json_object_set_new(json_array_get(json_object_get(o, "rounds"), 1), "batch", json_integer(0));
}

static void no_round_samples(json_t *o)
{
	json_object_set_new(json_array_get(json_object_get(o, "rounds"), 0), "samples", json_array());
}

static void one_cpu(json_t *o)
{
	json_array_remove(json_object_get(o, "cpus"), 1);
}

static void negative_raw(json_t *o)
{
	json_object_set_new(json_array_get(json_object_get(o, "rounds"), 0), "raw_median",
			    json_real(-1));
}

static void delivery_sum(json_t *o)
{
	json_object_set_new(json_object_get(o, "delivery"), "never", json_integer(5));
}

static void delivery_no_limit(json_t *o)
{
	json_object_del(json_object_get(o, "delivery"), "late_limit_ms");
}

static void delivery_negative(json_t *o)
{
	json_object_set_new(json_object_get(o, "delivery"), "late", json_integer(-1));
}

static void peer_negative(json_t *o)
{
	json_object_set_new(o, "peer_wait_ms", json_real(-2));
}

static void test_run_reject(void)
{
	reject_one("delivery counts that do not add up to ops", delivery_sum, "probes[0].delivery");
	reject_one("delivery without late_limit_ms", delivery_no_limit, "probes[0].delivery");
	reject_one("a negative late count", delivery_negative, "probes[0].delivery.late");
	reject_one("a negative peer_wait_ms", peer_negative, "probes[0].peer_wait_ms");
	reject_one("an unknown stop", bad_stop, "probes[0].stop");
	reject_one("an empty stop", empty_stop, "probes[0].stop");
	reject_one("a round with batch 0", zero_batch, "probes[0].rounds[1].batch");
	reject_one("a round without samples", no_round_samples, "probes[0].rounds[0].samples");
	reject_one("cpus with one CPU", one_cpu, "probes[0].cpus");
	reject_one("a negative raw_median", negative_raw, "probes[0].rounds[0].raw_median");
}

static void test_check(void)
{
	struct check_report rep = { 0 };
	struct host_record h;
	struct result_file *rf;
	json_t *root;

	host_fill(&h);
	check_add_ev(&rep, "xstate", "xcr0_after_pio", CHECK_PASS, "0x7", "0x7", "xcr0 %#x == %#x", 7, 7);
	check_add_ev(&rep, "xstate", "xss_after_msr", CHECK_FAIL, "0x0", "0x100",
		     "xss %#x after the exit, want %#x", 0x100, 0);
	check_add_ev(&rep, "cet", "ssp_survives", CHECK_SKIP, NULL, "0", "no shstk");
	check_add(&rep, "migrate", "pkru_roundtrip", CHECK_STOPPED, "stopped by Ctrl-C");
	root = envelope("check", &h);
	json_object_set_new(root, "checks", check_report_json(&rep));
	rf = round_trip(root, "check.json");
	if (!ok(rf && rf->kind == RESULT_KIND_CHECK && rf->checks.n == rep.n,
		"check: four checks read back")) {
		tap_skip(6, "no file");
	} else {
		for (size_t i = 0; i < rep.n; i++) {
			const struct check_result *g = &rf->checks.r[i], *w = &rep.r[i];

			ok(!strcmp(g->suite, w->suite) && !strcmp(g->name, w->name) &&
			   g->status == w->status && !strcmp(g->detail, w->detail) &&
			   !strcmp(g->expected, w->expected) && !strcmp(g->observed, w->observed),
			   "check %s.%s: suite, name, status %s, detail, expected '%s', observed '%s'",
			   w->suite, w->name, check_status_name(w->status), w->expected, w->observed);
		}
		tap_is_str(rf->checks.r[1].observed, "0x100", "check: observed evidence read back");
		ok(!rf->checks.r[2].expected[0] && !strcmp(rf->checks.r[2].observed, "0"),
		   "check: only observed: expected stays empty");
	}
	result_free(rf);
	check_report_free(&rep);
}

/* host/: struct hostinfo -> model, e.g. the execution-mode loop's figures. */
static void test_hostinfo_record(void)
{
	struct hostinfo *hi = calloc(1, sizeof(*hi));
	struct hostinfo_record *r = calloc(1, sizeof(*r));

	if (!hi || !r) {
		tap_skip(7, "out of memory");
		free(hi);
		free(r);
		return;
	}
	snprintf(hi->kernel, sizeof(hi->kernel), "6.18.44");
	snprintf(hi->backend, sizeof(hi->backend), "kvm_pvm");
	hi->nr_params = 1;
	snprintf(hi->params[0].name, sizeof(hi->params[0].name), "nested");
	snprintf(hi->params[0].value, sizeof(hi->params[0].value), "N");
	hi->api_version = -25;	/* KVM_GET_API_VERSION failed: left out */
	hi->feat_shstk = true;
	hi->msr_cet = true;
	hi->xcr0_supported = 7;
	hi->exec_mode = EXEC_EMULATED;
	hi->exec_loop_insns = 40001;
	hi->exec_insn_emulation = 40011;
	hostinfo_record(hi, r);
	tap_is_str(r->rec.backend_params[0].value, "N", "hostinfo_record: module parameter");
	is_int(r->rec.kvm_api_version, -1, "hostinfo_record: unknown API version is absent");
	ok(r->rec.n_cpuid == HOSTINFO_RECORD_CPUID && !strcmp(r->rec.cpuid[5].key, "shstk") &&
	   r->rec.cpuid[5].value, "hostinfo_record: the CPUID features, shstk supported");
	ok(!strcmp(r->rec.msr_save_list[1].key, "cet") && r->rec.msr_save_list[1].value,
	   "hostinfo_record: CET MSRs in the save list");
	is_int(r->rec.exec_loop_insns, 40001, "hostinfo_record: execution.loop_insns");
	is_int(r->rec.exec_insn_emulation, 40011, "hostinfo_record: execution.insn_emulation");
	is_int(r->rec.xcr0_supported, 7, "hostinfo_record: xcr0_supported");
	free(hi);
	free(r);
}

/* The optional "lane" object: written, read back, absent when not set, validated. */
static void test_lane(void)
{
	static const char *lane_patches[] = { "seed004-a-fastpath-invd/0001-invd.patch",
					      "seed004-b-xcr0-outside-loop/0001-xcr0.patch" };
	static const char *emu_patches[] = { "0001-pax-dirty-bit.patch", "0002-xrstors-offsets.patch" };
	struct host_record h;
	struct result_file *rf;
	char path[4200];
	struct err err;
	json_t *root;

	host_fill(&h);
	h.lane.present = 1;
	h.lane.name = HOST_LANE_SVM;
	h.lane.emulator = "qemu 7.2 tcg -cpu EPYC,+pku -icount shift=0";
	h.lane.kernel_kind = HOST_LANE_KERNEL_TINY;
	h.lane.kernel_config_sha256 = "0123abcd";
	h.lane.kernel_patches = lane_patches;
	h.lane.n_kernel_patches = 2;
	h.lane.kernel_source = "linux-source-7.2 7.2.12-1~bpo13+1";
	h.lane.kernel_source_sha256 = "dd8cf7080e709d05";
	h.lane.emulator_patches = emu_patches;
	h.lane.n_emulator_patches = 2;
	h.lane.cycles = "emulated time";
	rf = round_trip(envelope("info", &h), "lane-info.json");
	if (!ok(rf && rf->host.lane.present, "lane: written and read back")) {
		tap_skip(8, "no lane");
	} else {
		const struct host_lane *l = &rf->host.lane;

		ok(l->name == HOST_LANE_SVM && l->kernel_kind == HOST_LANE_KERNEL_TINY,
		   "lane: name svm, kernel kind tiny");
		tap_is_str(l->emulator, h.lane.emulator, "lane: emulator");
		tap_is_str(l->kernel_config_sha256, "0123abcd", "lane: kernel.config_sha256");
		ok(l->n_kernel_patches == 2 && !strcmp(l->kernel_patches[0], lane_patches[0]) &&
		   !strcmp(l->kernel_patches[1], lane_patches[1]), "lane: kernel.patches in order");
		tap_is_str(l->kernel_source, "linux-source-7.2 7.2.12-1~bpo13+1", "lane: kernel.source");
		tap_is_str(l->kernel_source_sha256, "dd8cf7080e709d05", "lane: kernel.source_sha256");
		ok(l->n_emulator_patches == 2 && !strcmp(l->emulator_patches[0], emu_patches[0]) &&
		   !strcmp(l->emulator_patches[1], emu_patches[1]), "lane: emulator_patches in order");
		tap_is_str(l->cycles, "emulated time", "lane: cycles");
	}
	result_free(rf);

	/* Only the required parts: no config hash, source, patches or cycles (older files). */
	h.lane.name = HOST_LANE_VMX;
	h.lane.kernel_kind = HOST_LANE_KERNEL_STOCK;
	h.lane.kernel_config_sha256 = NULL;
	h.lane.kernel_patches = NULL;
	h.lane.n_kernel_patches = 0;
	h.lane.kernel_source = h.lane.kernel_source_sha256 = NULL;
	h.lane.emulator_patches = NULL;
	h.lane.n_emulator_patches = 0;
	h.lane.cycles = NULL;
	rf = round_trip(envelope("info", &h), "lane-bare.json");
	ok(rf && rf->host.lane.present && rf->host.lane.name == HOST_LANE_VMX &&
	   rf->host.lane.kernel_kind == HOST_LANE_KERNEL_STOCK && !rf->host.lane.kernel_config_sha256 &&
	   rf->host.lane.n_kernel_patches == 0 && !rf->host.lane.cycles &&
	   !rf->host.lane.kernel_source && !rf->host.lane.kernel_source_sha256 &&
	   !rf->host.lane.emulator_patches && rf->host.lane.n_emulator_patches == 0,
	   "lane: optional parts stay absent");
	result_free(rf);

	/* A record without it (all recorded results): no lane. */
	host_fill(&h);
	rf = round_trip(envelope("info", &h), "nolane.json");
	ok(rf && !rf->host.lane.present, "lane: absent without the object");
	result_free(rf);

	/* An unknown kernel kind is rejected, naming the path. */
	h.lane.present = 1;
	h.lane.emulator = "bochs";
	root = envelope("info", &h);
	json_object_set_new(json_object_get(json_object_get(json_object_get(root, "host"), "lane"),
					    "kernel"), "kind", json_string("vmlinuz"));
	snprintf(path, sizeof(path), "%s/badlane.json", tmp);
	if (result_write(root, path, &err)) {
		diag("cannot write %s: %s", path, err.msg);
		tap_skip(2, "cannot write the file");
	} else {
		rf = result_read_file(path, &err);
		ok(!rf, "lane: kernel.kind 'vmlinuz' rejected");
		tap_like(err.msg, "host.lane.kernel.kind", "lane: the message names host.lane.kernel.kind");
		result_free(rf);
	}
	json_decref(root);
}

/* host/: the lane variables lanes/init exports -> struct hostinfo_lane -> model. */
static void test_lane_env(void)
{
	struct hostinfo *hi = calloc(1, sizeof(*hi));
	struct hostinfo_record *r = calloc(1, sizeof(*r));
	struct err err;

	if (!hi || !r) {
		tap_skip(14, "out of memory");
		free(hi);
		free(r);
		return;
	}
	unsetenv("EXITSCOPE_LANE");
	ok(hostinfo_lane_env(&hi->lane, &err) == 0 && !hi->lane.present,
	   "lane env: no EXITSCOPE_LANE, no lane");
	setenv("EXITSCOPE_LANE", "vmx", 1);
	setenv("EXITSCOPE_LANE_EMULATOR", "bochs 2.7 corei7_skylake_x", 1);
	setenv("EXITSCOPE_LANE_KERNEL", "tiny", 1);
	setenv("EXITSCOPE_LANE_KERNEL_CONFIG_SHA256", "feedbeef", 1);
	setenv("EXITSCOPE_LANE_KERNEL_PATCHES", "s-a/0001-x.patch:s-b/0002-y.patch", 1);
	setenv("EXITSCOPE_LANE_KERNEL_SOURCE", "linux-source-7.2 7.2.12-1~bpo13+1", 1);
	setenv("EXITSCOPE_LANE_KERNEL_SOURCE_SHA256", "dd8cf708", 1);
	setenv("EXITSCOPE_LANE_EMULATOR_PATCHES", "0001-a.patch:0002-b.patch:0003-c.patch", 1);
	setenv("EXITSCOPE_LANE_CYCLES", "Bochs instructions", 1);
	ok(hostinfo_lane_env(&hi->lane, &err) == 0 && hi->lane.present,
	   "lane env: read (%s)", err.msg);
	hostinfo_record(hi, r);
	ok(r->rec.lane.present && r->rec.lane.name == HOST_LANE_VMX &&
	   r->rec.lane.kernel_kind == HOST_LANE_KERNEL_TINY, "lane env: vmx, tiny");
	tap_is_str(r->rec.lane.emulator, "bochs 2.7 corei7_skylake_x", "lane env: emulator");
	ok(r->rec.lane.n_kernel_patches == 2 &&
	   !strcmp(r->rec.lane.kernel_patches[1], "s-b/0002-y.patch"), "lane env: patches split on ':'");
	tap_is_str(r->rec.lane.kernel_source, "linux-source-7.2 7.2.12-1~bpo13+1", "lane env: kernel source");
	tap_is_str(r->rec.lane.kernel_source_sha256, "dd8cf708", "lane env: kernel source sha256");
	ok(r->rec.lane.n_emulator_patches == 3 &&
	   !strcmp(r->rec.lane.emulator_patches[2], "0003-c.patch"), "lane env: emulator patches split on ':'");
	tap_is_str(r->rec.lane.cycles, "Bochs instructions", "lane env: cycles");
	setenv("EXITSCOPE_LANE_KERNEL_PATCHES", "", 1);
	unsetenv("EXITSCOPE_LANE_KERNEL_CONFIG_SHA256");
	unsetenv("EXITSCOPE_LANE_KERNEL_SOURCE");
	setenv("EXITSCOPE_LANE_KERNEL_SOURCE_SHA256", "", 1);
	unsetenv("EXITSCOPE_LANE_EMULATOR_PATCHES");
	hostinfo_lane_env(&hi->lane, &err);
	hostinfo_record(hi, r);
	ok(r->rec.lane.n_kernel_patches == 0 && !r->rec.lane.kernel_config_sha256 &&
	   !r->rec.lane.kernel_source && !r->rec.lane.kernel_source_sha256 &&
	   !r->rec.lane.emulator_patches && r->rec.lane.n_emulator_patches == 0,
	   "lane env: no patches, no config hash, no source, no emulator patches");
	{
		char many[20 * 8 + 1] = "";

		for (int i = 0; i < 20; i++)
			strcat(many, i ? ":p.patch" : "p.patch");
		setenv("EXITSCOPE_LANE_EMULATOR_PATCHES", many, 1);
		ok(hostinfo_lane_env(&hi->lane, &err) == -EINVAL,
		   "lane env: 20 emulator patches are too many");
		tap_like(err.msg, "EXITSCOPE_LANE_EMULATOR_PATCHES", "lane env: the message names the variable");
		unsetenv("EXITSCOPE_LANE_EMULATOR_PATCHES");
	}
	setenv("EXITSCOPE_LANE_KERNEL", "bzImage", 1);
	ok(hostinfo_lane_env(&hi->lane, &err) == -EINVAL && !hi->lane.present,
	   "lane env: a bad kernel kind is an error");
	tap_like(err.msg, "EXITSCOPE_LANE_KERNEL", "lane env: the message names the variable");
	unsetenv("EXITSCOPE_LANE");
	unsetenv("EXITSCOPE_LANE_EMULATOR");
	unsetenv("EXITSCOPE_LANE_KERNEL");
	unsetenv("EXITSCOPE_LANE_KERNEL_PATCHES");
	unsetenv("EXITSCOPE_LANE_KERNEL_SOURCE_SHA256");
	unsetenv("EXITSCOPE_LANE_CYCLES");
	free(hi);
	free(r);
}

/* probes/: struct probe_outcome -> model, the run loop's counters included. */
static void test_probe_record(void)
{
	static const struct probe pr = { .name = "pio_to_user", .group = "io", .description = "d" };
	struct probe_outcome *o = calloc(1, sizeof(*o));
	struct probe_record *r = calloc(1, sizeof(*r));

	if (!o || !r) {
		tap_skip(7, "out of memory");
		free(o);
		free(r);
		return;
	}
	o->probe = &pr;
	o->res.status = PROBE_OK;
	o->res.batch = 10;
	o->res.n = 2;
	o->res.samples[0] = 5;
	o->res.samples[1] = 6;
	o->res.ops = 20;
	o->res.has_stats = true;
	o->res.per_op.exits = 1;
	o->res.per_op.user_io = 1;
	o->res.per_op.user_msr = 0.5;
	o->res.per_op.user_intr = 0.25;
	o->res.cpu_before = o->res.cpu_after = -1;
	probe_outcome_record(o, r);
	ok(r->rec.per_op[RESULT_OP_USER_IO] == 1 && r->rec.per_op[RESULT_OP_USER_MMIO] == 0 &&
	   r->rec.per_op[RESULT_OP_USER_MSR] == 0.5 && r->rec.per_op[RESULT_OP_USER_INTR] == 0.25,
	   "probe_outcome_record: user_io, user_mmio, user_msr, user_intr");
	ok(r->rec.per_op[RESULT_OP_EXITS] == 1, "probe_outcome_record: stats exits");
	ok(r->rec.samples == o->res.samples && r->rec.n_samples == 2 && r->rec.ops == 20,
	   "probe_outcome_record: samples and ops");
	ok(r->rec.cpu == -1 && !r->rec.trace.present, "probe_outcome_record: no cpu, no trace");
	ok(!r->rec.rounds && r->rec.n_rounds == 0, "probe_outcome_record: v1, no rounds");
	/* Method v2: the rounds, stop, CI and the two vCPUs' CPUs. */
	{
		static const uint64_t tb[] = { 100, 120, 110 }, t[] = { 300, 330, 290 };

		latency_round_from_tsc(&o->res.rounds[0], 10, tb, t, 3);
		latency_round_from_tsc(&o->res.rounds[1], 10, t, tb, 3);
		o->res.n_rounds = 2;
		o->res.stop = PROBE_STOP_PRECISION;
		o->res.ci_rel_pct = 0.5;
		o->res.cpus[0] = 0;
		o->res.cpus[1] = 1;
		probe_outcome_record(o, r);
		ok(r->rec.n_rounds == 2 && r->rec.rounds[0].batch == 10 && r->rec.rounds[0].n_samples == 3 &&
		   r->rec.rounds[0].samples[1] == 21 && r->rec.rounds[0].median == 20 &&
		   r->rec.rounds[0].baseline_median == 11 && r->rec.rounds[0].raw_median == 30 &&
		   r->rec.rounds[1].median == -20, "probe_outcome_record: rounds as measured, negative too");
		ok(r->rec.stop == PROBE_STOP_PRECISION && r->rec.ci_rel_pct == 0.5 && r->rec.cpus[0] == 0 &&
		   r->rec.cpus[1] == 1, "probe_outcome_record: stop, ci_rel_pct, cpus");
		o->res.n_rounds = 0;
	}
	/* An interrupt probe's delivery, and the wait for vCPU 1 only when there was one. */
	ok(!r->rec.delivery.present && r->rec.peer_wait_ms == -1,
	   "probe_outcome_record: no interrupts counted, no peer: neither recorded");
	o->res.irq = (struct latency_irq){ .ops = 40, .in_window = 30, .late = 8, .late_cycles = 8000 };
	o->res.has_peer_wait = true;
	o->res.peer_wait_ms = 3.5;
	probe_outcome_record(o, r);
	ok(r->rec.delivery.present && r->rec.delivery.ops == 40 && r->rec.delivery.in_window == 30 &&
	   r->rec.delivery.late == 8 && r->rec.delivery.never == 2 && r->rec.delivery.late_wait_cycles == 1000 &&
	   r->rec.delivery.late_limit_ms == PROBE_IRQ_LATE_MS && !r->rec.delivery.late_in_cost &&
	   r->rec.peer_wait_ms == 3.5,
	   "probe_outcome_record: delivery (never = ops - in window - late, mean late wait, not in the cost) and peer wait");
	ok(r->rec.n_notes && !strcmp(r->rec.notes[0],
				     "irq: 30 in window, 8 late (mean wait 1e+03 cycles, not in the cost), 2 never"),
	   "probe_outcome_record: the first note gives the delivery counts");
	o->res.status = PROBE_FAILED;
	snprintf(o->res.reason, sizeof(o->res.reason), "never arrived");
	probe_outcome_record(o, r);
	ok(r->rec.delivery.present && r->rec.delivery.never == 2 && r->rec.peer_wait_ms == 3.5,
	   "probe_outcome_record: a failed probe keeps them");
	o->res.irq = (struct latency_irq){ 0 };
	o->res.has_peer_wait = false;
	o->res.status = PROBE_STOPPED;
	probe_outcome_record(o, r);
	ok(r->rec.status == PROBE_STOPPED && r->rec.reason &&
	   strstr(r->rec.reason, "Ctrl-C"), "probe_outcome_record: stopped, with the reason");
	o->res.status = PROBE_SKIPPED;
	snprintf(o->res.reason, sizeof(o->res.reason), "no PIO port");
	probe_outcome_record(o, r);
	tap_is_str(r->rec.reason, "no PIO port", "probe_outcome_record: skip reason");
	ok(r->rec.n_samples == 0, "probe_outcome_record: nothing measured when not ok");
	free(o);
	free(r);
}

/* The run's settings: written, read back field by field; absent ones stay absent. */
static void test_settings(void)
{
	struct run_settings w, bare;
	struct host_record h;
	struct result_file *rf;
	json_t *root;

	host_fill(&h);
	run_settings_init(&w);
	w.samples = 7;
	w.time_budget_s = 0.25;
	w.cpu = 1;
	w.overhead_cycles = 12.5;
	w.trace = 1;
	w.guest_xcr0 = 0x207;
	w.method = RUN_METHOD_V2;
	w.rounds = 5;
	w.precision_pct = 1.5;
	w.precision_floor_cycles = 2.0;
	w.run_limit_s = 30;
	w.cpus[0] = 2;
	w.cpus[1] = 0;
	w.n_cpus = 2;
	root = envelope("run", &h);
	json_object_set_new(root, "probes", json_array());
	json_object_set_new(root, "settings", run_settings_json(&w));
	rf = round_trip(root, "settings.json");
	ok(rf && rf->settings.present && rf->settings.samples == 7 && rf->settings.time_budget_s == 0.25 &&
	   rf->settings.cpu == 1 && rf->settings.overhead_cycles == 12.5 && rf->settings.trace == 1 &&
	   rf->settings.guest_xcr0 == 0x207, "settings: every member read back as written");
	ok(rf && rf->settings.method == RUN_METHOD_V2 && rf->settings.rounds == 5 &&
	   rf->settings.precision_pct == 1.5 && rf->settings.precision_floor_cycles == 2.0 &&
	   rf->settings.run_limit_s == 30 && rf->settings.n_cpus == 2 && rf->settings.cpus[0] == 2 &&
	   rf->settings.cpus[1] == 0, "settings: method v2, rounds, precision, floor, run limit, cpus");
	result_free(rf);
	run_settings_init(&bare);
	bare.samples = 3;
	root = envelope("run", &h);
	json_object_set_new(root, "probes", json_array());
	json_object_set_new(root, "settings", run_settings_json(&bare));
	rf = round_trip(root, "settings-bare.json");
	ok(rf && rf->settings.present && rf->settings.samples == 3 && rf->settings.guest_xcr0 == -1 &&
	   rf->settings.trace == -1 && rf->settings.time_budget_s == -1 && rf->settings.method == -1 &&
	   rf->settings.rounds == -1 && rf->settings.precision_pct == -1 && rf->settings.n_cpus == 0 &&
	   rf->settings.run_limit_s == -1 && rf->settings.precision_floor_cycles == -1,
	   "settings: members not written come back absent (-1)");
	result_free(rf);
	root = envelope("run", &h);
	json_object_set_new(root, "probes", json_array());
	rf = round_trip(root, "no-settings.json");
	ok(rf && !rf->settings.present, "settings: a file without them says so");
	result_free(rf);
}

int main(void)
{
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temp dir");
	test_info();
	test_run();
	test_run_reject();
	test_settings();
	test_check();
	test_hostinfo_record();
	test_lane();
	test_lane_env();
	test_probe_record();
	fixture_rmdir(tmp);
	return done_testing();
}
