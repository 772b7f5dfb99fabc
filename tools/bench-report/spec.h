/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the verdict asks of the data: one item per line, fields split by
 * "|" and trimmed; "#" starts a comment line.
 *
 *   section | STAGE | HEADING            a heading, with STAGE's conditions
 *                                        (without data: its first figure's)
 *   value   | LABEL | STAGE | SERIES     median [q1-q3] of one series
 *   ratio   | LABEL | STAGE | NUM | DEN  NUM / DEN paired round by round:
 *                                        > 1 means DEN takes less
 *   plot    | ID | TITLE | STAGE | SERIES; SERIES; ...
 *                                        bars of the series' medians
 *   plotratios | ID | TITLE | LABEL; LABEL; ...
 *                                        bars of ratios defined above
 *
 * A value or ratio of a stage whose conditions differ from the section's
 * is followed by a line with the fields ("a, b, c") that differ.
 * Every figure is computed from the samples here, once; a stage with no
 * data makes its items "not measured", never an error, so that a partial
 * run still reports what it has.
 */
#ifndef BENCH_REPORT_SPEC_H
#define BENCH_REPORT_SPEC_H

#include <stdbool.h>

#include "load/timestats.h"
#include "samples.h"

#define PLOT_BARS_MAX 24

enum item_kind {
	ITEM_SECTION,
	ITEM_VALUE,
	ITEM_RATIO,
	ITEM_PLOT,
	ITEM_PLOT_RATIOS,
};

struct figure {
	bool measured;
	bool counts; /* deterministic: no spread */
	struct ratio_summary s;
	char unit[NAME_LEN];
};

struct item {
	enum item_kind kind;
	char label[TEXT_LEN]; /* heading, label or plot title */
	char id[NAME_LEN]; /* plots */
	char stage[NAME_LEN];
	char a[NAME_LEN], b[NAME_LEN];
	char bars[PLOT_BARS_MAX][TEXT_LEN]; /* series or ratio labels */
	unsigned int n_bars;
	struct figure fig; /* value and ratio */
	const struct stage *st; /* NULL: not measured */
};

struct spec {
	struct item *items;
	unsigned int n_items;
};

/* -errno with @err naming the line. */
int spec_load(struct spec *spec, const char *path, char *err, unsigned int len);
void spec_free(struct spec *spec);

/* Computes every value and ratio from @set. -ENOMEM only. */
int spec_compute(struct spec *spec, const struct sample_set *set);

/* A value of @st's series @name, for plots; false if none. */
bool figure_of_series(const struct stage *st, const char *name,
		      struct figure *fig);

/*
 * NUM / DEN of @st's series paired round by round, over the rounds that
 * measured both; not measured if either series is missing.
 */
void ratio_of_series(const struct stage *st, const char *num, const char *den,
		     struct figure *fig);

const struct item *spec_find_ratio(const struct spec *spec, const char *label);

#endif
