// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch: asking for no more CVQ kicks from the kick itself.
 *
 * A run asks the driver not to kick (VRING_USED_F_NO_NOTIFY, see
 * vsb_ring_disable_kicks()), but only once the worker runs. A driver that
 * finds the worker asleep -- QEMU loading a VM's state when it starts or
 * arrives, or any load after a pause -- kicks the first command and then,
 * while the worker is still waking up, every command it adds meanwhile:
 * a system call each, and as many wake-ups of the worker. So the first
 * kick sets the flag itself, in the kicker's context, before it returns.
 *
 * vhost_vdpa calls kick_vq from whichever task writes the kick eventfd,
 * the driver itself as a rule, in atomic context (see vsb_run.c), so the
 * write cannot fault a page in or translate an address: a run leaves the
 * flag's user address here beforehand (vsb_kick_hint_share()), and the
 * kick writes it with page faults disabled, only from the owner's mm.
 * Every change to the queues or the maps forgets it (vsb_kick_hint_forget())
 * before it takes effect; the next run shares it again.
 *
 * Only a hint, which the driver may or may not see: what keeps the ring
 * right is that every kick schedules a run (or wakes a polling worker)
 * after its write, and every run ends by asking for kicks again
 * (vsb_ring_enable_kicks()), so no flag written here outlives the run it
 * announces. With EVENT_IDX the driver kicks once until the device moves
 * avail_event, so there is nothing to do.
 *
 * A packed ring's device area holds off_wrap, then the flags, where
 * RING_EVENT_FLAGS_DISABLE has the value of VRING_USED_F_NO_NOTIFY: the
 * same store serves both layouts.
 */

#include <linux/uaccess.h>

#include "vsb.h"

static_assert(VRING_USED_F_NO_NOTIFY == VRING_PACKED_EVENT_FLAG_DISABLE);

/**
 * vsb_kick_hint_share - let the next CVQ kick ask for no more kicks
 * @vsb: the device
 * @cvq: the CVQ, served by the run calling this
 *
 * Q held, in a run (current->mm is the owner's).
 */
void vsb_kick_hint_share(struct vsb_dev *vsb, struct vsb_vq *cvq)
{
	u64 gen = atomic64_read(&vsb->map_gen);
	/* On a packed ring: the device area's flags, after off_wrap. */
	u64 addr = cvq->ring.used +
		   (cvq->ring.packed ?
			    offsetof(struct vring_packed_desc_event, flags) :
			    offsetof(struct vring_used, flags));
	__le16 __user *flags;
	unsigned long irqflags;

	lockdep_assert_held(&vsb->queue_lock);
	if (!vsb->kick_hint_on || cvq->ring.event_idx ||
	    READ_ONCE(vsb->kick_hint))
		return;
	flags = vsb_vq_user_ptr(cvq, addr, sizeof(*flags));
	if (!flags)
		return;
	spin_lock_irqsave(&vsb->kick_hint_lock, irqflags);
	/* A map changed since the look-up: it may be stale. */
	if (atomic64_read(&vsb->map_gen) == gen) {
		WRITE_ONCE(vsb->kick_hint, flags);
		vsb->kick_hint_mm = vsb->mm;
	}
	spin_unlock_irqrestore(&vsb->kick_hint_lock, irqflags);
}

static void vsb_kick_hint_clear(struct vsb_dev *vsb)
{
	lockdep_assert_held(&vsb->kick_hint_lock);
	WRITE_ONCE(vsb->kick_hint, NULL);
	vsb->kick_hint_mm = NULL;
}

/**
 * vsb_kick_hint_forget - a queue or a map is about to change
 * @vsb: the device
 *
 * Q or L held; the change comes after this returns. Also when the device
 * needs a reset: no run serves the ring until then.
 */
void vsb_kick_hint_forget(struct vsb_dev *vsb)
{
	unsigned long irqflags;

	spin_lock_irqsave(&vsb->kick_hint_lock, irqflags);
	vsb_kick_hint_clear(vsb);
	spin_unlock_irqrestore(&vsb->kick_hint_lock, irqflags);
}

/**
 * vsb_kick_hint - a CVQ kick: ask for no more until the run it schedules
 * @vsb: the device
 *
 * Called from kick_vq, in atomic context, before vsb_kick().
 */
void vsb_kick_hint(struct vsb_dev *vsb)
{
	__le16 __user *flags;
	unsigned long irqflags;

	/*
	 * An interrupt's current->mm is whoever it interrupted. No hint
	 * shared (no suppression, EVENT_IDX, virtio_vdpa): no lock either;
	 * a hint shared just now is only missed once.
	 */
	if (!in_task() || !READ_ONCE(vsb->kick_hint))
		return;
	spin_lock_irqsave(&vsb->kick_hint_lock, irqflags);
	flags = vsb->kick_hint;
	if (flags && current->mm == vsb->kick_hint_mm) {
		pagefault_disable();
		/* One store: the driver reads the flags as we write them. */
		if (!access_ok(flags, sizeof(*flags)) ||
		    __put_user(cpu_to_le16(VRING_USED_F_NO_NOTIFY), flags))
			vsb_kick_hint_clear(vsb);
		pagefault_enable();
	}
	spin_unlock_irqrestore(&vsb->kick_hint_lock, irqflags);
	/*
	 * The flag before vsb_kick()'s kicked and work item: the run they
	 * start asks for kicks again after it, so the flag never stays.
	 */
	smp_wmb();
}
