/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest memory as the device sees it: device addresses (IOVAs) are
 * translated and permission-checked by the host of this code. Both
 * accessors return 0 or a negative errno; a partial access is a failure.
 *
 * The module has one kind, kmod/vdpa/vsb_mem.c's, and calls it directly: an
 * indirect call for every access of every command would be a retpoline
 * on many x86 CPUs. The host tests and fuzzers have several (faults, an
 * access log) and pick one per ring through ops.
 *
 * Ahead of either, a ring's own areas may be reached in place: the host
 * of this code maps them (the module pins their pages, vsb_pin.c) and
 * lists them in direct[]. An access wholly inside one is a few loads or
 * stores (vsb_words_move()), with no call, no translation and no check
 * but the bounds; anything else takes the translated path, which is the
 * same memory. The host clears direct_on before a translation the areas
 * came from changes, and lists them again, under the same lock, only as
 * of the new one.
 */
#ifndef VSB_MEM_H
#define VSB_MEM_H

#include "vsb_seam.h"
#include "vsb_words.h"

/* A descriptor table or ring, a driver area and a device area. */
#define VSB_MEM_DIRECT 3

/*
 * Device addresses [start, start + len) at ptr; len 0: none. Readable,
 * and writable if so: as the driver mapped it (the driver area is
 * read-only to QEMU's shadow virtqueue).
 */
struct vsb_mem_direct {
	u64 start;
	u64 len;
	u8 *ptr;
	bool writable;
};

#ifdef __KERNEL__
struct vsb_mem {
	/* the ring's queue, struct vsb_vq */
	void *priv;
	/* written under the queue's locks, cleared by set_map: READ_ONCE */
	bool direct_on;
	struct vsb_mem_direct direct[VSB_MEM_DIRECT];
};

int vsb_iotlb_read(void *priv, u64 addr, void *buf, u32 len);
int vsb_iotlb_write(void *priv, u64 addr, const void *buf, u32 len);
#else
struct vsb_mem_ops {
	int (*read)(void *priv, u64 addr, void *buf, u32 len);
	int (*write)(void *priv, u64 addr, const void *buf, u32 len);
};

struct vsb_mem {
	const struct vsb_mem_ops *ops;
	void *priv;
	bool direct_on;
	struct vsb_mem_direct direct[VSB_MEM_DIRECT];
};
#endif

/* Where [addr, addr + len) lies in place for the access, or NULL. */
static __always_inline u8 *vsb_mem_direct(const struct vsb_mem *mem, u64 addr,
					  u32 len, bool write)
{
	unsigned int i;

	if (!READ_ONCE(mem->direct_on))
		return NULL;
	for (i = 0; i < VSB_MEM_DIRECT; i++) {
		const struct vsb_mem_direct *d = &mem->direct[i];
		u64 off = addr - d->start;

		if (off < d->len && len <= d->len - off &&
		    (!write || d->writable))
			return d->ptr + off;
	}
	return NULL;
}

static __always_inline int vsb_mem_read(const struct vsb_mem *mem, u64 addr,
					void *buf, u32 len)
{
	u8 *p = vsb_mem_direct(mem, addr, len, false);

	if (p) {
		vsb_words_move(p, buf, len, false);
		return 0;
	}
#ifdef __KERNEL__
	return vsb_iotlb_read(mem->priv, addr, buf, len);
#else
	return mem->ops->read(mem->priv, addr, buf, len);
#endif
}

static __always_inline int vsb_mem_write(const struct vsb_mem *mem, u64 addr,
					 const void *buf, u32 len)
{
	u8 *p = vsb_mem_direct(mem, addr, len, true);

	if (p) {
		vsb_words_move(p, (void *)buf, len, true);
		return 0;
	}
#ifdef __KERNEL__
	return vsb_iotlb_write(mem->priv, addr, buf, len);
#else
	return mem->ops->write(mem->priv, addr, buf, len);
#endif
}

#endif /* VSB_MEM_H */
