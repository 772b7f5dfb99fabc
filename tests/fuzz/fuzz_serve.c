// SPDX-License-Identifier: GPL-2.0-only
/* The serving loop of the ring targets: see fuzz_serve.h. */

#include "fuzz_check.h"
#include "fuzz_serve.h"

unsigned int fsv_set_mode(struct fsv *s, u8 mode)
{
	s->ring->event_idx = mode & FSV_EVENT_IDX;
	s->ring->indirect = mode & FSV_INDIRECT;
	s->immediate = mode & FSV_IMMEDIATE;
	s->suppress = mode & FSV_SUPPRESS;
	s->watch = mode & FSV_WATCH;
	return FSV_LAYOUT(mode);
}

int fsv_run(const struct fsv *s)
{
	u32 limit = s->limit ? s->limit : s->ring->num;
	struct fuzz_mem *fm = s->fm;
	unsigned int kicked_races = ~0U, hint_races = ~0U, hint_writes = 0;
	u32 served = 0;
	int ret;

	if (s->suppress) {
		s->ops->disable_kicks(s->q);
		if (s->ring->fault)
			return 0;
	}
	for (;;) {
		ret = s->ops->pop(s->q);
		if (!ret) {
			FUZZ_CHECK(
				kicked_races != fm->races_fired,
				"kicks re-armed with buffers pending, yet none");
			FUZZ_CHECK(hint_races != fm->races_fired ||
					   hint_writes != fm->total_writes,
				   "a chain announced, yet none");
			/* The worker's watch before it re-arms: one look here. */
			if (s->watch && *s->kicks_off) {
				ret = s->ops->poll(s->q);
				if (ret > 0) {
					kicked_races = fm->races_fired;
					continue;
				}
				if (ret < 0)
					break;
			}
			ret = s->ops->enable_kicks(s->q);
			if (ret > 0) {
				kicked_races = fm->races_fired;
				continue;
			}
			break;
		}
		kicked_races = ~0U;
		if (ret < 0)
			break;
		/* What was announced may change by a race or a device write. */
		hint_races = vsb_ring_has_announced(s->ring) ? fm->races_fired :
							       ~0U;
		hint_writes = fm->total_writes;
		if (!s->ops->serve_chain(s->q)) {
			ret = -EIO;
			break;
		}
		if (++served >= limit)
			break;
	}
	return ret;
}
