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
	uint16_t last_avail, used_idx;
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
	if (hdr[0] < ARRAY_SIZE(dev.stats.by_class))
		dev.stats.by_class[hdr[0]]++;
	if (dev.cfg.delay_ms)
		sleep_ms(dev.cfg.delay_ms);
	switch (dev.cfg.mode) {
	case FAKE_SILENT:
		return;
	case FAKE_NEEDS_RESET:
		__atomic_or_fetch(&dev.status, VIRTIO_CONFIG_S_NEEDS_RESET,
				  __ATOMIC_SEQ_CST);
		return;
	case FAKE_ERR:
		*ack_byte = VIRTIO_NET_ERR;
		break;
	default:
		*ack_byte = VIRTIO_NET_OK;
		break;
	}
	dev.stats.served++;
	publish_used(head, dev.cfg.mode == FAKE_BAD_LEN ? 0 : 1,
		     dev.cfg.mode == FAKE_IDX_JUMP ? 2 : 1);
}

static void *device_thread(void *arg)
{
	struct pollfd pfd = { .fd = dev.d->kick_fd, .events = POLLIN };
	eventfd_t kicks;
	uint16_t avail;

	(void)arg;
	while (!__atomic_load_n(&dev.stop, __ATOMIC_ACQUIRE)) {
		/* Acquire: the ring entries are read after the index. */
		avail = le16toh(__atomic_load_n(&dev.d->ring_avail->idx,
						__ATOMIC_ACQUIRE));
		if (avail == dev.last_avail) {
			if (poll(&pfd, 1, 1) > 0)
				eventfd_read(dev.d->kick_fd, &kicks);
			continue;
		}
		dev.stats.batches_seen++;
		while (dev.last_avail != avail &&
		       !__atomic_load_n(&dev.stop, __ATOMIC_ACQUIRE))
			serve_one();
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

int fake_device_attach(struct cvq_dev *d, const struct cvq_dev_layout *l)
{
	unsigned int num = l->ring_size ? l->ring_size : CVQ_DEFAULT_RING_SIZE;
	size_t desc = align64(vq_desc_bytes(num));
	size_t avail = align64(vq_avail_bytes(num));
	size_t used = align64(vq_used_bytes(num));
	size_t cmd = align64(l->cmd_bytes ? l->cmd_bytes : 1);
	size_t ack = align64(l->ack_bytes ? l->ack_bytes : 1);
	uint8_t *mem;
	int err;

	if (num > FAKE_RING_MAX || !is_power_of_2(num))
		return -EINVAL;
	mem = aligned_alloc(64, desc + avail + used + cmd + ack);
	if (!mem)
		return -ENOMEM;
	memset(mem, 0, desc + avail + used + cmd + ack);
	dev = (struct fake_state){ .d = d,
				   .cfg = fake_config,
				   .ring_mem = mem };
	dev.status = VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER |
		     VIRTIO_CONFIG_S_FEATURES_OK | VIRTIO_CONFIG_S_DRIVER_OK;
	d->ring_size = num;
	d->ring_desc = (struct vring_desc *)mem;
	d->ring_avail = (struct vring_avail *)(mem + desc);
	d->ring_used = (struct vring_used *)(mem + desc + avail);
	d->cmd_buf = mem + desc + avail + used;
	d->cmd_iova = (uint64_t)(uintptr_t)d->cmd_buf;
	d->ack_buf = d->cmd_buf + cmd;
	d->ack_iova = (uint64_t)(uintptr_t)d->ack_buf;
	d->kick_fd = eventfd(0, EFD_NONBLOCK);
	d->call_fd = eventfd(0, EFD_NONBLOCK);
	err = vq_init(&d->ring, num, d->ring_desc, d->ring_avail, d->ring_used);
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

/* lib/cvq_dev.c's set-up, as a device offering what a load may use. */
int cvq_dev_negotiate(struct cvq_dev *d, const char *chardev, uint64_t wanted,
		      bool want_asid, int verbose)
{
	const uint64_t offered = BIT_ULL(VIRTIO_F_VERSION_1) |
				 BIT_ULL(VIRTIO_F_ACCESS_PLATFORM) |
				 BIT_ULL(VIRTIO_NET_F_CTRL_VQ) |
				 BIT_ULL(VIRTIO_NET_F_CTRL_RX) |
				 BIT_ULL(VIRTIO_NET_F_CTRL_VLAN) |
				 BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR);

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
	memset(d->ring_used, 0, vq_used_bytes(d->ring_size));
	err = vq_init(&d->ring, d->ring_size, d->ring_desc, d->ring_avail,
		      d->ring_used);
	if (err)
		return err;
	dev.last_avail = dev.used_idx = 0;
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
