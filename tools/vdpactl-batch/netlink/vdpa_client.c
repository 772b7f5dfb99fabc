// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "vdpa" generic netlink client.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/diag.h"
#include "netlink/vdpa_client.h"

int vdpa_client_open(struct vdpa_client *c)
{
	*c = (struct vdpa_client){ 0 };
	return nl_gen_open(&c->nl, VDPA_GENL_NAME, VDPA_GENL_VERSION);
}

void vdpa_client_close(struct vdpa_client *c)
{
	nl_gen_close(&c->nl);
}

int vdpa_client_report(const struct vdpa_client *c, int err, const char *fmt,
		       ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (err == -EBADMSG && c->bad_reply)
		pr_err("%s: malformed reply: %s", what, c->bad_reply);
	else if (c->nl.extack[0])
		pr_err("%s: %s: %s", what, strerror(-err), c->nl.extack);
	else
		pr_err("%s: %s", what, strerror(-err));
	return err;
}

/* One reply callback per object type, each handing a parsed struct on. */
union object_cb {
	vdpa_mgmtdev_cb mgmtdev;
	vdpa_dev_cb dev;
	vdpa_config_cb config;
};

struct reply_ctx {
	struct vdpa_client *c;
	union object_cb cb;
	void *data;
};

static int reject(struct reply_ctx *ctx, const char *what)
{
	ctx->c->bad_reply = what;
	errno = EBADMSG;
	return MNL_CB_ERROR;
}

static int forward(int cb_result)
{
	if (cb_result < 0) {
		errno = -cb_result;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static int mgmtdev_reply(const struct nlmsghdr *nlh, void *data)
{
	struct reply_ctx *ctx = data;
	struct vdpa_mgmtdev_info info;
	const char *what;

	if (vdpa_msg_parse_mgmtdev(nlh, &info, &what))
		return reject(ctx, what);
	return forward(ctx->cb.mgmtdev(&info, ctx->data));
}

static int dev_reply(const struct nlmsghdr *nlh, void *data)
{
	struct reply_ctx *ctx = data;
	struct vdpa_dev_info info;
	const char *what;

	if (vdpa_msg_parse_dev(nlh, &info, &what))
		return reject(ctx, what);
	return forward(ctx->cb.dev(&info, ctx->data));
}

static int config_reply(const struct nlmsghdr *nlh, void *data)
{
	struct reply_ctx *ctx = data;
	struct vdpa_dev_config config;
	const char *what;

	if (vdpa_msg_parse_config(nlh, &config, &what))
		return reject(ctx, what);
	return forward(ctx->cb.config(&config, ctx->data));
}

static int vstats_reply(const struct nlmsghdr *nlh, void *data)
{
	struct reply_ctx *ctx = data;
	const char *what;

	if (vdpa_msg_parse_vstats(nlh, ctx->data, &what))
		return reject(ctx, what);
	return MNL_CB_OK;
}

/* GET of one object by its name attribute, or a dump of all. */
static int get_objects(struct vdpa_client *c, uint8_t cmd, const char *name,
		       mnl_cb_t reply, union object_cb cb, void *data)
{
	struct reply_ctx ctx = { .c = c, .cb = cb, .data = data };

	c->bad_reply = NULL;
	return nl_gen_get(&c->nl, cmd, VDPA_ATTR_DEV_NAME, name, reply, &ctx);
}

int vdpa_client_mgmtdev_get(struct vdpa_client *c, const char *handle,
			    vdpa_mgmtdev_cb cb, void *data)
{
	struct reply_ctx ctx = { .c = c, .cb.mgmtdev = cb, .data = data };
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	char bus[VDPA_NAME_LEN], name[VDPA_NAME_LEN];
	struct nlmsghdr *nlh;

	if (handle && vdpa_split_mgmtdev_handle(handle, bus, name))
		return -EINVAL;
	if (!handle)
		flags |= NLM_F_DUMP;
	c->bad_reply = NULL;
	nlh = nl_gen_prepare(&c->nl, VDPA_CMD_MGMTDEV_GET, flags);
	if (handle)
		vdpa_msg_put_mgmtdev(nlh, bus[0] ? bus : NULL, name);
	return nl_gen_sndrcv(&c->nl, nlh, mgmtdev_reply, &ctx);
}

int vdpa_client_dev_get(struct vdpa_client *c, const char *name, vdpa_dev_cb cb,
			void *data)
{
	return get_objects(c, VDPA_CMD_DEV_GET, name, dev_reply,
			   (union object_cb){ .dev = cb }, data);
}

int vdpa_client_config_get(struct vdpa_client *c, const char *name,
			   vdpa_config_cb cb, void *data)
{
	return get_objects(c, VDPA_CMD_DEV_CONFIG_GET, name, config_reply,
			   (union object_cb){ .config = cb }, data);
}

int vdpa_client_vstats_get(struct vdpa_client *c, const char *name,
			   uint32_t queue_index, struct vdpa_vstats *stats)
{
	struct reply_ctx ctx = { .c = c, .data = stats };
	struct nlmsghdr *nlh;

	c->bad_reply = NULL;
	nlh = nl_gen_prepare(&c->nl, VDPA_CMD_DEV_VSTATS_GET,
			     NLM_F_REQUEST | NLM_F_ACK);
	vdpa_msg_put_vstats(nlh, name, queue_index);
	return nl_gen_sndrcv(&c->nl, nlh, vstats_reply, &ctx);
}

int vdpa_client_dev_add(struct vdpa_client *c,
			const struct vdpa_dev_new_args *args)
{
	struct nlmsghdr *nlh;

	c->bad_reply = NULL;
	nlh = nl_gen_prepare(&c->nl, VDPA_CMD_DEV_NEW,
			     NLM_F_REQUEST | NLM_F_ACK);
	vdpa_msg_put_dev_new(nlh, args);
	return nl_gen_sndrcv(&c->nl, nlh, NULL, NULL);
}

int vdpa_client_dev_set_mac(struct vdpa_client *c, const char *name,
			    const uint8_t mac[MAC_LEN])
{
	struct nlmsghdr *nlh;

	c->bad_reply = NULL;
	nlh = nl_gen_prepare(&c->nl, VDPACTL_CMD_DEV_ATTR_SET,
			     NLM_F_REQUEST | NLM_F_ACK);
	vdpa_msg_put_dev_name(nlh, name);
	mnl_attr_put(nlh, VDPA_ATTR_DEV_NET_CFG_MACADDR, MAC_LEN, mac);
	return nl_gen_sndrcv(&c->nl, nlh, NULL, NULL);
}

int vdpa_client_dev_del(struct vdpa_client *c, const char *name)
{
	struct nlmsghdr *nlh;

	c->bad_reply = NULL;
	nlh = nl_gen_prepare(&c->nl, VDPA_CMD_DEV_DEL,
			     NLM_F_REQUEST | NLM_F_ACK);
	vdpa_msg_put_dev_name(nlh, name);
	return nl_gen_sndrcv(&c->nl, nlh, NULL, NULL);
}
