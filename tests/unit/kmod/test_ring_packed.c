// SPDX-License-Identifier: GPL-2.0-only
/*
 * The packed-ring engine (kmod/engine/vsb_ring_packed.c) against a fake driver in
 * fake memory: setup checks, chains across the ring's end, ids completed
 * out of order, indirect tables, the packed-specific driver errors (flags
 * of the wrong lap, bad and reused ids), batched used descriptors, both
 * event suppression structures and the base vhost saves and restores.
 */

#include "unit.h"

#include "fake_packed.h"

/* Not a power of two: packed rings need not be. */
#define NUM 6

struct fixture {
	struct fmem *m;
	struct tpq q;
};

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->m = fmem_new();
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;

	tpq_fini(&f->q);
	fmem_free(f->m);
	free(f);
	return 0;
}

static struct tpq *queue(void **state, u16 num, bool event_idx, bool indirect)
{
	struct fixture *f = *state;

	tpq_fini(&f->q);
	tpq_init(&f->q, f->m, num, event_idx, indirect);
	return &f->q;
}

static struct fmem *mem(void **state)
{
	return ((struct fixture *)*state)->m;
}

static u64 buf(void **state, u32 len, unsigned int perm)
{
	return tbuf(mem(state), len, perm, 0x5a);
}

/* Pop one chain, complete it with @len, publish. */
static void serve(struct tpq *q, u16 id, u32 len)
{
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(q->chain.head, id);
	assert_int_equal(vsb_ring_push(&q->ring, id, len), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
}

/* ---- setup ---- */

static enum vsb_fault setup_with(void **state, u16 num, u64 desc, u64 drv,
				 u64 dev, u32 base)
{
	struct vsb_ring r = { .packed = true, .mem = mem(state)->mem };
	u16 ids[8];

	r.id_descs = ids;
	r.max_ids = ARRAY_SIZE(ids);
	return vsb_ring_setup(&r, num, desc, drv, dev, base);
}

static void test_setup_checks(void **state)
{
	const u32 fresh = VSB_RING_BASE_PACKED_FRESH;

	assert_int_equal(setup_with(state, 3, 0x1000, 0x2000, 0x3000, fresh),
			 VSB_FAULT_NONE);
	assert_int_equal(setup_with(state, 0, 0x1000, 0x2000, 0x3000, fresh),
			 VSB_FAULT_RING_CONFIG);
	/* More ids than the owner's table holds. */
	assert_int_equal(setup_with(state, 9, 0x1000, 0x2000, 0x3000, fresh),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(setup_with(state, 4, 0x1008, 0x2000, 0x3000, fresh),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(setup_with(state, 4, 0x1000, 0x2002, 0x3000, fresh),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(setup_with(state, 4, 0x1000, 0x2000, 0x3001, fresh),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(setup_with(state, 4, ~0ULL - 31, 0x2000, 0x3000,
				    fresh),
			 VSB_FAULT_RING_CONFIG);
	/* A base past the ring, on either side. */
	assert_int_equal(setup_with(state, 4, 0x1000, 0x2000, 0x3000, 0x8004),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(setup_with(state, 4, 0x1000, 0x2000, 0x3000,
				    0x80048000),
			 VSB_FAULT_RING_CONFIG);
}

static void test_setup_needs_id_table(void **state)
{
	struct vsb_ring r = { .packed = true, .mem = mem(state)->mem };

	assert_int_equal(vsb_ring_setup(&r, 4, 0x1000, 0x2000, 0x3000,
					VSB_RING_BASE_PACKED_FRESH),
			 VSB_FAULT_RING_CONFIG);
}

/* The descriptor ring and both event areas, and nothing beside them. */
static void test_holds_its_areas(void **state)
{
	struct vsb_ring r = { .packed = true, .mem = mem(state)->mem };
	u16 ids[8];

	r.id_descs = ids;
	r.max_ids = ARRAY_SIZE(ids);
	assert_int_equal(vsb_ring_setup(&r, 4, 0x1000, 0x2000, 0x3000,
					VSB_RING_BASE_PACKED_FRESH),
			 VSB_FAULT_NONE);
	assert_false(vsb_ring_holds(&r, 0xfff));
	assert_true(vsb_ring_holds(&r, 0x1000));
	assert_true(vsb_ring_holds(&r, 0x103f));
	assert_false(vsb_ring_holds(&r, 0x1040));
	assert_false(vsb_ring_holds(&r, 0x1fff));
	assert_true(vsb_ring_holds(&r, 0x2003));
	assert_false(vsb_ring_holds(&r, 0x2004));
	assert_true(vsb_ring_holds(&r, 0x3000));
	assert_false(vsb_ring_holds(&r, 0x3004));
	/* Refused: no areas. */
	assert_int_equal(vsb_ring_setup(&r, 9, 0x1000, 0x2000, 0x3000,
					VSB_RING_BASE_PACKED_FRESH),
			 VSB_FAULT_RING_CONFIG);
	assert_false(vsb_ring_holds(&r, 0x1000));
}

/* The device area says "kick me" once the ring starts. */
static void test_start_enables_kicks(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u16 off_wrap, flags;

	fpk_device_event(&q->drv, &off_wrap, &flags);
	assert_int_equal(flags, FPK_EV_ENABLE);
	assert_int_equal(off_wrap, 0);
}

/* ---- chains ---- */

static void test_single_and_chain(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 10, FMEM_RO), b = buf(state, 4, FMEM_RW);

	assert_int_equal(tpq_pop(q), 0);
	fpk_add(&q->drv, FBUFS(RD(a, 10), WR(b, 4)), 3);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(q->chain.head, 3);
	assert_int_equal(q->chain.nr_out, 1);
	assert_int_equal(q->chain.nr_in, 1);
	assert_int_equal(q->chain.out_len, 10);
	assert_int_equal(q->chain.in_len, 4);
	assert_int_equal(q->chain.segs[1].addr, b);
	assert_int_equal(tpq_pop(q), 0);

	assert_int_equal(vsb_ring_push(&q->ring, 3, 4), 0);
	/* Staged: the driver sees nothing before the publish. */
	fpk_expect_no_used(&q->drv);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fpk_expect_used(&q->drv, 3, 4);
	fpk_expect_no_used(&q->drv);
	assert_int_equal(q->ring.used_published, 1);
}

/* Chains of 1 to 4 descriptors across the ring's end, over many laps. */
static void test_laps(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 64, FMEM_RO), b = buf(state, 64, FMEM_RW);
	unsigned int i;

	for (i = 0; i < 40; i++) {
		struct fbuf bufs[4] = { RD(a, 1), RD(a + 1, 2), WR(b, 3),
					WR(b + 3, 4) };
		unsigned int n = 1 + i % 4;
		u16 id = i % NUM;

		/* Keep the order rule: readable ones first. */
		fpk_add(&q->drv, bufs + 4 - n, n, id);
		serve(q, id, 7);
		assert_int_equal(q->chain.nr_out + q->chain.nr_in, n);
		fpk_expect_used(&q->drv, id, 7);
	}
	fpk_expect_no_used(&q->drv);
	assert_int_equal(q->ring.fault, VSB_FAULT_NONE);
}

/* Used out of order: each used descriptor skips its own chain's length. */
static void test_out_of_order(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_add(&q->drv, FBUFS(RD(a, 1), RD(a, 2), RD(a, 3)), 0);
	fpk_add(&q->drv, FBUFS(RD(a, 4)), 1);
	fpk_add(&q->drv, FBUFS(RD(a, 5), RD(a, 6)), 2);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(tpq_pop(q), 0);
	assert_int_equal(vsb_ring_push(&q->ring, 2, 0), 0);
	assert_int_equal(vsb_ring_push(&q->ring, 0, 0), 0);
	assert_int_equal(vsb_ring_push(&q->ring, 1, 0), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fpk_expect_used(&q->drv, 2, 0);
	fpk_expect_used(&q->drv, 0, 0);
	fpk_expect_used(&q->drv, 1, 0);
	/* The ring is whole again: the next lap starts where it should. */
	fpk_add(&q->drv, FBUFS(RD(a, 1)), 5);
	serve(q, 5, 0);
	fpk_expect_used(&q->drv, 5, 0);
}

/* Pushing an id the device does not hold is the caller's bug. */
static void test_push_unknown_id(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);

	assert_int_equal(vsb_ring_push(&q->ring, 2, 0), -EINVAL);
	assert_int_equal(vsb_ring_push(&q->ring, NUM, 0), -EINVAL);
	assert_int_equal(q->ring.fault, VSB_FAULT_NONE);
}

/* More used buffers than one stage: written out as they come. */
static void test_stage_overflow(void **state)
{
	struct tpq *q = queue(state, FPK_MAX_NUM, false, false);
	u64 a = buf(state, 1, FMEM_RO);
	unsigned int i, n = VSB_RING_BATCH + 3;

	for (i = 0; i < n; i++)
		fpk_add(&q->drv, FBUFS(RD(a, 1)), i);
	for (i = 0; i < n; i++) {
		assert_int_equal(tpq_pop(q), 1);
		assert_int_equal(vsb_ring_push(&q->ring, i, 0), 0);
	}
	/* The first stage went out when the second began. */
	for (i = 0; i < VSB_RING_BATCH; i++)
		fpk_expect_used(&q->drv, i, 0);
	fpk_expect_no_used(&q->drv);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	for (; i < n; i++)
		fpk_expect_used(&q->drv, i, 0);
	fpk_expect_no_used(&q->drv);
}

/* A used buffer staged twice is the caller's bug too. */
static void test_push_twice(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_add(&q->drv, FBUFS(RD(a, 8)), 2);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(vsb_ring_push(&q->ring, 2, 0), 0);
	assert_int_equal(vsb_ring_push(&q->ring, 2, 0), -EINVAL);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fpk_expect_used(&q->drv, 2, 0);
	fpk_expect_no_used(&q->drv);
}

/*
 * A flush that fails part-way (the ring mapped partly read-only) changes
 * nothing: the next one writes the whole stage again at the same places.
 */
static void test_partial_flush_retry(void **state)
{
	struct tpq *q = queue(state, 8, false, false);
	struct fmem *m = mem(state);
	u64 a = buf(state, 8, FMEM_RO);
	int first, rest;

	fpk_add(&q->drv, FBUFS(RD(a, 8)), 0);
	fpk_add(&q->drv, FBUFS(RD(a, 8)), 1);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(vsb_ring_push(&q->ring, 0, 0), 0);
	assert_int_equal(vsb_ring_push(&q->ring, 1, 0), 0);
	fmem_unmap(m, q->drv.desc_rgn);
	first = fmem_map(m, q->drv.desc, 16, FMEM_RW);
	rest = fmem_map(m, q->drv.desc + 16, 7 * 16, FMEM_RO);
	assert_int_equal(vsb_ring_publish(&q->ring), -EIO);
	assert_int_equal(q->ring.fault, VSB_FAULT_RING_ACCESS);
	/* Both chains are still the device's. */
	assert_int_not_equal(q->ring.id_descs[0], 0);
	assert_int_not_equal(q->ring.id_descs[1], 0);
	/* Two descriptors taken, none used. */
	assert_int_equal(vsb_ring_base(&q->ring), 0x80008002);
	fpk_expect_no_used(&q->drv);

	fmem_set_perm(m, rest, FMEM_RW);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fpk_expect_used(&q->drv, 0, 0);
	fpk_expect_used(&q->drv, 1, 0);
	assert_int_equal(vsb_ring_base(&q->ring), 0x80028002);
	(void)first;
}

/* A ring set up wrong has no descriptors: nothing reaches the id table. */
static void test_refused_ring_uses_no_table(void **state)
{
	struct vsb_ring r = { .packed = true, .mem = mem(state)->mem };
	u16 *ids = calloc(4, sizeof(*ids));

	assert_non_null(ids);
	assert_int_equal(vsb_ring_setup(&r, 8, 0x1000, 0x2000, 0x3000,
					VSB_RING_BASE_PACKED_FRESH),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(vsb_ring_push(&r, 1, 0), -EINVAL);
	r.id_descs = ids;
	r.max_ids = 4;
	assert_int_equal(vsb_ring_setup(&r, 8, 0x1000, 0x2000, 0x3000,
					VSB_RING_BASE_PACKED_FRESH),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(vsb_ring_push(&r, 6, 0), -EINVAL);
	vsb_ring_set_base(&r, 0x80068006);
	free(ids);
}

/* "Packed virtqueues support up to 2^15 entries each." */
static void test_size_past_spec(void **state)
{
	struct vsb_ring r = { .packed = true, .mem = mem(state)->mem };
	u16 *ids = calloc(40000, sizeof(*ids));

	assert_non_null(ids);
	r.id_descs = ids;
	r.max_ids = 40000;
	assert_int_equal(vsb_ring_setup(&r, 40000, 0x1000, 0x2000, 0x3000,
					VSB_RING_BASE_PACKED_FRESH),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(vsb_ring_setup(&r, 0x8000, 0x1000, 0x2000, 0x3000,
					VSB_RING_BASE_PACKED_FRESH),
			 VSB_FAULT_NONE);
	free(ids);
}

/* ---- indirect tables ---- */

static void test_indirect(void **state)
{
	struct tpq *q = queue(state, NUM, false, true);
	u64 a = buf(state, 8, FMEM_RO), b = buf(state, 8, FMEM_RW);

	fpk_add_indirect(&q->drv, FBUFS(RD(a, 8), WR(b, 2), WR(b + 2, 6)), 4);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(q->chain.head, 4);
	assert_int_equal(q->chain.nr_out, 1);
	assert_int_equal(q->chain.nr_in, 2);
	assert_int_equal(q->chain.in_len, 8);
	assert_int_equal(vsb_ring_push(&q->ring, 4, 8), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fpk_expect_used(&q->drv, 4, 8);
}

static void test_indirect_not_negotiated(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_add_indirect(&q->drv, FBUFS(RD(a, 8)), 1);
	tpq_pop_fails(q, VSB_FAULT_INDIRECT_FEATURE);
	/* A bad buffer, not a bad structure: the chain comes back. */
	assert_int_equal(q->chain.head, 1);
	vsb_ring_return_chain(&q->ring, &q->chain);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fpk_expect_used(&q->drv, 1, 0);
}

/* An indirect descriptor inside a chain, and one with NEXT. */
static void test_indirect_in_chain(void **state)
{
	struct tpq *q = queue(state, NUM, false, true);
	u64 a = buf(state, 32, FMEM_RO);
	u16 wrap = fpk_avail_flags(true);

	fpk_write_desc(&q->drv, q->drv.desc, 1, a, 16, 2,
		       wrap | VRING_DESC_F_INDIRECT);
	fpk_write_desc(&q->drv, q->drv.desc, 0, a, 8, 0,
		       wrap | VRING_DESC_F_NEXT);
	tpq_pop_fails(q, VSB_FAULT_INDIRECT_NEXT);
	assert_int_equal(q->chain.head, 2);

	q = queue(state, NUM, false, true);
	fpk_write_desc(&q->drv, q->drv.desc, 1, a, 4, 3, wrap);
	fpk_write_desc(&q->drv, q->drv.desc, 0, a, 16, 0,
		       wrap | VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT);
	tpq_pop_fails(q, VSB_FAULT_INDIRECT_NEXT);
	assert_int_equal(q->chain.head, 3);
}

/* ---- driver errors ---- */

/* A descriptor with the flags of the previous lap is not available. */
static void test_wrong_wrap_ignored(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_write_desc(&q->drv, q->drv.desc, 0, a, 8, 0,
		       fpk_avail_flags(false));
	assert_int_equal(tpq_pop(q), 0);
	assert_int_equal(vsb_ring_poll(&q->ring), 0);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	assert_int_equal(q->ring.fault, VSB_FAULT_NONE);
	assert_int_equal(q->ring.last_avail, 0);
}

/* AVAIL and USED both at the driver's wrap: used in a lap not begun. */
static void test_head_flags_mismatch(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_write_desc(&q->drv, q->drv.desc, 0, a, 8, 0, FPK_AVAIL | FPK_USED);
	/* Polls say "look", so the pop reports it. */
	assert_int_equal(vsb_ring_poll(&q->ring), 1);
	tpq_pop_fails(q, VSB_FAULT_PACKED_FLAGS);
	assert_int_equal(q->chain.head, U16_MAX);
}

/* A chain's later descriptor not made available in its lap. */
static void test_chain_flags_mismatch(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_write_desc(&q->drv, q->drv.desc, 1, a, 4, 1,
		       fpk_avail_flags(false));
	fpk_write_desc(&q->drv, q->drv.desc, 0, a, 4, 0,
		       fpk_avail_flags(true) | VRING_DESC_F_NEXT);
	tpq_pop_fails(q, VSB_FAULT_PACKED_FLAGS);
	assert_int_equal(q->chain.head, U16_MAX);
}

/* Across the end, a chain's later descriptors carry the toggled wrap. */
static void test_chain_wrap_toggles(void **state)
{
	struct tpq *q = queue(state, 4, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_add(&q->drv, FBUFS(RD(a, 1), RD(a, 1), RD(a, 1)), 0);
	serve(q, 0, 0);
	fpk_expect_used(&q->drv, 0, 0);
	/* Positions 3, 0 and 1: the last two in the next lap. */
	fpk_add(&q->drv, FBUFS(RD(a, 1), RD(a, 2), RD(a, 3)), 1);
	assert_int_equal(fpk_desc_flags(&q->drv, 0) & (FPK_AVAIL | FPK_USED),
			 FPK_USED);
	serve(q, 1, 0);
	assert_int_equal(q->chain.out_len, 6);
	fpk_expect_used(&q->drv, 1, 0);
	assert_false(q->ring.avail_wrap);
}

static void test_id_out_of_range(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_write_desc(&q->drv, q->drv.desc, 0, a, 8, NUM,
		       fpk_avail_flags(true));
	tpq_pop_fails(q, VSB_FAULT_ID_RANGE);
	assert_int_equal(q->chain.head, U16_MAX);
}

/* A second chain with the id of one the device still holds. */
static void test_id_in_use(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_add(&q->drv, FBUFS(RD(a, 8)), 2);
	assert_int_equal(tpq_pop(q), 1);
	fpk_add(&q->drv, FBUFS(RD(a, 8)), 2);
	tpq_pop_fails(q, VSB_FAULT_ID_IN_USE);
	assert_int_equal(q->chain.head, U16_MAX);
	/* The first one can still complete. */
	assert_int_equal(vsb_ring_push(&q->ring, 2, 0), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fpk_expect_used(&q->drv, 2, 0);
}

/* Once used, an id is free again. */
static void test_id_reused_after_use(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_add(&q->drv, FBUFS(RD(a, 8)), 2);
	serve(q, 2, 0);
	fpk_expect_used(&q->drv, 2, 0);
	fpk_add(&q->drv, FBUFS(RD(a, 8)), 2);
	serve(q, 2, 0);
	fpk_expect_used(&q->drv, 2, 0);
}

/* Every descriptor chained to the next: longer than the ring. */
static void test_chain_loop(void **state)
{
	struct tpq *q = queue(state, 4, false, false);
	u64 a = buf(state, 8, FMEM_RO);
	u16 i;

	for (i = 0; i < 4; i++)
		fpk_write_desc(&q->drv, q->drv.desc, i, a, 1, i,
			       fpk_avail_flags(true) | VRING_DESC_F_NEXT);
	tpq_pop_fails(q, VSB_FAULT_CHAIN_LOOP);
}

/* A bad buffer mid-chain: the walk reaches the id, the chain comes back. */
static void test_bad_buffer_returns_chain(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO), b = buf(state, 8, FMEM_RW);

	fpk_add(&q->drv, FBUFS(WR(b, 4), RD(a, 4), RD(a, 1)), 5);
	tpq_pop_fails(q, VSB_FAULT_WRITE_ORDER);
	assert_int_equal(q->chain.head, 5);
	vsb_ring_return_chain(&q->ring, &q->chain);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fpk_expect_used(&q->drv, 5, 0);
}

static void test_ring_unmapped(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);

	fmem_unmap(mem(state), q->drv.desc_rgn);
	tpq_pop_fails(q, VSB_FAULT_RING_ACCESS);
}

/* ---- notifications ---- */

static void test_notify_enable_disable(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_add(&q->drv, FBUFS(RD(a, 8)), 0);
	serve(q, 0, 0);
	fpk_set_driver_event(&q->drv, 0, FPK_EV_ENABLE);
	assert_true(vsb_ring_need_notify(&q->ring));
	fpk_set_driver_event(&q->drv, 0, FPK_EV_DISABLE);
	assert_false(vsb_ring_need_notify(&q->ring));
	/* DESC without EVENT_IDX is the driver's mistake: notify anyway. */
	fpk_set_driver_event(&q->drv, 0x8005, FPK_EV_DESC);
	assert_true(vsb_ring_need_notify(&q->ring));
}

/* With EVENT_IDX: only once the named descriptor, in its lap, is used. */
static void test_notify_event_idx(void **state)
{
	struct tpq *q = queue(state, 4, true, false);
	u64 a = buf(state, 8, FMEM_RO);
	unsigned int i;

	/* Position 2 of the first lap (wrap 1). */
	fpk_set_driver_event(&q->drv, 0x8002, FPK_EV_DESC);
	for (i = 0; i < 2; i++) {
		fpk_add(&q->drv, FBUFS(RD(a, 1)), i);
		serve(q, i, 0);
		assert_false(vsb_ring_need_notify(&q->ring));
	}
	fpk_add(&q->drv, FBUFS(RD(a, 1)), 2);
	serve(q, 2, 0);
	assert_true(vsb_ring_need_notify(&q->ring));

	/* Position 1 of the next lap (wrap 0), passed by a chain of 3. */
	fpk_set_driver_event(&q->drv, 0x0001, FPK_EV_DESC);
	fpk_add(&q->drv, FBUFS(RD(a, 1)), 3);
	serve(q, 3, 0);
	assert_false(vsb_ring_need_notify(&q->ring));
	fpk_add(&q->drv, FBUFS(RD(a, 1), RD(a, 1), RD(a, 1)), 0);
	serve(q, 0, 0);
	assert_true(vsb_ring_need_notify(&q->ring));
	/* An offset past the ring names no descriptor. */
	fpk_set_driver_event(&q->drv, 0x0009, FPK_EV_DESC);
	fpk_add(&q->drv, FBUFS(RD(a, 1)), 1);
	serve(q, 1, 0);
	assert_false(vsb_ring_need_notify(&q->ring));
}

/* ---- kicks ---- */

static void test_kicks_off_and_on(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);
	u16 off_wrap, flags;

	assert_int_equal(vsb_ring_disable_kicks(&q->ring), 0);
	fpk_device_event(&q->drv, &off_wrap, &flags);
	assert_int_equal(flags, FPK_EV_DISABLE);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	fpk_device_event(&q->drv, &off_wrap, &flags);
	assert_int_equal(flags, FPK_EV_ENABLE);

	/* Something came while kicks were off: the re-arm says so. */
	assert_int_equal(vsb_ring_disable_kicks(&q->ring), 0);
	fpk_add(&q->drv, FBUFS(RD(a, 8)), 0);
	assert_int_equal(vsb_ring_poll(&q->ring), 1);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 1);
}

static void test_kicks_event_idx(void **state)
{
	struct tpq *q = queue(state, 4, true, false);
	u64 a = buf(state, 8, FMEM_RO);
	u16 off_wrap, flags;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		fpk_add(&q->drv, FBUFS(RD(a, 1)), i % 4);
		serve(q, i % 4, 0);
	}
	/* Next: position 1 in the second lap, wrap 0. */
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	fpk_device_event(&q->drv, &off_wrap, &flags);
	assert_int_equal(flags, FPK_EV_DESC);
	assert_int_equal(off_wrap, 0x0001);
}

/* ---- announcements and base ---- */

/* The descriptor after a chain, read along with it, hints at more. */
static void test_announced_hint(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO);

	fpk_add(&q->drv, FBUFS(RD(a, 8)), 0);
	fpk_add(&q->drv, FBUFS(RD(a, 8)), 1);
	assert_int_equal(tpq_pop(q), 1);
	assert_true(vsb_ring_has_announced(&q->ring));
	assert_int_equal(tpq_pop(q), 1);
	assert_false(vsb_ring_has_announced(&q->ring));
	assert_int_equal(tpq_pop(q), 0);
}

/* After a longer chain the next descriptor is read for the hint. */
static void test_announced_after_chain(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO), b = buf(state, 8, FMEM_RW);

	fpk_add(&q->drv, FBUFS(RD(a, 2), RD(a, 6), WR(b, 1)), 0);
	fpk_add(&q->drv, FBUFS(RD(a, 2), WR(b, 1)), 1);
	assert_int_equal(tpq_pop(q), 1);
	assert_true(vsb_ring_has_announced(&q->ring));
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(q->chain.head, 1);
	assert_false(vsb_ring_has_announced(&q->ring));
	assert_int_equal(tpq_pop(q), 0);
}

/*
 * A second chain with the first's id, both offered before the device
 * completes either: the look-ahead takes it while the first is held.
 */
static void test_id_reuse_in_one_batch(void **state)
{
	struct tpq *q = queue(state, NUM, false, false);
	u64 a = buf(state, 8, FMEM_RO), b = buf(state, 8, FMEM_RW);

	fpk_add(&q->drv, FBUFS(RD(a, 2), WR(b, 1)), 4);
	q->drv.chain_len[4] = 0;
	fpk_add(&q->drv, FBUFS(RD(a, 2), WR(b, 1)), 4);
	assert_int_equal(tpq_pop(q), 1);
	assert_int_equal(vsb_ring_push(&q->ring, 4, 1), 0);
	assert_true(vsb_ring_has_announced(&q->ring));
	tpq_pop_fails(q, VSB_FAULT_ID_IN_USE);
}

static void test_base_round_trip(void **state)
{
	struct tpq *q = queue(state, 4, false, false);
	u64 a = buf(state, 8, FMEM_RO);
	unsigned int i;

	assert_int_equal(vsb_ring_base(&q->ring), VSB_RING_BASE_PACKED_FRESH);
	for (i = 0; i < 5; i++) {
		fpk_add(&q->drv, FBUFS(RD(a, 1)), i % 4);
		serve(q, i % 4, 0);
		fpk_expect_used(&q->drv, i % 4, 0);
	}
	/* Position 1, wrap 0, on both sides. */
	assert_int_equal(vsb_ring_base(&q->ring), 0x00010001);

	/* A new ring restored to that state carries on from it. */
	q = queue(state, 4, false, false);
	q->drv.next_avail = 1;
	q->drv.next_used = 1;
	q->drv.avail_wrap = false;
	q->drv.used_wrap = false;
	vsb_ring_set_base(&q->ring, 0x00010001);
	assert_int_equal(q->ring.last_avail, 1);
	assert_false(q->ring.avail_wrap);
	fpk_add(&q->drv, FBUFS(RD(a, 1)), 3);
	serve(q, 3, 0);
	fpk_expect_used(&q->drv, 3, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) \
	cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)
		T(test_setup_checks),
		T(test_setup_needs_id_table),
		T(test_holds_its_areas),
		T(test_start_enables_kicks),
		T(test_single_and_chain),
		T(test_laps),
		T(test_out_of_order),
		T(test_push_unknown_id),
		T(test_stage_overflow),
		T(test_push_twice),
		T(test_partial_flush_retry),
		T(test_refused_ring_uses_no_table),
		T(test_size_past_spec),
		T(test_indirect),
		T(test_indirect_not_negotiated),
		T(test_indirect_in_chain),
		T(test_wrong_wrap_ignored),
		T(test_head_flags_mismatch),
		T(test_chain_flags_mismatch),
		T(test_chain_wrap_toggles),
		T(test_id_out_of_range),
		T(test_id_in_use),
		T(test_id_reused_after_use),
		T(test_chain_loop),
		T(test_bad_buffer_returns_chain),
		T(test_ring_unmapped),
		T(test_notify_enable_disable),
		T(test_notify_event_idx),
		T(test_kicks_off_and_on),
		T(test_kicks_event_idx),
		T(test_announced_hint),
		T(test_announced_after_chain),
		T(test_id_reuse_in_one_batch),
		T(test_base_round_trip),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
