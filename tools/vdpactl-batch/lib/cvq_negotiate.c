// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CVQ device's negotiation: backend features, the device id, driver
 * features and the status steps up to FEATURES_OK, and the CVQ group's
 * address space of its own (again after a reset).
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>

#include "lib/cvq_dev_priv.h"
#include "lib/diag.h"
#include "lib/net_features.h"
#include "lib/util.h"

#define BASE_DRIVER_FEATURES                                               \
	(BIT_ULL(VIRTIO_F_VERSION_1) | BIT_ULL(VIRTIO_F_ACCESS_PLATFORM) | \
	 BIT_ULL(VIRTIO_NET_F_CTRL_VQ))

#define WANTED_BACKEND_FEATURES                  \
	(BIT_ULL(VHOST_BACKEND_F_IOTLB_MSG_V2) | \
	 BIT_ULL(VHOST_BACKEND_F_IOTLB_BATCH))

int cvq_dev_negotiate_backend(struct cvq_dev *d, bool want_asid)
{
	uint64_t wanted = WANTED_BACKEND_FEATURES;
	int err;

	if (want_asid)
		wanted |= BIT_ULL(VHOST_BACKEND_F_IOTLB_ASID);
	err = vhost_vdpa_ack_backend(&d->vhost, wanted, &d->backend_offered,
				     &d->backend_acked);
	if (err)
		return err;
	if (!(d->backend_offered & BIT_ULL(VHOST_BACKEND_F_IOTLB_MSG_V2))) {
		pr_err("%s: backend lacks IOTLB_MSG_V2", d->vhost.path);
		return -ENOTSUP;
	}
	if (want_asid &&
	    !(d->backend_offered & BIT_ULL(VHOST_BACKEND_F_IOTLB_ASID))) {
		pr_err("%s: --asid needs the IOTLB_ASID backend feature, which is not offered",
		       d->vhost.path);
		return -ENOTSUP;
	}
	return 0;
}

int cvq_dev_check_net_device(struct cvq_dev *d)
{
	uint32_t device_id;
	int err;

	err = VHOST_IOCTL(&d->vhost, VHOST_VDPA_GET_DEVICE_ID, &device_id);
	if (err)
		return err;
	if (device_id != VIRTIO_ID_NET) {
		pr_err("%s: virtio device id %" PRIu32
		       " is not a network device",
		       d->vhost.path, device_id);
		return -ENOTSUP;
	}
	return 0;
}

/* Sets @bits on top of the current status and checks the device kept them. */
int cvq_dev_add_status(struct cvq_dev *d, uint8_t bits, const char *step)
{
	uint8_t status;
	int err;

	err = vhost_vdpa_get_status(&d->vhost, &status);
	if (err)
		return err;
	err = vhost_vdpa_set_status(&d->vhost, status | bits);
	if (err)
		return err;
	err = vhost_vdpa_get_status(&d->vhost, &status);
	if (err)
		return err;
	if ((status & bits) != bits ||
	    (status & (VIRTIO_CONFIG_S_FAILED | VIRTIO_CONFIG_S_NEEDS_RESET))) {
		pr_err("%s: device refused %s (status 0x%02x)", d->vhost.path,
		       step, status);
		return -EIO;
	}
	return 0;
}

static int read_max_vqp(struct cvq_dev *d)
{
	uint16_t le_pairs;
	int err;

	d->max_vqp = 1;
	if (!net_has_pairs(d->driver_features))
		return 0;
	err = vhost_vdpa_get_config(&d->vhost,
				    offsetof(struct virtio_net_config,
					     max_virtqueue_pairs),
				    &le_pairs, sizeof(le_pairs));
	if (err)
		return err;
	d->max_vqp = le16toh(le_pairs);
	if (d->max_vqp < VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MIN ||
	    d->max_vqp > VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MAX) {
		pr_err("%s: config max_virtqueue_pairs %u is out of range",
		       d->vhost.path, d->max_vqp);
		return -EPROTO;
	}
	return 0;
}

/* From a reset device to FEATURES_OK with d->driver_features. */
static int status_to_features_ok(struct cvq_dev *d)
{
	int err;

	err = cvq_dev_add_status(d, VIRTIO_CONFIG_S_ACKNOWLEDGE, "ACKNOWLEDGE");
	if (!err)
		err = cvq_dev_add_status(d, VIRTIO_CONFIG_S_DRIVER, "DRIVER");
	if (!err)
		err = VHOST_IOCTL(&d->vhost, VHOST_SET_FEATURES,
				  &d->driver_features);
	if (!err)
		err = cvq_dev_add_status(d, VIRTIO_CONFIG_S_FEATURES_OK,
					 "FEATURES_OK");
	return err;
}

int cvq_dev_negotiate_features(struct cvq_dev *d, uint64_t wanted)
{
	int err;

	err = VHOST_IOCTL(&d->vhost, VHOST_GET_FEATURES, &d->device_features);
	if (err)
		return err;
	/* vhost-vdpa drives modern devices only, as QEMU checks too. */
	if (!(d->device_features & BIT_ULL(VIRTIO_F_VERSION_1))) {
		pr_err("%s: device does not offer VERSION_1", d->vhost.path);
		return -ENOTSUP;
	}
	if (!(d->device_features & BIT_ULL(VIRTIO_NET_F_CTRL_VQ))) {
		pr_err("%s: device does not offer CTRL_VQ", d->vhost.path);
		return -ENOTSUP;
	}
	d->driver_features = net_features_drop_unmet(
		d->device_features & (BASE_DRIVER_FEATURES | wanted));

	err = vhost_vdpa_set_status(&d->vhost, 0);
	if (!err)
		err = status_to_features_ok(d);
	if (!err)
		err = read_max_vqp(d);
	if (err)
		return err;
	d->cvq_index = net_cvq_index(d->driver_features, d->max_vqp);
	pr_verbose(
		d->vhost.verbose, 1,
		"%s: device features 0x%" PRIx64 ", driver features 0x%" PRIx64
		", backend features 0x%" PRIx64 " of 0x%" PRIx64 ", max_vqp %u",
		d->vhost.path, d->device_features, d->driver_features,
		d->backend_acked, d->backend_offered, d->max_vqp);
	return 0;
}

/*
 * *queue: the first data queue (below the CVQ's index) in virtqueue group
 * @group, or -1. The CVQ can have an address space of its own only if no
 * data queue shares its group; QEMU checks every data queue, since a
 * device may group its queue pairs differently.
 */
static int find_queue_in_group(struct cvq_dev *d, uint32_t group, int *queue)
{
	struct vhost_vring_state vq_group;
	unsigned int i;
	int err;

	*queue = -1;
	for (i = 0; i < d->cvq_index; i++) {
		vq_group = (struct vhost_vring_state){ .index = i };
		err = VHOST_IOCTL(&d->vhost, VHOST_VDPA_GET_VRING_GROUP,
				  &vq_group);
		if (err)
			return err;
		if (vq_group.num == group) {
			*queue = (int)i;
			break;
		}
	}
	return 0;
}

/* Gives the CVQ's virtqueue group address space 1, as QEMU's SVQ does. */
int cvq_dev_isolate_cvq_group(struct cvq_dev *d)
{
	struct vhost_vring_state cvq_group = { .index = d->cvq_index };
	struct vhost_vring_state group_asid;
	unsigned int nas;
	int err, shared;

	err = VHOST_IOCTL(&d->vhost, VHOST_VDPA_GET_VRING_GROUP, &cvq_group);
	if (!err)
		err = VHOST_IOCTL(&d->vhost, VHOST_VDPA_GET_AS_NUM, &nas);
	if (!err)
		err = find_queue_in_group(d, cvq_group.num, &shared);
	if (err)
		return err;
	if (shared >= 0) {
		pr_err("%s: the CVQ shares virtqueue group %u with data queue %d; it cannot have its own address space",
		       d->vhost.path, cvq_group.num, shared);
		return -ENOTSUP;
	}
	if (nas < 2) {
		pr_err("%s: the device has %u address space(s); --asid needs 2",
		       d->vhost.path, nas);
		return -ENOTSUP;
	}
	group_asid =
		(struct vhost_vring_state){ .index = cvq_group.num, .num = 1 };
	err = VHOST_IOCTL(&d->vhost, VHOST_VDPA_SET_GROUP_ASID, &group_asid);
	if (err)
		return err;
	d->asid = 1;
	return 0;
}

/* After a reset: FEATURES_OK and the CVQ's address space as before. */
int cvq_dev_features_ok_again(struct cvq_dev *d)
{
	int err = status_to_features_ok(d);

	/* A reset gave every group address space 0 again. */
	if (!err && d->asid)
		err = cvq_dev_isolate_cvq_group(d);
	return err;
}
