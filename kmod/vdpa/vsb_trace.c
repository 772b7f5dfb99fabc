// SPDX-License-Identifier: GPL-2.0-only
/* The tracepoints' definitions: vsb_trace.h is read here a second time. */

#define CREATE_TRACE_POINTS
#include "vsb_trace.h"
