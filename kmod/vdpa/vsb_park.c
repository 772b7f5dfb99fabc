// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run of the queues that waits -- for a guest page (vsb_mem.c,
 * vsb_pin.c), for the cost model (vsb_run.c) -- parked: with queue_lock
 * dropped, so that the ops which must not wait for a fault go on, and
 * abandoned if one of them changed the device meanwhile.
 */

#include "vsb.h"

/*
 * Q held by a run: take it for the run, which starts afresh (a run
 * abandoned before it is over).
 */
void vsb_run_lock(struct vsb_dev *vsb)
{
	mutex_lock(&vsb->queue_lock);
	vsb->run_abandoned = false;
}

/*
 * A run that must wait -- for a page, for the cost model -- drops
 * queue_lock for the wait ("parked"), then takes it back. The ops that
 * find the lock free meanwhile are those that must not wait for it (see
 * struct vsb_dev); if one reset the device, stopped it or changed its
 * owner, the run is abandoned: its state may be the old device's, so it
 * reaches guest memory no more (and reports no ring error), and ends.
 *
 * vsb_park() returns what vsb_unpark() checks; vsb_unpark() returns
 * false if the run is abandoned.
 */
u64 vsb_park(struct vsb_dev *vsb)
{
	u64 gen = vsb->reset_gen;

	lockdep_assert_held(&vsb->queue_lock);
	WRITE_ONCE(vsb->parked, true);
	mutex_unlock(&vsb->queue_lock);
	return gen;
}

bool vsb_unpark(struct vsb_dev *vsb, u64 gen)
{
	mutex_lock(&vsb->queue_lock);
	WRITE_ONCE(vsb->parked, false);
	wake_up_all(&vsb->park_wq);
	if (vsb->reset_gen != gen || !vsb_running(vsb)) {
		vsb->run_abandoned = true;
		return false;
	}
	return true;
}
