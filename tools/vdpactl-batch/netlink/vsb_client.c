// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdpa_sim_batch generic netlink client.
 */
#include <errno.h>
#include <stdio.h>

#include "netlink/vsb_client.h"

int vsb_client_open(struct vdpa_client *c)
{
	*c = (struct vdpa_client){ 0 };
	return nl_gen_open(&c->nl, VSB_GENL_NAME, VSB_GENL_VERSION);
}

union vsb_object_cb {
	vsb_dev_cb dev;
	vsb_stats_cb stats;
	vsb_state_cb state;
	vsb_faults_cb faults;
};

struct vsb_reply_ctx {
	struct vdpa_client *c;
	union vsb_object_cb cb;
	void *data;
};

/* Hands a parser's verdict and then the callback's on to libmnl. */
static int deliver(struct vsb_reply_ctx *ctx, int parsed, const char *what,
		   int (*call)(struct vsb_reply_ctx *ctx, const void *obj),
		   const void *obj)
{
	int ret;

	if (parsed) {
		ctx->c->bad_reply = what;
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	ret = call(ctx, obj);
	if (ret < 0) {
		errno = -ret;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static int call_dev(struct vsb_reply_ctx *ctx, const void *obj)
{
	return ctx->cb.dev(obj, ctx->data);
}

static int call_stats(struct vsb_reply_ctx *ctx, const void *obj)
{
	return ctx->cb.stats(obj, ctx->data);
}

static int call_state(struct vsb_reply_ctx *ctx, const void *obj)
{
	return ctx->cb.state(obj, ctx->data);
}

static int call_faults(struct vsb_reply_ctx *ctx, const void *obj)
{
	return ctx->cb.faults(obj, ctx->data);
}

static int dev_reply(const struct nlmsghdr *nlh, void *data)
{
	struct vsb_dev_settings dev;
	const char *what = NULL;
	int parsed = vsb_msg_parse_dev(nlh, &dev, &what);

	return deliver(data, parsed, what, call_dev, &dev);
}

static int stats_reply(const struct nlmsghdr *nlh, void *data)
{
	struct vsb_stats stats;
	const char *what = NULL;
	int parsed = vsb_msg_parse_stats(nlh, &stats, &what);

	return deliver(data, parsed, what, call_stats, &stats);
}

static int state_reply(const struct nlmsghdr *nlh, void *data)
{
	struct vsb_state state;
	const char *what = NULL;
	int parsed = vsb_msg_parse_state(nlh, &state, &what);

	return deliver(data, parsed, what, call_state, &state);
}

static int faults_reply(const struct nlmsghdr *nlh, void *data)
{
	struct vsb_fault_rules rules;
	const char *what = NULL;
	int parsed = vsb_msg_parse_fault_rules(nlh, &rules, &what);

	return deliver(data, parsed, what, call_faults, &rules);
}

/* A request naming @name (or a dump without it); @reply NULL: just the ack. */
static int request(struct vdpa_client *c, uint8_t cmd, const char *name,
		   mnl_cb_t reply, union vsb_object_cb cb, void *data)
{
	struct vsb_reply_ctx ctx = { .c = c, .cb = cb, .data = data };

	c->bad_reply = NULL;
	return nl_gen_get(&c->nl, cmd, VSB_A_DEV_NAME, name, reply, &ctx);
}

int vsb_client_dev_get(struct vdpa_client *c, const char *name, vsb_dev_cb cb,
		       void *data)
{
	return request(c, VSB_CMD_DEV_GET, name, dev_reply,
		       (union vsb_object_cb){ .dev = cb }, data);
}

int vsb_client_stats_get(struct vdpa_client *c, const char *name,
			 vsb_stats_cb cb, void *data)
{
	return request(c, VSB_CMD_STATS_GET, name, stats_reply,
		       (union vsb_object_cb){ .stats = cb }, data);
}

int vsb_client_state_get(struct vdpa_client *c, const char *name,
			 vsb_state_cb cb, void *data)
{
	return request(c, VSB_CMD_STATE_GET, name, state_reply,
		       (union vsb_object_cb){ .state = cb }, data);
}

int vsb_client_fault_get(struct vdpa_client *c, const char *name,
			 vsb_faults_cb cb, void *data)
{
	return request(c, VSB_CMD_FAULT_GET, name, faults_reply,
		       (union vsb_object_cb){ .faults = cb }, data);
}

int vsb_client_stats_reset(struct vdpa_client *c, const char *name)
{
	return request(c, VSB_CMD_STATS_RESET, name, NULL,
		       (union vsb_object_cb){ .dev = NULL }, NULL);
}

/* A change request for @name of command @cmd; its attributes follow. */
static struct nlmsghdr *change_request(struct vdpa_client *c, uint8_t cmd)
{
	c->bad_reply = NULL;
	return nl_gen_prepare(&c->nl, cmd, NLM_F_REQUEST | NLM_F_ACK);
}

int vsb_client_dev_set(struct vdpa_client *c,
		       const struct vsb_dev_settings *set)
{
	struct nlmsghdr *nlh = change_request(c, VSB_CMD_DEV_SET);

	vsb_msg_put_dev_set(nlh, set);
	return nl_gen_sndrcv(&c->nl, nlh, NULL, NULL);
}

int vsb_client_link_set(struct vdpa_client *c, const char *name, bool up)
{
	struct nlmsghdr *nlh = change_request(c, VSB_CMD_LINK_SET);

	vsb_msg_put_link(nlh, name, up);
	return nl_gen_sndrcv(&c->nl, nlh, NULL, NULL);
}

int vsb_client_announce(struct vdpa_client *c, const char *name)
{
	struct nlmsghdr *nlh = change_request(c, VSB_CMD_ANNOUNCE);

	vsb_msg_put_dev_name(nlh, name);
	return nl_gen_sndrcv(&c->nl, nlh, NULL, NULL);
}

/* FAULT_ADD's reply: the rules, named after the request's device. */
struct fault_add_ctx {
	const char *name;
	vsb_faults_cb cb;
	void *data;
	bool *replied;
};

static int fault_add_reply(const struct vsb_fault_rules *rules, void *data)
{
	struct fault_add_ctx *a = data;
	struct vsb_fault_rules named;

	*a->replied = true;
	if (rules->name[0])
		return a->cb(rules, a->data);
	named = *rules;
	snprintf(named.name, sizeof(named.name), "%s", a->name);
	return a->cb(&named, a->data);
}

int vsb_client_fault_add(struct vdpa_client *c, const char *name,
			 const struct vsb_fault_rule *rule, vsb_faults_cb cb,
			 void *data, bool *replied)
{
	struct nlmsghdr *nlh = change_request(c, VSB_CMD_FAULT_ADD);
	struct fault_add_ctx a = {
		.name = name, .cb = cb, .data = data, .replied = replied
	};
	struct vsb_reply_ctx ctx = {
		.c = c,
		.cb = { .faults = fault_add_reply },
		.data = &a,
	};

	*replied = false;
	vsb_msg_put_fault_add(nlh, name, rule);
	return nl_gen_sndrcv(&c->nl, nlh, faults_reply, &ctx);
}

int vsb_client_fault_clear(struct vdpa_client *c, const char *name)
{
	struct nlmsghdr *nlh = change_request(c, VSB_CMD_FAULT_CLEAR);

	vsb_msg_put_dev_name(nlh, name);
	return nl_gen_sndrcv(&c->nl, nlh, NULL, NULL);
}
