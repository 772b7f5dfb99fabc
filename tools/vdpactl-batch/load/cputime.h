/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU time around a load: the tool's own (its system calls included) and
 * that of every kernel thread, read from /proc. A device's worker is a
 * kernel thread (a kthread_worker or unbound kworkers that come and go),
 * so the sum over all of them charges a busy-polling device for its
 * polling whichever thread does it, and background kworkers too.
 */
#ifndef VDPACTL_CPUTIME_H
#define VDPACTL_CPUTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CPUTIME_ROOT_LEN 128

/* One kernel thread's sum_exec_runtime at a snapshot. */
struct kthread_time {
	pid_t tid;
	uint64_t ns;
};

/* The kernel threads at the last snapshot, sorted by thread id. */
struct kthread_cpu {
	char proc[CPUTIME_ROOT_LEN];
	bool sampled;
	struct kthread_time *last;
	size_t n_last, cap_last;
	struct kthread_time *scan; /* the snapshot being taken */
	size_t n_scan, cap_scan;
};

/* @proc: where procfs is, normally "/proc". -ENAMETOOLONG if too long. */
int kthread_cpu_init(struct kthread_cpu *k, const char *proc);

/*
 * Takes a snapshot and sets @delta_ns to the CPU time the kernel threads
 * used since the previous one (0 for the first): a thread that appeared
 * counts from 0, one that vanished contributes nothing (its last slice is
 * lost). -EINVAL for a schedstat or stat line that does not parse, other
 * -errno for /proc that cannot be read; a thread that exits while being
 * read counts as vanished. The previous snapshot is kept on failure.
 */
int kthread_cpu_sample(struct kthread_cpu *k, uint64_t *delta_ns);

void kthread_cpu_release(struct kthread_cpu *k);

/* The calling process's CPU time (every thread, user and system). */
int process_cpu_ns(uint64_t *ns);

#endif
