/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest memory for the fuzz targets: tests/unit/kmod/fake_mem.c's address
 * space and IOTLB-like map, seen by the code under test through a wrapper
 * that
 *   - logs what the device writes, so a target can check that each call
 *     wrote only where and what it may (a pop writes nothing but, once
 *     per ring start, used->flags);
 *   - plays a driver racing the device: fuzzed writes land in guest
 *     memory between two device accesses, as they can from another CPU.
 */
#ifndef FUZZ_MEM_H
#define FUZZ_MEM_H

#include "fake_mem.h"
#include "fuzz_input.h"

/* Device writes logged per fmw_clear_log(); bytes kept of each. */
#define FMW_LOG 72
#define FMW_LOG_BYTES 256
/* Racing driver writes one input may schedule, and their size. */
#define FMW_MAX_RACES 16
#define FMW_RACE_BYTES 8

struct fmw_write {
	u64 addr;
	u32 len;
	int ret; /* what memory answered */
	u8 bytes[FMW_LOG_BYTES];
};

/* A driver write that lands just before device access number at. */
struct fmw_race {
	u32 at;
	u64 addr;
	u8 len;
	u8 bytes[FMW_RACE_BYTES];
};

struct fuzz_mem {
	struct fmem *m;
	struct vsb_mem mem; /* what the code under test is given */
	u32 accesses; /* device accesses so far, failed ones too */
	unsigned int nr_writes; /* device writes since fmw_clear_log() */
	unsigned int total_writes; /* and since fmw_init() */
	struct fmw_write log[FMW_LOG];
	unsigned int nr_races;
	unsigned int races_fired;
	struct fmw_race races[FMW_MAX_RACES];
};

void fmw_init(struct fuzz_mem *fm, struct fmem *m);
void fmw_clear_log(struct fuzz_mem *fm);
/* Schedule one racing write from the input, some accesses from now. */
void fmw_add_race(struct fuzz_mem *fm, struct fuzz_input *in);
/* Drop the races that have not landed. */
void fmw_cancel_races(struct fuzz_mem *fm);

/*
 * One change to the IOTLB from the input: map a range with any
 * permission (unaligned, overlapping: the first region that covers an
 * address wins), unmap a region, or change a region's permission.
 */
void fmw_fuzz_map(struct fuzz_mem *fm, struct fuzz_input *in);

/* Whether the driver (the target) can reach [addr, addr + len). */
bool fmw_in_array(u64 addr, u64 len);

#endif /* FUZZ_MEM_H */
