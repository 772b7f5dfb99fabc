// SPDX-License-Identifier: GPL-2.0-only
/*
 * A queue's ring areas reached in place, through pinned pages.
 *
 * A lone command takes about nine guest accesses, seven of them to the
 * ring's own areas (the avail index and entry, descriptors, the used
 * entry and index). Each is a call, a translation and a guarded user
 * copy, some 90 instructions for two to sixteen bytes. So the first
 * access a run makes to a page of those areas pins it, and once all of
 * an area's pages are pinned and lie contiguous in the kernel's mapping,
 * the area is listed in the ring's struct vsb_mem: the engine then reads
 * and writes it in place (engine/vsb_mem.h), as a hardware device's DMA
 * reaches the pages vhost_vdpa pinned for it. Buffers, which change from
 * command to command, keep the user copy.
 *
 * A translation change (set_map, an address space or owner change, a
 * reset) turns the areas off at once (vsb_maps_changed(), under
 * vsb->lock, which is also what they are listed under); the pins go at
 * the queue's next access, or at once on a reset or owner change, whose
 * memory is no longer the device's, or when the device is freed.
 *
 * FOLL_LONGTERM, as a pin may last as long as the ring: gup migrates the
 * page out of movable memory first, and refuses a writable pin of a file
 * whose writeback needs dirty tracking, so a page the device writes is
 * shmem, hugetlb or anonymous memory. Pinning may fault the page in, so
 * it is done parked, as vsb_fault_in() faults. What cannot be pinned (such
 * a file, a high-memory page, a read-only mapping under a writable map),
 * and ring pages past VSB_PINS, stay on the user copy.
 *
 * A driver that changes its page tables under a live map (munmap, a hole
 * punched in the file) without telling set_map leaves the device on the
 * pages it pinned, as it would leave a hardware device: memory stays
 * safe, and the driver loses what it no longer maps.
 */

#include <linux/mm.h>

#include "vsb.h"

/*
 * Q held, or the device freed. The pages the device may have written are
 * marked dirty with the flag alone, as KVM does for guest pages: the
 * writable pins are of memory with no dirty accounting (above), and
 * folio_mark_dirty() may not race with truncation, which no lock here
 * holds off.
 */
void vsb_vq_unpin(struct vsb_vq *vq)
{
	struct vsb_mem *mem = &vq->ring.mem;
	unsigned int i;

	WRITE_ONCE(mem->direct_on, false);
	memset(mem->direct, 0, sizeof(mem->direct));
	vq->ring_direct = false;
	for (i = 0; i < vq->nr_pins; i++) {
		struct page *page = vq->pins[i].page;

		if (vq->pins[i].perm & VHOST_MAP_WO)
			folio_set_dirty(page_folio(page));
		unpin_user_page(page);
	}
	vq->nr_pins = 0;
	vq->pin_failed = false;
}

void vsb_unpin_all(struct vsb_dev *vsb)
{
	unsigned int i;

	for (i = 0; i < VSB_MAX_NVQS; i++)
		vsb_vq_unpin(&vsb->vqs[i]);
}

static const struct vsb_pin *vsb_pin_of(const struct vsb_vq *vq, u64 addr)
{
	unsigned int i;

	for (i = 0; i < vq->nr_pins; i++)
		if (vq->pins[i].start <= addr && addr <= vq->pins[i].last)
			return &vq->pins[i];
	return NULL;
}

/*
 * Where [start, start + len) lies in the kernel's mapping, if all of it
 * is pinned readable and contiguous there; NULL otherwise. *writable:
 * whether all of it is mapped writable too (else the checked path takes
 * the device's writes, and refuses them).
 */
static u8 *vsb_pins_span(const struct vsb_vq *vq, u64 start, u64 len,
			 bool *writable)
{
	u64 addr = start, end = start + len - 1;
	u8 *first = NULL, *next = NULL;

	*writable = true;
	for (;;) {
		const struct vsb_pin *pin = vsb_pin_of(vq, addr);
		u8 *kaddr;

		if (!pin || !(pin->perm & VHOST_MAP_RO))
			return NULL;
		if (!(pin->perm & VHOST_MAP_WO))
			*writable = false;
		kaddr = pin->kaddr + (addr - pin->start);
		if (!first)
			first = kaddr;
		else if (kaddr != next)
			return NULL;
		if (pin->last >= end)
			return first;
		next = kaddr + (pin->last - addr + 1);
		addr = pin->last + 1;
	}
}

/*
 * List the ring's areas that are pinned whole, and turn them on unless
 * the translations changed since the pins were made; under vsb->lock,
 * as vsb_maps_changed() turns them off.
 */
static void vsb_vq_direct(struct vsb_vq *vq)
{
	struct vsb_mem *mem = &vq->ring.mem;
	struct vsb_dev *vsb = vq->vsb;
	unsigned int i, n = 0;
	u64 start, len;

	for (i = 0; i < VSB_RING_AREAS; i++) {
		bool writable = false;
		u8 *ptr = NULL;

		if (vsb_ring_area(&vq->ring, i, &start, &len))
			ptr = vsb_pins_span(vq, start, len, &writable);
		mem->direct[i] = (struct vsb_mem_direct){
			.start = ptr ? start : 0,
			.len = ptr ? len : 0,
			.ptr = ptr,
			.writable = ptr && writable,
		};
		n += !!ptr;
	}
	vq->ring_direct = n == VSB_RING_AREAS;
	mutex_lock(&vsb->lock);
	WRITE_ONCE(mem->direct_on,
		   n && vq->tlb_gen == atomic64_read(&vsb->map_gen));
	mutex_unlock(&vsb->lock);
}

/*
 * Pin the page of the owner's memory that @map puts @addr on, which a
 * run's access reaches through the user copy, if it is one of the ring's
 * areas and there is room. Q held, in a run, with current->mm the owner's.
 *
 * Return: 0 if nothing was done (@map still holds), 1 if the access
 * should look again (pinned, or the maps changed meanwhile), or -EFAULT
 * if the run is abandoned.
 */
int vsb_vq_pin(struct vsb_vq *vq, const struct vsb_tlb_entry *map, u64 addr)
{
	struct vsb_dev *vsb = vq->vsb;
	u64 host = map->addr + (addr - map->start);
	u32 off = offset_in_page(host);
	unsigned int flags = FOLL_LONGTERM;
	struct vsb_pin *pin;
	struct page *page;
	u64 gen;
	int n;

	if (!vsb_ring_holds(&vq->ring, addr))
		return 0;
	if (map->perm & VHOST_MAP_WO)
		flags |= FOLL_WRITE;
	gen = vsb_park(vsb);
	n = pin_user_pages_fast(host - off, 1, flags, &page);
	if (!vsb_unpark(vsb, gen)) {
		if (n == 1)
			unpin_user_page(page);
		return -EFAULT;
	}
	if (n == 1 && PageHighMem(page)) {
		unpin_user_page(page);
		n = 0;
	}
	if (n != 1) {
		vq->pin_failed = true;
		return 1;
	}
	/* The page may be another now: translate again. */
	if (vq->tlb_gen != atomic64_read(&vsb->map_gen)) {
		unpin_user_page(page);
		return 1;
	}
	pin = &vq->pins[vq->nr_pins++];
	/* The map's part of the page, around addr; no end can wrap. */
	pin->start = addr - min_t(u64, off, addr - map->start);
	pin->last = addr + min_t(u64, PAGE_SIZE - 1 - off, map->last - addr);
	pin->kaddr = (u8 *)page_address(page) + off - (addr - pin->start);
	pin->page = page;
	pin->perm = map->perm;
	vsb_vq_direct(vq);
	return 1;
}
