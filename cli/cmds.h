/* cmds.h - entry points of the `exitscope <command>` subcommands (cli/cmd_*.c). */
#ifndef EXITSCOPE_CLI_CMDS_H
#define EXITSCOPE_CLI_CMDS_H

int cmd_info(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_run(int argc, char **argv);

#endif
