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

/* Bounds the MAC table command, the largest one this tool sends. */
#define CVQ_MAC_TABLE_MAX 8
#define CVQ_DATA_MAX (2 * (4 + CVQ_MAC_TABLE_MAX * MAC_LEN))

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

static inline size_t cvq_cmd_size(const struct cvq_cmd *c)
{
	return 2 + c->data_len;
}

/* Writes the header and data; returns the size or 0 if @cap is short. */
size_t cvq_cmd_encode(const struct cvq_cmd *c, uint8_t *buf, size_t cap);

/* "MAC_ADDR_SET", "VLAN_ADD", ...; NULL for a command we do not know. */
const char *cvq_cmd_name(uint8_t class, uint8_t cmd);

/* The feature bit the command needs, or -1 for an unknown command. */
int cvq_cmd_feature(uint8_t class, uint8_t cmd);

/* Name plus argument, e.g. "VLAN_ADD 5", for messages. */
void cvq_cmd_describe(const struct cvq_cmd *c, char *buf, size_t len);

#endif
