/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running a fault-injection case on a vhost-vdpa device: set it up like
 * a load, inject, observe, then reset it and prove it still works.
 */
#ifndef VDPACTL_INJECT_RUN_H
#define VDPACTL_INJECT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "inject/inject_case.h"
#include "inject/inject_obs.h"
#include "inject/inject_ring.h"
#include "lib/cvq_dev.h"

/* The control queue of ring cases: a chain of num carries a command. */
#define INJECT_RING_NUM 8
#define INJECT_CMD_BYTES 4096
#define INJECT_ACK_BYTES 64

/*
 * KIND_VRING_BASE: a queue below the maximum, started where its first
 * two chains take the last ring entry and the index wraps to 0.
 */
#define INJECT_BASE_RING_NUM 64
#define INJECT_BASE_AVAIL_IDX 0xffff

/* After NEEDS_RESET, how long a chain may still take to come back. */
#define INJECT_GRACE_MS 50
/* How long a command must stay untouched before it may be served. */
#define INJECT_HOLD_MS 200

#define INJECT_DEFAULT_TIMEOUT_MS 1000
#define INJECT_DEFAULT_ROUNDS 20
#define INJECT_ROUNDS_MAX 100000

struct inject_opts {
	const char *devname;
	const char *chardev;
	unsigned int timeout_ms; /* longest wait for the device */
	unsigned int rounds; /* KIND_STRESS: operations */
	bool no_recovery; /* skip the reset and load afterwards */
	/* The ring format asked for, if given; see inject_case_ring(). */
	enum vq_format ring;
	bool ring_given;
	int verbose;
};

/* One case's run; the device part is shared with inject_stress.c. */
struct inject_session {
	const struct inject_case *c;
	const struct inject_opts *o;
	struct inject_obs *obs;
	struct cvq_dev dev;
	bool dev_open;
	enum vq_format ring_format; /* of the CVQ and the recovery load */
	struct inject_ring ring;
	uint16_t used_base; /* the used index the case's chains start at */
	uint64_t fragmented_iova; /* KIND_IOTLB_SPLIT: the command's copy */
	void *fragmented_mem; /* its pages, unmapped at close */
	size_t fragmented_len;
	struct inject_chain chains[INJECT_CHAINS_MAX];
};

/*
 * Runs @c and fills @obs, verdict included. Returns 0 when the case ran
 * (whatever the device did), -errno when the tool could not run it
 * (reported on stderr).
 */
int inject_run(const struct inject_case *c, const struct inject_opts *o,
	       struct inject_obs *obs);

/* The runners of inject_setup.c and inject_stress.c. */
int inject_run_vring_num(struct inject_session *s);
int inject_run_features(struct inject_session *s);
int inject_run_config(struct inject_session *s);
int inject_run_stress(struct inject_session *s);
int inject_run_notify(struct inject_session *s);
int inject_run_mmap(struct inject_session *s);
int inject_run_config_early(struct inject_session *s);
int inject_run_fragmented(struct inject_session *s);
int inject_run_packed(struct inject_session *s);
/* The bytes of @payload; @max_vqp for PAYLOAD_MQ_OVER_MAX. */
uint32_t inject_payload_bytes(enum inject_payload payload, uint16_t max_vqp,
			      uint8_t *buf);
/* Builds the case's chains on the running queue, kicks and observes. */
int inject_run_chains(struct inject_session *s);

/*
 * Helpers for all of them. inject_open() negotiates and sets the device
 * up (to DRIVER_OK or not), or marks the case skipped when the device
 * lacks what it needs; inject_open_ring() with the ring cases' layout.
 */
int inject_open(struct inject_session *s, unsigned int ring_size,
		size_t cmd_bytes, size_t ack_bytes, bool driver_ok);
int inject_open_ring(struct inject_session *s, bool driver_ok);
void inject_close(struct inject_session *s);
int inject_status(struct inject_session *s, uint8_t *status);
/* The config space's MAC. */
int inject_read_mac(struct inject_session *s, uint8_t mac[MAC_LEN]);
/* One valid MAC_ADDR_SET as the next chain of a fresh inject_ring. */
int inject_add_command(struct inject_session *s);
/*
 * Another valid MAC_ADDR_SET as the only chain in flight, after the ones
 * before came back: their descriptors are reused, the avail index goes
 * on.
 */
int inject_next_command(struct inject_session *s);
/* Publishes the chains built so far. */
void inject_publish(struct inject_session *s);
/*
 * Waits until @want chains came back (and NEEDS_RESET if @want_reset),
 * NEEDS_RESET has been up for a grace time, or the timeout.
 */
bool inject_wait_used(struct inject_session *s, uint16_t want, bool want_reset);
/* Publishes, kicks, waits for the chains built and observes. */
int inject_send(struct inject_session *s);
/* Reads back used entries, acks and the status into the observation. */
void inject_observe(struct inject_session *s);
uint16_t inject_used_idx(const struct inject_session *s);
void inject_sleep_ms(unsigned int ms);

#endif
