// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tool's own tracefs instance.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/util.h"
#include "load/tracefs.h"

/* Room per recorded event (header, fields, the device name) with slack. */
#define TRACE_BYTES_PER_EVENT 128
#define TRACE_BUFFER_KB_MIN 1024
/* All CPUs' buffers together: at most this, and a 16th of the memory. */
#define TRACE_BUFFER_TOTAL_KB_MAX (256 * 1024)

uint64_t trace_buffer_kb(uint64_t events, unsigned int cpus, uint64_t mem_kb)
{
	uint64_t need =
		events * TRACE_BYTES_PER_EVENT / 1024 + TRACE_BUFFER_KB_MIN;
	uint64_t total = mem_kb / 16, per_cpu;

	/*
	 * Every CPU gets the size written, and the device's worker may run
	 * on any of them: the whole run's events must fit in one CPU's
	 * buffer, and all of them together in the budget. What does not
	 * fit is counted as lost in the report.
	 */
	if (total > TRACE_BUFFER_TOTAL_KB_MAX)
		total = TRACE_BUFFER_TOTAL_KB_MAX;
	per_cpu = total / (cpus ? cpus : 1);
	if (per_cpu < TRACE_BUFFER_KB_MIN)
		per_cpu = TRACE_BUFFER_KB_MIN;
	return need < per_cpu ? need : per_cpu;
}

/* The machine's CPUs (each has a buffer) and memory, in KiB. */
static void machine_size(unsigned int *cpus, uint64_t *mem_kb)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	*cpus = n > 0 ? (unsigned int)n : 1;
	*mem_kb = pages > 0 && page > 0 ?
			  (uint64_t)pages * (uint64_t)page / 1024 :
			  0;
}

static int write_file(const char *dir, const char *file, const char *value)
{
	char path[TRACEFS_PATH_LEN * 2];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		return pr_errno(errno, "open %s", path);
	if (fputs(value, f) == EOF)
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		return pr_errno(err, "write \"%s\" to %s", value, path);
	return 0;
}

/* tracefs is mounted at /sys/kernel/tracing, or under debugfs on old setups. */
static int find_tracefs(const char *sys, char *root, size_t len)
{
	static const char *const places[] = { "kernel/tracing",
					      "kernel/debug/tracing" };
	char instances[TRACEFS_PATH_LEN + 16];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(places); i++) {
		snprintf(root, len, "%s/%s", sys, places[i]);
		snprintf(instances, sizeof(instances), "%s/instances", root);
		if (!access(instances, W_OK))
			return 0;
	}
	return -ENOENT;
}

int trace_marker_open(const char *sys)
{
	char root[TRACEFS_PATH_LEN / 2], path[TRACEFS_PATH_LEN];
	int fd;

	if (find_tracefs(sys, root, sizeof(root)))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/trace_marker", root);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int trace_instance_start(struct trace_instance *t, const char *sys,
			 uint64_t events, char *why, size_t why_len)
{
	char root[TRACEFS_PATH_LEN / 2], sysdir[TRACEFS_PATH_LEN + 32];
	uint64_t mem_kb;
	unsigned int cpus;
	char kb[24];
	int err;

	*t = (struct trace_instance){ 0 };
	if (find_tracefs(sys, root, sizeof(root))) {
		snprintf(why, why_len, "no writable tracefs under %s/kernel",
			 sys);
		return -ENOENT;
	}
	snprintf(t->dir, sizeof(t->dir), "%s/instances/%s-%ld", root, PROG_NAME,
		 (long)getpid());
	if (mkdir(t->dir, 0700))
		return pr_errno(errno, "create trace instance %s", t->dir);
	t->created = true;
	snprintf(sysdir, sizeof(sysdir), "%s/events/%s", t->dir,
		 TRACE_SYSTEM_NAME);
	if (access(sysdir, F_OK)) {
		snprintf(why, why_len, "no %s trace events", TRACE_SYSTEM_NAME);
		trace_instance_remove(t);
		return -ENOENT;
	}
	machine_size(&cpus, &mem_kb);
	snprintf(kb, sizeof(kb), "%" PRIu64,
		 trace_buffer_kb(events, cpus, mem_kb));
	err = write_file(t->dir, "buffer_size_kb", kb);
	if (!err)
		err = write_file(t->dir, "events/" TRACE_SYSTEM_NAME "/enable",
				 "1");
	if (err)
		trace_instance_remove(t);
	else
		t->enabled = true;
	return err;
}

int trace_instance_collect(struct trace_instance *t, struct trace_tally *tally)
{
	char path[TRACEFS_PATH_LEN + 8];
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int err;

	err = write_file(t->dir, "tracing_on", "0");
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/trace", t->dir);
	f = fopen(path, "r");
	if (!f)
		return pr_errno(errno, "open %s", path);
	while (!err && getline(&line, &cap, f) >= 0)
		err = trace_tally_line(tally, line);
	if (!err && ferror(f))
		err = pr_errno(EIO, "read %s", path);
	else if (err)
		pr_errno(err, "count the events of %s", path);
	free(line);
	fclose(f);
	return err;
}

void trace_instance_remove(struct trace_instance *t)
{
	if (!t->created)
		return;
	/* Leaves nothing recording, even if the removal fails. */
	if (t->enabled)
		write_file(t->dir, "events/" TRACE_SYSTEM_NAME "/enable", "0");
	t->enabled = false;
	if (rmdir(t->dir))
		pr_errno(errno, "remove trace instance %s", t->dir);
	t->created = false;
}
