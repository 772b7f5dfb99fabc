// SPDX-License-Identifier: GPL-2.0-only
/* The fake driver side of a split virtqueue: see fake_driver.h. */

#include "unit.h"

#include "fake_driver.h"

/* Offsets in the rings (virtio 1.x, "Split Virtqueues"). */
#define AVAIL_FLAGS 0
#define AVAIL_IDX 2
#define AVAIL_RING 4
#define USED_FLAGS 0
#define USED_IDX 2
#define USED_RING 4

void fdrv_init(struct fdrv *d, struct fmem *m, u16 num, u16 start_idx)
{
	u32 used_size = USED_RING + 8 * num + 2;

	memset(d, 0, sizeof(*d));
	d->m = m;
	d->num = num;
	/* The device only reads the table and the avail ring. */
	d->desc_rgn = fmem_alloc(m, 16ULL * num, 16, FMEM_RO);
	d->avail_rgn = fmem_alloc(m, AVAIL_RING + 2 * num + 2, 2, FMEM_RO);
	/* The used ring is written by the device, in adjacent regions. */
	d->used_hdr_rgn = fmem_alloc(m, USED_RING, 4, FMEM_RW);
	d->used_ring_rgn = fmem_alloc(m, 8 * num, 4, FMEM_RW);
	d->avail_event_rgn = fmem_alloc(m, 2, 2, FMEM_RW);
	d->desc = m->regions[d->desc_rgn].addr;
	d->avail = m->regions[d->avail_rgn].addr;
	d->used = m->regions[d->used_hdr_rgn].addr;
	assert_int_equal(m->regions[d->avail_event_rgn].addr,
			 d->used + USED_RING + 8 * num);
	d->avail_idx = start_idx;
	d->last_used = start_idx;
	fmem_put16(m, d->avail + AVAIL_IDX, start_idx);
	/*
	 * Poison the used ring (flags, elements and avail_event) but for
	 * idx: the device must write what the driver reads of it.
	 */
	memset(fmem_ptr(m, d->used, used_size), 0xef, used_size);
	fmem_put16(m, d->used + USED_FLAGS, FDRV_POISON16);
	fmem_put16(m, d->used + USED_IDX, start_idx);
	fmem_put16(m, d->used + USED_RING + 8 * num, FDRV_POISON16);
}

void fdrv_write_desc(struct fdrv *d, u64 table, u16 i, u64 addr, u32 len,
		     u16 flags, u16 next)
{
	u8 *p = fmem_ptr(d->m, table + 16ULL * i, 16);
	u64 a = htole64(addr);
	u32 l = htole32(len);
	u16 f = htole16(flags), n = htole16(next);

	memcpy(p, &a, 8);
	memcpy(p + 8, &l, 4);
	memcpy(p + 12, &f, 2);
	memcpy(p + 14, &n, 2);
}

void fdrv_set_desc(struct fdrv *d, u16 i, u64 addr, u32 len, u16 flags,
		   u16 next)
{
	assert_true(i < d->num);
	fdrv_write_desc(d, d->desc, i, addr, len, flags, next);
}

/* Lay bufs out at entries first, first + 1, ... (mod size) of table. */
static void fdrv_lay_out(struct fdrv *d, u64 table, u32 size, u32 first,
			 const struct fbuf *bufs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		u16 at = (first + i) % size, next = (first + i + 1) % size;
		u16 flags = bufs[i].write ? VRING_DESC_F_WRITE : 0;

		if (i + 1 < n)
			flags |= VRING_DESC_F_NEXT;
		fdrv_write_desc(d, table, at, bufs[i].addr, bufs[i].len, flags,
				next);
	}
}

u16 fdrv_build_chain(struct fdrv *d, const struct fbuf *bufs, unsigned int n)
{
	u16 head = d->next_desc;

	assert_true(n >= 1 && n <= d->num);
	fdrv_lay_out(d, d->desc, d->num, head, bufs, n);
	d->next_desc = (head + n) % d->num;
	return head;
}

u16 fdrv_add_chain(struct fdrv *d, const struct fbuf *bufs, unsigned int n)
{
	u16 head = fdrv_build_chain(d, bufs, n);

	fdrv_make_avail(d, head);
	return head;
}

u64 fdrv_build_table(struct fdrv *d, u64 table, const struct fbuf *bufs,
		     unsigned int n)
{
	if (!table)
		table = fmem_alloc_addr(d->m, 16ULL * n, 16, FMEM_RO);
	fdrv_lay_out(d, table, n, 0, bufs, n);
	return table;
}

u16 fdrv_add_indirect(struct fdrv *d, const struct fbuf *bufs, unsigned int n)
{
	u64 table = fdrv_build_table(d, 0, bufs, n);
	u16 head = d->next_desc;

	fdrv_set_desc(d, head, table, 16 * n, VRING_DESC_F_INDIRECT, 0);
	d->next_desc = (head + 1) % d->num;
	fdrv_make_avail(d, head);
	return head;
}

void fdrv_make_avail(struct fdrv *d, u16 head)
{
	fmem_put16(d->m, d->avail + AVAIL_RING + 2 * (d->avail_idx % d->num),
		   head);
	d->avail_idx++;
	fmem_put16(d->m, d->avail + AVAIL_IDX, d->avail_idx);
}

void fdrv_set_avail_idx(struct fdrv *d, u16 idx)
{
	d->avail_idx = idx;
	fmem_put16(d->m, d->avail + AVAIL_IDX, idx);
}

void fdrv_set_avail_flags(struct fdrv *d, u16 flags)
{
	fmem_put16(d->m, d->avail + AVAIL_FLAGS, flags);
}

void fdrv_set_used_flags(struct fdrv *d, u16 flags)
{
	fmem_put16(d->m, d->used + USED_FLAGS, flags);
}

void fdrv_set_used_event(struct fdrv *d, u16 val)
{
	fmem_put16(d->m, d->avail + AVAIL_RING + 2 * d->num, val);
}

u16 fdrv_used_idx(struct fdrv *d)
{
	return fmem_get16(d->m, d->used + USED_IDX);
}

u16 fdrv_used_flags(struct fdrv *d)
{
	return fmem_get16(d->m, d->used + USED_FLAGS);
}

u16 fdrv_avail_event(struct fdrv *d)
{
	return fmem_get16(d->m, d->used + USED_RING + 8 * d->num);
}

void fdrv_used_elem(struct fdrv *d, u16 i, u32 *id, u32 *len)
{
	u64 elem = d->used + USED_RING + 8 * (i % d->num);

	*id = fmem_get32(d->m, elem);
	*len = fmem_get32(d->m, elem + 4);
}

bool fdrv_get_used(struct fdrv *d, u32 *id, u32 *len)
{
	if (d->last_used == fdrv_used_idx(d))
		return false;
	fdrv_used_elem(d, d->last_used++, id, len);
	return true;
}

void fdrv_expect_used_at(struct fdrv *d, u32 id, u32 len, const char *file,
			 int line)
{
	u32 got_id, got_len;

	if (!fdrv_get_used(d, &got_id, &got_len)) {
		print_error("no used entry; want id %u len %u\n", id, len);
		_fail(file, line);
	}
	if (got_id != id || got_len != len) {
		print_error("used entry id %u len %u; want id %u len %u\n",
			    got_id, got_len, id, len);
		_fail(file, line);
	}
}

void fdrv_expect_no_used(struct fdrv *d)
{
	assert_int_equal(fdrv_used_idx(d), d->last_used);
}

unsigned int fdrv_used_writes(struct fdrv *d)
{
	return fmem_writes(d->m, d->used_hdr_rgn) +
	       fmem_writes(d->m, d->used_ring_rgn) +
	       fmem_writes(d->m, d->avail_event_rgn);
}

void tq_init(struct tq *q, struct fmem *m, u16 num, u16 start, bool event_idx,
	     bool indirect)
{
	memset(q, 0, sizeof(*q));
	fdrv_init(&q->drv, m, num, start);
	q->ring.mem = m->mem;
	q->ring.win = &q->win;
	q->ring.event_idx = event_idx;
	q->ring.indirect = indirect;
	assert_int_equal(vsb_ring_setup(&q->ring, num, q->drv.desc,
					q->drv.avail, q->drv.used, start),
			 VSB_FAULT_NONE);
	assert_int_equal(vsb_ring_start(&q->ring), 0);
	q->chain.segs = calloc(num, sizeof(*q->chain.segs));
	assert_non_null(q->chain.segs);
	q->chain.max_segs = num;
}

void tq_fini(struct tq *q)
{
	free(q->chain.segs);
	q->chain.segs = NULL;
}

int tq_pop(struct tq *q)
{
	return vsb_ring_pop(&q->ring, &q->chain);
}

void tq_pop_fails_at(struct tq *q, enum vsb_fault fault, const char *file,
		     int line)
{
	int ret = tq_pop(q);

	if (ret != -EIO || q->ring.fault != fault) {
		print_error("pop: %d, fault \"%s\"; want -EIO, \"%s\"\n", ret,
			    vsb_fault_name(q->ring.fault),
			    vsb_fault_name(fault));
		_fail(file, line);
	}
}

u64 tbuf(struct fmem *m, u32 len, unsigned int perm, u8 fill)
{
	u64 addr = fmem_alloc_addr(m, len, 8, perm);

	memset(fmem_ptr(m, addr, len), fill, len);
	return addr;
}
