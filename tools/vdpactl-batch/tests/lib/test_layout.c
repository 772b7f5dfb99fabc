// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The library stays a library: every file in lib/ includes only system
 * headers and lib/ headers (never cli/, whose output and log headers are
 * the printing layer, nor the netlink, load or inject layers above it),
 * and none writes to stdout or stderr itself.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifndef TOOL_SRC_DIR
#error "TOOL_SRC_DIR must name the tool's source directory"
#endif

/* A quoted #include that leaves lib/; NULL if @line is fine. */
static const char *foreign_include(const char *line)
{
	const char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "include", 7))
		return NULL;
	p += 7;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '"')
		return NULL;
	return strncmp(p + 1, "lib/", 4) ? p + 1 : NULL;
}

/* A call that prints; NULL if @line has none. */
static const char *printing_call(const char *line)
{
	static const char *const calls[] = {
		"printf(", "puts(", "putchar(", "perror(", "stdout",
		"stderr",  "putc(", "fputc(",	"fwrite(",
	};
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		const char *hit = strstr(line, calls[i]);

		/*
		 * snprintf() and vsnprintf() format into memory; __printf()
		 * is the format attribute.
		 */
		while (hit && hit != line &&
		       (hit[-1] == 'n' || hit[-1] == '_') &&
		       !strcmp(calls[i], "printf("))
			hit = strstr(hit + 1, calls[i]);
		if (hit)
			return calls[i];
	}
	return NULL;
}

static void rules_catch_violations(void **state)
{
	(void)state;
	assert_non_null(foreign_include("#include \"cli/output.h\""));
	assert_non_null(foreign_include("# include \"cli/log.h\""));
	assert_non_null(foreign_include("#include \"netlink/vdpa_msg.h\""));
	assert_null(foreign_include("#include \"lib/vring.h\""));
	assert_null(foreign_include("#include <stdio.h>"));
	assert_non_null(printing_call("\tfprintf(stderr, \"x\");"));
	assert_non_null(printing_call("\tprintf(\"x\");"));
	assert_null(printing_call("\tsnprintf(buf, n, \"x\");"));
	assert_null(
		printing_call("void f(const char *fmt, ...) __printf(1, 2);"));
	assert_null(
		printing_call("\tn = vsnprintf(line, sizeof(line), fmt, ap);"));
}

static bool is_source(const char *name)
{
	size_t len = strlen(name);

	return len > 2 && name[len - 2] == '.' &&
	       (name[len - 1] == 'c' || name[len - 1] == 'h');
}

static unsigned int check_file(const char *path)
{
	char line[1024];
	unsigned int bad = 0, n = 0;
	FILE *f = fopen(path, "r");
	const char *what;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		n++;
		what = foreign_include(line);
		if (what) {
			print_error("%s:%u includes %s", path, n, what);
			bad++;
		}
		what = printing_call(line);
		if (what) {
			print_error("%s:%u prints (%s)", path, n, what);
			bad++;
		}
	}
	fclose(f);
	return bad;
}

static void lib_is_a_library(void **state)
{
	char path[4096];
	unsigned int files = 0, bad = 0;
	struct dirent *e;
	DIR *dir;

	(void)state;
	dir = opendir(TOOL_SRC_DIR "/lib");
	assert_non_null(dir);
	while ((e = readdir(dir))) {
		if (!is_source(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/lib/%s", TOOL_SRC_DIR,
			 e->d_name);
		bad += check_file(path);
		files++;
	}
	closedir(dir);
	assert_true(files > 0);
	assert_int_equal(bad, 0);
}

static void the_five_parts_exist(void **state)
{
	static const char *const parts[] = { "lib", "netlink", "load", "inject",
					     "cli" };
	char path[4096];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		DIR *dir;

		snprintf(path, sizeof(path), "%s/%s", TOOL_SRC_DIR, parts[i]);
		dir = opendir(path);
		if (!dir)
			fail_msg("%s is missing", path);
		closedir(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rules_catch_violations),
		cmocka_unit_test(lib_is_a_library),
		cmocka_unit_test(the_five_parts_exist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
