/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fake guest memory for the host unit tests: one byte array reached by
 * device addresses, with an IOTLB-like map of regions, each read-only,
 * write-only or read-write for the device. The device side (struct
 * vsb_mem) gets -EFAULT for an address no region maps and -EPERM for a
 * mapped one it may not access that way; in both cases nothing is copied.
 * Every device access is counted per region, so tests can check, say,
 * that readable buffers were never written. The driver side (the tests)
 * reaches the bytes directly, without permission checks or counting.
 */
#ifndef FAKE_MEM_H
#define FAKE_MEM_H

#include "vsb_mem.h"

/* Device addresses [FMEM_BASE, FMEM_BASE + FMEM_SIZE); 0 is never mapped. */
#define FMEM_BASE 0x10000ULL
#define FMEM_SIZE 0x40000U
#define FMEM_MAX_REGIONS 256

enum fmem_perm {
	FMEM_RO = 1, /* the device may read */
	FMEM_WO = 2, /* the device may write */
	FMEM_RW = FMEM_RO | FMEM_WO,
};

struct fmem_region {
	u64 addr;
	u64 len;
	unsigned int perm;
	bool mapped;
	/* device accesses that touched this region */
	unsigned int reads;
	unsigned int writes;
};

struct fmem {
	u8 bytes[FMEM_SIZE];
	struct fmem_region regions[FMEM_MAX_REGIONS];
	unsigned int nr_regions;
	u64 next_free; /* bump allocator for fmem_alloc() */
	unsigned int failed; /* device accesses refused */
	struct vsb_mem mem; /* what the code under test is given */
};

struct fmem *fmem_new(void);
void fmem_free(struct fmem *m);

/* Allocate len bytes aligned to align and map them; returns the region. */
int fmem_alloc(struct fmem *m, u64 len, u64 align, unsigned int perm);
/* Allocate and map; returns the device address. */
u64 fmem_alloc_addr(struct fmem *m, u64 len, u64 align, unsigned int perm);
/* Map an existing range; returns the region. */
int fmem_map(struct fmem *m, u64 addr, u64 len, unsigned int perm);
void fmem_unmap(struct fmem *m, int region);
void fmem_set_perm(struct fmem *m, int region, unsigned int perm);
/* The region an fmem_alloc_addr() address starts. */
int fmem_region_of(const struct fmem *m, u64 addr);

/* Driver-side view of [addr, addr + len): must lie in the array. */
void *fmem_ptr(struct fmem *m, u64 addr, u64 len);

/*
 * Little-endian fields at [addr, addr + 2 or 4), driver side; with
 * <endian.h> directly, so a mistake in vsb_seam_host.h cannot cancel itself
 * out in the fakes.
 */
void fmem_put16(struct fmem *m, u64 addr, u16 val);
u16 fmem_get16(struct fmem *m, u64 addr);
u32 fmem_get32(struct fmem *m, u64 addr);

/* Device accesses to a region since the last fmem_reset_counts(). */
unsigned int fmem_reads(const struct fmem *m, int region);
unsigned int fmem_writes(const struct fmem *m, int region);
void fmem_reset_counts(struct fmem *m);

#endif /* FAKE_MEM_H */
