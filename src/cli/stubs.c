/* Placeholder subcommands until their implementations land (each prints why it cannot run). */
#include "cli.h"

#include <stdio.h>

#define HS_CLI_PENDING(fn, what)                                                                   \
    int fn(int argc, char **argv)                                                                  \
    {                                                                                              \
        (void)argc;                                                                                \
        (void)argv;                                                                                \
        fprintf(stderr, "hysim: '%s' is not built yet\n", what);                                  \
        return HS_EXIT_INPUT;                                                                      \
    }

