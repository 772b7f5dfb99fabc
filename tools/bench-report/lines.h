/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text files bench-report reads (samples, the spec): line by line,
 * numbered, the line end cut, blank and "#" lines skipped.
 */
#ifndef BENCH_REPORT_LINES_H
#define BENCH_REPORT_LINES_H

/*
 * Per line: 0 to go on, or -errno after writing why into @err (@len
 * bytes), naming @path and @lineno as the caller sees fit.
 */
typedef int (*line_fn)(void *arg, char *line, const char *path,
		       unsigned int lineno, char *err, unsigned int len);

/*
 * Calls @fn on each line of @path, read in pieces of at most @max - 1
 * bytes (max <= 1024), until it returns non-zero. -errno, with @err
 * naming the file, if it cannot be opened.
 */
int read_lines(const char *path, unsigned int max, line_fn fn, void *arg,
	       char *err, unsigned int len);

#endif
