/*
 * profile.c - the L1 user-space commands of an exit-path profile: 32-bit
 * port writes that the lanes' instrumented Bochs sees (bx_instr_outp) and
 * that nothing else handles, so they cost a few user-space instructions and
 * no exit. Strings go a byte per write (harness/profile_mark.h).
 */
#include <errno.h>
#include <sys/io.h>

#include "harness/profile.h"
#include "harness/profile_mark.h"

int profile_marks_open(void)
{
	return ioperm(PROFILE_PORT, 4, 1) ? -errno : 0;
}

static void profile_cmd(unsigned int cmd, unsigned int arg)
{
	outl(PROFILE_CMD(cmd, arg), PROFILE_PORT);
}

static void profile_str(const char *s)
{
	profile_cmd(PROFILE_CMD_STR_CLEAR, 0);
	for (; s && *s; s++)
		profile_cmd(PROFILE_CMD_STR_CHAR, (unsigned char)*s);
}

void profile_marks_probe(const char *name)
{
	profile_str(name);
	profile_cmd(PROFILE_CMD_PROBE, 0);
}

void profile_marks_dump(const char *label)
{
	profile_str(label);
	profile_cmd(PROFILE_CMD_DUMP, 0);
}
