/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control of the fake device-facing layers test_cli links against.
 */
#ifndef VDPACTL_FAKE_BACKEND_H
#define VDPACTL_FAKE_BACKEND_H

/* Forgets the commands earlier runs sent. */
void fake_backend_reset(void);

#endif
