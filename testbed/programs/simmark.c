// SPDX-License-Identifier: GPL-2.0-only
/*
 * simmark { start | stop } SLOT: one tools/insn-count marker, for a window
 * that spans several processes (scripts/guest/bench-scale.sh): the marker
 * vdpactl-batch's compare puts around each of its loads (lib/sim_mark.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sim_mark.h"

int main(int argc, char **argv)
{
	unsigned long slot;
	unsigned int op;
	char *end;

	if (argc != 3)
		goto usage;
	if (!strcmp(argv[1], "start"))
		op = SIM_MARK_START;
	else if (!strcmp(argv[1], "stop"))
		op = SIM_MARK_STOP;
	else
		goto usage;
	slot = strtoul(argv[2], &end, 10);
	if (!*argv[2] || *end || slot >= SIM_MARK_SLOTS)
		goto usage;
	sim_mark(op, (unsigned int)slot);
	return 0;
usage:
	fprintf(stderr, "usage: simmark { start | stop } SLOT (0 to %d)\n",
		SIM_MARK_SLOTS - 1);
	return 2;
}
