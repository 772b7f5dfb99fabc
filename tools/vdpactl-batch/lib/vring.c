// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Driver side of a split virtqueue. VERSION_1 is always negotiated, so ring
 * fields are little-endian.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>

#include "lib/util.h"
#include "lib/vring.h"

size_t vq_desc_bytes(unsigned int num)
{
	return sizeof(struct vring_desc) * num;
}

size_t vq_avail_bytes(unsigned int num)
{
	/* flags, idx, ring[num], used_event */
	return sizeof(uint16_t) * (3 + num);
}

size_t vq_used_bytes(unsigned int num)
{
	/* flags, idx, ring[num], avail_event */
	return sizeof(uint16_t) * 3 + sizeof(struct vring_used_elem) * num;
}

int vq_init(struct vq_driver *vr, unsigned int num, struct vring_desc *desc,
	    struct vring_avail *avail, struct vring_used *used)
{
	unsigned int i;

	if (!is_power_of_2(num) || num > VQ_MAX_NUM)
		return -EINVAL;
	*vr = (struct vq_driver){
		.num = (uint16_t)num,
		.desc = desc,
		.avail = avail,
		.used = used,
		.num_free = (uint16_t)num,
	};
	vr->slots = calloc(num, sizeof(*vr->slots));
	if (!vr->slots)
		return -ENOMEM;
	for (i = 0; i < num; i++)
		vr->slots[i].next = (uint16_t)(i + 1);
	avail->flags = 0;
	avail->idx = 0;
	return 0;
}

void vq_fini(struct vq_driver *vr)
{
	free(vr->slots);
	vr->slots = NULL;
}

static bool chain_is_valid(const struct vq_buf *bufs, unsigned int nbufs)
{
	bool seen_writable = false;
	unsigned int i;

	if (nbufs == 0)
		return false;
	for (i = 0; i < nbufs; i++) {
		if (bufs[i].device_writable)
			seen_writable = true;
		else if (seen_writable)
			return false;
	}
	return true;
}

int vq_add(struct vq_driver *vr, const struct vq_buf *bufs, unsigned int nbufs,
	   uint32_t token)
{
	uint16_t head = vr->free_head, i = head, last = head;
	unsigned int n;

	if (!chain_is_valid(bufs, nbufs))
		return -EINVAL;
	if (nbufs > vr->num_free)
		return -ENOSPC;

	for (n = 0; n < nbufs; n++) {
		struct vring_desc *d = &vr->desc[i];
		uint16_t flags = 0;

		if (bufs[n].device_writable)
			flags |= VRING_DESC_F_WRITE;
		if (n + 1 < nbufs)
			flags |= VRING_DESC_F_NEXT;
		d->addr = htole64(bufs[n].addr);
		d->len = htole32(bufs[n].len);
		d->flags = htole16(flags);
		d->next = htole16(vr->slots[i].next);
		last = i;
		i = vr->slots[i].next;
	}
	vr->free_head = vr->slots[last].next;
	vr->num_free -= nbufs;
	vr->slots[head].token = token;
	vr->slots[head].ndescs = (uint16_t)nbufs;

	vr->avail->ring[vr->avail_idx & (vr->num - 1)] = htole16(head);
	vr->avail_idx++;
	return 0;
}

uint16_t vq_publish(struct vq_driver *vr)
{
	uint16_t added = vr->avail_idx - vr->published_idx;

	/* Descriptors and ring entries must be visible before the index. */
	__atomic_store_n(&vr->avail->idx, htole16(vr->avail_idx),
			 __ATOMIC_RELEASE);
	vr->published_idx = vr->avail_idx;
	return added;
}

bool vq_kick_needed(const struct vq_driver *vr)
{
	uint16_t flags;

	/*
	 * Order the avail->idx store before the used->flags load, or the
	 * device could go idle between them and miss the new entries.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	flags = le16toh(__atomic_load_n(&vr->used->flags, __ATOMIC_RELAXED));
	return !(flags & VRING_USED_F_NO_NOTIFY);
}

uint16_t vq_used_pending(const struct vq_driver *vr)
{
	/* Acquire: the used entries and buffers are read after the index. */
	uint16_t used_idx =
		le16toh(__atomic_load_n(&vr->used->idx, __ATOMIC_ACQUIRE));

	return used_idx - vr->last_used_idx;
}

int vq_pop(struct vq_driver *vr, uint32_t *token, uint32_t *len)
{
	const struct vring_used_elem *elem;
	struct vq_slot *head_slot;
	uint16_t pending, tail;
	uint32_t id;
	unsigned int n;

	pending = vq_used_pending(vr);
	if (pending == 0)
		return -EAGAIN;
	/* The device cannot return more than was published to it. */
	if (pending > (uint16_t)(vr->published_idx - vr->last_used_idx))
		return -EPROTO;
	elem = &vr->used->ring[vr->last_used_idx & (vr->num - 1)];
	id = le32toh(elem->id);
	if (id >= vr->num || vr->slots[id].ndescs == 0)
		return -EPROTO;
	head_slot = &vr->slots[id];

	tail = (uint16_t)id;
	for (n = 1; n < head_slot->ndescs; n++)
		tail = vr->slots[tail].next;
	vr->slots[tail].next = vr->free_head;
	vr->free_head = (uint16_t)id;
	vr->num_free += head_slot->ndescs;
	head_slot->ndescs = 0;

	*token = head_slot->token;
	*len = le32toh(elem->len);
	vr->last_used_idx++;
	return 0;
}
