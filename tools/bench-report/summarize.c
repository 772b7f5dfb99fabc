// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-report --summarize: the statistics of the measurement scripts
 * (kprobe phases, trace events, QEMU loads) as a filter, so that no
 * script computes a median in awk or jq. Reads "KEY VALUE" lines,
 * prints per key, in the order keys first appear,
 * "KEY N MIN Q1 MEDIAN Q3 P99 MAX MEAN".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/timestats.h"
#include "report.h"

struct key_values {
	char key[NAME_LEN];
	double *v;
	unsigned int n, cap;
};

static struct key_values *find_key(struct key_values **keys,
				   unsigned int *n_keys, const char *key)
{
	struct key_values *k;
	unsigned int i;

	for (i = 0; i < *n_keys; i++)
		if (!strcmp((*keys)[i].key, key))
			return &(*keys)[i];
	k = realloc(*keys, (*n_keys + 1) * sizeof(*k));
	if (!k)
		return NULL;
	*keys = k;
	k = &k[(*n_keys)++];
	*k = (struct key_values){ 0 };
	snprintf(k->key, sizeof(k->key), "%s", key);
	return k;
}

static int add_value(struct key_values *k, double v)
{
	if (k->n == k->cap) {
		unsigned int cap = k->cap ? 2 * k->cap : 64;
		double *nv = realloc(k->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		k->v = nv;
		k->cap = cap;
	}
	k->v[k->n++] = v;
	return 0;
}

int summarize(FILE *in, FILE *out)
{
	struct key_values *keys = NULL, *k;
	unsigned int n_keys = 0, lineno = 0, i;
	char line[512], key[NAME_LEN];
	struct time_summary s;
	int ret = 0;
	double v;

	while (!ret && fgets(line, sizeof(line), in)) {
		lineno++;
		if (sscanf(line, "%63s %lf", key, &v) != 2 || !isfinite(v)) {
			fprintf(stderr,
				"bench-report: --summarize: line %u: not KEY VALUE: %s",
				lineno, line);
			ret = -EINVAL;
			break;
		}
		k = find_key(&keys, &n_keys, key);
		ret = k ? add_value(k, v) : -ENOMEM;
	}
	for (i = 0; i < n_keys; i++) {
		if (!ret && !time_summary_of(keys[i].v, keys[i].n, &s))
			fprintf(out,
				"%s %u %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n",
				keys[i].key, s.n, s.min, s.q1, s.median, s.q3,
				s.p99, s.max, s.mean);
		free(keys[i].v);
	}
	free(keys);
	if (ret == -ENOMEM)
		fprintf(stderr, "bench-report: --summarize: out of memory\n");
	return ret;
}
