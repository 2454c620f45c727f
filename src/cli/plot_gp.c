/* gnuplot script helpers shared by the `hysim plot` figures: quoting, labels, numbers, the
 * terminal, ranges, thinning of long series. */
#include "plot_gp.h"

#include <math.h>
#include <string.h>

/* A gnuplot single-quoted string: '' stands for a quote; no backquote or macro substitution
 * happens inside; control characters become spaces. */
void hs_gp_quote(FILE *f, const char *s)
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
void hs_gp_label(FILE *f, const char *what, const char *unit)
{
    char buf[2 * HS_PLOT_TEXT + 64];
    if (unit && unit[0] && strcmp(unit, "1") != 0) {
        snprintf(buf, sizeof buf, "%s [%s]", what, unit);
    } else {
        snprintf(buf, sizeof buf, "%s", what);
    }
    hs_gp_quote(f, buf);
}

void hs_gp_number(FILE *f, double x)
{
    if (isfinite(x)) {
        fprintf(f, " %.9g", x);
    } else {
        fputs(" ?", f);
    }
}

static char hs_gp_fmt[4] = "png";

int hs_gp_set_format(const char *format)
{
    if (strcmp(format, "png") != 0 && strcmp(format, "svg") != 0 && strcmp(format, "pdf") != 0)
        return -1;
    snprintf(hs_gp_fmt, sizeof hs_gp_fmt, "%s", format);
    return 0;
}

const char *hs_gp_format(void)
{
    return hs_gp_fmt;
}

void hs_gp_output_name(const char *png_name, char *out, size_t len)
{
    const char *dot = strstr(png_name, ".png");
    const int stem = dot ? (int)(dot - png_name) : (int)strlen(png_name);
    snprintf(out, len, "%.*s.%s%s", stem, png_name, hs_gp_fmt, dot ? dot + 4 : "");
}

void hs_gp_terminal(FILE *f, int width, int height, const char *part)
{
    if (strcmp(hs_gp_fmt, "svg") == 0)
        fprintf(f, "set terminal svg noenhanced size %d,%d font 'Sans,10' background '#ffffff'\n",
                width, height);
    else if (strcmp(hs_gp_fmt, "pdf") == 0)
        fprintf(f, "set terminal pdfcairo noenhanced size %.3fin,%.3fin font 'Sans,7'\n",
                width / 96.0, height / 96.0);
    else
        fprintf(f,
                "if (cairo) { set terminal pngcairo noenhanced size %d,%d font 'Sans,10' } "
                "else { set terminal png noenhanced size %d,%d }\n",
                width, height, width, height);
    char name[256];
    hs_gp_output_name(part, name, sizeof name);
    fputs("set output ", f);
    hs_gp_quote(f, name);
    fputc('\n', f);
}

void hs_gp_title(const hs_plot_data *p, const char *what, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s%s%s", p->name[0] ? p->name : "hysim run", ": ", what,
             p->status[0] ? " (" : "", p->status, p->status[0] ? ")" : "");
}

int64_t hs_gp_stride_of(int64_t n)
{
    return n > HS_GP_MAX_POINTS ? (n + HS_GP_MAX_POINTS - 1) / HS_GP_MAX_POINTS : 1;
}

/* Records to draw: every stride-th and always the last. */
int hs_gp_drawn(int64_t k, int64_t n, int64_t stride)
{
    return k % stride == 0 || k == n - 1;
}

void hs_gp_reset(FILE *f)
{
    fputs("reset\nset datafile missing '?'\n"
          "set grid lc rgb '#dddddd' lt 1\nset border lc rgb '#404040'\n"
          "set key box lc rgb '#bbbbbb' opaque\n",
          f);
}

/* Range of the finite values of column col of an n x width block; returns how many there are. */
int64_t hs_gp_finite_range(const double *x, int64_t n, int width, int col, double *lo, double *hi)
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
void hs_gp_range(FILE *f, const char *axis, const double *x, int64_t n, int width, int col)
{
    double lo, hi;
    if (hs_gp_finite_range(x, n, width, col, &lo, &hi) > 0 && !(hi > lo)) {
        double pad = fabs(lo) > 0 ? 0.1 * fabs(lo) : 1.0;
        fprintf(f, "set %srange [%.9g:%.9g]\n", axis, lo - pad, hi + pad);
    } else {
        fprintf(f, "set %srange [*:*]\n", axis);
    }
}

/* A panel that says why there is nothing to draw (keeps the multiplot grid in place); `key`
 * says whether the key is to be shown again afterwards. */
void hs_gp_empty_panel(FILE *f, const char *why, int key)
{
    fputs("unset border\nunset tics\nunset grid\nunset key\nset label 1 ", f);
    hs_gp_quote(f, why);
    fputs(" at graph 0.5,0.5 center font ',13'\nplot [0:1][0:1] 2 notitle\n"
          "unset label 1\nset border\nset tics\nset grid\nset xrange [*:*]\nset yrange [*:*]\n",
          f);
    if (key) fputs("set key\n", f);
}

/* Tic spacing of about `target` intervals over [lo, hi] (1, 2 or 5 times a power of ten). */
double hs_gp_nice_step(double lo, double hi, int target)
{
    double raw = (hi - lo) / target;
    if (!(raw > 0) || !isfinite(raw)) return 0;
    double mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* A single record is drawn as points (a line needs two). */
const char *hs_gp_style_of(const hs_plot_data *p)
{
    return p->n > 1 ? "lines" : "points pt 7";
}

void hs_gp_title_first(const hs_plot_data *p, const char *what, int drawn, int total, char *buf,
                       size_t len)
{
    char w[160];
    if (drawn < total) {
        snprintf(w, sizeof w, "%s (first %d of %d)", what, drawn, total);
    } else {
        snprintf(w, sizeof w, "%s", what);
    }
    hs_gp_title(p, w, buf, len);
}

void hs_gp_empty_figure(FILE *f, const char *title, const char *why)
{
    fputs("set title ", f);
    hs_gp_quote(f, title);
    fputs(" font ',12'\nunset border\nunset tics\nunset grid\nunset key\nset label 1 ", f);
    hs_gp_quote(f, why);
    fputs(" at graph 0.5,0.5 center font ',14'\nplot [0:1][0:1] 2 notitle\nset output\n", f);
}

void hs_gp_loop_grid(FILE *f, const hs_plot_data *p, const hs_gp_loops *g)
{
    const int64_t stride = hs_gp_stride_of(p->n);
    fprintf(f, "%s << EOD\n", g->block);
    for (int64_t k = 0; k < p->n; k++) {
        if (!hs_gp_drawn(k, p->n, stride)) continue;
        for (int j = 0; j < g->count; j++) {
            const size_t at = (size_t)k * (size_t)g->width + (size_t)j;
            hs_gp_number(f, g->x[at]);
            hs_gp_number(f, g->y[at]);
        }
        fputc('\n', f);
    }
    fputs("EOD\n", f);

    const int cols = (int)ceil(sqrt((double)g->count)), rows = (g->count + cols - 1) / cols;
    /* wide enough for the title at font 12 (about 8.5 pixels a character): with one or two
     * panels the grid alone would cut it off */
    int width = 60 + g->panel_width * cols;
    const int title_px = 60 + (int)(8.5 * (double)strlen(g->title));
    if (title_px > width) width = title_px;
    hs_gp_terminal(f, width, 80 + g->panel_height * rows, g->part);
    hs_gp_reset(f);
    fputs("unset key\nset xzeroaxis lc rgb '#999999'\nset yzeroaxis lc rgb '#999999'\n", f);
    fputs("set xlabel ", f);
    hs_gp_label(f, g->xlabel, g->xunit);
    fputs("\nset ylabel ", f);
    hs_gp_label(f, g->ylabel, g->yunit);
    fprintf(f, "\nset multiplot layout %d,%d title ", rows, cols);
    hs_gp_quote(f, g->title);
    fputs(" font ',12'\n", f);
    for (int j = 0; j < g->count; j++) {
        fputs("set title ", f);
        hs_gp_quote(f, g->names ? g->names[j] : "");
        fputc('\n', f);
        double lo, hi;
        if (hs_gp_finite_range(g->x, p->n, g->width, j, &lo, &hi) == 0 ||
            hs_gp_finite_range(g->y, p->n, g->width, j, &lo, &hi) == 0) {
            hs_gp_empty_panel(f, g->empty, 0);
            continue;
        }
        hs_gp_range(f, "x", g->x, p->n, g->width, j);
        hs_gp_range(f, "y", g->y, p->n, g->width, j);
        /* narrow panels: about four tic intervals, so that the labels do not run together */
        hs_gp_finite_range(g->x, p->n, g->width, j, &lo, &hi);
        const double step = hs_gp_nice_step(lo, hi, 4);
        if (step > 0) {
            fprintf(f, "set xtics %.9g\n", step);
        } else {
            fputs("set xtics autofreq\n", f);
        }
        fprintf(f, "plot %s using %d:%d with %s lw 1.2 lc %d notitle\n", g->block, 2 * j + 1,
                2 * j + 2, hs_gp_style_of(p), j % 8 + 1);
    }
    fputs("unset multiplot\nset output\n", f);
}
