// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel-thread CPU time from a fake /proc: only threads with PF_KTHREAD
 * count, a new thread counts from 0, a vanished one adds nothing, and a
 * schedstat that does not parse is an error that keeps the last snapshot.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "load/cputime.h"

#define KTHREAD_FLAGS 0x00208040u /* PF_KTHREAD | PF_NOFREEZE | ... */
#define USER_FLAGS 0x00400100u /* PF_RANDOMIZE | PF_SUPERPRIV */

struct fake_proc {
	char root[64];
	struct kthread_cpu k;
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void make_dir(const char *path)
{
	assert_int_equal(mkdir(path, 0755), 0);
}

/* Task @pid with thread @pid, its command name @comm and @flags. */
static void add_task(struct fake_proc *p, int pid, const char *comm,
		     unsigned int flags)
{
	char path[256], text[256];

	snprintf(path, sizeof(path), "%s/%d", p->root, pid);
	make_dir(path);
	snprintf(path, sizeof(path), "%s/%d/stat", p->root, pid);
	snprintf(text, sizeof(text),
		 "%d (%s) S 2 0 0 0 -1 %u 0 0 0 0 0 0 0 0 20 0 1 0 5\n", pid,
		 comm, flags);
	write_file(path, text);
	snprintf(path, sizeof(path), "%s/%d/task", p->root, pid);
	make_dir(path);
}

static void set_thread_text(struct fake_proc *p, int pid, int tid,
			    const char *schedstat)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%d/task/%d", p->root, pid, tid);
	if (stat(path, &st))
		make_dir(path);
	snprintf(path, sizeof(path), "%s/%d/task/%d/schedstat", p->root, pid,
		 tid);
	write_file(path, schedstat);
}

/* Thread @tid of task @pid has run @ns (schedstat: ns, wait ns, slices). */
static void set_thread(struct fake_proc *p, int pid, int tid,
		       unsigned long long ns)
{
	char text[64];

	snprintf(text, sizeof(text), "%llu 12345 7\n", ns);
	set_thread_text(p, pid, tid, text);
}

/* A kernel thread as most are: one thread, its id the task's. */
static void add_kthread(struct fake_proc *p, int pid, const char *comm,
			unsigned long long ns)
{
	add_task(p, pid, comm, KTHREAD_FLAGS);
	set_thread(p, pid, pid, ns);
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static void remove_tree(const char *path)
{
	assert_int_equal(nftw(path, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

static void remove_task(struct fake_proc *p, int pid)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%d", p->root, pid);
	remove_tree(path);
}

static uint64_t sample(struct fake_proc *p)
{
	uint64_t delta = UINT64_MAX;

	assert_int_equal(kthread_cpu_sample(&p->k, &delta), 0);
	return delta;
}

static int setup(void **state)
{
	struct fake_proc *p = calloc(1, sizeof(*p));
	char path[128];

	assert_non_null(p);
	snprintf(p->root, sizeof(p->root), "/tmp/vdpactl-proc.XXXXXX");
	assert_non_null(mkdtemp(p->root));
	/* What else /proc holds: not a task. */
	snprintf(path, sizeof(path), "%s/self", p->root);
	make_dir(path);
	snprintf(path, sizeof(path), "%s/uptime", p->root);
	write_file(path, "1.00 2.00\n");
	assert_int_equal(kthread_cpu_init(&p->k, p->root), 0);
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	struct fake_proc *p = *state;

	kthread_cpu_release(&p->k);
	remove_tree(p->root);
	free(p);
	return 0;
}

static void only_kernel_threads_count(void **state)
{
	struct fake_proc *p = *state;

	add_kthread(p, 2, "kthreadd", 1000);
	/* A name with a space and a ')' must not shift the fields. */
	add_kthread(p, 40, "vDPA sim) w", 50000);
	add_task(p, 100, "busy (1) x", USER_FLAGS);
	set_thread(p, 100, 100, 5000);
	set_thread(p, 100, 101, 5000);
	assert_int_equal(sample(p), 0);

	set_thread(p, 2, 2, 1600);
	set_thread(p, 40, 40, 50030);
	set_thread(p, 100, 100, 900000);
	set_thread(p, 100, 101, 900000);
	assert_int_equal(sample(p), 630);
	/* Nothing ran. */
	assert_int_equal(sample(p), 0);
}

static void new_thread_counts_from_zero(void **state)
{
	struct fake_proc *p = *state;

	add_kthread(p, 2, "kthreadd", 1000);
	assert_int_equal(sample(p), 0);

	add_kthread(p, 77, "kworker/u4:3-events_unbound", 700);
	set_thread(p, 2, 2, 1010);
	assert_int_equal(sample(p), 710);
	set_thread(p, 77, 77, 800);
	assert_int_equal(sample(p), 100);
}

static void vanished_thread_adds_nothing(void **state)
{
	struct fake_proc *p = *state;
	char path[256];

	add_kthread(p, 2, "kthreadd", 1000);
	add_kthread(p, 30, "kworker/0:1", 9000);
	add_kthread(p, 31, "kworker/0:2", 4000);
	assert_int_equal(sample(p), 0);

	remove_task(p, 30);
	set_thread(p, 2, 2, 1100);
	set_thread(p, 31, 31, 4444);
	assert_int_equal(sample(p), 100 + 444);

	/* Listed, but gone before its schedstat was read. */
	snprintf(path, sizeof(path), "%s/31/task/31/schedstat", p->root);
	assert_int_equal(unlink(path), 0);
	set_thread(p, 2, 2, 1200);
	assert_int_equal(sample(p), 100);

	/* An exiting thread's empty schedstat: gone too. */
	set_thread_text(p, 31, 31, "");
	set_thread(p, 2, 2, 1300);
	assert_int_equal(sample(p), 100);

	/* An id reused by a younger thread, which counts from 0. */
	set_thread(p, 2, 2, 25);
	assert_int_equal(sample(p), 25);
}

static void malformed_schedstat_fails_and_keeps_snapshot(void **state)
{
	static const char *const bad[] = { "\n", "abc 1 2\n", "-5 1 2\n",
					   "12x 1 2\n",
					   "99999999999999999999999 1 2\n" };
	struct fake_proc *p = *state;
	uint64_t delta = 42;
	size_t i;

	add_kthread(p, 2, "kthreadd", 1000);
	add_kthread(p, 9, "ksoftirqd/0", 3000);
	assert_int_equal(sample(p), 0);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		set_thread(p, 2, 2, 1000 + 100 * (i + 1));
		set_thread_text(p, 9, 9, bad[i]);
		assert_int_equal(kthread_cpu_sample(&p->k, &delta), -EINVAL);
		assert_int_equal(delta, 42);
	}
	set_thread(p, 2, 2, 1700);
	set_thread(p, 9, 9, 3001);
	/* Against the last good snapshot, whole: 9 did not go missing. */
	assert_int_equal(sample(p), 700 + 1);
}

static void malformed_stat_fails(void **state)
{
	struct fake_proc *p = *state;
	uint64_t delta;
	char path[256];

	add_kthread(p, 2, "kthreadd", 1000);
	snprintf(path, sizeof(path), "%s/2/stat", p->root);
	write_file(path, "2 (kthreadd S 0 0\n");
	assert_int_equal(kthread_cpu_sample(&p->k, &delta), -EINVAL);
	write_file(path, "2 (kthreadd) S 0 0 0\n");
	assert_int_equal(kthread_cpu_sample(&p->k, &delta), -EINVAL);
}

static void missing_proc_and_long_root(void **state)
{
	struct kthread_cpu k;
	char longroot[CPUTIME_ROOT_LEN + 8];
	uint64_t delta;

	(void)state;
	assert_int_equal(kthread_cpu_init(&k, "/nonexistent/proc"), 0);
	assert_int_equal(kthread_cpu_sample(&k, &delta), -ENOENT);
	kthread_cpu_release(&k);
	memset(longroot, 'x', sizeof(longroot) - 1);
	longroot[sizeof(longroot) - 1] = '\0';
	assert_int_equal(kthread_cpu_init(&k, longroot), -ENAMETOOLONG);
}

static void process_time_grows_with_work(void **state)
{
	volatile uint64_t spin = 0;
	uint64_t before, after;

	(void)state;
	assert_int_equal(process_cpu_ns(&before), 0);
	do {
		spin++;
		assert_int_equal(process_cpu_ns(&after), 0);
	} while (after - before < 1000000);
	assert_true(after >= before + 1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(only_kernel_threads_count,
						setup, teardown),
		cmocka_unit_test_setup_teardown(new_thread_counts_from_zero,
						setup, teardown),
		cmocka_unit_test_setup_teardown(vanished_thread_adds_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			malformed_schedstat_fails_and_keeps_snapshot, setup,
			teardown),
		cmocka_unit_test_setup_teardown(malformed_stat_fails, setup,
						teardown),
		cmocka_unit_test(missing_proc_and_long_root),
		cmocka_unit_test(process_time_grows_with_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
