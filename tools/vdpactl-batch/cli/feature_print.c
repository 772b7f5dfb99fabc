// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Feature sets printed by name, as iproute2's vdpa prints them.
 */
#include "cli/feature_print.h"
#include "lib/util.h"

static void print_feature_set(struct output *o, const char *key,
			      uint64_t features,
			      const char *(*name_of)(unsigned int bit))
{
	unsigned int bit;

	open_json_array(o, key);
	for (bit = 0; bit < 64; bit++) {
		const char *name;

		if (!(features & BIT_ULL(bit)))
			continue;
		name = name_of(bit);
		if (name)
			print_string(o, PRINT_ANY, NULL, " %s", name);
		else
			print_uint(o, PRINT_ANY, NULL, " bit_%u", bit);
	}
	close_json_array(o);
}

void print_net_features(struct output *o, const char *key, uint64_t features)
{
	print_feature_set(o, key, features, net_feature_name);
}

void print_backend_features(struct output *o, const char *key,
			    uint64_t features)
{
	print_feature_set(o, key, features, backend_feature_name);
}
