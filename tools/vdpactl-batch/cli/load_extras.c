// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --skip-unchanged, --trace and the end state of "load".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/load_extras.h"
#include "cli/log.h"
#include "cli/vsb_cmds.h"
#include "netlink/vsb_client.h"

/* Per command: its own event plus at most one kick and one batch. */
#define TRACE_EVENTS_PER_COMMAND 3
#define TRACE_EVENTS_SLACK 256

void load_extras_init(struct load_extras *x, const char *dev, bool skip,
		      bool trace)
{
	*x = (struct load_extras){ .dev = dev };
	x->skip.on = skip;
	x->trace.on = trace;
	ctrl_model_init(&x->skip.model);
	trace_tally_init(&x->trace.tally, dev);
}

static int keep_state(const struct vsb_state *st, void *data)
{
	*(struct vsb_state *)data = *st;
	return 0;
}

/* STATE_GET of the device; quiet; the client for a note, if any. */
static int read_state(struct vdpactl *ctx, const char *dev,
		      struct vsb_state *st, struct vdpa_client **client)
{
	int err;

	*client = NULL;
	err = vdpactl_vsb(ctx, client);
	if (err) {
		*client = NULL;
		return err;
	}
	return vsb_client_state_get(*client, dev, keep_state, st);
}

static int keep_config_mac(const struct vdpa_dev_config *cfg, void *data)
{
	struct ctrl_model *m = data;

	if (nl_has(cfg->present, VDPA_ATTR_DEV_NET_CFG_MACADDR))
		ctrl_model_set_mac(m, cfg->mac);
	return 0;
}

static int seed_model(struct vdpactl *ctx, struct load_extras *x,
		      const struct vsb_state *st, int state_err,
		      struct vdpa_client *vsb)
{
	struct load_skip *k = &x->skip;
	struct vdpa_client *nl;
	int err;

	if (!state_err) {
		ctrl_model_set_state(&k->model, st);
		k->from_module = true;
		return 0;
	}
	vsb_note_absent(ctx, vsb, x->dev, "module state", state_err,
			"--skip-unchanged uses the config space MAC only");
	err = vdpactl_netlink(ctx, &nl);
	if (!err)
		err = vdpa_client_config_get(nl, x->dev, keep_config_mac,
					     &k->model);
	if (err)
		return vdpa_client_report(nl, err, "%s: read the config space",
					  x->dev);
	return 0;
}

static void start_trace(struct vdpactl *ctx, struct load_extras *x,
			const struct load_config *cfg, int state_err,
			struct vdpa_client *vsb)
{
	uint64_t events =
		(uint64_t)cfg->count * cfg->rounds * TRACE_EVENTS_PER_COMMAND +
		TRACE_EVENTS_SLACK;
	char why[128];
	int err;

	if (state_err) {
		vsb_note_absent(ctx, vsb, x->dev, "tracing", state_err, NULL);
		return;
	}
	err = trace_instance_start(&x->trace.inst, ctx->roots.sys, events, why,
				   sizeof(why));
	if (err == -ENOENT)
		fprintf(stderr, "%s: tracing not offered by this device (%s)\n",
			x->dev, why);
	x->trace.recording = !err;
}

int load_extras_begin(struct vdpactl *ctx, struct load_extras *x,
		      const struct load_config *cfg)
{
	struct vdpa_client *vsb;
	struct vsb_state st;
	int state_err = read_state(ctx, x->dev, &st, &vsb);
	int err;

	x->module_device = !state_err;
	if (x->skip.on) {
		x->skip.order = calloc(cfg->count, sizeof(*x->skip.order));
		if (!x->skip.order)
			return pr_errno(ENOMEM, "%s: skip plan", x->dev);
		err = seed_model(ctx, x, &st, state_err, vsb);
		if (err)
			return err;
	}
	if (x->trace.on)
		start_trace(ctx, x, cfg, state_err, vsb);
	return 0;
}

/* What the last load's acks say it did: a NACK changed nothing. */
static void skip_settle(struct load_skip *k, const struct load_session *s)
{
	if (k->unsettled)
		ctrl_model_settle(&k->model, &k->before,
				  load_session_commands(s), k->order,
				  k->last_sent, load_session_acks(s));
	k->unsettled = false;
}

/*
 * Does the client's model still agree with the device (a command the
 * device refused must have left both alone)?
 */
static void skip_check(struct load_skip *k, const struct load_session *s,
		       const struct vsb_state *end)
{
	struct ctrl_model dev;

	skip_settle(k, s);
	ctrl_model_init(&dev);
	ctrl_model_set_state(&dev, end);
	k->differs = ctrl_model_differs(&k->model, &dev);
	k->checked = true;
}

unsigned int load_extras_plan(struct load_extras *x,
			      const struct load_session *s, unsigned int count,
			      const unsigned int **order)
{
	struct load_skip *k = &x->skip;
	unsigned int n, skipped;

	if (!k->on) {
		*order = NULL;
		return count;
	}
	skip_settle(k, s);
	k->before = k->model;
	n = ctrl_model_plan(&k->model, load_session_commands(s), count,
			    k->order);
	k->last_sent = n;
	k->unsettled = true;
	skipped = count - n;
	if (!k->loads) {
		k->skipped_first = skipped;
		k->skipped_min = skipped;
	}
	if (skipped < k->skipped_min)
		k->skipped_min = skipped;
	if (skipped > k->skipped_max)
		k->skipped_max = skipped;
	k->loads++;
	k->sent += n;
	k->skipped += skipped;
	if (!n)
		k->empty_loads++;
	*order = k->order;
	return n;
}

static void summarize_trace(struct load_trace *t)
{
	t->has_cmd_ns = !trace_summarize(&t->tally.cmd_ns, &t->cmd_ns);
	t->has_kick_ns = !trace_summarize(&t->tally.kick_ns, &t->kick_ns);
}

int load_extras_end(struct vdpactl *ctx, struct load_extras *x,
		    const struct load_session *s)
{
	struct vdpa_client *vsb;
	int err = 0;

	if (x->module_device)
		x->has_end_state =
			!read_state(ctx, x->dev, &x->end_state, &vsb);
	if (x->skip.on && x->has_end_state)
		skip_check(&x->skip, s, &x->end_state);
	if (x->trace.recording) {
		err = trace_instance_collect(&x->trace.inst, &x->trace.tally);
		trace_instance_remove(&x->trace.inst);
		x->trace.recording = false;
		x->trace.collected = !err;
		if (!err)
			summarize_trace(&x->trace);
	}
	return err;
}

void load_extras_free(struct load_extras *x)
{
	if (x->trace.recording)
		trace_instance_remove(&x->trace.inst);
	x->trace.recording = false;
	trace_tally_free(&x->trace.tally);
	free(x->skip.order);
	x->skip.order = NULL;
}
