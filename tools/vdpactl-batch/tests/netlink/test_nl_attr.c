// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The attribute walker and table parser both netlink families use, on a
 * policy of its own: which attributes land in the table (the last of a
 * repeated one, none past the table), the required ones, each rule's
 * rejections with the messages the families report, and nests.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "lib/util.h"
#include "netlink/nl_attr.h"
#include "tests/netlink/genl_build.h"

#define FAKE_FAMILY 0x22
#define FAKE_CMD 1
#define FAKE_VERSION 1
#define FAKE_STR_MAX 8 /* "abcdefg" and its NUL */

enum fake_attr {
	FAKE_A_UNSPEC,
	FAKE_A_NAME,
	FAKE_A_U32,
	FAKE_A_PAD,
	FAKE_A_FLAG,
	FAKE_A_ARRAY,
	FAKE_A_NEST,
	FAKE_A_MAX = FAKE_A_NEST,
};

static const struct nl_attr_rule fake_rules[FAKE_A_MAX + 1] = {
	[FAKE_A_NAME] = { NL_ATTR_STRING, 0, 0 },
	[FAKE_A_U32] = { NL_ATTR_FIXED, 4, 0 },
	[FAKE_A_FLAG] = { NL_ATTR_FLAG, 0, 0 },
	[FAKE_A_ARRAY] = { NL_ATTR_ARRAY, 2, 6 },
	[FAKE_A_NEST] = { NL_ATTR_NEST, 0, 0 },
};

static const struct nl_attr_policy fake_policy = {
	.rules = fake_rules,
	.max = FAKE_A_MAX,
	.pad = FAKE_A_PAD,
	.str_max = FAKE_STR_MAX,
};

/* A table one entry longer than the policy's, to see nothing lands there. */
#define TABLE_LEN (FAKE_A_MAX + 2)
static const struct nlattr sentinel;

static union genl_buf buf;

static struct nlmsghdr *start(void)
{
	return genl_build_start(&buf, FAKE_FAMILY, FAKE_CMD, FAKE_VERSION);
}

static void table_init(const struct nlattr **tb)
{
	unsigned int i;

	for (i = 0; i < TABLE_LEN; i++)
		tb[i] = &sentinel;
}

static int parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		 nl_attr_set *present, const int *required, size_t n_required,
		 const char **what)
{
	table_init(tb);
	*what = NULL;
	return nl_attr_parse(nlh, &fake_policy, tb, present, required,
			     n_required, what);
}

static void known_attributes_fill_the_table(void **state)
{
	struct nlmsghdr *nlh = start();
	const struct nlattr *tb[TABLE_LEN];
	nl_attr_set present;
	const char *what;

	(void)state;
	mnl_attr_put_strz(nlh, FAKE_A_NAME, "abcdefg");
	mnl_attr_put_u32(nlh, FAKE_A_UNSPEC, 1);
	mnl_attr_put_u64(nlh, FAKE_A_PAD, 0);
	mnl_attr_put_u32(nlh, FAKE_A_U32, 7);
	/* A newer kernel's: past the table, and past nl_attr_set's bits. */
	mnl_attr_put_u32(nlh, FAKE_A_MAX + 1, 2);
	mnl_attr_put_u32(nlh, 100, 3);
	mnl_attr_put(nlh, FAKE_A_FLAG, 0, NULL);
	assert_int_equal(parse(nlh, tb, &present, NULL, 0, &what), 0);
	assert_null(what);
	assert_string_equal(mnl_attr_get_str(tb[FAKE_A_NAME]), "abcdefg");
	assert_int_equal(mnl_attr_get_u32(tb[FAKE_A_U32]), 7);
	assert_non_null(tb[FAKE_A_FLAG]);
	assert_null(tb[FAKE_A_UNSPEC]);
	assert_null(tb[FAKE_A_PAD]);
	assert_null(tb[FAKE_A_ARRAY]);
	assert_ptr_equal(tb[FAKE_A_MAX + 1], &sentinel);
	assert_int_equal(present, 1ULL << FAKE_A_NAME | 1ULL << FAKE_A_U32 |
					  1ULL << FAKE_A_FLAG);
}

static void repeated_attribute_last_wins(void **state)
{
	struct nlmsghdr *nlh = start();
	const struct nlattr *tb[TABLE_LEN];
	nl_attr_set present;
	const char *what;

	(void)state;
	mnl_attr_put_u32(nlh, FAKE_A_U32, 1);
	mnl_attr_put_u32(nlh, FAKE_A_U32, 2);
	assert_int_equal(parse(nlh, tb, &present, NULL, 0, &what), 0);
	assert_int_equal(mnl_attr_get_u32(tb[FAKE_A_U32]), 2);
	assert_int_equal(present, 1ULL << FAKE_A_U32);
}

static void required_attributes(void **state)
{
	static const int required[] = { FAKE_A_NAME, FAKE_A_U32 };
	struct nlmsghdr *nlh = start();
	const struct nlattr *tb[TABLE_LEN];
	nl_attr_set present;
	const char *what;

	(void)state;
	mnl_attr_put_strz(nlh, FAKE_A_NAME, "b0");
	assert_int_equal(parse(nlh, tb, &present, required,
			       ARRAY_SIZE(required), &what),
			 -EBADMSG);
	assert_string_equal(what, "mandatory attribute missing");
	mnl_attr_put_u32(nlh, FAKE_A_U32, 1);
	assert_int_equal(parse(nlh, tb, &present, required,
			       ARRAY_SIZE(required), &what),
			 0);
}

/* Nothing of an earlier message is left in the table. */
static void empty_message_clears_the_table(void **state)
{
	const struct nlattr *tb[TABLE_LEN];
	nl_attr_set present = ~0ULL;
	unsigned int i;
	const char *what;

	(void)state;
	assert_int_equal(parse(start(), tb, &present, NULL, 0, &what), 0);
	for (i = 0; i <= FAKE_A_MAX; i++)
		assert_null(tb[i]);
	assert_int_equal(present, 0);
}

static void put_short_u32(struct nlmsghdr *nlh)
{
	mnl_attr_put_u16(nlh, FAKE_A_U32, 1);
}

static void put_name_without_nul(struct nlmsghdr *nlh)
{
	mnl_attr_put(nlh, FAKE_A_NAME, 2, "ab");
}

static void put_long_name(struct nlmsghdr *nlh)
{
	mnl_attr_put_strz(nlh, FAKE_A_NAME, "abcdefgh");
}

static void put_flag_with_payload(struct nlmsghdr *nlh)
{
	mnl_attr_put_u8(nlh, FAKE_A_FLAG, 1);
}

static void put_array_of_half_an_element(struct nlmsghdr *nlh)
{
	mnl_attr_put(nlh, FAKE_A_ARRAY, 3, "abc");
}

static void put_array_too_long(struct nlmsghdr *nlh)
{
	mnl_attr_put(nlh, FAKE_A_ARRAY, 8, "abcdefgh");
}

static void cut_into_the_last_attribute(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, FAKE_A_U32, 1);
	nlh->nlmsg_len -= 2;
}

static void cut_the_generic_header(struct nlmsghdr *nlh)
{
	nlh->nlmsg_len = (uint32_t)(MNL_NLMSG_HDRLEN + GENL_HDRLEN - 1);
}

static void malformed_messages(void **state)
{
	static const struct {
		void (*make)(struct nlmsghdr *nlh);
		const char *what;
	} cases[] = {
		{ put_short_u32, "attribute of the wrong size" },
		{ put_name_without_nul, "string attribute without its NUL" },
		{ put_long_name, "string attribute too long" },
		{ put_flag_with_payload, "flag attribute with a payload" },
		{ put_array_of_half_an_element,
		  "array attribute of the wrong size" },
		{ put_array_too_long, "array attribute of the wrong size" },
		{ cut_into_the_last_attribute, "truncated attribute" },
		{ cut_the_generic_header, "no generic netlink header" },
	};
	const struct nlattr *tb[TABLE_LEN];
	nl_attr_set present;
	const char *what;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct nlmsghdr *nlh = start();

		mnl_attr_put_strz(nlh, FAKE_A_NAME, "b0");
		cases[i].make(nlh);
		assert_int_equal(parse(nlh, tb, &present, NULL, 0, &what),
				 -EBADMSG);
		assert_string_equal(what, cases[i].what);
	}
}

static void nest_parses_alike(void **state)
{
	static const int required[] = { FAKE_A_NAME };
	struct nlmsghdr *nlh = start();
	const struct nlattr *tb[TABLE_LEN];
	struct nlattr *nest;
	nl_attr_set present;
	const char *what = NULL;

	(void)state;
	nest = mnl_attr_nest_start(nlh, FAKE_A_NEST);
	mnl_attr_put_u32(nlh, FAKE_A_U32, 5);
	mnl_attr_put_u32(nlh, FAKE_A_MAX + 1, 6);
	mnl_attr_nest_end(nlh, nest);
	table_init(tb);
	assert_int_equal(nl_attr_parse_nest(nest, &fake_policy, tb, &present,
					    NULL, 0, &what),
			 0);
	assert_int_equal(mnl_attr_get_u32(tb[FAKE_A_U32]), 5);
	assert_ptr_equal(tb[FAKE_A_MAX + 1], &sentinel);
	assert_int_equal(present, 1ULL << FAKE_A_U32);
	assert_int_equal(nl_attr_parse_nest(nest, &fake_policy, tb, &present,
					    required, ARRAY_SIZE(required),
					    &what),
			 -EBADMSG);
	assert_string_equal(what, "mandatory attribute missing");
}

struct visits {
	unsigned int n;
	unsigned int fail_at;
};

static int count_visit(const struct nlattr *attr, void *data, const char **what)
{
	struct visits *v = data;

	(void)attr;
	if (++v->n == v->fail_at) {
		*what = "stopped by the visitor";
		return -EPROTO;
	}
	return 0;
}

/* Only known attributes reach the visitor, whose error ends the walk. */
static void walk_stops_at_the_visitors_error(void **state)
{
	struct nlmsghdr *nlh = start();
	struct visits v = { 0 };
	const char *what = NULL;

	(void)state;
	mnl_attr_put_u32(nlh, FAKE_A_MAX + 1, 1);
	mnl_attr_put_u32(nlh, FAKE_A_U32, 1);
	mnl_attr_put_u32(nlh, FAKE_A_U32, 2);
	mnl_attr_put_u32(nlh, FAKE_A_U32, 3);
	assert_int_equal(nl_attr_walk_genl(nlh, &fake_policy, count_visit, &v,
					   &what),
			 0);
	assert_int_equal(v.n, 3);
	v = (struct visits){ .fail_at = 2 };
	assert_int_equal(nl_attr_walk_genl(nlh, &fake_policy, count_visit, &v,
					   &what),
			 -EPROTO);
	assert_string_equal(what, "stopped by the visitor");
	assert_int_equal(v.n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_attributes_fill_the_table),
		cmocka_unit_test(repeated_attribute_last_wins),
		cmocka_unit_test(required_attributes),
		cmocka_unit_test(empty_message_clears_the_table),
		cmocka_unit_test(malformed_messages),
		cmocka_unit_test(nest_parses_alike),
		cmocka_unit_test(walk_stops_at_the_visitors_error),
	};

	return cmocka_run_group_tests_name("nl_attr", tests, NULL, NULL);
}
