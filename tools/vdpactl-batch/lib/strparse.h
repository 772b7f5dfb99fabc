/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strict parsing of the numbers and addresses users type.
 */
#ifndef VDPACTL_STRPARSE_H
#define VDPACTL_STRPARSE_H

#include <stdint.h>

#define MAC_LEN 6
#define MAC_STR_LEN sizeof("00:00:00:00:00:00")

/*
 * Whole-string unsigned number in @base (0 = C prefixes), no sign, no
 * blanks. -EINVAL if not a number, -ERANGE if outside [min, max].
 */
int parse_u64(const char *s, int base, uint64_t min, uint64_t max,
	      uint64_t *value);

/* "aa:bb:cc:dd:ee:ff"; -EINVAL otherwise. */
int parse_mac(const char *s, uint8_t mac[MAC_LEN]);
void format_mac(const uint8_t mac[MAC_LEN], char buf[MAC_STR_LEN]);

#endif
