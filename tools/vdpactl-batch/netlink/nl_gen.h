/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A generic netlink socket on libmnl, in the manner of iproute2's
 * lib/mnl_utils.c: resolves the family, asks for capped acks and extended
 * acks, and keeps the kernel's extack message of the last failure.
 */
#ifndef VDPACTL_NL_GEN_H
#define VDPACTL_NL_GEN_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#define NL_EXTACK_LEN 256

struct nl_gen {
	struct mnl_socket *nl;
	uint32_t portid;
	uint32_t seq;
	uint16_t family_id;
	uint8_t version;
	char *buf;
	size_t buf_len;
	char extack[NL_EXTACK_LEN]; /* empty if the kernel gave none */
};

/* -errno; -ENOENT if the family is not registered. Prints nothing. */
int nl_gen_open(struct nl_gen *g, const char *family, uint8_t version);
void nl_gen_close(struct nl_gen *g);

/* Starts a request in the socket's buffer (valid until the next one). */
struct nlmsghdr *nl_gen_prepare(struct nl_gen *g, uint8_t cmd, uint16_t flags);

/*
 * Sends @nlh and runs @cb on every reply until the ack or the end of the
 * dump. Returns 0 or -errno (from the kernel or from @cb returning
 * MNL_CB_ERROR with errno set); g->extack holds the kernel's message.
 */
int nl_gen_sndrcv(struct nl_gen *g, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *data);

/*
 * A GET of one object named by the string attribute @name_attr, or with
 * @name NULL a dump of all, then nl_gen_sndrcv() with @cb.
 */
int nl_gen_get(struct nl_gen *g, uint8_t cmd, uint16_t name_attr,
	       const char *name, mnl_cb_t cb, void *data);

/*
 * Parses an NLMSG_ERROR message: *error gets the (negative) errno or 0 for
 * an ack, @extack the kernel's message if any. -EBADMSG if truncated.
 */
int nl_parse_error(const struct nlmsghdr *nlh, int *error, char *extack,
		   size_t extack_len);

#endif
