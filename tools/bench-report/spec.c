// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict's spec: parsing it and computing its figures.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "spec.h"

#define FIELDS_MAX 8

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

static unsigned int split(char *line, char sep, char **fields, unsigned int max)
{
	unsigned int n = 0;
	char *p = line, *q;

	while (n < max) {
		q = strchr(p, sep);
		if (q)
			*q = '\0';
		fields[n++] = trim(p);
		if (!q)
			break;
		p = q + 1;
	}
	return n;
}

#define COPY(dst, src) snprintf(dst, sizeof(dst), "%s", src)

static int parse_bars(struct item *it, char *list)
{
	char *bars[PLOT_BARS_MAX];
	unsigned int i;

	it->n_bars = split(list, ';', bars, PLOT_BARS_MAX);
	for (i = 0; i < it->n_bars; i++) {
		if (!*bars[i])
			return -EINVAL;
		COPY(it->bars[i], bars[i]);
	}
	return 0;
}

static int parse_item(struct item *it, char **f, unsigned int n)
{
	static const struct {
		const char *name;
		enum item_kind kind;
		unsigned int fields;
	} kinds[] = {
		{ "section", ITEM_SECTION, 3 },
		{ "value", ITEM_VALUE, 4 },
		{ "ratio", ITEM_RATIO, 5 },
		{ "plot", ITEM_PLOT, 5 },
		{ "plotratios", ITEM_PLOT_RATIOS, 4 },
	};
	unsigned int k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strcmp(f[0], kinds[k].name))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0]) || n != kinds[k].fields)
		return -EINVAL;
	it->kind = kinds[k].kind;
	switch (it->kind) {
	case ITEM_SECTION:
		COPY(it->stage, f[1]);
		COPY(it->label, f[2]);
		return 0;
	case ITEM_VALUE:
	case ITEM_RATIO:
		COPY(it->label, f[1]);
		COPY(it->stage, f[2]);
		COPY(it->a, f[3]);
		if (it->kind == ITEM_RATIO)
			COPY(it->b, f[4]);
		return 0;
	case ITEM_PLOT:
		COPY(it->id, f[1]);
		COPY(it->label, f[2]);
		COPY(it->stage, f[3]);
		return parse_bars(it, f[4]);
	case ITEM_PLOT_RATIOS:
		COPY(it->id, f[1]);
		COPY(it->label, f[2]);
		return parse_bars(it, f[3]);
	}
	return -EINVAL;
}

static int spec_line(void *arg, char *line, const char *path,
		     unsigned int lineno, char *err, unsigned int len)
{
	struct spec *spec = arg;
	char *fields[FIELDS_MAX];
	struct item *items;
	unsigned int n;
	int ret;

	if (*trim(line) == '#' || *trim(line) == '\0')
		return 0;
	items = realloc(spec->items, (spec->n_items + 1) * sizeof(*items));
	if (!items) {
		snprintf(err, len, "%s: out of memory", path);
		return -ENOMEM;
	}
	spec->items = items;
	memset(&items[spec->n_items], 0, sizeof(*items));
	n = split(line, '|', fields, FIELDS_MAX);
	ret = parse_item(&items[spec->n_items++], fields, n);
	if (ret)
		snprintf(err, len, "%s:%u: not a spec item", path, lineno);
	return ret;
}

int spec_load(struct spec *spec, const char *path, char *err, unsigned int len)
{
	*spec = (struct spec){ 0 };
	return read_lines(path, 1024, spec_line, spec, err, len);
}

void spec_free(struct spec *spec)
{
	free(spec->items);
	*spec = (struct spec){ 0 };
}

bool figure_of_series(const struct stage *st, const char *name,
		      struct figure *fig)
{
	const struct series *s = st ? stage_series(st, name) : NULL;
	double *v;
	unsigned int n;

	*fig = (struct figure){ 0 };
	if (!s)
		return false;
	v = malloc(s->n_rounds * sizeof(*v));
	if (!v)
		return false;
	n = series_values(s, v);
	fig->measured = n && !ratio_summary_of(v, n, &fig->s);
	fig->counts = st->counts;
	snprintf(fig->unit, sizeof(fig->unit), "%s", st->unit);
	free(v);
	return fig->measured;
}

void ratio_of_series(const struct stage *st, const char *num, const char *den,
		     struct figure *fig)
{
	const struct series *a = stage_series(st, num);
	const struct series *b = stage_series(st, den);
	unsigned int i, n = 0, rounds;
	double *r;

	*fig = (struct figure){ .counts = st->counts };
	if (!a || !b)
		return;
	rounds = a->n_rounds < b->n_rounds ? a->n_rounds : b->n_rounds;
	r = malloc((rounds + 1) * sizeof(*r));
	if (!r)
		return;
	for (i = 0; i < rounds; i++)
		if (!isnan(a->values[i]) && !isnan(b->values[i]) &&
		    b->values[i] > 0)
			r[n++] = a->values[i] / b->values[i];
	fig->measured = n && !ratio_summary_of(r, n, &fig->s);
	free(r);
}

int spec_compute(struct spec *spec, const struct sample_set *set)
{
	unsigned int i;

	for (i = 0; i < spec->n_items; i++) {
		struct item *it = &spec->items[i];

		it->st = it->stage[0] ? samples_stage(set, it->stage) : NULL;
		if (it->kind == ITEM_VALUE)
			figure_of_series(it->st, it->a, &it->fig);
		else if (it->kind == ITEM_RATIO && it->st)
			ratio_of_series(it->st, it->a, it->b, &it->fig);
	}
	return 0;
}

const struct item *spec_find_ratio(const struct spec *spec, const char *label)
{
	unsigned int i;

	for (i = 0; i < spec->n_items; i++)
		if (spec->items[i].kind == ITEM_RATIO &&
		    !strcmp(spec->items[i].label, label))
			return &spec->items[i];
	return NULL;
}
