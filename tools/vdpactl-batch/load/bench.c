// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The measurement engine: rounds, warm-up, samples, tallies, summaries.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "load/bench.h"
#include "load/turns.h"

int bench_create(struct bench **bp, const struct bench_config *cfg,
		 const struct bench_session_ops *ops,
		 const struct bench_hooks *hooks)
{
	struct bench *b;
	int err;

	*bp = NULL;
	if (!cfg->n_modes || cfg->n_modes > BENCH_MODES_MAX || !cfg->rounds ||
	    (uint64_t)cfg->rounds * (cfg->turn ? cfg->turn : 1) > UINT32_MAX ||
	    (cfg->warm_up && hooks && hooks->plan)) {
		pr_err("%s: no measurement of that shape", cfg->name);
		return -EINVAL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return pr_errno(ENOMEM, "%s", cfg->name);
	b->cfg = *cfg;
	if (!b->cfg.turn)
		b->cfg.turn = 1;
	b->ops = *ops;
	if (hooks)
		b->hooks = *hooks;
	if (cfg->cpu) {
		const char *proc = cfg->proc ? cfg->proc : "/proc";

		err = kthread_cpu_init(&b->kthreads, proc);
		if (err) {
			free(b);
			return pr_errno(-err, "%s: %s", cfg->name, proc);
		}
	}
	*bp = b;
	return 0;
}

static int alloc_samples(struct bench *b, struct bench_run *run)
{
	unsigned int rounds = b->cfg.rounds * b->cfg.turn;

	run->ns = calloc(rounds, sizeof(*run->ns));
	if (b->cfg.cmds_times)
		run->cmds_ns = calloc(rounds, sizeof(*run->cmds_ns));
	if (b->hooks.plan)
		run->sent = calloc(rounds, sizeof(*run->sent));
	if (!run->ns || (b->cfg.cmds_times && !run->cmds_ns) ||
	    (b->hooks.plan && !run->sent))
		return pr_errno(ENOMEM, "%s: timings", b->cfg.name);
	return 0;
}

int bench_add_target(struct bench *b, void *session, const char *name,
		     const struct load_info *info)
{
	struct bench_target *t;
	unsigned int m;
	int err;

	if (b->n_targets == BENCH_TARGETS_MAX) {
		pr_err("%s: more than %u devices", b->cfg.name,
		       BENCH_TARGETS_MAX);
		return -E2BIG;
	}
	t = &b->targets[b->n_targets];
	*t = (struct bench_target){ .session = session, .info = info };
	snprintf(t->name, sizeof(t->name), "%s", name);
	for (m = 0; m < b->cfg.n_modes; m++) {
		struct bench_run *run = &b->runs[b->n_runs++];

		run->target = b->n_targets;
		run->mode = b->cfg.modes[m];
		err = alloc_samples(b, run);
		if (err)
			return err;
	}
	b->n_targets++;
	return 0;
}

static bool same_mix(const struct load_info *a, const struct load_info *b)
{
	unsigned int i;

	if (a->n_mix != b->n_mix)
		return false;
	for (i = 0; i < a->n_mix; i++)
		if (strcmp(a->mix[i].name, b->mix[i].name) ||
		    a->mix[i].count != b->mix[i].count)
			return false;
	return true;
}

int bench_check_alike(const struct bench *b)
{
	const struct load_info *a = b->targets[0].info;
	const char *first = b->targets[0].name, *cmd = b->cfg.name;
	unsigned int t;

	for (t = 1; t < b->n_targets; t++) {
		const struct load_info *o = b->targets[t].info;
		const char *name = b->targets[t].name;

		if (a->ring_size != o->ring_size) {
			pr_err("%s: %s has a %u-entry ring, %s %u: give --ring-size",
			       cmd, first, a->ring_size, name, o->ring_size);
			return -EINVAL;
		}
		if (a->driver_features != o->driver_features) {
			pr_err("%s: %s negotiated features 0x%" PRIx64
			       ", %s 0x%" PRIx64,
			       cmd, first, a->driver_features, name,
			       o->driver_features);
			return -EINVAL;
		}
		if (!same_mix(a, o)) {
			pr_err("%s: %s and %s would send different commands (\"load\" on each lists them)",
			       cmd, first, name);
			return -EINVAL;
		}
	}
	return 0;
}

/* NULL only when @s is full. */
static struct vdpa_vstat *find_or_add_stat(struct vdpa_vstats *s,
					   const char *name)
{
	struct vdpa_vstat *e;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->entries[i].name, name))
			return &s->entries[i];
	if (s->n == VDPA_VSTATS_MAX)
		return NULL;
	e = &s->entries[s->n++];
	*e = (struct vdpa_vstat){ .value = 0 };
	snprintf(e->name, sizeof(e->name), "%s", name);
	return e;
}

static uint64_t stat_value(const struct vdpa_vstats *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->entries[i].name, name))
			return s->entries[i].value;
	return 0;
}

/*
 * Adds after - before to @acc, counter by counter (by name) of @after; a
 * counter missing before counts from 0.
 */
static void vstats_add_delta(struct vdpa_vstats *acc,
			     const struct vdpa_vstats *before,
			     const struct vdpa_vstats *after)
{
	unsigned int i;

	acc->queue_index = after->queue_index;
	for (i = 0; i < after->n; i++) {
		const struct vdpa_vstat *now = &after->entries[i];
		struct vdpa_vstat *sum = find_or_add_stat(acc, now->name);

		if (sum)
			sum->value +=
				now->value - stat_value(before, now->name);
	}
}

static void add_counters(struct load_counters *sum,
			 const struct load_counters *before,
			 const struct load_counters *after)
{
	sum->loads += after->loads - before->loads;
	sum->commands += after->commands - before->commands;
	sum->batches += after->batches - before->batches;
	sum->kicks += after->kicks - before->kicks;
	sum->sleeps += after->sleeps - before->sleeps;
	sum->cold_starts += after->cold_starts - before->cold_starts;
	sum->cmds_ns += after->cmds_ns - before->cmds_ns;
}

static const struct load_counters no_counters;

static void add_tally(struct bench_tally *sum, const struct bench_tally *t)
{
	static const struct vdpa_vstats none;

	add_counters(&sum->counters, &no_counters, &t->counters);
	if (t->vstats.n)
		vstats_add_delta(&sum->vstats, &none, &t->vstats);
	sum->client_cpu_ns += t->client_cpu_ns;
	sum->kthread_cpu_ns += t->kthread_cpu_ns;
}

/* A cheap reset: the vendor counters' entries past n are never read. */
static void clear_tally(struct bench_tally *t)
{
	t->counters = no_counters;
	t->vstats.n = 0;
	t->client_cpu_ns = 0;
	t->kthread_cpu_ns = 0;
}

/*
 * Reads a target's vendor counters into @now; false if it has none, which
 * is noted, and then it is not asked again.
 */
static bool read_vstats(struct bench *b, unsigned int t,
			struct vdpa_vstats *now)
{
	struct bench_target *tg = &b->targets[t];

	if (!b->hooks.read_vstats)
		return false;
	tg->vstats_err = b->hooks.read_vstats(b->hooks.arg, t, now);
	tg->has_vstats = !tg->vstats_err;
	return tg->has_vstats;
}

/* Adds the growth of a target's vendor counters since the last reading. */
static void vstats_since_last(struct bench *b, unsigned int t,
			      struct vdpa_vstats *acc)
{
	struct bench_target *tg = &b->targets[t];
	struct vdpa_vstats now;

	if (!tg->has_vstats || !read_vstats(b, t, &now))
		return;
	vstats_add_delta(acc, &tg->last, &now);
	tg->last = now;
}

/*
 * The kernel threads' snapshot before the process clock, and after it at
 * the end, so that reading /proc is charged to neither.
 */
static int cpu_start(struct bench *b, uint64_t *client_ns)
{
	uint64_t before_load;
	int err;

	err = kthread_cpu_sample(&b->kthreads, &before_load);
	if (!err)
		err = process_cpu_ns(client_ns);
	return err ? pr_errno(-err, "%s: CPU time", b->cfg.name) : 0;
}

static int cpu_stop(struct bench *b, struct bench_tally *round,
		    uint64_t client_start)
{
	uint64_t client_ns, kthread_ns;
	int err;

	err = process_cpu_ns(&client_ns);
	if (!err)
		err = kthread_cpu_sample(&b->kthreads, &kthread_ns);
	if (err)
		return pr_errno(-err, "%s: CPU time", b->cfg.name);
	round->client_cpu_ns += client_ns - client_start;
	round->kthread_cpu_ns += kthread_ns;
	return 0;
}

/* With more runs than targets, vendor counters are read around each load. */
static bool vstats_per_load(const struct bench *b)
{
	return b->cfg.n_modes > 1;
}

/*
 * One timed load of @run: its sample, and added to the run's round the
 * counters' growth, its CPU time and its vendor counters' growth.
 */
static int run_one(struct bench *b, struct bench_run *run)
{
	void *s = b->targets[run->target].session;
	struct load_counters before = *b->ops.counters(s);
	const unsigned int *order = NULL;
	unsigned int n = b->cfg.count, i = run->n_pending;
	uint64_t client_start = 0, ns;
	int err;

	if (b->hooks.plan) {
		n = b->hooks.plan(b->hooks.arg, run->target, &order);
		if (!n)
			return 0;
	}
	if (b->cfg.marks && b->ops.set_mark)
		b->ops.set_mark(s, (int)(run - b->runs));
	if (b->cfg.cpu) {
		err = cpu_start(b, &client_start);
		if (err)
			return err;
	}
	err = b->ops.run(s, run->mode, order, n, &ns);
	if (err)
		return err;
	if (b->cfg.cpu) {
		err = cpu_stop(b, &run->round, client_start);
		if (err)
			return err;
	}
	add_counters(&run->round.counters, &before, b->ops.counters(s));
	run->ns[i] = ns;
	if (run->cmds_ns)
		run->cmds_ns[i] = run->round.counters.cmds_ns;
	if (run->sent)
		run->sent[i] = n;
	run->n_pending++;
	if (vstats_per_load(b))
		vstats_since_last(b, run->target, &run->round.vstats);
	return 0;
}

/*
 * One untimed load per run first: the first loads of a fresh session pay
 * for page faults, cold caches and a worker that has never run. Not
 * counted, not marked for the instruction counter.
 */
/* Before a load: has the caller asked to stop (a signal)? */
static bool stop_asked(const struct bench *b)
{
	return b->cfg.stop && *b->cfg.stop;
}

static int warm_up(struct bench *b)
{
	unsigned int i;
	uint64_t ns;
	int err;

	for (i = 0; i < b->n_runs; i++) {
		struct bench_run *run = &b->runs[i];
		void *s = b->targets[run->target].session;

		if (b->cfg.marks && b->ops.set_mark)
			b->ops.set_mark(s, -1);
		if (stop_asked(b))
			return -EINTR;
		err = b->ops.run(s, run->mode, NULL, b->cfg.count, &ns);
		if (err)
			return err;
	}
	return 0;
}

/* A whole round is done: its loads count. */
static void commit_round(struct bench *b)
{
	unsigned int i;

	for (i = 0; i < b->n_runs; i++) {
		struct bench_run *run = &b->runs[i];

		add_tally(&run->total, &run->round);
		clear_tally(&run->round);
		run->n = run->n_pending;
	}
	b->rounds_done++;
}

/*
 * The run of target @t whose turn is @step of the round in place @order
 * of the rotation.
 */
static struct bench_run *run_at(struct bench *b, uint64_t order, unsigned int t,
				unsigned int step)
{
	unsigned int n_modes = b->cfg.n_modes;
	unsigned int m = order % 2 ? n_modes - 1 - step : step;

	return &b->runs[t * n_modes + m];
}

int bench_run(struct bench *b)
{
	unsigned int round, i, step, t, k;
	uint64_t order;
	int err;

	if (b->cfg.warm_up) {
		err = warm_up(b);
		if (err)
			return err;
	}
	for (t = 0; t < b->n_targets; t++)
		if (read_vstats(b, t, &b->targets[t].first))
			b->targets[t].last = b->targets[t].first;
	for (round = 0; round < b->cfg.rounds; round++) {
		/* 64 bits: first_round + round does not wrap. */
		order = (uint64_t)b->cfg.first_round + round;
		for (i = 0; i < b->n_targets; i++) {
			t = turn_target(order, i, b->n_targets);
			for (step = 0; step < b->cfg.n_modes; step++) {
				struct bench_run *run =
					run_at(b, order, t, step);

				for (k = 0; k < b->cfg.turn; k++) {
					if (stop_asked(b))
						return -EINTR;
					err = run_one(b, run);
					if (err)
						return err;
				}
			}
		}
		commit_round(b);
		if (b->hooks.round_done)
			b->hooks.round_done(b->hooks.arg, b->rounds_done,
					    b->cfg.rounds);
	}
	if (vstats_per_load(b))
		return 0;
	/* One run per target: its counters' growth over all its loads. */
	for (i = 0; i < b->n_runs; i++)
		vstats_since_last(b, b->runs[i].target,
				  &b->runs[i].total.vstats);
	return 0;
}

/*
 * Per command: a load's time over the commands it sent. When every load
 * sent the whole plan that is the per-load summary over the count; else
 * each sample is divided (in ps, so that the division keeps ns figures).
 */
static int per_command(const struct bench *b, const struct bench_run *run,
		       struct time_summary *out)
{
	struct time_summary ps;
	uint64_t *samples;
	unsigned int i;
	int err;

	if (!run->sent) {
		time_summary_scale(&run->per_load_ns, b->cfg.count, out);
		return 0;
	}
	samples = malloc(sizeof(*samples) * run->n);
	if (!samples)
		return -ENOMEM;
	for (i = 0; i < run->n; i++)
		samples[i] = run->ns[i] * 1000 / run->sent[i];
	err = time_summary_compute(samples, run->n, &ps);
	free(samples);
	if (!err)
		time_summary_scale(&ps, 1000, out);
	return err;
}

static int summarize_run(struct bench *b, struct bench_run *run)
{
	int err;

	run->per_load_ns = (struct time_summary){ 0 };
	run->per_command_ns = (struct time_summary){ 0 };
	run->per_load_cmds_ns = (struct time_summary){ 0 };
	if (!run->n)
		return 0;
	err = time_summary_compute(run->ns, run->n, &run->per_load_ns);
	if (!err)
		err = per_command(b, run, &run->per_command_ns);
	if (!err && run->cmds_ns)
		err = time_summary_compute(run->cmds_ns, run->n,
					   &run->per_load_cmds_ns);
	return err;
}

/*
 * Medians, not totals: a busy-polling guest now and then loses a whole
 * scheduler tick, which swamps a total. And the ratio round by round,
 * since rounds interleave: its quartiles are the speed-up's honest
 * spread, which two medians' ratio hides.
 */
static int compare_to(struct bench *b, const struct bench_run *ref,
		      struct bench_run *run)
{
	int err;

	run->speedup =
		run->per_load_ns.median > 0 ?
			ref->per_load_ns.median / run->per_load_ns.median :
			0;
	run->has_spread = false;
	if (!run->n || run->n != b->rounds_done * b->cfg.turn ||
	    ref->n != run->n)
		return 0;
	err = ratio_summary_compute(ref->ns, run->ns, run->n,
				    &run->speedup_spread);
	if (err == -ENOMEM)
		return err;
	run->has_spread = !err;
	run->within_noise = run->has_spread &&
			    ratio_within_noise(&run->speedup_spread);
	return 0;
}

int bench_summarize(struct bench *b, int ref)
{
	unsigned int i;
	int err;

	for (i = 0; i < b->n_runs; i++) {
		err = summarize_run(b, &b->runs[i]);
		if (err)
			return pr_errno(-err, "%s: statistics", b->cfg.name);
	}
	if (ref < 0 || (unsigned int)ref >= b->n_runs)
		return 0;
	/* The reference may come after the run: only once all are known. */
	for (i = 0; i < b->n_runs; i++) {
		err = compare_to(b, &b->runs[ref], &b->runs[i]);
		if (err)
			return pr_errno(-err, "%s: statistics", b->cfg.name);
	}
	return 0;
}

uint64_t bench_redundant_commands(const struct bench *b)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < b->n_runs; i++)
		sum += stat_value(&b->runs[i].total.vstats,
				  BENCH_REDUNDANT_STAT);
	return sum;
}

int bench_write_samples(const struct bench *b, FILE *f)
{
	unsigned int i, r;

	fprintf(f, "# %s: one line per timed load: RUN LOAD NS COMMANDS\n",
		b->cfg.name);
	for (i = 0; i < b->n_runs; i++) {
		const struct bench_run *run = &b->runs[i];
		const char *target = b->targets[run->target].name;
		const char *mode = load_mode_names[run->mode];

		for (r = 0; r < run->n; r++) {
			unsigned int sent = run->sent ? run->sent[r] :
							b->cfg.count;

			fprintf(f, "%s/%s %u %" PRIu64 " %u\n", target, mode, r,
				run->ns[r], sent);
			if (run->cmds_ns)
				fprintf(f, "%s/%s/cmds %u %" PRIu64 " %u\n",
					target, mode, r, run->cmds_ns[r], sent);
		}
	}
	return ferror(f) ? -EIO : 0;
}

void bench_destroy(struct bench *b)
{
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < b->n_runs; i++) {
		free(b->runs[i].ns);
		free(b->runs[i].cmds_ns);
		free(b->runs[i].sent);
	}
	if (b->cfg.cpu)
		kthread_cpu_release(&b->kthreads);
	free(b);
}
