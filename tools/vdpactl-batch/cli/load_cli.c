// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared pieces of the "load" and "compare" commands.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/interrupt.h"
#include "cli/load_cli.h"
#include "cli/log.h"
#include "lib/util.h"
#include "lib/vring.h"

void load_args_init(struct load_args *a)
{
	*a = (struct load_args){
		.cfg = {
			.rounds = LOAD_DEFAULT_ROUNDS,
			.timeout_ms = LOAD_DEFAULT_TIMEOUT_MS,
			.mode = LOAD_MODE_SERIAL,
			.kick = LOAD_KICK_EACH,
			.wait = LOAD_WAIT_POLL,
			.profile = LOAD_PROFILE_MAC,
		},
	};
}

size_t load_common_opts(struct load_args *a, struct opt *opts)
{
	struct load_config *cfg = &a->cfg;
	const struct opt common[LOAD_COMMON_OPTS] = {
		{ .name = "count",
		  .kind = OPT_UINT,
		  .value = &cfg->count,
		  .min = 1,
		  .max = LOAD_COUNT_MAX,
		  .required = true },
		{ .name = "rounds",
		  .kind = OPT_UINT,
		  .value = &cfg->rounds,
		  .min = 1,
		  .max = LOAD_ROUNDS_MAX },
		{ .name = "kick",
		  .kind = OPT_CHOICE,
		  .value = &cfg->kick,
		  .choices = load_kick_names },
		{ .name = "wait",
		  .kind = OPT_CHOICE,
		  .value = &cfg->wait,
		  .choices = load_wait_names },
		{ .name = "profile",
		  .kind = OPT_CHOICE,
		  .value = &cfg->profile,
		  .choices = load_profile_names },
		{ .name = "asid", .kind = OPT_FLAG, .value = &cfg->asid },
		{ .name = "timeout",
		  .kind = OPT_UINT,
		  .value = &cfg->timeout_ms,
		  .min = 1,
		  .max = LOAD_TIMEOUT_MS_MAX },
		{ .name = "ring",
		  .kind = OPT_CHOICE,
		  .value = &cfg->ring,
		  .choices = load_ring_names },
		{ .name = "ring-size",
		  .kind = OPT_UINT,
		  .value = &cfg->ring_size,
		  .min = 2,
		  .max = VQ_MAX_NUM },
		{ .name = "cold", .kind = OPT_FLAG, .value = &cfg->cold },
		{ .name = "trace-marks",
		  .kind = OPT_FLAG,
		  .value = &cfg->trace_marks },
		{ .name = "restore-mac",
		  .kind = OPT_FLAG,
		  .value = &cfg->restore_mac },
	};

	memcpy(opts, common, sizeof(common));
	return LOAD_COMMON_OPTS;
}

bool load_args_valid(const char *cmd, const struct load_args *a,
		     void (*usage_fn)(void))
{
	const struct load_config *cfg = &a->cfg;
	unsigned int i, j;

	/* Whole names: a copy to a name buffer must not cut one. */
	for (i = 0; i < a->n_devs; i++) {
		if (!vdpa_name_valid(a->devs[i])) {
			cmd_usage_error(
				usage_fn,
				"%s: --dev \"%s\" is not a vdpa device name (1 to %d characters, no '/')",
				cmd, a->devs[i], VDPA_NAME_LEN - 1);
			return false;
		}
		/* In the words of "load", whose --dev is given once. */
		for (j = 0; j < i; j++) {
			if (!strcmp(a->devs[i], a->devs[j])) {
				cmd_usage_error(usage_fn,
						"%s: --dev %s given twice", cmd,
						a->devs[i]);
				return false;
			}
		}
	}

	/*
	 * A packed ring may have any size, but vhost's VHOST_SET_VRING_NUM
	 * refuses one that is not a power of 2, whatever the format.
	 */
	if (cfg->ring_size && !is_power_of_2(cfg->ring_size)) {
		cmd_usage_error(
			usage_fn,
			"%s: --ring-size %u is not a power of 2, which vhost needs (VHOST_SET_VRING_NUM), on either ring format",
			cmd, cfg->ring_size);
		return false;
	}
	return true;
}

static int list_targets(struct vdpactl *ctx, const struct load_args *a,
			char (*names)[VDPA_NAME_LEN], unsigned int *n)
{
	unsigned int i, found;
	int err;

	if (a->n_devs) {
		for (i = 0; i < a->n_devs; i++)
			snprintf(names[i], VDPA_NAME_LEN, "%s", a->devs[i]);
		*n = a->n_devs;
		return 0;
	}
	err = vdpa_list_vhost_counted(&ctx->roots, names, LOAD_DEVS_MAX, n,
				      &found);
	if (err || *n == 0) {
		pr_err("no vdpa device is bound to %s", VDPA_VHOST_DRIVER);
		return -ENODEV;
	}
	if (found > *n)
		pr_warn("%u devices are bound to %s; using the first %u (%s to %s), name others with --dev",
			found, VDPA_VHOST_DRIVER, *n, names[0], names[*n - 1]);
	return 0;
}

static int remember_mgmtdev(const struct vdpa_dev_info *info, void *data)
{
	struct load_target *t = data;

	if (info->mgmtdev_bus[0])
		snprintf(t->mgmtdev, sizeof(t->mgmtdev), "%s/%s",
			 info->mgmtdev_bus, info->mgmtdev_name);
	else
		snprintf(t->mgmtdev, sizeof(t->mgmtdev), "%s",
			 info->mgmtdev_name);
	return 0;
}

int load_resolve_targets(struct vdpactl *ctx, const struct load_args *a,
			 struct load_target *targets, unsigned int *n)
{
	char names[LOAD_DEVS_MAX][VDPA_NAME_LEN];
	struct vdpa_client *nl;
	unsigned int i;
	int err;

	err = list_targets(ctx, a, names, n);
	if (err)
		return err;
	for (i = 0; i < *n; i++) {
		err = vdpa_locate_vhost(&ctx->roots, names[i], &targets[i].loc);
		if (err)
			return err;
		/* Only for the report: a load needs no netlink. */
		snprintf(targets[i].mgmtdev, sizeof(targets[i].mgmtdev), "?");
		if (!vdpactl_netlink_quiet(ctx, &nl))
			vdpa_client_dev_get(nl, names[i], remember_mgmtdev,
					    &targets[i]);
	}
	/* Once, and as what it is: a note, not an error. */
	if (ctx->nl.err && !ctx->nl.told) {
		fprintf(stderr,
			"note: %s; the report has no management device and no vendor counters\n",
			ctx->nl.why);
		ctx->nl.told = true;
	}
	return 0;
}

int load_read_vstats(struct vdpactl *ctx, const char *dev, uint32_t qidx,
		     struct vdpa_vstats *stats)
{
	struct vdpa_client *nl;

	if (!ctx->nl.open)
		return -ENOTCONN;
	nl = &ctx->nl.client;
	return vdpa_client_vstats_get(nl, dev, qidx, stats);
}

static int run_session(void *s, enum load_mode mode, const unsigned int *order,
		       unsigned int n, uint64_t *elapsed_ns)
{
	if (!order)
		return load_session_run(s, mode, elapsed_ns);
	return load_session_run_some(s, mode, order, n, elapsed_ns);
}

static const struct load_counters *session_counters(const void *s)
{
	return load_session_counters(s);
}

static void set_session_mark(void *s, int slot)
{
	load_session_set_mark(s, slot);
}

const struct bench_session_ops load_bench_ops = {
	.run = run_session,
	.counters = session_counters,
	.set_mark = set_session_mark,
};

int load_bench_vstats(void *link, unsigned int target,
		      struct vdpa_vstats *stats)
{
	struct load_bench_link *l = link;
	const struct bench_target *t = &l->bench->targets[target];

	return load_read_vstats(l->ctx, t->name, t->info->cvq_index, stats);
}

void load_bench_progress(void *link, unsigned int done, unsigned int rounds)
{
	struct load_bench_link *l = link;

	(void)rounds;
	progress_update(&l->progress, done, progress_now_ns());
}

int load_bench_run(struct load_bench_link *link, const char *what,
		   bool *interrupted, char *why, size_t len)
{
	int err;

	/* Only an error of this run may stand for what stopped it. */
	log_clear_last_error();
	progress_start(&link->progress,
		       progress_wanted(stderr, link->ctx->json) ? stderr : NULL,
		       what, link->bench->cfg.rounds, progress_now_ns());
	err = bench_run(link->bench);
	progress_end(&link->progress);
	*interrupted = err == -EINTR;
	if (*interrupted)
		snprintf(why, len, "interrupted by %s", interrupt_name());
	else if (err && log_last_error()[0])
		snprintf(why, len, "%s", log_last_error());
	else if (err)
		snprintf(why, len, "%s", strerror(-err));
	return err;
}
