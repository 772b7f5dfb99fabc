// SPDX-License-Identifier: GPL-2.0-only
/*
 * rawsend: send Ethernet frames out of one interface through an AF_PACKET
 * raw socket, for the VM tests of the device's receive filter.
 *
 *   rawsend IFACE DST_MAC [--vlan VID] [--count N] [--src MAC]
 *           [--udp SRC_IP,DST_IP,SPORT,DPORT] [--fifo]
 *
 * Each frame is DST_MAC, the source (the interface's own address unless
 * --src), with --vlan an 802.1Q tag (priority 0), the local experimental
 * ethertype 0x88b5 and a payload padded to the 60-byte minimum; with --udp
 * an IPv4 or IPv6 (by the addresses' form) UDP datagram between those
 * addresses and ports instead, for the tests of RSS steering. The socket
 * has protocol 0, so it never receives: nothing it sends comes back to it.
 * With --fifo it sends at SCHED_FIFO priority 1, so that no task of normal
 * priority on its CPU (the device's worker, pinned beside it) runs before
 * the last frame is queued: the device then finds them all at once.
 * Exit status: 0 if all N frames were sent whole, 1 on the first failure
 * (one line on stderr naming the operation and the errno), 2 on a usage
 * error.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <getopt.h>
#include <limits.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define RAWSEND_ETHERTYPE 0x88b5
#define RAWSEND_FRAME_MIN 60 /* ETH_ZLEN: a frame without its FCS */
#define RAWSEND_VLAN_MAX 4095
/*
 * Header, tag, ethertype and the longest payload: a text, or IPv6 and UDP
 * headers and 16 bytes.
 */
#define RAWSEND_FRAME_MAX 128

#define __printf(fmt_idx, arg_idx) \
	__attribute__((format(printf, fmt_idx, arg_idx)))

static const char *prog = "rawsend";

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s IFACE DST_MAC [--vlan VID] [--count N] [--src MAC]\n"
		"          [--udp SRC_IP,DST_IP,SPORT,DPORT] [--fifo]\n"
		"Send N (default 1) Ethernet frames of ethertype 0x%04x to DST_MAC\n"
		"out of IFACE through an AF_PACKET raw socket; with --vlan VID\n"
		"(0-%d) they carry an 802.1Q tag; with --udp a UDP datagram over\n"
		"IPv4 or IPv6 instead. The source is IFACE's address unless\n"
		"--src MAC. With --fifo they are sent at SCHED_FIFO priority 1.\n"
		"Exit status 0 if every frame was sent.\n",
		prog, RAWSEND_ETHERTYPE, RAWSEND_VLAN_MAX);
}

/* "prog: message" on stderr, one line. */
static void verror(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void __printf(1, 2) die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	usage(stderr);
	exit(2);
}

/* One line naming what failed, then exit 1. */
static void __printf(1, 2) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	exit(1);
}

/* One line naming what failed and the errno, then exit 1. */
static void __printf(2, 3) die_errno(int err, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s (errno %d)\n", strerror(err), err);
	exit(1);
}

static int parse_mac(const char *s, unsigned char *mac)
{
	unsigned int b[ETH_ALEN];
	char end;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &end) != ETH_ALEN)
		return -1;
	for (i = 0; i < ETH_ALEN; i++)
		mac[i] = b[i];
	return 0;
}

static long parse_num(const char *what, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		die_usage("%s '%s': want a number in [%ld, %ld]", what, s, min,
			  max);
	return v;
}

/* --udp: a UDP datagram between two addresses of one family. */
struct udp_flow {
	int family; /* 0: no --udp */
	unsigned char src[16], dst[16];
	uint16_t sport, dport;
};

static void parse_udp(const char *arg, struct udp_flow *u)
{
	char copy[128], *f[4], *save = NULL;
	int i;

	if (strlen(arg) >= sizeof(copy))
		die_usage("--udp '%s': too long", arg);
	strcpy(copy, arg);
	for (i = 0; i < 4; i++) {
		f[i] = strtok_r(i ? NULL : copy, ",", &save);
		if (!f[i])
			die_usage("--udp '%s': want SRC_IP,DST_IP,SPORT,DPORT",
				  arg);
	}
	u->family = strchr(f[0], ':') ? AF_INET6 : AF_INET;
	if (inet_pton(u->family, f[0], u->src) != 1 ||
	    inet_pton(u->family, f[1], u->dst) != 1)
		die_usage("--udp '%s': addresses not of one family", arg);
	u->sport = parse_num("--udp SPORT", f[2], 0, UINT16_MAX);
	u->dport = parse_num("--udp DPORT", f[3], 0, UINT16_MAX);
}

static void put16(unsigned char *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* The IP and UDP headers of @u and a payload at @p; returns the length. */
static size_t build_udp(unsigned char *p, const struct udp_flow *u)
{
	size_t alen = u->family == AF_INET6 ? 16 : 4;
	size_t ip = u->family == AF_INET6 ? 40 : 20, udp = 8 + 16;
	unsigned long sum = 0;
	unsigned char *h;
	size_t i;

	memset(p, 0, ip + udp);
	if (u->family == AF_INET6) {
		p[0] = 0x60;
		put16(p + 4, udp);
		p[6] = IPPROTO_UDP;
		p[7] = 64;
		memcpy(p + 8, u->src, alen);
		memcpy(p + 24, u->dst, alen);
	} else {
		p[0] = 0x45;
		put16(p + 2, ip + udp);
		p[6] = 0x40; /* DF */
		p[8] = 64;
		p[9] = IPPROTO_UDP;
		memcpy(p + 12, u->src, alen);
		memcpy(p + 16, u->dst, alen);
		for (i = 0; i < ip; i += 2)
			sum += p[i] << 8 | p[i + 1];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		put16(p + 10, ~sum & 0xffff);
	}
	h = p + ip;
	put16(h, u->sport);
	put16(h + 2, u->dport);
	put16(h + 4, udp);
	memcpy(h + 8, "rawsend udp", 11);
	return ip + udp;
}

/* The ethertype of the frames sent. */
static unsigned int frame_type(const struct udp_flow *u)
{
	if (!u->family)
		return RAWSEND_ETHERTYPE;
	return u->family == AF_INET6 ? ETH_P_IPV6 : ETH_P_IP;
}

/* Write the frame into @buf; returns its length. */
static size_t build_frame(unsigned char *buf, const unsigned char *dst,
			  const unsigned char *src, long vlan, long seq,
			  const struct udp_flow *u)
{
	size_t len = 2 * ETH_ALEN;
	int n;

	memcpy(buf, dst, ETH_ALEN);
	memcpy(buf + ETH_ALEN, src, ETH_ALEN);
	if (vlan >= 0) {
		buf[len++] = ETH_P_8021Q >> 8;
		buf[len++] = ETH_P_8021Q & 0xff;
		buf[len++] = vlan >> 8; /* PCP 0, DEI 0 */
		buf[len++] = vlan & 0xff;
	}
	buf[len++] = frame_type(u) >> 8;
	buf[len++] = frame_type(u) & 0xff;
	if (u->family) {
		len += build_udp(buf + len, u);
	} else {
		n = snprintf((char *)buf + len, RAWSEND_FRAME_MAX - len,
			     "rawsend %ld", seq);
		len += n + 1;
	}
	if (len < RAWSEND_FRAME_MIN) {
		memset(buf + len, 0, RAWSEND_FRAME_MIN - len);
		len = RAWSEND_FRAME_MIN;
	}
	return len;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "vlan", required_argument, NULL, 'v' },
		{ "count", required_argument, NULL, 'c' },
		{ "src", required_argument, NULL, 's' },
		{ "udp", required_argument, NULL, 'u' },
		{ "fifo", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned char dst[ETH_ALEN], src[ETH_ALEN];
	unsigned char frame[RAWSEND_FRAME_MAX];
	struct udp_flow udp = { 0 };
	struct sockaddr_ll sll;
	const char *ifname;
	bool have_src = false, fifo = false;
	long vlan = -1, count = 1, i;
	unsigned int ifindex;
	struct ifreq ifr;
	ssize_t sent;
	size_t len;
	int fd, c;

	while ((c = getopt_long(argc, argv, "v:c:s:u:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			vlan = parse_num("--vlan", optarg, 0, RAWSEND_VLAN_MAX);
			break;
		case 'c':
			count = parse_num("--count", optarg, 0, INT_MAX);
			break;
		case 's':
			if (parse_mac(optarg, src))
				die_usage("--src '%s': not a MAC address",
					  optarg);
			have_src = true;
			break;
		case 'u':
			parse_udp(optarg, &udp);
			break;
		case 'f':
			fifo = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2)
		die_usage("want IFACE and DST_MAC");
	ifname = argv[optind];
	if (parse_mac(argv[optind + 1], dst))
		die_usage("DST_MAC '%s': not a MAC address", argv[optind + 1]);
	if (strlen(ifname) >= IFNAMSIZ)
		die_usage("IFACE '%s': name too long", ifname);

	ifindex = if_nametoindex(ifname);
	if (!ifindex)
		die_errno(errno, "if_nametoindex %s", ifname);
	/* Protocol 0: a socket that sends only. */
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die_errno(errno, "socket AF_PACKET");
	if (!have_src) {
		memset(&ifr, 0, sizeof(ifr));
		memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
		if (ioctl(fd, SIOCGIFHWADDR, &ifr))
			die_errno(errno, "SIOCGIFHWADDR %s", ifname);
		if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER)
			die("%s: not an Ethernet interface (type %u)", ifname,
			    ifr.ifr_hwaddr.sa_family);
		memcpy(src, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	}

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = ifindex;
	sll.sll_protocol = htons(vlan >= 0 ? ETH_P_8021Q : frame_type(&udp));
	sll.sll_halen = ETH_ALEN;
	memcpy(sll.sll_addr, dst, ETH_ALEN);

	if (fifo) {
		struct sched_param sp = { .sched_priority = 1 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			die_errno(errno, "sched_setscheduler SCHED_FIFO");
	}
	for (i = 0; i < count; i++) {
		len = build_frame(frame, dst, src, vlan, i, &udp);
		sent = sendto(fd, frame, len, 0, (struct sockaddr *)&sll,
			      sizeof(sll));
		if (sent < 0)
			die_errno(errno, "sendto %s (frame %ld of %ld)", ifname,
				  i + 1, count);
		if ((size_t)sent != len)
			die("sendto %s (frame %ld of %ld): sent %zd of %zu bytes",
			    ifname, i + 1, count, sent, len);
	}
	if (close(fd))
		die_errno(errno, "close");
	return 0;
}
