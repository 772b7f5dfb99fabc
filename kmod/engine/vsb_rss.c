// SPDX-License-Identifier: GPL-2.0-only
/*
 * Receive-side scaling and hash reports.
 *
 * RSS_CONFIG is { le32 hash_types; le16 indirection_table_mask; le16
 * unclassified_queue; le16 indirection_table[mask + 1]; le16 max_tx_vq;
 * u8 hash_key_length; u8 hash_key_data[]; }, HASH_CONFIG { le32
 * hash_types; le16 reserved[4]; u8 hash_key_length; u8 hash_key_data[]; },
 * each of that length (give or take the byte vsb_rss_key_set() allows).
 * Queue numbers in the table and
 * unclassified_queue are receive queue numbers (0 is receiveq1, the
 * receive queue of pair 0), not virtqueue indices; the driver "MUST fill
 * the indirection_table array only with indices of enabled queues", which
 * are those of the max_tx_vq pairs the same command puts in force.
 *
 * The hash ("Hash calculation for incoming packets") is Toeplitz over the
 * source and destination addresses, then the source and destination ports
 * when a TCP or UDP type applies, in network byte order; the first type
 * that applies, in the spec's order (TCP, UDP, then the addresses alone),
 * is the one reported. A fragment has no ports to hash. A frame may carry
 * one 802.1Q or 802.1ad tag, and an IPv6 one hop-by-hop, routing and
 * destination options headers before its transport header.
 */

#include "vsb_rss.h"

#define VSB_IPPROTO_TCP 6
#define VSB_IPPROTO_UDP 17
#define VSB_TCP_HLEN 20
#define VSB_UDP_HLEN 8
#define VSB_IPV4_HLEN 20
#define VSB_IPV6_HLEN 40
/* IPv6 extension headers walked for the transport header, at most. */
#define VSB_IPV6_EXT_MAX 8
/* The longest hash input: two IPv6 addresses and two ports. */
#define VSB_RSS_INPUT_MAX 36

/*
 * The key, whose length is the byte before it. What follows it may be one
 * byte longer than the key: Linux's virtio_net sends the key as the
 * flexible array of struct virtio_net_rss_config_trailer, and counts
 * sizeof() of that struct, padding included (6.12 to 7.3 at least; QEMU's
 * device ignores whatever follows the key).
 */
static bool vsb_rss_key_set(struct vsb_rss *rss, const u8 *data, u32 len,
			    u32 key_off)
{
	u32 key_len = data[key_off - 1];

	if (key_len > VSB_RSS_KEY_SIZE || len < key_off + key_len ||
	    len > key_off + key_len + VSB_RSS_KEY_SLACK)
		return false;
	memcpy(rss->key, data + key_off, key_len);
	return true;
}

/**
 * vsb_rss_parse_rss - check an RSS_CONFIG's data and parse it
 * @data: the command's data
 * @len: its length
 * @max_pairs: the pairs max_tx_vq may ask for (1 without MQ and RSS)
 * @out: the state the command sets, and max_tx_vq
 *
 * Return: 0, or -EINVAL if the data is short or long, the table's length
 * is not a power of two or over VSB_RSS_TABLE_MAX, a hash type is not
 * supported, max_tx_vq is 0 or over @max_pairs, or a queue is not one of
 * the max_tx_vq receive queues.
 */
int vsb_rss_parse_rss(const u8 *data, u32 len, u16 max_pairs,
		      struct vsb_rss_cmd *out)
{
	struct vsb_rss *rss = &out->rss;
	u32 table_len, off, i;

	memset(out, 0, sizeof(*out));
	if (len < 8)
		return -EINVAL;
	rss->hash_types = get_unaligned_le32(data);
	table_len = get_unaligned_le16(data + 4) + 1U;
	rss->unclassified = get_unaligned_le16(data + 6);
	if (table_len > VSB_RSS_TABLE_MAX || (table_len & (table_len - 1)))
		return -EINVAL;
	off = 8 + 2 * table_len;
	if (len < off + 3 || !vsb_rss_key_set(rss, data, len, off + 3))
		return -EINVAL;
	out->pairs = get_unaligned_le16(data + off);
	if (rss->hash_types & ~VSB_RSS_HASH_TYPES || !out->pairs ||
	    out->pairs > max_pairs || rss->unclassified >= out->pairs)
		return -EINVAL;
	for (i = 0; i < table_len; i++) {
		rss->table[i] = get_unaligned_le16(data + 8 + 2 * i);
		if (rss->table[i] >= out->pairs)
			return -EINVAL;
	}
	rss->table_len = table_len;
	rss->steering = true;
	return 0;
}

/**
 * vsb_rss_parse_hash - check a HASH_CONFIG's data and parse it
 * @data: the command's data
 * @len: its length
 * @out: the state the command sets (no steering), max_tx_vq 0
 *
 * Return: 0, or -EINVAL if the data is short or long, or a hash type is
 * not supported.
 */
int vsb_rss_parse_hash(const u8 *data, u32 len, struct vsb_rss_cmd *out)
{
	struct vsb_rss *rss = &out->rss;

	memset(out, 0, sizeof(*out));
	if (len < 13 || !vsb_rss_key_set(rss, data, len, 13))
		return -EINVAL;
	rss->hash_types = get_unaligned_le32(data);
	if (rss->hash_types & ~VSB_RSS_HASH_TYPES)
		return -EINVAL;
	return 0;
}

/**
 * vsb_toeplitz - the Toeplitz hash of @input under @key
 * @key: VSB_RSS_KEY_SIZE bytes
 * @input: what is hashed
 * @len: its length, at most VSB_RSS_KEY_SIZE - 4
 *
 * Each set bit of the input, from the most significant bit of its first
 * byte on, XORs in the 32 key bits that start at the same bit position.
 */
u32 vsb_toeplitz(const u8 *key, const u8 *input, u32 len)
{
	u32 window = get_unaligned_be32(key);
	u32 hash = 0, i;
	int bit;

	for (i = 0; i < len; i++) {
		u8 next = key[i + 4];

		for (bit = 7; bit >= 0; bit--) {
			if (input[i] & (1U << bit))
				hash ^= window;
			window = window << 1 | ((next >> bit) & 1);
		}
	}
	return hash;
}

/* Where the frame's IP header starts, and its ethertype; 0 if none. */
static u32 vsb_rss_l3(const u8 *frame, u32 len, u16 *proto)
{
	u32 off = ETH_HLEN;

	if (len < ETH_HLEN)
		return 0;
	*proto = get_unaligned_be16(frame + 12);
	if (*proto == ETH_P_8021Q || *proto == ETH_P_8021AD) {
		off += 4;
		if (len < off)
			return 0;
		*proto = get_unaligned_be16(frame + off - 2);
	}
	return off;
}

/*
 * The transport types of one IP version: which hash type and report
 * each protocol has.
 */
struct vsb_rss_l4 {
	u32 tcp_type, udp_type, ip_type;
	u16 tcp_report, udp_report, ip_report;
};

static const struct vsb_rss_l4 vsb_rss_v4 = {
	VIRTIO_NET_RSS_HASH_TYPE_TCPv4, VIRTIO_NET_RSS_HASH_TYPE_UDPv4,
	VIRTIO_NET_RSS_HASH_TYPE_IPv4,	VIRTIO_NET_HASH_REPORT_TCPv4,
	VIRTIO_NET_HASH_REPORT_UDPv4,	VIRTIO_NET_HASH_REPORT_IPv4,
};

static const struct vsb_rss_l4 vsb_rss_v6 = {
	VIRTIO_NET_RSS_HASH_TYPE_TCPv6, VIRTIO_NET_RSS_HASH_TYPE_UDPv6,
	VIRTIO_NET_RSS_HASH_TYPE_IPv6,	VIRTIO_NET_HASH_REPORT_TCPv6,
	VIRTIO_NET_HASH_REPORT_UDPv6,	VIRTIO_NET_HASH_REPORT_IPv6,
};

/*
 * Hash @addr_len bytes of addresses at @addrs, and the ports at @l4 if
 * protocol @l4_proto has a whole header there (@l4 is 0 for a fragment).
 */
static void vsb_rss_hash_ip(const struct vsb_rss *rss,
			    const struct vsb_rss_l4 *t, const u8 *frame,
			    u32 len, u32 addrs, u32 addr_len, u8 l4_proto,
			    u32 l4, struct vsb_rss_hash *hash)
{
	u8 input[VSB_RSS_INPUT_MAX];
	u16 report = VIRTIO_NET_HASH_REPORT_NONE;

	memcpy(input, frame + addrs, addr_len);
	if (l4 && l4_proto == VSB_IPPROTO_TCP &&
	    (rss->hash_types & t->tcp_type) && l4 + VSB_TCP_HLEN <= len)
		report = t->tcp_report;
	else if (l4 && l4_proto == VSB_IPPROTO_UDP &&
		 (rss->hash_types & t->udp_type) && l4 + VSB_UDP_HLEN <= len)
		report = t->udp_report;
	if (report != VIRTIO_NET_HASH_REPORT_NONE) {
		memcpy(input + addr_len, frame + l4, 4);
		addr_len += 4;
	} else if (rss->hash_types & t->ip_type) {
		report = t->ip_report;
	} else {
		return;
	}
	hash->value = vsb_toeplitz(rss->key, input, addr_len);
	hash->report = report;
}

static void vsb_rss_hash_v4(const struct vsb_rss *rss, const u8 *frame, u32 len,
			    u32 off, struct vsb_rss_hash *hash)
{
	u32 ihl, l4;

	if (len < off + VSB_IPV4_HLEN || frame[off] >> 4 != 4)
		return;
	ihl = (frame[off] & 0xf) * 4;
	if (ihl < VSB_IPV4_HLEN || len < off + ihl)
		return;
	/* more fragments, or a fragment offset: no ports */
	l4 = get_unaligned_be16(frame + off + 6) & 0x3fff ? 0 : off + ihl;
	vsb_rss_hash_ip(rss, &vsb_rss_v4, frame, len, off + 12, 8,
			frame[off + 9], l4, hash);
}

static void vsb_rss_hash_v6(const struct vsb_rss *rss, const u8 *frame, u32 len,
			    u32 off, struct vsb_rss_hash *hash)
{
	u32 l4 = off + VSB_IPV6_HLEN;
	u8 next;
	int i;

	if (len < l4 || frame[off] >> 4 != 6)
		return;
	next = frame[off + 6];
	for (i = 0; i < VSB_IPV6_EXT_MAX && l4; i++) {
		if (next != 0 && next != 43 && next != 60 && next != 44)
			break;
		if (len < l4 + 8 || next == 44) {
			/* cut short, or a fragment: no ports */
			l4 = 0;
			break;
		}
		next = frame[l4];
		l4 += (frame[l4 + 1] + 1) * 8;
	}
	vsb_rss_hash_ip(rss, &vsb_rss_v6, frame, len, off + 8, 32, next, l4,
			hash);
}

/**
 * vsb_rss_hash_frame - the hash of a frame under the enabled hash types
 * @rss: the hash state
 * @frame: the frame, from its Ethernet header
 * @len: its length
 * @hash: the hash and its report type, VIRTIO_NET_HASH_REPORT_NONE (and
 *	  value 0) if no enabled type applies
 */
void vsb_rss_hash_frame(const struct vsb_rss *rss, const u8 *frame, u32 len,
			struct vsb_rss_hash *hash)
{
	u16 proto = 0;
	u32 off;

	hash->value = 0;
	hash->report = VIRTIO_NET_HASH_REPORT_NONE;
	if (!rss->hash_types)
		return;
	off = vsb_rss_l3(frame, len, &proto);
	if (off && proto == ETH_P_IP)
		vsb_rss_hash_v4(rss, frame, len, off, hash);
	else if (off && proto == ETH_P_IPV6)
		vsb_rss_hash_v6(rss, frame, len, off, hash);
}

/*
 * The receive queue number for a frame of hash @hash under RSS steering:
 * unclassified_queue when no hash type applied ("RSS processing").
 */
u16 vsb_rss_queue(const struct vsb_rss *rss, const struct vsb_rss_hash *hash)
{
	if (hash->report == VIRTIO_NET_HASH_REPORT_NONE)
		return rss->unclassified;
	return rss->table[hash->value & (rss->table_len - 1)];
}
