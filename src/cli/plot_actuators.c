/* `hysim plot` figures of a hybrid run's actuators (/actuators in results.h5):
 *   actuators_hysteresis.png  measured force against measured displacement, a panel each;
 *   actuators_tracking.png    command and measured displacement over time, and the tracking
 *                             error command - measured (Chen & Ricles' sign, the same as the
 *                             tracking indicator's: positive while the actuator lags behind a
 *                             rising command), a pair of panels each;
 *   tangent.png               the terms K_l(i, j), i <= j, of the estimated experimental tangent
 *                             over time (Mosqueda & Ahmadizadeh 2008a, Fig. 6), diagonal and
 * off-diagonal apart; only when the integrator estimated one (not all NaN). */
#include "plot_actuators.h"

#include "plot_gp.h"

#include <math.h>
#include <string.h>

#define MAX_PANELS  48 /* hysteresis panels */
#define MAX_TRACKED 6  /* actuators with tracking panels */
#define MAX_TERMS   12 /* tangent terms drawn per panel */

/* Column-major K_l(i, j) of record k. */
static double tangent_at(const hs_plot_data *p, int64_t k, int i, int j)
{
    const size_t m = (size_t)p->nact;
    return p->act_tangent[(size_t)k * m * m + (size_t)j * m + (size_t)i];
}

static int has_tangent(const hs_plot_data *p)
{
    const int64_t count = p->n * (int64_t)p->nact * (int64_t)p->nact;
    for (int64_t k = 0; k < count; k++)
        if (isfinite(p->act_tangent[k])) return 1;
    return 0;
}

int hs_plot_actuator_outputs(const hs_plot_data *p, const char **out)
{
    if (p->nact < 1) return 0;
    out[0] = "actuators_hysteresis.png";
    out[1] = "actuators_tracking.png";
    if (!has_tangent(p)) return 2;
    out[2] = "tangent.png";
    return 3;
}

static void script_hysteresis(FILE *f, const hs_plot_data *p)
{
    const int na = p->nact < MAX_PANELS ? p->nact : MAX_PANELS;
    char title[3 * HS_PLOT_TEXT + 64];
    hs_gp_title_first(p, "actuator force-displacement, measured", na, p->nact, title, sizeof title);
    const hs_gp_loops g = {.block = "$AH",
                           .x = p->act_meas,
                           .y = p->act_force,
                           .width = p->nact,
                           .count = na,
                           .names = p->act_names,
                           .panel_width = 420,
                           .panel_height = 360,
                           .part = ".actuators_hysteresis.png.part",
                           .title = title,
                           .xlabel = "measured displacement",
                           .xunit = p->unit_length,
                           .ylabel = "measured force",
                           .yunit = p->unit_force,
                           .empty = "no measurement"};
    hs_gp_loop_grid(f, p, &g);
}

/* Largest |command - measured| and its RMS over the records where both exist. */
static void tracking_error(const hs_plot_data *p, int j, double *max, double *rms)
{
    double sum = 0;
    int64_t count = 0;
    *max = 0;
    for (int64_t k = 0; k < p->n; k++) {
        const size_t at = (size_t)k * (size_t)p->nact + (size_t)j;
        const double e = p->act_cmd[at] - p->act_meas[at];
        if (!isfinite(e)) continue;
        if (fabs(e) > *max) *max = fabs(e);
        sum += e * e;
        count++;
    }
    *rms = count ? sqrt(sum / (double)count) : 0;
}

/* Panel j's screen band: a displacement panel above its (shorter) error panel. */
static void set_band(FILE *f, double top, double bottom)
{
    fprintf(f, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", top, bottom);
}

static void script_tracking(FILE *f, const hs_plot_data *p)
{
    const int na = p->nact < MAX_TRACKED ? p->nact : MAX_TRACKED;
    const int64_t stride = hs_gp_stride_of(p->n);
    fputs("$AT << EOD\n", f);
    for (int64_t k = 0; k < p->n; k++) {
        if (!hs_gp_drawn(k, p->n, stride)) continue;
        hs_gp_number(f, p->t[k]);
        for (int j = 0; j < na; j++) {
            const size_t at = (size_t)k * (size_t)p->nact + (size_t)j;
            hs_gp_number(f, p->act_cmd[at]);
            hs_gp_number(f, p->act_meas[at]);
            hs_gp_number(f, p->act_cmd[at] - p->act_meas[at]); /* Chen & Ricles' sign */
        }
        fputc('\n', f);
    }
    fputs("EOD\n", f);

    /* pixels: title 70, per actuator 250 (displacement) + 16 + 140 (difference) + 70 (gap for
     * the next name), x label 55 */
    const int disp_px = 250, inner_px = 16, err_px = 140, gap_px = 70, top_px = 70, bottom_px = 55;
    const int height = top_px + na * (disp_px + inner_px + err_px + gap_px) - gap_px + bottom_px;
    char title[3 * HS_PLOT_TEXT + 64];
    hs_gp_title_first(p, "actuator tracking: command and measured displacement", na, p->nact, title,
                      sizeof title);
    hs_gp_terminal(f, 1100, height, ".actuators_tracking.png.part");
    hs_gp_reset(f);
    fputs("set multiplot title ", f);
    hs_gp_quote(f, title);
    fputs(" font ',12'\nset lmargin at screen 0.09\nset rmargin at screen 0.97\n"
          "set key top right\n",
          f);
    hs_gp_range(f, "x", p->t, p->n, 1, 0);
    double y = (double)top_px;
    for (int j = 0; j < na; j++) {
        const double H = (double)height;
        /* displacement: command (wide, light) under measured (thin, dark) */
        set_band(f, 1.0 - y / H, 1.0 - (y + disp_px) / H);
        fputs("set format x ''\nunset xlabel\nset title ", f);
        hs_gp_quote(f, p->act_names[j]);
        fputs("\nset ytics autofreq\nset ylabel ", f);
        hs_gp_label(f, "displacement", p->unit_length);
        fputc('\n', f);
        double lo, hi;
        if (hs_gp_finite_range(p->act_cmd, p->n, p->nact, j, &lo, &hi) == 0) {
            hs_gp_empty_panel(f, "nothing commanded", 1);
        } else {
            fputs("set yrange [*:*]\n", f);
            fprintf(f,
                    "plot $AT using 1:%d with %s lw 4 lc rgb '#9ecae1' title 'command', \\\n"
                    "     $AT using 1:%d with %s lw 1.2 lc rgb '#08306b' title 'measured'\n",
                    3 * j + 2, hs_gp_style_of(p), 3 * j + 3, hs_gp_style_of(p));
        }
        y += disp_px + inner_px;
        /* the tracking error, command - measured */
        set_band(f, 1.0 - y / H, 1.0 - (y + err_px) / H);
        fputs("unset title\nset format x '% h'\nset ylabel ", f);
        hs_gp_label(f, "tracking error", p->unit_length);
        fputc('\n', f);
        if (j == na - 1) {
            fputs("set xlabel ", f);
            hs_gp_label(f, "time", p->unit_time);
            fputc('\n', f);
        }
        double max, rms;
        tracking_error(p, j, &max, &rms);
        char key[160 + 2 * HS_PLOT_TEXT];
        snprintf(key, sizeof key, "command - measured: largest %.3g %s, RMS %.3g %s", max,
                 p->unit_length, rms, p->unit_length);
        if (hs_gp_finite_range(p->act_meas, p->n, p->nact, j, &lo, &hi) == 0) {
            hs_gp_empty_panel(f, "no measurement", 1);
        } else if (!(max > 0)) {
            fputs("set yrange [-1:1]\n", f);
            fprintf(f, "plot $AT using 1:%d with %s lw 1 lc rgb '#d62728' title ", 3 * j + 4,
                    hs_gp_style_of(p));
            hs_gp_quote(f, "command - measured (exactly 0)");
            fputc('\n', f);
        } else {
            /* room above the curve for the key */
            fprintf(f, "set yrange [%.9g:%.9g]\nset ytics %.9g\n", -1.15 * max, 1.9 * max,
                    hs_gp_nice_step(-max, max, 3));
            fprintf(f, "plot $AT using 1:%d with %s lw 1 lc rgb '#d62728' title ", 3 * j + 4,
                    hs_gp_style_of(p));
            hs_gp_quote(f, key);
            fputc('\n', f);
        }
        y += err_px + gap_px;
    }
    fputs("unset multiplot\nset output\n", f);
}

/* Terms of the diagonal (diag = 1) or above it (0) with a finite value, and for the off-diagonal
 * a nonzero one; up to MAX_TERMS (i, j) pairs into ij. Returns how many exist in all. */
static int tangent_terms(const hs_plot_data *p, int diag, int *ij, int *drawn)
{
    int total = 0;
    *drawn = 0;
    for (int j = 0; j < p->nact; j++)
        for (int i = 0; i <= j; i++) {
            if ((i == j) != diag) continue;
            int keep = 0;
            for (int64_t k = 0; k < p->n && !keep; k++) {
                const double v = tangent_at(p, k, i, j);
                keep = isfinite(v) && (diag || v != 0);
            }
            if (!keep) continue;
            if (*drawn < MAX_TERMS) {
                ij[2 * *drawn] = i;
                ij[2 * *drawn + 1] = j;
                (*drawn)++;
            }
            total++;
        }
    return total;
}

static void tangent_panel(FILE *f, const hs_plot_data *p, const int *ij, int nterm, int first_col)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t k = 0; k < p->n; k++)
        for (int q = 0; q < nterm; q++) {
            const double v = tangent_at(p, k, ij[2 * q], ij[2 * q + 1]);
            if (!isfinite(v)) continue;
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
    /* stiffness from zero: a softening reads as a fraction of the initial value */
    lo = fmin(lo, 0.0);
    hi = fmax(hi, 0.0);
    if (!(hi > lo)) hi = lo + 1.0;
    const double pad = 0.06 * (hi - lo);
    fprintf(f, "set yrange [%.9g:%.9g]\n", lo < 0 ? lo - pad : 0.0, hi > 0 ? hi + pad : 0.0);
    fputs("plot ", f);
    for (int q = 0; q < nterm; q++) {
        const int i = ij[2 * q], j = ij[2 * q + 1];
        char key[2 * HS_PLOT_TEXT + 16];
        snprintf(key, sizeof key, "K(%s, %s)", p->act_names[i], p->act_names[j]);
        fprintf(f, "%s$AK using 1:%d with %s lw 1.3 lc %d title ", q ? ", \\\n     " : "",
                first_col + q, hs_gp_style_of(p), (first_col - 2 + q) % 8 + 1);
        hs_gp_quote(f, key);
    }
    fputc('\n', f);
}

static void script_tangent(FILE *f, const hs_plot_data *p)
{
    int dij[2 * MAX_TERMS], oij[2 * MAX_TERMS], nd, no;
    const int total_d = tangent_terms(p, 1, dij, &nd);
    const int total_o = tangent_terms(p, 0, oij, &no);
    const int64_t stride = hs_gp_stride_of(p->n);
    fputs("$AK << EOD\n", f);
    for (int64_t k = 0; k < p->n; k++) {
        if (!hs_gp_drawn(k, p->n, stride)) continue;
        hs_gp_number(f, p->t[k]);
        for (int q = 0; q < nd; q++) hs_gp_number(f, tangent_at(p, k, dij[2 * q], dij[2 * q + 1]));
        for (int q = 0; q < no; q++) hs_gp_number(f, tangent_at(p, k, oij[2 * q], oij[2 * q + 1]));
        fputc('\n', f);
    }
    fputs("EOD\n", f);

    char title[3 * HS_PLOT_TEXT + 64];
    hs_gp_title_first(p, "estimated experimental tangent stiffness", nd + no, total_d + total_o,
                      title, sizeof title);
    const int two = no > 0;
    hs_gp_terminal(f, 1100, two ? 760 : 480, ".tangent.png.part");
    hs_gp_reset(f);
    fputs("set multiplot title ", f);
    hs_gp_quote(f, title);
    fputs(" font ',12'\nset lmargin at screen 0.08\nset rmargin at screen 0.78\n"
          "set key outside right top\n",
          f);
    hs_gp_range(f, "x", p->t, p->n, 1, 0);
    /* diagonal terms; below them, when any is nonzero, the off-diagonal ones */
    fprintf(f, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", two ? 0.91 : 0.86,
            two ? 0.55 : 0.13);
    fputs(two || p->nact == 1 ? "set title 'diagonal terms'\n"
                              : "set title 'diagonal terms (the off-diagonal terms are zero)'\n",
          f);
    fputs("set ylabel ", f);
    hs_gp_label(f, "stiffness", p->unit_stiffness);
    fputc('\n', f);
    if (two) {
        fputs("set format x ''\n", f);
    } else {
        fputs("set xlabel ", f);
        hs_gp_label(f, "time", p->unit_time);
        fputc('\n', f);
    }
    tangent_panel(f, p, dij, nd, 2);
    if (two) {
        fputs("set tmargin at screen 0.46\nset bmargin at screen 0.09\n"
              "set title 'off-diagonal terms'\nset format x '% h'\nset xlabel ",
              f);
        hs_gp_label(f, "time", p->unit_time);
        fputc('\n', f);
        tangent_panel(f, p, oij, no, 2 + nd);
    }
    fputs("unset multiplot\nset output\n", f);
}

void hs_plot_script_actuators(FILE *f, const hs_plot_data *p)
{
    if (p->nact < 1) return;
    script_hysteresis(f, p);
    script_tracking(f, p);
    if (has_tangent(p)) script_tangent(f, p);
}
