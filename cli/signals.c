/*
 * signals.c - Ctrl-C handling: the one flag a signal handler may set. In a
 * run of `run --repeat` (method/repeat.h's REPEAT_ENV is set), the parent
 * passes its stop on to the run under way, which may have had the same
 * Ctrl-C from the terminal already: that copy never counts as a second one.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "method/repeat.h"

static volatile sig_atomic_t stop_requested;
/* The repeat parent whose signals only ever stop (0: none); set before the handler is. */
static pid_t repeat_parent;

volatile sig_atomic_t *cli_stop_flag(void)
{
	return &stop_requested;
}

static void on_sigint(int sig, siginfo_t *info, void *uctx)
{
	bool forwarded = repeat_parent && info && info->si_code == SI_USER &&
			 info->si_pid == repeat_parent;

	if (stop_requested && !forwarded) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	if (!stop_requested)
		stop_requested = sig;
}

void cli_install_sigint(void)
{
	struct sigaction sa;

	if (getenv(REPEAT_ENV))
		repeat_parent = getppid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigint;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
