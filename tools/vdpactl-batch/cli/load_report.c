// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report of a "load" run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/feature_print.h"
#include "cli/load_report.h"
#include "cli/vsb_print.h"
#include "lib/cvq_cmd.h"

void print_summary_us(struct output *o, enum print_kind kind, const char *key,
		      const struct time_summary *ns)
{
	if (kind & PRINT_FP)
		print_text(o, "\n  %s", key);
	open_json_object(o, key);
	print_double(o, kind, "min", " min %.3f", ns->min / 1e3);
	/* The quartiles only in JSON, so text keeps its width. */
	print_double(o, PRINT_JSON, "q1", NULL, ns->q1 / 1e3);
	print_double(o, kind, "median", " median %.3f", ns->median / 1e3);
	print_double(o, PRINT_JSON, "q3", NULL, ns->q3 / 1e3);
	print_double(o, kind, "p99", " p99 %.3f", ns->p99 / 1e3);
	print_double(o, kind, "max", " max %.3f", ns->max / 1e3);
	print_double(o, kind, "mean", " mean %.3f", ns->mean / 1e3);
	close_json_object(o);
}

static void print_setup(struct output *o, const struct load_report *r)
{
	const struct load_config *cfg = r->cfg;
	const struct load_info *info = r->info;
	unsigned int i;

	print_handle_open(o, r->target->loc.name);
	print_string(o, PRINT_ANY, "mgmtdev", "mgmtdev %s", r->target->mgmtdev);
	print_string(o, PRINT_ANY, "chardev", " chardev %s",
		     r->target->loc.chardev);
	print_string(o, PRINT_ANY, "profile", " profile %s",
		     load_profile_names[cfg->profile]);
	print_string(o, PRINT_ANY, "mode", " mode %s",
		     load_mode_names[cfg->mode]);
	print_string(o, PRINT_ANY, "kick", " kick %s",
		     load_kick_names[cfg->kick]);
	print_string(o, PRINT_ANY, "wait", " wait %s",
		     load_wait_names[cfg->wait]);
	print_bool(o, PRINT_ANY, "asid", " asid %s", cfg->asid);
	/* Only when set: the keys of warm loads stay as they were. */
	if (cfg->cold)
		print_bool(o, PRINT_ANY, "cold", " cold %s", true);
	print_uint(o, PRINT_ANY, "count", "\n  count %u", cfg->count);
	print_uint(o, PRINT_ANY, "rounds", " rounds %u", cfg->rounds);
	print_uint(o, PRINT_ANY, "timeout_ms", " timeout_ms %u",
		   cfg->timeout_ms);
	print_uint(o, PRINT_ANY, "ring_size", " ring_size %u", info->ring_size);
	/* Only when set, as cold: a split ring's keys stay as they were. */
	if (cfg->ring != VQ_FORMAT_SPLIT)
		print_string(o, PRINT_ANY, "ring", " ring %s",
			     load_ring_names[cfg->ring]);
	print_uint(o, PRINT_ANY, "ring_max", " ring_max %u", info->ring_max);
	print_uint(o, PRINT_ANY, "batch_max", " batch_max %u", info->batch_max);
	print_uint(o, PRINT_ANY, "cvq_index", " cvq_index %u", info->cvq_index);
	print_uint(o, PRINT_ANY, "max_vqp", " max_vqp %u", info->max_vqp);

	print_text(o, "\n  negotiated_features");
	print_net_features(o, "negotiated_features", info->driver_features);
	print_text(o, "\n  device_features");
	print_net_features(o, "device_features", info->device_features);
	print_text(o, "\n  backend_features");
	print_backend_features(o, "backend_features", info->backend_features);

	print_text(o, "\n  commands ");
	open_json_object(o, "commands");
	for (i = 0; i < info->n_mix; i++)
		print_named_u64(o, info->mix[i].name, info->mix[i].count);
	close_json_object(o);
	if (info->has_last_mac)
		print_string(o, PRINT_ANY, "last_mac", "\n  last_mac %s",
			     info->last_mac);
	if (info->has_start_mac) {
		print_string(o, PRINT_ANY, "start_mac", "\n  start_mac %s",
			     info->start_mac);
		print_bool(o, PRINT_ANY, "mac_restored", " restored %s",
			   r->mac_restored);
	}
}

static void print_timings(struct output *o, const struct load_report *r)
{
	const struct load_counters *c = r->counters;
	double total_us = r->per_load_ns.total / 1e3;

	print_u64(o, PRINT_ANY, "total_commands", "\n  total_commands %" PRIu64,
		  c->commands);
	print_double(o, PRINT_ANY, "total_us", " total_us %.3f", total_us);
	print_double(o, PRINT_ANY, "commands_per_sec", " commands_per_sec %.1f",
		     total_us > 0 ? (double)c->commands * 1e6 / total_us : 0);
	print_summary_us(o, PRINT_ANY, "per_load_us", &r->per_load_ns);
	print_summary_us(o, PRINT_ANY, "per_command_us", &r->per_command_ns);
	/* A cold load's time less its start: the CVQ's part alone. */
	if (r->cfg->cold) {
		print_summary_us(o, PRINT_ANY, "per_load_cmds_us", &r->cmds_ns);
		print_u64(o, PRINT_ANY, "cold_starts",
			  "\n  cold_starts %" PRIu64, c->cold_starts);
	}
	print_u64(o, PRINT_ANY, "batches", "\n  batches %" PRIu64, c->batches);
	print_u64(o, PRINT_ANY, "kicks", " kicks %" PRIu64, c->kicks);
	print_u64(o, PRINT_ANY, "sleeps", " sleeps %" PRIu64, c->sleeps);
}

static const struct vdpa_vstat *find_stat(const struct vdpa_vstats *s,
					  const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->entries[i].name, name))
			return &s->entries[i];
	return NULL;
}

void print_vstat_set(struct output *o, const char *key,
		     const struct vdpa_vstats *s)
{
	unsigned int i;

	if (!o->json)
		return;
	open_json_object(o, key);
	for (i = 0; i < s->n; i++)
		print_named_u64(o, s->entries[i].name, s->entries[i].value);
	close_json_object(o);
}

void load_vstats_note(char *note, size_t size, int err)
{
	if (err == -ENOTCONN)
		snprintf(note, size, "not read (no vdpa netlink)");
	else
		snprintf(note, size, "not offered by the device (%s)",
			 strerror(-err));
}

/* Counters by name: whatever the device offers, before, after, delta. */
static void print_vstats(struct output *o, const struct load_report *r)
{
	const struct vdpa_vstats *after = &r->vstats_after;
	unsigned int i;

	if (!r->has_vstats) {
		print_string(o, PRINT_ANY, "vstats_note", "\n  vstats: %s",
			     r->vstats_note);
		return;
	}
	open_json_object(o, "vstats");
	print_uint(o, PRINT_ANY, "queue_index", "\n  vstats qidx %u",
		   after->queue_index);
	print_vstat_set(o, "before", &r->vstats_before);
	print_vstat_set(o, "after", after);
	open_json_object(o, "delta");
	for (i = 0; i < after->n; i++) {
		const struct vdpa_vstat *now = &after->entries[i];
		const struct vdpa_vstat *was =
			find_stat(&r->vstats_before, now->name);
		uint64_t before = was ? was->value : 0;

		print_text(o,
			   "\n    %s %" PRIu64 " -> %" PRIu64 " (+%" PRIu64 ")",
			   now->name, before, now->value, now->value - before);
		if (o->json)
			print_named_u64(o, now->name, now->value - before);
	}
	close_json_object(o);
	close_json_object(o);
}

static void print_skip(struct output *o, const struct load_skip *k)
{
	open_json_object(o, "skip_unchanged");
	print_string(o, PRINT_ANY, "source", "\n  skip_unchanged source %s",
		     k->from_module ? "state" : "config");
	print_u64(o, PRINT_ANY, "sent", " sent %" PRIu64, k->sent);
	print_u64(o, PRINT_ANY, "skipped", " skipped %" PRIu64, k->skipped);
	open_json_object(o, "skipped_per_load");
	print_uint(o, PRINT_ANY, "first", " per_load first %u",
		   k->skipped_first);
	print_uint(o, PRINT_ANY, "min", " min %u", k->skipped_min);
	print_uint(o, PRINT_ANY, "max", " max %u", k->skipped_max);
	close_json_object(o);
	print_uint(o, PRINT_ANY, "empty_loads",
		   "\n  empty_loads %u (nothing to send: not run, not timed)",
		   k->empty_loads);
	print_uint(o, PRINT_ANY, "timed_loads", " timed_loads %u",
		   k->loads - k->empty_loads);
	if (k->checked) {
		print_bool(o, PRINT_ANY, "model_agrees", "\n  model_agrees %s",
			   !k->differs);
		if (k->differs)
			print_string(o, PRINT_ANY, "model_differs_in", " in %s",
				     k->differs);
	}
	close_json_object(o);
}

static void print_trace_summary(struct output *o, const char *key, bool has,
				const struct trace_summary *s)
{
	open_json_object(o, key);
	print_text(o, "\n    %s", key);
	print_uint(o, PRINT_ANY, "n", " n %u", has ? s->n : 0);
	if (has) {
		print_double(o, PRINT_ANY, "mean", " mean %.1f", s->mean);
		print_double(o, PRINT_ANY, "p50", " p50 %.1f", s->p50);
		print_double(o, PRINT_ANY, "p99", " p99 %.1f", s->p99);
	}
	close_json_object(o);
}

static void print_trace(struct output *o, const struct load_trace *t)
{
	const struct trace_tally *c = &t->tally;

	open_json_object(o, "trace");
	print_text(o, "\n  trace");
	open_json_object(o, "events");
	print_u64(o, PRINT_ANY, "commands", " commands %" PRIu64, c->commands);
	print_u64(o, PRINT_ANY, "batches", " batches %" PRIu64, c->batches);
	print_u64(o, PRINT_ANY, "kicks", " kicks %" PRIu64, c->kicks);
	print_u64(o, PRINT_ANY, "notified", " notified %" PRIu64, c->notified);
	print_u64(o, PRINT_ANY, "no_ack", " no_ack %" PRIu64, c->no_ack);
	print_u64(o, PRINT_ANY, "needs_reset", " needs_reset %" PRIu64,
		  c->needs_reset);
	close_json_object(o);
	print_u64(o, PRINT_ANY, "lost", " lost %" PRIu64, c->lost);
	print_u64(o, PRINT_ANY, "malformed", " malformed %" PRIu64,
		  c->malformed);
	print_trace_summary(o, "cmd_ns", t->has_cmd_ns, &t->cmd_ns);
	print_trace_summary(o, "kick_to_completion_ns", t->has_kick_ns,
			    &t->kick_ns);
	close_json_object(o);
}

static void print_extras(struct output *o, const struct load_extras *x)
{
	if (x->skip.on)
		print_skip(o, &x->skip);
	if (x->trace.collected)
		print_trace(o, &x->trace);
	if (x->has_end_state)
		print_vsb_state_summary(o, &x->end_state);
}

/*
 * Where the device says the CVQ is (get_vq_state) beside where the driver
 * is: they must agree once every command is acked.
 */
static void print_vring_base(struct output *o, const struct load_report *r)
{
	if (!r->has_vring_base)
		return;
	open_json_object(o, "vring_base");
	print_uint(o, PRINT_ANY, "device", "\n  vring_base device %#x",
		   r->vring_base_device);
	print_uint(o, PRINT_ANY, "driver", " driver %#x", r->vring_base_driver);
	close_json_object(o);
}

/* The commands the device acked VIRTIO_NET_ERR, the first ones by name. */
static void print_nacks(struct output *o, const struct load_nacks *n)
{
	char class[CVQ_CODE_LEN], cmd[CVQ_CODE_LEN];
	unsigned int i;

	open_json_object(o, "nacked");
	print_u64(o, PRINT_ANY, "count",
		  "\n  nacked %" PRIu64 " (acked VIRTIO_NET_ERR)", n->count);
	open_json_array(o, "first");
	for (i = 0; i < n->kept; i++) {
		const struct load_nack *k = &n->first[i];

		open_json_object(o, NULL);
		print_u64(o, PRINT_ANY, "load", "\n    load %" PRIu64, k->load);
		print_uint(o, PRINT_ANY, "index", " command %u", k->index);
		print_string(o, PRINT_ANY, "class", " class %s",
			     cvq_class_format(k->class, class, sizeof(class)));
		print_string(o, PRINT_JSON, "command", NULL,
			     cvq_cmd_format(k->class, k->cmd, cmd,
					    sizeof(cmd)));
		print_text(o, " %s", k->text);
		close_json_object(o);
	}
	close_json_array(o);
	if (n->count > n->kept)
		print_text(o, "\n    and %" PRIu64 " more", n->count - n->kept);
	close_json_object(o);
}

void print_load_report(struct output *o, const struct load_report *r)
{
	print_section_open(o, "load");
	print_setup(o, r);
	print_timings(o, r);
	print_vstats(o, r);
	print_vring_base(o, r);
	if (r->extras)
		print_extras(o, r->extras);
	if (r->info->note[0])
		print_string(o, PRINT_ANY, "note", "\n  note: %s",
			     r->info->note);
	if (r->nacks && r->nacks->count)
		print_nacks(o, r->nacks);
	if (r->failed) {
		print_bool(o, PRINT_JSON, "interrupted", NULL, r->interrupted);
		open_json_object(o, "failed");
		print_uint(o, PRINT_ANY, "after_loads",
			   "\n  failed after %u loads", r->loads_done);
		print_uint(o, PRINT_ANY, "of", " of %u", r->cfg->rounds);
		print_string(o, PRINT_ANY, "error", ": %s", r->failure);
		close_json_object(o);
	}
	print_handle_close(o);
	print_section_close(o);
}
