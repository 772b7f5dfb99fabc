// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fake device: one thread per started cvq_dev, consuming the avail
 * ring and filling the used ring as a virtio-net device's control queue
 * does, with the misbehaviours of struct fake_config on request.
 */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "lib/compat.h"
#include "lib/cvq_cmd.h"
#include "lib/net_features.h"
#include "lib/util.h"
#include "lib/vhost_vdpa.h"
#include "tests/lib/fake_device.h"

#define FAKE_RING_MAX 256

struct fake_config fake_config;

/* One device at a time: the tests run their cases one after the other. */
struct fake_state {
	pthread_t thread;
	bool running;
	bool stop; /* __atomic */
	uint8_t status; /* __atomic; what VHOST_VDPA_GET_STATUS reads */
	struct cvq_dev *d;
	struct fake_config cfg;
	struct fake_stats stats;
	uint16_t last_avail, used_idx; /* split */
	/* split, cfg.reverse: the heads of one look, completed after it */
	uint16_t held[FAKE_RING_MAX];
	unsigned int n_held;
	/* packed: where the device reads and writes next, and their laps */
	uint16_t avail_pos, used_pos;
	bool avail_wrap, used_wrap;
	void *ring_mem;
	bool data_enabled; /* since the last stop */
};

static struct fake_state dev;

void fake_device_reset(void)
{
	fake_config = (struct fake_config){ .mode = FAKE_OK };
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Device addresses are the driver's pointers in this fake. */
static void *dev_ptr(uint64_t addr)
{
	return (void *)(uintptr_t)addr;
}

static void publish_used(uint16_t id, uint32_t len, uint16_t advance)
{
	struct vring_used *used = dev.d->ring_used;
	uint16_t num = (uint16_t)dev.d->ring_size;

	used->ring[dev.used_idx & (num - 1)].id = htole32(id);
	used->ring[dev.used_idx & (num - 1)].len = htole32(len);
	dev.used_idx += advance;
	/* The entry before the index, as a device must. */
	__atomic_store_n(&used->idx, htole16(dev.used_idx), __ATOMIC_RELEASE);
	if (dev.cfg.notify)
		eventfd_write(dev.d->call_fd, 1);
}

/* The used length of a completed command, as the mode says. */
static uint32_t used_len(void)
{
	return dev.cfg.mode == FAKE_BAD_LEN || dev.cfg.mode == FAKE_GIVE_BACK ?
		       0 :
		       1;
}

/*
 * Executes a command (counts it, writes its ack) as the configured mode
 * says; false if the chain is not to be completed.
 */
static bool answer(const uint8_t *hdr, uint8_t *ack_byte)
{
	if (hdr[0] < ARRAY_SIZE(dev.stats.by_class))
		dev.stats.by_class[hdr[0]]++;
	if (dev.cfg.delay_ms)
		sleep_ms(dev.cfg.delay_ms);
	if (dev.cfg.stall_after && dev.stats.served == dev.cfg.stall_after)
		return false;
	if (dev.cfg.nack_every && dev.stats.taken % dev.cfg.nack_every == 0) {
		*ack_byte = VIRTIO_NET_ERR;
		dev.stats.served++;
		return true;
	}
	switch (dev.cfg.mode) {
	case FAKE_SILENT:
		return false;
	case FAKE_NEEDS_RESET:
	case FAKE_GIVE_BACK:
		__atomic_or_fetch(&dev.status, VIRTIO_CONFIG_S_NEEDS_RESET,
				  __ATOMIC_SEQ_CST);
		return dev.cfg.mode == FAKE_GIVE_BACK;
	case FAKE_ERR:
		*ack_byte = VIRTIO_NET_ERR;
		break;
	default:
		*ack_byte = VIRTIO_NET_OK;
		break;
	}
	dev.stats.served++;
	return true;
}

/* Serves the chain at avail entry dev.last_avail. */
static void serve_one(void)
{
	struct cvq_dev *d = dev.d;
	uint16_t num = (uint16_t)d->ring_size;
	uint16_t head =
		le16toh(d->ring_avail->ring[dev.last_avail & (num - 1)]);
	const struct vring_desc *cmd = &d->ring_desc[head];
	const struct vring_desc *ack =
		&d->ring_desc[le16toh(cmd->next) & (num - 1)];
	const uint8_t *hdr = dev_ptr(le64toh(cmd->addr));
	uint8_t *ack_byte = dev_ptr(le64toh(ack->addr));

	dev.last_avail++;
	dev.stats.taken++;
	if (!answer(hdr, ack_byte))
		return;
	if (dev.cfg.reverse)
		dev.held[dev.n_held++] = head;
	else
		publish_used(head, used_len(),
			     dev.cfg.mode == FAKE_IDX_JUMP ? 2 : 1);
}

/* cfg.reverse: the commands of one look, last first. */
static void publish_held(void)
{
	while (dev.n_held)
		publish_used(dev.held[--dev.n_held], 1, 1);
}

#define F_AVAIL (1u << VRING_PACKED_DESC_F_AVAIL)
#define F_USED (1u << VRING_PACKED_DESC_F_USED)

static void packed_advance(uint16_t *pos, bool *wrap, unsigned int n)
{
	unsigned int num = dev.d->ring_size;

	*pos = (uint16_t)(*pos + n);
	if (*pos >= num) {
		*pos = (uint16_t)(*pos - num);
		*wrap = !*wrap;
	}
}

/* Is the slot the device reads next available, on the device's lap? */
static bool packed_avail(void)
{
	const struct vring_packed_desc *d =
		&((const struct vring_packed_desc *)
			  dev.d->ring_area_desc)[dev.avail_pos];
	/* Acquire: the chain is read after the head's flags. */
	uint16_t flags = le16toh(__atomic_load_n(&d->flags, __ATOMIC_ACQUIRE));

	return !!(flags & F_AVAIL) == dev.avail_wrap &&
	       !!(flags & F_USED) != dev.avail_wrap;
}

/* The packed chain at dev.avail_pos: [cmd R][ack W], as the CVQ adds. */
static void serve_one_packed(void)
{
	struct vring_packed_desc *ring = dev.d->ring_area_desc;
	const struct vring_packed_desc *cmd = &ring[dev.avail_pos];
	uint16_t ack_pos = dev.avail_pos, id;
	bool ack_wrap = dev.avail_wrap;
	const struct vring_packed_desc *ack;
	struct vring_packed_desc *used;
	uint16_t flags;

	packed_advance(&ack_pos, &ack_wrap, 1);
	ack = &ring[ack_pos];
	packed_advance(&dev.avail_pos, &dev.avail_wrap, 2);
	/* The buffer id is the last descriptor's. */
	id = le16toh(ack->id);
	dev.stats.taken++;
	if (!answer(dev_ptr(le64toh(cmd->addr)), dev_ptr(le64toh(ack->addr))))
		return;
	if (dev.cfg.mode == FAKE_IDX_JUMP)
		id = (uint16_t)dev.d->ring_size; /* no such buffer */
	used = &ring[dev.used_pos];
	used->id = htole16(id);
	used->len = htole32(used_len());
	flags = dev.used_wrap ? F_AVAIL | F_USED : 0;
	/* Release: id and len are visible before the flags hand it back. */
	__atomic_store_n(&used->flags, htole16(flags), __ATOMIC_RELEASE);
	packed_advance(&dev.used_pos, &dev.used_wrap, 2);
	if (dev.cfg.notify)
		eventfd_write(dev.d->call_fd, 1);
}

/* Serves what the driver made available; false if there was nothing. */
static bool serve_available(void)
{
	uint16_t avail;

	if (dev.d->ring_format == VQ_FORMAT_PACKED) {
		if (!packed_avail())
			return false;
		dev.stats.batches_seen++;
		while (packed_avail() &&
		       !__atomic_load_n(&dev.stop, __ATOMIC_ACQUIRE))
			serve_one_packed();
		return true;
	}
	/* Acquire: the ring entries are read after the index. */
	avail = le16toh(
		__atomic_load_n(&dev.d->ring_avail->idx, __ATOMIC_ACQUIRE));
	if (avail == dev.last_avail)
		return false;
	dev.stats.batches_seen++;
	while (dev.last_avail != avail &&
	       !__atomic_load_n(&dev.stop, __ATOMIC_ACQUIRE))
		serve_one();
	publish_held();
	return true;
}

static void *device_thread(void *arg)
{
	struct pollfd pfd = { .fd = dev.d->kick_fd, .events = POLLIN };
	eventfd_t kicks;

	(void)arg;
	while (!__atomic_load_n(&dev.stop, __ATOMIC_ACQUIRE)) {
		if (!serve_available() && poll(&pfd, 1, 1) > 0)
			eventfd_read(dev.d->kick_fd, &kicks);
	}
	return NULL;
}

static int start_thread(void)
{
	__atomic_store_n(&dev.stop, false, __ATOMIC_RELEASE);
	if (pthread_create(&dev.thread, NULL, device_thread, NULL))
		return -EAGAIN;
	dev.running = true;
	return 0;
}

static void stop_thread(void)
{
	if (!dev.running)
		return;
	__atomic_store_n(&dev.stop, true, __ATOMIC_RELEASE);
	pthread_join(dev.thread, NULL);
	dev.running = false;
}

static size_t align64(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

/* A fresh ring in @d's areas, and the device's side of it. */
static int init_ring(struct cvq_dev *d)
{
	struct vq_layout l;

	/* The device block (the device area is in it) starts zeroed. */
	vq_layout(d->ring_format, d->ring_size, &l);
	memset((uint8_t *)d->ring_area_device - l.device.offset, 0,
	       l.block_bytes[VQ_BLOCK_DEVICE]);
	dev.last_avail = dev.used_idx = 0;
	dev.n_held = 0;
	dev.avail_pos = dev.used_pos = 0;
	dev.avail_wrap = dev.used_wrap = true;
	return vq_init_format(&d->ring, d->ring_format, d->ring_size,
			      d->ring_area_desc, d->ring_area_driver,
			      d->ring_area_device);
}

/* Where area @a is, the blocks starting at @base. */
static void *area_at(uint8_t *const base[2], const struct vq_area *a)
{
	return base[a->block] + a->offset;
}

int fake_device_attach(struct cvq_dev *d, const struct cvq_dev_layout *l)
{
	unsigned int num = l->ring_size ? l->ring_size : CVQ_DEFAULT_RING_SIZE;
	size_t cmd = align64(l->cmd_bytes ? l->cmd_bytes : 1);
	size_t ack = align64(l->ack_bytes ? l->ack_bytes : 1);
	size_t driver, device;
	struct vq_layout ring;
	uint8_t *mem, *block[2];
	int err;

	if (num > FAKE_RING_MAX ||
	    (l->format == VQ_FORMAT_SPLIT && !is_power_of_2(num)))
		return -EINVAL;
	vq_layout(l->format, num, &ring);
	driver = align64(ring.block_bytes[VQ_BLOCK_DRIVER]);
	device = align64(ring.block_bytes[VQ_BLOCK_DEVICE]);
	mem = aligned_alloc(64, driver + device + cmd + ack);
	if (!mem)
		return -ENOMEM;
	memset(mem, 0, driver + device + cmd + ack);
	dev = (struct fake_state){ .d = d,
				   .cfg = fake_config,
				   .ring_mem = mem };
	dev.status = VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER |
		     VIRTIO_CONFIG_S_FEATURES_OK | VIRTIO_CONFIG_S_DRIVER_OK;
	d->ring_size = num;
	d->ring_format = l->format;
	block[VQ_BLOCK_DRIVER] = mem;
	block[VQ_BLOCK_DEVICE] = mem + driver;
	d->ring_area_desc = area_at(block, &ring.desc);
	d->ring_area_driver = area_at(block, &ring.driver);
	d->ring_area_device = area_at(block, &ring.device);
	if (l->format == VQ_FORMAT_SPLIT) {
		d->ring_desc = d->ring_area_desc;
		d->ring_avail = d->ring_area_driver;
		d->ring_used = d->ring_area_device;
	}
	d->cmd_buf = mem + driver + device;
	d->cmd_iova = (uint64_t)(uintptr_t)d->cmd_buf;
	d->ack_buf = d->cmd_buf + cmd;
	d->ack_iova = (uint64_t)(uintptr_t)d->ack_buf;
	d->kick_fd = eventfd(0, EFD_NONBLOCK);
	d->call_fd = eventfd(0, EFD_NONBLOCK);
	err = init_ring(d);
	if (err || d->kick_fd < 0 || d->call_fd < 0)
		return err ? err : -EMFILE;
	d->ring_ready = true;
	return start_thread();
}

void fake_device_detach(struct cvq_dev *d)
{
	stop_thread();
	if (d->ring_ready)
		vq_fini(&d->ring);
	d->ring_ready = false;
	if (d->kick_fd >= 0)
		close(d->kick_fd);
	if (d->call_fd >= 0)
		close(d->call_fd);
	d->kick_fd = d->call_fd = -1;
	free(dev.ring_mem);
	dev.ring_mem = NULL;
}

int fake_device_teardown(void **state)
{
	(void)state;
	if (dev.running)
		fake_device_detach(dev.d);
	return 0;
}

struct fake_stats fake_device_stats(void)
{
	return dev.stats;
}

/* The status read of lib/cvq_io.c's wait, served by the fake. */
int vhost_vdpa_ioctl_quiet(struct vhost_vdpa *v, unsigned long req, void *arg,
			   const char *name)
{
	(void)v;
	(void)name;
	if (req != VHOST_VDPA_GET_STATUS)
		return -ENOTTY;
	*(uint8_t *)arg = __atomic_load_n(&dev.status, __ATOMIC_ACQUIRE);
	return 0;
}

/* The config space, as fake_config has it. */
int vhost_vdpa_get_config(struct vhost_vdpa *v, uint32_t offset, void *buf,
			  uint32_t len)
{
	(void)v;
	if (!len || offset + len > sizeof(fake_config.net_config))
		return -EINVAL;
	memcpy(buf, (const uint8_t *)&fake_config.net_config + offset, len);
	return 0;
}

bool cvq_dev_needs_reset(struct cvq_dev *d)
{
	(void)d;
	return __atomic_load_n(&dev.status, __ATOMIC_ACQUIRE) &
	       VIRTIO_CONFIG_S_NEEDS_RESET;
}

/* lib/cvq_dev.c's set-up, as a device offering what a load may use. */
int cvq_dev_negotiate(struct cvq_dev *d, const char *chardev, uint64_t wanted,
		      bool want_asid, int verbose)
{
	const uint64_t offered = BIT_ULL(VIRTIO_F_VERSION_1) |
				 BIT_ULL(VIRTIO_F_ACCESS_PLATFORM) |
				 BIT_ULL(VIRTIO_NET_F_CTRL_VQ) |
				 BIT_ULL(VIRTIO_NET_F_CTRL_RX) |
				 BIT_ULL(VIRTIO_NET_F_CTRL_VLAN) |
				 BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR) |
				 BIT_ULL(VIRTIO_F_RING_PACKED);

	(void)verbose;
	*d = (struct cvq_dev){ .kick_fd = -1, .call_fd = -1 };
	d->vhost.fd = -1;
	snprintf(d->vhost.path, sizeof(d->vhost.path), "%s", chardev);
	if (fake_config.negotiate_err)
		return fake_config.negotiate_err;
	if (want_asid)
		return -EOPNOTSUPP;
	d->device_features = offered | fake_config.extra_features;
	d->driver_features = net_features_drop_unmet(
		d->device_features & (wanted | BIT_ULL(VIRTIO_F_VERSION_1) |
				      BIT_ULL(VIRTIO_F_ACCESS_PLATFORM) |
				      BIT_ULL(VIRTIO_NET_F_CTRL_VQ)));
	d->max_vqp = 1;
	if ((d->driver_features & BIT_ULL(VIRTIO_NET_F_MQ)) &&
	    fake_config.net_config.max_virtqueue_pairs)
		d->max_vqp =
			le16toh(fake_config.net_config.max_virtqueue_pairs);
	d->cvq_index = net_cvq_index(d->driver_features, d->max_vqp);
	d->ring_max = FAKE_RING_MAX;
	return 0;
}

int cvq_dev_start(struct cvq_dev *d, const struct cvq_dev_layout *layout)
{
	return fake_device_attach(d, layout);
}

void cvq_dev_close(struct cvq_dev *d)
{
	fake_device_detach(d);
}

/* A reset: the device stops serving and forgets its ring. */
int cvq_dev_stop(struct cvq_dev *d)
{
	(void)d;
	stop_thread();
	__atomic_store_n(&dev.status, 0, __ATOMIC_RELEASE);
	dev.data_enabled = false;
	dev.stats.stops++;
	return 0;
}

/* lib/cvq_dev.c's cold start, checking the order the load depends on. */
int cvq_dev_cold_start(struct cvq_dev *d, cvq_dev_load_fn load, void *arg)
{
	uint8_t status = __atomic_load_n(&dev.status, __ATOMIC_ACQUIRE);
	int err;

	dev.stats.cold_starts++;
	if (dev.cfg.cold_start_err)
		return dev.cfg.cold_start_err;
	if (dev.running || status)
		return -EBUSY; /* not stopped first */
	vq_fini(&d->ring);
	err = init_ring(d);
	if (err)
		return err;
	__atomic_store_n(&dev.status,
			 VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER |
				 VIRTIO_CONFIG_S_FEATURES_OK |
				 VIRTIO_CONFIG_S_DRIVER_OK,
			 __ATOMIC_RELEASE);
	err = start_thread();
	if (err)
		return err;
	err = load(arg);
	if (!dev.data_enabled)
		dev.stats.loads_in_order++;
	if (err)
		return err;
	dev.data_enabled = true;
	dev.stats.data_enables++;
	return 0;
}
