// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Driver side of a packed virtqueue (virtio 1.2, 2.8). One ring of
 * descriptors serves both ways: the driver makes a chain available by
 * writing its descriptors with AVAIL set to its wrap counter and USED to
 * the opposite, the head's flags last (and a batch's first head last of
 * all); the device hands a chain back by overwriting the chain's first
 * slot with the buffer id, the length and AVAIL = USED = its own wrap
 * counter. Each counter flips whenever its position passes the ring's
 * end, so a slot's flags tell which lap wrote them. The device returns
 * buffer ids, which need not come back in order; the used element of a
 * chain of n descriptors is followed by the next one n slots later.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/vring_ops.h"

#define F_AVAIL (1u << VRING_PACKED_DESC_F_AVAIL)
#define F_USED (1u << VRING_PACKED_DESC_F_USED)
#define WRAP_BIT (1u << VRING_PACKED_EVENT_F_WRAP_CTR)

/* The AVAIL and USED bits a driver on lap @wrap writes. */
static uint16_t avail_bits(bool wrap)
{
	return wrap ? F_AVAIL : F_USED;
}

/* Has the device handed the slot with @flags back, on lap @wrap? */
static bool is_used(uint16_t flags, bool wrap)
{
	return !!(flags & F_AVAIL) == wrap && !!(flags & F_USED) == wrap;
}

/* Moves @pos on by @n slots, flipping @wrap at each pass of the end. */
static void advance(const struct vq_driver *vr, uint16_t *pos, bool *wrap,
		    unsigned int n)
{
	unsigned int p = *pos + n;

	while (p >= vr->num) {
		p -= vr->num;
		*wrap = !*wrap;
	}
	*pos = (uint16_t)p;
}

static int packed_add(struct vq_driver *vr, const struct vq_buf *bufs,
		      unsigned int nbufs, uint32_t token)
{
	struct vq_packed *pk = &vr->packed;
	uint16_t id = vr->free_head, pos = pk->next_avail, head = pos;
	bool wrap = pk->avail_wrap;
	uint16_t flags, head_flags = 0;
	unsigned int n;

	for (n = 0; n < nbufs; n++) {
		struct vring_packed_desc *d = &pk->desc[pos];

		/* A chain across the end takes the next lap's bits there. */
		flags = avail_bits(wrap) | vq_buf_flags(bufs, n, nbufs);
		d->addr = htole64(bufs[n].addr);
		d->len = htole32(bufs[n].len);
		d->id = htole16(id);
		/* The head's flags make the chain available: not yet. */
		if (n == 0)
			head_flags = flags;
		else
			d->flags = htole16(flags);
		advance(vr, &pos, &wrap, 1);
	}
	pk->pending[pk->n_pending++] = (struct vq_packed_head){
		.pos = head,
		.flags = head_flags,
		.id = id,
		.ndescs = (uint16_t)nbufs,
	};
	pk->next_avail = pos;
	pk->avail_wrap = wrap;
	vr->free_head = vr->slots[id].next;
	vr->num_free -= nbufs;
	vr->slots[id].token = token;
	return 0;
}

static uint16_t packed_publish(struct vq_driver *vr)
{
	struct vq_packed *pk = &vr->packed;
	uint16_t i, added = pk->n_pending;

	/*
	 * The batch's first head goes last, as a split ring's one index
	 * store shows a batch whole (virtio 1.2, 2.8.13.1, for a chain): a
	 * device that polls the ring cannot take part of a batch the
	 * driver kicks once for, since it reads heads in ring order.
	 */
	for (i = added; i-- > 0;) {
		const struct vq_packed_head *h = &pk->pending[i];

		vr->slots[h->id].ndescs = h->ndescs;
		/*
		 * Release: the chain's other descriptors and the head's
		 * address, length and id, and the later heads, are visible
		 * before the head's flags hand the chain to the device.
		 */
		__atomic_store_n(&pk->desc[h->pos].flags, htole16(h->flags),
				 __ATOMIC_RELEASE);
		pk->unkicked += h->ndescs;
	}
	pk->in_flight += added;
	pk->n_pending = 0;
	return added;
}

/*
 * The device asked for a kick at the slot of @off_wrap. Our positions go
 * from old to new in this lap's numbering; a slot of the previous lap
 * counts num lower, so vring_need_event()'s 16-bit arithmetic sees one
 * line of positions.
 */
static bool event_covered(const struct vq_driver *vr, uint16_t off_wrap)
{
	const struct vq_packed *pk = &vr->packed;
	uint16_t event = off_wrap & (WRAP_BIT - 1);
	uint16_t new_pos = pk->next_avail;
	uint16_t old_pos = (uint16_t)(new_pos - pk->unkicked);

	if (!!(off_wrap & WRAP_BIT) != pk->avail_wrap)
		event = (uint16_t)(event - vr->num);
	return vring_need_event(event, new_pos, old_pos);
}

static bool packed_kick_needed(struct vq_driver *vr)
{
	struct vq_packed *pk = &vr->packed;
	uint16_t flags, off_wrap;
	bool needed;

	/*
	 * Order the flags stores that made the chains available before the
	 * event area loads, or the device could go idle between them and
	 * miss the chains.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/*
	 * Acquire: the device writes off_wrap before the flags that point
	 * at it, so off_wrap read after them is at least as new.
	 */
	flags = le16toh(
		__atomic_load_n(&pk->device_event->flags, __ATOMIC_ACQUIRE));
	if (flags == VRING_PACKED_EVENT_FLAG_DESC && pk->event_idx) {
		off_wrap = le16toh(__atomic_load_n(&pk->device_event->off_wrap,
						   __ATOMIC_RELAXED));
		needed = event_covered(vr, off_wrap);
	} else {
		/* As the split ring's VRING_USED_F_NO_NOTIFY. */
		needed = flags != VRING_PACKED_EVENT_FLAG_DISABLE;
	}
	pk->unkicked = 0;
	return needed;
}

/* The used element at @pos on lap @wrap: its id if valid, else -EPROTO. */
static int used_id_at(const struct vq_driver *vr, uint16_t pos, bool wrap,
		      uint16_t *id)
{
	const struct vring_packed_desc *d = &vr->packed.desc[pos];
	uint16_t flags;

	/* Acquire: the id and length are read after the flags. */
	flags = le16toh(__atomic_load_n(&d->flags, __ATOMIC_ACQUIRE));
	if (!is_used(flags, wrap))
		return -EAGAIN;
	*id = le16toh(d->id);
	if (*id >= vr->num || vr->slots[*id].ndescs == 0)
		return -EPROTO;
	return 0;
}

static uint16_t packed_used_pending(const struct vq_driver *vr)
{
	const struct vq_packed *pk = &vr->packed;
	uint16_t pos = pk->last_used, n = 0, id;
	bool wrap = pk->used_wrap;

	while (n < pk->in_flight && !used_id_at(vr, pos, wrap, &id)) {
		advance(vr, &pos, &wrap, vr->slots[id].ndescs);
		n++;
	}
	return n;
}

static int packed_pop(struct vq_driver *vr, uint32_t *token, uint32_t *len)
{
	struct vq_packed *pk = &vr->packed;
	struct vq_slot *slot;
	uint16_t id;
	int err;

	err = used_id_at(vr, pk->last_used, pk->used_wrap, &id);
	if (err)
		return err;
	/* used_id_at() found ndescs != 0: the chain is in flight. */
	slot = &vr->slots[id];
	*token = slot->token;
	*len = le32toh(pk->desc[pk->last_used].len);
	advance(vr, &pk->last_used, &pk->used_wrap, slot->ndescs);
	vr->num_free += slot->ndescs;
	slot->ndescs = 0;
	slot->next = vr->free_head;
	vr->free_head = id;
	pk->in_flight--;
	return 0;
}

static void packed_set_call(struct vq_driver *vr, enum vq_call how,
			    uint16_t ahead)
{
	struct vq_packed *pk = &vr->packed;
	uint16_t pos = pk->last_used;
	bool wrap = pk->used_wrap;
	uint16_t flags = how == VQ_CALL_DISABLE ?
				 VRING_PACKED_EVENT_FLAG_DISABLE :
			 how == VQ_CALL_AT ? VRING_PACKED_EVENT_FLAG_DESC :
					     VRING_PACKED_EVENT_FLAG_ENABLE;

	if (how == VQ_CALL_AT) {
		advance(vr, &pos, &wrap, ahead);
		pk->driver_event->off_wrap =
			htole16((uint16_t)(pos | (wrap ? WRAP_BIT : 0)));
	}
	/* Release: a device that sees DESC sees the off_wrap it names. */
	__atomic_store_n(&pk->driver_event->flags, htole16(flags),
			 __ATOMIC_RELEASE);
}

static uint32_t packed_base(const struct vq_driver *vr)
{
	const struct vq_packed *pk = &vr->packed;
	uint32_t avail = pk->next_avail | (pk->avail_wrap ? WRAP_BIT : 0);
	uint32_t used = pk->last_used | (pk->used_wrap ? WRAP_BIT : 0);

	return avail | used << 16;
}

/*
 * A packed table is read in order, its length says where it ends: of the
 * flags only F_WRITE counts, and its buffer ids are ignored.
 */
static void packed_write_table(void *table, const struct vq_buf *bufs,
			       unsigned int nbufs)
{
	struct vring_packed_desc *t = table;
	unsigned int n;

	for (n = 0; n < nbufs; n++)
		t[n] = (struct vring_packed_desc){
			.addr = htole64(bufs[n].addr),
			.len = htole32(bufs[n].len),
			.flags = htole16(bufs[n].device_writable ?
						 VRING_DESC_F_WRITE :
						 0),
		};
}

const struct vq_ops vq_packed_ops = {
	.add = packed_add,
	.publish = packed_publish,
	.kick_needed = packed_kick_needed,
	.used_pending = packed_used_pending,
	.pop = packed_pop,
	.set_call = packed_set_call,
	.base = packed_base,
	.write_table = packed_write_table,
};

int vq_init_packed(struct vq_driver *vr, unsigned int num,
		   struct vring_packed_desc *desc,
		   struct vring_packed_desc_event *driver_event,
		   struct vring_packed_desc_event *device_event)
{
	int err;

	if (num == 0 || num > VQ_MAX_NUM)
		return -EINVAL;
	*vr = (struct vq_driver){
		.format = VQ_FORMAT_PACKED,
		.ops = &vq_packed_ops,
		.num = (uint16_t)num,
		.num_free = (uint16_t)num,
		.packed = {
			.desc = desc,
			.driver_event = driver_event,
			.device_event = device_event,
			/* Both counters start at 1 (virtio 1.2, 2.8.1). */
			.avail_wrap = true,
			.used_wrap = true,
		},
	};
	vr->packed.pending = calloc(num, sizeof(*vr->packed.pending));
	err = vr->packed.pending ? vq_slots_init(vr, num) : -ENOMEM;
	if (err) {
		vq_fini(vr);
		return err;
	}
	/* Flags 0 on lap 1: no slot is available or used. */
	memset(desc, 0, vq_packed_desc_bytes(num));
	driver_event->off_wrap = 0;
	driver_event->flags = htole16(VRING_PACKED_EVENT_FLAG_ENABLE);
	return 0;
}
