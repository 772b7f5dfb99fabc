// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vhost-vdpa device setup for a control-virtqueue-only driver. The ioctl
 * order follows what vhost-vdpa requires: owner, backend features before
 * any IOTLB write, status and features, address spaces, IOTLB, ring,
 * DRIVER_OK.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lib/cvq_dev.h"
#include "lib/diag.h"
#include "lib/net_features.h"
#include "lib/util.h"

#define BASE_DRIVER_FEATURES                                               \
	(BIT_ULL(VIRTIO_F_VERSION_1) | BIT_ULL(VIRTIO_F_ACCESS_PLATFORM) | \
	 BIT_ULL(VIRTIO_NET_F_CTRL_VQ))

#define WANTED_BACKEND_FEATURES                  \
	(BIT_ULL(VHOST_BACKEND_F_IOTLB_MSG_V2) | \
	 BIT_ULL(VHOST_BACKEND_F_IOTLB_BATCH))

static int negotiate_backend(struct cvq_dev *d, bool want_asid)
{
	uint64_t wanted = WANTED_BACKEND_FEATURES;
	int err;

	err = VHOST_IOCTL(&d->vhost, VHOST_GET_BACKEND_FEATURES,
			  &d->backend_offered);
	if (err)
		return err;
	if (!(d->backend_offered & BIT_ULL(VHOST_BACKEND_F_IOTLB_MSG_V2))) {
		pr_err("%s: backend lacks IOTLB_MSG_V2", d->vhost.path);
		return -ENOTSUP;
	}
	if (want_asid) {
		if (!(d->backend_offered &
		      BIT_ULL(VHOST_BACKEND_F_IOTLB_ASID))) {
			pr_err("%s: --asid needs the IOTLB_ASID backend feature, which is not offered",
			       d->vhost.path);
			return -ENOTSUP;
		}
		wanted |= BIT_ULL(VHOST_BACKEND_F_IOTLB_ASID);
	}
	d->backend_acked = d->backend_offered & wanted;
	err = VHOST_IOCTL(&d->vhost, VHOST_SET_BACKEND_FEATURES,
			  &d->backend_acked);
	if (err)
		return err;
	d->vhost.iotlb_batch = d->backend_acked &
			       BIT_ULL(VHOST_BACKEND_F_IOTLB_BATCH);
	return 0;
}

static int check_net_device(struct cvq_dev *d)
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
static int add_status(struct cvq_dev *d, uint8_t bits, const char *step)
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

	err = add_status(d, VIRTIO_CONFIG_S_ACKNOWLEDGE, "ACKNOWLEDGE");
	if (!err)
		err = add_status(d, VIRTIO_CONFIG_S_DRIVER, "DRIVER");
	if (!err)
		err = VHOST_IOCTL(&d->vhost, VHOST_SET_FEATURES,
				  &d->driver_features);
	if (!err)
		err = add_status(d, VIRTIO_CONFIG_S_FEATURES_OK, "FEATURES_OK");
	return err;
}

static int negotiate_features(struct cvq_dev *d, uint64_t wanted)
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
		err = negotiate_backend(d, want_asid);
	if (!err)
		err = check_net_device(d);
	if (!err)
		err = negotiate_features(d, wanted);
	if (err)
		cvq_dev_close(d);
	return err;
}

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

static int choose_ring_size(struct cvq_dev *d, unsigned int requested)
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
static int isolate_cvq_group(struct cvq_dev *d)
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

/*
 * The parts the device sees, each in its own pages; the data queues' parts
 * are empty (and not mapped) unless the layout asks for data rings.
 */
enum shm_part {
	PART_DRIVER,
	PART_DEVICE,
	PART_CMD,
	PART_ACK,
	PART_DATA_DRIVER,
	PART_DATA_DEVICE,
	PART_COUNT
};

/* The CVQ's parts come first: they live in the CVQ group's space. */
#define CVQ_PARTS (PART_ACK + 1)

/* Each data queue's areas start on their own cache line. */
#define DATA_VQ_ALIGN 64

struct shm_plan {
	size_t offset[PART_COUNT];
	size_t size[PART_COUNT];
	size_t total;
};

/* A data queue's share of PART_DATA_DRIVER or PART_DATA_DEVICE. */
static size_t data_stride(const struct cvq_dev *d, enum vq_block block)
{
	struct vq_layout l;

	vq_layout(d->ring_format, d->data_ring_size, &l);
	return align_up(l.block_bytes[block], DATA_VQ_ALIGN);
}

static void plan_shm(struct shm_plan *plan, const struct cvq_dev *d,
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

static int choose_iova_base(struct cvq_dev *d, size_t total, size_t page,
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

static int map_shm(struct cvq_dev *d, const struct shm_plan *plan,
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

/* A vring ioctl on queue @index, named with the queue in a failure. */
static int vring_ioctl(struct cvq_dev *d, unsigned int index, unsigned long req,
		       void *arg, const char *name)
{
	char what[64];

	snprintf(what, sizeof(what), "%s (vq %u)", name, index);
	return vhost_vdpa_ioctl(&d->vhost, req, arg, what);
}

#define VRING_IOCTL(d, index, req, arg) vring_ioctl(d, index, req, arg, #req)

static int setup_eventfd(struct cvq_dev *d, unsigned int index, int *fd,
			 unsigned long req, const char *name)
{
	struct vhost_vring_file file = { .index = index };

	/* A restart hands the device the eventfds it had. */
	if (*fd < 0)
		*fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (*fd < 0)
		return pr_errno(errno, "eventfd for %s (vq %u)", name, index);
	file.fd = *fd;
	return vring_ioctl(d, index, req, &file, name);
}

/*
 * The vring ioctls of one queue, in vhost_virtqueue_start()'s order less
 * the enable: size, base (vq_base()'s encoding), addresses, kick and call
 * eventfds.
 */
static int setup_vq(struct cvq_dev *d, unsigned int index, unsigned int num,
		    uint32_t base, struct vhost_vring_addr *addr, int *kick_fd,
		    int *call_fd)
{
	struct vhost_vring_state state = { .index = index, .num = num };
	int err;

	err = VRING_IOCTL(d, index, VHOST_SET_VRING_NUM, &state);
	state.num = base;
	if (!err)
		err = VRING_IOCTL(d, index, VHOST_SET_VRING_BASE, &state);
	if (!err)
		err = VRING_IOCTL(d, index, VHOST_SET_VRING_ADDR, addr);
	if (!err)
		err = setup_eventfd(d, index, kick_fd, VHOST_SET_VRING_KICK,
				    "VHOST_SET_VRING_KICK");
	/*
	 * A call fd even when busy-polling: QEMU's shadow virtqueue has one,
	 * so the device does the same work in both wait modes.
	 */
	if (!err)
		err = setup_eventfd(d, index, call_fd, VHOST_SET_VRING_CALL,
				    "VHOST_SET_VRING_CALL");
	return err;
}

static int enable_vq(struct cvq_dev *d, unsigned int index)
{
	struct vhost_vring_state state = { .index = index, .num = 1 };

	return VRING_IOCTL(d, index, VHOST_VDPA_SET_VRING_ENABLE, &state);
}

static int setup_cvq(struct cvq_dev *d)
{
	return setup_vq(d, d->cvq_index, d->ring_size, vq_base(&d->ring),
			&d->vring_addr, &d->kick_fd, &d->call_fd);
}

/* The CVQ's vring ioctls, from SET_VRING_NUM to enabling the queue. */
static int program_vring(struct cvq_dev *d)
{
	int err = setup_cvq(d);

	return err ? err : enable_vq(d, d->cvq_index);
}

/* An empty ring: driver bookkeeping and the used ring start over. */
static int init_ring(struct cvq_dev *d)
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

/* Where @area of a ring whose blocks start at @driver and @device is. */
static uint64_t area_offset(const struct vq_area *area, uint64_t driver,
			    uint64_t device)
{
	return (area->block == VQ_BLOCK_DRIVER ? driver : device) +
	       area->offset;
}

/* A ring's VHOST_SET_VRING_ADDR, from where its two blocks are. */
static struct vhost_vring_addr ring_addr(const struct vq_layout *l,
					 unsigned int index, uint64_t driver,
					 uint64_t device)
{
	return (struct vhost_vring_addr){
		.index = index,
		.desc_user_addr = area_offset(&l->desc, driver, device),
		.avail_user_addr = area_offset(&l->driver, driver, device),
		.used_user_addr = area_offset(&l->device, driver, device),
	};
}

static int setup_vring(struct cvq_dev *d, const struct shm_plan *plan,
		       uint64_t iova_base)
{
	uint8_t *base = d->shm.base;
	size_t driver = plan->offset[PART_DRIVER];
	size_t device = plan->offset[PART_DEVICE];
	struct vq_layout l;
	int err;

	vq_layout(d->ring_format, d->ring_size, &l);
	d->vring_addr = ring_addr(&l, d->cvq_index, iova_base + driver,
				  iova_base + device);
	d->ring_area_desc = base + area_offset(&l.desc, driver, device);
	d->ring_area_driver = base + area_offset(&l.driver, driver, device);
	d->ring_area_device = base + area_offset(&l.device, driver, device);
	if (d->ring_format == VQ_FORMAT_SPLIT) {
		d->ring_desc = d->ring_area_desc;
		d->ring_avail = d->ring_area_driver;
		d->ring_used = d->ring_area_device;
	}
	err = init_ring(d);
	if (!err)
		err = program_vring(d);
	return err;
}

/* Room for a ring per data queue, the queues below the CVQ. */
static int plan_data_vqs(struct cvq_dev *d, unsigned int num)
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

static void place_data_vqs(struct cvq_dev *d, const struct shm_plan *plan,
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
		d->data_vqs[i].addr = ring_addr(&l, i, driver_iova + i * driver,
						device_iova + i * device);
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
		err = choose_ring_size(d, layout->ring_size);
	if (!err)
		err = plan_data_vqs(d, layout->data_ring_size);
	if (err)
		return err;
	plan_shm(&plan, d, layout, page);
	err = choose_iova_base(d, plan.total, page, &iova_base);
	if (err)
		return err;
	err = shm_region_create(&d->shm, "vdpactl-batch-cvq", plan.total);
	if (err)
		return err;
	d->cmd_buf = (uint8_t *)d->shm.base + plan.offset[PART_CMD];
	d->ack_buf = (uint8_t *)d->shm.base + plan.offset[PART_ACK];
	d->cmd_iova = iova_base + plan.offset[PART_CMD];
	d->ack_iova = iova_base + plan.offset[PART_ACK];
	place_data_vqs(d, &plan, iova_base);

	if (layout->own_asid) {
		err = isolate_cvq_group(d);
		if (err)
			return err;
	}
	err = map_shm(d, &plan, iova_base);
	if (!err)
		err = setup_vring(d, &plan, iova_base);
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
	return add_status(d, VIRTIO_CONFIG_S_DRIVER_OK, "DRIVER_OK");
}

int cvq_dev_start(struct cvq_dev *d, const struct cvq_dev_layout *layout)
{
	int err = cvq_dev_prepare(d, layout);

	return err ? err : cvq_dev_driver_ok(d);
}

/* After a reset: FEATURES_OK and the CVQ's address space as before. */
static int features_ok_again(struct cvq_dev *d)
{
	int err = status_to_features_ok(d);

	/* A reset gave every group address space 0 again. */
	if (!err && d->asid)
		err = isolate_cvq_group(d);
	return err;
}

int cvq_dev_restart(struct cvq_dev *d)
{
	int err;

	/* A reset may have dropped the device's maps; vhost keeps its own. */
	err = features_ok_again(d);
	if (!err)
		err = cvq_dev_unmap(d);
	if (!err)
		err = cvq_dev_remap(d);
	if (!err)
		err = init_ring(d);
	if (!err)
		err = program_vring(d);
	if (!err)
		err = cvq_dev_driver_ok(d);
	return err;
}

static int setup_data_vqs(struct cvq_dev *d)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < d->n_data_vqs; i++)
		err = setup_vq(d, i, d->data_ring_size,
			       vq_fresh_base(d->ring_format),
			       &d->data_vqs[i].addr, &d->data_vqs[i].kick_fd,
			       &d->data_vqs[i].call_fd);
	return err;
}

static int enable_data_vqs(struct cvq_dev *d)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < d->n_data_vqs; i++)
		err = enable_vq(d, i);
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
		err = features_ok_again(d);
	if (!err)
		err = init_ring(d);
	if (!err)
		err = setup_cvq(d);
	if (!err)
		err = setup_data_vqs(d);
	if (!err)
		err = cvq_dev_remap(d);
	if (!err)
		err = cvq_dev_driver_ok(d);
	if (!err)
		err = enable_vq(d, d->cvq_index);
	if (!err)
		err = load(arg);
	if (!err)
		err = enable_data_vqs(d);
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
