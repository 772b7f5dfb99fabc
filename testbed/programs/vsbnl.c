// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsbnl: send one hand-built request to vdpa_sim_batch's generic netlink
 * family and print the kernel's answer, for the VM tests of malformed
 * and unprivileged requests. Raw sockets only, no library.
 *
 *   vsbnl [--dump] [--drop-cap] [--names] [--recv-len N] [--after-first CMD]
 *         COMMAND [ATTR...]
 *
 * COMMAND is dev-get, dev-set, stats-get, stats-reset, state-get or a
 * number. Each ATTR is KIND:TYPE=VALUE, TYPE a number or one of name,
 * completion, batch-limit, cost:
 *   str:T=TEXT   a NUL-terminated string      strn:T=LEN  LEN x "x" + NUL
 *   u8:T=N  u16:T=N  u32:T=N  u64:T=N          flag:T      no payload
 *   nest:T       the ATTRs up to the matching "end" go inside
 * --dump sets NLM_F_DUMP; --drop-cap drops CAP_NET_ADMIN from the
 * effective and permitted sets (capset) before the socket is opened.
 * --names adds " names=A,B,..." (each reply's device name) to the ok line;
 * --recv-len reads with a buffer of N bytes (the kernel sizes dump
 * messages after it); --after-first runs the shell command CMD once the
 * first answer to the request was received, e.g. to delete a device in
 * the middle of a dump.
 *
 * Output, one line on stdout: "ok replies=N" (exit 0), or
 * "error errno=NAME code=N msg=TEXT miss_type=T" (exit 1), msg and
 * miss_type only when the kernel sent them. Exit 2: usage or local error.
 */

#include <errno.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../kmod/uapi/vdpa_sim_batch.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

#define VSBNL_BUF_LEN 65536
#define VSBNL_STRN_MAX 4096
#define VSBNL_NAMES_LEN 1024
#define VSBNL_NEST_MAX 4

#define __printf(fmt_idx, arg_idx) \
	__attribute__((format(printf, fmt_idx, arg_idx)))

static const char *prog = "vsbnl";

struct request {
	union {
		struct nlmsghdr nlh;
		char bytes[VSBNL_BUF_LEN];
	} u;
	size_t len;
	/* the open nests' offsets, innermost last */
	size_t nest[VSBNL_NEST_MAX];
	unsigned int nests;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [--dump] [--drop-cap] [--names] [--recv-len N]\n"
		"       [--after-first CMD] COMMAND [KIND:TYPE=VALUE...]\n"
		"COMMAND: dev-get, dev-set, stats-get, stats-reset, state-get or\n"
		"a number. KIND: str, strn (VALUE: a length), u8, u16, u32, u64,\n"
		"flag (no =VALUE), nest (no =VALUE; ATTRs up to \"end\" inside).\n"
		"TYPE: name, completion, batch-limit, cost or a number.\n"
		"Prints \"ok replies=N\" or \"error errno=NAME code=N msg=TEXT\".\n",
		prog);
}

static void __printf(1, 2) die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	exit(2);
}

/* A local failure (not the kernel's answer): the operation and errno. */
static void __printf(2, 3) die_errno(int err, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s (errno %d)\n", strerror(err), err);
	exit(2);
}

static const char *errno_name(int err)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
		{ EPERM, "EPERM" },	  { ENOENT, "ENOENT" },
		{ EINVAL, "EINVAL" },	  { ERANGE, "ERANGE" },
		{ ENODEV, "ENODEV" },	  { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EMSGSIZE, "EMSGSIZE" }, { EACCES, "EACCES" },
		{ EBUSY, "EBUSY" },	  { E2BIG, "E2BIG" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	return "other";
}

static unsigned long long parse_num(const char *what, const char *s,
				    unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v > max)
		die_usage("%s '%s': want a number up to %llu", what, s, max);
	return v;
}

static void *put_attr(struct request *r, uint16_t type, const void *data,
		      size_t len)
{
	struct nlattr *nla = (struct nlattr *)(r->u.bytes + r->len);
	size_t total = NLA_ALIGN(NLA_HDRLEN + len);

	if (r->len + total > sizeof(r->u.bytes))
		die_usage("request too long");
	memset(nla, 0, total);
	nla->nla_type = type;
	nla->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (data)
		memcpy((char *)nla + NLA_HDRLEN, data, len);
	r->len += total;
	return (char *)nla + NLA_HDRLEN;
}

static uint16_t parse_type(const char *s)
{
	if (!strcmp(s, "name"))
		return VSB_A_DEV_NAME;
	if (!strcmp(s, "completion"))
		return VSB_A_COMPLETION;
	if (!strcmp(s, "batch-limit"))
		return VSB_A_BATCH_LIMIT;
	if (!strcmp(s, "cost"))
		return VSB_A_COST;
	return (uint16_t)parse_num("attribute type", s, NLA_TYPE_MASK);
}

static void put_number(struct request *r, uint16_t type, const char *value,
		       unsigned int bytes)
{
	unsigned long long max = bytes == 8 ? ~0ULL : (1ULL << (8 * bytes)) - 1;
	unsigned long long v = parse_num("attribute value", value, max);
	uint64_t u64 = v;
	uint32_t u32 = (uint32_t)v;
	uint16_t u16 = (uint16_t)v;
	uint8_t u8 = (uint8_t)v;
	const void *data = bytes == 8 ? (const void *)&u64 :
			   bytes == 4 ? (const void *)&u32 :
			   bytes == 2 ? (const void *)&u16 :
					(const void *)&u8;

	put_attr(r, type, data, bytes);
}

/* KIND:TYPE=VALUE */
static void add_attr(struct request *r, const char *spec)
{
	char kind[8], type_text[32];
	const char *value = strchr(spec, '=');
	const char *colon = strchr(spec, ':');
	size_t type_len;
	uint16_t type;
	char *text;
	size_t n;

	if (!strcmp(spec, "end")) {
		struct nlattr *nla;

		if (!r->nests)
			die_usage("\"end\" without a nest");
		n = r->nest[--r->nests];
		nla = (struct nlattr *)(r->u.bytes + n);
		nla->nla_len = (uint16_t)(r->len - n);
		return;
	}
	if (!colon || (size_t)(colon - spec) >= sizeof(kind))
		die_usage("attribute '%s': want KIND:TYPE=VALUE", spec);
	memcpy(kind, spec, (size_t)(colon - spec));
	kind[colon - spec] = '\0';
	type_len = value ? (size_t)(value - colon - 1) : strlen(colon + 1);
	if (!type_len || type_len >= sizeof(type_text))
		die_usage("attribute '%s': bad TYPE", spec);
	memcpy(type_text, colon + 1, type_len);
	type_text[type_len] = '\0';
	type = parse_type(type_text);
	if (!strcmp(kind, "flag") || !strcmp(kind, "nest")) {
		if (value)
			die_usage("attribute '%s': no value wanted", spec);
		if (*kind == 'n') {
			if (r->nests == VSBNL_NEST_MAX)
				die_usage("nests deeper than %d",
					  VSBNL_NEST_MAX);
			r->nest[r->nests++] = r->len;
			type |= NLA_F_NESTED;
		}
		put_attr(r, type, NULL, 0);
		return;
	}
	if (!value)
		die_usage("attribute '%s': want =VALUE", spec);
	value++;
	if (!strcmp(kind, "str")) {
		put_attr(r, type, value, strlen(value) + 1);
	} else if (!strcmp(kind, "strn")) {
		n = parse_num("string length", value, VSBNL_STRN_MAX);
		text = put_attr(r, type, NULL, n + 1);
		memset(text, 'x', n);
	} else if (!strcmp(kind, "u8")) {
		put_number(r, type, value, 1);
	} else if (!strcmp(kind, "u16")) {
		put_number(r, type, value, 2);
	} else if (!strcmp(kind, "u32")) {
		put_number(r, type, value, 4);
	} else if (!strcmp(kind, "u64")) {
		put_number(r, type, value, 8);
	} else {
		die_usage("attribute '%s': unknown KIND '%s'", spec, kind);
	}
}

static uint8_t parse_cmd(const char *s)
{
	static const char *const names[] = {
		[VSB_CMD_DEV_GET] = "dev-get",
		[VSB_CMD_DEV_SET] = "dev-set",
		[VSB_CMD_STATS_GET] = "stats-get",
		[VSB_CMD_STATS_RESET] = "stats-reset",
		[VSB_CMD_STATE_GET] = "state-get",
	};
	size_t i;

	for (i = 1; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (uint8_t)i;
	return (uint8_t)parse_num("command", s, 255);
}

static void start_request(struct request *r, uint16_t family, uint8_t cmd,
			  uint16_t flags, uint32_t seq)
{
	struct genlmsghdr *genl;

	memset(&r->u.nlh, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	r->u.nlh.nlmsg_type = family;
	r->u.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->u.nlh.nlmsg_seq = seq;
	genl = (struct genlmsghdr *)(r->u.bytes + NLMSG_HDRLEN);
	genl->cmd = cmd;
	genl->version = 1;
	r->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

/* The kernel's answer to one request. */
struct answer {
	int error; /* 0 or a positive errno */
	unsigned int replies; /* data messages before the ack or DONE */
	char msg[256];
	int miss_type; /* -1: none */
	uint16_t family_id; /* from a CTRL_CMD_GETFAMILY reply */
	char names[VSBNL_NAMES_LEN]; /* each reply's VSB_A_DEV_NAME */
};

/* How replies are read. */
static size_t recv_len = VSBNL_BUF_LEN;
static const char *after_first;

static void parse_ack_tlvs(const struct nlmsghdr *nlh, struct answer *a)
{
	const struct nlmsgerr *err = NLMSG_DATA(nlh);
	size_t off = sizeof(*err), end = nlh->nlmsg_len - NLMSG_HDRLEN;
	const struct nlattr *nla;

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - NLMSG_HDRLEN;
	off = NLA_ALIGN(off);
	while (off + NLA_HDRLEN <= end) {
		nla = (const struct nlattr *)((const char *)err + off);
		if (nla->nla_len < NLA_HDRLEN || off + nla->nla_len > end)
			break;
		if (nla->nla_type == NLMSGERR_ATTR_MSG)
			snprintf(a->msg, sizeof(a->msg), "%.*s",
				 (int)(nla->nla_len - NLA_HDRLEN),
				 (const char *)nla + NLA_HDRLEN);
		else if (nla->nla_type == NLMSGERR_ATTR_MISS_TYPE &&
			 nla->nla_len >= NLA_HDRLEN + 4)
			memcpy(&a->miss_type, (const char *)nla + NLA_HDRLEN,
			       4);
		off += NLA_ALIGN(nla->nla_len);
	}
}

/* The family id (a CTRL reply) or the device name (ours) of a reply. */
static void take_attrs(const struct nlmsghdr *nlh, struct answer *a)
{
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN, used;
	const struct nlattr *nla;

	while (off + NLA_HDRLEN <= nlh->nlmsg_len) {
		nla = (const struct nlattr *)((const char *)nlh + off);
		if (nla->nla_len < NLA_HDRLEN ||
		    off + nla->nla_len > nlh->nlmsg_len)
			return;
		if (nlh->nlmsg_type == GENL_ID_CTRL &&
		    nla->nla_type == CTRL_ATTR_FAMILY_ID &&
		    nla->nla_len >= NLA_HDRLEN + 2)
			memcpy(&a->family_id, (const char *)nla + NLA_HDRLEN,
			       2);
		if (nlh->nlmsg_type != GENL_ID_CTRL &&
		    nla->nla_type == VSB_A_DEV_NAME) {
			used = strlen(a->names);
			snprintf(a->names + used, sizeof(a->names) - used,
				 "%s%.*s", used ? "," : "",
				 (int)(nla->nla_len - NLA_HDRLEN),
				 (const char *)nla + NLA_HDRLEN);
		}
		off += NLA_ALIGN(nla->nla_len);
	}
}

/* Returns true when @nlh ends the exchange. */
static bool take_message(const struct nlmsghdr *nlh, struct answer *a)
{
	const struct nlmsgerr *err;

	if (nlh->nlmsg_type == NLMSG_ERROR) {
		err = NLMSG_DATA(nlh);
		a->error = -err->error;
		if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
			parse_ack_tlvs(nlh, a);
		return true;
	}
	if (nlh->nlmsg_type == NLMSG_DONE) {
		int error = 0;

		if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(error))
			memcpy(&error, NLMSG_DATA(nlh), sizeof(error));
		/* A failed dump's error; a dump gets no ack after it. */
		a->error = -error;
		return true;
	}
	a->replies++;
	take_attrs(nlh, a);
	return false;
}

static void exchange(int fd, struct request *r, struct answer *a,
		     const char *then)
{
	static char buf[VSBNL_BUF_LEN];
	struct nlmsghdr *nlh;
	bool done = false;
	ssize_t n;
	size_t left;

	*a = (struct answer){ .miss_type = -1 };
	r->u.nlh.nlmsg_len = (uint32_t)r->len;
	if (send(fd, r->u.bytes, r->len, 0) < 0)
		die_errno(errno, "send");
	while (!done) {
		n = recv(fd, buf, recv_len, 0);
		if (n < 0)
			die_errno(errno, "recv");
		if (then) {
			if (system(then))
				die_errno(ECHILD, "after the first recv: %s",
					  then);
			then = NULL;
		}
		left = (size_t)n;
		for (nlh = (struct nlmsghdr *)buf; !done && NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			if (nlh->nlmsg_seq != r->u.nlh.nlmsg_seq)
				continue;
			done = take_message(nlh, a);
		}
	}
}

static uint16_t resolve_family(int fd)
{
	struct request r;
	struct answer a;

	start_request(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, 1);
	put_attr(&r, CTRL_ATTR_FAMILY_NAME, VSB_GENL_NAME,
		 sizeof(VSB_GENL_NAME));
	exchange(fd, &r, &a, NULL);
	if (a.error || !a.family_id)
		die_errno(a.error ? a.error : ENOENT,
			  "resolve the \"%s\" family", VSB_GENL_NAME);
	return a.family_id;
}

static void drop_net_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	uint32_t bit = 1u << (CAP_NET_ADMIN % 32);
	unsigned int word = CAP_NET_ADMIN / 32;

	if (syscall(SYS_capget, &hdr, data))
		die_errno(errno, "capget");
	data[word].effective &= ~bit;
	data[word].permitted &= ~bit;
	if (syscall(SYS_capset, &hdr, data))
		die_errno(errno, "capset");
}

static int open_socket(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	int one = 1;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0)
		die_errno(errno, "socket(AF_NETLINK)");
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)))
		die_errno(errno, "setsockopt(SOL_NETLINK)");
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		die_errno(errno, "bind");
	return fd;
}

int main(int argc, char **argv)
{
	static struct request req;
	bool dump = false, drop_cap = false, names = false;
	struct answer a;
	uint16_t family;
	uint8_t cmd;
	int i = 1, fd;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--dump"))
			dump = true;
		else if (!strcmp(argv[i], "--drop-cap"))
			drop_cap = true;
		else if (!strcmp(argv[i], "--names"))
			names = true;
		else if (i + 1 < argc && !strcmp(argv[i], "--recv-len"))
			recv_len = parse_num("receive length", argv[++i],
					     VSBNL_BUF_LEN);
		else if (i + 1 < argc && !strcmp(argv[i], "--after-first"))
			after_first = argv[++i];
		else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else
			die_usage("unknown option %s", argv[i]);
	}
	if (i == argc)
		die_usage("no COMMAND");
	cmd = parse_cmd(argv[i++]);
	if (drop_cap)
		drop_net_admin();
	fd = open_socket();
	family = resolve_family(fd);
	start_request(&req, family, cmd, dump ? NLM_F_DUMP : 0, 2);
	for (; i < argc; i++)
		add_attr(&req, argv[i]);
	if (req.nests)
		die_usage("a nest without its \"end\"");
	exchange(fd, &req, &a, after_first);
	close(fd);
	if (!a.error) {
		printf("ok replies=%u", a.replies);
		if (names)
			printf(" names=%s", a.names);
		putchar('\n');
		return 0;
	}
	printf("error errno=%s code=%d", errno_name(a.error), a.error);
	if (a.msg[0])
		printf(" msg=%s", a.msg);
	if (a.miss_type >= 0)
		printf(" miss_type=%d", a.miss_type);
	putchar('\n');
	return 1;
}
