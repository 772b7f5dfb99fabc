/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Driver side of a virtqueue, split or packed (VIRTIO_F_RING_PACKED): one
 * API for both formats, chosen at init (struct vq_driver's format). It
 * adds chains, publishes them, decides whether to kick, asks for used
 * buffer notifications and consumes what the device returns. The ring
 * memory is the caller's (shared with the device); the bookkeeping is
 * private.
 */
#ifndef VDPACTL_VRING_H
#define VDPACTL_VRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/virtio_ring.h>

/* The largest queue size either ring format allows. */
#define VQ_MAX_NUM 32768

enum vq_format {
	VQ_FORMAT_SPLIT, /* descriptor table, avail and used rings */
	VQ_FORMAT_PACKED, /* one descriptor ring, two event areas */
};

struct vq_buf {
	uint64_t addr; /* device address (IOVA) */
	uint32_t len;
	bool device_writable;
	/* Set by vq_add_indirect() alone: addr is a table of len / 16. */
	bool indirect;
};

/*
 * Private to vring*.c: per-chain state the device must not touch, indexed
 * by the split ring's head descriptor or the packed ring's buffer id.
 */
struct vq_slot {
	uint32_t token; /* caller's cookie for a chain head */
	uint16_t ndescs; /* chain length if this is an in-flight head, else 0 */
	uint16_t next; /* free list link */
};

/* A packed chain added but not yet made available: its head's flags. */
struct vq_packed_head {
	uint16_t pos; /* the head's slot in the descriptor ring */
	uint16_t flags; /* written last, by vq_publish() */
	uint16_t id;
	uint16_t ndescs;
};

/* Private to vring_packed.c. A position and a wrap counter make a place. */
struct vq_packed {
	struct vring_packed_desc *desc;
	struct vring_packed_desc_event *driver_event; /* we write it */
	struct vring_packed_desc_event *device_event; /* the device writes it */
	uint16_t next_avail; /* the slot the next chain starts at */
	bool avail_wrap;
	uint16_t last_used; /* the slot the next used element is at */
	bool used_wrap;
	struct vq_packed_head *pending; /* added, not yet published */
	uint16_t n_pending;
	uint16_t unkicked; /* descriptors published since the kick check */
	uint16_t in_flight; /* chains published, not yet popped */
	bool event_idx; /* VIRTIO_RING_F_EVENT_IDX negotiated */
};

struct vq_ops;

struct vq_driver {
	enum vq_format format;
	const struct vq_ops *ops; /* the format's, set by the init */
	uint16_t num;
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	struct vq_packed packed;
	struct vq_slot *slots;
	uint16_t free_head; /* split: a descriptor; packed: a buffer id */
	uint16_t num_free;
	uint16_t avail_idx; /* next avail entry to fill */
	uint16_t published_idx; /* avail->idx as last published */
	uint16_t last_used_idx; /* next used entry to consume */
};

/* Split ring areas. */
size_t vq_desc_bytes(unsigned int num);
size_t vq_avail_bytes(unsigned int num);
size_t vq_used_bytes(unsigned int num);

/* Packed ring areas: descriptor ring; each event suppression area. */
size_t vq_packed_desc_bytes(unsigned int num);
#define VQ_PACKED_EVENT_BYTES sizeof(struct vring_packed_desc_event)

/*
 * Where a ring of either format goes in two blocks of memory: one the
 * device only reads (map it read-only) and one it writes. The split
 * ring's descriptors are the driver's alone; the packed ring's are
 * written back by the device, so they go with the device's event area.
 */
enum vq_block { VQ_BLOCK_DRIVER, VQ_BLOCK_DEVICE };

struct vq_area {
	enum vq_block block;
	size_t offset; /* in the block */
};

struct vq_layout {
	size_t block_bytes[2]; /* by enum vq_block */
	/* VHOST_SET_VRING_ADDR's desc, avail (driver) and used (device). */
	struct vq_area desc, driver, device;
};

void vq_layout(enum vq_format format, unsigned int num, struct vq_layout *l);

/* The address of @area when the blocks start at @driver and @device. */
uint64_t vq_area_addr(const struct vq_area *area, uint64_t driver,
		      uint64_t device);

/* Features a ring format needs negotiated: RING_PACKED or none. */
uint64_t vq_format_features(enum vq_format format);

/* "split" or "packed". */
const char *vq_format_name(enum vq_format format);

/*
 * VHOST_SET_VRING_BASE's num for a fresh ring of @format: 0 for split;
 * for packed, avail and used slot 0 each with its wrap counter 1 in bit
 * 15, the used half in the upper 16 bits (0x80008000).
 */
uint32_t vq_fresh_base(enum vq_format format);

/* The same for the driver's current place in the ring. */
uint32_t vq_base(const struct vq_driver *vr);

/* -EINVAL unless num is a power of 2 up to VQ_MAX_NUM; -ENOMEM. */
int vq_init(struct vq_driver *vr, unsigned int num, struct vring_desc *desc,
	    struct vring_avail *avail, struct vring_used *used);

/*
 * A packed ring of @num descriptors (any size from 1 to VQ_MAX_NUM, else
 * -EINVAL), its descriptors zeroed here. The device event area is the
 * device's: zero it before the device starts.
 */
int vq_init_packed(struct vq_driver *vr, unsigned int num,
		   struct vring_packed_desc *desc,
		   struct vring_packed_desc_event *driver_event,
		   struct vring_packed_desc_event *device_event);

/* Either, with the areas vq_layout() places: desc, driver, device. */
int vq_init_format(struct vq_driver *vr, enum vq_format format,
		   unsigned int num, void *desc, void *driver, void *device);
void vq_fini(struct vq_driver *vr);

/*
 * VIRTIO_RING_F_EVENT_IDX was negotiated: a packed ring then follows the
 * device's descriptor event (off_wrap) when it asks for one.
 */
void vq_set_event_idx(struct vq_driver *vr, bool on);

/* The used buffer notifications the driver asks the device for. */
enum vq_call {
	VQ_CALL_ENABLE, /* for every used buffer (the initial state) */
	VQ_CALL_DISABLE, /* none */
	/*
	 * EVENT_IDX: for the used buffer @ahead places after the next one to
	 * pop (split: used ring entries; packed: descriptor slots).
	 */
	VQ_CALL_AT,
};

/*
 * Writes the request into the driver area: split avail flags
 * (VRING_AVAIL_F_NO_INTERRUPT) and used_event; packed driver event
 * suppression flags and off_wrap.
 */
void vq_set_call(struct vq_driver *vr, enum vq_call how, uint16_t ahead);

/*
 * Adds one chain, readable buffers first, and makes it the next avail
 * entry without publishing it. -ENOSPC if not enough free descriptors,
 * -EINVAL for an empty chain, a readable buffer after a writable one or a
 * buffer marked indirect.
 */
int vq_add(struct vq_driver *vr, const struct vq_buf *bufs, unsigned int nbufs,
	   uint32_t token);

/*
 * Bytes of an indirect table of @nbufs descriptors (VIRTIO_RING_F_INDIRECT_
 * DESC): 16 each in either format.
 */
size_t vq_indirect_bytes(unsigned int nbufs);

/*
 * vq_add() of a chain that takes one ring descriptor: @bufs go into
 * @table, vq_indirect_bytes(@nbufs) of the caller's memory that the device
 * reads at @table_addr, in the ring's format (split: chained by NEXT;
 * packed: only F_WRITE), and the descriptor points at it. @table must stay
 * as it is until the chain is popped. Errors as vq_add()'s.
 */
int vq_add_indirect(struct vq_driver *vr, void *table, uint64_t table_addr,
		    const struct vq_buf *bufs, unsigned int nbufs,
		    uint32_t token);

/* Makes every added chain visible to the device; returns how many. */
uint16_t vq_publish(struct vq_driver *vr);

/*
 * After vq_publish(): does the device want a notification for what was
 * published since the last call? Split: unless VRING_USED_F_NO_NOTIFY.
 * Packed: unless the device event flags say DISABLE; with EVENT_IDX and
 * flags DESC, only if the published descriptors cover off_wrap.
 */
bool vq_kick_needed(struct vq_driver *vr);

/* Number of used entries the device has returned and we have not popped. */
uint16_t vq_used_pending(const struct vq_driver *vr);

/*
 * Consumes the next used entry, frees its chain and returns its token and
 * the length the device wrote. -EAGAIN if none; -EPROTO if the device
 * returned an id that is not an in-flight head (packed: not a published
 * buffer id in flight), or returned more than was published.
 */
int vq_pop(struct vq_driver *vr, uint32_t *token, uint32_t *len);

static inline unsigned int vq_num_free(const struct vq_driver *vr)
{
	return vr->num_free;
}

#endif
