// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stderr sink: errors as "vdpactl-batch: ...", -v lines marked
 * "debug:", warnings "warning:", and only errors kept as the last error
 * a report names, until it is cleared.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/log.h"
#include "cli/progress.h"

/* stderr into a temporary file, the sink on it, until capture_end(). */
struct capture {
	FILE *f;
	int saved;
	char text[256];
};

static void capture_start(struct capture *c)
{
	c->f = tmpfile();
	assert_non_null(c->f);
	fflush(stderr);
	c->saved = dup(STDERR_FILENO);
	assert_true(c->saved >= 0);
	assert_int_not_equal(dup2(fileno(c->f), STDERR_FILENO), -1);
	log_to_stderr();
}

/* What stderr got, in c->text. */
static void capture_end(struct capture *c)
{
	size_t n;

	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->f);
	n = fread(c->text, 1, sizeof(c->text) - 1, c->f);
	c->text[n] = '\0';
	fclose(c->f);
}

static void verbose_lines_are_debug_not_errors(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c);
	pr_err("load 3: device acked ERR (1)");
	pr_verbose(1, 1, "VHOST_SET_FEATURES on /dev/vhost-vdpa-0");
	pr_verbose(1, 2, "not asked for");
	capture_end(&c);
	assert_string_equal(
		c.text,
		"vdpactl-batch: load 3: device acked ERR (1)\n"
		"vdpactl-batch: debug: VHOST_SET_FEATURES on /dev/vhost-vdpa-0\n");
	/* The report's error is the error, not the chatter after it. */
	assert_string_equal(log_last_error(), "load 3: device acked ERR (1)");
}

/*
 * A warning failed nothing: a report's error must not name it, nor an
 * earlier error once a run has cleared it (a load's failed.error).
 */
static void warnings_and_cleared_errors_are_not_the_error(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c);
	pr_err("compare: --samples /x: Permission denied");
	pr_warn("20 devices are bound to vhost_vdpa; using the first 16");
	capture_end(&c);
	assert_string_equal(
		c.text,
		"vdpactl-batch: compare: --samples /x: Permission denied\n"
		"vdpactl-batch: warning: 20 devices are bound to vhost_vdpa; "
		"using the first 16\n");
	assert_string_equal(log_last_error(),
			    "compare: --samples /x: Permission denied");

	/* A run starts: nothing before it is its error. */
	log_clear_last_error();
	assert_string_equal(log_last_error(), "");
	capture_start(&c);
	pr_warn("compare: the devices acked 3 commands as redundant");
	capture_end(&c);
	assert_string_equal(log_last_error(), "");
	capture_start(&c);
	pr_err("load 2: no completion within 1000 ms");
	capture_end(&c);
	assert_string_equal(log_last_error(),
			    "load 2: no completion within 1000 ms");
}

/* An error during a run starts on a clean line, not after the status. */
static void errors_clear_the_progress_line(void **state)
{
	struct progress p;
	struct capture c;

	(void)state;
	capture_start(&c);
	progress_start(&p, stderr, "load", 100, 0);
	progress_update(&p, 50, 1000000000ULL);
	pr_err("load 51: no completion within 1000 ms");
	progress_end(&p); /* erased already: nothing more */
	capture_end(&c);
	assert_string_equal(
		c.text,
		"\rload: 50/100 rounds, 50.0 rounds/s, about 1 s left\033[K"
		"\r\033[K"
		"vdpactl-batch: load 51: no completion within 1000 ms\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verbose_lines_are_debug_not_errors),
		cmocka_unit_test(errors_clear_the_progress_line),
		cmocka_unit_test(warnings_and_cleared_errors_are_not_the_error),
	};

	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
