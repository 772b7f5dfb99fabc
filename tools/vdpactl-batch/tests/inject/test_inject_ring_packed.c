// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The packed-ring fault builders on plain memory: the bits, ids and
 * slots each fault writes, as the device will read them, and the
 * reading back of used elements.
 */
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "inject/inject_ring_packed.h"
#include "lib/compat.h"
#include "lib/cvq_cmd.h"

#define NUM 8
#define RO_IOVA 0x10000
#define ACK_IOVA 0x20000
#define F_AVAIL (1u << VRING_PACKED_DESC_F_AVAIL)
#define F_USED (1u << VRING_PACKED_DESC_F_USED)

static struct {
	struct vring_packed_desc desc[NUM];
	uint8_t ro[256];
	uint8_t ack[8];
} m;

static const uint8_t cmd[8] = {
	VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 1
};
static const uint8_t first_cmd[8] = {
	VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 9
};

/*
 * A ring a lap of valid [cmd][ack] chains went through: heads used by
 * the device on lap 1 (AVAIL = USED = 1), the acks as the driver wrote
 * them (AVAIL = 1, USED = 0); the driver is back at slot @pos.
 */
static struct inject_packed_ring ring_after_a_lap(uint16_t pos, bool wrap)
{
	unsigned int i;

	memset(&m, 0, sizeof(m));
	for (i = 0; i < NUM; i++)
		m.desc[i].flags = htole16(i % 2 ? F_AVAIL | VRING_DESC_F_WRITE :
						  F_AVAIL | F_USED);
	return (struct inject_packed_ring){
		.desc = m.desc,
		.num = NUM,
		.pos = pos,
		.wrap = wrap,
		.areas = {
			.ro = m.ro,
			.ro_iova = RO_IOVA,
			.ro_size = sizeof(m.ro),
			.ack = m.ack,
			.ack_iova = ACK_IOVA,
			.ack_size = sizeof(m.ack),
		},
	};
}

/* What a device on lap @wrap at slot @slot takes for available. */
static bool device_sees_avail(uint16_t slot, bool wrap)
{
	uint16_t flags = le16toh(m.desc[slot].flags);

	return !!(flags & F_AVAIL) == wrap && !!(flags & F_USED) != wrap;
}

static uint16_t bits(uint16_t slot)
{
	return le16toh(m.desc[slot].flags) & (F_AVAIL | F_USED);
}

static void device_uses(uint16_t slot, bool wrap, uint16_t id, uint32_t len)
{
	m.desc[slot].id = htole16(id);
	m.desc[slot].len = htole32(len);
	m.desc[slot].flags = htole16(wrap ? F_AVAIL | F_USED : 0);
}

static void chain_carries_the_command(void **state)
{
	struct inject_packed_ring r = ring_after_a_lap(0, false);
	struct inject_packed_chain c[2];

	(void)state;
	assert_int_equal(inject_packed_build(&r, PACKED_ID_RANGE, NULL, cmd,
					     sizeof(cmd), c),
			 1);
	assert_int_equal(c[0].slot[0], 0);
	assert_int_equal(c[0].slot[1], 1);
	assert_int_equal(le64toh(m.desc[0].addr), RO_IOVA);
	assert_int_equal(le32toh(m.desc[0].len), sizeof(cmd));
	assert_memory_equal(m.ro, cmd, sizeof(cmd));
	assert_int_equal(le64toh(m.desc[1].addr), ACK_IOVA);
	assert_int_equal(le32toh(m.desc[1].len), 1);
	assert_int_equal(le16toh(m.desc[1].flags) & VRING_DESC_F_WRITE,
			 VRING_DESC_F_WRITE);
	assert_ptr_equal(c[0].ack, &m.ack[0]);
	assert_int_equal(m.ack[0], CVQ_ACK_UNSET);
	/* Buffer id = queue size, in every descriptor. */
	assert_int_equal(c[0].id, NUM);
	assert_int_equal(le16toh(m.desc[0].id), NUM);
	assert_int_equal(le16toh(m.desc[1].id), NUM);
	/* The head is not available before it is published. */
	assert_false(device_sees_avail(0, false));
	inject_packed_publish(&r, &c[0]);
	assert_true(device_sees_avail(0, false));
	assert_int_equal(le16toh(m.desc[0].flags) & VRING_DESC_F_NEXT,
			 VRING_DESC_F_NEXT);
	assert_int_equal(r.pos, 2);
}

/*
 * On lap 0 the previous lap's bits are what every slot already holds:
 * the device must take the chain for not yet available.
 */
static void wrong_wrap_writes_the_previous_laps_bits(void **state)
{
	struct inject_packed_ring r = ring_after_a_lap(0, false);
	struct inject_packed_chain c[2];

	(void)state;
	assert_int_equal(inject_packed_build(&r, PACKED_WRONG_WRAP, NULL, cmd,
					     sizeof(cmd), c),
			 1);
	inject_packed_publish(&r, &c[0]);
	assert_int_equal(bits(0), F_AVAIL);
	assert_int_equal(bits(1), F_AVAIL);
	assert_false(device_sees_avail(0, false));
	inject_packed_make_valid(&r, &c[0]);
	assert_int_equal(bits(0), F_USED);
	assert_int_equal(bits(1), F_USED);
	assert_true(device_sees_avail(0, false));
	assert_true(device_sees_avail(1, false));

	/* On a fresh ring's lap 1: AVAIL = 0, USED = 1. */
	r = ring_after_a_lap(4, true);
	assert_int_equal(inject_packed_build(&r, PACKED_WRONG_WRAP, NULL, cmd,
					     sizeof(cmd), c),
			 1);
	inject_packed_publish(&r, &c[0]);
	assert_int_equal(bits(4), F_USED);
	assert_false(device_sees_avail(4, true));
}

/* Across the ring's end: the wrong bits are each slot's own lap's. */
static void chain_across_the_end(void **state)
{
	struct inject_packed_ring r = ring_after_a_lap(NUM - 1, true);
	struct inject_packed_chain c[2];

	(void)state;
	assert_int_equal(inject_packed_build(&r, PACKED_WRONG_WRAP, NULL, cmd,
					     sizeof(cmd), c),
			 1);
	assert_int_equal(c[0].slot[0], NUM - 1);
	assert_int_equal(c[0].slot[1], 0);
	inject_packed_publish(&r, &c[0]);
	assert_int_equal(bits(NUM - 1), F_USED); /* lap 1's wrong bits */
	assert_int_equal(bits(0), F_AVAIL); /* lap 0's wrong bits */
	inject_packed_make_valid(&r, &c[0]);
	assert_true(device_sees_avail(NUM - 1, true));
	assert_true(device_sees_avail(0, false));
	assert_int_equal(r.pos, 1);
	assert_false(r.wrap);
}

static void flags_mismatch_sets_both_bits_to_the_lap(void **state)
{
	struct inject_packed_ring r = ring_after_a_lap(0, false);
	struct inject_packed_chain c[2];
	struct inject_chain_obs obs[2] = { 0 };
	bool bad;

	(void)state;
	assert_int_equal(inject_packed_build(&r, PACKED_FLAGS_MISMATCH, NULL,
					     cmd, sizeof(cmd), c),
			 1);
	inject_packed_publish(&r, &c[0]);
	assert_int_equal(bits(0), 0);
	assert_int_equal(bits(1), 0);
	/* It looks used on lap 0, but it is what the driver wrote. */
	inject_packed_collect(&r, 0, false, c, 1, obs, &bad);
	assert_false(obs[0].completed);
	assert_false(bad);
	/* The device answering with len 0 is a used element. */
	device_uses(0, false, 0, 0);
	inject_packed_collect(&r, 0, false, c, 1, obs, &bad);
	assert_true(obs[0].completed);
	assert_int_equal(obs[0].used_len, 0);

	r = ring_after_a_lap(2, true);
	assert_int_equal(inject_packed_build(&r, PACKED_FLAGS_MISMATCH, NULL,
					     cmd, sizeof(cmd), c),
			 1);
	inject_packed_publish(&r, &c[0]);
	assert_int_equal(bits(2), F_AVAIL | F_USED);
}

static void id_reuse_builds_two_chains_with_one_id(void **state)
{
	struct inject_packed_ring r = ring_after_a_lap(0, false);
	struct inject_packed_chain c[2];
	struct inject_chain_obs obs[2] = { 0 };
	bool bad;

	(void)state;
	assert_int_equal(inject_packed_build(&r, PACKED_ID_REUSE, NULL, cmd,
					     sizeof(cmd), c),
			 -EINVAL);
	assert_int_equal(inject_packed_build(&r, PACKED_ID_REUSE, first_cmd,
					     cmd, sizeof(cmd), c),
			 2);
	assert_int_equal(c[0].id, c[1].id);
	assert_int_equal(le16toh(m.desc[0].id), le16toh(m.desc[2].id));
	assert_int_equal(c[1].slot[0], 2);
	/* The first carries the first command, the second the case's. */
	assert_memory_equal(m.ro, first_cmd, sizeof(first_cmd));
	assert_int_equal(le64toh(m.desc[2].addr) - RO_IOVA, 16);
	assert_memory_equal(m.ro + 16, cmd, sizeof(cmd));
	assert_ptr_not_equal(c[0].ack, c[1].ack);
	inject_packed_publish(&r, &c[0]);
	inject_packed_publish(&r, &c[1]);
	assert_true(device_sees_avail(0, false));
	assert_true(device_sees_avail(2, false));

	/* Used elements with the shared id go to the chains in order. */
	device_uses(0, false, c[0].id, 1);
	inject_packed_collect(&r, 0, false, c, 2, obs, &bad);
	assert_true(obs[0].completed);
	assert_false(obs[1].completed);
	device_uses(2, false, c[0].id, 0);
	inject_packed_collect(&r, 0, false, c, 2, obs, &bad);
	assert_true(obs[1].completed);
	assert_int_equal(obs[1].used_len, 0);
	assert_false(bad);
}

static void collect_flags_ids_of_no_chain(void **state)
{
	struct inject_packed_ring r = ring_after_a_lap(0, false);
	struct inject_packed_chain c[2];
	struct inject_chain_obs obs[2] = { 0 };
	bool bad;

	(void)state;
	assert_int_equal(inject_packed_build(&r, PACKED_ID_RANGE, NULL, cmd,
					     sizeof(cmd), c),
			 1);
	inject_packed_publish(&r, &c[0]);
	inject_packed_collect(&r, 0, false, c, 1, obs, &bad);
	assert_false(obs[0].completed);
	device_uses(0, false, 3, 1);
	inject_packed_collect(&r, 0, false, c, 1, obs, &bad);
	assert_false(obs[0].completed);
	assert_true(bad);
	/* A used element on the wrong lap is not one. */
	device_uses(0, true, NUM, 1);
	inject_packed_collect(&r, 0, false, c, 1, obs, &bad);
	assert_false(obs[0].completed);
	assert_false(bad);
}

static void refuses_what_does_not_fit(void **state)
{
	struct inject_packed_ring r = ring_after_a_lap(0, false);
	struct inject_packed_chain c[2];

	(void)state;
	assert_int_equal(inject_packed_build(&r, PACKED_WRONG_WRAP, NULL, cmd,
					     1, c),
			 -EINVAL);
	assert_int_equal(inject_packed_build(&r, PACKED_FAULT_COUNT, NULL, cmd,
					     sizeof(cmd), c),
			 -EINVAL);
	r.areas.ack_size = 0;
	assert_int_equal(inject_packed_build(&r, PACKED_WRONG_WRAP, NULL, cmd,
					     sizeof(cmd), c),
			 -ENOSPC);
	r = ring_after_a_lap(0, false);
	r.areas.ro_size = 4;
	assert_int_equal(inject_packed_build(&r, PACKED_WRONG_WRAP, NULL, cmd,
					     sizeof(cmd), c),
			 -ENOSPC);
	assert_string_equal(inject_packed_fault_name(PACKED_ID_RANGE),
			    "buffer id = queue size");
	assert_string_equal(inject_packed_fault_name(PACKED_FAULT_COUNT),
			    "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chain_carries_the_command),
		cmocka_unit_test(wrong_wrap_writes_the_previous_laps_bits),
		cmocka_unit_test(chain_across_the_end),
		cmocka_unit_test(flags_mismatch_sets_both_bits_to_the_lap),
		cmocka_unit_test(id_reuse_builds_two_chains_with_one_id),
		cmocka_unit_test(collect_flags_ids_of_no_chain),
		cmocka_unit_test(refuses_what_does_not_fit),
	};

	return cmocka_run_group_tests_name("inject_ring_packed", tests, NULL,
					   NULL);
}
