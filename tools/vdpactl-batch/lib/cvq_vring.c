// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CVQ device's rings: their sizes, where they sit in the shared
 * memory, and the vring ioctls that hand them, the CVQ's and the data
 * queues', to the device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cvq_dev_priv.h"
#include "lib/diag.h"
#include "lib/util.h"

static int query_ring_max(struct cvq_dev *d)
{
	struct vhost_vring_state size = { .index = d->cvq_index };
	uint16_t num_max;
	int err;

	/* Per-queue size is 6.10+ and not in every parent; fall back. */
	if (!VHOST_IOCTL_QUIET(&d->vhost, VHOST_VDPA_GET_VRING_SIZE, &size) &&
	    size.num) {
		d->ring_max = size.num;
		return 0;
	}
	err = VHOST_IOCTL(&d->vhost, VHOST_VDPA_GET_VRING_NUM, &num_max);
	if (err)
		return err;
	d->ring_max = num_max;
	return 0;
}

int cvq_dev_choose_ring_size(struct cvq_dev *d, unsigned int requested)
{
	int err = query_ring_max(d);

	if (err)
		return err;
	if (requested > d->ring_max) {
		pr_err("%s: ring size %u exceeds the device maximum %u",
		       d->vhost.path, requested, d->ring_max);
		return -EINVAL;
	}
	d->ring_size = requested;
	if (!d->ring_size)
		d->ring_size = d->ring_max < CVQ_DEFAULT_RING_SIZE ?
				       d->ring_max :
				       CVQ_DEFAULT_RING_SIZE;
	/* A packed ring may have any size; a split one a power of 2. */
	if ((d->ring_format == VQ_FORMAT_SPLIT &&
	     !is_power_of_2(d->ring_size)) ||
	    d->ring_size < 2 || d->ring_size > VQ_MAX_NUM) {
		pr_err("%s: cannot use ring size %u (device maximum %u)",
		       d->vhost.path, d->ring_size, d->ring_max);
		return -EINVAL;
	}
	return 0;
}

int cvq_dev_enable_vq(struct cvq_dev *d, unsigned int index)
{
	return vhost_vdpa_enable_vring(&d->vhost, index);
}

int cvq_dev_setup_cvq(struct cvq_dev *d)
{
	return vhost_vdpa_setup_vring(&d->vhost, d->cvq_index, d->ring_size,
				      vq_base(&d->ring), &d->vring_addr,
				      &d->kick_fd, &d->call_fd);
}

/* The CVQ's vring ioctls, from SET_VRING_NUM to enabling the queue. */
int cvq_dev_program_vring(struct cvq_dev *d)
{
	int err = cvq_dev_setup_cvq(d);

	return err ? err : cvq_dev_enable_vq(d, d->cvq_index);
}

/* An empty ring: driver bookkeeping and the used ring start over. */
int cvq_dev_init_ring(struct cvq_dev *d)
{
	unsigned int num = d->ring_size;
	struct vq_layout l;
	int err;

	if (d->ring_ready)
		vq_fini(&d->ring);
	d->ring_ready = false;
	/*
	 * The block the device writes, which holds a packed ring's
	 * descriptors: no lap's bits survive. The device area is in it.
	 */
	vq_layout(d->ring_format, num, &l);
	memset((uint8_t *)d->ring_area_device - l.device.offset, 0,
	       l.block_bytes[VQ_BLOCK_DEVICE]);
	err = vq_init_format(&d->ring, d->ring_format, num, d->ring_area_desc,
			     d->ring_area_driver, d->ring_area_device);
	if (err)
		return pr_errno(err, "%s: %s ring of %u entries", d->vhost.path,
				vq_format_name(d->ring_format), num);
	vq_set_event_idx(&d->ring,
			 d->driver_features & BIT_ULL(VIRTIO_RING_F_EVENT_IDX));
	d->ring_ready = true;
	return 0;
}

int cvq_dev_setup_vring(struct cvq_dev *d, const struct shm_plan *plan,
			uint64_t iova_base)
{
	uint8_t *base = d->shm.base;
	size_t driver = plan->offset[PART_DRIVER];
	size_t device = plan->offset[PART_DEVICE];
	struct vq_layout l;
	int err;

	vq_layout(d->ring_format, d->ring_size, &l);
	d->vring_addr = vhost_vdpa_vring_addr(
		&l, d->cvq_index, iova_base + driver, iova_base + device);
	d->ring_area_desc = base + vq_area_addr(&l.desc, driver, device);
	d->ring_area_driver = base + vq_area_addr(&l.driver, driver, device);
	d->ring_area_device = base + vq_area_addr(&l.device, driver, device);
	if (d->ring_format == VQ_FORMAT_SPLIT) {
		d->ring_desc = d->ring_area_desc;
		d->ring_avail = d->ring_area_driver;
		d->ring_used = d->ring_area_device;
	}
	err = cvq_dev_init_ring(d);
	if (!err)
		err = cvq_dev_program_vring(d);
	return err;
}

/* Room for a ring per data queue, the queues below the CVQ. */
int cvq_dev_plan_data_vqs(struct cvq_dev *d, unsigned int num)
{
	unsigned int i;

	if (!num)
		return 0;
	if (num > d->ring_max || num > VQ_MAX_NUM ||
	    (d->ring_format == VQ_FORMAT_SPLIT && !is_power_of_2(num))) {
		pr_err("%s: cannot use data ring size %u (device maximum %u)",
		       d->vhost.path, num, d->ring_max);
		return -EINVAL;
	}
	d->data_vqs = calloc(d->cvq_index, sizeof(*d->data_vqs));
	if (!d->data_vqs)
		return pr_errno(ENOMEM, "%s: %u data queues", d->vhost.path,
				d->cvq_index);
	for (i = 0; i < d->cvq_index; i++)
		d->data_vqs[i].kick_fd = d->data_vqs[i].call_fd = -1;
	d->n_data_vqs = d->cvq_index;
	d->data_ring_size = num;
	return 0;
}

void cvq_dev_place_data_vqs(struct cvq_dev *d, const struct shm_plan *plan,
			    uint64_t iova_base)
{
	size_t driver = data_stride(d, VQ_BLOCK_DRIVER);
	size_t device = data_stride(d, VQ_BLOCK_DEVICE);
	uint64_t driver_iova = iova_base + plan->offset[PART_DATA_DRIVER];
	uint64_t device_iova = iova_base + plan->offset[PART_DATA_DEVICE];
	struct vq_layout l;
	unsigned int i;

	/*
	 * The shm is zeroed: every split index starts at 0, and no packed
	 * descriptor is available on the first lap.
	 */
	vq_layout(d->ring_format, d->data_ring_size, &l);
	for (i = 0; i < d->n_data_vqs; i++)
		d->data_vqs[i].addr =
			vhost_vdpa_vring_addr(&l, i, driver_iova + i * driver,
					      device_iova + i * device);
}

int cvq_dev_setup_data_vqs(struct cvq_dev *d)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < d->n_data_vqs; i++)
		err = vhost_vdpa_setup_vring(&d->vhost, i, d->data_ring_size,
					     vq_fresh_base(d->ring_format),
					     &d->data_vqs[i].addr,
					     &d->data_vqs[i].kick_fd,
					     &d->data_vqs[i].call_fd);
	return err;
}

int cvq_dev_enable_data_vqs(struct cvq_dev *d)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < d->n_data_vqs; i++)
		err = cvq_dev_enable_vq(d, i);
	return err;
}
