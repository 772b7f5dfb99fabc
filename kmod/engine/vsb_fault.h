/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driver errors the device detects. Each one puts the device in
 * DEVICE_NEEDS_RESET; the name is what logs and traces show.
 */
#ifndef VSB_FAULT_H
#define VSB_FAULT_H

enum vsb_fault {
	VSB_FAULT_NONE,
	VSB_FAULT_RING_CONFIG, /* size or ring address unusable */
	VSB_FAULT_RING_ACCESS, /* ring memory unmapped or read-only */
	VSB_FAULT_AVAIL_IDX, /* avail idx more than num ahead */
	VSB_FAULT_HEAD_RANGE, /* avail ring entry >= num */
	VSB_FAULT_NEXT_RANGE, /* next >= table size */
	VSB_FAULT_CHAIN_LOOP, /* more descriptors than the table */
	VSB_FAULT_CHAIN_LONG, /* more buffers than the queue size */
	VSB_FAULT_CHAIN_BYTES, /* chain longer than 4 GiB - 1 */
	VSB_FAULT_ADDR_WRAP, /* addr + len wraps */
	VSB_FAULT_WRITE_ORDER, /* readable after writable */
	VSB_FAULT_INDIRECT_FEATURE, /* INDIRECT not negotiated */
	VSB_FAULT_INDIRECT_NESTED, /* INDIRECT inside a table */
	VSB_FAULT_INDIRECT_NEXT, /* INDIRECT | NEXT */
	VSB_FAULT_INDIRECT_LEN, /* 0, not 16 * n, or n > num */
	VSB_FAULT_BUFFER_ACCESS, /* buffer unmapped or wrong perm */
	VSB_FAULT_CVQ_HEADER, /* control header under 2 bytes */
	VSB_FAULT_CVQ_NO_ACK, /* no writable byte for the ack */
	VSB_FAULT_NOTHING_MAPPED, /* ring or buffer access, no map at all */
	VSB_FAULT_PACKED_FLAGS, /* packed: avail/used flags of the wrong lap */
	VSB_FAULT_ID_RANGE, /* packed: buffer id >= num */
	VSB_FAULT_ID_IN_USE, /* packed: buffer id still in flight */
	VSB_FAULT_INJECTED, /* no driver's: a fault rule's reset action */
	VSB_FAULT_COUNT
};

const char *vsb_fault_name(enum vsb_fault fault);

#endif /* VSB_FAULT_H */
