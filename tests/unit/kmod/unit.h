/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every unit test file includes first: cmocka, with the headers it
 * needs before it, and the kernel's ARRAY_SIZE for the tests' own tables
 * (vsb_seam_host.h has the same, for the code under test).
 * FEATURE(bit) is a feature bit's mask, for the tests' feature sets.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#define FEATURE(bit) (1ULL << (bit))

#endif /* UNIT_H */
