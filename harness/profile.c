// SPDX-License-Identifier: GPL-2.0-only
/*
 * profile.c - the L1 user-space commands of an exit-path profile: 32-bit
 * port writes that the lanes' instrumented Bochs sees (bx_instr_outp) and
 * that nothing else handles, so they cost a few user-space instructions and
 * no exit. Strings go a byte per write (harness/profile_mark.h).
 *
 * The port is opened for each command and closed after it: while a process
 * holds an I/O bitmap, every return to its user space also loads the
 * bitmap into the TSS, which would lengthen the exit path of every probe
 * that returns to user space (measured in the VMX lane on 6.1: pio_to_user
 * 4418 instead of 4301 lane cycles). With the last port released the
 * kernel drops the bitmap, and the batches run as in an unprofiled run.
 */
#include <errno.h>
#include <stdbool.h>
#include <sys/io.h>

#include "harness/profile.h"
#include "harness/profile_mark.h"

static int port_access(bool on)
{
	return ioperm(PROFILE_PORT, 4, on) ? -errno : 0;
}

int profile_marks_open(void)
{
	int r = port_access(true);

	if (!r)
		r = port_access(false);
	return r;
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

/* A string and the command that takes it, with the port open. */
static void profile_send(const char *s, unsigned int cmd)
{
	if (port_access(1))
		return;		/* it worked when the run began: nothing to say here */
	profile_str(s);
	profile_cmd(cmd, 0);
	port_access(0);
}

void profile_marks_probe(const char *name)
{
	profile_send(name, PROFILE_CMD_PROBE);
}

void profile_marks_dump(const char *label)
{
	profile_send(label, PROFILE_CMD_DUMP);
}
