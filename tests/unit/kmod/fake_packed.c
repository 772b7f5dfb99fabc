// SPDX-License-Identifier: GPL-2.0-only
/* The fake driver side of a packed virtqueue: see fake_packed.h. */

#include "unit.h"

#include "fake_packed.h"

/* Offsets in a descriptor and an event area ("Packed Virtqueues"). */
#define DESC_LEN 8
#define DESC_ID 12
#define DESC_FLAGS 14
#define EV_OFF_WRAP 0
#define EV_FLAGS 2

void fpk_init(struct fpk *d, struct fmem *m, u16 num)
{
	assert_true(num >= 1 && num <= FPK_MAX_NUM);
	memset(d, 0, sizeof(*d));
	d->m = m;
	d->num = num;
	/* The device writes used descriptors over available ones. */
	d->desc_rgn = fmem_alloc(m, 16ULL * num, 16, FMEM_RW);
	/* The driver area is the driver's alone; the device area the device's. */
	d->drv_event = m->regions[fmem_alloc(m, 4, 4, FMEM_RO)].addr;
	d->dev_event_rgn = fmem_alloc(m, 4, 4, FMEM_RW);
	d->dev_event = m->regions[d->dev_event_rgn].addr;
	d->desc = m->regions[d->desc_rgn].addr;
	/* "The descriptor ring is zero-initialized." */
	memset(fmem_ptr(m, d->desc, 16ULL * num), 0, 16ULL * num);
	fmem_put16(m, d->dev_event + EV_OFF_WRAP, FDRV_POISON16);
	fmem_put16(m, d->dev_event + EV_FLAGS, FDRV_POISON16);
	d->avail_wrap = true;
	d->used_wrap = true;
}

u16 fpk_avail_flags(bool wrap)
{
	return wrap ? FPK_AVAIL : FPK_USED;
}

void fpk_write_desc(struct fpk *d, u64 table, u16 pos, u64 addr, u32 len,
		    u16 id, u16 flags)
{
	u8 *p = fmem_ptr(d->m, table + 16ULL * pos, 16);
	u64 a = htole64(addr);
	u32 l = htole32(len);
	u16 i = htole16(id), f = htole16(flags);

	memcpy(p, &a, 8);
	memcpy(p + DESC_LEN, &l, 4);
	memcpy(p + DESC_ID, &i, 2);
	memcpy(p + DESC_FLAGS, &f, 2);
}

u16 fpk_desc_flags(struct fpk *d, u16 pos)
{
	return fmem_get16(d->m, d->desc + 16ULL * pos + DESC_FLAGS);
}

void fpk_set_desc_flags(struct fpk *d, u16 pos, u16 flags)
{
	fmem_put16(d->m, d->desc + 16ULL * pos + DESC_FLAGS, flags);
}

static void fpk_advance(struct fpk *d, u16 *pos, bool *wrap)
{
	if (++*pos == d->num) {
		*pos = 0;
		*wrap = !*wrap;
	}
}

u16 fpk_add(struct fpk *d, const struct fbuf *bufs, unsigned int n, u16 id)
{
	u16 first = d->next_avail, first_flags = 0;
	unsigned int i;

	assert_true(n >= 1 && n <= d->num && id < FPK_MAX_NUM);
	for (i = 0; i < n; i++) {
		u16 flags = fpk_avail_flags(d->avail_wrap) |
			    (bufs[i].write ? VRING_DESC_F_WRITE : 0) |
			    (i + 1 < n ? VRING_DESC_F_NEXT : 0);

		/* The id only in the last, as the spec has it. */
		fpk_write_desc(d, d->desc, d->next_avail, bufs[i].addr,
			       bufs[i].len, i + 1 < n ? 0xdead : id,
			       i ? flags : 0);
		if (!i)
			first_flags = flags;
		fpk_advance(d, &d->next_avail, &d->avail_wrap);
	}
	fmem_put16(d->m, d->desc + 16ULL * first + DESC_FLAGS, first_flags);
	d->chain_len[id] = n;
	return first;
}

u16 fpk_add_indirect(struct fpk *d, const struct fbuf *bufs, unsigned int n,
		     u16 id)
{
	u64 table = fmem_alloc_addr(d->m, 16ULL * n, 16, FMEM_RO);
	u16 pos = d->next_avail;
	unsigned int i;

	for (i = 0; i < n; i++)
		fpk_write_desc(d, table, i, bufs[i].addr, bufs[i].len, 0,
			       bufs[i].write ? VRING_DESC_F_WRITE : 0);
	fpk_write_desc(d, d->desc, pos, table, 16 * n, id,
		       fpk_avail_flags(d->avail_wrap) | VRING_DESC_F_INDIRECT);
	fpk_advance(d, &d->next_avail, &d->avail_wrap);
	d->chain_len[id] = 1;
	return pos;
}

bool fpk_get_used(struct fpk *d, u16 *id, u32 *len, u16 *flags)
{
	u64 at = d->desc + 16ULL * d->next_used;
	u16 f = fmem_get16(d->m, at + DESC_FLAGS);
	unsigned int i;

	if (!!(f & FPK_USED) != d->used_wrap ||
	    !!(f & FPK_AVAIL) != d->used_wrap)
		return false;
	*flags = f;
	*id = fmem_get16(d->m, at + DESC_ID);
	*len = fmem_get32(d->m, at + DESC_LEN);
	assert_true(*id < FPK_MAX_NUM && d->chain_len[*id]);
	for (i = 0; i < d->chain_len[*id]; i++)
		fpk_advance(d, &d->next_used, &d->used_wrap);
	d->chain_len[*id] = 0;
	return true;
}

void fpk_expect_used_at(struct fpk *d, u16 id, u32 len, const char *file,
			int line)
{
	u16 got_id, flags;
	u32 got_len;

	if (!fpk_get_used(d, &got_id, &got_len, &flags)) {
		print_error("no used descriptor; want id %u len %u\n", id, len);
		_fail(file, line);
	}
	if (got_id != id || got_len != len ||
	    !!(flags & VRING_DESC_F_WRITE) != !!len) {
		print_error("used id %u len %u flags %#x; want id %u len %u\n",
			    got_id, got_len, flags, id, len);
		_fail(file, line);
	}
}

void fpk_expect_no_used(struct fpk *d)
{
	u16 id, flags;
	u32 len;

	assert_false(fpk_get_used(d, &id, &len, &flags));
}

void fpk_set_driver_event(struct fpk *d, u16 off_wrap, u16 flags)
{
	fmem_put16(d->m, d->drv_event + EV_OFF_WRAP, off_wrap);
	fmem_put16(d->m, d->drv_event + EV_FLAGS, flags);
}

void fpk_device_event(struct fpk *d, u16 *off_wrap, u16 *flags)
{
	*off_wrap = fmem_get16(d->m, d->dev_event + EV_OFF_WRAP);
	*flags = fmem_get16(d->m, d->dev_event + EV_FLAGS);
}

void tpq_init(struct tpq *q, struct fmem *m, u16 num, bool event_idx,
	      bool indirect)
{
	memset(q, 0, sizeof(*q));
	fpk_init(&q->drv, m, num);
	q->ring.mem = m->mem;
	q->ring.packed = true;
	q->ring.event_idx = event_idx;
	q->ring.indirect = indirect;
	q->ring.max_ids = num;
	q->ring.id_descs = calloc(num, sizeof(*q->ring.id_descs));
	assert_non_null(q->ring.id_descs);
	assert_int_equal(vsb_ring_setup(&q->ring, num, q->drv.desc,
					q->drv.drv_event, q->drv.dev_event,
					VSB_RING_BASE_PACKED_FRESH),
			 VSB_FAULT_NONE);
	assert_int_equal(vsb_ring_start(&q->ring), 0);
	q->chain.segs = calloc(num, sizeof(*q->chain.segs));
	assert_non_null(q->chain.segs);
	q->chain.max_segs = num;
}

void tpq_fini(struct tpq *q)
{
	free(q->chain.segs);
	free(q->ring.id_descs);
	q->chain.segs = NULL;
	q->ring.id_descs = NULL;
}

int tpq_pop(struct tpq *q)
{
	return vsb_ring_pop(&q->ring, &q->chain);
}

void tpq_pop_fails_at(struct tpq *q, enum vsb_fault fault, const char *file,
		      int line)
{
	int ret = tpq_pop(q);

	if (ret != -EIO || q->ring.fault != fault) {
		print_error("pop: %d, fault \"%s\"; want -EIO, \"%s\"\n", ret,
			    vsb_fault_name(q->ring.fault),
			    vsb_fault_name(fault));
		_fail(file, line);
	}
}
