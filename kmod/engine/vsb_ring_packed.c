// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device side of a packed virtqueue (virtio 1.x, "Packed Virtqueues").
 *
 * One ring of struct vring_packed_desc serves both directions: the driver
 * makes a descriptor available by flipping its AVAIL and USED flags to
 * (wrap, !wrap) for its Driver Ring Wrap Counter, and the device marks the
 * first descriptor of a chain used with both flags at its Device Ring Wrap
 * Counter, then skips the rest of the chain. The driver area and the
 * device area each hold a struct vring_packed_desc_event: the driver's
 * says when it wants used buffer notifications, the device's when it
 * wants kicks.
 *
 * What this device checks beyond the split ring's rules: a descriptor of
 * a chain not marked available in its lap, or a head marked used in the
 * lap the driver is filling, is a driver error (the flags "must be set
 * correctly in all descriptors in the list"); so is a buffer id the
 * device still holds, which would make two chains one to the driver. Ids
 * must also be below the queue size: the spec's own example driver
 * asserts it, and so do Linux, QEMU and DPDK.
 *
 * A chain's id is in its last descriptor. A chain with a bad buffer is
 * still walked to its end, so its id is known and the caller can give it
 * back before the device needs a reset, as on a split ring; a chain whose
 * structure is broken (flags, length, id) cannot be given back.
 */

#include "vsb_ring_priv.h"

#define VSB_PACKED_AVAIL BIT(VRING_PACKED_DESC_F_AVAIL)
#define VSB_PACKED_USED BIT(VRING_PACKED_DESC_F_USED)
#define VSB_PACKED_WRAP BIT(VRING_PACKED_EVENT_F_WRAP_CTR)
#define VSB_PACKED_FLAGS_OFF offsetof(struct vring_packed_desc, flags)
#define VSB_PACKED_LEN_OFF offsetof(struct vring_packed_desc, len)
#define VSB_PACKED_MAX_NUM 0x8000
/* id_descs counts a chain's descriptors in the bits below the flag. */
#define VSB_PACKED_CHAIN_MAX (VSB_RING_ID_STAGED - 1)
/* Descriptors of an indirect table read per guest memory access. */
#define VSB_PACKED_TABLE_BATCH 4

/*
 * The event suppression structure, declared here: the kernel's UAPI names
 * its first field off_wrap, other copies of the header off_wrap.
 */
struct vsb_packed_event {
	__le16 off_wrap;
	__le16 flags;
};

/* The part of a used descriptor the device writes: len, id, flags. */
struct vsb_packed_used {
	__le32 len;
	__le16 id;
	__le16 flags;
};

static u64 vsb_packed_desc_addr(u64 table, u32 i)
{
	return table + (u64)i * sizeof(struct vring_packed_desc);
}

/* Where descriptor @pos of the ring keeps its flags. */
static u64 vsb_packed_flags_addr(const struct vsb_ring *ring, u16 pos)
{
	return vsb_packed_desc_addr(ring->desc, pos) + VSB_PACKED_FLAGS_OFF;
}

/* A position and its wrap counter, as off_wrap and vhost's base have it. */
static u16 vsb_packed_off_wrap(u16 pos, bool wrap)
{
	return pos | (wrap ? VSB_PACKED_WRAP : 0);
}

static bool vsb_packed_avail(u16 flags, bool wrap)
{
	return !!(flags & VSB_PACKED_AVAIL) == wrap &&
	       !!(flags & VSB_PACKED_USED) != wrap;
}

/* Flags marked used in the lap the driver is filling: never the device's. */
static bool vsb_packed_used_now(u16 flags, bool wrap)
{
	return !!(flags & VSB_PACKED_AVAIL) == wrap &&
	       !!(flags & VSB_PACKED_USED) == wrap;
}

static void vsb_packed_step(const struct vsb_ring *ring, u16 *pos, bool *wrap,
			    u16 n)
{
	*pos += n;
	if (*pos >= ring->num) {
		*pos -= ring->num;
		*wrap = !*wrap;
	}
}

/*
 * Sizes and alignments from "Structure Size and Alignment"; the queue size
 * need not be a power of two, but is at most 2^15 ("Packed virtqueues
 * support up to 2^15 entries": positions have 15 bits, the 16th is a wrap
 * counter) and every id must fit the owner's table.
 */
enum vsb_fault vsb_packed_setup(struct vsb_ring *ring)
{
	u16 num = ring->num;

	if (!num || num > VSB_PACKED_MAX_NUM || num > ring->max_ids ||
	    !ring->id_descs)
		ring->fault = VSB_FAULT_RING_CONFIG;
	else if ((ring->desc & 15) || (ring->avail & 3) || (ring->used & 3))
		ring->fault = VSB_FAULT_RING_CONFIG;
	else if (!vsb_range_ok(ring->desc,
			       (u64)num * sizeof(struct vring_packed_desc)) ||
		 !vsb_range_ok(ring->avail, sizeof(struct vsb_packed_event)) ||
		 !vsb_range_ok(ring->used, sizeof(struct vsb_packed_event)))
		ring->fault = VSB_FAULT_RING_CONFIG;
	/* A ring refused has no descriptors: nothing indexes the id table. */
	if (ring->fault)
		ring->num = 0;
	return ring->fault;
}

/* vsb_ring_area() of a packed ring: the descriptor ring, both events. */
void vsb_packed_area(const struct vsb_ring *ring, unsigned int i, u64 *start,
		     u64 *len)
{
	*start = !i ? ring->desc : i == 1 ? ring->avail : ring->used;
	*len = !i ? (u64)ring->num * sizeof(struct vring_packed_desc) :
		    sizeof(struct vsb_packed_event);
}

/* Called with nr_heads, nr_staged and the notification state cleared. */
void vsb_packed_set_base(struct vsb_ring *ring, u32 base)
{
	u16 avail = base & (VSB_PACKED_WRAP - 1);
	u16 used = (base >> 16) & (VSB_PACKED_WRAP - 1);

	ring->last_avail = avail;
	ring->avail_wrap = base & VSB_PACKED_WRAP;
	ring->used_pos = used;
	ring->used_wrap = (base >> 16) & VSB_PACKED_WRAP;
	ring->used_idx = 0;
	ring->used_published = 0;
	ring->unsignalled = 0;
	ring->avail_hint = false;
	if (avail >= ring->num || used >= ring->num) {
		vsb_ring_fail(ring, VSB_FAULT_RING_CONFIG);
		return;
	}
	/* Nothing is in flight at a new base. */
	if (ring->id_descs)
		memset(ring->id_descs, 0,
		       min_t(u32, ring->num, ring->max_ids) *
			       sizeof(*ring->id_descs));
}

u32 vsb_packed_base(const struct vsb_ring *ring)
{
	return vsb_packed_off_wrap(ring->last_avail, ring->avail_wrap) |
	       (u32)vsb_packed_off_wrap(ring->used_pos, ring->used_wrap) << 16;
}

/*
 * The device area's counterpart of the split ring's used->flags: kicks
 * enabled, written over whatever the memory held (see vsb_ring_start()).
 */
int vsb_packed_start(struct vsb_ring *ring)
{
	struct vsb_packed_event ev = {
		.off_wrap = 0,
		.flags = cpu_to_le16(VRING_PACKED_EVENT_FLAG_ENABLE),
	};

	if (vsb_mem_write(&ring->mem, ring->used, &ev, sizeof(ev)))
		return vsb_ring_fail(ring, VSB_FAULT_RING_ACCESS);
	ring->started = true;
	return 0;
}

static int vsb_packed_read_flags(struct vsb_ring *ring, u16 pos, u16 *flags)
{
	return vsb_ring_read16(ring, vsb_packed_flags_addr(ring, pos), flags);
}

/*
 * The buffers of an indirect table. Only F_WRITE counts in its entries;
 * the spec makes the device ignore their other flags and their ids.
 */
static int vsb_packed_walk_table(struct vsb_ring *ring, struct vsb_chain *chain,
				 u64 table, u32 n, bool *seen_writable)
{
	struct vring_packed_desc batch[VSB_PACKED_TABLE_BATCH];
	u32 i, j;

	for (i = 0; i < n; i += j) {
		u32 chunk = min_t(u32, n - i, VSB_PACKED_TABLE_BATCH);

		if (vsb_mem_read(&ring->mem, vsb_packed_desc_addr(table, i),
				 batch, chunk * sizeof(*batch)))
			return vsb_ring_fail(ring, VSB_FAULT_BUFFER_ACCESS);
		for (j = 0; j < chunk; j++) {
			const struct vring_packed_desc *d = &batch[j];
			bool writable = le16_to_cpu(d->flags) &
					VRING_DESC_F_WRITE;

			if (vsb_chain_add(ring, chain, le64_to_cpu(d->addr),
					  le32_to_cpu(d->len), writable,
					  seen_writable))
				return -EIO;
		}
	}
	return 0;
}

/* One ring descriptor's buffer, or the indirect table it points to. */
static int vsb_packed_add_desc(struct vsb_ring *ring, struct vsb_chain *chain,
			       const struct vring_packed_desc *desc, bool first,
			       bool *seen_writable)
{
	u16 flags = le16_to_cpu(desc->flags);
	u64 addr = le64_to_cpu(desc->addr);
	u32 len = le32_to_cpu(desc->len);
	enum vsb_fault fault;

	if (!(flags & VRING_DESC_F_INDIRECT))
		return vsb_chain_add(ring, chain, addr, len,
				     flags & VRING_DESC_F_WRITE, seen_writable);
	/* An indirect table is a whole chain: never part of a longer one. */
	fault = first ? vsb_indirect_check(ring, addr, len, flags, false) :
			VSB_FAULT_INDIRECT_NEXT;
	if (fault)
		return vsb_ring_fail(ring, fault);
	return vsb_packed_walk_table(ring, chain, addr,
				     len / sizeof(struct vring_packed_desc),
				     seen_writable);
}

/*
 * Whether the descriptor after the chain just taken is available, from
 * @next if the walk read it along with the chain, else read now: the run
 * loop asks before it publishes a lone command (vsb_ring_has_announced()),
 * and the next pop takes flags seen available from here instead of
 * reading them again. Flags that say available were written by the
 * driver, and stay so until the device uses the descriptor.
 */
static void vsb_packed_look_ahead(struct vsb_ring *ring,
				  const struct vring_packed_desc *next)
{
	__le16 raw = 0;
	u16 flags;

	/* A read that fails is the next pop's to report. */
	if (next)
		raw = next->flags;
	else
		vsb_mem_read(&ring->mem,
			     vsb_packed_flags_addr(ring, ring->last_avail),
			     &raw, sizeof(raw));
	flags = le16_to_cpu(raw);
	ring->avail_hint = vsb_packed_avail(flags, ring->avail_wrap);
}

/*
 * Walk the chain at last_avail, whose head was seen available. The first
 * bad buffer faults the ring but the walk goes on to the chain's last
 * descriptor for its id; a broken structure stops it with no id.
 */
static int vsb_packed_walk(struct vsb_ring *ring, struct vsb_chain *chain)
{
	/* Descriptors are read two at a time: chains are mostly short. */
	struct vring_packed_desc pair[2];
	u16 pair_pos = U16_MAX, pair_n = 0;
	u16 pos = ring->last_avail;
	bool wrap = ring->avail_wrap;
	bool seen_writable = false;
	u16 n = 0, id;

	for (;;) {
		const struct vring_packed_desc *desc;
		u16 flags;

		if (n == ring->num)
			return vsb_ring_fail(ring, VSB_FAULT_CHAIN_LOOP);
		/* The device's limit ("MAY limit the number of buffers"). */
		if (n == VSB_PACKED_CHAIN_MAX)
			return vsb_ring_fail(ring, VSB_FAULT_CHAIN_LONG);
		if (pair_n == 2 && pos == pair_pos + 1) {
			desc = &pair[1];
		} else {
			pair_n = pos + 1 < ring->num ? 2 : 1;
			pair_pos = pos;
			if (vsb_mem_read(&ring->mem,
					 vsb_packed_desc_addr(ring->desc, pos),
					 pair, pair_n * sizeof(*pair)))
				return vsb_ring_fail(ring,
						     VSB_FAULT_RING_ACCESS);
			desc = &pair[0];
		}
		flags = le16_to_cpu(desc->flags);
		if (n && !vsb_packed_avail(flags, wrap))
			return vsb_ring_fail(ring, VSB_FAULT_PACKED_FLAGS);
		/* After a bad buffer only the structure is followed. */
		if (!ring->fault)
			vsb_packed_add_desc(ring, chain, desc, !n,
					    &seen_writable);
		n++;
		vsb_packed_step(ring, &pos, &wrap, 1);
		if (!(flags & VRING_DESC_F_NEXT)) {
			id = le16_to_cpu(desc->id);
			break;
		}
	}
	if (id >= ring->num)
		return vsb_ring_fail(ring, VSB_FAULT_ID_RANGE);
	if (ring->id_descs[id])
		return vsb_ring_fail(ring, VSB_FAULT_ID_IN_USE);
	ring->id_descs[id] = n;
	chain->head = id;
	ring->last_avail = pos;
	ring->avail_wrap = wrap;
	if (!ring->fault)
		vsb_packed_look_ahead(ring, pair_n == 2 && pos == pair_pos + 1 ?
						    &pair[1] :
						    NULL);
	return ring->fault ? -EIO : 1;
}

/*
 * The head descriptor's flags decide; its contents are read only after
 * them. Return as vsb_ring_pop(), with chain->head the buffer id.
 */
int vsb_packed_pop(struct vsb_ring *ring, struct vsb_chain *chain)
{
	u16 flags;

	if (!ring->avail_hint) {
		if (vsb_packed_read_flags(ring, ring->last_avail, &flags))
			return -EIO;
		if (vsb_packed_used_now(flags, ring->avail_wrap))
			return vsb_ring_fail(ring, VSB_FAULT_PACKED_FLAGS);
		if (!vsb_packed_avail(flags, ring->avail_wrap))
			return 0;
	}
	ring->avail_hint = false;
	/*
	 * Read the descriptors only after the flags making them available
	 * (read here or by the look-ahead).
	 */
	vsb_rmb();
	return vsb_packed_walk(ring, chain);
}

/*
 * Write the staged used buffers, each at the first descriptor of the
 * chain it completes. The first one's flags go last: until the driver sees
 * them it looks at no later descriptor, so one barrier covers them all.
 * Nothing changes until all of it is written: a failed flush (a ring the
 * driver mapped partly read-only) is written again whole, at the same
 * places, by the next one, as on a split ring.
 */
static int vsb_packed_flush(struct vsb_ring *ring)
{
	u16 pos = ring->used_pos, first_pos = ring->used_pos;
	bool wrap = ring->used_wrap;
	u16 first_flags = 0;
	u32 slots = 0;
	u16 i;

	for (i = 0; i < ring->nr_staged; i++) {
		u32 id = __virtio32_to_cpu(true, ring->staged[i].id);
		u32 len = __virtio32_to_cpu(true, ring->staged[i].len);
		u16 descs = ring->id_descs[id] & ~VSB_RING_ID_STAGED;
		u16 flags = wrap ? VSB_PACKED_AVAIL | VSB_PACKED_USED : 0;
		struct vsb_packed_used used = {
			.len = cpu_to_le32(len),
			.id = cpu_to_le16(id),
			/* "whether any data has been written" */
			.flags = cpu_to_le16(flags |
					     (len ? VRING_DESC_F_WRITE : 0)),
		};
		/* The first buffer's flags are written after the barrier. */
		u32 bytes = i ? sizeof(used) :
				offsetof(struct vsb_packed_used, flags);

		if (vsb_mem_write(&ring->mem,
				  vsb_packed_desc_addr(ring->desc, pos) +
					  VSB_PACKED_LEN_OFF,
				  &used, bytes))
			return vsb_ring_fail(ring, VSB_FAULT_RING_ACCESS);
		if (!i)
			first_flags = le16_to_cpu(used.flags);
		slots += descs;
		vsb_packed_step(ring, &pos, &wrap, descs);
	}
	/*
	 * Every used buffer after the first, and the first's id and length,
	 * before the flags that show the driver the first; pairs with the
	 * driver's read barrier between those flags and the rest.
	 */
	vsb_wmb();
	if (vsb_ring_write16(ring, vsb_packed_flags_addr(ring, first_pos),
			     first_flags))
		return -EIO;
	/* Written whole: the ids are the driver's again. */
	for (i = 0; i < ring->nr_staged; i++)
		ring->id_descs[__virtio32_to_cpu(true, ring->staged[i].id)] = 0;
	ring->used_pos = pos;
	ring->used_wrap = wrap;
	ring->unsignalled += slots;
	ring->nr_staged = 0;
	ring->used_published = ring->used_idx;
	return 0;
}

/*
 * Stage a used buffer for @id, a chain vsb_packed_pop() took and not yet
 * staged. A full stage is written out, and so seen by the driver, at
 * once: on a packed ring writing a used buffer is publishing it.
 */
int vsb_packed_push(struct vsb_ring *ring, u16 id, u32 len)
{
	struct vring_used_elem *elem;

	if (!ring->id_descs || id >= ring->num || !ring->id_descs[id] ||
	    (ring->id_descs[id] & VSB_RING_ID_STAGED))
		return -EINVAL;
	if (ring->nr_staged == VSB_RING_BATCH && vsb_packed_flush(ring))
		return -EIO;
	ring->id_descs[id] |= VSB_RING_ID_STAGED;
	elem = &ring->staged[ring->nr_staged++];
	elem->id = __cpu_to_virtio32(true, id);
	elem->len = __cpu_to_virtio32(true, len);
	ring->used_idx++;
	return 0;
}

int vsb_packed_publish(struct vsb_ring *ring)
{
	if (!ring->nr_staged)
		return 0;
	return vsb_packed_flush(ring);
}

/*
 * The driver area's flags: ENABLE or DISABLE, or with EVENT_IDX a
 * descriptor (offset and wrap counter) whose use the driver wants to hear
 * of. Positions are counted over two laps, so a wrap counter becomes the
 * high half of the count: the event is due when it lies among the
 * descriptors used since the last decision.
 */
bool vsb_packed_need_notify(struct vsb_ring *ring)
{
	struct vsb_packed_event ev;
	u32 laps = 2 * ring->num;
	u32 seen = ring->unsignalled;
	u32 now, event;
	u16 off_wrap, flags;

	/* Publish the used flags before reading the driver's event area. */
	vsb_mb();
	ring->unsignalled = 0;
	if (vsb_mem_read(&ring->mem, ring->avail, &ev, sizeof(ev))) {
		vsb_ring_fail(ring, VSB_FAULT_RING_ACCESS);
		return true;
	}
	flags = le16_to_cpu(ev.flags);
	if (flags == VRING_PACKED_EVENT_FLAG_DISABLE)
		return false;
	/* ENABLE, and what a driver may not write (DESC without EVENT_IDX) */
	if (flags != VRING_PACKED_EVENT_FLAG_DESC || !ring->event_idx)
		return true;
	if (seen >= ring->num)
		return true;
	off_wrap = le16_to_cpu(ev.off_wrap);
	now = ring->used_pos + (ring->used_wrap ? 0 : ring->num);
	event = (off_wrap & (VSB_PACKED_WRAP - 1)) +
		(off_wrap & VSB_PACKED_WRAP ? 0 : ring->num);
	/* An offset past the ring matches no descriptor. */
	if ((off_wrap & (VSB_PACKED_WRAP - 1)) >= ring->num)
		return false;
	return (now + laps - 1 - event) % laps < seen;
}

static int vsb_packed_write_event(struct vsb_ring *ring, u16 off_wrap,
				  u16 flags)
{
	struct vsb_packed_event ev = {
		.off_wrap = cpu_to_le16(off_wrap),
		.flags = cpu_to_le16(flags),
	};

	if (vsb_mem_write(&ring->mem, ring->used, &ev, sizeof(ev)))
		return vsb_ring_fail(ring, VSB_FAULT_RING_ACCESS);
	return 0;
}

/* Whether the descriptor at last_avail is available: 1, 0 or -EIO. */
static int vsb_packed_next_avail(struct vsb_ring *ring)
{
	u16 flags;

	if (vsb_packed_read_flags(ring, ring->last_avail, &flags))
		return -EIO;
	/* A bad head is the next pop's to report. */
	return vsb_packed_avail(flags, ring->avail_wrap) ||
	       vsb_packed_used_now(flags, ring->avail_wrap);
}

/* As vsb_ring_disable_kicks(): the device area says DISABLE. */
int vsb_packed_disable_kicks(struct vsb_ring *ring)
{
	if (vsb_packed_write_event(ring, 0, VRING_PACKED_EVENT_FLAG_DISABLE))
		return -EIO;
	ring->kicks_off = true;
	return 0;
}

/*
 * As vsb_ring_enable_kicks(): ENABLE, or with EVENT_IDX a kick for the
 * descriptor at last_avail only.
 */
int vsb_packed_enable_kicks(struct vsb_ring *ring)
{
	u16 next = vsb_packed_off_wrap(ring->last_avail, ring->avail_wrap);
	int ret;

	if (ring->event_idx)
		ret = vsb_packed_write_event(ring, next,
					     VRING_PACKED_EVENT_FLAG_DESC);
	else
		ret = vsb_packed_write_event(ring, 0,
					     VRING_PACKED_EVENT_FLAG_ENABLE);
	if (ret)
		return -EIO;
	ring->kicks_off = false;
	/*
	 * Publish the device area before looking at the next descriptor;
	 * pairs with the driver's barrier between its flags store and its
	 * read of the device area.
	 */
	vsb_mb();
	return vsb_packed_next_avail(ring);
}

int vsb_packed_poll(struct vsb_ring *ring)
{
	if (ring->avail_hint)
		return 1;
	return vsb_packed_next_avail(ring);
}
