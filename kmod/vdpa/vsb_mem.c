// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest memory for the ring engine: device addresses translated through the
 * queue's address space.
 *
 * vhost_vdpa binds the owner's mm and maps user virtual addresses (use_va);
 * they are reached with copy_{from,to}_user, so the caller must run with
 * that mm (the vhost worker does; the device's work item adopts it).
 * virtio_vdpa maps nothing: its DMA addresses are guest physical addresses
 * (dma-direct on the vDPA device), reached page by page through kmap.
 * Physical access needs both no mm and no map, so userspace can never make
 * the device touch physical memory.
 *
 * All of it runs in a queue run, under vsb->queue_lock but not vsb->lock.
 * A user page may have to be faulted in, which may wait for the mmap_lock
 * or for ever (a userfaultfd or FUSE page nobody serves): that wait is
 * made with queue_lock dropped (vsb_fault_in()).
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "vsb.h"
#include "vsb_words.h"

/*
 * A translation may have changed: each queue looks its address space up
 * again and forgets its look-ups (vsb_vq_as()). Each change counts as
 * vsb_map_gen_step, 1 but in the test that makes the count wrap. The
 * caller forgets the kick hint first (vsb_kick_hint_forget()): guest
 * memory is below the kick hint, which writes through it. The ring areas
 * reached in place stop being so at once, their pins at the next access.
 */
void vsb_maps_changed(struct vsb_dev *vsb)
{
	unsigned int i;

	lockdep_assert_held(&vsb->lock);
	atomic64_add(vsb_map_gen_step, &vsb->map_gen);
	/* Areas in place came from the old translations (vsb_pin.c). */
	for (i = 0; i < VSB_MAX_NVQS; i++)
		WRITE_ONCE(vsb->vqs[i].ring.mem.direct_on, false);
}

/*
 * Bring the queue's view of its address space up to date, its pins
 * dropped (vsb_pin.c). The run holds no lock while it reads the
 * generation: set_map changes translations under vsb->lock alone, and a
 * look-up one change behind is harmless (a user address of the same mm,
 * or the guest physical address the driver gave), whereas waiting for
 * set_map would close a cycle through the mmap_lock it is called under.
 */
static noinline void vsb_vq_as_refresh(struct vsb_vq *vq)
{
	struct vsb_dev *vsb = vq->vsb;
	unsigned int i;
	u32 group;

	vsb_vq_unpin(vq);
	mutex_lock(&vsb->lock);
	group = vq->index == vsb_cvq_index(vsb) ? VSB_GROUP_CVQ :
						  VSB_GROUP_DATA;
	vq->asid = vsb->group_asid[group];
	vq->passthrough = vsb->as[vq->asid].passthrough;
	for (i = 0; i < VSB_TLB_CACHE; i++)
		vq->tlb[i] = (struct vsb_tlb_entry){ .start = 1, .last = 0 };
	vq->tlb_gen = atomic64_read(&vsb->map_gen);
	mutex_unlock(&vsb->lock);
}

/* Every access checks; the refresh is rare, so out of line. */
static void vsb_vq_as(struct vsb_vq *vq)
{
	if (vq->tlb_gen != atomic64_read(&vq->vsb->map_gen))
		vsb_vq_as_refresh(vq);
}

/*
 * Whether @vq's address space has no map at all while the device works on
 * user addresses. vhost_vdpa (use_va) maps only shared file-backed memory
 * and skips the rest without an error, so a driver whose memory is
 * private, as QEMU's default guest RAM is, leaves the space empty.
 */
bool vsb_vq_nothing_mapped(struct vsb_vq *vq)
{
	struct vsb_dev *vsb = vq->vsb;

	lockdep_assert_held(&vsb->lock);
	return vsb->mm && !vsb->as[vq->asid].table;
}

/*
 * The translations of @iotlb as a table (kvfree() it), NULL for none, or
 * an ERR_PTR: -ENOSPC past VSB_IOTLB_LIMIT, -ENOMEM. One allocation that
 * may sleep, where a copy into another vhost_iotlb would take one atomic
 * allocation per map. The caller keeps @iotlb from changing (vhost_vdpa
 * holds its device mutex around set_map).
 */
struct vsb_map_table *vsb_map_table_build(struct vhost_iotlb *iotlb)
{
	struct vhost_iotlb_map *map;
	struct vsb_map_table *table;
	u32 n = 0;

	if (!iotlb->nmaps)
		return NULL;
	if (iotlb->nmaps > VSB_IOTLB_LIMIT)
		return ERR_PTR(-ENOSPC);
	table = kvmalloc(struct_size(table, maps, iotlb->nmaps), GFP_KERNEL);
	if (!table)
		return ERR_PTR(-ENOMEM);
	table->nmaps = iotlb->nmaps;
	/* In order of start: what the look-up's bisection needs. */
	for (map = vhost_iotlb_itree_first(iotlb, 0, U64_MAX);
	     map && n < table->nmaps;
	     map = vhost_iotlb_itree_next(map, 0, U64_MAX))
		table->maps[n++] = (struct vsb_tlb_entry){ .start = map->start,
							   .last = map->last,
							   .addr = map->addr,
							   .perm = map->perm };
	table->nmaps = n;
	return table;
}

/* The map holding @addr, or NULL. */
static const struct vsb_tlb_entry *
vsb_map_table_find(const struct vsb_map_table *table, u64 addr)
{
	u32 lo = 0, hi;

	if (!table)
		return NULL;
	hi = table->nmaps;
	/* The last map starting at or below addr is the only candidate. */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (table->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || table->maps[lo - 1].last < addr)
		return NULL;
	return &table->maps[lo - 1];
}

/*
 * A look-up the queue's cache missed: the IOTLB's map, cached. Out of line,
 * so that vsb_translate() stays small enough to inline into every access.
 */
static noinline const struct vsb_tlb_entry *
vsb_translate_miss(struct vsb_vq *vq, u64 addr)
{
	struct vsb_dev *vsb = vq->vsb;
	const struct vsb_tlb_entry *map;
	struct vsb_tlb_entry *e = NULL;

	mutex_lock(&vsb->lock);
	map = vsb_map_table_find(vsb->as[vq->asid].table, addr);
	if (map) {
		e = &vq->tlb[vq->tlb_next];
		*e = *map;
		vq->tlb_next = (vq->tlb_next + 1) % VSB_TLB_CACHE;
	}
	mutex_unlock(&vsb->lock);
	return e;
}

/* The translation of addr: recent look-ups first, then the IOTLB. */
static const struct vsb_tlb_entry *vsb_translate(struct vsb_vq *vq, u64 addr)
{
	const struct vsb_tlb_entry *e;
	unsigned int i;

	for (i = 0; i < VSB_TLB_CACHE; i++) {
		e = &vq->tlb[i];
		if (e->start <= addr && addr <= e->last)
			return e;
	}
	return vsb_translate_miss(vq, addr);
}

/*
 * The owner's user address of the device-writable [addr, addr + len) of
 * @vq's space, for a write outside a run (vsb_kick_hint()); NULL where
 * there is none: physical access, no map, no write permission, a range
 * across maps. Q held, in a run.
 */
void __user *vsb_vq_user_ptr(struct vsb_vq *vq, u64 addr, u32 len)
{
	struct vsb_dev *vsb = vq->vsb;
	const struct vsb_tlb_entry *map;

	lockdep_assert_held(&vsb->queue_lock);
	vsb_vq_as(vq);
	if (!vsb->mm || current->mm != vsb->mm || !len)
		return NULL;
	map = vsb_translate(vq, addr);
	if (!map || !(map->perm & VHOST_MAP_WO) || map->last - addr < len - 1)
		return NULL;
	return (void __user *)(uintptr_t)(map->addr + (addr - map->start));
}

static int vsb_phys_copy(u64 pa, void *buf, u32 len, bool write)
{
	while (len) {
		u32 off = offset_in_page(pa);
		u32 chunk = min_t(u32, len, PAGE_SIZE - off);
		unsigned long pfn = PHYS_PFN(pa);
		void *kaddr;

		if (!pfn_valid(pfn))
			return -EFAULT;
		kaddr = kmap_local_pfn(pfn);
		vsb_words_move(kaddr + off, buf, chunk, write);
		kunmap_local(kaddr);
		pa += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/*
 * Ring entries, descriptors and control commands are a few bytes each,
 * a batch of used entries a few hundred: those move a word at a time.
 *
 * The ring relies on it: the avail and used indices and flags are 16-bit
 * fields the driver writes or reads while the device does, so each must
 * be one load or store (vhost reads them with __get_user), and
 * copy_{from,to}_user promise no such thing -- "rep movsb" moves bytes.
 * A module built with plain copies for every length answered, within 18
 * loads, a used entry the driver never made available.
 *
 * For the other lengths it is a matter of cost, measured only under TCG,
 * where "rep movsb" runs (and is counted) byte by byte: against plain
 * copies for all but the 2-byte accesses, word-wise copies save 5 % of
 * the guest instructions per command of a batched load and 12 % of an
 * immediate one. Real CPUs with fast short "rep movsb" should gain less,
 * which no benchmark here can show.
 */
#define VSB_SMALL_COPY 512

static __always_inline int vsb_user_read_small(void *buf, const void __user *p,
					       u32 len)
{
	u64 v8;
	u32 v4;
	u16 v2;
	u8 v1;

	if (!user_access_begin(p, len))
		return -EFAULT;
	for (; len >= 8; len -= 8, p += 8, buf += 8) {
		unsafe_get_user(v8, (const u64 __user *)p, fault);
		memcpy(buf, &v8, 8);
	}
	if (len >= 4) {
		unsafe_get_user(v4, (const u32 __user *)p, fault);
		memcpy(buf, &v4, 4);
		len -= 4, p += 4, buf += 4;
	}
	if (len >= 2) {
		unsafe_get_user(v2, (const u16 __user *)p, fault);
		memcpy(buf, &v2, 2);
		len -= 2, p += 2, buf += 2;
	}
	if (len) {
		unsafe_get_user(v1, (const u8 __user *)p, fault);
		*(u8 *)buf = v1;
	}
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

static __always_inline int vsb_user_write_small(void __user *p, const void *buf,
						u32 len)
{
	u64 v8;
	u32 v4;
	u16 v2;

	if (!user_access_begin(p, len))
		return -EFAULT;
	for (; len >= 8; len -= 8, p += 8, buf += 8) {
		memcpy(&v8, buf, 8);
		unsafe_put_user(v8, (u64 __user *)p, fault);
	}
	if (len >= 4) {
		memcpy(&v4, buf, 4);
		unsafe_put_user(v4, (u32 __user *)p, fault);
		len -= 4, p += 4, buf += 4;
	}
	if (len >= 2) {
		memcpy(&v2, buf, 2);
		unsafe_put_user(v2, (u16 __user *)p, fault);
		len -= 2, p += 2, buf += 2;
	}
	if (len)
		unsafe_put_user(*(const u8 *)buf, (u8 __user *)p, fault);
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/*
 * With page faults disabled: a page not present fails it, -EFAULT. Inline
 * into each accessor, where @write is a constant: an access is a few
 * loads or stores, which a call would double.
 */
static __always_inline int vsb_user_copy(u64 uaddr, void *buf, u32 len,
					 bool write)
{
	void __user *p = (void __user *)(uintptr_t)uaddr;
	unsigned long left;
	int ret;

	pagefault_disable();
	if (len <= VSB_SMALL_COPY) {
		ret = write ? vsb_user_write_small(p, buf, len) :
			      vsb_user_read_small(buf, p, len);
	} else {
		if (write)
			left = copy_to_user(p, buf, len);
		else
			left = copy_from_user(buf, p, len);
		ret = left ? -EFAULT : 0;
	}
	pagefault_enable();
	return ret;
}

/* Chunks an access may fault in before it counts as a bad address. */
#define VSB_FAULT_IN_TRIES 64

/*
 * Fault in the user range a run's access failed on, parked. The mm's own
 * fault handling drops the mmap_lock while a userfaultfd waits, so
 * set_map, which vhost_vdpa calls under it, goes on too.
 *
 * Return: 0 to retry the access (the maps may have changed: translate
 * again), -EFAULT if the range cannot be faulted in or the run is
 * abandoned.
 */
static int vsb_fault_in(struct vsb_vq *vq, u64 uaddr, u32 len, bool write)
{
	const char __user *p = (const char __user *)(uintptr_t)uaddr;
	struct vsb_dev *vsb = vq->vsb;
	u64 gen = vsb_park(vsb);
	size_t left;

	/* The safe variant: it faults the page in without writing to it. */
	left = write ? fault_in_safe_writeable(p, len) :
		       fault_in_readable(p, len);
	if (!vsb_unpark(vsb, gen))
		return -EFAULT;
	return left ? -EFAULT : 0;
}

/* Inline into the two accessors below: one call per access, not two. */
static __always_inline int vsb_mem_xfer(struct vsb_vq *vq, u64 addr, void *buf,
					u32 len, bool write)
{
	struct vsb_dev *vsb = vq->vsb;
	u32 need = write ? VHOST_MAP_WO : VHOST_MAP_RO;
	unsigned int retries = 0;
	bool tried_pin = false;

	if (vsb->run_abandoned)
		return -EFAULT;
	vsb_vq_as(vq);
	if (!vsb->mm) {
		/*
		 * Maps hold user addresses (use_va); without their mm they
		 * mean nothing, and must never be taken for physical ones.
		 * vhost_vdpa gives the space back (reset_map) after it
		 * unbinds the mm, but nothing here may rely on that.
		 */
		if (!vq->passthrough)
			return -EFAULT;
		return vsb_phys_copy(addr, buf, len, write);
	}
	if (current->mm != vsb->mm)
		return -EFAULT;

	while (len) {
		const struct vsb_tlb_entry *map = vsb_translate(vq, addr);
		u64 room, host;
		u32 chunk;
		int ret;

		if (!map)
			return -EFAULT;
		if ((map->perm & need) != need)
			return -EPERM;
		if (!tried_pin && !vq->ring_direct && vq->nr_pins < VSB_PINS &&
		    !vq->pin_failed) {
			/* A ring page is pinned at its first access. */
			tried_pin = true;
			ret = vsb_vq_pin(vq, map, addr);
			if (ret < 0)
				return ret;
			if (ret) {
				vsb_vq_as(vq);
				continue;
			}
		}
		/* room is bytes after addr in the map, minus one: no wrap */
		room = map->last - addr;
		chunk = room < len - 1 ? room + 1 : len;
		host = map->addr + (addr - map->start);
		ret = vsb_user_copy(host, buf, chunk, write);
		if (ret) {
			/*
			 * A page the driver keeps taking away again
			 * (MADV_DONTNEED) between fault-in and copy costs a
			 * few retries; one that is never there after a fault-in
			 * that succeeded is no memory the device can use.
			 */
			if (++retries > VSB_FAULT_IN_TRIES)
				return -EFAULT;
			ret = vsb_fault_in(vq, host, chunk, write);
			if (ret)
				return ret;
			/* The maps may have changed meanwhile. */
			vsb_vq_as(vq);
			continue;
		}
		addr += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/* The ring engine's guest memory (engine/vsb_mem.h); @priv is the queue. */
int vsb_iotlb_read(void *priv, u64 addr, void *buf, u32 len)
{
	return vsb_mem_xfer(priv, addr, buf, len, false);
}

int vsb_iotlb_write(void *priv, u64 addr, const void *buf, u32 len)
{
	return vsb_mem_xfer(priv, addr, (void *)buf, len, true);
}
