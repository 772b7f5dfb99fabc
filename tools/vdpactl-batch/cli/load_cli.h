/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the "load" and "compare" commands share: their common options and
 * limits, and turning device names into vhost-vdpa targets.
 */
#ifndef VDPACTL_LOAD_CLI_H
#define VDPACTL_LOAD_CLI_H

#include "cli/opt.h"
#include "cli/progress.h"
#include "cli/vdpactl.h"
#include "load/bench.h"
#include "load/load.h"

#define LOAD_DEVS_MAX BENCH_TARGETS_MAX
#define LOAD_COMMON_OPTS 12

/* Option synopsis and limits both commands print in their help. */
#define LOAD_COMMON_SYNOPSIS                                                         \
	"                  [ --kick { each | once } ] [ --wait { poll | call } ]\n"  \
	"                  [ --profile { mac | qemu | vlan | mixed } ] [ --asid ]\n" \
	"                  [ --timeout MS ] [ --ring { split | packed } ]\n"         \
	"                  [ --ring-size NUM ] [ --cold ] [ --trace-marks ]\n"       \
	"                  [ --restore-mac ]\n"

#define LOAD_LIMITS                                                              \
	"N: commands per load, 1..65536. R: loads, 1..1000000 (default 1000).\n" \
	"MS: longest wait for one completion, 1..600000 (default 1000).\n"       \
	"--ring: the CVQ's virtqueue format (default split); packed needs the\n" \
	"  device to offer VIRTIO_F_RING_PACKED.\n"                              \
	"NUM: CVQ size up to the device's (default 64, as QEMU), a power of 2\n" \
	"  (vhost wants one, for a packed ring too).\n"                          \
	"--cold: every load starts the device from reset, as QEMU on VM start\n" \
	"  or migration in; timed from the reset to the data queues' enable.\n"  \
	"--trace-marks: write \"vdpactl-batch: load start\" and \"... stop\"\n"  \
	"  lines to the kernel's trace_marker around each load, untimed.\n"

struct load_args {
	struct load_config cfg;
	const char *devs[LOAD_DEVS_MAX];
	unsigned int n_devs;
	bool csv;
};

/* A device to load: where it is and its management device. */
struct load_target {
	struct vdpa_location loc;
	char mgmtdev[2 * VDPA_NAME_LEN + 2];
};

void load_args_init(struct load_args *a);

/* Writes the shared options into @opts; returns how many (at most 11). */
size_t load_common_opts(struct load_args *a, struct opt *opts);

/*
 * What the options allow only together: false for a --dev that is no
 * device name or is given twice, or a --ring-size that is not a power
 * of 2, after a usage error naming @cmd and @usage_fn's usage.
 */
bool load_args_valid(const char *cmd, const struct load_args *a,
		     void (*usage_fn)(void));

/*
 * The named devices, or every device bound to vhost_vdpa if none is named;
 * each must be bound to vhost_vdpa. Prints failures.
 */
int load_resolve_targets(struct vdpactl *ctx, const struct load_args *a,
			 struct load_target *targets, unsigned int *n);

/* The CVQ's vendor stats; quiet, so a device without them is only noted. */
int load_read_vstats(struct vdpactl *ctx, const char *dev, uint32_t qidx,
		     struct vdpa_vstats *stats);

/* The engine's way to the tool's load sessions (load/load.h). */
extern const struct bench_session_ops load_bench_ops;

/* What the engine's hooks reach: the context, and the engine itself. */
struct load_bench_link {
	struct vdpactl *ctx;
	struct bench *bench;
	void *data; /* the command's own */
	struct progress progress;
};

/*
 * A bench_hooks read_vstats for a struct load_bench_link: the vendor
 * counters of the target's CVQ, as load_read_vstats().
 */
int load_bench_vstats(void *link, unsigned int target,
		      struct vdpa_vstats *stats);

/* A bench_hooks round_done for a struct load_bench_link: its progress. */
void load_bench_progress(void *link, unsigned int done, unsigned int rounds);

/*
 * Runs @link's engine with a progress line on a terminal (not with -j),
 * named @what; bench_run()'s result. On failure @why (@len bytes) says
 * what stopped it: "interrupted by SIGINT", or the last error printed;
 * *@interrupted tells which.
 */
int load_bench_run(struct load_bench_link *link, const char *what,
		   bool *interrupted, char *why, size_t len);

#endif
