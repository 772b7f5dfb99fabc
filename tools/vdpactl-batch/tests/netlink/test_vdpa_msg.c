// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdpa netlink requests and replies, including truncated and malformed
 * replies, and netlink error/extack parsing.
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

#include "tests/netlink/genl_build.h"
#include "netlink/nl_gen.h"
#include "netlink/vdpa_msg.h"

#define FAKE_FAMILY 0x20

/* Room for the largest message a test builds. */
static union genl_buf buf;

static struct nlmsghdr *start(uint8_t cmd)
{
	return genl_build_start(&buf, FAKE_FAMILY, cmd, VDPA_GENL_VERSION);
}

static void put_dev_basics(struct nlmsghdr *nlh)
{
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_NAME, "vdpa0");
	mnl_attr_put_u32(nlh, VDPA_ATTR_DEV_ID, VIRTIO_ID_NET);
	mnl_attr_put_strz(nlh, VDPA_ATTR_MGMTDEV_DEV_NAME, "vdpasim_net");
}

static void dev_reply(void **state)
{
	struct nlmsghdr *nlh = start(VDPA_CMD_DEV_NEW);
	struct vdpa_dev_info info;
	const char *what = NULL;

	(void)state;
	put_dev_basics(nlh);
	mnl_attr_put_u32(nlh, VDPA_ATTR_DEV_VENDOR_ID, 0);
	mnl_attr_put_u32(nlh, VDPA_ATTR_DEV_MAX_VQS, 3);
	mnl_attr_put_u16(nlh, VDPA_ATTR_DEV_MAX_VQ_SIZE, 256);
	assert_int_equal(vdpa_msg_parse_dev(nlh, &info, &what), 0);
	assert_string_equal(info.name, "vdpa0");
	assert_string_equal(info.mgmtdev_name, "vdpasim_net");
	assert_string_equal(info.mgmtdev_bus, "");
	assert_int_equal(info.device_id, VIRTIO_ID_NET);
	assert_int_equal(info.max_vqs, 3);
	assert_int_equal(info.max_vq_size, 256);
	assert_true(nl_has(info.present, VDPA_ATTR_DEV_VENDOR_ID));
	assert_false(nl_has(info.present, VDPA_ATTR_DEV_MIN_VQ_SIZE));
}

static void unknown_attributes_are_skipped(void **state)
{
	struct nlmsghdr *nlh = start(VDPA_CMD_DEV_NEW);
	struct vdpa_dev_info info;
	const char *what = NULL;

	(void)state;
	put_dev_basics(nlh);
	mnl_attr_put_u64(nlh, VDPA_ATTR_DEV_FEATURES + 5, 1); /* newer */
	mnl_attr_put_u8(nlh, 300, 1); /* far beyond any table */
	mnl_attr_put_u64(nlh, VDPA_ATTR_PAD, 0);
	assert_int_equal(vdpa_msg_parse_dev(nlh, &info, &what), 0);
}

static void missing_mandatory_attribute(void **state)
{
	struct nlmsghdr *nlh = start(VDPA_CMD_DEV_NEW);
	struct vdpa_dev_info info;
	const char *what = NULL;

	(void)state;
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_NAME, "vdpa0");
	mnl_attr_put_strz(nlh, VDPA_ATTR_MGMTDEV_DEV_NAME, "vdpasim_net");
	assert_int_equal(vdpa_msg_parse_dev(nlh, &info, &what), -EBADMSG);
	assert_string_equal(what, "mandatory attribute missing");
}

static void truncated_attribute(void **state)
{
	struct nlmsghdr *nlh = start(VDPA_CMD_DEV_NEW);
	struct vdpa_dev_info info;
	const char *what = NULL;

	(void)state;
	put_dev_basics(nlh);
	mnl_attr_put_u32(nlh, VDPA_ATTR_DEV_MAX_VQS, 3);
	/* The message ends in the middle of the last attribute. */
	nlh->nlmsg_len -= 6;
	assert_int_equal(vdpa_msg_parse_dev(nlh, &info, &what), -EBADMSG);
	assert_string_equal(what, "truncated attribute");
	/* ... or right after its header, which promises 4 more bytes. */
	nlh->nlmsg_len += 2;
	assert_int_equal(vdpa_msg_parse_dev(nlh, &info, &what), -EBADMSG);
}

static void wrong_sizes_and_strings(void **state)
{
	static const char unterminated[4] = { 'v', 'd', 'p', 'a' };
	char long_name[100];
	struct nlmsghdr *nlh;
	struct vdpa_dev_info info;
	const char *what = NULL;

	(void)state;
	nlh = start(VDPA_CMD_DEV_NEW);
	put_dev_basics(nlh);
	mnl_attr_put_u16(nlh, VDPA_ATTR_DEV_MAX_VQS, 3); /* u32 expected */
	assert_int_equal(vdpa_msg_parse_dev(nlh, &info, &what), -EBADMSG);
	assert_string_equal(what, "attribute of the wrong size");

	nlh = start(VDPA_CMD_DEV_NEW);
	put_dev_basics(nlh);
	mnl_attr_put(nlh, VDPA_ATTR_MGMTDEV_BUS_NAME, sizeof(unterminated),
		     unterminated);
	assert_int_equal(vdpa_msg_parse_dev(nlh, &info, &what), -EBADMSG);
	assert_string_equal(what, "string attribute without its NUL");

	nlh = start(VDPA_CMD_DEV_NEW);
	put_dev_basics(nlh);
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_NAME, long_name);
	assert_int_equal(vdpa_msg_parse_dev(nlh, &info, &what), -EBADMSG);
	assert_string_equal(what, "string attribute too long");
}

static void no_generic_header(void **state)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf.bytes);
	struct vdpa_dev_config cfg;
	const char *what = NULL;

	(void)state;
	nlh->nlmsg_len += 2;
	assert_int_equal(vdpa_msg_parse_config(nlh, &cfg, &what), -EBADMSG);
	assert_string_equal(what, "no generic netlink header");
}

static void config_reply(void **state)
{
	static const uint8_t mac[MAC_LEN] = { 2, 0, 0, 0, 0, 0x1e };
	struct nlmsghdr *nlh = start(VDPA_CMD_DEV_CONFIG_GET);
	struct vdpa_dev_config cfg;
	const char *what = NULL;

	(void)state;
	put_dev_basics(nlh);
	mnl_attr_put(nlh, VDPA_ATTR_DEV_NET_CFG_MACADDR, MAC_LEN, mac);
	mnl_attr_put_u16(nlh, VDPA_ATTR_DEV_NET_STATUS, VIRTIO_NET_S_LINK_UP);
	mnl_attr_put_u16(nlh, VDPA_ATTR_DEV_NET_CFG_MTU, 1500);
	mnl_attr_put_u64(nlh, VDPA_ATTR_DEV_NEGOTIATED_FEATURES, 1ULL << 17);
	assert_int_equal(vdpa_msg_parse_config(nlh, &cfg, &what), 0);
	assert_memory_equal(cfg.mac, mac, MAC_LEN);
	assert_int_equal(cfg.status, VIRTIO_NET_S_LINK_UP);
	assert_int_equal(cfg.mtu, 1500);
	assert_int_equal(cfg.negotiated_features, 1ULL << 17);
	assert_false(nl_has(cfg.present, VDPA_ATTR_DEV_NET_CFG_MAX_VQP));

	/* A 5-byte MAC is malformed. */
	nlh = start(VDPA_CMD_DEV_CONFIG_GET);
	put_dev_basics(nlh);
	mnl_attr_put(nlh, VDPA_ATTR_DEV_NET_CFG_MACADDR, 5, mac);
	assert_int_equal(vdpa_msg_parse_config(nlh, &cfg, &what), -EBADMSG);
}

static void mgmtdev_reply(void **state)
{
	struct nlmsghdr *nlh = start(VDPA_CMD_MGMTDEV_NEW);
	struct vdpa_mgmtdev_info info;
	const char *what = NULL;

	(void)state;
	mnl_attr_put_strz(nlh, VDPA_ATTR_MGMTDEV_BUS_NAME, "pci");
	mnl_attr_put_strz(nlh, VDPA_ATTR_MGMTDEV_DEV_NAME, "0000:00:03.0");
	mnl_attr_put_u64(nlh, VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES, 1 << 1);
	mnl_attr_put_u32(nlh, VDPA_ATTR_DEV_MGMTDEV_MAX_VQS, 3);
	mnl_attr_put_u64(nlh, VDPA_ATTR_DEV_SUPPORTED_FEATURES, 0xff);
	assert_int_equal(vdpa_msg_parse_mgmtdev(nlh, &info, &what), 0);
	assert_string_equal(info.bus_name, "pci");
	assert_string_equal(info.dev_name, "0000:00:03.0");
	assert_int_equal(info.supported_classes, 2);
	assert_int_equal(info.max_vqs, 3);
	assert_int_equal(info.supported_features, 0xff);

	nlh = start(VDPA_CMD_MGMTDEV_NEW);
	mnl_attr_put_strz(nlh, VDPA_ATTR_MGMTDEV_BUS_NAME, "pci");
	assert_int_equal(vdpa_msg_parse_mgmtdev(nlh, &info, &what), -EBADMSG);
}

static struct nlmsghdr *vstats_head(void)
{
	struct nlmsghdr *nlh = start(VDPA_CMD_DEV_VSTATS_GET);

	put_dev_basics(nlh);
	mnl_attr_put_u64(nlh, VDPA_ATTR_DEV_NEGOTIATED_FEATURES, 1ULL << 17);
	mnl_attr_put_u32(nlh, VDPA_ATTR_DEV_QUEUE_INDEX, 2);
	return nlh;
}

static void put_stat(struct nlmsghdr *nlh, const char *name, uint64_t v)
{
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_VENDOR_ATTR_NAME, name);
	mnl_attr_put_u64(nlh, VDPA_ATTR_DEV_VENDOR_ATTR_VALUE, v);
}

static void vstats_reply(void **state)
{
	struct nlmsghdr *nlh = vstats_head();
	struct vdpa_vstats s;
	const char *what = NULL;

	(void)state;
	put_stat(nlh, "cvq requests", 30000);
	put_stat(nlh, "cvq successes", 29999);
	put_stat(nlh, "cvq batches", 1000);
	assert_int_equal(vdpa_msg_parse_vstats(nlh, &s, &what), 0);
	assert_string_equal(s.dev_name, "vdpa0");
	assert_int_equal(s.queue_index, 2);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.entries[0].name, "cvq requests");
	assert_int_equal(s.entries[0].value, 30000);
	assert_string_equal(s.entries[2].name, "cvq batches");
	assert_int_equal(s.entries[2].value, 1000);
}

static void vstats_pairs_must_match(void **state)
{
	struct nlmsghdr *nlh;
	struct vdpa_vstats s;
	const char *what = NULL;
	unsigned int i;

	(void)state;
	nlh = vstats_head();
	mnl_attr_put_u64(nlh, VDPA_ATTR_DEV_VENDOR_ATTR_VALUE, 1);
	assert_int_equal(vdpa_msg_parse_vstats(nlh, &s, &what), -EBADMSG);
	assert_string_equal(what, "vendor stat value without a name");

	nlh = vstats_head();
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_VENDOR_ATTR_NAME, "orphan");
	assert_int_equal(vdpa_msg_parse_vstats(nlh, &s, &what), -EBADMSG);
	assert_string_equal(what, "vendor stat name without a value");

	nlh = vstats_head();
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_VENDOR_ATTR_NAME, "a");
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_VENDOR_ATTR_NAME, "b");
	assert_int_equal(vdpa_msg_parse_vstats(nlh, &s, &what), -EBADMSG);

	nlh = vstats_head();
	for (i = 0; i <= VDPA_VSTATS_MAX; i++)
		put_stat(nlh, "x", i);
	assert_int_equal(vdpa_msg_parse_vstats(nlh, &s, &what), -EBADMSG);
	assert_string_equal(what, "too many vendor stats");

	nlh = start(VDPA_CMD_DEV_VSTATS_GET);
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_NAME, "vdpa0");
	assert_int_equal(vdpa_msg_parse_vstats(nlh, &s, &what), -EBADMSG);
}

/* Checks @nlh's attributes against what the requests should carry. */
struct seen_attrs {
	const struct nlattr *tb[VDPA_ATTR_DEV_FEATURES + 1];
	unsigned int count;
};

static int collect_attr(const struct nlattr *attr, void *data)
{
	struct seen_attrs *seen = data;

	if (mnl_attr_get_type(attr) <= VDPA_ATTR_DEV_FEATURES)
		seen->tb[mnl_attr_get_type(attr)] = attr;
	seen->count++;
	return MNL_CB_OK;
}

static void requests(void **state)
{
	struct vdpa_dev_new_args args = {
		.name = "vdpa1",
		.mgmtdev_name = "vdpasim_net",
		.has_mac = true,
		.mac = { 2, 0, 0, 0, 0, 1 },
		.has_mtu = true,
		.mtu = 9000,
		.has_max_vqp = true,
		.max_vqp = 4,
		.has_device_features = true,
		.device_features = 0x300020000ULL,
	};
	struct seen_attrs seen = { 0 };
	struct nlmsghdr *nlh;

	(void)state;
	nlh = start(VDPA_CMD_DEV_NEW);
	vdpa_msg_put_dev_new(nlh, &args);
	mnl_attr_parse(nlh, GENL_HDRLEN, collect_attr, &seen);
	assert_int_equal(seen.count, 6); /* no bus name */
	assert_string_equal(mnl_attr_get_str(seen.tb[VDPA_ATTR_DEV_NAME]),
			    "vdpa1");
	assert_string_equal(
		mnl_attr_get_str(seen.tb[VDPA_ATTR_MGMTDEV_DEV_NAME]),
		"vdpasim_net");
	assert_memory_equal(
		mnl_attr_get_payload(seen.tb[VDPA_ATTR_DEV_NET_CFG_MACADDR]),
		args.mac, MAC_LEN);
	assert_int_equal(mnl_attr_get_u16(seen.tb[VDPA_ATTR_DEV_NET_CFG_MTU]),
			 9000);
	assert_int_equal(
		mnl_attr_get_u16(seen.tb[VDPA_ATTR_DEV_NET_CFG_MAX_VQP]), 4);
	assert_int_equal(mnl_attr_get_u64(seen.tb[VDPA_ATTR_DEV_FEATURES]),
			 0x300020000ULL);

	memset(&seen, 0, sizeof(seen));
	nlh = start(VDPA_CMD_DEV_VSTATS_GET);
	vdpa_msg_put_vstats(nlh, "vdpa0", 2);
	mnl_attr_parse(nlh, GENL_HDRLEN, collect_attr, &seen);
	assert_int_equal(seen.count, 2);
	assert_int_equal(mnl_attr_get_u32(seen.tb[VDPA_ATTR_DEV_QUEUE_INDEX]),
			 2);

	memset(&seen, 0, sizeof(seen));
	nlh = start(VDPA_CMD_MGMTDEV_GET);
	vdpa_msg_put_mgmtdev(nlh, "pci", "0000:00:03.0");
	mnl_attr_parse(nlh, GENL_HDRLEN, collect_attr, &seen);
	assert_int_equal(seen.count, 2);
	assert_string_equal(
		mnl_attr_get_str(seen.tb[VDPA_ATTR_MGMTDEV_BUS_NAME]), "pci");
}

static void mgmtdev_handles(void **state)
{
	char bus[VDPA_NAME_LEN], name[VDPA_NAME_LEN];

	(void)state;
	assert_int_equal(vdpa_split_mgmtdev_handle("vdpasim_net", bus, name),
			 0);
	assert_string_equal(bus, "");
	assert_string_equal(name, "vdpasim_net");
	assert_int_equal(
		vdpa_split_mgmtdev_handle("pci/0000:00:03.0", bus, name), 0);
	assert_string_equal(bus, "pci");
	assert_string_equal(name, "0000:00:03.0");
	assert_int_equal(vdpa_split_mgmtdev_handle("a/b/c", bus, name),
			 -EINVAL);
	assert_int_equal(vdpa_split_mgmtdev_handle("/b", bus, name), -EINVAL);
	assert_int_equal(vdpa_split_mgmtdev_handle("a/", bus, name), -EINVAL);
	assert_int_equal(vdpa_split_mgmtdev_handle("", bus, name), -EINVAL);
}

/* An NLMSG_ERROR as the kernel sends it, optionally with an extack. */
static struct nlmsghdr *error_msg(int error, bool capped, const char *msg)
{
	struct nlmsghdr *nlh, *request;
	struct nlmsgerr *err;

	memset(buf.bytes, 0, sizeof(buf.bytes));
	nlh = mnl_nlmsg_put_header(buf.bytes);
	nlh->nlmsg_type = NLMSG_ERROR;
	err = mnl_nlmsg_put_extra_header(nlh, sizeof(*err));
	err->error = error;
	err->msg.nlmsg_len = sizeof(err->msg);
	if (!capped) {
		/* Echo a request with a 12-byte payload. */
		request = &err->msg;
		request->nlmsg_len = sizeof(*request) + 12;
		mnl_nlmsg_put_extra_header(nlh, 12);
	} else {
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	}
	if (msg) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	}
	return nlh;
}

static void netlink_errors_and_extack(void **state)
{
	char extack[NL_EXTACK_LEN];
	int error = 1;

	(void)state;
	assert_int_equal(nl_parse_error(error_msg(0, true, NULL), &error,
					extack, sizeof(extack)),
			 0);
	assert_int_equal(error, 0);
	assert_string_equal(extack, "");

	assert_int_equal(nl_parse_error(error_msg(-ENODEV, true,
						  "vdpa device not found"),
					&error, extack, sizeof(extack)),
			 0);
	assert_int_equal(error, -ENODEV);
	assert_string_equal(extack, "vdpa device not found");

	assert_int_equal(nl_parse_error(error_msg(-EINVAL, false, "bad mac"),
					&error, extack, sizeof(extack)),
			 0);
	assert_int_equal(error, -EINVAL);
	assert_string_equal(extack, "bad mac");

	/* Some senders use a positive errno; it is normalised. */
	assert_int_equal(nl_parse_error(error_msg(EEXIST, true, NULL), &error,
					extack, sizeof(extack)),
			 0);
	assert_int_equal(error, -EEXIST);
}

static void truncated_netlink_error(void **state)
{
	struct nlmsghdr *nlh;
	char extack[NL_EXTACK_LEN];
	int error;

	(void)state;
	nlh = mnl_nlmsg_put_header(buf.bytes);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_len += 4; /* an errno but no echoed header */
	assert_int_equal(nl_parse_error(nlh, &error, extack, sizeof(extack)),
			 -EBADMSG);

	/* An echoed request longer than the message. */
	nlh = error_msg(-EINVAL, false, NULL);
	nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	((struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->msg.nlmsg_len = 4000;
	assert_int_equal(nl_parse_error(nlh, &error, extack, sizeof(extack)),
			 -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dev_reply),
		cmocka_unit_test(unknown_attributes_are_skipped),
		cmocka_unit_test(missing_mandatory_attribute),
		cmocka_unit_test(truncated_attribute),
		cmocka_unit_test(wrong_sizes_and_strings),
		cmocka_unit_test(no_generic_header),
		cmocka_unit_test(config_reply),
		cmocka_unit_test(mgmtdev_reply),
		cmocka_unit_test(vstats_reply),
		cmocka_unit_test(vstats_pairs_must_match),
		cmocka_unit_test(requests),
		cmocka_unit_test(mgmtdev_handles),
		cmocka_unit_test(netlink_errors_and_extack),
		cmocka_unit_test(truncated_netlink_error),
	};

	return cmocka_run_group_tests_name("vdpa_msg", tests, NULL, NULL);
}
