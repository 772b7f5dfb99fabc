// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packed-ring cases. A lap of valid commands goes through the driver
 * first, so the case's chains start at slot 0 on lap 0, where every slot
 * holds the bits of lap 1: what a device that ignores the wrap counter
 * would take for available. The chains are written with
 * inject_ring_packed.c, made available together and kicked once; the
 * device is watched through the used elements it writes back and
 * VHOST_VDPA_GET_STATUS.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inject/inject_ring_packed.h"
#include "inject/inject_run.h"
#include "lib/cvq_cmd.h"
#include "lib/cvq_io.h"
#include "lib/diag.h"
#include "lib/util.h"

/* The command buffer's start holds the warm-up's command. */
#define WARM_UP_CMD_BYTES 64

struct packed_run {
	struct inject_session *s;
	struct inject_packed_ring r;
	struct inject_packed_chain chains[INJECT_CHAINS_MAX];
	unsigned int n;
	uint16_t used_pos; /* where the case's first used element goes */
	bool used_wrap;
};

struct pop_wait {
	struct cvq_dev *d;
	uint32_t len;
};

static int pop_progress(void *data, const struct cvq_wait_result *r)
{
	struct pop_wait *w = data;
	uint32_t token;
	int err = cvq_dev_pop_ack(w->d, &token, &w->len);

	(void)r;
	if (err == -EAGAIN)
		return CVQ_PROGRESS_NONE;
	return err && err != -EMSGSIZE ? err : CVQ_PROGRESS_DONE;
}

/* A lap of @cmd through the driver, one command at a time. */
static int warm_up(struct inject_session *s, const uint8_t *cmd, uint32_t len)
{
	const struct cvq_wait w = {
		.how = CVQ_WAIT_NAP,
		.timeout_ms = s->o->timeout_ms,
		.status_poll_ms = 1,
	};
	struct cvq_dev *d = &s->dev;
	struct pop_wait pw = { .d = d };
	struct cvq_wait_result r;
	unsigned int i, lap = d->ring_size / INJECT_PACKED_CHAIN_DESCS;
	bool kicked;
	int err;

	memcpy(d->cmd_buf, cmd, len);
	for (i = 0; i < lap; i++) {
		d->ack_buf[i] = CVQ_ACK_UNSET;
		err = cvq_dev_add_cmd(d, 0, len, i);
		if (!err)
			err = cvq_dev_publish(d, &kicked);
		if (!err)
			err = cvq_dev_wait(d, &w, pop_progress, &pw, &r);
		if (!err && (pw.len != 1 || d->ack_buf[i] != VIRTIO_NET_OK))
			err = -EIO;
		if (err)
			return pr_errno(
				err,
				"%s: warm-up lap, command %u of %u: not acked OK with used len 1",
				s->o->devname, i + 1, lap);
	}
	return 0;
}

/* Where the driver left the ring: the case's chains go on from there. */
static void ring_begin(struct packed_run *p)
{
	struct cvq_dev *d = &p->s->dev;
	uint32_t base = vq_base(&d->ring);
	unsigned int acks = d->ring_size / INJECT_PACKED_CHAIN_DESCS;

	/* vq_base(): slot in bits 0-14, wrap counter in 15; used above. */
	p->r = (struct inject_packed_ring){
		.desc = d->ring_area_desc,
		.num = (uint16_t)d->ring_size,
		.pos = base & 0x7fff,
		.wrap = !!(base & 0x8000),
		.areas = {
			.ro = d->cmd_buf + WARM_UP_CMD_BYTES,
			.ro_iova = d->cmd_iova + WARM_UP_CMD_BYTES,
			.ro_size = INJECT_CMD_BYTES - WARM_UP_CMD_BYTES,
			.ack = d->ack_buf + acks,
			.ack_iova = d->ack_iova + acks,
			.ack_size = INJECT_ACK_BYTES - acks,
		},
	};
	p->used_pos = (base >> 16) & 0x7fff;
	p->used_wrap = !!(base >> 31);
}

/* How many of the case's chains came back so far; into @obs. */
static unsigned int collect(const struct packed_run *p,
			    struct inject_chain_obs *obs, bool *bad_used)
{
	unsigned int k, back = 0;

	for (k = 0; k < p->n; k++)
		obs[k] = (struct inject_chain_obs){ .has_ack = true };
	inject_packed_collect(&p->r, p->used_pos, p->used_wrap, p->chains, p->n,
			      obs, bad_used);
	for (k = 0; k < p->n; k++) {
		obs[k].ack = *p->chains[k].ack;
		back += obs[k].completed;
	}
	return back;
}

struct back_wait {
	const struct packed_run *p;
	bool want_reset;
};

static int back_progress(void *data, const struct cvq_wait_result *r)
{
	const struct back_wait *b = data;
	struct inject_chain_obs obs[INJECT_CHAINS_MAX];
	bool bad;

	return collect(b->p, obs, &bad) >= b->p->n &&
			       (r->needs_reset || !b->want_reset) ?
		       CVQ_PROGRESS_DONE :
		       CVQ_PROGRESS_NONE;
}

/* Waits as inject_wait_used() does, by the used elements written. */
static void wait_back(struct packed_run *p, bool want_reset)
{
	const struct cvq_wait w = {
		.how = CVQ_WAIT_NAP,
		.timeout_ms = p->s->o->timeout_ms,
		.status_poll_ms = 1,
		.reset_grace_ms = INJECT_GRACE_MS,
	};
	struct back_wait b = { .p = p, .want_reset = want_reset };
	struct cvq_wait_result r;

	cvq_dev_wait(&p->s->dev, &w, back_progress, &b, &r);
	p->s->obs->timed_out |= r.timed_out;
	p->s->obs->elapsed_ms = r.elapsed_ms;
}

static void observe(struct packed_run *p)
{
	struct inject_obs *o = p->s->obs;

	/* Late used elements or status changes show up here too. */
	inject_sleep_ms(10);
	collect(p, o->chain, &o->bad_used);
	o->status_valid = !inject_status(p->s, &o->status);
	o->needs_reset = o->status_valid &&
			 (o->status & VIRTIO_CONFIG_S_NEEDS_RESET);
}

/*
 * PACKED_WRONG_WRAP: held back for INJECT_HOLD_MS, in which nothing may
 * come back; then the chain is made available properly and served.
 */
static int hold_then_release(struct packed_run *p)
{
	struct inject_chain_obs obs[INJECT_CHAINS_MAX];
	struct inject_obs *o = p->s->obs;
	bool bad;
	int err;

	inject_sleep_ms(INJECT_HOLD_MS);
	o->early_touched = collect(p, obs, &bad) || bad ||
			   obs[0].ack != CVQ_ACK_UNSET;
	inject_packed_make_valid(&p->r, &p->chains[0]);
	err = cvq_dev_kick(&p->s->dev);
	if (!err)
		wait_back(p, false);
	return err;
}

/*
 * The warm-up's commands and the first chain of PACKED_ID_REUSE set the
 * MAC the device has (@fallback if it could not be read), so that the
 * case's own command is the only one that may change it.
 */
static void same_mac_command(const struct inject_obs *o,
			     const uint8_t *fallback, uint8_t *buf)
{
	struct cvq_cmd cmd;

	cvq_cmd_mac_addr_set(&cmd, o->mac_valid ? o->mac_before : fallback);
	cvq_cmd_encode(&cmd, buf, CVQ_DATA_MAX + 2);
}

static int send_case(struct packed_run *p, const uint8_t *cmd, uint32_t len)
{
	struct inject_session *s = p->s;
	struct inject_obs *o = s->obs;
	uint8_t first[CVQ_DATA_MAX + 2], *snapshot;
	unsigned int k;
	int n, err;

	same_mac_command(o, cmd + 2, first);
	n = inject_packed_build(&p->r, s->c->packed, first, cmd, len,
				p->chains);
	if (n < 0)
		return pr_errno(n, "%s: build the \"%s\" chains", s->o->devname,
				inject_packed_fault_name(s->c->packed));
	p->n = (unsigned int)n;
	o->n_chains = p->n;
	snapshot = malloc(p->r.areas.ro_used);
	if (!snapshot)
		return pr_errno(ENOMEM, "%s: snapshot", s->o->devname);
	memcpy(snapshot, p->r.areas.ro, p->r.areas.ro_used);

	for (k = 0; k < p->n; k++)
		inject_packed_publish(&p->r, &p->chains[k]);
	err = cvq_dev_kick(&s->dev);
	if (!err && s->c->expect == EXPECT_IGNORED)
		err = hold_then_release(p);
	else if (!err)
		wait_back(p, s->c->expect == EXPECT_RESET);
	if (!err) {
		observe(p);
		o->readable_written = memcmp(snapshot, p->r.areas.ro,
					     p->r.areas.ro_used) != 0;
	}
	free(snapshot);
	return err;
}

int inject_run_packed(struct inject_session *s)
{
	struct inject_obs *o = s->obs;
	struct packed_run p = { .s = s };
	uint8_t cmd[CVQ_DATA_MAX + 2], warm[CVQ_DATA_MAX + 2];
	uint32_t len;
	int err;

	err = inject_open_ring(s, true);
	if (err || o->skipped)
		return err;
	o->mac_valid = !inject_read_mac(s, o->mac_before);
	len = inject_payload_bytes(PAYLOAD_MAC, 0, cmd);
	same_mac_command(o, cmd + 2, warm);
	err = warm_up(s, warm, len);
	if (err)
		return err;
	ring_begin(&p);
	err = send_case(&p, cmd, len);
	if (err)
		return err;
	/* Only a chain served after it was made available sets the MAC. */
	memcpy(o->mac_expected,
	       s->c->expect == EXPECT_IGNORED ? cmd + 2 : o->mac_before,
	       MAC_LEN);
	if (o->mac_valid)
		o->mac_valid = !inject_read_mac(s, o->mac_after);
	return 0;
}
