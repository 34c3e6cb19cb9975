// SPDX-License-Identifier: GPL-2.0-only
// instrument.cc - exitscope's Bochs instrumentation module: exact counts of
// what runs between exitscope's batch marks (profile_mark.h, a copy of
// exitscope's harness/profile_mark.h), for an exit-path profile.
//
// Between an L2 BEGIN mark and its END mark, every instruction is counted
// once per Bochs instruction tick (icount, so a REP string instruction
// counts each iteration, as the lane's TSC does) into the selected probe's
// op or baseline side: L2 guest (VMX non-root or SVM guest mode), L1 kernel
// (CPL 0, by address), L1 user space (CPL 3); L1 kernel near calls by
// target; VM exits by reason; and the L1 kernel addresses from which the
// guest was entered (VMRESUME/VMLAUNCH/VMRUN: the symbol table's check).
// Nothing is counted outside the marks; without EXITSCOPE_PROFILE_OUT in
// Bochs' environment the module counts nothing at all.
// Batches come in pairs (one op, one baseline batch, over the same
// operations). A pair during which the L1 kernel took a hardware interrupt
// (a timer tick landing in a batch, say) is counted apart, in the sides
// "op_irq" and "base_irq", so that the pairs without one give the same
// counts on every run.
// On DUMP it appends every probe's counts to that file (text, read by
// exitscope's profile/ code) and clears them.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <map>
#include <string>
#include <unordered_map>

#include "bochs.h"
#include "cpu/cpu.h"
#include "cpu/decoder/ia_opcodes.h"
#include "profile_mark.h"

#if BX_INSTRUMENTATION

namespace {

enum where { W_GUEST, W_KERNEL, W_USER };

// Where a census kind's operand comes from, read before the instruction
// runs (so the registers are its inputs).
enum opd {
	OPD_NONE,	// no operand: its cost does not depend on one
	OPD_ECX,	// ECX: the MSR (RDMSR, WRMSR) or XCR (XSETBV) index
	OPD_IMM,	// the 32-bit immediate: the MSR index of the immediate forms
	OPD_SRC_REG32,	// the low 32 bits of the register i->src() names (VMREAD's field)
	OPD_DST_REG32,	// the low 32 bits of the register i->dst() names (VMWRITE's field)
	OPD_SRC_NUM,	// the number of register i->src(): MOV from CRn / DRn
	OPD_DST_NUM,	// the number of register i->dst(): MOV to CRn / DRn
};

// The census's one table: a Bochs opcode (cpu/decoder/ia_opcodes.def) and
// the kind it counts as (a lower-case mnemonic, at most 15 characters,
// [a-z0-9_]: exitscope's reader takes any such name) with its operand.
// Every form of a kind (32/64-bit, register/memory) has the same name, and
// a kind's rows agree on whether it has an operand. Bochs has one opcode
// for XSAVE and XSAVE64 (REX.W), and so on.
struct census_row {
	Bit16u opcode;
	const char *name;
	enum opd opd;
};

const census_row census_table[] = {
	{ BX_IA_WRMSR, "wrmsr", OPD_ECX },
	{ BX_IA_WRMSRNS, "wrmsrns", OPD_ECX },
	{ BX_IA_RDMSR, "rdmsr", OPD_ECX },
#if BX_SUPPORT_AVX	// where ia_opcodes.def defines the immediate forms
	{ BX_IA_RDMSR_EqId, "rdmsr", OPD_IMM },
	{ BX_IA_WRMSRNS_IdEq, "wrmsrns", OPD_IMM },
#endif
	{ BX_IA_VMREAD_EdGd, "vmread", OPD_SRC_REG32 },
	{ BX_IA_VMWRITE_GdEd, "vmwrite", OPD_DST_REG32 },
#if BX_SUPPORT_X86_64
	{ BX_IA_VMREAD_EqGq, "vmread", OPD_SRC_REG32 },
	{ BX_IA_VMWRITE_GqEq, "vmwrite", OPD_DST_REG32 },
#endif
	{ BX_IA_VMLAUNCH, "vmlaunch", OPD_NONE },
	{ BX_IA_VMRESUME, "vmresume", OPD_NONE },
	{ BX_IA_INVEPT, "invept", OPD_NONE },
	{ BX_IA_INVVPID, "invvpid", OPD_NONE },
#if BX_SUPPORT_SVM
	{ BX_IA_VMRUN, "vmrun", OPD_NONE },
	{ BX_IA_VMLOAD, "vmload", OPD_NONE },
	{ BX_IA_VMSAVE, "vmsave", OPD_NONE },
	{ BX_IA_CLGI, "clgi", OPD_NONE },
	{ BX_IA_STGI, "stgi", OPD_NONE },
	{ BX_IA_INVLPGA, "invlpga", OPD_NONE },
#endif
	{ BX_IA_XSETBV, "xsetbv", OPD_ECX },
	{ BX_IA_XSAVE, "xsave", OPD_NONE },
	{ BX_IA_XSAVEOPT, "xsaveopt", OPD_NONE },
	{ BX_IA_XSAVEC, "xsavec", OPD_NONE },
	{ BX_IA_XSAVES, "xsaves", OPD_NONE },
	{ BX_IA_XRSTOR, "xrstor", OPD_NONE },
	{ BX_IA_XRSTORS, "xrstors", OPD_NONE },
	{ BX_IA_LFENCE, "lfence", OPD_NONE },
	{ BX_IA_MFENCE, "mfence", OPD_NONE },
	{ BX_IA_SFENCE, "sfence", OPD_NONE },
	{ BX_IA_SERIALIZE, "serialize", OPD_NONE },
	{ BX_IA_VERW_Ew, "verw", OPD_NONE },
	{ BX_IA_INVLPG, "invlpg", OPD_NONE },
	{ BX_IA_INVPCID, "invpcid", OPD_NONE },
	// MOV to/from CRn: CR0 and CR8 share the CR0 opcodes (operand 0 or 8).
	{ BX_IA_MOV_CR0Rd, "mov_to_cr", OPD_DST_NUM },
	{ BX_IA_MOV_CR2Rd, "mov_to_cr", OPD_DST_NUM },
	{ BX_IA_MOV_CR3Rd, "mov_to_cr", OPD_DST_NUM },
	{ BX_IA_MOV_CR4Rd, "mov_to_cr", OPD_DST_NUM },
	{ BX_IA_MOV_RdCR0, "mov_from_cr", OPD_SRC_NUM },
	{ BX_IA_MOV_RdCR2, "mov_from_cr", OPD_SRC_NUM },
	{ BX_IA_MOV_RdCR3, "mov_from_cr", OPD_SRC_NUM },
	{ BX_IA_MOV_RdCR4, "mov_from_cr", OPD_SRC_NUM },
	{ BX_IA_MOV_DdRd, "mov_to_dr", OPD_DST_NUM },
	{ BX_IA_MOV_RdDd, "mov_from_dr", OPD_SRC_NUM },
#if BX_SUPPORT_X86_64
	{ BX_IA_MOV_CR0Rq, "mov_to_cr", OPD_DST_NUM },
	{ BX_IA_MOV_CR2Rq, "mov_to_cr", OPD_DST_NUM },
	{ BX_IA_MOV_CR3Rq, "mov_to_cr", OPD_DST_NUM },
	{ BX_IA_MOV_CR4Rq, "mov_to_cr", OPD_DST_NUM },
	{ BX_IA_MOV_RqCR0, "mov_from_cr", OPD_SRC_NUM },
	{ BX_IA_MOV_RqCR2, "mov_from_cr", OPD_SRC_NUM },
	{ BX_IA_MOV_RqCR3, "mov_from_cr", OPD_SRC_NUM },
	{ BX_IA_MOV_RqCR4, "mov_from_cr", OPD_SRC_NUM },
	{ BX_IA_MOV_DqRq, "mov_to_dr", OPD_DST_NUM },
	{ BX_IA_MOV_RqDq, "mov_from_dr", OPD_SRC_NUM },
#endif
	{ BX_IA_CPUID, "cpuid", OPD_NONE },
	{ BX_IA_RDTSC, "rdtsc", OPD_NONE },
	{ BX_IA_RDTSCP, "rdtscp", OPD_NONE },
	{ BX_IA_RDPMC, "rdpmc", OPD_NONE },
	{ BX_IA_WBINVD, "wbinvd", OPD_NONE },
	{ BX_IA_PAUSE, "pause", OPD_NONE },
	{ BX_IA_IRET_Op16, "iret", OPD_NONE },
	{ BX_IA_IRET_Op32, "iret", OPD_NONE },
	{ BX_IA_SYSRET_LEGACY, "sysret", OPD_NONE },
#if BX_SUPPORT_X86_64
	{ BX_IA_IRET_Op64, "iret", OPD_NONE },
	{ BX_IA_SWAPGS, "swapgs", OPD_NONE },
	{ BX_IA_SYSRET, "sysret", OPD_NONE },
#endif
};

const unsigned CENSUS_ROWS = sizeof(census_table) / sizeof(census_table[0]);
static_assert(CENSUS_ROWS < 255, "a row + 1 fits the lookup's byte");

// A census count's key: the instruction's address, its kind (the index in
// census_table of the first row with its name) and operand.
struct census_key {
	Bit64u rip, operand;
	unsigned kind;

	bool operator<(const census_key &o) const
	{
		if (rip != o.rip)
			return rip < o.rip;
		if (kind != o.kind)
			return kind < o.kind;
		return operand < o.operand;
	}
};

struct side {
	Bit64u ops = 0, batches = 0, guest = 0, kernel = 0, user = 0;
	std::unordered_map<Bit64u, Bit64u> insn, calls, entries;
	std::map<Bit32u, Bit64u> exits;
	std::map<census_key, Bit64u> census;
};

struct probe {
	side op, base, op_irq, base_irq;
};

// One side's counts into another.
void side_add(side &to, const side &from)
{
	to.ops += from.ops;
	to.batches += from.batches;
	to.guest += from.guest;
	to.kernel += from.kernel;
	to.user += from.user;
	for (const auto &e : from.insn)
		to.insn[e.first] += e.second;
	for (const auto &e : from.calls)
		to.calls[e.first] += e.second;
	for (const auto &e : from.entries)
		to.entries[e.first] += e.second;
	for (const auto &e : from.exits)
		to.exits[e.first] += e.second;
	for (const auto &e : from.census)
		to.census[e.first] += e.second;
}

struct profiler {
	FILE *out = nullptr;
	std::string str;			// the string being sent (STR_CHAR)
	std::map<std::string, probe> probes;
	probe *cur = nullptr;			// selected by PROBE
	side *active = nullptr;			// between a BEGIN and its END
	// The pair being counted: its two batches, which is the op one, and
	// whether an interrupt came in during it.
	side batch[2];
	int nbatch = 0;
	bool batch_is_op[2] = { false, false };
	bool pair_irq = false;
	// The instruction before this one, and the side it counts for.
	side *last_side = nullptr;
	where last_where = W_USER;
	Bit64u last_rip = 0, last_icount = 0;
	// Opcode -> its census_table row + 1 (0: not counted), and each row's
	// kind (the first row with its name).
	Bit8u census_of[BX_IA_LAST] = {};
	Bit8u census_kind[CENSUS_ROWS] = {};
};

profiler prof;

// The lookup, once: each opcode to its row, each row to its kind.
void census_init(void)
{
	for (unsigned r = 0; r < CENSUS_ROWS; r++) {
		unsigned k = 0;

		while (strcmp(census_table[k].name, census_table[r].name))
			k++;
		prof.census_kind[r] = (Bit8u)k;
		prof.census_of[census_table[r].opcode] = (Bit8u)(r + 1);
	}
}

where where_of(BX_CPU_C *c)
{
#if BX_SUPPORT_VMX
	if (c->in_vmx_guest)
		return W_GUEST;
#endif
#if BX_SUPPORT_SVM
	if (c->in_svm_guest)
		return W_GUEST;
#endif
	return c->sregs[BX_SEG_REG_CS].selector.rpl == 0 ? W_KERNEL : W_USER;
}

// The previous instruction's ticks, to the side it ran for.
void account(BX_CPU_C *c, where now)
{
	side *s = prof.last_side;
	Bit64u d = c->icount - prof.last_icount;

	switch (prof.last_where) {
	case W_GUEST:
		s->guest += d;
		break;
	case W_KERNEL:
		s->kernel += d;
		s->insn[prof.last_rip] += d;
		if (now == W_GUEST)
			s->entries[prof.last_rip]++;
		break;
	case W_USER:
		s->user += d;
		break;
	}
}

void pair_reset(void)
{
	prof.batch[0] = side();
	prof.batch[1] = side();
	prof.nbatch = 0;
	prof.pair_irq = false;
}

// Both batches of a pair done: into the probe's sides.
void pair_end(void)
{
	probe *p = prof.cur;

	for (int b = 0; b < 2; b++) {
		side &to = prof.batch_is_op[b] ? (prof.pair_irq ? p->op_irq : p->op)
					       : (prof.pair_irq ? p->base_irq : p->base);
		side_add(to, prof.batch[b]);
	}
	pair_reset();
}

// Operand of an instruction of census_table's row r, before it runs.
Bit64u census_operand(BX_CPU_C *c, bxInstruction_c *i, unsigned r)
{
	switch (census_table[r].opd) {
	case OPD_NONE:
		break;
	case OPD_ECX:
		return (Bit32u)c->gen_reg[BX_64BIT_REG_RCX].rrx;
	case OPD_IMM:
		return i->Id();
	case OPD_SRC_REG32:
		return (Bit32u)c->gen_reg[i->src()].rrx;
	case OPD_DST_REG32:
		return (Bit32u)c->gen_reg[i->dst()].rrx;
	case OPD_SRC_NUM:
		return i->src();
	case OPD_DST_NUM:
		return i->dst();
	}
	return 0;
}

void census_count(BX_CPU_C *c, bxInstruction_c *i, unsigned r)
{
	census_key k;

	k.rip = c->gen_reg[BX_64BIT_REG_RIP].rrx;
	k.kind = prof.census_kind[r];
	k.operand = census_operand(c, i, r);
	prof.active->census[k]++;
}

void mark(BX_CPU_C *c)
{
	Bit64u kind = c->gen_reg[BX_64BIT_REG_RAX].rrx;

	if (kind == PROFILE_MARK_END) {
		if (prof.active && ++prof.nbatch == 2)
			pair_end();
		prof.active = nullptr;
		return;
	}
	if (!prof.cur || (kind != PROFILE_MARK_OP_BEGIN && kind != PROFILE_MARK_BASE_BEGIN))
		return;
	prof.batch_is_op[prof.nbatch] = kind == PROFILE_MARK_OP_BEGIN;
	prof.active = &prof.batch[prof.nbatch];
	prof.active->ops += c->gen_reg[BX_64BIT_REG_RDX].rrx;
	prof.active->batches++;
}

void dump_map(const char *tag, const std::unordered_map<Bit64u, Bit64u> &m)
{
	for (const auto &e : m)
		fprintf(prof.out, "%s %llx %llu\n", tag, (unsigned long long)e.first,
			(unsigned long long)e.second);
}

void dump_side(const char *name, const side &s)
{
	fprintf(prof.out, "side %s ops %llu batches %llu guest %llu kernel %llu user %llu\n", name,
		(unsigned long long)s.ops, (unsigned long long)s.batches,
		(unsigned long long)s.guest, (unsigned long long)s.kernel,
		(unsigned long long)s.user);
	for (const auto &e : s.exits)
		fprintf(prof.out, "exit %lu %llu\n", (unsigned long)e.first, (unsigned long long)e.second);
	dump_map("insn", s.insn);
	dump_map("call", s.calls);
	dump_map("entry", s.entries);
	for (const auto &e : s.census) {
		const census_row &row = census_table[e.first.kind];

		if (row.opd == OPD_NONE)
			fprintf(prof.out, "census %llx %s - %llu\n", (unsigned long long)e.first.rip,
				row.name, (unsigned long long)e.second);
		else
			fprintf(prof.out, "census %llx %s %llx %llu\n", (unsigned long long)e.first.rip,
				row.name, (unsigned long long)e.first.operand,
				(unsigned long long)e.second);
	}
}

void dump(void)
{
	fprintf(prof.out, "dump %s\n", prof.str.c_str());
	for (const auto &p : prof.probes) {
		fprintf(prof.out, "probe %s\n", p.first.c_str());
		dump_side("op", p.second.op);
		dump_side("base", p.second.base);
		dump_side("op_irq", p.second.op_irq);
		dump_side("base_irq", p.second.base_irq);
	}
	fprintf(prof.out, "end\n");
	fflush(prof.out);
	prof.probes.clear();
	prof.cur = nullptr;
	prof.active = prof.last_side = nullptr;
	pair_reset();
}

} // namespace

void bx_instr_init_env(void)
{
	const char *path = getenv("EXITSCOPE_PROFILE_OUT");

	if (!path || !*path)
		return;
	prof.out = fopen(path, "a");
	if (!prof.out) {
		fprintf(stderr, "exitscope profile: cannot open %s\n", path);
		exit(1);
	}
	fprintf(prof.out, "%s %d\n", PROFILE_FILE_MAGIC, PROFILE_FILE_VERSION);
	fflush(prof.out);
	census_init();
}

void bx_instr_exit_env(void)
{
	if (prof.out)
		fclose(prof.out);
	prof.out = nullptr;
}

void bx_instr_before_execution(unsigned cpu, bxInstruction_c *i)
{
	BX_CPU_C *c;
	where now;

	if (!prof.cur)
		return;
	c = BX_CPU(cpu);
	now = where_of(c);
	if (prof.last_side)
		account(c, now);
	if (now == W_GUEST && i->getIaOpcode() == BX_IA_NOP && i->ilen() == 7 &&
	    i->displ32s() == PROFILE_MARK_MAGIC)
		mark(c);
	else if (now == W_KERNEL && prof.active && prof.census_of[i->getIaOpcode()])
		census_count(c, i, prof.census_of[i->getIaOpcode()] - 1);
	prof.last_side = prof.active;
	prof.last_where = now;
	prof.last_rip = c->gen_reg[BX_64BIT_REG_RIP].rrx;
	prof.last_icount = c->icount;
}

void bx_instr_ucnear_branch(unsigned cpu, unsigned what, bx_address branch_eip, bx_address new_eip)
{
	if (!prof.active || (what != BX_INSTR_IS_CALL && what != BX_INSTR_IS_CALL_INDIRECT))
		return;
	if (where_of(BX_CPU(cpu)) == W_KERNEL)
		prof.active->calls[new_eip]++;
}

// An exit for an L1 interrupt (VMX EXTERNAL_INTERRUPT, SVM INTR; KVM
// acknowledges it on exit, so the L1 kernel takes it without a delivery)
// marks the pair too. SVM exits come through svm-vmexit-hook.patch.
void bx_instr_vmexit(unsigned cpu, Bit32u reason, Bit64u qualification)
{
	if (!prof.active)
		return;
	prof.active->exits[reason]++;
	if ((reason & 0xffff) == 1 || reason == 0x60)
		prof.pair_irq = true;
}

// A hardware interrupt taken by the L1 kernel (not one delivered straight
// to the guest) during a batch marks its pair.
void bx_instr_hwinterrupt(unsigned cpu, unsigned vector, Bit16u cs, bx_address eip)
{
	if (prof.active && where_of(BX_CPU(cpu)) != W_GUEST)
		prof.pair_irq = true;
}

void bx_instr_outp(Bit16u addr, unsigned len, unsigned val)
{
	if (!prof.out || addr != PROFILE_PORT || len != 4 || !PROFILE_IS_CMD(val))
		return;
	switch (PROFILE_CMD_OF(val)) {
	case PROFILE_CMD_STR_CLEAR:
		prof.str.clear();
		break;
	case PROFILE_CMD_STR_CHAR:
		if (prof.str.size() < 4096)
			prof.str += (char)PROFILE_ARG_OF(val);
		break;
	case PROFILE_CMD_PROBE:
		prof.cur = &prof.probes[prof.str];
		prof.active = prof.last_side = nullptr;
		pair_reset();	// a pair cut short (a round that ended early) is not counted
		break;
	case PROFILE_CMD_DUMP:
		dump();
		break;
	}
}

#endif
