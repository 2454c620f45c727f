/* `hysim plot DIR`: draws a finished run's displacement histories, spring hysteresis loops and
 * energy balance (and for a hybrid run its actuators, plot_actuators.c) from DIR/results.h5 with
 * gnuplot (pngcairo when available, else png). The data go inline (datablocks) in a temporary
 * script in DIR; gnuplot runs without a shell, in DIR, and every text taken from the file is quoted
 * so that no name can inject gnuplot commands.
 *
 * Test hook (not part of the interface): when HS_TEST_PLOT_SCRIPT=PATH is set, the gnuplot
 * script is moved to PATH instead of being removed (tests/cli/plot.sh reads it). */
#include "cli.h"
#include "plot_actuators.h"
#include "plot_data.h"
#include "plot_gp.h"
#include "plot_sites.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PANELS   48 /* hysteresis panels */
#define STACKED_DOFS 6  /* up to this many DOFs get a panel each, beyond: one panel */
#define MAX_CURVES   24 /* a larger model's one panel: the DOFs with the largest peaks */

static const char *const base_outputs[] = {"displacement.png", "hysteresis.png", "energy.png"};
#define NOUT (sizeof base_outputs / sizeof base_outputs[0])

/* The MAX_CURVES DOFs with the largest peak |d| (ascending DOF order) into dofs; their count. */
static int largest_dofs(const hs_plot_data *p, int *dofs)
{
    double peak[MAX_CURVES];
    int m = 0;
    for (int i = 0; i < p->ndof; i++) {
        double x = 0.0;
        for (int64_t k = 0; k < p->n; k++) {
            const double v = fabs(p->d[(size_t)k * (size_t)p->ndof + (size_t)i]);
            if (v > x) x = v; /* NaN never wins */
        }
        int at = m < MAX_CURVES ? m++ : MAX_CURVES;
        if (at == MAX_CURVES && !(x > peak[MAX_CURVES - 1])) continue;
        if (at == MAX_CURVES) at = MAX_CURVES - 1;
        for (; at > 0 && x > peak[at - 1]; at--) { /* sorted by peak, descending */
            peak[at] = peak[at - 1];
            dofs[at] = dofs[at - 1];
        }
        peak[at] = x;
        dofs[at] = i;
    }
    for (int a = 1; a < m; a++) /* DOF order for the legend */
        for (int b = a; b > 0 && dofs[b] < dofs[b - 1]; b--) {
            const int t = dofs[b];
            dofs[b] = dofs[b - 1];
            dofs[b - 1] = t;
        }
    return m;
}

/* The ground motion's panel (the record the structure felt), above the displacements. */
static void ground_panel(FILE *f, const hs_plot_data *p)
{
    double peak = 0.0;
    for (int64_t k = 0; k < p->n; k++)
        if (fabs(p->ag[k]) > peak) peak = fabs(p->ag[k]);
    char key[HS_PLOT_TEXT + 96];
    snprintf(key, sizeof key, "ground motion, peak |a_g| = %.4g %s", peak, p->unit_acceleration);
    fputs("set ylabel ", f);
    hs_gp_label(f, "a_g", p->unit_acceleration);
    fputc('\n', f);
    double lo, hi;
    if (hs_gp_finite_range(p->ag, p->n, 1, 0, &lo, &hi) == 0) {
        hs_gp_empty_panel(f, "ground motion: no finite values", 1);
        hs_gp_range(f, "x", p->t, p->n, 1, 0);
        return;
    }
    hs_gp_range(f, "y", p->ag, p->n, 1, 0);
    fputs("plot $G using 1:2 with lines lw 1 lc rgb '#555555' title ", f);
    hs_gp_quote(f, key);
    fputc('\n', f);
}

static void script_displacement(FILE *f, const hs_plot_data *p)
{
    int64_t stride = hs_gp_stride_of(p->n);
    /* a large model: only the DOFs with the largest peaks are drawn (and written) */
    int chosen[MAX_CURVES];
    const int few = p->ndof > MAX_CURVES, ncurves = few ? largest_dofs(p, chosen) : p->ndof;
    fputs("$D << EOD\n", f);
    for (int64_t k = 0; k < p->n; k++) {
        if (!hs_gp_drawn(k, p->n, stride)) continue;
        hs_gp_number(f, p->t[k]);
        for (int c = 0; c < ncurves; c++)
            hs_gp_number(f, p->d[(size_t)k * (size_t)p->ndof + (size_t)(few ? chosen[c] : c)]);
        fputc('\n', f);
    }
    fputs("EOD\n", f);
    const int ground = p->ag != NULL;
    if (ground) {
        fputs("$G << EOD\n", f);
        for (int64_t k = 0; k < p->n; k++) {
            if (!hs_gp_drawn(k, p->n, stride)) continue;
            hs_gp_number(f, p->t[k]);
            hs_gp_number(f, p->ag[k]);
            fputc('\n', f);
        }
        fputs("EOD\n", f);
    }

    int stacked = p->ndof <= STACKED_DOFS;
    int height = (stacked ? 150 + 190 * p->ndof : 650) + (ground ? 190 : 0);
    if (height < 420) height = 420;
    hs_gp_terminal(f, 1100, height, ".displacement.png.part");
    hs_gp_reset(f);
    char title[3 * HS_PLOT_TEXT];
    hs_gp_title(p, "displacement relative to the ground", title, sizeof title);
    fputs("set xlabel ", f);
    hs_gp_label(f, "time", p->unit_time);
    fputc('\n', f);
    hs_gp_range(f, "x", p->t, p->n, 1, 0);
    if (stacked) {
        fputs("set lmargin 12\nset rmargin 4\nset key top right\n", f);
        fputs("set multiplot layout ", f);
        fprintf(f, "%d,1 title ", p->ndof + ground);
        hs_gp_quote(f, title);
        fputs(" font ',12'\n", f);
        if (ground) ground_panel(f, p);
        for (int i = 0; i < p->ndof; i++) {
            double peak = 0;
            for (int64_t k = 0; k < p->n; k++) {
                double x = fabs(p->d[(size_t)k * (size_t)p->ndof + (size_t)i]);
                if (x > peak) peak = x;
            }
            const char *name = p->dof_names[i];
            char key[2 * HS_PLOT_TEXT + 96];
            snprintf(key, sizeof key, "%s (DOF %d), peak |d| = %.4g %s", name, i + 1, peak,
                     p->unit_length);
            fputs("set ylabel ", f);
            hs_gp_label(f, name, p->unit_length);
            fputc('\n', f);
            double lo, hi;
            if (hs_gp_finite_range(p->d, p->n, p->ndof, i, &lo, &hi) == 0) {
                snprintf(key, sizeof key, "%s (DOF %d): no finite values", name, i + 1);
                hs_gp_empty_panel(f, key, 1);
                hs_gp_range(f, "x", p->t, p->n, 1, 0);
                continue;
            }
            hs_gp_range(f, "y", p->d, p->n, p->ndof, i);
            fprintf(f, "plot $D using 1:%d with %s lw 1.5 lc %d title ", i + 2, hs_gp_style_of(p),
                    i + 1);
            hs_gp_quote(f, key);
            fputc('\n', f);
        }
        fputs("unset multiplot\n", f);
    } else {
        if (ground) {
            fputs("set multiplot layout 2,1\nset lmargin 12\nset key outside right top\n", f);
            ground_panel(f, p);
        }
        fputs("set title ", f);
        hs_gp_quote(f, title);
        fputs(" font ',12'\nset key outside right top\nset ylabel ", f);
        hs_gp_label(f, "displacement", p->unit_length);
        fputc('\n', f);
        double lo, hi;
        int64_t finite = hs_gp_finite_range(p->d, p->n * p->ndof, 1, 0, &lo, &hi);
        if (finite == 0) {
            hs_gp_empty_panel(f, "no finite displacement values", 1);
        } else if (few) {
            if (!(hi > lo)) fprintf(f, "set yrange [%.9g:%.9g]\n", lo - 1, hi + 1);
            fprintf(f, "set key title '%d of %d DOFs: the largest peaks'\n", ncurves, p->ndof);
        } else if (!(hi > lo)) {
            fprintf(f, "set yrange [%.9g:%.9g]\n", lo - 1, hi + 1);
        }
        if (finite != 0) { /* one curve a DOF, its name in the key */
            fputs("plot", f);
            for (int c = 0; c < ncurves; c++) {
                fprintf(f, "%s $D using 1:%d with %s lw 1.2 lc %d title ", c ? "," : "", c + 2,
                        hs_gp_style_of(p), c + 1);
                hs_gp_quote(f, p->dof_names[few ? chosen[c] : c]);
            }
            fputc('\n', f);
        }
        if (ground) fputs("unset multiplot\n", f);
    }
    fputs("set output\n", f);
}

/* hysteresis.png's grid: `count` loops of columns 0.. of x and y (n x width), titled by names;
 * measured: the actuators' measured displacement and force, else deformation and force. */
static void loops(FILE *f, const hs_plot_data *p, const double *x, const double *y, int width,
                  int count, char *const *names, const char *title, int measured)
{
    const hs_gp_loops g = {.block = "$S",
                           .x = x,
                           .y = y,
                           .width = width,
                           .count = count,
                           .names = names,
                           .panel_width = 400,
                           .panel_height = 340,
                           .part = ".hysteresis.png.part",
                           .title = title,
                           .xlabel = measured ? "measured displacement" : "deformation",
                           .xunit = p->unit_length,
                           .ylabel = measured ? "measured force" : "force",
                           .yunit = p->unit_force,
                           .empty = measured ? "no measurement" : "no finite values"};
    hs_gp_loop_grid(f, p, &g);
}

/* A hybrid run with numerical springs (a frame's zero-length elements and links, a shear
 * building's stories): the springs' loops, then beside them the experimental elements' measured
 * at their actuators, in one grid of at most MAX_PANELS panels. */
static void springs_and_actuators(FILE *f, const hs_plot_data *p, int ns)
{
    const int na = p->nact < MAX_PANELS - ns ? p->nact : MAX_PANELS - ns, w = ns + na;
    const size_t rows = (size_t)p->n;
    double *x = hs_malloc(rows * (size_t)w * sizeof *x),
           *y = hs_malloc(rows * (size_t)w * sizeof *y);
    char **names = hs_calloc((size_t)w, sizeof *names);
    if (!x || !y || !names) {
        hs_free(x);
        hs_free(y);
        hs_free(names);
        hs_gp_terminal(f, 700, 400, ".hysteresis.png.part");
        hs_gp_reset(f);
        hs_gp_empty_figure(f, "force-deformation", "out of memory");
        return;
    }
    for (size_t k = 0; k < rows; k++)
        for (int j = 0; j < w; j++) {
            const int act = j >= ns;
            const size_t at =
                k * (size_t)(act ? p->nact : p->nsprings) + (size_t)(act ? j - ns : j);
            x[k * (size_t)w + (size_t)j] = act ? p->act_meas[at] : p->sdef[at];
            y[k * (size_t)w + (size_t)j] = act ? p->act_force[at] : p->sforce[at];
        }
    for (int j = 0; j < w; j++) names[j] = j < ns ? p->spring_names[j] : p->act_names[j - ns];
    char title[3 * HS_PLOT_TEXT + 64];
    hs_gp_title_first(p,
                      "force-deformation: the numerical springs, then the experimental elements "
                      "measured at their actuators",
                      w, p->nsprings + p->nact, title, sizeof title);
    loops(f, p, x, y, w, w, names, title, 0);
    hs_free(x);
    hs_free(y);
    hs_free(names);
}

static void script_hysteresis(FILE *f, const hs_plot_data *p)
{
    const int ns = p->nsprings < MAX_PANELS ? p->nsprings : MAX_PANELS;
    char title[3 * HS_PLOT_TEXT + 64];
    hs_gp_title_first(p, "spring force-deformation", ns, p->nsprings, title, sizeof title);
    if (ns == 0 && p->nact > 0) {
        /* every story experimental: the loops are the actuators' (as in actuators_hysteresis) */
        const int na = p->nact < MAX_PANELS ? p->nact : MAX_PANELS;
        hs_gp_title_first(p,
                          "force-deformation: no numerical springs, the experimental elements "
                          "measured at their actuators",
                          na, p->nact, title, sizeof title);
        loops(f, p, p->act_meas, p->act_force, p->nact, na, p->act_names, title, 1);
        return;
    }
    if (ns > 0 && p->nact > 0 && ns < MAX_PANELS) {
        springs_and_actuators(f, p, ns);
        return;
    }
    if (ns == 0) {
        hs_gp_terminal(f, 700, 400, ".hysteresis.png.part");
        hs_gp_reset(f);
        hs_gp_empty_figure(f, title, "no springs recorded");
        return;
    }
    loops(f, p, p->sdef, p->sforce, p->nsprings, ns, p->spring_names, title, 0);
}

static void script_energy(FILE *f, const hs_plot_data *p)
{
    char title[3 * HS_PLOT_TEXT];
    hs_gp_title(p, "energy balance", title, sizeof title);
    hs_gp_terminal(f, 1100, 700, ".energy.png.part");
    hs_gp_reset(f);
    double lo, hi;
    if (!p->has_energy || hs_gp_finite_range(p->e_input, p->n, 1, 0, &lo, &hi) == 0) {
        hs_gp_empty_figure(f, title, "no energy recorded");
        return;
    }
    int64_t stride = hs_gp_stride_of(p->n);
    int experimental = 0, positive_error = 0;
    fputs("$E << EOD\n", f);
    for (int64_t k = 0; k < p->n; k++) {
        if (p->e_experimental[k] != 0 && isfinite(p->e_experimental[k])) experimental = 1;
        if (p->e_error_rel[k] > 0 && isfinite(p->e_error_rel[k])) positive_error = 1;
        if (!hs_gp_drawn(k, p->n, stride)) continue;
        hs_gp_number(f, p->t[k]);
        hs_gp_number(f, p->e_input[k]);
        hs_gp_number(f, p->e_kinetic[k]);
        hs_gp_number(f, p->e_damping[k]);
        hs_gp_number(f, p->e_strain[k]);
        hs_gp_number(f, p->e_experimental[k]);
        hs_gp_number(f, p->e_error_rel[k]);
        fputc('\n', f);
    }
    fputs("EOD\n", f);
    /* Top: input against the stacked kinetic + damping + strain (they should meet). Bottom:
     * the relative balance error on its own (logarithmic when positive) axis. */
    /* the stacked sum and the input share the energy axis */
    double elo = INFINITY, ehi = -INFINITY;
    for (int64_t k = 0; k < p->n; k++) {
        double sum = p->e_kinetic[k] + p->e_damping[k] + p->e_strain[k];
        double vals[3] = {p->e_input[k], p->e_damping[k], sum};
        for (int i = 0; i < 3; i++) {
            if (!isfinite(vals[i])) continue;
            if (vals[i] < elo) elo = vals[i];
            if (vals[i] > ehi) ehi = vals[i];
        }
    }
    fputs("set multiplot title ", f);
    hs_gp_quote(f, title);
    fputs(" font ',12'\nunset title\n"
          "set lmargin at screen 0.09\nset rmargin at screen 0.97\n"
          "set tmargin at screen 0.91\nset bmargin at screen 0.37\n"
          "set format x ''\nset key top left\nset style fill transparent solid 0.6 noborder\n",
          f);
    hs_gp_range(f, "x", p->t, p->n, 1, 0);
    if (!(ehi > elo)) fprintf(f, "set yrange [%.9g:%.9g]\n", elo - 1, elo + 1);
    fputs("set ylabel ", f);
    hs_gp_label(f, "energy", p->unit_energy);
    fputs("\nplot $E using 1:(0):4 with filledcurves lc rgb '#6baed6' title 'damping', \\\n"
          "     $E using 1:4:($4+$5) with filledcurves lc rgb '#74c476' title 'strain', \\\n"
          "     $E using 1:($4+$5):($4+$5+$3) with filledcurves lc rgb '#fd8d3c' "
          "title 'kinetic', \\\n",
          f);
    if (experimental)
        fprintf(f,
                "     $E using 1:6 with %s lw 1.5 dt 2 lc rgb '#6a3d9a' "
                "title 'experimental (part of strain)', \\\n",
                hs_gp_style_of(p));
    fprintf(f,
            "     $E using 1:2 with %s lw 2.5 lc rgb '#000000' title 'input'\n"
            "set yrange [*:*]\nset tmargin at screen 0.31\nset bmargin at screen 0.09\n"
            "set format x '%% h'\nunset key\nset ylabel 'relative error'\nset xlabel ",
            hs_gp_style_of(p));
    hs_gp_label(f, "time", p->unit_time);
    fputc('\n', f);
    if (positive_error) {
        fprintf(f,
                "set logscale y\nset format y '%%.0e'\nset ytics 10\n"
                "plot $E using 1:($7 > 0 ? $7 : 1/0) with %s lw 1 lc rgb '#d62728'\n",
                hs_gp_style_of(p));
    } else if (hs_gp_finite_range(p->e_error_rel, p->n, 1, 0, &lo, &hi) > 0) {
        hs_gp_range(f, "y", p->e_error_rel, p->n, 1, 0);
        fprintf(f, "plot $E using 1:7 with %s lw 1 lc rgb '#d62728'\n", hs_gp_style_of(p));
    } else {
        hs_gp_empty_panel(f, "no finite relative error", 0);
    }
    fputs("unset multiplot\nset output\n", f);
}

/* The gnuplot program on PATH, or "" when there is none. */
static void find_gnuplot(char *out, size_t len)
{
    out[0] = '\0';
    const char *path = getenv("PATH");
    if (!path || !path[0]) return;
    const char *p = path;
    while (*p) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char cand[4096];
        if (n > 0 && n + sizeof "/gnuplot" < sizeof cand) {
            memcpy(cand, p, n);
            memcpy(cand + n, "/gnuplot", sizeof "/gnuplot");
            struct stat st;
            if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
                snprintf(out, len, "%s", cand);
                return;
            }
        }
        if (!end) break;
        p = end + 1;
    }
}

/* Runs `gnuplot script` in dir (no shell); returns gnuplot's exit status or -1. */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *script)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (chdir(dir) != 0) _exit(126);
        char *args[] = {"gnuplot", (char *)script, NULL};
        execv(gnuplot, args);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int write_script(FILE *f, const hs_plot_data *p)
{
    fputs("# written by hysim plot; removed after use\n"
          "cairo = strstrt(GPVAL_TERMINALS, ' pngcairo ') > 0\n"
          "set linetype 1 lc rgb '#1f77b4'\nset linetype 2 lc rgb '#d62728'\n"
          "set linetype 3 lc rgb '#2ca02c'\nset linetype 4 lc rgb '#9467bd'\n"
          "set linetype 5 lc rgb '#ff7f0e'\nset linetype 6 lc rgb '#17becf'\n"
          "set linetype 7 lc rgb '#8c564b'\nset linetype 8 lc rgb '#e377c2'\n"
          "set linetype cycle 8\n",
          f);
    script_displacement(f, p);
    script_hysteresis(f, p);
    script_energy(f, p);
    hs_plot_script_actuators(f, p);
    hs_plot_script_sites(f, p);
    return ferror(f) ? -1 : 0;
}

static int usage_error(const char *msg)
{
    fprintf(stderr,
            "hysim plot: %s\nusage: hysim plot DIR [--format png|svg|pdf]   (DIR written by `hysim "
            "run FILE -o DIR`)\n",
            msg);
    return HS_EXIT_INPUT;
}

int hs_cli_plot(int argc, char **argv)
{
    if (argc == 2 && hs_cli_is_help(argv[1])) {
        printf("usage: hysim plot DIR [--format png|svg|pdf]\n  draws DIR/displacement.png, "
               "DIR/hysteresis.png and "
               "DIR/energy.png from DIR/results.h5 (needs gnuplot);\n  for a hybrid run also "
               "DIR/actuators_hysteresis.png, DIR/actuators_tracking.png and\n  DIR/tangent.png "
               "(when the integrator estimated the experimental tangent);\n  with site controllers "
               "also DIR/sites_states.png, DIR/sites_delay.png and\n  DIR/actuators_ti.png\n"
               "  --format svg or pdf: the same figures as .svg (vector, for the web) or .pdf "
               "(vector, for papers)\n");
        return HS_EXIT_OK;
    }
    const char *dir = NULL, *format = "png";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
            format = argv[++i];
        else if (strncmp(argv[i], "--format=", 9) == 0)
            format = argv[i] + 9;
        else if (argv[i][0] == '-' && argv[i][1])
            return usage_error("unknown option (give --format png|svg|pdf)");
        else if (dir)
            return usage_error("expected one run directory");
        else
            dir = argv[i];
    }
    if (!dir) return usage_error("expected the run's output directory");
    if (hs_gp_set_format(format) != 0) {
        fprintf(stderr, "hysim plot: --format %s: give png, svg or pdf\n", format);
        return HS_EXIT_INPUT;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "hysim plot: %s: not a directory\n", dir);
        return HS_EXIT_INPUT;
    }
    size_t dlen = strlen(dir);
    char *h5 = malloc(dlen + 64), *script = malloc(dlen + 64);
    if (!h5 || !script) {
        free(h5);
        free(script);
        fprintf(stderr, "hysim plot: out of memory\n");
        return HS_EXIT_FAILED;
    }
    snprintf(h5, dlen + 64, "%s/results.h5", dir);
    int code = HS_EXIT_OK;
    hs_plot_data data;
    char err[512];
    if (stat(h5, &st) != 0) {
        fprintf(stderr, "hysim plot: %s: no results.h5 there (run `hysim run FILE -o %s` first)\n",
                dir, dir);
        code = HS_EXIT_INPUT;
    } else if (hs_plot_data_read(h5, &data, err, sizeof err) != 0) {
        fprintf(stderr, "hysim plot: %s: %s\n", h5, err);
        code = HS_EXIT_INPUT;
    } else {
        char gnuplot[4096];
        find_gnuplot(gnuplot, sizeof gnuplot);
        if (data.n < 1) {
            fprintf(stderr, "hysim plot: %s: no records to plot\n", h5);
            code = HS_EXIT_INPUT;
        } else if (!gnuplot[0]) {
            fprintf(stderr, "hysim plot: gnuplot not found on PATH; install gnuplot "
                            "(Debian: apt-get install gnuplot-nox) to draw the plots\n");
            code = HS_EXIT_FAILED;
        } else {
            snprintf(script, dlen + 64, "%s/.hysim-plot-XXXXXX", dir);
            int fd = mkstemp(script);
            FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
            if (!f) {
                fprintf(stderr, "hysim plot: %s: cannot write a temporary file: %s\n", dir,
                        strerror(errno));
                if (fd >= 0) close(fd);
                code = HS_EXIT_FAILED;
            } else {
                int bad = write_script(f, &data);
                bad |= fclose(f) != 0;
                int status = bad ? -1 : run_gnuplot(gnuplot, dir, script + dlen + 1);
                const char *keep = getenv("HS_TEST_PLOT_SCRIPT"); /* test hook, see the top */
                if (!(keep && keep[0] && rename(script, keep) == 0)) remove(script);
                if (status != 0) {
                    fprintf(stderr, "hysim plot: gnuplot failed (%s, status %d)\n",
                            bad ? "script not written" : gnuplot, status);
                    code = HS_EXIT_FAILED;
                }
            }
        }
        /* Move the finished images into place; leave no partial files behind. */
        const char *outputs[NOUT + 6];
        memcpy(outputs, base_outputs, sizeof base_outputs);
        size_t nout = NOUT + (size_t)hs_plot_actuator_outputs(&data, outputs + NOUT);
        nout += (size_t)hs_plot_site_outputs(&data, outputs + nout);
        for (size_t i = 0; i < nout; i++) {
            char name[128], part[160], from[4096 + 160], to[4096 + 128];
            hs_gp_output_name(outputs[i], name, sizeof name);
            snprintf(part, sizeof part, ".%s.part", name);
            snprintf(from, sizeof from, "%s/%s", dir, part);
            snprintf(to, sizeof to, "%s/%s", dir, name);
            if (code == HS_EXIT_OK && rename(from, to) != 0) {
                fprintf(stderr, "hysim plot: %s: not produced by gnuplot\n", to);
                code = HS_EXIT_FAILED;
            }
            remove(from);
            if (code == HS_EXIT_OK) printf("hysim plot: wrote %s\n", to);
        }
        hs_plot_data_free(&data);
    }
    free(h5);
    free(script);
    return code;
}
