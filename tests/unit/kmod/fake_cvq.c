// SPDX-License-Identifier: GPL-2.0-only
/* The fake driver side of a control queue: see fake_cvq.h. */

#include "unit.h"

#include "fake_cvq.h"

void fcvq_init(struct fcvq *f, struct fmem *m, u64 features, const u8 *mac,
	       u16 max_pairs)
{
	memset(f, 0, sizeof(*f));
	f->m = m;
	tq_init(&f->q, m, FCVQ_NUM, 0, false, false);
	f->features = features;
	vsb_net_ctrl_reset(&f->ctrl, mac, max_pairs, features);
	f->out_rgn = -1;
	f->in_rgn = -1;
}

void fcvq_fini(struct fcvq *f)
{
	tq_fini(&f->q);
}

int fcvq_setup(void **state)
{
	static const u8 mac[ETH_ALEN] = { FCVQ_MAC };
	struct fcvq *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	fcvq_init(f, fmem_new(), FCVQ_ALL_FEATURES, mac, FCVQ_MAX_PAIRS);
	*state = f;
	return 0;
}

int fcvq_teardown(void **state)
{
	struct fcvq *f = *state;

	fcvq_fini(f);
	fmem_free(f->m);
	free(f);
	return 0;
}

/*
 * Lay n buffers of split[] bytes out in one new region, FCVQ_GAP bytes
 * apart, filled from bytes (or with fill); returns the region, -1 if n
 * is 0.
 */
static int lay_out(struct fcvq *f, struct fbuf *bufs, const u8 *bytes,
		   const u32 *split, unsigned int n, bool write,
		   unsigned int perm, u8 fill)
{
	u64 base, at;
	u32 total = 0;
	unsigned int i;

	if (!n)
		return -1;
	for (i = 0; i < n; i++)
		total += split[i] + FCVQ_GAP;
	base = tbuf(f->m, total, perm, FCVQ_GAP_FILL);
	for (i = 0, at = base; i < n; at += split[i] + FCVQ_GAP, i++) {
		u8 *p = fmem_ptr(f->m, at, split[i]);

		if (bytes) {
			memcpy(p, bytes, split[i]);
			bytes += split[i];
		} else {
			memset(p, fill, split[i]);
		}
		bufs[i] = (struct fbuf){ at, split[i], write };
	}
	return fmem_region_of(f->m, base);
}

u16 fcvq_offer(struct fcvq *f, const u8 *cmd, u32 len, const u32 *out,
	       unsigned int nr_out, const u32 *in, unsigned int nr_in,
	       unsigned int in_perm)
{
	struct fbuf bufs[FCVQ_NUM];
	unsigned int i;
	u32 sum = 0;

	for (i = 0; i < nr_out; i++)
		sum += out[i];
	assert_int_equal(sum, len);
	assert_true(nr_out + nr_in <= FCVQ_NUM);
	f->out_rgn = lay_out(f, bufs, cmd, out, nr_out, false, FMEM_RW, 0);
	f->in_rgn = lay_out(f, bufs + nr_out, NULL, in, nr_in, true, in_perm,
			    FCVQ_ACK_PRESET);
	f->ack_addr = nr_in && in[0] ? bufs[nr_out].addr : 0;
	return fdrv_add_chain(&f->q.drv, bufs, nr_out + nr_in);
}

/*
 * The command checked and answered as a group of one
 * (vsb_cvq_group.h): what vsb_cvq_fetch() does, the way batch mode does it.
 */
static void fetch_in_group(struct fcvq *f, struct vsb_cvq_cmd *cmd)
{
	struct vsb_cvq_group *g = calloc(1, sizeof(*g));

	assert_non_null(g);
	vsb_cvq_check(&f->q.ring, &f->q.chain, f->features, f->ctrl.max_pairs,
		      &f->scratch, vsb_cvq_group_cmd(g), vsb_cvq_group_res(g));
	if (!g->res[0].fault) {
		assert_true(vsb_cvq_group_add(g, &f->q.chain));
		vsb_cvq_group_ack(g, &f->q.ring);
	}
	*cmd = g->cmd[0];
	f->res = g->res[0];
	free(g);
}

void fcvq_fetch_apply(struct fcvq *f)
{
	struct vsb_cvq_cmd cmd;

	if (f->group)
		fetch_in_group(f, &cmd);
	else
		vsb_cvq_fetch(&f->q.ring, &f->q.chain, f->features,
			      f->ctrl.max_pairs, &f->scratch, &cmd, &f->res);
	if (f->nack)
		vsb_cvq_nack(&cmd, &f->res);
	/* Applying must not reach guest memory: no way to it is left. */
	cmd.ring = NULL;
	cmd.chain = NULL;
	vsb_cvq_apply(&cmd, &f->ctrl, &f->res);
	/* The module copies its counters to f->scratch.stats here. */
	cmd.ring = &f->q.ring;
	cmd.chain = &f->q.chain;
	vsb_cvq_reply(&cmd, &f->res);
}

void fcvq_handle(struct fcvq *f, u16 head)
{
	fmem_reset_counts(f->m);
	assert_int_equal(tq_pop(&f->q), 1);
	assert_int_equal(f->q.chain.head, head);
	memset(&f->res, 0x5a, sizeof(f->res));
	fcvq_fetch_apply(f);
	assert_int_equal(vsb_ring_push(&f->q.ring, head, f->res.used_len), 0);
	assert_int_equal(vsb_ring_publish(&f->q.ring), 0);
	fdrv_expect_used(&f->q.drv, head, f->res.used_len);
}

void fcvq_send_split(struct fcvq *f, const u8 *cmd, u32 len, const u32 *out,
		     unsigned int nr_out, const u32 *in, unsigned int nr_in,
		     unsigned int in_perm)
{
	fcvq_handle(f,
		    fcvq_offer(f, cmd, len, out, nr_out, in, nr_in, in_perm));
}

void fcvq_send(struct fcvq *f, const u8 *cmd, u32 len)
{
	fcvq_send_split(f, cmd, len, &len, 1, SPLIT(1), FMEM_RW);
}

u8 fcvq_ack_byte(struct fcvq *f)
{
	return *(u8 *)fmem_ptr(f->m, f->ack_addr, 1);
}

bool fcvq_answered(struct fcvq *f, u8 ack, const char *what)
{
	bool ok = true;

	if (f->res.fault != VSB_FAULT_NONE) {
		print_error("%s: fault \"%s\"\n", what,
			    vsb_fault_name(f->res.fault));
		ok = false;
	}
	if (f->res.ack != ack || f->res.used_len != 1) {
		print_error("%s: ack %u used_len %u; want ack %u used_len 1\n",
			    what, f->res.ack, f->res.used_len, ack);
		ok = false;
	}
	if (!f->ack_addr) {
		print_error("%s: no writable byte\n", what);
		return false;
	}
	if (fcvq_ack_byte(f) != ack) {
		print_error("%s: ack byte %#x, want %#x\n", what,
			    fcvq_ack_byte(f), ack);
		ok = false;
	}
	if (f->out_rgn >= 0 && fmem_writes(f->m, f->out_rgn)) {
		print_error("%s: readable buffers written\n", what);
		ok = false;
	}
	return ok;
}

void fcvq_expect_ack_at(struct fcvq *f, u8 ack, const char *file, int line)
{
	if (!fcvq_answered(f, ack, "cvq"))
		_fail(file, line);
}

void fcvq_expect_fault_at(struct fcvq *f, enum vsb_fault fault,
			  const char *file, int line)
{
	if (f->res.fault != fault || f->res.used_len) {
		print_error("fault \"%s\" ack %u len %u; want \"%s\" len 0\n",
			    vsb_fault_name(f->res.fault), f->res.ack,
			    f->res.used_len, vsb_fault_name(fault));
		_fail(file, line);
	}
	_assert_int_equal(f->res.changed, 0, file, line);
	if (f->out_rgn >= 0)
		_assert_int_equal(fmem_writes(f->m, f->out_rgn), 0, file, line);
	if (f->in_rgn >= 0)
		_assert_int_equal(fmem_writes(f->m, f->in_rgn), 0, file, line);
	if (f->ack_addr)
		_assert_int_equal(fcvq_ack_byte(f), FCVQ_ACK_PRESET, file,
				  line);
}
