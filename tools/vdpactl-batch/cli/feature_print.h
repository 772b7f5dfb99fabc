/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Feature bits printed by name (lib/net_features.h names them).
 */
#ifndef VDPACTL_FEATURE_PRINT_H
#define VDPACTL_FEATURE_PRINT_H

#include <stdint.h>

#include "cli/output.h"
#include "lib/net_features.h"

/*
 * Prints the set bits as a JSON array under @key, or as " NAME" words in
 * text (" bit_N" for bits without a name), as iproute2 does.
 */
void print_net_features(struct output *o, const char *key, uint64_t features);
void print_backend_features(struct output *o, const char *key,
			    uint64_t features);

#endif
