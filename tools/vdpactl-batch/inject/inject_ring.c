// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Malformed descriptor chains. Each builder takes descriptors from the
 * ring's table in order (from next_desc), copies the command into the
 * read-only area and takes ack bytes from the writable one, so several
 * chains can share a ring. VERSION_1: every field is little-endian.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "inject/inject_ring.h"
#include "lib/cvq_cmd.h"
#include "lib/util.h"

#define DESC_BYTES sizeof(struct vring_desc)

static const char *const shape_names[SHAPE_COUNT] = {
	[SHAPE_NORMAL] = "normal",
	[SHAPE_HEAD_RANGE] = "head out of range",
	[SHAPE_NEXT_LOOP] = "next loop",
	[SHAPE_NEXT_RANGE] = "next out of range",
	[SHAPE_CHAIN_NUM] = "chain of num",
	[SHAPE_CHAIN_TOO_LONG] = "chain of num + 1",
	[SHAPE_INDIRECT] = "indirect",
	[SHAPE_INDIRECT_WRITE_FLAG] = "indirect with F_WRITE",
	[SHAPE_INDIRECT_LOOP] = "indirect loop",
	[SHAPE_INDIRECT_LEN_ZERO] = "indirect len 0",
	[SHAPE_INDIRECT_LEN_ODD] = "indirect len 24",
	[SHAPE_INDIRECT_NESTED] = "nested indirect",
	[SHAPE_INDIRECT_NEXT] = "indirect with next",
	[SHAPE_WRITE_ORDER] = "readable after writable",
	[SHAPE_ADDR_WRAP] = "address wraps",
	[SHAPE_ZERO_LEN] = "zero-length descriptor",
	[SHAPE_BUFFER_UNMAPPED] = "unmapped buffer",
	[SHAPE_ACK_READ_ONLY] = "ack in read-only map",
	[SHAPE_AVAIL_IDX_AHEAD] = "avail idx ahead",
	[SHAPE_SHORT_HEADER] = "1-byte header",
	[SHAPE_NO_ACK] = "no writable byte",
	[SHAPE_SPLIT_HEADER] = "header split 1 + 1",
	[SHAPE_CMD_FRAGMENTED] = "command over several maps",
};

const char *inject_shape_name(enum inject_shape shape)
{
	return (unsigned int)shape < SHAPE_COUNT ? shape_names[shape] :
						   "unknown";
}

static void set_desc(struct vring_desc *d, uint64_t addr, uint32_t len,
		     uint16_t flags, uint16_t next)
{
	d->addr = htole64(addr);
	d->len = htole32(len);
	d->flags = htole16(flags);
	d->next = htole16(next);
}

static int take_descs(struct inject_ring *r, unsigned int n, uint16_t *first)
{
	if (n > (unsigned int)r->num - r->next_desc)
		return -ENOSPC;
	*first = r->next_desc;
	r->next_desc += (uint16_t)n;
	return 0;
}

int inject_take_ro(struct inject_areas *a, size_t len, struct inject_area *out)
{
	size_t off = align_up(a->ro_used, INJECT_TABLE_ALIGN);

	if (off > a->ro_size || len > a->ro_size - off)
		return -ENOSPC;
	a->ro_used = off + len;
	out->iova = a->ro_iova + off;
	out->ptr = a->ro + off;
	return 0;
}

int inject_take_ack(struct inject_areas *a, struct inject_area *out)
{
	if (a->ack_used >= a->ack_size)
		return -ENOSPC;
	out->iova = a->ack_iova + a->ack_used;
	out->ptr = a->ack + a->ack_used++;
	*out->ptr = CVQ_ACK_UNSET;
	return 0;
}

/* An indirect table of @n entries in the read-only area. */
static int take_table(struct inject_ring *r, unsigned int n,
		      struct inject_area *a, struct vring_desc **table)
{
	int err = inject_take_ro(&r->areas, n * DESC_BYTES, a);

	if (!err)
		*table = (struct vring_desc *)(void *)a->ptr;
	return err;
}

/* Builder state for one chain. */
struct build {
	struct inject_ring *r;
	const uint8_t *cmd;
	uint32_t cmd_len;
	struct inject_area cmd_area;
	struct inject_area ack_area;
	struct inject_chain *out;
};

/*
 * Piece @i of the command cut into @k: the first takes what the other
 * k - 1 one-byte pieces leave.
 */
static void piece(const struct build *b, unsigned int k, unsigned int i,
		  uint64_t *addr, uint32_t *len)
{
	uint32_t first = b->cmd_len - (k - 1);

	*addr = b->cmd_area.iova + (i ? first + (i - 1) : 0);
	*len = i ? 1 : first;
}

/* [cmd R][ack W] in @t at @base (a table index), linked. */
static void fill_pair(struct build *b, struct vring_desc *t, uint16_t base)
{
	set_desc(&t[base], b->cmd_area.iova, b->cmd_len, VRING_DESC_F_NEXT,
		 base + 1);
	set_desc(&t[base + 1], b->ack_area.iova, 1, VRING_DESC_F_WRITE, 0);
	b->out->ack = b->ack_area.ptr;
}

/* Direct descriptors carrying the pieces of the command, then the ack. */
static void fill_pieces(struct build *b, struct vring_desc *t, uint16_t base,
			unsigned int k)
{
	uint64_t addr;
	uint32_t len;
	unsigned int i;

	for (i = 0; i < k; i++) {
		piece(b, k, i, &addr, &len);
		set_desc(&t[base + i], addr, len, VRING_DESC_F_NEXT,
			 (uint16_t)(base + i + 1));
	}
	set_desc(&t[base + k], b->ack_area.iova, 1, VRING_DESC_F_WRITE, 0);
	b->out->ack = b->ack_area.ptr;
}

static int build_direct(struct build *b, enum inject_shape shape,
			uint16_t *head)
{
	struct inject_ring *r = b->r;
	struct vring_desc *d = r->desc;
	unsigned int n;
	uint16_t h;
	int err;

	switch (shape) {
	case SHAPE_NEXT_LOOP:
	case SHAPE_NEXT_RANGE:
	case SHAPE_NO_ACK:
		n = 1;
		break;
	case SHAPE_ZERO_LEN:
		n = 3;
		break;
	case SHAPE_SPLIT_HEADER:
		n = 4;
		break;
	case SHAPE_CHAIN_NUM:
		if (r->next_desc || b->cmd_len < (uint32_t)r->num - 1u)
			return -EINVAL;
		n = r->num;
		break;
	default:
		n = 2;
		break;
	}
	err = take_descs(r, n, &h);
	if (err)
		return err;
	*head = h;
	b->out->ndescs = (uint16_t)n;

	switch (shape) {
	case SHAPE_NEXT_LOOP:
		set_desc(&d[h], b->cmd_area.iova, b->cmd_len, VRING_DESC_F_NEXT,
			 h);
		break;
	case SHAPE_NEXT_RANGE:
		set_desc(&d[h], b->cmd_area.iova, b->cmd_len, VRING_DESC_F_NEXT,
			 r->num);
		break;
	case SHAPE_NO_ACK:
		set_desc(&d[h], b->cmd_area.iova, b->cmd_len, 0, 0);
		b->out->ack = NULL;
		break;
	case SHAPE_ZERO_LEN:
		set_desc(&d[h], b->cmd_area.iova, b->cmd_len, VRING_DESC_F_NEXT,
			 h + 1);
		set_desc(&d[h + 1], b->cmd_area.iova, 0, VRING_DESC_F_NEXT,
			 h + 2);
		set_desc(&d[h + 2], b->ack_area.iova, 1, VRING_DESC_F_WRITE, 0);
		b->out->ack = b->ack_area.ptr;
		break;
	case SHAPE_SPLIT_HEADER:
		set_desc(&d[h], b->cmd_area.iova, 1, VRING_DESC_F_NEXT, h + 1);
		set_desc(&d[h + 1], b->cmd_area.iova + 1, 1, VRING_DESC_F_NEXT,
			 h + 2);
		set_desc(&d[h + 2], b->cmd_area.iova + 2, b->cmd_len - 2,
			 VRING_DESC_F_NEXT, h + 3);
		set_desc(&d[h + 3], b->ack_area.iova, 1, VRING_DESC_F_WRITE, 0);
		b->out->ack = b->ack_area.ptr;
		break;
	case SHAPE_CHAIN_NUM:
		fill_pieces(b, d, h, n - 1);
		break;
	case SHAPE_WRITE_ORDER:
		set_desc(&d[h], b->ack_area.iova, 1,
			 VRING_DESC_F_WRITE | VRING_DESC_F_NEXT, h + 1);
		set_desc(&d[h + 1], b->cmd_area.iova, b->cmd_len, 0, 0);
		b->out->ack = b->ack_area.ptr;
		break;
	case SHAPE_ADDR_WRAP:
		fill_pair(b, d, h);
		/* 8 bytes from 2^64 - 4 run past the end of the space. */
		set_desc(&d[h], INJECT_WRAP_ADDR, 8, VRING_DESC_F_NEXT, h + 1);
		break;
	case SHAPE_BUFFER_UNMAPPED:
		fill_pair(b, d, h);
		d[h].addr = htole64(r->unmapped_iova);
		break;
	case SHAPE_CMD_FRAGMENTED:
		fill_pair(b, d, h);
		d[h].addr = htole64(r->fragmented_iova);
		break;
	case SHAPE_SHORT_HEADER:
		fill_pair(b, d, h);
		d[h].len = htole32(1);
		break;
	default: /* SHAPE_NORMAL, SHAPE_AVAIL_IDX_AHEAD */
		fill_pair(b, d, h);
		break;
	}
	return 0;
}

/* The pointer to @table (@len bytes) in direct descriptor @i. */
static void point_to_table(struct vring_desc *d, uint16_t i, uint64_t table,
			   uint32_t len, uint16_t extra_flags, uint16_t next)
{
	set_desc(&d[i], table, len, VRING_DESC_F_INDIRECT | extra_flags, next);
}

static int build_indirect(struct build *b, enum inject_shape shape,
			  uint16_t *head)
{
	struct inject_ring *r = b->r;
	struct vring_desc *d = r->desc, *t, *inner;
	struct inject_area ta, ia;
	unsigned int n_direct = 1, n_table = 2;
	uint32_t table_len;
	uint16_t h;
	int err;

	if (shape == SHAPE_CHAIN_TOO_LONG) {
		if (b->cmd_len < r->num)
			return -EINVAL;
		n_direct = 2;
		n_table = r->num;
	} else if (shape == SHAPE_INDIRECT_NEXT) {
		n_direct = 2;
		n_table = 1;
	} else if (shape == SHAPE_INDIRECT_NESTED) {
		n_table = 1;
	}
	err = take_descs(r, n_direct, &h);
	if (!err)
		err = take_table(r, n_table, &ta, &t);
	if (err)
		return err;
	*head = h;
	b->out->ndescs = (uint16_t)n_direct;
	table_len = n_table * DESC_BYTES;

	switch (shape) {
	case SHAPE_CHAIN_TOO_LONG: {
		uint64_t addr;
		uint32_t len;
		unsigned int i;

		/* Piece 0 direct, pieces 1..num-1 and the ack in the table. */
		piece(b, r->num, 0, &addr, &len);
		set_desc(&d[h], addr, len, VRING_DESC_F_NEXT, h + 1);
		point_to_table(d, h + 1, ta.iova, table_len, 0, 0);
		for (i = 1; i < r->num; i++) {
			piece(b, r->num, i, &addr, &len);
			set_desc(&t[i - 1], addr, len, VRING_DESC_F_NEXT,
				 (uint16_t)i);
		}
		set_desc(&t[r->num - 1], b->ack_area.iova, 1,
			 VRING_DESC_F_WRITE, 0);
		b->out->ack = b->ack_area.ptr;
		break;
	}
	case SHAPE_INDIRECT_NEXT:
		set_desc(&t[0], b->cmd_area.iova, b->cmd_len, 0, 0);
		point_to_table(d, h, ta.iova, table_len, VRING_DESC_F_NEXT,
			       h + 1);
		set_desc(&d[h + 1], b->ack_area.iova, 1, VRING_DESC_F_WRITE, 0);
		b->out->ack = b->ack_area.ptr;
		break;
	case SHAPE_INDIRECT_NESTED:
		err = take_table(r, 2, &ia, &inner);
		if (err)
			return err;
		fill_pair(b, inner, 0);
		point_to_table(t, 0, ia.iova, 2 * DESC_BYTES, 0, 0);
		point_to_table(d, h, ta.iova, table_len, 0, 0);
		break;
	case SHAPE_INDIRECT_LOOP:
		set_desc(&t[0], b->cmd_area.iova, b->cmd_len, VRING_DESC_F_NEXT,
			 1);
		set_desc(&t[1], b->cmd_area.iova, b->cmd_len, VRING_DESC_F_NEXT,
			 0);
		point_to_table(d, h, ta.iova, table_len, 0, 0);
		break;
	default:
		fill_pair(b, t, 0);
		if (shape == SHAPE_INDIRECT_LEN_ZERO)
			table_len = 0;
		else if (shape == SHAPE_INDIRECT_LEN_ODD)
			table_len = DESC_BYTES + DESC_BYTES / 2;
		point_to_table(d, h, ta.iova, table_len,
			       shape == SHAPE_INDIRECT_WRITE_FLAG ?
				       VRING_DESC_F_WRITE :
				       0,
			       0);
		break;
	}
	return 0;
}

static bool is_indirect(enum inject_shape shape)
{
	switch (shape) {
	case SHAPE_CHAIN_TOO_LONG:
	case SHAPE_INDIRECT:
	case SHAPE_INDIRECT_WRITE_FLAG:
	case SHAPE_INDIRECT_LOOP:
	case SHAPE_INDIRECT_LEN_ZERO:
	case SHAPE_INDIRECT_LEN_ODD:
	case SHAPE_INDIRECT_NESTED:
	case SHAPE_INDIRECT_NEXT:
		return true;
	default:
		return false;
	}
}

/* The ack of SHAPE_ACK_READ_ONLY: a byte of the read-only area. */
static int build_ack_read_only(struct build *b, uint16_t *head)
{
	struct inject_ring *r = b->r;
	struct inject_area target;
	int err;

	err = inject_take_ro(&r->areas, 1, &target);
	if (!err)
		err = build_direct(b, SHAPE_NORMAL, head);
	if (err)
		return err;
	*target.ptr = CVQ_ACK_UNSET;
	r->desc[*head + 1].addr = htole64(target.iova);
	b->out->ack = NULL;
	b->out->readonly_target = target.ptr;
	return 0;
}

int inject_ring_build(struct inject_ring *r, enum inject_shape shape,
		      const uint8_t *cmd, uint32_t cmd_len,
		      struct inject_chain *out)
{
	struct build b = { .r = r, .cmd = cmd, .cmd_len = cmd_len, .out = out };
	uint16_t head = r->num;
	int err;

	*out = (struct inject_chain){ 0 };
	if ((unsigned int)shape >= SHAPE_COUNT || cmd_len < 2 ||
	    (shape == SHAPE_SPLIT_HEADER && cmd_len < 3))
		return -EINVAL;
	err = inject_take_ro(&r->areas, cmd_len, &b.cmd_area);
	if (!err && shape != SHAPE_NO_ACK && shape != SHAPE_HEAD_RANGE)
		err = inject_take_ack(&r->areas, &b.ack_area);
	if (err)
		return err;
	memcpy(b.cmd_area.ptr, cmd, cmd_len);

	if (shape == SHAPE_HEAD_RANGE)
		err = 0; /* the head is num: no descriptor at all */
	else if (shape == SHAPE_ACK_READ_ONLY)
		err = build_ack_read_only(&b, &head);
	else if (is_indirect(shape))
		err = build_indirect(&b, shape, &head);
	else
		err = build_direct(&b, shape, &head);
	if (err)
		return err;

	out->head = head;
	r->avail->ring[r->avail_idx & (r->num - 1)] = htole16(head);
	r->avail_idx++;
	out->publish_idx = r->avail_idx;
	if (shape == SHAPE_AVAIL_IDX_AHEAD)
		out->publish_idx = (uint16_t)(r->avail_idx + r->num);
	return 0;
}
