// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device discovery against a fake sysfs and /dev tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/sysfs_dev.h"
#include "tests/cli/testbed_tree.h"

static int setup(void **state)
{
	struct fake_tree *t = fake_tree_create();

	/* The refusals print their reasons; the tests check the codes. */
	t->saved_stderr = stderr_mute();
	fake_tree_add(t, "vdpa0", "vhost_vdpa", 0);
	fake_tree_add(t, "vdpa10", "vhost_vdpa", 2);
	fake_tree_add(t, "vdpa2", "vhost_vdpa", 1);
	fake_tree_add(t, "vdpa3", "virtio_vdpa", -1);
	fake_tree_add(t, "vdpa4", NULL, -1);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct fake_tree *t = *state;

	stderr_restore(t->saved_stderr);
	fake_tree_destroy(t);
	return 0;
}

static void finds_the_vhost_chardev(void **state)
{
	struct fake_tree *t = *state;
	struct vdpa_location loc;
	char want[VDPA_PATH_LEN];

	assert_int_equal(vdpa_locate_vhost(&t->roots, "vdpa2", &loc), 0);
	assert_string_equal(loc.driver, "vhost_vdpa");
	snprintf(want, sizeof(want), "%s/vhost-vdpa-1", t->roots.dev);
	assert_string_equal(loc.chardev, want);
}

static void other_driver_unbound_or_missing(void **state)
{
	struct fake_tree *t = *state;
	struct vdpa_location loc;

	assert_int_equal(vdpa_locate(&t->roots, "vdpa3", &loc), 0);
	assert_string_equal(loc.driver, "virtio_vdpa");
	assert_string_equal(loc.chardev, "");
	assert_int_equal(vdpa_locate_vhost(&t->roots, "vdpa3", &loc), -ENXIO);

	assert_int_equal(vdpa_locate(&t->roots, "vdpa4", &loc), 0);
	assert_string_equal(loc.driver, "");
	assert_int_equal(vdpa_locate_vhost(&t->roots, "vdpa4", &loc), -ENXIO);

	assert_int_equal(vdpa_locate(&t->roots, "vdpa9", &loc), -ENODEV);
	assert_int_equal(vdpa_locate_vhost(&t->roots, "vdpa9", &loc), -ENODEV);
}

static void names_cannot_escape_sysfs(void **state)
{
	struct fake_tree *t = *state;
	struct vdpa_location loc;

	assert_int_equal(vdpa_locate(&t->roots, "../vdpa0", &loc), -EINVAL);
	assert_int_equal(vdpa_locate(&t->roots, "..", &loc), -EINVAL);
	assert_int_equal(vdpa_locate(&t->roots, "", &loc), -EINVAL);
	assert_int_equal(vdpa_locate_vhost(&t->roots, "a/b", &loc), -EINVAL);
}

static void lists_vhost_devices_in_natural_order(void **state)
{
	struct fake_tree *t = *state;
	char names[8][VDPA_NAME_LEN];
	unsigned int n;

	assert_int_equal(vdpa_list_vhost(&t->roots, names, 8, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "vdpa0");
	assert_string_equal(names[1], "vdpa2");
	assert_string_equal(names[2], "vdpa10");
}

static void missing_chardev_node(void **state)
{
	struct fake_tree *t = *state;
	struct vdpa_location loc;
	char path[VDPA_PATH_LEN];

	snprintf(path, sizeof(path), "%s/vhost-vdpa-2", t->roots.dev);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(vdpa_locate_vhost(&t->roots, "vdpa10", &loc), -ENODEV);
}

static void no_vdpa_bus(void **state)
{
	const struct sysfs_roots nowhere = { .sys = "/nonexistent",
					     .dev = "/nonexistent" };
	char names[2][VDPA_NAME_LEN];
	unsigned int n = 5;

	(void)state;
	assert_int_equal(vdpa_list_vhost(&nowhere, names, 2, &n), -ENODEV);
	assert_int_equal(n, 0);
}

/*
 * More devices than the caller takes: the first ones in natural order,
 * not readdir's, and the count of all, so that compare can warn.
 */
static void keeps_the_first_in_order_and_counts_all(void **state)
{
	struct fake_tree *t = fake_tree_create();
	char names[16][VDPA_NAME_LEN], name[16];
	unsigned int i, n, found;

	(void)state;
	for (i = 17; i-- > 0;) {
		snprintf(name, sizeof(name), "vdpa%u", i);
		fake_tree_add(t, name, "vhost_vdpa", (int)i);
	}
	fake_tree_add(t, "vdpa90", "virtio_vdpa", -1);
	assert_int_equal(
		vdpa_list_vhost_counted(&t->roots, names, 16, &n, &found), 0);
	assert_int_equal(n, 16);
	assert_int_equal(found, 17);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "vdpa%u", i);
		assert_string_equal(names[i], name);
	}
	fake_tree_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_the_vhost_chardev),
		cmocka_unit_test(other_driver_unbound_or_missing),
		cmocka_unit_test(names_cannot_escape_sysfs),
		cmocka_unit_test(lists_vhost_devices_in_natural_order),
		cmocka_unit_test(missing_chardev_node),
		cmocka_unit_test(no_vdpa_bus),
		cmocka_unit_test(keeps_the_first_in_order_and_counts_all),
	};

	return cmocka_run_group_tests_name("sysfs", tests, setup, teardown);
}
