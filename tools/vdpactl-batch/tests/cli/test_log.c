// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stderr sink: errors as "vdpactl-batch: ...", -v lines marked
 * "debug:", and only errors kept as the last error a report names.
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
	};

	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
