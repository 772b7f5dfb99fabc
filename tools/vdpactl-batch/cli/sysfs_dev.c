// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdpa device discovery through sysfs.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/log.h"
#include "cli/sysfs_dev.h"

#define VHOST_CHILD_PREFIX "vhost-vdpa-"

bool vdpa_name_valid(const char *name)
{
	return name[0] && strlen(name) < VDPA_NAME_LEN && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

static void read_driver(const char *dev_dir, struct vdpa_location *loc)
{
	char link[VDPA_PATH_LEN + 8], target[PATH_MAX];
	const char *base;
	ssize_t len;

	loc->driver[0] = '\0';
	snprintf(link, sizeof(link), "%s/driver", dev_dir);
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0)
		return;
	target[len] = '\0';
	base = strrchr(target, '/');
	str_copy(loc->driver, sizeof(loc->driver), base ? base + 1 : target);
}

static void find_vhost_child(const struct sysfs_roots *roots,
			     const char *dev_dir, struct vdpa_location *loc)
{
	struct dirent *entry;
	DIR *dir;

	loc->chardev[0] = '\0';
	dir = opendir(dev_dir);
	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		if (!strncmp(entry->d_name, VHOST_CHILD_PREFIX,
			     strlen(VHOST_CHILD_PREFIX))) {
			int len = snprintf(loc->chardev, sizeof(loc->chardev),
					   "%s/%s", roots->dev, entry->d_name);

			if (len >= (int)sizeof(loc->chardev))
				loc->chardev[0] = '\0';
			break;
		}
	}
	closedir(dir);
}

int vdpa_locate(const struct sysfs_roots *roots, const char *name,
		struct vdpa_location *loc)
{
	char dev_dir[VDPA_PATH_LEN];

	if (!vdpa_name_valid(name))
		return -EINVAL;
	*loc = (struct vdpa_location){ 0 };
	snprintf(loc->name, sizeof(loc->name), "%s", name);
	snprintf(dev_dir, sizeof(dev_dir), "%s/bus/vdpa/devices/%s", roots->sys,
		 name);
	if (access(dev_dir, F_OK))
		return -ENODEV;
	read_driver(dev_dir, loc);
	if (!strcmp(loc->driver, VDPA_VHOST_DRIVER))
		find_vhost_child(roots, dev_dir, loc);
	return 0;
}

int vdpa_locate_vhost(const struct sysfs_roots *roots, const char *name,
		      struct vdpa_location *loc)
{
	int err = vdpa_locate(roots, name, loc);

	if (err == -EINVAL) {
		pr_err("\"%s\" is not a valid vdpa device name", name);
		return err;
	}
	if (err == -ENODEV) {
		pr_err("vdpa device %s does not exist", name);
		return err;
	}
	if (!loc->driver[0]) {
		pr_err("vdpa device %s is not bound to any driver; bind it to %s",
		       name, VDPA_VHOST_DRIVER);
		return -ENXIO;
	}
	if (strcmp(loc->driver, VDPA_VHOST_DRIVER)) {
		/* As with virtio_vdpa loaded: a new device binds to it. */
		pr_err("vdpa device %s is bound to %s, not %s; move it: echo %s > %s/bus/vdpa/drivers/%s/unbind; echo %s > %s/bus/vdpa/drivers/%s/bind",
		       name, loc->driver, VDPA_VHOST_DRIVER, name, roots->sys,
		       loc->driver, name, roots->sys, VDPA_VHOST_DRIVER);
		return -ENXIO;
	}
	if (!loc->chardev[0]) {
		pr_err("vdpa device %s has no vhost-vdpa character device in sysfs",
		       name);
		return -ENODEV;
	}
	if (access(loc->chardev, F_OK)) {
		pr_errno(errno, "vdpa device %s: %s", name, loc->chardev);
		return -ENODEV;
	}
	return 0;
}

/* Natural order: compare digit runs by value, so vdpa2 < vdpa10. */
static int natural_cmp(const void *pa, const void *pb)
{
	const char *a = pa, *b = pb;

	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *a_end, *b_end;
			unsigned long x = strtoul(a, &a_end, 10);
			unsigned long y = strtoul(b, &b_end, 10);

			if (x != y)
				return x < y ? -1 : 1;
			a = a_end;
			b = b_end;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* The index of the last of @names in natural order. */
static int last_in_order(char (*names)[VDPA_NAME_LEN], unsigned int n)
{
	unsigned int i, last = 0;

	for (i = 1; i < n; i++)
		if (natural_cmp(names[i], names[last]) > 0)
			last = i;
	return (int)last;
}

int vdpa_list_vhost_counted(const struct sysfs_roots *roots,
			    char (*names)[VDPA_NAME_LEN], unsigned int max,
			    unsigned int *n, unsigned int *found)
{
	char bus_dir[VDPA_PATH_LEN];
	struct vdpa_location loc;
	struct dirent *entry;
	unsigned int total = 0;
	DIR *dir;
	int last;

	*n = 0;
	if (found)
		*found = 0;
	snprintf(bus_dir, sizeof(bus_dir), "%s/bus/vdpa/devices", roots->sys);
	dir = opendir(bus_dir);
	if (!dir)
		return -ENODEV;
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] == '.' ||
		    strlen(entry->d_name) >= VDPA_NAME_LEN)
			continue;
		if (vdpa_locate(roots, entry->d_name, &loc) || !loc.chardev[0])
			continue;
		total++;
		if (*n < max) {
			str_copy(names[(*n)++], VDPA_NAME_LEN, entry->d_name);
			continue;
		}
		/* Full: keep the first @max in natural order. */
		last = max ? last_in_order(names, *n) : -1;
		if (last >= 0 && natural_cmp(entry->d_name, names[last]) < 0)
			str_copy(names[last], VDPA_NAME_LEN, entry->d_name);
	}
	closedir(dir);
	qsort(names, *n, VDPA_NAME_LEN, natural_cmp);
	if (found)
		*found = total;
	return 0;
}

int vdpa_list_vhost(const struct sysfs_roots *roots,
		    char (*names)[VDPA_NAME_LEN], unsigned int max,
		    unsigned int *n)
{
	return vdpa_list_vhost_counted(roots, names, max, n, NULL);
}
