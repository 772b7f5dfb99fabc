// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device statistics through the control queue (kmod/engine/vsb_devstats.c):
 * STATS_QUERY's supported types, STATS_GET's replies in the driver's order
 * with the spec's headers, sizes and counters, and every malformed or
 * unanswerable query answered VIRTIO_NET_ERR with nothing written past the
 * ack -- a driver walks the replies by their size fields.
 */

#include "unit.h"

#include "fake_cvq.h"

#define STATS VSB_CTRL_STATS
#define QUERY VSB_CTRL_STATS_QUERY
#define GET VSB_CTRL_STATS_GET
#define FEATURES (FCVQ_ALL_FEATURES | FEATURE(VSB_NET_F_DEVICE_STATS))
/* With MQ, the control queue comes after FCVQ_MAX_PAIRS pairs. */
#define CVQ_INDEX (2 * FCVQ_MAX_PAIRS)
#define CVQ_REPLY_LEN 24
#define BASIC_REPLY_LEN 56
/* Room for every reply the tests ask for. */
#define ROOM 512
#define ENTRIES_MAX 20

struct query {
	u8 b[2 + ENTRIES_MAX * VSB_STATS_REQ_LEN];
	u32 len;
};

static void query_start(struct query *q, u8 cmd)
{
	q->b[0] = STATS;
	q->b[1] = cmd;
	q->len = 2;
}

static void query_add(struct query *q, u16 vq, u64 types)
{
	u8 *e = q->b + q->len;

	assert_true(q->len + VSB_STATS_REQ_LEN <= sizeof(q->b));
	memset(e, 0, VSB_STATS_REQ_LEN);
	put_unaligned_le16(vq, e);
	put_unaligned_le64(types, e + 8);
	q->len += VSB_STATS_REQ_LEN;
}

static int setup(void **state)
{
	static const u8 mac[ETH_ALEN] = { FCVQ_MAC };
	struct fcvq *f = calloc(1, sizeof(*f));
	unsigned int i;

	if (!f)
		return -1;
	fcvq_init(f, fmem_new(), FEATURES, mac, FCVQ_MAX_PAIRS);
	/* Distinct counters, so a reply from the wrong one shows. */
	for (i = 0; i < VSB_NET_MAX_PAIRS; i++) {
		u64 base = 1000 * (i + 1);
		struct vsb_devstats_queue rx = { base + 1, base + 2, base + 3,
						 base + 4, base + 5, base + 6 };
		struct vsb_devstats_queue tx = { base + 11, base + 12,
						 base + 13, base + 14,
						 base + 15, base + 16 };

		f->scratch.stats.rx[i] = rx;
		f->scratch.stats.tx[i] = tx;
	}
	f->scratch.stats.cvq_commands = 77;
	f->scratch.stats.cvq_ok = 70;
	*state = f;
	return 0;
}

/* Send q with one writable buffer of room bytes. */
static void send_query(struct fcvq *f, const struct query *q, u32 room)
{
	u32 out = q->len;

	fcvq_send_split(f, q->b, q->len, &out, 1, &room, 1, FMEM_RW);
}

/* Byte off of the answer, after the ack. */
static const u8 *answer(struct fcvq *f, u32 off, u32 len)
{
	return fmem_ptr(f->m, f->ack_addr + 1 + off, len);
}

/* An answer of len bytes, in writable buffers of more than 1 + len. */
static void expect_answer(struct fcvq *f, u32 len)
{
	assert_int_equal(f->res.fault, VSB_FAULT_NONE);
	assert_int_equal(f->res.ack, VIRTIO_NET_OK);
	assert_int_equal(fcvq_ack_byte(f), VIRTIO_NET_OK);
	assert_int_equal(f->res.used_len, 1 + len);
	/* Nothing past the answer. */
	assert_int_equal(*answer(f, len, 1), FCVQ_ACK_PRESET);
	assert_int_equal(f->res.changed, 0);
	assert_false(f->res.redundant);
}

/* ERR, and the byte after the ack as the driver left it. */
static bool refused(struct fcvq *f, const char *what)
{
	bool ok = fcvq_answered(f, VIRTIO_NET_ERR, what);

	if (*answer(f, 0, 1) != FCVQ_ACK_PRESET) {
		print_error("%s: written past the ack\n", what);
		ok = false;
	}
	return ok;
}

static void expect_reply(struct fcvq *f, u32 off, u8 type, u16 vq, u16 size,
			 const u64 *counters, unsigned int n)
{
	const u8 *r = answer(f, off, size);
	unsigned int i;

	assert_int_equal(r[0], type);
	assert_int_equal(r[1], 0);
	assert_int_equal(get_unaligned_le16(r + 2), vq);
	assert_int_equal(get_unaligned_le16(r + 4), 0);
	assert_int_equal(get_unaligned_le16(r + 6), size);
	assert_int_equal(size, VSB_STATS_HDR_LEN + 8 * n);
	for (i = 0; i < n; i++)
		assert_int_equal(get_unaligned_le64(r + 8 + 8 * i),
				 counters[i]);
}

static void expect_basic(struct fcvq *f, u32 off, u8 type, u16 vq,
			 const struct vsb_devstats_queue *q)
{
	const u64 c[] = { q->notifications, q->packets, q->bytes,
			  q->interrupts,    q->drops,	q->drops_detail };

	expect_reply(f, off, type, vq, BASIC_REPLY_LEN, c, ARRAY_SIZE(c));
}

static void query_reports_supported_types(void **state)
{
	struct fcvq *f = *state;
	struct query q;

	query_start(&q, QUERY);
	send_query(f, &q, 1 + 8 + 1);
	expect_answer(f, 8);
	assert_int_equal(get_unaligned_le64(answer(f, 0, 8)),
			 VSB_STATS_TYPE_CVQ | VSB_STATS_TYPE_RX_BASIC |
				 VSB_STATS_TYPE_TX_BASIC);
}

/* Replies in the entries' order; an entry with no types gets none. */
static void get_answers_in_order(void **state)
{
	struct fcvq *f = *state;
	const struct vsb_devstats *s = &f->scratch.stats;
	const u64 cvq[] = { 77, 70 };
	struct query q;

	query_start(&q, GET);
	query_add(&q, CVQ_INDEX, VSB_STATS_TYPE_CVQ);
	query_add(&q, 7, VSB_STATS_TYPE_TX_BASIC);
	query_add(&q, 4, 0);
	query_add(&q, 0, VSB_STATS_TYPE_RX_BASIC);
	send_query(f, &q, ROOM);
	expect_answer(f, CVQ_REPLY_LEN + 2 * BASIC_REPLY_LEN);
	expect_reply(f, 0, VSB_STATS_REPLY_CVQ, CVQ_INDEX, CVQ_REPLY_LEN, cvq,
		     ARRAY_SIZE(cvq));
	expect_basic(f, CVQ_REPLY_LEN, VSB_STATS_REPLY_TX_BASIC, 7, &s->tx[3]);
	expect_basic(f, CVQ_REPLY_LEN + BASIC_REPLY_LEN,
		     VSB_STATS_REPLY_RX_BASIC, 0, &s->rx[0]);
}

/* Exactly the room the answer needs is enough; split buffers are too. */
static void get_fills_exact_split_room(void **state)
{
	struct fcvq *f = *state;
	const u32 in[] = { 1, 3, BASIC_REPLY_LEN - 3 };
	struct query q;
	u32 out;

	query_start(&q, GET);
	query_add(&q, 1, VSB_STATS_TYPE_TX_BASIC);
	out = q.len;
	fcvq_send_split(f, q.b, q.len, &out, 1, in, ARRAY_SIZE(in), FMEM_RW);
	assert_int_equal(f->res.fault, VSB_FAULT_NONE);
	assert_int_equal(f->res.ack, VIRTIO_NET_OK);
	assert_int_equal(f->res.used_len, 1 + BASIC_REPLY_LEN);
}

/* An empty GET is a valid question with an empty answer. */
static void get_without_entries_answers_nothing(void **state)
{
	struct fcvq *f = *state;
	struct query q;

	query_start(&q, GET);
	send_query(f, &q, ROOM);
	expect_answer(f, 0);
}

/* Without MQ there is one pair, and the control queue is queue 2. */
static void without_mq_cvq_is_queue_2(void **state)
{
	static const u8 mac[ETH_ALEN] = { FCVQ_MAC };
	struct fcvq *f = *state;
	struct query q;

	fcvq_fini(f);
	fcvq_init(f, f->m, FEATURES & ~FEATURE(VIRTIO_NET_F_MQ), mac,
		  FCVQ_MAX_PAIRS);
	query_start(&q, GET);
	query_add(&q, 2, VSB_STATS_TYPE_CVQ);
	send_query(f, &q, ROOM);
	expect_answer(f, CVQ_REPLY_LEN);
	query_start(&q, GET);
	query_add(&q, 3, VSB_STATS_TYPE_TX_BASIC);
	send_query(f, &q, ROOM);
	assert_true(refused(f, "queue 3 without MQ"));
}

static void refused_queries(void **state)
{
	struct fcvq *f = *state;
	bool ok = true;
	struct query q;
	unsigned int i;

	query_start(&q, QUERY);
	q.b[q.len++] = 0;
	send_query(f, &q, ROOM);
	ok &= refused(f, "QUERY with data");

	query_start(&q, QUERY);
	send_query(f, &q, 1 + 7);
	ok &= refused(f, "QUERY without room for the answer");

	query_start(&q, GET);
	query_add(&q, 0, VSB_STATS_TYPE_RX_BASIC);
	q.len--;
	send_query(f, &q, ROOM);
	ok &= refused(f, "GET entry one byte short");

	query_start(&q, GET);
	query_add(&q, 0, VSB_STATS_TYPE_RX_BASIC);
	q.b[q.len++] = 0;
	send_query(f, &q, ROOM);
	ok &= refused(f, "GET entry one byte long");

	query_start(&q, GET);
	for (i = 0; i <= VSB_STATS_REQ_MAX; i++)
		query_add(&q, 0, VSB_STATS_TYPE_RX_BASIC);
	send_query(f, &q, ROOM);
	ok &= refused(f, "more entries than the device has queues");

	query_start(&q, GET);
	query_add(&q, CVQ_INDEX + 1, VSB_STATS_TYPE_RX_BASIC);
	send_query(f, &q, ROOM);
	ok &= refused(f, "queue past the control queue");

	query_start(&q, GET);
	query_add(&q, 0xffff, 0);
	send_query(f, &q, ROOM);
	ok &= refused(f, "queue 0xffff, no types");

	query_start(&q, GET);
	query_add(&q, 1, VSB_STATS_TYPE_RX_BASIC);
	send_query(f, &q, ROOM);
	ok &= refused(f, "receive type on a transmit queue");

	query_start(&q, GET);
	query_add(&q, 0, VSB_STATS_TYPE_TX_BASIC);
	send_query(f, &q, ROOM);
	ok &= refused(f, "transmit type on a receive queue");

	query_start(&q, GET);
	query_add(&q, 0, VSB_STATS_TYPE_CVQ);
	send_query(f, &q, ROOM);
	ok &= refused(f, "control type on a data queue");

	query_start(&q, GET);
	query_add(&q, CVQ_INDEX, VSB_STATS_TYPE_RX_BASIC);
	send_query(f, &q, ROOM);
	ok &= refused(f, "receive type on the control queue");

	query_start(&q, GET);
	query_add(&q, 0, VSB_STATS_TYPE_RX_BASIC | BIT_ULL(1));
	send_query(f, &q, ROOM);
	ok &= refused(f, "RX_CSUM, which the device does not support");

	query_start(&q, GET);
	query_add(&q, 0, VSB_STATS_TYPE_RX_BASIC);
	query_add(&q, 1, VSB_STATS_TYPE_TX_BASIC);
	send_query(f, &q, 2 * BASIC_REPLY_LEN);
	ok &= refused(f, "room one byte short of the answer");

	query_start(&q, 5);
	send_query(f, &q, ROOM);
	ok &= refused(f, "unknown STATS command");
	assert_true(ok);
}

static void refused_unless_negotiated(void **state)
{
	static const u8 mac[ETH_ALEN] = { FCVQ_MAC };
	struct fcvq *f = *state;
	struct query q;

	fcvq_fini(f);
	fcvq_init(f, f->m, FCVQ_ALL_FEATURES, mac, FCVQ_MAX_PAIRS);
	query_start(&q, QUERY);
	send_query(f, &q, ROOM);
	assert_true(refused(f, "QUERY without DEVICE_STATS"));
}

/* Guest memory lost between the ack and the answer: a fault, length 0. */
static void answer_write_fault(void **state)
{
	struct fcvq *f = *state;
	struct vsb_cvq_cmd cmd;
	struct query q;
	u32 out, room = ROOM;

	query_start(&q, GET);
	query_add(&q, 0, VSB_STATS_TYPE_RX_BASIC);
	out = q.len;
	fcvq_offer(f, q.b, q.len, &out, 1, &room, 1, FMEM_RW);
	assert_int_equal(tq_pop(&f->q), 1);
	vsb_cvq_fetch(&f->q.ring, &f->q.chain, f->features, f->ctrl.max_pairs,
		      &f->scratch, &cmd, &f->res);
	assert_int_equal(f->res.ack, VIRTIO_NET_OK);
	vsb_cvq_apply(&cmd, &f->ctrl, &f->res);
	fmem_set_perm(f->m, f->in_rgn, FMEM_RO);
	vsb_cvq_reply(&cmd, &f->res);
	assert_int_equal(f->res.fault, VSB_FAULT_BUFFER_ACCESS);
	assert_int_equal(f->res.used_len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, fcvq_teardown)
		T(query_reports_supported_types),
		T(get_answers_in_order),
		T(get_fills_exact_split_room),
		T(get_without_entries_answers_nothing),
		T(without_mq_cvq_is_queue_2),
		T(refused_queries),
		T(refused_unless_negotiated),
		T(answer_write_fault),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
