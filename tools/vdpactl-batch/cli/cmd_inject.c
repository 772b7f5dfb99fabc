// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "inject": runs one fault-injection case on a device, or lists them.
 */
#include <stdio.h>
#include <string.h>

#include "cli/inject_print.h"
#include "cli/load_cli.h"
#include "cli/log.h"
#include "cli/opt.h"
#include "cli/vdpactl.h"
#include "inject/inject_run.h"
#include "load/load.h"

/* The case does not apply to the device (a feature it lacks). */
#define CMD_NOT_APPLICABLE 3
/*
 * The device did not do what the spec asks: a finding about the device,
 * told apart from CMD_FAIL, the tool failing to run the case.
 */
#define CMD_DEVIATION 4

static const struct usage inject_case_usage = {
	.synopsis =
		(const char *const[]){
			"inject CASE [ --dev NAME ] [ --timeout MS ] [ --rounds R ]",
			"                    [ --ring { split | packed } ] [ --no-recovery ]",
			"inject list", "inject help", NULL },
	.notes =
		"CASE: a case of \"inject list\" (a unique prefix will do).\n"
		"NAME: a vdpa device bound to vhost_vdpa (default: the only one).\n"
		"MS: longest wait for the device, 1..600000 (default 1000).\n"
		"R: operations of a stress-* case, 1..100000 (default 20).\n"
		"--ring: the CVQ's format. A case runs on the format its chains are\n"
		"  built for (packed-*: packed; most others: split); the stress-*,\n"
		"  config-*, features-* and mmap-* cases and the load after any case\n"
		"  run on either. A case built for the other format does not apply.\n"
		"Sets the device up like a load, injects, reports what the device\n"
		"did and a verdict, then resets it and runs a normal load of 30\n"
		"MAC_ADDR_SET (not with --no-recovery).\n"
		"Exit status: 0 the device did what the case expects, 1 the run\n"
		"failed, 2 wrong command line, 3 the case does not apply to this\n"
		"device (a feature it lacks), 4 the device deviated from it.\n",
};

static const struct usage inject_list_usage = {
	.synopsis = (const char *const[]){ "inject list", NULL },
	.notes = "Lists the cases, each with what it injects and expects.\n",
};

static void inject_usage(void)
{
	usage_print(&inject_case_usage, true, true);
}

/* No case, or several, go by @word: which, then the usage. */
static int case_not_found(const char *word)
{
	char list[1024];
	size_t used = 0, len = strlen(word);
	unsigned int i, n = 0;

	list[0] = '\0';
	for (i = 0; len && i < inject_case_count && used < sizeof(list); i++) {
		if (strncmp(word, inject_cases[i].name, len))
			continue;
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s", n++ ? ", " : "",
					 inject_cases[i].name);
	}
	if (n)
		return usage_error(&inject_case_usage, "inject",
				   "case \"%s\" is ambiguous: %s", word, list);
	return usage_error(&inject_case_usage, "inject",
			   "no case \"%s\"; try \"" PROG_NAME " inject list\"",
			   word);
}

static int inject_list(struct vdpactl *ctx)
{
	unsigned int i;

	open_json_object(&ctx->out, NULL);
	open_json_array(&ctx->out, "inject_cases");
	for (i = 0; i < inject_case_count; i++)
		inject_print_case(&ctx->out, &inject_cases[i]);
	close_json_array(&ctx->out);
	close_json_object(&ctx->out);
	if (ctx->json)
		fputc('\n', ctx->out.f);
	return CMD_OK;
}

/*
 * The device named, else the only one bound to vhost_vdpa: CMD_OK, or
 * the status of what was printed.
 */
static int locate(struct vdpactl *ctx, const char *dev,
		  struct vdpa_location *loc)
{
	char names[2][VDPA_NAME_LEN];
	unsigned int n = 0;

	if (dev && !vdpa_name_valid(dev))
		return usage_error(
			&inject_case_usage, "inject",
			"--dev \"%s\" is not a vdpa device name (1 to %d characters, no '/')",
			dev, VDPA_NAME_LEN - 1);
	if (!dev) {
		if (vdpa_list_vhost(&ctx->roots, names, 2, &n) || !n) {
			pr_err("inject: no vdpa device is bound to %s",
			       VDPA_VHOST_DRIVER);
			return CMD_FAIL;
		}
		if (n > 1)
			return usage_error(
				&inject_case_usage, "inject",
				"several devices are bound to %s; choose one with --dev",
				VDPA_VHOST_DRIVER);
		dev = names[0];
	}
	return vdpa_locate_vhost(&ctx->roots, dev, loc) ? CMD_FAIL : CMD_OK;
}

int cmd_inject(struct vdpactl *ctx, int argc, char **argv)
{
	struct inject_opts o = {
		.timeout_ms = INJECT_DEFAULT_TIMEOUT_MS,
		.rounds = INJECT_DEFAULT_ROUNDS,
		.verbose = ctx->verbose,
	};
	const struct opt opts[] = {
		{ .name = "dev", .kind = OPT_STRING, .value = &o.devname },
		{ .name = "timeout",
		  .kind = OPT_UINT,
		  .value = &o.timeout_ms,
		  .min = 1,
		  .max = LOAD_TIMEOUT_MS_MAX },
		{ .name = "rounds",
		  .kind = OPT_UINT,
		  .value = &o.rounds,
		  .min = 1,
		  .max = INJECT_ROUNDS_MAX },
		{ .name = "ring",
		  .kind = OPT_CHOICE,
		  .value = &o.ring,
		  .choices = load_ring_names,
		  .given = &o.ring_given },
		{ .name = "no-recovery",
		  .kind = OPT_FLAG,
		  .value = &o.no_recovery },
	};
	const struct inject_case *c;
	struct vdpa_location loc;
	struct inject_obs obs;
	int ret, status;

	if (usage_words_wrong(&inject_case_usage, "inject", argc, argv, 1, argc,
			      "CASE or list", &status))
		return status;
	if (!strcmp(argv[0], "list")) {
		if (usage_words_wrong(&inject_list_usage, "inject list",
				      argc - 1, argv + 1, 0, 0, "", &status))
			return status;
		return inject_list(ctx);
	}
	c = inject_case_find(argv[0]);
	if (!c)
		return case_not_found(argv[0]);
	if (!cmd_opts_ok(opt_parse("inject", opts, ARRAY_SIZE(opts),
				   OPT_STYLE_DASHES, argc - 1, argv + 1),
			 inject_usage, &status))
		return status;
	ret = locate(ctx, o.devname, &loc);
	if (ret)
		return ret;
	o.devname = loc.name;
	o.chardev = loc.chardev;
	if (inject_run(c, &o, &obs))
		return CMD_FAIL;
	inject_print_result(&ctx->out, loc.name, c, &obs);
	/* Not applicable and deviated are findings, reported in full. */
	ctx->keep_output = true;
	if (obs.skipped)
		return CMD_NOT_APPLICABLE;
	return obs.ok ? CMD_OK : CMD_DEVIATION;
}
