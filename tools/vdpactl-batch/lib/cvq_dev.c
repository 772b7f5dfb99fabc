// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CVQ device session's lifecycle, lib/cvq_dev.h's API: open and
 * negotiate, prepare, start, restart, stop, cold start, close. The ioctl
 * order follows what vhost-vdpa requires: owner, backend features before
 * any IOTLB write, status and features, address spaces, IOTLB, ring,
 * DRIVER_OK. The steps are in cvq_negotiate.c, cvq_shm.c and cvq_vring.c
 * (lib/cvq_dev_priv.h), which call nothing here.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/cvq_dev.h"
#include "lib/cvq_dev_priv.h"
#include "lib/diag.h"
#include "lib/util.h"

int cvq_dev_negotiate(struct cvq_dev *d, const char *chardev, uint64_t wanted,
		      bool want_asid, int verbose)
{
	int err;

	*d = (struct cvq_dev){
		.vhost.fd = -1,
		.shm.fd = -1,
		.kick_fd = -1,
		.call_fd = -1,
	};
	err = vhost_vdpa_open(&d->vhost, chardev, verbose);
	if (err)
		return err;
	err = VHOST_IOCTL(&d->vhost, VHOST_SET_OWNER, NULL);
	if (!err)
		err = cvq_dev_negotiate_backend(d, want_asid);
	if (!err)
		err = cvq_dev_check_net_device(d);
	if (!err)
		err = cvq_dev_negotiate_features(d, wanted);
	if (err)
		cvq_dev_close(d);
	return err;
}

/* The ring format asked for is the one the features say. */
static int check_ring_format(struct cvq_dev *d, enum vq_format format)
{
	const uint64_t packed = BIT_ULL(VIRTIO_F_RING_PACKED);

	d->ring_format = format;
	if (format == VQ_FORMAT_PACKED && !(d->device_features & packed)) {
		pr_err("%s: a packed ring needs VIRTIO_F_RING_PACKED (bit %d), which the device does not offer",
		       d->vhost.path, VIRTIO_F_RING_PACKED);
		return -ENOTSUP;
	}
	if (format == VQ_FORMAT_PACKED && !(d->driver_features & packed)) {
		pr_err("%s: a packed ring without VIRTIO_F_RING_PACKED negotiated",
		       d->vhost.path);
		return -EINVAL;
	}
	if (format == VQ_FORMAT_SPLIT && (d->driver_features & packed)) {
		pr_err("%s: a split ring with VIRTIO_F_RING_PACKED negotiated",
		       d->vhost.path);
		return -EINVAL;
	}
	return 0;
}

int cvq_dev_prepare(struct cvq_dev *d, const struct cvq_dev_layout *layout)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct shm_plan plan;
	uint64_t iova_base;
	int err;

	err = check_ring_format(d, layout->format);
	if (!err)
		err = cvq_dev_choose_ring_size(d, layout->ring_size);
	if (!err)
		err = cvq_dev_plan_data_vqs(d, layout->data_ring_size);
	if (err)
		return err;
	cvq_dev_plan_shm(&plan, d, layout, page);
	err = cvq_dev_choose_iova_base(d, plan.total, page, &iova_base);
	if (err)
		return err;
	err = shm_region_create(&d->shm, "vdpactl-batch-cvq", plan.total);
	if (err)
		return err;
	d->cmd_buf = (uint8_t *)d->shm.base + plan.offset[PART_CMD];
	d->ack_buf = (uint8_t *)d->shm.base + plan.offset[PART_ACK];
	d->cmd_iova = iova_base + plan.offset[PART_CMD];
	d->ack_iova = iova_base + plan.offset[PART_ACK];
	cvq_dev_place_data_vqs(d, &plan, iova_base);

	if (layout->own_asid) {
		err = cvq_dev_isolate_cvq_group(d);
		if (err)
			return err;
	}
	err = cvq_dev_map_shm(d, &plan, iova_base);
	if (!err)
		err = cvq_dev_setup_vring(d, &plan, iova_base);
	if (err)
		return err;
	pr_verbose(d->vhost.verbose, 1,
		   "%s: cvq %u %s ring %u (max %u) asid %" PRIu32
		   " iova 0x%" PRIx64 "+0x%zx",
		   d->vhost.path, d->cvq_index, vq_format_name(d->ring_format),
		   d->ring_size, d->ring_max, d->asid, iova_base, plan.total);
	return 0;
}

int cvq_dev_driver_ok(struct cvq_dev *d)
{
	return cvq_dev_add_status(d, VIRTIO_CONFIG_S_DRIVER_OK, "DRIVER_OK");
}

int cvq_dev_start(struct cvq_dev *d, const struct cvq_dev_layout *layout)
{
	int err = cvq_dev_prepare(d, layout);

	return err ? err : cvq_dev_driver_ok(d);
}

int cvq_dev_restart(struct cvq_dev *d)
{
	int err;

	/* A reset may have dropped the device's maps; vhost keeps its own. */
	err = cvq_dev_features_ok_again(d);
	if (!err)
		err = cvq_dev_unmap(d);
	if (!err)
		err = cvq_dev_remap(d);
	if (!err)
		err = cvq_dev_init_ring(d);
	if (!err)
		err = cvq_dev_program_vring(d);
	if (!err)
		err = cvq_dev_driver_ok(d);
	return err;
}

int cvq_dev_stop(struct cvq_dev *d)
{
	int err = vhost_vdpa_set_status(&d->vhost, 0);

	return err ? err : cvq_dev_unmap(d);
}

/*
 * QEMU 10 starting a vhost-vdpa net device whose CVQ it shadows, as on VM
 * start, "cont" or migration in (vhost_net_start(), then the CVQ client's
 * load), after its stop (reset, ACK|DRIVER, maps removed):
 *
 *   1. reset (status 0), ACKNOWLEDGE | DRIVER;
 *   2. VHOST_SET_FEATURES with the negotiated set, FEATURES_OK (read back);
 *      the CVQ group's address space, if it has its own;
 *   3. each queue's vring: SET_VRING_NUM, _BASE, _ADDR, _KICK, _CALL;
 *   4. the memory listener maps guest memory (IOTLB updates in a batch);
 *   5. DRIVER_OK;
 *   6. vhost_vdpa_net_cvq_load(): SET_VRING_ENABLE on the CVQ, the state
 *      commands (@load here), then SET_VRING_ENABLE on every data queue.
 *
 * QEMU enables the queues after DRIVER_OK without acking the backend's
 * ENABLE_AFTER_DRIVER_OK; so does this.
 */
int cvq_dev_cold_start(struct cvq_dev *d, cvq_dev_load_fn load, void *arg)
{
	int err;

	err = vhost_vdpa_set_status(&d->vhost, 0);
	if (!err)
		err = cvq_dev_features_ok_again(d);
	if (!err)
		err = cvq_dev_init_ring(d);
	if (!err)
		err = cvq_dev_setup_cvq(d);
	if (!err)
		err = cvq_dev_setup_data_vqs(d);
	if (!err)
		err = cvq_dev_remap(d);
	if (!err)
		err = cvq_dev_driver_ok(d);
	if (!err)
		err = cvq_dev_enable_vq(d, d->cvq_index);
	if (!err)
		err = load(arg);
	if (!err)
		err = cvq_dev_enable_data_vqs(d);
	return err;
}

void cvq_dev_ring_base(struct cvq_dev *d, uint16_t idx)
{
	d->ring_avail->idx = htole16(idx);
	d->ring_used->idx = htole16(idx);
	d->ring.avail_idx = d->ring.published_idx = idx;
	d->ring.last_used_idx = idx;
}

bool cvq_dev_needs_reset(struct cvq_dev *d)
{
	uint8_t status;

	return !VHOST_IOCTL_QUIET(&d->vhost, VHOST_VDPA_GET_STATUS, &status) &&
	       (status & VIRTIO_CONFIG_S_NEEDS_RESET);
}

void cvq_dev_close(struct cvq_dev *d)
{
	unsigned int i;

	if (d->vhost.fd >= 0) {
		/* Reset stops the device before its memory goes away. */
		uint8_t status = 0;

		VHOST_IOCTL_QUIET(&d->vhost, VHOST_VDPA_SET_STATUS, &status);
		vhost_vdpa_close(&d->vhost);
	}
	if (d->ring_ready)
		vq_fini(&d->ring);
	d->ring_ready = false;
	shm_region_destroy(&d->shm);
	if (d->kick_fd >= 0)
		close(d->kick_fd);
	if (d->call_fd >= 0)
		close(d->call_fd);
	d->kick_fd = d->call_fd = -1;
	for (i = 0; i < d->n_data_vqs; i++) {
		if (d->data_vqs[i].kick_fd >= 0)
			close(d->data_vqs[i].kick_fd);
		if (d->data_vqs[i].call_fd >= 0)
			close(d->data_vqs[i].call_fd);
	}
	free(d->data_vqs);
	d->data_vqs = NULL;
	d->n_data_vqs = 0;
}
