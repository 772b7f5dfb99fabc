/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A model of the state a virtio-net device's control queue sets (MAC,
 * RX modes, MAC tables, VLANs, queue pairs, guest offloads), seeded from
 * what the device reports and updated by every command sent, for
 * "load --skip-unchanged": like QEMU, which loads only non-default state,
 * send only the commands that change something. A part of the state the
 * device did not report is unknown, and a command that sets it is sent
 * (after which the part is known).
 */
#ifndef VDPACTL_CTRL_MODEL_H
#define VDPACTL_CTRL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/cvq_cmd.h"
#include "netlink/vsb_msg.h"

struct ctrl_model {
	struct vsb_cvq_state state;
	bool known_mac, known_tables, known_pairs, known_offloads;
	/* RX modes are set one by one, and known one by one */
	uint32_t rx_known; /* BIT(VIRTIO_NET_CTRL_RX_*) */
	uint8_t vlan_known[VSB_VLAN_BYTES]; /* VLANs are known one by one */
};

/* Nothing known. */
void ctrl_model_init(struct ctrl_model *m);

/* The MAC of the config space (all a device without STATE_GET shows). */
void ctrl_model_set_mac(struct ctrl_model *m, const uint8_t mac[MAC_LEN]);

/*
 * Seeds the model from @state: the parts it carries become known, the
 * others unknown.
 */
void ctrl_model_set_state(struct ctrl_model *m, const struct vsb_state *state);

/*
 * Applies @c to the model. Returns true if it changes the state, or its
 * effect cannot be told (unknown state, a command the model does not
 * cover, a payload the device would reject): such a command must be sent.
 */
bool ctrl_model_apply(struct ctrl_model *m, const struct cvq_cmd *c);

/*
 * Plans one load of @n commands: the indices of those to send, in order,
 * go to @order; returns how many. The model ends as the device will.
 */
unsigned int ctrl_model_plan(struct ctrl_model *m, const struct cvq_cmd *cmds,
			     unsigned int n, unsigned int *order);

/*
 * After a load that ctrl_model_plan() planned from @before, which assumed
 * every command it kept would be acked OK: the model as the device has it,
 * @before with the @n commands sent (indices at @order) applied in order,
 * but for those @acks (by index) does not have as VIRTIO_NET_OK. A
 * command the device refused changed nothing, and a later one the plan
 * left out as redundant after it may not have been.
 */
void ctrl_model_settle(struct ctrl_model *m, const struct ctrl_model *before,
		       const struct cvq_cmd *cmds, const unsigned int *order,
		       unsigned int n, const uint8_t *acks);

/*
 * The first part of the state known to both @m and @dev (a model of what
 * the device reports) in which they differ -- "mac", "rx_modes",
 * "mac_tables", "vlans", "pairs", "offloads" -- or NULL if none does.
 */
const char *ctrl_model_differs(const struct ctrl_model *m,
			       const struct ctrl_model *dev);

#endif
