// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cvq: control commands (kmod/engine/vsb_cvq.c) as the module runs them,
 * popped from a control queue (tests/unit/kmod/fake_cvq.c) and handled
 * with vsb_cvq_fetch() and vsb_cvq_apply(): fuzzed negotiated features, a fuzzed reachable
 * starting state, then a few commands of any bytes, split over any
 * number of readable and writable buffers, with unreadable command
 * buffers, a read-only ack and a driver racing the device; over a packed
 * control queue when the fuzzed features have VIRTIO_F_RING_PACKED.
 *
 * Invariants, each an abort:
 *   - no access out of bounds, no undefined behaviour (ASan, UBSan);
 *   - a framing fault, or an ERR ack, leaves struct vsb_net_ctrl
 *     byte-identical, reports no change and (a fault) writes nothing;
 *   - the fault is the one the framing calls for: no header, no ack
 *     byte, unreadable command, unwritable ack;
 *   - an answer has used length 1 and is in the first writable byte;
 *     a query's answer (statistics, VQ_GET) comes after it, of the
 *     model's length and headers, or the model's parameters;
 *   - the ack and the new state are the ones the spec gives (a model
 *     below, written from the virtio-net "Control Virtqueue" section);
 *   - the changed flags name exactly the parts that changed, and an OK
 *     that changed nothing is redundant (but for announce acks);
 *   - all of this whether the command is answered alone
 *     (vsb_cvq_fetch()) or as batch mode answers it, checked and then
 *     acked in a group (vsb_cvq_group_ack()), picked per command;
 *   - a command a fault rule refuses (vsb_cvq_nack(), fuzzed per
 *     command, or picked by fuzzed rules as the module picks them with
 *     vsb_cvq_peek() and vsb_fault_rules_pick()) is acked ERR whatever
 *     it was, its ack byte written at most twice, the state unchanged;
 *   - a rule picked matches the command's class and command, and no
 *     rule acts more often than its times or than it counted;
 *   - the state stays in bounds: 1 <= pairs <= max_pairs, MAC tables of
 *     at most 64 entries together and none when overflowed, only
 *     negotiated offloads.
 */

#include "unit.h"

#include "vsb_fault_rule.h"
#include "fake_cvq.h"
#include "fake_packed.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "fuzz_mem.h"

#define CMDS_MAX 8
/* Command bytes: a full MAC table (2 + 4 + 4 + 64 * 6) and more. */
#define CMD_MAX 1024
#define OUT_MAX 4
#define IN_MAX 3
#define MAX_PAIRS 8
/*
 * A feature bit no virtio device defines (42 to 49 are reserved) asks
 * for fault rules, read after the features; inputs without it read as
 * they always did.
 */
#define FUZZ_RULES_BIT 45

struct cvq_fuzz {
	struct fuzz_input in;
	struct fmem *m;
	struct fuzz_mem fm;
	struct fcvq f;
	/*
	 * With VIRTIO_F_RING_PACKED the control queue is packed, as the
	 * module sets it up: fake_cvq lays each command out (and offers it
	 * on its split ring, which nothing reads), the packed driver offers
	 * the same buffers.
	 */
	bool packed;
	struct fpk pk;
	u16 id_descs[FCVQ_NUM];
	u16 next_id;
	struct vsb_net_ctrl before;
	struct vsb_net_ctrl want;
	/* a statistics query's answer, as the model gives it */
	u32 want_reply_len;
	unsigned int want_replies;
	struct vsb_coal want_coal;
	struct {
		u8 type;
		u16 vq;
		u16 size;
	} want_reply[2 * MAX_PAIRS + 1];
	/* the writable bytes the command came with */
	u32 room;
	u8 cmd[CMD_MAX];
	struct vsb_fault_rules rules;
};

/* ---- the model ---- */

static u32 get_le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static bool model_has(const struct cvq_fuzz *z, unsigned int bit)
{
	return z->f.features & FEATURE(bit);
}

/* The spec's pairs: max_virtqueue_pairs with MQ or RSS, else one. */
static u16 model_pairs(const struct cvq_fuzz *z)
{
	if (model_has(z, VIRTIO_NET_F_MQ) || model_has(z, VIRTIO_NET_F_RSS))
		return z->f.ctrl.max_pairs;
	return 1;
}

/* One MAC_TABLE_SET list at *off; false if it does not fit the data. */
static bool model_mac_list(const u8 *data, u32 len, u32 *off, u32 room,
			   struct vsb_mac_table *table)
{
	u64 n;

	if (len - *off < 4)
		return false;
	n = get_le32(data + *off);
	if (n * ETH_ALEN > len - *off - 4)
		return false;
	table->overflow = n > room;
	table->count = table->overflow ? 0 : n;
	memcpy(table->addr, data + *off + 4, table->count * ETH_ALEN);
	*off += 4 + n * ETH_ALEN;
	return true;
}

static u8 model_mac(struct cvq_fuzz *z, u8 cmd, const u8 *data, u32 len)
{
	struct vsb_net_ctrl *w = &z->want;
	u32 off = 0;

	if (cmd == VIRTIO_NET_CTRL_MAC_ADDR_SET) {
		if (!model_has(z, VIRTIO_NET_F_CTRL_MAC_ADDR) ||
		    len != ETH_ALEN)
			return VIRTIO_NET_ERR;
		memcpy(w->mac, data, ETH_ALEN);
		return VIRTIO_NET_OK;
	}
	if (cmd != VIRTIO_NET_CTRL_MAC_TABLE_SET ||
	    !model_has(z, VIRTIO_NET_F_CTRL_RX) ||
	    !model_mac_list(data, len, &off, VSB_MAC_TABLE_ENTRIES, &w->uni) ||
	    !model_mac_list(data, len, &off,
			    VSB_MAC_TABLE_ENTRIES - w->uni.count, &w->multi) ||
	    off != len)
		return VIRTIO_NET_ERR;
	return VIRTIO_NET_OK;
}

static u8 model_rx(struct cvq_fuzz *z, u8 cmd, const u8 *data, u32 len)
{
	bool *modes[] = { &z->want.rx.promisc, &z->want.rx.allmulti,
			  &z->want.rx.alluni,  &z->want.rx.nomulti,
			  &z->want.rx.nouni,   &z->want.rx.nobcast };

	if (!model_has(z, VIRTIO_NET_F_CTRL_RX) || len != 1 || data[0] > 1 ||
	    cmd >= sizeof(modes) / sizeof(modes[0]) ||
	    (cmd > VIRTIO_NET_CTRL_RX_ALLMULTI &&
	     !model_has(z, VIRTIO_NET_F_CTRL_RX_EXTRA)))
		return VIRTIO_NET_ERR;
	*modes[cmd] = data[0];
	return VIRTIO_NET_OK;
}

/*
 * STATS ("Device Statistics"): the ack, and for an OK the answer after
 * it. The device has one pair without MQ and RSS, the control queue after
 * its pairs, and offers the basic receive, basic transmit and control
 * types, each on its kind of queue; an answer that does not fit is an ERR.
 */
static u8 model_stats(struct cvq_fuzz *z, u8 cmd, const u8 *data, u32 n)
{
	u16 cvq = 2 * model_pairs(z);
	u32 need = 0, i;

	if (!model_has(z, VSB_NET_F_DEVICE_STATS))
		return VIRTIO_NET_ERR;
	if (cmd == VSB_CTRL_STATS_QUERY) {
		if (n)
			return VIRTIO_NET_ERR;
		need = 8;
	} else if (cmd == VSB_CTRL_STATS_GET) {
		if (n % 16 || n / 16 > 2 * MAX_PAIRS + 1)
			return VIRTIO_NET_ERR;
		for (i = 0; i < n; i += 16) {
			u16 vq = data[i] | data[i + 1] << 8;
			u64 types = get_le32(data + i + 8) |
				    (u64)get_le32(data + i + 12) << 32;
			u64 fits = vq == cvq ? VSB_STATS_TYPE_CVQ :
				   vq % 2    ? VSB_STATS_TYPE_TX_BASIC :
					       VSB_STATS_TYPE_RX_BASIC;

			if (vq > cvq || types & ~fits)
				return VIRTIO_NET_ERR;
			if (!types)
				continue;
			z->want_reply[z->want_replies].type = vq == cvq ? 32 :
							      vq % 2	? 16 :
									  0;
			z->want_reply[z->want_replies].vq = vq;
			z->want_reply[z->want_replies].size =
				vq == cvq ? 8 + 2 * 8 : 8 + 6 * 8;
			need += z->want_reply[z->want_replies++].size;
		}
	} else {
		return VIRTIO_NET_ERR;
	}
	if (z->room < 1 + need)
		return VIRTIO_NET_ERR;
	z->want_reply_len = need;
	return VIRTIO_NET_OK;
}

/*
 * NOTF_COAL ("Notifications Coalescing"): TX_SET and RX_SET set every
 * data queue of their direction the device has (NOTF_COAL), VQ_SET one,
 * VQ_GET answers with one's after the ack (VQ_NOTF_COAL); a queue past
 * the data queues, the control queue included, is an ERR.
 */
static u8 model_coal(struct cvq_fuzz *z, u8 cmd, const u8 *data, u32 n)
{
	u16 vqs = 2 * model_pairs(z);
	u16 vq = n >= 2 ? data[0] | data[1] << 8 : 0;
	struct vsb_net_ctrl *w = &z->want;
	struct vsb_coal coal;
	u32 i;

	if (cmd <= VSB_CTRL_NOTF_COAL_RX_SET) {
		if (!model_has(z, VIRTIO_NET_F_NOTF_COAL) || n != 8)
			return VIRTIO_NET_ERR;
		coal.max_packets = get_le32(data);
		coal.max_usecs = get_le32(data + 4);
		for (i = cmd == VSB_CTRL_NOTF_COAL_TX_SET; i < vqs; i += 2)
			w->coal[i] = coal;
		return VIRTIO_NET_OK;
	}
	if (cmd > VSB_CTRL_NOTF_COAL_VQ_GET ||
	    !model_has(z, VSB_NET_F_VQ_NOTF_COAL) || vq >= vqs ||
	    n != (cmd == VSB_CTRL_NOTF_COAL_VQ_SET ? 12u : 4u))
		return VIRTIO_NET_ERR;
	if (cmd == VSB_CTRL_NOTF_COAL_VQ_SET) {
		w->coal[vq].max_packets = get_le32(data + 4);
		w->coal[vq].max_usecs = get_le32(data + 8);
		return VIRTIO_NET_OK;
	}
	if (z->room < 1 + 8)
		return VIRTIO_NET_ERR;
	z->want_reply_len = 8;
	z->want_coal = w->coal[vq];
	return VIRTIO_NET_OK;
}

/*
 * RSS_CONFIG (RSS) and HASH_CONFIG (HASH_REPORT), "Control Virtqueue:
 * RSS": the exact layout (one byte past the key allowed, Linux's trailer
 * padding), a table of a power of two entries up to 128, receive queue
 * numbers below max_tx_vq, max_tx_vq from 1 to the pairs, a key of at
 * most 40 bytes, only the six supported hash types. RSS_CONFIG steers and
 * puts max_tx_vq pairs in force; HASH_CONFIG only hashes.
 */
static u8 model_rss(struct cvq_fuzz *z, u8 cmd, const u8 *data, u32 n)
{
	const u32 types_ok =
		VIRTIO_NET_RSS_HASH_TYPE_IPv4 | VIRTIO_NET_RSS_HASH_TYPE_TCPv4 |
		VIRTIO_NET_RSS_HASH_TYPE_UDPv4 | VIRTIO_NET_RSS_HASH_TYPE_IPv6 |
		VIRTIO_NET_RSS_HASH_TYPE_TCPv6 | VIRTIO_NET_RSS_HASH_TYPE_UDPv6;
	bool rss = cmd == VIRTIO_NET_CTRL_MQ_RSS_CONFIG;
	u16 pairs = model_pairs(z);
	u32 table_len = 0, key_off = 13, key_len, i;
	struct vsb_rss r;
	u16 max_tx;

	memset(&r, 0, sizeof(r));
	if (!model_has(z, rss ? VIRTIO_NET_F_RSS : VIRTIO_NET_F_HASH_REPORT))
		return VIRTIO_NET_ERR;
	if (rss) {
		if (n < 8)
			return VIRTIO_NET_ERR;
		table_len = (data[4] | data[5] << 8) + 1U;
		if (table_len > 128 || (table_len & (table_len - 1)))
			return VIRTIO_NET_ERR;
		key_off = 8 + 2 * table_len + 3;
	}
	if (n < key_off)
		return VIRTIO_NET_ERR;
	key_len = data[key_off - 1];
	if (key_len > 40 || n < key_off + key_len || n > key_off + key_len + 1)
		return VIRTIO_NET_ERR;
	r.hash_types = get_le32(data);
	if (r.hash_types & ~types_ok)
		return VIRTIO_NET_ERR;
	memcpy(r.key, data + key_off, key_len);
	if (rss) {
		max_tx = data[key_off - 3] | data[key_off - 2] << 8;
		r.unclassified = data[6] | data[7] << 8;
		if (!max_tx || max_tx > pairs || r.unclassified >= max_tx)
			return VIRTIO_NET_ERR;
		for (i = 0; i < table_len; i++) {
			r.table[i] = data[8 + 2 * i] | data[9 + 2 * i] << 8;
			if (r.table[i] >= max_tx)
				return VIRTIO_NET_ERR;
		}
		r.table_len = table_len;
		r.steering = true;
		z->want.pairs = max_tx;
	}
	z->want.rss = r;
	return VIRTIO_NET_OK;
}

/* The ack the spec gives for cmd[0, len); z->want is changed for an OK. */
static u8 model_cmd(struct cvq_fuzz *z, const u8 *cmd, u32 len)
{
	struct vsb_net_ctrl *w = &z->want;
	const u8 *data = cmd + 2;
	u32 n = len - 2;
	u16 val16 = n >= 2 ? data[0] | data[1] << 8 : 0;
	u64 val64 = n >= 8 ? get_le32(data) | (u64)get_le32(data + 4) << 32 : 0;

	switch (cmd[0]) {
	case VIRTIO_NET_CTRL_RX:
		return model_rx(z, cmd[1], data, n);
	case VIRTIO_NET_CTRL_MAC:
		return model_mac(z, cmd[1], data, n);
	case VIRTIO_NET_CTRL_VLAN:
		if (!model_has(z, VIRTIO_NET_F_CTRL_VLAN) || n != 2 ||
		    cmd[1] > VIRTIO_NET_CTRL_VLAN_DEL || val16 >= VSB_VLAN_IDS)
			return VIRTIO_NET_ERR;
		if (cmd[1] == VIRTIO_NET_CTRL_VLAN_ADD)
			w->vlans[val16 / 64] |= 1ULL << val16 % 64;
		else
			w->vlans[val16 / 64] &= ~(1ULL << val16 % 64);
		return VIRTIO_NET_OK;
	case VIRTIO_NET_CTRL_ANNOUNCE:
		if (!model_has(z, VIRTIO_NET_F_GUEST_ANNOUNCE) || n ||
		    cmd[1] != VIRTIO_NET_CTRL_ANNOUNCE_ACK)
			return VIRTIO_NET_ERR;
		w->announce_pending = false;
		return VIRTIO_NET_OK;
	case VIRTIO_NET_CTRL_MQ:
		if (cmd[1] == VIRTIO_NET_CTRL_MQ_RSS_CONFIG ||
		    cmd[1] == VIRTIO_NET_CTRL_MQ_HASH_CONFIG)
			return model_rss(z, cmd[1], data, n);
		if (!model_has(z, VIRTIO_NET_F_MQ) || n != 2 ||
		    cmd[1] != VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET || !val16 ||
		    val16 > w->max_pairs)
			return VIRTIO_NET_ERR;
		w->pairs = val16;
		/* automatic steering again */
		w->rss.steering = false;
		return VIRTIO_NET_OK;
	case VIRTIO_NET_CTRL_GUEST_OFFLOADS:
		if (!model_has(z, VIRTIO_NET_F_CTRL_GUEST_OFFLOADS) || n != 8 ||
		    cmd[1] != VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET ||
		    val64 & ~(z->f.features & FCVQ_GUEST_OFFLOADS))
			return VIRTIO_NET_ERR;
		w->offloads = val64;
		return VIRTIO_NET_OK;
	case VSB_CTRL_NOTF_COAL:
		return model_coal(z, cmd[1], data, n);
	case VSB_CTRL_STATS:
		return model_stats(z, cmd[1], data, n);
	default:
		return VIRTIO_NET_ERR;
	}
}

/*
 * The ack the spec gives for cmd[0, len) in state z->before, and the
 * state it leaves in z->want: an ERR leaves it as it was.
 */
static u8 model(struct cvq_fuzz *z, const u8 *cmd, u32 len)
{
	u8 ack;

	z->want = z->before;
	z->want_reply_len = 0;
	z->want_replies = 0;
	ack = model_cmd(z, cmd, len);
	if (ack != VIRTIO_NET_OK)
		z->want = z->before;
	return ack;
}

/* ---- comparing states ---- */

static bool tables_equal(const struct vsb_mac_table *a,
			 const struct vsb_mac_table *b)
{
	return a->count == b->count && a->overflow == b->overflow &&
	       !memcmp(a->addr, b->addr, a->count * ETH_ALEN);
}

static bool modes_equal(const struct vsb_net_ctrl *a,
			const struct vsb_net_ctrl *b)
{
	return a->rx.promisc == b->rx.promisc &&
	       a->rx.allmulti == b->rx.allmulti &&
	       a->rx.alluni == b->rx.alluni && a->rx.nomulti == b->rx.nomulti &&
	       a->rx.nouni == b->rx.nouni && a->rx.nobcast == b->rx.nobcast;
}

/* The VSB_CTRL_CHANGED_* flags that tell a from b. */
static u32 ctrl_diff(const struct vsb_net_ctrl *a, const struct vsb_net_ctrl *b)
{
	u32 diff = 0;

	if (memcmp(a->mac, b->mac, ETH_ALEN))
		diff |= VSB_CTRL_CHANGED_MAC;
	if (a->announce_pending != b->announce_pending)
		diff |= VSB_CTRL_CHANGED_STATUS;
	if (!modes_equal(a, b))
		diff |= VSB_CTRL_CHANGED_RX_MODES;
	if (!tables_equal(&a->uni, &b->uni) ||
	    !tables_equal(&a->multi, &b->multi))
		diff |= VSB_CTRL_CHANGED_MAC_TABLE;
	if (memcmp(a->vlans, b->vlans, sizeof(a->vlans)))
		diff |= VSB_CTRL_CHANGED_VLANS;
	if (a->pairs != b->pairs)
		diff |= VSB_CTRL_CHANGED_PAIRS;
	if (a->offloads != b->offloads)
		diff |= VSB_CTRL_CHANGED_OFFLOADS;
	if (memcmp(a->coal, b->coal, sizeof(a->coal)))
		diff |= VSB_CTRL_CHANGED_COAL;
	if (memcmp(&a->rss, &b->rss, sizeof(a->rss)))
		diff |= VSB_CTRL_CHANGED_RSS;
	return diff;
}

static void check_bounds(const struct cvq_fuzz *z)
{
	const struct vsb_net_ctrl *c = &z->f.ctrl;

	FUZZ_CHECK(c->max_pairs == z->before.max_pairs, "max_pairs changed");
	FUZZ_CHECK(c->pairs >= 1 && c->pairs <= c->max_pairs, "pairs %u of %u",
		   c->pairs, c->max_pairs);
	FUZZ_CHECK(c->uni.count + c->multi.count <= VSB_MAC_TABLE_ENTRIES,
		   "MAC tables hold %u + %u", c->uni.count, c->multi.count);
	FUZZ_CHECK(!(c->uni.overflow && c->uni.count) &&
			   !(c->multi.overflow && c->multi.count),
		   "overflowed table with entries");
	FUZZ_CHECK(!(c->offloads & ~(z->f.features & FCVQ_GUEST_OFFLOADS)),
		   "offloads %#llx not negotiated",
		   (unsigned long long)c->offloads);
}

/* ---- set-up ---- */

static void fill_table(struct cvq_fuzz *z, struct vsb_mac_table *t, u32 room)
{
	u8 sel = fin_u8(&z->in), x = fin_u8(&z->in);
	u32 i, j;

	t->overflow = sel & 0x80;
	t->count = t->overflow ? 0 : sel % (room + 1);
	for (i = 0; i < t->count; i++)
		for (j = 0; j < ETH_ALEN; j++)
			t->addr[i][j] = x * (i + 1) + j;
}

/* The control queue's ring, packed, over the same memory. */
static void packed_init(struct cvq_fuzz *z)
{
	struct vsb_ring *r = &z->f.q.ring;

	fpk_init(&z->pk, z->m, FCVQ_NUM);
	r->packed = true;
	r->id_descs = z->id_descs;
	r->max_ids = FCVQ_NUM;
	FUZZ_CHECK(!vsb_ring_setup(r, FCVQ_NUM, z->pk.desc, z->pk.drv_event,
				   z->pk.dev_event, VSB_RING_BASE_PACKED_FRESH),
		   "packed control queue: %s", vsb_fault_name(r->fault));
}

/*
 * The chain fake_cvq laid out from split head, offered again on the
 * packed ring; returns its buffer id.
 */
static u16 packed_offer(struct cvq_fuzz *z, u16 head)
{
	struct fbuf bufs[FCVQ_NUM];
	unsigned int n = 0;
	u16 flags, id = z->next_id++ % FCVQ_NUM;

	do {
		const u8 *d =
			fmem_ptr(z->m, z->f.q.drv.desc + 16ULL * head, 16);
		u64 addr = get_le32(d) | (u64)get_le32(d + 4) << 32;

		flags = d[12] | d[13] << 8;
		bufs[n++] = (struct fbuf){ addr, get_le32(d + 8),
					   flags & VRING_DESC_F_WRITE };
		head = d[14] | d[15] << 8;
	} while ((flags & VRING_DESC_F_NEXT) && n < FCVQ_NUM);
	fpk_add(&z->pk, bufs, n, id);
	return id;
}

/* Features, the device, and a state commands could have left. */
/* Up to 4 rules; those the device would refuse are left out, as netlink does. */
static void read_rules(struct cvq_fuzz *z)
{
	unsigned int i, n = 1 + fin_below(&z->in, 4);
	const char *why;

	for (i = 0; i < n; i++) {
		u8 sel = fin_u8(&z->in);
		struct vsb_fault_rule r = {
			.action = 1 + fin_below(&z->in, VSB_FAULT_ACTION_MAX),
			.class = sel & 1 ? fin_u8(&z->in) : VSB_FAULT_RULE_ANY,
			.cmd = sel & 2 ? fin_u8(&z->in) : VSB_FAULT_RULE_ANY,
			.nth = sel & 4 ? fin_below(&z->in, 8) : 0,
			.interval = sel & 8 ? fin_below(&z->in, 4) : 0,
			.times = sel & 16 ? fin_below(&z->in, 4) : 0,
		};

		if (sel & 32) {
			r.probability = fin_below(
				&z->in, VSB_FAULT_PROBABILITY_ONE + 1);
			r.seed = fin_u32(&z->in);
		}
		if (r.action == VSB_FAULT_ACTION_DELAY)
			r.delay_ns = 1;
		if (!vsb_fault_rule_check(&r))
			vsb_fault_rules_add(&z->rules, &r, &why);
	}
}

static void setup(struct cvq_fuzz *z)
{
	struct vsb_net_ctrl *c = &z->f.ctrl;
	u64 features = fin_u64(&z->in);
	u16 max_pairs = 1 + fin_below(&z->in, MAX_PAIRS);
	u8 mac[ETH_ALEN], modes;
	unsigned int i, words;

	if (features & FEATURE(FUZZ_RULES_BIT)) {
		features &= ~FEATURE(FUZZ_RULES_BIT);
		read_rules(z);
	}
	fin_bytes(&z->in, mac, sizeof(mac));
	fcvq_init(&z->f, z->m, features, mac, max_pairs);
	z->f.q.ring.mem = z->fm.mem;
	z->packed = features & FEATURE(VIRTIO_F_RING_PACKED);
	if (z->packed)
		packed_init(z);
	modes = fin_u8(&z->in);
	if (!(modes & 0x80))
		return; /* just after reset */
	c->rx.promisc = modes & 1;
	c->rx.allmulti = modes & 2;
	c->rx.alluni = modes & 4;
	c->rx.nomulti = modes & 8;
	c->rx.nouni = modes & 16;
	c->rx.nobcast = modes & 32;
	c->announce_pending = modes & 64;
	c->pairs = 1 + fin_below(&z->in, max_pairs);
	fill_table(z, &c->uni, VSB_MAC_TABLE_ENTRIES);
	fill_table(z, &c->multi, VSB_MAC_TABLE_ENTRIES - c->uni.count);
	words = fin_below(&z->in, 4);
	for (i = 0; i < words; i++)
		c->vlans[fin_below(&z->in, VSB_VLAN_IDS / 64)] =
			fin_u64(&z->in);
	c->offloads = fin_u64(&z->in) & features & FCVQ_GUEST_OFFLOADS;
	words = fin_below(&z->in, 4);
	for (i = 0; i < words; i++) {
		u64 v = fin_u64(&z->in);
		struct vsb_coal *coal =
			&c->coal[fin_below(&z->in, VSB_NET_MAX_DATA_VQS)];

		coal->max_packets = (u32)v;
		coal->max_usecs = (u32)(v >> 32);
	}
}

/* ---- one command ---- */

struct cvq_cmd {
	u32 len;
	u32 out[OUT_MAX];
	u32 in[IN_MAX];
	unsigned int nr_out;
	unsigned int nr_in;
	unsigned int in_perm;
	bool unreadable;
	u64 ack_addr; /* first writable byte, 0 if none */
};

static void read_cmd(struct cvq_fuzz *z, struct cvq_cmd *c)
{
	u8 shape = fin_u8(&z->in);
	u32 left;
	unsigned int i;

	c->nr_out = shape % (OUT_MAX + 1);
	c->nr_in = shape / (OUT_MAX + 1) % (IN_MAX + 1);
	c->in_perm = shape & 0x40 ? FMEM_RO : FMEM_RW;
	c->unreadable = (shape & 0xa0) == 0xa0;
	c->len = c->nr_out ? fin_below(&z->in, CMD_MAX + 1) : 0;
	fin_bytes(&z->in, z->cmd, c->len);
	for (i = 0, left = c->len; i < c->nr_out; i++) {
		c->out[i] = i + 1 < c->nr_out ? fin_below(&z->in, left + 1) :
						left;
		left -= c->out[i];
	}
	/* A chain has at least one buffer. */
	if (!c->nr_out && !c->nr_in)
		c->nr_in = 1;
	/* Mostly an ack's room; sometimes a statistics answer's. */
	for (i = 0, z->room = 0; i < c->nr_in; i++) {
		c->in[i] = fin_u8(&z->in) & 0x80 ? fin_below(&z->in, 256) :
						   fin_below(&z->in, 4);
		z->room += c->in[i];
	}
}

/* The framing fault the command calls for, or NONE. */
static enum vsb_fault want_fault(const struct cvq_cmd *c)
{
	if (c->len < 2)
		return VSB_FAULT_CVQ_HEADER;
	if (!c->ack_addr)
		return VSB_FAULT_CVQ_NO_ACK;
	if (c->unreadable || c->in_perm == FMEM_RO)
		return VSB_FAULT_BUFFER_ACCESS;
	return VSB_FAULT_NONE;
}

/* fake_cvq lays writable buffers FCVQ_GAP apart from the region's start. */
static u64 first_writable_byte(const struct cvq_fuzz *z,
			       const struct cvq_cmd *c)
{
	u64 at;
	unsigned int i;

	if (z->f.in_rgn < 0)
		return 0;
	at = z->m->regions[z->f.in_rgn].addr;
	for (i = 0; i < c->nr_in; at += c->in[i] + FCVQ_GAP, i++)
		if (c->in[i])
			return at;
	return 0;
}

/*
 * A statistics answer, put together from the write log (the ack first):
 * the model's length; after a QUERY the supported types; after a GET the
 * model's replies in its order, each header with its type, queue and size
 * and zero reserved fields, as a driver walking them by size needs.
 */
static bool is_query(const struct vsb_cvq_result *res)
{
	return res->class == VSB_CTRL_STATS ||
	       (res->class == VSB_CTRL_NOTF_COAL &&
		res->cmd == VSB_CTRL_NOTF_COAL_VQ_GET);
}

static void check_query_answer(struct cvq_fuzz *z)
{
	u8 buf[FMW_LOG * FMW_LOG_BYTES];
	u32 len = 0, off = 1, i;

	FUZZ_CHECK(z->f.res.used_len == 1 + z->want_reply_len,
		   "statistics answer of %u bytes, want %u", z->f.res.used_len,
		   1 + z->want_reply_len);
	if (z->fm.nr_writes > FMW_LOG)
		return;
	for (i = 0; i < z->fm.nr_writes; i++) {
		const struct fmw_write *w = &z->fm.log[i];

		if (w->len > FMW_LOG_BYTES)
			return;
		memcpy(buf + len, w->bytes, w->len);
		len += w->len;
	}
	FUZZ_CHECK(len == z->f.res.used_len, "%u bytes written, used len %u",
		   len, z->f.res.used_len);
	if (z->cmd[0] == VSB_CTRL_NOTF_COAL) {
		FUZZ_CHECK(get_le32(buf + 1) == z->want_coal.max_packets &&
				   get_le32(buf + 5) == z->want_coal.max_usecs,
			   "VQ_GET answered %u %u, want %u %u",
			   get_le32(buf + 1), get_le32(buf + 5),
			   z->want_coal.max_packets, z->want_coal.max_usecs);
		return;
	}
	if (z->cmd[1] == VSB_CTRL_STATS_QUERY) {
		/* RX_BASIC (bit 0), TX_BASIC (bit 16), CVQ (bit 32) */
		FUZZ_CHECK(get_le32(buf + 1) == 0x10001 &&
				   get_le32(buf + 5) == 1,
			   "supported types %#x %#x", get_le32(buf + 1),
			   get_le32(buf + 5));
		return;
	}
	for (i = 0; i < z->want_replies; i++) {
		const u8 *r = buf + off;

		FUZZ_CHECK(r[0] == z->want_reply[i].type && !r[1] &&
				   (r[2] | r[3] << 8) == z->want_reply[i].vq &&
				   !r[4] && !r[5] &&
				   (r[6] | r[7] << 8) == z->want_reply[i].size,
			   "reply %u: type %u vq %u size %u, want %u %u %u", i,
			   r[0], r[2] | r[3] << 8, r[6] | r[7] << 8,
			   z->want_reply[i].type, z->want_reply[i].vq,
			   z->want_reply[i].size);
		off += z->want_reply[i].size;
	}
}

static void check_answer(struct cvq_fuzz *z, const struct cvq_cmd *c,
			 bool raced)
{
	const struct vsb_cvq_result *res = &z->f.res;
	const struct vsb_net_ctrl *now = &z->f.ctrl;
	u8 ack_byte = c->ack_addr ? *(u8 *)fmem_ptr(z->m, c->ack_addr, 1) : 0;
	u8 want;

	FUZZ_CHECK(res->fault == want_fault(c), "fault \"%s\", want \"%s\"",
		   vsb_fault_name(res->fault), vsb_fault_name(want_fault(c)));
	if (res->fault || res->ack != VIRTIO_NET_OK) {
		FUZZ_CHECK(!memcmp(now, &z->before, sizeof(*now)),
			   "state changed by %s",
			   res->fault ? "a fault" : "an ERR");
		FUZZ_CHECK(!res->changed && !res->redundant,
			   "changed %#x redundant %d without an OK",
			   res->changed, res->redundant);
	}
	if (res->fault) {
		/* Only the write of the ack can have been tried, and failed. */
		FUZZ_CHECK(!res->used_len && z->fm.nr_writes <= 1 &&
				   (raced || !c->ack_addr ||
				    ack_byte == FCVQ_ACK_PRESET),
			   "fault with used len %u, %u writes, ack byte %#x",
			   res->used_len, z->fm.nr_writes, ack_byte);
		return;
	}
	/* A query's answer follows the ack: checked with the model's. */
	FUZZ_CHECK((res->used_len == 1 &&
		    (z->fm.nr_writes == 1 ||
		     (z->f.nack && z->fm.nr_writes == 2))) ||
			   (is_query(res) && res->ack == VIRTIO_NET_OK),
		   "answer with used len %u, %u writes", res->used_len,
		   z->fm.nr_writes);
	/* Refused: ERR whatever the command, the state checked above. */
	if (z->f.nack) {
		FUZZ_CHECK(res->ack == VIRTIO_NET_ERR &&
				   (raced || ack_byte == VIRTIO_NET_ERR),
			   "refused command acked %u, byte %u", res->ack,
			   ack_byte);
		return;
	}
	FUZZ_CHECK(res->ack == VIRTIO_NET_OK || res->ack == VIRTIO_NET_ERR,
		   "ack %u", res->ack);
	FUZZ_CHECK(z->fm.log[0].addr == c->ack_addr &&
			   (raced || ack_byte == res->ack),
		   "ack %u written at %#llx, byte there %u", res->ack,
		   (unsigned long long)z->fm.log[0].addr, ack_byte);
	if (res->ack == VIRTIO_NET_OK) {
		FUZZ_CHECK(res->changed == ctrl_diff(&z->before, now),
			   "changed %#x, state differs in %#x", res->changed,
			   ctrl_diff(&z->before, now));
		FUZZ_CHECK(res->redundant ==
				   (!res->changed &&
				    res->class != VIRTIO_NET_CTRL_ANNOUNCE &&
				    !is_query(res)),
			   "redundant %d, changed %#x", res->redundant,
			   res->changed);
	}
	/* The bytes the model reads are those the device read. */
	if (raced)
		return;
	FUZZ_CHECK(res->class == z->cmd[0] && res->cmd == z->cmd[1],
		   "class %u cmd %u reported as %u %u", z->cmd[0], z->cmd[1],
		   res->class, res->cmd);
	want = model(z, z->cmd, c->len);
	FUZZ_CHECK(res->ack == want, "class %u cmd %u len %u: ack %u, want %u",
		   z->cmd[0], z->cmd[1], c->len, res->ack, want);
	if (want == VIRTIO_NET_OK && is_query(res))
		check_query_answer(z);
	FUZZ_CHECK(!ctrl_diff(&z->want, now),
		   "class %u cmd %u: state differs from the model's in %#x",
		   z->cmd[0], z->cmd[1], ctrl_diff(&z->want, now));
}

/* As the module does with rules set: does the rule picked refuse it? */
static bool pick_nack(struct cvq_fuzz *z)
{
	const struct vsb_fault_rule *r;
	u8 class, cmd;

	if (vsb_cvq_peek(&z->f.q.ring, &z->f.q.chain, &class, &cmd))
		return false;
	r = vsb_fault_rules_pick(&z->rules, class, cmd);
	if (!r)
		return false;
	FUZZ_CHECK((r->class == VSB_FAULT_RULE_ANY || r->class == class) &&
			   (r->cmd == VSB_FAULT_RULE_ANY || r->cmd == cmd),
		   "rule %u (class %u cmd %u) picked for class %u cmd %u",
		   r->id, r->class, r->cmd, class, cmd);
	FUZZ_CHECK(r->hits <= r->matched && (!r->times || r->hits <= r->times),
		   "rule %u: %llu hits, %llu matched, times %u", r->id,
		   (unsigned long long)r->hits, (unsigned long long)r->matched,
		   r->times);
	return r->action == VSB_FAULT_ACTION_NACK;
}

static void run_cmd(struct cvq_fuzz *z)
{
	struct fcvq *f = &z->f;
	struct cvq_cmd c;
	unsigned int fired;
	u16 head;
	u8 what;
	int ret;

	memset(&c, 0, sizeof(c));
	read_cmd(z, &c);
	head = fcvq_offer(f, z->cmd, c.len, c.out, c.nr_out, c.in, c.nr_in,
			  c.in_perm);
	if (z->packed)
		head = packed_offer(z, head);
	if (c.unreadable && f->out_rgn >= 0)
		fmem_unmap(z->m, f->out_rgn);
	c.ack_addr = first_writable_byte(z, &c);

	ret = vsb_ring_pop(&f->q.ring, &f->q.chain);
	FUZZ_CHECK(ret == 1 && f->q.chain.head == head,
		   "pop %d head %u of a well-formed chain at %u (%s)", ret,
		   f->q.chain.head, head, vsb_fault_name(f->q.ring.fault));
	z->before = f->ctrl;
	memset(&f->res, 0x5a, sizeof(f->res));
	/*
	 * The driver may race the command's reads and its ack; a fault rule
	 * may refuse it.
	 */
	what = fin_u8(&z->in);
	f->nack = what & 2;
	f->group = what & 4;
	if (z->rules.count && pick_nack(z))
		f->nack = true;
	if (what & 1)
		fmw_add_race(&z->fm, &z->in);
	fired = z->fm.races_fired;
	fmw_clear_log(&z->fm);
	fcvq_fetch_apply(f);
	fmw_cancel_races(&z->fm);
	check_answer(z, &c, fired != z->fm.races_fired);
	check_bounds(z);
	FUZZ_CHECK(!vsb_ring_push(&f->q.ring, head, f->res.used_len) &&
			   !vsb_ring_publish(&f->q.ring),
		   "completing the command failed (%s)",
		   vsb_fault_name(f->q.ring.fault));
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct cvq_fuzz *z = calloc(1, sizeof(*z));
	unsigned int i;

	FUZZ_CHECK(z, "out of memory");
	fin_init(&z->in, data, size);
	z->m = fmem_new();
	fmw_init(&z->fm, z->m);
	setup(z);
	z->before = z->f.ctrl;
	check_bounds(z);
	for (i = 0; i < CMDS_MAX && !fin_empty(&z->in); i++)
		run_cmd(z);
	fcvq_fini(&z->f);
	fmem_free(z->m);
	free(z);
	return 0;
}
