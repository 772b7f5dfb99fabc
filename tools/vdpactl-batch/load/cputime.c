// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel threads' and the process's CPU time, from /proc and the clock.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "load/cputime.h"

/* include/linux/sched.h: the task is a kernel thread. */
#define PF_KTHREAD 0x00200000u

/* Longer than any /proc/PID/task/TID/schedstat path under the root. */
#define CPUTIME_PATH_LEN (CPUTIME_ROOT_LEN + 64)

/*
 * A /proc file's text into @buf, NUL-terminated: its length, 0 when the
 * task is gone (ENOENT, ESRCH, or an empty read), or -errno.
 */
static ssize_t read_proc_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		return err == ENOENT || err == ESRCH ? 0 : -err;
	}
	n = read(fd, buf, len - 1);
	err = n < 0 ? errno : 0;
	close(fd);
	if (n < 0)
		return err == ESRCH ? 0 : -err;
	buf[n] = '\0';
	return n;
}

/* A decimal pid or tid: the directories of /proc and of task/. */
static pid_t parse_id(const char *name)
{
	char *end;
	long v;

	if (*name < '0' || *name > '9')
		return -1;
	errno = 0;
	v = strtol(name, &end, 10);
	if (*end || errno || v <= 0 || v > INT32_MAX)
		return -1;
	return (pid_t)v;
}

/*
 * Whether /proc/@pid/stat has PF_KTHREAD in its flags: 1, 0, or -errno
 * (0 as well for a task that is gone). The fields start after the last
 * ')', as the command name may hold any character.
 */
static int is_kthread(const struct kthread_cpu *k, pid_t pid)
{
	char path[CPUTIME_PATH_LEN], buf[1024], state;
	const char *p;
	unsigned int flags;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%d/stat", k->proc, (int)pid);
	n = read_proc_file(path, buf, sizeof(buf));
	if (n <= 0)
		return (int)n;
	p = strrchr(buf, ')');
	if (!p ||
	    sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2)
		return -EINVAL;
	return !!(flags & PF_KTHREAD);
}

/* The first field of a schedstat line: ns on the CPU. */
static int parse_schedstat(const char *buf, uint64_t *ns)
{
	unsigned long long v;
	char *end;

	if (*buf < '0' || *buf > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || (*end != ' ' && *end != '\n'))
		return -EINVAL;
	*ns = v;
	return 0;
}

static int scan_add(struct kthread_cpu *k, pid_t tid, uint64_t ns)
{
	if (k->n_scan == k->cap_scan) {
		size_t cap = k->cap_scan ? 2 * k->cap_scan : 256;
		struct kthread_time *t = realloc(k->scan, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		k->scan = t;
		k->cap_scan = cap;
	}
	k->scan[k->n_scan++] = (struct kthread_time){ .tid = tid, .ns = ns };
	return 0;
}

/* Every thread of kernel thread @pid (one, in practice) into the scan. */
static int scan_tasks(struct kthread_cpu *k, pid_t pid)
{
	char path[CPUTIME_PATH_LEN], buf[128];
	struct dirent *de;
	uint64_t ns;
	ssize_t n;
	pid_t tid;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%d/task", k->proc, (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT || errno == ESRCH ? 0 : -errno;
	while (!err && (de = readdir(dir))) {
		tid = parse_id(de->d_name);
		if (tid < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%d/task/%d/schedstat", k->proc,
			 (int)pid, (int)tid);
		n = read_proc_file(path, buf, sizeof(buf));
		if (n < 0) {
			err = (int)n;
		} else if (n > 0) {
			err = parse_schedstat(buf, &ns);
			if (!err)
				err = scan_add(k, tid, ns);
		}
	}
	closedir(dir);
	return err;
}

static int scan_all(struct kthread_cpu *k)
{
	struct dirent *de;
	DIR *dir;
	pid_t pid;
	int err = 0, kthread;

	k->n_scan = 0;
	dir = opendir(k->proc);
	if (!dir)
		return -errno;
	while (!err && (de = readdir(dir))) {
		pid = parse_id(de->d_name);
		if (pid < 0)
			continue;
		kthread = is_kthread(k, pid);
		if (kthread < 0)
			err = kthread;
		else if (kthread)
			err = scan_tasks(k, pid);
	}
	closedir(dir);
	return err;
}

static int by_tid(const void *a, const void *b)
{
	pid_t x = ((const struct kthread_time *)a)->tid;
	pid_t y = ((const struct kthread_time *)b)->tid;

	return (x > y) - (x < y);
}

/*
 * Walks both sorted snapshots together. A thread id that went backwards
 * is a new thread under a reused id, so it too counts from 0.
 */
static uint64_t scan_delta(const struct kthread_cpu *k)
{
	uint64_t sum = 0;
	size_t i = 0, j;

	for (j = 0; j < k->n_scan; j++) {
		const struct kthread_time *now = &k->scan[j];

		while (i < k->n_last && k->last[i].tid < now->tid)
			i++;
		if (i < k->n_last && k->last[i].tid == now->tid &&
		    k->last[i].ns <= now->ns)
			sum += now->ns - k->last[i].ns;
		else
			sum += now->ns;
	}
	return sum;
}

int kthread_cpu_init(struct kthread_cpu *k, const char *proc)
{
	*k = (struct kthread_cpu){ 0 };
	return str_copy(k->proc, sizeof(k->proc), proc) ? 0 : -ENAMETOOLONG;
}

int kthread_cpu_sample(struct kthread_cpu *k, uint64_t *delta_ns)
{
	struct kthread_time *t;
	size_t cap;
	int err;

	err = scan_all(k);
	if (err)
		return err;
	qsort(k->scan, k->n_scan, sizeof(*k->scan), by_tid);
	*delta_ns = k->sampled ? scan_delta(k) : 0;
	t = k->last;
	cap = k->cap_last;
	k->last = k->scan;
	k->n_last = k->n_scan;
	k->cap_last = k->cap_scan;
	k->scan = t;
	k->cap_scan = cap;
	k->n_scan = 0;
	k->sampled = true;
	return 0;
}

void kthread_cpu_release(struct kthread_cpu *k)
{
	free(k->last);
	free(k->scan);
	*k = (struct kthread_cpu){ 0 };
}

int process_cpu_ns(uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return -errno;
	*ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	return 0;
}
