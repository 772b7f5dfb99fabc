// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The progress line: shown on a terminal only, redrawn at most four
 * times a second with rounds, rate and time left, cleared at the end.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/progress.h"

#define MS 1000000ULL

static void shown_on_a_terminal_only(void **state)
{
	char *buf = NULL, *slave;
	size_t len = 0;
	int master, fd;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_false(progress_wanted(f, false));
	fclose(f);
	free(buf);

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0)
		skip();
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	slave = ptsname(master);
	assert_non_null(slave);
	fd = open(slave, O_RDWR | O_NOCTTY);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(setenv("TERM", "xterm", 1), 0);
	assert_true(progress_wanted(f, false));
	/* JSON is for programs: no line even on a terminal. */
	assert_false(progress_wanted(f, true));
	/* A terminal that cannot redraw a line, or none named. */
	assert_int_equal(setenv("TERM", "dumb", 1), 0);
	assert_false(progress_wanted(f, false));
	assert_int_equal(unsetenv("TERM"), 0);
	assert_false(progress_wanted(f, false));
	fclose(f);
	close(master);
}

static void line_says_rounds_rate_and_time_left(void **state)
{
	struct progress p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	progress_start(&p, f, "load", 100, 1000 * MS);
	progress_update(&p, 10, 1100 * MS); /* too soon: not drawn */
	fflush(f);
	assert_int_equal(len, 0);
	progress_update(&p, 25, 1500 * MS);
	progress_update(&p, 30, 1600 * MS); /* 100 ms later: not drawn */
	progress_update(&p, 40, 1800 * MS);
	progress_update(&p, 100, 3000 * MS); /* done: the end clears */
	progress_end(&p);
	fclose(f);
	assert_string_equal(
		buf,
		"\rload: 25/100 rounds, 50.0 rounds/s, about 2 s left\033[K"
		"\rload: 40/100 rounds, 50.0 rounds/s, about 1 s left\033[K"
		"\r\033[K");
	free(buf);

	/* Off (no stream): nothing, even at the end. */
	progress_start(&p, NULL, "load", 100, 0);
	progress_update(&p, 50, 1000 * MS);
	progress_end(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shown_on_a_terminal_only),
		cmocka_unit_test(line_says_rounds_rate_and_time_left),
	};

	return cmocka_run_group_tests_name("progress", tests, NULL, NULL);
}
