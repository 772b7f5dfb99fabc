/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building the generic netlink messages the parser tests feed in.
 */
#ifndef VDPACTL_GENL_BUILD_H
#define VDPACTL_GENL_BUILD_H

#include <stdint.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#define GENL_BUILD_BYTES 8192

/* A message buffer aligned for struct nlmsghdr. */
union genl_buf {
	char bytes[GENL_BUILD_BYTES];
	struct nlmsghdr align;
};

/* Starts, in the cleared @buf, a message of @family: @cmd, @version. */
static inline struct nlmsghdr *genl_build_start(union genl_buf *buf,
						uint16_t family, uint8_t cmd,
						uint8_t version)
{
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;

	memset(buf->bytes, 0, sizeof(buf->bytes));
	nlh = mnl_nlmsg_put_header(buf->bytes);
	nlh->nlmsg_type = family;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

#endif
