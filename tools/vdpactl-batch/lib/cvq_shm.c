// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CVQ device's shared memory: where each part goes in it and in the
 * IOVA space, and the IOTLB maps that let the device reach it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "lib/cvq_dev_priv.h"
#include "lib/diag.h"
#include "lib/util.h"

void cvq_dev_plan_shm(struct shm_plan *plan, const struct cvq_dev *d,
		      const struct cvq_dev_layout *layout, size_t page)
{
	struct vq_layout cvq;
	size_t want[PART_COUNT] = {
		[PART_CMD] = layout->cmd_bytes,
		[PART_ACK] = layout->ack_bytes,
		[PART_DATA_DRIVER] =
			d->n_data_vqs * data_stride(d, VQ_BLOCK_DRIVER),
		[PART_DATA_DEVICE] =
			d->n_data_vqs * data_stride(d, VQ_BLOCK_DEVICE),
	};
	size_t offset = 0;
	int part;

	vq_layout(d->ring_format, d->ring_size, &cvq);
	want[PART_DRIVER] = cvq.block_bytes[VQ_BLOCK_DRIVER];
	want[PART_DEVICE] = cvq.block_bytes[VQ_BLOCK_DEVICE];
	for (part = 0; part < PART_COUNT; part++) {
		plan->offset[part] = offset;
		if (part < CVQ_PARTS && !want[part])
			want[part] = 1;
		plan->size[part] = align_up(want[part], page);
		offset += plan->size[part];
	}
	plan->total = offset;
}

static const uint8_t part_perm[PART_COUNT] = {
	[PART_DRIVER] = VHOST_ACCESS_RO,
	[PART_DEVICE] = VHOST_ACCESS_RW,
	[PART_CMD] = VHOST_ACCESS_RO,
	[PART_ACK] = VHOST_ACCESS_RW,
	[PART_DATA_DRIVER] = VHOST_ACCESS_RO,
	[PART_DATA_DEVICE] = VHOST_ACCESS_RW,
};

int cvq_dev_choose_iova_base(struct cvq_dev *d, size_t total, size_t page,
			     uint64_t *base)
{
	struct vhost_vdpa_iova_range range = { .first = 0, .last = UINT64_MAX };
	uint64_t first;

	/* Older parents have no range: the whole space is usable. */
	VHOST_IOCTL_QUIET(&d->vhost, VHOST_VDPA_GET_IOVA_RANGE, &range);
	/*
	 * Never IOVA 0: a virtio-pci device of QEMU's (behind vp_vdpa) takes
	 * a descriptor area at 0 for a queue not set up and ignores its
	 * kicks, which a split ring, whose table comes first, would hit.
	 */
	first = range.first < page ? page : range.first;
	*base = (first + page - 1) & ~(uint64_t)(page - 1);
	if (*base < range.first || range.last < *base ||
	    range.last - *base < total - 1) {
		pr_err("%s: IOVA range [0x%" PRIx64 ", 0x%" PRIx64
		       "] has no room for %zu bytes",
		       d->vhost.path, (uint64_t)range.first,
		       (uint64_t)range.last, total);
		return -ENOSPC;
	}
	return 0;
}

int cvq_dev_map_shm(struct cvq_dev *d, const struct shm_plan *plan,
		    uint64_t iova_base)
{
	int part;

	d->n_maps = 0;
	for (part = 0; part < PART_COUNT; part++) {
		if (!plan->size[part])
			continue;
		d->maps[d->n_maps++] = (struct iotlb_map){
			.iova = iova_base + plan->offset[part],
			.size = plan->size[part],
			.uaddr = (uint64_t)(uintptr_t)d->shm.base +
				 plan->offset[part],
			.perm = part_perm[part],
		};
	}
	d->n_cvq_maps = CVQ_PARTS;
	d->iova_end = iova_base + plan->total;
	return cvq_dev_remap(d);
}

typedef int (*iotlb_op_t)(struct vhost_vdpa *v, uint32_t asid,
			  const struct iotlb_map *maps, unsigned int n);

/*
 * @op on every map. The data queues' rings stay in address space 0 (their
 * group's) when the CVQ's group has one of its own; otherwise all maps go
 * together, in one batch.
 */
static int each_map(struct cvq_dev *d, iotlb_op_t op)
{
	unsigned int n_cvq = d->asid ? d->n_cvq_maps : d->n_maps;
	int err;

	err = op(&d->vhost, d->asid, d->maps, n_cvq);
	if (!err && n_cvq < d->n_maps)
		err = op(&d->vhost, 0, d->maps + n_cvq, d->n_maps - n_cvq);
	return err;
}

int cvq_dev_remap(struct cvq_dev *d)
{
	return each_map(d, vhost_vdpa_iotlb_map);
}

int cvq_dev_unmap(struct cvq_dev *d)
{
	return each_map(d, vhost_vdpa_iotlb_unmap);
}
