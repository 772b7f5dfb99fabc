// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A command over several IOTLB maps: two pages of the tool's memory are
 * mapped in the opposite order at consecutive IOVAs, and the command is
 * written across the boundary, so the device must translate each part
 * on its own. vhost-vdpa maps whole pages (it rounds a map's IOVA down
 * to a page), so a map of a few bytes is not possible and an 8-byte
 * command reaches two maps at most.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "inject/inject_run.h"
#include "lib/cvq_cmd.h"
#include "lib/diag.h"
#include "lib/util.h"

#define FRAGMENT_PAGES 2
/* Past the ring cases' unmapped IOVA, page-aligned. */
#define FRAGMENT_IOVA_GAP (2u << 20)
/* Bytes of the command in the first map. */
#define FRAGMENT_HEAD 4

/* Writes @cmd so that it starts FRAGMENT_HEAD bytes before the boundary. */
static void place_command(uint8_t *mem, size_t page, const uint8_t *cmd,
			  uint32_t len)
{
	/* IOVA page 0 is the second user page, IOVA page 1 the first. */
	memcpy(mem + 2 * page - FRAGMENT_HEAD, cmd, FRAGMENT_HEAD);
	memcpy(mem, cmd + FRAGMENT_HEAD, len - FRAGMENT_HEAD);
}

int inject_run_fragmented(struct inject_session *s)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct iotlb_map maps[FRAGMENT_PAGES];
	uint8_t cmd[CVQ_DATA_MAX + 2];
	uint64_t iova;
	uint8_t *mem;
	uint32_t len;
	int err;

	err = inject_open_ring(s, true);
	if (err || s->obs->skipped)
		return err;
	/*
	 * Shared, as the rest of the tool's memory: with a private mapping
	 * neither vdpa_sim_batch nor vdpa_sim_net could read the maps.
	 */
	mem = mmap(NULL, FRAGMENT_PAGES * page, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return pr_errno(errno, "%s: mmap %zu bytes", s->o->devname,
				FRAGMENT_PAGES * page);
	s->fragmented_mem = mem;
	s->fragmented_len = FRAGMENT_PAGES * page;

	len = inject_payload_bytes(s->c->payload, 0, cmd);
	place_command(mem, page, cmd, len);

	iova = align_up(s->dev.iova_end, page) + FRAGMENT_IOVA_GAP;
	maps[0] = (struct iotlb_map){ .iova = iova,
				      .size = page,
				      .uaddr = (uintptr_t)(mem + page),
				      .perm = VHOST_ACCESS_RO };
	maps[1] = (struct iotlb_map){ .iova = iova + page,
				      .size = page,
				      .uaddr = (uintptr_t)mem,
				      .perm = VHOST_ACCESS_RO };
	err = vhost_vdpa_iotlb_map(&s->dev.vhost, s->dev.asid, maps,
				   FRAGMENT_PAGES);
	if (err)
		return err;
	s->fragmented_iova = iova + page - FRAGMENT_HEAD;
	return inject_run_chains(s);
}
