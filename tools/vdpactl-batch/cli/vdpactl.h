/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line: global options, the context every command gets, the
 * command tables and their dispatch.
 */
#ifndef VDPACTL_VDPACTL_H
#define VDPACTL_VDPACTL_H

#include <stdbool.h>

#include "cli/opt.h"
#include "cli/output.h"
#include "cli/sysfs_dev.h"
#include "cli/usage.h"
#include "netlink/vdpa_client.h"

#ifndef VDPACTL_VERSION
#define VDPACTL_VERSION "unknown"
#endif

/* Exit statuses. */
enum cmd_status {
	CMD_OK = 0,
	CMD_FAIL = 1, /* the operation failed */
	CMD_USAGE = 2, /* the command line is wrong */
};

/* A generic netlink family, opened on first use. */
struct family {
	struct vdpa_client client;
	bool open;
	int err; /* why it could not be opened: kept, not retried */
	char why[192]; /* said in words */
	bool told; /* why was printed */
};

struct vdpactl {
	struct output out;
	bool json;
	bool pretty;
	int verbose;
	struct sysfs_roots roots;
	struct family nl; /* vdpa */
	struct family vsb; /* vdpa_sim_batch's own */
	/* A status other than 0, but the JSON reports what was done. */
	bool keep_output;
};

struct cmd {
	const char *name;
	int (*fn)(struct vdpactl *ctx, int argc, char **argv);
};

/* Fills in the defaults: stdout, /sys, /dev. */
void vdpactl_init(struct vdpactl *ctx);

/* Runs a whole command line (without argv[0]); returns an exit status. */
int vdpactl_run(struct vdpactl *ctx, int argc, char **argv);

/* Releases what commands opened (the netlink socket). */
void vdpactl_fini(struct vdpactl *ctx);

/*
 * Runs the entry of @cmds that argv[0] names or abbreviates. "help" calls
 * @usage and succeeds; no word runs @fallback, or is a usage error when
 * @fallback is NULL.
 */
int cmd_dispatch(struct vdpactl *ctx, const char *level, const struct cmd *cmds,
		 int argc, char **argv, void (*usage)(void),
		 int (*fallback)(struct vdpactl *ctx, int argc, char **argv));

/*
 * What opt_parse()'s @result means for a command: true to go on;
 * otherwise *status is its exit status (CMD_OK after @usage printed the
 * help that was asked for, CMD_USAGE after the error opt_parse()
 * reported and @usage).
 */
bool cmd_opts_ok(enum opt_result result, void (*usage)(void), int *status);

/*
 * A wrong command line found after its options were parsed (values that
 * exclude each other, a device name that cannot be one): what was wrong,
 * one line naming the command (@fmt), then the command's usage, as
 * opt_parse()'s errors. Returns CMD_USAGE.
 */
int cmd_usage_error(void (*usage)(void), const char *fmt, ...) __printf(2, 3);

/* A "show [ NAME ]" command: one netlink GET or dump, printed as a section. */
struct show_cmd {
	const char *section; /* JSON section, e.g. "dev" */
	const char *what; /* for messages, e.g. "dev show" */
	const char *name; /* what the word names, e.g. "DEV" */
	const struct usage *usage;
	/* Asks for @name (NULL: all) and prints each object. */
	int (*get)(struct vdpactl *ctx, struct vdpa_client *nl,
		   const char *name);
};

int cmd_show(struct vdpactl *ctx, int argc, char **argv,
	     const struct show_cmd *show);

/*
 * Opens the vdpa netlink family on first use; prints why it failed (the
 * first time): not loaded, or not visible in this network namespace.
 */
int vdpactl_netlink(struct vdpactl *ctx, struct vdpa_client **client);

/* The same, quiet: for what a command can do without (ctx->nl.why). */
int vdpactl_netlink_quiet(struct vdpactl *ctx, struct vdpa_client **client);

/*
 * Opens vdpa_sim_batch's family on first use. Quiet: -ENOENT when the
 * module is not loaded, as on a stock-only machine (ctx->vsb.why).
 */
int vdpactl_vsb(struct vdpactl *ctx, struct vdpa_client **client);

/* The objects. */
int cmd_load(struct vdpactl *ctx, int argc, char **argv);
int cmd_compare(struct vdpactl *ctx, int argc, char **argv);
int cmd_dev(struct vdpactl *ctx, int argc, char **argv);
int cmd_mgmtdev(struct vdpactl *ctx, int argc, char **argv);
int cmd_stats(struct vdpactl *ctx, int argc, char **argv);
/* "stats" under another name (@what) and usage: "dev vstats show". */
int cmd_stats_as(struct vdpactl *ctx, int argc, char **argv, const char *what,
		 void (*usage_fn)(void));
int cmd_inject(struct vdpactl *ctx, int argc, char **argv);

#endif
