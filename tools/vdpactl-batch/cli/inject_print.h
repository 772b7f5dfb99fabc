/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text and JSON output of "inject list" and of a case's result.
 */
#ifndef VDPACTL_INJECT_PRINT_H
#define VDPACTL_INJECT_PRINT_H

#include "cli/output.h"
#include "inject/inject_case.h"
#include "inject/inject_obs.h"

void inject_print_case(struct output *o, const struct inject_case *c);
void inject_print_result(struct output *o, const char *dev,
			 const struct inject_case *c,
			 const struct inject_obs *obs);

#endif
