/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - what every `exitscope <command>` shares: exit codes, usage errors,
 * the /dev/kvm path (--kvm-dev or $EXITSCOPE_KVM_DEV), the one-line
 * message for a KVM that cannot be opened, and the end of a measuring
 * command: output written (or kept), stdout checked, Ctrl-C reported.
 */
#ifndef EXITSCOPE_CLI_CLI_H
#define EXITSCOPE_CLI_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

enum cli_exit {
	EXIT_OK = 0,		/* completed (skips are fine) */
	EXIT_FAIL = 1,		/* internal failure, failed check, regression */
	EXIT_USAGE = 2,		/* bad arguments or unreadable input files */
	EXIT_NOKVM = 3,		/* /dev/kvm missing or not accessible */
	EXIT_SKIP = 4,		/* --tap without KVM: the whole stream skipped (kselftest's KSFT_SKIP) */
	EXIT_STOPPED = 130,	/* stopped by Ctrl-C (what was measured is written); */
				/* by SIGTERM 143, SIGHUP 129: 128 + signal (cli_stop_code) */
};

/* The largest seed: what a result's JSON writes as the integer it is (int64). */
#define CLI_SEED_MAX	INT64_MAX

/*
 * An unsigned number of at most max, as written: decimal, or with hex also
 * hexadecimal after 0x (0x3); never octal (010 is ten). It starts with a
 * digit (no sign, no space), any length (leading zeros too), nothing after
 * it. 0, or -EINVAL / -ERANGE. num_parse_u64 (base/num.h), for the options.
 */
int cli_parse_u64(const char *s, bool hex, uint64_t max, uint64_t *out);
/*
 * A decimal number in [min, max], as written: it starts with a digit (or a
 * point and a digit: .5), then digits, a point and an exponent (1e3) only:
 * no sign, no space, no hexadecimal (0x5), no inf or nan; nothing after it.
 * 0, or -EINVAL / -ERANGE.
 */
int cli_parse_num(const char *s, double min, double max, double *out);
/* A percentage: cli_parse_num, with or without a trailing '%'. */
int cli_parse_pct(const char *s, double min, double max, double *out);

/* Print "exitscope CMD: message" and a hint to --help; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Print "exitscope CMD: message" (cmd NULL: "exitscope: message") as one
 * line: control characters and bytes that are no UTF-8 are written as
 * \xNN, valid UTF-8 as it is. Returns code.
 */
int cli_error(const char *cmd, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The KVM device into *path: the option's value, else $EXITSCOPE_KVM_DEV,
 * else NULL (/dev/kvm). EXIT_OK, or EXIT_USAGE after one line when the one
 * given is empty (--kvm-dev '' or EXITSCOPE_KVM_DEV= names no device).
 */
int cli_kvm_path(const char *cmd, const char *opt, const char **path);
/*
 * Check that KVM can be opened; on failure print one line saying why and
 * what to do and return EXIT_NOKVM, else EXIT_OK.
 */
int cli_kvm_check(const char *cmd, const char *kvm_path);
/* Print a one-line KVM error for -errno r (from hostinfo_collect/vm_create). */
int cli_kvm_error(const char *cmd, const char *kvm_path, int r, const char *detail);

/*
 * Before any work: could the output file path be written ("-": stdout;
 * NULL: no output)? EXIT_OK, or EXIT_USAGE after one line naming the file
 * and the reason. Creates nothing.
 */
int cli_output_check(const char *cmd, const char *path);
/*
 * Before any work: out (the value of option opt, NULL: none) must not be
 * the same file (results/outfile.h: outfile_same) as any of paths[0..n-1],
 * each named "what PATH" in the message (what: "input", "--json").
 * EXIT_OK, or EXIT_USAGE after one line.
 */
int cli_output_distinct(const char *cmd, const char *opt, const char *out,
			const char *const *paths, size_t n, const char *what);
struct result_doc;
/*
 * The end of a command that measured something: check that stdout (the
 * table) was written, write doc (results/result_doc.h) to json_path (NULL:
 * no file; doc may be NULL then). If either fails, print one line naming the file and the
 * reason, keep the result in a unique file in $TMPDIR or /tmp named on that
 * line, and return EXIT_FAIL; but when a stop signal interrupted that write
 * (a FIFO without a reader), the line says so and the exit status is the
 * stop's. Else, when stopped, say so in one line and return the stop's
 * status (cli_stop_code); else rc.
 */
int cli_finish(const char *cmd, struct result_doc *doc, const char *json_path, int stop, int rc);
/*
 * The end of a command stopped (stop: the signal) before it measured
 * anything: an existing json_path keeps its contents (no result is
 * replaced with an empty one). The exit status after one line saying so
 * (stdout checked too), or -1 when json_path is not an existing file
 * (then cli_finish writes the result as usual).
 */
int cli_finish_unmeasured(const char *cmd, const char *json_path, int stop);
/*
 * The stdout check alone, for commands that only print: rc, or EXIT_FAIL
 * after one line naming the errno of the failed write.
 */
int cli_stdout_check(const char *cmd, int rc);
/*
 * For the commands that read files and write one (compare, report, export,
 * profile), after cli_install_sigint: where one checks, EXIT_OK when no stop
 * signal came; else one line "stopped by SIGTERM: what" (what NULL: none)
 * and the stop's exit status (cli_stop_code).
 */
int cli_stopped(const char *cmd, const char *what);
/* The same, failing with fail (query: EXIT_USAGE, its 1 is an answer). */
int cli_stdout_check_code(const char *cmd, int rc, int fail);
/*
 * The result files a command reads (report, export): one operand into
 * paths[*n] (max at most): EXIT_OK, or EXIT_USAGE after one line.
 */
int cli_operand_add(const char *cmd, const char **paths, size_t *n, size_t max, const char *arg);
/* Then those after the options (argv[optind..]), and at least one in all: EXIT_OK or EXIT_USAGE. */
int cli_operands_end(const char *cmd, int argc, char **argv, const char **paths, size_t *n, size_t max);
/* The exit statuses of a command that writes one file from result files (report, export). */
#define CLI_TAIL_WRITE_FROM_RESULTS \
	"Exit status: 0 written, 1 cannot write (an old FILE is left as it was),\n" \
	"2 usage error (including an output FILE that cannot be written, found\n" \
	"before any input is read) or unreadable/invalid input; 130, 143, 129\n" \
	"stopped by Ctrl-C, SIGTERM, SIGHUP (one line says so; FILE whole or untouched).\n"

struct result_file;
/*
 * Read the result files paths[0..n-1] into files[]: 0, or a usage error
 * naming the file that could not be read (files[] holds those read before
 * it, the rest untouched: the caller frees what is not NULL).
 */
int cli_read_results(const char *cmd, const char *const *paths, size_t n, struct result_file **files);

struct hostinfo;
struct suite_env;
/*
 * The host record's lane (EXITSCOPE_LANE* from lanes/init) into hi->lane:
 * EXIT_OK, or EXIT_USAGE after one line naming the bad variable.
 */
int cli_host_lane(const char *cmd, struct hostinfo *hi);
/*
 * The start of every measuring command: resolve the KVM device, check it,
 * collect the host record into *hi, arm Ctrl-C, and fill env (kvm_path, hi,
 * stop). Returns EXIT_OK, or the exit code after printing why.
 */
int cli_host_init(const char *cmd, const char *kvm_opt, struct hostinfo *hi,
		  struct suite_env *env);

/*
 * Ctrl-C: the first SIGINT (or SIGTERM, SIGHUP) sets *flag to that signal (runs
 * stop cleanly and results are still written); a second one, while the
 * command still measures, ends it at once with one line saying so and
 * nothing written (the output files as they were), unless it is the stop
 * a `run --repeat` parent passes on to its run. Once the command writes
 * its results (cli_stop_finishing) a second one is ignored: the write is
 * short, and cut it would lose what was measured. The flags are the only
 * process state a signal handler may touch, so they live in cli/signals.c.
 */
volatile sig_atomic_t *cli_stop_flag(void);
void cli_install_sigint(void);
/*
 * A closed pipe on stdout (`| head`) is a failed write (EPIPE), not the
 * end of the process: the result is then kept (cli_finish) and the exit
 * status 1. For the commands that measure or collect (cli_host_init, info).
 */
void cli_ignore_sigpipe(void);
/*
 * fd: an output FIFO the command opened itself (no other process shares
 * its file description), -1 none: the first stop makes it non-blocking,
 * so the rest of a write that a full FIFO blocked fails instead of
 * waiting for a reader forever (stdio writes the rest of a cut write).
 */
void cli_stop_unblock(int fd);
struct outfile;
/* cli_stop_unblock for o when it is written in place by a descriptor of its own; NULL: none. */
void cli_stop_output(const struct outfile *o);
/* From here on the command writes what it measured: a second signal no longer ends it. */
void cli_stop_finishing(void);
/* What stopped the command (a stop flag's value), for its line: "Ctrl-C", "SIGTERM", "SIGHUP". */
const char *cli_stop_name(int sig);
/* Its exit status: 128 + sig (Ctrl-C 130, SIGTERM 143, SIGHUP 129). */
int cli_stop_code(int sig);

#endif
