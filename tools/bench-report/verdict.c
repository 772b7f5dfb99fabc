// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one-page verdict: the run's facts, then one line per figure with
 * its spread and a reading.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void set_key(struct run_meta *m, const char *key, const char *val)
{
	static const struct {
		const char *key;
		size_t off;
	} strs[] = {
		{ "commit", offsetof(struct run_meta, commit) },
		{ "kernel", offsetof(struct run_meta, kernel) },
		{ "date", offsetof(struct run_meta, date) },
		{ "elapsed", offsetof(struct run_meta, elapsed) },
		{ "load_before", offsetof(struct run_meta, load_before) },
		{ "load_after", offsetof(struct run_meta, load_after) },
	}, nums[] = {
		{ "busy_before", offsetof(struct run_meta, busy_before) },
		{ "busy_after", offsetof(struct run_meta, busy_after) },
		{ "total_before", offsetof(struct run_meta, total_before) },
		{ "total_after", offsetof(struct run_meta, total_after) },
		{ "own", offsetof(struct run_meta, own) },
	};
	unsigned int i;

	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (!strcmp(key, strs[i].key))
			snprintf((char *)m + strs[i].off, NAME_LEN, "%s", val);
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!strcmp(key, nums[i].key))
			*(double *)((char *)m + nums[i].off) = atof(val);
	if (!strcmp(key, "cpus"))
		m->cpus = (unsigned int)atoi(val);
}

void run_meta_load(struct run_meta *m, const char *path)
{
	char line[256], *eq;
	double total;
	FILE *f;

	*m = (struct run_meta){ .other_pct = -1 };
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		set_key(m, line, eq + 1);
	}
	fclose(f);
	/* What the CPUs did besides this run, from the kernel's own count. */
	total = m->total_after - m->total_before;
	if (total > 0 && m->busy_after >= m->busy_before) {
		m->other_pct =
			(m->busy_after - m->busy_before - m->own) * 100 / total;
		if (m->other_pct < 0)
			m->other_pct = 0;
	}
}

void format_number(char *buf, unsigned int len, double v)
{
	double a = v < 0 ? -v : v;

	snprintf(buf, len,
		 a >= 100 || a == 0 ? "%.0f" :
		 a >= 10	    ? "%.1f" :
				      "%.2f",
		 v);
}

void format_figure(char *buf, unsigned int len, const struct figure *fig,
		   bool ratio)
{
	const struct ratio_summary *s = &fig->s;
	const char *unit = ratio ? "x" : fig->unit;
	const char *sep = ratio ? "" : " ";
	char med[32], q1[32], q3[32];

	if (!fig->measured) {
		snprintf(buf, len, "not measured");
		return;
	}
	format_number(med, sizeof(med), s->median);
	/*
	 * Counts come in a few runs at most (a run's halves, say): their
	 * whole range, where times over many rounds give their middle half.
	 */
	format_number(q1, sizeof(q1), fig->counts ? s->min : s->q1);
	format_number(q3, sizeof(q3), fig->counts ? s->max : s->q3);
	if (s->n == 1)
		snprintf(buf, len, "%s%s%s", med, sep, unit);
	else
		snprintf(buf, len, "%s%s%s [%s-%s]", med, sep, unit, q1, q3);
}

const char *figure_reading(const struct figure *fig)
{
	if (!fig->measured)
		return "";
	if (fig->counts)
		return fig->s.median > 1 ? "fewer instructions" :
		       fig->s.median < 1 ? "more instructions" :
					   "the same";
	if (fig->s.n < 3)
		return "too few rounds to tell";
	if (ratio_within_noise(&fig->s))
		return "within noise";
	return fig->s.median > 1 ? "faster" : "slower";
}

#define STR_(x) #x
#define STR(x) STR_(x)

static const char unstable[] =
	"unstable: IQR over " STR(UNSTABLE_IQR_PCT) "% of the median";

const char *value_reading(const struct figure *fig)
{
	const struct ratio_summary *s = &fig->s;

	if (!fig->measured || fig->counts || s->n < 3 || !(s->median > 0))
		return "";
	if ((s->q3 - s->q1) * 100 > UNSTABLE_IQR_PCT * s->median)
		return unstable;
	return "";
}

/* Where the field at @f of a ", "-separated list ends. */
static const char *field_end(const char *f)
{
	const char *end = strstr(f, ", ");

	return end ? end : f + strlen(f);
}

/* Whether the ", "-separated list @list has the field @field (@len). */
static bool has_field(const char *list, const char *field, size_t len)
{
	const char *end;

	for (;; list = end + 2) {
		end = field_end(list);
		if ((size_t)(end - list) == len && !strncmp(list, field, len))
			return true;
		if (!*end)
			return false;
	}
}

/*
 * A figure's conditions where they differ from its section's: the fields
 * of @cond that @base lacks ("1000 commands per load at cont" against
 * "... 4098 commands per load at cont ..."), or all of @cond when it
 * has fewer fields of its own than @base has that @cond lacks (a claim
 * of the section with nothing in its place). "" when they agree.
 */
static void cond_diff(char *buf, size_t len, const char *cond, const char *base)
{
	unsigned int own = 0, lacked = 0, pass;
	const char *list, *other, *f, *end;
	size_t used = 0;

	buf[0] = '\0';
	if (!strcmp(cond, base))
		return;
	for (pass = 0; pass < 2; pass++) {
		list = pass ? base : cond;
		other = pass ? cond : base;
		for (f = list; *f; f = *end ? end + 2 : end) {
			end = field_end(f);
			if (has_field(other, f, (size_t)(end - f)))
				continue;
			if (pass) {
				lacked++;
				continue;
			}
			own++;
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used,
							 "%s%.*s",
							 used ? ", " : "",
							 (int)(end - f), f);
		}
	}
	if (lacked > own)
		snprintf(buf, len, "%s", cond);
}

/* The conditions a section states: its stage's, else its first figure's. */
static const char *section_cond(const struct spec *spec, unsigned int i)
{
	const struct item *it = &spec->items[i];

	if (it->st && it->st->cond[0])
		return it->st->cond;
	for (i++; i < spec->n_items && spec->items[i].kind != ITEM_SECTION;
	     i++) {
		it = &spec->items[i];
		if ((it->kind == ITEM_VALUE || it->kind == ITEM_RATIO) &&
		    it->st && it->st->cond[0])
			return it->st->cond;
	}
	return "";
}

static void print_host(FILE *f, const struct run_meta *m)
{
	fprintf(f, "host: %u CPUs; load average %s before, %s after", m->cpus,
		m->load_before[0] ? m->load_before : "?",
		m->load_after[0] ? m->load_after : "?");
	if (m->other_pct >= 0)
		fprintf(f, "; other work took %.0f%% of the CPUs",
			m->other_pct);
	fputc('\n', f);
	if (m->other_pct > BUSY_HOST_PCT)
		fprintf(f,
			"WARNING: the host was busy with other work: every figure below is suspect; run again alone\n");
}

void print_verdict(FILE *f, const struct spec *spec,
		   const struct run_meta *meta)
{
	char fig[96], own[TEXT_LEN];
	const char *cond = "", *reading;
	unsigned int i;

	fprintf(f, "vdpa-batch verdict: commit %s, kernel %s, %s, took %s\n",
		meta->commit[0] ? meta->commit : "?",
		meta->kernel[0] ? meta->kernel : "?", meta->date,
		meta->elapsed);
	print_host(f, meta);
	fprintf(f,
		"ratios: median [interquartile range] of round-by-round ratios, >1 = second is faster\n");
	for (i = 0; i < spec->n_items; i++) {
		const struct item *it = &spec->items[i];

		switch (it->kind) {
		case ITEM_SECTION:
			fprintf(f, "%s\n", it->label);
			cond = section_cond(spec, i);
			if (cond[0])
				fprintf(f, "  (%s)\n", cond);
			break;
		case ITEM_VALUE:
		case ITEM_RATIO:
			format_figure(fig, sizeof(fig), &it->fig,
				      it->kind == ITEM_RATIO);
			reading = it->kind == ITEM_RATIO ?
					  figure_reading(&it->fig) :
					  value_reading(&it->fig);
			if (reading[0])
				fprintf(f, "  %-46s %-22s %s\n", it->label, fig,
					reading);
			else
				fprintf(f, "  %-46s %s\n", it->label, fig);
			/* Its own conditions, where the section's are not. */
			if (it->fig.measured && cond[0] && it->st)
				cond_diff(own, sizeof(own), it->st->cond, cond);
			else
				own[0] = '\0';
			if (own[0])
				fprintf(f, "    ^ this figure: %s\n", own);
			break;
		default:
			break;
		}
	}
}
