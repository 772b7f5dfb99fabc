/* SPDX-License-Identifier: GPL-2.0-only */
/* The receive filter the control queue programs. Kernel-free. */
#ifndef VSB_FILTER_H
#define VSB_FILTER_H

#include "vsb_port.h"
#include "vsb_cvq.h"

bool vsb_rx_filter_accepts(const struct vsb_net_ctrl *ctrl, u64 features,
			   const u8 *frame, u32 len);

#endif /* VSB_FILTER_H */
