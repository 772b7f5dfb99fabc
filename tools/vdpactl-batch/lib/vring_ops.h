/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private to vring*.c: what each ring format implements behind the one
 * API of lib/vring.h.
 */
#ifndef VDPACTL_VRING_OPS_H
#define VDPACTL_VRING_OPS_H

#include "lib/vring.h"

struct vq_ops {
	/* A valid chain that fits: vq_add() checked. */
	int (*add)(struct vq_driver *vr, const struct vq_buf *bufs,
		   unsigned int nbufs, uint32_t token);
	uint16_t (*publish)(struct vq_driver *vr);
	bool (*kick_needed)(struct vq_driver *vr);
	uint16_t (*used_pending)(const struct vq_driver *vr);
	int (*pop)(struct vq_driver *vr, uint32_t *token, uint32_t *len);
	void (*set_call)(struct vq_driver *vr, enum vq_call how,
			 uint16_t ahead);
	uint32_t (*base)(const struct vq_driver *vr);
	/* Writes a valid chain into an indirect table. */
	void (*write_table)(void *table, const struct vq_buf *bufs,
			    unsigned int nbufs);
};

extern const struct vq_ops vq_packed_ops;

/* The F_WRITE, F_NEXT and F_INDIRECT flags of buffer @n of @nbufs. */
static inline uint16_t vq_buf_flags(const struct vq_buf *bufs, unsigned int n,
				    unsigned int nbufs)
{
	return (bufs[n].device_writable ? VRING_DESC_F_WRITE : 0) |
	       (n + 1 < nbufs ? VRING_DESC_F_NEXT : 0) |
	       (bufs[n].indirect ? VRING_DESC_F_INDIRECT : 0);
}

/* The per-chain state of @num chains, free list linked in order. */
int vq_slots_init(struct vq_driver *vr, unsigned int num);

#endif
