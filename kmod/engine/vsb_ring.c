// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device side of a split virtqueue (virtio 1.x, "Split Virtqueues").
 *
 * The layout is <linux/virtio_ring.h>'s: a table of num struct vring_desc,
 * then struct vring_avail and struct vring_used, each followed by the
 * event index of the other side. All of it is little-endian: VERSION_1 is
 * required, so there is no legacy byte order.
 *
 * A chain that fails validation after its head was taken is reported with
 * chain->head set, so the caller can still complete it before it puts the
 * device in NEEDS_RESET: a driver waiting for that buffer sees it come back
 * rather than hanging.
 */

#include "vsb_ring_priv.h"

#define VSB_AVAIL_IDX_OFF offsetof(struct vring_avail, idx)
#define VSB_AVAIL_RING_OFF offsetof(struct vring_avail, ring)
#define VSB_USED_FLAGS_OFF offsetof(struct vring_used, flags)
#define VSB_USED_IDX_OFF offsetof(struct vring_used, idx)
#define VSB_USED_RING_OFF offsetof(struct vring_used, ring)

static u64 vsb_avail_size(u16 num)
{
	return VSB_AVAIL_RING_OFF + 2ULL * num + 2;
}

static u64 vsb_used_size(u16 num)
{
	return VSB_USED_RING_OFF + sizeof(struct vring_used_elem) * num + 2;
}

/* Descriptor @i of the table at @table, the ring's or an indirect one. */
static u64 vsb_desc_addr(u64 table, u32 i)
{
	return table + (u64)i * sizeof(struct vring_desc);
}

/* Used ring entry @pos; entry num is where avail_event lives. */
static u64 vsb_used_elem_addr(const struct vsb_ring *ring, u32 pos)
{
	return ring->used + VSB_USED_RING_OFF +
	       (u64)pos * sizeof(struct vring_used_elem);
}

/*
 * Check the driver's queue size and ring addresses (alignment from the
 * "Virtqueues" section of each layout) and start with an empty ring at
 * @base. Guest memory is not touched here: see vsb_ring_start().
 */
enum vsb_fault vsb_ring_setup(struct vsb_ring *ring, u16 num, u64 desc,
			      u64 avail, u64 used, u32 base)
{
	ring->fault = VSB_FAULT_NONE;
	ring->started = false;
	ring->kicks_off = false;
	ring->num = num;
	ring->desc = desc;
	ring->avail = avail;
	ring->used = used;
	if (ring->packed) {
		/* A refused ring has no descriptors to index the id table. */
		if (vsb_packed_setup(ring) == VSB_FAULT_NONE)
			vsb_ring_set_base(ring, base);
		return ring->fault;
	}
	vsb_ring_set_base(ring, base);

	if (!num || (num & (num - 1)))
		ring->fault = VSB_FAULT_RING_CONFIG;
	else if ((desc & 15) || (avail & 1) || (used & 3))
		ring->fault = VSB_FAULT_RING_CONFIG;
	else if (!vsb_range_ok(desc, (u64)num * sizeof(struct vring_desc)) ||
		 !vsb_range_ok(avail, vsb_avail_size(num)) ||
		 !vsb_range_ok(used, vsb_used_size(num)))
		ring->fault = VSB_FAULT_RING_CONFIG;
	return ring->fault;
}

/*
 * Start at @base (see VSB_RING_BASE_PACKED_FRESH) with nothing in flight:
 * on a split ring the used index follows the avail index, as vhost has it.
 */
void vsb_ring_set_base(struct vsb_ring *ring, u32 base)
{
	ring->nr_heads = 0;
	ring->win_n = 0;
	ring->data_len = 0;
	ring->nr_staged = 0;
	ring->signalled_used_valid = false;
	if (ring->packed) {
		vsb_packed_set_base(ring, base);
	} else {
		ring->last_avail = (u16)base;
		ring->avail_idx = (u16)base;
		ring->used_idx = (u16)base;
		ring->used_published = (u16)base;
	}
	ring->used_counted = ring->used_published;
}

/**
 * vsb_ring_area - one of the ring's own areas
 * @ring: the ring, set up
 * @i: which, below VSB_RING_AREAS: the descriptor table (or ring), the
 *	driver area (avail ring, driver event), the device area (used ring,
 *	device event)
 * @start: its device address
 * @len: its size in bytes
 *
 * The memory a ring's host may keep at hand for as long as the ring lives,
 * as the module does (kmod/vdpa/vsb_pin.c). No area wraps: setup checked.
 *
 * Return: false if the ring has no such area (refused at setup, or none).
 */
bool vsb_ring_area(const struct vsb_ring *ring, unsigned int i, u64 *start,
		   u64 *len)
{
	if (ring->fault || !ring->num || i >= VSB_RING_AREAS)
		return false;
	if (ring->packed) {
		vsb_packed_area(ring, i, start, len);
		return true;
	}
	switch (i) {
	case 0:
		*start = ring->desc;
		*len = (u64)ring->num * sizeof(struct vring_desc);
		break;
	case 1:
		*start = ring->avail;
		*len = vsb_avail_size(ring->num);
		break;
	default:
		*start = ring->used;
		*len = vsb_used_size(ring->num);
		break;
	}
	return true;
}

/* Whether @addr lies in one of the ring's own areas. */
bool vsb_ring_holds(const struct vsb_ring *ring, u64 addr)
{
	unsigned int i;
	u64 start, len;

	for (i = 0; i < VSB_RING_AREAS; i++)
		if (vsb_ring_area(ring, i, &start, &len) && addr - start < len)
			return true;
	return false;
}

/* Where the ring stands now, as vsb_ring_set_base() takes it. */
u32 vsb_ring_base(const struct vsb_ring *ring)
{
	if (ring->packed)
		return vsb_packed_base(ring);
	return ring->last_avail;
}

/**
 * vsb_ring_start - write what the device owes a ring before serving it
 * @ring: the ring
 *
 * The device must keep used->flags at 0 or VRING_USED_F_NO_NOTIFY ("Used
 * Buffer Notification Suppression"), and a driver without EVENT_IDX should
 * not kick while it reads NO_NOTIFY there. This device always wants
 * kicks, so it writes 0 over whatever the memory held, once per
 * vsb_ring_setup(): on the first pop, publish or kick re-arm, or here for
 * a ring its caller may not pop for a while (a receive queue no frame has
 * reached). Not in vsb_ring_setup() itself: the module calls that from
 * the config path, where guest memory may not be mapped yet and is never
 * touched. A used ring the device cannot write faults the ring, like any
 * other ring access.
 *
 * Return: 0, or -EIO with ring->fault set.
 */
int vsb_ring_start(struct vsb_ring *ring)
{
	if (ring->started)
		return 0;
	/* Set up with unusable addresses, say: nothing to write to. */
	if (ring->fault)
		return -EIO;
	if (ring->packed)
		return vsb_packed_start(ring);
	if (vsb_ring_write16(ring, ring->used + VSB_USED_FLAGS_OFF, 0))
		return -EIO;
	ring->started = true;
	return 0;
}

/*
 * Walk the chain starting at descriptor chain->head. Each table (the ring's
 * or an indirect one) is walked at most once per entry, which bounds loops;
 * buffers in all are bounded by the queue size.
 */
static int vsb_ring_walk(struct vsb_ring *ring, struct vsb_chain *chain)
{
	enum vsb_fault table_fault = VSB_FAULT_RING_ACCESS;
	u64 table = ring->desc;
	u32 table_num = ring->num;
	u32 steps = 0;
	bool in_indirect = false;
	u32 i = chain->head;
	bool seen_writable = false;
	/* ring->pair[1] is the entry after pair[0], read along with it. */
	struct vring_desc *pair = ring->pair;
	u32 pair_next = U32_MAX;

	for (;;) {
		struct vring_desc desc;
		u16 flags;
		u64 addr;
		u32 len;

		if (++steps > table_num)
			return vsb_ring_fail(ring, VSB_FAULT_CHAIN_LOOP);
		if (i == pair_next) {
			desc = pair[1];
		} else if (!in_indirect && i - ring->win_first < ring->win_n) {
			desc = ring->win->desc[i - ring->win_first];
		} else {
			/* Chains are mostly consecutive: read two at once. */
			u32 n = i + 1 < table_num ? 2 : 1;

			if (vsb_mem_read(&ring->mem, vsb_desc_addr(table, i),
					 pair, n * sizeof(*pair)))
				return vsb_ring_fail(ring, table_fault);
			desc = pair[0];
			pair_next = n == 2 ? i + 1 : U32_MAX;
		}
		flags = __virtio16_to_cpu(true, desc.flags);
		addr = __virtio64_to_cpu(true, desc.addr);
		len = __virtio32_to_cpu(true, desc.len);

		if (flags & VRING_DESC_F_INDIRECT) {
			enum vsb_fault fault;

			fault = vsb_indirect_check(ring, addr, len, flags,
						   in_indirect);
			if (fault)
				return vsb_ring_fail(ring, fault);
			/* The spec makes the device ignore F_WRITE here. */
			table = addr;
			table_num = len / sizeof(struct vring_desc);
			table_fault = VSB_FAULT_BUFFER_ACCESS;
			in_indirect = true;
			pair_next = U32_MAX;
			steps = 0;
			i = 0;
			continue;
		}

		if (vsb_chain_add(ring, chain, addr, len,
				  flags & VRING_DESC_F_WRITE, &seen_writable))
			return -EIO;
		if (!(flags & VRING_DESC_F_NEXT))
			return 0;
		i = __virtio16_to_cpu(true, desc.next);
		if (i >= table_num)
			return vsb_ring_fail(ring, VSB_FAULT_NEXT_RANGE);
	}
}

/*
 * The heads' own buffers, when each is one readable buffer (a command's
 * header and data in one, as QEMU and vdpactl-batch frame them) and all
 * lie within VSB_RING_DATA_WINDOW bytes: one access for the batch.
 */
static void vsb_ring_read_data(struct vsb_ring *ring, const __le16 *heads,
			       u16 n)
{
	u64 lo = U64_MAX, last = 0;
	u16 i;

	for (i = 0; i < n; i++) {
		const struct vring_desc *d =
			&ring->win->desc[le16_to_cpu(heads[i]) -
					 ring->win_first];
		u16 flags = __virtio16_to_cpu(true, d->flags);
		u64 addr = __virtio64_to_cpu(true, d->addr);
		u32 len = __virtio32_to_cpu(true, d->len);

		if ((flags & (VRING_DESC_F_WRITE | VRING_DESC_F_INDIRECT)) ||
		    !len || !vsb_range_ok(addr, len))
			return;
		lo = min_t(u64, lo, addr);
		last = max_t(u64, last, addr + len - 1);
	}
	if (last - lo >= VSB_RING_DATA_WINDOW ||
	    vsb_mem_read(&ring->mem, lo, ring->win->data, last - lo + 1))
		return;
	ring->data_addr = lo;
	ring->data_len = last - lo + 1;
}

/*
 * Read, in one access, the table entries from the lowest of the @n heads
 * just read to the one after the highest, if they are few, then the
 * heads' buffers (vsb_ring_read_data()): a driver's free list keeps its
 * chains close together, and a driver its commands. Available chains,
 * descriptors and readable buffers, are the device's: the driver alters
 * none of them until the device has used them ("The driver MUST NOT alter
 * a descriptor chain after it has been made available"), so what is read
 * now is what a read at the walk or the command's fetch would give.
 * Nothing is checked or failed here: the walk checks what it takes from
 * the window as it checks what it reads itself, and reads itself what is
 * not in it.
 */
static void vsb_ring_read_window(struct vsb_ring *ring, u16 n)
{
	const __le16 *heads = ring->heads + VSB_RING_BATCH - n;
	u16 lo = le16_to_cpu(heads[0]), hi = lo, i;
	u32 span;

	ring->win_n = 0;
	ring->data_len = 0;
	/* One head alone is read in a pair, as the walk reads. */
	if (n < 2 || !ring->win)
		return;
	for (i = 1; i < n; i++) {
		lo = min_t(u16, lo, le16_to_cpu(heads[i]));
		hi = max_t(u16, hi, le16_to_cpu(heads[i]));
	}
	/* A head out of range fails its pop. */
	if (hi >= ring->num)
		return;
	span = min_t(u32, hi - lo + 2, ring->num - lo);
	if (span > VSB_RING_DESC_WINDOW ||
	    vsb_mem_read(&ring->mem, vsb_desc_addr(ring->desc, lo),
			 ring->win->desc, span * sizeof(struct vring_desc)))
		return;
	ring->win_first = lo;
	ring->win_n = span;
	vsb_ring_read_data(ring, heads, n);
}

/*
 * Read the heads the driver has made available since last_avail, up to
 * VSB_RING_BATCH and the end of the ring, into ring->heads (right-aligned,
 * so the next one is heads[VSB_RING_BATCH - nr_heads]). The avail idx is
 * read again only once everything it announced has been taken. Out of
 * line: once per batch, not per pop.
 */
static noinline int vsb_ring_fetch_heads(struct vsb_ring *ring)
{
	u16 pos = ring->last_avail & (ring->num - 1);
	u16 n;

	if (ring->avail_idx == ring->last_avail) {
		u16 idx;

		if (vsb_ring_read16(ring, ring->avail + VSB_AVAIL_IDX_OFF,
				    &idx))
			return -EIO;
		if (idx == ring->last_avail)
			return 0;
		if ((u16)(idx - ring->last_avail) > ring->num)
			return vsb_ring_fail(ring, VSB_FAULT_AVAIL_IDX);
		ring->avail_idx = idx;
		/* Read ring entries only after the index announcing them. */
		vsb_rmb();
	}
	n = min_t(u16, ring->avail_idx - ring->last_avail, VSB_RING_BATCH);
	n = min_t(u16, n, ring->num - pos);
	if (vsb_mem_read(&ring->mem,
			 ring->avail + VSB_AVAIL_RING_OFF + 2ULL * pos,
			 ring->heads + VSB_RING_BATCH - n, 2 * n))
		return vsb_ring_fail(ring, VSB_FAULT_RING_ACCESS);
	ring->nr_heads = n;
	vsb_ring_read_window(ring, n);
	return 1;
}

/**
 * vsb_ring_pop - take the next available chain
 * @ring: the ring
 * @chain: filled with the chain; chain->segs must be set by the caller
 *
 * Return: 1 with a chain, 0 when the driver has offered nothing new, or
 * -EIO on a driver error (ring->fault says which). A chain whose head was
 * taken before the error has chain->head set and chain->nr_out/nr_in
 * describing what was valid; the head is then ring->last_avail's
 * predecessor and still owed a used entry. -EIO without a head taken
 * leaves chain->head at U16_MAX.
 */
int vsb_ring_pop(struct vsb_ring *ring, struct vsb_chain *chain)
{
	int ret;

	chain->head = U16_MAX;
	chain->nr_out = 0;
	chain->nr_in = 0;
	chain->out_len = 0;
	chain->in_len = 0;
	if (ring->fault || (!ring->started && vsb_ring_start(ring)))
		return -EIO;
	if (ring->packed)
		return vsb_packed_pop(ring, chain);

	if (!ring->nr_heads) {
		ret = vsb_ring_fetch_heads(ring);
		if (ret <= 0)
			return ret;
	}
	chain->head = le16_to_cpu(ring->heads[VSB_RING_BATCH - ring->nr_heads]);
	if (chain->head >= ring->num) {
		chain->head = U16_MAX;
		return vsb_ring_fail(ring, VSB_FAULT_HEAD_RANGE);
	}
	ring->nr_heads--;
	ring->last_avail++;
	if (vsb_ring_walk(ring, chain))
		return -EIO;
	return 1;
}

/* Write the staged used entries: one access, two where the ring wraps. */
static int vsb_ring_flush_used(struct vsb_ring *ring)
{
	u16 first = ring->used_idx - ring->nr_staged;
	u16 done = 0;

	while (done < ring->nr_staged) {
		u16 pos = (u16)(first + done) & (ring->num - 1);
		u16 n = min((u16)(ring->nr_staged - done),
			    (u16)(ring->num - pos));

		if (vsb_mem_write(&ring->mem, vsb_used_elem_addr(ring, pos),
				  ring->staged + done,
				  n * sizeof(*ring->staged)))
			return vsb_ring_fail(ring, VSB_FAULT_RING_ACCESS);
		done += n;
	}
	ring->nr_staged = 0;
	return 0;
}

/* vsb_ring_push() of a packed ring, or of a split one with a full stage. */
int vsb_ring_push_slow(struct vsb_ring *ring, u16 head, u32 len)
{
	if (ring->packed)
		return vsb_packed_push(ring, head, len);
	if (vsb_ring_flush_used(ring))
		return -EIO;
	vsb_ring_stage(ring, head, len);
	return 0;
}

/*
 * Give back, unused, a chain whose walk failed (or that cannot be served),
 * so a driver waiting for it is not left hanging; no-op without a head.
 */
void vsb_ring_return_chain(struct vsb_ring *ring, const struct vsb_chain *chain)
{
	if (chain->head != U16_MAX)
		vsb_ring_push(ring, chain->head, 0);
}

/* Expose every pushed used entry to the driver with one used idx write. */
int vsb_ring_publish(struct vsb_ring *ring)
{
	if (ring->used_idx == ring->used_published)
		return 0;
	if (vsb_ring_start(ring))
		return -EIO;
	if (ring->packed)
		return vsb_packed_publish(ring);
	if (ring->nr_staged && vsb_ring_flush_used(ring))
		return -EIO;
	/* Used entries must be visible before the index that covers them. */
	vsb_wmb();
	if (vsb_ring_write16(ring, ring->used + VSB_USED_IDX_OFF,
			     ring->used_idx))
		return -EIO;
	ring->used_published = ring->used_idx;
	return 0;
}

/*
 * Whether the driver wants a used buffer notification for what has been
 * published since the last decision ("Used Buffer Notification
 * Suppression"): with EVENT_IDX, exactly when used_event was passed;
 * otherwise unless VRING_AVAIL_F_NO_INTERRUPT is set.
 */
bool vsb_ring_need_notify(struct vsb_ring *ring)
{
	u16 old = ring->signalled_used;
	u16 new = ring->used_published;
	bool valid = ring->signalled_used_valid;
	u16 val;

	if (ring->packed)
		return vsb_packed_need_notify(ring);
	/* Publish used idx before reading the driver's suppression state. */
	vsb_mb();
	ring->signalled_used = new;
	ring->signalled_used_valid = true;
	if (ring->event_idx) {
		if (vsb_ring_read16(ring,
				    ring->avail + VSB_AVAIL_RING_OFF +
					    2ULL * ring->num,
				    &val))
			return true;
		return !valid || vring_need_event(val, new, old);
	}
	if (vsb_ring_read16(ring, ring->avail, &val))
		return true;
	return !(val & VRING_AVAIL_F_NO_INTERRUPT);
}

/* Whether the driver's avail idx is past last_avail: 1, 0 or -EIO. */
static int vsb_ring_avail_moved(struct vsb_ring *ring)
{
	u16 avail_idx;

	if (vsb_ring_read16(ring, ring->avail + VSB_AVAIL_IDX_OFF, &avail_idx))
		return -EIO;
	return avail_idx != ring->last_avail;
}

/**
 * vsb_ring_disable_kicks - tell the driver it need not kick for now
 * @ring: the ring
 *
 * For a device that is serving the ring, or watching its avail index
 * itself ("Available Buffer Notification Suppression"): without
 * EVENT_IDX the device sets VRING_USED_F_NO_NOTIFY; with it, it simply
 * leaves avail_event behind, which the driver has already passed. Only
 * a hint -- a driver may kick anyway -- so no barrier: the ordering that
 * matters is in vsb_ring_enable_kicks(). Written once until kicks are
 * enabled again.
 *
 * Return: 0, or -EIO on a ring error.
 */
int vsb_ring_disable_kicks(struct vsb_ring *ring)
{
	if (ring->fault || vsb_ring_start(ring))
		return -EIO;
	if (ring->kicks_off)
		return 0;
	if (ring->packed)
		return vsb_packed_disable_kicks(ring);
	if (!ring->event_idx &&
	    vsb_ring_write16(ring, ring->used + VSB_USED_FLAGS_OFF,
			     VRING_USED_F_NO_NOTIFY))
		return -EIO;
	ring->kicks_off = true;
	return 0;
}

/**
 * vsb_ring_enable_kicks - ask for a kick for the next available buffer
 * @ring: the ring
 *
 * With EVENT_IDX the driver kicks only when it passes avail_event, so the
 * device writes it; without, it clears VRING_USED_F_NO_NOTIFY if it set
 * it. Either way a buffer made available just before this call may have
 * gone without a kick, so the caller must look again when this returns 1.
 *
 * Return: 1 if buffers are available, 0 if not, -EIO on a ring error.
 */
int vsb_ring_enable_kicks(struct vsb_ring *ring)
{
	if (ring->fault || vsb_ring_start(ring))
		return -EIO;
	if (ring->packed)
		return vsb_packed_enable_kicks(ring);
	if (ring->event_idx) {
		if (vsb_ring_write16(ring, vsb_used_elem_addr(ring, ring->num),
				     ring->last_avail))
			return -EIO;
	} else if (ring->kicks_off &&
		   vsb_ring_write16(ring, ring->used + VSB_USED_FLAGS_OFF, 0)) {
		return -EIO;
	}
	ring->kicks_off = false;
	/*
	 * Publish avail_event or the cleared flag before looking at avail
	 * idx again; pairs with the driver's barrier between its avail idx
	 * store and its read of them.
	 */
	vsb_mb();
	return vsb_ring_avail_moved(ring);
}

/**
 * vsb_ring_poll - whether the driver has made buffers available
 * @ring: the ring
 *
 * For a device watching the ring instead of waiting for kicks: one read
 * of the avail index, checked by the next vsb_ring_pop().
 *
 * Return: 1 if buffers are available, 0 if not, -EIO on a ring error.
 */
int vsb_ring_poll(struct vsb_ring *ring)
{
	if (ring->fault || vsb_ring_start(ring))
		return -EIO;
	if (ring->packed)
		return vsb_packed_poll(ring);
	if (ring->avail_idx != ring->last_avail)
		return 1;
	return vsb_ring_avail_moved(ring);
}
