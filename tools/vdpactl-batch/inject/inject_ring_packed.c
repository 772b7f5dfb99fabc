// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Malformed packed-ring chains. Each builder takes slots from the ring
 * in order (from pos, toggling the lap at the end), copies the command
 * into the read-only area and takes an ack byte from the writable one,
 * so that several chains can share a ring. VERSION_1: every field is
 * little-endian.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "inject/inject_ring_packed.h"
#include "lib/cvq_cmd.h"
#include "lib/util.h"

#define F_AVAIL (1u << VRING_PACKED_DESC_F_AVAIL)
#define F_USED (1u << VRING_PACKED_DESC_F_USED)

static const char *const fault_names[PACKED_FAULT_COUNT] = {
	[PACKED_WRONG_WRAP] = "previous lap's AVAIL/USED bits",
	[PACKED_FLAGS_MISMATCH] = "AVAIL = USED = wrap counter",
	[PACKED_ID_REUSE] = "buffer id reused in flight",
	[PACKED_ID_RANGE] = "buffer id = queue size",
};

const char *inject_packed_fault_name(enum inject_packed_fault fault)
{
	return (unsigned int)fault < PACKED_FAULT_COUNT ? fault_names[fault] :
							  "unknown";
}

/* The bits a driver on lap @wrap writes to make a slot available. */
static uint16_t avail_bits(bool wrap)
{
	return wrap ? F_AVAIL : F_USED;
}

/* The AVAIL/USED bits @fault writes on lap @wrap. */
static uint16_t fault_bits(enum inject_packed_fault fault, bool wrap)
{
	if (fault == PACKED_WRONG_WRAP)
		return avail_bits(!wrap);
	if (fault == PACKED_FLAGS_MISMATCH)
		return wrap ? F_AVAIL | F_USED : 0;
	return avail_bits(wrap);
}

static void next_slot(struct inject_packed_ring *r, uint16_t *slot, bool *wrap)
{
	*slot = r->pos;
	*wrap = r->wrap;
	if (++r->pos == r->num) {
		r->pos = 0;
		r->wrap = !r->wrap;
	}
}

/* One [cmd R][ack W] chain with @fault's bits and buffer id @id. */
static int build_chain(struct inject_packed_ring *r,
		       enum inject_packed_fault fault, uint16_t id,
		       const uint8_t *cmd, uint32_t len,
		       struct inject_packed_chain *c)
{
	const uint16_t dir[INJECT_PACKED_CHAIN_DESCS] = { VRING_DESC_F_NEXT,
							  VRING_DESC_F_WRITE };
	uint32_t dlen[INJECT_PACKED_CHAIN_DESCS] = { len, 1 };
	struct inject_area area[INJECT_PACKED_CHAIN_DESCS];
	unsigned int i;
	bool wrap;
	int err;

	if (r->num < INJECT_PACKED_CHAIN_DESCS)
		return -ENOSPC;
	err = inject_take_ro(&r->areas, len, &area[0]);
	if (!err)
		err = inject_take_ack(&r->areas, &area[1]);
	if (err)
		return err;
	memcpy(area[0].ptr, cmd, len);
	*c = (struct inject_packed_chain){ .id = id, .ack = area[1].ptr };

	for (i = 0; i < INJECT_PACKED_CHAIN_DESCS; i++) {
		struct vring_packed_desc *d;

		next_slot(r, &c->slot[i], &wrap);
		d = &r->desc[c->slot[i]];
		/* A chain across the end takes the next lap's bits there. */
		c->valid_flags[i] = dir[i] | avail_bits(wrap);
		c->written[i] = (struct vring_packed_desc){
			.addr = htole64(area[i].iova),
			.len = htole32(dlen[i]),
			.id = htole16(id),
			.flags = htole16(dir[i] | fault_bits(fault, wrap)),
		};
		d->addr = c->written[i].addr;
		d->len = c->written[i].len;
		d->id = c->written[i].id;
		/* The head's flags are inject_packed_publish()'s. */
		if (i)
			d->flags = c->written[i].flags;
	}
	return 0;
}

int inject_packed_build(struct inject_packed_ring *r,
			enum inject_packed_fault fault,
			const uint8_t *first_cmd, const uint8_t *cmd,
			uint32_t len, struct inject_packed_chain *chains)
{
	int err;

	if ((unsigned int)fault >= PACKED_FAULT_COUNT || len < 2 ||
	    (fault == PACKED_ID_REUSE && !first_cmd))
		return -EINVAL;
	switch (fault) {
	case PACKED_ID_REUSE:
		/* Both in flight together: they are published together. */
		err = build_chain(r, fault, 0, first_cmd, len, &chains[0]);
		if (!err)
			err = build_chain(r, fault, 0, cmd, len, &chains[1]);
		return err ? err : 2;
	case PACKED_ID_RANGE:
		err = build_chain(r, fault, r->num, cmd, len, &chains[0]);
		break;
	default:
		err = build_chain(r, fault, 0, cmd, len, &chains[0]);
		break;
	}
	return err ? err : 1;
}

void inject_packed_publish(struct inject_packed_ring *r,
			   struct inject_packed_chain *c)
{
	/*
	 * Release: the chain's other descriptors and the head's address,
	 * length and id are visible before the head's flags.
	 */
	__atomic_store_n(&r->desc[c->slot[0]].flags, c->written[0].flags,
			 __ATOMIC_RELEASE);
}

void inject_packed_make_valid(struct inject_packed_ring *r,
			      struct inject_packed_chain *c)
{
	unsigned int i;

	for (i = 0; i < INJECT_PACKED_CHAIN_DESCS; i++) {
		c->written[i].flags = htole16(c->valid_flags[i]);
		if (i)
			r->desc[c->slot[i]].flags = c->written[i].flags;
	}
	inject_packed_publish(r, c);
}

/* Does slot @slot still hold what one of @chains wrote there? */
static bool as_written(const struct inject_packed_ring *r, uint16_t slot,
		       const struct inject_packed_chain *chains, unsigned int n)
{
	unsigned int k, i;

	for (k = 0; k < n; k++)
		for (i = 0; i < INJECT_PACKED_CHAIN_DESCS; i++)
			if (chains[k].slot[i] == slot)
				return !memcmp(&r->desc[slot],
					       &chains[k].written[i],
					       sizeof(r->desc[slot]));
	return false;
}

void inject_packed_collect(const struct inject_packed_ring *r, uint16_t pos,
			   bool wrap, const struct inject_packed_chain *chains,
			   unsigned int n, struct inject_chain_obs *obs,
			   bool *bad_used)
{
	unsigned int seen, k;

	*bad_used = false;
	for (k = 0; k < n; k++) {
		obs[k].completed = false;
		obs[k].used_len = 0;
	}
	for (seen = 0; seen < n; seen++) {
		const struct vring_packed_desc *d = &r->desc[pos];
		/* Acquire: the id and length are read after the flags. */
		uint16_t flags =
			le16toh(__atomic_load_n(&d->flags, __ATOMIC_ACQUIRE));
		uint16_t id = le16toh(d->id);

		if (!!(flags & F_AVAIL) != wrap || !!(flags & F_USED) != wrap ||
		    as_written(r, pos, chains, n))
			return;
		for (k = 0; k < n; k++)
			if (chains[k].id == id && !obs[k].completed)
				break;
		if (k == n) {
			*bad_used = true;
			return;
		}
		obs[k].completed = true;
		obs[k].used_len = le32toh(d->len);
		pos = (uint16_t)(pos + INJECT_PACKED_CHAIN_DESCS);
		if (pos >= r->num) {
			pos = (uint16_t)(pos - r->num);
			wrap = !wrap;
		}
	}
}
