// SPDX-License-Identifier: GPL-2.0-only
/*
 * Notification coalescing: when a notification goes out
 * (kmod/engine/vsb_coal.c), and the NOTF_COAL commands that set the parameters
 * (kmod/engine/vsb_cvq.c): TX_SET and RX_SET for every queue of a direction,
 * VQ_SET and VQ_GET for one, each only with its feature, with exact sizes
 * and data queues only.
 */

#include "unit.h"

#include "fake_cvq.h"

#define COAL VSB_CTRL_NOTF_COAL
#define FEATURES                                               \
	(FCVQ_ALL_FEATURES | FEATURE(VIRTIO_NET_F_NOTF_COAL) | \
	 FEATURE(VSB_NET_F_VQ_NOTF_COAL))
#define US 1000ULL

static const struct vsb_coal off = { 0, 0 };
static const struct vsb_coal frames4 = { 4, 1000 };
static const struct vsb_coal usecs_only = { 0, 50 };

static void off_notifies_what_is_wanted(void **state)
{
	struct vsb_coal_state s = { 0 };

	(void)state;
	assert_int_equal(vsb_coal_update(&off, &s, 1, false, 0),
			 VSB_COAL_QUIET);
	assert_int_equal(vsb_coal_update(&off, &s, 1, true, 0),
			 VSB_COAL_NOTIFY);
	assert_false(s.owed);
}

/* Four buffers, or a millisecond, whichever first. */
static void frames_or_time(void **state)
{
	struct vsb_coal_state s = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++)
		assert_int_equal(vsb_coal_update(&frames4, &s, 1, true, i * US),
				 VSB_COAL_WAIT);
	assert_int_equal(vsb_coal_deadline(&frames4, &s), 1000 * US);
	assert_int_equal(vsb_coal_update(&frames4, &s, 1, true, 3 * US),
			 VSB_COAL_NOTIFY);
	assert_int_equal(s.pending, 0);
	assert_int_equal(vsb_coal_update(&frames4, &s, 1, true, 10 * US),
			 VSB_COAL_WAIT);
	/* The timer: nothing new, time up. */
	assert_int_equal(vsb_coal_update(&frames4, &s, 0, false, 1009 * US),
			 VSB_COAL_WAIT);
	assert_int_equal(vsb_coal_update(&frames4, &s, 0, false, 1010 * US),
			 VSB_COAL_NOTIFY);
}

/*
 * One the driver asked for is owed until sent, even when later buffers
 * find its suppression saying no (its used_event was passed once).
 */
static void owed_is_not_forgotten(void **state)
{
	struct vsb_coal_state s = { 0 };

	(void)state;
	assert_int_equal(vsb_coal_update(&usecs_only, &s, 1, true, 0),
			 VSB_COAL_WAIT);
	assert_int_equal(vsb_coal_update(&usecs_only, &s, 5, false, 10 * US),
			 VSB_COAL_WAIT);
	assert_int_equal(vsb_coal_update(&usecs_only, &s, 0, false, 50 * US),
			 VSB_COAL_NOTIFY);
	/* Switched off while one was owed: it goes out at once. */
	assert_int_equal(vsb_coal_update(&usecs_only, &s, 1, true, 60 * US),
			 VSB_COAL_WAIT);
	assert_int_equal(vsb_coal_update(&off, &s, 0, false, 61 * US),
			 VSB_COAL_NOTIFY);
}

/* Buffers the driver did not ask about count towards max_packets. */
static void unasked_buffers_count(void **state)
{
	struct vsb_coal_state s = { 0 };

	(void)state;
	assert_int_equal(vsb_coal_update(&frames4, &s, 3, false, 0),
			 VSB_COAL_QUIET);
	assert_int_equal(vsb_coal_update(&frames4, &s, 1, true, US),
			 VSB_COAL_NOTIFY);
}

/* ---- the commands ---- */

static int setup(void **state)
{
	static const u8 mac[ETH_ALEN] = { FCVQ_MAC };
	struct fcvq *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	fcvq_init(f, fmem_new(), FEATURES, mac, FCVQ_MAX_PAIRS);
	*state = f;
	return 0;
}

#define LE16(v) ((v)&0xff), (((v) >> 8) & 0xff)
#define LE32(v) LE16((v)&0xffff), LE16(((v) >> 16) & 0xffff)

static void expect_coal(const struct fcvq *f, unsigned int vq, u32 packets,
			u32 usecs)
{
	assert_int_equal(f->ctrl.coal[vq].max_packets, packets);
	assert_int_equal(f->ctrl.coal[vq].max_usecs, usecs);
}

static void rx_and_tx_set_every_queue_of_theirs(void **state)
{
	struct fcvq *f = *state;
	const u8 rx[] = { COAL, VSB_CTRL_NOTF_COAL_RX_SET, LE32(8), LE32(100) };
	const u8 tx[] = { COAL, VSB_CTRL_NOTF_COAL_TX_SET, LE32(2), LE32(7) };
	unsigned int i;

	fcvq_send(f, rx, sizeof(rx));
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->res.changed, VSB_CTRL_CHANGED_COAL);
	fcvq_send(f, tx, sizeof(tx));
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	for (i = 0; i < 2 * FCVQ_MAX_PAIRS; i++)
		expect_coal(f, i, i % 2 ? 2 : 8, i % 2 ? 7 : 100);
	for (; i < VSB_NET_MAX_DATA_VQS; i++)
		expect_coal(f, i, 0, 0);
	fcvq_send(f, tx, sizeof(tx));
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_true(f->res.redundant);
}

static void vq_set_and_get_one_queue(void **state)
{
	struct fcvq *f = *state;
	const u8 set[] = { COAL,     VSB_CTRL_NOTF_COAL_VQ_SET,
			   LE16(5),  LE16(0),
			   LE32(16), LE32(250) };
	const u8 get[] = { COAL, VSB_CTRL_NOTF_COAL_VQ_GET, LE16(5), LE16(0) };
	u32 out = sizeof(get), in = 1 + 8 + 1;
	const u8 *answer;

	fcvq_send(f, set, sizeof(set));
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	expect_coal(f, 5, 16, 250);
	expect_coal(f, 4, 0, 0);
	fcvq_send_split(f, get, sizeof(get), &out, 1, &in, 1, FMEM_RW);
	assert_int_equal(f->res.ack, VIRTIO_NET_OK);
	assert_int_equal(f->res.used_len, 1 + 8);
	assert_false(f->res.redundant);
	answer = fmem_ptr(f->m, f->ack_addr + 1, 9);
	assert_int_equal(get_unaligned_le32(answer), 16);
	assert_int_equal(get_unaligned_le32(answer + 4), 250);
	assert_int_equal(answer[8], FCVQ_ACK_PRESET);
}

static void refused(void **state)
{
	static const u8 mac[ETH_ALEN] = { FCVQ_MAC };
	struct fcvq *f = *state;
	const struct {
		const char *what;
		u8 b[16];
		u32 len;
		u64 features;
		u32 room;
	} cases[] = {
/* WHAT, LEN, FEATURES (0: all), ROOM (0: plenty), BYTES... */
#define CASE(w, l, f, r, ...) { w, { __VA_ARGS__ }, l, f, r }
		CASE("RX_SET short", 9, 0, 0, COAL, 1, LE32(1), LE16(1), 0),
		CASE("RX_SET long", 11, 0, 0, COAL, 1, LE32(1), LE32(1), 0),
		CASE("TX_SET without NOTF_COAL", 10,
		     FEATURES & ~FEATURE(VIRTIO_NET_F_NOTF_COAL), 0, COAL, 0,
		     LE32(1), LE32(1)),
		CASE("VQ_SET without VQ_NOTF_COAL", 14,
		     FEATURES & ~FEATURE(VSB_NET_F_VQ_NOTF_COAL), 0, COAL, 2,
		     LE16(0), LE16(0), LE32(1), LE32(1)),
		CASE("VQ_SET of the control queue", 14, 0, 0, COAL, 2,
		     LE16(2 * FCVQ_MAX_PAIRS), LE16(0), LE32(1), LE32(1)),
		CASE("VQ_SET of queue 2 without MQ", 14,
		     FEATURES & ~FEATURE(VIRTIO_NET_F_MQ), 0, COAL, 2, LE16(2),
		     LE16(0), LE32(1), LE32(1)),
		CASE("VQ_SET short", 10, 0, 0, COAL, 2, LE16(0), LE16(0),
		     LE32(1)),
		CASE("VQ_GET long", 7, 0, 0, COAL, 3, LE16(0), LE16(0), 0),
		CASE("VQ_GET past the queues", 6, 0, 0, COAL, 3, LE16(0xffff),
		     LE16(0)),
		CASE("VQ_GET without room", 6, 0, 1 + 7, COAL, 3, LE16(0),
		     LE16(0)),
		CASE("unknown command", 10, 0, 0, COAL, 4, LE32(1), LE32(1)),
#undef CASE
	};
	unsigned int i;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 out = cases[i].len, room = cases[i].room ?: 16;

		fcvq_fini(f);
		fcvq_init(f, f->m, cases[i].features ?: FEATURES, mac,
			  FCVQ_MAX_PAIRS);
		fcvq_send_split(f, cases[i].b, cases[i].len, &out, 1, &room, 1,
				FMEM_RW);
		ok &= fcvq_answered(f, VIRTIO_NET_ERR, cases[i].what);
		if (f->ctrl.coal[0].max_packets || f->res.changed) {
			print_error("%s: state changed\n", cases[i].what);
			ok = false;
		}
	}
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(off_notifies_what_is_wanted),
		cmocka_unit_test(frames_or_time),
		cmocka_unit_test(owed_is_not_forgotten),
		cmocka_unit_test(unasked_buffers_count),
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, fcvq_teardown)
		T(rx_and_tx_set_every_queue_of_theirs),
		T(vq_set_and_get_one_queue),
		T(refused),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
