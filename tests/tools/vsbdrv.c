// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsbdrv: a minimal vhost-vdpa driver of a net device's control queue, for
 * the VM tests that need a driver to do what vdpactl-batch never does:
 * leave the config call unset, map the used ring read-only, load the
 * IOTLB with many maps. Raw ioctls only, no library.
 *
 *   vsbdrv [OPTIONS] /dev/vhost-vdpa-N
 *
 *   --config-call   give the device a config call eventfd (default: none)
 *   --used-ro       map the used ring read-only
 *   --bad-head      make the first avail ring entry = num (no descriptor)
 *   --cmds N        MAC_ADDR_SET commands made available with one kick (1)
 *   --idle-ms MS    wait after DRIVER_OK before the commands (300), so the
 *                   device is idle when the kick comes
 *   --wait-ms MS    how long to wait for the answer (1000)
 *   --extra-maps N  N more 4 KiB read-only maps in the IOTLB batch
 *
 * Output, one line on stdout, then exit 0:
 *   used=U needs_reset=0|1 config_irq=0|1 acks=A,B,... ms=T
 * U: the used index after the wait; config_irq: the config eventfd fired;
 * acks: each command's ack byte (255 if never written); ms: from the kick
 * to the end of the wait (the used index reached N, or NEEDS_RESET and the
 * config interrupt if one was asked for). Exit 2: a set-up step failed.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/vhost.h>
#include <linux/virtio_config.h>
#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define VSBDRV_NUM 64
#define VSBDRV_PAGE 4096
#define VSBDRV_CVQ 2
/* Where the four pages (rings, used ring, commands, acks) sit. */
#define VSBDRV_IOVA 0x100000ULL
/* Where --extra-maps go: far above the four pages. */
#define VSBDRV_EXTRA_IOVA 0x100000000ULL
#define VSBDRV_CMD_LEN 8
#define VSBDRV_ACK_UNSET 0xff

enum { PG_DRIVER, PG_USED, PG_CMD, PG_ACK, PG_COUNT };

struct opts {
	bool config_call;
	bool used_ro;
	bool bad_head;
	unsigned int cmds;
	unsigned int idle_ms;
	unsigned int wait_ms;
	unsigned long extra_maps;
	const char *path;
};

struct drv {
	int fd;
	uint8_t *mem;
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	int kick_fd;
	int call_fd;
	int config_fd;
};

static void __attribute__((format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vsbdrv: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	exit(2);
}

static void xioctl(struct drv *d, unsigned long req, void *arg,
		   const char *name)
{
	if (ioctl(d->fd, req, arg))
		die("%s", name);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint8_t get_status(struct drv *d)
{
	uint8_t status;

	xioctl(d, VHOST_VDPA_GET_STATUS, &status, "VHOST_VDPA_GET_STATUS");
	return status;
}

static void add_status(struct drv *d, uint8_t bits)
{
	uint8_t status = get_status(d) | bits;

	xioctl(d, VHOST_VDPA_SET_STATUS, &status, "VHOST_VDPA_SET_STATUS");
	if ((get_status(d) & bits) != bits) {
		errno = EIO;
		die("status 0x%x not kept", bits);
	}
}

static void iotlb_msg(struct drv *d, uint8_t type, uint64_t iova, uint64_t size,
		      uint64_t uaddr, uint8_t perm)
{
	struct vhost_msg_v2 msg = {
		.type = VHOST_IOTLB_MSG_V2,
		.iotlb = { .iova = iova,
			   .size = size,
			   .uaddr = uaddr,
			   .perm = perm,
			   .type = type },
	};

	if (write(d->fd, &msg, sizeof(msg)) != sizeof(msg))
		die("IOTLB message type %u at 0x%llx", type,
		    (unsigned long long)iova);
}

static void map_memory(struct drv *d, const struct opts *o)
{
	static const uint8_t perm[PG_COUNT] = {
		[PG_DRIVER] = VHOST_ACCESS_RO,
		[PG_USED] = VHOST_ACCESS_RW,
		[PG_CMD] = VHOST_ACCESS_RO,
		[PG_ACK] = VHOST_ACCESS_RW,
	};
	uint64_t uaddr = (uintptr_t)d->mem;
	unsigned long i;
	int pg;

	iotlb_msg(d, VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0);
	for (pg = 0; pg < PG_COUNT; pg++)
		iotlb_msg(d, VHOST_IOTLB_UPDATE,
			  VSBDRV_IOVA + (uint64_t)pg * VSBDRV_PAGE, VSBDRV_PAGE,
			  uaddr + (uint64_t)pg * VSBDRV_PAGE,
			  pg == PG_USED && o->used_ro ? VHOST_ACCESS_RO :
							perm[pg]);
	/* The same page under many IOVAs: one map each, little memory. */
	for (i = 0; i < o->extra_maps; i++)
		iotlb_msg(d, VHOST_IOTLB_UPDATE,
			  VSBDRV_EXTRA_IOVA + (uint64_t)i * VSBDRV_PAGE,
			  VSBDRV_PAGE, uaddr + PG_CMD * VSBDRV_PAGE,
			  VHOST_ACCESS_RO);
	iotlb_msg(d, VHOST_IOTLB_BATCH_END, 0, 0, 0, 0);
}

static int new_eventfd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	if (fd < 0)
		die("eventfd");
	return fd;
}

static void setup(struct drv *d, const struct opts *o)
{
	uint64_t backend = (1ULL << VHOST_BACKEND_F_IOTLB_MSG_V2) |
			   (1ULL << VHOST_BACKEND_F_IOTLB_BATCH);
	uint64_t features, offered;
	struct vhost_vring_state state = { .index = VSBDRV_CVQ };
	struct vhost_vring_file file = { .index = VSBDRV_CVQ };
	struct vhost_vring_addr addr = { .index = VSBDRV_CVQ };
	int memfd;

	d->fd = open(o->path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		die("open %s", o->path);
	xioctl(d, VHOST_SET_OWNER, NULL, "VHOST_SET_OWNER");
	xioctl(d, VHOST_GET_BACKEND_FEATURES, &offered,
	       "VHOST_GET_BACKEND_FEATURES");
	backend &= offered;
	xioctl(d, VHOST_SET_BACKEND_FEATURES, &backend,
	       "VHOST_SET_BACKEND_FEATURES");

	add_status(d, VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);
	xioctl(d, VHOST_GET_FEATURES, &offered, "VHOST_GET_FEATURES");
	features = offered & ((1ULL << VIRTIO_F_VERSION_1) |
			      (1ULL << VIRTIO_F_ACCESS_PLATFORM) |
			      (1ULL << VIRTIO_NET_F_CTRL_VQ) |
			      (1ULL << VIRTIO_NET_F_CTRL_MAC_ADDR));
	xioctl(d, VHOST_SET_FEATURES, &features, "VHOST_SET_FEATURES");
	add_status(d, VIRTIO_CONFIG_S_FEATURES_OK);

	/* Shared memory: VA-mode parents map only file-backed VMAs. */
	memfd = memfd_create("vsbdrv", MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, PG_COUNT * VSBDRV_PAGE))
		die("memfd");
	d->mem = mmap(NULL, PG_COUNT * VSBDRV_PAGE, PROT_READ | PROT_WRITE,
		      MAP_SHARED, memfd, 0);
	if (d->mem == MAP_FAILED)
		die("mmap");
	close(memfd);
	d->desc = (void *)d->mem;
	d->avail = (void *)(d->mem + VSBDRV_NUM * sizeof(struct vring_desc));
	d->used = (void *)(d->mem + PG_USED * VSBDRV_PAGE);
	memset(d->mem + PG_ACK * VSBDRV_PAGE, VSBDRV_ACK_UNSET, VSBDRV_PAGE);
	map_memory(d, o);

	state.num = VSBDRV_NUM;
	xioctl(d, VHOST_SET_VRING_NUM, &state, "VHOST_SET_VRING_NUM");
	addr.desc_user_addr = VSBDRV_IOVA;
	addr.avail_user_addr = VSBDRV_IOVA + ((uint8_t *)d->avail - d->mem);
	addr.used_user_addr = VSBDRV_IOVA + PG_USED * VSBDRV_PAGE;
	xioctl(d, VHOST_SET_VRING_ADDR, &addr, "VHOST_SET_VRING_ADDR");
	state.num = 0;
	xioctl(d, VHOST_SET_VRING_BASE, &state, "VHOST_SET_VRING_BASE");
	d->kick_fd = file.fd = new_eventfd();
	xioctl(d, VHOST_SET_VRING_KICK, &file, "VHOST_SET_VRING_KICK");
	d->call_fd = file.fd = new_eventfd();
	xioctl(d, VHOST_SET_VRING_CALL, &file, "VHOST_SET_VRING_CALL");
	d->config_fd = -1;
	if (o->config_call) {
		d->config_fd = new_eventfd();
		xioctl(d, VHOST_VDPA_SET_CONFIG_CALL, &d->config_fd,
		       "VHOST_VDPA_SET_CONFIG_CALL");
	}
	state.num = 1;
	xioctl(d, VHOST_VDPA_SET_VRING_ENABLE, &state,
	       "VHOST_VDPA_SET_VRING_ENABLE");
	add_status(d, VIRTIO_CONFIG_S_DRIVER_OK);
}

/* Command i: MAC_ADDR_SET in descriptor 2i, its ack in 2i + 1. */
static void offer(struct drv *d, const struct opts *o)
{
	uint8_t *cmd = d->mem + PG_CMD * VSBDRV_PAGE;
	uint16_t i;

	for (i = 0; i < o->cmds; i++) {
		uint8_t *c = cmd + i * VSBDRV_CMD_LEN;
		uint16_t head = 2 * i;

		c[0] = VIRTIO_NET_CTRL_MAC;
		c[1] = VIRTIO_NET_CTRL_MAC_ADDR_SET;
		memcpy(c + 2, "\x02\x00\x00\x00\x00", 5);
		c[7] = (uint8_t)(i + 1);
		d->desc[head] = (struct vring_desc){
			.addr = VSBDRV_IOVA + PG_CMD * VSBDRV_PAGE +
				i * VSBDRV_CMD_LEN,
			.len = VSBDRV_CMD_LEN,
			.flags = VRING_DESC_F_NEXT,
			.next = head + 1,
		};
		d->desc[head + 1] = (struct vring_desc){
			.addr = VSBDRV_IOVA + PG_ACK * VSBDRV_PAGE + i,
			.len = 1,
			.flags = VRING_DESC_F_WRITE,
		};
		d->avail->ring[i] = i == 0 && o->bad_head ? VSBDRV_NUM : head;
	}
	/* Release: the entries before the index that announces them. */
	__atomic_store_n(&d->avail->idx, o->cmds, __ATOMIC_RELEASE);
	if (eventfd_write(d->kick_fd, 1))
		die("kick");
}

static bool fired(int fd)
{
	eventfd_t v;

	return fd >= 0 && !eventfd_read(fd, &v) && v;
}

int main(int argc, char **argv)
{
	struct opts o = { .cmds = 1, .idle_ms = 300, .wait_ms = 1000 };
	struct drv d = { 0 };
	bool needs_reset = false, config_irq = false;
	uint64_t start, end;
	uint16_t used;
	unsigned int i;
	int a;

	for (a = 1; a < argc && !strncmp(argv[a], "--", 2); a++) {
		const char *opt = argv[a];

		if (!strcmp(opt, "--config-call"))
			o.config_call = true;
		else if (!strcmp(opt, "--used-ro"))
			o.used_ro = true;
		else if (!strcmp(opt, "--bad-head"))
			o.bad_head = true;
		else if (a + 1 < argc && !strcmp(opt, "--cmds"))
			o.cmds = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--idle-ms"))
			o.idle_ms = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--wait-ms"))
			o.wait_ms = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--extra-maps"))
			o.extra_maps = strtoul(argv[++a], NULL, 0);
		else
			break;
	}
	if (a + 1 != argc || !o.cmds || o.cmds > VSBDRV_NUM / 2) {
		fprintf(stderr,
			"Usage: vsbdrv [--config-call] [--used-ro] [--bad-head] [--cmds N]\n"
			"  [--idle-ms MS] [--wait-ms MS] [--extra-maps N] /dev/vhost-vdpa-N\n");
		return 2;
	}
	o.path = argv[a];
	setup(&d, &o);
	usleep(o.idle_ms * 1000);
	offer(&d, &o);
	start = now_ms();
	end = start + o.wait_ms;
	for (;;) {
		used = __atomic_load_n(&d.used->idx, __ATOMIC_ACQUIRE);
		needs_reset = get_status(&d) & VIRTIO_CONFIG_S_NEEDS_RESET;
		config_irq |= fired(d.config_fd);
		if (used == o.cmds ||
		    (needs_reset && (config_irq || !o.config_call)))
			break;
		if (now_ms() >= end)
			break;
		poll(NULL, 0, 1);
	}
	printf("used=%u needs_reset=%d config_irq=%d acks=", used, needs_reset,
	       config_irq);
	for (i = 0; i < o.cmds; i++)
		printf("%s%u", i ? "," : "", d.mem[PG_ACK * VSBDRV_PAGE + i]);
	printf(" ms=%llu\n", (unsigned long long)(now_ms() - start));
	return 0;
}
