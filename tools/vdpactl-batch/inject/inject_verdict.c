// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verdicts: the first way the observation breaks the case's expectation
 * is the deviation reported.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "inject/inject_obs.h"
#include "lib/compat.h"
#include "lib/cvq_cmd.h"

void inject_obs_probe(struct inject_obs *o, int err, const char *fmt, ...)
{
	struct inject_probe *p;
	va_list ap;

	if (o->n_probes >= INJECT_PROBES_MAX)
		return;
	p = &o->probe[o->n_probes++];
	p->err = err;
	va_start(ap, fmt);
	vsnprintf(p->op, sizeof(p->op), fmt, ap);
	va_end(ap);
}

static bool deviate(struct inject_obs *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool deviate(struct inject_obs *o, const char *fmt, ...)
{
	int n = snprintf(o->verdict, sizeof(o->verdict), "deviation: ");
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->verdict + n, sizeof(o->verdict) - (size_t)n, fmt, ap);
	va_end(ap);
	o->ok = false;
	return false;
}

/* "completed, used len 1, ack ERR" or "never completed". */
static void describe_chain(const struct inject_chain_obs *c, char *buf,
			   size_t len)
{
	const char *ack = c->ack == VIRTIO_NET_OK  ? "OK" :
			  c->ack == VIRTIO_NET_ERR ? "ERR" :
			  c->ack == CVQ_ACK_UNSET  ? "none" :
						     "invalid";

	if (!c->completed)
		snprintf(buf, len, "never completed");
	else if (c->has_ack)
		snprintf(buf, len, "completed, used len %u, ack %s",
			 c->used_len, ack);
	else
		snprintf(buf, len, "completed, used len %u", c->used_len);
}

static bool chain_acked(struct inject_obs *o, unsigned int i, uint8_t ack,
			const char *what)
{
	const struct inject_chain_obs *c = &o->chain[i];
	char seen[64];

	if (c->completed && c->used_len == 1 && c->ack == ack)
		return true;
	describe_chain(c, seen, sizeof(seen));
	return deviate(o, "%s: %s, want used len 1, ack %s", what, seen,
		       ack == VIRTIO_NET_OK ? "OK" : "ERR");
}

static bool common_checks(struct inject_obs *o)
{
	char got[MAC_STR_LEN], want[MAC_STR_LEN];

	if (o->bad_used)
		return deviate(o, "a used entry names no chain in flight");
	if (o->readable_written)
		return deviate(o, "device-readable memory was written");
	if (o->mac_valid && memcmp(o->mac_after, o->mac_expected, MAC_LEN)) {
		format_mac(o->mac_after, got);
		format_mac(o->mac_expected, want);
		return deviate(o, "config MAC is %s, want %s", got, want);
	}
	return true;
}

static bool check_served(struct inject_obs *o, bool last_err)
{
	unsigned int i, last = o->n_chains - 1;

	for (i = 0; i < o->n_chains; i++)
		if (!chain_acked(o, i,
				 i == last && last_err ? VIRTIO_NET_ERR :
							 VIRTIO_NET_OK,
				 i == last ? "the command" :
					     "the command before"))
			return false;
	if (o->needs_reset)
		return deviate(o, "DEVICE_NEEDS_RESET set (status 0x%02x)",
			       o->status);
	return common_checks(o);
}

static bool check_reset(struct inject_obs *o, bool require_completion)
{
	const struct inject_chain_obs *c = &o->chain[o->n_chains - 1];
	char seen[64];

	describe_chain(c, seen, sizeof(seen));
	if (!o->needs_reset)
		return deviate(
			o, "no DEVICE_NEEDS_RESET (status 0x%02x), chain %s",
			o->status, seen);
	if (c->completed && (c->used_len || c->ack != CVQ_ACK_UNSET))
		return deviate(o, "NEEDS_RESET, but the chain was %s", seen);
	if (require_completion && !c->completed)
		return deviate(
			o, "NEEDS_RESET, but the chain was never completed");
	return common_checks(o);
}

static bool check_err_or_reset(struct inject_obs *o)
{
	const struct inject_chain_obs *c = &o->chain[o->n_chains - 1];
	char seen[64];

	if (o->needs_reset)
		return check_reset(o, true);
	describe_chain(c, seen, sizeof(seen));
	if (!c->completed)
		return deviate(o, "chain never completed and no NEEDS_RESET");
	if (c->used_len != 1 || c->ack != VIRTIO_NET_ERR)
		return deviate(o, "chain %s, want ack ERR or NEEDS_RESET",
			       seen);
	return common_checks(o);
}

static bool probe_refused(int err)
{
	return err == -EINVAL || err == -E2BIG;
}

static bool check_refused(const struct inject_case *c, struct inject_obs *o)
{
	unsigned int i;

	if (c->kind == KIND_CONFIG) {
		for (i = 0; i < o->n_probes; i++)
			if (!probe_refused(o->probe[i].err))
				return deviate(
					o, "%s: %s, want EINVAL or E2BIG",
					o->probe[i].op,
					o->probe[i].err ?
						strerror(-o->probe[i].err) :
						"accepted");
		return true;
	}
	if (c->kind == KIND_MMAP) {
		for (i = 0; i < o->n_probes; i++)
			if (!o->probe[i].err)
				return deviate(o, "%s: mapped, want a failure",
					       o->probe[i].op);
		return true;
	}
	for (i = 0; i < o->n_probes; i++)
		if (o->probe[i].err)
			return true;
	if (o->n_chains && o->chain[0].completed &&
	    o->chain[0].ack == VIRTIO_NET_OK)
		return deviate(o,
			       "accepted, and the queue was served (ack OK)");
	if (!o->needs_reset)
		return deviate(
			o,
			"accepted silently: no error, no NEEDS_RESET (status 0x%02x)",
			o->status);
	return true;
}

static bool check_accepted(struct inject_obs *o)
{
	unsigned int i;

	for (i = 0; i < o->n_probes; i++)
		if (o->probe[i].err)
			return deviate(o, "%s: %s", o->probe[i].op,
				       strerror(-o->probe[i].err));
	if (!o->n_chains)
		return deviate(o, "no command was sent");
	return check_served(o, false);
}

static bool check_notify(struct inject_obs *o)
{
	const struct inject_notify_obs *n;
	unsigned int i;

	if (!o->n_notify)
		return deviate(o, "no command was sent");
	for (i = 0; i < o->n_notify; i++) {
		n = &o->notify[i];
		if (!n->served)
			return deviate(o, "%s: the command was not acked OK",
				       n->what);
		if (n->calls < n->want_min)
			return deviate(o, "%s: no call, want one", n->what);
		if (n->calls > n->want_max)
			return deviate(o, "%s: %u calls, want none", n->what,
				       n->calls);
	}
	if (o->needs_reset)
		return deviate(o, "DEVICE_NEEDS_RESET set (status 0x%02x)",
			       o->status);
	return common_checks(o);
}

static bool check_untouched(struct inject_obs *o)
{
	if (o->early_touched)
		return deviate(o,
			       "the command was served before it was allowed");
	return check_served(o, false);
}

static bool check_ignored(struct inject_obs *o)
{
	if (o->early_touched)
		return deviate(
			o,
			"the device took a chain with the previous lap's AVAIL/USED bits");
	return check_served(o, false);
}

void inject_verdict(const struct inject_case *c, struct inject_obs *o)
{
	bool ok = false;

	o->ok = true;
	snprintf(o->verdict, sizeof(o->verdict), "ok");
	if (o->skipped) {
		snprintf(o->verdict, sizeof(o->verdict), "skip: %.170s",
			 o->skip_reason);
		return;
	}
	switch (c->expect) {
	case EXPECT_OK:
		ok = check_served(o, false);
		break;
	case EXPECT_ERR:
		ok = check_served(o, true);
		break;
	case EXPECT_RESET:
		ok = check_reset(o, false);
		break;
	case EXPECT_ERR_OR_RESET:
		ok = check_err_or_reset(o);
		break;
	case EXPECT_REFUSED:
		ok = check_refused(c, o);
		break;
	case EXPECT_UNTOUCHED:
		ok = check_untouched(o);
		break;
	case EXPECT_IGNORED:
		ok = check_ignored(o);
		break;
	case EXPECT_NOTIFY:
		ok = check_notify(o);
		break;
	case EXPECT_ACCEPTED:
		ok = check_accepted(o);
		break;
	case EXPECT_SURVIVES:
		ok = !o->failure[0] || deviate(o, "%.170s", o->failure);
		break;
	}
	if (ok && o->recovery_run && !o->recovery_ok)
		deviate(o, "after reset: %.160s", o->recovery);
}
