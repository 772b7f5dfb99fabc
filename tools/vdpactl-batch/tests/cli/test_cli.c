// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The whole command line, run in-process against a fake sysfs tree and
 * fake device-facing layers: a table of argument vectors and the exit
 * status each must give, then checks of what some of them print.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/interrupt.h"
#include "cli/vdpactl.h"
#include "netlink/vdpa_msg.h"
#include "tests/cli/fake_backend.h"
#include "tests/cli/testbed_tree.h"

#define MAX_ARGS 64

/* A fault rule with every setting, names in lower case. */
#define FAULT_ADD_ALL                                                       \
	"dev fault vdpa0 add delay 500us class mac cmd mac_addr_set nth 2 " \
	"every 3 probability 12.5% seed 7 times 4 persist"

struct cli_case {
	int status;
	const char *cmdline;
};

static const struct cli_case cases[] = {
	/* global options and objects; bare, as iproute2: usage, success */
	{ CMD_OK, "" },
	{ CMD_OK, "help" },
	{ CMD_OK, "-h" },
	{ CMD_OK, "-V" },
	{ CMD_OK, "--version" },
	{ CMD_USAGE, "-x" },
	{ CMD_USAGE, "--jsonx" },
	{ CMD_USAGE, "--ver" }, /* version or verbose */
	{ CMD_USAGE, "frobnicate" },
	{ CMD_USAGE, "loadx --count 1" },
	{ CMD_USAGE, "-j" },
	/* help at every level */
	{ CMD_OK, "load help" },
	{ CMD_OK, "load --help" },
	{ CMD_OK, "load --count 30 help" },
	{ CMD_OK, "compare help" },
	{ CMD_OK, "dev help" },
	{ CMD_OK, "dev add help" },
	{ CMD_OK, "dev del help" },
	{ CMD_OK, "dev config help" },
	{ CMD_OK, "mgmtdev help" },
	{ CMD_OK, "stats help" },
	{ CMD_OK, "stats vdpa0 help" },
	{ CMD_OK, "dev show help" },
	{ CMD_OK, "dev list help" },
	{ CMD_OK, "dev config show help" },
	{ CMD_OK, "dev set help" },
	{ CMD_OK, "dev batching help" },
	{ CMD_OK, "dev cost help" },
	{ CMD_OK, "dev state help" },
	{ CMD_OK, "dev link help" },
	{ CMD_OK, "dev announce help" },
	{ CMD_OK, "dev fault help" },
	{ CMD_OK, "dev fault vdpa0 help" },
	{ CMD_OK, "dev fault vdpa0 add help" },
	{ CMD_OK, "dev fault vdpa0 add nack class MAC help" },
	{ CMD_OK, "dev fault vdpa0 show help" },
	{ CMD_OK, "dev fault vdpa0 clear help" },
	{ CMD_OK, "mgmtdev show help" },
	{ CMD_OK, "mgmtdev list help" },
	{ CMD_OK, "inject help" },
	{ CMD_OK, "inject list help" },
	{ CMD_OK, "inject next-loop --help" },
	{ CMD_OK, "compare --count 30 help" },
	{ CMD_USAGE, "inject list -j" },
	{ CMD_USAGE, "inject list extra" },
	{ CMD_USAGE, "inject" },
	/* load: arguments */
	{ CMD_USAGE, "load" },
	{ CMD_USAGE, "load --dev vdpa0" },
	{ CMD_USAGE, "load --count" },
	{ CMD_USAGE, "load --count 0 --dev vdpa0" },
	{ CMD_USAGE, "load --count 65537 --dev vdpa0" },
	{ CMD_OK, "load --count 65536 --rounds 1 --dev vdpa0" },
	{ CMD_USAGE, "load --count abc --dev vdpa0" },
	{ CMD_USAGE, "load --count 3x --dev vdpa0" },
	{ CMD_USAGE, "load --count -5 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --rounds 0 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --rounds 1000001 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --mode sideways --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --kick twice --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --wait nap --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --profile nope --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --timeout 0 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --timeout 600001 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --ring-size 48 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --ring-size 65536 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --ring loop --dev vdpa0" },
	{ CMD_USAGE,
	  "load --count 30 --ring split --ring-size 48 --dev vdpa0" },
	{ CMD_USAGE, "compare --count 30 --ring-size 48 --dev vdpa0" },
	/* vhost refuses it for a packed ring too */
	{ CMD_USAGE,
	  "load --count 30 --ring packed --ring-size 48 --dev vdpa0" },
	{ CMD_OK, "load --count 30 --ring p --dev vdpa0" },
	{ CMD_OK, "compare --count 30 --rounds 3 --ring packed --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --asid=yes --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --count 31 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 extra --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --bogus 1 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --r 5 --dev vdpa0" }, /* ambiguous */
	{ CMD_USAGE, "load --count 30 --dev" },
	{ CMD_OK, "load --count 30 --ro 5 --dev vdpa0" },
	{ CMD_OK, "load --count 30 --mode par --dev vdpa0" },
	{ CMD_OK, "load --count=30 --dev=vdpa0 --mode=parallel --kick once "
		  "--wait call --profile qemu --asid --timeout 5 "
		  "--ring-size 256" },
	{ CMD_OK, "l --count 3 --dev vdpa0" },
	{ CMD_OK, "-j load --count 30 --dev vdpa0" },
	{ CMD_OK, "-jp -vv load --count 30 --dev vdpa0" },
	{ CMD_OK, "--json --pretty --verbose load --count 1 --dev vdpa0" },
	/* load: devices */
	{ CMD_USAGE, "load --count 30" }, /* several are bound */
	{ CMD_FAIL, "load --count 30 --dev vdpa9" },
	{ CMD_FAIL, "load --count 30 --dev vdpa1" }, /* virtio_vdpa */
	{ CMD_FAIL, "load --count 30 --dev vdpa4" }, /* unbound */
	{ CMD_USAGE, "load --count 30 --dev ../vdpa0" },
	{ CMD_USAGE, "load --count 30 --dev=" },
	{ CMD_USAGE, "load --count 30 --dev a/b" },
	/* longer than 63 bytes: refused whole, never cut */
	{ CMD_USAGE,
	  "load --count 30 --dev "
	  "vdpa0123456789012345678901234567890123456789012345678901234567890" },
	{ CMD_USAGE, "inject next-loop --dev ../vdpa0" },
	{ CMD_USAGE, "load --count 30 --dev vdpa0 --dev vdpa0" },
	{ CMD_FAIL, "load --count 30 --dev vdpa2" }, /* NACK */
	{ CMD_FAIL, "load --count 30 --dev vdpa5" }, /* busy */
	/* compare */
	{ CMD_USAGE, "compare" },
	{ CMD_USAGE, "compare --rounds 10" },
	{ CMD_USAGE, "compare --count 30 --mode serial" },
	{ CMD_OK, "compare --count 30 --rounds 10 --dev vdpa0" },
	{ CMD_OK, "compare --count 30 --rounds 10 --dev vdpa0 --csv" },
	{ CMD_USAGE, "-j compare --count 30 --dev vdpa0 --csv" },
	{ CMD_USAGE, "compare --count 30 --dev vdpa0 --dev vdpa0" },
	{ CMD_FAIL, "compare --count 30 --rounds 2" }, /* vdpa5 is busy */
	{ CMD_FAIL, "compare --count 30 --dev vdpa0 --dev vdpa1" },
	{ CMD_OK, "compare --count 30 --rounds 3 --dev vdpa0 --cpu" },
	{ CMD_OK, "compare --count 30 --rounds 3 --dev vdpa0 --cpu --csv" },
	{ CMD_OK,
	  "compare --count 30 --rounds 3 --dev vdpa0 --samples /dev/null" },
	{ CMD_FAIL,
	  "compare --count 30 --rounds 3 --dev vdpa0 --samples /nonexistent/s" },
	{ CMD_USAGE, "compare --count 30 --dev vdpa0 --samples" },
	{ CMD_OK, "compare --count 30 --rounds 3 --turn 2 --dev vdpa0" },
	{ CMD_USAGE, "compare --count 30 --turn 0 --dev vdpa0" },
	{ CMD_OK, "compare --count 30 --rounds 1 --first-round 7 --dev vdpa0" },
	{ CMD_OK, "compare --count 30 --rounds 1 --first 1000000 --dev vdpa0" },
	{ CMD_USAGE, "compare --count 30 --first-round 1000001 --dev vdpa0" },
	{ CMD_USAGE, "compare --count 30 --first-round -1 --dev vdpa0" },
	{ CMD_USAGE, "load --count 30 --first-round 1 --dev vdpa0" },
	{ CMD_USAGE,
	  "compare --count 30 --rounds 1000000 --turn 2 --dev vdpa0" },
	{ CMD_OK,
	  "compare --count 30 --rounds 3 --dev vdpa0 --baseline vdpa0" },
	{ CMD_USAGE, "compare --count 30 --dev vdpa0 --baseline vdpa3" },
	{ CMD_USAGE, "compare --count 30 --dev vdpa0 --baseline" },
	{ CMD_USAGE, "compare --count 30 --dev a --dev b --dev c --dev d "
		     "--dev e --dev f --dev g --dev h --dev i --dev j "
		     "--dev k --dev l --dev m --dev n --dev o --dev p "
		     "--dev q" },
	/* dev */
	{ CMD_OK, "dev" },
	{ CMD_OK, "dev show" },
	{ CMD_OK, "dev list" },
	{ CMD_OK, "dev show vdpa0" },
	{ CMD_OK, "-j dev show vdpa0" },
	{ CMD_FAIL, "dev show vdpa9" },
	{ CMD_USAGE, "dev show vdpa0 vdpa2" },
	{ CMD_USAGE, "dev frob" },
	{ CMD_OK, "dev add name vdpa7 mgmtdev vdpasim_net mac "
		  "02:00:00:00:00:07 mtu 1500 max_vqp 2 device_features "
		  "0x300020000" },
	{ CMD_OK, "dev add name vdpa7 mgmtdev pci/0000:00:03.0" },
	{ CMD_USAGE, "dev add" },
	{ CMD_USAGE, "dev add name vdpa7" },
	{ CMD_USAGE, "dev add mgmtdev vdpasim_net" },
	{ CMD_USAGE, "dev add name vdpa7 mgmtdev vdpasim_net mtu 67" },
	{ CMD_USAGE, "dev add name vdpa7 mgmtdev vdpasim_net mtu 65536" },
	{ CMD_USAGE, "dev add name vdpa7 mgmtdev vdpasim_net max_vqp 0" },
	{ CMD_USAGE, "dev add name vdpa7 mgmtdev vdpasim_net mac 02:00" },
	{ CMD_USAGE, "dev add name vdpa7 mgmtdev a/b/c" },
	{ CMD_USAGE, "dev add name vdpa7 mgmtdev vdpasim_net color red" },
	{ CMD_FAIL, "dev add name vdpa0 mgmtdev vdpasim_net" },
	{ CMD_OK, "dev del vdpa0" },
	{ CMD_USAGE, "dev del" },
	{ CMD_USAGE, "dev del vdpa0 vdpa2" },
	{ CMD_FAIL, "dev del vdpa9" },
	{ CMD_OK, "dev config" },
	{ CMD_OK, "dev config show" },
	{ CMD_OK, "dev config show vdpa0" },
	{ CMD_FAIL, "dev config show vdpa9" },
	/* dev set, dev state: vdpa0 is the only vdpa_sim_batch device */
	{ CMD_OK, "dev set help" },
	{ CMD_OK, "dev state help" },
	{ CMD_USAGE, "dev set" },
	{ CMD_USAGE, "dev set vdpa0" },
	{ CMD_USAGE, "dev set vdpa0 completion sometimes" },
	{ CMD_USAGE, "dev set vdpa0 batch-limit x" },
	{ CMD_USAGE, "dev set vdpa0 batch-limit 4294967296" },
	{ CMD_USAGE, "dev set vdpa0 color red" },
	{ CMD_OK, "dev set vdpa0 completion batch batch-limit 8" },
	{ CMD_OK, "dev set vdpa0 batch-limit 0" },
	{ CMD_OK, "dev set vdpa0 comp imm" },
	{ CMD_FAIL, "dev set vdpa2 completion batch" }, /* not the module's */
	{ CMD_FAIL, "dev set vdpa3 completion batch" }, /* EPERM */
	/* iproute2's "dev set name DEV mac M"; the module's under its name */
	{ CMD_OK, "dev set name vdpa0 mac 02:00:00:00:00:42" },
	{ CMD_FAIL, "dev set name vdpa9 mac 02:00:00:00:00:42" },
	{ CMD_FAIL,
	  "dev set name vdpa2 mac 02:00:00:00:00:42" }, /* EOPNOTSUPP */
	{ CMD_USAGE, "dev set name vdpa0" },
	{ CMD_USAGE, "dev set name vdpa0 mac 02:00" },
	{ CMD_USAGE, "dev set name vdpa0 mac 02:00:00:00:00:42 mtu 1500" },
	{ CMD_OK, "dev batching vdpa0 completion batch batch_limit 8" },
	{ CMD_OK, "dev batching vdpa0 completion immediate" },
	{ CMD_OK, "dev batching vdpa0 batch_limit 0" },
	{ CMD_OK, "dev batching vdpa0 completion batch batch-limit 8" },
	{ CMD_OK, "dev b vdpa0 comp imm batch 4" },
	{ CMD_OK, "dev batching vdpa0" }, /* shows the settings */
	{ CMD_OK, "-j dev batching vdpa0" },
	{ CMD_FAIL, "dev batching vdpa2" }, /* not the module's */
	{ CMD_USAGE, "dev batching vdpa0 completion sometimes" },
	{ CMD_USAGE, "dev batching vdpa0 batch_limit 1 batch-limit 2" },
	{ CMD_FAIL,
	  "dev batching vdpa2 completion batch" }, /* not the module's */
	{ CMD_OK, "dev batching help" },
	/* config or cost: ambiguous since "dev cost" */
	{ CMD_USAGE, "dev c" },
	{ CMD_OK, "dev con" },
	/* dev cost: the CVQ cost model */
	{ CMD_OK, "dev cost help" },
	{ CMD_OK, "dev cost vdpa0 help" },
	{ CMD_USAGE, "dev cost" },
	{ CMD_OK, "dev cost vdpa0" },
	{ CMD_OK, "-j dev cost vdpa0" },
	{ CMD_OK, "dev cost vdpa0 op 20us cmd 1us rx 1ns mac 2.5us "
		  "mac_table 1ms vlan 3us announce 0ns mq 1s rss 4usec "
		  "offloads 5msecs coal 6nsec stats 0.5s precise on" },
	{ CMD_OK, "dev cost vdpa0 precise off" },
	{ CMD_OK, "dev cost vdpa0 op 0s" },
	{ CMD_OK, "dev cos vdpa0 op 1us pre on" },
	{ CMD_USAGE, "dev cost vdpa0 o 1us" }, /* op or offloads */
	{ CMD_USAGE, "dev co vdpa0" }, /* config or cost */
	{ CMD_USAGE, "dev cost vdpa0 op 20" }, /* no unit */
	{ CMD_USAGE, "dev cost vdpa0 op -1us" },
	{ CMD_USAGE, "dev cost vdpa0 op 1xs" },
	{ CMD_USAGE, "dev cost vdpa0 op 1.5ns" },
	{ CMD_USAGE, "dev cost vdpa0 op 1001ms" }, /* above 1 s */
	{ CMD_USAGE, "dev cost vdpa0 op 1us op 2us" },
	{ CMD_USAGE, "dev cost vdpa0 bogus 1us" },
	{ CMD_USAGE, "dev cost vdpa0 m 1us" }, /* mac, mac_table, mq */
	{ CMD_USAGE, "dev cost vdpa0 precise maybe" },
	{ CMD_USAGE, "dev cost vdpa0 op" },
	{ CMD_FAIL, "dev cost vdpa2" }, /* not the module's */
	{ CMD_FAIL, "dev cost vdpa2 op 1us" },
	{ CMD_FAIL, "dev cost vdpa3 op 1us" }, /* EPERM */
	{ CMD_FAIL, "dev cost vdpa0123456789012345678901234567890123 op 1us" },
	{ CMD_OK, "dev state" },
	{ CMD_OK, "dev state vdpa0" },
	{ CMD_OK, "-j dev state vdpa0" },
	{ CMD_OK, "dev state vdpa2" }, /* a note: not offered */
	{ CMD_FAIL, "dev state vdpa9" },
	{ CMD_USAGE, "dev state vdpa0 vdpa2" },
	{ CMD_OK, "dev link vdpa0 down" },
	{ CMD_OK, "dev link vdpa0 up" },
	{ CMD_FAIL, "dev link vdpa3 down" }, /* EPERM */
	{ CMD_FAIL, "dev link vdpa2 down" }, /* not the module's */
	{ CMD_USAGE, "dev link vdpa0 sideways" },
	{ CMD_USAGE, "dev link vdpa0" },
	{ CMD_USAGE, "dev link vdpa0 up down" },
	{ CMD_OK, "dev link help" },
	{ CMD_OK, "dev announce vdpa0" },
	{ CMD_FAIL, "dev announce vdpa1" }, /* EOPNOTSUPP */
	{ CMD_USAGE, "dev announce" },
	{ CMD_USAGE, "dev announce vdpa0 vdpa1" },
	{ CMD_OK, "dev announce help" },
	/* dev fault: the CVQ fault rules of vdpa0, the module's device */
	{ CMD_OK, "dev fault" },
	{ CMD_OK, "dev fault vdpa0" },
	{ CMD_OK, "dev fault vdpa0 show" },
	{ CMD_OK, "-j dev fault vdpa0" },
	{ CMD_OK, "dev fault vdpa0 add nack" },
	{ CMD_OK, "dev fault vdpa0 add stall class 1 cmd 1" },
	{ CMD_OK, "dev fault vdpa0 add delay 500us class MAC cmd MAC_ADDR_SET "
		  "nth 2 every 3 probability 12.5% seed 7 times 4 persist" },
	{ CMD_OK, "dev fault vdpa0 add reorder class vlan every 2" },
	{ CMD_OK, "dev fault vdpa0 add silent probability 0.0001" },
	{ CMD_OK, "dev fault vdpa0 add reset class 200 cmd 9 seed 0" },
	{ CMD_OK, "dev fault vdpa0 add nack probability 100" },
	{ CMD_OK, "dev f vdpa0 a nack per" },
	{ CMD_OK, "dev fault vdpa0 clear" },
	{ CMD_OK, "dev fault vdpa0 cl" },
	{ CMD_FAIL, "dev fault vdpa2" }, /* not the module's */
	{ CMD_FAIL, "dev fault vdpa9 show" },
	{ CMD_FAIL, "dev fault vdpa2 add nack" },
	{ CMD_FAIL, "dev fault vdpa3 add nack" }, /* EPERM */
	{ CMD_FAIL, "dev fault vdpa3 clear" },
	{ CMD_USAGE, "dev fault vdpa0 add" },
	{ CMD_USAGE, "dev fault vdpa0 add class MAC" },
	{ CMD_USAGE, "dev fault vdpa0 add nack stall" },
	{ CMD_USAGE, "dev fault vdpa0 add nack nack" },
	{ CMD_USAGE, "dev fault vdpa0 add frob" },
	{ CMD_USAGE, "dev fault vdpa0 add s" }, /* stall, silent, seed */
	{ CMD_USAGE, "dev fault vdpa0 add nack cmd MAC_ADDR_SET" },
	{ CMD_USAGE, "dev fault vdpa0 add nack class MAC cmd VLAN_ADD" },
	{ CMD_USAGE, "dev fault vdpa0 add nack class nope" },
	{ CMD_USAGE, "dev fault vdpa0 add nack class 256" },
	{ CMD_USAGE, "dev fault vdpa0 add nack class -1" },
	{ CMD_USAGE, "dev fault vdpa0 add nack class MAC cmd nope" },
	{ CMD_USAGE, "dev fault vdpa0 add nack class" },
	{ CMD_USAGE, "dev fault vdpa0 add delay" },
	{ CMD_USAGE, "dev fault vdpa0 add delay 5" },
	{ CMD_USAGE, "dev fault vdpa0 add delay 2s" },
	{ CMD_USAGE, "dev fault vdpa0 add nack nth 0" },
	{ CMD_USAGE, "dev fault vdpa0 add nack every 0" },
	{ CMD_USAGE, "dev fault vdpa0 add nack times 0" },
	{ CMD_USAGE, "dev fault vdpa0 add nack nth 4294967296" },
	{ CMD_USAGE, "dev fault vdpa0 add nack seed 4294967296" },
	{ CMD_USAGE, "dev fault vdpa0 add nack probability 0" },
	{ CMD_USAGE, "dev fault vdpa0 add nack probability 100.1" },
	{ CMD_USAGE, "dev fault vdpa0 add nack probability 1e3" },
	{ CMD_USAGE, "dev fault vdpa0 add nack probability 12.5.1" },
	{ CMD_USAGE, "dev fault vdpa0 add nack probability 0.00001" },
	{ CMD_USAGE, "dev fault vdpa0 add nack probability -5" },
	{ CMD_USAGE, "dev fault vdpa0 add nack persist persist" },
	{ CMD_USAGE, "dev fault vdpa0 frob" },
	{ CMD_USAGE, "dev fault vdpa0 show extra" },
	{ CMD_USAGE, "dev fault vdpa0 clear extra" },
	/* ambiguous prefixes are errors, never the first match */
	{ CMD_USAGE, "dev s vdpa0" }, /* show, set, state */
	{ CMD_OK, "dev sh vdpa0" },
	{ CMD_USAGE, "dev li" }, /* list, link */
	{ CMD_OK, "dev lis" },
	{ CMD_USAGE, "dev a vdpa0" }, /* add, announce */
	{ CMD_USAGE,
	  "load --count 30 --profile m --dev vdpa0" }, /* mac, mixed */
	{ CMD_OK, "load --count 30 --profile ma --dev vdpa0" },
	/* mgmtdev */
	{ CMD_OK, "mgmtdev" },
	{ CMD_OK, "mgmtdev show" },
	{ CMD_OK, "mgmtdev show vdpasim_net" },
	{ CMD_FAIL, "mgmtdev show nosuch" },
	{ CMD_USAGE, "mgmtdev show a b" },
	/* stats */
	{ CMD_USAGE, "stats" },
	{ CMD_OK, "stats vdpa0" },
	{ CMD_OK, "stats vdpa0 qidx 2" },
	/* iproute2's spelling */
	{ CMD_OK, "dev vstats show vdpa0 qidx 2" },
	{ CMD_OK, "dev vstats help" },
	{ CMD_USAGE, "dev vstats" },
	{ CMD_FAIL, "dev vstats show vdpa9" },
	{ CMD_USAGE, "stats vdpa0 qidx x" },
	{ CMD_USAGE, "stats vdpa0 qidx 65537" },
	{ CMD_USAGE, "stats vdpa0 frob 1" },
	{ CMD_FAIL, "stats vdpa9" },
	{ CMD_FAIL, "stats vdpa3" }, /* features not negotiated */
	{ CMD_OK, "stats vdpa0 --reset" },
	{ CMD_OK, "stats vdpa0 qidx 2 --reset" },
	{ CMD_OK, "-j stats vdpa0" },
	{ CMD_FAIL, "stats vdpa2 --reset" }, /* not the module's: as batching */
	{ CMD_FAIL, "stats vdpa3 --reset" }, /* EPERM */
	/* one option style: keywords, "--reset" kept as the old spelling */
	{ CMD_OK, "stats vdpa0 reset" },
	{ CMD_OK, "stats vdpa0 qidx 2 reset" },
	{ CMD_OK, "stats vdpa0 res" },
	{ CMD_FAIL, "stats vdpa3 reset" }, /* EPERM */
	{ CMD_FAIL, "stats vdpa9 reset" }, /* no such device */
	{ CMD_USAGE, "stats vdpa0 reset reset" },
	{ CMD_USAGE, "stats vdpa0 --rest" },
	/* inject: a deviation (4) is not a failure to run the case (1) */
	{ CMD_OK, "inject list" },
	{ CMD_OK, "inject help" },
	{ 3, "inject next-loop --dev vdpa0" }, /* does not apply */
	{ 4, "inject next-loop --dev vdpa2" }, /* the device deviated */
	{ CMD_FAIL, "inject next-loop --dev vdpa5" }, /* the run failed */
	{ CMD_FAIL, "inject next-loop --dev vdpa9" },
	{ CMD_USAGE, "inject no-such-case --dev vdpa0" },
	{ CMD_USAGE, "inject next-loop --dev vdpa0 --ring loop" },
	{ 3, "inject packed-id-range --dev vdpa0 --ring packed" },
	{ 3, "inject stress-reset --dev vdpa0 --ring p" },
	/* load: skip-unchanged and trace */
	{ CMD_OK, "load --count 30 --rounds 3 --dev vdpa0 --skip-unchanged" },
	{ CMD_OK, "load --count 30 --rounds 3 --dev vdpa0 --skip --trace" },
	{ CMD_OK, "-j load --count 1 --rounds 3 --dev vdpa0 --skip-unchanged" },
	{ CMD_USAGE, "load --count 3 --dev vdpa0 --trace=yes" },
};

static int setup(void **state)
{
	struct fake_tree *t = fake_tree_create();

	fake_tree_add(t, "vdpa0", "vhost_vdpa", 0);
	fake_tree_add(t, "vdpa1", "virtio_vdpa", -1);
	fake_tree_add(t, "vdpa2", "vhost_vdpa", 2);
	fake_tree_add(t, "vdpa3", "vhost_vdpa", 3);
	fake_tree_add(t, "vdpa4", NULL, -1);
	fake_tree_add(t, "vdpa5", "vhost_vdpa", 5);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	fake_tree_destroy(*state);
	return 0;
}

/* Points stderr at a fresh temporary file; returns what to restore. */
static int stderr_capture(FILE **f)
{
	int saved;

	*f = tmpfile();
	assert_non_null(*f);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	dup2(fileno(*f), STDERR_FILENO);
	return saved;
}

/* Restores stderr; what was written to @f is in *text (caller frees). */
static void stderr_collect(int saved, FILE *f, char **text)
{
	long len;

	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	len = ftell(f);
	assert_true(len >= 0);
	*text = calloc(1, (size_t)len + 1);
	assert_non_null(*text);
	rewind(f);
	assert_int_equal(fread(*text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
}

/*
 * Runs @cmdline (words split on spaces) and returns its exit status; what
 * it printed on stdout is in *out and, if @err is not NULL, what it
 * printed on stderr in *err (caller frees both). Otherwise stderr is
 * discarded unless VDPACTL_TEST_STDERR is set.
 */
static int run_cli_io(const struct fake_tree *t, const char *cmdline,
		      char **out, char **err)
{
	char *words = strdup(cmdline), *argv[MAX_ARGS], *save = NULL, *w;
	int argc = 0, status, saved_stderr;
	struct vdpactl ctx;
	FILE *f, *errf = NULL;
	size_t len;

	assert_non_null(words);
	for (w = strtok_r(words, " ", &save); w && argc < MAX_ARGS;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	f = open_memstream(out, &len);
	assert_non_null(f);
	saved_stderr = err ? stderr_capture(&errf) : stderr_mute();

	fake_backend_reset();
	vdpactl_init(&ctx);
	ctx.roots = t->roots;
	ctx.out.f = f;
	status = vdpactl_run(&ctx, argc, argv);
	vdpactl_fini(&ctx);

	if (err)
		stderr_collect(saved_stderr, errf, err);
	else
		stderr_restore(saved_stderr);
	fclose(f);
	free(words);
	return status;
}

static int run_cli(const struct fake_tree *t, const char *cmdline, char **out)
{
	return run_cli_io(t, cmdline, out, NULL);
}

static void exit_statuses(void **state)
{
	unsigned int i, failures = 0;
	char *out;
	int status;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		status = run_cli(*state, cases[i].cmdline, &out);
		free(out);
		if (status != cases[i].status) {
			print_error("\"%s\": exit status %d, want %d\n",
				    cases[i].cmdline, status, cases[i].status);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

static void expect_contains(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("output lacks \"%s\":\n%s", want, text);
}

/* Bare commands print their usage, as iproute2's vdpa does. */
/*
 * "dev add" reads numbers and addresses as iproute2's vdpa does, so a
 * line copied from "vdpa dev add" makes the same device: device_features
 * in hex with or without 0x (get_u64(..., 16)), MAC bytes of one or two
 * digits (ll_addr_a2n()).
 */
static void dev_add_reads_iproute2_numbers(void **state)
{
	static const struct {
		const char *features;
		uint64_t want;
	} hex[] = {
		{ "300020000", 0x300020000ULL },
		{ "0x300020000", 0x300020000ULL },
		{ "010", 0x10 },
		{ "0X1f", 0x1f },
	};
	const struct vdpa_dev_new_args *add;
	char cmd[160], *out, *err;
	unsigned int i;

	for (i = 0; i < sizeof(hex) / sizeof(hex[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "dev add name vdpa7 mgmtdev vdpasim_net "
			 "device_features %s",
			 hex[i].features);
		assert_int_equal(run_cli(*state, cmd, &out), 0);
		free(out);
		add = fake_backend_last_add();
		assert_true(add->has_device_features);
		assert_int_equal(add->device_features, hex[i].want);
	}
	assert_int_equal(run_cli(*state,
				 "dev add name vdpa7 mgmtdev vdpasim_net "
				 "mac 2:0:0:0:a:1",
				 &out),
			 0);
	free(out);
	add = fake_backend_last_add();
	assert_true(add->has_mac);
	assert_memory_equal(add->mac, "\x02\x00\x00\x00\x0a\x01", MAC_LEN);

	assert_int_equal(run_cli_io(*state,
				    "dev add name vdpa7 mgmtdev vdpasim_net "
				    "device_features 0xg",
				    &out, &err),
			 CMD_USAGE);
	expect_contains(err, "device_features \"0xg\" is not a hex number");
	free(out);
	free(err);
}

/*
 * A usage error says what was wrong in one line, then shows the usage of
 * that command alone: never another command's, never all of them.
 */
static void usage_errors_say_what_was_wrong(void **state)
{
	static const struct {
		const char *cmdline, *error, *usage, *not_shown;
	} errs[] = {
		{ "dev del a b", "dev del: unexpected \"b\" after DEV",
		  "Usage: vdpactl-batch dev del DEV", "dev add" },
		{ "dev show a b", "dev show: unexpected \"b\" after DEV",
		  "Usage: vdpactl-batch dev { show | list }", "dev del" },
		{ "dev set", "dev set: name DEV expected",
		  "Usage: vdpactl-batch dev set name DEV", "dev add" },
		{ "dev state a b", "dev state: unexpected \"b\"",
		  "Usage: vdpactl-batch dev state [ DEV ]", "dev batching" },
		{ "dev link vdpa0", "dev link: DEV { up | down } expected",
		  "Usage: vdpactl-batch dev link DEV", "dev announce" },
		{ "dev add name x mgmtdev vdpasim_net mtu 5",
		  "dev add: mtu 5 is out of range",
		  "Usage: vdpactl-batch dev add name NAME", "dev del" },
		{ "mgmtdev show a b", "mgmtdev show: unexpected \"b\"",
		  "Usage: vdpactl-batch mgmtdev", "dev add" },
		{ "inject list -j",
		  "inject list: unexpected \"-j\": vdpactl-batch's options go "
		  "before the object",
		  "Usage: vdpactl-batch inject list", "CASE" },
		{ "inject list extra", "inject list: unexpected \"extra\"",
		  "Usage: vdpactl-batch inject list", "CASE" },
		{ "inject next",
		  "inject: case \"next\" is ambiguous: "
		  "next-loop, next-range",
		  "Usage: vdpactl-batch inject CASE", "dev show" },
		{ "load", "load: --count is required",
		  "Usage: vdpactl-batch load --count N", "compare" },
		{ "compare", "compare: --count is required",
		  "Usage: vdpactl-batch compare", "dev show" },
		{ "stats", "stats: DEV expected",
		  "Usage: vdpactl-batch stats DEV", "load" },
		{ "inject", "inject: CASE or list expected",
		  "Usage: vdpactl-batch inject CASE", "dev show" },
		{ "dev vstats show", "dev vstats show: DEV expected",
		  "Usage: vdpactl-batch dev vstats show DEV",
		  "Usage: vdpactl-batch stats" },
		{ "inject no-such-case", "inject: no case \"no-such-case\"",
		  "Usage: vdpactl-batch inject CASE", "dev show" },
		{ "dev fault vdpa0 add",
		  "dev fault add: ACTION expected: nack, "
		  "stall, delay TIME, reorder, silent or reset",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 add stall reset",
		  "dev fault add: stall and reset: one action per rule",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 add nack cmd MAC_ADDR_SET",
		  "dev fault add: cmd MAC_ADDR_SET needs class (a command is "
		  "named within its class)",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 add nack class MAC cmd VLAN_ADD",
		  "dev fault add: cmd \"VLAN_ADD\" is not a command of class "
		  "MAC (MAC_TABLE_SET, MAC_ADDR_SET, or a number 0..255)",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 add nack class nope",
		  "dev fault add: class \"nope\" is not a class name or a "
		  "number 0..255",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 add nack class 9 cmd 999",
		  "dev fault add: cmd \"999\" is not a command of class 9 (or "
		  "a number 0..255)",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 add nack probability 100.1",
		  "dev fault add: probability 100.1 is above 100%",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 add nack probability 0.00001",
		  "dev fault add: probability 0.00001 has more than 4 decimals",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 add delay 2ms every 0",
		  "dev fault add: every 0 is out of range (1..4294967295)",
		  "Usage: vdpactl-batch dev fault DEV add ACTION",
		  "dev fault DEV clear" },
		{ "dev fault vdpa0 show x", "dev fault show: unexpected \"x\"",
		  "Usage: vdpactl-batch dev fault [ DEV [ show ] ]",
		  "add ACTION" },
		{ "dev fault vdpa0 clear x",
		  "dev fault clear: unexpected \"x\"",
		  "Usage: vdpactl-batch dev fault DEV clear", "add ACTION" },
		/* Checks after the option parser: the same shape. */
		{ "load --count 30 --dev=",
		  "load: --dev \"\" is not a vdpa device name",
		  "Usage: vdpactl-batch load --count N", "compare" },
		{ "load --count 30 --dev a/b",
		  "load: --dev \"a/b\" is not a vdpa device name (1 to 63 "
		  "characters, no '/')",
		  "Usage: vdpactl-batch load --count N", "compare" },
		{ "compare --count 30 --dev "
		  "vdpa0123456789012345678901234567890123456789012345678901234567890",
		  "compare: --dev \"vdpa0123456789",
		  "Usage: vdpactl-batch compare", "Usage: vdpactl-batch load" },
		{ "inject next-loop --dev ../vdpa0",
		  "inject: --dev \"../vdpa0\" is not a vdpa device name",
		  "Usage: vdpactl-batch inject CASE", "dev show" },
		{ "inject next-loop",
		  "inject: several devices are bound to vhost_vdpa; choose one "
		  "with --dev",
		  "Usage: vdpactl-batch inject CASE", "dev show" },
		/* One device named twice: the same words from both. */
		{ "load --count 30 --dev vdpa0 --dev vdpa0",
		  "load: --dev given twice", "Usage: vdpactl-batch load",
		  "compare" },
		{ "compare --count 30 --dev vdpa0 --dev vdpa2 --dev vdpa0",
		  "compare: --dev vdpa0 given twice",
		  "Usage: vdpactl-batch compare", "Usage: vdpactl-batch load" },
		{ "load --count 30 --ring-size 48 --dev vdpa0",
		  "load: --ring-size 48 is not a power of 2",
		  "Usage: vdpactl-batch load --count N", "compare" },
		{ "compare --count 30 --ring packed --ring-size 48 --dev vdpa0",
		  "compare: --ring-size 48 is not a power of 2",
		  "Usage: vdpactl-batch compare", "Usage: vdpactl-batch load" },
		{ "load --count 30 --dev vdpa0 --cold --skip-unchanged",
		  "load: --cold and --skip-unchanged exclude each other",
		  "Usage: vdpactl-batch load --count N", "compare" },
		{ "load --count 30",
		  "load: 4 devices are bound to vhost_vdpa; choose one with "
		  "--dev",
		  "Usage: vdpactl-batch load --count N", "compare" },
		{ "-j compare --count 30 --dev vdpa0 --csv",
		  "compare: --csv and -j exclude each other",
		  "Usage: vdpactl-batch compare", "Usage: vdpactl-batch load" },
		{ "compare --count 30 --rounds 1000000 --turn 2 --dev vdpa0",
		  "compare: --rounds 1000000 x --turn 2: more than 1000000 "
		  "loads per device and mode",
		  "Usage: vdpactl-batch compare", "Usage: vdpactl-batch load" },
		{ "compare --count 30 --dev vdpa0 --baseline vdpa3",
		  "compare: --baseline vdpa3 is not among the compared devices",
		  "Usage: vdpactl-batch compare", "Usage: vdpactl-batch load" },
		{ "compare --count 30 --dev vdpa0 --first-round x",
		  "compare: --first-round \"x\" is not a number",
		  "Usage: vdpactl-batch compare", "Usage: vdpactl-batch load" },
	};
	unsigned int i;
	char *out, *err;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		assert_int_equal(run_cli_io(*state, errs[i].cmdline, &out,
					    &err),
				 CMD_USAGE);
		/* The error first, on a line of its own. */
		if (strncmp(err, "vdpactl-batch: ", 15) ||
		    strncmp(err + 15, errs[i].error, strlen(errs[i].error)))
			fail_msg(
				"\"%s\": stderr does not start with \"%s\":\n%s",
				errs[i].cmdline, errs[i].error, err);
		expect_contains(strchr(err, '\n'), errs[i].usage);
		if (strstr(err, errs[i].not_shown))
			fail_msg("\"%s\": usage shows \"%s\":\n%s",
				 errs[i].cmdline, errs[i].not_shown, err);
		assert_string_equal(out, "");
		free(out);
		free(err);
	}
}

/*
 * With -j a failed command prints nothing on stdout, so that a script
 * tells "failed" (exit status, no JSON) from "empty" (exit 0, an empty
 * object), whatever the command.
 */
static void json_failures_print_nothing(void **state)
{
	static const char *const failing[] = {
		"-j dev show vdpa9",
		"-j dev config show vdpa9",
		"-j mgmtdev show nosuch",
		"-j stats vdpa9",
		"-j stats vdpa3",
		"-j dev state vdpa9",
		"-j dev batching vdpa2",
		"-j dev cost vdpa2",
		"-j dev fault vdpa2",
		"-j dev fault vdpa3 add nack",
		"-j load --count 30 --dev vdpa9",
		"-j load --count 30 --dev vdpa1",
		"-j compare --count 30 --dev vdpa0 --dev vdpa1",
		"-j inject next-loop --dev vdpa9",
	};
	unsigned int i, wrong = 0;
	char *out;

	for (i = 0; i < sizeof(failing) / sizeof(failing[0]); i++) {
		assert_int_not_equal(run_cli(*state, failing[i], &out), CMD_OK);
		if (out[0]) {
			print_error("\"%s\" printed: %s\n", failing[i], out);
			wrong++;
		}
		free(out);
	}
	assert_int_equal(wrong, 0);
}

/* How many times @want appears in @text. */
static unsigned int count_of(const char *text, const char *want)
{
	unsigned int n = 0;

	while ((text = strstr(text, want))) {
		n++;
		text += strlen(want);
	}
	return n;
}

/*
 * Without the vdpa families (a network namespace hides them, as they are
 * not namespace-aware): a load, which needs none, says why once as a
 * note; a command that needs them says the real cause; and "could not
 * ask" is not "no such device".
 */
static void families_absent_say_why(void **state)
{
	struct fake_tree *t = *state;
	char *out, *err;

	fake_backend_families_absent(true);
	fake_tree_netns(t, true);
	/* The load works; the missing family is one note. */
	assert_int_equal(run_cli_io(t, "load --count 30 --rounds 2 --dev vdpa0",
				    &out, &err),
			 CMD_OK);
	assert_int_equal(count_of(err, "not visible in this network namespace"),
			 1);
	expect_contains(err,
			"note: the \"vdpa\" netlink family is not visible");
	free(out);
	free(err);

	assert_int_equal(run_cli_io(t, "dev state vdpa0", &out, &err),
			 CMD_FAIL);
	expect_contains(err, "dev state vdpa0: could not ask whether the "
			     "device exists: the \"vdpa\" netlink family is "
			     "not visible in this network namespace");
	free(out);
	free(err);

	assert_int_equal(run_cli_io(t, "dev show", &out, &err), CMD_FAIL);
	expect_contains(err, "not visible in this network namespace");
	free(out);
	free(err);

	/* The initial namespace, no module: that is the cause. */
	fake_tree_netns(t, false);
	assert_int_equal(run_cli_io(t, "dev show", &out, &err), CMD_FAIL);
	expect_contains(err, "no \"vdpa\" netlink family: the vdpa module "
			     "is not loaded");
	free(out);
	free(err);
}

static int families_teardown(void **state)
{
	fake_backend_families_absent(false);
	fake_tree_netns(*state, false);
	return 0;
}

/*
 * "stats DEV reset" zeroes the module's counters and the vendor counters
 * it reports, so both are read after it; on a device the module does not
 * know it fails, as "dev batching" does, rather than skip the reset. The
 * module says ENODEV for any device it does not know: whether that is a
 * device it does not run or no device at all, vdpa tells.
 */
static void stats_reset_comes_first(void **state)
{
	char *out, *err;

	assert_int_equal(run_cli(*state, "stats vdpa0 reset", &out), CMD_OK);
	assert_string_equal(fake_backend_stats_log(),
			    "reset vdpa0; vstats vdpa0; module vdpa0; ");
	free(out);

	assert_int_equal(run_cli_io(*state, "stats vdpa2 reset", &out, &err),
			 CMD_FAIL);
	expect_contains(err, "stats vdpa2 reset: not offered by this device");
	assert_string_equal(out, "");
	free(out);
	free(err);

	assert_int_equal(run_cli_io(*state, "stats vdpa9 reset", &out, &err),
			 CMD_FAIL);
	assert_string_equal(err,
			    "vdpactl-batch: stats vdpa9 reset: no such vdpa "
			    "device\n");
	assert_string_equal(out, "");
	free(out);
	free(err);

	/* vdpa could not be asked: not "no such device" either. */
	fake_backend_dev_get_err(-ENOBUFS);
	assert_int_equal(run_cli_io(*state, "stats vdpa2 reset", &out, &err),
			 CMD_FAIL);
	fake_backend_dev_get_err(0);
	assert_string_equal(err,
			    "vdpactl-batch: stats vdpa2 reset: could not ask "
			    "whether the device exists: No buffer space "
			    "available\n");
	free(out);
	free(err);
}

/*
 * A load leaves the last MAC it set, and says what the device had
 * (vdpa_sim_net keeps a MAC across a reset); --restore-mac puts that one
 * back, and says so.
 */
static void load_says_and_can_restore_the_mac(void **state)
{
	char *out;

	assert_int_equal(run_cli(*state,
				 "-j load --count 30 --rounds 3 --dev vdpa0 "
				 "--restore-mac",
				 &out),
			 CMD_OK);
	expect_contains(out, "\"last_mac\":\"02:00:00:00:00:1e\","
			     "\"start_mac\":\"02:00:00:00:00:01\","
			     "\"mac_restored\":true");
	expect_contains(fake_backend_stats_log(), "restore_mac vdpa0; ");
	free(out);

	assert_int_equal(
		run_cli(*state, "load --count 30 --rounds 3 --dev vdpa0", &out),
		CMD_OK);
	expect_contains(out, "\n  start_mac 02:00:00:00:00:01 restored false");
	assert_null(strstr(fake_backend_stats_log(), "restore_mac"));
	free(out);

	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 3 --dev vdpa0 "
				 "--restore-mac",
				 &out),
			 CMD_OK);
	expect_contains(fake_backend_stats_log(), "restore_mac vdpa0; ");
	free(out);
}

/* A device on virtio_vdpa: the error says how to move it. */
static void wrong_driver_says_how_to_move(void **state)
{
	const struct fake_tree *t = *state;
	char *out, *err, want[1024];

	assert_int_equal(run_cli_io(t, "load --count 30 --dev vdpa1", &out,
				    &err),
			 CMD_FAIL);
	snprintf(
		want, sizeof(want),
		"vdpa device vdpa1 is bound to virtio_vdpa, not vhost_vdpa; "
		"move it: echo vdpa1 > %s/bus/vdpa/drivers/virtio_vdpa/unbind; "
		"echo vdpa1 > %s/bus/vdpa/drivers/vhost_vdpa/bind",
		t->sys, t->sys);
	expect_contains(err, want);
	free(out);
	free(err);
}

static void bare_commands_print_usage(void **state)
{
	char *out, *err;

	assert_int_equal(run_cli_io(*state, "", &out, &err), CMD_OK);
	expect_contains(err, "Usage: vdpactl-batch [ OPTIONS ] OBJECT");
	/* One line per object says what it is for. */
	expect_contains(err, "\n  compare  time loads on several devices");
	expect_contains(err, "\n  inject   run one fault-injection case");
	assert_string_equal(out, "");
	free(out);
	free(err);

	/* "vdpa mgmtdev" prints its help, not the list. */
	assert_int_equal(run_cli_io(*state, "mgmtdev", &out, &err), CMD_OK);
	expect_contains(err, "Usage: vdpactl-batch mgmtdev");
	expect_contains(err, "mgmtdev help");
	assert_string_equal(out, "");
	free(out);
	free(err);
}

/* An ambiguous abbreviation names every candidate. */
static void ambiguous_prefixes_list_candidates(void **state)
{
	char *out, *err;

	assert_int_equal(run_cli_io(*state, "dev s vdpa0", &out, &err),
			 CMD_USAGE);
	expect_contains(err, "command \"s\" is ambiguous: show, set, state");
	assert_string_equal(out, "");
	free(out);
	free(err);

	assert_int_equal(run_cli_io(*state, "load --count 30 --r 5 --dev vdpa0",
				    &out, &err),
			 CMD_USAGE);
	expect_contains(
		err, "ambiguous option \"--r\": --rounds, --ring, --ring-size");
	free(out);
	free(err);

	assert_int_equal(run_cli_io(*state,
				    "load --count 3 --profile m --dev vdpa0",
				    &out, &err),
			 CMD_USAGE);
	expect_contains(err, "--profile \"m\" is ambiguous: mac, mixed");
	free(out);
	free(err);
}

static void load_reports_timings_and_counters(void **state)
{
	char *out;

	assert_int_equal(run_cli(*state,
				 "-j load --count 30 --rounds 1000 --dev vdpa0",
				 &out),
			 CMD_OK);
	expect_contains(out,
			"{\"load\":{\"vdpa0\":{\"mgmtdev\":\"vdpasim_net\"");
	expect_contains(out, "\"count\":30,\"rounds\":1000");
	expect_contains(out, "\"total_commands\":30000");
	expect_contains(out, "\"per_command_us\":{\"min\":4.000,\"q1\":4.000,"
			     "\"median\":4.000,\"q3\":4.000,\"p99\":4.000,"
			     "\"max\":4.000");
	expect_contains(out, "\"delta\":{\"cvq requests\":30000,"
			     "\"cvq successes\":30000}");
	expect_contains(out, "\"last_mac\":\"02:00:00:00:00:1e\"");
	free(out);

	assert_int_equal(run_cli(*state,
				 "load --count 30 --rounds 10 --dev "
				 "vdpa0 --mode parallel",
				 &out),
			 CMD_OK);
	expect_contains(out, "vdpa0: mgmtdev vdpasim_net chardev ");
	expect_contains(out, "mode parallel");
	expect_contains(out, "\n    cvq requests 0 -> 300 (+300)");
	free(out);
}

/* A load failing after others keeps their samples and says what failed. */
static void late_failure_keeps_samples(void **state)
{
	char *out;

	assert_int_equal(run_cli(*state,
				 "-j load --count 30 --rounds 10 --dev vdpa2",
				 &out),
			 CMD_FAIL);
	expect_contains(out, "\"total_commands\":60,");
	expect_contains(out, "\"per_load_us\":{\"min\":120.000,");
	expect_contains(out, "\"failed\":{\"after_loads\":2,\"of\":10,"
			     "\"error\":\"vdpa2: load 3, command 1 "
			     "(MAC_ADDR_SET): device acked ERR (1)\"}");
	free(out);

	assert_int_equal(run_cli(*state,
				 "load --count 30 --rounds 10 --dev vdpa2",
				 &out),
			 CMD_FAIL);
	expect_contains(out, "\n  failed after 2 loads of 10: vdpa2: load 3");
	free(out);

	/* compare: vdpa2's third load is the serial one of round 2. */
	assert_int_equal(
		run_cli(*state, "-j compare --count 30 --rounds 10 --dev vdpa2",
			&out),
		CMD_FAIL);
	expect_contains(out, "\"mode\":\"serial\",\"total_us\":120.000");
	expect_contains(out, "\"failed\":{\"after_rounds\":1,\"of\":10,"
			     "\"error\":\"vdpa2: load 3, command 1");
	free(out);
}

/*
 * A device that acks commands as redundant skipped their work: compare
 * warns, and its JSON counts them for scripts that must judge like work.
 */
/*
 * Ctrl-C or SIGTERM during a load: that load completes, no other starts,
 * the loads before it are reported with "interrupted": true, and the
 * exit status is 128 plus the signal's number.
 */
static void signal_reports_what_was_done(void **state)
{
	char *out, *err;

	assert_int_equal(interrupt_install(), 0);
	fake_backend_signal_at(3, SIGINT);
	assert_int_equal(run_cli(*state,
				 "-j load --count 30 --rounds 10 --dev vdpa0",
				 &out),
			 130);
	/* The third load, under way when the signal came, completed. */
	expect_contains(out, "\"total_commands\":90,");
	expect_contains(out, "\"interrupted\":true,\"failed\":{"
			     "\"after_loads\":3,\"of\":10,"
			     "\"error\":\"interrupted by SIGINT\"}");
	free(out);
	interrupt_signal = 0;

	/* compare's round 2 is cut short: round 1 is reported. */
	fake_backend_signal_at(3, SIGTERM);
	assert_int_equal(run_cli_io(*state,
				    "-j compare --count 30 --rounds 10 "
				    "--dev vdpa0",
				    &out, &err),
			 143);
	expect_contains(out, "\"interrupted\":true,\"failed\":{"
			     "\"after_rounds\":1,\"of\":10,"
			     "\"error\":\"interrupted by SIGTERM\"}");
	free(out);
	free(err);
	interrupt_signal = 0;

	/* During the set-up: no load starts, nothing is reported. */
	fake_backend_signal_at(0, 0);
	interrupt_signal = SIGINT;
	assert_int_equal(
		run_cli_io(*state, "-j load --count 30 --rounds 10 --dev vdpa0",
			   &out, &err),
		130);
	assert_string_equal(out, "");
	expect_contains(err, "interrupted by SIGINT before a whole load");
	free(out);
	free(err);
}

static int signal_teardown(void **state)
{
	(void)state;
	interrupt_signal = 0;
	fake_backend_signal_at(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return 0;
}

static void compare_counts_redundant_acks(void **state)
{
	char *out, *err;

	fake_backend_redundant_every(10);
	assert_int_equal(
		run_cli_io(*state,
			   "-j compare --count 30 --rounds 3 --dev vdpa0", &out,
			   &err),
		CMD_OK);
	/* 3 commands of every 30 of each load: 2 modes x 3 rounds, timed. */
	expect_contains(out, "\"redundant_commands\":18,");
	expect_contains(
		err,
		"warning: compare: the devices acked 18 commands as redundant");
	free(out);
	free(err);
	fake_backend_redundant_every(0);
	assert_int_equal(run_cli(*state,
				 "-j compare --count 30 --rounds 3 --dev vdpa0",
				 &out),
			 CMD_OK);
	expect_contains(out, "\"redundant_commands\":0,");
	free(out);

	/* A turn of 2: twice the loads, and the header says so. */
	assert_int_equal(
		run_cli(*state,
			"-j compare --count 30 --rounds 3 --turn 2 --dev vdpa0",
			&out),
		CMD_OK);
	expect_contains(out, "\"rounds\":3,\"turn\":2,");
	expect_contains(out, "\"total_commands\":180,");
	free(out);
}

#ifndef TOOL_SRC_DIR
#error "TOOL_SRC_DIR must name the tool's source directory"
#endif
#define MAN_PAGE TOOL_SRC_DIR "/../../Documentation/vdpactl-batch.8.rst"

/* The man page's OUTPUT section (caller frees). */
static char *man_output_section(void)
{
	char *text, *start, *end;
	long len;
	FILE *f = fopen(MAN_PAGE, "r");

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	start = strstr(text, "\nOUTPUT\n======\n");
	assert_non_null(start);
	end = strstr(start + 1, "\nEXIT STATUS\n");
	assert_non_null(end);
	*end = '\0';
	memmove(text, start, strlen(start) + 1);
	return text;
}

/*
 * Objects whose keys are data, not names the man page can list: command
 * names, vendor counters by name, and the state "dev state" documents.
 */
static bool keys_are_data(const char *key)
{
	static const char *const data[] = { "commands", "before", "after",
					    "delta",	"state",  NULL };
	unsigned int i;

	for (i = 0; data[i]; i++)
		if (!strcmp(key, data[i]))
			return true;
	return false;
}

/* A device name, as in {"load": {"vdpa0": ...}}: its value is checked. */
static bool key_is_device(const char *key)
{
	return !strncmp(key, "vdpa", 4) && key[4] >= '0' && key[4] <= '9';
}

/*
 * Each key of the JSON @json that is a name (not data) must be in @man
 * as **key**; returns how many are not, printing them.
 */
static unsigned int undocumented_keys(const char *json, const char *man,
				      bool quiet)
{
	int depth = 0, skip_depth = -1;
	unsigned int missing = 0;
	const char *p = json, *q;
	char key[64], marked[80];

	for (; *p; p++) {
		if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == skip_depth)
			skip_depth = -1; /* the data object ended */
		if (*p != '"')
			continue;
		for (q = p + 1; *q && *q != '"'; q++)
			if (*q == '\\' && q[1])
				q++;
		if (!*q)
			break;
		if (q[1] != ':') {
			p = q;
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(q - p - 1), p + 1);
		p = q;
		if (skip_depth >= 0 && depth > skip_depth)
			continue;
		if (key_is_device(key))
			continue;
		if (keys_are_data(key)) {
			if (q[2] == '{' || q[2] == '[')
				skip_depth = depth;
			continue;
		}
		snprintf(marked, sizeof(marked), "**%s**", key);
		if (!strstr(man, marked)) {
			if (!quiet)
				print_error("OUTPUT lacks the key \"%s\"\n",
					    key);
			missing++;
		}
	}
	return missing;
}

/* The man page's OUTPUT section names every key the tool prints. */
static void man_page_lists_every_json_key(void **state)
{
	static const char *const cmdlines[] = {
		"-j load --count 30 --rounds 3 --dev vdpa0 --skip-unchanged",
		"-j load --count 30 --rounds 3 --dev vdpa0 --trace",
		"-j load --count 30 --rounds 10 --dev vdpa2",
		"-j compare --count 30 --rounds 10 --dev vdpa0",
		"-j compare --count 30 --rounds 10 --dev vdpa2",
		"-j compare --count 30 --rounds 3 --dev vdpa0 --cpu",
		"-j compare --count 30 --rounds 3 --turn 2 --first-round 5 "
		"--dev vdpa0",
		"-j inject next-loop --dev vdpa0",
		"-j inject next-loop --dev vdpa2",
		"-j inject list",
		"-j dev cost vdpa0",
		"-j dev batching vdpa0",
		"-j " FAULT_ADD_ALL,
		"-j dev fault vdpa0 add nack class 1",
	};
	char *man = man_output_section(), *out;
	unsigned int i, missing = 0;

	/* The check must be able to fail. */
	assert_int_equal(undocumented_keys("{\"no_such_key\":1}", man, true),
			 1);
	assert_int_equal(
		undocumented_keys("{\"delta\":{\"x y\":1}}", man, true), 0);
	for (i = 0; i < sizeof(cmdlines) / sizeof(cmdlines[0]); i++) {
		run_cli(*state, cmdlines[i], &out);
		assert_true(out[0] == '{' || out[0] == '[');
		missing += undocumented_keys(out, man, false);
		free(out);
	}
	/* A load whose device refused commands. */
	fake_backend_nack_every(7);
	run_cli(*state, "-j load --count 30 --rounds 2 --dev vdpa0", &out);
	fake_backend_nack_every(0);
	expect_contains(out, "\"nacked\":");
	missing += undocumented_keys(out, man, false);
	free(out);
	free(man);
	assert_int_equal(missing, 0);
}

static void compare_table_csv_and_json(void **state)
{
	char *out;

	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 10 --dev vdpa0",
				 &out),
			 CMD_OK);
	expect_contains(out, "DEVICE     MGMTDEV          MODE");
	/* A load's p99 over N, and labelled so: not a per-command p99. */
	expect_contains(out, "MEDIAN_US/CMD  P99_LOAD/N_US  SPEEDUP\n");
	expect_contains(out, "vdpa0      vdpasim_net      serial");
	expect_contains(out, "1.00\n");
	expect_contains(out, "1.33\n");
	free(out);

	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 10 --dev vdpa0 "
				 "--csv",
				 &out),
			 CMD_OK);
	expect_contains(out, "device,mgmtdev,mode,kick,wait,profile,count,");
	expect_contains(out, ",median_us_per_command,p99_load_us_per_command,"
			     "speedup,baseline,q1_us_per_command,"
			     "q3_us_per_command,speedup_q1,speedup_q3,"
			     "within_noise\n");
	/* The spread's columns come last: parallel always wins here. */
	expect_contains(out, "vdpa0,vdpasim_net,parallel,each,poll,mac,30,10,"
			     "900.000,3.000,3.000,3.000,1.333,vdpa0,"
			     "3.000,3.000,1.333,1.333,false\n");
	free(out);

	assert_int_equal(run_cli(*state,
				 "-j compare --count 30 --rounds 10 --dev "
				 "vdpa0",
				 &out),
			 CMD_OK);
	expect_contains(out, "\"results\":[{\"device\":\"vdpa0\"");
	expect_contains(out, "\"mode\":\"serial\",\"total_us\":1200.000");
	expect_contains(out, "\"speedup\":1.333,\"speedup_q1\":1.333,"
			     "\"speedup_q3\":1.333,\"within_noise\":false,"
			     "\"per_load_us\":{\"min\":90.000,\"q1\":90.000,");
	expect_contains(out, "\"per_command_us\":{\"min\":3.000,\"q1\":3.000,"
			     "\"median\":3.000,\"q3\":3.000,\"p99\":3.000,"
			     "\"max\":3.000,\"mean\":3.000}}]");
	/* The same counters as load, per device and mode. */
	expect_contains(out, "\"p99_load_us_per_command\":4.000,"
			     "\"total_commands\":300,\"batches\":");
	expect_contains(out, "\"vstats\":{\"queue_index\":2,\"delta\":"
			     "{\"cvq requests\":300,\"cvq successes\":300}}");
	free(out);

	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 10 --dev vdpa0",
				 &out),
			 CMD_OK);
	expect_contains(out, "vdpa0 parallel: commands 300 batches ");
	expect_contains(out, " vstats cvq requests +300, cvq successes +300\n");
	assert_null(strstr(out, "first_round"));
	free(out);

	/* --first-round is echoed when set, as --turn is. */
	assert_int_equal(run_cli(*state,
				 "-j compare --count 30 --rounds 1 --dev vdpa0 "
				 "--first-round 3",
				 &out),
			 CMD_OK);
	expect_contains(out, "\"rounds\":1,\"first_round\":3,\"kick\"");
	free(out);
	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 1 --dev vdpa0 "
				 "--first-round 3",
				 &out),
			 CMD_OK);
	expect_contains(out, " rounds 1 first_round 3 kick each");
	free(out);
}

/* Devices that would not run the same plan are not compared. */
static void compare_refuses_unlike_devices(void **state)
{
	char *out, *err;

	assert_int_equal(run_cli_io(*state,
				    "compare --count 30 --rounds 3 --dev vdpa0 "
				    "--dev vdpa3",
				    &out, &err),
			 CMD_FAIL);
	expect_contains(err, "compare: vdpa0 has a 64-entry ring, vdpa3 128: "
			     "give --ring-size");
	assert_null(strstr(out, "DEVICE"));
	free(out);
	free(err);
	assert_int_equal(run_cli_io(*state,
				    "compare --count 30 --rounds 3 --dev vdpa0 "
				    "--dev vdpa3 --ring-size 64",
				    &out, &err),
			 CMD_FAIL);
	expect_contains(err, "compare: vdpa0 negotiated features 0x20000, "
			     "vdpa3 0x820000");
	free(out);
	free(err);
}

/* Cold loads say so and add the commands-only column, nothing else. */
static void compare_cold_columns(void **state)
{
	char *out;

	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 3 --dev vdpa0 "
				 "--cold",
				 &out),
			 CMD_OK);
	expect_contains(out, " ring 64 cold true\nbaseline vdpa0 serial\n");
	expect_contains(out, "  SPEEDUP MEDIAN_CMDS_US/CMD\n");
	free(out);
	assert_int_equal(run_cli(*state,
				 "-j compare --count 30 --rounds 3 --dev vdpa0 "
				 "--cold",
				 &out),
			 CMD_OK);
	expect_contains(out, "\"ring_size\":64,\"cold\":true,");
	expect_contains(out, ",\"median_cmds_us_per_command\":");
	free(out);
	assert_int_equal(run_cli(*state,
				 "-j compare --count 30 --rounds 3 --dev vdpa0",
				 &out),
			 CMD_OK);
	assert_null(strstr(out, "cold"));
	assert_null(strstr(out, "cmds_us"));
	free(out);
}

/* A packed ring is named in both reports; a split one adds no key. */
static void ring_format_is_reported(void **state)
{
	char *out, *err;

	assert_int_equal(run_cli(*state,
				 "load --count 30 --rounds 2 --ring packed "
				 "--ring-size 32 --dev vdpa0",
				 &out),
			 CMD_OK);
	expect_contains(out, " ring_size 32 ring packed ");
	free(out);
	assert_int_equal(run_cli(*state,
				 "-j load --count 30 --rounds 2 --ring packed "
				 "--dev vdpa0",
				 &out),
			 CMD_OK);
	expect_contains(out, "\"ring_size\":64,\"ring\":\"packed\",");
	free(out);
	assert_int_equal(
		run_cli(*state,
			"-j compare --count 30 --rounds 3 --ring packed "
			"--dev vdpa0",
			&out),
		CMD_OK);
	expect_contains(out, "\"ring_size\":64,\"ring\":\"packed\",");
	free(out);
	assert_int_equal(run_cli(*state,
				 "-j load --count 30 --rounds 2 --ring split "
				 "--dev vdpa0",
				 &out),
			 CMD_OK);
	assert_null(strstr(out, "\"ring\""));
	free(out);
	assert_int_equal(
		run_cli_io(*state, "load --count 30 --ring-size 24 --dev vdpa0",
			   &out, &err),
		CMD_USAGE);
	expect_contains(err,
			"load: --ring-size 24 is not a power of 2, which "
			"vhost needs (VHOST_SET_VRING_NUM), on either ring "
			"format");
	free(out);
	free(err);
}

static void compare_baseline_and_cpu(void **state)
{
	char *out;

	/* The reference is always named, the first device by default. */
	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 3 --dev vdpa0",
				 &out),
			 CMD_OK);
	expect_contains(out,
			" asid false ring 64\nbaseline vdpa0 serial\nDEVICE ");
	expect_contains(out, "  SPEEDUP\n");
	assert_null(strstr(out, "CPU"));
	free(out);
	assert_int_equal(run_cli(*state,
				 "-j compare --count 30 --rounds 1 --dev vdpa0 "
				 "--dev vdpa2 --baseline vdpa2",
				 &out),
			 CMD_OK);
	expect_contains(
		out, "\"asid\":false,\"ring_size\":64,\"baseline\":\"vdpa2\",");
	/* vdpa0 times as vdpa2 does: each row against the later baseline. */
	expect_contains(out, "\"device\":\"vdpa0\",\"mgmtdev\":\"vdpasim_net\","
			     "\"mode\":\"serial\"");
	expect_contains(out, "\"speedup\":1.000,\"speedup_q1\":1.000,"
			     "\"speedup_q3\":1.000,\"within_noise\":true,");
	expect_contains(out,
			"\"mean\":4.000}},{\"device\":\"vdpa0\","
			"\"mgmtdev\":\"vdpasim_net\",\"mode\":\"parallel\"");
	assert_null(strstr(out, "cpu_us"));
	free(out);

	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 3 --dev vdpa0 "
				 "--cpu",
				 &out),
			 CMD_OK);
	expect_contains(out,
			"  SPEEDUP CLIENT_CPU_US/CMD KTHREAD_CPU_US/CMD\n");
	free(out);
	assert_int_equal(run_cli(*state,
				 "-j compare --count 30 --rounds 3 --dev vdpa0 "
				 "--cpu",
				 &out),
			 CMD_OK);
	expect_contains(out, ",\"client_cpu_us_per_command\":");
	expect_contains(out, ",\"kthread_cpu_us_per_command\":");
	free(out);
	assert_int_equal(run_cli(*state,
				 "compare --count 30 --rounds 3 --dev vdpa0 "
				 "--cpu --csv",
				 &out),
			 CMD_OK);
	expect_contains(out, ",speedup,baseline,client_cpu_us_per_command,"
			     "kthread_cpu_us_per_command,q1_us_per_command,");
	free(out);
}

static void iproute2_shaped_output(void **state)
{
	char *out;

	assert_int_equal(run_cli(*state, "dev show vdpa0", &out), CMD_OK);
	assert_string_equal(out, "vdpa0: type network mgmtdev vdpasim_net "
				 "vendor_id 0 max_vqs 3 max_vq_size 256\n");
	free(out);
	assert_int_equal(run_cli(*state, "-j dev show vdpa0", &out), CMD_OK);
	assert_string_equal(out, "{\"dev\":{\"vdpa0\":{\"type\":\"network\","
				 "\"mgmtdev\":\"vdpasim_net\",\"vendor_id\":0,"
				 "\"max_vqs\":3,\"max_vq_size\":256}}}\n");
	free(out);
	assert_int_equal(run_cli(*state, "dev config show vdpa0", &out),
			 CMD_OK);
	assert_string_equal(out, "vdpa0: mac 02:00:00:00:00:1e link up "
				 "link_announce false mtu 1500 \n");
	free(out);
	assert_int_equal(run_cli(*state, "stats vdpa2", &out), CMD_OK);
	assert_string_equal(out, "vdpa2: queue_type control_vq cvq requests 0 "
				 "cvq successes 0 \n");
	free(out);
	assert_int_equal(run_cli(*state, "mgmtdev show", &out), CMD_OK);
	assert_string_equal(out, "vdpasim_net: \n  supported_classes net\n"
				 "  max_supported_vqs 3\n");
	free(out);
	assert_int_equal(run_cli(*state, "-V", &out), CMD_OK);
	assert_string_equal(out, "vdpactl-batch " VDPACTL_VERSION "\n");
	free(out);
}

#define FAKE_COST_JSON                                                  \
	"\"cost\":{\"op_ns\":20000,\"cmd_ns\":1000,\"rx_ns\":0,"        \
	"\"mac_ns\":0,\"mac_table_ns\":0,\"vlan_ns\":3000,"             \
	"\"announce_ns\":0,\"mq_ns\":0,\"rss_ns\":0,\"offloads_ns\":0," \
	"\"coal_ns\":0,\"stats_ns\":0,\"precise\":false}"

static void module_state_and_stats(void **state)
{
	char *out;

	assert_int_equal(run_cli(*state, "-j dev state vdpa0", &out), CMD_OK);
	expect_contains(out, "{\"state\":{\"vdpa0\":{\"completion\":"
			     "\"batch\",\"batch_limit\":0," FAKE_COST_JSON
			     ",\"status\":15,"
			     "\"status_bits\":[\"ACKNOWLEDGE\",\"DRIVER\","
			     "\"FEATURES_OK\",\"DRIVER_OK\"],"
			     "\"mac\":\"02:00:00:00:00:01\","
			     "\"rx_modes\":[\"promisc\"],"
			     "\"uni_macs\":[\"02:00:00:aa:00:01\"],"
			     "\"uni_overflow\":false,\"multi_macs\":[],"
			     "\"multi_overflow\":true,\"vlans\":[1,2,3,7],"
			     "\"pairs\":1,\"max_pairs\":1,"
			     "\"offloads\":[\"GUEST_CSUM\"]}}}\n");
	free(out);
	assert_int_equal(run_cli(*state, "dev state vdpa0", &out), CMD_OK);
	expect_contains(out, "vdpa0: completion batch batch_limit 0 cost op "
			     "20us cmd 1us vlan 3us precise off status "
			     "0x0f ACKNOWLEDGE DRIVER FEATURES_OK DRIVER_OK\n"
			     "  mac 02:00:00:00:00:01 rx_modes promisc\n"
			     "  uni_macs 02:00:00:aa:00:01 overflow false\n"
			     "  multi_macs overflow true\n"
			     "  vlans 4: 1-3 7\n  pairs 1 max_pairs 1\n"
			     "  offloads GUEST_CSUM\n");
	free(out);
	assert_int_equal(run_cli(*state, "stats vdpa0", &out), CMD_OK);
	expect_contains(out, "vdpa0: module commands 30 batches 1 cost_ops 10 "
			     "cost_ns 200000 cost_real_ns 240000 "
			     "cvq_busy_ns 60000 faults 3 \n"
			     "  cmds_per_batch total 1\n"
			     "    [16, 32)                                1 "
			     "########################################\n"
			     "  cmd_ns total 30\n"
			     "    [128, 256) ns                          20 "
			     "########################################\n"
			     "    [256, 512) ns                           0 \n"
			     "    [512, 1024) ns                         10 "
			     "####################\n"
			     "  kick_ns total 1\n"
			     "    [1073741824, inf) ns                    1 ");
	/*
	 * Bucket estimates: 10 requested in [16384, 32768), rank 5 and
	 * rank 10 of 10; realized 9 there and 1 in [32768, 65536).
	 */
	expect_contains(out, "\n  cost requested median 23.8us p99 31.9us"
			     "  realized median 24.6us p99 49.2us\n"
			     "  device time busy 60.0us cost realized 240.0us"
			     " (cost 80.0%)\n");
	free(out);
	assert_int_equal(run_cli(*state, "-j stats vdpa0", &out), CMD_OK);
	expect_contains(out, "\"module\":{\"vdpa0\":{\"counters\":"
			     "{\"commands\":30,\"batches\":1,\"cost_ops\":10,"
			     "\"cost_ns\":200000,\"cost_real_ns\":240000,"
			     "\"cvq_busy_ns\":60000,\"faults\":3},"
			     "\"histograms\":{\"cmds_per_batch\":"
			     "{\"unit\":\"commands\",\"total\":1,"
			     "\"lower_bounds\":[0,1,2,4,8,16,32,");
	expect_contains(out, ",1073741824],\"counts\":[0,0,0,0,0,1,0,");
	expect_contains(out, "{\"vstats\":{\"vdpa0\":{\"queue_type\"");
	expect_contains(out, "\"cost_real_ns\":{\"unit\":\"ns\",\"total\":10,");
	expect_contains(out, ",0],\"median_estimate_ns\":24576,"
			     "\"p99_estimate_ns\":49152}");
	free(out);
}

static void cost_model(void **state)
{
	char *out, *err;

	/* Shown: items at 0 left out in text, all of them in JSON. */
	assert_int_equal(run_cli(*state, "dev cost vdpa0", &out), CMD_OK);
	assert_string_equal(
		out, "vdpa0: cost op 20us cmd 1us vlan 3us precise off \n");
	free(out);
	assert_int_equal(run_cli(*state, "-j dev cost vdpa0", &out), CMD_OK);
	assert_string_equal(out,
			    "{\"dev\":{\"vdpa0\":{" FAKE_COST_JSON "}}}\n");
	free(out);

	/* Set: only the items given change; then the whole model is shown. */
	assert_int_equal(run_cli(*state,
				 "dev cost vdpa0 op 5us mq 1.5us precise on",
				 &out),
			 CMD_OK);
	assert_string_equal(
		out,
		"vdpa0: cost op 5us cmd 1us vlan 3us mq 1500ns precise on \n");
	free(out);
	assert_int_equal(run_cli(*state,
				 "dev cost vdpa0 op 0ns cmd 0s vlan 0us", &out),
			 CMD_OK);
	assert_string_equal(out, "vdpa0: cost none precise off \n");
	free(out);
	assert_int_equal(run_cli(*state, "-j dev cost vdpa0 stats 1s", &out),
			 CMD_OK);
	expect_contains(out, "\"stats_ns\":1000000000,\"precise\":false}");
	free(out);

	/* Refused before anything is sent, naming the argument and why. */
	assert_int_equal(run_cli_io(*state, "dev cost vdpa0 op 20", &out, &err),
			 CMD_USAGE);
	assert_string_equal(out, "");
	expect_contains(err, "dev cost: op 20 has no unit (ns, us, ms or s, "
			     "as in 20us)\n");
	free(out);
	free(err);
	assert_int_equal(run_cli_io(*state, "dev cost vdpa0 vlan 1001ms", &out,
				    &err),
			 CMD_USAGE);
	expect_contains(err,
			"dev cost: vlan 1001ms is above the maximum, 1s\n");
	free(out);
	free(err);
	assert_int_equal(run_cli_io(*state, "dev cost vdpa0 m 1us", &out, &err),
			 CMD_USAGE);
	expect_contains(err, "ambiguous option \"m\": mac, mac_table, mq\n");
	free(out);
	free(err);
	assert_int_equal(run_cli_io(*state, "dev cost vdpa2", &out, &err),
			 CMD_FAIL);
	expect_contains(err, "dev cost vdpa2: No such device\n");
	free(out);
	free(err);

	/* Everywhere the settings are shown. */
	assert_int_equal(run_cli(*state, "dev batching vdpa0", &out), CMD_OK);
	assert_string_equal(out, "vdpa0: completion batch batch_limit 0 cost "
				 "op 20us cmd 1us vlan 3us precise off \n");
	free(out);
	assert_int_equal(run_cli(*state, "-j dev batching vdpa0", &out),
			 CMD_OK);
	assert_string_equal(out, "{\"dev\":{\"vdpa0\":{\"completion\":"
				 "\"batch\",\"batch_limit\":0," FAKE_COST_JSON
				 "}}}\n");
	free(out);
	/* Setting them prints nothing, as before. */
	assert_int_equal(run_cli(*state, "dev batching vdpa0 batch_limit 4",
				 &out),
			 CMD_OK);
	assert_string_equal(out, "");
	free(out);
}

/*
 * "dev fault": a rule added is shown with the device's others, as the
 * module replies; every keyword lands in its attribute (every is the
 * interval, the probability a percentage in ppm); names and numbers.
 */
static void fault_rules(void **state)
{
	char *out, *err;

	assert_int_equal(run_cli(*state, FAULT_ADD_ALL, &out), CMD_OK);
	assert_string_equal(out, "vdpa0: rules 1\n"
				 "  id 1 action delay 500us class MAC cmd "
				 "MAC_ADDR_SET nth 2 every 3 probability 12.5% "
				 "seed 7 times 4 persist matched 0 hits 0\n");
	free(out);
	assert_int_equal(run_cli(*state, "-j " FAULT_ADD_ALL, &out), CMD_OK);
	assert_string_equal(out, "{\"dev\":{\"vdpa0\":{\"rules\":[{"
				 "\"id\":1,\"action\":\"delay\","
				 "\"delay_ns\":500000,\"class\":\"MAC\","
				 "\"cmd\":\"MAC_ADDR_SET\",\"nth\":2,"
				 "\"every\":3,\"probability_ppm\":125000,"
				 "\"seed\":7,\"times\":4,\"persist\":true,"
				 "\"matched\":0,\"hits\":0}]}}}\n");
	free(out);

	/* Classes and commands by number; names when the tool knows them. */
	assert_int_equal(run_cli(*state,
				 "dev fault vdpa0 add stall class 4 cmd 2",
				 &out),
			 CMD_OK);
	expect_contains(out, "action stall class MQ cmd HASH_CONFIG matched");
	free(out);
	assert_int_equal(run_cli(*state,
				 "dev fault vdpa0 add nack class 9 cmd 3 "
				 "probability 0.0001",
				 &out),
			 CMD_OK);
	expect_contains(out, "action nack class 9 cmd 3 probability 0.0001% "
			     "matched");
	free(out);
	/* A command by the spec's name within its class, in any case. */
	assert_int_equal(run_cli(*state,
				 "dev fault vdpa0 add nack class vlan cmd add "
				 "nth 3",
				 &out),
			 CMD_OK);
	expect_contains(out, "action nack class VLAN cmd VLAN_ADD nth 3 ");
	free(out);
	assert_int_equal(run_cli(*state,
				 "dev fault vdpa0 add nack class mq cmd "
				 "vq_pairs_set",
				 &out),
			 CMD_OK);
	expect_contains(out, "class MQ cmd MQ_VQ_PAIRS_SET ");
	free(out);
	assert_int_equal(run_cli(*state, "dev fault vdpa0 add reorder", &out),
			 CMD_OK);
	expect_contains(out, "  id 1 action reorder class any matched 0 "
			     "hits 0\n");
	free(out);

	/* Shown: none yet in a new run; clearing prints nothing. */
	assert_int_equal(run_cli(*state, "dev fault vdpa0", &out), CMD_OK);
	assert_string_equal(out, "vdpa0: rules 0\n");
	free(out);
	assert_int_equal(run_cli(*state, "-j dev fault", &out), CMD_OK);
	assert_string_equal(out, "{\"dev\":{\"vdpa0\":{\"rules\":[]}}}\n");
	free(out);
	assert_int_equal(run_cli(*state, "dev fault vdpa0 clear", &out),
			 CMD_OK);
	assert_string_equal(out, "");
	free(out);

	/* Refused by the device: the operation and the reason. */
	assert_int_equal(run_cli_io(*state, "dev fault vdpa3 add nack", &out,
				    &err),
			 CMD_FAIL);
	expect_contains(err, "dev fault vdpa3 add: Operation not permitted\n");
	assert_string_equal(out, "");
	free(out);
	free(err);
	assert_int_equal(run_cli_io(*state, "dev fault vdpa2 clear", &out,
				    &err),
			 CMD_FAIL);
	expect_contains(err, "dev fault vdpa2 clear: No such device\n");
	free(out);
	free(err);
}

/*
 * A load on a device that refuses every 7th command goes on, names each
 * refused command, in text and JSON, and fails after its report; past 16
 * it names the first 16 and counts the rest. compare still stops at the
 * first refusal.
 */
static void load_names_nacked_commands(void **state)
{
	char *out, *err;

	fake_backend_nack_every(7);
	assert_int_equal(run_cli_io(*state,
				    "-j load --count 30 --rounds 2 --dev vdpa0",
				    &out, &err),
			 CMD_FAIL);
	expect_contains(out, "\"total_commands\":60,");
	expect_contains(out, "\"nacked\":{\"count\":8,\"first\":["
			     "{\"load\":1,\"index\":7,\"class\":\"MAC\","
			     "\"command\":\"MAC_ADDR_SET\"},"
			     "{\"load\":1,\"index\":14,");
	expect_contains(out, "{\"load\":2,\"index\":26,\"class\":\"MAC\","
			     "\"command\":\"MAC_ADDR_SET\"}]}");
	assert_int_equal(count_of(out, "\"index\":"), 8);
	expect_contains(err,
			"vdpactl-batch: vdpa0: load 1, command 7 "
			"(MAC_ADDR_SET 02:00:00:00:00:07): device acked ERR "
			"(1), and 7 more (the report names them)\n");
	free(out);
	free(err);

	fake_backend_nack_every(5);
	assert_int_equal(
		run_cli(*state, "load --count 30 --rounds 3 --dev vdpa0", &out),
		CMD_FAIL);
	expect_contains(out, "\n  nacked 18 (acked VIRTIO_NET_ERR)"
			     "\n    load 1 command 5 class MAC MAC_ADDR_SET "
			     "02:00:00:00:00:05"
			     "\n    load 1 command 10 class MAC MAC_ADDR_SET "
			     "02:00:00:00:00:0a");
	/* 6 in each load: the 16th is load 3's 4th. */
	expect_contains(out, "\n    load 3 command 20 class MAC MAC_ADDR_SET "
			     "02:00:00:00:00:14"
			     "\n    and 2 more\n");
	assert_int_equal(count_of(out, "\n    load "), 16);
	free(out);
	assert_int_equal(run_cli(*state,
				 "-j load --count 30 --rounds 3 --dev vdpa0",
				 &out),
			 CMD_FAIL);
	expect_contains(out, "\"nacked\":{\"count\":18,");
	assert_int_equal(count_of(out, "\"index\":"), 16);
	free(out);

	assert_int_equal(run_cli_io(*state,
				    "compare --count 30 --rounds 3 --dev vdpa0",
				    &out, &err),
			 CMD_FAIL);
	expect_contains(err, "vdpa0: load 1, command 5 (MAC_ADDR_SET): "
			     "device acked ERR (1)");
	free(out);
	free(err);
	fake_backend_nack_every(0);
}

static int nack_teardown(void **state)
{
	(void)state;
	fake_backend_nack_every(0);
	return 0;
}

static void load_skips_unchanged_state(void **state)
{
	char *out;

	/* Load 1 skips the MAC already set; later loads change it twice. */
	assert_int_equal(run_cli(*state,
				 "-j load --count 2 --rounds 3 --dev vdpa0 "
				 "--skip-unchanged",
				 &out),
			 CMD_OK);
	expect_contains(out, "\"total_commands\":5,");
	/*
	 * The fake device reports the state it started with, whatever it
	 * is sent: the model, which applied the MACs it acked, differs.
	 */
	expect_contains(out, "\"skip_unchanged\":{\"source\":\"state\","
			     "\"sent\":5,\"skipped\":1,\"skipped_per_load\":"
			     "{\"first\":1,\"min\":0,\"max\":1},"
			     "\"empty_loads\":0,\"timed_loads\":3,"
			     "\"model_agrees\":false,"
			     "\"model_differs_in\":\"mac\"}");
	expect_contains(out, "\"state\":{\"status\":15,");
	free(out);
	/* Nothing to send: no load is run or timed. */
	assert_int_equal(run_cli(*state,
				 "load --count 1 --rounds 3 --dev vdpa0 "
				 "--skip-unchanged",
				 &out),
			 CMD_OK);
	expect_contains(out, "total_commands 0 total_us 0.000");
	expect_contains(out, "skip_unchanged source state sent 0 skipped 3");
	expect_contains(out, "empty_loads 3 (nothing to send: not run, not "
			     "timed) timed_loads 0\n  model_agrees true");
	expect_contains(out, "\n  state mac 02:00:00:00:00:01 rx_modes promisc"
			     " uni 1 multi 0+overflow vlans 4 pairs 1/1"
			     " offloads 0x2");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_statuses),
		cmocka_unit_test(dev_add_reads_iproute2_numbers),
		cmocka_unit_test(usage_errors_say_what_was_wrong),
		cmocka_unit_test(json_failures_print_nothing),
		cmocka_unit_test_teardown(families_absent_say_why,
					  families_teardown),
		cmocka_unit_test(stats_reset_comes_first),
		cmocka_unit_test(load_says_and_can_restore_the_mac),
		cmocka_unit_test(wrong_driver_says_how_to_move),
		cmocka_unit_test(bare_commands_print_usage),
		cmocka_unit_test(ambiguous_prefixes_list_candidates),
		cmocka_unit_test(load_reports_timings_and_counters),
		cmocka_unit_test(late_failure_keeps_samples),
		cmocka_unit_test_teardown(signal_reports_what_was_done,
					  signal_teardown),
		cmocka_unit_test(man_page_lists_every_json_key),
		cmocka_unit_test(compare_table_csv_and_json),
		cmocka_unit_test(compare_refuses_unlike_devices),
		cmocka_unit_test(compare_counts_redundant_acks),
		cmocka_unit_test(compare_cold_columns),
		cmocka_unit_test(ring_format_is_reported),
		cmocka_unit_test(compare_baseline_and_cpu),
		cmocka_unit_test(iproute2_shaped_output),
		cmocka_unit_test(module_state_and_stats),
		cmocka_unit_test(load_skips_unchanged_state),
		cmocka_unit_test(cost_model),
		cmocka_unit_test(fault_rules),
		cmocka_unit_test_teardown(load_names_nacked_commands,
					  nack_teardown),
	};

	return cmocka_run_group_tests_name("cli", tests, setup, teardown);
}
