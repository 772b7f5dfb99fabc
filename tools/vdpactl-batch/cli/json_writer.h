/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Streaming JSON writer: callers emit keys and values in order, the writer
 * places commas, quotes, escapes and (optionally) pretty indentation.
 */
#ifndef VDPACTL_JSON_WRITER_H
#define VDPACTL_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *f;
	bool pretty;
	unsigned int depth;
	/* Per open container: has it got a member yet (so a comma is due)? */
	bool has_member[JSON_MAX_DEPTH];
	/* A key was just written; the next value belongs to it. */
	bool after_key;
};

void jw_init(struct json_writer *w, FILE *f, bool pretty);
void jw_key(struct json_writer *w, const char *key);
void jw_object_open(struct json_writer *w);
void jw_object_close(struct json_writer *w);
void jw_array_open(struct json_writer *w);
void jw_array_close(struct json_writer *w);
void jw_string(struct json_writer *w, const char *s);
void jw_u64(struct json_writer *w, uint64_t v);
void jw_i64(struct json_writer *w, int64_t v);
/* Fixed three decimals: enough for microseconds and stable to diff. */
void jw_double(struct json_writer *w, double v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);

#endif
