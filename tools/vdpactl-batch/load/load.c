// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The load engine. The hot loop reads the clock only at the start and end
 * of a load (under TCG a clock read per command doubled the measured serial
 * latency); the waits are lib/cvq_wait.c's.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/compat.h"
#include "lib/cvq_dev.h"
#include "lib/cvq_io.h"
#include "lib/diag.h"
#include "lib/sim_mark.h"
#include "lib/util.h"
#include "load/load.h"
#include "load/tracefs.h"

/*
 * How often a wait reads the device status: a device that gave up
 * (NEEDS_RESET) fails the load this soon, not after the timeout, and a
 * load whose commands complete at once never reads it.
 */
#define LOAD_STATUS_POLL_MS 10
#define DEVNAME_LEN 64

struct load_session {
	char devname[DEVNAME_LEN];
	struct load_config cfg;
	struct cvq_dev dev;
	struct cvq_cmd *cmds;
	uint32_t *cmd_offset; /* of each command in the command buffer */
	unsigned int *all; /* 0..count-1: the whole plan */
	const unsigned int *order; /* the commands of the current load */
	unsigned int n_order;
	struct load_info info;
	struct load_counters counters;
	struct cvq_wait wait;
	bool broken; /* a load failed; the device state is unknown */
	/* the simulator marker slot of the timed region, -1: none */
	int mark_slot;
	enum load_mode mode; /* of the load under way */
	int marker_fd; /* --trace-marks: the trace_marker, or -1 */
	uint64_t cmds_ns; /* the commands' part of the last load */
	uint8_t start_mac[MAC_LEN]; /* if info.has_start_mac */
	struct load_nacks nacks;
};

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Names command @i in a failure message. */
static void __printf(3, 4)
	cmd_error(struct load_session *s, unsigned int i, const char *fmt, ...)
{
	char what[96], why[128];
	va_list ap;

	cvq_cmd_describe(&s->cmds[i], what, sizeof(what));
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pr_err("%s: load %" PRIu64 ", command %u (%s): %s", s->devname,
	       s->counters.loads + 1, i + 1, what, why);
	s->broken = true;
}

static int add_command(struct load_session *s, unsigned int i)
{
	int err = cvq_dev_add_cmd(&s->dev, s->cmd_offset[i],
				  (uint32_t)cvq_cmd_size(&s->cmds[i]), i);

	if (err)
		cmd_error(s, i, "cannot add to the ring: %s", strerror(-err));
	return err;
}

static int publish_and_kick(struct load_session *s)
{
	bool kicked;
	int err = cvq_dev_publish(&s->dev, &kicked);

	s->counters.kicks += kicked;
	return err;
}

/*
 * The first command still in flight of the load's positions [first, end),
 * for a timeout message.
 */
static unsigned int oldest_in_flight(const struct load_session *s,
				     unsigned int first, unsigned int end)
{
	unsigned int k;

	for (k = first; k < end; k++)
		if (s->dev.ack_buf[s->order[k]] == CVQ_ACK_UNSET)
			return s->order[k];
	return s->order[first];
}

/*
 * A wait for the commands at load positions [first, end) that ended with
 * @got of them back; those before @first had all come back.
 */
static int report_wait_failure(struct load_session *s, int err,
			       unsigned int first, unsigned int end,
			       unsigned int got)
{
	unsigned int oldest = oldest_in_flight(s, first, end);

	if (err == -ENETRESET)
		cmd_error(s, oldest, "the device set DEVICE_NEEDS_RESET");
	else if (err == -ETIMEDOUT)
		cmd_error(
			s, oldest,
			"no completion within %u ms: %u of the load's %u commands did not complete",
			s->cfg.timeout_ms, s->n_order - first - got,
			s->n_order);
	return err;
}

static int check_ack(struct load_session *s, uint32_t token)
{
	uint8_t ack = s->dev.ack_buf[token];

	if (ack == VIRTIO_NET_OK)
		return 0;
	if (ack == VIRTIO_NET_ERR && s->cfg.continue_after_nack) {
		load_nacks_add(&s->nacks, s->counters.loads + 1, token,
			       &s->cmds[token]);
		return 0;
	}
	if (ack == CVQ_ACK_UNSET)
		cmd_error(s, token, "completed without an ack");
	else
		cmd_error(s, token, "device acked %s (%u)",
			  ack == VIRTIO_NET_ERR ? "ERR" : "an unknown value",
			  ack);
	return -EIO;
}

struct collect_state {
	struct load_session *s;
	unsigned int want, got;
	unsigned int first; /* load position, for a bad entry's message */
};

/* Pops and checks what came back; done when all @want are in. */
static int collect_progress(void *data, const struct cvq_wait_result *r)
{
	struct collect_state *c = data;
	struct load_session *s = c->s;
	unsigned int before = c->got;
	uint32_t token, len;
	int err;

	(void)r;
	while ((err = cvq_dev_pop_ack(&s->dev, &token, &len)) == 0) {
		err = check_ack(s, token);
		if (err)
			return err;
		c->got++;
	}
	/*
	 * A device that gave up hands back what it did not answer, before
	 * the status poll sees it: the reset is the cause to name (the
	 * caller does, as for the poll's).
	 */
	if (err != -EAGAIN && cvq_dev_needs_reset(&s->dev))
		return -ENETRESET;
	if (err == -EMSGSIZE)
		cmd_error(s, token,
			  "device returned used length %" PRIu32
			  " for a 1-byte ack",
			  len);
	else if (err != -EAGAIN)
		cmd_error(s, s->order[c->first],
			  "device returned a bad used entry");
	if (err != -EAGAIN)
		return err;
	if (c->got >= c->want)
		return CVQ_PROGRESS_DONE;
	return c->got > before ? CVQ_PROGRESS_SOME : CVQ_PROGRESS_NONE;
}

/* Waits for and checks the @want commands at load positions [first, end). */
static int collect(struct load_session *s, unsigned int want,
		   unsigned int first, unsigned int end)
{
	struct collect_state c = { .s = s, .want = want, .first = first };
	struct cvq_wait_result r;
	int err;

	err = cvq_dev_wait(&s->dev, &s->wait, collect_progress, &c, &r);
	s->counters.sleeps += r.sleeps;
	if (err == -ETIMEDOUT || err == -ENETRESET)
		return report_wait_failure(s, err, first, end, c.got);
	return err;
}

static int run_serial(struct load_session *s)
{
	unsigned int k;
	int err;

	for (k = 0; k < s->n_order; k++) {
		err = add_command(s, s->order[k]);
		if (!err)
			err = publish_and_kick(s);
		if (!err)
			err = collect(s, 1, k, k + 1);
		if (err)
			return err;
		s->counters.batches++;
	}
	return 0;
}

static int run_parallel(struct load_session *s)
{
	struct vq_driver *ring = &s->dev.ring;
	unsigned int next = 0, first;
	int err;

	while (next < s->n_order) {
		first = next;
		while (next < s->n_order && vq_num_free(ring) >= 2) {
			err = add_command(s, s->order[next++]);
			if (!err && s->cfg.kick == LOAD_KICK_EACH)
				err = publish_and_kick(s);
			if (err)
				return err;
		}
		if (s->cfg.kick == LOAD_KICK_ONCE) {
			err = publish_and_kick(s);
			if (err)
				return err;
		}
		err = collect(s, next - first, first, next);
		if (err)
			return err;
		s->counters.batches++;
	}
	return 0;
}

/*
 * --trace-marks: one line in the kernel's trace before the clock starts
 * and one after it stops, so neither write is timed.
 */
static int trace_mark(struct load_session *s, const char *what)
{
	char line[96];
	ssize_t n;
	int len;

	if (s->marker_fd < 0)
		return 0;
	len = snprintf(line, sizeof(line),
		       "vdpactl-batch: load %s dev=%s mode=%s\n", what,
		       s->devname, load_mode_names[s->mode]);
	n = write(s->marker_fd, line, (size_t)len);
	if (n != len) {
		s->broken = true;
		return pr_errno(n < 0 ? errno : EIO,
				"%s: load %" PRIu64 ": write the trace marker",
				s->devname, s->counters.loads + 1);
	}
	return 0;
}

/*
 * Marks where a load's timed region begins: the trace's line, then the
 * simulator's marker.
 */
static int region_start(struct load_session *s)
{
	int err = trace_mark(s, "start");

	if (!err && s->mark_slot >= 0)
		sim_mark(SIM_MARK_START, s->mark_slot);
	return err;
}

/* Marks its end, in the reverse order; a failed load gets no stop line. */
static int region_stop(struct load_session *s, int err)
{
	if (s->mark_slot >= 0)
		sim_mark(SIM_MARK_STOP, s->mark_slot);
	return err ? err : trace_mark(s, "stop");
}

/* The commands of a load, timed on their own. */
static int run_cmds(void *arg)
{
	struct load_session *s = arg;
	uint64_t start = clock_ns();
	int err;

	if (s->mode == LOAD_MODE_SERIAL)
		err = run_serial(s);
	else
		err = run_parallel(s);
	s->cmds_ns = clock_ns() - start;
	return err;
}

/*
 * A cold load: the stop before it is QEMU's (and untimed); a reset device
 * has the MAC and filter state of a new one, so no command is redundant.
 */
static int run_cold(struct load_session *s, uint64_t *elapsed_ns)
{
	uint64_t start;
	int err;

	err = cvq_dev_stop(&s->dev);
	if (err) {
		s->broken = true;
		return pr_errno(err,
				"%s: load %" PRIu64 ": stopping the device",
				s->devname, s->counters.loads + 1);
	}
	err = region_start(s);
	if (err)
		return err;
	start = clock_ns();
	err = cvq_dev_cold_start(&s->dev, run_cmds, s);
	*elapsed_ns = clock_ns() - start;
	err = region_stop(s, err);
	/* A failed ioctl of the start has said which it was. */
	if (err)
		s->broken = true;
	else
		s->counters.cold_starts++;
	return err;
}

static int run_warm(struct load_session *s, uint64_t *elapsed_ns)
{
	int err;

	err = region_start(s);
	if (err)
		return err;
	err = run_cmds(s);
	*elapsed_ns = s->cmds_ns;
	return region_stop(s, err);
}

int load_session_run(struct load_session *s, enum load_mode mode,
		     uint64_t *elapsed_ns)
{
	return load_session_run_some(s, mode, s->all, s->cfg.count, elapsed_ns);
}

int load_session_run_some(struct load_session *s, enum load_mode mode,
			  const unsigned int *order, unsigned int n,
			  uint64_t *elapsed_ns)
{
	int err;

	if (s->broken)
		return -EIO;
	s->order = order;
	s->n_order = n;
	s->mode = mode;
	/* Unwritten acks must show; done before the clock starts. */
	memset(s->dev.ack_buf, CVQ_ACK_UNSET, s->cfg.count);

	if (s->cfg.cold)
		err = run_cold(s, elapsed_ns);
	else
		err = run_warm(s, elapsed_ns);
	if (err)
		return err;
	s->counters.loads++;
	s->counters.commands += n;
	s->counters.cmds_ns += s->cmds_ns;
	return 0;
}

void load_session_set_mark(struct load_session *s, int slot)
{
	s->mark_slot = slot >= 0 && slot < SIM_MARK_SLOTS ? slot : -1;
}

const struct cvq_cmd *load_session_commands(const struct load_session *s)
{
	return s->cmds;
}

const struct load_nacks *load_session_nacks(const struct load_session *s)
{
	return &s->nacks;
}

const uint8_t *load_session_acks(const struct load_session *s)
{
	return s->dev.ack_buf;
}

static void count_mix(struct load_info *info, const struct cvq_cmd *c)
{
	const char *name = cvq_cmd_name(c->class, c->cmd);
	unsigned int i;

	for (i = 0; i < info->n_mix; i++) {
		if (!strcmp(info->mix[i].name, name)) {
			info->mix[i].count++;
			return;
		}
	}
	if (info->n_mix < LOAD_MIX_MAX)
		info->mix[info->n_mix++] =
			(struct load_mix_entry){ .name = name, .count = 1 };
}

static void describe_plan(struct load_session *s)
{
	struct load_info *info = &s->info;
	unsigned int i;

	for (i = 0; i < s->cfg.count; i++) {
		const struct cvq_cmd *c = &s->cmds[i];

		count_mix(info, c);
		if (c->class == VIRTIO_NET_CTRL_MAC &&
		    c->cmd == VIRTIO_NET_CTRL_MAC_ADDR_SET) {
			format_mac(c->data, info->last_mac);
			info->has_last_mac = true;
		}
	}
}

/*
 * The limits RSS_CONFIG and HASH_CONFIG must keep to: rss_max_key_size,
 * rss_max_indirection_table_length and supported_hash_types, which the
 * config space has with either feature.
 */
static int read_rss_limits(struct load_session *s, struct profile_env *env)
{
	const size_t off = offsetof(struct virtio_net_config, rss_max_key_size);
	uint8_t raw[offsetof(struct virtio_net_config, supported_hash_types) +
		    sizeof(uint32_t) - off];
	uint16_t table_len;
	uint32_t types;
	int err;

	if (!(env->features &
	      (BIT_ULL(VIRTIO_NET_F_RSS) | BIT_ULL(VIRTIO_NET_F_HASH_REPORT))))
		return 0;
	err = vhost_vdpa_get_config(&s->dev.vhost, (uint32_t)off, raw,
				    sizeof(raw));
	if (err)
		return err;
	env->rss_max_key_size = raw[0];
	memcpy(&table_len,
	       raw +
		       offsetof(struct virtio_net_config,
				rss_max_indirection_table_length) -
		       off,
	       sizeof(table_len));
	memcpy(&types,
	       raw + offsetof(struct virtio_net_config, supported_hash_types) -
		       off,
	       sizeof(types));
	env->rss_max_indirection_table_length = le16toh(table_len);
	env->supported_hash_types = le32toh(types);
	return 0;
}

static int build_plan(struct load_session *s, size_t *cmd_bytes)
{
	struct profile_env env = {
		.features = s->dev.driver_features,
		.max_vqp = s->dev.max_vqp,
	};
	size_t offset = 0;
	unsigned int i;
	int err;

	err = read_rss_limits(s, &env);
	if (err)
		return err;

	s->cmds = calloc(s->cfg.count, sizeof(*s->cmds));
	s->cmd_offset = calloc(s->cfg.count, sizeof(*s->cmd_offset));
	s->all = calloc(s->cfg.count, sizeof(*s->all));
	if (!s->cmds || !s->cmd_offset || !s->all)
		return pr_errno(ENOMEM, "%s: command plan", s->devname);
	for (i = 0; i < s->cfg.count; i++)
		s->all[i] = i;
	err = profile_build(s->cfg.profile, s->cfg.count, &env, s->cmds,
			    s->info.note);
	if (err) {
		pr_err("%s: no command of the %s profile is allowed by the negotiated features (%s)",
		       s->devname, load_profile_names[s->cfg.profile],
		       s->info.note);
		return err;
	}
	/* Packed back to back, as QEMU packs its command buffer. */
	for (i = 0; i < s->cfg.count; i++) {
		s->cmd_offset[i] = (uint32_t)offset;
		offset += cvq_cmd_size(&s->cmds[i]);
	}
	*cmd_bytes = offset;
	return 0;
}

static void encode_plan(struct load_session *s)
{
	unsigned int i;

	for (i = 0; i < s->cfg.count; i++)
		cvq_cmd_encode(&s->cmds[i], s->dev.cmd_buf + s->cmd_offset[i],
			       cvq_cmd_size(&s->cmds[i]));
}

/* The MAC before any load: what load_session_restore_mac() puts back. */
static int read_start_mac(struct load_session *s)
{
	struct load_info *info = &s->info;
	int err;

	if (!(s->dev.device_features & BIT_ULL(VIRTIO_NET_F_MAC)))
		return 0;
	err = vhost_vdpa_get_config(&s->dev.vhost, 0, s->start_mac, MAC_LEN);
	if (err)
		return pr_errno(err, "%s: read the MAC in the config space",
				s->devname);
	format_mac(s->start_mac, info->start_mac);
	info->has_start_mac = true;
	return 0;
}

int load_session_restore_mac(struct load_session *s, bool *restored)
{
	struct load_counters counters = s->counters;
	int mark_slot = s->mark_slot, marker_fd = s->marker_fd;
	bool continue_after_nack = s->cfg.continue_after_nack;
	unsigned int i;
	uint64_t ns;
	int err;

	*restored = false;
	/* Unknown state after a failure; nothing changed before a load. */
	if (!s->info.has_start_mac || s->broken || !s->counters.loads)
		return 0;
	for (i = 0; i < s->cfg.count; i++)
		if (s->cmds[i].class == VIRTIO_NET_CTRL_MAC &&
		    s->cmds[i].cmd == VIRTIO_NET_CTRL_MAC_ADDR_SET)
			break;
	if (i == s->cfg.count)
		return 0;
	/* The plan's own slot, so the command buffer keeps its layout. */
	cvq_cmd_mac_addr_set(&s->cmds[i], s->start_mac);
	cvq_cmd_encode(&s->cmds[i], s->dev.cmd_buf + s->cmd_offset[i],
		       cvq_cmd_size(&s->cmds[i]));
	/* Not a load of the run: no marks, no counts; an ERR is a failure. */
	s->mark_slot = -1;
	s->marker_fd = -1;
	s->cfg.continue_after_nack = false;
	err = load_session_run_some(s, LOAD_MODE_SERIAL, &i, 1, &ns);
	s->mark_slot = mark_slot;
	s->marker_fd = marker_fd;
	s->cfg.continue_after_nack = continue_after_nack;
	s->counters = counters;
	if (err)
		return pr_errno(err, "%s: put the MAC %s back", s->devname,
				s->info.start_mac);
	*restored = true;
	return 0;
}

static void fill_info(struct load_session *s)
{
	struct load_info *info = &s->info;
	const struct cvq_dev *d = &s->dev;

	info->device_features = d->device_features;
	info->driver_features = d->driver_features;
	info->backend_features = d->backend_acked;
	info->max_vqp = d->max_vqp;
	info->cvq_index = d->cvq_index;
	info->ring_size = d->ring_size;
	info->ring_max = d->ring_max;
	/* Each command takes two descriptors: command and ack. */
	info->batch_max = d->ring_size / 2;
	info->asid = d->asid;
	describe_plan(s);
}

int load_session_open(struct load_session **session, const char *devname,
		      const char *chardev, const struct load_config *cfg,
		      int verbose)
{
	struct load_session *s;
	struct cvq_dev_layout layout;
	int err;

	s = calloc(1, sizeof(*s));
	if (!s)
		return pr_errno(ENOMEM, "%s: load session", devname);
	snprintf(s->devname, sizeof(s->devname), "%s", devname);
	s->cfg = *cfg;
	s->mark_slot = -1;
	s->marker_fd = -1;
	s->wait = (struct cvq_wait){
		.how = cfg->wait == LOAD_WAIT_POLL ? CVQ_WAIT_SPIN :
						     CVQ_WAIT_CALL,
		.timeout_ms = cfg->timeout_ms,
		.status_poll_ms = LOAD_STATUS_POLL_MS,
	};

	err = cvq_dev_negotiate(&s->dev, chardev,
				profile_wanted_features(cfg->profile) |
					vq_format_features(cfg->ring),
				cfg->asid, verbose);
	if (err) {
		free(s);
		return err;
	}
	layout = (struct cvq_dev_layout){
		.format = cfg->ring,
		.ring_size = cfg->ring_size,
		.ack_bytes = cfg->count,
		.own_asid = cfg->asid,
		.data_ring_size = cfg->cold ? LOAD_COLD_DATA_RING_SIZE : 0,
	};
	err = build_plan(s, &layout.cmd_bytes);
	if (!err)
		err = cvq_dev_start(&s->dev, &layout);
	if (!err)
		err = read_start_mac(s);
	if (!err && cfg->trace_marks) {
		s->marker_fd = trace_marker_open("/sys");
		if (s->marker_fd < 0)
			err = pr_errno(s->marker_fd,
				       "%s: open the kernel's trace_marker",
				       devname);
	}
	if (err) {
		load_session_close(s);
		return err;
	}
	encode_plan(s);
	fill_info(s);
	*session = s;
	return 0;
}

const struct load_info *load_session_info(const struct load_session *s)
{
	return &s->info;
}

const struct load_counters *load_session_counters(const struct load_session *s)
{
	return &s->counters;
}

int load_session_vring_base(struct load_session *s, uint32_t *device,
			    uint32_t *driver)
{
	struct vhost_vring_state state = { .index = s->dev.cvq_index };
	int err;

	err = vhost_vdpa_ioctl_quiet(&s->dev.vhost, VHOST_GET_VRING_BASE,
				     &state, "VHOST_GET_VRING_BASE");
	if (err)
		return err;
	*device = state.num;
	*driver = vq_base(&s->dev.ring);
	return 0;
}

void load_session_close(struct load_session *s)
{
	if (!s)
		return;
	cvq_dev_close(&s->dev);
	if (s->marker_fd >= 0)
		close(s->marker_fd);
	free(s->cmds);
	free(s->cmd_offset);
	free(s->all);
	free(s);
}
