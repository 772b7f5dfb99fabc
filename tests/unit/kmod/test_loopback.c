// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loopback data path (kmod/engine/vsb_loopback.c): frames the fake driver
 * transmits come back on its receive queue through the receive filter;
 * every transmit buffer is given back whatever happens on the receive
 * side (stock defect F), a frame that does not fit is dropped and counted
 * rather than truncated, and the budget bounds one run. The receive filter
 * is programmed end to end through a control queue of the same driver:
 * without CTRL_RX (the default here) only the device's MAC and multicast
 * pass, as in stock vdpa_sim_net; test_filter.c has every rule.
 */

#include "unit.h"

#include "fake_cvq.h"
#include "vsb_filter.h"
#include "vsb_loopback.h"

#define NUM 16
#define HDR VSB_NET_HDR_V1_LEN
#define FRAME_MAX 1514
#define BUF_LEN (HDR + FRAME_MAX)
#define TX_HDR_FILL 0xa5 /* what the driver leaves in its tx header */
#define RX_FILL 0xee /* receive buffers before the device writes */
#define MAX_OFFERED 16

static const u8 dev_mac[ETH_ALEN] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x01 };
static const u8 src_mac[ETH_ALEN] = { 0x02, 0x99, 0x99, 0x99, 0x99, 0x99 };

/* A receive buffer the driver offered. */
struct rx_offer {
	u16 head;
	u64 addr; /* header, then data GAP bytes further if split */
	u32 hdr_len;
	u32 data_len;
	int rgn;
};

struct fixture {
	struct fmem *m;
	struct tq tx;
	struct tq rx;
	/* the control queue, and the device state it programs */
	struct fcvq cvq;
	/* the data path's filter, kept up to date as the module does */
	struct vsb_rx_filter filter;
	struct vsb_loopback_stats stats;
	struct vsb_loopback_rxq rxq;
	u8 *bounce;
	struct vsb_loopback lb;
	/* the last frame sent, with its header, and where it went */
	u8 pkt[BUF_LEN + 8];
	u32 pkt_len;
	u16 tx_head;
	int tx_rgn;
	struct rx_offer rxo[MAX_OFFERED];
	unsigned int nr_rxo;
};

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->m = fmem_new();
	tq_init(&f->tx, f->m, NUM, 0, false, false);
	tq_init(&f->rx, f->m, NUM, 0, false, false);
	fcvq_init(&f->cvq, f->m, 0, dev_mac, 1);
	vsb_rx_filter_build(&f->filter, &f->cvq.ctrl, 0);
	f->bounce = malloc(BUF_LEN);
	if (!f->bounce)
		return -1;
	f->rxq = (struct vsb_loopback_rxq){
		.ring = &f->rx.ring,
		.chain = &f->rx.chain,
		.stats = &f->stats,
	};
	f->lb = (struct vsb_loopback){
		.tx = &f->tx.ring,
		.tx_chain = &f->tx.chain,
		.stats = &f->stats,
		.rxq = &f->rxq,
		.nr_rxq = 1,
		.buf = f->bounce,
		.buf_len = BUF_LEN,
		.hdr_len = HDR,
		.filter = &f->filter,
	};
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;

	tq_fini(&f->tx);
	tq_fini(&f->rx);
	fcvq_fini(&f->cvq);
	free(f->bounce);
	fmem_free(f->m);
	free(f);
	return 0;
}

/*
 * The frame to send in f->pkt: len bytes with the header, to dest. The
 * header is TX_HDR_FILL, so the test sees the device build its own; the
 * payload is a counting pattern.
 */
static void build_pkt(struct fixture *f, const u8 *dest, u32 len)
{
	u32 i;

	assert_true(len <= sizeof(f->pkt));
	for (i = 0; i < len; i++)
		f->pkt[i] = (u8)(i * 7 + 3);
	memset(f->pkt, TX_HDR_FILL, len < HDR ? len : HDR);
	if (len >= HDR + ETH_ALEN)
		memcpy(f->pkt + HDR, dest, ETH_ALEN);
	if (len >= HDR + 2 * ETH_ALEN)
		memcpy(f->pkt + HDR + ETH_ALEN, src_mac, ETH_ALEN);
	f->pkt_len = len;
}

/* Transmit f->pkt in descriptors of split[] bytes (in one region). */
static u16 offer_tx(struct fixture *f, const u32 *split, unsigned int n)
{
	struct fbuf bufs[NUM];
	unsigned int i;
	u64 at;
	u32 off = 0;

	assert_true(n <= NUM);
	at = tbuf(f->m, f->pkt_len + n, FMEM_RW, 0);
	f->tx_rgn = fmem_region_of(f->m, at);
	for (i = 0; i < n; i++) {
		memcpy(fmem_ptr(f->m, at, split[i]), f->pkt + off, split[i]);
		bufs[i] = (struct fbuf){ at, split[i], false };
		off += split[i];
		at += split[i] + 1;
	}
	assert_int_equal(off, f->pkt_len);
	f->tx_head = fdrv_add_chain(&f->tx.drv, bufs, n);
	return f->tx_head;
}

/* Transmit a frame to dest: len bytes with the header, split as split[]. */
static u16 send_split(struct fixture *f, const u8 *dest, u32 len,
		      const u32 *split, unsigned int n)
{
	build_pkt(f, dest, len);
	return offer_tx(f, split, n);
}

/* Transmit a frame of len bytes (with header) as header + frame. */
static u16 send(struct fixture *f, const u8 *dest, u32 len)
{
	if (len <= HDR)
		return send_split(f, dest, len, &len, 1);
	return send_split(f, dest, len, SPLIT(HDR, len - HDR));
}

/* Transmit a frame to dest with an 802.1Q tag of VLAN vid. */
static u16 send_tagged(struct fixture *f, const u8 *dest, u16 vid, u32 len)
{
	u8 *tag;

	assert_true(len >= HDR + 16);
	build_pkt(f, dest, len);
	tag = f->pkt + HDR + 2 * ETH_ALEN;
	tag[0] = 0x81;
	tag[1] = 0x00;
	tag[2] = vid >> 8;
	tag[3] = vid & 0xff;
	return offer_tx(f, SPLIT(HDR, len - HDR));
}

/* Offer a receive buffer: hdr_len then data_len bytes (hdr_len may be 0). */
static struct rx_offer *offer_rx(struct fixture *f, u32 hdr_len, u32 data_len)
{
	struct rx_offer *o = &f->rxo[f->nr_rxo++];
	struct fbuf bufs[2];

	assert_true(f->nr_rxo <= MAX_OFFERED);
	o->hdr_len = hdr_len;
	o->data_len = data_len;
	o->addr = tbuf(f->m, hdr_len + data_len + 1, FMEM_RW, RX_FILL);
	o->rgn = fmem_region_of(f->m, o->addr);
	/* one byte between header and data, as rx_byte() expects */
	bufs[0] = WR(o->addr, hdr_len);
	bufs[1] = WR(o->addr + (hdr_len ? hdr_len + 1 : 0), data_len);
	if (hdr_len)
		o->head = fdrv_add_chain(&f->rx.drv, bufs, 2);
	else
		o->head = fdrv_add_chain(&f->rx.drv, bufs + 1, 1);
	return o;
}

/* Move frames, then publish both rings, as the module's worker does. */
static int run(struct fixture *f, unsigned int budget)
{
	int ret = vsb_loopback_run(&f->lb, budget);

	vsb_ring_publish(&f->tx.ring);
	vsb_ring_publish(&f->rx.ring);
	return ret;
}

/* Byte i of what the device wrote to the receive buffer o. */
static u8 rx_byte(struct fixture *f, const struct rx_offer *o, u32 i)
{
	u32 skip = o->hdr_len && i >= o->hdr_len ? 1 : 0;

	return *(u8 *)fmem_ptr(f->m, o->addr + i + skip, 1);
}

/* The last frame sent arrived in o: fresh header, same frame, no more. */
static void assert_received(struct fixture *f, const struct rx_offer *o)
{
	u32 i;

	fdrv_expect_used(&f->rx.drv, o->head, f->pkt_len);
	for (i = 0; i < HDR; i++) {
		/* num_buffers, le16 at 10, is 1; the rest is 0 */
		u8 want = i == 10 ? 1 : 0;

		if (rx_byte(f, o, i) != want)
			fail_msg("rx header byte %u: %#x, want %#x", i,
				 rx_byte(f, o, i), want);
	}
	for (i = HDR; i < f->pkt_len; i++)
		if (rx_byte(f, o, i) != f->pkt[i])
			fail_msg("rx byte %u: %#x, want %#x", i,
				 rx_byte(f, o, i), f->pkt[i]);
	for (; i < o->hdr_len + o->data_len; i++)
		assert_int_equal(rx_byte(f, o, i), RX_FILL);
}

/* o was not touched and is still on offer. */
static void assert_rx_untouched(struct fixture *f, const struct rx_offer *o)
{
	u32 i;

	assert_int_equal(fmem_writes(f->m, o->rgn), 0);
	for (i = 0; i < o->hdr_len + o->data_len; i++)
		assert_int_equal(rx_byte(f, o, i), RX_FILL);
}

/* The transmit buffer came back (len 0) and was never written. */
static void assert_tx_done(struct fixture *f, u16 head, int rgn)
{
	fdrv_expect_used(&f->tx.drv, head, 0);
	assert_int_equal(fmem_writes(f->m, rgn), 0);
}

static void frame_to_device_mac_looped_back(void **state)
{
	struct fixture *f = *state;
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);

	send(f, dev_mac, HDR + 60);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_received(f, o);
	fdrv_expect_no_used(&f->tx.drv);
	fdrv_expect_no_used(&f->rx.drv);
	assert_int_equal(f->stats.tx_packets, 1);
	assert_int_equal(f->stats.tx_bytes, 60);
	assert_int_equal(f->stats.rx_packets, 1);
	assert_int_equal(f->stats.rx_bytes, 60);
	assert_int_equal(f->stats.rx_errors + f->stats.rx_overruns +
				 f->stats.rx_drops + f->stats.tx_errors +
				 f->stats.tx_drops,
			 0);
	assert_int_equal(f->tx.ring.fault, VSB_FAULT_NONE);
	assert_int_equal(f->rx.ring.fault, VSB_FAULT_NONE);
}

/* No arrangement of either side's descriptors is assumed. */
static void frame_in_any_descriptor_split_looped_back(void **state)
{
	struct fixture *f = *state;
	struct rx_offer *o;
	int rgn;

	o = offer_rx(f, 0, HDR + 100);
	send_split(f, dev_mac, HDR + 100, SPLIT(5, 10, 3, 50, 32, 12));
	rgn = f->tx_rgn;
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, rgn);
	assert_received(f, o);

	o = offer_rx(f, 3, HDR + 97);
	send_split(f, dev_mac, HDR + 100, SPLIT(HDR + 100));
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_received(f, o);
}

static void broadcast_and_multicast_pass(void **state)
{
	static const u8 dests[][ETH_ALEN] = {
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb },
		{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
		{ 0x03, 0xaa, 0xbb, 0xcc, 0xdd, 0x01 }, /* dev_mac | 1 */
	};
	struct fixture *f = *state;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);

		send(f, dests[i], HDR + 64);
		assert_int_equal(run(f, 16), 1);
		assert_tx_done(f, f->tx_head, f->tx_rgn);
		assert_received(f, o);
	}
	assert_int_equal(f->stats.rx_packets, 4);
	assert_int_equal(f->stats.rx_drops, 0);
}

static void other_unicast_dropped(void **state)
{
	static const u8 dests[][ETH_ALEN] = {
		{ 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x02 },
		{ 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0x01 },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
	};
	struct fixture *f = *state;
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);
	unsigned int i;

	for (i = 0; i < 3; i++) {
		send(f, dests[i], HDR + 64);
		assert_int_equal(run(f, 16), 1);
		assert_tx_done(f, f->tx_head, f->tx_rgn);
	}
	assert_int_equal(f->stats.rx_drops, 3);
	assert_int_equal(f->stats.rx_packets, 0);
	assert_int_equal(f->stats.tx_packets, 3);
	fdrv_expect_no_used(&f->rx.drv);
	assert_rx_untouched(f, o);

	/* the buffer is still there for the next frame that passes */
	send(f, dev_mac, HDR + 64);
	assert_int_equal(run(f, 16), 1);
	assert_received(f, o);
}

static void no_rx_buffer_overrun_tx_completed(void **state)
{
	struct fixture *f = *state;
	u16 first;
	int rgn;

	first = send(f, dev_mac, HDR + 60);
	rgn = f->tx_rgn;
	send(f, dev_mac, HDR + 70);
	assert_int_equal(run(f, 16), 2);
	assert_tx_done(f, first, rgn);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_int_equal(f->stats.rx_overruns, 2);
	assert_int_equal(f->stats.rx_packets, 0);
	assert_int_equal(f->stats.tx_packets, 2);
	fdrv_expect_no_used(&f->rx.drv);
	assert_int_equal(f->rx.ring.fault, VSB_FAULT_NONE);
}

/*
 * With the link down a transmitted frame goes nowhere: counted as a
 * transmit drop, its buffer given back, the receive side untouched.
 */
static void link_down_drops_transmitted_frames(void **state)
{
	struct fixture *f = *state;
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);

	f->lb.link_down = true;
	send(f, dev_mac, HDR + 60);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_rx_untouched(f, o);
	assert_int_equal(f->stats.tx_drops, 1);
	assert_int_equal(f->stats.tx_packets + f->stats.rx_packets, 0);
	f->lb.link_down = false;
	send(f, dev_mac, HDR + 60);
	assert_int_equal(run(f, 16), 1);
	assert_received(f, o);
}

static void rx_buffer_too_small_rx_error(void **state)
{
	struct fixture *f = *state;
	struct rx_offer *small = offer_rx(f, HDR, 59);
	struct rx_offer *exact = offer_rx(f, HDR, 60);

	send(f, dev_mac, HDR + 60);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	fdrv_expect_used(&f->rx.drv, small->head, 0);
	assert_rx_untouched(f, small);
	assert_int_equal(f->stats.rx_errors, 1);
	assert_int_equal(f->stats.rx_packets, 0);

	/* a buffer of exactly the frame's size takes it */
	send(f, dev_mac, HDR + 60);
	assert_int_equal(run(f, 16), 1);
	assert_received(f, exact);
	assert_int_equal(f->stats.rx_errors, 1);
	assert_int_equal(f->stats.rx_packets, 1);
}

static void tx_shorter_than_header_and_mac_tx_error(void **state)
{
	static const u32 lens[] = { HDR + ETH_ALEN - 1, HDR, 1, 0 };
	struct fixture *f = *state;
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		send(f, dev_mac, lens[i]);
		assert_int_equal(run(f, 16), 1);
		assert_tx_done(f, f->tx_head, f->tx_rgn);
	}
	assert_int_equal(f->stats.tx_errors, 4);
	assert_int_equal(f->stats.tx_packets, 0);
	assert_rx_untouched(f, o);
	fdrv_expect_no_used(&f->rx.drv);

	/* header and a destination address: the shortest frame that goes */
	send(f, dev_mac, HDR + ETH_ALEN);
	assert_int_equal(run(f, 16), 1);
	assert_received(f, o);
	assert_int_equal(f->stats.tx_errors, 4);
}

/*
 * A frame of buf_len bytes goes; one byte more, in one descriptor or
 * several, is a transmit error: completed, never read, and nothing of the
 * bounce buffer past buf_len is touched, whatever room it has.
 */
static void assert_buf_len_bounds_tx(struct fixture *f, u32 buf_len)
{
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX + 8);
	u32 i;

	f->lb.buf_len = buf_len;
	memset(f->bounce, 0x3c, BUF_LEN);
	send(f, dev_mac, buf_len + 1);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_int_equal(fmem_reads(f->m, f->tx_rgn), 0);
	assert_int_equal(f->stats.tx_errors, 1);
	assert_int_equal(f->stats.tx_packets, 0);
	assert_int_equal(f->stats.tx_bytes, 0);
	assert_rx_untouched(f, o);
	fdrv_expect_no_used(&f->rx.drv);

	send_split(f, dev_mac, buf_len + 1, SPLIT(HDR, 20, buf_len - HDR - 19));
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_int_equal(f->stats.tx_errors, 2);
	assert_rx_untouched(f, o);

	send(f, dev_mac, buf_len);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_received(f, o);
	assert_int_equal(f->stats.tx_errors, 2);
	assert_int_equal(f->stats.tx_packets, 1);
	assert_int_equal(f->stats.tx_bytes, buf_len - HDR);
	assert_int_equal(f->stats.rx_packets, 1);
	for (i = buf_len; i < BUF_LEN; i++)
		assert_int_equal(f->bounce[i], 0x3c);
}

static void tx_larger_than_bounce_buffer_tx_error(void **state)
{
	assert_buf_len_bounds_tx(*state, BUF_LEN);
}

/*
 * With VIRTIO_NET_F_MTU the module bounds frames by the MTU it offered:
 * buf_len is the header, the Ethernet header, a VLAN tag and the MTU, here
 * the smallest MTU there is (IPv4's 68).
 */
static void tx_larger_than_mtu_buf_len_tx_error(void **state)
{
	assert_buf_len_bounds_tx(*state, HDR + ETH_HLEN + 4 + 68);
}

static void budget_respected(void **state)
{
	struct fixture *f = *state;
	u16 heads[5];
	unsigned int i;

	for (i = 0; i < 5; i++) {
		offer_rx(f, HDR, FRAME_MAX);
		heads[i] = send(f, dev_mac, HDR + 60 + i);
	}
	assert_int_equal(run(f, 3), 3);
	for (i = 0; i < 3; i++)
		fdrv_expect_used(&f->tx.drv, heads[i], 0);
	fdrv_expect_no_used(&f->tx.drv);
	assert_int_equal(f->stats.rx_packets, 3);
	assert_int_equal(run(f, 3), 2);
	for (i = 3; i < 5; i++)
		fdrv_expect_used(&f->tx.drv, heads[i], 0);
	assert_int_equal(run(f, 3), 0);
	assert_int_equal(run(f, 0), 0);
	assert_int_equal(f->stats.tx_packets, 5);
	assert_int_equal(f->stats.rx_packets, 5);
	for (i = 0; i < 5; i++)
		fdrv_expect_used(&f->rx.drv, f->rxo[i].head, HDR + 60 + i);
}

static void bad_tx_descriptor_faults_and_returns_head(void **state)
{
	struct fixture *f = *state;
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);
	u16 good, bad;
	int rgn;

	good = send(f, dev_mac, HDR + 60);
	rgn = f->tx_rgn;
	bad = send(f, dev_mac, HDR + 60);
	/* the frame's descriptor now points past the table */
	fdrv_set_desc(&f->tx.drv, bad, 0x1000, HDR, VRING_DESC_F_NEXT, NUM);
	assert_int_equal(run(f, 16), -EIO);
	assert_int_equal(f->tx.ring.fault, VSB_FAULT_NEXT_RANGE);
	assert_tx_done(f, good, rgn);
	fdrv_expect_used(&f->tx.drv, bad, 0);
	fdrv_expect_no_used(&f->tx.drv);
	assert_received(f, o);
	assert_int_equal(f->stats.tx_packets, 1);
	/* stuck until reset */
	assert_int_equal(run(f, 16), -EIO);
	fdrv_expect_no_used(&f->tx.drv);
}

static void tx_buffer_unreadable_faults_and_returns_head(void **state)
{
	struct fixture *f = *state;
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);

	send(f, dev_mac, HDR + 60);
	fmem_unmap(f->m, f->tx_rgn);
	assert_int_equal(run(f, 16), -EIO);
	assert_int_equal(f->tx.ring.fault, VSB_FAULT_BUFFER_ACCESS);
	fdrv_expect_used(&f->tx.drv, f->tx_head, 0);
	assert_rx_untouched(f, o);
	assert_int_equal(f->stats.tx_packets, 0);
}

/* Whatever fails on the receive side, the transmit buffer comes back. */
static void rx_fault_tx_still_completed(void **state)
{
	struct fixture *f = *state;
	struct rx_offer *o;

	/* receive head out of range */
	fdrv_make_avail(&f->rx.drv, NUM);
	send(f, dev_mac, HDR + 60);
	assert_int_equal(run(f, 16), -EIO);
	assert_int_equal(f->rx.ring.fault, VSB_FAULT_HEAD_RANGE);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	fdrv_expect_no_used(&f->rx.drv);

	/* receive buffer mapped read-only */
	tq_fini(&f->rx);
	tq_init(&f->rx, f->m, NUM, 0, false, false);
	f->rxq.ring = &f->rx.ring;
	f->rxq.chain = &f->rx.chain;
	o = offer_rx(f, HDR, FRAME_MAX);
	fmem_set_perm(f->m, o->rgn, FMEM_RO);
	send(f, dev_mac, HDR + 60);
	assert_int_equal(run(f, 16), -EIO);
	assert_int_equal(f->rx.ring.fault, VSB_FAULT_BUFFER_ACCESS);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	fdrv_expect_used(&f->rx.drv, o->head, 0);
	assert_rx_untouched(f, o);
}

/* Set the receive ring up again, as after a reset, with used->flags. */
static void restart_rx(struct fixture *f, u16 flags)
{
	fdrv_set_used_flags(&f->rx.drv, flags);
	assert_int_equal(vsb_ring_setup(&f->rx.ring, NUM, f->rx.drv.desc,
					f->rx.drv.avail, f->rx.drv.used,
					f->rx.ring.last_avail),
			 VSB_FAULT_NONE);
}

/*
 * The receive ring gets its used->flags on the first run, before any
 * frame needs it: a driver reading NO_NOTIFY there would stop kicking.
 */
static void rx_used_flags_cleared_on_first_run(void **state)
{
	struct fixture *f = *state;

	restart_rx(f, 0xffff);
	assert_int_equal(run(f, 16), 0);
	assert_int_equal(fdrv_used_flags(&f->rx.drv), 0);
	fdrv_expect_no_used(&f->rx.drv);

	/* a receive used ring the device cannot write: the rx ring faults */
	restart_rx(f, 0xffff);
	fmem_set_perm(f->m, f->rx.drv.used_hdr_rgn, FMEM_RO);
	send(f, dev_mac, HDR + 60);
	assert_int_equal(run(f, 16), -EIO);
	assert_int_equal(f->rx.ring.fault, VSB_FAULT_RING_ACCESS);
	assert_int_equal(f->tx.ring.fault, VSB_FAULT_NONE);
	/* nothing was taken from the transmit queue */
	assert_int_equal(f->tx.ring.last_avail, 0);
	assert_int_equal(f->stats.tx_packets + f->stats.tx_errors, 0);
}

/* Negotiate features for both the control queue and the data path. */
static void negotiate(struct fixture *f, u64 features)
{
	f->cvq.features = features;
	vsb_rx_filter_build(&f->filter, &f->cvq.ctrl, features);
}

/* Send a control command, which must be acked OK. */
static void control(struct fixture *f, const u8 *cmd, u32 len)
{
	fcvq_send(&f->cvq, cmd, len);
	vsb_rx_filter_update(&f->filter, &f->cvq.ctrl, f->cvq.res.changed);
	fcvq_expect_ack(&f->cvq, VIRTIO_NET_OK);
}

/* With CTRL_VLAN a tagged frame needs its VLAN in the table. */
static void vlan_not_in_table_dropped_end_to_end(void **state)
{
	static const u8 add100[] = { VIRTIO_NET_CTRL_VLAN,
				     VIRTIO_NET_CTRL_VLAN_ADD, 100, 0 };
	static const u8 del100[] = { VIRTIO_NET_CTRL_VLAN,
				     VIRTIO_NET_CTRL_VLAN_DEL, 100, 0 };
	static const u8 promisc_off[] = { VIRTIO_NET_CTRL_RX,
					  VIRTIO_NET_CTRL_RX_PROMISC, 0 };
	struct fixture *f = *state;
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);

	negotiate(f, FEATURE(VIRTIO_NET_F_CTRL_VQ) |
			     FEATURE(VIRTIO_NET_F_CTRL_RX) |
			     FEATURE(VIRTIO_NET_F_CTRL_VLAN));
	/* out of the promiscuous reset state, as virtio_net does */
	control(f, promisc_off, sizeof(promisc_off));
	control(f, add100, sizeof(add100));

	send_tagged(f, dev_mac, 200, HDR + 64);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_int_equal(f->stats.rx_drops, 1);
	assert_int_equal(f->stats.rx_packets, 0);
	assert_int_equal(f->stats.tx_packets, 1);
	fdrv_expect_no_used(&f->rx.drv);
	assert_rx_untouched(f, o);

	/* VLAN 100 is in the table: the same buffer takes it */
	send_tagged(f, dev_mac, 100, HDR + 64);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_received(f, o);
	assert_int_equal(f->stats.rx_packets, 1);

	/* and no more once deleted */
	control(f, del100, sizeof(del100));
	o = offer_rx(f, HDR, FRAME_MAX);
	send_tagged(f, dev_mac, 100, HDR + 64);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
	assert_int_equal(f->stats.rx_drops, 2);
	assert_rx_untouched(f, o);
	fdrv_expect_no_used(&f->rx.drv);
}

/* One frame from the driver to @dst, transmitted whatever the filter says. */
static void send_and_run(struct fixture *f, const u8 *dst)
{
	send(f, dst, HDR + 64);
	assert_int_equal(run(f, 16), 1);
	assert_tx_done(f, f->tx_head, f->tx_rgn);
}

static void promisc_passes_foreign_unicast_end_to_end(void **state)
{
	static const u8 foreign[ETH_ALEN] = {
		0x02, 0x12, 0x34, 0x56, 0x78, 0x9a
	};
	static const u8 promisc_on[] = { VIRTIO_NET_CTRL_RX,
					 VIRTIO_NET_CTRL_RX_PROMISC, 1 };
	static const u8 promisc_off[] = { VIRTIO_NET_CTRL_RX,
					  VIRTIO_NET_CTRL_RX_PROMISC, 0 };
	struct fixture *f = *state;
	struct rx_offer *o = offer_rx(f, HDR, FRAME_MAX);

	negotiate(f, FEATURE(VIRTIO_NET_F_CTRL_VQ) |
			     FEATURE(VIRTIO_NET_F_CTRL_RX));
	/* promiscuous from reset, as QEMU's virtio-net */
	send_and_run(f, foreign);
	assert_received(f, o);
	assert_int_equal(f->stats.rx_packets, 1);

	control(f, promisc_off, sizeof(promisc_off));
	o = offer_rx(f, HDR, FRAME_MAX);
	send_and_run(f, foreign);
	assert_int_equal(f->stats.rx_drops, 1);
	assert_rx_untouched(f, o);

	control(f, promisc_on, sizeof(promisc_on));
	send_and_run(f, foreign);
	assert_received(f, o);
	assert_int_equal(f->stats.rx_packets, 2);
	assert_int_equal(f->stats.rx_drops, 1);
}

#define T(fn) \
	cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(frame_to_device_mac_looped_back),
		T(frame_in_any_descriptor_split_looped_back),
		T(broadcast_and_multicast_pass),
		T(other_unicast_dropped),
		T(no_rx_buffer_overrun_tx_completed),
		T(link_down_drops_transmitted_frames),
		T(rx_buffer_too_small_rx_error),
		T(tx_shorter_than_header_and_mac_tx_error),
		T(tx_larger_than_bounce_buffer_tx_error),
		T(tx_larger_than_mtu_buf_len_tx_error),
		T(budget_respected),
		T(bad_tx_descriptor_faults_and_returns_head),
		T(tx_buffer_unreadable_faults_and_returns_head),
		T(rx_fault_tx_still_completed),
		T(rx_used_flags_cleared_on_first_run),
		T(vlan_not_in_table_dropped_end_to_end),
		T(promisc_passes_foreign_unicast_end_to_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
