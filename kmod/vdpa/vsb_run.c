// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch: serving the queues.
 *
 * Where: always in the device's work item. kick_vq runs in atomic context
 * with both bus drivers -- virtio_vdpa kicks from anywhere, and vhost_vdpa
 * (use_worker = false) calls it straight from the kick eventfd's wake-up,
 * under the wait queue lock -- so a kick only queues the work, which
 * adopts the owner's mm for vhost_vdpa's user addresses. (A CVQ kick may
 * also set one flag in the used ring, at an address a run left for it:
 * vsb_kick_hint.c.)
 *
 * A run holds vsb->queue_lock throughout and takes vsb->lock only between
 * guest memory accesses (see struct vsb_dev); the kick hand-off (vsb_kick,
 * vsb_wait_for_kick) works with neither.
 */

#include <linux/kthread.h>
#include <linux/sched/mm.h>
#include <linux/sched/stat.h>

#include "vsb.h"
#include "vsb_fault_run.h"
#include "vsb_trace.h"

static void vsb_needs_reset(struct vsb_dev *vsb, struct vsb_vq *vq)
{
	/* The ring error of a run abandoned in a fault is no driver's. */
	if (vsb->run_abandoned)
		return;
	mutex_lock(&vsb->lock);
	if (vsb->status & VIRTIO_CONFIG_S_NEEDS_RESET)
		goto unlock;
	if ((vq->ring.fault == VSB_FAULT_RING_ACCESS ||
	     vq->ring.fault == VSB_FAULT_BUFFER_ACCESS) &&
	    vsb_vq_nothing_mapped(vq))
		vq->ring.fault = VSB_FAULT_NOTHING_MAPPED;
	trace_vsb_needs_reset(vsb, vq->index, vq->ring.fault);
	vsb_kick_hint_forget(vsb);
	dev_warn_ratelimited(&vsb->vdpa.dev,
			     "queue %u: %s; device needs reset\n", vq->index,
			     vsb_fault_name(vq->ring.fault));
	vsb->status |= VIRTIO_CONFIG_S_NEEDS_RESET;
	vsb_config_changed(vsb);
unlock:
	mutex_unlock(&vsb->lock);
}

static void vsb_notify(struct vsb_vq *vq)
{
	/* virtio_vdpa's callbacks schedule NAPI, which wants BHs off. */
	local_bh_disable();
	vq->cb.callback(vq->cb.private);
	local_bh_enable();
}

/* The coalescing timer, at the earliest deadline of any queue. */
static void vsb_coal_arm(struct vsb_dev *vsb, u64 deadline_ns)
{
	ktime_t at = ns_to_ktime(deadline_ns);

	if (READ_ONCE(vsb->dying))
		return;
	if (!hrtimer_active(&vsb->coal_timer) ||
	    ktime_before(at, hrtimer_get_expires(&vsb->coal_timer)))
		hrtimer_start(&vsb->coal_timer, at, HRTIMER_MODE_ABS);
}

/* A queue that coalesces: notify now, or have the timer come back. */
static bool vsb_coal_notify(struct vsb_dev *vsb, struct vsb_vq *vq,
			    u32 published, bool wanted)
{
	switch (vsb_coal_update(&vq->coal, &vq->coal_state, published, wanted,
				ktime_get_ns())) {
	case VSB_COAL_NOTIFY:
		if (!vq->cb.callback)
			return false;
		vsb_notify(vq);
		return true;
	case VSB_COAL_WAIT:
		vsb_coal_arm(vsb,
			     vsb_coal_deadline(&vq->coal, &vq->coal_state));
		return false;
	default:
		return false;
	}
}

/*
 * Publish what was pushed and notify the driver if it asked for it (now,
 * or once coalescing says so). A used ring the device cannot write is a
 * driver error like any other: the commands it answers have taken effect,
 * so the driver must learn now that it will not see them, not at the next
 * kick, which may never come.
 */
static bool vsb_complete(struct vsb_dev *vsb, struct vsb_vq *vq, bool silent)
{
	u16 published;
	bool wanted;

	if (vq->ring.used_idx == vq->ring.used_counted)
		/* Nothing new; a coalesced notification may have come due. */
		return vq->coal_state.owed &&
		       vsb_coal_notify(vsb, vq, 0, false);
	if (vsb_ring_publish(&vq->ring)) {
		vsb_needs_reset(vsb, vq);
		return false;
	}
	published = vsb_ring_take_published(&vq->ring);
	wanted = vsb_ring_need_notify(&vq->ring);
	/*
	 * A driver area the device cannot read fails the ring here, after
	 * the last buffer the driver may ever hand over: no later access
	 * would report it. (The driver is notified all the same.)
	 */
	if (vq->ring.fault)
		vsb_needs_reset(vsb, vq);
	/* A fault rule's: published, the notification owed is dropped. */
	if (silent)
		return false;
	if (vsb_coal_on(&vq->coal) || vq->coal_state.owed)
		return vsb_coal_notify(vsb, vq, published, wanted);
	if (!wanted || !vq->cb.callback)
		return false;
	vsb_notify(vq);
	return true;
}

enum hrtimer_restart vsb_coal_timer(struct hrtimer *timer)
{
	vsb_kick(container_of(timer, struct vsb_dev, coal_timer));
	return HRTIMER_NORESTART;
}

/*
 * Whether the worker watches the CVQ with its kicks off before it sleeps
 * (vsb_wait_for_work()), rather than asking for kicks when a run ends.
 */
static bool vsb_polls_cvq(const struct vsb_dev *vsb)
{
	return vsb->suppress_kicks && vsb->kick_poll_ns;
}

/*
 * One run of the control queue: what its completions are timed from.
 *
 * A clock read is not free next to a command, so commands are timed one
 * by one only while the vsb_cvq_cmd event is on; otherwise the
 * processing-time histogram gets each command of a batch as the batch's
 * time divided by its commands (exact for batches of one, as in
 * immediate mode).
 */
struct vsb_cvq_run {
	bool batch; /* batch mode, as set when the run began */
	bool led; /* the run's first command was completed on its own */
	u32 limit; /* commands before the run makes room for other work */
	bool timed; /* each command is timed */
	u64 kicked; /* the first kick not yet served when the run began */
	u64 fetched; /* the first command of the batch was fetched */
	u64 last; /* the last command was done, or the last publish */
	u32 cmds; /* executed since the last publish */
	u32 changed; /* VSB_CTRL_CHANGED_* since the last publish */
	bool cost_on; /* the cost model was not free when the run began */
	struct vsb_cost_owed owed; /* what the next publish pays for */
	u64 paid; /* ns spent paying since the last publish */
	u64 busy_from; /* the run began, or the last publish */
	struct vsb_fault_run faults; /* what fault rules' actions owe it */
};

/*
 * The precise cost model's spin: from this long before the deadline, the
 * device spins instead of sleeping, which covers a timer's wake-up
 * latency (some 150-200 us under TCG, less on hardware).
 */
#define VSB_COST_SPIN_NS (200 * NSEC_PER_USEC)

/*
 * A reset, a new owner or the device's end cuts a price short: the run
 * that pays it is abandoned anyway (vsb_unpark()), and none of those may
 * wait for a model, however dear.
 */
static bool vsb_cost_cut(struct vsb_dev *vsb, u64 gen)
{
	return READ_ONCE(vsb->reset_gen) != gen || READ_ONCE(vsb->dying);
}

/*
 * Until @deadline (ktime_get_ns()): asleep on an hrtimer, the CPU free as
 * it is while a NIC's firmware works; with @precise, the last
 * VSB_COST_SPIN_NS spinning, for a realized cost nearer the request.
 * TASK_IDLE: no signal wakes a worker, and the wait is no load. Parked,
 * from vsb_park()'s @gen on.
 */
static void vsb_cost_sleep(struct vsb_dev *vsb, u64 gen, u64 deadline,
			   bool precise)
{
	u64 spin = precise ? VSB_COST_SPIN_NS : 0;
	u64 wake = deadline > spin ? deadline - spin : 0;
	ktime_t at = ns_to_ktime(wake);
	DEFINE_WAIT(wait);

	for (;;) {
		prepare_to_wait(&vsb->cost_wq, &wait, TASK_IDLE);
		if (ktime_get_ns() >= wake || vsb_cost_cut(vsb, gen))
			break;
		schedule_hrtimeout_range(&at, 0, HRTIMER_MODE_ABS);
	}
	finish_wait(&vsb->cost_wq, &wait);
	if (!precise)
		return;
	while (ktime_get_ns() < deadline && !vsb_cost_cut(vsb, gen)) {
		cond_resched();
		cpu_relax();
	}
}

/*
 * Wait @ns parked (vsb_park()): the driver's and vdpa's requests that
 * must not wait for a run do not wait for a model either, and the rest
 * wait at most that long. Sets *@took to the time it took.
 *
 * Return: false if the run was abandoned meanwhile (a reset, a new owner).
 */
static bool vsb_cvq_wait(struct vsb_dev *vsb, u64 ns, bool precise, u64 *took)
{
	u64 start = ktime_get_ns();
	u64 gen = vsb_park(vsb);

	vsb_cost_sleep(vsb, gen, start + ns, precise);
	*took = ktime_get_ns() - start;
	return vsb_unpark(vsb, gen);
}

/*
 * Pay what the operation about to publish costs in the model, priced with
 * the model in force now; then the delay fault rules put on its commands.
 * What the model realized is counted and traced next to what it asked
 * for; neither counts as the device's own time.
 *
 * Return: false if the run was abandoned meanwhile (a reset, a new owner).
 */
static bool vsb_cvq_pay(struct vsb_dev *vsb, struct vsb_cvq_run *run)
{
	struct vsb_cvq_stats *stats = &vsb->cvq_stats;
	u64 delay = vsb_fault_run_take_delay(&run->faults);
	struct vsb_cost cost = { 0 };
	u64 want = 0, took;
	bool kept;

	/* A publish of nothing new (a run's last look) owes nothing. */
	if (run->cost_on && run->owed.cmds) {
		mutex_lock(&vsb->lock);
		cost = vsb->cost;
		mutex_unlock(&vsb->lock);
		want = vsb_cost_take(&cost, &run->owed);
	}
	if (!want)
		goto delay;
	kept = vsb_cvq_wait(vsb, want, cost.precise, &took);
	mutex_lock(&vsb->lock);
	stats->cost_ops++;
	stats->cost_ns += want;
	stats->cost_real_ns += took;
	vsb_hist_add(&stats->cost_hist_ns, want, 1);
	vsb_hist_add(&stats->cost_real_hist_ns, took, 1);
	mutex_unlock(&vsb->lock);
	trace_vsb_cvq_cost(vsb, run->cmds, want, took, cost.precise);
	run->paid += took;
	if (!kept)
		return false;
delay:
	if (!delay)
		return true;
	kept = vsb_cvq_wait(vsb, delay, false, &took);
	run->paid += took;
	return kept;
}

/* The data queues take the coalescing the control queue set; Q and L. */
static void vsb_coal_apply(struct vsb_dev *vsb)
{
	unsigned int i;

	for (i = 0; i < 2 * vsb->max_vqp; i++)
		vsb->vqs[i].coal = vsb->ctrl.coal[i];
}

/*
 * Put the effect of the commands executed since the last call in force,
 * then publish them: the config space the driver reads and the receive
 * filter are brought up to date first, so a command's effect is visible
 * by the time its used entry is. The data path runs in the same run as
 * this, so it sees the filter as it was before the batch or as it is
 * after, never in between; and only what the batch changed is copied.
 * The cost model's price is paid first: the operation takes effect when
 * its cost has been spent, as a NIC's firmware command would.
 */
static void vsb_cvq_complete(struct vsb_dev *vsb, struct vsb_vq *cvq,
			     struct vsb_cvq_run *run)
{
	struct vsb_cvq_stats *stats = &vsb->cvq_stats;
	bool notified, silent;
	u64 now;

	if ((run->cost_on || unlikely(run->faults.delay_ns)) &&
	    !vsb_cvq_pay(vsb, run))
		return;
	if (run->changed) {
		mutex_lock(&vsb->lock);
		if (run->changed & VSB_CTRL_CHANGED_CONFIG)
			vsb_sync_config(vsb);
		if (run->changed & VSB_CTRL_CHANGED_FILTER) {
			vsb_rx_filter_update(&vsb->rx_filter, &vsb->ctrl,
					     run->changed);
			stats->filter_updates++;
		}
		if (run->changed & VSB_CTRL_CHANGED_COAL)
			vsb_coal_apply(vsb);
		if (run->changed & VSB_CTRL_CHANGED_RSS)
			memcpy(&vsb->rx_rss, &vsb->ctrl.rss,
			       sizeof(vsb->rx_rss));
		mutex_unlock(&vsb->lock);
		run->changed = 0;
	}
	if (cvq->ring.used_idx == cvq->ring.used_counted)
		return;
	silent = vsb_fault_run_take_silent(&run->faults);
	notified = vsb_complete(vsb, cvq, silent);
	now = ktime_get_ns();
	mutex_lock(&vsb->lock);
	stats->batches++;
	stats->notifications += notified;
	vsb_hist_add(&stats->cmds_per_batch, run->cmds, 1);
	vsb_hist_add(&stats->kick_ns, now - run->kicked, run->cmds);
	/* The device's own time: without the model's. */
	if (!run->timed && run->cmds)
		vsb_hist_add(&stats->cmd_ns,
			     div_u64(now - run->fetched - run->paid, run->cmds),
			     run->cmds);
	stats->cvq_busy_ns += now - run->busy_from - run->paid;
	mutex_unlock(&vsb->lock);
	trace_vsb_cvq_batch(vsb, run->cmds, notified, now - run->fetched,
			    now - run->kicked);
	run->cmds = 0;
	run->paid = 0;
	run->last = now;
	run->busy_from = now;
}

/*
 * vsb_cvq_fetch() while fault rules are set: the rule that acts on the
 * command popped, if any, is picked first, so that a command stalled or
 * failed with a reset has no ack written. A command whose header the
 * device cannot read is no rule's (vsb_cvq_fetch() fails it). Returns the
 * rule's action, with what it owes the run; a stalled command is not
 * fetched.
 */
static u8 vsb_cvq_fetch_faulty(struct vsb_dev *vsb, struct vsb_vq *cvq,
			       struct vsb_cvq_run *run, struct vsb_cvq_cmd *cmd,
			       struct vsb_cvq_result *res)
{
	const struct vsb_fault_rule *rule = NULL;
	u8 action = VSB_FAULT_ACTION_UNSPEC;
	u8 class, cmd_no;

	if (!vsb_cvq_peek(&cvq->ring, &cvq->chain, &class, &cmd_no)) {
		mutex_lock(&vsb->lock);
		rule = vsb_fault_rules_pick(&vsb->fault_rules, class, cmd_no);
		if (rule) {
			vsb->cvq_stats.faults++;
			trace_vsb_cvq_fault(vsb, rule, cvq->chain.head, class,
					    cmd_no);
		}
		action = vsb_fault_run_note(&run->faults, rule);
		mutex_unlock(&vsb->lock);
	}
	if (action == VSB_FAULT_ACTION_STALL)
		return action;
	if (action == VSB_FAULT_ACTION_RESET) {
		vsb_cvq_refuse(class, cmd_no, VSB_FAULT_INJECTED, res);
		return action;
	}
	vsb_cvq_fetch(&cvq->ring, &cvq->chain, vsb->features, vsb->max_vqp,
		      &vsb->cvq_scratch, cmd, res);
	if (action == VSB_FAULT_ACTION_NACK)
		vsb_cvq_nack(cmd, res);
	return action;
}

/*
 * Put an answered command in force and count it, vsb->lock held. A query
 * has its answer written after the ack, with the lock dropped meanwhile.
 * Inline into vsb_cvq_answer_group()'s loop, which runs it per command.
 */
static __always_inline void vsb_cvq_finish(struct vsb_dev *vsb,
					   struct vsb_cvq_run *run,
					   const struct vsb_cvq_cmd *cmd,
					   struct vsb_cvq_result *res)
{
	lockdep_assert_held(&vsb->lock);
	vsb_cvq_apply(cmd, &vsb->ctrl, res);
	if (res->reply_len) {
		/* A statistics query reports the commands before it. */
		if (res->class == VSB_CTRL_STATS)
			vsb_devstats_snapshot(vsb, &vsb->cvq_scratch.stats);
		mutex_unlock(&vsb->lock);
		vsb_cvq_reply(cmd, res);
		mutex_lock(&vsb->lock);
	}
	vsb_count_command(&vsb->cvq_stats, res);
	if (run->cost_on)
		vsb_cost_count(&run->owed, res->class, res->cmd);
	run->changed |= res->changed;
}

/*
 * Execute a command popped from the control queue: read, checked and
 * answered with no lock but the queues', put in force and counted under
 * vsb->lock, which management requests read the state and counters with.
 * Returns the action of the fault rule that acted on it, if any: a
 * stalled command is neither put in force nor counted.
 */
static u8 vsb_cvq_execute(struct vsb_dev *vsb, struct vsb_vq *cvq,
			  struct vsb_cvq_run *run, struct vsb_cvq_result *res)
{
	u8 action = VSB_FAULT_ACTION_UNSPEC;
	struct vsb_cvq_cmd cmd;
	u64 now;

	/* Without rules, as fast as before they existed. */
	if (unlikely(READ_ONCE(vsb->faults_armed))) {
		action = vsb_cvq_fetch_faulty(vsb, cvq, run, &cmd, res);
		if (action == VSB_FAULT_ACTION_STALL)
			return action;
	} else {
		vsb_cvq_fetch(&cvq->ring, &cvq->chain, vsb->features,
			      vsb->max_vqp, &vsb->cvq_scratch, &cmd, res);
	}
	if (run->timed)
		now = ktime_get_ns();
	mutex_lock(&vsb->lock);
	vsb_cvq_finish(vsb, run, &cmd, res);
	if (run->timed)
		vsb_hist_add(&vsb->cvq_stats.cmd_ns, now - run->last, 1);
	mutex_unlock(&vsb->lock);
	if (run->timed) {
		trace_vsb_cvq_cmd(vsb, cvq->chain.head, res, cvq->chain.out_len,
				  now - run->last);
		run->last = now;
	}
	return action;
}

/*
 * Answer the group's commands (vsb_cvq_group.h): their acks in one write,
 * then in force under one hold of vsb->lock, then completed. A command
 * whose ack cannot be written is a framing error, as it is alone: it and
 * the ones after it, which were never answered, are given back with
 * length 0, and -EIO returned with the ring's fault set. Empties the
 * group.
 */
static int vsb_cvq_answer_group(struct vsb_dev *vsb, struct vsb_vq *cvq,
				struct vsb_cvq_run *run)
{
	struct vsb_cvq_group *g = &vsb->cvq_group;
	u16 done, i;
	int ret = 0;

	if (!g->n)
		return 0;
	done = vsb_cvq_group_ack(g, &cvq->ring);
	mutex_lock(&vsb->lock);
	for (i = 0; i < done; i++)
		vsb_cvq_finish(vsb, run, &g->cmd[i], &g->res[i]);
	if (done < g->n)
		vsb_count_command(&vsb->cvq_stats, &g->res[done]);
	mutex_unlock(&vsb->lock);
	run->cmds += done;
	if (done < g->n) {
		cvq->ring.fault = g->res[done].fault;
		run->cmds++;
		ret = -EIO;
	}
	for (i = 0; i < g->n; i++) {
		if (vsb_ring_push(&cvq->ring, g->heads[i],
				  g->res[i].used_len)) {
			ret = -EIO;
			break;
		}
	}
	g->n = 0;
	return ret;
}

/*
 * Check the command just popped and add it to the group, answering the
 * group first if its ack does not come right after the group's. A
 * command vsb_cvq_answer_group() cannot hold for later -- one that
 * faulted, or needs its chain or the scratch area when it is applied --
 * is answered with the group at once. Returns what
 * vsb_cvq_answer_group() returns, or -EIO for a command that faulted,
 * given back by the caller; in any other case the group owns the chain.
 */
static int vsb_cvq_group_take(struct vsb_dev *vsb, struct vsb_vq *cvq,
			      struct vsb_cvq_run *run)
{
	struct vsb_cvq_group *g = &vsb->cvq_group;
	struct vsb_cvq_result *res = vsb_cvq_group_res(g);
	int ret;

	vsb_cvq_check(&cvq->ring, &cvq->chain, vsb->features, vsb->max_vqp,
		      &vsb->cvq_scratch, vsb_cvq_group_cmd(g), res);
	if (res->fault) {
		/* Counted as vsb_cvq_execute() counts it. */
		struct vsb_cvq_result failed = *res;

		ret = vsb_cvq_answer_group(vsb, cvq, run);
		mutex_lock(&vsb->lock);
		vsb_count_command(&vsb->cvq_stats, &failed);
		mutex_unlock(&vsb->lock);
		run->cmds++;
		if (!ret)
			cvq->ring.fault = failed.fault;
		return -EIO;
	}
	if (!vsb_cvq_group_add(g, &cvq->chain)) {
		u16 slot = g->n;

		ret = vsb_cvq_answer_group(vsb, cvq, run);
		if (ret)
			return ret;
		vsb_cvq_group_restart(g, slot);
		vsb_cvq_group_add(g, &cvq->chain);
	}
	/*
	 * The group completes the chain, or gives it back: not the caller
	 * (vsb_ring_return_chain() does nothing without a head).
	 */
	cvq->chain.head = U16_MAX;
	if (vsb_cvq_group_full(g) ||
	    !vsb_cvq_self_contained(&g->cmd[g->n - 1], &g->res[g->n - 1]))
		return vsb_cvq_answer_group(vsb, cvq, run);
	return 0;
}

/*
 * A fault rule's stall (Q held): the command just taken is never
 * completed, and the device serves its CVQ no more until a reset, as a
 * NIC whose firmware hung. Kicks then schedule runs that find no CVQ.
 */
static void vsb_cvq_stall(struct vsb_dev *vsb)
{
	mutex_lock(&vsb->lock);
	vsb->cvq_stalled = true;
	mutex_unlock(&vsb->lock);
	vsb_kick_hint_forget(vsb);
}

/* The CVQ, if the driver has it running; Q held. */
static struct vsb_vq *vsb_running_cvq(struct vsb_dev *vsb)
{
	struct vsb_vq *cvq = &vsb->vqs[vsb_cvq_index(vsb)];

	if (!vsb_running(vsb) || !cvq->ready || vsb->cvq_stalled ||
	    !(vsb->features & BIT_ULL(VIRTIO_NET_F_CTRL_VQ)))
		return NULL;
	return cvq;
}

/*
 * Serve the command just popped on its own: executed and completed.
 * Returns 0, -EIO for a command that failed (the caller gives its chain
 * back), or 1 if a fault rule stalled the queue.
 */
static int vsb_cvq_serve_one(struct vsb_dev *vsb, struct vsb_vq *cvq,
			     struct vsb_cvq_run *run)
{
	struct vsb_cvq_result res;
	u8 action;
	int ret = 0;

	/* Commands taken before it are answered first, in order. */
	if (vsb_cvq_answer_group(vsb, cvq, run))
		return -EIO;
	action = vsb_cvq_execute(vsb, cvq, run, &res);
	if (unlikely(action == VSB_FAULT_ACTION_STALL)) {
		vsb_cvq_stall(vsb);
		return 1;
	}
	if (res.fault) {
		/* The chain goes back, with length 0. */
		cvq->ring.fault = res.fault;
		ret = -EIO;
	} else if (vsb_fault_run_push(&run->faults, &cvq->ring, &cvq->chain,
				      res.used_len, action)) {
		ret = -EIO;
	}
	/* A faulty command is completed too, with length 0. */
	run->cmds++;
	return ret;
}

/*
 * Whether the next command joins a group (vsb_cvq_group_take()): in
 * batch mode, unless each command is timed, or a fault rule may act on
 * it or holds one back.
 */
static bool vsb_cvq_groups(const struct vsb_dev *vsb,
			   const struct vsb_cvq_run *run)
{
	return run->batch && !run->timed && !READ_ONCE(vsb->faults_armed) &&
	       !run->faults.held;
}

/*
 * Serve the control queue. In batch mode every command available now, up
 * to batch_limit, is executed and its used entry written, and the used
 * index is published once; in immediate mode each command is published
 * (and notified) before the next is taken. Returns true if commands are
 * left for another run; sets *served if it took any.
 */
static bool vsb_process_cvq(struct vsb_dev *vsb, bool *served)
{
	struct vsb_vq *cvq = vsb_running_cvq(vsb);
	struct vsb_cvq_run run;
	bool more = false;
	u32 done = 0;
	int ret;

	if (!cvq)
		return false;

	run = (struct vsb_cvq_run){
		.timed = trace_vsb_cvq_cmd_enabled(),
		.last = ktime_get_ns(),
	};
	run.busy_from = run.last;
	mutex_lock(&vsb->lock);
	run.batch = vsb->completion == VSB_COMPLETION_BATCH;
	run.limit = vsb->batch_limit ?: cvq->ring.num;
	run.cost_on = !vsb_cost_free(&vsb->cost);
	mutex_unlock(&vsb->lock);
	run.kicked = atomic64_xchg(&vsb->cvq_kick_ns, 0) ?: run.last;
	/* No kick needed for what the driver adds while this run goes on. */
	if (vsb->suppress_kicks && vsb_ring_disable_kicks(&cvq->ring)) {
		vsb_needs_reset(vsb, cvq);
		return false;
	}
	vsb_kick_hint_share(vsb, cvq);
	for (;;) {
		ret = vsb_ring_pop(&cvq->ring, &cvq->chain);
		/* What was taken is answered before the device looks again. */
		if (ret <= 0 && vsb_cvq_answer_group(vsb, cvq, &run))
			ret = -EIO;
		if (!ret) {
			/* Kicks stay off: the worker watches the ring. */
			if (vsb_polls_cvq(vsb))
				break;
			/* Re-arm kicks; if more came meanwhile, go on. */
			ret = vsb_ring_enable_kicks(&cvq->ring);
			if (ret > 0)
				continue;
			break;
		}
		if (ret < 0)
			break;

		if (!run.cmds && !vsb->cvq_group.n)
			run.fetched = run.last;
		if (vsb_cvq_groups(vsb, &run)) {
			ret = vsb_cvq_group_take(vsb, cvq, &run);
			/* Nothing to join it, or the run's lead: answer now. */
			if (!ret && (!vsb_ring_has_announced(&cvq->ring) ||
				     (vsb->lead_notify && !run.led)))
				ret = vsb_cvq_answer_group(vsb, cvq, &run);
		} else {
			ret = vsb_cvq_serve_one(vsb, cvq, &run);
		}
		if (ret)
			break;
		/*
		 * Immediate mode publishes every command. Batch mode publishes
		 * once the ring is found empty with kicks re-armed, so that a
		 * driver that kicks once per batch gets one -- except for a
		 * run's first command (lead_notify), or a lone command, the
		 * one a serial driver waits for: it is published before the
		 * device looks again, sparing the driver a barrier and two
		 * reads of the avail index. The lead's notification wakes a
		 * driver asleep on its call eventfd while the device serves
		 * the rest, so that the wake-up, as long as the batch or
		 * longer, overlaps it instead of following it.
		 */
		if (!run.batch ||
		    (run.cmds == 1 && ((vsb->lead_notify && !run.led) ||
				       !vsb_ring_has_announced(&cvq->ring)))) {
			run.led = true;
			vsb_cvq_complete(vsb, cvq, &run);
		}
		if (++done >= run.limit) {
			more = true;
			break;
		}
	}
	/* The limit may end a run with commands taken: answered now. */
	if (vsb_cvq_answer_group(vsb, cvq, &run))
		ret = -EIO;
	if (ret < 0)
		vsb_ring_return_chain(&cvq->ring, &cvq->chain);
	/* Held back with no later command to pass it: last, then. */
	if (vsb_fault_run_release(&run.faults, &cvq->ring))
		ret = -EIO;
	/*
	 * A device that gives up says so before it publishes what it gives
	 * back: a driver that sees a chain come back unanswered sees why.
	 */
	if (ret < 0)
		vsb_needs_reset(vsb, cvq);
	vsb_cvq_complete(vsb, cvq, &run);
	*served |= done > 0;
	return more;
}

/*
 * The longest frame the driver may hand over: with VIRTIO_NET_F_MTU it
 * "MUST NOT transmit packets exceeding mtu" (plus the header, Ethernet and
 * a VLAN tag); without it, the most the device accepts at all.
 */
static u32 vsb_frame_max(const struct vsb_dev *vsb)
{
	return VSB_FRAME_LEN(vsb_net_hdr_len(vsb->features),
			     vsb->features & BIT_ULL(VIRTIO_NET_F_MTU) ?
				     vsb->mtu :
				     VSB_MAX_MTU);
}

/*
 * Move frames from the transmit queue of pair @pair to its receive queue,
 * or with RSS steering to whichever receive queue each one's hash selects.
 * A queue the driver broke is left in dr->bad.
 */
static bool vsb_process_pair(struct vsb_dev *vsb, struct vsb_data_run *dr,
			     u16 pair, bool *served)
{
	struct vsb_vq *tx = &vsb->vqs[2 * pair + 1];
	bool hash_report = vsb->features & BIT_ULL(VIRTIO_NET_F_HASH_REPORT);
	bool steering = vsb->rx_rss.steering;
	struct vsb_loopback lb = {
		.tx = &tx->ring,
		.tx_chain = &tx->chain,
		.stats = &dr->stats[pair],
		.rxq = dr->rxq,
		.nr_rxq = dr->pairs,
		.pair = pair,
		.buf = vsb->frame,
		.buf_len = vsb_frame_max(vsb),
		.hdr_len = vsb_net_hdr_len(vsb->features),
		.filter = &vsb->rx_filter,
		.rss = steering || hash_report ? &vsb->rx_rss : NULL,
		.hash_report = hash_report,
		/* set under L; a run that misses a change sees it next time */
		.link_down = READ_ONCE(vsb->link_down),
	};
	u16 i;
	int ret;

	if (!tx->ready || (!steering && !dr->rxq[pair].ring))
		return false;
	ret = vsb_loopback_run(&lb, VSB_TX_BUDGET);
	*served |= ret != 0;
	if (ret < 0) {
		dr->bad = tx;
		for (i = 0; !tx->ring.fault && i < dr->pairs; i++)
			if (dr->rxq[i].ring && dr->rxq[i].ring->fault)
				dr->bad = &vsb->vqs[2 * i];
		return false;
	}
	if (ret == VSB_TX_BUDGET)
		return true;
	ret = vsb_ring_enable_kicks(&tx->ring);
	if (ret < 0)
		dr->bad = tx;
	return ret > 0;
}

/*
 * The data path: only the pairs in force (one without MQ and RSS). Each
 * pair's frames are counted, and both rings of every pair published, once
 * all pairs ran: with RSS steering any of them may have received.
 */
static bool vsb_process_data(struct vsb_dev *vsb, bool *served)
{
	struct vsb_data_run *dr = &vsb->data_run;
	bool more = false;
	u16 i;

	memset(dr, 0, sizeof(*dr));
	dr->pairs = 1;
	if (vsb_net_pairs(vsb->features, vsb->max_vqp) > 1) {
		mutex_lock(&vsb->lock);
		dr->pairs = vsb->ctrl.pairs;
		mutex_unlock(&vsb->lock);
	}
	for (i = 0; i < dr->pairs; i++) {
		struct vsb_vq *rx = &vsb->vqs[2 * i];

		dr->rxq[i].stats = &dr->stats[i];
		dr->rxq[i].chain = &rx->chain;
		if (!rx->ready)
			continue;
		dr->rxq[i].ring = &rx->ring;
		/*
		 * A frame finds a receive buffer or is dropped, so a refill
		 * never needs the device's attention: ask for no kicks, with
		 * or without EVENT_IDX alike, and "rx kicks" counts the ones
		 * a driver sends anyway. Written once per ring set-up.
		 */
		if (vsb_ring_disable_kicks(&rx->ring))
			dr->bad = rx;
	}
	for (i = 0; i < dr->pairs && !dr->bad && vsb_running(vsb); i++)
		more |= vsb_process_pair(vsb, dr, i, served);
	mutex_lock(&vsb->lock);
	for (i = 0; i < dr->pairs; i++)
		vsb_add_lb_stats(&vsb->lb_stats[i], &dr->stats[i]);
	mutex_unlock(&vsb->lock);
	for (i = 0; i < 2 * dr->pairs; i++) {
		struct vsb_vq *vq = &vsb->vqs[i];

		if (vq->ready && vsb_complete(vsb, vq, false))
			atomic64_inc(&vsb->vq_interrupts[i]);
	}
	if (dr->bad) {
		vsb_needs_reset(vsb, dr->bad);
		return false;
	}
	return more;
}

/*
 * The work item runs on vsb_wq, which is unbound: the scheduler places it
 * (away from a driver busy on its own CPU, if another is idle), within the
 * workqueue's cpumask, which leaves out isolated CPUs and which the user
 * can narrow in /sys/devices/virtual/workqueue/vdpa_sim_batch/cpumask.
 * A per-CPU workqueue would also hold up every other work item of that
 * CPU while the worker polls for kicks.
 */
void vsb_schedule(struct vsb_dev *vsb)
{
	if (!READ_ONCE(vsb->dying))
		queue_work(vsb_wq, &vsb->work);
}

/*
 * Serve every queue once; queue the work item if anything is left.
 * Returns whether anything was taken from a queue.
 */
static bool vsb_process(struct vsb_dev *vsb)
{
	bool more, served = false;

	lockdep_assert_held(&vsb->queue_lock);
	if (!vsb_running(vsb))
		return false;
	mutex_lock(&vsb->lock);
	vsb->cvq_stats.work_runs++;
	/* A change from "vdpa dev set", which cannot wait for a run. */
	if (vsb->filter_stale) {
		vsb_rx_filter_update(&vsb->rx_filter, &vsb->ctrl,
				     vsb->filter_stale);
		vsb->filter_stale = 0;
	}
	mutex_unlock(&vsb->lock);
	more = vsb_process_cvq(vsb, &served);
	more |= vsb_process_data(vsb, &served);
	if (more && vsb_running(vsb))
		vsb_schedule(vsb);
	return served;
}

/*
 * Whether the CVQ has commands for the worker, which watches it with its
 * kicks off; or whether the worker must stop watching (a new owner, a
 * ring error).
 */
static bool vsb_cvq_announced(struct vsb_dev *vsb, struct mm_struct *mm)
{
	struct vsb_vq *cvq;
	bool ret = false;

	vsb_run_lock(vsb);
	cvq = vsb_running_cvq(vsb);
	if (vsb->mm != mm)
		ret = true;
	else if (cvq && cvq->ring.kicks_off)
		ret = vsb_ring_poll(&cvq->ring) != 0;
	mutex_unlock(&vsb->queue_lock);
	return ret;
}

/*
 * Stop watching the CVQ: ask for kicks again, then look once more, for a
 * command added just before the driver could see the request.
 *
 * Return: true if commands came and the worker should serve them.
 */
static bool vsb_cvq_rearm(struct vsb_dev *vsb)
{
	struct vsb_vq *cvq;
	int ret = 0;

	vsb_run_lock(vsb);
	cvq = vsb_running_cvq(vsb);
	if (cvq && cvq->ring.kicks_off) {
		ret = vsb_ring_enable_kicks(&cvq->ring);
		if (ret < 0)
			vsb_needs_reset(vsb, cvq);
	}
	mutex_unlock(&vsb->queue_lock);
	return ret != 0;
}

/*
 * Before the worker goes to sleep, wait a little for more work: a driver
 * sending commands one by one adds the next within microseconds, and
 * waking a sleeping worker (an IPI to an idle CPU, the workqueue dispatch,
 * adopting the mm again) costs more than that. While vsb->polling is set,
 * a kick only raises vsb->kicked and this loop picks it up. With kick
 * suppression the CVQ's kicks stay off meanwhile and the loop reads its
 * avail index instead, as vhost-net's busy polling does: a driver that
 * honours VRING_USED_F_NO_NOTIFY (QEMU's shadow virtqueue, virtio_net,
 * vdpactl-batch) then adds each command without a kick, which would cost
 * it a system call and the device a wake-up.
 * Polling stops as soon as anything else wants this CPU: the driver may be
 * waiting to run right here (as vhost's busy polling and KVM's halt
 * polling, which check the same).
 *
 * Return: true if work came and this run should serve the queues again.
 */
static bool vsb_wait_for_work(struct vsb_dev *vsb, struct mm_struct *mm,
			      bool served)
{
	bool announced = false;
	u64 deadline;

	/* A run that found nothing to do is no sign of more to come. */
	if (!vsb->kick_poll_ns || !served)
		goto rearm;
	WRITE_ONCE(vsb->polling, true);
	/* Pairs with vsb_kick_vq(): polling visible before kicked is read. */
	smp_mb();
	deadline = ktime_get_ns() + vsb->kick_poll_ns;
	while (!atomic_read(&vsb->kicked)) {
		if (need_resched() || !single_task_running() ||
		    ktime_get_ns() >= deadline)
			break;
		if (vsb->suppress_kicks && vsb_cvq_announced(vsb, mm)) {
			announced = true;
			break;
		}
		cpu_relax();
	}
	WRITE_ONCE(vsb->polling, false);
	/*
	 * Pairs with vsb_kick_vq(): a kick that saw polling still set did
	 * not queue the work, so look at kicked once more after clearing it.
	 */
	smp_mb();
	if (announced || atomic_read(&vsb->kicked))
		return true;
rearm:
	return vsb->suppress_kicks && vsb_cvq_rearm(vsb);
}

void vsb_work(struct work_struct *work)
{
	struct vsb_dev *vsb = container_of(work, struct vsb_dev, work);
	struct mm_struct *mm;
	bool served;

	vsb_run_lock(vsb);
	mm = vsb->mm;
	/* The owner may be gone: then there is nothing to serve. */
	if (mm && !mmget_not_zero(mm)) {
		mutex_unlock(&vsb->queue_lock);
		return;
	}
	/* unbind_mm waits for the lock, and this run holds a reference. */
	if (mm)
		kthread_use_mm(mm);
	for (;;) {
		/* This run serves every kick so far. */
		atomic_set(&vsb->kicked, 0);
		served = vsb_process(vsb);
		mutex_unlock(&vsb->queue_lock);
		if (!vsb_wait_for_work(vsb, mm, served))
			break;
		/* A driver that keeps kicking must not keep the CPU. */
		cond_resched();
		vsb_run_lock(vsb);
		/* A new mm means new maps: leave those to a fresh run. */
		if (vsb->mm != mm) {
			mutex_unlock(&vsb->queue_lock);
			vsb_schedule(vsb);
			break;
		}
	}
	if (mm) {
		kthread_unuse_mm(mm);
		mmput(mm);
	}
}

/*
 * A kick: a worker polling for kicks takes it from vsb->kicked, otherwise
 * the work is queued. Called from kick_vq, in atomic context.
 */
void vsb_kick(struct vsb_dev *vsb)
{
	atomic_set(&vsb->kicked, 1);
	/*
	 * Pairs with vsb_wait_for_work(): kicked must be visible before
	 * polling is read. A full barrier: atomic_set() is a plain store, and
	 * a store may otherwise pass a later load (even on x86), so a kick
	 * could see polling still set while the worker, having just cleared
	 * it, misses kicked -- and nobody serves the kick.
	 */
	smp_mb();
	if (!READ_ONCE(vsb->polling))
		vsb_schedule(vsb);
}
