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

static void verbose_lines_are_debug_not_errors(void **state)
{
	char text[256];
	FILE *f = tmpfile();
	int saved;
	size_t n;

	(void)state;
	assert_non_null(f);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_int_not_equal(dup2(fileno(f), STDERR_FILENO), -1);
	log_to_stderr();
	pr_err("load 3: device acked ERR (1)");
	pr_verbose(1, 1, "VHOST_SET_FEATURES on /dev/vhost-vdpa-0");
	pr_verbose(1, 2, "not asked for");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);

	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	assert_string_equal(
		text,
		"vdpactl-batch: load 3: device acked ERR (1)\n"
		"vdpactl-batch: debug: VHOST_SET_FEATURES on /dev/vhost-vdpa-0\n");
	/* The report's error is the error, not the chatter after it. */
	assert_string_equal(log_last_error(), "load 3: device acked ERR (1)");
}

/* An error during a run starts on a clean line, not after the status. */
static void errors_clear_the_progress_line(void **state)
{
	struct progress p;
	char text[256];
	FILE *f = tmpfile();
	int saved;
	size_t n;

	(void)state;
	assert_non_null(f);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_int_not_equal(dup2(fileno(f), STDERR_FILENO), -1);
	log_to_stderr();
	progress_start(&p, stderr, "load", 100, 0);
	progress_update(&p, 50, 1000000000ULL);
	pr_err("load 51: no completion within 1000 ms");
	progress_end(&p); /* erased already: nothing more */
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);

	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	assert_string_equal(
		text,
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
