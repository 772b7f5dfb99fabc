// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "dev batching", "dev cost" and "dev state": a vdpa_sim_batch device's
 * completion settings, its CVQ cost model and its CVQ-visible state,
 * through the module's own family.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/dev_usage.h"
#include "cli/log.h"
#include "cli/opt.h"
#include "cli/vdpactl.h"
#include "cli/vsb_cmds.h"
#include "cli/vsb_print.h"
#include "netlink/vsb_client.h"

/* Devices "dev state" merges settings for; more are shown without them. */
#define DEV_STATE_MAX 64

static void dev_batching_help(void)
{
	usage_print(&dev_batching_usage, true, true);
}

static void dev_cost_help(void)
{
	usage_print(&dev_cost_usage, true, true);
}

static const char *const completion_names[] = {
	[VSB_COMPLETION_MODE_IMMEDIATE] = "immediate",
	[VSB_COMPLETION_MODE_BATCH] = "batch",
	NULL,
};

static int ignore_dev(const struct vdpa_dev_info *info, void *data)
{
	(void)info;
	(void)data;
	return 0;
}

/*
 * Does vdpa know @dev: 0 yes, -ENODEV no, another -errno if it could not
 * be asked (ctx->nl.why says why).
 */
static int vdpa_dev_known(struct vdpactl *ctx, const char *dev)
{
	struct vdpa_client *nl;
	int err = vdpactl_netlink_quiet(ctx, &nl);

	if (!err)
		err = vdpa_client_dev_get(nl, dev, ignore_dev, NULL);
	return err;
}

bool vsb_dev_missing(struct vdpactl *ctx, const char *what, const char *dev)
{
	int known = vdpa_dev_known(ctx, dev);

	if (known == -ENODEV) {
		pr_err("%s: no such vdpa device", what);
		return true;
	}
	/* Could not ask: say so, rather than "no such device". */
	if (known) {
		pr_err("%s: could not ask whether the device exists: %s", what,
		       ctx->nl.why[0] ? ctx->nl.why : strerror(-known));
		return true;
	}
	return false;
}

int vsb_open_for(struct vdpactl *ctx, const char *what, const char *dev,
		 struct vdpa_client **vsb)
{
	int err = vdpactl_vsb(ctx, vsb);

	if (err == -ENOENT)
		pr_err("%s %s: not offered by this device (%s)", what, dev,
		       ctx->vsb.why);
	else if (err)
		pr_err("%s %s: %s", what, dev, ctx->vsb.why);
	return err;
}

static int show_settings(struct vdpactl *ctx, const char *what, const char *dev,
			 bool cost_only);

/* A name the module could not hold is no device of it. */
static bool set_dev_name(struct vsb_dev_settings *set, const char *what,
			 const char *dev)
{
	if (str_copy(set->name, sizeof(set->name), dev))
		return true;
	pr_err("%s %s: no such device (a vdpa name has at most %zu characters)",
	       what, dev, sizeof(set->name) - 1);
	return false;
}

int cmd_dev_batching(struct vdpactl *ctx, const char *what, int argc,
		     char **argv)
{
	int completion = 0;
	unsigned int limit = 0;
	bool has_completion = false, has_limit = false;
	/* batch-limit: the old spelling ("dev set DEV ... batch-limit N"). */
	const struct opt opts[] = {
		{ .name = "completion",
		  .kind = OPT_CHOICE,
		  .value = &completion,
		  .choices = completion_names,
		  .given = &has_completion },
		{ .name = "batch_limit",
		  .alias = "batch-limit",
		  .kind = OPT_UINT,
		  .value = &limit,
		  .max = UINT32_MAX,
		  .given = &has_limit },
	};

	struct vsb_dev_settings set = { 0 };
	struct vdpa_client *vsb;
	const char *dev;
	int err, status;

	if (usage_words_wrong(&dev_batching_usage, what, argc, argv, 1, argc,
			      "DEV", &status))
		return status;
	dev = argv[0];
	if (!cmd_opts_ok(opt_parse(what, opts, ARRAY_SIZE(opts),
				   OPT_STYLE_KEYWORDS, argc - 1, argv + 1),
			 dev_batching_help, &status))
		return status;
	if (!has_completion && !has_limit) {
		if (!strcmp(what, "dev batching"))
			return show_settings(ctx, what, dev, false);
		return usage_error(
			&dev_batching_usage, what,
			"%s: nothing to set (completion or batch_limit)", dev);
	}
	if (!set_dev_name(&set, what, dev) ||
	    vsb_open_for(ctx, what, dev, &vsb))
		return CMD_FAIL;
	if (has_completion) {
		set.present |= 1ULL << VSB_A_COMPLETION;
		set.completion = (uint8_t)completion;
	}
	if (has_limit) {
		set.present |= 1ULL << VSB_A_BATCH_LIMIT;
		set.batch_limit = limit;
	}
	err = vsb_client_dev_set(vsb, &set);
	if (err) {
		vdpa_client_report(vsb, err, "%s %s", what, dev);
		return CMD_FAIL;
	}
	return CMD_OK;
}

/* One DEV_GET reply, shown; @cost_only: just the cost model. */
struct show_settings_ctx {
	struct output *out;
	bool cost_only;
	bool no_cost; /* the device reported no cost model */
};

static int show_one(const struct vsb_dev_settings *dev, void *data)
{
	struct show_settings_ctx *s = data;

	if (s->cost_only && !nl_has(dev->present, VSB_A_COST)) {
		s->no_cost = true;
		return 0;
	}
	print_handle_open(s->out, dev->name);
	if (s->cost_only)
		print_vsb_cost(s->out, &dev->cost);
	else
		print_vsb_settings(s->out, dev);
	print_handle_close(s->out);
	return 0;
}

/*
 * "dev batching DEV" and "dev cost DEV": the device's settings, under
 * the section "dev" as iproute2 shows a device ({"dev": {"DEV": {...}}}).
 */
static int show_settings(struct vdpactl *ctx, const char *what, const char *dev,
			 bool cost_only)
{
	struct show_settings_ctx s = {
		.out = &ctx->out,
		.cost_only = cost_only,
	};
	struct vdpa_client *vsb;
	int err;

	if (vsb_open_for(ctx, what, dev, &vsb))
		return CMD_FAIL;
	print_section_open(&ctx->out, "dev");
	err = vsb_client_dev_get(vsb, dev, show_one, &s);
	print_section_close(&ctx->out);
	if (err) {
		vdpa_client_report(vsb, err, "%s %s", what, dev);
		return CMD_FAIL;
	}
	if (s.no_cost) {
		pr_err("%s %s: the device reports no cost model (a vdpa_sim_batch module older than it?)",
		       what, dev);
		return CMD_FAIL;
	}
	return CMD_OK;
}

int cmd_dev_cost(struct vdpactl *ctx, int argc, char **argv)
{
	static const char *const on_off[] = { "off", "on", NULL };
	uint64_t ns[VSB_COST_MAX + 1] = { 0 };
	bool given[VSB_COST_MAX + 1] = { false };
	struct opt opts[VSB_COST_MAX];
	struct vsb_dev_settings set = { 0 };
	struct vdpa_client *vsb;
	unsigned int i, n = 0;
	const char *what = "dev cost", *dev;
	int precise = 0, err, status;

	for (i = VSB_COST_FIRST_NS; i <= VSB_COST_LAST_NS; i++)
		opts[n++] = (struct opt){ .name = vsb_cost_name(i),
					  .kind = OPT_TIME,
					  .value = &ns[i],
					  .max = VSB_COST_MAX_NS,
					  .given = &given[i] };
	opts[n++] = (struct opt){ .name = vsb_cost_name(VSB_COST_PRECISE),
				  .kind = OPT_CHOICE,
				  .value = &precise,
				  .choices = on_off,
				  .given = &given[VSB_COST_PRECISE] };

	if (usage_words_wrong(&dev_cost_usage, what, argc, argv, 1, argc, "DEV",
			      &status))
		return status;
	dev = argv[0];
	if (!cmd_opts_ok(opt_parse(what, opts, n, OPT_STYLE_KEYWORDS, argc - 1,
				   argv + 1),
			 dev_cost_help, &status))
		return status;
	for (i = VSB_COST_FIRST_NS; i <= VSB_COST_LAST_NS; i++)
		if (given[i])
			vsb_cost_set(&set.cost, i, (uint32_t)ns[i]);
	if (given[VSB_COST_PRECISE])
		vsb_cost_set(&set.cost, VSB_COST_PRECISE, (uint32_t)precise);
	if (!set.cost.present)
		return show_settings(ctx, what, dev, true);

	if (!set_dev_name(&set, what, dev) ||
	    vsb_open_for(ctx, what, dev, &vsb))
		return CMD_FAIL;
	set.present = 1ULL << VSB_A_COST;
	err = vsb_client_dev_set(vsb, &set);
	if (err) {
		vdpa_client_report(vsb, err, "%s %s", what, dev);
		return CMD_FAIL;
	}
	return show_settings(ctx, what, dev, true);
}

/* DEV_GET's answers, kept to be printed beside each STATE_GET reply. */
struct dev_state_ctx {
	struct vdpactl *ctx;
	struct vsb_dev_settings settings[DEV_STATE_MAX];
	unsigned int n;
};

static int keep_settings(const struct vsb_dev_settings *dev, void *data)
{
	struct dev_state_ctx *d = data;

	if (d->n < DEV_STATE_MAX)
		d->settings[d->n++] = *dev;
	return 0;
}

static int print_state(const struct vsb_state *st, void *data)
{
	struct dev_state_ctx *d = data;
	struct output *o = &d->ctx->out;
	unsigned int i;

	print_handle_open(o, st->name);
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->settings[i].name, st->name))
			print_vsb_settings(o, &d->settings[i]);
	print_vsb_state(o, st);
	print_handle_close(o);
	return 0;
}

/* Not a module device (or no module): a note, unless there is no such device. */
static int state_absent(struct vdpactl *ctx, const struct vdpa_client *vsb,
			const char *dev, int err)
{
	char what[DIAG_LINE_LEN];

	if (dev) {
		snprintf(what, sizeof(what), "dev state %s", dev);
		if (vsb_dev_missing(ctx, what, dev))
			return CMD_FAIL;
	}
	vsb_note_absent(ctx, vsb, dev ? dev : "dev state", "state", err, NULL);
	return CMD_OK;
}

int cmd_dev_state(struct vdpactl *ctx, int argc, char **argv)
{
	const char *dev = argc ? argv[0] : NULL;
	struct dev_state_ctx d = { .ctx = ctx };
	struct vdpa_client *vsb;
	int err, status;

	if (usage_words_wrong(&dev_state_usage, "dev state", argc, argv, 0, 1,
			      "DEV", &status))
		return status;
	print_section_open(&ctx->out, "state");
	err = vdpactl_vsb(ctx, &vsb);
	if (err) {
		status = state_absent(ctx, NULL, dev, err);
		print_section_close(&ctx->out);
		return status;
	}
	err = vsb_client_dev_get(vsb, dev, keep_settings, &d);
	if (!err)
		err = vsb_client_state_get(vsb, dev, print_state, &d);
	print_section_close(&ctx->out);
	if (err == -ENODEV && dev)
		return state_absent(ctx, vsb, dev, err);
	if (err) {
		vdpa_client_report(vsb, err, "dev state%s%s", dev ? " " : "",
				   dev ? dev : "");
		return CMD_FAIL;
	}
	return CMD_OK;
}

void vsb_note_absent(const struct vdpactl *ctx,
		     const struct vdpa_client *client, const char *dev,
		     const char *what, int err, const char *consequence)
{
	char why[NL_EXTACK_LEN + 64];

	if (!client && ctx->vsb.err)
		snprintf(why, sizeof(why), "%s", ctx->vsb.why);
	else if (client && client->nl.extack[0])
		snprintf(why, sizeof(why), "%s: %s", strerror(-err),
			 client->nl.extack);
	else
		snprintf(why, sizeof(why), "%s", strerror(-err));
	fprintf(stderr, "%s: %s not offered by this device (%s)%s%s\n", dev,
		what, why, consequence ? "; " : "",
		consequence ? consequence : "");
}
