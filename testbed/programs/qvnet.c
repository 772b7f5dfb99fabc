// SPDX-License-Identifier: GPL-2.0-only
/*
 * qvnet: a virtio-net guest driver that runs outside the guest, over
 * QEMU's qtest protocol, so that the VM tests can drive a QEMU whose NIC
 * is a vhost-vdpa netdev without booting a nested Linux guest.
 *
 *   qvnet bios FILE
 *   qvnet [-q QTEST_SOCK] [-m QMP_SOCK] [-T SECONDS] STEP...
 *
 * QEMU runs with "-accel tcg -qtest unix:QTEST_SOCK,server=on,wait=off",
 * "-qmp unix:QMP_SOCK,server=on,wait=off", a BIOS that only halts (what
 * "qvnet bios" writes) and one virtio-net-pci with disable-legacy=on and
 * vectors=0: the driver polls used rings. Guest memory is read and written
 * with qtest's read/write commands, device registers with readX/writeX,
 * PCI configuration space through ports 0xcf8/0xcfc.
 *
 * Steps, run in order; each prints one line, the first failure ends the run
 * (exit 1, the failed operation on stderr):
 *   init             reset, negotiate, set up every queue pair and the
 *                    control queue, post receive buffers, DRIVER_OK
 *   attach           take over a device already running (a migration
 *                    destination): re-read BAR, capabilities and queues
 *   rx MODE 0|1      RX class: promisc allmulti alluni nomulti nouni nobcast
 *   mac-set MAC      MAC_ADDR_SET
 *   mac-table UNI MULTI   MAC_TABLE_SET; comma-separated lists, "-" empty
 *   vlan FIRST [LAST]     one VLAN_ADD per VID in FIRST..LAST, posted
 *                         32 at a time with one kick (QEMU forwards them
 *                         one by one)
 *   vlan-del FIRST [LAST] the same with VLAN_DEL
 *   mq PAIRS         MQ VQ_PAIRS_SET
 *   offloads HEX     GUEST_OFFLOADS_SET
 *   loop [DST_MAC]   send a frame on transmitq1 to DST_MAC (default: the
 *                    device's MAC) and expect it back on receiveq1
 *   hmp COMMAND      a human monitor command through QMP; prints its output
 *   migrate URI      migrate and wait until QMP says "completed"
 *   status           print the device status byte
 * Every control command must be acked VIRTIO_NET_OK.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

/* PCI */
#define PCI_VENDOR_REDHAT 0x1af4
#define PCI_DEVICE_VIRTIO_NET 0x1041 /* 0x1040 + device id 1: modern only */
#define PCI_COMMAND 0x04
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4
#define PCI_STATUS 0x06
#define PCI_STATUS_CAP_LIST 0x10
#define PCI_BAR0 0x10
#define PCI_CAP_PTR 0x34
#define PCI_CAP_ID_VNDR 0x09
#define PCI_BAR_MEM64 0x4
/* where this driver puts the BAR holding the virtio structures */
#define QV_BAR_BASE 0xfe000000ULL

/* virtio 1.x PCI capabilities ("Virtio Structure PCI Capabilities") */
#define VIRTIO_PCI_CAP_COMMON 1
#define VIRTIO_PCI_CAP_NOTIFY 2
#define VIRTIO_PCI_CAP_DEVICE 4
/* common configuration structure */
#define VC_DFSELECT 0
#define VC_DF 4
#define VC_GFSELECT 8
#define VC_GF 12
#define VC_NUMQ 18
#define VC_STATUS 20
#define VC_Q_SELECT 22
#define VC_Q_SIZE 24
#define VC_Q_ENABLE 28
#define VC_Q_NOFF 30
#define VC_Q_DESC 32
#define VC_Q_AVAIL 40
#define VC_Q_USED 48

#define S_ACK 1
#define S_DRIVER 2
#define S_DRIVER_OK 4
#define S_FEATURES_OK 8
#define S_NEEDS_RESET 64

/* features this driver knows how to use (bit numbers of the spec) */
#define F(bit) (1ULL << (bit))
#define QV_FEATURES                                                          \
	(F(1) /* GUEST_CSUM */ | F(2) /* CTRL_GUEST_OFFLOADS */ |            \
	 F(3) /* MTU */ | F(5) /* MAC */ | F(16) /* STATUS */ |              \
	 F(17) /* CTRL_VQ */ | F(18) /* CTRL_RX */ | F(19) /* CTRL_VLAN */ | \
	 F(20) /* CTRL_RX_EXTRA */ | F(22) /* MQ */ |                        \
	 F(23) /* CTRL_MAC_ADDR */ | F(32) /* VERSION_1 */)
#define QV_F_MQ F(22)

#define VRING_DESC_F_NEXT 1
#define VRING_DESC_F_WRITE 2
#define VIRTIO_NET_OK 0
#define NET_HDR_LEN 12 /* struct virtio_net_hdr_v1, num_buffers included */

/* Guest memory layout: each queue gets a 64 KiB slot, buffers come after. */
#define QV_QSIZE 64
#define QV_MAX_QUEUES 17
#define QV_RING_BASE 0x100000ULL
#define QV_RING_SLOT 0x10000ULL
#define QV_BUF_BASE (QV_RING_BASE + QV_MAX_QUEUES * QV_RING_SLOT)
#define QV_BUF_SIZE 2048ULL
#define QV_RX_BUFS 16
/* control commands posted at once: two descriptors each, in QV_QSIZE */
#define QV_CTRL_BATCH (QV_QSIZE / 2)
#define QV_ETH_ALEN 6
#define QV_ETHERTYPE 0x88b5 /* local experimental */
#define QV_FRAME_LEN 64

struct qv_queue {
	uint16_t index;
	uint16_t size;
	uint64_t desc, avail, used;
	uint64_t notify; /* guest physical address of its doorbell */
	uint16_t avail_idx; /* next avail index the driver publishes */
	uint16_t used_seen; /* used index consumed so far */
};

struct qv {
	const char *qtest_path, *qmp_path;
	FILE *qtest, *qmp;
	unsigned int timeout_s;
	unsigned int devfn;
	uint64_t common, notify_base, device_cfg;
	uint32_t notify_mult;
	uint64_t features;
	uint16_t pairs; /* queue pairs the device has (max_virtqueue_pairs) */
	uint16_t nqueues;
	struct qv_queue q[QV_MAX_QUEUES];
	uint8_t mac[QV_ETH_ALEN];
};

static const char *prog = "qvnet";

/* "qvnet: message" on stderr, in one write. */
static void __printf(1, 2) err_msg(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog, msg);
}

/* Copy as much of @src as fits into @dst of @len bytes. */
static void copy_reply(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

static FILE *unix_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	FILE *f;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		err_msg("%s: socket path too long", path);
		return NULL;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err_msg("connect %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	f = fdopen(fd, "r+");
	if (!f) {
		err_msg("fdopen %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* qtest: one command, one "OK [VALUE]" line back. */
static int qt_cmd(struct qv *v, char *reply, size_t len, const char *fmt, ...)
	__printf(4, 5);
static int qt_cmd(struct qv *v, char *reply, size_t len, const char *fmt, ...)
{
	char line[16384];
	va_list ap;

	va_start(ap, fmt);
	vfprintf(v->qtest, fmt, ap);
	va_end(ap);
	fputc('\n', v->qtest);
	fflush(v->qtest);
	/* IRQ notifications ("IRQ raise N") may come in between. */
	do {
		if (!fgets(line, sizeof(line), v->qtest)) {
			err_msg("qtest: connection closed");
			return -EPIPE;
		}
	} while (!strncmp(line, "IRQ", 3));
	if (strncmp(line, "OK", 2)) {
		err_msg("qtest: %s", line);
		return -EIO;
	}
	if (reply)
		copy_reply(reply, len, line[2] == ' ' ? line + 3 : "");
	return 0;
}

static uint64_t qt_read(struct qv *v, const char *op, uint64_t addr)
{
	char r[64];

	if (qt_cmd(v, r, sizeof(r), "%s 0x%llx", op, (unsigned long long)addr))
		return ~0ULL;
	return strtoull(r, NULL, 0);
}

static int qt_write(struct qv *v, const char *op, uint64_t addr, uint64_t val)
{
	return qt_cmd(v, NULL, 0, "%s 0x%llx 0x%llx", op,
		      (unsigned long long)addr, (unsigned long long)val);
}

static int mem_write(struct qv *v, uint64_t addr, const void *buf, size_t len)
{
	char hex[2 * 4096 + 1];
	const uint8_t *p = buf;
	size_t i;

	if (len > 4096)
		return -EINVAL;
	for (i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", p[i]);
	return qt_cmd(v, NULL, 0, "write 0x%llx %zu 0x%s",
		      (unsigned long long)addr, len, hex);
}

static int mem_read(struct qv *v, uint64_t addr, void *buf, size_t len)
{
	char r[2 * 4096 + 8];
	uint8_t *p = buf;
	size_t i;
	int ret;

	if (len > 4096)
		return -EINVAL;
	ret = qt_cmd(v, r, sizeof(r), "read 0x%llx %zu",
		     (unsigned long long)addr, len);
	if (ret)
		return ret;
	if (strncmp(r, "0x", 2) || strlen(r) < 2 + 2 * len) {
		err_msg("qtest read: short reply");
		return -EIO;
	}
	for (i = 0; i < len; i++) {
		unsigned int b;

		sscanf(r + 2 + 2 * i, "%2x", &b);
		p[i] = b;
	}
	return 0;
}

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, v);
	put_le16(p + 2, v >> 16);
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, v);
	put_le32(p + 4, v >> 32);
}

/* PCI configuration space of the device, through the 0xcf8/0xcfc ports. */
static uint32_t pci_read(struct qv *v, unsigned int devfn, unsigned int reg,
			 unsigned int size)
{
	static const char *const in[] = {
		[1] = "inb", [2] = "inw", [4] = "inl"
	};

	qt_write(v, "outl", 0xcf8, 0x80000000u | devfn << 8 | (reg & 0xfc));
	return qt_read(v, in[size], 0xcfc + (reg & 3));
}

static void pci_write(struct qv *v, unsigned int reg, unsigned int size,
		      uint32_t val)
{
	static const char *const out[] = {
		[1] = "outb", [2] = "outw", [4] = "outl"
	};

	qt_write(v, "outl", 0xcf8, 0x80000000u | v->devfn << 8 | (reg & 0xfc));
	qt_write(v, out[size], 0xcfc + (reg & 3), val);
}

static int pci_find(struct qv *v)
{
	unsigned int devfn;

	for (devfn = 0; devfn < 256; devfn += 8) {
		if (pci_read(v, devfn, 0, 4) ==
		    (PCI_DEVICE_VIRTIO_NET << 16 | PCI_VENDOR_REDHAT)) {
			v->devfn = devfn;
			return 0;
		}
	}
	err_msg("no modern virtio-net-pci on bus 0 (disable-legacy=on?)");
	return -ENODEV;
}

/* The BAR's guest physical address; with @assign, put it at QV_BAR_BASE. */
static uint64_t pci_bar(struct qv *v, unsigned int bar, bool assign)
{
	unsigned int reg = PCI_BAR0 + 4 * bar;
	uint32_t lo = pci_read(v, v->devfn, reg, 4);
	bool mem64 = lo & PCI_BAR_MEM64;

	if (assign) {
		pci_write(v, reg, 4, (uint32_t)QV_BAR_BASE);
		if (mem64)
			pci_write(v, reg + 4, 4, QV_BAR_BASE >> 32);
		pci_write(v, PCI_COMMAND, 2,
			  PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
		lo = pci_read(v, v->devfn, reg, 4);
	}
	return (lo & ~0xfULL) |
	       (mem64 ? (uint64_t)pci_read(v, v->devfn, reg + 4, 4) << 32 : 0);
}

/* Walk the vendor capabilities for the common, notify and device areas. */
static int pci_virtio_caps(struct qv *v, bool assign)
{
	unsigned int pos, type, bar, seen = 0;
	uint64_t base;
	uint32_t off;

	if (!(pci_read(v, v->devfn, PCI_STATUS, 2) & PCI_STATUS_CAP_LIST))
		return -ENODEV;
	for (pos = pci_read(v, v->devfn, PCI_CAP_PTR, 1) & 0xfc; pos;
	     pos = pci_read(v, v->devfn, pos + 1, 1) & 0xfc) {
		if (pci_read(v, v->devfn, pos, 1) != PCI_CAP_ID_VNDR)
			continue;
		type = pci_read(v, v->devfn, pos + 3, 1);
		if (type != VIRTIO_PCI_CAP_COMMON &&
		    type != VIRTIO_PCI_CAP_NOTIFY &&
		    type != VIRTIO_PCI_CAP_DEVICE)
			continue;
		bar = pci_read(v, v->devfn, pos + 4, 1);
		off = pci_read(v, v->devfn, pos + 8, 4);
		base = pci_bar(v, bar, assign && !seen) + off;
		if (type == VIRTIO_PCI_CAP_COMMON)
			v->common = base;
		else if (type == VIRTIO_PCI_CAP_DEVICE)
			v->device_cfg = base;
		else {
			v->notify_base = base;
			v->notify_mult = pci_read(v, v->devfn, pos + 16, 4);
		}
		seen |= 1u << type;
	}
	if (seen != (1u << VIRTIO_PCI_CAP_COMMON | 1u << VIRTIO_PCI_CAP_NOTIFY |
		     1u << VIRTIO_PCI_CAP_DEVICE)) {
		err_msg("virtio capabilities incomplete (0x%x)", seen);
		return -ENODEV;
	}
	return 0;
}

static uint64_t common_rd(struct qv *v, unsigned int off, const char *op)
{
	return qt_read(v, op, v->common + off);
}

static int common_wr(struct qv *v, unsigned int off, const char *op,
		     uint64_t val)
{
	return qt_write(v, op, v->common + off, val);
}

static uint64_t device_features(struct qv *v)
{
	uint64_t f;

	common_wr(v, VC_DFSELECT, "writel", 0);
	f = common_rd(v, VC_DF, "readl");
	common_wr(v, VC_DFSELECT, "writel", 1);
	return f | common_rd(v, VC_DF, "readl") << 32;
}

static void read_net_config(struct qv *v)
{
	unsigned int i;

	for (i = 0; i < QV_ETH_ALEN; i++)
		v->mac[i] = qt_read(v, "readb", v->device_cfg + i);
	v->pairs = v->features & QV_F_MQ ?
			   qt_read(v, "readw", v->device_cfg + 8) :
			   1;
	v->nqueues = 2 * v->pairs + 1;
}

static void queue_layout(struct qv *v, uint16_t index, uint16_t size)
{
	struct qv_queue *q = &v->q[index];
	uint64_t slot = QV_RING_BASE + index * QV_RING_SLOT;

	q->index = index;
	q->size = size;
	q->desc = slot;
	q->avail = slot + 16ULL * size;
	q->used = (q->avail + 6 + 2ULL * size + 3) & ~3ULL;
}

static int queue_setup(struct qv *v, uint16_t index)
{
	struct qv_queue *q = &v->q[index];
	uint16_t max;

	common_wr(v, VC_Q_SELECT, "writew", index);
	max = common_rd(v, VC_Q_SIZE, "readw");
	if (!max) {
		err_msg("queue %u: not available", index);
		return -ENODEV;
	}
	queue_layout(v, index, max < QV_QSIZE ? max : QV_QSIZE);
	common_wr(v, VC_Q_SIZE, "writew", q->size);
	common_wr(v, VC_Q_DESC, "writel", q->desc);
	common_wr(v, VC_Q_DESC + 4, "writel", q->desc >> 32);
	common_wr(v, VC_Q_AVAIL, "writel", q->avail);
	common_wr(v, VC_Q_AVAIL + 4, "writel", q->avail >> 32);
	common_wr(v, VC_Q_USED, "writel", q->used);
	common_wr(v, VC_Q_USED + 4, "writel", q->used >> 32);
	q->notify = v->notify_base +
		    (uint64_t)common_rd(v, VC_Q_NOFF, "readw") * v->notify_mult;
	/* rings start zeroed: QEMU's guest RAM is, and a re-init rewrites */
	qt_write(v, "writew", q->avail + 2, 0);
	qt_write(v, "writew", q->used + 2, 0);
	q->avail_idx = 0;
	q->used_seen = 0;
	return common_wr(v, VC_Q_ENABLE, "writew", 1);
}

/* A migrated device: take its queues' addresses and indexes as they are. */
static void queue_attach(struct qv *v, uint16_t index)
{
	struct qv_queue *q = &v->q[index];

	common_wr(v, VC_Q_SELECT, "writew", index);
	q->index = index;
	q->size = common_rd(v, VC_Q_SIZE, "readw");
	q->desc = common_rd(v, VC_Q_DESC, "readl") |
		  common_rd(v, VC_Q_DESC + 4, "readl") << 32;
	q->avail = common_rd(v, VC_Q_AVAIL, "readl") |
		   common_rd(v, VC_Q_AVAIL + 4, "readl") << 32;
	q->used = common_rd(v, VC_Q_USED, "readl") |
		  common_rd(v, VC_Q_USED + 4, "readl") << 32;
	q->notify = v->notify_base +
		    (uint64_t)common_rd(v, VC_Q_NOFF, "readw") * v->notify_mult;
	q->avail_idx = qt_read(v, "readw", q->avail + 2);
	q->used_seen = qt_read(v, "readw", q->used + 2);
}

struct qv_buf {
	uint64_t addr;
	uint32_t len;
	bool write;
};

/* Post one chain of @n buffers, descriptors from the head's slot on. */
static int queue_post(struct qv *v, struct qv_queue *q,
		      const struct qv_buf *bufs, unsigned int n)
{
	uint16_t head = (q->avail_idx * n) % q->size;
	uint8_t d[16];
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint16_t flags = (bufs[i].write ? VRING_DESC_F_WRITE : 0) |
				 (i + 1 < n ? VRING_DESC_F_NEXT : 0);

		put_le64(d, bufs[i].addr);
		put_le32(d + 8, bufs[i].len);
		put_le16(d + 12, flags);
		put_le16(d + 14, (head + i + 1) % q->size);
		if (mem_write(v, q->desc + 16ULL * ((head + i) % q->size), d,
			      sizeof(d)))
			return -EIO;
	}
	qt_write(v, "writew", q->avail + 4 + 2ULL * (q->avail_idx % q->size),
		 head);
	/* qtest commands complete in order: the entry is in before the idx */
	q->avail_idx++;
	return qt_write(v, "writew", q->avail + 2, q->avail_idx);
}

static int queue_kick(struct qv *v, struct qv_queue *q)
{
	return qt_write(v, "writew", q->notify, q->index);
}

/* Wait for the next used element; its length in *len. */
static int queue_wait_used(struct qv *v, struct qv_queue *q, uint32_t *len)
{
	uint64_t end = now_ms() + 1000ULL * v->timeout_s;
	uint8_t elem[8];

	while ((uint16_t)qt_read(v, "readw", q->used + 2) == q->used_seen) {
		if (now_ms() > end) {
			err_msg("queue %u: nothing used in %u s (status 0x%llx)",
				q->index, v->timeout_s,
				(unsigned long long)common_rd(v, VC_STATUS,
							      "readb"));
			return -ETIMEDOUT;
		}
		usleep(1000);
	}
	if (mem_read(v, q->used + 4 + 8ULL * (q->used_seen % q->size), elem,
		     sizeof(elem)))
		return -EIO;
	q->used_seen++;
	if (len)
		*len = elem[4] | elem[5] << 8 | elem[6] << 16 |
		       (uint32_t)elem[7] << 24;
	return 0;
}

static struct qv_queue *cvq(struct qv *v)
{
	return &v->q[2 * v->pairs];
}

/* One control command; 0 if acked VIRTIO_NET_OK. */
static int ctrl(struct qv *v, uint8_t class, uint8_t cmd, const void *data,
		size_t len)
{
	uint64_t out = QV_BUF_BASE, ack = out + QV_BUF_SIZE - 1;
	uint8_t buf[2 + 1024], a = 0xff;
	struct qv_buf bufs[2] = {
		{ out, 2 + len, false },
		{ ack, 1, true },
	};

	if (len > sizeof(buf) - 2)
		return -EINVAL;
	buf[0] = class;
	buf[1] = cmd;
	memcpy(buf + 2, data, len);
	if (mem_write(v, out, buf, 2 + len) || mem_write(v, ack, &a, 1) ||
	    queue_post(v, cvq(v), bufs, 2) || queue_kick(v, cvq(v)) ||
	    queue_wait_used(v, cvq(v), NULL) || mem_read(v, ack, &a, 1))
		return -EIO;
	if (a != VIRTIO_NET_OK) {
		err_msg("control class %u command %u: ack 0x%02x", class, cmd,
			a);
		return -EIO;
	}
	return 0;
}

/* receiveq1 buffers live after the control buffer, transmit after them. */
static uint64_t rx_buf(unsigned int i)
{
	return QV_BUF_BASE + (1 + i) * QV_BUF_SIZE;
}

static uint64_t tx_buf(void)
{
	return rx_buf(QV_RX_BUFS);
}

static int post_rx(struct qv *v)
{
	unsigned int i;

	for (i = 0; i < QV_RX_BUFS; i++) {
		struct qv_buf b = { rx_buf(i), QV_BUF_SIZE, true };

		if (queue_post(v, &v->q[0], &b, 1))
			return -EIO;
	}
	return queue_kick(v, &v->q[0]);
}

static int step_init(struct qv *v)
{
	uint64_t offered;
	uint8_t st;
	uint16_t i;

	if (pci_find(v) || pci_virtio_caps(v, true))
		return -ENODEV;
	common_wr(v, VC_STATUS, "writeb", 0);
	common_wr(v, VC_STATUS, "writeb", S_ACK);
	common_wr(v, VC_STATUS, "writeb", S_ACK | S_DRIVER);
	offered = device_features(v);
	v->features = offered & QV_FEATURES;
	common_wr(v, VC_GFSELECT, "writel", 0);
	common_wr(v, VC_GF, "writel", (uint32_t)v->features);
	common_wr(v, VC_GFSELECT, "writel", 1);
	common_wr(v, VC_GF, "writel", v->features >> 32);
	common_wr(v, VC_STATUS, "writeb", S_ACK | S_DRIVER | S_FEATURES_OK);
	st = common_rd(v, VC_STATUS, "readb");
	if (!(st & S_FEATURES_OK)) {
		err_msg("device refused features 0x%llx (status 0x%02x)",
			(unsigned long long)v->features, st);
		return -EIO;
	}
	read_net_config(v);
	if (v->nqueues > QV_MAX_QUEUES ||
	    v->nqueues > common_rd(v, VC_NUMQ, "readw")) {
		err_msg("%u queue pairs: more than the driver or device has",
			v->pairs);
		return -ERANGE;
	}
	for (i = 0; i < v->nqueues; i++)
		if (queue_setup(v, i))
			return -EIO;
	common_wr(v, VC_STATUS, "writeb",
		  S_ACK | S_DRIVER | S_FEATURES_OK | S_DRIVER_OK);
	if (post_rx(v))
		return -EIO;
	printf("init: offered 0x%llx negotiated 0x%llx pairs %u mac %02x:%02x:%02x:%02x:%02x:%02x\n",
	       (unsigned long long)offered, (unsigned long long)v->features,
	       v->pairs, v->mac[0], v->mac[1], v->mac[2], v->mac[3], v->mac[4],
	       v->mac[5]);
	return 0;
}

static int step_attach(struct qv *v)
{
	uint16_t i;

	if (pci_find(v) || pci_virtio_caps(v, false))
		return -ENODEV;
	common_wr(v, VC_GFSELECT, "writel", 0);
	v->features = common_rd(v, VC_GF, "readl");
	common_wr(v, VC_GFSELECT, "writel", 1);
	v->features |= common_rd(v, VC_GF, "readl") << 32;
	read_net_config(v);
	for (i = 0; i < v->nqueues && i < QV_MAX_QUEUES; i++)
		queue_attach(v, i);
	printf("attach: negotiated 0x%llx pairs %u status 0x%02llx\n",
	       (unsigned long long)v->features, v->pairs,
	       (unsigned long long)common_rd(v, VC_STATUS, "readb"));
	return 0;
}

static int parse_mac(const char *s, uint8_t *mac)
{
	unsigned int b[QV_ETH_ALEN], i;
	char end;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5], &end) != QV_ETH_ALEN) {
		err_msg("%s: not a MAC address", s);
		return -EINVAL;
	}
	for (i = 0; i < QV_ETH_ALEN; i++)
		mac[i] = b[i];
	return 0;
}

/* "a,b,c" or "-" into le32 count + MACs at @p; bytes used or < 0. */
static int parse_mac_list(const char *s, uint8_t *p, size_t room)
{
	char tmp[1024], *tok, *save;
	uint32_t n = 0;

	if (strlen(s) >= sizeof(tmp))
		return -EINVAL;
	strcpy(tmp, s);
	for (tok = strtok_r(tmp, ",", &save); tok && strcmp(s, "-");
	     tok = strtok_r(NULL, ",", &save)) {
		if (4 + QV_ETH_ALEN * (n + 1) > room ||
		    parse_mac(tok, p + 4 + QV_ETH_ALEN * n))
			return -EINVAL;
		n++;
	}
	put_le32(p, n);
	return 4 + QV_ETH_ALEN * n;
}

/* A step that is one control command: "STEP ARG: ok" when acked. */
static int ctrl_step(struct qv *v, const char *step, const char *arg,
		     uint8_t class, uint8_t cmd, const void *data, size_t len)
{
	if (ctrl(v, class, cmd, data, len))
		return -EIO;
	printf("%s %s: ok\n", step, arg);
	return 0;
}

static int step_rx(struct qv *v, const char *mode, const char *on)
{
	static const char *const modes[] = { "promisc", "allmulti", "alluni",
					     "nomulti", "nouni",    "nobcast" };
	uint8_t val = atoi(on) != 0;
	unsigned int i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(mode, modes[i]))
			break;
	if (i == sizeof(modes) / sizeof(modes[0])) {
		err_msg("rx %s: unknown mode", mode);
		return -EINVAL;
	}
	return ctrl_step(v, "rx", mode, 0, i, &val, 1);
}

static int step_mac_table(struct qv *v, const char *uni, const char *multi)
{
	uint8_t buf[1024];
	int a, b;

	a = parse_mac_list(uni, buf, sizeof(buf));
	b = a < 0 ? a : parse_mac_list(multi, buf + a, sizeof(buf) - a);
	if (b < 0) {
		err_msg("mac-table %s %s: bad lists", uni, multi);
		return -EINVAL;
	}
	return ctrl_step(v, "mac-table", uni, 1, 0, buf, a + b);
}

/* Write @count ring entries of @size bytes from entry @start, wrapping. */
static int ring_write(struct qv *v, uint64_t ring, size_t size, uint16_t start,
		      unsigned int count, uint16_t num, const uint8_t *data)
{
	unsigned int room = (unsigned int)num - start;
	unsigned int first = count < room ? count : room;

	if (mem_write(v, ring + size * start, data, size * first))
		return -EIO;
	if (first < count &&
	    mem_write(v, ring, data + size * first, size * (count - first)))
		return -EIO;
	return 0;
}

/*
 * @n VLAN commands (@cmd ADD or DEL, VIDs from @first) posted together
 * and kicked once, as a guest driver may; QEMU forwards them one by one.
 */
static int ctrl_vlan_batch(struct qv *v, uint8_t cmd, unsigned int first,
			   unsigned int n)
{
	struct qv_queue *q = cvq(v);
	uint64_t cmds = QV_BUF_BASE, acks = cmds + 4 * QV_CTRL_BATCH;
	uint8_t buf[4 * QV_CTRL_BATCH], ack[QV_CTRL_BATCH];
	uint8_t desc[2 * QV_CTRL_BATCH][16], avail[QV_CTRL_BATCH][2];
	uint16_t head0 = (q->avail_idx * 2) % q->size;
	uint64_t end = now_ms() + 1000ULL * v->timeout_s;
	unsigned int i;

	if (n > QV_CTRL_BATCH || 2 * n > q->size)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		uint16_t head = (head0 + 2 * i) % q->size;

		buf[4 * i] = 2; /* VIRTIO_NET_CTRL_VLAN */
		buf[4 * i + 1] = cmd;
		put_le16(buf + 4 * i + 2, first + i);
		put_le64(desc[2 * i], cmds + 4 * i);
		put_le32(desc[2 * i] + 8, 4);
		put_le16(desc[2 * i] + 12, VRING_DESC_F_NEXT);
		put_le16(desc[2 * i] + 14, (head + 1) % q->size);
		put_le64(desc[2 * i + 1], acks + i);
		put_le32(desc[2 * i + 1] + 8, 1);
		put_le16(desc[2 * i + 1] + 12, VRING_DESC_F_WRITE);
		put_le16(desc[2 * i + 1] + 14, 0);
		put_le16(avail[i], head);
	}
	memset(ack, 0xff, n);
	if (mem_write(v, cmds, buf, 4 * n) || mem_write(v, acks, ack, n) ||
	    ring_write(v, q->desc, 16, head0, 2 * n, q->size, desc[0]) ||
	    ring_write(v, q->avail + 4, 2, q->avail_idx % q->size, n, q->size,
		       avail[0]))
		return -EIO;
	q->avail_idx += n;
	if (qt_write(v, "writew", q->avail + 2, q->avail_idx) ||
	    queue_kick(v, q))
		return -EIO;
	while ((uint16_t)qt_read(v, "readw", q->used + 2) != q->avail_idx) {
		if (now_ms() > end) {
			err_msg("control queue: %u commands not all used in %u s",
				n, v->timeout_s);
			return -ETIMEDOUT;
		}
		usleep(1000);
	}
	q->used_seen = q->avail_idx;
	if (mem_read(v, acks, ack, n))
		return -EIO;
	for (i = 0; i < n; i++) {
		if (ack[i] != VIRTIO_NET_OK) {
			err_msg("VLAN command %u for VID %u: ack 0x%02x", cmd,
				first + i, ack[i]);
			return -EIO;
		}
	}
	return 0;
}

static int step_vlans(struct qv *v, uint8_t cmd, unsigned int first,
		      unsigned int last)
{
	unsigned int vid, n;

	if (last < first || last > 4095) {
		err_msg("vlan %u..%u: bad range", first, last);
		return -EINVAL;
	}
	for (vid = first; vid <= last; vid += n) {
		n = last - vid + 1 < QV_CTRL_BATCH ? last - vid + 1 :
						     QV_CTRL_BATCH;
		if (ctrl_vlan_batch(v, cmd, vid, n))
			return -EIO;
	}
	printf("vlan %s %u..%u: ok\n", cmd ? "del" : "add", first, last);
	return 0;
}

static int step_loop(struct qv *v, const char *dst)
{
	uint8_t frame[NET_HDR_LEN + QV_FRAME_LEN] = { 0 }, back[sizeof(frame)];
	uint8_t *eth = frame + NET_HDR_LEN;
	struct qv_buf b = { tx_buf(), sizeof(frame), false };
	struct qv_queue *rx = &v->q[0];
	uint16_t slot = rx->used_seen % QV_RX_BUFS;
	uint32_t len;
	unsigned int i;

	if (dst ? parse_mac(dst, eth) : (memcpy(eth, v->mac, QV_ETH_ALEN), 0))
		return -EINVAL;
	memcpy(eth + QV_ETH_ALEN, v->mac, QV_ETH_ALEN);
	eth[12] = QV_ETHERTYPE >> 8;
	eth[13] = QV_ETHERTYPE & 0xff;
	for (i = 14; i < QV_FRAME_LEN; i++)
		eth[i] = i ^ rx->used_seen;
	if (mem_write(v, b.addr, frame, sizeof(frame)) ||
	    queue_post(v, &v->q[1], &b, 1) || queue_kick(v, &v->q[1]) ||
	    queue_wait_used(v, &v->q[1], NULL))
		return -EIO;
	/* receive buffers are used in the order they were posted */
	if (queue_wait_used(v, rx, &len) ||
	    mem_read(v, rx_buf(slot) + NET_HDR_LEN, back, QV_FRAME_LEN))
		return -EIO;
	if (len != sizeof(frame) || memcmp(back, eth, QV_FRAME_LEN)) {
		err_msg("loop: received %u bytes, not the frame sent", len);
		return -EIO;
	}
	/* give the buffer back */
	b = (struct qv_buf){ rx_buf(slot), QV_BUF_SIZE, true };
	if (queue_post(v, rx, &b, 1) || queue_kick(v, rx))
		return -EIO;
	printf("loop: %zu bytes sent and received back\n", sizeof(frame));
	return 0;
}

/* QMP: one command, skipping events, until its return or error line. */
static int qmp_cmd(struct qv *v, char *reply, size_t len, const char *json)
{
	static char line[65536];

	fprintf(v->qmp, "%s\n", json);
	fflush(v->qmp);
	for (;;) {
		if (!fgets(line, sizeof(line), v->qmp)) {
			err_msg("qmp: connection closed");
			return -EPIPE;
		}
		if (!strncmp(line, "{\"return\"", 9))
			break;
		if (!strncmp(line, "{\"error\"", 8)) {
			err_msg("qmp: %s: %s", json, line);
			return -EIO;
		}
	}
	if (reply)
		copy_reply(reply, len, line);
	return 0;
}

static int qmp_open(struct qv *v)
{
	char greeting[4096];

	if (v->qmp)
		return 0;
	if (!v->qmp_path) {
		err_msg("this step needs -m QMP_SOCK");
		return -EINVAL;
	}
	v->qmp = unix_connect(v->qmp_path);
	if (!v->qmp || !fgets(greeting, sizeof(greeting), v->qmp))
		return -EIO;
	return qmp_cmd(v, NULL, 0, "{\"execute\":\"qmp_capabilities\"}");
}

/* Append @s to @json as a JSON string body. */
static void json_escape(char *json, size_t room, const char *s)
{
	size_t n = strlen(json);

	for (; *s && n + 3 < room; s++) {
		if (*s == '"' || *s == '\\')
			json[n++] = '\\';
		json[n++] = *s;
	}
	json[n] = 0;
}

static int step_hmp(struct qv *v, const char *cmd)
{
	char json[1024] = "{\"execute\":\"human-monitor-command\","
			  "\"arguments\":{\"command-line\":\"";
	char reply[4096];

	if (qmp_open(v))
		return -EIO;
	json_escape(json, sizeof(json) - 4, cmd);
	strcat(json, "\"}}");
	if (qmp_cmd(v, reply, sizeof(reply), json))
		return -EIO;
	printf("hmp %s: %s", cmd, reply);
	return 0;
}

static int step_migrate(struct qv *v, const char *uri)
{
	uint64_t end = now_ms() + 1000ULL * v->timeout_s;
	char json[1024] = "{\"execute\":\"migrate\",\"arguments\":{\"uri\":\"";
	char reply[4096];

	if (qmp_open(v))
		return -EIO;
	json_escape(json, sizeof(json) - 4, uri);
	strcat(json, "\"}}");
	if (qmp_cmd(v, NULL, 0, json))
		return -EIO;
	do {
		usleep(20000);
		if (qmp_cmd(v, reply, sizeof(reply),
			    "{\"execute\":\"query-migrate\"}"))
			return -EIO;
		if (strstr(reply, "\"status\": \"failed\"")) {
			err_msg("migrate %s: %s", uri, reply);
			return -EIO;
		}
	} while (!strstr(reply, "\"status\": \"completed\"") && now_ms() < end);
	if (!strstr(reply, "\"status\": \"completed\"")) {
		err_msg("migrate %s: not completed in %u s", uri, v->timeout_s);
		return -ETIMEDOUT;
	}
	printf("migrate %s: completed\n", uri);
	return 0;
}

static int write_bios(const char *path)
{
	/* at the reset vector: cli; hlt; jmp back to the hlt */
	static const uint8_t halt[] = { 0xfa, 0xf4, 0xeb, 0xfd };
	static uint8_t rom[64 * 1024];
	FILE *f = fopen(path, "wb");

	memcpy(rom + sizeof(rom) - 16, halt, sizeof(halt));
	if (!f || fwrite(rom, sizeof(rom), 1, f) != 1 || fclose(f)) {
		err_msg("write %s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s bios FILE\n"
		"       %s [-q QTEST_SOCK] [-m QMP_SOCK] [-T SECONDS] STEP...\n"
		"Steps: init | attach | rx MODE 0|1 | mac-set MAC |\n"
		"       mac-table UNI MULTI | vlan[-del] FIRST [LAST] | mq PAIRS |\n"
		"       offloads HEX | loop [DST_MAC] | hmp COMMAND |\n"
		"       migrate URI | status\n",
		prog, prog);
}

/* Run the step at argv[0]; the number of words it took, or < 0. */
static int run_step(struct qv *v, int argc, char **argv)
{
	const char *s = argv[0];
	uint8_t buf[8];
	int need = 1;

	if (!strcmp(s, "rx") || !strcmp(s, "mac-table"))
		need = 3;
	else if (!strcmp(s, "mac-set") || !strcmp(s, "mq") ||
		 !strcmp(s, "offloads") || !strcmp(s, "hmp") ||
		 !strcmp(s, "migrate") || !strcmp(s, "vlan") ||
		 !strcmp(s, "vlan-del"))
		need = 2;
	if (argc < need) {
		usage(stderr);
		return -EINVAL;
	}
	if ((strcmp(s, "hmp") && strcmp(s, "migrate")) && !v->qtest) {
		if (!v->qtest_path) {
			err_msg("%s needs -q QTEST_SOCK", s);
			return -EINVAL;
		}
		v->qtest = unix_connect(v->qtest_path);
		if (!v->qtest)
			return -EIO;
	}
	if (!strcmp(s, "init"))
		return step_init(v) ?: need;
	if (!strcmp(s, "attach"))
		return step_attach(v) ?: need;
	if (!strcmp(s, "status")) {
		printf("status 0x%02llx\n",
		       (unsigned long long)common_rd(v, VC_STATUS, "readb"));
		return need;
	}
	if (!strcmp(s, "hmp"))
		return step_hmp(v, argv[1]) ?: need;
	if (!strcmp(s, "migrate"))
		return step_migrate(v, argv[1]) ?: need;
	if (!v->common) {
		err_msg("%s: init or attach first", s);
		return -EINVAL;
	}
	if (!strcmp(s, "rx"))
		return step_rx(v, argv[1], argv[2]) ?: need;
	if (!strcmp(s, "mac-table"))
		return step_mac_table(v, argv[1], argv[2]) ?: need;
	if (!strcmp(s, "vlan") || !strcmp(s, "vlan-del")) {
		unsigned int first = strtoul(argv[1], NULL, 0), last = first;

		if (argc > 2 && argv[2][0] >= '0' && argv[2][0] <= '9') {
			last = strtoul(argv[2], NULL, 0);
			need = 3;
		}
		return step_vlans(v, !strcmp(s, "vlan-del"), first, last) ?:
									    need;
	}
	if (!strcmp(s, "mac-set"))
		return parse_mac(argv[1], buf) ?:
			       ctrl_step(v, s, argv[1], 1, 1, buf, QV_ETH_ALEN) ?:
			       need;
	if (!strcmp(s, "mq")) {
		put_le16(buf, strtoul(argv[1], NULL, 0));
		return ctrl_step(v, s, argv[1], 4, 0, buf, 2) ?: need;
	}
	if (!strcmp(s, "offloads")) {
		put_le64(buf, strtoull(argv[1], NULL, 16));
		return ctrl_step(v, s, argv[1], 5, 0, buf, 8) ?: need;
	}
	if (!strcmp(s, "loop")) {
		const char *dst = argc > 1 && strchr(argv[1], ':') ? argv[1] :
								     NULL;

		return step_loop(v, dst) ?: (dst ? 2 : 1);
	}
	err_msg("%s: unknown step", s);
	usage(stderr);
	return -EINVAL;
}

int main(int argc, char **argv)
{
	struct qv v = { .timeout_s = 30 };
	int opt, n;

	if (argc == 3 && !strcmp(argv[1], "bios"))
		return write_bios(argv[2]);
	while ((opt = getopt(argc, argv, "+q:m:T:h")) != -1) {
		switch (opt) {
		case 'q':
			v.qtest_path = optarg;
			break;
		case 'm':
			v.qmp_path = optarg;
			break;
		case 'T':
			v.timeout_s = strtoul(optarg, NULL, 0);
			break;
		default:
			usage(opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (argv += optind, argc -= optind; argc > 0; argv += n, argc -= n) {
		n = run_step(&v, argc, argv);
		if (n < 0)
			return n == -EINVAL ? 2 : 1;
	}
	return 0;
}
