/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fault-injection cases: what each sends and what a correct device
 * must do, by the bad-input matrix's numbers (Documentation/bad-input.rst).
 */
#ifndef VDPACTL_INJECT_CASE_H
#define VDPACTL_INJECT_CASE_H

#include <stdbool.h>
#include <stdint.h>

#include "inject/inject_ring.h"
#include "lib/vring.h"

/* How a case reaches the device. */
enum inject_kind {
	KIND_RING, /* chains on a running control queue */
	KIND_VRING_NUM, /* a bad queue size, then DRIVER_OK */
	KIND_FEATURES, /* features lacking a required bit */
	KIND_KICK_EARLY, /* a kick before DRIVER_OK */
	KIND_CONFIG, /* GET/SET_CONFIG out of range */
	KIND_SUSPENDED, /* a command while suspended */
	KIND_SUSPEND_EARLY, /* SUSPEND before DRIVER_OK */
	KIND_STRESS, /* an operation in the middle of a running load */
	KIND_VRING_BASE, /* a queue started at a non-zero avail index */
	KIND_NOTIFY, /* used-buffer notification suppression */
	KIND_MMAP, /* mmap of a notification area out of range */
	KIND_CONFIG_EARLY, /* GET_CONFIG before features are negotiated */
	KIND_IOTLB_SPLIT, /* a command over IOTLB maps of scattered pages */
	KIND_PACKED, /* chains on a running packed control queue */
};

/* KIND_PACKED: the fault its chains carry (inject_ring_packed.c). */
enum inject_packed_fault {
	/* [cmd R][ack W] with AVAIL = !w, USED = w: the previous lap's */
	PACKED_WRONG_WRAP,
	/* [cmd R][ack W] with AVAIL = USED = w, a used element's bits */
	PACKED_FLAGS_MISMATCH,
	/* two valid chains, one batch, the second with the first's id */
	PACKED_ID_REUSE,
	/* a valid chain whose buffer id is the queue size */
	PACKED_ID_RANGE,
	PACKED_FAULT_COUNT
};

/* The command a ring case carries. */
enum inject_payload {
	PAYLOAD_MAC, /* MAC_ADDR_SET, 6 bytes */
	PAYLOAD_MAC_SHORT, /* MAC_ADDR_SET, 5 bytes */
	PAYLOAD_MAC_LONG, /* MAC_ADDR_SET, 7 bytes */
	PAYLOAD_UNKNOWN_CLASS, /* class 0x7f */
	PAYLOAD_UNKNOWN_CMD, /* class MAC, command 0x7f */
	PAYLOAD_MQ_ZERO, /* VQ_PAIRS_SET 0 */
	PAYLOAD_MQ_OVER_MAX, /* VQ_PAIRS_SET max_vqp + 1 */
	PAYLOAD_MQ_ONE, /* VQ_PAIRS_SET 1 */
};

/* What a correct device does. */
enum inject_expect {
	EXPECT_OK, /* every chain acked OK, used len 1; no NEEDS_RESET */
	EXPECT_ERR, /* the case's chain acked ERR, used len 1; state kept */
	EXPECT_RESET, /* NEEDS_RESET; a chain given back has len 0, no ack */
	EXPECT_ERR_OR_RESET, /* either, and the chain is not left pending */
	EXPECT_REFUSED, /* an ioctl fails or the device will not run it */
	EXPECT_UNTOUCHED, /* nothing served until allowed, then served OK */
	EXPECT_SURVIVES, /* completes or fails cleanly, then works again */
	EXPECT_NOTIFY, /* each command acked OK, notified as the rule says */
	EXPECT_ACCEPTED, /* every probe succeeds */
	/*
	 * The chain is not consumed (no used element, no ack, no
	 * NEEDS_RESET); made available properly, it is served OK.
	 */
	EXPECT_IGNORED,
};

/* KIND_VRING_NUM sizes, KIND_CONFIG directions, KIND_STRESS operations. */
enum inject_param {
	PARAM_NONE,
	PARAM_NUM_ZERO,
	PARAM_NUM_NPOT,
	PARAM_NUM_OVER_MAX,
	PARAM_CONFIG_GET,
	PARAM_CONFIG_SET,
	PARAM_STRESS_RESET,
	PARAM_STRESS_SUSPEND,
	PARAM_STRESS_REMAP,
	PARAM_STRESS_CLOSE,
	PARAM_NOTIFY_FLAGS, /* VRING_AVAIL_F_NO_INTERRUPT, no EVENT_IDX */
	PARAM_NOTIFY_EVENT_IDX, /* a used_event sweep with EVENT_IDX */
};

struct inject_case {
	const char *name;
	const char *matrix; /* row of the bad-input matrix */
	const char *sends;
	const char *expects;
	enum inject_kind kind;
	enum inject_shape shape; /* KIND_RING */
	enum inject_payload payload; /* KIND_RING */
	enum inject_packed_fault packed; /* KIND_PACKED */
	bool ok_first; /* a valid command ahead of it in the same batch */
	uint64_t want; /* features asked for besides the required ones */
	uint64_t need; /* features the device must offer, else not run */
	unsigned int feature_dropped; /* KIND_FEATURES: the bit left out */
	bool needs_suspend; /* needs the SUSPEND and RESUME backend features */
	enum inject_param param;
	enum inject_expect expect;
};

/* The ring formats a case runs on. */
enum inject_rings {
	INJECT_RINGS_SPLIT, /* it builds split ring chains */
	INJECT_RINGS_PACKED, /* it builds packed ring chains */
	INJECT_RINGS_ANY, /* its ring only carries valid commands */
};

enum inject_rings inject_case_rings(const struct inject_case *c);

/*
 * The ring format @c runs on: its own, or @asked if @given and the case
 * runs on any. -EOPNOTSUPP if @given names a format the case cannot use.
 */
int inject_case_ring(const struct inject_case *c, bool given,
		     enum vq_format asked, enum vq_format *ring);

extern const struct inject_case inject_cases[];
extern const unsigned int inject_case_count;

/* The case @name names exactly or as a unique prefix; NULL if none. */
const struct inject_case *inject_case_find(const char *name);

#endif
