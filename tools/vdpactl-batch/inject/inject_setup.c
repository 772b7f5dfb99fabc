// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fault-injection cases of the set-up: a bad queue size, features
 * without a required bit, config-space accesses out of range. Each bad
 * ioctl's result is a probe of the observation.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "inject/inject_run.h"
#include "lib/cvq_cmd.h"
#include "lib/cvq_io.h"
#include "lib/diag.h"
#include "lib/util.h"
#include "netlink/vdpa_client.h"

/* Further than any virtio config space reaches. */
#define CONFIG_SIZE_MAX 4096

static unsigned int bad_ring_size(enum inject_param p, unsigned int max)
{
	switch (p) {
	case PARAM_NUM_ZERO:
		return 0;
	case PARAM_NUM_NPOT:
		return 24;
	default:
		return 2 * max;
	}
}

int inject_run_vring_num(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	struct vhost_vring_state state;
	uint8_t status;
	int err;

	err = inject_open_ring(s, false);
	if (err || o->skipped)
		return err;
	state = (struct vhost_vring_state){ .index = s->dev.cvq_index };
	/* The queue was enabled with a good size: disable, resize, enable. */
	err = VHOST_IOCTL(&s->dev.vhost, VHOST_VDPA_SET_VRING_ENABLE, &state);
	if (err)
		return err;
	state.num = bad_ring_size(s->c->param, s->dev.ring_max);
	err = VHOST_IOCTL_QUIET(&s->dev.vhost, VHOST_SET_VRING_NUM, &state);
	inject_obs_probe(o, err, "VHOST_SET_VRING_NUM %u", state.num);
	if (err)
		return 0;
	state.num = 1;
	err = VHOST_IOCTL_QUIET(&s->dev.vhost, VHOST_VDPA_SET_VRING_ENABLE,
				&state);
	inject_obs_probe(o, err, "VHOST_VDPA_SET_VRING_ENABLE 1");
	if (err)
		return 0;
	err = vhost_vdpa_set_status(&s->dev.vhost,
				    VIRTIO_CONFIG_S_ACKNOWLEDGE |
					    VIRTIO_CONFIG_S_DRIVER |
					    VIRTIO_CONFIG_S_FEATURES_OK |
					    VIRTIO_CONFIG_S_DRIVER_OK);
	if (!err)
		err = inject_status(s, &status);
	if (err)
		return err;
	if (!(status & VIRTIO_CONFIG_S_DRIVER_OK))
		inject_obs_probe(o, -EIO, "DRIVER_OK (status 0x%02x)", status);
	err = inject_add_command(s);
	if (err)
		return err;
	inject_publish(s);
	err = cvq_dev_kick(&s->dev);
	if (!err) {
		inject_wait_used(s, 1, true);
		inject_observe(s);
	}
	return err;
}

int inject_run_features(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	uint64_t features;
	uint8_t status;
	int err;

	err = inject_open(s, 0, 0, 0, false);
	if (err || o->skipped)
		return err;
	/* Negotiated properly; now from a reset, without the bit. */
	features = s->dev.driver_features & ~BIT_ULL(s->c->feature_dropped);
	err = vhost_vdpa_set_status(&s->dev.vhost, 0);
	if (!err)
		err = vhost_vdpa_set_status(&s->dev.vhost,
					    VIRTIO_CONFIG_S_ACKNOWLEDGE |
						    VIRTIO_CONFIG_S_DRIVER);
	if (err)
		return err;
	err = VHOST_IOCTL_QUIET(&s->dev.vhost, VHOST_SET_FEATURES, &features);
	inject_obs_probe(o, err, "VHOST_SET_FEATURES 0x%" PRIx64, features);
	if (err)
		return 0;
	err = vhost_vdpa_set_status(&s->dev.vhost,
				    VIRTIO_CONFIG_S_ACKNOWLEDGE |
					    VIRTIO_CONFIG_S_DRIVER |
					    VIRTIO_CONFIG_S_FEATURES_OK);
	if (!err)
		err = inject_status(s, &status);
	if (err)
		return err;
	o->status_valid = true;
	o->status = status;
	inject_obs_probe(o, status & VIRTIO_CONFIG_S_FEATURES_OK ? 0 : -EIO,
			 "FEATURES_OK (status 0x%02x)", status);
	return 0;
}

/* GET_CONFIG or SET_CONFIG of [off, off + len) with a 16-byte buffer. */
static int config_ioctl(struct inject_session *s, bool set, uint32_t off,
			uint32_t len)
{
	struct {
		struct vhost_vdpa_config hdr;
		uint8_t buf[16];
	} cfg = { .hdr = { .off = off, .len = len } };

	return set ? VHOST_IOCTL_QUIET(&s->dev.vhost, VHOST_VDPA_SET_CONFIG,
				       &cfg) :
		     VHOST_IOCTL_QUIET(&s->dev.vhost, VHOST_VDPA_GET_CONFIG,
				       &cfg);
}

/* The config size: the first offset a 1-byte read fails at; 0 if none. */
static unsigned int config_size(struct inject_session *s)
{
	unsigned int size;

	for (size = 0; size < CONFIG_SIZE_MAX; size++)
		if (config_ioctl(s, false, size, 1))
			break;
	return size == CONFIG_SIZE_MAX ? 0 : size;
}

int inject_run_config(struct inject_session *s)
{
	static const struct {
		const char *what;
		int64_t off_from_size; /* < 0: absolute off */
		uint32_t off, len;
	} probes[] = {
		{ "off = size, len 1", 0, 0, 1 },
		{ "off = size - 1, len 2", -1, 0, 2 },
		{ "off 0, len 0", INT64_MIN, 0, 0 },
		{ "off = 2^32 - 1, len 1", INT64_MIN, UINT32_MAX, 1 },
		{ "off 0, len = 2^32 - 1", INT64_MIN, 0, UINT32_MAX },
	};
	bool set = s->c->param == PARAM_CONFIG_SET;
	unsigned int size, i;
	int err;

	err = inject_open(s, 0, 0, 0, false);
	if (err || s->obs->skipped)
		return err;
	size = config_size(s);
	if (!size)
		return pr_errno(EIO, "%s: config space size not found",
				s->o->devname);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		uint32_t off =
			probes[i].off_from_size == INT64_MIN ?
				probes[i].off :
				(uint32_t)(size + probes[i].off_from_size);

		inject_obs_probe(s->obs,
				 config_ioctl(s, set, off, probes[i].len),
				 "%s %s", set ? "SET" : "GET", probes[i].what);
	}
	return 0;
}

/* A notification area mapped as a driver would: one page, write-only. */
static int map_notification(struct inject_session *s, unsigned long pgoff)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)page, PROT_WRITE, MAP_SHARED,
		       s->dev.vhost.fd, (off_t)pgoff * page);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, (size_t)page);
	return 0;
}

int inject_run_mmap(struct inject_session *s)
{
	uint32_t nvqs;
	int err;

	err = inject_open_ring(s, true);
	if (err || s->obs->skipped)
		return err;
	err = VHOST_IOCTL(&s->dev.vhost, VHOST_VDPA_GET_VQS_COUNT, &nvqs);
	if (err)
		return err;
	/* vhost-vdpa itself refuses only page offsets above 65535. */
	inject_obs_probe(s->obs, map_notification(s, nvqs),
			 "mmap pgoff %u (= nvqs)", nvqs);
	inject_obs_probe(s->obs, map_notification(s, 65535),
			 "mmap pgoff 65535");
	return 0;
}

static int config_seen(const struct vdpa_dev_config *config, void *data)
{
	(void)config;
	(void)data;
	return 0;
}

/* Reads of the config space on a fresh fd, as "vdpa dev config show" does. */
static void probe_unnegotiated(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	struct vdpa_client nl;
	uint8_t mac[MAC_LEN];
	unsigned int size;
	int err;

	err = vdpa_client_open(&nl);
	if (!err) {
		err = vdpa_client_config_get(&nl, s->o->devname, config_seen,
					     NULL);
		vdpa_client_close(&nl);
	}
	inject_obs_probe(o, err, "netlink config get");
	size = config_size(s);
	inject_obs_probe(o, size ? 0 : -EIO, "GET_CONFIG of each of %u bytes",
			 size);
	inject_obs_probe(o,
			 vhost_vdpa_get_config(&s->dev.vhost, 0, mac, MAC_LEN),
			 "GET_CONFIG of the MAC");
}

int inject_run_config_early(struct inject_session *s)
{
	int err;

	err = vhost_vdpa_open(&s->dev.vhost, s->o->chardev, s->o->verbose);
	if (err)
		return err;
	probe_unnegotiated(s);
	vhost_vdpa_close(&s->dev.vhost);
	/* Then a driver negotiates and must be served. */
	err = inject_open_ring(s, true);
	inject_obs_probe(s->obs, err, "negotiation and DRIVER_OK afterwards");
	if (err || s->obs->skipped)
		return 0;
	err = inject_add_command(s);
	return err ? err : inject_send(s);
}
