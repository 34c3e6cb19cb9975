/* run_cmd.c - run a program from a test and capture its exit status, stdout and stderr. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/run_cmd.h"

static char *slurp(FILE *f)
{
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap), *nb;

	rewind(f);
	while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	if (!buf)
		return strdup("");
	buf[n] = '\0';
	return buf;
}

int run_cmd(struct run_result *r, const char *const argv[])
{
	FILE *out = tmpfile(), *err = tmpfile();
	int st, devnull;
	pid_t pid;

	r->status = -1;
	r->out = r->err = NULL;
	if (!out || !err)
		goto done;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s failed\n", argv[0]);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &st, 0) == pid) {
		if (WIFEXITED(st))
			r->status = WEXITSTATUS(st);
		else if (WIFSIGNALED(st))
			r->status = 128 + WTERMSIG(st);
	}
done:
	r->out = out ? slurp(out) : strdup("");
	r->err = err ? slurp(err) : strdup("");
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	return r->status;
}

void run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}
