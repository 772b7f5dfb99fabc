// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ctrl-C and SIGTERM: noted for the engine, which stops between loads.
 */
#include <errno.h>
#include <string.h>

#include "cli/interrupt.h"
#include "cli/log.h"

volatile sig_atomic_t interrupt_signal;

static void on_signal(int signo)
{
	/* A second one: the user insists, as without the handler. */
	if (interrupt_signal) {
		signal(signo, SIG_DFL);
		raise(signo);
		return;
	}
	interrupt_signal = signo;
}

int interrupt_install(void)
{
	static const int signals[] = { SIGINT, SIGTERM };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* One at a time: a SIGTERM inside the SIGINT handler is a second. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	/*
	 * No SA_RESTART: a wait in poll() returns and looks again. An
	 * inherited SIG_IGN is taken over too: a script that starts a load
	 * with & (which ignores SIGINT for it) stops it with kill -INT and
	 * wants the report and the clean-up.
	 */
	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (sigaction(signals[i], &sa, NULL))
			return pr_errno(errno, "install a handler for %s",
					strsignal(signals[i]));
	return 0;
}

int interrupt_status(void)
{
	return 128 + interrupt_signal;
}

const char *interrupt_name(void)
{
	return interrupt_signal == SIGTERM ? "SIGTERM" : "SIGINT";
}
