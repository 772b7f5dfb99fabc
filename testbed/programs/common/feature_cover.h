/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TESTBED_FEATURE_COVER_H
#define TESTBED_FEATURE_COVER_H

#include <stdint.h>
#include <stdio.h>

/*
 * Prints to @out feature sets over the bits of @factors that cover every
 * pair of their values the feature dependencies (net_feature_needs())
 * allow, one a line as "0xHEX NAME..." (the factors on, or "-"); every
 * set has the bits of @base too. 0 or -ENOMEM.
 */
int feature_cover_print(FILE *out, uint64_t factors, uint64_t base);

#endif
