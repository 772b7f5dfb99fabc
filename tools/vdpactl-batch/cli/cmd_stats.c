// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "stats DEV": a queue's vendor statistics, printed as iproute2's
 * "vdpa dev vstats show" prints them, for the control queue by default;
 * on a vdpa_sim_batch device also the module's counters and histograms.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/feature_print.h"
#include "cli/log.h"
#include "cli/opt.h"
#include "cli/vdpactl.h"
#include "cli/vsb_cmds.h"
#include "cli/vsb_print.h"
#include "netlink/vsb_client.h"

static void stats_usage(void)
{
	fprintf(stderr,
		"Usage: " PROG_NAME
		" stats DEV [ qidx QUEUE_INDEX ] [ reset ]\n"
		"The default queue is the control virtqueue. The kernel has\n"
		"vendor statistics only while a driver has negotiated features.\n"
		"A vdpa_sim_batch device also shows its module counters and\n"
		"histograms; reset zeroes them first (needs CAP_NET_ADMIN).\n");
}

static const char *queue_type(const struct vdpa_vstats *s)
{
	/* iproute2 says "rx" for the CVQ without MQ; this does not. */
	if ((s->negotiated_features & BIT_ULL(VIRTIO_NET_F_CTRL_VQ)) &&
	    s->queue_index == net_cvq_index(s->negotiated_features, s->max_vqp))
		return "control_vq";
	return s->queue_index & 1 ? "tx" : "rx";
}

static void print_vstats(struct output *o, const struct vdpa_vstats *s)
{
	unsigned int i;

	open_json_object(o, "vstats");
	print_handle_open(o, s->dev_name);
	if (s->device_id == VIRTIO_ID_NET)
		print_string(o, PRINT_ANY, "queue_type", "queue_type %s ",
			     queue_type(s));
	for (i = 0; i < s->n; i++)
		print_named_u64(o, s->entries[i].name, s->entries[i].value);
	print_handle_close(o);
	close_json_object(o);
}

static void print_module_stats(struct output *o, const struct vsb_stats *stats)
{
	open_json_object(o, "module");
	print_handle_open(o, stats->name);
	print_text(o, "module ");
	print_vsb_stats(o, stats);
	print_handle_close(o);
	close_json_object(o);
}

static int config_cvq_index(const struct vdpa_dev_config *cfg, void *data)
{
	uint32_t *qidx = data;

	if (cfg->negotiated_features & BIT_ULL(VIRTIO_NET_F_CTRL_VQ))
		*qidx = net_cvq_index(cfg->negotiated_features, cfg->max_vqp);
	return 0;
}

/* The module's side of a device: its statistics, or why there are none. */
struct module_side {
	bool have;
	struct vsb_stats stats;
	int absent_err; /* when !have */
	const struct vdpa_client *client; /* for the note's extack */
};

static int keep_stats(const struct vsb_stats *stats, void *data)
{
	((struct module_side *)data)->stats = *stats;
	return 0;
}

/*
 * "reset": the module's counters and the vendor counters it reports are
 * zeroed, before either is read. Only the module can; on another device
 * it fails, as "dev batching" does.
 */
static int reset_stats(struct vdpactl *ctx, const char *dev)
{
	char what[DIAG_LINE_LEN];
	struct vdpa_client *vsb;
	int err;

	if (vsb_open_for(ctx, "stats reset", dev, &vsb))
		return -ENOENT;
	err = vsb_client_stats_reset(vsb, dev);
	/* The module says ENODEV for any device it does not know. */
	snprintf(what, sizeof(what), "stats %s reset", dev);
	if (err == -ENODEV && !vsb_dev_missing(ctx, what, dev))
		pr_err("%s: not offered by this device (not a vdpa_sim_batch device)",
		       what);
	else if (err && err != -ENODEV)
		vdpa_client_report(vsb, err, "%s", what);
	return err;
}

/*
 * The module's counters. A device the module does not know (or no
 * module) is not an error; anything else is, printed.
 */
static int read_module_side(struct vdpactl *ctx, const char *dev,
			    struct module_side *m)
{
	struct vdpa_client *vsb;
	int err;

	*m = (struct module_side){ 0 };
	err = vdpactl_vsb(ctx, &vsb);
	if (err) {
		m->absent_err = err;
		return 0;
	}
	m->client = vsb;
	err = vsb_client_stats_get(vsb, dev, keep_stats, m);
	if (err == -ENODEV) {
		m->absent_err = err;
		return 0;
	}
	if (err)
		return vdpa_client_report(vsb, err, "stats %s", dev);
	m->have = true;
	return 0;
}

int cmd_stats(struct vdpactl *ctx, int argc, char **argv)
{
	return cmd_stats_as(ctx, argc, argv, "stats", stats_usage);
}

int cmd_stats_as(struct vdpactl *ctx, int argc, char **argv, const char *what,
		 void (*usage_fn)(void))
{
	unsigned int qidx = 2;
	bool has_qidx = false, reset = false;
	/* Keywords, as iproute2's; "--reset" is the old spelling. */
	const struct opt opts[] = {
		{ .name = "qidx",
		  .kind = OPT_UINT,
		  .value = &qidx,
		  .max = 2 * VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MAX,
		  .given = &has_qidx },
		{ .name = "reset",
		  .alias = "--reset",
		  .kind = OPT_FLAG,
		  .value = &reset },
	};
	struct module_side module;
	struct vdpa_client *nl;
	struct vdpa_vstats stats;
	uint32_t index = 2;
	const char *dev;
	int vs_err, status;

	if (argc == 0) {
		pr_err("%s: DEV expected", what);
		usage_fn();
		return CMD_USAGE;
	}
	dev = argv[0];
	if (opt_is_help(dev)) {
		usage_fn();
		return CMD_OK;
	}
	argc--;
	argv++;
	if (!cmd_opts_ok(opt_parse(what, opts, ARRAY_SIZE(opts),
				   OPT_STYLE_KEYWORDS, argc, argv),
			 usage_fn, &status))
		return status;
	if (vdpactl_netlink(ctx, &nl))
		return CMD_FAIL;
	/* Both sets are read after the reset, never one on each side. */
	if (reset && reset_stats(ctx, dev))
		return CMD_FAIL;
	if (has_qidx)
		index = qidx;
	else
		vdpa_client_config_get(nl, dev, config_cvq_index, &index);

	vs_err = vdpa_client_vstats_get(nl, dev, index, &stats);
	if (vs_err && vs_err != -EAGAIN) {
		vdpa_client_report(nl, vs_err, "stats %s qidx %" PRIu32, dev,
				   index);
		return CMD_FAIL;
	}
	if (read_module_side(ctx, dev, &module))
		return CMD_FAIL;
	/* A failing command says only why it fails, in one line. */
	if (vs_err && !module.have) {
		pr_err("stats %s: %s (no driver has negotiated features yet)",
		       dev, strerror(EAGAIN));
		return CMD_FAIL;
	}
	if (!module.have)
		vsb_note_absent(ctx, module.client, dev, "module statistics",
				module.absent_err, NULL);
	if (vs_err)
		fprintf(stderr,
			"%s: vendor statistics not shown: no driver has negotiated features\n",
			dev);

	open_json_object(&ctx->out, NULL);
	if (!vs_err)
		print_vstats(&ctx->out, &stats);
	if (module.have)
		print_module_stats(&ctx->out, &module.stats);
	close_json_object(&ctx->out);
	return CMD_OK;
}
