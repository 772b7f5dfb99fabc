// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fault-injection chain builders: each shape writes the descriptors
 * it claims, in plain memory standing for the ring and the two areas.
 */
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "inject/inject_ring.h"
#include "lib/cvq_cmd.h"

#define NUM 8
#define RO_IOVA 0x10000
#define ACK_IOVA 0x20000
#define UNMAPPED_IOVA 0x900000
#define FRAGMENTED_IOVA 0xa00ffc

struct mem {
	struct vring_desc desc[NUM];
	struct {
		struct vring_avail hdr;
		uint16_t ring[NUM + 1];
	} avail;
	uint8_t ro[1024] __attribute__((aligned(16)));
	uint8_t ack[16];
	struct inject_ring r;
	struct inject_chain c;
};

/* MAC_ADDR_SET 02:00:5e:10:00:02: 8 bytes. */
static const uint8_t cmd[8] = { 1, 1, 0x02, 0x00, 0x5e, 0x10, 0x00, 0x02 };

static struct mem m;

static int setup(void **state)
{
	(void)state;
	memset(&m, 0, sizeof(m));
	m.r = (struct inject_ring){
		.desc = m.desc,
		.avail = &m.avail.hdr,
		.num = NUM,
		.areas = {
			.ro = m.ro,
			.ro_iova = RO_IOVA,
			.ro_size = sizeof(m.ro),
			.ack = m.ack,
			.ack_iova = ACK_IOVA,
			.ack_size = sizeof(m.ack),
		},
		.unmapped_iova = UNMAPPED_IOVA,
		.fragmented_iova = FRAGMENTED_IOVA,
	};
	return 0;
}

static void build(enum inject_shape shape)
{
	assert_int_equal(inject_ring_build(&m.r, shape, cmd, sizeof(cmd), &m.c),
			 0);
}

/* Descriptor @i of @t is (addr, len, flags, next). */
static void check_desc(const struct vring_desc *t, unsigned int i,
		       uint64_t addr, uint32_t len, uint16_t flags,
		       uint16_t next)
{
	assert_int_equal(le64toh(t[i].addr), addr);
	assert_int_equal(le32toh(t[i].len), len);
	assert_int_equal(le16toh(t[i].flags), flags);
	if (flags & VRING_DESC_F_NEXT)
		assert_int_equal(le16toh(t[i].next), next);
}

/* The indirect table a descriptor points to, in the read-only area. */
static const struct vring_desc *table_of(const struct vring_desc *d)
{
	uint64_t addr = le64toh(d->addr);

	assert_true(addr >= RO_IOVA && addr < RO_IOVA + sizeof(m.ro));
	assert_int_equal(addr % INJECT_TABLE_ALIGN, 0);
	return (const struct vring_desc *)(void *)(m.ro + (addr - RO_IOVA));
}

/* The command is copied first, at the start of the read-only area. */
static void check_command_copied(void)
{
	assert_memory_equal(m.ro, cmd, sizeof(cmd));
}

static void check_published(uint16_t head, uint16_t idx)
{
	assert_int_equal(m.c.head, head);
	assert_int_equal(le16toh(m.avail.hdr.ring[0]), head);
	assert_int_equal(m.c.publish_idx, idx);
}

static void test_normal(void **state)
{
	(void)state;
	build(SHAPE_NORMAL);
	check_command_copied();
	check_desc(m.desc, 0, RO_IOVA, 8, VRING_DESC_F_NEXT, 1);
	check_desc(m.desc, 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
	check_published(0, 1);
	assert_int_equal(m.c.ndescs, 2);
	assert_ptr_equal(m.c.ack, &m.ack[0]);
	assert_int_equal(m.ack[0], CVQ_ACK_UNSET);
}

static void test_two_chains_share_the_ring(void **state)
{
	(void)state;
	build(SHAPE_NORMAL);
	build(SHAPE_NORMAL);
	check_desc(m.desc, 2, RO_IOVA + 16, 8, VRING_DESC_F_NEXT, 3);
	check_desc(m.desc, 3, ACK_IOVA + 1, 1, VRING_DESC_F_WRITE, 0);
	assert_int_equal(le16toh(m.avail.hdr.ring[1]), 2);
	assert_int_equal(m.c.publish_idx, 2);
}

static void test_head_range(void **state)
{
	(void)state;
	build(SHAPE_HEAD_RANGE);
	check_published(NUM, 1);
	assert_int_equal(m.c.ndescs, 0);
	assert_null(m.c.ack);
}

static void test_avail_idx_ahead(void **state)
{
	(void)state;
	build(SHAPE_AVAIL_IDX_AHEAD);
	/* One chain added, published num + 1 past the device's 0. */
	check_published(0, NUM + 1);
	check_desc(m.desc, 0, RO_IOVA, 8, VRING_DESC_F_NEXT, 1);
}

static void test_next_loop(void **state)
{
	(void)state;
	build(SHAPE_NEXT_LOOP);
	check_desc(m.desc, 0, RO_IOVA, 8, VRING_DESC_F_NEXT, 0);
	assert_int_equal(m.c.ndescs, 1);
}

static void test_next_range(void **state)
{
	(void)state;
	build(SHAPE_NEXT_RANGE);
	check_desc(m.desc, 0, RO_IOVA, 8, VRING_DESC_F_NEXT, NUM);
}

static void test_chain_num(void **state)
{
	unsigned int i;

	(void)state;
	build(SHAPE_CHAIN_NUM);
	assert_int_equal(m.c.ndescs, NUM);
	/* 8 bytes in 7 pieces: 2, then six of 1. */
	check_desc(m.desc, 0, RO_IOVA, 2, VRING_DESC_F_NEXT, 1);
	for (i = 1; i < NUM - 1; i++)
		check_desc(m.desc, i, RO_IOVA + 1 + i, 1, VRING_DESC_F_NEXT,
			   (uint16_t)(i + 1));
	check_desc(m.desc, NUM - 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
}

static void test_chain_num_needs_an_empty_table(void **state)
{
	(void)state;
	build(SHAPE_NORMAL);
	assert_int_equal(inject_ring_build(&m.r, SHAPE_CHAIN_NUM, cmd,
					   sizeof(cmd), &m.c),
			 -EINVAL);
}

static void test_chain_too_long(void **state)
{
	const struct vring_desc *t;
	unsigned int i;

	(void)state;
	build(SHAPE_CHAIN_TOO_LONG);
	/* 1 direct buffer and num in the table: num + 1. */
	check_desc(m.desc, 0, RO_IOVA, 1, VRING_DESC_F_NEXT, 1);
	assert_int_equal(le16toh(m.desc[1].flags), VRING_DESC_F_INDIRECT);
	assert_int_equal(le32toh(m.desc[1].len), NUM * 16);
	t = table_of(&m.desc[1]);
	for (i = 0; i < NUM - 1; i++)
		check_desc(t, i, RO_IOVA + 1 + i, 1, VRING_DESC_F_NEXT,
			   (uint16_t)(i + 1));
	check_desc(t, NUM - 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
}

static void check_indirect_pair(uint16_t ptr_flags, uint32_t ptr_len)
{
	const struct vring_desc *t;

	check_command_copied();
	assert_int_equal(le16toh(m.desc[0].flags), ptr_flags);
	assert_int_equal(le32toh(m.desc[0].len), ptr_len);
	t = table_of(&m.desc[0]);
	check_desc(t, 0, RO_IOVA, 8, VRING_DESC_F_NEXT, 1);
	check_desc(t, 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
	assert_int_equal(m.c.ndescs, 1);
}

static void test_indirect(void **state)
{
	(void)state;
	build(SHAPE_INDIRECT);
	check_indirect_pair(VRING_DESC_F_INDIRECT, 32);
}

static void test_indirect_write_flag(void **state)
{
	(void)state;
	build(SHAPE_INDIRECT_WRITE_FLAG);
	check_indirect_pair(VRING_DESC_F_INDIRECT | VRING_DESC_F_WRITE, 32);
}

static void test_indirect_len_zero(void **state)
{
	(void)state;
	build(SHAPE_INDIRECT_LEN_ZERO);
	check_indirect_pair(VRING_DESC_F_INDIRECT, 0);
}

static void test_indirect_len_odd(void **state)
{
	(void)state;
	build(SHAPE_INDIRECT_LEN_ODD);
	check_indirect_pair(VRING_DESC_F_INDIRECT, 24);
}

static void test_indirect_loop(void **state)
{
	const struct vring_desc *t;

	(void)state;
	build(SHAPE_INDIRECT_LOOP);
	assert_int_equal(le32toh(m.desc[0].len), 32);
	t = table_of(&m.desc[0]);
	check_desc(t, 0, RO_IOVA, 8, VRING_DESC_F_NEXT, 1);
	check_desc(t, 1, RO_IOVA, 8, VRING_DESC_F_NEXT, 0);
}

static void test_indirect_nested(void **state)
{
	const struct vring_desc *outer, *inner;

	(void)state;
	build(SHAPE_INDIRECT_NESTED);
	assert_int_equal(le16toh(m.desc[0].flags), VRING_DESC_F_INDIRECT);
	assert_int_equal(le32toh(m.desc[0].len), 16);
	outer = table_of(&m.desc[0]);
	assert_int_equal(le16toh(outer[0].flags), VRING_DESC_F_INDIRECT);
	assert_int_equal(le32toh(outer[0].len), 32);
	inner = table_of(&outer[0]);
	check_desc(inner, 0, RO_IOVA, 8, VRING_DESC_F_NEXT, 1);
	check_desc(inner, 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
}

static void test_indirect_next(void **state)
{
	const struct vring_desc *t;

	(void)state;
	build(SHAPE_INDIRECT_NEXT);
	check_desc(m.desc, 0, le64toh(m.desc[0].addr), 16,
		   VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT, 1);
	check_desc(m.desc, 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
	t = table_of(&m.desc[0]);
	check_desc(t, 0, RO_IOVA, 8, 0, 0);
}

static void test_write_order(void **state)
{
	(void)state;
	build(SHAPE_WRITE_ORDER);
	check_desc(m.desc, 0, ACK_IOVA, 1,
		   VRING_DESC_F_WRITE | VRING_DESC_F_NEXT, 1);
	check_desc(m.desc, 1, RO_IOVA, 8, 0, 0);
}

static void test_addr_wrap(void **state)
{
	(void)state;
	build(SHAPE_ADDR_WRAP);
	check_desc(m.desc, 0, INJECT_WRAP_ADDR, 8, VRING_DESC_F_NEXT, 1);
	/* The range really wraps. */
	assert_true(INJECT_WRAP_ADDR + 8 - 1 < INJECT_WRAP_ADDR);
	check_desc(m.desc, 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
}

static void test_zero_len(void **state)
{
	(void)state;
	build(SHAPE_ZERO_LEN);
	check_desc(m.desc, 0, RO_IOVA, 8, VRING_DESC_F_NEXT, 1);
	check_desc(m.desc, 1, RO_IOVA, 0, VRING_DESC_F_NEXT, 2);
	check_desc(m.desc, 2, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
}

static void test_cmd_fragmented(void **state)
{
	(void)state;
	build(SHAPE_CMD_FRAGMENTED);
	/* The command is the caller's copy; the ack is a normal one. */
	check_desc(m.desc, 0, FRAGMENTED_IOVA, 8, VRING_DESC_F_NEXT, 1);
	check_desc(m.desc, 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
	check_published(0, 1);
	assert_ptr_equal(m.c.ack, &m.ack[0]);
	assert_int_equal(m.ack[0], CVQ_ACK_UNSET);
}

static void test_buffer_unmapped(void **state)
{
	(void)state;
	build(SHAPE_BUFFER_UNMAPPED);
	check_desc(m.desc, 0, UNMAPPED_IOVA, 8, VRING_DESC_F_NEXT, 1);
	check_desc(m.desc, 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
}

static void test_ack_read_only(void **state)
{
	uint64_t target;

	(void)state;
	build(SHAPE_ACK_READ_ONLY);
	target = le64toh(m.desc[1].addr);
	/* The writable descriptor points into the read-only area. */
	assert_true(target >= RO_IOVA && target < RO_IOVA + sizeof(m.ro));
	check_desc(m.desc, 1, target, 1, VRING_DESC_F_WRITE, 0);
	assert_ptr_equal(m.c.readonly_target, m.ro + (target - RO_IOVA));
	assert_int_equal(*m.c.readonly_target, CVQ_ACK_UNSET);
	assert_null(m.c.ack);
}

static void test_short_header(void **state)
{
	(void)state;
	build(SHAPE_SHORT_HEADER);
	check_desc(m.desc, 0, RO_IOVA, 1, VRING_DESC_F_NEXT, 1);
	check_desc(m.desc, 1, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
}

static void test_no_ack(void **state)
{
	(void)state;
	build(SHAPE_NO_ACK);
	check_desc(m.desc, 0, RO_IOVA, 8, 0, 0);
	assert_int_equal(m.c.ndescs, 1);
	assert_null(m.c.ack);
}

static void test_split_header(void **state)
{
	(void)state;
	build(SHAPE_SPLIT_HEADER);
	check_desc(m.desc, 0, RO_IOVA, 1, VRING_DESC_F_NEXT, 1);
	check_desc(m.desc, 1, RO_IOVA + 1, 1, VRING_DESC_F_NEXT, 2);
	check_desc(m.desc, 2, RO_IOVA + 2, 6, VRING_DESC_F_NEXT, 3);
	check_desc(m.desc, 3, ACK_IOVA, 1, VRING_DESC_F_WRITE, 0);
}

static void test_out_of_room(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < NUM / 2; i++)
		build(SHAPE_NORMAL);
	assert_int_equal(inject_ring_build(&m.r, SHAPE_NORMAL, cmd, sizeof(cmd),
					   &m.c),
			 -ENOSPC);
}

static void test_rejects_bad_arguments(void **state)
{
	(void)state;
	assert_int_equal(inject_ring_build(&m.r, SHAPE_NORMAL, cmd, 1, &m.c),
			 -EINVAL);
	assert_int_equal(inject_ring_build(&m.r, SHAPE_COUNT, cmd, sizeof(cmd),
					   &m.c),
			 -EINVAL);
	assert_int_equal(inject_ring_build(&m.r, SHAPE_SPLIT_HEADER, cmd, 2,
					   &m.c),
			 -EINVAL);
}

static void test_every_shape_is_named(void **state)
{
	unsigned int s;

	(void)state;
	for (s = 0; s < SHAPE_COUNT; s++) {
		assert_non_null(inject_shape_name(s));
		assert_string_not_equal(inject_shape_name(s), "unknown");
	}
	assert_string_equal(inject_shape_name(SHAPE_COUNT), "unknown");
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_normal),
		T(test_two_chains_share_the_ring),
		T(test_head_range),
		T(test_avail_idx_ahead),
		T(test_next_loop),
		T(test_next_range),
		T(test_chain_num),
		T(test_chain_num_needs_an_empty_table),
		T(test_chain_too_long),
		T(test_indirect),
		T(test_indirect_write_flag),
		T(test_indirect_len_zero),
		T(test_indirect_len_odd),
		T(test_indirect_loop),
		T(test_indirect_nested),
		T(test_indirect_next),
		T(test_write_order),
		T(test_addr_wrap),
		T(test_zero_len),
		T(test_buffer_unmapped),
		T(test_cmd_fragmented),
		T(test_ack_read_only),
		T(test_short_header),
		T(test_no_ack),
		T(test_split_header),
		T(test_out_of_room),
		T(test_rejects_bad_arguments),
		T(test_every_shape_is_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
