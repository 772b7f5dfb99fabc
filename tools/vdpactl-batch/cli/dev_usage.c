// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "dev" commands' usage text.
 */
#include <stdio.h>

#include "cli/dev_usage.h"

/* USAGE(name, notes, synopsis lines...) */
#define USAGE(name, text, ...)                                          \
	const struct usage name = {                                     \
		.synopsis = (const char *const[]){ __VA_ARGS__, NULL }, \
		.notes = text,                                          \
	}

USAGE(dev_show_usage,
      "Shows vDPA devices (all, or DEV), as \"vdpa dev show\".\n",
      "dev { show | list } [ DEV ]");

USAGE(dev_add_usage,
      "As \"vdpa dev add\": MTU 68..65535, MAX_VQ_PAIRS 1..32768, FEATURES a\n"
      "64-bit mask in hex (0x optional), MACADDR six bytes of one or two hex\n"
      "digits (2:0:0:0:0:1).\n",
      "dev add name NAME mgmtdev MANAGEMENTDEV [ mac MACADDR ] [ mtu MTU ]",
      "                             [ max_vqp MAX_VQ_PAIRS ] [ device_features FEATURES ]");

USAGE(dev_del_usage, "Deletes a vDPA device.\n", "dev del DEV");

USAGE(dev_config_usage,
      "Shows the configuration space (of all devices, or DEV).\n",
      "dev config show [ DEV ]");

USAGE(dev_set_usage,
      "Changes a device's MAC address, as \"vdpa dev set\" (Linux 6.12).\n"
      "\"dev set DEV completion ...\" is the old spelling of \"dev batching\".\n",
      "dev set name DEV mac MACADDR");

USAGE(dev_batching_usage,
      "Only vdpa_sim_batch devices have these. N: commands per batch,\n"
      "0 for the ring size (the module takes 0 to 4096; it checks).\n"
      "With DEV alone, shows the settings; changing them needs\n"
      "CAP_NET_ADMIN. The CVQ cost model: " PROG_NAME " dev cost help.\n",
      "dev batching DEV [ completion { batch | immediate } ] [ batch_limit N ]");

USAGE(dev_cost_usage,
      "A vdpa_sim_batch device's CVQ cost model, a model and no measurement:\n"
      "each publish of the used index (per command in immediate completion,\n"
      "per batch in batch completion) costs op, plus cmd and the extra of\n"
      "its class for each command it completes; the device sleeps it\n"
      "(precise on: sleeps, then spins to the deadline, spending CPU).\n"
      "TIME: a number and a unit, ns, us, ms or s (2.5us), at most 1s;\n"
      "0 turns an item off. Without items, shows the model; with items,\n"
      "changes only those (CAP_NET_ADMIN), then shows it.\n",
      "dev cost DEV [ op TIME ] [ cmd TIME ] [ rx TIME ]",
      "           [ mac TIME ] [ mac_table TIME ] [ vlan TIME ] [ announce TIME ]",
      "           [ mq TIME ] [ rss TIME ] [ offloads TIME ] [ coal TIME ]",
      "           [ stats TIME ] [ precise { on | off } ]");

USAGE(dev_state_usage,
      "A vdpa_sim_batch device's control state (MAC, filters, queues, ...)\n"
      "and batching settings. The state is the device's only while a driver\n"
      "holds it: it resets on every open and close of its vhost-vdpa device.\n",
      "dev state [ DEV ]");

USAGE(dev_vstats_usage,
      "iproute2's spelling of \"" PROG_NAME " stats DEV [ qidx N ]\", which\n"
      "also takes reset: " PROG_NAME " stats help.\n",
      "dev vstats show DEV [ qidx QUEUE_INDEX ]");

USAGE(dev_link_usage,
      "Only vdpa_sim_batch devices have this; it needs CAP_NET_ADMIN.\n"
      "The link stays as set across device resets; it needs a device\n"
      "that offers STATUS.\n",
      "dev link DEV { up | down }");

USAGE(dev_announce_usage,
      "Only vdpa_sim_batch devices have this; it needs CAP_NET_ADMIN and\n"
      "a running driver that negotiated GUEST_ANNOUNCE.\n",
      "dev announce DEV");

USAGE(dev_fault_show_usage,
      "A vdpa_sim_batch device's CVQ fault rules (every device's without\n"
      "DEV), in the order the device consults them, each with the commands\n"
      "it counted (matched) and those it acted on (hits).\n",
      "dev fault [ DEV [ show ] ]");

USAGE(dev_fault_add_usage,
      "Adds a rule after the device's others (16 at most; CAP_NET_ADMIN) and\n"
      "shows them. Each CVQ command counts for every rule whose class (and\n"
      "cmd) it has; the first rule that fires acts on it: nack acks it ERR,\n"
      "stall takes it and ends the CVQ's service until a reset, delay\n"
      "completes it TIME later (500us, 2ms; at most 1s), reorder after a later\n"
      "command, silent without a notification, reset sets DEVICE_NEEDS_RESET.\n"
      "CLASS: RX, MAC, VLAN, ANNOUNCE, MQ, GUEST_OFFLOADS, NOTF_COAL, STATS or\n"
      "a number; CMD: one of its commands as load names it (MAC_ADDR_SET) or\n"
      "without the class (addr_set), or a number. A rule fires when all it\n"
      "gives holds: the Nth command it counted, every Nth, a draw of its own\n"
      "generator (seeded with seed) under P percent (12.5 or 12.5%, at most 4\n"
      "decimals), fewer than times N firings so far. A device reset drops\n"
      "the rules but those with persist.\n",
      "dev fault DEV add ACTION [ class CLASS [ cmd CMD ] ] [ nth N ]",
      "           [ every N ] [ probability P ] [ seed N ] [ times N ] [ persist ]",
      "       ACTION := { nack | stall | delay TIME | reorder | silent | reset }");

USAGE(dev_fault_clear_usage,
      "Drops every fault rule of the device (CAP_NET_ADMIN).\n",
      "dev fault DEV clear");

void dev_usage(void)
{
	static const struct usage *const all[] = {
		&dev_show_usage,      &dev_add_usage,
		&dev_del_usage,	      &dev_config_usage,
		&dev_set_usage,	      &dev_batching_usage,
		&dev_cost_usage,      &dev_state_usage,
		&dev_vstats_usage,    &dev_link_usage,
		&dev_announce_usage,  &dev_fault_show_usage,
		&dev_fault_add_usage, &dev_fault_clear_usage,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(all); i++)
		usage_print(all[i], i == 0, false);
	fprintf(stderr, "       " PROG_NAME " dev COMMAND help\n");
}

void dev_fault_usage(void)
{
	static const struct usage *const all[] = {
		&dev_fault_show_usage,
		&dev_fault_add_usage,
		&dev_fault_clear_usage,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(all); i++)
		usage_print(all[i], i == 0, false);
	for (i = 0; i < ARRAY_SIZE(all); i++)
		fputs(all[i]->notes, stderr);
}
