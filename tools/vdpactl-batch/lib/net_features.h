/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names of virtio-net feature bits (spelled as iproute2's vdpa prints them)
 * and of vhost backend feature bits.
 */
#ifndef VDPACTL_NET_FEATURES_H
#define VDPACTL_NET_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NULL for a bit without a name. */
const char *net_feature_name(unsigned int bit);
const char *backend_feature_name(unsigned int bit);

/*
 * The spec's name without its VIRTIO_NET_F_, VIRTIO_F_ or VIRTIO_RING_F_
 * prefix ("INDIRECT_DESC" where iproute2 prints "RING_INDIRECT_DESC");
 * NULL for a bit without a name.
 */
const char *net_feature_spec_name(unsigned int bit);

/*
 * The bit @len bytes of @name name, in either spelling: the bit, or
 * -ENOENT.
 */
int net_feature_by_name(const char *name, size_t len);

/*
 * The spec's "Feature bit requirements": the bits of which @bit needs at
 * least one; 0 for a bit that needs none.
 */
uint64_t net_feature_needs(unsigned int bit);

/*
 * Drops the bits whose prerequisites (virtio spec, "Feature bit
 * requirements") are missing, e.g. GUEST_TSO4 without GUEST_CSUM.
 */
uint64_t net_features_drop_unmet(uint64_t features);

/*
 * Whether @negotiated has max_virtqueue_pairs queue pairs: with MQ or RSS
 * ("Device configuration layout"), as virtio_net and QEMU count them.
 */
bool net_has_pairs(uint64_t negotiated);
/* Control queue index: 2N with N = max_vqp under MQ or RSS, else 1 pair. */
unsigned int net_cvq_index(uint64_t negotiated, uint16_t max_vqp);

#endif
