// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Horizontal bar charts as inline SVG: a bar to the median, a thick
 * whisker over the interquartile range and a thin one from min to max.
 */
#include <math.h>
#include <stdio.h>

#include "report.h"

#define WIDTH 800
#define LABEL_W 300
#define VALUE_W 110
#define BAR_H 16
#define ROW_H 24
#define TOP 8
#define AXIS_H 22

void print_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/*
 * A round top for the axis, 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power
 * of ten, and into how many steps its ticks divide it evenly.
 */
static double nice_top(double v, unsigned int *ticks)
{
	static const struct {
		double top;
		unsigned int ticks;
	} steps[] = { { 1, 4 }, { 1.5, 3 }, { 2, 4 }, { 2.5, 5 }, { 3, 3 },
		      { 4, 4 }, { 5, 5 },   { 6, 3 }, { 8, 4 },	  { 10, 5 } };
	double p;
	unsigned int i;

	*ticks = 4;
	if (!(v > 0))
		return 1;
	p = pow(10, floor(log10(v)));
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]) - 1; i++)
		if (v <= steps[i].top * p)
			break;
	*ticks = steps[i].ticks;
	return steps[i].top * p;
}

void print_svg_bars(FILE *f, const char *const *labels,
		    const struct figure *figs, unsigned int n, bool ratios)
{
	unsigned int height = TOP + n * ROW_H + AXIS_H, i, ticks;
	double plot_w = WIDTH - LABEL_W - VALUE_W, top = 0, x;
	struct figure shown;
	char buf[96];

	/*
	 * The axis spans the interquartile ranges with room to spare, not
	 * the extremes: one scheduler tick in a thousand loads would
	 * otherwise squash every bar. Whiskers past it end in an arrow.
	 */
	for (i = 0; i < n; i++)
		if (figs[i].measured && figs[i].s.q3 * 1.3 > top)
			top = figs[i].s.q3 * 1.3;
	if (ratios && top < 1)
		top = 1;
	top = nice_top(top, &ticks);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" role=\"img\">\n",
		WIDTH, height, WIDTH, height);
	for (i = 0; i < n; i++) {
		const struct figure *fg = &figs[i];
		double y = TOP + i * ROW_H, mid = y + BAR_H / 2.0;

		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
			LABEL_W - 8, mid + 4);
		print_escaped(f, labels[i]);
		fputs("</text>\n", f);
		/* The median alone: the whiskers show the spread. */
		shown = *fg;
		shown.counts = true;
		format_figure(buf, sizeof(buf), &shown, ratios);
		if (fg->measured) {
			const struct ratio_summary *s = &fg->s;

			fprintf(f,
				"<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
				LABEL_W, y, s->median / top * plot_w, BAR_H,
				ratios ? (s->median >= 1 ? "#4a8" : "#c66") :
					 "#58b");
			fprintf(f,
				"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"1\"/>\n",
				LABEL_W + s->min / top * plot_w,
				LABEL_W + fmin(s->max, top) / top * plot_w, mid,
				mid);
			if (s->max > top)
				fprintf(f,
					"<path d=\"M%.1f %.1fl6 4l-6 4z\" fill=\"#222\"/>\n",
					LABEL_W + plot_w, mid - 4);
			fprintf(f,
				"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"4\"/>\n",
				LABEL_W + s->q1 / top * plot_w,
				LABEL_W + s->q3 / top * plot_w, mid, mid);
		}
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">", WIDTH - VALUE_W + 6,
			mid + 4);
		print_escaped(f, buf);
		fputs("</text>\n", f);
	}
	if (ratios) {
		x = LABEL_W + 1 / top * plot_w;
		fprintf(f,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%u\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n",
			x, x, TOP - 4, TOP + n * ROW_H);
	}
	fprintf(f,
		"<line x1=\"%d\" x2=\"%.1f\" y1=\"%u\" y2=\"%u\" stroke=\"#444\"/>\n",
		LABEL_W, LABEL_W + plot_w, TOP + n * ROW_H, TOP + n * ROW_H);
	for (i = 0; i <= ticks; i++) {
		x = LABEL_W + plot_w * i / ticks;
		format_number(buf, sizeof(buf), top * i / ticks);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%u\" text-anchor=\"middle\" class=\"axis\">%s</text>\n",
			x, height - 6, buf);
	}
	fputs("</svg>\n", f);
}
