/* The hysim program's subcommands; each returns the process exit code. */
#ifndef HS_CLI_H
#define HS_CLI_H

#include "hysim/hysim.h"

enum { HS_EXIT_OK = 0, HS_EXIT_FAILED = 1, HS_EXIT_INPUT = 2, HS_EXIT_ABORTED = 3 };

int hs_cli_run(int argc, char **argv);
int hs_cli_check(int argc, char **argv);
int hs_cli_modes(int argc, char **argv);
int hs_cli_plot(int argc, char **argv);
int hs_cli_site(int argc, char **argv);
int hs_cli_keygen(int argc, char **argv);
int hs_cli_report(int argc, char **argv);

#endif
