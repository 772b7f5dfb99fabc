// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The control-state model behind "load --skip-unchanged". Its rules are
 * the device's: a MAC_TABLE_SET list longer than the room left overflows
 * (and then holds no entry), the unicast list coming first.
 */
#include <endian.h>
#include <string.h>

#include "lib/compat.h"
#include "lib/util.h"
#include "load/ctrl_model.h"

/* Every RX mode, as a device's state reports them all. */
#define CTRL_MODEL_RX_ALL ((1u << (VIRTIO_NET_CTRL_RX_NOBCAST + 1)) - 1)

void ctrl_model_init(struct ctrl_model *m)
{
	*m = (struct ctrl_model){ 0 };
}

void ctrl_model_set_mac(struct ctrl_model *m, const uint8_t mac[MAC_LEN])
{
	memcpy(m->state.mac, mac, MAC_LEN);
	m->known_mac = true;
}

void ctrl_model_set_state(struct ctrl_model *m, const struct vsb_state *state)
{
	nl_attr_set p = state->present;

	m->state = state->cvq;
	m->known_mac = nl_has(p, VSB_A_MAC);
	m->rx_known = nl_has(p, VSB_A_RX_MODES) ? CTRL_MODEL_RX_ALL : 0;
	/* An empty table is sent as no entries, so the nests are optional. */
	m->known_tables = nl_has(p, VSB_A_RX_MODES);
	memset(m->vlan_known, nl_has(p, VSB_A_VLANS) ? 0xff : 0,
	       VSB_VLAN_BYTES);
	m->known_pairs = nl_has(p, VSB_A_PAIRS);
	m->known_offloads = nl_has(p, VSB_A_OFFLOADS);
}

static uint16_t le16_at(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static uint32_t le32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t le64_at(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/* One list at *off; false if it runs past the data (the device says ERR). */
static bool read_mac_list(const struct cvq_cmd *c, unsigned int *off,
			  unsigned int room, struct vsb_mac_list *list)
{
	uint32_t n;

	if (*off + 4 > c->data_len)
		return false;
	n = le32_at(c->data + *off);
	if ((uint64_t)*off + 4 + (uint64_t)n * MAC_LEN > c->data_len)
		return false;
	list->overflow = n > room;
	list->n = list->overflow ? 0 : n;
	memcpy(list->addr, c->data + *off + 4, (size_t)list->n * MAC_LEN);
	*off += 4 + n * MAC_LEN;
	return true;
}

static bool same_list(const struct vsb_mac_list *a,
		      const struct vsb_mac_list *b)
{
	return a->n == b->n && a->overflow == b->overflow &&
	       !memcmp(a->addr, b->addr, (size_t)a->n * MAC_LEN);
}

static bool apply_mac_class(struct ctrl_model *m, const struct cvq_cmd *c)
{
	struct vsb_mac_list uni = { 0 }, multi = { 0 };
	unsigned int off = 0;
	bool changes;

	if (c->cmd == VIRTIO_NET_CTRL_MAC_ADDR_SET) {
		if (c->data_len != MAC_LEN)
			return true;
		changes = !m->known_mac ||
			  memcmp(m->state.mac, c->data, MAC_LEN);
		ctrl_model_set_mac(m, c->data);
		return changes;
	}
	if (c->cmd != VIRTIO_NET_CTRL_MAC_TABLE_SET ||
	    !read_mac_list(c, &off, VSB_MAC_ENTRIES, &uni) ||
	    !read_mac_list(c, &off, VSB_MAC_ENTRIES - uni.n, &multi) ||
	    off != c->data_len)
		return true;
	changes = !m->known_tables || !same_list(&m->state.uni, &uni) ||
		  !same_list(&m->state.multi, &multi);
	m->state.uni = uni;
	m->state.multi = multi;
	m->known_tables = true;
	return changes;
}

static bool apply_rx(struct ctrl_model *m, const struct cvq_cmd *c)
{
	uint32_t bit = 1u << c->cmd;
	uint32_t modes;
	bool changes;

	if (c->cmd > VIRTIO_NET_CTRL_RX_NOBCAST || c->data_len != 1 ||
	    c->data[0] > 1)
		return true;
	modes = c->data[0] ? m->state.rx_modes | bit : m->state.rx_modes & ~bit;
	/* A command tells its own mode: the others stay as known as they were. */
	changes = !(m->rx_known & bit) || modes != m->state.rx_modes;
	m->state.rx_modes = modes;
	m->rx_known |= bit;
	return changes;
}

static bool apply_vlan(struct ctrl_model *m, const struct cvq_cmd *c)
{
	bool add = c->cmd == VIRTIO_NET_CTRL_VLAN_ADD;
	uint16_t vid;
	bool changes;

	if ((!add && c->cmd != VIRTIO_NET_CTRL_VLAN_DEL) || c->data_len != 2)
		return true;
	vid = le16_at(c->data);
	if (vid >= VSB_VLAN_IDS)
		return true;
	changes = !vsb_vlan_test(m->vlan_known, vid) ||
		  vsb_vlan_test(m->state.vlans, vid) != add;
	vsb_vlan_assign(m->state.vlans, vid, add);
	vsb_vlan_assign(m->vlan_known, vid, true);
	return changes;
}

/*
 * RSS_CONFIG puts its max_tx_vq pairs in force and VQ_PAIRS_SET ends its
 * steering, so a VQ_PAIRS_SET after it may change state whatever the
 * pairs: they are unknown until the next one.
 */
static bool apply_mq(struct ctrl_model *m, const struct cvq_cmd *c)
{
	uint16_t pairs;
	bool changes;

	if (c->cmd == VIRTIO_NET_CTRL_MQ_RSS_CONFIG)
		m->known_pairs = false;
	if (c->cmd != VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET || c->data_len != 2)
		return true;
	pairs = le16_at(c->data);
	changes = !m->known_pairs || pairs != m->state.pairs;
	m->state.pairs = pairs;
	m->known_pairs = true;
	return changes;
}

static bool apply_offloads(struct ctrl_model *m, const struct cvq_cmd *c)
{
	uint64_t offloads;
	bool changes;

	if (c->cmd != VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET || c->data_len != 8)
		return true;
	offloads = le64_at(c->data);
	changes = !m->known_offloads || offloads != m->state.offloads;
	m->state.offloads = offloads;
	m->known_offloads = true;
	return changes;
}

bool ctrl_model_apply(struct ctrl_model *m, const struct cvq_cmd *c)
{
	switch (c->class) {
	case VIRTIO_NET_CTRL_MAC:
		return apply_mac_class(m, c);
	case VIRTIO_NET_CTRL_RX:
		return apply_rx(m, c);
	case VIRTIO_NET_CTRL_VLAN:
		return apply_vlan(m, c);
	case VIRTIO_NET_CTRL_MQ:
		return apply_mq(m, c);
	case VIRTIO_NET_CTRL_GUEST_OFFLOADS:
		return apply_offloads(m, c);
	}
	/* ANNOUNCE_ACK and anything unknown: an event, not a state. */
	return true;
}

unsigned int ctrl_model_plan(struct ctrl_model *m, const struct cvq_cmd *cmds,
			     unsigned int n, unsigned int *order)
{
	unsigned int i, kept = 0;

	for (i = 0; i < n; i++)
		if (ctrl_model_apply(m, &cmds[i]))
			order[kept++] = i;
	return kept;
}

const char *ctrl_model_differs(const struct ctrl_model *m,
			       const struct ctrl_model *dev)
{
	unsigned int i;

	if (m->known_mac && dev->known_mac &&
	    memcmp(m->state.mac, dev->state.mac, MAC_LEN))
		return "mac";
	if ((m->state.rx_modes ^ dev->state.rx_modes) & m->rx_known &
	    dev->rx_known)
		return "rx_modes";
	if (m->known_tables && dev->known_tables &&
	    (!same_list(&m->state.uni, &dev->state.uni) ||
	     !same_list(&m->state.multi, &dev->state.multi)))
		return "mac_tables";
	for (i = 0; i < VSB_VLAN_BYTES; i++)
		if ((m->state.vlans[i] ^ dev->state.vlans[i]) &
		    m->vlan_known[i] & dev->vlan_known[i])
			return "vlans";
	if (m->known_pairs && dev->known_pairs &&
	    m->state.pairs != dev->state.pairs)
		return "pairs";
	if (m->known_offloads && dev->known_offloads &&
	    m->state.offloads != dev->state.offloads)
		return "offloads";
	return NULL;
}

void ctrl_model_settle(struct ctrl_model *m, const struct ctrl_model *before,
		       const struct cvq_cmd *cmds, const unsigned int *order,
		       unsigned int n, const uint8_t *acks)
{
	unsigned int k;

	*m = *before;
	for (k = 0; k < n; k++)
		if (acks[order[k]] == VIRTIO_NET_OK)
			ctrl_model_apply(m, &cmds[order[k]]);
}
