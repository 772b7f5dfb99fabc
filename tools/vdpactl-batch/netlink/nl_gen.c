// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Generic netlink on libmnl.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "netlink/nl_gen.h"

#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

/* Kernel dump skbs are up to 32 KiB; a smaller buffer truncates them. */
#define NL_GEN_BUF_LEN 32768

struct nl_run {
	struct nl_gen *g;
	mnl_cb_t cb;
	void *data;
	int error;
};

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **msg = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		*msg = attr;
	return MNL_CB_OK;
}

int nl_parse_error(const struct nlmsghdr *nlh, int *error, char *extack,
		   size_t extack_len)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *msg = NULL;
	unsigned int tlv_offset;

	if (extack_len)
		extack[0] = '\0';
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err))
		return -EBADMSG;
	*error = err->error > 0 ? -err->error : err->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;

	/* TLVs follow the echoed request: its header only if capped. */
	tlv_offset = sizeof(*err);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		tlv_offset += err->msg.nlmsg_len - sizeof(err->msg);
	if (tlv_offset > mnl_nlmsg_get_payload_len(nlh))
		return -EBADMSG;
	mnl_attr_parse(nlh, tlv_offset, extack_attr_cb, &msg);
	if (msg && extack_len)
		snprintf(extack, extack_len, "%s", mnl_attr_get_str(msg));
	return 0;
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_run *run = data;
	int error = 0;

	if (nl_parse_error(nlh, &error, run->g->extack,
			   sizeof(run->g->extack))) {
		run->error = -EBADMSG;
		return MNL_CB_ERROR;
	}
	if (error) {
		run->error = error;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

/* A dump that fails midway says so in NLMSG_DONE's payload. */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_run *run = data;
	int error;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(error)) {
		memcpy(&error, mnl_nlmsg_get_payload(nlh), sizeof(error));
		if (error < 0) {
			run->error = error;
			return MNL_CB_ERROR;
		}
	}
	return MNL_CB_STOP;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_run *run = data;
	int ret;

	if (!run->cb)
		return MNL_CB_OK;
	errno = 0;
	ret = run->cb(nlh, run->data);
	if (ret == MNL_CB_ERROR)
		run->error = errno ? -errno : -EBADMSG;
	return ret;
}

int nl_gen_sndrcv(struct nl_gen *g, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *data)
{
	struct nl_run run = { .g = g, .cb = cb, .data = data };
	mnl_cb_t ctl_callbacks[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = error_cb,
		[NLMSG_DONE] = done_cb,
	};
	ssize_t len;
	int ret;

	g->extack[0] = '\0';
	if (mnl_socket_sendto(g->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		len = mnl_socket_recvfrom(g->nl, g->buf, g->buf_len);
		if (len < 0)
			return -errno;
		ret = mnl_cb_run2(g->buf, (size_t)len, nlh->nlmsg_seq,
				  g->portid, data_cb, &run, ctl_callbacks,
				  NLMSG_MIN_TYPE);
	} while (ret > MNL_CB_STOP);
	if (ret == MNL_CB_ERROR)
		return run.error ? run.error : (errno ? -errno : -EBADMSG);
	return 0;
}

int nl_gen_get(struct nl_gen *g, uint8_t cmd, uint16_t name_attr,
	       const char *name, mnl_cb_t cb, void *data)
{
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	struct nlmsghdr *nlh;

	if (!name)
		flags |= NLM_F_DUMP;
	nlh = nl_gen_prepare(g, cmd, flags);
	if (name)
		mnl_attr_put_strz(nlh, name_attr, name);
	return nl_gen_sndrcv(g, nlh, cb, data);
}

struct nlmsghdr *nl_gen_prepare(struct nl_gen *g, uint8_t cmd, uint16_t flags)
{
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;

	nlh = mnl_nlmsg_put_header(g->buf);
	nlh->nlmsg_type = g->family_id;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = ++g->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = g->version;
	return nlh;
}

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	uint16_t *family_id = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
		*family_id = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, GENL_HDRLEN, family_attr_cb, data);
}

static int resolve_family(struct nl_gen *g, const char *family)
{
	struct nlmsghdr *nlh;
	uint16_t family_id = 0;
	int err;

	g->family_id = GENL_ID_CTRL;
	g->version = 1;
	nlh = nl_gen_prepare(g, CTRL_CMD_GETFAMILY, NLM_F_REQUEST | NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family);
	err = nl_gen_sndrcv(g, nlh, family_cb, &family_id);
	if (err)
		return err;
	if (!family_id)
		return -EBADMSG;
	g->family_id = family_id;
	return 0;
}

int nl_gen_open(struct nl_gen *g, const char *family, uint8_t version)
{
	int one = 1, err;

	*g = (struct nl_gen){ .seq = (uint32_t)time(NULL) };
	g->buf_len = NL_GEN_BUF_LEN;
	g->buf = malloc(g->buf_len);
	if (!g->buf)
		return -ENOMEM;
	g->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!g->nl) {
		err = -errno;
		goto free_buf;
	}
	/* Both are optional: older kernels just give plain acks. */
	mnl_socket_setsockopt(g->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(g->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(g->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto close_socket;
	}
	g->portid = mnl_socket_get_portid(g->nl);
	err = resolve_family(g, family);
	if (err)
		goto close_socket;
	g->version = version;
	return 0;

close_socket:
	mnl_socket_close(g->nl);
free_buf:
	free(g->buf);
	*g = (struct nl_gen){ 0 };
	return err;
}

void nl_gen_close(struct nl_gen *g)
{
	if (g->nl)
		mnl_socket_close(g->nl);
	free(g->buf);
	*g = (struct nl_gen){ 0 };
}
