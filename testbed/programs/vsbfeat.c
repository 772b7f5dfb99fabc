// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsbfeat: a vhost-vdpa driver of a whole net device that negotiates
 * exactly the feature set it is given, for the VM tests of feature
 * combinations. Raw ioctls, no library: split and packed rings, with or
 * without indirect descriptors, in one file.
 *
 *   vsbfeat [OPTIONS] --features FEATURES /dev/vhost-vdpa-N
 *
 * FEATURES: a hex number (0x optional), "offered" (what the device
 * offers), or feature names joined by commas (the spec's names without
 * VIRTIO_NET_F_, VIRTIO_F_ or VIRTIO_RING_F_: CTRL_VQ,MQ,RING_PACKED,...).
 *
 * A run:
 *   1. status ACKNOWLEDGE|DRIVER, VHOST_SET_FEATURES FEATURES (its error
 *      reported, not fatal, as a careless driver would), FEATURES_OK, read
 *      back. If FEATURES_OK did not stick, prints "set_features=E
 *      features_ok=0" and exits 1, unless --force-driver-ok.
 *   2. N queue pairs as the spec counts them (virtnet_probe and QEMU do the
 *      same): max_virtqueue_pairs from the config space with MQ or RSS,
 *      else 1. The control queue, with CTRL_VQ, is queue 2N.
 *   3. Every queue 0..2N gets a ring of 64 in shared memfd memory mapped
 *      through the IOTLB (VA-mode parents map only file-backed VMAs), and
 *      each receive queue RX_BUFS page-sized buffers. With CTRL_VQ, the
 *      CVQ's group must differ from queue 0's and every data queue's group
 *      equal queue 0's (group_ok); if so the CVQ's group gets address space
 *      1, which alone maps the CVQ's memory, as QEMU isolates it. Then
 *      DRIVER_OK, and one kick of every data queue.
 *   4. One command of every control class the features allow, each on its
 *      own, kicked, and waited for --wait-ms: MAC_ADDR_SET (CTRL_MAC_ADDR),
 *      VQ_PAIRS_SET N (MQ), RSS_CONFIG over the N pairs (RSS), HASH_CONFIG
 *      (HASH_REPORT), GUEST_OFFLOADS_SET (CTRL_GUEST_OFFLOADS), RX PROMISC
 *      and MAC_TABLE_SET (CTRL_RX), RX ALLUNI (CTRL_RX and CTRL_RX_EXTRA),
 *      VLAN_ADD (CTRL_VLAN), ANNOUNCE_ACK (GUEST_ANNOUNCE), NOTF_COAL
 *      TX_SET and RX_SET (NOTF_COAL), NOTF_COAL VQ_SET and VQ_GET
 *      (VQ_NOTF_COAL: the reply must be what VQ_SET set), STATS_QUERY
 *      (DEVICE_STATS: a non-empty bitmap). Each is framed as Linux frames
 *      it (header, data, ack, reply: one buffer each), in an indirect table
 *      when INDIRECT_DESC was negotiated, on the ring format negotiated. A
 *      command is good when it comes back with ack VIRTIO_NET_OK, used
 *      length 1 plus its reply, and the reply expected, followed by a used
 *      buffer notification (every queue has a call eventfd, and the driver
 *      never suppresses notifications; with EVENT_IDX its used_event is
 *      always the entry it waits for). Once the device needs a reset, or
 *      leaves a command unanswered, no more are sent.
 *   5. Prints one line:
 *        set_features=E features_ok=0|1 pairs=N cvq=2N|none group_ok=0|1|na
 *        cmds=K used=U acks_ok=A needs_reset=0|1 status=0xS
 *      E: VHOST_SET_FEATURES's result (0 or -errno); U: commands the device
 *      returned, A: of them the good ones; S: the status at the end. Then
 *      runs --exec's command, resets the device (status 0) and closes it.
 *
 * Exit 0 when FEATURES_OK stuck after VHOST_SET_FEATURES succeeded, every
 * command was good, the groups were right, DRIVER_OK held and the device
 * never needed a reset; 1 otherwise; 2 when a set-up step failed.
 *
 * Options:
 *   --wait-ms MS       how long to wait for each command (2000)
 *   --force-driver-ok  go on after FEATURES_OK did not stick: set up the
 *                      queues for FEATURES and set DRIVER_OK anyway
 *   --verbose          report every command's answer on stderr, not only
 *                      the bad ones
 *   --renegotiate      once FEATURES_OK stuck, VHOST_SET_FEATURES again;
 *                      adds " renegotiate=-ERRNO" (vhost_vdpa refuses it
 *                      with EBUSY, which the verdict requires)
 *   --kick VQ:COUNT    after the commands, give vring VQ a kick eventfd
 *                      (its own, if it is one of the queues set up) and
 *                      signal it COUNT times
 *   --exec CMD         run CMD (sh -c) after printing the line, while the
 *                      device is still live (vendor statistics need
 *                      FEATURES_OK); its output follows the line
 *
 * Without a device:
 *   vsbfeat --hex NAMES          prints the features NAMES as hex
 *   vsbfeat --cover NAMES [--base NAMES]
 *                     prints feature sets over the factors NAMES that
 *                     cover every pair of their values (each factor on or
 *                     off) the feature dependencies allow, one a line as
 *                     "0xHEX NAME..." (the factors on, or "-"); every set
 *                     has the --base features too. Greedy (AETG), with a
 *                     fixed seed: the same sets every time.
 */

#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/vhost.h>
#include <linux/virtio_config.h>
#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../tools/vdpactl-batch/lib/compat.h"

#define VHOST_RAW_PROG "vsbfeat"
#include "vhost_raw.h"

#define BIT(n) (1ULL << (n))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define VQ_NUM 64
#define PAGE 4096
#define IOVA_BASE 0x100000ULL
#define RX_BUFS 4
#define WAIT_MS_DEFAULT 2000
/* Queue pairs this driver sets up at most (the module has 8). */
#define MAX_PAIRS 64
/* How long answers may still come once the device needs a reset. */
#define RESET_GRACE_MS 200
#define ACK_UNSET 0xff
/* Where a command's data and reply sit in their pages, after the header. */
#define DATA_OFF 64
#define CMD_DATA_MAX 512
#define REPLY_MAX 64

/* Feature bits by the spec's numbers: older UAPI headers lack some. */
enum {
	F_CSUM = 0,
	F_GUEST_CSUM = 1,
	F_CTRL_GUEST_OFFLOADS = 2,
	F_MTU = 3,
	F_MAC = 5,
	F_GUEST_TSO4 = 7,
	F_GUEST_TSO6 = 8,
	F_GUEST_ECN = 9,
	F_GUEST_UFO = 10,
	F_HOST_TSO4 = 11,
	F_HOST_TSO6 = 12,
	F_HOST_ECN = 13,
	F_HOST_UFO = 14,
	F_MRG_RXBUF = 15,
	F_STATUS = 16,
	F_CTRL_VQ = 17,
	F_CTRL_RX = 18,
	F_CTRL_VLAN = 19,
	F_CTRL_RX_EXTRA = 20,
	F_GUEST_ANNOUNCE = 21,
	F_MQ = 22,
	F_CTRL_MAC_ADDR = 23,
	F_ANY_LAYOUT = 27,
	F_INDIRECT_DESC = 28,
	F_EVENT_IDX = 29,
	F_VERSION_1 = 32,
	F_ACCESS_PLATFORM = 33,
	F_RING_PACKED = 34,
	F_IN_ORDER = 35,
	F_DEVICE_STATS = 50,
	F_VQ_NOTF_COAL = 52,
	F_NOTF_COAL = 53,
	F_HASH_REPORT = 57,
	F_RSS = 60,
	F_RSC_EXT = 61,
	F_STANDBY = 62,
};

static const char *const feature_names[64] = {
	[F_CSUM] = "CSUM",
	[F_GUEST_CSUM] = "GUEST_CSUM",
	[F_CTRL_GUEST_OFFLOADS] = "CTRL_GUEST_OFFLOADS",
	[F_MTU] = "MTU",
	[F_MAC] = "MAC",
	[F_GUEST_TSO4] = "GUEST_TSO4",
	[F_GUEST_TSO6] = "GUEST_TSO6",
	[F_GUEST_ECN] = "GUEST_ECN",
	[F_GUEST_UFO] = "GUEST_UFO",
	[F_HOST_TSO4] = "HOST_TSO4",
	[F_HOST_TSO6] = "HOST_TSO6",
	[F_HOST_ECN] = "HOST_ECN",
	[F_HOST_UFO] = "HOST_UFO",
	[F_MRG_RXBUF] = "MRG_RXBUF",
	[F_STATUS] = "STATUS",
	[F_CTRL_VQ] = "CTRL_VQ",
	[F_CTRL_RX] = "CTRL_RX",
	[F_CTRL_VLAN] = "CTRL_VLAN",
	[F_CTRL_RX_EXTRA] = "CTRL_RX_EXTRA",
	[F_GUEST_ANNOUNCE] = "GUEST_ANNOUNCE",
	[F_MQ] = "MQ",
	[F_CTRL_MAC_ADDR] = "CTRL_MAC_ADDR",
	[F_ANY_LAYOUT] = "ANY_LAYOUT",
	[F_INDIRECT_DESC] = "INDIRECT_DESC",
	[F_EVENT_IDX] = "EVENT_IDX",
	[F_VERSION_1] = "VERSION_1",
	[F_ACCESS_PLATFORM] = "ACCESS_PLATFORM",
	[F_RING_PACKED] = "RING_PACKED",
	[F_IN_ORDER] = "IN_ORDER",
	[F_DEVICE_STATS] = "DEVICE_STATS",
	[F_VQ_NOTF_COAL] = "VQ_NOTF_COAL",
	[F_NOTF_COAL] = "NOTF_COAL",
	[F_HASH_REPORT] = "HASH_REPORT",
	[F_RSS] = "RSS",
	[F_RSC_EXT] = "RSC_EXT",
	[F_STANDBY] = "STANDBY",
};

/*
 * The network device's "Feature bit requirements": a feature needs one
 * of these. --cover keeps to them.
 */
static const struct {
	unsigned int bit;
	uint64_t needs_one_of;
} feature_deps[] = {
	{ F_GUEST_TSO4, BIT(F_GUEST_CSUM) },
	{ F_GUEST_TSO6, BIT(F_GUEST_CSUM) },
	{ F_GUEST_ECN, BIT(F_GUEST_TSO4) | BIT(F_GUEST_TSO6) },
	{ F_GUEST_UFO, BIT(F_GUEST_CSUM) },
	{ F_HOST_TSO4, BIT(F_CSUM) },
	{ F_HOST_TSO6, BIT(F_CSUM) },
	{ F_HOST_ECN, BIT(F_HOST_TSO4) | BIT(F_HOST_TSO6) },
	{ F_HOST_UFO, BIT(F_CSUM) },
	{ F_CTRL_RX, BIT(F_CTRL_VQ) },
	{ F_CTRL_VLAN, BIT(F_CTRL_VQ) },
	{ F_GUEST_ANNOUNCE, BIT(F_CTRL_VQ) },
	{ F_MQ, BIT(F_CTRL_VQ) },
	{ F_CTRL_MAC_ADDR, BIT(F_CTRL_VQ) },
	{ F_CTRL_RX_EXTRA, BIT(F_CTRL_RX) },
	{ F_CTRL_GUEST_OFFLOADS, BIT(F_CTRL_VQ) },
	{ F_RSS, BIT(F_CTRL_VQ) },
	{ F_NOTF_COAL, BIT(F_CTRL_VQ) },
	{ F_VQ_NOTF_COAL, BIT(F_CTRL_VQ) },
	{ F_DEVICE_STATS, BIT(F_CTRL_VQ) },
	{ F_RSC_EXT, BIT(F_HOST_TSO4) | BIT(F_HOST_TSO6) },
};

/* Control classes and commands by the spec's numbers, likewise. */
enum {
	CTRL_RX = 0,
	CTRL_RX_PROMISC = 0,
	CTRL_RX_ALLUNI = 2,
	CTRL_MAC = 1,
	CTRL_MAC_TABLE_SET = 0,
	CTRL_MAC_ADDR_SET = 1,
	CTRL_VLAN = 2,
	CTRL_VLAN_ADD = 0,
	CTRL_ANNOUNCE = 3,
	CTRL_ANNOUNCE_ACK = 0,
	CTRL_MQ = 4,
	CTRL_MQ_VQ_PAIRS_SET = 0,
	CTRL_MQ_RSS_CONFIG = 1,
	CTRL_MQ_HASH_CONFIG = 2,
	CTRL_GUEST_OFFLOADS = 5,
	CTRL_GUEST_OFFLOADS_SET = 0,
	CTRL_NOTF_COAL = 6,
	CTRL_NOTF_COAL_TX_SET = 0,
	CTRL_NOTF_COAL_RX_SET = 1,
	CTRL_NOTF_COAL_VQ_SET = 2,
	CTRL_NOTF_COAL_VQ_GET = 3,
	CTRL_STATS = 8,
	CTRL_STATS_QUERY = 0,
};

#define NET_OK 0
#define CONFIG_OFF(field) offsetof(struct virtio_net_config, field)
#define RSS_TABLE_LEN 4
#define RSS_KEY_LEN 40
#define COAL_VQ_PACKETS 8
#define COAL_VQ_USECS 20

static int feature_bit(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(feature_names); i++)
		if (feature_names[i] && strlen(feature_names[i]) == len &&
		    !strncmp(feature_names[i], name, len))
			return i;
	return -1;
}

/* NAME,NAME,... as a feature mask; exits on a name it does not know. */
static uint64_t parse_names(const char *s)
{
	uint64_t mask = 0;
	const char *end;
	int bit;

	for (; *s; s = *end ? end + 1 : end) {
		end = strchrnul(s, ',');
		bit = feature_bit(s, end - s);
		if (bit < 0) {
			fprintf(stderr, "vsbfeat: unknown feature '%.*s'\n",
				(int)(end - s), s);
			exit(2);
		}
		mask |= BIT(bit);
	}
	return mask;
}

/* A hex number (0x optional), or names; "offered" is the caller's. */
static uint64_t parse_features(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 16);
	if (!errno && end != s && !*end)
		return v;
	return parse_names(s);
}

/* --cover: pairwise coverage of factor values under feature_deps. */

#define MAX_FACTORS 64
#define COVER_CANDIDATES 40

struct cover {
	unsigned int k;
	unsigned int bit[MAX_FACTORS];
	uint64_t base;
	/* [i][a][j][b], i < j: pair (factor i = a, factor j = b) not yet in a set */
	bool *uncovered;
	unsigned long n_uncovered;
	uint64_t rng;
};

/* A row under construction: per factor -1 (open), 0 or 1. */
struct row {
	signed char v[MAX_FACTORS];
};

static size_t pair_idx(const struct cover *c, unsigned int i, int a,
		       unsigned int j, int b)
{
	return ((size_t)(2 * i + a) * c->k + j) * 2 + b;
}

/* Deterministic: the same feature sets on every machine. */
static unsigned int cover_rand(struct cover *c, unsigned int n)
{
	c->rng = c->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(c->rng >> 33) % n;
}

static int factor_of(const struct cover *c, unsigned int bit)
{
	unsigned int i;

	for (i = 0; i < c->k; i++)
		if (c->bit[i] == bit)
			return i;
	return -1;
}

static bool row_set(const struct cover *c, struct row *r, unsigned int f,
		    int v);

/* Bit @bit on in @r: in the base, or a factor that is or can be set. */
static bool row_turn_on(const struct cover *c, struct row *r, unsigned int bit)
{
	int f;

	if (c->base & BIT(bit))
		return true;
	f = factor_of(c, bit);
	return f >= 0 && row_set(c, r, f, 1);
}

/*
 * Factor @f = @v in @r, with what it needs (the first of the options
 * that can be had); false, with @r unchanged, if that cannot be.
 */
static bool row_set(const struct cover *c, struct row *r, unsigned int f, int v)
{
	unsigned int i, b;
	struct row try;

	if (r->v[f] >= 0)
		return r->v[f] == v;
	try = *r;
	try.v[f] = v;
	for (i = 0; v && i < ARRAY_SIZE(feature_deps); i++) {
		struct row opt;

		if (feature_deps[i].bit != c->bit[f])
			continue;
		for (b = 0; b < 64; b++) {
			if (!(feature_deps[i].needs_one_of & BIT(b)))
				continue;
			opt = try;
			if (row_turn_on(c, &opt, b))
				break;
		}
		if (b == 64)
			return false;
		try = opt;
	}
	*r = try;
	return true;
}

static unsigned long row_gain(const struct cover *c, const struct row *r)
{
	unsigned long gain = 0;
	unsigned int i, j;

	for (i = 0; i < c->k; i++)
		for (j = i + 1; j < c->k; j++)
			if (r->v[i] >= 0 && r->v[j] >= 0)
				gain += c->uncovered[pair_idx(c, i, r->v[i], j,
							      r->v[j])];
	return gain;
}

/* One candidate set: an uncovered pair, then every factor greedily. */
static void cover_candidate(struct cover *c, struct row *r)
{
	size_t n = (size_t)4 * c->k * c->k, start = cover_rand(c, n), p;
	unsigned int order[MAX_FACTORS], i, j, t;

	memset(r->v, -1, sizeof(r->v));
	for (p = 0; p < n; p++) {
		size_t q = (start + p) % n;

		if (c->uncovered[q]) {
			unsigned int fi = q / 2 / c->k / 2, fj = (q / 2) % c->k;
			int a = (q / 2 / c->k) % 2, b = q % 2;

			if (!row_set(c, r, fi, a) || !row_set(c, r, fj, b))
				abort(); /* only feasible pairs are uncovered */
			break;
		}
	}
	for (i = 0; i < c->k; i++)
		order[i] = i;
	for (i = c->k; i > 1; i--) {
		j = cover_rand(c, i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < c->k; i++) {
		unsigned int f = order[i];
		struct row with[2];
		long gain[2];
		int v;

		if (r->v[f] >= 0)
			continue;
		for (v = 0; v < 2; v++) {
			with[v] = *r;
			gain[v] = row_set(c, &with[v], f, v) ?
					  (long)row_gain(c, &with[v]) :
					  -1;
		}
		v = gain[1] > gain[0] ||
		    (gain[1] == gain[0] && cover_rand(c, 2));
		*r = with[v];
	}
}

static void cover_print(const struct cover *c, const struct row *r)
{
	uint64_t features = c->base;
	unsigned int i;
	bool any = false;

	for (i = 0; i < c->k; i++)
		if (r->v[i] == 1)
			features |= BIT(c->bit[i]);
	printf("0x%llx", (unsigned long long)features);
	for (i = 0; i < c->k; i++) {
		if (r->v[i] == 1) {
			printf(" %s", feature_names[c->bit[i]]);
			any = true;
		}
	}
	printf("%s\n", any ? "" : " -");
}

static int cover(uint64_t factors, uint64_t base)
{
	struct cover c = { .base = base, .rng = 0x76736266656174ULL };
	unsigned int i, j, b;
	int a, bv;

	for (b = 0; b < 64; b++)
		if ((factors & ~base) & BIT(b))
			c.bit[c.k++] = b;
	c.uncovered = calloc((size_t)4 * c.k * c.k, sizeof(bool));
	if (!c.uncovered)
		die("calloc");
	for (i = 0; i < c.k; i++) {
		for (j = i + 1; j < c.k; j++) {
			for (a = 0; a < 2; a++) {
				for (bv = 0; bv < 2; bv++) {
					struct row r;

					memset(r.v, -1, sizeof(r.v));
					if (row_set(&c, &r, i, a) &&
					    row_set(&c, &r, j, bv)) {
						c.uncovered[pair_idx(&c, i, a,
								     j, bv)] =
							true;
						c.n_uncovered++;
					}
				}
			}
		}
	}
	while (c.n_uncovered) {
		struct row best = { { 0 } }, cand;
		unsigned long best_gain = 0, gain;

		for (i = 0; i < COVER_CANDIDATES; i++) {
			cover_candidate(&c, &cand);
			gain = row_gain(&c, &cand);
			if (gain > best_gain) {
				best_gain = gain;
				best = cand;
			}
		}
		for (i = 0; i < c.k; i++) {
			for (j = i + 1; j < c.k; j++) {
				size_t q = pair_idx(&c, i, best.v[i], j,
						    best.v[j]);

				c.n_uncovered -= c.uncovered[q];
				c.uncovered[q] = false;
			}
		}
		cover_print(&c, &best);
	}
	free(c.uncovered);
	return 0;
}

/* The driver. */

struct buf {
	uint64_t iova;
	uint32_t len;
	bool writable;
};

struct vq {
	unsigned int index;
	uint8_t *drv, *dev; /* its driver (device-readable) and device pages */
	uint64_t drv_iova, dev_iova;
	int kick_fd, call_fd;
	/* split: next avail and used entries; packed: next slots */
	uint16_t next_avail, next_used;
	/* packed: wrap counters, and each buffer id's chain length */
	bool avail_wrap, used_wrap;
	uint16_t chain_len[VQ_NUM];
};

struct opts {
	const char *path;
	const char *features_arg;
	unsigned int wait_ms;
	bool force_driver_ok;
	bool renegotiate;
	bool verbose;
	bool kick_given;
	unsigned int kick_vq, kick_count;
	const char *exec;
};

/* The four memory regions, each one IOTLB map: data and CVQ, RO and RW. */
enum region { R_DATA_DRV, R_DATA_DEV, R_CVQ_DRV, R_CVQ_DEV, R_COUNT };

struct drv {
	int fd;
	uint64_t features;
	bool packed, indirect, event_idx, has_cvq;
	uint16_t pairs;
	unsigned int nvqs; /* set up: 2 * pairs, and the CVQ */
	struct vq vqs[2 * MAX_PAIRS + 1];
	uint8_t *mem;
	size_t region_page[R_COUNT], region_pages[R_COUNT];
	uint32_t cvq_asid;
	/* CVQ pages: command and indirect table (RO), ack and reply (RW) */
	uint8_t *cmd, *table, *ack;
	uint64_t cmd_iova, table_iova, ack_iova;
	uint32_t rss_key_max;
	uint32_t hash_types;
};

static void xioctl(struct drv *d, unsigned long req, void *arg,
		   const char *name)
{
	vhost_raw_ioctl(d->fd, req, arg, name);
}

static uint8_t get_status(struct drv *d)
{
	return vhost_raw_get_status(d->fd);
}

static void set_status(struct drv *d, uint8_t status)
{
	xioctl(d, VHOST_VDPA_SET_STATUS, &status, "VHOST_VDPA_SET_STATUS");
}

static void get_config(struct drv *d, uint32_t off, void *buf, uint32_t len)
{
	struct vhost_vdpa_config *cfg = malloc(sizeof(*cfg) + len);

	if (!cfg)
		die("malloc");
	cfg->off = off;
	cfg->len = len;
	xioctl(d, VHOST_VDPA_GET_CONFIG, cfg, "VHOST_VDPA_GET_CONFIG");
	memcpy(buf, cfg->buf, len);
	free(cfg);
}

static void iotlb_msg(struct drv *d, uint32_t asid, uint8_t type, uint64_t iova,
		      uint64_t size, uint64_t uaddr, uint8_t perm)
{
	vhost_raw_iotlb(d->fd, asid, type, iova, size, uaddr, perm);
}

static uint8_t *page_at(const struct drv *d, enum region r, size_t page)
{
	return d->mem + (d->region_page[r] + page) * PAGE;
}

/* IOVA == IOVA_BASE + offset in the memfd: one address for both. */
static uint64_t iova_of(const struct drv *d, const void *p)
{
	return IOVA_BASE + (uint64_t)((const uint8_t *)p - d->mem);
}

/*
 * Pages: per data queue a driver page (RO) and a device page (RW), the
 * receive buffers (RW); the CVQ's driver, command and indirect table
 * pages (RO), its device and ack pages (RW).
 */
static void layout(struct drv *d)
{
	size_t next = 0, total, r;
	unsigned int data_vqs = 2 * d->pairs;
	int memfd;

	d->region_pages[R_DATA_DRV] = data_vqs;
	d->region_pages[R_DATA_DEV] = data_vqs + (size_t)d->pairs * RX_BUFS;
	d->region_pages[R_CVQ_DRV] = d->has_cvq ? 3 : 0;
	d->region_pages[R_CVQ_DEV] = d->has_cvq ? 2 : 0;
	for (r = 0; r < R_COUNT; r++) {
		d->region_page[r] = next;
		next += d->region_pages[r];
	}
	total = next * PAGE;
	memfd = memfd_create("vsbfeat", MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, total))
		die("memfd");
	d->mem =
		mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (d->mem == MAP_FAILED)
		die("mmap");
	close(memfd);
	if (d->has_cvq) {
		d->cmd = page_at(d, R_CVQ_DRV, 1);
		d->table = page_at(d, R_CVQ_DRV, 2);
		d->ack = page_at(d, R_CVQ_DEV, 1);
		d->cmd_iova = iova_of(d, d->cmd);
		d->table_iova = iova_of(d, d->table);
		d->ack_iova = iova_of(d, d->ack);
	}
}

static void map_regions(struct drv *d)
{
	static const uint8_t perm[R_COUNT] = {
		[R_DATA_DRV] = VHOST_ACCESS_RO,
		[R_DATA_DEV] = VHOST_ACCESS_RW,
		[R_CVQ_DRV] = VHOST_ACCESS_RO,
		[R_CVQ_DEV] = VHOST_ACCESS_RW,
	};
	uint32_t asid;
	int r;

	/* A batch holds one address space's maps. */
	for (asid = 0; asid <= d->cvq_asid; asid++) {
		iotlb_msg(d, asid, VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0);
		for (r = 0; r < R_COUNT; r++) {
			bool cvq = r == R_CVQ_DRV || r == R_CVQ_DEV;

			if (!d->region_pages[r] ||
			    (cvq ? d->cvq_asid : 0) != asid)
				continue;
			iotlb_msg(d, asid, VHOST_IOTLB_UPDATE,
				  iova_of(d, page_at(d, r, 0)),
				  d->region_pages[r] * PAGE,
				  (uintptr_t)page_at(d, r, 0), perm[r]);
		}
		iotlb_msg(d, asid, VHOST_IOTLB_BATCH_END, 0, 0, 0, 0);
	}
}

/*
 * Split: descriptor table and avail ring in the driver page, used ring in
 * the device page. Packed: the driver event area in the driver page, the
 * descriptor ring (which the device writes back) and the device event
 * area in the device page.
 */
static struct vring_desc *split_desc(struct vq *vq)
{
	return (struct vring_desc *)vq->drv;
}

static struct vring_avail *split_avail(struct vq *vq)
{
	return (struct vring_avail *)(vq->drv +
				      VQ_NUM * sizeof(struct vring_desc));
}

static struct vring_used *split_used(struct vq *vq)
{
	return (struct vring_used *)vq->dev;
}

static struct vring_packed_desc *packed_desc(struct vq *vq)
{
	return (struct vring_packed_desc *)vq->dev;
}

static uint64_t packed_device_event_iova(struct vq *vq)
{
	return vq->dev_iova + VQ_NUM * sizeof(struct vring_packed_desc);
}

static void setup_vq(struct drv *d, struct vq *vq)
{
	struct vhost_vring_state state = { .index = vq->index, .num = VQ_NUM };
	struct vhost_vring_addr addr = { .index = vq->index };
	struct vhost_vring_file file = { .index = vq->index };

	xioctl(d, VHOST_SET_VRING_NUM, &state, "VHOST_SET_VRING_NUM");
	if (d->packed) {
		addr.desc_user_addr = vq->dev_iova;
		addr.avail_user_addr = vq->drv_iova;
		addr.used_user_addr = packed_device_event_iova(vq);
		vq->avail_wrap = vq->used_wrap = true;
		/* Avail and used slot 0, each wrap counter 1 (bit 15). */
		state.num = 0x80008000;
	} else {
		addr.desc_user_addr = vq->drv_iova;
		addr.avail_user_addr = iova_of(d, split_avail(vq));
		addr.used_user_addr = vq->dev_iova;
		state.num = 0;
	}
	xioctl(d, VHOST_SET_VRING_ADDR, &addr, "VHOST_SET_VRING_ADDR");
	xioctl(d, VHOST_SET_VRING_BASE, &state, "VHOST_SET_VRING_BASE");
	vq->kick_fd = file.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (file.fd < 0)
		die("eventfd");
	xioctl(d, VHOST_SET_VRING_KICK, &file, "VHOST_SET_VRING_KICK");
	vq->call_fd = file.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (file.fd < 0)
		die("eventfd");
	xioctl(d, VHOST_SET_VRING_CALL, &file, "VHOST_SET_VRING_CALL");
	state.num = 1;
	xioctl(d, VHOST_VDPA_SET_VRING_ENABLE, &state,
	       "VHOST_VDPA_SET_VRING_ENABLE");
}

static void fill_table(struct drv *d, const struct buf *bufs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint16_t write = bufs[i].writable ? VRING_DESC_F_WRITE : 0;

		if (d->packed) {
			struct vring_packed_desc *t = (void *)d->table;

			/* Only F_WRITE counts in a packed indirect table. */
			t[i] = (struct vring_packed_desc){
				.addr = htole64(bufs[i].iova),
				.len = htole32(bufs[i].len),
				.flags = htole16(write),
			};
		} else {
			struct vring_desc *t = (void *)d->table;

			t[i] = (struct vring_desc){
				.addr = htole64(bufs[i].iova),
				.len = htole32(bufs[i].len),
				.flags = htole16(
					write |
					(i + 1 < n ? VRING_DESC_F_NEXT : 0)),
				.next = htole16(i + 1),
			};
		}
	}
}

/*
 * Make one chain available as buffer @id (split: its head descriptor;
 * chains never overlap, as at most one command is in flight), through
 * an indirect table if @indirect. Not kicked.
 */
static void add_chain(struct drv *d, struct vq *vq, const struct buf *bufs,
		      unsigned int n, uint16_t id, bool indirect)
{
	const struct buf table = {
		.iova = d->table_iova,
		.len = n * (d->packed ? sizeof(struct vring_packed_desc) :
					sizeof(struct vring_desc))
	};
	uint16_t indirect_flag = indirect ? VRING_DESC_F_INDIRECT : 0;
	unsigned int i;

	if (indirect) {
		fill_table(d, bufs, n);
		bufs = &table;
		n = 1;
	}
	if (d->packed) {
		struct vring_packed_desc *desc = packed_desc(vq);
		uint16_t head = vq->next_avail, head_flags = 0;

		for (i = 0; i < n; i++) {
			uint16_t pos = vq->next_avail;
			uint16_t flags =
				(bufs[i].writable ? VRING_DESC_F_WRITE : 0) |
				(i + 1 < n ? VRING_DESC_F_NEXT : 0) |
				indirect_flag |
				(vq->avail_wrap ?
					 BIT(VRING_PACKED_DESC_F_AVAIL) :
					 BIT(VRING_PACKED_DESC_F_USED));

			desc[pos].addr = htole64(bufs[i].iova);
			desc[pos].len = htole32(bufs[i].len);
			desc[pos].id = htole16(id);
			/* The head's flags last: they make the chain available. */
			if (i)
				desc[pos].flags = htole16(flags);
			else
				head_flags = flags;
			if (++vq->next_avail == VQ_NUM) {
				vq->next_avail = 0;
				vq->avail_wrap = !vq->avail_wrap;
			}
		}
		vq->chain_len[id] = n;
		__atomic_store_n(&desc[head].flags, htole16(head_flags),
				 __ATOMIC_RELEASE);
	} else {
		struct vring_desc *desc = split_desc(vq);
		struct vring_avail *avail = split_avail(vq);

		for (i = 0; i < n; i++)
			desc[id + i] = (struct vring_desc){
				.addr = htole64(bufs[i].iova),
				.len = htole32(bufs[i].len),
				.flags = htole16(
					(bufs[i].writable ? VRING_DESC_F_WRITE :
							    0) |
					(i + 1 < n ? VRING_DESC_F_NEXT : 0) |
					indirect_flag),
				.next = htole16(id + i + 1),
			};
		avail->ring[vq->next_avail % VQ_NUM] = htole16(id);
		__atomic_store_n(&avail->idx, htole16(++vq->next_avail),
				 __ATOMIC_RELEASE);
	}
}

/* The next used element, if the device has returned one. */
static bool pop_used(struct drv *d, struct vq *vq, uint16_t *id, uint32_t *len)
{
	if (d->packed) {
		struct vring_packed_desc *desc =
			&packed_desc(vq)[vq->next_used];
		uint16_t flags = le16toh(
			__atomic_load_n(&desc->flags, __ATOMIC_ACQUIRE));
		bool avail = flags & BIT(VRING_PACKED_DESC_F_AVAIL);
		bool used = flags & BIT(VRING_PACKED_DESC_F_USED);

		if (avail != used || used != vq->used_wrap)
			return false;
		*id = le16toh(desc->id);
		*len = le32toh(desc->len);
		vq->next_used += *id < VQ_NUM ? vq->chain_len[*id] : 1;
		if (vq->next_used >= VQ_NUM) {
			vq->next_used -= VQ_NUM;
			vq->used_wrap = !vq->used_wrap;
		}
		return true;
	} else {
		struct vring_used *used = split_used(vq);
		struct vring_used_elem *e;

		if (le16toh(__atomic_load_n(&used->idx, __ATOMIC_ACQUIRE)) ==
		    vq->next_used)
			return false;
		e = &used->ring[vq->next_used++ % VQ_NUM];
		*id = le32toh(e->id);
		*len = le32toh(e->len);
		/* EVENT_IDX: a notification for the next used entry too. */
		if (d->event_idx)
			split_avail(vq)->ring[VQ_NUM] = htole16(vq->next_used);
		return true;
	}
}

static void kick(struct vq *vq)
{
	if (eventfd_write(vq->kick_fd, 1))
		die("kick of queue %u", vq->index);
}

/* Receive buffers, page-sized, one descriptor each. */
static void fill_rx(struct drv *d, struct vq *vq)
{
	uint8_t *page =
		page_at(d, R_DATA_DEV, 2 * d->pairs + vq->index / 2 * RX_BUFS);
	unsigned int i;

	for (i = 0; i < RX_BUFS; i++) {
		struct buf b = { .iova = iova_of(d, page + i * PAGE),
				 .len = PAGE,
				 .writable = true };

		add_chain(d, vq, &b, 1, i, false);
	}
}

struct cmd {
	const char *name;
	uint8_t class, cmd;
	uint16_t len;
	uint8_t data[CMD_DATA_MAX];
	uint16_t reply_len;
	/* what the reply must be; with reply_nonzero, any non-zero bytes */
	uint8_t reply[REPLY_MAX];
	bool reply_nonzero;
};

static void put_le16(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static void put_le32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static void put_le64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

static struct cmd *new_cmd(struct cmd *cmds, unsigned int *n, const char *name,
			   uint8_t class, uint8_t cmd, uint16_t len)
{
	struct cmd *c = &cmds[(*n)++];

	memset(c, 0, sizeof(*c));
	c->name = name;
	c->class = class;
	c->cmd = cmd;
	c->len = len;
	return c;
}

static bool has(const struct drv *d, unsigned int bit)
{
	return d->features & BIT(bit);
}

static const uint8_t mac_unicast[6] = { 0x02, 0, 0, 0, 0xfe, 0x01 };
static const uint8_t mac_multicast[6] = { 0x01, 0, 0x5e, 0, 0, 0x01 };
static const uint8_t mac_addr[6] = { 0x02, 0, 0, 0, 0xfe, 0x02 };

/* RSS_CONFIG: the first RSS_TABLE_LEN entries spread over the pairs. */
static uint16_t rss_config(const struct drv *d, uint8_t *p)
{
	uint16_t off = 8, i;

	put_le32(p, d->hash_types);
	put_le16(p + 4, RSS_TABLE_LEN - 1);
	put_le16(p + 6, 0); /* unclassified: receive queue 0 */
	for (i = 0; i < RSS_TABLE_LEN; i++, off += 2)
		put_le16(p + off, i % d->pairs);
	put_le16(p + off, d->pairs);
	p[off + 2] = d->rss_key_max;
	for (i = 0; i < d->rss_key_max; i++)
		p[off + 3 + i] = 0x6d + i;
	return off + 3 + d->rss_key_max;
}

/* HASH_CONFIG: le32 hash_types, le16 reserved[4], the key. */
static uint16_t hash_config(const struct drv *d, uint8_t *p)
{
	uint16_t i;

	put_le32(p, d->hash_types);
	memset(p + 4, 0, 8);
	p[12] = d->rss_key_max;
	for (i = 0; i < d->rss_key_max; i++)
		p[13 + i] = 0x3c + i;
	return 13 + d->rss_key_max;
}

/* One command of every class the negotiated features allow. */
static unsigned int build_cmds(const struct drv *d, struct cmd *cmds)
{
	unsigned int n = 0;
	struct cmd *c;

	if (has(d, F_CTRL_MAC_ADDR)) {
		c = new_cmd(cmds, &n, "MAC_ADDR_SET", CTRL_MAC,
			    CTRL_MAC_ADDR_SET, 6);
		memcpy(c->data, mac_addr, 6);
	}
	if (has(d, F_MQ)) {
		c = new_cmd(cmds, &n, "VQ_PAIRS_SET", CTRL_MQ,
			    CTRL_MQ_VQ_PAIRS_SET, 2);
		put_le16(c->data, d->pairs);
	}
	if (has(d, F_RSS)) {
		c = new_cmd(cmds, &n, "RSS_CONFIG", CTRL_MQ, CTRL_MQ_RSS_CONFIG,
			    0);
		c->len = rss_config(d, c->data);
	}
	if (has(d, F_HASH_REPORT)) {
		c = new_cmd(cmds, &n, "HASH_CONFIG", CTRL_MQ,
			    CTRL_MQ_HASH_CONFIG, 0);
		c->len = hash_config(d, c->data);
	}
	if (has(d, F_CTRL_GUEST_OFFLOADS)) {
		c = new_cmd(cmds, &n, "GUEST_OFFLOADS_SET", CTRL_GUEST_OFFLOADS,
			    CTRL_GUEST_OFFLOADS_SET, 8);
		/* Only negotiated offloads may be on. */
		put_le64(c->data, d->features & BIT(F_GUEST_CSUM));
	}
	if (has(d, F_CTRL_RX)) {
		c = new_cmd(cmds, &n, "RX_PROMISC", CTRL_RX, CTRL_RX_PROMISC,
			    1);
		c->data[0] = 0;
		c = new_cmd(cmds, &n, "MAC_TABLE_SET", CTRL_MAC,
			    CTRL_MAC_TABLE_SET, 2 * (4 + 6));
		put_le32(c->data, 1);
		memcpy(c->data + 4, mac_unicast, 6);
		put_le32(c->data + 10, 1);
		memcpy(c->data + 14, mac_multicast, 6);
	}
	/* The RX class needs CTRL_RX, whatever the command. */
	if (has(d, F_CTRL_RX) && has(d, F_CTRL_RX_EXTRA)) {
		c = new_cmd(cmds, &n, "RX_ALLUNI", CTRL_RX, CTRL_RX_ALLUNI, 1);
		c->data[0] = 1;
	}
	if (has(d, F_CTRL_VLAN)) {
		c = new_cmd(cmds, &n, "VLAN_ADD", CTRL_VLAN, CTRL_VLAN_ADD, 2);
		put_le16(c->data, 5);
	}
	if (has(d, F_GUEST_ANNOUNCE))
		new_cmd(cmds, &n, "ANNOUNCE_ACK", CTRL_ANNOUNCE,
			CTRL_ANNOUNCE_ACK, 0);
	if (has(d, F_NOTF_COAL)) {
		c = new_cmd(cmds, &n, "NOTF_COAL_TX_SET", CTRL_NOTF_COAL,
			    CTRL_NOTF_COAL_TX_SET, 8);
		put_le32(c->data, 16);
		put_le32(c->data + 4, 50);
		c = new_cmd(cmds, &n, "NOTF_COAL_RX_SET", CTRL_NOTF_COAL,
			    CTRL_NOTF_COAL_RX_SET, 8);
		put_le32(c->data, 16);
		put_le32(c->data + 4, 50);
	}
	if (has(d, F_VQ_NOTF_COAL)) {
		/* { le16 vq_index; le16 reserved; le32 packets, usecs } */
		c = new_cmd(cmds, &n, "NOTF_COAL_VQ_SET", CTRL_NOTF_COAL,
			    CTRL_NOTF_COAL_VQ_SET, 12);
		put_le32(c->data + 4, COAL_VQ_PACKETS);
		put_le32(c->data + 8, COAL_VQ_USECS);
		c = new_cmd(cmds, &n, "NOTF_COAL_VQ_GET", CTRL_NOTF_COAL,
			    CTRL_NOTF_COAL_VQ_GET, 4);
		c->reply_len = 8;
		put_le32(c->reply, COAL_VQ_PACKETS);
		put_le32(c->reply + 4, COAL_VQ_USECS);
	}
	if (has(d, F_DEVICE_STATS)) {
		c = new_cmd(cmds, &n, "STATS_QUERY", CTRL_STATS,
			    CTRL_STATS_QUERY, 0);
		c->reply_len = 8;
		c->reply_nonzero = true;
	}
	return n;
}

struct cmd_result {
	bool used;
	bool good;
	bool needs_reset;
};

static bool needs_reset(struct drv *d)
{
	return get_status(d) & VIRTIO_CONFIG_S_NEEDS_RESET;
}

/* Send @c on the CVQ, wait for it, judge the answer. */
static void run_cmd(struct drv *d, const struct opts *o, struct cmd *c,
		    struct cmd_result *res)
{
	struct vq *cvq = &d->vqs[d->nvqs - 1];
	uint8_t *reply = d->ack + DATA_OFF;
	struct buf bufs[4];
	uint64_t start = now_ms(), deadline = start + o->wait_ms, now;
	unsigned int n = 0, polls = 0;
	int left;
	uint16_t id = 0;
	uint32_t len = 0;
	bool nonzero = false, notified;
	struct pollfd call = { .fd = cvq->call_fd, .events = POLLIN };
	eventfd_t calls;
	unsigned int i;

	memset(res, 0, sizeof(*res));
	eventfd_read(cvq->call_fd, &calls); /* none left over */
	d->cmd[0] = c->class;
	d->cmd[1] = c->cmd;
	memcpy(d->cmd + DATA_OFF, c->data, c->len);
	d->ack[0] = ACK_UNSET;
	memset(reply, ACK_UNSET, REPLY_MAX);
	bufs[n++] = (struct buf){ .iova = d->cmd_iova, .len = 2 };
	if (c->len)
		bufs[n++] = (struct buf){ .iova = d->cmd_iova + DATA_OFF,
					  .len = c->len };
	bufs[n++] =
		(struct buf){ .iova = d->ack_iova, .len = 1, .writable = true };
	if (c->reply_len)
		bufs[n++] = (struct buf){ .iova = d->ack_iova + DATA_OFF,
					  .len = c->reply_len,
					  .writable = true };
	add_chain(d, cvq, bufs, n, 0, d->indirect);
	kick(cvq);
	for (;;) {
		if (pop_used(d, cvq, &id, &len)) {
			res->used = true;
			break;
		}
		/* A status read is an ioctl: not on every poll. */
		if (!res->needs_reset && ++polls % 16 == 0 && needs_reset(d)) {
			res->needs_reset = true;
			deadline = now_ms() + RESET_GRACE_MS;
		}
		if (now_ms() >= deadline)
			break;
		poll(NULL, 0, 1);
	}
	res->needs_reset |= needs_reset(d);
	if (!res->used) {
		fprintf(stderr, "vsbfeat: %s: not answered in %llu ms%s\n",
			c->name, (unsigned long long)(now_ms() - start),
			res->needs_reset ? " (device needs reset)" : "");
		return;
	}
	/*
	 * Used buffer notifications were never suppressed (with EVENT_IDX,
	 * used_event is the entry waited for): one follows the used entry.
	 */
	now = now_ms();
	left = deadline > now ? deadline - now : 0;
	notified = poll(&call, 1, left) == 1 &&
		   !eventfd_read(cvq->call_fd, &calls);
	for (i = 0; i < c->reply_len; i++)
		nonzero |= reply[i] != 0;
	res->good =
		id == 0 && len == 1u + c->reply_len && d->ack[0] == NET_OK &&
		(c->reply_nonzero ? nonzero :
				    !memcmp(reply, c->reply, c->reply_len)) &&
		notified;
	if (!res->good || o->verbose)
		fprintf(stderr,
			"vsbfeat: %s: %s: id %u, used length %u (want %u), ack %u, %s\n",
			c->name, res->good ? "good" : "bad", id, len,
			1u + c->reply_len, d->ack[0],
			notified ? "notified" : "no notification");
}

/* --kick: COUNT kicks of vring VQ, each a wake-up of its kick eventfd. */
static void kick_vring(struct drv *d, unsigned int index, unsigned int count)
{
	struct vhost_vring_file file = { .index = index, .fd = -1 };
	unsigned int i;

	if (index < d->nvqs) {
		file.fd = d->vqs[index].kick_fd;
	} else {
		file.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (file.fd < 0)
			die("eventfd");
		xioctl(d, VHOST_SET_VRING_KICK, &file, "VHOST_SET_VRING_KICK");
	}
	for (i = 0; i < count; i++)
		if (eventfd_write(file.fd, 1))
			die("kick of vring %u", index);
}

/* The CVQ's group apart from the data queues' (which share one)? */
static bool groups_ok(struct drv *d, uint32_t *cvq_group)
{
	struct vhost_vring_state s;
	uint32_t data_group = 0;
	unsigned int i;

	for (i = 0; i < d->nvqs; i++) {
		s = (struct vhost_vring_state){ .index = i };
		if (ioctl(d->fd, VHOST_VDPA_GET_VRING_GROUP, &s)) {
			fprintf(stderr,
				"vsbfeat: VHOST_VDPA_GET_VRING_GROUP %u: %s\n",
				i, strerror(errno));
			return false;
		}
		if (!i)
			data_group = s.num;
		else if (i + 1 < d->nvqs && s.num != data_group)
			return false;
		else if (i + 1 == d->nvqs)
			*cvq_group = s.num;
	}
	return *cvq_group != data_group;
}

static uint64_t ack_backend(struct drv *d)
{
	uint64_t want = BIT(VHOST_BACKEND_F_IOTLB_MSG_V2) |
			BIT(VHOST_BACKEND_F_IOTLB_BATCH) |
			BIT(VHOST_BACKEND_F_IOTLB_ASID);
	uint64_t offered;

	xioctl(d, VHOST_GET_BACKEND_FEATURES, &offered,
	       "VHOST_GET_BACKEND_FEATURES");
	want &= offered;
	if (!(want & BIT(VHOST_BACKEND_F_IOTLB_BATCH))) {
		errno = EOPNOTSUPP;
		die("backend feature IOTLB_BATCH");
	}
	xioctl(d, VHOST_SET_BACKEND_FEATURES, &want,
	       "VHOST_SET_BACKEND_FEATURES");
	return want;
}

/* The config fields the run needs: pairs (with MQ or RSS), RSS limits. */
static void read_config(struct drv *d)
{
	uint16_t pairs = 1;
	uint32_t types;
	uint8_t key;

	if (has(d, F_MQ) || has(d, F_RSS)) {
		get_config(d, CONFIG_OFF(max_virtqueue_pairs), &pairs,
			   sizeof(pairs));
		pairs = le16toh(pairs);
		if (!pairs || pairs > MAX_PAIRS) {
			errno = ERANGE;
			die("max_virtqueue_pairs %u", pairs);
		}
	}
	d->pairs = pairs;
	if (has(d, F_RSS) || has(d, F_HASH_REPORT)) {
		get_config(d, CONFIG_OFF(rss_max_key_size), &key, sizeof(key));
		get_config(d, CONFIG_OFF(supported_hash_types), &types,
			   sizeof(types));
		d->rss_key_max = key < RSS_KEY_LEN ? key : RSS_KEY_LEN;
		d->hash_types = le32toh(types);
	}
}

static int run(const struct opts *o)
{
	static struct drv drv;
	static struct cmd cmds[32];
	struct drv *d = &drv;
	uint64_t backend, offered;
	unsigned int n_cmds, n_used = 0, n_good = 0, i;
	uint32_t cvq_group = 0;
	int set_err, reneg_err = 0, group_ok = -1;
	bool features_ok, reset_seen = false;
	uint8_t status;

	d->fd = open(o->path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		die("open %s", o->path);
	xioctl(d, VHOST_SET_OWNER, NULL, "VHOST_SET_OWNER");
	backend = ack_backend(d);

	set_status(d, 0);
	set_status(d, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	set_status(d, VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);
	if (!strcmp(o->features_arg, "offered")) {
		xioctl(d, VHOST_GET_FEATURES, &offered, "VHOST_GET_FEATURES");
		d->features = offered;
	} else {
		d->features = parse_features(o->features_arg);
	}
	set_err = ioctl(d->fd, VHOST_SET_FEATURES, &d->features) ? -errno : 0;
	set_status(d, get_status(d) | VIRTIO_CONFIG_S_FEATURES_OK);
	features_ok = get_status(d) & VIRTIO_CONFIG_S_FEATURES_OK;
	if (!features_ok && !o->force_driver_ok) {
		printf("set_features=%d features_ok=0\n", set_err);
		set_status(d, 0);
		return 1;
	}
	if (features_ok && o->renegotiate)
		reneg_err = ioctl(d->fd, VHOST_SET_FEATURES, &d->features) ?
				    -errno :
				    0;

	d->packed = has(d, F_RING_PACKED);
	d->indirect = has(d, F_INDIRECT_DESC);
	d->event_idx = has(d, F_EVENT_IDX);
	d->has_cvq = has(d, F_CTRL_VQ);
	read_config(d);
	d->nvqs = 2 * d->pairs + d->has_cvq;
	layout(d);
	if (d->has_cvq) {
		group_ok = groups_ok(d, &cvq_group);
		/* QEMU's isolation: the CVQ's memory only in its own space. */
		if (group_ok && (backend & BIT(VHOST_BACKEND_F_IOTLB_ASID))) {
			struct vhost_vring_state s = { .index = cvq_group,
						       .num = 1 };

			xioctl(d, VHOST_VDPA_SET_GROUP_ASID, &s,
			       "VHOST_VDPA_SET_GROUP_ASID");
			d->cvq_asid = 1;
		}
	}
	map_regions(d);
	for (i = 0; i < d->nvqs; i++) {
		struct vq *vq = &d->vqs[i];
		bool cvq = d->has_cvq && i + 1 == d->nvqs;

		vq->index = i;
		vq->drv = cvq ? page_at(d, R_CVQ_DRV, 0) :
				page_at(d, R_DATA_DRV, i);
		vq->dev = cvq ? page_at(d, R_CVQ_DEV, 0) :
				page_at(d, R_DATA_DEV, i);
		vq->drv_iova = iova_of(d, vq->drv);
		vq->dev_iova = iova_of(d, vq->dev);
		setup_vq(d, vq);
		if (!cvq && i % 2 == 0)
			fill_rx(d, vq);
	}
	set_status(d, get_status(d) | VIRTIO_CONFIG_S_DRIVER_OK);
	for (i = 0; i < 2u * d->pairs; i++)
		kick(&d->vqs[i]);

	n_cmds = d->has_cvq ? build_cmds(d, cmds) : 0;
	for (i = 0; i < n_cmds && !reset_seen; i++) {
		struct cmd_result res;

		run_cmd(d, o, &cmds[i], &res);
		n_used += res.used;
		n_good += res.good;
		reset_seen = res.needs_reset;
		/* Where the device is in the ring is anyone's guess now. */
		if (!res.used)
			break;
	}
	if (o->kick_given)
		kick_vring(d, o->kick_vq, o->kick_count);

	status = get_status(d);
	reset_seen |= status & VIRTIO_CONFIG_S_NEEDS_RESET;
	printf("set_features=%d features_ok=%d pairs=%u", set_err, features_ok,
	       d->pairs);
	if (d->has_cvq)
		printf(" cvq=%u group_ok=%d", d->nvqs - 1, group_ok);
	else
		printf(" cvq=none group_ok=na");
	printf(" cmds=%u used=%u acks_ok=%u needs_reset=%d status=0x%x", n_cmds,
	       n_used, n_good, reset_seen, status);
	if (o->renegotiate)
		printf(" renegotiate=%d", reneg_err);
	printf("\n");
	fflush(stdout);
	if (o->exec && system(o->exec) == -1)
		die("running '%s'", o->exec);
	set_status(d, 0);
	close(d->fd);
	return set_err || !features_ok || group_ok == 0 || n_good != n_cmds ||
	       reset_seen || !(status & VIRTIO_CONFIG_S_DRIVER_OK) ||
	       (o->renegotiate && reneg_err != -EBUSY);
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"Usage: vsbfeat [--wait-ms MS] [--verbose] [--force-driver-ok] [--renegotiate]\n"
		"         [--kick VQ:COUNT] [--exec CMD] --features FEATURES /dev/vhost-vdpa-N\n"
		"       vsbfeat --hex NAME,...\n"
		"       vsbfeat --cover NAME,... [--base NAME,...]\n"
		"FEATURES: hex, 'offered', or NAME,...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct opts o = { .wait_ms = WAIT_MS_DEFAULT };
	const char *cover_arg = NULL, *base_arg = NULL, *hex_arg = NULL;
	int a;

	for (a = 1; a < argc && !strncmp(argv[a], "--", 2); a++) {
		const char *opt = argv[a];

		if (!strcmp(opt, "--force-driver-ok"))
			o.force_driver_ok = true;
		else if (!strcmp(opt, "--renegotiate"))
			o.renegotiate = true;
		else if (!strcmp(opt, "--verbose"))
			o.verbose = true;
		else if (a + 1 >= argc)
			usage();
		else if (!strcmp(opt, "--features"))
			o.features_arg = argv[++a];
		else if (!strcmp(opt, "--wait-ms"))
			o.wait_ms = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(opt, "--exec"))
			o.exec = argv[++a];
		else if (!strcmp(opt, "--hex"))
			hex_arg = argv[++a];
		else if (!strcmp(opt, "--cover"))
			cover_arg = argv[++a];
		else if (!strcmp(opt, "--base"))
			base_arg = argv[++a];
		else if (!strcmp(opt, "--kick")) {
			if (sscanf(argv[++a], "%u:%u", &o.kick_vq,
				   &o.kick_count) != 2)
				usage();
			o.kick_given = true;
		} else {
			usage();
		}
	}
	if (hex_arg && a == argc) {
		printf("0x%llx\n", (unsigned long long)parse_names(hex_arg));
		return 0;
	}
	if (cover_arg && a == argc)
		return cover(parse_names(cover_arg),
			     base_arg ? parse_names(base_arg) : 0);
	if (!o.features_arg || a + 1 != argc)
		usage();
	o.path = argv[a];
	return run(&o);
}
