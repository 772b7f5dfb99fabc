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

#include "cli/interrupt.h"
#include "cli/load_cli.h"
#include "cli/load_report.h"
#include "cli/log.h"
#include "cli/vdpactl.h"
#include "load/bench.h"

#define MODES 2

static void compare_usage(void)
{
	fprintf(stderr,
		"Usage: " PROG_NAME
		" compare --count N [ --rounds R ] [ --dev NAME ]...\n"
		"                  [ --baseline NAME ] [ --cpu ] [ --csv ]\n"
		"                  [ --turn T ] [ --samples FILE ] [ --first-round K ]\n" LOAD_COMMON_SYNOPSIS
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
		"appears counts from 0, one that exits adds nothing.\n"
		"--turn T: each device and mode loads T times in a row in its turn\n"
		"  (default 1), so that its worker can stay awake between loads;\n"
		"  R x T loads each, at most 1000000.\n"
		"--first-round K: round r goes in the order of round K + r,\n"
		"  0..1000000 (default 0): runs of one round given K = 0, 1, 2, ...\n"
		"  rotate as one run of many rounds does.\n"
		"--samples FILE: every timed load's time into FILE, one line each:\n"
		"  DEVICE/MODE LOAD NS COMMANDS (with --cold also DEVICE/MODE/cmds,\n"
		"  the commands' part); LOAD is round x T + k for the k-th load of a\n"
		"  turn, and loads of one LOAD ran side by side.\n");
}

struct compare {
	struct load_args args;
	const char *baseline_name; /* --baseline; NULL: the first device */
	unsigned int baseline; /* its index in targets */
	bool cpu;
	unsigned int turn; /* --turn T: loads per device and mode in a row */
	unsigned int first_round; /* --first-round K: the rotation's start */
	const char *samples; /* --samples FILE */
	struct load_target targets[LOAD_DEVS_MAX];
	unsigned int n_targets;
	struct load_bench_link link;
	struct bench *bench;
	/* A load failed (or a signal came) after whole rounds: kept. */
	bool failed;
	bool interrupted;
	char failure[LOAD_NOTE_LEN];
};

/*
 * The device --baseline names among those compared (0 without it); false
 * if it is not one of them.
 */
static bool find_baseline(struct compare *c)
{
	unsigned int t;

	if (!c->baseline_name)
		return true;
	for (t = 0; t < c->n_targets; t++) {
		if (!strcmp(c->targets[t].loc.name, c->baseline_name)) {
			c->baseline = t;
			return true;
		}
	}
	return false;
}

/*
 * Each device, serial and parallel, in the engine's rounds: one untimed
 * warm-up load each first, then the device order rotating and the mode
 * order flipping round by round.
 */
static int create_bench(struct vdpactl *ctx, struct compare *c)
{
	const struct load_config *cfg = &c->args.cfg;
	const struct bench_config bc = {
		.name = "compare",
		.count = cfg->count,
		.rounds = cfg->rounds,
		.first_round = c->first_round,
		.turn = c->turn,
		.modes = { LOAD_MODE_SERIAL, LOAD_MODE_PARALLEL },
		.n_modes = MODES,
		.warm_up = true,
		.marks = true,
		.cmds_times = cfg->cold,
		.cpu = c->cpu,
		.stop = &interrupt_signal,
	};
	const struct bench_hooks hooks = {
		.arg = &c->link,
		.read_vstats = load_bench_vstats,
		.round_done = load_bench_progress,
	};
	int err;

	c->link.ctx = ctx;
	err = bench_create(&c->bench, &bc, &load_bench_ops, &hooks);
	c->link.bench = c->bench;
	return err;
}

static int open_all(struct vdpactl *ctx, struct compare *c)
{
	const struct load_config *cfg = &c->args.cfg;
	struct load_session *s;
	unsigned int t;
	int err;

	for (t = 0; t < c->n_targets; t++) {
		err = load_session_open(&s, c->targets[t].loc.name,
					c->targets[t].loc.chardev, cfg,
					ctx->verbose);
		if (err)
			return err;
		err = bench_add_target(c->bench, s, c->targets[t].loc.name,
				       load_session_info(s));
		if (err) {
			load_session_close(s);
			return err;
		}
	}
	return 0;
}

/* Microseconds per command the run sent. */
static double us_per_command(const struct bench_run *run, uint64_t ns)
{
	if (!run->total.counters.commands)
		return 0;
	return (double)ns / 1e3 / (double)run->total.counters.commands;
}

static const struct load_target *target_of(const struct compare *c,
					   const struct bench_run *run)
{
	return &c->targets[run->target];
}

/* Added columns go last, so that older readers by position still work. */
static void print_csv_spread(FILE *f, const struct bench_run *run)
{
	fprintf(f, ",%.3f,%.3f", run->per_command_ns.q1 / 1e3,
		run->per_command_ns.q3 / 1e3);
	if (run->has_spread)
		fprintf(f, ",%.3f,%.3f,%s", run->speedup_spread.q1,
			run->speedup_spread.q3,
			run->within_noise ? "true" : "false");
	else
		fputs(",,,", f);
}

static void print_csv(FILE *f, const struct compare *c)
{
	const struct load_config *cfg = &c->args.cfg;
	const struct bench *b = c->bench;
	unsigned int i;

	fprintf(f,
		"device,mgmtdev,mode,kick,wait,profile,count,rounds,"
		"total_us,us_per_command,median_us_per_command,"
		"p99_load_us_per_command,speedup,baseline%s%s,"
		"q1_us_per_command,q3_us_per_command,speedup_q1,speedup_q3,"
		"within_noise\n",
		cfg->cold ? ",median_cmds_us_per_command" : "",
		c->cpu ?
			",client_cpu_us_per_command,kthread_cpu_us_per_command" :
			"");
	for (i = 0; i < b->n_runs; i++) {
		const struct bench_run *run = &b->runs[i];
		const struct load_target *t = target_of(c, run);

		fprintf(f,
			"%s,%s,%s,%s,%s,%s,%u,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%s",
			t->loc.name, t->mgmtdev, load_mode_names[run->mode],
			load_kick_names[cfg->kick], load_wait_names[cfg->wait],
			load_profile_names[cfg->profile], cfg->count,
			cfg->rounds, run->per_load_ns.total / 1e3,
			run->per_command_ns.mean / 1e3,
			run->per_command_ns.median / 1e3,
			run->per_command_ns.p99 / 1e3, run->speedup,
			c->targets[c->baseline].loc.name);
		if (run->cmds_ns)
			fprintf(f, ",%.3f",
				run->per_load_cmds_ns.median / 1e3 /
					cfg->count);
		if (c->cpu)
			fprintf(f, ",%.3f,%.3f",
				us_per_command(run, run->total.client_cpu_ns),
				us_per_command(run, run->total.kthread_cpu_ns));
		print_csv_spread(f, run);
		fputc('\n', f);
	}
}

static void print_run_counters(struct output *o, const struct bench_run *run,
			       const struct bench_target *t)
{
	const struct load_counters *n = &run->total.counters;
	char note[LOAD_NOTE_LEN];

	print_u64(o, PRINT_JSON, "total_commands", NULL, n->commands);
	print_u64(o, PRINT_JSON, "batches", NULL, n->batches);
	print_u64(o, PRINT_JSON, "kicks", NULL, n->kicks);
	print_u64(o, PRINT_JSON, "sleeps", NULL, n->sleeps);
	if (!t->has_vstats) {
		load_vstats_note(note, sizeof(note), t->vstats_err);
		print_string(o, PRINT_JSON, "vstats_note", NULL, note);
		return;
	}
	open_json_object(o, "vstats");
	print_uint(o, PRINT_JSON, "queue_index", NULL,
		   run->total.vstats.queue_index);
	print_vstat_set(o, "delta", &run->total.vstats);
	close_json_object(o);
}

/* Text: the counters of each row on a line of their own, after the table. */
static void print_counters_text(struct output *o, const struct compare *c)
{
	const struct bench *b = c->bench;
	char note[LOAD_NOTE_LEN];
	unsigned int i, k;

	for (i = 0; i < b->n_runs; i++) {
		const struct bench_run *run = &b->runs[i];
		const struct bench_target *t = &b->targets[run->target];
		const struct load_counters *n = &run->total.counters;
		const struct vdpa_vstats *v = &run->total.vstats;

		print_text(o,
			   "%s %s: commands %" PRIu64 " batches %" PRIu64
			   " kicks %" PRIu64 " sleeps %" PRIu64,
			   t->name, load_mode_names[run->mode], n->commands,
			   n->batches, n->kicks, n->sleeps);
		if (!t->has_vstats) {
			load_vstats_note(note, sizeof(note), t->vstats_err);
			print_text(o, " vstats: %s", note);
		}
		for (k = 0; t->has_vstats && k < v->n; k++)
			print_text(o, "%s %s +%" PRIu64, k ? "," : " vstats",
				   v->entries[k].name, v->entries[k].value);
		print_text(o, "\n");
	}
}

/*
 * The quartiles of the speed-up round by round (the baseline's serial
 * load time over this run's in the same round), and whether their
 * interval holds 1: JSON only, so the table keeps its width.
 */
static void print_spread(struct output *o, const struct bench_run *run)
{
	if (!run->has_spread)
		return;
	print_double(o, PRINT_JSON, "speedup_q1", NULL, run->speedup_spread.q1);
	print_double(o, PRINT_JSON, "speedup_q3", NULL, run->speedup_spread.q3);
	print_bool(o, PRINT_JSON, "within_noise", NULL, run->within_noise);
}

/* The run's time summaries, as "load" prints them: JSON only. */
static void print_summaries(struct output *o, const struct bench_run *run)
{
	print_summary_us(o, PRINT_JSON, "per_load_us", &run->per_load_ns);
	print_summary_us(o, PRINT_JSON, "per_command_us", &run->per_command_ns);
	if (run->cmds_ns)
		print_summary_us(o, PRINT_JSON, "per_load_cmds_us",
				 &run->per_load_cmds_ns);
}

static void print_run(struct output *o, const struct compare *c,
		      const struct bench_run *run)
{
	const struct bench_target *t = &c->bench->targets[run->target];

	open_json_object(o, NULL);
	print_string(o, PRINT_ANY, "device", "%-10s", t->name);
	print_string(o, PRINT_ANY, "mgmtdev", " %-16s",
		     target_of(c, run)->mgmtdev);
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
	print_run_counters(o, run, t);
	print_double(o, PRINT_ANY, "speedup", " %8.2f", run->speedup);
	print_spread(o, run);
	if (run->cmds_ns)
		print_double(
			o, PRINT_ANY, "median_cmds_us_per_command", " %18.3f",
			run->per_load_cmds_ns.median / 1e3 / c->args.cfg.count);
	if (c->cpu) {
		print_double(o, PRINT_ANY, "client_cpu_us_per_command",
			     " %17.3f",
			     us_per_command(run, run->total.client_cpu_ns));
		print_double(o, PRINT_ANY, "kthread_cpu_us_per_command",
			     " %18.3f",
			     us_per_command(run, run->total.kthread_cpu_ns));
	}
	print_summaries(o, run);
	if (t->info->note[0])
		print_string(o, PRINT_JSON, "note", NULL, t->info->note);
	print_nl(o);
	close_json_object(o);
}

static void print_table(struct output *o, const struct compare *c)
{
	const struct load_config *cfg = &c->args.cfg;
	const struct bench *b = c->bench;
	unsigned int i;

	print_section_open(o, "compare");
	print_string(o, PRINT_ANY, "profile", "profile %s",
		     load_profile_names[cfg->profile]);
	print_uint(o, PRINT_ANY, "count", " count %u", cfg->count);
	print_uint(o, PRINT_ANY, "rounds", " rounds %u", cfg->rounds);
	/* Only when set: the keys of one load per turn stay as they were. */
	if (c->turn > 1)
		print_uint(o, PRINT_ANY, "turn", " turn %u", c->turn);
	if (c->first_round)
		print_uint(o, PRINT_ANY, "first_round", " first_round %u",
			   c->first_round);
	print_string(o, PRINT_ANY, "kick", " kick %s",
		     load_kick_names[cfg->kick]);
	print_string(o, PRINT_ANY, "wait", " wait %s",
		     load_wait_names[cfg->wait]);
	print_bool(o, PRINT_ANY, "asid", " asid %s", cfg->asid);
	print_uint(o, PRINT_ANY, "ring_size", " ring %u",
		   b->targets[0].info->ring_size);
	/* Only when set, as cold: a split ring's keys stay as they were. */
	if (cfg->ring != VQ_FORMAT_SPLIT)
		print_string(o, PRINT_ANY, "ring", " %s",
			     load_ring_names[cfg->ring]);
	if (cfg->cold)
		print_bool(o, PRINT_ANY, "cold", " cold %s", true);
	print_text(o, "\n");
	print_string(o, PRINT_ANY, "baseline", "baseline %s serial\n",
		     c->targets[c->baseline].loc.name);
	print_u64(o, PRINT_JSON, "redundant_commands", NULL,
		  bench_redundant_commands(b));
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
	for (i = 0; i < b->n_runs; i++)
		print_run(o, c, &b->runs[i]);
	close_json_array(o);
	print_counters_text(o, c);
	if (c->failed) {
		print_bool(o, PRINT_JSON, "interrupted", NULL, c->interrupted);
		open_json_object(o, "failed");
		print_uint(o, PRINT_ANY, "after_rounds",
			   "failed after %u rounds", b->rounds_done);
		print_uint(o, PRINT_ANY, "of", " of %u", cfg->rounds);
		print_string(o, PRINT_ANY, "error", ": %s\n", c->failure);
		close_json_object(o);
	}
	for (i = 0; i < b->n_targets; i++)
		if (b->targets[i].info->note[0])
			print_text(o, "note %s: %s\n", b->targets[i].name,
				   b->targets[i].info->note);
	print_section_close(o);
}

static enum opt_result parse_compare_args(struct compare *c, int argc,
					  char **argv)
{
	struct load_args *a = &c->args;
	struct opt opts[LOAD_COMMON_OPTS + 7];
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
	opts[n++] = (struct opt){ .name = "turn",
				  .kind = OPT_UINT,
				  .value = &c->turn,
				  .min = 1,
				  .max = LOAD_ROUNDS_MAX };
	opts[n++] = (struct opt){ .name = "samples",
				  .kind = OPT_STRING,
				  .value = &c->samples };
	opts[n++] = (struct opt){ .name = "first-round",
				  .kind = OPT_UINT,
				  .value = &c->first_round,
				  .max = LOAD_ROUNDS_MAX };
	return opt_parse("compare", opts, n, OPT_STYLE_DASHES, argc, argv);
}

/*
 * Like work: a device that acks a command as redundant (vdpa_sim_batch,
 * for one that changes nothing) skips its work, where stock redoes every
 * one; its times are then not of the same work. A warning, and the count
 * in the JSON for scripts to judge: profiles that repeat the state a
 * device holds (one MAC, the same VLANs) do this by design.
 */
static void warn_unlike_work(const struct compare *c)
{
	uint64_t n = bench_redundant_commands(c->bench);

	if (n)
		pr_warn("compare: the devices acked %" PRIu64
			" commands as redundant, without work (\"" BENCH_REDUNDANT_STAT
			"\"): not the same work as a device that does each",
			n);
}

/* --samples: the raw timings, for statistics beyond this report. */
static int write_samples(const struct compare *c)
{
	FILE *f = fopen(c->samples, "w");
	int err;

	if (!f)
		return pr_errno(errno, "compare: --samples %s", c->samples);
	err = bench_write_samples(c->bench, f);
	if (fclose(f) && !err)
		err = -errno;
	return err ? pr_errno(-err, "compare: writing --samples %s",
			      c->samples) :
		     0;
}

/* Each device gets its start MAC back; failures are printed. */
static int restore_macs(struct compare *c)
{
	unsigned int i;
	bool restored;
	int err = 0;

	for (i = 0; i < c->bench->n_targets; i++)
		if (c->bench->targets[i].session &&
		    load_session_restore_mac(c->bench->targets[i].session,
					     &restored))
			err = -EIO;
	return err;
}

static void release(struct compare *c)
{
	unsigned int i;

	for (i = 0; c->bench && i < c->bench->n_targets; i++)
		load_session_close(c->bench->targets[i].session);
	bench_destroy(c->bench);
	free(c);
}

int cmd_compare(struct vdpactl *ctx, int argc, char **argv)
{
	struct compare *c;
	int status = CMD_FAIL, err;

	if (interrupt_install())
		return CMD_FAIL;
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
		status = cmd_usage_error(
			compare_usage,
			"compare: --csv and -j exclude each other");
		goto out;
	}
	if (!load_args_valid("compare", &c->args, compare_usage)) {
		status = CMD_USAGE;
		goto out;
	}
	if (!c->turn)
		c->turn = 1;
	if ((uint64_t)c->args.cfg.rounds * c->turn > LOAD_ROUNDS_MAX) {
		status = cmd_usage_error(
			compare_usage,
			"compare: --rounds %u x --turn %u: more than %u loads per device and mode",
			c->args.cfg.rounds, c->turn, LOAD_ROUNDS_MAX);
		goto out;
	}
	if (load_resolve_targets(ctx, &c->args, c->targets, &c->n_targets))
		goto out;
	if (!find_baseline(c)) {
		status = cmd_usage_error(
			compare_usage,
			"compare: --baseline %s is not among the compared devices",
			c->baseline_name);
		goto out;
	}
	if (create_bench(ctx, c) || open_all(ctx, c) ||
	    bench_check_alike(c->bench))
		goto out;
	err = load_bench_run(&c->link, "compare", &c->interrupted, c->failure,
			     sizeof(c->failure));
	if (err) {
		/* Keep the whole rounds before the failure, if any. */
		if (!c->bench->rounds_done) {
			if (c->interrupted)
				pr_err("compare: %s before a whole round",
				       c->failure);
			goto out;
		}
		c->failed = true;
	}
	/* Every row against the baseline device's serial run. */
	if (bench_summarize(c->bench, (int)(c->baseline * MODES)))
		goto out;
	if (c->samples && write_samples(c))
		goto out;
	if (c->args.csv)
		print_csv(ctx->out.f, c);
	else
		print_table(&ctx->out, c);
	warn_unlike_work(c);
	ctx->keep_output = true;
	status = c->failed ? CMD_FAIL : CMD_OK;
out:
	/* After any load, the warm-up's included; a MAC not put back fails. */
	if (c->args.cfg.restore_mac && c->bench && restore_macs(c) &&
	    status == CMD_OK)
		status = CMD_FAIL;
	if (c->interrupted)
		status = interrupt_status();
	release(c);
	return status;
}
