// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Submitting control commands and waiting for them.
 */
#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <time.h>

#include "lib/compat.h"
#include "lib/cvq_io.h"
#include "lib/diag.h"
#include "lib/util.h"

/* Under TCG a clock read per spin costs as much as the device's work. */
#define SPINS_PER_CLOCK_CHECK 4096

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static void nap_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

struct wait_clock {
	uint64_t start, next_status, reset_at;
	bool started;
	/* Slept on the call eventfd before the clock started. */
	unsigned int unclocked_ms;
	bool slept;
};

/*
 * Called whenever the loop would otherwise just wait: starts the clock,
 * polls the status when due and decides whether to stop.
 */
static int check_limits(struct vhost_vdpa *v, const struct cvq_wait *w,
			struct wait_clock *c, struct cvq_wait_result *r)
{
	uint64_t now = now_ms();
	uint8_t status;

	if (!c->started) {
		c->started = true;
		c->start = now - c->unclocked_ms;
		c->next_status = now + w->status_poll_ms;
	}
	r->elapsed_ms = (unsigned int)(now - c->start);
	if (w->status_poll_ms && !r->needs_reset && now >= c->next_status) {
		c->next_status = now + w->status_poll_ms;
		if (!VHOST_IOCTL_QUIET(v, VHOST_VDPA_GET_STATUS, &status) &&
		    (status & VIRTIO_CONFIG_S_NEEDS_RESET)) {
			r->needs_reset = true;
			c->reset_at = now;
		}
	}
	if (r->needs_reset && now - c->reset_at >= w->reset_grace_ms)
		return -ENETRESET;
	if (now - c->start >= w->timeout_ms) {
		r->timed_out = true;
		return -ETIMEDOUT;
	}
	return 0;
}

/* How long one sleep on the call eventfd may last. */
static int call_slice_ms(const struct cvq_wait *w,
			 const struct cvq_wait_result *r)
{
	unsigned int left = w->timeout_ms - r->elapsed_ms;

	if (w->status_poll_ms && w->status_poll_ms < left)
		left = w->status_poll_ms;
	return left ? (int)left : 1;
}

static int sleep_on_call(struct vhost_vdpa *v, int call_fd, int slice_ms,
			 struct wait_clock *c, struct cvq_wait_result *r)
{
	struct pollfd pfd = { .fd = call_fd, .events = POLLIN };
	eventfd_t signals;
	int n;

	n = poll(&pfd, 1, slice_ms);
	if (n < 0 && errno == EINTR)
		return 0;
	if (n < 0)
		return pr_errno(errno, "poll on the call eventfd of %s",
				v->path);
	if (!c->started && !c->slept && n == 0)
		c->unclocked_ms = (unsigned int)slice_ms;
	c->slept = true;
	if (n > 0) {
		/* Non-blocking: clears the count the device raised. */
		eventfd_read(call_fd, &signals);
		r->sleeps++;
	}
	return 0;
}

int cvq_wait_on(struct vhost_vdpa *v, int call_fd, const struct cvq_wait *w,
		cvq_progress_t progress, void *data, struct cvq_wait_result *r)
{
	struct wait_clock c = { 0 };
	unsigned long spins = 0;
	int ret;

	*r = (struct cvq_wait_result){ 0 };
	for (;;) {
		ret = progress(data, r);
		if (ret < 0)
			return ret;
		if (ret == CVQ_PROGRESS_DONE)
			return 0;
		if (ret == CVQ_PROGRESS_SOME && !r->needs_reset) {
			/* The timeout bounds the wait for each completion. */
			c = (struct wait_clock){ 0 };
			spins = 0;
		}
		if (w->how == CVQ_WAIT_SPIN) {
			cpu_relax();
			if (++spins % SPINS_PER_CLOCK_CHECK)
				continue;
		}
		/*
		 * A serial load on the call eventfd sleeps once per command:
		 * the clock is only read if that sleep was not enough.
		 */
		if (w->how != CVQ_WAIT_CALL || c.slept) {
			ret = check_limits(v, w, &c, r);
			if (ret)
				return ret;
		}
		if (w->how == CVQ_WAIT_CALL)
			ret = sleep_on_call(v, call_fd, call_slice_ms(w, r), &c,
					    r);
		else if (w->how == CVQ_WAIT_NAP)
			nap_ms(1);
		if (ret)
			return ret;
	}
}

int cvq_dev_wait(struct cvq_dev *d, const struct cvq_wait *w,
		 cvq_progress_t progress, void *data, struct cvq_wait_result *r)
{
	return cvq_wait_on(&d->vhost, d->call_fd, w, progress, data, r);
}

int cvq_dev_kick(struct cvq_dev *d)
{
	if (eventfd_write(d->kick_fd, 1) < 0)
		return pr_errno(errno, "kick on %s", d->vhost.path);
	return 0;
}

int cvq_dev_add_cmd(struct cvq_dev *d, size_t cmd_off, uint32_t cmd_len,
		    unsigned int slot)
{
	const struct vq_buf bufs[2] = {
		{ .addr = d->cmd_iova + cmd_off, .len = cmd_len },
		{ .addr = d->ack_iova + slot,
		  .len = 1,
		  .device_writable = true },
	};

	return vq_add(&d->ring, bufs, ARRAY_SIZE(bufs), slot);
}

int cvq_dev_publish(struct cvq_dev *d, bool *kicked)
{
	vq_publish(&d->ring);
	*kicked = vq_kick_needed(&d->ring);
	return *kicked ? cvq_dev_kick(d) : 0;
}

int cvq_dev_pop_ack(struct cvq_dev *d, uint32_t *token, uint32_t *len)
{
	int err = vq_pop(&d->ring, token, len);

	if (err)
		return err;
	/* The device writes the ack byte and nothing else. */
	return *len == 1 ? 0 : -EMSGSIZE;
}
