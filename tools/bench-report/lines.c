// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading bench-report's text files line by line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lines.h"

int read_lines(const char *path, unsigned int max, line_fn fn, void *arg,
	       char *err, unsigned int len)
{
	unsigned int lineno = 0;
	char line[1024];
	int ret = 0;
	FILE *f;

	if (max > sizeof(line))
		max = sizeof(line);
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return ret;
	}
	while (!ret && fgets(line, (int)max, f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		ret = fn(arg, line, path, lineno, err, len);
	}
	fclose(f);
	return ret;
}
