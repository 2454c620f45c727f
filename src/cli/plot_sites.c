/* `hysim plot` figures of the site controllers (/sites in results.h5):
 *   sites_states.png   per site, the command generator's states visited in each step as bands
 *                      E/I/S/H (and F/D when they occur) over time (Mosqueda et al. 2004, Fig. 9a),
 * with a close look at the steps around the longest delay; sites_delay.png    per site, the
 * histogram of the delay from a D_target to the next D_update, with dashed lines at the slow and
 * hold limits (Mosqueda et al. 2004, Fig. 8); actuators_ti.png   per actuator, the tracking error
 * and the tracking indicator TI over time (Chen & Ricles 2010, Figs. 5-8 c-f); only when the file
 * has them. */
#include "plot_sites.h"

#include "plot_gp.h"

#include "hysim/base.h"

#include <math.h>
#include <string.h>

#define MAX_SITES  8  /* sites drawn */
#define MAX_TI     6  /* actuators drawn in actuators_ti.png */
#define ZOOM_STEPS 20 /* steps in the close look */
#define MAX_BINS   120

/* The command generator's states by bit (include/hysim/cmdgen.h) and their colours. */
static const struct {
    const char *letter, *name;
    int rgb;
} state_rows[6] = {{"E", "extrapolate", 0x1f77b4},    {"I", "interpolate", 0x2ca02c},
                   {"S", "slow", 0xff7f0e},           {"H", "hold", 0xd62728},
                   {"F", "free vibration", 0x9467bd}, {"D", "done", 0x7f7f7f}};
#define BIT_SLOW 2
#define BIT_HOLD 3

static int has_ti(const hs_plot_data *p)
{
    return p->nact > 0 && p->act_te && p->act_ti;
}

int hs_plot_site_outputs(const hs_plot_data *p, const char **out)
{
    if (p->nsites < 1) return 0;
    out[0] = "sites_states.png";
    out[1] = "sites_delay.png";
    if (!has_ti(p)) return 2;
    out[2] = "actuators_ti.png";
    return 3;
}

static int states_at(const hs_plot_data *p, int64_t k, int s)
{
    const double v = p->site_states[(size_t)k * (size_t)p->nsites + (size_t)s];
    return isfinite(v) && v >= 0 && v < 65536 ? (int)v : 0;
}

static double delay_at(const hs_plot_data *p, int64_t k, int s)
{
    return p->site_delay[(size_t)k * (size_t)p->nsites + (size_t)s];
}

/* A site's steps (records after the first with a state or a delay), how many reached slow and
 * hold, and the step with the longest delay (kmax 0: none). */
typedef struct site_stats {
    int64_t steps, slow, hold, kmax;
    double dmax;
} site_stats;

static site_stats stats_of(const hs_plot_data *p, int s)
{
    site_stats st = {0, 0, 0, 0, -INFINITY};
    for (int64_t k = 1; k < p->n; k++) {
        const int b = states_at(p, k, s);
        const double d = delay_at(p, k, s);
        if (!b && !isfinite(d)) continue;
        st.steps++;
        st.slow += (b >> BIT_SLOW) & 1;
        st.hold += (b >> BIT_HOLD) & 1;
        if (isfinite(d) && d > st.dmax) {
            st.dmax = d;
            st.kmax = k;
        }
    }
    return st;
}

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void band(FILE *f, double H, double top, double height)
{
    fprintf(f, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", 1.0 - top / H,
            1.0 - (top + height) / H);
}

/* Site s's runs of consecutive steps with each state, as boxes: centre, row, half width, half
 * width widened to `min_half` (so that a single step shows in the whole run), colour. Step k
 * spans t(k-1) to t(k). Returns the number of boxes. */
static int64_t state_boxes(FILE *f, const hs_plot_data *p, int s, int nrows, double min_half)
{
    int64_t boxes = 0;
    fprintf(f, "$SS%d << EOD\n", s);
    for (int b = 0; b < nrows; b++) {
        int64_t start = 0;
        for (int64_t k = 1; k <= p->n; k++) {
            const int on = k < p->n && ((states_at(p, k, s) >> b) & 1);
            if (on && !start) start = k;
            if (on || !start) continue;
            const double lo = p->t[start - 1], hi = p->t[k - 1], half = 0.5 * (hi - lo);
            hs_gp_number(f, 0.5 * (lo + hi));
            fprintf(f, " %d", nrows - b);
            hs_gp_number(f, half);
            hs_gp_number(f, fmax(half, min_half));
            fprintf(f, " %d\n", state_rows[b].rgb);
            boxes++;
            start = 0;
        }
    }
    fputs("EOD\n", f);
    return boxes;
}

/* y tics: the rows' letters (and names when `names`), E at the top. */
static void state_tics(FILE *f, int nrows, int names)
{
    fprintf(f, "set yrange [0.4:%d.6]\nset ytics (", nrows);
    for (int b = 0; b < nrows; b++) {
        char label[48];
        snprintf(label, sizeof label, names ? "%s  %s" : "%s", state_rows[b].letter,
                 state_rows[b].name);
        fputs(b ? ", " : "", f);
        hs_gp_quote(f, label);
        fprintf(f, " %d", nrows - b);
    }
    fputs(") scale 0\nset grid noytics xtics\n", f);
}

static void script_states(FILE *f, const hs_plot_data *p)
{
    const int ns = p->nsites < MAX_SITES ? p->nsites : MAX_SITES;
    int nrows = 4;
    for (int s = 0; s < ns; s++)
        for (int64_t k = 1; k < p->n; k++)
            if (states_at(p, k, s) & 0x30) nrows = 6;
    const double span = p->t[p->n - 1] - p->t[0];
    /* the close look, when the run is long enough and some step waited at all */
    int zoom = 0;
    for (int s = 0; s < ns && p->n - 1 > 2 * ZOOM_STEPS; s++)
        if (stats_of(p, s).dmax > 0) zoom = 1;
    int64_t boxes[MAX_SITES];
    for (int s = 0; s < ns; s++) boxes[s] = state_boxes(f, p, s, nrows, span / 800.0);

    const int top = 70, panel = 40 + 22 * nrows, gap = 70, bottom = 55;
    const int height = top + ns * (panel + gap) - gap + bottom;
    const double H = (double)height;
    char title[3 * HS_PLOT_TEXT + 64];
    hs_gp_title_first(p, "site controllers: states of the command generator in each step", ns,
                      p->nsites, title, sizeof title);
    hs_gp_terminal(f, 1200, height, ".sites_states.png.part");
    hs_gp_reset(f);
    fputs("set multiplot title ", f);
    hs_gp_quote(f, title);
    fputs(" font ',12'\nunset key\nset style fill solid 0.85 noborder\n", f);
    double y = top;
    for (int s = 0; s < ns; s++) {
        const site_stats st = stats_of(p, s);
        char t1[HS_PLOT_TEXT + 160], t2[160];
        snprintf(t1, sizeof t1, "%s: %lld steps, slow in %.1f %%, hold in %.1f %%",
                 p->site_names[s], (long long)st.steps, pct(st.slow, st.steps),
                 pct(st.hold, st.steps));
        band(f, H, y, panel);
        fprintf(f, "set lmargin at screen 0.115\nset rmargin at screen %s\nset xtics autofreq\n",
                zoom ? "0.655" : "0.97");
        fputs("set title ", f);
        hs_gp_quote(f, t1);
        fputs("\nset xlabel ", f);
        if (s == ns - 1) {
            hs_gp_label(f, "simulation time", p->unit_time);
        } else {
            fputs("''", f);
        }
        fputc('\n', f);
        state_tics(f, nrows, 1);
        if (!(span > 0) || boxes[s] == 0) {
            hs_gp_empty_panel(f, "no step recorded", 0);
        } else {
            fprintf(f, "set xrange [%.9g:%.9g]\n", p->t[0], p->t[p->n - 1]);
            fprintf(f, "plot $SS%d using 1:2:4:(0.36):5 with boxxyerror lc rgb variable\n", s);
        }
        if (zoom && st.kmax > 0) {
            int64_t k0 = st.kmax - ZOOM_STEPS / 2 + 1, k1;
            if (k0 < 1) k0 = 1;
            k1 = k0 + ZOOM_STEPS - 1;
            if (k1 > p->n - 1) {
                k1 = p->n - 1;
                k0 = k1 - ZOOM_STEPS + 1;
            }
            snprintf(t2, sizeof t2, "steps %lld-%lld: longest delay %.3g s in step %lld",
                     (long long)k0, (long long)k1, st.dmax, (long long)st.kmax);
            fputs("set lmargin at screen 0.695\nset rmargin at screen 0.97\nset title ", f);
            hs_gp_quote(f, t2);
            fputc('\n', f);
            state_tics(f, nrows, 0);
            const double step = hs_gp_nice_step(p->t[k0 - 1], p->t[k1], 4);
            fprintf(f, "set xrange [%.9g:%.9g]\n", p->t[k0 - 1], p->t[k1]);
            if (step > 0) fprintf(f, "set xtics %.9g\n", step);
            fprintf(f, "plot $SS%d using 1:2:3:(0.36):5 with boxxyerror lc rgb variable\n", s);
        }
        y += panel + gap;
    }
    fputs("unset multiplot\nset output\n", f);
}

/* The histogram's bin width over [0, xmax]: a round number, at most MAX_BINS bins. */
static double bin_width(double xmax)
{
    double w = hs_gp_nice_step(0, xmax, 50);
    if (!(w > 0)) w = 0.01;
    if (xmax / w > MAX_BINS - 1) w = xmax / (MAX_BINS - 1);
    return w;
}

/* Site s's histogram as $SD<s> (bin centre, steps); returns the largest count. */
static int64_t delay_bins(FILE *f, const hs_plot_data *p, int s, double w, int nbins)
{
    int64_t count[MAX_BINS + 1] = {0}, peak = 0;
    for (int64_t k = 1; k < p->n; k++) {
        const double d = delay_at(p, k, s);
        if (!isfinite(d)) continue;
        int b = (int)floor(fmax(d, 0.0) / w);
        if (b > nbins - 1) b = nbins - 1;
        count[b]++;
    }
    fprintf(f, "$SD%d << EOD\n", s);
    for (int b = 0; b < nbins; b++) {
        fprintf(f, "%.9g %lld\n", (b + 0.5) * w, (long long)count[b]);
        if (count[b] > peak) peak = count[b];
    }
    fputs("EOD\n", f);
    return peak;
}

static void script_delay(FILE *f, const hs_plot_data *p)
{
    const int ns = p->nsites < MAX_SITES ? p->nsites : MAX_SITES;
    double xmax = 0;
    for (int s = 0; s < ns; s++) {
        const site_stats st = stats_of(p, s);
        if (st.kmax > 0) xmax = fmax(xmax, st.dmax);
        if (isfinite(p->hold_after[s])) xmax = fmax(xmax, 1.15 * p->hold_after[s]);
    }
    if (!(xmax > 0)) xmax = 1.0;
    const double w = bin_width(xmax);
    int nbins = (int)ceil(xmax / w) + 1;
    if (nbins > MAX_BINS) nbins = MAX_BINS;
    int64_t peak[MAX_SITES];
    for (int s = 0; s < ns; s++) peak[s] = delay_bins(f, p, s, w, nbins);

    const int top = 70, panel = 230, gap = 70, bottom = 55;
    const int height = top + ns * (panel + gap) - gap + bottom;
    const double H = (double)height;
    char title[3 * HS_PLOT_TEXT + 64];
    hs_gp_title_first(p, "site controllers: delay from a D_target to the next D_update", ns,
                      p->nsites, title, sizeof title);
    hs_gp_terminal(f, 1100, height, ".sites_delay.png.part");
    hs_gp_reset(f);
    fputs("set multiplot title ", f);
    hs_gp_quote(f, title);
    fprintf(f,
            " font ',12'\nset lmargin at screen 0.08\nset rmargin at screen 0.97\n"
            "set key top right\nset style fill solid 0.75 noborder\nset boxwidth %.9g absolute\n"
            "set xrange [0:%.9g]\nset ylabel 'steps'\n",
            0.85 * w, nbins * w);
    double y = top;
    for (int s = 0; s < ns; s++) {
        const site_stats st = stats_of(p, s);
        char t1[HS_PLOT_TEXT + 160];
        snprintf(t1, sizeof t1, "%s: %lld steps, largest delay %.3g s", p->site_names[s],
                 (long long)st.steps, st.kmax > 0 ? st.dmax : 0.0);
        band(f, H, y, panel);
        fputs("unset arrow\nset title ", f);
        hs_gp_quote(f, t1);
        fputs("\nset xlabel ", f);
        if (s == ns - 1) {
            hs_gp_label(f, "delay on the test's clock", "s");
        } else {
            fputs("''", f);
        }
        fputc('\n', f);
        if (st.kmax == 0) {
            hs_gp_empty_panel(f, "no delay recorded", 1);
            fprintf(f, "set xrange [0:%.9g]\n", nbins * w);
            y += panel + gap;
            continue;
        }
        /* room above the bars for the key; the limits as dashed vertical lines */
        const double ymax = 1.45 * (double)(peak[s] > 0 ? peak[s] : 1);
        fprintf(f, "set yrange [0:%.9g]\nset ytics %.9g\n", ymax,
                fmax(1.0, hs_gp_nice_step(0, ymax, 5))); /* whole steps */
        const double lim[2] = {p->slow_after[s], p->hold_after[s]};
        const int64_t reached[2] = {st.slow, st.hold};
        const char *name[2] = {"slow", "hold"}, *rgb[2] = {"#ff7f0e", "#d62728"};
        for (int i = 0; i < 2; i++)
            if (isfinite(lim[i]))
                fprintf(f,
                        "set arrow %d from %.9g, graph 0 to %.9g, graph 1 nohead dt 2 lw 2 "
                        "lc rgb '%s' back\n",
                        i + 1, lim[i], lim[i], rgb[i]);
        fprintf(f, "plot $SD%d using 1:2 with boxes lc rgb '#6baed6' title 'steps per %.3g s'", s,
                w);
        for (int i = 0; i < 2; i++) {
            if (!isfinite(lim[i])) continue;
            char key[160];
            snprintf(key, sizeof key, "%s after %.4g s: %.1f %% of the steps reached %s", name[i],
                     lim[i], pct(reached[i], st.steps), name[i]);
            fprintf(f, ", \\\n     NaN with lines dt 2 lw 2 lc rgb '%s' title ", rgb[i]);
            hs_gp_quote(f, key);
        }
        fputc('\n', f);
        y += panel + gap;
    }
    fputs("unset multiplot\nset output\n", f);
}

/* Largest |x| of column j of an n x nact block and the value of largest magnitude, signed. */
static double peak_of(const hs_plot_data *p, const double *x, int j, double *signed_peak)
{
    double peak = 0;
    *signed_peak = 0;
    for (int64_t k = 0; k < p->n; k++) {
        const double v = x[(size_t)k * (size_t)p->nact + (size_t)j];
        if (isfinite(v) && fabs(v) > peak) {
            peak = fabs(v);
            *signed_peak = v;
        }
    }
    return peak;
}

/* One panel of actuators_ti.png: column col of $TI, with room above the curve for the key. */
static void ti_panel(FILE *f, const hs_plot_data *p, const double *x, int j, int col,
                     const char *rgb, const char *key)
{
    double lo, hi, sp;
    const double peak = peak_of(p, x, j, &sp);
    if (hs_gp_finite_range(x, p->n, p->nact, j, &lo, &hi) == 0) {
        hs_gp_empty_panel(f, "not recorded", 1);
        return;
    }
    const double m = peak > 0 ? peak : 1.0;
    /* from the data (and zero), with room above the curve for the key */
    const double ylo = fmin(lo, 0.0) - 0.1 * m, yhi = fmax(hi, 0.0) + 0.75 * m;
    const double step = hs_gp_nice_step(fmin(lo, 0.0), fmax(hi, 0.0), 3);
    fprintf(f, "set yrange [%.9g:%.9g]\n", ylo, yhi);
    if (step > 0) /* 0 when the indicator is exactly 0 throughout (a perfect laboratory) */
        fprintf(f, "set ytics %.9g\n", step);
    else
        fputs("set ytics autofreq\n", f);
    fprintf(f, "plot $TI using 1:%d with %s lw 1.2 lc rgb '%s' title ", col, hs_gp_style_of(p),
            rgb);
    hs_gp_quote(f, key);
    fputc('\n', f);
}

static void script_ti(FILE *f, const hs_plot_data *p)
{
    const int na = p->nact < MAX_TI ? p->nact : MAX_TI;
    const int64_t stride = hs_gp_stride_of(p->n);
    fputs("$TI << EOD\n", f);
    for (int64_t k = 0; k < p->n; k++) {
        if (!hs_gp_drawn(k, p->n, stride)) continue;
        hs_gp_number(f, p->t[k]);
        for (int j = 0; j < na; j++) {
            const size_t at = (size_t)k * (size_t)p->nact + (size_t)j;
            hs_gp_number(f, p->act_te[at]);
            hs_gp_number(f, p->act_ti[at]);
        }
        fputc('\n', f);
    }
    fputs("EOD\n", f);

    const int top = 70, te_px = 190, inner = 16, ti_px = 190, gap = 70, bottom = 55;
    const int height = top + na * (te_px + inner + ti_px + gap) - gap + bottom;
    const double H = (double)height;
    char title[3 * HS_PLOT_TEXT + 64];
    hs_gp_title_first(p, "site controllers: tracking error and tracking indicator per actuator", na,
                      p->nact, title, sizeof title);
    hs_gp_terminal(f, 1100, height, ".actuators_ti.png.part");
    hs_gp_reset(f);
    fputs("set multiplot title ", f);
    hs_gp_quote(f, title);
    fputs(" font ',12'\nset lmargin at screen 0.09\nset rmargin at screen 0.97\n"
          "set key top right\nset xzeroaxis lc rgb '#999999'\n",
          f);
    if (p->t[p->n - 1] > p->t[0]) {
        fprintf(f, "set xrange [%.9g:%.9g]\n", p->t[0], p->t[p->n - 1]);
    } else {
        hs_gp_range(f, "x", p->t, p->n, 1, 0);
    }
    double y = top;
    for (int j = 0; j < na; j++) {
        double sp;
        char key[2 * HS_PLOT_TEXT + 160];
        const double te_peak = peak_of(p, p->act_te, j, &sp);
        band(f, H, y, te_px);
        fputs("set format x ''\nunset xlabel\nset title ", f);
        hs_gp_quote(f, p->act_names[j]);
        fputs("\nset ylabel ", f);
        hs_gp_label(f, "tracking error", p->unit_length);
        fputc('\n', f);
        snprintf(key, sizeof key,
                 "command - actuator position at each measurement: largest |e| %.3g %s", te_peak,
                 p->unit_length);
        ti_panel(f, p, p->act_te, j, 2 * j + 2, "#d62728", key);
        y += te_px + inner;

        peak_of(p, p->act_ti, j, &sp);
        band(f, H, y, ti_px);
        fputs("unset title\nset format x '% h'\nset ylabel ", f);
        hs_gp_label(f, "TI", p->unit_ti);
        fputc('\n', f);
        if (j == na - 1) {
            fputs("set xlabel ", f);
            hs_gp_label(f, "time", p->unit_time);
            fputc('\n', f);
        }
        snprintf(key, sizeof key,
                 "tracking indicator (> 0: the actuator lags, < 0: it leads): peak %.3g %s", sp,
                 p->unit_ti);
        ti_panel(f, p, p->act_ti, j, 2 * j + 3, "#6a3d9a", key);
        y += ti_px + gap;
    }
    fputs("unset multiplot\nset output\n", f);
}

void hs_plot_script_sites(FILE *f, const hs_plot_data *p)
{
    if (p->nsites < 1) return;
    script_states(f, p);
    script_delay(f, p);
    if (has_ti(p)) script_ti(f, p);
}
