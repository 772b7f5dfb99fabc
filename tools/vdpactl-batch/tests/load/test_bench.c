// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The measurement engine over fake sessions: the order of the loads
 * (targets rotating, modes flipping), the warm-up (untimed, uncounted),
 * a failure mid-round (whole rounds kept), the counters' and vendor
 * counters' deltas, the speed-up's spread on known times, and a plan hook
 * whose commands are the only ones sent.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "load/bench.h"

#define FAKES 3
#define CALLS_MAX 256
#define COUNT 4

/* cmocka's float check rounds to float; these figures are doubles. */
#define assert_near(a, b, eps) \
	assert_true((a) - (b) < (eps) && (b) - (a) < (eps))

struct fake_call {
	unsigned int target;
	enum load_mode mode;
	int mark;
	unsigned int n;
	unsigned int order[COUNT]; /* what was sent, by plan index */
};

struct fake_session {
	unsigned int id;
	int mark;
	unsigned int loads[BENCH_MODES_MAX]; /* per mode, warm-ups included */
	struct load_counters counters;
	uint64_t requests; /* the vendor counter "cvq requests" */
};

/* One world per test; the engine reaches it through the sessions. */
static struct fake_world {
	struct fake_session s[FAKES];
	struct fake_call calls[CALLS_MAX];
	unsigned int n_calls;
	unsigned int fail_at; /* that call (1-based) fails; 0: none */
	unsigned int stop_at; /* a signal comes during that call */
	volatile sig_atomic_t stop;
	/* times[target][mode][k] of the k-th load; 0: 1000 ns */
	uint64_t times[FAKES][BENCH_MODES_MAX][8];
	unsigned int vstats_reads;
	int vstats_err;
	/* The plan hook's answer per load, and what it handed out. */
	unsigned int plan_n[8];
	unsigned int plans;
	unsigned int plan_order[COUNT];
} w;

static int fake_run(void *session, enum load_mode mode,
		    const unsigned int *order, unsigned int n,
		    uint64_t *elapsed_ns)
{
	struct fake_session *s = session;
	struct fake_call *c = &w.calls[w.n_calls++];
	unsigned int i, k = s->loads[mode]++;
	uint64_t ns = w.times[s->id][mode][k % 8];

	assert_true(w.n_calls <= CALLS_MAX);
	*c = (struct fake_call){
		.target = s->id, .mode = mode, .mark = s->mark, .n = n
	};
	for (i = 0; i < n && i < COUNT; i++)
		c->order[i] = order ? order[i] : i;
	if (w.n_calls == w.stop_at)
		w.stop = SIGINT;
	if (w.n_calls == w.fail_at) {
		/* A failed load may have sent some commands: not counted. */
		s->counters.commands += 1;
		s->requests += 1;
		return -EIO;
	}
	*elapsed_ns = ns ? ns : 1000;
	s->counters.loads++;
	s->counters.commands += n;
	s->counters.batches += 1;
	s->counters.kicks += 2 * n;
	s->counters.cmds_ns += *elapsed_ns / 2;
	s->requests += n;
	return 0;
}

static const struct load_counters *fake_counters(const void *session)
{
	return &((const struct fake_session *)session)->counters;
}

static void fake_set_mark(void *session, int slot)
{
	((struct fake_session *)session)->mark = slot;
}

static const struct bench_session_ops fake_ops = {
	.run = fake_run,
	.counters = fake_counters,
	.set_mark = fake_set_mark,
};

static int fake_vstats(void *arg, unsigned int target,
		       struct vdpa_vstats *stats)
{
	struct bench *b = *(struct bench **)arg;
	struct fake_session *s = b->targets[target].session;

	w.vstats_reads++;
	if (w.vstats_err)
		return w.vstats_err;
	*stats = (struct vdpa_vstats){ .queue_index = 2, .n = 1 };
	snprintf(stats->entries[0].name, sizeof(stats->entries[0].name),
		 "cvq requests");
	stats->entries[0].value = s->requests;
	return 0;
}

/* Sends plan_n[k] commands of load k: the last ones, last first. */
static unsigned int fake_plan(void *arg, unsigned int target,
			      const unsigned int **order)
{
	unsigned int i, n = w.plan_n[w.plans++ % 8];

	(void)arg;
	(void)target;
	for (i = 0; i < n; i++)
		w.plan_order[i] = COUNT - 1 - i;
	*order = w.plan_order;
	return n;
}

static const struct load_info info = {
	.ring_size = 64,
	.mix = { { "MAC_ADDR_SET", COUNT } },
	.n_mix = 1,
};

static struct bench *b_for_hooks;

static struct bench *make(const struct bench_config *cfg, unsigned int n,
			  const struct bench_hooks *hooks)
{
	struct bench *b;
	unsigned int t;

	assert_int_equal(bench_create(&b, cfg, &fake_ops, hooks), 0);
	b_for_hooks = b;
	for (t = 0; t < n; t++) {
		char name[16];

		w.s[t].id = t;
		w.s[t].mark = -2; /* never set */
		snprintf(name, sizeof(name), "fake%u", t);
		assert_int_equal(bench_add_target(b, &w.s[t], name, &info), 0);
	}
	return b;
}

static const struct bench_hooks vstats_hooks = {
	.arg = &b_for_hooks,
	.read_vstats = fake_vstats,
};

static struct bench_config two_modes(unsigned int rounds)
{
	return (struct bench_config){
		.name = "test",
		.count = COUNT,
		.rounds = rounds,
		.modes = { LOAD_MODE_SERIAL, LOAD_MODE_PARALLEL },
		.n_modes = 2,
	};
}

static int reset(void **state)
{
	(void)state;
	memset(&w, 0, sizeof(w));
	return 0;
}

/*
 * Round r starts with target r mod 3, then the next ones; within a
 * target, serial then parallel in even rounds and the other way round in
 * odd ones. Over 6 rounds each target goes first twice.
 */
static void targets_rotate_modes_flip(void **state)
{
	struct bench_config cfg = two_modes(6);
	struct bench *b = make(&cfg, FAKES, NULL);
	unsigned int round, i, first[FAKES] = { 0 };

	(void)state;
	assert_int_equal(bench_run(b), 0);
	assert_int_equal(b->rounds_done, 6);
	assert_int_equal(w.n_calls, 6 * FAKES * 2);
	for (round = 0; round < 6; round++) {
		const struct fake_call *c = &w.calls[round * FAKES * 2];

		first[c->target]++;
		for (i = 0; i < FAKES * 2; i++) {
			unsigned int t = (round + i / 2) % FAKES;
			bool serial_first = round % 2 == 0;
			enum load_mode m = (i % 2 == 0) == serial_first ?
						   LOAD_MODE_SERIAL :
						   LOAD_MODE_PARALLEL;

			assert_int_equal(c[i].target, t);
			assert_int_equal(c[i].mode, m);
		}
	}
	for (i = 0; i < FAKES; i++)
		assert_int_equal(first[i], 2);
	for (i = 0; i < b->n_runs; i++)
		assert_int_equal(b->runs[i].n, 6);
	bench_destroy(b);
}

/*
 * A caller that runs one round at a time (scripts/guest/bench.sh, one
 * compare per repetition) passes the round's index as first_round: rounds
 * 0..ROUNDS-1 so taken visit the targets and modes in the order one run
 * of ROUNDS rounds does; without it every one would start with target 0,
 * serial first.
 */
static void first_round_continues_the_rotation(void **state)
{
	enum { ROUNDS = 5, PER_ROUND = FAKES * 2 };
	struct fake_call whole[ROUNDS * PER_ROUND];
	struct bench_config cfg = two_modes(ROUNDS);
	struct bench *b = make(&cfg, FAKES, NULL);
	unsigned int r, i, firsts = 0;

	(void)state;
	assert_int_equal(bench_run(b), 0);
	bench_destroy(b);
	assert_int_equal(w.n_calls, ROUNDS * PER_ROUND);
	memcpy(whole, w.calls, sizeof(whole));

	for (r = 0; r < ROUNDS; r++) {
		memset(&w, 0, sizeof(w));
		cfg = two_modes(1);
		cfg.first_round = r;
		b = make(&cfg, FAKES, NULL);
		assert_int_equal(bench_run(b), 0);
		assert_int_equal(b->rounds_done, 1);
		assert_int_equal(w.n_calls, PER_ROUND);
		for (i = 0; i < PER_ROUND; i++) {
			const struct fake_call *want =
				&whole[r * PER_ROUND + i];

			if (w.calls[i].target != want->target ||
			    w.calls[i].mode != want->mode)
				fail_msg(
					"first_round %u, load %u: target %u mode %d, want target %u mode %d",
					r, i, w.calls[i].target,
					w.calls[i].mode, want->target,
					want->mode);
		}
		firsts |= 1U << w.calls[0].target;
		bench_destroy(b);
	}
	/* Every target went first at least once. */
	assert_int_equal(firsts, (1U << FAKES) - 1);

	/* Far into the rotation, no wrap: the order of round 2^32 + 1. */
	memset(&w, 0, sizeof(w));
	cfg = two_modes(2);
	cfg.first_round = UINT32_MAX;
	b = make(&cfg, FAKES, NULL);
	assert_int_equal(bench_run(b), 0);
	/* UINT32_MAX = 3 * 1431655765: target 0 first, odd: parallel first. */
	assert_int_equal(w.calls[0].target, 0);
	assert_int_equal(w.calls[0].mode, LOAD_MODE_PARALLEL);
	/* The next round, 2^32: target 1 first, even: serial first. */
	assert_int_equal(w.calls[PER_ROUND].target, 1);
	assert_int_equal(w.calls[PER_ROUND].mode, LOAD_MODE_SERIAL);
	bench_destroy(b);
}

/*
 * One warm-up per run, before any timed load, unmarked; no sample, no
 * counter and no vendor counter of it; the timed loads carry their run's
 * marker slot.
 */
static void warm_up_is_untimed_and_uncounted(void **state)
{
	struct bench_config cfg = two_modes(3);
	struct bench *b;
	unsigned int i;

	(void)state;
	cfg.warm_up = true;
	cfg.marks = true;
	/* The warm-up loads are slow: no sample may show it. */
	for (i = 0; i < 2; i++) {
		w.times[i][LOAD_MODE_SERIAL][0] = 1000000;
		w.times[i][LOAD_MODE_PARALLEL][0] = 1000000;
	}
	b = make(&cfg, 2, &vstats_hooks);
	assert_int_equal(bench_run(b), 0);
	assert_int_equal(w.n_calls, 4 + 3 * 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(w.calls[i].mark, -1);
		assert_int_equal(w.calls[i].target, i / 2);
		assert_int_equal(w.calls[i].mode,
				 i % 2 ? LOAD_MODE_PARALLEL : LOAD_MODE_SERIAL);
	}
	for (i = 4; i < w.n_calls; i++) {
		const struct fake_call *c = &w.calls[i];

		assert_int_equal(c->mark, (int)(c->target * 2 + c->mode));
	}
	assert_int_equal(bench_summarize(b, 0), 0);
	for (i = 0; i < b->n_runs; i++) {
		const struct bench_run *run = &b->runs[i];

		assert_int_equal(run->n, 3);
		assert_true(run->per_load_ns.max == 1000);
		assert_int_equal(run->total.counters.loads, 3);
		assert_int_equal(run->total.counters.commands, 3 * COUNT);
		assert_int_equal(run->total.vstats.n, 1);
		assert_int_equal(run->total.vstats.entries[0].value, 3 * COUNT);
	}
	bench_destroy(b);
}

/*
 * The 10th load fails: the second of round 2 (rounds 0 and 1 hold 4).
 * Rounds 0 and 1 stay whole; the first load of round 2 leaves no sample,
 * counter or vendor counter, nor does the failed load.
 */
static void failure_keeps_whole_rounds(void **state)
{
	struct bench_config cfg = two_modes(5);
	struct bench *b;
	unsigned int i;

	(void)state;
	w.fail_at = 10;
	b = make(&cfg, 2, &vstats_hooks);
	assert_int_equal(bench_run(b), -EIO);
	assert_int_equal(b->rounds_done, 2);
	assert_int_equal(bench_summarize(b, 0), 0);
	for (i = 0; i < b->n_runs; i++) {
		const struct bench_run *run = &b->runs[i];

		assert_int_equal(run->n, 2);
		assert_int_equal(run->per_load_ns.n, 2);
		assert_int_equal(run->total.counters.loads, 2);
		assert_int_equal(run->total.counters.commands, 2 * COUNT);
		assert_int_equal(run->total.vstats.entries[0].value, 2 * COUNT);
		assert_true(run->has_spread);
	}
	bench_destroy(b);
}

/*
 * A signal during a load: that load ends, no other starts, and the
 * engine says -EINTR with the whole rounds before it kept, as after a
 * failure; the round it cut short counts for nothing.
 */
static void stop_ends_after_the_load_in_progress(void **state)
{
	struct bench_config cfg = two_modes(5);
	struct bench *b;
	unsigned int i;

	(void)state;
	w.stop_at = 10; /* 2 targets x 2 modes: the 2nd load of round 3 */
	cfg.stop = &w.stop;
	b = make(&cfg, 2, &vstats_hooks);
	assert_int_equal(bench_run(b), -EINTR);
	assert_int_equal(w.n_calls, 10);
	assert_int_equal(b->rounds_done, 2);
	for (i = 0; i < b->n_runs; i++)
		assert_int_equal(b->runs[i].n, 2);
	bench_destroy(b);

	/* Before the first round: nothing measured, the warm-up cut. */
	memset(&w, 0, sizeof(w));
	cfg = two_modes(5);
	cfg.warm_up = true;
	w.stop_at = 1;
	cfg.stop = &w.stop;
	b = make(&cfg, 2, &vstats_hooks);
	assert_int_equal(bench_run(b), -EINTR);
	assert_int_equal(w.n_calls, 1);
	assert_int_equal(b->rounds_done, 0);
	bench_destroy(b);
}

/*
 * A turn of 3: each run loads 3 times in a row before the next run's
 * turn; every load is a sample, counted once; a failure in the middle of
 * a turn drops its whole round, and the speed-up pairs the k-th load of
 * each turn.
 */
static void turns_run_back_to_back(void **state)
{
	struct bench_config cfg = two_modes(2);
	struct bench *b;
	unsigned int i;

	(void)state;
	cfg.turn = 3;
	/* Round 0 whole (12 loads), round 1 fails at its 8th load. */
	w.fail_at = 12 + 8;
	b = make(&cfg, 2, &vstats_hooks);
	assert_int_equal(bench_run(b), -EIO);
	assert_int_equal(b->rounds_done, 1);
	for (i = 0; i < 12; i++) {
		/* Target 0 serial x3, parallel x3, then target 1. */
		assert_int_equal(w.calls[i].target, i / 6);
		assert_int_equal(w.calls[i].mode, i % 6 < 3 ?
							  LOAD_MODE_SERIAL :
							  LOAD_MODE_PARALLEL);
	}
	/* Round 1 starts with target 1, parallel first. */
	assert_int_equal(w.calls[12].target, 1);
	assert_int_equal(w.calls[12].mode, LOAD_MODE_PARALLEL);
	assert_int_equal(bench_summarize(b, 0), 0);
	for (i = 0; i < b->n_runs; i++) {
		const struct bench_run *run = &b->runs[i];

		assert_int_equal(run->n, 3);
		assert_int_equal(run->total.counters.loads, 3);
		assert_int_equal(run->total.vstats.entries[0].value, 3 * COUNT);
		assert_true(run->has_spread);
		assert_int_equal(run->speedup_spread.n, 3);
	}
	bench_destroy(b);
}

/* Each counter's growth per run; the commands' time per load too. */
static void counters_deltas(void **state)
{
	struct bench_config cfg = two_modes(4);
	struct bench *b;
	unsigned int i, k;

	(void)state;
	cfg.cmds_times = true;
	for (k = 0; k < 4; k++) {
		w.times[0][LOAD_MODE_SERIAL][k] = 2000 + 200 * k;
		w.times[0][LOAD_MODE_PARALLEL][k] = 1000;
	}
	/* The session's counters do not start at 0. */
	w.s[0].counters = (struct load_counters){
		.loads = 7, .commands = 70, .kicks = 5, .cmds_ns = 9
	};
	b = make(&cfg, 1, NULL);
	assert_int_equal(bench_run(b), 0);
	assert_int_equal(bench_summarize(b, -1), 0);
	for (i = 0; i < 2; i++) {
		const struct load_counters *n = &b->runs[i].total.counters;

		assert_int_equal(n->loads, 4);
		assert_int_equal(n->commands, 4 * COUNT);
		assert_int_equal(n->batches, 4);
		assert_int_equal(n->kicks, 8 * COUNT);
	}
	assert_int_equal(b->runs[0].total.counters.cmds_ns,
			 (2000 + 2200 + 2400 + 2600) / 2);
	for (k = 0; k < 4; k++)
		assert_int_equal(b->runs[0].cmds_ns[k], (2000 + 200 * k) / 2);
	assert_true(b->runs[0].per_load_cmds_ns.median == 1150);
	/* Every load sent the whole plan: per command, over the count. */
	assert_true(b->runs[0].per_command_ns.median == 2300.0 / COUNT);
	assert_true(b->runs[0].per_load_ns.total == 9200);
	bench_destroy(b);
}

/*
 * Known times, round by round: the reference fake0 serial takes 100 ns
 * each round, fake1 serial 50, 100, 200, 80 (ratios 2, 1, 0.5, 1.25) and
 * fake1 parallel 40, 50, 45, 50 (2.5, 2, 2.22, 2).
 */
static void speedup_spread_on_known_data(void **state)
{
	static const uint64_t serial[] = { 50, 100, 200, 80 };
	static const uint64_t parallel[] = { 40, 50, 45, 50 };
	struct bench_config cfg = two_modes(4);
	const struct bench_run *run;
	struct bench *b;
	unsigned int k;

	(void)state;
	for (k = 0; k < 4; k++) {
		w.times[0][LOAD_MODE_SERIAL][k] = 100;
		w.times[0][LOAD_MODE_PARALLEL][k] = 100;
		w.times[1][LOAD_MODE_SERIAL][k] = serial[k];
		w.times[1][LOAD_MODE_PARALLEL][k] = parallel[k];
	}
	b = make(&cfg, 2, NULL);
	assert_int_equal(bench_run(b), 0);
	assert_int_equal(bench_summarize(b, 0), 0);

	run = &b->runs[0]; /* against itself */
	assert_true(run->has_spread && run->within_noise);
	assert_true(run->speedup == 1 && run->speedup_spread.q1 == 1 &&
		    run->speedup_spread.q3 == 1);

	run = &b->runs[2];
	/* The medians' ratio, 100 / 90, stays what it was. */
	assert_near(run->speedup, 100.0 / 90, 1e-9);
	assert_true(run->has_spread);
	assert_near(run->speedup_spread.min, 0.5, 1e-9);
	assert_near(run->speedup_spread.q1, 0.875, 1e-9);
	assert_near(run->speedup_spread.median, 1.125, 1e-9);
	assert_near(run->speedup_spread.q3, 1.4375, 1e-9);
	assert_near(run->speedup_spread.max, 2, 1e-9);
	assert_true(run->within_noise);

	run = &b->runs[3];
	assert_near(run->speedup_spread.q1, 2, 1e-9);
	assert_near(run->speedup_spread.q3,
		    100.0 / 45 + 0.25 * (2.5 - 100.0 / 45), 1e-9);
	assert_false(run->within_noise);

	/* Quartiles of the load times themselves, as the median's. */
	assert_near(b->runs[2].per_load_ns.q1, 72.5, 1e-9);
	assert_near(b->runs[2].per_load_ns.q3, 125, 1e-9);
	bench_destroy(b);
}

/*
 * The plan hook decides each load: only its commands are sent, in its
 * order; a load it empties is neither run nor timed, and then no
 * speed-up spread pairs rounds. Per command divides each load by what
 * it sent.
 */
static void plan_hook_sends_only_planned(void **state)
{
	struct bench_config cfg = {
		.name = "test",
		.count = COUNT,
		.rounds = 4,
		.modes = { LOAD_MODE_SERIAL },
		.n_modes = 1,
	};
	const struct bench_hooks hooks = {
		.arg = &b_for_hooks,
		.read_vstats = fake_vstats,
		.plan = fake_plan,
	};
	const struct bench_run *run;
	struct bench *b;

	(void)state;
	w.plan_n[0] = 3;
	w.plan_n[1] = 0;
	w.plan_n[2] = 1;
	w.plan_n[3] = 2;
	w.times[0][LOAD_MODE_SERIAL][0] = 300;
	w.times[0][LOAD_MODE_SERIAL][1] = 100;
	w.times[0][LOAD_MODE_SERIAL][2] = 400;
	b = make(&cfg, 1, &hooks);
	assert_int_equal(bench_run(b), 0);
	assert_int_equal(w.plans, 4);
	assert_int_equal(w.n_calls, 3);
	assert_int_equal(w.calls[0].n, 3);
	assert_int_equal(w.calls[0].order[0], 3);
	assert_int_equal(w.calls[0].order[2], 1);
	assert_int_equal(w.calls[1].n, 1);
	assert_int_equal(w.calls[1].order[0], 3);
	assert_int_equal(w.calls[2].n, 2);
	assert_int_equal(b->rounds_done, 4);

	assert_int_equal(bench_summarize(b, 0), 0);
	run = &b->runs[0];
	assert_int_equal(run->n, 3);
	assert_int_equal(run->total.counters.commands, 6);
	/* One run per target: the vendor counters before and after only. */
	assert_int_equal(w.vstats_reads, 2);
	assert_int_equal(run->total.vstats.entries[0].value, 6);
	assert_int_equal(b->targets[0].first.entries[0].value, 0);
	assert_int_equal(b->targets[0].last.entries[0].value, 6);
	/* 300/3, 100/1, 400/2 ns per command. */
	assert_true(run->per_command_ns.min == 100);
	assert_true(run->per_command_ns.median == 100);
	assert_true(run->per_command_ns.max == 200);
	assert_false(run->has_spread);
	bench_destroy(b);

	/* A warm-up would send what the plan never saw. */
	cfg.warm_up = true;
	assert_int_equal(bench_create(&b, &cfg, &fake_ops, &hooks), -EINVAL);
	assert_null(b);
}

/* A device without vendor counters is asked once, and its error kept. */
static void vstats_missing_is_noted(void **state)
{
	struct bench_config cfg = two_modes(3);
	struct bench *b;

	(void)state;
	w.vstats_err = -EOPNOTSUPP;
	b = make(&cfg, 2, &vstats_hooks);
	assert_int_equal(bench_run(b), 0);
	assert_int_equal(w.vstats_reads, 2);
	assert_false(b->targets[0].has_vstats);
	assert_int_equal(b->targets[1].vstats_err, -EOPNOTSUPP);
	assert_int_equal(b->runs[1].total.vstats.n, 0);
	bench_destroy(b);
}

/* Like with like: a different ring or command mix is refused. */
/*
 * The samples file: every timed load once, by run and round, in the
 * engine's own times, with the commands' part when kept; warm-ups are
 * not samples.
 */
static void samples_are_every_timed_load(void **state)
{
	struct bench_config cfg = two_modes(2);
	unsigned int lines;
	char *buf = NULL, *p;
	size_t len = 0;
	struct bench *b;
	FILE *f;

	(void)state;
	cfg.warm_up = true;
	cfg.cmds_times = true;
	/* Each target's first load per mode is the warm-up. */
	w.times[1][LOAD_MODE_SERIAL][1] = 700;
	w.times[1][LOAD_MODE_SERIAL][2] = 900;
	b = make(&cfg, 2, NULL);
	assert_int_equal(bench_run(b), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(bench_write_samples(b, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "fake1/serial 0 700 4\n"));
	assert_non_null(strstr(buf, "fake1/serial 1 900 4\n"));
	assert_non_null(strstr(buf, "fake0/parallel 1 1000 4\n"));
	assert_non_null(strstr(buf, "fake1/serial/cmds 1 "));
	assert_null(strstr(buf, " 2 1000 4"));
	/* A comment, then 2 targets x 2 modes x 2 rounds, twice each. */
	for (lines = 0, p = buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 1 + 2 * 2 * 2 * 2);
	free(buf);
	bench_destroy(b);
}

static void unlike_targets_are_refused(void **state)
{
	struct bench_config cfg = two_modes(1);
	struct load_info other = info;
	struct bench *b;

	(void)state;
	b = make(&cfg, 2, NULL);
	assert_int_equal(bench_check_alike(b), 0);
	other.ring_size = 128;
	b->targets[1].info = &other;
	assert_int_equal(bench_check_alike(b), -EINVAL);
	other = info;
	other.mix[0].count = 1;
	assert_int_equal(bench_check_alike(b), -EINVAL);
	bench_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(targets_rotate_modes_flip, reset),
		cmocka_unit_test_setup(first_round_continues_the_rotation,
				       reset),
		cmocka_unit_test_setup(warm_up_is_untimed_and_uncounted, reset),
		cmocka_unit_test_setup(failure_keeps_whole_rounds, reset),
		cmocka_unit_test_setup(stop_ends_after_the_load_in_progress,
				       reset),
		cmocka_unit_test_setup(counters_deltas, reset),
		cmocka_unit_test_setup(speedup_spread_on_known_data, reset),
		cmocka_unit_test_setup(plan_hook_sends_only_planned, reset),
		cmocka_unit_test_setup(vstats_missing_is_noted, reset),
		cmocka_unit_test_setup(unlike_targets_are_refused, reset),
		cmocka_unit_test_setup(samples_are_every_timed_load, reset),
		cmocka_unit_test_setup(turns_run_back_to_back, reset),
	};

	return cmocka_run_group_tests_name("bench", tests, NULL, NULL);
}
