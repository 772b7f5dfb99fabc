// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "dev fault": a vdpa_sim_batch device's CVQ fault rules, through the
 * module's own family: add one, show them, clear them.
 */
#include <stdio.h>

#include "cli/dev_usage.h"
#include "cli/log.h"
#include "cli/opt.h"
#include "cli/vdpactl.h"
#include "cli/vsb_cmds.h"
#include "cli/vsb_print.h"
#include "lib/cvq_cmd.h"
#include "netlink/vsb_client.h"

#define CVQ_CODE_MAX 255

static void fault_add_help(void)
{
	usage_print(&dev_fault_add_usage, true, true);
}

static int print_rules(const struct vsb_fault_rules *rules, void *data)
{
	struct output *o = data;

	print_handle_open(o, rules->name);
	print_vsb_fault_rules(o, rules);
	print_handle_close(o);
	return 0;
}

/*
 * The rules of @dev, or of every device with @dev NULL, under the section
 * "dev" as "dev cost" shows its model ({"dev": {"DEV": {...}}}).
 */
static int show_rules(struct vdpactl *ctx, const char *dev)
{
	struct vdpa_client *vsb;
	int err;

	if (dev && vsb_open_for(ctx, "dev fault", dev, &vsb))
		return CMD_FAIL;
	if (!dev && vdpactl_vsb(ctx, &vsb)) {
		pr_err("dev fault: %s", ctx->vsb.why);
		return CMD_FAIL;
	}
	print_section_open(&ctx->out, "dev");
	err = vsb_client_fault_get(vsb, dev, print_rules, &ctx->out);
	print_section_close(&ctx->out);
	if (err) {
		vdpa_client_report(vsb, err, "dev fault%s%s", dev ? " " : "",
				   dev ? dev : "");
		return CMD_FAIL;
	}
	return CMD_OK;
}

/* "dev fault DEV show": argv[0] is DEV. */
static int fault_show(struct vdpactl *ctx, int argc, char **argv)
{
	int status;

	if (usage_words_wrong(&dev_fault_show_usage, "dev fault show", argc - 1,
			      argv + 1, 0, 0, "DEV", &status))
		return status;
	return show_rules(ctx, argv[0]);
}

/* "dev fault DEV clear": argv[0] is DEV. */
static int fault_clear(struct vdpactl *ctx, int argc, char **argv)
{
	struct vdpa_client *vsb;
	int err, status;

	if (usage_words_wrong(&dev_fault_clear_usage, "dev fault clear",
			      argc - 1, argv + 1, 0, 0, "DEV", &status))
		return status;
	if (vsb_open_for(ctx, "dev fault", argv[0], &vsb))
		return CMD_FAIL;
	err = vsb_client_fault_clear(vsb, argv[0]);
	if (err) {
		vdpa_client_report(vsb, err, "dev fault %s clear", argv[0]);
		return CMD_FAIL;
	}
	return CMD_OK;
}

/* What "dev fault DEV add" was given, before it makes a rule of it. */
struct fault_args {
	bool action[VSB_FAULT_ACTION_MAX + 1]; /* given */
	bool flag[VSB_FAULT_ACTION_MAX + 1]; /* the actions without a value */
	uint64_t delay_ns;
	const char *class, *cmd;
	unsigned int nth, every, seed, times;
	uint32_t probability; /* ppm */
	bool persist;
	bool has_nth, has_every, has_seed, has_times, has_probability;
};

/* The options of "add": every action, then the selector and persist. */
static size_t fault_opts(struct fault_args *a, struct opt *opts)
{
	unsigned int i;
	size_t n = 0;

	for (i = VSB_FAULT_ACTION_NACK; i <= VSB_FAULT_ACTION_RESET; i++) {
		opts[n] = (struct opt){ .name = vsb_fault_action_name(i),
					.kind = OPT_FLAG,
					.value = &a->flag[i],
					.given = &a->action[i] };
		if (i == VSB_FAULT_ACTION_DELAY) {
			opts[n].kind = OPT_TIME;
			opts[n].value = &a->delay_ns;
			opts[n].max = VSB_COST_MAX_NS;
		}
		n++;
	}
	opts[n++] = (struct opt){ .name = "class",
				  .kind = OPT_STRING,
				  .value = &a->class };
	opts[n++] = (struct opt){ .name = "cmd",
				  .kind = OPT_STRING,
				  .value = &a->cmd };
	opts[n++] = (struct opt){ .name = "nth",
				  .kind = OPT_UINT,
				  .value = &a->nth,
				  .min = 1,
				  .max = UINT32_MAX,
				  .given = &a->has_nth };
	opts[n++] = (struct opt){ .name = "every",
				  .kind = OPT_UINT,
				  .value = &a->every,
				  .min = 1,
				  .max = UINT32_MAX,
				  .given = &a->has_every };
	opts[n++] = (struct opt){ .name = "probability",
				  .kind = OPT_PERCENT,
				  .value = &a->probability,
				  .given = &a->has_probability };
	opts[n++] = (struct opt){ .name = "seed",
				  .kind = OPT_UINT,
				  .value = &a->seed,
				  .max = UINT32_MAX,
				  .given = &a->has_seed };
	opts[n++] = (struct opt){ .name = "times",
				  .kind = OPT_UINT,
				  .value = &a->times,
				  .min = 1,
				  .max = UINT32_MAX,
				  .given = &a->has_times };
	opts[n++] = (struct opt){ .name = "persist",
				  .kind = OPT_FLAG,
				  .value = &a->persist };
	return n;
}

/* A class or command by number, 0..255; false if @word is none. */
static bool cvq_code(const char *word, uint8_t *code)
{
	uint64_t v;

	if (parse_u64(word, 10, 0, CVQ_CODE_MAX, &v))
		return false;
	*code = (uint8_t)v;
	return true;
}

/* "NAME, NAME, or a number 0..255": what names a command of @class. */
static void cmd_choices(uint8_t class, char *buf, size_t len)
{
	size_t used = 0;
	const char *name;
	unsigned int cmd;

	buf[0] = '\0';
	for (cmd = 0; cmd <= CVQ_CODE_MAX && used < len; cmd++) {
		name = cvq_cmd_name(class, (uint8_t)cmd);
		if (name)
			used += (size_t)snprintf(buf + used, len - used, "%s, ",
						 name);
	}
	if (used < len)
		snprintf(buf + used, len - used, "or a number 0..255");
}

/* The class and command @a names into @rule; false after a usage error. */
static bool fault_selector(const struct fault_args *a,
			   struct vsb_fault_rule *rule, int *status)
{
	char class_name[CVQ_CODE_LEN], choices[256];

	if (a->cmd && !a->class) {
		*status = usage_error(
			&dev_fault_add_usage, "dev fault add",
			"cmd %s needs class (a command is named within its class)",
			a->cmd);
		return false;
	}
	if (!a->class)
		return true;
	if (cvq_class_by_name(a->class, &rule->class) &&
	    !cvq_code(a->class, &rule->class)) {
		*status = usage_error(
			&dev_fault_add_usage, "dev fault add",
			"class \"%s\" is not a class name or a number 0..255",
			a->class);
		return false;
	}
	vsb_fault_rule_give(rule, VSB_FRULE_CLASS);
	if (!a->cmd)
		return true;
	if (cvq_cmd_by_name(rule->class, a->cmd, &rule->cmd) &&
	    !cvq_code(a->cmd, &rule->cmd)) {
		cvq_class_format(rule->class, class_name, sizeof(class_name));
		cmd_choices(rule->class, choices, sizeof(choices));
		*status = usage_error(
			&dev_fault_add_usage, "dev fault add",
			"cmd \"%s\" is not a command of class %s (%s)", a->cmd,
			class_name, choices);
		return false;
	}
	vsb_fault_rule_give(rule, VSB_FRULE_CMD);
	return true;
}

/* The one action @a gives into @rule; false after a usage error. */
static bool fault_action(const struct fault_args *a,
			 struct vsb_fault_rule *rule, int *status)
{
	unsigned int i, first = 0;

	for (i = VSB_FAULT_ACTION_NACK; i <= VSB_FAULT_ACTION_RESET; i++) {
		if (!a->action[i])
			continue;
		if (first) {
			*status = usage_error(&dev_fault_add_usage,
					      "dev fault add",
					      "%s and %s: one action per rule",
					      vsb_fault_action_name(first),
					      vsb_fault_action_name(i));
			return false;
		}
		first = i;
	}
	if (!first) {
		*status = usage_error(
			&dev_fault_add_usage, "dev fault add",
			"ACTION expected: nack, stall, delay TIME, reorder, silent or reset");
		return false;
	}
	rule->action = (uint8_t)first;
	vsb_fault_rule_give(rule, VSB_FRULE_ACTION);
	if (first == VSB_FAULT_ACTION_DELAY) {
		rule->delay_ns = (uint32_t)a->delay_ns;
		vsb_fault_rule_give(rule, VSB_FRULE_DELAY_NS);
	}
	return true;
}

/* The counts and the flag @a gives into @rule. */
static void fault_limits(const struct fault_args *a,
			 struct vsb_fault_rule *rule)
{
	const struct {
		bool given;
		unsigned int attr;
		uint32_t value;
		uint32_t *field;
	} limits[] = {
		{ a->has_nth, VSB_FRULE_NTH, a->nth, &rule->nth },
		{ a->has_every, VSB_FRULE_INTERVAL, a->every, &rule->interval },
		{ a->has_probability, VSB_FRULE_PROBABILITY, a->probability,
		  &rule->probability },
		{ a->has_seed, VSB_FRULE_SEED, a->seed, &rule->seed },
		{ a->has_times, VSB_FRULE_TIMES, a->times, &rule->times },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(limits); i++) {
		if (!limits[i].given)
			continue;
		*limits[i].field = limits[i].value;
		vsb_fault_rule_give(rule, limits[i].attr);
	}
	if (a->persist)
		vsb_fault_rule_give(rule, VSB_FRULE_PERSIST);
}

/* "dev fault DEV add ACTION ...": argv[0] is DEV. */
static int fault_add(struct vdpactl *ctx, int argc, char **argv)
{
	struct fault_args a = { 0 };
	struct opt opts[OPT_MAX];
	size_t n = fault_opts(&a, opts);
	struct vsb_fault_rule rule = { 0 };
	const char *dev = argv[0];
	struct vdpa_client *vsb;
	bool replied;
	int err, status;

	if (!cmd_opts_ok(opt_parse("dev fault add", opts, n, OPT_STYLE_KEYWORDS,
				   argc - 1, argv + 1),
			 fault_add_help, &status))
		return status;
	if (!fault_action(&a, &rule, &status) ||
	    !fault_selector(&a, &rule, &status))
		return status;
	fault_limits(&a, &rule);
	if (vsb_open_for(ctx, "dev fault", dev, &vsb))
		return CMD_FAIL;
	print_section_open(&ctx->out, "dev");
	err = vsb_client_fault_add(vsb, dev, &rule, print_rules, &ctx->out,
				   &replied);
	/* A module that only acks the change: ask for the rules. */
	if (!err && !replied)
		err = vsb_client_fault_get(vsb, dev, print_rules, &ctx->out);
	print_section_close(&ctx->out);
	if (err) {
		vdpa_client_report(vsb, err, "dev fault %s add", dev);
		return CMD_FAIL;
	}
	return CMD_OK;
}

int cmd_dev_fault(struct vdpactl *ctx, int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "add", fault_add },
		{ "show", fault_show },
		{ "clear", fault_clear },
		{ NULL, NULL },
	};
	char *dev;

	if (argc && opt_is_help(argv[0])) {
		dev_fault_usage();
		return CMD_OK;
	}
	if (argc <= 1)
		return show_rules(ctx, argc ? argv[0] : NULL);
	/*
	 * "dev fault DEV COMMAND ...": the dispatcher takes COMMAND (and its
	 * abbreviations, and "help"), then the command gets DEV first.
	 */
	dev = argv[0];
	argv[0] = argv[1];
	argv[1] = dev;
	return cmd_dispatch(ctx, "dev fault", cmds, argc, argv, dev_fault_usage,
			    NULL);
}
