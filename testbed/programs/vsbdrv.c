// SPDX-License-Identifier: GPL-2.0-only
/*
 * vsbdrv: a driver of a net device's control queue for the VM tests that
 * need one to do what vdpactl-batch never does: leave the config call
 * unset, map the used ring read-only, load the IOTLB with many maps, stall
 * the device in a fault. The device is set up by the tool's library
 * (lib/cvq_dev.h) as vdpactl-batch sets it up, a CVQ of 64 entries, each
 * scenario then bending that set-up; commands go through the library's
 * ring (lib/vring.h, lib/cvq_io.h).
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
 *   --extra-maps N  N more 4 KiB read-only maps, in one IOTLB batch after
 *                   the library's
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
 *   --move-rings    once the commands are answered and the device idle
 *                   (--idle-ms), copy the rings' two blocks to fresh
 *                   memory, map their IOVAs there instead (an unmap and a
 *                   map: two set_maps), fill the old blocks with 0xff (an
 *                   avail index the device would refuse), and send one
 *                   MAC_ADDR_SET 02:00:00:00:00:bb through the moved
 *                   rings; adds " moved_used=U needs_reset=0|1 mac=M": a
 *                   device still on the old pages resets, or answers
 *                   nothing
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
 *   --used-event-unmapped  negotiate VIRTIO_RING_F_EVENT_IDX too, and give
 *                   the device the avail ring through an alias map of the
 *                   driver area that ends with the avail entries, so that
 *                   used_event, the u16 after them, is the first byte past
 *                   the map: the device's read of it after publishing
 *                   fails. The wait ends only once the
 *                   used index reached N and NEEDS_RESET is set (with the
 *                   config interrupt, if one was given)
 *   --acks-cross K  the ack bytes one after another across the end of
 *                   the ack page: command i's is the (K - i)th byte from
 *                   its end, so the first K are in the page and the rest
 *                   past it, where nothing is mapped writable. acks=
 *                   reports the first K ("-" for the others); the wait
 *                   ends once the used index reached N and NEEDS_RESET is
 *                   set (with the config interrupt, if one was given).
 *                   Adds " mac=M": the config MAC then
 *   --sizes         only report VHOST_VDPA_GET_VRING_SIZE of the CVQ (whose
 *                   size is set to 64) before and after DRIVER_OK: prints
 *                   "vring_size before=B after=A" and exits
 *   --late-enable   the CVQ is disabled again before DRIVER_OK: the
 *                   commands are made available and kicked, then the
 *                   device suspended, the CVQ enabled and the device
 *                   resumed, with no kick after that; the wait for the
 *                   answer starts at resume
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
 *   --race-s S      for S seconds, with no IOTLB batch (so that every
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
 * Exit 2: a set-up step failed ("vsbdrv: " and the library's line on
 * stderr).
 */

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <linux/vhost.h>
#include <linux/virtio_config.h>
#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/compat.h"
#include "lib/cvq_cmd.h"
#include "lib/cvq_dev.h"
#include "lib/cvq_io.h"
#include "lib/diag.h"
#include "lib/util.h"

#define VSBDRV_NUM 64
/* Where --stall-ms and --failing-map map their IOTLB update. */
#define VSBDRV_STALL_IOVA 0x200000000ULL
/* Where --extra-maps go: far above the library's maps. */
#define VSBDRV_EXTRA_IOVA 0x100000000ULL
/* --used-event-unmapped: the driver area's alias, nothing mapped after it. */
#define VSBDRV_AVAIL_END_IOVA 0x300000000ULL
#define VSBDRV_ACK_UNSET 0xff
#define VSBDRV_SWITCH_MAC_LAST 0xaa
#define VSBDRV_MOVE_MAC_LAST 0xbb

struct opts {
	bool config_call;
	bool used_ro;
	bool bad_head;
	bool switch_asid;
	bool move_rings;
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
	unsigned int acks_cross;
	const char *path;
};

struct drv {
	struct cvq_dev cvq;
	size_t page;
	int config_fd;
	int uffd;
	uint64_t get_status_ms;
	uint64_t set_map_ms;
	uint64_t reset_ms;
	uint16_t reset_used;
	int size_before;
	unsigned int fail_nth_left;
};

/* The library's diagnostics, and this program's, one line each. */
static void print_diag(enum diag_level level, const char *line)
{
	fprintf(stderr, "vsbdrv: %s%s\n", level == DIAG_WARN ? "warning: " : "",
		line);
}

/* Exit 2: a set-up step failed, and the library said which and why. */
static void check(int err)
{
	if (err)
		exit(2);
}

static void __attribute__((noreturn)) die(const char *what)
{
	pr_errno(errno, "%s", what);
	exit(2);
}

static struct vhost_vdpa *vhost(struct drv *d)
{
	return &d->cvq.vhost;
}

static uint8_t get_status(struct drv *d)
{
	uint8_t status;

	check(vhost_vdpa_get_status(vhost(d), &status));
	return status;
}

static uint16_t used_idx(struct drv *d)
{
	return __atomic_load_n(&d->cvq.ring_used->idx, __ATOMIC_ACQUIRE);
}

/* The library's map holding @iova; every caller names a mapped one. */
static struct iotlb_map *map_at(struct drv *d, uint64_t iova)
{
	unsigned int i;

	for (i = 0; i < d->cvq.n_maps; i++)
		if (iova - d->cvq.maps[i].iova < d->cvq.maps[i].size)
			return &d->cvq.maps[i];
	errno = ENOENT;
	die("no map holds the address");
}

/* One page of the command buffer's, read-only, at @iova: a set_map. */
static void map_cmd_page(struct drv *d, uint64_t iova)
{
	const struct iotlb_map map = {
		.iova = iova,
		.size = d->page,
		.uaddr = (uintptr_t)d->cvq.cmd_buf,
		.perm = VHOST_ACCESS_RO,
	};

	check(vhost_vdpa_iotlb_map(vhost(d), 0, &map, 1));
}

/* --extra-maps: the command page under many IOVAs, little memory. */
static void map_extra(struct drv *d, unsigned long n)
{
	struct iotlb_map *maps = calloc(n, sizeof(*maps));
	unsigned long i;

	if (!maps)
		die("extra maps");
	for (i = 0; i < n; i++)
		maps[i] = (struct iotlb_map){
			.iova = VSBDRV_EXTRA_IOVA + i * d->page,
			.size = d->page,
			.uaddr = (uintptr_t)d->cvq.cmd_buf,
			.perm = VHOST_ACCESS_RO,
		};
	check(vhost_vdpa_iotlb_map(vhost(d), 0, maps, n));
	free(maps);
}

static void enable_cvq(struct drv *d, bool on)
{
	struct vhost_vring_state state = { .index = d->cvq.cvq_index,
					   .num = on };

	check(VHOST_IOCTL(vhost(d), VHOST_VDPA_SET_VRING_ENABLE, &state));
}

/* --used-ro: the device area (the used ring) mapped again, read-only. */
static void used_read_only(struct drv *d)
{
	struct iotlb_map *map = map_at(d, d->cvq.vring_addr.used_user_addr);

	check(vhost_vdpa_iotlb_unmap(vhost(d), 0, map, 1));
	map->perm = VHOST_ACCESS_RO;
	check(vhost_vdpa_iotlb_map(vhost(d), 0, map, 1));
}

/*
 * --used-event-unmapped: an alias of the driver area that ends with the
 * avail ring's entries, and the avail ring given at its place in it. A
 * queue takes its addresses when it is enabled, as the library's was:
 * off, new address, on again.
 */
static void avail_at_map_end(struct drv *d)
{
	struct vhost_vring_addr addr = d->cvq.vring_addr;
	const struct iotlb_map *driver = map_at(d, addr.avail_user_addr);
	uint64_t offset = addr.avail_user_addr - driver->iova;
	const struct iotlb_map alias = {
		.iova = VSBDRV_AVAIL_END_IOVA,
		.size = offset + sizeof(struct vring_avail) +
			VSBDRV_NUM * sizeof(__virtio16),
		.uaddr = driver->uaddr,
		.perm = VHOST_ACCESS_RO,
	};

	check(vhost_vdpa_iotlb_map(vhost(d), 0, &alias, 1));
	addr.avail_user_addr = VSBDRV_AVAIL_END_IOVA + offset;
	enable_cvq(d, false);
	check(VHOST_IOCTL(vhost(d), VHOST_SET_VRING_ADDR, &addr));
	enable_cvq(d, true);
}

/* --features: whether FEATURES_OK sticks on @features; exits. */
static void __attribute__((noreturn))
try_features(struct drv *d, const struct opts *o)
{
	uint64_t features = o->features, backend;
	uint8_t status;
	int err;

	check(vhost_vdpa_open(vhost(d), o->path, 0));
	check(VHOST_IOCTL(vhost(d), VHOST_SET_OWNER, NULL));
	check(VHOST_IOCTL(vhost(d), VHOST_GET_BACKEND_FEATURES, &backend));
	backend &= BIT_ULL(VHOST_BACKEND_F_IOTLB_MSG_V2);
	check(VHOST_IOCTL(vhost(d), VHOST_SET_BACKEND_FEATURES, &backend));
	check(vhost_vdpa_set_status(vhost(d), VIRTIO_CONFIG_S_ACKNOWLEDGE |
						      VIRTIO_CONFIG_S_DRIVER));
	/* A careless driver goes on whatever SET_FEATURES said. */
	err = VHOST_IOCTL_QUIET(vhost(d), VHOST_SET_FEATURES, &features);
	status = get_status(d) | VIRTIO_CONFIG_S_FEATURES_OK;
	check(vhost_vdpa_set_status(vhost(d), status));
	printf("set_features=%d features_ok=%d\n", err,
	       !!(get_status(d) & VIRTIO_CONFIG_S_FEATURES_OK));
	exit(0);
}

/* Where --persist-maps maps: a user address that is also a guest PA. */
#define VSBDRV_PERSIST_UADDR 0x10000000UL

/* --persist-maps: maps left behind for the next driver; exits. */
static void __attribute__((noreturn))
persist_maps(struct drv *d, const struct opts *o)
{
	struct iotlb_map map = { .size = (uint64_t)o->persist_mb << 20,
				 .perm = VHOST_ACCESS_RW };
	uint64_t backend;
	void *p;
	int memfd;

	check(vhost_vdpa_open(vhost(d), o->path, 0));
	check(VHOST_IOCTL(vhost(d), VHOST_SET_OWNER, NULL));
	check(VHOST_IOCTL(vhost(d), VHOST_GET_BACKEND_FEATURES, &backend));
	if (!(backend & BIT_ULL(VHOST_BACKEND_F_IOTLB_PERSIST))) {
		errno = EOPNOTSUPP;
		die("IOTLB_PERSIST");
	}
	backend &= BIT_ULL(VHOST_BACKEND_F_IOTLB_MSG_V2) |
		   BIT_ULL(VHOST_BACKEND_F_IOTLB_PERSIST);
	check(VHOST_IOCTL(vhost(d), VHOST_SET_BACKEND_FEATURES, &backend));
	/* Sparse: nothing is touched, so it costs no memory. */
	memfd = memfd_create("vsbdrv-persist", MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, map.size))
		die("memfd");
	p = mmap((void *)VSBDRV_PERSIST_UADDR, map.size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED_NOREPLACE, memfd, 0);
	if (p == MAP_FAILED)
		die("mmap at 0x10000000");
	map.uaddr = (uintptr_t)p;
	check(vhost_vdpa_iotlb_map(vhost(d), 0, &map, 1));
	/* Closed without the reset vhost_vdpa_close() would not do either. */
	close(vhost(d)->fd);
	printf("persisted\n");
	exit(0);
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
		.range = { .start = (uintptr_t)d->cvq.ack_buf, .len = d->page },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};

	d->uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (d->uffd < 0)
		die("userfaultfd");
	if (ioctl(d->uffd, UFFDIO_API, &api) ||
	    ioctl(d->uffd, UFFDIO_REGISTER, &reg))
		die("userfaultfd: registering the ack page");
}

/* The CVQ's size as the device reports it, -errno if it cannot. */
static int cvq_size(struct drv *d)
{
	struct vhost_vring_state state = { .index = d->cvq.cvq_index };

	if (VHOST_IOCTL_QUIET(vhost(d), VHOST_VDPA_GET_VRING_SIZE, &state))
		return -errno;
	return state.num;
}

static void setup(struct drv *d, const struct opts *o)
{
	const struct cvq_dev_layout layout = {
		.format = VQ_FORMAT_SPLIT,
		.ring_size = VSBDRV_NUM,
		.cmd_bytes = VSBDRV_NUM * sizeof(struct virtio_net_ctrl_hdr) +
			     VSBDRV_NUM * MAC_LEN,
		.ack_bytes = VSBDRV_NUM,
	};
	uint64_t wanted = BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR);

	d->page = (size_t)sysconf(_SC_PAGESIZE);
	d->config_fd = d->uffd = -1;
	if (o->persist_mb)
		persist_maps(d, o);
	if (o->features_given)
		try_features(d, o);
	if (o->used_event_unmapped)
		wanted |= BIT_ULL(VIRTIO_RING_F_EVENT_IDX);
	check(cvq_dev_negotiate(&d->cvq, o->path, wanted, o->switch_asid, 0));
	if (o->used_event_unmapped &&
	    !(d->cvq.driver_features & BIT_ULL(VIRTIO_RING_F_EVENT_IDX))) {
		errno = EOPNOTSUPP;
		die("VIRTIO_RING_F_EVENT_IDX not offered");
	}
	/* Each update its own set_map, under the owner's mmap_lock. */
	if (o->race_s)
		vhost(d)->iotlb_batch = false;
	check(cvq_dev_prepare(&d->cvq, &layout));
	if (o->stall_ms)
		register_stall(d);
	else
		memset(d->cvq.ack_buf, VSBDRV_ACK_UNSET, d->page);
	if (o->used_ro)
		used_read_only(d);
	if (o->used_event_unmapped)
		avail_at_map_end(d);
	if (o->extra_maps)
		map_extra(d, o->extra_maps);
	if (o->config_call) {
		d->config_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (d->config_fd < 0)
			die("eventfd");
		check(VHOST_IOCTL(vhost(d), VHOST_VDPA_SET_CONFIG_CALL,
				  &d->config_fd));
	}
	if (o->sizes)
		d->size_before = cvq_size(d);
	if (o->late_enable)
		enable_cvq(d, false);
	check(cvq_dev_driver_ok(&d->cvq));
	if (o->sizes) {
		printf("vring_size before=%d after=%d\n", d->size_before,
		       cvq_size(d));
		exit(0);
	}
}

/*
 * MAC_ADDR_SET 02:00:00:00:00:@mac_last, encoded at command @slot of
 * @page (the command buffer, or the page behind its IOVA in another
 * address space), with ack byte @ack: the next avail entry.
 */
static void put_cmd(struct drv *d, uint8_t *page, unsigned int slot,
		    unsigned int ack, uint8_t mac_last)
{
	const uint8_t mac[MAC_LEN] = { 0x02, 0, 0, 0, 0, mac_last };
	struct cvq_cmd cmd;
	size_t len;

	cvq_cmd_mac_addr_set(&cmd, mac);
	len = cvq_cmd_size(&cmd);
	cvq_cmd_encode(&cmd, page + slot * len, len);
	check(cvq_dev_add_cmd(&d->cvq, slot * len, len, ack));
}

/* Where command @i's ack byte is, from the start of the ack page. */
static size_t ack_offset(const struct drv *d, const struct opts *o,
			 unsigned int i)
{
	return o->acks_cross ? d->page - o->acks_cross + i : i;
}

/* Make what was added available, and kick. */
static void kick(struct drv *d)
{
	vq_publish(&d->cvq.ring);
	check(cvq_dev_kick(&d->cvq));
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
struct used_wait {
	struct drv *d;
	const struct opts *o;
	uint16_t want;
	struct answer *a;
};

static int used_progress(void *data, const struct cvq_wait_result *r)
{
	struct used_wait *u = data;
	struct answer *a = u->a;
	bool answered, reported;

	(void)r;
	a->used = used_idx(u->d);
	a->needs_reset = get_status(u->d) & VIRTIO_CONFIG_S_NEEDS_RESET;
	a->config_irq |= fired(u->d->config_fd);
	answered = a->used == u->want;
	reported = a->needs_reset && (a->config_irq || !u->o->config_call);
	if (u->o->used_event_unmapped || u->o->acks_cross ?
		    answered && reported :
		    answered || reported)
		return CVQ_PROGRESS_DONE;
	return CVQ_PROGRESS_NONE;
}

static void wait_used(struct drv *d, const struct opts *o, uint16_t want,
		      struct answer *a)
{
	/* The progress function reads the status itself, every time. */
	const struct cvq_wait w = { .how = CVQ_WAIT_NAP,
				    .timeout_ms = o->wait_ms };
	struct used_wait u = { .d = d, .o = o, .want = want, .a = a };
	struct cvq_wait_result r;
	uint64_t start = now_ms();

	*a = (struct answer){ 0 };
	cvq_dev_wait(&d->cvq, &w, used_progress, &u, &r);
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
		if (poll(&pfd, 1, 10000) != 1) {
			errno = ETIMEDOUT;
			die("no fault on the ack page within 10 s");
		}
		if (read(d->uffd, &msg, sizeof(msg)) == sizeof(msg) &&
		    msg.event == UFFD_EVENT_PAGEFAULT)
			return;
	}
}

/* An IOTLB batch of one map: set_map at its end. */
static void *timed_set_map(void *arg)
{
	struct drv *d = arg;
	uint64_t start = now_ms();

	map_cmd_page(d, VSBDRV_STALL_IOVA);
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
	uint64_t start;

	printf("resetting\n");
	fflush(stdout);
	start = now_ms();
	check(vhost_vdpa_set_status(vhost(d), 0));
	d->reset_ms = now_ms() - start;
	d->reset_used = used_idx(d);
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
	check(VHOST_IOCTL(vhost(d), VHOST_VDPA_SUSPEND, NULL));
	enable_cvq(d, true);
	check(VHOST_IOCTL(vhost(d), VHOST_VDPA_RESUME, NULL));
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
	const struct iotlb_map map = { .iova = VSBDRV_STALL_IOVA,
				       .size = r->d->page };

	while (!r->stop) {
		map_cmd_page(r->d, VSBDRV_STALL_IOVA);
		check(vhost_vdpa_iotlb_unmap(vhost(r->d), 0, &map, 1));
		r->updates++;
	}
	return NULL;
}

/* Faults for the device, and writers queued on the mmap_lock. */
static void *race_mm(void *arg)
{
	struct race *r = arg;
	size_t page = r->d->page;
	void *p;

	while (!r->stop) {
		if (madvise(r->d->cvq.cmd_buf, page, MADV_DONTNEED) ||
		    madvise(r->d->cvq.ack_buf, page, MADV_DONTNEED))
			die("madvise");
		p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0);
		if (p == MAP_FAILED || munmap(p, page))
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
	uint32_t token, len;
	unsigned long n;

	if (pthread_create(&iotlb_tid, NULL, race_iotlb, &r) ||
	    pthread_create(&mm_tid, NULL, race_mm, &r))
		die("pthread_create");
	for (n = 0; now_ms() < end; n++) {
		put_cmd(d, d->cvq.cmd_buf, 0, 0, (uint8_t)n);
		kick(d);
		deadline = now_ms() + 5000;
		while (used_idx(d) != (uint16_t)(n + 1)) {
			if (now_ms() > deadline) {
				printf("race stuck at command %lu\n", n);
				fflush(stdout);
				_exit(1);
			}
			sched_yield();
		}
		/* Its descriptors are free again. */
		if (vq_pop(&d->cvq.ring, &token, &len))
			die("the used entry");
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
	uint8_t mac[MAC_LEN];

	check(vhost_vdpa_get_config(vhost(d), 0, mac, sizeof(mac)));
	printf(" mac=%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2],
	       mac[3], mac[4], mac[5]);
}

/*
 * The same IOVAs in address space 1, but the command buffer's backed by
 * another page; the CVQ's group moves there, and one command goes at
 * command slot 0, where address space 0 still holds the first command.
 */
static void switch_asid(struct drv *d, const struct opts *o)
{
	struct vhost_vring_state group = { .index = d->cvq.cvq_index };
	struct iotlb_map maps[CVQ_DEV_MAPS];
	struct shm_region other;
	struct answer a;

	check(shm_region_create(&other, "vsbdrv-as1", d->page));
	memcpy(maps, d->cvq.maps, d->cvq.n_maps * sizeof(maps[0]));
	maps[map_at(d, d->cvq.cmd_iova) - d->cvq.maps].uaddr =
		(uintptr_t)other.base;
	check(vhost_vdpa_iotlb_map(vhost(d), 1, maps, d->cvq.n_maps));
	check(VHOST_IOCTL(vhost(d), VHOST_VDPA_GET_VRING_GROUP, &group));
	group.index = group.num;
	group.num = 1;
	check(VHOST_IOCTL(vhost(d), VHOST_VDPA_SET_GROUP_ASID, &group));
	put_cmd(d, other.base, 0, o->cmds, VSBDRV_SWITCH_MAC_LAST);
	kick(d);
	wait_used(d, o, o->cmds + 1, &a);
	printf(" switched_used=%u", a.used);
	print_config_mac(d);
}

/* @p, which lies in [from, from + len), moved to @to. */
static void *moved(void *p, const uint8_t *from, size_t len, uint8_t *to)
{
	size_t off = (size_t)((uint8_t *)p - from);

	return off < len ? to + off : p;
}

/* --move-rings: see the usage above. */
static void move_rings(struct drv *d, const struct opts *o)
{
	struct cvq_dev *c = &d->cvq;
	struct iotlb_map *blk[2] = {
		map_at(d, c->vring_addr.avail_user_addr),
		map_at(d, c->vring_addr.used_user_addr),
	};
	uint8_t *old[2], *to[2];
	struct shm_region fresh;
	struct answer a;
	unsigned int i;

	usleep(o->idle_ms * 1000);
	check(shm_region_create(&fresh, "vsbdrv-moved",
				blk[0]->size + blk[1]->size));
	to[0] = fresh.base;
	to[1] = fresh.base + blk[0]->size;
	for (i = 0; i < 2; i++) {
		old[i] = (uint8_t *)(uintptr_t)blk[i]->uaddr;
		memcpy(to[i], old[i], blk[i]->size);
		check(vhost_vdpa_iotlb_unmap(vhost(d), 0, blk[i], 1));
		blk[i]->uaddr = (uintptr_t)to[i];
		check(vhost_vdpa_iotlb_map(vhost(d), 0, blk[i], 1));
	}
	/* The driver's side follows: its ring now lives in the copy. */
	for (i = 0; i < 2; i++) {
		void **ptrs[] = {
			(void **)&c->ring.desc,	 (void **)&c->ring.avail,
			(void **)&c->ring.used,	 (void **)&c->ring_desc,
			(void **)&c->ring_avail, (void **)&c->ring_used,
			&c->ring_area_desc,	 &c->ring_area_driver,
			&c->ring_area_device,
		};
		unsigned int p;

		for (p = 0; p < sizeof(ptrs) / sizeof(ptrs[0]); p++)
			*ptrs[p] = moved(*ptrs[p], old[i], blk[i]->size, to[i]);
		memset(old[i], 0xff, blk[i]->size);
	}
	put_cmd(d, c->cmd_buf, o->cmds, o->cmds, VSBDRV_MOVE_MAC_LAST);
	kick(d);
	wait_used(d, o, o->cmds + 1, &a);
	printf(" moved_used=%u needs_reset=%d", a.used, a.needs_reset);
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
		else if (!strcmp(opt, "--move-rings"))
			o.move_rings = true;
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
		else if (a + 1 < argc && !strcmp(opt, "--acks-cross"))
			o.acks_cross = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--extra-maps"))
			o.extra_maps = strtoul(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(opt, "--features")) {
			o.features_given = true;
			o.features = strtoull(argv[++a], NULL, 16);
		} else
			break;
	}
	/* --switch-asid and --move-rings need one descriptor pair more. */
	if (a + 1 != argc || !o.cmds || o.cmds >= VSBDRV_NUM / 2 ||
	    (o.stall_reset && !o.stall_ms) || o.acks_cross > o.cmds) {
		fprintf(stderr,
			"Usage: vsbdrv [--config-call] [--used-ro] [--bad-head] [--switch-asid]\n"
			"  [--move-rings]\n"
			"  [--cmds N] [--idle-ms MS] [--wait-ms MS] [--extra-maps N]\n"
			"  [--features HEX] [--stall-ms MS [--stall-reset]] [--race-s S]\n"
			"  [--sizes] [--late-enable] [--failing-map N] [--persist-maps MB]\n"
			"  [--used-event-unmapped] [--acks-cross K] /dev/vhost-vdpa-N\n");
		return 2;
	}
	o.path = argv[a];
	diag_set_sink(print_diag);
	setup(&d, &o);
	if (o.race_s)
		race(&d, &o);
	if (o.failing_map)
		d.fail_nth_left = failing_map(&d, o.failing_map);
	usleep(o.idle_ms * 1000);
	for (i = 0; i < o.cmds; i++)
		put_cmd(&d, d.cvq.cmd_buf, i, ack_offset(&d, &o, i),
			(uint8_t)(i + 1));
	/* The first entry names no descriptor: the device must not serve it. */
	if (o.bad_head)
		d.cvq.ring_avail->ring[0] = htole16(VSBDRV_NUM);
	kick(&d);
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
	for (i = 0; i < o.cmds; i++) {
		if (o.acks_cross && i >= o.acks_cross)
			printf(",-");
		else
			printf("%s%u", i ? "," : "",
			       d.cvq.ack_buf[ack_offset(&d, &o, i)]);
	}
	printf(" ms=%llu", (unsigned long long)ans.ms);
	if (o.acks_cross)
		print_config_mac(&d);
	if (o.switch_asid && ans.used == o.cmds)
		switch_asid(&d, &o);
	if (o.move_rings && ans.used == o.cmds)
		move_rings(&d, &o);
	putchar('\n');
	return 0;
}
