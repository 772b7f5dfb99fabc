// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Driver-side lifecycle stress: a batch of MAC_ADDR_SET commands is made
 * available and kicked, and at once -- while the device works on it --
 * the driver resets the device, suspends it, pulls its IOTLB maps away
 * and back, or closes its file descriptor. Each round must end with the
 * device serving a full batch; the first round that does not is the
 * failure reported.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "inject/inject_run.h"
#include "lib/cvq_cmd.h"
#include "lib/cvq_io.h"
#include "lib/diag.h"
#include "lib/util.h"

#define STRESS_BATCH 32
#define STRESS_RING_NUM 64
#define STRESS_CMD_BYTES (STRESS_BATCH * (2 + MAC_LEN))
/* After NEEDS_RESET, how long the rest of a batch may take to come back. */
#define STRESS_RESET_GRACE_MS 50
/* How long a suspended device is watched for progress. */
#define STRESS_SUSPEND_MS 20

struct batch_result {
	unsigned int ok; /* acked OK */
	unsigned int back; /* came back at all */
	bool needs_reset;
};

static int __printf(2, 3) fail(struct inject_session *s, const char *fmt, ...)
{
	struct inject_obs *o = s->obs;
	int n;
	va_list ap;

	if (o->failure[0])
		return 0;
	n = snprintf(o->failure, sizeof(o->failure), "round %u: ", o->rounds);
	va_start(ap, fmt);
	vsnprintf(o->failure + n, sizeof(o->failure) - (size_t)n, fmt, ap);
	va_end(ap);
	return 0;
}

static int send_batch(struct inject_session *s, unsigned int round)
{
	struct cvq_dev *d = &s->dev;
	struct cvq_cmd cmd;
	unsigned int i;
	bool kicked;
	int err;

	memset(d->ack_buf, CVQ_ACK_UNSET, STRESS_BATCH);
	for (i = 0; i < STRESS_BATCH; i++) {
		const uint8_t mac[MAC_LEN] = {
			0x02, 0x00, 0x5e, 0x20, (uint8_t)round, (uint8_t)i
		};
		size_t off = i * (2 + MAC_LEN);

		cvq_cmd_mac_addr_set(&cmd, mac);
		cvq_cmd_encode(&cmd, d->cmd_buf + off, 2 + MAC_LEN);
		err = cvq_dev_add_cmd(d, off, 2 + MAC_LEN, i);
		if (err)
			return pr_errno(err, "%s: add command %u",
					s->o->devname, i);
	}
	return cvq_dev_publish(d, &kicked);
}

struct batch_wait {
	struct inject_session *s;
	struct batch_result *r;
};

/* Pops what came back; a wrong used length comes back but is not OK. */
static int batch_progress(void *data, const struct cvq_wait_result *wr)
{
	struct batch_wait *b = data;
	struct batch_result *r = b->r;
	uint32_t token, len;
	int err = 0;

	(void)wr;
	while (r->back < STRESS_BATCH) {
		err = cvq_dev_pop_ack(&b->s->dev, &token, &len);
		if (err && err != -EMSGSIZE)
			break;
		r->back++;
		r->ok += !err && token < STRESS_BATCH &&
			 b->s->dev.ack_buf[token] == VIRTIO_NET_OK;
	}
	if (err && err != -EAGAIN && err != -EMSGSIZE)
		return err;
	/* One wait bounds the whole batch, as a stress round must. */
	return r->back == STRESS_BATCH ? CVQ_PROGRESS_DONE : CVQ_PROGRESS_NONE;
}

/* Collects the batch: all back, NEEDS_RESET with its grace, or timeout. */
static void collect_batch(struct inject_session *s, struct batch_result *r)
{
	const struct cvq_wait w = {
		.how = CVQ_WAIT_NAP,
		.timeout_ms = s->o->timeout_ms,
		.status_poll_ms = 1,
		.reset_grace_ms = STRESS_RESET_GRACE_MS,
	};
	struct batch_wait b = { .s = s, .r = r };
	struct cvq_wait_result wr;
	uint8_t status;

	*r = (struct batch_result){ 0 };
	cvq_dev_wait(&s->dev, &w, batch_progress, &b, &wr);
	r->needs_reset = !inject_status(s, &status) &&
			 (status & VIRTIO_CONFIG_S_NEEDS_RESET);
}

/* Collects the batch in flight: true (and counted) if all acked OK. */
static bool batch_ok(struct inject_session *s, struct batch_result *r)
{
	collect_batch(s, r);
	if (r->ok != STRESS_BATCH || r->needs_reset)
		return false;
	s->obs->batches_ok++;
	return true;
}

/* A batch on a freshly set-up device: all of it acked OK. */
static int full_batch(struct inject_session *s, const char *after)
{
	struct batch_result r;
	int err = send_batch(s, s->obs->rounds);

	if (err)
		return err;
	if (batch_ok(s, &r))
		return 0;
	return fail(s, "after %s: %u of %u acked OK%s", after, r.ok,
		    STRESS_BATCH, r.needs_reset ? ", NEEDS_RESET" : "");
}

static int restart(struct inject_session *s)
{
	int err = vhost_vdpa_set_status(&s->dev.vhost, 0);

	return err ? err : cvq_dev_restart(&s->dev);
}

static int round_reset(struct inject_session *s)
{
	int err = send_batch(s, s->obs->rounds);

	if (!err)
		err = restart(s);
	return err ? err : full_batch(s, "reset and set-up again");
}

/*
 * What the device has given back: the split ring's used index, or the
 * packed ring's used elements not yet popped (a packed ring has no
 * index; the batch's chains are popped only after the resume).
 */
static uint16_t device_progress(const struct inject_session *s)
{
	if (s->dev.ring_format == VQ_FORMAT_PACKED)
		return vq_used_pending(&s->dev.ring);
	return inject_used_idx(s);
}

static int round_suspend(struct inject_session *s)
{
	struct batch_result r;
	uint16_t before;
	int err;

	err = send_batch(s, s->obs->rounds);
	if (!err)
		err = VHOST_IOCTL(&s->dev.vhost, VHOST_VDPA_SUSPEND, NULL);
	if (err)
		return err;
	before = device_progress(s);
	inject_sleep_ms(STRESS_SUSPEND_MS);
	if (device_progress(s) != before)
		fail(s, "used idx moved from %u to %u while suspended", before,
		     device_progress(s));
	err = VHOST_IOCTL(&s->dev.vhost, VHOST_VDPA_RESUME, NULL);
	if (err)
		return err;
	if (batch_ok(s, &r))
		return 0;
	return fail(s, "after resume: %u of %u acked OK%s", r.ok, STRESS_BATCH,
		    r.needs_reset ? ", NEEDS_RESET" : "");
}

/*
 * The device may lose the race and find its memory gone: then it must
 * say so with NEEDS_RESET rather than hang, and work after a reset.
 */
static int round_remap(struct inject_session *s)
{
	struct batch_result r;
	int err;

	err = send_batch(s, s->obs->rounds);
	if (!err)
		err = cvq_dev_unmap(&s->dev);
	if (!err)
		err = cvq_dev_remap(&s->dev);
	/* Chains the device gave up on before the maps came back. */
	if (!err)
		err = cvq_dev_kick(&s->dev);
	if (err)
		return err;
	if (batch_ok(s, &r))
		return 0;
	if (!r.needs_reset)
		return fail(s, "%u of %u acked OK and no NEEDS_RESET", r.ok,
			    STRESS_BATCH);
	s->obs->resets_seen++;
	err = restart(s);
	return err ? err : full_batch(s, "NEEDS_RESET and a reset");
}

static int round_close(struct inject_session *s)
{
	int err = send_batch(s, s->obs->rounds);

	if (err)
		return err;
	/* The release path, not SET_STATUS 0, must stop the device. */
	vhost_vdpa_close(&s->dev.vhost);
	inject_close(s);
	err = inject_open(s, STRESS_RING_NUM, STRESS_CMD_BYTES, STRESS_BATCH,
			  true);
	return err ? err : full_batch(s, "close and open again");
}

int inject_run_stress(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	int (*round)(struct inject_session * s);
	int err;

	switch (s->c->param) {
	case PARAM_STRESS_RESET:
		round = round_reset;
		break;
	case PARAM_STRESS_SUSPEND:
		round = round_suspend;
		break;
	case PARAM_STRESS_REMAP:
		round = round_remap;
		break;
	default:
		round = round_close;
		break;
	}
	err = inject_open(s, STRESS_RING_NUM, STRESS_CMD_BYTES, STRESS_BATCH,
			  true);
	if (err || o->skipped)
		return err;
	err = full_batch(s, "set-up");
	for (o->rounds = 1; !err && !o->failure[0] && o->rounds <= s->o->rounds;
	     o->rounds++)
		err = round(s);
	o->rounds--;
	if (!err)
		o->status_valid = !inject_status(s, &o->status);
	o->needs_reset = o->status_valid &&
			 (o->status & VIRTIO_CONFIG_S_NEEDS_RESET);
	return err;
}
