// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fault-injection cases. "expects" states the rule a correct device
 * follows (virtio spec, vhost-vdpa's parent contract, or QEMU's de facto
 * CVQ behaviour where the spec is silent); Documentation/bad-input.rst
 * lists what each device was seen to do.
 */
#include <errno.h>
#include <string.h>

#include "inject/inject_case.h"
#include "lib/compat.h"
#include "lib/util.h"

#define F(bit) BIT_ULL(bit)
#define F_MAC_ADDR F(VIRTIO_NET_F_CTRL_MAC_ADDR)
#define F_INDIRECT F(VIRTIO_RING_F_INDIRECT_DESC)
#define F_MQ F(VIRTIO_NET_F_MQ)
#define F_EVENT_IDX F(VIRTIO_RING_F_EVENT_IDX)
#define F_PACKED F(VIRTIO_F_RING_PACKED)

/* A chain of @shape carrying a MAC_ADDR_SET, indirect tables allowed. */
#define RING(shape_) \
	.kind = KIND_RING, .shape = (shape_), .want = F_MAC_ADDR | F_INDIRECT
/* The same on a device that must have negotiated indirect descriptors. */
#define RING_INDIRECT(shape_) RING(shape_), .need = F_INDIRECT
/* A well-formed chain with command @payload_. */
#define CMD(payload_) RING(SHAPE_NORMAL), .payload = (payload_)
/* The same with features @want_ instead. */
#define CMD_WANT(payload_, want_)                                        \
	.kind = KIND_RING, .shape = SHAPE_NORMAL, .payload = (payload_), \
	.want = F_MAC_ADDR | (want_)

/* Chains with @fault_ on a packed CVQ, after a lap of valid commands. */
#define PACKED(fault_)                                                   \
	.kind = KIND_PACKED, .packed = (fault_), .payload = PAYLOAD_MAC, \
	.want = F_MAC_ADDR | F_PACKED, .need = F_PACKED

#define RESET_RULE                                                                  \
	"NEEDS_RESET (config interrupt); a chain given back has used len 0 and no " \
	"ack"
#define CVQ_ERR_RULE "ack ERR with used len 1; state unchanged; no NEEDS_RESET"

const struct inject_case inject_cases[] = {
	{ "head-range", "1", "avail ring entry = num (no such descriptor)",
	  RESET_RULE " (no head to give back); no out-of-range read",
	  RING(SHAPE_HEAD_RANGE), .expect = EXPECT_RESET },
	{ "avail-idx-ahead", "1", "avail idx published num + 1 ahead",
	  RESET_RULE, RING(SHAPE_AVAIL_IDX_AHEAD), .expect = EXPECT_RESET },
	{ "next-loop", "2", "a descriptor whose next is itself",
	  "stop after at most num descriptors; " RESET_RULE,
	  RING(SHAPE_NEXT_LOOP), .expect = EXPECT_RESET },
	{ "indirect-loop", "3",
	  "indirect table of 2 whose second entry points back to the first",
	  "loop bounded by the table length; " RESET_RULE,
	  RING_INDIRECT(SHAPE_INDIRECT_LOOP), .expect = EXPECT_RESET },
	{ "chain-num", "4",
	  "a chain of exactly num descriptors (command in num - 1 pieces)",
	  "accepted: ack OK, used len 1", RING(SHAPE_CHAIN_NUM),
	  .expect = EXPECT_OK },
	{ "chain-too-long", "4",
	  "a chain of num + 1 buffers (1 direct, num in an indirect table)",
	  "rejected: " RESET_RULE, RING_INDIRECT(SHAPE_CHAIN_TOO_LONG),
	  .expect = EXPECT_RESET },
	{ "next-range", "5", "a descriptor whose next is num",
	  "rejected without reading past the table: " RESET_RULE,
	  RING(SHAPE_NEXT_RANGE), .expect = EXPECT_RESET },
	{ "indirect-len-zero", "6", "indirect table pointer of length 0",
	  "rejected: " RESET_RULE, RING_INDIRECT(SHAPE_INDIRECT_LEN_ZERO),
	  .expect = EXPECT_RESET },
	{ "indirect-len-odd", "6", "indirect table pointer of length 24",
	  "rejected (not a multiple of 16): " RESET_RULE,
	  RING_INDIRECT(SHAPE_INDIRECT_LEN_ODD), .expect = EXPECT_RESET },
	{ "indirect-nested", "7",
	  "an indirect table whose entry is an indirect table",
	  "rejected: " RESET_RULE, RING_INDIRECT(SHAPE_INDIRECT_NESTED),
	  .expect = EXPECT_RESET },
	{ "indirect-no-feature", "7",
	  "a valid indirect chain without RING_INDIRECT_DESC negotiated",
	  "rejected: " RESET_RULE, .kind = KIND_RING, .shape = SHAPE_INDIRECT,
	  .want = F_MAC_ADDR, .expect = EXPECT_RESET },
	{ "indirect-next", "7",
	  "INDIRECT | NEXT on the table pointer, then the ack",
	  "rejected: " RESET_RULE, RING_INDIRECT(SHAPE_INDIRECT_NEXT),
	  .expect = EXPECT_RESET },
	{ "indirect-write-flag", "7",
	  "a valid indirect chain with F_WRITE on the table pointer",
	  "F_WRITE ignored: ack OK, used len 1",
	  RING_INDIRECT(SHAPE_INDIRECT_WRITE_FLAG), .expect = EXPECT_OK },
	{ "write-order", "8", "the writable ack before the readable command",
	  "rejected: " RESET_RULE, RING(SHAPE_WRITE_ORDER),
	  .expect = EXPECT_RESET },
	{ "zero-len", "9", "a zero-length readable descriptor inside a chain",
	  "harmless: ack OK, used len 1", RING(SHAPE_ZERO_LEN),
	  .expect = EXPECT_OK },
	{ "addr-wrap", "9", "a buffer at 2^64 - 4 of length 8",
	  "rejected: " RESET_RULE, RING(SHAPE_ADDR_WRAP),
	  .expect = EXPECT_RESET },
	{ "buffer-unmapped", "10", "the command at an IOVA with no mapping",
	  "clean failure, no spin: " RESET_RULE, RING(SHAPE_BUFFER_UNMAPPED),
	  .expect = EXPECT_RESET },
	{ "ack-read-only", "11",
	  "the writable ack descriptor in a read-only map",
	  "nothing written there; " RESET_RULE, RING(SHAPE_ACK_READ_ONLY),
	  .expect = EXPECT_RESET },
	{ "cvq-no-ack", "23", "a command with no writable descriptor",
	  "readable buffers never written; " RESET_RULE, RING(SHAPE_NO_ACK),
	  .expect = EXPECT_RESET },
	{ "cvq-short-header", "24", "a command of 1 byte, then the ack",
	  "ack ERR or NEEDS_RESET; the chain is never left uncompleted",
	  RING(SHAPE_SHORT_HEADER), .expect = EXPECT_ERR_OR_RESET },
	{ "cvq-split-header", "25",
	  "MAC_ADDR_SET with class, command and data in 3 descriptors",
	  "parsed: ack OK, used len 1, MAC updated", RING(SHAPE_SPLIT_HEADER),
	  .expect = EXPECT_OK },
	{ "cvq-unknown-class", "26",
	  "MAC_ADDR_SET then class 0x7f, in one batch",
	  "OK for the first, then " CVQ_ERR_RULE " (never a stale OK)",
	  CMD(PAYLOAD_UNKNOWN_CLASS), .ok_first = true, .expect = EXPECT_ERR },
	{ "cvq-unknown-cmd", "26",
	  "MAC_ADDR_SET then class MAC command 0x7f, in one batch",
	  "OK for the first, then " CVQ_ERR_RULE " (never a stale OK)",
	  CMD(PAYLOAD_UNKNOWN_CMD), .ok_first = true, .expect = EXPECT_ERR },
	{ "cvq-mac-short", "27", "MAC_ADDR_SET with 5 data bytes",
	  CVQ_ERR_RULE " (MAC unchanged)", CMD(PAYLOAD_MAC_SHORT),
	  .expect = EXPECT_ERR },
	{ "cvq-mac-long", "27", "MAC_ADDR_SET with 7 data bytes",
	  CVQ_ERR_RULE " (MAC unchanged)", CMD(PAYLOAD_MAC_LONG),
	  .expect = EXPECT_ERR },
	{ "cvq-mq-zero", "28", "MQ VQ_PAIRS_SET 0 (MQ negotiated)",
	  CVQ_ERR_RULE, CMD_WANT(PAYLOAD_MQ_ZERO, F_MQ), .need = F_MQ,
	  .expect = EXPECT_ERR },
	{ "cvq-mq-over-max", "28",
	  "MQ VQ_PAIRS_SET max_virtqueue_pairs + 1 (MQ negotiated)",
	  CVQ_ERR_RULE, CMD_WANT(PAYLOAD_MQ_OVER_MAX, F_MQ), .need = F_MQ,
	  .expect = EXPECT_ERR },
	{ "cvq-mq-no-feature", "28", "MQ VQ_PAIRS_SET 1 without MQ negotiated",
	  CVQ_ERR_RULE, CMD_WANT(PAYLOAD_MQ_ONE, 0), .expect = EXPECT_ERR },
	{ "vring-num-zero", "18", "VHOST_SET_VRING_NUM 0 on the CVQ",
	  "-EINVAL at set or enable, or the queue is never served (NEEDS_RESET)",
	  .kind = KIND_VRING_NUM, .want = F_MAC_ADDR, .param = PARAM_NUM_ZERO,
	  .expect = EXPECT_REFUSED },
	{ "vring-num-npot", "18", "VHOST_SET_VRING_NUM 24 (not a power of 2)",
	  "-EINVAL at set or enable, or the queue is never served (NEEDS_RESET)",
	  .kind = KIND_VRING_NUM, .want = F_MAC_ADDR, .param = PARAM_NUM_NPOT,
	  .expect = EXPECT_REFUSED },
	{ "vring-num-over-max", "18",
	  "VHOST_SET_VRING_NUM twice the device's maximum",
	  "-EINVAL at set or enable, or the queue is never served (NEEDS_RESET)",
	  .kind = KIND_VRING_NUM, .want = F_MAC_ADDR,
	  .param = PARAM_NUM_OVER_MAX, .expect = EXPECT_REFUSED },
	{ "features-no-access-platform", "21",
	  "VHOST_SET_FEATURES without ACCESS_PLATFORM",
	  "-EINVAL, or FEATURES_OK not kept", .kind = KIND_FEATURES,
	  .feature_dropped = VIRTIO_F_ACCESS_PLATFORM,
	  .expect = EXPECT_REFUSED },
	{ "features-no-version-1", "21", "VHOST_SET_FEATURES without VERSION_1",
	  "-EINVAL, or FEATURES_OK not kept", .kind = KIND_FEATURES,
	  .feature_dropped = VIRTIO_F_VERSION_1, .expect = EXPECT_REFUSED },
	{ "kick-before-driver-ok", "14",
	  "a command made available and kicked before DRIVER_OK",
	  "not touched before DRIVER_OK; served (acked OK) after it",
	  .kind = KIND_KICK_EARLY, .want = F_MAC_ADDR,
	  .expect = EXPECT_UNTOUCHED },
	{ "config-get-range", "30",
	  "VHOST_VDPA_GET_CONFIG at off = size, len 0, off = 2^32 - 1, len 2^32 - 1",
	  "every one -EINVAL or -E2BIG", .kind = KIND_CONFIG,
	  .param = PARAM_CONFIG_GET, .expect = EXPECT_REFUSED },
	{ "config-set-range", "30",
	  "VHOST_VDPA_SET_CONFIG at off = size, len 0, off = 2^32 - 1, len 2^32 - 1",
	  "every one -EINVAL or -E2BIG", .kind = KIND_CONFIG,
	  .param = PARAM_CONFIG_SET, .expect = EXPECT_REFUSED },
	{ "cvq-while-suspended", "29",
	  "a command kicked while the device is suspended",
	  "not consumed until VHOST_VDPA_RESUME, then acked OK",
	  .kind = KIND_SUSPENDED, .want = F_MAC_ADDR, .needs_suspend = true,
	  .expect = EXPECT_UNTOUCHED },
	{ "suspend-before-driver-ok", "16",
	  "VHOST_VDPA_SUSPEND and RESUME before DRIVER_OK",
	  "no failure or a clean error; the device then serves a command",
	  .kind = KIND_SUSPEND_EARLY, .want = F_MAC_ADDR, .needs_suspend = true,
	  .expect = EXPECT_SURVIVES },
	{ "iotlb-split", "12",
	  "MAC_ADDR_SET whose 8 bytes straddle two IOTLB maps of one page each, "
	  "backed by user pages in the opposite order",
	  "read across the maps: ack OK, used len 1, MAC updated",
	  .kind = KIND_IOTLB_SPLIT, .shape = SHAPE_CMD_FRAGMENTED,
	  .payload = PAYLOAD_MAC, .want = F_MAC_ADDR, .expect = EXPECT_OK },
	{ "vring-base", "17",
	  "a CVQ of 64 (below the maximum) given VHOST_SET_VRING_BASE 65535 before "
	  "enable; MAC_ADDR_SET at avail index 65535 and 0",
	  "honoured: both served in ring entries 63 and 0, acked OK, used idx 65535 "
	  "-> 1",
	  .kind = KIND_VRING_BASE, .shape = SHAPE_NORMAL,
	  .payload = PAYLOAD_MAC, .want = F_MAC_ADDR, .ok_first = true,
	  .expect = EXPECT_OK },
	{ "notify-flags", "19",
	  "without EVENT_IDX: a command with avail flags NO_INTERRUPT, then one "
	  "with flags 0",
	  "no call for the first, a call for the second; both acked OK",
	  .kind = KIND_NOTIFY, .want = F_MAC_ADDR, .param = PARAM_NOTIFY_FLAGS,
	  .expect = EXPECT_NOTIFY },
	{ "notify-event-idx", "19",
	  "with EVENT_IDX: a command each at used_event = old (the first after "
	  "DRIVER_OK), old - 1, old + 1, old + 2, old, then NO_INTERRUPT with "
	  "used_event = old",
	  "a call exactly when vring_need_event says (used_event = old; flags "
	  "ignored); all acked OK",
	  .kind = KIND_NOTIFY, .want = F_MAC_ADDR | F_EVENT_IDX,
	  .need = F_EVENT_IDX, .param = PARAM_NOTIFY_EVENT_IDX,
	  .expect = EXPECT_NOTIFY },
	{ "mmap-pgoff-range", "34",
	  "mmap of one page of the vhost-vdpa fd at pgoff = nvqs and 65535",
	  "every mmap fails (no notification area past the queues)",
	  .kind = KIND_MMAP, .want = F_MAC_ADDR, .expect = EXPECT_REFUSED },
	{ "config-before-features", "34",
	  "netlink config get and GET_CONFIG of every byte on a fresh fd, before "
	  "any negotiation",
	  "every read succeeds, no crash; a driver then negotiates and is served "
	  "(ack OK)",
	  .kind = KIND_CONFIG_EARLY, .want = F_MAC_ADDR,
	  .expect = EXPECT_ACCEPTED },
	{ "packed-wrap-counter", "P1",
	  "packed ring, after a lap: MAC_ADDR_SET at the next slot with the "
	  "previous lap's bits (AVAIL = !wrap, USED = wrap), kicked; 200 ms "
	  "later the same with this lap's",
	  "ignored: not consumed, no used element, no ack, no NEEDS_RESET; "
	  "then acked OK, used len 1, MAC updated",
	  PACKED(PACKED_WRONG_WRAP), .expect = EXPECT_IGNORED },
	{ "packed-flags-mismatch", "P2",
	  "packed ring, after a lap: MAC_ADDR_SET at the next slot with AVAIL "
	  "= USED = the wrap counter (a used element's bits)",
	  "a driver error: " RESET_RULE "; MAC unchanged",
	  PACKED(PACKED_FLAGS_MISMATCH), .expect = EXPECT_RESET },
	{ "packed-id-reuse", "P3",
	  "packed ring, after a lap: two chains made available together, the "
	  "second (MAC_ADDR_SET) with the buffer id of the first, still in "
	  "flight",
	  "a driver error: " RESET_RULE " for the second; MAC unchanged",
	  PACKED(PACKED_ID_REUSE), .expect = EXPECT_RESET },
	{ "packed-id-range", "P4",
	  "packed ring, after a lap: MAC_ADDR_SET with buffer id = queue size",
	  "a driver error: " RESET_RULE "; MAC unchanged",
	  PACKED(PACKED_ID_RANGE), .expect = EXPECT_RESET },
	{ "stress-reset", "15",
	  "SET_STATUS 0 with a batch in flight, then set-up again on the same fd",
	  "no hang or warning; the new set-up serves a full batch",
	  .kind = KIND_STRESS, .want = F_MAC_ADDR, .param = PARAM_STRESS_RESET,
	  .expect = EXPECT_SURVIVES },
	{ "stress-suspend", "16",
	  "VHOST_VDPA_SUSPEND with a batch in flight, RESUME 20 ms later",
	  "nothing completed while suspended; all acked OK after resume",
	  .kind = KIND_STRESS, .want = F_MAC_ADDR, .needs_suspend = true,
	  .param = PARAM_STRESS_SUSPEND, .expect = EXPECT_SURVIVES },
	{ "stress-remap", "13",
	  "IOTLB invalidate and update of rings and buffers with a batch in flight",
	  "every command acked OK, or NEEDS_RESET (no hang); then works after reset",
	  .kind = KIND_STRESS, .want = F_MAC_ADDR, .param = PARAM_STRESS_REMAP,
	  .expect = EXPECT_SURVIVES },
	{ "stress-close", "15",
	  "close(2) of the vhost-vdpa fd with a batch in flight",
	  "no hang or warning; the device opens again and serves a full batch",
	  .kind = KIND_STRESS, .want = F_MAC_ADDR, .param = PARAM_STRESS_CLOSE,
	  .expect = EXPECT_SURVIVES },
};

const unsigned int inject_case_count = ARRAY_SIZE(inject_cases);

enum inject_rings inject_case_rings(const struct inject_case *c)
{
	switch (c->kind) {
	case KIND_PACKED:
		return INJECT_RINGS_PACKED;
	case KIND_FEATURES:
	case KIND_CONFIG:
	case KIND_MMAP:
	case KIND_STRESS:
		return INJECT_RINGS_ANY;
	default:
		return INJECT_RINGS_SPLIT;
	}
}

int inject_case_ring(const struct inject_case *c, bool given,
		     enum vq_format asked, enum vq_format *ring)
{
	enum inject_rings rings = inject_case_rings(c);

	*ring = rings == INJECT_RINGS_PACKED ? VQ_FORMAT_PACKED :
					       VQ_FORMAT_SPLIT;
	if (!given)
		return 0;
	if (rings == INJECT_RINGS_ANY)
		*ring = asked;
	return *ring == asked ? 0 : -EOPNOTSUPP;
}

const struct inject_case *inject_case_find(const char *name)
{
	const struct inject_case *found = NULL;
	size_t len = strlen(name);
	unsigned int i, matches = 0;

	for (i = 0; len && i < inject_case_count; i++) {
		if (!strcmp(name, inject_cases[i].name))
			return &inject_cases[i];
		if (!strncmp(name, inject_cases[i].name, len)) {
			found = &inject_cases[i];
			matches++;
		}
	}
	return matches == 1 ? found : NULL;
}
