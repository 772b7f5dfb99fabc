// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * insn_count: a QEMU TCG plugin that counts the guest instructions executed
 * between two simulator markers, on every vCPU, split into user and
 * kernel mode. Wall time under TCG moves by a quarter from boot to boot;
 * instruction counts do not (except where the guest itself waits on the
 * clock, as a polling device does), so a change to the device or the tool
 * can be judged in one run.
 *
 * A marker is an x86 "nopl disp32(%rax,%rax,1)" whose displacement is
 * 'V' 'S' 'B' and one byte: the operation in its high nibble (1 start,
 * 2 stop), a slot in its low nibble (see tools/vdpactl-batch/lib/
 * sim_mark.h). On hardware it is a nop. A window runs from a start to the
 * stop of the same slot, whichever vCPU executes them, and counts what
 * all vCPUs executed meanwhile: the client, its system calls, the device's
 * worker, interrupts, idle. Each window appends one line to the file
 * given as "out=PATH", the sums first, then each vCPU's part:
 *
 *   slot=S user=U kernel=K vcpu0.user=U0 vcpu0.kernel=K0 vcpu1.user=...
 *
 * With the client pinned to one vCPU and the device's worker to another,
 * the parts tell the device's instructions from the client's.
 *
 * Counting is per translation block, when the block starts; a window is
 * off by at most the rest of the block its markers sit in.
 *
 * With "profile=PATH" the plugin also says where the instructions went:
 * each translation block counts what it executed while a window was open,
 * in the slot of the window started last (a run's loads do not overlap),
 * and at exit PATH gets one line per block, slot and vCPU,
 *
 *   slot=S pc=0xADDR insns=N vcpu=V
 *
 * ADDR being the block's first guest virtual address (16 hex digits),
 * which scripts/lib/insn-profile.awk names after the guest's kallsyms.
 * vCPUs from PROFILE_VCPUS on are profiled as the last one below it.
 * A block retranslated at the same address gets a line of its own.
 *
 * Usage: qemu-system-x86_64 -plugin insn_count.so,out=PATH[,profile=PATH] ...
 *
 * The declarations below are of QEMU's public plugin API (version 1, as
 * QEMU 7.2 has it), written here so the plugin builds without QEMU's
 * source.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id,
					     unsigned int vcpu_index);
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id,
				       qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

#define INSN_COUNT_EXPORT __attribute__((visibility("default")))

INSN_COUNT_EXPORT int qemu_plugin_version = 1;

#define MAX_VCPUS 64
#define SLOTS 16
/* The test bed boots 2; a block's profile holds this many. */
#define PROFILE_VCPUS 4
#define MARK_LEN 8
#define MARK_START 1
#define MARK_STOP 2
/* x86-64: the kernel lives in the upper half of the address space. */
#define KERNEL_START 0xffff800000000000ULL

enum { USER, KERNEL, MODES };

/* Written only by the vCPU's own thread; read by any at a marker. */
static uint64_t counts[MAX_VCPUS][MODES];
/* Where each vCPU's counts stood at its slot's start marker. */
static uint64_t window_start[SLOTS][MAX_VCPUS][MODES];
/* vCPUs started so far: the parts a window line gives. */
static unsigned int n_vcpus;
static FILE *out;

/* One translated block, with profile=: what it ran in each slot's windows. */
struct tb_profile {
	struct tb_profile *next;
	uint64_t vaddr;
	uintptr_t udata; /* tb_exec()'s: instructions << 1 | mode */
	uint64_t execs[SLOTS][PROFILE_VCPUS];
};

static FILE *profile_out;
/* Every block translated, newest first; pushed by any vCPU thread. */
static struct tb_profile *profiles;
/* The slot of the window started last, or -1 once it stopped. */
static int profile_slot = -1;

static void read_counts(uint64_t now[MAX_VCPUS][MODES])
{
	unsigned int v, m;

	for (v = 0; v < MAX_VCPUS; v++)
		for (m = 0; m < MODES; m++)
			now[v][m] = __atomic_load_n(&counts[v][m],
						    __ATOMIC_RELAXED);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	unsigned int n = __atomic_load_n(&n_vcpus, __ATOMIC_RELAXED);

	(void)id;
	while (vcpu < MAX_VCPUS && vcpu >= n &&
	       !__atomic_compare_exchange_n(&n_vcpus, &n, vcpu + 1, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* One window's line: the sums, then each vCPU's part. */
static void window_write(unsigned int slot,
			 const uint64_t now[MAX_VCPUS][MODES])
{
	unsigned int v, n = __atomic_load_n(&n_vcpus, __ATOMIC_RELAXED);
	unsigned long long d[MAX_VCPUS][MODES], sum[MODES] = { 0 };

	for (v = 0; v < MAX_VCPUS; v++) {
		d[v][USER] = now[v][USER] - window_start[slot][v][USER];
		d[v][KERNEL] = now[v][KERNEL] - window_start[slot][v][KERNEL];
		sum[USER] += d[v][USER];
		sum[KERNEL] += d[v][KERNEL];
	}
	fprintf(out, "slot=%u user=%llu kernel=%llu", slot, sum[USER],
		sum[KERNEL]);
	for (v = 0; v < n; v++)
		fprintf(out, " vcpu%u.user=%llu vcpu%u.kernel=%llu", v,
			d[v][USER], v, d[v][KERNEL]);
	fputc('\n', out);
	fflush(out);
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	uintptr_t n = (uintptr_t)udata >> 1, mode = (uintptr_t)udata & 1;

	if (vcpu < MAX_VCPUS)
		__atomic_store_n(&counts[vcpu][mode], counts[vcpu][mode] + n,
				 __ATOMIC_RELAXED);
}

static void mark_exec(unsigned int vcpu, void *udata)
{
	unsigned int code = (uintptr_t)udata, slot = code & 0xf;
	uint64_t now[MAX_VCPUS][MODES];

	(void)vcpu;
	read_counts(now);
	if (code >> 4 == MARK_START) {
		memcpy(window_start[slot], now, sizeof(now));
		__atomic_store_n(&profile_slot, slot, __ATOMIC_RELAXED);
	} else if (code >> 4 == MARK_STOP && out) {
		int open = slot;

		__atomic_compare_exchange_n(&profile_slot, &open, -1, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		window_write(slot, now);
	}
}

static void tb_exec_profiled(unsigned int vcpu, void *udata)
{
	struct tb_profile *p = udata;
	int slot = __atomic_load_n(&profile_slot, __ATOMIC_RELAXED);

	tb_exec(vcpu, (void *)p->udata);
	if (vcpu >= PROFILE_VCPUS)
		vcpu = PROFILE_VCPUS - 1;
	if (slot >= 0)
		__atomic_fetch_add(&p->execs[slot][vcpu], 1, __ATOMIC_RELAXED);
}

/*
 * A block's profile, or NULL (then the block is only counted): a block
 * the profile cannot hold must not change the counts of the windows.
 */
static struct tb_profile *tb_profile_new(uint64_t vaddr, uintptr_t udata)
{
	struct tb_profile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->vaddr = vaddr;
	p->udata = udata;
	p->next = __atomic_load_n(&profiles, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&profiles, &p->next, p, true,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	return p;
}

/* The marker's operation and slot, or 0 if @insn is not a marker. */
static unsigned int mark_code(const struct qemu_plugin_insn *insn)
{
	static const unsigned char prefix[4] = { 0x0f, 0x1f, 0x84, 0x00 };
	const unsigned char *b;

	if (qemu_plugin_insn_size(insn) != MARK_LEN)
		return 0;
	b = qemu_plugin_insn_data(insn);
	if (memcmp(b, prefix, sizeof(prefix)) || b[5] != 'B' || b[6] != 'S' ||
	    b[7] != 'V')
		return 0;
	if (b[4] >> 4 != MARK_START && b[4] >> 4 != MARK_STOP)
		return 0;
	return b[4];
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	uintptr_t mode = vaddr >= KERNEL_START, udata = n << 1 | mode;
	struct tb_profile *p = profile_out ? tb_profile_new(vaddr, udata) :
					     NULL;

	(void)id;
	if (p)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_profiled,
						     QEMU_PLUGIN_CB_NO_REGS, p);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(
			tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, (void *)udata);
	if (mode == KERNEL)
		return;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		unsigned int code = mark_code(insn);

		if (code)
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, mark_exec, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)code);
	}
}

static void profile_write(void)
{
	const struct tb_profile *p;
	unsigned int s, v;

	for (p = __atomic_load_n(&profiles, __ATOMIC_ACQUIRE); p; p = p->next)
		for (s = 0; s < SLOTS; s++)
			for (v = 0; v < PROFILE_VCPUS; v++)
				if (p->execs[s][v])
					fprintf(profile_out,
						"slot=%u pc=0x%016llx insns=%llu vcpu=%u\n",
						s, (unsigned long long)p->vaddr,
						(unsigned long long)(p->execs[s]
									     [v] *
								     (p->udata >>
								      1)),
						v);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (out)
		fclose(out);
	out = NULL;
	if (profile_out) {
		profile_write();
		fclose(profile_out);
	}
	profile_out = NULL;
}

static FILE *open_arg(const char *arg, const char *key, const char *mode)
{
	FILE *f = fopen(arg + strlen(key), mode);

	if (!f) {
		qemu_plugin_outs("insn_count: cannot open ");
		qemu_plugin_outs(arg);
		qemu_plugin_outs("\n");
	}
	return f;
}

INSN_COUNT_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					  const struct qemu_info_t *info,
					  int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out = open_arg(argv[i], "out=", "a");
			if (!out)
				return -1;
		} else if (!strncmp(argv[i], "profile=", 8)) {
			profile_out = open_arg(argv[i], "profile=", "w");
			if (!profile_out)
				return -1;
		}
	}
	if (!out) {
		qemu_plugin_outs("insn_count: out=PATH is required\n");
		return -1;
	}
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
