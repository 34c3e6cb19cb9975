/* run_cmd.h - run a program from a test and capture its exit status, stdout and stderr. */
#ifndef EXITSCOPE_TESTS_RUN_CMD_H
#define EXITSCOPE_TESTS_RUN_CMD_H

struct run_result {
	int status;	/* exit code; 128 + signal if killed; -1 if it could not run */
	char *out;	/* captured stdout, NUL-terminated (never NULL after run_cmd) */
	char *err;	/* captured stderr */
};

/* Run argv (argv[0] looked up in PATH), stdin from /dev/null; returns r->status. */
int run_cmd(struct run_result *r, const char *const argv[]);
void run_free(struct run_result *r);

#endif
