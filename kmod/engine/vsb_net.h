/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the kernel-free parts share about the device itself.
 */
#ifndef VSB_NET_H
#define VSB_NET_H

/*
 * The most queue pairs a device has (vdpa dev add ... max_vqp): state and
 * counters kept per queue have room for this many.
 */
#define VSB_NET_MAX_PAIRS 8
#define VSB_NET_MAX_DATA_VQS (2 * VSB_NET_MAX_PAIRS)

#endif /* VSB_NET_H */
