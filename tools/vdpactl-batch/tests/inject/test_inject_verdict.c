// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The case table and the verdicts: what counts as the expected behaviour
 * and what is reported as a deviation.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "inject/inject_obs.h"
#include "lib/compat.h"
#include "lib/cvq_cmd.h"
#include "lib/util.h"

static const struct inject_case *find(const char *name)
{
	const struct inject_case *c = inject_case_find(name);

	assert_non_null(c);
	return c;
}

static void test_names_are_unique_and_complete(void **state)
{
	unsigned int i, j;

	(void)state;
	assert_true(inject_case_count >= 30);
	for (i = 0; i < inject_case_count; i++) {
		const struct inject_case *c = &inject_cases[i];

		assert_non_null(c->name);
		assert_non_null(c->matrix);
		assert_true(strlen(c->sends) > 0);
		assert_true(strlen(c->expects) > 0);
		for (j = 0; j < i; j++)
			assert_string_not_equal(c->name, inject_cases[j].name);
		assert_ptr_equal(inject_case_find(c->name), c);
	}
}

static void test_find_by_prefix(void **state)
{
	(void)state;
	assert_string_equal(find("head")->name, "head-range");
	/* Ambiguous and unknown names find nothing. */
	assert_null(inject_case_find("indirect-"));
	assert_null(inject_case_find("no-such-case"));
	assert_null(inject_case_find(""));
}

/* An observation of @n chains, all completed with @len and @ack. */
static struct inject_obs served(unsigned int n, uint32_t len, uint8_t ack)
{
	struct inject_obs o = { .n_chains = n,
				.status_valid = true,
				.status = 0x0f };
	unsigned int i;

	for (i = 0; i < n; i++)
		o.chain[i] = (struct inject_chain_obs){ .completed = true,
							.used_len = len,
							.has_ack = true,
							.ack = ack };
	return o;
}

static void test_reset_expected(void **state)
{
	const struct inject_case *c = find("next-loop");
	struct inject_obs o = served(1, 0, CVQ_ACK_UNSET);

	(void)state;
	o.needs_reset = true;
	inject_verdict(c, &o);
	assert_true(o.ok);
	assert_string_equal(o.verdict, "ok");

	/* Dropped silently: stock's defect D. */
	o = (struct inject_obs){ .n_chains = 1, .status = 0x0f };
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "no DEVICE_NEEDS_RESET"));

	/* NEEDS_RESET, but an ack was written anyway. */
	o = served(1, 1, VIRTIO_NET_OK);
	o.needs_reset = true;
	inject_verdict(c, &o);
	assert_false(o.ok);
}

static void test_err_expected(void **state)
{
	const struct inject_case *c = find("cvq-unknown-class");
	struct inject_obs o = served(2, 1, VIRTIO_NET_OK);

	(void)state;
	o.chain[1].ack = VIRTIO_NET_ERR;
	inject_verdict(c, &o);
	assert_true(o.ok);

	/* A stale OK: stock's defect A. */
	o = served(2, 1, VIRTIO_NET_OK);
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "ack OK"));
}

static void test_mac_must_be_kept(void **state)
{
	const struct inject_case *c = find("cvq-mac-short");
	struct inject_obs o = served(1, 1, VIRTIO_NET_ERR);

	(void)state;
	o.mac_valid = true;
	memset(o.mac_before, 0x22, MAC_LEN);
	memset(o.mac_expected, 0x22, MAC_LEN);
	memcpy(o.mac_after, o.mac_before, MAC_LEN);
	inject_verdict(c, &o);
	assert_true(o.ok);
	/* Part of the MAC overwritten: stock's defect C. */
	o.mac_after[0] = 0x02;
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "config MAC"));
}

static void test_short_header(void **state)
{
	const struct inject_case *c = find("cvq-short-header");
	struct inject_obs o = served(1, 1, VIRTIO_NET_ERR);

	(void)state;
	inject_verdict(c, &o);
	assert_true(o.ok);
	/* Never completed: stock's defect B. */
	o = (struct inject_obs){ .n_chains = 1 };
	o.chain[0].has_ack = true;
	o.chain[0].ack = CVQ_ACK_UNSET;
	inject_verdict(c, &o);
	assert_false(o.ok);
}

static void test_refused(void **state)
{
	const struct inject_case *num = find("vring-num-over-max");
	const struct inject_case *cfg = find("config-get-range");
	struct inject_obs o = { 0 };

	(void)state;
	inject_obs_probe(&o, -EINVAL, "VHOST_SET_VRING_NUM %u", 8192);
	inject_verdict(num, &o);
	assert_true(o.ok);

	/* Accepted and served: stock's defect H. */
	o = served(1, 1, VIRTIO_NET_OK);
	inject_obs_probe(&o, 0, "VHOST_SET_VRING_NUM 512");
	inject_verdict(num, &o);
	assert_false(o.ok);

	o = (struct inject_obs){ 0 };
	inject_obs_probe(&o, -EINVAL, "GET a");
	inject_obs_probe(&o, -E2BIG, "GET b");
	inject_verdict(cfg, &o);
	assert_true(o.ok);
	inject_obs_probe(&o, 0, "GET c");
	inject_verdict(cfg, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "GET c"));
}

/* A notification step served, with @calls calls, wanting [min, max]. */
static void add_step(struct inject_obs *o, unsigned int calls,
		     unsigned int want_min, unsigned int want_max)
{
	o->notify[o->n_notify++] = (struct inject_notify_obs){
		.what = "step",
		.served = true,
		.calls = calls,
		.want_min = want_min,
		.want_max = want_max,
	};
}

static void test_notify(void **state)
{
	const struct inject_case *c = find("notify-flags");
	struct inject_obs o = served(1, 1, VIRTIO_NET_OK);

	(void)state;
	add_step(&o, 0, 0, 0);
	add_step(&o, 1, 1, UINT32_MAX);
	inject_verdict(c, &o);
	assert_true(o.ok);
	assert_string_equal(o.verdict, "ok");

	/* A call despite NO_INTERRUPT. */
	o.notify[0].calls = 2;
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "2 calls, want none"));

	/* No call where one is due. */
	o.notify[0].calls = 0;
	o.notify[1].calls = 0;
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "no call, want one"));

	/* A command not acked OK breaks it whatever the calls. */
	o.notify[1].calls = 1;
	o.notify[1].served = false;
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "not acked OK"));

	/* Nothing run is no pass. */
	o.n_notify = 0;
	inject_verdict(c, &o);
	assert_false(o.ok);
}

static void test_event_idx_needs_the_feature(void **state)
{
	(void)state;
	assert_true(find("notify-event-idx")->need &
		    BIT_ULL(VIRTIO_RING_F_EVENT_IDX));
	assert_false(find("notify-flags")->want &
		     BIT_ULL(VIRTIO_RING_F_EVENT_IDX));
}

static void test_mmap_must_fail(void **state)
{
	const struct inject_case *c = find("mmap-pgoff-range");
	struct inject_obs o = { 0 };

	(void)state;
	inject_obs_probe(&o, -EINVAL, "mmap pgoff 3");
	inject_obs_probe(&o, -ENOTSUP, "mmap pgoff 65535");
	inject_verdict(c, &o);
	assert_true(o.ok);

	o.probe[1].err = 0;
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "mmap pgoff 65535: mapped"));
}

static void test_accepted(void **state)
{
	const struct inject_case *c = find("config-before-features");
	struct inject_obs o = served(1, 1, VIRTIO_NET_OK);

	(void)state;
	inject_obs_probe(&o, 0, "GET_CONFIG");
	inject_verdict(c, &o);
	assert_true(o.ok);

	o.chain[0].ack = VIRTIO_NET_ERR;
	inject_verdict(c, &o);
	assert_false(o.ok);

	o.chain[0].ack = VIRTIO_NET_OK;
	inject_obs_probe(&o, -EIO, "netlink config get");
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "netlink config get"));

	o = (struct inject_obs){ 0 };
	inject_verdict(c, &o);
	assert_false(o.ok);
}

static void test_vring_base_expects_both_served(void **state)
{
	const struct inject_case *c = find("vring-base");
	struct inject_obs o = served(2, 1, VIRTIO_NET_OK);

	(void)state;
	assert_int_equal(c->expect, EXPECT_OK);
	inject_verdict(c, &o);
	assert_true(o.ok);
	o.chain[1].completed = false;
	inject_verdict(c, &o);
	assert_false(o.ok);
}

/* The packed cases: each needs RING_PACKED and states its verdict. */
static void test_packed_cases(void **state)
{
	static const struct {
		const char *name;
		enum inject_packed_fault fault;
		enum inject_expect expect;
	} want[] = {
		{ "packed-wrap-counter", PACKED_WRONG_WRAP, EXPECT_IGNORED },
		{ "packed-flags-mismatch", PACKED_FLAGS_MISMATCH,
		  EXPECT_RESET },
		{ "packed-id-reuse", PACKED_ID_REUSE, EXPECT_RESET },
		{ "packed-id-range", PACKED_ID_RANGE, EXPECT_RESET },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct inject_case *c = find(want[i].name);

		assert_int_equal(c->kind, KIND_PACKED);
		assert_int_equal(c->packed, want[i].fault);
		assert_int_equal(c->expect, want[i].expect);
		assert_true(c->need & BIT_ULL(VIRTIO_F_RING_PACKED));
		assert_true(c->want & BIT_ULL(VIRTIO_F_RING_PACKED));
		assert_int_equal(inject_case_rings(c), INJECT_RINGS_PACKED);
	}
}

/* Taken before it was made available properly: not ignored. */
static void test_ignored(void **state)
{
	const struct inject_case *c = find("packed-wrap-counter");
	struct inject_obs o = served(1, 1, VIRTIO_NET_OK);

	(void)state;
	inject_verdict(c, &o);
	assert_true(o.ok);
	o.early_touched = true;
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "previous lap"));
	/* Ignored, then not served when made available: also wrong. */
	o = served(1, 1, VIRTIO_NET_OK);
	o.chain[0].completed = false;
	inject_verdict(c, &o);
	assert_false(o.ok);
	o = served(1, 1, VIRTIO_NET_OK);
	o.needs_reset = true;
	inject_verdict(c, &o);
	assert_false(o.ok);
}

/* A packed case on its own ring; --ring picks only for the neutral. */
static void test_ring_of_a_case(void **state)
{
	enum vq_format ring;

	(void)state;
	assert_int_equal(inject_case_ring(find("packed-id-range"), false,
					  VQ_FORMAT_SPLIT, &ring),
			 0);
	assert_int_equal(ring, VQ_FORMAT_PACKED);
	assert_int_equal(inject_case_ring(find("packed-id-range"), true,
					  VQ_FORMAT_SPLIT, &ring),
			 -EOPNOTSUPP);
	assert_int_equal(inject_case_ring(find("next-loop"), false,
					  VQ_FORMAT_SPLIT, &ring),
			 0);
	assert_int_equal(ring, VQ_FORMAT_SPLIT);
	assert_int_equal(inject_case_ring(find("next-loop"), true,
					  VQ_FORMAT_PACKED, &ring),
			 -EOPNOTSUPP);
	assert_int_equal(inject_case_ring(find("stress-reset"), true,
					  VQ_FORMAT_PACKED, &ring),
			 0);
	assert_int_equal(ring, VQ_FORMAT_PACKED);
	assert_int_equal(inject_case_ring(find("config-get-range"), false,
					  VQ_FORMAT_PACKED, &ring),
			 0);
	assert_int_equal(ring, VQ_FORMAT_SPLIT);
}

static void test_skip_and_recovery(void **state)
{
	const struct inject_case *c = find("chain-num");
	struct inject_obs o = { .skipped = true };

	(void)state;
	strcpy(o.skip_reason, "no feature");
	inject_verdict(c, &o);
	assert_true(o.ok);
	assert_string_equal(o.verdict, "skip: no feature");

	o = served(1, 1, VIRTIO_NET_OK);
	o.recovery_run = true;
	strcpy(o.recovery, "the load failed");
	inject_verdict(c, &o);
	assert_false(o.ok);
	assert_non_null(strstr(o.verdict, "after reset"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_are_unique_and_complete),
		cmocka_unit_test(test_find_by_prefix),
		cmocka_unit_test(test_reset_expected),
		cmocka_unit_test(test_err_expected),
		cmocka_unit_test(test_mac_must_be_kept),
		cmocka_unit_test(test_short_header),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_notify),
		cmocka_unit_test(test_event_idx_needs_the_feature),
		cmocka_unit_test(test_mmap_must_fail),
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_vring_base_expects_both_served),
		cmocka_unit_test(test_skip_and_recovery),
		cmocka_unit_test(test_packed_cases),
		cmocka_unit_test(test_ignored),
		cmocka_unit_test(test_ring_of_a_case),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
