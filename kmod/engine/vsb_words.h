/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest memory moved a field at a time. The ring's indices, flags and
 * event fields are 16-bit values the driver writes or reads while the
 * device does, so each must move in one load or store: a copy that moves
 * one byte at a time (memcpy may, for a length only known at run time)
 * lets the driver see half an update. Kernel-free, so that the host tests
 * check the plan the module's physical path, and any access in place
 * (vsb_mem.h), follows.
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

/*
 * Longer accesses are windows of entries that the driver leaves alone
 * while the device moves them: descriptors and heads it made available,
 * used entries it reads only after the used index. No field of those
 * has to move in one piece, and memcpy moves them in fewer instructions.
 * A field the driver may be writing (an index, flags, an event) is
 * always reached alone, and two descriptors are 32 bytes.
 */
#define VSB_WORDS_BULK 64

/* One piece of vsb_words_move(): @width bytes, naturally aligned at @mem. */
static __always_inline void vsb_word_move(void *mem, void *buf, u32 width,
					  bool write)
{
	u64 v8;
	u32 v4;
	u16 v2;

	switch (width) {
	case 8:
		if (write) {
			memcpy(&v8, buf, 8);
			WRITE_ONCE(*(u64 *)mem, v8);
		} else {
			v8 = READ_ONCE(*(u64 *)mem);
			memcpy(buf, &v8, 8);
		}
		break;
	case 4:
		if (write) {
			memcpy(&v4, buf, 4);
			WRITE_ONCE(*(u32 *)mem, v4);
		} else {
			v4 = READ_ONCE(*(u32 *)mem);
			memcpy(buf, &v4, 4);
		}
		break;
	case 2:
		if (write) {
			memcpy(&v2, buf, 2);
			WRITE_ONCE(*(u16 *)mem, v2);
		} else {
			v2 = READ_ONCE(*(u16 *)mem);
			memcpy(buf, &v2, 2);
		}
		break;
	default:
		if (write)
			WRITE_ONCE(*(u8 *)mem, *(u8 *)buf);
		else
			*(u8 *)buf = READ_ONCE(*(u8 *)mem);
		break;
	}
}

/*
 * Move @len bytes between guest memory at @mem, reached in place, and
 * @buf, a vsb_word_width() piece at a time: one load or store each on
 * the guest's side, where the device's side may be unaligned. Inline:
 * most moves are one field, whose size the caller knows, so that the
 * compiler keeps one load or store and an alignment test.
 */
static __always_inline void vsb_words_move(void *mem, void *buf, u32 len,
					   bool write)
{
	u32 width;

	if (len > VSB_WORDS_BULK) {
		if (write)
			memcpy(mem, buf, len);
		else
			memcpy(buf, mem, len);
		return;
	}
	if ((len == 2 || len == 4 || len == 8) &&
	    !((uintptr_t)mem & (len - 1))) {
		vsb_word_move(mem, buf, len, write);
		return;
	}
	/* Pieces up to 8-byte alignment, then words, then what is left. */
	while (len) {
		width = vsb_word_width((uintptr_t)mem, len);
		if (width == 8) {
			for (; len >= 8; len -= 8) {
				vsb_word_move(mem, buf, 8, write);
				mem = (u8 *)mem + 8;
				buf = (u8 *)buf + 8;
			}
			continue;
		}
		vsb_word_move(mem, buf, width, write);
		mem = (u8 *)mem + width;
		buf = (u8 *)buf + width;
		len -= width;
	}
}

#endif /* VSB_WORDS_H */
