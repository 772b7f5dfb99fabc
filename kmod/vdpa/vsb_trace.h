/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints of the control path: where a CVQ command's time goes inside
 * the device. Documentation/tracing.rst describes each event.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vdpa_sim_batch

#if !defined(VSB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define VSB_TRACE_H

#include <linux/tracepoint.h>

#include "vsb.h"

/*
 * The kernel's layout for trace events, which clang-format would flatten
 * into one expression.
 */
/* clang-format off */

/* The driver kicked the control queue. */
TRACE_EVENT(vsb_cvq_kick,
	    TP_PROTO(const struct vsb_dev *vsb),
	    TP_ARGS(vsb),
	    TP_STRUCT__entry(__string(dev, dev_name(&vsb->vdpa.dev))),
	    TP_fast_assign(__assign_str(dev);),
	    TP_printk("dev=%s", __get_str(dev))
);

/* One command executed: ack 255 means none was written (a fault). */
TRACE_EVENT(vsb_cvq_cmd,
	    TP_PROTO(const struct vsb_dev *vsb, u16 chain_head,
		     const struct vsb_cvq_result *res, u32 bytes, u64 ns),
	    TP_ARGS(vsb, chain_head, res, bytes, ns),
	    TP_STRUCT__entry(__string(dev, dev_name(&vsb->vdpa.dev))
			     __field(u16, head)
			     __field(u8, class)
			     __field(u8, cmd)
			     __field(u8, ack)
			     __field(u32, bytes)
			     __field(u64, ns)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->head = chain_head;
			   __entry->class = res->class;
			   __entry->cmd = res->cmd;
			   __entry->ack = res->used_len ? res->ack : 255;
			   __entry->bytes = bytes;
			   __entry->ns = ns;),
	    TP_printk("dev=%s head=%u class=%u cmd=%u ack=%u bytes=%u ns=%llu",
		      __get_str(dev), __entry->head, __entry->class,
		      __entry->cmd, __entry->ack, __entry->bytes, __entry->ns)
);

/*
 * Used entries published: ns from the first command's fetch, kick_ns from
 * the first kick not yet served when the run started.
 */
TRACE_EVENT(vsb_cvq_batch,
	    TP_PROTO(const struct vsb_dev *vsb, u32 cmds, bool notified, u64 ns,
		     u64 kick_ns),
	    TP_ARGS(vsb, cmds, notified, ns, kick_ns),
	    TP_STRUCT__entry(__string(dev, dev_name(&vsb->vdpa.dev))
			     __field(u32, cmds)
			     __field(bool, notified)
			     __field(u64, ns)
			     __field(u64, kick_ns)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->cmds = cmds;
			   __entry->notified = notified;
			   __entry->ns = ns;
			   __entry->kick_ns = kick_ns;),
	    TP_printk("dev=%s cmds=%u notified=%u ns=%llu kick_ns=%llu",
		      __get_str(dev), __entry->cmds, __entry->notified,
		      __entry->ns, __entry->kick_ns)
);

/*
 * The cost model's price of an operation of @cmds commands, paid before
 * they are published: ns asked for, real_ns spent.
 */
TRACE_EVENT(vsb_cvq_cost,
	    TP_PROTO(const struct vsb_dev *vsb, u32 cmds, u64 ns, u64 real_ns,
		     bool precise),
	    TP_ARGS(vsb, cmds, ns, real_ns, precise),
	    TP_STRUCT__entry(__string(dev, dev_name(&vsb->vdpa.dev))
			     __field(u32, cmds)
			     __field(u64, ns)
			     __field(u64, real_ns)
			     __field(bool, precise)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->cmds = cmds;
			   __entry->ns = ns;
			   __entry->real_ns = real_ns;
			   __entry->precise = precise;),
	    TP_printk("dev=%s cmds=%u ns=%llu real_ns=%llu precise=%u",
		      __get_str(dev), __entry->cmds, __entry->ns,
		      __entry->real_ns, __entry->precise)
);

/* A fault rule (uapi/vdpa_sim_batch.h) acted on a command. */
TRACE_EVENT(vsb_cvq_fault,
	    TP_PROTO(const struct vsb_dev *vsb,
		     const struct vsb_fault_rule *rule, u16 chain_head,
		     u8 class, u8 cmd),
	    TP_ARGS(vsb, rule, chain_head, class, cmd),
	    TP_STRUCT__entry(__string(dev, dev_name(&vsb->vdpa.dev))
			     __field(u32, rule)
			     __string(action,
				      vsb_fault_action_name(rule->action))
			     __field(u16, head)
			     __field(u8, class)
			     __field(u8, cmd)
			     __field(u64, hit)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->rule = rule->id;
			   __assign_str(action);
			   __entry->head = chain_head;
			   __entry->class = class;
			   __entry->cmd = cmd;
			   __entry->hit = rule->hits;),
	    TP_printk("dev=%s rule=%u action=%s head=%u class=%u cmd=%u hit=%llu",
		      __get_str(dev), __entry->rule, __get_str(action),
		      __entry->head, __entry->class, __entry->cmd,
		      __entry->hit)
);

/* The device entered NEEDS_RESET. */
TRACE_EVENT(vsb_needs_reset,
	    TP_PROTO(const struct vsb_dev *vsb, u16 queue,
		     enum vsb_fault fault),
	    TP_ARGS(vsb, queue, fault),
	    TP_STRUCT__entry(__string(dev, dev_name(&vsb->vdpa.dev))
			     __field(u16, queue)
			     __string(reason, vsb_fault_name(fault))),
	    TP_fast_assign(__assign_str(dev);
			   __entry->queue = queue;
			   __assign_str(reason);),
	    TP_printk("dev=%s queue=%u reason=%s", __get_str(dev),
		      __entry->queue, __get_str(reason))
);

/* clang-format on */

#endif /* VSB_TRACE_H */

/* Out of tree: the header is found next to this file. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vsb_trace
#include <trace/define_trace.h>
