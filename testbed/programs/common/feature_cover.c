// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature sets that cover every pair of values of some feature bits
 * (each on or off) the spec's feature bit requirements allow: greedy
 * (AETG), with a fixed seed, so the same sets come out on every machine.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature_cover.h"
#include "lib/net_features.h"
#include "lib/util.h"

#define MAX_FACTORS 64
#define COVER_CANDIDATES 40

struct cover {
	unsigned int k;
	unsigned int bit[MAX_FACTORS];
	uint64_t base;
	/* [i][a][j][b], i < j: pair (factor i = a, factor j = b) not yet in a set */
	bool *uncovered;
	unsigned long n_uncovered;
	uint64_t rng;
};

/* A row under construction: per factor -1 (open), 0 or 1. */
struct row {
	signed char v[MAX_FACTORS];
};

static size_t pair_idx(const struct cover *c, unsigned int i, int a,
		       unsigned int j, int b)
{
	return ((size_t)(2 * i + a) * c->k + j) * 2 + b;
}

/* Deterministic: the same feature sets on every machine. */
static unsigned int cover_rand(struct cover *c, unsigned int n)
{
	c->rng = c->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(c->rng >> 33) % n;
}

static int factor_of(const struct cover *c, unsigned int bit)
{
	unsigned int i;

	for (i = 0; i < c->k; i++)
		if (c->bit[i] == bit)
			return i;
	return -1;
}

static bool row_set(const struct cover *c, struct row *r, unsigned int f,
		    int v);

/* Bit @bit on in @r: in the base, or a factor that is or can be set. */
static bool row_turn_on(const struct cover *c, struct row *r, unsigned int bit)
{
	int f;

	if (c->base & BIT_ULL(bit))
		return true;
	f = factor_of(c, bit);
	return f >= 0 && row_set(c, r, f, 1);
}

/*
 * Factor @f = @v in @r, with what it needs (the first of the options
 * that can be had); false, with @r unchanged, if that cannot be.
 */
static bool row_set(const struct cover *c, struct row *r, unsigned int f, int v)
{
	uint64_t needs = v ? net_feature_needs(c->bit[f]) : 0;
	struct row try, opt;
	unsigned int b;

	if (r->v[f] >= 0)
		return r->v[f] == v;
	try = *r;
	try.v[f] = v;
	if (needs) {
		for (b = 0; b < 64; b++) {
			if (!(needs & BIT_ULL(b)))
				continue;
			opt = try;
			if (row_turn_on(c, &opt, b))
				break;
		}
		if (b == 64)
			return false;
		try = opt;
	}
	*r = try;
	return true;
}

static unsigned long row_gain(const struct cover *c, const struct row *r)
{
	unsigned long gain = 0;
	unsigned int i, j;

	for (i = 0; i < c->k; i++)
		for (j = i + 1; j < c->k; j++)
			if (r->v[i] >= 0 && r->v[j] >= 0)
				gain += c->uncovered[pair_idx(c, i, r->v[i], j,
							      r->v[j])];
	return gain;
}

/* One candidate set: an uncovered pair, then every factor greedily. */
static void cover_candidate(struct cover *c, struct row *r)
{
	size_t n = (size_t)4 * c->k * c->k, start = cover_rand(c, n), p;
	unsigned int order[MAX_FACTORS], i, j, t;

	memset(r->v, -1, sizeof(r->v));
	for (p = 0; p < n; p++) {
		size_t q = (start + p) % n;

		if (c->uncovered[q]) {
			unsigned int fi = q / 2 / c->k / 2, fj = (q / 2) % c->k;
			int a = (q / 2 / c->k) % 2, b = q % 2;

			if (!row_set(c, r, fi, a) || !row_set(c, r, fj, b))
				abort(); /* only feasible pairs are uncovered */
			break;
		}
	}
	for (i = 0; i < c->k; i++)
		order[i] = i;
	for (i = c->k; i > 1; i--) {
		j = cover_rand(c, i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < c->k; i++) {
		unsigned int f = order[i];
		struct row with[2];
		long gain[2];
		int v;

		if (r->v[f] >= 0)
			continue;
		for (v = 0; v < 2; v++) {
			with[v] = *r;
			gain[v] = row_set(c, &with[v], f, v) ?
					  (long)row_gain(c, &with[v]) :
					  -1;
		}
		v = gain[1] > gain[0] ||
		    (gain[1] == gain[0] && cover_rand(c, 2));
		*r = with[v];
	}
}

static void cover_print(FILE *out, const struct cover *c, const struct row *r)
{
	uint64_t features = c->base;
	unsigned int i;
	bool any = false;

	for (i = 0; i < c->k; i++)
		if (r->v[i] == 1)
			features |= BIT_ULL(c->bit[i]);
	fprintf(out, "0x%llx", (unsigned long long)features);
	for (i = 0; i < c->k; i++) {
		if (r->v[i] == 1) {
			fprintf(out, " %s", net_feature_spec_name(c->bit[i]));
			any = true;
		}
	}
	fprintf(out, "%s\n", any ? "" : " -");
}

int feature_cover_print(FILE *out, uint64_t factors, uint64_t base)
{
	struct cover c = { .base = base, .rng = 0x76736266656174ULL };
	unsigned int i, j, b;
	int a, bv;

	for (b = 0; b < 64; b++)
		if ((factors & ~base) & BIT_ULL(b))
			c.bit[c.k++] = b;
	c.uncovered = calloc((size_t)4 * c.k * c.k, sizeof(bool));
	if (!c.uncovered)
		return -ENOMEM;
	for (i = 0; i < c.k; i++) {
		for (j = i + 1; j < c.k; j++) {
			for (a = 0; a < 2; a++) {
				for (bv = 0; bv < 2; bv++) {
					struct row r;

					memset(r.v, -1, sizeof(r.v));
					if (row_set(&c, &r, i, a) &&
					    row_set(&c, &r, j, bv)) {
						c.uncovered[pair_idx(&c, i, a,
								     j, bv)] =
							true;
						c.n_uncovered++;
					}
				}
			}
		}
	}
	while (c.n_uncovered) {
		struct row best = { { 0 } }, cand;
		unsigned long best_gain = 0, gain;

		for (i = 0; i < COVER_CANDIDATES; i++) {
			cover_candidate(&c, &cand);
			gain = row_gain(&c, &cand);
			if (gain > best_gain) {
				best_gain = gain;
				best = cand;
			}
		}
		for (i = 0; i < c.k; i++) {
			for (j = i + 1; j < c.k; j++) {
				size_t q = pair_idx(&c, i, best.v[i], j,
						    best.v[j]);

				c.n_uncovered -= c.uncovered[q];
				c.uncovered[q] = false;
			}
		}
		cover_print(out, &c, &best);
	}
	free(c.uncovered);
	return 0;
}
