/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Simulator markers around a timed region, for tools/insn-count (a QEMU
 * TCG plugin that counts the guest instructions executed between them).
 * A marker is an x86 "nopl disp32(%rax,%rax,1)" whose displacement says
 * 'V' 'S' 'B' and carries an operation and a slot: a nop on hardware and
 * without the plugin, so the tool always executes them. Other
 * architectures get no markers.
 */
#ifndef VDPACTL_SIM_MARK_H
#define VDPACTL_SIM_MARK_H

#define SIM_MARK_START 1
#define SIM_MARK_STOP 2
#define SIM_MARK_SLOTS 16

/* Mark @op (SIM_MARK_START or _STOP) of @slot; anything else is ignored. */
void sim_mark(unsigned int op, unsigned int slot);

#endif /* VDPACTL_SIM_MARK_H */
