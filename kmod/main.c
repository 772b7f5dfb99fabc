// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch: a vDPA net device simulator with batched control
 * virtqueue completion.
 *
 * This is the module skeleton: it registers the parent device under which
 * the management device and its vDPA devices will live, so that the build,
 * load and unload plumbing of the test bed is exercised end to end.
 */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>

#define DRV_VERSION "0.1"
#define DRV_AUTHOR "vdpa-batch developers"
#define DRV_DESC "vDPA net device simulator with batched CVQ completion"
#define DRV_LICENSE "GPL"

#define VDPASIM_BATCH_NAME "vdpasim_batch"

static struct device *vdpasim_batch_root;

static int __init vdpasim_batch_init(void)
{
	vdpasim_batch_root = root_device_register(VDPASIM_BATCH_NAME);
	if (IS_ERR(vdpasim_batch_root))
		return PTR_ERR(vdpasim_batch_root);

	return 0;
}

static void __exit vdpasim_batch_exit(void)
{
	root_device_unregister(vdpasim_batch_root);
}

module_init(vdpasim_batch_init);
module_exit(vdpasim_batch_exit);

MODULE_VERSION(DRV_VERSION);
MODULE_LICENSE(DRV_LICENSE);
MODULE_AUTHOR(DRV_AUTHOR);
MODULE_DESCRIPTION(DRV_DESC);
