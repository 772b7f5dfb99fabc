/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Receive-side scaling and hash reports (virtio-net "Receive-side scaling
 * (RSS)", "Hash calculation for incoming packets", "Control Virtqueue:
 * RSS"): the hash state the control queue sets, its commands' parsing and
 * checks, the Toeplitz hash and which receive queue a frame goes to.
 * Kernel-free.
 */
#ifndef VSB_RSS_H
#define VSB_RSS_H

#include "vsb_seam.h"

/* Config space: rss_max_key_size and rss_max_indirection_table_length. */
#define VSB_RSS_KEY_SIZE 40
#define VSB_RSS_TABLE_MAX 128
/*
 * supported_hash_types: the six types of the IPv4 and IPv6 headers
 * themselves. The _EX types (addresses from the home address option and
 * the routing header) are not offered; Linux's virtio_net masks them off
 * anyway.
 */
#define VSB_RSS_HASH_TYPES                                                \
	(VIRTIO_NET_RSS_HASH_TYPE_IPv4 | VIRTIO_NET_RSS_HASH_TYPE_TCPv4 | \
	 VIRTIO_NET_RSS_HASH_TYPE_UDPv4 | VIRTIO_NET_RSS_HASH_TYPE_IPv6 | \
	 VIRTIO_NET_RSS_HASH_TYPE_TCPv6 | VIRTIO_NET_RSS_HASH_TYPE_UDPv6)

/*
 * virtio_net_hdr_v1_hash: virtio_net_hdr_v1, then le32 hash_value, le16
 * hash_report and le16 padding (offsets of our own: the uapi headers name
 * the hash value's fields differently from release to release).
 */
#define VSB_NET_HDR_V1_LEN 12
#define VSB_NET_HDR_HASH_LEN 20
#define VSB_HDR_HASH_VALUE 12
#define VSB_HDR_HASH_REPORT 16

/* Bytes a command may carry past its key: see vsb_rss_key_set(). */
#define VSB_RSS_KEY_SLACK 1
/*
 * The longest RSS_CONFIG the device can take: 8 bytes before the table,
 * the largest table, max_tx_vq and hash_key_length, the longest key.
 */
#define VSB_RSS_CONFIG_MAX \
	(8 + 2 * VSB_RSS_TABLE_MAX + 3 + VSB_RSS_KEY_SIZE + VSB_RSS_KEY_SLACK)

/* The hash and steering state, as RSS_CONFIG and HASH_CONFIG set it. */
struct vsb_rss {
	/* RSS_CONFIG in force: the table steers (until VQ_PAIRS_SET) */
	bool steering;
	/* enabled hash types; none: nothing hashed, nothing reported */
	u32 hash_types;
	/* the key, zero past its length: Toeplitz reads 40 bytes at most */
	u8 key[VSB_RSS_KEY_SIZE];
	u16 table_len; /* indirection_table_mask + 1 */
	u16 unclassified;
	u16 table[VSB_RSS_TABLE_MAX];
};

/* A parsed RSS_CONFIG or HASH_CONFIG, for vsb_cvq.c's apply step. */
struct vsb_rss_cmd {
	struct vsb_rss rss;
	u16 pairs; /* RSS_CONFIG's max_tx_vq */
};

int vsb_rss_parse_rss(const u8 *data, u32 len, u16 max_pairs,
		      struct vsb_rss_cmd *out);
int vsb_rss_parse_hash(const u8 *data, u32 len, struct vsb_rss_cmd *out);

u32 vsb_toeplitz(const u8 *key, const u8 *input, u32 len);

/* The hash of one frame: VIRTIO_NET_HASH_REPORT_NONE if none applies. */
struct vsb_rss_hash {
	u32 value;
	u16 report;
};

void vsb_rss_hash_frame(const struct vsb_rss *rss, const u8 *frame, u32 len,
			struct vsb_rss_hash *hash);
u16 vsb_rss_queue(const struct vsb_rss *rss, const struct vsb_rss_hash *hash);

#endif /* VSB_RSS_H */
