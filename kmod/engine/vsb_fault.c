// SPDX-License-Identifier: GPL-2.0-only
/* Names of the driver errors in vsb_fault.h, for logs and traces. */

#include "vsb_seam.h"
#include "vsb_fault.h"

static const char *const vsb_fault_names[VSB_FAULT_COUNT] = {
	[VSB_FAULT_NONE] = "none",
	[VSB_FAULT_RING_CONFIG] = "ring size or address unusable",
	[VSB_FAULT_RING_ACCESS] = "ring memory not accessible",
	[VSB_FAULT_AVAIL_IDX] = "avail index beyond queue size",
	[VSB_FAULT_HEAD_RANGE] = "avail ring head out of range",
	[VSB_FAULT_NEXT_RANGE] = "descriptor next out of range",
	[VSB_FAULT_CHAIN_LOOP] = "descriptor loop",
	[VSB_FAULT_CHAIN_LONG] = "chain longer than queue size",
	[VSB_FAULT_CHAIN_BYTES] = "chain length overflows",
	[VSB_FAULT_ADDR_WRAP] = "descriptor address wraps",
	[VSB_FAULT_WRITE_ORDER] = "readable descriptor after writable",
	[VSB_FAULT_INDIRECT_FEATURE] = "indirect descriptor not negotiated",
	[VSB_FAULT_INDIRECT_NESTED] = "nested indirect table",
	[VSB_FAULT_INDIRECT_NEXT] = "indirect descriptor with next",
	[VSB_FAULT_INDIRECT_LEN] = "bad indirect table length",
	[VSB_FAULT_BUFFER_ACCESS] = "buffer not accessible",
	[VSB_FAULT_CVQ_HEADER] = "control header too short",
	[VSB_FAULT_CVQ_NO_ACK] = "control command without ack byte",
	[VSB_FAULT_NOTHING_MAPPED] = "no memory mapped (RAM not shared?)",
	[VSB_FAULT_PACKED_FLAGS] = "packed descriptor flags disagree",
	[VSB_FAULT_ID_RANGE] = "buffer id out of range",
	[VSB_FAULT_ID_IN_USE] = "buffer id already in use",
	[VSB_FAULT_INJECTED] = "reset injected by a fault rule",
};

const char *vsb_fault_name(enum vsb_fault fault)
{
	if ((unsigned int)fault >= VSB_FAULT_COUNT)
		return "unknown";
	return vsb_fault_names[fault];
}
