/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A target's invariants: a violated one prints what and where, then
 * aborts, which libFuzzer reports as a crash and saves the input.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond, ...)                                                 \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: invariant \"%s\" violated: ", \
				__FILE__, __LINE__, #cond);                   \
			fprintf(stderr, __VA_ARGS__);                         \
			fputc('\n', stderr);                                  \
			abort();                                              \
		}                                                             \
	} while (0)

#endif /* FUZZ_CHECK_H */
