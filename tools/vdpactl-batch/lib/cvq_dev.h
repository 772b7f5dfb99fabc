/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A vhost-vdpa net device set up the way a real driver (QEMU's shadow
 * virtqueue) sets it up, with only its control virtqueue in use: feature
 * negotiation, optional address space of its own for the CVQ group, ring
 * and buffers in shared memory mapped through the IOTLB, DRIVER_OK.
 */
#ifndef VDPACTL_CVQ_DEV_H
#define VDPACTL_CVQ_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/shm.h"
#include "lib/vhost_vdpa.h"
#include "lib/vring.h"

/* QEMU's virtio-net control queue size: a shadow CVQ flushes every 32. */
#define CVQ_DEFAULT_RING_SIZE 64

/*
 * The CVQ's driver and device areas, commands, acks, and the data queues'
 * driver and device areas: one IOTLB map each.
 */
#define CVQ_DEV_MAPS 6

struct cvq_dev_layout {
	/*
	 * The CVQ's ring format, and the data queues' with it. Packed needs
	 * vq_format_features() among cvq_dev_negotiate()'s @wanted.
	 */
	enum vq_format format;
	unsigned int ring_size; /* 0: CVQ_DEFAULT_RING_SIZE or device max */
	size_t cmd_bytes; /* device-readable command buffer */
	size_t ack_bytes; /* device-writable ack buffer */
	bool own_asid; /* put the CVQ group in address space 1 */
	/*
	 * Rings for every data queue (the queues below the CVQ), of this
	 * size, set up by cvq_dev_cold_start(); 0: none.
	 */
	unsigned int data_ring_size;
};

/* A data queue's ring, which cvq_dev_cold_start() only enables. */
struct cvq_data_vq {
	struct vhost_vring_addr addr;
	int kick_fd;
	int call_fd;
};

struct cvq_dev {
	struct vhost_vdpa vhost;
	uint64_t device_features;
	uint64_t driver_features;
	uint64_t backend_offered;
	uint64_t backend_acked;
	uint16_t max_vqp;
	unsigned int cvq_index;
	unsigned int ring_max;
	unsigned int ring_size;
	uint32_t asid;
	struct shm_region shm;
	struct iotlb_map maps[CVQ_DEV_MAPS]; /* what the device may reach */
	unsigned int n_maps;
	unsigned int n_cvq_maps; /* maps[0..n_cvq_maps) are in d->asid */
	uint64_t iova_end; /* first IOVA past the maps */
	struct vhost_vring_addr vring_addr;
	enum vq_format ring_format;
	/* The CVQ's areas: desc, driver (avail) and device (used). */
	void *ring_area_desc, *ring_area_driver, *ring_area_device;
	/* Split only (NULL on a packed ring): the same areas, typed. */
	struct vring_desc *ring_desc;
	struct vring_avail *ring_avail;
	struct vring_used *ring_used;
	struct vq_driver ring;
	bool ring_ready;
	uint8_t *cmd_buf;
	uint64_t cmd_iova;
	uint8_t *ack_buf;
	uint64_t ack_iova;
	int kick_fd;
	int call_fd;
	struct cvq_data_vq *data_vqs; /* [cvq_index], or NULL */
	unsigned int n_data_vqs;
	unsigned int data_ring_size;
};

/*
 * Opens @chardev and negotiates up to FEATURES_OK, offering VERSION_1,
 * ACCESS_PLATFORM, CTRL_VQ and whatever of @wanted the device has.
 * @want_asid acks the IOTLB_ASID backend feature. Prints failures.
 */
int cvq_dev_negotiate(struct cvq_dev *d, const char *chardev, uint64_t wanted,
		      bool want_asid, int verbose);

/*
 * Allocates, maps and enables the CVQ, then sets DRIVER_OK. A packed
 * layout fails (-ENOTSUP, printed) unless RING_PACKED was negotiated,
 * a split one if it was.
 */
int cvq_dev_start(struct cvq_dev *d, const struct cvq_dev_layout *layout);

/* cvq_dev_start() in two steps: all but DRIVER_OK, then DRIVER_OK. */
int cvq_dev_prepare(struct cvq_dev *d, const struct cvq_dev_layout *layout);
int cvq_dev_driver_ok(struct cvq_dev *d);

/*
 * After the caller reset the device (status 0) on the same descriptor:
 * the same features, maps and an empty ring again, up to DRIVER_OK.
 */
int cvq_dev_restart(struct cvq_dev *d);

/* What cvq_dev_cold_start() runs between DRIVER_OK and the data queues. */
typedef int (*cvq_dev_load_fn)(void *arg);

/*
 * A cold start, as QEMU starts a vhost-vdpa net device when a VM boots or
 * arrives by migration, with @load in the place of QEMU's CVQ state load.
 * Needs a layout with data_ring_size and, before it, cvq_dev_stop().
 * Returns the first failure (@load's own included).
 */
int cvq_dev_cold_start(struct cvq_dev *d, cvq_dev_load_fn load, void *arg);

/*
 * What QEMU does when it stops the device: reset, then remove every IOTLB
 * map; cvq_dev_cold_start() maps the memory again.
 */
int cvq_dev_stop(struct cvq_dev *d);

/* Removes, or adds again, every IOTLB map of the device's memory. */
int cvq_dev_unmap(struct cvq_dev *d);
int cvq_dev_remap(struct cvq_dev *d);

/*
 * Split rings only. Before DRIVER_OK, after VHOST_SET_VRING_BASE to @idx:
 * starts the ring's
 * avail and used indices (in memory and in the driver's bookkeeping) at
 * @idx instead of 0.
 */
void cvq_dev_ring_base(struct cvq_dev *d, uint16_t idx);

/* For a diagnostic: has the device given up (DEVICE_NEEDS_RESET)? */
bool cvq_dev_needs_reset(struct cvq_dev *d);

/* Resets the device and releases everything; safe on a partial setup. */
void cvq_dev_close(struct cvq_dev *d);

#endif
