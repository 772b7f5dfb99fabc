// SPDX-License-Identifier: GPL-2.0-only
/*
 * The receive filter (kmod/engine/vsb_filter.c), rule by rule and in QEMU's
 * order: without CTRL_RX only multicast and the device's own MAC pass;
 * promiscuous mode passes everything; with CTRL_VLAN a tagged frame needs
 * its VLAN id in the table; then broadcast (NOBCAST), multicast (NOMULTI,
 * ALLMULTI, overflow, table) and unicast (NOUNI, ALLUNI, overflow, own MAC,
 * table).
 *
 * Each row is one frame against one state. The state starts from
 * vsb_net_ctrl_reset() with both MAC tables and the VLAN table filled, and
 * the row's S_* flags set on top. Every frame is allocated at exactly its
 * length, so that a read past it is caught by ASan. Every failing row is
 * printed before the test fails.
 */

#include "unit.h"

#include "vsb_filter.h"

#define FRAME_LEN 64
/* A row's tag: 0 for none, else TAG(tci) with the tag's TCI. */
#define TAG(tci) (0x10000 | (tci))

#define RXF FEATURE(VIRTIO_NET_F_CTRL_RX)
#define VLF FEATURE(VIRTIO_NET_F_CTRL_VLAN)
#define RXV (RXF | VLF)

/* State flags set on top of the base state. */
#define S_PROMISC BIT(0)
#define S_ALLMULTI BIT(1)
#define S_ALLUNI BIT(2)
#define S_NOMULTI BIT(3)
#define S_NOUNI BIT(4)
#define S_NOBCAST BIT(5)
#define S_UNI_OVERFLOW BIT(6) /* as MAC_TABLE_SET leaves it: count 0 */
#define S_MULTI_OVERFLOW BIT(7)
#define S_NO_VLANS BIT(8) /* VLAN table empty */

static const u8 own[] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x01 };
/* own MAC with one bit changed: first byte, last byte, the group bit */
static const u8 own_first[] = { 0x06, 0xaa, 0xbb, 0xcc, 0xdd, 0x01 };
static const u8 own_last[] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x03 };
static const u8 own_group[] = { 0x03, 0xaa, 0xbb, 0xcc, 0xdd, 0x01 };
static const u8 src[] = { 0x02, 0x99, 0x99, 0x99, 0x99, 0x99 };
/* in the unicast table, and not */
static const u8 uni_t[] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x10 };
static const u8 uni_x[] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x99 };
/* in the multicast table, and not */
static const u8 mc_t[] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
static const u8 mc_x[] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x99 };
static const u8 bcast[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
/* multicast, but not broadcast */
static const u8 near_bcast[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe };
/* in the wrong table: a multicast address in the unicast one, and back */
static const u8 mc_in_uni[] = { 0x33, 0x33, 0x00, 0x00, 0x00, 0x07 };
static const u8 uni_in_mc[] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x77 };

/* VLAN ids in the base state's table. */
static const u16 vids[] = { 0, 63, 100, 4095 };

struct filter_case {
	const char *name;
	u64 features;
	unsigned int state; /* S_* */
	const u8 *dest;
	u32 tag; /* 0 or TAG(tci) */
	bool want; /* accepted */
	u32 len; /* 0: FRAME_LEN */
	u16 tpid; /* with a tag; 0: 802.1Q */
};

/* A row of a full-length frame, and one of len bytes. */
#define F(name, features, state, dest, tag, want)            \
	{                                                    \
		name, features, state, dest, tag, want, 0, 0 \
	}
#define FL(name, features, state, dest, tag, want, len)        \
	{                                                      \
		name, features, state, dest, tag, want, len, 0 \
	}

static void build_state(struct vsb_net_ctrl *s, const struct filter_case *c)
{
	unsigned int i;

	vsb_net_ctrl_reset(s, own, 1, c->features);
	s->uni.count = 2;
	memcpy(s->uni.addr[0], uni_t, ETH_ALEN);
	memcpy(s->uni.addr[1], mc_in_uni, ETH_ALEN);
	s->multi.count = 2;
	memcpy(s->multi.addr[0], uni_in_mc, ETH_ALEN);
	memcpy(s->multi.addr[1], mc_t, ETH_ALEN);
	if (!(c->state & S_NO_VLANS))
		for (i = 0; i < ARRAY_SIZE(vids); i++)
			s->vlans[vids[i] / 64] |= 1ULL << (vids[i] % 64);
	s->rx.promisc = c->state & S_PROMISC;
	s->rx.allmulti = c->state & S_ALLMULTI;
	s->rx.alluni = c->state & S_ALLUNI;
	s->rx.nomulti = c->state & S_NOMULTI;
	s->rx.nouni = c->state & S_NOUNI;
	s->rx.nobcast = c->state & S_NOBCAST;
	if (c->state & S_UNI_OVERFLOW) {
		s->uni.overflow = true;
		s->uni.count = 0;
	}
	if (c->state & S_MULTI_OVERFLOW) {
		s->multi.overflow = true;
		s->multi.count = 0;
	}
}

/* The row's frame on the heap, exactly *len bytes. */
static u8 *build_frame(const struct filter_case *c, u32 *len)
{
	u8 full[FRAME_LEN], *frame;
	u32 i, at = 2 * ETH_ALEN;

	memcpy(full, c->dest, ETH_ALEN);
	memcpy(full + ETH_ALEN, src, ETH_ALEN);
	if (c->tag) {
		u16 tpid = c->tpid ?: ETH_P_8021Q;

		full[at++] = tpid >> 8;
		full[at++] = tpid;
		full[at++] = (c->tag >> 8) & 0xff;
		full[at++] = c->tag & 0xff;
	}
	/* IPv4 */
	full[at++] = 0x08;
	full[at++] = 0x00;
	for (i = at; i < FRAME_LEN; i++)
		full[i] = i;
	*len = c->len ?: FRAME_LEN;
	assert_true(*len >= ETH_ALEN && *len <= FRAME_LEN);
	frame = malloc(*len);
	assert_non_null(frame);
	memcpy(frame, full, *len);
	return frame;
}

static void run_cases(const struct filter_case *c, size_t n)
{
	unsigned int bad = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct vsb_net_ctrl s;
		struct vsb_rx_filter filter, saved;
		u32 len;
		u8 *frame = build_frame(&c[i], &len);
		bool got;

		build_state(&s, &c[i]);
		vsb_rx_filter_build(&filter, &s, c[i].features);
		memcpy(&saved, &filter, sizeof(filter));
		got = vsb_rx_filter_accepts(&filter, frame, len);
		free(frame);
		if (got != c[i].want) {
			print_error("%s: %s, want %s\n", c[i].name,
				    got ? "accepted" : "dropped",
				    c[i].want ? "accepted" : "dropped");
			bad++;
		}
		if (memcmp(&filter, &saved, sizeof(filter))) {
			print_error("%s: filter changed\n", c[i].name);
			bad++;
		}
	}
	if (bad)
		fail_msg("%u of %zu rows wrong", bad, n);
}

#define RUN_CASES(cases) run_cases(cases, ARRAY_SIZE(cases))

/* Without CTRL_RX: multicast and the own MAC, whatever the state says. */
static void filter_without_ctrl_rx_legacy(void **state)
{
	static const struct filter_case cases[] = {
		F("own MAC", 0, 0, own, 0, true),
		F("foreign unicast", 0, 0, uni_x, 0, false),
		F("own MAC but the last byte", 0, 0, own_last, 0, false),
		F("own MAC but the first byte", 0, 0, own_first, 0, false),
		F("unicast table ignored", 0, 0, uni_t, 0, false),
		F("unicast overflow ignored", 0, S_UNI_OVERFLOW, uni_x, 0,
		  false),
		F("alluni ignored", 0, S_ALLUNI, uni_x, 0, false),
		F("promisc ignored", 0, S_PROMISC, uni_x, 0, false),
		F("nouni ignored", 0, S_NOUNI, own, 0, true),
		F("multicast not in table", 0, 0, mc_x, 0, true),
		F("multicast in table", 0, 0, mc_t, 0, true),
		F("own MAC with the group bit", 0, 0, own_group, 0, true),
		F("nomulti ignored", 0, S_NOMULTI, mc_x, 0, true),
		F("broadcast", 0, 0, bcast, 0, true),
		F("nobcast ignored", 0, S_NOBCAST, bcast, 0, true),
		F("tagged, VLAN table ignored", 0, S_NO_VLANS, own, TAG(5),
		  true),
		F("CTRL_VLAN alone: VLAN table ignored", VLF, S_NO_VLANS, own,
		  TAG(5), true),
		F("CTRL_VLAN alone: tagged foreign unicast", VLF, 0, uni_x,
		  TAG(100), false),
		F("CTRL_RX_EXTRA alone: promisc ignored",
		  FEATURE(VIRTIO_NET_F_CTRL_RX_EXTRA), S_PROMISC, uni_x, 0,
		  false),
	};

	(void)state;
	RUN_CASES(cases);
}

static void filter_broadcast(void **state)
{
	static const struct filter_case cases[] = {
		F("broadcast", RXF, 0, bcast, 0, true),
		F("nobcast", RXF, S_NOBCAST, bcast, 0, false),
		F("nobcast over allmulti", RXF, S_NOBCAST | S_ALLMULTI, bcast,
		  0, false),
		F("nobcast over multicast overflow", RXF,
		  S_NOBCAST | S_MULTI_OVERFLOW, bcast, 0, false),
		F("nobcast over alluni", RXF, S_NOBCAST | S_ALLUNI, bcast, 0,
		  false),
		F("nomulti spares broadcast", RXF, S_NOMULTI, bcast, 0, true),
		F("nouni spares broadcast", RXF, S_NOUNI, bcast, 0, true),
		F("ff:..:fe is multicast, not broadcast", RXF, 0, near_bcast, 0,
		  false),
		F("ff:..:fe with nobcast and allmulti", RXF,
		  S_NOBCAST | S_ALLMULTI, near_bcast, 0, true),
	};

	(void)state;
	RUN_CASES(cases);
}

static void filter_multicast(void **state)
{
	static const struct filter_case cases[] = {
		F("in table", RXF, 0, mc_t, 0, true),
		F("not in table", RXF, 0, mc_x, 0, false),
		F("allmulti", RXF, S_ALLMULTI, mc_x, 0, true),
		F("table overflow", RXF, S_MULTI_OVERFLOW, mc_x, 0, true),
		F("nomulti drops a table hit", RXF, S_NOMULTI, mc_t, 0, false),
		F("nomulti over allmulti", RXF, S_NOMULTI | S_ALLMULTI, mc_x, 0,
		  false),
		F("nomulti over overflow", RXF, S_NOMULTI | S_MULTI_OVERFLOW,
		  mc_x, 0, false),
		F("unicast table not searched", RXF, 0, mc_in_uni, 0, false),
		F("unicast overflow does not pass it", RXF, S_UNI_OVERFLOW,
		  mc_x, 0, false),
		F("alluni does not pass it", RXF, S_ALLUNI, mc_x, 0, false),
		F("own MAC with the group bit", RXF, 0, own_group, 0, false),
		F("nouni does not drop it", RXF, S_NOUNI, mc_t, 0, true),
	};

	(void)state;
	RUN_CASES(cases);
}

static void filter_unicast(void **state)
{
	static const struct filter_case cases[] = {
		F("own MAC", RXF, 0, own, 0, true),
		F("foreign", RXF, 0, uni_x, 0, false),
		F("own MAC but the last byte", RXF, 0, own_last, 0, false),
		F("own MAC but the first byte", RXF, 0, own_first, 0, false),
		F("in table", RXF, 0, uni_t, 0, true),
		F("multicast table not searched", RXF, 0, uni_in_mc, 0, false),
		F("alluni", RXF, S_ALLUNI, uni_x, 0, true),
		F("table overflow", RXF, S_UNI_OVERFLOW, uni_x, 0, true),
		F("table overflow, own MAC", RXF, S_UNI_OVERFLOW, own, 0, true),
		F("multicast overflow does not pass it", RXF, S_MULTI_OVERFLOW,
		  uni_x, 0, false),
		F("allmulti does not pass it", RXF, S_ALLMULTI, uni_x, 0,
		  false),
		F("nouni drops own MAC", RXF, S_NOUNI, own, 0, false),
		F("nouni drops a table hit", RXF, S_NOUNI, uni_t, 0, false),
		F("nouni over alluni", RXF, S_NOUNI | S_ALLUNI, uni_x, 0,
		  false),
		F("nouni over overflow", RXF, S_NOUNI | S_UNI_OVERFLOW, uni_x,
		  0, false),
		F("nomulti does not drop it", RXF, S_NOMULTI, own, 0, true),
		F("nobcast does not drop it", RXF, S_NOBCAST, own, 0, true),
	};

	(void)state;
	RUN_CASES(cases);
}

/* Promiscuous mode comes before every other rule, VLANs included. */
static void filter_promisc_over_everything(void **state)
{
	static const struct filter_case cases[] = {
		F("foreign unicast", RXF, S_PROMISC, uni_x, 0, true),
		F("over nouni", RXF, S_PROMISC | S_NOUNI, own, 0, true),
		F("over nouni, foreign", RXF, S_PROMISC | S_NOUNI, uni_x, 0,
		  true),
		F("over nomulti", RXF, S_PROMISC | S_NOMULTI, mc_x, 0, true),
		F("over nobcast", RXF, S_PROMISC | S_NOBCAST, bcast, 0, true),
		F("over a VLAN not in the table", RXV, S_PROMISC, uni_x, TAG(5),
		  true),
		F("over an empty VLAN table", RXV, S_PROMISC | S_NO_VLANS, own,
		  TAG(0), true),
		F("off: foreign unicast", RXV, 0, uni_x, 0, false),
	};

	(void)state;
	RUN_CASES(cases);
}

/* The base state's VLAN table holds 0, 63, 100 and 4095. */
static void filter_vlan(void **state)
{
	static const struct filter_case cases[] = {
		F("tagged 100, in table", RXV, 0, own, TAG(100), true),
		F("tagged 101, not in table", RXV, 0, own, TAG(101), false),
		F("tagged 0", RXV, 0, own, TAG(0), true),
		F("tagged 63", RXV, 0, own, TAG(63), true),
		F("tagged 64", RXV, 0, own, TAG(64), false),
		F("tagged 4094", RXV, 0, own, TAG(4094), false),
		F("tagged 4095", RXV, 0, own, TAG(4095), true),
		F("PCP 7, DEI, VID 100", RXV, 0, own, TAG(0xf064), true),
		F("PCP 7, VID 101", RXV, 0, own, TAG(0xe065), false),
		F("PCP 1, VID 0", RXV, 0, own, TAG(0x2000), true),
		F("not in table, over broadcast", RXV, 0, bcast, TAG(101),
		  false),
		F("not in table, over allmulti", RXV, S_ALLMULTI, mc_x,
		  TAG(101), false),
		F("not in table, over a multicast hit", RXV, 0, mc_t, TAG(101),
		  false),
		F("not in table, over alluni", RXV, S_ALLUNI, uni_x, TAG(101),
		  false),
		F("not in table, over unicast overflow", RXV, S_UNI_OVERFLOW,
		  uni_x, TAG(101), false),
		F("in table, foreign unicast still dropped", RXV, 0, uni_x,
		  TAG(100), false),
		F("in table, multicast miss still dropped", RXV, 0, mc_x,
		  TAG(100), false),
		F("in table, multicast hit", RXV, 0, mc_t, TAG(100), true),
		F("in table, broadcast with nobcast", RXV, S_NOBCAST, bcast,
		  TAG(100), false),
		F("in table, nouni", RXV, S_NOUNI, own, TAG(100), false),
		F("untagged, table empty", RXV, S_NO_VLANS, own, 0, true),
		F("untagged broadcast, table empty", RXV, S_NO_VLANS, bcast, 0,
		  true),
		F("tagged 0, table empty", RXV, S_NO_VLANS, own, TAG(0), false),
		{ "802.1ad tag is not 802.1Q", RXV, S_NO_VLANS, own, TAG(101),
		  true, 0, ETH_P_8021AD },
		F("no CTRL_VLAN: tagged 101", RXF, 0, own, TAG(101), true),
		F("no CTRL_VLAN: tagged, table empty", RXF, S_NO_VLANS, own,
		  TAG(0), true),
		F("no CTRL_VLAN: tagged foreign", RXF, 0, uni_x, TAG(100),
		  false),
	};

	(void)state;
	RUN_CASES(cases);
}

/*
 * Frames down to the destination address alone, allocated at exactly
 * their length. A frame too short for a whole tag (under 16 bytes) has no
 * VLAN id to check and is filtered as untagged.
 */
static void filter_short_frames(void **state)
{
	static const struct filter_case cases[] = {
		FL("6 bytes, own MAC", RXV, S_NO_VLANS, own, 0, true, 6),
		FL("6 bytes, foreign", RXV, 0, uni_x, 0, false, 6),
		FL("6 bytes, broadcast", RXV, 0, bcast, 0, true, 6),
		FL("6 bytes, broadcast, nobcast", RXV, S_NOBCAST, bcast, 0,
		   false, 6),
		FL("6 bytes, legacy own MAC", 0, 0, own, 0, true, 6),
		FL("6 bytes, legacy foreign", 0, 0, uni_x, 0, false, 6),
		FL("12 bytes, own MAC", RXV, S_NO_VLANS, own, 0, true, 12),
		FL("13 bytes, half a tag type", RXV, S_NO_VLANS, own, TAG(101),
		   true, 13),
		FL("14 bytes, tag type only", RXV, S_NO_VLANS, own, TAG(101),
		   true, 14),
		FL("15 bytes, half a TCI", RXV, S_NO_VLANS, own, TAG(101), true,
		   15),
		FL("15 bytes, half a TCI, foreign", RXV, 0, uni_x, TAG(100),
		   false, 15),
		FL("16 bytes, VID 101 not in table", RXV, 0, own, TAG(101),
		   false, 16),
		FL("16 bytes, VID 100 in table", RXV, 0, own, TAG(100), true,
		   16),
		FL("16 bytes, no CTRL_VLAN", RXF, S_NO_VLANS, own, TAG(101),
		   true, 16),
		FL("16 bytes, promisc", RXV, S_PROMISC | S_NO_VLANS, uni_x,
		   TAG(101), true, 16),
	};

	(void)state;
	RUN_CASES(cases);
}

/* The fields accepting a frame depends on, tables by their entries. */
static bool filter_equal(const struct vsb_rx_filter *a,
			 const struct vsb_rx_filter *b)
{
	const struct vsb_mac_table *ta[] = { &a->uni, &a->multi };
	const struct vsb_mac_table *tb[] = { &b->uni, &b->multi };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ta); i++)
		if (ta[i]->count != tb[i]->count ||
		    ta[i]->overflow != tb[i]->overflow ||
		    memcmp(ta[i]->addr, tb[i]->addr, ta[i]->count * ETH_ALEN))
			return false;
	return a->ctrl_rx == b->ctrl_rx && a->ctrl_vlan == b->ctrl_vlan &&
	       a->rx.promisc == b->rx.promisc &&
	       a->rx.allmulti == b->rx.allmulti &&
	       a->rx.alluni == b->rx.alluni && a->rx.nomulti == b->rx.nomulti &&
	       a->rx.nouni == b->rx.nouni && a->rx.nobcast == b->rx.nobcast &&
	       !memcmp(a->mac, b->mac, ETH_ALEN) &&
	       !memcmp(a->vlans, b->vlans, sizeof(a->vlans));
}

/*
 * The module updates its filter once per batch with what the batch
 * changed: an update copies exactly the parts named, and leaves the rest
 * as the last build or update made them.
 */
static void filter_update_copies_only_what_changed(void **state)
{
	static const u32 parts[] = {
		VSB_CTRL_CHANGED_MAC,	    VSB_CTRL_CHANGED_RX_MODES,
		VSB_CTRL_CHANGED_MAC_TABLE, VSB_CTRL_CHANGED_VLANS,
		VSB_CTRL_CHANGED_FILTER,    0,
	};
	const struct filter_case base = F("base", RXV, 0, own, 0, true);
	struct vsb_net_ctrl old, new, mix;
	struct vsb_rx_filter got, want;
	unsigned int i;

	(void)state;
	build_state(&old, &base);
	new = old;
	memcpy(new.mac, src, ETH_ALEN);
	new.rx.promisc = true;
	new.rx.nobcast = true;
	new.uni.count = 1;
	new.multi.overflow = true;
	new.multi.count = 0;
	new.vlans[1] ^= 0x5a;
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		mix = old;
		if (parts[i] & VSB_CTRL_CHANGED_MAC)
			memcpy(mix.mac, new.mac, ETH_ALEN);
		if (parts[i] & VSB_CTRL_CHANGED_RX_MODES) {
			mix.rx.promisc = new.rx.promisc;
			mix.rx.nobcast = new.rx.nobcast;
		}
		if (parts[i] & VSB_CTRL_CHANGED_MAC_TABLE) {
			mix.uni = new.uni;
			mix.multi = new.multi;
		}
		if (parts[i] & VSB_CTRL_CHANGED_VLANS)
			memcpy(mix.vlans, new.vlans, sizeof(mix.vlans));
		vsb_rx_filter_build(&got, &old, RXV);
		vsb_rx_filter_update(&got, &new, parts[i]);
		vsb_rx_filter_build(&want, &mix, RXV);
		if (!filter_equal(&got, &want))
			fail_msg("update of parts %#x", parts[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(filter_without_ctrl_rx_legacy),
		cmocka_unit_test(filter_broadcast),
		cmocka_unit_test(filter_multicast),
		cmocka_unit_test(filter_unicast),
		cmocka_unit_test(filter_promisc_over_everything),
		cmocka_unit_test(filter_vlan),
		cmocka_unit_test(filter_short_frames),
		cmocka_unit_test(filter_update_copies_only_what_changed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
