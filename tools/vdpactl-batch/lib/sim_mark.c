// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The markers of sim_mark.h. The slot is an immediate of the instruction,
 * so each (operation, slot) pair has a stub of its own: a marker and a
 * return, SIM_MARK_STUB bytes each, start markers first.
 */
#include "lib/sim_mark.h"

#if defined(__x86_64__)
#define SIM_MARK_STUB 9

__asm__(".pushsection .text\n"
	".p2align 4\n"
	".hidden vdpactl_sim_mark_stubs\n"
	"vdpactl_sim_mark_stubs:\n"
	".set sim_mark_code, 0x10\n"
	".rept 32\n"
	".byte 0x0f, 0x1f, 0x84, 0x00, sim_mark_code, 0x42, 0x53, 0x56\n"
	"ret\n"
	".set sim_mark_code, sim_mark_code + 1\n"
	".endr\n"
	".popsection\n");

extern const char vdpactl_sim_mark_stubs[];

void sim_mark(unsigned int op, unsigned int slot)
{
	void (*stub)(void);

	if ((op != SIM_MARK_START && op != SIM_MARK_STOP) ||
	    slot >= SIM_MARK_SLOTS)
		return;
	stub = (void (*)(void))(vdpactl_sim_mark_stubs +
				SIM_MARK_STUB *
					((op - 1) * SIM_MARK_SLOTS + slot));
	stub();
}
#else
void sim_mark(unsigned int op, unsigned int slot)
{
	(void)op;
	(void)slot;
}
#endif
