/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names of virtio-net feature bits (spelled as iproute2's vdpa prints them)
 * and of vhost backend feature bits.
 */
#ifndef VDPACTL_FEATURE_NAMES_H
#define VDPACTL_FEATURE_NAMES_H

#include <stdint.h>

#include "output.h"

/* NULL for a bit without a name. */
const char *net_feature_name(unsigned int bit);
const char *backend_feature_name(unsigned int bit);

/*
 * Drops the bits whose prerequisites (virtio spec, "Feature bit
 * requirements") are missing, e.g. GUEST_TSO4 without GUEST_CSUM.
 */
uint64_t net_features_drop_unmet(uint64_t features);

/* Control queue index: 2N with N = max_vqp under MQ, else 1 pair. */
unsigned int net_cvq_index(uint64_t negotiated, uint16_t max_vqp);

/*
 * Prints the set bits as a JSON array under @key, or as " NAME" words in
 * text (" bit_N" for bits without a name), as iproute2 does.
 */
void print_net_features(struct output *o, const char *key, uint64_t features);
void print_backend_features(struct output *o, const char *key,
			    uint64_t features);

#endif
