// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a run's *.samples files.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "samples.h"

#define ROUNDS_MAX 1000000

static struct series *get_series(struct stage *st, const char *name)
{
	struct series *s;
	unsigned int i;

	for (i = 0; i < st->n_series; i++)
		if (!strcmp(st->series[i].name, name))
			return &st->series[i];
	s = realloc(st->series, (st->n_series + 1) * sizeof(*s));
	if (!s)
		return NULL;
	st->series = s;
	s = &st->series[st->n_series++];
	*s = (struct series){ 0 };
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

static int set_value(struct series *s, unsigned int round, double v)
{
	unsigned int i;

	if (round >= s->n_rounds) {
		unsigned int n = round + 1;
		double *vals = realloc(s->values, n * sizeof(*vals));

		if (!vals)
			return -ENOMEM;
		for (i = s->n_rounds; i < n; i++)
			vals[i] = NAN;
		s->values = vals;
		s->n_rounds = n;
	}
	if (!isnan(s->values[round]))
		return -EEXIST;
	s->values[round] = v;
	return 0;
}

/* "@unit NAME FACTOR", "@cond TEXT", "@count" */
static int parse_header(struct stage *st, char *line)
{
	char unit[NAME_LEN];
	double factor;

	if (!strncmp(line, "@cond ", 6)) {
		snprintf(st->cond, sizeof(st->cond), "%.*s",
			 (int)sizeof(st->cond) - 1, line + 6);
		return 0;
	}
	if (!strcmp(line, "@count")) {
		st->counts = true;
		return 0;
	}
	if (sscanf(line, "@unit %63s %lf", unit, &factor) == 2 && factor > 0) {
		snprintf(st->unit, sizeof(st->unit), "%s", unit);
		st->factor = factor;
		return 0;
	}
	return -EINVAL;
}

static int parse_line(struct stage *st, char *line)
{
	char name[NAME_LEN];
	double value, divisor = 1;
	unsigned int round;
	struct series *s;
	int n;

	n = sscanf(line, "%63s %u %lf %lf", name, &round, &value, &divisor);
	if (n < 3 || round >= ROUNDS_MAX || !isfinite(value) ||
	    !(divisor > 0) || !isfinite(divisor))
		return -EINVAL;
	s = get_series(st, name);
	if (!s)
		return -ENOMEM;
	return set_value(s, round, value / divisor * st->factor);
}

static int sample_line(void *arg, char *line, const char *path,
		       unsigned int lineno, char *err, unsigned int len)
{
	struct stage *st = arg;
	int ret;

	ret = line[0] == '@' ? parse_header(st, line) : parse_line(st, line);
	if (ret)
		snprintf(err, len, "%s:%u: %s: \"%s\"", path, lineno,
			 ret == -EEXIST ? "a second value for a round" :
					  "not a sample line",
			 line);
	return ret;
}

static int stage_cmp(const void *a, const void *b)
{
	return strcmp(((const struct stage *)a)->name,
		      ((const struct stage *)b)->name);
}

int samples_load(struct sample_set *set, const char *dir, char *err,
		 unsigned int len)
{
	struct dirent *de;
	char path[4096];
	int ret = 0;
	DIR *d;

	*set = (struct sample_set){ 0 };
	d = opendir(dir);
	if (!d) {
		ret = -errno;
		snprintf(err, len, "%s: %s", dir, strerror(errno));
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct stage *st;

		if (n <= 8 || strcmp(de->d_name + n - 8, ".samples"))
			continue;
		st = realloc(set->stages,
			     (set->n_stages + 1) * sizeof(*set->stages));
		if (!st) {
			ret = -ENOMEM;
			snprintf(err, len, "%s: out of memory", dir);
			break;
		}
		set->stages = st;
		st = &set->stages[set->n_stages++];
		*st = (struct stage){ .factor = 1 };
		snprintf(st->name, sizeof(st->name), "%.*s", (int)(n - 8),
			 de->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		ret = read_lines(path, 512, sample_line, st, err, len);
	}
	closedir(d);
	if (set->n_stages)
		qsort(set->stages, set->n_stages, sizeof(*set->stages),
		      stage_cmp);
	return ret;
}

void samples_free(struct sample_set *set)
{
	unsigned int i, j;

	for (i = 0; i < set->n_stages; i++) {
		for (j = 0; j < set->stages[i].n_series; j++)
			free(set->stages[i].series[j].values);
		free(set->stages[i].series);
	}
	free(set->stages);
	*set = (struct sample_set){ 0 };
}

const struct stage *samples_stage(const struct sample_set *set,
				  const char *name)
{
	unsigned int i;

	for (i = 0; i < set->n_stages; i++)
		if (!strcmp(set->stages[i].name, name))
			return &set->stages[i];
	return NULL;
}

const struct series *stage_series(const struct stage *st, const char *name)
{
	unsigned int i;

	for (i = 0; i < st->n_series; i++)
		if (!strcmp(st->series[i].name, name))
			return &st->series[i];
	return NULL;
}

unsigned int series_values(const struct series *s, double *out)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->n_rounds; i++)
		if (!isnan(s->values[i]))
			out[n++] = s->values[i];
	return n;
}
