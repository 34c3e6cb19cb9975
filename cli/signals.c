/* signals.c - Ctrl-C handling: the one flag a signal handler may set. */
#include <signal.h>
#include <string.h>

#include "cli/cli.h"

static volatile sig_atomic_t stop_requested;

volatile sig_atomic_t *cli_stop_flag(void)
{
	return &stop_requested;
}

static void on_sigint(int sig)
{
	if (stop_requested) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stop_requested = 1;
}

void cli_install_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
