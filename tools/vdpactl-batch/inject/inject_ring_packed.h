/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Builders of malformed packed-ring chains for fault injection, and the
 * reading of what the device wrote back. They write straight into the
 * descriptor ring, bypassing lib/vring_packed.c's bookkeeping, which
 * would refuse to build them. No device access: unit-tested on plain
 * memory.
 */
#ifndef VDPACTL_INJECT_RING_PACKED_H
#define VDPACTL_INJECT_RING_PACKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/virtio_ring.h>

#include "inject/inject_obs.h"

/* Descriptors of a chain: [cmd R][ack W]. */
#define INJECT_PACKED_CHAIN_DESCS 2

/*
 * The ring and memory a builder may use: where the driver writes next
 * (@pos, on lap @wrap), and the areas for commands and acks.
 */
struct inject_packed_ring {
	struct vring_packed_desc *desc;
	uint16_t num;
	uint16_t pos;
	bool wrap;
	struct inject_areas areas;
};

/* A chain built: where it is, what was written, and its valid flags. */
struct inject_packed_chain {
	uint16_t slot[INJECT_PACKED_CHAIN_DESCS];
	/* The descriptors as the device should find them, head included. */
	struct vring_packed_desc written[INJECT_PACKED_CHAIN_DESCS];
	/* Each descriptor's flags with this lap's bits (a valid chain). */
	uint16_t valid_flags[INJECT_PACKED_CHAIN_DESCS];
	uint16_t id;
	uint8_t *ack;
};

/*
 * Builds the chains of @fault, each carrying a command: @cmd, and for
 * PACKED_ID_REUSE first @first_cmd (both @len bytes, at least 2). All but
 * the heads' flags are written; inject_packed_publish() writes those.
 * Returns how many chains (at most INJECT_CHAINS_MAX), -EINVAL for a bad
 * fault or command, -ENOSPC if an area or the ring has no room.
 */
int inject_packed_build(struct inject_packed_ring *r,
			enum inject_packed_fault fault,
			const uint8_t *first_cmd, const uint8_t *cmd,
			uint32_t len, struct inject_packed_chain *chains);

/* Hands @c to the device: its head's flags, after the rest. */
void inject_packed_publish(struct inject_packed_ring *r,
			   struct inject_packed_chain *c);

/*
 * Rewrites @c's flags with this lap's bits, the head's last: a chain
 * built with the wrong ones made available properly.
 */
void inject_packed_make_valid(struct inject_packed_ring *r,
			      struct inject_packed_chain *c);

/*
 * Reads the used elements the device wrote from slot @pos on lap @wrap
 * into @obs[0..n) (completed, used_len, set afresh; the other fields are
 * left alone; one element per chain, by buffer id,
 * in order for chains sharing one): a slot still holding what the driver
 * wrote is not one, whatever its bits. *bad_used: an element naming no
 * chain in flight.
 */
void inject_packed_collect(const struct inject_packed_ring *r, uint16_t pos,
			   bool wrap, const struct inject_packed_chain *chains,
			   unsigned int n, struct inject_chain_obs *obs,
			   bool *bad_used);

/* The fault's name, for messages and tests. */
const char *inject_packed_fault_name(enum inject_packed_fault fault);

#endif
