// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Streaming JSON writer.
 */
#include <inttypes.h>
#include <math.h>

#include "cli/json_writer.h"

void jw_init(struct json_writer *w, FILE *f, bool pretty)
{
	*w = (struct json_writer){ .f = f, .pretty = pretty };
}

static void newline_indent(struct json_writer *w)
{
	unsigned int i;

	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("    ", w->f);
}

/* Separates this value from the previous member unless a key precedes it. */
static void begin_value(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->has_member[w->depth - 1])
		fputc(',', w->f);
	w->has_member[w->depth - 1] = true;
	newline_indent(w);
}

static void write_escaped(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void jw_key(struct json_writer *w, const char *key)
{
	begin_value(w);
	write_escaped(w->f, key);
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = true;
}

static void open_container(struct json_writer *w, char opening)
{
	begin_value(w);
	fputc(opening, w->f);
	if (w->depth < JSON_MAX_DEPTH)
		w->has_member[w->depth] = false;
	w->depth++;
}

static void close_container(struct json_writer *w, char closing)
{
	bool had_members;

	if (w->depth == 0)
		return;
	w->depth--;
	had_members = w->depth < JSON_MAX_DEPTH && w->has_member[w->depth];
	if (had_members)
		newline_indent(w);
	fputc(closing, w->f);
	if (w->depth == 0)
		fputc('\n', w->f);
}

void jw_object_open(struct json_writer *w)
{
	open_container(w, '{');
}

void jw_object_close(struct json_writer *w)
{
	close_container(w, '}');
}

void jw_array_open(struct json_writer *w)
{
	open_container(w, '[');
}

void jw_array_close(struct json_writer *w)
{
	close_container(w, ']');
}

void jw_string(struct json_writer *w, const char *s)
{
	begin_value(w);
	write_escaped(w->f, s ? s : "");
}

void jw_u64(struct json_writer *w, uint64_t v)
{
	begin_value(w);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_i64(struct json_writer *w, int64_t v)
{
	begin_value(w);
	fprintf(w->f, "%" PRId64, v);
}

void jw_double(struct json_writer *w, double v)
{
	begin_value(w);
	/* JSON has no NaN or infinity. */
	if (isfinite(v))
		fprintf(w->f, "%.3f", v);
	else
		fputs("null", w->f);
}

void jw_bool(struct json_writer *w, bool v)
{
	begin_value(w);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct json_writer *w)
{
	begin_value(w);
	fputs("null", w->f);
}
