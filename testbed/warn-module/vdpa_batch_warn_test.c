// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-bed self-test: loading this module makes the guest kernel WARN, so
 * tests/harness can prove that testbed/vm.sh fails a run whose kernel log
 * holds a warning. Built for the VM only; never installed.
 */

#include <linux/bug.h>
#include <linux/module.h>

static int __init vdpa_batch_warn_test_init(void)
{
	WARN(1, "vdpa-batch test bed: deliberate warning\n");
	return 0;
}

static void __exit vdpa_batch_warn_test_exit(void)
{
}

module_init(vdpa_batch_warn_test_init);
module_exit(vdpa_batch_warn_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vdpa-batch test bed: WARN on load");
