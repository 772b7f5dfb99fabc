// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "load": runs R loads of N control commands on one device and reports
 * their timings and the device's own counters.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/load_cli.h"
#include "cli/load_extras.h"
#include "cli/load_report.h"
#include "cli/log.h"
#include "cli/vdpactl.h"

static void load_usage(void)
{
	fprintf(stderr,
		"Usage: " PROG_NAME
		" load --count N [ --dev NAME ] [ --rounds R ]\n"
		"                  [ --mode { serial | parallel } ]\n" LOAD_COMMON_SYNOPSIS
		"                  [ --skip-unchanged ] [ --trace ]\n"
		"       " PROG_NAME " load help\n" LOAD_LIMITS
		"NAME: a vdpa device bound to vhost_vdpa (default: the only one).\n"
		"--skip-unchanged: read the state after setup and send only the\n"
		"  commands that change it; loads left with nothing are not timed.\n"
		"--trace: record the vdpa_sim_batch trace events of the run.\n");
}

/* Timing samples of the loads that sent something. */
struct load_times {
	uint64_t *per_load; /* ns */
	uint64_t *per_command; /* ps: a load's ns * 1000 / its commands */
	uint64_t *cmds; /* ns: the commands' part of a cold load */
	unsigned int n;
};

static void free_times(struct load_times *t)
{
	free(t->per_load);
	free(t->per_command);
	free(t->cmds);
}

static int run_one(struct load_session *s, struct load_extras *x,
		   const struct load_config *cfg, struct load_times *t)
{
	const unsigned int *order;
	unsigned int n = load_extras_plan(x, s, cfg, &order);
	uint64_t cmds_before = load_session_counters(s)->cmds_ns;
	uint64_t ns;
	int err;

	if (!n)
		return 0;
	if (order)
		err = load_session_run_some(s, cfg->mode, order, n, &ns);
	else
		err = load_session_run(s, cfg->mode, &ns);
	if (err)
		return err;
	t->per_load[t->n] = ns;
	t->cmds[t->n] = load_session_counters(s)->cmds_ns - cmds_before;
	t->per_command[t->n++] = ns * 1000 / n;
	return 0;
}

/* Runs the rounds; the vstats are read while features are negotiated. */
static int run_rounds(struct vdpactl *ctx, struct load_session *s,
		      const struct load_args *a, struct load_report *r,
		      struct load_extras *x, struct load_times *times)
{
	const char *dev = r->target->loc.name;
	uint32_t qidx = load_session_info(s)->cvq_index;
	unsigned int round;
	int err;

	err = load_read_vstats(ctx, dev, qidx, &r->vstats_before);
	r->has_vstats = !err;
	if (err)
		load_vstats_note(r->vstats_note, sizeof(r->vstats_note), err);
	err = load_extras_begin(ctx, x, &a->cfg);
	if (err)
		return err;
	for (round = 0; !err && round < a->cfg.rounds; round++)
		err = run_one(s, x, &a->cfg, times);
	if (err && round > 1) {
		/* Keep what the good loads measured and say what failed. */
		r->failed = true;
		r->loads_done = round - 1;
		snprintf(r->failure, sizeof(r->failure), "%s", log_last_line());
		if (r->has_vstats) {
			r->has_vstats = false;
			snprintf(r->vstats_note, sizeof(r->vstats_note),
				 "not read after the failed load");
		}
		return 0;
	}
	if (!err)
		err = load_extras_end(ctx, x);
	if (err)
		return err;
	r->has_vring_base = !load_session_vring_base(s, &r->vring_base_device,
						     &r->vring_base_driver);
	if (r->has_vstats) {
		err = load_read_vstats(ctx, dev, qidx, &r->vstats_after);
		r->has_vstats = !err;
		if (err)
			load_vstats_note(r->vstats_note, sizeof(r->vstats_note),
					 err);
	}
	return 0;
}

/* Loads that sent nothing have no sample; with none at all, all is 0. */
static int summarize(struct load_report *r, const struct load_times *t)
{
	struct time_summary ps;
	int err;

	r->per_load_ns = (struct time_summary){ 0 };
	r->per_command_ns = (struct time_summary){ 0 };
	r->cmds_ns = (struct time_summary){ 0 };
	if (!t->n)
		return 0;
	err = time_summary_compute(t->per_load, t->n, &r->per_load_ns);
	if (!err)
		err = time_summary_compute(t->cmds, t->n, &r->cmds_ns);
	if (!err)
		err = time_summary_compute(t->per_command, t->n, &ps);
	if (err)
		return pr_errno(err, "timing statistics");
	time_summary_scale(&ps, 1000, &r->per_command_ns);
	return 0;
}

struct load_flags {
	bool skip_unchanged;
	bool trace;
};

static enum opt_result parse_load_args(struct load_args *a,
				       struct load_flags *f, int argc,
				       char **argv)
{
	enum opt_result result;
	struct opt opts[LOAD_COMMON_OPTS + 4];
	size_t n = load_common_opts(a, opts);

	opts[n++] = (struct opt){ .name = "dev",
				  .kind = OPT_STRING,
				  .value = &a->devs[0] };
	opts[n++] = (struct opt){ .name = "mode",
				  .kind = OPT_CHOICE,
				  .value = &a->cfg.mode,
				  .choices = load_mode_names };
	opts[n++] = (struct opt){ .name = "skip-unchanged",
				  .kind = OPT_FLAG,
				  .value = &f->skip_unchanged };
	opts[n++] = (struct opt){ .name = "trace",
				  .kind = OPT_FLAG,
				  .value = &f->trace };
	result = opt_parse("load", opts, n, OPT_STYLE_DASHES, argc, argv);
	a->n_devs = a->devs[0] ? 1 : 0;
	return result;
}

int cmd_load(struct vdpactl *ctx, int argc, char **argv)
{
	struct load_report report = { 0 };
	struct load_target targets[LOAD_DEVS_MAX];
	struct load_flags flags = { 0 };
	struct load_session *session;
	struct load_extras extras;
	struct load_times times;
	struct load_args a;
	unsigned int n_targets;
	int err, status;

	load_args_init(&a);
	if (argc == 0) {
		load_usage();
		return CMD_USAGE;
	}
	if (!cmd_opts_ok(parse_load_args(&a, &flags, argc, argv), load_usage,
			 &status))
		return status;
	if (!load_args_valid("load", &a))
		return CMD_USAGE;
	/* Its model of the device's state assumes loads back to back. */
	if (a.cfg.cold && flags.skip_unchanged) {
		pr_err("load: --cold and --skip-unchanged exclude each other (a cold load starts from the reset state)");
		return CMD_USAGE;
	}
	if (load_resolve_targets(ctx, &a, targets, &n_targets))
		return CMD_FAIL;
	if (n_targets > 1) {
		pr_err("load: %u devices are bound to %s; choose one with --dev",
		       n_targets, VDPA_VHOST_DRIVER);
		return CMD_USAGE;
	}
	times = (struct load_times){
		.per_load = calloc(a.cfg.rounds, sizeof(uint64_t)),
		.per_command = calloc(a.cfg.rounds, sizeof(uint64_t)),
		.cmds = calloc(a.cfg.rounds, sizeof(uint64_t)),
	};
	if (!times.per_load || !times.per_command || !times.cmds) {
		pr_errno(ENOMEM, "load: %u timing samples", a.cfg.rounds);
		free_times(&times);
		return CMD_FAIL;
	}
	load_extras_init(&extras, targets[0].loc.name, flags.skip_unchanged,
			 flags.trace);
	report.target = &targets[0];
	report.cfg = &a.cfg;
	report.extras = &extras;
	err = load_session_open(&session, targets[0].loc.name,
				targets[0].loc.chardev, &a.cfg, ctx->verbose);
	if (!err) {
		err = run_rounds(ctx, session, &a, &report, &extras, &times);
		if (!err)
			err = summarize(&report, &times);
		if (!err) {
			report.info = load_session_info(session);
			report.counters = load_session_counters(session);
			print_load_report(&ctx->out, &report);
		}
		if (report.failed)
			err = -EIO;
		load_session_close(session);
	}
	load_extras_free(&extras);
	free_times(&times);
	return err ? CMD_FAIL : CMD_OK;
}
