// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "compare": the same load, serial and parallel, on several devices in one
 * process, interleaved round by round so that drift of the machine hits
 * every device and mode alike.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/load_cli.h"
#include "cli/load_report.h"
#include "cli/log.h"
#include "cli/vdpactl.h"
#include "load/cputime.h"
#include "load/timestats.h"

#define MODES 2

static void compare_usage(void)
{
	fprintf(stderr,
		"Usage: " PROG_NAME
		" compare --count N [ --rounds R ] [ --dev NAME ]...\n"
		"                  [ --baseline NAME ] [ --cpu ] [ --csv ]\n" LOAD_COMMON_SYNOPSIS
		"       " PROG_NAME " compare help\n" LOAD_LIMITS
		"NAME: up to 16 devices bound to vhost_vdpa (default: all of them;\n"
		"past 16, the first 16 in natural order, with a warning).\n"
		"Each device runs serial and parallel loads, alternating with the\n"
		"others round by round (device order rotating), after one untimed\n"
		"warm-up load each. SPEEDUP is the baseline device's serial median\n"
		"load time over this one's: --baseline NAME, by default the first\n"
		"device. P99_LOAD/N_US is the 99th percentile load time over N.\n"
		"--cpu adds the CPU time per command of this process (its system\n"
		"calls included) and of the kernel threads, from /proc before and\n"
		"after each load. Every kernel thread counts, so background kworkers\n"
		"do too, and so does a busy-polling device's polling; a thread that\n"
		"appears counts from 0, one that exits adds nothing.\n");
}

struct compare_run {
	const struct load_target *target;
	const struct load_info *info;
	enum load_mode mode;
	uint64_t *times;
	/* --cold: each load's commands alone, without the device's start. */
	uint64_t *cmds_times;
	struct time_summary per_load_cmds_ns;
	/* What this device's loads in this mode did, as "load" reports it. */
	struct load_counters counters;
	struct vdpa_vstats vstats_delta;
	struct time_summary per_load_ns;
	struct time_summary per_command_ns;
	double speedup;
	/* --cpu: over the timed loads, not the warm-up or the gaps. */
	uint64_t client_cpu_ns;
	uint64_t kthread_cpu_ns;
};

/* The vendor counters of one device, read around each of its loads. */
struct compare_vstats {
	bool has;
	struct vdpa_vstats last;
	char note[LOAD_NOTE_LEN];
};

struct compare {
	struct load_args args;
	const char *baseline_name; /* --baseline; NULL: the first device */
	unsigned int baseline; /* its index in targets */
	bool cpu;
	struct kthread_cpu kthreads;
	struct load_target targets[LOAD_DEVS_MAX];
	struct load_session *sessions[LOAD_DEVS_MAX];
	struct compare_vstats vstats[LOAD_DEVS_MAX];
	unsigned int n_targets;
	struct compare_run runs[LOAD_DEVS_MAX * MODES];
	unsigned int n_runs;
	unsigned int rounds_done; /* the timings cover these rounds */
	/* A load failed after whole rounds: their results are kept. */
	bool failed;
	char failure[LOAD_NOTE_LEN];
};

static int open_all(struct vdpactl *ctx, struct compare *c)
{
	const struct load_config *cfg = &c->args.cfg;
	unsigned int t, m;
	int err;

	for (t = 0; t < c->n_targets; t++) {
		err = load_session_open(&c->sessions[t], c->targets[t].loc.name,
					c->targets[t].loc.chardev, cfg,
					ctx->verbose);
		if (err)
			return err;
		for (m = 0; m < MODES; m++) {
			struct compare_run *run = &c->runs[c->n_runs++];

			run->target = &c->targets[t];
			run->info = load_session_info(c->sessions[t]);
			run->mode = m == 0 ? LOAD_MODE_SERIAL :
					     LOAD_MODE_PARALLEL;
			run->times = calloc(cfg->rounds, sizeof(*run->times));
			if (cfg->cold)
				run->cmds_times = calloc(
					cfg->rounds, sizeof(*run->cmds_times));
			if (!run->times || (cfg->cold && !run->cmds_times))
				return pr_errno(ENOMEM, "compare: timings");
		}
	}
	return 0;
}

/*
 * Like with like: every device must run the same plan -- the same
 * commands, in a ring of the same size, under the same negotiated
 * features -- or the comparison measures the difference in plans.
 */
static int check_alike(const struct compare *c)
{
	const struct load_info *a = load_session_info(c->sessions[0]);
	const char *first = c->targets[0].loc.name;
	unsigned int t, i;

	for (t = 1; t < c->n_targets; t++) {
		const struct load_info *b = load_session_info(c->sessions[t]);
		const char *name = c->targets[t].loc.name;
		bool same_mix = a->n_mix == b->n_mix;

		if (a->ring_size != b->ring_size) {
			pr_err("compare: %s has a %u-entry ring, %s %u: "
			       "give --ring-size",
			       first, a->ring_size, name, b->ring_size);
			return -EINVAL;
		}
		if (a->driver_features != b->driver_features) {
			pr_err("compare: %s negotiated features 0x%" PRIx64
			       ", %s 0x%" PRIx64,
			       first, a->driver_features, name,
			       b->driver_features);
			return -EINVAL;
		}
		for (i = 0; same_mix && i < a->n_mix; i++)
			same_mix = !strcmp(a->mix[i].name, b->mix[i].name) &&
				   a->mix[i].count == b->mix[i].count;
		if (!same_mix) {
			pr_err("compare: %s and %s would send different "
			       "commands (\"load\" on each lists them)",
			       first, name);
			return -EINVAL;
		}
	}
	return 0;
}

static void read_vstats(struct vdpactl *ctx, struct compare *c, unsigned int t,
			struct compare_run *run)
{
	struct compare_vstats *v = &c->vstats[t];
	struct vdpa_vstats now;
	int err;

	if (run && !v->has)
		return;
	err = load_read_vstats(ctx, c->targets[t].loc.name,
			       load_session_info(c->sessions[t])->cvq_index,
			       &now);
	v->has = !err;
	if (err) {
		load_vstats_note(v->note, sizeof(v->note), err);
		return;
	}
	if (run)
		vstats_add_delta(&run->vstats_delta, &v->last, &now);
	v->last = now;
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

/*
 * The kernel threads' snapshot before the process clock, and after it at
 * the end, so that reading /proc is charged to neither.
 */
static int cpu_start(struct compare *c, uint64_t *client_ns)
{
	uint64_t before_load;
	int err;

	err = kthread_cpu_sample(&c->kthreads, &before_load);
	if (!err)
		err = process_cpu_ns(client_ns);
	return err ? pr_errno(-err, "compare: CPU time") : 0;
}

static int cpu_stop(struct compare *c, struct compare_run *run,
		    uint64_t client_start)
{
	uint64_t client_ns, kthread_ns;
	int err;

	err = process_cpu_ns(&client_ns);
	if (!err)
		err = kthread_cpu_sample(&c->kthreads, &kthread_ns);
	if (err)
		return pr_errno(-err, "compare: CPU time");
	run->client_cpu_ns += client_ns - client_start;
	run->kthread_cpu_ns += kthread_ns;
	return 0;
}

/* The device --baseline names among those compared; 0 without it. */
static int find_baseline(struct compare *c)
{
	unsigned int t;

	if (!c->baseline_name)
		return 0;
	for (t = 0; t < c->n_targets; t++) {
		if (!strcmp(c->targets[t].loc.name, c->baseline_name)) {
			c->baseline = t;
			return 0;
		}
	}
	pr_err("compare: --baseline %s is not among the compared devices",
	       c->baseline_name);
	return -ENOENT;
}

/*
 * One load through the engine "load" uses, its counters, the device's
 * vendor counters and, with --cpu, the CPU time around it attributed to
 * its device and mode.
 */
static int run_one(struct vdpactl *ctx, struct compare *c, unsigned int t,
		   struct compare_run *run, unsigned int round)
{
	struct load_counters before = *load_session_counters(c->sessions[t]);
	uint64_t client_start = 0;
	int err;

	/* Marker slot: the run's index, as the JSON output lists runs. */
	load_session_set_mark(c->sessions[t], (int)(run - c->runs));
	if (c->cpu) {
		err = cpu_start(c, &client_start);
		if (err)
			return err;
	}
	err = load_session_run(c->sessions[t], run->mode, &run->times[round]);
	if (err)
		return err;
	if (run->cmds_times)
		run->cmds_times[round] =
			load_session_counters(c->sessions[t])->cmds_ns -
			before.cmds_ns;
	if (c->cpu) {
		err = cpu_stop(c, run, client_start);
		if (err)
			return err;
	}
	add_counters(&run->counters, &before,
		     load_session_counters(c->sessions[t]));
	read_vstats(ctx, c, t, run);
	return 0;
}

/*
 * One untimed load per device and mode first: the first loads of a fresh
 * session pay for page faults, cold caches and a worker that has never
 * run. Not counted, not marked for the instruction counter.
 */
static int warm_up(struct compare *c)
{
	unsigned int t, m;
	uint64_t ns;
	int err;

	for (t = 0; t < c->n_targets; t++) {
		load_session_set_mark(c->sessions[t], -1);
		for (m = 0; m < MODES; m++) {
			err = load_session_run(c->sessions[t],
					       c->runs[t * MODES + m].mode,
					       &ns);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * Each round visits every device and mode; the device order rotates and
 * the mode order flips from round to round, so no device always runs
 * first or right after another.
 */
static int run_all(struct vdpactl *ctx, struct compare *c)
{
	unsigned int round, i, t, step, m;
	int err;

	err = warm_up(c);
	if (err)
		return err;
	for (t = 0; t < c->n_targets; t++)
		read_vstats(ctx, c, t, NULL);
	for (round = 0; round < c->args.cfg.rounds; round++) {
		for (i = 0; i < c->n_targets; i++) {
			t = (round + i) % c->n_targets;
			for (step = 0; step < MODES; step++) {
				struct compare_run *run;

				m = round % 2 ? MODES - 1 - step : step;
				run = &c->runs[t * MODES + m];
				err = run_one(ctx, c, t, run, round);
				if (err)
					return err;
			}
		}
		c->rounds_done = round + 1;
	}
	return 0;
}

static int summarize_all(struct compare *c)
{
	const struct compare_run *ref = &c->runs[c->baseline * MODES];
	unsigned int i;
	int err;

	for (i = 0; i < c->n_runs; i++) {
		struct compare_run *run = &c->runs[i];

		err = time_summary_compute(run->times, c->rounds_done,
					   &run->per_load_ns);
		if (err)
			return pr_errno(err, "compare: statistics");
		time_summary_scale(&run->per_load_ns, c->args.cfg.count,
				   &run->per_command_ns);
		if (run->cmds_times) {
			err = time_summary_compute(run->cmds_times,
						   c->rounds_done,
						   &run->per_load_cmds_ns);
			if (err)
				return pr_errno(err, "compare: statistics");
		}
	}
	/*
	 * Medians, not totals: a busy-polling guest now and then loses a
	 * whole scheduler tick, which swamps a total. The baseline may come
	 * after the row, so only once every median is known.
	 */
	for (i = 0; i < c->n_runs; i++)
		c->runs[i].speedup =
			ref->per_load_ns.median / c->runs[i].per_load_ns.median;
	return 0;
}

/* Microseconds per command the run sent. */
static double us_per_command(const struct compare_run *run, uint64_t ns)
{
	if (!run->counters.commands)
		return 0;
	return (double)ns / 1e3 / (double)run->counters.commands;
}

static void print_csv(FILE *f, const struct compare *c)
{
	const struct load_config *cfg = &c->args.cfg;
	unsigned int i;

	fprintf(f,
		"device,mgmtdev,mode,kick,wait,profile,count,rounds,"
		"total_us,us_per_command,median_us_per_command,"
		"p99_load_us_per_command,speedup,baseline%s%s\n",
		cfg->cold ? ",median_cmds_us_per_command" : "",
		c->cpu ?
			",client_cpu_us_per_command,kthread_cpu_us_per_command" :
			"");
	for (i = 0; i < c->n_runs; i++) {
		const struct compare_run *run = &c->runs[i];

		fprintf(f,
			"%s,%s,%s,%s,%s,%s,%u,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%s",
			run->target->loc.name, run->target->mgmtdev,
			load_mode_names[run->mode], load_kick_names[cfg->kick],
			load_wait_names[cfg->wait],
			load_profile_names[cfg->profile], cfg->count,
			cfg->rounds, run->per_load_ns.total / 1e3,
			run->per_command_ns.mean / 1e3,
			run->per_command_ns.median / 1e3,
			run->per_command_ns.p99 / 1e3, run->speedup,
			c->targets[c->baseline].loc.name);
		if (run->cmds_times)
			fprintf(f, ",%.3f",
				run->per_load_cmds_ns.median / 1e3 /
					cfg->count);
		if (c->cpu)
			fprintf(f, ",%.3f,%.3f",
				us_per_command(run, run->client_cpu_ns),
				us_per_command(run, run->kthread_cpu_ns));
		fputc('\n', f);
	}
}

static void print_run_counters(struct output *o, const struct compare_run *run,
			       const struct compare_vstats *v)
{
	const struct load_counters *n = &run->counters;

	print_u64(o, PRINT_JSON, "total_commands", NULL, n->commands);
	print_u64(o, PRINT_JSON, "batches", NULL, n->batches);
	print_u64(o, PRINT_JSON, "kicks", NULL, n->kicks);
	print_u64(o, PRINT_JSON, "sleeps", NULL, n->sleeps);
	if (!v->has) {
		print_string(o, PRINT_JSON, "vstats_note", NULL, v->note);
		return;
	}
	open_json_object(o, "vstats");
	print_uint(o, PRINT_JSON, "queue_index", NULL,
		   run->vstats_delta.queue_index);
	print_vstat_set(o, "delta", &run->vstats_delta);
	close_json_object(o);
}

/* Text: the counters of each row on a line of their own, after the table. */
static void print_counters_text(struct output *o, const struct compare *c)
{
	unsigned int i, k;

	for (i = 0; i < c->n_runs; i++) {
		const struct compare_run *run = &c->runs[i];
		const struct compare_vstats *v = &c->vstats[i / MODES];

		print_text(o,
			   "%s %s: commands %" PRIu64 " batches %" PRIu64
			   " kicks %" PRIu64 " sleeps %" PRIu64,
			   run->target->loc.name, load_mode_names[run->mode],
			   run->counters.commands, run->counters.batches,
			   run->counters.kicks, run->counters.sleeps);
		if (!v->has)
			print_text(o, " vstats: %s", v->note);
		for (k = 0; v->has && k < run->vstats_delta.n; k++)
			print_text(o, "%s %s +%" PRIu64, k ? "," : " vstats",
				   run->vstats_delta.entries[k].name,
				   run->vstats_delta.entries[k].value);
		print_text(o, "\n");
	}
}

static void print_run(struct output *o, const struct compare *c,
		      const struct compare_run *run)
{
	open_json_object(o, NULL);
	print_string(o, PRINT_ANY, "device", "%-10s", run->target->loc.name);
	print_string(o, PRINT_ANY, "mgmtdev", " %-16s", run->target->mgmtdev);
	print_string(o, PRINT_ANY, "mode", " %-9s", load_mode_names[run->mode]);
	print_double(o, PRINT_ANY, "total_us", " %12.1f",
		     run->per_load_ns.total / 1e3);
	print_double(o, PRINT_ANY, "us_per_command", " %8.3f",
		     run->per_command_ns.mean / 1e3);
	print_double(o, PRINT_ANY, "median_us_per_command", " %14.3f",
		     run->per_command_ns.median / 1e3);
	/* The p99 load over N: no per-command p99 is measured. */
	print_double(o, PRINT_ANY, "p99_load_us_per_command", " %14.3f",
		     run->per_command_ns.p99 / 1e3);
	print_run_counters(o, run, &c->vstats[(size_t)(run - c->runs) / MODES]);
	print_double(o, PRINT_ANY, "speedup", " %8.2f", run->speedup);
	if (run->cmds_times)
		print_double(
			o, PRINT_ANY, "median_cmds_us_per_command", " %18.3f",
			run->per_load_cmds_ns.median / 1e3 / c->args.cfg.count);
	if (c->cpu) {
		print_double(o, PRINT_ANY, "client_cpu_us_per_command",
			     " %17.3f",
			     us_per_command(run, run->client_cpu_ns));
		print_double(o, PRINT_ANY, "kthread_cpu_us_per_command",
			     " %18.3f",
			     us_per_command(run, run->kthread_cpu_ns));
	}
	if (run->info->note[0])
		print_string(o, PRINT_JSON, "note", NULL, run->info->note);
	print_nl(o);
	close_json_object(o);
}

static void print_table(struct output *o, const struct compare *c)
{
	const struct load_config *cfg = &c->args.cfg;
	unsigned int i;

	print_section_open(o, "compare");
	print_string(o, PRINT_ANY, "profile", "profile %s",
		     load_profile_names[cfg->profile]);
	print_uint(o, PRINT_ANY, "count", " count %u", cfg->count);
	print_uint(o, PRINT_ANY, "rounds", " rounds %u", cfg->rounds);
	print_string(o, PRINT_ANY, "kick", " kick %s",
		     load_kick_names[cfg->kick]);
	print_string(o, PRINT_ANY, "wait", " wait %s",
		     load_wait_names[cfg->wait]);
	print_bool(o, PRINT_ANY, "asid", " asid %s", cfg->asid);
	print_uint(o, PRINT_ANY, "ring_size", " ring %u",
		   c->runs[0].info->ring_size);
	/* Only when set, as cold: a split ring's keys stay as they were. */
	if (cfg->ring != VQ_FORMAT_SPLIT)
		print_string(o, PRINT_ANY, "ring", " %s",
			     load_ring_names[cfg->ring]);
	if (cfg->cold)
		print_bool(o, PRINT_ANY, "cold", " cold %s", true);
	print_text(o, "\n");
	print_string(o, PRINT_ANY, "baseline", "baseline %s serial\n",
		     c->targets[c->baseline].loc.name);
	print_text(o, "%-10s %-16s %-9s %12s %8s %14s %14s %8s", "DEVICE",
		   "MGMTDEV", "MODE", "TOTAL_US", "US/CMD", "MEDIAN_US/CMD",
		   "P99_LOAD/N_US", "SPEEDUP");
	if (cfg->cold)
		print_text(o, " %18s", "MEDIAN_CMDS_US/CMD");
	if (c->cpu)
		print_text(o, " %17s %18s", "CLIENT_CPU_US/CMD",
			   "KTHREAD_CPU_US/CMD");
	print_text(o, "\n");
	open_json_array(o, "results");
	for (i = 0; i < c->n_runs; i++)
		print_run(o, c, &c->runs[i]);
	close_json_array(o);
	print_counters_text(o, c);
	if (c->failed) {
		open_json_object(o, "failed");
		print_uint(o, PRINT_ANY, "after_rounds",
			   "failed after %u rounds", c->rounds_done);
		print_uint(o, PRINT_ANY, "of", " of %u", cfg->rounds);
		print_string(o, PRINT_ANY, "error", ": %s\n", c->failure);
		close_json_object(o);
	}
	for (i = 0; i < c->n_runs; i += MODES)
		if (c->runs[i].info->note[0])
			print_text(o, "note %s: %s\n",
				   c->runs[i].target->loc.name,
				   c->runs[i].info->note);
	print_section_close(o);
}

static enum opt_result parse_compare_args(struct compare *c, int argc,
					  char **argv)
{
	struct load_args *a = &c->args;
	struct opt opts[LOAD_COMMON_OPTS + 4];
	size_t n = load_common_opts(a, opts);

	opts[n++] = (struct opt){ .name = "dev",
				  .kind = OPT_STRINGS,
				  .value = a->devs,
				  .count = &a->n_devs,
				  .capacity = LOAD_DEVS_MAX };
	opts[n++] = (struct opt){ .name = "baseline",
				  .kind = OPT_STRING,
				  .value = &c->baseline_name };
	opts[n++] = (struct opt){ .name = "cpu",
				  .kind = OPT_FLAG,
				  .value = &c->cpu };
	opts[n++] = (struct opt){ .name = "csv",
				  .kind = OPT_FLAG,
				  .value = &a->csv };
	return opt_parse("compare", opts, n, OPT_STYLE_DASHES, argc, argv);
}

static void release(struct compare *c)
{
	unsigned int i;

	for (i = 0; i < c->n_targets; i++)
		load_session_close(c->sessions[i]);
	for (i = 0; i < c->n_runs; i++) {
		free(c->runs[i].times);
		free(c->runs[i].cmds_times);
	}
	kthread_cpu_release(&c->kthreads);
	free(c);
}

int cmd_compare(struct vdpactl *ctx, int argc, char **argv)
{
	struct compare *c;
	int status = CMD_FAIL;

	if (argc == 0) {
		compare_usage();
		return CMD_USAGE;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		pr_errno(ENOMEM, "compare");
		return CMD_FAIL;
	}
	load_args_init(&c->args);
	if (!cmd_opts_ok(parse_compare_args(c, argc, argv), compare_usage,
			 &status))
		goto out;
	if (c->args.csv && ctx->json) {
		pr_err("compare: --csv and -j exclude each other");
		status = CMD_USAGE;
		goto out;
	}
	if (!load_args_valid("compare", &c->args)) {
		status = CMD_USAGE;
		goto out;
	}
	if (load_resolve_targets(ctx, &c->args, c->targets, &c->n_targets))
		goto out;
	if (find_baseline(c)) {
		status = CMD_USAGE;
		goto out;
	}
	if (c->cpu) {
		int err = kthread_cpu_init(&c->kthreads, "/proc");

		if (err) {
			pr_errno(-err, "compare: /proc");
			goto out;
		}
	}
	if (open_all(ctx, c) || check_alike(c))
		goto out;
	if (run_all(ctx, c)) {
		/* Keep the whole rounds before the failure, if any. */
		if (!c->rounds_done)
			goto out;
		c->failed = true;
		snprintf(c->failure, sizeof(c->failure), "%s", log_last_line());
	}
	if (summarize_all(c))
		goto out;
	if (c->args.csv)
		print_csv(ctx->out.f, c);
	else
		print_table(&ctx->out, c);
	status = c->failed ? CMD_FAIL : CMD_OK;
out:
	release(c);
	return status;
}
