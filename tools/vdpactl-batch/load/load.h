/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The load engine: sends the commands of a profile through the CVQ of a
 * vhost-vdpa device, one load at a time, serially or in parallel batches,
 * and times each load as a whole.
 */
#ifndef VDPACTL_LOAD_H
#define VDPACTL_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/strparse.h"
#include "lib/vring.h"
#include "load/profile.h"

/* Limits enforced on the command line and documented in its help. */
#define LOAD_COUNT_MAX 65536
#define LOAD_ROUNDS_MAX 1000000
#define LOAD_TIMEOUT_MS_MAX 600000
#define LOAD_DEFAULT_ROUNDS 1000
#define LOAD_DEFAULT_TIMEOUT_MS 1000
/* Cold loads' data queue rings: only enabled, never used, so small. */
#define LOAD_COLD_DATA_RING_SIZE 16

enum load_mode {
	LOAD_MODE_SERIAL, /* one command in flight, as QEMU before 8.2 */
	LOAD_MODE_PARALLEL, /* fill the ring, then wait for the batch */
};

enum load_kick {
	LOAD_KICK_EACH, /* after every command, as QEMU's shadow CVQ */
	LOAD_KICK_ONCE, /* once per batch */
};

enum load_wait {
	LOAD_WAIT_POLL, /* busy-poll the used index */
	LOAD_WAIT_CALL, /* sleep on the call eventfd */
};

/*
 * How the command line and the trace marks spell the enums above and
 * enum vq_format; NULL-terminated.
 */
extern const char *const load_mode_names[];
extern const char *const load_kick_names[];
extern const char *const load_wait_names[];
extern const char *const load_ring_names[];

struct load_config {
	unsigned int count; /* commands per load */
	unsigned int rounds; /* loads */
	unsigned int timeout_ms; /* longest wait for one completion */
	unsigned int ring_size; /* 0: the default */
	enum vq_format ring; /* the CVQ's (and a cold load's data rings') */
	enum load_mode mode;
	enum load_kick kick;
	enum load_wait wait;
	enum load_profile profile;
	bool asid;
	/*
	 * Each load is a cold start (cvq_dev_cold_start()): reset, features,
	 * rings, maps, DRIVER_OK, the commands, the data queues enabled.
	 */
	bool cold;
	/*
	 * Each load is bracketed, outside its timed region, by a line in
	 * the kernel's top-level trace buffer ("vdpactl-batch: load start
	 * dev=NAME mode=MODE", then "... load stop dev=NAME"), so that the
	 * kernel events of a run can be told apart load by load.
	 */
	bool trace_marks;
	/* Put the start MAC back after the loads (load_session_restore_mac()). */
	bool restore_mac;
	/*
	 * A command acked VIRTIO_NET_ERR -- refused by the device, as a
	 * fault rule's nack makes it -- does not stop the load: it is
	 * recorded (load_session_nacks()) and the load goes on. Without it,
	 * such an ack fails the load as any other bad ack does.
	 */
	bool continue_after_nack;
};

#define LOAD_MIX_MAX 16

/* How many commands of one name a load holds. */
struct load_mix_entry {
	const char *name;
	unsigned int count;
};

/* What the session negotiated and set up, for reports. */
struct load_info {
	uint64_t device_features;
	uint64_t driver_features;
	uint64_t backend_features;
	uint16_t max_vqp;
	unsigned int cvq_index;
	unsigned int ring_size;
	unsigned int ring_max;
	unsigned int batch_max; /* commands in flight in parallel mode */
	uint32_t asid;
	struct load_mix_entry mix[LOAD_MIX_MAX];
	unsigned int n_mix;
	bool has_last_mac;
	char last_mac[MAC_STR_LEN];
	/* The config space MAC before the first load (VIRTIO_NET_F_MAC). */
	bool has_start_mac;
	char start_mac[MAC_STR_LEN];
	char note[PROFILE_NOTE_LEN];
};

/* Cumulative over the session's loads. */
struct load_counters {
	uint64_t loads;
	uint64_t commands;
	uint64_t batches;
	uint64_t kicks;
	uint64_t sleeps; /* call-eventfd wake-ups */
	uint64_t cold_starts; /* loads that started the device from reset */
	/*
	 * Time in the loads' commands, from the first one's submission to the
	 * last one's ack: a cold load's time less its start-up, all of a warm
	 * load's. The difference around a load is that load's part.
	 */
	uint64_t cmds_ns;
};

/* The commands of a session the device acked VIRTIO_NET_ERR. */
#define LOAD_NACKS_KEPT 16
#define LOAD_NACK_TEXT_LEN 64

struct load_nack {
	uint64_t load; /* from 1, as the session counts its loads */
	unsigned int index; /* the command's place in the plan, from 1 */
	uint8_t class;
	uint8_t cmd;
	char text[LOAD_NACK_TEXT_LEN]; /* name and argument, cvq_cmd_describe() */
};

struct load_nacks {
	uint64_t count; /* all of them */
	unsigned int kept; /* the first ones, in first[] */
	struct load_nack first[LOAD_NACKS_KEPT];
};

/* Counts the refusal of @c, command @i of load @load, keeping the first. */
static inline void load_nacks_add(struct load_nacks *n, uint64_t load,
				  unsigned int i, const struct cvq_cmd *c)
{
	struct load_nack *k;

	n->count++;
	if (n->kept == LOAD_NACKS_KEPT)
		return;
	k = &n->first[n->kept++];
	*k = (struct load_nack){
		.load = load, .index = i + 1, .class = c->class, .cmd = c->cmd
	};
	cvq_cmd_describe(c, k->text, sizeof(k->text));
}

struct load_session;

/*
 * Sets @chardev up for @cfg and prepares the load's commands. Prints
 * failures, naming @devname.
 */
int load_session_open(struct load_session **session, const char *devname,
		      const char *chardev, const struct load_config *cfg,
		      int verbose);
const struct load_info *load_session_info(const struct load_session *s);
const struct load_counters *load_session_counters(const struct load_session *s);

/*
 * Runs one load in @mode and returns its duration; for a cold load, of
 * the whole start (load_session_last_cmds_ns() has the commands' part). Every ack must be OK;
 * a non-OK ack, a missing ack or a timeout is reported naming the command,
 * and the session is unusable afterwards.
 */
int load_session_run(struct load_session *s, enum load_mode mode,
		     uint64_t *elapsed_ns);

/*
 * Like load_session_run(), but sends only the @n commands of the plan
 * whose indices @order lists, in that order; @n may be 0 (nothing sent,
 * nothing timed beyond two clock reads). Counters count what was sent.
 */
int load_session_run_some(struct load_session *s, enum load_mode mode,
			  const unsigned int *order, unsigned int n,
			  uint64_t *elapsed_ns);

/*
 * Put simulator markers of @slot (0..SIM_MARK_SLOTS-1; anything else:
 * none, the default) around the timed region of every later load, for
 * counting its instructions under QEMU (tools/insn-count).
 */
void load_session_set_mark(struct load_session *s, int slot);

/* The commands acked VIRTIO_NET_ERR (cfg.continue_after_nack). */
const struct load_nacks *load_session_nacks(const struct load_session *s);

/*
 * The acks of the last load, by the command's place in the plan (from
 * 0): VIRTIO_NET_OK, VIRTIO_NET_ERR (with cfg.continue_after_nack), or
 * CVQ_ACK_UNSET for a command the load did not send.
 */
const uint8_t *load_session_acks(const struct load_session *s);

/* The plan: the cfg.count commands every load sends (or chooses from). */
const struct cvq_cmd *load_session_commands(const struct load_session *s);

/*
 * Puts back the MAC the device had before the first load, with one more
 * MAC_ADDR_SET through the CVQ, untimed and uncounted: the loads set
 * MACs, which a device may keep across its reset (vdpa_sim_net does),
 * and the device is somebody's. *@restored says whether it was done:
 * not without VIRTIO_NET_F_MAC, nor when the plan set no MAC, nor before
 * any load or after a failed one. Prints failures.
 */
int load_session_restore_mac(struct load_session *s, bool *restored);

/*
 * The CVQ's place in its ring after the loads: VHOST_GET_VRING_BASE (what
 * the device reports through get_vq_state) and the driver's own, in the
 * same encoding (vq_base()). Quiet; -errno if the ioctl fails.
 */
int load_session_vring_base(struct load_session *s, uint32_t *device,
			    uint32_t *driver);

void load_session_close(struct load_session *s);

#endif
