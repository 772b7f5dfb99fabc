/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Load profiles: which control commands one load sends, limited to what
 * the negotiated features allow.
 */
#ifndef VDPACTL_PROFILE_H
#define VDPACTL_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/cvq_cmd.h"

enum load_profile {
	LOAD_PROFILE_MAC, /* N x MAC_ADDR_SET, the original experiment */
	LOAD_PROFILE_QEMU, /* what QEMU sends when it loads a configured NIC */
	LOAD_PROFILE_VLAN, /* N x VLAN_ADD */
	LOAD_PROFILE_MIXED, /* round robin over every supported command */
};

/* Indexed by enum load_profile; NULL-terminated. */
extern const char *const load_profile_names[];

struct profile_env {
	uint64_t features; /* negotiated */
	uint16_t max_vqp; /* from the config space, 1 without MQ */
	/* The config space's RSS limits, with RSS or HASH_REPORT; else 0. */
	uint8_t rss_max_key_size;
	uint16_t rss_max_indirection_table_length;
	uint32_t supported_hash_types;
};

#define PROFILE_NOTE_LEN 512

/* Device features the profile can use, to offer in negotiation. */
uint64_t profile_wanted_features(enum load_profile profile);

/*
 * Fills @cmds with the @count commands of one load. Commands whose feature
 * was not negotiated are left out (and named in @note); MAC_ADDR_SET fills
 * in when nothing else is left. -ENOTSUP if no command is allowed at all.
 */
int profile_build(enum load_profile profile, unsigned int count,
		  const struct profile_env *env, struct cvq_cmd *cmds,
		  char note[PROFILE_NOTE_LEN]);

#endif
