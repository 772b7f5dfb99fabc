/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Driver side of a split virtqueue: descriptor free list, available ring
 * publication, kick suppression and used ring consumption. The ring memory
 * is the caller's (shared with the device); the bookkeeping is private.
 */
#ifndef VDPACTL_VRING_H
#define VDPACTL_VRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/virtio_ring.h>

/* The largest queue size the split ring format allows. */
#define VQ_MAX_NUM 32768

struct vq_buf {
	uint64_t addr; /* device address (IOVA) */
	uint32_t len;
	bool device_writable;
};

/* Private to vring.c: per-descriptor state the device must not touch. */
struct vq_slot {
	uint32_t token; /* caller's cookie for a chain head */
	uint16_t ndescs; /* chain length if this is an in-flight head, else 0 */
	uint16_t next; /* free list link */
};

struct vq_driver {
	uint16_t num;
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	struct vq_slot *slots;
	uint16_t free_head;
	uint16_t num_free;
	uint16_t avail_idx; /* next avail entry to fill */
	uint16_t published_idx; /* avail->idx as last published */
	uint16_t last_used_idx; /* next used entry to consume */
};

size_t vq_desc_bytes(unsigned int num);
size_t vq_avail_bytes(unsigned int num);
size_t vq_used_bytes(unsigned int num);

/* -EINVAL unless num is a power of 2 up to VQ_MAX_NUM; -ENOMEM. */
int vq_init(struct vq_driver *vr, unsigned int num, struct vring_desc *desc,
	    struct vring_avail *avail, struct vring_used *used);
void vq_fini(struct vq_driver *vr);

/*
 * Adds one chain, readable buffers first, and makes it the next avail
 * entry without publishing it. -ENOSPC if not enough free descriptors,
 * -EINVAL for an empty chain or a readable buffer after a writable one.
 */
int vq_add(struct vq_driver *vr, const struct vq_buf *bufs, unsigned int nbufs,
	   uint32_t token);

/* Makes every added chain visible to the device; returns how many. */
uint16_t vq_publish(struct vq_driver *vr);

/* After vq_publish(): does the device want a notification? */
bool vq_kick_needed(const struct vq_driver *vr);

/* Number of used entries the device has returned and we have not popped. */
uint16_t vq_used_pending(const struct vq_driver *vr);

/*
 * Consumes the next used entry, frees its chain and returns its token and
 * the length the device wrote. -EAGAIN if none; -EPROTO if the device
 * returned an id that is not an in-flight head, or moved the used index
 * past what was published.
 */
int vq_pop(struct vq_driver *vr, uint32_t *token, uint32_t *len);

static inline unsigned int vq_num_free(const struct vq_driver *vr)
{
	return vr->num_free;
}

#endif
