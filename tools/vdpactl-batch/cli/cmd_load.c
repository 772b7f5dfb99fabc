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

#include "cli/interrupt.h"
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

/* --skip-unchanged: the engine asks the model before every load. */
static unsigned int plan_load(void *link, unsigned int target,
			      const unsigned int **order)
{
	struct load_bench_link *l = link;
	struct load_extras *x = l->data;

	return load_extras_plan(x, l->bench->targets[target].session,
				l->bench->cfg.count, order);
}

static int create_bench(struct vdpactl *ctx, const struct load_args *a,
			struct load_extras *x, struct load_bench_link *link)
{
	const struct bench_config bc = {
		.name = "load",
		.count = a->cfg.count,
		.rounds = a->cfg.rounds,
		.modes = { a->cfg.mode },
		.n_modes = 1,
		.cmds_times = a->cfg.cold,
		.stop = &interrupt_signal,
	};
	const struct bench_hooks hooks = {
		.arg = link,
		.read_vstats = load_bench_vstats,
		.plan = x->skip.on ? plan_load : NULL,
		.round_done = load_bench_progress,
	};

	*link = (struct load_bench_link){ .ctx = ctx, .data = x };
	return bench_create(&link->bench, &bc, &load_bench_ops, &hooks);
}

/*
 * The rounds, the extras around them and, unless a load failed, the ring
 * base. A load failing after others keeps what those measured.
 */
static int run_rounds(struct vdpactl *ctx, struct load_bench_link *link,
		      struct load_report *r, struct load_extras *x)
{
	struct bench *b = link->bench;
	const struct load_config *cfg = r->cfg;
	int err;

	err = load_extras_begin(ctx, x, cfg);
	if (err)
		return err;
	err = load_bench_run(link, "load", &r->interrupted, r->failure,
			     sizeof(r->failure));
	if (err && b->rounds_done) {
		r->failed = true;
		r->loads_done = b->rounds_done;
		return 0;
	}
	if (r->interrupted)
		pr_err("load: %s before a whole load", r->failure);
	if (!err)
		err = load_extras_end(ctx, x, b->targets[0].session);
	if (err)
		return err;
	r->has_vring_base = !load_session_vring_base(b->targets[0].session,
						     &r->vring_base_device,
						     &r->vring_base_driver);
	return 0;
}

/*
 * Commands the device refused fail the run, after its report: one line
 * naming the first, as a load that stops at it would, and how many more.
 */
static int nacks_fail(const char *dev, const struct load_nacks *n)
{
	const struct load_nack *first = &n->first[0];
	char more[64] = "";

	if (!n->count)
		return 0;
	if (n->count > 1)
		snprintf(more, sizeof(more),
			 ", and %" PRIu64 " more (the report names them)",
			 n->count - 1);
	pr_err("%s: load %" PRIu64 ", command %u (%s): device acked ERR (%u)%s",
	       dev, first->load, first->index, first->text,
	       (unsigned int)VIRTIO_NET_ERR, more);
	return -EIO;
}

/* The run's figures into the report; loads that sent nothing have none. */
static int fill_report(struct bench *b, struct load_report *r)
{
	const struct bench_target *t = &b->targets[0];
	const struct bench_run *run = &b->runs[0];
	int err = bench_summarize(b, -1);

	if (err)
		return err;
	r->info = t->info;
	r->counters = &run->total.counters;
	r->per_load_ns = run->per_load_ns;
	r->per_command_ns = run->per_command_ns;
	r->cmds_ns = run->per_load_cmds_ns;
	r->has_vstats = t->has_vstats && !r->failed;
	r->vstats_before = t->first;
	r->vstats_after = t->last;
	if (t->has_vstats && r->failed)
		snprintf(r->vstats_note, sizeof(r->vstats_note),
			 "not read after the %s",
			 r->interrupted ? "interruption" : "failed load");
	else if (!t->has_vstats)
		load_vstats_note(r->vstats_note, sizeof(r->vstats_note),
				 t->vstats_err);
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
	struct load_session *session = NULL;
	struct load_bench_link link;
	struct load_extras extras;
	struct load_args a;
	unsigned int n_targets;
	int err, status, mac_err = 0;

	load_args_init(&a);
	/* Bare, it lacks --count: the option parser says so. */
	if (interrupt_install())
		return CMD_FAIL;
	if (!cmd_opts_ok(parse_load_args(&a, &flags, argc, argv), load_usage,
			 &status))
		return status;
	if (!load_args_valid("load", &a, load_usage))
		return CMD_USAGE;
	/* A refused command is the device's answer: report it, go on. */
	a.cfg.continue_after_nack = true;
	/* Its model of the device's state assumes loads back to back. */
	if (a.cfg.cold && flags.skip_unchanged)
		return cmd_usage_error(
			load_usage,
			"load: --cold and --skip-unchanged exclude each other (a cold load starts from the reset state)");
	if (load_resolve_targets(ctx, &a, targets, &n_targets))
		return CMD_FAIL;
	if (n_targets > 1)
		return cmd_usage_error(
			load_usage,
			"load: %u devices are bound to %s; choose one with --dev",
			n_targets, VDPA_VHOST_DRIVER);
	load_extras_init(&extras, targets[0].loc.name, flags.skip_unchanged,
			 flags.trace);
	report.target = &targets[0];
	report.cfg = &a.cfg;
	report.extras = &extras;
	err = create_bench(ctx, &a, &extras, &link);
	if (!err)
		err = load_session_open(&session, targets[0].loc.name,
					targets[0].loc.chardev, &a.cfg,
					ctx->verbose);
	if (!err) {
		err = bench_add_target(link.bench, session, targets[0].loc.name,
				       load_session_info(session));
		if (!err)
			err = run_rounds(ctx, &link, &report, &extras);
		if (!err)
			err = fill_report(link.bench, &report);
		/*
		 * Whatever happened, the warm-up or the loads may have set
		 * MACs; the session refuses when its device state is unknown.
		 */
		if (a.cfg.restore_mac)
			mac_err = load_session_restore_mac(
				session, &report.mac_restored);
		/* Printed, the report stands whatever the status. */
		report.nacks = load_session_nacks(session);
		ctx->keep_output = !err;
		if (!err)
			print_load_report(&ctx->out, &report);
		if (report.failed)
			err = -EIO;
		if (!err)
			err = nacks_fail(targets[0].loc.name, report.nacks);
		if (!err)
			err = mac_err;
		load_session_close(session);
	}
	bench_destroy(link.bench);
	load_extras_free(&extras);
	if (report.interrupted)
		return interrupt_status();
	return err ? CMD_FAIL : CMD_OK;
}
