/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whose turn it is: in round ROUND of N alternating targets, the i-th to
 * go is target (ROUND + i) % N, so that each goes first once every N
 * rounds and drift in the machine hits every target alike. The engine's
 * rounds (bench.c) go in this order, and "bench-report --order" gives it
 * to the benchmark scripts that take turns where the engine cannot
 * (QEMU's loads, coalescing settings): the order is defined once.
 */
#ifndef LOAD_TURNS_H
#define LOAD_TURNS_H

#include <stdint.h>

/* The target whose turn is @i (0..@n-1) in round @round. */
static inline unsigned int turn_target(uint64_t round, unsigned int i,
				       unsigned int n)
{
	return (unsigned int)((round + i) % n);
}

#endif /* LOAD_TURNS_H */
