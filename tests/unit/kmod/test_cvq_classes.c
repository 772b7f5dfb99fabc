// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control classes (kmod/engine/vsb_cvq.c) beyond framing, which test_cvq.c
 * covers: RX modes, MAC_TABLE_SET and MAC_ADDR_SET, VLAN, MQ,
 * GUEST_OFFLOADS and ANNOUNCE (vhost-vdpa-cvq-driver.md, section 3), and
 * vsb_net_ctrl_reset().
 *
 * Every test starts from a busy state (busy_state()): modes on, tables and
 * VLANs filled, padding and unused table entries poisoned. A valid command
 * must change exactly what it names, byte for byte, and report it in
 * res.changed; anything short, long, out of range, or whose feature was not
 * negotiated must be answered ERR (ack byte 1, used len 1) with the state
 * byte for byte as it was. Error cases are tables, and every failing row is
 * printed before the test fails.
 */

#include "unit.h"

#include "fake_cvq.h"

/* The longest command built: 65 + 65 MAC table entries, and a spare byte. */
#define CMD_MAX (2 + 2 * (4 + 65 * ETH_ALEN) + 1)
/* Error cases: a header and up to 22 data bytes. */
#define CASE_MAX 24
/* Poison for the state's padding and unused table entries. */
#define STATE_FILL 0xa5

#define LE16(v) ((v)&0xff), (((v) >> 8) & 0xff)
#define LE32(v) LE16((v)&0xffff), LE16(((v) >> 16) & 0xffff)
#define LE64(v) LE32((v)&0xffffffffULL), LE32(((v) >> 32) & 0xffffffffULL)

#define RX VIRTIO_NET_CTRL_RX
#define MAC VIRTIO_NET_CTRL_MAC
#define VLAN VIRTIO_NET_CTRL_VLAN
#define ANNOUNCE VIRTIO_NET_CTRL_ANNOUNCE
#define MQ VIRTIO_NET_CTRL_MQ
#define OFFLOADS VIRTIO_NET_CTRL_GUEST_OFFLOADS

static const u8 mac_new[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

/* A command the tests build. */
struct cmd {
	u8 b[CMD_MAX];
	u32 len;
};

static void cmd_start(struct cmd *c, u8 class, u8 command)
{
	c->b[0] = class;
	c->b[1] = command;
	c->len = 2;
}

static void put_le(struct cmd *c, u64 v, unsigned int bytes)
{
	unsigned int i;

	assert_true(c->len + bytes <= CMD_MAX);
	for (i = 0; i < bytes; i++)
		c->b[c->len++] = (u8)(v >> (8 * i));
}

static void put_bytes(struct cmd *c, const u8 *p, u32 n)
{
	assert_true(c->len + n <= CMD_MAX);
	memcpy(c->b + c->len, p, n);
	c->len += n;
}

/* Entry i of the unicast and multicast lists the tests send. */
static void uni_addr(u8 *a, u32 i)
{
	const u8 addr[ETH_ALEN] = { 0x02, 0x10, 0x20, 0x30, i >> 8, i };

	memcpy(a, addr, ETH_ALEN);
}

static void multi_addr(u8 *a, u32 i)
{
	const u8 addr[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x7f, i >> 8, i };

	memcpy(a, addr, ETH_ALEN);
}

/*
 * MAC_TABLE_SET: count n_count with n unicast entries, then count m_count
 * with m multicast entries.
 */
static void mac_table_cmd(struct cmd *c, u32 n_count, u32 n, u32 m_count, u32 m)
{
	u8 a[ETH_ALEN];
	u32 i;

	cmd_start(c, MAC, VIRTIO_NET_CTRL_MAC_TABLE_SET);
	put_le(c, n_count, 4);
	for (i = 0; i < n; i++) {
		uni_addr(a, i);
		put_bytes(c, a, ETH_ALEN);
	}
	put_le(c, m_count, 4);
	for (i = 0; i < m; i++) {
		multi_addr(a, i);
		put_bytes(c, a, ETH_ALEN);
	}
}

/* The table a MAC_TABLE_SET list of n entries with room for room leaves. */
static void table_of(struct vsb_mac_table *t, u32 n, u32 room, bool multi)
{
	u32 i;

	t->overflow = n > room;
	t->count = t->overflow ? 0 : n;
	for (i = 0; i < t->count; i++) {
		if (multi)
			multi_addr(t->addr[i], i);
		else
			uni_addr(t->addr[i], i);
	}
}

/*
 * The tables a MAC_TABLE_SET of n unicast and m multicast entries leaves:
 * 64 entries shared, the multicast list getting what the unicast one left.
 */
static void tables_of(struct vsb_net_ctrl *want, u32 n, u32 m)
{
	table_of(&want->uni, n, VSB_MAC_TABLE_ENTRIES, false);
	table_of(&want->multi, m, VSB_MAC_TABLE_ENTRIES - want->uni.count,
		 true);
}

/*
 * A state with something in every field: some modes on, a unicast table,
 * an overflowed multicast one, VLANs 1, 100 and 4095, two of four pairs,
 * two offloads, an announcement pending; padding and unused entries
 * poisoned, so that a stray write anywhere shows.
 */
static void busy_state(struct vsb_net_ctrl *s)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0xde, 0xad, 0xbe, 0xef, 0x07 };
	u32 i;

	memset(s, STATE_FILL, sizeof(*s));
	memcpy(s->mac, mac, ETH_ALEN);
	s->announce_pending = true;
	s->rx.promisc = true;
	s->rx.allmulti = false;
	s->rx.alluni = true;
	s->rx.nomulti = false;
	s->rx.nouni = true;
	s->rx.nobcast = false;
	s->uni.count = 3;
	s->uni.overflow = false;
	for (i = 0; i < 3; i++)
		uni_addr(s->uni.addr[i], 100 + i);
	s->multi.count = 0;
	s->multi.overflow = true;
	memset(s->vlans, 0, sizeof(s->vlans));
	s->vlans[0] = 1ULL << 1;
	s->vlans[100 / 64] |= 1ULL << (100 % 64);
	s->vlans[4095 / 64] |= 1ULL << (4095 % 64);
	s->pairs = 2;
	s->max_pairs = FCVQ_MAX_PAIRS;
	s->offloads = FEATURE(VIRTIO_NET_F_GUEST_CSUM) |
		      FEATURE(VIRTIO_NET_F_GUEST_TSO6);
	/* a hash type on, no RSS steering (test_rss.c has the steering) */
	memset(&s->rss, 0, sizeof(s->rss));
	s->rss.hash_types = VIRTIO_NET_RSS_HASH_TYPE_IPv4;
	s->rss.table_len = 1;
}

/* Start a test: every feature, the busy state, and a copy of it in want. */
static struct fcvq *start(void **state, struct vsb_net_ctrl *want)
{
	struct fcvq *f = *state;

	f->features = FCVQ_ALL_FEATURES;
	busy_state(&f->ctrl);
	memcpy(want, &f->ctrl, sizeof(*want));
	return f;
}

static void vlan_set(struct vsb_net_ctrl *s, u16 vid, bool on)
{
	if (on)
		s->vlans[vid / 64] |= 1ULL << (vid % 64);
	else
		s->vlans[vid / 64] &= ~(1ULL << (vid % 64));
}

#define FIELD(m)                                              \
	{                                                     \
#m, offsetof(struct vsb_net_ctrl, m),         \
			sizeof(((struct vsb_net_ctrl *)0)->m) \
	}

static const struct {
	const char *name;
	size_t off;
	size_t size;
} fields[] = {
	FIELD(mac),	   FIELD(announce_pending),
	FIELD(rx.promisc), FIELD(rx.allmulti),
	FIELD(rx.alluni),  FIELD(rx.nomulti),
	FIELD(rx.nouni),   FIELD(rx.nobcast),
	FIELD(uni),	   FIELD(multi),
	FIELD(vlans),	   FIELD(pairs),
	FIELD(max_pairs),  FIELD(offloads),
};

/* The field state byte off belongs to. */
static const char *field_at(size_t off)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (off >= fields[i].off &&
		    off < fields[i].off + fields[i].size)
			return fields[i].name;
	return "padding";
}

/* got is want byte for byte; prints the bytes that differ, if any. */
static bool state_is(const struct vsb_net_ctrl *got,
		     const struct vsb_net_ctrl *want, const char *what)
{
	const u8 *g = (const u8 *)got, *w = (const u8 *)want;
	unsigned int bad = 0;
	size_t i;

	for (i = 0; i < sizeof(*got); i++) {
		if (g[i] == w[i])
			continue;
		if (bad++ < 8)
			print_error("%s: state byte %zu (%s) %#x, want %#x\n",
				    what, i, field_at(i), g[i], w[i]);
	}
	if (bad)
		print_error("%s: %u state bytes differ\n", what, bad);
	return !bad;
}

/*
 * A MAC table holds its count, overflow and first count entries: the
 * rest (entries past count, padding) is whatever the scratch area held.
 */
static void normalise_table(struct vsb_mac_table *t)
{
	struct vsb_mac_table n;

	memset(&n, 0, sizeof(n));
	n.count = t->count;
	n.overflow = t->overflow;
	if (n.count <= VSB_MAC_TABLE_ENTRIES)
		memcpy(n.addr, t->addr, n.count * ETH_ALEN);
	memcpy(t, &n, sizeof(n));
}

/*
 * The last command was answered ack, reported changed and left the state
 * want: byte for byte, but for what normalise_table() leaves out if
 * tables. Prints what differs, prefixed with what.
 */
static bool answer_is(struct fcvq *f, u8 ack, u32 changed,
		      const struct vsb_net_ctrl *want, bool tables,
		      const char *what)
{
	struct vsb_net_ctrl g, w;
	bool ok = fcvq_answered(f, ack, what);

	if (f->res.changed != changed) {
		print_error("%s: changed %#x, want %#x\n", what, f->res.changed,
			    changed);
		ok = false;
	}
	/* OK and nothing changed: redundant, but for an announcement ack. */
	if (f->res.redundant != (ack == VIRTIO_NET_OK && !changed &&
				 f->res.class != VIRTIO_NET_CTRL_ANNOUNCE)) {
		print_error("%s: redundant %d\n", what, f->res.redundant);
		ok = false;
	}
	memcpy(&g, &f->ctrl, sizeof(g));
	memcpy(&w, want, sizeof(w));
	if (tables) {
		normalise_table(&g.uni);
		normalise_table(&g.multi);
		normalise_table(&w.uni);
		normalise_table(&w.multi);
	}
	return state_is(&g, &w, what) && ok;
}

static void expect_answer_at(struct fcvq *f, u8 ack, u32 changed,
			     const struct vsb_net_ctrl *want, bool tables,
			     const char *file, int line)
{
	if (!answer_is(f, ack, changed, want, tables, "cvq"))
		_fail(file, line);
}

/* OK, changed reported, the state exactly want. */
#define expect_ok(f, changed, want)                                        \
	expect_answer_at(f, VIRTIO_NET_OK, changed, want, false, __FILE__, \
			 __LINE__)
/* The same, with MAC tables compared by their entries. */
#define expect_ok_tables(f, want)                                            \
	expect_answer_at(f, VIRTIO_NET_OK, VSB_CTRL_CHANGED_MAC_TABLE, want, \
			 true, __FILE__, __LINE__)
/* OK, and flag reported if want differs from the state before. */
#define expect_ok_if_new(f, flag, before, want) \
	expect_ok(f, memcmp(before, want, sizeof(*(want))) ? (flag) : 0, want)
/* ERR, nothing changed: the state byte for byte before. */
#define expect_err(f, before)                                           \
	expect_answer_at(f, VIRTIO_NET_ERR, 0, before, false, __FILE__, \
			 __LINE__)

/* Framing fault with the state byte for byte before. */
#define expect_fault_unchanged(f, fault, before)            \
	do {                                                \
		fcvq_expect_fault(f, fault);                \
		if (!state_is(&(f)->ctrl, before, "fault")) \
			fail();                             \
	} while (0)

/* Send c the usual way; the result names its class and command. */
static void send(struct fcvq *f, const struct cmd *c)
{
	fcvq_send(f, c->b, c->len);
	assert_int_equal(f->res.class, c->b[0]);
	assert_int_equal(f->res.cmd, c->b[1]);
}

/* A command that must be answered ERR, leaving the state as it was. */
struct err_case {
	const char *name;
	u64 drop; /* features not negotiated */
	u32 len;
	u8 cmd[CASE_MAX];
};

/* Each case from the busy state: ERR, state unchanged; all rows run. */
static void run_err_cases(void **state, const struct err_case *c, size_t n)
{
	struct vsb_net_ctrl before;
	unsigned int bad = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct fcvq *f = start(state, &before);

		assert_true(c[i].len <= CASE_MAX);
		f->features &= ~c[i].drop;
		fcvq_send(f, c[i].cmd, c[i].len);
		if (!answer_is(f, VIRTIO_NET_ERR, 0, &before, false, c[i].name))
			bad++;
	}
	if (bad)
		fail_msg("%u of %zu cases not ERR with the state unchanged",
			 bad, n);
}

/* A row: name, features dropped, length, then the command's bytes. */
#define E(name, drop, len, ...)     \
	{                           \
		name, drop, len,    \
		{                   \
			__VA_ARGS__ \
		}                   \
	}

#define RUN_ERR_CASES(state, cases) \
	run_err_cases(state, cases, ARRAY_SIZE(cases))

/* RX class. */

static const struct rx_mode {
	const char *name;
	u8 cmd;
	size_t off;
	bool extra; /* needs CTRL_RX_EXTRA too */
} rx_modes[] = {
	{ "promisc", VIRTIO_NET_CTRL_RX_PROMISC,
	  offsetof(struct vsb_net_ctrl, rx.promisc), false },
	{ "allmulti", VIRTIO_NET_CTRL_RX_ALLMULTI,
	  offsetof(struct vsb_net_ctrl, rx.allmulti), false },
	{ "alluni", VIRTIO_NET_CTRL_RX_ALLUNI,
	  offsetof(struct vsb_net_ctrl, rx.alluni), true },
	{ "nomulti", VIRTIO_NET_CTRL_RX_NOMULTI,
	  offsetof(struct vsb_net_ctrl, rx.nomulti), true },
	{ "nouni", VIRTIO_NET_CTRL_RX_NOUNI,
	  offsetof(struct vsb_net_ctrl, rx.nouni), true },
	{ "nobcast", VIRTIO_NET_CTRL_RX_NOBCAST,
	  offsetof(struct vsb_net_ctrl, rx.nobcast), true },
};

static bool *rx_mode_of(struct vsb_net_ctrl *s, const struct rx_mode *m)
{
	return (bool *)((u8 *)s + m->off);
}

static void rx_cmd(struct cmd *c, u8 command, u8 value)
{
	cmd_start(c, RX, command);
	put_le(c, value, 1);
}

/* On, off, off again, on again: each sets its own mode and nothing else. */
static void rx_every_mode_set_and_cleared(void **state)
{
	static const u8 values[] = { 1, 0, 0, 1 };
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	unsigned int i, v;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(rx_modes); i++) {
		for (v = 0; v < ARRAY_SIZE(values); v++) {
			struct vsb_net_ctrl before = want;

			rx_cmd(&c, rx_modes[i].cmd, values[v]);
			send(f, &c);
			*rx_mode_of(&want, &rx_modes[i]) = values[v];
			expect_ok_if_new(f, VSB_CTRL_CHANGED_RX_MODES, &before,
					 &want);
		}
	}
}

/* Values other than 0 and 1, sizes other than 1, unknown commands. */
static void rx_bad_value_size_or_command_err(void **state)
{
	static const struct {
		u8 value;
		u32 len;
	} bad[] = { { 2, 3 }, { 0x80, 3 }, { 0xff, 3 },
		    { 1, 2 }, { 1, 4 },	   { 1, 2 + 17 } };
	struct vsb_net_ctrl before;
	struct fcvq *f = start(state, &before);
	unsigned int i, j;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(rx_modes); i++) {
		for (j = 0; j < ARRAY_SIZE(bad); j++) {
			memset(&c, 0, sizeof(c));
			rx_cmd(&c, rx_modes[i].cmd, bad[j].value);
			c.b[3] = 1;
			c.len = bad[j].len;
			send(f, &c);
			expect_err(f, &before);
		}
	}
	rx_cmd(&c, VIRTIO_NET_CTRL_RX_NOBCAST + 1, 1);
	send(f, &c);
	expect_err(f, &before);
	rx_cmd(&c, 0xff, 0);
	send(f, &c);
	expect_err(f, &before);
}

static void rx_without_ctrl_rx_err(void **state)
{
	struct vsb_net_ctrl before;
	struct fcvq *f = start(state, &before);
	unsigned int i, v;
	struct cmd c;

	/* CTRL_RX_EXTRA alone does not make any of them valid */
	f->features &= ~FEATURE(VIRTIO_NET_F_CTRL_RX);
	for (i = 0; i < ARRAY_SIZE(rx_modes); i++) {
		for (v = 0; v < 2; v++) {
			rx_cmd(&c, rx_modes[i].cmd, v);
			send(f, &c);
			expect_err(f, &before);
		}
	}
}

/* ALLUNI, NOMULTI, NOUNI, NOBCAST need CTRL_RX_EXTRA; the others do not. */
static void rx_extra_modes_without_ctrl_rx_extra_err(void **state)
{
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	unsigned int i, v;
	struct cmd c;

	f->features &= ~FEATURE(VIRTIO_NET_F_CTRL_RX_EXTRA);
	for (i = 0; i < ARRAY_SIZE(rx_modes); i++) {
		struct vsb_net_ctrl before;

		for (v = 0; v < 2; v++) {
			rx_cmd(&c, rx_modes[i].cmd, v);
			send(f, &c);
			if (rx_modes[i].extra) {
				expect_err(f, &want);
				continue;
			}
			before = want;
			*rx_mode_of(&want, &rx_modes[i]) = v;
			expect_ok_if_new(f, VSB_CTRL_CHANGED_RX_MODES, &before,
					 &want);
		}
	}
}

/* MAC class: MAC_TABLE_SET. */

static void mac_table_set_ok(void **state)
{
	static const u32 lists[][2] = {
		{ 2, 3 }, { 0, 0 }, { 1, 0 }, { 0, 1 }, { 3, 2 }
	};
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	unsigned int i;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		mac_table_cmd(&c, lists[i][0], lists[i][0], lists[i][1],
			      lists[i][1]);
		send(f, &c);
		tables_of(&want, lists[i][0], lists[i][1]);
		expect_ok_tables(f, &want);
	}
}

/*
 * 64 entries in all, as QEMU: a list that does not fit in what is left
 * overflows (count 0); an overflowed unicast list leaves all 64.
 */
static void mac_table_set_64_fit_65_overflow(void **state)
{
	static const u32 lists[][2] = { { 64, 64 }, { 65, 1 },	{ 1, 65 },
					{ 65, 65 }, { 64, 0 },	{ 0, 64 },
					{ 1, 64 },  { 32, 32 }, { 65, 64 } };
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	unsigned int i;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		mac_table_cmd(&c, lists[i][0], lists[i][0], lists[i][1],
			      lists[i][1]);
		send(f, &c);
		tables_of(&want, lists[i][0], lists[i][1]);
		expect_ok_tables(f, &want);
		assert_int_equal(f->ctrl.uni.overflow, lists[i][0] > 64);
		assert_int_equal(f->ctrl.multi.overflow,
				 lists[i][0] <= 64 ?
					 lists[i][1] > 64 - lists[i][0] :
					 lists[i][1] > 64);
	}
}

/*
 * Counts whose size in bytes does not fit 32 bits: with 32-bit arithmetic
 * 0x2aaaaaab * 6 wraps to 2 and 0x80000000 * 6 to 0, and the data below
 * would add up.
 */
static void mac_table_set_counts_overflowing_32_bits_err(void **state)
{
	static const struct err_case cases[] = {
		E("n 0xffffffff", 0, 10, MAC, VIRTIO_NET_CTRL_MAC_TABLE_SET,
		  LE32(0xffffffffU), LE32(0)),
		E("n 0xffffffff, no second list", 0, 6, MAC,
		  VIRTIO_NET_CTRL_MAC_TABLE_SET, LE32(0xffffffffU)),
		E("n 0x2aaaaaab (6n wraps to 2)", 0, 12, MAC,
		  VIRTIO_NET_CTRL_MAC_TABLE_SET, LE32(0x2aaaaaabU), 0x02, 0x00,
		  LE32(0)),
		E("n 0x80000000 (6n wraps to 0)", 0, 10, MAC,
		  VIRTIO_NET_CTRL_MAC_TABLE_SET, LE32(0x80000000U), LE32(0)),
		E("m 0xffffffff", 0, 10, MAC, VIRTIO_NET_CTRL_MAC_TABLE_SET,
		  LE32(0), LE32(0xffffffffU)),
		E("m 0x2aaaaaab (6m wraps to 2)", 0, 12, MAC,
		  VIRTIO_NET_CTRL_MAC_TABLE_SET, LE32(0), LE32(0x2aaaaaabU),
		  0x01, 0x00),
		E("n 1, m 0x80000000 (6m wraps to 0)", 0, 16, MAC,
		  VIRTIO_NET_CTRL_MAC_TABLE_SET, LE32(1), 0x02, 1, 2, 3, 4, 5,
		  LE32(0x80000000U)),
		E("n 0xfffffffe, m 0xffffffff", 0, 10, MAC,
		  VIRTIO_NET_CTRL_MAC_TABLE_SET, LE32(0xfffffffeU),
		  LE32(0xffffffffU)),
	};

	RUN_ERR_CASES(state, cases);
}

/* Data one byte short or long of what the counts say, and worse. */
static void mac_table_set_length_not_matching_counts_err(void **state)
{
	static const u32 lists[][2] = { { 0, 0 }, { 1, 0 },   { 0, 1 },
					{ 2, 3 }, { 64, 64 }, { 65, 0 },
					{ 0, 65 } };
	/* { n_count, n, m_count, m } not adding up by whole entries */
	static const u32 miscount[][4] = {
		{ 3, 2, 0, 0 }, { 1, 2, 0, 0 }, { 0, 0, 2, 1 },
		{ 0, 0, 1, 2 }, { 2, 3, 3, 2 },
	};
	/* no data, one count, one count and 3 bytes of the second */
	static const u32 truncated[] = { 0, 4, 7 };
	struct vsb_net_ctrl before;
	struct fcvq *f = start(state, &before);
	unsigned int i;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		mac_table_cmd(&c, lists[i][0], lists[i][0], lists[i][1],
			      lists[i][1]);
		c.len--;
		send(f, &c);
		expect_err(f, &before);
		c.len++;
		put_le(&c, 0, 1);
		send(f, &c);
		expect_err(f, &before);
	}
	for (i = 0; i < ARRAY_SIZE(miscount); i++) {
		mac_table_cmd(&c, miscount[i][0], miscount[i][1],
			      miscount[i][2], miscount[i][3]);
		send(f, &c);
		expect_err(f, &before);
	}
	for (i = 0; i < ARRAY_SIZE(truncated); i++) {
		mac_table_cmd(&c, 0, 0, 0, 0);
		c.len = 2 + truncated[i];
		send(f, &c);
		expect_err(f, &before);
	}
}

static void mac_table_set_without_ctrl_rx_err(void **state)
{
	static const u32 lists[][2] = { { 2, 3 }, { 0, 0 }, { 65, 0 } };
	struct vsb_net_ctrl before;
	struct fcvq *f = start(state, &before);
	unsigned int i;
	struct cmd c;

	/* CTRL_MAC_ADDR is not enough */
	f->features &= ~FEATURE(VIRTIO_NET_F_CTRL_RX);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		mac_table_cmd(&c, lists[i][0], lists[i][0], lists[i][1],
			      lists[i][1]);
		send(f, &c);
		expect_err(f, &before);
	}
}

/* Counts and entries straddle descriptors of odd sizes. */
static void mac_table_set_split_at_odd_offsets(void **state)
{
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	struct cmd c;

	mac_table_cmd(&c, 64, 64, 64, 64);
	assert_int_equal(c.len, 778);
	fcvq_send_split(f, c.b, c.len,
			SPLIT(1, 3, 5, 7, 11, 13, 17, 101, 203, 417), SPLIT(1),
			FMEM_RW);
	tables_of(&want, 64, 64);
	expect_ok_tables(f, &want);

	mac_table_cmd(&c, 2, 2, 3, 3);
	assert_int_equal(c.len, 40);
	fcvq_send_split(f, c.b, c.len, SPLIT(3, 5, 7, 9, 11, 5), SPLIT(1, 3),
			FMEM_RW);
	tables_of(&want, 2, 3);
	expect_ok_tables(f, &want);

	/* the skipped entries of an overflowing list straddle too */
	mac_table_cmd(&c, 65, 65, 1, 1);
	assert_int_equal(c.len, 406);
	fcvq_send_split(f, c.b, c.len, SPLIT(7, 99, 201, 99), SPLIT(1),
			FMEM_RW);
	tables_of(&want, 65, 1);
	expect_ok_tables(f, &want);
}

/* Checked, but the ack cannot reach the driver: nothing applied. */
static void mac_table_set_ack_read_only_faults_state_unchanged(void **state)
{
	struct vsb_net_ctrl before;
	struct fcvq *f = start(state, &before);
	struct cmd c;

	mac_table_cmd(&c, 2, 2, 3, 3);
	fcvq_send_split(f, c.b, c.len, &c.len, 1, SPLIT(1), FMEM_RO);
	expect_fault_unchanged(f, VSB_FAULT_BUFFER_ACCESS, &before);

	mac_table_cmd(&c, 64, 64, 64, 64);
	fcvq_send_split(f, c.b, c.len,
			SPLIT(1, 3, 5, 7, 11, 13, 17, 101, 203, 417), SPLIT(1),
			FMEM_RO);
	expect_fault_unchanged(f, VSB_FAULT_BUFFER_ACCESS, &before);
}

/*
 * Offer c in descriptors of out[] bytes, descriptor bad of them pointing
 * to an address no region maps, then handle it.
 */
static void send_with_unmapped_desc(struct fcvq *f, const struct cmd *c,
				    const u32 *out, unsigned int nr_out,
				    unsigned int bad)
{
	u16 head = fcvq_offer(f, c->b, c->len, out, nr_out, SPLIT(1), FMEM_RW);
	u16 at = (head + bad) % FCVQ_NUM;

	fdrv_set_desc(&f->q.drv, at, FMEM_BASE - 0x1000, out[bad],
		      VRING_DESC_F_NEXT, (at + 1) % FCVQ_NUM);
	fcvq_handle(f, head);
}

/* The first 18 bytes of a command are read with its header. */
static void mac_table_set_header_unreadable_faults(void **state)
{
	struct vsb_net_ctrl before;
	struct fcvq *f = start(state, &before);
	struct cmd c;

	mac_table_cmd(&c, 2, 2, 3, 3);
	send_with_unmapped_desc(f, &c, SPLIT(2, 16, 22), 1);
	expect_fault_unchanged(f, VSB_FAULT_BUFFER_ACCESS, &before);
}

/*
 * MAC table entries beyond the bytes read with the header sit in a buffer
 * the device cannot read: a fault like any other unreadable command
 * (mac_table_set_header_unreadable_faults, command_unreadable_faults), not
 * an ERR, as QEMU does when it cannot map a buffer.
 */
static void mac_table_set_entries_unreadable_faults(void **state)
{
	struct vsb_net_ctrl before;
	struct fcvq *f = start(state, &before);
	struct cmd c;

	/* the multicast count and entries unreadable */
	mac_table_cmd(&c, 2, 2, 3, 3);
	send_with_unmapped_desc(f, &c, SPLIT(18, 22), 1);
	expect_fault_unchanged(f, VSB_FAULT_BUFFER_ACCESS, &before);

	/* unicast entries 20 to 53 unreadable */
	mac_table_cmd(&c, 64, 64, 64, 64);
	send_with_unmapped_desc(f, &c, SPLIT(18, 110, 200, 450), 2);
	expect_fault_unchanged(f, VSB_FAULT_BUFFER_ACCESS, &before);
}

/* MAC class: MAC_ADDR_SET (more in test_cvq.c), byte for byte. */

static void mac_addr_set_changes_only_mac(void **state)
{
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	struct cmd c;

	cmd_start(&c, MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	put_bytes(&c, mac_new, ETH_ALEN);
	send(f, &c);
	memcpy(want.mac, mac_new, ETH_ALEN);
	expect_ok(f, VSB_CTRL_CHANGED_MAC, &want);
}

static void mac_class_err(void **state)
{
	static const struct err_case cases[] = {
		E("addr 5 bytes", 0, 2 + 5, MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET,
		  2, 1, 2, 3, 4),
		E("addr 7 bytes", 0, 2 + 7, MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET,
		  2, 1, 2, 3, 4, 5, 6),
		E("addr no data", 0, 2, MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET),
		E("addr 22 bytes", 0, 24, MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET),
		E("addr without CTRL_MAC_ADDR",
		  FEATURE(VIRTIO_NET_F_CTRL_MAC_ADDR), 8, MAC,
		  VIRTIO_NET_CTRL_MAC_ADDR_SET, 2, 1, 2, 3, 4, 5),
		E("command 2", 0, 8, MAC, 2, 2, 1, 2, 3, 4, 5),
		E("command 0xff", 0, 10, MAC, 0xff, LE32(0), LE32(0)),
	};

	RUN_ERR_CASES(state, cases);
}

/* VLAN class. */

static void vlan_cmd(struct cmd *c, u8 command, u16 vid)
{
	cmd_start(c, VLAN, command);
	put_le(c, vid, 2);
}

/* Add then delete, at the edges of the table's words; le16 on the wire. */
static void vlan_add_del_each_id(void **state)
{
	/* 100 and 4095 are in the busy state's table already */
	static const u16 vids[] = { 0, 1, 63, 64, 100, 0x0102, 4094, 4095 };
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	unsigned int i;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(vids); i++) {
		struct vsb_net_ctrl before = want;

		vlan_cmd(&c, VIRTIO_NET_CTRL_VLAN_ADD, vids[i]);
		send(f, &c);
		vlan_set(&want, vids[i], true);
		expect_ok_if_new(f, VSB_CTRL_CHANGED_VLANS, &before, &want);
		/* again: OK, and redundant */
		send(f, &c);
		expect_ok(f, 0, &want);
	}
	for (i = 0; i < ARRAY_SIZE(vids); i++) {
		vlan_cmd(&c, VIRTIO_NET_CTRL_VLAN_DEL, vids[i]);
		send(f, &c);
		vlan_set(&want, vids[i], false);
		expect_ok(f, VSB_CTRL_CHANGED_VLANS, &want);
		/* deleting what is not there is OK too, and redundant */
		send(f, &c);
		expect_ok(f, 0, &want);
	}
	for (i = 0; i < ARRAY_SIZE(f->ctrl.vlans); i++)
		assert_int_equal(f->ctrl.vlans[i], 0);
}

static void vlan_class_err(void **state)
{
	static const struct err_case cases[] = {
		E("add 4096", 0, 4, VLAN, VIRTIO_NET_CTRL_VLAN_ADD, LE16(4096)),
		E("add 0xffff", 0, 4, VLAN, VIRTIO_NET_CTRL_VLAN_ADD,
		  LE16(0xffff)),
		E("add 0x1064 (100 with a high bit)", 0, 4, VLAN,
		  VIRTIO_NET_CTRL_VLAN_ADD, LE16(0x1064)),
		E("del 4096", 0, 4, VLAN, VIRTIO_NET_CTRL_VLAN_DEL, LE16(4096)),
		E("del 0xffff", 0, 4, VLAN, VIRTIO_NET_CTRL_VLAN_DEL,
		  LE16(0xffff)),
		E("del 0x8001", 0, 4, VLAN, VIRTIO_NET_CTRL_VLAN_DEL,
		  LE16(0x8001)),
		E("add no data", 0, 2, VLAN, VIRTIO_NET_CTRL_VLAN_ADD),
		E("add 1 byte", 0, 3, VLAN, VIRTIO_NET_CTRL_VLAN_ADD, 7),
		E("add 3 bytes", 0, 5, VLAN, VIRTIO_NET_CTRL_VLAN_ADD, 7, 0, 0),
		E("add 22 bytes", 0, 24, VLAN, VIRTIO_NET_CTRL_VLAN_ADD, 7),
		E("del 1 byte", 0, 3, VLAN, VIRTIO_NET_CTRL_VLAN_DEL, 1),
		E("del 3 bytes", 0, 5, VLAN, VIRTIO_NET_CTRL_VLAN_DEL, 1, 0, 0),
		E("add without CTRL_VLAN", FEATURE(VIRTIO_NET_F_CTRL_VLAN), 4,
		  VLAN, VIRTIO_NET_CTRL_VLAN_ADD, LE16(7)),
		E("del without CTRL_VLAN", FEATURE(VIRTIO_NET_F_CTRL_VLAN), 4,
		  VLAN, VIRTIO_NET_CTRL_VLAN_DEL, LE16(100)),
		E("command 2", 0, 4, VLAN, 2, LE16(7)),
		E("command 0xff", 0, 4, VLAN, 0xff, LE16(100)),
	};

	RUN_ERR_CASES(state, cases);
}

/* MQ class. */

static void pairs_cmd(struct cmd *c, u16 pairs)
{
	cmd_start(c, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET);
	put_le(c, pairs, 2);
}

static void mq_pairs_set_1_to_max(void **state)
{
	static const u16 pairs[] = { 1, FCVQ_MAX_PAIRS, 3, 3, 2 };
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	unsigned int i;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct vsb_net_ctrl before = want;

		pairs_cmd(&c, pairs[i]);
		send(f, &c);
		want.pairs = pairs[i];
		expect_ok_if_new(f, VSB_CTRL_CHANGED_PAIRS, &before, &want);
	}
}

/* The spec's limit, 0x8000, holds whatever max_pairs says. */
static void mq_pairs_set_limits_with_other_max_pairs(void **state)
{
	static const struct {
		u16 max;
		u16 pairs;
		bool ok;
	} rows[] = {
		{ 1, 1, true },
		{ 1, 2, false },
		{ 0x8000, 0x8000, true },
		{ 0x8000, 0x8001, false },
		{ 0xffff, 0x8000, true },
		{ 0xffff, 0x8001, false },
		{ 0xffff, 0xffff, false },
		{ 0xffff, 0, false },
	};
	struct vsb_net_ctrl want, before;
	struct fcvq *f = start(state, &want);
	unsigned int i;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		f->ctrl.max_pairs = rows[i].max;
		want.max_pairs = rows[i].max;
		pairs_cmd(&c, rows[i].pairs);
		send(f, &c);
		if (!rows[i].ok) {
			expect_err(f, &want);
			continue;
		}
		before = want;
		want.pairs = rows[i].pairs;
		expect_ok_if_new(f, VSB_CTRL_CHANGED_PAIRS, &before, &want);
	}
}

static void mq_class_err(void **state)
{
	static const struct err_case cases[] = {
		E("pairs 0", 0, 4, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET,
		  LE16(0)),
		E("pairs max + 1", 0, 4, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET,
		  LE16(FCVQ_MAX_PAIRS + 1)),
		E("pairs 0x0100 (1 big-endian)", 0, 4, MQ,
		  VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET, 0, 1),
		E("pairs 0x8000", 0, 4, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET,
		  LE16(0x8000)),
		E("pairs 0xffff", 0, 4, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET,
		  LE16(0xffff)),
		E("pairs no data", 0, 2, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET),
		E("pairs 1 byte", 0, 3, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET, 1),
		E("pairs 3 bytes", 0, 5, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET, 1,
		  0, 0),
		E("pairs 22 bytes", 0, 24, MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET,
		  1),
		E("pairs without MQ", FEATURE(VIRTIO_NET_F_MQ), 4, MQ,
		  VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET, LE16(1)),
		/* hash_types, mask 0, unclassified, table[1], max_tx_vq, key */
		E("RSS_CONFIG", 0, 2 + 4 + 2 + 2 + 2 + 2 + 1, MQ,
		  VIRTIO_NET_CTRL_MQ_RSS_CONFIG, LE32(1), LE16(0), LE16(0),
		  LE16(0), LE16(1), 0),
		/* hash_types, reserved[4], key_len 0 */
		E("HASH_CONFIG", 0, 2 + 4 + 8 + 1, MQ,
		  VIRTIO_NET_CTRL_MQ_HASH_CONFIG, LE32(1)),
		/* shaped like VQ_PAIRS_SET: only the command differs */
		E("RSS_CONFIG, 2 bytes", 0, 4, MQ,
		  VIRTIO_NET_CTRL_MQ_RSS_CONFIG, LE16(1)),
		E("HASH_CONFIG, 2 bytes", 0, 4, MQ,
		  VIRTIO_NET_CTRL_MQ_HASH_CONFIG, LE16(1)),
		E("command 3", 0, 4, MQ, 3, LE16(1)),
		E("command 0xff", 0, 4, MQ, 0xff, LE16(1)),
	};

	RUN_ERR_CASES(state, cases);
}

/* GUEST_OFFLOADS class. */

static void offloads_cmd(struct cmd *c, u64 offloads)
{
	cmd_start(c, OFFLOADS, VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET);
	put_le(c, offloads, 8);
}

static void offloads_set_negotiated_subsets(void **state)
{
	static const u64 sets[] = {
		0,
		FEATURE(VIRTIO_NET_F_GUEST_CSUM),
		FCVQ_GUEST_OFFLOADS,
		FEATURE(VIRTIO_NET_F_GUEST_TSO4) |
			FEATURE(VIRTIO_NET_F_GUEST_UFO),
		FEATURE(VIRTIO_NET_F_GUEST_ECN),
	};
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	unsigned int i;
	struct cmd c;

	for (i = 0; i < ARRAY_SIZE(sets); i++) {
		offloads_cmd(&c, sets[i]);
		send(f, &c);
		want.offloads = sets[i];
		expect_ok(f, VSB_CTRL_CHANGED_OFFLOADS, &want);
	}
}

/* With GUEST_CSUM the only offload negotiated, as the device offers. */
static void offloads_set_only_negotiated_bits(void **state)
{
	static const struct {
		u64 offloads;
		bool ok;
	} rows[] = {
		{ FEATURE(VIRTIO_NET_F_GUEST_CSUM), true },
		{ 0, true },
		{ FEATURE(VIRTIO_NET_F_GUEST_TSO4), false },
		{ FEATURE(VIRTIO_NET_F_GUEST_CSUM) |
			  FEATURE(VIRTIO_NET_F_GUEST_TSO6),
		  false },
		{ FEATURE(VIRTIO_NET_F_GUEST_UFO), false },
		{ FCVQ_GUEST_OFFLOADS, false },
	};
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	unsigned int i;
	struct cmd c;

	f->features &=
		~(FCVQ_GUEST_OFFLOADS & ~FEATURE(VIRTIO_NET_F_GUEST_CSUM));
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		offloads_cmd(&c, rows[i].offloads);
		send(f, &c);
		if (!rows[i].ok) {
			expect_err(f, &want);
			continue;
		}
		want.offloads = rows[i].offloads;
		expect_ok(f, VSB_CTRL_CHANGED_OFFLOADS, &want);
	}
}

static void offloads_class_err(void **state)
{
	static const struct err_case cases[] = {
		E("CTRL_VQ bit (negotiated, not an offload)", 0, 10, OFFLOADS,
		  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
		  LE64(FEATURE(VIRTIO_NET_F_CTRL_VQ))),
		E("CSUM bit (host side)", 0, 10, OFFLOADS,
		  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
		  LE64(FEATURE(VIRTIO_NET_F_CSUM))),
		E("bit 32", 0, 10, OFFLOADS, VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
		  LE64(1ULL << 32)),
		E("bit 63", 0, 10, OFFLOADS, VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
		  LE64(1ULL << 63)),
		E("all ones", 0, 10, OFFLOADS,
		  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET, LE64(~0ULL)),
		E("GUEST_CSUM big-endian", 0, 10, OFFLOADS,
		  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET, 0, 0, 0, 0, 0, 0, 0,
		  FEATURE(VIRTIO_NET_F_GUEST_CSUM)),
		E("UFO not negotiated", FEATURE(VIRTIO_NET_F_GUEST_UFO), 10,
		  OFFLOADS, VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
		  LE64(FEATURE(VIRTIO_NET_F_GUEST_UFO))),
		E("no data", 0, 2, OFFLOADS,
		  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET),
		E("7 bytes", 0, 9, OFFLOADS, VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
		  FEATURE(VIRTIO_NET_F_GUEST_CSUM)),
		E("9 bytes", 0, 11, OFFLOADS,
		  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
		  FEATURE(VIRTIO_NET_F_GUEST_CSUM)),
		E("22 bytes", 0, 24, OFFLOADS,
		  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET,
		  FEATURE(VIRTIO_NET_F_GUEST_CSUM)),
		E("without CTRL_GUEST_OFFLOADS",
		  FEATURE(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS), 10, OFFLOADS,
		  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET, LE64(0ULL)),
		E("command 1", 0, 10, OFFLOADS, 1, LE64(0ULL)),
		E("command 0xff", 0, 10, OFFLOADS, 0xff, LE64(0ULL)),
	};

	RUN_ERR_CASES(state, cases);
}

/* ANNOUNCE class (more in test_cvq.c), byte for byte. */

static void announce_ack_clears_only_pending(void **state)
{
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	struct cmd c;

	cmd_start(&c, ANNOUNCE, VIRTIO_NET_CTRL_ANNOUNCE_ACK);
	send(f, &c);
	want.announce_pending = false;
	expect_ok(f, VSB_CTRL_CHANGED_STATUS, &want);
	send(f, &c);
	expect_ok(f, 0, &want);
}

static void announce_class_err(void **state)
{
	static const struct err_case cases[] = {
		E("ack with 1 byte", 0, 3, ANNOUNCE,
		  VIRTIO_NET_CTRL_ANNOUNCE_ACK, 0),
		E("ack with 22 bytes", 0, 24, ANNOUNCE,
		  VIRTIO_NET_CTRL_ANNOUNCE_ACK),
		E("ack without GUEST_ANNOUNCE",
		  FEATURE(VIRTIO_NET_F_GUEST_ANNOUNCE), 2, ANNOUNCE,
		  VIRTIO_NET_CTRL_ANNOUNCE_ACK),
		E("command 1", 0, 2, ANNOUNCE, 1),
		E("command 0xff", 0, 2, ANNOUNCE, 0xff),
	};

	RUN_ERR_CASES(state, cases);
}

/*
 * Every class: a valid command whose ack cannot be written faults and
 * changes nothing (it is checked, acked, and only then applied).
 */
static void every_class_ack_read_only_faults_state_unchanged(void **state)
{
	struct vsb_net_ctrl before;
	struct fcvq *f = start(state, &before);
	struct cmd cmds[9];
	unsigned int i;

	rx_cmd(&cmds[0], VIRTIO_NET_CTRL_RX_PROMISC, 0);
	rx_cmd(&cmds[1], VIRTIO_NET_CTRL_RX_NOBCAST, 1);
	mac_table_cmd(&cmds[2], 2, 2, 3, 3);
	cmd_start(&cmds[3], MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	put_bytes(&cmds[3], mac_new, ETH_ALEN);
	vlan_cmd(&cmds[4], VIRTIO_NET_CTRL_VLAN_ADD, 7);
	vlan_cmd(&cmds[5], VIRTIO_NET_CTRL_VLAN_DEL, 100);
	pairs_cmd(&cmds[6], 3);
	offloads_cmd(&cmds[7], 0);
	cmd_start(&cmds[8], ANNOUNCE, VIRTIO_NET_CTRL_ANNOUNCE_ACK);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		/* the same command with a writable ack is OK */
		fcvq_send(f, cmds[i].b, cmds[i].len);
		assert_int_equal(f->res.ack, VIRTIO_NET_OK);
		memcpy(&f->ctrl, &before, sizeof(before));

		fcvq_send_split(f, cmds[i].b, cmds[i].len, &cmds[i].len, 1,
				SPLIT(1), FMEM_RO);
		expect_fault_unchanged(f, VSB_FAULT_BUFFER_ACCESS, &before);
	}
}

/* vsb_net_ctrl_reset(). */

/* What reset must leave, padding included: it starts from zero. */
static void reset_want(struct vsb_net_ctrl *want, const u8 *mac, u16 max,
		       u64 features)
{
	memset(want, 0, sizeof(*want));
	memcpy(want->mac, mac, ETH_ALEN);
	want->rx.promisc = true;
	want->pairs = 1;
	want->max_pairs = max;
	want->offloads = features & FCVQ_GUEST_OFFLOADS;
}

/*
 * The reset state: the MAC given, promiscuous (QEMU's choice, which the
 * spec leaves open) and no other mode, empty MAC and VLAN tables, one
 * pair, every negotiated guest offload on, nothing pending.
 */
static void reset_state_exact(void **state)
{
	static const struct {
		u64 features;
		u16 max;
	} rows[] = {
		{ 0, 1 },
		{ FCVQ_ALL_FEATURES, FCVQ_MAX_PAIRS },
		{ FEATURE(VIRTIO_NET_F_GUEST_CSUM) |
			  FEATURE(VIRTIO_NET_F_CTRL_VQ) |
			  FEATURE(VIRTIO_NET_F_MQ),
		  8 },
		{ FEATURE(VIRTIO_NET_F_HOST_TSO4) | FEATURE(VIRTIO_NET_F_CSUM) |
			  FEATURE(VIRTIO_NET_F_GUEST_TSO6) |
			  FEATURE(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS),
		  0x8000 },
		{ FCVQ_GUEST_OFFLOADS, 0xffff },
	};
	static const u8 mac[ETH_ALEN] = { 0x02, 0x77, 0x66, 0x55, 0x44, 0x33 };
	struct vsb_net_ctrl s, want;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		busy_state(&s);
		vsb_net_ctrl_reset(&s, mac, rows[i].max, rows[i].features);
		reset_want(&want, mac, rows[i].max, rows[i].features);
		if (!state_is(&s, &want, "reset"))
			fail_msg("row %u", i);
		/* again: the same */
		vsb_net_ctrl_reset(&s, mac, rows[i].max, rows[i].features);
		if (!state_is(&s, &want, "reset twice"))
			fail_msg("row %u", i);
	}
}

/* After reset the state takes commands from scratch again. */
static void reset_then_commands_from_reset_state(void **state)
{
	static const u8 mac[ETH_ALEN] = { FCVQ_MAC };
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	struct cmd c;

	vsb_net_ctrl_reset(&f->ctrl, mac, FCVQ_MAX_PAIRS, f->features);
	reset_want(&want, mac, FCVQ_MAX_PAIRS, f->features);
	assert_true(state_is(&f->ctrl, &want, "reset"));

	vlan_cmd(&c, VIRTIO_NET_CTRL_VLAN_ADD, 100);
	send(f, &c);
	vlan_set(&want, 100, true);
	expect_ok(f, VSB_CTRL_CHANGED_VLANS, &want);

	mac_table_cmd(&c, 1, 1, 65, 65);
	send(f, &c);
	tables_of(&want, 1, 65);
	expect_ok_tables(f, &want);

	/* MQ with one pair: 2 is beyond max_pairs 1 */
	vsb_net_ctrl_reset(&f->ctrl, mac, 1, f->features);
	reset_want(&want, mac, 1, f->features);
	pairs_cmd(&c, 2);
	send(f, &c);
	expect_err(f, &want);
}

/*
 * Redundant state: a command that sets what the device already has is
 * acked OK, changes and re-programs nothing, and says so. Each command
 * is sent twice: the first time it changes something, the second not.
 */
static void same_state_twice_second_redundant(void **state)
{
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	struct cmd cmds[5];
	unsigned int i;

	cmd_start(&cmds[0], MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	put_bytes(&cmds[0], mac_new, ETH_ALEN);
	mac_table_cmd(&cmds[1], 2, 2, 3, 3);
	rx_cmd(&cmds[2], VIRTIO_NET_CTRL_RX_PROMISC, !f->ctrl.rx.promisc);
	offloads_cmd(&cmds[3], 0);
	pairs_cmd(&cmds[4], f->ctrl.pairs == 1 ? 2 : 1);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		send(f, &cmds[i]);
		assert_int_equal(f->res.ack, VIRTIO_NET_OK);
		assert_int_not_equal(f->res.changed, 0);
		assert_false(f->res.redundant);
		memcpy(&want, &f->ctrl, sizeof(want));
		send(f, &cmds[i]);
		expect_ok(f, 0, &want);
	}
}

/* An announcement ack sets no state: never redundant, even with none. */
static void announce_ack_never_redundant(void **state)
{
	struct vsb_net_ctrl want;
	struct fcvq *f = start(state, &want);
	struct cmd c;

	f->ctrl.announce_pending = false;
	want.announce_pending = false;
	cmd_start(&c, ANNOUNCE, VIRTIO_NET_CTRL_ANNOUNCE_ACK);
	send(f, &c);
	expect_ok(f, 0, &want);
	assert_false(f->res.redundant);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, fcvq_setup, fcvq_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(rx_every_mode_set_and_cleared),
		T(rx_bad_value_size_or_command_err),
		T(rx_without_ctrl_rx_err),
		T(rx_extra_modes_without_ctrl_rx_extra_err),
		T(mac_table_set_ok),
		T(mac_table_set_64_fit_65_overflow),
		T(mac_table_set_counts_overflowing_32_bits_err),
		T(mac_table_set_length_not_matching_counts_err),
		T(mac_table_set_without_ctrl_rx_err),
		T(mac_table_set_split_at_odd_offsets),
		T(mac_table_set_ack_read_only_faults_state_unchanged),
		T(mac_table_set_header_unreadable_faults),
		T(mac_table_set_entries_unreadable_faults),
		T(mac_addr_set_changes_only_mac),
		T(mac_class_err),
		T(vlan_add_del_each_id),
		T(vlan_class_err),
		T(mq_pairs_set_1_to_max),
		T(mq_pairs_set_limits_with_other_max_pairs),
		T(mq_class_err),
		T(offloads_set_negotiated_subsets),
		T(offloads_set_only_negotiated_bits),
		T(offloads_class_err),
		T(announce_ack_clears_only_pending),
		T(announce_class_err),
		T(every_class_ack_read_only_faults_state_unchanged),
		T(reset_state_exact),
		T(same_state_twice_second_redundant),
		T(announce_ack_never_redundant),
		T(reset_then_commands_from_reset_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
