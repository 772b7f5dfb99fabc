// SPDX-License-Identifier: GPL-2.0-only
/*
 * What CVQ fault rules' actions do to a run (kmod/engine/vsb_fault_run.c), on a
 * split ring in fake memory: delays taken together wait for the longest,
 * a silent command silences one publish, a reordered completion follows
 * the next one (or ends the run), stall owes nothing, and a held entry
 * that cannot be written leaves nothing to give back twice.
 */

#include "unit.h"

#include "fake_driver.h"
#include "vsb_fault_run.h"

#define NUM 64

struct fixture {
	struct fmem *m;
	struct tq q;
	struct vsb_fault_run fr;
};

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->m = fmem_new();
	tq_init(&f->q, f->m, NUM, 0, false, false);
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;

	tq_fini(&f->q);
	fmem_free(f->m);
	free(f);
	return 0;
}

static struct vsb_fault_rule rule_of(u8 action, u32 delay_ns)
{
	return (struct vsb_fault_rule){ .action = action,
					.class = VSB_FAULT_RULE_ANY,
					.cmd = VSB_FAULT_RULE_ANY,
					.delay_ns = delay_ns };
}

/* Make a one-byte command available, take it, and note @rule on it. */
static u8 take(struct fixture *f, const struct vsb_fault_rule *rule)
{
	u64 buf = tbuf(f->m, 1, FMEM_RO, 0);

	fdrv_add_chain(&f->q.drv, FBUFS(RD(buf, 1)));
	assert_int_equal(tq_pop(&f->q), 1);
	return vsb_fault_run_note(&f->fr, rule);
}

/* Take a command with @rule and complete it; returns its head. */
static u16 serve(struct fixture *f, const struct vsb_fault_rule *rule)
{
	u8 action = take(f, rule);
	u16 head = f->q.chain.head;

	assert_int_equal(vsb_fault_run_push(&f->fr, &f->q.ring, &f->q.chain,
					    head + 100, action),
			 0);
	return head;
}

static void publish(struct fixture *f)
{
	assert_int_equal(vsb_ring_publish(&f->q.ring), 0);
}

static void no_rule_completes_in_turn_and_owes_nothing(void **state)
{
	struct fixture *f = *state;
	u16 a = serve(f, NULL), b = serve(f, NULL);

	assert_int_equal(take(f, NULL), VSB_FAULT_ACTION_UNSPEC);
	publish(f);
	fdrv_expect_used(&f->q.drv, a, a + 100);
	fdrv_expect_used(&f->q.drv, b, b + 100);
	fdrv_expect_no_used(&f->q.drv);
	assert_int_equal(vsb_fault_run_take_delay(&f->fr), 0);
	assert_false(vsb_fault_run_take_silent(&f->fr));
	assert_false(f->fr.held);
}

static void delays_together_wait_for_the_longest(void **state)
{
	struct fixture *f = *state;
	struct vsb_fault_rule d5 = rule_of(VSB_FAULT_ACTION_DELAY, 5000000);
	struct vsb_fault_rule d2 = rule_of(VSB_FAULT_ACTION_DELAY, 2000000);
	struct vsb_fault_rule nack = rule_of(VSB_FAULT_ACTION_NACK, 0);

	assert_int_equal(take(f, &d2), VSB_FAULT_ACTION_DELAY);
	assert_int_equal(take(f, &d5), VSB_FAULT_ACTION_DELAY);
	assert_int_equal(take(f, &d2), VSB_FAULT_ACTION_DELAY);
	assert_int_equal(take(f, &nack), VSB_FAULT_ACTION_NACK);
	assert_int_equal(vsb_fault_run_take_delay(&f->fr), 5000000);
	/* Paid once: the next publish owes nothing of it. */
	assert_int_equal(vsb_fault_run_take_delay(&f->fr), 0);
	assert_int_equal(take(f, &d2), VSB_FAULT_ACTION_DELAY);
	assert_int_equal(vsb_fault_run_take_delay(&f->fr), 2000000);
	assert_false(vsb_fault_run_take_silent(&f->fr));
}

static void silent_silences_one_publish(void **state)
{
	struct fixture *f = *state;
	struct vsb_fault_rule silent = rule_of(VSB_FAULT_ACTION_SILENT, 0);
	u16 a = serve(f, &silent);

	/* Completed like any other: only its notification is dropped. */
	publish(f);
	fdrv_expect_used(&f->q.drv, a, a + 100);
	assert_true(vsb_fault_run_take_silent(&f->fr));
	assert_false(vsb_fault_run_take_silent(&f->fr));
	assert_int_equal(vsb_fault_run_take_delay(&f->fr), 0);
}

static void stall_owes_the_publish_nothing(void **state)
{
	struct fixture *f = *state;
	struct vsb_fault_rule stall = rule_of(VSB_FAULT_ACTION_STALL, 0);
	struct vsb_fault_rule reset = rule_of(VSB_FAULT_ACTION_RESET, 0);

	assert_int_equal(take(f, &stall), VSB_FAULT_ACTION_STALL);
	assert_int_equal(take(f, &reset), VSB_FAULT_ACTION_RESET);
	assert_int_equal(vsb_fault_run_take_delay(&f->fr), 0);
	assert_false(vsb_fault_run_take_silent(&f->fr));
	assert_false(f->fr.held);
	assert_int_equal(vsb_fault_run_release(&f->fr, &f->q.ring), 0);
	publish(f);
	fdrv_expect_no_used(&f->q.drv);
}

static void reorder_follows_the_next_completion(void **state)
{
	struct fixture *f = *state;
	struct vsb_fault_rule reorder = rule_of(VSB_FAULT_ACTION_REORDER, 0);
	u16 a = serve(f, &reorder), b, c;

	/* Held: nothing of it reaches the ring yet. */
	publish(f);
	fdrv_expect_no_used(&f->q.drv);
	b = serve(f, NULL);
	c = serve(f, NULL);
	publish(f);
	fdrv_expect_used(&f->q.drv, b, b + 100);
	fdrv_expect_used(&f->q.drv, a, a + 100);
	fdrv_expect_used(&f->q.drv, c, c + 100);
	fdrv_expect_no_used(&f->q.drv);
	assert_false(f->fr.held);
}

static void one_held_at_a_time(void **state)
{
	struct fixture *f = *state;
	struct vsb_fault_rule reorder = rule_of(VSB_FAULT_ACTION_REORDER, 0);
	u16 a = serve(f, &reorder);
	/* A second reorder passes the held one instead of being held. */
	u16 b = serve(f, &reorder);
	u16 c = serve(f, &reorder);

	assert_true(f->fr.held);
	publish(f);
	fdrv_expect_used(&f->q.drv, b, b + 100);
	fdrv_expect_used(&f->q.drv, a, a + 100);
	fdrv_expect_no_used(&f->q.drv);
	/* The run's end completes the last one held, with its length. */
	assert_int_equal(vsb_fault_run_release(&f->fr, &f->q.ring), 0);
	assert_int_equal(vsb_fault_run_release(&f->fr, &f->q.ring), 0);
	publish(f);
	fdrv_expect_used(&f->q.drv, c, c + 100);
	fdrv_expect_no_used(&f->q.drv);
}

/*
 * The held entry is the one the ring cannot take (its stage is full and
 * the used ring read-only): the command that passed it is completed, so
 * its head is cleared, and vsb_ring_return_chain() gives nothing back.
 */
static void a_held_entry_that_cannot_be_written(void **state)
{
	struct fixture *f = *state;
	struct vsb_fault_rule reorder = rule_of(VSB_FAULT_ACTION_REORDER, 0);
	unsigned int i;
	u8 action;

	/* The stage takes 31 and the command that passes the held one. */
	for (i = 0; i < VSB_RING_BATCH - 1; i++)
		serve(f, NULL);
	serve(f, &reorder);
	fmem_set_perm(f->m, f->q.drv.used_ring_rgn, FMEM_RO);
	action = take(f, NULL);
	assert_int_equal(vsb_fault_run_push(&f->fr, &f->q.ring, &f->q.chain, 1,
					    action),
			 -EIO);
	assert_int_equal(f->q.chain.head, U16_MAX);
	assert_false(f->fr.held);
	/* 31 and the one that passed; the held one and no give-back. */
	vsb_ring_return_chain(&f->q.ring, &f->q.chain);
	assert_int_equal(f->q.ring.used_idx, VSB_RING_BATCH);
}

/* The command's own entry fails: it stays to be given back, still held. */
static void a_failed_completion_keeps_its_head(void **state)
{
	struct fixture *f = *state;
	struct vsb_fault_rule reorder = rule_of(VSB_FAULT_ACTION_REORDER, 0);
	unsigned int i;
	u8 action;
	u16 head;

	for (i = 0; i < VSB_RING_BATCH; i++)
		serve(f, NULL);
	serve(f, &reorder);
	fmem_set_perm(f->m, f->q.drv.used_ring_rgn, FMEM_RO);
	action = take(f, NULL);
	head = f->q.chain.head;
	assert_int_equal(vsb_fault_run_push(&f->fr, &f->q.ring, &f->q.chain, 1,
					    action),
			 -EIO);
	assert_int_equal(f->q.chain.head, head);
	assert_true(f->fr.held);
}

#define T(fn) \
	cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(no_rule_completes_in_turn_and_owes_nothing),
		T(delays_together_wait_for_the_longest),
		T(silent_silences_one_publish),
		T(stall_owes_the_publish_nothing),
		T(reorder_follows_the_next_completion),
		T(one_held_at_a_time),
		T(a_held_entry_that_cannot_be_written),
		T(a_failed_completion_keeps_its_head),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
