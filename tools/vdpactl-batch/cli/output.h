/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One print path for text and JSON, in the manner of iproute2's json_print:
 * each call names the JSON key and the text format of the same value, and
 * the output mode picks one. Keys are NULL for members of a JSON array.
 */
#ifndef VDPACTL_OUTPUT_H
#define VDPACTL_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/json_writer.h"
#include "lib/util.h"

enum print_kind {
	PRINT_FP = 1, /* text output only */
	PRINT_JSON = 2, /* JSON output only */
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

struct output {
	FILE *f;
	bool json;
	struct json_writer jw;
};

void output_init(struct output *o, FILE *f, bool json, bool pretty);

void print_string(struct output *o, enum print_kind kind, const char *key,
		  const char *fmt, const char *value);
void print_uint(struct output *o, enum print_kind kind, const char *key,
		const char *fmt, unsigned int value);
void print_u64(struct output *o, enum print_kind kind, const char *key,
	       const char *fmt, uint64_t value);
void print_double(struct output *o, enum print_kind kind, const char *key,
		  const char *fmt, double value);
void print_bool(struct output *o, enum print_kind kind, const char *key,
		const char *fmt, bool value);
/* Text-only helpers. */
void print_text(struct output *o, const char *fmt, ...) __printf(2, 3);
void print_nl(struct output *o);

/* JSON-only structure; no-ops in text mode. */
void open_json_object(struct output *o, const char *key);
void close_json_object(struct output *o);
void open_json_array(struct output *o, const char *key);
void close_json_array(struct output *o);

/*
 * A counter under a name that comes from the device: JSON "name": value,
 * text "name value ". The name is never used as a format.
 */
void print_named_u64(struct output *o, const char *name, uint64_t value);

/*
 * iproute2's object layout: a section {"dev": {...}} holding one object per
 * handle {"vdpa0": {...}}, which text prints as a "vdpa0: ..." line.
 */
void print_section_open(struct output *o, const char *section);
void print_section_close(struct output *o);
void print_handle_open(struct output *o, const char *handle);
void print_handle_close(struct output *o);

#endif
