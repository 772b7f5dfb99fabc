// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Printing fault-injection cases and results: one line of text per case,
 * or JSON through the same calls.
 */
#include <stdio.h>
#include <string.h>

#include "cli/inject_print.h"
#include "lib/compat.h"
#include "lib/cvq_cmd.h"

void inject_print_case(struct output *o, const struct inject_case *c)
{
	open_json_object(o, NULL);
	print_string(o, PRINT_ANY, "name", "%-28s", c->name);
	print_string(o, PRINT_ANY, "matrix", " #%-3s", c->matrix);
	print_string(o, PRINT_ANY, "sends", " sends: %s;", c->sends);
	print_string(o, PRINT_ANY, "expects", " expects: %s", c->expects);
	close_json_object(o);
	print_nl(o);
}

static const char *ack_name(uint8_t ack)
{
	switch (ack) {
	case VIRTIO_NET_OK:
		return "OK";
	case VIRTIO_NET_ERR:
		return "ERR";
	case CVQ_ACK_UNSET:
		return "none";
	default:
		return "invalid";
	}
}

static void print_chains(struct output *o, const struct inject_obs *obs)
{
	unsigned int i;

	open_json_array(o, "chains");
	for (i = 0; i < obs->n_chains; i++) {
		const struct inject_chain_obs *c = &obs->chain[i];

		open_json_object(o, NULL);
		print_text(o, " chain%u", i + 1);
		print_bool(o, PRINT_JSON, "completed", "", c->completed);
		if (c->completed)
			print_uint(o, PRINT_ANY, "used_len", " used len %u",
				   c->used_len);
		else
			print_text(o, " never completed");
		if (c->has_ack)
			print_string(o, PRINT_ANY, "ack", " ack %s",
				     ack_name(c->ack));
		print_text(o, ";");
		close_json_object(o);
	}
	close_json_array(o);
}

static void print_probes(struct output *o, const struct inject_obs *obs)
{
	unsigned int i;

	open_json_array(o, "probes");
	for (i = 0; i < obs->n_probes; i++) {
		const struct inject_probe *p = &obs->probe[i];

		open_json_object(o, NULL);
		print_string(o, PRINT_ANY, "op", " %s:", p->op);
		print_string(o, PRINT_ANY, "result", " %s;",
			     p->err ? strerror(-p->err) : "accepted");
		print_uint(o, PRINT_JSON, "errno", "", (unsigned int)-p->err);
		close_json_object(o);
	}
	close_json_array(o);
}

static void print_notify(struct output *o, const struct inject_obs *obs)
{
	unsigned int i;

	open_json_array(o, "notify");
	for (i = 0; i < obs->n_notify; i++) {
		const struct inject_notify_obs *n = &obs->notify[i];

		open_json_object(o, NULL);
		print_string(o, PRINT_ANY, "step", " %s:", n->what);
		print_bool(o, PRINT_JSON, "served", "", n->served);
		print_uint(o, PRINT_ANY, "calls", " %u calls", n->calls);
		print_text(o, "%s;", n->served ? "" : " (not acked OK)");
		print_uint(o, PRINT_JSON, "want_min", "", n->want_min);
		print_uint(o, PRINT_JSON, "want_max", "", n->want_max);
		close_json_object(o);
	}
	close_json_array(o);
}

static void print_mac(struct output *o, const char *key, const char *fmt,
		      const uint8_t mac[MAC_LEN])
{
	char s[MAC_STR_LEN];

	format_mac(mac, s);
	print_string(o, PRINT_ANY, key, fmt, s);
}

static void print_stress(struct output *o, const struct inject_obs *obs)
{
	print_uint(o, PRINT_ANY, "rounds", " rounds %u", obs->rounds);
	print_uint(o, PRINT_ANY, "batches_ok", " full batches %u",
		   obs->batches_ok);
	print_uint(o, PRINT_ANY, "resets_seen", " NEEDS_RESET %u;",
		   obs->resets_seen);
}

static void print_recovery(struct output *o, const struct inject_obs *obs)
{
	if (!obs->recovery_run)
		return;
	open_json_object(o, "recovery");
	print_text(o, " after reset:");
	print_uint(o, PRINT_JSON, "reset_status", "",
		   (unsigned int)obs->reset_status);
	print_bool(o, PRINT_JSON, "ok", "", obs->recovery_ok);
	print_string(o, PRINT_ANY, "text", " %s", obs->recovery);
	close_json_object(o);
}

void inject_print_result(struct output *o, const char *dev,
			 const struct inject_case *c,
			 const struct inject_obs *obs)
{
	print_section_open(o, "inject");
	print_string(o, PRINT_ANY, "case", "%s", c->name);
	print_string(o, PRINT_ANY, "device", " %s", dev);
	print_string(o, PRINT_ANY, "matrix", " #%s:", c->matrix);
	print_string(o, PRINT_JSON, "sends", "", c->sends);
	print_string(o, PRINT_JSON, "expects", "", c->expects);
	if (!obs->skipped) {
		if (obs->status_valid) {
			print_uint(o, PRINT_ANY, "status", " status 0x%02x",
				   obs->status);
			print_bool(o, PRINT_JSON, "needs_reset", "",
				   obs->needs_reset);
			print_text(o, "%s;",
				   obs->needs_reset ? " NEEDS_RESET" : "");
		}
		print_chains(o, obs);
		print_probes(o, obs);
		if (c->kind == KIND_NOTIFY)
			print_notify(o, obs);
		if (obs->mac_valid) {
			print_mac(o, "mac_before", " mac %s", obs->mac_before);
			print_mac(o, "mac_after", " -> %s;", obs->mac_after);
		}
		print_bool(o, PRINT_JSON, "readable_written", "",
			   obs->readable_written);
		print_bool(o, PRINT_JSON, "bad_used", "", obs->bad_used);
		print_bool(o, PRINT_JSON, "early_touched", "",
			   obs->early_touched);
		print_bool(o, PRINT_JSON, "needed_kick", "", obs->needed_kick);
		if (obs->needed_kick)
			print_text(o, " served only after a new kick;");
		print_bool(o, PRINT_JSON, "timed_out", "", obs->timed_out);
		print_uint(o, PRINT_JSON, "elapsed_ms", "", obs->elapsed_ms);
		if (c->kind == KIND_STRESS)
			print_stress(o, obs);
	}
	print_string(o, PRINT_ANY, "verdict", " verdict %s;", obs->verdict);
	print_bool(o, PRINT_JSON, "ok", "", obs->ok);
	print_recovery(o, obs);
	print_section_close(o);
	print_nl(o);
}
