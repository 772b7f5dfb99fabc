// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Split ring bookkeeping, against a minimal device model that consumes the
 * avail ring and fills the used ring the way a device would.
 */
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/vring.h"

struct ring_mem {
	struct vq_driver vq;
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	uint16_t device_avail_idx; /* the device's last_avail_idx */
};

/* aligned_alloc() wants a size that is a multiple of the alignment. */
static void *ring_alloc(size_t size)
{
	return aligned_alloc(16, (size + 15) & ~(size_t)15);
}

static void ring_setup(struct ring_mem *m, unsigned int num)
{
	memset(m, 0, sizeof(*m));
	m->desc = ring_alloc(vq_desc_bytes(num));
	m->avail = ring_alloc(vq_avail_bytes(num));
	m->used = ring_alloc(vq_used_bytes(num));
	assert_non_null(m->desc);
	assert_non_null(m->avail);
	assert_non_null(m->used);
	memset(m->used, 0, vq_used_bytes(num));
	assert_int_equal(vq_init(&m->vq, num, m->desc, m->avail, m->used), 0);
}

static void ring_teardown(struct ring_mem *m)
{
	vq_fini(&m->vq);
	free(m->desc);
	free(m->avail);
	free(m->used);
}

/* The device takes the next published chain; returns its head. */
static uint16_t device_take(struct ring_mem *m)
{
	uint16_t num = m->vq.num;
	uint16_t head;

	assert_int_not_equal(le16toh(m->avail->idx), m->device_avail_idx);
	head = le16toh(m->avail->ring[m->device_avail_idx & (num - 1)]);
	m->device_avail_idx++;
	return head;
}

static void device_complete(struct ring_mem *m, uint32_t id, uint32_t len)
{
	uint16_t idx = le16toh(m->used->idx);

	m->used->ring[idx & (m->vq.num - 1)].id = htole32(id);
	m->used->ring[idx & (m->vq.num - 1)].len = htole32(len);
	m->used->idx = htole16(idx + 1);
}

static const struct vq_buf cmd_and_ack[2] = {
	{ .addr = 0x1000, .len = 8 },
	{ .addr = 0x2000, .len = 1, .device_writable = true },
};

static void init_rejects_bad_sizes(void **state)
{
	static const unsigned int bad[] = { 0, 3, 100, 65536, 131072 };
	struct vring_desc desc[4];
	struct vring_avail avail[4];
	struct vring_used used[8];
	struct vq_driver vq;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(vq_init(&vq, bad[i], desc, avail, used),
				 -EINVAL);
}

static void sizes_follow_the_spec(void **state)
{
	(void)state;
	assert_int_equal(vq_desc_bytes(64), 64 * 16);
	assert_int_equal(vq_avail_bytes(64), 6 + 2 * 64);
	assert_int_equal(vq_used_bytes(64), 6 + 8 * 64);
}

static void add_writes_a_chain_and_publish_shows_it(void **state)
{
	struct ring_mem m;
	uint16_t head, next;

	(void)state;
	ring_setup(&m, 8);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 42), 0);
	/* Not visible before publication. */
	assert_int_equal(le16toh(m.avail->idx), 0);
	assert_int_equal(vq_publish(&m.vq), 1);
	assert_int_equal(le16toh(m.avail->idx), 1);

	head = le16toh(m.avail->ring[0]);
	assert_int_equal(le64toh(m.desc[head].addr), 0x1000);
	assert_int_equal(le32toh(m.desc[head].len), 8);
	assert_int_equal(le16toh(m.desc[head].flags), VRING_DESC_F_NEXT);
	next = le16toh(m.desc[head].next);
	assert_int_equal(le64toh(m.desc[next].addr), 0x2000);
	assert_int_equal(le32toh(m.desc[next].len), 1);
	assert_int_equal(le16toh(m.desc[next].flags), VRING_DESC_F_WRITE);
	assert_int_equal(vq_num_free(&m.vq), 6);
	ring_teardown(&m);
}

static void chains_must_be_readable_then_writable(void **state)
{
	const struct vq_buf wrong_order[2] = {
		{ .addr = 0x2000, .len = 1, .device_writable = true },
		{ .addr = 0x1000, .len = 8 },
	};
	struct ring_mem m;

	(void)state;
	ring_setup(&m, 8);
	assert_int_equal(vq_add(&m.vq, wrong_order, 2, 0), -EINVAL);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 0, 0), -EINVAL);
	assert_int_equal(vq_num_free(&m.vq), 8);
	ring_teardown(&m);
}

static void full_ring_refuses_more(void **state)
{
	struct ring_mem m;
	uint32_t i;

	(void)state;
	ring_setup(&m, 8);
	for (i = 0; i < 4; i++)
		assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, i), 0);
	assert_int_equal(vq_num_free(&m.vq), 0);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 4), -ENOSPC);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 1, 4), -ENOSPC);
	ring_teardown(&m);
}

static void pop_returns_tokens_and_frees_descriptors(void **state)
{
	struct ring_mem m;
	uint32_t token, len;

	(void)state;
	ring_setup(&m, 4);
	assert_int_equal(vq_pop(&m.vq, &token, &len), -EAGAIN);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 7), 0);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 8), 0);
	vq_publish(&m.vq);
	device_complete(&m, device_take(&m), 1);
	assert_int_equal(vq_used_pending(&m.vq), 1);
	assert_int_equal(vq_pop(&m.vq, &token, &len), 0);
	assert_int_equal(token, 7);
	assert_int_equal(len, 1);
	assert_int_equal(vq_num_free(&m.vq), 2);
	assert_int_equal(vq_pop(&m.vq, &token, &len), -EAGAIN);
	ring_teardown(&m);
}

/* Header, data, ack, reply: a command as Linux frames it. */
static const struct vq_buf four_bufs[4] = {
	{ .addr = 0x1000, .len = 2 },
	{ .addr = 0x1040, .len = 6 },
	{ .addr = 0x2000, .len = 1, .device_writable = true },
	{ .addr = 0x2040, .len = 8, .device_writable = true },
};

static void indirect_chain_takes_one_descriptor(void **state)
{
	struct vring_desc table[4];
	struct ring_mem m;
	uint32_t token, len;
	uint16_t head, i;

	(void)state;
	ring_setup(&m, 4);
	memset(table, 0xa5, sizeof(table));
	assert_int_equal(vq_add_indirect(&m.vq, table, 0x8000, four_bufs, 4, 9),
			 0);
	assert_int_equal(vq_num_free(&m.vq), 3);
	vq_publish(&m.vq);
	head = le16toh(m.avail->ring[0]);
	assert_int_equal(le64toh(m.desc[head].addr), 0x8000);
	assert_int_equal(le32toh(m.desc[head].len), 4 * sizeof(table[0]));
	assert_int_equal(vq_indirect_bytes(4), sizeof(table));
	assert_int_equal(le16toh(m.desc[head].flags), VRING_DESC_F_INDIRECT);
	/* The table is a chain from entry 0, by NEXT. */
	for (i = 0; i < 4; i++) {
		uint16_t want = (four_bufs[i].device_writable ?
					 VRING_DESC_F_WRITE :
					 0) |
				(i < 3 ? VRING_DESC_F_NEXT : 0);

		assert_int_equal(le64toh(table[i].addr), four_bufs[i].addr);
		assert_int_equal(le32toh(table[i].len), four_bufs[i].len);
		assert_int_equal(le16toh(table[i].flags), want);
		if (i < 3)
			assert_int_equal(le16toh(table[i].next), i + 1);
	}
	device_complete(&m, device_take(&m), 9);
	assert_int_equal(vq_pop(&m.vq, &token, &len), 0);
	assert_int_equal(token, 9);
	assert_int_equal(len, 9);
	assert_int_equal(vq_num_free(&m.vq), 4);
	ring_teardown(&m);
}

static void indirect_chains_are_checked_like_others(void **state)
{
	const struct vq_buf wrong_order[2] = { four_bufs[2], four_bufs[0] };
	const struct vq_buf marked = { .addr = 0x1000,
				       .len = 16,
				       .indirect = true };
	struct vq_buf too_long[5];
	struct vring_desc table[8];
	struct ring_mem m;
	unsigned int i;

	(void)state;
	ring_setup(&m, 4);
	for (i = 0; i < 5; i++)
		too_long[i] = four_bufs[0];
	assert_int_equal(vq_add_indirect(&m.vq, table, 0x8000, four_bufs, 0, 0),
			 -EINVAL);
	assert_int_equal(vq_add_indirect(&m.vq, table, 0x8000, wrong_order, 2,
					 0),
			 -EINVAL);
	/* No table longer than the queue. */
	assert_int_equal(vq_add_indirect(&m.vq, table, 0x8000, too_long, 5, 0),
			 -EINVAL);
	/* Only vq_add_indirect() makes an indirect descriptor. */
	assert_int_equal(vq_add(&m.vq, &marked, 1, 0), -EINVAL);
	/* A table takes one descriptor: four fit a ring of 4. */
	for (i = 0; i < 4; i++)
		assert_int_equal(vq_add_indirect(&m.vq, table, 0x8000,
						 four_bufs, 4, i),
				 0);
	assert_int_equal(vq_add_indirect(&m.vq, table, 0x8000, four_bufs, 4, 4),
			 -ENOSPC);
	ring_teardown(&m);
}

static void out_of_order_completions_are_fine(void **state)
{
	struct ring_mem m;
	uint16_t heads[3];
	uint32_t token, len;
	int i;

	(void)state;
	ring_setup(&m, 8);
	for (i = 0; i < 3; i++)
		assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 100 + i), 0);
	vq_publish(&m.vq);
	for (i = 0; i < 3; i++)
		heads[i] = device_take(&m);
	device_complete(&m, heads[2], 1);
	device_complete(&m, heads[0], 1);
	device_complete(&m, heads[1], 1);
	assert_int_equal(vq_pop(&m.vq, &token, &len), 0);
	assert_int_equal(token, 102);
	assert_int_equal(vq_pop(&m.vq, &token, &len), 0);
	assert_int_equal(token, 100);
	assert_int_equal(vq_pop(&m.vq, &token, &len), 0);
	assert_int_equal(token, 101);
	assert_int_equal(vq_num_free(&m.vq), 8);
	ring_teardown(&m);
}

static void indices_wrap_around_16_bits(void **state)
{
	struct ring_mem m;
	uint32_t token, len, i;

	(void)state;
	ring_setup(&m, 4);
	/* 70000 chains move every index past 65535. */
	for (i = 0; i < 70000; i++) {
		assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, i), 0);
		vq_publish(&m.vq);
		device_complete(&m, device_take(&m), 1);
		assert_int_equal(vq_pop(&m.vq, &token, &len), 0);
		assert_int_equal(token, i);
	}
	assert_int_equal(vq_num_free(&m.vq), 4);
	assert_int_equal(le16toh(m.avail->idx), 70000 & 0xffff);
	ring_teardown(&m);
}

static void bad_used_ids_are_protocol_errors(void **state)
{
	struct ring_mem m;
	uint32_t token, len;
	uint16_t head;

	(void)state;
	ring_setup(&m, 4);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 1), 0);
	vq_publish(&m.vq);
	head = device_take(&m);

	device_complete(&m, 4, 1); /* id >= num */
	assert_int_equal(vq_pop(&m.vq, &token, &len), -EPROTO);
	/* the second descriptor of the chain is not a head */
	m.used->ring[0].id = htole32(le16toh(m.desc[head].next));
	assert_int_equal(vq_pop(&m.vq, &token, &len), -EPROTO);
	m.used->ring[0].id = htole32(head);
	assert_int_equal(vq_pop(&m.vq, &token, &len), 0);
	/* a head completed twice */
	device_complete(&m, head, 1);
	assert_int_equal(vq_pop(&m.vq, &token, &len), -EPROTO);
	ring_teardown(&m);
}

/*
 * A used index that moved past what was published is a device bug even
 * when the entry it points at looks valid: without the bound the driver
 * would read used entries the device never wrote.
 */
static void used_index_bounded_by_in_flight(void **state)
{
	struct ring_mem m;
	uint32_t token, len;
	uint16_t head;

	(void)state;
	ring_setup(&m, 8);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 1), 0);
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 2), 0);
	vq_publish(&m.vq);
	/* An added but unpublished chain is not in flight either. */
	assert_int_equal(vq_add(&m.vq, cmd_and_ack, 2, 3), 0);
	head = device_take(&m);
	device_complete(&m, head, 1);
	m.used->idx = htole16(3);
	assert_int_equal(vq_pop(&m.vq, &token, &len), -EPROTO);
	m.used->idx = htole16(1);
	assert_int_equal(vq_pop(&m.vq, &token, &len), 0);
	assert_int_equal(token, 1);
	ring_teardown(&m);
}

static void kick_suppression(void **state)
{
	struct ring_mem m;

	(void)state;
	ring_setup(&m, 4);
	assert_true(vq_kick_needed(&m.vq));
	m.used->flags = htole16(VRING_USED_F_NO_NOTIFY);
	assert_false(vq_kick_needed(&m.vq));
	/* The driver leaves interrupts on, as QEMU's shadow virtqueue. */
	assert_int_equal(le16toh(m.avail->flags), 0);
	ring_teardown(&m);
}

static void publish_counts_only_new_entries(void **state)
{
	struct ring_mem m;

	(void)state;
	ring_setup(&m, 8);
	assert_int_equal(vq_publish(&m.vq), 0);
	vq_add(&m.vq, cmd_and_ack, 2, 0);
	vq_add(&m.vq, cmd_and_ack, 2, 1);
	vq_add(&m.vq, cmd_and_ack, 2, 2);
	assert_int_equal(vq_publish(&m.vq), 3);
	assert_int_equal(vq_publish(&m.vq), 0);
	ring_teardown(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_rejects_bad_sizes),
		cmocka_unit_test(sizes_follow_the_spec),
		cmocka_unit_test(add_writes_a_chain_and_publish_shows_it),
		cmocka_unit_test(chains_must_be_readable_then_writable),
		cmocka_unit_test(full_ring_refuses_more),
		cmocka_unit_test(pop_returns_tokens_and_frees_descriptors),
		cmocka_unit_test(indirect_chain_takes_one_descriptor),
		cmocka_unit_test(indirect_chains_are_checked_like_others),
		cmocka_unit_test(out_of_order_completions_are_fine),
		cmocka_unit_test(indices_wrap_around_16_bits),
		cmocka_unit_test(bad_used_ids_are_protocol_errors),
		cmocka_unit_test(used_index_bounded_by_in_flight),
		cmocka_unit_test(kick_suppression),
		cmocka_unit_test(publish_counts_only_new_entries),
	};

	return cmocka_run_group_tests_name("vring", tests, NULL, NULL);
}
