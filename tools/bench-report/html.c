// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.html: the verdict and the plots in one self-contained page that
 * reads offline (inline SVG and CSS, no scripts, nothing fetched).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

static const char style[] =
	"body{font-family:sans-serif;max-width:820px;margin:2em auto;color:#222}"
	"pre{background:#f4f4f4;padding:1em;font-size:12px;overflow-x:auto}"
	"figure{margin:1.5em 0}figcaption{font-size:13px;color:#444}"
	"svg text{font-size:12px;font-family:sans-serif}svg .axis{fill:#666}";

static void print_plot(FILE *f, const struct spec *spec, const struct item *it)
{
	const char *labels[PLOT_BARS_MAX];
	struct figure figs[PLOT_BARS_MAX];
	const char *unit = "x";
	unsigned int i;

	for (i = 0; i < it->n_bars; i++) {
		labels[i] = it->bars[i];
		if (it->kind == ITEM_PLOT) {
			figure_of_series(it->st, it->bars[i], &figs[i]);
			unit = it->st ? it->st->unit : "";
		} else {
			const struct item *r =
				spec_find_ratio(spec, it->bars[i]);

			figs[i] = r ? r->fig : (struct figure){ 0 };
		}
	}
	fprintf(f, "<figure class=\"plot\" id=\"plot-");
	print_escaped(f, it->id);
	fputs("\">\n", f);
	print_svg_bars(f, labels, figs, it->n_bars,
		       it->kind == ITEM_PLOT_RATIOS);
	fputs("<figcaption>", f);
	print_escaped(f, it->label);
	fprintf(f,
		" (%s; bar: median, thick: interquartile range, thin: min to max, an arrow where it goes past the axis",
		unit);
	if (it->st && it->st->cond[0]) {
		fputs("; ", f);
		print_escaped(f, it->st->cond);
	}
	fputs(")</figcaption>\n</figure>\n", f);
}

int write_html(const char *path, const struct spec *spec,
	       const struct run_meta *meta, const char *verdict)
{
	unsigned int i;
	FILE *f;
	int ret;

	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>vdpa-batch: make run at %s</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>vdpa-batch: what make run measured</h1>\n<pre id=\"verdict\">",
		meta->commit[0] ? meta->commit : "?", style);
	print_escaped(f, verdict);
	fputs("</pre>\n", f);
	for (i = 0; i < spec->n_items; i++) {
		const struct item *it = &spec->items[i];

		if (it->kind == ITEM_PLOT || it->kind == ITEM_PLOT_RATIOS)
			print_plot(f, spec, it);
	}
	fputs("<p>The raw samples are the *.samples files beside this page; the logs are in logs/.</p>\n</body>\n</html>\n",
	      f);
	ret = ferror(f) ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
