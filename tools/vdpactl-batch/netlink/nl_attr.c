// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Attribute walker and table parser shared by the netlink clients.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <linux/genetlink.h>

#include "netlink/nl_attr.h"

int nl_attr_walk(const void *start, int len, nl_attr_visit_t visit, void *data,
		 const char **what)
{
	const struct nlattr *attr = start;
	int err;

	while (len > 0) {
		if (!mnl_attr_ok(attr, len)) {
			*what = "truncated attribute";
			return -EBADMSG;
		}
		err = visit(attr, data, what);
		if (err)
			return err;
		len -= (int)MNL_ALIGN(attr->nla_len);
		attr = mnl_attr_next(attr);
	}
	return 0;
}

int nl_attr_walk_nest(const struct nlattr *nest, nl_attr_visit_t visit,
		      void *data, const char **what)
{
	return nl_attr_walk(mnl_attr_get_payload(nest),
			    (int)mnl_attr_get_payload_len(nest), visit, data,
			    what);
}

static bool attr_known(const struct nl_attr_policy *policy, uint16_t type)
{
	return type != 0 && type != policy->pad && type <= policy->max;
}

static bool attr_valid(const struct nl_attr_policy *policy,
		       const struct nlattr *attr, const char **what)
{
	const struct nl_attr_rule *rule =
		&policy->rules[mnl_attr_get_type(attr)];
	uint16_t len = mnl_attr_get_payload_len(attr);

	switch (rule->kind) {
	case NL_ATTR_STRING:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0) {
			*what = "string attribute without its NUL";
			return false;
		}
		if (len > policy->str_max) {
			*what = "string attribute too long";
			return false;
		}
		return true;
	case NL_ATTR_FLAG:
		if (len) {
			*what = "flag attribute with a payload";
			return false;
		}
		return true;
	case NL_ATTR_NEST:
		return true;
	case NL_ATTR_ARRAY:
		if (len % rule->len || len > rule->max) {
			*what = "array attribute of the wrong size";
			return false;
		}
		return true;
	case NL_ATTR_FIXED:
		break;
	}
	if (len != rule->len) {
		*what = "attribute of the wrong size";
		return false;
	}
	return true;
}

struct policy_walk {
	const struct nl_attr_policy *policy;
	nl_attr_visit_t visit;
	void *data;
};

static int policy_visit(const struct nlattr *attr, void *data,
			const char **what)
{
	const struct policy_walk *w = data;

	if (!attr_known(w->policy, mnl_attr_get_type(attr)))
		return 0;
	if (!attr_valid(w->policy, attr, what))
		return -EBADMSG;
	return w->visit(attr, w->data, what);
}

int nl_attr_walk_genl(const struct nlmsghdr *nlh,
		      const struct nl_attr_policy *policy,
		      nl_attr_visit_t visit, void *data, const char **what)
{
	struct policy_walk w = { .policy = policy,
				 .visit = visit,
				 .data = data };

	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN) {
		*what = "no generic netlink header";
		return -EBADMSG;
	}
	return nl_attr_walk(mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN),
			    (int)(mnl_nlmsg_get_payload_len(nlh) - GENL_HDRLEN),
			    policy_visit, &w, what);
}

struct table_walk {
	const struct nlattr **tb;
	uint64_t *present;
};

static int table_visit(const struct nlattr *attr, void *data, const char **what)
{
	const struct table_walk *t = data;
	uint16_t type = mnl_attr_get_type(attr);

	(void)what;
	t->tb[type] = attr;
	*t->present |= 1ULL << type;
	return 0;
}

static int check_required(const struct nlattr **tb, const int *required,
			  size_t n_required, const char **what)
{
	size_t i;

	for (i = 0; i < n_required; i++) {
		if (!tb[required[i]]) {
			*what = "mandatory attribute missing";
			return -EBADMSG;
		}
	}
	return 0;
}

int nl_attr_parse(const struct nlmsghdr *nlh,
		  const struct nl_attr_policy *policy, const struct nlattr **tb,
		  uint64_t *present, const int *required, size_t n_required,
		  const char **what)
{
	struct table_walk t = { .tb = tb, .present = present };
	int err;

	memset(tb, 0, sizeof(*tb) * ((size_t)policy->max + 1));
	*present = 0;
	err = nl_attr_walk_genl(nlh, policy, table_visit, &t, what);
	return err ? err : check_required(tb, required, n_required, what);
}

int nl_attr_parse_nest(const struct nlattr *nest,
		       const struct nl_attr_policy *policy,
		       const struct nlattr **tb, uint64_t *present,
		       const int *required, size_t n_required,
		       const char **what)
{
	struct table_walk t = { .tb = tb, .present = present };
	struct policy_walk w = { .policy = policy,
				 .visit = table_visit,
				 .data = &t };
	int err;

	memset(tb, 0, sizeof(*tb) * ((size_t)policy->max + 1));
	*present = 0;
	err = nl_attr_walk_nest(nest, policy_visit, &w, what);
	return err ? err : check_required(tb, required, n_required, what);
}
