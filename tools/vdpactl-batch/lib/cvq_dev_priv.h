/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the CVQ device session's files share, for them alone: the shared
 * memory's plan and the steps cvq_dev.c (the lifecycle) calls in
 * cvq_negotiate.c, cvq_shm.c and cvq_vring.c. Calls go from cvq_dev.c to
 * those three only, never back and never between them.
 */
#ifndef VDPACTL_CVQ_DEV_PRIV_H
#define VDPACTL_CVQ_DEV_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/cvq_dev.h"
#include "lib/util.h"
#include "lib/vring.h"

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
static inline size_t data_stride(const struct cvq_dev *d, enum vq_block block)
{
	struct vq_layout l;

	vq_layout(d->ring_format, d->data_ring_size, &l);
	return align_up(l.block_bytes[block], DATA_VQ_ALIGN);
}

/* cvq_negotiate.c */
int cvq_dev_negotiate_backend(struct cvq_dev *d, bool want_asid);
int cvq_dev_check_net_device(struct cvq_dev *d);
int cvq_dev_negotiate_features(struct cvq_dev *d, uint64_t wanted);
/* Sets @bits on top of the current status and checks the device kept them. */
int cvq_dev_add_status(struct cvq_dev *d, uint8_t bits, const char *step);
/* Gives the CVQ's virtqueue group address space 1, as QEMU's SVQ does. */
int cvq_dev_isolate_cvq_group(struct cvq_dev *d);
/* After a reset: FEATURES_OK and the CVQ's address space as before. */
int cvq_dev_features_ok_again(struct cvq_dev *d);

/* cvq_shm.c */
void cvq_dev_plan_shm(struct shm_plan *plan, const struct cvq_dev *d,
		      const struct cvq_dev_layout *layout, size_t page);
int cvq_dev_choose_iova_base(struct cvq_dev *d, size_t total, size_t page,
			     uint64_t *base);
/* Fills d->maps from @plan and adds them (cvq_dev_remap()). */
int cvq_dev_map_shm(struct cvq_dev *d, const struct shm_plan *plan,
		    uint64_t iova_base);

/* cvq_vring.c */
int cvq_dev_choose_ring_size(struct cvq_dev *d, unsigned int requested);
/* Room for a ring per data queue, the queues below the CVQ. */
int cvq_dev_plan_data_vqs(struct cvq_dev *d, unsigned int num);
void cvq_dev_place_data_vqs(struct cvq_dev *d, const struct shm_plan *plan,
			    uint64_t iova_base);
/* The CVQ's areas in the shm, an empty ring, cvq_dev_program_vring(). */
int cvq_dev_setup_vring(struct cvq_dev *d, const struct shm_plan *plan,
			uint64_t iova_base);
/* An empty ring: driver bookkeeping and the used ring start over. */
int cvq_dev_init_ring(struct cvq_dev *d);
/* The CVQ's vring ioctls, from SET_VRING_NUM to enabling the queue. */
int cvq_dev_program_vring(struct cvq_dev *d);
/* The same less the enable, which cvq_dev_enable_vq() does. */
int cvq_dev_setup_cvq(struct cvq_dev *d);
int cvq_dev_enable_vq(struct cvq_dev *d, unsigned int index);
int cvq_dev_setup_data_vqs(struct cvq_dev *d);
int cvq_dev_enable_data_vqs(struct cvq_dev *d);

#endif
