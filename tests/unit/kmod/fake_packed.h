/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver side of a packed virtqueue in fake memory: lays out the
 * descriptor ring and both event suppression areas, makes chains available
 * (direct or through an indirect table) with the flags of its Driver Ring
 * Wrap Counter, writes raw descriptors for malformed input, and reads back
 * used descriptors, skipping each chain's length as the spec's driver
 * does.
 *
 * Like fake_driver.c it encodes with <endian.h> directly, so a mistake in
 * the shim cannot cancel itself out.
 *
 * struct tpq pairs one such driver with a packed struct vsb_ring over the
 * same memory, plus the chain and buffer id tables the owner provides.
 */
#ifndef FAKE_PACKED_H
#define FAKE_PACKED_H

#include "vsb_ring.h"
#include "fake_driver.h"
#include "fake_mem.h"

#define FPK_AVAIL (1 << 7)
#define FPK_USED (1 << 15)
#define FPK_EV_ENABLE 0
#define FPK_EV_DISABLE 1
#define FPK_EV_DESC 2
/* The largest queue the tests use. */
#define FPK_MAX_NUM 64

struct fpk {
	struct fmem *m;
	u16 num;
	u64 desc;
	u64 drv_event; /* the driver area: written by the driver */
	u64 dev_event; /* the device area: written by the device */
	int desc_rgn;
	int dev_event_rgn;
	u16 next_avail; /* next descriptor fpk_add() fills */
	bool avail_wrap;
	u16 next_used; /* next descriptor fpk_get_used() reads */
	bool used_wrap;
	u16 chain_len[FPK_MAX_NUM]; /* per id in flight */
};

void fpk_init(struct fpk *d, struct fmem *m, u16 num);

/* The flags an available descriptor gets in the lap of wrap. */
u16 fpk_avail_flags(bool wrap);

/* Raw descriptor at ring position pos, or entry pos of a table. */
void fpk_write_desc(struct fpk *d, u64 table, u16 pos, u64 addr, u32 len,
		    u16 id, u16 flags);
u16 fpk_desc_flags(struct fpk *d, u16 pos);
/* Only the flags of ring descriptor pos: what makes a chain available. */
void fpk_set_desc_flags(struct fpk *d, u16 pos, u16 flags);

/*
 * Make bufs available as one chain with buffer id @id, first descriptor's
 * flags last; returns the position of the first.
 */
u16 fpk_add(struct fpk *d, const struct fbuf *bufs, unsigned int n, u16 id);
/* One descriptor pointing to an indirect table of bufs; avail it. */
u16 fpk_add_indirect(struct fpk *d, const struct fbuf *bufs, unsigned int n,
		     u16 id);

/* Read the next used descriptor: false if the device wrote none. */
bool fpk_get_used(struct fpk *d, u16 *id, u32 *len, u16 *flags);
void fpk_expect_used_at(struct fpk *d, u16 id, u32 len, const char *file,
			int line);
#define fpk_expect_used(d, id, len) \
	fpk_expect_used_at((d), (id), (len), __FILE__, __LINE__)
void fpk_expect_no_used(struct fpk *d);

void fpk_set_driver_event(struct fpk *d, u16 off_wrap, u16 flags);
void fpk_device_event(struct fpk *d, u16 *off_wrap, u16 *flags);

struct tpq {
	struct fpk drv;
	struct vsb_ring ring;
	struct vsb_chain chain;
};

void tpq_init(struct tpq *q, struct fmem *m, u16 num, bool event_idx,
	      bool indirect);
void tpq_fini(struct tpq *q);
int tpq_pop(struct tpq *q);
void tpq_pop_fails_at(struct tpq *q, enum vsb_fault fault, const char *file,
		      int line);
#define tpq_pop_fails(q, fault) \
	tpq_pop_fails_at((q), (fault), __FILE__, __LINE__)

#endif /* FAKE_PACKED_H */
