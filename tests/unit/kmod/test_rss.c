// SPDX-License-Identifier: GPL-2.0-only
/*
 * RSS and hash reports (kmod/engine/vsb_rss.c, the MQ class of kmod/engine/vsb_cvq.c,
 * kmod/engine/vsb_loopback.c): the Toeplitz hash against the verification table
 * of Microsoft's RSS specification ("Verifying the RSS Hash Calculation",
 * its 40-byte key), RSS_CONFIG and HASH_CONFIG checked to the byte and
 * refused with the state unchanged, and frames through the loopback
 * landing on the receive queue the indirection table names for the hash
 * the table gives, with that hash in their header.
 */

#include "unit.h"

#include <arpa/inet.h>

#include "fake_cvq.h"
#include "vsb_filter.h"
#include "vsb_loopback.h"

#define LE16(v) ((v)&0xff), (((v) >> 8) & 0xff)
#define LE32(v) LE16((v)&0xffff), LE16(((v) >> 16) & 0xffff)

#define T4 VIRTIO_NET_RSS_HASH_TYPE_IPv4
#define TCP4 VIRTIO_NET_RSS_HASH_TYPE_TCPv4
#define UDP4 VIRTIO_NET_RSS_HASH_TYPE_UDPv4
#define T6 VIRTIO_NET_RSS_HASH_TYPE_IPv6
#define TCP6 VIRTIO_NET_RSS_HASH_TYPE_TCPv6
#define UDP6 VIRTIO_NET_RSS_HASH_TYPE_UDPv6
#define ALL_TYPES (T4 | TCP4 | UDP4 | T6 | TCP6 | UDP6)

#define F(bit) FEATURE(VIRTIO_NET_F_##bit)
#define RSS_FEATURES (FCVQ_ALL_FEATURES | F(RSS) | F(HASH_REPORT))

static const u8 ms_key[VSB_RSS_KEY_SIZE] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* One row of the table: source, destination, and the two hashes. */
struct vector {
	bool v6;
	const char *src, *dst;
	u16 sport, dport;
	u32 ip_hash, l4_hash;
};

static const struct vector vectors[] = {
	{ false, "66.9.149.187", "161.142.100.80", 2794, 1766, 0x323e8fc2,
	  0x51ccc178 },
	{ false, "199.92.111.2", "65.69.140.83", 14230, 4739, 0xd718262a,
	  0xc626b0ea },
	{ false, "24.19.198.95", "12.22.207.184", 12898, 38024, 0xd2d0a5de,
	  0x5c2b394a },
	{ false, "38.27.205.30", "209.142.163.6", 48228, 2217, 0x82989176,
	  0xafc7327f },
	{ false, "153.39.163.191", "202.188.127.2", 44251, 1303, 0x5d1809c5,
	  0x10e828a2 },
	{ true, "3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", 2794, 1766,
	  0x2cc18cd5, 0x40207d3d },
	{ true, "3ffe:501:8::260:97ff:fe40:efab", "ff02::1", 14230, 4739,
	  0x0f0c461c, 0xdde51bbf },
	{ true, "3ffe:1900:4545:3:200:f8ff:fe21:67cf",
	  "fe80::200:f8ff:fe21:67cf", 44251, 38024, 0x4b61e985, 0x02d1feef },
};

static const u8 dev_mac[ETH_ALEN] = { FCVQ_MAC };

/* The vector's addresses (and ports) as Toeplitz takes them. */
static u32 vector_input(const struct vector *v, bool ports, u8 *in)
{
	u32 alen = v->v6 ? 16 : 4;

	assert_int_equal(inet_pton(v->v6 ? AF_INET6 : AF_INET, v->src, in), 1);
	assert_int_equal(
		inet_pton(v->v6 ? AF_INET6 : AF_INET, v->dst, in + alen), 1);
	if (!ports)
		return 2 * alen;
	in[2 * alen] = v->sport >> 8;
	in[2 * alen + 1] = v->sport & 0xff;
	in[2 * alen + 2] = v->dport >> 8;
	in[2 * alen + 3] = v->dport & 0xff;
	return 2 * alen + 4;
}

static void toeplitz_microsoft_vectors(void **state)
{
	unsigned int i;
	u8 in[36];
	u32 len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		len = vector_input(&vectors[i], false, in);
		assert_int_equal(vsb_toeplitz(ms_key, in, len),
				 vectors[i].ip_hash);
		len = vector_input(&vectors[i], true, in);
		assert_int_equal(vsb_toeplitz(ms_key, in, len),
				 vectors[i].l4_hash);
	}
}

/*
 * An Ethernet frame to dev_mac carrying vector v: IPv4 or IPv6, protocol
 * proto (6 TCP, 17 UDP, other: no ports), with tag an 802.1Q tag first,
 * with frag an IPv4 fragment (more fragments). Returns its length.
 */
static u32 build_frame(u8 *p, const struct vector *v, u8 proto, bool tag,
		       bool frag)
{
	u32 off = 12, l3, alen = v->v6 ? 16 : 4;
	u8 in[36];

	memset(p, 0, 128);
	memcpy(p, dev_mac, ETH_ALEN);
	p[6] = 0x02;
	p[11] = 0x09;
	if (tag) {
		p[off++] = 0x81;
		p[off++] = 0x00;
		p[off++] = 0x00;
		p[off++] = 0x07;
	}
	p[off++] = v->v6 ? 0x86 : 0x08;
	p[off++] = v->v6 ? 0xdd : 0x00;
	l3 = off;
	vector_input(v, true, in);
	if (v->v6) {
		p[l3] = 0x60;
		p[l3 + 6] = proto;
		p[l3 + 7] = 64;
		memcpy(p + l3 + 8, in, 32);
		off = l3 + 40;
	} else {
		p[l3] = 0x45;
		p[l3 + 6] = frag ? 0x20 : 0x40; /* MF, or DF */
		p[l3 + 8] = 64;
		p[l3 + 9] = proto;
		memcpy(p + l3 + 12, in, 8);
		off = l3 + 20;
	}
	memcpy(p + off, in + 2 * alen, 4);
	return off + 20;
}

static void hash_frame(const struct vsb_rss *rss, const u8 *p, u32 len,
		       u32 value, u16 report)
{
	struct vsb_rss_hash h;

	vsb_rss_hash_frame(rss, p, len, &h);
	assert_int_equal(h.report, report);
	assert_int_equal(h.value, value);
}

/*
 * Which fields are hashed: ports when the TCP or UDP type of that version
 * is on and the frame has that header, the addresses alone when only the
 * IP type applies (a fragment, another protocol, the L4 type off), and
 * nothing at all when no type applies.
 */
static void hash_types_pick_fields(void **state)
{
	struct vsb_rss rss = { 0 };
	u8 p[128];
	unsigned int i;
	u32 len;

	(void)state;
	memcpy(rss.key, ms_key, sizeof(ms_key));
	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct vector *v = &vectors[i];
		u16 r_ip = v->v6 ? VIRTIO_NET_HASH_REPORT_IPv6 :
				   VIRTIO_NET_HASH_REPORT_IPv4;
		u16 r_tcp = v->v6 ? VIRTIO_NET_HASH_REPORT_TCPv6 :
				    VIRTIO_NET_HASH_REPORT_TCPv4;
		u16 r_udp = v->v6 ? VIRTIO_NET_HASH_REPORT_UDPv6 :
				    VIRTIO_NET_HASH_REPORT_UDPv4;

		rss.hash_types = ALL_TYPES;
		len = build_frame(p, v, 6, false, false);
		hash_frame(&rss, p, len, v->l4_hash, r_tcp);
		len = build_frame(p, v, 17, true, false);
		hash_frame(&rss, p, len, v->l4_hash, r_udp);
		len = build_frame(p, v, 1, false, false);
		hash_frame(&rss, p, len, v->ip_hash, r_ip);
		/* cut inside the TCP header: no ports */
		len = build_frame(p, v, 6, false, false);
		hash_frame(&rss, p, len - 1, v->ip_hash, r_ip);
		if (!v->v6) {
			len = build_frame(p, v, 6, false, true);
			hash_frame(&rss, p, len, v->ip_hash, r_ip);
		}

		rss.hash_types = v->v6 ? T6 | UDP6 : T4 | UDP4;
		len = build_frame(p, v, 6, false, false);
		hash_frame(&rss, p, len, v->ip_hash, r_ip);
		rss.hash_types = v->v6 ? TCP6 : TCP4;
		len = build_frame(p, v, 17, false, false);
		hash_frame(&rss, p, len, 0, VIRTIO_NET_HASH_REPORT_NONE);
		/* the other version's types only */
		rss.hash_types = v->v6 ? T4 | TCP4 | UDP4 : T6 | TCP6 | UDP6;
		len = build_frame(p, v, 6, false, false);
		hash_frame(&rss, p, len, 0, VIRTIO_NET_HASH_REPORT_NONE);
	}
}

/* An IPv6 hop-by-hop options header before TCP: the ports still count. */
static void hash_ipv6_extension_header(void **state)
{
	const struct vector *v = &vectors[5];
	struct vsb_rss rss = { .hash_types = ALL_TYPES };
	u8 p[160], q[160];
	u32 len;

	(void)state;
	memcpy(rss.key, ms_key, sizeof(ms_key));
	len = build_frame(q, v, 6, false, false);
	/* Ethernet 14, IPv6 40, then 8 bytes of options, then TCP */
	memcpy(p, q, 14 + 40);
	p[14 + 6] = 0; /* hop-by-hop */
	memset(p + 54, 0, 8);
	p[54] = 6;
	memcpy(p + 62, q + 54, len - 54);
	hash_frame(&rss, p, len + 8, v->l4_hash, VIRTIO_NET_HASH_REPORT_TCPv6);
	/* a fragment header instead: the addresses only */
	p[14 + 6] = 44;
	hash_frame(&rss, p, len + 8, v->ip_hash, VIRTIO_NET_HASH_REPORT_IPv6);
}

/* Building commands. */
struct cmd {
	u8 b[2 + 8 + 2 * 256 + 3 + 41 + 8]; /* the longest built here */
	u32 len;
};

static void put(struct cmd *c, u64 v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		c->b[c->len++] = (v >> (8 * i)) & 0xff;
}

/* RSS_CONFIG with table_len entries from table[] (repeated). */
static void rss_cmd(struct cmd *c, u32 types, u32 table_len, const u16 *table,
		    unsigned int n, u16 unclassified, u16 max_tx_vq,
		    u32 key_len)
{
	u32 i;

	c->len = 0;
	put(c, VIRTIO_NET_CTRL_MQ, 1);
	put(c, VIRTIO_NET_CTRL_MQ_RSS_CONFIG, 1);
	put(c, types, 4);
	put(c, table_len - 1, 2);
	put(c, unclassified, 2);
	for (i = 0; i < table_len; i++)
		put(c, table[i % n], 2);
	put(c, max_tx_vq, 2);
	put(c, key_len, 1);
	for (i = 0; i < key_len; i++)
		put(c, i < sizeof(ms_key) ? ms_key[i] : 0x77, 1);
}

static void hash_cmd(struct cmd *c, u32 types, u32 key_len)
{
	u32 i;

	c->len = 0;
	put(c, VIRTIO_NET_CTRL_MQ, 1);
	put(c, VIRTIO_NET_CTRL_MQ_HASH_CONFIG, 1);
	put(c, types, 4);
	put(c, 0, 8);
	put(c, key_len, 1);
	for (i = 0; i < key_len; i++)
		put(c, i < sizeof(ms_key) ? ms_key[i] : 0x77, 1);
}

static void pairs_cmd(struct cmd *c, u16 pairs)
{
	c->len = 0;
	put(c, VIRTIO_NET_CTRL_MQ, 1);
	put(c, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET, 1);
	put(c, pairs, 2);
}

static const u16 table8[] = { 3, 1, 0, 2, 1, 3, 2, 0 };

static struct fcvq *start(void **state)
{
	struct fcvq *f = *state;

	f->features = RSS_FEATURES;
	return f;
}

static void rss_config_sets_state_and_pairs(void **state)
{
	struct fcvq *f = start(state);
	struct vsb_rss want = { 0 };
	struct cmd c;

	rss_cmd(&c, ALL_TYPES, 8, table8, 8, 2, 4, 40);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->res.changed,
			 VSB_CTRL_CHANGED_RSS | VSB_CTRL_CHANGED_PAIRS);
	want.steering = true;
	want.hash_types = ALL_TYPES;
	memcpy(want.key, ms_key, sizeof(ms_key));
	want.table_len = 8;
	want.unclassified = 2;
	memcpy(want.table, table8, sizeof(table8));
	assert_memory_equal(&f->ctrl.rss, &want, sizeof(want));
	assert_int_equal(f->ctrl.pairs, 4);

	/*
	 * One byte past the key, as Linux's virtio_net sends it (the
	 * trailer's padding): the same state, so redundant.
	 */
	put(&c, 0x5a, 1);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_true(f->res.redundant);
	c.len--;

	/* the same again: redundant */
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->res.changed, 0);
	assert_true(f->res.redundant);

	/* the largest table, a short key (zero past it), one pair */
	rss_cmd(&c, T4, VSB_RSS_TABLE_MAX, table8 + 2, 1, 0, 1, 7);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->ctrl.pairs, 1);
	assert_int_equal(f->ctrl.rss.table_len, VSB_RSS_TABLE_MAX);
	assert_memory_equal(f->ctrl.rss.key, ms_key, 7);
	assert_int_equal(f->ctrl.rss.key[7], 0);

	/* VQ_PAIRS_SET: automatic steering again, the hash types stay */
	pairs_cmd(&c, 2);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->res.changed,
			 VSB_CTRL_CHANGED_RSS | VSB_CTRL_CHANGED_PAIRS);
	assert_false(f->ctrl.rss.steering);
	assert_int_equal(f->ctrl.rss.hash_types, T4);
	assert_int_equal(f->ctrl.pairs, 2);
}

/*
 * RSS without MQ: the device has max_virtqueue_pairs pairs all the same
 * ("Device configuration layout"), so RSS_CONFIG may spread over them;
 * VQ_PAIRS_SET stays MQ's.
 */
static void rss_without_mq_has_every_pair(void **state)
{
	struct fcvq *f = start(state);
	struct cmd c;

	f->features = RSS_FEATURES & ~F(MQ);
	rss_cmd(&c, T4, 8, table8, 8, 1, 4, 40);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->ctrl.pairs, 4);
	assert_true(f->ctrl.rss.steering);
	pairs_cmd(&c, 2);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_int_equal(f->ctrl.pairs, 4);
}

static void hash_config_sets_types_and_key(void **state)
{
	struct fcvq *f = start(state);
	struct cmd c;

	/* it also ends RSS steering */
	rss_cmd(&c, ALL_TYPES, 2, table8, 8, 0, 4, 40);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	hash_cmd(&c, TCP4 | UDP6, 40);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->res.changed, VSB_CTRL_CHANGED_RSS);
	assert_false(f->ctrl.rss.steering);
	assert_int_equal(f->ctrl.rss.hash_types, TCP4 | UDP6);
	assert_memory_equal(f->ctrl.rss.key, ms_key, sizeof(ms_key));
	/* pairs are RSS_CONFIG's business only */
	assert_int_equal(f->ctrl.pairs, 4);

	/* one byte past the key, as Linux sends it: taken */
	hash_cmd(&c, T6, 40);
	put(&c, 0, 1);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->ctrl.rss.hash_types, T6);

	/* HASH_CONFIG without RSS negotiated (HASH_REPORT alone) */
	f->features = FCVQ_ALL_FEATURES | F(HASH_REPORT);
	hash_cmd(&c, 0, 0);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->ctrl.rss.hash_types, 0);
}

/* Each bad command is refused and leaves the state as it was. */
static void bad_configs_refused_state_unchanged(void **state)
{
	static const u16 bad_entry[] = { 0, 4 };
	static const u16 max_entry[] = { 0, 3 };
	struct fcvq *f = start(state);
	struct vsb_net_ctrl before;
	struct cmd c, good;
	unsigned int i;
	struct {
		const char *what;
		u64 features;
		struct cmd c;
	} rows[24];
	unsigned int n = 0;

	rss_cmd(&good, T4, 4, table8 + 1, 2, 1, 2, 40);
	fcvq_send(f, good.b, good.len);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	before = f->ctrl;

#define ROW(w, feat) \
	(rows[n].what = (w), rows[n].features = (feat), &rows[n++].c)
	rss_cmd(ROW("RSS_CONFIG without RSS", RSS_FEATURES & ~F(RSS)), T4, 4,
		table8 + 1, 2, 1, 2, 40);
	hash_cmd(ROW("HASH_CONFIG without HASH_REPORT",
		     RSS_FEATURES & ~F(HASH_REPORT)),
		 T4, 40);
	rss_cmd(ROW("table of 3", RSS_FEATURES), T4, 3, table8, 8, 0, 4, 40);
	rss_cmd(ROW("table of 6", RSS_FEATURES), T4, 6, table8, 8, 0, 4, 40);
	rss_cmd(ROW("table of 256", RSS_FEATURES), T4, 256, table8, 8, 0, 4,
		40);
	rss_cmd(ROW("entry 4 of 4 pairs", RSS_FEATURES), T4, 2, bad_entry, 2, 0,
		4, 40);
	rss_cmd(ROW("entry 3 with max_tx_vq 3 of 4", RSS_FEATURES), T4, 2,
		max_entry, 2, 0, 3, 40);
	rss_cmd(ROW("unclassified 4", RSS_FEATURES), T4, 2, table8 + 2, 1, 4, 4,
		40);
	rss_cmd(ROW("unclassified = max_tx_vq", RSS_FEATURES), T4, 2,
		table8 + 2, 1, 2, 2, 40);
	rss_cmd(ROW("max_tx_vq 0", RSS_FEATURES), T4, 2, table8 + 2, 1, 0, 0,
		40);
	rss_cmd(ROW("max_tx_vq 5 of 4", RSS_FEATURES), T4, 2, table8 + 2, 1, 0,
		5, 40);
	rss_cmd(ROW("max_tx_vq 5 of 4, RSS without MQ", RSS_FEATURES & ~F(MQ)),
		T4, 2, table8 + 2, 1, 0, 5, 40);
	rss_cmd(ROW("key of 41", RSS_FEATURES), T4, 2, table8 + 2, 1, 0, 4, 41);
	rss_cmd(ROW("IP_EX", RSS_FEATURES), VIRTIO_NET_RSS_HASH_TYPE_IP_EX, 2,
		table8 + 2, 1, 0, 4, 40);
	hash_cmd(ROW("HASH_CONFIG UDP_EX", RSS_FEATURES),
		 VIRTIO_NET_RSS_HASH_TYPE_UDP_EX, 40);
	hash_cmd(ROW("HASH_CONFIG key of 41", RSS_FEATURES), T4, 41);
	/* the length byte says one more than there is, or one less */
	rss_cmd(ROW("RSS_CONFIG short", RSS_FEATURES), T4, 2, table8 + 2, 1, 0,
		4, 40);
	rows[n - 1].c.len--;
	rss_cmd(ROW("RSS_CONFIG 2 bytes long", RSS_FEATURES), T4, 2, table8 + 2,
		1, 0, 4, 40);
	put(&rows[n - 1].c, 0, 2);
	hash_cmd(ROW("HASH_CONFIG 2 bytes long", RSS_FEATURES), T4, 40);
	put(&rows[n - 1].c, 0, 2);
	hash_cmd(ROW("HASH_CONFIG short", RSS_FEATURES), T4, 40);
	rows[n - 1].c.len--;
	/* ends before hash_key_length */
	rss_cmd(ROW("RSS_CONFIG cut after the table", RSS_FEATURES), T4, 2,
		table8 + 2, 1, 0, 4, 0);
	rows[n - 1].c.len -= 3;
#undef ROW
	assert_true(n <= ARRAY_SIZE(rows));

	for (i = 0; i < n; i++) {
		f->features = rows[i].features;
		fcvq_send(f, rows[i].c.b, rows[i].c.len);
		if (!fcvq_answered(f, VIRTIO_NET_ERR, rows[i].what) ||
		    memcmp(&f->ctrl, &before, sizeof(before)))
			fail_msg("%s: not refused, or the state changed",
				 rows[i].what);
	}
	/* longer than any valid one: refused unread */
	f->features = RSS_FEATURES;
	rss_cmd(&c, T4, 128, table8, 8, 0, 4, 40);
	put(&c, 0, 2);
	fcvq_send(f, c.b, c.len);
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_memory_equal(&f->ctrl, &before, sizeof(before));
}

/* The loopback over four pairs, two transmit queues used. */
#define NUM 16
#define PAIRS 4
#define BUF 1600
#define RX_FILL 0xee
#define RX_BUFS 10 /* receive buffers per queue */

struct lbf {
	struct fmem *m;
	struct fcvq cvq;
	struct tq tx[2];
	struct tq rx[PAIRS];
	struct vsb_loopback_rxq rxq[PAIRS];
	struct vsb_loopback_stats stats[PAIRS];
	struct vsb_rx_filter filter;
	struct vsb_rss rss;
	u8 bounce[BUF];
	struct vsb_loopback lb;
	u64 rx_addr[PAIRS][NUM];
	u16 rx_head[PAIRS][NUM];
	unsigned int rx_next[PAIRS];
};

static int lbf_setup(void **state)
{
	struct lbf *f = calloc(1, sizeof(*f));
	unsigned int i, j;

	if (!f)
		return -1;
	f->m = fmem_new();
	fcvq_init(&f->cvq, f->m, RSS_FEATURES, dev_mac, PAIRS);
	for (i = 0; i < 2; i++)
		tq_init(&f->tx[i], f->m, NUM, 0, false, false);
	for (i = 0; i < PAIRS; i++) {
		tq_init(&f->rx[i], f->m, NUM, 0, false, false);
		f->rxq[i] = (struct vsb_loopback_rxq){ &f->rx[i].ring,
						       &f->rx[i].chain,
						       &f->stats[i] };
		for (j = 0; j < RX_BUFS; j++) {
			f->rx_addr[i][j] = tbuf(f->m, BUF, FMEM_RW, RX_FILL);
			f->rx_head[i][j] = fdrv_add_chain(
				&f->rx[i].drv,
				FBUFS(WR(f->rx_addr[i][j], BUF)));
		}
	}
	vsb_rx_filter_build(&f->filter, &f->cvq.ctrl, RSS_FEATURES);
	f->lb = (struct vsb_loopback){
		.rxq = f->rxq,
		.nr_rxq = PAIRS,
		.buf = f->bounce,
		.buf_len = BUF,
		.hdr_len = VSB_NET_HDR_HASH_LEN,
		.filter = &f->filter,
		.rss = &f->rss,
		.hash_report = true,
	};
	*state = f;
	return 0;
}

static int lbf_teardown(void **state)
{
	struct lbf *f = *state;
	unsigned int i;

	for (i = 0; i < 2; i++)
		tq_fini(&f->tx[i]);
	for (i = 0; i < PAIRS; i++)
		tq_fini(&f->rx[i]);
	fcvq_fini(&f->cvq);
	fmem_free(f->m);
	free(f);
	return 0;
}

/* Send a command on the control queue; the data path sees its state. */
static void lbf_command(struct lbf *f, const struct cmd *c)
{
	fcvq_send(&f->cvq, c->b, c->len);
	fcvq_expect_ack(&f->cvq, VIRTIO_NET_OK);
	memcpy(&f->rss, &f->cvq.ctrl.rss, sizeof(f->rss));
}

/* Transmit frame p (len bytes, after a header) on pair's queue; run it. */
static void lbf_send(struct lbf *f, u16 pair, const u8 *p, u32 len)
{
	u32 hdr = f->lb.hdr_len;
	u64 at = tbuf(f->m, hdr + len, FMEM_RW, 0xa5);
	unsigned int i;

	memcpy(fmem_ptr(f->m, at + hdr, len), p, len);
	fdrv_add_chain(&f->tx[pair].drv, FBUFS(RD(at, hdr + len)));
	f->lb.tx = &f->tx[pair].ring;
	f->lb.tx_chain = &f->tx[pair].chain;
	f->lb.stats = &f->stats[pair];
	f->lb.pair = pair;
	assert_int_equal(vsb_loopback_run(&f->lb, 8), 1);
	vsb_ring_publish(&f->tx[pair].ring);
	for (i = 0; i < PAIRS; i++)
		vsb_ring_publish(&f->rx[i].ring);
}

/*
 * The frame arrived on receive queue q, in its next buffer, with hash
 * value and report in its header, and nowhere else.
 */
static void lbf_expect_rx(struct lbf *f, u16 q, const u8 *p, u32 len, u32 value,
			  u16 report)
{
	u32 hdr = f->lb.hdr_len;
	unsigned int n = f->rx_next[q]++;
	const u8 *b = fmem_ptr(f->m, f->rx_addr[q][n], BUF);
	unsigned int i;

	fdrv_expect_used(&f->rx[q].drv, f->rx_head[q][n], hdr + len);
	for (i = 0; i < PAIRS; i++)
		fdrv_expect_no_used(&f->rx[i].drv);
	assert_int_equal(get_unaligned_le16(b + 10), 1);
	if (hdr == VSB_NET_HDR_HASH_LEN) {
		assert_int_equal(get_unaligned_le32(b + VSB_HDR_HASH_VALUE),
				 value);
		assert_int_equal(get_unaligned_le16(b + VSB_HDR_HASH_REPORT),
				 report);
		assert_int_equal(get_unaligned_le16(b + 18), 0);
	}
	assert_memory_equal(b + hdr, p, len);
	assert_int_equal(b[hdr + len], RX_FILL);
}

static void steered_by_table_with_hash_reported(void **state)
{
	struct lbf *f = *state;
	u8 p[128], other[64] = { 0 };
	unsigned int i;
	struct cmd c;
	u64 got[PAIRS] = { 0 }, want[PAIRS] = { 0 };

	rss_cmd(&c, ALL_TYPES, 8, table8, 8, 2, PAIRS, 40);
	lbf_command(f, &c);
	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct vector *v = &vectors[i];
		u32 len = build_frame(p, v, 17, false, false);
		u16 q = table8[v->l4_hash & 7];

		/* from either transmit queue: the hash decides */
		lbf_send(f, i & 1, p, len);
		lbf_expect_rx(f, q, p, len, v->l4_hash,
			      v->v6 ? VIRTIO_NET_HASH_REPORT_UDPv6 :
				      VIRTIO_NET_HASH_REPORT_UDPv4);
		want[q]++;
	}
	/* not IP: unclassified_queue, no hash */
	memcpy(other, dev_mac, ETH_ALEN);
	other[12] = 0x88;
	other[13] = 0xb5;
	lbf_send(f, 1, other, sizeof(other));
	lbf_expect_rx(f, 2, other, sizeof(other), 0,
		      VIRTIO_NET_HASH_REPORT_NONE);
	want[2]++;
	for (i = 0; i < PAIRS; i++)
		got[i] = f->stats[i].rx_packets;
	assert_memory_equal(got, want, sizeof(got));
}

/* A queue the table names that is not ready drops the frame. */
static void steered_to_queue_not_ready_dropped(void **state)
{
	struct lbf *f = *state;
	static const u16 to3[] = { 3 };
	u8 p[128];
	u32 len = build_frame(p, &vectors[0], 6, false, false);
	struct cmd c;

	rss_cmd(&c, ALL_TYPES, 1, to3, 1, 3, PAIRS, 40);
	lbf_command(f, &c);
	f->rxq[3].ring = NULL;
	lbf_send(f, 0, p, len);
	assert_int_equal(f->stats[3].rx_drops, 1);
	assert_int_equal(f->stats[0].tx_packets, 1);
	fdrv_expect_no_used(&f->rx[3].drv);
	fdrv_expect_no_used(&f->rx[0].drv);
}

/*
 * HASH_CONFIG alone: frames stay on their own pair, with the hash of the
 * enabled types; without hash types, NONE. Without HASH_REPORT the header
 * is 12 bytes and RSS still steers.
 */
static void hash_report_without_steering(void **state)
{
	struct lbf *f = *state;
	const struct vector *v = &vectors[6];
	u8 p[128];
	u32 len = build_frame(p, v, 6, false, false);
	struct cmd c;

	hash_cmd(&c, T6, 40);
	lbf_command(f, &c);
	lbf_send(f, 1, p, len);
	lbf_expect_rx(f, 1, p, len, v->ip_hash, VIRTIO_NET_HASH_REPORT_IPv6);

	hash_cmd(&c, 0, 40);
	lbf_command(f, &c);
	lbf_send(f, 0, p, len);
	lbf_expect_rx(f, 0, p, len, 0, VIRTIO_NET_HASH_REPORT_NONE);

	f->lb.hdr_len = VSB_NET_HDR_V1_LEN;
	f->lb.hash_report = false;
	rss_cmd(&c, TCP6, 8, table8, 8, 0, PAIRS, 40);
	lbf_command(f, &c);
	lbf_send(f, 0, p, len);
	lbf_expect_rx(f, table8[v->l4_hash & 7], p, len, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(toeplitz_microsoft_vectors),
		cmocka_unit_test(hash_types_pick_fields),
		cmocka_unit_test(hash_ipv6_extension_header),
		cmocka_unit_test_setup_teardown(rss_without_mq_has_every_pair,
						fcvq_setup, fcvq_teardown),
		cmocka_unit_test_setup_teardown(rss_config_sets_state_and_pairs,
						fcvq_setup, fcvq_teardown),
		cmocka_unit_test_setup_teardown(hash_config_sets_types_and_key,
						fcvq_setup, fcvq_teardown),
		cmocka_unit_test_setup_teardown(
			bad_configs_refused_state_unchanged, fcvq_setup,
			fcvq_teardown),
		cmocka_unit_test_setup_teardown(
			steered_by_table_with_hash_reported, lbf_setup,
			lbf_teardown),
		cmocka_unit_test_setup_teardown(
			steered_to_queue_not_ready_dropped, lbf_setup,
			lbf_teardown),
		cmocka_unit_test_setup_teardown(hash_report_without_steering,
						lbf_setup, lbf_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
