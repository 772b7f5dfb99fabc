// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The spelling of the load enums, one table for the command line, its
 * reports and the load engine's trace marks.
 */
#include <stddef.h>

#include "load/load.h"

const char *const load_mode_names[] = {
	[LOAD_MODE_SERIAL] = "serial",
	[LOAD_MODE_PARALLEL] = "parallel",
	NULL,
};
const char *const load_kick_names[] = {
	[LOAD_KICK_EACH] = "each",
	[LOAD_KICK_ONCE] = "once",
	NULL,
};
const char *const load_wait_names[] = {
	[LOAD_WAIT_POLL] = "poll",
	[LOAD_WAIT_CALL] = "call",
	NULL,
};
const char *const load_ring_names[] = {
	[VQ_FORMAT_SPLIT] = "split",
	[VQ_FORMAT_PACKED] = "packed",
	NULL,
};
