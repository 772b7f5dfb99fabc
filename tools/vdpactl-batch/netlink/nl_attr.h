/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one attribute walker and table parser of both generic netlink
 * clients (the vdpa family and vdpa_sim_batch's). Stricter than
 * mnl_attr_parse(), which stops quietly at a truncated attribute: a list
 * that does not end on an attribute boundary is an error, and every known
 * attribute is checked against its family's rules before it is used.
 */
#ifndef VDPACTL_NL_ATTR_H
#define VDPACTL_NL_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

/* Which attributes a parsed message carried, by attribute type. */
typedef uint64_t nl_attr_set;

static inline bool nl_has(nl_attr_set present, int attr)
{
	return present & (1ULL << attr);
}

/* What a known attribute's payload must be. */
enum nl_attr_kind {
	NL_ATTR_FIXED, /* exactly rule.len bytes (0 for an unlisted type) */
	NL_ATTR_STRING, /* NUL-terminated, at most policy.str_max bytes */
	NL_ATTR_FLAG, /* no payload */
	NL_ATTR_NEST, /* walked by its reader */
	NL_ATTR_ARRAY, /* whole rule.len-byte elements, up to rule.max bytes */
};

struct nl_attr_rule {
	enum nl_attr_kind kind;
	uint16_t len;
	uint16_t max; /* NL_ATTR_ARRAY only */
};

/*
 * rules[0..max], indexed by attribute type. Type 0, @pad and types above
 * @max are skipped, as attributes of a newer kernel are.
 */
struct nl_attr_policy {
	const struct nl_attr_rule *rules;
	uint16_t max;
	uint16_t pad;
	uint16_t str_max;
};

/* Returns 0 to go on, or -errno with *what set to stop the walk. */
typedef int (*nl_attr_visit_t)(const struct nlattr *attr, void *data,
			       const char **what);

/* Calls @visit on every attribute of the @len bytes at @start. */
int nl_attr_walk(const void *start, int len, nl_attr_visit_t visit, void *data,
		 const char **what);

/* nl_attr_walk() over the payload of @nest. */
int nl_attr_walk_nest(const struct nlattr *nest, nl_attr_visit_t visit,
		      void *data, const char **what);

/*
 * Calls @visit on each attribute of a generic netlink message that
 * @policy knows, in order, after checking it against its rule.
 */
int nl_attr_walk_genl(const struct nlmsghdr *nlh,
		      const struct nl_attr_policy *policy,
		      nl_attr_visit_t visit, void *data, const char **what);

/*
 * Fills tb[0..policy->max] with the last of each known attribute and
 * *present with their bits; each type in @required must be there.
 */
int nl_attr_parse(const struct nlmsghdr *nlh,
		  const struct nl_attr_policy *policy, const struct nlattr **tb,
		  uint64_t *present, const int *required, size_t n_required,
		  const char **what);

/* nl_attr_parse() of the attributes in the payload of @nest. */
int nl_attr_parse_nest(const struct nlattr *nest,
		       const struct nl_attr_policy *policy,
		       const struct nlattr **tb, uint64_t *present,
		       const int *required, size_t n_required,
		       const char **what);

#endif
