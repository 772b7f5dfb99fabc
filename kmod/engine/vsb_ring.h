/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device side of a virtqueue, split or packed, over guest memory reached
 * through struct vsb_mem. Every value read from the ring is checked before
 * use; a driver error is reported as an enum vsb_fault and sticks until
 * the ring is set up again. The callers see one interface: only
 * vsb_ring_setup()'s caller says which layout the ring has.
 */
#ifndef VSB_RING_H
#define VSB_RING_H

#include "vsb_mem.h"
#include "vsb_fault.h"

/*
 * Avail ring entries read, and used entries written, per guest memory
 * access: each access costs far more than the bytes it moves.
 */
#define VSB_RING_BATCH 32

/*
 * What a split ring reads in one access each along with a batch of heads
 * (vsb_ring_read_window()), when the batch's chains lie this close
 * together: descriptors (two a command), and the bytes of the heads' own
 * buffers (a command's header and data).
 */
#define VSB_RING_DESC_WINDOW (2 * VSB_RING_BATCH)
#define VSB_RING_DATA_WINDOW 512

struct vsb_ring_window {
	struct vring_desc desc[VSB_RING_DESC_WINDOW];
	u8 data[VSB_RING_DATA_WINDOW];
};

/*
 * Where a ring starts, as vhost's VHOST_SET_VRING_BASE has it. Split: the
 * avail index; the used index follows it. Packed: bits 0-14 the next
 * descriptor to take and bit 15 the Driver Ring Wrap Counter it is
 * expected with, bits 16-30 and 31 the same for the next used descriptor
 * and the Device Ring Wrap Counter. Both counters start at 1.
 */
#define VSB_RING_BASE_PACKED_FRESH 0x80008000U

/* See struct vsb_ring's id_descs; so a packed chain has under 2^15 descs. */
#define VSB_RING_ID_STAGED 0x8000

/* One guest buffer: a device address range. */
struct vsb_seg {
	u64 addr;
	u32 len;
};

/*
 * A descriptor chain taken from the avail ring: segs[0, nr_out) are the
 * readable buffers, segs[nr_out, nr_out + nr_in) the writable ones. The
 * owner provides segs with room for max_segs entries; the ring never takes
 * a chain of more than the queue size buffers.
 */
struct vsb_chain {
	u16 head; /* split: the head descriptor; packed: the buffer id */
	u16 nr_out;
	u16 nr_in;
	u32 out_len;
	u32 in_len;
	struct vsb_seg *segs;
	u32 max_segs;
};

struct vsb_ring {
	struct vsb_mem mem;
	/* packed: descriptor ring, driver and device event suppression */
	u64 desc;
	u64 avail;
	u64 used;
	u16 num;
	bool packed;
	bool event_idx;
	bool indirect;
	/*
	 * Packed, provided by the owner: per buffer id below max_ids, the
	 * descriptors its chain holds while in flight, 0 when free; with
	 * VSB_RING_ID_STAGED once its used buffer is pushed, until written.
	 */
	u16 *id_descs;
	u32 max_ids;
	/* used->flags written since setup: see vsb_ring_start(). */
	bool started;
	/* Kicks asked off (vsb_ring_disable_kicks()) and not re-armed. */
	bool kicks_off;
	/* Next avail ring entry to take; packed: next descriptor. */
	u16 last_avail;
	/* The driver's avail idx as last read. */
	u16 avail_idx;
	/*
	 * Heads read ahead: entries [last_avail, last_avail + nr_heads), as
	 * the avail ring holds them (read into place, not through a copy).
	 */
	u16 nr_heads;
	__le16 heads[VSB_RING_BATCH];
	/*
	 * Split, provided by the owner (NULL: none): what was read along with
	 * the heads, valid for the chains of those heads alone. Table entries
	 * [win_first, win_first + win_n), and the bytes at device addresses
	 * [data_addr, data_addr + data_len).
	 */
	struct vsb_ring_window *win;
	u16 win_first;
	u16 win_n;
	u32 data_len;
	u64 data_addr;
	/*
	 * Split: two table entries a walk read in one access, for the chain
	 * being walked alone. Here, not on the walk's stack, where the
	 * kernel would zero it and guard it on every pop.
	 */
	struct vring_desc pair[2];
	/*
	 * Next used ring entry to fill, and the used idx the driver sees;
	 * packed: used buffers pushed, and made visible, counted the same way.
	 */
	u16 used_idx;
	u16 used_published;
	/*
	 * The used idx as of the last vsb_ring_take_published(). Not
	 * used_published: a packed ring publishes a full stage as soon as
	 * it is written, in vsb_ring_push().
	 */
	u16 used_counted;
	/* Used entries [used_idx - nr_staged, used_idx), not yet written. */
	u16 nr_staged;
	struct vring_used_elem staged[VSB_RING_BATCH];
	/* EVENT_IDX: used idx at the last notification decision. */
	u16 signalled_used;
	bool signalled_used_valid;
	/* Packed: the wrap counters that go with last_avail and used_pos. */
	bool avail_wrap;
	bool used_wrap;
	/* Packed: next descriptor a used buffer is written to. */
	u16 used_pos;
	/* Packed: descriptors used since the last notification decision. */
	u32 unsignalled;
	/* Packed: the descriptor at last_avail looked available when read. */
	bool avail_hint;
	enum vsb_fault fault;
};

enum vsb_fault vsb_ring_setup(struct vsb_ring *ring, u16 num, u64 desc,
			      u64 avail, u64 used, u32 base);
void vsb_ring_set_base(struct vsb_ring *ring, u32 base);
u32 vsb_ring_base(const struct vsb_ring *ring);
/* A ring's own areas (vsb_ring_area()): as many as it may access in place. */
#define VSB_RING_AREAS VSB_MEM_DIRECT
bool vsb_ring_area(const struct vsb_ring *ring, unsigned int i, u64 *start,
		   u64 *len);
bool vsb_ring_holds(const struct vsb_ring *ring, u64 addr);
int vsb_ring_start(struct vsb_ring *ring);
int vsb_ring_pop(struct vsb_ring *ring, struct vsb_chain *chain);

/* Whether chains the driver announced at the last look are left to take. */
static inline bool vsb_ring_has_announced(const struct vsb_ring *ring)
{
	if (ring->packed)
		return ring->avail_hint;
	return ring->avail_idx != ring->last_avail;
}

/* Stage a split ring's used entry; the stage has room. */
static inline void vsb_ring_stage(struct vsb_ring *ring, u16 head, u32 len)
{
	struct vring_used_elem *elem = &ring->staged[ring->nr_staged++];

	elem->id = __cpu_to_virtio32(true, head);
	elem->len = __cpu_to_virtio32(true, len);
	ring->used_idx++;
}

int vsb_ring_push_slow(struct vsb_ring *ring, u16 head, u32 len);

/**
 * vsb_ring_push - fill the next used entry; the driver sees it only after
 * vsb_ring_publish()
 * @ring: the ring
 * @head: the chain's head, as taken by vsb_ring_pop()
 * @len: bytes written to the chain's writable buffers
 *
 * Inline: a split ring stages the entry, to be written with the others.
 *
 * Return: 0, or -EIO with ring->fault set.
 */
static inline int vsb_ring_push(struct vsb_ring *ring, u16 head, u32 len)
{
	if (ring->packed || ring->nr_staged == VSB_RING_BATCH)
		return vsb_ring_push_slow(ring, head, len);
	vsb_ring_stage(ring, head, len);
	return 0;
}

int vsb_ring_publish(struct vsb_ring *ring);

/*
 * Used buffers the driver can see that no call before this one counted:
 * what a notification decision (coalescing's max_packets) is about.
 */
static inline u16 vsb_ring_take_published(struct vsb_ring *ring)
{
	u16 n = ring->used_published - ring->used_counted;

	ring->used_counted = ring->used_published;
	return n;
}

bool vsb_ring_need_notify(struct vsb_ring *ring);
int vsb_ring_disable_kicks(struct vsb_ring *ring);
int vsb_ring_enable_kicks(struct vsb_ring *ring);
int vsb_ring_poll(struct vsb_ring *ring);
void vsb_ring_return_chain(struct vsb_ring *ring,
			   const struct vsb_chain *chain);
int vsb_chain_copy(const struct vsb_ring *ring, const struct vsb_chain *chain,
		   bool write, u32 offset, void *buf, u32 len);

/*
 * Bytes the ring read along with the chain's head (vsb_ring_read_window()),
 * copied to @buf: false unless it holds all of [addr, addr + len).
 */
static inline bool vsb_chain_read_window(const struct vsb_ring *ring, u64 addr,
					 void *buf, u32 len)
{
	u64 off = addr - ring->data_addr;

	if (off >= ring->data_len || len > ring->data_len - off)
		return false;
	memcpy(buf, ring->win->data + off, len);
	return true;
}

/*
 * Read [offset, offset + len) of the chain's readable buffers into @buf:
 * 0, -EINVAL past their end, or the memory's error. Inline for what a
 * command reads at all (header, ack, a few data bytes): one buffer.
 */
static inline int vsb_chain_read(const struct vsb_ring *ring,
				 const struct vsb_chain *chain, u32 offset,
				 void *buf, u32 len)
{
	const struct vsb_seg *seg = chain->segs;
	u64 addr;

	if (!chain->nr_out || offset >= seg->len || len > seg->len - offset)
		return vsb_chain_copy(ring, chain, false, offset, buf, len);
	addr = seg->addr + offset;
	if (vsb_chain_read_window(ring, addr, buf, len))
		return 0;
	return vsb_mem_read(&ring->mem, addr, buf, len);
}

/* The same for the chain's writable buffers. */
static inline int vsb_chain_write(const struct vsb_ring *ring,
				  const struct vsb_chain *chain, u32 offset,
				  const void *buf, u32 len)
{
	const struct vsb_seg *seg = chain->segs + chain->nr_out;

	if (!chain->nr_in || offset >= seg->len || len > seg->len - offset)
		return vsb_chain_copy(ring, chain, true, offset, (void *)buf,
				      len);
	return vsb_mem_write(&ring->mem, seg->addr + offset, buf, len);
}

#endif /* VSB_RING_H */
