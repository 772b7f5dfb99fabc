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
 *   --features HEX  only negotiate: VHOST_SET_FEATURES HEX (its error, if
 *                   any, ignored as a careless driver would), then
 *                   FEATURES_OK; prints "set_features=0|-ERRNO
 *                   features_ok=0|1" (whether the device kept FEATURES_OK)
 *   --switch-asid   once the commands are answered, map the same IOVAs in
 *                   address space 1, but the command page to another page
 *                   holding MAC_ADDR_SET 02:00:00:00:00:aa, move the CVQ's
 *                   group to address space 1 and send that command at the
 *                   IOVA of the first one; adds " switched_used=U mac=M":
 *                   the used index after it and the config MAC
 *                   (02:00:00:00:00:01 if the device still read address
 *                   space 0)
 *   --stall-ms MS   the ack page is a userfaultfd page nobody serves: the
 *                   device's write of the first ack faults and waits. Once
 *                   the fault is seen, prints "stalled" on a line of its
 *                   own (so a test can act meanwhile), then times
 *                   VHOST_VDPA_GET_STATUS and, at the same time, an IOTLB
 *                   update (BATCH_END: set_map); MS after the kick the
 *                   userfaultfd is closed, which lets the fault complete.
 *                   Adds "stall get_status_ms=G set_map_ms=S " before the
 *                   usual fields, whose wait starts then.
 *   --stall-reset   with --stall-ms: once those two are timed (vhost_vdpa
 *                   runs one ioctl of a file at a time, so neither may
 *                   wait behind the reset), a second thread resets the
 *                   device (VHOST_VDPA_SET_STATUS 0) while the run still
 *                   waits, printing "resetting" on a line of its own just
 *                   before and "reset" once it returned (so a test can
 *                   tell). Adds "reset_ms=R reset_used=U " after the stall
 *                   fields: how long the reset took, and the used index
 *                   when it returned (a reset device writes no more)
 *   --used-event-unmapped  negotiate VIRTIO_RING_F_EVENT_IDX too, and put
 *                   the avail ring at the end of a one-page alias of its
 *                   page, so that used_event, the u16 after its entries,
 *                   is the first byte past the map: the device's read of
 *                   it after publishing fails. The wait ends only once the
 *                   used index reached N and NEEDS_RESET is set (with the
 *                   config interrupt, if one was given)
 *   --sizes         only report VHOST_VDPA_GET_VRING_SIZE of the CVQ (whose
 *                   size is set to 64) before and after DRIVER_OK: prints
 *                   "vring_size before=B after=A" and exits
 *   --late-enable   the CVQ is not enabled at DRIVER_OK: the commands are
 *                   made available and kicked, then the device suspended,
 *                   the CVQ enabled and the device resumed, with no kick
 *                   after that; the wait for the answer starts at resume
 *   --failing-map N  after DRIVER_OK, one IOTLB batch that maps a page
 *                   more, whose Nth fault-injection point fails
 *                   (/proc/thread-self/fail-nth: a test sets up failslab
 *                   and fail_page_alloc to count only the device's
 *                   allocations); then the commands. Adds "fail_nth_left=L"
 *                   before the usual fields: 0 if the Nth allocation was
 *                   made, and failed
 *   --persist-maps MB  only map: with IOTLB_PERSIST, IOVAs [0, MB MiB) to
 *                   a shared mapping at user address 0x10000000, then
 *                   close, leaving the device with maps and no mm (what
 *                   virtio_vdpa then finds); prints "persisted" and exits
 *   --race-s S      for S seconds, without IOTLB_BATCH (so that every
 *                   IOTLB update reaches set_map under the mmap_lock):
 *                   one command at a time, each kicked and waited for,
 *                   while one thread maps and unmaps a page of the same
 *                   memory and another drops the command and ack pages
 *                   (MADV_DONTNEED, so the device's next access faults)
 *                   and maps and unmaps anonymous memory (taking the
 *                   mmap_lock for writing). Prints "race cmds=C updates=U
 *                   mm_ops=M" and exits 0, or exit 1 if a command was not
 *                   answered within 5 s
 *
 * Output, one line on stdout, then exit 0:
 *   used=U needs_reset=0|1 config_irq=0|1 acks=A,B,... ms=T
 * U: the used index after the wait; config_irq: the config eventfd fired;
 * acks: each command's ack byte (255 if never written); ms: from the kick
 * to the end of the wait (the used index reached N, or NEEDS_RESET and the
 * config interrupt if one was asked for; both with --used-event-unmapped).
 * Exit 2: a set-up step failed.
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
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../tools/vdpactl-batch/lib/compat.h"

#define VHOST_RAW_PROG "vsbdrv"
#include "vhost_raw.h"

#define VSBDRV_NUM 64
#define VSBDRV_PAGE 4096
#define VSBDRV_CVQ 2
/* Where the four pages (rings, used ring, commands, acks) sit. */
#define VSBDRV_IOVA 0x100000ULL
/* Where --stall-ms maps its timed IOTLB update: above the rest. */
#define VSBDRV_STALL_IOVA 0x200000000ULL
/* Where --extra-maps go: far above the four pages. */
#define VSBDRV_EXTRA_IOVA 0x100000000ULL
/* --used-event-unmapped: the driver page's alias, nothing mapped after it. */
#define VSBDRV_AVAIL_END_IOVA 0x300000000ULL
#define VSBDRV_CMD_LEN 8
#define VSBDRV_ACK_UNSET 0xff
#define VSBDRV_SWITCH_MAC_LAST 0xaa

/* PG_CMD_AS1 is mapped only in address space 1, at PG_CMD's IOVA. */
enum { PG_DRIVER, PG_USED, PG_CMD, PG_ACK, PG_CMD_AS1, PG_COUNT };
#define PG_MAPPED PG_CMD_AS1

struct opts {
	bool config_call;
	bool used_ro;
	bool bad_head;
	bool switch_asid;
	bool features_given;
	uint64_t features;
	unsigned int cmds;
	unsigned int idle_ms;
	unsigned int wait_ms;
	unsigned long extra_maps;
	unsigned int stall_ms;
	bool stall_reset;
	bool used_event_unmapped;
	unsigned int race_s;
	bool sizes;
	unsigned long persist_mb;
	bool late_enable;
	unsigned int failing_map;
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
	int uffd;
	uint64_t get_status_ms;
	uint64_t set_map_ms;
	uint64_t reset_ms;
	uint16_t reset_used;
	int size_before;
	unsigned int fail_nth_left;
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

static void add_status(struct drv *d, uint8_t bits)
{
	uint8_t status = get_status(d) | bits;

	xioctl(d, VHOST_VDPA_SET_STATUS, &status, "VHOST_VDPA_SET_STATUS");
	if ((get_status(d) & bits) != bits) {
		errno = EIO;
		die("status 0x%x not kept", bits);
	}
}

static void iotlb_msg(struct drv *d, uint32_t asid, uint8_t type, uint64_t iova,
		      uint64_t size, uint64_t uaddr, uint8_t perm)
{
	vhost_raw_iotlb(d->fd, asid, type, iova, size, uaddr, perm);
}

static const uint8_t page_perm[PG_MAPPED] = {
	[PG_DRIVER] = VHOST_ACCESS_RO,
	[PG_USED] = VHOST_ACCESS_RW,
	[PG_CMD] = VHOST_ACCESS_RO,
	[PG_ACK] = VHOST_ACCESS_RW,
};

static uint64_t page_uaddr(const struct drv *d, int pg)
{
	return (uintptr_t)d->mem + (uint64_t)pg * VSBDRV_PAGE;
}

/* Page pg at its IOVA, backed by page @backing. */
static void map_page(struct drv *d, uint32_t asid, int pg, int backing,
		     uint8_t perm)
{
	iotlb_msg(d, asid, VHOST_IOTLB_UPDATE,
		  VSBDRV_IOVA + (uint64_t)pg * VSBDRV_PAGE, VSBDRV_PAGE,
		  page_uaddr(d, backing), perm);
}

static void map_memory(struct drv *d, const struct opts *o)
{
	unsigned long i;
	int pg;

	if (!o->race_s)
		iotlb_msg(d, 0, VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0);
	for (pg = 0; pg < PG_MAPPED; pg++)
		map_page(d, 0, pg, pg,
			 pg == PG_USED && o->used_ro ? VHOST_ACCESS_RO :
						       page_perm[pg]);
	if (o->used_event_unmapped)
		iotlb_msg(d, 0, VHOST_IOTLB_UPDATE, VSBDRV_AVAIL_END_IOVA,
			  VSBDRV_PAGE, page_uaddr(d, PG_DRIVER),
			  VHOST_ACCESS_RO);
	/* The same page under many IOVAs: one map each, little memory. */
	for (i = 0; i < o->extra_maps; i++)
		iotlb_msg(d, 0, VHOST_IOTLB_UPDATE,
			  VSBDRV_EXTRA_IOVA + (uint64_t)i * VSBDRV_PAGE,
			  VSBDRV_PAGE, page_uaddr(d, PG_CMD), VHOST_ACCESS_RO);
	if (!o->race_s)
		iotlb_msg(d, 0, VHOST_IOTLB_BATCH_END, 0, 0, 0, 0);
}

/* --features: whether FEATURES_OK sticks on @features; exits. */
static void __attribute__((noreturn))
try_features(struct drv *d, uint64_t features)
{
	int err = ioctl(d->fd, VHOST_SET_FEATURES, &features) ? -errno : 0;
	uint8_t status = get_status(d) | VIRTIO_CONFIG_S_FEATURES_OK;

	xioctl(d, VHOST_VDPA_SET_STATUS, &status, "VHOST_VDPA_SET_STATUS");
	printf("set_features=%d features_ok=%d\n", err,
	       !!(get_status(d) & VIRTIO_CONFIG_S_FEATURES_OK));
	exit(0);
}

static int new_eventfd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	if (fd < 0)
		die("eventfd");
	return fd;
}

/*
 * --stall-ms: the ack page, never touched so far, to a userfaultfd that
 * reports a missing page and never serves it. Kernel-mode faults count
 * (no UFFD_USER_MODE_ONLY): the test runs as root.
 */
static void register_stall(struct drv *d)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = page_uaddr(d, PG_ACK), .len = VSBDRV_PAGE },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};

	d->uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (d->uffd < 0)
		die("userfaultfd");
	if (ioctl(d->uffd, UFFDIO_API, &api) ||
	    ioctl(d->uffd, UFFDIO_REGISTER, &reg))
		die("userfaultfd: registering the ack page");
}

/* Where --persist-maps maps: a user address that is also a guest PA. */
#define VSBDRV_PERSIST_UADDR 0x10000000UL

/* --persist-maps: maps left behind for the next driver; exits. */
static void __attribute__((noreturn))
persist_maps(struct drv *d, const struct opts *o)
{
	uint64_t size = (uint64_t)o->persist_mb << 20;
	uint64_t backend;
	void *p;
	int memfd;

	xioctl(d, VHOST_GET_BACKEND_FEATURES, &backend,
	       "VHOST_GET_BACKEND_FEATURES");
	if (!(backend & (1ULL << VHOST_BACKEND_F_IOTLB_PERSIST))) {
		errno = EOPNOTSUPP;
		die("IOTLB_PERSIST");
	}
	backend &= (1ULL << VHOST_BACKEND_F_IOTLB_MSG_V2) |
		   (1ULL << VHOST_BACKEND_F_IOTLB_PERSIST);
	xioctl(d, VHOST_SET_BACKEND_FEATURES, &backend,
	       "VHOST_SET_BACKEND_FEATURES");
	/* Sparse: nothing is touched, so it costs no memory. */
	memfd = memfd_create("vsbdrv-persist", MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, size))
		die("memfd");
	p = mmap((void *)VSBDRV_PERSIST_UADDR, size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED_NOREPLACE, memfd, 0);
	if (p == MAP_FAILED)
		die("mmap at 0x%lx", VSBDRV_PERSIST_UADDR);
	iotlb_msg(d, 0, VHOST_IOTLB_UPDATE, 0, size, (uintptr_t)p,
		  VHOST_ACCESS_RW);
	close(d->fd);
	printf("persisted\n");
	exit(0);
}

static void enable_cvq(struct drv *d)
{
	struct vhost_vring_state state = { .index = VSBDRV_CVQ, .num = 1 };

	xioctl(d, VHOST_VDPA_SET_VRING_ENABLE, &state,
	       "VHOST_VDPA_SET_VRING_ENABLE");
}

/* The CVQ's size as the device reports it, -errno if it cannot. */
static int cvq_size(struct drv *d)
{
	struct vhost_vring_state state = { .index = VSBDRV_CVQ };

	if (ioctl(d->fd, VHOST_VDPA_GET_VRING_SIZE, &state))
		return -errno;
	return state.num;
}

/*
 * Where the avail ring starts in the driver page: after the descriptors,
 * or with --used-event-unmapped where its entries end with the page.
 */
static size_t avail_offset(const struct opts *o)
{
	size_t entries_end =
		sizeof(struct vring_avail) + VSBDRV_NUM * sizeof(__virtio16);

	if (o->used_event_unmapped)
		return VSBDRV_PAGE - entries_end;
	return VSBDRV_NUM * sizeof(struct vring_desc);
}

static void setup(struct drv *d, const struct opts *o)
{
	uint64_t backend = (1ULL << VHOST_BACKEND_F_IOTLB_MSG_V2) |
			   (1ULL << VHOST_BACKEND_F_IOTLB_BATCH) |
			   (1ULL << VHOST_BACKEND_F_IOTLB_ASID) |
			   (1ULL << VHOST_BACKEND_F_SUSPEND) |
			   (1ULL << VHOST_BACKEND_F_RESUME) |
			   (1ULL << VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK);
	uint64_t features, offered;
	struct vhost_vring_state state = { .index = VSBDRV_CVQ };
	struct vhost_vring_file file = { .index = VSBDRV_CVQ };
	struct vhost_vring_addr addr = { .index = VSBDRV_CVQ };
	int memfd;

	d->fd = open(o->path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		die("open %s", o->path);
	xioctl(d, VHOST_SET_OWNER, NULL, "VHOST_SET_OWNER");
	if (o->persist_mb)
		persist_maps(d, o);
	xioctl(d, VHOST_GET_BACKEND_FEATURES, &offered,
	       "VHOST_GET_BACKEND_FEATURES");
	backend &= offered;
	if (o->race_s)
		backend &= ~(1ULL << VHOST_BACKEND_F_IOTLB_BATCH);
	xioctl(d, VHOST_SET_BACKEND_FEATURES, &backend,
	       "VHOST_SET_BACKEND_FEATURES");

	add_status(d, VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);
	if (o->features_given)
		try_features(d, o->features);
	xioctl(d, VHOST_GET_FEATURES, &offered, "VHOST_GET_FEATURES");
	features = offered & ((1ULL << VIRTIO_F_VERSION_1) |
			      (1ULL << VIRTIO_F_ACCESS_PLATFORM) |
			      (1ULL << VIRTIO_NET_F_CTRL_VQ) |
			      (1ULL << VIRTIO_NET_F_CTRL_MAC_ADDR));
	if (o->used_event_unmapped) {
		if (!(offered & (1ULL << VIRTIO_RING_F_EVENT_IDX))) {
			errno = EOPNOTSUPP;
			die("VIRTIO_RING_F_EVENT_IDX not offered");
		}
		features |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
	}
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
	d->avail = (void *)(d->mem + avail_offset(o));
	d->used = (void *)(d->mem + PG_USED * VSBDRV_PAGE);
	d->uffd = -1;
	if (o->stall_ms)
		register_stall(d);
	else
		memset(d->mem + PG_ACK * VSBDRV_PAGE, VSBDRV_ACK_UNSET,
		       VSBDRV_PAGE);
	map_memory(d, o);

	state.num = VSBDRV_NUM;
	xioctl(d, VHOST_SET_VRING_NUM, &state, "VHOST_SET_VRING_NUM");
	addr.desc_user_addr = VSBDRV_IOVA;
	addr.avail_user_addr =
		avail_offset(o) +
		(o->used_event_unmapped ? VSBDRV_AVAIL_END_IOVA : VSBDRV_IOVA);
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
	if (o->sizes)
		d->size_before = cvq_size(d);
	if (!o->late_enable)
		enable_cvq(d);
	add_status(d, VIRTIO_CONFIG_S_DRIVER_OK);
	if (o->sizes) {
		printf("vring_size before=%d after=%d\n", d->size_before,
		       cvq_size(d));
		exit(0);
	}
}

/*
 * MAC_ADDR_SET 02:00:00:00:00:@mac_last in descriptor 2 * @i, at command
 * @slot of PG_CMD's IOVA, the bytes written to page @cmd_page (PG_CMD, or
 * PG_CMD_AS1 behind the same IOVA in address space 1); its ack in
 * descriptor 2 * @i + 1; made available at avail entry @i.
 */
static void put_cmd(struct drv *d, uint16_t i, int cmd_page, uint16_t slot,
		    uint8_t mac_last, bool bad_head)
{
	uint8_t *c = d->mem + cmd_page * VSBDRV_PAGE + slot * VSBDRV_CMD_LEN;
	uint16_t head = 2 * i;

	c[0] = VIRTIO_NET_CTRL_MAC;
	c[1] = VIRTIO_NET_CTRL_MAC_ADDR_SET;
	memcpy(c + 2, "\x02\x00\x00\x00\x00", 5);
	c[7] = mac_last;
	d->desc[head] = (struct vring_desc){
		.addr = VSBDRV_IOVA + PG_CMD * VSBDRV_PAGE +
			slot * VSBDRV_CMD_LEN,
		.len = VSBDRV_CMD_LEN,
		.flags = VRING_DESC_F_NEXT,
		.next = head + 1,
	};
	d->desc[head + 1] = (struct vring_desc){
		.addr = VSBDRV_IOVA + PG_ACK * VSBDRV_PAGE + i,
		.len = 1,
		.flags = VRING_DESC_F_WRITE,
	};
	d->avail->ring[i] = bad_head ? VSBDRV_NUM : head;
}

/* Make the avail entries before @idx available, and kick. */
static void kick(struct drv *d, uint16_t idx)
{
	/* Release: the entries before the index that announces them. */
	__atomic_store_n(&d->avail->idx, idx, __ATOMIC_RELEASE);
	if (eventfd_write(d->kick_fd, 1))
		die("kick");
}

static bool fired(int fd)
{
	eventfd_t v;

	return fd >= 0 && !eventfd_read(fd, &v) && v;
}

struct answer {
	uint16_t used;
	bool needs_reset;
	bool config_irq;
	uint64_t ms;
};

/*
 * Wait for used idx @want, or NEEDS_RESET (and the config call, if set);
 * for both with --used-event-unmapped.
 */
static void wait_used(struct drv *d, const struct opts *o, uint16_t want,
		      struct answer *a)
{
	uint64_t start = now_ms(), end = start + o->wait_ms;
	bool answered, reported;

	*a = (struct answer){ 0 };
	for (;;) {
		a->used = __atomic_load_n(&d->used->idx, __ATOMIC_ACQUIRE);
		a->needs_reset = get_status(d) & VIRTIO_CONFIG_S_NEEDS_RESET;
		a->config_irq |= fired(d->config_fd);
		answered = a->used == want;
		reported = a->needs_reset && (a->config_irq || !o->config_call);
		if (o->used_event_unmapped ? answered && reported :
					     answered || reported)
			break;
		if (now_ms() >= end)
			break;
		poll(NULL, 0, 1);
	}
	a->ms = now_ms() - start;
}

struct stall {
	struct drv *d;
	unsigned int ms;
};

/*
 * Closing the userfaultfd wakes the fault, which then completes as a
 * plain one: whatever else is stuck, the device gets going again.
 */
static void *end_stall(void *arg)
{
	struct stall *st = arg;

	usleep(st->ms * 1000);
	close(st->d->uffd);
	return NULL;
}

/* Wait until the device's access to the ack page faults. */
static void wait_for_fault(struct drv *d)
{
	struct pollfd pfd = { .fd = d->uffd, .events = POLLIN };
	struct uffd_msg msg;

	for (;;) {
		if (poll(&pfd, 1, 10000) != 1)
			die("no fault on the ack page within 10 s");
		if (read(d->uffd, &msg, sizeof(msg)) == sizeof(msg) &&
		    msg.event == UFFD_EVENT_PAGEFAULT)
			return;
	}
}

/* An IOTLB update as at the end of a batch: set_map. */
static void *timed_set_map(void *arg)
{
	struct drv *d = arg;
	uint64_t start = now_ms();

	iotlb_msg(d, 0, VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0);
	iotlb_msg(d, 0, VHOST_IOTLB_UPDATE, VSBDRV_STALL_IOVA, VSBDRV_PAGE,
		  page_uaddr(d, PG_CMD), VHOST_ACCESS_RO);
	iotlb_msg(d, 0, VHOST_IOTLB_BATCH_END, 0, 0, 0, 0);
	d->set_map_ms = now_ms() - start;
	return NULL;
}

#define FAIL_NTH "/proc/thread-self/fail-nth"

/* --failing-map: set_map, its @nth injection point failing. */
static unsigned int failing_map(struct drv *d, unsigned int nth)
{
	char buf[16];
	int fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	ssize_t len;

	if (fd < 0 || dprintf(fd, "%u", nth) < 0)
		die(FAIL_NTH " (a kernel without FAULT_INJECTION?)");
	timed_set_map(d);
	/* What is left of the count; then no later call may fail. */
	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len <= 0 || pwrite(fd, "0", 1, 0) != 1)
		die(FAIL_NTH);
	buf[len] = '\0';
	close(fd);
	return strtoul(buf, NULL, 10);
}

/*
 * --stall-reset: the owner resets the device, as QEMU does when the guest
 * resets it or the VM stops, while the run waits in the fault.
 */
static void *timed_reset(void *arg)
{
	struct drv *d = arg;
	uint8_t status = 0;
	uint64_t start;

	printf("resetting\n");
	fflush(stdout);
	start = now_ms();
	xioctl(d, VHOST_VDPA_SET_STATUS, &status, "VHOST_VDPA_SET_STATUS 0");
	d->reset_ms = now_ms() - start;
	d->reset_used = __atomic_load_n(&d->used->idx, __ATOMIC_ACQUIRE);
	printf("reset\n");
	fflush(stdout);
	return NULL;
}

/*
 * While the device's run waits in the fault: an IOTLB update (set_map)
 * and a status read, at the same time, must not wait for it; then, with
 * --stall-reset, neither may a reset.
 */
static void stall(struct drv *d, const struct opts *o)
{
	struct stall st = { .d = d, .ms = o->stall_ms };
	pthread_t end_tid, map_tid, reset_tid;
	uint64_t start;

	if (pthread_create(&end_tid, NULL, end_stall, &st))
		die("pthread_create");
	wait_for_fault(d);
	printf("stalled\n");
	fflush(stdout);
	if (pthread_create(&map_tid, NULL, timed_set_map, d))
		die("pthread_create");
	start = now_ms();
	get_status(d);
	d->get_status_ms = now_ms() - start;
	pthread_join(map_tid, NULL);
	if (o->stall_reset && pthread_create(&reset_tid, NULL, timed_reset, d))
		die("pthread_create");
	pthread_join(end_tid, NULL);
	if (o->stall_reset)
		pthread_join(reset_tid, NULL);
}

/* Enable the CVQ while the device is suspended, then resume it. */
static void late_enable(struct drv *d)
{
	/* Let the kick reach the device while the queue is still off. */
	usleep(100 * 1000);
	xioctl(d, VHOST_VDPA_SUSPEND, NULL, "VHOST_VDPA_SUSPEND");
	enable_cvq(d);
	xioctl(d, VHOST_VDPA_RESUME, NULL, "VHOST_VDPA_RESUME");
}

struct race {
	struct drv *d;
	volatile bool stop;
	unsigned long updates;
	unsigned long mm_ops;
};

/* Each update is a set_map under the owner's mmap_lock (no batching). */
static void *race_iotlb(void *arg)
{
	struct race *r = arg;

	while (!r->stop) {
		iotlb_msg(r->d, 0, VHOST_IOTLB_UPDATE, VSBDRV_STALL_IOVA,
			  VSBDRV_PAGE, page_uaddr(r->d, PG_CMD),
			  VHOST_ACCESS_RO);
		iotlb_msg(r->d, 0, VHOST_IOTLB_INVALIDATE, VSBDRV_STALL_IOVA,
			  VSBDRV_PAGE, 0, 0);
		r->updates++;
	}
	return NULL;
}

/* Faults for the device, and writers queued on the mmap_lock. */
static void *race_mm(void *arg)
{
	struct race *r = arg;
	void *p;

	while (!r->stop) {
		if (madvise(r->d->mem + PG_CMD * VSBDRV_PAGE, 2 * VSBDRV_PAGE,
			    MADV_DONTNEED))
			die("madvise");
		p = mmap(NULL, VSBDRV_PAGE, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || munmap(p, VSBDRV_PAGE))
			die("mmap");
		r->mm_ops++;
	}
	return NULL;
}

static void __attribute__((noreturn)) race(struct drv *d, const struct opts *o)
{
	struct race r = { .d = d };
	uint64_t end = now_ms() + o->race_s * 1000ULL, deadline;
	pthread_t iotlb_tid, mm_tid;
	unsigned long n;
	uint16_t slot;

	if (pthread_create(&iotlb_tid, NULL, race_iotlb, &r) ||
	    pthread_create(&mm_tid, NULL, race_mm, &r))
		die("pthread_create");
	for (n = 0; now_ms() < end; n++) {
		slot = n % (VSBDRV_NUM / 2);
		put_cmd(d, slot, PG_CMD, slot, (uint8_t)n, false);
		d->avail->ring[n % VSBDRV_NUM] = 2 * slot;
		kick(d, (uint16_t)(n + 1));
		deadline = now_ms() + 5000;
		while (__atomic_load_n(&d->used->idx, __ATOMIC_ACQUIRE) !=
		       (uint16_t)(n + 1)) {
			if (now_ms() > deadline) {
				printf("race stuck at command %lu\n", n);
				fflush(stdout);
				_exit(1);
			}
			sched_yield();
		}
	}
	r.stop = true;
	pthread_join(iotlb_tid, NULL);
	pthread_join(mm_tid, NULL);
	printf("race cmds=%lu updates=%lu mm_ops=%lu\n", n, r.updates,
	       r.mm_ops);
	exit(0);
}

static void print_config_mac(struct drv *d)
{
	struct {
		struct vhost_vdpa_config hdr;
		uint8_t mac[6];
	} cfg = { .hdr = { .off = 0, .len = sizeof(cfg.mac) } };

	xioctl(d, VHOST_VDPA_GET_CONFIG, &cfg, "VHOST_VDPA_GET_CONFIG");
	printf(" mac=%02x:%02x:%02x:%02x:%02x:%02x", cfg.mac[0], cfg.mac[1],
	       cfg.mac[2], cfg.mac[3], cfg.mac[4], cfg.mac[5]);
}

/*
 * The same IOVAs in address space 1, but PG_CMD's backed by PG_CMD_AS1;
 * the CVQ's group moves there, and one command goes at slot 0 of PG_CMD's
 * IOVA, where address space 0 still holds the first command.
 */
static void switch_asid(struct drv *d, const struct opts *o)
{
	struct vhost_vring_state group = { .index = VSBDRV_CVQ };
	struct answer a;
	int pg;

	iotlb_msg(d, 1, VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0);
	for (pg = 0; pg < PG_MAPPED; pg++)
		map_page(d, 1, pg, pg == PG_CMD ? PG_CMD_AS1 : pg,
			 page_perm[pg]);
	iotlb_msg(d, 1, VHOST_IOTLB_BATCH_END, 0, 0, 0, 0);
	xioctl(d, VHOST_VDPA_GET_VRING_GROUP, &group,
	       "VHOST_VDPA_GET_VRING_GROUP");
	group.index = group.num;
	group.num = 1;
	xioctl(d, VHOST_VDPA_SET_GROUP_ASID, &group,
	       "VHOST_VDPA_SET_GROUP_ASID");
	put_cmd(d, o->cmds, PG_CMD_AS1, 0, VSBDRV_SWITCH_MAC_LAST, false);
	kick(d, o->cmds + 1);
	wait_used(d, o, o->cmds + 1, &a);
	printf(" switched_used=%u", a.used);
	print_config_mac(d);
}

int main(int argc, char **argv)
{
	struct opts o = { .cmds = 1, .idle_ms = 300, .wait_ms = 1000 };
	struct drv d = { 0 };
	struct answer ans;
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
		else if (!strcmp(opt, "--switch-asid"))
			o.switch_asid = true;
		else if (a + 1 < argc && !strcmp(opt, "--cmds"))
			o.cmds = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--idle-ms"))
			o.idle_ms = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--wait-ms"))
			o.wait_ms = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--persist-maps"))
			o.persist_mb = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(opt, "--sizes"))
			o.sizes = true;
		else if (a + 1 < argc && !strcmp(opt, "--failing-map"))
			o.failing_map = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(opt, "--late-enable"))
			o.late_enable = true;
		else if (a + 1 < argc && !strcmp(opt, "--race-s"))
			o.race_s = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--stall-ms"))
			o.stall_ms = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(opt, "--stall-reset"))
			o.stall_reset = true;
		else if (!strcmp(opt, "--used-event-unmapped"))
			o.used_event_unmapped = true;
		else if (a + 1 < argc && !strcmp(opt, "--extra-maps"))
			o.extra_maps = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--features")) {
			o.features_given = true;
			o.features = strtoull(argv[++a], NULL, 16);
		} else
			break;
	}
	/* --switch-asid needs one descriptor pair more. */
	if (a + 1 != argc || !o.cmds || o.cmds >= VSBDRV_NUM / 2 ||
	    (o.stall_reset && !o.stall_ms)) {
		fprintf(stderr,
			"Usage: vsbdrv [--config-call] [--used-ro] [--bad-head] [--switch-asid]\n"
			"  [--cmds N] [--idle-ms MS] [--wait-ms MS] [--extra-maps N]\n"
			"  [--features HEX] [--stall-ms MS [--stall-reset]] [--race-s S]\n"
			"  [--sizes] [--late-enable] [--failing-map N] [--persist-maps MB]\n"
			"  [--used-event-unmapped] /dev/vhost-vdpa-N\n");
		return 2;
	}
	o.path = argv[a];
	setup(&d, &o);
	if (o.race_s)
		race(&d, &o);
	if (o.failing_map)
		d.fail_nth_left = failing_map(&d, o.failing_map);
	usleep(o.idle_ms * 1000);
	for (i = 0; i < o.cmds; i++)
		put_cmd(&d, i, PG_CMD, i, (uint8_t)(i + 1),
			i == 0 && o.bad_head);
	kick(&d, o.cmds);
	if (o.late_enable)
		late_enable(&d);
	if (o.stall_ms)
		stall(&d, &o);
	wait_used(&d, &o, o.cmds, &ans);
	if (o.stall_ms)
		printf("stall get_status_ms=%llu set_map_ms=%llu ",
		       (unsigned long long)d.get_status_ms,
		       (unsigned long long)d.set_map_ms);
	if (o.stall_reset)
		printf("reset_ms=%llu reset_used=%u ",
		       (unsigned long long)d.reset_ms, d.reset_used);
	if (o.failing_map)
		printf("fail_nth_left=%u ", d.fail_nth_left);
	printf("used=%u needs_reset=%d config_irq=%d acks=", ans.used,
	       ans.needs_reset, ans.config_irq);
	for (i = 0; i < o.cmds; i++)
		printf("%s%u", i ? "," : "", d.mem[PG_ACK * VSBDRV_PAGE + i]);
	printf(" ms=%llu", (unsigned long long)ans.ms);
	if (o.switch_asid && ans.used == o.cmds)
		switch_asid(&d, &o);
	putchar('\n');
	return 0;
}
