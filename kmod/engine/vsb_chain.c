// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the split and the packed ring engines share (vsb_ring_priv.h):
 * a ring's first fault, the 16-bit field accesses, the checks every
 * descriptor and indirect table gets, and a chain's buffers as it is
 * taken and as its data is read and written. Below both engines: neither
 * calls the other through here.
 */

#include "vsb_ring_priv.h"

int vsb_ring_fail(struct vsb_ring *ring, enum vsb_fault fault)
{
	if (ring->fault == VSB_FAULT_NONE)
		ring->fault = fault;
	return -EIO;
}

int vsb_ring_read16(struct vsb_ring *ring, u64 addr, u16 *val)
{
	__le16 raw;

	if (vsb_mem_read(&ring->mem, addr, &raw, sizeof(raw)))
		return vsb_ring_fail(ring, VSB_FAULT_RING_ACCESS);
	*val = le16_to_cpu(raw);
	return 0;
}

int vsb_ring_write16(struct vsb_ring *ring, u64 addr, u16 val)
{
	__le16 raw = cpu_to_le16(val);

	if (vsb_mem_write(&ring->mem, addr, &raw, sizeof(raw)))
		return vsb_ring_fail(ring, VSB_FAULT_RING_ACCESS);
	return 0;
}

/* An indirect table pointer: checks from "Indirect Descriptors". */
enum vsb_fault vsb_indirect_check(const struct vsb_ring *ring, u64 addr,
				  u32 len, u16 flags, bool in_indirect)
{
	if (!ring->indirect)
		return VSB_FAULT_INDIRECT_FEATURE;
	if (in_indirect)
		return VSB_FAULT_INDIRECT_NESTED;
	if (flags & VRING_DESC_F_NEXT)
		return VSB_FAULT_INDIRECT_NEXT;
	if (!len || len % sizeof(struct vring_desc) ||
	    len / sizeof(struct vring_desc) > ring->num)
		return VSB_FAULT_INDIRECT_LEN;
	if (!vsb_range_ok(addr, len))
		return VSB_FAULT_ADDR_WRAP;
	return VSB_FAULT_NONE;
}

/*
 * Copy between buf and the chain's readable (write == false) or writable
 * buffers, starting offset bytes into them; all of [offset, offset + len)
 * must lie within those buffers. vsb_chain_read() and vsb_chain_write()
 * come here for an access across buffers.
 */
int vsb_chain_copy(const struct vsb_ring *ring, const struct vsb_chain *chain,
		   bool write, u32 offset, void *buf, u32 len)
{
	const struct vsb_seg *seg = chain->segs + (write ? chain->nr_out : 0);
	u16 nr = write ? chain->nr_in : chain->nr_out;
	u32 total = write ? chain->in_len : chain->out_len;
	u8 *p = buf;
	u16 i;

	if (offset > total || len > total - offset)
		return -EINVAL;
	for (i = 0; i < nr && len; i++, seg++) {
		u32 chunk;
		int ret;

		if (offset >= seg->len) {
			offset -= seg->len;
			continue;
		}
		chunk = min(seg->len - offset, len);
		if (write)
			ret = vsb_mem_write(&ring->mem, seg->addr + offset, p,
					    chunk);
		else if (vsb_chain_read_window(ring, seg->addr + offset, p,
					       chunk))
			ret = 0;
		else
			ret = vsb_mem_read(&ring->mem, seg->addr + offset, p,
					   chunk);
		if (ret)
			return ret;
		p += chunk;
		len -= chunk;
		offset = 0;
	}
	return 0;
}
