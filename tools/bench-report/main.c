// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-report: the end of "make run". Reads the run's raw samples and
 * the verdict's spec, computes every figure once (the tool's statistics,
 * load/timestats.c), prints the one-page verdict and writes it, with
 * report.html, beside the data.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "load/turns.h"

static void usage(FILE *f)
{
	fputs("Usage: bench-report --data DIR --spec FILE [--out DIR]\n"
	      "       bench-report --data DIR --table PREFIX --baseline DEV [--out DIR]\n"
	      "       bench-report --summarize\n"
	      "       bench-report --order ROUND NAME...\n"
	      "Reads DIR/*.samples and DIR/run.meta, prints the verdict the spec asks\n"
	      "for and writes OUT/verdict.txt and OUT/report.html (OUT: DIR).\n"
	      "--table: the sweep's stages PREFIX-PROFILE-COUNT-KICK-WAIT (series\n"
	      "DEV/MODE) and their PREFIX-...-counts into OUT/PREFIX.csv, one row per\n"
	      "stage and series (n, median, quartiles, extremes, the round-by-round\n"
	      "ratio over DEV's, the counters' medians), and OUT/PREFIX.md.\n"
	      "--summarize: \"KEY VALUE\" lines on stdin, one line per key on stdout:\n"
	      "KEY N MIN Q1 MEDIAN Q3 P99 MAX MEAN (keys in order of appearance).\n"
	      "--order: the NAMEs in the order they take their turns in round ROUND\n"
	      "(0, 1, ...), as the tool's engine rotates its devices, on one line.\n",
	      f);
}

/* The verdict as one string, for the terminal, the file and the page. */
static char *verdict_text(const struct spec *spec, const struct run_meta *meta)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	print_verdict(f, spec, meta);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	fputs(text, f);
	ret = ferror(f) ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* --table: the sweep's CSV and markdown tables. */
static int sweep_table(const char *data, const char *prefix,
		       const char *baseline, const char *out)
{
	struct sample_set set;
	char err[512];
	int ret;

	if (samples_load(&set, data, err, sizeof(err))) {
		fprintf(stderr, "bench-report: reading the samples: %s\n", err);
		return 1;
	}
	ret = write_table(&set, prefix, baseline, out, err, sizeof(err));
	if (ret)
		fprintf(stderr, "bench-report: --table %s: %s\n", prefix, err);
	samples_free(&set);
	return ret ? 1 : 0;
}

/* --order ROUND NAME...: the turns of one round (turns.h). */
static int print_order(const char *round_arg, char *const *names,
		       unsigned int n)
{
	unsigned long long round;
	unsigned int i;
	char *end;

	errno = 0;
	round = strtoull(round_arg, &end, 10);
	/* Below 2^63: the round and the turn's place in it do not wrap. */
	if (!n || !*round_arg || *end || round_arg[0] == '-' || errno ||
	    round > INT64_MAX) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < n; i++)
		printf("%s%s", i ? " " : "", names[turn_target(round, i, n)]);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "data", required_argument, NULL, 'd' },
		{ "spec", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "summarize", no_argument, NULL, 'S' },
		{ "table", required_argument, NULL, 't' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "order", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *data = NULL, *spec_path = NULL, *out = NULL;
	const char *table = NULL, *baseline = NULL, *order = NULL;
	struct sample_set set;
	struct run_meta meta;
	struct spec spec;
	char err[512], path[4096], *text;
	int c, ret;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			data = optarg;
			break;
		case 's':
			spec_path = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 't':
			table = optarg;
			break;
		case 'b':
			baseline = optarg;
			break;
		case 'r':
			order = optarg;
			break;
		case 'S':
			return summarize(stdin, stdout) ? 1 : 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (order) {
		if (data || spec_path || table || baseline || out) {
			usage(stderr);
			return 2;
		}
		return print_order(order, argv + optind,
				   (unsigned int)(argc - optind));
	}
	if (!data || !spec_path == !table || !table != !baseline ||
	    optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!out)
		out = data;
	if (table)
		return sweep_table(data, table, baseline, out);
	if (spec_load(&spec, spec_path, err, sizeof(err))) {
		fprintf(stderr, "bench-report: reading the spec: %s\n", err);
		return 1;
	}
	if (samples_load(&set, data, err, sizeof(err))) {
		fprintf(stderr, "bench-report: reading the samples: %s\n", err);
		spec_free(&spec);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/run.meta", data);
	run_meta_load(&meta, path);
	spec_compute(&spec, &set);
	text = verdict_text(&spec, &meta);
	ret = text ? 0 : -ENOMEM;
	if (!ret) {
		fputs(text, stdout);
		snprintf(path, sizeof(path), "%s/verdict.txt", out);
		ret = write_text(path, text);
	}
	if (!ret) {
		snprintf(path, sizeof(path), "%s/report.html", out);
		ret = write_html(path, &spec, &meta, text);
	}
	if (ret)
		fprintf(stderr, "bench-report: writing %s: %s\n", path,
			strerror(-ret));
	free(text);
	samples_free(&set);
	spec_free(&spec);
	return ret ? 1 : 0;
}
