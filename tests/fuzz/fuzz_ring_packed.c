// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ring_packed: the packed-ring engine (kmod/engine/vsb_ring_packed.c behind
 * kmod/engine/vsb_ring.c) served the way the module serves a queue (kmod/vdpa/vsb_run.c:
 * pop, read and write the chain, push, publish, notify, disable and re-arm
 * kicks, poll), against a driver that writes whatever the input says:
 * chains in and across the ring's end, indirect tables, flags of the wrong
 * lap or marked used, ids out of range or still in flight, chains longer
 * than the ring; any queue size, EVENT_IDX and INDIRECT on or off, rings
 * in or out of memory and read-only, an IOTLB with holes, chains completed
 * in any order, SET_VRING_BASE and its round trip, and writes racing the
 * device.
 *
 * A model written from the spec ("Packed Virtqueues") follows the device:
 * where it takes the next chain and with which wrap counter, the ids in
 * flight and their descriptor counts, where each used descriptor goes.
 * Invariants, each an abort:
 *   - no access out of bounds, no undefined behaviour (ASan, UBSan);
 *   - a pop writes nothing (but once per setup the device area); it takes
 *     the chain the model reads at the model's position, with the model's
 *     buffers, or reports the model's fault: PACKED_FLAGS for a head
 *     marked used in the current lap or a later descriptor not available
 *     in its lap, CHAIN_LOOP, ID_RANGE, ID_IN_USE, a buffer fault for a
 *     bad buffer (the chain then comes back with its id); never an id in
 *     flight;
 *   - push and publish write only used descriptors (len, id, flags), each
 *     at the position the model computes, skipping the previous chain's
 *     descriptors, flags AVAIL = USED = the Device Ring Wrap Counter and
 *     WRITE when data was written, the first one's flags last; publish
 *     writes all that were pushed; a write that failed is made again,
 *     whole and at the same places, by the next flush;
 *   - the device never writes the driver area; it writes the device area
 *     only as an event structure saying ENABLE, DISABLE or DESC for the
 *     next descriptor (with EVENT_IDX);
 *   - need_notify and re-armed kicks answer what the model reads;
 *   - every chain taken is completed by the end of the round unless a
 *     ring write failed; vsb_ring_base() gives the model's positions and
 *     wrap counters; the id table says what is in flight;
 *   - the serving loop ends; a bad set-up or base reports RING_CONFIG.
 */

#include <stdlib.h>

#include "fake_packed.h"
#include "fuzz_chain.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "fuzz_mem.h"
#include "fuzz_serve.h"

/* Queue sizes the driver lays out; raw sizes go up to 2^16 - 1. */
#define NUM_MAX 512
/* "Packed virtqueues support up to 2^15 entries each." */
#define NUM_SPEC_MAX 32768
#define DATA_OFF (FMEM_SIZE / 2)
#define DATA_LEN 0x8000U
#define CHAIN_MAX 8
#define OPS_MAX 64
#define MAPS_MAX 8
/* Chains held back for completing out of order. */
#define HELD_MAX 64
/* Pushed, not yet written: a stage, and the push that finds it full. */
#define PENDING_MAX (VSB_RING_BATCH + 1)

#define WRAP_BIT 0x8000
#define DESC_SIZE 16
#define DESC_LEN_OFF 8
#define DESC_FLAGS_OFF 14

/* The faults of a bad buffer, as against a bad ring structure. */
#define BUFFER_FAULTS                                                       \
	(BIT(VSB_FAULT_WRITE_ORDER) | BIT(VSB_FAULT_ADDR_WRAP) |            \
	 BIT(VSB_FAULT_CHAIN_BYTES) | BIT(VSB_FAULT_CHAIN_LONG) |           \
	 BIT(VSB_FAULT_INDIRECT_FEATURE) | BIT(VSB_FAULT_INDIRECT_NESTED) | \
	 BIT(VSB_FAULT_INDIRECT_NEXT) | BIT(VSB_FAULT_INDIRECT_LEN) |       \
	 BIT(VSB_FAULT_BUFFER_ACCESS))

enum ring_layout {
	LAYOUT_DRIVER, /* allocated and mapped as a driver would */
	LAYOUT_IN_MEMORY, /* anywhere in memory, mapped by the input only */
	LAYOUT_RAW, /* any 64-bit addresses: the driver cannot reach them */
	LAYOUT_COUNT
};

/* The model's device: what the spec says it has done so far. */
struct model {
	u16 avail_pos;
	bool avail_wrap;
	/*
	 * The flags of the descriptor at avail_pos when the last chain was
	 * taken, if they said available: the engine may take them for the
	 * next pop instead of reading them again ("A driver MUST NOT change
	 * a descriptor after changing the VIRTQ_DESC_F_AVAIL bit").
	 */
	bool head_seen;
	bool head_readable;
	u16 head_flags;
	u16 used_pos;
	bool used_wrap;
	u16 *in_flight; /* per id below num: its chain's descriptors */
	u32 nr_in_flight;
	struct {
		u16 id;
		u32 len;
	} pending[PENDING_MAX];
	u32 nr_pending;
	/* Positions (over two laps) used since the last notify decision. */
	u8 *used_since;
	u32 unsignalled;
	bool started;
	bool kicks_off;
	/* The ring was refused at setup: there is nothing to follow. */
	bool lost;
};

struct seg_want {
	u64 addr;
	u32 len;
	bool writable;
};

/* What the model says the next pop does. */
struct pop_want {
	int ret;
	enum vsb_fault fault; /* a structure fault; NONE */
	u32 buffer_faults; /* the first bad buffer's, any of them */
	bool head; /* chain->head set: walked to the end, id free */
	u16 id;
	u16 descs;
	u16 nr_segs;
	struct seg_want segs[NUM_MAX];
	/*
	 * The model cannot tell: a size larger than it follows (raw, in
	 * memory by chance), or a ring or table not readable byte for byte.
	 */
	bool unknown;
};

struct packed_fuzz {
	struct fuzz_input in;
	struct fmem *m;
	struct fuzz_mem fm;
	struct fpk drv; /* ring fields valid unless layout is RAW */
	enum ring_layout layout;
	struct vsb_ring ring;
	struct vsb_chain chain;
	struct model md;
	u64 data;
	/* How the module serves it, and the chain each pop fills. */
	struct fsv sv;
	struct fch ch;
	/* This round: bytes read and written per chain, chains held back. */
	u16 read_len;
	u16 write_len;
	bool hold;
	/* This round, a ring write failed: nothing need complete. */
	bool used_write_failed;
	/* FUZZ_RING_PACKED_TRACE: each pop on stderr, to check seeds. */
	bool trace;
	struct {
		u16 id;
		u32 len;
	} held[HELD_MAX];
	u32 nr_held;
	struct pop_want want;
	u16 next_id; /* the driver's next buffer id */
	/* all_readable() of the ring since the IOTLB changed; -1: not known */
	int ring_clean;
};

static u16 get16(const u8 *p)
{
	return p[0] | p[1] << 8;
}

static u32 get32(const u8 *p)
{
	return get16(p) | (u32)get16(p + 2) << 16;
}

static u64 get64(const u8 *p)
{
	return get32(p) | (u64)get32(p + 4) << 32;
}

/* Read as the device would: through the IOTLB, with its permissions. */
static bool dev_read(struct packed_fuzz *f, u64 addr, void *buf, u32 len)
{
	return !f->m->mem.ops->read(f->m->mem.priv, addr, buf, len);
}

static bool flags_avail(u16 flags, bool wrap)
{
	return !!(flags & FPK_AVAIL) == wrap && !!(flags & FPK_USED) != wrap;
}

/* Marked used in the lap the driver is filling: no device did that. */
static bool flags_used_now(u16 flags, bool wrap)
{
	return !!(flags & FPK_AVAIL) == wrap && !!(flags & FPK_USED) == wrap;
}

static void advance(u16 num, u16 *pos, bool *wrap, u32 n)
{
	while (n--) {
		if (++*pos == num) {
			*pos = 0;
			*wrap = !*wrap;
		}
	}
}

static u32 encode(u16 pos, bool wrap)
{
	return pos | (wrap ? WRAP_BIT : 0);
}

static u32 model_base(const struct model *md)
{
	return encode(md->avail_pos, md->avail_wrap) |
	       encode(md->used_pos, md->used_wrap) << 16;
}

static u16 model_next(const struct model *md)
{
	return encode(md->avail_pos, md->avail_wrap);
}

/* ---- setup ---- */

static u16 ring_num(struct packed_fuzz *f)
{
	u8 sel = fin_u8(&f->in);

	if (sel & 0x80)
		return fin_u16(&f->in);
	if (sel & 0x40)
		return 1 + fin_below(&f->in, NUM_MAX);
	return 1 + (sel & 0x3f);
}

/* From "Structure Size and Alignment", not from the engine. */
static bool config_ok(const struct packed_fuzz *f, u16 num, u64 desc, u64 avail,
		      u64 used, u32 max_ids)
{
	u64 end;

	if (!num || num > NUM_SPEC_MAX || num > max_ids || !f->ring.id_descs)
		return false;
	if (desc % 16 || avail % 4 || used % 4)
		return false;
	return !__builtin_add_overflow(desc, 16ULL * num - 1, &end) &&
	       !__builtin_add_overflow(avail, 3, &end) &&
	       !__builtin_add_overflow(used, 3, &end);
}

static u64 in_memory_addr(struct packed_fuzz *f, u64 size, u64 align)
{
	u64 addr = FMEM_BASE + fin_below(&f->in, FMEM_SIZE - size + 1);

	return addr & ~(align - 1);
}

static void layout(struct packed_fuzz *f, u16 num, bool aligned)
{
	struct fpk *d = &f->drv;

	d->m = f->m;
	d->num = num;
	if (f->layout == LAYOUT_DRIVER) {
		/* The driver area is the driver's; the rest the device's too. */
		d->desc = fmem_alloc_addr(f->m, 16ULL * num, 16, FMEM_RW);
		d->drv_event = fmem_alloc_addr(f->m, 4, 4, FMEM_RO);
		d->dev_event = fmem_alloc_addr(f->m, 4, 4, FMEM_RW);
		return;
	}
	d->desc = in_memory_addr(f, 16ULL * num, aligned ? 16 : 1);
	d->drv_event = in_memory_addr(f, 4, aligned ? 4 : 1);
	d->dev_event = in_memory_addr(f, 4, aligned ? 4 : 1);
}

/*
 * A ring at rest at the base: behind the avail position the current
 * lap's used descriptors, ahead of it the previous lap's.
 */
static void driver_at_rest(struct packed_fuzz *f)
{
	struct fpk *d = &f->drv;
	u16 i;

	for (i = 0; i < d->num; i++) {
		bool wrap = i < d->next_avail ? d->avail_wrap : !d->avail_wrap;

		fpk_write_desc(d, d->desc, i, 0, 0, 0,
			       wrap ? FPK_AVAIL | FPK_USED : 0);
	}
}

static void model_set_base(struct packed_fuzz *f, u32 base)
{
	struct model *md = &f->md;

	md->avail_pos = base & (WRAP_BIT - 1);
	md->avail_wrap = base & WRAP_BIT;
	md->head_seen = false;
	md->used_pos = base >> 16 & (WRAP_BIT - 1);
	md->used_wrap = base >> 16 & WRAP_BIT;
	md->nr_pending = 0;
	md->unsignalled = 0;
	if (md->avail_pos >= f->ring.num || md->used_pos >= f->ring.num)
		return;
	memset(md->in_flight, 0, f->ring.num * sizeof(*md->in_flight));
	md->nr_in_flight = 0;
	memset(md->used_since, 0, (2 * f->ring.num + 7) / 8);
}

static u32 fuzz_base(struct packed_fuzz *f, u16 num)
{
	u8 sel = fin_u8(&f->in);
	u32 pos;

	if (sel & 1)
		return fin_u32(&f->in);
	if (!(sel & 6))
		return VSB_RING_BASE_PACKED_FRESH;
	/* At rest: the used side caught up with the avail side. */
	pos = encode(fin_below(&f->in, num ? num : 1), sel & 2);
	return pos | pos << 16;
}

static void setup(struct packed_fuzz *f)
{
	u16 num = ring_num(f);
	u8 flags = fin_u8(&f->in);
	u8 more = fin_u8(&f->in);
	u32 max_ids = more & 1 ? fin_u16(&f->in) : num;
	struct fpk *d = &f->drv;
	unsigned int i, maps;
	u32 base;

	f->sv = (struct fsv){ .q = f, .fm = &f->fm, .ring = &f->ring };
	f->sv.kicks_off = &f->md.kicks_off;
	f->layout = fsv_set_mode(&f->sv, flags) % LAYOUT_COUNT;
	if (!num || num > NUM_MAX)
		f->layout = LAYOUT_RAW;
	f->ring.packed = true;
	f->sv.limit = fin_u8(&f->in);
	f->ring_clean = -1;
	f->trace = getenv("FUZZ_RING_PACKED_TRACE") != NULL;

	if (f->layout != LAYOUT_RAW)
		layout(f, num, !(more & 2));
	f->data = FMEM_BASE + DATA_OFF;
	fmem_map(f->m, f->data, DATA_LEN, FMEM_RW);
	maps = fin_below(&f->in, MAPS_MAX + 1);
	for (i = 0; i < maps; i++)
		fmw_fuzz_map(&f->fm, &f->in);
	/* Where the driver cannot write: the device is told anything. */
	if (f->layout == LAYOUT_RAW) {
		d->desc = fin_u64(&f->in);
		d->drv_event = fin_u64(&f->in);
		d->dev_event = fin_u64(&f->in);
	}

	f->ring.max_ids = max_ids;
	if (!(more & 4))
		f->ring.id_descs = calloc(max_ids ? max_ids : 1,
					  sizeof(*f->ring.id_descs));
	f->md.in_flight = calloc(num ? num : 1, sizeof(*f->md.in_flight));
	f->md.used_since = calloc((2 * (u32)num + 7) / 8 + 1, 1);
	FUZZ_CHECK(f->md.in_flight && f->md.used_since, "out of memory");
	f->ring.mem = f->fm.mem;
	base = fuzz_base(f, num);
	f->ring.fault = vsb_ring_setup(&f->ring, num, d->desc, d->drv_event,
				       d->dev_event, base);
	FUZZ_CHECK(
		(f->ring.fault == VSB_FAULT_NONE) ==
			(config_ok(f, num, d->desc, d->drv_event, d->dev_event,
				   max_ids) &&
			 (base & (WRAP_BIT - 1)) < num &&
			 (base >> 16 & (WRAP_BIT - 1)) < num),
		"setup num %u ids %u desc %#llx areas %#llx %#llx base %#x: %s",
		num, max_ids, (unsigned long long)d->desc,
		(unsigned long long)d->drv_event,
		(unsigned long long)d->dev_event, base,
		vsb_fault_name(f->ring.fault));
	if (f->trace)
		fprintf(stderr, "setup num %u: %s\n", num,
			vsb_fault_name(f->ring.fault));
	FUZZ_CHECK(!f->ring.fault || f->ring.fault == VSB_FAULT_RING_CONFIG,
		   "setup: %s", vsb_fault_name(f->ring.fault));
	model_set_base(f, base);
	/* A ring that never worked: every call must fail, nothing to follow. */
	f->md.lost = f->ring.fault != VSB_FAULT_NONE;
	if (f->md.avail_pos < num) {
		f->drv.next_avail = f->md.avail_pos;
		f->drv.avail_wrap = f->md.avail_wrap;
		if (f->layout != LAYOUT_RAW && (more & 8))
			driver_at_rest(f);
	}

	fch_alloc_segs(&f->chain, &f->in, num, flags & FSV_FULL_SEGS);
	f->ch = (struct fch){ &f->in, &f->fm, &f->ring, &f->chain };
}

/* ---- the driver ---- */

/* Flags of an available descriptor, or of one from the wrong lap. */
static u16 lap_flags(struct packed_fuzz *f, u8 kind, bool wrap)
{
	static const u16 patterns[] = { FPK_AVAIL | FPK_USED, 0, FPK_AVAIL,
					FPK_USED };

	if (!(kind & 8))
		return fpk_avail_flags(wrap);
	return patterns[fin_u8(&f->in) % 4];
}

/* A descriptor's buffer: usually in the data area, any when asked. */
static void buffer(struct packed_fuzz *f, u8 kind, u64 *addr, u32 *len)
{
	*addr = f->data + fin_below(&f->in, DATA_LEN);
	*len = fin_below(&f->in, 512);
	if (kind & 0x80)
		*addr = fin_u64(&f->in);
	if (kind & 0x40)
		*len = fin_u32(&f->in);
}

static u16 chain_id(struct packed_fuzz *f, u8 kind)
{
	u16 i, id;

	if (kind & 1)
		return fin_u16(&f->in);
	if (kind & 2)
		return fin_below(&f->in, f->drv.num);
	/* The next the device does not hold, as a driver picks them. */
	for (i = 0; i < f->drv.num; i++) {
		id = f->next_id++ % f->drv.num;
		if (!f->md.in_flight[id])
			break;
	}
	return id;
}

/*
 * A chain of n descriptors at the driver's position, its id in the last,
 * the first one's flags written last as the spec's driver does.
 */
static void driver_chain(struct packed_fuzz *f)
{
	struct fpk *d = &f->drv;
	u8 kind = fin_u8(&f->in);
	u32 n = 1 + fin_below(&f->in, CHAIN_MAX);
	u16 id = chain_id(f, kind), pos = d->next_avail, first = pos;
	bool wrap = d->avail_wrap;
	u16 first_flags = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		u8 dk = fin_u8(&f->in);
		u16 flags = lap_flags(f, dk, wrap);
		u64 addr;
		u32 len;

		buffer(f, dk, &addr, &len);
		if (dk & 1)
			flags |= VRING_DESC_F_WRITE;
		if (i + 1 < n)
			flags |= VRING_DESC_F_NEXT;
		if (dk & 2)
			flags ^= VRING_DESC_F_NEXT;
		if (dk & 4)
			flags |= VRING_DESC_F_INDIRECT;
		if (!i) {
			first_flags = flags;
			flags = fpk_desc_flags(d, pos);
		}
		fpk_write_desc(d, d->desc, pos, addr, len,
			       i + 1 == n ? id : fin_u8(&f->in), flags);
		advance(d->num, &pos, &wrap, 1);
	}
	fpk_set_desc_flags(d, first, first_flags);
	/* Or leave the position: the next chain overwrites this one. */
	if (!(kind & 4)) {
		d->next_avail = pos;
		d->avail_wrap = wrap;
	}
}

/* One descriptor pointing to a table of n in the data area. */
static void driver_indirect(struct packed_fuzz *f)
{
	struct fpk *d = &f->drv;
	u8 kind = fin_u8(&f->in);
	u32 n = 1 + fin_below(&f->in, CHAIN_MAX);
	u64 table = f->data + 16 * fin_below(&f->in, DATA_LEN / 16 - CHAIN_MAX);
	u32 len = kind & 0x10 ? fin_u32(&f->in) : 16 * n;
	u16 id = chain_id(f, kind);
	u16 flags = lap_flags(f, kind, d->avail_wrap) | VRING_DESC_F_INDIRECT;
	u32 i;

	for (i = 0; i < n; i++) {
		u8 dk = fin_u8(&f->in);
		u64 addr;
		u32 blen;

		buffer(f, dk, &addr, &blen);
		/* Only WRITE counts in a table; the rest is ignored. */
		fpk_write_desc(d, table, i, addr, blen, dk,
			       dk & 0x20 ? fin_u16(&f->in) :
					   (dk & 1 ? VRING_DESC_F_WRITE : 0));
	}
	if (kind & 0x20)
		flags |= VRING_DESC_F_WRITE;
	if (kind & 0x40)
		flags |= VRING_DESC_F_NEXT;
	fpk_write_desc(d, d->desc, d->next_avail, table, len, id, flags);
	if (!(kind & 4))
		advance(d->num, &d->next_avail, &d->avail_wrap, 1);
}

static void driver_event(struct packed_fuzz *f)
{
	u8 sel = fin_u8(&f->in);
	u16 pos = f->md.used_pos;
	bool wrap = f->md.used_wrap;

	switch (sel % 4) {
	case 0:
		fpk_set_driver_event(&f->drv, fin_u16(&f->in), fin_u16(&f->in));
		break;
	case 1:
		fpk_set_driver_event(&f->drv, 0, FPK_EV_ENABLE);
		break;
	case 2:
		fpk_set_driver_event(&f->drv, 0, FPK_EV_DISABLE);
		break;
	default:
		/* A descriptor some way ahead of the device's used position. */
		advance(f->drv.num, &pos, &wrap,
			fin_below(&f->in, 2 * f->drv.num));
		fpk_set_driver_event(&f->drv, encode(pos, wrap), FPK_EV_DESC);
		break;
	}
}

static void driver_op(struct packed_fuzz *f, u8 op)
{
	struct fpk *d = &f->drv;

	switch (op) {
	case 0:
		driver_chain(f);
		break;
	case 1:
		driver_indirect(f);
		break;
	case 2:
		fpk_write_desc(d, d->desc, fin_below(&f->in, d->num),
			       fin_u64(&f->in), fin_u32(&f->in),
			       fin_u16(&f->in), fin_u16(&f->in));
		break;
	case 3:
		driver_event(f);
		break;
	default:
		/* The driver loses track of its position. */
		d->next_avail = fin_below(&f->in, d->num);
		d->avail_wrap = fin_u8(&f->in) & 1;
		break;
	}
}

/* ---- the device's writes ---- */

/* Whether [addr, addr + len) lies inside [start, start + size). */
static bool inside(u64 addr, u32 len, u64 start, u64 size)
{
	return addr >= start && len <= size && addr - start <= size - len;
}

/* Whether [addr, addr + 4) misses the descriptor ring. */
static bool ring_apart(const struct packed_fuzz *f, u64 addr)
{
	u64 size = 16ULL * f->ring.num;

	return addr + 4 <= f->ring.desc || addr >= f->ring.desc + size;
}

static bool overlaps(u64 a, u64 alen, u64 b, u64 blen)
{
	return a < b + blen && b < a + alen;
}

/* The driver area is the device's to read only, unless it overlaps. */
static void check_not_driver_area(const struct packed_fuzz *f,
				  const struct fmw_write *w)
{
	if (!ring_apart(f, f->ring.avail) ||
	    overlaps(f->ring.avail, 4, f->ring.used, 4))
		return;
	FUZZ_CHECK(!overlaps(w->addr, w->len, f->ring.avail, 4),
		   "device wrote %#llx+%u, in the driver area",
		   (unsigned long long)w->addr, w->len);
}

/*
 * The start of the ring (the first pop, publish or kick call after
 * setup) writes the device area once, saying ENABLE: check it and take
 * it out of the log.
 */
static void take_start_write(struct packed_fuzz *f)
{
	struct fuzz_mem *fm = &f->fm;
	const struct fmw_write *w = &fm->log[0];
	unsigned int logged;

	if (f->md.started || !fm->nr_writes)
		return;
	FUZZ_CHECK(w->addr == f->ring.used && w->len == 4 &&
			   get16(w->bytes + 2) == FPK_EV_ENABLE,
		   "ring start wrote %#llx+%u, flags %#x",
		   (unsigned long long)w->addr, w->len, get16(w->bytes + 2));
	f->md.started = !w->ret;
	logged = fm->nr_writes < FMW_LOG ? fm->nr_writes : FMW_LOG;
	memmove(fm->log, fm->log + 1, (logged - 1) * sizeof(*fm->log));
	fm->nr_writes--;
}

/* The one device-area write of a kick call: its flags and offset. */
static void check_event_write(struct packed_fuzz *f, bool disable,
			      const char *what)
{
	const struct fmw_write *w = &f->fm.log[0];
	u16 off_wrap = get16(w->bytes), flags = get16(w->bytes + 2);

	check_not_driver_area(f, w);
	FUZZ_CHECK(f->fm.nr_writes == 1 && w->addr == f->ring.used &&
			   w->len == 4,
		   "%s: %u writes, at %#llx+%u", what, f->fm.nr_writes,
		   (unsigned long long)w->addr, w->len);
	if (disable)
		FUZZ_CHECK(flags == FPK_EV_DISABLE, "%s: flags %#x", what,
			   flags);
	else if (f->ring.event_idx)
		FUZZ_CHECK(flags == FPK_EV_ENABLE ||
				   (flags == FPK_EV_DESC &&
				    off_wrap == model_next(&f->md)),
			   "%s: flags %#x off_wrap %#x, next %#x", what, flags,
			   off_wrap, model_next(&f->md));
	else
		FUZZ_CHECK(flags == FPK_EV_ENABLE, "%s: flags %#x", what,
			   flags);
}

/* A used descriptor the model expects: where, and its 8 last bytes. */
struct slot {
	u64 addr; /* of the descriptor's len field */
	u8 bytes[8];
	u8 covered; /* bit per byte written */
};

static void model_slots(struct packed_fuzz *f, struct slot *slots, u32 n,
			bool *overlap)
{
	struct model *md = &f->md;
	u16 pos = md->used_pos;
	bool wrap = md->used_wrap;
	u32 descs = 0, i;

	for (i = 0; i < n; i++) {
		u16 id = md->pending[i].id;
		u32 len = md->pending[i].len;
		u16 flags = (wrap ? FPK_AVAIL | FPK_USED : 0) |
			    (len ? VRING_DESC_F_WRITE : 0);
		u8 *b = slots[i].bytes;

		slots[i].addr = f->ring.desc + 16ULL * pos + DESC_LEN_OFF;
		slots[i].covered = 0;
		b[0] = len;
		b[1] = len >> 8;
		b[2] = len >> 16;
		b[3] = len >> 24;
		b[4] = id;
		b[5] = id >> 8;
		b[6] = flags;
		b[7] = flags >> 8;
		descs += md->in_flight[id];
		advance(f->ring.num, &pos, &wrap, md->in_flight[id]);
	}
	/* More in flight than the ring holds: the driver overran it. */
	*overlap = descs > f->ring.num;
}

/* Mark the used positions of entry i, over two laps, for need_notify. */
static void model_used(struct packed_fuzz *f, u16 id)
{
	struct model *md = &f->md;
	u16 n = md->in_flight[id];
	u32 lap = md->used_wrap ? 0 : f->ring.num;

	while (n--) {
		u32 at = md->used_pos + lap;

		md->used_since[at / 8] |= 1 << at % 8;
		advance(f->ring.num, &md->used_pos, &md->used_wrap, 1);
		lap = md->used_wrap ? 0 : f->ring.num;
		md->unsignalled++;
	}
	md->in_flight[id] = 0;
	md->nr_in_flight--;
}

/*
 * What push, publish or return_chain wrote: used descriptors for a
 * prefix of the pending ones (all of them for @all), each at its place,
 * the first one's flags last. Returns false if a write failed.
 */
static bool check_flush(struct packed_fuzz *f, bool all)
{
	struct model *md = &f->md;
	struct slot slots[PENDING_MAX];
	bool overlap;
	u32 k = 0, i, j, failed = ~0U;
	u32 logged = f->fm.nr_writes;

	FUZZ_CHECK(logged <= FMW_LOG, "%u writes", logged);
	for (i = 0; i < logged; i++)
		check_not_driver_area(f, &f->fm.log[i]);
	if (md->lost) {
		for (i = 0; i < logged; i++) {
			FUZZ_CHECK(inside(f->fm.log[i].addr, f->fm.log[i].len,
					  f->ring.desc, 16ULL * f->ring.num),
				   "device wrote outside the ring");
			if (f->fm.log[i].ret)
				failed = i;
		}
		f->used_write_failed = true;
		return failed == ~0U;
	}
	model_slots(f, slots, md->nr_pending, &overlap);
	for (i = 0; i < logged; i++) {
		const struct fmw_write *w = &f->fm.log[i];
		bool placed = false;

		if (w->ret && failed == ~0U)
			failed = i;
		for (j = 0; j < md->nr_pending && !placed; j++) {
			u32 off, b;

			if (!inside(w->addr, w->len, slots[j].addr, 8))
				continue;
			placed = true;
			off = w->addr - slots[j].addr;
			if (j + 1 > k)
				k = j + 1;
			if (overlap)
				continue;
			FUZZ_CHECK(
				!memcmp(w->bytes, slots[j].bytes + off, w->len),
				"used descriptor %u of %u written wrong at +%u",
				j, md->nr_pending, off);
			for (b = off; b < off + w->len; b++)
				slots[j].covered |= 1 << b;
			FUZZ_CHECK(
				j || off + w->len <= 6 || i + 1 == logged,
				"the first used descriptor's flags written before write %u",
				i + 1);
		}
		FUZZ_CHECK(placed, "device wrote %#llx+%u: no used descriptor",
			   (unsigned long long)w->addr, w->len);
	}
	if (failed != ~0U) {
		FUZZ_CHECK(f->ring.fault != VSB_FAULT_NONE,
			   "used write refused without a fault");
		f->used_write_failed = true;
		return false;
	}
	if (!overlap)
		for (j = 0; j < k; j++)
			FUZZ_CHECK(slots[j].covered == 0xff,
				   "used descriptor %u of %u written %#x", j, k,
				   slots[j].covered);
	FUZZ_CHECK(!all || k == md->nr_pending,
		   "published %u of %u used descriptors", k, md->nr_pending);
	for (j = 0; j < k; j++)
		model_used(f, md->pending[j].id);
	memmove(md->pending, md->pending + k,
		(md->nr_pending - k) * sizeof(md->pending[0]));
	md->nr_pending -= k;
	return true;
}

/* ---- the device, as kmod/vdpa/vsb_run.c runs it ---- */

/*
 * Whether the device can read every byte of [addr, addr + len): the first
 * region mapping the byte lets it. fake_mem checks an access region by
 * region from its start, so where regions overlap a range may read whole
 * while a part of it does not, or the other way round; only when every
 * byte is readable do all reads of its parts, the engine's and the
 * model's, agree.
 */
static bool all_readable(const struct packed_fuzz *f, u64 addr, u64 len)
{
	const struct fmem *m = f->m;
	unsigned int r;
	u64 i;

	for (i = 0; i < len; i++) {
		for (r = 0; r < m->nr_regions; r++) {
			const struct fmem_region *g = &m->regions[r];

			if (g->mapped && addr + i >= g->addr &&
			    addr + i - g->addr < g->len)
				break;
		}
		if (r == m->nr_regions || !(m->regions[r].perm & FMEM_RO))
			return false;
	}
	return true;
}

/*
 * The buffer rules of "Scatter-Gather Support" and "Indirect Flag": the
 * faults one buffer breaks, or 0. *written says a device-writable one
 * came earlier; *segs counts the non-empty ones, *bytes their length.
 */
static u32 buffer_faults(struct packed_fuzz *f, u64 addr, u32 len,
			 bool writable, bool *written, u32 *bytes)
{
	struct pop_want *pw = &f->want;
	u32 faults = 0;
	u64 last;

	if (!writable && *written)
		faults |= BIT(VSB_FAULT_WRITE_ORDER);
	*written |= writable;
	if (!len)
		return faults;
	if (__builtin_add_overflow(addr, (u64)len - 1, &last))
		faults |= BIT(VSB_FAULT_ADDR_WRAP);
	if ((u64)*bytes + len > U32_MAX)
		faults |= BIT(VSB_FAULT_CHAIN_BYTES);
	if (pw->nr_segs >= f->ring.num || pw->nr_segs >= f->chain.max_segs)
		faults |= BIT(VSB_FAULT_CHAIN_LONG);
	if (faults)
		return faults;
	*bytes += len;
	pw->segs[pw->nr_segs].addr = addr;
	pw->segs[pw->nr_segs].len = len;
	pw->segs[pw->nr_segs].writable = writable;
	pw->nr_segs++;
	return 0;
}

/* The buffers of a ring descriptor, or of the table it points to. */
static u32 desc_faults(struct packed_fuzz *f, const u8 *desc, bool first,
		       bool *written, u32 *bytes)
{
	u64 addr = get64(desc);
	u32 len = get32(desc + DESC_LEN_OFF), n, i;
	u16 flags = get16(desc + DESC_FLAGS_OFF);
	u32 faults = 0;
	u8 *table;
	u64 last;

	if (!(flags & VRING_DESC_F_INDIRECT))
		return buffer_faults(f, addr, len, flags & VRING_DESC_F_WRITE,
				     written, bytes);
	if (!f->ring.indirect)
		faults |= BIT(VSB_FAULT_INDIRECT_FEATURE);
	/* "MUST NOT write direct descriptors with INDIRECT ... by NEXT" */
	if (!first || (flags & VRING_DESC_F_NEXT))
		faults |= BIT(VSB_FAULT_INDIRECT_NEXT);
	if (!len || len % DESC_SIZE || len / DESC_SIZE > f->ring.num)
		faults |= BIT(VSB_FAULT_INDIRECT_LEN);
	else if (__builtin_add_overflow(addr, (u64)len - 1, &last))
		faults |= BIT(VSB_FAULT_ADDR_WRAP);
	if (faults)
		return faults;
	n = len / DESC_SIZE;
	table = malloc(len);
	FUZZ_CHECK(table, "out of memory");
	/* Read in pieces, the table may fail part-way: can't tell. */
	if (!all_readable(f, addr, len) || !dev_read(f, addr, table, len)) {
		free(table);
		f->want.unknown = true;
		return BUFFER_FAULTS;
	}
	for (i = 0; i < n && !faults; i++) {
		const u8 *d = table + DESC_SIZE * i;

		/* "WRITE is the only valid flag"; the others are ignored. */
		faults = buffer_faults(f, get64(d), get32(d + DESC_LEN_OFF),
				       get16(d + DESC_FLAGS_OFF) &
					       VRING_DESC_F_WRITE,
				       written, bytes);
	}
	free(table);
	return faults;
}

/* After a chain was taken: what the engine may have seen of the next. */
static void note_head(struct packed_fuzz *f)
{
	struct model *md = &f->md;
	u8 raw[2];
	bool read;

	if (!f->ring.num) {
		md->head_seen = false;
		return;
	}
	read = dev_read(f,
			f->ring.desc + 16ULL * md->avail_pos + DESC_FLAGS_OFF,
			raw, 2);
	/*
	 * Flags the model cannot read alone the engine may have read with
	 * the chain's last descriptor: then any reading is the engine's.
	 */
	md->head_seen = !read || flags_avail(get16(raw), md->avail_wrap);
	md->head_flags = read ? get16(raw) : 0;
	md->head_readable = read;
}

/* The model's next pop, read from memory before the device reads it. */
static void model_pop(struct packed_fuzz *f)
{
	struct pop_want *pw = &f->want;
	struct model *md = &f->md;
	u16 num = f->ring.num, pos = md->avail_pos;
	bool wrap = md->avail_wrap, written = false;
	u32 bytes = 0;
	u8 desc[DESC_SIZE];
	u16 flags;

	pw->ret = -EIO;
	pw->fault = VSB_FAULT_NONE;
	pw->buffer_faults = 0;
	pw->head = false;
	pw->descs = 0;
	pw->nr_segs = 0;
	pw->unknown = num > NUM_MAX;
	if (pw->unknown)
		return;
	/*
	 * The engine reads these very bytes, unless it saw them available
	 * when it took the last chain: then it reads only the walk's.
	 */
	if (!dev_read(f, f->ring.desc + 16ULL * pos + DESC_FLAGS_OFF, desc,
		      2)) {
		pw->unknown = md->head_seen;
		md->head_seen = false;
		pw->fault = VSB_FAULT_RING_ACCESS;
		return;
	}
	flags = get16(desc);
	/* A driver that changed an available descriptor: either reading. */
	pw->unknown = md->head_seen &&
		      (!md->head_readable || flags != md->head_flags);
	md->head_seen = false;
	if (pw->unknown)
		return;
	if (flags_used_now(flags, wrap)) {
		pw->fault = VSB_FAULT_PACKED_FLAGS;
		return;
	}
	if (!flags_avail(flags, wrap)) {
		pw->ret = 0;
		return;
	}
	/* The walk's reads are the engine's to choose. */
	if (f->ring_clean < 0)
		f->ring_clean = all_readable(f, f->ring.desc, 16ULL * num);
	pw->unknown = !f->ring_clean;
	if (pw->unknown)
		return;
	for (;;) {
		if (pw->descs == num) {
			pw->fault = VSB_FAULT_CHAIN_LOOP;
			return;
		}
		if (!dev_read(f, f->ring.desc + 16ULL * pos, desc, DESC_SIZE)) {
			pw->fault = VSB_FAULT_RING_ACCESS;
			return;
		}
		flags = get16(desc + DESC_FLAGS_OFF);
		/* "flags ... must be set correctly in all descriptors" */
		if (pw->descs && !flags_avail(flags, wrap)) {
			pw->fault = VSB_FAULT_PACKED_FLAGS;
			return;
		}
		if (!pw->buffer_faults)
			pw->buffer_faults = desc_faults(f, desc, !pw->descs,
							&written, &bytes);
		pw->descs++;
		advance(num, &pos, &wrap, 1);
		if (!(flags & VRING_DESC_F_NEXT))
			break;
	}
	/* "Buffer ID is included in the last descriptor in the list." */
	pw->id = get16(desc + 12);
	if (pw->id >= num) {
		pw->fault = VSB_FAULT_ID_RANGE;
		return;
	}
	if (md->in_flight[pw->id]) {
		pw->fault = VSB_FAULT_ID_IN_USE;
		return;
	}
	pw->head = true;
	pw->ret = pw->buffer_faults ? -EIO : 1;
}

static void check_segs(struct packed_fuzz *f)
{
	const struct pop_want *pw = &f->want;
	const struct vsb_chain *c = &f->chain;
	u16 i, out = 0;

	for (i = 0; i < pw->nr_segs; i++)
		out += !pw->segs[i].writable;
	FUZZ_CHECK(c->nr_out == out && c->nr_in == pw->nr_segs - out,
		   "chain of %u + %u buffers, model %u + %u", c->nr_out,
		   c->nr_in, out, pw->nr_segs - out);
	for (i = 0; i < pw->nr_segs; i++)
		FUZZ_CHECK(c->segs[i].addr == pw->segs[i].addr &&
				   c->segs[i].len == pw->segs[i].len,
			   "buffer %u: %#llx+%u, model %#llx+%u", i,
			   (unsigned long long)c->segs[i].addr, c->segs[i].len,
			   (unsigned long long)pw->segs[i].addr,
			   pw->segs[i].len);
}

/* The pop's outcome against the model's, when nothing raced it. */
static void check_pop(struct packed_fuzz *f, int ret)
{
	const struct pop_want *pw = &f->want;
	enum vsb_fault fault = f->ring.fault;

	if (pw->unknown)
		return;
	if (pw->buffer_faults) {
		FUZZ_CHECK(ret == -EIO && (BIT(fault) & pw->buffer_faults),
			   "pop %d, fault %s; model: a bad buffer (%#x)", ret,
			   vsb_fault_name(fault), pw->buffer_faults);
	} else {
		FUZZ_CHECK(ret == pw->ret && fault == pw->fault,
			   "pop %d, fault %s; model %d, %s", ret,
			   vsb_fault_name(fault), pw->ret,
			   vsb_fault_name(pw->fault));
	}
	FUZZ_CHECK(pw->head == (f->chain.head != U16_MAX) &&
			   (!pw->head || f->chain.head == pw->id),
		   "chain head %u; model %s %u", f->chain.head,
		   pw->head ? "id" : "none", pw->id);
	if (ret == 1)
		check_segs(f);
}

/* Take one chain: 1, 0 (nothing new) or -EIO, with the checks. */
static int pop(void *q)
{
	struct packed_fuzz *f = q;
	struct model *md = &f->md;
	u16 pos = md->avail_pos, id;
	bool wrap = md->avail_wrap, was_faulted = f->ring.fault;
	bool was_started = md->started, checked;
	unsigned int fired;
	int ret;

	if (!was_faulted)
		model_pop(f);
	fired = f->fm.races_fired;
	fmw_clear_log(&f->fm);
	ret = vsb_ring_pop(&f->ring, &f->chain);
	take_start_write(f);
	FUZZ_CHECK(!f->fm.nr_writes, "pop wrote %u times", f->fm.nr_writes);
	FUZZ_CHECK(ret == 1 || ret == 0 || ret == -EIO, "pop: %d", ret);
	FUZZ_CHECK((ret < 0) == (f->ring.fault != VSB_FAULT_NONE),
		   "pop %d with fault %s", ret, vsb_fault_name(f->ring.fault));
	if (was_faulted) {
		FUZZ_CHECK(ret == -EIO && f->chain.head == U16_MAX,
			   "pop on a faulted ring: %d, head %u", ret,
			   f->chain.head);
		return ret;
	}
	/* The start's write may land in a ring it overlaps. */
	checked = md->started && fired == f->fm.races_fired && !md->lost &&
		  (was_started || ring_apart(f, f->ring.used));
	if (checked)
		check_pop(f, ret);
	if (f->trace)
		fprintf(stderr, "pop %d id %u at %u/%u: %s%s\n", ret,
			f->chain.head, pos, wrap, vsb_fault_name(f->ring.fault),
			checked ? "" : " (unchecked)");
	if (ret == 1 || f->chain.head != U16_MAX) {
		id = f->chain.head;
		FUZZ_CHECK(id < f->ring.num, "id %u of %u", id, f->ring.num);
		FUZZ_CHECK(!md->in_flight[id], "id %u taken twice", id);
		md->in_flight[id] = f->ring.id_descs[id];
		md->nr_in_flight++;
		FUZZ_CHECK(md->in_flight[id] >= 1 &&
				   md->in_flight[id] <= f->ring.num,
			   "id %u holds %u descriptors", id, md->in_flight[id]);
		FUZZ_CHECK(!checked || f->want.unknown ||
				   md->in_flight[id] == f->want.descs,
			   "id %u holds %u descriptors, model %u", id,
			   md->in_flight[id], f->want.descs);
		advance(f->ring.num, &pos, &wrap, md->in_flight[id]);
	}
	FUZZ_CHECK(f->ring.last_avail == pos && f->ring.avail_wrap == wrap,
		   "avail position %u/%u, model %u/%u", f->ring.last_avail,
		   f->ring.avail_wrap, pos, wrap);
	md->avail_pos = pos;
	md->avail_wrap = wrap;
	if (ret == 1)
		note_head(f);
	if (ret == 1)
		fch_check_shape(&f->ch);
	return ret;
}

/* Push (or give back) a chain; false if the ring refused the write. */
static bool push(struct packed_fuzz *f, u16 id, u32 len, bool returned)
{
	struct model *md = &f->md;
	u16 before = f->ring.used_idx;
	/* A model that stopped following keeps no stage either. */
	bool staged = !md->lost;
	int ret;

	if (staged) {
		FUZZ_CHECK(md->nr_pending < PENDING_MAX, "stage never written");
		md->pending[md->nr_pending].id = id;
		md->pending[md->nr_pending].len = len;
		md->nr_pending++;
	}
	fmw_clear_log(&f->fm);
	if (returned) {
		vsb_ring_return_chain(&f->ring, &f->chain);
		ret = f->ring.used_idx == before ? -EIO : 0;
	} else {
		ret = vsb_ring_push(&f->ring, id, len);
	}
	FUZZ_CHECK(ret == 0 || ret == -EIO, "push: %d", ret);
	if (!check_flush(f, false) || ret) {
		FUZZ_CHECK(ret && f->ring.fault, "push %d, fault %s", ret,
			   vsb_fault_name(f->ring.fault));
		/* The new one was not staged. */
		if (staged)
			md->nr_pending--;
		f->used_write_failed = true;
		return false;
	}
	FUZZ_CHECK(f->ring.used_idx == (u16)(before + 1), "push moved by %u",
		   (u16)(f->ring.used_idx - before));
	FUZZ_CHECK(md->lost || md->nr_pending <= VSB_RING_BATCH,
		   "%u used descriptors pushed and not written",
		   md->nr_pending);
	return true;
}

/* Whether the driver area asks for a notification now; -1: either. */
static int model_notify(struct packed_fuzz *f)
{
	struct model *md = &f->md;
	u8 ev[4];
	u16 off_wrap, flags, off;
	u32 at;

	if (!dev_read(f, f->ring.avail, ev, sizeof(ev)))
		return 1;
	off_wrap = get16(ev);
	flags = get16(ev + 2);
	if (flags == FPK_EV_ENABLE)
		return 1;
	if (flags == FPK_EV_DISABLE)
		return 0;
	/* DESC without EVENT_IDX, reserved bits, or a lap or more used. */
	if (flags != FPK_EV_DESC || !f->ring.event_idx ||
	    md->unsignalled >= f->ring.num)
		return -1;
	off = off_wrap & (WRAP_BIT - 1);
	if (off >= f->ring.num)
		return 0;
	at = off + (off_wrap & WRAP_BIT ? 0 : f->ring.num);
	return md->used_since[at / 8] >> at % 8 & 1;
}

static void need_notify(struct packed_fuzz *f)
{
	struct model *md = &f->md;
	unsigned int fired = f->fm.races_fired;
	int want = model_notify(f);
	bool got;

	fmw_clear_log(&f->fm);
	got = vsb_ring_need_notify(&f->ring);
	FUZZ_CHECK(!f->fm.nr_writes, "need_notify wrote");
	if (fired == f->fm.races_fired && want >= 0)
		FUZZ_CHECK(got == want,
			   "need_notify %d, model %d (%u used since)", got,
			   want, md->unsignalled);
	md->unsignalled = 0;
	memset(md->used_since, 0, (2 * f->ring.num + 7) / 8);
}

static void publish(struct packed_fuzz *f)
{
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_publish(&f->ring);
	take_start_write(f);
	FUZZ_CHECK(ret == 0 || ret == -EIO, "publish: %d", ret);
	if (!check_flush(f, !ret) || ret) {
		FUZZ_CHECK(ret && f->ring.fault, "publish %d, fault %s", ret,
			   vsb_fault_name(f->ring.fault));
		f->used_write_failed = true;
		return;
	}
	FUZZ_CHECK(f->ring.used_published == f->ring.used_idx,
		   "published %u of %u", f->ring.used_published,
		   f->ring.used_idx);
	need_notify(f);
}

/* The head's flags as the model reads them after a kick call: 1, 0, -1. */
static int model_next_avail(struct packed_fuzz *f)
{
	u8 raw[2];
	u16 flags;

	if (!dev_read(f,
		      f->ring.desc + 16ULL * f->md.avail_pos + DESC_FLAGS_OFF,
		      raw, 2))
		return -1;
	flags = get16(raw);
	/* A bad head counts: the next pop is to report it. */
	return flags_avail(flags, f->md.avail_wrap) ||
	       flags_used_now(flags, f->md.avail_wrap);
}

static void check_kick_answer(struct packed_fuzz *f, int ret,
			      unsigned int fired, const char *what)
{
	int want;

	if (ret < 0 || fired != f->fm.races_fired)
		return;
	want = model_next_avail(f);
	FUZZ_CHECK(ret == want, "%s %d, model %d", what, ret, want);
}

static int enable_kicks(void *q)
{
	struct packed_fuzz *f = q;
	bool faulted = f->ring.fault;
	unsigned int fired = f->fm.races_fired;
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_enable_kicks(&f->ring);
	take_start_write(f);
	FUZZ_CHECK(ret >= -EIO && ret <= 1, "enable_kicks: %d", ret);
	FUZZ_CHECK(!faulted || (ret == -EIO && !f->fm.nr_writes),
		   "enable_kicks on a faulted ring: %d", ret);
	if (ret >= 0 || f->fm.nr_writes)
		check_event_write(f, false, "enable_kicks");
	if (ret >= 0)
		f->md.kicks_off = false;
	check_kick_answer(f, ret, fired, "enable_kicks");
	return ret;
}

static void disable_kicks(void *q)
{
	struct packed_fuzz *f = q;
	bool faulted = f->ring.fault, was_off = f->md.kicks_off;
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_disable_kicks(&f->ring);
	take_start_write(f);
	FUZZ_CHECK(ret == 0 || ret == -EIO, "disable_kicks: %d", ret);
	FUZZ_CHECK((ret < 0) == (f->ring.fault != VSB_FAULT_NONE),
		   "disable_kicks %d with fault %s", ret,
		   vsb_fault_name(f->ring.fault));
	FUZZ_CHECK(!faulted || !f->fm.nr_writes,
		   "disable_kicks wrote on a faulted ring");
	if (was_off)
		FUZZ_CHECK(!f->fm.nr_writes, "kicks disabled twice");
	else if (ret == 0 || f->fm.nr_writes)
		check_event_write(f, true, "disable_kicks");
	if (!ret)
		f->md.kicks_off = true;
}

static int poll_ring(void *q)
{
	struct packed_fuzz *f = q;
	u16 before = f->ring.last_avail;
	unsigned int fired = f->fm.races_fired;
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_poll(&f->ring);
	take_start_write(f);
	FUZZ_CHECK(ret == 1 || ret == 0 || ret == -EIO, "poll: %d", ret);
	FUZZ_CHECK(!f->fm.nr_writes, "poll wrote");
	FUZZ_CHECK(f->ring.last_avail == before, "poll took a chain");
	check_kick_answer(f, ret, fired, "poll");
	return ret;
}

/* Serve the chain just taken; false if it must be given back. */
static bool serve_chain(void *q)
{
	struct packed_fuzz *f = q;
	int written = fch_serve(&f->ch, f->read_len, f->write_len);

	if (written < 0)
		return false;
	if (f->hold && f->nr_held < HELD_MAX) {
		f->held[f->nr_held].id = f->chain.head;
		f->held[f->nr_held].len = written;
		f->nr_held++;
		return true;
	}
	if (!push(f, f->chain.head, written, false))
		return false;
	if (f->sv.immediate)
		publish(f);
	return true;
}

/* Complete the held chains in the order the input says. */
static void complete_held(struct packed_fuzz *f)
{
	while (f->nr_held) {
		u32 i = fin_below(&f->in, f->nr_held);
		u16 id = f->held[i].id;
		u32 len = f->held[i].len;

		f->held[i] = f->held[--f->nr_held];
		if (!push(f, id, len, false))
			break;
	}
	f->nr_held = 0;
}

static void check_round(struct packed_fuzz *f)
{
	const struct model *md = &f->md;
	u32 base = vsb_ring_base(&f->ring);
	u16 i;

	if (md->lost)
		return;
	FUZZ_CHECK(base == model_base(md), "base %#x, model %#x", base,
		   model_base(md));
	/* A base past the ring faulted it: the id table was left alone. */
	if (md->avail_pos >= f->ring.num || md->used_pos >= f->ring.num)
		return;
	/* Pushed or not, a chain holds its descriptors until written. */
	for (i = 0; i < f->ring.num; i++)
		FUZZ_CHECK((f->ring.id_descs[i] & ~VSB_RING_ID_STAGED) ==
				   md->in_flight[i],
			   "id %u holds %u descriptors, model %u", i,
			   f->ring.id_descs[i], md->in_flight[i]);
	if (f->used_write_failed)
		return;
	FUZZ_CHECK(!md->nr_in_flight && !md->nr_pending,
		   "%u chains in flight, %u pushed unwritten (%s)",
		   md->nr_in_flight, md->nr_pending,
		   vsb_fault_name(f->ring.fault));
	FUZZ_CHECK(f->ring.used_published == f->ring.used_idx,
		   "used %u staged, %u published", f->ring.used_idx,
		   f->ring.used_published);
}

static const struct fsv_ops packed_serve_ops = {
	.pop = pop,
	.poll = poll_ring,
	.enable_kicks = enable_kicks,
	.disable_kicks = disable_kicks,
	.serve_chain = serve_chain,
};

/* One run of the queue, like vsb_process_cvq(), chains maybe held. */
static void serve(struct packed_fuzz *f)
{
	int ret;

	f->sv.ops = &packed_serve_ops;
	f->read_len = fin_u16(&f->in);
	f->write_len = fin_u16(&f->in);
	f->hold = !f->sv.immediate && (fin_u8(&f->in) & 1);
	f->used_write_failed = false;
	f->nr_held = 0;
	ret = fsv_run(&f->sv);
	complete_held(f);
	if (ret < 0 && f->chain.head != U16_MAX)
		push(f, f->chain.head, 0, true);
	publish(f);
	check_round(f);
}

/* vhost's SET_VRING_BASE, fuzzed or what GET_VRING_BASE just said. */
static void set_base(struct packed_fuzz *f)
{
	u8 sel = fin_u8(&f->in);
	u32 base = sel & 1 ? fuzz_base(f, f->ring.num) :
			     vsb_ring_base(&f->ring);
	enum vsb_fault before = f->ring.fault;
	bool ok;

	vsb_ring_set_base(&f->ring, base);
	model_set_base(f, base);
	ok = f->md.avail_pos < f->ring.num && f->md.used_pos < f->ring.num;
	FUZZ_CHECK(f->ring.fault == (before ? before :
				     ok	    ? VSB_FAULT_NONE :
					      VSB_FAULT_RING_CONFIG),
		   "base %#x: fault %s", base, vsb_fault_name(f->ring.fault));
	FUZZ_CHECK(vsb_ring_base(&f->ring) == base, "base %#x set, %#x got",
		   base, vsb_ring_base(&f->ring));
	/* The driver restored along with the device, or not. */
	if (ok && (sel & 2)) {
		f->drv.next_avail = f->md.avail_pos;
		f->drv.avail_wrap = f->md.avail_wrap;
	}
}

/* Completing an id the device does not hold is refused, untouched. */
static void push_unknown(struct packed_fuzz *f)
{
	u16 id = fin_u16(&f->in), before = f->ring.used_idx;

	if (id < f->ring.num && f->md.in_flight[id])
		return;
	fmw_clear_log(&f->fm);
	FUZZ_CHECK(vsb_ring_push(&f->ring, id, fin_u32(&f->in)) == -EINVAL,
		   "push of id %u, not in flight, accepted", id);
	FUZZ_CHECK(!f->fm.nr_writes && f->ring.used_idx == before,
		   "refused push changed the ring");
}

/*
 * The IOTLB over descriptors [from, from + n) alone, read-only, write-only
 * or read-write: a ring mapped in pieces, as a driver may do wrong. The
 * mapping of the whole ring goes, or it would cover the pieces.
 */
static void ring_map(struct packed_fuzz *f)
{
	struct fmem *m = f->m;
	u16 num = f->drv.num;
	u16 from = fin_below(&f->in, num);
	u16 n = 1 + fin_below(&f->in, num - from);
	unsigned int perm = 1 + fin_below(&f->in, FMEM_RW);
	unsigned int i;

	for (i = 0; i < m->nr_regions; i++)
		if (m->regions[i].addr == f->drv.desc &&
		    m->regions[i].len == 16ULL * num)
			fmem_unmap(m, i);
	if (m->nr_regions < FMEM_MAX_REGIONS)
		fmem_map(m, f->drv.desc + 16ULL * from, 16ULL * n, perm);
}

static void run_op(struct packed_fuzz *f)
{
	u8 op = fin_u8(&f->in);

	if (f->layout == LAYOUT_RAW && op % 10 < 5)
		op = 5;
	switch (op % 10) {
	case 0:
	case 1:
	case 2:
	case 3:
	case 4:
		driver_op(f, op % 10);
		break;
	case 5:
		serve(f);
		break;
	case 6:
		if ((op & 0x80) && f->layout != LAYOUT_RAW)
			ring_map(f);
		else
			fmw_fuzz_map(&f->fm, &f->in);
		f->ring_clean = -1;
		break;
	case 7:
		fmw_add_race(&f->fm, &f->in);
		break;
	case 8:
		set_base(f);
		break;
	default:
		push_unknown(f);
		break;
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct packed_fuzz *f = calloc(1, sizeof(*f));
	unsigned int i;

	FUZZ_CHECK(f, "out of memory");
	fin_init(&f->in, data, size);
	f->m = fmem_new();
	fmw_init(&f->fm, f->m);
	setup(f);
	for (i = 0; i < OPS_MAX && !fin_empty(&f->in); i++)
		run_op(f);
	/* Whatever the input left available is served too. */
	serve(f);
	free(f->chain.segs);
	free(f->ring.id_descs);
	free(f->md.in_flight);
	free(f->md.used_since);
	fmem_free(f->m);
	free(f);
	return 0;
}
