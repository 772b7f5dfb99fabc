// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fake guest memory: see fake_mem.h. Misuse by a test (an address outside
 * the array, too many regions) fails the test through cmocka.
 */

#include "unit.h"

#include "fake_mem.h"

static struct fmem_region *fmem_find(struct fmem *m, u64 addr)
{
	unsigned int i;

	for (i = 0; i < m->nr_regions; i++) {
		struct fmem_region *r = &m->regions[i];

		if (r->mapped && addr >= r->addr && addr - r->addr < r->len)
			return r;
	}
	return NULL;
}

/*
 * Check all of [addr, addr + len) before touching any of it, like an
 * IOTLB translation that must cover the whole access; then count the
 * access once in each region it spans.
 */
static int fmem_check(struct fmem *m, u64 addr, u32 len, unsigned int perm,
		      bool count)
{
	u64 end, cur;

	if (check_add_overflow(addr, (u64)len, &end))
		return -EFAULT;
	for (cur = addr; cur < end;) {
		struct fmem_region *r = fmem_find(m, cur);

		if (!r)
			return -EFAULT;
		if (!(r->perm & perm))
			return -EPERM;
		if (count) {
			if (perm == FMEM_RO)
				r->reads++;
			else
				r->writes++;
		}
		cur = r->addr + r->len;
	}
	return 0;
}

static int fmem_access(struct fmem *m, u64 addr, u32 len, unsigned int perm)
{
	int ret;

	if (!len)
		return 0;
	ret = fmem_check(m, addr, len, perm, false);
	if (ret) {
		m->failed++;
		return ret;
	}
	return fmem_check(m, addr, len, perm, true);
}

static int fmem_dev_read(void *priv, u64 addr, void *buf, u32 len)
{
	struct fmem *m = priv;
	int ret = fmem_access(m, addr, len, FMEM_RO);

	if (!ret && len)
		memcpy(buf, m->bytes + (addr - FMEM_BASE), len);
	return ret;
}

static int fmem_dev_write(void *priv, u64 addr, const void *buf, u32 len)
{
	struct fmem *m = priv;
	int ret = fmem_access(m, addr, len, FMEM_WO);

	if (!ret && len)
		memcpy(m->bytes + (addr - FMEM_BASE), buf, len);
	return ret;
}

static const struct vsb_mem_ops fmem_ops = {
	.read = fmem_dev_read,
	.write = fmem_dev_write,
};

struct fmem *fmem_new(void)
{
	struct fmem *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	m->next_free = FMEM_BASE;
	m->mem.ops = &fmem_ops;
	m->mem.priv = m;
	return m;
}

void fmem_free(struct fmem *m)
{
	free(m);
}

int fmem_map(struct fmem *m, u64 addr, u64 len, unsigned int perm)
{
	struct fmem_region *r;

	assert_true(m->nr_regions < FMEM_MAX_REGIONS);
	fmem_ptr(m, addr, len);
	r = &m->regions[m->nr_regions];
	r->addr = addr;
	r->len = len;
	r->perm = perm;
	r->mapped = true;
	return m->nr_regions++;
}

int fmem_alloc(struct fmem *m, u64 len, u64 align, unsigned int perm)
{
	u64 addr = (m->next_free + align - 1) & ~(align - 1);

	m->next_free = addr + len;
	return fmem_map(m, addr, len, perm);
}

u64 fmem_alloc_addr(struct fmem *m, u64 len, u64 align, unsigned int perm)
{
	return m->regions[fmem_alloc(m, len, align, perm)].addr;
}

void fmem_unmap(struct fmem *m, int region)
{
	m->regions[region].mapped = false;
}

void fmem_set_perm(struct fmem *m, int region, unsigned int perm)
{
	m->regions[region].perm = perm;
}

int fmem_region_of(const struct fmem *m, u64 addr)
{
	unsigned int i;

	for (i = 0; i < m->nr_regions; i++)
		if (m->regions[i].addr == addr)
			return i;
	fail_msg("no region at %#llx", (unsigned long long)addr);
	return -1;
}

void *fmem_ptr(struct fmem *m, u64 addr, u64 len)
{
	assert_true(addr >= FMEM_BASE && len <= FMEM_SIZE &&
		    addr - FMEM_BASE <= FMEM_SIZE - len);
	return m->bytes + (addr - FMEM_BASE);
}

unsigned int fmem_reads(const struct fmem *m, int region)
{
	return m->regions[region].reads;
}

unsigned int fmem_writes(const struct fmem *m, int region)
{
	return m->regions[region].writes;
}

void fmem_reset_counts(struct fmem *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_regions; i++) {
		m->regions[i].reads = 0;
		m->regions[i].writes = 0;
	}
	m->failed = 0;
}

void fmem_put16(struct fmem *m, u64 addr, u16 val)
{
	u16 raw = htole16(val);

	memcpy(fmem_ptr(m, addr, 2), &raw, 2);
}

u16 fmem_get16(struct fmem *m, u64 addr)
{
	u16 raw;

	memcpy(&raw, fmem_ptr(m, addr, 2), 2);
	return le16toh(raw);
}

u32 fmem_get32(struct fmem *m, u64 addr)
{
	u32 raw;

	memcpy(&raw, fmem_ptr(m, addr, 4), 4);
	return le32toh(raw);
}
