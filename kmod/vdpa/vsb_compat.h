/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel API differences, detected by Kbuild from the target's headers
 * (VSB_HAVE_* in Kbuild), never from the version number: distributions
 * backport.
 */
#ifndef VSB_COMPAT_H
#define VSB_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/vdpa.h>

/*
 * 6.18 ("virtio: introduce map ops") passes map ops to the allocator and
 * moves dma_dev into vdpa->vmap.
 */
#ifdef VSB_HAVE_VIRTIO_MAP
#define vsb_alloc_device(type, member, parent, ops, ngroups, nas, name)        \
	vdpa_alloc_device(type, member, parent, ops, NULL, ngroups, nas, name, \
			  true)
#define vsb_set_dma_dev(vdpa, dev) ((vdpa)->vmap.dma_dev = (dev))
#else
#define vsb_alloc_device(type, member, parent, ops, ngroups, nas, name) \
	vdpa_alloc_device(type, member, parent, ops, ngroups, nas, name, true)
#define vsb_set_dma_dev(vdpa, dev) ((vdpa)->dma_dev = (dev))
#endif

/* 6.13 ("hrtimers: Introduce hrtimer_setup()"); 6.16 drops hrtimer_init(). */
static inline void
vsb_hrtimer_setup(struct hrtimer *timer,
		  enum hrtimer_restart (*fn)(struct hrtimer *), clockid_t clock,
		  enum hrtimer_mode mode)
{
#ifdef VSB_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

#endif /* VSB_COMPAT_H */
