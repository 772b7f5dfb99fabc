// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control queue commands (kmod/vsb_cvq.c) sent by the fake driver: framing
 * in any descriptor split, the MAC and ANNOUNCE classes, ERR for anything
 * unknown or malformed, and the framing faults (bad-input.md, items 23-27;
 * vhost-vdpa-cvq-driver.md, section 3). Like Linux, the driver presets the
 * ack byte to 0xff, so an ack the device never wrote shows.
 */

#include "unit.h"

#include "fake_driver.h"
#include "vsb_cvq.h"

#define NUM 16
#define ACK_PRESET 0xff
/* Poison between two descriptors' buffers: reading past one shows. */
#define GAP 4
#define GAP_FILL 0xcc
#define FEATURE(bit) (1ULL << (bit))
#define ALL_FEATURES                                                           \
	(FEATURE(VIRTIO_NET_F_CTRL_VQ) | FEATURE(VIRTIO_NET_F_CTRL_MAC_ADDR) | \
	 FEATURE(VIRTIO_NET_F_GUEST_ANNOUNCE))

#define MAC_NEW 0x02, 0x11, 0x22, 0x33, 0x44, 0x55

static const u8 mac_old[VSB_ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };
static const u8 mac_new[VSB_ETH_ALEN] = { MAC_NEW };
static const u8 mac_set[] = { VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET,
			      MAC_NEW };
static const u8 announce_ack[] = { VIRTIO_NET_CTRL_ANNOUNCE,
				   VIRTIO_NET_CTRL_ANNOUNCE_ACK };

struct fixture {
	struct fmem *m;
	struct tq q;
	u64 features;
	struct vsb_net_ctrl ctrl;
	struct vsb_cvq_scratch scratch;
	struct vsb_cvq_result res;
	/* the last command's buffers: one region per side, -1 if none */
	int out_rgn;
	int in_rgn;
	u64 ack_addr;
};

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->m = fmem_new();
	tq_init(&f->q, f->m, NUM, 0, false, false);
	f->features = ALL_FEATURES;
	memcpy(f->ctrl.mac, mac_old, VSB_ETH_ALEN);
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

/*
 * Lay n buffers of split[] bytes out in one new region, GAP bytes apart,
 * filled from bytes (or with fill); returns the region, -1 if n is 0.
 */
static int lay_out(struct fixture *f, struct fbuf *bufs, const u8 *bytes,
		   const u32 *split, unsigned int n, bool write,
		   unsigned int perm, u8 fill)
{
	u64 base, at;
	u32 total = 0;
	unsigned int i;

	if (!n)
		return -1;
	for (i = 0; i < n; i++)
		total += split[i] + GAP;
	base = tbuf(f->m, total, perm, GAP_FILL);
	for (i = 0, at = base; i < n; at += split[i] + GAP, i++) {
		u8 *p = fmem_ptr(f->m, at, split[i]);

		if (bytes) {
			memcpy(p, bytes, split[i]);
			bytes += split[i];
		} else {
			memset(p, fill, split[i]);
		}
		bufs[i] = (struct fbuf){ at, split[i], write };
	}
	return fmem_region_of(f->m, base);
}

/*
 * Offer cmd (len bytes, in readable buffers of out[] bytes) with writable
 * buffers of in[] bytes mapped in_perm; returns the head.
 */
static u16 cvq_offer(struct fixture *f, const u8 *cmd, u32 len, const u32 *out,
		     unsigned int nr_out, const u32 *in, unsigned int nr_in,
		     unsigned int in_perm)
{
	struct fbuf bufs[NUM];
	unsigned int i;
	u32 sum = 0;

	for (i = 0; i < nr_out; i++)
		sum += out[i];
	assert_int_equal(sum, len);
	assert_true(nr_out + nr_in <= NUM);
	f->out_rgn = lay_out(f, bufs, cmd, out, nr_out, false, FMEM_RW, 0);
	f->in_rgn = lay_out(f, bufs + nr_out, NULL, in, nr_in, true, in_perm,
			    ACK_PRESET);
	/* the first writable byte, if the first writable buffer has one */
	f->ack_addr = nr_in && in[0] ? bufs[nr_out].addr : 0;
	return fdrv_add_chain(&f->q.drv, bufs, nr_out + nr_in);
}

/*
 * Let the device take the command into f->res and complete it with
 * f->res.used_len, as the module does.
 */
static void cvq_handle(struct fixture *f, u16 head)
{
	fmem_reset_counts(f->m);
	assert_int_equal(tq_pop(&f->q), 1);
	assert_int_equal(f->q.chain.head, head);
	memset(&f->res, 0x5a, sizeof(f->res));
	vsb_cvq_handle(&f->q.ring, &f->q.chain, f->features, &f->ctrl,
		       &f->scratch, &f->res);
	assert_int_equal(vsb_ring_push(&f->q.ring, head, f->res.used_len), 0);
	assert_int_equal(vsb_ring_publish(&f->q.ring), 0);
	fdrv_expect_used(&f->q.drv, head, f->res.used_len);
}

static void cvq_send_split(struct fixture *f, const u8 *cmd, u32 len,
			   const u32 *out, unsigned int nr_out, const u32 *in,
			   unsigned int nr_in, unsigned int in_perm)
{
	cvq_handle(f, cvq_offer(f, cmd, len, out, nr_out, in, nr_in, in_perm));
}

/* The usual framing: the command in one buffer, then a 1-byte ack. */
static void cvq_send(struct fixture *f, const u8 *cmd, u32 len)
{
	cvq_send_split(f, cmd, len, &len, 1, SPLIT(1), FMEM_RW);
}

static u8 ack_byte(struct fixture *f)
{
	return *(u8 *)fmem_ptr(f->m, f->ack_addr, 1);
}

/* Answered ack, used len 1, readable buffers untouched. */
static void assert_acked(struct fixture *f, u8 ack)
{
	assert_string_equal(vsb_fault_name(f->res.fault),
			    vsb_fault_name(VSB_FAULT_NONE));
	assert_int_equal(f->res.ack, ack);
	assert_int_equal(f->res.used_len, 1);
	assert_int_equal(ack_byte(f), ack);
	assert_int_equal(fmem_writes(f->m, f->out_rgn), 0);
}

/* Framing fault: nothing written at all, used len 0. */
static void assert_faulted(struct fixture *f, enum vsb_fault fault)
{
	assert_string_equal(vsb_fault_name(f->res.fault),
			    vsb_fault_name(fault));
	assert_int_equal(f->res.used_len, 0);
	assert_int_equal(f->res.changed, 0);
	if (f->out_rgn >= 0)
		assert_int_equal(fmem_writes(f->m, f->out_rgn), 0);
	if (f->in_rgn >= 0)
		assert_int_equal(fmem_writes(f->m, f->in_rgn), 0);
	if (f->ack_addr)
		assert_int_equal(ack_byte(f), ACK_PRESET);
}

static void assert_mac(struct fixture *f, const u8 *mac)
{
	assert_memory_equal(f->ctrl.mac, mac, VSB_ETH_ALEN);
}

static void header_split_1_1_across_descriptors(void **state)
{
	struct fixture *f = *state;

	f->ctrl.announce_pending = true;
	cvq_send_split(f, announce_ack, 2, SPLIT(1, 1), SPLIT(1), FMEM_RW);
	assert_acked(f, VIRTIO_NET_OK);
	assert_false(f->ctrl.announce_pending);

	cvq_send_split(f, mac_set, 8, SPLIT(1, 1, 6), SPLIT(1), FMEM_RW);
	assert_acked(f, VIRTIO_NET_OK);
	assert_mac(f, mac_new);
}

static void header_and_data_in_one_descriptor(void **state)
{
	struct fixture *f = *state;

	cvq_send_split(f, mac_set, 8, SPLIT(8), SPLIT(1), FMEM_RW);
	assert_acked(f, VIRTIO_NET_OK);
	assert_mac(f, mac_new);
}

/* The device wrote the ack byte and nothing else of the in[] buffers. */
static void assert_only_ack_written(struct fixture *f, const u32 *in,
				    unsigned int nr_in)
{
	u32 i, len = 0;

	for (i = 0; i < nr_in; i++)
		len += in[i] + GAP;
	for (i = 1; i < len; i++) {
		u8 v = *(u8 *)fmem_ptr(f->m, f->ack_addr + i, 1);

		if (v != ACK_PRESET && v != GAP_FILL)
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
	struct fixture *f = *state;
	unsigned int o, i;

	for (o = 0; o < ARRAY_SIZE(outs); o++) {
		for (i = 0; i < ARRAY_SIZE(ins); i++) {
			memcpy(f->ctrl.mac, mac_old, VSB_ETH_ALEN);
			cvq_send_split(f, mac_set, 8, outs[o] + 1, outs[o][0],
				       ins[i] + 1, ins[i][0], FMEM_RW);
			assert_acked(f, VIRTIO_NET_OK);
			assert_mac(f, mac_new);
			assert_only_ack_written(f, ins[i] + 1, ins[i][0]);
		}
	}
}

static void mac_addr_set_6_bytes_ok(void **state)
{
	struct fixture *f = *state;

	cvq_send(f, mac_set, sizeof(mac_set));
	assert_acked(f, VIRTIO_NET_OK);
	assert_int_equal(f->res.class, VIRTIO_NET_CTRL_MAC);
	assert_int_equal(f->res.cmd, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	assert_int_equal(f->res.changed, VSB_CTRL_CHANGED_MAC);
	assert_mac(f, mac_new);
	assert_false(f->ctrl.announce_pending);
}

static void mac_addr_set_wrong_size_err(void **state)
{
	struct fixture *f = *state;
	u8 cmd[2 + 7];

	memcpy(cmd, mac_set, sizeof(mac_set));
	cmd[8] = 0x66;
	/* 5 and 7 data bytes, and none */
	cvq_send(f, cmd, 2 + 5);
	assert_acked(f, VIRTIO_NET_ERR);
	assert_int_equal(f->res.changed, 0);
	assert_mac(f, mac_old);
	cvq_send(f, cmd, 2 + 7);
	assert_acked(f, VIRTIO_NET_ERR);
	assert_int_equal(f->res.changed, 0);
	assert_mac(f, mac_old);
	cvq_send(f, cmd, 2);
	assert_acked(f, VIRTIO_NET_ERR);
	assert_mac(f, mac_old);
}

static void mac_addr_set_without_feature_err(void **state)
{
	struct fixture *f = *state;

	f->features &= ~FEATURE(VIRTIO_NET_F_CTRL_MAC_ADDR);
	cvq_send(f, mac_set, sizeof(mac_set));
	assert_acked(f, VIRTIO_NET_ERR);
	assert_int_equal(f->res.changed, 0);
	assert_mac(f, mac_old);
}

static void unknown_class_err(void **state)
{
	static const u8 classes[] = { VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_VLAN,
				      VIRTIO_NET_CTRL_MQ, 0x7f, 0xff };
	struct fixture *f = *state;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		u8 cmd[] = { classes[i], 0, 1, 0 };

		cvq_send(f, cmd, sizeof(cmd));
		assert_acked(f, VIRTIO_NET_ERR);
		assert_int_equal(f->res.class, classes[i]);
		assert_int_equal(f->res.changed, 0);
	}
	assert_mac(f, mac_old);
}

static void unknown_command_err(void **state)
{
	static const u8 cmds[][2] = {
		{ VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_TABLE_SET },
		{ VIRTIO_NET_CTRL_MAC, 2 },
		{ VIRTIO_NET_CTRL_MAC, 0xff },
		{ VIRTIO_NET_CTRL_ANNOUNCE, 1 },
		{ VIRTIO_NET_CTRL_ANNOUNCE, 0xff },
	};
	struct fixture *f = *state;
	unsigned int i;

	f->ctrl.announce_pending = true;
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		u8 cmd[8];

		memcpy(cmd, mac_set, sizeof(cmd));
		memcpy(cmd, cmds[i], 2);
		cvq_send(f, cmd, cmds[i][0] == VIRTIO_NET_CTRL_MAC ? 8 : 2);
		assert_acked(f, VIRTIO_NET_ERR);
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
	struct fixture *f = *state;
	unsigned int round;

	for (round = 0; round < 3; round++) {
		cvq_send(f, mac_set, sizeof(mac_set));
		assert_acked(f, VIRTIO_NET_OK);
		cvq_send(f, bad_class, sizeof(bad_class));
		assert_acked(f, VIRTIO_NET_ERR);
		cvq_send(f, mac_set, sizeof(mac_set));
		assert_acked(f, VIRTIO_NET_OK);
		cvq_send(f, bad_cmd, sizeof(bad_cmd));
		assert_acked(f, VIRTIO_NET_ERR);
		assert_int_equal(f->res.changed, 0);
		assert_mac(f, mac_new);
	}
}

static void announce_ack_ok_clears_pending(void **state)
{
	struct fixture *f = *state;

	f->ctrl.announce_pending = true;
	cvq_send(f, announce_ack, sizeof(announce_ack));
	assert_acked(f, VIRTIO_NET_OK);
	assert_false(f->ctrl.announce_pending);
	assert_int_equal(f->res.changed, VSB_CTRL_CHANGED_STATUS);
	assert_mac(f, mac_old);
	/* nothing pending: still OK, nothing changed */
	cvq_send(f, announce_ack, sizeof(announce_ack));
	assert_acked(f, VIRTIO_NET_OK);
	assert_false(f->ctrl.announce_pending);
	assert_int_equal(f->res.changed, 0);
}

static void announce_ack_without_feature_err(void **state)
{
	struct fixture *f = *state;

	f->features &= ~FEATURE(VIRTIO_NET_F_GUEST_ANNOUNCE);
	f->ctrl.announce_pending = true;
	cvq_send(f, announce_ack, sizeof(announce_ack));
	assert_acked(f, VIRTIO_NET_ERR);
	assert_true(f->ctrl.announce_pending);
	assert_int_equal(f->res.changed, 0);
}

static void announce_ack_with_data_err(void **state)
{
	static const u8 cmd[] = { VIRTIO_NET_CTRL_ANNOUNCE,
				  VIRTIO_NET_CTRL_ANNOUNCE_ACK, 0 };
	struct fixture *f = *state;

	f->ctrl.announce_pending = true;
	cvq_send(f, cmd, sizeof(cmd));
	assert_acked(f, VIRTIO_NET_ERR);
	assert_true(f->ctrl.announce_pending);
	assert_int_equal(f->res.changed, 0);
}

/* Stock defect B: a short header left the chain uncompleted. */
static void header_under_2_bytes_faults(void **state)
{
	struct fixture *f = *state;

	cvq_send_split(f, mac_set, 1, SPLIT(1), SPLIT(1), FMEM_RW);
	assert_faulted(f, VSB_FAULT_CVQ_HEADER);
	/* no readable byte at all */
	cvq_send_split(f, NULL, 0, NULL, 0, SPLIT(2), FMEM_RW);
	assert_faulted(f, VSB_FAULT_CVQ_HEADER);
	cvq_send_split(f, mac_set, 1, SPLIT(1), NULL, 0, FMEM_RW);
	assert_faulted(f, VSB_FAULT_CVQ_HEADER);
	assert_mac(f, mac_old);
	assert_int_equal(f->m->failed, 0);
}

/* Stock defect L; bad-input.md item 23. */
static void no_writable_byte_faults(void **state)
{
	struct fixture *f = *state;

	cvq_send_split(f, mac_set, 8, SPLIT(2, 6), NULL, 0, FMEM_RW);
	assert_faulted(f, VSB_FAULT_CVQ_NO_ACK);
	assert_mac(f, mac_old);
	/* a zero-length writable descriptor holds no ack either */
	cvq_send_split(f, mac_set, 8, SPLIT(8), SPLIT(0), FMEM_RW);
	assert_faulted(f, VSB_FAULT_CVQ_NO_ACK);
	assert_mac(f, mac_old);
}

/* The ack cannot reach the driver: the command must not take effect. */
static void ack_in_read_only_mapping_faults_state_unchanged(void **state)
{
	struct fixture *f = *state;

	cvq_send_split(f, mac_set, 8, SPLIT(8), SPLIT(1), FMEM_RO);
	assert_faulted(f, VSB_FAULT_BUFFER_ACCESS);
	assert_mac(f, mac_old);

	f->ctrl.announce_pending = true;
	cvq_send_split(f, announce_ack, 2, SPLIT(2), SPLIT(1), FMEM_RO);
	assert_faulted(f, VSB_FAULT_BUFFER_ACCESS);
	assert_true(f->ctrl.announce_pending);
}

static void command_unreadable_faults(void **state)
{
	struct fixture *f = *state;
	u16 head;

	/* the readable side mapped write-only, then not at all */
	head = cvq_offer(f, mac_set, 8, SPLIT(2, 6), SPLIT(1), FMEM_RW);
	fmem_set_perm(f->m, f->out_rgn, FMEM_WO);
	cvq_handle(f, head);
	assert_faulted(f, VSB_FAULT_BUFFER_ACCESS);
	assert_mac(f, mac_old);

	head = cvq_offer(f, mac_set, 8, SPLIT(2, 6), SPLIT(1), FMEM_RW);
	fmem_unmap(f->m, f->out_rgn);
	cvq_handle(f, head);
	assert_faulted(f, VSB_FAULT_BUFFER_ACCESS);
	assert_mac(f, mac_old);
}

static void data_longer_than_maximum_err(void **state)
{
	static const u32 sizes[] = { 2 + 65, 2 + 4096 };
	struct fixture *f = *state;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		u8 *cmd = calloc(1, sizes[i]);

		assert_non_null(cmd);
		memcpy(cmd, mac_set, sizeof(mac_set));
		cvq_send(f, cmd, sizes[i]);
		free(cmd);
		assert_acked(f, VIRTIO_NET_ERR);
		assert_int_equal(f->res.changed, 0);
		assert_mac(f, mac_old);
	}
}

#define T(fn) \
	cmocka_unit_test_setup_teardown(fn, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(header_split_1_1_across_descriptors),
		T(header_and_data_in_one_descriptor),
		T(any_descriptor_split_parses),
		T(mac_addr_set_6_bytes_ok),
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
