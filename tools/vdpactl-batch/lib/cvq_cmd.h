/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * virtio-net control virtqueue commands: building them, encoding them in
 * wire format ({class, command, data}; the ack byte travels in its own
 * device-writable buffer), naming them and the feature each one needs.
 */
#ifndef VDPACTL_CVQ_CMD_H
#define VDPACTL_CVQ_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strparse.h"

/* Bounds the MAC table command. */
#define CVQ_MAC_TABLE_MAX 8
#define CVQ_MAC_TABLE_DATA_MAX (2 * (4 + CVQ_MAC_TABLE_MAX * MAC_LEN))

/*
 * Bound RSS_CONFIG, the largest command this tool sends: QEMU's own
 * limits (the table its virtio-net model takes, the key it always sends),
 * which the spec makes every RSS device take (rss_max_indirection_table_
 * length and rss_max_key_size are at least these).
 */
#define CVQ_RSS_TABLE_MAX 128
#define CVQ_RSS_KEY_MAX 40
/*
 * le32 hash_types, le16 mask, le16 unclassified_queue, the table, le16
 * max_tx_vq, u8 hash_key_length, the key.
 */
#define CVQ_RSS_DATA_MAX (8 + 2 * CVQ_RSS_TABLE_MAX + 3 + CVQ_RSS_KEY_MAX)

#define CVQ_DATA_MAX                                                    \
	(CVQ_RSS_DATA_MAX > CVQ_MAC_TABLE_DATA_MAX ? CVQ_RSS_DATA_MAX : \
						     CVQ_MAC_TABLE_DATA_MAX)

/* Value the driver stores in the ack byte so an unwritten ack shows. */
#define CVQ_ACK_UNSET 0xff

struct cvq_cmd {
	uint8_t class;
	uint8_t cmd;
	uint16_t data_len;
	uint8_t data[CVQ_DATA_MAX];
};

void cvq_cmd_mac_addr_set(struct cvq_cmd *c, const uint8_t mac[MAC_LEN]);
/* -E2BIG if either list is longer than CVQ_MAC_TABLE_MAX. */
int cvq_cmd_mac_table_set(struct cvq_cmd *c, const uint8_t (*unicast)[MAC_LEN],
			  unsigned int n_unicast,
			  const uint8_t (*multicast)[MAC_LEN],
			  unsigned int n_multicast);
/* @rx_cmd is one of VIRTIO_NET_CTRL_RX_{PROMISC,ALLMULTI,...}. */
void cvq_cmd_rx_mode(struct cvq_cmd *c, uint8_t rx_cmd, bool on);
void cvq_cmd_vlan(struct cvq_cmd *c, bool add, uint16_t vid);
void cvq_cmd_mq_pairs(struct cvq_cmd *c, uint16_t pairs);
void cvq_cmd_guest_offloads(struct cvq_cmd *c, uint64_t offloads);

/* What RSS_CONFIG sets (virtio_net_rss_config). */
struct cvq_rss {
	uint32_t hash_types; /* VIRTIO_NET_RSS_HASH_TYPE_* */
	uint16_t unclassified_queue;
	uint16_t table_len; /* a power of 2, at most CVQ_RSS_TABLE_MAX */
	const uint16_t *table; /* receive queue numbers */
	uint16_t max_tx_vq;
	uint8_t key_len; /* at most CVQ_RSS_KEY_MAX */
	const uint8_t *key;
};

/* -EINVAL if the table's length is not a power of 2, -E2BIG if too long. */
int cvq_cmd_rss_config(struct cvq_cmd *c, const struct cvq_rss *rss);
/*
 * HASH_CONFIG: RSS_CONFIG's layout with its steering fields reserved
 * (zero), as virtio_net_hash_config has it. -E2BIG for a long key.
 */
int cvq_cmd_hash_config(struct cvq_cmd *c, uint32_t hash_types,
			const uint8_t *key, uint8_t key_len);
/* NOTF_COAL_TX_SET (@tx) or NOTF_COAL_RX_SET: every queue of the kind. */
void cvq_cmd_notf_coal(struct cvq_cmd *c, bool tx, uint32_t max_packets,
		       uint32_t max_usecs);
/* NOTF_COAL_VQ_SET: one data virtqueue. */
void cvq_cmd_notf_coal_vq(struct cvq_cmd *c, uint16_t vq, uint32_t max_packets,
			  uint32_t max_usecs);

static inline size_t cvq_cmd_size(const struct cvq_cmd *c)
{
	return 2 + c->data_len;
}

/* Writes the header and data; returns the size or 0 if @cap is short. */
size_t cvq_cmd_encode(const struct cvq_cmd *c, uint8_t *buf, size_t cap);

/* "MAC_ADDR_SET", "VLAN_ADD", ...; NULL for a command we do not know. */
const char *cvq_cmd_name(uint8_t class, uint8_t cmd);

/*
 * "RX", "MAC", ... (VIRTIO_NET_CTRL_RX, _MAC, ...); NULL for a class we
 * do not know.
 */
const char *cvq_class_name(uint8_t class);

/*
 * The class @name names, compared without regard to case, as
 * cvq_class_name() spells it ("mac"): 0, or -ENOENT.
 */
int cvq_class_by_name(const char *name, uint8_t *class);

/*
 * The command of @class that @name names, without regard to case: as
 * cvq_cmd_name() spells it, or without the class's name in front, as the
 * spec's VIRTIO_NET_CTRL_<CLASS>_<NAME> ("MAC_ADDR_SET" or "addr_set";
 * "VQ_PAIRS_SET" in MQ): 0, or -ENOENT.
 */
int cvq_cmd_by_name(uint8_t class, const char *name, uint8_t *cmd);

/*
 * The class's or command's name, or its number in decimal when it has
 * none, in @buf, which CVQ_CODE_LEN fits; returns @buf.
 */
#define CVQ_CODE_LEN 32
const char *cvq_class_format(uint8_t class, char *buf, size_t len);
const char *cvq_cmd_format(uint8_t class, uint8_t cmd, char *buf, size_t len);

/* The feature bit the command needs, or -1 for an unknown command. */
int cvq_cmd_feature(uint8_t class, uint8_t cmd);

/* Name plus argument, e.g. "VLAN_ADD 5", for messages. */
void cvq_cmd_describe(const struct cvq_cmd *c, char *buf, size_t len);

#endif
