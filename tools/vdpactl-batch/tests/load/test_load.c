// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The load engine (load/load.c) against the fake device: what a load
 * sends and counts in each mode, and how it stops on a NACK, a bad used
 * entry, a silent device or one that needs a reset.
 */
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "lib/compat.h"
#include "lib/diag.h"
#include "lib/util.h"
#include "load/load.h"
#include "tests/lib/fake_device.h"

#define COUNT 30
#define ROUNDS 5

static struct load_config config(enum load_mode mode, enum load_kick kick,
				 enum load_wait wait)
{
	return (struct load_config){
		.count = COUNT,
		.rounds = ROUNDS,
		.timeout_ms = 2000,
		.mode = mode,
		.kick = kick,
		.wait = wait,
		.profile = LOAD_PROFILE_MAC,
	};
}

static struct load_session *open_session(const struct load_config *cfg)
{
	struct load_session *s = NULL;

	assert_int_equal(load_session_open(&s, "fake0", "/dev/fake", cfg, 0),
			 0);
	assert_non_null(s);
	return s;
}

/* Runs @cfg->rounds loads; returns the first error. */
static int run_rounds(struct load_session *s, const struct load_config *cfg)
{
	unsigned int i;
	uint64_t ns;
	int err;

	for (i = 0; i < cfg->rounds; i++) {
		err = load_session_run(s, cfg->mode, &ns);
		if (err)
			return err;
		assert_true(ns > 0);
	}
	return 0;
}

static void serial_loads_one_batch_per_command(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_SERIAL, LOAD_KICK_EACH, LOAD_WAIT_POLL);
	const struct load_counters *c;
	struct load_session *s;

	(void)state;
	fake_device_reset();
	s = open_session(&cfg);
	assert_int_equal(load_session_info(s)->cvq_index, 2);
	assert_int_equal(load_session_info(s)->batch_max, 32);
	assert_int_equal(run_rounds(s, &cfg), 0);
	c = load_session_counters(s);
	assert_int_equal(c->loads, ROUNDS);
	assert_int_equal(c->commands, COUNT * ROUNDS);
	assert_int_equal(c->batches, COUNT * ROUNDS);
	assert_int_equal(c->kicks, COUNT * ROUNDS);
	load_session_close(s);
	assert_int_equal(fake_device_stats().served, COUNT * ROUNDS);
	assert_int_equal(fake_device_stats().by_class[VIRTIO_NET_CTRL_MAC],
			 COUNT * ROUNDS);
}

/* 30 commands fit in one batch of a 64-entry ring; one kick per load. */
static void parallel_kick_once_one_batch_per_load(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_PARALLEL, LOAD_KICK_ONCE, LOAD_WAIT_POLL);
	const struct load_counters *c;
	struct load_session *s;

	(void)state;
	fake_device_reset();
	s = open_session(&cfg);
	assert_int_equal(run_rounds(s, &cfg), 0);
	c = load_session_counters(s);
	assert_int_equal(c->commands, COUNT * ROUNDS);
	assert_int_equal(c->batches, ROUNDS);
	assert_int_equal(c->kicks, ROUNDS);
	/* Warm loads never restart the device. */
	assert_int_equal(c->cold_starts, 0);
	load_session_close(s);
	assert_int_equal(fake_device_stats().served, COUNT * ROUNDS);
	assert_int_equal(fake_device_stats().stops, 0);
}

/* A ring of 8 holds 4 commands: 30 take 8 batches. */
static void parallel_batches_bounded_by_the_ring(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_PARALLEL, LOAD_KICK_ONCE, LOAD_WAIT_POLL);
	struct load_session *s;

	(void)state;
	fake_device_reset();
	cfg.ring_size = 8;
	s = open_session(&cfg);
	assert_int_equal(load_session_info(s)->batch_max, 4);
	assert_int_equal(run_rounds(s, &cfg), 0);
	assert_int_equal(load_session_counters(s)->batches, 8 * ROUNDS);
	load_session_close(s);
}

static void call_wait_sleeps_on_the_eventfd(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_SERIAL, LOAD_KICK_EACH, LOAD_WAIT_CALL);
	struct load_session *s;

	(void)state;
	fake_device_reset();
	fake_config.notify = true;
	fake_config.delay_ms = 1;
	cfg.rounds = 1;
	s = open_session(&cfg);
	assert_int_equal(run_rounds(s, &cfg), 0);
	assert_true(load_session_counters(s)->sleeps >= 1);
	load_session_close(s);
}

struct failure_case {
	enum fake_mode mode;
	int err;
};

static void failures_stop_the_load(void **state)
{
	static const struct failure_case cases[] = {
		{ FAKE_ERR, -EIO },
		{ FAKE_BAD_LEN, -EMSGSIZE },
		{ FAKE_IDX_JUMP, -EPROTO },
		{ FAKE_SILENT, -ETIMEDOUT },
		{ FAKE_NEEDS_RESET, -ENETRESET },
		/* not "used length 0": the cause is the reset */
		{ FAKE_GIVE_BACK, -ENETRESET },
	};
	struct load_config cfg =
		config(LOAD_MODE_SERIAL, LOAD_KICK_EACH, LOAD_WAIT_POLL);
	struct load_session *s;
	unsigned int i;
	uint64_t ns;

	(void)state;
	/* Long enough for a loaded machine to run the device thread. */
	cfg.timeout_ms = 1000;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_device_reset();
		fake_config.mode = cases[i].mode;
		s = open_session(&cfg);
		assert_int_equal(load_session_run(s, cfg.mode, &ns),
				 cases[i].err);
		load_session_close(s);
	}
}

/* A device that gave up fails the load in one status poll, not at the timeout. */
static void needs_reset_fails_before_the_timeout(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_PARALLEL, LOAD_KICK_ONCE, LOAD_WAIT_CALL);
	struct load_session *s;
	uint64_t ns, t0;

	(void)state;
	fake_device_reset();
	fake_config.mode = FAKE_NEEDS_RESET;
	cfg.timeout_ms = 20000;
	s = open_session(&cfg);
	t0 = now_ms();
	assert_int_equal(load_session_run(s, cfg.mode, &ns), -ENETRESET);
	assert_true(now_ms() - t0 < 5000);
	load_session_close(s);
}

/* The timeout is per completion: a slow but steady device passes. */
static void slow_device_within_the_timeout_per_command(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_PARALLEL, LOAD_KICK_ONCE, LOAD_WAIT_POLL);
	struct load_session *s;
	uint64_t ns;

	(void)state;
	fake_device_reset();
	fake_config.delay_ms = 50;
	cfg.timeout_ms = 300;
	cfg.count = 10; /* 500 ms for the batch */
	s = open_session(&cfg);
	assert_int_equal(load_session_run(s, cfg.mode, &ns), 0);
	assert_true(ns >= 500 * 1000000ULL);
	/* A warm load's whole time is its commands'. */
	assert_int_equal(load_session_counters(s)->cmds_ns, ns);
	load_session_close(s);
}

/*
 * Cold loads: each stops the device and starts it again around its
 * commands, which run at DRIVER_OK before the data queues are enabled;
 * the commands' part is timed inside the whole.
 */
static void cold_loads_start_the_device_each_time(void **state)
{
	enum load_mode modes[] = { LOAD_MODE_SERIAL, LOAD_MODE_PARALLEL };
	struct load_config cfg;
	struct fake_stats fs;
	struct load_session *s;
	unsigned int m, i;
	uint64_t ns, cmds;

	(void)state;
	for (m = 0; m < 2; m++) {
		fake_device_reset();
		cfg = config(modes[m], LOAD_KICK_EACH, LOAD_WAIT_POLL);
		cfg.cold = true;
		s = open_session(&cfg);
		for (i = 0; i < ROUNDS; i++) {
			cmds = load_session_counters(s)->cmds_ns;
			assert_int_equal(load_session_run(s, cfg.mode, &ns), 0);
			cmds = load_session_counters(s)->cmds_ns - cmds;
			assert_true(cmds > 0);
			assert_true(cmds <= ns);
		}
		assert_int_equal(load_session_counters(s)->cold_starts, ROUNDS);
		assert_int_equal(load_session_counters(s)->commands,
				 COUNT * ROUNDS);
		fs = fake_device_stats();
		assert_int_equal(fs.stops, ROUNDS);
		assert_int_equal(fs.cold_starts, ROUNDS);
		assert_int_equal(fs.loads_in_order, ROUNDS);
		assert_int_equal(fs.data_enables, ROUNDS);
		assert_int_equal(fs.served, COUNT * ROUNDS);
		load_session_close(s);
	}
}

/*
 * Every mode on a packed ring of 6 (not a power of 2: 3 commands a
 * batch), so that chains start at every slot and loads cross the ring's
 * end on many laps; cold loads start the ring afresh each time.
 */
static void every_mode_on_a_packed_ring(void **state)
{
	const enum load_mode modes[] = { LOAD_MODE_SERIAL, LOAD_MODE_PARALLEL };
	const enum load_kick kicks[] = { LOAD_KICK_EACH, LOAD_KICK_ONCE };
	const enum load_wait waits[] = { LOAD_WAIT_POLL, LOAD_WAIT_CALL };
	struct load_config cfg;
	struct load_session *s;
	unsigned int m, k, w, cold;

	(void)state;
	for (m = 0; m < 2; m++)
		for (k = 0; k < 2; k++)
			for (w = 0; w < 2; w++)
				for (cold = 0; cold < 2; cold++) {
					fake_device_reset();
					fake_config.notify = true;
					cfg = config(modes[m], kicks[k],
						     waits[w]);
					cfg.ring = VQ_FORMAT_PACKED;
					cfg.ring_size = 6;
					cfg.cold = cold;
					s = open_session(&cfg);
					assert_int_equal(s ? 0 : 1, 0);
					assert_int_equal(
						load_session_info(s)->batch_max,
						3);
					assert_int_equal(run_rounds(s, &cfg),
							 0);
					assert_true(
						load_session_info(s)
							->driver_features &
						BIT_ULL(VIRTIO_F_RING_PACKED));
					if (modes[m] == LOAD_MODE_PARALLEL)
						assert_int_equal(
							load_session_counters(s)
								->batches,
							10 * ROUNDS);
					load_session_close(s);
					assert_int_equal(
						fake_device_stats().served,
						COUNT * ROUNDS);
				}
}

/* A device that returns a buffer id it was never given stops the load. */
static void packed_bad_id_stops_the_load(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_PARALLEL, LOAD_KICK_ONCE, LOAD_WAIT_POLL);
	struct load_session *s;
	uint64_t ns;

	(void)state;
	fake_device_reset();
	fake_config.mode = FAKE_IDX_JUMP; /* id = ring size */
	cfg.ring = VQ_FORMAT_PACKED;
	s = open_session(&cfg);
	assert_int_equal(load_session_run(s, cfg.mode, &ns), -EPROTO);
	load_session_close(s);
}

/* A failed start leaves the session unusable, as a failed command does. */
static void cold_start_failure_breaks_the_session(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_SERIAL, LOAD_KICK_EACH, LOAD_WAIT_POLL);
	struct load_session *s;
	uint64_t ns;

	(void)state;
	fake_device_reset();
	fake_config.cold_start_err = -EINVAL;
	cfg.cold = true;
	s = open_session(&cfg);
	assert_int_equal(load_session_run(s, cfg.mode, &ns), -EINVAL);
	assert_int_equal(load_session_run(s, cfg.mode, &ns), -EIO);
	assert_int_equal(load_session_counters(s)->loads, 0);
	assert_int_equal(fake_device_stats().cold_starts, 1);
	load_session_close(s);
}

/*
 * A device offering RSS: the qemu profile negotiates it and builds its
 * RSS_CONFIG from the config space's limits (a 64-entry table, the hash
 * types Linux enables, QEMU's 40-byte key of the 52 allowed); the device
 * sees it among the MQ commands.
 */
static void rss_config_from_the_config_space(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_PARALLEL, LOAD_KICK_EACH, LOAD_WAIT_POLL);
	const struct cvq_cmd *rss;
	struct load_session *s;
	uint64_t ns;

	(void)state;
	fake_device_reset();
	fake_config.extra_features = BIT_ULL(VIRTIO_NET_F_MQ) |
				     BIT_ULL(VIRTIO_NET_F_RSS) |
				     BIT_ULL(VIRTIO_NET_F_NOTF_COAL);
	fake_config.net_config.max_virtqueue_pairs = htole16(2);
	fake_config.net_config.rss_max_key_size = 52;
	fake_config.net_config.rss_max_indirection_table_length = htole16(64);
	fake_config.net_config.supported_hash_types =
		htole32(VIRTIO_NET_RSS_HASH_TYPE_TCPv4 |
			VIRTIO_NET_RSS_HASH_TYPE_IP_EX);
	cfg.profile = LOAD_PROFILE_QEMU;
	s = open_session(&cfg);
	/* Coalescing is not the qemu profile's. */
	assert_int_equal(load_session_info(s)->driver_features &
				 (BIT_ULL(VIRTIO_NET_F_RSS) |
				  BIT_ULL(VIRTIO_NET_F_NOTF_COAL)),
			 BIT_ULL(VIRTIO_NET_F_RSS));
	rss = &load_session_commands(s)[3];
	assert_int_equal(rss->class, VIRTIO_NET_CTRL_MQ);
	assert_int_equal(rss->cmd, VIRTIO_NET_CTRL_MQ_RSS_CONFIG);
	assert_int_equal(rss->data[0], VIRTIO_NET_RSS_HASH_TYPE_TCPv4);
	assert_int_equal(rss->data[4], 63);
	assert_int_equal(rss->data[8 + 2 * 64], 2);
	assert_int_equal(rss->data[8 + 2 * 64 + 2], 40);
	assert_int_equal(load_session_run(s, cfg.mode, &ns), 0);
	load_session_close(s);
	/* MQ_VQ_PAIRS_SET and RSS_CONFIG. */
	assert_int_equal(fake_device_stats().by_class[VIRTIO_NET_CTRL_MQ], 2);
}

/* The last error the engine reported. */
static char last_error[DIAG_LINE_LEN];

static void keep_error(enum diag_level level, const char *line)
{
	if (level == DIAG_ERR)
		snprintf(last_error, sizeof(last_error), "%s", line);
}

static void expect_error(const char *want)
{
	if (!strstr(last_error, want))
		fail_msg("error lacks \"%s\": %s", want, last_error);
}

/* The @k-th refusal kept is load @load's plan command @i (from 0). */
static void expect_nack(const struct load_session *s, unsigned int k,
			uint64_t load, unsigned int i)
{
	const struct load_nack *n = &load_session_nacks(s)->first[k];
	char text[LOAD_NACK_TEXT_LEN];

	cvq_cmd_describe(&load_session_commands(s)[i], text, sizeof(text));
	assert_int_equal(n->load, load);
	assert_int_equal(n->index, i + 1);
	assert_int_equal(n->class, VIRTIO_NET_CTRL_MAC);
	assert_int_equal(n->cmd, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	assert_string_equal(n->text, text);
}

/*
 * A parallel load of 30 (one batch) on a device that completes a batch
 * last command first and refuses every 7th command.
 */
static struct load_session *open_refused(bool continue_after_nack)
{
	struct load_config cfg =
		config(LOAD_MODE_PARALLEL, LOAD_KICK_ONCE, LOAD_WAIT_POLL);

	fake_device_reset();
	fake_config.reverse = true;
	fake_config.nack_every = 7;
	cfg.continue_after_nack = continue_after_nack;
	return open_session(&cfg);
}

/*
 * The device of open_refused(), with continue_after_nack: each refusal
 * is attributed by the used entry's id to its own command (7, 14, ... of
 * the plan), not to the place it came back in, and the load goes on; the
 * refusals are kept in the order they came back, and the last load's
 * acks say which it refused.
 */
static void nacks_named_by_id_when_completed_out_of_order(void **state)
{
	/* By plan index (from 0), as they came back. */
	static const unsigned int load1[] = { 27, 20, 13, 6 };
	static const unsigned int load2[] = { 25, 18, 11, 4 };
	const struct load_nacks *nacks;
	struct load_session *s;
	unsigned int k;
	uint64_t ns;

	(void)state;
	s = open_refused(true);
	assert_int_equal(load_session_run(s, LOAD_MODE_PARALLEL, &ns), 0);
	assert_int_equal(load_session_run(s, LOAD_MODE_PARALLEL, &ns), 0);
	nacks = load_session_nacks(s);
	/* Commands 7 to 56 of the 60 taken. */
	assert_int_equal(nacks->count, 8);
	assert_int_equal(nacks->kept, 8);
	for (k = 0; k < 4; k++)
		expect_nack(s, k, 1, load1[k]);
	for (k = 0; k < 4; k++)
		expect_nack(s, 4 + k, 2, load2[k]);
	for (k = 0; k < COUNT; k++)
		assert_int_equal(load_session_acks(s)[k],
				 k % 7 == 4 ? VIRTIO_NET_ERR : VIRTIO_NET_OK);
	assert_int_equal(load_session_counters(s)->commands, 2 * COUNT);
	load_session_close(s);
}

/*
 * The device of open_refused(), without continue_after_nack: the first
 * refusal that comes back stops the load, named by its id: in a reversed
 * batch that is command 28.
 */
static void nack_stops_the_load_naming_its_command(void **state)
{
	struct load_session *s;
	uint64_t ns;

	(void)state;
	diag_set_sink(keep_error);
	s = open_refused(false);
	assert_int_equal(load_session_run(s, LOAD_MODE_PARALLEL, &ns), -EIO);
	expect_error("fake0: load 1, command 28 (MAC_ADDR_SET ");
	expect_error("): device acked ERR (1)");
	assert_int_equal(load_session_nacks(s)->count, 0);
	load_session_close(s);
	diag_set_sink(NULL);
}

/*
 * A device that stops serving its CVQ (a stall) ends the load at the
 * timeout, which names the oldest command not completed and how many of
 * the load's did not complete; in either mode.
 */
static void stalled_device_times_out_saying_how_many(void **state)
{
	static const enum load_mode modes[] = { LOAD_MODE_SERIAL,
						LOAD_MODE_PARALLEL };
	struct load_config cfg;
	struct load_session *s;
	unsigned int m;
	uint64_t ns, t0;

	(void)state;
	diag_set_sink(keep_error);
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		fake_device_reset();
		fake_config.stall_after = 10;
		cfg = config(modes[m], LOAD_KICK_ONCE, LOAD_WAIT_CALL);
		cfg.timeout_ms = 200;
		s = open_session(&cfg);
		t0 = now_ms();
		assert_int_equal(load_session_run(s, cfg.mode, &ns),
				 -ETIMEDOUT);
		assert_true(now_ms() - t0 < 5000);
		expect_error("fake0: load 1, command 11 (MAC_ADDR_SET ");
		expect_error("): no completion within 200 ms: 20 of the load's "
			     "30 commands did not complete");
		load_session_close(s);
	}
	diag_set_sink(NULL);
}

/*
 * A device that completes without notifying (a "silent" fault) does not
 * hang a load that sleeps on the call eventfd: the sleep is cut into
 * status polls, each of which looks at the ring.
 */
static void completions_without_notification_are_seen(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_SERIAL, LOAD_KICK_EACH, LOAD_WAIT_CALL);
	struct load_session *s;
	uint64_t ns;

	(void)state;
	fake_device_reset();
	fake_config.notify = false;
	cfg.count = 5;
	cfg.timeout_ms = 1000;
	s = open_session(&cfg);
	assert_int_equal(load_session_run(s, cfg.mode, &ns), 0);
	assert_true(ns < 1000 * 1000000ULL);
	load_session_close(s);
	assert_int_equal(fake_device_stats().served, 5);
}

static void open_failure_is_returned(void **state)
{
	struct load_config cfg =
		config(LOAD_MODE_SERIAL, LOAD_KICK_EACH, LOAD_WAIT_POLL);
	struct load_session *s = NULL;

	(void)state;
	fake_device_reset();
	fake_config.negotiate_err = -EBUSY;
	assert_int_equal(load_session_open(&s, "fake0", "/dev/fake", &cfg, 0),
			 -EBUSY);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(serial_loads_one_batch_per_command,
					  fake_device_teardown),
		cmocka_unit_test_teardown(parallel_kick_once_one_batch_per_load,
					  fake_device_teardown),
		cmocka_unit_test_teardown(parallel_batches_bounded_by_the_ring,
					  fake_device_teardown),
		cmocka_unit_test_teardown(call_wait_sleeps_on_the_eventfd,
					  fake_device_teardown),
		cmocka_unit_test_teardown(failures_stop_the_load,
					  fake_device_teardown),
		cmocka_unit_test_teardown(needs_reset_fails_before_the_timeout,
					  fake_device_teardown),
		cmocka_unit_test_teardown(
			slow_device_within_the_timeout_per_command,
			fake_device_teardown),
		cmocka_unit_test_teardown(cold_loads_start_the_device_each_time,
					  fake_device_teardown),
		cmocka_unit_test_teardown(cold_start_failure_breaks_the_session,
					  fake_device_teardown),
		cmocka_unit_test_teardown(rss_config_from_the_config_space,
					  fake_device_teardown),
		cmocka_unit_test_teardown(every_mode_on_a_packed_ring,
					  fake_device_teardown),
		cmocka_unit_test_teardown(packed_bad_id_stops_the_load,
					  fake_device_teardown),
		cmocka_unit_test_teardown(open_failure_is_returned,
					  fake_device_teardown),
		cmocka_unit_test_teardown(
			nacks_named_by_id_when_completed_out_of_order,
			fake_device_teardown),
		cmocka_unit_test_teardown(nack_stops_the_load_naming_its_command,
					  fake_device_teardown),
		cmocka_unit_test_teardown(
			stalled_device_times_out_saying_how_many,
			fake_device_teardown),
		cmocka_unit_test_teardown(
			completions_without_notification_are_seen,
			fake_device_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
