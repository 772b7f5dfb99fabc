// SPDX-License-Identifier: GPL-2.0-only
/* Checks of a chain a ring target took: see fuzz_chain.h. */

#include "fuzz_chain.h"
#include "fuzz_check.h"

/* Most bytes one chain read or write moves. */
#define COPY_MAX 0x10000U

/* The targets run one input at a time: one buffer serves them all. */
static u8 fch_copy[COPY_MAX];

void fch_alloc_segs(struct vsb_chain *chain, struct fuzz_input *in, u16 num,
		    bool full)
{
	/* The module's chains have room for its largest queue; try less. */
	u32 max_segs = 1 + fin_below(in, num ? num : 1);

	if (full)
		max_segs = num ? num : 1;
	chain->segs = calloc(max_segs, sizeof(*chain->segs));
	FUZZ_CHECK(chain->segs, "out of memory");
	chain->max_segs = max_segs;
}

static bool seg_has(const struct vsb_seg *seg, u16 n, u64 addr, u32 len)
{
	u16 i;

	for (i = 0; i < n; i++)
		if (addr >= seg[i].addr && len <= seg[i].len &&
		    addr - seg[i].addr <= seg[i].len - len)
			return true;
	return false;
}

void fch_check_shape(const struct fch *ch)
{
	const struct vsb_chain *c = ch->chain;
	u16 num = ch->ring->num;
	u64 out = 0, in = 0;
	u16 i;

	FUZZ_CHECK(c->head < num, "head %u of %u", c->head, num);
	FUZZ_CHECK(c->nr_out + c->nr_in <= num &&
			   c->nr_out + c->nr_in <= c->max_segs,
		   "%u + %u buffers, queue %u, room %u", c->nr_out, c->nr_in,
		   num, c->max_segs);
	for (i = 0; i < c->nr_out + c->nr_in; i++) {
		u64 last;

		FUZZ_CHECK(c->segs[i].len, "empty buffer %u kept", i);
		FUZZ_CHECK(!__builtin_add_overflow(c->segs[i].addr,
						   (u64)c->segs[i].len - 1,
						   &last),
			   "buffer %u wraps", i);
		if (i < c->nr_out)
			out += c->segs[i].len;
		else
			in += c->segs[i].len;
	}
	FUZZ_CHECK(out == c->out_len && in == c->in_len && out + in <= U32_MAX,
		   "lengths %llu/%llu, chain says %u/%u",
		   (unsigned long long)out, (unsigned long long)in, c->out_len,
		   c->in_len);
}

void fch_check_window(const struct fch *ch)
{
	const struct vsb_ring *r = ch->ring;
	u64 table = r->desc + (u64)r->win_first * sizeof(struct vring_desc);

	if (!r->win)
		return;
	FUZZ_CHECK(r->win_n <= VSB_RING_DESC_WINDOW &&
			   r->data_len <= VSB_RING_DATA_WINDOW,
		   "window of %u descriptors, %u bytes", r->win_n, r->data_len);
	FUZZ_CHECK(
		!r->win_n ||
			!memcmp(r->win->desc,
				fmem_ptr(ch->fm->m, table,
					 r->win_n * sizeof(struct vring_desc)),
				r->win_n * sizeof(struct vring_desc)),
		"descriptors %u..%u differ from the table", r->win_first,
		r->win_first + r->win_n);
	FUZZ_CHECK(!r->data_len || !memcmp(r->win->data,
					   fmem_ptr(ch->fm->m, r->data_addr,
						    r->data_len),
					   r->data_len),
		   "window bytes at %#llx+%u differ from memory",
		   (unsigned long long)r->data_addr, r->data_len);
}

/*
 * Bytes of @len at @addr the ring's window holds, or NULL: a chain read
 * takes a buffer's piece from the window when it holds all of it.
 */
static const u8 *window_bytes(const struct vsb_ring *r, u64 addr, u32 len)
{
	u64 at = addr - r->data_addr;

	if (at >= r->data_len || len > r->data_len - at)
		return NULL;
	return r->win->data + at;
}

/*
 * Compare what a chain read gave, buffer by buffer: a piece the ring's
 * window holds with the window (fch_check_window() compared it with
 * memory when it was read; the device's own writes since then, or a
 * racing driver's, are not in it, and need not be), the others with
 * memory unless a racing write landed during the read (@raced).
 */
static void check_read_bytes(const struct fch *ch, u32 offset, u32 len,
			     bool raced)
{
	const struct vsb_seg *seg = ch->chain->segs;
	u32 done = 0;
	u16 i;

	for (i = 0; i < ch->chain->nr_out && done < len; i++, seg++) {
		const u8 *win;
		u32 chunk;

		if (offset >= seg->len) {
			offset -= seg->len;
			continue;
		}
		chunk = seg->len - offset < len - done ? seg->len - offset :
							 len - done;
		win = window_bytes(ch->ring, seg->addr + offset, chunk);
		FUZZ_CHECK(!win || !memcmp(fch_copy + done, win, chunk),
			   "chain read bytes %u..%u differ from the window",
			   done, done + chunk);
		FUZZ_CHECK(win || raced ||
				   !memcmp(fch_copy + done,
					   fmem_ptr(ch->fm->m,
						    seg->addr + offset, chunk),
					   chunk),
			   "chain read bytes %u..%u differ from memory", done,
			   done + chunk);
		done += chunk;
		offset = 0;
	}
	FUZZ_CHECK(done == len, "read %u of %u bytes", done, len);
}

static void use_readable(const struct fch *ch, u16 want)
{
	const struct vsb_chain *c = ch->chain;
	u32 len = want < c->out_len ? want : c->out_len;
	u32 offset = fin_below(ch->in, (u64)c->out_len - len + 1);
	unsigned int fired = ch->fm->races_fired;
	int ret;

	if (len > COPY_MAX)
		len = COPY_MAX;
	if (c->out_len - len < U32_MAX)
		FUZZ_CHECK(vsb_chain_read(ch->ring, c, c->out_len - len + 1,
					  fch_copy, len) == -EINVAL,
			   "read past the readable buffers accepted");
	fmw_clear_log(ch->fm);
	ret = vsb_chain_read(ch->ring, c, offset, fch_copy, len);
	FUZZ_CHECK(!ch->fm->nr_writes, "chain read wrote");
	FUZZ_CHECK(!ret || ret == -EFAULT || ret == -EPERM, "read: %d", ret);
	if (!ret)
		check_read_bytes(ch, offset, len, fired != ch->fm->races_fired);
}

static int use_writable(const struct fch *ch, u16 want)
{
	const struct vsb_chain *c = ch->chain;
	const struct vsb_seg *in = c->segs + c->nr_out;
	struct fuzz_mem *fm = ch->fm;
	u32 len = want < c->in_len ? want : c->in_len;
	u32 sum = 0;
	unsigned int i;
	int ret;

	if (len > COPY_MAX)
		len = COPY_MAX;
	memset(fch_copy, 0xa5, len);
	fmw_clear_log(fm);
	ret = vsb_chain_write(ch->ring, c, 0, fch_copy, len);
	FUZZ_CHECK(!ret || ret == -EFAULT || ret == -EPERM, "write: %d", ret);
	for (i = 0; i < fm->nr_writes && i < FMW_LOG; i++) {
		const struct fmw_write *w = &fm->log[i];

		FUZZ_CHECK(seg_has(in, c->nr_in, w->addr, w->len),
			   "chain write at %#llx+%u outside writable buffers",
			   (unsigned long long)w->addr, w->len);
		sum += w->len;
	}
	FUZZ_CHECK(ret || fm->nr_writes > FMW_LOG || sum == len,
		   "wrote %u of %u bytes", sum, len);
	return ret ? -1 : (int)len;
}

int fch_serve(const struct fch *c, u16 read_len, u16 write_len)
{
	int written;

	use_readable(c, read_len);
	written = use_writable(c, write_len);
	/* As the loopback: the driver's error, the chain goes back. */
	if (written < 0)
		c->ring->fault = VSB_FAULT_BUFFER_ACCESS;
	return written;
}
