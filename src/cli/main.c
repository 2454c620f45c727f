/* The hysim program: run, check, modes, plot (and later site). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hysim <command> [args]\n"
            "  run FILE [-o DIR] [--quiet]   run a test definition (--monitor [HOST:]PORT: live\n"
            "                                web page with pause, resume and abort)\n"
            "  check FILE                    validate a test definition without running it\n"
            "  modes FILE                    print periods and mode shapes\n"
            "  plot DIR                      draw the plots of a finished run (gnuplot)\n"
            "  report DIR                    write DIR/report.html, the run's one-file report\n"
            "  version                       print the version\n"
            "exit codes: 0 completed, 1 unstable (or failed), 2 bad input, 3 aborted (a site was\n"
            "lost, timed out or stopped the test; every recorded step is kept)\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0) return hs_cli_run(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0) return hs_cli_check(argc - 1, argv + 1);
    if (strcmp(cmd, "modes") == 0) return hs_cli_modes(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0) return hs_cli_plot(argc - 1, argv + 1);
    if (strcmp(cmd, "site") == 0) return hs_cli_site(argc - 1, argv + 1);
    if (strcmp(cmd, "keygen") == 0) return hs_cli_keygen(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0) return hs_cli_report(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("hysim %s\n", HS_VERSION_STRING);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "hysim: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
