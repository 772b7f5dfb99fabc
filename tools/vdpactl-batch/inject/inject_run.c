// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fault-injection runs. Ring cases use a CVQ of INJECT_RING_NUM entries
 * (small enough for a chain of num descriptors to carry one command)
 * and write their chains with inject_ring.c; the device is watched by
 * polling the used index and VHOST_VDPA_GET_STATUS, never trusting it to
 * answer. Afterwards the device is reset and must serve a normal load.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "inject/inject_run.h"
#include "lib/cvq_cmd.h"
#include "lib/cvq_io.h"
#include "lib/diag.h"
#include "lib/net_features.h"
#include "lib/util.h"
#include "load/load.h"

/* Commands of the load that proves the device works afterwards. */
#define INJECT_RECOVERY_COUNT 30

/* The MACs the cases set: locally administered unicast. */
static const uint8_t mac_first[MAC_LEN] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 1 };
static const uint8_t mac_case[MAC_LEN] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 2 };

void inject_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int inject_status(struct inject_session *s, uint8_t *status)
{
	return VHOST_IOCTL_QUIET(&s->dev.vhost, VHOST_VDPA_GET_STATUS, status);
}

uint16_t inject_used_idx(const struct inject_session *s)
{
	/* Acquire: used entries are read after the index covering them. */
	return le16toh(
		__atomic_load_n(&s->dev.ring_used->idx, __ATOMIC_ACQUIRE));
}

static void skip(struct inject_session *s, const char *fmt, const char *what)
{
	s->obs->skipped = true;
	snprintf(s->obs->skip_reason, sizeof(s->obs->skip_reason), fmt, what);
}

/* Not run where the device lacks what the case needs: obs->skipped. */
static void check_applicable(struct inject_session *s)
{
	const uint64_t suspend = BIT_ULL(VHOST_BACKEND_F_SUSPEND) |
				 BIT_ULL(VHOST_BACKEND_F_RESUME);
	uint64_t missing = s->c->need & ~s->dev.driver_features;
	unsigned int bit;

	if (s->ring_format == VQ_FORMAT_PACKED &&
	    !(s->dev.driver_features & BIT_ULL(VIRTIO_F_RING_PACKED)))
		return skip(
			s, "%s",
			"the device does not offer RING_PACKED, which a packed ring needs");

	for (bit = 0; missing && bit < 64; bit++)
		if (missing & BIT_ULL(bit))
			return skip(s, "the device does not offer %s",
				    net_feature_name(bit));
	if (s->c->needs_suspend &&
	    (s->dev.backend_offered & suspend) != suspend)
		skip(s, "%s", "the backend offers no SUSPEND and RESUME");
}

int inject_open(struct inject_session *s, unsigned int ring_size,
		size_t cmd_bytes, size_t ack_bytes, bool driver_ok)
{
	const struct cvq_dev_layout layout = {
		.format = s->ring_format,
		.ring_size = ring_size,
		.cmd_bytes = cmd_bytes,
		.ack_bytes = ack_bytes,
	};
	int err;

	err = cvq_dev_negotiate(&s->dev, s->o->chardev,
				s->c->want | vq_format_features(s->ring_format),
				false, s->o->verbose);
	if (err)
		return err;
	s->dev_open = true;
	check_applicable(s);
	if (s->obs->skipped)
		return 0;
	return driver_ok ? cvq_dev_start(&s->dev, &layout) :
			   cvq_dev_prepare(&s->dev, &layout);
}

int inject_open_ring(struct inject_session *s, bool driver_ok)
{
	return inject_open(s, INJECT_RING_NUM, INJECT_CMD_BYTES,
			   INJECT_ACK_BYTES, driver_ok);
}

void inject_close(struct inject_session *s)
{
	if (s->dev_open)
		cvq_dev_close(&s->dev);
	s->dev_open = false;
	/* After the close: the device no longer has the pages mapped. */
	if (s->fragmented_mem)
		munmap(s->fragmented_mem, s->fragmented_len);
	s->fragmented_mem = NULL;
}

int inject_read_mac(struct inject_session *s, uint8_t mac[MAC_LEN])
{
	return vhost_vdpa_get_config(&s->dev.vhost,
				     offsetof(struct virtio_net_config, mac),
				     mac, MAC_LEN);
}

static void ring_begin(struct inject_session *s)
{
	struct cvq_dev *d = &s->dev;

	s->ring = (struct inject_ring){
		.desc = d->ring_desc,
		.avail = d->ring_avail,
		.num = (uint16_t)d->ring_size,
		.avail_idx = s->used_base,
		.areas = {
			.ro = d->cmd_buf,
			.ro_iova = d->cmd_iova,
			.ro_size = INJECT_CMD_BYTES,
			.ack = d->ack_buf,
			.ack_iova = d->ack_iova,
			.ack_size = INJECT_ACK_BYTES,
		},
		/* Past the last map, page-aligned: nothing is there. */
		.unmapped_iova = d->iova_end + (1u << 20),
		.fragmented_iova = s->fragmented_iova,
	};
}

uint32_t inject_payload_bytes(enum inject_payload payload, uint16_t max_vqp,
			      uint8_t *buf)
{
	struct cvq_cmd cmd;

	switch (payload) {
	case PAYLOAD_MQ_ZERO:
		cvq_cmd_mq_pairs(&cmd, 0);
		break;
	case PAYLOAD_MQ_OVER_MAX:
		cvq_cmd_mq_pairs(&cmd, (uint16_t)(max_vqp + 1));
		break;
	case PAYLOAD_MQ_ONE:
		cvq_cmd_mq_pairs(&cmd, 1);
		break;
	default:
		cvq_cmd_mac_addr_set(&cmd, mac_case);
		break;
	}
	cvq_cmd_encode(&cmd, buf, CVQ_DATA_MAX + 2);
	switch (payload) {
	case PAYLOAD_MAC_SHORT:
		return 2 + MAC_LEN - 1;
	case PAYLOAD_MAC_LONG:
		buf[2 + MAC_LEN] = 0x42;
		return 2 + MAC_LEN + 1;
	case PAYLOAD_UNKNOWN_CLASS:
		buf[0] = 0x7f;
		buf[1] = 0;
		return 2;
	case PAYLOAD_UNKNOWN_CMD:
		buf[1] = 0x7f;
		break;
	default:
		break;
	}
	return (uint32_t)cvq_cmd_size(&cmd);
}

static int build(struct inject_session *s, enum inject_shape shape,
		 const uint8_t *cmd, uint32_t len)
{
	struct inject_chain *out = &s->chains[s->obs->n_chains];
	int err = inject_ring_build(&s->ring, shape, cmd, len, out);

	if (err)
		return pr_errno(err, "%s: build a \"%s\" chain", s->o->devname,
				inject_shape_name(shape));
	s->obs->chain[s->obs->n_chains].has_ack = out->ack != NULL;
	s->obs->n_chains++;
	return 0;
}

void inject_publish(struct inject_session *s)
{
	uint16_t idx = s->chains[s->obs->n_chains - 1].publish_idx;

	/* Descriptors and ring entries must be visible before the index. */
	__atomic_store_n(&s->ring.avail->idx, htole16(idx), __ATOMIC_RELEASE);
}

struct used_wait {
	struct inject_session *s;
	uint16_t want;
	bool want_reset;
};

static bool chains_back(const struct used_wait *u)
{
	return (uint16_t)(inject_used_idx(u->s) - u->s->used_base) >= u->want;
}

static int used_progress(void *data, const struct cvq_wait_result *r)
{
	const struct used_wait *u = data;

	return chains_back(u) && (r->needs_reset || !u->want_reset) ?
		       CVQ_PROGRESS_DONE :
		       CVQ_PROGRESS_NONE;
}

/*
 * Waits until @want chains came back (and NEEDS_RESET if @want_reset),
 * NEEDS_RESET has been up for the grace time, or the timeout. The chains
 * are the case's own, not vq_pop()'s, so only the used index is watched;
 * inject_observe() judges the entries. Returns whether every chain came
 * back.
 */
bool inject_wait_used(struct inject_session *s, uint16_t want, bool want_reset)
{
	const struct cvq_wait w = {
		.how = CVQ_WAIT_NAP,
		.timeout_ms = s->o->timeout_ms,
		.status_poll_ms = 1,
		.reset_grace_ms = INJECT_GRACE_MS,
	};
	struct used_wait u = { .s = s, .want = want, .want_reset = want_reset };
	struct cvq_wait_result r;

	cvq_dev_wait(&s->dev, &w, used_progress, &u, &r);
	s->obs->timed_out |= r.timed_out;
	s->obs->elapsed_ms = r.elapsed_ms;
	return chains_back(&u);
}

/* Reads back the used ring, the acks and the status. */
void inject_observe(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	uint16_t used, i;
	unsigned int k;

	/* Late used entries or status changes show up here too. */
	inject_sleep_ms(10);
	used = (uint16_t)(inject_used_idx(s) - s->used_base);
	for (i = 0; i < used && i < s->ring.num; i++) {
		const struct vring_used_elem *e =
			&s->dev.ring_used->ring[(uint16_t)(s->used_base + i) &
						(s->ring.num - 1)];
		uint32_t id = le32toh(e->id);
		bool ours = false;

		for (k = 0; k < o->n_chains; k++) {
			if (s->chains[k].head != id || o->chain[k].completed)
				continue;
			o->chain[k].completed = true;
			o->chain[k].used_len = le32toh(e->len);
			ours = true;
			break;
		}
		o->bad_used |= !ours;
	}
	for (k = 0; k < o->n_chains; k++)
		o->chain[k].ack = s->chains[k].ack ? *s->chains[k].ack :
						     CVQ_ACK_UNSET;
	o->status_valid = !inject_status(s, &o->status);
	o->needs_reset = o->status_valid &&
			 (o->status & VIRTIO_CONFIG_S_NEEDS_RESET);
}

int inject_send(struct inject_session *s)
{
	int err;

	inject_publish(s);
	err = cvq_dev_kick(&s->dev);
	if (err)
		return err;
	inject_wait_used(s, (uint16_t)s->obs->n_chains, false);
	inject_observe(s);
	return 0;
}

static bool expects_reset(const struct inject_case *c)
{
	return c->expect == EXPECT_RESET || c->expect == EXPECT_REFUSED;
}

/* Where the case leaves the MAC: set by its valid commands only. */
static void expect_mac(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	const struct inject_case *c = s->c;

	memcpy(o->mac_expected, o->mac_before, MAC_LEN);
	if (c->ok_first)
		memcpy(o->mac_expected, mac_first, MAC_LEN);
	if (c->expect == EXPECT_OK && c->payload == PAYLOAD_MAC)
		memcpy(o->mac_expected, mac_case, MAC_LEN);
}

int inject_run_chains(struct inject_session *s)
{
	const struct inject_case *c = s->c;
	struct inject_obs *o = s->obs;
	uint8_t cmd[CVQ_DATA_MAX + 2], *snapshot;
	uint32_t len;
	int err;

	o->mac_valid = !inject_read_mac(s, o->mac_before);
	ring_begin(s);
	if (c->ok_first) {
		len = inject_payload_bytes(PAYLOAD_MAC, 0, cmd);
		memcpy(cmd + 2, mac_first, MAC_LEN);
		err = build(s, SHAPE_NORMAL, cmd, len);
		if (err)
			return err;
	}
	len = inject_payload_bytes(c->payload, s->dev.max_vqp, cmd);
	err = build(s, c->shape, cmd, len);
	if (err)
		return err;
	snapshot = malloc(s->ring.areas.ro_used);
	if (!snapshot)
		return pr_errno(ENOMEM, "%s: snapshot", s->o->devname);
	memcpy(snapshot, s->ring.areas.ro, s->ring.areas.ro_used);

	inject_publish(s);
	err = cvq_dev_kick(&s->dev);
	if (!err) {
		inject_wait_used(s, (uint16_t)o->n_chains, expects_reset(c));
		inject_observe(s);
		o->readable_written = memcmp(snapshot, s->ring.areas.ro,
					     s->ring.areas.ro_used) != 0;
		if (o->mac_valid)
			o->mac_valid = !inject_read_mac(s, o->mac_after);
		expect_mac(s);
	}
	free(snapshot);
	return err;
}

static int run_ring(struct inject_session *s)
{
	int err = inject_open_ring(s, true);

	if (err || s->obs->skipped)
		return err;
	return inject_run_chains(s);
}

/*
 * The queue is disabled, given its first avail index, enabled again and
 * the device started; the used index in memory starts there too, as
 * after a migration.
 */
static int run_vring_base(struct inject_session *s)
{
	struct vhost_vring_state state;
	int err;

	err = inject_open(s, INJECT_BASE_RING_NUM, INJECT_CMD_BYTES,
			  INJECT_ACK_BYTES, false);
	if (err || s->obs->skipped)
		return err;
	state = (struct vhost_vring_state){ .index = s->dev.cvq_index };
	err = VHOST_IOCTL(&s->dev.vhost, VHOST_VDPA_SET_VRING_ENABLE, &state);
	state.num = INJECT_BASE_AVAIL_IDX;
	if (!err)
		err = VHOST_IOCTL(&s->dev.vhost, VHOST_SET_VRING_BASE, &state);
	state.num = 1;
	if (!err)
		err = VHOST_IOCTL(&s->dev.vhost, VHOST_VDPA_SET_VRING_ENABLE,
				  &state);
	if (err)
		return err;
	s->used_base = INJECT_BASE_AVAIL_IDX;
	cvq_dev_ring_base(&s->dev, s->used_base);
	err = cvq_dev_driver_ok(&s->dev);
	return err ? err : inject_run_chains(s);
}

/* Sends one valid MAC_ADDR_SET and waits for it, kicking again if asked. */
static int serve_one(struct inject_session *s, bool kick_first)
{
	int err = kick_first ? cvq_dev_kick(&s->dev) : 0;

	if (!err && !inject_wait_used(s, 1, false)) {
		s->obs->needed_kick = true;
		s->obs->timed_out = false;
		err = cvq_dev_kick(&s->dev);
		if (!err)
			inject_wait_used(s, 1, false);
	}
	if (!err)
		inject_observe(s);
	return err;
}

int inject_add_command(struct inject_session *s)
{
	uint8_t cmd[CVQ_DATA_MAX + 2];
	uint32_t len = inject_payload_bytes(PAYLOAD_MAC, 0, cmd);

	ring_begin(s);
	return build(s, SHAPE_NORMAL, cmd, len);
}

int inject_next_command(struct inject_session *s)
{
	s->used_base = s->ring.avail_idx;
	s->obs->n_chains = 0;
	memset(s->obs->chain, 0, sizeof(s->obs->chain));
	return inject_add_command(s);
}

/* Held back: nothing may come back while the device may not serve. */
static void hold(struct inject_session *s)
{
	inject_sleep_ms(INJECT_HOLD_MS);
	s->obs->early_touched = inject_used_idx(s) != 0 ||
				*s->chains[0].ack != CVQ_ACK_UNSET;
}

/*
 * A command made available and kicked while the device may not serve it;
 * @release allows it, and then it must be served.
 */
static int held_back(struct inject_session *s,
		     int (*release)(struct inject_session *s))
{
	int err = inject_add_command(s);

	if (!err) {
		inject_publish(s);
		err = cvq_dev_kick(&s->dev);
	}
	if (err)
		return err;
	hold(s);
	err = release(s);
	return err ? err : serve_one(s, false);
}

static int release_driver_ok(struct inject_session *s)
{
	return cvq_dev_driver_ok(&s->dev);
}

static int release_resume(struct inject_session *s)
{
	return VHOST_IOCTL(&s->dev.vhost, VHOST_VDPA_RESUME, NULL);
}

static int run_kick_early(struct inject_session *s)
{
	int err = inject_open_ring(s, false);

	if (err || s->obs->skipped)
		return err;
	return held_back(s, release_driver_ok);
}

static int run_suspended(struct inject_session *s)
{
	int err = inject_open_ring(s, true);

	if (err || s->obs->skipped)
		return err;
	err = VHOST_IOCTL(&s->dev.vhost, VHOST_VDPA_SUSPEND, NULL);
	return err ? err : held_back(s, release_resume);
}

static int run_suspend_early(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	int err = inject_open_ring(s, false);

	if (err || o->skipped)
		return err;
	inject_obs_probe(
		o, VHOST_IOCTL_QUIET(&s->dev.vhost, VHOST_VDPA_SUSPEND, NULL),
		"VHOST_VDPA_SUSPEND");
	inject_obs_probe(
		o, VHOST_IOCTL_QUIET(&s->dev.vhost, VHOST_VDPA_RESUME, NULL),
		"VHOST_VDPA_RESUME");
	err = cvq_dev_driver_ok(&s->dev);
	if (!err)
		err = inject_add_command(s);
	if (err)
		return err;
	inject_publish(s);
	err = serve_one(s, true);
	if (!err && (!o->chain[0].completed || o->chain[0].used_len != 1 ||
		     o->chain[0].ack != VIRTIO_NET_OK || o->needs_reset))
		snprintf(
			o->failure, sizeof(o->failure),
			"the command after SUSPEND/RESUME was not acked OK (status 0x%02x)",
			o->status);
	return err;
}

/* Reset as a driver would, then a fresh driver must load the device. */
static void recover(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	const struct load_config cfg = {
		.count = INJECT_RECOVERY_COUNT,
		.rounds = 1,
		.timeout_ms = s->o->timeout_ms,
		.mode = LOAD_MODE_PARALLEL,
		.profile = LOAD_PROFILE_MAC,
		.ring = s->ring_format,
	};
	struct load_session *load;
	uint64_t ns;
	uint8_t status;
	int err;

	o->recovery_run = true;
	if (s->dev_open) {
		err = vhost_vdpa_set_status(&s->dev.vhost, 0);
		if (!err)
			err = inject_status(s, &status);
		o->reset_status = err ? err : status;
		inject_close(s);
	} else {
		o->reset_status = 0;
	}
	err = load_session_open(&load, s->o->devname, s->o->chardev, &cfg,
				s->o->verbose);
	if (!err) {
		err = load_session_run(load, LOAD_MODE_PARALLEL, &ns);
		if (!err)
			err = load_session_run(load, LOAD_MODE_SERIAL, &ns);
		load_session_close(load);
	}
	o->recovery_ok = !err && o->reset_status == 0;
	if (o->recovery_ok)
		snprintf(o->recovery, sizeof(o->recovery),
			 "ok: %u MAC_ADDR_SET parallel and serial%s",
			 INJECT_RECOVERY_COUNT,
			 s->ring_format == VQ_FORMAT_PACKED ? " (packed ring)" :
							      "");
	else if (o->reset_status)
		snprintf(o->recovery, sizeof(o->recovery),
			 "status 0x%02x after SET_STATUS 0", o->reset_status);
	else
		snprintf(o->recovery, sizeof(o->recovery),
			 "the load failed: %s", strerror(-err));
}

static int (*const runners[])(struct inject_session *s) = {
	[KIND_RING] = run_ring,
	[KIND_VRING_NUM] = inject_run_vring_num,
	[KIND_FEATURES] = inject_run_features,
	[KIND_KICK_EARLY] = run_kick_early,
	[KIND_CONFIG] = inject_run_config,
	[KIND_SUSPENDED] = run_suspended,
	[KIND_SUSPEND_EARLY] = run_suspend_early,
	[KIND_STRESS] = inject_run_stress,
	[KIND_VRING_BASE] = run_vring_base,
	[KIND_NOTIFY] = inject_run_notify,
	[KIND_MMAP] = inject_run_mmap,
	[KIND_CONFIG_EARLY] = inject_run_config_early,
	[KIND_IOTLB_SPLIT] = inject_run_fragmented,
	[KIND_PACKED] = inject_run_packed,
};

int inject_run(const struct inject_case *c, const struct inject_opts *o,
	       struct inject_obs *obs)
{
	struct inject_session s = { .c = c, .o = o, .obs = obs };
	int err;

	*obs = (struct inject_obs){ 0 };
	if (inject_case_ring(c, o->ring_given, o->ring, &s.ring_format)) {
		char why[INJECT_TEXT_LEN];

		snprintf(
			why, sizeof(why),
			"the case builds %s ring chains; not run with --ring %s",
			vq_format_name(s.ring_format), vq_format_name(o->ring));
		skip(&s, "%s", why);
		inject_verdict(c, obs);
		return 0;
	}
	err = runners[c->kind](&s);
	if (!err && !obs->skipped && !o->no_recovery)
		recover(&s);
	inject_close(&s);
	if (!err)
		inject_verdict(c, obs);
	return err;
}
