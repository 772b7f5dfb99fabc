// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Used-buffer notification suppression (virtio 1.2, 2.7.7.2): one
 * command at a time, the call eventfd counted after each comes back.
 * Without EVENT_IDX the device must honour VRING_AVAIL_F_NO_INTERRUPT;
 * with it, notify exactly when the used index passes used_event, which
 * for one completion from index old means used_event == old.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <sys/eventfd.h>

#include "inject/inject_run.h"
#include "lib/cvq_cmd.h"
#include "lib/diag.h"
#include "lib/util.h"

/* How long a call may take to arrive after the used index moved. */
#define NOTIFY_SETTLE_MS 50

struct notify_step {
	uint16_t flags; /* avail ring flags */
	int event_from_old; /* used_event - old used index (EVENT_IDX) */
	bool want_call;
};

static const struct notify_step flag_steps[] = {
	{ VRING_AVAIL_F_NO_INTERRUPT, 0, false },
	{ 0, 0, true },
};

/*
 * One completion from old to old + 1: a call iff used_event == old. The
 * first is called for: a device may notify the first completion after
 * DRIVER_OK whatever used_event says (as vhost does; the spec's "SHOULD
 * NOT" allows it), and must know what it signalled before suppressing.
 */
static const struct notify_step event_idx_steps[] = {
	{ 0, 0, true },
	{ 0, -1, false },
	{ 0, 1, false },
	{ 0, 2, false },
	{ 0, 0, true },
	/* With EVENT_IDX the flags are the driver's business only. */
	{ VRING_AVAIL_F_NO_INTERRUPT, 0, true },
};

/* The calls the device made since the last read; 0 if none. */
static int read_calls(struct inject_session *s, unsigned int *calls)
{
	eventfd_t n = 0;

	*calls = 0;
	if (eventfd_read(s->dev.call_fd, &n) < 0) {
		if (errno == EAGAIN)
			return 0;
		return pr_errno(errno, "%s: read the call eventfd",
				s->o->devname);
	}
	*calls = n > UINT32_MAX ? UINT32_MAX : (unsigned int)n;
	return 0;
}

/* used_event: the entry after the avail ring's last. */
static void set_used_event(struct inject_session *s, uint16_t event)
{
	s->dev.ring_avail->ring[s->ring.num] = htole16(event);
}

static int run_step(struct inject_session *s, const struct notify_step *st,
		    bool event_idx, struct inject_notify_obs *n)
{
	struct inject_obs *o = s->obs;
	unsigned int stale;
	uint16_t old;
	int err;

	err = inject_next_command(s);
	if (!err)
		err = read_calls(s, &stale);
	if (err)
		return err;
	old = s->used_base;
	s->dev.ring_avail->flags = htole16(st->flags);
	if (event_idx)
		set_used_event(s, (uint16_t)(old + st->event_from_old));
	if (event_idx)
		snprintf(n->what, sizeof(n->what),
			 "flags %u, used_event old%+d", st->flags,
			 st->event_from_old);
	else
		snprintf(n->what, sizeof(n->what), "flags %u", st->flags);
	n->want_min = st->want_call ? 1 : 0;
	n->want_max = st->want_call ? UINT32_MAX : 0;
	err = inject_send(s);
	if (err)
		return err;
	inject_sleep_ms(NOTIFY_SETTLE_MS);
	n->served = o->chain[0].completed && o->chain[0].used_len == 1 &&
		    o->chain[0].ack == VIRTIO_NET_OK;
	return read_calls(s, &n->calls);
}

int inject_run_notify(struct inject_session *s)
{
	bool event_idx = s->c->param == PARAM_NOTIFY_EVENT_IDX;
	const struct notify_step *steps = event_idx ? event_idx_steps :
						      flag_steps;
	unsigned int n = event_idx ? ARRAY_SIZE(event_idx_steps) :
				     ARRAY_SIZE(flag_steps);
	struct inject_obs *o = s->obs;
	unsigned int i;
	int err;

	err = inject_open_ring(s, true);
	if (err || o->skipped)
		return err;
	for (i = 0; i < n && i < INJECT_NOTIFY_MAX; i++) {
		err = run_step(s, &steps[i], event_idx, &o->notify[i]);
		if (err)
			return err;
		o->n_notify++;
		if (!o->notify[i].served)
			break;
	}
	return 0;
}
