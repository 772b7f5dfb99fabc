/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake vhost-vdpa net device for the unit tests of lib/ and load/: a
 * thread that serves a struct cvq_dev's control queue in memory shared
 * with the test, as a device does through the IOTLB (device addresses
 * are the test's own pointers). It also stands in for lib/cvq_dev.c's
 * set-up (negotiate, start, close) and for the status ioctl, so that the
 * real submission, wait and load code runs against it.
 */
#ifndef VDPACTL_FAKE_DEVICE_H
#define VDPACTL_FAKE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/compat.h"
#include "lib/cvq_dev.h"

enum fake_mode {
	FAKE_OK, /* ack every command OK, used length 1 */
	FAKE_ERR, /* ack every command ERR */
	FAKE_BAD_LEN, /* used length 0 */
	FAKE_IDX_JUMP, /* used index moved one past the entry written */
	FAKE_SILENT, /* take the commands, never complete them */
	FAKE_NEEDS_RESET, /* set DEVICE_NEEDS_RESET instead of completing */
	/*
	 * set DEVICE_NEEDS_RESET and give the command back unanswered, used
	 * length 0, as vdpa_sim_batch does for a driver error
	 */
	FAKE_GIVE_BACK,
};

/* How the next device started behaves; reset by fake_device_reset(). */
struct fake_config {
	enum fake_mode mode;
	unsigned int delay_ms; /* before each completion */
	bool notify; /* signal the call eventfd after each completion */
	unsigned int nack_every; /* ack every Nth command taken ERR; 0: none */
	/*
	 * Complete what each look at the ring found in reverse order, as a
	 * device without VIRTIO_F_IN_ORDER may (split rings).
	 */
	bool reverse;
	/* Complete only this many commands, then take others silently. */
	unsigned int stall_after;
	int negotiate_err; /* cvq_dev_negotiate() fails with it */
	int cold_start_err; /* cvq_dev_cold_start() fails with it */
	uint64_t extra_features; /* offered beyond the default offer */
	struct virtio_net_config net_config; /* VHOST_VDPA_GET_CONFIG reads */
};

/* What the device saw, for the test to check. */
struct fake_stats {
	unsigned int served; /* commands completed */
	unsigned int taken; /* avail entries consumed */
	unsigned int by_class[8]; /* commands per VIRTIO_NET_CTRL_* class */
	unsigned int batches_seen; /* avail index changes it noticed */
	unsigned int stops; /* cvq_dev_stop() */
	unsigned int cold_starts; /* cvq_dev_cold_start() */
	/* loads run at DRIVER_OK, after a stop, before the data queues */
	unsigned int loads_in_order;
	unsigned int data_enables; /* data queues enabled after a load */
};

extern struct fake_config fake_config;

void fake_device_reset(void);

/* Starts serving @d (set up by hand or by the fake cvq_dev_start()). */
int fake_device_attach(struct cvq_dev *d, const struct cvq_dev_layout *l);
void fake_device_detach(struct cvq_dev *d);

/*
 * A cmocka teardown: stops a device a failed test left running, so that
 * its thread does not outlive the test's memory.
 */
int fake_device_teardown(void **state);

/* Valid after fake_device_detach() or while the device is quiet. */
struct fake_stats fake_device_stats(void);

#endif
