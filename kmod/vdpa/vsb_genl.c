// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch: the module's generic netlink family (uapi in
 * uapi/vdpa_sim_batch.h, described in Documentation/netlink.rst).
 *
 * Requests find a device by name on vsb_devices. A device leaves the list
 * before it is unregistered, under vsb_devices_lock, which every request
 * holds from the look-up to the end of its reply: a device a request
 * found cannot go away under it. A dump resumes after the last device
 * it sent, by that device's genl_id, not by a position: deleting a device
 * it already sent moves no other past the cursor. Lock order:
 * vsb_devices_lock, then the device's lock (vsb->lock, never held across
 * guest memory access, so a run of the queues stalled in a page fault
 * holds up no request, and through vsb_devices_lock no vdpa dev add/del).
 *
 * Attributes are validated strictly against a policy per command: an
 * attribute the command does not take, of the wrong type or size, or out
 * of range is refused with an extack message.
 */

#include <linux/capability.h>
#include <net/genetlink.h>

#include "vsb.h"

/* The longest device name a request may carry. */
#define VSB_GENL_NAME_MAX 63

static LIST_HEAD(vsb_devices);
static DEFINE_MUTEX(vsb_devices_lock);
/* the genl_id of the last device added; ids only grow along the list */
static unsigned long vsb_devices_last_id;

static struct genl_family vsb_genl_family;

void vsb_genl_add_dev(struct vsb_dev *vsb)
{
	mutex_lock(&vsb_devices_lock);
	vsb->genl_id = ++vsb_devices_last_id;
	list_add_tail(&vsb->node, &vsb_devices);
	mutex_unlock(&vsb_devices_lock);
}

void vsb_genl_del_dev(struct vsb_dev *vsb)
{
	mutex_lock(&vsb_devices_lock);
	list_del_init(&vsb->node);
	mutex_unlock(&vsb_devices_lock);
}

/* The device a request names; vsb_devices_lock held. */
static struct vsb_dev *vsb_genl_find(struct genl_info *info)
{
	struct nlattr *name = info->attrs[VSB_A_DEV_NAME];
	struct vsb_dev *vsb;

	lockdep_assert_held(&vsb_devices_lock);
	if (GENL_REQ_ATTR_CHECK(info, VSB_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "a device name is required");
		return ERR_PTR(-EINVAL);
	}
	list_for_each_entry(vsb, &vsb_devices, node)
		if (!nla_strcmp(name, dev_name(&vsb->vdpa.dev)))
			return vsb;
	NL_SET_ERR_MSG_ATTR(info->extack, name,
			    "no vdpa_sim_batch device of this name");
	return ERR_PTR(-ENODEV);
}

/*
 * Changes, the statistics and the control state (the guest's MAC filter
 * tables and VLANs) need CAP_NET_ADMIN, as vdpa's own vendor statistics
 * do; only DEV_GET, the device's settings, is open to every user. Checked
 * here rather than with GENL_ADMIN_PERM, which refuses without saying why.
 */
static int vsb_genl_check_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_NET_ADMIN))
		return 0;
	NL_SET_ERR_MSG(info->extack, "changing a device needs CAP_NET_ADMIN");
	return -EPERM;
}

/* For GET requests and dumps alike: a dump checks in its start op. */
static int vsb_genl_check_reader(const struct sk_buff *skb,
				 struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_NET_ADMIN))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "reading statistics or state needs CAP_NET_ADMIN");
	return -EPERM;
}

static int vsb_genl_dump_start_reader(struct netlink_callback *cb)
{
	return vsb_genl_check_reader(cb->skb, cb->extack);
}

/* The cost model, every item of it; L held. */
static int vsb_put_cost(struct sk_buff *msg, const struct vsb_cost *cost)
{
	struct nlattr *nest = nla_nest_start(msg, VSB_A_COST);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = VSB_COST_OP; i < VSB_COST_ITEMS; i++)
		if (nla_put_u32(msg, i, cost->ns[i]))
			goto cancel;
	if (nla_put_u8(msg, VSB_COST_PRECISE, cost->precise))
		goto cancel;
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

static int vsb_fill_dev(struct vsb_dev *vsb, struct sk_buff *msg)
{
	u8 mode = vsb->completion == VSB_COMPLETION_BATCH ?
			  VSB_COMPLETION_MODE_BATCH :
			  VSB_COMPLETION_MODE_IMMEDIATE;

	if (nla_put_u8(msg, VSB_A_COMPLETION, mode) ||
	    nla_put_u32(msg, VSB_A_BATCH_LIMIT, vsb->batch_limit) ||
	    vsb_put_cost(msg, &vsb->cost))
		return -EMSGSIZE;
	return 0;
}

static int vsb_put_mac_table(struct sk_buff *msg, int type, int overflow,
			     const struct vsb_mac_table *table)
{
	struct nlattr *nest;
	u32 i;

	if (table->overflow && nla_put_flag(msg, overflow))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < table->count; i++) {
		if (nla_put(msg, VSB_A_MAC, ETH_ALEN, table->addr[i])) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int vsb_put_vlans(struct sk_buff *msg, const struct vsb_net_ctrl *ctrl)
{
	__le64 bitmap[VSB_VLAN_IDS / 64];
	unsigned int i;

	/* Little-endian words: bit n is bit n % 8 of byte n / 8. */
	for (i = 0; i < ARRAY_SIZE(bitmap); i++)
		bitmap[i] = cpu_to_le64(ctrl->vlans[i]);
	return nla_put(msg, VSB_A_VLANS, sizeof(bitmap), bitmap);
}

static u32 vsb_rx_modes(const struct vsb_net_ctrl *ctrl)
{
	return ctrl->rx.promisc << VIRTIO_NET_CTRL_RX_PROMISC |
	       ctrl->rx.allmulti << VIRTIO_NET_CTRL_RX_ALLMULTI |
	       ctrl->rx.alluni << VIRTIO_NET_CTRL_RX_ALLUNI |
	       ctrl->rx.nomulti << VIRTIO_NET_CTRL_RX_NOMULTI |
	       ctrl->rx.nouni << VIRTIO_NET_CTRL_RX_NOUNI |
	       ctrl->rx.nobcast << VIRTIO_NET_CTRL_RX_NOBCAST;
}

/* RSS_CONFIG's or HASH_CONFIG's state; nothing if neither can be sent. */
static int vsb_put_rss(struct sk_buff *msg, const struct vsb_dev *vsb)
{
	const struct vsb_rss *rss = &vsb->ctrl.rss;

	if (!(vsb->features &
	      (BIT_ULL(VIRTIO_NET_F_RSS) | BIT_ULL(VIRTIO_NET_F_HASH_REPORT))))
		return 0;
	if (nla_put_u32(msg, VSB_A_RSS_HASH_TYPES, rss->hash_types) ||
	    nla_put(msg, VSB_A_RSS_KEY, sizeof(rss->key), rss->key) ||
	    nla_put(msg, VSB_A_RSS_TABLE,
		    rss->table_len * sizeof(rss->table[0]), rss->table) ||
	    nla_put_u16(msg, VSB_A_RSS_UNCLASSIFIED, rss->unclassified) ||
	    (rss->steering && nla_put_flag(msg, VSB_A_RSS_STEERING)))
		return -EMSGSIZE;
	return 0;
}

/* Everything the control queue can set, as the device holds it now. */
static int vsb_fill_state(struct vsb_dev *vsb, struct sk_buff *msg)
{
	const struct vsb_net_ctrl *ctrl = &vsb->ctrl;
	int ret;

	if (nla_put_u8(msg, VSB_A_STATUS, vsb->status) ||
	    nla_put_u64_64bit(msg, VSB_A_FEATURES, vsb->features, VSB_A_PAD) ||
	    nla_put(msg, VSB_A_MAC, ETH_ALEN, ctrl->mac) ||
	    nla_put_u32(msg, VSB_A_RX_MODES, vsb_rx_modes(ctrl)) ||
	    nla_put_u16(msg, VSB_A_PAIRS, ctrl->pairs) ||
	    nla_put_u16(msg, VSB_A_MAX_PAIRS, ctrl->max_pairs) ||
	    nla_put_u64_64bit(msg, VSB_A_OFFLOADS, ctrl->offloads, VSB_A_PAD) ||
	    nla_put_u8(msg, VSB_A_LINK, !vsb->link_down) ||
	    (ctrl->announce_pending &&
	     nla_put_flag(msg, VSB_A_ANNOUNCE_PENDING)))
		return -EMSGSIZE;
	ret = vsb_put_mac_table(msg, VSB_A_UNI_MACS, VSB_A_UNI_OVERFLOW,
				&ctrl->uni);
	if (!ret)
		ret = vsb_put_mac_table(msg, VSB_A_MULTI_MACS,
					VSB_A_MULTI_OVERFLOW, &ctrl->multi);
	if (!ret)
		ret = vsb_put_vlans(msg, ctrl);
	return ret ?: vsb_put_rss(msg, vsb);
}

/* One message about one device: its name, then what @fill puts. */
static int vsb_genl_put(struct sk_buff *msg, u32 portid, u32 seq, int flags,
			u8 cmd, struct vsb_dev *vsb,
			int (*fill)(struct vsb_dev *, struct sk_buff *))
{
	void *hdr;
	int ret;

	hdr = genlmsg_put(msg, portid, seq, &vsb_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, VSB_A_DEV_NAME, dev_name(&vsb->vdpa.dev))) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	mutex_lock(&vsb->lock);
	ret = fill(vsb, msg);
	mutex_unlock(&vsb->lock);
	if (ret) {
		genlmsg_cancel(msg, hdr);
		return ret;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int vsb_genl_get(struct genl_info *info,
			int (*fill)(struct vsb_dev *, struct sk_buff *))
{
	struct vsb_dev *vsb;
	struct sk_buff *msg;
	int ret;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&vsb_devices_lock);
	vsb = vsb_genl_find(info);
	ret = IS_ERR(vsb) ? PTR_ERR(vsb) :
			    vsb_genl_put(msg, info->snd_portid, info->snd_seq,
					 0, info->genlhdr->cmd, vsb, fill);
	mutex_unlock(&vsb_devices_lock);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

/* Every device, resuming after the one whose genl_id is cb->args[0]. */
static int vsb_genl_dump(struct sk_buff *msg, struct netlink_callback *cb,
			 int (*fill)(struct vsb_dev *, struct sk_buff *))
{
	u8 cmd = ((struct genlmsghdr *)nlmsg_data(cb->nlh))->cmd;
	unsigned long last = cb->args[0];
	struct vsb_dev *vsb;
	int ret = 0;

	mutex_lock(&vsb_devices_lock);
	list_for_each_entry(vsb, &vsb_devices, node) {
		if (vsb->genl_id <= last)
			continue;
		ret = vsb_genl_put(msg, NETLINK_CB(cb->skb).portid,
				   cb->nlh->nlmsg_seq, NLM_F_MULTI, cmd, vsb,
				   fill);
		if (ret)
			break;
		last = vsb->genl_id;
	}
	mutex_unlock(&vsb_devices_lock);
	cb->args[0] = last;
	/* A device too big for an empty message is an error, not the end. */
	if (ret == -EMSGSIZE && msg->len)
		return msg->len;
	return ret ?: msg->len;
}

static int vsb_genl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return vsb_genl_get(info, vsb_fill_dev);
}

static int vsb_genl_dev_get_dumpit(struct sk_buff *msg,
				   struct netlink_callback *cb)
{
	return vsb_genl_dump(msg, cb, vsb_fill_dev);
}

static int vsb_genl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ret = vsb_genl_check_reader(skb, info->extack);

	return ret ?: vsb_genl_get(info, vsb_fill_genl_stats);
}

static int vsb_genl_stats_get_dumpit(struct sk_buff *msg,
				     struct netlink_callback *cb)
{
	return vsb_genl_dump(msg, cb, vsb_fill_genl_stats);
}

static int vsb_genl_state_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ret = vsb_genl_check_reader(skb, info->extack);

	return ret ?: vsb_genl_get(info, vsb_fill_state);
}

static int vsb_genl_state_get_dumpit(struct sk_buff *msg,
				     struct netlink_callback *cb)
{
	return vsb_genl_dump(msg, cb, vsb_fill_state);
}

/* Apply @change to the device a request names, under the device's lock. */
static int vsb_genl_change(struct genl_info *info,
			   int (*change)(struct vsb_dev *, struct genl_info *))
{
	struct vsb_dev *vsb;
	int ret = 0;

	mutex_lock(&vsb_devices_lock);
	vsb = vsb_genl_find(info);
	if (IS_ERR(vsb)) {
		ret = PTR_ERR(vsb);
	} else {
		mutex_lock(&vsb->lock);
		ret = change(vsb, info);
		mutex_unlock(&vsb->lock);
	}
	mutex_unlock(&vsb_devices_lock);
	return ret;
}

/*
 * The cost items a request gives (the policy checked them); the rest stay.
 * From the next operation on: a run prices what it publishes then.
 */
static void vsb_set_cost(struct vsb_cost *cost, const struct nlattr *nest)
{
	const struct nlattr *attr;
	int rem;

	nla_for_each_nested(attr, nest, rem) {
		int type = nla_type(attr);

		if (type == VSB_COST_PRECISE)
			cost->precise = nla_get_u8(attr);
		else if (type >= VSB_COST_OP && type < VSB_COST_ITEMS)
			cost->ns[type] = nla_get_u32(attr);
	}
}

/* Takes effect from the device's next run of the control queue. */
static int vsb_set_dev(struct vsb_dev *vsb, struct genl_info *info)
{
	struct nlattr *completion = info->attrs[VSB_A_COMPLETION];
	struct nlattr *limit = info->attrs[VSB_A_BATCH_LIMIT];
	struct nlattr *cost = info->attrs[VSB_A_COST];

	if (completion)
		vsb->completion = nla_get_u8(completion) ==
						  VSB_COMPLETION_MODE_BATCH ?
					  VSB_COMPLETION_BATCH :
					  VSB_COMPLETION_IMMEDIATE;
	if (limit)
		vsb->batch_limit = nla_get_u32(limit);
	if (cost)
		vsb_set_cost(&vsb->cost, cost);
	return 0;
}

static int vsb_genl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ret = vsb_genl_check_admin(skb, info);

	if (ret)
		return ret;
	if (!info->attrs[VSB_A_COMPLETION] && !info->attrs[VSB_A_BATCH_LIMIT] &&
	    !info->attrs[VSB_A_COST]) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		return -EINVAL;
	}
	if (info->attrs[VSB_A_COST] && !nla_len(info->attrs[VSB_A_COST])) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[VSB_A_COST],
				    "no cost item to set");
		return -EINVAL;
	}
	return vsb_genl_change(info, vsb_set_dev);
}

static int vsb_reset_dev_stats(struct vsb_dev *vsb, struct genl_info *info)
{
	vsb_reset_stats(vsb);
	return 0;
}

static int vsb_genl_stats_reset_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	int ret = vsb_genl_check_admin(skb, info);

	return ret ?: vsb_genl_change(info, vsb_reset_dev_stats);
}

static int vsb_genl_set_link(struct vsb_dev *vsb, struct genl_info *info)
{
	return vsb_set_link(vsb, nla_get_u8(info->attrs[VSB_A_LINK]),
			    info->extack);
}

static int vsb_genl_link_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ret = vsb_genl_check_admin(skb, info);

	if (ret)
		return ret;
	if (GENL_REQ_ATTR_CHECK(info, VSB_A_LINK))
		return -EINVAL;
	return vsb_genl_change(info, vsb_genl_set_link);
}

static int vsb_genl_announce(struct vsb_dev *vsb, struct genl_info *info)
{
	return vsb_announce(vsb, info->extack);
}

static int vsb_genl_announce_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ret = vsb_genl_check_admin(skb, info);

	return ret ?: vsb_genl_change(info, vsb_genl_announce);
}

/* One rule, as FAULT_GET shows it; L held. */
static int vsb_put_fault_rule(struct sk_buff *msg,
			      const struct vsb_fault_rule *rule)
{
	struct nlattr *nest = nla_nest_start(msg, VSB_A_FAULT_RULE);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, VSB_FRULE_ID, rule->id) ||
	    nla_put_u8(msg, VSB_FRULE_ACTION, rule->action) ||
	    (rule->class != VSB_FAULT_RULE_ANY &&
	     nla_put_u8(msg, VSB_FRULE_CLASS, rule->class)) ||
	    (rule->cmd != VSB_FAULT_RULE_ANY &&
	     nla_put_u8(msg, VSB_FRULE_CMD, rule->cmd)) ||
	    (rule->nth && nla_put_u32(msg, VSB_FRULE_NTH, rule->nth)) ||
	    (rule->interval &&
	     nla_put_u32(msg, VSB_FRULE_INTERVAL, rule->interval)) ||
	    (rule->probability &&
	     (nla_put_u32(msg, VSB_FRULE_PROBABILITY, rule->probability) ||
	      nla_put_u32(msg, VSB_FRULE_SEED, rule->seed))) ||
	    (rule->times && nla_put_u32(msg, VSB_FRULE_TIMES, rule->times)) ||
	    (rule->delay_ns &&
	     nla_put_u32(msg, VSB_FRULE_DELAY_NS, rule->delay_ns)) ||
	    (rule->persist && nla_put_flag(msg, VSB_FRULE_PERSIST)) ||
	    nla_put_u64_64bit(msg, VSB_FRULE_MATCHED, rule->matched,
			      VSB_FRULE_PAD) ||
	    nla_put_u64_64bit(msg, VSB_FRULE_HITS, rule->hits, VSB_FRULE_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* Every rule of the device, in order; L held. */
static int vsb_fill_fault_rules(struct vsb_dev *vsb, struct sk_buff *msg)
{
	const struct vsb_fault_rules *rules = &vsb->fault_rules;
	struct nlattr *nest = nla_nest_start(msg, VSB_A_FAULT_RULES);
	u32 i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < rules->count; i++) {
		if (vsb_put_fault_rule(msg, &rules->rule[i])) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* Like the statistics: the hits count the guest's commands by class. */
static int vsb_genl_fault_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ret = vsb_genl_check_reader(skb, info->extack);

	return ret ?: vsb_genl_get(info, vsb_fill_fault_rules);
}

static int vsb_genl_fault_get_dumpit(struct sk_buff *msg,
				     struct netlink_callback *cb)
{
	return vsb_genl_dump(msg, cb, vsb_fill_fault_rules);
}

static const struct nla_policy vsb_genl_frule_policy[VSB_FRULE_MAX + 1];

static u32 vsb_nla_u32_or(const struct nlattr *attr, u32 absent)
{
	return attr ? nla_get_u32(attr) : absent;
}

/* A rule from a request's VSB_A_FAULT_RULE, checked; the policy parsed it. */
static int vsb_fault_rule_parse(struct genl_info *info,
				struct vsb_fault_rule *rule)
{
	struct nlattr *nest = info->attrs[VSB_A_FAULT_RULE];
	struct nlattr *tb[VSB_FRULE_MAX + 1];
	const char *why;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, VSB_A_FAULT_RULE))
		return -EINVAL;
	ret = nla_parse_nested(tb, VSB_FRULE_MAX, nest, vsb_genl_frule_policy,
			       info->extack);
	if (ret)
		return ret;
	if (!tb[VSB_FRULE_ACTION]) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest,
				    "a fault rule needs an action");
		return -EINVAL;
	}
	*rule = (struct vsb_fault_rule){
		.action = nla_get_u8(tb[VSB_FRULE_ACTION]),
		.class = tb[VSB_FRULE_CLASS] ? nla_get_u8(tb[VSB_FRULE_CLASS]) :
					       VSB_FAULT_RULE_ANY,
		.cmd = tb[VSB_FRULE_CMD] ? nla_get_u8(tb[VSB_FRULE_CMD]) :
					   VSB_FAULT_RULE_ANY,
		.nth = vsb_nla_u32_or(tb[VSB_FRULE_NTH], 0),
		.interval = vsb_nla_u32_or(tb[VSB_FRULE_INTERVAL], 0),
		.probability = vsb_nla_u32_or(tb[VSB_FRULE_PROBABILITY], 0),
		.seed = vsb_nla_u32_or(tb[VSB_FRULE_SEED], 0),
		.times = vsb_nla_u32_or(tb[VSB_FRULE_TIMES], 0),
		.delay_ns = vsb_nla_u32_or(tb[VSB_FRULE_DELAY_NS], 0),
		.persist = nla_get_flag(tb[VSB_FRULE_PERSIST]),
	};
	why = vsb_fault_rule_check(rule);
	if (why) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, nest, "%s", why);
		return -EINVAL;
	}
	return 0;
}

static int vsb_genl_fault_add(struct vsb_dev *vsb, struct genl_info *info)
{
	struct vsb_fault_rule rule;
	const char *why;
	int ret = vsb_fault_rule_parse(info, &rule);

	if (ret)
		return ret;
	ret = vsb_fault_rules_add(&vsb->fault_rules, &rule, &why);
	if (ret)
		NL_SET_ERR_MSG_FMT(info->extack, "%s", why);
	vsb_faults_changed(vsb);
	return ret;
}

/* The reply: the device's rules, the new one last. */
static int vsb_genl_fault_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ret = vsb_genl_check_admin(skb, info);

	if (ret)
		return ret;
	ret = vsb_genl_change(info, vsb_genl_fault_add);
	return ret ?: vsb_genl_get(info, vsb_fill_fault_rules);
}

static int vsb_genl_fault_clear(struct vsb_dev *vsb, struct genl_info *info)
{
	vsb_fault_rules_clear(&vsb->fault_rules);
	vsb_faults_changed(vsb);
	return 0;
}

static int vsb_genl_fault_clear_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	int ret = vsb_genl_check_admin(skb, info);

	return ret ?: vsb_genl_change(info, vsb_genl_fault_clear);
}

/* Requests name a device, or none in a dump. */
static const struct nla_policy vsb_genl_dev_policy[VSB_A_MAX + 1] = {
	[VSB_A_DEV_NAME] = { .type = NLA_STRING, .len = VSB_GENL_NAME_MAX },
};

/* A policy's plain maximum is an s16: a larger one needs a range. */
static const struct netlink_range_validation vsb_cost_range = {
	.max = VSB_COST_MAX_NS,
};

/* Every item of the model alike: a new one cannot be left out. */
static const struct nla_policy vsb_genl_cost_policy[VSB_COST_MAX + 1] = {
	[VSB_COST_OP... VSB_COST_ITEMS - 1] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &vsb_cost_range),
	[VSB_COST_PRECISE] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct nla_policy vsb_genl_set_policy[VSB_A_MAX + 1] = {
	[VSB_A_DEV_NAME] = { .type = NLA_STRING, .len = VSB_GENL_NAME_MAX },
	[VSB_A_COMPLETION] = NLA_POLICY_MAX(NLA_U8, VSB_COMPLETION_MODE_BATCH),
	[VSB_A_BATCH_LIMIT] = NLA_POLICY_MAX(NLA_U32, VSB_QUEUE_SIZE_MAX),
	[VSB_A_COST] = NLA_POLICY_NESTED(vsb_genl_cost_policy),
};

static const struct netlink_range_validation vsb_frule_probability_range = {
	.min = 1,
	.max = VSB_FAULT_PROBABILITY_ONE,
};

/* The ranges a rule's fields have alone; vsb_fault_rule_check() the rest. */
static const struct nla_policy vsb_genl_frule_policy[VSB_FRULE_MAX + 1] = {
	[VSB_FRULE_ACTION] = NLA_POLICY_RANGE(NLA_U8, VSB_FAULT_ACTION_NACK,
					      VSB_FAULT_ACTION_MAX),
	[VSB_FRULE_CLASS] = { .type = NLA_U8 },
	[VSB_FRULE_CMD] = { .type = NLA_U8 },
	[VSB_FRULE_NTH] = NLA_POLICY_MIN(NLA_U32, 1),
	[VSB_FRULE_INTERVAL] = NLA_POLICY_MIN(NLA_U32, 1),
	[VSB_FRULE_PROBABILITY] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &vsb_frule_probability_range),
	[VSB_FRULE_SEED] = { .type = NLA_U32 },
	[VSB_FRULE_TIMES] = NLA_POLICY_MIN(NLA_U32, 1),
	[VSB_FRULE_DELAY_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &vsb_cost_range),
	[VSB_FRULE_PERSIST] = { .type = NLA_FLAG },
};

static const struct nla_policy vsb_genl_fault_policy[VSB_A_MAX + 1] = {
	[VSB_A_DEV_NAME] = { .type = NLA_STRING, .len = VSB_GENL_NAME_MAX },
	[VSB_A_FAULT_RULE] = NLA_POLICY_NESTED(vsb_genl_frule_policy),
};

static const struct nla_policy vsb_genl_link_policy[VSB_A_MAX + 1] = {
	[VSB_A_DEV_NAME] = { .type = NLA_STRING, .len = VSB_GENL_NAME_MAX },
	[VSB_A_LINK] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct genl_ops vsb_genl_ops[] = {
	{
		.cmd = VSB_CMD_DEV_GET,
		.doit = vsb_genl_dev_get_doit,
		.dumpit = vsb_genl_dev_get_dumpit,
		.policy = vsb_genl_dev_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_DEV_SET,
		.doit = vsb_genl_dev_set_doit,
		.policy = vsb_genl_set_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_STATS_GET,
		.doit = vsb_genl_stats_get_doit,
		.start = vsb_genl_dump_start_reader,
		.dumpit = vsb_genl_stats_get_dumpit,
		.policy = vsb_genl_dev_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_STATS_RESET,
		.doit = vsb_genl_stats_reset_doit,
		.policy = vsb_genl_dev_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_STATE_GET,
		.doit = vsb_genl_state_get_doit,
		.start = vsb_genl_dump_start_reader,
		.dumpit = vsb_genl_state_get_dumpit,
		.policy = vsb_genl_dev_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_LINK_SET,
		.doit = vsb_genl_link_set_doit,
		.policy = vsb_genl_link_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_ANNOUNCE,
		.doit = vsb_genl_announce_doit,
		.policy = vsb_genl_dev_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_FAULT_ADD,
		.doit = vsb_genl_fault_add_doit,
		.policy = vsb_genl_fault_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_FAULT_GET,
		.doit = vsb_genl_fault_get_doit,
		.start = vsb_genl_dump_start_reader,
		.dumpit = vsb_genl_fault_get_dumpit,
		.policy = vsb_genl_dev_policy,
		.maxattr = VSB_A_MAX,
	},
	{
		.cmd = VSB_CMD_FAULT_CLEAR,
		.doit = vsb_genl_fault_clear_doit,
		.policy = vsb_genl_dev_policy,
		.maxattr = VSB_A_MAX,
	},
};

static struct genl_family vsb_genl_family __ro_after_init = {
	.name = VSB_GENL_NAME,
	.version = VSB_GENL_VERSION,
	.module = THIS_MODULE,
	.ops = vsb_genl_ops,
	.n_ops = ARRAY_SIZE(vsb_genl_ops),
	/*
	 * resv_start_op left 0, as for every new family: every command gets
	 * strict validation (the commands below it are the legacy ones).
	 */
	/* Requests lock what they touch themselves. */
	.parallel_ops = true,
};

int vsb_genl_register(void)
{
	return genl_register_family(&vsb_genl_family);
}

void vsb_genl_unregister(void)
{
	genl_unregister_family(&vsb_genl_family);
}
