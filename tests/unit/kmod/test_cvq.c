// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control queue commands (kmod/engine/vsb_cvq.c) sent by the fake driver: framing
 * in any descriptor split, the MAC_ADDR_SET and ANNOUNCE commands, ERR for
 * anything unknown or malformed, and the framing faults (bad-input.md,
 * items 23-27; vhost-vdpa-cvq-driver.md, section 3). Every other class is
 * in test_cvq_classes.c. The device negotiated every feature the CVQ knows
 * (FCVQ_ALL_FEATURES) unless a test says otherwise.
 */

#include "unit.h"

#include "fake_cvq.h"

#define MAC_NEW 0x02, 0x11, 0x22, 0x33, 0x44, 0x55

static const u8 mac_old[ETH_ALEN] = { FCVQ_MAC };
static const u8 mac_new[ETH_ALEN] = { MAC_NEW };
static const u8 mac_set[] = { VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET,
			      MAC_NEW };
static const u8 announce_ack[] = { VIRTIO_NET_CTRL_ANNOUNCE,
				   VIRTIO_NET_CTRL_ANNOUNCE_ACK };

static void assert_mac(struct fcvq *f, const u8 *mac)
{
	assert_memory_equal(f->ctrl.mac, mac, ETH_ALEN);
}

static void header_split_1_1_across_descriptors(void **state)
{
	struct fcvq *f = *state;

	f->ctrl.announce_pending = true;
	fcvq_send_split(f, announce_ack, 2, SPLIT(1, 1), SPLIT(1), FMEM_RW);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_false(f->ctrl.announce_pending);

	fcvq_send_split(f, mac_set, 8, SPLIT(1, 1, 6), SPLIT(1), FMEM_RW);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_mac(f, mac_new);
}

static void header_and_data_in_one_descriptor(void **state)
{
	struct fcvq *f = *state;

	fcvq_send_split(f, mac_set, 8, SPLIT(8), SPLIT(1), FMEM_RW);
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_mac(f, mac_new);
}

/* The device wrote the ack byte and nothing else of the in[] buffers. */
static void assert_only_ack_written(struct fcvq *f, const u32 *in,
				    unsigned int nr_in)
{
	u32 i, len = 0;

	for (i = 0; i < nr_in; i++)
		len += in[i] + FCVQ_GAP;
	for (i = 1; i < len; i++) {
		u8 v = *(u8 *)fmem_ptr(f->m, f->ack_addr + i, 1);

		if (v != FCVQ_ACK_PRESET && v != FCVQ_GAP_FILL)
			fail_msg("writable byte %u written", i);
	}
}

/* The device must not assume any arrangement ("Message Framing"). */
static void any_descriptor_split_parses(void **state)
{
	/* { count, sizes... } */
	static const u32 outs[][9] = {
		{ 1, 8 },	   { 2, 1, 7 },
		{ 2, 2, 6 },	   { 3, 1, 1, 6 },
		{ 2, 3, 5 },	   { 3, 7, 1 },
		{ 4, 1, 2, 3, 2 }, { 8, 1, 1, 1, 1, 1, 1, 1, 1 },
	};
	static const u32 ins[][4] = {
		{ 1, 1 }, { 2, 1, 1 }, { 1, 4 }, { 2, 3, 2 }, { 3, 1, 1, 1 },
	};
	struct fcvq *f = *state;
	unsigned int o, i;

	for (o = 0; o < ARRAY_SIZE(outs); o++) {
		for (i = 0; i < ARRAY_SIZE(ins); i++) {
			memcpy(f->ctrl.mac, mac_old, ETH_ALEN);
			fcvq_send_split(f, mac_set, 8, outs[o] + 1, outs[o][0],
					ins[i] + 1, ins[i][0], FMEM_RW);
			fcvq_expect_ack(f, VIRTIO_NET_OK);
			assert_mac(f, mac_new);
			assert_only_ack_written(f, ins[i] + 1, ins[i][0]);
		}
	}
}

static void mac_addr_set_6_bytes_ok(void **state)
{
	struct fcvq *f = *state;

	fcvq_send(f, mac_set, sizeof(mac_set));
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_int_equal(f->res.class, VIRTIO_NET_CTRL_MAC);
	assert_int_equal(f->res.cmd, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	assert_int_equal(f->res.changed, VSB_CTRL_CHANGED_MAC);
	assert_mac(f, mac_new);
	assert_false(f->ctrl.announce_pending);
}

/* A fault rule's NACK: the ack byte says ERR, and nothing changes. */
static void nack_refuses_what_was_good(void **state)
{
	struct fcvq *f = *state;

	f->nack = true;
	fcvq_send(f, mac_set, sizeof(mac_set));
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_int_equal(f->res.used_len, 1);
	assert_int_equal(f->res.changed, 0);
	assert_false(f->res.redundant);
	assert_mac(f, mac_old);
	/* Then the same command, not refused, is done. */
	f->nack = false;
	fcvq_send(f, mac_set, sizeof(mac_set));
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_mac(f, mac_new);
}

/* An ERR already: the ack is written once, as it would be anyway. */
static void nack_of_an_err_writes_once(void **state)
{
	static const u8 bad_class[] = { 200, 0 };
	struct fcvq *f = *state;

	f->nack = true;
	fcvq_send(f, bad_class, sizeof(bad_class));
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_int_equal(fmem_writes(f->m, f->in_rgn), 1);
}

/*
 * A fault rule reads the header first: of a command the device can
 * answer; nothing of one it would fail as badly framed, and nothing is
 * written either way.
 */
static void peek_reads_the_header_only(void **state)
{
	struct fcvq *f = *state;
	u32 len = sizeof(mac_set), one = 1;
	u8 class = 0xee, cmd = 0xee;

	fcvq_offer(f, mac_set, len, &len, 1, SPLIT(1), FMEM_RW);
	assert_int_equal(tq_pop(&f->q), 1);
	fmem_reset_counts(f->m);
	assert_int_equal(vsb_cvq_peek(&f->q.ring, &f->q.chain, &class, &cmd),
			 0);
	assert_int_equal(class, VIRTIO_NET_CTRL_MAC);
	assert_int_equal(cmd, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	assert_int_equal(fmem_writes(f->m, f->in_rgn), 0);
	assert_int_equal(fcvq_ack_byte(f), FCVQ_ACK_PRESET);

	fcvq_offer(f, mac_set, 1, &one, 1, SPLIT(1), FMEM_RW);
	assert_int_equal(tq_pop(&f->q), 1);
	assert_int_equal(vsb_cvq_peek(&f->q.ring, &f->q.chain, &class, &cmd),
			 -EINVAL);
}

static void mac_addr_set_wrong_size_err(void **state)
{
	struct fcvq *f = *state;
	u8 cmd[2 + 7];

	memcpy(cmd, mac_set, sizeof(mac_set));
	cmd[8] = 0x66;
	/* 5 and 7 data bytes, and none */
	fcvq_send(f, cmd, 2 + 5);
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_int_equal(f->res.changed, 0);
	assert_mac(f, mac_old);
	fcvq_send(f, cmd, 2 + 7);
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_int_equal(f->res.changed, 0);
	assert_mac(f, mac_old);
	fcvq_send(f, cmd, 2);
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_mac(f, mac_old);
}

static void mac_addr_set_without_feature_err(void **state)
{
	struct fcvq *f = *state;

	f->features &= ~FEATURE(VIRTIO_NET_F_CTRL_MAC_ADDR);
	fcvq_send(f, mac_set, sizeof(mac_set));
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_int_equal(f->res.changed, 0);
	assert_mac(f, mac_old);
}

/* Classes the device does not implement, with every feature negotiated. */
static void unknown_class_err(void **state)
{
	static const u8 classes[] = { VIRTIO_NET_CTRL_GUEST_OFFLOADS + 1, 7, 8,
				      0x7f, 0xff };
	struct fcvq *f = *state;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		u8 cmd[] = { classes[i], 0, 1, 0 };

		fcvq_send(f, cmd, sizeof(cmd));
		fcvq_expect_ack(f, VIRTIO_NET_ERR);
		assert_int_equal(f->res.class, classes[i]);
		assert_int_equal(f->res.changed, 0);
	}
	assert_mac(f, mac_old);
}

static void unknown_command_err(void **state)
{
	static const u8 cmds[][2] = {
		{ VIRTIO_NET_CTRL_MAC, 2 },
		{ VIRTIO_NET_CTRL_MAC, 3 },
		{ VIRTIO_NET_CTRL_MAC, 0xff },
		{ VIRTIO_NET_CTRL_ANNOUNCE, 1 },
		{ VIRTIO_NET_CTRL_ANNOUNCE, 0xff },
	};
	struct fcvq *f = *state;
	unsigned int i;

	f->ctrl.announce_pending = true;
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		u8 cmd[8];

		memcpy(cmd, mac_set, sizeof(cmd));
		memcpy(cmd, cmds[i], 2);
		fcvq_send(f, cmd, cmds[i][0] == VIRTIO_NET_CTRL_MAC ? 8 : 2);
		fcvq_expect_ack(f, VIRTIO_NET_ERR);
		assert_int_equal(f->res.cmd, cmds[i][1]);
		assert_int_equal(f->res.changed, 0);
	}
	assert_mac(f, mac_old);
	assert_true(f->ctrl.announce_pending);
}

/* Stock defect A: a stale OK after a success. */
static void unknown_after_ok_err_never_stale(void **state)
{
	static const u8 bad_class[] = { 0x42, 0 };
	static const u8 bad_cmd[] = {
		VIRTIO_NET_CTRL_MAC, 0x42, 1, 2, 3, 4, 5, 6
	};
	struct fcvq *f = *state;
	unsigned int round;

	for (round = 0; round < 3; round++) {
		fcvq_send(f, mac_set, sizeof(mac_set));
		fcvq_expect_ack(f, VIRTIO_NET_OK);
		fcvq_send(f, bad_class, sizeof(bad_class));
		fcvq_expect_ack(f, VIRTIO_NET_ERR);
		fcvq_send(f, mac_set, sizeof(mac_set));
		fcvq_expect_ack(f, VIRTIO_NET_OK);
		fcvq_send(f, bad_cmd, sizeof(bad_cmd));
		fcvq_expect_ack(f, VIRTIO_NET_ERR);
		assert_int_equal(f->res.changed, 0);
		assert_mac(f, mac_new);
	}
}

static void announce_ack_ok_clears_pending(void **state)
{
	struct fcvq *f = *state;

	f->ctrl.announce_pending = true;
	fcvq_send(f, announce_ack, sizeof(announce_ack));
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_false(f->ctrl.announce_pending);
	assert_int_equal(f->res.changed, VSB_CTRL_CHANGED_STATUS);
	assert_mac(f, mac_old);
	/* nothing pending: still OK, nothing changed */
	fcvq_send(f, announce_ack, sizeof(announce_ack));
	fcvq_expect_ack(f, VIRTIO_NET_OK);
	assert_false(f->ctrl.announce_pending);
	assert_int_equal(f->res.changed, 0);
}

static void announce_ack_without_feature_err(void **state)
{
	struct fcvq *f = *state;

	f->features &= ~FEATURE(VIRTIO_NET_F_GUEST_ANNOUNCE);
	f->ctrl.announce_pending = true;
	fcvq_send(f, announce_ack, sizeof(announce_ack));
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_true(f->ctrl.announce_pending);
	assert_int_equal(f->res.changed, 0);
}

static void announce_ack_with_data_err(void **state)
{
	static const u8 cmd[] = { VIRTIO_NET_CTRL_ANNOUNCE,
				  VIRTIO_NET_CTRL_ANNOUNCE_ACK, 0 };
	struct fcvq *f = *state;

	f->ctrl.announce_pending = true;
	fcvq_send(f, cmd, sizeof(cmd));
	fcvq_expect_ack(f, VIRTIO_NET_ERR);
	assert_true(f->ctrl.announce_pending);
	assert_int_equal(f->res.changed, 0);
}

/*
 * A command whose header was never read has no class: it must not count
 * as one of the classes, RX (class 0) least of all.
 */
#define assert_no_class(f) \
	assert_in_range((f)->res.class, VSB_CVQ_CLASSES, 0xff)

/* Stock defect B: a short header left the chain uncompleted. */
static void header_under_2_bytes_faults(void **state)
{
	struct fcvq *f = *state;

	fcvq_send_split(f, mac_set, 1, SPLIT(1), SPLIT(1), FMEM_RW);
	fcvq_expect_fault(f, VSB_FAULT_CVQ_HEADER);
	assert_no_class(f);
	/* no readable byte at all */
	fcvq_send_split(f, NULL, 0, NULL, 0, SPLIT(2), FMEM_RW);
	fcvq_expect_fault(f, VSB_FAULT_CVQ_HEADER);
	fcvq_send_split(f, mac_set, 1, SPLIT(1), NULL, 0, FMEM_RW);
	fcvq_expect_fault(f, VSB_FAULT_CVQ_HEADER);
	assert_mac(f, mac_old);
	assert_int_equal(f->m->failed, 0);
}

/* Stock defect L; bad-input.md item 23. */
static void no_writable_byte_faults(void **state)
{
	struct fcvq *f = *state;

	fcvq_send_split(f, mac_set, 8, SPLIT(2, 6), NULL, 0, FMEM_RW);
	fcvq_expect_fault(f, VSB_FAULT_CVQ_NO_ACK);
	assert_no_class(f);
	assert_mac(f, mac_old);
	/* a zero-length writable descriptor holds no ack either */
	fcvq_send_split(f, mac_set, 8, SPLIT(8), SPLIT(0), FMEM_RW);
	fcvq_expect_fault(f, VSB_FAULT_CVQ_NO_ACK);
	assert_mac(f, mac_old);
}

/* The ack cannot reach the driver: the command must not take effect. */
static void ack_in_read_only_mapping_faults_state_unchanged(void **state)
{
	struct fcvq *f = *state;

	fcvq_send_split(f, mac_set, 8, SPLIT(8), SPLIT(1), FMEM_RO);
	fcvq_expect_fault(f, VSB_FAULT_BUFFER_ACCESS);
	assert_mac(f, mac_old);

	f->ctrl.announce_pending = true;
	fcvq_send_split(f, announce_ack, 2, SPLIT(2), SPLIT(1), FMEM_RO);
	fcvq_expect_fault(f, VSB_FAULT_BUFFER_ACCESS);
	assert_true(f->ctrl.announce_pending);
}

static void command_unreadable_faults(void **state)
{
	struct fcvq *f = *state;
	u16 head;

	/* the readable side mapped write-only, then not at all */
	head = fcvq_offer(f, mac_set, 8, SPLIT(2, 6), SPLIT(1), FMEM_RW);
	fmem_set_perm(f->m, f->out_rgn, FMEM_WO);
	fcvq_handle(f, head);
	fcvq_expect_fault(f, VSB_FAULT_BUFFER_ACCESS);
	assert_mac(f, mac_old);

	head = fcvq_offer(f, mac_set, 8, SPLIT(2, 6), SPLIT(1), FMEM_RW);
	fmem_unmap(f->m, f->out_rgn);
	fcvq_handle(f, head);
	fcvq_expect_fault(f, VSB_FAULT_BUFFER_ACCESS);
	assert_mac(f, mac_old);
}

static void data_longer_than_maximum_err(void **state)
{
	static const u32 sizes[] = { 2 + 65, 2 + 4096 };
	struct fcvq *f = *state;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		u8 *cmd = calloc(1, sizes[i]);

		assert_non_null(cmd);
		memcpy(cmd, mac_set, sizeof(mac_set));
		fcvq_send(f, cmd, sizes[i]);
		free(cmd);
		fcvq_expect_ack(f, VIRTIO_NET_ERR);
		assert_int_equal(f->res.changed, 0);
		assert_mac(f, mac_old);
	}
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, fcvq_setup, fcvq_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(header_split_1_1_across_descriptors),
		T(header_and_data_in_one_descriptor),
		T(any_descriptor_split_parses),
		T(mac_addr_set_6_bytes_ok),
		T(nack_refuses_what_was_good),
		T(nack_of_an_err_writes_once),
		T(peek_reads_the_header_only),
		T(mac_addr_set_wrong_size_err),
		T(mac_addr_set_without_feature_err),
		T(unknown_class_err),
		T(unknown_command_err),
		T(unknown_after_ok_err_never_stale),
		T(announce_ack_ok_clears_pending),
		T(announce_ack_without_feature_err),
		T(announce_ack_with_data_err),
		T(header_under_2_bytes_faults),
		T(no_writable_byte_faults),
		T(ack_in_read_only_mapping_faults_state_unchanged),
		T(command_unreadable_faults),
		T(data_longer_than_maximum_err),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
