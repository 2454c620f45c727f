/* Command-line words shared by the subcommands: --help and --set KEY=VALUE. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int hs_cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int hs_cli_take_set(int argc, char **argv, int *i, const char *cmd, hs_cli_sets *sets)
{
    if (strcmp(argv[*i], "--set") != 0) return 0;
    if (*i + 1 >= argc || !strchr(argv[*i + 1], '=')) {
        fprintf(stderr, "hysim %s: --set needs KEY=VALUE (e.g. --set analysis.dt=0.005)\n", cmd);
        return -1;
    }
    if (sets->n == HS_CLI_MAX_SETS) {
        fprintf(stderr, "hysim %s: at most %d --set options\n", cmd, HS_CLI_MAX_SETS);
        return -1;
    }
    sets->set[sets->n++] = argv[++*i];
    return 1;
}
