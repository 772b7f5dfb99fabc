// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Global options and command dispatch.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/log.h"
#include "cli/opt.h"
#include "cli/usage.h"
#include "cli/vdpactl.h"
#include "netlink/vsb_client.h"

static void usage(void)
{
	fprintf(stderr,
		"Usage: " PROG_NAME " [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"where  OBJECT := { load | compare | dev | mgmtdev | stats | inject }\n"
		"       OPTIONS := { -j[son] | -p[retty] | -v[erbose] | -V[ersion] | -h[elp] }\n"
		"-p implies -j; -v may be repeated (-vv traces every ioctl).\n"
		"  load     time a multi-command CVQ load on one device\n"
		"  compare  time loads on several devices, interleaved, side by side\n"
		"  dev      show, add and delete vDPA devices; vdpa_sim_batch's settings\n"
		"  mgmtdev  show vDPA management devices\n"
		"  stats    a device's vendor statistics, as vdpa dev vstats show\n"
		"  inject   run one fault-injection case on a device's CVQ\n"
		"Exit status: 0 success, 1 failed operation, 2 wrong command line.\n");
}

void vdpactl_init(struct vdpactl *ctx)
{
	*ctx = (struct vdpactl){
		.roots = { .sys = "/sys", .dev = "/dev", .proc = "/proc" },
	};
	output_init(&ctx->out, stdout, false, false);
	log_to_stderr();
}

void vdpactl_fini(struct vdpactl *ctx)
{
	if (ctx->nl.open)
		vdpa_client_close(&ctx->nl.client);
	if (ctx->vsb.open)
		vdpa_client_close(&ctx->vsb.client);
	ctx->nl = (struct family){ 0 };
	ctx->vsb = (struct family){ 0 };
	fflush(ctx->out.f);
}

/* Is this process in another network namespace than init's? */
static bool in_child_netns(const struct sysfs_roots *roots)
{
	char self[VDPA_PATH_LEN], init[VDPA_PATH_LEN];
	struct stat a, b;

	snprintf(self, sizeof(self), "%s/self/ns/net", roots->proc);
	snprintf(init, sizeof(init), "%s/1/ns/net", roots->proc);
	/* Unknown (init's is root's to see) counts as no. */
	if (stat(self, &a) || stat(init, &b))
		return false;
	return a.st_dev != b.st_dev || a.st_ino != b.st_ino;
}

/*
 * Why the kernel has no generic netlink family of @module's here. The
 * vdpa families are not namespace-aware (netnsok false): outside the
 * initial network namespace they are invisible, loaded or not.
 */
static void family_why(const struct sysfs_roots *roots, const char *family,
		       const char *module, char *why, size_t len)
{
	char dir[VDPA_PATH_LEN];

	snprintf(dir, sizeof(dir), "%s/module/%s", roots->sys, module);
	if (in_child_netns(roots))
		snprintf(
			why, len,
			"the \"%s\" netlink family is not visible in this network namespace (only in the initial one)",
			family);
	else if (access(dir, F_OK))
		snprintf(
			why, len,
			"no \"%s\" netlink family: the %s module is not loaded",
			family, module);
	else
		snprintf(why, len, "no \"%s\" netlink family", family);
}

/*
 * Opens a family once: a failure is kept, with why, so that it is
 * neither retried nor told twice.
 */
static int open_family(struct vdpactl *ctx, struct family *f,
		       int (*open_fn)(struct vdpa_client *c), const char *name,
		       const char *module)
{
	if (f->open || f->err)
		return f->err;
	f->err = open_fn(&f->client);
	if (f->err == -ENOENT)
		family_why(&ctx->roots, name, module, f->why, sizeof(f->why));
	else if (f->err)
		snprintf(f->why, sizeof(f->why),
			 "open the \"%s\" netlink family: %s", name,
			 strerror(-f->err));
	f->open = !f->err;
	return f->err;
}

int vdpactl_netlink_quiet(struct vdpactl *ctx, struct vdpa_client **client)
{
	int err = open_family(ctx, &ctx->nl, vdpa_client_open, VDPA_GENL_NAME,
			      "vdpa");

	*client = err ? NULL : &ctx->nl.client;
	return err;
}

int vdpactl_netlink(struct vdpactl *ctx, struct vdpa_client **client)
{
	int err = vdpactl_netlink_quiet(ctx, client);

	if (err && !ctx->nl.told) {
		pr_err("%s", ctx->nl.why);
		ctx->nl.told = true;
	}
	return err;
}

int vdpactl_vsb(struct vdpactl *ctx, struct vdpa_client **client)
{
	int err = open_family(ctx, &ctx->vsb, vsb_client_open, VSB_GENL_NAME,
			      "vdpa_sim_batch");

	*client = err ? NULL : &ctx->vsb.client;
	return err;
}

bool cmd_opts_ok(enum opt_result result, void (*usage_fn)(void), int *status)
{
	switch (result) {
	case OPT_OK:
		return true;
	case OPT_HELP:
		usage_fn();
		*status = CMD_OK;
		return false;
	case OPT_ERROR:
		/* What was wrong is said: then the command's usage. */
		usage_fn();
		break;
	}
	*status = CMD_USAGE;
	return false;
}

int cmd_usage_error(void (*usage_fn)(void), const char *fmt, ...)
{
	char what[DIAG_LINE_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pr_err("%s", what);
	usage_fn();
	return CMD_USAGE;
}

int cmd_show(struct vdpactl *ctx, int argc, char **argv,
	     const struct show_cmd *show)
{
	const char *name = argc ? argv[0] : NULL;
	struct vdpa_client *nl;
	int err, status;

	if (usage_words_wrong(show->usage, show->what, argc, argv, 0, 1,
			      show->name, &status))
		return status;
	if (vdpactl_netlink(ctx, &nl))
		return CMD_FAIL;
	print_section_open(&ctx->out, show->section);
	err = show->get(ctx, nl, name);
	print_section_close(&ctx->out);
	if (err) {
		vdpa_client_report(nl, err, "%s%s%s", show->what,
				   name ? " " : "", name ? name : "");
		return CMD_FAIL;
	}
	return CMD_OK;
}

#define CMDS_MAX 16

/*
 * An exact name, else the one entry @word abbreviates. Unlike iproute2,
 * which takes the first match, an ambiguous prefix ("dev s": show, set,
 * state) is an error listing the candidates: a script that abbreviates
 * must not change meaning when a command is added.
 */
static const struct cmd *find_cmd(const char *level, const struct cmd *cmds,
				  const char *word)
{
	const char *names[CMDS_MAX + 1];
	char candidates[256];
	size_t n = 0;
	int idx;

	while (cmds[n].name && n < CMDS_MAX) {
		names[n] = cmds[n].name;
		n++;
	}
	names[n] = NULL;
	idx = match_word(word, names);
	if (idx >= 0)
		return &cmds[idx];
	if (idx == -2) {
		match_candidates(word, names, "", candidates,
				 sizeof(candidates));
		pr_err("%s \"%s\" is ambiguous: %s",
		       level ? "command" : "object", word, candidates);
	} else {
		pr_err("%s \"%s\" not found; try \"" PROG_NAME "%s%s help\"",
		       level ? "command" : "object", word, level ? " " : "",
		       level ? level : "");
	}
	return NULL;
}

int cmd_dispatch(struct vdpactl *ctx, const char *level, const struct cmd *cmds,
		 int argc, char **argv, void (*usage_fn)(void),
		 int (*fallback)(struct vdpactl *ctx, int argc, char **argv))
{
	const struct cmd *c;

	if (argc == 0) {
		if (fallback)
			return fallback(ctx, 0, argv);
		usage_fn();
		return CMD_USAGE;
	}
	if (opt_is_help(argv[0])) {
		usage_fn();
		return CMD_OK;
	}
	c = find_cmd(level, cmds, argv[0]);
	if (!c)
		return CMD_USAGE;
	return c->fn(ctx, argc - 1, argv + 1);
}

static const struct cmd objects[] = {
	{ "load", cmd_load },	{ "compare", cmd_compare },
	{ "dev", cmd_dev },	{ "mgmtdev", cmd_mgmtdev },
	{ "stats", cmd_stats }, { "inject", cmd_inject },
	{ NULL, NULL },
};

enum global_result { GLOBAL_CONTINUE, GLOBAL_EXIT_OK, GLOBAL_EXIT_USAGE };

static enum global_result short_flags(struct vdpactl *ctx, const char *arg)
{
	for (; *arg; arg++) {
		switch (*arg) {
		case 'j':
			ctx->json = true;
			break;
		case 'p':
			ctx->pretty = true;
			break;
		case 'v':
			ctx->verbose++;
			break;
		case 'V':
			fprintf(ctx->out.f, "%s %s\n", PROG_NAME,
				VDPACTL_VERSION);
			return GLOBAL_EXIT_OK;
		case 'h':
			usage();
			return GLOBAL_EXIT_OK;
		default:
			pr_err("unknown option -%c; try \"" PROG_NAME " help\"",
			       *arg);
			return GLOBAL_EXIT_USAGE;
		}
	}
	return GLOBAL_CONTINUE;
}

static enum global_result long_flag(struct vdpactl *ctx, const char *arg)
{
	static const char *const names[] = { "json",	"pretty", "verbose",
					     "version", "help",	  NULL };
	static const char letters[] = "jpvVh";
	char letter[2] = { 0 };
	int idx = match_word(arg + 2, names);

	if (idx < 0) {
		pr_err("%s option %s; try \"" PROG_NAME " help\"",
		       idx == -2 ? "ambiguous" : "unknown", arg);
		return GLOBAL_EXIT_USAGE;
	}
	letter[0] = letters[idx];
	return short_flags(ctx, letter);
}

/* Consumes the options before OBJECT; returns how many words they took. */
static int parse_global(struct vdpactl *ctx, int argc, char **argv,
			enum global_result *result)
{
	int i;

	*result = GLOBAL_CONTINUE;
	for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--"))
			return i + 1;
		if (argv[i][1] == '-')
			*result = long_flag(ctx, argv[i]);
		else
			*result = short_flags(ctx, argv[i] + 1);
		if (*result != GLOBAL_CONTINUE)
			break;
	}
	return i;
}

/*
 * With -j, stdout gets one JSON document from a command that succeeded,
 * or from one whose report stands although its status is not 0 (inject's
 * findings, the rounds of a load that failed or was interrupted after
 * some: the report says so), and nothing from any other failure: a
 * script tells "failed" from "empty". The document is held until the
 * command ends.
 */
static int run_json(struct vdpactl *ctx, int argc, char **argv)
{
	FILE *out = ctx->out.f, *held;
	char *buf = NULL;
	size_t len = 0;
	int status;

	held = open_memstream(&buf, &len);
	if (!held) {
		pr_errno(errno, "hold the JSON output");
		return CMD_FAIL;
	}
	output_init(&ctx->out, held, true, ctx->pretty);
	status = cmd_dispatch(ctx, NULL, objects, argc, argv, usage, NULL);
	fclose(held);
	if (status == CMD_OK || ctx->keep_output)
		fwrite(buf, 1, len, out);
	free(buf);
	output_init(&ctx->out, out, true, ctx->pretty);
	return status;
}

int vdpactl_run(struct vdpactl *ctx, int argc, char **argv)
{
	enum global_result result;
	int used;

	/* As iproute2's vdpa: a bare command prints its usage. */
	if (argc == 0) {
		usage();
		return CMD_OK;
	}
	used = parse_global(ctx, argc, argv, &result);
	if (result == GLOBAL_EXIT_OK)
		return CMD_OK;
	if (result == GLOBAL_EXIT_USAGE)
		return CMD_USAGE;
	/* Like bpftool, -p means pretty JSON. */
	if (ctx->pretty)
		ctx->json = true;
	if (ctx->json)
		return run_json(ctx, argc - used, argv + used);
	output_init(&ctx->out, ctx->out.f, false, false);
	return cmd_dispatch(ctx, NULL, objects, argc - used, argv + used, usage,
			    NULL);
}
