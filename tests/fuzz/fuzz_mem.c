// SPDX-License-Identifier: GPL-2.0-only
/* Guest memory for the fuzz targets: see fuzz_mem.h. */

#include "fuzz_mem.h"

bool fmw_in_array(u64 addr, u64 len)
{
	return addr >= FMEM_BASE && len <= FMEM_SIZE &&
	       addr - FMEM_BASE <= FMEM_SIZE - len;
}

/* Land the racing writes due before this access. */
static void fmw_access(struct fuzz_mem *fm)
{
	unsigned int i;

	for (i = 0; i < fm->nr_races; i++) {
		struct fmw_race *r = &fm->races[i];

		if (r->at != fm->accesses)
			continue;
		memcpy(fmem_ptr(fm->m, r->addr, r->len), r->bytes, r->len);
		fm->races_fired++;
	}
	fm->accesses++;
}

static int fmw_read(void *priv, u64 addr, void *buf, u32 len)
{
	struct fuzz_mem *fm = priv;

	fmw_access(fm);
	return fm->m->mem.ops->read(fm->m->mem.priv, addr, buf, len);
}

static int fmw_write(void *priv, u64 addr, const void *buf, u32 len)
{
	struct fuzz_mem *fm = priv;
	int ret;

	fmw_access(fm);
	ret = fm->m->mem.ops->write(fm->m->mem.priv, addr, buf, len);
	if (fm->nr_writes < FMW_LOG) {
		struct fmw_write *w = &fm->log[fm->nr_writes];

		w->addr = addr;
		w->len = len;
		w->ret = ret;
		memcpy(w->bytes, buf,
		       len < FMW_LOG_BYTES ? len : FMW_LOG_BYTES);
	}
	fm->nr_writes++;
	fm->total_writes++;
	return ret;
}

static const struct vsb_mem_ops fmw_ops = {
	.read = fmw_read,
	.write = fmw_write,
};

void fmw_init(struct fuzz_mem *fm, struct fmem *m)
{
	memset(fm, 0, sizeof(*fm));
	fm->m = m;
	fm->mem.ops = &fmw_ops;
	fm->mem.priv = fm;
}

void fmw_clear_log(struct fuzz_mem *fm)
{
	fm->nr_writes = 0;
}

void fmw_add_race(struct fuzz_mem *fm, struct fuzz_input *in)
{
	struct fmw_race *r;

	if (fm->nr_races == FMW_MAX_RACES)
		return;
	r = &fm->races[fm->nr_races++];
	r->at = fm->accesses + fin_u8(in);
	r->len = 1 + fin_below(in, FMW_RACE_BYTES);
	r->addr = FMEM_BASE + fin_below(in, FMEM_SIZE - r->len + 1);
	fin_bytes(in, r->bytes, r->len);
}

void fmw_cancel_races(struct fuzz_mem *fm)
{
	fm->nr_races = 0;
}

void fmw_fuzz_map(struct fuzz_mem *fm, struct fuzz_input *in)
{
	struct fmem *m = fm->m;
	u8 op = fin_u8(in);
	unsigned int perm = op >> 2 & FMEM_RW;
	u64 off, len;

	if (op % 3 && m->nr_regions) {
		unsigned int region = fin_below(in, m->nr_regions);

		if (op % 3 == 1)
			fmem_unmap(m, region);
		else
			fmem_set_perm(m, region, perm);
		return;
	}
	if (m->nr_regions >= FMEM_MAX_REGIONS)
		return;
	off = fin_below(in, FMEM_SIZE);
	len = 1 + fin_below(in, FMEM_SIZE - off);
	fmem_map(m, FMEM_BASE + off, len, perm);
}
