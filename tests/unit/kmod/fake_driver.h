/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver side of a split virtqueue in fake memory, shared by all the
 * unit tests: lays out the descriptor table, avail and used rings, adds
 * chains (direct or through an indirect table), writes raw descriptors and
 * ring fields for malformed input, and reads back used entries.
 *
 * It encodes the ring with <endian.h> directly rather than with the shim's
 * helpers, so a mistake in vsb_seam_host.h cannot cancel itself out.
 *
 * struct tq pairs one such driver with the device's struct vsb_ring over
 * the same memory, plus the segment array a chain is taken into.
 */
#ifndef FAKE_DRIVER_H
#define FAKE_DRIVER_H

#include "vsb_ring.h"
#include "fake_mem.h"

/*
 * used->flags and avail_event at start: the device writes the first when
 * a ring starts, the second only with EVENT_IDX.
 */
#define FDRV_POISON16 0xbeef

/* One buffer for fdrv_add_chain(): readable unless write is set. */
struct fbuf {
	u64 addr;
	u32 len;
	bool write;
};

/* A readable and a writable buffer, for FBUFS(). */
#define RD(addr, len) ((struct fbuf){ (addr), (len), false })
#define WR(addr, len) ((struct fbuf){ (addr), (len), true })

/* FBUFS(RD(a, 10), WR(b, 4)): the bufs and their count, two arguments. */
#define FBUFS(...)                                              \
	((const struct fbuf[]){ __VA_ARGS__ }),                 \
		(sizeof((const struct fbuf[]){ __VA_ARGS__ }) / \
		 sizeof(struct fbuf))

/* SPLIT(2, 6): buffer sizes per descriptor, as (array, count) arguments. */
#define SPLIT(...)                      \
	((const u32[]){ __VA_ARGS__ }), \
		(sizeof((const u32[]){ __VA_ARGS__ }) / sizeof(u32))

struct fdrv {
	struct fmem *m;
	u16 num;
	u64 desc;
	u64 avail;
	u64 used;
	int desc_rgn;
	int avail_rgn;
	/* the used ring as three regions, to tell its writes apart */
	int used_hdr_rgn; /* flags and idx */
	int used_ring_rgn; /* the used elements */
	int avail_event_rgn; /* the word after them */
	u16 next_desc; /* next descriptor fdrv_add_chain() takes */
	u16 avail_idx; /* the driver's copy of avail idx */
	u16 last_used; /* next used entry fdrv_get_used() reads */
};

void fdrv_init(struct fdrv *d, struct fmem *m, u16 num, u16 start_idx);

/* Raw descriptor i of the table at table (the ring's or an indirect one). */
void fdrv_write_desc(struct fdrv *d, u64 table, u16 i, u64 addr, u32 len,
		     u16 flags, u16 next);
void fdrv_set_desc(struct fdrv *d, u16 i, u64 addr, u32 len, u16 flags,
		   u16 next);

/* Lay bufs out as a chain of descriptors from next_desc; returns the head. */
u16 fdrv_build_chain(struct fdrv *d, const struct fbuf *bufs, unsigned int n);
/* Build a chain and make it available; returns the head. */
u16 fdrv_add_chain(struct fdrv *d, const struct fbuf *bufs, unsigned int n);
/* Lay bufs out in an indirect table at table (0: allocate one). */
u64 fdrv_build_table(struct fdrv *d, u64 table, const struct fbuf *bufs,
		     unsigned int n);
/* One ring descriptor pointing to a new indirect table of bufs; avail it. */
u16 fdrv_add_indirect(struct fdrv *d, const struct fbuf *bufs, unsigned int n);

/* Put head in the next avail ring entry and publish it with avail idx. */
void fdrv_make_avail(struct fdrv *d, u16 head);
void fdrv_set_avail_idx(struct fdrv *d, u16 idx);
void fdrv_set_avail_flags(struct fdrv *d, u16 flags);
/* A driver's garbage in the device's used->flags. */
void fdrv_set_used_flags(struct fdrv *d, u16 flags);
void fdrv_set_used_event(struct fdrv *d, u16 val);

u16 fdrv_used_idx(struct fdrv *d);
u16 fdrv_used_flags(struct fdrv *d);
u16 fdrv_avail_event(struct fdrv *d);
/* Read used entry i (ring position i mod num). */
void fdrv_used_elem(struct fdrv *d, u16 i, u32 *id, u32 *len);
/* Take the next published used entry; false if there is none. */
bool fdrv_get_used(struct fdrv *d, u32 *id, u32 *len);
/*
 * Take the next used entry, which must exist and be (id, len). The
 * checking helpers are macros so that a failure names the test's line.
 */
#define fdrv_expect_used(d, id, len) \
	fdrv_expect_used_at(d, id, len, __FILE__, __LINE__)
void fdrv_expect_used_at(struct fdrv *d, u32 id, u32 len, const char *file,
			 int line);
/* No used entry published beyond what was taken. */
void fdrv_expect_no_used(struct fdrv *d);
/* Device writes to any part of the used ring. */
unsigned int fdrv_used_writes(struct fdrv *d);

/* One queue: the fake driver and the device's ring over the same memory. */
struct tq {
	struct fdrv drv;
	struct vsb_ring ring;
	struct vsb_chain chain;
	struct vsb_ring_window win;
};

/*
 * Lay out a queue of num entries starting at index start, set the device
 * ring up on it and start it, as the module's first run does (both must
 * succeed); chain.segs gets exactly num entries, on the heap, so the
 * sanitizer sees any write past them.
 */
void tq_init(struct tq *q, struct fmem *m, u16 num, u16 start, bool event_idx,
	     bool indirect);
void tq_fini(struct tq *q);
/* vsb_ring_pop() into q->chain. */
int tq_pop(struct tq *q);
/* Pop, which must fail with -EIO and this fault. */
#define tq_pop_fails(q, fault) tq_pop_fails_at(q, fault, __FILE__, __LINE__)
void tq_pop_fails_at(struct tq *q, enum vsb_fault fault, const char *file,
		     int line);

/* A data buffer of len bytes filled with fill. */
u64 tbuf(struct fmem *m, u32 len, unsigned int perm, u8 fill);

#endif /* FAKE_DRIVER_H */
