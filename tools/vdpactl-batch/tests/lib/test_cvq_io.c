// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Submitting commands and waiting for them (lib/cvq_io.c) against the
 * fake device: what comes back is checked (used length, id, index), the
 * wait ends at a timeout that bounds each completion, and a device that
 * sets DEVICE_NEEDS_RESET ends it long before the timeout.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "lib/compat.h"
#include "lib/cvq_cmd.h"
#include "lib/cvq_io.h"
#include "lib/util.h"
#include "tests/lib/fake_device.h"

#define CMDS 8
#define CMD_LEN (2 + MAC_LEN)

struct bench {
	struct cvq_dev d;
	unsigned int got, bad_len, want;
	int pop_err;
};

/* Static: a device left running by a failed test still has its memory. */
static struct bench bench;

/* Starts the fake device on @b with @cfg. */
static void start_with(struct bench *b, const struct fake_config *cfg)
{
	const struct cvq_dev_layout layout = {
		.ring_size = 16,
		.cmd_bytes = CMDS * CMD_LEN,
		.ack_bytes = CMDS,
	};

	memset(b, 0, sizeof(*b));
	b->d.kick_fd = b->d.call_fd = -1;
	b->d.vhost.fd = -1;
	fake_config = *cfg;
	assert_int_equal(fake_device_attach(&b->d, &layout), 0);
}

static void start(struct bench *b, enum fake_mode mode)
{
	const struct fake_config cfg = { .mode = mode };

	start_with(b, &cfg);
}

/* Adds and publishes @n MAC_ADDR_SET commands, acks unset. */
static void send(struct bench *b, unsigned int n)
{
	struct cvq_cmd cmd;
	unsigned int i;
	bool kicked;

	memset(b->d.ack_buf, CVQ_ACK_UNSET, CMDS);
	for (i = 0; i < n; i++) {
		const uint8_t mac[MAC_LEN] = { 2, 0, 0, 0, 0, (uint8_t)i };

		cvq_cmd_mac_addr_set(&cmd, mac);
		cvq_cmd_encode(&cmd, b->d.cmd_buf + i * CMD_LEN, CMD_LEN);
		assert_int_equal(
			cvq_dev_add_cmd(&b->d, i * CMD_LEN, CMD_LEN, i), 0);
	}
	assert_int_equal(cvq_dev_publish(&b->d, &kicked), 0);
	assert_true(kicked); /* the fake never suppresses notifications */
	b->want = n;
}

static int progress(void *data, const struct cvq_wait_result *r)
{
	struct bench *b = data;
	uint32_t token, len;
	int err;

	(void)r;
	while ((err = cvq_dev_pop_ack(&b->d, &token, &len)) == 0 ||
	       err == -EMSGSIZE) {
		b->bad_len += err == -EMSGSIZE;
		if (!err && b->d.ack_buf[token] == VIRTIO_NET_OK)
			b->got++;
		if (err)
			return err;
	}
	if (err != -EAGAIN)
		return b->pop_err = err;
	return b->got == b->want ? CVQ_PROGRESS_DONE : CVQ_PROGRESS_NONE;
}

static int wait_for(struct bench *b, enum cvq_wait_how how,
		    unsigned int timeout_ms, struct cvq_wait_result *r)
{
	const struct cvq_wait w = {
		.how = how,
		.timeout_ms = timeout_ms,
		.status_poll_ms = 5,
	};

	return cvq_dev_wait(&b->d, &w, progress, b, r);
}

static void served_in_every_wait_mode(void **state)
{
	static const enum cvq_wait_how hows[] = { CVQ_WAIT_SPIN, CVQ_WAIT_CALL,
						  CVQ_WAIT_NAP };
	struct cvq_wait_result r;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(hows); i++) {
		start_with(&bench, &(struct fake_config){ .notify = true });
		send(&bench, CMDS);
		assert_int_equal(wait_for(&bench, hows[i], 2000, &r), 0);
		assert_int_equal(bench.got, CMDS);
		assert_false(r.timed_out);
		assert_false(r.needs_reset);
		fake_device_detach(&bench.d);
		assert_int_equal(fake_device_stats().served, CMDS);
		assert_int_equal(
			fake_device_stats().by_class[VIRTIO_NET_CTRL_MAC],
			CMDS);
	}
}

/* With notifications, a call-eventfd wait sleeps instead of spinning. */
static void call_wait_sleeps(void **state)
{
	struct cvq_wait_result r;

	(void)state;
	start_with(&bench,
		   &(struct fake_config){ .notify = true, .delay_ms = 2 });
	send(&bench, 4);
	assert_int_equal(wait_for(&bench, CVQ_WAIT_CALL, 2000, &r), 0);
	assert_int_equal(bench.got, 4);
	assert_true(r.sleeps >= 1);
	fake_device_detach(&bench.d);
}

static void wrong_used_length_is_refused(void **state)
{
	struct cvq_wait_result r;

	(void)state;
	start(&bench, FAKE_BAD_LEN);
	send(&bench, 1);
	assert_int_equal(wait_for(&bench, CVQ_WAIT_SPIN, 2000, &r), -EMSGSIZE);
	assert_int_equal(bench.bad_len, 1);
	fake_device_detach(&bench.d);
}

static void used_index_past_in_flight_is_refused(void **state)
{
	struct cvq_wait_result r;

	(void)state;
	start(&bench, FAKE_IDX_JUMP);
	send(&bench, 1);
	assert_int_equal(wait_for(&bench, CVQ_WAIT_SPIN, 2000, &r), -EPROTO);
	fake_device_detach(&bench.d);
}

static void silent_device_times_out(void **state)
{
	struct cvq_wait_result r;
	uint64_t t0, took;

	(void)state;
	start(&bench, FAKE_SILENT);
	send(&bench, 2);
	t0 = now_ms();
	assert_int_equal(wait_for(&bench, CVQ_WAIT_NAP, 100, &r), -ETIMEDOUT);
	took = now_ms() - t0;
	assert_true(r.timed_out);
	assert_true(took >= 100);
	assert_true(took < 2000);
	fake_device_detach(&bench.d);
}

/* NEEDS_RESET ends the wait at the next status poll, not the timeout. */
static void needs_reset_ends_the_wait_promptly(void **state)
{
	static const enum cvq_wait_how hows[] = { CVQ_WAIT_SPIN, CVQ_WAIT_CALL,
						  CVQ_WAIT_NAP };
	struct cvq_wait_result r;
	unsigned int i;
	uint64_t t0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(hows); i++) {
		start(&bench, FAKE_NEEDS_RESET);
		send(&bench, 1);
		t0 = now_ms();
		assert_int_equal(wait_for(&bench, hows[i], 10000, &r),
				 -ENETRESET);
		assert_true(now_ms() - t0 < 5000);
		assert_true(r.needs_reset);
		assert_false(r.timed_out);
		fake_device_detach(&bench.d);
	}
}

/* The timeout bounds each completion, not a whole batch. */
static int count_progress(void *data, const struct cvq_wait_result *r)
{
	struct bench *b = data;
	unsigned int before = b->got;
	int ret = progress(data, r);

	if (ret == CVQ_PROGRESS_NONE && b->got > before)
		return CVQ_PROGRESS_SOME;
	return ret;
}

static void timeout_restarts_on_progress(void **state)
{
	const struct cvq_wait w = {
		.how = CVQ_WAIT_NAP,
		.timeout_ms = 300,
		.status_poll_ms = 5,
	};
	struct cvq_wait_result r;
	uint64_t t0;

	(void)state;
	start_with(&bench, &(struct fake_config){ .delay_ms = 60 });
	send(&bench, CMDS);
	t0 = now_ms();
	assert_int_equal(cvq_dev_wait(&bench.d, &w, count_progress, &bench, &r),
			 0);
	/* Eight completions 60 ms apart outlast one 300 ms timeout. */
	assert_true(now_ms() - t0 >= 8 * 60);
	assert_int_equal(bench.got, CMDS);
	fake_device_detach(&bench.d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(served_in_every_wait_mode,
					  fake_device_teardown),
		cmocka_unit_test_teardown(call_wait_sleeps,
					  fake_device_teardown),
		cmocka_unit_test_teardown(wrong_used_length_is_refused,
					  fake_device_teardown),
		cmocka_unit_test_teardown(used_index_past_in_flight_is_refused,
					  fake_device_teardown),
		cmocka_unit_test_teardown(silent_device_times_out,
					  fake_device_teardown),
		cmocka_unit_test_teardown(needs_reset_ends_the_wait_promptly,
					  fake_device_teardown),
		cmocka_unit_test_teardown(timeout_restarts_on_progress,
					  fake_device_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
