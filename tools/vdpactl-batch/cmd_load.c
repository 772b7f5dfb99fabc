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

#include "load_cli.h"
#include "load_report.h"
#include "log.h"
#include "vdpactl.h"

static void load_usage(void)
{
	fprintf(stderr,
		"Usage: " PROG_NAME
		" load --count N [ --dev NAME ] [ --rounds R ]\n"
		"                  [ --mode { serial | parallel } ]\n" LOAD_COMMON_SYNOPSIS
		"       " PROG_NAME " load help\n" LOAD_LIMITS
		"NAME: a vdpa device bound to vhost_vdpa (default: the only one).\n");
}

static void note_vstats(struct load_report *r, int err)
{
	if (err == -ENOTCONN)
		snprintf(r->vstats_note, sizeof(r->vstats_note),
			 "not read (no vdpa netlink)");
	else
		snprintf(r->vstats_note, sizeof(r->vstats_note),
			 "not offered by the device (%s)", strerror(-err));
}

/* Runs the rounds; the vstats are read while features are negotiated. */
static int run_rounds(struct vdpactl *ctx, struct load_session *s,
		      const struct load_args *a, struct load_report *r,
		      uint64_t *times)
{
	const char *dev = r->target->loc.name;
	uint32_t qidx = load_session_info(s)->cvq_index;
	unsigned int round;
	int err;

	err = load_read_vstats(ctx, dev, qidx, &r->vstats_before);
	r->has_vstats = !err;
	if (err)
		note_vstats(r, err);
	for (round = 0; round < a->cfg.rounds; round++) {
		err = load_session_run(s, a->cfg.mode, &times[round]);
		if (err)
			return err;
	}
	if (r->has_vstats) {
		err = load_read_vstats(ctx, dev, qidx, &r->vstats_after);
		r->has_vstats = !err;
		if (err)
			note_vstats(r, err);
	}
	return 0;
}

static int summarize(struct load_report *r, const uint64_t *times,
		     unsigned int rounds, unsigned int count)
{
	int err = time_summary_compute(times, rounds, &r->per_load_ns);

	if (err)
		return pr_errno(err, "timing statistics");
	time_summary_scale(&r->per_load_ns, count, &r->per_command_ns);
	return 0;
}

static enum opt_result parse_load_args(struct load_args *a, int argc,
				       char **argv)
{
	enum opt_result result;
	struct opt opts[LOAD_COMMON_OPTS + 2];
	size_t n = load_common_opts(a, opts);

	opts[n++] = (struct opt){ .name = "dev",
				  .kind = OPT_STRING,
				  .value = &a->devs[0] };
	opts[n++] = (struct opt){ .name = "mode",
				  .kind = OPT_CHOICE,
				  .value = &a->cfg.mode,
				  .choices = load_mode_names };
	result = opt_parse("load", opts, n, OPT_STYLE_DASHES, argc, argv);
	a->n_devs = a->devs[0] ? 1 : 0;
	return result;
}

int cmd_load(struct vdpactl *ctx, int argc, char **argv)
{
	struct load_report report = { 0 };
	struct load_target targets[LOAD_DEVS_MAX];
	struct load_session *session;
	struct load_args a;
	unsigned int n_targets;
	uint64_t *times;
	int err;

	load_args_init(&a);
	if (argc == 0) {
		load_usage();
		return CMD_USAGE;
	}
	switch (parse_load_args(&a, argc, argv)) {
	case OPT_HELP:
		load_usage();
		return CMD_OK;
	case OPT_ERROR:
		return CMD_USAGE;
	case OPT_OK:
		break;
	}
	if (load_resolve_targets(ctx, &a, targets, &n_targets))
		return CMD_FAIL;
	if (n_targets > 1) {
		pr_err("load: %u devices are bound to %s; choose one with --dev",
		       n_targets, VDPA_VHOST_DRIVER);
		return CMD_USAGE;
	}
	times = calloc(a.cfg.rounds, sizeof(*times));
	if (!times) {
		pr_errno(ENOMEM, "load: %u timing samples", a.cfg.rounds);
		return CMD_FAIL;
	}
	report.target = &targets[0];
	report.cfg = &a.cfg;
	err = load_session_open(&session, targets[0].loc.name,
				targets[0].loc.chardev, &a.cfg, ctx->verbose);
	if (!err) {
		err = run_rounds(ctx, session, &a, &report, times);
		if (!err)
			err = summarize(&report, times, a.cfg.rounds,
					a.cfg.count);
		if (!err) {
			report.info = load_session_info(session);
			report.counters = load_session_counters(session);
			print_load_report(&ctx->out, &report);
		}
		load_session_close(session);
	}
	free(times);
	return err ? CMD_FAIL : CMD_OK;
}
