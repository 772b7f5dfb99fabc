// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ring: the split-ring engine (kmod/engine/vsb_ring.c) served the way the
 * module serves a queue (kmod/vdpa/vsb_run.c: pop, read and write the chain,
 * push, publish, notify, re-arm kicks), against a driver that does
 * whatever the input says: chains direct and indirect with any addresses,
 * lengths, flags and links, raw avail entries and indices, an IOTLB with
 * holes, overlaps and read-only ranges, ring addresses in or out of
 * memory, any queue size, EVENT_IDX and INDIRECT on or off, and writes
 * racing the device.
 *
 * Invariants, each an abort:
 *   - no access out of bounds, no undefined behaviour (ASan, UBSan);
 *   - a pop writes nothing; push and publish write the used entries
 *     pushed, in order, at their ring positions, then the used index;
 *     re-arming kicks writes avail_event only, and only with EVENT_IDX;
 *     a chain write stays inside the chain's writable buffers;
 *   - a chain taken is well formed: head in the table, at most the queue
 *     size buffers, lengths that add up, readable before writable;
 *   - every chain taken from the avail ring is completed by the end of
 *     the round, unless writing the used ring itself failed;
 *   - the used index follows the chains taken: it never passes the avail
 *     index the device read, nor the avail position;
 *   - the serving loop ends: re-armed kicks that report new buffers, and
 *     a pop that says more were announced, are followed by a chain or a
 *     fault, unless the racing driver changed memory in between;
 *   - a ring set up with a bad size or address reports RING_CONFIG.
 */

#include <stdlib.h>

#include "fake_driver.h"
#include "fuzz_chain.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "fuzz_mem.h"
#include "fuzz_serve.h"

/* Queues of 1 to 2^RING_MAX_LOG2 entries, or any raw size. */
#define RING_MAX_LOG2 9
/* The driver's buffers and indirect tables live here. */
#define DATA_OFF (FMEM_SIZE / 2)
#define DATA_LEN 0x8000U
/* Buffers per chain or indirect table the driver lays out. */
#define CHAIN_MAX 8
/* Driver operations and IOTLB changes per input. */
#define OPS_MAX 64
#define MAPS_MAX 8
/* Used entries remembered: more than are ever staged unwritten. */
#define SHADOW 64

enum ring_layout {
	LAYOUT_FAKE_DRIVER, /* fdrv_init(): each part mapped as a driver would */
	LAYOUT_IN_MEMORY, /* anywhere in memory, mapped by the input only */
	LAYOUT_RAW, /* any 64-bit addresses: the driver cannot reach them */
	LAYOUT_COUNT
};

struct ring_fuzz {
	struct fuzz_input in;
	struct fmem *m;
	struct fuzz_mem fm;
	/* The driver; its ring fields are valid unless layout is RAW. */
	struct fdrv drv;
	enum ring_layout layout;
	struct vsb_ring ring;
	struct vsb_chain chain;
	struct vsb_ring_window win;
	u64 data;
	/* How the module serves it, and the chain each pop fills. */
	struct fsv sv;
	struct fch ch;
	/* Bytes read from and written to each chain this round, at most. */
	u16 read_len;
	u16 write_len;
	/* The device asked for no kicks and has not re-armed since. */
	bool kicks_off;
	/* Since the ring was last based: its start, chains taken, pushed. */
	u16 base;
	u64 taken;
	u64 done;
	/* Used entries the device wrote so far, and all pushed ones. */
	u64 flushed;
	struct vring_used_elem shadow[SHADOW];
	/* This round, the used ring refused a write: nothing completes. */
	bool used_write_failed;
	/* The device has written used->flags since setup. */
	bool started;
};

static u16 ring_num(struct ring_fuzz *f)
{
	u8 sel = fin_u8(&f->in);

	if (sel & 0x80)
		return fin_u16(&f->in);
	return 1 << (sel % (RING_MAX_LOG2 + 1));
}

static bool ring_config_ok(u16 num, u64 desc, u64 avail, u64 used)
{
	u64 end;

	/* Written from the spec, not from vsb_ring.c, to check it. */
	if (!num || (num & (num - 1)) || desc % 16 || avail % 2 || used % 4)
		return false;
	return !__builtin_add_overflow(desc, 16ULL * num - 1, &end) &&
	       !__builtin_add_overflow(avail, 2ULL * num + 5, &end) &&
	       !__builtin_add_overflow(used, 8ULL * num + 5, &end);
}

/* An address in memory at which size bytes fit, of any alignment. */
static u64 in_memory_addr(struct ring_fuzz *f, u64 size)
{
	return FMEM_BASE + fin_below(&f->in, FMEM_SIZE - size + 1);
}

/* Lay the rings out where the driver can write them, without fdrv_init. */
static void layout_in_memory(struct ring_fuzz *f, u16 num, u16 start)
{
	struct fdrv *d = &f->drv;

	d->m = f->m;
	d->num = num;
	d->desc = in_memory_addr(f, 16ULL * num);
	d->avail = in_memory_addr(f, 2ULL * num + 6);
	d->used = in_memory_addr(f, 8ULL * num + 6);
	d->avail_idx = start;
	d->last_used = start;
	fdrv_set_avail_idx(d, start);
}

static void setup(struct ring_fuzz *f)
{
	u16 num = ring_num(f);
	u8 flags = fin_u8(&f->in);
	u16 start = fin_u16(&f->in);
	bool valid_num = num && !(num & (num - 1)) && num <= 1 << RING_MAX_LOG2;
	u64 desc, avail, used;
	unsigned int i, maps;

	f->sv = (struct fsv){ .q = f, .fm = &f->fm, .ring = &f->ring };
	f->sv.kicks_off = &f->kicks_off;
	f->layout = fsv_set_mode(&f->sv, flags) % LAYOUT_COUNT;
	if (!valid_num)
		f->layout = LAYOUT_RAW;
	f->sv.limit = fin_u8(&f->in);

	if (f->layout == LAYOUT_FAKE_DRIVER)
		fdrv_init(&f->drv, f->m, num, start);
	else if (f->layout == LAYOUT_IN_MEMORY)
		layout_in_memory(f, num, start);
	f->data = FMEM_BASE + DATA_OFF;
	fmem_map(f->m, f->data, DATA_LEN, FMEM_RW);
	maps = fin_below(&f->in, MAPS_MAX + 1);
	for (i = 0; i < maps; i++)
		fmw_fuzz_map(&f->fm, &f->in);

	if (f->layout == LAYOUT_RAW) {
		desc = fin_u64(&f->in);
		avail = fin_u64(&f->in);
		used = fin_u64(&f->in);
	} else {
		desc = f->drv.desc;
		avail = f->drv.avail;
		used = f->drv.used;
	}
	f->ring.mem = f->fm.mem;
	f->ring.win = &f->win;
	f->ring.fault = vsb_ring_setup(&f->ring, num, desc, avail, used, start);
	FUZZ_CHECK((f->ring.fault == VSB_FAULT_NONE) ==
			   ring_config_ok(num, desc, avail, used),
		   "setup num %u desc %#llx avail %#llx used %#llx: %s", num,
		   (unsigned long long)desc, (unsigned long long)avail,
		   (unsigned long long)used, vsb_fault_name(f->ring.fault));
	f->base = start;
	fch_alloc_segs(&f->chain, &f->in, num, flags & FSV_FULL_SEGS);
	f->ch = (struct fch){ &f->in, &f->fm, &f->ring, &f->chain };
}

/* ---- the driver ---- */

static bool driver_can_write(const struct ring_fuzz *f)
{
	return f->layout != LAYOUT_RAW;
}

/* One descriptor of a chain the driver builds: buffer i of n at "at". */
static void driver_desc(struct ring_fuzz *f, u64 table, u32 size, u32 at,
			bool last)
{
	u8 kind = fin_u8(&f->in);
	u64 addr = f->data + fin_below(&f->in, DATA_LEN);
	u32 len = fin_below(&f->in, 512);
	u16 flags = kind & 1 ? VRING_DESC_F_WRITE : 0;
	u16 next = (at + 1) % size;

	if (kind & 0x80)
		addr = fin_u64(&f->in);
	if (kind & 0x40)
		len = fin_u32(&f->in);
	if (!last)
		flags |= VRING_DESC_F_NEXT;
	if (kind & 2)
		flags ^= VRING_DESC_F_NEXT;
	if (kind & 4)
		flags |= VRING_DESC_F_INDIRECT;
	if (kind & 8)
		next = fin_u16(&f->in);
	fdrv_write_desc(&f->drv, table, at, addr, len, flags, next);
}

static void driver_chain(struct ring_fuzz *f)
{
	u16 head = fin_below(&f->in, f->drv.num);
	u32 n = 1 + fin_below(&f->in, CHAIN_MAX);
	u32 i;

	for (i = 0; i < n; i++)
		driver_desc(f, f->drv.desc, f->drv.num, (head + i) % f->drv.num,
			    i + 1 == n);
	fdrv_make_avail(&f->drv, head);
}

static void driver_indirect(struct ring_fuzz *f)
{
	u16 head = fin_below(&f->in, f->drv.num);
	u32 n = 1 + fin_below(&f->in, CHAIN_MAX);
	u64 table = f->data + 16 * fin_below(&f->in, DATA_LEN / 16 - CHAIN_MAX);
	u8 kind = fin_u8(&f->in);
	u32 len = kind & 1 ? fin_u32(&f->in) : 16 * n;
	u16 flags = VRING_DESC_F_INDIRECT;
	u32 i;

	for (i = 0; i < n; i++)
		driver_desc(f, table, n, i, i + 1 == n);
	if (kind & 2)
		flags |= VRING_DESC_F_WRITE;
	if (kind & 4)
		flags |= VRING_DESC_F_NEXT;
	fdrv_set_desc(&f->drv, head, table, len, flags,
		      (head + 1) % f->drv.num);
	fdrv_make_avail(&f->drv, head);
}

/* ---- the device, as kmod/vdpa/vsb_run.c runs it ---- */

static u64 used_elem_addr(const struct ring_fuzz *f, u16 pos)
{
	return f->ring.used + 4 + 8ULL * pos;
}

/* A write of used entries holds those pushed, in order. */
static void check_used_entries(struct ring_fuzz *f, const struct fmw_write *w)
{
	u32 k;

	for (k = 0; k < w->len / 8 && 8 * k < FMW_LOG_BYTES; k++)
		FUZZ_CHECK(!memcmp(w->bytes + 8 * k,
				   &f->shadow[(f->flushed + k) % SHADOW], 8),
			   "used entry %llu written is not the one pushed",
			   (unsigned long long)(f->flushed + k));
	f->flushed += w->len / 8;
}

/*
 * What push, publish or return_chain just wrote: used entries, in
 * order, at their ring positions, then (publish) the used index. A
 * flush that failed part-way is written again whole next time.
 */
static void check_used_writes(struct ring_fuzz *f, bool published)
{
	u64 start = f->flushed;
	bool failed = false;
	unsigned int i;

	FUZZ_CHECK(f->fm.nr_writes <= 3, "%u writes", f->fm.nr_writes);
	for (i = 0; i < f->fm.nr_writes; i++) {
		const struct fmw_write *w = &f->fm.log[i];
		u16 pos = (u16)(f->base + f->flushed) & (f->ring.num - 1);

		if (w->addr == f->ring.used + 2 && w->len == 2) {
			u16 idx = w->bytes[0] | w->bytes[1] << 8;

			FUZZ_CHECK(i + 1 == f->fm.nr_writes,
				   "used idx written before the entries");
			FUZZ_CHECK(!published ||
					   (f->flushed == f->done &&
					    idx == (u16)(f->base + f->done)),
				   "used idx %u, %llu of %llu entries written",
				   idx, (unsigned long long)f->flushed,
				   (unsigned long long)f->done);
			continue;
		}
		FUZZ_CHECK(w->addr == used_elem_addr(f, pos) &&
				   w->len % 8 == 0 && w->len &&
				   w->len / 8 <= f->ring.num - pos &&
				   w->len / 8 <= f->done - f->flushed,
			   "used entries written at %#llx+%u, want position %u",
			   (unsigned long long)w->addr, w->len, pos);
		check_used_entries(f, w);
		failed |= w->ret != 0;
	}
	if (failed)
		f->flushed = start;
}

/*
 * The first pop, publish or kick re-arm after setup first writes 0 to
 * used->flags, and no call after a successful one does: check that write
 * and take it out of the log, so the call's own checks see the rest.
 */
static void take_start_write(struct ring_fuzz *f)
{
	struct fuzz_mem *fm = &f->fm;
	const struct fmw_write *w = &fm->log[0];
	unsigned int logged;

	if (!fm->nr_writes || w->addr != f->ring.used || w->len != 2)
		return;
	FUZZ_CHECK(!f->started, "used->flags written again");
	FUZZ_CHECK(!w->bytes[0] && !w->bytes[1], "used->flags %#x written",
		   w->bytes[0] | w->bytes[1] << 8);
	f->started = !w->ret;
	logged = fm->nr_writes < FMW_LOG ? fm->nr_writes : FMW_LOG;
	memmove(fm->log, fm->log + 1, (logged - 1) * sizeof(*fm->log));
	fm->nr_writes--;
}

/* Push (or give back) a chain; false if the used ring refused it. */
static bool push(struct ring_fuzz *f, u16 head, u32 len, bool returned)
{
	struct vring_used_elem *e = &f->shadow[f->done % SHADOW];
	u16 before = f->ring.used_idx;

	fmw_clear_log(&f->fm);
	if (returned) {
		if (f->chain.head == U16_MAX)
			return true;
		vsb_ring_return_chain(&f->ring, &f->chain);
	} else if (vsb_ring_push(&f->ring, head, len)) {
		FUZZ_CHECK(f->ring.fault, "push failed without a fault");
	}
	check_used_writes(f, false);
	if (f->ring.used_idx == before) {
		f->used_write_failed = true;
		return false;
	}
	FUZZ_CHECK(f->ring.used_idx == (u16)(before + 1), "push moved by %u",
		   (u16)(f->ring.used_idx - before));
	e->id = htole32(head);
	e->len = htole32(len);
	f->done++;
	return true;
}

static void publish(struct ring_fuzz *f)
{
	unsigned int fired = f->fm.races_fired;
	bool wrote;
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_publish(&f->ring);
	take_start_write(f);
	if (ret) {
		FUZZ_CHECK(f->ring.fault, "publish failed without a fault");
		check_used_writes(f, false);
		f->used_write_failed = true;
		return;
	}
	wrote = f->fm.nr_writes > 0;
	check_used_writes(f, wrote);
	FUZZ_CHECK(f->ring.used_published == f->ring.used_idx,
		   "published %u of %u", f->ring.used_published,
		   f->ring.used_idx);
	fmw_clear_log(&f->fm);
	vsb_ring_need_notify(&f->ring);
	FUZZ_CHECK(!f->fm.nr_writes, "need_notify wrote");
	/* The driver sees the index just written, unless it raced. */
	if (f->layout != LAYOUT_RAW && fired == f->fm.races_fired && wrote)
		FUZZ_CHECK(fdrv_used_idx(&f->drv) == f->ring.used_idx,
			   "driver sees used idx %u, device wrote %u",
			   fdrv_used_idx(&f->drv), f->ring.used_idx);
}

/* The one write a kick call may make: @val to used->flags. */
static void check_flags_write(struct ring_fuzz *f, u16 val, const char *what)
{
	const struct fmw_write *w = &f->fm.log[0];

	FUZZ_CHECK(w->addr == f->ring.used && w->len == 2 &&
			   (w->bytes[0] | w->bytes[1] << 8) == val,
		   "%s: used->flags written wrong", what);
}

/* Re-arm kicks; returns what vsb_ring_enable_kicks() says. */
static int enable_kicks(void *q)
{
	struct ring_fuzz *f = q;
	bool clear = !f->ring.event_idx && f->kicks_off && f->started;
	bool was_started = f->started;
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_enable_kicks(&f->ring);
	if (!was_started)
		take_start_write(f);
	FUZZ_CHECK(ret >= -EIO && ret <= 1, "enable_kicks: %d", ret);
	FUZZ_CHECK(ret < 0 || f->started,
		   "kicks re-armed before used->flags was written");
	FUZZ_CHECK(f->fm.nr_writes <= (f->ring.event_idx || clear),
		   "enable_kicks wrote %u times", f->fm.nr_writes);
	if (f->fm.nr_writes && f->ring.event_idx) {
		const struct fmw_write *w = &f->fm.log[0];

		FUZZ_CHECK(w->addr == used_elem_addr(f, f->ring.num) &&
				   w->len == 2 &&
				   (w->bytes[0] | w->bytes[1] << 8) ==
					   f->ring.last_avail,
			   "avail_event written wrong");
	} else if (f->fm.nr_writes) {
		check_flags_write(f, 0, "enable_kicks");
	}
	FUZZ_CHECK(ret < 0 || !clear || f->fm.nr_writes,
		   "kicks re-armed with VRING_USED_F_NO_NOTIFY left set");
	if (ret >= 0)
		f->kicks_off = false;
	return ret;
}

/*
 * Ask for no kicks: without EVENT_IDX one write of NO_NOTIFY, the first
 * time only; with it, nothing (avail_event stays behind).
 */
static void disable_kicks(void *q)
{
	struct ring_fuzz *f = q;
	bool set = !f->ring.event_idx && !f->kicks_off;
	bool was_started = f->started;
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_disable_kicks(&f->ring);
	if (!was_started)
		take_start_write(f);
	FUZZ_CHECK(ret == 0 || ret == -EIO, "disable_kicks: %d", ret);
	FUZZ_CHECK((ret < 0) == (f->ring.fault != VSB_FAULT_NONE),
		   "disable_kicks %d with fault %s", ret,
		   vsb_fault_name(f->ring.fault));
	FUZZ_CHECK(f->fm.nr_writes <= set, "disable_kicks wrote %u times",
		   f->fm.nr_writes);
	if (f->fm.nr_writes)
		check_flags_write(f, VRING_USED_F_NO_NOTIFY, "disable_kicks");
	FUZZ_CHECK(ret < 0 || !set || f->fm.nr_writes,
		   "kicks off without VRING_USED_F_NO_NOTIFY");
	if (!ret)
		f->kicks_off = true;
}

/* Watch the avail index: reads only, takes nothing. */
static int poll_ring(void *q)
{
	struct ring_fuzz *f = q;
	u16 before = f->ring.last_avail;
	bool was_started = f->started;
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_poll(&f->ring);
	if (!was_started)
		take_start_write(f);
	FUZZ_CHECK(ret == 1 || ret == 0 || ret == -EIO, "poll: %d", ret);
	FUZZ_CHECK(!f->fm.nr_writes, "poll wrote");
	FUZZ_CHECK(f->ring.last_avail == before, "poll took a chain");
	return ret;
}

/* Take one chain: 1, 0 (nothing new) or -EIO, with the checks. */
static int pop(void *q)
{
	struct ring_fuzz *f = q;
	u16 before = f->ring.last_avail;
	bool fetches = !f->ring.nr_heads;
	unsigned int fired = f->fm.races_fired;
	int ret;

	fmw_clear_log(&f->fm);
	ret = vsb_ring_pop(&f->ring, &f->chain);
	/* A chain taken with no head left over read a batch of heads. */
	if (fetches && f->chain.head != U16_MAX && fired == f->fm.races_fired)
		fch_check_window(&f->ch);
	take_start_write(f);
	FUZZ_CHECK(!f->fm.nr_writes, "pop wrote more than used->flags");
	FUZZ_CHECK(ret == 1 || ret == 0 || ret == -EIO, "pop: %d", ret);
	FUZZ_CHECK(ret < 0 || f->started,
		   "ring served before used->flags was written");
	FUZZ_CHECK((ret < 0) == (f->ring.fault != VSB_FAULT_NONE),
		   "pop %d with fault %s", ret, vsb_fault_name(f->ring.fault));
	if (ret == 1 || (ret < 0 && f->chain.head != U16_MAX)) {
		FUZZ_CHECK(f->ring.last_avail == (u16)(before + 1),
			   "chain taken, avail position %u -> %u", before,
			   f->ring.last_avail);
		f->taken++;
	} else {
		FUZZ_CHECK(f->ring.last_avail == before &&
				   f->chain.head == U16_MAX,
			   "no chain, avail position %u -> %u, head %u", before,
			   f->ring.last_avail, f->chain.head);
	}
	if (ret == 1)
		fch_check_shape(&f->ch);
	FUZZ_CHECK((u16)(f->ring.avail_idx - f->ring.last_avail) <= f->ring.num,
		   "avail idx %u, position %u", f->ring.avail_idx,
		   f->ring.last_avail);
	return ret;
}

/*
 * Serve one chain as a command or frame; false if it was not completed
 * and must be given back, as the module does.
 */
static bool serve_chain(void *q)
{
	struct ring_fuzz *f = q;
	int written = fch_serve(&f->ch, f->read_len, f->write_len);

	if (written < 0)
		return false;
	if (!push(f, f->chain.head, written, false))
		return false;
	if (f->sv.immediate)
		publish(f);
	return true;
}

static void check_round(struct ring_fuzz *f)
{
	const struct vsb_ring *r = &f->ring;

	FUZZ_CHECK(f->done <= f->taken, "%llu completed of %llu taken",
		   (unsigned long long)f->done, (unsigned long long)f->taken);
	FUZZ_CHECK(r->used_idx == (u16)(f->base + f->done) &&
			   r->last_avail == (u16)(f->base + f->taken),
		   "used %u, avail position %u, base %u, %llu/%llu",
		   r->used_idx, r->last_avail, f->base,
		   (unsigned long long)f->done, (unsigned long long)f->taken);
	/* Nothing can be completed once the used ring refuses writes. */
	if (f->used_write_failed)
		return;
	FUZZ_CHECK(f->done == f->taken,
		   "%llu chains taken, %llu completed (%s)",
		   (unsigned long long)f->taken, (unsigned long long)f->done,
		   vsb_fault_name(r->fault));
	FUZZ_CHECK(r->used_published == r->used_idx,
		   "used idx %u staged, %u published (%s)", r->used_idx,
		   r->used_published, vsb_fault_name(r->fault));
	FUZZ_CHECK((u16)(r->avail_idx - r->used_published) <= r->num,
		   "used idx %u ahead of avail idx %u", r->used_published,
		   r->avail_idx);
}

static const struct fsv_ops ring_serve_ops = {
	.pop = pop,
	.poll = poll_ring,
	.enable_kicks = enable_kicks,
	.disable_kicks = disable_kicks,
	.serve_chain = serve_chain,
};

/* One run of the queue, like vsb_process_cvq(). */
static void serve(struct ring_fuzz *f)
{
	f->sv.ops = &ring_serve_ops;
	f->read_len = fin_u16(&f->in);
	f->write_len = fin_u16(&f->in);
	f->used_write_failed = false;
	if (fsv_run(&f->sv) < 0)
		push(f, f->chain.head, 0, true);
	publish(f);
	check_round(f);
}

/* vhost's SET_VRING_BASE: the module allows it between runs. */
static void set_base(struct ring_fuzz *f)
{
	u16 base = fin_u16(&f->in);

	vsb_ring_set_base(&f->ring, base);
	f->base = base;
	f->taken = 0;
	f->done = 0;
	f->flushed = 0;
}

static void run_op(struct ring_fuzz *f)
{
	u8 op = fin_u8(&f->in);

	if (!driver_can_write(f) && op % 10 < 6)
		op = 6;
	switch (op % 10) {
	case 0:
		driver_chain(f);
		break;
	case 1:
		driver_indirect(f);
		break;
	case 2:
		fdrv_set_desc(&f->drv, fin_below(&f->in, f->drv.num),
			      fin_u64(&f->in), fin_u32(&f->in), fin_u16(&f->in),
			      fin_u16(&f->in));
		break;
	case 3:
		fdrv_set_avail_idx(&f->drv,
				   op & 0x80 ? fin_u16(&f->in) :
					       f->drv.avail_idx +
						       (__s8)fin_u8(&f->in));
		break;
	case 4:
		fdrv_make_avail(&f->drv, fin_u16(&f->in));
		break;
	case 5:
		if (op & 0x80)
			fdrv_set_used_event(&f->drv, fin_u16(&f->in));
		else
			fdrv_set_avail_flags(&f->drv, fin_u16(&f->in));
		break;
	case 6:
		serve(f);
		break;
	case 7:
		fmw_fuzz_map(&f->fm, &f->in);
		break;
	case 8:
		fmw_add_race(&f->fm, &f->in);
		break;
	default:
		set_base(f);
		break;
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ring_fuzz *f = calloc(1, sizeof(*f));
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
	fmem_free(f->m);
	free(f);
	return 0;
}
