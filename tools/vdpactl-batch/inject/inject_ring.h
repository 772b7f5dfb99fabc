/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Builders of malformed (and a few odd but legal) descriptor chains for
 * fault injection. They write straight into a split ring's descriptor
 * table and avail ring, bypassing lib/vring.c's bookkeeping, which would
 * refuse to build them. No device access: unit-tested on plain memory.
 */
#ifndef VDPACTL_INJECT_RING_H
#define VDPACTL_INJECT_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/virtio_ring.h>

/* The shapes a chain can have; each names the fault it carries. */
enum inject_shape {
	SHAPE_NORMAL, /* [cmd R][ack W] */
	SHAPE_HEAD_RANGE, /* avail entry == num, no descriptor */
	SHAPE_NEXT_LOOP, /* [cmd R, next = itself] */
	SHAPE_NEXT_RANGE, /* [cmd R, next = num] */
	SHAPE_CHAIN_NUM, /* num descriptors: cmd over num - 1, ack */
	SHAPE_CHAIN_TOO_LONG, /* num + 1 buffers: 1 direct, num indirect */
	SHAPE_INDIRECT, /* [INDIRECT -> [cmd R][ack W]] */
	SHAPE_INDIRECT_WRITE_FLAG, /* the same, table pointer F_WRITE */
	SHAPE_INDIRECT_LOOP, /* table [cmd R -> 1][cmd R -> 0] */
	SHAPE_INDIRECT_LEN_ZERO, /* table pointer len 0 */
	SHAPE_INDIRECT_LEN_ODD, /* table pointer len 24 */
	SHAPE_INDIRECT_NESTED, /* table [INDIRECT -> [cmd R][ack W]] */
	SHAPE_INDIRECT_NEXT, /* [INDIRECT|NEXT -> [cmd R]][ack W] */
	SHAPE_WRITE_ORDER, /* [ack W][cmd R] */
	SHAPE_ADDR_WRAP, /* [cmd R at 2^64 - 4, len 8][ack W] */
	SHAPE_ZERO_LEN, /* [cmd R][len 0 R][ack W] */
	SHAPE_BUFFER_UNMAPPED, /* [cmd R at an unmapped IOVA][ack W] */
	SHAPE_ACK_READ_ONLY, /* [cmd R][ack W in a read-only map] */
	SHAPE_AVAIL_IDX_AHEAD, /* normal chain, avail idx num + 1 ahead */
	SHAPE_SHORT_HEADER, /* [1 byte R][ack W] */
	SHAPE_NO_ACK, /* [cmd R], nothing writable */
	SHAPE_SPLIT_HEADER, /* [class R][cmd R][data R][ack W] */
	SHAPE_CMD_FRAGMENTED, /* [cmd R at fragmented_iova][ack W] */
	SHAPE_COUNT
};

/*
 * The memory the builders of either ring format put chains' buffers in.
 * @ro is device-readable only (the command area; indirect tables go
 * there too), @ack device-writable. ro_used and ack_used advance as
 * chains are built.
 */
struct inject_areas {
	uint8_t *ro;
	uint64_t ro_iova;
	size_t ro_size;
	size_t ro_used;
	uint8_t *ack;
	uint64_t ack_iova;
	size_t ack_size;
	size_t ack_used;
};

/* A buffer of the device's address space and where the tool sees it. */
struct inject_area {
	uint64_t iova;
	uint8_t *ptr;
};

/* @len bytes of the read-only area, INJECT_TABLE_ALIGN aligned; -ENOSPC. */
int inject_take_ro(struct inject_areas *a, size_t len, struct inject_area *out);

/* One byte of the ack area, preset to CVQ_ACK_UNSET; -ENOSPC. */
int inject_take_ack(struct inject_areas *a, struct inject_area *out);

/* The split ring and memory a builder may use; next_desc advances. */
struct inject_ring {
	struct vring_desc *desc;
	struct vring_avail *avail;
	uint16_t num;
	uint16_t avail_idx; /* next avail entry to fill */
	struct inject_areas areas;
	uint64_t unmapped_iova; /* an IOVA nothing is mapped at */
	/* A copy of the command the caller put over several IOTLB maps. */
	uint64_t fragmented_iova;
	uint16_t next_desc;
};

/* What a builder made. */
struct inject_chain {
	uint16_t head; /* the avail ring entry written */
	uint16_t publish_idx; /* the avail idx to publish */
	uint16_t ndescs; /* descriptors written in the ring's table */
	uint8_t *ack; /* where the device should write the ack, or NULL */
	uint8_t *readonly_target; /* SHAPE_ACK_READ_ONLY: the byte offered */
};

/* A "device address" that wraps when @len bytes are added to it. */
#define INJECT_WRAP_ADDR (UINT64_MAX - 3)

/* Indirect tables and read-only ack bytes are placed at this alignment. */
#define INJECT_TABLE_ALIGN 16

/*
 * Builds one chain of @shape carrying the command @cmd (@cmd_len bytes,
 * at least 2) and makes it the next avail entry, without publishing it.
 * -EINVAL if the shape cannot carry this command on this ring (too short
 * to split, SHAPE_CHAIN_NUM on a used table), -ENOSPC if the ring or an
 * area has no room.
 */
int inject_ring_build(struct inject_ring *r, enum inject_shape shape,
		      const uint8_t *cmd, uint32_t cmd_len,
		      struct inject_chain *out);

/* The shape's name in inject_ring.c's table, for messages and tests. */
const char *inject_shape_name(enum inject_shape shape);

#endif
