// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsbfeat: a vhost-vdpa driver of a whole net device that negotiates
 * exactly the feature set it is given, for the VM tests of feature
 * combinations, on the tool's library (lib/): its vhost-vdpa calls, its
 * rings, split and packed, with or without indirect descriptors, and its
 * command encoders. What is its own is the careless driver's freedom:
 * features the device may refuse, DRIVER_OK without FEATURES_OK.
 *
 *   vsbfeat [OPTIONS] --features FEATURES /dev/vhost-vdpa-N
 *
 * FEATURES: a hex number (0x optional), "offered" (what the device
 * offers), or feature names joined by commas (the spec's names without
 * VIRTIO_NET_F_, VIRTIO_F_ or VIRTIO_RING_F_: CTRL_VQ,MQ,RING_PACKED,...;
 * iproute2's spelling, RING_EVENT_IDX, too).
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

#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/feature_cover.h"
#include "lib/compat.h"
#include "lib/cvq_cmd.h"
#include "lib/cvq_io.h"
#include "lib/diag.h"
#include "lib/net_features.h"
#include "lib/shm.h"
#include "lib/util.h"
#include "lib/vhost_vdpa.h"
#include "lib/vring.h"

#define VQ_NUM 64
#define PAGE 4096
#define IOVA_BASE 0x100000ULL
#define RX_BUFS 4
#define WAIT_MS_DEFAULT 2000
/* Queue pairs this driver sets up at most (the module has 8). */
#define MAX_PAIRS 64
/* How long answers may still come once the device needs a reset. */
#define RESET_GRACE_MS 200
/* A status read is an ioctl: not on every poll. */
#define STATUS_POLL_MS 16
/* Where a command's data and reply sit in their pages, after the header. */
#define DATA_OFF 64
#define REPLY_MAX 64
/* A command's buffers: header, data, ack, reply. */
#define CMD_BUFS 4

#define RSS_TABLE_LEN 4
#define COAL_VQ_PACKETS 8
#define COAL_VQ_USECS 20

/* The library's diagnostics, and this program's, one line each. */
static void print_diag(enum diag_level level, const char *line)
{
	fprintf(stderr, "vsbfeat: %s%s\n",
		level == DIAG_WARN ? "warning: " : "", line);
}

/* Exit 2: a set-up step failed, and the library said which and why. */
static void must(int err)
{
	if (err < 0)
		exit(2);
}

/* NAME,NAME,... as a feature mask; exits on a name it does not know. */
static uint64_t parse_names(const char *s)
{
	uint64_t mask = 0;
	const char *end;
	int bit;

	for (; *s; s = *end ? end + 1 : end) {
		end = strchrnul(s, ',');
		bit = net_feature_by_name(s, (size_t)(end - s));
		if (bit < 0) {
			pr_err("unknown feature '%.*s'", (int)(end - s), s);
			exit(2);
		}
		mask |= BIT_ULL(bit);
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

/* The driver. */

struct vq {
	unsigned int index;
	struct vq_driver ring;
	struct vhost_vring_addr addr;
	int kick_fd, call_fd;
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
	struct vhost_vdpa vhost;
	uint64_t features;
	enum vq_format format;
	bool indirect, event_idx, has_cvq;
	uint16_t pairs;
	unsigned int nvqs; /* set up: 2 * pairs, and the CVQ */
	struct vq vqs[2 * MAX_PAIRS + 1];
	struct shm_region shm;
	size_t region_page[R_COUNT], region_pages[R_COUNT];
	uint32_t cvq_asid;
	/* CVQ pages: command and indirect table (RO), ack and reply (RW) */
	uint8_t *cmd, *table, *ack;
	uint64_t cmd_iova, table_iova, ack_iova;
	uint8_t rss_key_max;
	uint32_t hash_types;
};

static bool has(const struct drv *d, unsigned int bit)
{
	return d->features & BIT_ULL(bit);
}

static uint8_t get_status(struct drv *d)
{
	uint8_t status;

	must(vhost_vdpa_get_status(&d->vhost, &status));
	return status;
}

static void set_status(struct drv *d, uint8_t status)
{
	must(vhost_vdpa_set_status(&d->vhost, status));
}

static uint8_t *page_at(const struct drv *d, enum region r, size_t page)
{
	return (uint8_t *)d->shm.base + (d->region_page[r] + page) * PAGE;
}

/* IOVA == IOVA_BASE + offset in the memfd: one address for both. */
static uint64_t iova_of(const struct drv *d, const void *p)
{
	return IOVA_BASE +
	       (uint64_t)((const uint8_t *)p - (const uint8_t *)d->shm.base);
}

/*
 * Pages: per data queue a driver page (RO) and a device page (RW), the
 * receive buffers (RW); the CVQ's driver, command and indirect table
 * pages (RO), its device and ack pages (RW). Each ring's blocks
 * (vq_layout()) fit a page.
 */
static void layout(struct drv *d)
{
	size_t next = 0, r;
	unsigned int data_vqs = 2 * d->pairs;

	d->region_pages[R_DATA_DRV] = data_vqs;
	d->region_pages[R_DATA_DEV] = data_vqs + (size_t)d->pairs * RX_BUFS;
	d->region_pages[R_CVQ_DRV] = d->has_cvq ? 3 : 0;
	d->region_pages[R_CVQ_DEV] = d->has_cvq ? 2 : 0;
	for (r = 0; r < R_COUNT; r++) {
		d->region_page[r] = next;
		next += d->region_pages[r];
	}
	must(shm_region_create(&d->shm, "vsbfeat", next * PAGE));
	if (d->has_cvq) {
		d->cmd = page_at(d, R_CVQ_DRV, 1);
		d->table = page_at(d, R_CVQ_DRV, 2);
		d->ack = page_at(d, R_CVQ_DEV, 1);
		d->cmd_iova = iova_of(d, d->cmd);
		d->table_iova = iova_of(d, d->table);
		d->ack_iova = iova_of(d, d->ack);
	}
}

/* Each address space's regions, in a batch of their own. */
static void map_regions(struct drv *d)
{
	static const uint8_t perm[R_COUNT] = {
		[R_DATA_DRV] = VHOST_ACCESS_RO,
		[R_DATA_DEV] = VHOST_ACCESS_RW,
		[R_CVQ_DRV] = VHOST_ACCESS_RO,
		[R_CVQ_DEV] = VHOST_ACCESS_RW,
	};
	struct iotlb_map maps[R_COUNT];
	unsigned int n;
	uint32_t asid;
	int r;

	for (asid = 0; asid <= d->cvq_asid; asid++) {
		for (n = 0, r = 0; r < R_COUNT; r++) {
			bool cvq = r == R_CVQ_DRV || r == R_CVQ_DEV;

			if (!d->region_pages[r] ||
			    (cvq ? d->cvq_asid : 0) != asid)
				continue;
			maps[n++] = (struct iotlb_map){
				.iova = iova_of(d, page_at(d, r, 0)),
				.size = d->region_pages[r] * PAGE,
				.uaddr = (uintptr_t)page_at(d, r, 0),
				.perm = perm[r],
			};
		}
		must(vhost_vdpa_iotlb_map(&d->vhost, asid, maps, n));
	}
}

/* Where vq_layout() puts @a in this process, the blocks at @drv, @dev. */
static void *area(const struct vq_area *a, uint8_t *drv, uint8_t *dev)
{
	return (void *)(uintptr_t)vq_area_addr(a, (uintptr_t)drv,
					       (uintptr_t)dev);
}

/* Ring @vq in a driver page and a device page, handed to the device. */
static void setup_vq(struct drv *d, struct vq *vq, uint8_t *drv, uint8_t *dev)
{
	struct vq_layout l;

	vq_layout(d->format, VQ_NUM, &l);
	vq->addr = vhost_vdpa_vring_addr(&l, vq->index, iova_of(d, drv),
					 iova_of(d, dev));
	if (vq_init_format(&vq->ring, d->format, VQ_NUM,
			   area(&l.desc, drv, dev), area(&l.driver, drv, dev),
			   area(&l.device, drv, dev))) {
		pr_err("a %s ring of %u", vq_format_name(d->format), VQ_NUM);
		exit(2);
	}
	vq_set_event_idx(&vq->ring, d->event_idx);
	vq->kick_fd = vq->call_fd = -1;
	must(vhost_vdpa_setup_vring(&d->vhost, vq->index, VQ_NUM,
				    vq_fresh_base(d->format), &vq->addr,
				    &vq->kick_fd, &vq->call_fd));
	must(vhost_vdpa_enable_vring(&d->vhost, vq->index));
}

static void kick(struct vq *vq)
{
	if (eventfd_write(vq->kick_fd, 1))
		must(pr_errno(errno, "kick of queue %u", vq->index));
}

/* Receive buffers, page-sized, one descriptor each. */
static void fill_rx(struct drv *d, struct vq *vq)
{
	uint8_t *page =
		page_at(d, R_DATA_DEV, 2 * d->pairs + vq->index / 2 * RX_BUFS);
	unsigned int i;

	for (i = 0; i < RX_BUFS; i++) {
		struct vq_buf b = { .addr = iova_of(d, page + i * PAGE),
				    .len = PAGE,
				    .device_writable = true };

		must(vq_add(&vq->ring, &b, 1, i));
	}
	vq_publish(&vq->ring);
}

struct cmd {
	struct cvq_cmd c;
	uint16_t reply_len;
	/* what the reply must be; with reply_nonzero, any non-zero bytes */
	uint8_t reply[REPLY_MAX];
	bool reply_nonzero;
};

static struct cvq_cmd *new_cmd(struct cmd *cmds, unsigned int *n)
{
	struct cmd *c = &cmds[(*n)++];

	memset(c, 0, sizeof(*c));
	return &c->c;
}

/* A command of the lib has no encoder for: header and le data. */
static struct cmd *plain_cmd(struct cmd *cmds, unsigned int *n, uint8_t class,
			     uint8_t cmd, uint16_t data_len)
{
	struct cvq_cmd *c = new_cmd(cmds, n);

	c->class = class;
	c->cmd = cmd;
	c->data_len = data_len;
	return &cmds[*n - 1];
}

static void put_le32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static const uint8_t mac_unicast[MAC_LEN] = { 0x02, 0, 0, 0, 0xfe, 0x01 };
static const uint8_t mac_multicast[MAC_LEN] = { 0x01, 0, 0x5e, 0, 0, 0x01 };
static const uint8_t mac_addr[MAC_LEN] = { 0x02, 0, 0, 0, 0xfe, 0x02 };

/* RSS_CONFIG: RSS_TABLE_LEN entries spread over the pairs. */
static void rss_config(const struct drv *d, struct cvq_cmd *c)
{
	uint16_t table[RSS_TABLE_LEN];
	uint8_t key[CVQ_RSS_KEY_MAX];
	struct cvq_rss rss = {
		.hash_types = d->hash_types,
		.table_len = RSS_TABLE_LEN,
		.table = table,
		.max_tx_vq = d->pairs,
		.key_len = d->rss_key_max,
		.key = key,
	};
	unsigned int i;

	for (i = 0; i < RSS_TABLE_LEN; i++)
		table[i] = (uint16_t)(i % d->pairs);
	for (i = 0; i < d->rss_key_max; i++)
		key[i] = (uint8_t)(0x6d + i);
	must(cvq_cmd_rss_config(c, &rss));
}

static void hash_config(const struct drv *d, struct cvq_cmd *c)
{
	uint8_t key[CVQ_RSS_KEY_MAX];
	unsigned int i;

	for (i = 0; i < d->rss_key_max; i++)
		key[i] = (uint8_t)(0x3c + i);
	must(cvq_cmd_hash_config(c, d->hash_types, key, d->rss_key_max));
}

/* One command of every class the negotiated features allow. */
static unsigned int build_cmds(const struct drv *d, struct cmd *cmds)
{
	unsigned int n = 0;
	struct cmd *c;

	if (has(d, VIRTIO_NET_F_CTRL_MAC_ADDR))
		cvq_cmd_mac_addr_set(new_cmd(cmds, &n), mac_addr);
	if (has(d, VIRTIO_NET_F_MQ))
		cvq_cmd_mq_pairs(new_cmd(cmds, &n), d->pairs);
	if (has(d, VIRTIO_NET_F_RSS))
		rss_config(d, new_cmd(cmds, &n));
	if (has(d, VIRTIO_NET_F_HASH_REPORT))
		hash_config(d, new_cmd(cmds, &n));
	/* Only negotiated offloads may be on. */
	if (has(d, VIRTIO_NET_F_CTRL_GUEST_OFFLOADS))
		cvq_cmd_guest_offloads(
			new_cmd(cmds, &n),
			d->features & BIT_ULL(VIRTIO_NET_F_GUEST_CSUM));
	if (has(d, VIRTIO_NET_F_CTRL_RX)) {
		cvq_cmd_rx_mode(new_cmd(cmds, &n), VIRTIO_NET_CTRL_RX_PROMISC,
				false);
		must(cvq_cmd_mac_table_set(new_cmd(cmds, &n), &mac_unicast, 1,
					   &mac_multicast, 1));
	}
	/* The RX class needs CTRL_RX, whatever the command. */
	if (has(d, VIRTIO_NET_F_CTRL_RX) && has(d, VIRTIO_NET_F_CTRL_RX_EXTRA))
		cvq_cmd_rx_mode(new_cmd(cmds, &n), VIRTIO_NET_CTRL_RX_ALLUNI,
				true);
	if (has(d, VIRTIO_NET_F_CTRL_VLAN))
		cvq_cmd_vlan(new_cmd(cmds, &n), true, 5);
	if (has(d, VIRTIO_NET_F_GUEST_ANNOUNCE))
		plain_cmd(cmds, &n, VIRTIO_NET_CTRL_ANNOUNCE,
			  VIRTIO_NET_CTRL_ANNOUNCE_ACK, 0);
	if (has(d, VIRTIO_NET_F_NOTF_COAL)) {
		cvq_cmd_notf_coal(new_cmd(cmds, &n), true, 16, 50);
		cvq_cmd_notf_coal(new_cmd(cmds, &n), false, 16, 50);
	}
	if (has(d, VIRTIO_NET_F_VQ_NOTF_COAL)) {
		cvq_cmd_notf_coal_vq(new_cmd(cmds, &n), 0, COAL_VQ_PACKETS,
				     COAL_VQ_USECS);
		/* { le16 vq_index = 0; le16 reserved }: what VQ_SET set. */
		c = plain_cmd(cmds, &n, VIRTIO_NET_CTRL_NOTF_COAL,
			      VIRTIO_NET_CTRL_NOTF_COAL_VQ_GET, 4);
		c->reply_len = 8;
		put_le32(c->reply, COAL_VQ_PACKETS);
		put_le32(c->reply + 4, COAL_VQ_USECS);
	}
	if (has(d, VIRTIO_NET_F_DEVICE_STATS)) {
		c = plain_cmd(cmds, &n, VIRTIO_NET_CTRL_STATS,
			      VIRTIO_NET_CTRL_STATS_QUERY, 0);
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

/*
 * Header, data, ack, reply: one buffer each, as Linux frames a command;
 * in the indirect table when INDIRECT_DESC was negotiated. Not kicked.
 */
static void add_cmd(struct drv *d, struct vq *cvq, const struct cmd *c)
{
	uint8_t *reply = d->ack + DATA_OFF;
	struct vq_buf bufs[CMD_BUFS];
	unsigned int n = 0;

	d->cmd[0] = c->c.class;
	d->cmd[1] = c->c.cmd;
	memcpy(d->cmd + DATA_OFF, c->c.data, c->c.data_len);
	d->ack[0] = CVQ_ACK_UNSET;
	memset(reply, CVQ_ACK_UNSET, REPLY_MAX);
	bufs[n++] = (struct vq_buf){ .addr = d->cmd_iova, .len = 2 };
	if (c->c.data_len)
		bufs[n++] = (struct vq_buf){ .addr = d->cmd_iova + DATA_OFF,
					     .len = c->c.data_len };
	bufs[n++] = (struct vq_buf){ .addr = d->ack_iova,
				     .len = 1,
				     .device_writable = true };
	if (c->reply_len)
		bufs[n++] = (struct vq_buf){ .addr = d->ack_iova + DATA_OFF,
					     .len = c->reply_len,
					     .device_writable = true };
	if (d->indirect)
		must(vq_add_indirect(&cvq->ring, d->table, d->table_iova, bufs,
				     n, 0));
	else
		must(vq_add(&cvq->ring, bufs, n, 0));
	vq_publish(&cvq->ring);
}

struct answer_wait {
	struct vq *cvq;
	int popped; /* vq_pop()'s result: 0, or an id not in flight */
	uint32_t token, len;
};

static int pop_progress(void *data, const struct cvq_wait_result *r)
{
	struct answer_wait *a = data;

	(void)r;
	a->popped = vq_pop(&a->cvq->ring, &a->token, &a->len);
	return a->popped == -EAGAIN ? CVQ_PROGRESS_NONE : CVQ_PROGRESS_DONE;
}

/* Send @c on the CVQ, wait for it, judge the answer. */
static void run_cmd(struct drv *d, const struct opts *o, struct cmd *c,
		    struct cmd_result *res)
{
	const struct cvq_wait w = { .how = CVQ_WAIT_NAP,
				    .timeout_ms = o->wait_ms,
				    .status_poll_ms = STATUS_POLL_MS,
				    .reset_grace_ms = RESET_GRACE_MS };
	struct vq *cvq = &d->vqs[d->nvqs - 1];
	struct answer_wait a = { .cvq = cvq };
	const uint8_t *reply = d->ack + DATA_OFF;
	uint64_t start = now_ms(), deadline = start + o->wait_ms, now;
	struct pollfd call = { .fd = cvq->call_fd, .events = POLLIN };
	struct cvq_wait_result wr;
	char name[CVQ_CODE_LEN];
	bool nonzero = false, notified;
	eventfd_t calls;
	unsigned int i;
	int left;

	memset(res, 0, sizeof(*res));
	cvq_cmd_format(c->c.class, c->c.cmd, name, sizeof(name));
	eventfd_read(cvq->call_fd, &calls); /* none left over */
	add_cmd(d, cvq, c);
	kick(cvq);
	/* An id the ring never made available is an answer too. */
	res->used = !cvq_wait_on(&d->vhost, cvq->call_fd, &w, pop_progress, &a,
				 &wr);
	res->needs_reset = wr.needs_reset || needs_reset(d);
	if (!res->used) {
		pr_err("%s: not answered in %llu ms%s", name,
		       (unsigned long long)(now_ms() - start),
		       res->needs_reset ? " (device needs reset)" : "");
		return;
	}
	/* EVENT_IDX: a notification for the next used entry too. */
	if (d->event_idx)
		vq_set_call(&cvq->ring, VQ_CALL_AT, 0);
	/*
	 * Used buffer notifications were never suppressed (with EVENT_IDX,
	 * the driver's event is the entry waited for): one follows it.
	 */
	now = now_ms();
	left = deadline > now ? (int)(deadline - now) : 0;
	notified = poll(&call, 1, left) == 1 &&
		   !eventfd_read(cvq->call_fd, &calls);
	for (i = 0; i < c->reply_len; i++)
		nonzero |= reply[i] != 0;
	res->good = !a.popped && a.len == 1u + c->reply_len &&
		    d->ack[0] == VIRTIO_NET_OK &&
		    (c->reply_nonzero ?
			     nonzero :
			     !memcmp(reply, c->reply, c->reply_len)) &&
		    notified;
	if (!res->good || o->verbose)
		fprintf(stderr,
			"vsbfeat: %s: %s: %s, used length %u (want %u), ack %u, %s\n",
			name, res->good ? "good" : "bad",
			a.popped ? "an id not in flight" : "its id", a.len,
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
			must(pr_errno(errno, "eventfd"));
		must(VHOST_IOCTL(&d->vhost, VHOST_SET_VRING_KICK, &file));
	}
	for (i = 0; i < count; i++)
		if (eventfd_write(file.fd, 1))
			must(pr_errno(errno, "kick of vring %u", index));
}

/* The CVQ's group apart from the data queues' (which share one)? */
static bool groups_ok(struct drv *d, uint32_t *cvq_group)
{
	struct vhost_vring_state s;
	uint32_t data_group = 0;
	unsigned int i;

	for (i = 0; i < d->nvqs; i++) {
		s = (struct vhost_vring_state){ .index = i };
		if (VHOST_IOCTL(&d->vhost, VHOST_VDPA_GET_VRING_GROUP, &s))
			return false;
		if (!i)
			data_group = s.num;
		else if (i + 1 < d->nvqs && s.num != data_group)
			return false;
		else if (i + 1 == d->nvqs)
			*cvq_group = s.num;
	}
	return *cvq_group != data_group;
}

/* The config fields the run needs: pairs (with MQ or RSS), RSS limits. */
static void read_config(struct drv *d)
{
	uint16_t pairs = 1;
	uint32_t types;
	uint8_t key;

	if (net_has_pairs(d->features)) {
		must(vhost_vdpa_get_config(&d->vhost,
					   offsetof(struct virtio_net_config,
						    max_virtqueue_pairs),
					   &pairs, sizeof(pairs)));
		pairs = le16toh(pairs);
		if (!pairs || pairs > MAX_PAIRS) {
			pr_err("max_virtqueue_pairs %u: not 1 to %u", pairs,
			       MAX_PAIRS);
			exit(2);
		}
	}
	d->pairs = pairs;
	if (has(d, VIRTIO_NET_F_RSS) || has(d, VIRTIO_NET_F_HASH_REPORT)) {
		must(vhost_vdpa_get_config(&d->vhost,
					   offsetof(struct virtio_net_config,
						    rss_max_key_size),
					   &key, sizeof(key)));
		must(vhost_vdpa_get_config(&d->vhost,
					   offsetof(struct virtio_net_config,
						    supported_hash_types),
					   &types, sizeof(types)));
		d->rss_key_max = key < CVQ_RSS_KEY_MAX ? key : CVQ_RSS_KEY_MAX;
		d->hash_types = le32toh(types);
	}
}

/* Every queue's ring; receive buffers on each receive queue. */
static void setup_queues(struct drv *d)
{
	unsigned int i;

	for (i = 0; i < d->nvqs; i++) {
		struct vq *vq = &d->vqs[i];
		bool cvq = d->has_cvq && i + 1 == d->nvqs;

		vq->index = i;
		if (cvq)
			setup_vq(d, vq, page_at(d, R_CVQ_DRV, 0),
				 page_at(d, R_CVQ_DEV, 0));
		else
			setup_vq(d, vq, page_at(d, R_DATA_DRV, i),
				 page_at(d, R_DATA_DEV, i));
		if (!cvq && i % 2 == 0)
			fill_rx(d, vq);
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

	must(vhost_vdpa_open(&d->vhost, o->path, 0));
	must(VHOST_IOCTL(&d->vhost, VHOST_SET_OWNER, NULL));
	must(vhost_vdpa_ack_backend(
		&d->vhost,
		BIT_ULL(VHOST_BACKEND_F_IOTLB_MSG_V2) |
			BIT_ULL(VHOST_BACKEND_F_IOTLB_BATCH) |
			BIT_ULL(VHOST_BACKEND_F_IOTLB_ASID),
		&offered, &backend));

	set_status(d, 0);
	set_status(d, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	set_status(d, VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);
	if (!strcmp(o->features_arg, "offered"))
		must(VHOST_IOCTL(&d->vhost, VHOST_GET_FEATURES, &d->features));
	else
		d->features = parse_features(o->features_arg);
	/* A careless driver goes on: the verdict reports the error. */
	set_err =
		VHOST_IOCTL_QUIET(&d->vhost, VHOST_SET_FEATURES, &d->features);
	set_status(d, get_status(d) | VIRTIO_CONFIG_S_FEATURES_OK);
	features_ok = get_status(d) & VIRTIO_CONFIG_S_FEATURES_OK;
	if (!features_ok && !o->force_driver_ok) {
		printf("set_features=%d features_ok=0\n", set_err);
		set_status(d, 0);
		return 1;
	}
	if (features_ok && o->renegotiate)
		reneg_err = VHOST_IOCTL_QUIET(&d->vhost, VHOST_SET_FEATURES,
					      &d->features);

	d->format = has(d, VIRTIO_F_RING_PACKED) ? VQ_FORMAT_PACKED :
						   VQ_FORMAT_SPLIT;
	d->indirect = has(d, VIRTIO_RING_F_INDIRECT_DESC);
	d->event_idx = has(d, VIRTIO_RING_F_EVENT_IDX);
	d->has_cvq = has(d, VIRTIO_NET_F_CTRL_VQ);
	read_config(d);
	d->nvqs = 2 * d->pairs + d->has_cvq;
	layout(d);
	if (d->has_cvq) {
		group_ok = groups_ok(d, &cvq_group);
		/* QEMU's isolation: the CVQ's memory only in its own space. */
		if (group_ok &&
		    (backend & BIT_ULL(VHOST_BACKEND_F_IOTLB_ASID))) {
			struct vhost_vring_state s = { .index = cvq_group,
						       .num = 1 };

			must(VHOST_IOCTL(&d->vhost, VHOST_VDPA_SET_GROUP_ASID,
					 &s));
			d->cvq_asid = 1;
		}
	}
	map_regions(d);
	setup_queues(d);
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
		must(pr_errno(errno, "running '%s'", o->exec));
	set_status(d, 0);
	vhost_vdpa_close(&d->vhost);
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

	diag_set_sink(print_diag);
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
	if (cover_arg && a == argc) {
		must(feature_cover_print(stdout, parse_names(cover_arg),
					 base_arg ? parse_names(base_arg) : 0));
		return 0;
	}
	if (!o.features_arg || a + 1 != argc)
		usage();
	o.path = argv[a];
	return run(&o);
}
