// SPDX-License-Identifier: GPL-2.0-only
/* Fuzzer input as a stream of fields: see fuzz_input.h. */

#include "fuzz_input.h"

void fin_init(struct fuzz_input *in, const u8 *data, size_t size)
{
	in->data = data;
	in->size = size;
	in->pos = 0;
}

bool fin_empty(const struct fuzz_input *in)
{
	return in->pos >= in->size;
}

void fin_bytes(struct fuzz_input *in, void *buf, size_t len)
{
	size_t have = in->size - in->pos;
	size_t n = len < have ? len : have;

	memcpy(buf, in->data + in->pos, n);
	memset((u8 *)buf + n, 0, len - n);
	in->pos += n;
}

/* Fields are little-endian, whatever the host: corpora are portable. */
static u64 fin_le(struct fuzz_input *in, unsigned int bytes)
{
	u8 raw[8];
	u64 val = 0;

	fin_bytes(in, raw, bytes);
	while (bytes--)
		val = val << 8 | raw[bytes];
	return val;
}

u8 fin_u8(struct fuzz_input *in)
{
	return fin_le(in, 1);
}

u16 fin_u16(struct fuzz_input *in)
{
	return fin_le(in, 2);
}

u32 fin_u32(struct fuzz_input *in)
{
	return fin_le(in, 4);
}

u64 fin_u64(struct fuzz_input *in)
{
	return fin_le(in, 8);
}

u32 fin_below(struct fuzz_input *in, u64 n)
{
	return n <= 0x100   ? fin_u8(in) % n :
	       n <= 0x10000 ? fin_u16(in) % n :
			      fin_u32(in) % n;
}
