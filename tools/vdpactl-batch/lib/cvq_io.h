/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Commands in and out of a started device's control queue: the one way a
 * command is added and published, and the one loop that waits for the
 * device to return used entries, shared by the load engine and the
 * fault-injection runners. The caller's progress
 * function says when it has what it waits for; the loop bounds the wait,
 * reads the device status on a slow poll so that DEVICE_NEEDS_RESET stops
 * it within a poll interval (plus a grace time) instead of after the full
 * timeout, and reads the clock only while it actually has to wait.
 */
#ifndef VDPACTL_CVQ_IO_H
#define VDPACTL_CVQ_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/cvq_dev.h"

/* Notifies the device of new avail entries. */
int cvq_dev_kick(struct cvq_dev *d);

/*
 * Adds one control command, already encoded at @cmd_off in the command
 * buffer, with ack byte @slot of the ack buffer, as the next avail entry
 * (not yet published); @slot is also the token vq_pop() gives back.
 * -errno from vq_add(); prints nothing.
 */
int cvq_dev_add_cmd(struct cvq_dev *d, size_t cmd_off, uint32_t cmd_len,
		    unsigned int slot);

/*
 * Publishes the added commands and kicks unless the device suppressed
 * notifications; *kicked says whether it did.
 */
int cvq_dev_publish(struct cvq_dev *d, bool *kicked);

enum cvq_wait_how {
	CVQ_WAIT_SPIN, /* busy-poll, the clock read every few thousand spins */
	CVQ_WAIT_CALL, /* sleep on the call eventfd */
	CVQ_WAIT_NAP, /* check once a millisecond */
};

struct cvq_wait {
	enum cvq_wait_how how;
	unsigned int timeout_ms; /* the longest wait */
	unsigned int status_poll_ms; /* between status reads; 0: never */
	/* After NEEDS_RESET, how long entries may still come back. */
	unsigned int reset_grace_ms;
};

struct cvq_wait_result {
	bool needs_reset; /* seen during the wait */
	bool timed_out;
	unsigned int elapsed_ms; /* 0 if done before the first clock read */
	uint64_t sleeps; /* call eventfd wake-ups */
};

/* What a progress function returns, or -errno to stop the wait. */
enum cvq_progress {
	CVQ_PROGRESS_NONE, /* nothing new: go on waiting */
	CVQ_PROGRESS_DONE, /* the wait is over */
	/* Something came back: the timeout starts again from now. */
	CVQ_PROGRESS_SOME,
};

/* @r shows what the wait has seen so far (needs_reset). */
typedef int (*cvq_progress_t)(void *data, const struct cvq_wait_result *r);

/*
 * Waits until @progress says done (0), it fails (its -errno), the device
 * has needed a reset for reset_grace_ms (-ENETRESET) or timeout_ms passed
 * since the start or the last CVQ_PROGRESS_SOME (-ETIMEDOUT). -errno also
 * for a failed poll.
 */
int cvq_dev_wait(struct cvq_dev *d, const struct cvq_wait *w,
		 cvq_progress_t progress, void *data,
		 struct cvq_wait_result *r);

/*
 * The same wait for any queue of @v, a driver of its own: @call_fd is the
 * queue's call eventfd, which CVQ_WAIT_CALL sleeps on.
 */
int cvq_wait_on(struct vhost_vdpa *v, int call_fd, const struct cvq_wait *w,
		cvq_progress_t progress, void *data, struct cvq_wait_result *r);

/*
 * Pops the next used entry of @d's ring (see vq_pop()) and checks what a
 * control queue's device must return: an in-flight head whose used length
 * is the one ack byte. -EAGAIN if none; -EPROTO for an entry vq_pop()
 * refuses (left in place); -EMSGSIZE for another used length, with the
 * entry consumed, *token and *len set.
 */
int cvq_dev_pop_ack(struct cvq_dev *d, uint32_t *token, uint32_t *len);

#endif
