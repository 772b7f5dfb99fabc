// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the seed corpora, tests/fuzz/corpus/TARGET/NAME: a few inputs
 * per target in the field layout the target reads (fuzz_input.h), each a
 * well-formed scenario the fuzzer then mutates: valid commands of every
 * class, split and framed differently; rings with direct and indirect
 * chains, EVENT_IDX, immediate completion, wrapping indices.
 *
 *   gen-corpus DIR      (make fuzz-corpus runs it on tests/fuzz/corpus)
 */

#include <errno.h>
#include <stdio.h>

#include "unit.h"
#include "fake_cvq.h"

#define SEED_MAX 4096

struct seed {
	u8 bytes[SEED_MAX];
	size_t len;
};

static void put(struct seed *s, u64 val, unsigned int bytes)
{
	while (bytes--) {
		s->bytes[s->len++] = val;
		val >>= 8;
	}
}

/* What fin_below(n) reads: the narrowest field that holds n - 1. */
static void put_below(struct seed *s, u64 val, u64 n)
{
	put(s, val, n <= 0x100 ? 1 : n <= 0x10000 ? 2 : 4);
}

static void put_bytes(struct seed *s, const u8 *bytes, size_t len)
{
	memcpy(s->bytes + s->len, bytes, len);
	s->len += len;
}

static int write_seed(const char *dir, const char *target, const char *name,
		      const struct seed *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(s->bytes, 1, s->len, f) != s->len || fclose(f)) {
		fprintf(stderr, "gen-corpus: writing %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- fuzz_cvq: see fuzz_cvq.c's setup() and read_cmd() ---- */

#define CVQ_CMD_MAX 1024

static void cvq_device(struct seed *s, u64 features)
{
	static const u8 mac[ETH_ALEN] = { FCVQ_MAC };

	s->len = 0;
	put(s, features, 8);
	put_below(s, FCVQ_MAX_PAIRS - 1, 8);
	put_bytes(s, mac, sizeof(mac));
	put(s, 0, 1); /* the state right after reset */
}

/*
 * A command in nr_out readable buffers (the header alone in the first
 * when there are two), then nr_in writable ones of room bytes each.
 */
static void cvq_cmd_room(struct seed *s, const u8 *cmd, u32 len,
			 unsigned int nr_out, unsigned int nr_in, bool ack_ro,
			 u32 room)
{
	unsigned int i;
	u32 left = len;

	put(s, nr_out + 5 * nr_in + (ack_ro ? 0x40 : 0), 1);
	put_below(s, len, CVQ_CMD_MAX + 1);
	put_bytes(s, cmd, len);
	for (i = 0; i + 1 < nr_out; i++) {
		u32 part = left < 2 ? left : 2;

		put_below(s, part, left + 1);
		left -= part;
	}
	for (i = 0; i < nr_in; i++) {
		/* the selector: a big buffer, or one of up to 3 bytes */
		put(s, room > 3 ? 0x80 : 0, 1);
		put_below(s, room, room > 3 ? 256 : 4);
	}
	put(s, 0, 1); /* no racing write */
}

/* The same with one-byte writable buffers: room for the ack. */
static void cvq_cmd(struct seed *s, const u8 *cmd, u32 len, unsigned int nr_out,
		    unsigned int nr_in, bool ack_ro)
{
	cvq_cmd_room(s, cmd, len, nr_out, nr_in, ack_ro, 1);
}

#define CMD(...) \
	((const u8[]){ __VA_ARGS__ }), sizeof((const u8[]){ __VA_ARGS__ })

/*
 * RSS: an RSS_CONFIG (IPv4 hashing, a table of two entries over two
 * pairs, a 40-byte key) then a HASH_CONFIG with the same key.
 */
static int gen_cvq_rss(const char *dir)
{
	u8 rss[2 + 8 + 2 * 2 + 3 + 40], hash[2 + 13 + 40];
	struct seed s;
	unsigned int i;

	memset(rss, 0, sizeof(rss));
	rss[0] = VIRTIO_NET_CTRL_MQ;
	rss[1] = VIRTIO_NET_CTRL_MQ_RSS_CONFIG;
	rss[2] = VIRTIO_NET_RSS_HASH_TYPE_IPv4;
	rss[6] = 1; /* indirection_table_mask */
	rss[12] = 1; /* table: queues 0, 1 */
	rss[14] = 2; /* max_tx_vq */
	rss[16] = 40; /* hash_key_length */
	memset(hash, 0, sizeof(hash));
	hash[0] = VIRTIO_NET_CTRL_MQ;
	hash[1] = VIRTIO_NET_CTRL_MQ_HASH_CONFIG;
	hash[2] = VIRTIO_NET_RSS_HASH_TYPE_IPv4;
	hash[14] = 40;
	for (i = 0; i < 40; i++)
		rss[17 + i] = hash[15 + i] = 0x6d + i;
	cvq_device(&s, FCVQ_ALL_FEATURES | FEATURE(VIRTIO_NET_F_RSS) |
			       FEATURE(VIRTIO_NET_F_HASH_REPORT));
	cvq_cmd(&s, rss, sizeof(rss), 1, 1, false);
	cvq_cmd(&s, hash, sizeof(hash), 1, 1, false);
	return write_seed(dir, "fuzz_cvq", "rss", &s);
}

static int gen_cvq(const char *dir)
{
	const struct {
		const char *name;
		const u8 *cmd;
		u32 len;
	} cmds[] = {
		{ "rx-promisc", CMD(0, 0, 1) },
		{ "rx-alluni", CMD(0, 2, 1) },
		{ "mac-addr", CMD(1, 1, 0x02, 0, 0, 0, 0, 2) },
		{ "mac-table",
		  CMD(1, 0, 2, 0, 0, 0, 0x02, 0, 0, 0, 0, 3, 0x02, 0, 0, 0, 0,
		      4, 1, 0, 0, 0, 0x01, 0, 0x5e, 0, 0, 1) },
		{ "vlan-add", CMD(2, 0, 5, 0) },
		{ "vlan-del", CMD(2, 1, 5, 0) },
		{ "announce", CMD(3, 0) },
		{ "mq-pairs", CMD(4, 0, 2, 0) },
		{ "offloads", CMD(5, 0, 2, 0, 0, 0, 0, 0, 0, 0) },
	};
	struct seed s;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		cvq_device(&s, FCVQ_ALL_FEATURES);
		cvq_cmd(&s, cmds[i].cmd, cmds[i].len, 1, 1, false);
		ret |= write_seed(dir, "fuzz_cvq", cmds[i].name, &s);
	}
	/* Every class in one input, each split header | data | ack, ack. */
	cvq_device(&s, FCVQ_ALL_FEATURES);
	for (i = 0; i < ARRAY_SIZE(cmds) && i < 8; i++)
		cvq_cmd(&s, cmds[i].cmd, cmds[i].len, 2, 2, false);
	ret |= write_seed(dir, "fuzz_cvq", "all-split", &s);
	/* No feature negotiated: every command is an ERR. */
	cvq_device(&s, 0);
	cvq_cmd(&s, CMD(4, 0, 2, 0), 1, 1, false);
	ret |= write_seed(dir, "fuzz_cvq", "no-features", &s);
	/* Framing faults: no ack byte, a read-only ack. */
	cvq_device(&s, FCVQ_ALL_FEATURES);
	cvq_cmd(&s, CMD(0, 0, 1), 1, 0, false);
	ret |= write_seed(dir, "fuzz_cvq", "no-ack", &s);
	cvq_device(&s, FCVQ_ALL_FEATURES);
	cvq_cmd(&s, CMD(0, 0, 1), 1, 1, true);
	ret |= write_seed(dir, "fuzz_cvq", "ack-read-only", &s);
	/* Statistics: the supported types, then queue 0's and the CVQ's. */
	cvq_device(&s, FCVQ_ALL_FEATURES | FEATURE(VSB_NET_F_DEVICE_STATS));
	cvq_cmd_room(&s, CMD(VSB_CTRL_STATS, VSB_CTRL_STATS_QUERY), 1, 1, false,
		     9);
	cvq_cmd_room(&s,
		     CMD(VSB_CTRL_STATS, VSB_CTRL_STATS_GET, 0, 0, 0, 0, 0, 0,
			 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2 * FCVQ_MAX_PAIRS, 0, 0,
			 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0),
		     1, 1, false, 81);
	ret |= write_seed(dir, "fuzz_cvq", "stats", &s);
	/* Coalescing: every receive queue, one queue, then read it back. */
	cvq_device(&s, FCVQ_ALL_FEATURES | FEATURE(VIRTIO_NET_F_NOTF_COAL) |
			       FEATURE(VSB_NET_F_VQ_NOTF_COAL));
	cvq_cmd(&s,
		CMD(VSB_CTRL_NOTF_COAL, VSB_CTRL_NOTF_COAL_RX_SET, 8, 0, 0, 0,
		    100, 0, 0, 0),
		1, 1, false);
	cvq_cmd(&s,
		CMD(VSB_CTRL_NOTF_COAL, VSB_CTRL_NOTF_COAL_VQ_SET, 3, 0, 0, 0,
		    16, 0, 0, 0, 50, 0, 0, 0),
		1, 1, false);
	cvq_cmd_room(&s,
		     CMD(VSB_CTRL_NOTF_COAL, VSB_CTRL_NOTF_COAL_VQ_GET, 3, 0, 0,
			 0),
		     1, 1, false, 9);
	ret |= write_seed(dir, "fuzz_cvq", "notf-coal", &s);
	ret |= gen_cvq_rss(dir);
	return ret;
}

/* ---- fuzz_ring: see fuzz_ring.c's setup() and run_op() ---- */

#define RING_NUM_LOG2 3
#define RING_NUM (1 << RING_NUM_LOG2)
#define RING_DATA_LEN 0x8000
#define RING_EVENT_IDX 1
#define RING_INDIRECT 2
#define RING_IMMEDIATE 4

enum { OP_CHAIN, OP_INDIRECT, OP_SERVE = 6 };

static void ring_setup(struct seed *s, u8 flags, u16 start)
{
	s->len = 0;
	put(s, RING_NUM_LOG2, 1);
	put(s, flags | 0x80, 1); /* fake driver layout, room for num */
	put(s, start, 2);
	put(s, 0, 1); /* batch limit: the queue size */
	put_below(s, 0, 9); /* no IOTLB changes */
	put_below(s, 0, RING_NUM); /* max_segs, overridden by 0x80 */
}

/* One descriptor: a buffer at data offset off, readable or writable. */
static void ring_desc(struct seed *s, u32 off, u32 len, bool write)
{
	put(s, write, 1);
	put_below(s, off, RING_DATA_LEN);
	put_below(s, len, 512);
}

static void ring_chain(struct seed *s, u16 head)
{
	put(s, OP_CHAIN, 1);
	put_below(s, head, RING_NUM);
	put_below(s, 1, 8); /* two buffers */
	ring_desc(s, 0x100, 64, false);
	ring_desc(s, 0x200, 64, true);
}

static void ring_indirect(struct seed *s, u16 head)
{
	put(s, OP_INDIRECT, 1);
	put_below(s, head, RING_NUM);
	put_below(s, 2, 8); /* three buffers */
	put_below(s, 0x400 / 16, RING_DATA_LEN / 16 - 8);
	put(s, 0, 1); /* a well-formed table pointer */
	ring_desc(s, 0x100, 12, false);
	ring_desc(s, 0x180, 52, false);
	ring_desc(s, 0x200, 128, true);
}

static void ring_serve(struct seed *s)
{
	put(s, OP_SERVE, 1);
	put(s, 64, 2);
	put(s, 64, 2);
}

static int gen_ring(const char *dir)
{
	static const struct {
		const char *name;
		u8 flags;
		u16 start;
		bool indirect;
	} rings[] = {
		{ "direct", 0, 0, false },
		{ "direct-event-idx", RING_EVENT_IDX, 0, false },
		{ "direct-immediate", RING_IMMEDIATE, 0, false },
		{ "indirect", RING_INDIRECT, 0, true },
		{ "indirect-event-idx-wrap", RING_INDIRECT | RING_EVENT_IDX,
		  0xfffe, true },
	};
	struct seed s;
	unsigned int i, j;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(rings); i++) {
		ring_setup(&s, rings[i].flags, rings[i].start);
		for (j = 0; j < 3; j++) {
			if (rings[i].indirect)
				ring_indirect(&s, 2 * j);
			else
				ring_chain(&s, 2 * j);
			ring_serve(&s);
		}
		ret |= write_seed(dir, "fuzz_ring", rings[i].name, &s);
	}
	return ret;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen-corpus DIR\n");
		return 2;
	}
	return gen_cvq(argv[1]) || gen_ring(argv[1]) ? 1 : 0;
}
