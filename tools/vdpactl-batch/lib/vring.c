// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Driver side of a split virtqueue, and the API both formats share (the
 * packed one is vring_packed.c). VERSION_1 is always negotiated, so ring
 * fields are little-endian.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>

#include <linux/virtio_config.h>

#include "lib/util.h"
#include "lib/vring_ops.h"

static const struct vq_ops split_ops;

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

size_t vq_packed_desc_bytes(unsigned int num)
{
	return sizeof(struct vring_packed_desc) * num;
}

void vq_layout(enum vq_format format, unsigned int num, struct vq_layout *l)
{
	if (format == VQ_FORMAT_PACKED) {
		*l = (struct vq_layout){
			.block_bytes = { VQ_PACKED_EVENT_BYTES,
					 vq_packed_desc_bytes(num) +
						 VQ_PACKED_EVENT_BYTES },
			.desc = { VQ_BLOCK_DEVICE, 0 },
			.driver = { VQ_BLOCK_DRIVER, 0 },
			/* 16-byte descriptors keep it 4-byte aligned. */
			.device = { VQ_BLOCK_DEVICE,
				    vq_packed_desc_bytes(num) },
		};
		return;
	}
	*l = (struct vq_layout){
		.block_bytes = { vq_desc_bytes(num) + vq_avail_bytes(num),
				 vq_used_bytes(num) },
		.desc = { VQ_BLOCK_DRIVER, 0 },
		.driver = { VQ_BLOCK_DRIVER, vq_desc_bytes(num) },
		.device = { VQ_BLOCK_DEVICE, 0 },
	};
}

uint64_t vq_area_addr(const struct vq_area *area, uint64_t driver,
		      uint64_t device)
{
	return (area->block == VQ_BLOCK_DRIVER ? driver : device) +
	       area->offset;
}

uint64_t vq_format_features(enum vq_format format)
{
	return format == VQ_FORMAT_PACKED ? BIT_ULL(VIRTIO_F_RING_PACKED) : 0;
}

const char *vq_format_name(enum vq_format format)
{
	return format == VQ_FORMAT_PACKED ? "packed" : "split";
}

uint32_t vq_fresh_base(enum vq_format format)
{
	const uint32_t wrap = 1u << VRING_PACKED_EVENT_F_WRAP_CTR;

	return format == VQ_FORMAT_PACKED ? wrap | wrap << 16 : 0;
}

int vq_slots_init(struct vq_driver *vr, unsigned int num)
{
	unsigned int i;

	vr->slots = calloc(num, sizeof(*vr->slots));
	if (!vr->slots)
		return -ENOMEM;
	for (i = 0; i < num; i++)
		vr->slots[i].next = (uint16_t)(i + 1);
	return 0;
}

int vq_init(struct vq_driver *vr, unsigned int num, struct vring_desc *desc,
	    struct vring_avail *avail, struct vring_used *used)
{
	int err;

	if (!is_power_of_2(num) || num > VQ_MAX_NUM)
		return -EINVAL;
	*vr = (struct vq_driver){
		.format = VQ_FORMAT_SPLIT,
		.ops = &split_ops,
		.num = (uint16_t)num,
		.desc = desc,
		.avail = avail,
		.used = used,
		.num_free = (uint16_t)num,
	};
	err = vq_slots_init(vr, num);
	if (err)
		return err;
	avail->flags = 0;
	avail->idx = 0;
	return 0;
}

int vq_init_format(struct vq_driver *vr, enum vq_format format,
		   unsigned int num, void *desc, void *driver, void *device)
{
	if (format == VQ_FORMAT_PACKED)
		return vq_init_packed(vr, num, desc, driver, device);
	return vq_init(vr, num, desc, driver, device);
}

void vq_fini(struct vq_driver *vr)
{
	free(vr->slots);
	vr->slots = NULL;
	free(vr->packed.pending);
	vr->packed.pending = NULL;
}

void vq_set_event_idx(struct vq_driver *vr, bool on)
{
	vr->packed.event_idx = on;
}

/* Readable buffers first, then writable ones; not empty, not indirect. */
static bool chain_is_valid(const struct vq_buf *bufs, unsigned int nbufs)
{
	bool seen_writable = false;
	unsigned int i;

	if (nbufs == 0)
		return false;
	for (i = 0; i < nbufs; i++) {
		if (bufs[i].indirect)
			return false;
		if (bufs[i].device_writable)
			seen_writable = true;
		else if (seen_writable)
			return false;
	}
	return true;
}

static int split_add(struct vq_driver *vr, const struct vq_buf *bufs,
		     unsigned int nbufs, uint32_t token)
{
	uint16_t head = vr->free_head, i = head, last = head;
	unsigned int n;

	for (n = 0; n < nbufs; n++) {
		struct vring_desc *d = &vr->desc[i];

		d->addr = htole64(bufs[n].addr);
		d->len = htole32(bufs[n].len);
		d->flags = htole16(vq_buf_flags(bufs, n, nbufs));
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

static uint16_t split_publish(struct vq_driver *vr)
{
	uint16_t added = vr->avail_idx - vr->published_idx;

	/* Descriptors and ring entries must be visible before the index. */
	__atomic_store_n(&vr->avail->idx, htole16(vr->avail_idx),
			 __ATOMIC_RELEASE);
	vr->published_idx = vr->avail_idx;
	return added;
}

static bool split_kick_needed(struct vq_driver *vr)
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

static uint16_t split_used_pending(const struct vq_driver *vr)
{
	/* Acquire: the used entries and buffers are read after the index. */
	uint16_t used_idx =
		le16toh(__atomic_load_n(&vr->used->idx, __ATOMIC_ACQUIRE));

	return used_idx - vr->last_used_idx;
}

static int split_pop(struct vq_driver *vr, uint32_t *token, uint32_t *len)
{
	const struct vring_used_elem *elem;
	struct vq_slot *head_slot;
	uint16_t pending, tail;
	uint32_t id;
	unsigned int n;

	pending = split_used_pending(vr);
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

static void split_set_call(struct vq_driver *vr, enum vq_call how,
			   uint16_t ahead)
{
	uint16_t flags = how == VQ_CALL_DISABLE ? VRING_AVAIL_F_NO_INTERRUPT :
						  0;

	/* used_event: the entry after the avail ring's last. */
	if (how == VQ_CALL_AT)
		vr->avail->ring[vr->num] =
			htole16((uint16_t)(vr->last_used_idx + ahead));
	vr->avail->flags = htole16(flags);
}

static uint32_t split_base(const struct vq_driver *vr)
{
	return vr->avail_idx;
}

/* A split table is a chain of its own, linked by NEXT from entry 0. */
static void split_write_table(void *table, const struct vq_buf *bufs,
			      unsigned int nbufs)
{
	struct vring_desc *t = table;
	unsigned int n;

	for (n = 0; n < nbufs; n++)
		t[n] = (struct vring_desc){
			.addr = htole64(bufs[n].addr),
			.len = htole32(bufs[n].len),
			.flags = htole16(vq_buf_flags(bufs, n, nbufs)),
			.next = htole16((uint16_t)(n + 1)),
		};
}

static const struct vq_ops split_ops = {
	.add = split_add,
	.publish = split_publish,
	.kick_needed = split_kick_needed,
	.used_pending = split_used_pending,
	.pop = split_pop,
	.set_call = split_set_call,
	.base = split_base,
	.write_table = split_write_table,
};

int vq_add(struct vq_driver *vr, const struct vq_buf *bufs, unsigned int nbufs,
	   uint32_t token)
{
	if (!chain_is_valid(bufs, nbufs))
		return -EINVAL;
	if (nbufs > vr->num_free)
		return -ENOSPC;
	return vr->ops->add(vr, bufs, nbufs, token);
}

size_t vq_indirect_bytes(unsigned int nbufs)
{
	/* struct vring_desc and struct vring_packed_desc alike. */
	return (size_t)nbufs * 16;
}

int vq_add_indirect(struct vq_driver *vr, void *table, uint64_t table_addr,
		    const struct vq_buf *bufs, unsigned int nbufs,
		    uint32_t token)
{
	const struct vq_buf desc = {
		.addr = table_addr,
		.len = (uint32_t)vq_indirect_bytes(nbufs),
		.indirect = true,
	};

	/* The spec bounds a table by the queue size. */
	if (!chain_is_valid(bufs, nbufs) || nbufs > vr->num)
		return -EINVAL;
	if (!vr->num_free)
		return -ENOSPC;
	vr->ops->write_table(table, bufs, nbufs);
	return vr->ops->add(vr, &desc, 1, token);
}

uint16_t vq_publish(struct vq_driver *vr)
{
	return vr->ops->publish(vr);
}

bool vq_kick_needed(struct vq_driver *vr)
{
	return vr->ops->kick_needed(vr);
}

uint16_t vq_used_pending(const struct vq_driver *vr)
{
	return vr->ops->used_pending(vr);
}

int vq_pop(struct vq_driver *vr, uint32_t *token, uint32_t *len)
{
	return vr->ops->pop(vr, token, len);
}

void vq_set_call(struct vq_driver *vr, enum vq_call how, uint16_t ahead)
{
	vr->ops->set_call(vr, how, ahead);
}

uint32_t vq_base(const struct vq_driver *vr)
{
	return vr->ops->base(vr);
}
