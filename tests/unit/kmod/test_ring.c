// SPDX-License-Identifier: GPL-2.0-only
/*
 * The split-ring engine (kmod/engine/vsb_ring.c) against a fake driver in fake
 * memory: ring setup checks, chain walks, every descriptor fault of the
 * bad-input matrix (bad-input.md, section 2), used ring updates and both
 * notification suppression schemes.
 */

#include "unit.h"

#include "fake_driver.h"

#define NUM 8

struct fixture {
	struct fmem *m;
	struct tq q;
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

	tq_fini(&f->q);
	fmem_free(f->m);
	free(f);
	return 0;
}

/* (Re)create the fixture's queue. */
static struct tq *queue(void **state, u16 num, u16 start, bool event_idx,
			bool indirect)
{
	struct fixture *f = *state;

	tq_fini(&f->q);
	tq_init(&f->q, f->m, num, start, event_idx, indirect);
	return &f->q;
}

static struct fmem *mem(void **state)
{
	return ((struct fixture *)*state)->m;
}

/* Device writes to the region fmem_alloc_addr() returned addr for. */
static unsigned int writes_at(void **state, u64 addr)
{
	return fmem_writes(mem(state), fmem_region_of(mem(state), addr));
}

static void assert_seg(const struct vsb_chain *c, unsigned int i, u64 addr,
		       u32 len)
{
	assert_int_equal(c->segs[i].addr, addr);
	assert_int_equal(c->segs[i].len, len);
}

/* Complete what the failed pop left, publish, and check the used entry. */
static void assert_head_returned(struct tq *q, u16 head)
{
	assert_int_equal(q->chain.head, head);
	vsb_ring_return_chain(&q->ring, &q->chain);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fdrv_expect_used(&q->drv, head, 0);
	fdrv_expect_no_used(&q->drv);
}

/* ---- vsb_ring_setup ---- */

static enum vsb_fault try_setup(u16 num, u64 desc, u64 avail, u64 used)
{
	struct vsb_ring r = { 0 };

	return vsb_ring_setup(&r, num, desc, avail, used, 0);
}

static void setup_rejects_num_zero(void **state)
{
	(void)state;
	assert_int_equal(try_setup(0, 0x1000, 0x2000, 0x3000),
			 VSB_FAULT_RING_CONFIG);
}

static void setup_rejects_num_not_power_of_2(void **state)
{
	static const u16 bad[] = { 3,	5,   6,	     7,	     12,
				   100, 255, 0x7fff, 0x8001, 0xffff };
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(try_setup(bad[i], 0x1000, 0x2000, 0x3000),
				 VSB_FAULT_RING_CONFIG);
	for (i = 0; i <= 15; i++)
		assert_int_equal(try_setup(1U << i, 0x100000, 0x200000,
					   0x300000),
				 VSB_FAULT_NONE);
}

static void setup_rejects_misaligned_rings(void **state)
{
	(void)state;
	/* desc: 16 bytes, avail: 2, used: 4 ("Virtqueues") */
	assert_int_equal(try_setup(8, 0x1008, 0x2000, 0x3000),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(try_setup(8, 0x1001, 0x2000, 0x3000),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(try_setup(8, 0x1000, 0x2001, 0x3000),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(try_setup(8, 0x1000, 0x2000, 0x3002),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(try_setup(8, 0x1000, 0x2000, 0x3001),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(try_setup(8, 0x1010, 0x2002, 0x3004), VSB_FAULT_NONE);
}

static void setup_rejects_wrapping_ranges(void **state)
{
	const u64 top = UINT64_MAX;

	(void)state;
	/* desc: 16 * num bytes; the last ones may end exactly at the top */
	assert_int_equal(try_setup(1, top - 15, 0x2000, 0x3000),
			 VSB_FAULT_NONE);
	assert_int_equal(try_setup(2, top - 15, 0x2000, 0x3000),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(try_setup(32768, top - 0x7ffff, 0x2000, 0x3000),
			 VSB_FAULT_NONE);
	assert_int_equal(try_setup(32768, top - 0x7ffff + 16, 0x2000, 0x3000),
			 VSB_FAULT_RING_CONFIG);
	/* avail: 4 + 2 * num + 2 bytes */
	assert_int_equal(try_setup(1, 0x1000, top - 7, 0x3000), VSB_FAULT_NONE);
	assert_int_equal(try_setup(1, 0x1000, top - 5, 0x3000),
			 VSB_FAULT_RING_CONFIG);
	/* used: 4 + 8 * num + 2 bytes */
	assert_int_equal(try_setup(1, 0x1000, 0x2000, top - 15),
			 VSB_FAULT_NONE);
	assert_int_equal(try_setup(1, 0x1000, 0x2000, top - 11),
			 VSB_FAULT_RING_CONFIG);
}

static void setup_failure_blocks_pop_without_memory_access(void **state)
{
	struct vsb_ring r = { .mem = mem(state)->mem };
	struct vsb_seg seg;
	struct vsb_chain c = { .segs = &seg, .max_segs = 1 };

	assert_int_equal(vsb_ring_setup(&r, 3, 0x1000, 0x2000, 0x3000, 0),
			 VSB_FAULT_RING_CONFIG);
	assert_int_equal(vsb_ring_pop(&r, &c), -EIO);
	assert_int_equal(c.head, U16_MAX);
	assert_int_equal(vsb_ring_enable_kicks(&r), -EIO);
	/* nothing is mapped: any access would have been refused */
	assert_int_equal(mem(state)->failed, 0);
}

/* ---- vsb_ring_holds ---- */

/* Each area's first and last byte, and the bytes either side of it. */
static void holds_the_three_areas_alone(void **state)
{
	struct vsb_ring r = { 0 };

	(void)state;
	assert_false(vsb_ring_holds(&r, 0));
	assert_int_equal(vsb_ring_setup(&r, 8, 0x1000, 0x2000, 0x3000, 0),
			 VSB_FAULT_NONE);
	/* desc: 16 * 8 bytes */
	assert_false(vsb_ring_holds(&r, 0xfff));
	assert_true(vsb_ring_holds(&r, 0x1000));
	assert_true(vsb_ring_holds(&r, 0x107f));
	assert_false(vsb_ring_holds(&r, 0x1080));
	/* avail: 4 + 2 * 8 + 2 bytes */
	assert_false(vsb_ring_holds(&r, 0x1fff));
	assert_true(vsb_ring_holds(&r, 0x2000));
	assert_true(vsb_ring_holds(&r, 0x2015));
	assert_false(vsb_ring_holds(&r, 0x2016));
	/* used: 4 + 8 * 8 + 2 bytes */
	assert_false(vsb_ring_holds(&r, 0x2fff));
	assert_true(vsb_ring_holds(&r, 0x3000));
	assert_true(vsb_ring_holds(&r, 0x3045));
	assert_false(vsb_ring_holds(&r, 0x3046));
	assert_false(vsb_ring_holds(&r, UINT64_MAX));
}

/* A ring refused at setup has no areas to keep. */
static void holds_nothing_of_a_refused_ring(void **state)
{
	struct vsb_ring r = { 0 };

	(void)state;
	assert_int_equal(vsb_ring_setup(&r, 3, 0x1000, 0x2000, 0x3000, 0),
			 VSB_FAULT_RING_CONFIG);
	assert_false(vsb_ring_holds(&r, 0x1000));
	assert_false(vsb_ring_holds(&r, 0x2000));
	assert_false(vsb_ring_holds(&r, 0x3000));
}

/* ---- the ring's areas in place (vsb_mem.h) ---- */

/* List the queue's three areas as the host's direct windows. */
static void areas_in_place(void **state, struct tq *q)
{
	unsigned int i;
	u64 start, len;

	for (i = 0; i < VSB_RING_AREAS; i++) {
		assert_true(vsb_ring_area(&q->ring, i, &start, &len));
		q->ring.mem.direct[i] = (struct vsb_mem_direct){
			.start = start,
			.len = len,
			.ptr = fmem_ptr(mem(state), start, len),
			.writable = true,
		};
	}
	q->ring.mem.direct_on = true;
}

/*
 * Chains taken, completed and published through the areas in place: the
 * driver sees the same used entries, and no access to the ring's own
 * memory goes through the memory's ops (which count every access), while
 * the buffers still do. Turned off, the ops serve the ring again.
 */
static void ring_in_place_reaches_no_ops(void **state)
{
	struct tq *q = queue(state, NUM, NUM - 2, true, false);
	u64 data = fmem_alloc_addr(mem(state), 10, 1, FMEM_RW);
	u8 buf[10];
	u16 head, i;

	areas_in_place(state, q);
	fmem_reset_counts(mem(state));
	for (i = 0; i < 3 * NUM; i++) {
		head = fdrv_add_chain(&q->drv, FBUFS(RD(data, 10)));
		assert_int_equal(tq_pop(q), 1);
		assert_int_equal(q->chain.head, head);
		assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 0, buf,
						sizeof(buf)),
				 0);
		vsb_ring_return_chain(&q->ring, &q->chain);
		assert_int_equal(vsb_ring_publish(&q->ring), 0);
		fdrv_expect_used(&q->drv, head, 0);
		fdrv_expect_no_used(&q->drv);
	}
	assert_int_equal(fmem_reads(mem(state), q->drv.desc_rgn), 0);
	assert_int_equal(fmem_reads(mem(state), q->drv.avail_rgn), 0);
	assert_int_equal(fdrv_used_writes(&q->drv), 0);
	assert_int_equal(fmem_reads(mem(state),
				    fmem_region_of(mem(state), data)),
			 3 * NUM);

	q->ring.mem.direct_on = false;
	head = fdrv_add_chain(&q->drv, FBUFS(RD(data, 10)));
	assert_int_equal(tq_pop(q), 1);
	vsb_ring_return_chain(&q->ring, &q->chain);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	fdrv_expect_used(&q->drv, head, 0);
	assert_true(fmem_reads(mem(state), q->drv.avail_rgn) > 0);
	assert_true(fdrv_used_writes(&q->drv) > 0);
}

/* An access reaching past an area's end is not served in place. */
static void access_past_an_area_takes_the_ops(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	struct vsb_mem_direct *used = &q->ring.mem.direct[2];
	u8 b[4];

	areas_in_place(state, q);
	fmem_reset_counts(mem(state));
	assert_int_equal(vsb_mem_read(&q->ring.mem, used->start, b, 4), 0);
	assert_int_equal(vsb_mem_read(&q->ring.mem, used->start + used->len - 2,
				      b, 2),
			 0);
	assert_int_equal(fdrv_used_writes(&q->drv) +
				 fmem_reads(mem(state), q->drv.used_hdr_rgn) +
				 fmem_reads(mem(state), q->drv.avail_event_rgn),
			 0);
	vsb_mem_read(&q->ring.mem, used->start + used->len - 2, b, 4);
	assert_int_equal(fmem_reads(mem(state), q->drv.avail_event_rgn) +
				 mem(state)->failed,
			 1);
}

/* ---- vsb_ring_pop: valid chains ---- */

static void pop_empty_ring_returns_0(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fmem_reset_counts(mem(state));
	assert_int_equal(tq_pop(q), 0);
	assert_int_equal(q->chain.head, U16_MAX);
	assert_int_equal(q->ring.fault, VSB_FAULT_NONE);
	assert_int_equal(fmem_reads(mem(state), q->drv.desc_rgn), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	assert_int_equal(fdrv_used_writes(&q->drv), 0);
	fdrv_expect_no_used(&q->drv);
}

static void pop_readable_chain(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u64 a = 0x1000, b = 0x2000, c = 0x30000;
	u16 head =
		fdrv_add_chain(&q->drv, FBUFS(RD(a, 10), RD(b, 20), RD(c, 30)));

	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.head, head);
	assert_int_equal(q->chain.nr_out, 3);
	assert_int_equal(q->chain.nr_in, 0);
	assert_int_equal(q->chain.out_len, 60);
	assert_int_equal(q->chain.in_len, 0);
	assert_seg(&q->chain, 0, a, 10);
	assert_seg(&q->chain, 1, b, 20);
	assert_seg(&q->chain, 2, c, 30);
	assert_int_equal(tq_pop(q), 0);
}

static void pop_writable_chain(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u64 a = 0x123450, b = 0x7777;

	fdrv_add_chain(&q->drv, FBUFS(WR(a, 1500), WR(b, 1)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.nr_out, 0);
	assert_int_equal(q->chain.nr_in, 2);
	assert_int_equal(q->chain.out_len, 0);
	assert_int_equal(q->chain.in_len, 1501);
	assert_seg(&q->chain, 0, a, 1500);
	assert_seg(&q->chain, 1, b, 1);
}

static void pop_mixed_chain_readable_first(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 2), RD(0x2000, 6),
				      WR(0x3000, 1), WR(0x4000, 4)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.nr_out, 2);
	assert_int_equal(q->chain.nr_in, 2);
	assert_int_equal(q->chain.out_len, 8);
	assert_int_equal(q->chain.in_len, 5);
	assert_seg(&q->chain, 0, 0x1000, 2);
	assert_seg(&q->chain, 1, 0x2000, 6);
	assert_seg(&q->chain, 2, 0x3000, 1);
	assert_seg(&q->chain, 3, 0x4000, 4);
}

static void chain_of_num_descriptors_accepted(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	struct fbuf bufs[NUM];
	unsigned int i;

	for (i = 0; i < NUM; i++)
		bufs[i] = (struct fbuf){ 0x1000 * (i + 1), 100, i >= NUM / 2 };
	fdrv_add_chain(&q->drv, bufs, NUM);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.nr_out, NUM / 2);
	assert_int_equal(q->chain.nr_in, NUM / 2);
	assert_int_equal(q->chain.out_len + q->chain.in_len, 100 * NUM);
}

/* Direct: num + 1 descriptors in a table of num must revisit one. */
static void chain_of_num_plus_1_direct_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 i;

	for (i = 0; i < NUM; i++)
		fdrv_set_desc(&q->drv, i, 0x1000, 4, VRING_DESC_F_NEXT,
			      (i + 1) % NUM);
	fdrv_make_avail(&q->drv, 0);
	fmem_reset_counts(mem(state));
	tq_pop_fails(q, VSB_FAULT_CHAIN_LOOP);
	assert_in_range(fmem_reads(mem(state), q->drv.desc_rgn), 1, NUM);
	assert_int_equal(mem(state)->failed, 0);
	assert_head_returned(q, 0);
}

/* Through an indirect table: num + 1 buffers in all. */
static void chain_of_num_plus_1_indirect_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);
	struct fbuf bufs[NUM];
	u64 table;
	unsigned int i;

	for (i = 0; i < NUM; i++)
		bufs[i] = (struct fbuf){ 0x1000, 4, false };
	table = fdrv_build_table(&q->drv, 0, bufs, NUM);
	fdrv_set_desc(&q->drv, 0, 0x1000, 4, VRING_DESC_F_NEXT, 1);
	fdrv_set_desc(&q->drv, 1, table, 16 * NUM, VRING_DESC_F_INDIRECT, 0);
	fdrv_make_avail(&q->drv, 0);
	tq_pop_fails(q, VSB_FAULT_CHAIN_LONG);
	assert_head_returned(q, 0);
}

static void zero_length_descriptor_harmless(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 10), RD(0x2000, 0),
				      WR(0x3000, 0), WR(0x4000, 8)));
	fdrv_add_chain(&q->drv, FBUFS(RD(0x5000, 0)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.nr_out, 1);
	assert_int_equal(q->chain.nr_in, 1);
	assert_int_equal(q->chain.out_len, 10);
	assert_int_equal(q->chain.in_len, 8);
	assert_seg(&q->chain, 0, 0x1000, 10);
	assert_seg(&q->chain, 1, 0x4000, 8);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.nr_out + q->chain.nr_in, 0);
	assert_int_equal(q->chain.out_len + q->chain.in_len, 0);
	assert_int_equal(q->ring.fault, VSB_FAULT_NONE);
}

/* ---- vsb_ring_pop: descriptor faults ---- */

static void next_to_itself_is_loop_with_bounded_work(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_set_desc(&q->drv, 0, 0x1000, 4, VRING_DESC_F_NEXT, 0);
	fdrv_make_avail(&q->drv, 0);
	fmem_reset_counts(mem(state));
	tq_pop_fails(q, VSB_FAULT_CHAIN_LOOP);
	assert_in_range(fmem_reads(mem(state), q->drv.desc_rgn), 1, NUM);
	assert_in_range(q->chain.nr_out, 0, NUM);
	assert_head_returned(q, 0);
}

/* Zero-length descriptors add no buffer but still count as steps. */
static void loop_of_zero_length_descriptors_bounded(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_set_desc(&q->drv, 3, 0x1000, 0, VRING_DESC_F_NEXT, 4);
	fdrv_set_desc(&q->drv, 4, 0x1000, 0, VRING_DESC_F_NEXT, 3);
	fdrv_make_avail(&q->drv, 3);
	fmem_reset_counts(mem(state));
	tq_pop_fails(q, VSB_FAULT_CHAIN_LOOP);
	assert_in_range(fmem_reads(mem(state), q->drv.desc_rgn), 1, NUM);
	assert_head_returned(q, 3);
}

static void next_out_of_range_rejected(void **state)
{
	static const u16 next[] = { NUM, NUM + 1, 0x8000, 0xffff };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(next); i++) {
		struct tq *q = queue(state, NUM, 0, false, false);

		fdrv_set_desc(&q->drv, 0, 0x1000, 4, VRING_DESC_F_NEXT,
			      next[i]);
		fdrv_make_avail(&q->drv, 0);
		fmem_reset_counts(mem(state));
		tq_pop_fails(q, VSB_FAULT_NEXT_RANGE);
		assert_int_equal(fmem_reads(mem(state), q->drv.desc_rgn), 1);
		assert_head_returned(q, 0);
	}
}

static void head_out_of_range_rejected_without_used_entry(void **state)
{
	static const u16 head[] = { NUM, 0x100, 0xffff };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(head); i++) {
		struct tq *q = queue(state, NUM, 0, false, false);

		fdrv_make_avail(&q->drv, head[i]);
		fmem_reset_counts(mem(state));
		tq_pop_fails(q, VSB_FAULT_HEAD_RANGE);
		assert_int_equal(q->chain.head, U16_MAX);
		assert_int_equal(q->ring.last_avail, 0);
		/* no descriptor read, in the table or past it */
		assert_int_equal(fmem_reads(mem(state), q->drv.desc_rgn), 0);
		assert_int_equal(mem(state)->failed, 0);
		vsb_ring_return_chain(&q->ring, &q->chain);
		assert_int_equal(vsb_ring_publish(&q->ring), 0);
		assert_int_equal(fdrv_used_writes(&q->drv), 0);
		fdrv_expect_no_used(&q->drv);
	}
}

/* A bad head among good ones the device may have read in one go. */
static void head_out_of_range_after_good_heads(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 a = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 1)));
	u16 b = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 2)));

	fdrv_make_avail(&q->drv, NUM + 3);
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.head, a);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.head, b);
	tq_pop_fails(q, VSB_FAULT_HEAD_RANGE);
	assert_int_equal(q->chain.head, U16_MAX);
	assert_int_equal(q->ring.last_avail, 2);
	tq_pop_fails(q, VSB_FAULT_HEAD_RANGE);
	assert_int_equal(q->ring.last_avail, 2);
}

/*
 * Chains close together in the table, as a driver's free list keeps them:
 * their descriptors come in one access, read along with the heads.
 */
static void close_chains_read_table_once(void **state)
{
	struct tq *q = queue(state, 64, 0, false, false);
	u16 heads[4];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(heads); i++)
		heads[i] = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000 + i, 8),
							 WR(0x2000 + i, 1)));
	fmem_reset_counts(mem(state));
	for (i = 0; i < ARRAY_SIZE(heads); i++) {
		assert_int_equal(tq_pop(q), 1);
		assert_int_equal(q->chain.head, heads[i]);
		assert_seg(&q->chain, 0, 0x1000 + i, 8);
		assert_seg(&q->chain, 1, 0x2000 + i, 1);
	}
	assert_int_equal(fmem_reads(mem(state), q->drv.desc_rgn), 1);
}

/* Chains too far apart for one read: each is read on its own. */
static void far_chains_read_alone(void **state)
{
	struct tq *q = queue(state, 256, 0, false, false);

	fdrv_set_desc(&q->drv, 0, 0x1000, 8, VRING_DESC_F_NEXT, 1);
	fdrv_set_desc(&q->drv, 1, 0x2000, 1, VRING_DESC_F_WRITE, 0);
	fdrv_set_desc(&q->drv, 200, 0x3000, 8, VRING_DESC_F_NEXT, 201);
	fdrv_set_desc(&q->drv, 201, 0x4000, 1, VRING_DESC_F_WRITE, 0);
	fdrv_make_avail(&q->drv, 0);
	fdrv_make_avail(&q->drv, 200);
	fmem_reset_counts(mem(state));
	assert_int_equal(tq_pop(q), 1);
	assert_seg(&q->chain, 1, 0x2000, 1);
	assert_int_equal(tq_pop(q), 1);
	assert_seg(&q->chain, 0, 0x3000, 8);
	assert_seg(&q->chain, 1, 0x4000, 1);
	assert_int_equal(fmem_reads(mem(state), q->drv.desc_rgn), 2);
}

/*
 * Descriptors the driver reuses once their chain is used are read again
 * with the heads that make them available again, never taken from an
 * earlier read.
 */
static void reused_descriptors_read_again(void **state)
{
	struct tq *q = queue(state, 64, 0, false, false);
	u16 a = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 8), WR(0x2000, 1)));
	u16 b = fdrv_add_chain(&q->drv, FBUFS(RD(0x3000, 8), WR(0x4000, 1)));

	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_ring_push(&q->ring, a, 1), 0);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_ring_push(&q->ring, b, 1), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	/* Both used: the driver puts new buffers in a's descriptors. */
	fdrv_set_desc(&q->drv, a, 0x5000, 8, VRING_DESC_F_NEXT, a + 1);
	fdrv_set_desc(&q->drv, a + 1, 0x6000, 1, VRING_DESC_F_WRITE, 0);
	fdrv_make_avail(&q->drv, a);
	fdrv_make_avail(&q->drv, b);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.head, a);
	assert_seg(&q->chain, 0, 0x5000, 8);
	assert_seg(&q->chain, 1, 0x6000, 1);
}

static void avail_idx_more_than_num_ahead_rejected(void **state)
{
	static const u16 ahead[] = { NUM + 1, 0x8000, 0xffff /* behind */ };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ahead); i++) {
		struct tq *q = queue(state, NUM, 100, false, false);

		fdrv_set_avail_idx(&q->drv, 100 + ahead[i]);
		tq_pop_fails(q, VSB_FAULT_AVAIL_IDX);
		assert_int_equal(q->chain.head, U16_MAX);
		assert_int_equal(q->ring.last_avail, 100);
	}
}

static void avail_idx_exactly_num_ahead_accepted(void **state)
{
	struct tq *q = queue(state, NUM, 100, false, false);
	unsigned int i;

	for (i = 0; i < NUM; i++)
		fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 1)));
	for (i = 0; i < NUM; i++)
		assert_int_equal(tq_pop(q), 1);
	assert_int_equal(tq_pop(q), 0);
}

static void readable_after_writable_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 head = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4), WR(0x2000, 4),
						 RD(0x3000, 4)));

	tq_pop_fails(q, VSB_FAULT_WRITE_ORDER);
	assert_head_returned(q, head);
}

/*
 * A zero-length writable descriptor is still writable ("Message
 * Framing"): a readable one after it breaks the order. (The engine once
 * tracked order by the number of writable buffers, which a zero-length
 * one does not raise.)
 */
static void readable_after_zero_length_writable_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4), WR(0x2000, 0),
				      RD(0x3000, 4), WR(0x4000, 4)));
	tq_pop_fails(q, VSB_FAULT_WRITE_ORDER);
}

static void addr_plus_len_wrap_rejected(void **state)
{
	const u64 top = UINT64_MAX;
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 head;

	/* ends exactly at the top of the address space: fine */
	fdrv_add_chain(&q->drv, FBUFS(RD(top - 9, 10)));
	fdrv_add_chain(&q->drv, FBUFS(WR(top, 1)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(tq_pop(q), 1);
	/* one byte more wraps */
	head = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4), RD(top - 9, 11)));
	tq_pop_fails(q, VSB_FAULT_ADDR_WRAP);
	assert_head_returned(q, head);

	q = queue(state, NUM, 0, false, false);
	head = fdrv_add_chain(&q->drv, FBUFS(WR(top, 2)));
	tq_pop_fails(q, VSB_FAULT_ADDR_WRAP);
	assert_head_returned(q, head);
}

static void chain_bytes_over_u32_max_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 head;

	/* U32_MAX bytes in all is the most a chain can carry */
	fdrv_add_chain(&q->drv,
		       FBUFS(RD(0x1000, 0x80000000U), RD(0x1000, 0x7fffffffU)));
	fdrv_add_chain(&q->drv, FBUFS(WR(0x1000, UINT32_MAX)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.out_len, UINT32_MAX);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.in_len, UINT32_MAX);

	head = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 0x80000000U),
					     RD(0x1000, 0x80000000U)));
	tq_pop_fails(q, VSB_FAULT_CHAIN_BYTES);
	assert_head_returned(q, head);

	q = queue(state, NUM, 0, false, false);
	head = fdrv_add_chain(&q->drv,
			      FBUFS(WR(0x1000, 1), WR(0x1000, UINT32_MAX)));
	tq_pop_fails(q, VSB_FAULT_CHAIN_BYTES);
	assert_head_returned(q, head);
}

/*
 * The spec caps a whole chain, readable and writable bytes together, at
 * 2^32 ("The Virtqueue Descriptor Table"). (The engine once summed the two
 * directions separately and took 8 GiB - 2.)
 */
static void chain_bytes_counts_both_directions(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_add_chain(&q->drv,
		       FBUFS(RD(0x1000, UINT32_MAX), WR(0x1000, UINT32_MAX)));
	tq_pop_fails(q, VSB_FAULT_CHAIN_BYTES);
}

/* ---- indirect descriptors ---- */

static void indirect_without_feature_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 head = fdrv_add_indirect(&q->drv, FBUFS(RD(0x1000, 4)));

	fmem_reset_counts(mem(state));
	tq_pop_fails(q, VSB_FAULT_INDIRECT_FEATURE);
	assert_int_equal(mem(state)->failed, 0);
	assert_head_returned(q, head);
}

static void indirect_nested_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);
	u64 inner = fdrv_build_table(&q->drv, 0, FBUFS(RD(0x1000, 4)));
	u64 outer = fmem_alloc_addr(mem(state), 32, 16, FMEM_RO);

	fdrv_write_desc(&q->drv, outer, 0, 0x2000, 4, VRING_DESC_F_NEXT, 1);
	fdrv_write_desc(&q->drv, outer, 1, inner, 16, VRING_DESC_F_INDIRECT, 0);
	fdrv_set_desc(&q->drv, 0, outer, 32, VRING_DESC_F_INDIRECT, 0);
	fdrv_make_avail(&q->drv, 0);
	tq_pop_fails(q, VSB_FAULT_INDIRECT_NESTED);
	assert_head_returned(q, 0);
}

static void indirect_with_next_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);
	u64 table = fdrv_build_table(&q->drv, 0, FBUFS(RD(0x1000, 4)));

	fdrv_set_desc(&q->drv, 0, table, 16,
		      VRING_DESC_F_INDIRECT | VRING_DESC_F_NEXT, 1);
	fdrv_set_desc(&q->drv, 1, 0x2000, 4, 0, 0);
	fdrv_make_avail(&q->drv, 0);
	tq_pop_fails(q, VSB_FAULT_INDIRECT_NEXT);
	assert_head_returned(q, 0);
}

static void indirect_bad_len_rejected(void **state)
{
	static const u32 len[] = { 0,
				   1,
				   8,
				   15,
				   24,
				   16 * NUM + 8,
				   16 * (NUM + 1),
				   16 * 0x10000U,
				   UINT32_MAX };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(len); i++) {
		struct tq *q = queue(state, NUM, 0, false, true);

		fdrv_set_desc(&q->drv, 0, 0x1000, len[i], VRING_DESC_F_INDIRECT,
			      0);
		fdrv_make_avail(&q->drv, 0);
		fmem_reset_counts(mem(state));
		tq_pop_fails(q, VSB_FAULT_INDIRECT_LEN);
		assert_int_equal(mem(state)->failed, 0);
		assert_head_returned(q, 0);
	}
}

static void indirect_table_of_num_entries_accepted(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);
	struct fbuf bufs[NUM];
	unsigned int i;

	for (i = 0; i < NUM; i++)
		bufs[i] =
			(struct fbuf){ 0x1000 * (i + 1), i + 1, i == NUM - 1 };
	fdrv_add_indirect(&q->drv, bufs, NUM);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.nr_out, NUM - 1);
	assert_int_equal(q->chain.nr_in, 1);
	for (i = 0; i < NUM; i++)
		assert_seg(&q->chain, i, 0x1000 * (i + 1), i + 1);
}

static void indirect_loop_bounded_by_table_len(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);
	u64 table = fmem_alloc_addr(mem(state), 4 * 16, 16, FMEM_RO);
	int rgn = fmem_region_of(mem(state), table);

	fdrv_write_desc(&q->drv, table, 0, 0x1000, 4, VRING_DESC_F_NEXT, 1);
	fdrv_write_desc(&q->drv, table, 1, 0x1000, 4, VRING_DESC_F_NEXT, 0);
	fdrv_set_desc(&q->drv, 0, table, 4 * 16, VRING_DESC_F_INDIRECT, 0);
	fdrv_make_avail(&q->drv, 0);
	fmem_reset_counts(mem(state));
	tq_pop_fails(q, VSB_FAULT_CHAIN_LOOP);
	/* at most one visit per table entry: reads and buffers taken */
	assert_in_range(fmem_reads(mem(state), rgn), 1, 4);
	assert_in_range(q->chain.nr_out, 0, 4);
	assert_head_returned(q, 0);
}

static void indirect_next_beyond_table_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);
	u64 table = fmem_alloc_addr(mem(state), 4 * 16, 16, FMEM_RO);

	/* 4 is inside the ring's table but outside this one */
	fdrv_write_desc(&q->drv, table, 0, 0x1000, 4, VRING_DESC_F_NEXT, 4);
	fdrv_set_desc(&q->drv, 0, table, 4 * 16, VRING_DESC_F_INDIRECT, 0);
	fdrv_make_avail(&q->drv, 0);
	tq_pop_fails(q, VSB_FAULT_NEXT_RANGE);
	assert_head_returned(q, 0);
}

static void indirect_pointer_write_flag_ignored(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);
	u64 table = fdrv_build_table(&q->drv, 0,
				     FBUFS(RD(0x1000, 10), WR(0x2000, 20)));

	fdrv_set_desc(&q->drv, 0, table, 32,
		      VRING_DESC_F_INDIRECT | VRING_DESC_F_WRITE, 0);
	fdrv_make_avail(&q->drv, 0);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.nr_out, 1);
	assert_int_equal(q->chain.nr_in, 1);
	assert_seg(&q->chain, 0, 0x1000, 10);
	assert_seg(&q->chain, 1, 0x2000, 20);
}

static void chained_descriptors_then_one_indirect_accepted(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);
	u64 table = fdrv_build_table(&q->drv, 0,
				     FBUFS(RD(0x3000, 7), WR(0x4000, 8)));

	fdrv_set_desc(&q->drv, 5, 0x1000, 5, VRING_DESC_F_NEXT, 2);
	fdrv_set_desc(&q->drv, 2, 0x2000, 6, VRING_DESC_F_NEXT, 7);
	fdrv_set_desc(&q->drv, 7, table, 32, VRING_DESC_F_INDIRECT, 0);
	fdrv_make_avail(&q->drv, 5);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.head, 5);
	assert_int_equal(q->chain.nr_out, 3);
	assert_int_equal(q->chain.nr_in, 1);
	assert_int_equal(q->chain.out_len, 18);
	assert_int_equal(q->chain.in_len, 8);
	assert_seg(&q->chain, 0, 0x1000, 5);
	assert_seg(&q->chain, 1, 0x2000, 6);
	assert_seg(&q->chain, 2, 0x3000, 7);
	assert_seg(&q->chain, 3, 0x4000, 8);
}

static void indirect_table_inaccessible_is_buffer_fault(void **state)
{
	static const unsigned int perm[] = { FMEM_WO, 0 /* unmapped */ };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct tq *q = queue(state, NUM, 0, false, true);
		u64 table = fdrv_build_table(&q->drv, 0, FBUFS(RD(0x1000, 4)));
		int rgn = fmem_region_of(mem(state), table);

		if (perm[i])
			fmem_set_perm(mem(state), rgn, perm[i]);
		else
			fmem_unmap(mem(state), rgn);
		fdrv_set_desc(&q->drv, 0, table, 16, VRING_DESC_F_INDIRECT, 0);
		fdrv_make_avail(&q->drv, 0);
		tq_pop_fails(q, VSB_FAULT_BUFFER_ACCESS);
		assert_head_returned(q, 0);
	}
}

static void indirect_table_wrapping_rejected(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, true);

	fdrv_set_desc(&q->drv, 0, UINT64_MAX - 15, 32, VRING_DESC_F_INDIRECT,
		      0);
	fdrv_make_avail(&q->drv, 0);
	tq_pop_fails(q, VSB_FAULT_ADDR_WRAP);
	assert_head_returned(q, 0);
}

/* ---- ring memory access ---- */

static void avail_ring_unmapped_is_ring_fault(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	fmem_unmap(mem(state), q->drv.avail_rgn);
	tq_pop_fails(q, VSB_FAULT_RING_ACCESS);
	assert_int_equal(q->chain.head, U16_MAX);
}

static void desc_table_unmapped_is_ring_fault(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 head = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));

	fmem_unmap(mem(state), q->drv.desc_rgn);
	tq_pop_fails(q, VSB_FAULT_RING_ACCESS);
	assert_head_returned(q, head);
}

/* Used entries or idx not writable: the ring fails, idx unchanged. */
static void used_ring_read_only_is_ring_fault(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	int ret;

	fmem_set_perm(mem(state), q->drv.used_ring_rgn, FMEM_RO);
	ret = vsb_ring_push(&q->ring, 0, 1);
	if (!ret)
		ret = vsb_ring_publish(&q->ring);
	assert_int_equal(ret, -EIO);
	assert_int_equal(q->ring.fault, VSB_FAULT_RING_ACCESS);
	fdrv_expect_no_used(&q->drv);

	q = queue(state, NUM, 0, false, false);
	fmem_set_perm(mem(state), q->drv.used_hdr_rgn, FMEM_RO);
	assert_int_equal(vsb_ring_push(&q->ring, 0, 1), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), -EIO);
	assert_int_equal(q->ring.fault, VSB_FAULT_RING_ACCESS);
	fdrv_expect_no_used(&q->drv);
}

/* A chain is never lost: the failed pop's head comes back with len 0. */
static void failed_walk_head_returned_with_len_0(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 good = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	u16 bad = fdrv_add_chain(&q->drv, FBUFS(WR(0x1000, 4), RD(0x2000, 4)));

	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_ring_push(&q->ring, good, 0), 0);
	tq_pop_fails(q, VSB_FAULT_WRITE_ORDER);
	assert_int_equal(q->chain.head, bad);
	assert_int_equal(q->ring.last_avail, 2);
	vsb_ring_return_chain(&q->ring, &q->chain);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	assert_int_equal(fdrv_used_idx(&q->drv), 2);
	fdrv_expect_used(&q->drv, good, 0);
	fdrv_expect_used(&q->drv, bad, 0);
}

static void fault_is_sticky_until_setup(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 head;

	fdrv_set_desc(&q->drv, 0, 0x1000, 4, VRING_DESC_F_NEXT, NUM);
	fdrv_make_avail(&q->drv, 0);
	tq_pop_fails(q, VSB_FAULT_NEXT_RANGE);

	/* the driver "fixes" it and offers a good chain: still refused */
	fdrv_set_desc(&q->drv, 0, 0x1000, 4, 0, 0);
	head = fdrv_add_chain(&q->drv, FBUFS(RD(0x2000, 4)));
	fmem_reset_counts(mem(state));
	tq_pop_fails(q, VSB_FAULT_NEXT_RANGE);
	assert_int_equal(q->chain.head, U16_MAX);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), -EIO);
	assert_int_equal(fmem_reads(mem(state), q->drv.avail_rgn), 0);

	/* a new setup (device reset) starts clean where it was */
	assert_int_equal(vsb_ring_setup(&q->ring, NUM, q->drv.desc,
					q->drv.avail, q->drv.used,
					q->ring.last_avail),
			 VSB_FAULT_NONE);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(q->chain.head, head);
}

/* ---- used ring ---- */

static void push_fills_entry_publish_moves_idx(void **state)
{
	struct tq *q = queue(state, NUM, 7, false, false);

	fmem_reset_counts(mem(state));
	assert_int_equal(vsb_ring_push(&q->ring, 5, 1234), 0);
	assert_int_equal(fdrv_used_idx(&q->drv), 7);
	assert_int_equal(fmem_writes(mem(state), q->drv.used_hdr_rgn), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	assert_int_equal(fdrv_used_idx(&q->drv), 8);
	fdrv_expect_used(&q->drv, 5, 1234);
	assert_int_equal(fdrv_used_flags(&q->drv), 0);
}

static void pushes_then_one_publish_write_idx_once(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	int hdr = q->drv.used_hdr_rgn;

	fmem_reset_counts(mem(state));
	assert_int_equal(vsb_ring_push(&q->ring, 1, 10), 0);
	assert_int_equal(vsb_ring_push(&q->ring, 2, 20), 0);
	assert_int_equal(vsb_ring_push(&q->ring, 3, 30), 0);
	assert_int_equal(fmem_writes(mem(state), hdr), 0);
	assert_int_equal(fdrv_used_idx(&q->drv), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	assert_int_equal(fmem_writes(mem(state), hdr), 1);
	assert_int_equal(fdrv_used_idx(&q->drv), 3);
	/* nothing new: no write */
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	assert_int_equal(fmem_writes(mem(state), hdr), 1);
	fdrv_expect_used(&q->drv, 1, 10);
	fdrv_expect_used(&q->drv, 2, 20);
	fdrv_expect_used(&q->drv, 3, 30);
	fdrv_expect_no_used(&q->drv);
	/* the avail_event word is not the used ring's business here */
	assert_int_equal(fmem_writes(mem(state), q->drv.avail_event_rgn), 0);
}

/* More pushes than any internal batch, wrapping the ring, one publish. */
static void many_pushes_one_publish_all_land(void **state)
{
	struct tq *q = queue(state, 64, 50, false, false);
	unsigned int i;

	fmem_reset_counts(mem(state));
	for (i = 0; i < 60; i++)
		assert_int_equal(vsb_ring_push(&q->ring, i, 1000 + i), 0);
	assert_int_equal(fdrv_used_idx(&q->drv), 50);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	assert_int_equal(fmem_writes(mem(state), q->drv.used_hdr_rgn), 1);
	assert_int_equal(fdrv_used_idx(&q->drv), 110);
	for (i = 0; i < 60; i++)
		fdrv_expect_used(&q->drv, i, 1000 + i);
	fdrv_expect_no_used(&q->drv);
	/* and the ring is still healthy */
	assert_int_equal(q->ring.fault, VSB_FAULT_NONE);
	assert_int_equal(tq_pop(q), 0);
	assert_true(vsb_ring_need_notify(&q->ring));
}

/*
 * More chains than any internal read-ahead, from a position that wraps
 * the avail ring, offered while earlier ones are being taken.
 */
static void many_chains_popped_in_order(void **state)
{
	struct tq *q = queue(state, 64, 60, false, false);
	u16 heads[64];
	unsigned int i, taken = 0;

	for (i = 0; i < 45; i++)
		heads[i] = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, i + 1)));
	for (; taken < 10; taken++) {
		assert_int_equal(tq_pop(q), 1);
		assert_int_equal(q->chain.head, heads[taken]);
		assert_int_equal(q->chain.out_len, taken + 1);
	}
	for (i = 45; i < 64; i++)
		heads[i] = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, i + 1)));
	for (; taken < 64; taken++) {
		assert_int_equal(tq_pop(q), 1);
		assert_int_equal(q->chain.head, heads[taken]);
		assert_int_equal(q->chain.out_len, taken + 1);
	}
	assert_int_equal(tq_pop(q), 0);
	assert_int_equal(q->ring.last_avail, 124);
}

/* A new base (VHOST_SET_VRING_BASE): nothing read ahead survives it. */
static void set_base_restarts_at_given_entry(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u16 heads[6];
	unsigned int i;

	for (i = 0; i < 6; i++)
		heads[i] = fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, i + 1)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_ring_push(&q->ring, heads[0], 0), 0);
	vsb_ring_set_base(&q->ring, 3);
	for (i = 3; i < 6; i++) {
		assert_int_equal(tq_pop(q), 1);
		assert_int_equal(q->chain.head, heads[i]);
	}
	assert_int_equal(tq_pop(q), 0);
	assert_int_equal(vsb_ring_push(&q->ring, heads[5], 9), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	/* the used idx followed the base; the entry before it was dropped */
	assert_int_equal(fdrv_used_idx(&q->drv), 4);
	q->drv.last_used = 3;
	fdrv_expect_used(&q->drv, heads[5], 9);
}

/* ---- used buffer notifications ---- */

static void push_publish(struct tq *q, unsigned int n)
{
	while (n--)
		assert_int_equal(vsb_ring_push(&q->ring, 0, 0), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
}

static void need_notify_without_event_idx_follows_flags(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	/* used_event is not in use: make it say "not yet" */
	fdrv_set_used_event(&q->drv, 100);
	push_publish(q, 1);
	fdrv_set_avail_flags(&q->drv, 0);
	assert_true(vsb_ring_need_notify(&q->ring));
	push_publish(q, 1);
	fdrv_set_avail_flags(&q->drv, VRING_AVAIL_F_NO_INTERRUPT);
	assert_false(vsb_ring_need_notify(&q->ring));
	push_publish(q, 1);
	fdrv_set_avail_flags(&q->drv, 0);
	assert_true(vsb_ring_need_notify(&q->ring));
}

/*
 * Publish k entries with used_event at old + d - 4 and the flags set
 * opposite to the answer (EVENT_IDX ignores them): the device must notify
 * iff used_event is one of old, ..., new - 1 (mod 2^16).
 */
static void check_used_event(struct tq *q, unsigned int k, unsigned int d)
{
	u16 old = q->ring.used_published;
	u16 event = old + d - 4;
	bool want = (u16)(event - old) < k;

	fdrv_set_avail_flags(&q->drv, want ? VRING_AVAIL_F_NO_INTERRUPT : 0);
	fdrv_set_used_event(&q->drv, event);
	push_publish(q, k);
	assert_int_equal(fdrv_used_idx(&q->drv), (u16)(old + k));
	if (vsb_ring_need_notify(&q->ring) != want)
		fail_msg("old %u new %u used_event %u: want %d", old,
			 (u16)(old + k), event, want);
}

/*
 * The sweep: k = 1..5 entries per decision, used_event from 4 before the
 * window to 4 after it, from start indices that make old/new cross
 * 65535 -> 0.
 */
static void need_notify_event_idx_sweep(void **state)
{
	static const u16 starts[] = { 0, 1000, 65530, 65535 };
	unsigned int s, k, d;

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		struct tq *q = queue(state, NUM, starts[s], true, false);

		/* the first decision always notifies */
		fdrv_set_used_event(&q->drv, starts[s] + 0x4000);
		push_publish(q, 1);
		assert_true(vsb_ring_need_notify(&q->ring));
		for (k = 1; k <= 5; k++)
			for (d = 0; d < k + 8; d++)
				check_used_event(q, k, d);
	}
}

static void need_notify_event_idx_nothing_new_no_notify(void **state)
{
	struct tq *q = queue(state, NUM, 0, true, false);

	push_publish(q, 2);
	assert_true(vsb_ring_need_notify(&q->ring));
	fdrv_set_used_event(&q->drv, 1);
	assert_false(vsb_ring_need_notify(&q->ring));
	fdrv_set_used_event(&q->drv, 2);
	assert_false(vsb_ring_need_notify(&q->ring));
}

static void first_decision_always_notifies(void **state)
{
	struct tq *q = queue(state, NUM, 0, true, false);

	fdrv_set_used_event(&q->drv, 0x8000);
	fdrv_set_avail_flags(&q->drv, VRING_AVAIL_F_NO_INTERRUPT);
	push_publish(q, 1);
	assert_true(vsb_ring_need_notify(&q->ring));
	push_publish(q, 1);
	assert_false(vsb_ring_need_notify(&q->ring));

	/* and again after a new setup */
	assert_int_equal(vsb_ring_setup(&q->ring, NUM, q->drv.desc,
					q->drv.avail, q->drv.used, 2),
			 VSB_FAULT_NONE);
	push_publish(q, 1);
	assert_true(vsb_ring_need_notify(&q->ring));
}

/* ---- used->flags at ring start ---- */

/*
 * Set q's ring up again over the same rings with garbage in used->flags:
 * a ring start the device has not served yet, as after a device reset.
 */
static void restart_with_flags(void **state, struct tq *q, u16 flags)
{
	fdrv_set_used_flags(&q->drv, flags);
	assert_int_equal(vsb_ring_setup(&q->ring, q->drv.num, q->drv.desc,
					q->drv.avail, q->drv.used,
					q->ring.last_avail),
			 VSB_FAULT_NONE);
	/* setup itself leaves guest memory alone */
	assert_int_equal(fdrv_used_flags(&q->drv), flags);
	fmem_reset_counts(mem(state));
}

/* The first pop clears them, even with nothing to take; once per start. */
static void used_flags_cleared_by_first_pop(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	restart_with_flags(state, q, 0xffff);
	assert_int_equal(tq_pop(q), 0);
	assert_int_equal(fdrv_used_flags(&q->drv), 0);
	assert_int_equal(fmem_writes(mem(state), q->drv.used_hdr_rgn), 1);

	/* later pops leave them alone, whatever the driver put there */
	fdrv_set_used_flags(&q->drv, 0xffff);
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(tq_pop(q), 0);
	assert_int_equal(fmem_writes(mem(state), q->drv.used_hdr_rgn), 1);
	assert_int_equal(fdrv_used_flags(&q->drv), 0xffff);

	/* a new start writes them again */
	restart_with_flags(state, q, VRING_USED_F_NO_NOTIFY);
	assert_int_equal(tq_pop(q), 0);
	assert_int_equal(fdrv_used_flags(&q->drv), 0);
	assert_int_equal(fmem_writes(mem(state), q->drv.used_hdr_rgn), 1);
}

/* The ring's first services besides pop, each returning 0 here. */
static int push_publish_one(struct tq *q)
{
	assert_int_equal(vsb_ring_push(&q->ring, 3, 0), 0);
	return vsb_ring_publish(&q->ring);
}

static int enable_kicks(struct tq *q)
{
	return vsb_ring_enable_kicks(&q->ring);
}

static int start(struct tq *q)
{
	return vsb_ring_start(&q->ring);
}

/* Whichever serves the ring first clears them, once per start. */
static void used_flags_cleared_by_whichever_serves_first(void **state)
{
	static int (*const first[])(struct tq * q) = { push_publish_one,
						       enable_kicks, start };
	struct tq *q = queue(state, NUM, 0, true, false);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(first); i++) {
		restart_with_flags(state, q, 0xffff);
		assert_int_equal(first[i](q), 0);
		assert_int_equal(fdrv_used_flags(&q->drv), 0);

		fdrv_set_used_flags(&q->drv, 0xffff);
		assert_int_equal(first[i](q), 0);
		assert_int_equal(tq_pop(q), 0);
		assert_int_equal(fdrv_used_flags(&q->drv), 0xffff);
	}
}

/*
 * A used ring the device cannot write at start is a ring fault, before
 * anything is taken from the avail ring: no chain is owed a used entry.
 */
static void used_flags_read_only_is_ring_fault(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	restart_with_flags(state, q, 0xffff);
	fmem_set_perm(mem(state), q->drv.used_hdr_rgn, FMEM_RO);
	tq_pop_fails(q, VSB_FAULT_RING_ACCESS);
	assert_int_equal(q->chain.head, U16_MAX);
	assert_int_equal(q->ring.last_avail, 0);
	assert_int_equal(fmem_reads(mem(state), q->drv.avail_rgn), 0);
	assert_int_equal(fdrv_used_flags(&q->drv), 0xffff);
	/* and it sticks, for every entry point */
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), -EIO);
	assert_int_equal(vsb_ring_start(&q->ring), -EIO);

	/* the same through the other entry points */
	restart_with_flags(state, q, 0xffff);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), -EIO);
	assert_int_equal(q->ring.fault, VSB_FAULT_RING_ACCESS);
	restart_with_flags(state, q, 0xffff);
	assert_int_equal(vsb_ring_push(&q->ring, 0, 0), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), -EIO);
	assert_int_equal(q->ring.fault, VSB_FAULT_RING_ACCESS);
	assert_int_equal(fdrv_used_idx(&q->drv), 0);
	/* unmapped rather than read-only: the same */
	fmem_unmap(mem(state), q->drv.used_hdr_rgn);
	restart_with_flags(state, q, 0xffff);
	tq_pop_fails(q, VSB_FAULT_RING_ACCESS);
}

/* ---- available buffer notifications ---- */

static void enable_kicks_without_event_idx_leaves_avail_event(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fmem_reset_counts(mem(state));
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 1);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	assert_int_equal(fdrv_avail_event(&q->drv), FDRV_POISON16);
	assert_int_equal(fdrv_used_writes(&q->drv), 0);
}

static void enable_kicks_with_event_idx_writes_last_avail(void **state)
{
	struct tq *q = queue(state, NUM, 300, true, false);
	unsigned int i;

	fmem_reset_counts(mem(state));
	for (i = 0; i < 3; i++)
		fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 1);
	assert_int_equal(fdrv_avail_event(&q->drv), 302);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	assert_int_equal(fdrv_avail_event(&q->drv), 303);
	/* only the avail_event word of the used ring was written */
	assert_int_equal(fdrv_used_idx(&q->drv), 300);
	assert_int_equal(fmem_writes(mem(state), q->drv.used_hdr_rgn) +
				 fmem_writes(mem(state), q->drv.used_ring_rgn),
			 0);
}

/*
 * Without EVENT_IDX, kicks go off through VRING_USED_F_NO_NOTIFY: written
 * once however often asked, cleared once on re-arm, which then looks at
 * the avail index again for what came meanwhile.
 */
static void disable_kicks_without_event_idx_sets_no_notify_once(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	int hdr = q->drv.used_hdr_rgn;

	restart_with_flags(state, q, 0xffff);
	assert_int_equal(vsb_ring_disable_kicks(&q->ring), 0);
	assert_int_equal(fdrv_used_flags(&q->drv), VRING_USED_F_NO_NOTIFY);
	/* the start's 0, then NO_NOTIFY */
	assert_int_equal(fmem_writes(mem(state), hdr), 2);
	assert_int_equal(vsb_ring_disable_kicks(&q->ring), 0);
	assert_int_equal(fmem_writes(mem(state), hdr), 2);

	/* a command added with kicks off is found by the re-arm */
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 1);
	assert_int_equal(fdrv_used_flags(&q->drv), 0);
	assert_int_equal(fmem_writes(mem(state), hdr), 3);
	assert_int_equal(tq_pop(q), 1);
	/* kicks already on: nothing more to write */
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	assert_int_equal(fmem_writes(mem(state), hdr), 3);
	assert_int_equal(fdrv_avail_event(&q->drv), FDRV_POISON16);

	/* a new start forgets that kicks were off */
	assert_int_equal(vsb_ring_disable_kicks(&q->ring), 0);
	restart_with_flags(state, q, 0);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	assert_int_equal(fmem_writes(mem(state), hdr), 1);
	assert_int_equal(fdrv_used_flags(&q->drv), 0);
}

/* With EVENT_IDX, kicks go off by leaving avail_event where it is. */
static void disable_kicks_with_event_idx_writes_nothing(void **state)
{
	struct tq *q = queue(state, NUM, 300, true, false);

	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	assert_int_equal(fdrv_avail_event(&q->drv), 300);
	fmem_reset_counts(mem(state));
	assert_int_equal(vsb_ring_disable_kicks(&q->ring), 0);
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(fmem_writes(mem(state), q->drv.used_hdr_rgn) +
				 fmem_writes(mem(state), q->drv.used_ring_rgn),
			 0);
	assert_int_equal(fdrv_avail_event(&q->drv), 300);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 1);
	assert_int_equal(fdrv_avail_event(&q->drv), 301);
	assert_int_equal(fdrv_used_flags(&q->drv), 0);
}

/* Polling reads the avail index only, and takes nothing. */
static void poll_sees_new_buffers_without_taking_them(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	assert_int_equal(vsb_ring_poll(&q->ring), 0);
	fmem_reset_counts(mem(state));
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(vsb_ring_poll(&q->ring), 1);
	assert_int_equal(vsb_ring_poll(&q->ring), 1);
	assert_int_equal(fmem_reads(mem(state), q->drv.avail_rgn), 2);
	assert_int_equal(fdrv_used_writes(&q->drv), 0);
	assert_int_equal(q->ring.last_avail, 0);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_ring_poll(&q->ring), 0);
}

/*
 * The pop after a poll or a re-arm reads the avail index itself, so it
 * sees what the driver added since: a lone command is answered alone
 * only when nothing followed it (vsb_ring_has_announced()).
 */
static void pop_after_a_look_sees_what_came_since(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(vsb_ring_poll(&q->ring), 1);
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(tq_pop(q), 1);
	assert_true(vsb_ring_has_announced(&q->ring));
	assert_int_equal(tq_pop(q), 1);

	assert_int_equal(vsb_ring_disable_kicks(&q->ring), 0);
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 1);
	fdrv_add_chain(&q->drv, FBUFS(RD(0x1000, 4)));
	assert_int_equal(tq_pop(q), 1);
	assert_true(vsb_ring_has_announced(&q->ring));
}

/* A poll adopts no index: the pop reads a bad one and fails the ring. */
static void poll_of_bad_avail_idx_fails_the_pop(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	fdrv_set_avail_idx(&q->drv, NUM + 1);
	assert_int_equal(vsb_ring_poll(&q->ring), 1);
	assert_int_equal(tq_pop(q), -EIO);
	assert_int_equal(q->ring.fault, VSB_FAULT_AVAIL_IDX);
}

/* A used header the device cannot write: kicks cannot go off either. */
static void disable_kicks_read_only_used_is_ring_fault(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);

	assert_int_equal(vsb_ring_start(&q->ring), 0);
	fmem_set_perm(mem(state), q->drv.used_hdr_rgn, FMEM_RO);
	assert_int_equal(vsb_ring_disable_kicks(&q->ring), -EIO);
	assert_int_equal(q->ring.fault, VSB_FAULT_RING_ACCESS);
	assert_int_equal(vsb_ring_poll(&q->ring), -EIO);
	assert_int_equal(vsb_ring_disable_kicks(&q->ring), -EIO);
}

/* ---- index wraparound ---- */

/* Offer n chains (the k-th with k readable bytes), take, complete them. */
static void wrap_round(struct tq *q, u64 in, unsigned int done, unsigned int n)
{
	u16 heads[3];
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct fbuf bufs[] = { RD(0x1000, done + i + 1), WR(in, 64) };

		heads[i] = fdrv_add_chain(&q->drv, bufs, 2);
	}
	for (i = 0; i < n; i++) {
		assert_int_equal(tq_pop(q), 1);
		assert_int_equal(q->chain.head, heads[i]);
		assert_int_equal(q->chain.out_len, done + i + 1);
		assert_int_equal(vsb_ring_push(&q->ring, heads[i], done + i),
				 0);
	}
	assert_int_equal(tq_pop(q), 0);
	assert_int_equal(vsb_ring_publish(&q->ring), 0);
	assert_int_equal(vsb_ring_enable_kicks(&q->ring), 0);
	assert_int_equal(fdrv_avail_event(&q->drv), (u16)(65530 + done + n));
	for (i = 0; i < n; i++)
		fdrv_expect_used(&q->drv, heads[i], done + i);
}

/* 20 chains from avail/used idx 65530, in rounds of 3: both idx wrap. */
static void u16_index_wraparound(void **state)
{
	struct tq *q = queue(state, NUM, 65530, true, false);
	u64 in = tbuf(mem(state), 64, FMEM_RW, 0);
	unsigned int done;

	for (done = 0; done < 20; done += 3)
		wrap_round(q, in, done, done + 3 <= 20 ? 3 : 20 - done);
	assert_int_equal(q->ring.last_avail, 14);
	assert_int_equal(fdrv_used_idx(&q->drv), 14);
	fdrv_expect_no_used(&q->drv);
}

/* ---- vsb_chain_read / vsb_chain_write ---- */

static void chain_read_across_segments(void **state)
{
	static const u32 lens[] = { 3, 5, 7 };
	struct tq *q = queue(state, NUM, 0, false, false);
	u8 all[15], got[15];
	u64 addr[3];
	unsigned int i, off, len, at = 0;

	for (i = 0; i < 15; i++)
		all[i] = 0x40 + i;
	for (i = 0; i < 3; i++) {
		addr[i] = tbuf(mem(state), lens[i], FMEM_RW, 0);
		memcpy(fmem_ptr(mem(state), addr[i], lens[i]), all + at,
		       lens[i]);
		at += lens[i];
	}
	fdrv_add_chain(&q->drv, FBUFS(RD(addr[0], 3), RD(addr[1], 5),
				      RD(addr[2], 7), WR(0x1000, 9)));
	assert_int_equal(tq_pop(q), 1);
	fmem_reset_counts(mem(state));
	for (off = 0; off <= 15; off++) {
		for (len = 0; off + len <= 15; len++) {
			memset(got, 0, sizeof(got));
			assert_int_equal(vsb_chain_read(&q->ring, &q->chain,
							off, got, len),
					 0);
			assert_memory_equal(got, all + off, len);
		}
	}
	for (i = 0; i < 3; i++)
		assert_int_equal(writes_at(state, addr[i]), 0);
}

static void chain_write_across_segments(void **state)
{
	static const u32 lens[] = { 4, 1, 6 };
	struct tq *q = queue(state, NUM, 0, false, false);
	u64 rd = tbuf(mem(state), 8, FMEM_RW, 0x11);
	u8 src[11], want[11], got[11];
	u64 addr[3];
	unsigned int i, off, len;

	for (i = 0; i < 11; i++)
		src[i] = 0x80 + i;
	for (i = 0; i < 3; i++)
		addr[i] = tbuf(mem(state), lens[i], FMEM_RW, 0);
	fdrv_add_chain(&q->drv, FBUFS(RD(rd, 8), WR(addr[0], 4), WR(addr[1], 1),
				      WR(addr[2], 6)));
	assert_int_equal(tq_pop(q), 1);
	for (off = 0; off <= 11; off++) {
		for (len = 0; off + len <= 11; len++) {
			unsigned int at = 0;

			for (i = 0; i < 3; i++)
				memset(fmem_ptr(mem(state), addr[i], lens[i]),
				       0, lens[i]);
			assert_int_equal(vsb_chain_write(&q->ring, &q->chain,
							 off, src, len),
					 0);
			memset(want, 0, sizeof(want));
			memcpy(want + off, src, len);
			for (i = 0; i < 3; i++) {
				memcpy(got + at,
				       fmem_ptr(mem(state), addr[i], lens[i]),
				       lens[i]);
				at += lens[i];
			}
			assert_memory_equal(got, want, sizeof(want));
		}
	}
	/* the readable buffer was never written */
	assert_int_equal(writes_at(state, rd), 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(*(u8 *)fmem_ptr(mem(state), rd + i, 1), 0x11);
}

/* 8 readable and 8 writable bytes; every range past them is refused. */
static void chain_copy_out_of_range_einval(void **state)
{
	static const struct {
		bool write;
		u32 off;
		u32 len;
	} bad[] = {
		{ false, 0, 9 },	  { false, 7, 2 },
		{ false, 9, 0 },	  { false, UINT32_MAX, 2 },
		{ false, 1, UINT32_MAX }, { true, 0, 9 },
		{ true, 8, 1 },		  { true, 4, UINT32_MAX - 1 },
	};
	struct tq *q = queue(state, NUM, 0, false, false);
	u64 r = tbuf(mem(state), 16, FMEM_RW, 0), w = r + 8;
	int rgn = fmem_region_of(mem(state), r);
	u8 buf[32] = { 0 };
	unsigned int i;

	fdrv_add_chain(&q->drv,
		       FBUFS(RD(r, 3), RD(r + 3, 5), WR(w, 4), WR(w + 4, 4)));
	assert_int_equal(tq_pop(q), 1);
	fmem_reset_counts(mem(state));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = bad[i].write ?
				  vsb_chain_write(&q->ring, &q->chain,
						  bad[i].off, buf, bad[i].len) :
				  vsb_chain_read(&q->ring, &q->chain,
						 bad[i].off, buf, bad[i].len);

		if (ret != -EINVAL)
			fail_msg("%s off %u len %u: %d",
				 bad[i].write ? "write" : "read", bad[i].off,
				 bad[i].len, ret);
	}
	/* refused before any access */
	assert_int_equal(mem(state)->failed, 0);
	assert_int_equal(fmem_reads(mem(state), rgn), 0);
	assert_int_equal(fmem_writes(mem(state), rgn), 0);
	/* the empty range at the very end is fine */
	assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 8, buf, 0), 0);
	assert_int_equal(vsb_chain_write(&q->ring, &q->chain, 8, buf, 0), 0);
}

/* A writable descriptor into a read-only mapping: -EPERM, no byte changed. */
static void chain_write_into_read_only_mapping_eperm(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u64 w = tbuf(mem(state), 16, FMEM_RO, 0x5a);
	int rgn = fmem_region_of(mem(state), w);
	u8 buf[16], want[16];

	memset(buf, 0xa5, sizeof(buf));
	memset(want, 0x5a, sizeof(want));
	fdrv_add_chain(&q->drv, FBUFS(WR(w, 16)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_chain_write(&q->ring, &q->chain, 0, buf, 16),
			 -EPERM);
	assert_int_equal(vsb_chain_write(&q->ring, &q->chain, 15, buf, 1),
			 -EPERM);
	assert_memory_equal(fmem_ptr(mem(state), w, 16), want, 16);
	assert_int_equal(fmem_writes(mem(state), rgn), 0);
}

/*
 * Commands close together: the heads' buffers come in one access, read
 * along with the heads, and each chain reads its own bytes from it.
 */
static void close_commands_read_once(void **state)
{
	struct tq *q = queue(state, 64, 0, false, false);
	u64 cmds = tbuf(mem(state), 4 * 8, FMEM_RW, 0);
	u8 *bytes = fmem_ptr(mem(state), cmds, 4 * 8);
	u8 got[8];
	unsigned int i;

	for (i = 0; i < 4 * 8; i++)
		bytes[i] = (u8)i;
	for (i = 0; i < 4; i++)
		fdrv_add_chain(&q->drv,
			       FBUFS(RD(cmds + 8 * i, 8), WR(0x1000 + i, 1)));
	fmem_reset_counts(mem(state));
	for (i = 0; i < 4; i++) {
		assert_int_equal(tq_pop(q), 1);
		assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 2, got, 6),
				 0);
		assert_memory_equal(got, bytes + 8 * i + 2, 6);
	}
	assert_int_equal(
		fmem_reads(mem(state), fmem_region_of(mem(state), cmds)), 1);
}

/* Commands far apart: each is read on its own. */
static void far_commands_read_alone(void **state)
{
	struct tq *q = queue(state, 64, 0, false, false);
	u64 cmds = tbuf(mem(state), 2048, FMEM_RW, 0);
	u8 got[8];

	memset(fmem_ptr(mem(state), cmds, 2048), 0x5a, 2048);
	fdrv_add_chain(&q->drv, FBUFS(RD(cmds, 8), WR(0x1000, 1)));
	fdrv_add_chain(&q->drv, FBUFS(RD(cmds + 1024, 8), WR(0x1001, 1)));
	fmem_reset_counts(mem(state));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 0, got, 8), 0);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 0, got, 8), 0);
	assert_int_equal(got[7], 0x5a);
	assert_int_equal(
		fmem_reads(mem(state), fmem_region_of(mem(state), cmds)), 2);
}

/*
 * A batch whose buffers cannot all be read at once: each chain's read
 * fails or succeeds as it would alone.
 */
static void unreadable_batch_reads_each_alone(void **state)
{
	struct tq *q = queue(state, 64, 0, false, false);
	u64 wo = tbuf(mem(state), 8, FMEM_WO, 0);
	u64 rw = tbuf(mem(state), 8, FMEM_RW, 0);
	u8 got[8];

	memset(fmem_ptr(mem(state), rw, 8), 0x42, 8);
	fdrv_add_chain(&q->drv, FBUFS(RD(wo, 8), WR(0x1000, 1)));
	fdrv_add_chain(&q->drv, FBUFS(RD(rw, 8), WR(0x1001, 1)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 0, got, 8),
			 -EPERM);
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 0, got, 8), 0);
	assert_int_equal(got[0], 0x42);
}

static void chain_read_unmapped_or_write_only_fails(void **state)
{
	struct tq *q = queue(state, NUM, 0, false, false);
	u64 wo = tbuf(mem(state), 8, FMEM_WO, 0);
	u8 buf[8];

	fdrv_add_chain(&q->drv, FBUFS(RD(wo, 8), RD(FMEM_BASE - 8, 8)));
	assert_int_equal(tq_pop(q), 1);
	assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 0, buf, 8),
			 -EPERM);
	assert_int_equal(vsb_chain_read(&q->ring, &q->chain, 8, buf, 8),
			 -EFAULT);
}

#define T(fn) \
	cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(setup_rejects_num_zero),
		T(setup_rejects_num_not_power_of_2),
		T(setup_rejects_misaligned_rings),
		T(setup_rejects_wrapping_ranges),
		T(setup_failure_blocks_pop_without_memory_access),
		T(holds_the_three_areas_alone),
		T(holds_nothing_of_a_refused_ring),
		T(ring_in_place_reaches_no_ops),
		T(access_past_an_area_takes_the_ops),
		T(pop_empty_ring_returns_0),
		T(pop_readable_chain),
		T(pop_writable_chain),
		T(pop_mixed_chain_readable_first),
		T(chain_of_num_descriptors_accepted),
		T(chain_of_num_plus_1_direct_rejected),
		T(chain_of_num_plus_1_indirect_rejected),
		T(zero_length_descriptor_harmless),
		T(next_to_itself_is_loop_with_bounded_work),
		T(loop_of_zero_length_descriptors_bounded),
		T(next_out_of_range_rejected),
		T(head_out_of_range_rejected_without_used_entry),
		T(head_out_of_range_after_good_heads),
		T(close_chains_read_table_once),
		T(far_chains_read_alone),
		T(reused_descriptors_read_again),
		T(avail_idx_more_than_num_ahead_rejected),
		T(avail_idx_exactly_num_ahead_accepted),
		T(readable_after_writable_rejected),
		T(readable_after_zero_length_writable_rejected),
		T(addr_plus_len_wrap_rejected),
		T(chain_bytes_over_u32_max_rejected),
		T(chain_bytes_counts_both_directions),
		T(indirect_without_feature_rejected),
		T(indirect_nested_rejected),
		T(indirect_with_next_rejected),
		T(indirect_bad_len_rejected),
		T(indirect_table_of_num_entries_accepted),
		T(indirect_loop_bounded_by_table_len),
		T(indirect_next_beyond_table_rejected),
		T(indirect_pointer_write_flag_ignored),
		T(chained_descriptors_then_one_indirect_accepted),
		T(indirect_table_inaccessible_is_buffer_fault),
		T(indirect_table_wrapping_rejected),
		T(avail_ring_unmapped_is_ring_fault),
		T(desc_table_unmapped_is_ring_fault),
		T(used_ring_read_only_is_ring_fault),
		T(failed_walk_head_returned_with_len_0),
		T(fault_is_sticky_until_setup),
		T(push_fills_entry_publish_moves_idx),
		T(used_flags_cleared_by_first_pop),
		T(used_flags_cleared_by_whichever_serves_first),
		T(used_flags_read_only_is_ring_fault),
		T(pushes_then_one_publish_write_idx_once),
		T(many_pushes_one_publish_all_land),
		T(many_chains_popped_in_order),
		T(set_base_restarts_at_given_entry),
		T(need_notify_without_event_idx_follows_flags),
		T(need_notify_event_idx_sweep),
		T(need_notify_event_idx_nothing_new_no_notify),
		T(first_decision_always_notifies),
		T(enable_kicks_without_event_idx_leaves_avail_event),
		T(enable_kicks_with_event_idx_writes_last_avail),
		T(disable_kicks_without_event_idx_sets_no_notify_once),
		T(disable_kicks_with_event_idx_writes_nothing),
		T(poll_sees_new_buffers_without_taking_them),
		T(pop_after_a_look_sees_what_came_since),
		T(poll_of_bad_avail_idx_fails_the_pop),
		T(disable_kicks_read_only_used_is_ring_fault),
		T(u16_index_wraparound),
		T(chain_read_across_segments),
		T(chain_write_across_segments),
		T(chain_copy_out_of_range_einval),
		T(chain_write_into_read_only_mapping_eperm),
		T(close_commands_read_once),
		T(far_commands_read_alone),
		T(unreadable_batch_reads_each_alone),
		T(chain_read_unmapped_or_write_only_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
