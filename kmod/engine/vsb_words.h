/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest memory moved a field at a time. The ring's indices, flags and
 * event fields are 16-bit values the driver writes or reads while the
 * device does, so each must move in one load or store: a copy that moves
 * one byte at a time (memcpy may, for a length only known at run time)
 * lets the driver see half an update. Kernel-free, so that the host tests
 * check the plan the module's physical path follows.
 */
#ifndef VSB_WORDS_H
#define VSB_WORDS_H

#include "vsb_seam.h"

/*
 * The widest naturally aligned access, of at most 8 bytes, that starts at
 * @addr and fits in @len (> 0) bytes: a field the driver laid out
 * naturally aligned (every ring field is) is always moved whole.
 */
static inline u32 vsb_word_width(u64 addr, u32 len)
{
	if (len >= 8 && !(addr & 7))
		return 8;
	if (len >= 4 && !(addr & 3))
		return 4;
	if (len >= 2 && !(addr & 1))
		return 2;
	return 1;
}

#endif /* VSB_WORDS_H */
