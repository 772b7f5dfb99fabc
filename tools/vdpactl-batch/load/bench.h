/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measurement engine of "load" and "compare": load sessions (targets)
 * times modes (runs), measured in rounds. Each round visits every run
 * once; the target order rotates and the mode order flips from round to
 * round, so that drift of the machine hits every run alike and no target
 * always goes first or right after another. An optional untimed warm-up
 * load per run comes first. Per run it keeps one timing sample per timed
 * load and, over whole rounds only, the counters' deltas, the vendor
 * counters' deltas and (on request) CPU time; then summaries, and the
 * spread of each run's speed-up over a reference run, round by round.
 *
 * The sessions are reached through bench_session_ops, and the netlink
 * side (vendor counters, the plan of a load) through bench_hooks, so the
 * engine needs neither a device nor the command line: tests drive it
 * with fakes.
 */
#ifndef VDPACTL_BENCH_H
#define VDPACTL_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "load/cputime.h"
#include "load/load.h"
#include "load/timestats.h"
#include "netlink/vdpa_msg.h"

#define BENCH_TARGETS_MAX 16
#define BENCH_MODES_MAX 2
#define BENCH_RUNS_MAX (BENCH_TARGETS_MAX * BENCH_MODES_MAX)
#define BENCH_NAME_LEN 64

/* How the engine reaches one session; load_session_*() in the tool. */
struct bench_session_ops {
	/*
	 * One load in @mode of the @n commands of the plan at @order, or of
	 * the whole plan (@n is then the count) when @order is NULL.
	 */
	int (*run)(void *session, enum load_mode mode,
		   const unsigned int *order, unsigned int n,
		   uint64_t *elapsed_ns);
	const struct load_counters *(*counters)(const void *session);
	/* Marker slot around the timed region; NULL: no markers. */
	void (*set_mark)(void *session, int slot);
};

/* What needs more than the session; each may be NULL. */
struct bench_hooks {
	void *arg;
	/* The vendor counters of a target's CVQ; -errno if it has none. */
	int (*read_vstats)(void *arg, unsigned int target,
			   struct vdpa_vstats *stats);
	/*
	 * The commands of a target's next timed load: how many, and in
	 * *@order their indices (NULL: the plan as it is). 0 sends nothing
	 * and times nothing. Warm-up loads are not planned.
	 */
	unsigned int (*plan)(void *arg, unsigned int target,
			     const unsigned int **order);
	/* After each whole round: @done of @rounds (a progress line). */
	void (*round_done)(void *arg, unsigned int done, unsigned int rounds);
};

struct bench_config {
	const char *name; /* for diagnostics: "compare" */
	unsigned int count; /* commands per load (the whole plan) */
	unsigned int rounds;
	/*
	 * The index the first round takes in the rotation (0 by default):
	 * round r runs in the order of round first_round + r, so that a
	 * caller that runs one round at a time rotates as one run would.
	 */
	unsigned int first_round;
	/*
	 * Loads per run and turn, back to back (0 counts as 1): more than
	 * one lets a device's worker stay awake between them, as in a run
	 * of one device's loads; each is a sample of the round.
	 */
	unsigned int turn;
	enum load_mode modes[BENCH_MODES_MAX];
	unsigned int n_modes;
	/* One untimed load per run before the first round. */
	bool warm_up;
	/* Marker slot: the run's index on timed loads, none on warm-ups. */
	bool marks;
	/* Keep each load's commands-only time (cold loads). */
	bool cmds_times;
	/* CPU time around each load (load/cputime.h); @proc: "/proc". */
	bool cpu;
	const char *proc;
	/*
	 * Non-zero asks the engine to stop after the load in progress (a
	 * signal handler sets it); NULL: never.
	 */
	const volatile sig_atomic_t *stop;
};

/* What a run's loads did; per run, over whole rounds. */
struct bench_tally {
	struct load_counters counters;
	struct vdpa_vstats vstats; /* deltas, by name */
	uint64_t client_cpu_ns;
	uint64_t kthread_cpu_ns;
};

struct bench_target {
	void *session;
	char name[BENCH_NAME_LEN];
	const struct load_info *info;
	/*
	 * Vendor counters: the first reading (before the first round) and
	 * the last one; with one run per target they are read only then, with
	 * more around each load, to tell the runs apart.
	 */
	bool has_vstats;
	int vstats_err; /* why not, from read_vstats() */
	struct vdpa_vstats first, last;
};

struct bench_run {
	unsigned int target;
	enum load_mode mode;
	/*
	 * One sample per timed load, of whole rounds: n of them, the k-th
	 * load of round r's turn at r * turn + k.
	 */
	uint64_t *ns;
	uint64_t *cmds_ns; /* NULL unless cfg.cmds_times */
	unsigned int *sent; /* commands of each; NULL: every load sent count */
	unsigned int n;
	unsigned int n_pending; /* with the round in progress */
	struct bench_tally total;
	struct bench_tally round; /* the round in progress */
	/* bench_summarize(); all 0 for a run without samples. */
	struct time_summary per_load_ns;
	struct time_summary per_command_ns;
	struct time_summary per_load_cmds_ns;
	/* Against the reference run: ratio of medians, then per round. */
	double speedup;
	bool has_spread;
	struct ratio_summary speedup_spread;
	bool within_noise;
};

struct bench {
	struct bench_config cfg;
	struct bench_session_ops ops;
	struct bench_hooks hooks;
	struct kthread_cpu kthreads;
	struct bench_target targets[BENCH_TARGETS_MAX];
	unsigned int n_targets;
	struct bench_run runs[BENCH_RUNS_MAX];
	unsigned int n_runs;
	unsigned int rounds_done; /* the samples cover these */
};

/*
 * -EINVAL for a config the engine cannot run (no mode, a plan hook with a
 * warm-up, which the plan would not see), -ENOMEM, or /proc unusable with
 * cfg.cpu; printed, naming cfg.name.
 */
int bench_create(struct bench **b, const struct bench_config *cfg,
		 const struct bench_session_ops *ops,
		 const struct bench_hooks *hooks);

/*
 * A target and its runs, one per mode of the config, in that order: run
 * i * n_modes + m is target i's in mode m. @info is what it negotiated.
 */
int bench_add_target(struct bench *b, void *session, const char *name,
		     const struct load_info *info);

/*
 * Like with like: every target must run the same plan (the same
 * commands, in a ring of the same size, under the same negotiated
 * features) or a comparison measures the difference in plans. -EINVAL,
 * printed, naming the first target that differs from the first.
 */
int bench_check_alike(const struct bench *b);

/*
 * The warm-up, then the rounds. On failure the -errno of the load that
 * failed (printed by the session), or -EINTR after a load when cfg.stop
 * was set (quiet); the rounds completed before it stay in rounds_done
 * and the samples and tallies, and a round cut short leaves nothing.
 */
int bench_run(struct bench *b);

/*
 * The summaries of every run, and with @ref a run's index (not -1) the
 * speed-ups over it: its median load time over each run's, and the
 * quartiles of its load time over the run's round by round, when both
 * timed every round. -ENOMEM.
 */
int bench_summarize(struct bench *b, int ref);

/*
 * The device's own count of commands it acked without work because they
 * changed nothing (vdpa_sim_batch's "cvq redundant"; 0 from a device
 * without it) over every run: stock redoes every command, so a
 * comparison with any is not like with like.
 */
#define BENCH_REDUNDANT_STAT "cvq redundant"
uint64_t bench_redundant_commands(const struct bench *b);

/*
 * Every timed load's sample, for statistics elsewhere (the benchmark
 * report, tools/bench-report): a comment line, then per run and round
 * "TARGET/MODE LOAD NS COMMANDS", and with cfg.cmds_times also
 * "TARGET/MODE/cmds LOAD NS COMMANDS" for the commands' part, LOAD
 * being round * turn + k for a turn's k-th load: loads of the same LOAD
 * ran side by side. -EIO if @f reports a write error.
 */
int bench_write_samples(const struct bench *b, FILE *f);

void bench_destroy(struct bench *b);

#endif
