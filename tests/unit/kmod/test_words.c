// SPDX-License-Identifier: GPL-2.0-only
/*
 * The plan the module's physical path moves guest memory by
 * (kmod/engine/vsb_words.h): for every start and length a ring access can have,
 * the pieces are naturally aligned, cover the range exactly once, and
 * every naturally aligned 2-, 4- or 8-byte field inside the range -- a
 * ring index, flags, an event field, a used element's id -- lies within
 * one piece, so it is moved by one load or store, never torn.
 */

#include "unit.h"

#include "vsb_words.h"

#define MAX_LEN 40

struct piece {
	u64 addr;
	u32 width;
};

static unsigned int plan(u64 addr, u32 len, struct piece *out)
{
	unsigned int n = 0;

	while (len) {
		u32 width = vsb_word_width(addr, len);

		out[n++] = (struct piece){ addr, width };
		addr += width;
		len -= width;
	}
	return n;
}

static bool field_whole(const struct piece *p, unsigned int n, u64 field,
			u32 size)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (p[i].addr <= field &&
		    field + size <= p[i].addr + p[i].width)
			return true;
	return false;
}

static void pieces_aligned_and_exact(void **state)
{
	struct piece p[MAX_LEN];
	u64 addr;
	u32 len;

	(void)state;
	for (addr = 0x1000; addr < 0x1010; addr++) {
		for (len = 1; len <= MAX_LEN; len++) {
			unsigned int n = plan(addr, len, p), i;
			u64 next = addr;

			for (i = 0; i < n; i++) {
				assert_true(p[i].width == 1 ||
					    p[i].width == 2 ||
					    p[i].width == 4 || p[i].width == 8);
				assert_int_equal(p[i].addr % p[i].width, 0);
				assert_int_equal(p[i].addr, next);
				next += p[i].width;
			}
			assert_int_equal(next, addr + len);
		}
	}
}

static void aligned_fields_whole(void **state)
{
	static const u32 sizes[] = { 2, 4, 8 };
	struct piece p[MAX_LEN];
	unsigned int s, n;
	u64 addr, field;
	u32 len;

	(void)state;
	for (addr = 0x1000; addr < 0x1010; addr++) {
		for (len = 1; len <= MAX_LEN; len++) {
			n = plan(addr, len, p);
			for (s = 0; s < 3; s++)
				for (field = addr;
				     field + sizes[s] <= addr + len; field++)
					if (!(field % sizes[s]) &&
					    !field_whole(p, n, field, sizes[s]))
						fail_msg(
							"[%#llx, +%u): field %#llx/%u torn",
							(unsigned long long)addr,
							len,
							(unsigned long long)
								field,
							sizes[s]);
		}
	}
}

/* The ring's own accesses, as the engines make them: one piece each. */
static void ring_fields_single(void **state)
{
	struct piece p[MAX_LEN];

	(void)state;
	/* a split avail or used idx (2-byte aligned ring + 2) */
	assert_int_equal(plan(0x2002, 2, p), 1);
	/* used_event after a 256-entry avail ring, avail_event likewise */
	assert_int_equal(plan(0x2000 + 4 + 2 * 256, 2, p), 1);
	/* a used element, id and len at a 4-byte aligned used ring + 4 */
	assert_int_equal(plan(0x3004, 8, p), 2);
	assert_int_equal(p[0].width, 4);
	/* a packed descriptor's flags, and the driver area's off_wrap */
	assert_int_equal(plan(0x400e, 2, p), 1);
	assert_int_equal(plan(0x5000, 4, p), 1);
}

/*
 * vsb_words_move() both ways, for every start within a word and every
 * length up to past the bulk threshold: exactly the bytes asked for move,
 * nothing either side of them.
 */
static void moves_exact_bytes(void **state)
{
	u8 mem[VSB_WORDS_BULK + 32], buf[VSB_WORDS_BULK + 32];
	u32 off, len, i;
	int write;

	(void)state;
	for (write = 0; write < 2; write++) {
		for (off = 0; off < 16; off++) {
			for (len = 1; len + off <= sizeof(mem); len++) {
				for (i = 0; i < sizeof(mem); i++) {
					mem[i] = (u8)(i + 1);
					buf[i] = (u8)(0x80 + i);
				}
				vsb_words_move(mem + off, buf, len, write);
				for (i = 0; i < sizeof(mem); i++) {
					bool in = i >= off && i < off + len;
					u8 want_mem =
						write && in ?
							(u8)(0x80 + i - off) :
							(u8)(i + 1);
					u8 want_buf =
						!write && i < len ?
							(u8)(i + off + 1) :
							(u8)(0x80 + i);

					assert_int_equal(mem[i], want_mem);
					assert_int_equal(buf[i], want_buf);
				}
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pieces_aligned_and_exact),
		cmocka_unit_test(aligned_fields_whole),
		cmocka_unit_test(ring_fields_single),
		cmocka_unit_test(moves_exact_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
