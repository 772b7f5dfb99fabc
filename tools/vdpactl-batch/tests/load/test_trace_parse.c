// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The module's trace lines as tracefs prints them, the per-device tally
 * of a whole trace file, and the mean/p50/p99 of its samples.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "load/trace_parse.h"

static void parses_each_event(void **state)
{
	struct trace_event ev;

	(void)state;
	assert_int_equal(trace_parse_line("  vdpactl-batch-231     [001] ..... "
					  "  42.000100: vsb_cvq_kick: dev=b0\n",
					  &ev),
			 0);
	assert_int_equal(ev.id, TRACE_EV_KICK);
	assert_string_equal(ev.dev, "b0");

	assert_int_equal(trace_parse_line(" kworker/u5:0-77 [000] d..1.  "
					  "42.000200: vsb_cvq_cmd: dev=batch0 "
					  "head=62 class=1 cmd=1 ack=0 "
					  "bytes=9 ns=18446744073709551615\n",
					  &ev),
			 0);
	assert_int_equal(ev.id, TRACE_EV_CMD);
	assert_string_equal(ev.dev, "batch0");
	assert_int_equal(ev.head, 62);
	assert_int_equal(ev.class, 1);
	assert_int_equal(ev.cmd, 1);
	assert_int_equal(ev.ack, 0);
	assert_int_equal(ev.bytes, 9);
	assert_int_equal(ev.ns, UINT64_MAX);

	assert_int_equal(trace_parse_line("w-1 [000] ..... 1.0: vsb_cvq_batch: "
					  "dev=b0 cmds=32 notified=1 ns=900 "
					  "kick_ns=1500",
					  &ev),
			 0);
	assert_int_equal(ev.id, TRACE_EV_BATCH);
	assert_int_equal(ev.cmds, 32);
	assert_int_equal(ev.notified, 1);
	assert_int_equal(ev.ns, 900);
	assert_int_equal(ev.kick_ns, 1500);

	assert_int_equal(
		trace_parse_line("w-1 [000] ..... 1.0: vsb_needs_reset:"
				 " dev=b0 queue=2 reason=descriptor "
				 "loop\n",
				 &ev),
		0);
	assert_int_equal(ev.id, TRACE_EV_NEEDS_RESET);
	assert_int_equal(ev.queue, 2);
	assert_string_equal(ev.reason, "descriptor loop");
}

static void rejects_what_is_not_ours(void **state)
{
	struct trace_event ev;

	(void)state;
	assert_int_equal(trace_parse_line("# tracer: nop\n", &ev), -ENOENT);
	assert_int_equal(trace_parse_line("w-1 [000] . 1.0: sched_switch: "
					  "prev_comm=a\n",
					  &ev),
			 -ENOENT);
	/* A longer name that starts like ours. */
	assert_int_equal(trace_parse_line("w-1 [000] . 1.0: vsb_cvq_cmdx: "
					  "dev=b0\n",
					  &ev),
			 -ENOENT);
	/* Ours, but damaged: a field missing, a number that is not one. */
	assert_int_equal(
		trace_parse_line("w-1 [000] . 1.0: vsb_cvq_cmd: dev=b0 "
				 "head=1 class=1 cmd=1 ack=0 ns=5\n",
				 &ev),
		-EBADMSG);
	assert_int_equal(trace_parse_line("w-1 [000] . 1.0: vsb_cvq_batch: "
					  "dev=b0 cmds=x notified=0 ns=1 "
					  "kick_ns=2\n",
					  &ev),
			 -EBADMSG);
	assert_int_equal(trace_parse_line("w-1 [000] . 1.0: vsb_cvq_kick: "
					  "dev=\n",
					  &ev),
			 -EBADMSG);
	/* "ns" must not be found inside "kick_ns". */
	assert_int_equal(
		trace_parse_line("w-1 [000] . 1.0: vsb_cvq_batch: "
				 "dev=b0 cmds=1 notified=0 kick_ns=2\n",
				 &ev),
		-EBADMSG);
}

static void tallies_one_device(void **state)
{
	static const char *const lines[] = {
		"# entries-in-buffer/entries-written: 9/12   #P:2\n",
		"#                                _-----=> irqs-off/BH-disabled\n",
		"t-1 [001] ..... 1.0: vsb_cvq_kick: dev=b0\n",
		"t-1 [001] ..... 1.0: vsb_cvq_kick: dev=b1\n",
		"k-2 [000] ..... 1.1: vsb_cvq_cmd: dev=b0 head=0 class=1 cmd=1 "
		"ack=0 bytes=8 ns=100\n",
		"k-2 [000] ..... 1.1: vsb_cvq_cmd: dev=b0 head=2 class=1 cmd=1 "
		"ack=255 bytes=1 ns=300\n",
		"k-2 [000] ..... 1.1: vsb_cvq_cmd: dev=b1 head=0 class=1 cmd=1 "
		"ack=0 bytes=8 ns=999999\n",
		"k-2 [000] ..... 1.2: vsb_cvq_batch: dev=b0 cmds=2 notified=1 "
		"ns=500 kick_ns=700\n",
		"k-2 [000] ..... 1.2: vsb_cvq_batch: dev=b0 cmds=2 notified=0 "
		"ns=500 kick_ns\n",
		"k-2 [000] ..... 1.3: vsb_needs_reset: dev=b0 queue=2 reason=x\n",
	};
	struct trace_summary s;
	struct trace_tally t;
	unsigned int i;

	(void)state;
	trace_tally_init(&t, "b0");
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(trace_tally_line(&t, lines[i]), 0);
	assert_int_equal(t.kicks, 1);
	assert_int_equal(t.commands, 2);
	assert_int_equal(t.no_ack, 1);
	assert_int_equal(t.batches, 1);
	assert_int_equal(t.notified, 1);
	assert_int_equal(t.needs_reset, 1);
	assert_int_equal(t.malformed, 1);
	assert_int_equal(t.lost, 3);
	assert_int_equal(trace_summarize(&t.cmd_ns, &s), 0);
	assert_int_equal(s.n, 2);
	assert_true(s.mean == 200.0);
	assert_true(s.p50 == 200.0);
	assert_true(s.p99 == 300.0);
	assert_int_equal(trace_summarize(&t.kick_ns, &s), 0);
	assert_true(s.p50 == 700.0);
	trace_tally_free(&t);
	assert_int_equal(trace_summarize(&t.kick_ns, &s), -EINVAL);
}

static void percentiles(void **state)
{
	uint64_t v[200];
	struct sample_list l = { .v = v };
	struct trace_summary s;
	unsigned int i;

	(void)state;
	/* 1..100 in reverse: p50 averages the middle two, p99 is rank 99. */
	for (i = 0; i < 100; i++)
		v[i] = 100 - i;
	l.n = 100;
	assert_int_equal(trace_summarize(&l, &s), 0);
	assert_true(s.mean == 50.5);
	assert_true(s.p50 == 50.5);
	assert_true(s.p99 == 99.0);
	/* 101 samples: the median is one; p99 is rank ceil(99.99) = 100. */
	v[100] = 1000;
	l.n = 101;
	assert_int_equal(trace_summarize(&l, &s), 0);
	assert_true(s.p50 == 51.0);
	assert_true(s.p99 == 100.0);
	/* One sample is every percentile. */
	l.n = 1;
	assert_int_equal(trace_summarize(&l, &s), 0);
	assert_true(s.p50 == 100.0 && s.p99 == 100.0 && s.mean == 100.0);
	l.n = 0;
	assert_int_equal(trace_summarize(&l, &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_each_event),
		cmocka_unit_test(rejects_what_is_not_ours),
		cmocka_unit_test(tallies_one_device),
		cmocka_unit_test(percentiles),
	};

	return cmocka_run_group_tests_name("trace_parse", tests, NULL, NULL);
}
