// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch: a vDPA net device simulator with batched control
 * virtqueue completion.
 *
 * Module glue: parameters, the "vdpasim_batch" management device through
 * which iproute2's "vdpa dev add ... mgmtdev vdpasim_batch" creates
 * devices, and the checks on what it is asked to create.
 */

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <uapi/linux/vdpa.h>
#include <uapi/linux/virtio_config.h>
#include <uapi/linux/virtio_ids.h>

#include "vsb.h"
#include "vsb_compat.h"

#define DRV_VERSION "0.2"
#define DRV_AUTHOR "vdpa-batch developers"
#define DRV_DESC "vDPA net device simulator with batched CVQ completion"
#define DRV_LICENSE "GPL"

/*
 * What a device offers unless "vdpa dev add ... device_features" says
 * otherwise: everything but the features QEMU's shadow virtqueue cannot
 * handle (10.0 and older). QEMU shadows the control queue, and so loads
 * the guest's state at every start, only when it supports every feature
 * the device offers, and refuses x-svq=on otherwise. INDIRECT_DESC and
 * GUEST_ANNOUNCE stay available to whoever asks for them.
 */
#define VSB_FEATURES_DEFAULT                                                   \
	(BIT_ULL(VIRTIO_F_VERSION_1) | BIT_ULL(VIRTIO_F_ACCESS_PLATFORM) |     \
	 BIT_ULL(VIRTIO_F_ANY_LAYOUT) | BIT_ULL(VIRTIO_RING_F_EVENT_IDX) |     \
	 BIT_ULL(VIRTIO_NET_F_MAC) | BIT_ULL(VIRTIO_NET_F_MTU) |               \
	 BIT_ULL(VIRTIO_NET_F_STATUS) | BIT_ULL(VIRTIO_NET_F_CTRL_VQ) |        \
	 BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR) | BIT_ULL(VIRTIO_NET_F_CTRL_RX) | \
	 BIT_ULL(VIRTIO_NET_F_CTRL_RX_EXTRA) |                                 \
	 BIT_ULL(VIRTIO_NET_F_CTRL_VLAN) | BIT_ULL(VIRTIO_NET_F_MQ) |          \
	 BIT_ULL(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS) |                           \
	 BIT_ULL(VIRTIO_NET_F_GUEST_CSUM))

/*
 * What "vdpa dev add ... device_features" may ask for. DEVICE_STATS and
 * the notification coalescing features are outside QEMU 10's shadow
 * virtqueue lists too; RSS and HASH_REPORT are inside them
 * (tests/vm/qemu/76-qemu-svq-features.t) but change the defaults' data path
 * (with HASH_REPORT every frame's header grows by 8 bytes) and what
 * QEMU's state load sends. QEMU 10's shadow virtqueue has no packed
 * rings and refuses a device offering RING_PACKED, so that is asked for
 * too.
 */
#define VSB_FEATURES                                                         \
	(VSB_FEATURES_DEFAULT | BIT_ULL(VIRTIO_RING_F_INDIRECT_DESC) |       \
	 BIT_ULL(VIRTIO_NET_F_GUEST_ANNOUNCE) |                              \
	 BIT_ULL(VSB_NET_F_DEVICE_STATS) | BIT_ULL(VIRTIO_NET_F_NOTF_COAL) | \
	 BIT_ULL(VSB_NET_F_VQ_NOTF_COAL) | BIT_ULL(VIRTIO_NET_F_RSS) |       \
	 BIT_ULL(VIRTIO_NET_F_HASH_REPORT) | BIT_ULL(VIRTIO_F_RING_PACKED))

struct workqueue_struct *vsb_wq;
static struct device *vsb_root;

static const char *const vsb_completion_names[] = {
	[VSB_COMPLETION_IMMEDIATE] = "immediate",
	[VSB_COMPLETION_BATCH] = "batch",
};

static int vsb_completion_default = VSB_COMPLETION_BATCH;

static int vsb_completion_set(const char *val, const struct kernel_param *kp)
{
	int mode = sysfs_match_string(vsb_completion_names, val);

	if (mode < 0)
		return -EINVAL;
	*(int *)kp->arg = mode;
	return 0;
}

static int vsb_completion_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", vsb_completion_names[*(int *)kp->arg]);
}

static const struct kernel_param_ops vsb_completion_ops = {
	.set = vsb_completion_set,
	.get = vsb_completion_get,
};

module_param_cb(completion, &vsb_completion_ops, &vsb_completion_default, 0644);
MODULE_PARM_DESC(completion, "CVQ completion of new devices: batch|immediate");

/*
 * What get_vq_num_max() says: virtio_vdpa sizes its rings by it, and
 * "vdpa dev add" has no attribute for it. Stock vdpa_sim offers 256.
 */
static unsigned int vsb_queue_size = VSB_QUEUE_SIZE_MAX;

static int vsb_queue_size_set(const char *val, const struct kernel_param *kp)
{
	unsigned int size;
	int ret = kstrtouint(val, 0, &size);

	if (ret)
		return ret;
	if (size < VSB_QUEUE_SIZE_MIN || size > VSB_QUEUE_SIZE_MAX ||
	    !is_power_of_2(size))
		return -EINVAL;
	*(unsigned int *)kp->arg = size;
	return 0;
}

static const struct kernel_param_ops vsb_queue_size_ops = {
	.set = vsb_queue_size_set,
	.get = param_get_uint,
};

module_param_cb(queue_size, &vsb_queue_size_ops, &vsb_queue_size, 0644);
MODULE_PARM_DESC(queue_size,
		 "largest ring of new devices, a power of two (2-4096)");

/*
 * The CVQ cost model of new devices (uapi/vdpa_sim_batch.h): "ITEM=NS,..."
 * with vsb_cost_names' items and "precise=Y|N"; items not named are 0.
 */
static struct vsb_cost vsb_cost_default;

static int vsb_cost_parse(char *list, struct vsb_cost *cost)
{
	char *item, *value;
	int i, ret;

	while ((item = strsep(&list, ","))) {
		item = strim(item);
		if (!*item)
			continue;
		value = strchr(item, '=');
		if (!value)
			return -EINVAL;
		*value++ = '\0';
		if (!strcmp(item, "precise")) {
			ret = kstrtobool(value, &cost->precise);
		} else {
			i = vsb_cost_item_by_name(item);
			if (i < 0)
				return i;
			ret = kstrtou32(value, 0, &cost->ns[i]);
			if (!ret && cost->ns[i] > VSB_COST_MAX_NS)
				ret = -ERANGE;
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int vsb_cost_set(const char *val, const struct kernel_param *kp)
{
	struct vsb_cost cost = {};
	char *list = kstrdup(val, GFP_KERNEL);
	int ret;

	if (!list)
		return -ENOMEM;
	ret = vsb_cost_parse(list, &cost);
	kfree(list);
	if (!ret)
		*(struct vsb_cost *)kp->arg = cost;
	return ret;
}

static int vsb_cost_get(char *buf, const struct kernel_param *kp)
{
	const struct vsb_cost *cost = kp->arg;
	int i, len = 0;

	for (i = VSB_COST_OP; i < VSB_COST_ITEMS; i++) {
		if (!cost->ns[i])
			continue;
		if (len)
			len += sysfs_emit_at(buf, len, ",");
		len += sysfs_emit_at(buf, len, "%s=%u", vsb_cost_names[i],
				     cost->ns[i]);
	}
	if (cost->precise)
		len += sysfs_emit_at(buf, len, "%sprecise=Y", len ? "," : "");
	return len + sysfs_emit_at(buf, len, "\n");
}

static const struct kernel_param_ops vsb_cost_ops = {
	.set = vsb_cost_set,
	.get = vsb_cost_get,
};

module_param_cb(cost, &vsb_cost_ops, &vsb_cost_default, 0644);
MODULE_PARM_DESC(cost, "CVQ cost model (ns) of new devices: op=N,cmd=N,...");

static unsigned int vsb_batch_limit;
module_param_named(batch_limit, vsb_batch_limit, uint, 0644);
MODULE_PARM_DESC(batch_limit, "CVQ commands per batch (0: queue size)");

/*
 * Within what we offer, with what the device cannot work without, and
 * every feature with the ones it needs.
 */
static bool vsb_features_ok(u64 features)
{
	return !(features & ~VSB_FEATURES) && vsb_features_usable(features) &&
	       vsb_features_offer_unmet(features) < 0;
}

/*
 * A test hook: every change of translations counts as this many, so that
 * tests/vm/robustness/66-map-gen-wrap.t can show 2^32 changes in one.
 */
unsigned long vsb_map_gen_step = 1;
module_param_named(map_gen_step, vsb_map_gen_step, ulong, 0444);
MODULE_PARM_DESC(map_gen_step, "test hook: each map change counts this many");

static unsigned int vsb_kick_poll_us = 50;
module_param_named(kick_poll_us, vsb_kick_poll_us, uint, 0644);
MODULE_PARM_DESC(kick_poll_us, "how long a worker waits for a kick (0: not)");

static bool vsb_suppress_kicks = true;
module_param_named(suppress_kicks, vsb_suppress_kicks, bool, 0644);
MODULE_PARM_DESC(suppress_kicks,
		 "no CVQ kicks asked while the device serves or watches it");

static bool vsb_kick_hint_param = true;
module_param_named(kick_hint, vsb_kick_hint_param, bool, 0644);
MODULE_PARM_DESC(kick_hint,
		 "with suppress_kicks, the first CVQ kick asks for no more");

/*
 * Off by default: QEMU's shadow virtqueue and virtio_net spin on the used
 * ring for their CVQ, and only a driver asleep on its call eventfd gains.
 */
static bool vsb_lead_notify;
module_param_named(lead_notify, vsb_lead_notify, bool, 0644);
MODULE_PARM_DESC(lead_notify,
		 "batch mode completes a run's first command at once");

static int vsb_check_config(struct device *dev, const char *name,
			    const struct vdpa_dev_set_config *cfg)
{
	if (cfg->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MACADDR) &&
	    !is_valid_ether_addr(cfg->net.mac)) {
		dev_info(dev, "%s: MAC %pM is zero or multicast\n", name,
			 cfg->net.mac);
		return -EINVAL;
	}
	if (cfg->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MTU) &&
	    (cfg->net.mtu < VSB_MIN_MTU || cfg->net.mtu > VSB_MAX_MTU)) {
		dev_info(dev, "%s: MTU %u outside [%u, %u]\n", name,
			 cfg->net.mtu, VSB_MIN_MTU, VSB_MAX_MTU);
		return -EINVAL;
	}
	if (cfg->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MAX_VQP) &&
	    (!cfg->net.max_vq_pairs || cfg->net.max_vq_pairs > VSB_MAX_VQP)) {
		dev_info(dev, "%s: max_vqp %u outside [1, %u]\n", name,
			 cfg->net.max_vq_pairs, VSB_MAX_VQP);
		return -EINVAL;
	}
	if (cfg->mask & BIT_ULL(VDPA_ATTR_DEV_FEATURES) &&
	    !vsb_features_ok(cfg->device_features)) {
		int unmet = vsb_features_offer_unmet(cfg->device_features);

		dev_info(dev, "%s: device_features 0x%llx: offered 0x%llx\n",
			 name, cfg->device_features, VSB_FEATURES);
		if (unmet >= 0)
			dev_info(dev, "%s: feature %d lacks one it needs\n",
				 name, unmet);
		return -EINVAL;
	}
	return 0;
}

static int vsb_dev_add(struct vdpa_mgmt_dev *mdev, const char *name,
		       const struct vdpa_dev_set_config *cfg)
{
	struct vsb_dev_params params;
	struct vsb_dev *vsb;
	struct device *dev;
	int ret;

	ret = vsb_check_config(mdev->device, name, cfg);
	if (ret)
		return ret;

	vsb = vsb_alloc_device(struct vsb_dev, vdpa, mdev->device,
			       &vsb_config_ops, VSB_NGROUPS, VSB_NAS, name);
	if (IS_ERR(vsb))
		return PTR_ERR(vsb);

	vsb->supported_features = cfg->mask & BIT_ULL(VDPA_ATTR_DEV_FEATURES) ?
					  cfg->device_features :
					  VSB_FEATURES_DEFAULT;
	params.completion = READ_ONCE(vsb_completion_default);
	params.batch_limit = READ_ONCE(vsb_batch_limit);
	/* A whole model, not half of one a writer is replacing. */
	kernel_param_lock(THIS_MODULE);
	params.cost = vsb_cost_default;
	kernel_param_unlock(THIS_MODULE);
	params.kick_poll_ns =
		min(READ_ONCE(vsb_kick_poll_us), 10000U) * NSEC_PER_USEC;
	params.suppress_kicks = READ_ONCE(vsb_suppress_kicks);
	params.kick_hint = READ_ONCE(vsb_kick_hint_param);
	params.lead_notify = READ_ONCE(vsb_lead_notify);
	params.queue_size = READ_ONCE(vsb_queue_size);
	params.max_vqp = 1;
	if (cfg->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MAX_VQP))
		params.max_vqp = cfg->net.max_vq_pairs;
	ret = vsb_dev_init(vsb, cfg, &params);
	if (ret)
		goto init_err;

	/* virtio_vdpa maps through dma-direct: physical addresses. */
	dev = &vsb->vdpa.dev;
	dev->dma_mask = &dev->coherent_dma_mask;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		goto init_err;
	vsb_set_dma_dev(&vsb->vdpa, dev);
	vsb->vdpa.mdev = mdev;

	ret = _vdpa_register_device(&vsb->vdpa, vsb->nvqs);
	if (ret)
		goto register_err;
	vsb_genl_add_dev(vsb);
	return 0;

register_err:
init_err:
	/* The last reference frees through vsb_config_ops.free. */
	put_device(&vsb->vdpa.dev);
	return ret;
}

static void vsb_dev_del(struct vdpa_mgmt_dev *mdev, struct vdpa_device *dev)
{
	vsb_genl_del_dev(vdpa_to_vsb(dev));
	_vdpa_unregister_device(dev);
}

static int vsb_dev_set_attr(struct vdpa_mgmt_dev *mdev, struct vdpa_device *dev,
			    const struct vdpa_dev_set_config *cfg)
{
	int ret;

	if (cfg->mask & ~BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MACADDR))
		return -EOPNOTSUPP;
	ret = vsb_check_config(mdev->device, dev_name(&dev->dev), cfg);
	if (ret)
		return ret;
	if (cfg->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MACADDR))
		vsb_dev_set_mac(vdpa_to_vsb(dev), cfg->net.mac);
	return 0;
}

static const struct vdpa_mgmtdev_ops vsb_mgmtdev_ops = {
	.dev_add = vsb_dev_add,
	.dev_del = vsb_dev_del,
	.dev_set_attr = vsb_dev_set_attr,
};

static struct virtio_device_id vsb_id_table[] = {
	{ VIRTIO_ID_NET, VIRTIO_DEV_ANY_ID },
	{ 0 },
};

static struct vdpa_mgmt_dev vsb_mgmtdev = {
	.ops = &vsb_mgmtdev_ops,
	.id_table = vsb_id_table,
	.config_attr_mask = BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MACADDR) |
			    BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MTU) |
			    BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MAX_VQP) |
			    BIT_ULL(VDPA_ATTR_DEV_FEATURES),
	.max_supported_vqs = VSB_MAX_NVQS,
	.supported_features = VSB_FEATURES,
};

static int __init vsb_init(void)
{
	int ret;

	/* Unbound, and its cpumask in sysfs: see vsb_schedule(). */
	vsb_wq = alloc_workqueue("vdpa_sim_batch", WQ_UNBOUND | WQ_SYSFS, 0);
	if (!vsb_wq)
		return -ENOMEM;

	vsb_root = root_device_register(VSB_MGMTDEV_NAME);
	if (IS_ERR(vsb_root)) {
		ret = PTR_ERR(vsb_root);
		goto root_err;
	}

	vsb_mgmtdev.device = vsb_root;
	ret = vdpa_mgmtdev_register(&vsb_mgmtdev);
	if (ret)
		goto mgmtdev_err;

	ret = vsb_genl_register();
	if (ret)
		goto genl_err;
	return 0;

genl_err:
	vdpa_mgmtdev_unregister(&vsb_mgmtdev);
mgmtdev_err:
	root_device_unregister(vsb_root);
root_err:
	destroy_workqueue(vsb_wq);
	return ret;
}

static void __exit vsb_exit(void)
{
	/* No request can find a device once the family is gone. */
	vsb_genl_unregister();
	/* Deletes every device of ours, waiting for their users to go. */
	vdpa_mgmtdev_unregister(&vsb_mgmtdev);
	root_device_unregister(vsb_root);
	destroy_workqueue(vsb_wq);
}

module_init(vsb_init);
module_exit(vsb_exit);

MODULE_VERSION(DRV_VERSION);
MODULE_LICENSE(DRV_LICENSE);
MODULE_AUTHOR(DRV_AUTHOR);
MODULE_DESCRIPTION(DRV_DESC);
