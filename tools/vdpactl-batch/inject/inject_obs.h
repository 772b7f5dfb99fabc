/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a fault-injection case saw the device do, and the verdict against
 * the case's expectation. The verdict is pure: unit-tested without a
 * device.
 */
#ifndef VDPACTL_INJECT_OBS_H
#define VDPACTL_INJECT_OBS_H

#include <stdbool.h>
#include <stdint.h>

#include "inject/inject_case.h"
#include "lib/strparse.h"

#define INJECT_CHAINS_MAX 2
#define INJECT_PROBES_MAX 6
#define INJECT_TEXT_LEN 192
#define INJECT_OP_LEN 48
#define INJECT_NOTIFY_MAX 6

struct inject_chain_obs {
	bool completed;
	uint32_t used_len;
	bool has_ack; /* the chain offered an ack byte */
	uint8_t ack; /* CVQ_ACK_UNSET: none written */
};

/* One ioctl whose outcome is the observation. */
struct inject_probe {
	char op[INJECT_OP_LEN];
	int err; /* 0 or -errno */
};

/* One command of a notification case and the calls it brought. */
struct inject_notify_obs {
	char what[INJECT_OP_LEN];
	bool served; /* acked OK with used len 1 */
	unsigned int calls; /* call eventfd count after it came back */
	unsigned int want_min;
	unsigned int want_max;
};

struct inject_obs {
	bool skipped;
	char skip_reason[INJECT_TEXT_LEN];

	bool status_valid;
	uint8_t status; /* VHOST_VDPA_GET_STATUS at the end */
	bool needs_reset;
	bool timed_out; /* the wait ran to the timeout */
	unsigned int elapsed_ms;

	unsigned int n_chains; /* the case's chain is the last */
	struct inject_chain_obs chain[INJECT_CHAINS_MAX];
	bool bad_used; /* a used entry naming no chain of ours */
	bool readable_written; /* device-readable memory changed */

	bool mac_valid;
	uint8_t mac_before[MAC_LEN];
	uint8_t mac_after[MAC_LEN];
	uint8_t mac_expected[MAC_LEN];

	unsigned int n_probes;
	struct inject_probe probe[INJECT_PROBES_MAX];

	/* KIND_KICK_EARLY, KIND_SUSPENDED */
	bool early_touched; /* served before it was allowed */
	bool needed_kick; /* served only after a new kick */

	/* KIND_NOTIFY */
	unsigned int n_notify;
	struct inject_notify_obs notify[INJECT_NOTIFY_MAX];

	/* KIND_STRESS, KIND_SUSPEND_EARLY */
	unsigned int rounds;
	unsigned int batches_ok;
	unsigned int resets_seen; /* rounds that ended in NEEDS_RESET */
	char failure[INJECT_TEXT_LEN]; /* first broken promise, if any */

	/* After the case: reset, then a normal load. */
	bool recovery_run;
	int reset_status; /* status read after SET_STATUS 0, or -errno */
	bool recovery_ok;
	char recovery[INJECT_TEXT_LEN];

	bool ok;
	char verdict[INJECT_TEXT_LEN];
};

/* Adds a probe; extra ones are dropped. */
void inject_obs_probe(struct inject_obs *o, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Fills o->ok and o->verdict ("ok" or "deviation: ...") from @c. */
void inject_verdict(const struct inject_case *c, struct inject_obs *o);

#endif
