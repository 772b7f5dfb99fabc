// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "stats DEV": a queue's vendor statistics, printed as iproute2's
 * "vdpa dev vstats show" prints them, for the control queue by default.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "feature_names.h"
#include "log.h"
#include "opt.h"
#include "vdpactl.h"

static void stats_usage(void)
{
	fprintf(stderr,
		"Usage: " PROG_NAME " stats DEV [ qidx QUEUE_INDEX ]\n"
		"The default queue is the control virtqueue. The kernel has\n"
		"statistics only while a driver has negotiated features.\n");
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

	print_section_open(o, "vstats");
	print_handle_open(o, s->dev_name);
	if (s->device_id == VIRTIO_ID_NET)
		print_string(o, PRINT_ANY, "queue_type", "queue_type %s ",
			     queue_type(s));
	for (i = 0; i < s->n; i++)
		print_named_u64(o, s->entries[i].name, s->entries[i].value);
	print_handle_close(o);
	print_section_close(o);
}

static int config_cvq_index(const struct vdpa_dev_config *cfg, void *data)
{
	uint32_t *qidx = data;

	if (cfg->negotiated_features & BIT_ULL(VIRTIO_NET_F_CTRL_VQ))
		*qidx = net_cvq_index(cfg->negotiated_features, cfg->max_vqp);
	return 0;
}

int cmd_stats(struct vdpactl *ctx, int argc, char **argv)
{
	unsigned int qidx = 2;
	bool has_qidx = false;
	const struct opt opts[] = {
		{ .name = "qidx",
		  .kind = OPT_UINT,
		  .value = &qidx,
		  .max = 2 * VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MAX,
		  .given = &has_qidx },
	};
	struct vdpa_vstats stats;
	struct vdpa_client *nl;
	uint32_t index = 2;
	const char *dev;
	int err;

	if (argc == 0) {
		stats_usage();
		return CMD_USAGE;
	}
	dev = argv[0];
	if (!strcmp(dev, "help") || !strcmp(dev, "-h") ||
	    !strcmp(dev, "--help")) {
		stats_usage();
		return CMD_OK;
	}
	switch (opt_parse("stats", opts, ARRAY_SIZE(opts), OPT_STYLE_KEYWORDS,
			  argc - 1, argv + 1)) {
	case OPT_HELP:
		stats_usage();
		return CMD_OK;
	case OPT_ERROR:
		return CMD_USAGE;
	case OPT_OK:
		break;
	}
	if (vdpactl_netlink(ctx, &nl))
		return CMD_FAIL;
	if (has_qidx)
		index = qidx;
	else
		vdpa_client_config_get(nl, dev, config_cvq_index, &index);

	err = vdpa_client_vstats_get(nl, dev, index, &stats);
	if (err == -EAGAIN) {
		pr_err("stats %s: %s (no driver has negotiated features yet)",
		       dev, strerror(EAGAIN));
		return CMD_FAIL;
	}
	if (err) {
		vdpa_client_report(nl, err, "stats %s qidx %" PRIu32, dev,
				   index);
		return CMD_FAIL;
	}
	print_vstats(&ctx->out, &stats);
	return CMD_OK;
}
