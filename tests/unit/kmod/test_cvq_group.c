// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control commands answered together (kmod/engine/vsb_cvq_group.c): acks
 * that lie one after another are written in one access; a command whose
 * ack does not follow the group's starts the next group; an ack that
 * cannot be written is a framing fault for its command, after the ones
 * before it were answered, and nothing after it is; which commands can
 * wait to be applied.
 */

#include "unit.h"

#include "fake_cvq.h"
#include "vsb_cvq_group.h"

#define MAC_A 0x02, 0x00, 0x00, 0x00, 0x00, 0xa0

struct gtest {
	/* fcvq_setup()'s queue and state, with memory of its own */
	struct fcvq *f;
	struct vsb_cvq_group g;
	/* the acks' device addresses, one after another */
	u64 acks;
};

static int gtest_setup(void **state)
{
	struct gtest *t = calloc(1, sizeof(*t));
	void *f;

	if (!t || fcvq_setup(&f)) {
		free(t);
		return -1;
	}
	t->f = f;
	*state = t;
	return 0;
}

static int gtest_teardown(void **state)
{
	struct gtest *t = *state;
	void *f = t->f;

	free(t);
	return fcvq_teardown(&f);
}

/* Offer MAC_ADDR_SET of a MAC ending in @last, its ack byte at @ack. */
static u16 offer_mac(struct gtest *t, u8 last, u64 ack)
{
	u8 cmd[] = { VIRTIO_NET_CTRL_MAC,
		     VIRTIO_NET_CTRL_MAC_ADDR_SET,
		     0x02,
		     0,
		     0,
		     0,
		     0,
		     last };
	u64 addr = tbuf(t->f->m, sizeof(cmd), FMEM_RO, 0);
	struct fbuf bufs[] = { RD(addr, sizeof(cmd)), WR(ack, 1) };

	memcpy(fmem_ptr(t->f->m, addr, sizeof(cmd)), cmd, sizeof(cmd));
	return fdrv_add_chain(&t->f->q.drv, bufs, ARRAY_SIZE(bufs));
}

/* Pop the next command and check it into the group's next slot. */
static void take(struct gtest *t)
{
	struct fcvq *f = t->f;

	assert_int_equal(tq_pop(&f->q), 1);
	vsb_cvq_check(&f->q.ring, &f->q.chain, f->features, f->ctrl.max_pairs,
		      &f->scratch, vsb_cvq_group_cmd(&t->g),
		      vsb_cvq_group_res(&t->g));
	assert_int_equal(vsb_cvq_group_res(&t->g)->fault, VSB_FAULT_NONE);
}

static u8 ack_at(struct gtest *t, u64 addr)
{
	return *(u8 *)fmem_ptr(t->f->m, addr, 1);
}

static void acks_in_a_row_are_written_at_once(void **state)
{
	struct gtest *t = *state;
	int region;
	u16 i, heads[6];

	t->acks = tbuf(t->f->m, 6, FMEM_RW, FCVQ_ACK_PRESET);
	region = fmem_region_of(t->f->m, t->acks);
	for (i = 0; i < 6; i++)
		heads[i] = offer_mac(t, i, t->acks + i);
	for (i = 0; i < 6; i++) {
		take(t);
		assert_true(vsb_cvq_group_add(&t->g, &t->f->q.chain));
	}
	assert_int_equal(t->g.n, 6);
	/* Checking reads, never writes. */
	assert_int_equal(fmem_writes(t->f->m, region), 0);
	assert_int_equal(ack_at(t, t->acks), FCVQ_ACK_PRESET);

	fmem_reset_counts(t->f->m);
	assert_int_equal(vsb_cvq_group_ack(&t->g, &t->f->q.ring), 6);
	assert_int_equal(fmem_writes(t->f->m, region), 1);
	for (i = 0; i < 6; i++) {
		assert_int_equal(ack_at(t, t->acks + i), VIRTIO_NET_OK);
		assert_int_equal(t->g.heads[i], heads[i]);
		assert_int_equal(t->g.res[i].used_len, 1);
		assert_int_equal(t->g.res[i].fault, VSB_FAULT_NONE);
	}
}

static void ack_out_of_row_starts_the_next_group(void **state)
{
	struct gtest *t = *state;
	static const u8 mac_a[ETH_ALEN] = { MAC_A };

	t->acks = tbuf(t->f->m, 4, FMEM_RW, FCVQ_ACK_PRESET);
	offer_mac(t, 0, t->acks);
	offer_mac(t, 1, t->acks + 1);
	offer_mac(t, 0xa0, t->acks + 3);
	take(t);
	assert_true(vsb_cvq_group_add(&t->g, &t->f->q.chain));
	take(t);
	assert_true(vsb_cvq_group_add(&t->g, &t->f->q.chain));
	take(t);
	assert_false(vsb_cvq_group_add(&t->g, &t->f->q.chain));
	assert_int_equal(t->g.n, 2);

	assert_int_equal(vsb_cvq_group_ack(&t->g, &t->f->q.ring), 2);
	/* The third one's ack is not the group's to write. */
	assert_int_equal(ack_at(t, t->acks + 3), FCVQ_ACK_PRESET);
	assert_int_equal(ack_at(t, t->acks + 2), FCVQ_ACK_PRESET);

	/* Emptied, as the module does once the group is applied. */
	t->g.n = 0;
	vsb_cvq_group_restart(&t->g, 2);
	assert_int_equal(t->g.n, 0);
	assert_true(vsb_cvq_group_add(&t->g, &t->f->q.chain));
	assert_int_equal(t->g.ack_addr, t->acks + 3);
	vsb_cvq_apply(&t->g.cmd[0], &t->f->ctrl, &t->g.res[0]);
	assert_memory_equal(t->f->ctrl.mac, mac_a, ETH_ALEN);
	assert_int_equal(vsb_cvq_group_ack(&t->g, &t->f->q.ring), 1);
	assert_int_equal(ack_at(t, t->acks + 3), VIRTIO_NET_OK);
}

static void read_only_ack_ends_the_answered_ones(void **state)
{
	struct gtest *t = *state;
	u64 rw = tbuf(t->f->m, 3, FMEM_RW, FCVQ_ACK_PRESET);
	u64 ro = fmem_alloc_addr(t->f->m, 3, 1, FMEM_RO);
	u16 i;

	/* One row of six ack bytes: the last three read-only. */
	assert_int_equal(ro, rw + 3);
	memset(fmem_ptr(t->f->m, ro, 3), FCVQ_ACK_PRESET, 3);
	for (i = 0; i < 6; i++)
		offer_mac(t, i, rw + i);
	for (i = 0; i < 6; i++) {
		take(t);
		assert_true(vsb_cvq_group_add(&t->g, &t->f->q.chain));
	}
	assert_int_equal(vsb_cvq_group_ack(&t->g, &t->f->q.ring), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ack_at(t, rw + i), VIRTIO_NET_OK);
		assert_int_equal(t->g.res[i].used_len, 1);
	}
	/* The first that failed is a framing fault and changes nothing. */
	assert_int_equal(t->g.res[3].fault, VSB_FAULT_BUFFER_ACCESS);
	assert_int_equal(t->g.res[3].ack, VIRTIO_NET_ERR);
	assert_int_equal(t->g.res[3].used_len, 0);
	vsb_cvq_apply(&t->g.cmd[3], &t->f->ctrl, &t->g.res[3]);
	assert_int_equal(t->g.res[3].changed, 0);
	/* The ones after it are not answered. */
	for (i = 4; i < 6; i++)
		assert_int_equal(t->g.res[i].used_len, 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(ack_at(t, ro + i), FCVQ_ACK_PRESET);
}

/* Offer @cmd of @len bytes, then its ack byte. */
static void offer(struct gtest *t, const u8 *cmd, u32 len)
{
	u64 addr = tbuf(t->f->m, len, FMEM_RO, 0);
	u64 in = tbuf(t->f->m, 1, FMEM_RW, FCVQ_ACK_PRESET);
	struct fbuf bufs[] = { RD(addr, len), WR(in, 1) };

	memcpy(fmem_ptr(t->f->m, addr, len), cmd, len);
	fdrv_add_chain(&t->f->q.drv, bufs, ARRAY_SIZE(bufs));
}

static void which_commands_can_wait(void **state)
{
	struct gtest *t = *state;
	static const u8 mac_set[] = { VIRTIO_NET_CTRL_MAC,
				      VIRTIO_NET_CTRL_MAC_ADDR_SET, MAC_A };
	static const u8 table_set[] = { VIRTIO_NET_CTRL_MAC,
					VIRTIO_NET_CTRL_MAC_TABLE_SET,
					0,
					0,
					0,
					0,
					0,
					0,
					0,
					0 };
	static const u8 pairs[] = { VIRTIO_NET_CTRL_MQ,
				    VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET, 2, 0 };
	static const u8 unknown[] = { 0x7f, 0 };
	static const struct {
		const u8 *cmd;
		u32 len;
		bool waits;
	} rows[] = {
		{ mac_set, sizeof(mac_set), true },
		/* Applied from the scratch area the next check overwrites. */
		{ table_set, sizeof(table_set), false },
		{ pairs, sizeof(pairs), true },
		/* ERR: nothing to apply. */
		{ unknown, sizeof(unknown), true },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		offer(t, rows[i].cmd, rows[i].len);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		take(t);
		assert_int_equal(
			vsb_cvq_self_contained(vsb_cvq_group_cmd(&t->g),
					       vsb_cvq_group_res(&t->g)),
			rows[i].waits);
	}
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, gtest_setup, gtest_teardown)
	const struct CMUnitTest tests[] = {
		T(acks_in_a_row_are_written_at_once),
		T(ack_out_of_row_starts_the_next_group),
		T(read_only_ack_ends_the_answered_ones),
		T(which_commands_can_wait),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
