// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the seed corpora, tests/fuzz/corpus/TARGET/NAME: a few inputs
 * per target in the field layout the target reads (fuzz_input.h), each a
 * well-formed scenario the fuzzer then mutates: valid commands of every
 * class, split and framed differently, over a split or a packed queue; rings with direct and indirect
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
	/* The same over a packed control queue. */
	cvq_device(&s, FCVQ_ALL_FEATURES | FEATURE(VIRTIO_F_RING_PACKED));
	for (i = 0; i < ARRAY_SIZE(cmds) && i < 8; i++)
		cvq_cmd(&s, cmds[i].cmd, cmds[i].len, 2, 2, false);
	ret |= write_seed(dir, "fuzz_cvq", "all-split-packed", &s);
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

/* ---- fuzz_ring_packed: see fuzz_ring_packed.c's setup() and run_op() ---- */

#define PK_DATA_LEN 0x8000
#define PK_NUM_MAX 512
#define PK_CHAIN_MAX 8
#define PK_EVENT_IDX 1
#define PK_INDIRECT 2
#define PK_IMMEDIATE 4
#define PK_SUPPRESS 0x20
#define PK_WATCH 0x40
#define PK_FULL_SEGS 0x80
#define PK_SMALL_ID_TABLE 1 /* the "more" byte of setup() */
#define PK_AT_REST 8
#define PK_ID_RAW 1 /* a chain's kind byte */
#define PK_DESC_WRITE 1 /* a descriptor's kind byte */
#define PK_DESC_FLIP_NEXT 2
#define PK_DESC_LAP 8

enum {
	PK_OP_CHAIN,
	PK_OP_INDIRECT,
	PK_OP_RAW_DESC,
	PK_OP_EVENT,
	PK_OP_SERVE = 5,
	PK_OP_MAP,
	PK_OP_SET_BASE = 8,
};

struct pk {
	struct seed s;
	u16 num;
	bool immediate;
};

/*
 * A queue of num (1 to 64) at rest at position pos, wrap counter wrap:
 * the driver's own layout, no IOTLB changes, a batch of the queue size.
 */
static void pk_setup(struct pk *q, u16 num, u8 flags, u8 more, u16 pos,
		     bool wrap)
{
	q->s.len = 0;
	q->num = num;
	q->immediate = flags & PK_IMMEDIATE;
	put(&q->s, num - 1, 1);
	put(&q->s, flags | PK_FULL_SEGS, 1);
	put(&q->s, more, 1);
	if (more & PK_SMALL_ID_TABLE)
		put(&q->s, num / 2, 2);
	put(&q->s, 0, 1); /* batch limit: the queue size */
	put_below(&q->s, 0, 9); /* no IOTLB changes */
	if (pos || !wrap) {
		put(&q->s, wrap ? 2 : 4, 1);
		put_below(&q->s, pos, num);
	} else {
		put(&q->s, 0, 1); /* VSB_RING_BASE_PACKED_FRESH */
	}
	put_below(&q->s, 0, num); /* max_segs, overridden */
}

/* A descriptor of a chain; lap: the flags of another lap, or 0. */
static void pk_desc(struct pk *q, u8 kind, u32 off, u32 len, u8 lap, bool last)
{
	put(&q->s, kind | (lap ? PK_DESC_LAP : 0), 1);
	if (lap)
		put(&q->s, lap - 1, 1);
	put_below(&q->s, off, PK_DATA_LEN);
	put_below(&q->s, len, 512);
	if (!last)
		put(&q->s, 0xee, 1); /* the id field, ignored */
}

/* n buffers, readable then writable, with the id the driver picks. */
static void pk_chain(struct pk *q, unsigned int n, unsigned int nr_write)
{
	unsigned int i;

	put(&q->s, PK_OP_CHAIN, 1);
	put(&q->s, 0, 1); /* a free id */
	put_below(&q->s, n - 1, PK_CHAIN_MAX);
	for (i = 0; i < n; i++)
		pk_desc(q, i >= n - nr_write ? PK_DESC_WRITE : 0, 0x100 * i, 64,
			0, i + 1 == n);
}

/* One readable buffer and the given id (raw: any value). */
static void pk_chain_id(struct pk *q, u16 id)
{
	put(&q->s, PK_OP_CHAIN, 1);
	put(&q->s, PK_ID_RAW, 1);
	put_below(&q->s, 0, PK_CHAIN_MAX);
	put(&q->s, id, 2);
	pk_desc(q, 0, 0x100, 16, 0, true);
}

static void pk_indirect(struct pk *q)
{
	static const struct {
		u32 off, len;
		bool write;
	} bufs[] = { { 0x100, 12, false },
		     { 0x180, 52, false },
		     { 0x200, 128, true } };
	unsigned int i;

	put(&q->s, PK_OP_INDIRECT, 1);
	put(&q->s, 0, 1); /* a well-formed table, a free id */
	put_below(&q->s, ARRAY_SIZE(bufs) - 1, PK_CHAIN_MAX);
	put_below(&q->s, 0x400 / 16, PK_DATA_LEN / 16 - PK_CHAIN_MAX);
	for (i = 0; i < ARRAY_SIZE(bufs); i++) {
		put(&q->s, bufs[i].write ? PK_DESC_WRITE : 0, 1);
		put_below(&q->s, bufs[i].off, PK_DATA_LEN);
		put_below(&q->s, bufs[i].len, 512);
	}
}

/*
 * Serve what is available: chains of readable bytes read whole (one
 * offset byte each), held back and completed in reverse when asked.
 */
static void pk_serve(struct pk *q, unsigned int chains, bool hold)
{
	unsigned int i;

	put(&q->s, PK_OP_SERVE, 1);
	put(&q->s, 0xffff, 2);
	put(&q->s, 64, 2);
	if (!q->immediate)
		put(&q->s, hold, 1);
	for (i = 0; i < chains; i++)
		put(&q->s, 0, 1);
	for (i = 0; hold && i < chains; i++)
		put(&q->s, chains - 1 - i, 1);
}

/* The driver asks for a notification 2 descriptors on. */
static void pk_event_desc(struct pk *q)
{
	put(&q->s, PK_OP_EVENT, 1);
	put(&q->s, 3, 1);
	put_below(&q->s, 2, 2 * q->num);
}

/* The IOTLB over descriptors [from, from + n) alone, with perm. */
static void pk_ring_map(struct pk *q, u16 from, u16 n, unsigned int perm)
{
	/* The op is read modulo 10; 0x80 asks for the ring's descriptors. */
	put(&q->s, 0x80 + (PK_OP_MAP + 10 - 0x80 % 10) % 10, 1);
	put_below(&q->s, from, q->num);
	put_below(&q->s, n - 1, q->num - from);
	put_below(&q->s, perm - 1, FMEM_RW);
}

static int pk_write(const char *dir, const char *name, const struct pk *q)
{
	return write_seed(dir, "fuzz_ring_packed", name, &q->s);
}

/* Valid traffic: direct, wrapping, indirect, out of order, base. */
static int gen_packed_valid(const char *dir)
{
	static const struct {
		const char *name;
		u16 num;
		u8 flags;
		u8 more;
		u16 pos;
		bool wrap;
	} rings[] = {
		{ "direct", 8, 0, 0, 0, true },
		{ "direct-event-idx", 8, PK_EVENT_IDX, 0, 0, true },
		{ "direct-immediate", 8, PK_IMMEDIATE, 0, 0, true },
		{ "suppress-watch", 8, PK_SUPPRESS | PK_WATCH, 0, 0, true },
		{ "wrap-odd-size", 5, PK_EVENT_IDX, PK_AT_REST, 3, false },
	};
	struct pk q;
	unsigned int i, j;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(rings); i++) {
		pk_setup(&q, rings[i].num, rings[i].flags, rings[i].more,
			 rings[i].pos, rings[i].wrap);
		for (j = 0; j < 4; j++) {
			if (rings[i].flags & PK_EVENT_IDX)
				pk_event_desc(&q);
			pk_chain(&q, 1 + j % 3, 1);
			pk_serve(&q, 1, false);
		}
		ret |= pk_write(dir, rings[i].name, &q);
	}
	pk_setup(&q, 6, PK_INDIRECT, 0, 0, true);
	for (j = 0; j < 3; j++) {
		pk_indirect(&q);
		pk_serve(&q, 1, false);
	}
	ret |= pk_write(dir, "indirect", &q);
	/* Four chains completed last first: each skips its own length. */
	pk_setup(&q, 7, 0, 0, 0, true);
	for (j = 0; j < 4; j++)
		pk_chain(&q, 1 + j % 2, 0);
	pk_serve(&q, 4, true);
	pk_chain(&q, 2, 1);
	pk_serve(&q, 1, false);
	ret |= pk_write(dir, "out-of-order", &q);
	/* Save the base and restore it, as vhost does around a stop. */
	pk_setup(&q, 4, 0, 0, 0, true);
	pk_chain(&q, 3, 1);
	pk_serve(&q, 1, false);
	put(&q.s, PK_OP_SET_BASE, 1);
	put(&q.s, 0, 1);
	pk_chain(&q, 3, 1);
	pk_serve(&q, 1, false);
	ret |= pk_write(dir, "base-round-trip", &q);
	return ret;
}

/* One seed per fault the target predicts. */
static int gen_packed_faults(const char *dir)
{
	struct pk q;
	unsigned int i;
	int ret = 0;

	pk_setup(&q, 8, 0, 0, 0, true);
	pk_chain_id(&q, 8);
	pk_serve(&q, 0, false);
	ret |= pk_write(dir, "fault-id-range", &q);

	pk_setup(&q, 8, 0, 0, 0, true);
	pk_chain_id(&q, 2);
	pk_chain_id(&q, 2);
	pk_serve(&q, 1, false);
	ret |= pk_write(dir, "fault-id-in-use", &q);

	/* AVAIL and USED both at the driver's wrap counter, at the head. */
	pk_setup(&q, 8, 0, 0, 0, true);
	put(&q.s, PK_OP_RAW_DESC, 1);
	put_below(&q.s, 0, 8);
	put(&q.s, FMEM_BASE + FMEM_SIZE / 2 + 0x100, 8); /* in the data area */
	put(&q.s, 16, 4);
	put(&q.s, 0, 2);
	put(&q.s, 0x8080, 2);
	pk_serve(&q, 0, false);
	ret |= pk_write(dir, "fault-packed-flags-head", &q);

	/* The chain's second descriptor with the previous lap's flags. */
	pk_setup(&q, 8, 0, 0, 0, true);
	put(&q.s, PK_OP_CHAIN, 1);
	put(&q.s, 0, 1);
	put_below(&q.s, 1, PK_CHAIN_MAX);
	pk_desc(&q, 0, 0x100, 16, 0, false);
	pk_desc(&q, 0, 0x200, 16, 4, true); /* USED alone: last lap's */
	pk_serve(&q, 0, false);
	ret |= pk_write(dir, "fault-packed-flags-chain", &q);

	/* Every descriptor chained to the next, all around the ring. */
	pk_setup(&q, 8, 0, 0, 0, true);
	put(&q.s, PK_OP_CHAIN, 1);
	put(&q.s, 0, 1);
	put_below(&q.s, 7, PK_CHAIN_MAX);
	for (i = 0; i < 8; i++)
		pk_desc(&q, i == 7 ? PK_DESC_FLIP_NEXT : 0, 0x100, 16, 0,
			i == 7);
	pk_serve(&q, 0, false);
	ret |= pk_write(dir, "fault-chain-loop", &q);

	/* A bad buffer: the chain still comes back with its id. */
	pk_setup(&q, 8, 0, 0, 0, true);
	put(&q.s, PK_OP_CHAIN, 1);
	put(&q.s, 0, 1);
	put_below(&q.s, 1, PK_CHAIN_MAX);
	pk_desc(&q, PK_DESC_WRITE, 0x100, 16, 0, false);
	pk_desc(&q, 0, 0x200, 16, 0, true);
	pk_serve(&q, 0, false);
	ret |= pk_write(dir, "fault-write-order", &q);

	pk_setup(&q, 8, 0, 0, 0, true);
	pk_indirect(&q);
	pk_serve(&q, 0, false);
	ret |= pk_write(dir, "fault-indirect-feature", &q);

	/*
	 * A ring mapped in pieces, all but descriptor 0 read-only: the
	 * publish of two used descriptors fails on the second, and the
	 * next run publishes again (crashes/fuzz_ring_packed/).
	 */
	pk_setup(&q, 8, 0, 0, 0, true);
	pk_chain(&q, 1, 0);
	pk_chain(&q, 1, 0);
	pk_ring_map(&q, 0, 1, FMEM_RW);
	pk_ring_map(&q, 1, 7, FMEM_RO);
	pk_serve(&q, 2, false);
	pk_serve(&q, 0, false);
	ret |= pk_write(dir, "fault-ring-partly-read-only", &q);

	/* More ids than the owner's table holds: RING_CONFIG at setup. */
	pk_setup(&q, 8, 0, PK_SMALL_ID_TABLE, 0, true);
	pk_chain(&q, 1, 0);
	pk_serve(&q, 0, false);
	ret |= pk_write(dir, "fault-ring-config", &q);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen-corpus DIR\n");
		return 2;
	}
	return gen_cvq(argv[1]) || gen_ring(argv[1]) ||
			       gen_packed_valid(argv[1]) ||
			       gen_packed_faults(argv[1]) ?
		       1 :
		       0;
}
