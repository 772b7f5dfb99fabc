/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver side of a control queue for the unit tests, over fake_driver's
 * struct tq: commands laid out in any descriptor split, the device's
 * control state and scratch next to it, vsb_cvq_fetch() and
 * vsb_cvq_apply() run and the chain completed as the module does, and
 * checks on the answer. Like Linux, the
 * driver presets the ack byte to 0xff, so an ack the device never wrote
 * shows; buffers sit FCVQ_GAP poisoned bytes apart, so reading past one
 * shows too.
 */
#ifndef FAKE_CVQ_H
#define FAKE_CVQ_H

#include "fake_driver.h"
#include "vsb_cvq.h"
#include "vsb_cvq_group.h"

#define FCVQ_NUM 16
#define FCVQ_ACK_PRESET 0xff
/* Poison between two descriptors' buffers: reading past one shows. */
#define FCVQ_GAP 4
#define FCVQ_GAP_FILL 0xcc
/* fcvq_setup()'s device: its MAC and queue pairs. */
#define FCVQ_MAC 0x02, 0x00, 0x00, 0x00, 0x00, 0x01
#define FCVQ_MAX_PAIRS 4

/* Every guest offload GUEST_OFFLOADS_SET knows, by feature bit. */
#define FCVQ_GUEST_OFFLOADS                                                    \
	(FEATURE(VIRTIO_NET_F_GUEST_CSUM) | FEATURE(VIRTIO_NET_F_GUEST_TSO4) | \
	 FEATURE(VIRTIO_NET_F_GUEST_TSO6) | FEATURE(VIRTIO_NET_F_GUEST_ECN) |  \
	 FEATURE(VIRTIO_NET_F_GUEST_UFO))
/* Every feature a control command needs, and every guest offload. */
#define FCVQ_ALL_FEATURES                                                  \
	(FEATURE(VIRTIO_NET_F_CTRL_VQ) | FEATURE(VIRTIO_NET_F_CTRL_RX) |   \
	 FEATURE(VIRTIO_NET_F_CTRL_RX_EXTRA) |                             \
	 FEATURE(VIRTIO_NET_F_CTRL_VLAN) |                                 \
	 FEATURE(VIRTIO_NET_F_CTRL_MAC_ADDR) |                             \
	 FEATURE(VIRTIO_NET_F_GUEST_ANNOUNCE) | FEATURE(VIRTIO_NET_F_MQ) | \
	 FEATURE(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS) | FCVQ_GUEST_OFFLOADS)

struct fcvq {
	struct fmem *m;
	struct tq q;
	u64 features;
	struct vsb_net_ctrl ctrl;
	struct vsb_cvq_scratch scratch;
	struct vsb_cvq_result res;
	/* the last command's buffers: one region per side, -1 if none */
	int out_rgn;
	int in_rgn;
	/* its first writable byte, 0 if it has none */
	u64 ack_addr;
	/* a fault rule's NACK: vsb_cvq_nack() between fetch and apply */
	bool nack;
	/* fetched as batch mode does: checked, then acked as a group */
	bool group;
};

/* A control queue in m, the state as vsb_net_ctrl_reset() leaves it. */
void fcvq_init(struct fcvq *f, struct fmem *m, u64 features, const u8 *mac,
	       u16 max_pairs);
void fcvq_fini(struct fcvq *f);
/*
 * cmocka setup and teardown: *state is a struct fcvq with memory of its
 * own, FCVQ_ALL_FEATURES, FCVQ_MAC and FCVQ_MAX_PAIRS.
 */
int fcvq_setup(void **state);
int fcvq_teardown(void **state);

/*
 * Offer cmd (len bytes, in readable buffers of out[] bytes) with writable
 * buffers of in[] bytes mapped in_perm, preset to FCVQ_ACK_PRESET;
 * returns the head.
 */
u16 fcvq_offer(struct fcvq *f, const u8 *cmd, u32 len, const u32 *out,
	       unsigned int nr_out, const u32 *in, unsigned int nr_in,
	       unsigned int in_perm);
/*
 * Let the device take the command at head into f->res and complete it
 * with f->res.used_len, as the module does.
 */
/* The popped chain fetched, applied and answered, as the module does. */
void fcvq_fetch_apply(struct fcvq *f);
void fcvq_handle(struct fcvq *f, u16 head);
void fcvq_send_split(struct fcvq *f, const u8 *cmd, u32 len, const u32 *out,
		     unsigned int nr_out, const u32 *in, unsigned int nr_in,
		     unsigned int in_perm);
/* The usual framing: the command in one buffer, then a 1-byte ack. */
void fcvq_send(struct fcvq *f, const u8 *cmd, u32 len);
/* What the first writable byte holds now. */
u8 fcvq_ack_byte(struct fcvq *f);

/*
 * Answered ack: no fault, used len 1, the ack byte written, the readable
 * buffers untouched. Prints what is wrong, prefixed with what, and
 * returns false: table-driven tests report every failing row.
 */
bool fcvq_answered(struct fcvq *f, u8 ack, const char *what);
/* The checks are macros so that a failure names the test's line. */
#define fcvq_expect_ack(f, ack) fcvq_expect_ack_at(f, ack, __FILE__, __LINE__)
void fcvq_expect_ack_at(struct fcvq *f, u8 ack, const char *file, int line);
/* Framing fault: nothing written at all, used len 0, nothing changed. */
#define fcvq_expect_fault(f, fault) \
	fcvq_expect_fault_at(f, fault, __FILE__, __LINE__)
void fcvq_expect_fault_at(struct fcvq *f, enum vsb_fault fault,
			  const char *file, int line);

#endif /* FAKE_CVQ_H */
