/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The seam between the device logic that knows nothing of the kernel (the
 * split-ring engine, the control-queue parser, the loopback) and the two
 * places it is built: the module, and the host unit tests and fuzzers.
 *
 * Kernel-free code includes only this header. In the module it maps to the
 * kernel's own headers; on the host vsb_seam_host.h, beside it, provides
 * the same names (fixed-width types, byte-order and unaligned-access
 * helpers, Ethernet address tests, barriers, errno).
 */
#ifndef VSB_SEAM_H
#define VSB_SEAM_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/virtio_byteorder.h>
#include <asm/barrier.h>
#include <asm/byteorder.h>
#include <uapi/linux/virtio_net.h>
#include <uapi/linux/virtio_ring.h>

/*
 * The device is software on one CPU and the driver runs on another, so
 * ordering between them needs SMP barriers, not I/O barriers. Each use in
 * the ring engine says what it orders.
 */
/* full barrier: see the comment at each use */
#define vsb_mb() smp_mb()
/* read barrier: see the comment at each use */
#define vsb_rmb() smp_rmb()
/* write barrier: see the comment at each use */
#define vsb_wmb() smp_wmb()
#else
#include "vsb_seam_host.h"
#endif

#endif /* VSB_SEAM_H */
