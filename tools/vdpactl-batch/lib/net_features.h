/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names of virtio-net feature bits (spelled as iproute2's vdpa prints them)
 * and of vhost backend feature bits.
 */
#ifndef VDPACTL_NET_FEATURES_H
#define VDPACTL_NET_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

/* NULL for a bit without a name. */
const char *net_feature_name(unsigned int bit);
const char *backend_feature_name(unsigned int bit);

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
