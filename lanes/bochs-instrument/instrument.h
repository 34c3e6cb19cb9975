// instrument.h - exitscope's Bochs instrumentation module: the BX_INSTR_*
// hooks an exit-path profile needs mapped to instrument.cc, every other
// hook empty (as instrument/stubs has them). Built into the lanes'
// profiling Bochs only (scripts/lane-build-bochs, LANE_PROFILE=1).

#if BX_INSTRUMENTATION

class bxInstruction_c;

void bx_instr_init_env(void);
void bx_instr_exit_env(void);
void bx_instr_before_execution(unsigned cpu, bxInstruction_c *i);
void bx_instr_ucnear_branch(unsigned cpu, unsigned what, bx_address branch_eip, bx_address new_eip);
void bx_instr_outp(Bit16u addr, unsigned len, unsigned val);
void bx_instr_vmexit(unsigned cpu, Bit32u reason, Bit64u qualification);
void bx_instr_hwinterrupt(unsigned cpu, unsigned vector, Bit16u cs, bx_address eip);

#define BX_INSTR_INIT_ENV() bx_instr_init_env()
#define BX_INSTR_EXIT_ENV() bx_instr_exit_env()
#define BX_INSTR_BEFORE_EXECUTION(cpu_id, i) bx_instr_before_execution(cpu_id, i)
#define BX_INSTR_UCNEAR_BRANCH(cpu_id, what, branch_eip, new_eip) \
	bx_instr_ucnear_branch(cpu_id, what, branch_eip, new_eip)
#define BX_INSTR_OUTP(addr, len, val) bx_instr_outp(addr, len, val)
#define BX_INSTR_VMEXIT(cpu_id, reason, qualification) bx_instr_vmexit(cpu_id, reason, qualification)
#define BX_INSTR_HWINTERRUPT(cpu_id, vector, cs, eip) bx_instr_hwinterrupt(cpu_id, vector, cs, eip)

#else

#define BX_INSTR_INIT_ENV()
#define BX_INSTR_EXIT_ENV()
#define BX_INSTR_BEFORE_EXECUTION(cpu_id, i)
#define BX_INSTR_UCNEAR_BRANCH(cpu_id, what, branch_eip, new_eip)
#define BX_INSTR_OUTP(addr, len, val)
#define BX_INSTR_VMEXIT(cpu_id, reason, qualification)
#define BX_INSTR_HWINTERRUPT(cpu_id, vector, cs, eip)

#endif

#define BX_INSTR_INITIALIZE(cpu_id)
#define BX_INSTR_EXIT(cpu_id)
#define BX_INSTR_RESET(cpu_id, type)
#define BX_INSTR_HLT(cpu_id)
#define BX_INSTR_MWAIT(cpu_id, addr, len, flags)
#define BX_INSTR_DEBUG_PROMPT()
#define BX_INSTR_DEBUG_CMD(cmd)
#define BX_INSTR_CNEAR_BRANCH_TAKEN(cpu_id, branch_eip, new_eip)
#define BX_INSTR_CNEAR_BRANCH_NOT_TAKEN(cpu_id, branch_eip)
#define BX_INSTR_FAR_BRANCH(cpu_id, what, prev_cs, prev_eip, new_cs, new_eip)
#define BX_INSTR_OPCODE(cpu_id, i, opcode, len, is32, is64)
#define BX_INSTR_EXCEPTION(cpu_id, vector, error_code)
#define BX_INSTR_INTERRUPT(cpu_id, vector)
#define BX_INSTR_CLFLUSH(cpu_id, laddr, paddr)
#define BX_INSTR_CACHE_CNTRL(cpu_id, what)
#define BX_INSTR_TLB_CNTRL(cpu_id, what, new_cr3)
#define BX_INSTR_PREFETCH_HINT(cpu_id, what, seg, offset)
#define BX_INSTR_AFTER_EXECUTION(cpu_id, i)
#define BX_INSTR_REPEAT_ITERATION(cpu_id, i)
#define BX_INSTR_LIN_ACCESS(cpu_id, lin, phy, len, memtype, rw)
#define BX_INSTR_PHY_ACCESS(cpu_id, phy, len, memtype, rw)
#define BX_INSTR_INP(addr, len)
#define BX_INSTR_INP2(addr, len, val)
#define BX_INSTR_WRMSR(cpu_id, addr, value)
