// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command option parsing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/log.h"
#include "cli/opt.h"
#include "lib/strparse.h"
#include "lib/util.h"

/*
 * Like match_word(), with @ids[i] the entry names[i] stands for, so that
 * an alias and its name abbreviated alike are not ambiguous.
 */
static int match_word_ids(const char *word, const char *const *names,
			  const int *ids)
{
	size_t len = strlen(word);
	int i, found = -1;

	if (!len)
		return -1;
	for (i = 0; names[i]; i++)
		if (!strcmp(word, names[i]))
			return ids[i];
	for (i = 0; names[i]; i++) {
		if (strncmp(word, names[i], len) || found == ids[i])
			continue;
		if (found != -1)
			return -2;
		found = ids[i];
	}
	return found;
}

int match_word(const char *word, const char *const *names)
{
	int ids[OPT_MAX * 2 + 1];
	int i;

	for (i = 0; names[i] && i < OPT_MAX * 2; i++)
		ids[i] = i;
	return match_word_ids(word, names, ids);
}

void match_candidates(const char *word, const char *const *names,
		      const char *prefix, char *buf, size_t len)
{
	size_t used = 0, wlen = strlen(word);
	int i;

	buf[0] = '\0';
	for (i = 0; names[i] && used < len; i++)
		if (!strncmp(word, names[i], wlen))
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s%s", used ? ", " : "",
						 prefix, names[i]);
}

static const struct opt *find_opt(const char *cmd, const struct opt *opts,
				  size_t n_opts, const char *name,
				  const char *shown, enum opt_style style)
{
	const char *names[OPT_MAX * 2 + 1], *shown_names[OPT_MAX + 1];
	int ids[OPT_MAX * 2];
	char candidates[256];
	size_t i, n = 0;
	int idx;

	for (i = 0; i < n_opts; i++) {
		shown_names[i] = opts[i].name;
		ids[n] = (int)i;
		names[n++] = opts[i].name;
		if (opts[i].alias) {
			ids[n] = (int)i;
			names[n++] = opts[i].alias;
		}
	}
	names[n] = NULL;
	shown_names[n_opts] = NULL;
	idx = match_word_ids(name, names, ids);
	if (idx >= 0)
		return &opts[idx];
	if (idx == -1) {
		pr_err("%s: unknown option \"%s\"", cmd, shown);
		return NULL;
	}
	match_candidates(name, shown_names,
			 style == OPT_STYLE_DASHES ? "--" : "", candidates,
			 sizeof(candidates));
	pr_err("%s: ambiguous option \"%s\": %s", cmd, shown, candidates);
	return NULL;
}

static void join_choices(const char *const *choices, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; choices[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", choices[i]);
}

static bool store_number(const char *cmd, const char *shown,
			 const struct opt *o, const char *arg)
{
	bool hex = o->kind == OPT_HEX64;
	uint64_t v;
	int err = parse_u64(arg, hex ? 16 : 10, o->min, o->max, &v);

	if (err == -EINVAL) {
		pr_err("%s: %s \"%s\" is not a %snumber", cmd, shown, arg,
		       hex ? "hex " : "");
		return false;
	}
	if (err == -ERANGE) {
		pr_err("%s: %s %s is out of range (%llu..%llu)", cmd, shown,
		       arg, (unsigned long long)o->min,
		       (unsigned long long)o->max);
		return false;
	}
	if (o->power_of_2 && !is_power_of_2(v)) {
		pr_err("%s: %s %s is not a power of 2", cmd, shown, arg);
		return false;
	}
	if (o->kind == OPT_HEX64)
		*(uint64_t *)o->value = v;
	else
		*(unsigned int *)o->value = (unsigned int)v;
	return true;
}

static bool store_time(const char *cmd, const char *shown, const struct opt *o,
		       const char *arg)
{
	char limit[TIME_STR_LEN];
	size_t number_len;
	uint64_t ns = 0;

	switch (parse_time_ns(arg, &ns)) {
	case TIME_PARSE_OK:
		break;
	case TIME_PARSE_NOT_A_NUMBER:
		pr_err("%s: %s \"%s\" is not a time (a number and a unit: ns, us, ms or s)",
		       cmd, shown, arg);
		return false;
	case TIME_PARSE_NEGATIVE:
		pr_err("%s: %s %s is negative", cmd, shown, arg);
		return false;
	case TIME_PARSE_NO_UNIT:
		pr_err("%s: %s %s has no unit (ns, us, ms or s, as in %sus)",
		       cmd, shown, arg, arg);
		return false;
	case TIME_PARSE_BAD_UNIT:
		number_len = strspn(arg, "0123456789.");
		pr_err("%s: %s %s: unknown unit \"%s\" (ns, us, ms or s)", cmd,
		       shown, arg, arg + number_len);
		return false;
	case TIME_PARSE_FRACTION:
		pr_err("%s: %s %s is not a whole number of nanoseconds", cmd,
		       shown, arg);
		return false;
	case TIME_PARSE_TOO_LARGE:
		ns = UINT64_MAX;
		break;
	}
	if (ns > o->max) {
		format_time_ns(o->max, limit, sizeof(limit));
		pr_err("%s: %s %s is above the maximum, %s", cmd, shown, arg,
		       limit);
		return false;
	}
	if (ns < o->min) {
		format_time_ns(o->min, limit, sizeof(limit));
		pr_err("%s: %s %s is below the minimum, %s", cmd, shown, arg,
		       limit);
		return false;
	}
	*(uint64_t *)o->value = ns;
	return true;
}

static bool store_percent(const char *cmd, const char *shown,
			  const struct opt *o, const char *arg)
{
	switch (parse_percent_ppm(arg, o->value)) {
	case PERCENT_PARSE_OK:
		return true;
	case PERCENT_PARSE_NOT_A_NUMBER:
		pr_err("%s: %s \"%s\" is not a percentage (a decimal number, as 12.5 or 12.5%%)",
		       cmd, shown, arg);
		break;
	case PERCENT_PARSE_NEGATIVE:
		pr_err("%s: %s %s is negative", cmd, shown, arg);
		break;
	case PERCENT_PARSE_ZERO:
		pr_err("%s: %s %s is 0: it would never happen (0.0001%% is the least)",
		       cmd, shown, arg);
		break;
	case PERCENT_PARSE_ABOVE_100:
		pr_err("%s: %s %s is above 100%%", cmd, shown, arg);
		break;
	case PERCENT_PARSE_TOO_PRECISE:
		pr_err("%s: %s %s has more than %u decimals (it is counted in parts per million)",
		       cmd, shown, arg, PERCENT_DECIMALS_MAX);
		break;
	}
	return false;
}

static bool store_value(const char *cmd, const char *shown, const struct opt *o,
			const char *arg)
{
	char list[128];
	int idx;

	switch (o->kind) {
	case OPT_UINT:
	case OPT_HEX64:
		return store_number(cmd, shown, o, arg);
	case OPT_TIME:
		return store_time(cmd, shown, o, arg);
	case OPT_PERCENT:
		return store_percent(cmd, shown, o, arg);
	case OPT_CHOICE:
		idx = match_word(arg, o->choices);
		if (idx == -2) {
			match_candidates(arg, o->choices, "", list,
					 sizeof(list));
			pr_err("%s: %s \"%s\" is ambiguous: %s", cmd, shown,
			       arg, list);
			return false;
		}
		if (idx < 0) {
			join_choices(o->choices, list, sizeof(list));
			pr_err("%s: %s \"%s\" is not one of %s", cmd, shown,
			       arg, list);
			return false;
		}
		*(int *)o->value = idx;
		return true;
	case OPT_STRING:
		*(const char **)o->value = arg;
		return true;
	case OPT_STRINGS:
		if (*o->count >= o->capacity) {
			pr_err("%s: %s given more than %u times", cmd, shown,
			       o->capacity);
			return false;
		}
		((const char **)o->value)[(*o->count)++] = arg;
		return true;
	case OPT_MAC:
		if (parse_mac(arg, o->value)) {
			pr_err("%s: %s \"%s\" is not a MAC address", cmd, shown,
			       arg);
			return false;
		}
		return true;
	case OPT_FLAG:
		break;
	}
	return false;
}

bool opt_is_help(const char *arg)
{
	return !strcmp(arg, "help") || !strcmp(arg, "-h") ||
	       !strcmp(arg, "--help");
}

/* Splits "--name=value"; returns the name part in @name. */
static const char *split_option(const char *arg, enum opt_style style,
				char *name, size_t len)
{
	const char *eq;

	if (style == OPT_STYLE_KEYWORDS) {
		snprintf(name, len, "%s", arg);
		return NULL;
	}
	arg += 2;
	eq = strchr(arg, '=');
	if (!eq) {
		snprintf(name, len, "%s", arg);
		return NULL;
	}
	snprintf(name, len, "%.*s", (int)(eq - arg), arg);
	return eq + 1;
}

static bool check_required(const char *cmd, const struct opt *opts,
			   size_t n_opts, const bool *seen,
			   enum opt_style style)
{
	size_t i;

	for (i = 0; i < n_opts; i++) {
		if (opts[i].required && !seen[i]) {
			pr_err("%s: %s%s is required", cmd,
			       style == OPT_STYLE_DASHES ? "--" : "",
			       opts[i].name);
			return false;
		}
	}
	return true;
}

enum opt_result opt_parse(const char *cmd, const struct opt *opts,
			  size_t n_opts, enum opt_style style, int argc,
			  char **argv)
{
	bool seen[OPT_MAX] = { false };
	char name[64], shown[80];
	const struct opt *o;
	const char *inline_value;
	int i;

	if (n_opts > OPT_MAX) {
		pr_err("%s: too many options in its table", cmd);
		return OPT_ERROR;
	}

	for (i = 0; i < argc; i++) {
		if (opt_is_help(argv[i]))
			return OPT_HELP;
		if (style == OPT_STYLE_DASHES && strncmp(argv[i], "--", 2)) {
			pr_err("%s: unexpected argument \"%s\"", cmd, argv[i]);
			return OPT_ERROR;
		}
		inline_value = split_option(argv[i], style, name, sizeof(name));
		o = find_opt(cmd, opts, n_opts, name, argv[i], style);
		if (!o)
			return OPT_ERROR;
		snprintf(shown, sizeof(shown), "%s%s",
			 style == OPT_STYLE_DASHES ? "--" : "", o->name);
		if (seen[o - opts] && o->kind != OPT_STRINGS) {
			pr_err("%s: %s given twice", cmd, shown);
			return OPT_ERROR;
		}
		seen[o - opts] = true;
		if (o->given)
			*o->given = true;
		if (o->kind == OPT_FLAG) {
			if (inline_value) {
				pr_err("%s: %s takes no value", cmd, shown);
				return OPT_ERROR;
			}
			*(bool *)o->value = true;
			continue;
		}
		if (!inline_value) {
			if (i + 1 >= argc) {
				pr_err("%s: %s needs a value", cmd, shown);
				return OPT_ERROR;
			}
			inline_value = argv[++i];
		}
		if (!store_value(cmd, shown, o, inline_value))
			return OPT_ERROR;
	}
	return check_required(cmd, opts, n_opts, seen, style) ? OPT_OK :
								OPT_ERROR;
}
