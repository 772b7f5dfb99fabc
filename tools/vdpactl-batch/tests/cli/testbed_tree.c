// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A throw-away vdpa sysfs and /dev tree.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/cli/testbed_tree.h"

static void must(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		abort();
	}
}

static void make_dir(const char *fmt, const char *a, const char *b)
{
	char path[VDPA_PATH_LEN * 2];

	snprintf(path, sizeof(path), fmt, a, b);
	must(mkdir(path, 0755) == 0, path);
}

struct fake_tree *fake_tree_create(void)
{
	struct fake_tree *t = calloc(1, sizeof(*t));

	must(t != NULL, "calloc");
	snprintf(t->root, sizeof(t->root), "/tmp/vdpactl-test.XXXXXX");
	must(mkdtemp(t->root) != NULL, "mkdtemp");
	snprintf(t->sys, sizeof(t->sys), "%s/sys", t->root);
	snprintf(t->dev, sizeof(t->dev), "%s/dev", t->root);
	make_dir("%s%s", t->sys, "");
	make_dir("%s%s", t->dev, "");
	make_dir("%s%s", t->sys, "/bus");
	make_dir("%s%s", t->sys, "/bus/vdpa");
	make_dir("%s%s", t->sys, "/bus/vdpa/devices");
	make_dir("%s%s", t->sys, "/bus/vdpa/drivers");
	make_dir("%s%s", t->sys, "/bus/vdpa/drivers/vhost_vdpa");
	make_dir("%s%s", t->sys, "/bus/vdpa/drivers/virtio_vdpa");
	snprintf(t->proc, sizeof(t->proc), "%s/proc", t->root);
	make_dir("%s%s", t->proc, "");
	make_dir("%s%s", t->proc, "/self");
	make_dir("%s%s", t->proc, "/self/ns");
	make_dir("%s%s", t->proc, "/1");
	make_dir("%s%s", t->proc, "/1/ns");
	fake_tree_netns(t, false);
	t->roots = (struct sysfs_roots){ .sys = t->sys,
					 .dev = t->dev,
					 .proc = t->proc };
	return t;
}

void fake_tree_netns(struct fake_tree *t, bool child)
{
	char self[VDPA_PATH_LEN + 16], init[VDPA_PATH_LEN + 16];
	int fd;

	snprintf(self, sizeof(self), "%s/self/ns/net", t->proc);
	snprintf(init, sizeof(init), "%s/1/ns/net", t->proc);
	unlink(self);
	unlink(init);
	fd = open(self, O_CREAT | O_WRONLY, 0600);
	must(fd >= 0, self);
	close(fd);
	/* One file is one namespace; two files, two. */
	if (child) {
		fd = open(init, O_CREAT | O_WRONLY, 0600);
		must(fd >= 0, init);
		close(fd);
	} else {
		must(link(self, init) == 0, init);
	}
}

void fake_tree_add(struct fake_tree *t, const char *name, const char *driver,
		   int minor)
{
	char dir[VDPA_PATH_LEN * 2], path[VDPA_PATH_LEN * 3];
	char target[VDPA_PATH_LEN * 2];
	int fd;

	snprintf(dir, sizeof(dir), "%s/bus/vdpa/devices/%s", t->sys, name);
	must(mkdir(dir, 0755) == 0, dir);
	if (driver) {
		snprintf(path, sizeof(path), "%s/driver", dir);
		snprintf(target, sizeof(target), "../../bus/vdpa/drivers/%s",
			 driver);
		must(symlink(target, path) == 0, path);
	}
	if (minor < 0)
		return;
	snprintf(path, sizeof(path), "%s/vhost-vdpa-%d", dir, minor);
	must(mkdir(path, 0755) == 0, path);
	snprintf(path, sizeof(path), "%s/vhost-vdpa-%d", t->dev, minor);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	must(fd >= 0, path);
	close(fd);
}

void fake_tree_destroy(struct fake_tree *t)
{
	char cmd[VDPA_PATH_LEN + 16];

	/* Only ever a mkdtemp() directory of our own. */
	if (strncmp(t->root, "/tmp/vdpactl-test.", 18) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", t->root);
	}
	free(t);
}

int stderr_mute(void)
{
	int saved, devnull;

	if (getenv("VDPACTL_TEST_STDERR"))
		return -1;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	devnull = open("/dev/null", O_WRONLY);
	must(saved >= 0 && devnull >= 0, "/dev/null");
	dup2(devnull, STDERR_FILENO);
	close(devnull);
	return saved;
}

void stderr_restore(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}
