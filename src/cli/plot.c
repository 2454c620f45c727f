/* `hysim plot DIR`: draws a finished run's displacement histories, spring hysteresis loops and
 * energy balance from DIR/results.h5 with gnuplot (pngcairo when available, else png). The data
 * go inline (datablocks) in a temporary script in DIR; gnuplot runs without a shell, in DIR,
 * and every text taken from the file is quoted so that no name can inject gnuplot commands. */
#include "cli.h"
#include "plot_data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_POINTS   20000 /* records drawn per series (longer runs are thinned evenly) */
#define MAX_PANELS   48    /* hysteresis panels */
#define STACKED_DOFS 6     /* up to this many DOFs get a panel each, beyond: one panel */

static const char *const outputs[] = {"displacement.png", "hysteresis.png", "energy.png"};
#define NOUT (sizeof outputs / sizeof outputs[0])

/* A gnuplot single-quoted string: '' stands for a quote; no backquote or macro substitution
 * happens inside; control characters become spaces. */
static void gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\'') {
            fputs("''", f);
        } else if (*p < 0x20 || *p == 0x7F) {
            fputc(' ', f);
        } else {
            fputc(*p, f);
        }
    }
    fputc('\'', f);
}

/* 'what [unit]' (or 'what' when the unit is unknown), quoted. */
static void gp_label(FILE *f, const char *what, const char *unit)
{
    char buf[2 * HS_PLOT_TEXT + 64];
    if (unit && unit[0] && strcmp(unit, "1") != 0) {
        snprintf(buf, sizeof buf, "%s [%s]", what, unit);
    } else {
        snprintf(buf, sizeof buf, "%s", what);
    }
    gp_quote(f, buf);
}

static void gp_number(FILE *f, double x)
{
    if (isfinite(x)) {
        fprintf(f, " %.9g", x);
    } else {
        fputs(" ?", f);
    }
}

static void gp_terminal(FILE *f, int width, int height, const char *part)
{
    fprintf(f,
            "if (cairo) { set terminal pngcairo noenhanced size %d,%d font 'Sans,10' } "
            "else { set terminal png noenhanced size %d,%d }\n",
            width, height, width, height);
    fputs("set output ", f);
    gp_quote(f, part);
    fputc('\n', f);
}

static void gp_title(const hs_plot_data *p, const char *what, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s%s%s", p->name[0] ? p->name : "hysim run", ": ", what,
             p->status[0] ? " (" : "", p->status, p->status[0] ? ")" : "");
}

static int64_t stride_of(int64_t n)
{
    return n > MAX_POINTS ? (n + MAX_POINTS - 1) / MAX_POINTS : 1;
}

/* Records to draw: every stride-th and always the last. */
static int drawn(int64_t k, int64_t n, int64_t stride)
{
    return k % stride == 0 || k == n - 1;
}

static void gp_reset(FILE *f)
{
    fputs("reset\nset datafile missing '?'\n"
          "set grid lc rgb '#dddddd' lt 1\nset border lc rgb '#404040'\n"
          "set key box lc rgb '#bbbbbb' opaque\n",
          f);
}

/* Range of the finite values of column col of an n x width block; returns how many there are. */
static int64_t finite_range(const double *x, int64_t n, int width, int col, double *lo, double *hi)
{
    int64_t count = 0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int64_t k = 0; k < n; k++) {
        double v = x[(size_t)k * (size_t)width + (size_t)col];
        if (!isfinite(v)) continue;
        count++;
        if (v < *lo) *lo = v;
        if (v > *hi) *hi = v;
    }
    return count;
}

/* gnuplot cannot autoscale an axis of zero width: give such an axis an explicit range. */
static void gp_range(FILE *f, const char *axis, const double *x, int64_t n, int width, int col)
{
    double lo, hi;
    if (finite_range(x, n, width, col, &lo, &hi) > 0 && !(hi > lo)) {
        double pad = fabs(lo) > 0 ? 0.1 * fabs(lo) : 1.0;
        fprintf(f, "set %srange [%.9g:%.9g]\n", axis, lo - pad, hi + pad);
    } else {
        fprintf(f, "set %srange [*:*]\n", axis);
    }
}

/* A panel that says why there is nothing to draw (keeps the multiplot grid in place); `key`
 * says whether the key is to be shown again afterwards. */
static void gp_empty_panel(FILE *f, const char *why, int key)
{
    fputs("unset border\nunset tics\nunset grid\nunset key\nset label 1 ", f);
    gp_quote(f, why);
    fputs(" at graph 0.5,0.5 center font ',13'\nplot [0:1][0:1] 2 notitle\n"
          "unset label 1\nset border\nset tics\nset grid\nset xrange [*:*]\nset yrange [*:*]\n",
          f);
    if (key) fputs("set key\n", f);
}

/* Tic spacing of about `target` intervals over [lo, hi] (1, 2 or 5 times a power of ten). */
static double nice_step(double lo, double hi, int target)
{
    double raw = (hi - lo) / target;
    if (!(raw > 0) || !isfinite(raw)) return 0;
    double mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* A single record is drawn as points (a line needs two). */
static const char *style_of(const hs_plot_data *p)
{
    return p->n > 1 ? "lines" : "points pt 7";
}

static void script_displacement(FILE *f, const hs_plot_data *p)
{
    int64_t stride = stride_of(p->n);
    fputs("$D << EOD\n", f);
    for (int64_t k = 0; k < p->n; k++) {
        if (!drawn(k, p->n, stride)) continue;
        gp_number(f, p->t[k]);
        for (int i = 0; i < p->ndof; i++)
            gp_number(f, p->d[(size_t)k * (size_t)p->ndof + (size_t)i]);
        fputc('\n', f);
    }
    fputs("EOD\n", f);

    int stacked = p->ndof <= STACKED_DOFS;
    int height = stacked ? 150 + 190 * p->ndof : 650;
    if (height < 420) height = 420;
    gp_terminal(f, 1100, height, ".displacement.png.part");
    gp_reset(f);
    char title[3 * HS_PLOT_TEXT];
    gp_title(p, "displacement relative to the ground", title, sizeof title);
    fputs("set xlabel ", f);
    gp_label(f, "time", p->unit_time);
    fputc('\n', f);
    gp_range(f, "x", p->t, p->n, 1, 0);
    if (stacked) {
        fputs("set lmargin 12\nset rmargin 4\nset key top right\n", f);
        fputs("set multiplot layout ", f);
        fprintf(f, "%d,1 title ", p->ndof);
        gp_quote(f, title);
        fputs(" font ',12'\n", f);
        for (int i = 0; i < p->ndof; i++) {
            double peak = 0;
            for (int64_t k = 0; k < p->n; k++) {
                double x = fabs(p->d[(size_t)k * (size_t)p->ndof + (size_t)i]);
                if (x > peak) peak = x;
            }
            char name[32], key[HS_PLOT_TEXT + 96];
            snprintf(name, sizeof name, "d%d", i + 1);
            snprintf(key, sizeof key, "DOF %d, peak |d| = %.4g %s", i + 1, peak, p->unit_length);
            fputs("set ylabel ", f);
            gp_label(f, name, p->unit_length);
            fputc('\n', f);
            double lo, hi;
            if (finite_range(p->d, p->n, p->ndof, i, &lo, &hi) == 0) {
                snprintf(key, sizeof key, "DOF %d: no finite values", i + 1);
                gp_empty_panel(f, key, 1);
                gp_range(f, "x", p->t, p->n, 1, 0);
                continue;
            }
            gp_range(f, "y", p->d, p->n, p->ndof, i);
            fprintf(f, "plot $D using 1:%d with %s lw 1.5 lc %d title ", i + 2, style_of(p), i + 1);
            gp_quote(f, key);
            fputc('\n', f);
        }
        fputs("unset multiplot\n", f);
    } else {
        fputs("set title ", f);
        gp_quote(f, title);
        fputs(" font ',12'\nset key outside right top\nset ylabel ", f);
        gp_label(f, "displacement", p->unit_length);
        fputc('\n', f);
        double lo, hi;
        int64_t finite = finite_range(p->d, p->n * p->ndof, 1, 0, &lo, &hi);
        if (finite == 0) {
            gp_empty_panel(f, "no finite displacement values", 1);
        } else {
            if (!(hi > lo)) fprintf(f, "set yrange [%.9g:%.9g]\n", lo - 1, hi + 1);
            fprintf(f,
                    "plot for [i=1:%d] $D using 1:(column(i+1)) with %s lw 1.2 lc i "
                    "title sprintf('d%%d', i)\n",
                    p->ndof, style_of(p));
        }
    }
    fputs("set output\n", f);
}

static void script_hysteresis(FILE *f, const hs_plot_data *p)
{
    int ns = p->nsprings < MAX_PANELS ? p->nsprings : MAX_PANELS;
    char title[3 * HS_PLOT_TEXT + 64];
    char what[64];
    if (p->nsprings > ns) {
        snprintf(what, sizeof what, "spring force-deformation (first %d of %d)", ns, p->nsprings);
    } else {
        snprintf(what, sizeof what, "spring force-deformation");
    }
    gp_title(p, what, title, sizeof title);
    if (ns == 0) {
        gp_terminal(f, 700, 400, ".hysteresis.png.part");
        gp_reset(f);
        fputs("set title ", f);
        gp_quote(f, title);
        fputs(" font ',12'\nunset border\nunset tics\nunset grid\nunset key\n"
              "set label 1 'no springs recorded' at graph 0.5,0.5 center font ',14'\n"
              "plot [0:1][0:1] 2 notitle\nset output\n",
              f);
        return;
    }
    int64_t stride = stride_of(p->n);
    fputs("$S << EOD\n", f);
    for (int64_t k = 0; k < p->n; k++) {
        if (!drawn(k, p->n, stride)) continue;
        for (int j = 0; j < ns; j++) {
            size_t at = (size_t)k * (size_t)p->nsprings + (size_t)j;
            gp_number(f, p->sdef[at]);
            gp_number(f, p->sforce[at]);
        }
        fputc('\n', f);
    }
    fputs("EOD\n", f);

    int cols = (int)ceil(sqrt((double)ns));
    int rows = (ns + cols - 1) / cols;
    gp_terminal(f, 60 + 400 * cols, 80 + 340 * rows, ".hysteresis.png.part");
    gp_reset(f);
    fputs("unset key\nset xzeroaxis lc rgb '#999999'\nset yzeroaxis lc rgb '#999999'\n", f);
    fputs("set xlabel ", f);
    gp_label(f, "deformation", p->unit_length);
    fputs("\nset ylabel ", f);
    gp_label(f, "force", p->unit_force);
    fprintf(f, "\nset multiplot layout %d,%d title ", rows, cols);
    gp_quote(f, title);
    fputs(" font ',12'\n", f);
    for (int j = 0; j < ns; j++) {
        fputs("set title ", f);
        gp_quote(f, p->spring_names ? p->spring_names[j] : "");
        fputc('\n', f);
        double lo, hi;
        if (finite_range(p->sdef, p->n, p->nsprings, j, &lo, &hi) == 0 ||
            finite_range(p->sforce, p->n, p->nsprings, j, &lo, &hi) == 0) {
            gp_empty_panel(f, "no finite values", 0);
            continue;
        }
        gp_range(f, "x", p->sdef, p->n, p->nsprings, j);
        gp_range(f, "y", p->sforce, p->n, p->nsprings, j);
        /* narrow panels: about four tic intervals, so that the labels do not run together */
        finite_range(p->sdef, p->n, p->nsprings, j, &lo, &hi);
        double step = nice_step(lo, hi, 4);
        if (step > 0) {
            fprintf(f, "set xtics %.9g\n", step);
        } else {
            fputs("set xtics autofreq\n", f);
        }
        fprintf(f, "plot $S using %d:%d with %s lw 1.2 lc %d notitle\n", 2 * j + 1, 2 * j + 2,
                style_of(p), j % 8 + 1);
    }
    fputs("unset multiplot\nset output\n", f);
}

static void script_energy(FILE *f, const hs_plot_data *p)
{
    char title[3 * HS_PLOT_TEXT];
    gp_title(p, "energy balance", title, sizeof title);
    gp_terminal(f, 1100, 700, ".energy.png.part");
    gp_reset(f);
    double lo, hi;
    if (!p->has_energy || finite_range(p->e_input, p->n, 1, 0, &lo, &hi) == 0) {
        fputs("set title ", f);
        gp_quote(f, title);
        fputs(" font ',12'\nunset border\nunset tics\nunset grid\nunset key\n"
              "set label 1 'no energy recorded' at graph 0.5,0.5 center font ',14'\n"
              "plot [0:1][0:1] 2 notitle\nset output\n",
              f);
        return;
    }
    int64_t stride = stride_of(p->n);
    int experimental = 0, positive_error = 0;
    fputs("$E << EOD\n", f);
    for (int64_t k = 0; k < p->n; k++) {
        if (p->e_experimental[k] != 0 && isfinite(p->e_experimental[k])) experimental = 1;
        if (p->e_error_rel[k] > 0 && isfinite(p->e_error_rel[k])) positive_error = 1;
        if (!drawn(k, p->n, stride)) continue;
        gp_number(f, p->t[k]);
        gp_number(f, p->e_input[k]);
        gp_number(f, p->e_kinetic[k]);
        gp_number(f, p->e_damping[k]);
        gp_number(f, p->e_strain[k]);
        gp_number(f, p->e_experimental[k]);
        gp_number(f, p->e_error_rel[k]);
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
    gp_quote(f, title);
    fputs(" font ',12'\nunset title\n"
          "set lmargin at screen 0.09\nset rmargin at screen 0.97\n"
          "set tmargin at screen 0.91\nset bmargin at screen 0.37\n"
          "set format x ''\nset key top left\nset style fill transparent solid 0.6 noborder\n",
          f);
    gp_range(f, "x", p->t, p->n, 1, 0);
    if (!(ehi > elo)) fprintf(f, "set yrange [%.9g:%.9g]\n", elo - 1, elo + 1);
    fputs("set ylabel ", f);
    gp_label(f, "energy", p->unit_energy);
    fputs("\nplot $E using 1:(0):4 with filledcurves lc rgb '#6baed6' title 'damping', \\\n"
          "     $E using 1:4:($4+$5) with filledcurves lc rgb '#74c476' title 'strain', \\\n"
          "     $E using 1:($4+$5):($4+$5+$3) with filledcurves lc rgb '#fd8d3c' "
          "title 'kinetic', \\\n",
          f);
    if (experimental)
        fprintf(f,
                "     $E using 1:6 with %s lw 1.5 dt 2 lc rgb '#6a3d9a' "
                "title 'experimental (part of strain)', \\\n",
                style_of(p));
    fprintf(f,
            "     $E using 1:2 with %s lw 2.5 lc rgb '#000000' title 'input'\n"
            "set yrange [*:*]\nset tmargin at screen 0.31\nset bmargin at screen 0.09\n"
            "set format x '%% h'\nunset key\nset ylabel 'relative error'\nset xlabel ",
            style_of(p));
    gp_label(f, "time", p->unit_time);
    fputc('\n', f);
    if (positive_error) {
        fprintf(f,
                "set logscale y\nset format y '%%.0e'\nset ytics 10\n"
                "plot $E using 1:($7 > 0 ? $7 : 1/0) with %s lw 1 lc rgb '#d62728'\n",
                style_of(p));
    } else if (finite_range(p->e_error_rel, p->n, 1, 0, &lo, &hi) > 0) {
        gp_range(f, "y", p->e_error_rel, p->n, 1, 0);
        fprintf(f, "plot $E using 1:7 with %s lw 1 lc rgb '#d62728'\n", style_of(p));
    } else {
        gp_empty_panel(f, "no finite relative error", 0);
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
    return ferror(f) ? -1 : 0;
}

static int usage_error(const char *msg)
{
    fprintf(stderr,
            "hysim plot: %s\nusage: hysim plot DIR   (DIR written by `hysim run FILE -o DIR`)\n",
            msg);
    return HS_EXIT_INPUT;
}

int hs_cli_plot(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: hysim plot DIR\n  draws DIR/displacement.png, DIR/hysteresis.png and "
               "DIR/energy.png from DIR/results.h5 (needs gnuplot)\n");
        return HS_EXIT_OK;
    }
    if (argc != 2) return usage_error("expected exactly one argument, the run's output directory");
    const char *dir = argv[1];
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
                remove(script);
                if (status != 0) {
                    fprintf(stderr, "hysim plot: gnuplot failed (%s, status %d)\n",
                            bad ? "script not written" : gnuplot, status);
                    code = HS_EXIT_FAILED;
                }
            }
        }
        /* Move the finished images into place; leave no partial files behind. */
        for (size_t i = 0; i < NOUT; i++) {
            char part[128], from[4096 + 128], to[4096 + 128];
            snprintf(part, sizeof part, ".%s.part", outputs[i]);
            snprintf(from, sizeof from, "%s/%s", dir, part);
            snprintf(to, sizeof to, "%s/%s", dir, outputs[i]);
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
