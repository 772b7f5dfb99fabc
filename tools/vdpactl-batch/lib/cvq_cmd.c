// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * virtio-net control virtqueue commands.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/compat.h"
#include "lib/cvq_cmd.h"
#include "lib/util.h"

static void set_header(struct cvq_cmd *c, uint8_t class, uint8_t cmd)
{
	c->class = class;
	c->cmd = cmd;
	c->data_len = 0;
}

static void append(struct cvq_cmd *c, const void *data, size_t len)
{
	/* An empty MAC list has no addresses: memcpy() wants a pointer. */
	if (!len)
		return;
	memcpy(c->data + c->data_len, data, len);
	c->data_len += (uint16_t)len;
}

static void append_le16(struct cvq_cmd *c, uint16_t v)
{
	uint16_t le = htole16(v);

	append(c, &le, sizeof(le));
}

static void append_le32(struct cvq_cmd *c, uint32_t v)
{
	uint32_t le = htole32(v);

	append(c, &le, sizeof(le));
}

static void append_le64(struct cvq_cmd *c, uint64_t v)
{
	uint64_t le = htole64(v);

	append(c, &le, sizeof(le));
}

void cvq_cmd_mac_addr_set(struct cvq_cmd *c, const uint8_t mac[MAC_LEN])
{
	set_header(c, VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	append(c, mac, MAC_LEN);
}

int cvq_cmd_mac_table_set(struct cvq_cmd *c, const uint8_t (*unicast)[MAC_LEN],
			  unsigned int n_unicast,
			  const uint8_t (*multicast)[MAC_LEN],
			  unsigned int n_multicast)
{
	if (n_unicast > CVQ_MAC_TABLE_MAX || n_multicast > CVQ_MAC_TABLE_MAX)
		return -E2BIG;
	/* Two virtio_net_ctrl_mac tables: le32 entries, then the entries. */
	set_header(c, VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_TABLE_SET);
	append_le32(c, n_unicast);
	append(c, unicast, (size_t)n_unicast * MAC_LEN);
	append_le32(c, n_multicast);
	append(c, multicast, (size_t)n_multicast * MAC_LEN);
	return 0;
}

void cvq_cmd_rx_mode(struct cvq_cmd *c, uint8_t rx_cmd, bool on)
{
	uint8_t value = on;

	set_header(c, VIRTIO_NET_CTRL_RX, rx_cmd);
	append(c, &value, 1);
}

void cvq_cmd_vlan(struct cvq_cmd *c, bool add, uint16_t vid)
{
	set_header(c, VIRTIO_NET_CTRL_VLAN,
		   add ? VIRTIO_NET_CTRL_VLAN_ADD : VIRTIO_NET_CTRL_VLAN_DEL);
	append_le16(c, vid);
}

void cvq_cmd_mq_pairs(struct cvq_cmd *c, uint16_t pairs)
{
	set_header(c, VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET);
	append_le16(c, pairs);
}

void cvq_cmd_guest_offloads(struct cvq_cmd *c, uint64_t offloads)
{
	set_header(c, VIRTIO_NET_CTRL_GUEST_OFFLOADS,
		   VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET);
	append_le64(c, offloads);
}

int cvq_cmd_rss_config(struct cvq_cmd *c, const struct cvq_rss *rss)
{
	unsigned int i;

	if (!rss->table_len || (rss->table_len & (rss->table_len - 1)))
		return -EINVAL;
	if (rss->table_len > CVQ_RSS_TABLE_MAX ||
	    rss->key_len > CVQ_RSS_KEY_MAX)
		return -E2BIG;
	set_header(c, VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_RSS_CONFIG);
	append_le32(c, rss->hash_types);
	append_le16(c, (uint16_t)(rss->table_len - 1));
	append_le16(c, rss->unclassified_queue);
	for (i = 0; i < rss->table_len; i++)
		append_le16(c, rss->table[i]);
	append_le16(c, rss->max_tx_vq);
	append(c, &rss->key_len, 1);
	append(c, rss->key, rss->key_len);
	return 0;
}

int cvq_cmd_hash_config(struct cvq_cmd *c, uint32_t hash_types,
			const uint8_t *key, uint8_t key_len)
{
	static const uint8_t reserved[8];

	if (key_len > CVQ_RSS_KEY_MAX)
		return -E2BIG;
	set_header(c, VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_HASH_CONFIG);
	append_le32(c, hash_types);
	append(c, reserved, sizeof(reserved));
	append(c, &key_len, 1);
	append(c, key, key_len);
	return 0;
}

void cvq_cmd_notf_coal(struct cvq_cmd *c, bool tx, uint32_t max_packets,
		       uint32_t max_usecs)
{
	set_header(c, VIRTIO_NET_CTRL_NOTF_COAL,
		   tx ? VIRTIO_NET_CTRL_NOTF_COAL_TX_SET :
			VIRTIO_NET_CTRL_NOTF_COAL_RX_SET);
	append_le32(c, max_packets);
	append_le32(c, max_usecs);
}

void cvq_cmd_notf_coal_vq(struct cvq_cmd *c, uint16_t vq, uint32_t max_packets,
			  uint32_t max_usecs)
{
	/* virtio_net_ctrl_coal_vq: le16 vq_index, le16 reserved, the rest. */
	set_header(c, VIRTIO_NET_CTRL_NOTF_COAL,
		   VIRTIO_NET_CTRL_NOTF_COAL_VQ_SET);
	append_le16(c, vq);
	append_le16(c, 0);
	append_le32(c, max_packets);
	append_le32(c, max_usecs);
}

size_t cvq_cmd_encode(const struct cvq_cmd *c, uint8_t *buf, size_t cap)
{
	size_t size = cvq_cmd_size(c);

	if (cap < size)
		return 0;
	buf[0] = c->class;
	buf[1] = c->cmd;
	memcpy(buf + 2, c->data, c->data_len);
	return size;
}

struct cvq_cmd_info {
	uint8_t class;
	uint8_t cmd;
	const char *name;
	int feature;
};

static const struct cvq_cmd_info cvq_cmd_table[] = {
	{ VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_RX_PROMISC, "RX_PROMISC",
	  VIRTIO_NET_F_CTRL_RX },
	{ VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_RX_ALLMULTI, "RX_ALLMULTI",
	  VIRTIO_NET_F_CTRL_RX },
	{ VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_RX_ALLUNI, "RX_ALLUNI",
	  VIRTIO_NET_F_CTRL_RX_EXTRA },
	{ VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_RX_NOMULTI, "RX_NOMULTI",
	  VIRTIO_NET_F_CTRL_RX_EXTRA },
	{ VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_RX_NOUNI, "RX_NOUNI",
	  VIRTIO_NET_F_CTRL_RX_EXTRA },
	{ VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_RX_NOBCAST, "RX_NOBCAST",
	  VIRTIO_NET_F_CTRL_RX_EXTRA },
	{ VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_TABLE_SET, "MAC_TABLE_SET",
	  VIRTIO_NET_F_CTRL_RX },
	{ VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET, "MAC_ADDR_SET",
	  VIRTIO_NET_F_CTRL_MAC_ADDR },
	{ VIRTIO_NET_CTRL_VLAN, VIRTIO_NET_CTRL_VLAN_ADD, "VLAN_ADD",
	  VIRTIO_NET_F_CTRL_VLAN },
	{ VIRTIO_NET_CTRL_VLAN, VIRTIO_NET_CTRL_VLAN_DEL, "VLAN_DEL",
	  VIRTIO_NET_F_CTRL_VLAN },
	{ VIRTIO_NET_CTRL_ANNOUNCE, VIRTIO_NET_CTRL_ANNOUNCE_ACK,
	  "ANNOUNCE_ACK", VIRTIO_NET_F_GUEST_ANNOUNCE },
	{ VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET,
	  "MQ_VQ_PAIRS_SET", VIRTIO_NET_F_MQ },
	{ VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_RSS_CONFIG, "RSS_CONFIG",
	  VIRTIO_NET_F_RSS },
	{ VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_HASH_CONFIG, "HASH_CONFIG",
	  VIRTIO_NET_F_HASH_REPORT },
	{ VIRTIO_NET_CTRL_NOTF_COAL, VIRTIO_NET_CTRL_NOTF_COAL_TX_SET,
	  "NOTF_COAL_TX_SET", VIRTIO_NET_F_NOTF_COAL },
	{ VIRTIO_NET_CTRL_NOTF_COAL, VIRTIO_NET_CTRL_NOTF_COAL_RX_SET,
	  "NOTF_COAL_RX_SET", VIRTIO_NET_F_NOTF_COAL },
	{ VIRTIO_NET_CTRL_NOTF_COAL, VIRTIO_NET_CTRL_NOTF_COAL_VQ_SET,
	  "NOTF_COAL_VQ_SET", VIRTIO_NET_F_VQ_NOTF_COAL },
	{ VIRTIO_NET_CTRL_NOTF_COAL, VIRTIO_NET_CTRL_NOTF_COAL_VQ_GET,
	  "NOTF_COAL_VQ_GET", VIRTIO_NET_F_VQ_NOTF_COAL },
	{ VIRTIO_NET_CTRL_GUEST_OFFLOADS, VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
	  "GUEST_OFFLOADS_SET", VIRTIO_NET_F_CTRL_GUEST_OFFLOADS },
};

static const struct cvq_cmd_info *lookup(uint8_t class, uint8_t cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cvq_cmd_table); i++)
		if (cvq_cmd_table[i].class == class &&
		    cvq_cmd_table[i].cmd == cmd)
			return &cvq_cmd_table[i];
	return NULL;
}

const char *cvq_cmd_name(uint8_t class, uint8_t cmd)
{
	const struct cvq_cmd_info *info = lookup(class, cmd);

	return info ? info->name : NULL;
}

static const char *const cvq_class_names[] = {
	[VIRTIO_NET_CTRL_RX] = "RX",
	[VIRTIO_NET_CTRL_MAC] = "MAC",
	[VIRTIO_NET_CTRL_VLAN] = "VLAN",
	[VIRTIO_NET_CTRL_ANNOUNCE] = "ANNOUNCE",
	[VIRTIO_NET_CTRL_MQ] = "MQ",
	[VIRTIO_NET_CTRL_GUEST_OFFLOADS] = "GUEST_OFFLOADS",
	[VIRTIO_NET_CTRL_NOTF_COAL] = "NOTF_COAL",
	[VIRTIO_NET_CTRL_STATS] = "STATS",
};

const char *cvq_class_name(uint8_t class)
{
	return class < ARRAY_SIZE(cvq_class_names) ? cvq_class_names[class] :
						     NULL;
}

/* @name's part after "@class's name_", or all of it. */
static const char *within_class(const char *name, uint8_t class)
{
	const char *prefix = cvq_class_name(class);
	size_t len = prefix ? strlen(prefix) : 0;

	if (len && !strncmp(name, prefix, len) && name[len] == '_')
		return name + len + 1;
	return name;
}

int cvq_cmd_by_name(uint8_t class, const char *name, uint8_t *cmd)
{
	const struct cvq_cmd_info *c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cvq_cmd_table); i++) {
		c = &cvq_cmd_table[i];
		if (c->class != class)
			continue;
		if (!strcasecmp(name, c->name) ||
		    !strcasecmp(name, within_class(c->name, class))) {
			*cmd = c->cmd;
			return 0;
		}
	}
	return -ENOENT;
}

int cvq_class_by_name(const char *name, uint8_t *class)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cvq_class_names); i++) {
		if (cvq_class_names[i] &&
		    !strcasecmp(name, cvq_class_names[i])) {
			*class = (uint8_t)i;
			return 0;
		}
	}
	return -ENOENT;
}

/* @name, or @number in decimal when there is no name. */
static const char *name_or_number(const char *name, unsigned int number,
				  char *buf, size_t len)
{
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%u", number);
	return buf;
}

const char *cvq_class_format(uint8_t class, char *buf, size_t len)
{
	return name_or_number(cvq_class_name(class), class, buf, len);
}

const char *cvq_cmd_format(uint8_t class, uint8_t cmd, char *buf, size_t len)
{
	return name_or_number(cvq_cmd_name(class, cmd), cmd, buf, len);
}

int cvq_cmd_feature(uint8_t class, uint8_t cmd)
{
	const struct cvq_cmd_info *info = lookup(class, cmd);

	return info ? info->feature : -1;
}

static uint32_t data_le32(const struct cvq_cmd *c, size_t off)
{
	uint32_t v;

	memcpy(&v, c->data + off, sizeof(v));
	return le32toh(v);
}

static uint16_t data_le16(const struct cvq_cmd *c)
{
	uint16_t v;

	memcpy(&v, c->data, sizeof(v));
	return le16toh(v);
}

static uint64_t data_le64(const struct cvq_cmd *c)
{
	uint64_t v;

	memcpy(&v, c->data, sizeof(v));
	return le64toh(v);
}

static void describe_mac_class(const struct cvq_cmd *c, const char *name,
			       char *buf, size_t len)
{
	char mac[MAC_STR_LEN];
	uint32_t n_unicast, n_multicast;

	if (c->cmd == VIRTIO_NET_CTRL_MAC_ADDR_SET && c->data_len == MAC_LEN) {
		format_mac(c->data, mac);
		snprintf(buf, len, "%s %s", name, mac);
		return;
	}
	n_unicast = c->data_len >= 4 ? data_le32(c, 0) : 0;
	if (c->cmd == VIRTIO_NET_CTRL_MAC_TABLE_SET &&
	    8 + (uint64_t)n_unicast * MAC_LEN <= c->data_len) {
		n_multicast = data_le32(c, 4 + (size_t)n_unicast * MAC_LEN);
		snprintf(buf, len,
			 "%s %" PRIu32 " unicast %" PRIu32 " multicast", name,
			 n_unicast, n_multicast);
		return;
	}
	snprintf(buf, len, "%s", name);
}

void cvq_cmd_describe(const struct cvq_cmd *c, char *buf, size_t len)
{
	const char *name = cvq_cmd_name(c->class, c->cmd);

	if (!name) {
		snprintf(buf, len, "class %u command %u", c->class, c->cmd);
		return;
	}
	switch (c->class) {
	case VIRTIO_NET_CTRL_MAC:
		describe_mac_class(c, name, buf, len);
		return;
	case VIRTIO_NET_CTRL_RX:
		if (c->data_len == 1) {
			snprintf(buf, len, "%s %u", name, c->data[0]);
			return;
		}
		break;
	case VIRTIO_NET_CTRL_VLAN:
	case VIRTIO_NET_CTRL_MQ:
		if (c->data_len == 2) {
			snprintf(buf, len, "%s %u", name, data_le16(c));
			return;
		}
		break;
	case VIRTIO_NET_CTRL_GUEST_OFFLOADS:
		if (c->data_len == 8) {
			snprintf(buf, len, "%s 0x%" PRIx64, name, data_le64(c));
			return;
		}
		break;
	}
	snprintf(buf, len, "%s", name);
}
