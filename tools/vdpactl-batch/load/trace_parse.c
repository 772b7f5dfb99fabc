// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parsing the module's trace events.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "load/trace_parse.h"

static const char *const event_names[] = {
	[TRACE_EV_KICK] = "vsb_cvq_kick",
	[TRACE_EV_CMD] = "vsb_cvq_cmd",
	[TRACE_EV_BATCH] = "vsb_cvq_batch",
	[TRACE_EV_NEEDS_RESET] = "vsb_needs_reset",
};

/* The event name follows the timestamp's ": " and ends at the next ':'. */
static const char *find_event(const char *line, enum trace_event_id *id)
{
	const char *p = strstr(line, ": vsb_");
	size_t len;
	unsigned int i;

	if (!p)
		return NULL;
	p += 2;
	len = strcspn(p, ":");
	for (i = 0; i < ARRAY_SIZE(event_names); i++) {
		if (strlen(event_names[i]) == len &&
		    !strncmp(p, event_names[i], len) && p[len] == ':') {
			*id = (enum trace_event_id)i;
			return p + len + 1;
		}
	}
	return NULL;
}

/* Where "KEY=" starts a field of @fields, or NULL. */
static const char *field_value(const char *fields, const char *key)
{
	size_t klen = strlen(key);
	const char *p = fields;

	while ((p = strstr(p, key))) {
		if ((p == fields || p[-1] == ' ') && p[klen] == '=')
			return p + klen + 1;
		p += klen;
	}
	return NULL;
}

static bool field_u64(const char *fields, const char *key, uint64_t *v)
{
	const char *s = field_value(fields, key);
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && (*end == ' ' || *end == '\0' || *end == '\n');
}

/* A word value (up to the next blank); the last field takes the rest. */
static bool field_str(const char *fields, const char *key, char *buf,
		      size_t size, bool rest_of_line)
{
	const char *s = field_value(fields, key);
	size_t len;

	if (!s)
		return false;
	len = rest_of_line ? strcspn(s, "\n") : strcspn(s, " \n");
	if (!len || len >= size)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return true;
}

int trace_parse_line(const char *line, struct trace_event *ev)
{
	const char *f;
	bool ok;

	*ev = (struct trace_event){ 0 };
	f = find_event(line, &ev->id);
	if (!f)
		return -ENOENT;
	ok = field_str(f, "dev", ev->dev, sizeof(ev->dev), false);
	switch (ev->id) {
	case TRACE_EV_KICK:
		break;
	case TRACE_EV_CMD:
		ok = ok && field_u64(f, "head", &ev->head) &&
		     field_u64(f, "class", &ev->class) &&
		     field_u64(f, "cmd", &ev->cmd) &&
		     field_u64(f, "ack", &ev->ack) &&
		     field_u64(f, "bytes", &ev->bytes) &&
		     field_u64(f, "ns", &ev->ns);
		break;
	case TRACE_EV_BATCH:
		ok = ok && field_u64(f, "cmds", &ev->cmds) &&
		     field_u64(f, "notified", &ev->notified) &&
		     field_u64(f, "ns", &ev->ns) &&
		     field_u64(f, "kick_ns", &ev->kick_ns);
		break;
	case TRACE_EV_NEEDS_RESET:
		ok = ok && field_u64(f, "queue", &ev->queue) &&
		     field_str(f, "reason", ev->reason, sizeof(ev->reason),
			       true);
		break;
	}
	return ok ? 0 : -EBADMSG;
}

int trace_parse_entries(const char *line, uint64_t *in_buffer,
			uint64_t *written)
{
	static const char tag[] = "# entries-in-buffer/entries-written:";
	const char *p;

	if (strncmp(line, tag, sizeof(tag) - 1))
		return -ENOENT;
	p = line + sizeof(tag) - 1;
	if (sscanf(p, " %" SCNu64 "/%" SCNu64, in_buffer, written) != 2)
		return -ENOENT;
	return 0;
}

void trace_tally_init(struct trace_tally *t, const char *dev)
{
	*t = (struct trace_tally){ 0 };
	snprintf(t->dev, sizeof(t->dev), "%s", dev);
}

void trace_tally_free(struct trace_tally *t)
{
	free(t->cmd_ns.v);
	free(t->kick_ns.v);
	t->cmd_ns = (struct sample_list){ 0 };
	t->kick_ns = (struct sample_list){ 0 };
}

static int sample_add(struct sample_list *l, uint64_t v)
{
	uint64_t *grown;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;

		grown = realloc(l->v, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		l->v = grown;
		l->cap = cap;
	}
	l->v[l->n++] = v;
	return 0;
}

static int tally_event(struct trace_tally *t, const struct trace_event *ev)
{
	switch (ev->id) {
	case TRACE_EV_KICK:
		t->kicks++;
		return 0;
	case TRACE_EV_CMD:
		t->commands++;
		if (ev->ack == TRACE_ACK_NONE)
			t->no_ack++;
		return sample_add(&t->cmd_ns, ev->ns);
	case TRACE_EV_BATCH:
		t->batches++;
		if (ev->notified)
			t->notified++;
		return sample_add(&t->kick_ns, ev->kick_ns);
	case TRACE_EV_NEEDS_RESET:
		t->needs_reset++;
		return 0;
	}
	return 0;
}

int trace_tally_line(struct trace_tally *t, const char *line)
{
	struct trace_event ev;
	uint64_t in_buffer, written;
	int err = trace_parse_line(line, &ev);

	if (err == -ENOENT) {
		if (!trace_parse_entries(line, &in_buffer, &written) &&
		    written > in_buffer)
			t->lost += written - in_buffer;
		return 0;
	}
	if (err) {
		t->malformed++;
		return 0;
	}
	if (strcmp(ev.dev, t->dev))
		return 0;
	return tally_event(t, &ev);
}

int trace_summarize(const struct sample_list *l, struct trace_summary *s)
{
	struct time_summary ts;
	int err;

	if (l->n > UINT32_MAX)
		return -E2BIG;
	err = time_summary_compute(l->v, (unsigned int)l->n, &ts);
	if (err)
		return err;
	*s = (struct trace_summary){
		.n = ts.n,
		.mean = ts.mean,
		.p50 = ts.median,
		.p99 = ts.p99,
	};
	return 0;
}
