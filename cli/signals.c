// SPDX-License-Identifier: GPL-2.0-only
/*
 * signals.c - Ctrl-C handling: the flags a signal handler may set (SIGINT,
 * SIGTERM and SIGHUP all stop; none is installed with SA_RESTART, so a
 * write or an open blocked on a FIFO returns EINTR and the command ends as
 * stopped instead of waiting for a reader forever). In a
 * run of `run --repeat` (method/repeat.h's REPEAT_ENV is set), the parent
 * passes its stop on to the run under way, which may have had the same
 * Ctrl-C from the terminal already: that copy never counts as a second one.
 * A second stop while measuring ends the process at once, with one line;
 * once the results are being written (finishing) it is ignored.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "method/repeat.h"

static volatile sig_atomic_t stop_requested;
/* The command writes its results: a second stop must not cut that. */
static volatile sig_atomic_t finishing;
/* The repeat parent whose signals only ever stop (0: none); set before the handler is. */
static pid_t repeat_parent;
/* An output FIFO of the command's own, made non-blocking by the first stop (-1: none). */
static volatile sig_atomic_t unblock_fd = -1;

volatile sig_atomic_t *cli_stop_flag(void)
{
	return &stop_requested;
}

/* Async-signal-safe: fcntl only. */
static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void on_sigint(int sig, siginfo_t *info, void *uctx)
{
	bool forwarded = repeat_parent && info && info->si_code == SI_USER &&
			 info->si_pid == repeat_parent;

	if (stop_requested && !forwarded && !finishing) {
		static const char int_msg[] = "exitscope: stopped at once by a second Ctrl-C: "
					      "nothing written, output files left as they were\n";
		static const char term_msg[] = "exitscope: stopped at once by a second signal: "
					       "nothing written, output files left as they were\n";
		ssize_t w = sig == SIGINT ? write(STDERR_FILENO, int_msg, sizeof(int_msg) - 1)
					  : write(STDERR_FILENO, term_msg, sizeof(term_msg) - 1);

		(void)w;
		signal(sig, SIG_DFL);
		raise(sig);
	}
	if (!stop_requested) {
		stop_requested = sig;
		/*
		 * A write blocked on a full FIFO returns what it wrote so far,
		 * and stdio writes the rest at once: non-blocking, that fails
		 * (EAGAIN) instead of waiting for a reader forever.
		 */
		if (unblock_fd >= 0)
			set_nonblock(unblock_fd);
	}
}

void cli_stop_unblock(int fd)
{
	unblock_fd = fd;
	if (fd >= 0 && stop_requested)	/* the stop came first */
		set_nonblock(fd);
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
	sigaction(SIGHUP, &sa, NULL);
}

void cli_ignore_sigpipe(void)
{
	signal(SIGPIPE, SIG_IGN);
}

void cli_stop_finishing(void)
{
	finishing = 1;
}

const char *cli_stop_name(int sig)
{
	return sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "Ctrl-C";
}

int cli_stop_code(int sig)
{
	return sig > 0 && sig < 64 ? 128 + sig : EXIT_STOPPED;
}
