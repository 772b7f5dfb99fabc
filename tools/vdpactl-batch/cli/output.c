// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One print path for text and JSON.
 */
#include <inttypes.h>
#include <stdarg.h>

#include "cli/output.h"

void output_init(struct output *o, FILE *f, bool json, bool pretty)
{
	o->f = f;
	o->json = json;
	jw_init(&o->jw, f, pretty);
}

/* Returns true if the value goes to JSON (after writing its key). */
static bool json_wants(struct output *o, enum print_kind kind, const char *key)
{
	if (!o->json || !(kind & PRINT_JSON))
		return false;
	if (key)
		jw_key(&o->jw, key);
	return true;
}

static bool text_wants(const struct output *o, enum print_kind kind)
{
	return !o->json && (kind & PRINT_FP);
}

void print_string(struct output *o, enum print_kind kind, const char *key,
		  const char *fmt, const char *value)
{
	if (json_wants(o, kind, key))
		jw_string(&o->jw, value);
	else if (text_wants(o, kind))
		fprintf(o->f, fmt, value);
}

void print_uint(struct output *o, enum print_kind kind, const char *key,
		const char *fmt, unsigned int value)
{
	if (json_wants(o, kind, key))
		jw_u64(&o->jw, value);
	else if (text_wants(o, kind))
		fprintf(o->f, fmt, value);
}

void print_u64(struct output *o, enum print_kind kind, const char *key,
	       const char *fmt, uint64_t value)
{
	if (json_wants(o, kind, key))
		jw_u64(&o->jw, value);
	else if (text_wants(o, kind))
		fprintf(o->f, fmt, value);
}

void print_double(struct output *o, enum print_kind kind, const char *key,
		  const char *fmt, double value)
{
	if (json_wants(o, kind, key))
		jw_double(&o->jw, value);
	else if (text_wants(o, kind))
		fprintf(o->f, fmt, value);
}

void print_bool(struct output *o, enum print_kind kind, const char *key,
		const char *fmt, bool value)
{
	if (json_wants(o, kind, key))
		jw_bool(&o->jw, value);
	else if (text_wants(o, kind))
		fprintf(o->f, fmt, value ? "true" : "false");
}

void print_text(struct output *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

void print_nl(struct output *o)
{
	if (!o->json)
		fputc('\n', o->f);
}

void open_json_object(struct output *o, const char *key)
{
	if (!o->json)
		return;
	if (key)
		jw_key(&o->jw, key);
	jw_object_open(&o->jw);
}

void close_json_object(struct output *o)
{
	if (o->json)
		jw_object_close(&o->jw);
}

void open_json_array(struct output *o, const char *key)
{
	if (!o->json)
		return;
	if (key)
		jw_key(&o->jw, key);
	jw_array_open(&o->jw);
}

void close_json_array(struct output *o)
{
	if (o->json)
		jw_array_close(&o->jw);
}

void print_section_open(struct output *o, const char *section)
{
	open_json_object(o, NULL);
	open_json_object(o, section);
}

void print_section_close(struct output *o)
{
	close_json_object(o);
	close_json_object(o);
}

void print_handle_open(struct output *o, const char *handle)
{
	open_json_object(o, handle);
	print_text(o, "%s: ", handle);
}

void print_handle_close(struct output *o)
{
	close_json_object(o);
	print_nl(o);
}

void print_named_u64(struct output *o, const char *name, uint64_t value)
{
	if (json_wants(o, PRINT_ANY, name))
		jw_u64(&o->jw, value);
	else if (text_wants(o, PRINT_ANY))
		fprintf(o->f, "%s %" PRIu64 " ", name, value);
}
