// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stand-ins for the device-facing layers (vdpa and vdpa_sim_batch
 * netlink clients, load engine) so that test_cli runs whole command lines
 * without a kernel. Devices: vdpa0 works and is a vdpa_sim_batch device
 * (MAC 02:00:00:00:00:01, VLANs 1-3 and 7), vdpa2 NACKs a command of its third load, vdpa5
 * is busy, vdpa3 has no statistics yet and a session unlike the others
 * (a 128-entry ring by default, and CTRL_MAC_ADDR negotiated); any other
 * name does not exist. vdpa_sim_batch reports EPERM for changes to "vdpa3".
 * vdpa0 keeps the CVQ fault rules added in a run, as the module does.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/log.h"
#include "load/load.h"
#include "netlink/vdpa_client.h"
#include "netlink/vsb_client.h"
#include "tests/cli/fake_backend.h"

/* What the fake device has processed, across sessions, as vstats show. */
static uint64_t fake_commands_done;
static unsigned int fake_redundant_nth;

/* Every nth command a fake load sends is acked ERR (0: none). */
static unsigned int fake_nack_nth;

/* vdpa0's CVQ fault rules, as FAULT_GET gives them. */
static struct vsb_fault_rules fake_faults;
static uint32_t fake_fault_next_id;

/* A signal raised during the timed load of that number (1-based; 0: none). */
static unsigned int fake_signal_load, fake_signal_no, fake_timed_loads;

/* The statistics requests of the current run, in order. */
static char fake_log[256];

static void fake_log_add(const char *what, const char *name)
{
	size_t used = strlen(fake_log);

	snprintf(fake_log + used, sizeof(fake_log) - used, "%s %s; ", what,
		 name ? name : "*");
}

const char *fake_backend_stats_log(void)
{
	return fake_log;
}

/* The last device a "dev add" asked for (names not kept). */
static struct vdpa_dev_new_args fake_last_add;

/* vdpa0's cost model; DEV_SET changes the items it is given. */
static struct vsb_cost fake_cost;

static void fake_cost_reset(void)
{
	unsigned int i;

	fake_cost = (struct vsb_cost){ 0 };
	for (i = VSB_COST_OP; i <= VSB_COST_PRECISE; i++)
		vsb_cost_set(&fake_cost, i, 0);
	fake_cost.item[VSB_COST_OP] = 20000;
	fake_cost.item[VSB_COST_CMD] = 1000;
	fake_cost.item[VSB_COST_VLAN] = 3000;
}

void fake_backend_reset(void)
{
	fake_commands_done = 0;
	fake_timed_loads = 0;
	fake_log[0] = '\0';
	fake_last_add = (struct vdpa_dev_new_args){ 0 };
	fake_cost_reset();
	fake_faults = (struct vsb_fault_rules){ .name = "vdpa0" };
	fake_fault_next_id = 1;
}

void fake_backend_nack_every(unsigned int nth)
{
	fake_nack_nth = nth;
}

const struct vdpa_dev_new_args *fake_backend_last_add(void)
{
	return &fake_last_add;
}

void fake_backend_signal_at(unsigned int load, int signo)
{
	fake_signal_load = load;
	fake_signal_no = (unsigned int)signo;
}

static bool known(const char *name)
{
	return !strcmp(name, "vdpa0") || !strcmp(name, "vdpa2") ||
	       !strcmp(name, "vdpa3") || !strcmp(name, "vdpa5");
}

/* The kernel has no vdpa families (for this process): they cannot open. */
static bool fake_families_absent;

void fake_backend_families_absent(bool absent)
{
	fake_families_absent = absent;
}

/* DEV_GET of a named device fails with this; 0: it answers. */
static int fake_dev_get_err;

void fake_backend_dev_get_err(int err)
{
	fake_dev_get_err = err;
}

int vdpa_client_open(struct vdpa_client *c)
{
	memset(c, 0, sizeof(*c));
	return fake_families_absent ? -ENOENT : 0;
}

void vdpa_client_close(struct vdpa_client *c)
{
	(void)c;
}

int vdpa_client_report(const struct vdpa_client *c, int err, const char *fmt,
		       ...)
{
	va_list ap;

	(void)c;
	fprintf(stderr, "%s: ", PROG_NAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(-err));
	return err;
}

int vdpa_client_mgmtdev_get(struct vdpa_client *c, const char *handle,
			    vdpa_mgmtdev_cb cb, void *data)
{
	struct vdpa_mgmtdev_info info = {
		.present = 1ULL << VDPA_ATTR_MGMTDEV_DEV_NAME |
			   1ULL << VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES |
			   1ULL << VDPA_ATTR_DEV_MGMTDEV_MAX_VQS,
		.dev_name = "vdpasim_net",
		.supported_classes = 1ULL << VIRTIO_ID_NET,
		.max_vqs = 3,
	};

	(void)c;
	if (handle && strcmp(handle, "vdpasim_net"))
		return -ENODEV;
	return cb(&info, data);
}

int vdpa_client_dev_get(struct vdpa_client *c, const char *name, vdpa_dev_cb cb,
			void *data)
{
	struct vdpa_dev_info info = {
		.present = 1ULL << VDPA_ATTR_DEV_NAME |
			   1ULL << VDPA_ATTR_DEV_ID |
			   1ULL << VDPA_ATTR_MGMTDEV_DEV_NAME |
			   1ULL << VDPA_ATTR_DEV_VENDOR_ID |
			   1ULL << VDPA_ATTR_DEV_MAX_VQS |
			   1ULL << VDPA_ATTR_DEV_MAX_VQ_SIZE,
		.name = "vdpa0",
		.device_id = VIRTIO_ID_NET,
		.max_vqs = 3,
		.max_vq_size = 256,
		.mgmtdev_name = "vdpasim_net",
	};

	(void)c;
	if (name && fake_dev_get_err)
		return fake_dev_get_err;
	if (name && !known(name))
		return -ENODEV;
	if (name)
		snprintf(info.name, sizeof(info.name), "%s", name);
	return cb(&info, data);
}

int vdpa_client_config_get(struct vdpa_client *c, const char *name,
			   vdpa_config_cb cb, void *data)
{
	struct vdpa_dev_config cfg = {
		.present = 1ULL << VDPA_ATTR_DEV_NAME |
			   1ULL << VDPA_ATTR_DEV_ID |
			   1ULL << VDPA_ATTR_DEV_NET_CFG_MACADDR |
			   1ULL << VDPA_ATTR_DEV_NET_STATUS |
			   1ULL << VDPA_ATTR_DEV_NET_CFG_MTU,
		.name = "vdpa0",
		.device_id = VIRTIO_ID_NET,
		.mac = { 2, 0, 0, 0, 0, 0x1e },
		.status = VIRTIO_NET_S_LINK_UP,
		.mtu = 1500,
	};

	(void)c;
	if (name && !known(name))
		return -ENODEV;
	return cb(&cfg, data);
}

void fake_backend_redundant_every(unsigned int nth)
{
	fake_redundant_nth = nth;
}

int vdpa_client_vstats_get(struct vdpa_client *c, const char *name,
			   uint32_t queue_index, struct vdpa_vstats *stats)
{
	(void)c;
	fake_log_add("vstats", name);
	if (!known(name))
		return -ENODEV;
	if (!strcmp(name, "vdpa3"))
		return -EAGAIN;
	*stats = (struct vdpa_vstats){
		.present = 1ULL << VDPA_ATTR_DEV_NAME |
			   1ULL << VDPA_ATTR_DEV_ID,
		.device_id = VIRTIO_ID_NET,
		.queue_index = queue_index,
		.negotiated_features = 1ULL << VIRTIO_NET_F_CTRL_VQ,
		/* The redundant counter only when asked for. */
		.n = fake_redundant_nth ? 3 : 2,
		.entries = { { "cvq requests", fake_commands_done },
			     { "cvq successes", fake_commands_done },
			     { "cvq redundant",
			       fake_redundant_nth ?
				       fake_commands_done / fake_redundant_nth :
				       0 } },
	};
	snprintf(stats->dev_name, sizeof(stats->dev_name), "%s", name);
	return 0;
}

int vdpa_client_dev_add(struct vdpa_client *c,
			const struct vdpa_dev_new_args *args)
{
	(void)c;
	fake_last_add = *args;
	fake_last_add.name = NULL;
	fake_last_add.mgmtdev_bus = NULL;
	fake_last_add.mgmtdev_name = NULL;
	return known(args->name) ? -EEXIST : 0;
}

int vdpa_client_dev_set_mac(struct vdpa_client *c, const char *name,
			    const uint8_t mac[MAC_LEN])
{
	(void)c;
	(void)mac;
	if (!known(name))
		return -ENODEV;
	/* vdpa2's parent has no dev_set_attr op. */
	return strcmp(name, "vdpa2") ? 0 : -EOPNOTSUPP;
}

int vdpa_client_dev_del(struct vdpa_client *c, const char *name)
{
	(void)c;
	return known(name) ? 0 : -ENODEV;
}

static bool is_vsb(const char *name)
{
	return name && !strcmp(name, "vdpa0");
}

int vsb_client_open(struct vdpa_client *c)
{
	memset(c, 0, sizeof(*c));
	return fake_families_absent ? -ENOENT : 0;
}

int vsb_client_dev_get(struct vdpa_client *c, const char *name, vsb_dev_cb cb,
		       void *data)
{
	struct vsb_dev_settings dev = {
		.present = 1ULL << VSB_A_DEV_NAME | 1ULL << VSB_A_COMPLETION |
			   1ULL << VSB_A_BATCH_LIMIT | 1ULL << VSB_A_COST,
		.name = "vdpa0",
		.completion = VSB_COMPLETION_MODE_BATCH,
	};

	(void)c;
	if (!fake_cost.present)
		fake_cost_reset();
	dev.cost = fake_cost;
	if (name && !is_vsb(name))
		return -ENODEV;
	return cb(&dev, data);
}

int vsb_client_state_get(struct vdpa_client *c, const char *name,
			 vsb_state_cb cb, void *data)
{
	struct vsb_state st = {
		.present = 1ULL << VSB_A_DEV_NAME | 1ULL << VSB_A_STATUS |
			   1ULL << VSB_A_MAC | 1ULL << VSB_A_RX_MODES |
			   1ULL << VSB_A_VLANS | 1ULL << VSB_A_PAIRS |
			   1ULL << VSB_A_MAX_PAIRS | 1ULL << VSB_A_OFFLOADS,
		.name = "vdpa0",
		.status = 0xf,
		.cvq.mac = { 2, 0, 0, 0, 0, 1 },
		.cvq.rx_modes = 1u << VIRTIO_NET_CTRL_RX_PROMISC,
		.cvq.uni = { .n = 1, .addr = { { 2, 0, 0, 0xaa, 0, 1 } } },
		.cvq.multi = { .overflow = true },
		.cvq.vlans = { 0x8e },
		.cvq.pairs = 1,
		.max_pairs = 1,
		.cvq.offloads = 1ULL << VIRTIO_NET_F_GUEST_CSUM,
	};

	(void)c;
	if (name && !is_vsb(name))
		return -ENODEV;
	return cb(&st, data);
}

int vsb_client_stats_get(struct vdpa_client *c, const char *name,
			 vsb_stats_cb cb, void *data)
{
	fake_log_add("module", name);
	struct vsb_stats stats = {
		.present = 1ULL << VSB_A_DEV_NAME | 1ULL << VSB_A_STATS,
		.name = "vdpa0",
		.stat_present = 1ULL << VSB_STAT_COMMANDS |
				1ULL << VSB_STAT_BATCHES,
		.has_hist = { true, true, true, true, true },
	};

	(void)c;
	if (!is_vsb(name))
		return -ENODEV;
	stats.stat[VSB_STAT_COMMANDS] = 30;
	stats.stat[VSB_STAT_BATCHES] = 1;
	stats.hist[VSB_HIST_ID_CMDS_PER_BATCH][5] = 1; /* [16, 32) */
	stats.hist[VSB_HIST_ID_CMD_NS][8] = 20; /* [128, 256) ns */
	stats.hist[VSB_HIST_ID_CMD_NS][10] = 10;
	stats.hist[VSB_HIST_ID_KICK_NS][31] = 1;
	/*
	 * The cost model: 10 operations, requested 20000 ns each ([16384,
	 * 32768)), realized 9 in that bucket and 1 in [32768, 65536).
	 */
	stats.stat_present |=
		1ULL << VSB_STAT_COST_OPS | 1ULL << VSB_STAT_COST_NS |
		1ULL << VSB_STAT_COST_REAL_NS | 1ULL << VSB_STAT_CVQ_BUSY_NS;
	stats.stat[VSB_STAT_COST_OPS] = 10;
	stats.stat[VSB_STAT_COST_NS] = 200000;
	stats.stat[VSB_STAT_COST_REAL_NS] = 240000;
	stats.stat[VSB_STAT_CVQ_BUSY_NS] = 60000;
	/* Three commands a fault rule acted on. */
	stats.stat_present |= 1ULL << VSB_STAT_FAULTS;
	stats.stat[VSB_STAT_FAULTS] = 3;
	stats.hist[VSB_HIST_ID_COST_NS][15] = 10;
	stats.hist[VSB_HIST_ID_COST_REAL_NS][15] = 9;
	stats.hist[VSB_HIST_ID_COST_REAL_NS][16] = 1;
	return cb(&stats, data);
}

int vsb_client_dev_set(struct vdpa_client *c,
		       const struct vsb_dev_settings *set)
{
	unsigned int i;

	(void)c;
	if (!strcmp(set->name, "vdpa3"))
		return -EPERM;
	if (!is_vsb(set->name))
		return -ENODEV;
	if (nl_has(set->present, VSB_A_COMPLETION) &&
	    set->completion > VSB_COMPLETION_MODE_BATCH)
		return -EINVAL;
	if (!nl_has(set->present, VSB_A_COST))
		return 0;
	if (!fake_cost.present)
		fake_cost_reset();
	/* As the module: only the items given change. */
	for (i = VSB_COST_OP; i <= VSB_COST_PRECISE; i++) {
		if (!vsb_cost_has(&set->cost, i))
			continue;
		if (i != VSB_COST_PRECISE &&
		    set->cost.item[i] > VSB_COST_MAX_NS)
			return -EINVAL;
		fake_cost.item[i] = set->cost.item[i];
	}
	return 0;
}

int vsb_client_stats_reset(struct vdpa_client *c, const char *name)
{
	(void)c;
	fake_log_add("reset", name);
	if (name && !strcmp(name, "vdpa3"))
		return -EPERM;
	return is_vsb(name) ? 0 : -ENODEV;
}

int vsb_client_link_set(struct vdpa_client *c, const char *name, bool up)
{
	(void)up;
	return vsb_client_stats_reset(c, name);
}

/* vdpa0 has a driver that negotiated GUEST_ANNOUNCE; no other does. */
int vsb_client_announce(struct vdpa_client *c, const char *name)
{
	int err = vsb_client_stats_reset(c, name);

	return err ?: strcmp(name, "vdpa0") ? -EOPNOTSUPP : 0;
}

int vsb_client_fault_get(struct vdpa_client *c, const char *name,
			 vsb_faults_cb cb, void *data)
{
	(void)c;
	if (name && !is_vsb(name))
		return -ENODEV;
	return cb(&fake_faults, data);
}

/* As the module: DELAY, and only it, has a delay; 16 rules at most. */
int vsb_client_fault_add(struct vdpa_client *c, const char *name,
			 const struct vsb_fault_rule *rule, vsb_faults_cb cb,
			 void *data, bool *replied)
{
	struct vsb_fault_rule *r;
	int err = vsb_client_stats_reset(c, name);

	*replied = false;
	if (err)
		return err;
	if ((rule->action == VSB_FAULT_ACTION_DELAY) !=
	    nl_has(rule->present, VSB_FRULE_DELAY_NS))
		return -EINVAL;
	if (fake_faults.n == VSB_FAULT_RULES_MAX)
		return -ENOSPC;
	r = &fake_faults.rule[fake_faults.n++];
	*r = *rule;
	r->id = fake_fault_next_id++;
	r->present |= 1ULL << VSB_FRULE_ID | 1ULL << VSB_FRULE_MATCHED |
		      1ULL << VSB_FRULE_HITS;
	*replied = true;
	return cb(&fake_faults, data);
}

int vsb_client_fault_clear(struct vdpa_client *c, const char *name)
{
	int err = vsb_client_stats_reset(c, name);

	if (!err)
		fake_faults.n = 0;
	return err;
}

struct load_session {
	char name[16];
	struct cvq_cmd *cmds; /* MAC_ADDR_SET 02:00:00:00:00:(i + 1) */
	struct load_config cfg;
	struct load_info info;
	struct load_counters counters;
	/* compare's warm-up loads are unmarked (-1): not counted here */
	bool warm_up;
	unsigned int timed_loads;
	uint8_t *acks; /* of the last load, by plan index */
	uint64_t sent;
	struct load_nacks nacks;
};

int load_session_open(struct load_session **session, const char *devname,
		      const char *chardev, const struct load_config *cfg,
		      int verbose)
{
	struct load_session *s;
	unsigned int i;

	(void)chardev;
	(void)verbose;
	if (!strcmp(devname, "vdpa5"))
		return pr_errno(EBUSY, "open /dev/vhost-vdpa-5");
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cmds = calloc(cfg->count, sizeof(*s->cmds));
	s->acks = calloc(cfg->count, 1);
	if (!s->cmds || !s->acks) {
		load_session_close(s);
		return -ENOMEM;
	}
	for (i = 0; i < cfg->count; i++) {
		const uint8_t mac[MAC_LEN] = { 2,
					       0,
					       0,
					       (uint8_t)(i >> 16),
					       (uint8_t)(i >> 8),
					       (uint8_t)(i + 1) };

		cvq_cmd_mac_addr_set(&s->cmds[i], mac);
	}
	snprintf(s->name, sizeof(s->name), "%s", devname);
	s->cfg = *cfg;
	s->info = (struct load_info){
		.driver_features = 1ULL << VIRTIO_NET_F_CTRL_VQ,
		.cvq_index = 2,
		.ring_size = cfg->ring_size ? cfg->ring_size : 64,
		.batch_max = 32,
		.n_mix = 1,
		.mix = { { "MAC_ADDR_SET", cfg->count } },
		.has_last_mac = true,
		.last_mac = "02:00:00:00:00:1e",
		.has_start_mac = true,
		.start_mac = "02:00:00:00:00:01",
	};
	if (!strcmp(devname, "vdpa3")) {
		s->info.driver_features |= 1ULL << VIRTIO_NET_F_CTRL_MAC_ADDR;
		if (!cfg->ring_size)
			s->info.ring_size = 128;
	}
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
	return s->acks;
}

/*
 * The acks of a load of the @n commands at @order (NULL: the plan): every
 * fake_nack_nth-th sent is refused. -EIO, as the engine, for a refusal
 * the config does not let the load go on after.
 */
static int fake_acks(struct load_session *s, const unsigned int *order,
		     unsigned int n)
{
	unsigned int k, i;

	memset(s->acks, CVQ_ACK_UNSET, s->cfg.count);
	for (k = 0; k < n; k++) {
		i = order ? order[k] : k;
		s->acks[i] = VIRTIO_NET_OK;
		if (!fake_nack_nth || ++s->sent % fake_nack_nth)
			continue;
		if (!s->cfg.continue_after_nack) {
			pr_err("%s: load %" PRIu64
			       ", command %u (MAC_ADDR_SET): device acked ERR (1)",
			       s->name, s->counters.loads + 1, i + 1);
			return -EIO;
		}
		s->acks[i] = VIRTIO_NET_ERR;
		load_nacks_add(&s->nacks, s->counters.loads + 1, i,
			       &s->cmds[i]);
	}
	return 0;
}

/* compare marks its timed loads and unmarks its warm-up ones. */
void load_session_set_mark(struct load_session *s, int slot)
{
	s->warm_up = slot < 0;
}

int load_session_run(struct load_session *s, enum load_mode mode,
		     uint64_t *elapsed_ns)
{
	return load_session_run_some(s, mode, NULL, s->cfg.count, elapsed_ns);
}

int load_session_run_some(struct load_session *s, enum load_mode mode,
			  const unsigned int *order, unsigned int n,
			  uint64_t *elapsed_ns)
{
	/* After two good timed loads, so a late failure keeps their samples. */
	if (!strcmp(s->name, "vdpa2") && !s->warm_up && s->timed_loads == 2) {
		pr_err("%s: load 3, command 1 (MAC_ADDR_SET): device acked ERR (1)",
		       s->name);
		return -EIO;
	}
	if (fake_acks(s, order, n))
		return -EIO;
	/* As Ctrl-C in the middle of a load: it still completes. */
	if (!s->warm_up && ++fake_timed_loads == fake_signal_load)
		raise((int)fake_signal_no);
	/* Parallel is a third faster, so speed-ups are easy to check. */
	*elapsed_ns = (uint64_t)n * (mode == LOAD_MODE_SERIAL ? 4000 : 3000);
	s->counters.loads++;
	s->timed_loads += !s->warm_up;
	s->counters.commands += n;
	fake_commands_done += n;
	return 0;
}

/* No ring: the reports of the fake loads have no vring_base. */
int load_session_vring_base(struct load_session *s, uint32_t *device,
			    uint32_t *driver)
{
	(void)s;
	(void)device;
	(void)driver;
	return -ENOTTY;
}

int load_session_restore_mac(struct load_session *s, bool *restored)
{
	fake_log_add("restore_mac", s->name);
	*restored = true;
	return 0;
}

void load_session_close(struct load_session *s)
{
	if (!s)
		return;
	free(s->cmds);
	free(s->acks);
	free(s);
}
