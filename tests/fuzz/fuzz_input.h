/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a fuzzer's input as a stream of little-endian fields. A read
 * past the end gives zeros, so every input, however short, is a complete
 * scenario: libFuzzer's mutations never produce one the target rejects.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>

#include "vsb_seam.h"

struct fuzz_input {
	const u8 *data;
	size_t size;
	size_t pos;
};

void fin_init(struct fuzz_input *in, const u8 *data, size_t size);
bool fin_empty(const struct fuzz_input *in);
u8 fin_u8(struct fuzz_input *in);
u16 fin_u16(struct fuzz_input *in);
u32 fin_u32(struct fuzz_input *in);
u64 fin_u64(struct fuzz_input *in);
/* A value in [0, n), 0 < n <= 2^32. */
u32 fin_below(struct fuzz_input *in, u64 n);
/* len bytes; zeros for what the input lacks. */
void fin_bytes(struct fuzz_input *in, void *buf, size_t len);

#endif /* FUZZ_INPUT_H */
