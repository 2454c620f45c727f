/* The hysim program: run, check, modes, plot, site, keygen, version. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: hysim <command> [args]   (hysim <command> --help: that command's usage)\n"
        "  run FILE [-o DIR] [--quiet] [--set KEY=VALUE ...] [--monitor [HOST:]PORT]\n"
        "                                run a test definition (--monitor: live web page with\n"
        "                                pause, resume and abort)\n"
        "  run [FILE] --resume DIR       go on with an interrupted run from its checkpoint\n"
        "  check FILE [--set KEY=VALUE ...]\n"
        "                                validate a test definition and check its physics\n"
        "                                (periods, record, stability, limits) without running\n"
        "  modes FILE [--set KEY=VALUE ...]\n"
        "                                print periods and mode shapes\n"
        "  plot DIR [--format svg|pdf]   draw the plots of a finished run (gnuplot; PNG by "
        "default)\n"
        "  report DIR                    write DIR/report.html, the run's one-file report\n"
        "  site --config SITE.yaml [--log FILE [--log-max MiB]] [--once] [--monitor [HOST:]PORT]\n"
        "                                serve one laboratory to remote coordinators\n"
        "  pretest --config SITE.yaml -o OUT.json [--noise S] [--stiffness A,F,N] [--dynamics "
        "A,H,N]\n"
        "                                noise, initial stiffness and actuator delay of a site's\n"
        "                                laboratory, before the specimen sees a test\n"
        "  keygen FILE                   write a new key shared by a site and its coordinators\n"
        "  plant --config PLANT.yaml     play a laboratory behind udp for a site (real clock)\n"
        "  version                       print the version\n"
        "--set KEY=VALUE changes one scalar of the test file (a dotted path: analysis.dt=0.005,\n"
        "ground_motion.file=PATH); the value is checked like the file's own text.\n"
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
    if (strcmp(cmd, "pretest") == 0) return hs_cli_pretest(argc - 1, argv + 1);
    if (strcmp(cmd, "keygen") == 0) return hs_cli_keygen(argc - 1, argv + 1);
    if (strcmp(cmd, "plant") == 0) return hs_cli_plant(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0) return hs_cli_report(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc > 2 && hs_cli_is_help(argv[2])) {
            printf("usage: hysim version\n  prints the version\n");
            return 0;
        }
        printf("hysim %s\n", HS_VERSION_STRING);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || hs_cli_is_help(cmd)) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "hysim: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
