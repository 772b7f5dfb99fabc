// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Option tables: the TIME kind (OPT_TIME) in keyword style, each way a
 * time can be refused and the message that names it, and the machinery
 * around it (repeats, unknown and ambiguous keywords); the PERCENT kind
 * (OPT_PERCENT) and its refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/log.h"
#include "cli/opt.h"
#include "lib/util.h"

#define ONE_SECOND 1000000000ULL

struct time_opts {
	uint64_t op, cmd;
	bool has_op, has_cmd;
	int precise;
	struct opt opts[3];
};

static void time_opts_init(struct time_opts *t)
{
	static const char *const on_off[] = { "off", "on", NULL };

	*t = (struct time_opts){ .op = 7, .cmd = 7 };
	t->opts[0] = (struct opt){ .name = "op",
				   .kind = OPT_TIME,
				   .value = &t->op,
				   .max = ONE_SECOND,
				   .given = &t->has_op };
	t->opts[1] = (struct opt){ .name = "cmd",
				   .kind = OPT_TIME,
				   .value = &t->cmd,
				   .min = 10,
				   .max = ONE_SECOND,
				   .given = &t->has_cmd };
	t->opts[2] = (struct opt){ .name = "precise",
				   .kind = OPT_CHOICE,
				   .value = &t->precise,
				   .choices = on_off };
}

/* Parses the words of @line (at most 8) against the table. */
static enum opt_result parse_line(struct time_opts *t, const char *line)
{
	char copy[256], *argv[8], *word, *save = NULL;
	int argc = 0;

	time_opts_init(t);
	snprintf(copy, sizeof(copy), "%s", line);
	for (word = strtok_r(copy, " ", &save); word && argc < 8;
	     word = strtok_r(NULL, " ", &save))
		argv[argc++] = word;
	return opt_parse("dev cost", t->opts, ARRAY_SIZE(t->opts),
			 OPT_STYLE_KEYWORDS, argc, argv);
}

static void times_accepted(void **state)
{
	struct time_opts t;

	(void)state;
	assert_int_equal(parse_line(&t, "op 20us cmd 2.5us precise on"),
			 OPT_OK);
	assert_int_equal(t.op, 20000);
	assert_int_equal(t.cmd, 2500);
	assert_true(t.has_op && t.has_cmd);
	assert_int_equal(t.precise, 1);

	assert_int_equal(parse_line(&t, "op 1s"), OPT_OK); /* the maximum */
	assert_int_equal(t.op, ONE_SECOND);
	assert_false(t.has_cmd);
	assert_int_equal(t.cmd, 7); /* untouched */

	assert_int_equal(parse_line(&t, "op 0ns cmd 10ns"), OPT_OK);
	assert_int_equal(t.op, 0);
	assert_int_equal(t.cmd, 10);

	assert_int_equal(parse_line(&t, "o 3msec c 1usecs"), OPT_OK);
	assert_int_equal(t.op, 3000000);
	assert_int_equal(t.cmd, 1000);

	assert_int_equal(parse_line(&t, "op 5us help"), OPT_HELP);
}

struct refusal {
	const char *line;
	const char *message; /* the diagnostic, without the program name */
};

static void times_refused(void **state)
{
	static const struct refusal cases[] = {
		{ "op 20",
		  "dev cost: op 20 has no unit (ns, us, ms or s, as in 20us)" },
		{ "op 2.5",
		  "dev cost: op 2.5 has no unit (ns, us, ms or s, as in 2.5us)" },
		{ "op -5us", "dev cost: op -5us is negative" },
		{ "op 5xs",
		  "dev cost: op 5xs: unknown unit \"xs\" (ns, us, ms or s)" },
		{ "op 5minutes",
		  "dev cost: op 5minutes: unknown unit \"minutes\" (ns, us, ms or s)" },
		{ "op 1.5ns",
		  "dev cost: op 1.5ns is not a whole number of nanoseconds" },
		{ "op 1.000000001s",
		  "dev cost: op 1.000000001s is above the maximum, 1s" },
		{ "op 2s", "dev cost: op 2s is above the maximum, 1s" },
		{ "op 99999999999999999999s",
		  "dev cost: op 99999999999999999999s is above the maximum, 1s" },
		{ "cmd 9ns", "dev cost: cmd 9ns is below the minimum, 10ns" },
		{ "op fast",
		  "dev cost: op \"fast\" is not a time (a number and a unit: ns, us, ms or s)" },
		{ "op", "dev cost: op needs a value" },
		{ "op 1us op 2us", "dev cost: op given twice" },
		{ "op 1us o 2us", "dev cost: op given twice" },
		{ "bogus 1us", "dev cost: unknown option \"bogus\"" },
		{ "precise maybe",
		  "dev cost: precise \"maybe\" is not one of off, on" },
	};
	struct time_opts t;
	size_t i;

	(void)state;
	log_to_stderr();
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		print_message("%s\n", cases[i].line);
		assert_int_equal(parse_line(&t, cases[i].line), OPT_ERROR);
		assert_string_equal(log_last_error(), cases[i].message);
		assert_int_equal(t.op == 7 ||
					 !strncmp(cases[i].line, "op 1us", 6),
				 true);
	}
}

/* "probability P" parsed into ppm by @line; the result of the parse. */
static enum opt_result parse_percent(const char *line, uint32_t *ppm)
{
	char copy[64], *argv[2] = { copy, NULL };
	const struct opt opt = { .name = "probability",
				 .kind = OPT_PERCENT,
				 .value = ppm };

	snprintf(copy, sizeof(copy), "%s", line);
	argv[1] = strchr(copy, ' ');
	if (argv[1])
		*argv[1]++ = '\0';
	return opt_parse("dev fault add", &opt, 1, OPT_STYLE_KEYWORDS,
			 argv[1] ? 2 : 1, argv);
}

static void percentages(void **state)
{
	static const struct refusal cases[] = {
		{ "probability 0",
		  "dev fault add: probability 0 is 0: it would never happen "
		  "(0.0001% is the least)" },
		{ "probability 100.1",
		  "dev fault add: probability 100.1 is above 100%" },
		{ "probability 1e3",
		  "dev fault add: probability \"1e3\" is not a percentage (a "
		  "decimal number, as 12.5 or 12.5%)" },
		{ "probability 12.5.1",
		  "dev fault add: probability \"12.5.1\" is not a percentage "
		  "(a decimal number, as 12.5 or 12.5%)" },
		{ "probability 0.00001",
		  "dev fault add: probability 0.00001 has more than 4 decimals "
		  "(it is counted in parts per million)" },
		{ "probability -3",
		  "dev fault add: probability -3 is negative" },
		{ "probability", "dev fault add: probability needs a value" },
	};
	uint32_t ppm = 7;
	size_t i;

	(void)state;
	assert_int_equal(parse_percent("probability 12.5%", &ppm), OPT_OK);
	assert_int_equal(ppm, 125000);
	assert_int_equal(parse_percent("prob 0.0001", &ppm), OPT_OK);
	assert_int_equal(ppm, 1);
	log_to_stderr();
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ppm = 7;
		print_message("%s\n", cases[i].line);
		assert_int_equal(parse_percent(cases[i].line, &ppm), OPT_ERROR);
		assert_string_equal(log_last_error(), cases[i].message);
		assert_int_equal(ppm, 7);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(times_accepted),
		cmocka_unit_test(times_refused),
		cmocka_unit_test(percentages),
	};

	return cmocka_run_group_tests_name("opt", tests, NULL, NULL);
}
