// SPDX-License-Identifier: GPL-2.0-only
/*
 * The network device's feature dependencies (kmod/engine/vsb_features.c): every
 * rule of the spec's list that names a feature the uapi headers know is
 * refused when broken and accepted when kept; the device's own offer and
 * what Linux's virtio_net negotiates from it pass.
 */

#include "unit.h"

#include "vsb_features.h"

#define BASE (FEATURE(VIRTIO_F_VERSION_1) | FEATURE(VIRTIO_F_ACCESS_PLATFORM))
#define F(bit) FEATURE(VIRTIO_NET_F_##bit)

static const struct {
	const char *what;
	u64 features;
	int unmet; /* -1: accepted */
} cases[] = {
	{ "nothing but the transport", BASE, -1 },
	{ "CTRL_VQ alone", BASE | F(CTRL_VQ), -1 },
	{ "CTRL_RX without CTRL_VQ", BASE | F(CTRL_RX), VIRTIO_NET_F_CTRL_RX },
	{ "CTRL_VLAN without CTRL_VQ", BASE | F(CTRL_VLAN),
	  VIRTIO_NET_F_CTRL_VLAN },
	{ "GUEST_ANNOUNCE without CTRL_VQ", BASE | F(GUEST_ANNOUNCE),
	  VIRTIO_NET_F_GUEST_ANNOUNCE },
	{ "MQ without CTRL_VQ", BASE | F(MQ), VIRTIO_NET_F_MQ },
	{ "CTRL_MAC_ADDR without CTRL_VQ", BASE | F(CTRL_MAC_ADDR),
	  VIRTIO_NET_F_CTRL_MAC_ADDR },
	{ "CTRL_GUEST_OFFLOADS without CTRL_VQ", BASE | F(CTRL_GUEST_OFFLOADS),
	  VIRTIO_NET_F_CTRL_GUEST_OFFLOADS },
	{ "RSS without CTRL_VQ", BASE | F(RSS), VIRTIO_NET_F_RSS },
	{ "NOTF_COAL without CTRL_VQ", BASE | F(NOTF_COAL),
	  VIRTIO_NET_F_NOTF_COAL },
	{ "CTRL_RX_EXTRA without CTRL_RX", BASE | F(CTRL_VQ) | F(CTRL_RX_EXTRA),
	  VIRTIO_NET_F_CTRL_RX_EXTRA },
	{ "CTRL_RX_EXTRA with CTRL_RX",
	  BASE | F(CTRL_VQ) | F(CTRL_RX) | F(CTRL_RX_EXTRA), -1 },
	{ "GUEST_TSO4 without GUEST_CSUM", BASE | F(GUEST_TSO4),
	  VIRTIO_NET_F_GUEST_TSO4 },
	{ "GUEST_TSO6 without GUEST_CSUM", BASE | F(GUEST_TSO6),
	  VIRTIO_NET_F_GUEST_TSO6 },
	{ "GUEST_UFO without GUEST_CSUM", BASE | F(GUEST_UFO),
	  VIRTIO_NET_F_GUEST_UFO },
	{ "GUEST_ECN without a GUEST_TSO", BASE | F(GUEST_CSUM) | F(GUEST_ECN),
	  VIRTIO_NET_F_GUEST_ECN },
	{ "GUEST_ECN with GUEST_TSO6",
	  BASE | F(GUEST_CSUM) | F(GUEST_TSO6) | F(GUEST_ECN), -1 },
	{ "HOST_TSO4 without CSUM", BASE | F(HOST_TSO4),
	  VIRTIO_NET_F_HOST_TSO4 },
	{ "HOST_TSO6 without CSUM", BASE | F(HOST_TSO6),
	  VIRTIO_NET_F_HOST_TSO6 },
	{ "HOST_UFO without CSUM", BASE | F(HOST_UFO), VIRTIO_NET_F_HOST_UFO },
	{ "HOST_ECN without a HOST_TSO", BASE | F(CSUM) | F(HOST_ECN),
	  VIRTIO_NET_F_HOST_ECN },
	{ "HOST_ECN with HOST_TSO4",
	  BASE | F(CSUM) | F(HOST_TSO4) | F(HOST_ECN), -1 },
	/* what the module offers, and virtio_net's usual subset of it */
	{ "the device's offer",
	  BASE | F(MAC) | F(MTU) | F(STATUS) | F(CTRL_VQ) | F(CTRL_MAC_ADDR) |
		  F(GUEST_ANNOUNCE) | F(CTRL_RX) | F(CTRL_RX_EXTRA) |
		  F(CTRL_VLAN) | F(MQ) | F(CTRL_GUEST_OFFLOADS) | F(GUEST_CSUM),
	  -1 },
};

static void every_rule(void **state)
{
	unsigned int i, bad = 0;
	int got;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = vsb_features_unmet(cases[i].features);
		if (got != cases[i].unmet) {
			print_error("%s (0x%llx): unmet %d, want %d\n",
				    cases[i].what,
				    (unsigned long long)cases[i].features, got,
				    cases[i].unmet);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/*
 * HASH_REPORT without CTRL_VQ: virtio 1.3 only says a driver SHOULD take
 * both, so a driver that takes it alone is accepted; the device never
 * offers it alone (nothing could enable a hash type). Every rule of the
 * spec holds for the offer too.
 */
static void hash_report_needs_cvq_only_on_offer(void **state)
{
	unsigned int i;

	(void)state;
	assert_int_equal(vsb_features_unmet(BASE | F(HASH_REPORT)), -1);
	assert_int_equal(vsb_features_offer_unmet(BASE | F(HASH_REPORT)),
			 VIRTIO_NET_F_HASH_REPORT);
	assert_int_equal(vsb_features_offer_unmet(BASE | F(HASH_REPORT) |
						  F(CTRL_VQ)),
			 -1);
	assert_int_equal(vsb_features_offer_unmet(BASE | F(RSS) |
						  F(HASH_REPORT) | F(CTRL_VQ)),
			 -1);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(vsb_features_offer_unmet(cases[i].features),
				 cases[i].unmet);
}

/* MQ or RSS: max_virtqueue_pairs pairs, and the CVQ after them. */
static void pairs_with_mq_or_rss(void **state)
{
	(void)state;
	assert_int_equal(vsb_net_pairs(BASE | F(CTRL_VQ), 4), 1);
	assert_int_equal(vsb_net_pairs(BASE | F(CTRL_VQ) | F(MQ), 4), 4);
	assert_int_equal(vsb_net_pairs(BASE | F(CTRL_VQ) | F(RSS), 4), 4);
	assert_int_equal(vsb_net_pairs(BASE | F(CTRL_VQ) | F(HASH_REPORT), 4),
			 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_rule),
		cmocka_unit_test(pairs_with_mq_or_rss),
		cmocka_unit_test(hash_report_needs_cvq_only_on_offer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
