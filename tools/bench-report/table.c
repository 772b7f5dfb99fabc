// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-report --table PREFIX --baseline DEV: the tables of the benchmark
 * sweep (scripts/bench.sh). Every stage named PREFIX-PROFILE-COUNT-KICK-WAIT
 * is one configuration, its series DEV/MODE the load times of one device
 * and load mode; the stage STAGE-counts beside it holds the per-load
 * counters DEV/MODE/kicks, DEV/MODE/wakeups and DEV/MODE/notifications,
 * one value per repetition. Writes OUT/PREFIX.csv (one row per stage and
 * series) and OUT/PREFIX.md (one row per configuration and mode, devices
 * as columns). The figures are those of the verdict: a value is the
 * median [q1-q3] of every load, a comparison the median [q1-q3] of the
 * load-by-load ratios BASELINE/MODE over DEV/MODE (paired by LOAD).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define TABLE_DEVS_MAX 16
#define COUNTS_SUFFIX "-counts"

static const char *const counters[] = { "kicks", "wakeups", "notifications" };
#define N_COUNTERS (sizeof(counters) / sizeof(counters[0]))

/* One configuration: a stage of load times and its counters. */
struct config {
	const struct stage *st;
	const struct stage *counts; /* NULL: none */
	const char *rest; /* the name after "PREFIX-" */
	bool parsed; /* PROFILE-COUNT-KICK-WAIT */
	char profile[NAME_LEN], kick[NAME_LEN], wait[NAME_LEN];
	unsigned long count;
};

struct names {
	char name[TABLE_DEVS_MAX][NAME_LEN];
	unsigned int n;
};

struct table {
	const char *prefix;
	const char *baseline;
	struct config *configs;
	unsigned int n_configs;
	struct names devs, modes;
	unsigned int mode_order[TABLE_DEVS_MAX]; /* serial before parallel */
	bool has_counter[TABLE_DEVS_MAX][N_COUNTERS];
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* "mac-30-each-poll": the parts of a configuration's name. */
static void parse_config(struct config *c)
{
	char tail;

	c->parsed = sscanf(c->rest, "%63[^-]-%lu-%63[^-]-%63[^-]%c", c->profile,
			   &c->count, c->kick, c->wait, &tail) == 4;
}

/* The known words first, in the sweep's order; the rest by name. */
static int rank(const char *word)
{
	static const char *const order[] = { "serial", "parallel", "each",
					     "once",   "poll",	   "call" };
	unsigned int i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (!strcmp(word, order[i]))
			return (int)i;
	return 99;
}

static int word_cmp(const char *a, const char *b)
{
	int d = rank(a) - rank(b);

	return d ? d : strcmp(a, b);
}

static int config_cmp(const void *pa, const void *pb)
{
	const struct config *a = pa, *b = pb;
	int d;

	if (!a->parsed || !b->parsed)
		return a->parsed != b->parsed ? (a->parsed ? -1 : 1) :
						strcmp(a->rest, b->rest);
	d = strcmp(a->profile, b->profile);
	if (!d)
		d = (a->count > b->count) - (a->count < b->count);
	if (!d)
		d = word_cmp(a->wait, b->wait);
	if (!d)
		d = word_cmp(a->kick, b->kick);
	return d;
}

static int names_add(struct names *ns, const char *name, size_t len)
{
	unsigned int i;

	if (!len || len >= NAME_LEN)
		return -EINVAL;
	for (i = 0; i < ns->n; i++)
		if (strlen(ns->name[i]) == len &&
		    !strncmp(ns->name[i], name, len))
			return (int)i;
	if (ns->n == TABLE_DEVS_MAX)
		return -E2BIG;
	snprintf(ns->name[ns->n], NAME_LEN, "%.*s", (int)len, name);
	return (int)ns->n++;
}

/* DEV/MODE (and DEV/MODE/COUNTER): the devices and modes, as they come. */
static int collect_series(struct table *t, const struct stage *st, bool counts,
			  char *err, unsigned int len)
{
	unsigned int i, k;
	int dev, mode;

	for (i = 0; i < st->n_series; i++) {
		const char *name = st->series[i].name;
		const char *slash = strchr(name, '/');
		const char *tail = slash ? strchr(slash + 1, '/') : NULL;

		if (!slash || (!counts && tail) || (counts && !tail)) {
			snprintf(err, len, "%s: series %s is not %s", st->name,
				 name,
				 counts ? "DEVICE/MODE/COUNTER" :
					  "DEVICE/MODE");
			return -EINVAL;
		}
		dev = names_add(&t->devs, name, slash - name);
		mode = names_add(&t->modes, slash + 1,
				 tail ? (size_t)(tail - slash - 1) :
					strlen(slash + 1));
		if (dev < 0 || mode < 0) {
			snprintf(err, len, "%s: series %s: %s", st->name, name,
				 dev == -E2BIG || mode == -E2BIG ?
					 "too many devices or modes" :
					 "bad name");
			return dev < 0 ? dev : mode;
		}
		for (k = 0; counts && k < N_COUNTERS; k++)
			if (!strcmp(tail + 1, counters[k]))
				t->has_counter[dev][k] = true;
	}
	return 0;
}

static void sort_modes(struct table *t)
{
	unsigned int m, k;
	int j;

	for (m = 0; m < t->modes.n; m++) {
		k = m;
		for (j = (int)m - 1;
		     j >= 0 && word_cmp(t->modes.name[t->mode_order[j]],
					t->modes.name[k]) > 0;
		     j--)
			t->mode_order[j + 1] = t->mode_order[j];
		t->mode_order[j + 1] = k;
	}
}

/* The M-th mode in the sweep's order. */
static const char *mode_of(const struct table *t, unsigned int m)
{
	return t->modes.name[t->mode_order[m]];
}

static int table_build(struct table *t, const struct sample_set *set, char *err,
		       unsigned int len)
{
	size_t plen = strlen(t->prefix);
	char name[NAME_LEN + sizeof(COUNTS_SUFFIX)];
	unsigned int i;
	int ret;

	t->configs = calloc(set->n_stages + 1, sizeof(*t->configs));
	if (!t->configs) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < set->n_stages; i++) {
		const struct stage *st = &set->stages[i];
		struct config *c;

		if (strncmp(st->name, t->prefix, plen) ||
		    st->name[plen] != '-' || ends_with(st->name, COUNTS_SUFFIX))
			continue;
		c = &t->configs[t->n_configs++];
		c->st = st;
		c->rest = st->name + plen + 1;
		parse_config(c);
		snprintf(name, sizeof(name), "%s%s", st->name, COUNTS_SUFFIX);
		c->counts = samples_stage(set, name);
		ret = collect_series(t, st, false, err, len);
		if (!ret && c->counts)
			ret = collect_series(t, c->counts, true, err, len);
		if (ret)
			return ret;
	}
	if (!t->n_configs) {
		snprintf(err, len, "no stage named %s-*", t->prefix);
		return -ENOENT;
	}
	for (i = 0; i < t->devs.n; i++)
		if (!strcmp(t->devs.name[i], t->baseline))
			break;
	if (i == t->devs.n) {
		snprintf(err, len, "--baseline %s: no such device in %s-*",
			 t->baseline, t->prefix);
		return -ENOENT;
	}
	sort_modes(t);
	qsort(t->configs, t->n_configs, sizeof(*t->configs), config_cmp);
	return 0;
}

/* The median of a per-load counter over the repetitions; false if none. */
static bool counter_of(const struct config *c, const char *dev,
		       const char *mode, const char *counter, double *median)
{
	char name[3 * NAME_LEN];
	struct figure fig;

	snprintf(name, sizeof(name), "%s/%s/%s", dev, mode, counter);
	if (!c->counts || !figure_of_series(c->counts, name, &fig))
		return false;
	*median = fig.s.median;
	return true;
}

static void series_name(char *buf, size_t len, const char *dev,
			const char *mode)
{
	snprintf(buf, len, "%s/%s", dev, mode);
}

static void print_csv_header(FILE *f)
{
	unsigned int k;

	fputs("stage,profile,count,kick,wait,device,mode,unit,n,median,q1,q3,min,max,"
	      "baseline,ratio_n,ratio_median,ratio_q1,ratio_q3,reading",
	      f);
	for (k = 0; k < N_COUNTERS; k++)
		fprintf(f, ",%s_per_load", counters[k]);
	fputc('\n', f);
}

static void print_csv_row(FILE *f, const struct table *t,
			  const struct config *c, const char *dev,
			  const char *mode)
{
	char name[2 * NAME_LEN], base[2 * NAME_LEN];
	struct figure fig, ratio = { 0 };
	const struct ratio_summary *s = &fig.s;
	unsigned int k;
	double v;

	series_name(name, sizeof(name), dev, mode);
	if (!figure_of_series(c->st, name, &fig))
		return;
	series_name(base, sizeof(base), t->baseline, mode);
	if (strcmp(dev, t->baseline))
		ratio_of_series(c->st, base, name, &ratio);
	fprintf(f, "%s,", c->st->name);
	if (c->parsed)
		fprintf(f, "%s,%lu,%s,%s,", c->profile, c->count, c->kick,
			c->wait);
	else
		fputs(",,,,", f);
	fprintf(f, "%s,%s,%s,%u,%.6g,%.6g,%.6g,%.6g,%.6g,", dev, mode,
		c->st->unit, s->n, s->median, s->q1, s->q3, s->min, s->max);
	if (ratio.measured)
		fprintf(f, "%s,%u,%.6g,%.6g,%.6g,%s", t->baseline, ratio.s.n,
			ratio.s.median, ratio.s.q1, ratio.s.q3,
			figure_reading(&ratio));
	else
		fputs(",,,,,", f);
	for (k = 0; k < N_COUNTERS; k++) {
		if (counter_of(c, dev, mode, counters[k], &v))
			fprintf(f, ",%.6g", v);
		else
			fputc(',', f);
	}
	fputc('\n', f);
}

static void print_md_header(FILE *f, const struct table *t, const char *unit)
{
	unsigned int d, cols = 4;

	fputs("| workload | mode | kick | wait |", f);
	for (d = 0; d < t->devs.n; d++, cols++)
		fprintf(f, " %s %s |", t->devs.name[d], unit);
	for (d = 0; d < t->devs.n; d++)
		if (strcmp(t->devs.name[d], t->baseline)) {
			fprintf(f, " %s vs %s |", t->devs.name[d], t->baseline);
			cols++;
		}
	for (d = 0; d < t->devs.n; d++)
		if (t->has_counter[d][2]) {
			fprintf(f, " %s notif/load |", t->devs.name[d]);
			cols++;
		}
	fputs("\n|", f);
	while (cols--)
		fputs(" --- |", f);
	fputc('\n', f);
}

/* "4.80 [4.40-5.20]": a value without its unit, which the header names. */
static void value_cell(char *buf, size_t len, const struct stage *st,
		       const char *name)
{
	char med[32], q1[32], q3[32];
	struct figure fig;

	if (!figure_of_series(st, name, &fig)) {
		snprintf(buf, len, "-");
		return;
	}
	format_number(med, sizeof(med), fig.s.median);
	format_number(q1, sizeof(q1), fig.s.q1);
	format_number(q3, sizeof(q3), fig.s.q3);
	snprintf(buf, len, "%s [%s-%s]", med, q1, q3);
}

static void print_md_row(FILE *f, const struct table *t, const struct config *c,
			 const char *mode)
{
	char name[2 * NAME_LEN], base[2 * NAME_LEN], cell[128];
	const char *reading;
	struct figure fig;
	unsigned int d;
	double v;

	if (c->parsed)
		fprintf(f, "| %s x%lu | %s | %s | %s |", c->profile, c->count,
			mode, c->kick, c->wait);
	else
		fprintf(f, "| %s | %s | - | - |", c->rest, mode);
	for (d = 0; d < t->devs.n; d++) {
		series_name(name, sizeof(name), t->devs.name[d], mode);
		value_cell(cell, sizeof(cell), c->st, name);
		fprintf(f, " %s |", cell);
	}
	series_name(base, sizeof(base), t->baseline, mode);
	for (d = 0; d < t->devs.n; d++) {
		if (!strcmp(t->devs.name[d], t->baseline))
			continue;
		series_name(name, sizeof(name), t->devs.name[d], mode);
		ratio_of_series(c->st, base, name, &fig);
		format_figure(cell, sizeof(cell), &fig, true);
		reading = figure_reading(&fig);
		if (fig.measured && strcmp(reading, "faster") &&
		    strcmp(reading, "slower"))
			fprintf(f, " %s, %s |", cell, reading);
		else
			fprintf(f, " %s |", fig.measured ? cell : "-");
	}
	for (d = 0; d < t->devs.n; d++) {
		if (!t->has_counter[d][2])
			continue;
		if (counter_of(c, t->devs.name[d], mode, "notifications", &v))
			format_number(cell, sizeof(cell), v);
		else
			snprintf(cell, sizeof(cell), "-");
		fprintf(f, " %s |", cell);
	}
	fputc('\n', f);
}

static bool has_mode(const struct config *c, const char *mode)
{
	const char *slash;
	unsigned int i;

	for (i = 0; i < c->st->n_series; i++) {
		slash = strchr(c->st->series[i].name, '/');
		if (slash && !strcmp(slash + 1, mode))
			return true;
	}
	return false;
}

static void print_md(FILE *f, const struct table *t)
{
	const char *unit = t->configs[0].st->unit;
	unsigned int i, m;

	fprintf(f,
		"Per configuration and device: the median %s over every load of "
		"every repetition [interquartile range]. DEV vs %s: the median "
		"[interquartile range] of the load-by-load ratios %s/MODE over "
		"DEV/MODE, loads paired by their place in the turns of one "
		"repetition (above 1: DEV is faster); "
		"\"within noise\" when that range holds 1. notif/load: the "
		"device's \"cvq notifications\" per load, median over "
		"repetitions.\n\n",
		unit[0] ? unit : "value", t->baseline, t->baseline);
	print_md_header(f, t, unit[0] ? unit : "value");
	for (i = 0; i < t->n_configs; i++)
		for (m = 0; m < t->modes.n; m++)
			if (has_mode(&t->configs[i], mode_of(t, m)))
				print_md_row(f, t, &t->configs[i],
					     mode_of(t, m));
}

static int write_file(const char *path,
		      void (*print)(FILE *, const struct table *),
		      const struct table *t, char *err, unsigned int len)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f) {
		ret = -errno;
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return ret;
	}
	print(f, t);
	ret = ferror(f) ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		snprintf(err, len, "%s: %s", path, strerror(-ret));
	return ret;
}

static void print_csv(FILE *f, const struct table *t)
{
	unsigned int i, d, m;

	print_csv_header(f);
	for (i = 0; i < t->n_configs; i++)
		for (d = 0; d < t->devs.n; d++)
			for (m = 0; m < t->modes.n; m++)
				print_csv_row(f, t, &t->configs[i],
					      t->devs.name[d], mode_of(t, m));
}

int write_table(const struct sample_set *set, const char *prefix,
		const char *baseline, const char *out, char *err,
		unsigned int len)
{
	struct table t = { .prefix = prefix, .baseline = baseline };
	char path[4096];
	int ret;

	ret = table_build(&t, set, err, len);
	if (!ret) {
		snprintf(path, sizeof(path), "%s/%s.csv", out, prefix);
		ret = write_file(path, print_csv, &t, err, len);
	}
	if (!ret) {
		snprintf(path, sizeof(path), "%s/%s.md", out, prefix);
		ret = write_file(path, print_md, &t, err, len);
	}
	free(t.configs);
	return ret;
}
